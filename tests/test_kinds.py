"""The closed sets (`evening.kinds`, the ruleset's roles and scales, a penalty's payers, an option's kinds) name
exactly the values that are stored and sent: an evening that makes every kind of write is read back through the
CLI's JSON and the ledger's own schema, and each value is one its alias lists, in the words a player and the API
have always seen."""
import json
import re
import sqlite3
from typing import get_args

from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.evening.kinds import ENTRIES, EVENT_KINDS, HAND_KINDS, Entry, EventKind, HandKind, WrittenKind
from mjcalc.regions import all_options
from mjcalc.ruleset import PENALTY_PAYS, ROLES, SCALES, WIN_RULES, builtin_rulesets
from mjcalc.situation import GENERIC, OptionKind


def run(db, *args):
    result = CliRunner().invoke(cli, [*args, "--db", str(db)])
    assert result.exit_code == 0, result.output
    return result.output


def an_evening_of_every_write(db):
    """One table through every write a player can make: hands by tiles, total and patterns, a draw, an edit, an
    undo and its revert, seat changes (from the next hand and from the start), a dealer correction, a rules
    switch, both kinds of penalty, and the table closed."""
    run(db, "table", "new", "t", "-r", "beijing-classic", "--seat", "E=老王", "--seat", "S=小李", "--seat", "W=阿张",
        "--seat", "N=大刘")
    run(db, "table", "hand", "123m456p789s234s5m", "+5m", "--winner", "小李", "--from", "老王")
    run(db, "table", "hand", "--fan", "3", "--winner", "小李", "--from", "老王")
    run(db, "table", "hand", "--patterns", "对对和", "--winner", "阿张")
    run(db, "table", "draw")
    run(db, "table", "edit", "2", "--fan", "2", "--winner", "小李", "--from", "老王", "--yes")
    run(db, "table", "undo", "--yes")
    run(db, "table", "revert", "7", "--yes")
    run(db, "table", "seat", "南=阿张", "西=小李")
    run(db, "table", "seat", "--dealer", "大刘")
    run(db, "table", "seat", "--from-start", "北=李明", "--yes")
    run(db, "table", "penalty", "诈和", "--player", "老王")
    run(db, "table", "penalty", "罚分", "--player", "老王", "--to", "阿张")
    run(db, "table", "rules", "beijing-hunr", "--yes")
    run(db, "table", "close", "t")


def test_every_write_of_an_evening_is_a_kind_the_aliases_list(tmp_path):
    db = tmp_path / "l.sqlite3"
    an_evening_of_every_write(db)
    log = json.loads(run(db, "table", "log", "t", "--json"))
    kinds = [event["kind"] for event in log["events"]]
    assert kinds == ["open", "hand", "hand", "hand", "hand", "edit", "undo", "revert", "seat", "dealer", "seat_start",
                     "penalty", "penalty", "rules", "close"]
    # every kind a table writes today, and "state", which older ledgers hold and the log still reads
    assert set(EVENT_KINDS) == set(kinds) | {"state"}
    assert set(get_args(WrittenKind)) == set(EVENT_KINDS) | {"replay"}

    shown = json.loads(run(db, "table", "show", "t", "--json"))
    hands = [(h["kind"], h.get("entry")) for h in shown["hands"]]
    assert hands == [("win", "tiles"), ("win", "total"), ("win", "patterns"), ("draw", None)]
    assert {kind for kind, _ in hands} == set(HAND_KINDS)
    assert {entry for _, entry in hands} == set(ENTRIES) - {"draw"} | {None}  # a draw's record keeps no entry


def test_the_ledger_schema_checks_the_same_sets(tmp_path):
    db = tmp_path / "l.sqlite3"
    an_evening_of_every_write(db)
    with sqlite3.connect(db) as conn:
        schema = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
    checked = {column: re.findall(r"'(\w+)'", values)
               for column, values in re.findall(r"\b(kind|entry) TEXT[^,]*?CHECK \(\1 IN \(([^)]*)\)\)", schema)}
    assert checked == {"kind": ["win", "draw"], "entry": ["tiles", "total", "patterns"]}
    assert tuple(checked["kind"]) == HAND_KINDS and tuple(checked["entry"]) + ("draw",) == ENTRIES


def test_rulesets_and_options_take_only_the_listed_values():
    assert ROLES == ("add", "base", "multiplier", "bonus") and SCALES == ("linear", "power", "once")
    assert WIN_RULES == ("any", "concealed", "concealed_if_wild", "never") and PENALTY_PAYS == ("each", "one")
    for rules in builtin_rulesets():
        assert {p.role for p in rules.patterns} <= set(ROLES) and {p.scale for p in rules.patterns} <= set(SCALES)
        assert {rules.discard, rules.rob_kong} <= set(WIN_RULES)
        assert {p.pays for p in rules.penalties} <= set(PENALTY_PAYS)
    options = list(GENERIC.values()) + list(all_options().values())
    assert {o.kind for o in options} == set(get_args(OptionKind))  # each kind is used, and no other


def test_the_aliases_are_their_tuples():
    assert (HAND_KINDS, ENTRIES, EVENT_KINDS) == (get_args(HandKind), get_args(Entry), get_args(EventKind))
