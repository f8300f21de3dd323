"""Every decomposition of a complete hand with wildcards, each saying what its wildcards stand for.

The engine sees natural counts (34 ints, wildcards excluded) plus a number of wildcards. Per unit (see
`shapes.UNITS`), memoised on its counts, `_unit_options(unit)` lists every way to cover its natural tiles with
blocks, each block holding at least one natural tile; a decomposition is one option per unit plus *free*
blocks made of wildcards alone for the wildcards left.
"""
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from typing import Iterator, Tuple

from .hand import CHOW, PAIR, PUNG
from .shapes import (
    NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, THIRTEEN_ORPHANS, UNITS, orphans_ok,
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

    def as_tuple(self):
        return (self.kind, self.tiles, self.wild_as)


@dataclass(frozen=True)
class Decomposition:
    """One reading of the concealed tiles: a shape, its blocks (sorted), and every wildcard's stand-in."""

    shape: str
    blocks: Tuple[Block, ...]

    @property
    def wild_as(self) -> Tuple[int, ...]:
        return tuple(sorted(t for b in self.blocks for t in b.wild_as))


# --- every decomposition ------------------------------------------------------------------------------

_options_cache = {}


def _unit_options(start: int, unit: tuple, chows: bool, pair: bool, limit: int):
    """Every (wildcards used, blocks) covering the unit's naturals, at most `limit` wildcards."""
    key = (start, unit, chows, pair, limit)
    hit = _options_cache.get(key)
    if hit is None:
        hit = _options_cache[key] = tuple(_cover(start, list(unit), chows, pair, limit))
    return hit


def _cover(start, c, chows, pair, limit):
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        if not pair:
            yield 0, ()
        return
    found = set()
    for block, taken in _blocks_with(i, c, chows, pair):
        wild = len(block[2])
        if wild > limit:
            continue
        for k in taken:
            c[k] -= 1
        for used, rest in _unit_options(start, tuple(c), chows, pair and block[0] != PAIR, limit - wild):
            shifted = Block(block[0], tuple(start + t for t in block[1]), tuple(start + t for t in block[2]))
            found.add((used + wild, tuple(sorted(rest + (shifted,)))))
        for k in taken:
            c[k] += 1
    yield from sorted(found)  # a fixed order, so ties between readings break the same way every run


def _blocks_with(i, c, chows, pair):
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


_free_cache = {}


def _free_blocks(sets: int, pair: bool):
    """Blocks made of wildcards alone: every multiset of `sets` sets, plus a pair if asked."""
    key = (sets, pair)
    if key not in _free_cache:
        set_blocks = [Block(kind, tiles, tiles) for kind, tiles in _ALL_SETS]
        pairs = [(Block(PAIR, (t, t), (t, t)),) for t in range(NUM_KINDS)] if pair else [()]
        _free_cache[key] = [
            chosen + p for chosen in combinations_with_replacement(set_blocks, sets) for p in pairs
        ]
    return _free_cache[key]


def _standard(counts, wilds: int) -> Iterator[Decomposition]:
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


def _within(choices, k: int, budget: int):
    """One option from each unit's list from the k-th on, using at most `budget` wildcards in all."""
    if k == len(choices):
        yield 0, ()
        return
    for used, blocks in choices[k]:
        if used <= budget:
            for more, rest in _within(choices, k + 1, budget - used):
                yield used + more, blocks + rest


def _seven_pairs(counts, wilds: int) -> Iterator[Decomposition]:
    per_kind = []
    for t in range(NUM_KINDS):
        n = counts[t]
        if n:
            # `half` pairs hold one wildcard each; the rest are natural pairs.
            per_kind.append([
                (half, (Block(PAIR, (t, t)),) * ((n - half) // 2) + (Block(PAIR, (t, t), (t,)),) * half)
                for half in range(n % 2, n + 1, 2)
            ])
    for picked in product(*per_kind):
        left = wilds - sum(h for h, _ in picked)
        if left < 0 or left % 2:
            continue
        blocks = tuple(b for _, bs in picked for b in bs)
        for free in combinations_with_replacement(range(NUM_KINDS), left // 2):
            yield Decomposition(SEVEN_PAIRS, tuple(sorted(blocks + tuple(Block(PAIR, (t, t), (t, t)) for t in free))))


def _whole(shape, counts, stand_ins) -> Decomposition:
    tiles = tuple(sorted([t for t in range(NUM_KINDS) for _ in range(counts[t])] + list(stand_ins)))
    return Decomposition(shape, (Block(shape, tiles, tuple(sorted(stand_ins))),))


def _orphans(counts, wilds: int) -> Iterator[Decomposition]:
    if not orphans_ok(counts):
        return
    missing = [t for t in TERMINALS_AND_HONORS if not counts[t]]
    extras = [()] if wilds == len(missing) else [(t,) for t in TERMINALS_AND_HONORS]
    for extra in extras:
        yield _whole(THIRTEEN_ORPHANS, counts, tuple(missing) + extra)


def _lonely_shapes(counts, wilds: int) -> Iterator[Decomposition]:
    if max(counts) > 1:
        return
    per_suit = []
    for s in range(3):
        ranks = frozenset(r for r in range(9) if counts[9 * s + r])
        options = [
            tuple(9 * s + r for r in sorted(full - ranks))
            for full in (frozenset(x) for size in range(4) for x in combinations(range(9), size))
            if ranks <= full and all(b - a >= 3 for a, b in zip(sorted(full), sorted(full)[1:]))
        ]
        per_suit.append(options)
    free_honors = [h for h in HONORS if not counts[h]]
    for picked in product(*per_suit):
        added = tuple(t for p in picked for t in p)
        honors_needed = wilds - len(added)
        if 0 <= honors_needed <= len(free_honors):
            for honors in combinations(free_honors, honors_needed):
                yield _whole(THIRTEEN_LONELY, counts, added + honors)


def _nine(counts, wilds: int, faces) -> Iterator[Decomposition]:
    """九幺 needs no structure, so only readings that score differently are listed: each wildcard stands
    for its own face (when that is a terminal or honor) or not, and fills the missing honors (七星) or not;
    a wildcard with nothing to fill stands for the lowest terminal or honor held (1m when none)."""
    if not all(is_terminal_or_honor(t) for t in range(NUM_KINDS) if counts[t]):
        return
    filler = next((t for t in TERMINALS_AND_HONORS if counts[t]), 0)
    missing = [h for h in HONORS if not counts[h]]
    own = [f for f in faces if is_terminal_or_honor(f)]
    seen = set()
    for use_own in (False, True):
        for fill in (False, True):
            stand = (own[:wilds] if use_own else []) + (missing if fill else [])
            stand = stand[:wilds]
            stand = tuple(sorted(stand + [filler] * (wilds - len(stand))))
            if stand not in seen:
                seen.add(stand)
                yield _whole(NINE_TERMINALS, counts, stand)


def decompositions(counts, wilds: int, melds: int, shapes, faces=()) -> Iterator[Decomposition]:
    """Every distinct decomposition of a complete hand's concealed tiles, shape by shape.

    `faces` are the wildcards' own faces, used only to pick the readings listed for 九幺.
    """
    counts = tuple(counts)
    if STANDARD in shapes:
        yield from _standard(counts, wilds)
    if melds:
        return
    if SEVEN_PAIRS in shapes:
        yield from _seven_pairs(counts, wilds)
    if THIRTEEN_ORPHANS in shapes:
        yield from _orphans(counts, wilds)
    if THIRTEEN_LONELY in shapes:
        yield from _lonely_shapes(counts, wilds)
    if NINE_TERMINALS in shapes:
        yield from _nine(counts, wilds, faces)
