"""`mjcalc table stats` (issue 23, Statistics): each person's figures at a table and across a ledger, people matched
by exact name, every figure reconciling with `table show`.

The money is worked by hand from rulesets/beijing.md and zhuji.md, base 1. beijing, quick entry `--fan F`: on a
discard the discarder pays F, a self-draw is F from each other seat; 烧庄 K: the dealer pays each other seat
2^(K-1) besides; 互包: the partner pays the winner's whole hand part and nobody else pays any; after 荒牌 the rest
of the round pays ×2 (上楼). zhuji, `--tai T`: H = 2^T, on a discard the discarder pays H and the two others H/2;
a bid N台 (two 财神 kinds) stakes B = 5·2^(N-2): the 包家 who wins is paid B by each, else he pays B to each.
"""
import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjcalc.cli.stats  # noqa: F401  (registers `table stats` until the command line imports it)
from mjcalc import evening
from mjcalc.cli import cli
from mjcalc.evening import Ledger
from mjcalc.evening.ledger import PenaltyRecord
from mjcalc.evening.stats import PersonStats, dealer_charges, payer_options, person_stats, stats_json
from mjcalc.situation import Situation
from test_design import code_of, regional_words

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]
PACKAGE = Path(mjcalc.cli.stats.__file__).resolve().parent.parent


def run(*args, db):
    return CliRunner().invoke(cli, ["table", *args, "--db", str(db)])


def ok(*args, db):
    result = run(*args, db=db)
    assert result.exit_code == 0, result.output
    return result


def friday(db):
    """Six hands at beijing: a discard win, a self-draw with 烧庄, a draw, 互包 under 上楼, a seat change."""
    ok("new", "friday", *SEATS, db=db)
    ok("hand", "--fan", "3", "--winner", "小李", "--from", "老王", db=db)
    # 1 (E 老王 deals): 小李 +3, 老王 -3
    ok("hand", "--fan", "2", "--winner", "阿张", "--shaozhuang", "1", db=db)
    # 2 (S 小李 deals): 阿张 self-draws, 2 from each; 烧庄 1: 小李 pays each 1 more
    #   老王 -2+1 = -1, 小李 -2-3 = -5, 阿张 +6+1 = +7, 大刘 -2+1 = -1
    ok("draw", db=db)
    # 3 (W 阿张 deals): 荒牌, 阿张 deals again (连庄), 上楼 ×2 for the rest of the round
    ok("hand", "--fan", "2", "--winner", "大刘", "--from", "阿张", "--mutual", "小李", db=db)
    # 4 (W 阿张 deals): 大刘 on 阿张's discard, 小李 in 互包 pays the hand part 2, ×2: 大刘 +4, 小李 -4, 阿张 0
    ok("seat", "南=小赵", db=db)  # 小李 leaves; 小赵 takes the South chair from hand 5 on
    ok("hand", "--fan", "1", "--winner", "小赵", "--from", "老王", db=db)
    # 5 (N 大刘 deals, still ×2): 小赵 +2, 老王 -2; the round ends, 上楼 with it
    ok("hand", "--fan", "2", "--winner", "老王", db=db)
    # 6 (round 2, E 老王 deals): 老王 self-draws 2 from each, +6; 小赵, 阿张, 大刘 -2


# each person at friday, by hand from the comments above:
#   老王: hands 1-6, won 6 (self-drawn), dealt in 1 and 5; biggest +6 in 6; net -3-1+0+0-2+6 = 0
#   小赵: hands 5-6, won 5; biggest +2 in 5; net +2-2 = 0
#   阿张: hands 1-6, won 2 (self-drawn), dealt in 4 (paid nothing: the 互包 partner did); biggest +7 in 2;
#         net 0+7+0+0+0-2 = 5
#   大刘: hands 1-6, won 4; biggest +4 in 4; net 0-1+0+4+0-2 = 1
#   小李: hands 1-4, won 1; biggest +3 in 1; 烧庄 dealing hand 2; 包 in hand 4; net 3-5+0-4 = -6
FRIDAY = [
    PersonStats("老王", hands=6, won=1, self_draws=1, deal_ins=2, biggest=6, biggest_hand=6, biggest_table="friday"),
    PersonStats("小赵", hands=2, won=1, biggest=2, biggest_hand=5, biggest_table="friday"),
    PersonStats("阿张", hands=6, won=1, self_draws=1, deal_ins=1, biggest=7, biggest_hand=2, biggest_table="friday",
                net=5),
    PersonStats("大刘", hands=6, won=1, biggest=4, biggest_hand=4, biggest_table="friday", net=1),
    PersonStats("小李", hands=4, won=1, biggest=3, biggest_hand=1, biggest_table="friday", shaozhuang=1, bao=1,
                net=-6),
]


def people(result):
    return [PersonStats(**p) for p in json.loads(result.stdout)["people"]]


def test_an_evening_worked_by_hand(tmp_path):
    db = tmp_path / "t.sqlite3"
    friday(db)
    result = ok("stats", "--json", db=db)  # the table in use
    assert json.loads(result.stdout)["table"] == "friday"
    assert people(result) == FRIDAY
    in_chinese = CliRunner().invoke(cli, ["table", "stats", "friday", "--db", str(db)], env={"MJCALC_LANG": "zh"})
    assert in_chinese.stdout == (  # a Chinese terminal's headers (tests/test_terminal35b.py: an English one's)
        "table 'friday': 6 hands\n"
        "座位    玩家    局    和    自摸    点炮    最大    烧庄    包    罚    净\n"
        "------  ------  ----  ----  ------  ------  ------  ------  ----  ----  ----\n"
        "E       老王    6     1     1       2       6 #6    0       0     0     0\n"
        "S       小赵    2     1     0       0       2 #5    0       0     0     0\n"
        "W       阿张    6     1     1       1       7 #2    0       0     0     5\n"
        "N       大刘    6     1     0       0       4 #4    0       0     0     1\n"
        "—       小李    4     1     0       0       3 #1    1       1     0     -6\n")


def test_every_figure_reconciles_with_show(tmp_path):
    db = tmp_path / "t.sqlite3"
    friday(db)
    shown = json.loads(ok("show", "--json", db=db).stdout)
    rows = people(ok("stats", "--json", db=db))
    assert [(r.player, r.net) for r in rows] == [(s["player"], s["score"]) for s in shown["standings"]]
    for r in rows:
        played = [h for h in shown["hands"] if r.player in h["players"].values()]
        wins = [h for h in shown["hands"] if h["winner_player"] == r.player]
        assert r.hands == len(played) and r.won == len(wins)
        assert r.self_draws == sum(h["from"] is None for h in wins)
        assert r.deal_ins == sum(h["from_player"] == r.player for h in shown["hands"])
        gains = [h["payouts"][seat] for h in played for seat, p in h["players"].items() if p == r.player]
        assert r.biggest == max([g for g in gains if g > 0], default=0)


def after(db):
    """A second table, opened later (and named before 'friday'): zhuji, 小李 bidding; 阿美 is new, 小李 is back."""
    ok("new", "after", "-r", "zhuji", "--seat", "东=小李", "--seat", "南=老王", "--seat", "西=阿美",
       "--seat", "北=大刘", db=db)
    ok("hand", "after", "--tai", "2", "--winner", "老王", "--from", "阿美", "--bid", "2", "--bidder", "小李", db=db)
    # 1: H = 2^2 = 4: 阿美 pays 4, 小李 and 大刘 2 each; 小李's bid of 2台 failed: he pays B = 5 to each of three
    #    老王 +8+5 = +13, 小李 -2-15 = -17, 阿美 -4+5 = +1, 大刘 -2+5 = +3
    ok("hand", "after", "--tai", "2", "--winner", "小李", "--bid", "2", "--bidder", "小李", db=db)
    # 2: 小李 self-draws his bid: 4 from each, and B = 5 from each: 小李 +27, the others -9


def test_two_tables_share_people_by_name(tmp_path):
    db = tmp_path / "t.sqlite3"
    friday(db)
    after(db)
    # at 'after' alone: 小李 won 2 (self-drawn), 包 in hand 1 only (in hand 2 his bid won: he was paid)
    at_after = people(ok("stats", "after", "--json", db=db))
    assert at_after == [
        PersonStats("小李", hands=2, won=1, self_draws=1, biggest=27, biggest_hand=2, biggest_table="after", bao=1,
                    net=10),
        PersonStats("老王", hands=2, won=1, biggest=13, biggest_hand=1, biggest_table="after", net=4),
        PersonStats("阿美", hands=2, deal_ins=1, biggest=1, biggest_hand=1, biggest_table="after", net=-8),
        PersonStats("大刘", hands=2, biggest=3, biggest_hand=1, biggest_table="after", net=-6),
    ]
    # across the ledger: the people seated at the table opened last first (E S W N), then 小赵 and 阿张 as they
    # first appear (friday's seating now); each figure is the sum of the two tables', the biggest the larger
    result = ok("stats", "--all", "--json", db=db)
    assert json.loads(result.stdout)["table"] is None
    assert people(result) == [
        PersonStats("小李", hands=6, won=2, self_draws=1, biggest=27, biggest_hand=2, biggest_table="after",
                    shaozhuang=1, bao=2, net=4),
        PersonStats("老王", hands=8, won=2, self_draws=1, deal_ins=2, biggest=13, biggest_hand=1,
                    biggest_table="after", net=4),
        PersonStats("阿美", hands=2, deal_ins=1, biggest=1, biggest_hand=1, biggest_table="after", net=-8),
        PersonStats("大刘", hands=8, won=1, biggest=4, biggest_hand=4, biggest_table="friday", net=-5),
        PersonStats("小赵", hands=2, won=1, biggest=2, biggest_hand=5, biggest_table="friday"),
        PersonStats("阿张", hands=6, won=1, self_draws=1, deal_ins=1, biggest=7, biggest_hand=2,
                    biggest_table="friday", net=5),
    ]
    totals = {}
    for name in ("friday", "after"):
        for s in json.loads(ok("show", name, "--json", db=db).stdout)["standings"]:
            totals[s["player"]] = totals.get(s["player"], 0) + s["score"]
    assert {r.player: r.net for r in people(result)} == totals
    text = ok("stats", "--all", db=db).stdout
    assert text.splitlines()[0] == "2 tables (friday, after): 8 hands"
    # nobody was fined: at 80 columns that column goes before the hands of the biggest gains do
    assert text.splitlines()[1].split()[-1] == "net" and "fined" not in text.splitlines()[1]
    assert text.splitlines()[3].split() == ["小李", "6", "2", "1", "0", "27", "after", "#2", "1", "2", "4"]


def test_a_bid_and_a_dealer_charge_are_found_by_the_options_words():
    """The generic rule names no region: today it finds 烧庄 (the dealer pays) and 互包, 包家 (the seats named
    pay for others), from the regions' own option declarations."""
    assert [o.name for o in dealer_charges()] == ["shaozhuang"]
    assert [o.name for o in payer_options()] == ["mutual", "bidder"]


def test_the_figures_read_no_region_key():
    """stats.py and cli/stats.py read no region's situation key and say no region's word (the figures' own field
    names, `shaozhuang` among them, are the issue's JSON contract, not a key read)."""
    for path in (PACKAGE / "evening" / "stats.py", PACKAGE / "cli" / "stats.py"):
        code = code_of(path)
        found = sorted(w for w in regional_words() if f"'{w}'" in code or f'"{w}"' in code
                       or (not w.isascii() and w in code))
        assert found == [], path


def test_penalties_and_hands_without_seating_count(tmp_path):
    """Penalties count for who paid and in the net (not as hands); a hand kept without its seating (an older
    ledger's) is read as the table is seated now, as the standings read it."""
    ledger = Ledger(tmp_path / "t.sqlite3")
    t = evening.create_table(ledger, "t", "beijing", {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"})
    evening.record_quick(ledger, t, Situation(seat="S", discarder="E"), total=3)  # 小李 +3, 老王 -3
    hands = [h.but(players=()) for h in ledger.hands(t)]
    fine = PenaltyRecord("p1", "false_win", "诈和", "W", None, "", {"E": 2, "S": 2, "W": -6, "N": 2},
                         ("老王", "小李", "阿张", "大刘"), 1, "2024-01-01T00:00:00+00:00")
    rows = person_stats([(t.players, hands, [fine])], ["t"])
    assert [(r.player, r.hands, r.penalties, r.net) for r in rows] == [
        ("老王", 1, 0, -1), ("小李", 1, 0, 5), ("阿张", 1, 1, -6), ("大刘", 1, 0, 2)]
    assert stats_json(rows, "t")["people"][2] == {
        "player": "阿张", "hands": 1, "won": 0, "self_draws": 0, "deal_ins": 0, "biggest": 0, "biggest_hand": None,
        "biggest_table": None, "shaozhuang": 0, "bao": 0, "penalties": 1, "net": -6}
    ledger.close()


def test_errors_are_one_line(tmp_path):
    db = tmp_path / "t.sqlite3"
    result = run("stats", "--all", "--json", db=db)  # an empty ledger
    assert result.exit_code == 0 and json.loads(result.stdout) == {"table": None, "people": []}
    assert run("stats", "--all", db=db).stdout == f"no tables yet in {db}\n"
    result = run("stats", db=db)
    assert result.exit_code == 2
    assert result.stderr == ("Error: no table in use: give its NAME, or `mjcalc table use NAME` (`mjcalc table list` "
                             "lists them)\n")
    friday(db)
    result = run("stats", "friday", "--all", db=db)
    assert result.exit_code == 2
    assert result.stderr == "Error: table stats takes a table's NAME or --all, not both (NAME 'friday' given with --all)\n"
    result = run("stats", "fri", db=db)
    assert result.exit_code == 2 and result.stderr.startswith("Error: no table named 'fri'")


def test_the_help_and_long_names_fit_80_columns(tmp_path):
    db = tmp_path / "t.sqlite3"
    ok("new", "w", "--seat", "E=欧阳长名字", "--seat", "S=司马也很长", "--seat", "W=诸葛更长些",
       "--seat", "N=上官最后一", "--base", "1000", db=db)
    ok("hand", "--fan", "12", "--winner", "N", "--from", "E", "--shaozhuang", "3", "--mutual", "S", db=db)
    for args in (["stats", "--help"], ["stats"], ["stats", "--all"]):
        shown = ok(*args, db=db).stdout
        assert max(len(line) + sum(ord(c) > 0x2E80 for c in line) for line in shown.splitlines()) <= 80, shown


# --- a property: random evenings ------------------------------------------------------------------------------

NAMES = ["老王", "小李", "阿张", "大刘", "小赵", "阿美"]
SEAT = st.sampled_from("ESWN")
# 2 番 at least: a win the dealer takes part in counts 庄 with 推倒和 (beijing.md), as a concealed discard win counts
# 门清无惠 with it (no 惠 declared): an agreed 1 番 is no such hand
WIN = st.tuples(st.just("win"), st.integers(0, 1), SEAT, st.one_of(st.none(), SEAT), st.integers(2, 5),
                st.integers(0, 2), st.one_of(st.none(), SEAT))
DRAW = st.tuples(st.just("draw"), st.integers(0, 1))
MOVE = st.tuples(st.just("seat"), st.integers(0, 1), SEAT, st.sampled_from(NAMES))


def play(ledger, tables, step):
    """One step at one of the tables: a win (maybe with 烧庄 and 互包), a draw, or a person taking a chair (who sits
    there leaves; someone seated elsewhere swaps chairs)."""
    t = ledger.table(tables[step[1]])
    if step[0] == "draw":
        evening.record_draw(ledger, t)
    elif step[0] == "win":
        _, _, winner, source, fan, burn, partner = step
        extras = dict(shaozhuang=burn) if burn else {}
        if partner not in (None, winner):
            extras["mutual"] = (partner,)
        evening.record_quick(ledger, t, Situation(seat=winner, discarder=None if source == winner else source,
                                                  **extras), total=fan)
    else:
        _, _, seat, person = step
        seating = dict(zip("ESWN", t.players))
        if person in t.players:
            seating["ESWN"[t.players.index(person)]] = seating[seat]
        seating[seat] = person
        if seating != dict(zip("ESWN", t.players)):
            evening.seat_players(ledger, t, seating)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(WIN, DRAW, MOVE), max_size=12))
def test_random_evenings_count_the_records_and_net_the_standings(steps):
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Ledger(Path(tmp) / "t.sqlite3")
        for name, players in (("a", NAMES[:4]), ("b", NAMES[2:])):
            evening.create_table(ledger, name, "beijing", dict(zip("ESWN", players)))
        for step in steps:
            play(ledger, ["a", "b"], step)
        tables = [ledger.table("a"), ledger.table("b")]
        evenings = [(t.players, ledger.hands(t), []) for t in tables]
        rows = person_stats(evenings, ["a", "b"])
        for t, (_, hands, _) in zip(tables, evenings):
            alone = {r.player: r for r in person_stats([(t.players, hands, [])])}
            assert [(s.player, s.score) for s in ledger.standings(t)] == [(p, r.net) for p, r in alone.items()]
        hands = [h for _, table_hands, _ in evenings for h in table_hands]

        def by(r, h, seat):  # whether `r` sat at `seat` in `h`
            return seat is not None and h.player(seat) == r.player

        for r in rows:
            assert r.hands == sum(r.player in h.players for h in hands)
            assert r.won == sum(h.kind == "win" and by(r, h, h.winner) for h in hands)
            assert r.self_draws == sum(h.kind == "win" and h.discarder is None and by(r, h, h.winner) for h in hands)
            assert r.deal_ins == sum(by(r, h, h.discarder) for h in hands)
            assert r.net == sum(s.score for t in tables for s in ledger.standings(t) if s.player == r.player)
        assert sum(r.won for r in rows) == sum(h.kind == "win" for h in hands)
        assert sum(r.net for r in rows) == 0
        assert [r.player for r in rows][:4] == list(tables[-1].players)
        ledger.close()
