"""全不靠 (`knitted`) and 组合龙 (`knitted_straight`): tables worked by hand, and the engine against a slow reference
written here, on hands drawn near the knitted shapes; PyMahjongGB's shanten of the two shapes besides.

The reference knows each shape by the list of its complete hands: every 14 of a knitted set's 16 kinds (its nine
tiles and the seven honors), every knitted set with a set and a pair (with the pair alone beside a declared meld).
A hand with wildcards is complete when some choice of kinds for them makes one of those. It imports nothing of the
engine; tests/reference.py answers for the other shapes.
"""
import json
from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from conftest import engine_hands, hand_text
from mjcalc.analysis import setting
from mjcalc.cli import cli
from mjcalc.decompose import count_decompositions, decompositions, keyed_decompositions
from mjcalc.errors import HandError, SituationError
from mjcalc.hand import CHOW, KONG, PUNG, Hand, Meld
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset_file
from mjcalc.scoring import prepare, score_hand
from mjcalc.shanten import improvements, shanten, shanten_by_shape
from mjcalc.shapes import (
    KNITTED, KNITTED_STRAIGHT, SEVEN_PAIRS, SHAPES, STANDARD, WaitFinder, is_complete, waits,
)
from mjcalc.situation import Situation
from mjcalc.tiles import NAMES, NUM_KINDS, WILD

KNIT = frozenset({KNITTED})
STRAIGHT = frozenset({KNITTED_STRAIGHT})
BOTH = frozenset({KNITTED, KNITTED_STRAIGHT})
MCR = frozenset({STANDARD, SEVEN_PAIRS, KNITTED, KNITTED_STRAIGHT})
EVERY = frozenset(SHAPES)
SHAPE_SETS = [KNIT, STRAIGHT, BOTH, MCR, EVERY]


# --- the reference ----------------------------------------------------------------------------------------------

HONOR_KINDS = tuple(range(27, 34))
# each knitted set's nine kinds: ranks 1-4-7, 2-5-8 and 3-6-9, in the suits of each order of m, p, s
KNITS = tuple(
    tuple(sorted(9 * "mps".index(suit) + rank - 1 for suit, first in zip(order, (1, 2, 3))
                 for rank in (first, first + 3, first + 6)))
    for order in permutations("mps")
)
SETS = tuple((t, t, t) for t in range(NUM_KINDS)) + tuple((t, t + 1, t + 2) for t in range(27) if t % 9 <= 6)


@lru_cache(maxsize=None)
def complete_hands(shape, melds):
    """Every complete natural hand of the shape beside `melds` declared sets, as sorted tuples of kinds (a fifth
    copy allowed: a wildcard may stand for one)."""
    found = set()
    for knit in KNITS:
        if shape == KNITTED and melds == 0:
            found.update(combinations(knit + HONOR_KINDS, 14))  # both sorted: each combination is sorted
        elif shape == KNITTED_STRAIGHT and melds <= 1:
            for pair in range(NUM_KINDS):
                for one in SETS if melds == 0 else [()]:
                    found.add(tuple(sorted(knit + one + (pair, pair))))
    return frozenset(found)


@lru_cache(maxsize=None)
def one_short(shape, melds):
    """The complete hands less any one of their tiles: what the rest of a hand must be when a wildcard is left."""
    return frozenset(h[:i] + h[i + 1:] for h in complete_hands(shape, melds) for i in range(len(h)))


@lru_cache(maxsize=None)
def complete_counts(shape, melds):
    """The complete hands as (kind, copies) pairs."""
    return tuple(tuple(Counter(h).items()) for h in complete_hands(shape, melds))


def kinds_of(naturals):
    """The kinds of 34 counts, one a copy, sorted."""
    return tuple(k for k in range(NUM_KINDS) for _ in range(naturals[k]))


def ref_complete(naturals, wilds, melds, shape):
    """Whether some choice of kinds for the wildcards makes one of the shape's complete hands."""
    tiles = kinds_of(naturals)
    if wilds == 0:
        return tiles in complete_hands(shape, melds)
    short = one_short(shape, melds)
    return any(tuple(sorted(tiles + stand)) in short
               for stand in combinations_with_replacement(range(NUM_KINDS), wilds - 1))


def ref_complete_in(naturals, wilds, melds, shapes):
    """`ref_complete` for the knitted shapes among `shapes`, tests/reference.py for the others."""
    others = set(shapes) & ref.ALL_SHAPES
    if others and ref.ref_is_complete(naturals, wilds, melds, others):
        return True
    return any(ref_complete(naturals, wilds, melds, s) for s in shapes if s in (KNITTED, KNITTED_STRAIGHT))


def ref_waits(h, shapes):
    """The kinds whose draw completes the 13-tile hand `h` (a wild kind drawn is one more wildcard); none held four
    times."""
    found = []
    for t in range(NUM_KINDS):
        if h["held"][t] >= 4:
            continue
        if t == h["wild_kind"]:
            completes = ref_complete_in(h["naturals"], h["wilds"] + 1, h["melds"], shapes)
        else:
            grown = list(h["naturals"])
            grown[t] += 1
            completes = ref_complete_in(grown, h["wilds"], h["melds"], shapes)
        if completes:
            found.append(t)
    return found


def ref_decompositions(naturals, wilds, melds, shape):
    """Every distinct decomposition of the shape, as sorted tuples of (kind, tiles, stand-ins) blocks: each choice
    of kinds for the wildcards, each way its tiles split into the shape's blocks, each way of seating
    the wildcards in blocks holding their kinds (tests/reference.py's brute force for the standard shape)."""
    found = set()
    for counts, stand_ins in ref._substitutions(naturals, wilds):
        splits = []
        if shape == KNITTED and kinds_of(counts) in complete_hands(KNITTED, melds):
            splits.append(((KNITTED, kinds_of(counts)),))
        elif shape == KNITTED_STRAIGHT and melds <= 1:
            for knit in KNITS:
                if all(counts[t] for t in knit):
                    rest = tuple(n - (k in knit) for k, n in enumerate(counts))
                    splits += [((KNITTED_STRAIGHT, knit),) + split for split in ref._standard_splits(rest, 1 - melds, 1)]
        for split in splits:
            found.update(ref._place_wildcards(split, stand_ins))
    return found


def ref_shanten(naturals, wilds, melds, shape):
    """向听 by its definition (tests/reference.py's `ref_shanten`): of 13 tiles, the fewest naturals that, turned
    into wildcards, make the hand complete with one wildcard more, so the naturals less the most that one complete
    hand holds of them; of 14, -1 when complete, else the least of the 13-tile hands each discard leaves."""
    n = sum(naturals)
    held = [(sum(min(naturals[k], c) for k, c in h), dict(h)) for h in complete_counts(shape, melds)]
    if n + wilds + 3 * melds == 13:
        return n - max(kept for kept, _ in held)
    if ref_complete(naturals, wilds, melds, shape):
        return -1
    best = n - max(kept for kept, _ in held) if wilds else 99  # a wildcard thrown
    for d in range(NUM_KINDS):
        if naturals[d]:  # one `d` less is one fewer kept by a complete hand holding at least as many `d`
            best = min(best, n - 1 - max(kept - (naturals[d] <= h.get(d, 0)) for kept, h in held))
    return best


# --- hands drawn near the knitted shapes ------------------------------------------------------------------------


@st.composite
def near_knitted(draw, size, max_wilds=2):
    """A hand of `size` tiles (13 or 14, a meld counting 3), as `conftest.engine_hands` gives one, drawn near a
    knitted shape: 14 of a knitted set's 16 kinds, or its nine tiles with a set and a pair (the set sometimes a
    declared chow, pung or kong); then up to two tiles changed to any kind, one left out for 13 tiles, and up to
    `max_wilds` turned into wildcards, faceless or of a wild kind not held."""
    knit = list(draw(st.sampled_from(KNITS)))
    style = draw(st.sampled_from(["lesser", "straight", "straight", "meld"]))
    meld = []
    if style == "lesser":
        tiles = draw(st.permutations(knit + list(HONOR_KINDS)))[:14]
    else:
        one = list(draw(st.sampled_from(SETS)))
        tiles = knit + [draw(st.integers(0, NUM_KINDS - 1))] * 2
        if style == "meld":
            meld = one + one[:1] if one[0] == one[1] and draw(st.booleans()) else one
        else:
            tiles += one
    room = [4 - meld.count(t) for t in range(NUM_KINDS)]
    kept = []
    for t in tiles:  # a copy beyond the four is left out, and the hand filled up below
        if room[t]:
            room[t] -= 1
            kept.append(t)
    tiles = kept
    changes = draw(st.sampled_from([0, 0, 1, 2]))
    while len(tiles) < 14 - 3 * bool(meld) or changes:
        if changes and tiles:
            room[tiles.pop(draw(st.integers(0, len(tiles) - 1)))] += 1
            changes -= 1
        t = draw(st.integers(0, NUM_KINDS - 1).filter(lambda k: room[k] > 0))
        room[t] -= 1
        tiles.append(t)
    if size == 13:
        room[tiles.pop(draw(st.integers(0, len(tiles) - 1)))] += 1
    wilds = draw(st.integers(0, max_wilds))
    for _ in range(wilds):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    naturals = [tiles.count(k) for k in range(NUM_KINDS)]
    meld_counts = [meld.count(k) for k in range(NUM_KINDS)]
    wild_kind = None
    if draw(st.booleans()):
        free = [k for k in range(NUM_KINDS) if naturals[k] == 0 and meld_counts[k] + wilds <= 4]
        wild_kind = draw(st.sampled_from(free))
    held = [naturals[k] + meld_counts[k] + (wilds if k == wild_kind else 0) for k in range(NUM_KINDS)]
    return {"naturals": naturals, "wilds": wilds, "melds": int(bool(meld)), "meld_counts": meld_counts,
            "wild_kind": wild_kind, "held": held}


def hands(size, max_wilds=2):
    """Mostly hands near the knitted shapes, sometimes any hand with a meld at most."""
    return st.one_of(near_knitted(size, max_wilds), near_knitted(size, max_wilds), near_knitted(size, max_wilds),
                     engine_hands(size, max_wilds=max_wilds, max_melds=1))


def where(h, shapes=()):
    """For failure messages: the hand, its wild kind and the shapes."""
    return hand_text(h["naturals"], h["wilds"], h["melds"]) + f", wild kind {h['wild_kind']}, {sorted(shapes)}"


def view(text, wild=""):
    """The engine's view of a hand written in notation, under the wild kinds `wild` (`"C"`)."""
    return prepare(parse_hand(text), tuple(NAMES.index(k) for k in wild.split()))


# --- worked by hand ---------------------------------------------------------------------------------------------

COMPLETE = [
    pytest.param("147m 258p 369s ESWNC", "", KNIT, True, id="lesser_knitted_five_honors"),
    pytest.param("147m 258p 369s ESWNC", "", STRAIGHT, False, id="lesser_knitted_is_no_straight"),
    pytest.param("147m 258p 3s ESWNCFP", "", KNIT, True, id="seven_stars"),
    pytest.param("147m 25p 36s ESWNCFP", "", KNIT, True, id="seven_stars_other_tiles"),
    pytest.param("1m 5m 9m 3p 7p 2s 6s ESWNCFP", "", KNIT, False, id="thirteen_lonely_is_not_knitted"),
    pytest.param("147m 258p 369s ESWNN", "", KNIT, False, id="an_honor_twice"),
    pytest.param("147m 258m 369s ESWNC", "", KNIT, False, id="two_rank_groups_in_one_suit"),
    pytest.param("147m 258p 369s 1m ESWN", "", BOTH, False, id="a_knitted_tile_twice"),
    pytest.param("147m 258s 369p 123m 55p", "", STRAIGHT, True, id="straight_chow_and_pair"),
    pytest.param("147m 258s 369p 123m 55p", "", KNIT, False, id="straight_is_not_lesser_knitted"),
    pytest.param("147m 258p 369s 456p 77s", "", STRAIGHT, True, id="straight_sharing_its_5p"),
    pytest.param("147m 258p 369s 999s EE", "", STRAIGHT, True, id="straight_pung_beside_its_9s"),
    pytest.param("147m 258p 369s 999s EW", "", STRAIGHT, False, id="straight_without_a_pair"),
    pytest.param("147m 258p 369s 123m 55p", "", STRAIGHT, True, id="straight_1m_twice"),
    pytest.param("147m 258p 369s 124m 55p", "", STRAIGHT, False, id="straight_without_a_set"),
    pytest.param("[789s] 147m 258p 369s EE", "", STRAIGHT, True, id="straight_exposed_chow"),
    pytest.param("[CCCC] 147m 258p 369s 55p", "", STRAIGHT, True, id="straight_exposed_kong"),
    pytest.param("{CCCC} 147m 258p 369s 55p", "", STRAIGHT, True, id="straight_concealed_kong"),
    pytest.param("[789s] 147m 258p 369s EW", "", STRAIGHT, False, id="straight_meld_without_a_pair"),
    pytest.param("[789s] 147m 258p 369s EE", "", KNIT, False, id="lesser_knitted_has_no_meld"),
    pytest.param("[789s] [EEE] 147m 258p 36s", "", STRAIGHT | {STANDARD}, False, id="two_melds"),
    pytest.param("147m 258p 36s ESWNC *", "", KNIT, True, id="lesser_knitted_one_wild"),
    pytest.param("147m 258p 36s ESWN **", "", KNIT, True, id="lesser_knitted_two_wilds"),
    pytest.param("147m 258p 36s ESWNN *", "", KNIT, False, id="a_wildcard_mends_no_pair"),
    pytest.param("147m 258s 369p 123m 5p *", "", STRAIGHT, True, id="straight_wild_in_the_pair"),
    pytest.param("147m 25s 369p 123m 55p *", "", STRAIGHT, True, id="straight_wild_as_8s"),
    pytest.param("147m 25s 36p 123m 55p **", "", STRAIGHT, True, id="straight_two_wild_knitted_tiles"),
    pytest.param("[789s] 147m 258p 369s E *", "", STRAIGHT, True, id="straight_meld_and_wild"),
    pytest.param("147m 258p 369s ESW CC", "C", KNIT, True, id="wild_kind_stands_in"),
]


@pytest.mark.parametrize("text, wild, shapes, expected", COMPLETE)
def test_complete_table(text, wild, shapes, expected):
    t = view(text, wild)
    assert is_complete(t.naturals, t.wilds, t.melds, shapes) is expected
    assert ref_complete_in(t.naturals, t.wilds, t.melds, shapes) is expected
    assert bool(list(decompositions(t.naturals, t.wilds, t.melds, shapes))) is expected


WAITS = [
    pytest.param("147m 258p 369s ESWN", "", BOTH, "C F P", id="lesser_knitted_honors"),
    pytest.param("147m 258p 369s ESWN", "", STRAIGHT, "", id="four_honors_make_no_straight"),
    pytest.param("147m 258p 36s ESWNC", "", KNIT, "9s F P", id="lesser_knitted_9s"),
    pytest.param("147m 258p 36s ESWNC", "", STRAIGHT, "", id="lesser_knitted_9s_is_no_straight"),
    # 3s is in no knitted set but 147m 258p 369s: the rest of it
    pytest.param("147m 25p 3s ESWNCFP", "", KNIT, "8p 69s", id="seven_stars"),
    pytest.param("147m 258p 369s 123m 5p", "", STRAIGHT, "5p", id="straight_pair_wait"),
    pytest.param("147m 258p 369s 123m E", "", STRAIGHT, "E", id="straight_pair_on_E"),
    pytest.param("147m 258p 369s 55p 78s", "", STRAIGHT, "69s", id="straight_two_sided_chow"),
    # four 5p: one in 258p, three a pung; 9s completes the knitted set
    pytest.param("147m 258p 36s 555p EE", "", STRAIGHT, "9s", id="straight_missing_9s"),
    pytest.param("[EEE] 147m 258p 369s 5p", "", STRAIGHT, "5p", id="meld_pair_wait"),
    pytest.param("[EEE] 147m 258p 36s 55p", "", STRAIGHT, "9s", id="meld_missing_9s"),
    pytest.param("[EEE] 147m 258p 36s 55p", "", MCR, "9s", id="meld_missing_9s_mcr"),
    # the wildcard is whichever of 9s C F P is not drawn
    pytest.param("147m 258p 36s ESWN *", "", KNIT, "9s C F P", id="lesser_knitted_one_wild"),
    # a wild kind drawn is one more wildcard, which completes a ready hand
    pytest.param("147m 258p 36s ESWN 5m", "5m", KNIT, "5m 9s C F P", id="lesser_knitted_wild_kind"),
]


def kinds_named(text):
    """`69s C` -> the kinds 6s 9s C."""
    names = []
    for group in text.split():
        names += [d + group[-1] for d in group[:-1]] if group[-1] in "mps" else list(group)
    return tuple(NAMES.index(k) for k in names)


@pytest.mark.parametrize("text, wild, shapes, expected", WAITS)
def test_waits_table(text, wild, shapes, expected):
    t = view(text, wild)
    want = kinds_named(expected)
    assert waits(t.naturals, t.wilds, t.melds, shapes, t.held, t.wild_kinds) == want
    assert WaitFinder(shapes, t.wild_kinds).waits(t.naturals, t.wilds, t.melds, t.held) == want


SHANTEN = [
    pytest.param("147m 258p 369s ESWN", KNIT, 0, id="lesser_knitted_ready"),
    # W and N turned into wildcards: E and S each with wildcards are the pair and the set
    pytest.param("147m 258p 369s ESWN", STRAIGHT, 2, id="straight_two_away"),
    pytest.param("147m 258p 369s ESWNC", KNIT, -1, id="lesser_knitted_complete"),
    # throw an E, turn 5m into a wildcard
    pytest.param("147m 258p 36s EESWN 5m", KNIT, 1, id="lesser_knitted_one_away"),
    # E turned into a wildcard is the 9s, and the tile drawn pairs 5p
    pytest.param("147m 258p 36s 123m 5p E", STRAIGHT, 1, id="straight_one_away"),
    pytest.param("147m 258p 36s ESWN *", KNIT, 0, id="lesser_knitted_wild_ready"),
    pytest.param("[EEE] 147m 258p 369s 5p", STRAIGHT, 0, id="straight_meld_ready"),
    pytest.param("[EEE] 147m 258p 36s 5p *", STRAIGHT, 0, id="straight_meld_wild_ready"),
    # one knitted set holds one of 159m, one of 37p, one of 26s at most: 7 honors and 3 kept of 14, throw one
    pytest.param("159m 37p 26s ESWNCFP", KNIT, 3, id="thirteen_lonely_far_from_knitted"),
]


@pytest.mark.parametrize("text, shapes, expected", SHANTEN)
def test_shanten_table(text, shapes, expected):
    t = view(text)
    assert shanten(t.naturals, t.wilds, t.melds, shapes) == expected
    (shape,) = shapes
    assert ref_shanten(t.naturals, t.wilds, t.melds, shape) == expected


def test_knitted_straight_has_a_shanten_with_one_meld_at_most():
    two = view("[EEE] [123m] 147m 258p 3s")
    assert set(shanten_by_shape(two.naturals, 0, 2, MCR)) == {STANDARD}
    with pytest.raises(ValueError, match="no shape"):
        shanten(two.naturals, 0, 2, STRAIGHT)
    assert shanten_by_shape(view("[EEE] 147m 258p 369s 5p").naturals, 0, 1, BOTH) == {KNITTED_STRAIGHT: 0}


DECOMPOSITIONS = [
    pytest.param("147m 258p 369s ESWNC", KNIT, 1, id="lesser_knitted"),
    # the wildcard is 9s, F or P
    pytest.param("147m 258p 36s ESWNC *", KNIT, 3, id="lesser_knitted_one_wild"),
    # two of 9s C F P
    pytest.param("147m 258p 36s ESWN **", KNIT, 6, id="lesser_knitted_two_wilds"),
    # 147m is in two knitted sets (258p 369s, 369p 258s): the wildcards are four of the other six tiles of each
    pytest.param("147m ESWNCFP ****", KNIT, 30, id="two_knitted_sets_fit"),
    pytest.param("147m 258s 369p 123m 55p", STRAIGHT, 1, id="straight"),
    # 5p is no knitted tile here (258s): the wildcard pairs it
    pytest.param("147m 258s 369p 123m 5p *", STRAIGHT, 1, id="straight_wild_pair"),
    # here it is (258p): the wildcard pairs the second 5p, or is 258p's 5p and both natural 5p pair
    pytest.param("147m 258p 369s 123m 5p *", STRAIGHT, 2, id="straight_wild_5p_either_way"),
    pytest.param("[EEE] 147m 258p 369s 5p *", STRAIGHT, 2, id="straight_meld_wild_5p_either_way"),
]


@pytest.mark.parametrize("text, shapes, expected", DECOMPOSITIONS)
def test_decomposition_counts(text, shapes, expected):
    t = view(text)
    listed = list(decompositions(t.naturals, t.wilds, t.melds, shapes))
    assert len(listed) == len(set(listed)) == expected == count_decompositions(t.naturals, t.wilds, t.melds, shapes)
    (shape,) = shapes
    assert {tuple(b.as_tuple() for b in d.blocks) for d in listed} == \
        ref_decompositions(t.naturals, t.wilds, t.melds, shape)


def test_a_knitted_straight_reads_its_nine_tiles_as_one_block():
    t = view("147m 258s 369p 123m 55p")
    (only,) = decompositions(t.naturals, 0, 0, MCR)
    assert only.shape == KNITTED_STRAIGHT
    assert [(b.kind, " ".join(NAMES[k] for k in b.tiles)) for b in only.blocks] == [
        ("chow", "1m 2m 3m"), ("knitted_straight", "1m 4m 7m 3p 6p 9p 2s 5s 8s"), ("pair", "5p 5p")]


def test_the_reference_is_the_definition():
    """`ref_complete` (the complete hands less a tile, for the last wildcard) against every choice of kinds for
    the wildcards, each hand then read by the shapes' definitions."""
    def knitted(counts, melds):
        return melds == 0 and sum(counts) == 14 and max(counts) <= 1 and any(
            all(not counts[t] or t in knit for t in range(27)) for knit in KNITS)

    def straight(counts, melds):
        return melds <= 1 and sum(counts) == 14 - 3 * melds and any(
            all(counts[t] for t in knit)
            and ref._natural_standard(tuple(n - (k in knit) for k, n in enumerate(counts)), 1 - melds, 1)
            for knit in KNITS)

    cases = [(t.naturals, t.wilds, t.melds) for t in (view(p.values[0], p.values[1]) for p in COMPLETE)]
    cases += [(ref.counts_from_text("147m 258p 369s ESWNC"), 0, 0), (ref.counts_from_text("147m 58p 369s 12m 5p"), 2, 0),
              (ref.counts_from_text("147m 258p 9s 5p"), 2, 1), (ref.counts_from_text("147m 258p 369s E"), 1, 1)]
    for naturals, wilds, melds in cases:
        for shape, natural in ((KNITTED, knitted), (KNITTED_STRAIGHT, straight)):
            by_definition = any(natural(counts, melds) for counts, _ in ref._substitutions(naturals, wilds))
            assert ref_complete(naturals, wilds, melds, shape) == by_definition, (naturals, wilds, melds, shape)


# --- properties against the reference ---------------------------------------------------------------------------

PROPERTY = settings(max_examples=2000, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.no_cover  # an audit against the reference
@PROPERTY
@given(hands(14), st.sampled_from(SHAPE_SETS))
def test_is_complete_matches_reference(h, shapes):
    got = is_complete(h["naturals"], h["wilds"], h["melds"], shapes)
    assert got == ref_complete_in(h["naturals"], h["wilds"], h["melds"], shapes), where(h, shapes)


@pytest.mark.no_cover  # an audit against the reference
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands(13), st.sampled_from(SHAPE_SETS))
def test_waits_match_reference(h, shapes):
    kinds = () if h["wild_kind"] is None else (h["wild_kind"],)
    want = ref_waits(h, shapes)
    assert list(waits(h["naturals"], h["wilds"], h["melds"], shapes, h["held"], kinds)) == want, where(h, shapes)
    fast = WaitFinder(shapes, kinds).waits(h["naturals"], h["wilds"], h["melds"], h["held"])
    assert list(fast) == want, where(h, shapes)


def _check_uses_the_hand(d, naturals, wilds):
    tiles = Counter(t for b in d.blocks for t in b.tiles)
    stand_ins = Counter(t for b in d.blocks for t in b.wild_as)
    for b in d.blocks:
        assert not Counter(b.wild_as) - Counter(b.tiles), f"{b}: a stand-in not among the block's tiles"
    assert sum(stand_ins.values()) == wilds
    assert tiles == Counter({k: n for k, n in enumerate(naturals) if n}) + stand_ins


def _check_blocks(d, melds):
    if d.shape == KNITTED:
        (b,) = d.blocks
        assert melds == 0 and b.kind == KNITTED and len(set(b.tiles)) == 14
        assert any(set(b.tiles) <= set(knit + HONOR_KINDS) for knit in KNITS)
    elif d.shape == KNITTED_STRAIGHT:
        kinds = sorted(b.kind for b in d.blocks)
        assert kinds in ([["knitted_straight", "pair"]] if melds else
                         [["chow", "knitted_straight", "pair"], ["knitted_straight", "pair", "pung"]])
        for b in d.blocks:
            a = b.tiles[0]
            if b.kind == KNITTED_STRAIGHT:
                assert b.tiles in KNITS
            elif b.kind == "chow":
                assert a < 27 and a % 9 <= 6 and b.tiles == (a, a + 1, a + 2)
            else:
                assert b.tiles == (a,) * (2 if b.kind == "pair" else 3)


def keyed_firsts(listed, shape):
    """Of the decompositions of one shape, the first of each key `keyed_decompositions` gives them when blocks are
    keyed by their kind and a knitted block by its number of wildcards (sets and pairs kept as a sorted multiset)."""
    firsts, seen = [], set()
    for d in listed:
        whole = next(len(b.wild_as) for b in d.blocks if b.kind == shape)
        key = (whole, tuple(sorted(b.kind for b in d.blocks if b.kind != shape)))
        if key not in seen:
            seen.add(key)
            firsts.append(d)
    return firsts


@pytest.mark.no_cover  # an audit against the reference
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands(14), st.sampled_from(SHAPE_SETS))
def test_decompositions_match_reference(h, shapes):
    n, w, m = h["naturals"], h["wilds"], h["melds"]
    faces = (h["wild_kind"],) * w if h["wild_kind"] is not None else ()
    listed = list(decompositions(n, w, m, shapes, faces))
    assert bool(listed) == is_complete(n, w, m, shapes), where(h, shapes)
    assert len(set(listed)) == len(listed) == count_decompositions(n, w, m, shapes, faces), where(h, shapes)
    for d in listed:
        assert d.shape in shapes
        _check_uses_the_hand(d, n, w)
        _check_blocks(d, m)
    for shape in shapes & BOTH:
        got = {tuple(b.as_tuple() for b in d.blocks) for d in listed if d.shape == shape}
        assert got == ref_decompositions(n, w, m, shape), (where(h, shapes), shape)
    # keys telling every block apart keep every decomposition, in order; coarser keys the first of each key
    assert list(keyed_decompositions(n, w, m, shapes, faces, lambda b: b, whole_key=lambda b: b)) == listed
    for shape in shapes & BOTH:
        kept = keyed_decompositions(n, w, m, {shape}, faces, lambda b: b.kind, whole_key=lambda b: len(b.wild_as))
        assert list(kept) == keyed_firsts([d for d in listed if d.shape == shape], shape), where(h, {shape})


@pytest.mark.no_cover  # an audit against the reference
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.sampled_from([13, 14]).flatmap(hands), st.sampled_from([KNITTED, KNITTED_STRAIGHT]))
def test_shanten_matches_reference(h, shape):
    n, w, m = h["naturals"], h["wilds"], h["melds"]
    if m and shape == KNITTED:
        assert shanten_by_shape(n, w, m, {shape}) == {}
        return
    got = shanten(n, w, m, {shape})
    assert got == ref_shanten(n, w, m, shape), where(h, {shape})
    size = sum(n) + w + 3 * m
    if size == 14:
        assert (got == -1) == is_complete(n, w, m, {shape})
    else:
        ready = is_complete(n, w + 1, m, {shape})
        assert (got == 0) == ready == any(is_complete([c + (k == t) for k, c in enumerate(n)], w, m, {shape})
                                         for t in range(NUM_KINDS))
        # a kind improves the hand exactly when drawing it lowers the shanten
        lower = [t for t in range(NUM_KINDS) if shanten([c + (k == t) for k, c in enumerate(n)], w, m, {shape}) < got]
        assert list(improvements(n, w, m, {shape})[0]) == lower, where(h, {shape})


# --- PyMahjongGB's shanten of the two shapes, on hands without wildcards ----------------------------------------

GB_CODES = [f"{'WBT'['mps'.index(s)]}{r}" for s in "mps" for r in range(1, 10)] + \
    ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # E S W N, then 中 发 白 (C F P)


@pytest.mark.no_cover  # an audit against an independent library
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands(13, max_wilds=0), st.sampled_from([KNITTED, KNITTED_STRAIGHT]))
def test_shanten_matches_pymahjonggb(h, shape):
    gb = pytest.importorskip("MahjongGB")
    n, m = h["naturals"], h["melds"]
    if m and shape == KNITTED:
        return
    standing = tuple(GB_CODES[k] for k in kinds_of(n))
    gb_shanten, useful = (gb.HonorsAndKnittedTilesShanten if shape == KNITTED else gb.KnittedStraightShanten)(standing)
    kinds, now = improvements(n, 0, m, {shape})
    assert (now, [GB_CODES[k] for k in kinds]) == (gb_shanten, sorted(useful, key=GB_CODES.index)), where(h, {shape})


# --- through the scorer and the command line --------------------------------------------------------------------

KNIT_RULES = "extends: {base}\nid: knit-{base}\nshapes: [standard, seven_pairs, knitted, knitted_straight]\n"


@pytest.fixture(scope="module")
def ruleset_files(tmp_path_factory):
    """Test-only rulesets extending beijing and shangrao with the knitted shapes (beijing: id knit-test)."""
    folder = tmp_path_factory.mktemp("rulesets")
    paths = {}
    for base in ("beijing", "shangrao"):
        path = folder / f"knit-{base}.yaml"
        path.write_text(KNIT_RULES.format(base=base).replace("knit-beijing", "knit-test"))
        paths[base] = path
    return paths


def test_analyze_says_knitted(ruleset_files):
    result = CliRunner().invoke(cli, ["analyze", "147m 258p 369s ESWNC", "-r", str(ruleset_files["beijing"])])
    assert result.exit_code == 0, result.output
    assert "complete  yes, 1 decomposition" in result.output
    assert "best      147m 258p 369s E S W N C   (全不靠)" in result.output


def test_analyze_says_knitted_straight_with_a_meld(ruleset_files):
    result = CliRunner().invoke(cli, ["analyze", "[789s] 147m 258p 369s E +E", "-r", str(ruleset_files["beijing"])])
    assert result.exit_code == 0, result.output
    assert "best      147m 258p 369s EE [789s]   (组合龙)" in result.output


def test_waits_of_a_knitted_hand(ruleset_files):
    result = CliRunner().invoke(cli, ["waits", "147m 258p 36s ESWNC", "-r", str(ruleset_files["beijing"]), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["waits"] == [{"tile": "9s", "left": 4}, {"tile": "F", "left": 4},
                                                  {"tile": "P", "left": 4}]


def test_batch_waits_read_the_knitted_shapes(ruleset_files):
    lines = "147m 258p 36s ESWNC\n147m 258p 369s 55p 78s\n123m 456p 789s 11s 23s\n"
    result = CliRunner().invoke(cli, ["waits", "--batch", "-", "-r", str(ruleset_files["beijing"])], input=lines)
    assert result.exit_code == 0, result.output
    assert result.output == "9s F P\n6s 9s\n1s 4s\n"


@pytest.mark.parametrize("rules, line", [
    ("knit-test", "147m 258p 369s ESWN"),
    ("knit-test", "[EEE] 147m 258p 36s 55p"),
    ("shangrao", "45m 159p 19s E S W N F P"),  # 十三浪 with the 宝 (5m) as 1m 7m 8m 9m 4s 5s 6s or C
])
def test_batch_waits_are_the_waits_of_each_hand(ruleset_files, rules, line):
    """The batch reads plain lines fast only under the standard shape and 七对: an irregular shape's waits are the
    one-hand answer's."""
    args = ["-r", str(ruleset_files["beijing"])] if rules == "knit-test" else ["-r", rules, "--wild", "5m"]
    one = CliRunner().invoke(cli, ["waits", line, "--json"] + args)
    batch = CliRunner().invoke(cli, ["waits", "--batch", "-"] + args, input=line + "\n")
    assert one.exit_code == batch.exit_code == 0, one.output + batch.output
    tiles = [w["tile"] for w in json.loads(one.output)["waits"]]
    assert tiles and batch.output == " ".join(tiles) + "\n"


@st.composite
def scored_hands(draw):
    """A 14-tile hand near a knitted shape, wildcards written `*`, and a winning tile."""
    h = draw(near_knitted(14))
    tiles = list(kinds_of(h["naturals"])) + [WILD] * h["wilds"]
    melds = ()
    if h["melds"]:
        meld = kinds_of(h["meld_counts"])
        kind = CHOW if len(set(meld)) == 3 else KONG if len(meld) == 4 else PUNG
        melds = (Meld(kind, meld, concealed=kind == KONG and draw(st.booleans())),)
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return Hand(tuple(sorted(tiles)), melds, win)


@pytest.mark.no_cover  # an audit against the exhaustive scorer
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(scored_hands(), st.sampled_from(["beijing", "shangrao"]), st.sampled_from("ESWN"), st.sampled_from("ESWN"))
def test_fast_scorer_is_the_exhaustive_one(ruleset_files, hand, base, seat, dealer):
    rules = load_ruleset_file(ruleset_files[base])
    try:
        here = setting(hand, rules, Situation(seat=seat, dealer=dealer))
    except (SituationError, HandError):  # a hand the ruleset refuses is no scoring question
        return
    fast = score_hand(here.tiles, here.situation, rules, here.region)
    slow = score_hand(here.tiles, here.situation, rules, here.region, exhaustive=True)
    assert (fast.total, fast.matches, fast.legal, len(fast.decompositions), fast.reading and fast.reading.shape) == \
        (slow.total, slow.matches, slow.legal, len(slow.decompositions), slow.reading and slow.reading.shape), hand

