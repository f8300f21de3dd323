"""The shipped per-suit need table (mjcalc/suit_need.bin) and the fast batch path that reads it.

The table must equal the recursive `_fewest` it was generated from (`python -m mjcalc.shapes`), and
`FastWaits` must answer exactly as `WaitFinder` (itself checked against tests/reference.py elsewhere).
"""
import io
import json
import random

import pytest

from mjcalc import shapes
from mjcalc.analysis import waits
from mjcalc.batch import BatchWaits
from mjcalc.shapes import SEVEN_PAIRS, WaitFinder, _fewest, _suit_row, build_suit_table, trim_counts, unit_need as _need
from mjcalc.fastwaits import _HONOR_NEED, FastWaits
from mjcalc.situation import Situation
from mjcalc.ruleset import load_ruleset
from mjcalc.scoring import prepare
from mjcalc.notation import parse_hand
from mjcalc.tiles import NAMES

TABLE = shapes.load_suit_table(build_suit_table)
SIZE = shapes.SUIT_SIZE


def stored(counts):
    packed = TABLE[shapes.suit_index(counts)]
    return packed & 15, packed >> 4


def edge_vectors():
    yield (0,) * 9
    for r in range(9):
        for n in range(1, 5):
            v = [0] * 9
            v[r] = n
            yield tuple(v)
    yield (4, 4, 4, 2, 0, 0, 0, 0, 0)
    yield (0, 0, 0, 0, 0, 2, 4, 4, 4)
    yield (3, 1, 1, 1, 1, 1, 1, 1, 3)  # nine gates
    yield (4, 1, 1, 1, 1, 1, 1, 1, 3)
    yield (1, 1, 1, 1, 1, 1, 1, 1, 1)
    yield (2, 2, 2, 2, 2, 2, 2, 0, 0)
    yield (1, 0, 0, 1, 0, 0, 1, 0, 0)
    yield (4, 0, 4, 0, 4, 0, 2, 0, 0)
    yield (0, 4, 0, 0, 4, 0, 0, 4, 2)


def random_vectors(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        tiles = rng.randint(0, shapes.SUIT_MAX_TILES)
        v = [0] * 9
        while sum(v) < tiles:
            r = rng.randrange(9)
            if v[r] < 4:
                v[r] += 1
        yield tuple(v)


@pytest.mark.parametrize("counts", list(edge_vectors()) + list(random_vectors(3000, 7)), ids=str)
def test_table_matches_fewest(counts):
    trimmed = trim_counts(counts)
    assert stored(counts) == (_fewest(trimmed, False, True), _fewest(trimmed, True, True))


def test_table_shape_plane_and_bounds():
    """The second plane (tiles, odd ranks), and the bounds FastWaits relies on: a draw lowers each need by at
    most one, and d = (with pair - without pair) is -1..2."""
    for counts in list(edge_vectors()) + list(random_vectors(3000, 8)):
        i = shapes.suit_index(counts)
        assert TABLE[SIZE + i] == sum(counts) | sum(n & 1 for n in counts) << 4
        a, b = stored(counts)
        assert -1 <= b - a <= 2
        if sum(counts) < shapes.SUIT_MAX_TILES:
            for r in range(9):
                if counts[r] < 4:
                    a2, b2 = stored(counts[:r] + (counts[r] + 1,) + counts[r + 1:])
                    assert a2 >= a - 1 and b2 >= b - 1


def test_table_size_and_missing_entries():
    assert len(TABLE) == 2 * SIZE
    assert TABLE[shapes.suit_index((4, 4, 4, 3, 0, 0, 0, 0, 0))] == shapes.SUIT_MISSING  # 15 tiles: not stored
    assert _suit_row((4, 4, 4, 3, 0, 0, 0, 0, 0)) == _need((4, 4, 4, 3, 0, 0, 0, 0, 0), True)
    assert _suit_row((5, 0, 0, 0, 0, 0, 0, 0, 0)) == _need((5, 0, 0, 0, 0, 0, 0, 0, 0), True)  # a fifth copy


def test_honor_rows():
    assert _HONOR_NEED == tuple(_need((n,), False) for n in range(5))


def random_line(rng):
    """A plain 13-tile line, canonical or not, with `*` sometimes and four of a kind often."""
    tiles = []
    while len(tiles) < 13:
        k = rng.randrange(35)
        n = rng.choice([1, 1, 2, 3, 4])
        tiles += [k] * min(n, 13 - len(tiles))
    tiles = [t for t in tiles if t == 34 or tiles.count(t) <= 4][:13]
    while len(tiles) < 13:
        tiles.append(34)
    names = [NAMES[t] if t < 34 else "*" for t in tiles]
    if rng.random() < 0.5:
        rng.shuffle(names)
    return rng.choice([" ", ""]).join(names)


@pytest.mark.parametrize("wild", [(), ("C",), ("5m",), ("E",), ("9s",), ("1p",)])
def test_fast_path_equals_waitfinder(wild):
    rules = load_ruleset("beijing")
    situation = Situation(wild=tuple(NAMES.index(w) for w in wild))
    finder = BatchWaits(rules, situation)
    fast = FastWaits(SEVEN_PAIRS in rules.shapes, finder.wild_kinds)
    rng = random.Random("".join(wild) or "none")
    checked = 0
    for _ in range(4000):
        line = random_line(rng)
        mask = fast.mask(line)
        try:
            hand = parse_hand(line)
            tiles = prepare(hand, finder.wild_kinds)
        except ValueError:
            assert mask is None, line  # the full parser has the words
            continue
        expected = WaitFinder(rules.shapes, finder.wild_kinds).waits(tiles.naturals, tiles.wilds, 0, tiles.held)
        assert mask is not None, line
        assert [t for t in range(34) if mask >> t & 1] == list(expected), line
        checked += 1
    assert checked > 1000


def test_batch_lines_fast_and_full_agree():
    rules = load_ruleset("beijing")
    lines = ["1112345678999m", "123m456p789s EE 45m", "45m 123m456p789s EE", "EEEE SSSS WWWW N", " 1m2m3m 4m",
             "11111m 23456789m", "123m456p789s EE 45m +6m", "x", "", "* 23m456p789s EE 45m", "1122m3344p5566s 7s"]
    for as_json in (False, True):
        fast_out, full_out = io.StringIO(), io.StringIO()
        batch = BatchWaits(rules, Situation())
        fast_bad = batch.run_batch(lines, fast_out, as_json)
        batch._fast = lambda: None  # every line through the full parser
        full_bad = batch.run_batch(lines, full_out, as_json)
        assert fast_out.getvalue() == full_out.getvalue()
        assert fast_bad == full_bad


@pytest.mark.parametrize("wild", [("C",), ("5m",), ("9s",)])
def test_batch_with_four_wilds_is_the_full_answer_on_every_line(wild):
    """Beijing's 四惠牌 wins on any tile: a hand holding three 惠 waits on the fourth too, one holding four on
    every tile. The batch reads the other hands by shape alone (`Region.automatic_held`); each line's answer
    equals `waits` (the full path, which asks the region) in text and JSON."""
    rules = load_ruleset("beijing")
    situation = Situation(wild=tuple(NAMES.index(w) for w in wild))
    rng = random.Random("four-" + wild[0])
    face = NAMES.index(wild[0])
    lines = [random_line(rng) for _ in range(1500)]
    # hands holding 3 or 4 of the wild kind, often: the ones the fast path must leave to the full one
    for _ in range(300):
        k = rng.choice([3, 4])
        rest = [NAMES[t] for t in rng.sample([t for t in range(34) if t != face for _ in range(4)], 13 - k)]
        lines.append(" ".join([wild[0]] * k + rest))
    seen_automatic = 0
    for as_json in (False, True):
        fast_out, full_out = io.StringIO(), io.StringIO()
        batch = BatchWaits(rules, situation)
        assert batch._fast() is not None
        fast_bad = batch.run_batch(lines, fast_out, as_json)
        batch._fast = lambda: None
        full_bad = batch.run_batch(lines, full_out, as_json)
        assert fast_out.getvalue().splitlines() == full_out.getvalue().splitlines()
        assert fast_bad == full_bad
    for line, out in zip(lines, fast_out.getvalue().splitlines()):
        try:
            expected = waits(parse_hand(line), rules, situation)
        except ValueError:
            continue
        assert json.loads(out)["waits"] == [{"tile": NAMES[t], "left": n} for t, n in expected], line
        seen_automatic += len(expected) >= 20
    assert seen_automatic > 30
