"""`cli_common.table` draws the tables mjcalc prints itself, character for character as tabulate's "simple"
format does (tabulate is imported only for the tables it does not take)."""
import random

import pytest
import wcwidth
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from mjcalc.cli_common import table
from mjcalc.text_table import _PLAIN_RANGES, char_width

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

    import mjcalc.cli_common as common
    import mjcalc.output as output
    from mjcalc.cli import cli

    for colour in (False, True):
        mine = CliRunner().invoke(cli, shlex.split(args), color=colour)
        monkeypatch.setattr(common, "simple_table", lambda *table: None)
        monkeypatch.setattr(output, "simple_table", lambda *table: None)
        theirs = CliRunner().invoke(cli, shlex.split(args), color=colour)
        monkeypatch.undo()
        assert mine.exit_code == theirs.exit_code == 0, mine.output
        assert mine.output == theirs.output
