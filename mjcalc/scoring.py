"""Score a hand: read it every way, match the ruleset's patterns on each reading, keep the best, judge legality."""
from dataclasses import dataclass, field
from functools import cached_property
from typing import List, Optional, Tuple

from .decompose import Block, Decomposition, decompositions
from .shapes import WaitFinder, waits
from .errors import HandError, SituationError
from .hand import WILD, Hand, Situation
from .patterns import DETECTORS
from .ruleset import Ruleset
from .tiles import NAMES, NUM_KINDS, next_in_cycle


@dataclass(frozen=True)
class Tiles:
    """A hand as the engine sees it under a ruleset's wildcards."""

    hand: Hand
    wild_kinds: Tuple[int, ...]
    naturals: Tuple[int, ...]  # concealed natural counts, the winning tile included
    wilds: int  # concealed wildcards, the winning tile included
    faces: Tuple[int, ...]  # each concealed wildcard's face (-1 for a faceless `*`)
    held: Tuple[int, ...]  # copies of each kind held, melds and wildcards' faces included

    @property
    def melds(self) -> int:
        return len(self.hand.melds)

    @property
    def wild_tiles(self) -> int:
        """Wildcard tiles among the 14, melds included (a 惠 in a meld is still a 惠 tile)."""
        return self.wilds + sum(1 for t in self.hand.meld_tiles if t in self.wild_kinds)

    @cached_property
    def before(self) -> "Tiles":
        """The 13 tiles before the winning tile; computed once per hand, whatever the number of readings."""
        return prepare(self.hand.without_winning(), self.wild_kinds)

    def waits_before(self, shapes) -> Tuple[int, ...]:
        """The waits of the 13 tiles before the winning tile under `shapes`, computed once per hand."""
        cache = self.__dict__.setdefault("_waits_before", {})
        if shapes not in cache:
            b = self.before
            cache[shapes] = waits(b.naturals, b.wilds, b.melds, shapes, b.held, b.wild_kinds)
        return cache[shapes]


def resolve_wild_kinds(ruleset: Ruleset, situation: Situation) -> Tuple[int, ...]:
    """The wildcard kinds from `--wild`, or the tile after `--indicator`."""
    kinds = tuple(situation.wild)
    if situation.indicator is not None:
        after = next_in_cycle(situation.indicator)
        if kinds and after not in kinds:
            raise SituationError(
                f"--indicator {NAMES[situation.indicator]} makes {NAMES[after]} wild, but --wild says "
                f"{','.join(NAMES[k] for k in kinds)}"
            )
        kinds = kinds or (after,)
    if len(kinds) > ruleset.wild_kinds:
        if ruleset.wild_kinds == 0:
            raise SituationError(f"{ruleset.id} plays without wildcards, but --wild names {len(kinds)}")
        plural = "s" if ruleset.wild_kinds > 1 else ""
        raise SituationError(f"{ruleset.id} has at most {ruleset.wild_kinds} wildcard kind{plural}, but --wild names {len(kinds)}")
    if len(set(kinds)) != len(kinds):
        raise SituationError("--wild names the same tile twice")
    return kinds


def prepared(hand: Hand, ruleset: Ruleset, situation: Situation) -> Tiles:
    """The hand under the ruleset's wildcards for this (adjusted) situation; a `*` where none play is an error."""
    from .payouts import SCHEMES

    scheme = SCHEMES[ruleset.payout]
    if WILD in hand.tiles and not scheme.plays_wild(ruleset, situation):
        why = f"under the bid {situation.bid}" if situation.bid else f"in {ruleset.id}"
        raise SituationError(f"the hand has a wildcard '*', but no wildcards are in play {why}")
    return prepare(hand, resolve_wild_kinds(ruleset, situation))


def prepare(hand: Hand, wild_kinds) -> Tiles:
    wild_kinds = tuple(wild_kinds)
    naturals = [0] * NUM_KINDS
    held = [0] * NUM_KINDS
    faces = []
    star_face = wild_kinds[0] if wild_kinds else -1
    for t in hand.tiles:
        if t == WILD or t in wild_kinds:
            face = star_face if t == WILD else t
            faces.append(face)
            if face >= 0:
                held[face] += 1
        else:
            naturals[t] += 1
            held[t] += 1
    for t in hand.meld_tiles:
        held[t] += 1
    for t in range(NUM_KINDS):
        if held[t] > 4:
            raise HandError(f"{held[t]} copies of {NAMES[t]} (wildcards count as their face): there are only 4")
    return Tiles(hand, wild_kinds, tuple(naturals), len(faces), tuple(sorted(faces)), tuple(held))


@dataclass
class Reading:
    """One decomposition of a complete hand, with the winning tile placed in one of its blocks."""

    tiles: Tiles
    situation: Situation
    ruleset: Ruleset
    decomposition: Optional[Decomposition]
    winning_block: Optional[Block]
    winning_as: Optional[int]

    @property
    def hand(self) -> Hand:
        return self.tiles.hand

    @property
    def shape(self) -> Optional[str]:
        return self.decomposition.shape if self.decomposition else None

    @cached_property
    def blocks(self) -> Tuple[Block, ...]:
        melds = tuple(Block(m.kind, m.tiles) for m in self.hand.melds)
        return (self.decomposition.blocks if self.decomposition else ()) + melds

    @cached_property
    def kinds(self) -> frozenset:
        """Every tile kind in the hand, wildcards as what they stand for."""
        if self.decomposition is None:
            return frozenset(t for t in self.hand.tiles + self.hand.meld_tiles if t != WILD)
        return frozenset(t for b in self.blocks for t in b.tiles)

    @property
    def wild_tiles(self) -> int:
        return self.tiles.wild_tiles

    @cached_property
    def wild_roles(self) -> int:
        """Wildcards standing for something other than their own face (a 宝 as itself is not wild)."""
        if self.decomposition is None:
            return self.tiles.wilds
        stand = list(self.decomposition.wild_as)
        own = 0
        for face in self.tiles.faces:
            if face in stand:
                stand.remove(face)
                own += 1
        return self.tiles.wilds - own

    @property
    def four_of_a_wild_kind(self) -> bool:
        return any(self.tiles.held[k] == 4 for k in self.tiles.wild_kinds)

    @property
    def waits_before(self) -> Tuple[int, ...]:
        """The waits of the hand before its winning tile."""
        return self.tiles.waits_before(self.ruleset.shapes)

    @property
    def natural_waits_before(self) -> Tuple[int, ...]:
        return tuple(t for t in self.waits_before if t not in self.tiles.wild_kinds)


@dataclass(frozen=True)
class Match:
    pattern_id: str
    count: int
    value: int  # points for add/base/bonus, the factor for a multiplier


@dataclass
class Score:
    """The best reading of a hand and what it is worth; `legal` with the `reason` when it is not."""

    complete: bool
    legal: bool
    reason: Optional[str]
    reading: Optional[Reading] = None
    matches: Tuple[Match, ...] = ()
    total: int = 0
    bonus: int = 0
    decompositions: List[Decomposition] = field(default_factory=list)
    self_drawn: bool = True


def _placements(decomposition: Decomposition, tiles: Tiles):
    """(block, stand-in) pairs where the winning tile can sit."""
    win = tiles.hand.winning
    wild = win == WILD or win in tiles.wild_kinds
    seen = set()
    for block in decomposition.blocks:
        if wild:
            for t in sorted(set(block.wild_as)):
                if (block, t) not in seen:
                    seen.add((block, t))
                    yield block, t
        elif block.tiles.count(win) > block.wild_as.count(win) and (block, win) not in seen:
            seen.add((block, win))
            yield block, win


def match_patterns(reading: Reading) -> Tuple[Tuple[Match, ...], int, int]:
    """The patterns that count on a reading after exclusions, the total (capped) and the bonus points.

    Of several base patterns the one giving the highest final total is kept; a base's own exclusions apply
    only when it is the one kept. A pattern's `params.without_wild` is its value when no wildcard plays a
    wildcard role (a wildcard standing for its own face is not wild).
    """
    rules = reading.ruleset
    found = {}
    for p in rules.patterns:
        count = DETECTORS[p.id](reading, p)
        if count:
            found[p.id] = (p, count)
    standalone = [pid for pid, (p, _) in found.items() if p.standalone]
    if standalone:
        best = max(standalone, key=lambda pid: _points(*found[pid], reading))
        found = {pid: v for pid, v in found.items() if pid == best or v[0].role == "bonus"}
    excluded = {x for p, _ in found.values() if p.role != "base" for x in p.excludes}
    found = {pid: v for pid, v in found.items() if pid not in excluded}
    bases = [pid for pid, (p, _) in found.items() if p.role == "base"]
    bases = [pid for pid in bases if not any(pid in found[other][0].excludes for other in bases)] or [None]
    best = None
    for keep in bases:
        kept = {pid: v for pid, v in found.items() if pid == keep or v[0].role != "base"}
        if keep is not None:
            kept = {pid: v for pid, v in kept.items() if pid not in found[keep][0].excludes}
        result = _tally(reading, kept)
        if best is None or result[1:] > best[1:]:
            best = result
    return best


def _tally(reading: Reading, found) -> Tuple[Tuple[Match, ...], int, int]:
    rules = reading.ruleset
    matches, points, factor, bonus = [], 0, 1, 0
    for p in rules.patterns:
        if p.id not in found:
            continue
        count = found[p.id][1]
        if p.role == "multiplier":
            value = _value(p, reading) ** count
            factor *= value
        else:
            value = _points(p, count, reading)
            if p.role == "bonus":
                bonus += value
            else:
                points += value
        matches.append(Match(p.id, count, value))
    total = points * factor
    if rules.cap is not None:
        total = min(total, rules.cap)
    return tuple(matches), total, bonus


def _value(p, reading) -> int:
    without = p.param("without_wild")
    return without if without is not None and reading.wild_roles == 0 else p.value


def _points(p, count, reading) -> int:
    value = _value(p, reading)
    if p.scale == "once":
        return value
    return value * (2 ** count if p.scale == "power" else count)


def _readings(tiles: Tiles, situation: Situation, ruleset: Ruleset, decomps):
    for d in decomps:
        placed = list(_placements(d, tiles)) or [(None, None)]
        for block, stand in placed:
            yield Reading(tiles, situation, ruleset, d, block, stand)


def score_hand(hand: Hand, situation: Situation, ruleset: Ruleset) -> Score:
    """Every reading of a 14-tile hand scored; the best kept; legality judged."""
    from .payouts import SCHEMES

    scheme = SCHEMES[ruleset.payout]
    situation = scheme.adjust(ruleset, situation)
    tiles = prepared(hand, ruleset, situation)
    decomps = list(decompositions(tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, tiles.faces))
    automatic = "four_wilds" in {p.id for p in ruleset.patterns} and any(
        tiles.held[k] == 4 for k in tiles.wild_kinds
    )
    if automatic:
        situation = _as_self_draw(situation)  # 四惠牌 wins whatever the shape, scored as a self-draw
    if not decomps and not automatic:
        return Score(False, False, "not a winning shape", decompositions=decomps,
                     self_drawn=situation.self_drawn)
    best = None
    readings = list(_readings(tiles, situation, ruleset, decomps)) or [
        Reading(tiles, situation, ruleset, None, None, None)
    ]
    for reading in readings:
        matches, total, bonus = match_patterns(reading)
        if best is None or (total, bonus) > (best[1], best[2]):
            best = (matches, total, bonus, reading)
    matches, total, bonus, reading = best
    reason = _illegal(reading, matches, total, situation, ruleset, tiles)
    return Score(bool(decomps) or automatic, reason is None, reason, reading, matches, total, bonus, decomps,
                 situation.self_drawn)


def _as_self_draw(situation: Situation) -> Situation:
    from dataclasses import replace
    return replace(situation, discarder=None, rob_kong=False)


def _illegal(reading, matches, total, situation, ruleset, tiles) -> Optional[str]:
    """Why a complete hand is not a legal win here, or None."""
    hand = tiles.hand
    ids = {m.pattern_id for m in matches}
    if "four_wilds" in ids:
        return None
    if not situation.self_drawn:
        rule = ruleset.rob_kong if situation.rob_kong else ruleset.discard
        what = "rob a kong" if situation.rob_kong else "win on a discard"
        earthly = (ruleset.earthly_discard_from_dealer and situation.first_turn and not situation.is_dealer
                   and situation.discarder == situation.dealer)
        if rule == "never" and not earthly:
            return f"{ruleset.id} allows no {'robbing a kong' if situation.rob_kong else 'discard wins'}: this hand must be self-drawn"
        if rule == "concealed" and not hand.is_concealed:
            return f"吃碰堤: a hand with an exposed meld (吃/碰/明杠) may not {what}; it must self-draw"
        limit = ruleset.max_wilds_on_discard
        if limit is not None and tiles.wild_tiles > limit:
            return f"a hand holding {tiles.wild_tiles} {ruleset.wild_zh} (more than {limit}) must self-draw"
    if ruleset.zero_self_draw_only and total == 0 and not situation.self_drawn:
        return f"a hand worth 0 {ruleset.unit_zh} (推倒和) may only be won by self-draw"
    minimum = ruleset.minimum
    bidder = ruleset.bidder_minimum_is_bid and situation.bidder == situation.seat and situation.bid
    if bidder:
        from .payouts import bid_level
        minimum = max(minimum, bid_level(situation.bid)[0])
    below_ok = any(ruleset.pattern(m.pattern_id).below_minimum for m in matches)
    if total < minimum and not below_ok:
        who = "the 包家 " if bidder else ""
        return f"complete, but {total} {ruleset.unit_zh}: {who}needs {minimum}"
    return None


def ready_waits(tiles: Tiles, ruleset: Ruleset) -> Tuple[int, ...]:
    return WaitFinder(ruleset.shapes, tiles.wild_kinds).waits(tiles.naturals, tiles.wilds, tiles.melds, tiles.held)
