"""红中麻将 (MIL 2024): every worked example of the book, and the payment rules worked by hand.

The book is 红中麻将（推广）竞赛规则（试行2024版）, of the MIL rules committee; its scored examples are tile pictures
(the 番种 table, p. 9), read tile by tile and their counts checked (13 tiles before the win, a meld 3). Each case
names the chapter and the printed page and quotes the book's result. The money is worked from 八、2 2) and 5)
(p. 8): "基本分=1×2^番数", "规定 4 番封顶，4 番以上的和牌的基本分也是 16 分", paid by each of the other three (the
choice written in rulesets/hongzhong.md), and 八、4 2) (p. 10): "每扎中（翻中）一张收取其他三家每家 1 分".
"""
import pytest
from click.testing import CliRunner

from mjcalc.analysis import analyze, waits
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.tiles import NAMES

HONGZHONG = load_ruleset("hongzhong")
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}


def scored(hand, **fields):
    return analyze(parse_hand(hand), HONGZHONG, Situation(**fields))


def fan(hand, **fields):
    """{pattern id: its count} and the total, of a legal win."""
    result = scored(hand, **fields)
    assert result.score.legal, result.score.reason
    return {m.pattern_id: m.count for m in result.score.matches}, result.score.total


def each_pays(points, winner="S"):
    return {seat: 3 * points if seat == winner else -points for seat in "ESWN"}


# --- 八、2 the 番种 table's examples, p. 9 (every win a self-draw: 三、14, p. 3) ----------------------------------

BOOK = [
    # 例 1 大对子: 明牌 [555m] [666m] [777p], 手牌 88p 9m 红中, "和 9m 或 8p 大对子 1 番"
    pytest.param("[555m] [666m] [777p] 88p 9m C +9m", {"all_pungs": 1}, 1, id="ex1-all-pungs-9m"),
    pytest.param("[555m] [666m] [777p] 88p 9m C +8p", {"all_pungs": 1}, 1, id="ex1-all-pungs-8p"),
    # 例 2 一条龙: 明牌 [222s], 手牌 1234567m 9m 7p 红中, "和 8m 或 7p 一条（索）龙 1 番"
    pytest.param("[222s] 1234567m 9m 7p C +8m", {"dragon": 1}, 1, id="ex2-straight-8m"),
    pytest.param("[222s] 1234567m 9m 7p C +7p", {"dragon": 1}, 1, id="ex2-straight-7p"),
    # 例 3 七对: 手牌 44p 6p 88p 9p 红中 66m 88s 99s, "和 6p 或 9p 七对 2 番"
    pytest.param("44p 6p 88p 9p C 66m 88s 99s +6p", {"seven_pairs": 1}, 2, id="ex3-seven-pairs-6p"),
    pytest.param("44p 6p 88p 9p C 66m 88s 99s +9p", {"seven_pairs": 1}, 2, id="ex3-seven-pairs-9p"),
    # 例 4 清一色: 明牌 [111m] [555m], 手牌 2346788m, "和 5m 清一色 2 番". The hand holds no 红中, and the table's 无红中
    # ("和牌时的牌型中无红中", 1 番) holds as well, as 例 6 lists it: 3 番 here (rulesets/hongzhong.md says why)
    pytest.param("[111m] [555m] 2346788m +5m", {"full_flush": 1, "no_wild": 1}, 3, id="ex4-flush-no-red"),
    # 例 5 大对子 清一色: 明牌 [111p] [222p] [444p], 手牌 88p 红中 9p, "和 9p 或 8p 大对子 1 番、清一色 2 番" (a 红中 keeps
    # the flush: it counts as the suit it stands for)
    pytest.param("[111p] [222p] [444p] 88p C 9p +9p", {"all_pungs": 1, "full_flush": 1}, 3, id="ex5-pungs-flush-9p"),
    pytest.param("[111p] [222p] [444p] 88p C 9p +8p", {"all_pungs": 1, "full_flush": 1}, 3, id="ex5-pungs-flush-8p"),
    # 例 6: 手牌 11s 22s 44s 55s 7s 88s 99s, "和 7s 清一色 2 番、七对 2 番、无红中 1 番": 5 番, paid as 4 ("4 番封顶")
    pytest.param("11s 22s 44s 55s 7s 88s 99s +7s", {"full_flush": 1, "seven_pairs": 1, "no_wild": 1}, 4,
                 id="ex6-capped"),
    # 例 7 龙七对: 手牌 444p 88p 9p 红中 66m 88s 99s, "和 4p 龙七对 3 番" (not 七对 as well: 八、3 必然包含)
    pytest.param("444p 88p 9p C 66m 88s 99s +4p", {"dragon_seven_pairs": 1}, 3, id="ex7-dragon-seven-pairs"),
]


@pytest.mark.parametrize("hand, patterns, total", BOOK)
def test_the_books_fan_examples(hand, patterns, total):
    assert fan(hand, seat="S") == (patterns, total)


@pytest.mark.parametrize("hand, patterns, total", BOOK)
def test_each_of_the_other_three_pays_two_to_the_fan(hand, patterns, total):
    assert scored(hand, seat="S").payout.deltas == each_pays(2 ** total)


def test_the_cap_warns_what_the_patterns_add_up_to():
    result = scored("11s 22s 44s 55s 7s 88s 99s +7s", seat="S")
    assert result.score.uncapped == 5 and result.score.total == 4
    assert result.payout.deltas == each_pays(16)  # "4 番以上的和牌的基本分也是 16 分"


def test_a_plain_win_is_worth_one_from_each():
    """平和, "不带任何其他番种的和牌", 0 番: 基本分 1×2^0 = 1."""
    assert fan("123m 234m 456p 789s C +5s", seat="W") == ({"plain_win": 1}, 0)
    assert scored("123m 234m 456p 789s C +5s", seat="W").payout.deltas == each_pays(1, "W")


def test_kong_bloom_is_one_fan_on_a_self_draw_after_any_kong():
    """杠上花 1 番, "和自己开杠后所摸的牌" (p. 9), "视为自摸和" (八、2 3), p. 8): each of the three pays."""
    hand = "{2222m} 345m 678p 99s 5s C +5s"
    assert fan(hand, seat="N", kong_draw=1) == ({"kong_bloom": 1}, 1)
    assert scored(hand, seat="N", kong_draw=1).payout.deltas == each_pays(2, "N")
    # after a kong on S's discard the same: S pays as the others do
    assert scored("[2222m]S 345m 678p 99s 5s C +5s", seat="N", kong_draw=1).payout.deltas == each_pays(2, "N")


def test_each_bird_that_hits_takes_one_from_each_outside_the_fan_and_the_cap():
    """八、4 2): 1 from each of the three for each hit. 例 2 (1 番: 2 each) with both birds hit: 4 each; 例 6 (capped at
    16) with one: 17 each."""
    two = scored("[222s] 1234567m 9m 7p C +8m", seat="S", birds=2).payout
    assert two.deltas == each_pays(4)
    assert [en for _, en, _ in two.parts] == ["hand", "birds"]
    assert scored("11s 22s 44s 55s 7s 88s 99s +7s", seat="S", birds=1, base=2).payout.deltas == each_pays(34)


# --- 七、1 3)-4) the five-copy limit, pp. 7-8 ---------------------------------------------------------------------


def wait_names(hand):
    return [NAMES[t] for t, _ in waits(parse_hand(hand), HONGZHONG, Situation())]


def test_the_books_waits_under_the_five_copy_limit():
    """"手牌为 1234444556677，此时可和 1、7，不能和 4（红中可作 1、7，不能作 4）"; with 444 碰 "可和 1、4、7（红中可作 1、4、7）";
    with 3333 杠 "可和 3（红中可作 3）". A natural 4 or 3 is never left to draw; a 红中 drawn wins."""
    assert wait_names("1234444556677m") == ["1m", "7m", "C"]
    assert wait_names("1234556677m [444m]") == ["1m", "7m", "C"]
    assert wait_names("1255667799m [3333m]") == ["C"]
    # the 红中 drawn: never a fifth 4 in the hand, but a fifth 4 or 3 beside the meld, which is not counted
    held = scored("1234444556677m +C").score.reading.decomposition
    assert sum(b.tiles.count(3) for b in held.blocks) == 4  # 3 is 4m's kind
    assert scored("1234556677m [444m] +C").score.legal
    three = scored("1255667799m [3333m] +C").score
    assert three.legal and three.reading.decomposition.wild_as == (2,)  # the 红中 is a fifth 3m


def test_a_hand_whose_only_wait_is_a_fifth_copy_is_not_ready_and_its_win_is_refused_in_words():
    assert wait_names("4444m 123p 567p 789s") == []
    score = scored("4444m 123p 567p 789s +C").score
    assert score.complete and not score.legal
    said = CliRunner().invoke(cli, ["analyze", "4444m 123p 567p 789s +C", "-r", "hongzhong"])
    assert "5 of 4m in the hand with the 红中 standing for it" in said.output, said.output


# --- 龙七对 (p. 9: "所和牌张为 4 张相同牌中的第 4 张") -------------------------------------------------------------------


def test_dragon_seven_pairs_needs_the_winning_tile_to_be_the_fourth():
    # four 4p held before the win, won on a 9s: a 七对 (and 无红中), not a 龙七对
    assert fan("4444p 88p 99p 66m 88s 9s +9s") == ({"seven_pairs": 1, "no_wild": 1}, 3)
    # the same tiles won on the fourth 4p: 龙七对 and 无红中
    assert fan("444p 88p 99p 66m 88s 99s +4p") == ({"dragon_seven_pairs": 1, "no_wild": 1}, 4)
    # a 红中 in the four (the choice written in rulesets/hongzhong.md), and a 红中 as the fourth
    assert fan("44p C 88p 99p 66m 88s 99s +4p") == ({"dragon_seven_pairs": 1}, 3)
    assert fan("444p 88p 99p 66m 88s 99s +C") == ({"dragon_seven_pairs": 1}, 3)


# --- what the book refuses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["[222s] 1234567m 9m 7p C +8m", "--from", "W"], "hongzhong allows no discard wins: this hand must be self-drawn"),
    (["[123s] 1234567m 9m 7p C +8m"], "Error: hand: [123s]: no chow is claimed in this ruleset"),
    (["[CCC] 1234567m 9m 7p C +8m"], "Error: hand: [CCC]: a 红中 is never part of a pung or a kong"),
    (["[222s] 1234567m 9m 7p C +8m", "--wild", "5m"], "Error: --wild: hongzhong's 红中 is always C, not 5m"),
    (["[222s] 1234567m 9m 7p C +8m", "--indicator", "5m"],
     "Error: --indicator: hongzhong's 红中 is always C: nothing is turned up to name it"),
    (["[222s] 1234567m 9m 7p C +8m", "--birds", "3"], "Error: --birds: 3 birds hit, but only 2 are turned"),
    (["[222s] 1234567m 9m 7p C +8m", "--birds", "1", "--last-tile"],
     "Error: --birds: 1 birds hit, but a win on the wall's last tile turns none: no tile is left"),
    (["[222s] 1234567m 9m 7p E +8m"], "E: no such tile in this ruleset's wall of 112"),
])
def test_what_the_book_refuses_is_one_line(args, words):
    said = CliRunner().invoke(cli, ["analyze", *args, "-r", "红中"])
    assert said.exit_code in (0, 1, 2) and words in said.output and "Traceback" not in said.output, said.output


def test_the_red_dragon_is_wild_without_being_named_and_may_be_named():
    assert fan("[222s] 1234567m 9m 7p C +8m", wild=["C"]) == ({"dragon": 1}, 1)


# --- an evening: kong money, the draw that voids it, who deals next --------------------------------------------


@pytest.fixture
def table(tmp_path):
    from mjcalc.evening import Ledger, create_table
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        create_table(ledger, "t", "hongzhong", PLAYERS, 1)
    return db


def record(ledger, hand=None, seat=None, **fields):
    from mjcalc.evening import hand_input, record_given
    given = hand_input(hand, Situation(seat=seat, **fields)) if hand else hand_input(facts={})
    return record_given(ledger, ledger.table("t"), given).hand


def money(ledger):
    return {s.seat: s.score for s in ledger.standings(ledger.table("t"))}


def test_kong_money_stays_with_a_win_and_the_winner_deals_next(table):
    """At 底分 1, from 八、1 and 七、4 (p. 8):
      W 阿张 makes a concealed kong: each of the three pays him 2      → E -2, S -2, W +6, N -2
      S 小李 kongs on E's discard (明杠): E pays him 3                  → E -3, S +3
      S wins 例 2 (一条龙, 1 番: 2 each) with one bird hit (1 each)       → E -3, S +9, W -3, N -3
      the evening: E -8, S +10, W +3, N -5; S deals the next deal
    """
    from mjcalc.evening import Ledger, record_penalty
    from mjcalc.evening.check import problems
    with Ledger(table) as ledger:
        assert record_penalty(ledger, ledger.table("t"), "concealed_kong", "W").penalty.deltas == \
            {"E": -2, "S": -2, "W": 6, "N": -2}
        assert record_penalty(ledger, ledger.table("t"), "direct_kong", "S", to="E").penalty.deltas == \
            {"E": -3, "S": 3, "W": 0, "N": 0}
        won = record(ledger, "[222s] 1234567m 9m 7p C +8m", "S", birds=1)
        assert won.deltas == {"E": -3, "S": 9, "W": -3, "N": -3}
        assert money(ledger) == {"E": -8, "S": 10, "W": 3, "N": -5}
        assert won.after.dealer == "S"
        assert problems(ledger, derive=True) == []


def test_a_draw_pays_back_every_kong_of_the_deal_and_keeps_the_dealer(table):
    """"若本副牌最终流局，所有已开过的杠均不计算分数" (八、1 4)): the deal's concealed kong (W: 2 each), 明杠 (S on E's
    discard: 3) and 加杠 (N: 1 each) are all paid back; the dealer E deals again ("上一副牌的庄家继续", 七、4). A kong
    made in an earlier deal, won, is kept."""
    from mjcalc.evening import Ledger, record_penalty
    with Ledger(table) as ledger:
        t = ledger.table("t")
        record_penalty(ledger, t, "concealed_kong", "N")  # kept: its deal is won
        record(ledger, "[222s] 1234567m 9m 7p C +8m", "E")  # the dealer wins and deals again
        before = money(ledger)
        record_penalty(ledger, t, "concealed_kong", "W")
        record_penalty(ledger, t, "direct_kong", "S", to="E")
        record_penalty(ledger, t, "added_kong", "N")
        draw = record(ledger)
        assert draw.deltas == {"E": 2 + 3 + 1, "S": 2 - 3 + 1, "W": -6 + 1, "N": 2 - 3}
        assert money(ledger) == before
        assert draw.after.dealer == "E"


@pytest.mark.parametrize("told, paid", [({"total": 0}, 1), ({"total": 2}, 4), ({"patterns": {"dragon": 1}}, 2),
                                        ({"patterns": {"dragon_seven_pairs": 1, "full_flush": 1}}, 16)])
def test_a_win_told_by_its_total_or_patterns_pays_as_its_tiles(table, told, paid):
    from mjcalc.evening import Ledger, hand_input, record_given
    with Ledger(table) as ledger:
        given = hand_input(None, Situation(seat="N"), **told)
        won = record_given(ledger, ledger.table("t"), given, confirm_total=True).hand
        assert won.deltas == each_pays(paid, "N")


def test_a_win_told_on_a_discard_is_refused_as_its_tiles_are(table):
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    with Ledger(table) as ledger:
        for told in ({"total": 1}, {"patterns": {"dragon": 1}}):
            with pytest.raises(LedgerError) as refused:
                record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="N", discarder="E"), **told))
            assert "hongzhong allows no discard wins" in str(refused.value)
        assert ledger.hands(ledger.table("t")) == []


# --- the property: waits against the slow reference, under the five-copy limit -----------------------------------


def random_hand(rng):
    """13 tiles of the 112: up to two 红中 and up to two pungs or kongs declared, within four of each kind."""
    held = [0] * 34
    melds = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        k = rng.randrange(27)
        size = rng.choice([3, 3, 4])
        if held[k] + size <= 4:
            held[k] += size
            melds.append(("{%s}" if size == 4 and rng.random() < 0.5 else "[%s]") % (str(k % 9 + 1) * size + "mps"[k // 9]))
    reds = rng.choice([0, 0, 1, 1, 2])
    concealed = [0] * 34
    four = rng.randrange(27)
    if rng.random() < 0.3 and held[four] == 0:  # four alike in the hand: where the five-copy limit bites
        concealed[four] = 4
    while sum(concealed) < 13 - 3 * len(melds) - reds:
        # clumped ranks, so that hands are often ready
        k = rng.randrange(27) if rng.random() < 0.3 or not any(concealed) else \
            max(0, min(26, rng.choice([i for i in range(27) if concealed[i]]) + rng.choice([-2, -1, 0, 1, 2])))
        if held[k] + concealed[k] < 4:
            concealed[k] += 1
    for k in range(34):
        held[k] += concealed[k]
    text = " ".join(str(k % 9 + 1) + "mps"[k // 9] for k in range(27) for _ in range(concealed[k]))
    return " ".join([text, "C" * reds, *melds]).strip(), concealed, reds, len(melds), held


def test_waits_equal_the_slow_reference_with_red_dragons_and_no_fifth_copy():
    import random

    import reference as ref
    rng = random.Random("hongzhong waits")
    kinds = tuple(range(27)) + (31,)  # what a 红中 may stand for: the wall's kinds (a 红中 as itself changes nothing)
    shapes = {"standard", "seven_pairs"}
    ready = bitten = 0
    for _ in range(250):
        text, concealed, reds, melds, held = random_hand(rng)
        expected, unlimited = [], []
        for k in kinds:
            if k == 31:  # a 红中 drawn
                draw, wilds = list(concealed), reds + 1
            elif held[k] < 4:
                draw, wilds = [n + (i == k) for i, n in enumerate(concealed)], reds
            else:
                continue
            if ref.ref_is_complete_within_four(draw, wilds, melds, shapes, kinds):
                expected.append(NAMES[k])
            if ref.ref_is_complete_bruteforce(draw, wilds, melds, shapes):
                unlimited.append(NAMES[k])
        assert wait_names(text) == expected, text
        ready += bool(expected)
        bitten += expected != unlimited
    # the property is about ready hands, and about the limit: enough of each
    assert ready >= 60 and bitten >= 5, (ready, bitten)


def test_kong_money_is_said_at_the_prompt_as_players_say_it(table):
    """`暗杠 阿张` and `明杠 小李 老王` at `table play` record the kong money (the word penalty may be left out); the
    draw then pays it all back (八、1 4))."""
    from mjcalc.evening import Ledger
    said = CliRunner().invoke(cli, ["table", "play", "t", "--db", str(table)],
                              input="暗杠 阿张\npenalty 明杠 小李 老王\n荒牌\nquit\n")
    assert said.exit_code == 0 and "Error" not in said.output, said.output
    with Ledger(table) as ledger:
        assert [(p.penalty, p.player, p.to) for p in ledger.penalties(ledger.table("t"))] == \
            [("concealed_kong", "W", None), ("direct_kong", "S", "E")]
        assert money(ledger) == dict.fromkeys("ESWN", 0)
