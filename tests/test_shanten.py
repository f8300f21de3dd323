"""Shanten 向听 and discard advice: tables in notation, and the fast engine against the brute-force reference."""
import os
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(__file__))
import reference as ref  # noqa: E402

from mjcalc.analysis import check_seen, parse_seen  # noqa: E402
from mjcalc.cli import cli  # noqa: E402
from mjcalc.errors import HandError  # noqa: E402
from mjcalc.shanten import WILD_DISCARD, discards, improvements, rank, shanten  # noqa: E402
from mjcalc.tiles import Wall  # noqa: E402

STD = {"standard"}
BEIJING = {"standard", "seven_pairs"}
ALL = set(ref.ALL_SHAPES)
c = ref.counts_from_text


@pytest.mark.parametrize("text, wilds, melds, shapes, expected", [
    pytest.param("1112345678999m", 0, 0, STD, 0, id="nine_gates_ready"),
    pytest.param("123m456p789s EE 456m", 0, 0, STD, -1, id="complete"),
    pytest.param("1112345678999m 1p", 0, 0, STD, 0, id="fourteen_one_discard_from_ready"),
    pytest.param("19m19p19s ESWNCFP", 0, 0, STD, 8, id="orphans_as_standard"),
    pytest.param("19m19p19s ESWNCFP", 0, 0, {"standard", "thirteen_orphans"}, 0, id="orphans_ready"),
    pytest.param("123m456p789s E 45m", 1, 0, STD, 0, id="one_wild_ready"),
    pytest.param("123m456p789s EW 45m", 0, 0, STD, 1, id="one_away"),
    pytest.param("123m456p789s EW 47m", 0, 0, STD, 2, id="two_away"),
    pytest.param("", 1, 4, STD, 0, id="lone_wild_four_melds"),
    pytest.param("19m19p19s ESWNC", 2, 0, {"thirteen_orphans"}, 0, id="orphans_two_wilds"),
    pytest.param("11m 22p 33s EE CC 1p 5s 9m 7p", 0, 0, {"seven_pairs"}, 1, id="seven_pairs_one_away"),
    pytest.param("147m 258p 36s ESWN", 1, 0, {"thirteen_lonely"}, 0, id="lonely_ready"),
    pytest.param("111m 999p 19s EEE CC F", 0, 0, {"nine_terminals"}, -1, id="nine_terminals_complete"),
    pytest.param("111m 999p 19s EEE C 5m", 0, 0, {"nine_terminals"}, 1, id="nine_terminals_one_away"),
    pytest.param("1368m 27p 469s E", 4, 0, BEIJING, 1, id="four_wilds_one_away"),
])
def test_shanten_table(text, wilds, melds, shapes, expected):
    assert shanten(c(text), wilds, melds, shapes) == expected
    assert ref.ref_shanten(c(text), wilds, melds, shapes) == expected


# --- generated hands ------------------------------------------------------------------------------------

SHAPE_SETS = [STD, BEIJING, ALL, {"seven_pairs"}, {"thirteen_orphans"}, {"thirteen_lonely"}, {"nine_terminals"},
              {"standard", "seven_pairs", "thirteen_lonely", "nine_terminals"}]


@st.composite
def hands(draw, size, max_melds=4):
    """(naturals, wilds, melds, shapes): `size` tiles (melds count 3), 0-4 wildcards, at most 4 of a kind."""
    melds = draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4][: 4 + max_melds]))
    wilds = draw(st.integers(0, 4))
    n = size - 3 * melds - wilds
    if n < 0:
        wilds, n = wilds + n, 0
    style = draw(st.sampled_from(["blocks", "blocks", "one_suit", "orphans", "lonely", "pairs", "random"]))
    counts = [0] * ref.NUM_KINDS

    def add(kinds):
        for t in kinds:
            if sum(counts) < n and counts[t] < 4:
                counts[t] += 1

    while sum(counts) < n:
        if style == "blocks":
            if draw(st.booleans()):
                low = draw(st.sampled_from([9 * s + r for s in range(3) for r in range(7)]))
                add([low, low + 1, low + 2])
            else:
                t = draw(st.integers(0, 33))
                add([t] * draw(st.integers(2, 3)))
        elif style == "one_suit":
            add([draw(st.integers(0, 8))])
        elif style == "orphans":
            add([draw(st.sampled_from(ref.ORPHANS))])
        elif style == "lonely":
            add([draw(st.sampled_from([0, 3, 6, 10, 13, 16, 20, 23, 26] + list(ref.HONORS)))])
        elif style == "pairs":
            t = draw(st.integers(0, 33))
            add([t, t])
        else:
            add([draw(st.integers(0, 33))])
        if all(v >= 4 for v in counts[:9]) and style == "one_suit":
            style = "random"
    shapes = STD if melds else draw(st.sampled_from(SHAPE_SETS))
    return counts, wilds, melds, shapes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(hands(13))
def test_shanten_13_equals_reference(hand):
    naturals, wilds, melds, shapes = hand
    assert shanten(naturals, wilds, melds, shapes) == ref.ref_shanten(naturals, wilds, melds, shapes), \
        (ref.counts_to_text(naturals), wilds, melds, shapes)


@pytest.mark.no_cover  # an audit against the reference (see test_exhaustive.py's pytestmark)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(hands(14))
def test_shanten_14_equals_reference(hand):
    naturals, wilds, melds, shapes = hand
    assert shanten(naturals, wilds, melds, shapes) == ref.ref_shanten(naturals, wilds, melds, shapes), \
        (ref.counts_to_text(naturals), wilds, melds, shapes)


def brute_discards(naturals, wilds, melds, shapes, wild_kind, held, seen):
    """Every discard of a 14-tile hand, from `ref_shanten` alone, ranked as the advice promises."""
    options = [(t, list(naturals[:t]) + [naturals[t] - 1] + list(naturals[t + 1:]), wilds)
               for t in range(ref.NUM_KINDS) if naturals[t]]
    if wilds:
        options.append((WILD_DISCARD, list(naturals), wilds - 1))
    found = []
    for tile, after, after_wilds in options:
        now = ref.ref_shanten(after, after_wilds, melds, shapes)
        better = []
        for t in range(ref.NUM_KINDS):
            if held[t] >= 4:
                continue
            if t == wild_kind:
                drawn = ref.ref_shanten(after, after_wilds + 1, melds, shapes)
            else:
                grown = list(after)
                grown[t] += 1
                drawn = ref.ref_shanten(grown, after_wilds, melds, shapes)
            if drawn < now:
                better.append((t, max(0, 4 - held[t] - seen[t])))
        effective = sum(left for _, left in better)
        found.append(((now, -effective, -len(better), tile == WILD_DISCARD, tile), tile, now, better))
    found.sort()
    return [(tile, now, better) for _, tile, now, better in found]


@st.composite
def advised_hands(draw):
    """A 14-tile hand near a win (so the brute force stays quick), a wild kind or none, and seen tiles."""
    naturals, wilds, melds, shapes = draw(hands(14, max_melds=2))
    free = [k for k in range(ref.NUM_KINDS) if naturals[k] == 0]
    wild_kind = draw(st.sampled_from(free)) if wilds and draw(st.booleans()) else None
    held = [naturals[k] + (wilds if k == wild_kind else 0) for k in range(ref.NUM_KINDS)]
    if any(h > 4 for h in held):
        wild_kind = None
        held = list(naturals)
    seen = [draw(st.integers(0, 4 - h)) if draw(st.integers(0, 3)) == 0 else 0 for h in held]
    return naturals, wilds, melds, shapes, wild_kind, held, seen


@pytest.mark.no_cover  # an audit against brute force
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(advised_hands())
def test_discard_ranking_equals_brute_force(hand):
    naturals, wilds, melds, shapes, wild_kind, held, seen = hand
    if ref.ref_shanten(naturals, wilds, melds, shapes) > 2:
        return  # the brute force grows fast with the shanten; low shanten hands are where advice matters
    kinds = (wild_kind,) if wild_kind is not None else ()
    fast = [(d.tile, d.shanten, [(i.tile, i.left) for i in d.improvements])
            for d in discards(naturals, wilds, melds, shapes, kinds, Wall.of(held, seen))]
    assert fast == brute_discards(naturals, wilds, melds, shapes, wild_kind, held, seen), \
        (ref.counts_to_text(naturals), wilds, melds, shapes, wild_kind)


def test_ranking_key_puts_lower_shanten_then_more_tiles_first():
    ranked = discards(c("1112345678999m 1p"), 0, 0, STD)
    assert [d.tile for d in ranked][:1] == [9]  # throw 1p: nine gates, ready on 1m-9m
    assert ranked[0].shanten == 0 and ranked == sorted(ranked, key=rank)


def test_drawing_a_wild_kind_always_improves():
    kinds, now = improvements(c("147m 258p 369s ESWN"), 0, 0, STD, wild_kinds=(31,))
    assert 31 in kinds and now > 0


# --- --seen: tiles left are never negative; a fifth copy is an error -------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_seen_never_makes_a_count_negative(held, seen):
    over = [t for t in range(34) if seen[t] and held[t] + seen[t] > 4]
    if over:
        with pytest.raises(HandError, match="there are only 4"):
            check_seen(held, seen)
        return
    check_seen(held, seen)
    assert all(Wall.of(held, seen).left(t) == 4 - held[t] - seen[t] >= 0 for t in range(34))


def test_parse_seen_reads_tiles_and_melds():
    counts = parse_seen("3m 6m [666m] EE {CCCC}")
    assert counts[2] == 1 and counts[5] == 4 and counts[27] == 2 and counts[31] == 4 and sum(counts) == 11


@pytest.mark.parametrize("command", ["analyze", "waits", "advise", "compare"])
def test_a_fifth_copy_seen_is_one_line_exit_2(command):
    result = CliRunner().invoke(cli, [command, "123m456p789s EE 45m", "--seen", "EEE"])
    assert result.exit_code == 2
    assert result.output == "Error: --seen: 2 E in the hand and 3 seen make 5: there are only 4\n"


@pytest.mark.parametrize("command", ["analyze", "waits", "advise", "compare"])
def test_seen_lowers_every_count_left(command):
    args = [command, "123m456p789s EE 45m", "--json", "--seen", "3m 3m [666m]"]
    if command == "compare":
        args += ["-r", "beijing"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    import json
    data = json.loads(result.output)
    data = data[0] if isinstance(data, list) else data
    lefts = {w["tile"]: w["left"] for w in data["waits"]}
    assert lefts == {"3m": 1, "6m": 1}  # 3m: one held, two seen; 6m: three seen


def test_seen_bad_notation_is_one_line():
    result = CliRunner().invoke(cli, ["advise", "123m456p789s EE 45m", "--seen", "3m x"])
    assert result.exit_code == 2
    assert result.output == 'Error: --seen: unknown character \'x\' at column 4 in "3m x"\n'


# --- the advise command ----------------------------------------------------------------------------------


def test_advise_json_for_14_tiles_ranks_discards_and_scores_ready_ones():
    import json
    result = CliRunner().invoke(cli, ["advise", "13m 46p 79s EE CF 5m5m5m5m", "--wild", "5m", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["shanten"] == -1 and data["win"]["total"] == 9  # four 惠: 四惠牌 already (issue 25)
    first = data["discards"][0]
    assert first["shanten"] == 0 and first["discard"] == "1m" and data["discards"][-1]["wild"]
    assert {w["tile"] for w in first["waits"]} == {w["tile"] for w in first["improvements"]}
    assert all(w["legal"] and w["total"] is not None for w in first["waits"])
    assert [d["shanten"] for d in data["discards"]] == sorted(d["shanten"] for d in data["discards"])


def test_advise_13_tiles_lists_improvements():
    import json
    result = CliRunner().invoke(cli, ["advise", "123m 456p 1s 79s EES C", "--json"])
    data = json.loads(result.output)
    assert data["shanten"] == 2 and data["discards"] == []
    assert {i["tile"] for i in data["improvements"]} == {"1s", "2s", "3s", "8s", "E", "S", "C"}


def test_analyze_mentions_shanten_for_a_non_winning_14():
    result = CliRunner().invoke(cli, ["analyze", "123m456p789s EW 47m +1p"])
    assert result.exit_code == 0
    assert "shanten   2" in result.output
