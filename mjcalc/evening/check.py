"""Whether a ledger is what mjcalc wrote: found when a table is opened, so a damaged or hand-edited file is
refused with one line naming the table, the hand and the column, never shown as if it were right nor repaired.

A ledger's own invariants, checked on the rows as they are stored (SQLite's types, not Python's reading of
them; a text that is not UTF-8 is one problem, and the rest is still read): SQLite's `quick_check` of the file
and the ledger's tables all there; each table's seating (four distinct printable names), its 底分, its next
state (a round from 1, a seat, a 连庄 and a 上楼 level in range) and its rules (JSON of a ruleset); each hand's
number (1, 2, 3 … in order), its seats, its payouts (whole numbers summing to zero), its JSON columns; each
penalty's payouts; every result the log keeps, used now or kept for another state, one mjcalc could write
(`proof.record_faults`); every rules text the table names kept under its digest; and the table's row and cache
against its log (the revision, seating and next state, the hands and penalties the log replays to).
`problems` lists them all; with `derive` (`mjcalc table check`) it also scores every result of this scorer
again from its entry and compares (`derived_problems`). `check_table` raises on the first. A table is checked
once per process for each state of the file (its inode, size and time, and its WAL's), so a server answering
many requests checks a table again only after a write.
"""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..messages import Message
from ..regions.base import DealPayment
from ..session import MAX_LEVELS, State
from ..situation import MAX_BASE
from ..tiles import SEATS
from . import ledger as storage
from .kinds import Data
from .ledger import HandRecord, Ledger, LedgerFileError, NotText, PenaltyRecord, Stored, Table, rules_digest
from . import proof
from .proof import is_int
from .record import kept_rules, score_input, table_rules
from .replay import ReplayError, replay



@dataclass(frozen=True)
class Problem:
    """One thing wrong in a ledger: the table (None: the file), the hand (None: the table itself), the column
    or part, and what is wrong with it."""

    table: Optional[str]
    hand: Optional[int]
    column: str
    what: str

    def text(self, with_table: bool = True) -> str:
        where = [f"table {self.table!r}"] if self.table is not None and with_table else []
        where += ["the file"] if self.table is None else []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        return ", ".join(where + [f"{self.column}: {self.what}"])


# What a check was made of: ("file",) or ("table", its id, its revision), and the file's state (`_file_state`).
_Key = Tuple[Union[str, int, None], ...]
_checked: Dict[_Key, List[Problem]] = {}

Say = Callable[[str, str], None]  # say(column, what is wrong)


def _file_state(path: Path) -> _Key:
    """What tells one state of the file from another: the file's and its WAL's inode, size and time."""
    out: List[Union[str, int, None]] = [str(path)]
    for part in (path, storage.wal_path(path)):
        try:
            st = part.stat()
            out += [st.st_ino, st.st_size, st.st_mtime_ns]
        except OSError:
            out += [None, None, None]
    return tuple(out)


def _json(text: Any, kind: type, column: str, say: Say) -> Any:
    """The JSON `text` as a `kind` (dict or list), or None after saying what is wrong with it."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, kind):
        say(column, f"not {'a JSON object' if kind is dict else 'a JSON list'} ({str(text)[:40]!r})")
        return None
    return value


def _state_problems(state: Any, column: str, say: Say) -> None:
    for fault in proof.state_faults(state):
        say(column, fault)




def _table_problems(stored: Stored, table: Table) -> List[Problem]:
    name = table.name
    found: List[Problem] = []

    def said(hand: Optional[int] = None) -> Say:
        return lambda column, what: found.append(Problem(name, hand, column, what))

    say = said()
    row = stored.table
    if isinstance(name, NotText):
        say("name", "not UTF-8 text (a damaged name)")
    for column in row.keys():
        if isinstance(row[column], NotText):
            say(column, "not UTF-8 text")
    for r in stored.hands:
        for column in r.keys():
            if isinstance(r[column], NotText):
                said(r["number"] if is_int(r["number"]) else None)(column.removesuffix("_type"), "not UTF-8 text")
    for revision, _, data in stored.events:
        if isinstance(data, NotText):
            say("log", f"event {revision} is not UTF-8 text")
    players = tuple(row[f"player_{seat.lower()}"] for seat in SEATS)
    base_type, base, rules, state = row["base_type"], row["base"], row["rules"], row["next_state"]
    for seat, player in zip(SEATS, players):
        if not isinstance(player, str) or not player.strip():  # (an invisible character is shown escaped)
            say(f"player_{seat.lower()}", f"{player!r} is not a player's name")
    if len({p for p in players if isinstance(p, str)}) < 4:
        say("players", "two seats have one name")
    if base_type != "integer" or not 1 <= base <= MAX_BASE:
        say("base", f"{base!r} is not a 底分 (a whole number from 1 to {MAX_BASE:,})")
    if rules is not None:
        data = _json(rules, dict, "rules", say)
        if data is not None and not (isinstance(data.get("id"), str) and isinstance(data.get("patterns"), list)):
            say("rules", "not a ruleset (no id or no patterns)")
        elif data is not None and table.rules_sha256 is not None and rules_digest(rules) != table.rules_sha256:
            say("rules", "not the rules kept under their digest (changed since they were kept)")
        elif data is not None:
            try:
                kept_rules(rules)
            except (TypeError, ValueError, KeyError, StopIteration) as exc:
                say("rules", f"not a ruleset mjcalc can read ({str(exc)[:60]})")
    parsed = _json(state, dict, "next_state", say)
    if parsed is not None:
        _state_problems(parsed, "next_state", say)
    for expected, r in enumerate(stored.hands, 1):
        number = r["number"]
        say = said(number if is_int(number) else None)
        if number != expected:
            say("number", f"{number!r} where hand {expected} should be (the hands are numbered 1, 2, 3 … in order)")
        if r["kind"] not in ("win", "draw"):
            say("kind", f"{r['kind']!r} is neither a win nor a draw")
        if r["dealer"] not in proof.SEAT_SET:
            say("dealer", f"{r['dealer']!r} is not a seat")
        for column in ("winner", "discarder"):
            if r[column] is not None and r[column] not in proof.SEAT_SET:
                say(column, f"{r[column]!r} is not a seat")
        if r["kind"] == "win" and r["winner"] is None:
            say("winner", "a win with no winner")
        columns = [f"d_{seat.lower()}" for seat in SEATS]
        paid = [r[column] for column in columns]
        for column, value in zip(columns, paid):
            if r[column + "_type"] != "integer":
                say(column, f"{value!r} is not a whole number of points")
            elif abs(value) > proof.MAX_AMOUNT:
                say(column, f"{value} is beyond any amount")
        if all(r[column + "_type"] == "integer" for column in columns) and sum(paid) != 0:
            say(" ".join(columns), f"the payouts {paid} do not sum to zero")
        _state_problems({part: r[f"next_{part}"] for part in ("round", "dealer", "streak", "level")}, "next_*", say)
        if r["level_type"] != "integer" or not 0 <= r["level"] <= MAX_LEVELS:
            say("level", f"{r['level']!r} is not a 上楼 level")
        _json(r["situation"], dict, "situation", say)
        _json(r["patterns"], list, "patterns", say)
        seated = _json(r["players"], list, "players", say)
        if seated is not None and seated and (len(seated) != 4 or not all(isinstance(p, str) for p in seated)
                                              or len(set(seated)) != 4):
            say("players", f"{seated!r} is not four players")
        _json(r["input"], dict, "input", say)
        _json(r["payments"], list, "payments", say)
    for data in stored.penalties:
        say = said()
        penalty = _json(data, dict, "penalty", say)
        deltas = penalty.get("deltas") if penalty else None
        if penalty is not None and (not isinstance(deltas, dict) or not all(is_int(deltas.get(s)) for s in SEATS)
                                    or sum(deltas[s] for s in SEATS) != 0):
            say("penalty", f"the payouts {deltas!r} are not whole numbers summing to zero")
    return found


def _log(stored: Stored, name: str) -> Tuple[List[Tuple[int, str, Data]], List[Problem]]:
    """The table's log read: (revision, kind, data) in order, or the problem that stops it being read."""
    events = []
    for revision, kind, data in stored.events:
        try:
            parsed = json.loads(data) if isinstance(data, str) else None
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict) or not isinstance(kind, str):
            return [], [Problem(name, None, "log", f"event {revision} is not JSON")]
        events.append((revision, kind, parsed))
    return events, []


def _log_problems(stored: Stored, table: Table, events: List[Tuple[int, str, Data]]) -> List[Problem]:
    """Every result the log stores is one mjcalc could have written (`proof.record_faults`), whichever state it
    is for; the table's row (revision, seating, next state) and its cached hands and penalties are what the log
    replays to."""
    name = table.name
    found = [Problem(name, record.get("number") if isinstance(record, dict) and is_int(record.get("number"))
                     else None, f"log event {revision}", fault)
             for revision, record, ours in proof.stored_results(events) for fault in proof.record_faults(record, ours)]
    if found or not events:
        return found  # no log: a ledger from before the log (it is migrated when it is opened to write)
    try:
        evening = replay([(kind, data) for _, kind, data in events])
        replayed = [HandRecord.of(h) for h in evening.hands]
        penalties = [PenaltyRecord.of(p) for p in evening.penalties]
    except (ReplayError, KeyError, TypeError, ValueError) as exc:
        return [Problem(name, None, "log", f"does not replay ({exc})")]
    if table.revision != len(events):
        found.append(Problem(name, None, "revision", f"{table.revision} where the log has {len(events)} writes"))
    if tuple(table.players) != tuple(evening.players):
        found.append(Problem(name, None, "players", f"{list(table.players)} where the log seats "
                                                    f"{list(evening.players)}"))
    if table.state != evening.state:
        found.append(Problem(name, None, "next_state", f"{table.state} where the log makes {evening.state}"))
    found += [Problem(name, None, "closed", fault) for fault in proof.closed_faults(table.closed, events)]
    cached = stored.cached_hands()
    for old, new in zip(cached, replayed):
        if old != new:
            what = [k for k in ("deltas", "winner", "discarder", "total", "dealer", "after", "players")
                    if getattr(old, k) != getattr(new, k)] or ["its record"]
            return found + [Problem(name, old.number, ", ".join(what), "is not what the table's log says")]
    if len(cached) != len(replayed):
        return found + [Problem(name, None, "hands", f"{len(cached)} stored where the log makes {len(replayed)}")]
    kept = [PenaltyRecord.of(json.loads(d)) for d in stored.penalties]
    if kept != penalties:
        found.append(Problem(name, None, "penalties", "are not what the table's log says"))
    return found


def _rules_problems(ledger: Ledger, table: Table, events: List[Tuple[int, str, Data]]) -> List[Problem]:
    """Every rules text the table names — its own, its log's, each result's — is kept under its own digest,
    and readable."""
    named: Dict[str, Optional[int]] = {}
    if table.rules_sha256:
        named[table.rules_sha256] = None
    for _, kind, data in events:
        if kind in ("open", "rules") and isinstance(data.get("rules_sha256"), str):
            named.setdefault(data["rules_sha256"], None)
    for _, record, _ in proof.stored_results(events):
        if isinstance(record.get("rules_sha256"), str):
            named.setdefault(record["rules_sha256"], record.get("number"))
    for sha, number in named.items():
        text = ledger.rules_text(sha)
        if not isinstance(text, str) or rules_digest(text) != sha:
            return [Problem(table.name, number, "rules_sha256", f"the rules {sha[:12]}… are not kept as they were")]
        try:
            kept_rules(text)
        except (TypeError, ValueError, KeyError, StopIteration) as exc:
            return [Problem(table.name, number, "rules_sha256", f"the rules {sha[:12]}… cannot be read ({exc})")]
    return []


def derived_problems(ledger: Ledger, table: Table) -> List[Problem]:
    """Every result the table's log stores (this scorer's), scored again from its entry in its state under its
    rules, and compared (`proof.derived_faults`): what `table check` adds to the checks made on opening."""
    with ledger.reading():
        events, found = _log(ledger.stored(table), table.name)
        rules = {sha: ledger.rules_text(sha) for sha in {r.get("rules_sha256") for _, r, _ in
                                                          proof.stored_results(events)} if isinstance(sha, str)}
    if found:
        return []  # said by the table's own check

    def rules_ok(sha: Optional[str]) -> bool:
        text = rules.get(sha) if sha is not None else None
        return sha is None or isinstance(text, str) and rules_digest(text) == sha

    def rescore(sha: Optional[str], entry: Data, state: State, number: int, paid: Tuple[DealPayment, ...]) -> Data:
        current = kept_rules(rules[sha]) if sha else table_rules(table)
        record, _ = score_input(current, table.base, entry, state, number, paid)
        return record.to_json()

    return [Problem(table.name, number, f"log event {revision}", what)
            for revision, number, what in proof.derived_faults(events, rescore, rules_ok)]


def file_problems(ledger: Ledger) -> List[Problem]:
    """SQLite's quick check of the whole file (once per state of the file)."""
    key = ("file",) + _file_state(ledger.path)
    if key not in _checked or ledger.in_memory:
        rows = ledger.quick_check()
        _checked[key] = [] if rows == ["ok"] else [Problem(None, None, "file", r) for r in rows]
    return _checked[key]


def table_problems(ledger: Ledger, table: Table) -> List[Problem]:
    """Everything wrong with `table` in the ledger (once per state of the file and revision of the table)."""
    key = ("table", table.id, table.revision) + _file_state(ledger.path)
    if key not in _checked or ledger.in_memory:
        stored = ledger.stored(table)  # a file that cannot be read says so itself (LedgerFileError)
        try:
            found = _table_problems(stored, table)
            events: List[Tuple[int, str, Data]] = []
            if not found:  # the rows are sound: then the log, read once, against them and the rules
                events, found = _log(stored, table.name)
                found += _log_problems(stored, table, events)
            if not found:
                found = _rules_problems(ledger, table, events)
        except (ValueError, TypeError, KeyError) as exc:
            found = [Problem(table.name, None, "rows", f"cannot be read ({exc})")]
        _checked[key] = found
    return _checked[key]


def problems(ledger: Ledger, table: Optional[Table] = None, derive: bool = False) -> List[Problem]:
    """Every problem in the ledger's file and in its tables (or in `table`); with `derive`, every stored result
    scored again and compared too (`derived_problems`)."""
    with ledger.reading():
        tables = [table] if table is not None else [t for t, _, _ in ledger.tables()]
        out = list(file_problems(ledger))
        for t in tables:
            found = table_problems(ledger, t)
            out += found if found or not derive else derived_problems(ledger, t)
    return out


def check_table(ledger: Ledger, table: Table) -> Table:
    """`table`, if it and the file are sound; else LedgerFileError naming the first problem (`table check`
    lists them all)."""
    found = table_problems(ledger, table) + file_problems(ledger)  # a row's own problem names its hand
    if found:
        more = Message("ledger.and_more", count=len(found) - 1) if len(found) > 1 else ""
        raise LedgerFileError("ledger.table_damaged", path=str(ledger.path), table=repr(table.name),
                              problem=found[0].text(with_table=False), more=more)
    return table



class CheckedLedger(Ledger):
    """The ledger the front ends open (`mjcalc.evening.Ledger`): every table is checked (`check_table`) before
    it is used. The checks judge the rows storage reads, so they live here, above it."""

    def checked(self, table: Table) -> Table:
        return check_table(self, table)
