"""README.md's commands are real: the two set-up lines, the example they run, the CI script, the short tour."""
import json
import os
import re
import shlex

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


README = read("README.md")


def sh_blocks():
    return re.findall(r"^```sh\n(.*?)^```", README, flags=re.S | re.M)


def setup_lines():
    lines = [line for line in sh_blocks()[0].splitlines() if line.strip()]
    assert len(lines) == 2, lines
    return lines


def steps(line):
    """A shell line `a && b && c` as a list of argument lists."""
    return [shlex.split(part) for part in line.split(" && ")]


def mjcalc_args(line):
    """The arguments after `mjcalc` in the step of `line` that runs it."""
    (run,) = [s for s in steps(line) if os.path.basename(s[0]) == "mjcalc"]
    return run[1:]


def invoke(args):
    result = CliRunner().invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_first_line_installs_and_runs_analyze():
    first = steps(setup_lines()[0])
    assert first[0] == ["python3", "-m", "venv", ".venv"]
    assert first[1] == [".venv/bin/pip", "install", "."]
    assert first[2][0] == ".venv/bin/mjcalc" and first[2][1] == "analyze"
    assert len(first) == 3


def test_second_line_installs_the_test_extras_and_runs_pytest():
    second = steps(setup_lines()[1])
    assert second[0] == ["python3", "-m", "venv", ".venv"]
    assert second[1] == [".venv/bin/pip", "install", ".[test]"]
    assert second[2][:3] == [".venv/bin/python", "-m", "pytest"]
    assert len(second) == 3


def readme_payouts():
    """The payouts README's prose gives for the first line's hand: `E +12000, S/W/N −4000`."""
    m = re.search(r"E \+(\d+), S/W/N [−-](\d+)", README)
    assert m, "README describes the example's payouts"
    win, loss = int(m.group(1)), int(m.group(2))
    return {"E": win, "S": -loss, "W": -loss, "N": -loss}


def test_the_readme_payouts_are_the_worked_example():
    # rules-beijing.md, worked by hand: 3 番 × 底分 2000, self-drawn, with one round of 烧庄
    assert readme_payouts() == {"E": 12000, "S": -4000, "W": -4000, "N": -4000}


def test_the_analyze_command_gives_the_readme_payouts():
    args = mjcalc_args(setup_lines()[0])
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    totals = {line.split()[0]: int(line.split()[-1]) for line in result.stdout.splitlines()
              if line.split() and line.split()[0] in ("E", "S", "W", "N")}
    assert totals == readme_payouts()
    data = json.loads(invoke(args + ["--json"]).stdout)
    assert data["payouts"] == readme_payouts()
    assert "对对和" in result.stdout  # README: "self-draws 对对和"


def test_ci_runs_the_readme_test_command_verbatim():
    ci = read(".ci/run")
    assert setup_lines()[1] in ci.splitlines()


def test_the_test_command_measures_coverage_with_a_floor_under_a_point_below_the_measured_figure():
    measured = re.search(r"([\d.]+)% when the floor was set\) and fails under its floor: "
                         r"`--cov=mjcalc --cov-fail-under=([\d.]+)`", " ".join(README.split()))
    assert measured, "README says the measured figure and the floor"
    figure, floor = float(measured.group(1)), float(measured.group(2))
    assert figure - 1 < floor < figure
    assert f"--cov=mjcalc --cov-fail-under={measured.group(2)}" in setup_lines()[1]  # CI runs it: the test command
    cfg = read("setup.cfg")
    assert re.search(r"^test =\n(    .+\n)*    pytest-cov", cfg, flags=re.M)  # CI's install brings it
    assert re.search(r"^\[coverage:run\]\n(.+\n)*source = mjcalc$", cfg, flags=re.M)


def test_setup_cfg_has_the_test_extra_and_the_console_script():
    cfg = read("setup.cfg")
    assert re.search(r"^test =\n(    .+\n)*    pytest", cfg, flags=re.M)
    assert "mjcalc = mjcalc.cli.main:main" in cfg


TOUR_FILES = ("hands.txt", "my-house.yaml")


def tour():
    lines = [line.split("#")[0].strip() for line in sh_blocks()[1].splitlines()]
    return [line for line in lines if line.startswith("mjcalc ") and not any(f in line for f in TOUR_FILES)
            and not line.startswith("mjcalc table ")]


def test_tour_table_evening(tmp_path, monkeypatch):
    """The tour's ledger lines, in order, on a fresh file: 小李 wins 2 番 × 2 on 老王's (the dealer's) discard."""
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "tour.sqlite3"))
    monkeypatch.chdir(tmp_path)  # export writes friday.json here
    lines = [line.split("#")[0].strip() for line in sh_blocks()[1].splitlines()]
    table = [line for line in lines if line.startswith("mjcalc table ")]
    assert [shlex.split(line)[2] for line in table] == ["new", "hand", "hand", "draw", "show", "settle", "stats",
                                                       "export", "play", "close"]
    for line in table:
        result = invoke(shlex.split(line)[1:])
        assert result.exit_code == 0, result.output
    shown = json.loads(invoke(["table", "show", "friday", "--json"]).stdout)
    # 推倒和 1 + 庄 1 (the dealer deals in) + 门清无惠 1 = 3 番 × base 2 = 6, paid by 老王 alone; then
    # 阿张 self-draws 3 番 agreed: each other pays 3 × 2 = 6
    assert {p["player"]: p["score"] for p in shown["standings"]} == {"老王": -12, "小李": 0, "阿张": 18, "大刘": -6}
    assert [h["entry"] for h in shown["hands"]] == ["tiles", "total", None]
    settled = invoke(["table", "settle", "--json"]).stdout
    assert json.loads(settled)["transfers"] == [{"from": "老王", "to": "阿张", "amount": 12},
                                                {"from": "大刘", "to": "阿张", "amount": 6}]


@pytest.mark.parametrize("line", tour())
def test_short_tour_commands_run(line):
    result = invoke(shlex.split(line)[1:])
    assert result.exit_code == 0, result.output


def test_tour_nine_gates_waits_on_1m_to_9m():
    (line,) = [line for line in tour() if "1112345678999m" in line]
    result = invoke(shlex.split(line)[1:])
    waits = [row.split()[0] for row in result.stdout.splitlines()[2:] if row.strip()]
    assert waits == [f"{r}m" for r in range(1, 10)]


def test_the_python_example_runs():
    """README's "Use from Python" block is executed as written; its asserts are the worked example."""
    (block,) = re.findall(r"^```python\n(.*?)^```", README, flags=re.S | re.M)
    exec(compile(block, "README.md", "exec"), {})


def test_the_prerequisites_named_are_the_ones_the_package_declares():
    """A newcomer reads what to install before the two lines: the Python setup.cfg requires, and a browser."""
    (required,) = re.findall(r"^python_requires = >=(\S+)$", read("setup.cfg"), flags=re.M)
    assert f"Python {required} or newer" in README
    assert "chromium-driver" in README and "venv" in README
    assert re.search(r"takes about\s+\w+\s+minutes", README), "the test command's duration is said next to it"


def test_every_bench_script_the_readme_names_is_in_the_repository():
    """The performance figures can be re-measured from a checkout: every `bench/X.py` named exists."""
    named = set(re.findall(r"bench/([\w-]+\.py)", README + read("bench/README.md")))
    assert {"run.py", "hands.py", "peer_waits.py"} <= named
    assert sorted(n for n in named if not os.path.exists(os.path.join(ROOT, "bench", n))) == []


def test_coverage_data_is_ignored_not_committed():
    ignored = read(".gitignore").splitlines()
    assert ".coverage" in ignored
    if os.path.isdir(os.path.join(ROOT, ".git")):
        import subprocess
        tracked = subprocess.run(["git", "-C", ROOT, "ls-files", ".coverage"], capture_output=True, text=True)
        assert tracked.stdout.strip() == ""
