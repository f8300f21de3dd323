"""A deal, not a hand (issue 36.2): a deal holds zero or more wins, a winner neither wins nor pays again in it, a
draw pays what the region says, and who deals next is the region's answer for the whole deal.

The Sichuan-shaped region of `deal_region.py` (tests only) proves the seams through the library, the CLI and the
API; its rules, as its docstring states them: 平和 1 for any win, paid total × 底分 by the discarder, or on a
self-draw by each seat still in the deal; the deal ends at its third win or at a draw, where each seat still in
and not ready pays each seat still in and ready 2 × 底分; the first winner moves the deal (the dealer stays on a
dealer's win), but the discarder when the first two wins were on one discard. Every amount below is worked from
those lines. The last test is the other half: Beijing, Zhuji and Shangrao, whose deals end at their first win,
pay what the scorer says and move the deal as their session rules say, hand after hand, over random evenings.
"""
import json
import sqlite3

import pytest
import wcwidth
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deal_region
from mjcalc import analyze, evening, parse_hand
from mjcalc.cli import cli
from mjcalc.evening import Ledger, LedgerError
from mjcalc.evening.check import problems
from mjcalc.ruleset import load_ruleset
from mjcalc.session import Session
from mjcalc.situation import Situation
from mjcalc.tiles import SEATS

PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
WIN = "123m 456m 789p 234s 5s +5s"  # 平和 only: 1 番


@pytest.fixture
def region(tmp_path):
    path = deal_region.install(tmp_path)
    yield path
    deal_region.uninstall()


@pytest.fixture
def table(region, tmp_path):
    db = tmp_path / "t.sqlite3"
    with Ledger(db) as ledger:
        evening.create_table(ledger, "t", str(region), PLAYERS, 1)
    return db


def run(db, *args, input=None):
    return CliRunner().invoke(cli, ["table", *args, "--db", str(db)], input=input)


def win(ledger, seat, discarder=None):
    return evening.record_given(ledger, ledger.table("t"), evening.hand_input(WIN, Situation(seat=seat,
                                                                                          discarder=discarder)))


def draw(ledger, **told):
    return evening.record_given(ledger, ledger.table("t"), evening.hand_input(facts=told))


def money(ledger):
    return {s.seat: s.score for s in ledger.standings(ledger.table("t"))}


def test_the_region_plays_with_108_tiles(region):
    rules = load_ruleset(str(region))
    assert rules.wall.size == 108


def test_a_deal_with_two_wins_and_a_draw_that_pays(table):
    with Ledger(table) as ledger:
        first = win(ledger, "E", "S").hand  # S deals in: S pays E 1
        assert first.deltas == {"E": 1, "S": -1, "W": 0, "N": 0}
        assert first.after.won == (("E", "S"),) and first.after.dealer == "E"  # the deal goes on
        second = win(ledger, "W").hand  # a self-draw: S and N pay 1 each; E is out
        assert second.deltas == {"E": 0, "S": -1, "W": 2, "N": -1} and second.won == (("E", "S"),)
        end = draw(ledger, ready=["S"]).hand  # S and N still in; N not ready pays S 2
        assert end.kind == "draw" and end.deltas == {"E": 0, "S": 2, "W": 0, "N": -2}
        assert end.after.won == () and (end.after.dealer, end.after.streak) == ("E", 1)  # E won first, E deals
        assert money(ledger) == {"E": 1, "S": 0, "W": 2, "N": -3}
        check = evening.Ledger(table)  # a fresh connection re-checks every stored result
        assert [h.deltas for h in check.hands(check.table("t"))] == [first.deltas, second.deltas, end.deltas]


def test_the_third_win_ends_the_deal_and_one_discard_two_wins_moves_it_to_the_discarder(table):
    with Ledger(table) as ledger:
        win(ledger, "E", "S")
        win(ledger, "W", "S")  # 一炮多响: S deals in twice
        third = win(ledger, "N").hand  # a self-draw; only S is still in besides N: S pays 1
        assert third.deltas == {"E": 0, "S": -1, "W": 0, "N": 1}
        assert third.after.won == () and third.after.dealer == "S" and third.after.streak == 0
        assert money(ledger) == {"E": 1, "S": -3, "W": 1, "N": 1}


def test_a_winner_neither_wins_nor_pays_again_in_the_deal_the_same_words_everywhere(table, region):
    from browser import serving
    with Ledger(table) as ledger:
        win(ledger, "E", "S")
        with pytest.raises(LedgerError) as refused:
            win(ledger, "N", "E")
    words = refused.value.message.text("en")
    assert refused.value.field == "from"
    assert words == "老王 (E) has won this deal already: a winner neither wins nor pays again in it"
    cli = run(table, "hand", "t", WIN, "--winner", "N", "--from", "E", "--lang", "en")
    assert cli.exit_code == 2 and cli.stderr == f"Error: --from: {words}\n", cli.output
    with serving(table) as srv:
        from test_serve import api
        status, doc = api(srv, "POST", "/api/tables/t/hand", {"hand": WIN, "winner": "N", "from": "E", "lang": "en"})
    assert status == 400 and doc["code"] == "record.won_already" and doc["error"].endswith(words), doc
    with Ledger(table) as ledger:
        assert len(ledger.hands(ledger.table("t"))) == 1


def test_the_cli_records_and_shows_a_deal(table):
    assert run(table, "hand", "t", WIN, "--winner", "老王", "--from", "小李").exit_code == 0
    shown = run(table, "show", "t")
    assert "\ndeal      goes on; won: E 老王\n" in shown.output, shown.output
    said = run(table, "draw", "t", "--told", "ready=小李")
    assert said.exit_code == 0, said.output
    # 小李, 阿张, 大刘 still in; 小李 ready: 阿张 and 大刘 pay him 2 each
    assert "荒牌, a drawn hand;\n          S 小李 +4, W 阿张 -2, N 大刘 -2\n" in said.output, said.output
    doc = json.loads(run(table, "show", "t", "--json").output)
    assert [h["payouts"] if "payouts" in h else h["deltas"] for h in doc["hands"]][1] == \
        {"E": 0, "S": 4, "W": -2, "N": -2}
    assert doc["hands"][1]["won_before"] == [{"seat": "E", "player": "老王", "from": "S"}]
    assert doc["draw_asks"] == ["ready"] and "won" not in doc["next"]


def test_a_fact_a_draw_does_not_take_is_one_line(table):
    said = run(table, "draw", "t", "--told", "dealt_in=E")
    assert said.exit_code == 2 and "a draw here is told ready, not 'dealt_in'" in said.stderr, said.output
    said = run(table, "draw", "t", "--told", "ready")
    assert said.exit_code == 2 and "--told takes FACT=SEATS" in said.stderr and "Traceback" not in said.output


def test_the_api_records_a_deal_and_its_draw(table):
    from browser import serving
    from test_serve import api
    with serving(table) as srv:
        status, doc = api(srv, "POST", "/api/tables/t/hand", {"hand": WIN, "winner": "S"})
        assert status == 200, doc
        status, shown = api(srv, "GET", "/api/tables/t")
        assert shown["next"]["won"] == [{"seat": "S", "player": "小李", "from": None}]
        status, doc = api(srv, "POST", "/api/tables/t/draw", {"told": {"ready": ["E", "大刘"]}})
        assert status == 200, doc
        status, shown = api(srv, "GET", "/api/tables/t")
    # S won by self-draw (E, W, N pay 1); the draw: W (not ready) pays E and N 2 each
    assert {s["seat"]: s["score"] for s in shown["standings"]} == {"E": 1, "S": 3, "W": -5, "N": 1}


def test_an_undo_in_the_middle_of_a_deal_scores_the_later_wins_again(table):
    with Ledger(table) as ledger:
        first = win(ledger, "E", "S").hand
        win(ledger, "W")  # S and N pay: E is out
        evening.undo_hand(ledger, ledger.table("t"), first)
        again = ledger.hands(ledger.table("t"))[0]
        assert again.winner == "W" and again.won == () and again.deltas == {"E": -1, "S": -1, "W": 3, "N": -1}
        exported = evening.export_json(ledger, "t")
    with Ledger(table.parent / "copy.sqlite3") as other:
        t = evening.import_table(other, exported, "copy")
        assert [h.deltas for h in other.hands(t)] == [again.deltas]


# --- the other half: regions whose deal ends at its first win pay as they always did ---------------------------

def _reference_after(state, session, winner):
    """The deal moved on as the rules pages say (beijing.md "An evening at the table"), written apart from
    `replay.advance`: 连庄 after the dealer wins and after a draw, else the next seat deals, North passing ends the
    round; 上楼: a draw doubles later hands, at most `shanglou_levels` times, back to ×1 when the round ends."""
    stays = session.dealer_stays_on_draw if winner is None else (winner == state["dealer"] and
                                                                 session.dealer_stays_on_win)
    if stays:
        after = dict(state, streak=state["streak"] + 1)
    elif state["dealer"] == "N":
        after = dict(state, round=state["round"] + 1, dealer="E", streak=0, level=0)
    else:
        after = dict(state, dealer=SEATS[SEATS.index(state["dealer"]) + 1], streak=0)
    if winner is None:
        after["level"] = min(state["level"] + 1, session.shanglou_levels)
    return after


HANDS = {"beijing": "123m456p789s234s5m +5m", "zhuji": "123m456p789s234s5m +5m", "shangrao": "123m456p789s234s5m +5m"}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(ruleset=st.sampled_from(sorted(HANDS)),
       steps=st.lists(st.tuples(st.sampled_from("ESWN"), st.sampled_from(["self", "E", "S", "W", "N", "draw"])),
                      min_size=12, max_size=12))
def test_one_win_deals_pay_what_the_scorer_says_and_move_as_the_session_says(tmp_path_factory, ruleset, steps):
    db = tmp_path_factory.mktemp("deal") / "t.sqlite3"
    rules = load_ruleset(ruleset)
    session = Session.of(rules)
    assert session.shanglou_until == "round_end" and not session.shanglou_on_dealer_win  # as the reference reads
    state = {"round": 1, "dealer": "E", "streak": 0, "level": 0}
    with Ledger(db) as ledger:
        t = evening.create_table(ledger, "t", ruleset, PLAYERS, 1)
        for seat, source in steps:
            t = ledger.table("t")
            if source == "draw":
                record = evening.record_draw(ledger, t)
                assert record.deltas == dict.fromkeys(SEATS, 0)
                state = _reference_after(state, session, None)
            else:
                situation = Situation(seat=seat, discarder=None if source in ("self", seat) else source)
                try:
                    record, _ = evening.record_win(ledger, t, HANDS[ruleset], situation)
                except LedgerError:
                    continue  # a win these rules refuse: nothing recorded
                paid = analyze(parse_hand(HANDS[ruleset]), rules,
                               situation.replace(dealer=state["dealer"], base=1)).payout.scaled(2 ** state["level"])
                assert record.deltas == paid.deltas
                state = _reference_after(state, session, seat)
            after = record.after
            assert after.won == () and (after.round, after.dealer, after.streak, after.level) == \
                (state["round"], state["dealer"], state["streak"], state["level"])


def test_the_prompt_plays_a_deal_and_its_draw(table):
    said = CliRunner().invoke(cli, ["table", "play", "t", "--db", str(table)],
                              input="老王 小李 1\n阿张 自摸 1\n荒牌 ready=小李\nshow\n")
    assert said.exit_code == 0 and "Error" not in said.output, said.output
    assert "deal      goes on; won: E 老王\n" in said.output
    with Ledger(table) as ledger:  # as the library's own evening above: the same money by the prompt
        assert money(ledger) == {"E": 1, "S": 0, "W": 2, "N": -3}


# --- the wall of the region: 108 tiles, a dead wall, a void suit ------------------------------------------------

def test_a_void_suit_is_never_a_wait_and_the_dead_wall_is_never_drawn(region):
    from mjcalc import Situation, waits
    from mjcalc.value import advise_value
    rules = load_ruleset(str(region))
    hand = parse_hand("23m 456m 789p 234s 55s")  # 23456m waits on 1m (123 456), 4m (234 456), 7m (234 567)
    assert [t for t, _ in waits(hand, rules, Situation())] == [0, 3, 6]
    assert waits(hand, rules, Situation(void="m")) == []  # 万 is the void suit: none of them is a wait
    assert [t for t, _ in waits(hand, rules, Situation(void="筒"))] == [0, 3, 6]
    # 108 tiles less the 13 held: 95 unseen, of which the last 14 are never drawn
    from mjcalc.scoring import prepare
    wall = deal_region.DealShaped().wall(rules, Situation(), prepare(hand, ()).held)
    assert (wall.live, wall.draws_left) == (95, 81)
    # with the 14th tile in hand: 94 unseen, at most 80 draws left
    assert advise_value(parse_hand("23m 456m 789p 234s 55s +9s"), rules, Situation(), None, 90, "win").draws == 80


def test_an_edit_into_a_draw_is_told_too_and_pays_as_recorded(table):
    assert run(table, "hand", "t", WIN, "--winner", "老王", "--from", "小李").exit_code == 0
    assert run(table, "hand", "t", WIN, "--winner", "阿张").exit_code == 0
    said = run(table, "edit", "2", "t", "--draw", "--told", "ready=大刘,小李", "--yes")
    assert said.exit_code == 0, said.output
    with Ledger(table) as ledger:  # 小李, 阿张, 大刘 still in; 阿张 not ready pays 小李 and 大刘 2 each
        assert ledger.hands(ledger.table("t"))[1].deltas == {"E": 0, "S": 2, "W": -4, "N": 2}


# --- payments during a deal: kong money when the kong is made -----------------------------------------------------

def test_kong_money_is_paid_when_made_by_those_still_in_the_deal(table):
    said = run(table, "penalty", "t", "直杠", "--player", "阿张", "--to", "大刘")  # 大刘 pays 2
    assert said.exit_code == 0 and "penalty before the first hand: 直杠, 阿张 +2, 2 from 大刘 (revision 2)\n" in said.output, \
        said.output
    assert run(table, "hand", "t", WIN, "--winner", "老王", "--from", "小李").exit_code == 0  # 小李 pays 1
    said = run(table, "penalty", "t", "暗杠", "--player", "阿张")  # 老王 is out: 小李 and 大刘 pay 2 each
    assert said.exit_code == 0, said.output
    assert "penalty after hand 1: 暗杠, 阿张 +4, 2 from 小李, 大刘 (revision 4)\n" in said.output, said.output
    log = run(table, "log", "t").output
    assert "penalty 直杠: 阿张 +2, 2 from 大刘\n" in log and "penalty 暗杠: 阿张 +4, 2 from 小李, 大刘\n" in log, log
    refused = run(table, "penalty", "t", "暗杠", "--player", "老王")
    assert refused.exit_code == 2 and "老王 (E) has won this deal already" in refused.stderr, refused.output
    with Ledger(table) as ledger:
        assert money(ledger) == {"E": 1, "S": -3, "W": 6, "N": -4}
        t = ledger.table("t")
        assert (t.state.won, len(ledger.hands(t))) == ((("E", "S"),), 1)  # kong money does not move the deal


# --- 退税: a draw refunds the kong money a seat not ready was paid during the deal ---------------------------------
# The evening below, at 底分 1, worked from the region's rules (deal_region.py):
#   payment 1, 暗杠 by W 阿张: each seat still in (E, S, N) pays him 2     → E -2, S -2, W +6, N -2
#   hand 1, E 老王 wins on S 小李's discard (平和 1)                        → E +1, S -1; the deal goes on, E is out
#   hand 2, the wall runs out, S ready: S, W, N are still in
#     not ready pays ready 2 × 底分: W and N pay S 2 each                  → S +4, W -2, N -2
#     退税: W, still in and not ready, pays back the 6 he was paid, 2 each to E, S, N → E +2, S +2, W -6, N +2
#     the draw pays                                                       → E +2, S +6, W -8, N  0
#   the evening: E -2+1+2 = 1, S -2-1+6 = 3, W 6-8 = -2, N -2+0 = -2 (0 in all)
REFUND_DRAW = {"E": 2, "S": 6, "W": -8, "N": 0}
REFUND_MONEY = {"E": 1, "S": 3, "W": -2, "N": -2}


def kong(ledger, seat="阿张"):
    return evening.record_penalty(ledger, ledger.table("t"), "暗杠", seat)


def test_a_seat_not_ready_at_the_draw_refunds_the_kong_money_of_its_deal(table):
    with Ledger(table) as ledger:
        paid = kong(ledger).penalty
        assert paid.deltas == {"E": -2, "S": -2, "W": 6, "N": -2}
        win(ledger, "E", "S")
        end = draw(ledger, ready=["S"]).hand
        assert end.deltas == REFUND_DRAW and sum(end.deltas.values()) == 0
        assert end.payments == (paid.penalty_id,)  # the draw names the payment it settled
        assert money(ledger) == REFUND_MONEY
        assert problems(ledger, derive=True) == []


def test_a_ready_konger_keeps_the_kong_money(table):
    with Ledger(table) as ledger:
        kong(ledger)
        win(ledger, "E", "S")
        # S, W, N still in, W ready: S and N pay W 2 each; W is ready, so nothing is refunded
        assert draw(ledger, ready=["W"]).hand.deltas == {"E": 0, "S": -2, "W": 4, "N": -2}
        # the evening: E -2+1 = -1, S -2-1-2 = -5, W 6+4 = 10, N -2-2 = -4
        assert money(ledger) == {"E": -1, "S": -5, "W": 10, "N": -4}


def test_a_konger_who_won_later_in_the_deal_keeps_the_kong_money(table):
    with Ledger(table) as ledger:
        kong(ledger)  # E, S, N pay W 2 each
        win(ledger, "W", "S")  # W wins: S pays 1; W is out of the deal
        # S ready; E and N (still in, not ready) pay S 2 each; W is out, neither ready nor not: no refund
        assert draw(ledger, ready=["S"]).hand.deltas == {"E": -2, "S": 4, "W": 0, "N": -2}


def test_kong_money_of_an_earlier_deal_is_not_refunded(table):
    with Ledger(table) as ledger:
        kong(ledger)  # deal 1: E, S, N pay W 2 each
        # the wall runs out with W ready: E, S, N (not ready) pay W 2 each; W keeps his kong money
        assert draw(ledger, ready=["W"]).hand.deltas == {"E": -2, "S": -2, "W": 6, "N": -2}
        later = kong(ledger, "大刘").penalty  # deal 2: E, S, W pay N 2 each
        end = draw(ledger).hand  # nobody ready: no one pays for being ready
        # 退税 in deal 2: N pays back E, S, W 2 each; W, not ready either, refunds nothing: his kong was deal 1's
        assert end.deltas == {"E": 2, "S": 2, "W": 2, "N": -6} and end.payments == (later.penalty_id,)


def test_kong_money_from_one_discarder_is_refunded_to_him(table):
    assert run(table, "penalty", "t", "直杠", "--player", "阿张", "--to", "大刘").exit_code == 0  # N pays W 2
    said = run(table, "draw", "t", "--told", "ready=小李")
    # all four still in, S ready: E, W, N pay S 2 each; 退税: W pays N back his 2 → E -2, S +6, W -4, N 0
    assert said.exit_code == 0 and "荒牌, a drawn hand;\n          E 老王 -2, S 小李 +6, W 阿张 -4\n" in said.output, said.output


def test_the_refund_is_shown_alike_by_the_cli_and_the_api(table, region, tmp_path):
    from browser import serving
    from test_serve import api
    assert run(table, "penalty", "t", "暗杠", "--player", "阿张").exit_code == 0
    assert run(table, "hand", "t", WIN, "--winner", "老王", "--from", "小李").exit_code == 0
    said = run(table, "draw", "t", "--told", "ready=小李")
    assert said.exit_code == 0, said.output
    assert "荒牌, a drawn hand;\n          E 老王 +2, S 小李 +6, W 阿张 -8\n" in said.output, said.output
    assert max(wcwidth.wcswidth(line) for line in said.output.splitlines()) <= 80, said.output
    shown = json.loads(run(table, "show", "t", "--json").output)
    assert shown["hands"][-1]["payouts"] == REFUND_DRAW
    other = tmp_path / "api.sqlite3"
    with Ledger(other) as ledger:
        evening.create_table(ledger, "t", str(region), PLAYERS, 1)
    with serving(other) as srv:
        assert api(srv, "POST", "/api/tables/t/penalty", {"penalty": "暗杠", "player": "阿张"})[0] == 200
        assert api(srv, "POST", "/api/tables/t/hand", {"hand": WIN, "winner": "老王", "from": "小李"})[0] == 200
        status, doc = api(srv, "POST", "/api/tables/t/draw", {"told": {"ready": ["小李"]}})
        assert status == 200, doc
        assert doc["hand"]["payouts"] == REFUND_DRAW, doc
        status, table_doc = api(srv, "GET", "/api/tables/t")
    assert table_doc["hands"][-1]["payouts"] == REFUND_DRAW
    assert {s["seat"]: s["score"] for s in table_doc["standings"]} == REFUND_MONEY


def _refund_evening(ledger):
    kong(ledger)
    win(ledger, "E", "S")
    return draw(ledger, ready=["S"]).hand


def test_the_refund_survives_export_and_import_and_is_derived_again(table):
    with Ledger(table) as ledger:
        end = _refund_evening(ledger)
        doc = evening.export_json(ledger, "t")
        copy = evening.import_table(ledger, doc, "copy")
        assert [h.deltas for h in ledger.hands(copy)][-1] == REFUND_DRAW
        assert ledger.hands(copy)[-1].payments == end.payments
        assert problems(ledger, ledger.table("copy"), derive=True) == []
        # the same export with the draw paying no refund — its log, its hands and standings all saying so — is
        # refused: the draw scored again from its entry, in its state, with the kong money of its deal refunds
        forged = _without_refund(doc, end.hand_id)
        with pytest.raises(LedgerError) as refused:
            evening.import_table(ledger, forged, "forged")
        assert "log entry" in str(refused.value) and "pays [0, 4, -2, -2] where its entry pays [2, 6, -8, 0]" \
            in str(refused.value), str(refused.value)


# without the refund the draw pays only what not ready pays ready: W and N pay S 2 each
NO_REFUND = {"E": 0, "S": 4, "W": -2, "N": -2}


def _without_refund(doc, hand_id):
    doc = json.loads(json.dumps(doc))
    for event in doc["log"]:
        for record in event["data"].get("records", ()):
            if record["hand_id"] == hand_id:
                record["deltas"] = dict(NO_REFUND)
    for hand in doc["hands"]:
        if hand["hand_id"] == hand_id:
            hand["payouts"] = dict(NO_REFUND)
    moved = {PLAYERS[s]: NO_REFUND[s] - REFUND_DRAW[s] for s in SEATS}
    for standing in doc["standings"]:
        standing["score"] += moved[standing["player"]]
    return doc


def test_check_finds_a_stored_draw_whose_refund_was_changed(table):
    with Ledger(table) as ledger:
        end = _refund_evening(ledger)
    with sqlite3.connect(table) as con:  # the draw's result, in the log and in the hands, paying no refund
        for rowid, data in con.execute("SELECT rowid, data FROM events").fetchall():
            parsed = json.loads(data)
            for record in parsed.get("records", ()):
                if record["hand_id"] == end.hand_id:
                    record["deltas"] = dict(NO_REFUND)
                    con.execute("UPDATE events SET data = ? WHERE rowid = ?", (json.dumps(parsed), rowid))
        con.execute("UPDATE hands SET d_e = 0, d_s = 4, d_w = -2, d_n = -2 WHERE hand_id = ?", (end.hand_id,))
    checked = run(table, "check")
    assert checked.exit_code == 1 and "pays [0, 4, -2, -2] where its entry pays [2, 6, -8, 0]" in checked.output, \
        checked.output


def test_a_draw_that_names_other_payments_than_its_deal_made_is_found(table):
    with Ledger(table) as ledger:
        end = _refund_evening(ledger)
    with sqlite3.connect(table) as con:  # the draw's result says it read no payment, and pays no refund
        for rowid, data in con.execute("SELECT rowid, data FROM events").fetchall():
            parsed = json.loads(data)
            for record in parsed.get("records", ()):
                if record["hand_id"] == end.hand_id:
                    record["deltas"] = dict(NO_REFUND)
                    del record["payments"]
                    con.execute("UPDATE events SET data = ? WHERE rowid = ?", (json.dumps(parsed), rowid))
        con.execute("UPDATE hands SET d_e = 0, d_s = 4, d_w = -2, d_n = -2, payments = '[]' WHERE hand_id = ?",
                    (end.hand_id,))
    checked = run(table, "check")
    assert checked.exit_code == 1 and "does not replay" in checked.output, checked.output


def test_an_edit_scores_the_refund_again(table):
    with Ledger(table) as ledger:
        _refund_evening(ledger)
    # the draw told again with W ready: S, W, N still in; S and N pay W 2 each; W ready refunds nothing
    said = run(table, "edit", "2", "t", "--draw", "--told", "ready=阿张", "--yes")
    assert said.exit_code == 0, said.output
    with Ledger(table) as ledger:
        assert ledger.hands(ledger.table("t"))[1].deltas == {"E": 0, "S": -2, "W": 4, "N": -2}
    # --yes asked nothing, so the answer shows the hand as it now is, with its money
    assert "replaced hand 2 (revision" in said.output and "\nnow  hand 2  round 1" in said.output, said.output
    assert "老王 +0, 小李 -2, 阿张 +4, 大刘 -2" in said.output, said.output
    # hand 1 made W's win on S's discard (S pays W 1): W is out of the deal and keeps his kong money; the draw,
    # scored again, finds W told ready but out: nobody still in is ready, nobody refunds, it pays nothing
    said = run(table, "edit", "1", "t", WIN, "--winner", "阿张", "--from", "小李", "--yes")
    assert said.exit_code == 0, said.output
    with Ledger(table) as ledger:
        hands = ledger.hands(ledger.table("t"))
        assert [h.deltas for h in hands] == [{"E": 0, "S": -1, "W": 1, "N": 0}, dict.fromkeys(SEATS, 0)]
        # told S ready: E and N (still in, not ready) pay S 2 each; W, out, refunds nothing
        evening.edit_hand(ledger, ledger.table("t"), hands[1], evening.hand_input(facts={"ready": ["S"]}))
        assert ledger.hands(ledger.table("t"))[1].deltas == {"E": -2, "S": 4, "W": 0, "N": -2}
        assert problems(ledger, derive=True) == []


def test_taking_the_kong_money_back_scores_the_draw_again_without_its_refund(table):
    with Ledger(table) as ledger:
        paid = kong(ledger)
        win(ledger, "E", "S")
        end = draw(ledger, ready=["S"]).hand
        taken = evening.revert_event(ledger, ledger.table("t"), paid.table.revision)
        # no kong money: the draw pays what not ready pays ready only (W and N pay S 2 each), and says what changed
        assert [(old.deltas, new.deltas) for old, new in taken.changed] == [(REFUND_DRAW, NO_REFUND)]
        now = ledger.hands(ledger.table("t"))[-1]
        assert (now.hand_id, now.deltas, now.payments) == (end.hand_id, NO_REFUND, ())
        # the money: E +1, S -1+4 = 3, W -2, N -2 — what the kong and its refund came to
        assert money(ledger) == REFUND_MONEY and ledger.penalties(ledger.table("t")) == []
        assert problems(ledger, derive=True) == []


def test_the_cli_says_the_draw_a_revert_of_its_kong_money_pays_again_before_it_is_made(table):
    with Ledger(table) as ledger:
        revision = kong(ledger).table.revision
        win(ledger, "E", "S")
        draw(ledger, ready=["S"])
    changed = "  hand 2: 老王 +2→+0, 小李 +6→+4, 阿张 -8→-2, 大刘 +0→-2\n"  # REFUND_DRAW → NO_REFUND
    asked = run(table, "revert", "t", str(revision), input="n\n")
    assert asked.exit_code == 0 and changed in asked.output and "revert it?" in asked.output, asked.output
    with Ledger(table) as ledger:
        assert ledger.hands(ledger.table("t"))[-1].deltas == REFUND_DRAW  # not asked yes: nothing changed
    done = run(table, "revert", "t", str(revision), "--yes")
    assert done.exit_code == 0 and f"reverted revision {revision}\n{changed}" in done.output, done.output


def test_a_draw_brought_back_after_its_kong_money_was_taken_back_is_scored_again(table):
    with Ledger(table) as ledger:
        paid = kong(ledger)
        win(ledger, "E", "S")
        end = draw(ledger, ready=["S"]).hand
        undone = evening.undo_hand(ledger, ledger.table("t"), end)
        evening.revert_event(ledger, ledger.table("t"), paid.table.revision)
        evening.revert_event(ledger, ledger.table("t"), undone.table.revision)  # the draw is back
        # the log keeps the draw's result with the refund; its deal has no kong money now: scored again, no refund
        assert ledger.hands(ledger.table("t"))[-1].deltas == NO_REFUND
        assert problems(ledger, derive=True) == []


@pytest.mark.parametrize("payments", [5, [["x"]], {"a": 1}], ids=["a number", "a list in a list", "an object"])
def test_a_draw_whose_payments_are_not_ids_is_one_line_from_check_and_import(table, payments):
    with Ledger(table) as ledger:
        end = _refund_evening(ledger)
        doc = evening.export_json(ledger, "t")
    for event in doc["log"]:
        for record in event["data"].get("records", ()):
            if record["hand_id"] == end.hand_id:
                record["payments"] = payments
    with Ledger(table) as ledger:
        with pytest.raises(LedgerError) as refused:
            evening.import_table(ledger, doc, "copy")
    assert str(refused.value).startswith("the export is damaged (its log does not replay") and \
        str(refused.value).endswith("nothing imported"), str(refused.value)
    with sqlite3.connect(table) as con:
        for rowid, data in con.execute("SELECT rowid, data FROM events").fetchall():
            parsed = json.loads(data)
            for record in parsed.get("records", ()):
                if record["hand_id"] == end.hand_id:
                    record["payments"] = payments
                    con.execute("UPDATE events SET data = ? WHERE rowid = ?", (json.dumps(parsed), rowid))
    checked = run(table, "check")
    assert checked.exit_code == 1 and "are not the ids of payments a hand read" in checked.output, checked.output
    assert "Traceback" not in checked.output


def test_shanglou_doubles_what_a_draw_pays_but_never_the_refund(tmp_path, region):
    rules = tmp_path / "shanglou.yaml"  # the region's ruleset, where a draw doubles the later hands once (上楼)
    rules.write_text(region.read_text(encoding="utf-8").replace("id: dealshaped", "id: dealshaped2").replace(
        "  dealer_stays_on_draw: true\n", "  dealer_stays_on_draw: true\n  shanglou_levels: 1\n"), encoding="utf-8")
    with Ledger(tmp_path / "s.sqlite3") as ledger:
        evening.create_table(ledger, "t", str(rules), PLAYERS, 1)
        assert draw(ledger).hand.deltas == dict.fromkeys(SEATS, 0)  # nobody ready, no kong: nothing; now ×2
        kong(ledger)  # kong money is never doubled: E, S, N pay W 2 each
        end = draw(ledger, ready=["S"]).hand
        # E, W, N (not ready) pay S 2 × 2 = 4 each: E -4, S +12, W -4, N -4; 退税, as it was paid: W pays E, S, N
        # back 2 each: E +2, S +2, W -6, N +2 → E -2, S +14, W -10, N -2
        assert end.factor == 2 and end.deltas == {"E": -2, "S": 14, "W": -10, "N": -2}


def test_a_kept_draw_that_reads_a_payment_the_log_has_not_is_found(table):
    with Ledger(table) as ledger:
        end = _refund_evening(ledger)
    with sqlite3.connect(table) as con:  # a result kept for another state (dealer S), naming a payment nobody made
        rowid, data = [(r, d) for r, d in con.execute("SELECT rowid, data FROM events").fetchall()
                       if end.hand_id in d][0]
        parsed = json.loads(data)
        kept = dict(parsed["records"][0], dealer="S", payments=["nobody-paid"])
        parsed["records"].append(kept)
        con.execute("UPDATE events SET data = ? WHERE rowid = ?", (json.dumps(parsed), rowid))
    checked = run(table, "check")
    assert checked.exit_code == 1 and "it reads payment 'nobody-paid', which the log does not have" in checked.output, \
        checked.output
