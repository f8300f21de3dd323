"""Issue 35, the terminal (items 11-14): an evening at 80 columns as a player reads it. One evening is built
through the command line — a seat change, a rules switch, a draw, an undo, an edit, penalties, a revert and a
first-seating rename — and every line every `table` command prints is measured (East Asian wide characters
take two columns, as wcwidth counts them); then what a player needs is looked for: names, not seat letters,
money by person after a seat change, a log that reads as the evening went, each hand in its own rules' words.

The amounts come from the rules (rulesets/beijing.md, beijing-classic.yaml): under beijing a discarder alone
pays the hand's 番 × 底分 1, a self-draw is paid by each other player; beijing-classic's 诈和 pays each other
player a 4 番 hand (4 × 1000 points × 底分 1) and its 罚分 pays 1000 points to one player.
"""
import csv
import io
import json
import re

import pytest
from click.testing import CliRunner
from wcwidth import wcswidth

from mjcalc.cli import cli
from mjcalc.cli.table import table as table_group

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]
PLAIN = "123m456p789s234s5m +5m"  # 推倒和 1 + 门清无惠 1 (+ 庄 1 when the dealer wins or deals in)
WILD = ["123m456p789s234s*", "+5m", "--wild", "5m"]  # the * is a 惠 standing in for 5m
REASON = "没听牌就推倒了，还说自己和了，大家都看见了"


def columns(line: str) -> int:
    shown = wcswidth(line)
    assert shown >= 0, f"a character wcwidth cannot measure: {line!r}"
    return shown


def too_wide(text: str) -> list:
    return [f"{columns(line)}: {line}" for line in text.splitlines() if columns(line) > 80]


class Evening:
    """Every command run on one ledger, with what each printed (stdout and stderr)."""

    def __init__(self, path):
        self.db = path
        self.said = []  # (argv, stdout, stderr)

    def run(self, *args, input=None, code=0):
        result = CliRunner().invoke(cli, ["table", *args, "--db", str(self.db)], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == code, (args, result.output)
        self.said.append((args, result.stdout, result.stderr))
        return result


def history(text: str) -> list:
    """The history table of `table show` as dicts by header (cells found by display columns)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("#    庄"))
    header, rule = lines[head], lines[head + 1]
    starts = [m.start() for m in re.finditer(r"-+", rule)]  # the rule under the header is ASCII: columns

    def cells(line):
        wide = "".join(ch + ("\0" if columns(ch) == 2 else "") for ch in line)  # one slot per column
        return [wide[a:b].replace("\0", "").strip() for a, b in zip(starts, starts[1:] + [len(wide) + 1])]

    names = cells(header)
    rows = []
    for line in lines[head + 2:]:
        if not line or not line[0].isdigit():
            break
        rows.append(dict(zip(names, cells(line))))
    return rows


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    e = Evening(tmp_path_factory.mktemp("t35") / "t.sqlite3")
    e.run("new", "friday", "-r", "beijing", *SEATS)
    # 1: 老王 deals and deals in: 推倒和 1 + 庄 1 + 门清无惠 1 = 3, 老王 pays 3. 小李 deals next.
    e.run("hand", PLAIN, "--winner", "小李", "--from", "老王")
    # 2: 阿张 self-draws with a 惠 for 5m: 推倒和 1 (a 惠 held: no 门清无惠; not the dealer: no 庄) = 1 from each
    e.run("hand", *WILD, "--winner", "阿张")
    # 3: 阿张 deals now and wins on 大刘's discard, naming 对对和 2: 庄 1 and 门清无惠 1 are added = 4
    e.hand3 = e.run("hand", "--patterns", "对对和", "--winner", "阿张", "--from", "大刘")
    e.run("seat", "南=小陈")  # 小李 leaves, 小陈 sits South
    e.run("hand", "--fan", "2", "--winner", "小陈", "--from", "老王")  # 4: 老王 pays 2
    e.run("draw")  # 5
    e.run("rules", "诸暨", "--yes")  # zhuji, said by its Chinese name: a built-in
    e.run("hand", "--fan", "2", "--winner", "大刘", "--from", "老王")  # 6, under zhuji: 台
    e.undo = e.run("undo", "--yes")  # hand 6 removed
    e.run("hand", "--fan", "1", "--winner", "大刘", "--from", "老王")  # 6 again
    e.run("rules", "beijing-classic", "--yes")
    e.run("penalty", "诈和", "--player", "老王", "--reason", REASON)
    e.fine = e.run("penalty", "罚分", "--player", "大刘", "--to", "小陈")
    e.run("edit", "4", "--fan", "3", "--winner", "小陈", "--from", "老王", "--yes")
    log = json.loads(e.run("log", "--json").stdout)
    fine = next(ev["revision"] for ev in log["events"] if ev["kind"] == "penalty" and ev["data"]["name"] == "罚分")
    e.run("revert", str(fine), "--yes")  # the fine taken back
    e.rename_asked = e.run("seat", "--from-start", "南=李明", input="n\n")  # shown, and answered no
    e.run("seat", "--from-start", "南=李明", "--yes")  # 小李 was 李明 all along
    e.run("seat", "--dealer", "阿张")
    return e


# --- every line of every command, at 80 columns ------------------------------------------------------------


READS = [["show"], ["show", "--tiles"], ["log"], ["list"], ["settle"], ["settle", "--rate", "0.5"], ["stats"],
         ["rules"], ["check"]]


def short_paths(text: str, *folders) -> str:
    for folder in folders:
        text = text.replace(str(folder), "/tmp/x")
    return text


def test_every_table_command_of_the_evening_fits_80_columns(evening, tmp_path):
    for args in READS:
        evening.run(*args)
    evening.run("hand", "--fan", "2", "--winner", "阿张", "--from", "大刘", "--dry-run")
    evening.run("undo", input="n\n")
    evening.run("edit", "1", "--fan", "5", "--winner", "李明", "--from", "老王", input="n\n")
    evening.run("rules", "beijing", input="n\n")
    evening.run("close")
    evening.run("close", "--reopen", "--yes")
    evening.run("export", "--json", "-o", str(tmp_path / "f.json"))
    evening.run("export", "-o", str(tmp_path / "f.csv"))
    evening.run("import", str(tmp_path / "f.json"), "--as", "copy")
    evening.run("use", "friday")
    evening.run("rename", "copy", "copy2")
    evening.run("delete", "copy2", input="n\n")
    evening.run("backup", str(tmp_path / "b.sqlite3"))
    evening.run("play", "friday", input="help\nhelp hand\nhelp undo\nhelp score\nhelp show\nshow\nsettle\nquit\n")
    ran = {args[0] for args, _, _ in evening.said}
    assert ran == set(table_group.commands), set(table_group.commands) ^ ran  # a new command is measured too
    wide = [f"table {' '.join(args)}\n  {line}" for args, out, err in evening.said if "--json" not in args
            for line in too_wide(short_paths(out + err, tmp_path, evening.db.parent))]  # a path is as long as it is
    assert not wide, "\n".join(wide)


def test_a_long_named_evening_fits_80_columns_by_person(tmp_path):
    e = Evening(tmp_path / "w.sqlite3")
    e.run("new", "w", "--seat", "E=欧阳长名字很长的", "--seat", "S=司马也很长的名字", "--seat", "W=诸葛更长些名字",
          "--seat", "N=上官最后一个名", "--base", "1000")
    e.run("hand", PLAIN, "--winner", "E", "--from", "S")
    e.run("seat", "S=公孙新来的名字")
    e.run("hand", "--fan", "12", "--winner", "S", "--from", "W", "--shaozhuang", "3", "--yes")
    for args in (["show"], ["show", "--tiles"], ["log"], ["settle"], ["stats"]):
        e.run(*args)
    e.run("undo", "--hand", "1", input="n\n")
    e.run("edit", "1", "--fan", "4", "--winner", "E", "--from", "S", input="n\n")
    wide = [f"table {' '.join(a)}\n  {line}" for a, o, r in e.said
            for line in too_wide(o.replace(str(tmp_path), "/tmp/x") + r)]
    assert not wide, "\n".join(wide)
    shown = e.said[-6][1]  # show --tiles
    # the money by person even so: hand 1 (E's 3 番 on S's discard, 推倒和 + 庄 + 门清无惠, × 底分 1000)
    assert "欧阳长名字很长的 +3000, 司马也很长的名字 -3000" in shown
    assert "公孙新来的名字" in shown and "1235m 456p 234789s +5m" in shown
    assert not re.search(r"\bE\s+S\s+W\s+N\s*$", shown, re.M)  # no money columns by seat


# --- 11: show by person -----------------------------------------------------------------------------------


@pytest.mark.parametrize("tiles", [False, True], ids=["show", "show --tiles"])
def test_show_has_a_column_for_each_person_whoever_sat_where(evening, tiles):
    text = evening.run("show", *(["--tiles"] if tiles else [])).stdout
    rows = history(text)
    assert not too_wide(text)
    by_number = {row["#"]: row for row in rows}
    # 李明 (小李, renamed from the start) won hand 1 from 老王, 3 番; 小陈 was not seated yet: an empty cell
    assert by_number["1"]["李明"] == "3" and by_number["1"]["老王"] == "-3" and by_number["1"]["小陈"] == ""
    # hand 4, 小陈 in the South chair (edited to 3 番): 小陈 +3, 老王 -3, and 李明 has left: empty
    assert by_number["4"]["小陈"] == "3" and by_number["4"]["老王"] == "-3" and by_number["4"]["李明"] == ""
    assert not {"E", "S", "W", "N"} & set(rows[0])  # no column by seat
    if tiles:
        assert "1235m 456p 234789s +5m" in text and "123m 456p 234789s * +5m" in text
    # hand 3 was entered as 对对和 alone: its note names what the table named, not what its situation added
    assert re.search(r"named 对对和(,|$)", text, re.M) and "named 庄" not in text


def test_at_a_terminal_a_repeated_hand_is_asked_in_one_line_of_80_columns(tmp_path):
    import os
    import pty
    import subprocess
    import sys
    db = str(tmp_path / "t.sqlite3")
    table = [sys.executable, "-m", "mjcalc", "table"]
    subprocess.run(table + ["new", "t", *SEATS, "--db", db], check=True, capture_output=True)
    for _ in range(2):  # 小李 self-draws 2 番 twice, 2 hands (the second said with --yes)
        subprocess.run(table + ["hand", "--fan", "2", "--winner", "小李", "--db", db, "--yes"], check=True,
                       capture_output=True)
    master, slave = pty.openpty()
    asked = subprocess.Popen(table + ["hand", "--fan", "2", "--winner", "小李", "--db", db], stdin=slave,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.write(master, b"n\n")
    out, err = asked.communicate(timeout=60)
    os.close(master)
    os.close(slave)
    assert asked.returncode == 1 and out == ""
    assert err.splitlines() == ["just recorded from the command line as hand 2: record it twice? [y/N]: "
                                "nothing recorded"], err
    assert columns(err.split("? [y/N]")[0] + "? [y/N]: ") <= 80


def test_penalties_in_show_fit_and_say_who_paid_what(evening):
    text = evening.run("show").stdout
    block = text[text.index("penalty after hand 6: 诈和"):]
    first, second = block.splitlines()[:2]
    assert first == "penalty after hand 6: 诈和, 老王 -12000, 4000 to each other player (revision 13)"
    assert second.strip() == f"— {REASON}" and columns(second) <= 80
    assert "罚分" not in text  # taken back by its revert


# --- 12: the prompt's help, the 庄 note, the duplicate refusal ------------------------------------------------


def test_the_prompts_help_fits_and_lists_no_eof(evening):
    out = evening.run("play", "friday", input="help\nhelp hand\nhelp undo\nhelp EOF\nquit\n").stdout
    assert not too_wide(out)
    assert "Undocumented" not in out and "EOF:" not in out and "====" not in out
    for command in ("draw", "undo [N] [y]", "show", "settle", "score", "rules", "quit"):
        assert re.search(rf"^  {re.escape(command)}(\s|$)", out, re.M), command
    assert "小李 老王 3 --shaozhuang 1" in out  # help hand's examples
    assert "no command 'EOF'" in out


def test_the_patterns_a_dealers_hand_adds_are_one_short_note(evening):
    err = evening.hand3.stderr
    assert err == "note: counted too, not named: 庄, 门清无惠\n"


def test_a_repeated_hand_in_a_script_is_refused_in_one_line_that_says_what_to_type(tmp_path):
    e = Evening(tmp_path / "d.sqlite3")
    e.run("new", "d", *SEATS)
    e.run("hand", "--fan", "2", "--winner", "小李", "--from", "老王")
    again = e.run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", code=2)
    assert again.stderr == "Error: the same as hand 1, just recorded elsewhere: not again without --yes\n"
    assert "confirm_duplicate" not in again.output
    # at the prompt fed by a script: refused the same way (exit 1 at the end), then said again with --yes
    out = e.run("play", "d", input="小李 老王 2\n小李 老王 2 --yes\nquit\n", code=1)
    assert "Error: the same as hand 1, just recorded elsewhere: not again without --yes" in out.stderr
    assert json.loads(e.run("show", "--json").stdout)["hands"][-1]["number"] == 2
    assert not too_wide(out.output)


# --- 13: the log --------------------------------------------------------------------------------------------


def test_the_log_is_one_readable_line_per_event(evening):
    text = evening.run("log").stdout
    lines = text.splitlines()
    assert not too_wide(text)
    assert not re.search(r"\b[0-9a-f]{12}\b", text)  # no hand ids
    assert "{" not in text and "all_pungs" not in text and "rules_sha256" not in text
    said = [re.sub(r"^\s*\d+\s+(\d\d-\d\d )?\d\d:\d\d\s+", "", line) for line in lines[1:]]
    events = json.loads(evening.run("log", "--json").stdout)["events"]
    assert len([s for s in said if not s.startswith(" ")]) == len(events)  # one (first) line each
    for wanted in ["opened (beijing): E 老王, S 小李, W 阿张, N 大刘",
                   "hand 1: 小李 ← 老王 3番  1235m 456p 234789s +5m",
                   "hand 2: 阿张 自摸 1番  123m 456p 234789s * +5m",
                   "hand 3: 阿张 ← 大刘 4番  named 对对和",
                   "seats: S 小陈 (was 小李)",
                   "hand 5: 荒牌 draw",
                   "rules: beijing 北京麻将 → zhuji 诸暨包牌",
                   "hand 6: 大刘 ← 老王 2台",
                   "undo of hand 6: 大刘 ← 老王 2台",
                   "hand 6: 大刘 ← 老王 1台",
                   "rules: zhuji 诸暨包牌 → beijing-classic 北京麻将 (比赛规则)",
                   "penalty 罚分: 大刘 -1000, 1000 to 小陈",
                   "edit of hand 4: 2番 → 3番",
                   "first hand's seating corrected: S 李明 (renamed from 小李)",
                   "dealer corrected: W 阿张 deals next"]:
        assert wanted in said, wanted
    assert any(s.startswith("penalty 诈和: 老王 -12000, 4000 to each other player") for s in said)
    assert any(re.fullmatch(r"revert of revision \d+: penalty 罚分 taken back", s) for s in said)
    # the machine form is the log as it was: every event with its data
    assert [e["kind"] for e in events][:3] == ["open", "hand", "hand"] and "hand_id" in events[1]["data"]


# --- 14: each hand in its own rules' words; a rename in one line; built-in said -------------------------------


def test_an_old_hand_keeps_its_rules_words_after_a_switch(evening):
    text = evening.run("show").stdout
    assert "惠 5m" in text and "财神" not in text  # hand 2 was a beijing hand: its wildcard is a 惠
    hands = json.loads(evening.run("show", "--json").stdout)["hands"]
    assert hands[1]["context"] == ["惠 5m"]
    units = {h["number"]: h["unit"] for h in hands}
    assert units[1] == "番" and units[6] == "台"
    rows = list(csv.DictReader(io.StringIO(evening.run("export").stdout)))
    assert [r["context"] for r in rows if r["hand"] == "2"] == ["惠 5m"]


def test_a_rename_is_said_once_and_moves_no_money(evening):
    out = evening.rename_asked.stdout
    assert "paid as before" not in out
    assert "  小李 is 李明 in every hand\n  no hand is paid or placed otherwise\n" in out
    assert out.splitlines() == ["first hand's seating: E 老王, S 李明, W 阿张, N 大刘",
                                "  小李 is 李明 in every hand", "  no hand is paid or placed otherwise",
                                "correct it? [y/N]: n", "nothing changed (--yes corrects without asking)"]


def test_a_renumbering_is_one_line(tmp_path):
    e = Evening(tmp_path / "n.sqlite3")
    e.run("new", "n", *SEATS)
    for _ in range(6):  # 老王 deals and keeps the deal: each a 2 番 self-draw (+ 庄 1 = 3 from each)
        e.run("hand", PLAIN, "--winner", "老王", "--yes")
    out = e.run("undo", "--hand", "1", "--yes").stdout
    assert out.count("paid as before") == 1, out
    assert "  hands 2–6 now numbered 1–5, each paid as before" in out


def test_a_built_in_is_said_built_in_and_a_file_is_named(evening, tmp_path):
    assert "read from" not in evening.run("rules").stdout
    rules = [out for args, out, _ in evening.said if args[:2] == ("rules", "诸暨")][0]
    assert rules.startswith("rules     zhuji 诸暨包牌, built-in, kept in the ledger") and "read from" not in rules
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: house\n", encoding="utf-8")
    e = Evening(tmp_path / "h.sqlite3")
    e.run("new", "h", "-r", str(house), *SEATS)
    said = e.run("rules").stdout
    assert "built-in" not in said and f"read from {house}" in said


def test_a_penalty_at_a_table_whose_rules_have_none_is_refused_in_80_columns(tmp_path):
    """`table penalty` at a beijing table: one line that fits, saying a house ruleset can add them."""
    db = str(tmp_path / "p.sqlite3")
    made = CliRunner().invoke(cli, ["table", "new", "p", "-r", "beijing", *SEATS, "--db", db])
    assert made.exit_code == 0, made.output
    refused = CliRunner().invoke(cli, ["table", "penalty", "诈和", "--player", "老王", "--db", db])
    assert refused.exit_code in (1, 2) and "penalties:" in refused.stderr, refused.output
    assert [columns(line) <= 80 for line in refused.stderr.splitlines()] == [True]
