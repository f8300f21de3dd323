"""The language the command line says its messages in: English, unless `--lang zh` is typed or MJCALC_LANG=zh is
set (a `--lang` left at its default chooses pattern names only); the exit codes are the same in every language.
(The API's error answers: tests/test_serve.py.)"""
import json

import pytest
from click.testing import CliRunner

from mjcalc import messages
from mjcalc.cli import cli
from mjcalc.errors import SituationError
from mjcalc.flags import flagged

HAND = "123m456p789s EE 45m +6m"
EN_SUIT = "unknown suit letter 'x' after '12' (suits are m p s z, or 万 筒 条) at column 3 in \"12x\""
ZH_SUIT = "'12' 后面的花色字母 'x' 不认识（花色是 m p s z，或 万 筒 条）（\"12x\" 第 3 列）"


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def error_of(result):
    """(exit code, the text of the one `Error: …` line)."""
    last = result.stderr.splitlines()[-1]
    assert last.startswith("Error: "), result.stderr
    return result.exit_code, last[len("Error: "):]


def test_the_chinese_text_exists():
    assert messages.text("notation.unknown_suit", {"letter": "x", "written": "12", "at": messages.Message(
        "notation.at", column=3, text="12x")}, "zh") == ZH_SUIT


def test_english_by_default_though_lang_defaults_to_zh_for_pattern_names():
    assert error_of(run("analyze", "12x")) == (2, EN_SUIT)
    names = [p["name"] for p in json.loads(run("analyze", HAND, "--json").stdout)["patterns"]]
    assert "推倒和" in names  # the default --lang still names the patterns in Chinese


@pytest.mark.parametrize("args", [["--lang", "zh"], ["--lang=zh"]])
def test_a_typed_lang_zh_says_the_error_in_chinese_with_the_same_exit_code(args):
    assert error_of(run("analyze", "12x", *args)) == (2, ZH_SUIT)
    assert error_of(run("analyze", *args, "--", "12x")) == (2, ZH_SUIT)


def test_mjcalc_lang_zh_says_the_error_in_chinese(monkeypatch):
    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert error_of(run("analyze", "12x")) == (2, ZH_SUIT)
    assert error_of(run("waits", "12x")) == (2, ZH_SUIT)  # a command without --lang


def test_a_typed_lang_en_wins_over_mjcalc_lang(monkeypatch):
    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert error_of(run("analyze", "12x", "--lang", "en")) == (2, EN_SUIT)


def test_json_errors_are_said_in_the_same_language():
    result = run("analyze", "12x", "--lang", "zh", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout) == {"error": ZH_SUIT, "exit": 2}


def test_a_situation_field_is_named_by_its_flag_in_chinese_too():
    result = run("analyze", HAND, "--seat", "X", "--lang", "zh")
    assert error_of(result) == (2, "--seat: 座位应是 E、S、W 或 N（东 南 西 北），不是 'X'")
    error = SituationError("seat.expected", field="seat", value="'X'")
    assert flagged(error) == "--seat: expected a seat E, S, W or N (东 南 西 北), got 'X'"
    assert flagged(error, "zh") == "--seat: 座位应是 E、S、W 或 N（东 南 西 北），不是 'X'"


def test_a_message_without_a_chinese_text_is_said_in_english(monkeypatch):
    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert error_of(run("waits")) == (2, "give a HAND or --batch FILE (one of them)")
    assert error_of(run("advise", "1112345678999m", "--by", "win", "--lang", "zh")) == (
        2, "--by: the value of discards needs a 14-tile hand; this one has 13")


def test_the_commands_own_errors_and_warnings_follow_the_language(monkeypatch):
    """A refusal made by a command (`UserError`), and a warning beside an answer, are said in Chinese where
    the message has a Chinese text."""
    from mjcalc.analysis import analyze
    from mjcalc.cli.common import build_situation
    from mjcalc.notation import parse_hand
    from mjcalc.ruleset import load_ruleset

    monkeypatch.setitem(messages.ZH, "cli.hand_or_batch", "给一手牌 HAND 或 --batch FILE（二选一）")
    assert error_of(run("waits")) == (2, "give a HAND or --batch FILE (one of them)")
    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert error_of(run("waits")) == (2, "给一手牌 HAND 或 --batch FILE（二选一）")

    unused = analyze(parse_hand(HAND), load_ruleset("beijing"), build_situation({"bid": "2"}), None).warnings[-1]
    assert unused.field == "bid" and unused.code in messages.EN
    monkeypatch.setitem(messages.ZH, unused.code, "{ruleset} 不用它，已忽略")
    result = run("analyze", HAND, "--bid", "2")
    assert result.exit_code == 0 and "warning: --bid: 北京麻将 不用它，已忽略" in result.stderr.splitlines()
    result = run("analyze", HAND, "--bid", "2", "--lang", "en")
    assert "warning: --bid is not used by beijing; ignored" in result.stderr.splitlines()


def test_a_usage_error_keeps_its_exit_code_in_every_language(monkeypatch):
    english = run("analyze", HAND, "--kong-draw", "x")
    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert run("analyze", HAND, "--kong-draw", "x").exit_code == english.exit_code == 2


def test_message_lang():
    assert messages.message_lang() == "en"
    assert messages.message_lang("zh") == "zh"
