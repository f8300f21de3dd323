"""The time cap of `mjcalc.value` (`seconds`, read from an injectable clock) and POST /api/advise with "by".

Without a cap nothing changes; with one, exchanges are given up past `EXCHANGE_SHARE` of it (the narrower play's
figures, a lower bound) and valuing stops at its end (the rest `unvalued`). The clocks here are counters, so that
what the cap cuts does not depend on the machine; only the heavy hand's test reads the real clock, with a cap
already spent.
"""
import json
import re
import time

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.messages import EN, ZH
from mjcalc.notation import parse_hand
from mjcalc.render import Doc, value_into
from mjcalc.advice import advise
from mjcalc.ruleset import load_ruleset
from mjcalc.serve import server as server_module
from mjcalc.serve.server import ADVICE_SECONDS
from mjcalc.situation import Situation
from mjcalc.value import EXCHANGE_SHARE, Engine, advise_value
from test_serve import api, start, stop

BEIJING = load_ruleset("beijing")
SHANGRAO = load_ruleset("shangrao")
# beijing, dealer East, ready: 6p and 9p keep it ready and weigh their exchanges (0.2 s uncapped), the rest ~
DRAGON = "11112345667p 9p FF"
# shangrao with 5m wild: 2 from ready holding three wildcards, the heaviest row of the README's times (9 s here;
# from bench/advise_value.py's `hand_at(random.Random(1), 2, 3, shapes)`, its fourth hand)
HEAVY = "34455568m 235p 18s P"
HEAVY_SITUATION = Situation(wild=(4,))
WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]{2,}(?![0-9A-Za-z])")  # an English word (as test_messages_zh counts)


class Clock:
    """A clock that reads 0 at the start, then `soft` (past the exchanges' share of a 10-second cap) for
    `readings` readings, then 11: past the whole cap."""

    def __init__(self, readings=10 ** 9):
        self.calls, self.readings = 0, readings

    def __call__(self):
        self.calls += 1
        if self.calls == 1:
            return 0.0
        return 10 * EXCHANGE_SHARE + 1 if self.calls <= self.readings + 1 else 11.0


def figures(advice):
    return {v.tile: (v.p_win, v.expected, v.exact, v.top_patterns) for v in advice.discards}


def objective(advice, v):
    return v.p_win if advice.by == "win" else v.expected


@pytest.mark.parametrize("by", ["win", "value"])
def test_without_a_cap_the_figures_are_the_engines(by):
    hand = parse_hand(DRAGON)
    plain = advise_value(hand, BEIJING, Situation(), by=by)
    assert figures(plain) == figures(Engine(hand, BEIJING, Situation(), by=by).evaluate())
    assert (plain.time_cap, plain.time_capped, plain.timed_out, plain.unvalued) == (None, False, False, [])
    roomy = advise_value(hand, BEIJING, Situation(), by=by, seconds=600)  # a cap never reached changes nothing
    assert figures(roomy) == figures(plain) and roomy.exact == plain.exact
    assert (roomy.time_cap, roomy.time_capped, roomy.timed_out) == (600, False, False)


def test_a_clock_is_read_only_with_a_cap():
    def clock():
        raise AssertionError("read")
    advise_value(parse_hand(DRAGON), BEIJING, Situation(), clock=clock)


@pytest.mark.parametrize("by", ["win", "value"])
def test_past_the_exchanges_share_every_discard_is_the_narrower_play_a_lower_bound(by):
    hand = parse_hand(DRAGON)
    full = {v.tile: v for v in advise_value(hand, BEIJING, Situation(), by=by).discards}
    narrower = Engine(hand, BEIJING, Situation(), by=by, work=0).evaluate()  # every exchange given up
    capped = advise_value(hand, BEIJING, Situation(), by=by, seconds=10, clock=Clock())
    assert capped.time_capped and not capped.timed_out and not capped.exact and capped.unvalued == []
    assert figures(capped) == figures(narrower)
    assert {v.tile for v in capped.discards} == set(full)
    for v in capped.discards:
        assert not v.exact
        assert objective(capped, v) <= objective(capped, full[v.tile]) + 1e-12
    assert any(objective(capped, v) < objective(capped, full[v.tile]) - 1e-6 for v in capped.discards)


def test_past_the_cap_the_rest_are_not_valued_and_the_answer_says_so():
    hand = parse_hand(DRAGON)
    full = advise_value(hand, BEIJING, Situation())
    narrower = figures(Engine(hand, BEIJING, Situation(), work=0).evaluate())
    cut = advise_value(hand, BEIJING, Situation(), seconds=10, clock=Clock(readings=4))
    assert cut.time_capped and cut.timed_out and not cut.exact
    assert cut.discards and cut.unvalued  # (the readings chosen for both: the engine is deterministic)
    valued = {v.tile for v in cut.discards}
    assert valued.isdisjoint(cut.unvalued) and valued | set(cut.unvalued) == {v.tile for v in full.discards}
    assert {t: narrower[t] for t in valued} == figures(cut)  # each valued one whole, the narrower play
    # the JSON: the unvalued discards without figures, named; the cap's fields; the note in each language
    advice = advise(hand, BEIJING, Situation())
    docs = {}
    for lang in ("en", "zh"):
        doc = Doc(json.loads(CliRunner().invoke(cli, ["advise", DRAGON, "--json"]).stdout))
        value_into(doc, advice, cut, lang)
        docs[lang] = doc
    data = docs["en"].data
    rows = {row["discard"]: row for row in data["discards"]}
    assert (data["time_cap"], data["time_capped"], data["timed_out"], data["exact"]) == (10, True, True, False)
    assert data["unvalued"] and all(rows[name]["p_win"] is None for name in data["unvalued"])
    assert set(data["ranked"]) == set(rows) - set(data["unvalued"])
    count = len(cut.unvalued)
    assert data["time_note"].startswith("the time cap (10 s) was reached") and f"{count} discard" in data["time_note"]
    assert docs["zh"].data["time_note"].startswith("已到时间上限（10 秒）") and f"{count} 种弃牌" in docs["zh"].data["time_note"]
    assert ("line", f"({data['time_note']})", None) in docs["en"].blocks


def test_a_heavy_hand_with_its_cap_spent_answers_at_once():
    hand = parse_hand(HEAVY)
    begun = time.monotonic()
    cut = advise_value(hand, SHANGRAO, HEAVY_SITUATION, seconds=0)
    assert time.monotonic() - begun < ADVICE_SECONDS + 5  # (uncapped: 9 s on a 2-core machine)
    assert cut.timed_out and cut.time_capped and not cut.exact
    assert cut.discards == [] and len(cut.unvalued) >= 5 and cut.skipped


def test_the_messages_have_both_texts():
    for code in ("value.time_capped", "value.time_cut", "api.by", "api.draws", "api.by_needs_14_tiles", "api.needs_by"):
        assert code in EN and code in ZH, code


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


def test_by_value_answers_as_the_cli_does_with_the_caps_fields(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON, "by": "value", "draws": 6, "lang": "en"})
    assert status == 200
    cap = {k: doc.pop(k) for k in ("time_cap", "time_capped", "timed_out", "unvalued", "time_note")}
    assert cap == {"time_cap": ADVICE_SECONDS, "time_capped": False, "timed_out": False, "unvalued": [],
                   "time_note": None}
    cli_doc = json.loads(CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--draws", "6", "--json",
                                                  "--lang", "en"]).stdout)
    assert doc == cli_doc
    assert doc["ranked"][:2] == ["6p", "9p"] and all(row["p_win"] is not None for row in doc["discards"])
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON, "by": "win", "exact": True})
    assert status == 200 and doc["by"] == "win" and doc["ranked"][0] == "9p" and doc["time_cap"] == ADVICE_SECONDS


def test_without_by_the_answer_is_unchanged(server):
    status, doc = api(server, "POST", "/api/advise", {"hand": DRAGON})
    assert status == 200 and "by" not in doc and "time_cap" not in doc


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


def test_a_heavy_request_comes_back_within_the_cap_marked_cut(server, monkeypatch):
    monkeypatch.setattr(server_module, "ADVICE_SECONDS", 0)  # spent at once: the answer is the same, at once
    begun = time.monotonic()
    status, doc = api(server, "POST", "/api/advise", {"hand": HEAVY, "ruleset": "shangrao", "wild": "5m",
                                                     "by": "value", "lang": "zh"})
    assert time.monotonic() - begun < ADVICE_SECONDS + 5
    assert status == 200 and doc["timed_out"] and doc["time_capped"] and not doc["exact"]
    assert doc["time_cap"] == 0 and doc["ranked"] == [] and len(doc["unvalued"]) >= 5
    assert doc["time_note"].startswith("已到时间上限（0 秒）")
    assert all(row["p_win"] is None for row in doc["discards"])
