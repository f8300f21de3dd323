"""The paired-deal benchmark's table (bench/advice_paired.py), on 20 walls: properties, never its figures.

Each property can fail when the simulator is broken: a payout that is not mjcalc's (not integers, not summing
to 0), a duplicate that does not replay the same deal, a wall that is not the ruleset's, a tile drawn twice,
a player who plays at random winning as often as one who plays to win.
"""
import importlib.util
import io
import json
import pickle
import sys
from collections import Counter
from pathlib import Path

import pytest

from mjcalc import Meld, Situation, load_ruleset
from mjcalc.hand import PUNG
from mjcalc.tiles import NAMES, SEATS, next_in_cycle

_PATH = Path(__file__).resolve().parent.parent / "bench" / "advice_paired.py"
_SPEC = importlib.util.spec_from_file_location("advice_paired", _PATH)
paired = importlib.util.module_from_spec(_SPEC)
sys.modules["advice_paired"] = paired  # the workers of --workers find run_wall by this name
_SPEC.loader.exec_module(paired)

WALLS = 20


def tiles(text):
    return [NAMES.index(t) for t in text.split()]


@pytest.fixture(scope="module")
def beijing_efficient():
    """20 walls of beijing with the baseline as the policy under test: every deal is the all-baseline deal."""
    return list(paired.walls("beijing", "efficient", 0, WALLS))


@pytest.fixture(scope="module")
def zhuji_random():
    return list(paired.walls("zhuji", "random", 0, WALLS))


def deals(lines):
    return [deal for line in lines for deal in line["deals"]]


@pytest.mark.parametrize("name", ["beijing_efficient", "zhuji_random"])
def test_every_deal_pays_integers_summing_to_zero(name, request):
    lines = request.getfixturevalue(name)
    assert len(lines) == WALLS and [line["seed"] for line in lines] == list(range(WALLS))
    for deal in deals(lines):
        assert sorted(deal["deltas"]) == sorted(SEATS)
        assert all(type(v) is int for v in deal["deltas"].values())
        assert sum(deal["deltas"].values()) == 0
        if deal["winner"] is None:
            assert set(deal["deltas"].values()) == {0}  # a drawn deal: nobody pays
        else:
            assert deal["deltas"][deal["winner"]] > 0 and deal["from"] != deal["winner"]


def test_the_baseline_against_itself_is_the_same_deal(beijing_efficient):
    for line in beijing_efficient:
        first = line["deals"][0]
        assert first["test"] is None and [d["test"] for d in line["deals"][1:]] == list(SEATS)
        for deal in line["deals"][1:]:
            assert {k: deal[k] for k in ("winner", "from", "deltas", "turns")} == \
                {k: first[k] for k in ("winner", "from", "deltas", "turns")}
        base, test = paired.seat_results(line)
        assert base == test  # paired differences exactly 0, win and payout
    assert any(d["winner"] is not None for d in deals(beijing_efficient))


def test_random_play_wins_less_than_the_baseline(zhuji_random):
    """A player throwing at random wins less often than one minimising 向听 (by far, on any 20 walls)."""
    random_wins = baseline_wins = 0
    for line in zhuji_random:
        base, test = paired.seat_results(line)
        random_wins += sum(test[s][0] for s in SEATS)
        baseline_wins += sum(base[s][0] for s in SEATS)
    assert baseline_wins > 0 and random_wins < baseline_wins


def without_cpu(path):
    lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        assert line.pop("cpu")["test"] >= 0
    return lines


def test_the_same_seeds_write_the_same_lines_in_shards_and_workers(tmp_path):
    whole, first, second = tmp_path / "whole.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    paired.main(["--ruleset", "beijing", "--policy", "random", "--walls", "4", "--out", str(whole)])
    paired.main(["--ruleset", "beijing", "--policy", "random", "--walls", "2", "--out", str(first)])
    paired.main(["--ruleset", "beijing", "--policy", "random", "--start", "2", "--walls", "2", "--workers", "2",
                 "--out", str(second)])
    assert without_cpu(whole) == without_cpu(first) + without_cpu(second)
    assert [line["seed"] for line in without_cpu(whole)] == [0, 1, 2, 3]


@pytest.mark.parametrize("ruleset", ["beijing", "zhuji"])
def test_the_wall_is_the_rulesets_and_its_wildcards_follow_the_rules(ruleset):
    rules = load_ruleset(ruleset)
    for seed in range(WALLS):
        table = paired.make_table(rules, seed)
        dealt = Counter(table.tiles) + Counter([table.turned_up] if table.turned_up is not None else [])
        assert dealt == Counter({k: 4 for k in range(34)})  # 136 tiles, four of each kind, no flowers
        if ruleset == "beijing":  # the tile after the turned-up one is the 惠; the turned-up one is not drawn
            assert table.wild_kinds == (next_in_cycle(table.turned_up),) and len(table.tiles) == 135
        else:  # two 财神 kinds, the second the tile after the first
            assert len(table.wild_kinds) == 2 and table.wild_kinds[1] == next_in_cycle(table.wild_kinds[0])
        assert table.end == len(table.tiles)  # neither region keeps a dead wall


def test_a_win_pays_what_the_rules_say():
    """beijing.md: a concealed win without 惠 by a non-dealer's self-draw is 推倒和 1 + 门清无惠 1 = 2 番, each
    other seat paying 2; on a discard, the discarder alone pays 2; with an exposed pung (吃碰堤) it must
    self-draw: 推倒和 1, each other paying 1."""
    table = paired.make_table(load_ruleset("beijing"), 0)
    table = paired.Table(table.ruleset, 0, table.tiles, table.end, (33,), Situation(dealer="E", wild=(33,)), None)
    seat = paired.Seat(tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m 5p"))
    drawn = table.situation.replace(seat="S")
    assert paired.legal_win(table, seat, NAMES.index("5p"), drawn) == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert paired.legal_win(table, seat, NAMES.index("6p"), drawn) is None
    thrown = table.situation.replace(seat="S", discarder="W")
    assert paired.legal_win(table, seat, NAMES.index("5p"), thrown) == {"E": 0, "S": 2, "W": -2, "N": 0}
    exposed = paired.Seat(tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s 5p"), [Meld(PUNG, (30, 30, 30), claimed_from="N")])
    assert paired.legal_win(table, exposed, NAMES.index("5p"), thrown) is None
    assert paired.legal_win(table, exposed, NAMES.index("5p"), drawn) == {"E": -1, "S": 3, "W": -1, "N": -1}


def test_the_baseline_claims_a_pung_only_when_it_brings_the_hand_nearer():
    table = paired.make_table(load_ruleset("beijing"), 0)
    table = paired.Table(table.ruleset, 0, table.tiles, table.end, (33,), Situation(dealer="E", wild=(33,)), None)
    # 1 from ready (two pairs and 1s 4s): a pung of E makes it ready whatever is thrown of 1s 4s
    nearer = paired.Seat(tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s E E 1s 4s"))
    assert paired.pung_claim(table, nearer, NAMES.index("E")) == (27, 27)
    assert paired.pung_claim(table, nearer, NAMES.index("5p")) is None  # one copy held
    # ready already (123m 12m 456p 789s EE: on 3m): a pung cannot bring it nearer
    ready = paired.Seat(tiles("1m 1m 2m 2m 3m 4p 5p 6p 7s 8s 9s E E"))
    assert paired.pung_claim(table, ready, NAMES.index("E")) is None
    assert paired.pung_claim(table, nearer, 33) is None  # the wild kind is never claimed
    chow = paired.Seat(tiles("2m 3m 4p 5p 6p 7s 8s 9s E E W N C"))
    assert paired.chow_claim(table, chow, NAMES.index("1m")) == (1, 2)
    assert paired.chow_claim(table, chow, NAMES.index("E")) is None  # never of honors


def test_the_summary_of_the_baseline_against_itself_says_no_difference(beijing_efficient, tmp_path):
    path = tmp_path / "efficient.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in beijing_efficient), encoding="utf-8")
    out = io.StringIO()
    paired.summary([str(path), str(path)], out)  # a seed read twice counts once
    text = out.getvalue()
    assert f"{WALLS} walls" in text and f"{4 * WALLS} paired deals" in text
    assert text.count("paired difference +0.000") == 2
    assert text.count("95% normal [+0.000, +0.000]  bootstrap [+0.000, +0.000]") == 2


def test_the_value_seat_follows_its_plan_and_asks_again_when_it_runs_out():
    """One wall of zhuji with `value` under test: every decision of the test seat is the engine's (asked, or its
    plan followed), some follow the plan without asking, and the money is still mjcalc's (integers summing to 0,
    every tile in one place: `play` asserts both on every deal)."""
    line = paired.run_wall(("zhuji", "value", 3, None))
    tests = [deal for deal in line["deals"] if deal["test"] is not None]
    assert len(tests) == 4 and all(deal["fallback"] == 0 for deal in tests)
    assert sum(deal["engine"] for deal in tests) > sum(deal["planned"] for deal in tests) > 0
    assert all(sum(deal["deltas"].values()) == 0 for deal in line["deals"])


def test_a_claim_in_the_plan_never_makes_a_fifth_copy():
    """Beijing's wall 5190 stopped the second registered run: the model, after claims of its own whose discards it
    counted as still unseen, claimed a kind it already held four of and scored a hand with five 3m. It plays
    through now, and a mjcalc error crosses a process pool whole (the pool had hung on unpickling it)."""
    line = paired.run_wall(("beijing", "value", 5190, None))
    assert all(sum(deal["deltas"].values()) == 0 for deal in line["deals"])
    from mjcalc.errors import HandError
    error = pickle.loads(pickle.dumps(HandError("scoring.fifth_copy", count=5, tile="3m")))
    assert type(error) is HandError and str(error) == "5 copies of 3m (wildcards count as their face): there are only 4"
