"""Each discard's chance to win and expected payout within N draws (`mjcalc advise --by win|value`).

The model (issue 15). The player discards now, then draws up to `draws` tiles, one at a time, uniformly without
replacement from the unseen tiles (all 136 less the 14 in hand, their melds and `seen`). After each draw:

* a hand that is complete and a legal self-draw win under the ruleset is won at once (the player always takes
  a legal win, even when waiting might pay more);
* otherwise the player discards. A drawn tile that lowers the shanten is kept, and the tile thrown is the one,
  among those that lower the shanten, best for the objective; any other drawn tile is thrown at once (摸切).
  The player never trades tiles at the same shanten and never goes back (no 向听戻し); the choice depends on
  the hand and the draws left, not on which useless tiles went by.

No calls, no kongs, no other players (nobody else draws or wins). Wildcards are drawn like any tile and are
wild when drawn. The objective is `win` (the probability of winning within the draws) or `value` (the
expected payout to the player: the payout scheme's delta for the player's seat on that self-draw win, with
the situation options, the ways of winning given now dropped; 0 when no win). Ties in one objective are
broken by the other. A discard is valued when it leaves the hand as close to ready as the best discard, or
1 from ready (so a ready hand's discards that break it are valued too, for a bigger hand).

The computation. Between two changes of the hand the draws that do not change it are alike, so a hand state
is a *phase*: a 13-tile hand, the draws left when it was reached, and its useful kinds (those that win or
lower the shanten). The phase ends at its first useful draw, after `i - 1` useless ones; with `G` useful
tiles among `M` unseen the chance of that is C(M-G, i-1)/C(M, i-1) · (tiles of the kind)/(M-i+1), so a
phase is a sum over `i` and the kind drawn, each followed by the best discard (expectimax, memoised on the
hand, the draws left and the first discard). A ready hand's phase is closed form: with `K` winning tiles,
P(win within r) = 1 - C(M-K, r)/C(M, r), each winning kind in proportion to its tiles left.

Exactness. The wall's count of a kind is its unseen copies less those drawn and still held, and that is
exact in this model: a tile kept is never thrown later, and a kind thrown is never drawn back and kept (either
would undo a step while the shanten fell at every step, and one tile moves the shanten by one at most); a
kind useless in a phase is useless in every later phase (a tile that helps a later hand helps every hand on
the way to it), so the useless draws matter only through the size of the wall, which is counted. The
figures are exact for any shanten, except that from `DEEP` (3) from ready only the `DEEP_OPTIONS` (2)
discards leaving the most improving tiles are weighed after a useful draw: there the figures are those of
that narrower play, a lower bound, marked `exact: False`.

Scoring goes through one adapter, `_score_self_draw`, the only place that calls the library's scorer; every
complete hand is scored once per (tiles, winning tile), in this process. A win whatever the shape (a region's
`automatic_win`) is found through the region's `automatic_draws`; this module names no region's rules.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from .hand import WILD, Hand
from .shanten import improvements as _improvements
from .shanten import shanten as _shanten
from .shapes import WaitFinder, is_complete
from .tiles import NAMES, NUM_KINDS

DEFAULT_DRAWS = 8
DEEP = 3  # from this shanten on, only the DEEP_OPTIONS most promising discards are weighed after a useful draw
DEEP_OPTIONS = 2
OBJECTIVES = ("win", "value")
STAR = WILD  # index 34 of a hand vector: wildcards written `*` (their face is the first wild kind, if any)


# ===================================================================================================
# Library adapter: everything value.py needs from the situation checks, the region, the scorer and the
# payout schemes is called here and nowhere else.
# ===================================================================================================


def _setting(hand: Hand, ruleset, situation, seen):
    """The hand's setting (`analysis.setting`: the situation checked and read by the region, the tiles under
    the wildcards), after the same checks `advise` makes, and the seen counts checked against the hand."""
    from .analysis import check_seen, setting  # imported when used (start-up time)

    here = setting(hand, ruleset, situation)
    return here, check_seen(here.tiles.held, seen)


def _self_draw_situation(situation):
    """The situation of a later self-draw win: the ways of winning given now (--from, --kong-draw,
    --rob-kong, --first-turn, --last-tile) describe this moment, not the draws to come; the rest is kept."""
    return situation.replace(discarder=None, rob_kong=False, kong_draw=0, first_turn=False, last_tile=False)


def _tiles(hand: Hand, wild_kinds):
    from .scoring import prepare  # imported when used (start-up time)

    return prepare(hand, wild_kinds)


def _automatic_draws(region, ruleset, situation, tiles):
    """The kinds whose draw wins the 13 `tiles` whatever the shape; None: no automatic win in this setting."""
    return region.automatic_draws(ruleset, situation, tiles)


def _score_self_draw(tiles, ruleset, situation, region) -> Tuple[bool, int, Tuple[str, ...]]:
    """A 14-tile hand (`scoring.Tiles`) won by self-draw on its winning tile: (legal win, payout to the
    player's seat, pattern ids counted). Not legal (or not complete): (False, 0, ())."""
    from .analysis import pay  # imported when used (start-up time)
    from .scoring import score_hand

    score = score_hand(tiles, situation, ruleset, region)
    if not score.legal:
        return False, 0, ()
    return True, pay(score, ruleset, region).deltas[situation.seat], tuple(m.pattern_id for m in score.matches)


# ===================================================================================================
# The engine.
# ===================================================================================================


@dataclass
class Outcome:
    """P(win), expected payout, and the probability of each winning pattern set (a tuple of pattern ids)."""

    p: float = 0.0
    e: float = 0.0
    patterns: Dict[Tuple[str, ...], float] = field(default_factory=dict)

    def add(self, other: "Outcome", weight: float):
        if weight == 0.0 or other.p == 0.0:
            return
        self.p += weight * other.p
        self.e += weight * other.e
        pats = self.patterns
        for key, q in other.patterns.items():
            pats[key] = pats.get(key, 0.0) + weight * q


ZERO = Outcome()


@dataclass
class DiscardValue:
    """One evaluated discard: `tile` a kind (or `STAR` for a `*`); `exact` as in the module docstring."""

    tile: int
    shanten: int
    p_win: float
    expected: float
    top_patterns: List[Tuple[Tuple[str, ...], float]]
    exact: bool


@dataclass
class ValueAdvice:
    by: str
    draws: int
    unseen: int
    discards: List[DiscardValue]  # evaluated discards, best for the objective first
    skipped: List[int]  # discards not valued: 2 or more from ready and further than the best

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.discards)


class Engine:
    """Values of 13-tile hand states for one 14-tile hand, ruleset, situation, wall and objective."""

    def __init__(self, hand: Hand, ruleset, situation, seen=None, draws: int = DEFAULT_DRAWS, by: str = "value"):
        if by not in OBJECTIVES:
            raise ValueError(f"--by takes win or value, got {by!r}")
        if hand.size != 14:
            raise ValueError(f"{hand.size} tiles: the value of discards needs a 14-tile hand")
        self.ruleset, self.by = ruleset, by
        self.hand = hand
        here, seen = _setting(hand, ruleset, situation, seen)
        self.region = here.region
        self.situation = _self_draw_situation(here.situation)
        held = here.tiles.held
        self.wild_kinds = tuple(here.tiles.wild_kinds)
        self.face = self.wild_kinds[0] if self.wild_kinds else -1
        self.melds = len(hand.melds)
        self.meld_held = [0] * NUM_KINDS
        for t in hand.meld_tiles:
            self.meld_held[t] += 1
        self.shapes = ruleset.shapes
        root = [0] * (NUM_KINDS + 1)
        for t in hand.tiles:
            root[t] += 1
        self.root = tuple(root)
        self.start = {}  # a discard -> the 13 tiles it leaves
        for d in range(NUM_KINDS + 1):
            if root[d]:
                root[d] -= 1
                self.start[d] = tuple(root)
                root[d] += 1
        self.unseen0 = tuple(max(0, 4 - held[t] - seen[t]) for t in range(NUM_KINDS))
        self.wall = sum(self.unseen0)
        if draws < 0:
            raise ValueError(f"--draws must be 0 or more, got {draws}")
        self.draws = min(draws, self.wall)
        self.finder = WaitFinder(self.shapes, self.wild_kinds)
        self._shanten: Dict[tuple, int] = {}
        self._useful: Dict[tuple, tuple] = {}
        self._scores: Dict[tuple, Tuple[bool, int, tuple]] = {}
        self._wins: Dict[tuple, tuple] = {}
        self._phase: Dict[tuple, Outcome] = {}
        self._decisions: Dict[tuple, Dict[tuple, int]] = {}
        self._tail: Dict[tuple, float] = {}
        self._trimmed: Dict[tuple, tuple] = {}
        self.inexact = set()  # discards whose figures used the DEEP approximation
        self._auto: Dict[tuple, frozenset] = {}
        self._pools: Dict[tuple, tuple] = {}
        # whether a hand can win whatever its shape here (None is an answer for every hand: the hook's contract)
        self.automatic = self._automatic(next(iter(self.start.values()))) is not None

    # --- hand vectors: 35 counts, the 34 kinds (wild kinds included) and `*` ----------------------

    def _split(self, h):
        naturals = list(h[:NUM_KINDS])
        wilds = h[STAR]
        for k in self.wild_kinds:
            wilds += naturals[k]
            naturals[k] = 0
        return naturals, wilds

    def shanten(self, h) -> int:
        s = self._shanten.get(h)
        if s is None:
            naturals, wilds = self._split(h)
            s = self._shanten[h] = _shanten(naturals, wilds, self.melds, self.shapes)
        return s

    def _held(self, h, k: int) -> int:
        return h[k] + (h[STAR] if k == self.face else 0) + self.meld_held[k]

    def is_better(self, a: Outcome, b: Outcome) -> bool:
        if self.by == "win":
            return a.p - b.p > 1e-12 or (abs(a.p - b.p) <= 1e-12 and a.e - b.e > 1e-9)
        return a.e - b.e > 1e-9 or (abs(a.e - b.e) <= 1e-9 and a.p - b.p > 1e-12)

    def pool(self, h, base: int) -> Tuple[int, ...]:
        """Tiles of each kind left in the wall: the unseen copies less those drawn and still held, the hand
        having started as the 14 tiles less `base`. Exact in this model: a kept tile is never thrown later,
        and no thrown kind is drawn back and kept (see the module docstring)."""
        key = (h, base)
        hit = self._pools.get(key)
        if hit is None:
            hit = self._pools[key] = tuple([u - (x - y if x > y else 0)
                                            for u, x, y in zip(self.unseen0, h, self.start[base])])
        return hit

    # --- scoring ------------------------------------------------------------------------------------

    def win(self, h13, k: int) -> Tuple[bool, int, tuple]:
        """Drawing `k` into the 13-tile `h13`: (legal win, payout to the player, pattern ids)."""
        h = list(h13)
        h[k] += 1
        h = tuple(h)
        key = (h, k)
        hit = self._scores.get(key)
        if hit is None:
            naturals, wilds = self._split(h)
            complete = is_complete(naturals, wilds, self.melds, self.shapes) or (
                self.automatic and k in self._automatic(h13))
            if not complete:
                hit = (False, 0, ())
            else:
                tiles = _tiles(self._as_hand(h, k), self.wild_kinds)
                hit = _score_self_draw(tiles, self.ruleset, self.situation, self.region)
            self._scores[key] = hit
        return hit

    def _as_hand(self, h, k) -> Hand:
        concealed = [t for t in range(NUM_KINDS) for _ in range(h[t])] + [WILD] * h[STAR]
        concealed.remove(k)
        return Hand(tuple(sorted(concealed)), self.hand.melds, k)

    def _automatic(self, h13):
        """The kinds whose draw wins the 13-tile `h13` whatever its shape (None: no such win in this setting)."""
        if h13 in self._auto:
            return self._auto[h13]
        concealed = [t for t in range(NUM_KINDS) for _ in range(h13[t])] + [WILD] * h13[STAR]
        tiles = _tiles(Hand(tuple(concealed), self.hand.melds), self.wild_kinds)
        hit = _automatic_draws(self.region, self.ruleset, self.situation, tiles)
        self._auto[h13] = hit = None if hit is None else frozenset(hit)
        return hit

    def wins(self, h13) -> tuple:
        """The kinds whose draw wins the 13-tile `h13` legally, each with (payout, pattern ids)."""
        hit = self._wins.get(h13)
        if hit is None:
            candidates = set()
            if self.shanten(h13) == 0:
                naturals, wilds = self._split(h13)
                candidates.update(self.finder.waits(naturals, wilds, self.melds, [0] * NUM_KINDS))
            if self.automatic:
                candidates.update(self._automatic(h13))  # draws that win whatever the shape
            found = []
            for k in sorted(candidates):
                if self._held(h13, k) >= 4 or not self.unseen0[k]:
                    continue  # no copy left to draw: nothing to score
                legal, pay, pats = self.win(h13, k)
                if legal:
                    found.append((k, pay, pats))
            hit = self._wins[h13] = tuple(found)
        return hit

    # --- transitions ---------------------------------------------------------------------------------

    def useful(self, h13) -> Tuple[Tuple[int, tuple], ...]:
        """The kinds whose draw lowers the shanten of a 13-tile hand that is not ready, each with the discards
        that then lower it (kinds, `STAR` for a `*`)."""
        hit = self._useful.get(h13)
        if hit is None:
            s = self.shanten(h13)
            out = []
            if s > 0:
                naturals, wilds = self._split(h13)
                kinds, _ = _improvements(naturals, wilds, self.melds, self.shapes, self.wild_kinds)
                for k in kinds:
                    h = list(h13)
                    h[k] += 1
                    options = []
                    for d in range(NUM_KINDS + 1):
                        if h[d] and d != k:
                            h[d] -= 1
                            if self.shanten(tuple(h)) < s:
                                options.append(d)
                            h[d] += 1
                    if options:
                        out.append((k, tuple(options)))
            hit = self._useful[h13] = tuple(out)
        return hit

    @staticmethod
    def _after(h13, k, d):
        h = list(h13)
        h[k] += 1
        h[d] -= 1
        return tuple(h)

    def _miss(self, m: int, kk: int, r: int) -> float:
        """P(none of `kk` good tiles among `r` drawn from `m`)."""
        key = (m, kk, r)
        hit = self._tail.get(key)
        if hit is None:
            q = 1.0
            for j in range(r):
                if m - kk - j <= 0:
                    q = 0.0
                    break
                q *= (m - kk - j) / (m - j)
            hit = self._tail[key] = q
        return hit

    def ready(self, h13, r: int, m: int, pool) -> Outcome:
        """A ready hand with `r` draws left from a wall of `m` holding `pool`: with K winning tiles,
        P(win) = 1 - C(m - K, r)/C(m, r), and the kind that wins is in proportion to its tiles left."""
        wins = [(k, pay, pats) for k, pay, pats in self.wins(h13) if pool[k] > 0]
        total = sum(pool[k] for k, _, _ in wins)
        if r <= 0 or total <= 0:
            return ZERO
        hit = (1.0 - self._miss(m, total, r)) / total
        out = Outcome()
        for k, pay, pats in wins:
            w = hit * pool[k]
            out.p += w
            out.e += w * pay
            out.patterns[pats] = out.patterns.get(pats, 0.0) + w
        return out

    def phase(self, h13, r: int, base: int) -> Outcome:
        """The value of the 13-tile hand `h13` reached with `r` draws left, after throwing `base` from the 14
        (memoised on all three)."""
        key = (h13, r, base)
        hit = self._phase.get(key)
        if hit is not None:
            return hit
        s = self.shanten(h13)
        m = self.wall - (self.draws - r)
        if s + 1 > r and not self.automatic:
            out = ZERO
        elif s == 0:
            out = self.ready(h13, r, m, self.pool(h13, base))
        else:
            out = self._progress(h13, r, s, m, self.pool(h13, base), base)
        self._phase[key] = out
        return out

    def _progress(self, h13, r, s, m, pool, base) -> Outcome:
        """A hand `s` from ready: the sum over the draw `i` that first brings a useful tile, and its kind."""
        wins = [(k, Outcome(1.0, float(pay), {pats: 1.0})) for k, pay, pats in self.wins(h13) if pool[k]]
        won = {k for k, _ in wins}
        moves = [(k, self._options(h13, k, ds, s, base)) for k, ds in self.useful(h13) if pool[k] and k not in won]
        good = sum(pool[k] for k in won) + sum(pool[k] for k, _ in moves)
        useless = m - good
        decisions = self._decisions.setdefault((h13, r, base), {})
        out = Outcome()
        reach = 1.0  # P(the first i - 1 draws were all useless)
        for i in range(1, r + 1):
            size = m - i + 1
            left = r - i
            for k, o in wins:
                out.add(o, reach * pool[k] / size)
            for k, ds in moves if left >= s else ():
                best, best_d = None, ds[0]
                for d in ds:
                    o = self.phase(self._after(h13, k, d), left, base)
                    if best is None or self.is_better(o, best):
                        best, best_d = o, d
                decisions[(k, left)] = best_d
                out.add(best, reach * pool[k] / size)
            if useless - (i - 1) <= 0:
                break
            reach *= (useless - (i - 1)) / size
        return out

    def _options(self, h13, k, ds, s, base):
        """The discards weighed after keeping `k`: all of them, except far from ready (`DEEP` or more),
        where only the `DEEP_OPTIONS` leaving the most tiles that improve the hand are (an approximation)."""
        if s < DEEP or len(ds) <= DEEP_OPTIONS:
            return ds
        self.inexact.add(base)
        key = (h13, k)
        hit = self._trimmed.get(key)
        if hit is None:
            pool = self.unseen0
            scored = []
            for d in ds:
                after = self._after(h13, k, d)
                scored.append((-sum(pool[t] for t, _ in self.useful(after)), d))
            hit = self._trimmed[key] = tuple(d for _, d in sorted(scored)[:DEEP_OPTIONS])
        return hit

    # --- the policy, one draw at a time (for simulators) -------------------------------------------

    def decide(self, base: int, phase_h, phase_r: int, drawn: int, left: int) -> int:
        """What the player throws after drawing `drawn` (no legal win) with `left` draws then left, in the phase
        begun at hand `phase_h` with `phase_r` draws left: the drawn tile, or the hand tile chosen."""
        moves = dict(self.useful(phase_h))
        if drawn not in moves:
            return drawn
        self.phase(phase_h, phase_r, base)
        choice = self._decisions.get((phase_h, phase_r, base), {}).get((drawn, left))
        return drawn if choice is None else choice  # none stored: too late to use it, the engine threw it

    def player(self, discard: int) -> "Player":
        return Player(self, discard)

    # --- the answer --------------------------------------------------------------------------------

    def evaluate(self, top: int = 3) -> ValueAdvice:
        shanten = {d: self.shanten(h) for d, h in self.start.items()}
        limit = max(min(shanten.values()), 1)
        results, skipped = [], []
        for d, h in self.start.items():
            s = shanten[d]
            if s > limit:
                skipped.append(d)
                continue
            o = self.phase(h, self.draws, d)
            pats = [(ids, min(q, 1.0)) for ids, q in sorted(o.patterns.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
            results.append(DiscardValue(d, s, min(o.p, 1.0), o.e, pats, d not in self.inexact))  # 1 + rounding
        if self.by == "win":
            results.sort(key=lambda v: (-round(v.p_win, 12), -round(v.expected, 9), v.shanten, v.tile == STAR, v.tile))
        else:
            results.sort(key=lambda v: (-round(v.expected, 9), -round(v.p_win, 12), v.shanten, v.tile == STAR, v.tile))
        return ValueAdvice(self.by, self.draws, self.wall, results, skipped)


class Player:
    """The engine's policy played one draw at a time after throwing `discard`: `throw(drawn)` says what the
    player throws when `drawn` does not win (the caller judges wins), and keeps track of the hand."""

    def __init__(self, engine: Engine, discard: int):
        if discard not in engine.start:
            raise ValueError(f"{tile_name(discard)} is not in the hand")
        self.engine = engine
        self.base = discard
        self.hand = engine.start[discard]
        self.left = engine.draws
        self.phase = (self.hand, self.left)

    def throw(self, drawn: int) -> int:
        self.left -= 1
        thrown = self.engine.decide(self.base, self.phase[0], self.phase[1], drawn, self.left)
        if thrown != drawn:
            self.hand = self.engine._after(self.hand, drawn, thrown)
            self.phase = (self.hand, self.left)
        return thrown


def advise_value(hand: Hand, ruleset, situation, seen=None, draws: int = DEFAULT_DRAWS, by: str = "value",
                 top: int = 3) -> ValueAdvice:
    """Every discard of a 14-tile hand valued by P(win within `draws`) and expected payout (module docstring)."""
    return Engine(hand, ruleset, situation, seen, draws, by).evaluate(top)


def tile_name(tile: int) -> str:
    return "*" if tile == STAR else NAMES[tile]
