"""Issue 35, the terminal (items 15-17): what `rulesets show`/`check` say, progress on long work, and the small
things a newcomer met — each as a player at an 80-column terminal meets it.

Amounts are worked from the rulesets' own texts (mjcalc/rulesets/beijing-classic.yaml: 诈和 pays each other player
what a 4 番 hand is worth, 4 × points_per_fan 1000 × 底分; 罚分 is 1000 points to the one player named)."""
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
