"""广东麻将 推倒胡 (MIL 2023): the book's examples, and its payment rules worked by hand.

The book is 广东麻将（推广）竞赛规则（试行2023版）, of the MIL rules committee. It has no fully scored hand; its examples
are the five-copy waits (七、1 5), pp. 9-10), the ghost coefficient ("打出过 3 张鬼牌后和牌，基本分=基本番×2³", 八、2 2)
b), p. 10) and 四鬼和 with 十三幺 ("取十三幺 16 番", 八、2 7), p. 12). The rest is worked from its rules, quoted where
used: "基本分=基本番×分数系数" (八、2 2)), "和牌者向点炮者收取基本分" (八、2 3)), "抢杠…收取三倍基本分", "自摸和：和牌者向
未和牌者分别收取基本分" (八、2 4)), "每有一张马牌中马收取其他三家每家 1 分" (八、3 2)), and the 番种 table (pp. 11-12).
Ghosts (the four flowers) are written `*`.
"""
import json

import pytest
from click.testing import CliRunner

from mjcalc.analysis import analyze
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation

GUANGDONG = load_ruleset("guangdong")
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
PUNGS = "[555m] [666m] 888p 99p 9m * +9m"  # 碰碰和 4 and 自摸 1, a ghost in hand: 5 番 × 1


def scored(hand, **fields):
    return analyze(parse_hand(hand), GUANGDONG, Situation(**fields))


def fan(hand, **fields):
    result = scored(hand, **fields)
    assert result.score.legal, result.score.reason
    return {m.pattern_id: m.count for m in result.score.matches}, result.score.total


def waits_of(hand):
    said = CliRunner().invoke(cli, ["waits", hand, "-r", "guangdong", "--json"])
    assert said.exit_code == 0, said.output
    import json
    doc = json.loads(said.stdout)
    return [w["tile"] for w in doc["waits"]], doc.get("wild_draw")


# --- 七、1 5) the five-copy waits, pp. 9-10 (the book writes one suit's digits; here 万) -----------------------------

def test_the_books_five_copy_waits():
    # "手牌为 1234444556677，此时可和 1、7，不能和 4（鬼牌可作 1、7，不能作 4）"
    assert waits_of("1234444556677m") == (["1m", "7m"], {"left": 4})
    score = scored("1234444556677m +*", seat="S").score
    assert score.legal and 3 not in score.reading.decomposition.wild_as  # the ghost is not a fifth 4m
    # "如果手牌为 1234556677，己方已碰牌为 444，此时可和 1、4、7（鬼牌可作 1、4、7）": no natural 4m is left
    assert waits_of("1234556677m [444m]") == (["1m", "7m"], {"left": 4})
    assert scored("1234556677m [444m] +*", seat="S").score.legal
    # "如果手牌为 1255667799，己方已杠牌为 3333，此时可和 3（鬼牌可作 3）": only a ghost wins it
    assert waits_of("1255667799m [3333m]") == ([], {"left": 4})
    three = scored("1255667799m [3333m] +*", seat="S").score
    assert three.legal and three.reading.decomposition.wild_as == (2,)
    # and a hand whose only completion is a fifth 4m is not ready, a ghost drawn to it no win
    assert waits_of("4444m 123p 567p 789s") == ([], None)
    assert not scored("4444m 123p 567p 789s +*", seat="S").score.legal


def test_three_ghosts_thrown_make_the_hand_worth_eight_times_its_fan():
    """"例如打出过 3 张鬼牌后和牌，基本分=基本番×2³=基本番×8": 碰碰和 + 自摸, 5 番, with a ghost in hand: 40 from each."""
    assert scored(PUNGS, seat="S", ghosts_out=3).payout.deltas == {"E": -40, "S": 120, "W": -40, "N": -40}


def test_four_ghosts_with_thirteen_orphans_is_settled_as_thirteen_orphans():
    """"和牌同时满足四鬼和、十三幺两个番种，则取十三幺 16 番进行结算": four ghosts fill 1m, 中, 发, 白; won on W's 1s, 16.
    Self-drawn it is the 十三幺 any self-draw is, with 自摸 (rulesets/guangdong.md): 17. Four ghosts with 12 番 or less
    of other patterns are 四鬼和 12 alone, with 杠上花 as it stacks."""
    assert fan("19m 19p 9s ESWN * * * * +1s", seat="S", discarder="W") == ({"thirteen_orphans": 1}, 16)
    assert fan("19m 19p 9s ESWN * * * * +1s", seat="S") == ({"self_draw": 1, "thirteen_orphans": 1}, 17)
    assert fan("[EEE] [SSS] 55m 7m * * * * +7m", seat="S") == ({"four_ghosts": 1}, 12)
    assert fan("{EEEE} [SSS] 55m 7m * * * * +7m", seat="S", kong_draw=1) == ({"kong_bloom": 1, "four_ghosts": 1}, 17)


# --- the minimums and the coefficient (七、2, 八、2 2)) ---------------------------------------------------------------


@pytest.mark.parametrize("hand, fields, reason", [
    # a plain discard win: no 番 ("起和番数为 2 番")
    ("123m 456p 789s 234s 5s +5s", {"discarder": "W"}, "below_minimum"),
    # 门清 and 自摸, 2 番, but a ghost in hand and none thrown: 2 points ("起和分数为 4 分")
    ("123m 456p 789s 234s * +5s", {}, "guangdong.below_points"),
])
def test_a_win_needs_two_fan_and_four_points(hand, fields, reason):
    score = scored(hand, seat="S", **fields).score
    assert score.complete and not score.legal and reason in score.reason.code


def test_no_ghost_doubles_the_hand_and_makes_two_fan_enough():
    """门清 1 + 自摸 1 with no ghost: 2 番 × 2 = 4 points, the least a win needs; each of three pays 4."""
    assert fan("123m 456p 789s 234s 5s +5s", seat="S") == ({"self_draw": 1, "concealed": 1}, 2)
    assert scored("123m 456p 789s 234s 5s +5s", seat="S").payout.deltas == {"E": -4, "S": 12, "W": -4, "N": -4}


# --- who pays (八、2 3)-5)) ---------------------------------------------------------------------------------------


def test_the_discarder_pays_the_hand_and_a_robbed_konger_three_times():
    """碰碰和 4 on W's discard, no ghost (×2): W pays 8. 混一色 4 + 门清 1 + 抢杠 4 on W's added kong of 7m, no ghost:
    9 番 × 2 × 3 = 54 from W ("“抢杠”和牌，和牌者向加杠者收取三倍基本分")."""
    assert scored("[555m] [666m] 888p 999p 9m +9m", seat="S", discarder="W").payout.deltas == \
        {"E": 0, "S": 8, "W": -8, "N": 0}
    robbed = scored("123m 456m 89m EEE 11m +7m", seat="S", discarder="W", rob_kong=True)
    assert robbed.score.total == 9 and robbed.payout.deltas == {"E": 0, "S": 54, "W": -54, "N": 0}


def test_a_self_draw_is_paid_by_each_and_each_horse_by_each():
    """PUNGS self-drawn (5 番 × 1): 5 from each; with 2 horses hit, 2 more from each."""
    paid = scored(PUNGS, seat="S", horses=2).payout
    assert paid.deltas == {"E": -7, "S": 21, "W": -7, "N": -7}
    assert [en for _, en, _ in paid.parts] == ["hand", "horses"]


def test_kong_bloom_after_a_kong_on_a_discard_is_paid_by_its_feeder_three_times():
    """"直杠的“杠上花”和牌，按自摸的分数计算，但由点杠者一家支付，即和牌者仅向点杠者收取三倍得分（包括基本分和中马得分）":
    [5555m] fed by W, 杠上花 5 + 碰碰和 4 = 9 番 with a ghost in hand (×1), one horse: W pays 3 × (9 + 1) = 30. After a
    concealed kong the same hand is an ordinary self-draw: 10 from each."""
    fed = scored("[5555m]W [666m] 888p 99p 9m * +9m", seat="S", kong_draw=1, kong_from="W", horses=1)
    assert fed.score.total == 9 and fed.payout.deltas == {"E": 0, "S": 30, "W": -30, "N": 0}
    own = scored("{5555m} [666m] 888p 99p 9m * +9m", seat="S", kong_draw=1, horses=1)
    assert own.payout.deltas == {"E": -10, "S": 30, "W": -10, "N": -10}


@pytest.mark.parametrize("args, words", [
    (["19m 19p 9s ESWN * * * 1s +*", "--from", "W"], "a thrown ghost is never won on"),
    ([PUNGS, "--horses", "1", "--from", "W"], "horses are turned only after a self-draw"),
    ([PUNGS, "--horses", "5"], "5 horses hit, but only 4 are turned"),
    ([PUNGS, "--ghosts-out", "4"], "1 ghosts in the hand and 4 thrown: there are only 4"),
    ([PUNGS, "--wild", "5m"], "write each as * in the hand"),
    (["[123m] [666m] 888p 99p 9m * +9m"], "no chow is claimed in this ruleset"),
    (["19m 19p 9s ESW * * * * * +1s"], "Error: hand: the hand holds 5 鬼牌 '*', but guangdong's wall has 4"),
    (["[555m] [666m] 888p 99p 9m * +9m f1"], "Error: hand: guangdong's flowers are its 鬼牌: write each as *"),
])
def test_what_the_book_refuses_is_one_line(args, words):
    said = CliRunner().invoke(cli, ["analyze", *args, "-r", "广东"])
    assert said.exit_code in (0, 1, 2) and words in said.output and "Traceback" not in said.output, said.output


def test_analyze_of_13_tiles_says_a_ghost_drawn_wins_as_waits_does():
    """Three ghosts beside 十三幺's twelve kinds: every kind the hand lacks wins, and so does the fourth ghost."""
    for command in ("analyze", "waits"):
        said = CliRunner().invoke(cli, [command, "19m 19p 9s ESWN C * * *", "-r", "guangdong"])
        assert said.exit_code == 0 and "鬼牌 (*) drawn: 1 left" in said.output, said.output
        data = json.loads(CliRunner().invoke(cli, [command, "19m 19p 9s ESWN C * * *", "-r", "guangdong",
                                                  "--json"]).output)
        assert data["wild_draw"] == {"left": 1}


def test_a_thirteen_orphans_says_what_each_ghost_stands_for_once():
    said = CliRunner().invoke(cli, ["analyze", "19m 19p 9s ESWN C * * * +1s", "-r", "guangdong"])
    assert "鬼牌 stand for: 1m, F, P\n" in said.output, said.output


def test_four_ghosts_won_whatever_the_shape_is_shown_by_a_reading_without_five_alike():
    """111m 222m 555m 7m and four ghosts: the reading shown holds no kind five times (七、1 5))."""
    result = scored("111m 222m 555m 7m * * * +*", seat="S")
    blocks = result.score.reading.decomposition.blocks
    held = [t for b in blocks for t in b.tiles]
    assert max(held.count(k) for k in set(held)) <= 4 and result.score.total == 12


def test_an_agreed_total_no_hand_scores_suggests_none_below_the_minimum(tmp_path):
    from mjcalc.evening import Ledger, create_table, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", "guangdong", PLAYERS, 1)
        with pytest.raises(LedgerError) as refused:
            record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="S"), total=3))
        assert "near it: 2, 4, 5" in str(refused.value)


def test_the_value_of_discards_says_it_does_not_count_ghosts_yet():
    said = CliRunner().invoke(cli, ["advise", "[555m] 666m 888p 9p 1s 9m * E", "-r", "guangdong", "--by", "value"])
    assert said.exit_code == 2 and said.stderr == \
        "Error: by: the value of discards does not count a hand holding a 鬼牌 yet: advise without --by ranks its " \
        "discards\n", said.output
    assert CliRunner().invoke(cli, ["advise", "[555m] 666m 888p 9p 1s 9m * E", "-r", "guangdong"]).exit_code == 0


# --- the 番种 table ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hand, fields, patterns, total", [
    ("[EEE] [SSS] [WWW] NN 5m 5m +5m", {"discarder": "W"}, {"all_pungs": 1, "half_flush": 1, "small_winds": 1}, 20),
    ("[EEE] [SSS] [WWW] 55m NN +N", {"discarder": "W"}, {"half_flush": 1, "big_winds": 1}, 20),
    ("[CCC] [FFF] PP 123m 45m +6m", {"discarder": "W"}, {"half_flush": 1, "small_dragons": 1}, 16),
    ("[CCC] [FFF] PP 99m 123m +P", {"discarder": "W"}, {"half_flush": 1, "big_dragons": 1}, 20),
    ("[111m] [999p] [EEE] 11s CC +C", {"discarder": "W"}, {"terminal_pungs": 1}, 12),
    ("1112345678999m +5m", {"discarder": "W"}, {"nine_gates": 1}, 16),
    ("11m 22m 44p 55p 66s 88s 9s +9s", {}, {"self_draw": 1, "seven_pairs": 1}, 7),
    ("1m 5p 9s E S W N 2m 3s **** +7p", {}, {"four_ghosts": 1}, 12),
])
def test_the_fan_table(hand, fields, patterns, total):
    assert fan(hand, seat="S", **fields) == (patterns, total)


# --- an evening: kong money, a draw, who deals next --------------------------------------------------------------


@pytest.fixture
def table(tmp_path):
    from mjcalc.evening import Ledger, create_table
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        create_table(ledger, "t", "guangdong", PLAYERS, 1)
    return db


def test_kong_money_a_draw_voids_and_the_winner_deals_next(table):
    """W 阿张's concealed kong (2 from each), then a draw: paid back, E deals again ("若本副牌最终流局，所有已开过的杠均
    不计算分数", 八、1 4)); then S 小李 wins PUNGS on N's discard (碰碰和 4 × 1: 4 from N) and deals next (七、5)."""
    from mjcalc.evening import Ledger, hand_input, record_given, record_penalty
    with Ledger(table) as ledger:
        record_penalty(ledger, ledger.table("t"), "concealed_kong", "W")
        draw = record_given(ledger, ledger.table("t"), hand_input(facts={})).hand
        assert draw.deltas == {"E": 2, "S": 2, "W": -6, "N": 2} and draw.after.dealer == "E"
        won = record_given(ledger, ledger.table("t"),
                           hand_input("[555m] [666m] 888p 99p 9m * +9m", Situation(seat="S", discarder="N"))).hand
        assert won.deltas == {"E": 0, "S": 4, "W": 0, "N": -4} and won.after.dealer == "S"


def test_the_table_names_a_kong_bloom_by_the_rulesets_word(table):
    """A hand won on a kong's replacement is noted 杠上花, 广东's word, not another ruleset's 杠开."""
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.documents import context
    with Ledger(table) as ledger:
        t = ledger.table("t")
        won = record_given(ledger, t, hand_input("{5555m} [666m] 888p 99p 9m * +9m",
                                                 Situation(seat="S", kong_draw=1))).hand
        assert "杠上花 1" in context(won, t, GUANGDONG) and not any("杠开" in w for w in context(won, t, GUANGDONG))


# --- the property: waits against the slow reference, with ghosts and the five-copy limit -------------------------


def test_waits_and_a_ghost_drawn_equal_the_slow_reference():
    """Random 13-tile hands of the 136 kinds with up to one ghost (`*`), often four alike: the kinds that win them
    and whether a ghost drawn does, against tests/reference.py with no fifth copy (七、1 5)), over the three shapes."""
    import random

    import reference as ref
    from mjcalc.batch import BatchWaits
    from mjcalc.tiles import NAMES
    rng = random.Random("guangdong waits")
    finder = BatchWaits(GUANGDONG, Situation())
    shapes = {"standard", "seven_pairs", "thirteen_orphans"}
    ready = bitten = 0
    for _ in range(120):
        counts = [0] * 34
        ghosts = rng.choice([0, 1])
        if rng.random() < 0.3:
            counts[rng.randrange(34)] = 4
        if rng.random() < 0.2 and ghosts == 0:  # four alike and three chows: only a fifth copy would pair it
            four = [k for k in range(34) if counts[k] == 4] or [rng.randrange(34)]
            counts = [0] * 34
            counts[four[0]] = 4
            for suit in rng.sample(range(3), 3):
                low = 9 * suit + rng.randrange(7)
                if all(counts[low + i] < 4 for i in range(3)):
                    for i in range(3):
                        counts[low + i] += 1
            counts = counts if sum(counts) == 13 else [0] * 34
        while sum(counts) < 13 - ghosts:
            k = rng.randrange(34) if rng.random() < 0.3 or not any(counts) else \
                max(0, min(33, rng.choice([i for i in range(34) if counts[i]]) + rng.choice([-1, 0, 1])))
            if counts[k] < 4:
                counts[k] += 1
        text = " ".join(NAMES[k] for k in range(34) for _ in range(counts[k])) + " *" * ghosts
        hand, found, _ = finder.answer(text)
        kinds = [NAMES[k] for k in range(34) if counts[k] < 4 and ref.ref_is_complete_within_four(
            [n + (i == k) for i, n in enumerate(counts)], ghosts, 0, shapes)]
        assert [NAMES[t] for t, _ in found] == kinds, text
        ghost = ref.ref_is_complete_within_four(counts, ghosts + 1, 0, shapes)
        assert (finder.wild_draw(hand) is not None) == ghost, text
        ready += bool(kinds) or ghost
        bitten += ghost != ref.ref_is_complete_bruteforce(counts, ghosts + 1, 0, shapes)
    assert ready >= 30 and bitten >= 1, (ready, bitten)


def test_a_house_file_may_multiply_the_two_ghost_factors(tmp_path):
    """The book gives one coefficient, 2^N; a house reading of 无鬼 and 出鬼 together as both is a parameter: a
    winner who threw 2 ghosts and holds none, 碰碰和 on a discard (4 番): 4 × 4 = 16, or 4 × 8 = 32 so."""
    from mjcalc.ruleset import load_ruleset_file
    house = tmp_path / "house.yaml"
    house.write_text("extends: guangdong\nid: gd-house\npayout:\n  params: {ghost_factors_multiply: true}\n",
                     encoding="utf-8")
    hand, sit = parse_hand("[555m] [666m] 888p 999p 9m +9m"), Situation(seat="S", discarder="W", ghosts_out=2)
    assert analyze(hand, GUANGDONG, sit).payout.deltas["S"] == 16
    assert analyze(hand, load_ruleset_file(house), sit).payout.deltas["S"] == 32


def test_a_house_file_may_weigh_four_ghosts_against_the_sum_of_the_rest(tmp_path):
    """"取番数较高的番种" (八、2 7)) is read against the single highest other pattern: four ghosts with 七对 6 and
    清一色 8 (and 自摸 1) are 四鬼和 12, no one of them higher. A house reading against their sum says
    `or_without: true` and is paid the 15 (七对 6 + 清一色 8 + 自摸 1): with ghosts in the hand the coefficient is 1
    (八、2 2)), so 15 from each of three."""
    from mjcalc.ruleset import load_ruleset_file
    house = tmp_path / "house.yaml"
    house.write_text("extends: guangdong\nid: gd-sum\npatterns:\n  four_ghosts: {params: {or_without: true}}\n",
                     encoding="utf-8")
    hand = "111m 222m 555m 7m * * * +*"
    assert fan(hand, seat="S") == ({"four_ghosts": 1}, 12)
    summed = analyze(parse_hand(hand), load_ruleset_file(house), Situation(seat="S"))
    assert {m.pattern_id: m.count for m in summed.score.matches} == {"self_draw": 1, "seven_pairs": 1,
                                                                     "full_flush": 1}
    assert summed.score.total == 15 and summed.payout.deltas == {"E": -15, "S": 45, "W": -15, "N": -15}


def test_what_the_tiles_never_count_is_refused_when_told():
    """From a fresh pair of eyes: told without tiles, 四鬼和 beside 十三幺 (the tiles count 十三幺 alone), 四鬼和 with
    无鬼, and a 杠上花 total below its own 5 番 are refused as the tiles would be; a 直杠 杠上花 needs an exposed kong."""
    from mjcalc.told import Told, analyze_told
    told = [(Told(patterns=(("four_ghosts", 1), ("thirteen_orphans", 1))), Situation(seat="S"), "four_ghosts_beaten"),
            (Told(patterns=(("four_ghosts", 1),)), Situation(seat="S", no_ghost=True), None),
            (Told(total=4), Situation(seat="S", kong_draw=1, no_ghost=True), "told.total_below_situation")]
    for what, sit, code in told:
        try:
            result = analyze_told(what, GUANGDONG, sit)
        except Exception as exc:  # a refusal raised: one line
            assert code is None or code in exc.code, exc
            continue
        assert not result.score.legal and code in result.score.reason.code, result.score.reason
    said = CliRunner().invoke(cli, ["analyze", "123m 456p 78s * {2222s} 5m +5m", "-r", "guangdong", "--kong-draw",
                                    "--kong-from", "N", "--seat", "W"])
    assert said.exit_code == 2 and "an exposed kong: the hand has none" in said.output
