"""Why a hand is not a legal win (`Score.reason`) is a message, said in the language the answer is asked in: the
command line's (`--lang` typed, else $MJCALC_LANG, else English), as the rest of its messages are; the JSON's
"reason" stays a string."""
import json
import re

from click.testing import CliRunner

from mjcalc.analysis import analyze
from mjcalc.cli import cli
from mjcalc.messages import Message
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation

DISCARD_WIN = "123m456p789s EE 45m +6m"
SHANGRAO = Message("region.no_discard_wins", ruleset="shangrao")
HAN = re.compile(r"[\u4e00-\u9fff]")


def run(*args, env=None):
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def legal_line(output):
    (line,) = [line for line in output.splitlines() if line.startswith("legal")]
    return line


def test_a_refused_hand_says_its_reason_in_chinese_with_lang_zh_and_in_english_with_lang_en():
    zh, en = SHANGRAO.text("zh"), SHANGRAO.text("en")
    assert HAN.search(zh) and zh != en
    said = legal_line(run("analyze", DISCARD_WIN, "-r", "shangrao", "--from", "S", "--lang", "zh"))
    assert said.endswith(f"no: {zh}") and "allows" not in said
    said = legal_line(run("analyze", DISCARD_WIN, "-r", "shangrao", "--from", "S", "--lang", "en"))
    assert said.endswith(f"no: {en}") and not HAN.search(said)


def test_lang_left_at_its_default_names_patterns_in_chinese_but_says_the_reason_in_english():
    said = legal_line(run("analyze", DISCARD_WIN, "-r", "shangrao", "--from", "S"))
    assert said.endswith(f"no: {SHANGRAO.text('en')}")
    said = legal_line(run("analyze", DISCARD_WIN, "-r", "shangrao", "--from", "S", env={"MJCALC_LANG": "zh"}))
    assert said.endswith(f"no: {SHANGRAO.text('zh')}")


def test_the_json_reason_is_a_string_in_the_language_asked():
    def reason(*options):
        data = json.loads(run("analyze", DISCARD_WIN, "-r", "shangrao", "--from", "S", "--json", *options))
        assert data["legal"] is False and isinstance(data["reason"], str)
        return data["reason"]
    assert reason() == reason("--lang", "en") == SHANGRAO.text("en")
    assert reason("--lang", "zh") == SHANGRAO.text("zh")
    legal = json.loads(run("analyze", DISCARD_WIN, "--json", "--lang", "zh"))
    assert legal["legal"] is True and legal["reason"] is None


def test_a_nested_message_in_a_reason_is_said_in_the_same_language():
    # beijing: 吃碰堤 (the region's name for the rule, a message of its own) before the refusal
    def reason(*options):
        return json.loads(run("analyze", "[111m] 222p 333s EEE 9m +9m", "--from", "S", "--json", *options))["reason"]
    zh, en = reason("--lang", "zh"), reason("--lang", "en")
    assert zh.startswith("吃碰堤：") and "exposed" not in zh
    assert en.startswith("吃碰堤: ") and "exposed meld" in en


def test_the_waits_of_13_tiles_say_their_reasons_in_the_language_asked():
    hand = "123m456p789s EE 45m"
    for lang, reason in (("zh", SHANGRAO.text("zh")), ("en", SHANGRAO.text("en"))):
        data = json.loads(run("analyze", hand, "-r", "shangrao", "--json", "--lang", lang))
        assert data["reason"] == Message("render.not_complete_13").text(lang)
        assert {w["discard"]["reason"] for w in data["waits"]} == {reason}
        assert {w["self_draw"]["reason"] for w in data["waits"]} == {None}
        text = run("analyze", hand, "-r", "shangrao", "--lang", lang)
        assert f"(no discard column: {reason})" in text.replace("\n", " ")  # (wrapped to the terminal)


def test_compare_and_advise_say_the_reason_in_the_language_asked():
    output = run("compare", DISCARD_WIN, "--from", "S", "-r", "beijing", "-r", "shangrao", "--lang", "zh", "--json")
    assert [d["reason"] for d in json.loads(output)] == [None, SHANGRAO.text("zh")]
    output = run("advise", "123m456p789s EE 45m", "-r", "shangrao", "--from", "S", "--lang", "zh", "--json")
    assert {w["discard"]["reason"] for w in json.loads(output)["waits"]} == {SHANGRAO.text("zh")}
    output = run("advise", "123m456p789s EE 45m", "-r", "shangrao", "--from", "S", "--json")
    assert {w["discard"]["reason"] for w in json.loads(output)["waits"]} == {SHANGRAO.text("en")}


def test_a_score_keeps_its_reason_as_a_message():
    result = analyze(parse_hand(DISCARD_WIN), load_ruleset("shangrao"), Situation(seat="E", discarder="S"))
    assert result.score.reason == SHANGRAO and isinstance(result.score.reason, Message)
    incomplete = analyze(parse_hand("123m456p789s EE 45m +7m"), load_ruleset("shangrao"), Situation(seat="E"))
    assert incomplete.score.reason == Message("scoring.not_winning_shape")
    assert Message("region.no_discard_wins", ruleset="beijing") != SHANGRAO
    assert hash(Message("region.no_discard_wins", ruleset="shangrao")) == hash(SHANGRAO)
