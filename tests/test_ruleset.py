"""Rulesets as data: validation messages name the file, the line and the path; `extends`; the safe loader."""
import json
import os
from dataclasses import FrozenInstanceError
import textwrap

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.errors import RulesetError
from mjcalc.ruleset import builtin_rulesets, load_ruleset, load_ruleset_file

MINIMAL = """\
id: house
patterns:
  tuidaohe: {value: 1}
payout: {scheme: additive}
"""

BROKEN = [
    pytest.param("id: h\npatern: {}\npatterns: {}\npayout: {scheme: additive}\n",
                 "2: patern: unknown key (did you mean 'patterns'?)", id="unknown-top-key"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  full_flush: {value: three}\n",
                 "4: patterns.full_flush.value: expected an integer, got 'three'", id="value-not-integer"),
    pytest.param("id: h\npatterns: {full_flsh: {value: 1}}\npayout: {scheme: additive}\n",
                 "2: patterns.full_flsh: unknown pattern (did you mean 'full_flush'?)", id="unknown-pattern"),
    pytest.param("extends: beijing\nid: h\npayout: {scheme: additve}\n",
                 "3: payout.scheme: unknown payout scheme (did you mean 'additive'?)", id="unknown-scheme"),
    pytest.param("extends: beijing\nid: h\nscoring: {cap: -1}\n",
                 "3: scoring.cap: must be from 0 to 1000000, got -1", id="negative-cap"),
    pytest.param("extends: beijing\nid: h\nscoring: {minimum: 3, cap: 2}\n",
                 "3: scoring.cap: the cap 2 is below the minimum 3", id="cap-below-minimum"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  dragon: {value: -3}\n",
                 "4: patterns.dragon.value: must be from 0 to 10000, got -3", id="negative-value"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  dragon: {value: 3, excludes: [full_flsh]}\n",
                 "4: patterns.dragon.excludes: names 'full_flsh', which this ruleset does not have (did you mean 'full_flush'?)",
                 id="excludes-unknown"),
    pytest.param("extends: beijing\nid: h\nshapes: [standard, seven_pair]\n",
                 "3: shapes: unknown shape 'seven_pair' (did you mean 'seven_pairs'?)", id="unknown-shape"),
    pytest.param("extends: beijing\nid: h\nwildcard: {kinds: 3}\n",
                 "3: wildcard.kinds: expected one of 0, 1, 2, got 3", id="wild-kinds"),
    pytest.param("id: h\npatterns: {tuidaohe: {value: 1}}\n",
                 "1: (top): missing required key 'payout'", id="missing-payout"),
    pytest.param("id: [h\n", "2: not valid YAML: did not find expected ',' or ']'", id="yaml-syntax"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  dragon: {value: 3, role: adder}\n",
                 "4: patterns.dragon.role: expected one of add, base, multiplier, bonus, got 'adder' (did you mean 'add'?)",
                 id="unknown-role"),
    pytest.param("extends: beijing-money\nid: h\npayout:\n  params: {payer_cap: lots}\n",
                 "4: payout.params.payer_cap: expected an integer, got 'lots'", id="scheme-param-type"),
    pytest.param("id: h\nid: g\npatterns: {}\npayout: {scheme: additive}\n",
                 "2: id: a key written twice", id="duplicate-key"),
    pytest.param("- id: h\n", "1: a ruleset is a mapping of keys (id, name, patterns, …)", id="not-a-mapping"),
    pytest.param("extends: beijing\nid: h\nwins: {discard: sometimes}\n",
                 "3: wins.discard: expected one of any, concealed, concealed_if_wild, never, got 'sometimes'", id="win-rule"),
    # issue 11: one range for every number, params validated per pattern, no hostile value through
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 5, params: {bogus: 1}}\n",
                 "4: patterns.seven_pairs.params.bogus: unknown parameter (known: dealer_value, discard_value, flat, or_without, without_wild)",
                 id="param-unknown"),
    pytest.param("extends: zhuji\nid: h\npatterns:\n  east_pung: {value: 1, params: {dealer_cont: 2}}\n",
                 "4: patterns.east_pung.params.dealer_cont: unknown parameter (did you mean 'dealer_count'?)",
                 id="param-did-you-mean"),
    pytest.param("extends: zhuji\nid: h\npatterns:\n  east_pung: {value: 1, params: {dealer_count: -50}}\n",
                 "4: patterns.east_pung.params.dealer_count: must be from 1 to 4, got -50", id="param-negative"),
    pytest.param("extends: shangrao\nid: h\npatterns:\n  kong_bloom: {value: 2, params: {per_kong: .inf}}\n",
                 "4: patterns.kong_bloom.params.per_kong: expected true or false, got inf", id="param-inf"),
    pytest.param("extends: shangrao\nid: h\npatterns:\n  kong_bloom: {value: 2, params: {without_wild: .nan}}\n",
                 "4: patterns.kong_bloom.params.without_wild: expected an integer, got nan", id="param-nan"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 5, params: {without_wild: 10001}}\n",
                 "4: patterns.seven_pairs.params.without_wild: must be from 0 to 10000, got 10001", id="param-range"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 5, params: [1]}\n",
                 "4: patterns.seven_pairs.params: expected a mapping, got [1]", id="params-a-list"),
    pytest.param("extends: shangrao\nid: h\npatterns:\n  plain: {value: 1, params: {flat: 1}}\n",
                 "4: patterns.plain.params.flat: expected true or false, got 1", id="region-param"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: .inf}\n",
                 "4: patterns.seven_pairs.value: expected an integer, got inf", id="value-inf"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 10001}\n",
                 "4: patterns.seven_pairs.value: must be from 0 to 10000, got 10001", id="value-too-big"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: null}\n",
                 "4: patterns.seven_pairs.value: expected an integer, got None", id="value-null"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 5, excludes: [[x]]}\n",
                 "4: patterns.seven_pairs.excludes: expected a list of names, got ['x'] in it", id="excludes-nested"),
    pytest.param("extends: beijing\nid: h\npatterns:\n  seven_pairs: {value: 5, excluded_by: [{a: 1}]}\n",
                 "4: patterns.seven_pairs.excluded_by: expected a list of names, got {'a': 1} in it",
                 id="excluded-by-mapping"),
    pytest.param("extends: beijing\nid: h\nscoring: {cap: 99999999999}\n",
                 "3: scoring.cap: must be from 0 to 1000000, got 99999999999", id="cap-too-big"),
    pytest.param("extends: beijing\nid: h\nscoring: {minimum: .nan}\n",
                 "3: scoring.minimum: expected an integer, got nan", id="minimum-nan"),
    pytest.param("extends: beijing\nid: h\nsession: {shanglou_levels: 64}\n",
                 "3: session.shanglou_levels: must be from 0 to 16, got 64", id="levels-too-many"),
    pytest.param("extends: beijing-money\nid: h\npayout:\n  params: {payer_cap: 10000000000000000000}\n",
                 "4: payout.params.payer_cap: must be from 0 to 1000000, got 10000000000000000000",
                 id="scheme-param-huge"),
    pytest.param("extends: beijing\nid: h\nname: \"a\\x1b[31mred\"\n",
                 "3: name: holds an invisible or control character (\\x1b): 'a\\x1b[31mred'", id="name-escape"),
    pytest.param("extends: beijing\nid: \"h\\u200b\"\n",
                 "2: id: holds an invisible or control character (\\u200b): 'h\\u200b'", id="id-invisible"),
    pytest.param("extends: beijing\nid: h\naliases: [a, [b]]\n",
                 "3: aliases: expected a list of names, got ['b'] in it", id="alias-list"),
    pytest.param("extends: beijing\nid: h\noptions: [{a: 1}]\n",
                 "3: options: expected a list of names, got {'a': 1} in it", id="options-mapping"),
    pytest.param("extends: [beijing]\nid: h\n",
                 "1: extends: expected a ruleset name, got ['beijing']", id="extends-list"),
    pytest.param("extends: beijing\nid: h\nwins: {rob_concealed_kong: dragn}\n",
                 "3: wins.rob_concealed_kong: expected any, never or a pattern of this ruleset (the one the robbed tile "
                 "must complete), got 'dragn'", id="rob-concealed-kong"),
    pytest.param("extends: beijing-money\nid: h\npayout: {params: {exposed_kong: -1}}\n",
                 "3: payout.params.exposed_kong: must be at least 0, got -1", id="kong-money-negative"),
]


def write(tmp_path, text, name="house.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("text, message", BROKEN)
def test_broken_ruleset_message(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file("house.yaml")
    assert str(info.value) == f"house.yaml:{message}"


@pytest.mark.parametrize("text, message", BROKEN[:3])
def test_check_command_exit_1(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text)
    write(tmp_path, MINIMAL, "good.yaml")
    result = CliRunner().invoke(cli, ["rulesets", "check", "good.yaml", "house.yaml"])
    assert result.exit_code == 1
    assert result.stdout == "good.yaml: ok (house, 1 patterns)\n"
    assert result.stderr == f"Error: house.yaml:{message}\n"


def test_analyze_with_invalid_ruleset_file_exits_1(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, BROKEN[1].values[0])
    result = CliRunner().invoke(cli, ["analyze", "123m456p789s EE 45m +6m", "-r", "house.yaml"])
    assert result.exit_code == 1
    assert result.stderr == "Error: house.yaml:4: patterns.full_flush.value: expected an integer, got 'three'\n"


def test_unknown_ruleset_name_is_a_usage_error():
    result = CliRunner().invoke(cli, ["analyze", "123m456p789s EE 45m +6m", "-r", "bejing"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: unknown ruleset 'bejing' (did you mean 'beijing'?)")


def test_python_object_tag_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "ran"
    write(tmp_path, f"id: x\npatterns:\n  a: !!python/object/apply:os.system ['touch {marker}']\npayout: {{scheme: additive}}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset_file("house.yaml")
    assert "could not determine a constructor for the tag 'tag:yaml.org,2002:python/object/apply:os.system'" in str(info.value)
    assert not marker.exists()


def test_extends_changes_exactly_one_value(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: my-house\npatterns:\n  seven_pairs: {value: 5}\n")
    house, base = load_ruleset_file("house.yaml"), load_ruleset("beijing")
    assert house.id == "my-house"
    changed = {p.id for p in house.patterns if p != base.pattern(p.id)}
    assert changed == {"seven_pairs"}
    assert house.pattern("seven_pairs").value == 5
    assert house.pattern("seven_pairs").zh == base.pattern("seven_pairs").zh  # the name is inherited
    same = {k: v for k, v in house.__dict__.items() if k not in ("id", "patterns", "path")}
    assert same == {k: v for k, v in base.__dict__.items() if k not in ("id", "patterns", "path")}
    hand = "11m 55m 22p 33s 44s EE C +C"
    out = {}
    for name in ("beijing", "house.yaml"):
        result = CliRunner().invoke(cli, ["analyze", hand, "--seat", "S", "-r", name, "--json"])
        out[name] = json.loads(result.stdout)
    # 七对子 4 → 5, 门清无惠 1: totals 5 and 6 (worked from the two tables)
    assert out["beijing"]["total"] == 5
    assert out["house.yaml"]["total"] == 6


def test_extends_cycle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: b.yaml\nid: a\n", "a.yaml")
    write(tmp_path, "extends: a.yaml\nid: b\n", "b.yaml")
    with pytest.raises(RulesetError, match="extends: a cycle"):
        load_ruleset_file("a.yaml")


def test_builtins_load_and_are_listed():
    ids = {r.id for r in builtin_rulesets()}
    assert {"beijing", "beijing-money"} <= ids
    result = CliRunner().invoke(cli, ["rulesets"])
    assert result.exit_code == 0
    for rid in ids:
        assert rid in result.stdout


def test_alias_finds_ruleset():
    assert load_ruleset("bj").id == "beijing"
    assert load_ruleset("北京").id == "beijing"


def test_rulesets_show_lists_every_pattern():
    result = CliRunner().invoke(cli, ["rulesets", "show", "beijing", "--lang", "en"])
    assert result.exit_code == 0
    for pid in ("tuidaohe", "dealer", "all_pungs", "luxury_seven_pairs", "heavenly"):
        assert pid in result.stdout
    assert "full flush" in result.stdout


def test_loaded_ruleset_is_frozen():
    rules = load_ruleset("beijing")
    with pytest.raises(FrozenInstanceError):
        rules.minimum = 3
    with pytest.raises(FrozenInstanceError):
        rules.patterns[0].value = 99


def test_the_compiled_builtins_are_the_yaml_files():
    """Built-ins load from mjcalc/rulesets/compiled.py (no YAML at run time); it must equal the YAML validated
    now. After editing rulesets/*.yaml, regenerate it with `python -m mjcalc.ruleset`."""
    from mjcalc.ruleset import builtin_paths, compile_builtins
    from mjcalc.rulesets import compiled as compiled_rulesets
    import pathlib

    assert pathlib.Path(compiled_rulesets.__file__).read_text(encoding="utf-8") == compile_builtins()
    for path in builtin_paths():
        assert load_ruleset(path.stem) == load_ruleset_file(path)


def test_using_a_builtin_ruleset_reads_no_yaml():
    import subprocess
    import sys
    code = "import sys, mjcalc.cli, mjcalc\nmjcalc.load_ruleset('zhuji')\nprint('yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize("name, key", [
    ("beijing-classic", "points_per_fan"), ("beijing-classic", "shaozhuang"), ("beijing-doubling", "dealer_factor"),
    ("beijing-hunr", "discarder_factor"), ("beijing-hunr", "flat"), ("beijing-hunr", "shaozhuang"),
    ("beijing-money", "concealed_kong"), ("beijing-money", "exposed_kong"), ("beijing-money", "genzhuang"),
])
def test_rulesets_show_says_what_each_new_payout_parameter_means(name, key):
    result = CliRunner().invoke(cli, ["rulesets", "show", name])
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if ln.strip().startswith(f"{key} = "))
    value, meaning = line.split(":", 1)
    assert len(meaning.split()) >= 6, line


def test_rulesets_show_says_points_per_fan_is_our_choice():
    text = CliRunner().invoke(cli, ["rulesets", "show", "beijing-classic"]).output
    assert "points_per_fan = 1000: 1 番 = this many points" in text and "half, rounded up" in text


def test_a_long_extends_chain_is_refused_without_recursion(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for i in range(1500):
        parent = f"c{i + 1}.yaml" if i < 1499 else "beijing"
        (tmp_path / f"c{i}.yaml").write_text(f"extends: {parent}\nid: c{i}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset_file("c0.yaml")
    assert str(info.value) == "c15.yaml:1: extends: more than 16 files extend one another; write a shorter chain"
    assert load_ruleset_file("c1485.yaml").id == "c1485"  # 15 files and a built-in: fine


@pytest.mark.parametrize("text, hand, words", [
    # 2^番 beyond any amount: refused before 2^N is computed, one line
    ("extends: beijing-money\nid: h\nscoring: {cap: 1000000}\npatterns:\n  seven_pairs: {value: 10000}\n",
     "11223344556677m", "a hand of 10006 番 pays 2^10006"),
    # multipliers that multiply past any amount
    ("extends: shangrao\nid: h\npatterns:\n  seven_star_thirteen_lonely: {value: 10000}\n"
     "  flown: {value: 10000, role: multiplier, scale: power}\n", "147m 25p 36s ESWNCF +P", "more than"),
])
def test_amounts_beyond_any_table_are_one_line_errors(tmp_path, monkeypatch, text, hand, words):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, text)
    extra = ["--flown", "4"] if "flown" in text else []
    result = CliRunner().invoke(cli, ["analyze", hand, "-r", "house.yaml", "--json"] + extra)
    assert result.exit_code == 2, result.output
    assert words in result.stderr and len(result.stderr.splitlines()) == 1


def test_the_wheel_carries_the_top_level_rulesets_and_finds_every_builtin(tmp_path):
    """The built-ins live in the repository's top-level rulesets/ (where a player reads them); the wheel a user
    installs carries them as package data, and mjcalc imported from it finds every one, its rules page and the
    glossary there, not in the checkout. Built from a copy of the sources, as pip builds a wheel."""
    import shutil
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    src = tmp_path / "src"
    src.mkdir()
    for name in ("setup.cfg", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(root / name, src / name)
    for folder in ("mjcalc", "rulesets"):
        shutil.copytree(root / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(src), "-w", str(tmp_path)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("mjcalc-*.whl")
    stems = sorted(p.stem for p in (root / "rulesets").glob("*.yaml") if p.stem != "glossary")
    names = set(zipfile.ZipFile(wheel).namelist())
    for stem in stems:
        assert {f"mjcalc/rulesets/builtin/{stem}.yaml", f"mjcalc/rulesets/builtin/{stem}.md"} <= names
    assert "mjcalc/rulesets/builtin/glossary.yaml" in names
    assert "mjcalc/py.typed" in names  # PEP 561: a type checker reads mjcalc's own annotations
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = ("import mjcalc.ruleset as r, mjcalc.glossary as g\n"
            "print(r.BUILTIN_DIR)\nprint(' '.join(sorted(p.stem for p in r.builtin_paths())))\n"
            "print(all(r.load_ruleset_file(p).id == r.load_ruleset(p.stem).id and p.with_suffix('.md').is_file()"
            " for p in r.builtin_paths()))\nprint(g.GLOSSARY_FILE.is_file())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(site)})
    assert run.returncode == 0, run.stderr
    where, found, loads, glossary = run.stdout.splitlines()
    assert Path(where) == site / "mjcalc" / "rulesets" / "builtin"
    assert found.split() == stems and len(stems) == 12
    assert (loads, glossary) == ("True", "True")
