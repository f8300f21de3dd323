"""The table's game of `mjcalc.value` (issue 37, item 2): wins on the others' discards, another's win ending the
deal, the draws a seat has left, and the plan followed draw by draw.

Golden figures are worked by hand from rulesets/beijing.md (quoted) and the model's statement (value.py's
docstring, "The table"), or come from `simulate_value.simulate_table`, which plays the model out with its own
wall and judges every win with the library's scorer; none is copied from the engine's output.
"""
import functools
import json
import math

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.value import ESTIMATE, STAR, TABLE, Engine, Rivals, advise_value
from simulate_value import simulate_table

P = {name: i for i, name in enumerate(
    [f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)] + [f"{r}s" for r in range(1, 10)]
    + list("ESWNCFP"))}
BEIJING = load_ruleset("beijing")
CALM = Rivals(slope=0.0)  # the others discard but never win

# 1111 23456 6 7 9p FF, dealer East (the default seat and dealer), no 惠 (no indicator). Throwing 6p leaves
# 111 123 456 79p FF waiting on 8p alone, 4 of the 122 unseen tiles, for 一条龙 3 + 庄 1 + 门清无惠 1 = 5 番.
# beijing.md, Payout: "Self-draw 自摸: each of the three others pays F·b (the winner receives 3F·b)" → +15;
# "Discard 点炮 …: the discarder … alone pays F·b" → +5.
DRAGON = "1111234566p 7p 9p FF"
SELF_DRAW, ON_DISCARD = 15, 5


def narrow(hand, situation=None, seen=None, draws=8, by="value", rivals=CALM):
    """The narrower play: a ready hand keeps its waits (no exchange), so the figures have a closed form."""
    return {v.tile: v for v in Engine(parse_hand(hand), BEIJING, situation or Situation(), seen, draws, by, swaps=0,
                                      rivals=rivals).evaluate().discards}


def test_a_ready_hand_also_wins_on_the_others_discards():
    """One draw at the table: the three others discard (each an 8p with chance 4/122), the player draws (4/122),
    and the others discard again from a wall one tile smaller (4/121 each)."""
    got = narrow(DRAGON, draws=1)[P["6p"]]
    miss_first, miss_draw, miss_last = (118 / 122) ** 3, 118 / 122, (117 / 121) ** 3
    p = 1 - miss_first * miss_draw * miss_last
    e = (ON_DISCARD * (1 - miss_first) + miss_first * SELF_DRAW * 4 / 122
         + miss_first * miss_draw * ON_DISCARD * (1 - miss_last))
    assert got.p_win == pytest.approx(p, rel=1e-12)
    assert got.expected == pytest.approx(e, rel=1e-12)
    alone = {v.tile: v for v in Engine(parse_hand(DRAGON), BEIJING, Situation(), None, 1, "value",
                                       swaps=0).evaluate().discards}[P["6p"]]
    assert alone.p_win == pytest.approx(4 / 122, rel=1e-12)  # alone: the one draw only


def test_another_win_ends_the_deal_before_the_players_draw():
    """Two draws, the others winning with chance 0.1 a cycle of the deal's age (0 in the first cycle, 0.1 in
    the second): the second draw and the discards after it happen only if nobody else won."""
    got = narrow(DRAGON, draws=2, rivals=Rivals(slope=0.1, loss=2.0))[P["6p"]]
    p = e = 0.0
    alive = 1.0
    walls = [122, 121, 120]  # the wall at each of the others' turns: one tile smaller a draw of the player's
    for cycle in range(3):
        miss = ((walls[cycle] - 4) / walls[cycle]) ** 3
        p += alive * (1 - miss)
        e += alive * (1 - miss) * ON_DISCARD
        alive *= miss
        if cycle == 2:
            break
        e -= alive * 0.1 * cycle * 2.0  # another's win, the chance 0.1 × the deal's age in cycles, costs 2
        alive *= 1 - 0.1 * cycle
        p += alive * 4 / walls[cycle]
        e += alive * 4 / walls[cycle] * SELF_DRAW
        alive *= 1 - 4 / walls[cycle]
    assert got.p_win == pytest.approx(p, rel=1e-12)
    assert got.expected == pytest.approx(e, rel=1e-12)


def test_a_hand_too_far_to_win_in_time_only_pays_for_the_others_wins():
    """Three from ready with one draw left: no play wins, so every discard is worth what another's win costs
    times its chance in that cycle: the deal 2 cycles old (8 tiles seen), 0.1 × 2 = 0.2, × 2 = -0.4."""
    seen = [0] * 34
    for name in ("2s", "3s", "4s", "6s", "2p", "8p", "6m", "7m"):
        seen[P[name]] += 1
    hand = "123m 456p EE 1m 5m 9m 3p 7s 9s"
    valued = narrow(hand, seen=seen, draws=1, rivals=Rivals(slope=0.1, loss=2.0))
    assert valued and all(v.shanten >= 2 for v in valued.values())
    for v in valued.values():
        assert v.p_win == 0.0 and v.expected == pytest.approx(-0.4, rel=1e-12)


def test_an_exposed_hand_wins_only_by_self_draw_in_beijing():
    """beijing.md: "吃碰堤: a hand with any exposed meld may win only by self-draw 自摸": the others' discards
    add nothing, and without their wins the figures are alone's hypergeometric chance. [123p] exposed, 111 456
    6 7 9p FF: throwing 6p waits on 8p (4 left of 122), 一条龙 3 + 庄 1 = 4 番, +12 on a self-draw."""
    got = narrow("[123p] 111456p 6p 7p 9p FF", draws=5)[P["6p"]]
    want = 1 - math.comb(118, 5) / math.comb(122, 5)
    assert got.p_win == pytest.approx(want, rel=1e-12)
    assert got.expected == pytest.approx(12 * want, rel=1e-12)


def test_the_player_draws_only_its_share_of_the_wall_left():
    """At the table the wall left is the unseen tiles less the others' 39 (13 each), one draw in four the
    player's. Seen: two of every suited kind but 8p (none), 9p (one), 1p and 6p (none: the hand holds them),
    the honours but F all four, F two: 24 + 2 + 2 × 27 - 2 - 1 - 2 - 2 = 73, so 122 - 73 = 49 unseen, 10 in
    the wall; after the player's discard S, W and N draw first, so 10 // 4 = 2 draws at the table; alone, all
    49."""
    seen = [2] * 27 + [4] * 7
    seen[P["8p"]], seen[P["9p"]], seen[P["1p"]], seen[P["6p"]], seen[P["F"]] = 0, 1, 0, 0, 2
    hand = parse_hand(DRAGON)
    assert advise_value(hand, BEIJING, Situation(), seen, draws=8, rivals=TABLE).draws == 2
    assert advise_value(hand, BEIJING, Situation(), seen, draws=60).draws == 49


def test_the_model_played_out_agrees_with_the_engine():
    """`simulate_table` plays the engine's own policy in the model, its wall its own, every win judged by the
    scorer: P(win) and the mean payout agree within 4.5 standard errors, with the others' wins on."""
    hand = parse_hand("123m 456p 789s EE 4m 7m 9p")
    rivals = Rivals(slope=0.05)
    engine = Engine(hand, BEIJING, Situation(), None, 6, "value", rivals=rivals)
    best = engine.evaluate().discards[0]
    sim = simulate_table(engine, hand, BEIJING, Situation(), (), best.tile, 6000, "table-sim", rivals)
    assert abs(sim.p - best.p_win) < 4.5 * sim.p_se + 1e-9
    assert abs(sim.mean - best.expected) < 4.5 * sim.mean_se + 1e-9


def test_the_plan_is_the_engines_play_and_runs_out_with_its_draws():
    hand = parse_hand("123m 456p 789s EE 4m 7m 9p")
    mine = mjcalc.plan(hand, BEIJING, Situation(), draws=3)
    valued = advise_value(hand, BEIJING, Situation(), draws=3, rivals=TABLE)
    assert mine.discard == valued.discards[0].tile and mine.value == valued.discards[0]
    assert not mine.spent
    for drawn in (P["9s"], P["2p"], P["C"]):  # 1 from ready: no draw wins
        thrown = mine.throw(drawn)
        assert thrown == drawn or mine.hand[drawn] >= 1
    assert mine.spent
    with pytest.raises(ValueError):
        mine.throw(P["9s"])


def test_a_discard_the_cap_only_estimates_has_no_plan_beyond_itself():
    mine = mjcalc.plan(parse_hand("233679m 149p 189s S P"), BEIJING, Situation(indicator=P["8m"]))
    assert mine.engine.stage[mine.discard] == ESTIMATE
    assert mine.spent


def test_advise_by_value_is_the_public_api():
    hand = parse_hand(DRAGON)
    advice = mjcalc.advise(hand, BEIJING, Situation(), by="value", draws=2)
    assert advice.value is not None and advice.value.rivals == TABLE
    assert advice.value.discards[0].tile in {d.tile for d in advice.discards}
    alone = mjcalc.advise(hand, BEIJING, Situation(), by="value", draws=2, alone=True)
    assert alone.value is not None and alone.value.rivals is None
    assert alone.value.discards[0].p_win < advice.value.discards[0].p_win  # the others' discards win too
    assert {"Plan", "Rivals", "plan"} <= set(mjcalc.__all__)
    with pytest.raises(ValueError):
        mjcalc.advise(parse_hand("123m 456p 789s EE 4m 6m"), BEIJING, Situation(), by="value")
    assert STAR == 34


def test_the_command_line_plays_the_table_by_default_and_alone_on_request():
    hand = parse_hand(DRAGON)
    for extra, rivals, model in (([], TABLE, "table"), (["--alone"], None, "alone")):
        result = CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--draws", "2", "--json", *extra])
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        library = {v.tile: v for v in advise_value(hand, BEIJING, Situation(), None, 2, rivals=rivals).discards}
        assert out["model"] == model
        for row in out["discards"]:
            if row["p_win"] is not None:
                tile = P[row["discard"]]
                assert (row["p_win"], row["expected"]) == (library[tile].p_win, library[tile].expected)
    text = CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--draws", "2"]).stdout
    assert "at the table: a ready hand also wins on the others' discards" in text
    refused = CliRunner().invoke(cli, ["advise", DRAGON, "--alone"])
    assert refused.exit_code == 2 and "--alone" in refused.output and "Traceback" not in refused.output


@pytest.mark.parametrize("args, says", [
    # beijing.md: 吃碰堤 lets a concealed hand win on a discard
    ([DRAGON], "at the table: a ready hand also wins on the others' discards"),
    # beijing.md: "a hand with an exposed meld must self-draw" (wins.discard: concealed)
    (["[123p] 11456677p 9p FF", "--wild", "5m"], "at the table: this hand wins by self-draw only here"),
    # shangrao.md: self-draw only (wins.discard: never)
    (["11112345667p 9p FF", "-r", "shangrao"], "at the table: this hand wins by self-draw only here"),
])
def test_the_table_line_says_whether_the_hand_can_win_on_a_discard_and_expected_has_a_unit(args, says):
    said = CliRunner().invoke(cli, ["advise", *args, "--by", "value", "--draws", "2", "--base", "2"])
    assert said.exit_code == 0, said.output
    assert says in said.stdout, said.stdout
    assert "expected: the payout to you a deal, in points at 底分 2 (what the table pays)" in said.stdout


@pytest.mark.parametrize("flags, named", [(["--by", "win"], "--by"), (["--draws", "3"], "--draws"),
                                          (["--by", "win", "--draws", "3"], "--by and --draws")])
def test_a_13_tile_hand_valued_names_the_flags_given(flags, named):
    said = CliRunner().invoke(cli, ["advise", "1112345678999m", *flags])
    assert said.exit_code == 2
    assert said.stderr == f"Error: {named}: the value of discards needs a 14-tile hand; this one has 13\n"


# --- claims (module docstring, "Claims") -------------------------------------------------------------------

# 123m 456m 99m 13p 68p 5s 1s: throwing 5s leaves 123m 456m 99m 13p 68p 1s, 1 from ready. A 2p from the seat
# before the player (the third to discard after him) is a chow 123p; thrown 1s, the hand 123m 456m 99m [123p]
# 68p waits on 7p: ready.
CHOW_HAND = "123m 456m 99m 13p 68p 5s 1s"


@functools.lru_cache(maxsize=None)
def _valued(ruleset, hand):
    engine = Engine(parse_hand(hand), load_ruleset(ruleset), Situation(), None, 4, "value", rivals=TABLE, cap=None)
    engine.evaluate()
    return engine


def _claim(ruleset, who, tile="2p", hand=CHOW_HAND, discard="5s"):
    """What the plan of throwing `discard` from `hand` does with `tile` thrown by the `who`-th seat after it."""
    return _valued(ruleset, hand).player(P[discard]).claim(P[tile], who)


def test_a_chow_is_claimed_only_from_the_seat_before_the_player():
    meld, thrown = _claim("beijing", 2)
    assert (meld.kind, meld.tiles, meld.exposed, thrown) == ("chow", (P["1p"], P["2p"], P["3p"]), True, P["1s"])
    assert _claim("beijing", 0) is None and _claim("beijing", 1) is None  # the next seat's, the one across


def test_sichuan_claims_no_chow():
    """rulesets/sichuan.md: no 吃 (the region refuses a chow meld). 123m 456m 99m 66p 13p 1s (5s thrown): a 2p from
    the seat before is let go in sichuan, chowed in beijing; a 6p from any seat is a pung in both (666p exposed,
    1s thrown: 123m 456m 99m 13p waits on 2p, ready)."""
    hand = "123m 456m 99m 66p 13p 5s 1s"
    assert _claim("sichuan", 2, hand=hand) is None
    assert _claim("beijing", 2, hand=hand)[0].kind == "chow"
    for who in range(3):
        meld, thrown = _claim("sichuan", who, tile="6p", hand=hand)
        assert (meld.kind, meld.tiles, thrown) == ("pung", (P["6p"],) * 3, P["1s"])


def test_a_claim_that_breaks_the_one_claim_of_hunr_is_not_made():
    """rulesets/beijing-hunr.md: "北京麻将规定只能吃牌或者碰牌一次" — a winning hand holds at most one 吃 or 碰. With
    [789s] already claimed a second claim leaves a hand that can never win, so it is never worth making; beijing
    (no such limit) makes the same chow."""
    hand = "[789s] 123m 99m 13p 68p 5s 1s"
    assert _claim("beijing-hunr", 2, hand=hand) is None
    assert _claim("beijing", 2, hand=hand) is not None


@pytest.mark.parametrize("ruleset, hand, draws", [
    ("zhuji", "12m 456p 789s EE 4m 7m 9p 3p", 5),  # chows and a pung of East (东风, 台 in zhuji)
    ("sichuan", "123m 456p 778p 99p 4m 7m 2p", 5),  # pungs only
])
def test_claims_played_out_agree_with_the_engine(ruleset, hand, draws):
    """`simulate_table` deals its own wall, throws the others' discards, claims as the plan says (`Plan.claim`)
    with its own tiles and melds, and judges every win with the scorer: P(win) and the mean payout agree within
    4.5 standard errors, and claims were made."""
    rules, parsed, rivals = load_ruleset(ruleset), parse_hand(hand), Rivals(slope=0.05)
    engine = Engine(parsed, rules, Situation(), None, draws, "value", rivals=rivals, cap=None)
    best = engine.evaluate().discards[0]
    sim = simulate_table(engine, parsed, rules, Situation(), engine.wild_kinds, best.tile, 5000, "claims", rivals)
    assert sim.claims > 500
    assert abs(sim.p - best.p_win) < 4.5 * sim.p_se + 1e-9
    assert abs(sim.mean - best.expected) < 4.5 * sim.mean_se + 1e-9


@pytest.mark.parametrize("ruleset, hand", [
    ("zhuji", "123m 456p 789s EE 4m 7m 9p"), ("beijing", "123m 456p 789s EE 4m 7m 9p"),
    ("zhuji", "11m 22p 34s 4m 5m 9p 9s EE CC"), ("shangrao", "11m 234p 56s 4m 5m 9p 9s EE C"),
    ("sichuan", "11m 234m 56p 4p 5p 99p 2m 7m 8m"),
])
def test_claims_are_made_only_where_they_pay(ruleset, hand):
    """A claim is made only when it is better for the objective than letting the tile go, so weighing claims
    never makes a discard worth less: every discard's expected payout with claims is at least the one without
    (the exact play, 3 draws)."""
    rules, parsed = load_ruleset(ruleset), parse_hand(hand)
    figures = []
    for claiming in (False, True):
        engine = Engine(parsed, rules, Situation(), None, 3, "value", rivals=TABLE, exact=True, cap=None)
        engine.claiming = claiming
        figures.append({v.tile: v.expected for v in engine.evaluate().discards})
    without, with_claims = figures
    assert without.keys() == with_claims.keys()
    assert all(with_claims[t] >= without[t] - 1e-9 for t in without)
    assert any(with_claims[t] > without[t] + 1e-6 for t in without)


@pytest.mark.parametrize("ruleset, base, least", [
    # beijing.md: 推倒和 1 番, "Self-draw 自摸: each of the three others pays F·b": 1 × 底分 from each
    ("beijing", 1, 1), ("beijing", 3, 3),
    # zhuji.md: "everyone else needs 1 台", "H = 2^台", "self-draw — each of the three others pays H": 2
    ("zhuji", 1, 2),
])
def test_another_win_costs_what_a_non_winner_pays_on_average(ruleset, base, least):
    """value.LOSS (1.27, measured: bench/README.md "The others' wins") times what one payer pays for the ruleset's
    least legal win; a `Rivals.loss` given is taken as it is, and alone nothing is lost."""
    hand = parse_hand(DRAGON)
    rules = load_ruleset(ruleset)
    assert Engine(hand, rules, Situation(base=base), rivals=TABLE).loss == pytest.approx(1.27 * least)
    assert Engine(hand, rules, Situation(base=base), rivals=Rivals(loss=0.5)).loss == 0.5
    assert Engine(hand, rules, Situation(base=base)).loss == 0.0

