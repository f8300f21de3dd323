"""The guide pages (examples/guide/*.md) and README's console blocks show real output: run each, compare."""
import os
import re
import shlex

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = [os.path.join("examples", "guide", name) for name in ("beijing.md", "zhuji.md", "shangrao.md")] + ["README.md"]


def blocks(page):
    """(command line, expected output) for each ```console block of a page."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    for body in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        first, _, output = body.partition("\n")
        assert first.startswith("$ mjcalc "), first
        yield first[2:], output


CASES = [pytest.param(line, output, id=f"{os.path.basename(page)}:{line[7:40]}")
         for page in PAGES if os.path.exists(os.path.join(ROOT, page)) for line, output in blocks(page)]


def test_every_guide_page_has_examples():
    for page in PAGES[:3]:
        assert list(blocks(page)), page


@pytest.mark.parametrize("line, expected", CASES)
def test_page_shows_what_mjcalc_prints(line, expected):
    result = CliRunner().invoke(cli, shlex.split(line)[1:])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout.rstrip("\n") == expected.rstrip("\n")
