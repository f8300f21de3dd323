"""`mjcalc explain TERM`: the glossary shipped with the rulesets, through the command line."""
import pytest
from click.testing import CliRunner

from mjcalc import glossary
from mjcalc.cli import cli
from mjcalc.ruleset import builtin_rulesets


def run(*args):
    return CliRunner().invoke(cli, ["explain", *args])


@pytest.mark.parametrize("rules", builtin_rulesets(), ids=lambda r: r.id)
def test_every_pattern_of_every_builtin_ruleset_is_explained(rules):
    for p in rules.patterns:
        found = glossary.lookup(p.id)
        assert found, f"{rules.id}: pattern {p.id} has no glossary entry"
        result = run(p.id)
        assert result.exit_code == 0 and "pattern ids:" in result.output and p.id in result.output, result.output


@pytest.mark.parametrize("word, zh", [
    ("烧庄", "烧庄"), ("shaozhuang", "烧庄"), ("ShaoZhuang", "烧庄"), ("shāo zhuāng", "烧庄"), ("燒莊", "烧庄"),
    ("burning the dealer", "烧庄"), ("上楼", "上楼"), ("SHANGLOU", "上楼"), ("吃碰堤", "吃碰堤"), ("chipengdi", "吃碰堤"),
    ("self-draw", "自摸"), ("Seven Pairs", "七对"), ("绘上墙", "绘上墙"), ("hunryou", "混儿悠"), ("十三浪", "十三浪"),
])
def test_a_term_by_chinese_pinyin_english_or_alias(word, zh):
    result = run(word)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith(zh + " ("), result.output


def test_a_phrase_may_be_given_as_several_words():
    assert run("seven", "pairs").output == run("seven pairs").output


def test_an_unknown_term_is_one_line_with_did_you_mean():
    result = run("shaozhung")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "did you mean" in lines[0] and "shaozhuang" in lines[0], result.output


def test_explain_alone_lists_every_term(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # one line a term
    result = run()
    assert result.exit_code == 0
    for t in glossary.terms():
        assert t.zh in result.output and t.en in result.output
