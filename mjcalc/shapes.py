"""Winning shapes with wildcards: completeness and waits, from natural counts plus a number of wildcards.

A wildcard may stand for any tile kind, even as a fifth copy. Hands split into independent *units*: each suit
and each honor kind. `unit_need(unit)` gives the fewest wildcards that complete a unit into sets, without and
with the pair, memoised on its counts; a hand is complete when the cheapest choice of the unit holding the
pair fits in its wildcards. Suits of up to 14 tiles are read from a shipped table (the table section below, `suit_need.bin`).

Regenerate that table after any change to `_fewest` (tests/test_suit_table.py checks it)::

    python -m mjcalc.shapes            # writes mjcalc/suit_need.bin
"""
import os
from functools import lru_cache
from itertools import combinations, permutations
from typing import (
    TYPE_CHECKING,
    Callable,
    Collection,
    Dict,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from .tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, is_terminal_or_honor

if TYPE_CHECKING:  # for annotations only: load_suit_table imports mmap when used (start-up time)
    from mmap import mmap as MappedFile

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
THIRTEEN_LONELY = "thirteen_lonely"
NINE_TERMINALS = "nine_terminals"
KNITTED = "knitted"  # 全不靠 (七星不靠 with all seven honors): the whole hand is one block of this kind
# 组合龙: a block of this kind holding the nine knitted tiles, a set (which may be the one declared meld) and a pair
KNITTED_STRAIGHT = "knitted_straight"
SHAPES = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS, KNITTED, KNITTED_STRAIGHT)
# the shapes not of sets and pairs alone; each names the block its tiles are read whole as (组合龙: its nine knitted tiles)
IRREGULAR = (THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS, KNITTED, KNITTED_STRAIGHT)

# The nine tiles of each knitted set: ranks 1-4-7 in one suit, 2-5-8 in another, 3-6-9 in the third, sorted.
KNITTED_SETS = tuple(
    tuple(sorted(9 * suit + group + step for suit, group in enumerate(groups) for step in (0, 3, 6)))
    for groups in permutations(range(3))
)

# (first kind, size, chows allowed): the three suits, then each honor kind alone.
UNITS = ((0, 9, True), (9, 9, True), (18, 9, True)) + tuple((h, 1, False) for h in HONORS)


# --- completeness -------------------------------------------------------------------------------------

_NEED_CACHE: Dict[Tuple[Tuple[int, ...], bool], Tuple[int, int]] = {}


def unit_need(counts: Tuple[int, ...], chows: bool) -> Tuple[int, int]:
    """The fewest wildcards that make a unit into sets: (without the pair, with the pair in it)."""
    key = (counts, chows)
    hit = _NEED_CACHE.get(key)
    if hit is None:
        trimmed = trim_counts(counts)
        hit = _NEED_CACHE[key] = (_fewest(trimmed, False, chows), _fewest(trimmed, True, chows))
    return hit


def trim_counts(c: Sequence[int]) -> Tuple[int, ...]:
    """Counts without the zeros at both ends: where a suit's tiles start does not change its shape."""
    lo, hi = 0, len(c)
    while lo < hi and not c[lo]:
        lo += 1
    while hi > lo and not c[hi - 1]:
        hi -= 1
    return tuple(c[lo:hi])


@lru_cache(maxsize=None)
def _fewest(c: Tuple[int, ...], pair: bool, chows: bool) -> int:
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


def _standard_cost(counts: Sequence[int]) -> int:
    """The fewest wildcards that complete the concealed tiles as sets plus one pair."""
    total, best_pair = 0, 2  # the pair may be two wildcards
    for start, size, chows in UNITS:
        unit = tuple(counts[start:start + size])
        if any(unit):
            without, with_pair = unit_need(unit, chows)
            total += without
            best_pair = min(best_pair, with_pair - without)
    return total + best_pair


def _lonely_capacity(ranks: FrozenSet[int]) -> int:
    """The most ranks of one suit, pairwise 3 or more apart, that include `ranks`; -1 if none."""
    return _lonely_table().get(ranks, -1)


_lonely: Dict[FrozenSet[int], int] = {}


def _lonely_table() -> Dict[FrozenSet[int], int]:
    if not _lonely:
        for size in range(0, 4):
            for chosen in combinations(range(9), size):
                if all(b - a >= 3 for a, b in zip(chosen, chosen[1:])):
                    for k in range(size + 1):
                        for sub in combinations(chosen, k):
                            key = frozenset(sub)
                            _lonely[key] = max(_lonely.get(key, -1), size)
    return _lonely


def is_complete(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str]) -> bool:
    """Whether natural `counts` plus `wilds` wildcards (and `melds` declared sets) make a winning shape."""
    if STANDARD in shapes and _standard_cost(counts) <= wilds:
        return True
    if melds:
        return melds == 1 and KNITTED_STRAIGHT in shapes and knitted_straight_ok(counts, wilds)
    if SEVEN_PAIRS in shapes and sum(n % 2 for n in counts) <= wilds:
        return True
    if THIRTEEN_ORPHANS in shapes and orphans_ok(counts):
        return True
    if THIRTEEN_LONELY in shapes and lonely_ok(counts, wilds):
        return True
    if NINE_TERMINALS in shapes and all(is_terminal_or_honor(t) for t in range(NUM_KINDS) if counts[t]):
        return True
    if KNITTED in shapes and knitted_ok(counts):
        return True
    if KNITTED_STRAIGHT in shapes and knitted_straight_ok(counts, wilds):
        return True
    return False


def orphans_ok(counts: Sequence[int]) -> bool:
    if any(counts[t] for t in range(NUM_KINDS) if t not in TERMINALS_AND_HONORS):
        return False
    return max(counts) <= 2 and sum(n == 2 for n in counts) <= 1


def lonely_ok(counts: Sequence[int], wilds: int) -> bool:
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


def knitted_fits(counts: Sequence[int], knitted: Sequence[int]) -> bool:
    """Whether every number tile held is one of the knitted set's nine tiles."""
    return all(not counts[t] or t in knitted for t in range(27))


def knitted_ok(counts: Sequence[int]) -> bool:
    """全不靠: no kind twice, the number tiles within one knitted set; the wildcards stand for kinds of its 16
    (the nine and the honors) not held, always enough for 14 tiles."""
    return max(counts) <= 1 and any(knitted_fits(counts, knitted) for knitted in KNITTED_SETS)


def knitted_rest(counts: Sequence[int], knitted: Sequence[int]) -> Tuple[List[int], int]:
    """The counts left when the knitted set's nine tiles take one natural copy each, and how many of the nine are
    not held (each then a wildcard)."""
    rest = list(counts)
    missing = 0
    for t in knitted:
        if rest[t]:
            rest[t] -= 1
        else:
            missing += 1
    return rest, missing


def knitted_straight_ok(counts: Sequence[int], wilds: int) -> bool:
    """组合龙: a knitted set's nine tiles, the rest a set and a pair (or the pair alone beside a declared meld).

    A natural copy of a knitted tile is best in the knitted set: whatever it does in the rest a wildcard does too.
    """
    for knitted in KNITTED_SETS:
        rest, missing = knitted_rest(counts, knitted)
        if missing <= wilds and _standard_cost(rest) <= wilds - missing:
            return True
    return False


# --- waits --------------------------------------------------------------------------------------------


def waits(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str], held: Sequence[int],
          wild_kinds: Collection[int]) -> Tuple[int, ...]:
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


# --- waits, fast: many hands ----------------------------------------------------------------------

_HONOR_ROWS = {n: unit_need((n,), False) for n in range(6)}


def _suit_bytes() -> "Union[bytes, MappedFile]":
    return load_suit_table(build_suit_table)


def _suit_row(unit: Tuple[int, ...]) -> Tuple[int, int]:
    """`unit_need(unit, True)` of a suit, read from the shipped table (the table section below, `suit_need.bin`) when it holds the unit."""
    if max(unit) <= 4:
        idx = unit[0] + 5 * unit[1] + 25 * unit[2] + 125 * unit[3] + 625 * unit[4] + 3125 * unit[5] \
            + 15625 * unit[6] + 78125 * unit[7] + 390625 * unit[8]
        packed = _suit_bytes()[idx]
        if packed != 0xFF:
            return packed & 15, packed >> 4
    return unit_need(unit, True)


@lru_cache(maxsize=None)
def _suit_adds(unit: Tuple[int, ...]) -> List[Tuple[int, int]]:
    """A suit's (need without pair, need with pair) after adding each rank."""
    adds = []
    for r in range(9):
        grown = list(unit)
        grown[r] += 1
        adds.append(_suit_row(tuple(grown)))
    return adds


class WaitFinder:
    """Waits for many hands under one set of shapes and wild kinds; each answer equals `waits()`."""

    def __init__(self, shapes: Iterable[str], wild_kinds: Iterable[int] = ()) -> None:
        self.shapes = frozenset(shapes)
        self.wild_kinds = tuple(sorted(wild_kinds))
        self.fast = STANDARD in self.shapes
        # 十三幺, 十三浪, 九幺, 全不靠 (no melds) and 组合龙 (one meld at most): each drawn tile tried on those shapes
        # alone, which is cheap
        self.irregular = tuple(sorted(self.shapes - {STANDARD, SEVEN_PAIRS}))

    def waits(self, counts: Sequence[int], wilds: int = 0, melds: int = 0,
              held: Optional[Sequence[int]] = None) -> Tuple[int, ...]:
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
        if self.irregular and (not melds or melds == 1 and KNITTED_STRAIGHT in self.shapes):
            grown = list(counts)
            for t in range(NUM_KINDS):
                if t not in complete and t not in self.wild_kinds:
                    grown[t] += 1
                    if is_complete(grown, wilds, melds, self.irregular):
                        complete.add(t)
                    grown[t] -= 1
        if self.wild_kinds:
            complete.difference_update(self.wild_kinds)
            if complete or is_complete(counts, wilds + 1, melds, self.shapes):
                complete.update(self.wild_kinds)
        return tuple(sorted(t for t in complete if held[t] < 4))


# --- the shipped table: per-suit needs as package data (`suit_need.bin`), so the waits path skips the recursion
#
# A suit's natural counts c[0..8] (each 0-4) give the index ``i = sum(c[r] * 5**r)``. Byte i of the table is
# ``a | b << 4``: `a` the fewest wildcards that make the suit into sets, `b` the same with the pair inside it,
# exactly `unit_need(c, True)`. Byte SUIT_SIZE + i is ``tiles | odd << 4``: the suit's tiles and how many ranks
# hold an odd count (a digit string's index ``sum(5 ** (digit - 1))`` has `tiles` equal to its length exactly
# when no rank holds five or more: a fifth copy carries into the next rank). Only suits of at most
# `SUIT_MAX_TILES` tiles are stored (a 13-tile hand plus the tile drawn); every other byte is `SUIT_MISSING`,
# and callers compute those with `unit_need`. `build_suit_table` makes the file (`python -m mjcalc.shapes`).

SUIT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suit_need.bin")
SUIT_SIZE = 5 ** 9  # entries; the file holds two planes of SUIT_SIZE bytes
SUIT_MAX_TILES = 14
SUIT_MISSING = 0xFF
POW5 = tuple(5 ** r for r in range(9))

_suit_table: "Optional[Union[bytes, MappedFile]]" = None


def load_suit_table(build: Optional[Callable[[], bytearray]] = None) -> "Union[bytes, MappedFile]":
    """The table (bytes, or a read-only mmap: only the pages used are read), opened once.

    A missing or damaged file is rebuilt in memory by `build()` (slow, but the answers stay right).
    """
    global _suit_table
    if _suit_table is None:
        data: "Union[bytes, MappedFile]" = b""
        try:
            with open(SUIT_FILE, "rb") as f:
                try:
                    import mmap  # imported when used (start-up time)
                    data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                except (ImportError, OSError, ValueError):
                    data = f.read()
        except OSError:
            pass
        if len(data) != 2 * SUIT_SIZE:
            if build is None:
                raise OSError(f"{SUIT_FILE}: missing or damaged")
            data = bytes(build())
        _suit_table = data
    return _suit_table


def suit_index(counts: Sequence[int]) -> int:
    return sum(n * p for n, p in zip(counts, POW5))


def suit_vectors(max_tiles: int = SUIT_MAX_TILES) -> Iterator[Tuple[int, ...]]:
    """Every suit count vector (9 counts of 0-4) holding at most `max_tiles` tiles."""
    # typed by a comment: annotations would be evaluated on every call of `suit_vectors`
    def grow(prefix, left):  # type: (List[int], int) -> Iterator[Tuple[int, ...]]
        if len(prefix) == 9:
            yield tuple(prefix)
            return
        for n in range(min(4, left) + 1):
            prefix.append(n)
            yield from grow(prefix, left - n)
            prefix.pop()
    return grow([], max_tiles)


def build_suit_table() -> bytearray:
    """Both planes of `suit_table`, computed from `unit_need` (about 15 s)."""
    table = bytearray([SUIT_MISSING]) * (2 * SUIT_SIZE)
    for counts in suit_vectors():
        a, b = unit_need(counts, True)
        if not (0 <= a < 15 and 0 <= b < 15):
            raise ValueError(f"need {a, b} of {counts} does not fit in a nibble")
        i = suit_index(counts)
        table[i] = a | b << 4
        table[SUIT_SIZE + i] = sum(counts) | sum(n & 1 for n in counts) << 4
    return table


def main() -> None:
    data = build_suit_table()
    with open(SUIT_FILE, "wb") as f:
        f.write(data)
    print(f"wrote {SUIT_FILE}: {len(data)} bytes, {sum(1 for x in data[:SUIT_SIZE] if x != SUIT_MISSING)} suits")


if __name__ == "__main__":
    main()
