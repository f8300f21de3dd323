"""Sichuan 四川麻将 血战到底, by the MIL rules committee's competition rulebook (SBR 2025): what the region means.

108 tiles of the three suits. Each player names a void suit 定缺 (`void`) and may not win holding it; a win holds
at most two suits whatever was named. No chows are claimed. 番 add up: each kong and each four alike that is not
a kong (根), 大对子, 金钩钓, 清一色 (2), 七对 (2), 杠上花, 杠上炮, 抢杠, 海底; the hand is worth 2^番 capped at
the ruleset's cap (3 番). The discarder pays it; on a self-draw each seat still in the deal pays it plus
`self_draw` (自摸加底).

The deal goes on after a win until three have won (血战到底): a winner neither wins nor pays again in it
(`won_earlier`).
Kong money (刮风下雨) is paid when the kong is made, as the ruleset's payments. A draw (the wall run out with two or
more still in) settles 查大叫 — each seat still in and not ready pays each ready one what that hand's best win is
worth, counting no way of winning (`analysis.ready_at_draw`) — and refunds the kong money of a konger not ready (退税).
rulesets/sichuan.md gives the rules with the book's pages, and what was chosen where it is silent.
"""
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from ..decompose import Block
from ..errors import ImpossibleSituation, SituationError
from ..hand import KONG, PAIR
from ..messages import Message
from ..patterns import (
    COMMON,
    PatternView,
    ReadingView,
    block_traits,
    counted_traits,
    counts,
    needs,
    of_hand,
    only_on,
    per_hand,
    situational,
    told,
)
from ..payouts import Param, Payout, Scheme, capped_points, transfer
from ..shapes import STANDARD
from ..situation import Option, Situation
from ..tiles import NUM_KINDS, SEATS, Wall
from .base import DealPayment, HandTiles, ReadingKeys, Region, Won, own_detectors, pay_back, penalty_amount

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Match, Reading, Score, Tiles
    from ..session import State

SUITS = "mps"
SUIT_WORDS = {"m": "m", "万": "m", "p": "p", "筒": "p", "饼": "p", "s": "s", "条": "s", "索": "s"}
SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
WINS_TO_END = 3  # 血战到底: the deal ends at its third win (第九条 二、)


def parse_void(text: str) -> str:
    """A void suit 定缺 as written: m/万, p/筒/饼, s/条/索 → its letter."""
    suit = SUIT_WORDS.get(str(text).strip().lower())
    if suit is None:
        raise SituationError("sichuan.unknown_void", field="void", label="void (定缺)", value=repr(text))
    return suit


def void_kinds_of(suit: Optional[str]) -> Tuple[int, ...]:
    """The nine kinds of a void suit (none without one)."""
    if not suit:
        return ()
    first = 9 * SUITS.index(suit)
    return tuple(range(first, first + 9))


def _suits(held: Sequence[int]) -> List[str]:
    """The suits among a hand's tiles (34 counts, melds included), in m p s order."""
    return [SUITS[s] for s in range(3) if any(held[9 * s:9 * s + 9])]


# --- detectors -----------------------------------------------------------------------------------------


@counts(4)
@of_hand("rule.kong")
def kong(r: Any, p: PatternView) -> int:
    """杠: the winner's kongs, exposed or concealed; counts them."""
    return sum(1 for m in r.hand.melds if m.kind == KONG)


@counts(3)
@per_hand
def four_alike(r: "Reading", p: PatternView) -> int:
    """根: four alike among the 14, melds and hand together, that are not a kong; counts them (a kind once, even
    with a fifth copy, as 查大叫 scores a wait on a tile the player holds all of: `analysis.ready_at_draw`)."""
    kongs = {m.tiles[0] for m in r.hand.melds if m.kind == KONG}
    return sum(1 for k in range(NUM_KINDS) if r.tiles.held[k] >= 4 and k not in kongs)


@needs(melds=4, wins_in=PAIR)
@told(lambda r, p: int(bool(r.named(p.id)) or len(r.hand.melds) == 4), rule="rule.single_wait")
@only_on(STANDARD)
def golden_hook(r: "Reading", p: PatternView) -> int:
    """金钩钓: four melds declared, won on the one tile left in hand (so every set is a pung or a kong)."""
    b = r.winning_block
    return int(r.shape == STANDARD and len(r.hand.melds) == 4 and b is not None and b.kind == PAIR)


@situational("rule.kong_discard", implies=("kong_discard", True))
def kong_discard(r: ReadingView, p: PatternView) -> int:
    """杠上炮: won on the tile the discarder threw after his kong's replacement draw."""
    return int(bool(r.situation.extra("kong_discard")))


DETECTORS = {**COMMON, **{f.__name__: f for f in (kong, four_alike, golden_hook, kong_discard)}}


# --- the payout scheme ---------------------------------------------------------------------------------


class Sichuan(Scheme):
    """SBR: 2^番 (capped) from the discarder, or from each seat still in plus 自摸加底 on a self-draw."""

    meaning = ("hand H = 2^番 × 底分 (番 capped by scoring.cap): the discarder pays H (抢杠: the konger); a "
               "self-draw, each seat still in the deal pays H + self_draw × 底分")
    params = {"self_draw": Param("自摸加底: what each payer adds on a self-draw, times 底分, after the cap", minimum=0,
                                 maximum=100)}

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return capped_points(total, ruleset.cap)

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s, base = situation, situation.base
        h = capped_points(score.total, ruleset.cap) * base
        payout = Payout()
        hand: Dict[str, int] = {}
        if s.discarder is not None:  # a discard, 杠上炮, or a robbed kong: the one seat pays
            transfer(hand, s.discarder, s.seat, h)
            payout.add("和牌", "hand", hand)
            return payout
        out = set(s.extra("won_earlier") or ())
        payers = [seat for seat in SEATS if seat != s.seat and seat not in out]
        bonus: Dict[str, int] = {}
        for seat in payers:
            transfer(hand, seat, s.seat, h)
            transfer(bonus, seat, s.seat, self.param(ruleset, "self_draw") * base)
        payout.add("和牌", "hand", hand)
        if any(bonus.values()):
            payout.add("自摸加底", "self-draw", bonus)
        return payout


# --- the region ----------------------------------------------------------------------------------------


def _place(block: Block, stand: int) -> bool:
    """What 金钩钓 sees of the winning block besides its key: whether it is the pair."""
    return block.kind == PAIR


class SichuanRegion(Region):
    id = "sichuan"
    zh = "四川"
    en = "Sichuan"
    detectors = DETECTORS
    schemes = {"sichuan": Sichuan()}
    chows_claimed = False  # 第七条: 碰 and 杠 only
    options = (
        Option("void", "text", "The winner's void suit 定缺: m 万, p 筒, s 条.", zh="定缺", parse=parse_void,
               metavar="SUIT", choices=("m", "p", "s"), labels=("万", "筒", "条")),
        Option("won_earlier", "seats", "Seats that won earlier in this deal: they pay nothing more (血战到底).", zh="本副已和",
               default=(), metavar="SEAT", from_deal=True),
        Option("kong_discard", "flag", "杠上炮: won on the tile the discarder threw after his kong.", zh="杠上炮",
               default=False, reads_payment=True),
    )

    # --- the situation and the hand -------------------------------------------------------------------

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        s = situation
        out = tuple(s.extra("won_earlier") or ())
        if s.seat in out:
            raise ImpossibleSituation("sichuan.winner_out", field="won_earlier", seat=s.seat)
        if s.discarder is not None and s.discarder in out:
            raise ImpossibleSituation("sichuan.discarder_out", field="won_earlier", seat=s.discarder)
        if len(out) >= WINS_TO_END:
            raise ImpossibleSituation("sichuan.three_out", field="won_earlier", count=len(out))
        if s.extra("kong_discard"):
            if s.discarder is None or s.rob_kong:
                raise ImpossibleSituation("sichuan.kong_discard_needs_discard", field="kong_discard")
            if s.kong_draw:
                raise ImpossibleSituation("region.kong_draw_on_discard", field="kong_draw")

    def void_kinds(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, ...]:
        return void_kinds_of(situation.extra("void"))

    def never_ready(self, ruleset: "Ruleset", situation: Situation, held: Sequence[int]) -> Optional[Message]:
        """A hand holding its void suit, or all three suits, waits on nothing (`wall` bars every wait): the
        refusal its win would get says why."""
        void = situation.extra("void")
        if void and any(held[k] for k in void_kinds_of(void)):
            return Message("sichuan.holds_void", suit=SUIT_ZH[void])
        return Message("sichuan.three_suits") if len(_suits(held)) == 3 else None

    def unkept(self, ruleset: "Ruleset", situation: Situation) -> Tuple[Tuple[int, ...], ...]:
        """A win holds none of the void suit (花猪), and two suits at most (缺一门): the void suit's tiles are
        thrown; without one named, the tiles of whichever suit is best thrown."""
        void = situation.extra("void")
        return (void_kinds_of(void),) if void else tuple(void_kinds_of(suit) for suit in SUITS)

    def drawn_wall(self, ruleset: "Ruleset", situation: Situation, wall: Wall) -> Wall:
        """What may improve a hand: any kind but the void suit's, whatever suits the hand holds now."""
        return replace(wall, void=void_kinds_of(situation.extra("void")))

    def wall(self, ruleset: "Ruleset", situation: Situation, held: Sequence[int], seen: Optional[Sequence[int]] = None,
             wild_kinds: Tuple[int, ...] = ()) -> Wall:
        """The wall as the region's, and no wait outside the suits a win may hold: a hand holding its void suit
        (花猪) or all three suits waits on nothing; one holding two suits, on nothing of the third."""
        wall = super().wall(ruleset, situation, held, seen, wild_kinds)
        suits = _suits(held)
        void = situation.extra("void")
        if void in suits or len(suits) == 3:
            barred = tuple(range(NUM_KINDS))
        elif len(suits) == 2:
            barred = void_kinds_of(next(x for x in SUITS if x not in suits))
        else:
            return wall
        return replace(wall, void=tuple(sorted(set(wall.void) | set(barred))))

    def refusal(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles, matches: Sequence["Match"],
                total: int) -> Optional[Message]:
        """A win holds at most two suits (缺一门), and none of the winner's void suit (花猪)."""
        held = getattr(tiles, "held", None)  # a hand told without its tiles has none: the table says it won
        if held is not None:
            reason = self.never_ready(ruleset, situation, held)
            if reason is not None:
                return reason
        return super().refusal(ruleset, situation, tiles, matches, total)

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits (清一色 sees the suit, 大对子 the kinds of sets), 金钩钓 sees whether
        the winning tile completes the pair; 杠 and 根 read the hand's melds and tiles, not the reading."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = frozenset(p.id for p in ruleset.patterns)
        traits = block_traits(active, tiles)
        return ReadingKeys(traits, _place, counted=counted_traits, signature=(self.id, traits.signature))

    # --- the deal: 血战到底 --------------------------------------------------------------------------------

    # ready: each ready seat with its best 番 (`analysis.ready_at_draw`), ready=S:2,W:0; pig: each seat still in
    # that is an active 花猪 (主动花猪: it threw another suit while holding its void suit), pig=N
    draw_facts = ("ready", "pig")
    draw_counted = ("ready",)

    def deal_goes_on(self, ruleset: "Ruleset", won: Won) -> bool:
        return len(won) < WINS_TO_END

    def deal_mover(self, ruleset: "Ruleset", won: Won) -> Optional[str]:
        """The first to win deals next; when the deal's first two wins were on one seat's discards (一炮多响, as
        the ledger reads two wins in a row from one discarder), that discarder (第九条 二、(五))."""
        if len(won) >= 2 and won[0][1] is not None and won[0][1] == won[1][1]:
            return won[0][1]
        return won[0][0]

    def next_dealer(self, ruleset: "Ruleset", won: Won) -> Optional[str]:
        """The seat the deal goes to (第九条 二、(五)): the first to win, or the discarder of 一炮多响
        (`deal_mover`), whoever dealt."""
        return self.deal_mover(ruleset, won)

    def in_deal(self, ruleset: "Ruleset", situation: Situation, won: Won) -> Situation:
        if not won:
            return situation
        out = sorted({w for w, _ in won} | set(situation.extra("won_earlier") or ()), key=SEATS.index)
        return situation.replace(won_earlier=out)

    def draw_pays(self, ruleset: "Ruleset", state: "State", told: Dict[str, Any], base: int,
                  paid: Sequence[DealPayment] = ()) -> Dict[str, int]:
        """查花猪, 查大叫 and 退税 (第十条 三、, 一、(三)): an active 花猪 (`told["pig"]`) pays the ruleset's
        `flower_pig` deduction to each other seat still in; each seat still in and not ready (a 花猪 is not) pays
        each ready seat what its hand's best win is worth (`told["ready"]`: each ready seat with its best 番); a
        seat still in and not ready pays back the kong money it was paid in this deal, to whoever paid it."""
        scheme = self.schemes[ruleset.payout]
        fans: Dict[str, int] = dict(told.get("ready", {}))
        pigs: List[str] = list(told.get("pig", ()))
        for fact, seats in (("ready", list(fans)), ("pig", pigs)):
            gone = [s for s in seats if s in state.out]
            if gone:
                raise ImpossibleSituation("sichuan.told_out", field=fact, seats=gone)
        both = [s for s in pigs if s in fans]
        if both:
            raise ImpossibleSituation("sichuan.pig_ready", field="pig", seats=both)
        still_in = [s for s in SEATS if s not in state.out]
        deltas = dict.fromkeys(SEATS, 0)
        deduction = next((p for p in ruleset.penalties if p.id == "flower_pig"), None)  # a house rule may drop it
        each = 0 if deduction is None else penalty_amount(self, ruleset, deduction, base)
        for pig in pigs:
            for seat in still_in:
                if seat != pig:
                    transfer(deltas, pig, seat, each)
        not_ready = [s for s in still_in if s not in fans]
        for payer in not_ready:
            for payee in fans:
                transfer(deltas, payer, payee, scheme.unit_points(fans[payee], ruleset) * base)
        pay_back(deltas, paid, not_ready)  # 退税
        return deltas

    def check_draw(self, ruleset: "Ruleset", told: Dict[str, Any], penalties: Sequence[Tuple[str, str]]) -> None:
        """A 主动花猪 already deducted in this deal (`table penalty flower_pig`) is not deducted again by the draw's
        `pig`: the book judges it once a deal (第十一条 十、)."""
        twice = [seat for seat in told.get("pig", ()) if ("flower_pig", seat) in penalties]
        if twice:
            raise ImpossibleSituation("sichuan.pig_twice", field="pig", seats=twice)

    def win_pays_back(self, ruleset: "Ruleset", situation: Situation, paid: Sequence[DealPayment]) -> Dict[str, int]:
        """杠上炮 (第十条 一、(四), p. 20): the konger pays back the money of the kong he threw the winning tile
        after, to whoever paid it (退税, 无呼叫转移: not to the winner)."""
        deltas = dict.fromkeys(SEATS, 0)
        if situation.extra("kong_discard") and situation.discarder is not None:
            pay_back(deltas, paid, [situation.discarder])
        return deltas

    pays_ready_at_draw = True
    dead_waits_ready = True  # 听牌 例1 and 例4 (p. 22): a wait on a tile all of whose copies are the player's own

    def at_draw_situation(self, ruleset: "Ruleset", situation: Situation) -> Situation:
        """查大叫 (第十条 三、(四), pp. 22-23) pays a ready hand its best win counting no way of winning (杠上花, 杠上炮,
        抢杠, 海底): won on another's discard; the void suit kept. A 根 and a 杠 of one kind count once: the
        `four_alike` detector counts a kind once however many copies (a wait on a tile the player holds all of)."""
        void = situation.extra("void")
        return Situation(seat="E", dealer="E", discarder="S", **({"void": void} if void else {}))

    def seat_roles(self, situation: Situation, self_drawn: bool) -> Dict[str, List[str]]:
        roles = super().seat_roles(situation, self_drawn)
        for seat in situation.extra("won_earlier") or ():
            roles[seat].append("won already 已和")
        return roles


REGION = SichuanRegion()
