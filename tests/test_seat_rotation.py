"""国标's change of seats as each round ends (`session: {seat_rotation: mcr}`), kept by the ledger.

natsuki p. 9 (the 1998 book leaves the seats to the event's rules, p. 9): after the East round 东位 and 南位 change
places, and 西位 and 北位; after the South round 东位 goes to 西位, 南位 to 北位, 西位 to 南位, 北位 to 东位; after the
West round as after the East: "东起者四圈座位依次为东-南-北-西，南起者…南-东-西-北，西起者…西-北-东-南，北起者…
北-西-南-东". The deal passes every hand, so a round is four hands.
"""
import json

import pytest

from mjcalc.evening import Ledger, create_table, edit_hand, hand_input, record_given, undo_hand
from mjcalc.evening.check import problems

PLAYERS = {"E": "东起", "S": "南起", "W": "西起", "N": "北起"}
# each player's seat in the four rounds, as natsuki gives them
SEATS_BY_ROUND = {"东起": "ESNW", "南起": "SEWN", "西起": "WNES", "北起": "NWSE"}
HOUSE = ("extends: beijing\nid: rotating\nsession:\n  dealer_stays_on_win: false\n  dealer_stays_on_draw: false\n"
         "  seat_rotation: mcr\n")


@pytest.fixture
def ledger(tmp_path):
    house = tmp_path / "rotating.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", str(house), PLAYERS, 1)
        yield ledger


@pytest.fixture
def run(tmp_path):
    """`mjcalc table ARGS --db` on a 国标 table "t" of Ann, Bob, Cat and Dan (东 南 西 北): its output, exit 0."""
    from click.testing import CliRunner

    from mjcalc.cli import cli
    db = str(tmp_path / "t.sqlite3")

    def run(*args):
        said = CliRunner().invoke(cli, ["table", *args, "--db", db])
        assert said.exit_code == 0, said.output
        return said.output

    run("new", "t", "-r", "guobiao", "--seat", "东=Ann", "--seat", "南=Bob", "--seat", "西=Cat", "--seat", "北=Dan")
    return run


def draw(ledger):
    return record_given(ledger, ledger.table("t"), hand_input(facts={})).hand


def test_the_players_change_seats_as_each_round_ends(ledger):
    hands = [draw(ledger) for _ in range(17)]
    for hand in hands:
        seating = dict(zip("ESWN", hand.players))
        game_round = (hand.number - 1) // 4  # 0-3, then a new game: hand 17 is seated as round 4 left it
        for player, seats in SEATS_BY_ROUND.items():
            assert seating[seats[min(game_round, 3)]] == player, (hand.number, seating)
    assert [h.dealer for h in hands[:5]] == list("ESWNE") and hands[4].round == 2
    assert problems(ledger, derive=True) == []


def test_undoing_the_hand_that_ended_a_round_puts_the_seats_back(ledger):
    hands = [draw(ledger) for _ in range(4)]
    assert draw(ledger).players == ("南起", "东起", "北起", "西起")
    undo_hand(ledger, ledger.table("t"), hands[3])  # the fourth hand ended the East round
    assert [h.players for h in ledger.hands(ledger.table("t"))] == [("东起", "南起", "西起", "北起")] * 4
    assert problems(ledger, derive=True) == []


def test_a_ruleset_without_the_rule_keeps_its_seats(tmp_path):
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", "beijing", PLAYERS, 1)
        hands = [draw(ledger) for _ in range(6)]
        assert {h.players for h in hands} == {("东起", "南起", "西起", "北起")}


def test_an_exported_table_imports_with_its_seats_changing_as_before(ledger, tmp_path):
    from mjcalc.evening.exchange import export_json, import_table
    hands = [draw(ledger) for _ in range(9)]
    doc = export_json(ledger, "t")
    with Ledger(tmp_path / "other.sqlite3") as other:
        import_table(other, doc)
        assert [h.players for h in other.hands(other.table("t"))] == [h.players for h in hands]
        assert other.table("t").players == ledger.table("t").players
        assert problems(other, derive=True) == []


def test_a_guobiao_table_notes_the_round_wind_as_a_wind_not_a_player(tmp_path):
    """At a 国标 table the round's wind (圈风) is filled from the round; the hand's notes name it 南, not the player
    who sits South."""
    from mjcalc.evening.documents import context
    from mjcalc.ruleset import load_ruleset
    from mjcalc.situation import Situation
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", "guobiao", PLAYERS, 1)
        for _ in range(4):
            draw(ledger)
        t = ledger.table("t")
        won = record_given(ledger, t, hand_input("123m 456p 789s EEE 5m +5m", Situation(seat="S"))).hand
        assert won.round == 2 and "圈风 南" in context(won, ledger.table("t"), load_ruleset("guobiao"))


def test_the_hand_that_ends_a_round_is_printed_in_its_own_seats_then_the_change(run):
    """From a fresh pair of eyes: the fourth hand was printed with the next round's seating, the winner's money
    beside another's name. It is printed as it was played (Dan, North, won from Cat, West), then the change."""
    for _ in range(3):
        run("draw", "t", "--yes")
    said = run("hand", "t", "--fan", "20", "--winner", "Dan", "--from", "Cat", "--yes")
    paid = said.split("after hand")[0]  # the hand's payouts, before the standings as the table sits now
    rows = {line.split()[0]: line.split()[1:] for line in paid.splitlines() if line[:1] in "ESWN" and "  " in line}
    assert said.startswith("hand 4  round 1, dealer N Dan")
    assert rows["N"][:1] == ["Dan"] and rows["N"][-1] == "44" and rows["W"][:1] == ["Cat"] and rows["W"][-1] == "-28"
    assert "seats     changed as the round ended: E Bob, S Ann, W Dan, N Cat" in said


def test_the_sixteenth_hand_says_the_session_is_over(run):
    """A session is four rounds of four hands (1998 book pp. 7-8; `session.rounds: 4`): the 16th hand says so, in
    words and as `session_over` in the JSON; no earlier hand does, and a hand after it starts the East round again."""
    said = [run("draw", "t", "--yes", "--json") for _ in range(15)]
    assert not any("session_over" in json.loads(line) for line in said)
    last = run("hand", "t", "--fan", "8", "--winner", "Bob", "--from", "Ann", "--yes")
    assert " ".join(last.split()).count("session 1 is over: its 4 rounds are played") == 1
    assert "\nnext      hand 17, session 2, round 1, dealer E " in last  # not "round 5"
    run("undo", "t", "--yes")
    data = json.loads(run("hand", "t", "--fan", "8", "--winner", "Bob", "--from", "Ann", "--yes", "--json"))
    assert data["session_over"] == 1 and data["next"]["round"] == 5
    seventeenth = json.loads(run("draw", "t", "--yes", "--json"))
    assert "session_over" not in seventeenth and seventeenth["hand"]["round"] == 5


def test_a_ruleset_without_sessions_never_says_one_is_over(ledger):
    from mjcalc.evening.record import written_json
    for _ in range(16):
        written = record_given(ledger, ledger.table("t"), hand_input(facts={}))
        assert "session_over" not in written_json(written)


def test_taking_back_a_hand_that_would_move_a_win_into_other_seats_is_refused(tmp_path):
    """From a fresh pair of eyes: on a 国标 table, taking back hand 4 made hand 5 (南起 ← 东起, played in the South
    round's seats) hand 4 of the East round, where the same seat letters are other players: the win was paid to
    another player. It is refused in one line, nothing changed; making hand 4 a draw keeps the count, and hand 5
    is still 南起's win from 东起."""
    from mjcalc.evening.ledger import LedgerError
    from mjcalc.situation import Situation
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", "guobiao", PLAYERS, 1)
        hands = [draw(ledger) for _ in range(3)]
        hands.append(record_given(ledger, ledger.table("t"), hand_input(None, Situation(seat="W"), total=9)).hand)
        t = ledger.table("t")
        seat = {p: s for s, p in zip("ESWN", t.players)}  # the South round's seats: 南起 sits East now
        won = record_given(ledger, t, hand_input(None, Situation(seat=seat["南起"], discarder=seat["东起"]),
                                                  total=8)).hand
        assert (won.player(won.winner), won.player(won.discarder)) == ("南起", "东起")
        with pytest.raises(LedgerError) as refused:
            undo_hand(ledger, ledger.table("t"), hands[3])
        assert refused.value.code == "record.seats_would_move" and str(refused.value).startswith(
            "hand 5 would become hand 4, in another round where the players sat elsewhere")
        assert [h.hand_id for h in ledger.hands(ledger.table("t"))] == [h.hand_id for h in hands] + [won.hand_id]
        edit_hand(ledger, ledger.table("t"), hands[3], hand_input(facts={}))
        last = ledger.hands(ledger.table("t"))[-1]
        assert (last.number, last.player(last.winner), last.player(last.discarder)) == (5, "南起", "东起")
        assert last.deltas == won.deltas
        assert problems(ledger, derive=True) == []


def test_the_log_names_each_hand_by_the_seats_it_was_played_in(tmp_path):
    """From a fresh pair of eyes: `table log` named hand 5 (南起 ← 东起, in the South round's seats) by the
    opening's seats ("北起 ← 西起"), and a later seat change by who sat there at the opening. It follows the
    rounds' changes of seats, and their undoing."""
    from mjcalc.evening.story import story
    from mjcalc.situation import Situation
    with Ledger(tmp_path / "t.sqlite3") as ledger:
        create_table(ledger, "t", "guobiao", PLAYERS, 1)
        hands = [draw(ledger) for _ in range(4)]
        t = ledger.table("t")
        seat = {p: s for s, p in zip("ESWN", t.players)}
        fifth = record_given(ledger, t, hand_input(None, Situation(seat=seat["南起"], discarder=seat["东起"]),
                                                   total=8)).hand
        undo_hand(ledger, ledger.table("t"), fifth)  # hand 5 goes; then hand 4, which ended the East round
        undo_hand(ledger, ledger.table("t"), hands[3])
        draw(ledger)  # hand 4 again: the seats change again
        t = ledger.table("t")
        seat = {p: s for s, p in zip("ESWN", t.players)}
        record_given(ledger, t, hand_input(None, Situation(seat=seat["北起"], discarder=seat["西起"]), total=9))
        told = [(e.kind, e.hand.number, e.hand.winner, e.hand.discarder) for e in story(ledger, ledger.table("t"))
                if e.hand is not None and e.hand.kind == "win"]
    assert told == [("hand", 5, "南起", "东起"), ("undo", 5, "南起", "东起"), ("hand", 5, "北起", "西起")]


def test_the_history_names_each_hands_dealer_where_the_seats_move(run):
    """From a fresh pair of eyes: `table show`'s 庄 column gave each hand's dealer as a seat letter, which names
    another player each round once the seats change; it names the player who dealt."""
    for _ in range(5):
        run("draw", "t", "--yes")
    shown = run("show", "t")
    dealers = [line.split()[1] for line in shown.splitlines() if line[:1].isdigit()]
    assert dealers == ["Ann", "Bob", "Cat", "Dan", "Bob"]  # hand 5: East again, where Bob sits after the East round
