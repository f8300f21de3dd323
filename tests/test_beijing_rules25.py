"""Issue 25's Beijing rules, each worked by hand from the text the ruleset page quotes (the sentence is in the test).

混儿's meld rules (beijing-hunr), 互包 in beijing-classic, 捉五魁 won on a 5万 that is the 惠, and the readings the
pages leave open — each with the reading mjcalc takes and the region-declared parameter a house file sets for the
other.
"""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjcalc import load_ruleset, parse_hand
from mjcalc.analysis import setting
from mjcalc.cli import cli
from mjcalc.messages import Message
from mjcalc.scoring import score_hand
from mjcalc.situation import Situation

PAGES = Path(__file__).resolve().parent.parent / "rulesets"
EXPOSED_NO_DISCARD = Message("region.exposed_no_discard", rule=Message("region.rule_named", rule="吃碰堤")).text()


def analyze(hand, *args):
    result = CliRunner().invoke(cli, ["analyze", hand, *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.splitlines()[0])


def patterns(out):
    return {p["id"]: p["value"] for p in out["patterns"]}


def house(tmp_path, parent, body):
    """A house file extending a built-in ruleset: its path."""
    path = tmp_path / f"{parent}-house.yaml"
    path.write_text(f"extends: {parent}\nid: {parent}-house\nname: {{zh: 家规, en: house}}\n{body}", encoding="utf-8")
    return str(path)


def page(rid):
    return " ".join((PAGES / f"{rid}.md").read_text(encoding="utf-8").split())


# --- 1. beijing-hunr: "吃、碰、开明杠都只能自摸胡牌" --------------------------------------------------------------


@pytest.mark.parametrize("hand", [
    pytest.param("[123m] 456p 789s 234s 5p +5p", id="chow"),
    pytest.param("[555m] 456p 789s 234s 5p +5p", id="pung"),
    pytest.param("[5555m] 456p 789s 234s 5p +5p", id="exposed-kong"),
])
def test_hunr_an_exposed_hand_may_not_win_on_a_discard(hand):
    # "北京麻将规定只能吃牌或者碰牌一次，开杠不算在内，吃、碰、开明杠都只能自摸胡牌"
    out = analyze(hand, "-r", "beijing-hunr", "--seat", "S", "--from", "W", "--wild", "1p")
    assert out["complete"] is True and out["legal"] is False
    assert out["reason"] == EXPOSED_NO_DISCARD and out["payouts"] is None


def test_hunr_the_issue_hand_self_drawn_is_a_win():
    # The chow hand self-drawn: 推倒胡 1 × 自摸 ×2 × 无混儿 ×2 (the 混儿 1p is not held) = 4, each other pays 4.
    out = analyze("[123m] 456p 789s 234s 5p +5p", "-r", "beijing-hunr", "--seat", "S", "--wild", "1p")
    assert out["legal"] is True and out["total"] == 4
    assert out["payouts"] == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_hunr_a_concealed_kong_keeps_the_hand_concealed():
    # A 暗杠 is no 吃, 碰 or 明杠: on W's discard 推倒胡 1 × 门清 ×2 × 无混儿 ×2 = 4; 点炮: W pays 8, E and N 4.
    out = analyze("{5555m} 456p 789s 234s 5p +5p", "-r", "beijing-hunr", "--seat", "S", "--from", "W")
    assert out["legal"] is True and out["total"] == 4
    assert patterns(out) == {"tuidaohe": 1, "concealed": 2, "no_hunr": 2}
    assert out["payouts"] == {"E": -4, "S": 16, "W": -8, "N": -4}


def test_hunr_an_exposed_hand_may_rob_an_added_kong_as_a_self_draw():
    # "抢杠: robbing an added kong counts as 自摸, in every way": 推倒胡 1 × 自摸 ×2 × 无混儿 ×2 = 4, each pays 4.
    out = analyze("[123m] 456p 789s 23s EE +4s", "-r", "beijing-hunr", "--seat", "S", "--from", "W", "--rob-kong")
    assert out["legal"] is True and out["total"] == 4
    assert out["payouts"] == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_hunr_page_no_longer_reads_tuidaohu_as_a_rule_of_play():
    text = page("beijing-hunr")
    assert "any complete hand may win on a discard" not in text
    assert "吃、碰、开明杠都只能自摸胡牌" in text and "not a rule that any hand may win on a discard" in text


# --- 2. beijing-hunr: "只能吃牌或者碰牌一次，开杠不算在内" ----------------------------------------------------------


def test_hunr_two_claims_are_refused_even_self_drawn():
    out = analyze("[123m] [456p] 789s 234s 5p +5p", "-r", "beijing-hunr", "--seat", "S")
    assert out["complete"] is True and out["legal"] is False and out["payouts"] is None
    assert out["reason"] == Message("beijing.too_many_claims", ruleset="beijing-hunr", most=1, count=2,
                                    melds="[123m] [456p]").text()


def test_hunr_kongs_do_not_count_as_claims():
    # one chow and two exposed kongs: 推倒胡 1 × 自摸 ×2 × 无混儿 ×2 = 4 (no 门清), each pays 4.
    out = analyze("[5555m] [1111s] [123m] 234s 5p +5p", "-r", "beijing-hunr", "--seat", "S")
    assert out["legal"] is True and out["total"] == 4


def test_hunr_four_hunr_with_two_claims_is_no_flat_40():
    # [222m] holds three 混儿 2m and the hand the fourth: 混杠 — but the pung and the chow are two claims.
    out = analyze("[222m] [123p] 2m 456s 78s E +E", "-r", "beijing-hunr", "--seat", "S", "--wild", "2m")
    assert out["legal"] is False and out["reason"].startswith("beijing-hunr: a hand may claim at most 1")


def test_hunr_a_house_file_may_allow_more_claims(tmp_path):
    path = house(tmp_path, "beijing-hunr", "payout:\n  params: {most_claims: 4}\n")
    out = analyze("[123m] [456p] 789s 234s 5p +5p", "-r", path, "--seat", "S", "--wild", "1p")
    assert out["legal"] is True and out["payouts"] == {"E": -4, "S": 12, "W": -4, "N": -4}


# --- 3. beijing-classic 互包: "如果一家从另一家的那里吃+碰倒3嘴以后…则由另一家来支付其所有点数" -----------------------


@pytest.mark.parametrize("hand, args, payouts", [
    # self-draw: 推倒和 1 → 1000, halved (the chow) → 500 from each — all three parts, 1500, from the partner W
    pytest.param("[123m] 456p 789s 234s E +E", ["--mutual", "W"], {"E": 0, "S": 1500, "W": -1500, "N": 0},
                 id="self-draw"),
    # N's discard: N would pay 500; the partner W pays it instead
    pytest.param("[123m] 456p 789s 234s E +E", ["--from", "N", "--mutual", "W"], {"E": 0, "S": 500, "W": -500, "N": 0},
                 id="discard"),
    # robbing W's kong, concealed: the konger would pay 3P = 3000; the partner N pays it, the konger nothing
    pytest.param("123m 456p 789s 23s EE +4s", ["--from", "W", "--rob-kong", "--mutual", "N"],
                 {"E": 0, "S": 3000, "W": 0, "N": -3000}, id="robbed-kong"),
    # two partners: each pays a whole part
    pytest.param("[123m] 456p 789s 234s E +E", ["--from", "N", "--mutual", "W", "--mutual", "E"],
                 {"E": -500, "S": 1000, "W": -500, "N": 0}, id="two-partners"),
])
def test_classic_mutual_partner_pays_the_whole_hand(hand, args, payouts):
    out = analyze(hand, "-r", "beijing-classic", "--seat", "S", *args)
    assert out["legal"] is True and out["payouts"] == payouts
    assert not any("mutual" in w for w in out["warnings"])


def test_classic_mutual_does_not_move_shaozhuang():
    # 烧庄 1 round: E pays each other 1000, whoever pays the hand.
    out = analyze("[123m] 456p 789s 234s E +E", "-r", "beijing-classic", "--seat", "S", "--mutual", "W",
                  "--shaozhuang", "1")
    assert out["payouts"] == {"E": -3000, "S": 2500, "W": -500, "N": 1000}


def test_classic_discard_paid_by_the_discarder_unless_the_house_reads_3p_for_every_discard(tmp_path):
    # The text's 3P sentence sits in the 抢杠 note: an ordinary discard is P (500 for a broken 门清 推倒和).
    hand = "[123m] 456p 789s 234s E +E"
    assert analyze(hand, "-r", "beijing-classic", "--seat", "S", "--from", "W")["payouts"]["W"] == -500
    path = house(tmp_path, "beijing-classic", "payout:\n  params: {discarder_pays_all: true}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--from", "W")["payouts"] == {"E": 0, "S": 1500, "W": -1500, "N": 0}
    text = page("beijing-classic")
    assert "如果一家从另一家的那里吃+碰倒3嘴以后" in text and "the 抢杠 rule only" in text


# --- 4. 捉五魁 won on a 5万 that is the 惠 ---------------------------------------------------------------------------


@pytest.mark.parametrize("rid, args, found, total, payouts", [
    # 46m waits on 5万 alone; the 5万 drawn is the 惠, played as itself: 捉五魁 2 (no 门清无惠: a 惠 is held)
    pytest.param("beijing", [], {"catch_five": 2}, 2, {"E": -2, "S": 6, "W": -2, "N": -2}, id="beijing"),
    # 门清 1 + 捉五魁 1 = 2 番 → ×4; 平摸: the dealer 20·4 = 80, the others 10·4 = 40
    pytest.param("beijing-money", [], {"concealed": 1, "catch_five": 1}, 2, {"E": -80, "S": 160, "W": -40, "N": -40},
                 id="beijing-money"),
    # 推倒胡 1 × 门清 ×2 × 自摸 ×2 × 捉五魁 ×2 = 8 (a 混儿 held: no 无混儿)
    pytest.param("beijing-hunr", [], {"tuidaohe": 1, "concealed": 2, "self_draw": 2, "catch_five": 2}, 8,
                 {"E": -8, "S": 24, "W": -8, "N": -8}, id="beijing-hunr"),
])
def test_catch_five_on_a_five_that_is_the_wild_kind(rid, args, found, total, payouts):
    out = analyze("123p 456p 789s EE 46m +5m", "-r", rid, "--wild", "5m", "--seat", "S", *args)
    assert patterns(out) == found and out["total"] == total and out["payouts"] == payouts


def test_catch_five_the_same_hand_with_another_wild_kind():
    assert patterns(analyze("123p 456p 789s EE 46m +5m", "--wild", "9p", "--seat", "S")) == {
        "concealed_no_wild": 1, "catch_five": 2}
    # a 惠 9p drawn and played as 5万 counts as a 5万, as a 惠 counts as what it stands for everywhere
    assert patterns(analyze("123p 456p 789s EE 46m +9p", "--wild", "9p", "--seat", "S")) == {"catch_five": 2}


def test_no_catch_five_when_a_wild_among_the_13_widens_the_wait():
    out = analyze("123p 456p 789s E 5m 46m +5m", "--wild", "5m", "--seat", "S")
    assert out["legal"] is True and "catch_five" not in patterns(out)


@pytest.mark.parametrize("rid", ["beijing", "beijing-money", "beijing-hunr"])
@pytest.mark.parametrize("text", ["123p 456p 789s EE 46m +5m", "123p 456p 789s E 5m 46m +5m", "123p 456p 789s EE 46m +9p"])
def test_catch_five_fast_scorer_agrees_with_every_reading(rid, text):
    rules = load_ruleset(rid)
    for wild in ((4,), (17,)):
        here = setting(parse_hand(text), rules, Situation(seat="S", wild=wild))
        fast = score_hand(here.tiles, here.situation, rules, here.region)
        every = score_hand(here.tiles, here.situation, rules, here.region, exhaustive=True)
        assert (fast.total, fast.legal, sorted(m.pattern_id for m in fast.matches)) == (
            every.total, every.legal, sorted(m.pattern_id for m in every.matches))


def test_beijing_page_says_the_five_that_is_the_wild_is_a_five():
    assert "A 惠 5万 drawn and played as a 5万 is a 5万" in page("beijing")


# --- 9. readings the pages leave open --------------------------------------------------------------------------


def test_doubling_discard_paid_by_the_discarder_or_by_each(tmp_path):
    # "庄家和了，赢闲家双分筹码；闲家和了，庄家也付双份": 门前清 1 + 无绘 1 = 2 → 4; the dealer's payment doubled.
    hand = "123m 456p 789s 234s E +E"
    assert analyze(hand, "-r", "beijing-doubling", "--seat", "S", "--from", "N")["payouts"] == {
        "E": 0, "S": 4, "W": 0, "N": -4}
    path = house(tmp_path, "beijing-doubling", "payout:\n  params: {discard_each_pays: true}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--from", "N")["payouts"] == {"E": -8, "S": 16, "W": -4, "N": -4}
    assert "the discarder alone pays A" in page("beijing-doubling")


def test_doubling_hui_kong_is_flat_from_every_seat_unless_the_house_doubles_it(tmp_path):
    hand = "9999m 456p 789s 23s E +E"
    out = analyze(hand, "-r", "beijing-doubling", "--seat", "S", "--wild", "9m")
    assert out["payouts"] == {"E": -16, "S": 48, "W": -16, "N": -16}
    path = house(tmp_path, "beijing-doubling", "payout:\n  params: {flat_dealer_factor: true}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--wild", "9m")["payouts"] == {"E": -32, "S": 64, "W": -16, "N": -16}
    assert analyze(hand, "-r", path, "--seat", "E", "--wild", "9m")["payouts"] == {"E": 96, "S": -32, "W": -32, "N": -32}
    assert "the same from every seat" in page("beijing-doubling")


def test_hunr_own_hunr_dragon_replaces_the_dragon_and_keeps_no_hunr(tmp_path):
    # 本混儿龙 ×4 × 门清 ×2 × 无混儿 ×2 = 16 on W's discard: W pays 32.
    hand = "123m 456m 789m 234s E +E"
    out = analyze(hand, "-r", "beijing-hunr", "--wild", "5m", "--seat", "S", "--from", "W")
    assert patterns(out) == {"tuidaohe": 1, "concealed": 2, "no_hunr": 2, "own_hunr_dragon": 4} and out["total"] == 16
    path = house(tmp_path, "beijing-hunr", "patterns:\n  own_hunr_dragon: {excludes: [dragon, no_hunr]}\n")
    assert analyze(hand, "-r", path, "--wild", "5m", "--seat", "S", "--from", "W")["total"] == 8
    assert "replacing 一条龙 ×2" in page("beijing-hunr") and "无混儿 ×2 as well" in page("beijing-hunr")


def test_hunr_kong_bloom_after_two_kongs_doubles_once(tmp_path):
    # "杠上开花（双杠双自摸）": 自摸 ×2 × 杠上开花 ×2 × 无混儿 ×2 = 8 after one kong or two; per_kong: ×2 per kong.
    hand = "[1111m] [2222p] 789s 234s E +E"
    for draws in ("1", "2"):
        assert analyze(hand, "-r", "beijing-hunr", "--seat", "S", "--kong-draw", draws)["total"] == 8
    path = house(tmp_path, "beijing-hunr", "patterns:\n  kong_bloom: {params: {per_kong: true}}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--kong-draw", "2")["total"] == 16
    assert "双杠双自摸" in page("beijing-hunr")


def test_money_zhuangdian_is_the_dealer_dealing_in_and_dianzhuang_the_dealer_winning(tmp_path):
    hand = "123m 456p 789s 234s E +E"  # 门清 1 → ×2
    assert analyze(hand, "-r", "beijing-money", "--seat", "S", "--from", "E")["payouts"]["E"] == -60  # 庄点 30
    assert analyze(hand, "-r", "beijing-money", "--seat", "E", "--from", "S")["payouts"]["S"] == -80  # 点庄 40
    path = house(tmp_path, "beijing-money", "payout:\n  params: {dealer_discards: 40, to_dealer: 30}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--from", "E")["payouts"]["E"] == -80
    assert "庄点 = the dealer deals in to a non-dealer" in page("beijing-money")


def test_money_three_wilds_must_self_draw_unless_the_house_drops_it(tmp_path):
    hand = "123m 456p 789s 2s 9m9m9m +E"
    out = analyze(hand, "-r", "beijing-money", "--seat", "S", "--from", "W", "--wild", "9m")
    assert out["legal"] is False and out["reason"] == Message(
        "region.wilds_on_discard", count=3, wild_zh="惠", limit=2).text()
    path = house(tmp_path, "beijing-money", "wins: {max_wilds_on_discard: null}\n")
    assert analyze(hand, "-r", path, "--seat", "S", "--from", "W", "--wild", "9m")["legal"] is True
    # the page says which reading it takes: the money text is the table of the game `beijing` describes
    assert "\"Three 惠 must self-draw\" (`beijing`'s 1.9)" in page("beijing-money")
    assert "a hand holding three or more 惠 must self-draw" in page("beijing-money")
