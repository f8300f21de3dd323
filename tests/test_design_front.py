"""The front ends' one face (issue 36.7): `mjcalc serve` and the `table` commands import nothing of the library but
`mjcalc.front` (and their own folder's modules), and the face names only what is public and really there."""
import ast
from pathlib import Path

import pytest

import mjcalc.front

PACKAGE = Path(mjcalc.front.__file__).parent
# the modules of the two front ends that call the evening: the server, and the `table` commands with their prompt
FRONT_ENDS = ["serve.server", "serve.join", "cli.table", "cli.play", "cli.stats"]


def library_imports(source: str, here: str):
    """(line, module) for each module of mjcalc that the code `source` of module `here` (`mjcalc.cli.table`)
    imports, anywhere in it: `from .. import front` is mjcalc.front, `from ..front import X` is mjcalc.front too."""
    package = here.rpartition(".")[0].split(".")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            if base.split(".")[0] != "mjcalc":
                continue
            for alias in node.names:  # `from .. import front`: a module; `from ..front import X`: a name of one
                whole = f"{base}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*whole.split("."))).with_suffix(".py").exists() \
                    or (PACKAGE.parent / Path(*whole.split("."))).is_dir()
                yield node.lineno, whole if is_module else base
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names if alias.name.split(".")[0] == "mjcalc")


def beside_the_face(source: str, here: str) -> list:
    """What module `here` imports of mjcalc besides `mjcalc.front` and its own folder's modules: `line module`."""
    own = here.rpartition(".")[0] + "."
    return [f"{line} {target}" for line, target in library_imports(source, here)
            if target != "mjcalc.front" and not target.startswith(own)]


@pytest.mark.parametrize("name", FRONT_ENDS)
def test_a_front_end_imports_the_library_through_its_face_only(name):
    path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
    assert beside_the_face(path.read_text(encoding="utf-8"), f"mjcalc.{name}") == []


def test_the_face_check_sees_a_library_module_imported_beside_it():
    """The scan above can fail: a module of cli/ importing the evening or the renderer directly is named, one that
    imports the face and a module of its own folder is not."""
    probe = ("from .. import front\nfrom ..front import Ledger\nfrom .common import said\nimport json\n"
             "from ..evening import Ledger\ndef f():\n    from .. import render  # start-up time\n"
             "    import mjcalc.settle\n")
    assert beside_the_face(probe, "mjcalc.cli.probe") == ["5 mjcalc.evening", "7 mjcalc.render", "8 mjcalc.settle"]


def test_the_face_names_only_public_names_that_are_there():
    """Every name of `front.__all__` is there (a lazy one loads), public, and nothing else of the face is exported."""
    for name in mjcalc.front.__all__:
        assert getattr(mjcalc.front, name) is not None, name
        assert not name.startswith("_") or name == "__version__", name
    assert set(mjcalc.front.LAZY) <= set(mjcalc.front.__all__)
    with pytest.raises(AttributeError):
        mjcalc.front.no_such_name  # noqa: B018


# --- one output path --------------------------------------------------------------------------------------------

TABLE_COMMANDS = ["cli/table.py", "cli/play.py", "cli/stats.py"]


def own_printing(source: str) -> list:
    """The calls in `source` that print by themselves rather than through `output.emit`: `click.echo`/`echo`/
    `print`, but an error line (`Error: …`, the error contract's) and the exported file written to stdout
    (`_write_out`: a CSV or JSON file, not an answer)."""
    tree = ast.parse(source)
    bad = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef) or func.name == "_write_out":
            continue
        for node in ast.walk(func):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in ("echo", "print", "secho"):
                continue
            first = node.args[0] if node.args else None
            said = ast.unparse(first) if first is not None else ""
            if not said.startswith(("f'Error: ", 'f"Error: ')):
                bad.append(f"{func.name}:{node.lineno} {ast.unparse(node)[:60]}")
    return sorted(set(bad))


@pytest.mark.parametrize("name", TABLE_COMMANDS)
def test_the_table_commands_print_through_the_one_output_path(name):
    """Every `table` command builds its answer as a document (`render.Doc`: its text and its --json data) and
    `output.emit` prints it; none echoes lines of its own."""
    assert own_printing((PACKAGE / name).read_text(encoding="utf-8")) == []


def test_the_output_path_check_sees_a_command_that_prints_itself():
    probe = ("import click\ndef a():\n    click.echo('hand 1')\ndef b(exc):\n    click.echo(f'Error: {exc}', err=True)\n"
             "def c(doc):\n    emit(doc)\ndef d():\n    print('x')\n")
    assert own_printing(probe) == ["a:3 click.echo('hand 1')", "d:9 print('x')"]
