"""Situations no table could produce are refused in the library, against the hand, with one line (exit 2) by
every front end: analyze, compare, advise and table hand. Rules that override an option, and caps that cut a
total, say so."""
import json

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.cli import cli

PLAIN = "123m456p789s EE 45m +6m"
# (hand, ruleset, options, the message after "Error: "), each impossible for the reason its id says
IMPOSSIBLE = [
    pytest.param(PLAIN, "beijing", ["--seat", "S", "--kong-draw", "1"],
                 "--kong-draw: 1 kong replacement draw in a row, but the hand has no kongs", id="kong-draw-no-kong"),
    pytest.param("[1111m] 456p 789s 11s 23m +4m", "shangrao", ["--kong-draw", "3", "--wild", "9p"],
                 "--kong-draw: 3 kong replacement draws in a row, but the hand has 1 kong", id="three-draws-one-kong"),
    pytest.param("123m 456p 789s 11s 9p 3m +4m", "shangrao", ["--wild", "9p", "--flown", "4"],
                 "--flown: the hand holds 1 宝 (9p) and 4 were flown: there are only 4", id="fifth-bao-flown"),
    pytest.param("123m 456p 789s 11s 9p 3m +4m", "shangrao",
                 ["--wild", "9p", "--flown-by", "N=2", "--flown-by", "W=2"],
                 "--flown-by: the hand holds 1 宝 (9p) and 4 were flown: there are only 4", id="fifth-bao-across-seats"),
    pytest.param("123m 456p 789s 11s 23m +4m", "shangrao", ["--wild", "9p", "--four-wild"],
                 "--four-wild: the winner drew all four 宝, but holds 0 and flew 0", id="four-wild-without-bao"),
    pytest.param("123m 456p 789s 234s E +E", "beijing", ["--seat", "S", "--rob-kong", "--from", "W"],
                 "--rob-kong: the robbed kong is of E, whose other three copies the konger held, but the winner "
                 "holds 1 more E", id="rob-a-kong-held-again"),
    pytest.param("[123m] 456p 789s EE 45m +6m", "beijing", ["--seat", "S", "--first-turn"],
                 "--first-turn: a first-turn win has made no call, but the hand has an exposed meld",
                 id="first-turn-with-a-call"),
]


def command_args(command, hand, ruleset, options):
    return [command, hand, "-r", ruleset, *options]


@pytest.mark.parametrize("command", ["analyze", "compare", "advise"])
@pytest.mark.parametrize("hand, ruleset, options, message", IMPOSSIBLE)
def test_every_command_refuses_an_impossible_situation(command, hand, ruleset, options, message):
    result = CliRunner().invoke(cli, command_args(command, hand, ruleset, options))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {message}\n"


@pytest.mark.parametrize("hand, ruleset, options, message", IMPOSSIBLE)
def test_table_hand_refuses_an_impossible_situation(tmp_path, hand, ruleset, options, message):
    db = str(tmp_path / "t.sqlite3")
    runner = CliRunner()
    new = runner.invoke(cli, ["table", "new", "t", "-r", ruleset, "--seat", "E=a", "--seat", "S=b", "--seat", "W=c",
                              "--seat", "N=d", "--db", db])
    assert new.exit_code == 0, new.output
    options = [o for o in options]
    if "--seat" in options:
        i = options.index("--seat")
        options[i] = "--winner"
    else:
        options = ["--winner", "E"] + options
    result = runner.invoke(cli, ["table", "hand", "t", hand, *options, "--db", db])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {message}\n"
    shown = json.loads(runner.invoke(cli, ["table", "show", "t", "--json", "--db", db]).stdout)
    assert shown["hands"] == []  # nothing recorded


def test_the_library_refuses_with_the_words_of_the_game():
    rules = mjcalc.load_ruleset("beijing")
    with pytest.raises(mjcalc.SituationError) as info:
        mjcalc.analyze(mjcalc.parse_hand(PLAIN), rules, mjcalc.Situation(seat="S", kong_draw=1))
    assert str(info.value) == "kong_draw: 1 kong replacement draw in a row, but the hand has no kongs"
    with pytest.raises(mjcalc.SituationError, match="expected a seat E, S, W or N"):
        mjcalc.Situation(seat="X")


def test_four_hui_on_a_discard_says_it_is_paid_as_a_self_draw():
    # 四惠牌 wins whatever the shape and is paid as a self-draw (the ruleset's stated choice): 8 番 + 门清无惠?
    # No: holding 惠 tiles spoils 门清无惠. 四惠牌 8 番 self-drawn by S: each other pays 8.
    out = CliRunner().invoke(cli, ["analyze", "2m2m2m2m 147p 258s E S W +N", "--wild", "2m", "--seat", "S",
                                   "--from", "W", "--json"])
    data = json.loads(out.stdout)
    assert data["payouts"] == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert any("paid as a self-draw" in w for w in data["warnings"])
    assert "warning: --from: 四惠牌 wins whatever the shape and is paid as a self-draw" in out.stderr


def test_a_capped_total_says_so():
    # beijing-money: 清一色 5 + 门清 1 + 一条龙 3 = 9 番, capped at 6
    out = CliRunner().invoke(cli, ["analyze", "123456789m 111m 9m +9m", "-r", "beijing-money", "--seat", "S",
                                   "--json"])
    data = json.loads(out.stdout)
    assert data["total"] == 6
    assert any("add up to 9 番; beijing-money caps a hand at 6" in w for w in data["warnings"])


def test_glyphs_print_a_concealed_kong_in_braces():
    out = CliRunner().invoke(cli, ["analyze", "{1111m} 456p 789s 11s 23m +4m", "--glyphs", "--seat", "S"])
    assert "{\U0001F007\U0001F007\U0001F007\U0001F007}" in out.stdout
