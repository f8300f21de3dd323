"""Beijing 北京麻将: what the region means.

Wildcards 惠 (混儿); 吃碰堤 (a hand with an exposed meld must self-draw); 四惠牌 (all four 惠 win whatever the
shape, paid as a self-draw); 烧庄 (the dealer pays each other seat) and 互包 (a partner pays the winner's whole
hand). Two payout schemes: `additive` (番 × 底分) and `money_table` (the 2-4-8 table, rate × 2^番, capped).
"""
from typing import Dict, List

from ..errors import Notice, SituationError
from ..hand import CHOW, PAIR
from ..patterns import COMMON, block_traits
from ..payouts import Param, Payout, Scheme, transfer
from ..shapes import STANDARD
from ..situation import Option
from ..tiles import SEATS
from .base import ReadingKeys, Region, own_detectors


# --- detectors -----------------------------------------------------------------------------------------


def tuidaohe(r, p):
    """推倒和: a plain win; the ruleset lists the patterns that replace it."""
    return 1


def concealed_no_wild(r, p):
    """门清无惠: concealed, and no 惠 tile among the 14."""
    return int(r.hand.is_concealed and r.wild_tiles == 0)


def big_single_wait(r, p):
    """大钓 全求人: four exposed melds, won on the single tile left in hand."""
    exposed = [m for m in r.hand.melds if m.exposed]
    return int(r.shape == STANDARD and len(exposed) == 4 and r.winning_block is not None
               and r.winning_block.kind == PAIR)


def catch_five(r, p):
    """捉五魁: won on 5m as the middle of 4m-5m-6m, 5m the hand's only wait."""
    b = r.winning_block
    return int(
        b is not None and b.kind == CHOW and b.tiles == (3, 4, 5) and r.winning_as == 4
        and r.natural_waits_before == (4,)
    )


def four_wilds(r, p):
    """四惠牌: holding all four tiles of a wild kind."""
    return int(r.four_of_a_wild_kind)


# --- payout schemes ------------------------------------------------------------------------------------


def _burn_part(payout: Payout, situation, unit_per_round: int):
    """烧庄: K rounds, the dealer pays each other seat 2^(K-1) units."""
    rounds = situation.extra("shaozhuang", 0)
    if not rounds:
        return
    unit = 2 ** (rounds - 1) * unit_per_round
    burn = {s: unit for s in SEATS if s != situation.dealer}
    burn[situation.dealer] = -3 * unit
    payout.add(f"烧庄 {rounds}番", f"shaozhuang x{rounds}", burn)


class Additive(Scheme):
    """北京: the hand part F·b from the discarder or from each seat on a self-draw; 烧庄; 互包."""

    meaning = ("self-draw: each other seat pays 番 × 底分; discard or 抢杠: the discarder pays it; a 互包 partner "
               "pays the winner's whole hand part; 烧庄 K: the dealer pays each other seat 2^(K−1) × 底分")

    def pay(self, score, situation, ruleset) -> Payout:
        payout = Payout()
        winner, b, f = situation.seat, situation.base, score.total
        others = [s for s in SEATS if s != winner]
        hand = {}
        per_payer = 3 * f * b if score.self_drawn else f * b
        partners = situation.extra("mutual", ())
        if partners:
            for partner in partners:
                transfer(hand, partner, winner, per_payer)
        elif score.self_drawn:
            for s in others:
                transfer(hand, s, winner, f * b)
        else:
            transfer(hand, situation.discarder, winner, f * b)
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
    }

    def pay(self, score, situation, ruleset) -> Payout:
        p = dict(ruleset.payout_params)
        winner, dealer = situation.seat, situation.dealer
        unit = 2 ** score.total * situation.base
        cap = p["payer_cap"] * situation.base
        owed = {}
        if score.self_drawn:
            for s in SEATS:
                if s == winner:
                    continue
                if winner == dealer:
                    rate = p["dealer_self_draw"]
                else:
                    rate = p["self_draw_dealer_pays"] if s == dealer else p["self_draw_other_pays"]
                owed[s] = rate * unit
        else:
            d = situation.discarder
            rate = p["to_dealer"] if winner == dealer else p["dealer_discards"] if d == dealer else p["discard"]
            owed[d] = rate * unit
        hand = {}
        for s, amount in owed.items():
            transfer(hand, s, winner, min(amount, cap))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        return payout


# --- the region ----------------------------------------------------------------------------------------


DETECTORS = {**COMMON, **{f.__name__: f for f in (
    tuidaohe, concealed_no_wild, big_single_wait, catch_five, four_wilds)}}


def _place(block, stand) -> tuple:
    """What 大钓 and 捉五魁 see of the winning block: a pair; 4m-5m-6m with the winning tile as 5m."""
    return block.kind == PAIR, block.kind == CHOW and block.tiles == (3, 4, 5) and stand == 4


class Beijing(Region):
    id = "beijing"
    zh = "北京"
    en = "Beijing"
    exposed_rule_name = "吃碰堤"
    detectors = DETECTORS
    schemes = {"additive": Additive(), "money_table": MoneyTable()}
    options = (
        Option("shaozhuang", "int", "K consecutive rounds of 烧庄 this hand (the dealer pays each other seat).",
               zh="烧庄", default=0, minimum=0, maximum=16, metavar="K"),
        Option("mutual", "seats", "The winner is in 互包 with SEAT, who pays his whole hand part (repeatable).",
               zh="互包", default=(), metavar="SEAT"),
    )

    def check_situation(self, ruleset, situation):
        super().check_situation(ruleset, situation)
        if situation.seat in situation.extra("mutual", ()):
            detail = f"{situation.seat} is the winner's own seat"
            raise SituationError(f"mutual (互包): {detail}", "mutual", detail)

    def automatic_win(self, ruleset, situation, tiles):
        """四惠牌: all four tiles of a 惠 kind win whatever the shape, and are paid as a self-draw."""
        if "four_wilds" not in {p.id for p in ruleset.patterns}:
            return None
        if not any(tiles.held[k] == 4 for k in tiles.wild_kinds):
            return None
        if situation.self_drawn:
            return ""
        detail = f"四惠牌 wins whatever the shape and is paid as a self-draw, not on {situation.discarder}'s discard"
        return Notice(f"from: {detail}", "from", detail)

    def reading_keys(self, ruleset, situation, tiles):
        """Besides the common detectors' traits, only 大钓 and 捉五魁 look at a block, the winning one (`_place`);
        the rest read the hand and the situation, and none reads what a 惠 stands for."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = {p.id for p in ruleset.patterns}
        place = _place if {"catch_five", "big_single_wait"} & active else None
        return ReadingKeys(block_traits(active, tiles), place)

    def seat_roles(self, situation, self_drawn: bool) -> Dict[str, List[str]]:
        roles = super().seat_roles(situation, self_drawn)
        for seat in situation.extra("mutual", ()):
            roles[seat].append("互包 partner")
        return roles


REGION = Beijing()
