"""`mjcalc.value` (advise --by win|value): hand-worked cases, and agreement with an independent simulator.

Golden figures come from the hypergeometric formula worked by hand (a ready hand with K winning tiles among
U unseen wins within N draws with probability 1 - C(U-K, N)/C(U, N)) and from `simulate_value.py`, which
deals the wall itself and judges wins with the library's scorer; none is copied from the engine's output.
"""
import json
import math
import random

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.hand import Hand
from mjcalc.notation import parse_hand
from mjcalc.regions import find_region
from mjcalc.ruleset import builtin_rulesets, load_ruleset
from mjcalc.shanten import shanten
from mjcalc.situation import Situation
from mjcalc.value import Engine, advise_value
from simulate_value import simulate

P = {name: i for i, name in enumerate(
    [f"{r}m" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)] + [f"{r}s" for r in range(1, 10)]
    + list("ESWNCFP"))}


def p_single(unseen, good, draws):
    """P(at least one of `good` tiles among `draws` drawn without replacement from `unseen`)."""
    return 1 - math.comb(unseen - good, draws) / math.comb(unseen, draws)


def by_tile(advice):
    return {v.tile: v for v in advice.discards}


def narrow(hand, ruleset, situation, seen=None, draws=8, by="value"):
    """The narrower play (no exchange at the same shanten: a drawn tile is kept only when it lowers the
    shanten), where a ready hand keeps its waits and the hypergeometric formula holds for any hand."""
    return Engine(hand, ruleset, situation, seen, draws, by, swaps=0).evaluate()


BEIJING = load_ruleset("beijing")

# 1111 23456 6 7 9p FF, dealer East, no wildcards. Throw 6p: 111 123 456 79p FF waits on 8p alone (kanchan,
# 4 left) for 一条龙 3 + 庄 1 + 门清无惠 1 = 5 番, paid 5 by each of three: +15. Throw 9p: 111 123 456 67p FF
# waits on 5p (3 left) and 8p (4 left) for 推倒和 1 + 庄 1 + 门清无惠 1 = 3 番: +9. 136 - 14 = 122 unseen.
DRAGON = "1111234566p 7p 9p FF"


@pytest.mark.parametrize("draws", [1, 2, 5, 8, 12])
def test_one_wait_is_the_hypergeometric_formula(draws):
    got = by_tile(narrow(parse_hand(DRAGON), BEIJING, Situation(), draws=draws, by="win"))[P["6p"]]
    want = p_single(122, 4, draws)
    assert got.p_win == pytest.approx(want, rel=1e-12)
    assert got.expected == pytest.approx(15 * want, rel=1e-12)
    assert not got.exact  # the narrower play is not the best play of the model
    assert got.top_patterns[0][0] == ("dealer", "concealed_no_wild", "dragon")
    assert got.top_patterns[0][1] == pytest.approx(want, rel=1e-12)


def test_one_wait_with_seen_copies():
    """Two 8p on the table: 2 left among 120 unseen."""
    seen = [0] * 34
    seen[P["8p"]] = 2
    got = by_tile(narrow(parse_hand(DRAGON), BEIJING, Situation(), seen=seen, draws=8))[P["6p"]]
    assert got.p_win == pytest.approx(p_single(120, 2, 8), rel=1e-12)
    assert got.expected == pytest.approx(15 * p_single(120, 2, 8), rel=1e-12)


def test_two_waits_add_their_tiles():
    """Throw 9p: 5p (3 left) and 8p (4 left) both pay 9; the first of the 7 drawn wins."""
    got = by_tile(narrow(parse_hand(DRAGON), BEIJING, Situation(), draws=8, by="win"))[P["9p"]]
    want = p_single(122, 7, 8)
    assert got.p_win == pytest.approx(want, rel=1e-12)
    assert got.expected == pytest.approx(9 * want, rel=1e-12)


def test_waits_paying_differently_split_by_tiles_left():
    """A non-dealer (South) holding 123456p 78p 11s EEE + 9s: throw 9s, waits 3p (3 left) and 6p (3 left) for
    推倒和 1 + 门清无惠 1 = 2 番 (+6), and 9p (4 left) for 一条龙 3 + 门清无惠 1 = 4 番 (+12). The first of the
    10 winning tiles drawn decides, each tile alike: E = P(win) * (3*6 + 3*6 + 4*12) / 10."""
    hand = parse_hand("123456p 78p 11s EEE 9s")
    got = by_tile(narrow(hand, BEIJING, Situation(seat="S"), draws=8))[P["9s"]]
    p = p_single(122, 10, 8)
    assert got.p_win == pytest.approx(p, rel=1e-12)
    assert got.expected == pytest.approx(p * 8.4, rel=1e-12)
    top = dict(got.top_patterns)
    assert top[("concealed_no_wild", "dragon")] == pytest.approx(p * 0.4, rel=1e-12)
    assert top[("tuidaohe", "concealed_no_wild")] == pytest.approx(p * 0.6, rel=1e-12)


def test_an_exposed_meld_counts_out_of_the_wall_and_out_of_the_patterns():
    """[EEE] 123m 456p 45m CC + 9s: throw 9s, waits 3m (3 left) and 6m (4 left); the pung of E is out of the wall
    (136 - 14 = 122 unseen) and the hand is not concealed: 推倒和 1 + 庄 1 = 2 番, +6 on a self-draw."""
    got = by_tile(narrow(parse_hand("[EEE] 123m 456p 45m CC 9s"), BEIJING, Situation(), draws=8))[P["9s"]]
    assert got.p_win == pytest.approx(p_single(122, 7, 8), rel=1e-12)
    assert got.expected == pytest.approx(6 * p_single(122, 7, 8), rel=1e-12)


def test_value_and_win_pick_different_discards():
    """In the narrower play (the waits kept): --by win throws 9p: 7 winning tiles (P 0.386) for 3 番; --by value
    throws 6p: 4 tiles (P 0.240) for the 一条龙's 5 番, worth 0.240 * 15 = 3.60 against 0.386 * 9 = 3.47 (the
    shanten ranking, by tiles that improve the hand, agrees with --by win). With exchanges the figures of
    both rise (either wait can be improved), the trade-off stays: more tiles against 一条龙, and the two
    objectives still part (the figures are checked against the simulator in `test_simulator_agrees_*`)."""
    hand = parse_hand(DRAGON)
    win = narrow(hand, BEIJING, Situation(), draws=8, by="win")
    value = narrow(hand, BEIJING, Situation(), draws=8, by="value")
    assert win.discards[0].tile == P["9p"]
    assert value.discards[0].tile == P["6p"]
    assert 15 * p_single(122, 4, 8) > 9 * p_single(122, 7, 8)  # the reason, worked by hand
    assert value.discards[0].expected == pytest.approx(15 * p_single(122, 4, 8), rel=1e-12)
    assert win.discards[0].p_win == pytest.approx(p_single(122, 7, 8), rel=1e-12)
    best = {by: advise_value(hand, BEIJING, Situation(), draws=8, by=by).discards[0] for by in ("win", "value")}
    assert (best["win"].tile, best["value"].tile) == (P["9p"], P["6p"])
    assert best["win"].p_win > best["value"].p_win and best["value"].expected > best["win"].expected


# --- the best play of the model: exchanges at the same shanten ------------------------------------------

# Four pungs out and one tile in hand (dealer East, beijing): any tile drawn and kept is a single wait 大钓,
# and every win pays 庄 1 + 对对和 2 + 大钓 2 = 5 番 from each of three: +15.
PUNGS = "[111m] [999m] [111p] [999p] E 5s"


@pytest.mark.parametrize("draws", [1, 2, 5, 8])
def test_single_wait_with_three_left_is_the_formula(draws):
    """Throw 5s: a single wait on E, 3 left among 122 unseen. An exchange (keep the drawn X, throw E) gives a
    single wait on X, with at most 3 left too (4 unseen less the one drawn), so no exchange raises the chance
    to win: P(win within N) = 1 - C(119, N)/C(122, N), in the best play as in the narrower one."""
    got = by_tile(advise_value(parse_hand(PUNGS), BEIJING, Situation(), draws=draws, by="win"))[P["5s"]]
    want = p_single(122, 3, draws)
    assert got.p_win == pytest.approx(want, rel=1e-12)
    assert got.expected == pytest.approx(15 * want, rel=1e-12)
    assert got.exact


def test_shanpon_two_waits_with_no_exchange():
    """[111m] [999m] [111p] EE SS, throw 5s: waits E and S, 2 left each, 4 among 122; 3 番 (庄 1 + 对对和 2),
    +9. No tile but E or S keeps four tiles EE SS less one plus it ready (they make a pair and a pung only
    with E or S), so nothing is exchanged: P = 1 - C(118, 8)/C(122, 8)."""
    got = by_tile(advise_value(parse_hand("[111m] [999m] [111p] EE SS 5s"), BEIJING, Situation(), draws=8, by="win"))
    want = p_single(122, 4, 8)
    assert got[P["5s"]].p_win == pytest.approx(want, rel=1e-12)
    assert got[P["5s"]].expected == pytest.approx(9 * want, rel=1e-12)


def test_an_exchange_at_the_same_shanten_widens_a_single_wait():
    """PUNGS with two E seen, throw 5s: a single wait on E with 1 left (4 less the one held and two seen),
    U = 136 - 14 - 2 = 120 unseen: 1m 9m 1p 9p 1 each, E 1, 5s 3 (one thrown), the 28 other kinds 4 each.
    Two draws. The narrower play keeps E: P = 1 - C(119, 2)/C(120, 2) = 2/120.
    The best play keeps the first draw X when it is not E and throws E if X then has more left than E's 1
    (the exchange keeps the hand ready): X of a kind with 4 unseen leaves 3 (112 of the 120 tiles), 5s
    leaves 2 (3 tiles); a 1m 9m 1p or 9p leaves none, kept E (4 tiles). So
    P = 1/120 + (112 * 3 + 3 * 2 + 4 * 1) / (120 * 119) = (119 + 346) / 14280 = 465/14280."""
    seen = [0] * 34
    seen[P["E"]] = 2
    hand = parse_hand(PUNGS)
    best = by_tile(advise_value(hand, BEIJING, Situation(), seen=seen, draws=2, by="win"))[P["5s"]]
    assert best.p_win == pytest.approx(465 / 14280, rel=1e-12)
    assert best.expected == pytest.approx(15 * 465 / 14280, rel=1e-12)
    kept = by_tile(narrow(hand, BEIJING, Situation(), seen=seen, draws=2, by="win"))[P["5s"]]
    assert kept.p_win == pytest.approx(2 / 120, rel=1e-12)
    engine = Engine(hand, BEIJING, Situation(), seen=seen, draws=2, by="win")
    assert engine.player(P["5s"]).throw(P["C"]) == P["E"]  # C: 4 unseen, 3 left once drawn: keep it, throw E
    assert engine.player(P["5s"]).throw(P["1m"]) == P["1m"]  # the last 1m: none left, thrown


def test_no_draws_no_win():
    """No draws: every discard is worth 0 whatever the play, so every figure is exact (no `~`, no hint)."""
    got = advise_value(parse_hand(DRAGON), BEIJING, Situation(), draws=0)
    assert all(v.p_win == 0 and v.expected == 0 for v in got.discards)
    assert got.exact and not got.could_be_exact


@pytest.mark.parametrize("seat", ["E", "S"])
def test_money_paid_whoever_wins_is_no_part_of_the_value(seat):
    """烧庄 (the dealer pays each other seat for earlier rounds) is paid this hand whoever wins it, so it changes
    no discard's worth: 16 rounds of it (2^15 番 a seat) leave every figure as it is without it, for the dealer
    (who pays it) and for a seat that is paid it. It was counted on the wins alone, so the dealer's value play
    avoided winning."""
    hand = parse_hand(DRAGON)
    plain = by_tile(advise_value(hand, BEIJING, Situation(seat=seat), draws=8))
    burnt = by_tile(advise_value(hand, BEIJING, Situation(seat=seat, shaozhuang=16), draws=8))
    assert plain.keys() == burnt.keys()
    for tile, v in plain.items():
        assert (burnt[tile].p_win, burnt[tile].expected) == (v.p_win, v.expected)
    assert plain[P["6p"]].expected > 0


def test_other_seats_kongs_are_no_part_of_the_value():
    """上饶: another seat's kong is paid by everyone else whoever wins the hand; the figures stay as without it."""
    ruleset = load_ruleset("shangrao")
    hand = generated_hand(random.Random("kongs"), 0, (), 0, ruleset.shapes)
    plain = by_tile(advise_value(hand, ruleset, Situation(), draws=6))
    kongs = by_tile(advise_value(hand, ruleset, Situation(kong=(("S", "concealed"), ("W", "exposed"))), draws=6))
    assert {t: (v.p_win, v.expected) for t, v in plain.items()} == {t: (v.p_win, v.expected) for t, v in kongs.items()}
    assert any(v.expected > 0 for v in plain.values())


def test_four_hui_wins_on_any_draw():
    """四惠牌: holding all four 惠 (5m) wins whatever the shape, so keeping them wins on the first draw:
    8 番 + 庄 1 = 9, +27, whatever natural tile is thrown."""
    hand = parse_hand("1368m 27p 469s E 5m5m5m5m")
    got = by_tile(advise_value(hand, BEIJING, Situation(wild=(P["5m"],)), draws=8))
    assert got[P["E"]].p_win == pytest.approx(1.0, rel=1e-12)
    assert got[P["E"]].expected == pytest.approx(27.0, rel=1e-12)
    for tile in ("2p", "7p", "9s", "E"):  # the discards leaving 1 from ready, the ones valued
        assert got[P[tile]].expected == pytest.approx(27.0, rel=1e-12)


# --- agreement with the simulator ---------------------------------------------------------------------

RULESETS = [r.id for r in builtin_rulesets()]  # every built-in ruleset
TRIALS = 6000


def generated_hand(rng, target, wild_kinds, wilds, shapes=("standard",), kinds=tuple(range(34))):
    """A 14-tile closed hand at shanten `target` (standard shape): four sets and a pair with `target + 1`
    tiles replaced at random, and `wilds` of them turned into the wild kind; its tiles of `kinds` (the wall's)."""
    suits = sorted({k // 9 for k in kinds if k < 27})
    while True:
        tiles = []
        for _ in range(4):
            if rng.random() < 0.6:
                low = 9 * rng.choice(suits) + rng.randrange(7)
                tiles += [low, low + 1, low + 2]
            else:
                tiles += [rng.choice(kinds)] * 3
        tiles += [rng.choice(kinds)] * 2
        rng.shuffle(tiles)
        for i in range(target + 1):
            tiles[i] = rng.choice(kinds)
        for i in range(wilds):
            tiles[-1 - i] = wild_kinds[0]
        counts = [tiles.count(t) for t in range(34)]
        if max(counts) > 4:
            continue
        naturals = [0 if t in wild_kinds else n for t, n in enumerate(counts)]
        if shanten(naturals, sum(counts[k] for k in wild_kinds), 0, shapes) == target:
            return Hand(tuple(sorted(tiles)))


def faceless(rules):
    """Whether the ruleset's wildcards are no tile kind (广东's ghosts, `*`): the value of discards counts none."""
    region = find_region(rules.region)
    return bool(rules.wild_kinds) and region.wild_in_play(rules, Situation()) and not region.wild_kinds(rules, Situation())


# beijing-classic plays without wildcards; 广东's ghosts are not counted by the value model (rulesets/guangdong.md)
CASES = [(name, target, wilds) for name in RULESETS for target in (0, 1) for wilds in (0, 2)
         if wilds == 0 or load_ruleset(name).wild_kinds and not faceless(load_ruleset(name))]


@pytest.mark.no_cover  # an audit against the simulator (see test_exhaustive.py's pytestmark)
@pytest.mark.parametrize("name,target,wilds", CASES, ids=[f"{n}-{'ready' if t == 0 else '1shanten'}-{w}wild"
                                                           for n, t, w in CASES])
def test_simulator_agrees(name, target, wilds):
    ruleset = load_ruleset(name)
    # the ruleset's own wildcard (红中) whether the hand holds one or not, else 5m for a hand holding some
    wild_kinds = ruleset.fixed_wild or ((P["5m"],) if wilds else ())
    situation = Situation(wild=wild_kinds)
    rng = random.Random(f"{name}{target}{wilds}")
    # the wall's natural kinds; where a win may not hold some (Sichuan's two suits), without the first such set
    dropped = find_region(ruleset.region).unkept(ruleset, situation)[0]
    kinds = tuple(k for k in range(34) if ruleset.wall.copies[k] and k not in dropped and k not in ruleset.fixed_wild)
    for _attempt in range(20):
        hand = generated_hand(rng, target, wild_kinds, wilds, kinds=kinds)
        engines = {by: Engine(hand, ruleset, situation, draws=8, by=by) for by in ("win", "value")}
        advice = {by: e.evaluate() for by, e in engines.items()}
        if advice["value"].discards[0].p_win > 0.02:  # a hand that can win at all (zhuji needs 1 台)
            break
    for by, e in engines.items():
        best = advice[by].discards[0]
        # exchanges weighed (exact) unless the hand holds wildcards, their work passed the engine's cap, or the best
        # discard breaks the hand's best shanten (国标's 8 番: a ready hand too poor to win is broken up)
        at_best = best.shanten == min(d.shanten for d in advice[by].discards)
        assert best.exact == (wilds == 0 and best.tile not in e.capped and at_best) and best.shanten <= 1
        sim = simulate(e, hand, ruleset, situation, wild_kinds, best.tile, 8, TRIALS, seed=f"{name}-{by}")
        se = math.sqrt(max(best.p_win * (1 - best.p_win), 1e-9) / TRIALS)
        assert abs(sim.p - best.p_win) <= 4 * se + 1e-9, (by, hand, sim.p, best.p_win)
        assert abs(sim.mean - best.expected) <= 4 * sim.mean_se + 1e-9, (by, hand, sim.mean, best.expected)


EXACT_CASES = [("beijing", 1), ("zhuji", 0), ("shangrao", 1), ("beijing-money", 1)]


@pytest.mark.slow
@pytest.mark.no_cover  # an audit of the exact search (see test_exhaustive.py's pytestmark)
@pytest.mark.parametrize("name,target", EXACT_CASES, ids=[f"{n}-{t}" for n, t in EXACT_CASES])
def test_exact_weighs_the_exchanges_of_wildcard_hands(name, target):
    """`exact`: a hand holding a wildcard gets the exchange budget too. Its play chooses among more moves than
    the narrower play (every drawn tile may also be kept at the same shanten), so no discard's figure for the
    objective can be lower; every discard 0 or 1 from ready is marked exact; and the simulator, playing the
    policy the engine reports, agrees with its figures."""
    ruleset = load_ruleset(name)
    wild_kinds = (P["5m"],)
    situation = Situation(wild=wild_kinds)
    hand = generated_hand(random.Random(f"exact-{name}"), target, wild_kinds, 1)
    draws = 4
    engine = Engine(hand, ruleset, situation, draws=draws, by="value", exact=True, cap=None)  # (as `--exact`: no cap)
    exact = engine.evaluate()
    narrower = advise_value(hand, ruleset, situation, draws=draws, by="value")
    assert exact.asked_exact and not exact.could_be_exact and narrower.could_be_exact
    assert all(v.exact for v in exact.discards) and not any(v.exact for v in narrower.discards)
    before = by_tile(narrower)
    assert by_tile(exact).keys() == before.keys()
    gained = 0.0
    for v in exact.discards:
        assert v.expected >= before[v.tile].expected - 1e-9, (hand, v.tile)
        gained = max(gained, v.expected - before[v.tile].expected)
    assert gained > 0, hand  # the exchanges are weighed: some discard gains by them
    best = exact.discards[0]
    sim = simulate(engine, hand, ruleset, situation, wild_kinds, best.tile, draws, TRIALS, seed=f"exact-{name}")
    se = math.sqrt(max(best.p_win * (1 - best.p_win), 1e-9) / TRIALS)
    assert abs(sim.p - best.p_win) <= 4 * se + 1e-9, (hand, sim.p, best.p_win)
    assert abs(sim.mean - best.expected) <= 4 * sim.mean_se + 1e-9, (hand, sim.mean, best.expected)


# --- the command line ---------------------------------------------------------------------------------


def test_cli_json_carries_the_numbers():
    """PUNGS: either discard leaves a single wait with 3 left (see above), +15 a win; a tie, so 5s (the lower
    kind) is ranked first."""
    result = CliRunner().invoke(cli, ["advise", PUNGS, "--by", "value", "--alone", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["by"], out["draws"], out["exact"]) == ("value", 8, True)
    rows = {row["discard"]: row for row in out["discards"]}
    for tile in ("5s", "E"):
        assert rows[tile]["p_win"] == pytest.approx(p_single(122, 3, 8), rel=1e-12)
        assert rows[tile]["expected"] == pytest.approx(15 * p_single(122, 3, 8), rel=1e-12)
        assert rows[tile]["exact"] is True
    assert sorted(rows["5s"]["top_patterns"][0]["patterns"]) == ["all_pungs", "big_single_wait", "dealer"]
    assert out["ranked"] == ["5s", "E"]


def test_cli_text_and_errors():
    result = CliRunner().invoke(cli, ["advise", "[111m] [999m] [111p] EE SS 5s", "--by", "win", "--alone", "--draws", "4"])
    assert result.exit_code == 0, result.output
    assert "by win: 4 draws from 122 unseen tiles" in result.stdout
    line = next(x for x in result.stdout.splitlines() if x.startswith("5s ") and "%" in x)
    assert f"{p_single(122, 4, 4):.1%}" in line
    result = CliRunner().invoke(cli, ["advise", "1111234566p 7p FF", "--by", "win", "--alone"])
    assert result.exit_code == 2 and "14-tile" in result.stderr
    result = CliRunner().invoke(cli, ["advise", PUNGS, "--by", "win", "--alone", "--draws", "-1"])
    assert result.exit_code == 2 and result.stderr.startswith("Error:") and "Traceback" not in result.stderr
    result = CliRunner().invoke(cli, ["advise", PUNGS, "--exact"])
    assert result.exit_code == 2 and "--exact goes with --by" in result.stderr


def test_cli_exact_for_a_wildcard_hand():
    """A ready hand holding a 惠: without --exact its figures are the narrower play's, marked, with the hint;
    with it, every valued discard (each leaves the hand 0 or 1 from ready) is exact, in the text and the JSON."""
    args = ["advise", "1234m 6m 567p 99s EEE 5m", "--wild", "5m", "--by", "value", "--alone", "--draws", "3"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "~: a narrower play" in result.stdout and "--exact weighs them" in result.stdout
    result = CliRunner().invoke(cli, args + ["--json", "--exact"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    valued = [row for row in out["discards"] if row["exact"] is not None]
    assert out["exact"] is True and valued and all(row["exact"] for row in valued)
    result = CliRunner().invoke(cli, args + ["--exact"])
    assert "exact" in result.stdout and "~" not in result.stdout.split("by value:")[1]


@pytest.mark.no_cover  # an audit against the simulator
def test_simulator_agrees_two_from_ready():
    """2 from ready the narrower play is weighed (marked inexact); the engine's figures are still those of the
    play it reports: a 2-shanten hand, beijing, both objectives."""
    ruleset = BEIJING
    rng = random.Random("two-from-ready")
    hand = generated_hand(rng, 2, (), 0, ruleset.shapes)
    for by in ("win", "value"):
        engine = Engine(hand, ruleset, Situation(), draws=8, by=by)
        best = engine.evaluate().discards[0]
        assert not best.exact and best.shanten == 2  # no exchanges 2 from ready: the narrower play
        sim = simulate(engine, hand, ruleset, Situation(), (), best.tile, 8, 4 * TRIALS, seed=f"two-{by}")
        se = math.sqrt(max(best.p_win * (1 - best.p_win), 1e-9) / (4 * TRIALS))
        assert abs(sim.p - best.p_win) <= 4 * se, (by, hand, sim.p, best.p_win)
        assert abs(sim.mean - best.expected) <= 4 * sim.mean_se + 1e-9, (by, hand, sim.mean, best.expected)


def test_far_from_ready_is_marked_inexact():
    """3 from ready: only two discards are weighed after a useful draw, so the figures are not exact."""
    hand = generated_hand(random.Random("three"), 3, (), 0, BEIJING.shapes)
    got = advise_value(hand, BEIJING, Situation(), draws=4)
    assert min(v.shanten for v in got.discards) >= 3
    assert not got.exact and not any(v.exact for v in got.discards if v.shanten >= 3)


def test_readme_excerpt_is_real_output():
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    m = re.search(r'The top of the valued table of `mjcalc advise "([^"]+)" --by value`:\n\n```text\n(.*?)```', readme, flags=re.S)
    assert m, "README shows the end of an advise --by value"
    result = CliRunner().invoke(cli, ["advise", m.group(1), "--by", "value"])
    assert result.exit_code == 0, result.output
    assert m.group(2) in result.stdout


@pytest.mark.parametrize("text,wild", [("[EEE] 123m 46p 57m CC 9s 1p", ()), ("[123s] 2m 5m5m 46p 789p W W F", (P["5m"],))])
def test_simulator_agrees_with_melds(text, wild):
    hand = parse_hand(text)
    situation = Situation(wild=wild)
    engine = Engine(hand, BEIJING, situation, draws=8, by="value")
    best = engine.evaluate().discards[0]
    assert best.exact == (not wild) and best.shanten <= 1
    sim = simulate(engine, hand, BEIJING, situation, wild, best.tile, 8, TRIALS, seed=text)
    se = math.sqrt(max(best.p_win * (1 - best.p_win), 1e-9) / TRIALS)
    assert abs(sim.p - best.p_win) <= 4 * se, (sim.p, best.p_win)
    assert abs(sim.mean - best.expected) <= 4 * sim.mean_se + 1e-9, (sim.mean, best.expected)


def test_cli_says_what_the_figures_leave_out():
    """A hand that already wins says so, with its worth (四惠牌 in beijing: 8 番 + 庄 1 = 9, from each of three:
    +27); the ways of winning given for this moment are named as dropped; draws beyond the unseen tiles are
    capped, and said to be; a `*` with no wild kind cannot be valued (the wall's wildcards depend on it)."""
    result = CliRunner().invoke(cli, ["advise", "1368m 27p 469s E 5m5m5m5m", "--wild", "5m", "--by", "value", "--alone", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["win_now"] == 27
    result = CliRunner().invoke(cli, ["advise", "1368m 27p 469s E 5m5m5m5m", "--wild", "5m", "--by", "value", "--alone"])
    assert "legal win, +27 to you" in result.stdout
    result = CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--alone", "--from", "S", "--last-tile", "--json"])
    assert json.loads(result.stdout)["win_now"] is None
    result = CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--alone", "--from", "S", "--last-tile", "--draws", "2"])
    assert "(--from, --last-tile: this moment's" in result.stdout
    seen = " ".join(f"{r}{s}" * 4 for s in "ms" for r in range(1, 10)) + " " + "ESWNCP" * 4
    result = CliRunner().invoke(cli, ["advise", DRAGON, "--by", "value", "--alone", "--draws", "60", "--seen", seen])
    assert result.exit_code == 0, result.output
    # unseen: the 36 pinzu less the 12 in hand, and the 2 F not held: 26
    assert "by value: 26 draws (of the 60 asked) from 26 unseen tiles" in result.stdout
    result = CliRunner().invoke(cli, ["advise", "123m 456p 789s EE 45m *", "--by", "value", "--alone"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "no wild kind" in result.stderr


def test_cli_json_with_a_star_and_a_wild_face():
    """`*` and 5m are both wild with --wild 5m; advise ranks one wild discard (the first wildcard, 5m), and so do
    the values: every name in `ranked` is a row of `discards`, and the text has one wild row, marked so."""
    result = CliRunner().invoke(cli, ["advise", "123m456p789s EE 5m * C", "--wild", "5m", "--by", "win", "--alone", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    rows = {row["discard"]: row for row in out["discards"]}
    assert {"C", "5m"} <= set(out["ranked"]) and "*" not in out["ranked"]
    assert set(out["ranked"]) == {name for name, row in rows.items() if row["p_win"] is not None}
    assert rows["5m"]["wild"] is True
    text = CliRunner().invoke(cli, ["advise", "123m456p789s EE 5m * C", "--wild", "5m", "--by", "win", "--alone"]).stdout
    valued = text.split("by win:")[1].splitlines()
    assert sum(1 for line in valued if line.startswith("5m (wild)")) == 1
    assert not any(line.startswith("* ") for line in valued)
    # throw C: four sets and a pair of two wildcards... 123m 456p 789s EE + 5m * : any draw completes (the two
    # wildcards take it as a chow or pung), so the first draw wins
    assert rows["C"]["p_win"] == pytest.approx(1.0)


def test_automatic_draws_are_the_draws_that_win_automatically():
    """The region hook the engine plans with (`automatic_draws`, 13 tiles) agrees with the scorer's
    `automatic_win` (14 tiles) on every draw, and says None where no hand can win that way."""
    from mjcalc.analysis import setting
    from mjcalc.scoring import prepare

    rng = random.Random("automatic")
    planned = set()
    # each ruleset with 5m wild and with none, or with its own wildcard (红中) when it has one
    for rules, wild in [(r, w) for r in builtin_rulesets() for w in ((P["5m"],), ()) if r.wild_kinds or not w
                        if not (r.fixed_wild or faceless(r)) or not w] + \
            [(r, r.fixed_wild) for r in builtin_rulesets() if r.fixed_wild]:
        name = rules.id
        for _ in range(60):
            wilds = rng.choice([0, 2, 3, 4]) if wild else 0
            kinds = [t for t in range(34) if t not in wild and t not in rules.fixed_wild and rules.wall.copies[t]]
            tiles = [rng.choice(kinds) for _ in range(13 - wilds)] + [wild[0] if wild else 0] * wilds
            if max(tiles.count(t) for t in tiles) > 4:
                continue
            here = setting(Hand(tuple(sorted(tiles))), rules, Situation(wild=wild))
            draws = here.region.automatic_draws(rules, here.situation, here.tiles)
            if draws is not None:
                planned.add(name)
            for k in range(34):
                if here.tiles.held[k] == 4:
                    continue
                won = prepare(Hand(tuple(sorted(tiles)), (), k), here.wild_kinds)
                automatic = here.region.automatic_win(rules, here.situation, won) is not None
                assert automatic == (draws is not None and k in draws), (name, tiles, k)
    assert "beijing" in planned  # the check can see an automatic win
