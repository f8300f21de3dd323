"""Sichuan 四川麻将 (SBR 2025): every worked example of the book, and the payout rules worked by hand.

The book is 四川麻将（SBR）竞赛规则（试行2025版）, of the MIL rules committee; its examples are tile pictures, read
tile by tile (their counts checked: 14 tiles a win, a kong 3, 13 a waiting hand). Each case names the section and
the printed page, and quotes the book's result; the money is worked from 第十条 二、(一)–(五), p. 20: "基本分=1×2^番数",
"3 番以上的和牌也视为 3 番，基本分也是 8 分", "点炮和：和牌者向点炮者收取基本分", "自摸和：和牌者向未和牌者每人收取
基本分+1 分". rulesets/sichuan.md gives the rules in the project's words.
"""
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


def test_the_cli_records_a_draw_with_each_ready_seats_best_fan(table):
    run = CliRunner().invoke
    assert run(cli, ["table", "hand", "t", SEVEN_PAIRS, "--winner", "老王", "--from", "小李", "--db", str(table)]).exit_code == 0
    # S 小李 ready (its best 3 番: 8), W ready (平和: 1), N not ready: N pays S 8 and W 1
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
        assert (shown["draw_asks"], shown["draw_counted"], shown["draw_most"]) == (["ready"], ["ready"], 3)
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
