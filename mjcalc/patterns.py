"""Pattern detectors: small named predicates over one reading of a hand.

A detector takes a `Reading` (see scoring.py) and its `Pattern` (for parameters) and returns how many
times the pattern applies: 0 for not at all. Values, names and exclusions come from the ruleset; never here.
Region-specific detectors live in `patterns_<region>.py` and register here too.
"""
from typing import Callable, Dict

from .shapes import NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, THIRTEEN_ORPHANS
from .hand import CHOW, KONG, PAIR, PUNG
from .tiles import DRAGONS, HONORS, WINDS, is_terminal_or_honor

DETECTORS: Dict[str, Callable] = {}


def pattern(pattern_id: str):
    """Register a detector under the id the rulesets use."""

    def register(func):
        DETECTORS[pattern_id] = func
        return func

    return register


def _sets(r):
    return [b for b in r.blocks if b.kind in (CHOW, PUNG, KONG)]


def _is_pung(b) -> bool:
    return b.kind in (PUNG, KONG)


@pattern("tuidaohe")
def tuidaohe(r, p):
    """推倒和: a plain win; the ruleset lists the patterns that replace it."""
    return 1


@pattern("dealer")
def dealer(r, p):
    """庄: the dealer wins, or the dealer deals in."""
    s = r.situation
    return int(s.is_dealer or s.discarder == s.dealer)


@pattern("concealed")
def concealed(r, p):
    """门清: no 吃, 碰 or 明杠 (a concealed kong is fine)."""
    return int(r.hand.is_concealed)


@pattern("concealed_no_wild")
def concealed_no_wild(r, p):
    """门清无惠: concealed, and no wildcard tile among the 14."""
    return int(r.hand.is_concealed and r.wild_tiles == 0)


@pattern("all_pungs")
def all_pungs(r, p):
    """对对和: four pungs or kongs and a pair."""
    return int(r.shape == STANDARD and all(_is_pung(b) for b in _sets(r)))


@pattern("big_single_wait")
def big_single_wait(r, p):
    """大钓 全求人: four exposed melds, won on the single tile left in hand."""
    exposed = [m for m in r.hand.melds if m.exposed]
    return int(r.shape == STANDARD and len(exposed) == 4 and r.winning_block is not None
               and r.winning_block.kind == PAIR)


@pattern("catch_five")
def catch_five(r, p):
    """捉五魁: won on 5m as the middle of 4m-5m-6m, 5m the hand's only wait."""
    b = r.winning_block
    return int(
        b is not None and b.kind == CHOW and b.tiles == (3, 4, 5) and r.winning_as == 4
        and r.natural_waits_before == (4,)
    )


@pattern("sea_bottom")
def sea_bottom(r, p):
    """海底捞月: won on the last tile."""
    return int(r.situation.last_tile)


@pattern("dragon")
def dragon(r, p):
    """一条龙: 123, 456 and 789 of one suit as three chows."""
    chows = {b.tiles[0] for b in _sets(r) if b.kind == CHOW}
    return int(any({9 * s, 9 * s + 3, 9 * s + 6} <= chows for s in range(3)))


@pattern("seven_pairs")
def seven_pairs(r, p):
    """七对子: seven pairs (four identical tiles are two)."""
    return int(r.shape == SEVEN_PAIRS)


@pattern("luxury_seven_pairs")
def luxury_seven_pairs(r, p):
    """豪华七对子: seven pairs holding four identical tiles; counts the fours."""
    if r.shape != SEVEN_PAIRS:
        return 0
    pairs = [b.tiles[0] for b in r.blocks]
    return sum(pairs.count(t) // 2 for t in set(pairs))


@pattern("kong_bloom")
def kong_bloom(r, p):
    """杠上开花: self-drawn on a kong replacement; with `per_kong`, counts the consecutive kongs."""
    s = r.situation
    if not (s.kong_draw and s.self_drawn):
        return 0
    return s.kong_draw if p.param("per_kong") else 1


@pattern("full_flush")
def full_flush(r, p):
    """清一色: every tile of one suit, no honors."""
    suits = {t // 9 if t < 27 else 3 for t in r.kinds}
    return int(len(suits) == 1 and 3 not in suits)


@pattern("half_flush")
def half_flush(r, p):
    """混一色: one suit and honors, both present."""
    suits = {t // 9 if t < 27 else 3 for t in r.kinds}
    return int(len(suits) == 2 and 3 in suits)


@pattern("four_wilds")
def four_wilds(r, p):
    """四惠牌: holding all four tiles of a wild kind."""
    return int(r.four_of_a_wild_kind)


@pattern("heavenly")
def heavenly(r, p):
    """天和: the dealer is complete before discarding."""
    return int(r.situation.first_turn and r.situation.is_dealer)


@pattern("earthly")
def earthly(r, p):
    """地和: a non-dealer wins before discarding."""
    return int(r.situation.first_turn and not r.situation.is_dealer)


@pattern("all_honors")
def all_honors(r, p):
    """全字牌: every tile an honor."""
    return int(all(t in HONORS for t in r.kinds))


@pattern("thirteen_orphans")
def thirteen_orphans(r, p):
    """十三幺: one of each terminal and honor, and one more."""
    return int(r.shape == THIRTEEN_ORPHANS)


@pattern("thirteen_lonely")
def thirteen_lonely(r, p):
    """十三浪: fourteen lonely tiles."""
    return int(r.shape == THIRTEEN_LONELY)


@pattern("nine_terminals")
def nine_terminals(r, p):
    """九幺: every tile a terminal or an honor."""
    return int(r.shape == NINE_TERMINALS)


@pattern("all_terminals_and_honors")
def all_terminals_and_honors(r, p):
    """幺九: every tile a terminal or an honor, in any shape."""
    return int(all(is_terminal_or_honor(t) for t in r.kinds))


@pattern("dragon_pung")
def dragon_pung(r, p):
    """中发白: a pung or kong of a dragon; counts them."""
    return sum(1 for b in _sets(r) if _is_pung(b) and b.tiles[0] in DRAGONS)


@pattern("rob_kong")
def rob_kong(r, p):
    """抢杠: won by robbing a kong."""
    return int(r.situation.rob_kong)


def seat_wind(situation) -> int:
    """The winner's own wind, counted from the dealer: the dealer East, his right South, and so on."""
    order = "ESWN"
    return WINDS[(order.index(situation.seat) - order.index(situation.dealer)) % 4]


from . import patterns_zhuji, patterns_shangrao  # noqa: E402,F401  (they register themselves)
