"""The page's language: a refusal asked for in Chinese ("lang": "zh") is said in Chinese, its field named by its
Chinese word and never by a command-line flag; the same refusal asked for in English is said in English."""
import functools
import re
import string

import pytest

from mjcalc import flags
from mjcalc.messages import EN, ZH
from mjcalc.serve import server as server_module
from test_serve import api, start, stop
from urllib.parse import quote

PLAYERS = {"E": "老王", "S": "小明", "W": "阿张", "N": "大刘"}
WON = "123m456p789s EE 45m +6m"
CHOSEN = {"nosuch"}  # a pattern name this test gives (a ruleset is named by its Chinese name)
# An English word: two or more ASCII letters standing alone (a hand id such as 83f2024 is not one), other than
# the honor tiles' letters (EE, CFP) — a tile, a seat, a hand in notation
WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]{2,}(?![0-9A-Za-z])")
HONORS = re.compile(r"^[ESWNCFP]+$")

REFUSED = [
    pytest.param("/api/analyze", {"hand": "123m456p789s EE 45x +6m"}, "notation.unknown_suit", id="bad_tile"),
    pytest.param("/api/analyze", {"hand": "123m456p789s EE 456m +6m"}, "hand.size", id="15_tiles"),
    pytest.param("/api/analyze", {"hand": "11m"}, "hand.size", id="2_tiles"),
    pytest.param("/api/analyze", {"hand": WON, "seat": "X"}, "option.reason", id="bad_seat"),
    pytest.param("/api/analyze", {"hand": WON, "seat": "E", "from": "E"}, "region.own_discard", id="own_discard"),
    pytest.param("/api/analyze", {"hand": WON, "ruleset": "zhuji", "bid": "2"}, "zhuji.bid_needs_bidder",
                 id="bid_without_bidder"),
    pytest.param("/api/tables/上饶/hand", {"hand": WON, "winner": "老王", "from": "S"}, "record.not_legal",
                 id="shangrao_discard_win"),
    pytest.param("/api/tables/诸暨/hand", {"winner": "老王", "total": 0}, "record.total_below_least",
                 id="total_below_least"),
    pytest.param("/api/tables/诸暨/hand", {"winner": "老王", "patterns": "nosuch"}, "record.unknown_pattern",
                 id="unknown_pattern"),
    pytest.param("/api/tables/北京/penalty", {"penalty": "诈和", "player": "老王"}, "record.no_penalties",
                 id="penalty_in_beijing"),
    pytest.param("/api/tables/诸暨/hand", {"winner": "老王", "total": 5}, "record.duplicate", id="duplicate_hand"),
    pytest.param("/api/tables/散场/hand", {"winner": "老王", "total": 5}, "ledger.table_closed", id="closed_table"),
    pytest.param("/api/tables/诸暨/hand", {"winner": "无名", "total": 5}, "ledger.unknown_player",
                 id="unknown_player"),
    pytest.param("/api/tables/诸暨/hand", {"winner": "老王"}, "api.hand_or_agreed", id="nothing_to_record"),
    pytest.param("/api/tables/没有/hand", {"winner": "老王", "total": 5}, "api.no_table", id="no_table"),
    pytest.param("/api/tables", {"name": "新", "players": PLAYERS, "base": "二"}, "api.wrong_type", id="base_not_a_number"),
]


def english_words(text):
    return [w for w in WORD.findall(text) if not HONORS.match(w) and w not in CHOSEN]


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    # the page names a field by its word (`flagged(..., page=True)`); the command line keeps its flags
    patch = pytest.MonkeyPatch()
    patch.setattr(server_module, "flagged", functools.partial(flags.flagged, page=True))
    srv = start(tmp_path_factory.mktemp("zh"))
    for name, ruleset in (("北京", "beijing"), ("诸暨", "zhuji"), ("上饶", "shangrao"), ("散场", "zhuji")):
        assert api(srv, "POST", "/api/tables", {"name": name, "players": PLAYERS, "ruleset": ruleset})[0] == 201
    assert api(srv, "POST", quote("/api/tables/散场/close"), {"closed": True})[0] == 200
    assert api(srv, "POST", quote("/api/tables/诸暨/hand"), {"winner": "老王", "total": 5})[0] == 200
    yield srv
    stop(srv)
    patch.undo()


# a refusal quoting a score's reason (`record.not_legal`) says it in the refusal's language: the score keeps its
# reason as a message (`Score.reason`), not as English text
@pytest.mark.parametrize("path, body, code", REFUSED)
def test_a_refusal_on_the_chinese_page_is_chinese_with_no_flag(evening, path, body, code):
    status, doc = api(evening, "POST", quote(path), dict(body, lang="zh"))
    assert status >= 400 and doc["code"] == code, doc
    assert english_words(doc["error"]) == [] and "--" not in doc["error"], doc["error"]
    assert re.search(r"[\u4e00-\u9fff]", doc["error"]), doc["error"]


@pytest.mark.parametrize("path, body, code", REFUSED)
def test_the_same_refusal_on_the_english_page_is_english(evening, path, body, code):
    status, doc = api(evening, "POST", quote(path), dict(body, lang="en"))
    assert status >= 400 and doc["code"] == code, doc
    assert english_words(doc["error"]) and not doc["error"].startswith("--"), doc["error"]


def test_a_field_is_named_by_its_word_on_the_page_and_by_its_flag_on_the_command_line(evening):
    doc = api(evening, "POST", "/api/analyze", {"hand": WON, "ruleset": "zhuji", "bid": "2", "lang": "zh"})[1]
    assert doc["error"] == "包牌：2台 要写包家（是谁包的）"
    doc = api(evening, "POST", "/api/analyze", {"hand": WON, "ruleset": "zhuji", "bid": "2", "lang": "en"})[1]
    assert doc["error"] == "bid: 2台 needs --bidder SEAT, the 包家 who made it"  # (the English text's own words)
    from mjcalc.errors import SituationError
    error = SituationError("zhuji.bid_needs_bidder", field="bid", bid="2台")
    assert flags.flagged(error, "zh") == "--bid: 2台 要写包家（是谁包的）"  # the command line keeps its flags
    assert flags.flagged(error) == "--bid: 2台 needs --bidder SEAT, the 包家 who made it"


def fields(template):
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


# a Chinese text needs no plural, nor the ledger file's path or a command line's flag: the page shows neither
LEFT_OUT = {"plural", "kongs_plural", "path", "first", "name", "done",
            "pattern"}  # a pattern's id beside its name: the Chinese text names it by its name alone


def test_every_chinese_text_names_the_parameters_of_its_english_one():
    assert set(ZH) <= set(EN)
    assert {k: fields(EN[k]) ^ fields(ZH[k]) for k in ZH if (fields(EN[k]) ^ fields(ZH[k])) - LEFT_OUT} == {}


@pytest.mark.parametrize("area", ["notation.", "hand.", "seat.", "option.", "situation.", "region.", "beijing.",
                                  "zhuji.", "shangrao.", "record.", "api."])
def test_every_message_a_player_meets_on_the_page_has_a_chinese_text(area):
    wordy = [k for k in EN if k.startswith(area) and any(c.isalpha() for c in re.sub(r"\{[^}]*\}", "", EN[k]))]
    said_elsewhere = {"api.chunked", "api.no_length", "api.length_not_a_number", "api.length_negative",
                      "api.not_json_type", "api.path_not_utf8", "api.method", "api.http"}  # HTTP, not the page
    assert [k for k in wordy if k not in ZH and k not in said_elsewhere] == []


def test_a_chinese_text_names_no_command_line_flag():
    assert [k for k, v in ZH.items() if re.search(r"--[a-z]", v)] == []



def ids_used_in(path):
    """The message ids a module writes (a string literal naming an id of the table)."""
    return {m for m in re.findall(r"[\"']([a-z_]+\.[a-z_0-9]+)[\"']", path.read_text(encoding="utf-8")) if m in EN}


def test_every_message_the_server_or_the_library_can_say_has_a_chinese_text():
    """Whatever reaches the page (a refusal, a ledger file's trouble, an import, an amount beyond any table) is said
    in Chinese on the Chinese page: every id used outside the command line's own modules (`cli/`, its front end's)
    has a Chinese text, or is words of its parameters alone ("{where}: {problem}")."""
    from pathlib import Path
    from mjcalc.messages import _wordless
    package = Path(server_module.__file__).resolve().parent.parent
    said = set().union(*(ids_used_in(p) for p in package.rglob("*.py")
                         if "cli" not in p.relative_to(package).parts and p.name != "messages.py"))
    assert len(said) > 300 and "payout.part_too_large" in said  # the walk found the ids
    assert sorted(k for k in said if k not in ZH and not _wordless(k)) == []
