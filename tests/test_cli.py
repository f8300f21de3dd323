"""The command line through Click's runner: errors, exit codes, JSON, batches, the version."""
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import notation_hands
from mjcalc import __version__
from mjcalc.cli import cli
from mjcalc.notation import format_hand

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTRACT = {"ruleset", "hand", "tiles", "winning_tile", "wildcards", "complete", "legal", "reason", "decomposition",
            "wild_as", "decompositions", "patterns", "total", "payouts", "waits"}


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def error_line(result):
    """The one `Error: …` line of a failed command (Click's usage errors print usage lines before it)."""
    lines = result.stderr.splitlines()
    assert lines and lines[-1].startswith("Error: "), result.stderr
    assert result.stdout == ""
    return lines[-1]


# --- errors: one line, exit code 2 -----------------------------------------------------------------------------

ERRORS = [
    pytest.param(["analyze", "123"],
                 "Error: digits '123' without a suit letter (m, p, s or z) at column 1 in \"123\"", id="digits"),
    pytest.param(["analyze", "123m456p789s EE 4m"],
                 "Error: 12 tiles: 123m 456p 789s EE 4m — a hand has 13 (to find waits) or 14 (to score)",
                 id="too_few"),
    pytest.param(["analyze", "11111m 456p 789s EE"], "Error: 5 copies of 1m: there are only 4 of each tile",
                 id="fifth_copy"),
    pytest.param(["analyze", "123m456p789s EE 45m +6m +7m"],
                 "Error: more than one '+' (one winning tile per hand) at column 25 in \"123m456p789s EE 45m +6m +7m\"",
                 id="two_plus"),
    pytest.param(["analyze", ""], "Error: empty hand: write tiles like 123m456p789s EE 45m +6m", id="empty"),
    pytest.param(["analyze", "4\n56p"],
                 "Error: digits '4' without a suit letter (m, p, s or z) at column 1 in \"4\\n56p\"", id="newline"),
    pytest.param(["analyze", "1m" * 101], "Error: input too long: 202 characters (a hand is at most 200)",
                 id="too_long"),
    pytest.param(["waits", "123m [456p"], "Error: unclosed '[' at column 6 in \"123m [456p\"", id="waits_notation"),
    pytest.param(["waits", "123m456p789s EE 45m +6m"], "Error: 14 tiles: waits need a 13-tile hand",
                 id="waits_14_tiles"),
    pytest.param(["waits"], "Error: give a HAND or --batch FILE (one of them)", id="waits_nothing"),
    pytest.param(["analyze"], "Error: Missing argument 'HAND' (see mjcalc analyze --help)", id="missing_hand"),
    pytest.param(["analyze", "1112345678999m", "--seat", "S", "--from", "S"],
                 "Error: --from: S is the winner's own seat: a player cannot win on his own discard",
                 id="own_discard"),
    # a chow is claimed only from 上家, the player before the winner (E's is N); a fresh pair of eyes found W taken
    pytest.param(["analyze", "[123m]W 456p789s EE 45m +6m", "-r", "guobiao"],
                 "Error: hand: [123m]W: a chow is claimed only from the player before the winner (N), not from W",
                 id="chow_not_from_left"),
    pytest.param(["analyze", "1112345678999m", "--wild", "Q"],
                 "Error: --wild: unknown character 'Q' at column 1 in \"Q\"", id="bad_wild"),
    pytest.param(["analyze", "1112345678999m", "--base", "0"], "Error: --base: must be from 1 to 1000000, got 0",
                 id="base_zero"),
    pytest.param(["analyze", "1112345678999m", "-r", "nosuch"],
                 "Error: unknown ruleset 'nosuch'; built-in: ", id="unknown_ruleset"),
]


@pytest.mark.parametrize("args, line", ERRORS)
def test_errors_are_one_line_and_exit_2(args, line):
    result = run(*args)
    assert result.exit_code == 2
    got = error_line(result)
    if line.endswith(": "):  # the list of built-in rulesets grows; its start is the contract
        assert got.startswith(line)
    else:
        assert got == line
    if not args[-1].startswith("-") and len(args) > 1 and args[0] in ("analyze", "waits") and "Missing" not in line:
        assert result.stderr == got + "\n", "mjcalc's own errors print nothing but the one line"


def test_unknown_option_and_command_are_usage_errors():
    assert run("analyze", "1112345678999m", "--nosuch").exit_code == 2
    assert run("bogus").exit_code == 2
    assert error_line(run("bogus")) == "Error: No such command 'bogus' (see mjcalc --help)"


# --- analyze ---------------------------------------------------------------------------------------------------

def analyze_json(*args):
    result = run("analyze", *args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert CONTRACT <= set(data), CONTRACT - set(data)
    return data


def test_beijing_worked_example():
    """rules-beijing.md: dealer E self-draws 庄 1 + 对对和 2 = 3 番 at 底分 2000 with one round of 烧庄.

    Hand part: E +3·3·2000 = 18000, others −6000 each; 烧庄: E −3·2000, others +2000 each."""
    data = analyze_json("[111m] 222p 333s EEE 9m +9m", "--shaozhuang", "1", "--base", "2000")
    assert data["payouts"] == {"E": 12000, "S": -4000, "W": -4000, "N": -4000}
    assert data["total"] == 3
    assert sorted(p["id"] for p in data["patterns"]) == ["all_pungs", "dealer"]
    assert {p["id"]: p["value"] for p in data["patterns"]} == {"dealer": 1, "all_pungs": 2}
    assert all({"id", "name", "value"} <= set(p) for p in data["patterns"])
    assert data["ruleset"] == "beijing"
    assert data["hand"] == "9m 222p 333s EEE [111m] +9m"
    assert data["tiles"] == 14 and data["winning_tile"] == "9m"
    assert data["complete"] is True and data["legal"] is True and data["reason"] is None
    assert data["wildcards"] == [] and data["wild_as"] == []
    assert data["decompositions"] == 1
    assert sorted(data["decomposition"]) == sorted(["99m", "222p", "333s", "EEE", "[111m]"])
    assert data["waits"] == []


def test_beijing_worked_example_as_a_table():
    result = run("analyze", "[111m] 222p 333s EEE 9m +9m", "--shaozhuang", "1", "--base", "2000")
    assert result.exit_code == 0 and result.stderr == ""
    rows = {line.split()[0]: line.split()[-1] for line in result.stdout.splitlines() if line[:2] in ("E ", "S ", "W ", "N ")}
    assert rows == {"E": "12000", "S": "-4000", "W": "-4000", "N": "-4000"}


def test_plain_win_self_drawn_and_on_a_discard():
    # 推倒和 1 + 庄 1 + 门清无惠 1 = 3 番: self-drawn E +9, others −3; on S's discard E +3, S −3
    drawn = analyze_json("123m456p789s EE 45m +6m")
    assert drawn["total"] == 3
    assert drawn["payouts"] == {"E": 9, "S": -3, "W": -3, "N": -3}
    assert sorted(p["id"] for p in drawn["patterns"]) == ["concealed_no_wild", "dealer", "tuidaohe"]
    discard = analyze_json("123m456p789s EE 45m +6m", "--from", "S")
    assert discard["payouts"] == {"E": 3, "S": -3, "W": 0, "N": 0}


def test_exposed_hand_on_a_discard_is_not_legal():
    data = analyze_json("[111m] 222p 333s EEE 9m +9m", "--from", "S")
    assert data["complete"] is True and data["legal"] is False
    assert "吃碰堤" in data["reason"] and "\n" not in data["reason"]


def test_not_a_winning_shape():
    data = analyze_json("123m456p789s EE 45m +7m")
    assert data["complete"] is False and data["legal"] is False and data["reason"]
    assert data["decompositions"] == 0


def test_thirteen_tiles_json_has_waits():
    # wild 5m: the 5m held is a wildcard; 1234m+*+x with EE -> 1m..6m; EEE and 123m 4*: E (see test_decompose)
    data = analyze_json("123m456p789s EE 45m", "--wild", "5m")
    assert data["tiles"] == 13 and data["winning_tile"] is None
    assert data["wildcards"] == ["5m"]
    assert [w["tile"] for w in data["waits"]] == ["1m", "2m", "3m", "4m", "5m", "6m", "E"]
    assert [w["left"] for w in data["waits"]] == [3, 3, 3, 3, 3, 4, 2]
    for w in data["waits"]:
        assert {"tile", "left", "legal", "total"} <= set(w)


def test_the_last_tile_is_the_winning_tile_and_the_output_says_so():
    result = run("analyze", "123m456p789s EE 46m 5m")
    assert result.exit_code == 0
    assert "last tile" in result.stdout
    assert analyze_json("123m456p789s EE 46m 5m")["winning_tile"] == "5m"


# --- waits -----------------------------------------------------------------------------------------------------

def test_waits_json():
    result = run("waits", "123m456p789s EE 45m", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["hand"] == "12345m 456p 789s EE"
    assert [{"tile": w["tile"], "left": w["left"]} for w in data["waits"]] == [{"tile": "3m", "left": 3},
                                                                              {"tile": "6m", "left": 4}]


def test_waits_json_is_the_same_object_as_a_batch_line():
    single = run("waits", "123m456p789s EE 45m", "--json")
    batch = run("waits", "--batch", "-", "--json", input="123m456p789s EE 45m\n")
    assert json.loads(single.stdout) == json.loads(batch.stdout)


def test_waits_table_nine_gates():
    result = run("waits", "1112345678999m")
    assert result.exit_code == 0
    waits = [line.split() for line in result.stdout.splitlines()[2:]]
    assert waits == [["1m", "1"]] + [[f"{r}m", "3"] for r in range(2, 9)] + [["9m", "1"]]


def test_no_waits_is_not_an_error():
    result = run("waits", "1111m 456p 789s EEE")
    assert result.exit_code == 0 and result.stderr == ""


def test_lone_wildcard_says_every_tile_in_words():
    result = run("waits", "[111m] [222p] [333s] [EEE] 5p", "--wild", "5p")
    assert result.exit_code == 0
    assert "every tile" in result.stdout


BATCH = ["1112345678999m", "123", "123m456p789s EE 45m", "1111m 456p 789s EEE", "123m456p789s EE 45m +6m",
         "[111m] 222p 333s EEE 9m"]
PLAIN = ["1m 2m 3m 4m 5m 6m 7m 8m 9m",
         "error: digits '123' without a suit letter (m, p, s or z) at column 1 in \"123\"",
         "3m 6m",
         "-",  # not ready: no waits (README)
         "error: 14 tiles: waits need a 13-tile hand",
         "9m"]


def test_batch_plain(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(BATCH) + "\n", encoding="utf-8")
    result = run("waits", "--batch", str(path))
    assert result.exit_code == 1
    assert result.stdout.split("\n") == PLAIN + [""]


def test_batch_from_stdin_json():
    result = run("waits", "--batch", "-", "--json", input="\n".join(BATCH) + "\n")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == len(BATCH)
    assert lines[1] == {"line": 2, "error": "digits '123' without a suit letter (m, p, s or z) at column 1 in \"123\""}
    assert lines[4] == {"line": 5, "error": "14 tiles: waits need a 13-tile hand"}
    assert lines[2] == {"hand": "12345m 456p 789s EE", "waits": [{"tile": "3m", "left": 3}, {"tile": "6m", "left": 4}]}
    assert lines[3] == {"hand": "1111m 456p 789s EEE", "waits": []}
    assert lines[5] == {"hand": "9m 222p 333s EEE [111m]", "waits": [{"tile": "9m", "left": 3}]}
    assert [w["tile"] for w in lines[0]["waits"]] == [f"{r}m" for r in range(1, 10)]


def test_batch_all_good_exits_0():
    result = run("waits", "--batch", "-", input="1112345678999m\r\n123m456p789s EE 45m\n")
    assert result.exit_code == 0
    assert result.stdout == "1m 2m 3m 4m 5m 6m 7m 8m 9m\n3m 6m\n"


def test_batch_missing_file():
    result = run("waits", "--batch", "/nonexistent/hands.txt")
    assert result.exit_code == 2
    assert error_line(result).startswith("Error: ")


# --- version ---------------------------------------------------------------------------------------------------

def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"mjcalc, version {__version__}\n"


def test_python_m_version():
    done = subprocess.run([sys.executable, "-m", "mjcalc", "--version"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout == f"mjcalc, version {__version__}\n"


# --- no traceback, whatever the hand ---------------------------------------------------------------------------

ALPHABET = list("0123456789mpszESWNCFPe*+[]{} ") + list("一五九万筒饼条索东中發") + ["\U0001F000", "\U0001F02A"]


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(alphabet=ALPHABET, max_size=30), st.text(max_size=20)),
       st.sampled_from([[], ["--wild", "5m"], ["--json"]]))
def test_random_hand_text_never_gives_a_traceback(text, options):
    result = CliRunner().invoke(cli, ["analyze", *options, "--", text])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        if "--json" in options:  # the error, also as JSON on stdout
            error = json.loads(result.stdout)
            assert error["exit"] == 2 and result.stderr == f"Error: {error['error']}\n"
        else:
            assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=ALPHABET, max_size=20), min_size=1, max_size=6))
def test_random_batch_answers_every_line(lines):
    lines = [line.replace("\r", "") for line in lines]
    result = CliRunner().invoke(cli, ["waits", "--batch", "-", "--json"], input="".join(f"{x}\n" for x in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    out = result.stdout.split("\n")
    assert out.pop() == "" and len(out) == len(lines)
    bad = [json.loads(o) for o in out if "error" in json.loads(o)]
    assert result.exit_code == (1 if bad else 0)
    assert all(b["line"] >= 1 for b in bad)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(notation_hands(), st.sampled_from([[], ["--wild", "5m"], ["--from", "S"], ["--wild", "E", "--from", "N"]]))
def test_valid_hands_answer_with_the_contract(hand, options):
    result = CliRunner().invoke(cli, ["analyze", *options, "--json", "--", format_hand(hand)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:  # e.g. a wildcard face that makes a fifth copy: one line, and the error as JSON
        assert len(result.stderr.splitlines()) == 1
        assert json.loads(result.stdout) == {"error": result.stderr[len("Error: "):-1], "exit": 2}
        return
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert CONTRACT <= set(data)
    assert data["hand"] == format_hand(hand) and data["tiles"] == hand.size
    if data["payouts"] is not None:
        assert sum(data["payouts"].values()) == 0
        assert set(data["payouts"]) == {"E", "S", "W", "N"}
