"""Zhuji 诸暨包牌: the spec's examples through the CLI, every payout case, bids and 财神, and properties."""
import json

import pytest
from click.testing import CliRunner
from conftest import situation_possible
from hypothesis import assume, given, settings, strategies as st

from mjcalc.cli import cli
from mjcalc.errors import SituationError
from mjcalc.situation import Situation
from mjcalc.regions.zhuji import REGION, bid_name, ladder_bid, ladder_rank, parse_bid, stake
from mjcalc.ruleset import load_ruleset
from mjcalc.scoring import Score

ZHUJI = load_ruleset("zhuji")
SCHEME = REGION.schemes["zhuji"]


def run(*args):
    return CliRunner().invoke(cli, ["analyze", *args, "-r", "zhuji", "--json"])


def analyze(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def patterns(out):
    return {p["id"]: p["value"] for p in out["patterns"]}


# --- the examples of rules-zhuji.md, exactly -----------------------------------------------------------

SPEC_PAYOUTS = [
    # hand, options, T, payouts — each hand built to have exactly the spec's T (worked in examples/zhuji/spec-*)
    pytest.param("123m 456p 9s EEE CCC +9s", ["--seat", "E", "--bid", "2", "--bidder", "E", "--wild", "5p"], 3,
                 {"E": 39, "S": -13, "W": -13, "N": -13}, id="bidder-self-draws-T3"),
    pytest.param("123m 234m 456p 789s 5p +5p", ["--seat", "S", "--bid", "2", "--bidder", "E", "--wild", "9s"], 1,
                 {"E": -17, "S": 11, "W": 3, "N": 3}, id="other-self-draws-T1"),
    pytest.param("123m 456m 9m SSS CCC +9m", ["--seat", "S", "--from", "W", "--bid", "2", "--bidder", "S",
                                              "--wild", "5m"], 3,
                 {"E": -9, "S": 31, "W": -13, "N": -9}, id="bidder-wins-on-discard-T3"),
]


@pytest.mark.parametrize("hand, options, total, payouts", SPEC_PAYOUTS)
def test_spec_payout_examples(hand, options, total, payouts):
    out = analyze(hand, *options)
    assert out["legal"] is True
    assert out["total"] == total
    assert out["payouts"] == payouts


def test_spec_tai_example_east_red_half_flush():
    out = analyze("123m 456m 9m EEE CCC +9m", "--seat", "E", "--dealer", "E", "--wild", "5m")
    assert patterns(out) == {"east_pung": 2, "dragon_pung": 1, "half_flush": 1}
    assert out["total"] == 4


def test_spec_tai_example_east_red_all_pungs():
    out = analyze("111m 999m 5m EEE CCC +5m", "--seat", "E", "--dealer", "E", "--wild", "5m")
    assert patterns(out) == {"east_pung": 2, "dragon_pung": 1, "all_pungs": 1, "half_flush": 1}
    assert out["total"] == 5


def test_spec_tai_example_mixed_is_zero_and_not_legal():
    options = ["--seat", "S", "--bid", "独2", "--bidder", "W", "--wild", "5m"]
    out = analyze("222m 555p 789s 345m 8p +8p", *options)
    assert (out["complete"], out["legal"], out["total"]) == (True, False, 0)
    assert out["reason"] == "complete, but 0 台: needs 1"
    assert out["payouts"] is None
    bloom = analyze("{2222m} 555p 789s 345m 8p +8p", *options, "--kong-draw")  # a kong draw needs a kong
    assert (bloom["legal"], bloom["total"], patterns(bloom)) == (True, 1, {"kong_bloom": 1})


def test_spec_tai_example_red_pair_is_no_pinghu():
    out = analyze("123m 456s 567m 789p C +C", "--seat", "S", "--bid", "2", "--bidder", "W", "--wild", "9p")
    assert (out["complete"], out["legal"], out["total"]) == (True, False, 0)
    assert out["reason"] == "complete, but 0 台: needs 1"


def test_not_legal_is_said_in_words():
    result = CliRunner().invoke(cli, ["analyze", "123m 456s 567m 789p C +C", "-r", "zhuji", "--wild", "9p"])
    assert result.exit_code == 0
    assert "legal     no: complete, but 0 台: needs 1" in result.output


# --- every payout case: (包家 wins / another wins) × (self-draw / discard by the 包家 / by another / 抢杠) --

# CCC FFF 123m 456p 99s with 财神 5p, 6p: 中发白 2 whoever holds it, so T = 2 (H = 4), or 3 with 抢杠 (H = 8).
# A 2台 bid: B = 5. The dealer is E throughout; the 包家 is S when he wins, W when S wins instead.
PAY_HAND = "123m 456p 9s CCC FFF +9s"
ROB_HAND = "12m 456p 99s CCC FFF +3m"  # PAY_HAND's tiles won on 3m: a robbed 9s would be a fifth 9s
PAY_CASES = [
    # winner, 包家, options, T, payouts — worked from the formulas:
    pytest.param("S", "S", [], 2, {"E": -9, "S": 27, "W": -9, "N": -9},
                 id="bidder-self-draws"),            # each pays H 4 + B 5
    pytest.param("S", "S", ["--from", "W"], 2, {"E": -7, "S": 23, "W": -9, "N": -7},
                 id="bidder-on-another-discard"),   # W 4 + 5, E and N 2 + 5
    pytest.param("S", "S", ["--rob-kong", "--from", "N"], 3, {"E": -5, "S": 39, "W": -5, "N": -29},
                 id="bidder-robs-a-kong"),          # N 3·8 + 5, E and W 5
    pytest.param("S", "W", [], 2, {"E": 1, "S": 17, "W": -19, "N": 1},
                 id="other-self-draws"),            # each pays 4; W pays 5 to E, S, N
    pytest.param("S", "W", ["--from", "W"], 2, {"E": 3, "S": 13, "W": -19, "N": 3},
                 id="other-on-bidder-discard"),     # W 4, E and N 2; W pays 5 to each
    pytest.param("S", "W", ["--from", "N"], 2, {"E": 3, "S": 13, "W": -17, "N": 1},
                 id="other-on-another-discard"),    # N 4, E and W 2; W pays 5 to each
    pytest.param("S", "W", ["--rob-kong", "--from", "W"], 3, {"E": 5, "S": 29, "W": -39, "N": 5},
                 id="other-robs-the-bidder-kong"),  # W 24; W pays 5 to each
    pytest.param("S", "W", ["--rob-kong", "--from", "N"], 3, {"E": 5, "S": 29, "W": -15, "N": -19},
                 id="other-robs-another-kong"),     # N 24; W pays 5 to each
]


@pytest.mark.parametrize("winner, bidder, options, total, payouts", PAY_CASES)
def test_payout_cases(winner, bidder, options, total, payouts):
    out = analyze(ROB_HAND if "--rob-kong" in options else PAY_HAND, "--seat", winner, "--dealer", "E", "--bid", "2", "--bidder", bidder,
                  "--wild", "5p", *options)
    assert out["legal"] is True
    assert out["total"] == total
    assert out["payouts"] == payouts
    hand_part, bid_part = out["payout_parts"]
    assert bid_part["name"] == "包 2台"
    assert sum(bid_part["payouts"].values()) == 0
    assert abs(bid_part["payouts"][bidder]) == 15


def test_bidder_cannot_win_on_his_own_discard():
    result = run(PAY_HAND, "--seat", "S", "--bid", "2", "--bidder", "S", "--wild", "5p", "--from", "S")
    assert result.exit_code == 2
    assert "cannot win on his own discard" in result.stderr


def test_no_bid_has_no_stake():
    out = analyze(PAY_HAND, "--seat", "S", "--wild", "5p", "--from", "N")
    assert out["payouts"] == {"E": -2, "S": 8, "W": -2, "N": -4}
    assert [p["name"] for p in out["payout_parts"]] == ["和牌"]


def test_base_multiplies_both_parts():
    out = analyze(PAY_HAND, "--seat", "S", "--bid", "2", "--bidder", "S", "--wild", "5p", "--base", "10")
    assert out["payouts"] == {"E": -90, "S": 270, "W": -90, "N": -90}


# --- minimums -------------------------------------------------------------------------------------------

def test_bidder_needs_the_level_of_his_bid():
    base = [PAY_HAND, "--seat", "S", "--bidder", "S", "--wild", "5p"]
    assert analyze(*base, "--bid", "2")["legal"] is True
    out = analyze(*base, "--bid", "3")
    assert (out["legal"], out["reason"]) == (False, "complete, but 2 台: the 包家 needs 3")
    other = analyze(PAY_HAND, "--seat", "N", "--bidder", "S", "--wild", "5p", "--bid", "5")
    assert other["legal"] is True  # everyone else needs 1


def test_standalone_hands_win_below_the_bid():
    out = analyze("EEE SSS NNN CCC F +F", "--seat", "N", "--bid", "9", "--bidder", "N", "--wild", "5m")
    assert (out["legal"], out["total"], patterns(out)) == (True, 8, {"all_honors": 8})


def test_waits_say_whether_each_would_be_legal():
    out = analyze("123m 567m 456p 78s 5p 5p", "--seat", "S", "--bid", "2", "--bidder", "S", "--wild", "C")
    got = {w["tile"]: (w["legal"], w["total"]) for w in out["waits"]}
    assert got == {"6s": (True, 2), "9s": (True, 2), "C": (False, None), "F": (False, None)}
    assert out["waits"][2]["self_draw"]["reason"] == "complete, but 1 台: the 包家 needs 2"


# --- 台 patterns ---------------------------------------------------------------------------------------

TAI = [
    # hand, options (seat, dealer, …), patterns — 财神 5p/6p unless said, so 无财 stays out of the way
    pytest.param("123m 456p 9s EEE CCC +9s", ["--seat", "S"], {"east_pung": 1, "dragon_pung": 1}, id="east-non-dealer"),
    pytest.param("123m 456p 9s EEE CCC +9s", ["--seat", "E"], {"east_pung": 2, "dragon_pung": 1}, id="east-dealer"),
    pytest.param("123m 456p 9s EEE CCC +9s", ["--seat", "W", "--dealer", "W"], {"east_pung": 2, "dragon_pung": 1},
                 id="east-dealer-in-west-seat"),
    pytest.param("123m 456p 9s SSS CCC +9s", ["--seat", "S"], {"seat_wind_pung": 1, "dragon_pung": 1},
                 id="south-seat-south-pung"),
    pytest.param("123m 456p 9s SSS CCC +9s", ["--seat", "W", "--dealer", "S"], {"seat_wind_pung": 1, "dragon_pung": 1},
                 id="dealer-right-is-south"),
    pytest.param("123m 456p 9s NNN CCC +9s", ["--seat", "S", "--dealer", "W"], {"seat_wind_pung": 1, "dragon_pung": 1},
                 id="dealer-left-is-north"),
    pytest.param("123m 456p 9s SSS CCC +9s", ["--seat", "E"], {"dragon_pung": 1}, id="dealer-south-pung-nothing"),
    pytest.param("123m 456p 9s WWW CCC +9s", ["--seat", "S"], {"dragon_pung": 1}, id="south-seat-west-pung-nothing"),
    pytest.param("[CCC] 123m 456p 9s PPP +9s", ["--seat", "S"], {"dragon_pung": 2}, id="exposed-dragon-pung"),
    pytest.param("123m 456p 789s 234s N +N", ["--seat", "S"], {"pinghu": 1}, id="pinghu-north-pair-for-south"),
    pytest.param("[123m] 456p 789s 234s N +N", ["--seat", "S"], {"pinghu": 1}, id="pinghu-with-exposed-chow"),
    pytest.param("123m 456p 789s 234s E +E", ["--seat", "S", "--wild", "5p", "--bid", "独2", "--bidder", "W"], {},
                 id="no-pinghu-east-pair"),
    pytest.param("123m 456p 789s 234s F +F", ["--seat", "S", "--wild", "5p", "--bid", "独2", "--bidder", "W"], {},
                 id="no-pinghu-dragon-pair"),
    pytest.param("111m 999p 777s CCC 5p +5p", ["--seat", "S"], {"dragon_pung": 1, "all_pungs": 1}, id="all-pungs"),
    pytest.param("123m 456m 789m 234m 5m +1p", ["--seat", "S", "--wild", "1p"], {"full_flush": 3, "pinghu": 1},
                 id="full-flush-and-pinghu"),
    pytest.param("123m 456m 789m 234m 5m +5m", ["--seat", "S", "--wild", "1p", "--bid", "独2", "--bidder", "W"],
                 # no 1p held: 无财
                 {"full_flush": 3, "pinghu": 1, "no_wild": 1}, id="full-flush-no-wild"),
    pytest.param("123m 456m 789m CCC 5m +1p", ["--seat", "S", "--wild", "1p"], {"dragon_pung": 1, "half_flush": 1},
                 id="half-flush"),
]


@pytest.mark.parametrize("hand, options, expected", TAI)
def test_tai(hand, options, expected):
    if "--wild" not in options:
        options = options + ["--wild", "5p", "--bid", "2", "--bidder", "N"]
    if "--bid" not in options:
        options = options + ["--bid", "2", "--bidder", "N"]
    out = analyze(hand, *options)
    assert patterns(out) == expected


def test_a_caishen_as_itself_is_still_a_caishen():
    # 5m is the 财神 and plays 5m in 345m: not 无财.
    out = analyze("123m 345m 678m 999m 1m +1m", "--seat", "S", "--wild", "5m", "--bid", "独2", "--bidder", "W")
    assert "no_wild" not in patterns(out)
    plain = analyze("123m 345m 678m 999m 1m +1m", "--seat", "S", "--wild", "5p", "--bid", "独2", "--bidder", "W")
    assert patterns(plain)["no_wild"] == 1


def test_every_win_in_a_wucai_bid_has_no_wild():
    out = analyze(PAY_HAND, "--seat", "S", "--bid", "无财2", "--bidder", "N")
    assert out["wildcards"] == []
    assert patterns(out) == {"dragon_pung": 2, "no_wild": 1}


def test_first_turn_is_standalone():
    dealer = analyze("123m 234m 456p 789s 5p +5p", "--first-turn")
    assert patterns(dealer) == {"heavenly": 8}
    other = analyze("123m 234m 456p 789s 5p +5p", "--first-turn", "--seat", "N", "--from", "E")
    assert patterns(other) == {"earthly": 8}


@pytest.mark.parametrize("extra", [(), ("--from", "W")], ids=["own-first-draw", "non-dealer-discard"])
def test_earthly_is_only_on_the_dealers_first_discard(extra):
    # "闲家对庄家打的第一张牌就能胡的为地胡": a first self-draw, or another non-dealer's discard, is ordinary
    out = analyze("123m 456m 789s 234p W +W", "--first-turn", "--seat", "N", *extra)
    assert patterns(out) == {"pinghu": 1, "no_wild": 1}
    assert out["payouts"]["N"] == (12 if not extra else 8)


def test_seven_pairs_do_not_win():
    out = analyze("1122m 3344p 5566s E +E")
    assert out["complete"] is False


# --- bids and 财神 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, parsed", [
    ("2", (2, 2)), ("2台", (2, 2)), ("3", (3, 2)), ("12台", (12, 2)),
    ("du2", (2, 1)), ("独2", (2, 1)), ("独3台", (3, 1)), ("DU4", (4, 1)),
    ("wucai2", (2, 0)), ("无财2", (2, 0)), ("无财5台", (5, 0)),
])
def test_bid_parsing(text, parsed):
    bid = parse_bid(text)
    assert (bid.level, bid.kinds) == parsed


@pytest.mark.parametrize("text", ["1", "0", "独1", "x2", "独", "2 台台", "", "two"])
def test_bad_bids(text):
    with pytest.raises(SituationError, match="unknown bid"):
        parse_bid(text)
    result = run(PAY_HAND, "--bid", text, "--bidder", "E", "--wild", "5p")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --bid: unknown bid ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_ladder_and_stakes():
    ladder = [bid_name(*ladder_bid(rank)) for rank in range(7)]
    assert ladder == ["2台", "独2台", "无财2台", "3台", "独3台", "无财3台", "4台"]
    assert [stake(5, *ladder_bid(rank)) for rank in range(7)] == [5, 10, 10, 10, 20, 20, 20]
    for rank in range(30):
        level, kinds = ladder_bid(rank)
        assert ladder_rank(level, kinds) == rank
        # B(N, c) = 5·2^(N−2) for N台, 5·2^(N−1) for 独N台 and 无财N台 (the written rules)
        assert stake(5, level, kinds) == (5 * 2 ** (level - 2) if kinds == 2 else 5 * 2 ** (level - 1))


def test_rulesets_show_prints_the_ladder():
    result = CliRunner().invoke(cli, ["rulesets", "show", "zhuji"])
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.output.splitlines()]
    for name, stake_b in [("2台", "5"), ("独2台", "10"), ("无财2台", "10"), ("3台", "10"), ("独3台", "20"),
                          ("无财3台", "20"), ("4台", "20")]:
        assert any(row and row[0] == name and row[-1] == stake_b for row in lines), name


@pytest.mark.parametrize("options, wildcards", [
    (["--bid", "2", "--wild", "5m"], ["5m", "6m"]),
    (["--bid", "2台", "--wild", "9m"], ["9m", "1m"]),
    (["--bid", "3", "--wild", "N"], ["N", "E"]),
    (["--bid", "2", "--wild", "P"], ["P", "C"]),
    (["--bid", "2", "--wild", "P,F"], ["F", "P"]),   # either order; any two dragons are neighbours
    (["--bid", "2", "--wild", "5m,6m"], ["5m", "6m"]),
    (["--bid", "2", "--wild", "6m,5m"], ["5m", "6m"]),
    (["--bid", "独2", "--wild", "5m"], ["5m"]),
    (["--bid", "wucai3"], []),
    (["--wild", "5m,7m"], ["5m", "7m"]),   # no bid: whatever --wild says
    ([], []),
])
def test_bid_decides_the_caishen(options, wildcards):
    if "--bid" in options:
        options = options + ["--bidder", "W"]
    assert analyze("123m 456p 789s 234s N +N", *options)["wildcards"] == wildcards


@pytest.mark.parametrize("options, message", [
    (["--bid", "无财2", "--bidder", "W", "--wild", "5m"], "--wild: a 无财2台 bid plays without 财神, but 5m is named"),
    (["--bid", "独2", "--bidder", "W", "--wild", "5m,6m"], "--wild: a 独2台 bid has one 财神 kind, but 2 are named: 5m,6m"),
    (["--bid", "2", "--bidder", "W", "--wild", "5m,7m"],
     "a 2台 bid's second 财神 follows the first in the cycle: after 5m comes 6m, not 7m"),
    (["--bid", "2", "--bidder", "W", "--wild", "E,W"],
     "a 2台 bid's second 财神 follows the first in the cycle: after E comes S, not W"),
    (["--bid", "2", "--bidder", "W", "--wild", "5m,6m,7m"], "--wild: a 2台 bid has two 财神 kinds, but 3 are named: 5m,6m,7m"),
    (["--bid", "2", "--bidder", "W"], "--wild: a 2台 bid has 2 财神 kinds: name the 包家's choice, e.g. 5m (5m and 6m)"),
    (["--bid", "独3", "--bidder", "W"], "--wild: a 独3台 bid has 1 财神 kind: name the 包家's choice, e.g. 5m"),
    (["--wild", "1m,2m,3m"], "--wild: zhuji has at most 2 财神 kinds, but 3 are named"),
    (["--bid", "2", "--wild", "5m"], "--bid: 2台 needs --bidder SEAT, the 包家 who made it"),
    (["--bidder", "W", "--wild", "5m"], "--bidder: names the 包家 of a bid: give the bid with --bid too"),
    (["--bid", "2", "--bidder", "W", "--indicator", "4m"],
     "--indicator: the 包家 chooses the 财神 and nothing is turned up: name them as the wild kinds"),
])
def test_wild_and_bid_contradictions(options, message):
    for hand in ("123m 456p 789s 234s N +N", "123m 456p 789s 234s N"):
        result = run(hand, *options)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"Error: {message}\n" or result.stderr == f"Error: --wild: {message}\n"


def test_bid_options_warn_under_other_rulesets():
    result = CliRunner().invoke(cli, ["analyze", "123m 456p 789s 234s N +N", "-r", "beijing", "--bid", "2"])
    assert result.exit_code == 0
    assert "--bid is not used by beijing" in result.stderr


# --- properties -----------------------------------------------------------------------------------------

SEATS = "ESWN"
RANK = st.integers(0, 3 * 9 - 1)  # 2台 … 无财10台


@st.composite
def wins(draw):
    """A legal-looking win for pay(): T, seats, how it was won, and a bid (or none)."""
    total = draw(st.integers(1, 12))
    winner = draw(st.sampled_from(SEATS))
    how = draw(st.sampled_from(["self", "discard", "rob"]))
    discarder = None if how == "self" else draw(st.sampled_from([s for s in SEATS if s != winner]))
    bid = draw(st.one_of(st.none(), RANK))
    bidder = draw(st.sampled_from(SEATS)) if bid is not None else None
    base = draw(st.integers(1, 100))
    return total, winner, how, discarder, bid, bidder, base


def _pay(total, winner, how, discarder, bid, bidder, base):
    bid_text = None if bid is None else bid_name(*ladder_bid(bid))
    situation = Situation(seat=winner, discarder=discarder, rob_kong=how == "rob", bid=bid_text, bidder=bidder,
                          base=base)
    situation = REGION.prepare(ZHUJI, situation, [])
    score = Score(complete=True, legal=True, reason=None, total=total, situation=situation)
    return SCHEME.pay(score, situation, ZHUJI).deltas


@settings(max_examples=300, deadline=None)
@given(wins())
def test_payouts_sum_to_zero(win):
    deltas = _pay(*win)
    assert sum(deltas.values()) == 0
    assert all(isinstance(v, int) for v in deltas.values())
    assert deltas[win[1]] > 0  # the winner always gains


@settings(max_examples=300, deadline=None)
@given(wins(), RANK, RANK)
def test_a_higher_bid_never_lowers_what_a_winning_bidder_collects(win, low, high):
    low, high = sorted((low, high))
    total, winner, how, discarder, _, _, base = win
    collected = [_pay(total, winner, how, discarder, rank, winner, base)[winner] for rank in (low, high)]
    assert collected[0] <= collected[1]


HANDS = [PAY_HAND, "EEE SSS NNN CCC F +F", "123m 234m 456p 789s 5p +5p", "111m 999m 5m EEE CCC +5m"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(HANDS), st.sampled_from(SEATS), st.sampled_from(SEATS),
       st.sampled_from([None, "E", "S", "W", "N", "rob"]), st.one_of(st.none(), st.integers(0, 8)),
       st.sampled_from(SEATS))
def test_cli_payouts_sum_to_zero(hand, seat, dealer, how, bid, bidder):
    options = ["--seat", seat, "--dealer", dealer]
    assume(how != "rob" or situation_possible(hand, rob_kong=True))
    if how == "rob":
        options += ["--rob-kong", "--from", SEATS[(SEATS.index(seat) + 1) % 4]]
    elif how and how != seat:
        options += ["--from", how]
    if bid is not None:
        level, kinds = ladder_bid(bid)
        options += ["--bid", bid_name(level, kinds), "--bidder", bidder] + (["--wild", "5p"] if kinds else [])
    out = analyze(hand, *options)
    assert out["complete"] is True
    if out["legal"]:
        assert sum(out["payouts"].values()) == 0
        assert out["payouts"][seat] > 0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEATS), st.sampled_from([None, "discard"]), RANK, RANK)  # an all-honors winner can't rob
def test_cli_higher_bid_never_lowers_the_bidder_take(seat, how, low, high):
    # 全字牌 is a standalone 8 台 whatever the bid, so the same hand is a legal win at every level up to 10.
    low, high = sorted((low, high))
    options = ["--seat", seat]
    if how:
        options += (["--rob-kong"] if how == "rob" else []) + ["--from", SEATS[(SEATS.index(seat) + 2) % 4]]
    took = []
    for rank in (low, high):
        level, kinds = ladder_bid(rank)
        wild = ["--wild", "5m"] if kinds else []
        out = analyze("EEE SSS NNN CCC F +F", *options, "--bid", bid_name(level, kinds), "--bidder", seat, *wild)
        assert out["legal"] is True
        took.append(out["payouts"][seat])
    assert took[0] <= took[1]


@settings(max_examples=200, deadline=None)
@given(RANK, st.lists(st.integers(0, 33), max_size=3, unique=True))
def test_prepare_is_idempotent(rank, wild):
    situation = Situation(bid=bid_name(*ladder_bid(rank)), bidder="S", wild=tuple(wild))
    try:
        once = REGION.prepare(ZHUJI, situation, [])
        kinds = REGION.wild_kinds(ZHUJI, once)
    except SituationError:
        return
    assert REGION.prepare(ZHUJI, once, []) == once
    assert len(kinds) == ladder_bid(rank)[1]


def test_a_star_under_a_no_wild_bid_is_an_error():
    """无财 means no 财神: a `*` tile has nothing to be; with no bid at all it is a faceless wildcard."""
    result = CliRunner().invoke(cli, ["analyze", "123m 456p 789s 234s * +E", "-r", "zhuji", "--bid", "wucai2",
                                      "--bidder", "S", "--seat", "S"])
    assert result.exit_code == 2
    assert result.stderr == "Error: the hand has a wildcard '*', but no wildcards are in play under the bid 无财2台\n"
    result = CliRunner().invoke(cli, ["analyze", "123m 456p 789s 234s * +E", "-r", "zhuji", "--seat", "S", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["wild_as"] == ["E"]


def test_the_seat_wind_counts_once_however_many_sets_wildcards_make_of_it():
    """zhuji.md: 门风 1 (where 中发白 is "1 each"): South's four S and two 财神 standing as S make SSS SSS, and 门风
    is still 1 台 (the property against tests/reference_scoring.py found the engine counting 2)."""
    result = CliRunner().invoke(cli, ["analyze", "111223344m SSSS +1m", "-r", "zhuji", "--seat", "S", "--wild", "4m",
                                      "--json"])
    doc = json.loads(result.stdout)
    assert {p["id"]: p["count"] for p in doc["patterns"]}.get("seat_wind_pung") == 1, doc["patterns"]
