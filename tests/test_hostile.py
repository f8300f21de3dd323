"""Hostile input (issue 11): files and values that must be refused quickly, with one `Error: …` line and the
documented exit code, never a hang, a traceback or a wrong score."""
import json
import time

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli

HAND = "123m456p789s EE 45m +6m"


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


# The bounds below are against blow-ups (an alias bomb, a deep nest), read in this process's CPU seconds
# (`time.process_time`), not by the wall clock: a loaded machine must not fail them (CI did, 0.78 s under load 9).


def one_line_error(result, code, *parts):
    """The result is exactly one `Error: …` line (stderr is mixed into output by CliRunner) with exit `code`."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for part in parts:
        assert part in lines[0], (part, lines[0])
    return lines[0]


# --- YAML files: refused before they can cost time or memory -----------------------------------------------

def _bomb(levels=12):
    return ("a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
            + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, levels))
            + "id: x\n")


HOSTILE_FILES = {
    "alias-bomb": (_bomb().encode(), ":5: ", "alias *name"),
    "alias-bomb-under-unknown-key": (("bogus:\n" + "".join("  " + line + "\n" for line in _bomb().splitlines())).encode(),
                                     ":6: ", "alias *name"),
    "recursive-alias": (b"a: &a [*a]\n", ":1: ", "alias"),
    "deep-flow": (b"id: x\nbogus: " + b"[" * 900 + b"]" * 900 + b"\n", ":2: ", "nested"),
    "deep-block": ("".join(" " * i + f"k{i}:\n" for i in range(300)).encode(), ":276: ", "nested"),
    "deeper-block": ("".join(" " * i + f"k{i}:\n" for i in range(800)).encode(), ": ", "larger than"),
    "deep-but-legal-for-libyaml": (b"id: x\nbogus: " + b"[" * 30 + b"]" * 30 + b"\n", ":2: ", "nested"),
    "oversized": (b"id: x\n# " + b"x" * (11 << 20) + b"\n", ": ", "larger than"),
    "latin-1": ("id: x\nname: caf\xe9\n".encode("latin-1"), ":2: ", "not UTF-8"),
    "utf-16": ("id: x\n".encode("utf-16"), ":1: ", "not UTF-8"),
    "a list": (b"- a\n- b\n", ":1: ", "mapping"),
    "a scalar": (b"42\n", ":1: ", "mapping"),
    "5000 digits": (b"id: x\nbogus: " + b"9" * 5000 + b"\n", ":2: ", "5000 digits"),
    "bad yaml": (b"id: [x\n", ":2: ", "not valid YAML"),
    "a mapping key": (b"{a: 1}: 2\n", ":1: ", "plain value"),
    "a duplicate key": (b"id: x\nid: y\n", ":2: ", "twice"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_ruleset_files_are_refused_fast(tmp_path, name):
    data, where, words = HOSTILE_FILES[name]
    path = tmp_path / "house.yaml"
    path.write_bytes(data)
    start = time.process_time()
    result = run("rulesets", "check", str(path))
    elapsed = time.process_time() - start
    line = one_line_error(result, 1, str(path), words)
    assert line.startswith(f"Error: {path}{where}"), line
    # a bound against blow-ups (an alias bomb takes minutes or the memory), not a speed figure: the first
    # analyze of a process imports the engine, and a loaded fresh CI machine took 0.55 s for it
    assert elapsed < 5, elapsed
    start = time.process_time()
    result = run("analyze", HAND, "-r", str(path))
    assert time.process_time() - start < 5
    one_line_error(result, 1, str(path), words)


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_situation_files_are_refused_fast(tmp_path, name):
    data, where, words = HOSTILE_FILES[name]
    if name in ("a duplicate key",):
        data = b"seat: S\nseat: W\n"
    path = tmp_path / "s.yaml"
    path.write_bytes(data)
    start = time.process_time()
    result = run("analyze", HAND, "--situation", str(path))
    assert time.process_time() - start < 0.5
    line = one_line_error(result, 2, f"--situation {path}")
    if name not in ("alias-bomb", "deep-but-legal-for-libyaml", "5000 digits", "bad yaml"):
        assert words in line, line


def test_dev_zero_is_refused_at_once():
    start = time.process_time()
    result = run("rulesets", "check", "/dev/zero")
    assert time.process_time() - start < 0.5
    one_line_error(result, 1, "/dev/zero", "larger than")
    one_line_error(run("analyze", HAND, "--situation", "/dev/zero"), 2, "/dev/zero", "larger than")


def test_a_bom_is_allowed(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_bytes(b"\xef\xbb\xbfseat: S\nfrom: E\n")
    result = run("analyze", HAND, "--situation", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["payouts"]["S"] > 0


# --- situation files: every field read as its option reads it, the line named ----------------------------

@pytest.mark.parametrize("text, line, words", [
    ("title: x\nsituation:\n  seat: S\n  kong_draw: -1\n", 4, "kong_draw (杠开): must be from 0 to 4, got -1"),
    ("from: X\n", 1, "from (点炮): expected a seat"),
    ("shaozhuang: .inf\n", 1, "shaozhuang (烧庄): expected a whole number, got inf"),
    ("shaozhuang: .nan\n", 1, "expected a whole number, got nan"),
    ("base: 99999999999999999999999\n", 1, "base (底分): must be from 1 to 1000000"),
    ("wild: 5\n", 1, "wild (百搭): expected a tile"),
    ("bid: {a: 1}\n", 1, "bid (包牌): expected text"),
    ("seat: S\nflown: [1]\n", 2, "flown (飞宝): expected a whole number"),
    ("seat: S\nbogus: 1\n", 2, "unknown situation field 'bogus'"),
    ("seat: S\nfrom_: W\n", 2, "did you mean 'from'"),
    ("flown_by: {S: 2, W: 9}\n", 1, "must be from 0 to 4, got 9"),
    ("flown_by: [S=1, S=2]\n", 1, "names S twice"),
])
def test_situation_file_fields_are_checked_with_their_line(tmp_path, text, line, words):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("analyze", HAND, "-r", "shangrao" if "flown" in text else "beijing", "--situation", str(path))
    one_line_error(result, 2, f"--situation {path}:{line}: ", words)


def test_situation_key_of_a_non_mapping_situation(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("title: x\nsituation: [1, 2]\n", encoding="utf-8")
    one_line_error(run("analyze", HAND, "--situation", str(path)), 2, f"{path}:2: ", "must be a mapping")


def test_a_seat_given_twice_is_counted_once_and_said(tmp_path):
    result = CliRunner().invoke(cli, ["analyze", HAND, "--seat", "W", "--from", "E", "--mutual", "S",
                                                      "--mutual", "S", "--json"])
    assert result.exit_code == 0, result.output
    assert "--mutual: S is given twice; counted once" in result.stderr
    assert result.stderr.count("given twice") == 1
    payouts = json.loads(result.stdout)["payouts"]
    assert payouts["S"] == -payouts["W"]  # S pays the hand once


# --- the ledger: touches only its own files; amounts it cannot keep are impossible ----------------------------

import hashlib  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

SEATS4 = ["--seat", "E=a", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"]
PLAIN = "123m456p789s234s5m +5m"


def _digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.mark.parametrize("journal", ["delete", "truncate", "wal"])
@pytest.mark.parametrize("command", [["table", "list"], ["table", "show", "x"], ["table", "new", "x"] + SEATS4,
                                     ["table", "hand", "x", PLAIN, "--winner", "S"], ["table", "export", "x"]])
def test_a_foreign_sqlite_file_stays_byte_identical(tmp_path, journal, command):
    db = tmp_path / "photos.db"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    before, files = _digest(db), sorted(p.name for p in tmp_path.iterdir())
    result = run(*command, "--db", str(db))
    one_line_error(result, 1, str(db), "not an mjcalc ledger")
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal, no -shm


def test_a_foreign_file_with_only_user_version_is_not_claimed(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    before = _digest(db)
    one_line_error(run("table", "list", "--db", str(db)), 1, "not an mjcalc ledger")
    assert _digest(db) == before


def _as_nobody(args, cwd):
    """Run mjcalc as an unprivileged user (the tests may run as root, who may write anywhere)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    prefix = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: cannot make a read-only directory")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run(prefix + [sys.executable, "-m", "mjcalc"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_show_list_export_work_on_a_read_only_ledger():
    folder = Path(tempfile.mkdtemp(prefix="mjcalc-ro-"))
    try:
        db = folder / "l.sqlite3"
        assert run("table", "new", "x", *SEATS4, "--db", str(db)).exit_code == 0
        assert run("table", "hand", "x", PLAIN, "--winner", "S", "--db", str(db)).exit_code == 0
        before = _digest(db)
        db.chmod(0o444)
        folder.chmod(0o555)
        for command, words in ((["table", "show", "x"], "1 hand"), (["table", "list"], "x "),
                               (["table", "export", "x"], "1,1,a,0,1,win,b")):
            done = _as_nobody(command + ["--db", str(db)], folder)
            assert done.returncode == 0, done.stderr
            assert words in done.stdout and done.stderr == ""
        done = _as_nobody(["table", "hand", "x", PLAIN, "--winner", "S", "--db", str(db)], folder)
        assert done.returncode == 1 and done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1
        assert _digest(db) == before
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_table_amounts_have_ranges(tmp_path):
    db = str(tmp_path / "l.sqlite3")
    one_line_error(run("table", "new", "x", *SEATS4, "--base", "10000000000000000000", "--db", db), 2,
                   "--base: must be from 1 to 1000000")
    one_line_error(run("table", "new", "x", *SEATS4, "--base", "abc", "--db", db), 2, "--base: expected a whole number")
    one_line_error(run("table", "new", "x", *SEATS4, "--base", "0", "--db", db), 2, "--base: must be from 1")
    assert run("table", "new", "x", *SEATS4, "--base", "1000000", "--db", db).exit_code == 0
    for rounds in ("-1", "-3", "70"):
        one_line_error(run("table", "hand", "x", PLAIN, "--winner", "S", "--shaozhuang", rounds, "--db", db), 2,
                       "--shaozhuang")
    assert "0 hands" in run("table", "show", "x", "--db", db).output


def test_shanglou_cannot_push_a_hand_past_any_amount(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: house\nsession: {shanglou_levels: 16}\n"
                     "patterns:\n  tuidaohe: {value: 10000}\n", encoding="utf-8")
    db = str(tmp_path / "l.sqlite3")
    assert run("table", "new", "x", *SEATS4, "-r", str(house), "--base", "1000000", "--db", db).exit_code == 0
    for _ in range(16):
        assert run("table", "draw", "x", "--yes", "--db", db).exit_code == 0
    result = run("table", "hand", "x", PLAIN, "--winner", "S", "--db", db)
    one_line_error(result, 2, "more than 1,000,000,000,000,000")
    assert "16 hands" in run("table", "show", "x", "--db", db).output


def test_standings_stay_exact(tmp_path):
    """No person's score passes 2^53 - 1 (exact as a JSON number anywhere): the write that would is refused."""
    from mjcalc.evening.ledger import MAX_STANDING, Change, HandRecord, Ledger, LedgerError
    from mjcalc.session import State
    with Ledger(tmp_path / "l.sqlite3") as ledger:
        ledger.create_table("x", "beijing", "beijing", dict(zip("ESWN", "abcd")))
        big = 10 ** 15
        hands = []
        for number in range(1, 20):
            t = ledger.table("x")
            given = {"entry": "tiles", "hand": PLAIN, "situation": {}}
            record = HandRecord(number, 1, "E", number - 1, 0, "win", PLAIN, "S", None, 1, {}, [],
                                {"E": -big, "S": big, "W": 0, "N": 0}, State(1, "E", number, 0), "now",
                                "tiles", f"h{number}", t.players, input=given)
            data = {"hand_id": record.hand_id, "input": given, "recorded": "now", "records": [record.to_json()]}
            change = Change("hand", data, hands + [record], len(hands), record.after, t.players)
            if number * big > MAX_STANDING:
                with pytest.raises(LedgerError, match="beyond what is kept exactly"):
                    ledger.write(t, t.revision, change)
                break
            assert ledger.write(t, t.revision, change)
            hands.append(record)
        assert ledger.standings(t)[1].score <= MAX_STANDING
        assert ledger.table("x").revision == 1 + len(hands)


def test_names_with_control_characters_are_refused(tmp_path):
    db = str(tmp_path / "l.sqlite3")
    one_line_error(run("table", "new", "x\x1b]0;pwned\x07", *SEATS4, "--db", db), 2, "control or invisible")
    seats = SEATS4[:-1] + ["N=d\u200b"]
    one_line_error(run("table", "new", "x", *seats, "--db", db), 2, "\\u200b")


def test_export_neutralises_formulas(tmp_path):
    db = str(tmp_path / "l.sqlite3")
    seats = ["--seat", "E==1+1", "--seat", "S=+cmd", "--seat", "W=-x", "--seat", "N=@SUM(A1)"]
    assert run("table", "new", "x", *seats, "--db", db).exit_code == 0
    assert run("table", "hand", "x", PLAIN, "--winner", "S", "--from", "E", "--db", db).exit_code == 0
    import csv
    rows = list(csv.reader(run("table", "export", "x", "--db", db).output.splitlines()))
    for row in rows:
        for cell in row:
            assert cell[:1] not in ("=", "+", "@") and not (cell.startswith("-") and not cell[1:].isdigit()), cell
    assert rows[1][2] == "'=1+1" and rows[1][6] == "'+cmd"
    assert sum(int(cell) for cell in rows[1][11:15]) == 0 and int(rows[1][11]) < 0  # numbers stay numbers


# --- one error contract -----------------------------------------------------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize("args, code, words", [
    (["analyze", HAND, "--base", "abc"], 2, "--base: expected a whole number, got 'abc'"),
    (["analyze", HAND, "--base", BIG], 2, "--base: must be from 1 to 1000000, got a number of more than 12 digits"),
    (["analyze", HAND, "--shaozhuang", BIG], 2, "--shaozhuang: must be from 0 to 16"),
    (["analyze", HAND, "--base", "1e400"], 2, "--base: expected a whole number"),
    (["analyze", HAND, "--seat", "X"], 2, "--seat: expected a seat"),
    (["analyze"], 2, "Missing argument 'HAND' (see mjcalc analyze --help)"),
    (["analyze", "-5m"], 2, "no such option -5m (a hand or a value that starts with '-' goes after --"),
    (["analyze", HAND, "--kong-draw", "-1"], 2, "--kong-draw: must be from 0 to 4, got -1"),
    (["analyze", HAND, "--shaozhuang", "-3"], 2, "--shaozhuang: must be from 0 to 16, got -3"),
    (["analyze", HAND, "--lang", "xx"], 2, "Invalid value for '--lang'"),
    (["analyze", HAND, "--nosuch"], 2, "no such option --nosuch"),
    (["table", "new", "x", "--base", "abc"], 2, "--base: expected a whole number"),
    (["table", "new", "x", "--seat"], 2, "Option '--seat' requires an argument"),
    (["rulesets", "check", "/nonexistent.yaml"], 1, "/nonexistent.yaml: cannot read"),
    (["rulesets", "show", "nosuch"], 2, "unknown ruleset 'nosuch'"),
    (["analyze", "1m\u200b2m"], 2, "unknown character '\\u200b'"),
    (["analyze", "\ufeff123m456p789s EE 45m +6m"], 2, "'\\ufeff'"),
    (["analyze", "1m\x1b[2J"], 2, "\\x1b"),
    (["analyze", HAND, "-r", "no\u202esuch.yaml"], 2, "no\\u202esuch.yaml"),
    (["bogus"], 2, "No such command 'bogus'"),
])
def test_every_error_is_one_line(tmp_path, args, code, words):
    result = run(*args)
    line = one_line_error(result, code, words)
    assert line.isprintable(), line
    if args[0] == "analyze":  # with --json, the same error is also a JSON object on stdout
        with_json = run(*args, "--json")
        assert with_json.exit_code == code
        assert json.loads(with_json.stdout) == {"error": with_json.stderr[len("Error: "):-1], "exit": code}
        assert with_json.stderr == f"{line}\n"


def test_json_errors_are_json_on_stdout():
    result = run("analyze", HAND, "--seat", "X", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "--seat: expected a seat E, S, W or N (东 南 西 北), got 'X'",
                                         "exit": 2}
    assert result.stderr == "Error: --seat: expected a seat E, S, W or N (东 南 西 北), got 'X'\n"
    result = run("waits", "--json")
    assert json.loads(result.stdout)["exit"] == 2
    result = run("analyze", "--json")
    assert json.loads(result.stdout) == {"error": "Missing argument 'HAND' (see mjcalc analyze --help)", "exit": 2}


def test_a_hand_after_double_dash():
    result = run("analyze", "--", "-5m")
    one_line_error(result, 2, "'-'")


def test_batch_reads_utf8_with_a_bom(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_bytes(b"\xef\xbb\xbf1112345678999m\n123m456p789s EE 4m\n")
    result = run("waits", "--batch", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "1m 2m 3m 4m 5m 6m 7m 8m 9m"
    result = run("waits", "--batch", "-", input=b"\xef\xbb\xbf1112345678999m\n")
    assert result.exit_code == 0 and result.stdout == "1m 2m 3m 4m 5m 6m 7m 8m 9m\n"


def test_batch_error_lines_show_invisible_characters(tmp_path):
    result = run("waits", "--batch", "-", input="1112345678999m\u200b\n")
    assert result.exit_code == 1 and "\\u200b" in result.stdout and "\u200b" not in result.stdout


def test_batch_with_stdin_closed():
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run([sys.executable, "-m", "mjcalc", "waits", "--batch", "-"], env=env, capture_output=False,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and done.stderr == "Error: --batch -: standard input is closed\n", done.stderr


def test_no_arguments_is_help_not_an_error():
    result = run()
    assert result.exit_code == 0 and result.stdout.startswith("Usage: ")


def test_names_already_in_a_ledger_are_shown_escaped(tmp_path, monkeypatch):
    """A ledger written before names were checked (or by hand) still never sends an escape to the terminal."""
    monkeypatch.setenv("NO_COLOR", "1")
    db = tmp_path / "l.sqlite3"
    assert run("table", "new", "x", *SEATS4, "--db", str(db)).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE tables SET player_s = ?, name = ?", ("b\x1b]0;owned\x07\u202e", "x\x1b[2J"))
    conn.execute("UPDATE events SET data = json_set(data, '$.players[1]', ?)", ("b\x1b]0;owned\x07\u202e",))
    conn.commit()
    conn.close()
    for command in (["show", "x\x1b[2J"], ["list"], ["hand", "x\x1b[2J", PLAIN, "--winner", "S"]):
        result = run("table", *command, "--db", str(db))
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output
        assert "\\x1b" in result.output


def test_a_5000_digit_value_is_named_by_its_size(tmp_path):
    assert run("table", "new", "x", *SEATS4, "--db", str(tmp_path / "l.sqlite3")).exit_code == 0
    result = run("table", "hand", "x", "--fan", BIG, "--winner", "S", "--db", str(tmp_path / "l.sqlite3"))
    line = one_line_error(result, 2, "5000 digits")
    assert len(line) < 200


@pytest.mark.parametrize("times, words", [(BIG, "got a number of 5000 digits"), ("\u00b2", "no pattern"),
                                          ("0", "got 0"), ("17", "got 17")])
def test_quick_entry_counts_have_a_range(tmp_path, times, words):
    db = str(tmp_path / "l.sqlite3")
    assert run("table", "new", "x", *SEATS4, "--db", db).exit_code == 0
    one_line_error(run("table", "hand", "x", "--patterns", f"对对和*{times}", "--winner", "S", "--db", db), 2, words)
