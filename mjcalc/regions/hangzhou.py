"""杭州麻将, by the MIL rules committee's competition rulebook 杭州麻将（推广）竞赛规则（试行2025版）: what the region means.

136 tiles; 白 (P) is the 财神, a wildcard that is never claimed (三、6). Every win is a self-draw (三、13). 番 add up
and the hand's 基本分 is 底分 × 2^番, capped at 4 番 (八、3, 八、4). The winner collects from each other seat: a
non-dealer pays 1 × 基本分, the dealer 2, 4 or 8 × 基本分 at his first, second or third 老庄 (and more 连庄 stays at the
third); a dealer who wins collects that factor from each (八、1, 五、10). A table keeps the 老庄 itself (`laozhuang`):
each deal the dealer keeps, by a win or a draw, raises it.

爆头 is a state of the hand before the win: it holds a 财神, and without one 财神 its tiles and melds make four sets or
six pairs, so any tile drawn wins (八、9). 财飘: won on the next draw after throwing a 财神, 1 番 for each 财神 thrown in a
row (`piao`), always with 爆头 (八、6). 豪华七对 needs four alike of real tiles. 十风 (`ten_winds`: ten honours thrown
first, no claim) wins whatever the shape (八、7). 承包 (`chengbao`, `fan_chengbao`): three chows from the same player
bind the two, and the bound seat pays the whole win, or twice it (八、8). No kong money (八、 has none); a draw pays
nothing, and its dealer deals again. rulesets/hangzhou.md gives the rules with the book's pages, and what was
chosen where it is silent.
"""
from typing import TYPE_CHECKING, Any, Dict, Literal, Optional, Sequence, Union

from ..errors import ImpossibleSituation, Notice
from ..hand import CHOW, CLAIM, PAIR
from ..messages import Message
from ..patterns import COMMON, COUNT, PatternView, ReadingView, block_traits, counted_traits, counts, only_on, \
    per_hand, situational
from ..payouts import Param, Payout, Scheme, capped_points, transfer
from ..shapes import SEVEN_PAIRS, UNITS, unit_need
from ..situation import Option, Situation
from ..tiles import SEATS
from .base import ReadingKeys, Region, detectors, own_detectors, reads_hand_before_win

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Match, Score, Tiles
    from ..session import State

MOST_LEVEL = 3  # 三老庄: more 连庄 stays at the third (五、10)


def can_burst(tiles: "Tiles") -> bool:
    """可爆头 (八、9): the 13 `tiles` (a hand before its winning tile) hold a 财神, and with one 财神 set aside their
    concealed tiles and melds make four sets (the concealed tiles sets only, the wildcards filling in) or, with no
    meld, six pairs (four alike are two): then any tile drawn wins, paired with the 财神 set aside."""
    wilds = tiles.wilds - 1
    if wilds < 0:
        return False
    counts = tiles.naturals
    need = sum(unit_need(tuple(counts[first:first + size]), chows)[0] for first, size, chows in UNITS)
    if need <= wilds:
        return True
    return tiles.melds == 0 and sum(n % 2 for n in counts) <= wilds


# --- detectors -----------------------------------------------------------------------------------------


@per_hand
def burst(r: Any, p: PatternView) -> int:
    """爆头: won from the 可爆头 state (`can_burst` of the hand before its winning tile), however the 14 are read."""
    return int(can_burst(r.tiles.before))


@counts(3)
@situational("rule.caipiao", implies=("piao", COUNT))
def caipiao(r: ReadingView, p: PatternView) -> int:
    """财飘: won on the next draw after throwing a 财神; counts the 财神 thrown in a row (`piao`), or once whatever
    their number where the ruleset says `params: {stacks: false}`."""
    thrown = int(r.situation.extra("piao") or 0)
    return thrown if p.param("stacks", True) else min(thrown, 1)


@only_on(SEVEN_PAIRS)
def luxury_natural(r: ReadingView, p: PatternView) -> int:
    """豪华七对: seven pairs holding four alike of real tiles (no 财神 standing in the four)."""
    pairs = [b for b in r.blocks if b.kind == PAIR]
    kinds = [b.tiles[0] for b in pairs]
    return int(any(kinds.count(k) == 2 and all(not b.wild_as for b in pairs if b.tiles[0] == k) for k in set(kinds)))


def ten_winds_told(situation: Situation) -> bool:
    """Whether the situation says 十风, with a 白 among the ten or not."""
    return bool(situation.extra("ten_winds") or situation.extra("ten_winds_white"))


@situational("rule.ten_winds", implies=("ten_winds", True))
def ten_winds(r: ReadingView, p: PatternView) -> int:
    """十风: the winner's first ten discards were all honours, with no claim (八、7); a win whatever the shape."""
    return int(ten_winds_told(r.situation))


@situational("rule.ten_winds_white", implies=("ten_winds_white", True))
def ten_winds_white(r: ReadingView, p: PatternView) -> int:
    """十风 with a 白 (the 财神) among the ten discards: 4 番 (八、10)."""
    return int(bool(r.situation.extra("ten_winds_white")))


DETECTORS = detectors(COMMON, plain_win=COMMON["tuidaohe"], burst=burst, caipiao=caipiao, luxury_natural=luxury_natural,
                      ten_winds=ten_winds, ten_winds_white=ten_winds_white)


def upper(seat: str) -> str:
    """The seat before `seat` in the order of play (上家): the one it chows from."""
    return SEATS[(SEATS.index(seat) - 1) % 4]


def lower(seat: str) -> str:
    """The seat after `seat` in the order of play (下家)."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


# --- the payout scheme ---------------------------------------------------------------------------------


def dealer_factor(level: int) -> int:
    """What the dealer pays, or is paid by each, at his `level`-th 老庄: 2, 4, 8 (五、10)."""
    return 1 << max(1, min(level, MOST_LEVEL))


class Hangzhou(Scheme):
    """八、1: each other seat pays the 基本分 2^番 (capped); to or from the dealer, times 2/4/8 by his 老庄."""

    meaning = ("基本分 B = 2^番 × 底分 (番 capped by scoring.cap), paid by each of the other three (every win is a "
               "self-draw); a payment to or from the dealer is B × 2, 4 or 8 at his first, second or third 老庄 "
               "(--laozhuang)")
    params: Dict[str, Param] = {}

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return capped_points(total, ruleset.cap)

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s = situation
        b = capped_points(score.total, ruleset.cap) * s.base
        factor = dealer_factor(int(s.extra("laozhuang") or 1))
        owed = {seat: b * factor if s.dealer in (seat, s.seat) else b for seat in SEATS if seat != s.seat}
        whole = sum(owed.values())
        bound: Dict[str, int] = {}  # 承包 (八、8): the bound seats pay the whole win (反承包 twice), and only they
        if s.extra("chengbao"):
            bound[upper(s.seat)] = whole
        if s.extra("fan_chengbao"):
            bound[lower(s.seat)] = 2 * whole
        hand: Dict[str, int] = {}
        for seat, amount in (bound or owed).items():
            transfer(hand, seat, s.seat, amount)
        payout = Payout()
        payout.add("和牌", "hand", hand)
        return payout


# --- the region ----------------------------------------------------------------------------------------


class HangzhouRegion(Region):
    id = "hangzhou"
    zh = "杭州"
    en = "Hangzhou"
    detectors = DETECTORS
    schemes = {"hangzhou": Hangzhou()}
    wild_in_melds = False  # 三、6: 财神牌不可吃、碰、杠
    pattern_params = {"caipiao": {"stacks": Param("n 财神 thrown in a row count n times (八、6: 可叠加); false: once",
                                                  kind=bool, required=False)}}
    winner_deals = True  # 四、5
    options = (
        Option("laozhuang", "int", "老庄: the dealer's level, 1-3 (the deals he has kept, by a win or a draw, plus 1; "
               "a table keeps it).", zh="老庄", default=1, minimum=1, maximum=MOST_LEVEL, metavar="N", from_deal=True),
        Option("ten_winds", "flag", "十风: the winner's first ten discards were all honours, with no claim (a win "
               "whatever the shape).", zh="十风", default=False),
        Option("ten_winds_white", "flag", "十风 with a 白 (the 财神) among the ten discards (a 十风: --ten-winds beside "
               "it changes nothing).", zh="十风带白",
               default=False),
        Option("chengbao", "flag", "承包: the winner chowed three times from the seat before him, which pays the "
               "whole win.", zh="承包", default=False),
        Option("fan_chengbao", "flag", "反承包: the seat after the winner chowed three times from him, and pays the "
               "whole win twice.", zh="反承包", default=False),
        Option("piao", "int", "财飘: how many 财神 the winner threw in a row just before the winning draw (飘).",
               zh="财飘", default=0, minimum=0, maximum=3, metavar="N"),
    )

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        s = situation
        if ten_winds_told(s) and (s.kong_draw or s.extra("piao")):
            raise ImpossibleSituation("hangzhou.ten_winds_alone", field="ten_winds")
        if ten_winds_told(s) and not s.self_drawn:
            # a 十风 is a win whatever the shape only at a draw: say so, not that the shape does not win
            raise ImpossibleSituation("region.no_discard_wins", field="from", ruleset=ruleset.id)

    def check_melds(self, ruleset: "Ruleset", situation: Situation, hand: Any) -> None:
        """十风 is made with no claim and no kong (八、7: 不得吃、碰、杠); 承包 binds a winner who chowed three times.
        (No 财神 in a meld: `wild_in_melds`.)"""
        super().check_melds(ruleset, situation, hand)
        if hand.melds and ten_winds_told(situation):
            raise ImpossibleSituation("hangzhou.ten_winds_melds", field="ten_winds")
        # 承包: the winner chowed three times (a hand told without its tiles: three claims at least)
        chows = sum(1 for m in hand.melds if m.kind in (CHOW, CLAIM))
        if situation.extra("chengbao") and chows < 3:
            raise ImpossibleSituation("hangzhou.chengbao_chows", field="chengbao", chows=chows)

    def automatic_win(self, ruleset: "Ruleset", situation: Situation,
                      tiles: Any) -> Optional[Union[Notice, Literal[""]]]:
        """十风 (八、7): a win whatever the shape, declared at the next draw (self-drawn)."""
        if "ten_winds" not in {p.id for p in ruleset.patterns}:
            return None
        told = ten_winds_told(situation)
        return "" if told and situation.self_drawn else None  # on a discard: refused as any discard win

    def automatic_pattern(self, ruleset: "Ruleset") -> Optional[str]:
        return "ten_winds" if "ten_winds" in {p.id for p in ruleset.patterns} else None

    def reading_refusal(self, ruleset: "Ruleset", reading: Any, matches: Sequence["Match"]) -> Optional[Message]:
        """财飘 is always 爆头 (八、10: "必然是爆头"): a hand not 可爆头 before its winning tile, or told without 爆头,
        was not won so."""
        if not reading.situation.extra("piao"):
            return None
        burst_held = reading.named("burst") > 0 if reading.told else can_burst(reading.tiles.before)
        return None if burst_held else Message("hangzhou.piao_not_burst")

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits, 豪华七对 sees whether a 财神 stands in a pair (wildcard roles are
        kept); 爆头 reads the hand before its winning tile (`reads_hand_before_win`), 财飘 the situation."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        traits = block_traits(frozenset(p.id for p in ruleset.patterns), tiles)
        return ReadingKeys(traits, reads_hand_before_win, wild_roles=True, counted=counted_traits,
                           signature=(self.id, traits.signature))

    # --- the table ------------------------------------------------------------------------------------

    def at_table(self, ruleset: "Ruleset", situation: Situation, state: "State") -> Situation:
        """The dealer's 老庄, from the deals he has kept (`state.streak`): his first deal is the first (五、10)."""
        return situation.replace(laozhuang=min(MOST_LEVEL, state.streak + 1))

    def seat_roles(self, situation: Situation, self_drawn: bool) -> Dict[str, Any]:
        roles = super().seat_roles(situation, self_drawn)
        level = int(situation.extra("laozhuang") or 1)
        roles[situation.dealer].append(f"{'一二三'[level - 1]}老庄 ×{dealer_factor(level)}")
        if situation.extra("chengbao"):
            roles[upper(situation.seat)].append("承包 pays all")
        if situation.extra("fan_chengbao"):
            roles[lower(situation.seat)].append("反承包 pays all ×2")
        return roles


REGION = HangzhouRegion()