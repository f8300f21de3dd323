"""The shape of the code, checked: no import cycles, no private name imported from another module, function-local
imports only where start-up time needs them (and saying so), generic modules that speak no region's words, and
one source of truth for the options a ruleset reads."""
import ast
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.cli import cli
from mjcalc.errors import RulesetError
from mjcalc.regions import all_regions
from mjcalc.ruleset import builtin_rulesets, load_ruleset_file

PACKAGE = Path(mjcalc.__file__).parent
MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, run_time: bool = False):
    """(imported module, names, line, at top level) for each `from … import` / `import` of mjcalc modules; with
    `run_time`, not those under `if TYPE_CHECKING:`, which only the type checker reads (nothing runs them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    top = {id(n) for n in tree.body}
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if run_time and id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "mjcalc" or target.startswith("mjcalc."):
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    if (PACKAGE.parent / Path(*full.split("."))).with_suffix(".py").exists() or \
                            (PACKAGE.parent / Path(*full.split("."))).is_dir():
                        yield full, (), node.lineno, id(node) in top
                    else:
                        yield target, (alias.name,), node.lineno, id(node) in top
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mjcalc"):
                    yield alias.name, (), node.lineno, id(node) in top


def graph():
    edges = {}
    for path in MODULES:
        edges[module_name(path)] = {target for target, _, _, _ in imports(path, run_time=True)}
    return edges


def test_there_are_no_import_cycles():
    edges = graph()
    state = {}
    cycles = []

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if nxt not in edges:
                continue
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def test_the_cycle_finder_finds_a_cycle():
    # The check above must be able to fail: the same search on a graph with a cycle.
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    seen, found = set(), []

    def visit(node, stack):
        for nxt in edges[node]:
            if nxt in stack:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in seen:
                seen.add(nxt)
                visit(nxt, stack + [nxt])

    visit("a", ["a"])
    assert found == [["a", "b", "c", "a"]]


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for path in MODULES:
        for target, names, line, _ in imports(path):
            for name in names:
                if name.startswith("_") and not name.startswith("__"):
                    bad.append(f"{path.name}:{line}: {target}.{name}")
    assert bad == []


def test_function_local_imports_say_why():
    """A function-local import is only for start-up time, and a comment on its line (or its group of imports, or
    the line above) says so."""
    bad = []
    for path in MODULES:
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                if isinstance(getattr(node, "parent", None), ast.Try):
                    continue
                # a run of imports together is one group: a comment on any of its lines, or above it, says why
                first = last = node.lineno - 1
                while first > 0 and lines[first - 1].strip().startswith(("from ", "import ")):
                    first -= 1
                while last + 1 < len(lines) and lines[last + 1].strip().startswith(("from ", "import ")):
                    last += 1
                here = " ".join(lines[max(first - 1, 0):last + 1])
                if "#" not in here:
                    bad.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert bad == [], "function-local imports without a reason:\n" + "\n".join(bad)


# --- generic modules speak no region's words ----------------------------------------------------------------

GENERIC = ["scoring.py", "told.py", "payouts.py", "render.py", "analysis.py", "advice.py", "situation.py", "ruleset.py",
           "session.py", "settle.py", "value.py", "cli/main.py", "cli/common.py", "cli/table.py",
           "cli/play.py", "cli/text_table.py", "evening/record.py", "evening/ledger.py", "evening/replay.py",
           "evening/documents.py"]
REGIONAL_TERMS = ["烧庄", "互包", "包家", "包牌", "财神", "飞宝", "接宝", "吃碰堤", "推倒和", "四惠", "混儿", "宝吊",
                  "shaozhuang", "mutual", "bidder", "flown", "jiebao", "four_wild"]


def regional_words():
    """Every pattern id only a region's own module detects, every region option's name, and the terms above; not
    a situation field every ruleset reads nor a shape (国标's 自摸 is the pattern `self_drawn`, as the fans table
    names it)."""
    from mjcalc.patterns import COMMON
    from mjcalc.shapes import SHAPES
    from mjcalc.situation import GENERIC as EVERY_RULESETS
    words = set(REGIONAL_TERMS)
    for region in all_regions():
        words |= {pid for pid in region.detectors if pid not in COMMON}
        words |= {o.name for o in region.options}
    return words - set(EVERY_RULESETS) - set(SHAPES)  # 国标's 组合龙 is the shape's pattern, `knitted_straight`


def code_of(path: Path) -> str:
    """The module's code without its docstrings and comments (they may explain with an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
    return ast.unparse(tree)


@pytest.mark.parametrize("name", GENERIC)
def test_generic_modules_speak_no_regional_words(name):
    code = code_of(PACKAGE / name)
    # `.kong` is a regional attribute; `.kong_draw` (every ruleset's situation field) is not
    found = sorted(w for w in regional_words() if (f"'{w}'" in code or f'"{w}"' in code or
                                                   (not w.isascii() and w in code) or
                                                   re.search(rf"\.{re.escape(w)}\b", code)))
    assert found == []


def test_the_regional_word_scan_can_fail():
    assert "shaozhuang" in regional_words() and "catch_five" in regional_words()
    assert "'shaozhuang'" in code_of(PACKAGE / "regions" / "beijing.py") or '"shaozhuang"' in \
        code_of(PACKAGE / "regions" / "beijing.py")


# --- one source of truth for the options a ruleset reads ------------------------------------------------------


def write(tmp_path, text, name="house.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_misspelt_option_is_a_file_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: h\noptions: [shaozhung, mutual]\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset_file("house.yaml")
    assert str(info.value) == ("house.yaml:3: options: 'shaozhung' is not an option of region beijing "
                               "(did you mean 'shaozhuang'?)")
    result = CliRunner().invoke(cli, ["rulesets", "check", "house.yaml"])
    assert result.exit_code == 1


def test_an_option_the_ruleset_does_not_read_is_never_charged(tmp_path, monkeypatch):
    """The first build warned "not used; ignored" and still charged 烧庄: the option must really be dropped."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "extends: beijing\nid: h\noptions: [mutual]\n")
    hand = "[111m] 222p 333s EEE 9m +9m"
    args = ["analyze", hand, "--seat", "E", "--dealer", "E", "--shaozhuang", "1", "--json"]
    house = CliRunner().invoke(cli, args + ["-r", "house.yaml"])
    plain = CliRunner().invoke(cli, args + ["-r", "beijing"])
    assert "--shaozhuang is not used by h; ignored" in house.stderr
    # 庄 1 + 对对和 2 = 3 番, self-drawn by the dealer: +9, each −3 (and no 烧庄 line at all)
    assert json.loads(house.stdout)["payouts"] == {"E": 9, "S": -3, "W": -3, "N": -3}
    assert [p["name"] for p in json.loads(house.stdout)["payout_parts"]] == ["和牌"]
    # with 烧庄 read: the dealer pays each other seat 1 more
    assert json.loads(plain.stdout)["payouts"] == {"E": 6, "S": -2, "W": -2, "N": -2}


def test_every_builtin_ruleset_reads_only_its_regions_options():
    for rules in builtin_rulesets():
        region = {r.id: r for r in all_regions()}[rules.region]
        assert set(rules.options) <= {o.name for o in region.options}


def test_the_library_needs_neither_click_nor_tabulate():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('click', 'tabulate'):\n"
            "            raise ImportError('blocked: ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "import mjcalc\n"
            "r = mjcalc.analyze(mjcalc.parse_hand('123m456p789s EE 45m +6m'), mjcalc.load_ruleset('beijing'))\n"
            "print(r.score.total)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(PACKAGE.parent))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3"


def test_every_package_is_installed():
    """A non-editable install (what CI and users get) ships only the packages setup.cfg lists."""
    import configparser
    config = configparser.ConfigParser()
    config.read(PACKAGE.parent / "setup.cfg")
    listed = {p.strip() for p in config["options"]["packages"].replace("\n", ",").split(",") if p.strip()}
    found = {module_name(p) for p in PACKAGE.rglob("__init__.py")}
    assert found <= listed


# --- folders are audiences -------------------------------------------------------------------------------------
# The engine and the rules model are flat modules of `mjcalc`; `cli/` is the command line, `evening/` the table's
# memory, `serve/` the server and its page, `regions/` what each region means, `rulesets/` the built-in data.

USE_CASES = ("mjcalc.analysis", "mjcalc.advice", "mjcalc.value", "mjcalc.batch", "mjcalc.render", "mjcalc.glossary",
             "mjcalc.flags", "mjcalc.evening", "mjcalc.front", "mjcalc.cli", "mjcalc.serve")


def outside_imports(path: Path):
    """Top-level names of the modules outside mjcalc that `path` imports (anywhere in it)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            yield (node.module or "").split(".")[0]


def folder(name: str) -> str:
    """`cli`, `evening`, `serve`, `regions`, `rulesets`, or `` for a flat module of mjcalc."""
    parts = name.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else ""


def importers_of(library: str):
    return sorted(module_name(p) for p in MODULES if library in set(outside_imports(p)))


def test_only_cli_imports_click_and_tabulate():
    assert {folder(m) for m in importers_of("click") + importers_of("tabulate")} == {"cli"}


def test_only_evening_imports_sqlite3():
    assert importers_of("sqlite3") == ["mjcalc.evening.ledger"]


def test_only_yamlfile_imports_yaml():
    assert importers_of("yaml") == ["mjcalc.yamlfile"]


def test_regions_import_no_use_case():
    bad = [(module_name(p), target) for p in MODULES if folder(module_name(p)) == "regions"
           for target, _, _, _ in imports(p) if target.startswith(USE_CASES)]
    assert bad == []


def test_the_library_imports_no_front_end():
    """Nothing outside cli/ imports cli/; nothing outside serve/ (but the `serve` command) imports serve/; the
    evening is imported by the front ends' face (`front.py`) and the front ends, the face by the front ends only;
    the engine and the rules model import no use case above them but what they name here."""
    bad = []
    for path in MODULES:
        here = module_name(path)
        if here == "mjcalc.__main__":  # `python -m mjcalc` is the command line
            continue
        for target, _, line, _ in imports(path):
            if target.startswith("mjcalc.cli") and folder(here) != "cli":
                bad.append(f"{here}:{line} imports {target}")
            if target.startswith("mjcalc.serve") and folder(here) not in ("serve", "cli"):
                bad.append(f"{here}:{line} imports {target}")
            if target.startswith("mjcalc.evening") and folder(here) not in ("evening", "cli", "serve") \
                    and here != "mjcalc.front":
                bad.append(f"{here}:{line} imports {target}")
            if target == "mjcalc.front" and folder(here) not in ("cli", "serve"):
                bad.append(f"{here}:{line} imports {target}")
    assert bad == []


def test_serve_uses_only_public_names():
    """serve/ calls the library as any program would: no cli/, no private name, the evening only through its
    package's public names (`mjcalc.evening.__all__`), never one of its modules."""
    import mjcalc.evening
    bad = []
    for path in MODULES:
        if folder(module_name(path)) != "serve":
            continue
        for target, names, line, _ in imports(path):
            private = [n for n in names if n.startswith("_") and not (n.startswith("__") and n.endswith("__"))]
            if target.startswith("mjcalc.cli") or private:  # a dunder (__version__) is public
                bad.append(f"{path.name}:{line}: {target} {names}")
            if target.startswith("mjcalc.evening") and (target != "mjcalc.evening" or
                                                         not set(names) <= set(mjcalc.evening.__all__)):
                bad.append(f"{path.name}:{line}: {target} {names}")
    assert bad == []


def test_the_folder_rules_can_fail(tmp_path):
    """The scans above see what they look for: an import of click, of sqlite3, of a use case."""
    probe = tmp_path / "probe.py"
    probe.write_text("import click\nfrom sqlite3 import connect\ndef f():\n    import yaml.constructor\n")
    assert sorted(outside_imports(probe)) == ["click", "sqlite3", "yaml"]
    assert folder("mjcalc.cli.table") == "cli" and folder("mjcalc.evening") == "evening"
    assert folder("mjcalc.scoring") == "" and folder("mjcalc.regions.beijing") == "regions"


def test_the_top_level_holds_at_most_28_modules():
    """The engine and the rules model stay flat; everything an audience of its own reads is in its folder (27 since
    a hand told without its tiles became a reading of its own, `told.py`; 28 since the front ends share one face of
    the library, `front.py`)."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 28, top


@pytest.mark.parametrize("package", ["mjcalc", "mjcalc.evening", "mjcalc.cli"])
def test_every_public_name_is_documented(package):
    """help(mjcalc) is the library's reference: every name in a package's __all__ says what it is."""
    import importlib
    import inspect
    module = importlib.import_module(package)
    undocumented = [name for name in module.__all__
                    if not (getattr(module, name).__doc__ or "").strip()
                    or inspect.getdoc(getattr(module, name)) == inspect.getdoc(object)]
    assert undocumented == []


# --- one message table -----------------------------------------------------------------------------------------

def _message_makers():
    """The names that make a message from an id: every error class of mjcalc, Notice, Message."""
    import mjcalc.cli.common  # noqa: F401  (every module defining an error class is imported)
    import mjcalc.evening  # noqa: F401
    import mjcalc.serve.server  # noqa: F401
    from mjcalc.errors import MjcalcError

    names, todo = set(), [MjcalcError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names | {"Notice", "Message"}


def _template_fields(template: str):
    import string
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field}


def message_calls():
    """(where, id, keyword names, takes **params) for every call that makes a message from a literal id."""
    makers = _message_makers()
    wrappers = {"fail", "bad"}  # helpers taking an id first (notation's reader, an option, a ruleset file, the API)
    # and the server's `refusal(status, id, …)`, whose id comes second
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in makers | wrappers | {"refusal"} or not node.args:
                continue
            first = node.args[1] if name == "refusal" and len(node.args) > 1 else node.args[0]  # (status, id)
            where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keywords = {k.arg for k in node.keywords if k.arg} - {"field", "label", "status", "headers"}
                yield where, first.value, keywords, any(k.arg is None for k in node.keywords), name in makers
            elif name in makers and isinstance(first, ast.JoinedStr):
                yield where, None, set(), False, True  # a sentence built where it is raised


def test_every_message_is_made_from_an_id_in_the_table():
    from mjcalc.messages import EN
    bad = [f"{where}: {code!r}" for where, code, _, _, maker in message_calls()
           if (code is None or code not in EN) and (maker or code and "." in code and " " not in code)]
    assert bad == []


def test_every_message_is_given_the_parameters_its_text_names():
    from mjcalc.messages import EN
    bad = []
    for where, code, keywords, spread, maker in message_calls():
        supplied = set() if maker else {"at"}  # a wrapper places the message itself (notation's column)
        if code in EN and not spread and keywords | supplied != _template_fields(EN[code]) | supplied:
            bad.append(f"{where}: {code} given {sorted(keywords)}, its text names {sorted(_template_fields(EN[code]))}")
    assert bad == []


def test_every_id_in_the_table_is_used_and_every_chinese_text_has_an_english_one():
    from mjcalc.messages import EN, ZH
    tables = (PACKAGE / "messages.py").read_text(encoding="utf-8").split("\nEN: Dict")[0]  # its helpers, not EN/ZH
    code = "\n".join(p.read_text(encoding="utf-8") for p in MODULES if p.name != "messages.py") + tables
    unused = [k for k in EN if f'"{k}"' not in code and f"'{k}'" not in code]
    assert unused == []
    assert set(ZH) <= set(EN)
    assert [k for k in ZH if not _template_fields(ZH[k]) <= _template_fields(EN[k])] == []  # (a plural needs no word)


def test_did_you_mean_and_shown_values_live_in_one_place():
    bad = []
    for path in MODULES:
        if path.name == "messages.py":
            continue
        text = path.read_text(encoding="utf-8")
        bad += [f"{path.relative_to(PACKAGE)}: did you mean" for _ in [1] if "did you mean" in code_of(path)]
        bad += [f"{path.relative_to(PACKAGE)}: def _shown" for _ in [1] if "def _shown(" in text]
        bad += [f"{path.relative_to(PACKAGE)}: difflib" for _ in [1] if "difflib" in set(outside_imports(path))
                and path.name != "glossary.py"]
    assert bad == []


def test_the_message_scans_can_fail():
    """A sentence built where it is raised, an unknown id and a missing parameter are each found."""
    from mjcalc.messages import EN
    assert "notation.unknown_suit" in EN and _template_fields(EN["notation.unknown_suit"]) == {"letter", "written", "at"}
    calls = list(message_calls())
    assert any(code == "notation.unknown_suit" for _, code, _, _, _ in calls)
    assert len(calls) > 100


def test_no_module_sets_another_modules_names_when_imported():
    """Importing a module changes nothing in another (check once set storage's TABLE_CHECK): no statement at a
    module's top level assigns to an attribute of an imported module. The evening's checked ledger is a class of
    its own (`check.CheckedLedger`, exported as `mjcalc.evening.Ledger`); storage's checks nothing."""
    found = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.asname or alias.name.split(".")[0] for node in tree.body
                    if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                        target.value.id in imported:
                    found.append(f"{module_name(path)}:{node.lineno}")
    assert found == []
    from mjcalc import evening
    from mjcalc.evening import check, ledger
    assert evening.Ledger is check.CheckedLedger and issubclass(evening.Ledger, ledger.Ledger)
    assert ledger.Ledger.checked is not evening.Ledger.checked
