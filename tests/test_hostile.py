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
    "alias-bomb": (_bomb().encode(), ":6: ", "aliases"),
    "alias-bomb-under-unknown-key": (("bogus:\n" + "".join("  " + line + "\n" for line in _bomb().splitlines())).encode(),
                                     ":7: ", "aliases"),
    "recursive-alias": (b"a: &a [*a]\n", ":1: ", "alias"),
    "deep-flow": (b"id: x\nbogus: " + b"[" * 900 + b"]" * 900 + b"\n", ":2: ", "nested"),
    "deep-block": ("".join(" " * i + f"k{i}:\n" for i in range(1200)).encode(), ":1000: ", "nest"),
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
    start = time.perf_counter()
    result = run("rulesets", "check", str(path))
    elapsed = time.perf_counter() - start
    line = one_line_error(result, 1, str(path), words)
    assert line.startswith(f"Error: {path}{where}"), line
    assert elapsed < 0.5, elapsed
    start = time.perf_counter()
    result = run("analyze", HAND, "-r", str(path))
    assert time.perf_counter() - start < 0.5
    one_line_error(result, 1, str(path), words)


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_situation_files_are_refused_fast(tmp_path, name):
    data, where, words = HOSTILE_FILES[name]
    if name in ("a duplicate key",):
        data = b"seat: S\nseat: W\n"
    path = tmp_path / "s.yaml"
    path.write_bytes(data)
    start = time.perf_counter()
    result = run("analyze", HAND, "--situation", str(path))
    assert time.perf_counter() - start < 0.5
    line = one_line_error(result, 2, f"--situation {path}")
    if name not in ("alias-bomb", "deep-but-legal-for-libyaml", "5000 digits", "bad yaml"):
        assert words in line, line


def test_dev_zero_is_refused_at_once():
    start = time.perf_counter()
    result = run("rulesets", "check", "/dev/zero")
    assert time.perf_counter() - start < 0.5
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
