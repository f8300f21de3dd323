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

No kongs; no claims alone. Alone (`rivals` None, `advise --by … --alone`), no other players: nobody else draws or
wins. Wildcards are drawn like any tile and are wild when drawn. The objective is `win` (the probability of winning within the draws) or `value` (the
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

The table (`rivals`, a `Rivals`; `TABLE` by default in `advise --by`, the page and `plan`; issue 37). Between two
of the player's draws each of the three others discards a tile, and one of them may win:

* the others' tiles are as unknown to the player as the wall's, so each discard is one of the unseen tiles, the
  wildcards excepted (nobody throws one), each alike likely: kind k with chance (tiles of k)/(unseen less
  wildcards). The discards are not taken from the wall: a tile they show is one the player could no more draw,
  but on average they leave its proportions as they were (the wall still shrinks by one a draw of the player's);
* a ready hand wins on such a discard when the scorer says the win on that seat's discard is legal (beijing's
  吃碰堤, a wildcard limit on a discard, a minimum: the ruleset decides), paid as scored; the others discard in
  turn order, the first winning tile ends the play;
* then another seat wins, ending the deal, with chance `hazard(age)` = min(`most`, `slope` × age), the deal `age`
  cycles old (the tiles seen, four a cycle, and one more a draw of the player's): measured in four efficient
  players' deals (bench/README.md, "The others' wins"), it grows from about 0 at the first turn to 0.2-0.35 ten
  cycles in. It costs the player `loss`, by default what a non-winner pays another's win on average: `LOSS`
  (1.27) times what one payer pays for the least legal win of the ruleset (`told.least_total`, through the
  scheme's `unit_points`, times 底分), so a play that wins sooner loses less to the others. In four efficient
  players' deals (bench/README.md, "The others' wins") a non-winner paid 1.27 a win in beijing (least win: 1 each)
  and 2.56 in zhuji (least win: 2 each): one factor for both, measured, not a rule, and only there (where wins
  multiply, as in beijing-hunr, a typical win is many least wins, and the figure understates the cost);
* then the player draws, as alone. After the last draw the others discard once more.
* the draws are the player's share of the wall: the unseen tiles less the others' 39 and the dead wall, one in
  four (`draws_left`), at most `draws`.

So value(h, r) = ron(h) + (1 - P(ron)) * (1 - hazard) * draw(h, r), draw as above with value(·, r - 1); a ready
hand that keeps its tiles is played cycle by cycle in closed form (`_ready_at_table`), and the estimate of stage 3
counts the same discards and hazard along its path.

Claims (at the table). A hand that is not ready, with a draw left, may claim another's discard: a pung of a kind
it holds two natural copies of, from any seat; a chow of a suited discard with two natural tiles of the run, from
the seat before the player (the last of the three to discard); a wildcard is never claimed or used. It claims a
discard when the best claim of it (the meld, then the tile thrown among those that leave the hand nearer ready than
before, best for the objective) is better for the objective than letting it go, and then the others discard again,
the player's draws as they were (a claim takes no tile from the wall). Claims the region refuses (its
`check_melds`: sichuan claims no chow; more than four melds) are not made; one whose hand cannot win (混儿's one
claim) is never better than letting the tile go. The claimed melds are part of the hand state (after its 35
counts, by id: `RUN`), exposed in the hand that is scored. A hand that has claimed plays without exchanges, and a
ready hand claims nothing (it waits, in closed form). The estimate of stage 3 claims nothing. `Plan.claim` says
what the plan claims; a claim the plan did not make (another rule's) is a new question (`Plan.spent`).

The work cap (`cap`, `CAP` by default; None: none). The answer is bounded by work, never by the clock, so it is
the same on any machine. The work (`Engine.spent`, work thrown away included) counts the states valued, the
hands whose shanten is computed (one a shape of the ruleset: where the time of a hand far from ready goes), `IMPROVING` for each
set of improving kinds found, `SCORED` for each complete hand scored and one for each meld a claim weighs. The discards are taken up most promising
first. Each stage of a discard's play is given twice an even share of the cap's work left (the cap less the work
spent so far, over the discards not yet valued; at most all of it), and a stage that passes it is given up, its
tables dropped, for the next, narrower one:

  0. its exchanges, when its budget has room for them (as above; past `WORK`, or past the share, this discard
     and those after it lose them);
  1. no exchanges (the narrower play above: a drawn tile kept only when it lowers the shanten, and in a play
     begun `DEEP` or more from ready only the `DEEP_OPTIONS` discards leaving the most improving tiles weighed);
  2. as 1, but after a useful draw only `NARROW_OPTIONS` (1) discard is weighed, the least tied tile (its other
     copies and its neighbours within two ranks), chosen without weighing what each discard leaves;
  3. `ESTIMATE`, no search: a closed form along one path to ready (`estimate`): from each hand the next keeps
     the improving kind with the most tiles left and throws the least tied tile that lowers the shanten; a
     step is taken on any draw that improves the hand the path is at (chance: its tiles left over the wall then),
     the last on a draw that wins the path's ready hand, paid as that hand's wins are. A few hundred units of
     work a discard, whatever the hand; an estimate, not a bound (it counts every improving draw as good as the
     path's, and forgets that a hand nearer ready has fewer).
A stage given up for a discard is not tried for those after it (less promising: heavier plays seldom get
lighter). Stages 1 and 2 are plays the player could make, so their figures are lower bounds of the wider play's.
Every valued discard gets figures; one weighed by a narrower stage than without the cap is marked `exact:
False` (`~`) and named in `narrowed`. So the work is at most the cap plus what is counted outside the stages
(the discards' order, by their improving tiles, and the estimates: a few hundred units a discard), and the memo
tables, which hold only what that work put there, are bounded with it. `CAP` is calibrated in
bench/README.md (`bench/advice_cap.py`: random first-turn hands in every ruleset). `exact` comes with no cap in
the CLI (`--exact`); a server gives one always.

Scoring goes through one adapter, `_score_win`, the only place that calls the library's scorer; every
complete hand is scored once per (tiles, winning tile), in this process, and once for all its winning tiles
when the region's reading keys read no winning tile (`_winning_tile_free`). A win whatever the shape (a region's
`automatic_win`) is found through the region's `automatic_draws`; this module names no region's rules.
"""
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from .errors import SituationError
from .hand import CHOW, PUNG, Hand, Meld
from .shanten import gains as _gains
from .shanten import improvements as _improvements
from .shanten import shanten as _shanten
from .shapes import WaitFinder, is_complete
from .situation import FIELD_OF
from .tiles import NAMES, NUM_KINDS, SEATS, WILD

if TYPE_CHECKING:  # for annotations only: the library is imported when used (start-up time)
    from .analysis import Setting
    from .regions.base import Region
    from .ruleset import Ruleset
    from .scoring import Tiles
    from .situation import Situation
    from .tiles import Wall

Counts = Tuple[int, ...]  # a hand vector: 35 counts, the 34 kinds and `*`
Scored = Tuple[bool, int, Tuple[str, ...]]  # legal win, what it pays the player, pattern ids counted

DEFAULT_DRAWS = 8
DEEP = 2  # a play begun this far from ready or further weighs only DEEP_OPTIONS discards after a useful draw
DEEP_OPTIONS = 2
SWAPS = 1  # exchanges that keep the shanten, allowed to a hand 0 or 1 from ready after the first discard
WORK = 45000  # states valued plus twice the complete hands scored, past which exchanges are given up
SCORED = 12  # the work of a complete hand scored, counted against the cap (a state valued: 1; a shanten computed:
# 1 a shape of the ruleset)
IMPROVING = 10  # the work of finding the kinds that improve a hand (`shanten.improvements`)
CAP = 16000  # the work cap of a whole answer (module docstring), calibrated in bench/README.md
NARROW_OPTIONS = 1  # stage 2: the discards weighed after keeping a drawn tile
STAGES = (None, NARROW_OPTIONS)  # the plays of stages 1 and 2: the discards weighed after a useful draw (None: as
# `_options` says); stage 0 is the exchanges', stage 3 (`ESTIMATE`) no play but the closed form (module docstring)
ESTIMATE = len(STAGES) + 1
WIN = -1  # a decision: the drawn tile wins
OBJECTIVES = ("win", "value")
# the others' chance to win a cycle (their three discards and draws between two of the player's) grows by
# HAZARD_SLOPE a cycle of the deal's age, to at most HAZARD_MOST: measured in four efficient players' deals
# (bench/README.md, "The others' wins"): 0.03 a cycle in beijing, 0.05 in zhuji, most 0.3-0.4 late in a deal
HAZARD_SLOPE = 0.04
HAZARD_MOST = 0.35
OTHERS = 3  # the others' discards between two of the player's draws
# what a non-winner pays another's win, in least legal wins paid by one seat: measured in four efficient players'
# deals (bench/README.md, "The others' wins"): 1.27 in beijing (1 a least win), 2.56 in zhuji (2 a least win)
LOSS = 1.27
HELD_BY_OTHERS = 13  # the tiles each other seat holds: the unseen tiles not in the wall (`Rivals` horizon)
STAR = WILD  # index 34 of a hand vector: wildcards written `*` (their face is the first wild kind, if any)
WIDTH = STAR + 1  # a hand vector's counts; after them, the melds the player claimed in the play (`Engine.claimed`)
RUN = NUM_KINDS  # a claimed meld's id: a pung of kind k is k, a chow from tile t up is RUN + t


# ===================================================================================================
# Library adapter: everything value.py needs from the situation checks, the region, the scorer and the
# payout schemes is called here and nowhere else.
# ===================================================================================================


def _setting(hand: Hand, ruleset: "Ruleset", situation: "Situation",
             seen: Optional[Sequence[int]]) -> Tuple["Setting", "Wall"]:
    """The hand's setting (`analysis.setting`: the situation checked and read by the region, the tiles under
    the wildcards), after the same checks `advise` makes, and the wall as the player knows it (`tiles.Wall`:
    the ruleset's tiles less the 14, those seen and those the region's rules take out)."""
    from .analysis import setting, wall_of  # imported when used (start-up time)

    here = setting(hand, ruleset, situation)
    return here, wall_of(here, seen)


def _self_draw_situation(situation: "Situation") -> "Situation":
    """The situation of a later self-draw win: the ways of winning given now (--from, --kong-draw,
    --rob-kong, --first-turn, --last-tile) describe this moment, not the draws to come; the rest is kept."""
    return situation.replace(discarder=None, rob_kong=False, kong_draw=0, first_turn=False, last_tile=False)


def _tiles(hand: Hand, wild_kinds: Sequence[int]) -> "Tiles":
    from .scoring import prepare  # imported when used (start-up time)

    return prepare(hand, wild_kinds)


def _automatic_draws(region: "Region", ruleset: "Ruleset", situation: "Situation",
                     tiles: "Tiles") -> Optional[Tuple[int, ...]]:
    """The kinds whose draw wins the 13 `tiles` whatever the shape; None: no automatic win in this setting."""
    return region.automatic_draws(ruleset, situation, tiles)


def _winning_tile_free(tiles: "Tiles", ruleset: "Ruleset", situation: "Situation", region: "Region") -> bool:
    """Whether the region promises that this hand scores alike whichever of its tiles won it (its reading keys
    read no winning tile: `ReadingKeys.place` None), so that one score serves every winning tile."""
    from .scoring import reading_keys  # imported when used (start-up time)

    keys = reading_keys(tiles, situation, ruleset, region)
    return keys is not None and keys.place is None


def _least_payment(ruleset: "Ruleset", region: "Region") -> int:
    """What one payer pays for the least legal win under `ruleset` at 底分 1 (`told.least_total`, worked out once a
    ruleset, through the scheme's `unit_points`)."""
    from .told import least_total  # imported when used (start-up time)

    return region.schemes[ruleset.payout].unit_points(least_total(ruleset)[0], ruleset)


def _score_win(tiles: "Tiles", ruleset: "Ruleset", situation: "Situation", region: "Region") -> Scored:
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

    def add(self, other: "Outcome", weight: float) -> None:
        if weight == 0.0 or other.p == 0.0 and other.e == 0.0:
            return
        self.p += weight * other.p
        self.e += weight * other.e
        pats = self.patterns
        for key, q in other.patterns.items():
            pats[key] = pats.get(key, 0.0) + weight * q


ZERO = Outcome()


@dataclass(frozen=True)
class Rivals:
    """The table's game around the player (issue 37; module docstring, "The table"): between two of the player's
    draws the `others` each discard a tile, which the player may win on, and one of them may win, ending the
    deal, with chance `hazard(age)` a cycle; `loss` is what another's win costs the player, in the player's
    payout (None: `LOSS` times the least legal win's payment by one seat, `Engine.loss`; 0: left out)."""

    others: int = OTHERS
    slope: float = HAZARD_SLOPE
    most: float = HAZARD_MOST
    loss: Optional[float] = None

    def hazard(self, age: int) -> float:
        """The chance another wins in the cycle `age` cycles into the deal (the player's draws so far)."""
        return min(self.most, self.slope * age)


TABLE = Rivals()  # the table's game as `advise --by` plays it by default


@dataclass
class DiscardValue:
    """One evaluated discard: `tile` a kind (or `STAR` for a `*`); `exact` as in the module docstring."""

    tile: int
    shanten: int
    p_win: float
    expected: float
    top_patterns: List[Tuple[Tuple[str, ...], float]]
    exact: bool
    stage: int = 0  # the play weighed (module docstring): 0 its exchanges, 1-4 narrower and narrower


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
    narrowed: List[int] = field(default_factory=list)  # discards the work cap had weighed by a narrower play
    # than the one they would have had without it, in the order weighed (most promising first)
    weighed: List[int] = field(default_factory=list)  # the valued discards in the order taken up (most promising first)
    cap: Optional[int] = None  # the work cap (None: none)
    work: int = 0  # the work spent: states valued plus twice the complete hands scored
    rivals: Optional[Rivals] = None  # the table's game played (None: the player alone)
    loss: float = 0.0  # at the table, what another's win costs the player (`Engine.loss`)

    @property
    def could_be_exact(self) -> bool:
        """Whether `exact` would make exact a discard that is not: one 0 or 1 from ready."""
        return not self.asked_exact and any(d.shanten <= 1 and not d.exact for d in self.discards)

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.discards)


class Engine:
    """Values of 13-tile hand states for one 14-tile hand, ruleset, situation, wall and objective."""

    def __init__(self, hand: Hand, ruleset: "Ruleset", situation: "Situation", seen: Optional[Sequence[int]] = None,
                 draws: int = DEFAULT_DRAWS, by: str = "value", swaps: int = SWAPS, work: int = WORK,
                 exact: bool = False, cap: Optional[int] = CAP, rivals: Optional[Rivals] = None) -> None:
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
            if self.region.wild_in_play(ruleset, here.situation):  # wildcards of no kind (广东's ghosts)
                raise SituationError("value.faceless_wild", field="by", wild_zh=ruleset.wild_zh)
            raise SituationError("value.star_without_kind", field="wild")
        self.face = self.wild_kinds[0] if self.wild_kinds else -1
        self.melds = len(hand.melds)
        self.meld_held = [0] * NUM_KINDS
        for t in hand.meld_tiles:
            self.meld_held[t] += 1
        self.shapes = ruleset.shapes
        self.dropped = here.region.unkept(ruleset, here.situation)  # kinds a win may not hold (a void suit)
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
        self.rivals = rivals
        # what another's win costs the player (`Rivals.loss`; module docstring, "The table")
        self.loss = 0.0 if rivals is None else rivals.loss if rivals.loss is not None else (
            LOSS * _least_payment(ruleset, self.region) * here.situation.base)
        self.age = sum(wall.seen) // (OTHERS + 1)  # the deal's age in cycles: the tiles seen, four a cycle
        self.asked_draws, self.draws = draws, min(draws, self.draws_left(wall))
        # a win on another's discard: the situation of each other seat's discard, in turn order after the player
        after = SEATS.index(self.situation.seat)
        self.discarders = () if rivals is None else tuple(
            self.situation.replace(discarder=SEATS[(after + i) % len(SEATS)]) for i in range(1, rivals.others + 1))
        self._rons: Dict[Counts, Tuple[Tuple[Tuple[int, int, Tuple[str, ...]], ...], ...]] = {}
        self._lost: Dict[Tuple[int, int], float] = {}
        self.finder = WaitFinder(self.shapes, self.wild_kinds)
        self._shanten: Dict[Counts, int] = {}
        self._useful: Dict[Counts, Tuple[Tuple[int, Tuple[int, ...]], ...]] = {}
        self._scores: Dict[Tuple[Any, ...], Scored] = {}  # (14 tiles, winning tile[, discarder]) -> score
        self._shared: Dict[Any, Scored] = {}  # 14 tiles[, discarder] -> their score, whichever tile won
        self._wins: Dict[Counts, Tuple[Tuple[int, int, Tuple[str, ...]], ...]] = {}
        self._value: Dict[Tuple[Counts, int, int], Outcome] = {}  # (13 tiles, draws left, first discard)
        self._moves: Dict[Tuple[Counts, int], Tuple[Tuple[int, Tuple[Any, ...]], ...]] = {}
        self._decisions: Dict[Tuple[Counts, int, int], Dict[int, int]] = {}
        self._tail: Dict[Tuple[int, int, int], float] = {}
        self._trimmed: Dict[Tuple[Counts, int, int], Tuple[int, ...]] = {}
        self._auto: Dict[Counts, Optional[FrozenSet[int]]] = {}
        self._pools: Dict[Tuple[Counts, int], Tuple[int, ...]] = {}
        # claims, at the table only (module docstring, "Claims"): what the player claims, for each (13 tiles, draws
        # left, first discard) -> (the discarder's place after the player, kind) -> (meld id, tile thrown)
        self.claiming = rivals is not None
        self._claims: Dict[Tuple[Counts, int, int], Dict[Tuple[int, int], Tuple[int, int]]] = {}
        self._claimable: Dict[Tuple[int, ...], bool] = {}
        self.chows = self._may_claim((RUN,))  # (sichuan claims no chow)
        # the exchange budget of each first discard: distance + shanten never above it (module docstring)
        # (`exact`: for wildcard hands too, and with no cap on the work)
        self.exact = exact
        self.work = None if exact else work
        self._limit: Optional[int] = None
        self.capped: Set[int] = set()  # discards weighed without exchanges because the work passed `work`
        # the work cap (module docstring): `spent` counts the work; a stage is given up once it passes `_stop`
        self.cap = cap
        self.spent = 0
        self._stop: Optional[int] = None
        self.stage: Dict[int, int] = {}  # a first discard -> the stage of its play (module docstring)
        # whether a hand can win whatever its shape here (None is an answer for every hand: the hook's contract)
        self.automatic = self._automatic(next(iter(self.start.values()))) is not None
        self.budget, self.first = {}, {}
        best = min(self.shanten(h) for h in self.start.values())
        wild_held = self.root[STAR] + sum(self.root[k] for k in self.wild_kinds)
        for d, h in self.start.items():
            s0 = self.first[d] = self.shanten(h)
            self.budget[d] = s0 + (swaps if s0 <= 1 and (exact or s0 == best and not wild_held) else 0)

    def draws_left(self, wall: "Wall") -> int:
        """The draws the player may still make: all the unseen tiles less the dead wall, alone; at the table
        (`rivals`) the player's share of the wall, the unseen tiles less those the others hold (13 each, their
        exposed melds counted as held: a lower bound) and the dead wall, one draw in `others + 1`, the others
        drawing first after the player's discard."""
        if self.rivals is None:
            return wall.draws_left
        left = max(0, wall.draws_left - HELD_BY_OTHERS * self.rivals.others)
        return left // (self.rivals.others + 1)

    # --- hand vectors: 35 counts, the 34 kinds (wild kinds included) and `*` ----------------------

    def _split(self, h: Sequence[int]) -> Tuple[List[int], int]:
        naturals = list(h[:NUM_KINDS])
        wilds = h[STAR]
        for k in self.wild_kinds:
            wilds += naturals[k]
            naturals[k] = 0
        return naturals, wilds

    def shanten(self, h: Counts) -> int:
        """The 13-tile hand's shanten: by its shapes, or 0 when it wins whatever its shape on any tile it can
        draw (as `advise` ranks it)."""
        s = self._shanten.get(h)
        if s is None:
            self._spend(len(self.shapes))  # (each shape is counted: shangrao has four, zhuji one)
            naturals, wilds = self._split(h)
            s = _shanten(naturals, wilds, self._melds(h), self.shapes, self.dropped)
            if s > 0 and self.automatic and all(self._held(h, k) <= 4 for k in range(NUM_KINDS)):
                auto = self._automatic(h)  # (a hand with a fifth copy, which `useful` may try, is no hand)
                if auto is not None and all(k in auto for k in range(NUM_KINDS) if self._held(h, k) < self.copies[k]):
                    s = 0
            self._shanten[h] = s
        return s

    def _held(self, h: Counts, k: int) -> int:
        held = h[k] + (h[STAR] if k == self.face else 0) + self.meld_held[k]
        for c in h[WIDTH:]:  # the melds claimed in the play
            held += (3 if c == k else 0) if c < RUN else (1 if 0 <= k - (c - RUN) <= 2 else 0)
        return held

    def _melds(self, h: Counts) -> int:
        """The melds of the hand state `h`: the hand's own and those claimed in the play."""
        return self.melds + len(h) - WIDTH

    def _meld_list(self, h: Counts) -> Tuple[Meld, ...]:
        """The hand's declared melds and, after them, those claimed in the play (exposed, from a discard)."""
        return self.hand.melds + tuple(claimed_meld(c) for c in h[WIDTH:])

    def is_better(self, a: Outcome, b: Outcome) -> bool:
        if self.by == "win":
            return a.p - b.p > 1e-12 or (abs(a.p - b.p) <= 1e-12 and a.e - b.e > 1e-9)
        return a.e - b.e > 1e-9 or (abs(a.e - b.e) <= 1e-9 and a.p - b.p > 1e-12)

    def pool(self, h: Counts, base: int) -> Tuple[int, ...]:
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

    def win(self, h13: Counts, k: int, who: Optional[int] = None) -> Scored:
        """Drawing `k` into the 13-tile `h13` (or, `who` given, winning it on the discard of `discarders[who]`):
        (legal win, payout to the player, pattern ids)."""
        drawn = list(h13)
        drawn[k] += 1
        h = tuple(drawn)
        key = (h, k) if who is None else (h, k, who)
        hit = self._scores.get(key)
        if hit is None:
            naturals, wilds = self._split(h)
            complete = is_complete(naturals, wilds, self._melds(h), self.shapes) or (
                self.automatic and k in (self._automatic(h13) or ()))
            if not complete:
                hit = (False, 0, ())
            else:
                self._spend(SCORED)  # (a hand scored is work too, and may be most of a state's)
                situation = self.situation if who is None else self.discarders[who]
                tiles = _tiles(self._as_hand(h, k), self.wild_kinds)
                free = _winning_tile_free(tiles, self.ruleset, situation, self.region)
                shared = h if who is None else (h, who)
                hit = self._shared.get(shared) if free else None
                if hit is None:
                    hit = _score_win(tiles, self.ruleset, situation, self.region)
                    if free:
                        self._shared[shared] = hit
            self._scores[key] = hit
        return hit

    def _as_hand(self, h: Counts, k: int) -> Hand:
        concealed = [t for t in range(NUM_KINDS) for _ in range(h[t])] + [WILD] * h[STAR]
        concealed.remove(k)
        return Hand(tuple(sorted(concealed)), self._meld_list(h), k)

    def _automatic(self, h13: Counts) -> Optional[FrozenSet[int]]:
        """The kinds whose draw wins the 13-tile `h13` whatever its shape (None: no such win in this setting)."""
        if h13 in self._auto:
            return self._auto[h13]
        concealed = [t for t in range(NUM_KINDS) for _ in range(h13[t])] + [WILD] * h13[STAR]
        tiles = _tiles(Hand(tuple(concealed), self._meld_list(h13)), self.wild_kinds)
        draws = _automatic_draws(self.region, self.ruleset, self.situation, tiles)
        self._auto[h13] = hit = None if draws is None else frozenset(draws)
        return hit

    def wins(self, h13: Counts) -> Tuple[Tuple[int, int, Tuple[str, ...]], ...]:
        """The kinds whose draw wins the 13-tile `h13` legally, each with (payout, pattern ids)."""
        hit = self._wins.get(h13)
        if hit is None:
            candidates: Set[int] = set()
            if self.shanten(h13) == 0:
                naturals, wilds = self._split(h13)
                candidates.update(self.finder.waits(naturals, wilds, self._melds(h13), [0] * NUM_KINDS))
            if self.automatic:
                candidates.update(self._automatic(h13) or ())  # draws that win whatever the shape
            found = []
            for k in sorted(candidates):
                if self._held(h13, k) >= 4 or not self.unseen0[k]:
                    continue  # no copy left to draw: nothing to score
                legal, pay, pats = self.win(h13, k)
                if legal:
                    found.append((k, pay, pats))
            hit = self._wins[h13] = tuple(found)
        return hit

    def rons(self, h13: Counts) -> Tuple[Tuple[Tuple[int, int, Tuple[str, ...]], ...], ...]:
        """For each other seat in turn order, the kinds whose discard the ready 13-tile `h13` wins on legally,
        each with (payout, pattern ids); a wildcard is never discarded (the others keep theirs)."""
        hit = self._rons.get(h13)
        if hit is None:
            candidates = [k for k, _, _ in self.wins(h13) if k not in self.wild_kinds]
            if not candidates and self.shanten(h13) == 0:  # (a wait that is no legal self-draw may win on a discard)
                naturals, wilds = self._split(h13)
                candidates = [k for k in self.finder.waits(naturals, wilds, self._melds(h13), [0] * NUM_KINDS)
                              if k not in self.wild_kinds and self._held(h13, k) < 4 and self.unseen0[k]]
            out = []
            for who in range(len(self.discarders)):
                found = []
                for k in candidates:
                    legal, pay, pats = self.win(h13, k, who)
                    if legal:
                        found.append((k, pay, pats))
                out.append(tuple(found))
            hit = self._rons[h13] = tuple(out)
        return hit

    def _ron_into(self, h13: Counts, pool: Tuple[int, ...], m: int, out: Outcome, alive: float) -> float:
        """The others' discards after the player's (the table's game): each other seat throws one tile, each of
        the `m` unseen tiles but the wildcards alike likely (the others' tiles are as unknown as the wall's);
        a winning one is won on (`out` gains it, weighted by `alive`). The chance that none was, times `alive`."""
        if alive <= 0.0 or self.shanten(h13) != 0:
            return alive
        throwable = m - sum(pool[k] for k in self.wild_kinds)
        if throwable <= 0:
            return alive
        for found in self.rons(h13):
            hit = 0
            for k, pay, pats in found:
                if pool[k] > 0:
                    w = alive * pool[k] / throwable
                    out.p += w
                    out.e += w * pay
                    out.patterns[pats] = out.patterns.get(pats, 0.0) + w
                    hit += pool[k]
            alive *= max(0.0, 1.0 - hit / throwable)
        return alive

    def lost(self, age: int, r: int) -> float:
        """The chance another wins within the next `r` cycles, the deal `age` cycles old (the table's game)."""
        key = (age, r)
        hit = self._lost.get(key)
        if hit is None:
            assert self.rivals is not None
            alive = 1.0
            for i in range(r):
                alive *= 1.0 - self.rivals.hazard(age + i)
            hit = self._lost[key] = 1.0 - alive
        return hit

    # --- transitions ---------------------------------------------------------------------------------

    def distance(self, h: Counts, base: int) -> int:
        """Tiles of `h` not in the hand the play began with (the 14 less `base`): the tiles drawn and kept."""
        return sum([x - y for x, y in zip(h, self.start[base]) if x > y])

    def moves(self, h13: Counts, base: int) -> Tuple[Tuple[int, Tuple[Any, ...]], ...]:
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
        if distance + s < self.budget[base] and len(h13) == WIDTH:  # (after a claim, no exchange)
            kept = self._swaps(h13, s, base, distance)
        else:  # no room for an exchange: only the draws that lower the shanten can be kept
            kept = dict(self.useful(h13)) if s > 0 else {}
        out: List[Tuple[int, Tuple[Any, ...]]] = []
        for k in range(NUM_KINDS):
            if k in wins:
                out.append((k, wins[k]))
            elif k in kept and self._held(h13, k) < 4 and self.unseen0[k]:
                out.append((k, self._options(h13, k, kept[k], s, base)))
        hit = self._moves[key] = tuple(out)
        return hit

    def _swaps(self, h13: Counts, s: int, base: int, distance: int) -> Dict[int, Tuple[int, ...]]:
        """Drawn kind -> the hand tiles whose throw (keeping the drawn tile) leaves the hand no further from
        ready and within the exchange budget. One tile out and one in: for each tile thrown, the shanten of
        the 12 left plus any kind follows from each shape's kept naturals and the kinds that raise them."""
        start = self.start[base]
        budget = self.budget[base]
        wild = set(self.wild_kinds)
        found: Dict[int, List[int]] = {}
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
                kept, up = _gains(naturals, self._melds(h13), shape)
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

    def useful(self, h13: Counts) -> Tuple[Tuple[int, Tuple[int, ...]], ...]:
        """The kinds whose draw lowers the shanten of a 13-tile hand that is not ready, each with the discards
        that then lower it (kinds, `STAR` for a `*`)."""
        hit = self._useful.get(h13)
        if hit is None:
            s = self.shanten(h13)
            out = []
            if s > 0:
                for k in self._improving(h13):
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

    def _spend(self, work: int) -> None:
        """Count `work` done; `_Spent` once the stage being weighed has passed its share (`_stop`)."""
        self.spent += work
        if self._stop is not None and self.spent > self._stop:
            raise _Spent

    def _improving(self, h13: Counts) -> Tuple[int, ...]:
        """The kinds whose draw lowers the shanten of the 13-tile `h13` by its shapes (`shanten.improvements`)."""
        self._spend(IMPROVING)
        naturals, wilds = self._split(h13)
        return _improvements(naturals, wilds, self._melds(h13), self.shapes, self.wild_kinds, self.dropped)[0]

    def estimate(self, base: int) -> Outcome:
        """Stage 3 (module docstring): the play begun by throwing `base`, valued in closed form along one path to
        ready. From each hand of the path the next keeps the improving kind with the most tiles left and throws
        the least tied tile that then lowers the shanten; a step is taken on a draw of any kind that improves the
        hand the path is at, with chance (its tiles left)/(the wall then), and the last on a draw that wins the
        ready hand at the path's end, which is paid as that hand's wins are, in proportion to their tiles."""
        h = self.start[base]
        goods: List[int] = []  # the tiles that take each step
        while self.shanten(h) > 0:
            pool = self.pool(h, base)
            kinds = [k for k in self._improving(h) if self._held(h, k) < 4 and pool[k]]
            goods.append(sum(pool[k] for k in kinds))
            s = self.shanten(h)
            step = None
            for k in sorted(kinds, key=lambda k: (-pool[k], k)):
                ds = [d for d in range(NUM_KINDS + 1) if d != k and h[d] and self.shanten(self._after(h, k, d)) < s]
                if ds:
                    step = self._after(h, k, min(ds, key=lambda d: (self._ties(h, k, d), d)))
                    break
            if step is None:
                return ZERO
            h = step
        pool = self.pool(h, base)
        wins = [(k, pay, pats) for k, pay, pats in self.wins(h) if pool[k] > 0]
        goods.append(sum(pool[k] for k, _, _ in wins))
        at = [1.0] + [0.0] * len(goods)  # the chance of being at each step of the path
        rivals = self.rivals
        out = Outcome()  # (at the table: the wins on the others' discards)
        for t in range(self.draws + 1):
            m = self.wall - t
            if rivals is not None:
                ready = len(goods) - 1
                at[ready] = self._ron_into(h, pool, m, out, at[ready])
                if t == self.draws:
                    break
                hazard = rivals.hazard(self.age + t)
                out.e -= hazard * self.loss * sum(at[:-1])
                for i in range(len(goods)):
                    at[i] *= 1.0 - hazard
            elif t == self.draws:
                break
            for i in range(len(goods) - 1, -1, -1):
                moved = at[i] * min(goods[i] / m, 1.0)
                at[i] -= moved
                at[i + 1] += moved
        p = at[-1]
        total = goods[-1]
        for k, pay, pats in wins:
            w = p * pool[k] / total
            out.p += w
            out.e += w * pay
            out.patterns[pats] = out.patterns.get(pats, 0.0) + w
        return out

    @staticmethod
    def _after(h13: Counts, k: int, d: int) -> Counts:
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

    def ready(self, h13: Counts, r: int, m: int, pool: Tuple[int, ...]) -> Outcome:
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

    def value(self, h13: Counts, r: int, base: int) -> Outcome:
        """The value of the 13-tile hand `h13` with `r` draws left, the play having begun by throwing `base`
        from the 14 (memoised on all three): the next draw wins, is kept (throwing the best tile for the
        objective) or is thrown, whichever is best; then the same with `r - 1` draws left."""
        key = (h13, r, base)
        hit = self._value.get(key)
        if hit is not None:
            return hit
        if self._limit is not None and len(self._value) + 2 * len(self._scores) > self._limit:
            raise _Overflow
        self._spend(1)
        s = self.shanten(h13)
        if self.rivals is not None:
            out = self._at_table(h13, r, base, s)
        elif r <= 0 or self.hopeless(h13, r):
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

    def _at_table(self, h13: Counts, r: int, base: int, s: int) -> Outcome:
        """`value` in the table's game (module docstring, "The table"): the others' discards, which a ready hand
        may win on; then, unless another won (`hazard`), the player's draw, as alone."""
        rivals = self.rivals
        assert rivals is not None
        m = self.wall - (self.draws - r)
        pool = self.pool(h13, base)
        age = self.age + self.draws - r
        if s == 0:
            moves = self.moves(h13, base) if r > 0 else ()
            if all(move[0] == "win" for _, move in moves):
                return self._ready_at_table(h13, r, m, pool, age)  # no tile it would keep: the closed form
        out = Outcome()
        alive = self._ron_into(h13, pool, m, out, 1.0)
        if r <= 0 or self.hopeless(h13, r):  # no draw left, or too few to be ready: only the others
            if self.loss and r > 0:
                out.e -= alive * self.loss * self.lost(age, r)
            return out
        hazard = rivals.hazard(age)
        drawn = self._step(h13, r, base, m, pool, self.moves(h13, base))
        if s > 0 and self.claiming:
            after = Outcome(0.0, -hazard * self.loss)  # what follows the discards when none is claimed
            after.add(drawn, 1.0 - hazard)
            out.add(self._claiming(h13, r, base, m, pool, after), alive)
            return out
        out.e -= alive * hazard * self.loss
        out.add(drawn, alive * (1.0 - hazard))
        return out

    # --- claims (the table's game) ------------------------------------------------------------------

    def _claiming(self, h13: Counts, r: int, base: int, m: int, pool: Tuple[int, ...], after: Outcome) -> Outcome:
        """The others' discards to the 13-tile `h13`, not ready, `r` draws left (module docstring, "Claims"): from
        the last discarder back to the first, each kind it may throw is claimed when its best claim is better for
        the objective than letting it go; `after` is what follows the three discards when none is claimed."""
        throwable = m - sum(pool[k] for k in self.wild_kinds)
        if throwable <= 0:
            return after
        chosen: Dict[Tuple[int, int], Tuple[int, int]] = {}
        found: Dict[Tuple[int, bool], Optional[Tuple[Outcome, Tuple[int, int]]]] = {}
        later = after  # the discards after this one's, and what follows them
        last = len(self.discarders) - 1
        # the kinds another may throw (none of a kind held four times: a claimed discard comes from no wall count)
        thrown = [k for k in range(NUM_KINDS) if pool[k] > 0 and self._held(h13, k) < 4]
        for who in range(last, -1, -1):
            here = Outcome(later.p, later.e, dict(later.patterns))
            for k in thrown:
                if h13[k] < 2 and who != last:
                    continue
                key = (k, who == last)
                if key not in found:
                    ids = self._claim_ids(h13, k, who == last)
                    found[key] = self._claim(h13, k, ids, r, base) if ids else None
                best = found[key]
                if best is not None and self.is_better(best[0], later):
                    w = pool[k] / throwable
                    here.add(best[0], w)
                    here.add(later, -w)
                    chosen[(who, k)] = best[1]
            later = here
        self._claims[(h13, r, base)] = chosen
        return later

    def _claim_ids(self, h13: Counts, k: int, chow: bool) -> List[int]:
        """The melds (ids: `RUN`) the 13-tile `h13` may claim a discarded `k` into: a pung of two natural copies
        held; with `chow` (the seat before the player's discard), each run of `k` and two natural tiles held. Only
        those the region allows with the melds already claimed (`_may_claim`)."""
        if k in self.wild_kinds:
            return []
        ids = [k] if h13[k] >= 2 else []
        if chow and self.chows and k < 27:
            for t in (k - 2, k - 1, k):
                if t >= 0 and t // 9 == k // 9 and t % 9 <= 6 and all(
                        h13[x] >= 1 and x not in self.wild_kinds for x in (t, t + 1, t + 2) if x != k):
                    ids.append(RUN + t)
        return [c for c in ids if self._may_claim(tuple(sorted(h13[WIDTH:] + (c,))))]

    def _claim(self, h13: Counts, k: int, ids: List[int], r: int, base: int) -> Optional[Tuple[Outcome, Tuple[int, int]]]:
        """The best claim of a discarded `k` into the 13-tile `h13` with one of the melds `ids` (`_claim_ids`), the
        player then throwing the tile best for the objective among those that leave the hand nearer ready than
        before, `r` draws left: (its value, (the meld's id, the tile thrown)), or None when no claim brings the
        hand nearer ready."""
        self._spend(len(ids))
        s = self.shanten(h13)
        best: Optional[Tuple[Outcome, Tuple[int, int]]] = None
        for c in ids:
            tail = tuple(sorted(h13[WIDTH:] + (c,)))
            h = self._taken(h13, k, c)
            for d in range(WIDTH):
                if not h[d]:
                    continue
                h[d] -= 1
                claimed = tuple(h) + tail
                h[d] += 1
                if self.shanten(claimed) >= s:
                    continue
                o = self.value(claimed, r, base)
                if best is None or self.is_better(o, best[0]):
                    best = (o, (c, d))
        return best

    def _may_claim(self, tail: Tuple[int, ...]) -> bool:
        """Whether the hand may hold the melds claimed in the play `tail` (ids: `RUN`), by the region's checks of a
        hand's melds (sichuan claims no chow); at most four melds in all."""
        hit = self._claimable.get(tail)
        if hit is None:
            hit = self.melds + len(tail) <= 4
            if hit:
                try:
                    self.region.check_melds(self.ruleset, self.situation, Hand((), self._meld_list((0,) * WIDTH + tail)))
                except SituationError:
                    hit = False
            self._claimable[tail] = hit
        return hit

    @staticmethod
    def _taken(h13: Counts, k: int, c: int) -> List[int]:
        """The counts of the 13-tile `h13` less the tiles it gives to the meld `c` (an id: `RUN`) claimed on `k`."""
        h = list(h13[:WIDTH])
        for x in ((k, k) if c < RUN else [x for x in (c - RUN, c - RUN + 1, c - RUN + 2) if x != k]):
            h[x] -= 1
        return h

    def claimed(self, h13: Counts, k: int, c: int, d: int) -> Counts:
        """The 13-tile `h13` after claiming the discarded `k` into the meld `c` (an id: `RUN`) and throwing `d`."""
        h = self._taken(h13, k, c)
        h[d] -= 1
        return tuple(h) + tuple(sorted(h13[WIDTH:] + (c,)))

    def hopeless(self, h13: Counts, r: int) -> bool:
        """Whether no play of the 13-tile `h13` with `r` draws left can win: too far from ready (alone, a draw
        more than its shanten is needed; at the table, a discard after its last draw can win it)."""
        if self.automatic:
            return r <= 0
        s = self.shanten(h13)
        return s + 1 > r if self.rivals is None else s > r

    def _ready_at_table(self, h13: Counts, r: int, m: int, pool: Tuple[int, ...], age: int) -> Outcome:
        """A ready hand that keeps its tiles, in the table's game, `r` draws left: cycle by cycle, the others'
        discards it may win on, another's win (`hazard`), then the player's draw."""
        rivals = self.rivals
        assert rivals is not None
        wins = [(k, pay, pats) for k, pay, pats in self.wins(h13) if pool[k] > 0]
        total = sum(pool[k] for k, _, _ in wins)
        out = Outcome()
        alive = 1.0
        for i in range(r, -1, -1):
            mi = m - (r - i)
            alive = self._ron_into(h13, pool, mi, out, alive)
            if i == 0 or alive <= 0.0:
                break
            hazard = rivals.hazard(age + r - i)
            out.e -= alive * hazard * self.loss
            alive *= 1.0 - hazard
            if total and mi > 0:
                for k, pay, pats in wins:
                    w = alive * pool[k] / mi
                    out.p += w
                    out.e += w * pay
                    out.patterns[pats] = out.patterns.get(pats, 0.0) + w
                alive *= max(0.0, 1.0 - total / mi)
        return out

    def _step(self, h13: Counts, r: int, base: int, m: int, pool: Tuple[int, ...],
              moves: Tuple[Tuple[int, Tuple[Any, ...]], ...]) -> Outcome:
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

    def _options(self, h13: Counts, k: int, ds: Tuple[int, ...], s: int, base: int) -> Tuple[int, ...]:
        """The discards weighed after keeping `k`: all of them, except in a play begun far from ready (`DEEP`
        or more), where only the `DEEP_OPTIONS` leaving the most tiles that improve the hand are (an
        approximation), and in the stages that weigh `NARROW_OPTIONS`."""
        stage = self.stage.get(base)
        n = STAGES[min(stage, len(STAGES)) - 1] if stage else None  # (a simulator playing `ESTIMATE`: stage 2)
        if n is not None:  # stage 2: the loosest tile, found without weighing what each discard leaves
            return ds if len(ds) <= n else tuple(sorted(ds, key=lambda d: (self._ties(h13, k, d), d))[:n])
        if self.first[base] < DEEP or len(ds) <= DEEP_OPTIONS:
            return ds
        n = DEEP_OPTIONS
        key = (h13, k, n)
        hit = self._trimmed.get(key)
        if hit is None:
            pool = self.unseen0
            scored = []
            for d in ds:
                after = self._after(h13, k, d)
                scored.append((-sum(pool[t] for t, _ in self.useful(after)), d))
            hit = self._trimmed[key] = tuple(d for _, d in sorted(scored)[:n])
        return hit

    def _ties(self, h13: Counts, k: int, d: int) -> int:
        """How tied the tile `d` is to the rest of the 13-tile `h13` with `k` drawn (stages 2 and 3 throw the least
        tied of the discards that lower the shanten): twice its other copies, and for a suited tile once each tile
        of its suit within two ranks; a wildcard, the most tied of all."""
        if d == STAR or d in self.wild_kinds:
            return 99
        h = list(h13)
        h[k] += 1
        ties = 2 * (h[d] - 1)
        if d < 27:
            rank = d % 9
            ties += sum(h[t] for t in range(d - min(rank, 2), d + min(8 - rank, 2) + 1) if t != d)
        return ties

    # --- the policy, one draw at a time (for simulators) -------------------------------------------

    def decide(self, base: int, h13: Counts, r: int, drawn: int) -> int:
        """What the player does on drawing `drawn` into the 13-tile `h13` with `r` draws left (before the
        draw): `WIN`, or the tile thrown (the drawn tile itself when it is not kept)."""
        self.value(h13, r, base)
        if self.shanten(h13) == 0 and (h13, r, base) not in self._decisions:  # the closed form: wins only
            return WIN if any(k == drawn for k, _, _ in self.wins(h13)) else drawn
        choice = self._decisions.get((h13, r, base), {}).get(drawn)
        return drawn if choice is None else choice

    def player(self, discard: int) -> "Plan":
        return Plan(self, discard)

    # --- the answer --------------------------------------------------------------------------------

    def evaluate(self, top: int = 3, progress: Optional[Callable[[int, int], None]] = None) -> ValueAdvice:
        shanten = self.first  # each discard's shanten
        limit = max(min(shanten.values()), 1)
        skipped = [d for d in self.start if shanten[d] > limit]
        valued = [d for d in self.start if shanten[d] <= limit]
        # the most promising first (fewest from ready, most improving tiles): they keep their exchanges when
        # the work runs out
        # (by the kinds whose draw improves the hand, for those 2 or more from ready: finding the discards that then
        # lower the shanten is most of the work of a hand far from ready, and is needed only by the plays)
        pool = self.unseen0

        def promise(d: int) -> Tuple[int, int, int]:
            h = self.start[d]
            kinds = [k for k, _ in self.useful(h)] if shanten[d] <= 1 else self._improving(h)
            return shanten[d], -sum(pool[k] for k in kinds), d
        valued.sort(key=promise)
        figures: Dict[int, Outcome] = {}
        widest = {d: 0 if self.budget[d] > shanten[d] else 1 for d in valued}  # each one's play without the cap
        floor = 1  # a narrower play given up for a discard is not tried for those after it (less promising)
        for i, d in enumerate(valued):
            if progress is not None:
                progress(i, len(valued))
            h = self.start[d]
            stage = 0 if self.budget[d] > shanten[d] else floor
            while d not in figures:
                self.stage[d] = stage
                self._limit = self.work if stage == 0 else None  # None: no cap
                if stage == ESTIMATE:
                    figures[d] = self.estimate(d)
                    break
                self._stop = self._share(len(valued) - i)
                if self._stop == self.spent:  # the cap is spent: the closed form at once
                    self._stop = None
                    stage = ESTIMATE
                    continue
                try:
                    figures[d] = self.value(h, self.draws, d)
                except (_Overflow, _Spent) as exc:
                    self._forget(d)
                    if stage == 0:  # this and the rest play without exchanges (past `WORK`, as without the cap)
                        without_cap = isinstance(exc, _Overflow)
                        for later in valued[i:]:
                            if self.budget[later] > shanten[later]:
                                self.budget[later] = shanten[later]
                                self.capped.add(later)
                                if without_cap:
                                    widest[later] = 1
                    stage += 1
                    floor = max(floor, stage)
                finally:
                    self._limit = self._stop = None
        results = []
        for d in valued:
            o, s = figures[d], shanten[d]
            pats = [(ids, min(q, 1.0)) for ids, q in sorted(o.patterns.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]
            exact = self.budget[d] > s or self.draws == 0 or self.automatic and self._wins_every_draw(self.start[d])
            results.append(DiscardValue(d, s, min(o.p, 1.0), o.e, pats, exact, self.stage[d]))  # min: 1 + rounding
        if self.by == "win":
            results.sort(key=lambda v: (-round(v.p_win, 12), -round(v.expected, 9), v.shanten, v.tile == STAR, v.tile))
        else:
            results.sort(key=lambda v: (-round(v.expected, 9), -round(v.p_win, 12), v.shanten, v.tile == STAR, v.tile))
        now, afterwards = self.given, self.situation
        dropped = tuple(name for name in ("from", "rob_kong", "kong_draw", "first_turn", "last_tile")
                        if getattr(now, FIELD_OF.get(name, name)) != getattr(afterwards, FIELD_OF.get(name, name)))
        return ValueAdvice(self.by, self.draws, self.wall, results, skipped, self.exact, self.win_now(),
                           self.asked_draws, dropped, [d for d in valued if self.stage[d] > widest[d]], valued,
                           self.cap, self.spent, self.rivals, self.loss)

    def _share(self, left: int) -> Optional[int]:
        """Where the stage now begun is given up (`spent` past it), `left` discards still to value with this one:
        twice an even share of the cap's work left, at most all of it (None: no cap)."""
        if self.cap is None:
            return None
        rest = max(self.cap - self.spent, 0)
        return self.spent + min(rest, 2 * rest // left)

    def _wins_every_draw(self, h13: Counts) -> bool:
        """Whether every tile left in the wall wins the 13-tile `h13` at once (a win whatever the shape on any
        tile): the first draw ends the play, so there is nothing to choose and the narrower play is the best
        one (no draws: nothing to play either)."""
        won = {k for k, _, _ in self.wins(h13)}
        return all(k in won for k in range(NUM_KINDS) if self.unseen0[k])

    def win_now(self) -> Optional[int]:
        """What the 14 tiles pay the player if declared a win as they stand, in the situation given (None: not
        a legal win), for comparison with the discards' figures."""
        legal, pay, _ = _score_win(_tiles(self.hand, self.wild_kinds), self.ruleset, self.given, self.region)
        return pay if legal else None

    def _forget(self, base: int) -> None:
        """Drop what was worked out for the play begun by `base` (its exchange budget is about to change)."""
        for table in (self._value, self._decisions, self._claims):
            for key in [key for key in table if key[2] == base]:
                del table[key]
        for move in [move for move in self._moves if move[1] == base]:
            del self._moves[move]


class _Overflow(Exception):
    """The exchanges' work passed `Engine.work`."""


class _Spent(Exception):
    """A stage's work passed its share of the cap (`Engine._stop`)."""


class Plan:
    """The engine's play after throwing `discard`, one draw at a time (issue 37): `throw(drawn)` says the tile
    the player throws when `drawn` does not win (the caller judges wins, on a draw and on a discard, and takes
    them). The plan is the engine's own table of decisions, so following it costs nothing; it has run out
    (`spent`) once its draws are used, or when the next hand was not planned: a discard the work cap valued by
    its closed-form estimate plans only that discard. Then ask again (`plan`), with what is seen by then; and
    after a kong, or a claim the plan did not make (`claim` says those it makes), whose hand the plan never had."""

    def __init__(self, engine: Engine, discard: int) -> None:
        if discard not in engine.start:
            raise ValueError(f"{tile_name(discard)} is not in the hand")
        self.engine = engine
        self.discard = discard
        self.hand = engine.start[discard]  # the 13 tiles held (counts, `STAR` for a `*`)
        self.left = engine.draws  # the draws the plan has left
        self.value: Optional[DiscardValue] = None  # the discard's figures, when `plan` made it

    @property
    def spent(self) -> bool:
        engine = self.engine
        if self.left <= 0 or engine.stage.get(self.discard) == ESTIMATE:
            return True
        if engine.shanten(self.hand) == 0 or engine.hopeless(self.hand, self.left):
            return False  # (the closed form's hand, and one no draw can win: nothing to plan but throwing draws)
        return (self.hand, self.left, self.discard) not in engine._value

    def throw(self, drawn: int) -> int:
        """The tile thrown after drawing `drawn` (a kind; `STAR` for a `*`): `drawn` itself, or a tile of the
        hand, which then keeps `drawn`."""
        if self.spent:
            raise ValueError("the plan has run out: ask for a new one")
        choice = self.engine.decide(self.discard, self.hand, self.left, drawn)
        self.left -= 1
        if choice == WIN:
            raise ValueError(f"drawing {tile_name(drawn)} wins: the caller takes the win")
        if choice != drawn:
            self.hand = self.engine._after(self.hand, drawn, choice)
        return choice

    def claim(self, tile: int, who: int) -> Optional[Tuple[Meld, int]]:
        """Whether the player claims `tile`, the discard of the `who`-th other seat in turn order after the player
        (0: the next seat; 2: the seat before the player, whose discard may be chowed) when it does not win: None,
        or the meld claimed and the tile the player then throws. The plan goes on from the hand after the claim,
        with its draws as they were."""
        if self.spent:
            raise ValueError("the plan has run out: ask for a new one")
        engine = self.engine
        choice = engine._claims.get((self.hand, self.left, self.discard), {}).get((who, tile))
        if choice is None:
            return None
        c, d = choice
        self.hand = engine.claimed(self.hand, tile, c, d)
        return claimed_meld(c), d


Player = Plan  # (the name before issue 37)


def advise_value(hand: Hand, ruleset: "Ruleset", situation: "Situation", seen: Optional[Sequence[int]] = None,
                 draws: int = DEFAULT_DRAWS, by: str = "value", top: int = 3, exact: bool = False,
                 cap: Optional[int] = CAP, progress: Optional[Callable[[int, int], None]] = None,
                 rivals: Optional[Rivals] = None) -> ValueAdvice:
    """Every discard of a 14-tile hand valued by P(win within `draws`) and expected payout (module docstring);
    `exact` weighs the exchanges of wildcard hands too, with no cap on the exchanges' work (`WORK`); `cap` bounds
    the whole answer's work (None: no bound); `rivals` plays the table's game (None: the player alone).
    `progress(done, total)` is told as each discard is taken up."""
    engine = Engine(hand, ruleset, situation, seen, draws, by, exact=exact, cap=cap, rivals=rivals)
    return engine.evaluate(top, progress)


def plan(hand: Hand, ruleset: "Ruleset", situation: "Situation", seen: Optional[Sequence[int]] = None,
         by: str = "value", draws: int = DEFAULT_DRAWS, rivals: Optional[Rivals] = TABLE,
         cap: Optional[int] = CAP) -> Plan:
    """The best discard of a 14-tile hand for the objective `by` (`win` or `value`), in the table's game by
    default, as a `Plan` to follow draw by draw: `plan.discard` is the tile to throw now (a kind; `STAR` for a
    `*`), `plan.value` its figures, `plan.throw(drawn)` the tile to throw after each draw that does not win, until
    `plan.spent`."""
    engine = Engine(hand, ruleset, situation, seen, draws, by, cap=cap, rivals=rivals)
    valued = engine.evaluate()
    best = Plan(engine, valued.discards[0].tile)
    best.value = valued.discards[0]
    return best


def claimed_meld(c: int) -> Meld:
    """The meld claimed in a play, by its id (`RUN`): exposed, claimed from a discard."""
    return Meld(PUNG, (c, c, c)) if c < RUN else Meld(CHOW, (c - RUN, c - RUN + 1, c - RUN + 2))


def tile_name(tile: int) -> str:
    return "*" if tile == STAR else NAMES[tile]
