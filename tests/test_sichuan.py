"""Sichuan 四川麻将 (SBR 2025): every worked example of the book, and the payout rules worked by hand.

The book is 四川麻将（SBR）竞赛规则（试行2025版）, of the MIL rules committee; its examples are tile pictures, read
tile by tile (their counts checked: 14 tiles a win, a kong 3, 13 a waiting hand). Each case names the section and
the printed page, and quotes the book's result; the money is worked from 第十条 二、(一)–(五), p. 20: "基本分=1×2^番数",
"3 番以上的和牌也视为 3 番，基本分也是 8 分", "点炮和：和牌者向点炮者收取基本分", "自摸和：和牌者向未和牌者每人收取
基本分+1 分". rulesets/sichuan.md gives the rules in the project's words.
"""
import functools
import json

import pytest
from click.testing import CliRunner

from mjcalc.analysis import analyze
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation

SICHUAN = load_ruleset("sichuan")


def scored(hand, **fields):
    result = analyze(parse_hand(hand), SICHUAN, Situation(**fields))
    return result


def fan(hand, **fields):
    """{pattern id: its count} and the total, of a legal win."""
    result = scored(hand, **fields)
    assert result.score.legal, result.score.reason
    counts = {m.pattern_id: m.count for m in result.score.matches}
    return counts, result.score.total


# --- 第十条 二、(六) the 番种 table's examples 1-9, pp. 20-21 ---------------------------------------------------

BOOK = [
    # 例1 (① 杠, p. 20): 明牌 [9999m] and the concealed 4444p, 手牌 678m 123p 7p, 和 7p — "杠 2 番"
    pytest.param("[9999m] {4444p} 678m 123p 7p +7p", {"kong": 2}, 2, id="p20-ex1-two-kongs"),
    # 例2 (② 根, p. 20): 明牌 [333s], 手牌 45s 77s 6p 7777p 8p, 和 3s — "根 2 番" (3s: the pung and the winning
    # tile in 345s; 7p: four in the hand, 777p and 678p)
    pytest.param("[333s] 45s 77s 6p 7777p 8p +3s", {"four_alike": 2}, 2, id="p20-ex2-two-roots"),
    # 例3 (② 根, p. 20): 手牌 3333m 4m 66m 77m 55s 77s, 和 4m — "根 1 番、七对 2 番"
    pytest.param("3333m 4m 66m 77m 55s 77s +4m", {"four_alike": 1, "seven_pairs": 1}, 3, id="p20-ex3-root-seven-pairs"),
    # 例4 (③ 大对子, pp. 20-21): 明牌 [555m] [666m] [777p], 手牌 88p 99m, 和 9m — "大对子 1 番"
    pytest.param("[555m] [666m] [777p] 88p 99m +9m", {"all_pungs": 1}, 1, id="p21-ex4-all-pungs"),
    # 例5 (④ 金钩钓, p. 21): 明牌 [444p] 9999p concealed [111s] [888s], 手牌 5s, 和 5s —
    # "杠 1 番、大对子 1 番、金钩钓 1 番"
    pytest.param("[444p] {9999p} [111s] [888s] 5s +5s", {"kong": 1, "all_pungs": 1, "golden_hook": 1}, 3,
                 id="p21-ex5-golden-hook"),
    # 例6 (⑤ 清一色, p. 21): 明牌 [111m] [555m], 手牌 2346788m, 和 5m — "根 1 番、清一色 2 番" (the pung and 567m)
    pytest.param("[111m] [555m] 2346788m +5m", {"four_alike": 1, "full_flush": 1}, 3, id="p21-ex6-root-full-flush"),
    # 例7 (⑤ 清一色, p. 21): 明牌 [111p] [222p] [444p], 手牌 8889p, 和 9p — "大对子 1 番、清一色 2 番"
    pytest.param("[111p] [222p] [444p] 8889p +9p", {"all_pungs": 1, "full_flush": 1}, 3, id="p21-ex7-pungs-flush"),
    # 例8 (⑤ 清一色, p. 21): 手牌 11s 22s 44s 55s 7s 88s 99s, 和 7s — "清一色 2 番、七对 2 番": 4 番, paid as 3
    # ("3 番以上的和牌也视为 3 番")
    pytest.param("11s 22s 44s 55s 7s 88s 99s +7s", {"full_flush": 1, "seven_pairs": 1}, 3, id="p21-ex8-capped"),
    # 例9 (⑥ 七对, p. 21): 手牌 44p 6p 88p 99p 77s 88s 99s, 和 6p — "七对 2 番"
    pytest.param("44p 6p 88p 99p 77s 88s 99s +6p", {"seven_pairs": 1}, 2, id="p21-ex9-seven-pairs"),
]


@pytest.mark.parametrize("hand, patterns, total", BOOK)
def test_the_books_fan_examples(hand, patterns, total):
    assert fan(hand, seat="S", **{"from": "W"}) == (patterns, total)


@pytest.mark.parametrize("hand, patterns, total", BOOK)
def test_the_books_examples_pay_as_the_book_says(hand, patterns, total):
    """On a discard the discarder pays 2^番 (the cap 3: 8); on a self-draw each other seat pays it plus 1."""
    h = 2 ** total
    on_discard = scored(hand, seat="S", **{"from": "W"}).payout.deltas
    assert on_discard == {"E": 0, "S": h, "W": -h, "N": 0}
    self_drawn = scored(hand, seat="S").payout.deltas
    assert self_drawn == {"E": -(h + 1), "S": 3 * (h + 1), "W": -(h + 1), "N": -(h + 1)}


def test_the_cap_says_how_many_fan_were_paid_as_three():
    """例8: 清一色 2 + 七对 2 = 4 番, paid as 3 (8); the analysis says the 4."""
    result = scored("11s 22s 44s 55s 7s 88s 99s +7s", seat="S", **{"from": "W"})
    assert (result.score.total, result.score.uncapped) == (3, 4)


# --- the payout rules worked by hand -----------------------------------------------------------------------

def test_a_plain_win_is_worth_one_and_a_self_draw_adds_one_after_the_cap():
    # 平和 (no 番) on a discard: 1; self-drawn: 1 + 1 = 2 from each; a capped self-draw: 8 + 1 = 9 from each
    assert fan("123m 456m 789m 11p 22p +2p", seat="S", **{"from": "N"}) == ({}, 0)
    assert scored("123m 456m 789m 11p 22p +2p", seat="S", **{"from": "N"}).payout.deltas == \
        {"E": 0, "S": 1, "W": 0, "N": -1}
    assert scored("123m 456m 789m 11p 22p +2p").payout.deltas == {"E": 6, "S": -2, "W": -2, "N": -2}
    assert scored("11s 22s 44s 55s 7s 88s 99s +7s").payout.deltas == {"E": 27, "S": -9, "W": -9, "N": -9}


def test_a_later_winner_is_paid_only_by_the_seats_still_in_the_deal():
    # 血战到底: E won earlier; S self-draws 七对 (2 番: 4, +1): W and N pay 5 each, E nothing
    result = scored("44p 6p 88p 99p 77s 88s 99s +6p", seat="S", won_earlier=["E"], base=2)
    assert result.payout.deltas == {"E": 0, "S": 20, "W": -10, "N": -10}


def test_the_ways_of_winning_add_one_fan_each():
    hand = "123m 456m 78m 11p 222p +9m"  # 平和, waiting on 6m or 9m
    assert fan("{5555m} 123m 789m 11p 22p +2p", seat="S", kong_draw=1) == ({"kong": 1, "kong_bloom": 1}, 2)
    assert fan(hand, seat="S", **{"from": "W"}, kong_discard=True) == ({"kong_discard": 1}, 1)
    assert fan(hand, seat="S", **{"from": "W"}, rob_kong=True) == ({"rob_kong": 1}, 1)
    assert fan(hand, seat="S", **{"from": "W"}, last_tile=True) == ({"sea_bottom": 1}, 1)
    assert fan(hand, seat="S", last_tile=True) == ({"sea_bottom": 1}, 1)
    # 抢杠: the konger pays, as a discarder does
    assert scored(hand, seat="S", **{"from": "W"}, rob_kong=True).payout.deltas == {"E": 0, "S": 2, "W": -2, "N": 0}


# --- what is not a win ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, fields, words", [
    ("123m 456p 789s 11m 22p +2p", {}, "all three suits"),  # 第九条 一、(二), p. 17: 缺一门
    ("123m 456m 789m 11p 22p +2p", {"void": "p"}, "void suit 定缺 筒"),  # 第六条 一, p. 12
    ("123m 456m 789m 11p 22p +2p", {"void": "筒"}, "花猪"),
])
def test_a_hand_of_three_suits_or_holding_its_void_suit_cannot_win(hand, fields, words):
    result = scored(hand, **fields)
    assert result.score.complete and not result.score.legal
    assert words in result.score.reason.text("en")


def test_no_chow_is_claimed_and_the_cli_says_so_in_one_line():
    said = CliRunner().invoke(cli, ["analyze", "[123m] 456m 789m 11p 22p +2p", "-r", "sichuan"])
    assert said.exit_code == 2 and said.stderr.count("\n") == 1 and "no chow is claimed" in said.stderr, said.output


def test_an_unknown_void_suit_is_one_line():
    said = CliRunner().invoke(cli, ["analyze", "123m 456m 789m 11p 22p +2p", "-r", "sichuan", "--void", "z"])
    assert said.exit_code == 2 and "unknown void suit 'z'" in said.stderr, said.output


def waits_of(hand, *options):
    out = CliRunner().invoke(cli, ["waits", hand, "-r", "sichuan", "--json", *options])
    assert out.exit_code == 0, out.output
    return [w["tile"] for w in json.loads(out.stdout)["waits"]]


def test_the_void_suit_is_never_a_wait():
    # 1112345678999m (九莲宝灯) waits on every 万; with 万 void, on none
    assert waits_of("1112345678999m") == [f"{n}m" for n in range(1, 10)]
    assert waits_of("1112345678999m", "--void", "m") == []
    # 123m 456m 789m 1p 222p waits on 1p (the pair) and 3p (123p and 22p); holding 筒, it cannot win with 筒
    # void (花猪), nor hold all three suits (缺一门)
    assert waits_of("123m 456m 789m 1p 222p") == ["1p", "3p"]
    assert waits_of("123m 456m 789m 1p 222p", "--void", "条") == ["1p", "3p"]
    assert waits_of("123m 456m 789m 1p 222p", "--void", "p") == []
    assert waits_of("123m 456p 789s 1m 222m") == []


# --- 第十条 三、(二) 听牌 and (四) 查大叫, p. 22-23 --------------------------------------------------------------------

def at_draw(hand, *options):
    out = CliRunner().invoke(cli, ["waits", hand, "-r", "sichuan", "--json", *options])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout).get("at_draw")


@pytest.mark.parametrize("hand, ready, dead", [
    # 例1: 明牌 [888m] [999m] [444p], 手牌 111p 9m — "听牌": the wait 9m is every copy of 9m the player holds
    ("[888m] [999m] [444p] 111p 9m", True, ["9m"]),
    # 例2: 明牌 [888m] [111p] [444p], 手牌 9999m — "没听": a fifth 9m, and the hand holds four
    ("[888m] [111p] [444p] 9999m", False, None),
    # 例3: 明牌 [999p], 手牌 1111s 23s 4444s — "没听": 1s and 4s, each held four in the hand
    ("[999p] 1111s 23s 4444s", False, None),
    # 例4: 明牌 [999p] and the concealed 4444s, 手牌 34566p 35s — "听牌": 4s, all four in its own kong
    ("[999p] {4444s} 34566p 35s", True, ["4s"]),
])
def test_the_books_ready_examples(hand, ready, dead):
    best = at_draw(hand)
    assert (best is not None) == ready
    if ready:
        assert best["dead"] == dead


@pytest.mark.parametrize("hand, total, tile", [
    # 例1 (p. 22): 明牌 [111m] [888p] [999p], 手牌 3444m — "没叫者按和 3m 大对子 1 番支付"
    ("[111m] [888p] [999p] 3444m", 1, "3m"),
    # 例2 (pp. 22-23): 明牌 [888s], 手牌 111s 22s 33s 456s — "按和 1s 清一色+根 3 番支付"
    ("[888s] 111s 22s 33s 456s", 3, "1s"),
    # 例3 (p. 23): 明牌 [555p], 手牌 34567p 888s 99s — "按根 1 番支付（5p 根只计 1 番）"
    ("[555p] 34567p 888s 99s", 1, None),
    # 例4 (p. 23): 明牌 [555p], 手牌 34567p 888p 99s — "按根 2 番支付（按和 8p，5p 8p 2 根计算）"
    ("[555p] 34567p 888p 99s", 2, "8p"),
])
def test_the_books_draw_examples_pay_the_best_win(hand, total, tile):
    best = at_draw(hand)
    assert best["total"] == total
    if tile is not None:  # 例3: every wait (2p, 8p, and 5p, all its own) is worth the one 根
        assert best["tile"] == tile


def test_a_ready_hand_holding_its_void_suit_is_not_ready():
    assert at_draw("[111m] [888p] [999p] 3444m") is not None
    assert at_draw("[111m] [888p] [999p] 3444m", "--void", "p") is None


# --- an evening: 血战到底, kong money, the draw's 查大叫 and 退税 ---------------------------------------------------

PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
SEVEN_PAIRS = "44p 6p 88p 99p 77s 88s 99s +6p"  # 七对 2 番: 4
PLAIN = "123m 456m 789m 11p 22p +2p"  # 平和: 1


@pytest.fixture
def table(tmp_path):
    from mjcalc.evening import Ledger, create_table
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        create_table(ledger, "t", "sichuan", PLAYERS, 1)
    return db


def record(ledger, hand=None, seat=None, discarder=None, **told):
    from mjcalc.evening import hand_input, record_given
    given = hand_input(hand, Situation(seat=seat, discarder=discarder)) if hand else hand_input(facts=told)
    return record_given(ledger, ledger.table("t"), given).hand


def money(ledger):
    return {s.seat: s.score for s in ledger.standings(ledger.table("t"))}


def test_a_deal_with_two_wins_kong_money_and_a_draw_worked_by_hand(table):
    """At 底分 1, worked from rulesets/sichuan.md (the book's §9 二, §10 一-三):
      W 阿张 makes a concealed kong: E, S, N (all still in) pay him 2 each         → E -2, S -2, W +6, N -2
      hand 1: E wins 七对 (2 番: 4) on S's discard                                   → E +4, S -4; E is out
      hand 2: N self-draws 平和 (1, +1 自摸加底): S and W, still in, pay 2 each     → N +4, S -2, W -2; N is out
      the wall runs out, S and W still in; S is ready, its best win 2 番:
        查大叫: W (not ready) pays S 2^2 = 4                                         → S +4, W -4
        退税: W, not ready, pays back his kong money, 2 each to E, S, N             → E +2, S +2, W -6, N +2
      the draw: E +2, S +6, W -10, N +2; the evening E 4, S -2, W -6, N 4
    """
    from mjcalc.evening import Ledger, record_penalty
    from mjcalc.evening.check import problems
    with Ledger(table) as ledger:
        kong = record_penalty(ledger, ledger.table("t"), "concealed_kong", "W").penalty
        assert kong.deltas == {"E": -2, "S": -2, "W": 6, "N": -2}
        assert record(ledger, SEVEN_PAIRS, "E", "S").deltas == {"E": 4, "S": -4, "W": 0, "N": 0}
        assert record(ledger, PLAIN, "N").deltas == {"E": 0, "S": -2, "W": -2, "N": 4}
        end = record(ledger, ready="S:2")
        assert end.deltas == {"E": 2, "S": 6, "W": -10, "N": 2}
        assert end.payments == (kong.penalty_id,)
        assert money(ledger) == {"E": 4, "S": -2, "W": -6, "N": 4}
        assert end.after.dealer == "E" and end.after.won == ()  # E won first: E deals again
        assert problems(ledger, derive=True) == []


def test_one_discard_won_twice_then_a_third_win_ends_the_deal_and_the_discarder_deals(table):
    """S throws a tile E and W both win on (一炮多响): S pays each; N's self-draw is the third win (S alone still in
    pays 1 + 1); the deal is over, and S, who threw the tile won twice, deals next (§9 二 (五) 2, p. 19)."""
    from mjcalc.evening import Ledger
    with Ledger(table) as ledger:
        record(ledger, SEVEN_PAIRS, "E", "S")
        record(ledger, PLAIN, "W", "S")
        third = record(ledger, PLAIN, "N")
        assert third.deltas == {"E": 0, "S": -2, "W": 0, "N": 2}
        assert third.after.won == () and third.after.dealer == "S"
        assert money(ledger) == {"E": 4, "S": -7, "W": 1, "N": 2}


def record_kong_discard(ledger, hand, seat, discarder):
    from mjcalc.evening import hand_input, record_given
    given = hand_input(hand, Situation(seat=seat, discarder=discarder, kong_discard=True))
    return record_given(ledger, ledger.table("t"), given).hand


def test_a_kong_discard_refunds_that_kong_and_the_draw_does_not_refund_it_again(table):
    """At 底分 1, worked from §10 一 (三)-(四), pp. 19-20 ("如果开杠者开杠后杠上炮，则其这个杠所获取的分数需要退回。
    （退税，无呼叫转移）") and §10 三 (四):
      W 阿张 makes a concealed kong: E, S, N pay him 2 each                          → E -2, S -2, W +6, N -2
      hand 1: E wins 平和 (1) on S's discard; E is out                                → E +1, S -1
      W kongs N's discard (刮风): N pays him 2                                        → W +2, N -2
      hand 2: S wins 七对 on the tile W threw after that kong: 七对 2 + 杠上炮 1 = 3 番, 8 from W;
              退税: W pays back that kong's 2 to N, not to the winner                 → S +8, W -10, N +2
      the wall runs out, W and N still in; N ready with 1 番, W not:
        查大叫: W pays N 2^1 = 2                                                     → W -2, N +2
        退税: W pays back the kong money not yet refunded (the concealed kong's 2 each) → E +2, S +2, W -6, N +2
      the evening: E 1, S 7, W -10, N 2
    """
    from mjcalc.evening import Ledger, record_penalty
    from mjcalc.evening.check import problems
    with Ledger(table) as ledger:
        concealed = record_penalty(ledger, ledger.table("t"), "concealed_kong", "W").penalty
        assert record(ledger, PLAIN, "E", "S").deltas == {"E": 1, "S": -1, "W": 0, "N": 0}
        direct = record_penalty(ledger, ledger.table("t"), "direct_kong", "W", to="N").penalty
        assert direct.deltas == {"E": 0, "S": 0, "W": 2, "N": -2}
        won = record_kong_discard(ledger, SEVEN_PAIRS, "S", "W")
        assert won.deltas == {"E": 0, "S": 8, "W": -10, "N": 2}
        assert won.payments == (direct.penalty_id,)
        end = record(ledger, ready="N:1")
        assert end.deltas == {"E": 2, "S": 2, "W": -8, "N": 4}
        assert end.payments == (concealed.penalty_id,)
        assert money(ledger) == {"E": 1, "S": 7, "W": -10, "N": 2}
        assert problems(ledger, derive=True) == []


def test_a_kong_discard_refunds_only_a_kong_made_since_the_last_hand(table):
    """杠上炮 refunds "这个杠": the kong just made. W's concealed kong was paid before E's win; W then adds a kong
    with a tile he held (paid nothing, so nothing recorded, p. 19) and throws the tile S wins on: nothing is paid
    back at the win — 七对 2 + 杠上炮 1 = 3 番, 8 from W, and no more."""
    from mjcalc.evening import Ledger, record_penalty
    with Ledger(table) as ledger:
        record_penalty(ledger, ledger.table("t"), "concealed_kong", "W")
        record(ledger, PLAIN, "E", "S")
        won = record_kong_discard(ledger, SEVEN_PAIRS, "S", "W")
        assert won.deltas == {"E": 0, "S": 8, "W": -8, "N": 0} and won.payments == ()


def test_a_draw_names_the_kong_money_it_weighed_and_a_ready_konger_keeps_his(table):
    """§10 三 (四): only a seat not ready at the draw pays back its kong money. W 阿张's concealed kong (E, S, N pay
    him 2 each); the wall runs out with W ready (1 番): E, S and N, not ready, pay him 2^1 = 2 each (查大叫), and
    W, ready, pays nothing back. The line says what the draw weighed, not that it was paid back."""
    run = CliRunner().invoke
    assert run(cli, ["table", "penalty", "t", "concealed_kong", "--player", "阿张", "--db", str(table)]).exit_code == 0
    said = run(cli, ["table", "draw", "t", "--told", "ready=阿张:1", "--db", str(table)])
    assert said.exit_code == 0, said.output
    assert "the deal's 1 kong payment weighed: what the rules pay back of it is in the draw's money" in " ".join(
        said.output.split()), said.output
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert shown["hands"][-1]["payouts"] == {"E": -2, "S": -2, "W": 6, "N": -2}


def test_a_kong_discard_with_no_kong_money_recorded_says_none_is_paid_back(table):
    """The table may have forgotten to record the kong: the win is recorded as told (nothing to pay back) and the
    answer says why nothing was, in one warning line."""
    run = CliRunner().invoke
    said = run(cli, ["table", "hand", "t", SEVEN_PAIRS, "--winner", "小李", "--from", "阿张", "--kong-discard",
                     "--db", str(table)])
    assert said.exit_code == 0, said.output
    assert ("warning: --kong-discard: 杠上炮 pays back no kong money: none was recorded for W since the last hand "
            "(record the kong with `table penalty` before the win)") == " ".join(said.stderr.split()), said.stderr
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert shown["hands"][-1]["payouts"] == {"E": 0, "S": 8, "W": -8, "N": 0}


def test_a_draw_with_an_active_flower_pig_worked_by_hand(table):
    """§10 三 (三) 2, p. 22: an active 花猪 at the draw "正常进行扣分及查大叫流程" — the deduction (here 8 to each
    other seat still in, rulesets/sichuan.md) and 查大叫 as a seat not ready. At 底分 1:
      hand 1: E wins 平和 (1) on S's discard; E is out                    → E +1, S -1
      the wall runs out; S ready with 2 番, W an active 花猪, N not ready:
        花猪: W pays 8 to S and to N                                       → S +8, W -16, N +8
        查大叫: W and N, not ready, pay S 2^2 = 4 each                      → S +8, W -4, N -4
      the draw: E 0, S +16, W -20, N +4; the evening E 1, S 15, W -20, N 4
    """
    from mjcalc.evening import Ledger
    with Ledger(table) as ledger:
        record(ledger, PLAIN, "E", "S")
        end = record(ledger, ready="S:2", pig="W")
        assert end.deltas == {"E": 0, "S": 16, "W": -20, "N": 4}
        assert money(ledger) == {"E": 1, "S": 15, "W": -20, "N": 4}


@pytest.mark.parametrize("told, words", [
    ({"ready": "E:1"}, "ready: 老王 (E) won this deal already: a draw asks only the seats still in"),
    ({"pig": "E"}, "pig: 老王 (E) won this deal already"),
    ({"ready": "S:1", "pig": "S"}, "小李 (S): a 花猪 (pig) is not ready"),
])
def test_a_draw_told_of_a_seat_out_or_a_ready_pig_is_refused_in_words(table, told, words):
    from mjcalc.errors import MjcalcError
    from mjcalc.evening import Ledger
    with Ledger(table) as ledger:
        record(ledger, PLAIN, "E", "S")
        with pytest.raises(MjcalcError) as refused:
            record(ledger, **told)
        assert words in str(refused.value)
        assert len(ledger.hands(ledger.table("t"))) == 1


def test_the_prompt_records_a_draw_with_counted_facts_and_a_pig(table):
    """The prompt's draw as the table says it: E 老王 wins 1 番 (2) on 小李's discard; at the draw 小李 is ready
    with 2 番, 阿张 is an active 花猪, 大刘 not ready (the same money as the hand-worked draw above, at 2 for E's
    1 番): E 2, S -2 + 8 + 8 = 14, W -16 - 4 = -20, N 8 - 4 = 4."""
    from mjcalc.evening import Ledger
    said = CliRunner().invoke(cli, ["table", "play", "t", "--db", str(table)],
                              input="老王 小李 1\n荒牌 ready=小李:2 pig=阿张\nshow\n")
    assert said.exit_code == 0 and "Error" not in said.output, said.output
    with Ledger(table) as ledger:
        assert money(ledger) == {"E": 2, "S": 14, "W": -20, "N": 4}
    bad = CliRunner().invoke(cli, ["table", "play", "t", "--db", str(table)], input="荒牌 ready=小李:x\n")
    assert "Error: ready: '小李:x' is a seat and a whole number from 0 to 99, as S:2\n" in bad.output, bad.output


@pytest.mark.parametrize("total, paid", [(0, 1), (1, 2), (2, 4), (3, 8)])
def test_an_agreed_total_is_paid_as_its_tiles_would_be(table, total, paid):
    """A win entered by its total (番) pays 2^番 from the discarder (第十条 二、(二)): the quick door the table uses
    most (it was refused outright: the least-total check tried only three-suit hands with a claimed chow)."""
    from mjcalc.evening import Ledger, hand_input, record_given
    with Ledger(table) as ledger:
        given = hand_input(None, Situation(seat="E", discarder="S"), total=total)
        won = record_given(ledger, ledger.table("t"), given).hand
        assert won.deltas == {"E": paid, "S": -paid, "W": 0, "N": 0}


def test_an_agreed_total_above_the_cap_is_asked_about_then_paid_as_the_cap(table):
    """清一色 七对 is 4 番, paid as 3 (p. 21 例8: "3 番以上的和牌也视为 3 番"): told as a total of 4 it is asked about first,
    as its named patterns are, and once confirmed paid as its tiles are: 8 from the discarder."""
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    with Ledger(table) as ledger:
        for told in ({"total": 4}, {"patterns": {"seven_pairs": 1, "full_flush": 1}}):
            given = hand_input(None, Situation(seat="E", discarder="S"), **told)
            with pytest.raises(LedgerError) as asked:
                record_given(ledger, ledger.table("t"), given)
            assert asked.value.message.code == "record.total_above_cap", asked.value
            won = record_given(ledger, ledger.table("t"), given, confirm_total=True).hand
            assert won.deltas == {"E": 8, "S": -8, "W": 0, "N": 0}
            assert won.deltas == scored("11s 22s 44s 55s 7s 88s 99s +7s", seat="E", dealer="E", **{"from": "S"}) \
                .payout.deltas
            record(ledger)  # the wall runs out: a new deal, E in again


def test_a_table_keeps_who_won_in_the_deal_and_refuses_being_told(table):
    """At a table the ledger knows who has won in the deal (it fills `won_earlier`): a hand given it anyway —
    which would let a seat still in pay nothing — is one line, nothing recorded; the page's table form does not
    ask it (`from_deal` in the rulesets document)."""
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    said = CliRunner().invoke(cli, ["table", "hand", "t", PLAIN, "--winner", "E", "--won-earlier", "S",
                                    "--db", str(table)])
    assert said.exit_code == 2 and said.stderr == \
        "Error: --won-earlier: the table keeps this itself from the deal's hands: leave it out\n", said.output
    with Ledger(table) as ledger:
        with pytest.raises(LedgerError):
            record_given(ledger, ledger.table("t"), hand_input(PLAIN, Situation(seat="E", won_earlier=["S"])))
        assert ledger.hands(ledger.table("t")) == []
    from mjcalc.serve.server import Library, do_rulesets
    doc = next(r for r in do_rulesets(Library())["rulesets"] if r["id"] == "sichuan")
    assert [o["name"] for o in doc["options"] if o.get("from_deal")] == ["won_earlier"]


@pytest.mark.parametrize("wins, dealer", [
    # §9 二 (五), p. 19: "本副牌第一个和牌的选手为下一副牌的庄家" — W wins first, then E; the wall runs out: W deals
    ([("W", None), ("E", "N")], "W"),
    # 一炮多响: N's discard won by W and E (the ledger reads two wins in a row from N as one discard): N deals
    ([("W", "N"), ("E", "N")], "N"),
    # a third win ends the deal: S won first, then W and N; S deals
    ([("S", "E"), ("W", None), ("N", "E")], "S"),
])
def test_the_first_winner_deals_next_whoever_dealt(table, wins, dealer):
    from mjcalc.evening import Ledger
    with Ledger(table) as ledger:
        for seat, discarder in wins:
            last = record(ledger, PLAIN, seat, discarder)
        if len(wins) < 3:
            last = record(ledger)  # the wall runs out
        assert (last.after.dealer, last.after.won) == (dealer, ())
        assert last.after.streak == 0 and last.after.round == 1


def test_a_fact_given_twice_is_one_list_and_a_seat_named_twice_is_one_line(table):
    """`--told ready=老王:1 --told ready=小李:1` is both (it kept only the last, and paid it); `ready=老王:1,老王:2`
    is refused: which 番 was meant is the table's to say."""
    run = CliRunner().invoke
    said = run(cli, ["table", "draw", "t", "--told", "ready=老王:1", "--told", "ready=小李:1", "--db", str(table)])
    assert said.exit_code == 0, said.output
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert shown["hands"][-1]["payouts"] == {"E": 4, "S": 4, "W": -4, "N": -4}  # W and N pay E and S 2 each
    bad = run(cli, ["table", "draw", "t", "--told", "ready=老王:1,老王:2", "--db", str(table)])
    assert bad.exit_code == 2 and bad.stderr == "Error: ready: E 老王 named twice: name each seat once\n", bad.output
    piped = run(cli, ["table", "play", "t", "--db", str(table)], input="荒牌 pig=大刘 pig=阿张\n")
    assert "Error" not in piped.output, piped.output
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert shown["hands"][-1]["payouts"] == {"E": 16, "S": 16, "W": -16, "N": -16}  # each pig pays 8 to each other


def test_kong_money_says_who_pays_it():
    """刮风 is the konger's (--player), paid by the discarder (--to): the refusals say it that way round."""
    from mjcalc.cli.table import table_penalty
    assert "who is paid money the ruleset pays (kong money: the konger)" in " ".join(
        " ".join(o.help.split()) for o in table_penalty.params if o.name == "player")
    shown = CliRunner().invoke(cli, ["rulesets", "show", "sichuan"]).stdout
    assert any(line.split()[:3] == ["刮风", "direct_kong", "from"] for line in shown.splitlines()), shown


@pytest.mark.parametrize("args, words", [
    (["刮风", "--player", "阿张"], "to: 刮风 is paid by one player: name who pays (--to)"),
    (["暗杠", "--player", "阿张", "--to", "小李"], "to: 暗杠 is paid by each of the other players: no --to"),
])
def test_kong_money_refusals_name_who_pays(table, args, words):
    said = CliRunner().invoke(cli, ["table", "penalty", "t", *args, "--db", str(table)])
    assert said.exit_code == 2 and words in said.stderr, said.output


@pytest.mark.parametrize("hand, options, why", [
    ("[555p] 567p 234m 11m 78m", ["--void", "p"], "the hand holds its void suit 定缺 筒 (花猪): it cannot win"),
    ("123m 456p 789s 11m 23m", [], "the hand holds all three suits: a win holds at most two (缺一门)"),
])
def test_waits_says_why_a_hand_never_waits(hand, options, why):
    said = CliRunner().invoke(cli, ["waits", hand, "-r", "sichuan", *options], env={"MJCALC_LANG": "en"})
    assert said.exit_code == 0 and said.stdout == f"no waits: {why}\n", said.output
    doc = json.loads(CliRunner().invoke(cli, ["waits", hand, "-r", "sichuan", "--json", *options],
                                        env={"MJCALC_LANG": "en"}).stdout)
    assert (doc["waits"], doc["never_ready"]) == ([], why)


def test_a_winner_out_of_the_deal_is_named_by_the_flag_given(table):
    run = CliRunner().invoke
    assert run(cli, ["table", "hand", "t", "--fan", "1", "--winner", "小李", "--db", str(table)]).exit_code == 0
    said = run(cli, ["table", "hand", "t", "--fan", "2", "--winner", "小李", "--from", "老王", "--db", str(table)])
    assert said.exit_code == 2 and said.stderr.startswith("Error: --winner: 小李 (S) has won this deal already"), said.output


def test_a_flower_pig_deducted_during_the_deal_is_not_deducted_again_at_its_draw(table):
    """§11 十: a 主动花猪 is judged once a deal. 阿张's deduction recorded during the deal (`table penalty`) refuses
    `pig=阿张` at that deal's draw, in one line, nothing recorded; the next deal's draw takes it."""
    from mjcalc.evening import Ledger, record_penalty
    from mjcalc.evening.ledger import LedgerError
    with Ledger(table) as ledger:
        record_penalty(ledger, ledger.table("t"), "flower_pig", "W")
        with pytest.raises(LedgerError) as refused:
            record(ledger, pig="W")
        assert str(refused.value).startswith("pig: the 主动花猪 deduction of 阿张 (W) was recorded in this deal already")
        assert ledger.hands(ledger.table("t")) == []
        record(ledger, pig="S")  # another seat's: taken; the deal ends
        assert record(ledger, pig="W").deltas == {"E": 8, "S": 8, "W": -24, "N": 8}


def test_a_total_above_the_cap_is_shown_as_agreed_and_paid_as_the_cap(table):
    said = CliRunner().invoke(cli, ["table", "hand", "t", "--fan", "5", "--winner", "老王", "--from", "小李", "--yes",
                                    "--db", str(table)])
    assert said.exit_code == 0 and "(no tiles: 5番 agreed, paid as 3)" in said.stdout, said.output
    assert "老王      dealer 庄, winner  8" in said.stdout, said.output


def test_the_cli_records_a_draw_with_each_ready_seats_best_fan(table):
    run = CliRunner().invoke
    assert run(cli, ["table", "hand", "t", SEVEN_PAIRS, "--winner", "老王", "--from", "小李", "--db", str(table)]).exit_code == 0
    # S 小李 ready (its best 3 番: 8), W ready (平和: 1), N not ready: N pays S 8 and W 1
    tried = run(cli, ["table", "draw", "t", "--told", "ready=小李:3,W", "--dry-run", "--db", str(table)])
    assert tried.exit_code == 0 and tried.output.startswith("(not recorded)\n"), tried.output
    assert "小李 +8" in tried.output and "大刘 -9" in tried.output, tried.output
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert len(shown["hands"]) == 1  # the dry run recorded nothing
    said = run(cli, ["table", "draw", "t", "--told", "ready=小李:3,W", "--db", str(table)])
    assert said.exit_code == 0, said.output
    shown = json.loads(run(cli, ["table", "show", "t", "--json", "--db", str(table)]).stdout)
    assert shown["hands"][-1]["payouts"] == {"E": 0, "S": 8, "W": 1, "N": -9}
    bad = run(cli, ["table", "draw", "t", "--told", "ready=小李:x", "--db", str(table)])
    assert bad.exit_code == 2 and "a seat and a whole number" in bad.stderr, bad.output


def test_the_api_takes_the_ready_seats_best_fan_and_the_page_is_asked_it(table):
    from browser import serving
    from test_serve import api
    with serving(table) as srv:
        status, shown = api(srv, "GET", "/api/tables/t")
        assert (shown["draw_asks"], shown["draw_counted"], shown["draw_most"]) == (["ready", "pig"], ["ready"], 3)
        status, doc = api(srv, "POST", "/api/tables/t/hand", {"hand": SEVEN_PAIRS, "winner": "E", "from": "S"})
        assert status == 200, doc
        # S ready with 2 番 (4), W and N not ready: each pays S 4
        status, doc = api(srv, "POST", "/api/tables/t/draw", {"told": {"ready": ["小李:2"]}})
        assert status == 200, doc
        status, shown = api(srv, "GET", "/api/tables/t")
    assert {s["seat"]: s["score"] for s in shown["standings"]} == {"E": 4, "S": 4, "W": -4, "N": -4}


@pytest.mark.parametrize("fields, words", [
    ({"seat": "S", "won_earlier": ["S"]}, "S has won this deal already: a winner neither wins nor pays again"),
    ({"seat": "S", "from": "W", "won_earlier": ["W"]}, "W has won this deal already and discards no more"),
    ({"seat": "S", "won_earlier": ["E", "W", "N"]}, "3 seats have won this deal already"),
    ({"seat": "S", "kong_discard": True}, "杠上炮 is a win on the tile the konger threw"),
])
def test_a_situation_the_deal_makes_impossible_is_refused_in_words(fields, words):
    from mjcalc.errors import SituationError
    with pytest.raises(SituationError) as info:
        scored(PLAIN, **fields)
    assert words in str(info.value)


# --- advice with the void suit: against a slow reference written apart from the engine ------------------------
#
# 向听 is how far a hand is from ready: 13 less the most of its tiles any complete 14-tile hand it may win with
# keeps (each draw and discard keeps at most one more). A Sichuan win holds none of the void suit and two suits at
# most (rulesets/sichuan.md), so the complete hands are those of two suits, void excluded: four sets and a pair,
# or seven pairs (four alike counting as two). The most one suit's tiles keep of k sets (with a pair or not) is found rank by rank,
# trying at each rank a pung or not, the pair or not, and 0-4 chows starting there, never more than four of a
# tile; two suits' best are added.

@functools.lru_cache(maxsize=None)
def suit_keeps(have, sets, pair):
    """The most of the nine counts `have` kept by `sets` sets (and `pair` pairs) of one suit."""

    @functools.lru_cache(maxsize=None)
    def go(r, here, next_, left, pairs):  # here: chows already covering rank r; next_: those covering r + 1
        if r == 9:
            return 0 if left == 0 and pairs == 0 else -99
        most = -99
        for pung in (0, 1):
            for pr in range(pairs + 1):
                for chows in range(5 if r <= 6 else 1):
                    need = here + 3 * pung + 2 * pr + chows
                    if need <= 4 and pung + chows <= left:
                        most = max(most, min(need, have[r]) + go(r + 1, next_ + chows, chows, left - pung - chows,
                                                                   pairs - pr))
        return most

    return go(0, 0, 0, sets, pair)


def reference_shanten(counts, void):
    """13 less the most tiles of `counts` (27 kinds) a complete two-suit hand without the void suit keeps."""
    suits = [s for s in range(3) if "mps"[s] != void]
    most = 0
    for a in suits:
        for b in suits:
            if a < b:
                mine_a, mine_b = tuple(counts[9 * a:9 * a + 9]), tuple(counts[9 * b:9 * b + 9])
                for k in range(5):  # k sets in suit a, 4 - k in b; the pair in one of them
                    most = max(most, suit_keeps(mine_a, k, 1) + suit_keeps(mine_b, 4 - k, 0),
                               suit_keeps(mine_a, k, 0) + suit_keeps(mine_b, 4 - k, 1))
                # seven pairs, four alike counting as two (p. 20 例3: 3333m in a 七对 with 根): a kind's first pair
                # keeps up to 2 of it, its second up to 2 more; the best seven
                gains = [g for n in mine_a + mine_b for g in (min(n, 2), min(n, 4) - min(n, 2))]
                most = max(most, sum(sorted(gains, reverse=True)[:7]))
    return 13 - most


@pytest.fixture(scope="module")
def wall108():
    return [k for k in range(27) for _ in range(4)]


def _hand_text(kinds):
    from mjcalc.tiles import NAMES
    return " ".join(NAMES[k] for k in sorted(kinds))


def test_advice_with_a_void_suit_agrees_with_the_slow_reference(wall108):
    """Random 13-tile hands of the 108 tiles, each void suit and none: 向听 and the tiles that lower it (those the
    player holds fewer than four of) are the reference's."""
    import random

    from mjcalc.advice import advise
    rng = random.Random(38)
    for _ in range(60):
        kinds = rng.sample(wall108, 13)
        void = rng.choice([None, "m", "p", "s"])
        counts = [kinds.count(k) for k in range(27)]
        want = reference_shanten(counts, void)
        advice = advise(parse_hand(_hand_text(kinds)), SICHUAN, Situation(**({"void": void} if void else {})),
                        score_waits=False)
        assert advice.shanten == want, (_hand_text(kinds), void)
        better = set()
        for t in range(27):
            if counts[t] < 4:
                counts[t] += 1
                if reference_shanten(counts, void) < want:
                    better.add(t)
                counts[t] -= 1
        assert {i.tile for i in advice.improvements} == better, (_hand_text(kinds), void)


def test_the_void_suit_is_thrown_first_and_the_cli_says_so():
    """113456m 2256p 3789s with 条 void: the four 条 rank before any other tile (a player who throws another suit
    while holding the void one is a 主动花猪, §6 三, p. 13); a 条 never improves the hand, and each 条 thrown leaves it
    3 from ready (the reference above agrees: test_each_discard_…)."""
    said = CliRunner().invoke(cli, ["advise", "1134m 2256p 789s 3s 5m 6m", "-r", "sichuan", "--void", "s", "--json"])
    assert said.exit_code == 0, said.output
    ranked = json.loads(said.stdout)["discards"]
    assert [d["discard"] for d in ranked[:4]] == ["3s", "7s", "8s", "9s"]
    assert all(d["shanten"] == 3 for d in ranked[:4]) and all(d["shanten"] == 4 for d in ranked[4:])
    assert not any(i["tile"].endswith("s") for d in ranked for i in d["improvements"])


def test_each_discard_with_a_void_suit_agrees_with_the_slow_reference(wall108):
    """Random 14-tile hands: each discard's 向听 is the reference's for the 13 tiles left."""
    import random

    from mjcalc.advice import advise
    rng = random.Random(3838)
    for _ in range(15):
        kinds = rng.sample(wall108, 14)
        void = rng.choice([None, "m", "p", "s"])
        advice = advise(parse_hand(_hand_text(kinds)), SICHUAN, Situation(**({"void": void} if void else {})),
                        score_waits=False)
        for d in advice.discards:
            rest = list(kinds)
            rest.remove(d.tile)
            assert d.shanten == reference_shanten([rest.count(k) for k in range(27)], void), \
                (_hand_text(kinds), void, d.tile)
