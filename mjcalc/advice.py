"""Discard advice under a ruleset: shanten 向听 and the tiles that improve a hand, every discard ranked, and the
waits of the best ready discards scored (the pure algorithm is `shanten.py`)."""
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from .analysis import Analysis, WaitResult, analyze, pay, setting, wall_of, wins_on_any_tile
from .hand import Hand
from .ruleset import Ruleset
from .scoring import prepare, score_hand
from .shanten import WILD_DISCARD, Discard, Improvement, discards, improvements, rank, shanten_by_shape
from .situation import Situation
from .tiles import NUM_KINDS, WILD, Wall

if TYPE_CHECKING:  # for annotations only: the value engine is imported when used (start-up time)
    from .value import Rivals, ValueAdvice


@dataclass
class DiscardAdvice:
    """A ranked discard: the tile thrown (as written in the hand), its shanten and improvements, and for a
    ready result the waits it leaves with what each would score."""

    tile: int  # the tile removed from the hand (`WILD` for a `*`)
    wild: bool  # the tile removed is a wildcard
    shanten: int
    improvements: Tuple[Improvement, ...]
    waits: List[WaitResult]  # for shanten 0
    every_tile: bool = False  # the region's win whatever the shape makes the 13 tiles left win on any tile
    after: Optional[Analysis] = None  # the 13 tiles left, analyzed, when their waits are scored

    @property
    def effective(self) -> int:
        return sum(i.left for i in self.improvements)


@dataclass
class Advice:
    """Shanten and discard advice for a 13- or 14-tile hand under a ruleset."""

    analysis: Analysis  # of the hand itself (its waits for 13 tiles; for 14, its score when it is complete)
    shanten: int  # by the shapes, or 0 (13 tiles) and -1 (14) where the region's automatic win says so
    by_shape: Dict[str, int]
    improvements: Tuple[Improvement, ...] = ()  # 13 tiles
    discards: Optional[List[DiscardAdvice]] = None  # 14 tiles
    value: Optional["ValueAdvice"] = None  # 14 tiles, `by` given: each discard's P(win) and expected payout


SCORED_DISCARDS = 3


def advise(hand: Hand, ruleset: Ruleset, situation: Situation, seen: Optional[Sequence[int]] = None,
           score_waits: bool = True, scored: int = SCORED_DISCARDS, by: Optional[str] = None,
           draws: Optional[int] = None, rivals: Optional["Rivals"] = None, alone: bool = False) -> Advice:
    """向听 and 有效牌 for 13 tiles; every discard ranked for 14, with the waits and scores of the best
    `scored` ready ones (scoring every wait of every ready discard can take seconds with four wildcards).

    `by` ("win" or "value", 14 tiles) values every discard as `advise --by` does (`Advice.value`, a
    `value.ValueAdvice`): within `draws` draws (8 by default), at the table (`rivals`, `value.TABLE` by default)
    or, `alone`, the player alone; `mjcalc.plan` gives the best discard as a plan to follow draw by draw.

    A hand the region's win whatever the shape makes a win on every tile it can draw is ready (0), and 14 tiles
    that are such a win are complete (-1): each discard keeping that win is ready on every tile with copies
    left, so it ranks above a discard that breaks it."""
    if by is not None and hand.size != 14:
        raise ValueError(f"{hand.size} tiles: the value of discards needs a 14-tile hand")
    here = setting(hand, ruleset, situation)
    tiles, warnings = here.tiles, here.warnings
    wild_kinds = tiles.wild_kinds
    wall = wall_of(here, seen)
    drawn = wall_of(here, seen, drawn=True)  # what may improve the hand (a region may bar a wait by its suits now)
    seen = wall.seen
    dropped = here.region.unkept(ruleset, here.situation)
    by_shape = shanten_by_shape(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, dropped)
    if hand.size == 13:
        result = analyze(hand, ruleset, situation, seen) if score_waits else Analysis(
            ruleset, here.region, hand, here.situation, tiles, warnings=warnings, seen=seen, wall=wall)
        kinds, now = improvements(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, wild_kinds, dropped)
        improved = tuple(Improvement(t, drawn.left(t)) for t in kinds if drawn.drawable(t))
        if wins_on_any_tile(ruleset, here.situation, tiles):
            now, improved = min(now, 0), _every_kind(wall)
            result.every_tile, result.automatic = True, here.region.automatic_pattern(ruleset)
        return Advice(result, now, by_shape, improvements=improved)
    base = Analysis(ruleset, here.region, hand, here.situation, tiles, warnings=warnings, seen=seen, wall=wall)
    now = min(by_shape.values())
    if here.region.automatic_win(ruleset, here.situation, tiles) is not None:
        now, base.automatic = -1, here.region.automatic_pattern(ruleset)
    if now == -1:  # the 14 tiles as they stand: a win ranks before every discard
        base.score = score_hand(tiles, here.situation, ruleset, here.region)
        if base.score.legal:
            base.payout = pay(base.score, ruleset, here.region)
    ranked = discards(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, wild_kinds, drawn, dropped)
    removed = {}
    for d in ranked:
        removed[d.tile] = next(t for t in hand.tiles if t == WILD or t in wild_kinds) if d.tile == WILD_DISCARD \
            else d.tile
    every = set()  # the discards that leave a hand winning on any tile
    if here.region.automatic_draws(ruleset, here.situation, tiles) is not None:
        every = {d.tile for d in ranked
                 if wins_on_any_tile(ruleset, here.situation, prepare(_less(hand, removed[d.tile]), wild_kinds))}
        ranked = sorted((Discard(d.tile, 0, _every_kind(wall)) if d.tile in every else d for d in ranked),
                        key=rank)
        if every and base.automatic is None:
            base.automatic = here.region.automatic_pattern(ruleset)
    out: List[DiscardAdvice] = []
    for d in ranked:
        advice = DiscardAdvice(removed[d.tile], d.tile == WILD_DISCARD, d.shanten, d.improvements, [],
                               every_tile=d.tile in every)
        if d.shanten == 0 and score_waits and sum(1 for x in out if x.waits) < scored:
            after = analyze(_less(hand, removed[d.tile]), ruleset, situation, seen)
            # the discarded tile lies on the table: the 14 tiles' wall counts it out
            waits = [replace(w, left=wall.left(w.tile)) for w in after.waits]
            advice.waits = [w for w in waits if w.left] if after.every_tile else waits
            advice.after = after
        out.append(advice)
    valued = None
    if by is not None:
        from .value import DEFAULT_DRAWS, TABLE, advise_value  # imported when used (start-up time)
        valued = advise_value(hand, ruleset, situation, seen, DEFAULT_DRAWS if draws is None else draws, by,
                              rivals=None if alone else rivals or TABLE)
    return Advice(base, now, by_shape, discards=out, value=valued)


def _less(hand: Hand, tile: int) -> Hand:
    rest = list(hand.tiles)
    rest.remove(tile)
    return Hand(tuple(sorted(rest)), hand.melds)


def _every_kind(wall: Wall) -> Tuple[Improvement, ...]:
    """Every kind with copies left in the `wall`: a hand winning on any tile."""
    return tuple(Improvement(t, wall.left(t)) for t in range(NUM_KINDS) if wall.left(t))
