"""The per-suit need table, shipped as package data (`suit_need.bin`) so the waits path skips the recursion.

A suit's natural counts c[0..8] (each 0-4) give the index ``i = sum(c[r] * 5**r)``. Byte i of the table is
``a | b << 4``: `a` the fewest wildcards that make the suit into sets, `b` the same with the pair inside it,
exactly `shapes.unit_need(c, True)`. Byte SIZE + i is ``tiles | odd << 4``: the suit's tiles and how many
ranks hold an odd count (a digit string's index ``sum(5 ** (digit - 1))`` has `tiles` equal to its length
exactly when no rank holds five or more: a fifth copy carries into the next rank). Only suits of at most
`MAX_TILES` tiles are stored (a 13-tile hand plus the tile drawn); every other byte is `MISSING`, and callers
compute those with `unit_need`. `shapes.build_suit_table` makes the file (`python -m mjcalc.shapes`).
"""
import os

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suit_need.bin")
SIZE = 5 ** 9  # entries; the file holds two planes of SIZE bytes
MAX_TILES = 14
MISSING = 0xFF
POW5 = tuple(5 ** r for r in range(9))

_table = None


def load(build=None):
    """The table (bytes, or a read-only mmap: only the pages used are read), opened once.

    A missing or damaged file is rebuilt in memory by `build()` (slow, but the answers stay right).
    """
    global _table
    if _table is None:
        data = b""
        try:
            with open(FILE, "rb") as f:
                try:
                    import mmap  # imported when used (start-up time)
                    data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                except (ImportError, OSError, ValueError):
                    data = f.read()
        except OSError:
            pass
        if len(data) != 2 * SIZE:
            if build is None:
                raise OSError(f"{FILE}: missing or damaged")
            data = bytes(build())
        _table = data
    return _table


def index(counts) -> int:
    return sum(n * p for n, p in zip(counts, POW5))


def vectors(max_tiles: int = MAX_TILES):
    """Every suit count vector (9 counts of 0-4) holding at most `max_tiles` tiles."""
    def grow(prefix, left):
        if len(prefix) == 9:
            yield tuple(prefix)
            return
        for n in range(min(4, left) + 1):
            prefix.append(n)
            yield from grow(prefix, left - n)
            prefix.pop()
    return grow([], max_tiles)
