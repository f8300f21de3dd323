"""The table ledger: session rules, storage, the `mjcalc table` commands, crashes and concurrent writers."""
import json
import os
import random
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcalc.cli import cli
from mjcalc.situation import Situation
from mjcalc import evening
from mjcalc.evening import Ledger
from mjcalc.evening.ledger import VERSION, data_dir
from mjcalc.evening import advance
from mjcalc.session import Session, State
from mjcalc.ruleset import load_ruleset, load_ruleset_file

ROOT = Path(__file__).resolve().parent.parent
EVENING = ROOT / "examples" / "table" / "beijing-evening.txt"
MONEY_EVENING = ROOT / "examples" / "table" / "beijing-money-evening.txt"
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
PLAIN = "123m456p789s234s5m +5m"  # 推倒和 1 + 门清无惠 1: legal by self-draw or on a discard
BJ = Session(dealer_stays_on_win=True, dealer_stays_on_draw=True, shanglou_levels=2, shanglou_until="round_end")


def run(*args, db=None, input=None):
    argv = list(args) + (["--db", str(db)] if db is not None else [])
    return CliRunner().invoke(cli, argv, input=input)


def new_table(db, name="friday", ruleset="beijing", base=1):
    seats = [a for s, p in PLAYERS.items() for a in ("--seat", f"{s}={p}")]
    result = run("table", "new", name, "-r", ruleset, *seats, "--base", str(base), db=db)
    assert result.exit_code == 0, result.output
    return result


def check_ledger(path, name):
    """Every hand is whole and consistent; the standings are the hands' sum and sum to zero. Returns the hands."""
    with Ledger(path) as ledger:
        assert ledger.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        table = ledger.table(name)
        rules = load_ruleset(table.ruleset)
        session = Session.of(rules)
        hands = ledger.hands(table)
        assert [h.number for h in hands] == list(range(1, len(hands) + 1))
        state = State()
        sums = dict.fromkeys("ESWN", 0)
        for h in hands:
            assert h.before == state, h.number
            assert sum(h.deltas.values()) == 0
            if h.kind == "draw":
                assert h.deltas == dict.fromkeys("ESWN", 0) and h.hand is None
            else:
                assert h.hand and h.winner and h.total is not None, h  # 推倒和 is 0 番 in beijing-money
                from mjcalc.analysis import analyze
                from mjcalc.notation import parse_hand
                fields = dict(h.situation)
                for key in ("wild", "mutual", "flown_by", "kongs"):
                    if key in fields:
                        fields[key] = tuple(tuple(v) if isinstance(v, list) else v for v in fields[key])
                again = analyze(parse_hand(h.hand), rules, Situation(**fields))
                assert again.score.total == h.total
                assert again.payout.scaled(h.factor).deltas == h.deltas
            state = advance(state, session, h.winner)
            assert h.after == state, h.number
            for s in sums:
                sums[s] += h.deltas[s]
        standings = {s.seat: s.score for s in ledger.standings(table)}
        assert standings == sums and sum(standings.values()) == 0
        return hands


# --- the session rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize("before, winner, after", [
    pytest.param(State(1, "E", 0, 0), "E", State(1, "E", 1, 0), id="dealer_win_stays"),
    pytest.param(State(1, "E", 2, 0), "S", State(1, "S", 0, 0), id="other_win_passes"),
    pytest.param(State(1, "W", 0, 0), None, State(1, "W", 1, 1), id="draw_stays_and_goes_up"),
    pytest.param(State(1, "W", 1, 1), None, State(1, "W", 2, 2), id="second_draw_x4"),
    pytest.param(State(1, "W", 2, 2), None, State(1, "W", 3, 2), id="at_most_two_levels"),
    pytest.param(State(1, "S", 0, 2), "W", State(1, "W", 0, 2), id="shanglou_lasts_the_round"),
    pytest.param(State(1, "N", 0, 2), "N", State(1, "N", 1, 2), id="north_stays"),
    pytest.param(State(1, "N", 3, 2), "E", State(2, "E", 0, 0), id="north_passes_round_ends"),
])
def test_advance_beijing(before, winner, after):
    assert advance(before, BJ, winner) == after


def test_advance_other_session_rules():
    passes = Session(dealer_stays_on_win=False, dealer_stays_on_draw=False, shanglou_levels=0)
    assert advance(State(1, "E"), passes, "E") == State(1, "S")
    assert advance(State(1, "N"), passes, None) == State(2, "E")
    until_win = Session(shanglou_levels=3, shanglou_until="win")
    assert advance(State(1, "N", 0, 3), until_win, None) == State(1, "N", 1, 3)
    assert advance(State(1, "N", 0, 2), until_win, "N") == State(1, "N", 1, 0)
    on_dealer_win = Session(shanglou_levels=2, shanglou_on_dealer_win=True)
    assert advance(State(1, "E", 0, 0), on_dealer_win, "E") == State(1, "E", 1, 1)
    assert advance(State(1, "E", 1, 1), on_dealer_win, "E") == State(1, "E", 2, 2)
    assert advance(State(1, "E", 2, 2), on_dealer_win, "E") == State(1, "E", 3, 2)  # two levels at most
    assert advance(State(1, "E", 0, 1), on_dealer_win, "S") == State(1, "S", 0, 1)  # another winner: it stays
    assert advance(State(1, "N", 0, 2), on_dealer_win, "E") == State(2, "E", 0, 0)  # the round ends
    # a draw that ends the round still doubles the next hand
    assert advance(State(1, "N", 0, 0), Session(dealer_stays_on_draw=False, shanglou_levels=2), None) == State(2, "E", 0, 1)


def test_beijing_session_from_the_ruleset():
    assert Session.of(load_ruleset("beijing")) == BJ
    # beijing-money: "庄家连庄或荒牌，上楼" — a hand the dealer wins raises 上楼 too
    assert Session.of(load_ruleset("beijing-money")) == Session(True, True, 2, "round_end", True)
    for name in ("zhuji", "shangrao"):  # the dealer stays on a win and on a draw; no 上楼
        assert Session.of(load_ruleset(name)) == Session(True, True, 0, "round_end")


@pytest.mark.parametrize("block, message", [
    pytest.param("  dealer_stays_on_drw: true\n", "bad.yaml:4: session.dealer_stays_on_drw: unknown key "
                 "(did you mean 'dealer_stays_on_draw'?)", id="unknown_key"),
    pytest.param("  shanglou_levels: two\n", "bad.yaml:4: session.shanglou_levels: expected an integer, got 'two'",
                 id="not_an_integer"),
    pytest.param("  shanglou_levels: -1\n", "bad.yaml:4: session.shanglou_levels: must be from 0 to 16, got -1",
                 id="negative"),
    pytest.param("  dealer_stays_on_win: yes please\n", "bad.yaml:4: session.dealer_stays_on_win: expected true "
                 "or false, got 'yes please'", id="not_a_bool"),
    pytest.param("  shanglou_until: hand\n", "bad.yaml:4: session.shanglou_until: expected one of round_end, win, "
                 "got 'hand'", id="not_a_choice"),
])
def test_session_block_is_validated(tmp_path, monkeypatch, block, message):
    from mjcalc.errors import RulesetError
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text(f"extends: beijing\nid: bad\nsession:\n{block}", encoding="utf-8")
    with pytest.raises(RulesetError) as err:
        load_ruleset_file(tmp_path / "bad.yaml")
    assert str(err.value) == message


# --- where the file lives ----------------------------------------------------------------------------------


@pytest.mark.parametrize("platform, env, expect", [
    ("linux", {"XDG_DATA_HOME": "/x/data"}, "/x/data/mjcalc"),
    ("linux", {}, "HOME/.local/share/mjcalc"),
    ("darwin", {}, "HOME/Library/Application Support/mjcalc"),
    ("win32", {"APPDATA": "/c/Users/me/AppData/Roaming"}, "/c/Users/me/AppData/Roaming/mjcalc"),
])
def test_data_dir(monkeypatch, tmp_path, platform, env, expect):
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setenv("HOME", str(tmp_path))
    for key in ("XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert data_dir() == Path(expect.replace("HOME", str(tmp_path)))


def test_mjcalc_db_chooses_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "env.sqlite3"))
    new_table(None)
    assert (tmp_path / "env.sqlite3").is_file()
    assert "friday" in run("table", "list").output


# --- the commands ------------------------------------------------------------------------------------------


def test_new_hand_draw_show_undo_export(tmp_path):
    db = tmp_path / "t.sqlite3"
    out = new_table(db, base=2).output
    assert "老王 deals first" in out
    result = run("table", "hand", "friday", PLAIN, "--winner", "小李", "--from", "老王", "--json", db=db)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # S on the dealer's discard: 推倒和 1 + 门清无惠 1 + 庄 1 = 3, × base 2
    assert data["hand"]["payouts"] == {"E": -6, "S": 6, "W": 0, "N": 0}
    assert data["next"]["dealer"] == "S"
    assert run("table", "draw", "friday", db=db).exit_code == 0
    result = run("table", "hand", "friday", PLAIN, "--winner", "S", db=db)  # dealer S self-draws, 上楼 ×2
    assert result.exit_code == 0, result.output
    assert "上楼 ×2" in result.output
    shown = json.loads(run("table", "show", "friday", "--json", db=db).output)
    assert [s["score"] for s in shown["standings"]] == [-6 - 12, 6 + 36, -12, -12]
    assert shown["next"] == {"hand": 4, "round": 1, "dealer": "S", "dealer_player": "小李", "streak": 2,
                             "shanglou": 1, "factor": 2}
    assert [h["kind"] for h in shown["hands"]] == ["win", "draw", "win"]
    text = run("table", "show", "friday", db=db).output
    assert "next      hand 4, round 1, dealer S 小李 (连庄 2), 上楼 ×2" in text
    csv_text = run("table", "export", "friday", db=db).output.splitlines()
    assert csv_text[0].startswith("hand,round,dealer,streak,factor,kind,winner,from,tiles,total,patterns,老王,小李,")
    assert csv_text[3].split(",")[11:19] == ["-12", "36", "-12", "-12", "-18", "42", "-12", "-12"]
    result = run("table", "undo", "friday", db=db, input="n\n")
    assert result.exit_code == 0 and "nothing removed" in result.output
    result = run("table", "undo", "friday", "--yes", db=db)
    assert result.exit_code == 0 and "removed hand 3" in result.output and "小李 自摸" in result.output
    shown = json.loads(run("table", "show", "friday", "--json", db=db).output)
    assert len(shown["hands"]) == 2 and shown["next"]["streak"] == 1
    listed = run("table", "list", db=db).output
    assert "friday" in listed and "老王 小李 阿张 大刘" in listed
    check_ledger(db, "friday")


def test_the_hand_is_scored_as_analyze_scores_it(tmp_path):
    db = tmp_path / "t.sqlite3"
    new_table(db, base=2000)
    args = ["[111m] 222p 333s EEE 9m +9m", "--shaozhuang", "1"]
    result = run("table", "hand", "friday", *args, "--winner", "老王", "--json", db=db)
    alone = run("analyze", *args, "--seat", "E", "--dealer", "E", "--base", "2000", "--json")
    assert json.loads(result.output)["hand"]["payouts"] == json.loads(alone.output)["payouts"] \
        == {"E": 12000, "S": -4000, "W": -4000, "N": -4000}  # the spec's 实例1


def test_money_table_shanglou_multiplies_after_the_cap(tmp_path):
    db = tmp_path / "t.sqlite3"
    new_table(db, ruleset="beijing-money")
    run("table", "draw", "friday", db=db)
    # E (dealer) self-draws 清一色 七对: capped at 6 番, 20·64 = 1280 > 640 → each pays 640, ×2 for 上楼
    result = run("table", "hand", "friday", "1122334455667m +7m", "--winner", "E", "--json", db=db)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hand"]["payouts"] == {"E": 3840, "S": -1280, "W": -1280, "N": -1280}


@pytest.mark.parametrize("args, message", [
    pytest.param(["hand", "nobody", PLAIN, "--winner", "S"], "Error: no table named 'nobody' in DB (tables: friday)",
                 id="unknown_table"),
    pytest.param(["show", "fridya"], "Error: no table named 'fridya' in DB (did you mean 'friday'?)", id="table_typo"),
    pytest.param(["hand", "friday", PLAIN, "--winner", "老张"],
                 "Error: unknown player '老张' at table 'friday' (players: E 老王, S 小李, W 阿张, N 大刘)",
                 id="unknown_player"),
    pytest.param(["hand", "friday", PLAIN, "--winner", "S", "--from", "小黎"],
                 "Error: unknown player '小黎' at table 'friday' (players: E 老王, S 小李, W 阿张, N 大刘)", id="unknown_discarder"),
    pytest.param(["hand", "friday", PLAIN], "Error: who won? give --winner PLAYER (a name or a seat)", id="no_winner"),
    pytest.param(["hand", "friday", PLAIN, "--winner", "S", "--dealer", "E"],
                 "Error: --dealer: the table keeps the dealer; leave it out", id="dealer_given"),
    pytest.param(["hand", "friday", "[123m] 456p 789s 234s 5m +5m", "--winner", "S", "--from", "E"],
                 "Error: not a legal win: 吃碰堤: a hand with an exposed meld (吃/碰/明杠) may not win on a discard; it must self-draw; "
                 "nothing recorded", id="illegal_win"),
    pytest.param(["hand", "friday", "123m456p789s234s5m"], None, id="thirteen_tiles"),
    pytest.param(["hand", "friday", "123m456p789s234s5m +E", "--winner", "S"], None, id="not_complete"),
    pytest.param(["new", "friday", "--seat", "E=a", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"],
                 "Error: a table named 'friday' already exists in DB", id="duplicate_table"),
    pytest.param(["new", "x", "--seat", "E=a", "--seat", "S=b", "--seat", "W=c"],
                 "Error: a table needs four players: no player for N (--seat N=NAME)", id="three_players"),
    pytest.param(["new", "x", "--seat", "E=a", "--seat", "S=a", "--seat", "W=c", "--seat", "N=d"],
                 "Error: two players named 'a': give each a different name", id="same_name"),
    pytest.param(["new", "x", "--seat", "E=S", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"],
                 "Error: --seat E=S: a player may not be named like a seat (E S W N)", id="named_like_a_seat"),
    pytest.param(["new", "x", "--seat", "X=a"], "Error: --seat takes SEAT=PLAYER like E=老王 or 东=老王, got 'X=a'", id="bad_seat"),
    pytest.param(["new", "x", "-r", "nope", "--seat", "E=a", "--seat", "S=b", "--seat", "W=c", "--seat", "N=d"],
                 None, id="unknown_ruleset"),
    pytest.param(["undo", "friday", "--yes"], "Error: table 'friday' has no hands to undo", id="nothing_to_undo"),
])
def test_usage_errors_are_one_line_exit_2(tmp_path, args, message):
    db = tmp_path / "t.sqlite3"
    new_table(db)
    result = run("table", *args, db=db)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    if message:
        assert lines[0] == message.replace("DB", str(db))
    assert check_ledger(db, "friday") == []


def test_a_file_from_a_newer_mjcalc(tmp_path):
    db = tmp_path / "t.sqlite3"
    new_table(db)
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {VERSION + 1}")
    result = run("table", "show", "friday", db=db)
    assert result.exit_code == 1
    assert result.output == (f"Error: {db}: made by a newer mjcalc (ledger schema version {VERSION + 1}; this mjcalc "
                             f"reads up to {VERSION}): upgrade mjcalc to use it\n")


def test_a_corrupt_file(tmp_path):
    db = tmp_path / "t.sqlite3"
    db.write_bytes(b"these are not the tables you are looking for\n" * 100)
    result = run("table", "list", db=db)
    assert result.exit_code == 1
    assert result.output == f"Error: {db}: not a readable ledger file (file is not a database)\n"
    assert db.read_bytes().startswith(b"these are not")  # left as it was


def test_a_truncated_ledger(tmp_path):
    db = tmp_path / "t.sqlite3"
    new_table(db)
    for _ in range(3):
        run("table", "hand", "friday", PLAIN, "--winner", "S", db=db)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    db.write_bytes(data[:100] + b"\xff" * 200 + data[300:])
    result = run("table", "show", "friday", db=db)
    assert result.exit_code == 1 and result.output.count("\n") == 1 and result.output.startswith(f"Error: {db}: ")


def test_someone_elses_sqlite_file(tmp_path):
    db = tmp_path / "t.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER)")
    result = run("table", "list", db=db)
    assert result.exit_code == 1
    assert result.output == f"Error: {db}: an SQLite file of something else, not an mjcalc ledger\n"


def test_a_directory_is_not_a_ledger(tmp_path):
    result = run("table", "list", db=tmp_path)
    assert result.exit_code == 1 and result.output == f"Error: {tmp_path}: is a directory, not a ledger file\n"


def test_an_older_file_is_migrated(tmp_path):
    db = tmp_path / "t.sqlite3"
    with Ledger(db, target=1) as old:
        assert old.version == 1
        old.db.execute("INSERT INTO tables (name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, "
                       "created) VALUES ('friday', 'beijing', 'beijing', 2, '老王', '小李', '阿张', '大刘', "
                       "'2024-01-01T19:00:00+00:00')")
        table_id = old.db.execute("SELECT id FROM tables WHERE name = 'friday'").fetchone()[0]
        old.db.execute(
            "INSERT INTO hands (table_id, number, round, dealer, streak, level, kind, hand, winner, discarder, total, "
            "situation, d_e, d_s, d_w, d_n, next_round, next_dealer, next_streak, next_level, recorded) VALUES "
            "(?, 1, 1, 'E', 0, 0, 'win', ?, 'S', 'E', 3, ?, -6, 6, 0, 0, 1, 'S', 0, 0, '2024-01-01T20:00:00+00:00')",
            (table_id, "1235m 456p 234789s +5m", json.dumps({"seat": "S", "dealer": "E", "discarder": "E", "base": 2})))
    result = run("table", "show", "friday", "--json", db=db)
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["hands"][0]["payouts"] == {"E": -6, "S": 6, "W": 0, "N": 0} and shown["hands"][0]["patterns"] == []
    with Ledger(db) as ledger:
        assert ledger.version == VERSION
    assert run("table", "hand", "friday", PLAIN, "--winner", "S", db=db).exit_code == 0
    assert len(json.loads(run("table", "show", "friday", "--json", db=db).output)["hands"]) == 2



def test_a_version_2_file_is_migrated_to_keep_its_rules(tmp_path):
    """Version 3 adds the table's kept rules, how each hand was entered and the settings: a version-2 table
    takes its file's rules on first use and keeps them; its wins are marked as entered from tiles."""
    db = tmp_path / "t.sqlite3"
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: house\n", encoding="utf-8")
    with Ledger(db, target=2) as old:
        old.db.execute("INSERT INTO tables (name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, "
                       "created) VALUES ('friday', ?, 'house', 2, '老王', '小李', '阿张', '大刘', "
                       "'2024-01-01T19:00:00+00:00')", (str(house),))
        table_id = old.db.execute("SELECT id FROM tables").fetchone()[0]
        old.db.execute(
            "INSERT INTO hands (table_id, number, round, dealer, streak, level, kind, hand, winner, discarder, total, "
            "situation, d_e, d_s, d_w, d_n, next_round, next_dealer, next_streak, next_level, recorded) VALUES "
            "(?, 1, 1, 'E', 0, 0, 'win', ?, 'S', 'E', 3, ?, -6, 6, 0, 0, 1, 'S', 0, 0, '2024-01-01T20:00:00+00:00')",
            (table_id, "1235m 456p 234789s +5m", json.dumps({"seat": "S", "dealer": "E", "from": "E", "base": 2})))
        assert old.version == 2
    with Ledger(db) as ledger:
        assert ledger.version == VERSION == 7
        table = ledger.table("friday")
        assert table.rules is None and ledger.hands(table)[0].entry == "tiles"
        assert ledger.hands(table)[0].payments == ()  # 7: a hand of an older file read no payment of its deal
        assert ledger.setting("table") is None
        rules = evening.table_rules(table, ledger)  # read once, then kept
        assert rules.id == "house" and ledger.table("friday").rules is not None
    house.unlink()  # the file is gone: the table still plays
    result = run("table", "hand", "friday", PLAIN, "--winner", "S", "--json", db=db)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hand"]["payouts"] == {"E": -6, "S": 18, "W": -6, "N": -6}


# --- the standings are the hands' sum ----------------------------------------------------------------------

EVENTS = st.lists(st.one_of(
    st.just(None),  # a drawn hand
    st.tuples(st.sampled_from("ESWN"), st.sampled_from(["self", "E", "S", "W", "N"])),
), max_size=25)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=EVENTS, base=st.integers(1, 5))
def test_standings_always_sum_the_hands(tmp_path_factory, events, base):
    db = tmp_path_factory.mktemp("prop") / "t.sqlite3"
    with Ledger(db) as ledger:
        table = evening.create_table(ledger, "t", "beijing", PLAYERS, base)
        for event in events:
            if event is None:
                evening.record_draw(ledger, table)
                continue
            winner, source = event
            if source == winner:
                source = "self"
            evening.record_win(ledger, table, PLAIN, Situation(seat=winner, discarder=None if source == "self" else source))
            standings = {s.seat: s.score for s in ledger.standings(table)}
            assert sum(standings.values()) == 0
    hands = check_ledger(db, "t")
    assert len(hands) == len(events)


# --- the evening, worked by hand ---------------------------------------------------------------------------


def _evening(path=EVENING):
    commands = []
    for line in path.read_text(encoding="utf-8").splitlines():
        command, _, comment = line.partition("#")
        if not command.strip():
            continue
        expect = None
        if comment.strip().startswith("=>"):
            expect = [int(x) for x in comment.strip()[2:].split()[:4]]
        commands.append((shlex.split(command), expect))
    text = path.read_text(encoding="utf-8")
    standings = dict(re.findall(r"(\S+) (-?\d+)", re.search(r"# expect standings: (.*)", text).group(1)))
    return commands, {k: int(v) for k, v in standings.items()}


def replay(commands, db):
    """Run an evening's commands; each recorded hand must pay what the evening file worked out by hand."""
    for argv, expect in commands:
        extra = ["--json", "--yes"] if argv[:2] in (["table", "hand"], ["table", "draw"]) else []  # one terminal
        result = run(*argv, *extra, db=db)
        assert result.exit_code == 0, (argv, result.output)
        if expect is not None:
            assert list(json.loads(result.output)["hand"]["payouts"].values()) == expect, argv


def test_the_beijing_evening(tmp_path):
    db = tmp_path / "evening.sqlite3"
    commands, standings = _evening()
    assert sum(1 for c, e in commands if e is not None) == 20
    replay(commands, db)
    shown = json.loads(run("table", "show", "evening", "--json", db=db).output)
    assert {s["player"]: s["score"] for s in shown["standings"]} == standings
    assert shown["next"] == {"hand": 21, "round": 3, "dealer": "E", "dealer_player": "老王", "streak": 1,
                             "shanglou": 0, "factor": 1}
    assert [h["factor"] for h in shown["hands"]] == [1] * 6 + [2] * 3 + [1] * 4 + [2] + [4] * 5 + [1]
    hands = check_ledger(db, "evening")
    assert sum(1 for h in hands if h.kind == "draw") == 4
    assert max(h.streak for h in hands) == 4


def test_the_beijing_money_evening(tmp_path):
    db = tmp_path / "money.sqlite3"
    commands, standings = _evening(MONEY_EVENING)
    assert sum(1 for c, e in commands if e is not None) == 10
    replay(commands, db)
    shown = json.loads(run("table", "show", "money", "--json", db=db).output)
    assert {s["player"]: s["score"] for s in shown["standings"]} == standings
    assert shown["next"] == {"hand": 11, "round": 2, "dealer": "S", "dealer_player": "小李", "streak": 1,
                             "shanglou": 1, "factor": 2}
    assert [h["factor"] for h in shown["hands"]] == [1, 2, 4, 4, 4, 4, 4, 4, 1, 1]
    # the ledger keeps the hand text with its claimed-from seat: hand 7 scores again to the same kong money
    hands = check_ledger(db, "money")
    assert hands[6].hand.endswith("[5555p]W +5m") and hands[6].deltas == {"E": -40, "S": -40, "W": -90, "N": 170}


# --- crashes and concurrent writers ------------------------------------------------------------------------

def child_env():
    """The environment for a writer in another process, read when it starts (never copied at import time)."""
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

LOOP_WRITER = """
import random, sys
from mjcalc.situation import Situation
from mjcalc import evening
from mjcalc.evening import Ledger
ledger = Ledger(sys.argv[1])
table = ledger.table("t")
while True:
    if random.random() < 0.15:
        evening.record_draw(ledger, table)
    else:
        winner = random.choice("ESWN")
        source = random.choice([None] + [s for s in "ESWN" if s != winner])
        evening.record_win(ledger, table, "123m456p789s234s5m +5m", Situation(seat=winner, discarder=source))
    print("ok", flush=True)
"""


def _cli_writer(db, winner="S", source=None):
    args = [sys.executable, "-m", "mjcalc", "table", "hand", "t", PLAIN, "--winner", winner, "--db", str(db), "--json",
            "--yes"]  # writers entering equal hands on purpose
    return args + (["--from", source] if source else [])


def _acknowledged(out):
    """The hand a command-line writer said it recorded (its --json answer), as (number, winner, payouts)."""
    hand = json.loads(out)["hand"]
    return hand["number"], hand["winner"], hand["payouts"]


@pytest.mark.slow
def test_killed_writers_leave_whole_hands(tmp_path):
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        evening.create_table(ledger, "t", "beijing", PLAYERS, 1)
    rng = random.Random(7)
    acknowledged = killed = 0
    said = []  # what each command-line writer that finished said it recorded
    deadline = time.monotonic() + 60  # 16 rounds take ~10 s; a loaded machine needs longer
    rounds = 0
    while time.monotonic() < deadline and rounds < 16:
        rounds += 1
        if rounds % 2:  # a writer that records hands as fast as it can, killed in the middle of one
            proc = subprocess.Popen([sys.executable, "-c", LOOP_WRITER, str(db)], env=child_env(), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            first = proc.stdout.readline()  # it is writing: kill it a moment later, most likely inside a hand
            assert first == "ok\n", proc.stderr.read() if not first else first
            acknowledged += 1
            time.sleep(rng.uniform(0.0, 0.3))
        else:  # the command line itself, killed at some point of its short life
            proc = subprocess.Popen(_cli_writer(db, rng.choice("ESWN")), env=child_env(), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        out, err = proc.stdout.read(), proc.stderr.read()  # not communicate(): it would skip what readline buffered
        proc.wait()
        if proc.returncode == -signal.SIGKILL:
            killed += 1
            if rounds % 2:
                acknowledged += out.count("ok\n")
        else:
            assert proc.returncode == 0, err
            acknowledged += 1
            said.append(_acknowledged(out))
        hands = check_ledger(db, "t")
        recorded = {h.number: (h.number, h.winner, h.deltas) for h in hands}
        assert all(recorded.get(number) == (number, winner, payouts) for number, winner, payouts in said)
        # every acknowledged hand is there; at most one more per killed writer (committed, not yet printed)
        assert acknowledged <= len(hands) <= acknowledged + killed
    assert killed >= 8 and acknowledged >= 10


@pytest.mark.slow
def test_two_writers_at_once(tmp_path):
    db = tmp_path / "t.sqlite3"
    procs = [subprocess.Popen([sys.executable, "-m", "mjcalc", "table", "new", f"t{i}" if i else "t",
                               *[a for s, p in PLAYERS.items() for a in ("--seat", f"{s}={p}")], "--db", str(db)],
                              env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(3)]
    for proc in procs:  # three at once on a file that does not exist yet: one creates it, the others wait
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    procs = []
    for i in range(12):
        procs.append(subprocess.Popen(_cli_writer(db, "ESWN"[i % 4], "ESWN"[(i + 1) % 4] if i % 3 else None),
                                      env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        if i % 4 == 3:
            procs.append(subprocess.Popen([sys.executable, "-m", "mjcalc", "table", "show", "t", "--db", str(db)],
                                          env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    said = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert err == ""
        if out.startswith('{') and '"event": "hand"' in out:
            said.append(_acknowledged(out))
    hands = check_ledger(db, "t")
    assert len(hands) == 12 and sorted(n for n, _, _ in said) == list(range(1, 13))
    recorded = {h.number: (h.number, h.winner, h.deltas) for h in hands}
    assert all(recorded[number] == (number, winner, payouts) for number, winner, payouts in said)


@pytest.mark.parametrize("base, message", [(0, "Error: --base: must be from 1 to 1000000, got 0"),
                                           (2_000_000, "Error: --base: must be from 1 to 1000000, got 2000000")])
def test_a_table_is_never_opened_with_a_base_no_hand_can_be_scored_at(tmp_path, base, message):
    seats = [a for s, p in PLAYERS.items() for a in ("--seat", f"{s}={p}")]
    result = run("table", "new", "t", *seats, "--base", str(base), db=tmp_path / "l.sqlite3")
    assert result.exit_code == 2 and result.stderr.strip().splitlines()[-1] == message
    assert "no tables yet" in run("table", "list", db=tmp_path / "l.sqlite3").output


def test_the_hand_record_is_spelled_once_and_its_rows_read_by_name(tmp_path):
    """HandRecord's fields are the hands table's columns (a column per seat for the payouts, per part for the
    state after), derived from the dataclass and nowhere else; a row read back, the log's JSON of it and the
    record are one value; and a column added to the table in any order is still read by its name."""
    from dataclasses import fields
    from mjcalc.evening.ledger import HAND_COLUMNS, HandRecord
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        table = evening.create_table(ledger, "t", "beijing", PLAYERS, 2)
        evening.record_win(ledger, table, PLAIN, Situation(seat="S", discarder="W"))
        evening.record_draw(ledger, table)
        hands = ledger.hands(ledger.table("t"))
    with sqlite3.connect(db) as raw:
        stored = [r[1] for r in raw.execute("PRAGMA table_info(hands)")]
    assert set(stored) - {"id", "table_id"} == set(HAND_COLUMNS)
    assert {f.name for f in fields(HandRecord)} - {"deltas", "after"} < set(HAND_COLUMNS)
    assert [HandRecord.of(h.to_json()) for h in hands] == hands
    assert hands[0].winner == "S" and sum(hands[0].deltas.values()) == 0 and hands[1].kind == "draw"
    from mjcalc.evening.ledger import MIGRATIONS
    names = [m.name for m in MIGRATIONS]  # each step of the schema named, once
    assert len(set(names)) == len(names) == VERSION and all(re.fullmatch(r"[a-z]+(-[a-z]+)*", n) for n in names)
    with sqlite3.connect(db) as raw:  # a later column, placed before the others: reads stay by name
        raw.execute("ALTER TABLE hands ADD COLUMN aaa_later TEXT")
    with Ledger(db) as ledger:
        assert ledger.hands(ledger.table("t")) == hands
