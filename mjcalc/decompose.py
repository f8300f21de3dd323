"""Winning shapes with wildcards: completeness, waits and every decomposition.

The engine sees natural counts (34 ints, wildcards excluded) plus a number of wildcards. A wildcard may stand
for any tile kind, even as a fifth copy. Hands split into independent *units*: each suit, each honor kind, and
a *free* unit of blocks made of wildcards alone. Per unit, memoised on its counts:

* `_need(unit)` gives the fewest wildcards that complete it into sets, without and with the pair;
  a hand is complete when the cheapest choice of the unit holding the pair fits in its wildcards.
* `_unit_options(unit)` lists every way to cover its natural tiles with blocks, each block holding at
  least one natural tile; a decomposition is one option per unit plus free blocks for the wildcards left.
"""
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Iterator, Tuple

from .hand import CHOW, PAIR, PUNG
from .tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, is_terminal_or_honor

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
THIRTEEN_LONELY = "thirteen_lonely"
NINE_TERMINALS = "nine_terminals"
SHAPES = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS)
IRREGULAR = (THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS)

_UNITS = ((0, 9, True), (9, 9, True), (18, 9, True)) + tuple((h, 1, False) for h in HONORS)
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


# --- completeness -------------------------------------------------------------------------------------

_need_cache = {}


def _need(counts: tuple, chows: bool) -> Tuple[int, int]:
    """The fewest wildcards that make a unit into sets: (without the pair, with the pair in it)."""
    key = (counts, chows)
    hit = _need_cache.get(key)
    if hit is None:
        trimmed = trim_counts(counts)
        hit = _need_cache[key] = (_fewest(trimmed, False, chows), _fewest(trimmed, True, chows))
    return hit


def trim_counts(c) -> tuple:
    """Counts without the zeros at both ends: where a suit's tiles start does not change its shape."""
    lo, hi = 0, len(c)
    while lo < hi and not c[lo]:
        lo += 1
    while hi > lo and not c[hi - 1]:
        hi -= 1
    return tuple(c[lo:hi])


@lru_cache(maxsize=None)
def _fewest(c: tuple, pair: bool, chows: bool) -> int:
    """The fewest wildcards completing counts `c` (trimmed of zeros at both ends).

    Where a chow starts is relative: one running past rank 9 costs the same as the one ending at 9, since
    the ranks below the lowest tile left hold no natural tile, so trimming keeps the answer exact.
    """
    if not c:
        return 2 if pair else 0
    n, tail = c[0], c[1:]
    best = 99
    if pair:
        best = 1 + _fewest(trim_counts((n - 1,) + tail), False, chows)
        if n >= 2:
            best = min(best, _fewest(trim_counts((n - 2,) + tail), False, chows))
    for used in range(1, min(n, 3) + 1):
        best = min(best, 3 - used + _fewest(trim_counts((n - used,) + tail), pair, chows))
    if chows:
        padded = list(c) + [0, 0]
        for j in (1, 0) if padded[1] else (0,):
            for k in (1, 0) if padded[2] else (0,):
                rest = padded[:]
                rest[0] -= 1
                rest[1] -= j
                rest[2] -= k
                best = min(best, 2 - j - k + _fewest(trim_counts(rest), pair, chows))
    return best


def _standard_cost(counts) -> int:
    """The fewest wildcards that complete the concealed tiles as sets plus one pair."""
    total, best_pair = 0, 2  # the pair may be two wildcards
    for start, size, chows in _UNITS:
        unit = tuple(counts[start:start + size])
        if any(unit):
            without, with_pair = _need(unit, chows)
            total += without
            best_pair = min(best_pair, with_pair - without)
    return total + best_pair


def _lonely_capacity(ranks: frozenset) -> int:
    """The most ranks of one suit, pairwise 3 or more apart, that include `ranks`; -1 if none."""
    return _lonely_table().get(ranks, -1)


_lonely = {}


def _lonely_table():
    if not _lonely:
        for size in range(0, 4):
            for chosen in combinations(range(9), size):
                if all(b - a >= 3 for a, b in zip(chosen, chosen[1:])):
                    for k in range(size + 1):
                        for sub in combinations(chosen, k):
                            key = frozenset(sub)
                            _lonely[key] = max(_lonely.get(key, -1), size)
    return _lonely


def is_complete(counts, wilds: int, melds: int, shapes) -> bool:
    """Whether natural `counts` plus `wilds` wildcards (and `melds` declared sets) make a winning shape."""
    if STANDARD in shapes and _standard_cost(counts) <= wilds:
        return True
    if melds:
        return False
    if SEVEN_PAIRS in shapes and sum(n % 2 for n in counts) <= wilds:
        return True
    if THIRTEEN_ORPHANS in shapes and _orphans_ok(counts):
        return True
    if THIRTEEN_LONELY in shapes and _lonely_ok(counts, wilds):
        return True
    if NINE_TERMINALS in shapes and all(is_terminal_or_honor(t) for t in range(NUM_KINDS) if counts[t]):
        return True
    return False


def _orphans_ok(counts) -> bool:
    if any(counts[t] for t in range(NUM_KINDS) if t not in TERMINALS_AND_HONORS):
        return False
    return max(counts) <= 2 and sum(n == 2 for n in counts) <= 1


def _lonely_ok(counts, wilds: int) -> bool:
    if max(counts) > 1:
        return False
    room = 7 - sum(counts[27:])
    for s in range(3):
        ranks = frozenset(r for r in range(9) if counts[9 * s + r])
        cap = _lonely_capacity(ranks)
        if cap < 0:
            return False
        room += cap - len(ranks)
    return room >= wilds


# --- waits --------------------------------------------------------------------------------------------


def waits(counts, wilds: int, melds: int, shapes, held, wild_kinds) -> Tuple[int, ...]:
    """Tile kinds that complete a 13-tile hand; a kind with four copies `held` is not a wait.

    Drawing a wild kind adds a wildcard, which completes the hand whenever anything does.
    """
    counts = list(counts)
    found = []
    for t in range(NUM_KINDS):
        if t in wild_kinds:
            continue
        counts[t] += 1
        if is_complete(counts, wilds, melds, shapes):
            found.append(t)
        counts[t] -= 1
    if found or (wild_kinds and is_complete(counts, wilds + 1, melds, shapes)):
        found.extend(wild_kinds)
    return tuple(sorted(t for t in set(found) if held[t] < 4))


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
        for start, size, chows in _UNITS
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
    if not _orphans_ok(counts):
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


# --- waits, fast: the batch path ----------------------------------------------------------------------

_HONOR_ROWS = {n: _need((n,), False) for n in range(6)}

_suit_table = None


def _suit_bytes() -> bytes:
    global _suit_table
    if _suit_table is None:
        from .suit_table import load
        _suit_table = load()
    return _suit_table


def _suit_row(unit: tuple) -> Tuple[int, int]:
    """`_need(unit, True)` of a suit, read from the shipped table (`suit_table.py`) when it holds the unit."""
    if max(unit) <= 4:
        idx = unit[0] + 5 * unit[1] + 25 * unit[2] + 125 * unit[3] + 625 * unit[4] + 3125 * unit[5] \
            + 15625 * unit[6] + 78125 * unit[7] + 390625 * unit[8]
        packed = _suit_bytes()[idx]
        if packed != 0xFF:
            return packed & 15, packed >> 4
    return _need(unit, True)


@lru_cache(maxsize=None)
def _suit_adds(unit: tuple):
    """A suit's (need without pair, need with pair) after adding each rank."""
    adds = []
    for r in range(9):
        grown = list(unit)
        grown[r] += 1
        adds.append(_suit_row(tuple(grown)))
    return adds


class WaitFinder:
    """Waits for many hands under one set of shapes and wild kinds; each answer equals `waits()`."""

    def __init__(self, shapes, wild_kinds=()):
        self.shapes = frozenset(shapes)
        self.wild_kinds = tuple(sorted(wild_kinds))
        self.fast = self.shapes <= {STANDARD, SEVEN_PAIRS} and STANDARD in self.shapes

    def waits(self, counts, wilds: int = 0, melds: int = 0, held=None) -> Tuple[int, ...]:
        held = counts if held is None else held
        if not self.fast:
            return waits(counts, wilds, melds, self.shapes, held, self.wild_kinds)
        suits = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
        rows = [_suit_row(unit) for unit in suits]
        rows += [_HONOR_ROWS[counts[h]] for h in HONORS]
        total = 0
        low1 = low2 = 2  # the two smallest (with pair - without pair), the free pair costing 2
        for row in rows:
            total += row[0]
            d = row[1] - row[0]
            if d < low1:
                low1, low2 = d, low1
            elif d < low2:
                low2 = d
        complete = set()
        for x, row in enumerate(rows):
            a = row[0]
            rest = total - a
            other = low2 if row[1] - a == low1 else low1
            if rest + min(other, 0) > wilds:
                continue
            if x < 3:
                base = 9 * x
                for r, (a2, b2) in enumerate(_suit_adds(suits[x])):
                    if rest + min(b2, a2 + other) <= wilds:
                        complete.add(base + r)
            else:
                a2, b2 = _HONOR_ROWS[counts[HONORS[x - 3]] + 1]
                if rest + min(b2, a2 + other) <= wilds:
                    complete.add(HONORS[x - 3])
        if SEVEN_PAIRS in self.shapes and not melds:
            odd = sum(n & 1 for n in counts)
            if odd == wilds + 1:
                complete.update(t for t in range(NUM_KINDS) if counts[t] & 1)
            elif odd < wilds + 1:
                complete.update(range(NUM_KINDS))
        if self.wild_kinds:
            complete.difference_update(self.wild_kinds)
            if complete or is_complete(counts, wilds + 1, melds, self.shapes):
                complete.update(self.wild_kinds)
        return tuple(sorted(t for t in complete if held[t] < 4))
