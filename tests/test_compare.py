"""`mjcalc compare`: one hand under several rulesets, side by side."""
import json

from wcwidth import wcswidth

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.ruleset import builtin_rulesets


def run(*args):
    result = CliRunner().invoke(cli, ["compare", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_a_hand_legal_in_one_ruleset_and_not_another_shows_both_verdicts_with_reasons(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # wide enough for one line a row
    result = run("123m456p789s EE 45m +6m", "--from", "S", "-r", "beijing", "-r", "shangrao")
    assert result.exit_code == 0, result.output
    (legal,) = [line for line in result.output.splitlines() if line.startswith("legal")]
    assert legal.split()[1] == "yes"
    assert "no: shangrao allows no discard wins: this hand must be self-drawn" in legal
    data = json.loads(run("123m456p789s EE 45m +6m", "--from", "S", "-r", "beijing", "-r", "shangrao",
                          "--json").output)
    assert [(d["ruleset"], d["legal"]) for d in data] == [("beijing", True), ("shangrao", False)]
    assert data[0]["reason"] is None and "self-drawn" in data[1]["reason"]
    assert sum(data[0]["payouts"].values()) == 0 and data[1]["payouts"] is None


def test_exposed_meld_on_a_discard_is_refused_by_beijing_with_its_reason():
    data = json.loads(run("[123m] 456p789s EE 45m +6m", "--from", "S", "-r", "beijing", "-r", "zhuji",
                          "--json").output)
    beijing = data[0]
    assert not beijing["legal"] and beijing["reason"].startswith("吃碰堤")


def test_default_is_every_builtin_ruleset_one_column_each():
    data = json.loads(run("123m456p789s EE 45m +6m", "--json").output)
    assert [d["ruleset"] for d in data] == [r.id for r in builtin_rulesets()]
    # the twelve built-in rulesets, in name order; glossary.yaml sits next to them and is not one
    assert [d["ruleset"] for d in data] == ["beijing", "beijing-classic", "beijing-doubling", "beijing-hunr",
                                            "beijing-money", "guangdong", "guobiao", "hangzhou", "hongzhong",
                                            "shangrao", "sichuan", "zhuji"]
    # all legal but hongzhong's and sichuan's: no winds in their 112 and 108 tiles (guangdong's is 自摸 and 门清, 2
    # 番, and with no ghost 4 points: its least; guobiao's 花龙 8, 不求人 4 and 喜相逢 1)
    assert [d["ruleset"] for d in data if not d.get("legal")] == ["hongzhong", "sichuan"]
    text = run("123m456p789s EE 45m +6m").output
    # at 80 columns twelve rulesets do not fit in one table: the table is split, each part repeating the labels,
    # and no label or ruleset name is cut in two
    ids = {r.id for r in builtin_rulesets()}
    headers = [line for line in text.splitlines() if line.split() and set(line.split()) <= ids]
    assert all(any(r.id in line.split() for line in headers) for r in builtin_rulesets())
    assert all(len(line) <= 80 for line in text.splitlines())
    rows = [line.split()[0] for line in text.splitlines()[4:] if line.strip()]
    for row in ("legal", "best", "patterns", "total", "E", "S", "W", "N"):
        assert row in rows


def test_options_a_ruleset_does_not_use_are_a_footnote_not_an_error():
    result = run("123m456p789s EE 45m +6m", "-r", "beijing", "-r", "zhuji", "--mutual", "S", "--bid", "2", "--bidder", "S", "--wild", "5m")
    assert result.exit_code == 0, result.output
    assert "note: --mutual is not used by zhuji (ignored there)" in result.output
    assert "note: --bid is not used by beijing (ignored there)" in result.output
    assert "note: --bidder is not used by beijing (ignored there)" in result.output


def test_thirteen_tiles_show_each_rulesets_waits_and_whether_each_is_legal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # wide enough for one line a row
    result = run("123m456p789s EE 45m", "--from", "S", "-r", "beijing", "-r", "shangrao")
    waits = [line for line in result.output.splitlines() if "left" in line]
    assert len(waits) == 2  # 3m and 6m
    assert all("番" in line and "no: shangrao allows no discard wins" in line for line in waits)
    data = json.loads(run("123m456p789s EE 45m", "-r", "beijing", "--json").output)
    assert [(w["tile"], w["left"], w["legal"]) for w in data[0]["waits"]] == [("3m", 3, True), ("6m", 4, True)]


def test_glyphs_and_english():
    result = run("123m456p789s EE 45m +6m", "-r", "beijing", "--glyphs", "--lang", "en")
    assert "\U0001F007\U0001F008\U0001F009" in result.output  # 123m
    assert "Beijing" in result.output and "fan" in result.output


def test_no_colour_when_piped():
    result = CliRunner().invoke(cli, ["compare", "123m456p789s EE 45m +6m", "-r", "beijing"], color=False)
    assert "\x1b[" not in result.output


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    colored = CliRunner().invoke(cli, ["compare", "123m456p789s EE 45m +6m", "-r", "beijing"], color=True)
    assert "\x1b[32myes" in colored.output
    monkeypatch.setenv("NO_COLOR", "1")
    plain = CliRunner().invoke(cli, ["compare", "123m456p789s EE 45m +6m", "-r", "beijing"], color=True)
    assert "\x1b[" not in plain.output


@pytest.mark.parametrize("args, message", [
    (["123m456p789s EE 45m +6m", "-r", "nosuch"], "Error: "),
    (["123m456p789s EE 4m +6m"], "Error: 13 tiles with a '+' winning tile"),
])
def test_errors_are_one_line_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1


@pytest.mark.parametrize("columns", [80, 60])
def test_compare_of_every_ruleset_fits_the_terminal(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    result = run("123m456p789s EE 45m +6m", "--from", "S")
    assert result.exit_code == 0
    assert max(wcswidth(line) for line in result.output.splitlines()) <= columns
    assert "discard" in result.output and "self-" in result.output  # the reason, wrapped, not cut


def test_rulesets_may_be_given_in_one_list():
    listed = json.loads(run("123m456p789s EE 45m +6m", "-r", "guobiao,beijing", "--json").output)
    repeated = json.loads(run("123m456p789s EE 45m +6m", "-r", "guobiao", "-r", "beijing", "--json").output)
    assert [d["ruleset"] for d in listed] == ["guobiao", "beijing"] and listed == repeated


def test_a_hand_one_ruleset_refuses_is_that_columns_answer_not_the_comparisons():
    """A chow claimed is refused by 广东 (no chow is claimed there, MIL 2023) and scored by 国标 and beijing: the
    comparison shows all three, the refusal in 广东's column."""
    data = json.loads(run("[123m] 456p789s EE 45m +6m", "-r", "guobiao,guangdong,beijing", "--json").output)
    verdicts = {d["ruleset"]: (d.get("legal"), d.get("error")) for d in data}
    assert verdicts["guobiao"] == (True, None) and verdicts["beijing"] == (True, None)
    assert verdicts["guangdong"] == (None, "hand: [123m]: no chow is claimed in this ruleset (only pungs and kongs)")


@pytest.mark.parametrize("args, message", [
    (["[123m] 456p789s EE 45m +6m", "-r", "guangdong"],  # the one ruleset refuses it: the comparison's refusal
     "Error: hand: [123m]: no chow is claimed in this ruleset (only pungs and kongs)\n"),
    (["123m456p789s EE 45m +6m", "--kong-draw"],  # no table deals it: said once, not in every column
     "Error: --kong-draw: 1 kong replacement draw in a row, but the hand has no kongs\n"),
])
def test_a_hand_no_ruleset_takes_is_refused_in_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2 and result.output == message


def test_a_first_turn_win_no_ruleset_scores_is_a_footnote():
    said = run("123m456p789s EE 45m +6m", "-r", "guobiao,beijing", "--first-turn").output
    assert "note: --first-turn is not used by guobiao (ignored there)" in said
