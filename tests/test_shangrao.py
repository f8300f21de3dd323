"""Shangrao 上饶: the spec's public examples through the CLI, every base pattern with and without a wild 宝,
near misses, 九幺 as a modifier, 飞宝 for the winner and for a loser, ways to win, and properties."""
import json
from dataclasses import replace

import pytest
from conftest import copies_held, situation_possible
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from mjcalc.analysis import analyze as run_analysis
from mjcalc.cli import cli
from mjcalc.situation import Situation
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.analysis import setting
from mjcalc.errors import SituationError
from mjcalc.scoring import score_hand
from mjcalc.tiles import NAMES

SHANGRAO = load_ruleset("shangrao")
BASES = [p.id for p in SHANGRAO.patterns if p.role == "base"]


def cli_json(hand, *options):
    result = CliRunner().invoke(cli, ["analyze", hand, "-r", "shangrao", "--json", *options])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def patterns(out):
    return {p["id"]: p["value"] for p in out["patterns"]}


def situation(wild=None, **fields):
    wilds = (NAMES.index(wild),) if wild else ()
    return Situation(wild=wilds, **fields)


def score(hand, wild=None, ruleset=SHANGRAO, **fields):
    here = setting(parse_hand(hand), ruleset, situation(wild, **fields))
    return score_hand(here.tiles, here.situation, ruleset, here.region)


def payouts(hand, wild=None, **fields):
    result = run_analysis(parse_hand(hand), SHANGRAO, situation(wild, **fields))
    assert result.score.legal, result.score.reason
    return result.payout.deltas


def base_of(s):
    return next(m.pattern_id for m in s.matches if SHANGRAO.pattern(m.pattern_id).role == "base")


# --- the examples of rules-shangrao.md, exactly ----------------------------------------------------------

@pytest.mark.parametrize("hand, base, payout", [
    pytest.param("123m 456p 789s 11s 23m +4m", "pure_self_draw", {"E": 6, "S": -2, "W": -2, "N": -2},
                 id="plain-self-draw"),
    pytest.param("147m 258p 369s ESWN +C", "thirteen_lonely", {"E": 12, "S": -4, "W": -4, "N": -4},
                 id="thirteen-lonely-no-bao"),
    pytest.param("19m 19p 19s EESWNC 1m +F", "nine_terminals", {"E": 12, "S": -4, "W": -4, "N": -4},
                 id="nine-terminals-no-bao"),
])
def test_public_examples(hand, base, payout):
    out = cli_json(hand, "--wild", "5s")
    assert out["complete"] and out["legal"]
    assert out["payouts"] == payout
    assert patterns(out) == {base: -payout["S"]}  # 九幺 as the base is not doubled again


# --- every base pattern, with and without a 宝 in a wildcard role ----------------------------------------

BASE_TABLE = [
    # hand, 宝, base, value; 宝 = 5s unless said otherwise
    ("123m 456p 789s 11s 2m 5s +4m", "5s", "plain", 1),                # 5s plays 3m
    ("123m 456p 345s 11s 23m +4m", "5s", "pure_self_draw", 2),        # 5s is itself in 345s
    ("123m 456p 789s 11s 23m +4m", "1s", "wild_single_none", 6),      # 11s: a natural pair of 宝
    ("123m 456p 789s 11s 23m +4m", None, "pure_self_draw", 2),        # no 宝 at all
    ("123m 456p 789s 234s 5s +E", "5s", "wild_single", 3),
    ("123m 456p 789s 88s 5s 5s +8s", "5s", "wild_single_none", 6),
    ("123m 456p 789s 88s 5s 5s +5s", "5s", "wild_single_none", 6),    # three 宝 as a natural pung
    ("123m 456p 789s 234s 5s +5s", "5s", "wild_single_none", 6),      # the second 宝 makes a natural pair
    ("123m 456p 789s 8s 5s 5s 5s +5s", "5s", "wild_single_wild", 6),  # two more 宝 still play 7s and 9s
    ("111m 222p 333s EE 9p 5s +9p", "5s", "pungs", 4),
    ("[111m] 222p 555s EEE S +S", "5s", "pungs_wild_single_none", 16),  # a natural pung of 宝: 偷机 before
    ("111m 222p 333s EEE S +S", None, "pure_pungs", 10),
    ("111m 222p 333s EEE 5s +S", "5s", "pungs_wild_single", 8),
    ("111m 222p 333s EEE 5s +5s", "5s", "pungs_wild_single_none", 16),
    ("1133m 5577p 99s EE 5s +F", "5s", "seven_pairs", 4),
    ("1133m 5577p 55s EE F +F", "5s", "pure_seven_pairs", 10),
    ("1111m 5577p 99s EE 5s +F", "5s", "luxury_seven_pairs", 8),
    ("1111m 5577p 55s EE F +F", "5s", "pure_luxury_seven_pairs", 20),
    ("1111m 5555p 77s EE F +F", None, "pure_luxury_seven_pairs", 40),
    ("147m 258p 36s ESWN 5s +C", "5s", "thirteen_lonely", 2),
    ("147m 258p 258s ESWN +C", "5s", "thirteen_lonely", 4),          # 5s is itself between 2s and 8s
    ("147m 25p 39s ESWNC 5s +P", "5s", "seven_star_thirteen_lonely", 4),  # 5s fills F
    ("147m 25p 39s ESWNCF +P", None, "seven_star_thirteen_lonely", 8),
    ("19m 19p 19s EESWN 1m 5s +C", "5s", "nine_terminals", 2),
    ("19m 19p 19s EESSWW 1m +N", "1m", "nine_terminals", 4),          # the 宝 1m are themselves
    ("19m 19p 19s ESWNC 1m 5s +P", "5s", "seven_star_nine_terminals", 4),
    ("19m 19p 19s ESWNCF 1m +P", None, "seven_star_nine_terminals", 8),
]


@pytest.mark.parametrize("hand, wild, base, value", BASE_TABLE, ids=[f"{b}-{h}" for h, _, b, _ in BASE_TABLE])
def test_base_patterns(hand, wild, base, value):
    s = score(hand, wild)
    assert s.complete and s.legal
    assert base_of(s) == base
    assert s.total == value
    assert {m.pattern_id: m.value for m in s.matches} == {base: value}


def test_every_base_pattern_is_in_the_table():
    assert set(BASES) - {b for _, _, b, _ in BASE_TABLE} == {"heavenly", "earthly"}


@pytest.mark.parametrize("hand, wild, fields, value", [
    ("111m 222p 333s EEE 5s +S", "5s", {"first_turn": True}, 10),                      # over 碰碰糊宝吊头 8
    ("123m 456p 789s 11s 23m +4m", None, {"first_turn": True, "seat": "S", "discarder": "E"}, 10),
])
def test_heavenly_and_earthly_are_a_flat_ten(hand, wild, fields, value):
    s = score(hand, wild, **fields, flown=0)
    assert base_of(s) in ("heavenly", "earthly") and s.total == value


def test_a_non_dealers_first_self_draw_is_no_earthly():
    # 地糊 is only on the dealer's first discard: on his own first draw it is 平糊自摸 2
    s = score("123m 456p 789s 11s 23m +4m", None, first_turn=True, seat="S", flown=0)
    assert base_of(s) == "pure_self_draw" and s.total == 2


def test_a_first_turn_hand_worth_more_keeps_its_own_value():
    # 清豪华七对 20 beats 天糊 10: the base giving the highest value is kept
    s = score("1111m 5577p 99s EE F +F", first_turn=True)
    assert base_of(s) == "pure_luxury_seven_pairs" and s.total == 20


# --- near misses ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, wild", [
    pytest.param("147m 258p 369s ESWN +N", None, id="lonely-honor-twice"),
    pytest.param("146m 258p 369s ESWN +C", None, id="lonely-4m-6m-two-apart"),
    pytest.param("146m 258p 36s ESWN 5s +C", "5s", id="lonely-a-bao-cannot-part-4m-6m"),
    pytest.param("19m 19p 19s ESWNC 1m 2m +P", None, id="nine-a-2m"),
    pytest.param("19m 19p 19s ESWNC 1m 5p +P", None, id="nine-a-5p"),
    pytest.param("[111m] 9m 19p 19s ESWNC +C", None, id="nine-needs-all-concealed"),
])
def test_near_misses_are_not_complete(hand, wild):
    assert not score(hand, wild).complete


def test_a_bao_saves_the_nine_terminals_near_miss():
    assert base_of(score("19m 19p 19s ESWNC 1m 5s +P", "5s")) == "seven_star_nine_terminals"


# --- multipliers ------------------------------------------------------------------------------------------

def test_nine_terminals_modifies_pure_pungs():
    s = score("111m 999p 111s EEE S +S")
    assert {m.pattern_id: m.value for m in s.matches} == {"pure_pungs": 10, "all_terminals_and_honors": 2}
    assert s.total == 20


def test_nine_terminals_modifies_pure_seven_pairs():
    s = score("11m 99p 11s EE SS CC P +P")
    assert {m.pattern_id: m.value for m in s.matches} == {"pure_seven_pairs": 10, "all_terminals_and_honors": 2}


def test_nine_terminals_does_not_double_itself():
    s = score("19m 19p 19s EESWNC 1m +F")
    assert [m.pattern_id for m in s.matches] == ["nine_terminals"] and s.total == 4


def test_nine_terminals_modifies_pungs_with_bao_and_single_wait():
    s = score("[1111m] [999p] {EEEE} [SSS] 5s +C", "5s")
    assert {m.pattern_id: m.value for m in s.matches} == {
        "pungs_wild_single": 8, "single_wait": 2, "all_terminals_and_honors": 2, "exposed_kong": 1, "concealed_kong": 2,
    }
    assert (s.total, s.bonus) == (32, 3)


@pytest.mark.parametrize("n", [1, 2])
def test_kong_bloom_doubles_per_kong(n):
    s = score("{1111m} {9999p} 789s 11s 23m +4m", kong_draw=n)
    assert s.total == 2 * 2 ** n and s.bonus == 4


def test_more_kong_draws_than_kongs_is_refused():
    with pytest.raises(SituationError, match="3 kong replacement draws in a row, but the hand has 2 kongs"):
        score("{1111m} {9999p} 789s 11s 23m +4m", kong_draw=3)


def test_single_wait_needs_four_melds():
    assert score("[123m] [456p] [789s] [EEE] 9m +9m").total == 4
    assert score("[123m] [456p] 789s EEE 9m +9m").total == 2


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_winner_flown(n):
    s = score("123m 456p 789s 11s 23m +4m", "5s", flown=n)
    assert s.total == 2 * 2 ** n
    assert payouts("123m 456p 789s 11s 23m +4m", "5s", flown=n) == {"E": 6 * 2 ** n, "S": -2 * 2 ** n,
                                                                     "W": -2 * 2 ** n, "N": -2 * 2 ** n}


def test_no_flown_on_a_first_turn_win():
    assert score("111m 222p 333s EEE S +S", flown=2, first_turn=True).total == 10


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_loser_flown(n):
    got = payouts("123m 456p 789s 11s 23m +4m", "5s", flown_by=(("W", n),))
    assert got == {"E": 4 + 2 * 2 ** n, "S": -2, "W": -2 * 2 ** n, "N": -2}


def test_loser_flown_with_winner_flown_and_bonus():
    # V = 2·2 = 4; S pays 4·2 + 10, W 4·4 + 10, N 4 + 10
    got = payouts("123m 456p 789s 11s 23m +4m", "5s", flown=1, flown_by=(("S", 1), ("W", 2)), jiebao=True)
    assert got == {"E": 58, "S": -18, "W": -26, "N": -14}


def test_loser_flown_does_not_multiply_a_flat_earthly():
    got = payouts("123m 456p 789s 11s 23m +4m", seat="S", discarder="E", first_turn=True, flown_by=(("E", 1),))
    assert got == {"E": -10, "S": 10, "W": 0, "N": 0}


# --- ways to win and payouts ------------------------------------------------------------------------------

def test_discard_win_is_refused_with_the_reason():
    out = cli_json("123m 456p 789s 11s 23m +4m", "--from", "S")
    assert out["complete"] and not out["legal"] and out["payouts"] is None
    assert out["reason"] == "shangrao allows no discard wins: this hand must be self-drawn"


def test_a_discard_at_first_turn_from_a_non_dealer_is_refused():
    assert not score("123m 456p 789s 11s 23m +4m", seat="S", discarder="W", first_turn=True).legal


def test_rob_kong_the_konger_pays_six_times():
    assert payouts("123m 456p 789s 11s 23m +4m", rob_kong=True, discarder="N", flown_by=(("N", 1),)) == {
        "E": 24, "S": 0, "W": 0, "N": -24}


def test_rob_kong_bonuses_still_come_from_everyone():
    got = payouts("[1111m] 456p 789s 11s 23m +4m", rob_kong=True, discarder="S")
    assert got == {"E": 15, "S": -13, "W": -1, "N": -1}


def test_other_seats_kongs():
    out = cli_json("123m 456p 789s 11s 23m +4m", "--kong", "S:exposed", "--kong", "N:concealed")
    assert out["payouts"] == {"E": 3, "S": -1, "W": -5, "N": 3}
    assert {p["name"]: p["payouts"] for p in out["payout_parts"]}["杠分"] == {"E": -3, "S": 1, "W": -3, "N": 5}


def test_base_multiplies_everything():
    assert payouts("[1111m] 456p 789s 11s 23m +4m", base=5) == {"E": 45, "S": -15, "W": -15, "N": -15}


@pytest.mark.parametrize("options, message", [
    (["--kong", "E:exposed"], "--kong: E is the winner's own seat"),
    (["--flown-by", "E=1"], "--flown-by: E is the winner's own seat"),
    (["--flown", "3", "--flown-by", "S=2"], "5 飞宝 in all"),
    (["--flown-by", "S=1", "--flown-by", "S=2"], "--flown-by: names S twice"),
])
def test_situation_errors(options, message):
    result = CliRunner().invoke(cli, ["analyze", "123m 456p 789s 11s 23m +4m", "-r", "shangrao", *options])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_indicator_gives_the_next_tile():
    out = cli_json("123m 456p 789s 11s 2m 5s +4m", "--indicator", "4s")
    assert out["wildcards"] == ["5s"] and patterns(out) == {"plain": 1}
    assert cli_json("123m 456p 789s 11s 2m P +4m", "--indicator", "F")["wildcards"] == ["P"]


def test_wild_single_waits_on_everything():
    out = cli_json("123m 456p 789s 234s 5s", "--wild", "5s")
    assert len(out["waits"]) == 34
    assert all(w["self_draw"]["legal"] and not w["discard"]["legal"] for w in out["waits"])


def test_shangrao_options_are_not_warned_about():
    out = cli_json("123m 456p 789s 11s 23m +4m", "--flown", "1", "--jiebao", "--kong", "S:exposed")
    assert [w for w in out["warnings"] if not w.startswith("seat: assumed")] == []  # the seat notice only


# --- properties -------------------------------------------------------------------------------------------

SETS = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]


@st.composite
def complete_hands(draw):
    """A complete standard hand (pungs/chows and a pair), maybe with 宝 swapped in, and a winning tile."""
    counts = [0] * 34
    tiles = []
    for size in (3, 3, 3, 3, 2):
        for _attempt in range(20):
            block = draw(st.sampled_from(SETS)) if size == 3 else (draw(st.integers(0, 33)),) * 2
            if all(counts[t] + block.count(t) <= 4 for t in block):
                break
        else:
            assume(False)
        for t in block:
            counts[t] += 1
        tiles += block
    wild = draw(st.integers(0, 33))
    # swap up to three tiles for 宝 tiles, keeping four copies at most
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(tiles) - 1))
        if counts[wild] < 4 and tiles[i] != wild:
            counts[tiles[i]] -= 1
            counts[wild] += 1
            tiles[i] = wild
    tiles.sort()
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    text = " ".join(NAMES[t] for t in tiles) + " +" + NAMES[win]
    return text, NAMES[wild]


SITUATIONS = st.fixed_dictionaries({
    "flown": st.integers(0, 1),
    "flown_by": st.lists(st.sampled_from([("S", 1), ("W", 1), ("N", 1)]), unique_by=lambda x: x[0]).map(tuple),
    "jiebao": st.booleans(),
    "four_wild": st.booleans(),
    "kong_draw": st.sampled_from([0, 0, 1, 2]),
    "kong": st.lists(st.sampled_from([("S", "exposed"), ("W", "concealed"), ("N", "exposed")]),
                     max_size=4).map(tuple),  # at most four kongs a seat (issue 24)
    "how": st.sampled_from(["self", "self", "rob", "earthly"]),
})


def _fields(drawn, hand, wild=None):
    fields = dict(drawn)
    how = fields.pop("how")
    if not situation_possible(hand, kong_draw=fields["kong_draw"]):
        fields["kong_draw"] = 0
    if how == "rob" and not situation_possible(hand, rob_kong=True):
        how = "self"
    if how == "rob":
        fields.update(rob_kong=True, discarder="S", kong_draw=0)
    elif how == "earthly":
        fields.update(seat="S", discarder="E", first_turn=True, kong_draw=0, flown=0,
                      flown_by=tuple(x for x in fields["flown_by"] if x[0] != "S"),
                      kong=tuple(k for k in fields["kong"] if k[0] != "S"))
    held = copies_held(hand, wild) if wild else 0  # only four 宝: flown and held make at most four
    if held + fields["flown"] + sum(n for _, n in fields["flown_by"]) > 4:
        fields.update(flown=0, flown_by=())
    if fields["four_wild"] and held + fields["flown"] != 4:
        fields["four_wild"] = False
    return fields


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), SITUATIONS)
def test_payouts_are_integers_summing_to_zero(hand_wild, drawn):
    hand, wild = hand_wild
    result = run_analysis(parse_hand(hand), SHANGRAO, situation(wild, **_fields(drawn, hand, wild)))
    assert result.score.complete
    assert result.score.legal, result.score.reason
    deltas = result.payout.deltas
    assert sum(deltas.values()) == 0
    assert all(isinstance(v, int) for v in deltas.values())
    for _, _, part in result.payout.parts:
        assert sum(part.values()) == 0


def _only_base(keep):
    return replace(SHANGRAO, patterns=tuple(p for p in SHANGRAO.patterns if p.role != "base" or p.id == keep))


ONLY = {b: _only_base(b) for b in BASES}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), SITUATIONS)
def test_the_chosen_value_is_never_below_any_single_base(hand_wild, drawn):
    hand, wild = hand_wild
    fields = _fields(drawn, hand, wild)
    best = score(hand, wild, **fields)
    for base, rules in ONLY.items():
        alone = score(hand, wild, ruleset=rules, **fields)
        if any(m.pattern_id == base for m in alone.matches):
            assert best.total >= alone.total, (base, alone.total, best.total)
