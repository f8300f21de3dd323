"""Beijing 北京麻将: what the region means.

Wildcards 惠 (绘, 混儿); 吃碰堤 (a hand with an exposed meld must self-draw, in some rulesets only while 绘 are
declared); 混儿's one claim (the scheme's `most_claims`: a hand with more claimed 吃/碰 is no win); 四惠牌/绘杠/混杠
(all four wildcards win whatever the shape, paid as a self-draw); 烧庄 (跟庄: the dealer pays each other seat) and
互包 (a partner pays the winner's whole hand); robbing a concealed kong only to complete a pattern; 绘上墙 and
混儿悠. Five payout schemes: `additive` (番 × 底分), `money_table` (the 2-4-8 table, rate × 2^番, capped, with kong
money and 跟庄), `classic_points` (番 × points, a hand that broke 门清 paid half), `doubling` (2^番, the dealer
paid and paying double) and `hunr` (factors on a 1点 base, 点炮 pays double).
"""
from typing import TYPE_CHECKING, Any, Collection, Dict, FrozenSet, List, Literal, Optional, Sequence, Tuple, Union

from ..decompose import Block
from ..errors import Notice, SituationError
from ..hand import CHOW, KONG, PAIR, Hand
from ..messages import Message
from ..patterns import (
    COMMON,
    Needs,
    PatternView,
    ReadingView,
    block_traits,
    counted_traits,
    dragon,
    full_flush,
    needs,
    of_hand,
    only_on,
    situational,
    told,
    traits_summary,
)
from ..payouts import Param, Payout, Scheme, power_of_two, transfer
from ..shapes import SEVEN_PAIRS, STANDARD, is_complete
from ..situation import Option, Situation
from ..tiles import NUM_KINDS, SEATS, WILD
from .base import AnyReading, HandTiles, ReadingKeys, Region, RulesetKey, own_detectors

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Match, Reading, Score, Tiles
    from ..told import ToldHand

# --- detectors -----------------------------------------------------------------------------------------


@of_hand("rule.concealed_no_wild")
def concealed_no_wild(r: AnyReading, p: PatternView) -> int:
    """门清无惠: concealed, and no 惠 tile among the 14."""
    return int(r.hand.is_concealed and r.wild_tiles == 0)


@needs(exposed=4, melds=4, wins_in=PAIR)
@told(lambda r, p: int(bool(r.named(p.id)) or r.hand.exposed == 4), rule="rule.big_single_wait")
@only_on(STANDARD)
def big_single_wait(r: "Reading", p: PatternView) -> int:
    """大钓 全求人: four exposed melds, won on the single tile left in hand."""
    exposed = [m for m in r.hand.melds if m.exposed]
    return int(r.shape == STANDARD and len(exposed) == 4 and r.winning_block is not None
               and r.winning_block.kind == PAIR)


FIVE_M = 4
# the 13 tiles (counts, shapes, wild kinds) -> their face waits
_FACE_WAITS: Dict[Tuple[Any, ...], Tuple[int, ...]] = {}


def face_waits(tiles: "Tiles", shapes: Collection[str]) -> Tuple[int, ...]:
    """The tile faces the 13 tiles before the winning tile wait on, each drawn tile taken as its own face: the
    natural waits, and a wild kind whose own face completes the hand (a 惠 5m drawn and played as 5m is a 5m).
    A drawn 惠 completes every ready hand by standing for a wait, so it is not a wait of its own."""
    b = tiles.before
    key = (b.naturals, b.wilds, b.melds, shapes, b.held, b.wild_kinds)
    hit = _FACE_WAITS.get(key)
    if hit is None:
        found = [t for t in tiles.waits_before(shapes) if t not in b.wild_kinds]
        for k in b.wild_kinds:
            grown = list(b.naturals)
            grown[k] += 1
            if b.held[k] < 4 and is_complete(grown, b.wilds, b.melds, shapes):
                found.append(k)
        if len(_FACE_WAITS) >= 4096:
            _FACE_WAITS.clear()
        hit = _FACE_WAITS[key] = tuple(sorted(found))
    return hit


@needs(lambda p: Needs(suited=True) if p.param("seven_pairs") else Needs(chows=1, wins_in=CHOW))
@only_on(STANDARD, SEVEN_PAIRS)
def catch_five(r: "Reading", p: PatternView) -> int:
    """捉五魁: won on a tile played as 5m in the middle of 4m-5m-6m, 5m the only face the 13 tiles wait on
    (a 5m of the 惠 kind, played as itself, counts as any 5m); with `params.seven_pairs`, also seven pairs won
    on a 5m completing the pair 55m (七对单吊五万), 5m the only wait."""
    b = r.winning_block
    if b is None or r.winning_as != FIVE_M or face_waits(r.tiles, r.ruleset.shapes) != (FIVE_M,):
        return 0
    if b.kind == CHOW and b.tiles == (3, 4, 5):
        return 1
    return int(bool(p.param("seven_pairs")) and r.shape == SEVEN_PAIRS and b.kind == PAIR)


@needs(wilds=4, held_wild=True)
@of_hand("rule.four_wilds")
def four_wilds(r: AnyReading, p: PatternView) -> int:
    """四惠牌 (绘杠, 混杠): holding all four tiles of a wild kind, melds included."""
    return int(r.four_of_a_wild_kind)


@needs(chows=3, suits="one")
@told(lambda r, p: int(bool(r.named(p.id)) or bool(r.named("dragon") and r.named("full_flush"))), rule="rule.both")
def pure_dragon(r: ReadingView, p: PatternView) -> int:
    """清龙: 一条龙 in a hand whose every tile, as read, is of the dragon's suit."""
    return int(bool(dragon(r, p)) and bool(full_flush(r, p)))


@needs(suits="one")
@told(lambda r, p: int(bool(r.named(p.id)) or bool(r.named("seven_pairs") and r.named("full_flush"))),
      rule="rule.both")
@only_on(SEVEN_PAIRS)
def full_flush_seven_pairs(r: ReadingView, p: PatternView) -> int:
    """清一色七对: seven pairs, every tile as read of one suit."""
    return int(r.shape == SEVEN_PAIRS and bool(full_flush(r, p)))


@situational("rule.dealer_win")
def dealer_win(r: ReadingView, p: PatternView) -> int:
    """庄胡: the dealer is the winner."""
    return int(r.situation.is_dealer)


@of_hand("rule.hui_on_wall", implies=("hui_on_wall", True))
def hui_on_wall(r: AnyReading, p: PatternView) -> int:
    """绘上墙: the winner put his 绘 up on the wall (the option) and holds none among the 14."""
    return int(bool(r.situation.extra("hui_on_wall")) and r.wild_tiles == 0)


def _drawn_win(situation: Situation) -> bool:
    """Won by drawing the tile oneself: no discard, no robbed kong."""
    return situation.self_drawn and not situation.rob_kong


@needs(chows=3, wilds=1, held_wild=True)
def own_hunr_dragon(r: "Reading", p: PatternView) -> int:
    """本混儿龙: a 一条龙 in the wildcard's own suit holding the hand's only wildcard tile, as itself."""
    kinds = r.tiles.wild_kinds
    if len(kinds) != 1 or kinds[0] >= 27 or r.wild_tiles != 1 or r.wild_roles:
        return 0
    suit = kinds[0] // 9
    chows = {b.tiles[0] for b in r.blocks if b.kind == CHOW}
    return int({9 * suit, 9 * suit + 3, 9 * suit + 6} <= chows)


@told(lambda r, p: int(r.wild_tiles == 0 or r.named("own_hunr_dragon") > 0), rule="rule.no_hunr")
def no_hunr(r: "Reading", p: PatternView) -> int:
    """无混儿: no wildcard tile among the 14 (as itself or not), or a 本混儿龙 (its one 混儿 counts as none)."""
    return int(r.wild_tiles == 0 or bool(own_hunr_dragon(r, p)))


@needs(held_wild=True)
@of_hand("rule.hunr_you", implies=("hunr_you", True))
def hunr_you(r: AnyReading, p: PatternView) -> int:
    """混儿悠: the winner declined earlier self-draws (the option), and now draws the win holding a 混儿."""
    return int(bool(r.situation.extra("hunr_you")) and _drawn_win(r.situation) and r.wild_tiles >= 1)


# --- payout schemes ------------------------------------------------------------------------------------


def _burn_part(payout: Payout, situation: Situation, unit_per_round: int, zh: str = "烧庄",
               en: str = "shaozhuang") -> None:
    """烧庄 (跟庄): K rounds, the dealer pays each other seat 2^(K-1) units."""
    rounds = situation.extra("shaozhuang", 0)
    if not rounds:
        return
    unit = 2 ** (rounds - 1) * unit_per_round
    burn = {s: unit for s in SEATS if s != situation.dealer}
    burn[situation.dealer] = -3 * unit
    # headed by the rounds (as a hand's context says 烧庄 1), never a unit: its cells are the amounts paid
    payout.add(f"{zh} {rounds}", f"{en} x{rounds}", burn, whoever_wins=True)


def _flat(score: "Score", ruleset: "Ruleset") -> bool:
    """A pattern with `params.flat` was scored: the hand is a fixed amount from each other seat."""
    return any(ruleset.pattern(m.pattern_id).param("flat") for m in score.matches)


def _each_other_pays(situation: Situation, amount: int) -> Dict[str, int]:
    hand: Dict[str, int] = {}
    for s in SEATS:
        if s != situation.seat:
            transfer(hand, s, situation.seat, amount)
    return hand


class Additive(Scheme):
    """北京: the hand part F·b from the discarder or from each seat on a self-draw; 烧庄; 互包."""

    meaning = ("self-draw: each other seat pays 番 × 底分; discard or 抢杠: the discarder pays it; a 互包 partner "
               "pays the winner's whole hand part; 烧庄 K: the dealer pays each other seat 2^(K−1) × 底分")

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        payout = Payout()
        winner, b, f = situation.seat, situation.base, score.total
        others = [s for s in SEATS if s != winner]
        hand: Dict[str, int] = {}
        per_payer = 3 * f * b if score.self_drawn else f * b
        partners = situation.extra("mutual", ())
        discarder = situation.discarder  # None: a self-draw (the situation is the score's, as paid)
        if partners:
            for partner in partners:
                transfer(hand, partner, winner, per_payer)
        elif discarder is None:
            for s in others:
                transfer(hand, s, winner, f * b)
        else:
            transfer(hand, discarder, winner, f * b)
        payout.add("和牌", "hand", hand)
        _burn_part(payout, situation, b)
        return payout


class MoneyTable(Scheme):
    """北京 2-4-8: rate × 2^F by who won and who paid, each payer capped."""

    meaning = "each payer pays its rate × 2^番 × 底分, at most payer_cap × 底分"
    params = {
        "discard": Param("平点: a non-dealer discards to a non-dealer; the discarder pays this rate"),
        "dealer_discards": Param("庄点: the dealer discards to a non-dealer; the dealer pays this rate"),
        "to_dealer": Param("点庄: anyone discards to the dealer; the discarder pays this rate"),
        "dealer_self_draw": Param("庄摸: the dealer self-draws; each other seat pays this rate"),
        "self_draw_dealer_pays": Param("平摸: a non-dealer self-draws; the dealer pays this rate"),
        "self_draw_other_pays": Param("平摸: a non-dealer self-draws; each other non-dealer pays this rate"),
        "payer_cap": Param("no single payer pays more than this (times 底分)"),
        "concealed_kong": Param("杠钱: each 暗杠 of the winner, each other seat pays this (times 底分); never capped, "
                                "never doubled by 上楼", required=False, default=20),
        "exposed_kong": Param("杠钱: each 明杠 of the winner written with its seat, [5555p]W, that seat (who "
                              "discarded the kong tile) pays this (times 底分); never capped, never doubled by 上楼",
                              required=False, default=10),
        "genzhuang": Param("跟庄 K (--shaozhuang K): the dealer pays each other seat this × 2^(K−1) (times 底分), "
                           "outside the cap, even when he wins", required=False, default=10),
    }

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:  # at the 平点 rate: a non-dealer paying a non-dealer
        return self.param(ruleset, "discard") * power_of_two(total, Message("payout.a_penalty"))

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        p = {key: self.param(ruleset, key) for key in ("discard", "dealer_discards", "to_dealer", "dealer_self_draw",
                                                       "self_draw_dealer_pays", "self_draw_other_pays", "payer_cap")}
        winner, dealer = situation.seat, situation.dealer
        unit = power_of_two(score.total, Message("region.a_hand_of", total=score.total, unit="番")) * situation.base
        cap = p["payer_cap"] * situation.base
        owed: Dict[str, int] = {}
        d = situation.discarder  # None: a self-draw (the situation is the score's, as paid)
        if d is None:
            for s in SEATS:
                if s == winner:
                    continue
                if winner == dealer:
                    rate = p["dealer_self_draw"]
                else:
                    rate = p["self_draw_dealer_pays"] if s == dealer else p["self_draw_other_pays"]
                owed[s] = rate * unit
        else:
            rate = p["to_dealer"] if winner == dealer else p["dealer_discards"] if d == dealer else p["discard"]
            owed[d] = rate * unit
        hand: Dict[str, int] = {}
        for s, amount in owed.items():
            transfer(hand, s, winner, min(amount, cap))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        _burn_part(payout, situation, self.param(ruleset, "genzhuang") * situation.base, "跟庄", "genzhuang")
        kongs: Dict[str, int] = {}
        for meld in score.reading.hand.melds if score.reading else ():
            if meld.kind != KONG:
                continue
            if meld.concealed:
                for s in SEATS:
                    if s != winner:
                        transfer(kongs, s, winner, self.param(ruleset, "concealed_kong") * situation.base)
            elif meld.claimed_from:
                transfer(kongs, meld.claimed_from, winner, self.param(ruleset, "exposed_kong") * situation.base)
        if any(kongs.values()):
            payout.add("杠钱", "kong money", kongs, doubled_at_table=False)
        return payout


class ClassicPoints(Scheme):
    """北京 competition rules: 番 × points per 番, a hand that broke 门清 paid half (rounded up); 烧庄 in points;
    互包."""

    meaning = ("P = 番 × points_per_fan × 底分; a hand that broke 门清 (吃, 碰 or 明杠) is paid half, rounded up to a "
               "whole point. Self-draw: each other seat pays P; discard: the discarder pays P; 抢杠: the robbed "
               "konger alone pays 3P. A 互包 partner pays the winner's whole hand part (3P on a self-draw or a rob, "
               "the discarder's share on a discard). 烧庄 K: the dealer pays each other seat shaozhuang × 2^(K−1) × "
               "底分")
    params = {
        "points_per_fan": Param("1 番 = this many points (the text cites a points table it does not give; 1000 is "
                                "our choice)", minimum=1, required=False, default=1000),
        "shaozhuang": Param("烧庄: for one round the dealer pays each other seat this many points (times 底分), "
                            "doubling per further round; not paid on a drawn hand", required=False, default=1000),
        "discarder_pays_all": Param("true: on a discard win the discarder pays the winner's self-draw total 3P, as "
                                    "the robbed konger does; false (the text's 3P read as the 抢杠 rule only): P",
                                    kind=bool, required=False, default=False),
    }

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return total * self.param(ruleset, "points_per_fan")

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        points = score.total * self.param(ruleset, "points_per_fan") * situation.base
        if score.reading is not None and not score.reading.hand.is_concealed:  # (no reading: a total agreed)
            points = -(-points // 2)
        # the hand part when one seat pays it all: a 互包 partner, the robbed konger, the discarder
        alone = score.self_drawn or situation.rob_kong or self.param(ruleset, "discarder_pays_all")
        whole = 3 * points if alone else points
        partners = situation.extra("mutual", ())
        hand: Dict[str, int] = {}
        discarder = situation.discarder  # None: a self-draw (the situation is the score's, as paid)
        if partners:
            for partner in partners:
                transfer(hand, partner, situation.seat, whole)
        elif discarder is None:
            hand = _each_other_pays(situation, points)
        else:
            transfer(hand, discarder, situation.seat, whole)
        payout = Payout()
        payout.add("和牌", "hand", hand)
        _burn_part(payout, situation, self.param(ruleset, "shaozhuang") * situation.base)
        return payout


class Doubling(Scheme):
    """北京 番数规则: each payer pays 2^番 chips; a payment to or from the dealer is doubled; a flat hand apart."""

    meaning = ("A = 2^番 × 底分. Self-draw: each other seat pays A; discard or 抢杠: the discarder pays A (each other "
               "seat with discard_each_pays). A payment to or from the dealer is times dealer_factor. A flat pattern "
               "(绘杠): each other seat pays its value × 底分, no dealer factor (unless flat_dealer_factor)")
    params = {
        "dealer_factor": Param("a payment to or from the dealer is multiplied by this (庄家和了，赢闲家双分筹码；"
                               "闲家和了，庄家也付双份)", minimum=1, maximum=100, required=False, default=2),
        "discard_each_pays": Param("true: on a discard win (or 抢杠) each other seat pays A, as on a self-draw; "
                                   "false: the discarder alone pays A", kind=bool, required=False, default=False),
        "flat_dealer_factor": Param("true: a payment of a flat pattern (绘杠) to or from the dealer is multiplied by "
                                    "dealer_factor too; false: the flat amount is the same from every seat",
                                    kind=bool, required=False, default=False),
    }

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return power_of_two(total, Message("payout.a_penalty"))

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        factor = self.param(ruleset, "dealer_factor")
        payers = [s for s in SEATS if s != situation.seat]
        if _flat(score, ruleset):
            amount = score.total * situation.base
            if not self.param(ruleset, "flat_dealer_factor"):
                factor = 1
        else:
            amount = power_of_two(score.total, Message("region.a_hand_of", total=score.total, unit="番")) \
                * situation.base
            discarder = situation.discarder  # None: a self-draw (the situation is the score's, as paid)
            if not (discarder is None or self.param(ruleset, "discard_each_pays")):
                payers = [discarder]
        hand: Dict[str, int] = {}
        for s in payers:
            transfer(hand, s, situation.seat, amount * (factor if situation.dealer in (s, situation.seat) else 1))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        return payout


class Hunr(Scheme):
    """北京 混儿: V = the factors' product on a 1点 base; 点炮 pays double; flat 40s; 烧庄 in 点."""

    meaning = ("V = 推倒胡 1 × every factor × 底分. Self-draw (and a robbed kong, scored as 自摸): each other seat "
               "pays V; discard: the discarder pays V × discarder_factor, the two others V. 混杠/天和/地和: each "
               "other seat pays flat × 底分. 烧庄 K: the dealer pays each other seat shaozhuang × 2^(K−1) × 底分. "
               "A hand with more than most_claims claimed 吃/碰 is no win")
    params = {
        "discarder_factor": Param("点炮: on a discard win the discarder pays V times this; the others pay V",
                                  minimum=1, maximum=100, required=False, default=2),
        "flat": Param("混杠, 天和, 地和: each other seat pays this (times 底分), whatever the hand",
                      required=False, default=40),
        "shaozhuang": Param("烧庄: for one round the dealer pays each other seat this (times 底分), doubling per "
                            "further round", required=False, default=10),
        "most_claims": Param("只能吃牌或者碰牌一次: a winning hand holds at most this many claimed 吃 or 碰 (a kong "
                             "does not count); 4 lifts the limit", maximum=4, required=False, default=1),
    }

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        payout = Payout()
        winner, b = situation.seat, situation.base
        if _flat(score, ruleset):
            hand = _each_other_pays(situation, self.param(ruleset, "flat") * b)
        else:
            v = score.total * b
            hand = {}
            for s in SEATS:
                if s != winner:
                    twice = not score.self_drawn and s == situation.discarder
                    transfer(hand, s, winner, v * self.param(ruleset, "discarder_factor") if twice else v)
        payout.add("和牌", "hand", hand)
        _burn_part(payout, situation, self.param(ruleset, "shaozhuang") * b)
        return payout


# --- the region ----------------------------------------------------------------------------------------


DETECTORS = {**COMMON, **{f.__name__: f for f in (
    concealed_no_wild, big_single_wait, catch_five, four_wilds, pure_dragon, full_flush_seven_pairs,
    dealer_win, hui_on_wall, own_hunr_dragon, no_hunr, hunr_you)}}


def claims(hand: Union[Hand, "ToldHand"]) -> List[str]:
    """The claimed 吃 and 碰 among the hand's melds, as written (an exposed kong is not counted); a total agreed
    without tiles has none."""
    return [str(m) for m in getattr(hand, "melds", ()) if m.exposed and m.kind != KONG]


def _too_many_claims(region: Region, ruleset: "Ruleset", hand: Union[Hand, "ToldHand"]) -> Optional[Message]:
    """`most_claims` of the ruleset's scheme (混儿: "只能吃牌或者碰牌一次，开杠不算在内"): why this hand holds more
    claimed 吃/碰 than it may, or None."""
    scheme = region.schemes.get(ruleset.payout)
    if scheme is None or "most_claims" not in scheme.params:
        return None
    most, held = scheme.param(ruleset, "most_claims"), claims(hand)
    if len(held) <= most:
        return None
    return Message("beijing.too_many_claims", ruleset=ruleset.id, most=most, count=len(held), melds=" ".join(held))


def _place(block: Block, stand: int) -> Tuple[bool, bool]:
    """What 大钓 and 捉五魁 see of the winning block: a pair; 4m-5m-6m with the winning tile as 5m."""
    return block.kind == PAIR, block.kind == CHOW and block.tiles == (3, 4, 5) and stand == 4


def _place_seen(active: Collection[str], ruleset: "Ruleset", tiles: "Tiles") -> bool:
    """Whether 大钓 or 捉五魁 can count on this hand at all: 大钓 needs four exposed melds, 捉五魁 a winning tile that
    can be 5m and 5m the only natural wait before it. When neither can, no detector reads the winning block."""
    if "big_single_wait" in active and sum(1 for m in tiles.hand.melds if m.exposed) == 4:
        return True
    if "catch_five" not in active:
        return False
    win = tiles.hand.winning
    if win != FIVE_M and win != WILD and win not in tiles.wild_kinds:
        return False
    return face_waits(tiles, ruleset.shapes) == (FIVE_M,)


STRAIGHTS = ("dragon", "pure_dragon", "own_hunr_dragon")  # the patterns that are a 一条龙 (清龙, 本混儿龙 …)


def _robbable(value: str, pattern_ids: FrozenSet[str]) -> Optional[Message]:
    """`wins.rob_concealed_kong`: any, never, or a pattern of the ruleset that the robbed tile must complete."""
    return None if value in ("any", "never") or value in pattern_ids else Message("ruleset.robbable_kong",
                                                                                   value=repr(value))


class Beijing(Region):
    id = "beijing"
    zh = "北京"
    en = "Beijing"
    exposed_rule_name = "吃碰堤"
    detectors = DETECTORS
    schemes = {"additive": Additive(), "money_table": MoneyTable(), "classic_points": ClassicPoints(),
               "doubling": Doubling(), "hunr": Hunr()}
    pattern_params = {
        "*": {"flat": Param("a base pattern paid flat (each other pays it × 底分), not by the scheme's table",
                            kind=bool, required=False)},
        "catch_five": {"seven_pairs": Param("also seven pairs won on 5m completing the pair 55m (七对单吊五万)",
                                            kind=bool, required=False)},
    }
    ruleset_keys = {"wins": {
        # a robbed kong is scored and paid as a self-draw (the konger pays like the others)
        "rob_kong_as_self_draw": RulesetKey(bool, False),
        # a concealed kong may be robbed: never, always, or only when the robbed tile completes that pattern
        "rob_concealed_kong": RulesetKey(str, "never", field="robbable_concealed_kong", check=_robbable),
    }}
    options = (
        Option("shaozhuang", "int", "K consecutive rounds of 烧庄 (跟庄) this hand (the dealer pays each other seat).",
               zh="烧庄", default=0, minimum=0, maximum=16, metavar="K"),
        Option("mutual", "seats", "The winner is in 互包 with SEAT, who pays his whole hand part (repeatable).",
               zh="互包", default=(), metavar="SEAT"),
        Option("rob_concealed", "flag", "With --rob-kong: the robbed kong was a concealed kong 暗杠.",
               zh="抢暗杠", default=False),
        Option("hui_on_wall", "flag", "绘上墙: the winner put his 绘 up on the wall and wins holding none.",
               zh="绘上墙", default=False),
        Option("hunr_you", "flag", "混儿悠: the winner declined earlier self-draws to win later with his 混儿 "
                                   "held, not used as a wildcard.", zh="混儿悠", default=False),
    )

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        if situation.seat in situation.extra("mutual", ()):
            raise SituationError("beijing.mutual_own_seat", field="mutual", label="mutual (互包)", seat=situation.seat)
        if situation.extra("rob_concealed") and not situation.rob_kong:
            raise SituationError("beijing.rob_concealed_needs_rob", field="rob_concealed", label="rob_concealed (抢暗杠)")

    def as_paid(self, ruleset: "Ruleset", situation: Situation) -> Situation:
        """`wins.rob_kong_as_self_draw`: a robbed kong is scored and paid as a self-draw (the konger pays like
        the others); the situation keeps `rob_kong`, so the rob is still known."""
        if ruleset.rob_kong_as_self_draw and situation.rob_kong and situation.discarder is not None:
            return situation.replace(discarder=None)
        return situation

    def automatic_win(self, ruleset: "Ruleset", situation: Situation,
                      tiles: HandTiles) -> Optional[Union[Notice, Literal[""]]]:
        """四惠牌 (绘杠, 混杠): all four tiles of a wildcard kind win whatever the shape, paid as a self-draw; not a
        hand holding more claimed 吃/碰 than `most_claims` (it is judged as any hand, and refused)."""
        if "four_wilds" not in {p.id for p in ruleset.patterns} or _too_many_claims(self, ruleset, tiles.hand):
            return None
        if not tiles.four_of_a_wild_kind:
            return None
        if situation.self_drawn:
            return ""
        return Notice("beijing.four_wilds_from_ignored", field="from", pattern=ruleset.pattern("four_wilds").zh,
                      seat=situation.discarder)

    def automatic_pattern(self, ruleset: "Ruleset") -> Optional[str]:
        """四惠牌 (绘杠, 混杠), where the ruleset has it."""
        return "four_wilds" if "four_wilds" in {p.id for p in ruleset.patterns} else None

    def automatic_held(self, ruleset: "Ruleset") -> Optional[int]:
        """四惠牌 is drawn holding three of a 惠 kind (the fourth) or four (any tile): see `automatic_draws`."""
        return 3 if self.automatic_pattern(ruleset) else None

    def automatic_draws(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[Tuple[int, ...]]:
        """四惠牌 by a draw: the fourth tile of a 惠 kind, or any tile once all four are held."""
        if "four_wilds" not in {p.id for p in ruleset.patterns} or not tiles.wild_kinds or \
                _too_many_claims(self, ruleset, tiles.hand):
            return None
        if any(tiles.held[k] == 4 for k in tiles.wild_kinds):
            return tuple(range(NUM_KINDS))
        return tuple(k for k in tiles.wild_kinds if tiles.held[k] == 3)

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits: 清龙 and 本混儿龙 see a straight as 一条龙 does, 清一色七对 the suit
        as 清一色 does; 大钓 and 捉五魁 look at the winning block (`_place`), and so does the refusal of a robbed
        concealed kong that must complete 一条龙; 本混儿龙 (and 无混儿 through it) reads what the hand's one 混儿
        stands for. The rest read the hand and the situation."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = {p.id for p in ruleset.patterns}
        seen = set(active)
        if {"pure_dragon", "own_hunr_dragon", "no_hunr"} & active:
            seen.add("dragon")
        if {"pure_dragon", "full_flush_seven_pairs"} & active:
            seen.add("full_flush")
        robbed_dragon = bool(situation.rob_kong and situation.extra("rob_concealed")
                             and ruleset.robbable_concealed_kong == "dragon")
        if robbed_dragon:
            seen.add("dragon")
        place = _place if robbed_dragon or _place_seen(active, ruleset, tiles) else None
        roles = bool({"own_hunr_dragon", "no_hunr"} & active) and tiles.wild_tiles == 1
        traits = block_traits(seen, tiles)
        return ReadingKeys(traits, place, wild_roles=roles, counted=counted_traits, summary=traits_summary,
                           signature=(self.id, traits.signature))

    def refusal(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles, matches: Sequence["Match"],
                total: int) -> Optional[Message]:
        """A hand holding more claimed 吃/碰 than the scheme's `most_claims` is no win, however it was won; then
        the region's rules for every hand (吃碰堤, three 惠, the minimum)."""
        too_many = _too_many_claims(self, ruleset, tiles.hand)
        if too_many is not None:
            return too_many
        return super().refusal(ruleset, situation, tiles, matches, total)

    def reading_refusal(self, ruleset: "Ruleset", reading: AnyReading, matches: Sequence["Match"]) -> Optional[Message]:
        """`wins.rob_concealed_kong`: a concealed kong may be robbed never, always, or only when the robbed tile
        completes the named pattern (`dragon`: it sits in one of the 一条龙's three chows)."""
        s = reading.situation
        if not (s.rob_kong and s.extra("rob_concealed")):
            return None
        rule = ruleset.robbable_concealed_kong
        if rule == "any":
            return None
        if rule == "dragon" and reading.told:
            # the table says the robbed tile completed it: a 一条龙 is named
            if any(reading.named(pid) for pid in STRAIGHTS):


                return None
            return Message("beijing.rob_concealed_only_for", pattern=ruleset.pattern("dragon").zh)
        if rule == "dragon":
            b = reading.winning_block
            chows = {x.tiles[0] for x in reading.blocks if x.kind == CHOW}
            if b is not None and b.kind == CHOW and b.tiles[0] < 27 and b.tiles[0] % 9 in (0, 3, 6) and \
                    {b.tiles[0] - b.tiles[0] % 9 + k for k in (0, 3, 6)} <= chows:
                return None
            return Message("beijing.rob_concealed_only_for", pattern=ruleset.pattern("dragon").zh)
        if rule == "never":
            return Message("beijing.rob_concealed_never", ruleset=ruleset.id)
        if any(m.pattern_id == rule for m in matches):  # a house rule naming another pattern: it counts here
            return None
        return Message("beijing.rob_concealed_only_for", pattern=ruleset.pattern(rule).zh)

    def notices(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles,
                matches: Sequence["Match"]) -> List[Notice]:
        """An option this hand cannot use (绘上墙 holding a 绘, 混儿悠 not on a drawn win holding a 混儿), and a
        明杠 that cannot earn kong money because it does not say from whom it was claimed."""
        out = []
        ids = {p.id for p in ruleset.patterns}
        wild = ruleset.wild_zh
        if situation.extra("hui_on_wall") and "hui_on_wall" in ids and tiles.wild_tiles:
            out.append(Notice("beijing.hui_on_wall_held", field="hui_on_wall", pattern=ruleset.pattern("hui_on_wall").zh,
                              wild=wild, count=tiles.wild_tiles))
        if situation.extra("hunr_you") and "hunr_you" in ids and not (_drawn_win(situation) and tiles.wild_tiles):
            out.append(Notice("beijing.hunr_you_not_drawn", field="hunr_you", pattern=ruleset.pattern("hunr_you").zh,
                              wild=wild))
        scheme = self.schemes.get(ruleset.payout)
        if isinstance(scheme, MoneyTable) and scheme.param(ruleset, "exposed_kong"):
            for meld in tiles.hand.melds:
                if meld.kind == KONG and meld.exposed and not meld.claimed_from:
                    if not meld.tiles:  # a kong of a hand told without its tiles
                        out.append(Notice("beijing.told_kong_unclaimed", field="kong", label="kong money",
                                          seat=situation.seat))
                    else:
                        out.append(Notice("beijing.kong_unclaimed", field="hand", label="kong money",
                                          meld=str(meld)[1:-1]))
        return out

    def seat_roles(self, situation: Situation, self_drawn: bool) -> Dict[str, List[str]]:

        roles = super().seat_roles(situation, self_drawn)
        for seat in situation.extra("mutual", ()):
            roles[seat].append("互包 partner")
        return roles


REGION = Beijing()
