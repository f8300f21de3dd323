"""`mjcalc serve` without a browser: the server on a free port in this process, requests with urllib.

Every API answer is compared with the CLI's `--json` document for the same request (click's CliRunner); the
safety rules (body size, content type, token, Host, no file path from a request) are checked one by one.
"""
import hashlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from browser import start_server, stop_server
from mjcalc.cli import cli
from mjcalc.cli.common import build_situation
from mjcalc.messages import EN
from mjcalc.regions import find_region
from mjcalc.ruleset import builtin_rulesets, load_ruleset
from mjcalc.situation import GENERIC
from mjcalc.serve.server import MAX_BODY, PAGE_FILE, TIME_CAP_FIELDS, served_page, situation_from

ROOT = Path(__file__).resolve().parent.parent
SCRIPT_NAME = "<svg onload=alert(1)>"  # markup a page must show as text (a name holds at most 24 characters)
BUILTIN_IDS = {r.id for r in builtin_rulesets()}
SCORED = "123m456p789s EE 45m +6m"
PLAYERS = {"E": "老王", "S": SCRIPT_NAME, "W": "阿张", "N": "大刘"}


# --- helpers ---------------------------------------------------------------------------------------------------


def start(where, host="127.0.0.1", **kwargs):
    """A test server on a free port, its ledger `where` (a .sqlite3 file, or a directory to keep ledger.sqlite3 in)."""
    return start_server(where if str(where).endswith(".sqlite3") else where / "ledger.sqlite3", host, **kwargs)


stop = stop_server


@pytest.fixture
def server(tmp_path):
    srv = start(tmp_path)
    yield srv
    stop(srv)


def request(srv, method, path, body=None, *, raw=None, ctype="application/json", headers=None):
    """(status, headers, body bytes) of one request to the test server."""
    url = f"http://127.0.0.1:{srv.server_address[1]}{path}"
    data = raw if raw is not None else (json.dumps(body, ensure_ascii=False).encode("utf-8") if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None and ctype:
        req.add_header("Content-Type", ctype)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


ERROR_KEYS = {"error", "code", "field", "params"}  # every error answer: its text, its message id, field, parameters
# (and, beside them: a duplicate's hand, a stale write's "since" lines, a stale edit's hand as it is now)


def said(answer):
    """(status, the error's text) of an `api` answer."""
    status, doc = answer
    return status, doc["error"]


def api(srv, method, path, body=None, **kwargs):
    status, headers, raw = request(srv, method, path, body, **kwargs)
    assert headers["Content-Type"] == "application/json; charset=utf-8", (status, raw[:200])
    assert headers["X-Content-Type-Options"] == "nosniff"
    doc = json.loads(raw.decode("utf-8"))
    if status >= 400:
        assert set(doc) - {"duplicate_of", "since", "hand_now"} == ERROR_KEYS and doc["error"] and "Traceback" not in doc["error"], doc
        assert isinstance(doc["code"], str) and isinstance(doc["params"], dict), doc
    return status, doc


def cli_args(command, fields, said_zh=True):
    """The command line for the same request: each field is the option of the same name (and the API's
    language, zh, when the request names none, for a document: an error without "lang" is said in English)."""
    args = [command] if isinstance(command, str) else list(command)
    if "hand" in fields:
        args.append(fields["hand"])
    for key, value in fields.items():
        if key == "hand":
            continue
        flag = {"ruleset": "-r", "rulesets": "-r", "from": "--from"}.get(key, "--" + key.replace("_", "-"))
        if isinstance(value, bool):
            args += [flag] if value else []
        elif isinstance(value, list):
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    if said_zh and args[0] in ("analyze", "compare", "advise") and "lang" not in fields:
        args += ["--lang", "zh"]  # the API's language when a request names none: its names and its refusals' words
    return args + ["--json"]


def cli_json(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.stdout)


def cli_error(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, (args, result.output)
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: ")
    return line[len("Error: "):]


def check_payouts(payouts):
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in payouts.values()), payouts
    assert sum(payouts.values()) == 0, payouts


# --- the page ----------------------------------------------------------------------------------------------------


def test_page_is_one_small_self_contained_file_with_security_headers(server):
    status, headers, body = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert len(body) < 110 * 1024, len(body)  # 104 KB since the page tells a hand by its facts (issue 33)
    assert body == served_page(PAGE_FILE.read_text(encoding="utf-8")).encode("utf-8")
    text = body.decode("utf-8")
    csp = headers["Content-Security-Policy"]
    assert csp.startswith("default-src 'self';") and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), "no CDN, no external resource"
    assert "innerHTML" not in text and "outerHTML" not in text and "insertAdjacentHTML" not in text
    assert "document.write" not in text and "eval(" not in text
    assert text.count("<script>") == 1 and text.count("<style>") == 1
    assert " on" + "click=" not in text and " style=" not in text  # inline handlers and styles break the CSP
    status, headers, _ = request(server, "HEAD", "/")
    assert status == 200 and int(headers["Content-Length"]) == len(body)


# --- the API against the CLI ---------------------------------------------------------------------------------------

README_FIRST = re.search(r'mjcalc analyze "([^"]+)" --shaozhuang (\d+) --base (\d+)', (ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_page_scores_the_readme_example_hand_exactly_as_the_cli_does(server):
    hand, shaozhuang, base = README_FIRST.groups()
    status, doc = api(server, "POST", "/api/analyze", {"hand": hand, "shaozhuang": int(shaozhuang), "base": int(base)})
    assert status == 200
    assert doc == cli_json(["analyze", hand, "--shaozhuang", shaozhuang, "--base", base, "--json"])
    assert doc["payouts"] == {"E": 12000, "S": -4000, "W": -4000, "N": -4000}  # as the README says


ANALYZE = [
    {"hand": "123m456p789s EE 45m +6m"},
    {"hand": "123m456p789s EE 45m", "wild": "5m", "lang": "en"},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "shangrao", "from": "S"},
    {"hand": "[111m] 222p 333s EEE 9m +9m", "from": "S"},
    {"hand": "123m456p789s EE 45m +6m", "seat": "S", "dealer": "W", "from": "N", "mutual": ["W"], "shaozhuang": 2},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "zhuji", "bid": "2", "bidder": "S", "wild": "C,F"},
    {"hand": "123m456p789s {CCCC} E +E", "ruleset": "shangrao", "wild": "P", "flown_by": ["S=1"], "kong": ["W:exposed"],
     "jiebao": True, "kong_draw": 1},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "bj", "last_tile": True, "base": 3},
    {"hand": "1112345678999m", "seen": "5m 5m", "ruleset": "beijing-money"},
    {"hand": "123m456p789s EE 45m +6m", "shaozhuang": 1, "ruleset": "zhuji"},  # an option zhuji does not read: a warning
    {"hand": "13m 46p 79s EE CF 5m5m5m5m", "wild": "5m"},
]


@pytest.mark.parametrize("fields", ANALYZE, ids=lambda f: " ".join(f"{k}={v}" for k, v in f.items())[:60])
def test_analyze_is_the_cli_document(server, fields):
    status, doc = api(server, "POST", "/api/analyze", fields)
    assert status == 200
    assert doc == cli_json(cli_args("analyze", fields))
    if doc["payouts"]:
        check_payouts(doc["payouts"])


@pytest.mark.parametrize("fields", [
    {"hand": "123m456p789s EE 45m"},
    {"hand": "1112345678999m", "seen": "5m 9m"},
    {"hand": "123m456p789s EE 4m *", "wild": "C", "ruleset": "shangrao"},
])
def test_waits_is_the_cli_document(server, fields):
    status, doc = api(server, "POST", "/api/waits", fields)
    assert status == 200 and doc["waits"]
    assert doc == cli_json(cli_args("waits", fields))


@pytest.mark.parametrize("fields", [
    {"hand": "123m456p789s EE 45m +6m", "from": "S"},
    {"hand": "123m456p789s EE 45m +6m", "rulesets": ["beijing", "shangrao"], "wild": "5m", "lang": "en"},
    {"hand": "11223344556677m", "rulesets": ["beijing", "zhuji"], "bid": "2", "bidder": "S"},  # zhuji: an error column
])
def test_compare_is_the_cli_document(server, fields):
    status, doc = api(server, "POST", "/api/compare", fields)
    assert status == 200 and isinstance(doc, list) and len(doc) >= 2
    assert_same_compare(doc, cli_json(cli_args("compare", fields)))


def assert_same_compare(doc, cli):
    """`compare --json`'s document, but for a ruleset's error: the same words, its field named by its word (a phone
    never typed a flag) where the command line names the flag."""
    assert len(doc) == len(cli)
    for mine, theirs in zip(doc, cli):
        if "error" in theirs:
            flag, _, words = theirs["error"].partition(": ")
            assert not mine["error"].startswith("--"), mine["error"]
            assert mine["error"].endswith(words if flag.startswith("--") else theirs["error"]), (mine, theirs)
            mine = dict(mine, error=theirs["error"])
        assert mine == theirs


@pytest.mark.parametrize("fields", [
    {"hand": "1368m 27p 469s E 5m5m5m5m", "wild": "5m"},
    {"hand": "123m 456p 1s 79s EES C", "seen": "8s 8s E", "lang": "en"},
])
def test_advise_is_the_cli_document(server, fields):
    status, doc = api(server, "POST", "/api/advise", fields)
    assert status == 200 and "shanten" in doc
    assert doc == cli_json(cli_args("advise", fields))


@pytest.mark.parametrize("alone", [False, True])
def test_advise_by_value_plays_the_table_as_the_cli_does_and_alone_on_request(server, alone):
    fields = {"hand": "11112345667p 9p FF", "by": "value", "draws": 2, "alone": alone}
    status, doc = api(server, "POST", "/api/advise", fields)
    assert status == 200 and doc["model"] == ("alone" if alone else "table")
    cli = cli_json(cli_args("advise", fields))
    assert {k: v for k, v in doc.items() if k not in TIME_CAP_FIELDS} == cli


@pytest.mark.parametrize("lang, word", [("en", "alone"), ("zh", "只算自己")])
def test_alone_without_by_is_refused_with_its_field_named(server, lang, word):
    status, doc = api(server, "POST", "/api/advise", {"hand": "11112345667p 9p FF", "alone": True, "lang": lang})
    assert status == 400 and doc["field"] == "alone" and word in doc["error"], doc


def test_rulesets_lists_each_ruleset_with_the_options_it_reads(server):
    status, doc = api(server, "GET", "/api/rulesets")
    assert status == 200 and doc["default"] == "beijing"
    by_id = {r["id"]: r for r in doc["rulesets"]}
    assert set(by_id) == BUILTIN_IDS
    names = {rid: [o["name"] for o in r["options"]] for rid, r in by_id.items()}
    assert names["beijing"] == ["shaozhuang", "mutual"]
    assert names["zhuji"] == ["bid", "bidder"] and by_id["zhuji"]["wildcard"]["kinds"] == 2
    assert names["shangrao"] == ["flown", "flown_by", "four_wild", "jiebao", "kong"]
    # each option is its region's Option spec, as data the page builds its control from
    for rid, r in by_id.items():
        rules = load_ruleset(rid)
        assert names[rid] == list(rules.options)
        for doc_option in r["options"]:
            option = find_region(rules.region).option(doc_option["name"])
            assert doc_option == {"name": option.name, "kind": option.kind, "help": option.help, "zh": option.zh,
                                  "default": json.loads(json.dumps(option.default)), "minimum": option.minimum,
                                  "maximum": option.maximum, "choices": list(option.choices),
                                  "labels": list(option.labels or option.choices), "repeatable": option.repeatable,
                                  **({"from_deal": True} if option.from_deal else {})}
    shaozhuang, mutual = by_id["beijing"]["options"]
    assert (shaozhuang["kind"], shaozhuang["minimum"], shaozhuang["maximum"], shaozhuang["zh"]) == ("int", 0, 16, "烧庄")
    assert mutual["kind"] == "seats" and mutual["repeatable"]
    bid, bidder = by_id["zhuji"]["options"]
    assert bid["kind"] == "text" and bid["choices"][:4] == ["2", "du2", "wucai2", "3"] and bidder["kind"] == "seat"
    assert bid["labels"][:4] == ["2台", "独2台", "无财2台", "3台"]  # zhuji.md: c = 2 `N台`, c = 1 `独N台`, c = 0 `无财N台`
    # the patterns quick entry offers by name: beijing.md's table of 15, 推倒和 and 庄 the ones the situation adds
    # itself ("推倒和 is counted on every win the other patterns do not replace"; 庄: "the dealer wins … or the dealer
    # deals in")
    pats = by_id["beijing"]["patterns"]
    assert len(pats) == 15 and [p["id"] for p in pats if p["added"]] == ["tuidaohe", "dealer"]
    assert {p["zh"]: p["value"] for p in pats}["对对和"] == 2 and {p["id"]: p["zh"] for p in pats}["full_flush"] == "清一色"
    assert {p["id"]: p["excludes"] for p in pats}["all_pungs"] == ["tuidaohe"]  # "★ marks the patterns that replace 推倒和"
    assert [p["id"] for p in by_id["beijing-classic"]["patterns"] if p["added"]] == ["tuidaohe"]
    # 十三浪 is worth 4 without a 宝 standing in (shangrao.md), and 中发白 counts up to four dragon pungs
    assert {p["id"]: p["without_wild"] for p in by_id["shangrao"]["patterns"]}["thirteen_lonely"] == 4
    assert {p["id"]: p["most"] for p in by_id["zhuji"]["patterns"]}["dragon_pung"] == 4
    assert by_id["shangrao"]["options"][4]["choices"] == ["exposed", "concealed"]
    assert [o["name"] for o in doc["generic"]] == list(GENERIC)
    assert {o["name"]: o["maximum"] for o in doc["generic"]}["base"] == 1_000_000
    reader = find_region("zhuji").option("bid")
    assert len({str(reader.read(choice)) for choice in bid["choices"]}) == len(bid["choices"])  # each a bid, once


def test_the_page_and_the_server_name_no_region_option(server):
    """The page draws every region option from /api/rulesets, and serve.py reads them through the library: neither
    names one (a new region's options appear on the page with no change here)."""
    from mjcalc.regions import all_regions
    words = {w for region in all_regions() for o in region.options for w in (o.name, o.zh) if w}
    words.discard("kong")  # shangrao's option, and also the page's own 暗杠 button (a tile action, not an option)
    for path in (PAGE_FILE, ROOT / "mjcalc" / "serve" / "server.py"):
        text = path.read_text(encoding="utf-8")
        found = sorted(w for w in words if f'"{w}"' in text or f"'{w}'" in text or f".{w}" in text
                       or (not w.isascii() and w in text))
        assert found == [], (path.name, found)


def test_a_region_registered_after_start_is_read_and_offered(server, tmp_path, monkeypatch):
    import mjcalc
    from mjcalc.regions import unregister
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    from test_toy_region import HAND, TOY_YAML, Toy

    (tmp_path / "toy.yaml").write_text(TOY_YAML, encoding="utf-8")
    mjcalc.register_region(Toy())  # after `server` started
    try:
        status, doc = api(server, "POST", "/api/analyze", {"hand": HAND, "lucky": "S"})
        assert status == 200 and "lucky is not used by beijing; ignored" in doc["warnings"]
        (tmp_path / "other").mkdir()
        srv = start(tmp_path / "other", ruleset=str(tmp_path / "toy.yaml"))
        try:
            status, doc = api(srv, "GET", "/api/rulesets")
            toy = {r["id"]: r for r in doc["rulesets"]}["toyland"]
            assert toy["options"] == [{"name": "lucky", "kind": "seat", "help": "The lucky seat this hand.", "zh": "幸运",
                                       "default": None, "minimum": 0, "maximum": 0, "choices": [], "labels": [],
                                       "repeatable": False}]
            status, doc = api(srv, "POST", "/api/analyze", {"hand": HAND, "seat": "S", "lucky": "S"})
            assert status == 200 and doc["total"] == 5
            assert doc == cli_json(["analyze", HAND, "-r", str(tmp_path / "toy.yaml"), "--seat", "S", "--lucky", "S",
                                    "--json"])
            status, doc = api(srv, "POST", "/api/analyze", {"hand": HAND, "lucky": "X"})
            assert (status, doc["error"]) == (400, "lucky: expected a seat E, S, W or N (东 南 西 北), got 'X'")
        finally:
            stop(srv)
    finally:
        unregister("toy")
    status, doc = api(server, "POST", "/api/analyze", {"hand": HAND, "lucky": "S"})
    assert (status, doc["error"]) == (400, "unknown field 'lucky'")


def test_a_start_ruleset_file_may_not_take_a_built_in_id(tmp_path):
    """A house file named like a built-in would score as the built-in nowhere else does (issue 24, item 7): the
    server does not start on it, in one line naming the file."""
    from mjcalc.errors import RulesetError
    house = tmp_path / "beijing.yaml"
    house.write_text("extends: beijing\nid: beijing\npatterns:\n  seven_pairs: {value: 9}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="beijing.yaml:2"):
        start(tmp_path, ruleset=str(house))


def test_a_start_ruleset_file_becomes_the_default_and_is_chosen_by_its_id(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: my-house\npatterns:\n  seven_pairs: {value: 5}\n", encoding="utf-8")
    srv = start(tmp_path, ruleset=str(house))
    try:
        status, doc = api(srv, "GET", "/api/rulesets")
        assert doc["default"] == "my-house" and "my-house" in [r["id"] for r in doc["rulesets"]]
        status, doc = api(srv, "POST", "/api/analyze", {"hand": "1122m 3344p 556s EE +6s"})
        assert status == 200 and doc["ruleset"] == "my-house"
        assert doc == cli_json(["analyze", "1122m 3344p 556s EE +6s", "-r", str(house), "--json"])
    finally:
        stop(srv)


# --- errors: one line, 4xx, never a traceback ------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [
    {"hand": "123"},
    {"hand": "123m456p789s EE 4m"},
    {"hand": "11111m 456p 789s EE"},
    {"hand": "1112345678999m", "seat": "S", "from": "S"},
    {"hand": "123m456p789s EE 45m +6m", "wild": "5"},
    {"hand": "123m456p789s EE 45m +6m", "rob_kong": True},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "zhuji", "bid": "2"},
    {"hand": "1m" * 101},
    # read by the situation's Options, as the command line's values are
    {"hand": "123m456p789s EE 45m +6m", "base": 0},
    {"hand": "123m456p789s EE 45m +6m", "base": 10 ** 13},
    {"hand": "123m456p789s EE 45m +6m", "kong_draw": 5},
    {"hand": "123m456p789s EE 45m +6m", "kong_draw": 1},  # no kong in the hand
    {"hand": "123m456p789s EE 45m +6m", "seat": "X"},
    {"hand": "123m456p789s EE 45m +6m", "mutual": ["S", "Q"]},
    {"hand": "123m456p789s EE 45m +6m", "shaozhuang": 17},
    {"hand": "123m456p789s EE 45m +6m", "self_drawn": True, "from": "S"},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "zhuji", "bid": "du99", "bidder": "S"},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "shangrao", "flown_by": ["S=9"]},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "shangrao", "flown_by": ["S=1", "S=2"]},
    {"hand": "123m456p789s EE 45m +6m", "ruleset": "shangrao", "kong": ["W:open"]},
    {"hand": "123m456p789s EE 45m +6m", "indicator": "5m5m"},
    {"hand": "123", "base": 0},  # two mistakes: the first told is the CLI's
    {"hand": "123m456p789s EE 45m +6m", "base": 0, "seen": "5m 5m 5m 5m"},
])
@pytest.mark.parametrize("command", ["analyze", "advise", "compare"])
def test_errors_are_the_cli_error_line(server, fields, command):
    if command == "compare" and "ruleset" in fields:
        fields = {("rulesets" if k == "ruleset" else k): ([v] if k == "ruleset" else v) for k, v in fields.items()}
    status, doc = api(server, "POST", "/api/" + command, fields)
    if command == "compare" and status == 200:  # a situation one ruleset cannot take is that column's error
        assert_same_compare(doc, cli_json(cli_args(command, fields)))
        return
    assert status == 400
    assert doc["error"] == as_field(cli_error(cli_args(command, fields, said_zh=False)[:-1]))


def as_field(cli_line: str) -> str:
    """The command line's error as the API says it: the same words, the field named as the request names it
    (`kong_draw:`), not by its flag (`--kong-draw:`), which a phone never typed (issue 26)."""
    return re.sub(r"^--([a-z][a-z-]*): ", lambda m: m.group(1).replace("-", "_") + ": ", cli_line)


@pytest.mark.parametrize("body, message", [
    ({}, "missing field 'hand'"),
    ({"hand": "123m", "sead": "E"}, "unknown field 'sead' (did you mean 'seat'?)"),
    ({"hand": "123m", "situation_file": "/etc/passwd"}, "unknown field 'situation_file'"),
    ({"hand": 123}, "hand: expected text, got 123"),
    ({"hand": "123m456p789s EE 45m +6m", "base": "2"}, "base: expected a whole number, got \"2\""),
    ({"hand": "123m456p789s EE 45m +6m", "last_tile": 1}, "last_tile: expected true or false, got 1"),
    ({"hand": "123m456p789s EE 45m +6m", "base": True}, "base: expected a whole number, got true"),
    ({"hand": "123m456p789s EE 45m +6m", "lang": "fr"}, "lang: expected \"zh\" or \"en\""),
    ({"hand": "123m456p789s EE 45m +6m", "ruleset": "rulesets/beijing.yaml"},
     f"unknown ruleset 'rulesets/beijing.yaml'; this server has: {', '.join(sorted(BUILTIN_IDS))}"),
    ({"hand": "123m456p789s EE 45m +6m", "ruleset": "/etc/passwd"},
     f"unknown ruleset '/etc/passwd'; this server has: {', '.join(sorted(BUILTIN_IDS))}"),
    ([1, 2], "the request body must be a JSON object"),
])
def test_bad_fields_get_one_clear_error(server, body, message):
    status, doc = api(server, "POST", "/api/analyze", body)
    assert (status, doc["error"]) == (400, message)


def test_an_error_answer_carries_the_message_id_its_field_and_its_parameters(server):
    """`{"error", "code", "field", "params"}`: the CLI's words, and the message as data (mjcalc.messages), for the
    library's errors (a bad hand, a situation field) and the server's own (an unknown field, ruleset, path)."""
    status, doc = api(server, "POST", "/api/analyze", {"hand": "12x"})
    assert (status, doc) == (400, {
        "error": "unknown suit letter 'x' after '12' (suits are m p s z, or 万 筒 条) at column 3 in \"12x\"",
        "code": "notation.unknown_suit", "field": None,
        "params": {"letter": "x", "written": "12", "at": {"code": "notation.at", "params": {"column": 3, "text": "12x"}}}})
    status, doc = api(server, "POST", "/api/analyze", {"hand": SCORED, "seat": "X"})
    assert status == 400 and doc["field"] == "seat" and doc["code"] in EN
    assert doc["error"] == as_field(cli_error(["analyze", SCORED, "--seat", "X"]))
    status, doc = api(server, "POST", "/api/analyze", {"hand": "123m", "sead": "E"})
    assert (status, doc) == (400, {"error": "unknown field 'sead' (did you mean 'seat'?)", "code": "api.unknown_field",
                                   "field": None, "params": {"name": "'sead'", "hint": {
                                       "code": "hint.did_you_mean", "params": {"word": "seat"}}}})
    status, doc = api(server, "POST", "/api/analyze", {"hand": SCORED, "base": "2"})
    assert (status, doc["code"], doc["field"]) == (400, "api.wrong_type", "base")
    status, doc = api(server, "POST", "/api/analyze", {"hand": SCORED, "ruleset": "nowhere"})
    assert (status, doc["code"], doc["params"]["known"]) == (400, "api.unknown_ruleset", sorted(BUILTIN_IDS))
    status, doc = api(server, "GET", "/api/nothing")
    assert (status, doc["code"], doc["params"]) == (404, "api.no_endpoint", {"path": "/api/nothing"})
    status, doc = api(server, "GET", "/api/tables/nobody")
    assert status == 404 and doc["code"] in EN and doc["error"].startswith("no table named 'nobody'")


def test_an_error_answer_is_said_in_the_language_the_request_asks_for(server):
    english = "unknown suit letter 'x' after '12' (suits are m p s z, or 万 筒 条) at column 3 in \"12x\""
    chinese = "'12' 后面的花色字母 'x' 不认识（花色是 m p s z，或 万 筒 条）（\"12x\" 第 3 列）"
    for lang, said_as in ((None, english), ("en", english), ("zh", chinese)):
        status, doc = api(server, "POST", "/api/analyze", {"hand": "12x", "lang": lang})
        assert (status, doc["error"], doc["code"]) == (400, said_as, "notation.unknown_suit"), lang
    status, doc = api(server, "POST", "/api/analyze", {"hand": SCORED, "seat": "X", "lang": "zh"})
    assert doc["error"].startswith("座位：") and "不是 'X'" in doc["error"]  # the field by its word, no flag (issue 26)
    status, doc = api(server, "POST", "/api/analyze", {"lang": "zh"})
    assert doc["error"] == "缺少字段 'hand'"


def test_bad_json_wrong_type_oversized_and_unknown_paths(server):
    status, doc = api(server, "POST", "/api/analyze", raw=b'{"hand": "123m",')
    assert status == 400 and doc["error"].startswith("the request body is not valid JSON")
    status, doc = api(server, "POST", "/api/analyze", raw=b'\xff\xfe')
    assert status == 400 and doc["error"].startswith("the request body is not valid JSON")
    status, doc = api(server, "POST", "/api/analyze", raw=b"[" * 100000 + b"]" * 100000)
    assert status == 413
    big = json.dumps({"hand": "123m456p789s EE 45m +6m", "seen": "1m " * 40000}).encode()
    assert len(big) > MAX_BODY
    status, doc = api(server, "POST", "/api/analyze", raw=big)
    assert (status, doc["error"]) == (413, f"request body too large: {len(big)} bytes (at most {MAX_BODY})")
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        status, doc = api(server, "POST", "/api/analyze", raw=b'{"hand": "123m456p789s EE 45m +6m"}', ctype=ctype)
        assert (status, doc["error"]) == (415, "send the request body as application/json"), ctype
    status, doc = api(server, "POST", "/api/analyze", raw=b'{"hand": "123m456p789s EE 45m +6m"}',
                      ctype="application/json; charset=utf-8")
    assert status == 200
    assert said(api(server, "GET", "/api/nothing")) == (404, "no such API endpoint: /api/nothing")
    assert said(api(server, "GET", "/etc/passwd")) == (404, "no such page: /etc/passwd")
    assert said(api(server, "GET", "/api/analyze")) == (405, "GET is not allowed here (use POST)")
    assert said(api(server, "DELETE", "/api/tables")) == (405, "DELETE is not allowed here (use GET or POST)")
    assert api(server, "POST", "/", {})[0] == 405
    status, headers, body = request(server, "HEAD", "/api/rulesets")
    assert status == 405 and body == b"" and int(headers["Content-Length"]) > 0


def test_a_post_without_a_length_gets_411(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    conn.putrequest("POST", "/api/analyze")
    conn.putheader("Content-Type", "application/json")
    conn.endheaders()
    response = conn.getresponse()
    assert response.status == 411
    assert json.loads(response.read())["error"] == "a request body needs a Content-Length"
    conn.close()


def raw_exchange(srv, data: bytes) -> bytes:
    import socket
    with socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=30) as conn:
        conn.sendall(data)
        chunks = []
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def test_the_http_servers_own_errors_are_json_too(server):
    for request_bytes, message in ((b"GARBAGE\r\n\r\n", "Bad request syntax ('GARBAGE')"),
                                   (b"GET / HTTP/2.0\r\n\r\n", "Invalid HTTP version (2.0)")):
        doc = json.loads(raw_exchange(server, request_bytes))  # as HTTP/0.9: no headers
        assert doc == {"error": message, "code": "api.http", "field": None, "params": {"text": message}}
    for request_bytes, status in ((b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 501),
                                  (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 101 + b"\r\n", 431)):
        answer = raw_exchange(server, request_bytes)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.split(b" ")[1] == str(status).encode(), answer
        assert b"Content-Type: application/json" in head and set(json.loads(body)) == ERROR_KEYS
    host = {"Host": f"127.0.0.1:{server.server_address[1]}"}
    assert said(api(server, "GET", "/api/tables/%ff", headers=host)) == (400, "the path is not UTF-8 once %-decoded")


def test_a_foreign_host_header_is_refused_on_loopback(server):
    """Against DNS rebinding: a page from elsewhere that resolves its name to 127.0.0.1 gets nothing."""
    for host in ("evil.example", "evil.example:%d" % server.server_address[1], "127.0.0.2"):
        status, doc = api(server, "GET", "/api/tables", headers={"Host": host})
        assert (status, doc["error"]) == (403, "this server answers only to 127.0.0.1 or localhost")
    status, _ = api(server, "GET", "/api/tables", headers={"Host": "localhost:%d" % server.server_address[1]})
    assert status == 200


# --- the ledger --------------------------------------------------------------------------------------------------------


def ledger_cli(server, *args):
    return cli_json(list(args) + ["--json", "--db", str(server.lib.db_path)])


def test_a_table_evening_through_the_api_is_what_the_cli_shows(server):
    status, doc = api(server, "POST", "/api/tables", {"name": "friday night", "players": PLAYERS, "base": 2})
    assert status == 201 and doc["players"] == PLAYERS and doc["hands"] == []
    path = "/api/tables/" + quote("friday night", safe="")
    assert doc == ledger_cli(server, "table", "show", "friday night")
    hands = [
        {"hand": "123m456p789s234s5m +5m", "winner": SCRIPT_NAME, "from": "老王"},
        {"hand": "[111m] 222p 333s EEE 9m +9m", "winner": "S", "shaozhuang": 1},
        {"hand": "123m456p789s EE 45m +6m", "winner": "阿张", "from": "N", "lang": "en"},
    ]
    for i, fields in enumerate(hands):
        status, doc = api(server, "POST", path + "/hand", fields)
        assert status == 200, doc
        assert doc["hand"]["number"] == i + 1 and doc["table"] == "friday night"
        check_payouts(doc["hand"]["payouts"])
        show = ledger_cli(server, "table", "show", "friday night")
        assert doc["standings"] == show["standings"] and doc["next"] == show["next"]
        assert doc["hand"] == show["hands"][-1]
    status, doc = api(server, "POST", path + "/draw", {})
    assert status == 200 and doc["hand"]["kind"] == "draw" and doc["hand"]["number"] == 4
    status, show = api(server, "GET", path)
    assert status == 200 and show == ledger_cli(server, "table", "show", "friday night")
    assert [h["kind"] for h in show["hands"]] == ["win", "win", "win", "draw"]
    status, stand = api(server, "GET", path + "/standings")
    assert status == 200 and stand["standings"] == show["standings"] and stand["next"] == show["next"]
    settled = ledger_cli(server, "table", "settle", "friday night")
    assert stand["transfers"] == settled["transfers"] and stand["standings"] == settled["standings"]
    balances = {s["seat"]: s["score"] for s in stand["standings"]}
    check_payouts(balances)
    after = dict(balances)
    for t in stand["settlement"]:
        after[t["from"]] += t["amount"]
        after[t["to"]] -= t["amount"]
        assert t["amount"] > 0 and t["from_player"] == PLAYERS[t["from"]]
    assert set(after.values()) == {0}
    status, listing = api(server, "GET", "/api/tables")
    assert listing["tables"][0]["table"] == "friday night" and listing["tables"][0]["hands"] == 4
    # an undo names the hand it was shown: by its id, or by its number at the revision read (issue 21, item 1)
    status, doc = api(server, "POST", path + "/undo", {"number": 3, "revision": show["revision"] - 1})
    assert status == 409 and "changed since it was shown" in doc["error"] and doc["code"] == "ledger.stale_revision"
    status, doc = api(server, "POST", path + "/undo", {})
    assert status == 400 and doc["code"] == "api.undo_names_hand"
    status, doc = api(server, "POST", path + "/undo", {"number": 4, "revision": show["revision"]})
    assert status == 200 and doc["removed"]["kind"] == "draw" and doc["next"]["hand"] == 4
    status, doc = api(server, "POST", path + "/undo", {"hand_id": show["hands"][3]["hand_id"]})
    assert status == 409 and doc["code"] == "ledger.no_hand_id"  # removed already: nothing else is
    status, doc = api(server, "POST", path + "/undo", {"hand_id": show["hands"][2]["hand_id"]})
    assert status == 200 and doc["removed"]["number"] == 3 and doc["revision"] == show["revision"] + 2
    assert len(ledger_cli(server, "table", "show", "friday night")["hands"]) == 2


def test_a_player_named_script_is_stored_and_returned_as_plain_json_text(server):
    status, doc = api(server, "POST", "/api/tables", {"name": SCRIPT_NAME, "players": PLAYERS})
    assert status == 201
    status, headers, raw = request(server, "GET", "/api/tables/" + quote(SCRIPT_NAME, safe=""))
    assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert json.loads(raw)["players"]["S"] == SCRIPT_NAME and json.loads(raw)["table"] == SCRIPT_NAME
    assert raw.count(SCRIPT_NAME.encode()) == 3  # the table's name, the player, the player in the standings
    assert json.loads(raw) == ledger_cli(server, "table", "show", SCRIPT_NAME)


def test_a_hand_with_players_named_in_region_options_is_recorded_as_the_cli_records_it(server):
    """Every seat in a table hand may be a player's name (the winner, from, 他家飞宝, 他家杠), as in `table hand`."""
    docs = []
    for name in ("api", "cli"):
        api(server, "POST", "/api/tables", {"name": name, "players": PLAYERS, "ruleset": "shangrao", "base": 2})
    fields = {"hand": "123m456p789s {CCCC} E +E", "winner": "阿张", "wild": "P", "flown_by": {"老王": 1},
              "kong": [SCRIPT_NAME + ":exposed"], "kong_draw": 1}
    status, doc = api(server, "POST", "/api/tables/api/hand", fields)
    assert status == 200, doc
    docs.append(doc)
    args = ["table", "hand", "cli", fields["hand"], "--winner", "阿张", "--wild", "P", "--flown-by", "老王=1",
            "--kong", SCRIPT_NAME + ":exposed", "--kong-draw", "1"]
    docs.append(ledger_cli(server, *args))
    for doc in docs:
        doc.pop("table")
        doc["hand"].pop("recorded")
        doc["hand"].pop("hand_id")  # each hand its own
    assert docs[0] == docs[1] and docs[0]["hand"]["winner"] == "W"
    status, doc = api(server, "POST", "/api/tables/api/hand", dict(fields, flown_by={"小明": 1}))
    assert status == 400 and doc["error"].startswith("unknown player '小明'")


def test_nan_and_infinity_are_not_json(server):
    for raw in (b'{"hand": "123m456p789s EE 45m +6m", "base": NaN}', b'{"hand": "123m", "x": Infinity}'):
        status, doc = api(server, "POST", "/api/analyze", raw=raw)
        assert status == 400 and doc["error"].startswith("the request body is not valid JSON: "), doc
        assert "is not a JSON value" in doc["error"]


def test_a_document_that_is_not_strict_json_is_a_500_never_nan_on_the_wire(server, monkeypatch, capsys):
    import dataclasses
    import mjcalc.serve.server as served
    nan = dataclasses.replace(next(r for r in served.ROUTES if r.path == ("rulesets",)), call=lambda lib: {"x": float("nan")})
    monkeypatch.setattr(served, "ROUTES", tuple(nan if r.path == ("rulesets",) else r for r in served.ROUTES))
    status, doc = api(server, "GET", "/api/rulesets")
    assert (status, doc["error"]) == (500, "internal error (the server's log says more)")
    assert "Out of range float values are not JSON compliant" in capsys.readouterr().err


def test_ledger_errors(server):
    assert api(server, "GET", "/api/tables/nobody")[0] == 404
    assert api(server, "POST", "/api/tables/nobody/draw", {})[0] == 404
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    status, doc = api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    assert status == 400 and doc["error"].startswith("a table named 't' already exists")
    status, doc = api(server, "POST", "/api/tables", {"name": "u", "players": {"E": "a", "S": "b", "W": "c"}})
    assert status == 400 and doc["error"].startswith("a table needs four players: no player for N")
    status, doc = api(server, "POST", "/api/tables", {"name": "u", "players": PLAYERS, "base": 2_000_000})
    assert (status, doc["error"]) == (400, "base: must be from 1 to 1000000, got 2000000")
    status, doc = api(server, "POST", "/api/tables", {"name": "u", "players": {"X": "a"}})
    assert (status, doc["error"]) == (400, "players: 'X' is not a seat (E, S, W or N)")
    status, doc = api(server, "POST", "/api/tables", {"name": "u", "players": PLAYERS, "ruleset": "../x.yaml"})
    assert status == 400 and doc["error"].startswith("unknown ruleset '../x.yaml'")
    before = ledger_cli(server, "table", "show", "t")
    status, doc = api(server, "POST", "/api/tables/t/hand", {"hand": "123m456p789s EE 45m +6m", "winner": "小明"})
    assert status == 400 and doc["error"].startswith("unknown player '小明'")
    status, doc = api(server, "POST", "/api/tables/t/hand", {"hand": "[111m] 222p 333s EEE 9m +9m", "winner": "S", "from": "E"})
    assert status == 400 and doc["error"].startswith("not a legal win")
    status, doc = api(server, "POST", "/api/tables/t/hand", {"hand": "123m456p789s EE 45m +6m", "winner": "S", "dealer": "E"})
    assert (status, doc["error"]) == (400, "unknown field 'dealer'")
    status, doc = api(server, "POST", "/api/tables/t/hand", {"hand": "123m456p789s EE 45m +6m"})
    assert (status, doc["error"]) == (400, "missing field 'winner'")
    status, doc = api(server, "POST", "/api/tables/t/undo", {"number": 1, "revision": 1})
    assert (status, doc["error"]) == (400, "table 't' has no hands to undo")
    assert ledger_cli(server, "table", "show", "t") == before


def test_concurrent_writers_each_get_their_own_hand(server):
    api(server, "POST", "/api/tables", {"name": "busy", "players": PLAYERS})
    results = []

    def draw():
        results.append(api(server, "POST", "/api/tables/busy/draw", {"confirm_duplicate": True}))

    threads = [threading.Thread(target=draw) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert sorted(doc["hand"]["number"] for status, doc in results if status == 200) == [1, 2, 3, 4, 5, 6]


# --- LAN mode: the token ---------------------------------------------------------------------------------------------


def _files(directory):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(directory).iterdir())}


def test_lan_mode_refuses_requests_without_the_token_before_touching_the_ledger(tmp_path):
    srv = start(tmp_path, host="0.0.0.0")
    try:
        token = srv.token
        assert token and len(token) >= 24 and f"?token={token}" in srv.url
        status, doc = api(srv, "POST", "/api/tables", {"name": "friday", "players": PLAYERS},
                          headers={"X-Mjcalc-Token": token})
        assert status == 201
        before = _files(tmp_path)
        attempts = [("GET", "/api/tables", None), ("GET", "/api/tables/friday", None),
                    ("POST", "/api/tables", {"name": "evil", "players": PLAYERS}),
                    ("POST", "/api/tables/friday/draw", {}), ("POST", "/api/tables/friday/undo", {}),
                    ("POST", "/api/analyze", {"hand": "123m456p789s EE 45m +6m"})]
        for wrong in ({}, {"X-Mjcalc-Token": "guess"}, {"X-Mjcalc-Token": token[:-1]}):
            for method, path, body in attempts:
                status, headers, raw = request(srv, method, path, body, headers=wrong)
                assert status == 403, (method, path, wrong)
                assert json.loads(raw) == {"error": "missing or wrong token: open the URL that `mjcalc serve` printed, "
                                                    "or scan its code again (a server started again has a new token)",
                                           "code": "api.token", "field": None, "params": {}}
        assert _files(tmp_path) == before, "a refused request changed the ledger's files"
        # the page holds no data: it is served with the token, with a wrong one or with none (a page added to the
        # home screen opens at "/" and sends the token it kept); what it asks of the API still needs the token
        for query in ("?token=" + quote(token), "?token=nope", ""):
            status, headers, raw = request(srv, "GET", "/" + query)
            assert status == 200 and raw == served_page(PAGE_FILE.read_text(encoding="utf-8")).encode("utf-8"), query
        assert _files(tmp_path) == before
        status, doc = api(srv, "GET", "/api/tables/friday", headers={"X-Mjcalc-Token": token})
        assert status == 200 and doc["hands"] == []
    finally:
        stop(srv)


def test_no_token_on_loopback():
    from mjcalc.serve.server import is_loopback
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.1.2.3")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("myhost")


# --- the situation: built as the CLI builds it -------------------------------------------------------------------------

SITUATIONS = [
    {},
    {"seat": "s", "dealer": "W", "from": "n", "base": 3, "last_tile": True},
    {"self_drawn": True, "kong_draw": 2, "wild": "5m,6m", "first_turn": True},
    {"indicator": "4m", "shaozhuang": 2, "mutual": ["S", "W"]},
    {"bid": "du2", "bidder": "S", "wild": ["C"]},
    {"flown": 1, "flown_by": ["S=2", "W=1"], "four_wild": True, "jiebao": True, "kong": ["N:exposed", "S:concealed"]},
    {"flown_by": [{"S": 2}], "rob_kong": True, "from": "E"},
    {"flown_by": "S=1,W=2", "kong": "N:exposed", "bid": 3, "seat": "南", "mutual": "E,W"},
    {"self_drawn": False, "from": "W", "kong_draw": "2"},
]


@pytest.mark.parametrize("fields", SITUATIONS)
def test_situation_from_request_fields_is_the_clis(fields):
    cli_params = {("discarder" if k == "from" else k): v for k, v in fields.items()}
    assert situation_from(fields) == build_situation(cli_params)


# --- the command ----------------------------------------------------------------------------------------------------------


def test_mjcalc_serve_prints_the_url_serves_and_stops_cleanly_on_ctrl_c(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "mjcalc", "serve", "--port", "0", "--db", str(tmp_path / "l.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        match = re.match(r"mjcalc serve: (http://127\.0\.0\.1:(\d+)/)$", first.strip())
        assert match, first
        with urllib.request.urlopen(match.group(1), timeout=30) as r:
            assert r.status == 200 and b"<title>mjcalc" in r.read()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopping" in out and "Traceback" not in err


def test_mjcalc_serve_on_a_port_in_use_is_one_error_line(server):
    result = CliRunner().invoke(cli, ["serve", "--port", str(server.server_address[1]), "--db", str(server.lib.db_path)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith(f"Error: cannot listen on 127.0.0.1:{server.server_address[1]}: ")


def test_mjcalc_serve_with_a_file_that_is_not_a_ledger_is_one_error_line(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(junk)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"Error: {junk}: not a readable ledger file (file is not a database)"]


def test_serve_imports_no_click():
    code = "import sys, mjcalc.serve.server; print('click' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_every_library_import_is_in_the_adapter_section():
    """serve.py reaches into mjcalc only between its ADAPTER markers: the one part to port when the library moves."""
    source = (ROOT / "mjcalc" / "serve" / "server.py").read_text(encoding="utf-8")
    start = source.index("# ADAPTER:")
    end = source.index("# END OF ADAPTER")
    imports = [m.start() for m in re.finditer(r"^\s*(from \.|from mjcalc|import mjcalc)", source, flags=re.M)]
    assert imports and all(start < i < end for i in imports), "a library import outside the adapter"
    outside = source[:start] + source[end:]
    called = set(re.findall(r"\b(do_[a-z_]+|situation_from|library_call|Library)\b", outside))
    assert called <= {"do_analyze", "do_waits", "do_compare", "do_advise", "do_rulesets", "do_tables", "do_table_new",
                      "do_table_show", "do_table_hand", "do_table_draw", "do_table_undo", "do_standings",
                      "do_table_tag", "do_table_stats", "do_import", "library_call", "Library"}, called


def test_quick_entry_through_the_api(server):
    """What the table agreed, without tiles: the same library call as `table hand --fan/--patterns`."""
    api(server, "POST", "/api/tables", {"name": "q", "players": PLAYERS})
    # beijing, E deals: 小李 (S) self-draws a hand agreed at 3 番 → each other seat pays 3
    status, doc = api(server, "POST", "/api/tables/q/hand", {"winner": SCRIPT_NAME, "total": 3})
    assert status == 200, doc
    assert doc["hand"]["payouts"] == {"E": -3, "S": 9, "W": -3, "N": -3}
    # S deals now. 对对和 2 on the dealer's discard, 庄 1 added as the tiles path adds it (issue 22), and 门清无惠 1 (a
    # discard win is concealed, and no 惠 is declared: issue 33): 4 番
    status, doc = api(server, "POST", "/api/tables/q/hand", {"winner": "阿张", "from": SCRIPT_NAME, "patterns": "对对和"})
    assert status == 200, doc
    assert doc["hand"]["payouts"] == {"E": 0, "S": -4, "W": 4, "N": 0}
    assert [p["id"] for p in doc["hand"]["patterns"]] == ["dealer", "concealed_no_wild", "all_pungs"]
    assert [h["payouts"] for h in ledger_cli(server, "table", "show", "q")["hands"]] == [
        {"E": -3, "S": 9, "W": -3, "N": -3}, {"E": 0, "S": -4, "W": 4, "N": 0}]
    # 庄 named while neither winner nor discarder deals: refused with the rule, nothing recorded
    status, doc = api(server, "POST", "/api/tables/q/hand", {"winner": "大刘", "from": "老王", "patterns": "对对和,庄"})
    assert status == 400 and doc["code"] == "record.pattern_contradicts", doc
    status, doc = api(server, "POST", "/api/tables/q/hand", {"winner": "S"})
    assert status == 400 and "one of them" in doc["error"]
    status, doc = api(server, "POST", "/api/tables/q/hand", {"winner": "S", "total": 3, "hand": "123m456p789s EE 45m +6m"})
    assert status == 400 and "one of them" in doc["error"]


def test_a_keep_alive_connection_answers_without_waiting_for_a_delayed_ack(server, monkeypatch):
    """Headers and body are two writes; with Nagle's algorithm on, every request after the first on a keep-alive
    connection waited ~40 ms for the client's delayed ACK (a phone pays it on every tap). The connection the
    server answers on has TCP_NODELAY set, and ten requests on one connection all answer."""
    import http.client
    import socket

    from mjcalc.serve.server import Handler

    seen = []
    setup = Handler.setup

    def recording_setup(self):
        setup(self)
        seen.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    monkeypatch.setattr(Handler, "setup", recording_setup)
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    for _ in range(10):
        conn.request("GET", "/api/tables")
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read()) == {"tables": []}
    conn.close()
    assert seen and all(seen), seen  # one connection, set to send at once


# --- issue 21: writes name what they read; retried requests record once ---------------------------------------


def test_phone_a_cannot_undo_the_hand_phone_b_recorded_in_its_place(server):
    """Phone A is shown hand 2 and arms undo; phone B undoes hand 2 and records another hand 2. A's undo names
    the hand it was shown (its id) or the revision it read: both are refused with 409, and B's hand stands."""
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    api(server, "POST", "/api/tables/t/hand", {"total": 2, "winner": "S"})
    api(server, "POST", "/api/tables/t/hand", {"total": 3, "winner": "W", "from": "E"})
    _, seen_by_a = api(server, "GET", "/api/tables/t")
    shown = seen_by_a["hands"][1]
    status, doc = api(server, "POST", "/api/tables/t/undo", {"hand_id": shown["hand_id"]})  # phone B
    assert status == 200
    api(server, "POST", "/api/tables/t/hand", {"total": 4, "winner": "N"})  # B's new hand 2
    for body in ({"hand_id": shown["hand_id"]}, {"number": 2, "revision": seen_by_a["revision"]}):
        status, doc = api(server, "POST", "/api/tables/t/undo", body)
        assert status == 409 and "nothing" in doc["error"], doc
    _, now = api(server, "GET", "/api/tables/t")
    assert [h["total"] for h in now["hands"]] == [2, 4]
    status, doc = api(server, "POST", "/api/tables/t/undo", {})
    assert status == 400 and doc["code"] == "api.undo_names_hand"


def test_a_retried_request_records_once_and_a_reused_id_is_409(server):
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    body = {"total": 2, "winner": "S", "request_id": "phone-1:7"}
    first = api(server, "POST", "/api/tables/t/hand", body)
    again = api(server, "POST", "/api/tables/t/hand", body)
    assert first[0] == again[0] == 200
    assert again[1] == dict(first[1], replayed=True)
    status, doc = api(server, "POST", "/api/tables/t/hand", dict(body, total=3))
    assert status == 409 and doc["code"] == "ledger.request_reused"
    status, doc = api(server, "POST", "/api/tables/t/draw", {"request_id": "has space"})
    assert status == 400 and doc["code"] == "ledger.bad_request_id"
    _, now = api(server, "GET", "/api/tables/t")
    assert len(now["hands"]) == 1


def test_edit_and_seat_through_the_api(server):
    """An edit names the hand by its id and reads names as that hand was seated; a seat change names only the
    seats that change (a name seated elsewhere swaps), from the next hand on."""
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    api(server, "POST", "/api/tables/t/hand", {"total": 2, "winner": "阿张"})
    status, doc = api(server, "POST", "/api/tables/t/seat", {"players": {"西": "大刘"}})  # 阿张 and 大刘 swap
    assert status == 200 and doc["next"]["dealer"] == "S"
    _, shown = api(server, "GET", "/api/tables/t")
    assert shown["players"] == {"E": "老王", "S": SCRIPT_NAME, "W": "大刘", "N": "阿张"}
    status, doc = api(server, "POST", "/api/tables/t/edit", {"hand_id": shown["hands"][0]["hand_id"],
                                                             "total": 3, "winner": "阿张", "from": "老王"})
    assert status == 200, doc
    assert doc["hand"]["winner"] == "W" and doc["hand"]["winner_player"] == "阿张"  # W in that hand
    scores = {s["player"]: s["score"] for s in doc["standings"]}
    assert scores["阿张"] == 3 and scores["老王"] == -3  # 3 番 on the dealer's discard (庄 among them)


def test_the_api_reads_a_total_as_the_command_line_does(server):
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    for said, total in (("3番", 3), ("３", 3), ("十二", 12), (2, 2)):
        status, doc = api(server, "POST", "/api/tables/t/hand", {"total": said, "winner": "S", "confirm_duplicate": True})
        assert status == 200 and doc["hand"]["total"] == total, doc
    status, doc = api(server, "POST", "/api/tables/t/hand", {"total": "3台", "winner": "S"})
    assert status == 400 and doc["code"] == "record.total_unit" and doc["field"] == "total"


@pytest.mark.parametrize("cli_total, api_total, code", [
    ("0", 0, "record.total_below_least"), ("3台", "3台", "record.total_unit"), ("x3", "x3", "record.total_unreadable"),
])
def test_a_refused_total_is_refused_alike_by_the_api_the_command_line_and_the_prompt(server, cli_total, api_total,
                                                                                      code):
    """Issue 22: refused means nothing recorded, in the same words everywhere (beijing: every win scores at
    least 推倒和 1 番, rulesets/beijing.md)."""
    api(server, "POST", "/api/tables", {"name": "r", "players": PLAYERS})
    status, doc = api(server, "POST", "/api/tables/r/hand", {"total": api_total, "winner": "S"})
    assert status == 400 and doc["code"] == code and doc["field"] == "total", doc
    result = CliRunner().invoke(cli, ["table", "hand", "r", "--fan", cli_total, "--winner", "S",
                                      "--db", str(server.lib.db_path)])
    assert result.exit_code == 2
    said = result.stderr.strip().removeprefix("Error: --fan: ")
    assert doc["error"].endswith(said), (doc["error"], said)
    from mjcalc.cli.play import TablePrompt
    from mjcalc.evening import Ledger
    with Ledger(server.lib.db_path) as ledger:
        prompt = TablePrompt(ledger, ledger.table("r"), None)
        if code != "record.total_unreadable":  # a word that is not a total is read as tiles or patterns
            assert prompt.hand_args(f"S {cli_total}")[-2:] == ["--fan", cli_total]
        assert ledger.hands(ledger.table("r")) == []


def test_a_preview_is_confirmed_at_the_revision_it_showed(server):
    """Issue 22: `"dry_run": true` answers what would be recorded and the revision; the confirm carries that
    revision, and a table that moved on since refuses it (409) with nothing recorded."""
    api(server, "POST", "/api/tables", {"name": "pv", "players": PLAYERS})
    body = {"total": 2, "winner": "阿张", "from": "老王"}
    status, preview = api(server, "POST", "/api/tables/pv/hand", dict(body, dry_run=True))
    assert status == 200 and preview["recorded"] is False
    assert preview["hand"]["payouts"] == {"E": -2, "S": 0, "W": 2, "N": 0}  # the agreed 2 番 (庄 not added to it)
    _, shown = api(server, "GET", "/api/tables/pv")
    assert shown["hands"] == [] and preview["revision"] == shown["revision"]
    api(server, "POST", "/api/tables/pv/draw", {})  # another phone, meanwhile
    status, doc = api(server, "POST", "/api/tables/pv/hand", dict(body, revision=preview["revision"]))
    assert status == 409 and doc["code"] == "ledger.stale_revision"
    _, shown = api(server, "GET", "/api/tables/pv")
    assert [h["kind"] for h in shown["hands"]] == ["draw"]
    status, doc = api(server, "POST", "/api/tables/pv/hand", dict(body, revision=shown["revision"]))
    assert status == 200 and doc["hand"]["number"] == 2


@pytest.mark.parametrize("patterns, code", [("对对和,庄", "record.pattern_contradicts"),
                                            ("七对子,对对和", "record.patterns_no_shape"),
                                            ("天和", "record.pattern_contradicts")])
def test_a_refused_pattern_is_refused_alike_by_the_api_the_command_line_and_the_prompt(server, patterns, code):
    """Issue 22: 阿张 (W) on 大刘's (N) discard while 老王 (E) deals: 庄 does not fit, nor 天和 (not the dealer),
    and 七对子 with 对对和 is no one hand; the same words everywhere, nothing recorded."""
    api(server, "POST", "/api/tables", {"name": "rp", "players": PLAYERS})
    status, doc = api(server, "POST", "/api/tables/rp/hand", {"patterns": patterns, "winner": "阿张", "from": "大刘"})
    assert status == 400 and doc["code"] == code and doc["field"] == "patterns", doc
    result = CliRunner().invoke(cli, ["table", "hand", "rp", "--patterns", patterns, "--winner", "阿张", "--from", "大刘",
                                      "--db", str(server.lib.db_path)])
    assert result.exit_code == 2
    assert doc["error"].endswith(result.stderr.strip().removeprefix("Error: --patterns: ")), (doc, result.stderr)
    from mjcalc.cli.play import TablePrompt
    from mjcalc.evening import Ledger
    with Ledger(server.lib.db_path) as ledger:
        prompt = TablePrompt(ledger, ledger.table("rp"), None)
        prompt.rules = evening_rules(ledger.table("rp"))
        assert prompt.hand_args(f"阿张 大刘 {patterns}")[-2:] == ["--patterns", patterns]  # the same table hand
        assert ledger.hands(ledger.table("rp")) == []


def evening_rules(table):
    from mjcalc.evening import table_rules
    return table_rules(table)


def test_opening_a_table_again_with_its_request_id_answers_the_table(server):
    body = {"name": "again", "players": PLAYERS, "request_id": "open-again"}
    first = api(server, "POST", "/api/tables", body)
    again = api(server, "POST", "/api/tables", body)
    assert first[0] == 201 and again[0] == 201
    assert again[1] == dict(first[1], replayed=True)
    status, doc = api(server, "POST", "/api/tables", dict(body, name="other"))
    assert status == 409 and doc["code"] == "ledger.request_reused"


@pytest.mark.parametrize("header, lang", [
    (None, "en"), ("", "en"), ("zh-CN,zh;q=0.9,en;q=0.8", "zh"), ("en-US,en;q=0.9,zh;q=0.8", "en"),
    ("fr, zh;q=0.5", "zh"), ("fr, de", "en"), ("en;q=0.4, zh-TW;q=0.6", "zh"), ("zh;q=0, en;q=0.1", "en"),
    ("zh;q=nan, en;q=0.2", "en"), ("zh;q=inf", "en"), ("zh;q=abc, en", "en"), ("ZH-hant", "zh"), ("*", "en"),
])
def test_the_language_of_a_get_error_is_the_one_the_browser_asks_for(header, lang):
    from mjcalc.serve.server import accepted_language
    assert accepted_language(header) == lang


def test_a_get_refusal_is_said_in_the_accept_language(tmp_path):
    srv = start(tmp_path)
    try:
        status, _, raw = request(srv, "GET", "/api/tables/nobody", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
        assert status == 404 and json.loads(raw)["error"] == "没有叫 'nobody' 的牌桌"
        status, _, raw = request(srv, "GET", "/api/tables/nobody", headers={"Accept-Language": "en-GB"})
        assert status == 404 and json.loads(raw)["error"] == "no table named 'nobody'"
    finally:
        stop(srv)


def test_the_router_is_a_table_and_every_path_refuses_the_methods_it_does_not_take(server):
    """`ROUTES` is the API: one row per (method, path); a body's fields are an endpoint `check_fields` knows;
    every other method on a path it serves is 405 naming exactly the methods that path takes."""
    from mjcalc.serve.server import NAME, ROUTES, endpoint_fields
    rows = [(m, r.path) for r in ROUTES for m in r.methods]
    assert len(rows) == len(set(rows))
    for route in ROUTES:
        if route.kind == "body":
            assert endpoint_fields(route.endpoint)
    taken = {}
    for method, path in rows:
        taken.setdefault(path, set()).add(method)
    assert ("tables", NAME, "undo") in taken and ("analyze",) in taken
    api(server, "POST", "/api/tables", {"name": "router", "players": ["甲", "乙", "丙", "丁"]})
    for path, methods in taken.items():
        url = "/api/" + "/".join("router" if part is NAME else part for part in path)
        for method in {"GET", "POST", "PUT", "DELETE", "PATCH"} - methods:
            status, doc = api(server, method, url, {} if method == "POST" else None)
            assert status == 405, (method, url, doc)
            assert sorted(doc["params"]["allowed"].split(" or ")) == sorted(methods), (method, url)
