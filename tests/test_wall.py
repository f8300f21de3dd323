"""One wall (issue 36.1): every count of tiles left — analyze, waits (one hand and the batch), advise's
improvements and waits, the value of discards, the API — is the one `tiles.Wall`'s, which knows the ruleset's
composition, the hand, what is seen and what the region takes out (the turned-up tile, a flown 宝).

The expected counts here are worked out from the rules pages, never read from the program: a kind has 4 copies
in a 136-tile wall (none of a kind the ruleset's wall leaves out); the hand's copies (melds and wildcards' faces
included), the copies seen and the copies the rules take out are not in the wall. shangrao.md: "The tiles left
of a wait count no flown 宝: every 宝 flown (`--flown`, `--flown-by`) is a discard of the 宝 kind. A flown 宝 also
written in `--seen` is the same tile: the larger count is taken off, not the sum." The tile turned up
(`--indicator`) lies face up on the table and is never drawn: one copy of its kind is out, the same way.
"""
import json
import textwrap
from math import comb

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjcalc.advice import advise
from mjcalc.analysis import analyze, waits
from mjcalc.batch import BatchWaits
from mjcalc.cli import cli
from mjcalc.errors import MjcalcError, RulesetError
from mjcalc.hand import CHOW, PUNG, Hand, Meld
from mjcalc.notation import format_hand, parse_hand
from mjcalc.ruleset import builtin_rulesets, load_ruleset, load_ruleset_file
from mjcalc.situation import Situation
from mjcalc.tiles import FULL_WALL, NAMES, Composition, Wall
from mjcalc.value import advise_value

P9, S3, S6 = NAMES.index("9p"), NAMES.index("3s"), NAMES.index("6s")


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result


def doc(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refusal(*args) -> str:
    """The one line a bad input gets (never a traceback)."""
    result = run(*args)
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


# --- the report: shangrao with --flown-by S=3 ---------------------------------------------------------------

READY = "123m456m789m11s45s"  # 13 tiles: waits on 3s and 6s; under shangrao a drawn 宝 (9p here) wins too
READY_14 = READY + " E"  # throw E to be ready on the same tiles


def test_analyze_and_advise_agree_on_the_flown_kind():
    """宝 = 9p; the hand holds no 9p; S has flown 3 of them: 4 - 0 - 3 = 1 copy of 9p left (3s and 6s: 4 each).
    Before the one wall, analyze said 1 and advise said 9p×4."""
    args = ("-r", "shangrao", "--wild", "9p", "--flown-by", "S=3")
    analyzed = {w["tile"]: w["left"] for w in doc("analyze", READY, *args)["waits"]}
    advised = doc("advise", READY, *args)
    assert analyzed == {"3s": 4, "6s": 4, "9p": 1}
    assert {w["tile"]: w["left"] for w in advised["waits"]} == analyzed
    assert {i["tile"]: i["left"] for i in advised["improvements"]} == analyzed
    thrown = next(d for d in doc("advise", READY_14, *args)["discards"] if d["discard"] == "E")
    assert {i["tile"]: i["left"] for i in thrown["improvements"]} == analyzed
    assert {w["tile"]: w["left"] for w in thrown["waits"]} == analyzed


def test_the_issues_hand_whose_9p_are_all_gone():
    """宝吊头 with the one 9p held as the 宝 (`123456789m 123s 9p`): any tile wins, but 9p has 4 - 1 - 3 = 0 left;
    every other kind 4 less those held: 120 tiles in all (136 - 13 held - 3 flown)."""
    args = ("-r", "shangrao", "--wild", "9p", "--flown-by", "S=3")
    hand = "123m 456m 789m 123s 9p"
    analyzed = doc("analyze", hand, *args)
    assert analyzed["every_tile"] and "9p" not in {w["tile"] for w in analyzed["waits"]}
    assert sum(w["left"] for w in analyzed["waits"]) == 136 - 13 - 3
    advised = doc("advise", hand, *args)
    assert {i["tile"]: i["left"] for i in advised["improvements"]}["9p"] == 0
    assert advised["effective"] == 136 - 13 - 3


def test_the_value_of_discards_draws_from_the_wall_less_the_flown():
    """Throw E and the hand is ready on 3s, 6s and the 宝 9p: with one draw P(win) = winning tiles / unseen tiles,
    12/122 (136 - 14 in hand) without flown 宝 and 9/119 with three flown (3 fewer 9p, 3 fewer tiles)."""
    rules = load_ruleset("shangrao")
    hand = parse_hand(READY_14)
    still = advise_value(hand, rules, Situation(wild=(P9,)), draws=1, by="win")
    flown = advise_value(hand, rules, Situation(wild=(P9,), flown_by=(("S", 3),)), draws=1, by="win")
    p_still = next(d.p_win for d in still.discards if d.tile == NAMES.index("E"))
    p_flown = next(d.p_win for d in flown.discards if d.tile == NAMES.index("E"))
    assert (still.unseen, flown.unseen) == (122, 119)
    assert p_still == pytest.approx(12 / 122) and p_flown == pytest.approx(9 / 119)


def test_advise_by_value_gives_a_lower_p_win_when_the_bao_has_flown():
    """`advise --by value` (8 draws): the ready hand keeps its tiles, so P(win) = 1 - C(M-K, 8)/C(M, 8), K the
    winning tiles among the M unseen: 1 - C(110, 8)/C(122, 8) = 57.5% without, 1 - C(110, 8)/C(119, 8) = 47.8%
    with S's three flown 宝. Before the one wall both said 57.5%."""
    base = ("advise", READY_14, "-r", "shangrao", "--wild", "9p", "--by", "value", "--alone")
    still = next(d for d in doc(*base)["discards"] if d["discard"] == "E")
    flown = next(d for d in doc(*base, "--flown-by", "S=3")["discards"] if d["discard"] == "E")
    assert flown["p_win"] < still["p_win"]
    assert still["p_win"] == pytest.approx(1 - comb(110, 8) / comb(122, 8), abs=1e-9)
    assert flown["p_win"] == pytest.approx(1 - comb(110, 8) / comb(119, 8), abs=1e-9)


def test_the_turned_up_tile_is_not_in_the_wall():
    """--indicator 6s makes 7s wild and lies face up: 6s has 4 - 0 - 1 = 3 left, 3s 4, the wild 7s 4 — in
    waits, analyze and advise alike."""
    for rules in ("beijing-hunr", "shangrao"):
        expected = {"3s": 4, "6s": 3, "7s": 4}
        assert {w["tile"]: w["left"] for w in doc("waits", READY, "-r", rules, "--indicator", "6s")["waits"]} \
            == expected
        assert {w["tile"]: w["left"] for w in doc("analyze", READY, "-r", rules, "--indicator", "6s")["waits"]} \
            == expected
        assert {i["tile"]: i["left"] for i in doc("advise", READY, "-r", rules, "--indicator", "6s")["improvements"]} \
            == expected


def test_the_turned_up_tile_written_as_seen_too_is_the_same_tile():
    """A player may write the face-up tile in --seen as well: it is one tile, taken off once (3 left, not 2)."""
    got = doc("analyze", READY, "-r", "beijing-hunr", "--indicator", "6s", "--seen", "6s")
    assert {w["tile"]: w["left"] for w in got["waits"]}["6s"] == 3
    got = doc("analyze", READY, "-r", "beijing-hunr", "--indicator", "6s", "--seen", "6s 6s")
    assert {w["tile"]: w["left"] for w in got["waits"]}["6s"] == 2


def test_a_hand_holding_all_four_of_the_turned_up_kind_is_refused():
    line = refusal("analyze", "123m456m789m 6666s", "-r", "beijing-hunr", "--indicator", "6s")
    assert "all four 6s" in line and "turned-up" in line


# --- the property: every command's tiles left is the count written here --------------------------------------

RULESETS = {r.id: r for r in builtin_rulesets()}


def left_by_hand(rules, hand: Hand, wild_kinds, seen, indicator, flown) -> list:
    """Tiles left of each kind, counted as the rules pages say: the wall's copies (4 of each kind it has) less
    those in the hand (its melds, and a `*` counted as the first wild kind's face) and the larger of those seen
    and those the rules take out (the turned-up tile; the flown 宝)."""
    copies = [4 if rules.wall.has(k) else 0 for k in range(34)]
    in_hand = [0] * 34
    for t in list(hand.tiles) + [t for m in hand.melds for t in m.tiles]:
        in_hand[wild_kinds[0] if t == 34 else t] += 1
    out_by_rule = [0] * 34
    if indicator is not None:
        out_by_rule[indicator] += 1
    if flown:
        out_by_rule[wild_kinds[0]] += flown
    return [max(0, copies[k] - in_hand[k] - max(seen[k], out_by_rule[k])) for k in range(34)]


@st.composite
def deals(draw):
    """A built-in ruleset, a 13-tile hand one tile from complete (a meld sometimes declared), a 14th tile drawn,
    the wildcards as the table says them (none, --wild or --indicator), tiles seen, and shangrao's flown 宝."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS) + ["shangrao"] * 3))]  # shangrao, whose 宝 fly, often
    blocks = []
    for _ in range(4):
        if draw(st.booleans()):
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            blocks.append((CHOW, tuple(9 * suit + start + i for i in range(3))))
        else:
            kind = draw(st.integers(0, 33))
            blocks.append((PUNG, (kind,) * 3))
    pair = draw(st.integers(0, 33))
    counts = [0] * 34
    for _, tiles in blocks:
        for t in tiles:
            counts[t] += 1
    counts[pair] += 2
    assume(max(counts) <= 4)
    melds = ()
    if draw(st.booleans()):
        kind, tiles = blocks.pop(0)
        melds = (Meld(kind, tiles),)
    concealed = sorted([t for _, tiles in blocks for t in tiles] + [pair, pair])
    concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    drawn = draw(st.integers(0, 33))
    indicator, wild = None, ()
    if rules.wild_kinds:
        hows = {"zhuji": ["none", "wild"], "shangrao": ["wild", "indicator"]}  # the 宝 is always turned up
        how = draw(st.sampled_from(hows.get(rules.region, ["none", "wild", "indicator", "indicator"])))
        if how == "wild":
            wild = (draw(st.integers(0, 33)),)
        elif how == "indicator":
            indicator = draw(st.integers(0, 33))
    seen = [0] * 34
    for k in draw(st.lists(st.integers(0, 33), max_size=12)):
        seen[k] += 1
    flown = draw(st.integers(0, 3)) if rules.region == "shangrao" and (wild or indicator is not None) else 0
    return rules, Hand(tuple(concealed), melds), drawn, wild, indicator, seen, flown


def _situation(wild, indicator, flown):
    extras = {"flown_by": (("S", flown),)} if flown else {}
    return Situation(wild=wild, indicator=indicator, **extras)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deals())
def test_every_command_counts_tiles_left_as_the_rules_do(deal):
    rules, hand, drawn, wild, indicator, seen, flown = deal
    situation = _situation(wild, indicator, flown)
    try:
        analysis = analyze(hand, rules, situation, tuple(seen))
    except MjcalcError:
        assume(False)  # a deal no table has (too many seen, the turned-up kind all held…): its refusal is tested above
    wild_kinds = analysis.wild_kinds
    left = left_by_hand(rules, hand, wild_kinds, seen, indicator, flown)
    assert [(w.tile, w.left) for w in analysis.waits] == [(w.tile, left[w.tile]) for w in analysis.waits]
    listed = waits(hand, rules, situation, tuple(seen))
    assert listed == [(t, left[t]) for t, _ in listed]
    assert listed == [(w.tile, w.left) for w in analysis.waits]
    advice = advise(hand, rules, situation, tuple(seen))
    assert all(i.left == left[i.tile] for i in advice.improvements)
    assert all(w.left == left[w.tile] for w in advice.analysis.waits)
    if not flown:  # the batch takes the wildcards only
        _, found, _ = BatchWaits(rules, Situation(wild=wild, indicator=indicator)).answer(format_hand(hand),
                                                                                          tuple(seen))
        assert found == listed
    full = Hand(tuple(sorted(hand.concealed + (drawn,))), hand.melds)
    try:
        advice = advise(full, rules, situation, tuple(seen))
    except MjcalcError:
        return  # the drawn tile is one too many with those seen
    left = left_by_hand(rules, full, wild_kinds, seen, indicator, flown)
    for d in advice.discards:
        assert all(i.left == left[i.tile] for i in d.improvements), d
        assert all(w.left == left[w.tile] for w in d.waits), d
    if advice.discards and advice.discards[0].shanten <= 1:
        # one draw: P(win) of a ready discard is its winning tiles left over every tile left
        valued = advise_value(full, rules, situation, tuple(seen), draws=1, by="win")
        assert valued.unseen == sum(left)
        p_win = {v.tile: v.p_win for v in valued.discards}
        for d in advice.discards:
            if d.waits and not d.wild:
                wins = sum(left[w.tile] for w in d.waits if w.self_draw.legal)
                assert p_win[d.tile] == pytest.approx(wins / sum(left)), d


# --- a ruleset's own wall: 108 tiles, no honours --------------------------------------------------------------


def house(tmp_path, wall: str, name="house108"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(f"""\
        id: {name}
        extends: beijing-classic
        wall: {wall}
        """), encoding="utf-8")
    return str(path)


def test_a_108_tile_wall_refuses_honours_in_one_line(tmp_path):
    rules = house(tmp_path, "{honors: false}")
    assert load_ruleset_file(rules).wall.size == 108
    line = refusal("analyze", "123m 456p 789s 11s 23m E", "-r", rules)
    assert line == "Error: E: no such tile in this ruleset's wall of 108"
    assert "no such tile" in refusal("analyze", READY, "-r", rules, "--seen", "C")
    assert "no such tile" in refusal("waits", "123m 456p 789s 11s 2m P", "-r", rules)


def test_compare_says_the_108_tile_wall_lacks_an_honour_and_answers_for_the_others(tmp_path):
    rules = house(tmp_path, "{honors: false}")
    for hand, seen in (("123m 456p 789s 11s 23m E", ""), (READY, "E")):
        classic, walled = doc("compare", hand, "-r", "beijing-classic", "-r", rules, "--seen", seen)
        assert classic.get("error") is None and walled["ruleset"] == "house108"
        assert walled["error"].endswith("E: no such tile in this ruleset's wall of 108"), walled["error"]


def test_a_108_tile_wall_counts_tiles_left_from_108(tmp_path):
    """No honours: the unseen tiles are 108 less the 14 in hand (94), the winning tiles 3s and 6s, 4 each; with
    one draw P(win) = 8/94."""
    rules = house(tmp_path, "{honors: false}")
    hand = READY + " 9p"
    valued = doc("advise", hand, "-r", rules, "--by", "win", "--alone", "--draws", "1")
    assert valued["unseen"] == 94
    thrown = next(d for d in valued["discards"] if d["discard"] == "9p")
    assert thrown["p_win"] == pytest.approx(8 / 94)
    assert {w["tile"]: w["left"] for w in doc("analyze", READY, "-r", rules)["waits"]} == {"3s": 4, "6s": 4}


def test_a_wall_of_the_suits_and_the_red_dragon_is_112(tmp_path):
    rules = house(tmp_path, "{honors: C}", name="house112")
    wall = load_ruleset_file(rules).wall
    assert (wall.size, wall.has(NAMES.index("C")), wall.has(NAMES.index("E"))) == (112, True, False)
    waiting = doc("analyze", "123m456m789m111s C", "-r", rules)
    assert {w["tile"]: w["left"] for w in waiting["waits"]} == {"C": 3}
    assert "no such tile" in refusal("analyze", "123m456m789m111s E", "-r", rules)


def test_flowers_count_in_the_wall_but_are_never_a_tile_left():
    wall = Composition(flowers=8)
    assert wall.size == 144 and sum(Wall.of([0] * 34, composition=wall).counts) == 136


@pytest.mark.parametrize("wall, problem", [
    ("{suits: mpx}", "wall.suits: expected some of mps, each once, got 'mpx'"),
    ("{honors: EEC}", "wall.honors: expected some of ESWNCFP, each once, got 'EEC'"),
    ("{suits: ''}", "wall.suits: a wall needs at least one suit"),
    ("{flowers: 9}", "wall.flowers"),
    ("{tiles: 108}", "wall.tiles: unknown key"),
])
def test_a_bad_wall_is_a_file_line_error(tmp_path, wall, problem):
    with pytest.raises(RulesetError) as caught:
        load_ruleset_file(house(tmp_path, wall))
    assert "house108.yaml:3: " in str(caught.value) and problem in str(caught.value), str(caught.value)


def test_a_table_keeps_the_rules_of_the_136_tile_wall_as_before():
    """The default wall is left out of the data a table keeps, so a table's rules digest stays what it was."""
    from mjcalc.evening import rules_json
    from mjcalc.evening.record import rules_from_json
    for rules in builtin_rulesets():
        text = rules_json(rules)
        assert ('"wall"' in text) == (rules.wall != FULL_WALL) and rules_from_json(text) == rules
    assert [r.id for r in builtin_rulesets() if r.wall != FULL_WALL] == ["guangdong", "guobiao", "hongzhong",
                                                                         "sichuan"]  # 140, 144, 112, 108


def test_a_table_keeps_a_declared_wall(tmp_path):
    from mjcalc.evening import rules_json
    from mjcalc.evening.record import rules_from_json
    rules = load_ruleset_file(house(tmp_path, "{honors: false}"))
    assert rules_from_json(rules_json(rules)).wall == rules.wall == Composition(honors="")


# --- the API gives what the CLI gives, so the page follows -----------------------------------------------------


def test_the_api_counts_the_flown_bao(tmp_path):
    from browser import start_server, stop_server
    import urllib.request

    srv = start_server(tmp_path / "ledger.sqlite3", "127.0.0.1")
    try:
        def post(path, body):
            req = urllib.request.Request(f"http://127.0.0.1:{srv.server_address[1]}{path}",
                                         json.dumps(body).encode("utf-8"), {"Content-Type": "application/json"},
                                         method="POST")
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode("utf-8"))

        fields = {"hand": READY, "ruleset": "shangrao", "wild": "9p", "flown_by": ["S=3"]}
        analyzed = post("/api/analyze", fields)
        advised = post("/api/advise", fields)
        assert {w["tile"]: w["left"] for w in analyzed["waits"]} == {"3s": 4, "6s": 4, "9p": 1}
        assert {i["tile"]: i["left"] for i in advised["improvements"]} == {"3s": 4, "6s": 4, "9p": 1}
        valued = post("/api/advise", dict(fields, hand=READY_14, by="win", draws=1))
        assert valued["unseen"] == 119
        assert next(d for d in valued["discards"] if d["discard"] == "E")["p_win"] == pytest.approx(9 / 119)
    finally:
        stop_server(srv)
