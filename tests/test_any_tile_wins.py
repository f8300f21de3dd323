"""Issue 25, items 5, 6 and 8: a hand that wins on any tile, labels that say what is paid, and a column that
cannot vary. Every figure is worked by hand from the rules pages (quoted), none copied from mjcalc's output.

The hands: `13m 46p 79s EE F 5m5m5m5m` with 5m wild is 13 tiles holding all four 惠, so 四惠牌 wins on any draw.
It can still draw 33 kinds (34 less 5m, all four held), 4 × 33 = 132 tiles less the 9 natural tiles it holds
(1m 3m 4p 6p 7s 9s E E F): 123 left. `1368m 27p 469s E 5m5m5m5m` is 14 such tiles: already 四惠牌; throwing any of
its 10 natural tiles keeps the four 惠, and the tiles left are 132 less those 10: 122.
"""
import json

import pytest
from click.testing import CliRunner

import mjcalc
from mjcalc.advice import advise
from mjcalc.cli import cli
from mjcalc.notation import parse_hand
from mjcalc.ruleset import load_ruleset
from mjcalc.situation import Situation
from mjcalc.tiles import NAMES
from mjcalc.value import advise_value

P = {name: i for i, name in enumerate(NAMES)}
THIRTEEN = "13m 46p 79s EE F 5m5m5m5m"
FOURTEEN = "1368m 27p 469s E 5m5m5m5m"
FEATURED = "13m 46p 79s EE CF 5m5m5m5m"  # the README's featured `advise` hand: 14 tiles, four 惠
EVERY_KIND_BUT_5M = [n for n in NAMES if n != "5m"]


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def as_json(*args):
    return json.loads(run(*args, "--json"))


# --- item 5: a hand holding enough wildcards to win on any tile -------------------------------------------

# Each region's win whatever the shape, from its rules page:
AUTOMATIC = [
    # beijing.md: "`four_wilds` ★ | 四惠牌 … | 8 | holding all four 惠: a win whatever the shape, paid as a
    # self-draw"; with 庄 1 (the dealer, East, assumed): 9 番 on every tile.
    pytest.param("beijing", "four_wilds", "9", id="beijing-四惠牌"),
    # beijing-doubling.md: "`four_wilds` | 绘杠 … | flat 16 | all four 绘 held: the hand ends, a flat 16 from each
    # other player, nothing else counts".
    pytest.param("beijing-doubling", "four_wilds", "16 flat", id="doubling-绘杠"),
    # beijing-hunr.md: "`four_wilds` | 混杠 … | flat 40 | all four 混儿 held: a win whatever the shape".
    pytest.param("beijing-hunr", "four_wilds", "40 flat", id="hunr-混杠"),
]

# … and the rulesets where four wildcards are four wildcards: the shape's waits, 2m 5p 8s E F (123m 46p 79s EE F:
# 2m for 123m, 5p for 456p, 8s for 789s, E or F for the pair, the 惠 filling what is missing).
NOT_AUTOMATIC = [
    # beijing-money.md: "four 惠 are simply four wildcards here (there is no 四惠牌 in the money text)".
    pytest.param("beijing-money", id="money"),
    # shangrao.md: "holding four 宝 is not an automatic win here".
    pytest.param("shangrao", id="shangrao"),
    # zhuji.md: no pattern wins whatever the shape (a 财神 "may stand for any tile").
    pytest.param("zhuji", id="zhuji"),
]


@pytest.mark.parametrize("ruleset, pattern, scored", AUTOMATIC)
def test_thirteen_tiles_holding_all_four_wildcards_wait_on_every_tile(ruleset, pattern, scored):
    data = as_json("analyze", THIRTEEN, "--wild", "5m", "-r", ruleset)
    assert data["every_tile"] is True and data["automatic"] == pattern
    assert [w["tile"] for w in data["waits"]] == EVERY_KIND_BUT_5M
    assert sum(w["left"] for w in data["waits"]) == 123
    assert all(w["legal"] for w in data["waits"])
    text = run("analyze", THIRTEEN, "--wild", "5m", "-r", ruleset)
    name = load_ruleset(ruleset).pattern(pattern).zh
    assert f"waits     every tile wins ({name}): 1m 2m 3m 4m 6m" in text
    row = next(line for line in text.splitlines() if line.startswith("every tile"))
    assert row.split()[2:] == ["123", *scored.split(), *scored.split()]  # the same self-drawn and on a discard


@pytest.mark.parametrize("ruleset", NOT_AUTOMATIC)
def test_four_wildcards_that_are_only_wildcards_wait_on_the_shape(ruleset):
    data = as_json("analyze", THIRTEEN, "--wild", "5m", "-r", ruleset)
    assert data["every_tile"] is False and data["automatic"] is None
    assert [w["tile"] for w in data["waits"]] == ["2m", "5p", "8s", "E", "F"]


def test_the_library_lists_the_kinds_with_tiles_left():
    rules = load_ruleset("beijing")
    hand = parse_hand(THIRTEEN)
    found = mjcalc.waits(hand, rules, Situation(wild=(P["5m"],)))
    assert [NAMES[t] for t, _ in found] == EVERY_KIND_BUT_5M
    # every kind of 9p seen: it cannot be drawn, so it is not listed (the others still are)
    seen = [0] * 34
    seen[P["9p"]] = 4
    found = mjcalc.waits(hand, rules, Situation(wild=(P["5m"],)), seen=seen)
    assert "9p" not in [NAMES[t] for t, _ in found] and len(found) == 32


def test_every_listed_wait_wins_and_scores_as_analyze_scores_it():
    """`+9p` (no shape: 9p fits nothing) scores 四惠牌 8 + 庄 1 = 9, as the wait table says."""
    data = as_json("analyze", THIRTEEN + " +9p", "--wild", "5m")
    assert data["legal"] and data["total"] == 9 and data["decompositions"] == 0
    assert data["payouts"] == {"E": 27, "S": -9, "W": -9, "N": -9}


def test_the_fourth_wildcard_is_a_wait_of_a_hand_not_ready():
    """Holding three 惠, drawing the fourth is 四惠牌 "whatever the shape": 147m 258p 369s E 5m5m5m is far from
    ready by its shapes, yet 5m wins it (analyze `+5m` says so), so 5m is its wait (1 left)."""
    hand = "147m 258p 369s E 5m5m5m"
    assert as_json("analyze", hand + " +5m", "--wild", "5m")["legal"]
    data = as_json("analyze", hand, "--wild", "5m")
    assert [(w["tile"], w["left"]) for w in data["waits"]] == [("5m", 1)]
    assert data["every_tile"] is False and data["automatic"] == "four_wilds"


def test_advise_ranks_the_win_first_and_never_breaks_it():
    data = as_json("advise", FOURTEEN, "--wild", "5m")
    assert data["shanten"] == -1  # already a win (the shapes alone say 1 from ready)
    assert data["shanten_by_shape"]["standard"] == 1
    assert data["win"]["total"] == 9 and data["win_now"] == 27  # 9 from each of S, W, N
    natural = [d for d in data["discards"] if not d["wild"]]
    assert len(natural) == 10 and data["discards"][-1]["wild"]  # the 惠 last: throwing one breaks 四惠牌
    assert all(d["shanten"] == 0 and d["effective"] == 122 for d in natural)
    text = run("advise", FOURTEEN, "--wild", "5m")
    assert text.index("win       already a win: 9 番 (庄 1 + 四惠牌 8), +27 to you") < text.index("discard ")
    assert "shanten   -1 (complete 和了: 四惠牌 wins whatever the shape)" in text


def test_advise_of_thirteen_tiles_is_ready_on_every_tile():
    data = as_json("advise", THIRTEEN, "--wild", "5m")
    assert data["shanten"] == 0 and data["every_tile"] is True
    assert [i["tile"] for i in data["improvements"]] == EVERY_KIND_BUT_5M and data["effective"] == 123


@pytest.mark.parametrize("by", ["win", "value"])
def test_by_win_and_by_value_agree_with_the_ranking(by):
    """Keeping the four 惠, the first draw wins whatever it is: P(win) 1 and +27 for every natural discard, exact
    (no play to choose); the same discards, in the same order, as the ranking."""
    data = as_json("advise", FOURTEEN, "--wild", "5m", "--by", by)
    natural = [d["discard"] for d in data["discards"] if not d["wild"]]
    assert data["ranked"] == natural
    for d in data["discards"]:
        if not d["wild"]:
            assert d["p_win"] == pytest.approx(1.0) and d["expected"] == pytest.approx(27.0) and d["exact"]
    valued = advise_value(parse_hand(FOURTEEN), load_ruleset("beijing"), Situation(wild=(P["5m"],)), by=by)
    assert all(v.shanten == 0 for v in valued.discards)


def test_the_featured_hand_holds_four_wildcards_too():
    """The README's featured `advise` hand is 14 tiles with all four 惠 (+5m): already 四惠牌."""
    data = as_json("advise", FEATURED, "--wild", "5m", "--seen", "2m 8s")
    assert data["shanten"] == -1 and data["win"] is not None
    assert data["discards"][-1]["wild"] and all(d["shanten"] == 0 for d in data["discards"][:-1])


def test_the_library_advice_is_the_documents():
    advice = advise(parse_hand(FOURTEEN), load_ruleset("beijing"), Situation(wild=(P["5m"],)))
    assert advice.shanten == -1 and advice.analysis.score.legal and advice.analysis.automatic == "four_wilds"
    assert [d.every_tile for d in advice.discards] == [True] * 10 + [False]


def test_waits_command_says_every_tile():
    text = run("waits", THIRTEEN, "--wild", "5m")
    assert "every tile wins (四惠牌)" in text
    data = as_json("waits", THIRTEEN, "--wild", "5m")
    assert [w["tile"] for w in data["waits"]] == EVERY_KIND_BUT_5M and data["every_tile"] is True


# --- item 6: labels say what is paid -------------------------------------------------------------------


def test_a_flat_total_is_not_a_count_of_fan():
    """beijing-doubling.md: "**绘杠**: each of the three others pays 16 × 底分 … For this hand the total shown is
    that flat 16, not 番" (16 番 there would be 2^16 from each)."""
    data = as_json("analyze", THIRTEEN + " +9p", "--wild", "5m", "-r", "beijing-doubling")
    assert data["total"] == 16 and data["total_kind"] == "flat" and data["unit"] == "番"
    assert data["payouts"] == {"E": 48, "S": -16, "W": -16, "N": -16}
    text = run("analyze", THIRTEEN + " +9p", "--wild", "5m", "-r", "beijing-doubling")
    assert "total     16 flat (a fixed amount × 底分, not 16 番)" in text
    assert "16 番" not in text.replace("not 16 番", "")
    assert "绘杠       four_wilds  16 flat" in text
    hunr = as_json("analyze", THIRTEEN + " +9p", "--wild", "5m", "-r", "beijing-hunr")
    assert (hunr["total"], hunr["total_kind"]) == (40, "flat")


def test_a_total_in_the_unit_says_so():
    data = as_json("analyze", "[111m] 222p 333s EEE 9m +9m")
    assert (data["total"], data["total_kind"], data["unit"]) == (3, "unit", "番")
    assert [(w["total"], w["total_kind"]) for w in as_json("analyze", "123m456p789s EE 45m")["waits"]] == \
        [(3, "unit"), (3, "unit")]


def test_a_win_whatever_the_shape_says_so_rather_than_zero_decompositions():
    text = run("analyze", THIRTEEN + " +9p", "--wild", "5m")
    assert "complete  yes: 四惠牌 wins whatever the shape (no decomposition)" in text
    assert "0 decompositions" not in text
    assert as_json("analyze", THIRTEEN + " +9p", "--wild", "5m")["decompositions"] == 0  # JSON: as it was


def test_the_shaozhuang_column_shows_rounds_not_fan():
    """beijing.md: "The dealer pays each other player 2^(K−1)·b": three rounds, 4 to each of S, W, N and 12 from E.
    The column is headed by the rounds; its cells are the amount (never "3番")."""
    text = run("analyze", "[111m] 222p 333s EEE 9m +9m", "--shaozhuang", "3")
    header = next(line for line in text.splitlines() if line.startswith("seat    role"))
    assert "烧庄 3" in header and "3番" not in header
    parts = {p["name"]: p["payouts"] for p in as_json("analyze", "[111m] 222p 333s EEE 9m +9m", "--shaozhuang",
                                                       "3")["payout_parts"]}
    burn = next(v for k, v in parts.items() if k.startswith("烧庄"))
    assert burn == {"E": -12, "S": 4, "W": 4, "N": 4}


# --- item 8: a column that cannot vary is not printed ------------------------------------------------------

# shangrao.md: "Only by **self-draw**, except: **抢杠** (robbing a kong, `--rob-kong --from KONGER`) and **地糊** (…
# a non-dealer wins on the dealer's first discard, `--first-turn --from` the dealer). Any other discard win is not
# legal". 123m456p789s EE 45m waits on 3m and 6m: 平糊 1, self-drawn ×2 (平糊自摸 2 分).


def test_shangrao_waits_have_no_discard_column():
    text = run("analyze", "123m456p789s EE 45m", "-r", "shangrao")
    assert "discard (分)" not in text
    assert text.count("allows no discard wins") == 1  # said once, under the table
    rows = [line.split() for line in text.splitlines() if line[:2] in ("3m", "6m")]
    assert rows == [["3m", "3", "2"], ["6m", "4", "2"]]
    data = as_json("analyze", "123m456p789s EE 45m", "-r", "shangrao")  # the JSON keeps every wait's discard
    assert [w["discard"]["legal"] for w in data["waits"]] == [False, False]


@pytest.mark.parametrize("options", [
    pytest.param(["--rob-kong", "--from", "S"], id="抢杠"),
    pytest.param(["--seat", "S", "--first-turn", "--from", "E"], id="地糊-on-the-dealer's-first-discard"),
])
def test_shangrao_keeps_the_column_where_a_discard_win_can_be(options):
    text = run("analyze", "123m456p789s EE 45m", "-r", "shangrao", *options)
    assert "discard (分)" in text


def test_a_ruleset_with_discard_wins_keeps_the_column():
    assert "discard (番)" in run("analyze", "123m456p789s EE 45m")


def test_advise_tables_follow_the_same_rule():
    text = run("advise", "123m456p789s EE 45m 9p", "-r", "shangrao")
    assert "discard 9p: waits 3m 6m" in text and "discard (分)" not in text


def test_a_flat_hand_recorded_at_a_table_says_flat_not_fan(tmp_path):
    """beijing-doubling.md: 绘杠 is "a flat 16" (each other seat pays 16 × 底分, not 2^16): `table hand` and `table
    show` say "16 flat", and the hand's JSON says `total_kind: flat` (issue 25, item 6)."""
    import json as _json

    from click.testing import CliRunner

    from mjcalc.cli import cli
    db = str(tmp_path / "t.sqlite3")
    seats = ["--seat", "E=a", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"]
    invoke = lambda *a: CliRunner().invoke(cli, ["table", *a, "--db", db])  # noqa: E731
    assert invoke("new", "f", "-r", "beijing-doubling", *seats).exit_code == 0
    recorded = invoke("hand", "f", "13m 46p 79s EE F 5m5m5m5m +9p", "--wild", "5m", "--winner", "b")
    assert "total     16 flat (a fixed amount × 底分, not 16 番)" in recorded.stdout, recorded.output
    assert "16 flat" in invoke("show", "f").stdout
    hand = _json.loads(invoke("show", "f", "--json").stdout)["hands"][0]
    assert hand["total"] == 16 and hand["total_kind"] == "flat" and hand["payouts"]["S"] == 48
