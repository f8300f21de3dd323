"""A script fed to `table play`, and Ctrl-C (issue 34, items 8 and 9): one prompt session is one client of the
ledger, so its own line said again is recorded (two 荒牌 are two draws, and the next win pays ×4 under beijing's
上楼); a line that fails makes the exit 1 at the end and the lines after it are still done; a piped `undo`
removes the hand without reading the next line as its answer. Ctrl-C while mjcalc is still importing is one line
and exit 130, never a traceback; once a write has answered, Ctrl-C leaves the exit 0."""
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]


def run(*args, db, input=None):
    result = CliRunner().invoke(cli, [*args, "--db", str(db)], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "t.sqlite3"
    assert run("table", "new", "t", *SEATS, db=path).exit_code == 0
    return path


def play(db, *lines):
    return run("table", "play", "t", db=db, input="".join(line + "\n" for line in lines))


def shown(db):
    return json.loads(run("table", "show", "t", "--json", db=db).stdout)


def scores(db):
    return {s["player"]: s["score"] for s in shown(db)["standings"]}


def errors(result):
    return [line for line in result.output.splitlines() if line.startswith("Error: ")]


# --- 8: one session, one client ----------------------------------------------------------------------------


@pytest.mark.parametrize("draw", ["荒牌", "draw"])
def test_two_draws_in_a_row_are_two_draws_and_the_next_win_pays_four_times(db, draw):
    result = play(db, draw, draw, "小李 老王 3")
    assert result.exit_code == 0 and errors(result) == [], result.output
    hands = shown(db)["hands"]
    assert [h["kind"] for h in hands] == ["draw", "draw", "win"]
    assert [h["factor"] for h in hands] == [1, 2, 4]  # beijing: 荒牌 上楼, two levels
    assert hands[2]["payouts"] == {"E": -12, "S": 12, "W": 0, "N": 0}  # 3 番 × 4
    assert scores(db) == {"老王": -12, "小李": 12, "阿张": 0, "大刘": 0}


def test_the_same_hand_said_twice_by_the_session_is_two_hands(db):
    result = play(db, "小李 老王 3", "小李 老王 3")
    assert result.exit_code == 0 and errors(result) == [], result.output
    assert len(shown(db)["hands"]) == 2


def test_a_hand_another_client_just_recorded_is_refused_in_a_script_and_the_exit_is_1(db):
    assert run("table", "hand", "t", "--fan", "3", "--winner", "小李", "--from", "老王", db=db).exit_code == 0
    result = play(db, "小李 老王 3", "阿张 自摸 2")
    assert result.exit_code == 1, result.output
    assert len(errors(result)) == 1 and "the same" in errors(result)[0]
    hands = shown(db)["hands"]
    assert [(h["winner_player"], h["total"]) for h in hands] == [("小李", 3), ("阿张", 2)]  # the line after: done


def test_a_line_that_fails_makes_the_exit_1_and_the_script_goes_on(db):
    result = play(db, "小张 老王 3", "小李 老王 3", "show")
    assert result.exit_code == 1
    assert errors(result) == ["Error: unknown player '小张' at table 't' (players: E 老王, S 小李, W 阿张, N 大刘)"]
    assert len(shown(db)["hands"]) == 1 and "standings" not in result.output.split("hand 1:")[0]


def test_a_script_with_no_failing_line_exits_0(db):
    assert play(db, "小李 老王 3", "# a comment", "", "show", "quit").exit_code == 0


# --- 8: undo in a script --------------------------------------------------------------------------------------


def test_a_piped_undo_removes_the_hand_and_the_next_lines_are_done(db):
    result = play(db, "小李 老王 3", "undo", "阿张 自摸 2", "大刘 阿张 4")
    assert result.exit_code == 0 and errors(result) == [], result.output
    assert "remove it?" not in result.output and "removed hand 1" in result.output
    assert [(h["winner_player"], h["total"]) for h in shown(db)["hands"]] == [("阿张", 2), ("大刘", 4)]


@pytest.mark.parametrize("answer, left", [("y", 0), ("yes  # sure", 0), ("n", 1), ("No", 1)])
def test_a_line_y_or_n_after_a_piped_undo_answers_it_as_at_a_terminal(db, answer, left):
    result = play(db, "小李 老王 3", "undo", answer, "show")
    assert result.exit_code == 0 and errors(result) == [], result.output
    assert len(shown(db)["hands"]) == left and "remove it?" not in result.output
    assert "standings" in result.output or "score" in result.output  # the line after the answer: done


def test_a_piped_undo_as_the_last_line_removes_the_hand(db):
    result = play(db, "小李 老王 3", "undo")
    assert result.exit_code == 0 and errors(result) == [] and shown(db)["hands"] == []


def test_a_piped_undo_of_hand_n(db):
    result = play(db, "小李 老王 3", "阿张 自摸 2", "undo 1", "undo y")
    assert result.exit_code == 0 and errors(result) == [], result.output
    assert shown(db)["hands"] == []


def test_undo_with_a_word_it_does_not_take_is_one_line_and_nothing_is_removed(db):
    result = play(db, "小李 老王 3", "undo please", "阿张 自摸 2")
    assert result.exit_code == 1
    assert errors(result) == ["Error: undo takes a hand number and y (`undo`, `undo 3`, `undo y`), not 'please'"]
    assert len(shown(db)["hands"]) == 2


def test_the_prompt_help_says_what_a_piped_undo_does(db):
    result = play(db, "help undo")
    assert "without asking" in result.output and "y or n answers it" in result.output


# --- 9: Ctrl-C --------------------------------------------------------------------------------------------------

COMMANDS = {"module": [sys.executable, "-m", "mjcalc"], "script": [str(Path(sys.executable).parent / "mjcalc")]}


def started(how, *args, env=None):
    """`mjcalc ARGS` in a process of its own, Ctrl-C as a shell gives it, its imports timed on stderr."""
    if not Path(COMMANDS[how][0]).exists():
        pytest.skip("no mjcalc console script beside this Python")
    return subprocess.Popen(COMMANDS[how] + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("how", ["module", "script"])
@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_while_mjcalc_imports_is_one_line_and_exit_130(how, as_json):
    """Sent while click and the rest are imported (the first `click` line of -X importtime: the handler is in place
    by then; before it, Python itself is starting, out of mjcalc's reach), and a little after."""
    delays = [0.0, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08] + [random.uniform(0, 0.1) for _ in range(4)] \
        + [random.uniform(0.08, 0.16) for _ in range(6)]  # while the command imports what it uses (exit -2 once)
    for delay in delays:
        proc = started(how, "waits", "--batch", "-", *(["--json"] if as_json else []), env={"PYTHONPROFILEIMPORTTIME": "1"})
        for line in proc.stderr:
            if line.split("|")[-1].strip().startswith("click"):
                break
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        # the one line may land in the middle of an import-time line being written: taken out, it leaves them whole;
        # once click runs, it ends the terminal's "^C" with a newline first (an empty line when stderr is a pipe)
        rest = err.replace("Error: interrupted\n", "", 1)
        said = [line for line in rest.splitlines() if line and not line.startswith("import time:")]
        assert "Traceback" not in err and "Error: interrupted\n" in err and said == [], (delay, err[-2000:])
        assert proc.returncode == 130, (delay, proc.returncode, err[-2000:])
        if as_json:
            assert json.loads(out) == {"error": "interrupted", "exit": 130}, (delay, out)


@pytest.mark.parametrize("how", ["module", "script"])
def test_ctrl_c_after_a_write_has_answered_leaves_the_exit_0(tmp_path, how):
    db = tmp_path / "t.sqlite3"
    assert run("table", "new", "t", *SEATS, db=db).exit_code == 0
    # MJCALC_TEST_PAUSE_AFTER_ANSWER: mjcalc waits that long once the command has answered, as a slow teardown would
    proc = started(how, "table", "hand", "t", "--fan", "3", "--winner", "小李", "--from", "老王", "--db", str(db),
                   env={"MJCALC_TEST_PAUSE_AFTER_ANSWER": "2"})
    answer = []
    for line in proc.stdout:
        answer.append(line)
        if line.startswith("next"):  # the answer's last line
            break
    time.sleep(0.3)
    assert proc.poll() is None, "the process ended before the signal: nothing was tested"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == "", (proc.returncode, err)
    assert "hand 1" in answer[0] and len(shown(db)["hands"]) == 1


def test_an_error_python_made_of_a_ctrl_c_is_an_interruption():
    """CI once sent the Ctrl-C while `ipaddress` was imported: Python 3.11 turns a KeyboardInterrupt raised in a
    class's `__set_name__` into a RuntimeError caused by it, which was said as a bug (exit 3). It is a Ctrl-C."""
    from mjcalc.cli.main import _error_of

    def made() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise RuntimeError("Error calling __set_name__ on 'cached_property' instance 'hostmask'") from ctrl_c

    with pytest.raises(RuntimeError) as wrapped:
        made()
    assert _error_of(wrapped.value, ["waits"], "en") == ("interrupted", 130)
    assert _error_of(RuntimeError("a real bug"), ["waits"], "en")[1] == 3
