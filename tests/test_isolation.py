"""The suite never touches the player's data: a player's home, with a ledger, the table in use and `MJCALC_DB`
set, is byte-identical after the test files that write data have run in it.

The files run here are the ones that write a ledger or the user data directory: the crash and concurrent-writer
tests (whole `mjcalc` processes), the table commands and the server started as a process. They run in a child
pytest whose environment is the player's, exactly as `python -m pytest` would start on the player's machine.
"""
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WRITERS = ["tests/test_ledger.py::test_two_writers_at_once", "tests/test_ledger.py::test_killed_writers_leave_whole_hands",
           "tests/test_table.py", "tests/test_serve.py::test_mjcalc_serve_prints_the_url_serves_and_stops_cleanly_on_ctrl_c"]


def snapshot(home: Path):
    """Every file below `home` with its bytes, and every directory: what "unchanged" compares."""
    return {str(p.relative_to(home)): (p.read_bytes() if p.is_file() else None) for p in sorted(home.rglob("*"))}


def a_players_home(home: Path):
    """A home as a player leaves it after an evening: a ledger with a table, remembered as the one in use, and
    `MJCALC_DB` naming another ledger of theirs."""
    data = home / ".local" / "share" / "mjcalc"
    data.mkdir(parents=True)
    for name in ("tables.sqlite3", "mine.sqlite3"):
        with sqlite3.connect(data / name) as db:  # any bytes of the player's will do: they must stay as they are
            db.execute("CREATE TABLE evening (hand INTEGER, note TEXT)")
            db.execute("INSERT INTO evening VALUES (1, '老王 自摸')")
        db.close()
    (data / "current.json").write_text(json.dumps({"db": str(data / "tables.sqlite3")}), encoding="utf-8")
    (data / "play_history").write_text("table show\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MJCALC_", "XDG_"))}
    env.update(HOME=str(home), MJCALC_DB=str(data / "mine.sqlite3"), MJCALC_RULESET="zhuji",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return env


@pytest.mark.slow
def test_the_suite_leaves_the_players_home_byte_identical(tmp_path):
    home = tmp_path / "player"
    env = a_players_home(home)
    before = snapshot(home)
    assert len(before) >= 6  # the check below compares something
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *WRITERS],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout.splitlines()[-1]
    after = snapshot(home)
    assert sorted(after) == sorted(before), "files added or removed in the player's home"
    changed = [name for name in before if before[name] != after[name]]
    assert changed == [], f"the suite changed the player's {changed}"


def test_the_snapshot_sees_a_change(tmp_path):
    """The comparison above can fail: a rewritten current.json is a difference."""
    home = tmp_path / "player"
    a_players_home(home)
    before = snapshot(home)
    (home / ".local" / "share" / "mjcalc" / "current.json").write_text('{"db": "/tmp/pytest-x/t.sqlite3"}')
    after = snapshot(home)
    assert [name for name in before if before[name] != after[name]] == [".local/share/mjcalc/current.json"]


def test_this_process_runs_in_the_suites_own_home():
    """conftest.py gave the suite its own home before any test module was imported."""
    from conftest import TEST_HOME

    assert os.environ["HOME"] == TEST_HOME and os.environ["XDG_DATA_HOME"].startswith(TEST_HOME)
    assert not any(k.startswith("MJCALC_") and k not in ("MJCALC_REF_SCALE", "MJCALC_SCREENSHOTS") for k in os.environ)
    from mjcalc.evening import data_dir

    assert str(data_dir()).startswith(TEST_HOME)  # where the table in use is remembered: the suite's own
