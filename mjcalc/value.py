"""Each discard's chance to win and expected payout within N draws (`mjcalc advise --by win|value`).

The model (issue 15). The player discards now, then draws up to `draws` tiles, one at a time, from the unseen
tiles (`tiles.Wall`: the ruleset's wall less the 14 in hand, their melds, `seen` and what the region's rules
take out: the turned-up tile, a flown 宝). After each draw:

* a hand that is complete and a legal self-draw win under the ruleset is won at once (the player always takes
  a legal win, even when waiting might pay more);
* otherwise the player throws the tile best for the objective, with the draws then left: the drawn tile, or
  a hand tile, keeping the drawn one. A kept tile may lower the shanten, or leave it where it was (an
  exchange: a wider or better-paying wait, a better shape); the shanten never goes back up (no 向听戻し,
  as in mahjong-cpp's default: a step back costs a draw that 8 draws rarely repay, and it would make the
  hands reachable grow without bound).

No calls, no kongs, no other players (nobody else draws or wins). Wildcards are drawn like any tile and are
wild when drawn. The objective is `win` (the probability of winning within the draws) or `value` (the
expected payout to the player: the payout scheme's delta for the player's seat on that self-draw win, with
the situation options, the ways of winning given now dropped; 0 when no win). Ties in one objective are
broken by the other. A discard is valued when it leaves the hand as close to ready as the best discard, or
1 from ready (so a ready hand's discards that break it are valued too, for a bigger hand).

The wall. A state is the 13-tile hand (its counts, wildcards included) and the draws left; the wall is the
unseen tiles less the draws made (it shrinks by one a draw), and of a kind it holds the unseen copies less
those drawn and now held. A drawn tile thrown at once is not remembered: nor is a drawn tile kept and later
thrown, which the count puts back. Both are the issue's model (the memo is keyed by the hand and the draws
left); a real wall lacks those tiles, which matters only when such a kind is wanted later, and the
simulator in `tests/simulate_value.py`, which deals real walls, agrees within its sampling error. The draw
of kind k has chance (tiles of k)/(wall), and with `stay` the value with one draw fewer and the hand
unchanged,

    value(h, r) = stay + sum over kinds k worth drawing of (tiles of k)/(wall) * (best after k - stay)

(were the kinds worth drawing to outnumber the wall, possible only late in a long --draws, they share it
in proportion). A ready hand that keeps its tiles has the closed form P(win within r) = 1 - C(M-K, r)/C(M, r)
with K winning tiles among M, each winning kind in proportion to its tiles left.

Exchanges, and what is exact. Every hand reachable by exchanges is too many (from a ready hand: 32, 406,
3394, 20378 hands after 1, 2, 3, 4 exchanges), so, as mahjong-cpp does (its `extra`), exchanges have a
budget: a drawn tile that does not lower the shanten may be kept only while the tiles drawn and kept since
the first discard (the hand's distance from the one it began with) plus the shanten are below the first
shanten plus `SWAPS` (1): one exchange, more once a kept tile is thrown again. The figures are the exact
best play within that budget ("exact" in the output) for the discards at the best shanten when it is 0 or
1 and the hand holds no wildcard, and with `exact` for every discard 0 or 1 from ready. Elsewhere the
narrower play is weighed, marked `exact: False` (`~`), a lower bound of the best play: a drawn tile is kept
only when it lowers the shanten (no exchanges), and in a play begun `DEEP` (2) or more from ready only the
`DEEP_OPTIONS` (2) discards leaving the most improving tiles are weighed after a useful draw. Without
`exact`, that is so for the discards that break a ready hand, for hands holding a wildcard (with wildcards
nearly every draw is an exchange: a hand 1 from ready took 4-90 s with one), and when the exchanges' work
passes `WORK` (then this discard and those after it, less promising, are weighed without exchanges); always
for hands 2 or more from ready. A second exchange changes the figures of the best play by up to a few per
cent (the README measures it): a budget of 1 is the model, not the unbounded best play.

A time cap (`seconds`, for a server; none by default, and then nothing here reads a clock). The clock is read
every `TICKS` states valued or hands scored, where the work is counted. Once `EXCHANGE_SHARE` of the seconds
has passed while exchanges are weighed, they are given up as when the work passes `WORK` (this discard and
those after it: the narrower play, `~`); once all of them have passed while the narrower play is weighed,
valuing stops: that discard and those after it (the less promising) are `unvalued`, and the answer says it was
cut (`timed_out`). The figures given are those of a run without the cap, or, for the discards the cap reached,
of the narrower play (a lower bound).

Scoring goes through one adapter, `_score_self_draw`, the only place that calls the library's scorer; every
complete hand is scored once per (tiles, winning tile), in this process, and once for all its winning tiles
when the region's reading keys read no winning tile (`_winning_tile_free`). A win whatever the shape (a region's
`automatic_win`) is found through the region's `automatic_draws`; this module names no region's rules.
"""
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

from .errors import SituationError
from .hand import Hand
from .shanten import gains as _gains
from .shanten import improvements as _improvements
from .shanten import shanten as _shanten
from .shapes import WaitFinder, is_complete
from .situation import FIELD_OF
from .tiles import NAMES, NUM_KINDS, WILD

DEFAULT_DRAWS = 8
DEEP = 2  # a play begun this far from ready or further weighs only DEEP_OPTIONS discards after a useful draw
DEEP_OPTIONS = 2
SWAPS = 1  # exchanges that keep the shanten, allowed to a hand 0 or 1 from ready after the first discard
WORK = 45000  # states valued plus twice the complete hands scored, past which exchanges are given up
EXCHANGE_SHARE = 0.5  # with a time cap: the share of its seconds past which exchanges are given up
TICKS = 32  # with a time cap: states valued and hands scored between two readings of the clock
WIN = -1  # a decision: the drawn tile wins
OBJECTIVES = ("win", "value")
STAR = WILD  # index 34 of a hand vector: wildcards written `*` (their face is the first wild kind, if any)


# ===================================================================================================
# Library adapter: everything value.py needs from the situation checks, the region, the scorer and the
# payout schemes is called here and nowhere else.
# ===================================================================================================


def _setting(hand: Hand, ruleset, situation, seen):
    """The hand's setting (`analysis.setting`: the situation checked and read by the region, the tiles under
    the wildcards), after the same checks `advise` makes, and the wall as the player knows it (`tiles.Wall`:
    the ruleset's tiles less the 14, those seen and those the region's rules take out)."""
    from .analysis import setting, wall_of  # imported when used (start-up time)

    here = setting(hand, ruleset, situation)
    return here, wall_of(here, seen)


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


def _winning_tile_free(tiles, ruleset, situation, region) -> bool:
    """Whether the region promises that this hand scores alike whichever of its tiles won it (its reading keys
    read no winning tile: `ReadingKeys.place` None), so that one score serves every winning tile."""
    from .scoring import reading_keys  # imported when used (start-up time)

    keys = reading_keys(tiles, situation, ruleset, region)
    return keys is not None and keys.place is None


def _score_self_draw(tiles, ruleset, situation, region) -> Tuple[bool, int, Tuple[str, ...]]:
    """A 14-tile hand (`scoring.Tiles`) won on its winning tile in `situation` (a self-draw, but for the hand
    as it stands): (legal win, what the win pays the player's seat, pattern ids counted). Not legal (or not
    complete): (False, 0, ()). What the hand pays whoever wins it (`Payout.win_deltas`: a penalty for earlier
    rounds, another seat's kong) is no part of the win's worth."""
    from .analysis import pay  # imported when used (start-up time)
    from .scoring import score_hand

    score = score_hand(tiles, situation, ruleset, region)
    if not score.legal:
        return False, 0, ()
    return True, pay(score, ruleset, region).win_deltas[situation.seat], tuple(m.pattern_id for m in score.matches)


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
    asked_exact: bool = False  # `exact` was asked: every discard 0 or 1 from ready weighed its exchanges
    win_now: Optional[int] = None  # what the 14 tiles pay the player as they stand, when they are a legal win
    asked_draws: Optional[int] = None  # the draws asked for (`draws` is at most the unseen tiles)
    dropped: Tuple[str, ...] = ()  # the ways of winning given, which the draws to come do not take (option names)
    unvalued: List[int] = field(default_factory=list)  # discards the time cap left without figures, in the order
    # they would have been weighed (most promising first); never one of `skipped`
    time_cap: Optional[float] = None  # the seconds the valuing was given (None: no time cap)
    time_capped: bool = False  # the time cap was reached: exchanges given up (`~`), or valuing stopped as well

    @property
    def timed_out(self) -> bool:
        """Whether the time cap stopped the valuing before every discard had its figures (`unvalued`)."""
        return bool(self.unvalued)

    @property
    def could_be_exact(self) -> bool:
        """Whether `exact` would make exact a discard that is not: one 0 or 1 from ready."""
        return not self.asked_exact and any(d.shanten <= 1 and not d.exact for d in self.discards)

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.discards) and not self.unvalued


class Engine:
    """Values of 13-tile hand states for one 14-tile hand, ruleset, situation, wall and objective."""

    def __init__(self, hand: Hand, ruleset, situation, seen=None, draws: int = DEFAULT_DRAWS, by: str = "value",
                 swaps: int = SWAPS, work: int = WORK, exact: bool = False, seconds: Optional[float] = None,
                 clock=time.monotonic):
        if by not in OBJECTIVES:
            raise ValueError(f"--by takes win or value, got {by!r}")
        if hand.size != 14:
            raise ValueError(f"{hand.size} tiles: the value of discards needs a 14-tile hand")
        self.ruleset, self.by = ruleset, by
        self.hand = hand
        here, wall = _setting(hand, ruleset, situation, seen)
        self.region = here.region
        self.situation = _self_draw_situation(here.situation)
        self.given = here.situation  # this moment's, for the hand as it stands
        self.wild_kinds = tuple(here.tiles.wild_kinds)
        if not self.wild_kinds and WILD in hand.tiles:
            raise SituationError("value.star_without_kind", field="wild")
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
        # a wildcard is thrown as one discard, the first wildcard of the hand (as `advise` ranks them)
        wild = next((t for t in hand.tiles if t == WILD or t in self.wild_kinds), None)
        for d in range(NUM_KINDS + 1):
            if root[d] and (d == wild or not (d == STAR or d in self.wild_kinds)):
                root[d] -= 1
                self.start[d] = tuple(root)
                root[d] += 1
        self.unseen0 = wall.counts
        self.copies = wall.composition.copies
        self.wall = wall.live
        if draws < 0:
            raise ValueError(f"--draws must be 0 or more, got {draws}")
        self.asked_draws, self.draws = draws, min(draws, wall.draws_left)
        self.finder = WaitFinder(self.shapes, self.wild_kinds)
        self._shanten: Dict[tuple, int] = {}
        self._useful: Dict[tuple, tuple] = {}
        self._scores: Dict[tuple, Tuple[bool, int, tuple]] = {}
        self._shared: Dict[tuple, Tuple[bool, int, tuple]] = {}  # 14 tiles -> their score, whichever tile won
        self._wins: Dict[tuple, tuple] = {}
        self._value: Dict[tuple, Outcome] = {}
        self._moves: Dict[tuple, tuple] = {}
        self._decisions: Dict[tuple, Dict[int, int]] = {}
        self._tail: Dict[tuple, float] = {}
        self._trimmed: Dict[tuple, tuple] = {}
        self._auto: Dict[tuple, Optional[frozenset]] = {}
        self._pools: Dict[tuple, tuple] = {}
        # the exchange budget of each first discard: distance + shanten never above it (module docstring)
        # (`exact`: for wildcard hands too, and with no cap on the work)
        self.exact = exact
        self.work = None if exact else work
        self._limit: Optional[int] = None
        self.capped: Set[int] = set()  # discards weighed without exchanges because the work passed `work` (or the time)
        # the time cap (module docstring): `clock()` read every TICKS states against `_until` while it is set
        self.seconds, self._clock, self._ticks = seconds, clock, 1
        self.time_capped = False
        self._until: Optional[float] = None
        self._soft: Optional[float] = None  # exchanges given up
        self._hard: Optional[float] = None  # valuing stopped
        if seconds is not None:
            begun = clock()
            self._soft, self._hard = begun + seconds * EXCHANGE_SHARE, begun + seconds
        # whether a hand can win whatever its shape here (None is an answer for every hand: the hook's contract)
        self.automatic = self._automatic(next(iter(self.start.values()))) is not None
        self.budget, self.first = {}, {}
        best = min(self.shanten(h) for h in self.start.values())
        wild_held = self.root[STAR] + sum(self.root[k] for k in self.wild_kinds)
        for d, h in self.start.items():
            s0 = self.first[d] = self.shanten(h)
            self.budget[d] = s0 + (swaps if s0 <= 1 and (exact or s0 == best and not wild_held) else 0)

    # --- hand vectors: 35 counts, the 34 kinds (wild kinds included) and `*` ----------------------

    def _split(self, h):
        naturals = list(h[:NUM_KINDS])
        wilds = h[STAR]
        for k in self.wild_kinds:
            wilds += naturals[k]
            naturals[k] = 0
        return naturals, wilds

    def shanten(self, h) -> int:
        """The 13-tile hand's shanten: by its shapes, or 0 when it wins whatever its shape on any tile it can
        draw (as `advise` ranks it)."""
        s = self._shanten.get(h)
        if s is None:
            naturals, wilds = self._split(h)
            s = _shanten(naturals, wilds, self.melds, self.shapes)
            if s > 0 and self.automatic and all(self._held(h, k) <= 4 for k in range(NUM_KINDS)):
                auto = self._automatic(h)  # (a hand with a fifth copy, which `useful` may try, is no hand)
                if auto is not None and all(k in auto for k in range(NUM_KINDS) if self._held(h, k) < self.copies[k]):
                    s = 0
            self._shanten[h] = s
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
        drawn = list(h13)
        drawn[k] += 1
        h = tuple(drawn)
        key = (h, k)
        hit = self._scores.get(key)
        if hit is None:
            naturals, wilds = self._split(h)
            complete = is_complete(naturals, wilds, self.melds, self.shapes) or (
                self.automatic and k in self._automatic(h13))
            if not complete:
                hit = (False, 0, ())
            else:
                if self._until is not None:
                    self._tick()  # (a hand scored is work too, and may be most of a state's)
                tiles = _tiles(self._as_hand(h, k), self.wild_kinds)
                free = _winning_tile_free(tiles, self.ruleset, self.situation, self.region)
                hit = self._shared.get(h) if free else None
                if hit is None:
                    hit = _score_self_draw(tiles, self.ruleset, self.situation, self.region)
                    if free:
                        self._shared[h] = hit
            self._scores[key] = hit
        return hit

    def _tick(self):
        """One unit of work under a time cap: every `TICKS` of them, `_Late` once the clock reads `_until`."""
        self._ticks -= 1
        if not self._ticks:
            self._ticks = TICKS
            if self._clock() >= self._until:
                raise _Late

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
            candidates: Set[int] = set()
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

    def distance(self, h, base: int) -> int:
        """Tiles of `h` not in the hand the play began with (the 14 less `base`): the tiles drawn and kept."""
        return sum([x - y for x, y in zip(h, self.start[base]) if x > y])

    def moves(self, h13, base: int) -> Tuple[Tuple[int, tuple], ...]:
        """What each drawn kind can do to the 13-tile `h13`: (kind, ("win", payout, pattern ids)) for a legal
        win, else (kind, discards): the hand tiles whose throw keeps the drawn kind and leaves the hand no
        further from ready, within the exchange budget (module docstring). Kinds that can do neither are left
        out: drawn, they are thrown."""
        key = (h13, base)
        hit = self._moves.get(key)
        if hit is not None:
            return hit
        s = self.shanten(h13)
        wins = {k: ("win", pay, pats) for k, pay, pats in self.wins(h13)}
        distance = self.distance(h13, base)
        if distance + s < self.budget[base]:
            kept = self._swaps(h13, s, base, distance)
        else:  # no room for an exchange: only the draws that lower the shanten can be kept
            kept = dict(self.useful(h13)) if s > 0 else {}
        out = []
        for k in range(NUM_KINDS):
            if k in wins:
                out.append((k, wins[k]))
            elif k in kept and self._held(h13, k) < 4 and self.unseen0[k]:
                out.append((k, self._options(h13, k, kept[k], s, base)))
        hit = self._moves[key] = tuple(out)
        return hit

    def _swaps(self, h13, s, base, distance) -> Dict[int, tuple]:
        """Drawn kind -> the hand tiles whose throw (keeping the drawn tile) leaves the hand no further from
        ready and within the exchange budget. One tile out and one in: for each tile thrown, the shanten of
        the 12 left plus any kind follows from each shape's kept naturals and the kinds that raise them."""
        start = self.start[base]
        budget = self.budget[base]
        wild = set(self.wild_kinds)
        found: Dict[int, list] = {}
        h = list(h13)
        for d in range(NUM_KINDS + 1):
            if not h[d]:
                continue
            h[d] -= 1
            naturals, _ = self._split(h)
            n = sum(naturals)
            plain = 99
            gain: Dict[int, int] = {}
            for shape in self.shapes:
                kept, up = _gains(naturals, self.melds, shape)
                if kept < 0:
                    continue
                plain = min(plain, n + 1 - kept)  # a natural kind that the shape cannot use
                for k in up:
                    if n - kept < gain.get(k, 99):
                        gain[k] = n - kept
                for k in wild:  # a wildcard is kept by every shape
                    if n - kept < gain.get(k, 99):
                        gain[k] = n - kept
            out_d = -1 if h[d] >= start[d] else 0  # throwing a tile drawn earlier shortens the distance
            for k in range(NUM_KINDS):
                if k == d:
                    continue
                t = min(plain, gain.get(k, 99))
                if t > s:
                    continue
                if t == s:
                    grown = 1 if h[k] >= start[k] else 0
                    if distance + grown + out_d + t > budget:
                        continue
                found.setdefault(k, []).append(d)
            h[d] += 1
        return {k: tuple(ds) for k, ds in found.items()}

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
        """A ready hand that keeps its tiles, `r` draws left from a wall of `m` holding `pool`: with K winning
        tiles, P(win) = 1 - C(m - K, r)/C(m, r), and the kind that wins is in proportion to its tiles left."""
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

    def value(self, h13, r: int, base: int) -> Outcome:
        """The value of the 13-tile hand `h13` with `r` draws left, the play having begun by throwing `base`
        from the 14 (memoised on all three): the next draw wins, is kept (throwing the best tile for the
        objective) or is thrown, whichever is best; then the same with `r - 1` draws left."""
        key = (h13, r, base)
        hit = self._value.get(key)
        if hit is not None:
            return hit
        if self._limit is not None and len(self._value) + 2 * len(self._scores) > self._limit:
            raise _Overflow
        if self._until is not None:
            self._tick()
        s = self.shanten(h13)
        if r <= 0 or (s + 1 > r and not self.automatic):
            out = ZERO
        else:
            m = self.wall - (self.draws - r)
            pool = self.pool(h13, base)
            moves = self.moves(h13, base)
            if s == 0 and all(move[0] == "win" for _, move in moves):
                out = self.ready(h13, r, m, pool)  # no tile it would keep: the closed form
            else:
                out = self._step(h13, r, base, m, pool, moves)
        self._value[key] = out
        return out

    def _step(self, h13, r, base, m, pool, moves) -> Outcome:
        stay = self.value(h13, r - 1, base)  # the drawn tile thrown: nothing changes but the wall
        chosen = []
        for k, move in moves:
            n = pool[k]
            if n <= 0:
                continue
            if move[0] == "win":
                chosen.append((k, n, Outcome(1.0, float(move[1]), {move[2]: 1.0}), WIN))
                continue
            best, best_d = stay, None
            for d in move:
                o = self.value(self._after(h13, k, d), r - 1, base)
                if self.is_better(o, best):
                    best, best_d = o, d
            if best_d is not None:
                chosen.append((k, n, best, best_d))
        total = sum(n for _, n, _, _ in chosen)
        scale = 1.0 / m if total <= m else 1.0 / total  # the kinds counted cannot outnumber the wall
        out = Outcome(stay.p, stay.e, dict(stay.patterns))
        decisions = {}
        for k, n, o, d in chosen:
            w = n * scale
            out.add(o, w)
            out.add(stay, -w)
            decisions[k] = d
        self._decisions[(h13, r, base)] = decisions
        return out

    def _options(self, h13, k, ds, s, base):
        """The discards weighed after keeping `k`: all of them, except in a play begun far from ready (`DEEP`
        or more), where only the `DEEP_OPTIONS` leaving the most tiles that improve the hand are (an
        approximation)."""
        if self.first[base] < DEEP or len(ds) <= DEEP_OPTIONS:
            return ds
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

    def decide(self, base: int, h13, r: int, drawn: int):
        """What the player does on drawing `drawn` into the 13-tile `h13` with `r` draws left (before the
        draw): `WIN`, or the tile thrown (the drawn tile itself when it is not kept)."""
        self.value(h13, r, base)
        if self.shanten(h13) == 0 and (h13, r, base) not in self._decisions:  # the closed form: wins only
            return WIN if any(k == drawn for k, _, _ in self.wins(h13)) else drawn
        choice = self._decisions.get((h13, r, base), {}).get(drawn)
        return drawn if choice is None else choice

    def player(self, discard: int) -> "Player":
        return Player(self, discard)

    # --- the answer --------------------------------------------------------------------------------

    def evaluate(self, top: int = 3, progress: Optional[Callable[[int, int], None]] = None) -> ValueAdvice:
        shanten = self.first  # each discard's shanten
        limit = max(min(shanten.values()), 1)
        skipped = [d for d in self.start if shanten[d] > limit]
        valued = [d for d in self.start if shanten[d] <= limit]
        # the most promising first (fewest from ready, most improving tiles): they keep their exchanges when
        # the work runs out
        pool = self.unseen0
        valued.sort(key=lambda d: (shanten[d], -sum(pool[k] for k, _ in self.useful(self.start[d])), d))
        figures, unvalued = {}, []
        for i, d in enumerate(valued):
            if progress is not None:
                progress(i, len(valued))
            h = self.start[d]
            if self.budget[d] > shanten[d]:
                self._limit, self._until, self._ticks = self.work, self._soft, 1  # None: no cap
                try:
                    figures[d] = self.value(h, self.draws, d)
                except (_Overflow, _Late) as exc:
                    self._forget(d)
                    self.time_capped |= isinstance(exc, _Late)
                    for later in valued:  # this and the rest play without exchanges
                        if self.budget[later] > shanten[later]:
                            self.budget[later] = shanten[later]
                            self.capped.add(later)
                finally:
                    self._limit = self._until = None
            if d not in figures:
                self._until, self._ticks = self._hard, 1
                try:
                    figures[d] = self.value(h, self.draws, d)
                except _Late:  # out of time: this discard and the rest are not valued
                    self.time_capped = True
                    unvalued = valued[i:]
                    break
                finally:
                    self._until = None
        results = []
        for d in valued[:len(valued) - len(unvalued)]:
            o, s = figures[d], shanten[d]
            pats = [(ids, min(q, 1.0)) for ids, q in sorted(o.patterns.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
            exact = self.budget[d] > s or self.draws == 0 or self.automatic and self._wins_every_draw(self.start[d])
            results.append(DiscardValue(d, s, min(o.p, 1.0), o.e, pats, exact))  # min: 1 + rounding
        if self.by == "win":
            results.sort(key=lambda v: (-round(v.p_win, 12), -round(v.expected, 9), v.shanten, v.tile == STAR, v.tile))
        else:
            results.sort(key=lambda v: (-round(v.expected, 9), -round(v.p_win, 12), v.shanten, v.tile == STAR, v.tile))
        given, later = self.given, self.situation
        dropped = tuple(name for name in ("from", "rob_kong", "kong_draw", "first_turn", "last_tile")
                        if getattr(given, FIELD_OF.get(name, name)) != getattr(later, FIELD_OF.get(name, name)))
        return ValueAdvice(self.by, self.draws, self.wall, results, skipped, self.exact, self.win_now(),
                           self.asked_draws, dropped, unvalued, self.seconds, self.time_capped)

    def _wins_every_draw(self, h13) -> bool:
        """Whether every tile left in the wall wins the 13-tile `h13` at once (a win whatever the shape on any
        tile): the first draw ends the play, so there is nothing to choose and the narrower play is the best
        one (no draws: nothing to play either)."""
        won = {k for k, _, _ in self.wins(h13)}
        return all(k in won for k in range(NUM_KINDS) if self.unseen0[k])

    def win_now(self) -> Optional[int]:
        """What the 14 tiles pay the player if declared a win as they stand, in the situation given (None: not
        a legal win), for comparison with the discards' figures."""
        legal, pay, _ = _score_self_draw(_tiles(self.hand, self.wild_kinds), self.ruleset, self.given, self.region)
        return pay if legal else None

    def _forget(self, base: int):
        """Drop what was worked out for the play begun by `base` (its exchange budget is about to change)."""
        for table in (self._value, self._decisions):
            for key in [key for key in table if key[2] == base]:
                del table[key]
        for key in [key for key in self._moves if key[1] == base]:
            del self._moves[key]


class _Overflow(Exception):
    """The exchanges' work passed `Engine.work`."""


class _Late(Exception):
    """The time cap's instant for the play being weighed (exchanges, or the narrower play) passed."""


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

    def throw(self, drawn: int) -> int:
        choice = self.engine.decide(self.base, self.hand, self.left, drawn)
        self.left -= 1
        if choice == WIN:
            raise ValueError(f"drawing {tile_name(drawn)} wins: the caller takes the win")
        if choice != drawn:
            self.hand = self.engine._after(self.hand, drawn, choice)
        return choice


def advise_value(hand: Hand, ruleset, situation, seen=None, draws: int = DEFAULT_DRAWS, by: str = "value",
                 top: int = 3, exact: bool = False, seconds: Optional[float] = None,
                 clock=time.monotonic, progress: Optional[Callable[[int, int], None]] = None) -> ValueAdvice:
    """Every discard of a 14-tile hand valued by P(win within `draws`) and expected payout (module docstring);
    `exact` weighs the exchanges of wildcard hands too, with no cap on the work; `seconds` caps the time, read
    from `clock` (seconds; a test gives its own). `progress(done, total)` is told as each discard is taken up."""
    return Engine(hand, ruleset, situation, seen, draws, by, exact=exact, seconds=seconds, clock=clock).evaluate(
        top, progress)


def tile_name(tile: int) -> str:
    return "*" if tile == STAR else NAMES[tile]
