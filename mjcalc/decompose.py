"""Every decomposition of a complete hand with wildcards, each saying what its wildcards stand for.

The engine sees natural counts (34 ints, wildcards excluded) plus a number of wildcards. Per unit (see
`shapes.UNITS`), memoised on its counts, `_unit_options(unit)` lists every way to cover its natural tiles with
blocks, each block holding at least one natural tile; a decomposition is one option per unit plus *free*
blocks made of wildcards alone for the wildcards left.
"""
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from math import comb
from typing import (
    Any,
    Callable,
    Collection,
    Dict,
    FrozenSet,
    Hashable,
    Iterator,
    List,
    Optional,
    Tuple,
    Union,
    overload,
)

from .hand import CHOW, PAIR, PUNG
from .shapes import (
    KNITTED,
    KNITTED_SETS,
    KNITTED_STRAIGHT,
    NINE_TERMINALS,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_LONELY,
    THIRTEEN_ORPHANS,
    UNITS,
    knitted_fits,
    knitted_rest,
    orphans_ok,
)
from .tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, is_terminal_or_honor

_ALL_SETS = tuple((PUNG, (t, t, t)) for t in range(NUM_KINDS)) + tuple(
    (CHOW, (t, t + 1, t + 2)) for t in range(27) if t % 9 <= 6
)


@dataclass(frozen=True, order=True)
class Block:
    """A pair, set or whole irregular shape of the concealed hand; `wild_as` are its wildcards' stand-ins."""

    kind: str
    tiles: Tuple[int, ...]
    wild_as: Tuple[int, ...] = ()

    def as_tuple(self) -> Tuple[str, Tuple[int, ...], Tuple[int, ...]]:
        return (self.kind, self.tiles, self.wild_as)


@dataclass(frozen=True)
class Decomposition:
    """One reading of the concealed tiles: a shape, its blocks (sorted), and every wildcard's stand-in."""

    shape: str
    blocks: Tuple[Block, ...]

    @property
    def wild_as(self) -> Tuple[int, ...]:
        return tuple(sorted(t for b in self.blocks for t in b.wild_as))


_Relative = Tuple[str, Tuple[int, ...], Tuple[int, ...]]  # (kind, tiles, stand-ins), counted from the unit's first kind
_Option = Tuple[int, Tuple[Block, ...]]  # (wildcards used, blocks)
_Keys = Tuple[Any, ...]  # a sorted multiset of block keys
_State = Tuple[int, _Keys]  # (wildcards used, multiset of keys)
_Merge = Callable[[_Keys, _Keys], _Keys]
_CoverKey = Tuple[int, bool, Tuple[int, ...], bool, int]  # (start, chows, counts, pair, limit)
_Covers = Dict[_State, Tuple[_Relative, ...]]  # each state -> its first cover
_Listing = Callable[[Tuple[int, ...], int], Iterator[Decomposition]]  # (counts, wilds) -> decompositions


# --- every decomposition ------------------------------------------------------------------------------

_options_cache: Dict[Tuple[int, Tuple[int, ...], bool, bool, int], Tuple[_Option, ...]] = {}


# (start, relative block) -> the Block, one object each, so that keys memoised by id stay valid
_shifted: Dict[Tuple[int, _Relative], Block] = {}


def _absolute(start: int, block: _Relative) -> Block:
    got = _shifted.get((start, block))
    if got is None:
        kind, tiles, wild = block
        got = _shifted[(start, block)] = Block(kind, tuple(start + t for t in tiles), tuple(start + t for t in wild))
    return got


def _unit_options(start: int, unit: Tuple[int, ...], chows: bool, pair: bool, limit: int) -> Tuple[_Option, ...]:
    """Every (wildcards used, blocks) covering the unit's naturals, at most `limit` wildcards, sorted."""
    key = (start, unit, chows, pair, limit)
    hit = _options_cache.get(key)
    if hit is None:
        hit = _options_cache[key] = tuple(
            (used, tuple(_absolute(start, b) for b in blocks))
            for used, blocks in _relative_cover(unit, chows, pair, limit)
        )
    return hit


@lru_cache(maxsize=None)
def _relative_cover(c: Tuple[int, ...], chows: bool, pair: bool,
                    limit: int) -> Tuple[Tuple[int, Tuple[_Relative, ...]], ...]:
    """Every (wildcards used, blocks) covering counts `c` with at most `limit` wildcards, blocks as (kind, tiles,
    stand-ins) tuples counted from the unit's first kind, each holding at least one natural tile; sorted (the
    order of blocks and tiles), so ties between readings break the same way every run."""
    if not any(c):
        return () if pair else ((0, ()),)
    found = set()
    for block, wild, rest_c, rest_pair in _first_blocks(c, chows, pair, limit):
        for used, rest in _relative_cover(rest_c, chows, rest_pair, limit - wild):
            found.add((used + wild, tuple(sorted(rest + (block,)))))
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 16)
def _first_blocks(c: Tuple[int, ...], chows: bool, pair: bool,
                  limit: int) -> Tuple[Tuple[_Relative, int, Tuple[int, ...], bool], ...]:
    """The ways to start covering `c` (not all zero): (block holding the lowest tile, its wildcards, the counts
    left, whether the rest still needs the pair), within `limit` wildcards. Cached: every hand's units and every
    key space's covers start from these."""
    i = next(k for k, n in enumerate(c) if n)
    out = []
    for block, taken in _blocks_with(i, c, chows, pair):
        wild = len(block[2])
        if wild <= limit:
            rest_c = list(c)
            for k in taken:
                rest_c[k] -= 1
            out.append((block, wild, tuple(rest_c), pair and block[0] != PAIR))
    return tuple(out)


def _blocks_with(i: int, c: Tuple[int, ...], chows: bool, pair: bool) -> Iterator[Tuple[_Relative, Tuple[int, ...]]]:
    """Blocks holding one natural copy of the lowest tile `i`: ((kind, tiles, wild stand-ins), naturals taken)."""
    if pair:
        yield (PAIR, (i, i), (i,)), (i,)
        if c[i] >= 2:
            yield (PAIR, (i, i), ()), (i, i)
    for naturals in range(1, min(c[i], 3) + 1):
        yield (PUNG, (i, i, i), (i,) * (3 - naturals)), (i,) * naturals
    if not chows:
        return
    for low in (i - 2, i - 1, i):
        if low < 0 or low + 2 >= len(c):
            continue
        run = (low, low + 1, low + 2)
        above = [t for t in run if t > i]
        below = tuple(t for t in run if t < i)
        for pick in product((True, False), repeat=len(above)):
            if any(p and not c[t] for p, t in zip(pick, above)):
                continue
            taken = (i,) + tuple(t for p, t in zip(pick, above) if p)
            wild = below + tuple(t for p, t in zip(pick, above) if not p)
            yield (CHOW, run, tuple(sorted(wild))), taken


_free_cache: Dict[Tuple[int, bool], List[Tuple[Block, ...]]] = {}


def _free_blocks(sets: int, pair: bool) -> List[Tuple[Block, ...]]:
    """Blocks made of wildcards alone: every multiset of `sets` sets, plus a pair if asked."""
    key = (sets, pair)
    if key not in _free_cache:
        set_blocks = [Block(kind, tiles, tiles) for kind, tiles in _ALL_SETS]
        pairs = [(Block(PAIR, (t, t), (t, t)),) for t in range(NUM_KINDS)] if pair else [()]
        _free_cache[key] = [
            chosen + p for chosen in combinations_with_replacement(set_blocks, sets) for p in pairs
        ]
    return _free_cache[key]


def _standard(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    units = [
        (start, tuple(counts[start:start + size]), chows)
        for start, size, chows in UNITS
        if any(counts[start:start + size])
    ]
    for holder in range(len(units) + 1):  # the unit holding the pair; len(units) is the free unit
        choices = [
            _unit_options(start, unit, chows, k == holder, wilds) for k, (start, unit, chows) in enumerate(units)
        ]
        free_pair = holder == len(units)
        for used, natural_blocks in _within(choices, 0, wilds - (2 if free_pair else 0)):
            left = wilds - used - (2 if free_pair else 0)
            if left % 3:
                continue
            for free in _free_blocks(left // 3, free_pair):
                yield Decomposition(STANDARD, tuple(sorted(natural_blocks + free)))


def _within(choices: Sequence[Sequence[_Option]], k: int, budget: int) -> Iterator[_Option]:
    """One option from each unit's list from the k-th on, using at most `budget` wildcards in all."""
    if k == len(choices):
        yield 0, ()
        return
    for used, blocks in choices[k]:
        if used <= budget:
            for more, rest in _within(choices, k + 1, budget - used):
                yield used + more, blocks + rest


_PAIRS = {(t, wild): Block(PAIR, (t, t), (t,) * wild) for t in range(NUM_KINDS) for wild in range(3)}


def _pairs_of_naturals(counts: Sequence[int], wilds: int) -> Optional[List[List[_Option]]]:
    """For each kind held, the ways to pair its natural tiles: (`half`, its pairs), `half` of them holding one
    wildcard each, the rest natural; None when the odd counts need more wildcards than there are."""
    if sum(n % 2 for n in counts) > wilds:
        return None
    return [[(half, (_PAIRS[(t, 0)],) * ((n - half) // 2) + (_PAIRS[(t, 1)],) * half)
             for half in range(n % 2, n + 1, 2)]
            for t, n in enumerate(counts) if n]


def _seven_pairs(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    per_kind = _pairs_of_naturals(counts, wilds)
    if per_kind is None:
        return
    for picked in product(*per_kind):
        left = wilds - sum(h for h, _ in picked)
        if left < 0 or left % 2:
            continue
        blocks = tuple(b for _, bs in picked for b in bs)
        for free in combinations_with_replacement(range(NUM_KINDS), left // 2):
            yield Decomposition(SEVEN_PAIRS, tuple(sorted(blocks + tuple(_PAIRS[(t, 2)] for t in free))))


def _whole(shape: str, counts: Sequence[int], stand_ins: Sequence[int]) -> Decomposition:
    tiles = tuple(sorted([t for t in range(NUM_KINDS) for _ in range(counts[t])] + list(stand_ins)))
    return Decomposition(shape, (Block(shape, tiles, tuple(sorted(stand_ins))),))


def _orphans(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    if not orphans_ok(counts):
        return
    missing = [t for t in TERMINALS_AND_HONORS if not counts[t]]
    extras = [()] if wilds == len(missing) else [(t,) for t in TERMINALS_AND_HONORS]
    for extra in extras:
        yield _whole(THIRTEEN_ORPHANS, counts, tuple(missing) + extra)


@lru_cache(maxsize=None)
def _lonely_fills(ranks: FrozenSet[int]) -> Tuple[Tuple[int, ...], ...]:
    """The ranks a suit holding `ranks` may add to be lonely (at most 3 ranks, each 3 or more apart)."""
    return tuple(
        tuple(sorted(full - ranks))
        for full in (frozenset(x) for size in range(4) for x in combinations(range(9), size))
        if ranks <= full and all(b - a >= 3 for a, b in zip(sorted(full), sorted(full)[1:]))
    )


def _lonely_shapes(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    if max(counts) > 1:
        return
    per_suit = []
    for s in range(3):
        fills = _lonely_fills(frozenset(r for r in range(9) if counts[9 * s + r]))
        if not fills:
            return
        per_suit.append([tuple(9 * s + r for r in fill) for fill in fills])
    free_honors = [h for h in HONORS if not counts[h]]
    for picked in product(*per_suit):
        added = tuple(t for p in picked for t in p)
        honors_needed = wilds - len(added)
        if 0 <= honors_needed <= len(free_honors):
            for honors in combinations(free_honors, honors_needed):
                yield _whole(THIRTEEN_LONELY, counts, added + honors)


def _nine(counts: Sequence[int], wilds: int, faces: Sequence[int]) -> Iterator[Decomposition]:
    """九幺 needs no structure, so only readings that score differently are listed: each wildcard stands
    for its own face (when that is a terminal or honor) or not, and fills the missing honors (七星) or not;
    a wildcard with nothing to fill stands for the lowest terminal or honor held (1m when none)."""
    if not all(is_terminal_or_honor(t) for t in range(NUM_KINDS) if counts[t]):
        return
    filler = next((t for t in TERMINALS_AND_HONORS if counts[t]), 0)
    missing = [h for h in HONORS if not counts[h]]
    own = [f for f in faces if f >= 0 and is_terminal_or_honor(f)]  # a faceless `*` (-1) has no face to be
    seen = set()
    stand: Sequence[int]  # a list while it is made, then the sorted tuple
    for use_own in (False, True):
        for fill in (False, True):
            stand = (own[:wilds] if use_own else []) + (missing if fill else [])
            stand = stand[:wilds]
            stand = tuple(sorted(stand + [filler] * (wilds - len(stand))))
            if stand not in seen:
                seen.add(stand)
                yield _whole(NINE_TERMINALS, counts, stand)


def _knitted(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    """全不靠: a reading for each knitted set the number tiles fit and each choice of the kinds of its 16 not held
    that the wildcards stand for."""
    if max(counts) > 1:
        return
    for knitted in KNITTED_SETS:
        if knitted_fits(counts, knitted):
            for stand_ins in combinations([t for t in knitted + HONORS if not counts[t]], wilds):
                yield _whole(KNITTED, counts, stand_ins)


def _knitted_blocks(counts: Sequence[int], wilds: int) -> Iterator[Tuple[Block, Tuple[int, ...], int]]:
    """组合龙's knitted block, each way it can be read: (the block, the counts left for the set and pair, the
    wildcards left). A knitted tile not held is a wildcard's stand-in; one held is natural, or, while wildcards
    last, a stand-in too, every copy of it then left."""
    for knitted in KNITTED_SETS:
        rest, missing = knitted_rest(counts, knitted)
        if missing > wilds:
            continue
        absent = [t for t in knitted if not counts[t]]
        held = [t for t in knitted if counts[t]]
        for size in range(min(len(held), wilds - missing) + 1):
            for also in combinations(held, size):
                left = list(rest)
                for t in also:
                    left[t] += 1
                stand_ins = tuple(sorted(absent + list(also)))
                yield Block(KNITTED_STRAIGHT, knitted, stand_ins), tuple(left), wilds - len(stand_ins)


def _knitted_straight(counts: Sequence[int], wilds: int) -> Iterator[Decomposition]:
    """组合龙: each reading of the knitted block with each standard reading of the tiles left (a set and a pair, or
    the pair alone beside a declared meld)."""
    for block, left, more in _knitted_blocks(counts, wilds):
        for rest in _standard(left, more):
            yield Decomposition(KNITTED_STRAIGHT, tuple(sorted(rest.blocks + (block,))))


def decompositions(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
                   faces: Sequence[int] = ()) -> Iterator[Decomposition]:
    """Every distinct decomposition of a complete hand's concealed tiles, shape by shape.

    `faces` are the wildcards' own faces, used only to pick the readings listed for 九幺.
    """
    yield from _shape_by_shape(tuple(counts), wilds, melds, shapes, faces, _standard, _seven_pairs, _knitted_straight)


def _shape_by_shape(counts: Tuple[int, ...], wilds: int, melds: int, shapes: Collection[str], faces: Sequence[int],
                    standard: _Listing, seven_pairs: _Listing, knitted_straight: _Listing,
                    whole_key: Optional[Callable[[Block], Hashable]] = None) -> Iterator[Decomposition]:
    """The shapes' decompositions in their fixed order; `standard`, `seven_pairs` and `knitted_straight` list those
    three shapes; with `whole_key`, only the first decomposition of each other irregular shape and key of its one
    block. Only the standard shape and 组合龙 (one meld at most) read a hand with melds."""
    if STANDARD in shapes:
        yield from standard(counts, wilds)
    if not melds:
        if SEVEN_PAIRS in shapes:
            yield from seven_pairs(counts, wilds)
        seen = set()
        for shape, listed in ((THIRTEEN_ORPHANS, _orphans), (THIRTEEN_LONELY, _lonely_shapes), (NINE_TERMINALS, _nine),
                              (KNITTED, _knitted)):
            if shape not in shapes:
                continue
            # mypy checks each call against all four listings: only `_nine` takes `faces`, and only it is given them
            for d in (listed(counts, wilds, faces) if shape == NINE_TERMINALS else listed(counts, wilds)):  # type: ignore[call-arg]
                if whole_key is not None:
                    key = (shape, whole_key(d.blocks[0]))
                    if key in seen:
                        continue
                    seen.add(key)
                yield d
    if KNITTED_STRAIGHT in shapes and melds <= 1:
        yield from knitted_straight(counts, wilds)


# --- how many decompositions, without listing them ----------------------------------------------------


def _multisets(n: int, k: int) -> int:
    """Multisets of size k from n kinds."""
    return comb(n + k - 1, k) if k >= 0 else 0


def count_decompositions(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
                         faces: Sequence[int] = ()) -> int:
    """`len(list(decompositions(...)))`, counted: free blocks by binomials, units by wildcards used."""
    counts = tuple(counts)
    total = 0
    if STANDARD in shapes:
        units = [
            (start, tuple(counts[start:start + size]), chows)
            for start, size, chows in UNITS
            if any(counts[start:start + size])
        ]
        for holder in range(len(units) + 1):
            free_pair = holder == len(units)
            budget = wilds - (2 if free_pair else 0)
            if budget < 0:
                continue
            ways = {0: 1}
            for k, (start, unit, chows) in enumerate(units):
                per_used: Dict[int, int] = {}
                for used, _ in _unit_options(start, unit, chows, k == holder, wilds):
                    per_used[used] = per_used.get(used, 0) + 1
                grown: Dict[int, int] = {}
                for a, n in ways.items():
                    for b, m in per_used.items():
                        if a + b <= budget:
                            grown[a + b] = grown.get(a + b, 0) + n * m
                ways = grown
            for used, n in ways.items():
                left = budget - used
                if left % 3 == 0:
                    total += n * _multisets(len(_ALL_SETS), left // 3) * (NUM_KINDS if free_pair else 1)
    if KNITTED_STRAIGHT in shapes and melds <= 1:
        total += sum(count_decompositions(left, more, 0, (STANDARD,)) for _, left, more in _knitted_blocks(counts, wilds))
    if melds:
        return total
    if SEVEN_PAIRS in shapes:
        ways = {0: 1}
        for t in range(NUM_KINDS):
            n = counts[t]
            if n:
                grown = {}
                for a, m in ways.items():
                    for half in range(n % 2, n + 1, 2):
                        grown[a + half] = grown.get(a + half, 0) + m
                ways = grown
        for half, n in ways.items():
            left = wilds - half
            if left >= 0 and left % 2 == 0:
                total += n * _multisets(NUM_KINDS, left // 2)
    for shape, listed in ((THIRTEEN_ORPHANS, _orphans), (THIRTEEN_LONELY, _lonely_shapes), (KNITTED, _knitted)):
        if shape in shapes:
            total += sum(1 for _ in listed(counts, wilds))
    if NINE_TERMINALS in shapes:
        total += sum(1 for _ in _nine(counts, wilds, faces))
    return total


class Decompositions(Sequence[Decomposition]):
    """Every decomposition of a hand, listed only when asked: `len()` counts them without listing."""

    def __init__(self, counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
                 faces: Sequence[int] = ()) -> None:
        self._args = (tuple(counts), wilds, melds, frozenset(shapes), tuple(faces))
        self._len: Optional[int] = None
        self._list: Optional[List[Decomposition]] = None

    def __len__(self) -> int:
        if self._len is None:
            self._len = len(self._list) if self._list is not None else count_decompositions(*self._args)
        return self._len

    def _listed(self) -> List[Decomposition]:
        if self._list is None:
            self._list = list(decompositions(*self._args))
        return self._list

    def __iter__(self) -> Iterator[Decomposition]:
        return iter(self._listed())

    @overload
    def __getitem__(self, i: int) -> Decomposition: ...

    @overload
    def __getitem__(self, i: slice) -> List[Decomposition]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Decomposition, List[Decomposition]]:
        return self._listed()[i]

    def __eq__(self, other: Any) -> bool:  # any iterable
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"Decompositions({len(self)})"


# --- one decomposition for each way the region can tell readings apart --------------------------------


def keyed_decompositions(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str], faces: Sequence[int],
                         block_key: Callable[[Block], Any], counted: Optional[Callable[[Any], bool]] = None,
                         memo: Optional[Dict[str, Dict[Any, Any]]] = None,
                         whole_key: Optional[Callable[[Block], Hashable]] = None,
                         summary: Optional[Callable[[_Keys], Hashable]] = None) -> Iterator[Decomposition]:
    """The decompositions of `decompositions()`, in the same order, less every one whose shape and multiset of
    `block_key`s an earlier one already had.

    `block_key(block)` must say everything about a block that can change a reading's score; then a skipped
    decomposition scores as the earlier one with its keys, and the first decomposition of each key multiset is
    kept, so the best reading (the first that scores highest) is the one the full list gives. `counted(key)`
    false says that no reading's score depends on how many blocks have that key, only on whether one has: such
    keys are kept once in the multiset (None: every key is counted). Seven pairs are told apart by the keys of
    each kind's pairs together, so that a kind read as two pairs is seen.

    `memo`, a dict kept by the caller, carries the keyed unit options and free blocks from one hand to the next
    while `block_key` and `counted` stay the same. `whole_key(block)` does for the one block of an irregular shape
    (十三幺, 十三浪, 九幺, 全不靠, and 组合龙's knitted block beside its keyed set and pair) what `block_key` does for
    sets and pairs; None lists every irregular decomposition.
    `summary(keys)`, given, coarsens further: of the standard decompositions, only the first of each summary of
    its keys (as merged) is listed.
    """
    merge = _merge if counted is None else _merger(counted)
    memo = {} if memo is None else memo
    yield from _shape_by_shape(tuple(counts), wilds, melds, shapes, faces,
                               lambda c, w: _standard_keyed(c, w, block_key, merge, memo, summary),
                               lambda c, w: _seven_pairs_keyed(c, w, block_key, summary),
                               lambda c, w: _knitted_straight_keyed(c, w, block_key, merge, memo, whole_key), whole_key)


def _merge(a: _Keys, b: _Keys) -> _Keys:
    return tuple(sorted(a + b)) if b else a


def _merger(counted: Callable[[Any], bool]) -> _Merge:
    """`_merge` keeping each key that is not `counted` once."""
    def merge(a: _Keys, b: _Keys) -> _Keys:
        if not b:
            return a
        out: List[Any] = []
        for k in sorted(a + b):
            if not out or k != out[-1] or counted(k):
                out.append(k)
        return tuple(out)
    return merge


def _keyed_unit(start: int, unit: Tuple[int, ...], chows: bool, pair: bool, limit: int,
                block_key: Callable[[Block], Any],
                merge: _Merge, memo: Dict[_CoverKey, _Covers]) -> List[Tuple[_State, Tuple[Block, ...]]]:
    """A unit's options (`_unit_options`), the first of each (wildcards used, multiset of keys), in their order,
    without listing every cover: the covers are grown block by block as `_relative_cover` does, keeping for each
    state only the first cover (the least sorted tuple of blocks: covers of one state have as many blocks, and
    adding a block keeps the order of sorted tuples of one length, so the least of the whole is made of the
    least of its rest)."""
    # typed by a comment: annotations would be evaluated on every call of `_keyed_unit`
    def key_of(block):  # type: (_Relative) -> Any
        return block_key(_absolute(start, block))

    def cover(c: "Tuple[int, ...]", pair: bool, limit: int) -> _Covers:
        hit = memo.get((start, chows, c, pair, limit))
        if hit is not None:
            return hit
        if not any(c):
            out: _Covers = {} if pair else {(0, ()): ()}
        else:
            out = {}
            for block, wild, rest_c, rest_pair in _first_blocks(c, chows, pair, limit):
                rest = cover(rest_c, rest_pair, limit - wild)
                own = (key_of(block),)
                for (used, keys), blocks in rest.items():
                    state = (used + wild, merge(keys, own))
                    whole = tuple(sorted(blocks + (block,)))
                    known = out.get(state)
                    if known is None or whole < known:
                        out[state] = whole
        memo[(start, chows, c, pair, limit)] = out
        return out

    found = cover(unit, pair, limit)
    ordered = sorted(found.items(), key=lambda item: (item[0][0], item[1]))
    return [(state, tuple(_absolute(start, b) for b in blocks)) for state, blocks in ordered]


def _keyed_free(sets: int, pair: bool, block_key: Callable[[Block], Any],
                merge: _Merge) -> List[Tuple[_Keys, Tuple[Block, ...]]]:
    """Free blocks, the first (in `_free_blocks` order) of each multiset of keys: each key stands by the first
    block holding it, so the first combination with given keys is the sorted tuple of those blocks."""
    reps: Dict[Any, Block] = {}
    for kind, tiles in _ALL_SETS:
        b = Block(kind, tiles, tiles)
        reps.setdefault(block_key(b), b)
    pair_reps: Dict[Any, Block] = {}
    if pair:
        for t in range(NUM_KINDS):
            b = Block(PAIR, (t, t), (t, t))
            pair_reps.setdefault(block_key(b), b)
    pairs = list(pair_reps.items()) if pair else [((), None)]
    out: Dict[_Keys, Tuple[Block, ...]] = {}
    for chosen in combinations_with_replacement(list(reps.items()), sets):
        keys = tuple(k for k, _ in chosen)
        blocks = tuple(b for _, b in chosen)
        for pk, pb in pairs:
            if pb is None:
                out.setdefault(merge((), keys), blocks)
            else:
                out.setdefault(merge((), keys + (pk,)), blocks + (pb,))
    return list(out.items())


def _standard_keyed(counts: Sequence[int], wilds: int, block_key: Callable[[Block], Any], merge: _Merge,
                    memo: Dict[str, Dict[Any, Any]],
                    summary: Optional[Callable[[_Keys], Hashable]] = None) -> Iterator[Decomposition]:
    units = [
        (start, tuple(counts[start:start + size]), chows)
        for start, size, chows in UNITS
        if any(counts[start:start + size])
    ]
    done = set()
    free_cache, option_cache = memo.setdefault("free", {}), memo.setdefault("options", {})
    cover_cache = memo.setdefault("covers", {})
    # the states after the first units, by the budget and those units' options: hands that share their first
    # units (the waits of a hand in another suit, the discards of advise) grow them once
    prefix_cache = memo.setdefault("prefix", {})
    for holder in range(len(units) + 1):
        free_pair = holder == len(units)
        budget = wilds - (2 if free_pair else 0)
        if budget < 0:
            continue
        # (wildcards used, multiset of keys) -> the first natural blocks reaching it; a dict keeps the order in
        # which states are first reached, which is the order of `_within` on the first path to each
        states: Dict[_State, Tuple[Block, ...]] = {(0, ()): ()}
        prefix: Tuple[Hashable, ...] = (budget, wilds)
        for k, (start, unit, chows) in enumerate(units):
            prefix += ((start, unit, chows, k == holder, wilds),)
            grown: Optional[Dict[_State, Tuple[Block, ...]]] = prefix_cache.get(prefix)
            if grown is None:
                options: Optional[List[Tuple[_State, Tuple[Block, ...]]]] = option_cache.get(prefix[-1])
                if options is None:
                    options = option_cache[prefix[-1]] = _keyed_unit(start, unit, chows, k == holder, wilds,
                                                                     block_key, merge, cover_cache)
                grown = {}
                for (used, keys), blocks in states.items():
                    for (more, extra), rest in options:
                        if used + more <= budget:
                            state = (used + more, merge(keys, extra))
                            if state not in grown:
                                grown[state] = blocks + rest
                prefix_cache[prefix] = grown
            states = grown
        for (used, keys), blocks in states.items():
            left = budget - used
            if left % 3:
                continue
            free: Optional[List[Tuple[_Keys, Tuple[Block, ...]]]] = free_cache.get((left // 3, free_pair))
            if free is None:
                free = free_cache[(left // 3, free_pair)] = _keyed_free(left // 3, free_pair, block_key, merge)
            for free_keys, free_blocks in free:
                whole: Hashable  # the keys, or their summary
                whole = merge(keys, free_keys)
                if summary is not None:
                    whole = summary(whole)
                if whole not in done:
                    done.add(whole)
                    yield Decomposition(STANDARD, tuple(sorted(blocks + free_blocks)))


def _knitted_straight_keyed(counts: Sequence[int], wilds: int, block_key: Callable[[Block], Any], merge: _Merge,
                            memo: Dict[str, Dict[Any, Any]],
                            whole_key: Optional[Callable[[Block], Hashable]]) -> Iterator[Decomposition]:
    """组合龙, the first of each `whole_key` of its knitted block and multiset of keys of its set and pair (every
    reading when `whole_key` is None)."""
    if whole_key is None:
        yield from _knitted_straight(counts, wilds)
        return
    done = set()
    for block, left, more in _knitted_blocks(counts, wilds):
        whole = whole_key(block)
        for rest in _standard_keyed(left, more, block_key, merge, memo):
            keys = (whole, merge((), tuple(block_key(b) for b in rest.blocks)))
            if keys not in done:
                done.add(keys)
                yield Decomposition(KNITTED_STRAIGHT, tuple(sorted(rest.blocks + (block,))))


def _seven_pairs_keyed(counts: Sequence[int], wilds: int, block_key: Callable[[Block], Any],
                       summary: Optional[Callable[[_Keys], Hashable]] = None) -> Iterator[Decomposition]:
    """Seven pairs: free pairs on kinds that hold no natural tile and look alike (same key for a free pair) are
    interchangeable, so only the first of each spread of them is listed: within such a class, the larger
    numbers of pairs go to the lower kinds (the combination that comes first). With `summary`, only the first of
    each summary of the keys and number of kinds read as two pairs is listed."""
    per_kind = _pairs_of_naturals(counts, wilds)
    if per_kind is None:
        return
    natural = [t for t in range(NUM_KINDS) if counts[t]]
    classes: Dict[Any, List[int]] = {}
    for t in range(NUM_KINDS):
        if not counts[t]:
            classes.setdefault(block_key(_PAIRS[(t, 2)]), []).append(t)
    groups = [[t] for t in natural] + list(classes.values())
    groups.sort(key=lambda g: g[0])
    spreads: Dict[int, List[Tuple[int, ...]]] = {}
    done = set()
    for picked in product(*per_kind):
        left = wilds - sum(h for h, _ in picked)
        if left < 0 or left % 2:
            continue
        blocks = tuple(b for _, bs in picked for b in bs)
        free_lists = spreads.get(left // 2)
        if free_lists is None:
            free_lists = spreads[left // 2] = sorted(_spread(groups, left // 2))
        for free in free_lists:
            whole = blocks + tuple(_PAIRS[(t, 2)] for t in free)
            by_kind: Dict[int, List[Any]] = {}
            for b in whole:
                by_kind.setdefault(b.tiles[0], []).append(block_key(b))
            if summary is None:
                keys: Tuple[Hashable, ...] = tuple(sorted(tuple(sorted(v)) for v in by_kind.values()))
            else:
                keys = (summary(tuple(sorted(k for v in by_kind.values() for k in v))),
                        sum(1 for v in by_kind.values() if len(v) == 2))
            if keys not in done:
                done.add(keys)
                yield Decomposition(SEVEN_PAIRS, tuple(sorted(whole)))


def _spread(groups: Sequence[Sequence[int]], k: int) -> Iterator[Tuple[int, ...]]:
    """Every way to put k free pairs on the groups of interchangeable kinds, the larger numbers on the lower
    kinds of a group; each as the sorted tuple of kinds (one entry per pair)."""
    if k == 0:
        yield ()
        return
    if not groups:
        return
    first, rest = groups[0], groups[1:]
    for here in range(k, -1, -1):
        for parts in _partitions(here, len(first)):
            placed = tuple(t for t, n in zip(first, parts) for _ in range(n))
            for more in _spread(rest, k - here):
                yield tuple(sorted(placed + more))


def _partitions(n: int, most: int, cap: Optional[int] = None) -> Iterator[Tuple[int, ...]]:
    """Non-increasing tuples of positive ints summing to n, at most `most` of them (n = 0: the empty one)."""
    cap = n if cap is None else cap
    if n == 0:
        yield ()
        return
    if most == 0:
        return
    for first in range(min(n, cap), 0, -1):
        for rest in _partitions(n - first, most - 1, first):
            yield (first,) + rest
