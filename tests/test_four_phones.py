"""Issue 23: one evening on four phones — the live view (ETag, 304), no duplicates, penalties, closing a table,
settling in money, export that comes back, and the API that says its version. The page's side is in
tests/test_e2e_evening.py; statistics in tests/test_stats.py."""
import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcalc import evening
from mjcalc.cli import cli
from mjcalc.evening import Ledger, LedgerError
from mjcalc.evening.exchange import export_json, import_table
from mjcalc.evening.replay import replay
from mjcalc.situation import Situation
from test_serve import api, request, start, stop

PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}


def run(*args, db, input=None):
    return CliRunner().invoke(cli, ["table", *args, "--db", str(db)], input=input)


def opened(tmp_path, ruleset="beijing", base=1, name="t"):
    db = tmp_path / "t.sqlite3"
    ledger = Ledger(db)
    t = evening.create_table(ledger, name, ruleset, PLAYERS, base)
    ledger.set_setting("table", name)  # in use, as `table new` leaves it
    return db, ledger, t


def agreed(ledger, t, seat, total=2, discarder=None):
    return evening.record_quick(ledger, t, Situation(seat=seat, discarder=discarder), total=total)[0]


def scores(ledger, t):
    return {s.player: s.score for s in ledger.standings(t)}


def check_cache(ledger, t):
    """The hands and penalties the ledger keeps are its log replayed (no scorer), and the standings sum to 0."""
    replayed = replay(ledger.events(t))
    assert [evening.HandRecord.of(h) for h in replayed.hands] == ledger.hands(t)
    assert [evening.PenaltyRecord.of(p) for p in replayed.penalties] == ledger.penalties(t)
    assert sum(s.score for s in ledger.standings(t)) == 0


@pytest.fixture
def server(tmp_path):
    srv = start(tmp_path)
    yield srv
    stop(srv)


# --- the live view ------------------------------------------------------------------------------------------


def test_a_table_view_answers_304_until_a_write_from_anywhere_changes_it(server):
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    for path in ("/api/tables/t", "/api/tables/t/standings"):
        status, headers, body = request(server, "GET", path)
        tag = headers["ETag"]
        assert status == 200 and tag.startswith('W/"') and headers["Cache-Control"] == "no-cache"
        status, headers, body = request(server, "GET", path, headers={"If-None-Match": tag})
        assert status == 304 and body == b"" and headers["ETag"] == tag
        assert request(server, "GET", path, headers={"If-None-Match": f'"other", {tag}'})[0] == 304
        assert request(server, "GET", path, headers={"If-None-Match": '"other"'})[0] == 200
    _, headers, _ = request(server, "GET", "/api/tables/t")
    tag = headers["ETag"]
    # a write from the command line changes the tag: the phones see it on their next poll
    assert run("hand", "t", "--fan", "2", "--winner", "小李", db=server.lib.db_path).exit_code == 0
    status, headers, body = request(server, "GET", "/api/tables/t", headers={"If-None-Match": tag})
    assert status == 200 and headers["ETag"] != tag and len(json.loads(body)["hands"]) == 1
    # another request's answers keep no-store
    assert request(server, "GET", "/api/rulesets")[1]["Cache-Control"] == "no-store"


def test_a_table_made_again_under_its_name_never_answers_304_to_the_old_tag(server):
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    tag = request(server, "GET", "/api/tables/t")[1]["ETag"]
    assert run("delete", "t", "--yes", db=server.lib.db_path).exit_code == 0
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    assert request(server, "GET", "/api/tables/t", headers={"If-None-Match": tag})[0] == 200


def test_the_api_says_its_version(server):
    status, doc = api(server, "GET", "/api/rulesets")
    assert status == 200 and doc["api_version"] == 2 and doc["version"]


# --- no duplicates ------------------------------------------------------------------------------------------


def test_the_same_hand_from_a_second_phone_is_asked_about_and_recorded_when_confirmed(server):
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    hand = {"total": 2, "winner": "小李", "from": "老王"}
    assert api(server, "POST", "/api/tables/t/hand", dict(hand, client_id="phone-a"))[0] == 200
    status, doc = api(server, "POST", "/api/tables/t/hand", dict(hand, client_id="phone-b"))
    assert status == 409 and doc["code"] == "record.duplicate" and doc["duplicate_of"] == 1
    assert doc["params"]["hand_id"] and "from another phone" in doc["error"]
    assert len(api(server, "GET", "/api/tables/t")[1]["hands"]) == 1  # nothing recorded
    status, doc = api(server, "POST", "/api/tables/t/hand", dict(hand, client_id="phone-b", confirm_duplicate=True))
    assert status == 200 and doc["hand"]["number"] == 2
    # the same phone entering the same hand again meant it; so does another hand
    assert api(server, "POST", "/api/tables/t/hand", dict(hand, client_id="phone-b"))[0] == 200
    assert api(server, "POST", "/api/tables/t/hand", dict(hand, total=3, client_id="phone-c"))[0] == 200
    # a draw twice from two phones, alike
    assert api(server, "POST", "/api/tables/t/draw", {"client_id": "phone-a"})[0] == 200
    status, doc = api(server, "POST", "/api/tables/t/draw", {"client_id": "phone-b"})
    assert status == 409 and doc["duplicate_of"] == 5


def test_the_command_line_refuses_a_repeat_without_yes_and_a_retry_is_no_duplicate(tmp_path):
    db, ledger, t = opened(tmp_path)
    first = run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", "--request-id", "r1", db=db)
    assert first.exit_code == 0, first.output
    again = run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", db=db)
    assert again.exit_code == 2 and again.stderr == \
        "Error: the same as hand 1, just recorded elsewhere: not again without --yes\n", again.output
    # a retry of the first request is that request (it answers as it did, and records nothing): no question
    assert run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", "--request-id", "r1", db=db).exit_code == 0
    assert len(ledger.hands(t)) == 1
    assert run("hand", "--fan", "2", "--winner", "小李", "--from", "老王", "--yes", db=db).exit_code == 0
    assert len(ledger.hands(t)) == 2


def test_a_repeat_after_a_minute_is_an_ordinary_hand(tmp_path, monkeypatch):
    db, ledger, t = opened(tmp_path)
    assert run("hand", "--fan", "2", "--winner", "小李", db=db).exit_code == 0
    monkeypatch.setattr(evening.record, "DUPLICATE_SECONDS", 0)
    assert run("hand", "--fan", "2", "--winner", "小李", db=db).exit_code == 0


# --- penalties ----------------------------------------------------------------------------------------------


def test_a_false_win_in_the_competition_rules_pays_each_player_a_four_fan_hand(tmp_path):
    """beijing-classic: 诈和 "按照满贯（四番）牌的比率赔付给每个人": 4 番 × 1000 points × 底分 2 = 8000 to each of
    the three others; 罚分: the text's 1000 points × 2, to the one player named."""
    db, ledger, t = opened(tmp_path, "beijing-classic", base=2)
    agreed(ledger, t, "S", 2, discarder="E")  # 2 番 × 1000 × 2, broken 门清 not known: 老王 −4000, 小李 +4000
    result = run("penalty", "诈和", "--player", "老王", "--reason", "没听牌就推倒", "--json", db=db)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["penalty"]["payouts"] == {"E": -24000, "S": 8000, "W": 8000, "N": 8000}
    assert doc["penalty"]["after_hand"] == 1 and doc["penalty"]["reason"] == "没听牌就推倒"
    assert run("penalty", "罚分", "--player", "阿张", "--to", "大刘", db=db).exit_code == 0
    assert scores(ledger, t) == {"老王": -28000, "小李": 12000, "阿张": 6000, "大刘": 10000}
    # no hand number, the deal does not move: the next hand is hand 2, dealt by 小李 (the dealer lost hand 1)
    t = ledger.table("t")
    assert len(ledger.hands(t)) == 1 and t.state.dealer == "S"
    shown = run("show", db=db).output
    assert "penalty after hand 1: 诈和, 老王 -24000, 8000 to each other player (revision 3)\n" \
           "          — 没听牌就推倒\n" in shown
    check_cache(ledger, t)


def test_a_false_win_with_hunr_pays_twenty_to_each_other_player(tmp_path):
    """beijing-hunr: 诈胡 "按照每人20番赔偿另外三位选手": 20 (点) × 底分 1 to each of the three others."""
    db, ledger, t = opened(tmp_path, "beijing-hunr")
    written = evening.record_penalty(ledger, t, "诈胡", "小李")
    assert written.penalty.deltas == {"E": 20, "S": -60, "W": 20, "N": 20}


def test_a_penalty_is_taken_back_by_revert_and_stays_between_the_hands_it_fell_between(tmp_path):
    db, ledger, t = opened(tmp_path, "beijing-classic")
    agreed(ledger, t, "S", 1)
    agreed(ledger, t, "W", 1)
    penalty = evening.record_penalty(ledger, t, "false_win", "老王").penalty
    agreed(ledger, t, "N", 1)
    assert penalty.after_hand == 2 and penalty.revision == 4
    evening.undo_hand(ledger, t, ledger.hands(t)[0].hand_id)  # an earlier hand goes: it is after hand 1 now
    assert ledger.penalties(t)[0].after_hand == 1
    assert run("revert", "4", "--yes", db=db).exit_code == 0
    assert ledger.penalties(t) == []
    assert run("revert", "4", "--yes", db=db).exit_code == 2  # once
    check_cache(ledger, t)


@pytest.mark.parametrize("args, code", [
    (["诈和", "--player", "老王"], "record.no_penalties"),  # beijing declares none
])
def test_a_ruleset_without_penalties_says_so(tmp_path, args, code):
    db, ledger, t = opened(tmp_path)
    with pytest.raises(LedgerError) as refused:
        evening.record_penalty(ledger, t, args[0], args[2])
    assert refused.value.code == code
    assert run("penalty", *args, db=db).exit_code == 2 and ledger.events(t)[-1][0] == "open"


@pytest.mark.parametrize("fields, code", [
    ({"penalty": "罚分", "player": "老王"}, "record.penalty_needs_to"),
    ({"penalty": "罚分", "player": "老王", "to": "老王"}, "record.penalty_to_self"),
    ({"penalty": "诈和", "player": "老王", "to": "小李"}, "record.penalty_pays_each"),
    ({"penalty": "zhahe", "player": "老王"}, "record.no_penalty"),
    ({"penalty": "诈和", "player": "nobody"}, "ledger.unknown_player"),
    ({"penalty": "诈和", "player": "老王", "reason": "x" * 201}, "record.reason_too_long"),
])
def test_a_refused_penalty_is_refused_alike_by_the_api_and_the_command_line(server, fields, code):
    api(server, "POST", "/api/tables", {"name": "c", "ruleset": "beijing-classic", "players": PLAYERS})
    status, doc = api(server, "POST", "/api/tables/c/penalty", fields)
    assert status == 400 and doc["code"] == code, doc
    args = ["penalty", "c", fields["penalty"], "--player", fields["player"]]
    args += ["--to", fields["to"]] if "to" in fields else []
    args += ["--reason", fields["reason"]] if "reason" in fields else []
    result = run(*args, db=server.lib.db_path)
    assert result.exit_code == 2 and doc["error"].endswith(result.stderr.strip().removeprefix("Error: ")), result.output
    assert len(api(server, "GET", "/api/tables/c")[1]["penalties"]) == 0


def test_a_house_ruleset_declares_its_penalties_and_a_typo_is_an_error(tmp_path):
    from mjcalc.errors import RulesetError
    from mjcalc.ruleset import load_ruleset
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: house\npenalties:\n  false_win:\n    name: {zh: 诈和}\n    total: 3\n",
                     encoding="utf-8")
    rules = load_ruleset(str(house))
    assert [(p.id, p.zh, p.total, p.pays) for p in rules.penalties] == [("false_win", "诈和", 3, "each")]
    for body, said in (("    total: 3\n    points: 5\n", "needs one of points"), ("    pays: all\n    total: 3\n", "pays"),
                       ("    totl: 3\n", "totl")):
        house.write_text("extends: beijing\nid: house\npenalties:\n  false_win:\n" + body, encoding="utf-8")
        with pytest.raises(RulesetError, match=said):
            load_ruleset(str(house))


# --- closing, settling in money -------------------------------------------------------------------------------


def test_a_closed_table_takes_no_write_until_reopened_and_reopening_asks(tmp_path, server):
    db = server.lib.db_path
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    assert api(server, "POST", "/api/tables/t/hand", {"total": 2, "winner": "小李"})[0] == 200
    status, doc = api(server, "POST", "/api/tables/t/close", {"closed": True})
    assert status == 200 and doc["closed"] is True
    for path, body in (("hand", {"total": 1, "winner": "老王"}), ("draw", {}),
                       ("undo", {"hand_id": doc["hands"][0]["hand_id"]}), ("dealer", {"dealer": "阿张"})):
        status, refused = api(server, "POST", f"/api/tables/t/{path}", body)
        assert status == 409 and refused["code"] == "ledger.table_closed", (path, refused)
    for args in (["hand", "t", "--fan", "1", "--winner", "老王"], ["draw", "t"], ["undo", "t", "--yes"],
                 ["seat", "t", "南=阿美"], ["penalty", "t", "x", "--player", "老王"]):
        result = run(*args, db=db)
        assert result.exit_code == 2 and "is closed" in result.stderr and "--reopen" in result.stderr, args
    assert run("close", "t", "--reopen", db=db, input="n\n").exit_code == 0
    assert api(server, "GET", "/api/tables/t")[1]["closed"] is True
    assert run("close", "t", "--reopen", db=db, input="y\n").exit_code == 0
    assert api(server, "POST", "/api/tables/t/draw", {})[0] == 200


def test_settle_in_money_rounds_each_transfer_to_the_cent_half_up(tmp_path):
    db, ledger, t = opened(tmp_path, base=143)
    agreed(ledger, t, "S", 7, discarder="W")  # 阿张 pays 小李 7 × 143 = 1001 (no 庄: an agreed total is the table's word)
    result = run("settle", "--rate", "0.005", "--json", db=db)
    doc = json.loads(result.stdout)
    assert doc["transfers"] == [{"from": "阿张", "to": "小李", "amount": 1001, "money": "5.01"}]  # 5.005 → 5.01
    assert doc["rounding"] == "each transfer to 0.01, half up"
    assert "阿张 pays 小李 1001 points = 5.01" in run("settle", "--rate", "0.005", db=db).output
    for bad in ("0", "-1", "x", "nan", "1e9"):
        refused = run("settle", "--rate", bad, db=db)
        assert refused.exit_code == 2 and refused.stderr.startswith("Error: --rate: a rate is money per point"), bad


# --- export that comes back -----------------------------------------------------------------------------------


def _exported(ledger, name):
    doc = export_json(ledger, name)
    doc.pop("exported")
    return doc


def test_export_import_export_gives_the_same_document(tmp_path):
    db, ledger, t = opened(tmp_path, "beijing-classic")
    agreed(ledger, t, "S", 2, discarder="E")
    evening.record_penalty(ledger, t, "诈和", "阿张", reason="诈和")
    evening.seat_players(ledger, t, evening.seating_with(t.players, {"S": "阿美"}))
    agreed(ledger, t, "S", 3)
    evening.adopt_rules(ledger, ledger.table("t"), "beijing")
    agreed(ledger, ledger.table("t"), "W", 2, discarder="S")  # S deals: 推倒和 1 + 庄 1 at least
    first = _exported(ledger, "t")
    assert first["format"] == 1 and len(first["rules"]) == 2 and [e["kind"] for e in first["seat_events"]] == [
        "open", "seat"]
    with Ledger(tmp_path / "other.sqlite3") as other:
        imported = import_table(other, json.loads(json.dumps(first)))
        assert _exported(other, "t") == first
        assert other.standings(imported) == ledger.standings(t) and other.hands(imported) == ledger.hands(t)
        assert other.log(imported) == [dict(e, request_id=None) for e in ledger.log(t)]
        check_cache(other, imported)
        # the imported table goes on as the original would
        agreed(other, imported, "N", 1)
        agreed(ledger, ledger.table("t"), "N", 1)
        assert [h.deltas for h in other.hands(imported)] == [h.deltas for h in ledger.hands(t)]
    with pytest.raises(LedgerError, match="already exists"):
        import_table(ledger, first)
    copy = import_table(ledger, first, "t-copy")
    assert [s.__dict__ for s in ledger.standings(copy)] == [dict(s, seat=s["seat"]) for s in first["standings"]]


@pytest.mark.parametrize("damage, said", [
    (lambda d: d["hands"][0]["payouts"].update(E=-3), "its hands are not the ones its log makes"),
    (lambda d: d["log"][1]["data"]["records"][0]["deltas"].update(E=-3), "sum to zero"),
    (lambda d: d["log"][1]["data"]["records"][0]["deltas"].update(E="-2", S="2"), "not four whole numbers"),
    (lambda d: d["log"].pop(1), "log entry 2 is not an event"),
    (lambda d: d["rules"].update({k: dict(v, cap=3) for k, v in d["rules"].items()}), "not the rules with that"),
    (lambda d: d["rules"].clear(), "are not in it"),
    (lambda d: d["standings"][0].update(score=99), "its standings are not"),
    (lambda d: d.update(format=2), "not an mjcalc table export"),
    (lambda d: d["table"].update(next={"round": 9}), "its next hand is not"),
    (lambda d: d["log"][1]["data"]["records"].clear(), "does not replay"),
])
def test_a_damaged_export_is_refused_whole(tmp_path, damage, said):
    db, ledger, t = opened(tmp_path)
    agreed(ledger, t, "S", 2, discarder="E")
    agreed(ledger, t, "W", 1)
    doc = json.loads(json.dumps(export_json(ledger, "t")))
    damage(doc)
    with Ledger(tmp_path / "other.sqlite3") as other:
        with pytest.raises(LedgerError, match=said):
            import_table(other, doc)
        assert other.tables() == []


def test_export_and_import_from_the_command_line_and_the_api(tmp_path, server):
    db = server.lib.db_path
    api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS})
    api(server, "POST", "/api/tables/t/hand", {"total": 2, "winner": "小李", "from": "老王"})
    status, doc = api(server, "GET", "/api/tables/t/export")
    assert status == 200 and doc["format"] == 1
    out = tmp_path / "t.json"
    assert run("export", "t", "--json", "-o", str(out), db=db).exit_code == 0
    other = tmp_path / "other.sqlite3"
    result = run("import", str(out), db=other)
    assert result.exit_code == 0 and "imported table 't'" in result.output, result.output
    assert run("import", str(out), db=other).exit_code == 2  # an existing name
    assert run("import", str(tmp_path / "nope.json"), db=other).exit_code == 2
    status, made = api(server, "POST", "/api/import", {"document": doc, "as": "t2"})
    assert status == 201 and made["table"] == "t2" and made["standings"] == doc["standings"]
    status, refused = api(server, "POST", "/api/import", {"document": doc})
    assert status == 400 and refused["code"] == "ledger.table_exists"


STEP = st.one_of(
    st.tuples(st.just("win"), st.sampled_from("ESWN"), st.sampled_from([None, "E", "S", "W", "N"]),
              st.integers(1, 6)),
    st.tuples(st.just("draw")), st.tuples(st.just("undo"), st.integers(0, 30)),
    st.tuples(st.just("penalty"), st.sampled_from("ESWN"), st.sampled_from(["诈和", "罚分"])),
    st.tuples(st.just("revert"), st.integers(0, 60)), st.tuples(st.just("seat"), st.sampled_from("SWN")),
    st.tuples(st.just("edit"), st.integers(0, 30), st.sampled_from("ESWN"), st.integers(1, 6)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=5, max_size=25))
def test_random_evenings_come_back_whole_from_an_export(tmp_path_factory, steps):
    """Record, edit, undo, penalise, revert, change seats at random; the export imported elsewhere is the same
    evening (the same document again, the same log, hands, penalties and standings)."""
    where = tmp_path_factory.mktemp("evening")
    ledger = Ledger(where / "a.sqlite3")
    t = evening.create_table(ledger, "t", "beijing-classic", PLAYERS)
    newcomers = iter(f"客{i}" for i in range(100))
    for step in steps:
        t = ledger.table("t")
        try:
            if step[0] == "win":
                agreed(ledger, t, step[1], step[3], discarder=step[2] if step[2] != step[1] else None)
            elif step[0] == "draw":
                evening.record_draw(ledger, t)
            elif step[0] == "undo" and ledger.hands(t):
                hands = ledger.hands(t)
                evening.undo_hand(ledger, t, hands[step[1] % len(hands)].hand_id)
            elif step[0] == "penalty":
                evening.record_penalty(ledger, t, step[2], step[1], to=None if step[2] == "诈和" else
                                       "ESWN"[("ESWN".index(step[1]) + 1) % 4])
            elif step[0] == "revert":
                evening.revert_event(ledger, t, step[1] % (t.revision + 1))
            elif step[0] == "edit" and ledger.hands(t):
                hands = ledger.hands(t)
                given = evening.agreed_input(evening.table_rules(t, ledger), Situation(seat=step[2]), step[3])
                evening.edit_hand(ledger, t, hands[step[1] % len(hands)].hand_id, given)
            elif step[0] == "seat":
                evening.seat_players(ledger, t, evening.seating_with(t.players, {step[1]: next(newcomers)}))
        except LedgerError:
            pass  # a revert of nothing revertible, a hand that no longer scores after an undo: refused whole
    check_cache(ledger, ledger.table("t"))
    first = _exported(ledger, "t")
    with Ledger(where / "b.sqlite3") as other:
        imported = import_table(other, json.loads(json.dumps(first)))
        assert _exported(other, "t") == first
        assert other.standings(imported) == ledger.standings(ledger.table("t"))
        check_cache(other, imported)
    ledger.close()


def test_at_a_terminal_the_command_line_asks_before_recording_a_repeat_twice(tmp_path):
    """With a terminal to ask at (a pty), the repeat is a question, worded from the message's own parameters; a
    yes records it."""
    import os
    import pty
    import subprocess
    import sys
    db = str(tmp_path / "t.sqlite3")
    table = [sys.executable, "-m", "mjcalc", "table"]
    seats = [a for s, p in PLAYERS.items() for a in ("--seat", f"{s}={p}")]
    subprocess.run(table + ["new", "t", *seats, "--db", db], check=True, capture_output=True)
    subprocess.run(table + ["hand", "--fan", "2", "--winner", "小李", "--db", db], check=True, capture_output=True)
    master, slave = pty.openpty()
    asked = subprocess.Popen(table + ["hand", "--fan", "2", "--winner", "小李", "--db", db], stdin=slave,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.write(master, b"y\n")
    _, err = asked.communicate(timeout=60)
    os.close(master)
    os.close(slave)
    assert asked.returncode == 0 and \
        err.rstrip() == "just recorded from the command line as hand 1: record it twice? [y/N]:", err
    with Ledger(db) as ledger:
        assert len(ledger.hands(ledger.table("t"))) == 2
