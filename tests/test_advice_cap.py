"""The work cap of `mjcalc.value` (`cap`, issue 37) and POST /api/advise with "by".

The answer is bounded by work, never by the clock: a hand under the cap gets the figures it gets without one; past
it, a discard's play is weighed by narrower stages (no exchanges, one discard weighed after a useful draw, the
closed-form estimate), marked not exact and named in `narrowed`, and every valued discard still has figures. The
heavy hands here are bounded in work units and in the stage reached, never in seconds.
"""
import json
import re
import time

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.messages import EN, ZH
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.tiles import NAMES
from mjcalc.value import CAP, ESTIMATE, Engine, advise_value
from test_serve import api, start, stop

BEIJING = load_ruleset("beijing")
SHANGRAO = load_ruleset("shangrao")
ZHUJI = load_ruleset("zhuji")
# beijing, dealer East, ready: 6p and 9p keep it ready and weigh their exchanges (0.2 s uncapped), the rest ~
DRAGON = "11112345667p 9p FF"
# shangrao with 5m wild: 2 from ready holding three wildcards (from bench/advise_value.py's
# `hand_at(random.Random(1), 2, 3, shapes)`, its fourth hand; 9 s before the work cap)
HEAVY = "34455568m 235p 18s P"
HEAVY_SITUATION = Situation(wild=(4,))
# issue 37's reproductions: an ordinary first-turn beijing hand (60 s of CPU and 1.2 GB before the work cap) and a
# zhuji hand 5 from ready (30.5 s and 1.0 GB)
FIRST_TURN = ("233679m 149p 189s S P", BEIJING, Situation(indicator=NAMES.index("8m")),
              [1 if NAMES[k] in ("8m", "S") else 0 for k in range(34)], "value")
FAR = ("W 7m 6s 1s 3m E 6m 5p 4s F 6s 1p 4s 9p", ZHUJI, Situation(), None, "win")
WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]{2,}(?![0-9A-Za-z])")  # an English word (as test_messages_zh counts)


def figures(advice):
    return {v.tile: (v.p_win, v.expected, v.exact, v.top_patterns) for v in advice.discards}


def objective(advice, v):
    return v.p_win if advice.by == "win" else v.expected


def bound(advice, cap=CAP):
    """What the module docstring promises of the work: the cap (a stage stops at the first count past its share),
    plus what is counted outside the stages, the discards' order and the estimates: under 1000 units a discard."""
    return cap + 1000 * len(advice.discards)


@pytest.mark.parametrize("by", ["win", "value"])
def test_a_hand_under_the_cap_gets_the_figures_it_gets_without_one(by):
    hand = parse_hand(DRAGON)
    capped = advise_value(hand, BEIJING, Situation(), by=by)
    free = advise_value(hand, BEIJING, Situation(), by=by, cap=None)
    assert figures(capped) == figures(free) and capped.narrowed == [] and capped.work <= CAP
    assert {v.tile for v in capped.discards if v.exact} == {BEIJING_TILE["6p"], BEIJING_TILE["9p"]}  # as before
    assert figures(capped) == figures(Engine(hand, BEIJING, Situation(), by=by).evaluate())


BEIJING_TILE = {name: k for k, name in enumerate(NAMES)}


def test_the_answer_reads_no_clock_and_is_the_same_twice(monkeypatch):
    hand, rules, situation, seen, by = FIRST_TURN
    first = advise_value(parse_hand(hand), rules, situation, seen, by=by)

    def clock():
        raise AssertionError("a clock was read")
    for name in ("monotonic", "perf_counter", "process_time", "time", "thread_time"):
        monkeypatch.setattr(time, name, clock)
    again = advise_value(parse_hand(hand), rules, situation, seen, by=by)
    assert figures(again) == figures(first) and again.work == first.work and again.narrowed == first.narrowed


@pytest.mark.parametrize("case", [FIRST_TURN, FAR], ids=["beijing_first_turn", "zhuji_far"])
def test_the_reproductions_are_bounded_in_work_every_discard_valued_and_marked(case):
    hand, rules, situation, seen, by = case
    valued = advise_value(parse_hand(hand), rules, situation, seen, by=by)
    assert valued.work <= bound(valued)
    # 12 and 8 discards as close to ready as the best (4 and 5 from ready), each with figures; the rest further
    assert len(valued.discards) == (12 if rules is BEIJING else 8) and valued.skipped
    assert valued.narrowed and set(valued.narrowed) == {v.tile for v in valued.discards}
    assert not valued.exact and all(not v.exact and v.stage > 1 for v in valued.discards)
    assert any(v.stage == ESTIMATE for v in valued.discards)
    assert all(0 < v.p_win < 1 and v.expected > 0 for v in valued.discards)  # each can still win in 8 draws
    text = CliRunner().invoke(cli, ["advise", hand, "-r", rules.id, "--by", by]
                              + (["--indicator", "8m", "--seen", "8m S"] if rules is BEIJING else [])).stdout
    assert "~" in text and "the work cap narrowed the play weighed for" in text and "estimate" in text


@pytest.mark.parametrize("by", ["win", "value"])
def test_the_narrower_plays_are_lower_bounds_and_the_stages_come_in_order(by):
    """A hand 2 from ready without wildcards (its narrower play 109,200 units of work): with smaller caps its
    discards reach later stages; those weighed by a play (stages 1 and 2) never beat the play without the cap."""
    hand = parse_hand("34455568m 235p 18s P")
    free = advise_value(hand, SHANGRAO, Situation(), by=by, cap=None)
    full = {v.tile: v for v in free.discards}
    seen = set()
    assert free.work > 10 ** 5 and {v.stage for v in free.discards} == {1} and free.narrowed == []
    for cap in (0, 400, 1500, 4000, 10 ** 9):
        valued = advise_value(hand, SHANGRAO, Situation(), by=by, cap=cap)
        assert {v.tile for v in valued.discards} == set(full)
        assert valued.work <= bound(valued, cap)
        for v in valued.discards:
            seen.add(v.stage)
            assert (v.tile in valued.narrowed) == (v.stage > full[v.tile].stage) == (not v.exact and v.stage > 1)
            if v.stage < ESTIMATE:
                assert objective(valued, v) <= objective(free, full[v.tile]) + 1e-12
        stage = {v.tile: v.stage for v in valued.discards}
        order = [stage[t] for t in valued.weighed]
        assert order == sorted(order)  # a stage given up is not tried for the discards after it
    assert seen >= {1, ESTIMATE}
    assert figures(advise_value(hand, SHANGRAO, Situation(), by=by, cap=10 ** 9)) == figures(free)


def test_a_heavy_hand_is_bounded_and_every_discard_valued():
    cut = advise_value(parse_hand(HEAVY), SHANGRAO, HEAVY_SITUATION)
    assert cut.work <= bound(cut) and cut.skipped and len(cut.discards) >= 5
    assert all(v.p_win is not None for v in cut.discards) and not cut.exact


def test_the_messages_have_both_texts():
    for code in ("api.by", "api.draws", "api.by_needs_14_tiles", "api.needs_by"):
        assert code in EN and code in ZH, code
    assert not any(code.startswith("value.time_") for code in EN)  # the time cap is gone


# --- POST /api/advise --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start(tmp_path_factory.mktemp("advice_cap"))
    yield srv
    stop(srv)


def test_by_on_13_tiles_is_refused_in_chinese_without_english_words_and_in_english(server):
    body = {"hand": "123m 456p 1s 79s EES C", "by": "value"}
    status, doc = api(server, "POST", "/api/advise", dict(body, lang="zh"))
    assert (status, doc["code"], doc["field"], doc["params"]) == (400, "api.by_needs_14_tiles", "by", {"size": 13})
    assert WORD.findall(doc["error"]) == [] and re.search(r"[\u4e00-\u9fff]", doc["error"]), doc["error"]
    status, doc = api(server, "POST", "/api/advise", dict(body, lang="en"))
    assert (status, doc["code"], doc["field"]) == (400, "api.by_needs_14_tiles", "by")
    assert doc["error"] == "\"by\" and \"draws\" value the discards of a 14-tile hand; this one has 13"
    status, doc = api(server, "POST", "/api/advise", {"hand": "123m 456p 1s 79s EES C", "draws": 4, "lang": "en"})
    assert (status, doc["code"], doc["field"]) == (400, "api.by_needs_14_tiles", "draws")


def test_by_value_answers_as_the_cli_does_with_the_old_time_caps_fields(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON, "by": "value", "draws": 6, "lang": "en"})
    assert status == 200
    cap = {k: doc.pop(k) for k in ("time_cap", "time_capped", "timed_out", "unvalued", "time_note")}
    assert cap == {"time_cap": None, "time_capped": False, "timed_out": False, "unvalued": [], "time_note": None}
    assert doc["narrowed"] == [] and 0 < doc["work"] <= CAP
    cli_doc = json.loads(CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--draws", "6", "--json",
                                                  "--lang", "en"]).stdout)
    assert doc == cli_doc
    assert doc["ranked"][:2] == ["6p", "9p"] and all(row["p_win"] is not None for row in doc["discards"])
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON, "by": "win", "exact": True})
    assert status == 200 and doc["by"] == "win" and doc["ranked"][0] == "9p" and doc["time_cap"] is None


def test_without_by_the_answer_is_unchanged(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON})
    assert status == 200 and "by" not in doc and "time_cap" not in doc and "narrowed" not in doc


@pytest.mark.parametrize("body, code, field", [
    ({"by": "fast"}, "api.by", "by"),
    ({"by": 1}, "api.wrong_type", "by"),
    ({"by": "value", "draws": 61}, "api.draws", "draws"),
    ({"by": "value", "draws": -1}, "api.draws", "draws"),
    ({"by": "value", "draws": True}, "api.wrong_type", "draws"),
    ({"by": "value", "exact": "yes"}, "api.wrong_type", "exact"),
    ({"draws": 4}, "api.needs_by", "draws"),
    ({"exact": True}, "api.needs_by", "exact"),
])
def test_a_bad_by_draws_or_exact_is_a_400_naming_the_field(server, body, code, field):
    status, doc = api(server, "POST", "/api/advise", dict(body, hand=DRAGON, lang="en"))
    assert (status, doc["code"], doc["field"]) == (400, code, field)
    assert doc["error"].startswith(field + (" is" if code == "api.needs_by" else ": ")), doc["error"]


def test_a_bad_by_is_said_in_chinese_too(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON, "by": "fast", "lang": "zh"})
    assert (status, doc["error"]) == (400, "估算方式：应是 \"win\" 或 \"value\"，不是 \"fast\"")  # the field by its word


def test_a_heavy_request_comes_back_bounded_in_work_every_discard_valued(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": HEAVY, "ruleset": "shangrao", "wild": "5m",
                                                     "by": "value", "lang": "zh"})
    assert status == 200 and not doc["exact"] and doc["narrowed"] and not doc["timed_out"] and doc["unvalued"] == []
    assert doc["work"] <= CAP + 1000 * len(doc["ranked"])
    valued = [row for row in doc["discards"] if row["discard"] in doc["ranked"]]
    assert len(valued) >= 5 and all(row["p_win"] is not None for row in valued)
    assert all(not row["exact"] for row in doc["discards"] if row["discard"] in doc["narrowed"])


def test_exact_on_the_server_is_bounded_too(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": HEAVY, "ruleset": "shangrao", "wild": "5m",
                                                     "by": "win", "exact": True})
    assert status == 200 and doc["work"] <= CAP + 1000 * len(doc["ranked"]) and doc["narrowed"]
