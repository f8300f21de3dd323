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

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deal_region
from mjcalc import analyze, evening, parse_hand
from mjcalc.cli import cli
from mjcalc.evening import Ledger, LedgerError
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
    assert words == "E has won this deal already: a winner neither wins nor pays again in it"
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
    assert "荒牌, a drawn hand; S 小李 +4, W 阿张 -2, N 大刘 -2\n" in said.output, said.output
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
    assert waits(hand, rules, Situation(void=1)) == []  # 万 is the void suit: none of them is a wait
    assert [t for t, _ in waits(hand, rules, Situation(void=2))] == [0, 3, 6]
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
    assert run(table, "penalty", "t", "直杠", "--player", "阿张", "--to", "大刘").exit_code == 0  # 大刘 pays 2
    assert run(table, "hand", "t", WIN, "--winner", "老王", "--from", "小李").exit_code == 0  # 小李 pays 1
    said = run(table, "penalty", "t", "暗杠", "--player", "阿张")  # 老王 is out: 小李 and 大刘 pay 2 each
    assert said.exit_code == 0, said.output
    refused = run(table, "penalty", "t", "暗杠", "--player", "老王")
    assert refused.exit_code == 2 and "E has won this deal already" in refused.stderr, refused.output
    with Ledger(table) as ledger:
        assert money(ledger) == {"E": 1, "S": -3, "W": 6, "N": -4}
        t = ledger.table("t")
        assert (t.state.won, len(ledger.hands(t))) == ((("E", "S"),), 1)  # kong money does not move the deal
