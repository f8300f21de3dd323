"""Shangrao 上饶麻将 with 宝: what the region means.

One 宝 kind of four tiles. A 宝 counts as wild only when it stands for something other than its own face
(`Reading.wild_roles`): a hand whose 宝 all stand for themselves is 无宝 (清). Wins are self-drawn, except 抢杠
and 地糊; a base pattern is multiplied (杠开, 单吊, 九幺, 飞宝) and bonuses added (kongs, 接宝, 四个宝). The precise
readings of 宝吊头, 宝吊宝 and 宝吊无宝 are written at the top of rulesets/shangrao.yaml.
"""
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Optional, Tuple

from ..decompose import Block
from ..errors import ImpossibleSituation, SituationError
from ..hand import CHOW, KONG, PAIR, PUNG, Meld
from ..messages import Message
from ..patterns import (
    COMMON,
    COUNT,
    PatternView,
    ReadingView,
    block_traits,
    counted_traits,
    counts,
    every_pung,
    fours_in_pairs,
    needs,
    of_hand,
    only_on,
    sets,
    situational,
    told,
    whole_traits,
)
from ..payouts import Param, Payout, Scheme, transfer
from ..shapes import NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, is_complete
from ..situation import Option, Situation
from ..tiles import HONORS, NAMES, SEATS, WILD
from .base import AnyReading, ReadingKeys, Region, own_detectors

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Reading, Score, Tiles

BAO = 4  # tiles of the 宝 kind
KONGS_A_SEAT = 4  # a hand is four sets and a pair: at most four kongs, sixteen at the table in all


def _standard(r: ReadingView) -> bool:
    return r.shape == STANDARD


def _all_pungs(r: ReadingView) -> bool:
    return r.only_pungs


def _wins_on_wild(r: "Reading") -> bool:
    win = r.hand.winning
    return win == WILD or win in r.tiles.wild_kinds


def _wild_single(r: "Reading") -> bool:
    """The winning tile pairs with a lone 宝: the pair is the winning tile and one 宝 (both wild if a 宝 won)."""
    b = r.winning_block
    if not _standard(r) or b is None or b.kind != PAIR:
        return False
    return len(b.wild_as) == (2 if _wins_on_wild(r) else 1)


def _was_wild_single(r: "Reading") -> bool:
    """偷机: the 13 tiles before the winning tile are four sets and one lone 宝, so any draw would win."""
    before = r.tiles.before
    if before.wilds < 1:
        return False
    counts = list(before.naturals)
    # The 12 tiles left after setting one 宝 aside form sets exactly when adding a natural pair of an honor
    # they do not hold completes them: that pair is either the pair or, with one more 宝, a pung.
    spare = next((h for h in HONORS if not counts[h]), None)
    if spare is None:
        return False
    counts[spare] += 2
    return is_complete(counts, before.wilds - 1, before.melds, (STANDARD,))


def _wild_single_none(r: "Reading") -> bool:
    """From 宝吊头, the draw left no 宝 in a wildcard role (a natural pair or pung of 宝)."""
    return _standard(r) and r.wild_roles == 0 and _was_wild_single(r)


def _seven_stars(r: ReadingView) -> bool:
    return all(h in r.kinds for h in HONORS)


# --- detectors -----------------------------------------------------------------------------------------


@needs(wild_roles=True)
@only_on(STANDARD)
def plain(r: "Reading", p: PatternView) -> int:
    """平糊: four sets and a pair with a 宝 in a wildcard role."""
    return int(_standard(r) and r.wild_roles > 0)


@needs(chows=1, wild_roles=False)
@only_on(STANDARD)
def pure_self_draw(r: "Reading", p: PatternView) -> int:
    """平糊自摸: four sets and a pair, no 宝 in a wildcard role, at least one chow."""
    return int(_standard(r) and r.wild_roles == 0 and any(b.kind == CHOW for b in sets(r)))


@needs(wins_in=PAIR, wild_roles=True)
@only_on(STANDARD)
def wild_single(r: "Reading", p: PatternView) -> int:
    """宝吊头: four sets and a lone 宝, completed by the winning tile as the pair."""
    return int(_wild_single(r))


@needs(wins_in=PAIR, wild_roles=True)
@only_on(STANDARD)
def wild_single_wild(r: "Reading", p: PatternView) -> int:
    """宝吊宝: 宝吊头 won by drawing a second 宝, the two a natural pair, another 宝 still wild."""
    b = r.winning_block
    return int(_wild_single(r) and _wins_on_wild(r) and b is not None and b.wild_as[0] in r.tiles.wild_kinds
               and r.wild_roles > 0)


@needs(wins_in=PAIR, wild_roles=False)
@only_on(STANDARD)
def wild_single_none(r: "Reading", p: PatternView) -> int:
    """宝吊无宝: from 宝吊头, the draw leaves every 宝 standing for itself."""
    return int(_wild_single_none(r))


@needs(every=PUNG, wild_roles=True)
@told(lambda r, p: int(bool(r.named(p.id)) or every_pung(r) and r.wild_roles > 0), rule="rule.pungs_with_wild")
@only_on(STANDARD)
def pungs(r: "Reading", p: PatternView) -> int:
    """碰碰糊: four pungs or kongs and a pair, a 宝 in a wildcard role."""
    return int(_all_pungs(r) and r.wild_roles > 0)


@needs(every=PUNG, wild_roles=False)
@told(lambda r, p: int(bool(r.named(p.id)) or every_pung(r) and r.wild_roles == 0), rule="rule.pungs_without_wild")
@only_on(STANDARD)
def pure_pungs(r: "Reading", p: PatternView) -> int:
    """清碰碰糊: four pungs or kongs and a pair, no 宝 in a wildcard role."""
    return int(_all_pungs(r) and r.wild_roles == 0)


@needs(every=PUNG, wins_in=PAIR, wild_roles=True)
@told(lambda r, p: int(bool(r.named(p.id)) or bool(r.named("wild_single")) and every_pung(r)),
      rule="rule.pungs_wild_single")
@only_on(STANDARD)
def pungs_wild_single(r: "Reading", p: PatternView) -> int:
    """碰碰糊宝吊头: four pungs or kongs, the pair a lone 宝 and the winning tile."""
    return int(_all_pungs(r) and _wild_single(r))


@needs(every=PUNG, wins_in=PAIR, wild_roles=False)
@told(lambda r, p: int(bool(r.named(p.id)) or bool(r.named("wild_single_none")) and every_pung(r)),
      rule="rule.pungs_wild_single_none")
@only_on(STANDARD)
def pungs_wild_single_none(r: "Reading", p: PatternView) -> int:
    """碰碰糊宝吊无宝: four pungs or kongs, from 宝吊头, no 宝 left in a wildcard role."""
    return int(_all_pungs(r) and _wild_single_none(r))


@needs(wild_roles=False)
@told(lambda r, p: int(bool(r.named(p.id)) or bool(r.named("seven_pairs")) and r.wild_roles == 0),
      rule="rule.pure_pairs")
@only_on(SEVEN_PAIRS)
def pure_seven_pairs(r: "Reading", p: PatternView) -> int:
    """清七对: seven pairs, no 宝 in a wildcard role."""
    return int(r.shape == SEVEN_PAIRS and r.wild_roles == 0)


@counts(3)
@needs(wild_roles=False)
@told(lambda r, p: r.named(p.id) or (r.named("luxury_seven_pairs") if r.wild_roles == 0 else 0),
      rule="rule.pure_pairs")
@only_on(SEVEN_PAIRS)
def pure_luxury_seven_pairs(r: "Reading", p: PatternView) -> int:
    """清豪华七对: seven pairs with fours, no 宝 in a wildcard role; counts the fours."""
    if r.shape != SEVEN_PAIRS or r.wild_roles:
        return 0
    return fours_in_pairs(r)


@needs(honors=True)
@only_on(THIRTEEN_LONELY)
def seven_star_thirteen_lonely(r: ReadingView, p: PatternView) -> int:
    """七星十三浪: a 十三浪 holding all seven honors (a 宝 may fill one)."""
    return int(r.shape == THIRTEEN_LONELY and _seven_stars(r))


@needs(honors=True)
@only_on(NINE_TERMINALS)
def seven_star_nine_terminals(r: ReadingView, p: PatternView) -> int:
    """七星九幺: a 九幺 holding all seven honors (a 宝 may fill one)."""
    return int(r.shape == NINE_TERMINALS and _seven_stars(r))


@needs(melds=4, wins_in=PAIR)
@told(lambda r, p: int(bool(r.named(p.id)) or len(r.hand.melds) == 4), rule="rule.single_wait")
@only_on(STANDARD)
def single_wait(r: "Reading", p: PatternView) -> int:
    """单吊: four melds declared, won on the single tile left in hand."""
    b = r.winning_block
    return int(_standard(r) and len(r.hand.melds) == 4 and b is not None and b.kind == PAIR)


@counts(4)
@situational("rule.flown", implies=("flown", COUNT))
def flown(r: ReadingView, p: PatternView) -> int:
    """飞宝: 宝 the winner has discarded; counts them (none on a first-turn win, 天糊/地糊)."""
    s = r.situation
    count: int = 0 if s.first_turn else s.extra("flown", 0)
    return count


@counts(4)
@of_hand("rule.exposed_kong")
def exposed_kong(r: AnyReading, p: PatternView) -> int:
    """碰杠: the winner's exposed kongs; counts them."""
    return sum(1 for m in r.hand.melds if m.kind == KONG and m.exposed)


@counts(4)
@of_hand("rule.concealed_kong")
def concealed_kong(r: AnyReading, p: PatternView) -> int:
    """自摸杠: the winner's concealed kongs; counts them."""
    return sum(1 for m in r.hand.melds if m.kind == KONG and m.concealed)


@situational("rule.jiebao", implies=("jiebao", True))
def jiebao(r: ReadingView, p: PatternView) -> int:
    """接宝: given by the situation."""
    return int(bool(r.situation.extra("jiebao")))


@situational("rule.four_wild", implies=("four_wild", True))
def four_wild(r: ReadingView, p: PatternView) -> int:
    """四个宝: the winner drew all four 宝 this hand."""
    return int(bool(r.situation.extra("four_wild")))


# --- the payout scheme ---------------------------------------------------------------------------------


class Shangrao(Scheme):
    """上饶: V from each other on a self-draw, 6·V from a robbed konger, V from the dealer on 地糊; 飞宝; bonuses."""

    meaning = ("self-draw: each other seat pays V (× 2^n for his own n 飞宝) plus the bonuses; 抢杠: the robbed "
               "konger alone pays rob_kong·V; 地糊: the dealer alone pays V; every seat's kongs earn bonuses")
    params = {"rob_kong": Param("抢杠: the robbed konger alone pays this many times V", minimum=1, maximum=100)}

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s, b = situation, situation.base
        winner = s.seat
        others = [seat for seat in SEATS if seat != winner]
        flat = any(ruleset.pattern(m.pattern_id).param("flat") for m in score.matches)
        flown_by: Dict[str, int] = dict(s.extra("flown_by", ()))

        def share(seat: str, amount: int) -> int:
            return amount if flat else amount * 2 ** flown_by.get(seat, 0)

        v = score.total * b
        hand: Dict[str, int] = {}
        discarder = s.discarder  # None: a self-draw (the situation is the score's, as paid)
        if discarder is None:
            for seat in others:
                transfer(hand, seat, winner, share(seat, v))
        elif s.rob_kong:
            transfer(hand, discarder, winner, share(discarder, self.param(ruleset, "rob_kong") * v))
        else:  # 地糊 on the dealer's first discard; the only other legal discard win
            transfer(hand, discarder, winner, share(discarder, v))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        if score.bonus:
            bonus: Dict[str, int] = {}
            for seat in others:
                transfer(bonus, seat, winner, score.bonus * b)
            payout.add("奖分", "bonus", bonus)
        kongs_of_others = s.extra("kong", ())
        if kongs_of_others:
            values = {"exposed": _value(ruleset, "exposed_kong"), "concealed": _value(ruleset, "concealed_kong")}
            kongs: Dict[str, int] = {}
            for owner, kind in kongs_of_others:
                for seat in SEATS:
                    if seat != owner:
                        transfer(kongs, seat, owner, values[kind] * b)
            payout.add("杠分", "kongs", kongs, whoever_wins=True)
        return payout


def _value(ruleset: "Ruleset", pattern_id: str) -> int:
    return next((p.value for p in ruleset.patterns if p.id == pattern_id), 0)


# --- the region ----------------------------------------------------------------------------------------


def _place(block: Block, stand: int) -> bool:
    """What 宝吊头, 宝吊宝 and 单吊 see of the winning block besides its key and its 宝: whether it is the pair."""
    return block.kind == PAIR


@lru_cache(maxsize=None)
def _whole_seen(active: FrozenSet[str]) -> Callable[[Block], Tuple[Tuple[Any, ...], bool]]:
    """The key of an irregular shape's block: the common traits, and 七星 (every honor among the 14)."""
    common = whole_traits(active)

    def whole(b: Block) -> Tuple[Tuple[Any, ...], bool]:
        return common(b), _HONOR_SET <= set(b.tiles)

    return whole


_HONOR_SET = frozenset(HONORS)


def _fail(field: str, code: str, **params: Any) -> SituationError:
    return SituationError(code, field=field, **params)


DETECTORS = {**COMMON, **{f.__name__: f for f in (
    plain, pure_self_draw, wild_single, wild_single_wild, wild_single_none, pungs, pure_pungs,
    pungs_wild_single, pungs_wild_single_none, pure_seven_pairs, pure_luxury_seven_pairs,
    seven_star_thirteen_lonely, seven_star_nine_terminals, single_wait, flown, exposed_kong, concealed_kong,
    jiebao, four_wild)}}


def _impossible(field: str, code: str, **params: Any) -> ImpossibleSituation:
    return ImpossibleSituation(code, field=field, **params)


class ShangraoRegion(Region):
    id = "shangrao"
    zh = "上饶"
    en = "Shangrao"
    detectors = DETECTORS
    schemes = {"shangrao": Shangrao()}
    pattern_params = {"*": {"flat": Param("the hand part is paid flat: no seat's 飞宝 doubles it", kind=bool,
                                          required=False)}}
    options = (
        Option("flown", "int", "宝 the winner has discarded 飞宝.", zh="飞宝", default=0, minimum=0, maximum=BAO,
               metavar="N"),
        Option("flown_by", "seat_int", "SEAT=N: 宝 another seat has discarded (repeatable).", zh="他家飞宝", default=(),
               minimum=0, maximum=BAO, metavar="SEAT=N"),
        Option("four_wild", "flag", "The winner drew all four 宝 this hand.", zh="四个宝", default=False),
        Option("jiebao", "flag", "接宝 happened for the winner.", zh="接宝", default=False),
        Option("kong", "seat_choice", "SEAT:exposed|concealed, another seat's kong (repeatable).", zh="他家杠",
               default=(), choices=("exposed", "concealed"), metavar="SEAT:KIND"),
    )

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits, these see a block only through what the scorer keys itself: its
        kind, its 宝 and what they stand for (wild roles, 宝吊头's lone 宝, 宝吊宝's pair of 宝) and the winning
        block; of an irregular shape, 七星 sees whether every honor is among the 14."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        active = frozenset(p.id for p in ruleset.patterns)
        traits = block_traits(active, tiles)
        return ReadingKeys(traits, _place, wild_roles=True, counted=counted_traits, whole=_whole_seen(active),
                           signature=(self.id, traits.signature))

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        s = situation
        flown_by = s.extra("flown_by", ())
        for seat, _ in flown_by:
            if seat == s.seat:
                raise _fail("flown_by", "shangrao.flown_by_winner", seat=seat)
        total = s.extra("flown", 0) + sum(n for _, n in flown_by)
        if total > BAO:
            raise _impossible("flown_by", "shangrao.flown_too_many", total=total, most=BAO)
        of_seat: Dict[str, int] = {}
        for seat, _ in s.extra("kong", ()):
            if seat == s.seat:
                raise _fail("kong", "shangrao.kong_of_winner", seat=seat)
            of_seat[seat] = of_seat.get(seat, 0) + 1
        for seat, count in of_seat.items():
            if count > KONGS_A_SEAT:
                raise _impossible("kong", "shangrao.kongs_a_seat", seat=seat, count=count, most=KONGS_A_SEAT)

    def told_kongs(self, ruleset: "Ruleset", situation: Situation) -> Tuple[Tuple[Meld, ...], Situation]:
        """`--kong SEAT:KIND` naming the winner's own seat, for a hand told without its tiles: the winner's kongs
        (their bonuses 碰杠 and 自摸杠 are the winner's); the other seats' stay 他家杠."""
        raw = situation.extra("kong")
        if not raw or "kong" not in ruleset.options:
            return (), situation
        kong = self.option("kong")
        assert kong is not None  # one of this region's options
        entries = kong.read(raw)
        mine = tuple(Meld(KONG, (), kind == "concealed") for seat, kind in entries if seat == situation.seat)
        if not mine:
            return (), situation
        return mine, situation.replace(kong=tuple(e for e in entries if e[0] != situation.seat) or None)

    def check_wilds(self, ruleset: "Ruleset", situation: Situation, held: int, kinds: Tuple[int, ...]) -> None:
        """宝 held and 宝 flown are tiles of one kind: at most four in all; 四个宝 is all four, held or flown by the
        winner."""
        s = situation
        flown_here = s.extra("flown", 0)
        flown_all = flown_here + sum(n for _, n in s.extra("flown_by", ()))
        if held + flown_all > BAO:
            name = ",".join(NAMES[k] for k in kinds) or Message("shangrao.no_bao_kind")
            raise _impossible("flown" if flown_here else "flown_by", "shangrao.bao_held_and_flown", held=held,
                              kinds=name, flown=flown_all, most=BAO)
        if s.extra("four_wild") and held + flown_here != BAO:
            raise _impossible("four_wild", "shangrao.four_wild_count", held=held, flown=flown_here)

    def tiles_gone(self, ruleset: "Ruleset", situation: Situation, wild_kinds: Tuple[int, ...]) -> Tuple[int, ...]:

        """Copies known to be out of the wall besides the hand: the turned-up tile, and every flown 宝 (the
        winner's and the others'), a discard of the 宝 kind, so none of them can be drawn."""
        gone = list(super().tiles_gone(ruleset, situation, wild_kinds))
        flown = situation.extra("flown", 0) + sum(n for _, n in situation.extra("flown_by", ()))
        if flown and len(wild_kinds) == 1:
            gone[wild_kinds[0]] += flown
        return tuple(gone)


REGION = ShangraoRegion()
