"""Beijing: near misses worked from rules-beijing.md, and properties over generated winning hands."""
import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from mjcalc.cli import cli
from mjcalc.tiles import NAMES


def analyze(*args):
    result = CliRunner().invoke(cli, ["analyze", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


NEAR_MISSES = [
    # hand, options, patterns expected (id: value), total — each worked from the table in rules-beijing.md
    pytest.param("34m 123p 456s 789s EE +5m", ["--seat", "S"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="five-on-the-edge-is-not-catch-five"),
    pytest.param("4666m 123p 456s 789s +5m", ["--seat", "S"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="middle-five-but-also-waiting-on-4m"),
    pytest.param("111m 222p 333s 456s E +E", ["--seat", "S"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="three-pungs-and-a-chow"),
    pytest.param("[123p] [456s] [789s] {EEEE} 9m +9m", ["--seat", "S"], {"tuidaohe": 1}, 1,
                 id="concealed-kong-is-not-one-of-four-exposed"),
    pytest.param("123m 456m 789p 234s E +E", ["--seat", "S"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="straight-across-suits-is-no-dragon"),
    pytest.param("111m 234m 678m 999m E +E", ["--seat", "S"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="honor-pair-spoils-full-flush"),
    pytest.param("[123m] 456p 789s 234s E +E", ["--seat", "S", "--dealer", "W"], {"tuidaohe": 1}, 1,
                 id="non-dealer-self-draw-has-no-dealer-fan"),
    pytest.param("123m 456p 789s 234s E +E", ["--seat", "S", "--from", "W"], {"tuidaohe": 1, "concealed_no_wild": 1}, 2,
                 id="non-dealer-discard-has-no-dealer-fan"),
]


@pytest.mark.parametrize("hand, options, patterns, total", NEAR_MISSES)
def test_near_misses(hand, options, patterns, total):
    out = analyze(hand, *options)
    assert {p["id"]: p["value"] for p in out["patterns"]} == patterns
    assert out["total"] == total


def test_not_a_winning_shape_lists_ready_discards():
    out = analyze("123m 456p 789s 234s E +S")
    assert out["complete"] is False and out["legal"] is False
    # discarding E leaves waits on S (pair); discarding S leaves waits on E
    assert {d["discard"]: d["waits"] for d in out["discards"]} == {"E": ["S"], "S": ["E"]}


def test_kong_draw_with_discard_is_a_situation_error():
    result = CliRunner().invoke(cli, ["analyze", "[1111m] 456p 789s 234s E +E", "--kong-draw", "--from", "W"])
    assert result.exit_code == 2
    assert "--kong-draw" in result.stderr


def test_unused_option_warns():
    result = CliRunner().invoke(cli, ["analyze", "123m 456p 789s 234s E +E", "--bid", "2", "--json"])
    assert result.exit_code == 0
    assert "warning: --bid is not used by beijing; ignored" in result.stderr


def test_thirteen_tiles_waits_show_legality():
    out = analyze("[123m] 456p 789s 234s E", "--seat", "S")
    (wait,) = out["waits"]
    assert wait["tile"] == "E" and wait["left"] == 3
    assert wait["self_draw"] == {"legal": True, "total": 1, "reason": None}
    assert wait["discard"]["legal"] is False and "吃碰堤" in wait["discard"]["reason"]


# --- properties ------------------------------------------------------------------------------------

SETS = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]


def _text(t):
    return NAMES[t]


@st.composite
def winning_hands(draw):
    """A complete 14-tile hand as text: 4 sets + a pair, some sets written as exposed melds, tiles shuffled."""
    sets = [draw(st.sampled_from(SETS)) for _ in range(4)]
    pair = draw(st.integers(0, 33))
    counts = [0] * 34
    for s in sets:
        for t in s:
            counts[t] += 1
    counts[pair] += 2
    assume(max(counts) <= 4)
    exposed = draw(st.lists(st.booleans(), min_size=4, max_size=4))
    concealed = [pair, pair] + [t for s, e in zip(sets, exposed) if not e for t in s]
    melds = ["[" + "".join(_text(t) for t in s) + "]" for s, e in zip(sets, exposed) if e]
    seed = draw(st.integers(0, 2**16))
    rng = random.Random(seed)
    win = concealed.pop(rng.randrange(len(concealed)))
    return concealed, melds, win, rng


SEAT = st.sampled_from("ESWN")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(winning_hands(), SEAT, SEAT, st.one_of(st.none(), SEAT), st.integers(1, 500), st.integers(0, 3),
       st.sampled_from(["beijing", "beijing-money"]), st.one_of(st.none(), st.integers(0, 33)))
def test_payouts_are_integers_summing_to_zero(hand, seat, dealer, discarder, base, shaozhuang, ruleset, wild):
    concealed, melds, win, rng = hand
    text = " ".join([_text(t) for t in concealed] + melds + ["+" + _text(win)])
    args = ["analyze", text, "-r", ruleset, "--seat", seat, "--dealer", dealer, "--base", str(base), "--json"]
    if discarder and discarder != seat:
        args += ["--from", discarder]
    if shaozhuang and ruleset == "beijing":
        args += ["--shaozhuang", str(shaozhuang)]
    if wild is not None:
        args += ["--wild", NAMES[wild]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert result.stderr.startswith("Error: ") and "copies" in result.stderr  # a wildcard face as a 5th copy
        return
    out = json.loads(result.stdout)
    assert out["complete"] is True
    if out["legal"]:
        assert all(isinstance(v, int) for v in out["payouts"].values())
        assert sum(out["payouts"].values()) == 0
        assert out["payout_parts"][0]["payouts"][seat] > 0  # the hand part always pays the winner
    else:
        assert out["payouts"] is None and out["reason"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(winning_hands(), SEAT, st.one_of(st.none(), st.integers(0, 33)))
def test_total_does_not_depend_on_tile_order(hand, seat, wild):
    concealed, melds, win, rng = hand
    texts = []
    for _ in range(3):
        order = concealed[:]
        rng.shuffle(order)
        parts = [_text(t) for t in order] + melds
        rng.shuffle(parts)
        texts.append(" ".join(parts + ["+" + _text(win)]))
    extra = ["--wild", NAMES[wild]] if wild is not None else []
    results = [CliRunner().invoke(cli, ["analyze", t, "--seat", seat, "--json", *extra]) for t in texts]
    outs = [(r.exit_code, r.stdout) for r in results]
    assert len(set(outs)) == 1


# --- issue 12: kong money, robbing a concealed kong, the options a hand cannot use --------------------------


def run(*args):
    return CliRunner().invoke(cli, ["analyze", *args])


def test_a_meld_claimed_from_the_winners_own_seat_is_refused():
    result = run("{1111m} [5555p]S 789s 234s E +E", "-r", "beijing-money", "--seat", "S")
    assert result.exit_code == 2 and "winner's own seat" in result.output


def test_an_exposed_kong_without_its_seat_earns_no_kong_money_and_says_so():
    out = analyze("[5555p] 123m 789s 234s 5m +5m", "-r", "beijing-money", "--seat", "S")
    assert out["payouts"] == {"E": -20, "S": 40, "W": -10, "N": -10}  # 平摸 0 番; no kong money
    assert any("[5555p]W" in w for w in out["warnings"])


def test_kong_money_is_a_part_of_its_own_and_only_the_winners_kongs_earn_it():
    out = analyze("[5555p]W 123m 789s 234s 5m +5m", "-r", "beijing-money", "--seat", "N")
    parts = {p["name"]: p["payouts"] for p in out["payout_parts"]}
    assert parts["杠钱"] == {"E": 0, "S": 0, "W": -10, "N": 10}


def test_rob_concealed_needs_rob_kong():
    result = run("123m 456m 78m 234s EE +9m", "-r", "beijing-classic", "--seat", "S", "--rob-concealed")
    assert result.exit_code == 2 and "--rob-kong" in result.output


def test_a_concealed_kong_robbed_for_a_dragon_in_another_suit_is_refused():
    # 123p 456p 789p is the dragon; the robbed 4s sits in 234s, not in it
    out = analyze("123p 456p 789p 23s EE +4s", "-r", "beijing-classic", "--seat", "S", "--from", "W",
                  "--rob-kong", "--rob-concealed")
    assert out["complete"] and not out["legal"] and "一条龙" in out["reason"]


HOUSE_ROB_FLUSH = "extends: beijing-classic\nid: rob-flush\nwins: {rob_concealed_kong: full_flush}\n"


@pytest.mark.parametrize("hand, legal", [
    ("234m 456m 789m 99m 23m +1m", True),   # every tile a character: 清一色 counts, the rob stands
    ("123m 456p 789m 11m 23m +4m", False),  # 456p: no 清一色, the rob is refused
])
def test_a_house_rule_naming_a_pattern_lets_a_concealed_kong_be_robbed_only_when_it_counts(tmp_path, hand, legal):
    path = tmp_path / "rob-flush.yaml"
    path.write_text(HOUSE_ROB_FLUSH, encoding="utf-8")
    out = analyze(hand, "-r", str(path), "--seat", "E", "--from", "S", "--rob-kong", "--rob-concealed")
    assert out["complete"] and out["legal"] is legal
    if not legal:
        assert "清一色" in out["reason"]


def test_options_the_ruleset_does_not_read_are_ignored_with_a_warning():
    out = analyze("123m 456p 789s 23s EE +4s", "-r", "beijing-doubling", "--seat", "S", "--shaozhuang", "1")
    assert any("shaozhuang" in w for w in out["warnings"])
    assert out["payouts"] == {"E": -16, "S": 32, "W": -8, "N": -8}  # 门前清 1 + 自摸 1 + 无绘 1 = 3: 2^3 = 8, the dealer 16
