"""Every file in examples/ runs through the CLI and must give the result recorded in it (worked by hand)."""
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mjcalc.cli import cli

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").rglob("*.yaml"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 1


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example(path):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    expect = spec["expect"]
    args = ["analyze", spec["hand"], "-r", spec["ruleset"], "--situation", str(path), "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    for key in ("complete", "legal", "total", "payouts", "decompositions", "bonus", "wildcards", "wild_as"):
        if key in expect:
            assert out[key] == expect[key], f"{key}: {out[key]!r} != {expect[key]!r}\n{spec.get('work', '')}"
    if "patterns" in expect:
        got = {p["id"]: p["value"] for p in out["patterns"]}
        assert got == expect["patterns"], spec.get("work", "")
    if "warnings_contain" in expect:
        shown = [w if isinstance(w, str) else json.dumps(w, ensure_ascii=False) for w in out["warnings"]]
        assert any(expect["warnings_contain"] in w for w in shown), shown
    if "reason" in expect:
        assert expect["reason"] in (out["reason"] or ""), out["reason"]
    if "waits" in expect:
        got = {w["tile"]: {k: w[k] for k in expect["waits"][w["tile"]]} for w in out["waits"] if w["tile"] in expect["waits"]}
        assert [w["tile"] for w in out["waits"]] == list(expect["waits"])
        assert got == expect["waits"]
    if out["payouts"] is not None:
        assert sum(out["payouts"].values()) == 0
