"""A region is one module, one YAML and one registry line: a toy region defined entirely here, with its own
patterns, payout scheme and situation option, scores a hand through the library and the CLI, touching no
mjcalc file."""
import json
import textwrap

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.cli import cli
from mjcalc.patterns import COMMON
from mjcalc.payouts import Param, Payout, Scheme, transfer
from mjcalc.regions import unregister
from mjcalc.tiles import SEATS


def all_chows(r, p):
    """全顺: four chows (and a pair)."""
    return int(r.shape == "standard" and sum(b.kind == "chow" for b in r.blocks) == 4)


def lucky_seat(r, p):
    """幸运: the situation's `lucky` seat is the winner's."""
    return int(r.situation.extra("lucky") == r.situation.seat)


class Flat(Scheme):
    """Each other seat pays (total + bump) × base; the ruleset sets bump."""

    meaning = "each other seat pays (total + bump) × base"
    params = {"bump": Param("added to the total before paying")}

    def pay(self, score, situation, ruleset):
        amount = (score.total + self.param(ruleset, "bump")) * situation.base
        deltas = {}
        for seat in SEATS:
            if seat != situation.seat:
                transfer(deltas, seat, situation.seat, amount)
        payout = Payout()
        payout.add("和牌", "hand", deltas)
        return payout


class Toy(mjcalc.Region):
    id = "toy"
    zh = "玩具"
    en = "Toy"
    detectors = {"all_pungs": COMMON["all_pungs"], "all_chows": all_chows, "lucky_seat": lucky_seat}
    schemes = {"flat_toy": Flat()}
    options = (mjcalc.Option("lucky", "seat", "The lucky seat this hand.", zh="幸运", metavar="SEAT"),)


TOY_YAML = """\
id: toyland
region: toy
unit: {zh: 点, en: points}
patterns:
  all_chows: {value: 3}
  all_pungs: {value: 5}
  lucky_seat: {value: 2}
payout: {scheme: flat_toy, params: {bump: 1}}
"""
HAND = "123m 456m 789p 234s 5s +5s"


@pytest.fixture
def toy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toy.yaml").write_text(textwrap.dedent(TOY_YAML), encoding="utf-8")
    mjcalc.register_region(Toy())
    yield tmp_path / "toy.yaml"
    unregister("toy")


def test_a_toy_region_scores_through_the_library(toy):
    rules = mjcalc.load_ruleset(str(toy))
    result = mjcalc.analyze(mjcalc.parse_hand(HAND), rules, mjcalc.Situation(seat="S", lucky="S"))
    # 全顺 3 + 幸运 2 = 5 points; each other seat pays (5 + bump 1) × 1 = 6
    assert {m.pattern_id: m.value for m in result.score.matches} == {"all_chows": 3, "lucky_seat": 2}
    assert result.payout.deltas == {"E": -6, "S": 18, "W": -6, "N": -6}


def test_a_toy_region_scores_through_the_cli(toy):
    result = CliRunner().invoke(cli, ["analyze", HAND, "-r", "toy.yaml", "--seat", "W", "--lucky", "N", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    # 全顺 3, not the lucky seat: each other seat pays (3 + 1) × 1 = 4
    assert out["total"] == 3 and out["payouts"] == {"E": -4, "S": -4, "W": 12, "N": -4}


def test_a_toy_option_is_checked_like_any_other(toy):
    result = CliRunner().invoke(cli, ["analyze", HAND, "-r", "toy.yaml", "--lucky", "X"])
    assert result.exit_code == 2
    assert result.stderr == "Error: --lucky: expected a seat E, S, W or N (东 南 西 北), got 'X'\n"


def test_a_toy_ruleset_is_validated_against_its_region(toy):
    (toy.parent / "bad.yaml").write_text(TOY_YAML.replace("all_chows: {value: 3}", "tuidaohe: {value: 3}"),
                                         encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulesets", "check", "bad.yaml"])
    assert result.exit_code == 1
    assert "patterns.tuidaohe: unknown pattern" in result.stderr
