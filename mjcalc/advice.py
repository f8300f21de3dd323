"""Discard advice under a ruleset: shanten 向听 and the tiles that improve a hand, every discard ranked, and the
waits of the best ready discards scored (the pure algorithm is `shanten.py`)."""
from dataclasses import dataclass, replace
from typing import Dict, List, Tuple

from .analysis import Analysis, WaitResult, analyze, check_seen, setting
from .hand import Hand
from .shanten import WILD_DISCARD, Improvement, discards, improvements, shanten_by_shape
from .tiles import WILD


@dataclass
class DiscardAdvice:
    """A ranked discard: the tile thrown (as written in the hand), its shanten and improvements, and for a
    ready result the waits it leaves with what each would score."""

    tile: int  # the tile removed from the hand (`WILD` for a `*`)
    wild: bool  # the tile removed is a wildcard
    shanten: int
    improvements: Tuple[Improvement, ...]
    waits: List[WaitResult]  # for shanten 0

    @property
    def effective(self) -> int:
        return sum(i.left for i in self.improvements)


@dataclass
class Advice:
    """Shanten and discard advice for a 13- or 14-tile hand under a ruleset."""

    analysis: Analysis  # of the hand itself (its waits for 13 tiles; no scoring for 14)
    shanten: int
    by_shape: Dict[str, int]
    improvements: Tuple[Improvement, ...] = ()  # 13 tiles
    discards: List[DiscardAdvice] = None  # 14 tiles


SCORED_DISCARDS = 3


def advise(hand, ruleset, situation, seen=None, score_waits: bool = True, scored=SCORED_DISCARDS) -> Advice:
    """向听 and 有效牌 for 13 tiles; every discard ranked for 14, with the waits and scores of the best
    `scored` ready ones (scoring every wait of every ready discard can take seconds with four wildcards)."""
    here = setting(hand, ruleset, situation)
    tiles, warnings = here.tiles, here.warnings
    wild_kinds = tiles.wild_kinds
    seen = check_seen(tiles.held, seen)
    by_shape = shanten_by_shape(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes)
    if hand.size == 13:
        result = analyze(hand, ruleset, situation, seen) if score_waits else Analysis(
            ruleset, here.region, hand, here.situation, tiles, warnings=warnings, seen=seen)
        kinds, now = improvements(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, wild_kinds)
        improved = tuple(Improvement(t, max(0, 4 - tiles.held[t] - seen[t])) for t in kinds if tiles.held[t] < 4)
        return Advice(result, now, by_shape, improvements=improved)
    base = Analysis(ruleset, here.region, hand, here.situation, tiles, warnings=warnings, seen=seen)
    ranked = discards(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, wild_kinds, tiles.held, seen)
    out = []
    for d in ranked:
        if d.tile == WILD_DISCARD:
            removed = next(t for t in hand.tiles if t == WILD or t in wild_kinds)
        else:
            removed = d.tile
        waits = []
        if d.shanten == 0 and score_waits and sum(1 for x in out if x.waits) < scored:
            rest = list(hand.tiles)
            rest.remove(removed)
            after = analyze(Hand(tuple(sorted(rest)), hand.melds), ruleset, situation, seen)
            waits = [replace(w, left=max(0, 4 - tiles.held[w.tile] - seen[w.tile])) for w in after.waits]
        out.append(DiscardAdvice(removed, d.tile == WILD_DISCARD, d.shanten, d.improvements, waits))
    return Advice(base, min(by_shape.values()), by_shape, discards=out)
