"""广东麻将 推倒胡 with ghosts and horses, by the MIL rules committee's competition rulebook 广东麻将（推广）竞赛规则
（试行2023版）: what the region means.

140 tiles: the 136 and four flowers, the flowers 鬼牌 (ghosts): wildcards with no face of their own, written `*`,
never claimed (三、24). No chows are claimed. A win needs a shape, 2 番 and 4 points (七、2). 番 add up (八、2 7));
the 基本分 is 番 × a coefficient: 2 with no ghost in the winning hand, 2^N when the winner threw N ghosts this deal
(`ghosts_out`), else 1 (八、2 2)). The discarder pays it; the konger whose added kong is robbed pays it three times;
on a self-draw each of the three pays it, and each horse that hits (`horses`: 买马, the winner's seat's tiles among the
four turned) takes 1 more from each (八、3). 杠上花 after a kong on another's discard is paid by that discarder alone,
three times the hand and the horses (`kong_from`, 八、2 5)). 四鬼和: four ghosts win whatever the rest (self-drawn
here). Kong money is paid when the kong is made and paid back on a draw (八、1). The winner deals next (七、5).
rulesets/guangdong.md gives the rules with the book's pages, and what was chosen where it is silent.
"""
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

from ..errors import ImpossibleSituation, Notice, SituationError
from ..hand import KONG, PAIR, PUNG
from ..messages import Message, Words
from ..patterns import COMMON, PatternView, ReadingView, block_traits, needs, only_on, per_hand, situational
from ..payouts import Param, Payout, Scheme, transfer
from ..shapes import STANDARD, THIRTEEN_ORPHANS
from ..situation import Option, Situation
from ..tiles import DRAGONS, NUM_KINDS, SEATS, WILD, WINDS, is_terminal_or_honor
from .base import HandTiles, ReadingKeys, Region, detectors, own_detectors, reads_hand_before_win

if TYPE_CHECKING:  # for annotations only: these modules import this one
    from ..ruleset import Ruleset
    from ..scoring import Match, Score, Tiles

GHOSTS = 4  # the four flowers (梅兰竹菊)
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # 1112345678999 of one suit


def coefficient(situation: Situation, ghosts_held: int, both: bool = False) -> int:
    """八、2 2): 2^N when the winner threw N ghosts in the deal; else 2 with no ghost among the 14; else 1. With
    `both` (a house reading, `payout.params.ghost_factors_multiply`), a winner who threw N and holds none: 2 × 2^N."""
    thrown = int(situation.extra("ghosts_out") or 0)
    none_held = 2 if ghosts_held == 0 else 1
    if thrown:
        return (1 << thrown) * (none_held if both else 1)
    return none_held


# --- detectors -----------------------------------------------------------------------------------------


def _pungs_of(r: ReadingView, kinds: Sequence[int]) -> List[int]:
    return [b.tiles[0] for b in r.sets if b.kind in (PUNG, KONG) and b.tiles[0] in kinds]


def _pair_of(r: ReadingView) -> Optional[int]:
    pairs = [b.tiles[0] for b in r.blocks if b.kind == PAIR]
    return pairs[0] if len(pairs) == 1 else None


@only_on(STANDARD)
def terminal_pungs(r: ReadingView, p: PatternView) -> int:
    """幺九: every set a pung or kong of terminals or honours, and the pair of them too."""
    return int(r.only_pungs and all(is_terminal_or_honor(b.tiles[0]) for b in r.blocks))


@only_on(STANDARD)
def small_dragons(r: ReadingView, p: PatternView) -> int:
    """小三元: pungs or kongs of two dragons and a pair of the third."""
    return int(len(_pungs_of(r, DRAGONS)) == 2 and _pair_of(r) in DRAGONS)


@only_on(STANDARD)
def big_dragons(r: ReadingView, p: PatternView) -> int:
    """大三元: pungs or kongs of the three dragons."""
    return int(len(_pungs_of(r, DRAGONS)) == 3)


@only_on(STANDARD)
def small_winds(r: ReadingView, p: PatternView) -> int:
    """小四喜: pungs or kongs of three winds and a pair of the fourth."""
    return int(len(_pungs_of(r, WINDS)) == 3 and _pair_of(r) in WINDS)


@only_on(STANDARD)
def big_winds(r: ReadingView, p: PatternView) -> int:
    """大四喜: pungs or kongs of the four winds."""
    return int(len(_pungs_of(r, WINDS)) == 4)


@per_hand
def nine_gates(r: Any, p: PatternView) -> int:
    """九莲宝灯: concealed, and the 13 tiles before the win are 1112345678999 of one suit, natural (so any tile of
    the suit wins: 八、2 6) no. 16, the waiting hand)."""
    before = r.tiles.before
    if r.hand.melds or before.wilds:
        return 0
    counts = before.naturals
    return int(any(tuple(counts[9 * s:9 * s + 9]) == NINE_GATES for s in range(3)))


@needs(wilds=GHOSTS)
def four_ghosts(r: Any, p: PatternView) -> int:
    """四鬼和: the four ghosts among the 14, unless the reading is a higher pattern (16 番: 大三元, 大四喜, 十三幺,
    九莲宝灯), which then counts with the rest as if the ghosts were tiles ("取番数较高的番种", 八、2 7))."""
    if r.wild_tiles != GHOSTS:
        return 0
    higher = (big_dragons, big_winds, nine_gates)
    return int(r.shape != THIRTEEN_ORPHANS and not any(d(r, p) for d in higher))


@situational("rule.earthly_draw", implies=("first_turn", True))
def earthly_draw(r: ReadingView, p: PatternView) -> int:
    """地和: a non-dealer wins on his first draw (self-drawn)."""
    s = r.situation
    return int(s.first_turn and not s.is_dealer and s.self_drawn)


_HIGHER = ("big_dragons", "big_winds", "thirteen_orphans", "nine_gates")  # 16 番: they beat 四鬼和

DETECTORS = detectors(COMMON, terminal_pungs=terminal_pungs, small_dragons=small_dragons, big_dragons=big_dragons,
                      small_winds=small_winds, big_winds=big_winds, nine_gates=nine_gates, four_ghosts=four_ghosts,
                      earthly_draw=earthly_draw)


# --- the payout scheme ---------------------------------------------------------------------------------


class Guangdong(Scheme):
    """八、2 and 八、3: 番 × the coefficient from the discarder (three times from a robbed konger), or from each of
    the three on a self-draw with 1 more from each for each horse that hits; 杠上花 after a 直杠 all from its feeder."""

    meaning = ("基本分 B = 番 × coefficient × 底分 (coefficient 2^N after N ghosts thrown, else 2 with no ghost in "
               "the hand, else 1): the discarder pays B, a robbed konger 3B; a self-draw, each of the three pays B and "
               "horse × 底分 for each horse that hits (--horses); 杠上花 after a kong on another's discard "
               "(--kong-from): that seat pays it all, 3 × (B + the horses)")
    params = {
        "min_points": Param("the least 基本分 a win needs, at 底分 1 (起和分数)", minimum=0, maximum=1000),
        "horses": Param("how many horses the self-drawing winner turns (买马): the most that can hit", minimum=0,
                        maximum=8),
        "horse": Param("what each horse that hits takes from each other seat, times 底分", minimum=0, maximum=100),
        "ghost_factors_multiply": Param("true: a winner who threw N ghosts and holds none is paid 2 × 2^N (the book "
                                        "gives one coefficient: 2^N)", kind=bool, required=False, default=False),
    }

    def unit_points(self, total: int, ruleset: "Ruleset") -> int:
        return total  # the least: a hand with a ghost in it and none thrown (coefficient 1)

    def pay(self, score: "Score", situation: Situation, ruleset: "Ruleset") -> Payout:
        s, base = situation, situation.base
        held = score.reading.tiles.wild_tiles if score.reading is not None else 0
        b = score.total * coefficient(s, held, bool(self.param(ruleset, "ghost_factors_multiply"))) * base
        hits = int(s.extra("horses") or 0) * self.param(ruleset, "horse") * base
        payout = Payout()
        hand: Dict[str, int] = {}
        horses: Dict[str, int] = {}
        feeder = s.extra("kong_from")
        if s.discarder is not None:  # a discard, or a robbed added kong: three times
            transfer(hand, s.discarder, s.seat, 3 * b if s.rob_kong else b)
        elif feeder:  # 杠上花 after a 直杠: the one who fed the kong pays all of it
            transfer(hand, feeder, s.seat, 3 * b)
            transfer(horses, feeder, s.seat, 3 * hits)
        else:
            for seat in SEATS:
                if seat != s.seat:
                    transfer(hand, seat, s.seat, b)
                    transfer(horses, seat, s.seat, hits)
        payout.add("和牌", "hand", hand)
        if any(horses.values()):
            payout.add("中马", "horses", horses, doubled_at_table=False)
        return payout


# --- the region ----------------------------------------------------------------------------------------


class GuangdongRegion(Region):
    id = "guangdong"
    zh = "广东"
    en = "Guangdong"
    detectors = DETECTORS
    schemes = {"guangdong": Guangdong()}
    chows_claimed = False  # 六、2: 碰、杠、和 only
    winner_deals = True  # 七、5
    draw_voids_kongs = True  # 八、1 4)
    options = (
        Option("ghosts_out", "int", "出鬼: how many ghosts (flowers) the winner threw in this deal: the hand is "
               "worth 2^N times its 番.", zh="出鬼", default=0, minimum=0, maximum=GHOSTS, metavar="N"),
        Option("horses", "int", "中马: how many of the horses turned after a self-draw hit the winner's seat "
               "(dealer 1 5 9 东, the next 2 6 南 中, opposite 3 7 西 发, the one before 4 8 北 白).", zh="中马",
               default=0, minimum=0, maximum=8, metavar="N"),
        Option("no_ghost", "flag", "无鬼: no ghost among the 14, so the hand is worth double (said of a win told "
               "without its tiles: by default it held one; tiles say it themselves).", zh="无鬼", default=False),
        Option("kong_from", "seat", "杠上花 after a kong made on this seat's discard (直杠): it pays the whole win, "
               "three times.", zh="点杠者", metavar="SEAT"),
    )
    exposed_rule_name = ""

    def wild_kinds(self, ruleset: "Ruleset", situation: Situation) -> Tuple[int, ...]:
        """The ghosts are flowers, no tile kind: `*` in a hand; nothing names a kind wild."""
        if situation.wild or situation.indicator is not None:
            raise SituationError("guangdong.ghosts_no_kind", field="wild" if situation.wild else "indicator")
        return ()

    def wild_in_play(self, ruleset: "Ruleset", situation: Situation) -> bool:
        return True

    def check_situation(self, ruleset: "Ruleset", situation: Situation) -> None:
        super().check_situation(ruleset, situation)
        s = situation
        scheme = self.schemes.get(ruleset.payout)
        hits = int(s.extra("horses") or 0)
        if hits:
            turned = scheme.param(ruleset, "horses") if scheme is not None else GHOSTS
            if hits > turned:
                raise SituationError("guangdong.horses_over", field="horses", hits=hits, turned=turned)
            if not s.self_drawn or s.rob_kong:
                raise ImpossibleSituation("guangdong.horses_self_draw", field="horses")
            if s.last_tile:
                raise SituationError("guangdong.horses_last_tile", field="horses", hits=hits)
        feeder = s.extra("kong_from")
        if feeder:
            if not s.kong_draw or not s.self_drawn:
                raise ImpossibleSituation("guangdong.kong_from_bloom", field="kong_from")
            if feeder == s.seat:
                raise ImpossibleSituation("region.own_discard", field="kong_from", seat=feeder)

    def reading_refusal(self, ruleset: "Ruleset", reading: Any, matches: Sequence["Match"]) -> Optional[Message]:
        """四鬼和 told beside a 16 番 pattern: the tiles never count both ("取番数较高的番种", 八、2 7))."""
        if reading.told and reading.named("four_ghosts"):
            higher = [p for p in _HIGHER if reading.named(p)]
            if higher:
                return Message("guangdong.four_ghosts_beaten", name=ruleset.pattern(higher[0]).zh,
                               ghosts=ruleset.pattern("four_ghosts").zh)
        return None

    def check_melds(self, ruleset: "Ruleset", situation: Situation, hand: Any) -> None:
        """杠上花 after a 直杠 (`kong_from`) has an exposed kong."""
        super().check_melds(ruleset, situation, hand)
        if situation.extra("kong_from") and not any(m.kind == KONG and not m.concealed for m in hand.melds):
            raise ImpossibleSituation("guangdong.kong_from_exposed", field="kong_from")

    def check_hand(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> None:
        """Besides the checks of every region: the ghosts in the hand and those thrown are four at most, and a hand
        said to hold none (`no_ghost`) holds none."""
        super().check_hand(ruleset, situation, tiles)
        _check_ghosts(situation, tiles.wild_tiles)
        if situation.extra("no_ghost") and tiles.wild_tiles:
            raise SituationError("guangdong.no_ghost_held", field="no_ghost", held=tiles.wild_tiles)

    def check_told(self, ruleset: "Ruleset", situation: Situation, told: Any) -> None:
        """A win told without its tiles held a ghost unless told `no_ghost` (the least it is worth): the facts
        chosen for it agree."""
        super().check_told(ruleset, situation, told)
        _check_ghosts(situation, told.wild_tiles)
        if bool(situation.extra("no_ghost")) == bool(told.wild_tiles):
            raise ImpossibleSituation("guangdong.no_ghost_held" if told.wild_tiles else "guangdong.ghost_told",
                                      field="no_ghost", held=told.wild_tiles)

    def notices(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles,
                matches: Sequence["Match"]) -> List[Notice]:
        """A win told without its tiles is paid as holding a ghost (×1) unless told `no_ghost`: said each time."""
        told = getattr(tiles, "naturals", None) is None
        matters = not situation.extra("ghosts_out") and tiles.wild_tiles < GHOSTS  # else the coefficient is known
        if told and matters and not situation.extra("no_ghost"):
            return [Notice("guangdong.told_with_ghost", field="no_ghost")]
        return []

    def refusal(self, ruleset: "Ruleset", situation: Situation, tiles: HandTiles, matches: Sequence["Match"],
                total: int) -> Optional[Message]:
        """Besides the 番 minimum (起和番数), the 基本分 minimum (起和分数, 七、2): 番 × the coefficient."""
        if not situation.self_drawn and tiles.hand.winning == WILD:  # 三、24: 鬼牌不可被碰、杠、和
            return Message("guangdong.ghost_not_won")
        reason = super().refusal(ruleset, situation, tiles, matches, total)
        if reason is not None:
            return reason
        scheme = self.schemes.get(ruleset.payout)
        least = scheme.param(ruleset, "min_points") if scheme is not None else 0
        both = bool(scheme.param(ruleset, "ghost_factors_multiply")) if scheme is not None else False
        factor = coefficient(situation, tiles.wild_tiles, both)
        if total * factor < least:
            return Message("guangdong.below_points", points=total * factor, total=total, unit=ruleset.unit_zh,
                           factor=factor, least=least)
        return None

    def automatic_win(self, ruleset: "Ruleset", situation: Situation,
                      tiles: HandTiles) -> Optional[Union[Notice, Literal[""]]]:
        """四鬼和 (七、1 3)): the four ghosts win whatever the rest, drawn (the fourth ghost, or any tile with four
        held); on a discard the hand needs a shape."""
        if "four_ghosts" not in {p.id for p in ruleset.patterns} or tiles.wild_tiles < GHOSTS:
            return None
        return "" if situation.self_drawn and not situation.rob_kong else None

    def automatic_pattern(self, ruleset: "Ruleset") -> Optional[str]:
        return "four_ghosts" if "four_ghosts" in {p.id for p in ruleset.patterns} else None

    def automatic_draws(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[Tuple[int, ...]]:
        """Four ghosts held: any tile drawn wins (the fourth ghost drawn is no kind, so it is not listed)."""
        if "four_ghosts" not in {p.id for p in ruleset.patterns}:
            return None
        return tuple(range(NUM_KINDS)) if tiles.wilds >= GHOSTS else ()

    def why_no_wild(self, ruleset: "Ruleset", situation: Situation) -> Optional[Words]:
        return None

    def reading_keys(self, ruleset: "Ruleset", situation: Situation, tiles: "Tiles") -> Optional[ReadingKeys]:
        """Besides the common detectors' traits, 幺九 sees whether a block is of terminals and honours, the 三元
        and 四喜 each dragon and wind; 九莲宝灯 and 四鬼和 read the hand, so no block key."""
        if not own_detectors(self, ruleset, DETECTORS):
            return None
        traits = block_traits(frozenset(p.id for p in ruleset.patterns), tiles)

        def block(b: Any) -> Any:
            t = b.tiles[0]
            return traits(b), t if t >= 27 else is_terminal_or_honor(t) and all(is_terminal_or_honor(x) for x in b.tiles)

        return ReadingKeys(block, reads_hand_before_win, counted=None, signature=(self.id, traits.signature))


def _check_ghosts(situation: Situation, held: int) -> None:
    thrown = int(situation.extra("ghosts_out") or 0)
    if held + thrown > GHOSTS:
        raise ImpossibleSituation("guangdong.ghosts_many", field="ghosts_out", held=held, thrown=thrown)


REGION = GuangdongRegion()
