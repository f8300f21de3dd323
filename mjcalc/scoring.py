"""Score a hand: read it every way, match the ruleset's patterns on each reading, keep the best, judge legality.

The scorer is generic: the ruleset gives the values and the region (`regions/`) gives the detectors, the
automatic wins and the reasons a complete hand is not a legal win.
"""
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import (Any, Callable, ClassVar, Collection, Dict, FrozenSet, Hashable, Iterable, Iterator, List, Literal,
                    Mapping, Optional, Protocol, Sequence, Set, Tuple, Union)

from .decompose import Block, Decomposition, Decompositions, decompositions, keyed_decompositions
from .errors import HandError, Notice, SituationError
from .hand import CHOW, KONG, PUNG, Hand
from .messages import Message
from .payouts import MAX_AMOUNT
from .ruleset import Pattern, Ruleset
from .shapes import SHAPES, STANDARD, WaitFinder, is_complete
from .situation import Situation
from .regions.base import AnyReading, ReadingKeys, Region
from .tiles import NAMES, NUM_KINDS, WILD


Key = Tuple[Any, ...]  # what a region or the scorer keys a block or a reading by
Detectors = Mapping[str, Callable[..., int]]  # pattern id -> detector(reading, pattern) -> count
Tallied = Tuple[Tuple["Match", ...], int, int, int]  # matches, total (capped), bonus, total before the cap


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

    @property
    def wild_held(self) -> int:
        """Tiles of the wild kinds held, melds included (a wildcard counted by its face)."""
        return sum(self.held[k] for k in self.wild_kinds)

    @property
    def four_of_a_wild_kind(self) -> bool:
        """All four tiles of some wild kind among the 14 (melds included)."""
        return any(self.held[k] == 4 for k in self.wild_kinds)

    @cached_property
    def before(self) -> "Tiles":
        """The 13 tiles before the winning tile; computed once per hand, whatever the number of readings."""
        return prepare(self.hand.without_winning(), self.wild_kinds)

    def waits_before(self, shapes: Collection[str]) -> Tuple[int, ...]:
        """The waits of the 13 tiles before the winning tile under `shapes`, computed once per hand (and once
        for the hands of a process that share those 13 tiles: the waits of a hand, the draws of advise)."""
        cache: Dict[Collection[str], Tuple[int, ...]] = self.__dict__.setdefault("_waits_before", {})
        if shapes not in cache:
            b = self.before
            key = (b.naturals, b.wilds, b.melds, shapes, b.held, b.wild_kinds)
            hit = _WAITS.get(key)
            if hit is None:
                if len(_WAITS) >= _MOST_WAITS:
                    _WAITS.clear()
                hit = _WAITS[key] = _finder(shapes, b.wild_kinds).waits(b.naturals, b.wilds, b.melds, b.held)
            cache[shapes] = hit
        return cache[shapes]


# the 13 tiles before a winning tile (counts, shapes, wild kinds) -> their waits
_WAITS: Dict[Key, Tuple[int, ...]] = {}
_MOST_WAITS = 50_000  # bound for a long-running process
_FINDERS: Dict[Key, WaitFinder] = {}  # (shapes, wild kinds) -> WaitFinder


def _finder(shapes: Collection[str], wild_kinds: Tuple[int, ...]) -> WaitFinder:
    finder = _FINDERS.get((shapes, wild_kinds))
    if finder is None:
        finder = _FINDERS[(shapes, wild_kinds)] = WaitFinder(shapes, wild_kinds)
    return finder


def prepare(hand: Hand, wild_kinds: Iterable[int]) -> Tiles:
    """The hand as the engine sees it when `wild_kinds` are wild; a fifth copy (a wildcard counting as its
    face) is a HandError."""
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
            raise HandError("scoring.fifth_copy", count=held[t], tile=NAMES[t])
    return Tiles(hand, wild_kinds, tuple(naturals), len(faces), tuple(sorted(faces)), tuple(held))


@dataclass
class Reading:
    """One decomposition of a complete hand, with the winning tile placed in one of its blocks."""

    told: ClassVar[Literal[False]] = False  # a reading of the tiles themselves (`told.ToldReading` is a hand told by its patterns)

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
    def sets(self) -> Tuple[Block, ...]:
        """The chows, pungs and kongs among the blocks, melds included."""
        return tuple(b for b in self.blocks if b.kind in (CHOW, PUNG, KONG))

    @cached_property
    def only_pungs(self) -> bool:
        """A standard reading whose every set is a pung or a kong."""
        return self.shape == STANDARD and all(b.kind != CHOW for b in self.sets)

    @cached_property
    def kinds(self) -> FrozenSet[int]:
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
        return self.tiles.four_of_a_wild_kind

    @property
    def waits_before(self) -> Tuple[int, ...]:
        """The waits of the hand before its winning tile."""
        return self.tiles.waits_before(self.ruleset.shapes)

    @property
    def natural_waits_before(self) -> Tuple[int, ...]:
        return tuple(t for t in self.waits_before if t not in self.tiles.wild_kinds)


class Valued(Protocol):
    """What a pattern's value reads of a reading: a `Reading`, or a hand told by its patterns (`told.ToldReading`)."""

    @property
    def situation(self) -> Situation: ...

    @property
    def wild_roles(self) -> int: ...


@dataclass(frozen=True)
class Match:
    pattern_id: str
    count: int
    value: int  # points for add/base/bonus, the factor for a multiplier


@dataclass
class Score:
    """The best reading of a hand and what it is worth; `legal` with the `reason` when it is not: a `Message`,
    which each front end says in its own language (`reason.text(lang)`, or as a parameter of its own message)."""

    complete: bool
    legal: bool
    reason: Optional[Message]
    reading: Optional[AnyReading] = None  # a told hand's is a ToldReading
    matches: Tuple[Match, ...] = ()
    total: int = 0
    bonus: int = 0
    decompositions: Sequence[Decomposition] = field(default_factory=list)
    situation: Optional[Situation] = None  # as the hand is paid (an automatic win is paid as a self-draw)
    notes: Tuple[Notice, ...] = ()  # a rule that overrode the situation, a total the cap cut
    uncapped: Optional[int] = None  # the total before the cap (None: the total)

    @property
    def self_drawn(self) -> bool:
        return self.situation is not None and self.situation.self_drawn


def _placements(decomposition: Decomposition, tiles: Tiles) -> Iterator[Tuple[Block, int]]:
    """(block, stand-in) pairs where the winning tile can sit."""
    win = tiles.hand.winning
    wild = win == WILD or win in tiles.wild_kinds
    seen = set()
    for block in decomposition.blocks:
        for t in _stands(block, win, wild):
            if (block, t) not in seen:
                seen.add((block, t))
                yield block, t


def _stands(block: Block, win: Optional[int], wild: bool) -> Tuple[int, ...]:
    """What the winning tile may stand for in `block`: any of its wildcards' stand-ins when it is a wildcard,
    else itself where the block holds a natural copy of it."""
    if wild:
        return tuple(sorted(set(block.wild_as)))
    return (win,) if win is not None and block.tiles.count(win) > block.wild_as.count(win) else ()


class _Joined:
    """Several situations' keys as one: two blocks are alike when every situation's keys say so."""

    def __init__(self, keys: Sequence[Any]) -> None:
        self.keys = keys
        self.place: Optional[Callable[[Block, int], Key]] = \
            self._place if any(k.place is not None for k in keys) else None
        self.counted: Optional[Callable[[Key], bool]] = \
            None if any(k.counted is None for k in keys) else self._counted
        self.whole: Optional[Callable[[Block], Key]] = None if any(k.whole is None for k in keys) else self._whole
        self.summary: Optional[Callable[[Key], Key]] = \
            None if any(k.summary is None for k in keys) else self._summary

    def _summary(self, keys: Key) -> Key:
        return tuple(k.summary(tuple((kind, key[i]) for kind, key in keys)) for i, k in enumerate(self.keys))

    def _whole(self, b: Block) -> Key:
        return tuple(k.whole(b) for k in self.keys)

    def _counted(self, key: Key) -> bool:
        return any(k.counted(part) for k, part in zip(self.keys, key))

    def block(self, b: Block) -> Key:
        return tuple(k.block(b) for k in self.keys)

    def _place(self, b: Block, stand: int) -> Key:
        return tuple(k.place(b, stand) if k.place is not None else None for k in self.keys)


# signature -> _Keys, shared by the hands whose keys are the same (the waits of a hand, say)
_SPACES: Dict[Hashable, "_Keys"] = {}
_MOST_SPACES, _MOST_MEMO = 256, 200_000  # bounds, so that a long-running process (serve, a batch) does not grow


def _keys_for(region_keys: Sequence[ReadingKeys], tiles: Tiles, ruleset: Ruleset) -> "_Keys":
    """The `_Keys` of this hand: shared with earlier hands of the same signature, when every situation's keys
    have one (they then key every block alike, and the keyed unit options need not be made again)."""
    keys = _Keys(region_keys, tiles, ruleset)
    if any(k.signature is None for k in region_keys):
        return keys
    region = tuple((k.signature, k.place, k.counted, k.whole, k.summary, k.wild_roles) for k in region_keys)
    signature = (region, keys.wild_kinds, (keys.win, keys.wild) if keys.placed else None)
    shared = _SPACES.get(signature)
    if shared is None or shared.size() > _MOST_MEMO:
        if len(_SPACES) >= _MOST_SPACES:
            _SPACES.clear()
        shared = _SPACES[signature] = keys
    return shared


class _Keys:
    """The region's `ReadingKeys` for one hand with what the scorer adds (see there), memoised by block."""

    def __init__(self, keys: Sequence[ReadingKeys], tiles: Tiles, ruleset: Ruleset) -> None:
        keys = list(keys)
        self.region: Union[ReadingKeys, _Joined] = keys[0] if len(keys) == 1 else _Joined(keys)
        roles = any(k.wild_roles for k in keys) or any(p.param("without_wild") is not None for p in ruleset.patterns)
        self.wild_kinds = tuple(tiles.wild_kinds) if roles else ()
        win = tiles.hand.winning
        self.win, self.wild = win, win == WILD or win in tiles.wild_kinds
        self.placed = self.region.place is not None
        self.memo: Dict[int, Tuple[Block, int]] = {}
        # keyed_decompositions' own, kept with the keys it was made with
        self.decompose_memo: Dict[str, Dict[Any, Any]] = {}
        self.full_keys: List[Key] = []  # by key id
        self.summaries: Dict[Key, Any] = {}
        self.ids: Dict[Key, int] = {}
        region_counted = self.region.counted
        # a key is counted (its multiplicity kept) when the region counts it or its block's wildcards play roles
        self.counted_ids: Set[int] = set()
        self.counted = None if region_counted is None else self.counted_ids.__contains__
        self._region_counted = region_counted

    def size(self) -> int:
        """How many things this key space remembers (a long-running process starts a full one afresh)."""
        return len(self.memo) + len(self.summaries) + sum(len(v) for v in self.decompose_memo.values())

    @property
    def summary(self) -> Optional[Callable[[Tuple[int, ...]], Any]]:
        """The region's summary of a decomposition's keys, when it gives one and nothing else tells readings
        apart: no winning block read, no wildcard roles counted."""
        if self.region.summary is None or self.placed or self.wild_kinds:
            return None
        return self._summary

    def _summary(self, ids: Tuple[int, ...]) -> Any:
        hit = self.summaries.get(ids)
        if hit is None:
            full = self.full_keys
            summary = self.region.summary
            assert summary is not None  # handed out by `summary` only when the region has one
            hit = self.summaries[ids] = summary(tuple((full[i][0], full[i][3]) for i in ids))
        return hit

    @property
    def whole(self) -> Optional[Callable[[Block], Key]]:
        """The key of an irregular shape's one block, when the region keys those."""
        return None if self.region.whole is None else self._whole

    def _whole(self, b: Block) -> Key:
        whole = self.region.whole
        assert whole is not None  # handed out by `whole` only when the region has one
        return self._full(b, whole(b))

    def _full(self, b: Block, region_key: Any) -> Key:
        place = self.region.place
        return (
            b.kind, tuple(b.wild_as.count(k) for k in self.wild_kinds),
            frozenset((len(b.wild_as), place(b, t)) for t in _stands(b, self.win, self.wild)) if place is not None
            else None,
            region_key,
        )

    def block(self, b: Block) -> int:
        """The block's key, as a small int (one per distinct key of this hand) so that keys sort. Memoised by the
        block's id, the block kept alongside so that the id stays its own."""
        hit = self.memo.get(id(b))
        if hit is not None and hit[0] is b:
            return hit[1]
        full = self._full(b, self.region.block(b))
        key = self.ids.get(full)
        if key is None:
            key = self.ids[full] = len(self.ids)
            self.full_keys.append(full)
            if self._region_counted is not None and (any(full[1]) or self._region_counted(full[3])):
                self.counted_ids.add(key)
        self.memo[id(b)] = (b, key)
        return key

    def place(self, b: Block, stand: int) -> Optional[Key]:
        place = self.region.place
        if place is None:
            return None
        return self.block(b), len(b.wild_as), place(b, stand)


# (id(ruleset), id(detectors)) -> (ruleset, detectors, _Plan): how each shape's readings are matched
_PLANS: Dict[Tuple[int, int], Tuple[Ruleset, Dict[str, Callable[..., Any]], "_Plan"]] = {}


@dataclass
class _Plan:
    """A ruleset's patterns as the scorer runs them: the ones read once a hand (`patterns.per_hand`), and for each
    shape the patterns in their order with the detector to run (None: the hand's count), less those that count 0
    on that shape (`patterns.only_on`); for each shape the patterns made of sets (`combines`, `patterns.of_sets`)
    with their predicates; whether any pattern's value depends on wildcard roles."""

    per_hand: Tuple[Pattern, ...]
    by_shape: Dict[Optional[str], List[Tuple[Pattern, Optional[Callable[..., int]]]]]
    roles: bool
    of_sets: Dict[Optional[str], List[Tuple[Pattern, Callable[..., Any]]]] = field(default_factory=dict)


def _plan(ruleset: Ruleset, detectors: Detectors) -> _Plan:
    key = (id(ruleset), id(detectors))
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is ruleset and hit[1] == detectors:
        return hit[2]
    per_hand = tuple(p for p in ruleset.patterns if getattr(detectors[p.id], "per_hand", False))
    # a pattern of sets whose detector reads them (a hand told by its patterns names its count instead)
    made_of_sets = {p.id for p in ruleset.patterns if p.combines and getattr(detectors[p.id], "combines", 0)}
    by_shape = {
        shape: [(p, None if p in per_hand else detectors[p.id]) for p in ruleset.patterns
                if shape in getattr(detectors[p.id], "shapes", (shape,)) and p.id not in made_of_sets]
        for shape in SHAPES + (None,)
    }
    of_sets = {
        shape: [(p, detectors[p.id]) for p in ruleset.patterns
                if p.id in made_of_sets and shape in getattr(detectors[p.id], "shapes", (shape,))]
        for shape in SHAPES + (None,)
    }
    plan = _Plan(per_hand, by_shape, any(p.param("without_wild") is not None for p in ruleset.patterns), of_sets)
    if len(_PLANS) >= 64:
        _PLANS.clear()
    _PLANS[key] = (ruleset, dict(detectors), plan)  # the ruleset kept alive, so its id stays its own
    return plan


def match_patterns(reading: Any, detectors: Detectors, per_hand: Optional[Dict[str, int]] = None,
                   memo: Optional[Dict[Key, Tallied]] = None) -> Tallied:
    """The patterns that count on a reading after exclusions, the total (capped), the bonus points, and the
    total before the cap.

    Of several base patterns the one giving the highest final total is kept; a base's own exclusions apply
    only when it is the one kept. A pattern that another counted pattern excludes excludes nothing itself. A
    pattern's `params.without_wild` is its value when no wildcard plays a wildcard role (a wildcard standing for its
    own face is not wild). The patterns made of sets (`combines`) count as the best selection of the combinations
    of the reading's sets they hold on allows (`selections`).

    Only the patterns that can count on the reading's shape are run (`patterns.only_on`). `per_hand`: the counts
    of the patterns whose detector reads only the hand and the situation (`patterns.per_hand`), found once for
    all the readings of a hand (`hand_counts`); None finds them on this reading. `memo`, a dict kept by the
    caller for one situation: readings whose patterns count alike (and alike have a wildcard in a wildcard role
    or not, when a pattern's value depends on it) are tallied once.
    """
    plan = _plan(reading.ruleset, detectors)
    if per_hand is None:
        per_hand = hand_counts(reading, detectors)
    found = {}
    for p, detector in plan.by_shape[reading.shape]:
        count = per_hand[p.id] if detector is None else detector(reading, p)
        if count:
            found[p.id] = (p, count)
    combos = combinations_held(reading, plan.of_sets[reading.shape])
    if memo is None:
        return _combined(reading, found, combos)
    key = (tuple((pid, c) for pid, (_, c) in found.items()), plan.roles and reading.wild_roles == 0,
           tuple((p.id, sets) for p, sets in combos))
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _combined(reading, found, combos)
    return hit


Combination = Tuple[Pattern, Tuple[int, ...]]  # a pattern made of sets, and which of the reading's sets make it


def combinations_held(reading: Any, patterns: Sequence[Tuple[Pattern, Callable[..., Any]]]) -> List[Combination]:
    """Every (pattern, N of the reading's sets) that holds: for each pattern made of N sets (`combines: N`), each
    combination of N of the reading's sets (melds included, in the order of their tiles) its predicate holds on."""
    if not patterns:
        return []
    sets = sorted(reading.sets, key=lambda b: b.tiles)
    held = []
    for p, detector in patterns:
        for chosen in combinations(range(len(sets)), p.combines):
            if detector(tuple(sets[i] for i in chosen), p):
                held.append((p, chosen))
    return held


def selections(combos: Sequence[Combination]) -> Iterator[Dict[str, int]]:
    """The counts, pattern by pattern, of every selection of `combos` the principles of combining allow and to
    which no other can be added (a 番 that holds is counted: none is left out by choice), each distinct one once:

    - 不得相同 (not the same 番 again): no set is in two chosen combinations of the same pattern;
    - 套算一次 (one more pairing only): the chosen combinations form no cycle over the sets: taken in any order, each
      joins sets not yet connected (a union-find over the sets);
    - 不拆移 (no taking apart: two chosen combinations share at most one set) follows from the second.

    So beside a pattern of four sets no other counts, beside one of three the fourth set pairs once, and four sets
    make at most three pairings, three sets two."""
    seen: Set[Tuple[Tuple[str, int], ...]] = set()

    def root(parent: Dict[int, int], i: int) -> int:
        while parent.get(i, i) != i:
            i = parent[i]
        return i

    def fits(combo: Combination, chosen: List[Combination], parent: Dict[int, int]) -> bool:
        p, sets = combo
        if any(q.id == p.id and set(sets) & set(used) for q, used in chosen):
            return False
        return len({root(parent, i) for i in sets}) == len(sets)  # else two of its sets are connected: a cycle

    def grow(at: int, chosen: List[Combination], parent: Dict[int, int]) -> Iterator[Dict[str, int]]:
        if at == len(combos):
            if any(c not in chosen and fits(c, chosen, parent) for c in combos):
                return  # another could still be added
            counts: Dict[str, int] = {}
            for p, _ in chosen:
                counts[p.id] = counts.get(p.id, 0) + 1
            key = tuple(sorted(counts.items()))
            if key not in seen:
                seen.add(key)
                yield counts
            return
        yield from grow(at + 1, chosen, parent)
        if not fits(combos[at], chosen, parent):
            return
        roots = {root(parent, i) for i in combos[at][1]}
        joined = dict(parent)
        first, *rest = roots
        for r in rest:
            joined[r] = first
        yield from grow(at + 1, chosen + [combos[at]], joined)

    yield from grow(0, [], {})


def _combined(reading: Any, found: Dict[str, Tuple[Pattern, int]], combos: Sequence[Combination]) -> Tallied:
    """The best tally of the patterns `found` with each selection of the patterns made of sets (`selections`): the
    one scoring most (就高不就低), each pattern's exclusions applied; of two worth the same, the one naming the
    patterns earlier in the ruleset (`_ranked`)."""
    if not combos:
        return _matched(reading, found)
    by_id = {p.id: p for p, _ in combos}
    best: Optional[Tallied] = None
    for counts in selections(combos):
        result = _matched(reading, {**found, **{pid: (by_id[pid], n) for pid, n in counts.items()}})
        if best is None or _ranked(reading.ruleset, result) > _ranked(reading.ruleset, best):
            best = result
    assert best is not None  # one selection at least
    return best


def _ranked(ruleset: Ruleset, tallied: Tallied) -> Tuple[int, int, Tuple[int, ...]]:
    """How a tally ranks against another of the same hand: by its total, then its bonus, then (a tie) by the
    patterns it counts, those earlier in the ruleset's order first (the book's table runs from the highest 番 down:
    of two readings worth the same, the one naming the higher-ranked 番 is shown)."""
    order = {p.id: i for i, p in enumerate(ruleset.patterns)}
    earliest = sorted(order[m.pattern_id] for m in tallied[0] for _ in range(m.count))
    return tallied[1], tallied[2], tuple(-i for i in earliest)


def hand_counts(reading: Any, detectors: Detectors) -> Dict[str, int]:
    """The counts of the patterns read once a hand (`patterns.per_hand`), found on one of its readings."""
    return {p.id: detectors[p.id](reading, p) for p in _plan(reading.ruleset, detectors).per_hand}


def _matched(reading: Any, found: Dict[str, Tuple[Pattern, int]]) -> Tallied:
    """The tally of the patterns `found`, exclusions applied; a pattern whose `params.or_without` is true counts
    only where the hand scores more with it (its exclusions applied) than without it (就高不就低)."""
    best = _excluded(reading, found)
    for pid, (p, _) in found.items():
        if p.param("or_without"):
            without = _excluded(reading, {other: v for other, v in found.items() if other != pid})
            if without[1:3] > best[1:3]:
                best = without
    return best


def _not_excluded(found: Dict[str, Tuple[Pattern, int]]) -> Set[str]:
    """The patterns `found` that no counted pattern (other than a base) excludes: one that another excludes does not
    count, and so excludes nothing itself (七对 drops 不求人, which then does not drop 自摸). The exclusions have no
    cycle (`ruleset._check_exclusions`), so each pattern is decided after those that exclude it."""
    excluders = {pid: [o for o, (q, _) in found.items() if q.role != "base" and pid in q.excludes] for pid in found}
    counted: Dict[str, bool] = {}

    def counts(pid: str) -> bool:
        if pid not in counted:
            counted[pid] = not any(counts(o) for o in excluders[pid])
        return counted[pid]

    return {pid for pid in found if counts(pid)}


def _excluded(reading: Any, found: Dict[str, Tuple[Pattern, int]]) -> Tallied:
    standalone = [pid for pid, (p, _) in found.items() if p.standalone]
    if standalone:
        top = max(standalone, key=lambda pid: pattern_points(*found[pid], reading))
        found = {pid: v for pid, v in found.items() if pid == top or v[0].role == "bonus"}
    counted = _not_excluded(found)
    found = {pid: v for pid, v in found.items() if pid in counted}
    all_bases = [pid for pid, (p, _) in found.items() if p.role == "base"]
    bases: List[Optional[str]] = [
        pid for pid in all_bases if not any(pid in found[other][0].excludes for other in all_bases)
    ] or [None]
    best: Optional[Tuple[Tuple[Match, ...], int, int, int]] = None
    for keep in bases:
        kept = {pid: v for pid, v in found.items() if pid == keep or v[0].role != "base"}
        if keep is not None:
            kept = {pid: v for pid, v in kept.items() if pid not in found[keep][0].excludes}
        result = _tally(reading, kept)
        if best is None or result[1:3] > best[1:3]:
            best = result
    assert best is not None  # one base at least (None: no base)
    return best


def _tally(reading: Any, found: Dict[str, Tuple[Pattern, int]]) -> Tallied:
    rules = reading.ruleset
    matches, points, factor, bonus = [], 0, 1, 0
    for p in rules.patterns:
        if p.id not in found:
            continue
        count = found[p.id][1]
        if p.role == "multiplier":
            value = _value(p, reading) ** (1 if p.scale == "once" else count)
            factor *= value
        else:
            value = pattern_points(p, count, reading)
            if p.role == "bonus":
                bonus += value
            else:
                points += value
        matches.append(Match(p.id, count, value))
    uncapped = points * factor
    total = uncapped if rules.cap is None else min(uncapped, rules.cap)
    return tuple(matches), total, bonus, uncapped


def _value(p: Pattern, reading: "Valued") -> int:
    """The pattern's value on this reading: `params.discard_value` when the win is not self-drawn,
    `params.dealer_value` when the dealer wins, `params.without_wild` when no wildcard plays a wildcard role, else
    `value`."""
    on_discard: Optional[int] = p.param("discard_value")
    if on_discard is not None and not reading.situation.self_drawn:
        return on_discard
    for_dealer: Optional[int] = p.param("dealer_value")
    if for_dealer is not None and reading.situation.is_dealer:
        return for_dealer
    without: Optional[int] = p.param("without_wild")
    return without if without is not None and reading.wild_roles == 0 else p.value


def pattern_points(p: Pattern, count: int, reading: "Valued") -> int:
    """What pattern `p` counted `count` times is worth on `reading` (its value there, by its scale)."""
    value = _value(p, reading)
    if p.scale == "once":
        return value
    return value * (2 ** count if p.scale == "power" else count)


def _readings(tiles: Tiles, decomps: Iterable[Decomposition],
              keys: Optional[_Keys] = None) -> Iterator[Tuple[Decomposition, Optional[Block], Optional[int]]]:
    """(decomposition, winning block, stand-in) of every reading of the decompositions in order; with `keys`, only
    the first with each winning place key of a decomposition (keyed decompositions differ in block keys already)."""
    for d in decomps:
        placed = list(_placements(d, tiles))
        if keys is not None and len(placed) > 1:
            seen = set()
            kept = []
            for block, stand in placed:
                k = keys.place(block, stand)
                if k not in seen:
                    seen.add(k)
                    kept.append((block, stand))
            placed = kept
        if not placed:
            yield d, None, None
        for block, stand in placed:
            yield d, block, stand


def _fifth_copy(ruleset: Ruleset, reading: Reading) -> Optional[Message]:
    """Where no wildcard may be a fifth copy (`wildcard.fifth_copy: false`): the kind this reading's concealed
    tiles and winning tile hold five of, wildcards counted as what they stand for, as a refusal; None otherwise."""
    if ruleset.wild_fifth_copy or reading.decomposition is None or not reading.tiles.wilds:
        return None
    five = _five_alike(reading.decomposition)
    if five is None:
        return None
    count = sum(b.tiles.count(five) for b in reading.decomposition.blocks)
    return Message("scoring.wild_fifth_copy", count=count, tile=NAMES[five], wild_zh=ruleset.wild_zh)


def _five_alike(decomposition: Decomposition) -> Optional[int]:
    """The kind of which the decomposition's blocks (the concealed tiles as read) hold five or more, or None."""
    held = [0] * NUM_KINDS
    for block in decomposition.blocks:
        for t in block.tiles:
            held[t] += 1
    return next((t for t in range(NUM_KINDS) if held[t] > 4), None)


def _tiles_told_apart(keys: ReadingKeys) -> ReadingKeys:
    """`keys`, with each block told apart by its tiles too, and nothing coarsened further: what a reading's fifth
    copy (`_fifth_copy`) depends on."""
    inner = keys.block
    return ReadingKeys(lambda b: (inner(b), b.tiles), keys.place, keys.wild_roles, None, keys.whole, None,
                       None if keys.signature is None else (keys.signature, "tiles"))


def reading_keys(tiles: Tiles, situation: Situation, ruleset: Ruleset, region: Region) -> Optional[ReadingKeys]:
    """The region's `ReadingKeys` for the hand in the situation as paid; kept with the tiles, so that a caller
    who asks first (the value of discards) and the scorer after make them once."""
    paid = region.as_paid(ruleset, situation)
    cache: Dict[Situation, Tuple[Region, Ruleset, Optional[ReadingKeys]]] = \
        tiles.__dict__.setdefault("_reading_keys", {})
    hit = cache.get(paid)
    if hit is None or hit[0] is not region or hit[1] is not ruleset:
        keys = region.reading_keys(ruleset, paid, tiles)
        if keys is not None and not ruleset.wild_fifth_copy and tiles.wilds:
            keys = _tiles_told_apart(keys)
        hit = cache[paid] = (region, ruleset, keys)
    return hit[2]


def score_hand(tiles: Tiles, situation: Situation, ruleset: Ruleset, region: Region, exhaustive: bool = False) -> Score:
    """The best reading of a 14-tile hand; legality judged by the region.

    The region's `reading_keys` say which readings its detectors cannot tell apart; only the first of each is
    scored, which keeps the best reading the one scoring every reading gives. `exhaustive` scores every reading
    of every decomposition (the plain definition, which the tests compare with)."""
    return score_hands(tiles, (situation,), ruleset, region, exhaustive)[0]


def score_hands(tiles: Tiles, situations: Sequence[Situation], ruleset: Ruleset, region: Region,
                exhaustive: bool = False) -> List[Score]:
    """`score_hand` for each situation, the hand read once: a reading is kept when the keys of any situation
    tell it apart (a wait won by self-draw and on a discard shares its readings)."""
    shape_args = (tiles.naturals, tiles.wilds, tiles.melds, ruleset.shapes, tiles.faces)
    region_keys = None if exhaustive else [reading_keys(tiles, s, ruleset, region) for s in situations]
    if region_keys is None or any(k is None for k in region_keys):
        decomps: Sequence[Decomposition] = list(decompositions(*shape_args))
        listed = list(decomps)
        keys = None
    else:
        decomps = Decompositions(*shape_args)
        keys = _keys_for([k for k in region_keys if k is not None], tiles, ruleset)
        listed = list(keyed_decompositions(*shape_args, keys.block, keys.counted, keys.decompose_memo, keys.whole,
                                           keys.summary))
    placed = list(_readings(tiles, listed, keys))
    return [_best(tiles, s, ruleset, region, decomps, placed) for s in situations]


def _best(tiles: Tiles, situation: Situation, ruleset: Ruleset, region: Region, decomps: Sequence[Decomposition],
          placed: Sequence[Tuple[Decomposition, Optional[Block], Optional[int]]]) -> Score:
    notes: List[Notice] = []
    situation = region.as_paid(ruleset, situation)
    automatic = region.automatic_win(ruleset, situation, tiles)
    if automatic is not None:
        if automatic:
            notes.append(automatic)
        situation = situation.replace(discarder=None, rob_kong=False)  # paid as a self-draw
    if not placed and automatic is None:
        return Score(False, False, Message("scoring.not_winning_shape"), decompositions=decomps, situation=situation)
    best = None
    readings = [Reading(tiles, situation, ruleset, d, block, stand) for d, block, stand in placed] or [
        Reading(tiles, situation, ruleset, None, None, None)
    ]
    detectors = region.detectors
    memo: Dict[Key, Tallied] = {}
    per_hand = hand_counts(readings[0], detectors)
    for reading in readings:
        matches, total, bonus, uncapped = match_patterns(reading, detectors, per_hand, memo)
        # a reading the region refuses (a win this reading cannot be) counts only when every reading is refused;
        # an automatic win is not refused, but is shown by a reading holding no fifth copy where there is one
        fifth = _fifth_copy(ruleset, reading)
        refused = None if automatic is not None else fifth or region.reading_refusal(ruleset, reading, matches)
        key = (refused is None, total, bonus, fifth is None,
               _ranked(ruleset, (matches, total, bonus, uncapped))[2] if ruleset.ties == "ranked" else ())
        if best is None or key > best[0]:
            best = (key, refused, matches, total, bonus, uncapped, reading)
    assert best is not None  # there is at least one reading
    _, refused, matches, total, bonus, uncapped, reading = best
    notes += region.notices(ruleset, situation, tiles, matches)
    if max(total, bonus) > MAX_AMOUNT:  # only a house file's multipliers can get here; amounts must stay exact
        raise SituationError("scoring.too_large", limit=MAX_AMOUNT, unit=ruleset.unit_zh)
    if uncapped > total:
        notes.append(Notice("scoring.capped", field="cap", uncapped=uncapped, unit=ruleset.unit_zh,
                            ruleset=ruleset.id, total=total))
    reason = None if automatic is not None else refused or region.refusal(ruleset, situation, tiles, matches, total)
    return Score(True, reason is None, reason, reading, matches, total, bonus, decomps, situation, tuple(notes),
                 uncapped)


def ready_waits(tiles: Tiles, ruleset: Ruleset) -> Tuple[int, ...]:
    """The waits of a 13-tile hand under the ruleset's shapes."""
    found = _finder(ruleset.shapes, tiles.wild_kinds).waits(tiles.naturals, tiles.wilds, tiles.melds, tiles.held)
    if ruleset.wild_fifth_copy or not (tiles.wilds or set(found) & set(tiles.wild_kinds)):
        return found
    return tuple(w for w in found if _within_four(tiles, w, ruleset))


def wild_draw_wins(tiles: Tiles, ruleset: Ruleset) -> bool:
    """Whether a wildcard drawn makes the 13 `tiles` a winning shape: where a wildcard is no tile kind (广东's
    ghosts, `*`), the draw the waits of kinds do not list."""
    if ruleset.wild_fifth_copy:
        return is_complete(tiles.naturals, tiles.wilds + 1, tiles.melds, ruleset.shapes)
    return _within_four(tiles, None, ruleset)


def wild_draws_left(tiles: Tiles, ruleset: Ruleset, region: Region, situation: Situation) -> Optional[int]:
    """Where a wildcard is no tile kind (广东's ghosts, `*`): how many are left to draw when drawing one wins the
    13 `tiles` (a draw the kinds of the waits do not show), else None."""
    if tiles.wild_kinds or not ruleset.wild_kinds or not region.wild_in_play(ruleset, situation):
        return None
    left = 4 * ruleset.wild_kinds - tiles.wild_tiles
    return left if left > 0 and wild_draw_wins(tiles, ruleset) else None


def _within_four(tiles: Tiles, draw: Optional[int], ruleset: Ruleset) -> bool:
    """Whether the 13 `tiles` and a drawn `draw` (None: a wildcard of no kind) make a winning shape with no five of
    a kind among the concealed tiles and the winning tile, wildcards counted as what they stand for
    (`wildcard.fifth_copy: false`)."""
    counts, wilds = list(tiles.naturals), tiles.wilds
    if draw is None or draw in tiles.wild_kinds:
        wilds += 1
    else:
        counts[draw] += 1
    return any(_five_alike(d) is None for d in decompositions(counts, wilds, tiles.melds, ruleset.shapes))
