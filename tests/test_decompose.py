"""Winning shapes, waits and decompositions: tables worked by hand, and properties against tests/reference.py."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from conftest import engine_hands, hand_text
from mjcalc.decompose import decompositions
from mjcalc.shapes import (
    NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, THIRTEEN_ORPHANS, WaitFinder, is_complete, waits,
)
from mjcalc.notation import parse_hand
from mjcalc.scoring import prepare
from mjcalc.tiles import NAMES, NUM_KINDS

STD = frozenset({STANDARD})
BEIJING = frozenset({STANDARD, SEVEN_PAIRS})
PAIRS = frozenset({SEVEN_PAIRS})
ORPHANS13 = frozenset({THIRTEEN_ORPHANS})
STD_ORPHANS = frozenset({STANDARD, THIRTEEN_ORPHANS})
LONELY = frozenset({THIRTEEN_LONELY})
NINE = frozenset({NINE_TERMINALS})
STD_NINE = frozenset({STANDARD, NINE_TERMINALS})
ALL_SHAPES = frozenset({STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, THIRTEEN_LONELY, NINE_TERMINALS})

ORPHAN_KINDS = "19m 19p 19s E S W N C F P"
EVERY_KIND = "123456789m 123456789p 123456789s E S W N C F P"


def kinds(text):
    """Kinds written as space-separated groups, `13467m E C` -> sorted ints; '' -> []."""
    out = []
    for group in text.split():
        if group[-1] in "mps":
            out += [NAMES.index(d + group[-1]) for d in group[:-1]]
        else:
            out += [NAMES.index(ch) for ch in group]
    return sorted(out)


def view(text, wild=""):
    """The engine's view of a hand written in notation, under the wild kinds `wild` (e.g. "C" or "C P")."""
    return prepare(parse_hand(text), kinds(wild))


def names(tiles):
    return " ".join(NAMES[t] for t in tiles)


# --- waits, worked by hand ------------------------------------------------------------------------------------

WAITS = [
    pytest.param("1112345678999m", "", STD, "123456789m", id="nine_gates"),
    pytest.param("1112345678999m", "", BEIJING, "123456789m", id="nine_gates_beijing"),
    # 222+345+6 / 222+456+3 (tanki 3, 6); 22+234+56 (4, 7); 1+22 2345... 123+22+456 (1)
    pytest.param("2223456m 123p 789s", "", STD, "13467m", id="2223456m"),
    # 111+2345 (2, 5); 11+123+45 (3, 6)
    pytest.param("1112345m 123p 789s", "", STD, "2356m", id="1112345m"),
    # 123 123 456 456 +7 / 11 234 234 567 56+? / 123 123 44 56+567 ... -> 1m, 4m, 7m; seven pairs adds only 7m
    pytest.param("1122334455667m", "", STD, "147m", id="pure_double_chows"),
    pytest.param("1122334455667m", "", BEIJING, "147m", id="pure_double_chows_beijing"),
    pytest.param("112233m 5577p 99s E", "", STD, "", id="six_pairs_single_standard"),
    pytest.param("112233m 5577p 99s E", "", BEIJING, "E", id="six_pairs_single_beijing"),
    # 111m 456s 456s + 2233p: 222p+33p or 333p+22p; seven pairs: 1m as the fourth copy makes 1111m two pairs
    pytest.param("111m 2233p 445566s", "", STD, "23p", id="fourth_copy_standard"),
    pytest.param("111m 2233p 445566s", "", BEIJING, "1m 23p", id="fourth_copy_is_two_pairs"),
    pytest.param("1111m 2233p 4455s 6s", "", STD, "", id="four_ones_standard"),
    pytest.param("1111m 2233p 4455s 6s", "", BEIJING, "6s", id="four_ones_seven_pairs"),
    pytest.param("19m19p19s ESWNCFP", "", STD_ORPHANS, ORPHAN_KINDS, id="thirteen_orphans_13_sided"),
    pytest.param("19m19p19s ESWNCFP", "", STD, "", id="thirteen_orphans_not_standard"),
    pytest.param("19m19p19s ESWNCF 1m", "", ORPHANS13, "P", id="thirteen_orphans_single"),
    pytest.param("147m 258p 369s ESWN", "", LONELY, "C F P", id="thirteen_lonely_honors"),
    pytest.param("147m 258p 36s ESWNC", "", LONELY, "9s F P", id="thirteen_lonely_9s"),
    pytest.param("111m 999p 19s EEE CC", "", NINE, ORPHAN_KINDS, id="nine_terminals"),
    pytest.param("111m 999p 19s EEE CC", "", STD_NINE, ORPHAN_KINDS, id="nine_terminals_with_standard"),
    pytest.param("1111m 999p 19s EEE C", "", NINE, "9m 19p 19s E S W N C F P", id="nine_terminals_1m_all_held"),
    # one wildcard (face C): E+* pair and 45m+x (3m, 6m); 45m+* chow and E+x (E); drawing C draws a wildcard
    pytest.param("123m456p789s E 45m *", "C", STD, "36m E C", id="one_wild"),
    # the wild kind 5m held as a face: 1234m+*+x+EE -> 1m..6m; EEE and 123m+4*: E
    pytest.param("123m456p789s EE 45m", "5m", STD, "123456m E", id="one_wild_written_as_face"),
    pytest.param("123m456p789s EW **", "C", STD, "E W C", id="two_wilds_honors"),
    # * in 45m (as 3m or 6m), the other * pairs with anything
    pytest.param("123m456p789s 45m **", "C", STD, EVERY_KIND, id="two_wilds_every_kind"),
    # 78s+* (1), E+* (1), x+** (2): every kind; C is the wild kind with all four copies held, so not a wait
    pytest.param("123m 456p 78s E ****", "C", STD, "123456789m 123456789p 123456789s E S W N F P",
                 id="four_wilds_every_kind_but_the_held_wild"),
    # nine distinct orphans + 4 faceless wildcards: no standard shape, but 13 orphans with any orphan
    pytest.param("19m 19p 19s ESW ****", "", STD, "", id="four_wilds_orphans_standard"),
    pytest.param("19m 19p 19s ESW ****", "", STD_ORPHANS, ORPHAN_KINDS, id="four_wilds_orphans"),
    # eight wildcards (four C, four P) and five lone tiles: the added tile must share a block with one of them
    pytest.param("1m 5p 9s E S CCCC PPPP", "C P", STD, "123m 34567p 789s E S", id="eight_wilds"),
    # ... while seven pairs completes with anything (at most 6 odd kinds, 8 wildcards); C and P are all held
    pytest.param("1m 5p 9s E S CCCC PPPP", "C P", BEIJING, "123456789m 123456789p 123456789s E S W N F",
                 id="eight_wilds_seven_pairs"),
    # a lone wildcard waits on every kind, except E whose four copies are in the kong
    pytest.param("[111m] [222p] [333s] [EEEE] *", "5p", STD, "123456789m 123456789p 123456789s S W N C F P",
                 id="lone_wildcard_kong"),
    pytest.param("[111m] [222p] [333s] [EEE] 5p", "5p", STD, EVERY_KIND, id="lone_wildcard_every_kind"),
    pytest.param("[111m] [222p] [333s] [EEE] *", "", BEIJING, EVERY_KIND, id="lone_faceless_wildcard"),
    # only a fifth 1m would complete it
    pytest.param("1111m 456p 789s EEE", "", STD, "", id="fifth_copy_is_no_wait"),
    pytest.param("[1111m] 23m 456p 789s EE", "", STD, "4m", id="kong_holds_the_fourth_1m"),
]


@pytest.mark.parametrize("text, wild, shapes, expected", WAITS)
def test_waits_table(text, wild, shapes, expected):
    t = view(text, wild)
    found = waits(t.naturals, t.wilds, t.melds, shapes, t.held, t.wild_kinds)
    assert names(found) == names(kinds(expected))
    assert names(WaitFinder(shapes, t.wild_kinds).waits(t.naturals, t.wilds, t.melds, t.held)) == names(found)


def test_every_reported_wait_is_left():
    """A wait is never a kind with four copies held, wildcards' faces and melds counted."""
    t = view("[111m] [222p] [333s] [EEEE] *", "5p")
    assert t.held[kinds("E")[0]] == 4 and t.held[kinds("5p")[0]] == 1
    assert kinds("E")[0] not in waits(t.naturals, t.wilds, t.melds, STD, t.held, t.wild_kinds)


# --- completeness and decompositions, worked by hand ---------------------------------------------------------

COMPLETE = [
    pytest.param("111222333m 456p E +E", "", STD, True, id="pungs_or_chows"),
    pytest.param("1111m 2233p 4455s E +E", "", STD, False, id="four_of_a_kind_standard"),
    pytest.param("1111m 2233p 4455s E +E", "", PAIRS, True, id="four_of_a_kind_seven_pairs"),
    pytest.param("1111m 2233p 4455s E +E", "", BEIJING, True, id="four_of_a_kind_beijing"),
    pytest.param("19m19p19s ESWNCFP +1m", "", ORPHANS13, True, id="thirteen_orphans"),
    pytest.param("19m19p19s ESWNCFP +1m", "", BEIJING, False, id="thirteen_orphans_not_beijing"),
    pytest.param("19m19p19s ESWNCF 9m +2m", "", ORPHANS13, False, id="thirteen_orphans_2m"),
    pytest.param("147m 258p 369s ESWN +C", "", LONELY, True, id="thirteen_lonely"),
    pytest.param("147m 258p 369s ESW N +N", "", LONELY, False, id="thirteen_lonely_pair"),
    pytest.param("147m 257p 369s ESWN +C", "", LONELY, False, id="thirteen_lonely_5p_7p_too_close"),
    pytest.param("111m 999p 19s EEE CC +F", "", NINE, True, id="nine_terminals"),
    pytest.param("111m 999p 19s EEE CC +F", "", ALL_SHAPES - NINE, False, id="nine_terminals_nothing_else"),
    pytest.param("111m 999p 19s EEE CC +2s", "", NINE, False, id="nine_terminals_2s"),
    # 78s+* (1), E+* pair (1), C+** (2)
    pytest.param("123m 456p 78s E C ***+*", "", STD, True, id="four_wilds_complete"),
    # 12m+* (1), 79s+* (1), E C W: a pair and two sets (1+2+2)
    pytest.param("12m 456p 79s E C W ***+*", "", STD, False, id="four_wilds_seven_short"),
    pytest.param("123m 456p *******+*", "", STD, True, id="eight_wilds"),
    pytest.param("1m 5p 9s E C S *******+*", "", STD, False, id="eight_wilds_six_lone_tiles"),
    pytest.param("1m 5p 9s E C S *******+*", "", PAIRS, True, id="eight_wilds_seven_pairs"),
    pytest.param("[111m] [222p] [333s] [EEE] * +*", "", STD, True, id="two_wilds_pair"),
    pytest.param("1111m 456p 789s EEE +*", "C", STD, True, id="wild_as_a_fifth_copy"),
]


@pytest.mark.parametrize("text, wild, shapes, expected", COMPLETE)
def test_complete_table(text, wild, shapes, expected):
    t = view(text, wild)
    assert is_complete(t.naturals, t.wilds, t.melds, shapes) is expected
    assert bool(list(decompositions(t.naturals, t.wilds, t.melds, shapes, t.faces))) is expected


COUNTS = [
    pytest.param("111222333m 456p E +E", STD, 2, id="pungs_or_three_chows"),
    pytest.param("123m456p789s EE 45m +6m", STD, 1, id="one_reading"),
    # 11 234 234 567 567 / 123 123 44 567 567 / 123 123 456 456 77
    pytest.param("1122334455667m +7m", STD, 3, id="pure_double_chows"),
    pytest.param("1122334455667m +7m", PAIRS, 1, id="pure_double_chows_seven_pairs"),
    pytest.param("1122334455667m +7m", BEIJING, 4, id="pure_double_chows_beijing"),
    # * as 6m (456m), or as 3m: of 345m with the natural 3m in 123m, or of 123m with the natural 3m in 345m
    pytest.param("123m456p789s EE 45m +*", STD, 3, id="one_wild_three_readings"),
    pytest.param("1111m 2233p 4455s E +E", BEIJING, 1, id="four_of_a_kind_as_two_pairs"),
    pytest.param("19m19p19s ESWNCFP +1m", ORPHANS13, 1, id="thirteen_orphans"),
    pytest.param("147m 258p 369s ESWN +C", LONELY, 1, id="thirteen_lonely"),
    # a pair of wildcards beside four melds is a pair of any of the 34 kinds
    pytest.param("[111m] [222p] [333s] [EEE] * +*", STD, 34, id="wild_pair_any_kind"),
    pytest.param("[111m] [222p] [333s] [EEE] C +*", STD, 1, id="wild_pairs_the_lone_tile"),
]


@pytest.mark.parametrize("text, shapes, expected", COUNTS)
def test_decomposition_counts(text, shapes, expected):
    t = view(text)
    found = list(decompositions(t.naturals, t.wilds, t.melds, shapes, t.faces))
    assert len(found) == expected
    assert len(set(found)) == len(found), "decompositions are distinct"


def test_one_wild_readings():
    t = view("123m456p789s EE 45m +*")
    wild_blocks = sorted(b.as_tuple() for d in decompositions(t.naturals, t.wilds, 0, STD) for b in d.blocks
                         if b.wild_as)
    m1, m2, m3, m4, m5, m6 = kinds("123456m")
    assert wild_blocks == [("chow", (m1, m2, m3), (m3,)), ("chow", (m3, m4, m5), (m3,)), ("chow", (m4, m5, m6), (m6,))]


def test_seven_pairs_with_four_identical_tiles():
    t = view("1111m 2233p 4455s E +E")
    (only,) = decompositions(t.naturals, 0, 0, BEIJING)
    assert only.shape == SEVEN_PAIRS
    assert [b.tiles for b in only.blocks] == [(k, k) for k in kinds("11m 23p 45s E")]


def test_thirteen_orphans_shape():
    t = view("19m19p19s ESWNCFP +1m")
    (only,) = decompositions(t.naturals, 0, 0, ORPHANS13)
    assert only.shape == THIRTEEN_ORPHANS
    assert Counter(t for b in only.blocks for t in b.tiles) == Counter(kinds("119m 19p 19s E S W N C F P"))


def test_irregular_shapes_need_no_melds():
    t = view("[111m] 999p 19s EEE CC +F")
    assert not is_complete(t.naturals, 0, 1, NINE)


# --- properties against the reference ------------------------------------------------------------------------

PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHAPE_SETS = [STD, PAIRS, BEIJING, ORPHANS13, LONELY, NINE, STD_ORPHANS, ALL_SHAPES]


def faces_of(h):
    faces = [0] * NUM_KINDS
    if h["wild_kind"] is not None:
        faces[h["wild_kind"]] = h["wilds"]
    return faces


def wild_kinds_of(h):
    return () if h["wild_kind"] is None else (h["wild_kind"],)


@PROPERTY
@given(engine_hands(14), st.sampled_from(SHAPE_SETS))
def test_is_complete_matches_reference(h, shapes):
    got = is_complete(h["naturals"], h["wilds"], h["melds"], shapes)
    want = ref.ref_is_complete(h["naturals"], h["wilds"], h["melds"], shapes)
    assert got == want, (hand_text(h["naturals"], h["wilds"], h["melds"]), sorted(shapes))


@PROPERTY
@given(engine_hands(13), st.sampled_from(SHAPE_SETS))
def test_waits_match_reference(h, shapes):
    wk = wild_kinds_of(h)
    want = ref.ref_waits(h["naturals"], faces_of(h), h["meld_counts"], h["melds"], shapes, wk,
                         faceless_wilds=0 if wk else h["wilds"])
    got = waits(h["naturals"], h["wilds"], h["melds"], shapes, h["held"], wk)
    fast = WaitFinder(shapes, wk).waits(h["naturals"], h["wilds"], h["melds"], h["held"])
    where = (hand_text(h["naturals"], h["wilds"], h["melds"]), sorted(shapes), wk)
    assert list(got) == want, where
    assert list(fast) == want, where


@PROPERTY
@given(engine_hands(13), st.sampled_from(SHAPE_SETS))
def test_every_wait_completes_and_no_other_kind_does(h, shapes):
    wk = wild_kinds_of(h)
    found = set(waits(h["naturals"], h["wilds"], h["melds"], shapes, h["held"], wk))
    for t in range(NUM_KINDS):
        if t in wk:
            completes = is_complete(h["naturals"], h["wilds"] + 1, h["melds"], shapes)
        else:
            plus = list(h["naturals"])
            plus[t] += 1
            completes = is_complete(plus, h["wilds"], h["melds"], shapes)
        assert (t in found) == (completes and h["held"][t] < 4), NAMES[t]


def _check_uses_the_hand(d, naturals, wilds):
    blocks = Counter(t for b in d.blocks for t in b.tiles)
    stand_ins = Counter(t for b in d.blocks for t in b.wild_as)
    for b in d.blocks:
        assert not Counter(b.wild_as) - Counter(b.tiles), f"{b}: a stand-in not among the block's tiles"
    assert sum(stand_ins.values()) == wilds
    assert blocks == Counter({k: n for k, n in enumerate(naturals) if n}) + stand_ins
    assert d.wild_as == tuple(sorted(stand_ins.elements()))


def _check_block_shapes(d, melds):
    if d.shape == STANDARD:
        assert [b.kind for b in d.blocks].count("pair") == 1 and len(d.blocks) == 5 - melds
        for b in d.blocks:
            a = b.tiles[0]
            if b.kind == "chow":
                assert a < 27 and a % 9 <= 6 and b.tiles == (a, a + 1, a + 2)
            else:
                assert b.tiles == (a,) * (2 if b.kind == "pair" else 3)
    elif d.shape == SEVEN_PAIRS:
        assert melds == 0 and len(d.blocks) == 7 and all(b.kind == "pair" and b.tiles[0] == b.tiles[1] for b in d.blocks)
    else:
        (b,) = d.blocks
        assert melds == 0 and len(b.tiles) == 14 and b.kind == d.shape
        if d.shape == THIRTEEN_ORPHANS:
            assert set(b.tiles) == set(ref.ORPHANS)
        elif d.shape == NINE_TERMINALS:
            assert set(b.tiles) <= set(ref.ORPHANS)
        else:
            assert len(set(b.tiles)) == 14 and all(
                y - x >= 3 for x, y in zip(b.tiles, b.tiles[1:]) if y < 27 and x // 9 == y // 9)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(engine_hands(14), st.sampled_from(SHAPE_SETS))
def test_every_decomposition_uses_exactly_the_hands_tiles(h, shapes):
    faces = (h["wild_kind"],) * h["wilds"] if h["wild_kind"] is not None else ()
    found = list(decompositions(h["naturals"], h["wilds"], h["melds"], shapes, faces))
    assert bool(found) == is_complete(h["naturals"], h["wilds"], h["melds"], shapes)
    assert len(set(found)) == len(found)
    for d in found:
        assert d.shape in shapes
        _check_uses_the_hand(d, h["naturals"], h["wilds"])
        _check_block_shapes(d, h["melds"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(engine_hands(14, max_wilds=2))
def test_decompositions_match_reference(h):
    n, w, m = h["naturals"], h["wilds"], h["melds"]
    standard = {tuple(b.as_tuple() for b in d.blocks) for d in decompositions(n, w, m, STD)}
    assert standard == ref.ref_decompositions(n, w, m), hand_text(n, w, m)
    if m == 0:
        pairs = {tuple(b.as_tuple() for b in d.blocks) for d in decompositions(n, w, 0, PAIRS)}
        assert pairs == ref.ref_seven_pairs_decompositions(n, w), hand_text(n, w, m)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_decompositions_match_reference_on_complete_hands(data):
    """Random hands are mostly not complete: build complete ones, then turn up to two tiles into wildcards."""
    melds = data.draw(st.integers(0, 2))
    counts = [0] * NUM_KINDS
    for _ in range(4 - melds):
        if data.draw(st.booleans()):
            t = data.draw(st.integers(0, NUM_KINDS - 1).filter(lambda k: counts[k] <= 1))
            counts[t] += 3
        else:
            low = data.draw(st.sampled_from([9 * s + r for s in range(3) for r in range(7)]))
            for k in (low, low + 1, low + 2):
                counts[k] += 1
    t = data.draw(st.integers(0, NUM_KINDS - 1))
    counts[t] += 2
    tiles = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    wilds = data.draw(st.integers(0, 2))
    for _ in range(wilds):
        tiles.pop(data.draw(st.integers(0, len(tiles) - 1)))
    n = [tiles.count(k) for k in range(NUM_KINDS)]
    standard = {tuple(b.as_tuple() for b in d.blocks) for d in decompositions(n, wilds, melds, STD)}
    want = ref.ref_decompositions(n, wilds, melds)
    assert want, "the builder makes complete hands"
    assert standard == want, hand_text(n, wilds, melds)
