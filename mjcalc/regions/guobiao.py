"""国标麻将 (MCR, the Chinese Official rules), by 中国麻将竞赛规则（试行）(1998) as the MIL rules committee's 2025
supplement reads it: what the region means.

144 tiles, the eight flowers set aside beside the hand (花牌, 1 番 each, never toward the minimum). No wildcard.
Shapes: four sets and a pair, 七对, 十三幺, 全不靠 (七星不靠 with all seven honours) and 组合龙 with a set and a pair.
The 81 番 (and the supplement's 明暗杠) add up; a win needs 8 番 without the flowers. Their exclusions are the
book's principles as the engine applies them: 不重复 is each 番's `excludes` (its 不计 list), 就高不就低 is the
scorer's best reading, and the 番 made of sets (一般高, 喜相逢 … 一色四节高: `combines` in the ruleset, `of_sets`
here) are selected by the scorer under 不拆移, 不得相同 and 套算一次 (`scoring.selections`). The discarder pays 8 + the
total, the other two 8 each; a self-draw, 8 + the total from each of the three (book p. 28). The deal passes after
every hand, and the prevalent wind is the round's (`--prevalent`, filled at a table). rulesets/guobiao.md gives the
rules with the books' pages, and what was chosen where they are silent or differ.
"""
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..decompose import Block
from ..errors import ImpossibleSituation
from ..hand import CHOW, KONG, PAIR, PUNG, Hand
from ..patterns import COMMON, PatternView, ReadingView, counts, of_hand, of_sets, only_on, per_hand, situational
from ..patterns import seat_wind as wind_of_seat
from ..payouts import Param, Payout, Scheme, transfer
from ..shapes import KNITTED, KNITTED_SETS, KNITTED_STRAIGHT, SEVEN_PAIRS, STANDARD, is_complete
from ..situation import Option, Situation
from ..tiles import DRAGONS, HONORS, NAMES, NUM_KINDS, SEATS, WINDS
from .base import Region, detectors

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Reading, Score, Tiles
    from ..session import State

Sets = Tuple[Block, ...]  # the sets a pattern made of sets is checked on, in the order of their tiles

GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2 3 4 6 8 条 and 发
REVERSIBLE = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33))  # 1234589 饼, 245689 条, 白
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999 of one suit


def _suit(t: int) -> int:
    """0, 1, 2 for 万 饼 条; 3 for an honour."""
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    """1-9 of a suit tile; 0 for an honour."""
    return t % 9 + 1 if t < 27 else 0


def _all(r: ReadingView, ranks: FrozenSet[int]) -> bool:
    """Every tile of the hand a suit tile of one of `ranks`."""
    return all(_rank(t) in ranks for t in r.kinds)


def _is_pung(b: Block) -> bool:
    return b.kind in (PUNG, KONG)


def _pungs(r: ReadingView, kinds: Sequence[int]) -> List[int]:
    return [b.tiles[0] for b in r.sets if _is_pung(b) and b.tiles[0] in kinds]


def _pair(r: ReadingView) -> Optional[int]:
    pairs = [b.tiles[0] for b in r.blocks if b.kind == PAIR]
    return pairs[0] if len(pairs) == 1 else None


def _kongs(r: ReadingView) -> Tuple[int, int]:
    """(exposed kongs, concealed kongs) of the hand."""
    kongs = [m for m in r.hand.melds if m.kind == KONG]
    return sum(1 for m in kongs if not m.concealed), sum(1 for m in kongs if m.concealed)


def concealed_pungs(r: "Reading") -> int:
    """暗刻: pungs of the concealed tiles and concealed kongs; a pung the winning tile completes on a discard is
    exposed (natsuki p. 4), unless the reading puts that tile elsewhere (natsuki p. 14: the best reading counts)."""
    if r.decomposition is None:
        return 0
    won_on_discard = not r.situation.self_drawn
    pungs = sum(1 for b in r.decomposition.blocks
                if b.kind == PUNG and not (won_on_discard and b == r.winning_block))
    return pungs + _kongs(r)[1]


def prevalent(situation: Situation) -> int:
    """The round's wind (圈风) as a tile: `prevalent`, East unless given."""
    return WINDS[SEATS.index(situation.extra("prevalent") or "E")]


_WAITS: Dict[Tuple[Any, ...], Tuple[int, ...]] = {}


def shape_waits(r: "Reading") -> Tuple[int, ...]:
    """Every kind that completes the 13 tiles before the winning tile, a kind whose four copies the hand already
    holds included (附件1 (十): 形式上听多种牌): what decides 边张, 坎张 and 单钓将."""
    b = r.tiles.before
    key = (b.naturals, b.melds, r.ruleset.shapes)
    hit = _WAITS.get(key)
    if hit is None:
        counts_ = list(b.naturals)
        found = []
        for t in range(NUM_KINDS):
            counts_[t] += 1
            if is_complete(counts_, 0, b.melds, r.ruleset.shapes):
                found.append(t)
            counts_[t] -= 1
        if len(_WAITS) >= 4096:
            _WAITS.clear()
        hit = _WAITS[key] = tuple(found)
    return hit


def _sole_wait(r: "Reading") -> Optional[Block]:
    """The block the winning tile completes, when the hand could have won on no other tile; else None."""
    if r.winning_block is None or shape_waits(r) != (r.winning_as,):
        return None
    return r.winning_block


# --- the 番 of the whole hand -----------------------------------------------------------------------------


@only_on(STANDARD)
def big_four_winds(r: ReadingView, p: PatternView) -> int:
    """大四喜: pungs or kongs of the four winds."""
    return int(len(_pungs(r, WINDS)) == 4)


@only_on(STANDARD)
def big_three_dragons(r: ReadingView, p: PatternView) -> int:
    """大三元: pungs or kongs of the three dragons."""
    return int(len(_pungs(r, DRAGONS)) == 3)


def all_green(r: ReadingView, p: PatternView) -> int:
    """绿一色: every tile one of 2 3 4 6 8 条 and 发."""
    return int(r.kinds <= GREEN)


@per_hand
def nine_gates(r: Any, p: PatternView) -> int:
    """九莲宝灯: concealed, and the 13 tiles before the win are 1112345678999 of one suit."""
    if r.hand.melds:
        return 0
    counts_ = r.tiles.before.naturals
    return int(any(tuple(counts_[9 * s:9 * s + 9]) == NINE_GATES for s in range(3)))


@of_hand("rule.four_kongs")
def four_kongs(r: ReadingView, p: PatternView) -> int:
    """四杠: four kongs, exposed or concealed."""
    return int(sum(_kongs(r)) == 4)


@only_on(SEVEN_PAIRS)
def seven_shifted_pairs(r: ReadingView, p: PatternView) -> int:
    """连七对: seven pairs of one suit in seven consecutive ranks."""
    kinds = sorted(r.kinds)
    return int(len(kinds) == 7 and len({_suit(t) for t in kinds}) == 1 and kinds[0] < 27
               and kinds[-1] - kinds[0] == 6)


def all_terminals(r: ReadingView, p: PatternView) -> int:
    """清幺九: only 1s and 9s of the suits."""
    return int(_all(r, frozenset((1, 9))))


@only_on(STANDARD)
def little_four_winds(r: ReadingView, p: PatternView) -> int:
    """小四喜: pungs or kongs of three winds and a pair of the fourth."""
    return int(len(_pungs(r, WINDS)) == 3 and _pair(r) in WINDS)


@only_on(STANDARD)
def little_three_dragons(r: ReadingView, p: PatternView) -> int:
    """小三元: pungs or kongs of two dragons and a pair of the third."""
    return int(len(_pungs(r, DRAGONS)) == 2 and _pair(r) in DRAGONS)


@only_on(STANDARD)
def four_concealed_pungs(r: Any, p: PatternView) -> int:
    """四暗刻: four concealed pungs (concealed kongs among them)."""
    return int(concealed_pungs(r) == 4)


def _terminal_chows(r: ReadingView) -> Optional[Tuple[List[int], Optional[int]]]:
    """The suits of the chows of a standard reading of four chows, all 123 or 789, and the pair; None otherwise."""
    chows = [b.tiles[0] for b in r.sets if b.kind == CHOW]
    if r.shape != STANDARD or len(chows) != 4 or any(_rank(t) not in (1, 7) for t in chows):
        return None
    return chows, _pair(r)


@only_on(STANDARD)
def pure_terminal_chows(r: ReadingView, p: PatternView) -> int:
    """一色双龙会: 123 123 789 789 of one suit and a pair of its 5."""
    held = _terminal_chows(r)
    if held is None or held[1] is None:
        return 0
    chows, pair = held
    s = _suit(chows[0])
    return int(sorted(chows) == [9 * s, 9 * s, 9 * s + 6, 9 * s + 6] and pair == 9 * s + 4)


@of_hand("rule.three_kongs")
def three_kongs(r: ReadingView, p: PatternView) -> int:
    """三杠: three kongs, exposed or concealed."""
    return int(sum(_kongs(r)) == 3)


def all_terminals_and_honors(r: ReadingView, p: PatternView) -> int:
    """混幺九: only 1s, 9s and honours, both present."""
    return int(_all(r, frozenset((0, 1, 9))) and any(t in HONORS for t in r.kinds)
               and any(t < 27 for t in r.kinds))


@only_on(SEVEN_PAIRS)
def seven_pairs(r: ReadingView, p: PatternView) -> int:
    """七对: seven pairs (four alike are two)."""
    return int(r.shape == SEVEN_PAIRS)


@only_on(KNITTED)
def greater_honors_and_knitted_tiles(r: ReadingView, p: PatternView) -> int:
    """七星不靠: 全不靠 holding all seven honours."""
    return int(set(HONORS) <= r.kinds)


@only_on(STANDARD)
def all_even_pungs(r: ReadingView, p: PatternView) -> int:
    """全双刻: four pungs or kongs and a pair, all of 2, 4, 6 or 8."""
    return int(r.only_pungs and _all(r, frozenset((2, 4, 6, 8))))


def full_flush(r: ReadingView, p: PatternView) -> int:
    """清一色: only tiles of one suit."""
    return int(len({_suit(t) for t in r.kinds}) == 1 and min(r.kinds) < 27)


def upper_tiles(r: ReadingView, p: PatternView) -> int:
    """全大: only 7s, 8s and 9s."""
    return int(_all(r, frozenset((7, 8, 9))))


def middle_tiles(r: ReadingView, p: PatternView) -> int:
    """全中: only 4s, 5s and 6s."""
    return int(_all(r, frozenset((4, 5, 6))))


def lower_tiles(r: ReadingView, p: PatternView) -> int:
    """全小: only 1s, 2s and 3s."""
    return int(_all(r, frozenset((1, 2, 3))))


@only_on(STANDARD)
def three_suited_terminal_chows(r: ReadingView, p: PatternView) -> int:
    """三色双龙会: 123 and 789 in each of two suits and a pair of 5 in the third."""
    held = _terminal_chows(r)
    if held is None or held[1] is None:
        return 0
    chows, pair = held[0], held[1]
    suits = sorted({_suit(t) for t in chows})
    if len(suits) != 2 or _rank(pair) != 5 or _suit(pair) in suits:
        return 0
    return int(sorted(chows) == sorted(9 * s + k for s in suits for k in (0, 6)))


@only_on(STANDARD)
def all_five(r: ReadingView, p: PatternView) -> int:
    """全带五: every set and the pair holds a 5."""
    return int(all(any(_rank(t) == 5 for t in b.tiles) for b in r.blocks))


@only_on(STANDARD, KNITTED_STRAIGHT)
def three_concealed_pungs(r: Any, p: PatternView) -> int:
    """三暗刻: three concealed pungs (concealed kongs among them)."""
    return int(concealed_pungs(r) == 3)


@only_on(KNITTED)
def lesser_honors_and_knitted_tiles(r: ReadingView, p: PatternView) -> int:
    """全不靠: fourteen singles of a knitted 147/258/369 set in three suits and the honours."""
    return int(r.shape == KNITTED)


@only_on(KNITTED_STRAIGHT, KNITTED)
def knitted_straight(r: ReadingView, p: PatternView) -> int:
    """组合龙: 147 of one suit, 258 of another and 369 of the third, with a set and a pair, or in a 全不靠 (p. 76)."""
    if r.shape == KNITTED_STRAIGHT:
        return 1
    return int(any(set(knitted) <= r.kinds for knitted in KNITTED_SETS))


def upper_four(r: ReadingView, p: PatternView) -> int:
    """大于五: only 6s, 7s, 8s and 9s."""
    return int(_all(r, frozenset((6, 7, 8, 9))))


def lower_four(r: ReadingView, p: PatternView) -> int:
    """小于五: only 1s, 2s, 3s and 4s."""
    return int(_all(r, frozenset((1, 2, 3, 4))))


@only_on(STANDARD)
def big_three_winds(r: ReadingView, p: PatternView) -> int:
    """三风刻: pungs or kongs of three winds."""
    return int(len(_pungs(r, WINDS)) == 3)


def reversible_tiles(r: ReadingView, p: PatternView) -> int:
    """推不倒: only tiles that look the same upside down: 1234589 饼, 245689 条, 白."""
    return int(r.kinds <= REVERSIBLE)


@only_on(STANDARD, KNITTED_STRAIGHT)
def chicken_hand(r: ReadingView, p: PatternView) -> int:
    """无番和: a win of sets and a pair; every other 番 excludes it (the ruleset's `excluded_by`), so it counts only
    where none of them does."""
    return 1


@situational("rule.last_tile_draw", implies=("last_tile", True))
def last_tile_draw(r: ReadingView, p: PatternView) -> int:
    """妙手回春: self-drawing the wall's last tile."""
    return int(r.situation.last_tile and r.situation.self_drawn)


@situational("rule.last_tile_claim", implies=("last_tile", True))
def last_tile_claim(r: ReadingView, p: PatternView) -> int:
    """海底捞月: winning on the discard made after the wall's last tile was drawn."""
    return int(r.situation.last_tile and not r.situation.self_drawn)


@situational("rule.kong_bloom", implies=("kong_draw", True))
def out_with_replacement_tile(r: ReadingView, p: PatternView) -> int:
    """杠上开花: self-drawn on the replacement tile for one's own kong."""
    return int(bool(r.situation.kong_draw) and r.situation.self_drawn)


@situational("rule.rob_kong", implies=("rob_kong", True))
def robbing_the_kong(r: ReadingView, p: PatternView) -> int:
    """抢杠和: winning on the tile another player adds to his exposed pung."""
    return int(r.situation.rob_kong)


def all_types(r: ReadingView, p: PatternView) -> int:
    """五门齐: the three suits, a wind and a dragon."""
    return int({0, 1, 2} <= {_suit(t) for t in r.kinds} and any(t in WINDS for t in r.kinds)
               and any(t in DRAGONS for t in r.kinds))


@of_hand("rule.melded_hand")
def melded_hand(r: ReadingView, p: PatternView) -> int:
    """全求人: four exposed sets, and the pair won on a discard."""
    return int(sum(1 for m in r.hand.melds if not m.concealed) == 4 and not r.situation.self_drawn)


@of_hand("rule.two_concealed_kongs")
def two_concealed_kongs(r: ReadingView, p: PatternView) -> int:
    """双暗杠: two kongs, both concealed."""
    return int(_kongs(r) == (0, 2))


@only_on(STANDARD)
def two_dragons_pungs(r: ReadingView, p: PatternView) -> int:
    """双箭刻: pungs or kongs of two dragons."""
    return int(len(_pungs(r, DRAGONS)) == 2)


@only_on(STANDARD)
def outside_hand(r: ReadingView, p: PatternView) -> int:
    """全带幺: every set and the pair holds a terminal or an honour."""
    return int(all(any(_rank(t) in (0, 1, 9) for t in b.tiles) for b in r.blocks))


@of_hand("rule.fully_concealed")
def fully_concealed_hand(r: ReadingView, p: PatternView) -> int:
    """不求人: no claimed set and no exposed kong, and the winning tile self-drawn."""
    return int(r.hand.is_concealed and r.situation.self_drawn)


@of_hand("rule.two_exposed_kongs")
def two_melded_kongs(r: ReadingView, p: PatternView) -> int:
    """双明杠: two kongs, both exposed."""
    return int(_kongs(r) == (2, 0))


@situational("rule.last_of_kind", implies=("last_of_kind", True))
def last_tile(r: ReadingView, p: PatternView) -> int:
    """和绝张: won on the last copy of a tile, the other three face up (`last_of_kind`); so too when the hand's own
    exposed sets show the other three."""
    shown = r.hand.meld_tiles.count(r.hand.winning)  # a hand told without its tiles shows none
    return int(bool(r.situation.extra("last_of_kind")) or shown == 3)


@only_on(STANDARD, KNITTED_STRAIGHT)
def dragon_pung(r: ReadingView, p: PatternView) -> int:
    """箭刻: a pung or kong of 中, 发 or 白."""
    return int(bool(_pungs(r, DRAGONS)))


@only_on(STANDARD, KNITTED_STRAIGHT)
def prevalent_wind(r: ReadingView, p: PatternView) -> int:
    """圈风刻: a pung or kong of the round's wind."""
    return int(bool(_pungs(r, (prevalent(r.situation),))))


@only_on(STANDARD, KNITTED_STRAIGHT)
def seat_wind(r: ReadingView, p: PatternView) -> int:
    """门风刻: a pung or kong of the winner's seat wind (the dealer is East)."""
    return int(bool(_pungs(r, (wind_of_seat(r.situation),))))


@of_hand("rule.concealed_on_discard")
def concealed_hand(r: ReadingView, p: PatternView) -> int:
    """门前清: no claimed set and no exposed kong, won on a discard."""
    return int(r.hand.is_concealed and not r.situation.self_drawn)


@only_on(STANDARD, KNITTED_STRAIGHT)
def all_chows(r: ReadingView, p: PatternView) -> int:
    """平和: every set a chow (with 组合龙, its one set) and a pair of a suit tile."""
    pair = _pair(r)
    return int(pair is not None and pair < 27 and all(b.kind == CHOW for b in r.sets))


@counts(3)
def tile_hog(r: Any, p: PatternView) -> int:
    """四归一: all four copies of a tile in the hand, not as a kong; counts the kinds."""
    kongs = {m.tiles[0] for m in r.hand.melds if m.kind == KONG}
    return sum(1 for t in range(NUM_KINDS) if r.tiles.held[t] == 4 and t not in kongs)


@only_on(STANDARD, KNITTED_STRAIGHT)
def two_concealed_pungs(r: Any, p: PatternView) -> int:
    """双暗刻: two concealed pungs (concealed kongs among them)."""
    return int(concealed_pungs(r) == 2)


@of_hand("rule.one_concealed_kong")
def concealed_kong(r: ReadingView, p: PatternView) -> int:
    """暗杠: one kong, concealed."""
    return int(_kongs(r) == (0, 1))


def all_simples(r: ReadingView, p: PatternView) -> int:
    """断幺: no terminal and no honour."""
    return int(_all(r, frozenset(range(2, 9))))


@counts(4)
@only_on(STANDARD, KNITTED_STRAIGHT)
def pung_of_terminals_or_honors(r: Any, p: PatternView) -> int:
    """幺九刻: each pung or kong of a 1 or a 9, and of a wind that is no other 番's: not the seat's or the round's
    wind (门风刻, 圈风刻 count on it), nor one of three or four wind pungs (三风刻, 小四喜, 大四喜). A dragon pung is
    always another 番's (箭刻, 双箭刻, 小三元, 大三元): supplement 附件1 (八), natsuki pp. 41-43. 九莲宝灯 has one fewer
    (附件1 (十二))."""
    winds = _pungs(r, WINDS)
    own = (prevalent(r.situation), wind_of_seat(r.situation))
    count = sum(1 for b in r.sets if _is_pung(b) and _rank(b.tiles[0]) in (1, 9))
    if len(winds) <= 2:
        count += sum(1 for w in winds if w not in own)
    return max(0, count - nine_gates(r, p))


@of_hand("rule.one_exposed_kong")
def melded_kong(r: ReadingView, p: PatternView) -> int:
    """明杠: one kong, exposed."""
    return int(_kongs(r) == (1, 0))


def one_voided_suit(r: ReadingView, p: PatternView) -> int:
    """缺一门: exactly two of the three suits."""
    return int(len({_suit(t) for t in r.kinds} - {3}) == 2)


def no_honors(r: ReadingView, p: PatternView) -> int:
    """无字: no wind or dragon tile."""
    return int(all(t < 27 for t in r.kinds))


@only_on(STANDARD, KNITTED_STRAIGHT)
def edge_wait(r: Any, p: PatternView) -> int:
    """边张: the sole wait, the 3 of 12 or the 7 of 89."""
    b = _sole_wait(r)
    return int(b is not None and b.kind == CHOW and (
        _rank(b.tiles[0]) == 1 and r.winning_as == b.tiles[2] or _rank(b.tiles[0]) == 7 and r.winning_as == b.tiles[0]))


@only_on(STANDARD, KNITTED_STRAIGHT)
def closed_wait(r: Any, p: PatternView) -> int:
    """坎张: the sole wait, the middle tile of a chow."""
    b = _sole_wait(r)
    return int(b is not None and b.kind == CHOW and r.winning_as == b.tiles[1])


@only_on(STANDARD, KNITTED_STRAIGHT)
def single_wait(r: Any, p: PatternView) -> int:
    """单钓将: the sole wait, the tile that pairs a lone tile."""
    b = _sole_wait(r)
    return int(b is not None and b.kind == PAIR)


@situational("rule.self_draw")
def self_drawn(r: ReadingView, p: PatternView) -> int:
    """自摸: the winning tile drawn by the winner (a kong's or a flower's replacement too)."""
    return int(r.situation.self_drawn)


@counts(8)
@per_hand
def flower_tiles(r: Any, p: PatternView) -> int:
    """花牌: each flower set aside beside the hand (1 番 each, once the hand has won)."""
    return len(r.hand.flowers)


@of_hand("rule.kongs_one_of_each")
def concealed_kong_and_melded_kong(r: ReadingView, p: PatternView) -> int:
    """明暗杠: two kongs, one exposed and one concealed (the supplement's 附件1 (四))."""
    return int(_kongs(r) == (1, 1))


# --- the 番 made of sets: predicates over N sets, in the order of their tiles ------------------------------


def _chows(sets: Sets) -> Optional[List[int]]:
    """The first tiles of `sets` when every one is a chow, else None."""
    return [b.tiles[0] for b in sets] if all(b.kind == CHOW for b in sets) else None


def _suited_pungs(sets: Sets) -> Optional[List[int]]:
    """The tiles of `sets` when every one is a pung or kong of a suit, else None."""
    return [b.tiles[0] for b in sets] if all(_is_pung(b) and b.tiles[0] < 27 for b in sets) else None


def _one_suit_steps(firsts: Optional[List[int]], steps: Tuple[int, ...]) -> bool:
    """Tiles of one suit, each `step` above the last for one of `steps` (0: all one tile)."""
    if not firsts or len({_suit(t) for t in firsts}) != 1:
        return False
    gaps = {b - a for a, b in zip(firsts, firsts[1:])}
    return len(gaps) == 1 and gaps <= set(steps)


def _suits_differ(firsts: List[int]) -> bool:
    return len({_suit(t) for t in firsts}) == len(firsts)


def _suits_steps(firsts: Optional[List[int]], step: int) -> bool:
    """Tiles each of a different suit whose ranks, in order, go up by `step` (0: one rank in each suit)."""
    if not firsts or not _suits_differ(firsts):
        return False
    ranks = sorted(_rank(t) for t in firsts)
    return all(b - a == step for a, b in zip(ranks, ranks[1:]))


@of_sets(4)
def quadruple_chow(sets: Sets, p: PatternView) -> bool:
    """一色四同顺: four identical chows."""
    return _one_suit_steps(_chows(sets), (0,))


@of_sets(4)
def four_pure_shifted_pungs(sets: Sets, p: PatternView) -> bool:
    """一色四节高: four pungs of one suit in consecutive ranks."""
    return _one_suit_steps(_suited_pungs(sets), (1,))


@of_sets(4)
def four_pure_shifted_chows(sets: Sets, p: PatternView) -> bool:
    """一色四步高: four chows of one suit, each one rank (or each two ranks) above the last."""
    return _one_suit_steps(_chows(sets), (1, 2))


@of_sets(3)
def pure_triple_chow(sets: Sets, p: PatternView) -> bool:
    """一色三同顺: three identical chows."""
    return _one_suit_steps(_chows(sets), (0,))


@of_sets(3)
def pure_shifted_pungs(sets: Sets, p: PatternView) -> bool:
    """一色三节高: three pungs of one suit in consecutive ranks."""
    return _one_suit_steps(_suited_pungs(sets), (1,))


@of_sets(3)
def pure_straight(sets: Sets, p: PatternView) -> bool:
    """清龙: 123, 456 and 789 of one suit."""
    return _one_suit_steps(_chows(sets), (3,))


@of_sets(3)
def pure_shifted_chows(sets: Sets, p: PatternView) -> bool:
    """一色三步高: three chows of one suit, each one rank (or each two ranks) above the last."""
    return _one_suit_steps(_chows(sets), (1, 2))


@of_sets(3)
def triple_pung(sets: Sets, p: PatternView) -> bool:
    """三同刻: pungs of one rank in the three suits."""
    return _suits_steps(_suited_pungs(sets), 0)


@of_sets(3)
def mixed_straight(sets: Sets, p: PatternView) -> bool:
    """花龙: 123, 456 and 789, each in a different suit."""
    return _suits_steps(_chows(sets), 3)  # a chow starts at 7 at most: 1, 4, 7


@of_sets(3)
def mixed_triple_chow(sets: Sets, p: PatternView) -> bool:
    """三色三同顺: the same chow in the three suits."""
    return _suits_steps(_chows(sets), 0)


@of_sets(3)
def mixed_shifted_pungs(sets: Sets, p: PatternView) -> bool:
    """三色三节高: pungs of three consecutive ranks, each in a different suit."""
    return _suits_steps(_suited_pungs(sets), 1)


@of_sets(3)
def mixed_shifted_chows(sets: Sets, p: PatternView) -> bool:
    """三色三步高: three chows, one in each suit, each one rank above the last."""
    return _suits_steps(_chows(sets), 1)


@of_sets(2, most=2)
def double_pung(sets: Sets, p: PatternView) -> bool:
    """双同刻: pungs of one rank in two suits."""
    return _suits_steps(_suited_pungs(sets), 0)


@of_sets(2, most=2)
def pure_double_chow(sets: Sets, p: PatternView) -> bool:
    """一般高: two identical chows."""
    return _one_suit_steps(_chows(sets), (0,))


@of_sets(2, most=2)
def mixed_double_chow(sets: Sets, p: PatternView) -> bool:
    """喜相逢: the same chow in two suits."""
    return _suits_steps(_chows(sets), 0)


@of_sets(2, most=2)
def short_straight(sets: Sets, p: PatternView) -> bool:
    """连六: two chows of one suit making six consecutive ranks."""
    return _one_suit_steps(_chows(sets), (3,))


@of_sets(2, most=2)
def two_terminal_chows(sets: Sets, p: PatternView) -> bool:
    """老少副: a 123 and a 789 of one suit."""
    return _one_suit_steps(_chows(sets), (6,))


DETECTORS = detectors(
    big_four_winds=big_four_winds, big_three_dragons=big_three_dragons, all_green=all_green, nine_gates=nine_gates,
    four_kongs=four_kongs, seven_shifted_pairs=seven_shifted_pairs, thirteen_orphans=COMMON["thirteen_orphans"],
    all_terminals=all_terminals, little_four_winds=little_four_winds, little_three_dragons=little_three_dragons,
    all_honors=COMMON["all_honors"], four_concealed_pungs=four_concealed_pungs,
    pure_terminal_chows=pure_terminal_chows, quadruple_chow=quadruple_chow,
    four_pure_shifted_pungs=four_pure_shifted_pungs, four_pure_shifted_chows=four_pure_shifted_chows,
    three_kongs=three_kongs, all_terminals_and_honors=all_terminals_and_honors, seven_pairs=seven_pairs,
    greater_honors_and_knitted_tiles=greater_honors_and_knitted_tiles, all_even_pungs=all_even_pungs,
    full_flush=full_flush, pure_triple_chow=pure_triple_chow, pure_shifted_pungs=pure_shifted_pungs,
    upper_tiles=upper_tiles, middle_tiles=middle_tiles, lower_tiles=lower_tiles, pure_straight=pure_straight,
    three_suited_terminal_chows=three_suited_terminal_chows, pure_shifted_chows=pure_shifted_chows,
    all_five=all_five, triple_pung=triple_pung, three_concealed_pungs=three_concealed_pungs,
    lesser_honors_and_knitted_tiles=lesser_honors_and_knitted_tiles, knitted_straight=knitted_straight,
    upper_four=upper_four, lower_four=lower_four, big_three_winds=big_three_winds, mixed_straight=mixed_straight,
    reversible_tiles=reversible_tiles, mixed_triple_chow=mixed_triple_chow, mixed_shifted_pungs=mixed_shifted_pungs,
    chicken_hand=chicken_hand, last_tile_draw=last_tile_draw, last_tile_claim=last_tile_claim,
    out_with_replacement_tile=out_with_replacement_tile, robbing_the_kong=robbing_the_kong,
    all_pungs=COMMON["all_pungs"], half_flush=COMMON["half_flush"], mixed_shifted_chows=mixed_shifted_chows,
    all_types=all_types, melded_hand=melded_hand, two_concealed_kongs=two_concealed_kongs,
    two_dragons_pungs=two_dragons_pungs, outside_hand=outside_hand, fully_concealed_hand=fully_concealed_hand,
    two_melded_kongs=two_melded_kongs, last_tile=last_tile, dragon_pung=dragon_pung, prevalent_wind=prevalent_wind,
    seat_wind=seat_wind, concealed_hand=concealed_hand, all_chows=all_chows, tile_hog=tile_hog,
    double_pung=double_pung, two_concealed_pungs=two_concealed_pungs, concealed_kong=concealed_kong,
    all_simples=all_simples, pure_double_chow=pure_double_chow, mixed_double_chow=mixed_double_chow,
    short_straight=short_straight, two_terminal_chows=two_terminal_chows,
    pung_of_terminals_or_honors=pung_of_terminals_or_honors, melded_kong=melded_kong,
    one_voided_suit=one_voided_suit, no_honors=no_honors, edge_wait=edge_wait, closed_wait=closed_wait,
    single_wait=single_wait, self_drawn=self_drawn, flower_tiles=flower_tiles,
    concealed_kong_and_melded_kong=concealed_kong_and_melded_kong,
)


# --- the payout scheme ---------------------------------------------------------------------------------


class Guobiao(Scheme):
    """Book p. 28 (第十条 一 (三)): each of the three who did not win pays the base (底分 8); the discarder pays the
    hand's total too, and on a self-draw each of the three does. The total is every 番, flowers included."""

    meaning = ("each other seat pays the base (8) × 底分; the discarder (a robbed konger too) also pays the total (every "
               "番, flowers included) × 底分, and on a self-draw each of the three does")
    params = {"base": Param("what each of the three who did not win pays whatever the hand (底分, book p. 28)",
                            minimum=0, maximum=1000)}

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return total

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s, base = situation, situation.base
        total = score.total + score.bonus  # the flowers count in what is paid, never toward the minimum
        floor = self.param(ruleset, "base")
        hand: Dict[str, int] = {}
        for seat in SEATS:
            if seat != s.seat:
                pays_total = s.discarder is None or seat == s.discarder
                transfer(hand, seat, s.seat, (floor + (total if pays_total else 0)) * base)
        payout = Payout()
        payout.add("和牌", "hand", hand)
        return payout


# --- the region ----------------------------------------------------------------------------------------


class GuobiaoRegion(Region):
    id = "guobiao"
    zh = "国标"
    en = "Chinese Official (MCR)"
    detectors = DETECTORS
    schemes = {"guobiao": Guobiao()}
    options = (
        Option("prevalent", "seat", "圈风: the round's wind, E S W N (the first round East; a table fills it from the "
               "round).", zh="圈风", default="E", metavar="WIND", from_deal=True),
        Option("last_of_kind", "flag", "和绝张: the winning tile is the last of its kind, the other three face up "
               "(discarded or in exposed sets).", zh="和绝张", default=False),
    )

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        """Besides every region's: no kong is robbed on the last tile, which is won only as drawn or discarded
        (supplement 八 (十一))."""
        super().check_situation(ruleset, situation)
        if situation.rob_kong and situation.last_tile:
            raise ImpossibleSituation("guobiao.rob_last_tile", field="rob_kong")

    def check_hand(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> None:
        """Besides every region's: 和绝张 of a tile the hand holds another copy of in its concealed tiles (so not
        all three others are face up)."""
        super().check_hand(ruleset, situation, tiles)
        win = tiles.hand.winning
        if situation.extra("last_of_kind") and win is not None and tiles.hand.concealed.count(win):
            raise ImpossibleSituation("guobiao.last_of_kind_held", field="last_of_kind", tile=NAMES[win],
                                      more=tiles.hand.concealed.count(win))

    def seen_facts(self, ruleset: "Ruleset", situation: Situation, hand: Hand, seen: Sequence[int]) -> Situation:
        """和绝张 where the tiles seen on the table and the hand's own exposed sets show the other three copies of
        its winning tile (p. 26, p. 89: the last of its kind, the other three face up), none held concealed."""
        win = hand.winning
        if win is None or "last_of_kind" not in ruleset.options or situation.extra("last_of_kind"):
            return situation
        if hand.concealed.count(win) or seen[win] + hand.meld_tiles.count(win) != 3:
            return situation
        return situation.replace(last_of_kind=True)

    def at_table(self, ruleset: "Ruleset", situation: Situation, state: "State") -> Situation:
        """The round's wind from the round (book p. 8: East, South, West, North)."""
        return situation.replace(prevalent=SEATS[(state.round - 1) % 4])


REGION = GuobiaoRegion()

