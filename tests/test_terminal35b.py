"""Issue 35, the terminal (items 15-17): what `rulesets show`/`check` say, progress on long work, and the small
things a newcomer met — each as a player at an 80-column terminal meets it.

Amounts are worked from the rulesets' own texts (mjcalc/rulesets/beijing-classic.yaml: 诈和 pays each other player
what a 4 番 hand is worth, 4 × points_per_fan 1000 × 底分; 罚分 is 1000 points to the one player named)."""
import json
import os
import subprocess
import sys
import textwrap

from click.testing import CliRunner

import mjcalc.cli.stats  # noqa: F401  (registers `table stats` until the command line imports it)
from mjcalc.cli import cli
from mjcalc.cli.common import text_width

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]


def run(*args, input=None, env=None):
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def fits(text, columns=80):
    """Every line of `text` within `columns` terminal columns (a CJK character takes two)."""
    wide = [line for line in text.splitlines() if text_width(line) > columns]
    assert not wide, wide


# --- 15. rulesets show: the penalties; rulesets check: every error, in line order ------------------------------


def test_rulesets_show_lists_the_penalties_and_what_table_penalty_takes():
    result = run("rulesets", "show", "beijing-classic")
    assert result.exit_code == 0, result.output
    out = result.output
    fits(out)
    assert "mjcalc table penalty NAME --player PLAYER" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()[:1] in (["诈和"], ["罚分"])}
    assert set(rows) == {"诈和", "罚分"}, out
    assert "false_win" in rows["诈和"] and "each other player" in rows["诈和"] and "4000 × 底分" in rows["诈和"]
    assert "4 番 hand" in rows["诈和"]
    assert "fine" in rows["罚分"] and "(--to)" in rows["罚分"] and "1000 × 底分" in rows["罚分"]


def test_rulesets_show_says_a_ruleset_without_penalties_has_none():
    out = run("rulesets", "show", "beijing").output
    fits(out)
    assert "penalties: none" in out and "mjcalc table penalty" in out


def test_the_penalties_shown_are_the_ones_table_penalty_takes(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    assert run("table", "new", "t", "-r", "beijing-classic", *SEATS, "--db", db).exit_code == 0
    result = run("table", "penalty", "诈和", "--player", "老王", "--db", db)
    assert result.exit_code == 0, result.output
    assert "-12000" in result.output  # 4000 to each of the three others


BAD = textwrap.dedent("""\
    id: my-house
    region: beijing
    colour: red
    payout:
      scheme: additive
    scoring:
      minimum: three
    patterns:
      dealer: {value: 1, name: 庄}
      sevn_pairs: {value: 4}
      full_flush: {value: 6, excludes: [dealr]}
    penalties:
      oops: {pays: everyone, points: 5}
    """)


def test_rulesets_check_reports_every_error_of_a_file_in_line_order(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(BAD, encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulesets", "check", str(path)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    # the file's five mistakes, at the lines they are on
    where = [line.split(":")[2] for line in lines]
    assert where == ["3", "7", "10", "11", "13"], result.output
    assert "colour" in lines[0] and "minimum" in lines[1] and "sevn_pairs" in lines[2]
    assert "'dealr'" in lines[3] and "everyone" in lines[4]


def test_rulesets_check_a_good_file_after_a_bad_one_still_says_ok(tmp_path):
    bad, good = tmp_path / "bad.yaml", tmp_path / "good.yaml"
    bad.write_text(BAD, encoding="utf-8")
    good.write_text("id: my-good\nextends: beijing\nscoring:\n  minimum: 2\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulesets", "check", str(bad), str(good)])
    assert result.exit_code == 1
    assert f"{good}: ok (my-good," in result.output


def test_rulesets_check_a_built_in_id_says_it_is_checked_already():
    for name in ("beijing", "zhuji", "peking"):  # an id or an alias, not a file here
        result = run("rulesets", "check", name)
        assert result.exit_code == 0, result.output
        assert "built-in" in result.output and "checked already" in result.output
        assert "cannot read" not in result.output
        fits(result.output)


# --- 17. the small ones from a newcomer's report -----------------------------------------------------------------


def table_run(*args, db, input=None, env=None):
    return run("table", *args, "--db", str(db), input=input, env=env)


def opened(tmp_path, ruleset="beijing", name="t"):
    db = tmp_path / "t.sqlite3"
    result = table_run("new", name, "-r", ruleset, *SEATS, db=db)
    assert result.exit_code == 0, result.output
    return db


def test_a_pinyin_pattern_name_explain_knows_is_taken_by_quick_entry(tmp_path):
    assert "qiduizi" in run("explain", "qiduizi").output  # the glossary knows it: 七对 (七对子)
    db = opened(tmp_path)
    result = table_run("hand", "--patterns", "qiduizi", "--winner", "小李", "--from", "老王", "--json", db=db)
    assert result.exit_code == 0, result.output
    hand = json.loads(result.stdout)["hand"]
    assert "seven_pairs" in [p["id"] for p in hand["patterns"]]  # beijing's 七对子
    played = table_run("play", "t", db=db, input="阿张 大刘 qiduizi\n")
    assert "Error" not in played.output, played.output
    assert "七对子" in played.output


def test_score_at_the_prompt_does_not_talk_about_the_next_hand(tmp_path):
    db = opened(tmp_path)
    result = table_run("play", "t", db=db, input="score 小李 老王 3\n")
    assert result.exit_code == 0, result.output
    assert "(not recorded)" in result.output
    assert not [line for line in result.output.splitlines() if line.startswith("next")], result.output
    recorded = table_run("play", "t", db=db, input="小李 老王 3\n")  # a hand recorded still says who deals next
    assert [line for line in recorded.output.splitlines() if line.startswith("next")]


def test_the_prompts_answer_to_a_tile_line_names_its_patterns(tmp_path):
    db = opened(tmp_path)
    # one suit 1-9 in a row, concealed, no 惠: beijing's 清一色, 一条龙 and 门清无惠 (rulesets/beijing.md)
    result = table_run("play", "t", db=db, input="小李 老王 123456789p234p5p +5p\n")
    assert "Error" not in result.output, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("hand 1:"))
    for name in ("清一色", "一条龙", "门清无惠"):
        assert name in line, line
    fits(result.output)


def test_the_prompts_patterns_go_on_a_line_of_their_own_when_one_line_is_too_wide(tmp_path):
    db = opened(tmp_path)
    result = table_run("play", "t", db=db, input="小李 老王 123456789p234p5p +5p\n", env={"COLUMNS": "40"})
    lines = result.output.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("hand 1:"))
    assert "老王 -" in lines[first] and "清一色" not in lines[first]
    named = lines[first + 1:first + 1 + next(i for i, line in enumerate(lines[first + 1:]) if line.startswith("next"))]
    assert "清一色" in " ".join(named) and "一条龙" in " ".join(named)
    fits("\n".join(named), 40)


UNITS = "番点台分"


def test_compare_on_13_tiles_keeps_a_figure_with_its_unit_and_says_they_are_self_draw_values():
    result = run("compare", "1112345678999m")
    assert result.exit_code == 0, result.output
    out = result.output
    fits(out)
    body = False
    for line in out.splitlines():
        if line.startswith("-----"):
            body = True
            continue
        if not line.strip():
            body = False
        if body:  # the waits' cells: each unit right after its figure, on the same line
            for i, ch in enumerate(line):
                if ch in UNITS:
                    assert line[i - 2:i - 1].isdigit() and line[i - 1] == " ", line
    assert "self-drawn" in out
    assert "won on S's discard" in run("compare", "1112345678999m", "--from", "S").output


def test_a_mistyped_ruleset_gets_the_closest_id_or_alias():
    result = run("analyze", "123m456p789s EE 45m +6m", "-r", "pekin")
    assert result.exit_code == 2
    assert "did you mean 'peking'?" in result.output  # beijing's alias
    assert "did you mean 'shangrao'?" in run("analyze", "123m456p789s EE 45m +6m", "-r", "shangra").output


def test_tai_at_a_fan_table_says_it_was_read_as_fan(tmp_path):
    db = opened(tmp_path)
    result = table_run("hand", "--tai", "2", "--winner", "小李", "--from", "老王", db=db)
    assert result.exit_code == 0
    assert "--tai was read as 番" in result.stderr
    fits(result.stderr)
    assert "read as" not in table_run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", db=db).stderr
    db2 = tmp_path / "zhuji.sqlite3"
    assert table_run("new", "z", "-r", "zhuji", *SEATS, db=db2).exit_code == 0
    assert "--fan was read as 台" in table_run("hand", "--fan", "2", "--winner", "小李", "--from", "老王",
                                              db=db2).stderr
    at_prompt = table_run("play", "z", db=db2, input="小李 老王 3\n")  # the prompt says nothing it was not told
    assert "read as" not in at_prompt.output and "3台" in at_prompt.output


def _undone(tmp_path):
    db = opened(tmp_path)
    assert table_run("hand", "--fan", "3", "--winner", "小李", "--from", "老王", db=db).exit_code == 0
    assert table_run("undo", "--yes", db=db).exit_code == 0
    log = json.loads(table_run("log", "--json", db=db).stdout)["events"]
    return db, str(log[-1]["revision"])


def _hands(db):
    return len(json.loads(table_run("show", "--json", db=db).stdout)["hands"])


def test_revert_asks_like_undo_and_edit(tmp_path):
    db, revision = _undone(tmp_path)
    said_no = table_run("revert", revision, db=db, input="n\n")
    assert "hand 1 comes back" in said_no.output and "revert it? [y/N]" in said_no.output
    assert "nothing changed" in said_no.output and _hands(db) == 0
    piped = table_run("revert", revision, db=db, input="")  # a script that answers nothing: as undo, no
    assert "nothing changed" in piped.output and _hands(db) == 0
    said_yes = table_run("revert", revision, db=db, input="y\n")
    assert said_yes.exit_code == 0 and "hand 1 is back" in said_yes.output and _hands(db) == 1
    fits(said_yes.output)


def test_revert_yes_asks_nothing(tmp_path):
    db, revision = _undone(tmp_path)
    result = table_run("revert", revision, "--yes", db=db)
    assert result.exit_code == 0 and "revert it?" not in result.output and _hands(db) == 1


def test_play_name_does_not_change_the_table_in_use(tmp_path):
    db = opened(tmp_path, name="friday")
    assert table_run("new", "saturday", *SEATS, db=db).exit_code == 0
    assert table_run("use", "friday", db=db).exit_code == 0
    assert table_run("play", "saturday", db=db, input="小李 老王 2\nquit\n").exit_code == 0
    shown = json.loads(table_run("show", "--json", db=db).stdout)
    assert shown["table"] == "friday" and shown["hands"] == []
    assert "* friday" in table_run("list", db=db).output


def test_stats_heads_its_columns_in_the_terminals_language(tmp_path):
    db = opened(tmp_path)
    assert table_run("hand", "--fan", "3", "--winner", "小李", "--from", "老王", db=db).exit_code == 0
    fits(table_run("stats", db=db).output)
    fits(table_run("stats", "--all", db=db).output)
    english = table_run("stats", db=db).output.splitlines()[1].split()
    assert english[:4] == ["seat", "player", "hands", "won"] and english[-1] == "net"
    chinese = table_run("stats", db=db, env={"MJCALC_LANG": "zh"}).output.splitlines()[1].split()
    assert chinese[:4] == ["座位", "玩家", "局", "和"] and chinese[-1] == "净"
    shown = table_run("show", db=db).output  # as `table show` heads its own
    assert "seat    player" in shown


# --- 16. long work shows progress on stderr at a terminal; stdout never changes ------------------------------------

VALUED = ["advise", "11112345667p 9p FF", "--by", "value", "--draws", "8"]


def mjcalc_with_stderr_at_a_terminal(*args, input=None, env=None):
    """`mjcalc ARGS` with stderr a pseudo-terminal (stdout a pipe): (stdout bytes, what the terminal got)."""
    import pty
    import select
    master, slave = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "mjcalc", *args], stdout=subprocess.PIPE,
                                   stderr=slave, stdin=subprocess.PIPE, env={**os.environ, **(env or {})})
        os.close(slave)
        if input is not None:
            process.stdin.write(input.encode("utf-8"))
        process.stdin.close()
        seen = b""
        out = b""
        watched = [master, process.stdout]
        while watched:  # read both as they are written (a terminal's buffer is small), until both have ended
            ready, _, _ = select.select(watched, [], [], 1.0)
            if master in ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the program has ended: its terminal is closed
                    chunk = b""
                seen += chunk
                if not chunk:
                    watched.remove(master)
            if process.stdout in ready:
                chunk = process.stdout.read1(65536)
                out += chunk
                if not chunk:
                    watched.remove(process.stdout)
            if not ready and process.poll() is not None:
                break
        assert process.wait() == 0, seen
        return out, seen.decode("utf-8", "replace")
    finally:
        os.close(master)


def mjcalc_piped(*args, input=None, env=None):
    done = subprocess.run([sys.executable, "-m", "mjcalc", *args], capture_output=True, input=input.encode()
                          if input is not None else None, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.decode("utf-8")


def test_advise_by_value_shows_progress_at_a_terminal_and_stdout_is_the_same():
    out, terminal = mjcalc_with_stderr_at_a_terminal(*VALUED)
    assert "valuing discards" in terminal and "\r" in terminal
    assert terminal.rstrip(" \r\n") == "" or terminal.endswith("\r"), terminal  # the line is wiped at the end
    piped, said = mjcalc_piped(*VALUED)
    assert out == piped  # byte for byte
    assert said == ""  # a script's stderr gets no progress


def test_a_long_batch_shows_progress_when_its_answer_goes_to_a_file():
    hands = "".join(["1112345678999m\n", "123m456p789s EE 45m\n", "11m22m33p44p55s66sE\n"] * 400)
    out, terminal = mjcalc_with_stderr_at_a_terminal("waits", "--batch", "-", input=hands)
    assert "waits --batch:" in terminal and "lines" in terminal
    piped, said = mjcalc_piped("waits", "--batch", "-", input=hands)
    assert out == piped and said == ""
    assert len(out.decode().splitlines()) == 1200


def test_table_import_shows_progress_at_a_terminal(tmp_path):
    db = opened(tmp_path)
    for fan in ("3", "2", "5"):
        assert table_run("hand", "--fan", fan, "--winner", "小李", "--from", "老王", "--yes", db=db).exit_code == 0
    exported = tmp_path / "t.json"
    exported.write_text(table_run("export", "t", "--json", db=db).stdout, encoding="utf-8")
    out, terminal = mjcalc_with_stderr_at_a_terminal("table", "import", str(exported), "--as", "copy", "--db",
                                                     str(db))
    assert "table import:" in terminal and "results scored again" in terminal
    piped, said = mjcalc_piped("table", "import", str(exported), "--as", "again", "--db", str(db))
    assert out.replace(b"copy", b"again") == piped and said == ""


def test_the_progress_flag_forces_it_on_and_off_whatever_stderr_is():
    forced = run(*VALUED, env={"MJCALC_PROGRESS": "1"})
    plain = run(*VALUED, env={"MJCALC_PROGRESS": "0"})
    assert forced.exit_code == plain.exit_code == 0
    assert "valuing discards" in forced.stderr and plain.stderr == ""
    assert forced.stdout == plain.stdout
    _, terminal = mjcalc_with_stderr_at_a_terminal(*VALUED, env={"MJCALC_PROGRESS": "0"})
    assert "valuing" not in terminal


def test_the_progress_line_is_never_still_for_a_second():
    import time

    from mjcalc.cli.progress import Progress

    class Clocked:
        def __init__(self):
            self.times = []
            self.text = ""

        def write(self, text):
            self.times.append(time.monotonic())
            self.text += text

        def flush(self):
            pass

        def isatty(self):
            return True

    stream = Clocked()
    started = time.monotonic()
    with Progress("valuing discards", total=2, stream=stream) as shown:
        time.sleep(1.5)  # one long step, as one discard of `--exact` may be
        shown.step(1)
        time.sleep(0.5)
    times = [started] + stream.times
    assert max(b - a for a, b in zip(times, times[1:])) < 1.0
    assert "valuing discards 0/2" in stream.text and "valuing discards 1/2" in stream.text
    assert stream.text.endswith("\r")
