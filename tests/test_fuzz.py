"""The fuzz of issue 11 as properties: hand notation, every situation field × hostile values, and ruleset files
with hostile values anywhere a number or a name goes. Whatever the input: exit 0, 1 or 2 as documented, an error
is one `Error: …` line (and with --json a JSON object), JSON is strict (no NaN or Infinity), and payouts are
integers that sum to zero. The fuzz of issue 24 sits beside the faults it tests: every API field's types and lone
surrogates in tests/test_serve_faults.py (`test_any_json_in_any_field_is_answered_without_a_5xx`), a ledger
opened after random damage or byte flips in tests/test_faults.py (never exit 3, never a float)."""
import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import notation_hands
from mjcalc.cli import cli
from mjcalc.notation import format_hand
from mjcalc.regions import all_options
from mjcalc.situation import GENERIC

HOSTILE = {
    "inf": ".inf", "-inf": "-.inf", "nan": ".nan", "minus one": "-1", "5000 digits": "9" * 5000,
    "a list": "[1, 2]", "a mapping": "{a: 1}", "null": "null", "text": "'x'", "a bool": "true",
    "a huge float": "1e400", "a negative big": "-" + "9" * 40, "an invisible": "\"S\\u200b\"",
    "an escape": "\"\\e[31mS\"", "a nested list": "[[S]]", "seat twice": "[S, S]",
}
FIELDS = sorted(set(GENERIC) | set(all_options()))
RULESETS = ["beijing", "beijing-money", "zhuji", "shangrao"]
HANDS = ["123m456p789s EE 45m +6m", "11223344556677m", "123m456p789s234s5m +5m", "[111m] 222p 333s EEE 9m +9m",
         "1112345678999m", "147m 25p 36s ESWNCF +P"]


def _no_constants(name):
    raise ValueError(f"not strict JSON: {name}")


def strict(text):
    return json.loads(text, parse_constant=_no_constants)


def check(result, codes=(0, 2), as_json=True):
    """The contract of one run; returns the JSON answer of a success (or None)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in codes, (result.exit_code, result.output)
    if result.exit_code:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and lines[0].isprintable(), result.stderr
        if as_json:
            assert strict(result.stdout) == {"error": lines[0][len("Error: "):], "exit": result.exit_code}
        return None
    for line in result.stderr.splitlines():
        assert line.startswith("warning: ") and line.isprintable(), result.stderr
    answer = strict(result.stdout) if as_json else None
    if isinstance(answer, dict) and answer.get("payouts"):
        payouts = answer["payouts"]
        assert all(type(v) is int for v in payouts.values()) and sum(payouts.values()) == 0, payouts
        assert all(abs(v) <= 10 ** 15 for v in payouts.values())
    return answer


def run(*args):
    return CliRunner().invoke(cli, list(args))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=40), st.sampled_from(HANDS), notation_hands().map(format_hand)),
       st.sampled_from(RULESETS))
def test_fuzz_notation(text, ruleset):
    check(run("analyze", "-r", ruleset, "--json", "--", text))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(FIELDS), st.sampled_from(sorted(HOSTILE)), st.sampled_from(RULESETS),
       st.sampled_from(HANDS), st.booleans())
def test_fuzz_situation_fields(tmp_path_factory, field, value, ruleset, hand, nested):
    path = tmp_path_factory.mktemp("s") / "s.yaml"
    text = f"{field}: {HOSTILE[value]}\n"
    path.write_text("title: x\nsituation:\n  " + text if nested else text, encoding="utf-8")
    result = run("analyze", hand, "-r", ruleset, "--situation", str(path), "--json")
    check(result)
    if result.exit_code:
        assert f"--situation {path}" in result.stderr or "warning" in result.stderr or "--" in result.stderr


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(FIELDS), st.sampled_from(sorted(HOSTILE)), st.sampled_from(RULESETS))
def test_fuzz_situation_options(field, value, ruleset):
    option = {**GENERIC, **all_options()}[field]
    raw = {"minus one": "-1", "5000 digits": "9" * 5000, "inf": "inf", "nan": "nan", "an invisible": "S\u200b",
           "an escape": "\x1b[31mS", "seat twice": "S,S"}.get(value, HOSTILE[value])
    args = [option.cli_flag] if option.kind == "flag" else [option.cli_flag + "=" + raw]
    check(run("analyze", HANDS[0], "-r", ruleset, "--json", *args))


# --- ruleset files -------------------------------------------------------------------------------------------

PLACES = [
    "patterns:\n  {pattern}: {{value: {v}}}\n",
    "patterns:\n  {pattern}: {{value: 1, params: {{{param}: {v}}}}}\n",
    "patterns:\n  {pattern}: {{value: 1, excludes: {v}}}\n",
    "patterns:\n  {pattern}: {{value: 1, role: multiplier, scale: power}}\n",
    "scoring: {{minimum: {v}}}\n",
    "scoring: {{cap: {v}}}\n",
    "session: {{shanglou_levels: {v}}}\n",
    "payout:\n  params: {{{param}: {v}}}\n",
    "wildcard: {{kinds: {v}}}\n",
    "wins: {{max_wilds_on_discard: {v}}}\n",
    "name: {v}\n",
    "aliases: {v}\n",
    "options: {v}\n",
    "extends: {v}\n",
    "{v}: 1\n",
]
PATTERNS = ["tuidaohe", "seven_pairs", "dragon", "east_pung", "kong_bloom", "flown", "plain", "heavenly"]
PARAMS = ["without_wild", "per_kong", "dealer_count", "flat", "stake", "payer_cap", "rob_kong", "bogus"]
VALUES = sorted(HOSTILE) + ["big", "fine"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(RULESETS), st.sampled_from(PLACES), st.sampled_from(PATTERNS), st.sampled_from(PARAMS),
       st.sampled_from(VALUES), st.sampled_from(HANDS), st.sampled_from(["", "--from S", "--shaozhuang 16"]))
def test_fuzz_ruleset_files(tmp_path_factory, ruleset, place, pattern, param, value, hand, extra):
    v = {"big": "10000", "fine": "2"}.get(value) or HOSTILE[value]
    path = tmp_path_factory.mktemp("r") / "house.yaml"
    path.write_text(f"extends: {ruleset}\nid: house\n" + place.format(pattern=pattern, param=param, v=v),
                    encoding="utf-8")
    checked = run("rulesets", "check", str(path))
    check(checked, codes=(0, 1), as_json=False)
    result = run("analyze", hand, "-r", str(path), "--json", *extra.split())
    check(result, codes=(0, 2) if checked.exit_code == 0 else (1,))
    if checked.exit_code:
        assert re.match(r"Error: \S*house\.yaml:\d+: ", checked.stderr), checked.stderr  # the file and the line


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_builtins_pass_the_same_checks(ruleset):
    for hand in HANDS:
        check(run("analyze", hand, "-r", ruleset, "--json"))
