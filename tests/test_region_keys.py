"""Each region declares the keys its ruleset files may add to a section (`Region.ruleset_keys`); the validator
reads them there, so a key is known only in the files of a region that reads it, and a region defined outside
mjcalc adds its own keys without touching a mjcalc file."""
import dataclasses
import textwrap

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.cli import cli
from mjcalc.errors import RulesetError
from mjcalc.messages import Message
from mjcalc.regions import all_regions, find_region, unregister
from mjcalc.regions.base import RulesetKey
from mjcalc.ruleset import SECTIONS_WITH_REGION_KEYS, Ruleset, load_ruleset_file


def load(tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_ruleset_file("house.yaml")


def test_a_key_of_beijing_is_read_in_a_beijing_file(tmp_path, monkeypatch):
    rules = load(tmp_path, monkeypatch, "extends: beijing\nid: h\nwins: {rob_kong_as_self_draw: true, "
                                        "rob_concealed_kong: dragon}\n")
    assert rules.rob_kong_as_self_draw is True and rules.robbable_concealed_kong == "dragon"


@pytest.mark.parametrize("base", ["zhuji", "shangrao"])
def test_a_key_of_beijing_is_unknown_in_another_regions_file(tmp_path, monkeypatch, base):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, monkeypatch, f"extends: {base}\nid: h\nwins: {{rob_kong_as_self_draw: true}}\n")
    # the keys every region's files may write in wins:, and none of Beijing's own
    assert str(info.value) == ("house.yaml:3: wins.rob_kong_as_self_draw: unknown key (known: discard, "
                               "earthly_discard_from_dealer, max_wilds_on_discard, rob_kong)")


def test_every_region_key_is_in_a_keyed_section_and_sets_a_ruleset_field():
    fields = {f.name for f in dataclasses.fields(Ruleset)}
    declared = [(region.id, section, key, spec) for region in all_regions()
                for section, keys in region.ruleset_keys.items() for key, spec in keys.items()]
    assert ("beijing", "wins", "rob_concealed_kong") in [d[:3] for d in declared]
    for region_id, section, key, spec in declared:
        assert section in SECTIONS_WITH_REGION_KEYS, (region_id, section)
        assert (spec.field or key) in fields, (region_id, key)


def _even_only(value, pattern_ids):
    return None if value % 2 == 0 else Message("ruleset.expected_choice", choices=["an even number"], value=value,
                                               hint="")


class Strict(mjcalc.Region):
    """A region outside mjcalc whose files may cap the wildcards on a discard win at an even number only."""

    id = "strict_toy"
    detectors = {"tuidaohe": find_region("beijing").detectors["tuidaohe"]}
    schemes = {"strict_flat": find_region("beijing").schemes["additive"].__class__()}
    ruleset_keys = {"wins": {"max_wilds_on_discard": RulesetKey(int, 2, minimum=0, maximum=8, check=_even_only)}}


STRICT_YAML = """\
id: stricty
region: strict_toy
patterns:
  tuidaohe: {value: 1}
payout: {scheme: strict_flat}
"""


@pytest.fixture
def strict_region():
    mjcalc.register_region(Strict())
    yield
    unregister("strict_toy")


def test_a_region_outside_mjcalc_declares_its_own_key(tmp_path, monkeypatch, strict_region):
    assert load(tmp_path, monkeypatch, STRICT_YAML).max_wilds_on_discard == 2  # the region's default
    assert load(tmp_path, monkeypatch, STRICT_YAML + "wins: {max_wilds_on_discard: 4}\n").max_wilds_on_discard == 4
    (tmp_path / "odd.yaml").write_text(STRICT_YAML + "wins: {max_wilds_on_discard: 3}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulesets", "check", "odd.yaml"])
    assert result.exit_code == 1
    assert result.stderr == "Error: odd.yaml:6: wins.max_wilds_on_discard: expected one of an even number, got 3\n"
    (tmp_path / "big.yaml").write_text(STRICT_YAML + "wins: {max_wilds_on_discard: 10}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulesets", "check", "big.yaml"])
    assert "wins.max_wilds_on_discard: must be from 0 to 8, got 10" in result.stderr
