"""`text_table.simple_table` draws the tables mjcalc prints itself, character for character as tabulate's "simple"
format does, wrapped cells (maxcolwidths) and multi-line ones too; tabulate is imported only for the tables it
does not take, and is the reference here."""

import click
import pytest
import wcwidth
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from mjcalc.cli.common import table
from mjcalc.cli.text_table import _PLAIN_RANGES, char_width, simple_table

COLOURS = ["\x1b[32m", "\x1b[31m", "\x1b[1m", "\x1b[0m"]
PIECES = ["a", "Z", "9", " ", "  ", "-", "+", "%", ".", "(", ")", "|", "×", "·", "—", "…", "−", "→", "庄", "门清",
          "一条龙", "番", "，", "（", "Ａ", "🀄", "\u3000", "é", "\t", "\n", "True", "", "0", "12"] + COLOURS + [
          c + " " for c in COLOURS] + [" " + c for c in COLOURS]


def tab(rows, headers):
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)


cell = st.one_of(st.integers(-10 ** 6, 10 ** 6), st.lists(st.sampled_from(PIECES), max_size=5).map("".join))


@settings(max_examples=1500, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.sampled_from(PIECES), min_size=0, max_size=3).map("".join), min_size=n, max_size=n),
    st.lists(st.lists(cell, min_size=n, max_size=n), min_size=1, max_size=6))))
def test_the_same_as_tabulate(case):
    headers, rows = case
    assert table(rows, headers) == tab(rows, headers)


def test_the_widths_measured_here_are_wcwidths():
    """Every character the drawing measures has wcwidth's width (the one tabulate uses)."""
    checked = 0
    for low, high in _PLAIN_RANGES:
        for code in range(low, high + 1):
            ch = chr(code)
            w = char_width(ch)
            if w is not None:
                assert w == wcwidth.wcwidth(ch), (hex(code), w, wcwidth.wcwidth(ch))
                checked += 1
    assert checked > 20000


@pytest.mark.parametrize("args", ["analyze '[111m] 222p 333s EEE 9m +9m' --shaozhuang 1",
                                  "advise '1111234566p 7p 9p FF' --by value --lang en",
                                  "advise '123m456p789s EE 5m * C' --wild 5m --glyphs", "compare '11223344556677m'",
                                  "rulesets", "rulesets show zhuji"])
def test_real_output_is_unchanged(args, monkeypatch):
    """Whole commands, colour on and off: the drawing here, then tabulate for every table."""
    import shlex

    from click.testing import CliRunner

    import mjcalc.cli.common as common
    import mjcalc.cli.output as output
    from mjcalc.cli import cli

    for colour in (False, True):
        mine = CliRunner().invoke(cli, shlex.split(args), color=colour)
        monkeypatch.setattr(common, "simple_table", lambda *table: None)
        monkeypatch.setattr(output, "simple_table", lambda *table: None)
        theirs = CliRunner().invoke(cli, shlex.split(args), color=colour)
        monkeypatch.undo()
        assert mine.exit_code == theirs.exit_code == 0, mine.output
        assert mine.output == theirs.output


# --- wrapped and multi-line cells (tabulate's maxcolwidths) -------------------------------------------------

WORDS = ["self-drawn", "no:", "a", "bb", "well-known", "x--y", "e-mail", "-", "(dealer", "winner)", "清一色", "推倒和",
         "庄", "门清无惠", "(混儿)", "一条龙", "，", "1m", "9p", "E", "C", "1m×3", "5p×4", "12", "3.5%", "+9", "-16",
         "24.0%", "×", "—", "…", "→", "🀄", "🀇"]
SPACES = ["", " ", " ", "  ", "\n", " \n", "\n ", "\n\n"]
STYLES = [{"fg": "green"}, {"fg": "red"}, {"bold": True}]


@st.composite
def text_cell(draw, max_words=8):
    """Words and spaces, a stretch of them coloured as click.style colours (or a colour left open)."""
    parts = draw(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SPACES)), max_size=max_words))
    text = "".join(w + s for w, s in parts)
    if text and draw(st.booleans()):
        a, b = sorted(draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=2)))
        style = draw(st.sampled_from(STYLES))
        coloured = click.style(text[a:b], **style) if draw(st.booleans()) else click.style(text[a:b], reset=False,
                                                                                           **style)
        text = text[:a] + coloured + text[b:]
    return text


wrapped_cell = st.one_of(st.integers(-10 ** 6, 10 ** 6), text_cell()).filter(lambda c: c != "\n")


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(text_cell(max_words=3), min_size=n, max_size=n),
    st.lists(st.lists(wrapped_cell, min_size=n, max_size=n), min_size=1, max_size=5),
    st.lists(st.one_of(st.none(), st.integers(1, 30)), min_size=n, max_size=n))))
def test_wrapped_tables_are_tabulates(case):
    headers, rows, limits = case
    for j, limit in enumerate(limits):  # tabulate never finishes a one-column cell with a wide character
        if limit == 1 and any(wcwidth.wcswidth(ch) == 2 for row in rows for ch in str(row[j])):
            limits[j] = 2
    expected = tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True, maxcolwidths=limits)
    assert simple_table(rows, headers, limits) == expected


@pytest.mark.parametrize("cell", ["False", "True", "1,000", "\n", "-2,000.5"])
def test_cells_tabulate_rewrites_are_left_to_it(cell):
    """Its type guess changes these before wrapping ("False" prints as "True", "1,000" fails): not drawn here."""
    assert simple_table([[cell, "a"]], ["h", "k"], [5, None]) is None
    assert simple_table([[cell, "a"]], ["h", "k"]) is not None  # not wrapped, they are drawn here as they are


def test_multi_line_cells_without_limits():
    rows = [["清一色\n推倒和", 1], ["", ""], ["a\n\n" + click.style("b", fg="red"), "\n x "]]
    assert table(rows, ["名\n称", "n"]) == tabulate(rows, headers=["名\n称", "n"], tablefmt="simple",
                                                    disable_numparse=True)


def test_unmeasured_characters_are_left_to_tabulate():
    assert simple_table([["\u0301a"]], ["h"], [5]) is None
    assert simple_table([["a\tb"]], ["h"], [5]) is None
    assert simple_table([["a\x1b]8;;x\x1b\\b\x1b]8;;\x1b\\"]], ["h"], None) is None


# --- the real commands: wrapped to the width, drawn as tabulate draws them, without importing it ------------

COMMANDS = ["advise '1m 9m 1p 9p 1s 9s S W N EEEE C' -r shangrao --wild E",
            "advise '11112345667p 9p FF' --by value",
            "advise '11112345667p 9p FF' --by value --lang en",
            "compare '123m456p789s EE 45m +6m'",
            "compare '11223344556677m' --lang en",
            "analyze '[111m] 222p 333s EEE 9m +9m' --shaozhuang 1",
            "analyze '123m456p789s EE 55m +5m' -r shangrao --wild 5m",
            "waits '1112345678999m'",
            "advise '123m456p789s EE 5m C 1m' --wild 5m --glyphs",
            "explain", "explain 抢杠"]  # pinyin's tone marks (ǎ)

IN_A_FRESH_PROCESS = """
import json, shlex, sys
from click.testing import CliRunner
from mjcalc.cli import cli
out = {args: CliRunner().invoke(cli, shlex.split(args), color=True).output for args in json.loads(sys.argv[1])}
out["imported"] = sorted(m for m in sys.modules if m.split(".")[0] in ("tabulate", "wcwidth"))
print(json.dumps(out))
"""


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_real_wrapped_output_imports_no_tabulate_and_fits(columns, monkeypatch):
    import json
    import os
    import shlex
    import subprocess
    import sys

    from click.testing import CliRunner

    import mjcalc.cli.output as output
    from mjcalc.cli import cli

    run = subprocess.run([sys.executable, "-c", IN_A_FRESH_PROCESS, json.dumps(COMMANDS)], capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": str(columns)}, check=True)
    mine = json.loads(run.stdout)
    assert mine.pop("imported") == []
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(output, "simple_table", lambda *table: None)  # every table drawn by tabulate
    wrapped = 0
    for args in COMMANDS:
        theirs = CliRunner().invoke(cli, shlex.split(args), color=True)
        assert theirs.exit_code == 0, theirs.output
        assert mine[args] == theirs.output, args
        lines = click.unstyle(mine[args]).splitlines()
        assert max(wcwidth.wcswidth(line) for line in lines) <= columns, args
        monkeypatch.setenv("COLUMNS", "1000")
        wrapped += CliRunner().invoke(cli, shlex.split(args), color=True).output != theirs.output
        monkeypatch.setenv("COLUMNS", str(columns))
    assert wrapped >= 3  # the width matters: tables (and fields) were wrapped
    # the shangrao hand's "improved by" cells go on under the empty column before them
    assert any(line.startswith(" " * 11) and "×" in line for line in mine[COMMANDS[0]].splitlines())
