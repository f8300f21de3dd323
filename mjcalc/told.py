"""A won hand told without its tiles — its patterns by name, or the total the table agreed — scored by the region
as its tiles would be.

A table that does not write the tiles down says what the hand was: the patterns that read its shape (对对和, 清一色
…) or the total, and what it knows of the hand besides: open or concealed, the winner's kongs, no wildcard standing
in (无宝). `analyze_told` makes that a reading (`ToldReading`) and hands it to the region's own scoring, the code the
tiles go through: the detectors that read only the situation and the hand's facts run on it (庄, 自摸, 杠上开花, 门清,
无惠, the 推倒和 every win has …: `patterns.situational`, `patterns.of_hand`), a shape pattern counts as named
(`patterns.told` where the situation changes its count), and `scoring.match_patterns` applies values, exclusions,
bases, multipliers and the cap; the region's checks, refusals, notices and payout scheme follow as for tiles.
Nothing here says what a pattern is worth or what replaces what.

What the names leave unsaid of the hand (open? how many wildcards? which kongs?) is chosen as the simplest facts
under which exactly the named patterns hold (`_choose`): under rules that count 门清 a hand named without it is
open, under rules that count 无惠 one named without it holds a 惠. Where the facts stay open and the money depends
on them (which kong a kong draw came from), the entry is refused and asks for them.
"""
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable, ClassVar, Collection, Dict, FrozenSet, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple

from .analysis import Analysis, analyze, check_options, first_turn_read, pay
from .decompose import Block
from .errors import HandError, MjcalcError, Notice, SituationError
from .hand import CHOW, CLAIM, KONG, PUNG, Meld
from .messages import Message
from .notation import parse_hand
from .patterns import COUNT, Needs, PatternView, clash, most_count, needs_of
from .payouts import MAX_AMOUNT
from .regions import find_region
from .regions.base import Region
from .ruleset import Pattern, Ruleset
from .scoring import Match, Score, match_patterns, pattern_points
from .shapes import SHAPES, STANDARD
from .situation import GENERIC, Option, Situation
from .tiles import parse_seat

MAX_TOTAL = 10_000  # the largest total a table may agree (any ruleset's largest hand is far below)
Detector = Callable[..., int]  # detector(reading, pattern) -> count, as `scoring.Detectors` holds them
KONG_KINDS = {"concealed": True, "暗杠": True, "exposed": False, "明杠": False}


@dataclass(frozen=True)
class Told:
    """What a table tells of a won hand without its tiles: the patterns it names ({id: count}) or the total it
    agreed, and what it knows of the hand: `open`, how many 吃/碰 it claimed (0: concealed; None: not said), its
    `winner_kongs` (tiles untold; None: not said) and `wild_roles` (0: no wildcard stands in for another
    tile, 无宝; None: not said)."""

    patterns: Optional[Tuple[Tuple[str, int], ...]] = None
    total: Optional[int] = None
    open: Optional[int] = None
    winner_kongs: Optional[Tuple[Meld, ...]] = None
    wild_roles: Optional[int] = None

    @property
    def named(self) -> Dict[str, int]:
        return dict(self.patterns or ())

    def facts_json(self) -> Dict[str, Any]:
        """What the table said of the hand besides its patterns or total, as the ledger keeps it."""
        out: Dict[str, Any] = {}
        if self.open is not None:
            out["open"] = self.open
        if self.winner_kongs is not None:
            out["kongs"] = [kong_text(k) for k in self.winner_kongs]
        if self.wild_roles is not None:
            out["wild_roles"] = self.wild_roles
        return out


def kong_text(kong: Meld) -> str:
    """A told kong as the ledger keeps it: `concealed`, `exposed`, or `exposed:W` (claimed from West)."""
    if kong.concealed:
        return "concealed"
    return "exposed" + (f":{kong.claimed_from}" if kong.claimed_from else "")


def parse_kong(text: object, seat_of: Callable[[str], str] = parse_seat) -> Meld:
    """A kong of the winner as told: `concealed` (暗杠), `exposed` (明杠), or `exposed:S` claimed from a seat
    (`seat_of` reads it: a seat, or a player's name at a table)."""
    if not isinstance(text, str):
        raise SituationError("told.bad_kong", field="kongs", value=repr(text)[:40])
    kind, _, source = text.strip().partition(":")
    if kind.strip() not in KONG_KINDS or (source and KONG_KINDS[kind.strip()]):
        raise SituationError("told.bad_kong", field="kongs", value=repr(text)[:40])
    concealed = KONG_KINDS[kind.strip()]
    return Meld(KONG, (), concealed, seat_of(source.strip()) if source.strip() else "")


def told_facts(data: Mapping[str, Any], seat_of: Callable[[str], str] = parse_seat) -> Dict[str, Any]:
    """`Told`'s `open`, `kongs` and `wild_roles` from their JSON form (`facts_json`), checked: `Told`'s keyword
    arguments."""
    unknown = set(data) - {"open", "kongs", "wild_roles"}
    if unknown:
        raise SituationError("told.unknown_fact", field=sorted(unknown)[0], name=repr(sorted(unknown)[0]))
    out: Dict[str, Any] = {}
    if data.get("open") is not None:
        out["open"] = OPEN.read(data["open"])
    if data.get("kongs") is not None:
        kongs = data["kongs"]
        if isinstance(kongs, str):
            kongs = [k for k in kongs.split(",") if k.strip()]
        if not isinstance(kongs, (list, tuple)) or len(kongs) > 4:
            raise SituationError("told.many_kongs", field="kongs",
                                 count=len(kongs) if isinstance(kongs, (list, tuple)) else 0)
        out["winner_kongs"] = tuple(parse_kong(k, seat_of) for k in kongs)
    if data.get("wild_roles") is not None:
        if data["wild_roles"] not in (0, 1) or isinstance(data["wild_roles"], bool):
            raise SituationError("told.wild_roles", field="wild_roles", value=repr(data["wild_roles"])[:40])
        out["wild_roles"] = data["wild_roles"]
    if out.get("open", 0) + len(out.get("winner_kongs", ())) > 4:
        raise SituationError("told.melds_many", field="open",
                             count=out.get("open", 0) + len(out.get("winner_kongs", ())))
    return out


OPEN = Option("open", "int", "The hand is open: N claimed 吃/碰 (bare: 1).", zh="吃碰", default=None, minimum=0,
              maximum=4, optional_value=1, metavar="[N]")


# --- a hand told: its facts, and a reading of it ------------------------------------------------------------


@dataclass(frozen=True)
class ToldHand:
    """The facts of a hand told without its tiles, which the region's hooks read besides a decomposition: its
    declared melds (claimed sets and kongs; their tiles untold), the wildcard tiles among its 14 and the kinds
    declared. It answers as a hand does (`hand`, `is_concealed`, `melds`) and as the hand under its wildcards does
    (`scoring.Tiles`: `wild_kinds`, `wild_tiles`, `four_of_a_wild_kind`)."""

    melds: Tuple[Meld, ...] = ()
    wild_tiles: int = 0
    wild_kinds: Tuple[int, ...] = ()
    wild_roles: int = 0  # wildcards standing in for another tile (a 宝 as itself is no wildcard in play)
    tiles: Tuple[int, ...] = ()  # no tile is told
    meld_tiles: Tuple[int, ...] = ()
    winning: Optional[int] = None

    @property
    def hand(self) -> "ToldHand":
        return self

    @property
    def is_concealed(self) -> bool:
        return all(m.concealed for m in self.melds)

    @property
    def wilds(self) -> int:
        return self.wild_tiles

    @property
    def wild_held(self) -> int:
        return self.wild_tiles

    @property
    def four_of_a_wild_kind(self) -> bool:
        """Four wildcard tiles told are one kind's four (四惠牌, 混杠)."""
        return self.wild_tiles >= 4

    @property
    def claims(self) -> int:
        return sum(1 for m in self.melds if m.kind == CLAIM)

    @property
    def declared_kongs(self) -> Tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.kind == KONG)

    @property
    def exposed(self) -> int:
        return sum(1 for m in self.melds if m.exposed)


@dataclass
class ToldReading:
    """A hand told by its patterns, read as the scorer reads a decomposition: the shape patterns count as named
    (`named`), the rest is read off the hand's facts (`tiles`, a `ToldHand`) and the situation."""

    told: ClassVar[Literal[True]] = True  # region hooks that read the decomposition ask the names instead

    tiles: ToldHand
    situation: Situation
    ruleset: Ruleset
    counts: Dict[str, int]
    shape: Optional[str]
    wild_roles: int
    all_pungs_named: bool = False  # a named pattern says every set is a pung (对对和; terminals and honors only)
    decomposition: None = None
    winning_block: None = None
    winning_as: None = None
    blocks: Tuple[Block, ...] = ()
    sets: Tuple[Block, ...] = ()

    @property
    def hand(self) -> ToldHand:
        return self.tiles

    @property
    def wild_tiles(self) -> int:
        return self.tiles.wild_tiles

    @property
    def four_of_a_wild_kind(self) -> bool:
        return self.tiles.four_of_a_wild_kind

    def named(self, pattern_id: str) -> int:
        """How many times the table named the pattern (0: not named)."""
        return self.counts.get(pattern_id, 0)

    @property
    def every_pung(self) -> bool:
        """Every set a pung or a kong: a named pattern says so, or the hand's four kongs do."""
        return self.all_pungs_named or len(self.tiles.declared_kongs) == 4


def _named_count(r: ToldReading, p: PatternView) -> int:
    """A shape pattern on a told hand: as many times as it was named."""
    return r.named(p.id)


def runs_on_told(detector: object) -> bool:
    """Whether a detector reads what a told hand has (the situation, the hand's facts: `patterns.of_hand`), or says
    how it counts there (`patterns.told`); any other reads the shape, and a told hand names it."""
    return bool(getattr(detector, "of_hand", False) or getattr(detector, "told", None) is not None)


# id(region) -> (the region, its detectors when asked, the answer)
_DETECTORS: Dict[int, Tuple[Region, Dict[str, Detector], Dict[str, Detector]]] = {}


def told_detectors(region: Region) -> Dict[str, Detector]:
    """The region's detectors as they run on a `ToldReading` (one dict per region, so the scorer's plan is made
    once)."""
    hit = _DETECTORS.get(id(region))
    if hit is not None and hit[0] is region and hit[1] == region.detectors:
        return hit[2]
    out: Dict[str, Detector] = {}
    for pid, d in region.detectors.items():
        told: Optional[Detector] = getattr(d, "told", None)  # `patterns.told`'s count
        if getattr(d, "of_hand", False):
            out[pid] = d
        elif told is not None:
            out[pid] = told
        else:
            out[pid] = _named_count
    _DETECTORS[id(region)] = (region, dict(region.detectors), out)
    return out


def _rule(detector: object, pattern: Optional[Pattern] = None) -> Message:
    """When a pattern counts, as its message (the marks' `rule`, for the ruleset's `pattern` where its parameters
    change it), or plainly when it has none."""
    rule = getattr(detector, "rule", None)
    if callable(rule):
        rule = rule(pattern)
    return Message(rule) if rule else Message("told.rule_shape")


# --- the whole answer -----------------------------------------------------------------------------------------


def analyze_told(told: Told, ruleset: Ruleset, situation: Optional[Situation] = None) -> Analysis:
    """A hand told without its tiles (`Told`: its patterns or its total), scored and paid by the region as its
    tiles would be, in `situation`: an `Analysis` whose score says whether it is a legal win and why not. Input
    that cannot be such a hand (two shapes that cannot share a hand, a pattern the situation contradicts, a total
    above any hand) is an error."""
    if (told.total is None) == (told.patterns is None):
        raise SituationError("record.total_or_patterns")
    situation = situation if situation is not None else Situation()
    check_options(situation)
    region = find_region(ruleset.region)
    notes: List[Notice] = []
    situation = first_turn_read(ruleset, region, situation, notes)
    named = told.named
    kongs, situation = region.told_kongs(ruleset, situation)
    if kongs:
        told = replace(told, winner_kongs=tuple(told.winner_kongs or ()) + tuple(kongs))
    if told.patterns is not None:  # none named: a plain win (beijing-money's 推倒和, 0 番)
        _check_names(ruleset, region, named)
        situation = _implied(ruleset, region, situation, named, notes)
    situation = region.prepare(ruleset, situation, notes)
    # wildcards are in play as for tiles: where the situation names them (refused as for tiles when it contradicts
    # itself), or the region says so without their kind (a 财神 bid); none else, so 无惠 and 无财 hold
    kinds = region.wild_kinds(ruleset, situation) if situation.wild or situation.indicator is not None else ()
    named_wild = any(needs_of(region.detectors.get(pid), ruleset.pattern(pid)).wildcards for pid in named)
    in_play = bool(kinds) or named_wild or region.wild_in_play(ruleset, situation)
    most_wilds = min(4 * ruleset.wild_kinds, 8) if in_play and not region.why_no_wild(ruleset, situation) else 0
    if told.total is not None:
        hand, score = _score_total(told, ruleset, region, situation, kinds, most_wilds)
    else:
        hand, score = _score_named(told, ruleset, region, situation, kinds, most_wilds)
    result = Analysis(ruleset, region, None, situation, hand,
                      score=score, warnings=notes + list(score.notes))
    if score.legal:
        result.payout = pay(score, ruleset, region)
    return result


def _check_names(ruleset: Ruleset, region: Region, named: Dict[str, int]) -> None:
    """Names that cannot be one hand: a pattern named more times than it can count, two patterns no hand has
    together (different shapes, or what their shapes need: 平胡's chows and 对对胡's pungs)."""
    for pid, count in named.items():
        most = most_count(region.detectors.get(pid))
        if not 1 <= count <= most:
            p = ruleset.pattern(pid)
            raise SituationError("told.count_most" if most > 1 else "told.count_once", field="patterns",
                                 label="--patterns", name=p.zh, pattern=pid, most=most, count=count)
    shapes = {pid: _shapes_of(ruleset, region.detectors.get(pid), ruleset.pattern(pid)) for pid in named}
    wants = {pid: (needs_of(region.detectors.get(pid), ruleset.pattern(pid)), count) for pid, count in named.items()}
    for a, b in combinations(named, 2):  # every pair, not neighbours only
        if not shapes[a] & shapes[b] or clash(wants[a], wants[b]):
            raise SituationError("record.patterns_no_shape", field="patterns", label="--patterns",
                                 a=ruleset.pattern(a).zh, b=ruleset.pattern(b).zh)
    if len(named) > 2 and (not frozenset.intersection(*shapes.values()) or clash(*wants.values())):
        raise SituationError("told.names_no_hand", field="patterns", label="--patterns",
                             names=[ruleset.pattern(pid).zh + (f"×{c}" if c > 1 else "") for pid, c in named.items()])


def _shapes_of(ruleset: Ruleset, detector: object, pattern: Optional[Pattern] = None) -> FrozenSet[str]:
    """The ruleset's shapes a pattern can count on: those its detector counts on (`patterns.only_on`), the standard
    shape alone where what it needs are sets (`patterns.Needs.standard`)."""
    counts_on: FrozenSet[str] = getattr(detector, "shapes", frozenset(SHAPES))
    shapes = frozenset(ruleset.shapes) & counts_on
    return shapes & {STANDARD} if needs_of(detector, pattern).standard else shapes


def _implied(ruleset: Ruleset, region: Region, situation: Situation, named: Dict[str, int],
             notes: List[Notice]) -> Situation:
    """The situation with what the named patterns say of how the hand was won (海底 → the last tile, 天和 → the
    first turn, 飞宝×2 → two 宝 flown), each said, unless the situation says it already."""
    for pid, count in named.items():
        implies = getattr(region.detectors.get(pid), "implies", None)
        if not implies:
            continue
        key, value = implies
        value = count if value == COUNT else value
        now = getattr(situation, key) if key in situation.__dataclass_fields__ else situation.extra(key)
        if not now:
            situation = situation.replace(**{key: value})
            notes.append(Notice("record.pattern_implies", field="patterns", name=ruleset.pattern(pid).zh,
                                flag=region_flag(region, key)))
    return situation


def region_flag(region: Region, key: str) -> str:
    """How the command line names a situation field or a region option."""
    option = GENERIC.get(key) or region.option(key)
    return option.cli_flag if option is not None else "--" + key.replace("_", "-")


# --- the facts the names leave unsaid -------------------------------------------------------------------------


@dataclass
class _Tried:
    """A choice of facts for a told hand, and what the region makes of it."""

    hand: ToldHand
    situation: Situation  # as paid (an automatic win is paid as a self-draw)
    automatic: Optional[Notice]
    counts: Dict[str, int]  # the patterns that run on a told hand, as they count on these facts
    order: int
    score: Optional[Score] = None
    added: Tuple[str, ...] = ()  # patterns not named that these facts make count
    lost: int = 0  # patterns named that do not count on these facts (四惠牌 counted alone, say)
    guessed: int = 0  # kongs nobody told (only what a named pattern or the kong draw needs)


def _hands(told: Told, kinds: Tuple[int, ...], most_wilds: int, wilds_at_least: int) -> Iterator[ToldHand]:
    """Every choice of the facts left unsaid, simplest first: fewest kongs (exposed before concealed), fewest
    claimed sets (a concealed hand first), fewest wildcards (one standing in, then each as itself)."""
    if told.winner_kongs is not None:
        kong_sets: List[Tuple[Meld, ...]] = [tuple(told.winner_kongs)]
    else:
        kong_sets = [_kongs(n, e) for n in range(5) for e in range(n, -1, -1)]
    claims = [told.open] if told.open is not None else list(range(5))
    for kongs in kong_sets:
        for claimed in claims:
            if claimed + len(kongs) > 4:
                continue
            for wilds in range(min(wilds_at_least, most_wilds), most_wilds + 1):
                roles = [told.wild_roles] if told.wild_roles is not None else [1, 0] if wilds else [0]
                for standing in roles:
                    yield ToldHand(_claimed(claimed) + kongs, wilds, kinds, min(standing, wilds))


def _kongs(count: int, exposed: int) -> Tuple[Meld, ...]:
    return tuple([Meld(KONG, (), False)] * exposed + [Meld(KONG, (), True)] * (count - exposed))


def _claimed(count: int) -> Tuple[Meld, ...]:
    return tuple([Meld(CLAIM, ())] * count)


def _needs_met(hand: ToldHand, needs: Sequence[Needs], meldless: bool) -> bool:
    """Whether the hand's facts allow what the named patterns need: melds, exposed melds and wildcards as many as
    they say, a wildcard standing in or none, the chows they need beside the hand's kongs (a kong is no chow)."""
    if meldless and hand.melds:
        return False
    if any(n.wild_roles is not None and n.wild_roles != bool(hand.wild_roles) for n in needs):
        return False
    kongs = len(hand.declared_kongs)
    if kongs and (max((n.chows for n in needs), default=0) + kongs > 4 or any(n.every == CHOW for n in needs)):
        return False
    for n in needs:
        if n.melds is not None and len(hand.melds) != n.melds or n.exposed is not None and hand.exposed != n.exposed:
            return False
        if n.wilds is not None and hand.wild_tiles != n.wilds:
            return False
    return True


def _try(ruleset: Ruleset, region: Region, situation: Situation, hand: ToldHand, reading_of: "ReadingOf",
         detectors: Dict[str, Detector], order: int, named: Collection[str] = ()) -> _Tried:
    """The region's checks and detectors on one choice of facts: a `_Tried`, or the error the checks raise."""
    region.check_told(ruleset, situation, hand)
    paid = region.as_paid(ruleset, situation)
    automatic = region.automatic_win(ruleset, paid, hand)
    if automatic is not None:
        pattern = region.automatic_pattern(ruleset)
        # a win whatever the shape is told by its name, unless the situation says it (十风: a flag, not the tiles)
        if pattern not in named and not getattr(region.detectors.get(pattern or ""), "situational", False):
            raise SituationError("told.no_facts", field="patterns")
        paid = paid.replace(discarder=None, rob_kong=False)
    reading = reading_of(hand, paid)
    counts = {p.id: detectors[p.id](reading, p) for p in ruleset.patterns
              if runs_on_told(region.detectors.get(p.id))}
    return _Tried(hand, paid, automatic or None, counts, order)


class _Named:
    """The named patterns of a told hand, and how each choice of its unsaid facts is scored."""

    def __init__(self, told: Told, ruleset: Ruleset, region: Region, situation: Situation,
                 kinds: Tuple[int, ...]) -> None:
        self.told, self.ruleset, self.region, self.situation, self.kinds = told, ruleset, region, situation, kinds
        self.named = told.named
        self.detectors = told_detectors(region)
        self.reading_of = _reading_maker(ruleset, self.named, told)
        dets = region.detectors
        self.shape_needs = [needs_of(dets.get(pid), ruleset.pattern(pid)) for pid in self.named]
        shapes = frozenset(ruleset.shapes)
        for pid in self.named:
            shapes &= _shapes_of(ruleset, dets.get(pid), ruleset.pattern(pid))
        self.meldless = STANDARD not in shapes

    def tried(self, hand: ToldHand, order: int) -> _Tried:
        """One choice of facts scored: raises the checks' error, or the refusal of a named pattern it does not
        hold."""
        t = _try(self.ruleset, self.region, self.situation, hand, self.reading_of, self.detectors, order, self.named)
        wrong = _not_holding(self.ruleset, self.region, self.named, t.counts)
        if wrong is not None:
            raise wrong
        t.score = _scored(self.ruleset, self.region, t, self.named, self.reading_of, self.detectors, self.told)
        t.added = tuple(m.pattern_id for m in t.score.matches if m.pattern_id not in self.named
                        and not getattr(self.region.detectors.get(m.pattern_id), "situational", False))
        t.lost = len(set(self.named) - {m.pattern_id for m in t.score.matches})
        t.guessed = len(hand.declared_kongs) if self.told.winner_kongs is None else 0
        return t

    def choose(self, most_wilds: int) -> _Tried:
        """The simplest facts under which every named pattern holds (as many times as named) and counts, the win
        is legal and the fewest patterns not named count (`_rank`); failing a legal one, the simplest. Facts no
        named pattern allows are refused with the first named pattern's rule."""
        told, ruleset = self.told, self.ruleset
        roles = told.wild_roles
        if roles is None:  # a pattern worth more without a wildcard standing in is, unsaid, one with a wildcard in
            roles = int(any(ruleset.pattern(pid).param("without_wild") is not None for pid in self.named))
        best: Optional[_Tried] = None
        exact: Optional[_Tried] = None  # the first choice with exactly the names
        first_error: Optional[SituationError] = None
        refused: Optional[SituationError] = None
        for order, hand in enumerate(_hands(told, self.kinds, most_wilds, roles)):
            if not _needs_met(hand, self.shape_needs, self.meldless):
                continue
            try:
                t = self.tried(hand, order)
            except SituationError as exc:
                if exc.code == "record.pattern_contradicts":
                    refused = refused or exc
                else:
                    first_error = first_error or exc
                continue
            assert t.score is not None
            if exact is None and not t.added and not t.lost and not t.guessed:
                exact = t
            if best is None or _rank(t) < _rank(best):
                best = t
            if t.score.legal and not t.added and not t.lost and not t.guessed:
                break
        if best is None:
            raise refused or first_error or SituationError("told.no_facts", field="patterns")
        return self._not_lifted(best, exact)

    def _not_lifted(self, best: _Tried, exact: Optional[_Tried]) -> _Tried:
        """Unsaid facts never lift a hand over the minimum: where the hand with exactly the names is short of it
        (国标's 8 番) and only facts nobody told make it enough (concealed: 门前清 2 more), the names are refused as
        they are, saying which patterns were not named (as `--fan 7` is refused)."""
        if not best.added or self.told.open is not None or exact is None or exact.score is None:
            return best
        reason = exact.score.reason
        if exact.score.legal or reason is None or not reason.code.startswith("region.below_minimum"):
            return best
        names = [self.ruleset.pattern(pid).zh for pid in best.added]
        exact.score = replace(exact.score, reason=Message("told.taken_open", reason=reason, patterns=names))
        return exact

    def alternatives(self, best: _Tried) -> List[_Tried]:
        """The choices as good as `best` whose kongs, which nobody told, are of other kinds."""
        out = []
        n = len(best.hand.declared_kongs)
        for exposed in range(n, -1, -1):
            kongs = _kongs(n, exposed)
            if kongs == best.hand.declared_kongs:
                continue
            hand = ToldHand(_claimed(best.hand.claims) + kongs, best.hand.wild_tiles, self.kinds, best.hand.wild_roles)
            try:
                t = self.tried(hand, best.order)
            except SituationError:
                continue
            if _rank(t)[:4] == _rank(best)[:4]:
                out.append(t)
        return out


def _rank(t: _Tried) -> Tuple[int, int, bool, int, int]:
    """Better facts first: every named pattern counting, no kong nobody told (a kong is never guessed to make a hand
    legal), a legal win, the fewest patterns not named, the simplest."""
    assert t.score is not None
    return (t.lost, t.guessed, not t.score.legal, len(t.added), t.order)


def _not_holding(ruleset: Ruleset, region: Region, named: Dict[str, int],
                 counts: Dict[str, int]) -> Optional[SituationError]:
    """The refusal of the first named pattern that does not hold on these facts and this situation (one that
    reads them counts as many times as named; one whose count depends on the situation, at least once), or
    None."""
    for pid, count in named.items():
        if pid not in counts:
            continue
        detector = region.detectors.get(pid)
        held = counts[pid]
        fits = held > 0 if getattr(detector, "told", None) is not None else held == count
        if not fits:
            p = ruleset.pattern(pid)
            return SituationError("record.pattern_contradicts", field="patterns", label="--patterns", name=p.zh,
                                  pattern=pid, rule=_rule(detector, p))
    return None


# --- scoring ----------------------------------------------------------------------------------------------------


ReadingOf = Callable[[ToldHand, Situation], ToldReading]  # a told hand's facts, in a situation, as a reading


def _reading_maker(ruleset: Ruleset, named: Dict[str, int], told: Told) -> ReadingOf:
    dets = find_region(ruleset.region).detectors
    shapes = frozenset(ruleset.shapes)
    for pid in named:
        shapes &= _shapes_of(ruleset, dets.get(pid), ruleset.pattern(pid))
    shape = STANDARD if STANDARD in shapes or not shapes else sorted(shapes)[0]
    wants = [needs_of(dets.get(pid), ruleset.pattern(pid)) for pid in named]
    pungs = shape == STANDARD and any(n.every == PUNG or n.terminals for n in wants)

    def reading_of(hand: ToldHand, situation: Situation) -> ToldReading:
        return ToldReading(hand, situation, ruleset, named, shape, hand.wild_roles, pungs)

    return reading_of


def _score_named(told: Told, ruleset: Ruleset, region: Region, situation: Situation, kinds: Tuple[int, ...],
                 most_wilds: int) -> Tuple[ToldHand, Score]:
    """The named patterns as a reading, scored by the region (`_Named.choose`)."""
    named = _Named(told, ruleset, region, situation, kinds)
    best = named.choose(most_wilds)
    assert best.score is not None
    if told.winner_kongs is None and best.hand.declared_kongs:  # kongs the situation needs, their kinds untold
        _refuse_untold_kongs(ruleset, region, best.score, [t.score for t in named.alternatives(best) if t.score])
    if told.open is None and best.hand.claims == 0 and best.score.legal:  # concealed, unsaid: say so where it pays
        def scored(t: _Tried) -> Optional[Score]:
            try:
                return named.tried(t.hand, t.order).score
            except SituationError:
                return None
        opened = _opened(ruleset, region, situation, best, named.reading_of, named.detectors, scored)
        if opened is not None and opened.legal and not _rank_differs(named, best, opened) and \
                _paid(ruleset, region, opened) != _paid(ruleset, region, best.score):
            best.score.notes += (Notice("told.taken_concealed", field="open"),)
    return best.hand, best.score


def _rank_differs(named: "_Named", best: _Tried, opened: Score) -> bool:
    """Whether the open hand counts other patterns than the concealed one chosen (then the names decided it)."""
    assert best.score is not None
    return {m.pattern_id for m in opened.matches} != {m.pattern_id for m in best.score.matches}


def _scored(ruleset: Ruleset, region: Region, t: _Tried, named: Dict[str, int], reading_of: ReadingOf,
            detectors: Dict[str, Detector], told: Told) -> Score:
    reading = reading_of(t.hand, t.situation)
    matches, total, bonus, uncapped = match_patterns(reading, detectors)
    notes: List[Notice] = [t.automatic] if t.automatic else []
    counted = {m.pattern_id for m in matches}
    dropped = [ruleset.pattern(pid).zh for pid in named if pid not in counted]
    if dropped:
        notes.append(Notice("record.patterns_excluded", field="patterns", patterns=dropped))
    for m in matches:
        if m.pattern_id not in named and not getattr(region.detectors.get(m.pattern_id), "every_win", False):
            notes.append(Notice("record.pattern_added", field="patterns", name=ruleset.pattern(m.pattern_id).zh,
                                rule=_rule(region.detectors.get(m.pattern_id), ruleset.pattern(m.pattern_id))))
    if uncapped > total:
        notes.append(Notice("record.cap_patterns", field="cap", total=uncapped, unit=ruleset.unit_zh,
                            ruleset=ruleset.id, cap=total))
    if max(total, bonus) > MAX_AMOUNT:
        raise SituationError("scoring.too_large", limit=MAX_AMOUNT, unit=ruleset.unit_zh)
    bases = [p.zh for p in ruleset.patterns if p.role == "base"]
    reason: Optional[Message] = None
    if bases and not any(ruleset.pattern(m.pattern_id).role == "base" for m in matches):
        reason = Message("told.no_base", ruleset=ruleset.id, bases=bases)
    elif total == 0 and bonus == 0 and least_total(ruleset)[0] > 0:
        least, why = least_total(ruleset)
        reason = Message("told.worth_nothing", ruleset=ruleset.id, unit=ruleset.unit_zh, least=least, why=why)
    notes += region.notices(ruleset, t.situation, t.hand, matches)
    reason = reason or region.reading_refusal(ruleset, reading, matches) \
        or region.refusal(ruleset, t.situation, t.hand, matches, total)
    reason = _said_open(ruleset, region, told, t.hand, named, reason)
    return Score(True, reason is None, reason, reading,
                 tuple(matches), total, bonus, [], t.situation, tuple(notes), uncapped)


def _said_open(ruleset: Ruleset, region: Region, told: Told, hand: ToldHand, named: Dict[str, int],
               reason: Optional[Message]) -> Optional[Message]:
    """A refusal of an open hand whose openness no one told: it names the pattern whose absence made it open
    (门清 not named under rules that count it)."""
    if reason is None or told.open is not None or hand.is_concealed or \
            reason.code not in ("region.exposed_no_discard", "region.exposed_no_rob"):
        return reason
    concealed = ToldHand(tuple(m for m in hand.melds if m.kind == KONG), hand.wild_tiles, hand.wild_kinds,
                         hand.wild_roles)
    reading = ToldReading(concealed, Situation(), ruleset, named, STANDARD, 0)
    missing = [p.zh for p in ruleset.patterns if p.id not in named and getattr(region.detectors.get(p.id), "of_hand",
                                                                                 False)
               and not getattr(region.detectors.get(p.id), "situational", False)
               and region.detectors[p.id](reading, p)]
    if not missing:
        return reason
    return Message("told.taken_open", reason=reason, patterns=missing)


def _refuse_untold_kongs(ruleset: Ruleset, region: Region, score: Score, others: List[Score]) -> None:
    """Kongs the situation needs whose kinds nobody told, when their kinds change the money: refused, asking."""
    if any(_paid(ruleset, region, o) != _paid(ruleset, region, score) for o in others):
        raise SituationError("told.untold_kongs", field="kongs")


def _score_total(told: Told, ruleset: Ruleset, region: Region, situation: Situation, kinds: Tuple[int, ...],
                 most_wilds: int) -> Tuple[ToldHand, Score]:
    """An agreed total as a reading: the total is what the patterns make; what the hand pays beside it (the
    bonuses of its kongs, 接宝) and what a flat pattern the situation makes hold changes, the region's."""
    total = told.total
    assert total is not None
    if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= MAX_TOTAL:
        raise SituationError("record.total_range", field="total", label=f"--{ruleset.unit_en}", limit=MAX_TOTAL,
                             total=repr(total))
    most = most_total(ruleset)
    if total > most:
        raise HandError("told.total_beyond", field="total", label=f"--{ruleset.unit_en}", total=total,
                        unit=ruleset.unit_zh, ruleset=ruleset.id, most=most)
    least, why = least_total(ruleset)
    if total < least:
        raise SituationError("record.total_below_least", field="total", label=f"--{ruleset.unit_en}",
                             ruleset=ruleset.id, least=least, unit=ruleset.unit_zh, why=why, total=total)
    if total not in reachable_totals(ruleset):
        raise HandError("told.total_unreachable", field="total", label=f"--{ruleset.unit_en}", total=total,
                        unit=ruleset.unit_zh, ruleset=ruleset.id,
                        near=sorted(reachable_totals(ruleset) - set(range(least)), key=lambda t: abs(t - total))[:3])
    # the least this situation makes: a total is the table's word, so a wildcard it did not declare may be held
    maybe = min(4 * ruleset.wild_kinds, 8) if not region.why_no_wild(ruleset, situation) else 0
    alone = _least_here(told, ruleset, region, situation, kinds, maybe)
    flat = {p.value for p in ruleset.patterns if region.paid_flat(ruleset, p.id)}  # 混杠's 40 is no sum of these
    if alone is not None and total < alone.total and total not in flat:
        raise SituationError("told.total_below_situation", field="total", label=f"--{ruleset.unit_en}", total=total,
                             unit=ruleset.unit_zh, least=alone.total,
                             how="+".join(ruleset.pattern(m.pattern_id).zh for m in alone.matches))
    detectors = told_detectors(region)
    reading_of = _reading_maker(ruleset, {}, told)
    chosen, others = None, []
    first_error: Optional[MjcalcError] = None
    for order, hand in enumerate(_hands(told, kinds, most_wilds, 0)):
        try:
            t = _try(ruleset, region, situation, hand, reading_of, detectors, order)
        except SituationError as exc:
            first_error = first_error or exc
            continue
        if chosen is None:
            chosen = t
            if told.winner_kongs is not None or not t.hand.declared_kongs:
                break
        elif len(t.hand.declared_kongs) > len(chosen.hand.declared_kongs):
            break
        elif t.hand.claims == chosen.hand.claims and t.hand.wild_tiles == chosen.hand.wild_tiles:
            others.append(t)  # the same kongs the situation needs, of other kinds
    if chosen is None:
        raise first_error or SituationError("told.no_facts", field="total")
    score = _total_scored(ruleset, region, chosen, total, reading_of, detectors, told)
    if others:
        _refuse_untold_kongs(ruleset, region, score, [_total_scored(ruleset, region, t, total, reading_of, detectors,
                                                                    told) for t in others])
    automatic = region.automatic_pattern(ruleset)
    if automatic is not None and situation.discarder is not None and total == ruleset.pattern(automatic).value:
        score.notes += (Notice("told.total_like_automatic", field="total", total=total, unit=ruleset.unit_zh,
                               name=ruleset.pattern(automatic).zh),)
    if told.open is None and chosen.hand.claims == 0:
        opened = _opened(ruleset, region, situation, chosen, reading_of, detectors, lambda t: _total_scored(
            ruleset, region, t, total, reading_of, detectors, told))
        if opened is not None and opened.legal and score.legal and \
                _paid(ruleset, region, opened) != _paid(ruleset, region, score):
            score.notes += (Notice("told.taken_concealed", field="open"),)
    return chosen.hand, score


def _least_here(told: Told, ruleset: Ruleset, region: Region, situation: Situation, kinds: Tuple[int, ...],
                most_wilds: int) -> Optional[Score]:
    """The least legal win this situation and the told facts make with no pattern of the shape named (the facts
    left unsaid the plainest ways: concealed or open, no wildcard or one, no kong nobody told), or None: a total
    below it is no hand here (beijing-doubling's self-draw with no 绘 is 自摸 + 无绘, 2 番 at least)."""
    named = _Named(replace(told, patterns=(), total=None), ruleset, region, situation, kinds)
    least: Optional[Score] = None
    # the kongs told, or, where the situation draws on kongs nobody told (杠开), as many exposed or concealed
    kong_sets = [tuple(told.winner_kongs)] if told.winner_kongs else \
        [_kongs(situation.kong_draw, situation.kong_draw), _kongs(situation.kong_draw, 0)] if situation.kong_draw \
        else [()]
    for kongs in kong_sets:
        for claimed in [told.open] if told.open is not None else [0, 1]:
            for wilds, roles in ((0, 0), (1, 1), (1, 0)) if most_wilds else ((0, 0),):
                if told.wild_roles is not None and roles != told.wild_roles or claimed + len(kongs) > 4:
                    continue
                try:
                    score = named.tried(ToldHand(_claimed(claimed) + kongs, wilds, kinds, roles), 0).score
                except SituationError:
                    continue
                flat = score is not None and any(region.paid_flat(ruleset, m.pattern_id) for m in score.matches)
                if score is not None and score.legal and not flat and (least is None or score.total < least.total):
                    least = score
    return least


def _opened(ruleset: Ruleset, region: Region, situation: Situation, t: _Tried, reading_of: ReadingOf,
            detectors: Dict[str, Detector], scored: Callable[[_Tried], Optional[Score]]) -> Optional[Score]:
    """The same facts with one claimed 吃/碰, scored by `scored`, or None when the checks refuse them."""
    hand = replace(t.hand, melds=(Meld(CLAIM, ()),) + t.hand.melds)
    try:
        other = _try(ruleset, region, situation, hand, reading_of, detectors, t.order)
    except SituationError:
        return None
    return scored(other)


Paid = Tuple[int, int, Tuple[Tuple[str, int], ...]]  # a win's total, bonus and each seat's payout


def _paid(ruleset: Ruleset, region: Region, score: Score) -> Optional[Paid]:
    """What a score pays (None for no legal win): the total, the bonus and every seat's payout."""
    if not score.legal:
        return None
    return score.total, score.bonus, tuple(sorted(pay(score, ruleset, region).deltas.items()))


def _total_scored(ruleset: Ruleset, region: Region, t: _Tried, total: int, reading_of: ReadingOf,
                  detectors: Dict[str, Detector], told: Told) -> Score:
    reading = reading_of(t.hand, t.situation)
    notes: List[Notice] = [t.automatic] if t.automatic else []
    flat = [ruleset.pattern(pid) for pid in t.counts if region.paid_flat(ruleset, pid)]
    holding = [p for p in flat if t.counts[p.id]]
    kept: List[Match] = []
    standalone = [p for p in holding if p.standalone]
    if standalone:  # the situation makes it a flat hand that nothing else counts in (混儿's 天和: 40)
        p = max(standalone, key=lambda q: q.value)
        if total != p.value:
            raise SituationError("told.total_is_flat", field="total", label=f"--{ruleset.unit_en}", total=total,
                                 name=p.zh, value=p.value)
        kept.append(Match(p.id, 1, p.value))
    elif holding:  # a flat base the situation makes hold (上饶's 天糊 10); another base may give more
        p = max(holding, key=lambda q: q.value)
        if total < p.value:
            raise SituationError("told.total_below_flat", field="total", label=f"--{ruleset.unit_en}", total=total,
                                 name=p.zh, value=p.value, unit=ruleset.unit_zh)
        if total == p.value:
            kept.append(Match(p.id, 1, p.value))
    else:
        same = [p for p in flat if p.value == total and not getattr(region.detectors.get(p.id), "situational", False)]
        if same:  # a flat amount the tiles decide (绘杠, 混杠): only its name says the hand is paid flat
            raise SituationError("told.total_like_flat", field="total", label=f"--{ruleset.unit_en}", total=total,
                                 unit=ruleset.unit_zh, name=same[0].zh)
    bonus = 0
    for p in ruleset.patterns:
        if p.role == "bonus" and t.counts.get(p.id):
            value = pattern_points(p, t.counts[p.id], reading)
            kept.append(Match(p.id, t.counts[p.id], value))
            bonus += value
    uncapped = total
    if ruleset.cap is not None and total > ruleset.cap:
        notes.append(Notice("record.cap_total", field="cap", total=total, unit=ruleset.unit_zh, ruleset=ruleset.id,
                            cap=ruleset.cap))
        total = ruleset.cap
    notes += region.notices(ruleset, t.situation, t.hand, tuple(kept))
    reason = region.refusal(ruleset, t.situation, t.hand, tuple(kept), total)
    return Score(True, reason is None, reason, reading,
                 tuple(kept), total, bonus, [], t.situation, tuple(notes), uncapped)



# --- bounds -------------------------------------------------------------------------------------------------------

# The plainest wins: concealed, one claimed chow or four, a wildcard in use or none, a pung hand; and, for rules
# where a win holds two suits at most and claims no chow (Sichuan), the same in two suits with claimed pungs. Each
# is tried self-drawn and on a discard from either side, by the dealer and not. Every pattern a win can avoid is
# avoided by one of them, so the least they score is the least any tiles win scores (tests/test_evening_log.py
# checks it against generated wins).
PLAINEST = ("123m 456p 789s 234s 5m +5m", "123m 456p 789s 23s 1p 5m +5m", "[123m] 456p 789s 234s 5m +5m",
            "[123m] [456p] [789s] [234s] 5m +5m", "[123m] 456p 789s 23s 1p 5m +5m", "[123m] 456p 78s 234s 1p 5m +5m",
            "[123m] [456p] [789s] 23s 1p 5m +5m", "[111m] [222p] 789s 234s 5m +5m",
            "123m 456m 789p 234p 5m +5m", "[111m] 456m 789p 234p 5m +5m", "[111m] [222p] [999p] 234p 5m +5m")


@lru_cache(maxsize=32)
def least_total(rules: Ruleset) -> Tuple[int, str]:
    """The least total a won hand scores under `rules`, and the patterns that make it (起胡 when none do): the
    least the plainest wins (`PLAINEST`) score through the tiles path, with 1p as the wildcard where the rules
    have one. An agreed total below it is no win the tiles could score."""
    wild = ("1p",) if rules.wild_kinds else ()
    scored = []
    for text in PLAINEST:
        hand = parse_hand(text)
        for seat, dealer, source in ((s, d, f) for s in "ES" for d in "ES" for f in (None, "E", "S", "W")):
            if source == seat:
                continue
            try:
                won = analyze(hand, rules, Situation(seat=seat, dealer=dealer, discarder=source, wild=wild)).score
            except SituationError:  # a hand these rules refuse outright (a claimed chow where none is claimed)
                continue
            if won is not None and won.legal:
                scored.append((won.total, "+".join(rules.pattern(m.pattern_id).zh + (f"×{m.count}" if m.count > 1 else "")
                                                   for m in won.matches) or "起胡"))
    if not scored:
        return rules.minimum, "起胡"
    least = min(total for total, _ in scored)
    if rules.minimum and least <= rules.minimum and all("+" in names for total, names in scored if total == least):
        return rules.minimum, "起胡"  # the rules' own minimum (国标's 8), not a plainest hand's many names
    why = list(dict.fromkeys(names for total, names in scored if total == least))
    return least, " / ".join(why[:3])


def _best_value(p: Pattern) -> int:
    return max([p.value] + [v for k, v in p.params if k in ("without_wild", "discard_value", "dealer_value")
                            and isinstance(v, int) and not isinstance(v, bool)])


@lru_cache(maxsize=32)
def most_total(rules: Ruleset) -> int:
    """More than any hand scores under `rules`: on each shape, every pattern that can count there at once, at its
    best value and as many times as it can count (no exclusion applied), the best base, every multiplier; before
    the cap (a hand above the cap is a hand, paid as the cap). An agreed total above it is no hand at all."""
    region = find_region(rules.region)
    best = 0
    for shape in tuple(rules.shapes):
        here = [p for p in rules.patterns if shape in getattr(region.detectors.get(p.id), "shapes", frozenset(SHAPES))
                and p.role != "bonus"]
        points, factor, bases, alone = 0, 1, [0], [0]
        for p in here:
            most = most_count(region.detectors.get(p.id))
            value = _best_value(p)
            if p.role == "multiplier":
                factor *= value ** (1 if p.scale == "once" else most)
                continue
            worth = value if p.scale == "once" else value * (2 ** most if p.scale == "power" else most)
            if p.standalone:
                alone.append(worth)
            elif p.role == "base":
                bases.append(worth)
            else:
                points += worth
        best = max(best, (points + max(bases)) * factor, max(alone))
    return min(best, MAX_TOTAL)  # before the cap: a total above it is asked about, then paid as the cap


@lru_cache(maxsize=32)
def reachable_totals(rules: Ruleset) -> FrozenSet[int]:
    """Every total some hand could score under `rules`, and more (shapes and exclusions not applied): the sums the
    points patterns make (each at any of its values, as many times as it counts) with a base, times what the
    multipliers make, before the cap (a total above it is a hand paid as the cap); the standalone values. A total
    outside it is no hand: beijing-hunr's 3 点 (its factors make powers of two)."""
    region = find_region(rules.region)
    points, factors, bases, alone = {0}, {1}, {0}, set()
    for p in rules.patterns:
        if p.role == "bonus":
            continue
        most = most_count(region.detectors.get(p.id))
        values = {p.value} | {v for k, v in p.params if k in ("without_wild", "discard_value", "dealer_value")
                              and isinstance(v, int) and not isinstance(v, bool)}
        if p.role == "multiplier":
            made = {v ** (1 if p.scale == "once" else n) for v in values for n in range(1, most + 1)}
            factors |= {f * m for f in factors for m in made if f * m <= MAX_TOTAL}
            continue
        made = {v if p.scale == "once" else v * (2 ** n if p.scale == "power" else n) for v in values
                for n in range(1, most + 1)}
        if p.standalone:
            alone |= made
        elif p.role == "base":
            bases |= made
        else:
            points |= {a + m for a in points for m in made if a + m <= MAX_TOTAL}
    totals = {(a + b) * f for a in points for b in bases for f in factors if (a + b) * f <= MAX_TOTAL} | alone
    return frozenset(totals)


_USUAL: Tuple[Dict[str, Any], ...] = (dict(seat="E"),
 dict(seat="E", last_tile=True), dict(seat="E", kong_draw=1), dict(seat="S", discarder="E"),
          dict(seat="E", first_turn=True), dict(seat="S", discarder="E", first_turn=True))


@lru_cache(maxsize=32)
def usual_total(rules: Ruleset) -> Tuple[int, str]:
    """What a real hand usually reaches at most under `rules`, and how (a total above it is asked about before it is
    recorded): the cap, where the rules have one; else the most that one pattern of the shape makes with everything
    the situation and the hand's facts add to it (the dealer self-drawing on the last tile, on a kong, on the first
    turn …), each as a hand told by those names."""
    if rules.cap is not None:
        return rules.cap, "cap"
    region = find_region(rules.region)
    dets = region.detectors
    shaped = [p for p in rules.patterns if not runs_on_told(dets.get(p.id)) and not region.paid_flat(rules, p.id)]
    automatic = region.automatic_pattern(rules)  # a win whatever the shape (四惠牌) is no usual hand's fact
    facts = [p for p in rules.patterns if getattr(dets.get(p.id), "of_hand", False) and p.id != automatic
             and not getattr(dets.get(p.id), "situational", False) and not region.paid_flat(rules, p.id)]
    # a region option a pattern counts (上饶's 宝 discarded), once
    counted = tuple({key: 1} for key, value in (getattr(dets.get(p.id), "implies", None) or ("", "")
                                                 for p in rules.patterns)
                    if value == COUNT and key in rules.options)
    best, how = 0, ""
    for fields in _USUAL + tuple(dict(seat="E", **f) for f in counted):
        base = Situation(dealer="E", **fields)
        for shape_pattern in [None] + shaped:
            names: Dict[str, int] = {shape_pattern.id: 1} if shape_pattern else {}
            scored = _told_total(rules, names, base)
            if scored is None:
                continue
            for fact in facts:  # each fact the hand may add, kept where it adds
                more = _told_total(rules, {**names, fact.id: 1}, base)
                if more is not None and more[0] > scored[0]:
                    names, scored = {**names, fact.id: 1}, more
            if scored[0] > best:
                best, how = scored
    return best, how


def _told_total(rules: Ruleset, names: Dict[str, int], situation: Situation) -> Optional[Tuple[int, str]]:
    """The total of a legal win told by `names` in `situation` (not flat) and the patterns it counts, or None."""
    if not names:
        return None
    try:
        result = analyze_told(Told(patterns=tuple(names.items())), rules, situation)
    except MjcalcError:
        return None
    score = result.score
    region = result.region
    if score is None or not score.legal or any(region.paid_flat(rules, m.pattern_id) for m in score.matches):
        return None
    return score.total, "+".join(rules.pattern(m.pattern_id).zh for m in score.matches)


