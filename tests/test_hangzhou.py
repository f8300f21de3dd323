"""杭州麻将 (MIL 2025): the payment rules worked by hand.

The book is 杭州麻将（推广）竞赛规则（试行2025版）, of the MIL rules committee. It has no worked scoring example, so every
figure here is worked from its rules, quoted where they are used: "基本分=底分*2^番数" (八、3, p. 7), "4 番封顶" (八、4),
"闲家和牌时，向闲家收取 1 倍基本分，向庄家收取 2/4/8 倍基本分（一老庄/二老庄/三老庄）。庄家和牌时，向闲家收取 2/4/8 倍基本分"
(八、1), and the 番种 table (八、10, p. 8). rulesets/hangzhou.md gives the rules in the project's words.
"""
import pytest
from click.testing import CliRunner

from mjcalc.analysis import analyze
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation

HANGZHOU = load_ruleset("hangzhou")
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}

PLAIN = "123m 456p 789s 1s P 23m +4m"  # 平和: the 财神 is the 1s of the pair; not 可爆头 before the win
BURST = "123m 456p 789s 234s P +5m"  # four sets and a 财神: 可爆头, any tile wins
SEVEN = "11m 22m 44p 4p P 66s 99s 8s +8s"  # 七对子: the 财神 the fourth 4p, so no 豪华七对
LUXURY = "11m 22m 44p 44p 66s 8s 99s +8s"  # 豪华七对 of real tiles, and 无财神: 5 番, paid as 4


def scored(hand, **fields):
    return analyze(parse_hand(hand), HANGZHOU, Situation(**fields))


def fan(hand, **fields):
    result = scored(hand, **fields)
    assert result.score.legal, result.score.reason
    return {m.pattern_id: m.count for m in result.score.matches}, result.score.total


@pytest.mark.parametrize("hand, fields, patterns, total", [
    (PLAIN, {}, {"plain_win": 1}, 0),
    (BURST, {}, {"burst": 1}, 1),
    (BURST, {"piao": 1}, {"burst": 1, "caipiao": 1}, 2),  # "必然是爆头，故牌型至少 2 番"
    (BURST, {"piao": 2}, {"burst": 1, "caipiao": 2}, 3),  # "连续打出财神牌可叠加并加记爆头"
    (BURST, {"kong_draw": 0}, {"burst": 1}, 1),
    ("{2222m} 456p 789s 234s P +5m", {"kong_draw": 1}, {"burst": 1, "kong_bloom": 1}, 2),
    (SEVEN, {}, {"seven_pairs": 1}, 2),
    (LUXURY, {}, {"luxury_natural": 1, "no_wild": 1}, 4),
    ("123m 456p 789s 234s 5m +5m", {}, {"no_wild": 1}, 1),
    # six pairs and a 财神 before the win: 可爆头, and the win a 七对子 (3 番)
    ("11m 22m 44p 66s 99s 88s P +3m", {}, {"burst": 1, "seven_pairs": 1}, 3),
])
def test_the_fan_table(hand, fields, patterns, total):
    assert fan(hand, seat="S", **fields) == (patterns, total)


@pytest.mark.parametrize("winner, level, hand, expected", [
    # a non-dealer's 平和 at the dealer's first 老庄: 1 + 1 + 2 (B = 1)
    ("S", 1, PLAIN, {"E": -2, "S": 4, "W": -1, "N": -1}),
    # 爆头 (B = 2) at the third: 2 + 2 + 16
    ("S", 3, BURST, {"E": -16, "S": 20, "W": -2, "N": -2}),
    # the dealer wins 无财神 (B = 2) at his second: 8 from each
    ("E", 2, "123m 456p 789s 234s 5m +5m", {"E": 24, "S": -8, "W": -8, "N": -8}),
    # the dealer wins 豪华七对 + 无财神 (5 番 → 4, B = 16) at his third: 128 from each, the most a hand can take
    ("E", 3, LUXURY, {"E": 384, "S": -128, "W": -128, "N": -128}),
])
def test_the_dealer_pays_and_is_paid_two_four_or_eight_times(winner, level, hand, expected):
    assert scored(hand, seat=winner, dealer="E", laozhuang=level).payout.deltas == expected


def test_a_house_that_counts_caipiao_once_pays_it_once_and_refuses_it_named_twice(tmp_path):
    """"连续打出财神牌可叠加" (八、6) is read as n 番 for n in a row; a house file saying `params: {stacks: false}`
    counts it once: 爆头 + 财飘 = 2 番 whatever the 财神 thrown, and 财飘 named twice is not its hand."""
    from mjcalc.evening import Ledger, create_table, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    house = tmp_path / "once.yaml"
    house.write_text("extends: hangzhou\nid: once\npatterns:\n  caipiao: {params: {stacks: false}}\n",
                     encoding="utf-8")
    once = load_ruleset(str(house))
    result = analyze(parse_hand(BURST), once, Situation(seat="S", piao=2))
    assert {m.pattern_id: m.count for m in result.score.matches} == {"burst": 1, "caipiao": 1}
    assert result.score.total == 2
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", str(house), PLAYERS, 1)
        with pytest.raises(LedgerError):
            record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="S"),
                                                               patterns={"burst": 1, "caipiao": 2}))
        told = record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="S", piao=2),
                                                                  patterns={"burst": 1, "caipiao": 1})).hand
        assert told.deltas == {"E": -8, "S": 16, "W": -4, "N": -4}  # B 4; the dealer pays 2 × 4


def test_the_deal_is_drawn_at_twenty_tiles_left_so_the_value_of_discards_draws_no_further(tmp_path):
    """"当一位选手打出一张牌后，牌墙剩 20 张牌…本副牌流局" (五、8): with 42 tiles unseen, the player alone draws at most
    22, and every discard's chance is what a wall with no tiles kept back gives in 22 draws."""
    import random

    from mjcalc.advice import advise
    from mjcalc.ruleset import load_ruleset_file
    house = tmp_path / "house.yaml"
    house.write_text("extends: hangzhou\nid: no-dead\nwall: {dead: 0}\n", encoding="utf-8")
    hand = parse_hand("123m 456p 789s 23s 55p E")
    left = [4] * 34
    for kind in hand.concealed:
        left[kind] -= 1
    pool = [k for k in range(33) for _ in range(left[k])]  # no 白 seen
    random.Random(1).shuffle(pool)
    seen = [pool[:80].count(k) for k in range(34)]

    def chances(rules, draws):
        value = advise(hand, rules, Situation(seat="S"), seen=seen, by="win", draws=draws, alone=True).value
        return value.draws, [(d.tile, round(d.p_win, 12)) for d in value.discards]

    assert HANGZHOU.dead_wall == 20
    drawn, kept_back = chances(HANGZHOU, 60)
    assert drawn == 136 - 14 - 80 - 20
    assert chances(load_ruleset_file(house), 22) == (22, kept_back) != chances(load_ruleset_file(house), 60)


@pytest.mark.parametrize("args, words", [
    ([BURST, "--from", "W"], "hangzhou allows no discard wins: this hand must be self-drawn"),
    ([PLAIN, "--piao", "1"], "legal     no: 财飘 is always 爆头"),
    (["[PPP] 456p 789s 234s 5m +5m"], "Error: hand: [PPP]: a 财神 is never part of a pung or a kong"),
    ([BURST, "--wild", "C"], "Error: --wild: hangzhou's 财神 is always P, not C"),
    ([BURST, "--laozhuang", "4"], "--laozhuang"),
])
def test_what_the_book_refuses_is_one_line(args, words):
    said = CliRunner().invoke(cli, ["analyze", *args, "-r", "杭州"])
    assert said.exit_code in (0, 1, 2) and words in said.output and "Traceback" not in said.output, said.output


@pytest.fixture
def table(tmp_path):
    from mjcalc.evening import Ledger, create_table
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        create_table(ledger, "t", "hangzhou", PLAYERS, 1)
    return db


def record(ledger, hand=None, seat=None, **fields):
    from mjcalc.evening import hand_input, record_given
    given = hand_input(hand, Situation(seat=seat, **fields)) if hand else hand_input(facts={})
    return record_given(ledger, ledger.table("t"), given).hand


def test_a_table_keeps_the_dealers_level_and_the_winner_deals_next(table):
    """E deals at his first 老庄; a draw keeps the deal and raises him to the second ("庄家和牌或流局，则下一副该选手为
    二老庄", 五、10); his win raises him to the third; S's win makes S the dealer ("上一副和牌者为本副庄家", 四、5) at
    his first:
      hand 1 (E first): 荒牌, nothing paid
      hand 2 (E second): E wins 爆头 (B 2) → 8 from each: E +24
      hand 3 (E third): S wins 爆头 (B 2) → E 16, W 2, N 2: S +20
      hand 4 (S first): W wins 平和 (B 1) → S 2, E 1, N 1: W +4
    """
    from mjcalc.evening import Ledger
    from mjcalc.evening.check import problems
    with Ledger(table) as ledger:
        draw = record(ledger)
        assert draw.deltas == dict.fromkeys("ESWN", 0) and draw.after.dealer == "E"
        assert record(ledger, BURST, "E").deltas == {"E": 24, "S": -8, "W": -8, "N": -8}
        third = record(ledger, BURST, "S")
        assert third.deltas == {"E": -16, "S": 20, "W": -2, "N": -2} and third.after.dealer == "S"
        assert record(ledger, PLAIN, "W").deltas == {"E": -1, "S": -2, "W": 4, "N": -1}
        assert problems(ledger, derive=True) == []


def test_a_house_that_reads_the_level_from_wins_alone_keeps_it_over_a_draw(tmp_path):
    """三、18 names only a win ("庄家和牌…为二老庄"), where 五、10 adds the draw: a house file saying
    `session: {streak_on_draw: false}` keeps the dealer at his level over a draw:
      hand 1 (E first): 荒牌, nothing paid; E deals again, still at his first
      hand 2 (E first): E wins 爆头 (B 2) → 4 from each: E +12
      hand 3 (E second): S wins 爆头 (B 2) → E 8, W 2, N 2: S +12
    """
    from mjcalc.evening import Ledger, create_table
    house = tmp_path / "house.yaml"
    house.write_text("extends: hangzhou\nid: hangzhou-wins\nsession: {streak_on_draw: false}\n", encoding="utf-8")
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", str(house), PLAYERS, 1)
        draw = record(ledger)
        assert draw.after.dealer == "E" and draw.after.streak == 0
        assert record(ledger, BURST, "E").deltas == {"E": 12, "S": -4, "W": -4, "N": -4}
        assert record(ledger, BURST, "S").deltas == {"E": -8, "S": 12, "W": -2, "N": -2}


def test_caipiao_without_burst_is_refused_in_the_same_words_told_or_from_the_tiles(table):
    """"必然是爆头": 财飘 named without 爆头 is refused as the tiles of a hand that was not 可爆头 are."""
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    words = scored(PLAIN, seat="N", piao=1).score.reason
    assert words.code == "hangzhou.piao_not_burst"
    with Ledger(table) as ledger:
        for given in (hand_input(None, Situation(seat="N"), patterns={"caipiao": 1}),
                      hand_input(PLAIN, Situation(seat="N", piao=1))):
            with pytest.raises(LedgerError) as refused:
                record_given(ledger, ledger.table("t"), given)
            assert refused.value.code == "record.not_legal" and str(words.text("en")) in str(refused.value)
        assert ledger.hands(ledger.table("t")) == []


def test_a_table_refuses_a_level_given_by_hand(table):
    from mjcalc.evening import Ledger, hand_input, record_given
    from mjcalc.evening.ledger import LedgerError
    with Ledger(table) as ledger:
        with pytest.raises(LedgerError) as refused:
            record_given(ledger, ledger.table("t"), hand_input(BURST, Situation(seat="E", laozhuang=3)))
        assert refused.value.code == "record.from_deal"


@pytest.mark.parametrize("told, paid", [({"total": 1}, 2), ({"patterns": {"burst": 1, "caipiao": 1}}, 4)])
def test_a_win_told_by_its_total_or_patterns_pays_as_its_tiles(table, told, paid):
    from mjcalc.evening import Ledger, hand_input, record_given
    with Ledger(table) as ledger:
        won = record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="N"), **told)).hand
        assert won.deltas == {"E": -2 * paid, "S": -paid, "W": -paid, "N": 4 * paid}


def test_the_value_of_a_discard_scores_each_winning_tile_with_the_hand_before_it():
    """From 可爆头 every draw wins as 爆头, the 财神 drawn too: throwing 9m from `123m456p789s 234s 9m P` and drawing
    once is worth 爆头 (B 2) from each of three, the dealer ×2: 2 + 2 + 4 = 8, whatever the tile. (The value model
    scored the 14 tiles once for every winning tile, and a drawn 财神 read as another tile's win was a 平和: 7.90.)"""
    import json
    said = CliRunner().invoke(cli, ["advise", "123m456p789s 234s 9m P", "-r", "hangzhou", "--seat", "S", "--dealer",
                                    "E", "--by", "value", "--alone", "--draws", "1", "--json"])
    assert said.exit_code == 0, said.output
    nine = next(d for d in json.loads(said.stdout)["discards"] if d["discard"] == "9m")
    assert nine["expected"] == pytest.approx(8.0, abs=1e-9) and nine["p_win"] == pytest.approx(1.0)


# --- 十风 (八、7) and 承包 (八、8) --------------------------------------------------------------------------------

TEN = "EEE 159m 2p 8s CF 4s 6p 7s +9s"  # no shape, no 财神


def test_ten_winds_win_whatever_the_shape_and_add_only_no_caishen():
    """"记连续打出十张风牌的选手 3 番和牌，如在打出的风牌中有财神，则记为 4 番；十风可以复合番型无财神": 3 + 1, and 4 + 1 paid as
    4 (the cap). S wins, E deals at his first: 16 + 16 + 32 = 64."""
    assert fan(TEN, seat="S", ten_winds=True) == ({"ten_winds": 1, "no_wild": 1}, 4)
    assert fan(TEN, seat="S", ten_winds_white=True) == ({"ten_winds_white": 1, "no_wild": 1}, 4)
    assert scored(TEN, seat="S", dealer="E", ten_winds=True).payout.deltas == {"E": -32, "S": 64, "W": -16, "N": -16}
    from mjcalc.errors import ImpossibleSituation
    with pytest.raises(ImpossibleSituation) as refused:  # in the words of any discard win here
        scored(TEN, seat="S", ten_winds=True, discarder="W")
    assert refused.value.code == "region.no_discard_wins"
    assert str(scored(BURST, seat="S", discarder="W").score.reason.text("en")) in str(refused.value)
    said = CliRunner().invoke(cli, ["analyze", "[EEE] 159m 2p 8s CF 4s 6p 7s +9s", "-r", "hangzhou", "--ten-winds"])
    assert "十风 is made with no 吃, 碰 or 杠" in said.output


@pytest.mark.parametrize("fields, expected", [
    # "若 A 和牌，则由 A 向 B 收取当副牌所有分数": S wins 爆头 (B 2), W deals at his first: 2 (E) + 4 (W) + 2 (N) = 8,
    # all from E, the seat before S
    ({"chengbao": True}, {"E": -8, "S": 8, "W": 0, "N": 0}),
    # "若 B 和牌，则由 B 向 A 收取当副牌所有分数的 2 倍": W, after S, chowed three times from S: W pays 16
    ({"fan_chengbao": True}, {"E": 0, "S": 16, "W": -16, "N": 0}),
    # both at once: "向其上家收取其当副牌所有分数并同时向下家收取其当副牌所有分数的 2 倍"
    ({"chengbao": True, "fan_chengbao": True}, {"E": -8, "S": 24, "W": -16, "N": 0}),
])
def test_chengbao_makes_the_bound_seats_pay_the_whole_win(fields, expected):
    """S has chowed three times (爆头 with a 财神 beside three chows claimed)."""
    assert scored("[123m] [456m] [789p] 234s P +5m", seat="S", dealer="W", **fields).payout.deltas == expected


def test_chengbao_needs_three_chows_claimed():
    said = CliRunner().invoke(cli, ["analyze", BURST, "-r", "hangzhou", "--seat", "S", "--chengbao"])
    assert said.exit_code == 2 and "承包 binds a winner who chowed three times: this hand has 0 chow(s)" in said.output
