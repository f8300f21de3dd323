"""红中麻将, by the MIL rules committee's competition rulebook 红中麻将（推广）竞赛规则（试行2024版）: what the region means.

112 tiles: the three suits and four 红中 (C), each 红中 a wildcard that is never claimed (三、18). Every win is a
self-draw (三、14); the hand is read the way that gives the most 番 (八、2 4)); the concealed tiles and the winning
tile never hold five of a kind, a 红中 counted as what it stands for (七、1 3), `wildcard.fifth_copy: false`). No
chows are claimed, and no 红中 is part of a pung or a kong. 番 add up (八、3) and the hand is worth 2^番 capped at 4
番 (16), paid by each of the other three; each bird that hits (扎鸟, `birds`) takes 1 more from each (八、4).
Kong money is paid when the kong is made, as the ruleset's payments, and a deal that ends in a draw pays all of it
back (八、1 4)). The winner deals next; after a draw the dealer deals again (七、4).
rulesets/hongzhong.md gives the rules with the book's pages, and what was chosen where it is silent.
"""
from typing import TYPE_CHECKING, Any, Dict, Optional

from ..decompose import Block
from ..errors import SituationError
from ..hand import PAIR
from ..patterns import COMMON, PatternView, ReadingView, block_traits, counted_traits, only_on
from ..payouts import Param, Payout, Scheme, capped_points, transfer
from ..shapes import SEVEN_PAIRS
from ..situation import Option, Situation
from ..tiles import SEATS
from .base import ReadingKeys, Region, detectors, own_detectors

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Score, Tiles


# --- detectors -----------------------------------------------------------------------------------------


@only_on(SEVEN_PAIRS)
def dragon_seven_pairs(r: ReadingView, p: PatternView) -> int:
    """龙七对: seven pairs holding four alike, the winning tile the fourth of them (a 红中 standing in counts as
    the kind it stands for, in the four and as the winning tile)."""
    block, stand = getattr(r, "winning_block", None), getattr(r, "winning_as", None)
    if block is None or stand is None:
        return 0
    return int(sum(1 for b in r.blocks if b.kind == PAIR and b.tiles[0] == stand) == 2)


DETECTORS = detectors(COMMON, plain_win=COMMON["tuidaohe"], dragon_seven_pairs=dragon_seven_pairs)


# --- the payout scheme ---------------------------------------------------------------------------------


class Hongzhong(Scheme):
    """八、2 and 八、4: 2^番 (capped) from each of the other three, and each bird that hits 1 more from each."""

    meaning = ("hand H = 2^番 × 底分 (番 capped by scoring.cap), paid by each of the other three (every win is "
               "a self-draw); each bird that hits (--birds) takes bird × 底分 more from each")
    params = {
        "birds": Param("how many birds the winner turns (扎鸟): the most that can hit", minimum=0, maximum=8),
        "bird": Param("what each bird that hits takes from each other seat, times 底分", minimum=0, maximum=100),
    }

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return capped_points(total, ruleset.cap)

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s, base = situation, situation.base
        h = capped_points(score.total, ruleset.cap) * base
        payout = Payout()
        hand: Dict[str, int] = {}
        birds: Dict[str, int] = {}
        hits = int(s.extra("birds") or 0)
        for seat in SEATS:
            if seat != s.seat:
                transfer(hand, seat, s.seat, h)
                transfer(birds, seat, s.seat, hits * self.param(ruleset, "bird") * base)
        payout.add("和牌", "hand", hand)
        if any(birds.values()):
            payout.add("扎鸟", "birds", birds, doubled_at_table=False)
        return payout


# --- the region ----------------------------------------------------------------------------------------


def _place(block: Block, stand: int) -> Any:
    """What 龙七对 sees of the winning block besides its key: the kind the winning tile stands for in a pair."""
    return stand if block.kind == PAIR else None


class HongzhongRegion(Region):
    id = "hongzhong"
    zh = "红中"
    en = "Hongzhong"
    detectors = DETECTORS
    schemes = {"hongzhong": Hongzhong()}
    chows_claimed = False  # 六、2: 碰、杠、和 only
    wild_in_melds = False  # 三、18: 红中 不可被碰、杠
    winner_deals = True  # 七、4
    draw_voids_kongs = True  # 八、1 4)
    options = (
        Option("birds", "int", "扎鸟: how many of the birds turned after the win hit (a 1, 5 or 9 of a suit, or a 红中): "
               "each takes 1 from each other seat.", zh="扎鸟", default=0, minimum=0, maximum=8, metavar="N"),
    )

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        turned = self.schemes[ruleset.payout].param(ruleset, "birds") if ruleset.payout in self.schemes else None
        hits = int(situation.extra("birds") or 0)
        if turned is not None and hits > turned:
            raise SituationError("hongzhong.birds_over", field="birds", hits=hits, turned=turned)
        if hits and situation.last_tile:  # 三、19: the birds are the tiles left to draw, and none is left
            raise SituationError("hongzhong.birds_last_tile", field="birds", hits=hits)

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits, 龙七对 sees the kind the winning tile stands for in its pair."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = frozenset(p.id for p in ruleset.patterns)
        traits = block_traits(active, tiles)
        return ReadingKeys(traits, _place, counted=counted_traits, signature=(self.id, traits.signature))


REGION = HongzhongRegion()
