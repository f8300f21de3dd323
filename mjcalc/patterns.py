"""Pattern detectors that any region may use: small named predicates over one reading of a hand.

A detector takes a `Reading` (see scoring.py) and its `Pattern` (for parameters) and returns how many
times the pattern applies: 0 for not at all. Values, names and exclusions come from the ruleset; never here.
A region's own detectors live in its module (`regions/`); `COMMON` lists these by the id rulesets use.

A detector says what it reads, with marks (each below): `situational` (only how the hand was won), `of_hand`
(only the hand's facts — open or concealed, its melds, its wildcard tiles — and the situation), `only_on` (the
shapes it can count on), `counts` (how many times it can count), `told` (how it counts on a hand told by its
patterns), `needs` (what its shape needs). A detector without marks reads the hand's shape: a hand told without
its tiles (`told.py`) gives its count by naming it.
"""
from dataclasses import dataclass
from typing import Any, Callable, FrozenSet, Iterable, Optional, Protocol, Tuple, TypeVar, Union, cast

from .decompose import Block
from .hand import CHOW, KONG, PUNG
from .payouts import MAX_VALUE, Param
from .shapes import NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, THIRTEEN_ORPHANS
from .situation import Situation
from .tiles import DRAGONS, HONORS, WINDS, is_terminal_or_honor

COUNT = "count"  # an `implies` value: the count the pattern is named with (杠开×2 sets two kong draws)


class ReadingView(Protocol):
    """What these detectors read of a reading: a `scoring.Reading`, or a hand told by its patterns
    (`told.ToldReading`: no blocks, its shape and what was named instead)."""

    @property
    def shape(self) -> Optional[str]: ...

    @property
    def blocks(self) -> Tuple[Block, ...]: ...

    @property
    def sets(self) -> Tuple[Block, ...]: ...

    @property
    def kinds(self) -> FrozenSet[int]: ...

    @property
    def situation(self) -> Situation: ...

    @property
    def hand(self) -> Any: ...  # a `hand.Hand`, or a `told.ToldHand`

    @property
    def only_pungs(self) -> bool: ...


class ToldView(ReadingView, Protocol):
    """A hand told by its patterns (`told.ToldReading`), as the `told` counts read it."""

    @property
    def every_pung(self) -> bool: ...

    def named(self, pattern_id: str) -> int: ...


class PatternView(Protocol):
    """What a detector reads of its pattern: a `ruleset.Pattern` (which imports this module's region's)."""

    @property
    def id(self) -> str: ...

    def param(self, key: str, default: Any = None) -> Any: ...


D = TypeVar("D", bound=Callable[..., Any])  # a detector, marked and given back as it was
Rule = Union[str, Callable[[Any], str]]  # a message id, or a function of the pattern giving one


def _mark(detector: D, **marks: Any) -> D:
    """`detector` with these marks (a function carries them as its attributes)."""
    for name, value in marks.items():
        setattr(detector, name, value)
    return detector


def per_hand(detector: D) -> D:
    """Marks a detector that reads only the hand and the situation, never the reading (its decomposition, its
    winning block): the scorer runs it once for all the readings of a hand."""
    return _mark(detector, per_hand=True)


def situational(rule: Rule, implies: Optional[Tuple[str, Any]] = None) -> Callable[[D], D]:
    """Marks a detector that reads only the situation (who deals, who won, from whom, how), never the tiles:
    quick entry checks a named pattern against it (refused with `rule`, the message id of when it counts, when
    the situation contradicts it) and adds it where the situation says it holds. `implies` is the situation field
    (or region option) that naming the pattern sets (天和 → first_turn), with its value (`COUNT`: the count
    named)."""
    def mark(detector: D) -> D:
        return _mark(detector, per_hand=True, situational=True, of_hand=True, implies=implies, rule=rule)
    return mark


def every_win(rule: str) -> Callable[[D], D]:
    """Marks a situational detector that holds on every win (推倒和: the plain win, unless a pattern that replaces it
    counts): a told hand has it without naming it, and no one is told it was added."""
    def mark(detector: D) -> D:
        return _mark(situational(rule)(detector), every_win=True)
    return mark


def of_hand(rule: str, implies: Optional[Tuple[str, Any]] = None) -> Callable[[D], D]:
    """Marks a detector that reads only the hand's facts — open or concealed (`hand.is_concealed`), its declared
    melds (`hand.melds`: their kind, concealed or not, whom claimed from, never their tiles), its wildcard tiles
    (`wild_tiles`, `four_of_a_wild_kind`) — and the situation: it runs once a hand, and on a hand told without
    its tiles as on one with them. `rule` (a message id) says when it counts; `implies` as for `situational`."""
    def mark(detector: D) -> D:
        return _mark(detector, per_hand=True, of_hand=True, implies=implies, rule=rule)
    return mark


def added_by_situation(detector: object) -> bool:
    """Whether quick entry adds the pattern by itself where the situation says it holds (庄): a situational
    detector that names no field to set (天和 sets first_turn: naming it is how a player says so)."""
    return bool(getattr(detector, "situational", False) and not getattr(detector, "implies", None))


def only_on(*shapes: str) -> Callable[[D], D]:
    """Marks a detector that counts 0 on a reading of any other shape (and on a hand won whatever its shape):
    the scorer runs it only on readings of these shapes."""
    def mark(detector: D) -> D:
        return _mark(detector, shapes=frozenset(shapes))
    return mark


def of_sets(n: int, most: int = 1) -> Callable[[D], D]:
    """Marks the detector of a pattern made of `n` of the hand's sets (`combines: n` in a ruleset): a predicate over
    a tuple of `n` sets (chows, pungs, kongs, melds included, in the order of their tiles) and the pattern; the scorer
    lists every combination it holds on and selects among them (`scoring.combined`). `most`: how many times a told
    hand may name it."""
    def mark(detector: D) -> D:
        return _mark(detector, combines=n, most=most)
    return mark


def counts(most: int) -> Callable[[D], D]:
    """Marks a detector that counts how many times its pattern holds, at most `most` (中发白 counts dragon
    pungs): a named pattern may be given that many times. A detector without the mark holds once."""
    def mark(detector: D) -> D:
        return _mark(detector, most=most)
    return mark


def most_count(detector: object) -> int:
    """How many times a detector's pattern can count on one hand (`counts`; 1 without the mark)."""
    most: int = getattr(detector, "most", 1)
    return most


def told(count: Callable[[Any, Any], int], rule: Optional[str] = None) -> Callable[[D], D]:
    """Marks a shape detector whose count on a hand told by its patterns is not simply the count named: `count(r,
    p)` gives it on a `told.ToldReading` (`r.named(id)` is what was named), as the detector gives it on tiles —
    东风 is worth its dealer's count when the dealer names it, 门风 never counts for the dealer. `rule` (a message id)
    says when it counts: a named pattern it counts 0 is refused with it."""
    def mark(detector: D) -> D:
        return _mark(detector, told=count, **({} if rule is None else {"rule": rule}))
    return mark


@dataclass(frozen=True)
class Needs:
    """What a pattern needs of a hand: of a standard hand's sets and tiles (so that names that cannot share one
    hand, 平胡 with 对对胡, are refused), and of its declared melds and wildcards (the facts of a hand told by name:
    大钓 has four exposed melds). Sets needed (chows, pungs, every set one kind) make it a pattern of the standard
    shape. The pungs two patterns need are taken to be different pungs."""

    every: Optional[str] = None  # CHOW or PUNG: every set of the hand is one
    chows: int = 0  # at least this many chows
    pungs: int = 0  # at least this many pungs or kongs, for each time the pattern counts
    honors: bool = False  # an honor tile among the 14
    suited: bool = False  # a suit tile among the 14 (捉五魁's 5万)
    suits: Optional[str] = None  # "one" (one suit, no honor), "one_and_honors" (both), "honors" (honors only)
    terminals: bool = False  # every tile a terminal or an honor
    wins_in: Optional[str] = None  # PAIR or CHOW: the block the winning tile completes
    melds: Optional[int] = None  # exactly this many declared melds
    exposed: Optional[int] = None  # exactly this many exposed melds
    wilds: Optional[int] = None  # exactly this many wildcard tiles among the 14
    wild_roles: Optional[bool] = None  # a wildcard stands in for another tile (True), or none does (False: 无宝)
    held_wild: bool = False  # a wildcard tile among the 14 (naming the pattern says wildcards are in play)

    @property
    def wildcards(self) -> bool:
        """Whether the pattern's hand holds a wildcard: naming it says wildcards are in play."""
        return self.held_wild or bool(self.wild_roles) or bool(self.wilds)

    @property
    def standard(self) -> bool:
        """Whether only a standard hand (sets and a pair) meets them."""
        return bool(self.every or self.chows or self.pungs or self.wins_in == CHOW)


NO_NEEDS = Needs()


def needs(what: Optional[Callable[[Any], Needs]] = None, **fields: Any) -> Callable[[D], D]:
    """Marks what a pattern needs of a hand (`Needs`): its fields, or a function of the ruleset's `Pattern` giving
    them where its parameters change them (捉五魁 on seven pairs)."""
    def mark(detector: D) -> D:
        return _mark(detector, needs=what if callable(what) else Needs(**fields))
    return mark


def needs_of(detector: object, pattern: Any = None) -> Needs:
    """What the detector's pattern needs (`needs`), for the ruleset's `pattern` where that matters."""
    found: Union[Needs, Callable[[Any], Needs]] = getattr(detector, "needs", NO_NEEDS)
    return found(pattern) if callable(found) else found


def clash(*named: Tuple[Needs, int]) -> bool:
    """Whether no hand meets all these needs at once: `named` are (Needs, how many times the pattern is named)."""
    every = {n.every for n, _ in named} - {None}
    chows = max((n.chows for n, _ in named), default=0)
    pungs = sum(n.pungs * count for n, count in named)
    suits = {n.suits for n, _ in named} - {None}
    honors = any(n.honors for n, _ in named) or "one_and_honors" in suits
    suited = any(n.suited for n, _ in named) or bool(chows or CHOW in every or suits & {"one", "one_and_honors"})
    wins_in = {n.wins_in for n, _ in named} - {None}
    if len(every) > 1 or chows + pungs > 4 or len(wins_in) > 1:
        return True
    if CHOW in every and pungs or PUNG in every and (chows or CHOW in wins_in):
        return True
    if len(suits) > 1 or "one" in suits and honors or "honors" in suits and suited:
        return True
    if any(n.terminals for n, _ in named) and (chows or CHOW in every or CHOW in wins_in):
        return True
    for key in ("melds", "exposed", "wilds", "wild_roles"):
        told = {getattr(n, key) for n, _ in named} - {None}
        if len(told) > 1:
            return True
    return False


def sets(r: ReadingView) -> Tuple[Block, ...]:
    return r.sets


def is_pung(b: Block) -> bool:
    return b.kind in (PUNG, KONG)


@situational("rule.dealer")
def dealer(r: ReadingView, p: PatternView) -> int:
    """庄: the dealer wins, or the dealer deals in."""
    s = r.situation
    return int(s.is_dealer or s.discarder == s.dealer)


@situational("rule.self_draw")
def self_draw(r: ReadingView, p: PatternView) -> int:
    """自摸: won by self-draw (a robbed kong too, where the region scores a rob as a self-draw)."""
    return int(r.situation.self_drawn)


@every_win("rule.tuidaohe")
def tuidaohe(r: ReadingView, p: PatternView) -> int:
    """推倒和 (平和): a plain win; the ruleset lists the patterns that replace it."""
    return 1


@of_hand("rule.no_wild")
def no_wild(r: Any, p: PatternView) -> int:
    """无混 (无财, 无红中): no tile of a wildcard kind among the 14, even one standing for its own face."""
    return int(r.wild_tiles == 0)


@of_hand("rule.concealed")
def concealed(r: ReadingView, p: PatternView) -> int:
    """门清: no 吃, 碰 or 明杠 (a concealed kong is fine)."""
    return int(r.hand.is_concealed)


def every_pung(r: ToldView) -> bool:
    """Of a hand told by its patterns: whether every set is a pung or a kong (four kongs, or a named pattern that
    says so: 对对和, a hand of terminals and honors in the standard shape)."""
    return r.every_pung


@needs(every=PUNG)
@told(lambda r, p: int(bool(r.named(p.id)) or every_pung(r)), rule="rule.every_pung")
@only_on(STANDARD)
def all_pungs(r: ReadingView, p: PatternView) -> int:
    """对对和: four pungs or kongs and a pair."""
    return int(r.only_pungs)


@situational("rule.sea_bottom", implies=("last_tile", True))
def sea_bottom(r: ReadingView, p: PatternView) -> int:
    """海底捞月: won on the last tile (`params.discard_value`: its value when the last tile was discarded)."""
    return int(r.situation.last_tile)


@needs(chows=3)
def dragon(r: ReadingView, p: PatternView) -> int:
    """一条龙: 123, 456 and 789 of one suit as three chows."""
    chows = {b.tiles[0] for b in sets(r) if b.kind == CHOW}
    return int(any({9 * s, 9 * s + 3, 9 * s + 6} <= chows for s in range(3)))


@only_on(SEVEN_PAIRS)
def seven_pairs(r: ReadingView, p: PatternView) -> int:
    """七对子: seven pairs (four identical tiles are two)."""
    return int(r.shape == SEVEN_PAIRS)


@counts(3)
@only_on(SEVEN_PAIRS)
def luxury_seven_pairs(r: ReadingView, p: PatternView) -> int:
    """豪华七对子: seven pairs holding four identical tiles; counts the fours."""
    return fours_in_pairs(r) if r.shape == SEVEN_PAIRS else 0


@counts(4)
@situational("rule.kong_bloom", implies=("kong_draw", COUNT))
def kong_bloom(r: ReadingView, p: PatternView) -> int:
    """杠上开花: self-drawn on a kong replacement; with `per_kong`, counts the consecutive kongs."""
    s = r.situation
    if not (s.kong_draw and s.self_drawn):
        return 0
    return s.kong_draw if p.param("per_kong") else 1


@needs(suits="one")
def full_flush(r: ReadingView, p: PatternView) -> int:
    """清一色: every tile of one suit, no honors."""
    suits = {t // 9 if t < 27 else 3 for t in r.kinds}
    return int(len(suits) == 1 and 3 not in suits)


@needs(suits="one_and_honors")
def half_flush(r: ReadingView, p: PatternView) -> int:
    """混一色: one suit and honors, both present."""
    suits = {t // 9 if t < 27 else 3 for t in r.kinds}
    return int(len(suits) == 2 and 3 in suits)


@situational("rule.heavenly", implies=("first_turn", True))
def heavenly(r: ReadingView, p: PatternView) -> int:
    """天和: the dealer is complete before discarding."""
    return int(r.situation.first_turn and r.situation.is_dealer)


@situational(lambda p: "rule.earthly_dealer" if p.param("dealer_first_discard") else "rule.earthly",
             implies=("first_turn", True))
def earthly(r: ReadingView, p: PatternView) -> int:
    """地和: a non-dealer wins before discarding; with `dealer_first_discard`, only on the dealer's first discard."""
    s = r.situation
    if p.param("dealer_first_discard") and s.discarder != s.dealer:
        return 0
    return int(s.first_turn and not s.is_dealer)


@needs(suits="honors")
def all_honors(r: ReadingView, p: PatternView) -> int:
    """全字牌: every tile an honor."""
    return int(all(t in HONORS for t in r.kinds))


@only_on(THIRTEEN_ORPHANS)
def thirteen_orphans(r: ReadingView, p: PatternView) -> int:
    """十三幺: one of each terminal and honor, and one more."""
    return int(r.shape == THIRTEEN_ORPHANS)


@only_on(THIRTEEN_LONELY)
def thirteen_lonely(r: ReadingView, p: PatternView) -> int:
    """十三浪: fourteen lonely tiles."""
    return int(r.shape == THIRTEEN_LONELY)


@only_on(NINE_TERMINALS)
def nine_terminals(r: ReadingView, p: PatternView) -> int:
    """九幺: every tile a terminal or an honor."""
    return int(r.shape == NINE_TERMINALS)


@needs(terminals=True)
def all_terminals_and_honors(r: ReadingView, p: PatternView) -> int:
    """幺九: every tile a terminal or an honor, in any shape."""
    return int(all(is_terminal_or_honor(t) for t in r.kinds))


@counts(4)
@needs(pungs=1, honors=True)
def dragon_pung(r: ReadingView, p: PatternView) -> int:
    """中发白: a pung or kong of a dragon; counts them."""
    return sum(1 for b in sets(r) if is_pung(b) and b.tiles[0] in DRAGONS)


@situational("rule.rob_kong", implies=("rob_kong", True))
def rob_kong(r: ReadingView, p: PatternView) -> int:
    """抢杠: won by robbing a kong."""
    return int(r.situation.rob_kong)


def seat_wind(situation: Situation) -> int:
    """The winner's own wind, counted from the dealer: the dealer East, his right South, and so on."""
    order = "ESWN"
    return WINDS[(order.index(situation.seat) - order.index(situation.dealer)) % 4]



def pungs_of(r: ReadingView, tile: int) -> int:
    """How many pungs or kongs of `tile` the reading holds."""
    return sum(1 for b in r.blocks if is_pung(b) and b.tiles[0] == tile)


def fours_in_pairs(r: ReadingView) -> int:
    """Seven pairs: how many kinds fill two of the pairs (four identical tiles)."""
    pairs = [b.tiles[0] for b in r.blocks]
    return sum(pairs.count(t) // 2 for t in set(pairs))


# The parameters a ruleset may give these detectors (`patterns.<id>.params`), by pattern id.
PARAMS = {
    "kong_bloom": {"per_kong": Param("count each consecutive kong (杠开 N times) instead of once", kind=bool,
                                     required=False)},
    "earthly": {"dealer_first_discard": Param("only a win on the dealer's first discard", kind=bool,
                                              required=False)},
}
# What any pattern may be given, read by the scorer: its value on a discard win, when the dealer wins, or when no
# wildcard plays a wildcard role.
ANY_PATTERN_PARAMS = {
    "without_wild": Param("the value when no wildcard plays a wildcard role", maximum=MAX_VALUE, required=False),
    "discard_value": Param("the value when the win is not self-drawn", maximum=MAX_VALUE, required=False),
    "dealer_value": Param("the value when the dealer is the winner", maximum=MAX_VALUE, required=False),
    "or_without": Param("counted only where the hand scores more with it, its exclusions applied, than without it "
                        "(就高不就低)", kind=bool, required=False),
}

COMMON = {f.__name__: f for f in (
    tuidaohe, no_wild, dealer, self_draw, concealed, all_pungs, sea_bottom, dragon, seven_pairs, luxury_seven_pairs, kong_bloom, full_flush,
    half_flush, heavenly, earthly, all_honors, thirteen_orphans, thirteen_lonely, nine_terminals,
    all_terminals_and_honors, dragon_pung, rob_kong,
)}


# --- what these detectors can tell apart -----------------------------------------------------------------

_SUIT = {"full_flush", "half_flush", "all_honors"}


class BlockTraits(Protocol):
    """A function of a block (`block_traits`) with the `signature` of what it depends on."""

    signature: Tuple[Any, ...]

    def __call__(self, b: Block) -> Tuple[Any, ...]: ...


def block_traits(active: Iterable[str], tiles: Any) -> BlockTraits:
    """What the common detectors among the pattern ids `active` can see of a block of this hand (`tiles`, the
    hand under its wildcards), beyond its kind and its wildcards: a function of the block, for
    `Region.reading_keys`.

    Flushes and 全字牌 see the suit, 一条龙 a chow starting on 1, 4 or 7 (and its suit), 幺九 whether every tile
    is a terminal or an honor, 中发白 a dragon; everything else here reads the shape, the hand or the situation.
    What the natural tiles already rule out is not seen: no flush once they hold two suits (and then the other
    suits are alike), no 全字牌 once they hold a suit tile, no 幺九 once they hold a 2-8.
    """
    natural = {t for t in range(len(tiles.naturals)) if tiles.naturals[t]} | set(tiles.hand.meld_tiles)
    suits = {t // 9 for t in natural if t < 27}
    flush = bool({"full_flush", "half_flush"} & set(active)) and len(suits) <= 1
    honors = "all_honors" in active and not suits
    # 一条龙 in a suit needs 1 to 9 of it, each rank held or a wildcard: in a suit missing more ranks, a chow
    # starting on 1, 4 or 7 is just a chow
    straight = {s for s in range(3) if sum(1 for r in range(9) if 9 * s + r not in natural) <= tiles.wilds} \
        if "dragon" in active else set()
    terminals = "all_terminals_and_honors" in active and all(is_terminal_or_honor(t) for t in natural)
    dragons = "dragon_pung" in active
    if flush and suits:  # one suit held: a block is of it, an honor, or of another suit (all alike)
        (held,) = suits

        def suit_of(t: int) -> object:
            return 3 if t >= 27 else (held if t // 9 == held else -1)
    elif flush:
        def suit_of(t: int) -> object:
            return t // 9 if t < 27 else 3
    elif honors:
        def suit_of(t: int) -> object:
            return t >= 27
    else:
        def suit_of(t: int) -> object:
            return None

    def traits(b: Block) -> Tuple[Any, ...]:
        t = b.tiles[0]
        return (
            suit_of(t),
            (t // 9, t % 9) if b.kind == CHOW and t % 9 in (0, 3, 6) and t // 9 in straight else None,
            all(is_terminal_or_honor(x) for x in b.tiles) if terminals else None,
            (t in DRAGONS) if dragons else None,
        )

    # everything `traits` depends on: equal for two hands, their traits are the same function
    signature = (flush, tuple(sorted(suits)) if flush else None, honors, tuple(sorted(straight)), terminals, dragons)
    traits.signature = signature  # type: ignore[attr-defined]  # a function may carry it: BlockTraits declares it
    return cast(BlockTraits, traits)


def traits_summary(keys: Iterable[Tuple[str, Tuple[Any, ...]]]) -> Tuple[Any, ...]:
    """What the common detectors see of a standard reading whose blocks have these (kind, `block_traits`) keys:
    whether there is a chow (对对和), the suits (flushes, 全字牌), the straight chows (一条龙), whether every block
    is terminals and honors (幺九), how many dragon pungs (中发白)."""
    return (frozenset(kind for kind, _ in keys),) + tuple(frozenset(key[i] for _, key in keys) for i in range(3)) \
        + (sum(1 for kind, key in keys if key[3] is True and kind in (PUNG, KONG)),)


def counted_traits(key: Tuple[Any, ...]) -> bool:
    """Whether the detectors above count the blocks with these traits (`block_traits`), or only ask whether
    there is one: only 中发白 counts, dragon pungs."""
    return key[3] is True


def whole_traits(active: Iterable[str]) -> Callable[[Block], Tuple[Any, ...]]:
    """What the common detectors among `active` see of an irregular shape's one block (its 14 tiles as read):
    the suits for the flushes and 全字牌, whether every tile is a terminal or an honor for 幺九; the shape itself
    the scorer keys."""
    suits = bool({"full_flush", "half_flush", "all_honors"} & set(active))
    terminals = "all_terminals_and_honors" in active

    def whole(b: Block) -> Tuple[Any, ...]:
        return (frozenset(t // 9 if t < 27 else 3 for t in b.tiles) if suits else None,
                all(is_terminal_or_honor(t) for t in b.tiles) if terminals else None)

    return whole
