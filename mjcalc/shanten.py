"""Shanten 向听 with wildcards, and discard advice: how far a hand is from ready, and what to throw.

A wildcard may stand for anything, so a hand's shanten is the fewest natural tiles that, turned into
wildcards, make it ready (see `tests/reference.py`, `ref_shanten`). Turned around: a shape has a fixed number
of *slots* (blocks); keep as many natural tiles as the slots can hold and let wildcards fill the rest. With
`N` natural tiles and `K` the most of them some filling keeps,

    13 tiles: shanten = N - K          (0 = ready)
    14 tiles: shanten = N - K - 1      (-1 = complete)

whatever the number of wildcards. For the standard shape `K` comes from a per-unit table, memoised on the
unit's counts: for each number of set blocks (0-4) and pair blocks (0-1), the most naturals they can hold.
"""
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Collection, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .shapes import (KNITTED, KNITTED_SETS, KNITTED_STRAIGHT, NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY,
                     THIRTEEN_ORPHANS, knitted_rest, trim_counts)
from .tiles import HONORS, NUM_KINDS, TERMINALS_AND_HONORS, Wall

_SETS = 5  # set blocks 0-4
_Table = Tuple[Tuple[int, ...], ...]  # table[s][p]: a row per number of set blocks, a cell per number of pair blocks
_EMPTY: _Table = ((0, 0),) * _SETS


@lru_cache(maxsize=None)
def _suit_table(c: Tuple[int, ...]) -> _Table:
    """For a suit's counts (trimmed), table[s][p]: the most naturals `s` set blocks and `p` pair blocks hold.

    The lowest tile held is either left out or is the lowest natural of its block: a pair, a pung, or a chow
    starting at it (a chow reaching below it would only hold fewer naturals). Trimming is exact because every
    block considered holds only ranks that exist in the trimmed counts.
    """
    if not c:
        return _EMPTY
    n = c[0]
    best = [list(row) for row in _suit_table(trim_counts((n - 1,) + c[1:]))]  # leave one copy out

    # typed by a comment: annotations would be evaluated on every call of `_suit_table`
    def take(removed, kept, sets, pairs):  # type: (Tuple[Tuple[int, int], ...], int, int, int) -> None
        rest = list(c)
        for i, k in removed:
            rest[i] -= k
        sub = _suit_table(trim_counts(rest))
        for s in range(sets, _SETS):
            for p in range(pairs, 2):
                value = kept + sub[s - sets][p - pairs]
                if value > best[s][p]:
                    best[s][p] = value

    take(((0, min(n, 2)),), min(n, 2), 0, 1)
    take(((0, min(n, 3)),), min(n, 3), 1, 0)
    if len(c) > 1 and c[1]:
        take(((0, 1), (1, 1)), 2, 1, 0)
    if len(c) > 2 and c[2]:
        take(((0, 1), (2, 1)), 2, 1, 0)
        if c[1]:
            take(((0, 1), (1, 1), (2, 1)), 3, 1, 0)
    return tuple(tuple(row) for row in best)


def _honor_table(n: int) -> _Table:
    return tuple((min(n, 3 * s), min(n, 3 * s + 2)) for s in range(_SETS))


_HONOR_TABLES = {n: _honor_table(n) for n in range(15)}


# For each cell (s, p) of a combined table, in order: the ways to split s set blocks and p pair blocks in two.
_SPLITS = tuple(tuple((s1, p1, s - s1, p - p1) for s1 in range(s + 1) for p1 in range(p + 1))
                for s in range(_SETS) for p in range(2))


@lru_cache(maxsize=1 << 16)
def _combine(a: _Table, b: _Table) -> _Table:
    """The table of two units together: each cell the best split of its blocks between them. Memoised: the
    value of discards and the discard ranking combine the same unit tables over and over."""
    cells = [max([a[s1][p1] + b[s2][p2] for s1, p1, s2, p2 in split]) for split in _SPLITS]
    return tuple(zip(cells[0::2], cells[1::2]))


def standard_kept(counts: Sequence[int], melds: int) -> int:
    """The most natural tiles `4 - melds` sets and a pair can hold, wildcards filling the rest."""
    return sets_kept(counts, 4 - melds)


def sets_kept(counts: Sequence[int], sets: int) -> int:
    """The most natural tiles `sets` sets and a pair can hold, wildcards filling the rest."""
    table = _EMPTY
    for start in (0, 9, 18):
        unit = trim_counts(tuple(counts[start:start + 9]))
        if unit:
            table = _combine(table, _suit_table(unit))
    for h in HONORS:
        if counts[h]:
            table = _combine(table, _HONOR_TABLES[min(counts[h], 14)])
    return table[sets][1]


def seven_pairs_kept(counts: Sequence[int]) -> int:
    full = sum(n // 2 for n in counts)
    odd = sum(n % 2 for n in counts)
    full = min(full, 7)
    return 2 * full + min(odd, 7 - full)


def orphans_kept(counts: Sequence[int]) -> int:
    held = [t for t in TERMINALS_AND_HONORS if counts[t]]
    return len(held) + (1 if any(counts[t] >= 2 for t in held) else 0)


def _lonely_subsets() -> List[Tuple[FrozenSet[int], int]]:
    """Per suit: every set of ranks pairwise 3 or more apart, with its capacity (the most ranks it extends to)."""
    subsets = [frozenset(x) for size in range(4) for x in combinations(range(9), size)
               if all(b - a >= 3 for a, b in zip(x, x[1:]))]
    return [(s, max(len(f) for f in subsets if s <= f)) for s in subsets]


_LONELY = _lonely_subsets()


@lru_cache(maxsize=None)
def _lonely_suit(ranks: FrozenSet[int]) -> Tuple[Tuple[int, int], ...]:
    """(kept, capacity) for each lonely subset of the held ranks."""
    return tuple((len(s), cap) for s, cap in _LONELY if s <= ranks)


def lonely_kept(counts: Sequence[int]) -> int:
    honors = sum(1 for h in HONORS if counts[h])
    options = [_lonely_suit(frozenset(r for r in range(9) if counts[9 * s + r])) for s in range(3)]
    best = 0
    for k1, c1 in options[0]:
        for k2, c2 in options[1]:
            for k3, c3 in options[2]:
                if c1 + c2 + c3 >= 7 and k1 + k2 + k3 > best:  # 7 honors + the suits' room must reach 14
                    best = k1 + k2 + k3
    return honors + best


def nine_kept(counts: Sequence[int]) -> int:
    return sum(counts[t] for t in TERMINALS_AND_HONORS)


def knitted_kept(counts: Sequence[int]) -> int:
    """全不靠: the honors held and the most tiles held of one knitted set, each kind once (14 of those 16 kinds make
    the shape, and a hand of at most 14 tiles holds no more than 14 of them)."""
    honors = sum(1 for h in HONORS if counts[h])
    return honors + max(sum(1 for t in knitted if counts[t]) for knitted in KNITTED_SETS)


def knitted_straight_kept(counts: Sequence[int], melds: int) -> int:
    """组合龙: over the knitted sets, the tiles held of the set and the most naturals left that the one set (none
    beside a declared meld) and the pair hold. A natural copy of a knitted tile is best in the knitted set."""
    best = -1
    for knitted in KNITTED_SETS:
        rest, missing = knitted_rest(counts, knitted)
        best = max(best, 9 - missing + sets_kept(rest, 1 - melds))
    return best


def kept(counts: Sequence[int], melds: int, shape: str) -> int:
    """The most natural tiles the shape keeps (melds allow only the standard shape, and 组合龙 one; -1 when it
    cannot apply)."""
    if shape == STANDARD:
        return standard_kept(counts, melds)
    if shape == KNITTED_STRAIGHT:
        return knitted_straight_kept(counts, melds) if melds <= 1 else -1
    if melds:
        return -1
    if shape == SEVEN_PAIRS:
        return seven_pairs_kept(counts)
    if shape == THIRTEEN_ORPHANS:
        return orphans_kept(counts)
    if shape == THIRTEEN_LONELY:
        return lonely_kept(counts)
    if shape == NINE_TERMINALS:
        return nine_kept(counts)
    if shape == KNITTED:
        return knitted_kept(counts)
    raise ValueError(f"unknown shape {shape!r}")


# The ways a hand may have to get rid of some kinds before it can win (`Region.unkept`): each a set of kinds a win
# may not hold (a void suit 定缺; one of three suits where a win holds two). A kind of the way taken is never kept.
Dropped = Tuple[Tuple[int, ...], ...]
KEEP_ALL: Dropped = ((),)


def _without(counts: Sequence[int], kinds: Collection[int]) -> List[int]:
    return [0 if k in kinds else n for k, n in enumerate(counts)]


def kept_by_shape(counts: Sequence[int], melds: int, shapes: Collection[str],
                  dropped: Dropped = KEEP_ALL) -> Dict[str, Tuple[int, Tuple[Tuple[int, ...], ...]]]:
    """For each shape that can apply: the most natural tiles it keeps, the best way of those `dropped`, and the
    ways that keep that many."""
    out = {}
    for shape in shapes:
        by_way = [(kept(_without(counts, way) if way else counts, melds, shape), way) for way in dropped]
        most = max(k for k, _ in by_way)
        if most >= 0:
            out[shape] = (most, tuple(way for k, way in by_way if k == most))
    return out


def shanten_by_shape(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
                     dropped: Dropped = KEEP_ALL) -> Dict[str, int]:
    """The shanten of a 13- or 14-tile hand in each shape that can apply (a tile of the kinds it must drop,
    `dropped`'s best way, is never kept)."""
    naturals = sum(counts)
    size = naturals + wilds + 3 * melds
    if size not in (13, 14):
        raise ValueError(f"{size} tiles: shanten needs 13 or 14")
    extra = size - 13
    if dropped == KEEP_ALL:  # the usual case, kept fast: nothing to drop
        out = {}
        for shape in shapes:
            k = kept(counts, melds, shape)
            if k >= 0:
                out[shape] = naturals - k - extra
        return out
    return {shape: naturals - k - extra for shape, (k, _) in kept_by_shape(counts, melds, shapes, dropped).items()}


def shanten(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
            dropped: Dropped = KEEP_ALL) -> int:
    """Tiles away from ready 向听 for 13 or 14 tiles: 0 = ready, -1 = a complete 14-tile hand."""
    found = shanten_by_shape(counts, wilds, melds, shapes, dropped)
    if not found:
        raise ValueError(f"no shape in {sorted(shapes)} can complete a hand with {melds} melds")
    return min(found.values())


# --- discard advice -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Improvement:
    """A tile kind that, drawn, lowers the shanten; `left` copies are unseen."""

    tile: int
    left: int


@dataclass(frozen=True)
class Discard:
    """One discard from a 14-tile hand: `tile` is a kind, or `WILD_DISCARD` for a wildcard."""

    tile: int
    shanten: int
    improvements: Tuple[Improvement, ...]

    @property
    def effective(self) -> int:
        """有效牌: how many unseen tiles improve the hand."""
        return sum(i.left for i in self.improvements)


WILD_DISCARD = -1


def improvements(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str],
                 wild_kinds: Collection[int] = (), dropped: Dropped = KEEP_ALL) -> Tuple[Tuple[int, ...], int]:
    """The kinds that, drawn into a 13-tile hand, lower its shanten (whatever copies are left), and that shanten.

    A drawn kind lowers it exactly when it raises the kept naturals of a shape already at the least shanten,
    by one (a tile more is kept at most one more), in one of the best ways of dropping kinds (`dropped`) that
    keeps it. A drawn wild kind adds a wildcard: that always lowers it.
    """
    naturals = sum(counts)
    size = naturals + wilds + 3 * melds
    if size not in (13, 14):
        raise ValueError(f"{size} tiles: shanten needs 13 or 14")
    by_shape = kept_by_shape(counts, melds, shapes, dropped)
    if not by_shape:
        raise ValueError(f"no shape in {sorted(shapes)} can complete a hand with {melds} melds")
    now = min(naturals - k - (size - 13) for k, _ in by_shape.values())
    found = set(wild_kinds)
    for shape, (before, ways) in by_shape.items():
        if naturals - before - (size - 13) != now:
            continue
        for way in ways:
            base = _without(counts, way) if way else list(counts)
            if shape == STANDARD:
                found.update(t for t in _standard_gains(base, melds) if t not in way)
                continue
            for t in range(NUM_KINDS):
                if t not in found and t not in way:
                    base[t] += 1
                    if kept(base, melds, shape) > before:
                        found.add(t)
                    base[t] -= 1
    return tuple(sorted(found)), now


_UNIT_SPANS = ((0, 9), (9, 9), (18, 9)) + tuple((h, 1) for h in HONORS)


def _unit_table(unit: Tuple[int, ...], suited: bool) -> _Table:
    return _suit_table(trim_counts(unit)) if suited else _HONOR_TABLES[min(unit[0], 14)]


def _standard_gains(counts: Sequence[int], melds: int) -> List[int]:
    """The kinds whose draw lets the standard shape keep one more natural tile."""
    sets = 4 - melds
    tables = [_unit_table(tuple(counts[a:a + n]), n == 9) for a, n in _UNIT_SPANS]
    prefix = [_EMPTY]
    for t in tables:
        prefix.append(_combine(prefix[-1], t))
    suffix = [_EMPTY]
    for t in reversed(tables):
        suffix.append(_combine(t, suffix[-1]))
    suffix.reverse()
    now = prefix[-1][sets][1]
    gains = []
    for i, (a, n) in enumerate(_UNIT_SPANS):
        others = _combine(prefix[i], suffix[i + 1])
        unit = list(counts[a:a + n])
        for r in range(n):
            unit[r] += 1
            grown = _unit_table(tuple(unit), n == 9)
            unit[r] -= 1
            best = max(others[s][p] + grown[sets - s][1 - p] for s in range(sets + 1) for p in range(2))
            if best > now:
                gains.append(a + r)
    return gains


def discards(counts: Sequence[int], wilds: int, melds: int, shapes: Collection[str], wild_kinds: Collection[int] = (),
             wall: Optional[Wall] = None, dropped: Dropped = KEEP_ALL) -> List[Discard]:
    """Every distinct discard from a 14-tile hand, best first: lowest shanten, then most tiles that improve it.

    `wall` is the 14 tiles' (`Wall.held` counts every copy among them, melds and wildcards' faces included; by
    default the natural `counts` in a 136-tile wall): the discarded tile stays visible, so tiles left are the
    wall's, and a kind the hand holds all four of (or the wall has none of) is never an improvement (as for
    waits).
    """
    wall = wall if wall is not None else Wall.of(counts)
    counts = list(counts)
    results = []
    for tile in [t for t in range(NUM_KINDS) if counts[t]] + ([WILD_DISCARD] if wilds else []):
        if tile == WILD_DISCARD:
            kinds, now = improvements(counts, wilds - 1, melds, shapes, wild_kinds, dropped)
        else:
            counts[tile] -= 1
            kinds, now = improvements(counts, wilds, melds, shapes, wild_kinds, dropped)
            counts[tile] += 1
        improved = tuple(Improvement(t, wall.left(t)) for t in kinds if wall.drawable(t))
        results.append(Discard(tile, now, improved))
    results.sort(key=rank)
    return results


def rank(d: Discard) -> Tuple[int, int, int, bool, int]:
    """Lowest shanten first, then the most tiles that improve it, the most kinds, natural tiles before a wildcard."""
    return (d.shanten, -d.effective, -len(d.improvements), d.tile == WILD_DISCARD, d.tile)


# --- one tile in, one tile out --------------------------------------------------------------------------


def gains(counts: Sequence[int], melds: int, shape: str) -> Tuple[int, FrozenSet[int]]:
    """For natural counts of any size: the most naturals `shape` keeps (`kept`), and the kinds whose one more
    copy raises that by one (it never rises by more). (-1, empty) when the shape cannot apply."""
    now = kept(counts, melds, shape)
    if now < 0:
        return now, frozenset()
    if shape == STANDARD:
        return now, frozenset(_standard_gains(counts, melds))
    if shape == SEVEN_PAIRS:
        full = sum(n // 2 for n in counts)
        odd = sum(n % 2 for n in counts)
        # a copy on an odd count makes a pair (full + 1, odd - 1); on an even count, one more odd tile
        on_odd = 2 * min(full + 1, 7) + min(odd - 1, 7 - min(full + 1, 7))
        on_even = 2 * min(full, 7) + min(odd + 1, 7 - min(full, 7))
        return now, frozenset(t for t in range(NUM_KINDS)
                              if (on_odd if counts[t] % 2 else on_even) > now)
    if shape == NINE_TERMINALS:
        return now, frozenset(TERMINALS_AND_HONORS)
    grown = list(counts)
    found = []
    for t in range(NUM_KINDS):
        grown[t] += 1
        if kept(grown, melds, shape) > now:
            found.append(t)
        grown[t] -= 1
    return now, frozenset(found)
