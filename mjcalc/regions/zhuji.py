"""Zhuji 诸暨包牌 (包麻将): what the region means.

After the deal the players bid 包牌. A bid has a level N and a number c of 财神 (wildcard) kinds: c = 2 is
`N台` (two kinds, the second the tile after the first), c = 1 `独N台`, c = 0 `无财N台`. The winning bidder, the
包家, needs N 台 to win, everyone else 1. The payout is the hand part H = 2^台 plus the 包 part, the stake
B(N, c), paid between the 包家 and the others.
"""
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from ..decompose import Block
from ..errors import RulesetError, SituationError
from ..hand import CHOW, PAIR
from ..messages import Message, Words

from ..patterns import (
    COMMON,
    PatternView,
    ReadingView,
    block_traits,
    counted_traits,
    needs,
    only_on,
    pungs_of,
    seat_wind,
    told,
    traits_summary,
)
from ..payouts import Param, Payout, Scheme, power_of_two, transfer
from ..shapes import STANDARD
from ..situation import Option, Situation
from ..tiles import DRAGONS, EAST, NAMES, SEATS, next_in_cycle
from .base import ReadingKeys, Region, own_detectors

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Score, Tiles

KINDS_PREFIX = {2: "", 1: "独", 0: "无财"}
_BID = re.compile(r"^(独|du|无财|wucai)?(\d{1,3})(台)?$")
MAX_LEVEL = 16


@dataclass(frozen=True)
class Bid:
    """A bid 包牌: its level N and its number of 财神 kinds c."""

    level: int
    kinds: int

    def __str__(self) -> str:
        return bid_name(self.level, self.kinds)


def parse_bid(text: str) -> Bid:
    """`2`/`2台` → Bid(2, 2), `du2`/`独2` → Bid(2, 1), `wucai2`/`无财2` → Bid(2, 0)."""
    m = _BID.match(str(text).strip().lower())
    if not m or not 2 <= int(m.group(2)) <= MAX_LEVEL:
        raise SituationError("zhuji.unknown_bid", field="bid", label="bid (包牌)", bid=repr(text), most=MAX_LEVEL)
    kinds = {None: 2, "独": 1, "du": 1, "无财": 0, "wucai": 0}[m.group(1)]
    return Bid(int(m.group(2)), kinds)


# Every bid up the ladder, as `parse_bid` reads it (2 < du2 < wucai2 < 3 < …): the values a front end offers.
BIDS = tuple(f"{prefix}{level}" for level in range(2, MAX_LEVEL + 1) for prefix in ("", "du", "wucai"))


def bid_name(level: int, kinds: int) -> str:
    """A bid as written on the ladder: 2台, 独2台, 无财2台."""
    return f"{KINDS_PREFIX[kinds]}{level}台"


def ladder_rank(level: int, kinds: int) -> int:
    """The bid's place on the ladder, lowest 0: 2台 < 独2台 < 无财2台 < 3台 < …"""
    return 3 * (level - 2) + (2 - kinds)


def ladder_bid(rank: int) -> Tuple[int, int]:
    """The bid at a place on the ladder, as (level, kinds)."""
    return 2 + rank // 3, 2 - rank % 3


def stake(unit: int, level: int, kinds: int) -> int:
    """B(N, c) = unit·2^(N−2) with two 财神 kinds, unit·2^(N−1) with fewer (unit 5 in the written rules)."""
    return unit * power_of_two(level - 2 + (kinds < 2), Message("zhuji.a_bid_of", level=level))


def wild_for_bid(bid: Bid, wild: Tuple[int, ...]) -> Tuple[int, ...]:
    """The full 财神 kinds a bid puts in play, from the kind(s) named; a contradiction is an error."""
    names = ",".join(NAMES[k] for k in wild)
    name = str(bid)

    def fail(code: str, **params: Any) -> SituationError:
        return SituationError(code, field="wild", label="wild (财神)", **params)

    if bid.kinds == 0:
        if wild:
            raise fail("zhuji.wild_under_no_wild_bid", bid=name, wild=names)
        return ()
    if not wild:
        raise fail("zhuji.bid_needs_one_wild" if bid.kinds == 1 else "zhuji.bid_needs_two_wilds", bid=name)
    if bid.kinds == 1:
        if len(wild) != 1:
            raise fail("zhuji.one_wild_kind", bid=name, count=len(wild), wild=names)
        return wild
    if len(wild) == 1:
        return wild[0], next_in_cycle(wild[0])
    if len(wild) == 2:
        first, second = wild
        if second == next_in_cycle(first):
            return wild
        if first == next_in_cycle(second):
            return second, first
        raise fail("zhuji.second_wild_follows", bid=name, first=NAMES[first], after=NAMES[next_in_cycle(first)],
                   second=NAMES[second])
    raise fail("zhuji.two_wild_kinds", bid=name, count=len(wild), wild=names)


# --- detectors -----------------------------------------------------------------------------------------


def _east_count(situation: Situation, p: PatternView, pungs: int) -> int:
    """东风's count when the hand holds `pungs` pungs of East: once; for the dealer `params.dealer_count` times, the
    way rules kept before `dealer_value` said 东风庄家二台 (today's rules give the dealer's value instead)."""
    if not pungs:
        return 0
    count: int = p.param("dealer_count", 1) if situation.is_dealer else 1
    return count


@needs(pungs=1, honors=True)
@told(lambda r, p: _east_count(r.situation, p, r.named(p.id)))
def east_pung(r: ReadingView, p: PatternView) -> int:
    """东风: a pung or kong of East (worth `params.dealer_value` to the dealer: 东风庄家二台，闲家一台)."""
    return _east_count(r.situation, p, pungs_of(r, EAST))


def _seat_wind_count(situation: Situation, pungs: int) -> int:
    """门风's count when the hand holds `pungs` pungs of the winner's own wind: once, never for the dealer (his own
    wind is East, counted by 东风)."""
    return 0 if seat_wind(situation) == EAST else min(1, pungs)


@needs(pungs=1, honors=True)
@told(lambda r, p: _seat_wind_count(r.situation, r.named(p.id)), rule="rule.seat_wind")
def seat_wind_pung(r: ReadingView, p: PatternView) -> int:
    """门风: a pung or kong of one's own wind, South, West or North (the dealer's East is `east_pung`); once, as
    东风 counts once, however many sets of it wildcards make (zhuji.md: 门风 1, where 中发白 is "1 each")."""
    return _seat_wind_count(r.situation, pungs_of(r, seat_wind(r.situation)))


@needs(every=CHOW)
@only_on(STANDARD)
def pinghu(r: ReadingView, p: PatternView) -> int:
    """平胡: four chows and a pair that is no dragon, not East and not the winner's own wind."""
    if r.shape != STANDARD:
        return 0
    sets = [b for b in r.blocks if b.kind != PAIR]
    pairs = [b for b in r.blocks if b.kind == PAIR]
    if len(sets) != 4 or len(pairs) != 1 or any(b.kind != CHOW for b in sets):
        return 0
    eye = pairs[0].tiles[0]
    return int(eye not in DRAGONS and eye != EAST and eye != seat_wind(r.situation))


# --- the payout scheme ---------------------------------------------------------------------------------


def _honors_summary(keys: Sequence[Tuple[str, Tuple[Any, ...]]]) -> Tuple[Any, ...]:
    """The common traits' summary, and each block of East, the winner's wind or a dragon with its kind (东风 and
    门风 count pungs, 平胡 looks at the pair)."""
    return traits_summary(tuple((kind, key[0]) for kind, key in keys)), \
        tuple(sorted((kind, key[1]) for kind, key in keys if key[1] is not False))


def _counted_honors(key: Tuple[Any, ...]) -> bool:
    """门风 counts the pungs of the winner's wind and 中发白 the dragon pungs: those keys are counted."""
    return key[1] is not False or counted_traits(key[0])


class Zhuji(Scheme):
    """诸暨包牌: H = 2^T from the payers by how the hand was won, and the stake B between the 包家 and the rest."""

    meaning = ("hand part H = 2^台 × 底分: self-draw, each other pays H; discard, the discarder H and the two "
               "others H/2; 抢杠, the konger 3H. 包 part: the 包家 wins, each other pays him B; another wins, "
               "the 包家 pays B to each of the three")
    params = {"stake": Param("the stake unit: B(N, c) = stake·2^(N−2) for N台, stake·2^(N−1) for 独N台 and 无财N台",
                             maximum=10_000)}

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return power_of_two(total, Message("payout.a_penalty"))

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        winner, base = situation.seat, situation.base
        others = [s for s in SEATS if s != winner]
        h = power_of_two(score.total, Message("region.a_hand_of", total=score.total, unit="台")) * base
        hand: Dict[str, int] = {}
        discarder = situation.discarder  # None: a self-draw (the situation is the score's, as paid)
        if discarder is None:
            for s in others:
                transfer(hand, s, winner, h)
        elif situation.rob_kong:
            transfer(hand, discarder, winner, 3 * h)
        else:
            if h % 2:  # only a ruleset file with scoring.minimum 0 lets a 0-台 hand win on a discard
                raise RulesetError("zhuji.odd_half_hand", ruleset=ruleset.id, total=score.total, hand=h)
            for s in others:
                transfer(hand, s, winner, h if s == discarder else h // 2)

        payout = Payout()
        payout.add("和牌", "hand", hand)
        bid = situation.extra("bid")
        if bid is not None:
            b = stake(self.param(ruleset, "stake"), bid.level, bid.kinds) * base
            bidder = situation.extra("bidder")
            part: Dict[str, int] = {}
            for s in SEATS:
                if s == bidder:
                    continue
                if winner == bidder:
                    transfer(part, s, bidder, b)
                else:
                    transfer(part, bidder, s, b)
            payout.add(f"包 {bid}", f"bid {bid}", part)
        return payout


# --- the region ----------------------------------------------------------------------------------------


DETECTORS = {**COMMON, **{f.__name__: f for f in (east_pung, seat_wind_pung, pinghu)}}
_HONOR_SEEN = {"east_pung", "seat_wind_pung", "pinghu"}


class ZhujiRegion(Region):
    id = "zhuji"
    zh = "诸暨"
    en = "Zhuji"
    detectors = DETECTORS
    schemes = {"zhuji": Zhuji()}
    pattern_params = {"east_pung": {"dealer_count": Param("how many times the dealer's East pung counts (rules kept "
                                                          "before `dealer_value`)", minimum=1, maximum=4,
                                                          required=False)}}
    options = (
        Option("bid", "text", "The winning bid 包牌: 2, du2/独2, wucai2/无财2, 3, …", zh="包牌", parse=parse_bid,
               value_type=Bid, metavar="LEVEL", choices=BIDS, labels=tuple(str(parse_bid(b)) for b in BIDS)),
        Option("bidder", "seat", "The 包家 who made the bid.", zh="包家", metavar="SEAT"),
    )

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        bid, bidder = situation.extra("bid"), situation.extra("bidder")
        if situation.indicator is not None:
            raise SituationError("zhuji.no_indicator", field="indicator")
        if bid is None and bidder is not None:
            raise SituationError("zhuji.bidder_needs_bid", field="bidder", label="bidder (包家)")
        if bid is not None and bidder is None:
            raise SituationError("zhuji.bid_needs_bidder", field="bid", label="bid (包牌)", bid=str(bid))

    def wild_kinds(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, ...]:
        bid = situation.extra("bid")
        if bid is None:
            return super().wild_kinds(ruleset, situation)
        return wild_for_bid(bid, tuple(situation.wild))

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits, 东风 and 门风 see a pung of East or of the winner's wind, and
        平胡's pair must be no dragon, not East and not the winner's wind: those honors are told apart. 门风 counts
        the pungs of the winner's wind, so those are counted, as are dragons (中发白 counts them)."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = {p.id for p in ruleset.patterns}
        traits = block_traits(active, tiles)
        if not _HONOR_SEEN & active:
            return ReadingKeys(traits, counted=counted_traits, summary=traits_summary,
                               signature=(self.id, traits.signature))
        special = (EAST, seat_wind(situation))

        def block(b: Block) -> Tuple[Any, ...]:
            t = b.tiles[0]
            return traits(b), (t if t in special else t in DRAGONS)

        return ReadingKeys(block, counted=_counted_honors, summary=_honors_summary,
                           signature=(self.id, traits.signature, special))

    def wild_in_play(self, ruleset: "Ruleset", situation: Situation) -> bool:
        """A bid with 财神 (N台, 独N台) puts them in play, whichever the 包家 named."""
        bid = situation.extra("bid")
        return bid is not None and bid.kinds > 0

    def why_no_wild(self, ruleset: "Ruleset", situation: Situation) -> Optional[Words]:
        """No 财神 under a 无财 bid; with no bid, a wildcard is as anywhere."""
        bid = situation.extra("bid")
        if bid is not None and bid.kinds == 0:
            return Message("zhuji.under_bid", bid=str(bid))
        return super().why_no_wild(ruleset, situation)

    def minimum(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, Words]:
        bid = situation.extra("bid")
        if bid is not None and situation.extra("bidder") == situation.seat:
            return max(ruleset.minimum, bid.level), Message("zhuji.the_bidder")
        return ruleset.minimum, ""

    def seat_roles(self, situation: Situation, self_drawn: bool) -> Dict[str, List[str]]:
        roles = super().seat_roles(situation, self_drawn)
        bidder = situation.extra("bidder")
        if bidder is not None:
            roles[bidder].append("包家")
        return roles

    def describe(self, ruleset: "Ruleset") -> List[str]:
        """The bid ladder, lowest first, with each bid's 财神 kinds, the 包家's minimum and the stake."""
        unit = self.schemes[ruleset.payout].param(ruleset, "stake")
        lines = ["bid ladder 包牌 (lowest first; B = the stake; the 包家 needs N 台, everyone else 1):"]
        rows = [("bid", "财神 kinds", "包家 needs", "stake B")]
        for rank in range(12):
            level, kinds = ladder_bid(rank)
            rows.append((bid_name(level, kinds), str(kinds), f"{level} 台", str(stake(unit, level, kinds))))
        widths = [max(_width(r[i]) for r in rows) for i in range(4)]
        for row in rows:
            lines.append("  " + "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths)).rstrip())
        lines.append(f"  … each level doubles the stakes: B(N, c) = {unit}·2^(N−2) for N台, {unit}·2^(N−1) for "
                     "独N台 and 无财N台")
        lines.append("  no bid: stake 0, everyone needs 1 台, the 财神 are whatever wild says")
        alone = [p.zh for p in ruleset.patterns if p.standalone]
        if alone:
            lines.append(f"standalone (no other 台 counted; may win below the minimum): {', '.join(alone)}")
        for p in ruleset.patterns:
            if p.params:
                lines.append(f"{p.id} {p.zh}: " + ", ".join(f"{k}={v}" for k, v in p.params))
        return lines + super().describe(ruleset)


def _width(text: str) -> int:
    """Columns on a terminal: CJK characters take two."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


REGION = ZhujiRegion()
