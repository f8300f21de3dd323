"""The counting mistakes players make most, caught kindly (issue 25, item 7).

The audit: "14 of 270 commands were a 15-tile hand, mostly `+X` written as a 15th tile: `Error: 15 tiles: …`
neither shows the groups it counted nor says that `+X` is one of the 14. At the prompt a typo (`自模`) or a pinyin
pattern (`duiduihe`) is read as tiles ("unknown character '自'"); `七对` is refused in beijing (it wants 七对子)
though the glossary's own word is 七对; `对对胡`, `碰碰胡` are refused; on the command line `--form` gets no "did
you mean --from"."
"""
import json
import textwrap

import pytest
from click.testing import CliRunner

from mjcalc import glossary
from mjcalc.cli import cli
from mjcalc.errors import HandError
from mjcalc.evening import LedgerError, find_pattern, parse_patterns
from mjcalc.messages import Message
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset, load_ruleset_file

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def error_line(result):
    lines = result.stderr.splitlines()
    assert lines and lines[-1].startswith("Error: "), result.output
    return lines[-1][len("Error: "):]


# --- a hand of the wrong size: what was read, group by group, and where the count went wrong --------------------

MISCOUNTED = [
    # the issue's own example: `+F` written as a 15th tile
    pytest.param("147m 258p 369s ESWNC +F",
                 "15 tiles: 147m 258p 369s E S W N C +F — the winning tile +F is one of the 14: write 13 before it",
                 id="plus_as_15th"),
    # written without spaces: the groups are the suits, in the order written
    pytest.param("147m258p369sESWNC+F",
                 "15 tiles: 147m 258p 369s E S W N C +F — the winning tile +F is one of the 14: write 13 before it",
                 id="plus_as_15th_unspaced"),
    # a kong counts 3 toward the 14, like any meld: the melds are shown as groups and added up apart
    pytest.param("[1111m] 222p 333s EEE 99m +9m",
                 "15 tiles: [1111m] 222p 333s EEE 99m +9m (a meld counts 3, a kong too: 3 in melds + 12) — the "
                 "winning tile +9m is one of the 14: write 13 before it", id="kong_and_plus"),
    pytest.param("{CCCC} [123p] 456s 789s 1m 1m +1m",
                 "15 tiles: {CCCC} [123p] 456s 789s 1m 1m +1m (a meld counts 3, a kong too: 6 in melds + 9) — "
                 "the winning tile +1m is one of the 14: write 13 before it", id="concealed_kong"),
    # no `+`: the rule, after what was read (groups kept as written: 45m before 123m, 红中 read as C)
    pytest.param("45m 123m 红中红中 🀇 [123p]W 1m",
                 "12 tiles: 45m 123m CC 1m [123p]W 1m (a meld counts 3: 3 in melds + 9) — a hand has 13 (to find "
                 "waits) or 14 (to score)", id="as_written"),
    pytest.param("123m 456p 789s EEE 11s 2s",
                 "15 tiles: 123m 456p 789s EEE 11s 2s — a hand has 13 (to find waits) or 14 (to score)",
                 id="fifteen_without_plus"),
    pytest.param("1m", "1 tile: 1m — a hand has 13 (to find waits) or 14 (to score)", id="one_tile"),
    # 12 tiles and `+X`: the kong counted as 4 is the usual reason
    pytest.param("[1111m] 222p 333s EEE +9m",
                 "13 tiles with a '+' winning tile: [1111m] 222p 333s EEE +9m (a meld counts 3, a kong too: 3 in "
                 "melds + 10) — a hand to score has 14 (drop the '+' to find waits)", id="kong_counted_as_4"),
    pytest.param("123m456p789s EE 4m +6m",
                 "13 tiles with a '+' winning tile: 123m 456p 789s EE 4m +6m — a hand to score has 14 (drop the "
                 "'+' to find waits)", id="plus_on_13"),
]


@pytest.mark.parametrize("text, message", MISCOUNTED)
def test_a_miscounted_hand_echoes_its_groups_and_where_the_count_went_wrong(text, message):
    with pytest.raises(HandError) as info:
        parse_hand(text)
    assert str(info.value) == message


def test_one_message_id_with_its_parameters_for_every_front_end():
    with pytest.raises(HandError) as info:
        parse_hand("147m 258p 369s ESWNC +F")
    assert info.value.json() == {
        "code": "hand.size", "field": None,
        "params": {"size": 15, "plural": "s", "read": "147m 258p 369s E S W N C +F", "counted": "",
                   "why": {"code": "hand.why_plus", "params": {"tile": "F"}}}}
    assert info.value.text("zh") == "15 张牌：147m 258p 369s E S W N C +F —— 和的那张 +F 是 14 张之一：它前面写 13 张"
    result = run("analyze", "147m 258p 369s ESWNC +F", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout)["error"] == str(info.value)


def test_the_api_says_the_command_lines_words(tmp_path):
    import urllib.error
    import urllib.request

    from browser import serving

    with serving(tmp_path / "ledger.sqlite3") as srv:
        req = urllib.request.Request(f"http://127.0.0.1:{srv.server_address[1]}/api/analyze", method="POST",
                                     data=json.dumps({"hand": "[1111m] 222p 333s EEE 99m +9m"}).encode(),
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(req, timeout=60)
        doc = json.loads(answer.value.read().decode("utf-8"))
    assert doc["code"] == "hand.size" and doc["params"]["read"] == "[1111m] 222p 333s EEE 99m +9m"
    assert doc["params"]["counted"] == {"code": "hand.kongs_count", "params": {"melds": 3, "rest": 12}}
    assert doc["error"] == error_line(run("analyze", "[1111m] 222p 333s EEE 99m +9m"))


def test_thirteen_and_the_plus_tile_make_fourteen_melds_counting_three():
    assert parse_hand("147m 258p 369s ESWN +C").size == 14
    assert parse_hand("[1111m] 222p 333s EEE 9m +9m").size == 14  # the kong counts 3, not 4
    assert parse_hand("{CCCC} [123p] 456s 789s 1m +1m").size == 14


def test_fourteen_tiles_without_a_plus_say_which_tile_was_taken():
    result = run("analyze", "123m456p789s EE 456m")
    assert result.exit_code == 0
    assert "12345m 456p 789s EE +6m" in result.stdout
    assert "(no '+': the last tile written is taken as the winning tile)" in result.stdout


# --- pattern names as players write them ---------------------------------------------------------------------

NAMED = [
    # the glossary's word is 七对; beijing writes 七对子, beijing-doubling 七对
    ("beijing", "七对", "seven_pairs"), ("beijing", "七對", "seven_pairs"), ("beijing", "qidui", "seven_pairs"),
    ("beijing-doubling", "七对子", "seven_pairs"), ("beijing-money", "豪华七对子", "luxury_seven_pairs"),
    # 对对和 / 对对胡 / 碰碰胡 and the pinyin, in each ruleset's own word
    ("beijing", "对对胡", "all_pungs"), ("beijing", "碰碰胡", "all_pungs"), ("beijing", "duiduihe", "all_pungs"),
    ("zhuji", "对对和", "all_pungs"), ("zhuji", "碰碰胡", "all_pungs"), ("zhuji", "duiduihu", "all_pungs"),
    ("shangrao", "碰碰胡", "pungs"), ("shangrao", "对对和", "pungs"), ("shangrao", "all_pungs", "pungs"),
    # 和, 胡 and 糊 are one hú
    ("beijing", "天胡", "heavenly"), ("shangrao", "天和", "heavenly"), ("beijing-hunr", "推倒和", "tuidaohe"),
    # an entry that explains several patterns names the one its own pinyin is
    ("shangrao", "qidui", "seven_pairs"), ("shangrao", "jiuyao", "nine_terminals"), ("shangrao", "penggang", "exposed_kong"),
]


@pytest.mark.parametrize("ruleset, word, pattern", NAMED)
def test_pattern_names_accept_common_spellings_and_the_glossarys_words(ruleset, word, pattern):
    assert find_pattern(load_ruleset(ruleset), word).id == pattern


def test_quick_entry_takes_them_on_the_command_line(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    assert run("table", "new", "t", *SEATS, "--db", db).exit_code == 0
    result = run("table", "hand", "t", "--patterns", "七对,碰碰胡", "--winner", "小李", "--json", "--dry-run",
                 "--db", db)
    assert result.exit_code == 2 and "七对子 and 对对和 cannot be one hand" in result.stderr  # both read, then checked
    result = run("table", "hand", "t", "--patterns", "对对胡,庄", "--winner", "老王", "--json", "--db", db)
    assert result.exit_code == 0, result.output
    assert [p["name"] for p in json.loads(result.stdout)["hand"]["patterns"]] == ["庄", "对对和"]


def test_an_alias_of_an_entry_that_explains_several_patterns_names_none_of_them():
    """The glossary's 七对 entry lists 清七对 (shangrao's seven pairs without 宝): in beijing it is not 七对子,
    whose value it would silently become."""
    with pytest.raises(LedgerError) as info:
        find_pattern(load_ruleset("beijing"), "清七对")
    assert info.value.code == "record.unknown_pattern"
    assert find_pattern(load_ruleset("shangrao"), "清七对").id == "pure_seven_pairs"


def house(tmp_path, name, patterns):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: beijing\nid: {name}\npatterns:\n" + textwrap.indent(textwrap.dedent(patterns), "  "),
                    encoding="utf-8")
    return load_ruleset_file(path)


def test_a_word_that_could_name_two_patterns_is_refused_with_both(tmp_path):
    sevens = house(tmp_path, "sevens", """\
        seven_pairs:
          name: {zh: 七对, en: seven pairs}
        luxury_seven_pairs:
          name: {zh: 七对子, en: luxury seven pairs}
        """)
    assert find_pattern(sevens, "七对子").id == "luxury_seven_pairs"  # a ruleset's own name is never ambiguous
    with pytest.raises(LedgerError) as info:
        find_pattern(sevens, "七對子")
    assert str(info.value) == ("--patterns: '七對子' names more than one pattern of sevens: 七对 (seven_pairs) or "
                               "七对子 (luxury_seven_pairs); write one of them")
    pungs = house(tmp_path, "pungs", """\
        big_single_wait:
          name: {zh: 碰碰胡, en: big single wait}
        """)
    with pytest.raises(LedgerError) as info:  # the glossary's duiduihe is 对对和, and 碰碰胡 is one of its words
        parse_patterns(pungs, "duiduihe")
    assert info.value.code == "record.ambiguous_pattern"
    assert info.value.params["names"] == "对对和 (all_pungs) or 碰碰胡 (big_single_wait)"


def test_no_spelling_names_two_patterns_of_a_builtin_ruleset():
    from mjcalc.ruleset import builtin_rulesets
    words = {s for t in glossary.terms() for s in t.spellings + t.patterns}
    for rules in builtin_rulesets():
        words |= {w for p in rules.patterns for w in (p.id, p.zh, p.en)}
    ambiguous = [(rules.id, w) for rules in builtin_rulesets() for w in sorted(words)
                 if len(glossary.patterns_named(w, rules.patterns)) > 1]
    assert ambiguous == []


def test_an_unknown_pattern_gets_the_name_it_is_one_character_from():
    with pytest.raises(LedgerError) as info:
        find_pattern(load_ruleset("beijing"), "七队")
    assert str(info.value) == "--patterns: beijing has no pattern '七队' (did you mean '七对子'?)"
    with pytest.raises(LedgerError) as info:
        find_pattern(load_ruleset("beijing"), "duiduhe")
    assert str(info.value) == "--patterns: beijing has no pattern 'duiduhe' (did you mean '对对和'?)"


# --- the prompt: a word is said as a word, with the prompt's word it is near --------------------------------------

def play(tmp_path, lines):
    db = str(tmp_path / "p.sqlite3")
    assert run("table", "new", "p", *SEATS, "--db", db).exit_code == 0
    result = run("table", "play", "p", "--db", db, input="".join(line + "\n" for line in lines) + "quit\n")
    shown = json.loads(run("table", "show", "p", "--json", "--db", db).stdout)
    return result, shown


def errors(result):
    return [line for line in result.output.splitlines() if line.startswith("Error: ")]


def test_the_prompt_says_did_you_mean_for_its_own_words(tmp_path):
    result, shown = play(tmp_path, ["小李 自模 对对和", "小李 老玉 3", "小李 zimu 3", "undoo"])
    assert errors(result) == [
        "Error: '自模' is not a player, 自摸, a pattern of beijing or tiles (did you mean '自摸'?)",
        "Error: '老玉' is not a player, 自摸, a pattern of beijing or tiles (did you mean '老王'?)",
        "Error: 'zimu' is not a player, 自摸, a pattern of beijing or tiles (did you mean 'zimo'?)",
        "Error: 'undoo' is not a player or a command (did you mean 'undo'?)",
    ]
    assert shown["hands"] == []


def test_the_prompt_reads_pattern_words_and_tiles_and_says_an_unknown_pattern_as_one(tmp_path):
    result, shown = play(tmp_path, ["小李 自摸 duiduihe", "小李 老王 七对", "小李 自摸 duiduhe",
                                    "小李 自摸 123m456p789s234s5m +5x", "小李 自摸 123m456p789s234s5m +5m"])
    assert errors(result) == [
        "Error: --patterns: beijing has no pattern 'duiduhe' (did you mean '对对和'?)",
        "Error: unknown suit letter 'x' after '5' (suits are m p s z, or 万 筒 条) at column 22 in "
        "\"123m456p789s234s5m +5x\"",  # tiles still get the notation's own words
    ]
    assert [h["entry"] for h in shown["hands"]] == ["patterns", "patterns", "tiles"]


def test_closest_finds_a_one_character_typo_only_when_it_is_the_only_one():
    assert glossary.closest("自模", ["自摸", "zimo", "老王", "小李"]) == "自摸"
    assert glossary.closest("小张", ["小李", "小王"]) == ""  # two names one character away: no guess
    assert Message("hint.did_you_mean", word="自摸").text() == " (did you mean '自摸'?)"


# --- the command line: an unknown option gets click's near misses -------------------------------------------------

@pytest.mark.parametrize("args, line", [
    (["analyze", "123m456p789s EE 45m", "--form", "S"], "no such option --form (did you mean --from or --flown?)"),
    (["compare", "123m456p789s EE 45m +6m", "--form", "S"], "no such option --form (did you mean --from or --flown?)"),
    (["table", "hand", "--winer", "小李"], "no such option --winer (did you mean --winner or --bidder or --wild?)"),
    # nothing near: a hand or a value that starts with '-' is told to come after --
    (["analyze", "-5m"], "no such option -5m (a hand or a value that starts with '-' goes after --, e.g. mjcalc "
                         "analyze -- '-5m')"),
])
def test_an_unknown_option_says_the_options_it_is_near(args, line):
    result = run(*args)
    assert result.exit_code == 2 and error_line(result) == line
