"""The ledger: every table of an evening, its log of writes and its hands, stored in one SQLite file. Storage
only: replaying the log is `replay.py`, scoring and recording a hand `record.py`.

Every write to a table is an event in its log (`replay.EVENTS`) and raises the table's revision by one. The
table's hands (each with its id, its seating, its rules, its payouts and the state after it) and its state
before the next hand are a cache of replaying the log, rewritten by the write that changes them. A write is one
`BEGIN IMMEDIATE` transaction that first checks the table is still at the revision the write was computed from
(`Ledger.write`), so a killed writer leaves a write whole or absent, two writers take turns (the second waits up
to `TIMEOUT` seconds) and a write made from a stale view is made again or refused, never applied to a table it
did not see. A write may carry a request id, kept with its answer, so a retried request records once.

The schema's version is SQLite's `user_version`; an older file is copied beside itself (`NAME.bak-vN`) and then
migrated when it is opened; a file from a newer mjcalc is refused.
"""
import hashlib
import json
import os
import secrets
import sqlite3
import sys
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union
from urllib.parse import quote

from ..errors import MjcalcError
from ..messages import Message, did_you_mean
from ..session import MAX_LEVELS, Session, State
from ..tiles import SEATS, seat_word
from .kinds import Data, Entry, EventKind, HandKind
from .replay import PLACED, advance

APPLICATION_ID = 0x6D6A6C67  # 'mjlg': marks a file as an mjcalc ledger
TIMEOUT = 30.0
MAX_STANDING = 2 ** 53 - 1  # a score stays exact as a JSON number anywhere (and far inside SQLite's 2^63)


class LedgerError(MjcalcError):
    """A table, player or hand that the ledger does not have or cannot take: a usage error."""


class LedgerFileError(LedgerError):
    """A ledger file that cannot be used: not SQLite, not mjcalc's, from a newer mjcalc, or unreadable."""


# --- where the file lives ----------------------------------------------------------------------------


def data_dir() -> Path:
    """The platform's user data directory for mjcalc."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming") / "mjcalc"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "mjcalc"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "mjcalc"


def default_path() -> Path:
    """$MJCALC_DB, else the ledger last used by `mjcalc table new`/`use` (`current.json` in the user data
    directory), else `tables.sqlite3` there."""
    if os.environ.get("MJCALC_DB"):
        return Path(os.environ["MJCALC_DB"])
    return remembered_path() or data_dir() / "tables.sqlite3"


def wal_path(path: Path) -> Path:
    """The ledger's write-ahead log beside it (SQLite's name for it): there while a writer is or was at work."""
    return path.with_name(path.name + "-wal")


def _current_file() -> Path:
    return data_dir() / "current.json"


def remembered_path() -> Optional[Path]:
    """The ledger `remember_path` wrote down, if any (an unreadable note is no note)."""
    try:
        data = json.loads(_current_file().read_text(encoding="utf-8"))
        return Path(data["db"]) if isinstance(data, dict) and isinstance(data.get("db"), str) else None
    except (OSError, ValueError):
        return None


def remember_path(path: Path) -> None:
    """Write down `path` as the ledger to use when neither --db nor $MJCALC_DB says one (best effort)."""
    try:
        note = _current_file()
        note.parent.mkdir(parents=True, exist_ok=True)
        fresh = note.with_name(f"{note.name}.{os.getpid()}")  # written whole, then put in place: never half a note
        fresh.write_text(json.dumps({"db": str(Path(path).resolve())}, ensure_ascii=False, allow_nan=False),
                         encoding="utf-8")
        os.replace(fresh, note)
    except OSError:
        pass


# --- the schema and its migrations ---------------------------------------------------------------------


def _events_schema(db: sqlite3.Connection) -> None:
    """4: the event log. Every write to a table is an event (`replay.EVENTS`) with the table's revision; the hands
    are a cache of replaying them, each with its id, its seating and the rules it was recorded under (kept once
    by SHA-256 in `rules`); a write may carry a request id, kept with the answer it got. Each table's hands are
    carried over as the events that make them: its opening (the players and rules it has now: an older ledger
    kept no other), a correction where a stored state is not the one the hands make, and its hands as recorded."""
    for statement in """
        CREATE TABLE rules (sha256 TEXT PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL CHECK (revision >= 1),
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            request_id TEXT UNIQUE,
            request_digest TEXT,
            answer TEXT,
            recorded TEXT NOT NULL,
            UNIQUE (table_id, revision)
        );
        ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE tables ADD COLUMN rules_sha256 TEXT;
        ALTER TABLE tables ADD COLUMN next_state TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE hands ADD COLUMN hand_id TEXT;
        ALTER TABLE hands ADD COLUMN rules_sha256 TEXT;
        ALTER TABLE hands ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE hands ADD COLUMN input TEXT NOT NULL DEFAULT '{}'
    """.split(";"):
        db.execute(statement)
    for tid, rules, *players in db.execute("SELECT id, rules, player_e, player_s, player_w, player_n FROM tables"
                                           ).fetchall():
        sha = _keep_rules(db, rules) if rules else None
        session = _session(rules) if rules else None
        events: List[Tuple[EventKind, Data]] = [
            ("open", {"players": players, "rules_sha256": sha, **_logged(session)})]
        state = State()
        rows = _named(db, "SELECT * FROM hands WHERE table_id = ? ORDER BY number", (tid,)).fetchall()
        for row in rows:
            row_id, old = row["id"], _hand(row)
            if old.before != state:
                events.append(("state", {"state": _state_json(old.before)}))
            natural = advance(old.before, session, old.winner) if session else old.after
            record = old.but(hand_id=new_hand_id(), players=tuple(players), rules_sha256=sha, after=natural,
                             input=_old_input(old, rules))
            events.append(("hand", {"hand_id": record.hand_id, "input": record.input, "recorded": record.recorded,
                                    "records": [record.to_json()]}))
            if natural != old.after:  # a correction folded into the hand's row
                events.append(("state", {"state": _state_json(old.after)}))
            state = old.after
            db.execute("UPDATE hands SET hand_id = ?, rules_sha256 = ?, players = ?, input = ?, next_round = ?, "
                       "next_dealer = ?, next_streak = ?, next_level = ? WHERE id = ?",
                       (record.hand_id, sha, _dumps(players), _dumps(record.input), natural.round, natural.dealer,
                        natural.streak, natural.level, row_id))
        for revision, (kind, data) in enumerate(events, 1):
            db.execute("INSERT INTO events (table_id, revision, kind, data, recorded) VALUES (?, ?, ?, ?, ?)",
                       (tid, revision, kind, _dumps(data), now()))
        db.execute("UPDATE tables SET revision = ?, rules_sha256 = ?, next_state = ? WHERE id = ?",
                   (len(events), sha, _dumps(_state_json(state)), tid))


def _logged(session: Optional[Session]) -> Data:
    """What the opening of a table's log keeps of its rules (`Session.logged`): with no rules kept, every 上楼 level."""
    return session.logged() if session else {"levels": MAX_LEVELS}


def _session(rules_json: str) -> Session:
    """The `session:` rules of a ruleset kept as JSON (pairs of key and value)."""
    return Session(**dict(json.loads(rules_json).get("session") or ()))


def _old_input(record: "HandRecord", rules: Optional[str]) -> Data:
    """How an older ledger's hand was entered, to score it again if an edit before it changes its state."""
    if record.kind == "draw":
        return {"entry": "draw"}
    situation = {k: v for k, v in record.situation.items() if k not in ("dealer", "base")}
    if record.entry == "total":
        return {"entry": "total", "total": record.total, "situation": situation}
    if record.entry == "patterns":
        values = {p["id"]: p["value"] for p in json.loads(rules)["patterns"]} if rules else {}
        counts = {m["id"]: max(1, m["value"] // values[m["id"]]) if values.get(m["id"]) else 1
                  for m in record.patterns}
        return {"entry": "patterns", "patterns": counts, "situation": situation}
    return {"entry": "tiles", "hand": record.hand, "situation": situation}


@dataclass(frozen=True)
class Migration:
    """One step of the schema, named: SQL statements (`;` between them) or a function of the connection, for
    rows to be carried over (read by column name, as the schema has them at that step)."""

    name: str
    step: Union[str, Callable[[sqlite3.Connection], None]]

    def run(self, db: sqlite3.Connection) -> None:
        if callable(self.step):
            self.step(db)
            return
        for statement in self.step.split(";"):
            if statement.strip():
                db.execute(statement)


MIGRATIONS = (
    # 1: tables and hands; a hand row carries its deltas and the state after it.
    Migration("tables-and-hands", """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        ruleset TEXT NOT NULL,
        ruleset_id TEXT NOT NULL,
        base INTEGER NOT NULL CHECK (base >= 1),
        player_e TEXT NOT NULL, player_s TEXT NOT NULL, player_w TEXT NOT NULL, player_n TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        number INTEGER NOT NULL CHECK (number >= 1),
        round INTEGER NOT NULL, dealer TEXT NOT NULL, streak INTEGER NOT NULL, level INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('win', 'draw')),
        hand TEXT, winner TEXT, discarder TEXT, total INTEGER,
        situation TEXT NOT NULL,
        d_e INTEGER NOT NULL, d_s INTEGER NOT NULL, d_w INTEGER NOT NULL, d_n INTEGER NOT NULL,
        next_round INTEGER NOT NULL, next_dealer TEXT NOT NULL, next_streak INTEGER NOT NULL,
        next_level INTEGER NOT NULL,
        recorded TEXT NOT NULL,
        UNIQUE (table_id, number),
        CHECK (d_e + d_s + d_w + d_n = 0)
    );
    """),
    # 2: the pattern breakdown of each win, for `show` and `export` (hands recorded before it show none).
    Migration("patterns", """
    ALTER TABLE hands ADD COLUMN patterns TEXT NOT NULL DEFAULT '[]';
    """),
    # 3: a table keeps its rules (the validated ruleset as JSON; NULL for a table opened before: it takes the
    # file's rules on first use and keeps them); how each hand was entered (tiles, total, patterns; NULL for a
    # draw); the ledger's settings (the current table).
    Migration("kept-rules-entry-settings", """
    ALTER TABLE tables ADD COLUMN rules TEXT;
    ALTER TABLE hands ADD COLUMN entry TEXT CHECK (entry IN ('tiles', 'total', 'patterns'));
    UPDATE hands SET entry = 'tiles' WHERE kind = 'win';
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """),
    Migration("event-log", _events_schema),
    # 5: penalties between hands (a cache of the log's penalty events, as the hands are), and a table closed
    # against accidental writes once settled.
    Migration("penalties-and-closing", """
    CREATE TABLE penalties (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        penalty_id TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (table_id, penalty_id)
    );
    ALTER TABLE tables ADD COLUMN closed TEXT;
    """),
    # 6: a deal that goes on after a win (血战): the wins before a hand in its deal, and after it, as JSON
    # [[winner, discarder], …] ('[]' between deals: every hand an older ledger has).
    Migration("deal-wins", """
    ALTER TABLE hands ADD COLUMN won TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE hands ADD COLUMN next_won TEXT NOT NULL DEFAULT '[]';
    """),
    # 7: a draw's settlement reads the payments made during its deal (a refund, 退税): their ids, as JSON
    # ('[]' for every other hand, and every hand an older ledger has).
    Migration("deal-payments", """
    ALTER TABLE hands ADD COLUMN payments TEXT NOT NULL DEFAULT '[]';
    """),
)
VERSION = len(MIGRATIONS)
LEDGER_TABLES = ("tables", "hands", "settings", "rules", "events", "penalties")  # what the migrations make

Shape = Dict[str, Tuple[Tuple[str, str, int], ...]]  # each table's columns: name, declared type, place in the key


def _shape(db: sqlite3.Connection) -> Shape:
    return {name: tuple((row[1], row[2].upper(), row[5]) for row in db.execute(f"PRAGMA table_info({name})"))
            for name in LEDGER_TABLES}


@lru_cache(maxsize=1)
def expected_shape() -> Shape:
    """The tables' columns as the migrations make them, read from a ledger made in memory (once a process)."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in MIGRATIONS:
            migration.run(db)
        return _shape(db)
    finally:
        db.close()


def now(exact: bool = False) -> str:
    """The time (UTC, ISO 8601) to the second; `exact`, to the microsecond (a table's opening: with its name,
    what tells it from a table made again under that name, as the page's ETag must)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds" if exact else "seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)


def new_hand_id() -> str:
    """A hand's id: it names that hand (that entry) for as long as the ledger lives, whatever its number."""
    return secrets.token_hex(6)


def rules_digest(rules_json: str) -> str:
    return hashlib.sha256(rules_json.encode("utf-8")).hexdigest()


def _keep_rules(db: sqlite3.Connection, rules_json: str) -> str:
    """Keep the rules (once, by their SHA-256); their digest."""
    sha = rules_digest(rules_json)
    db.execute("INSERT OR IGNORE INTO rules (sha256, json) VALUES (?, ?)", (sha, rules_json))
    return sha


def _state_json(state: State) -> Data:
    return state.json()


def _state_of(data: Data) -> State:
    return State.of(data) if data else State()


def _stored_state(text: Any) -> State:
    """A table's next state as stored; one that cannot be read is the opening state here, and a problem that
    `check` names before the table is used."""
    try:
        data = json.loads(text)
        return State.of(data) if data else State()
    except (ValueError, TypeError, KeyError):
        return State()


def _full(path: Path) -> bool:
    """Whether the file system holding `path` has no room left (an I/O error there is then a full disk)."""
    try:
        return os.statvfs(path.parent).f_bavail == 0
    except (OSError, AttributeError):
        return False


# --- values --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    id: int
    name: str
    ruleset: str  # as it is loaded: a built-in id or a file's absolute path
    ruleset_id: str
    base: int
    players: Tuple[str, str, str, str]  # E S W N, as they sit now
    created: str
    rules: Optional[str] = None  # the validated ruleset as JSON it plays now
    revision: int = 0  # how many writes the table has had: a write names the revision it was made from
    rules_sha256: Optional[str] = None
    state: State = State()  # before the next hand
    closed: Optional[str] = None  # when it was closed against writes (`table close`), or None: open

    def player(self, seat: str) -> str:
        return self.players[SEATS.index(seat)]

    def brief(self, record: "HandRecord") -> str:
        """A hand in a few words, to tell it from another: `hand 2 (小李 ← 老王 3)`, `(小李 自摸 3)`, `(荒牌)`."""
        return f"hand {record.number} ({self.result(record)})"

    def result(self, record: "HandRecord") -> str:
        """How a hand ended, in a few words: `小李 ← 老王 3`, `小李 自摸 3`, `荒牌`."""
        if record.kind != "win" or record.winner is None:
            return "荒牌"
        how = f"← {record.player(record.discarder)}" if record.discarder else "自摸"
        return f"{record.player(record.winner)} {how} {record.total}"

    def seat(self, who: str) -> str:
        """A seat from a seat letter (E, 东…) or a player's name."""
        text = str(who).strip()
        if text in self.players:
            return SEATS[self.players.index(text)]
        seat = seat_word(text)
        if seat is not None:
            return seat
        raise LedgerError("ledger.unknown_player", player=repr(text), table=repr(self.name),
                          players=[f"{s} {p}" for s, p in zip(SEATS, self.players)])


@dataclass(frozen=True)
class HandRecord:
    number: int
    round: int
    dealer: str
    streak: int
    level: int
    kind: HandKind
    hand: Optional[str]
    winner: Optional[str]
    discarder: Optional[str]
    total: Optional[int]
    situation: Data
    patterns: List[Data]
    deltas: Dict[str, int]
    after: State
    recorded: str
    entry: Optional[Entry] = None  # how a win was entered: tiles, total or patterns (None for a draw)
    hand_id: str = ""
    players: Tuple[str, ...] = ()  # who sat where (E S W N) when the hand was played
    rules_sha256: Optional[str] = None  # the rules it was recorded under
    input: Data = field(default_factory=dict)  # how it was entered, to score it again in another state
    won: Tuple[Tuple[str, Optional[str]], ...] = ()  # the deal's wins before it (`State.won`)
    payments: Tuple[str, ...] = ()  # the ids of the payments made during its deal that it read (a draw; a 杠上炮 win)

    @property
    def factor(self) -> int:
        return self.before.factor

    @property
    def before(self) -> State:
        return State(self.round, self.dealer, self.streak, self.level, self.won)

    def player(self, seat: str) -> str:
        """Who sat at `seat` in this hand."""
        return self.players[SEATS.index(seat)]

    def but(self, **changes: Any) -> "HandRecord":
        return replace(self, **changes)

    def to_json(self) -> Data:
        """The record as the log keeps it: every field by its name (`hand_id` first), the state after it and
        the seating as JSON."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(after=_state_json(self.after), players=list(self.players), deltas=dict(self.deltas))
        if self.won:  # in the middle of a deal only: a log between deals reads as it always did
            data["won"] = [list(w) for w in self.won]
        else:
            del data["won"]
        if self.payments:  # a hand that read payments of its deal only
            data["payments"] = list(self.payments)
        else:
            del data["payments"]
        return {"hand_id": data.pop("hand_id"), **data}

    @classmethod
    def of(cls, data: Data) -> "HandRecord":
        """A record the log kept (`to_json`), or replayed from it; a field an older log has not is its default."""
        given = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        given.update(deltas=dict(data["deltas"]), after=_state_of(data["after"]),
                     players=tuple(data.get("players") or ()), input=data.get("input") or {},
                     won=tuple(map(tuple, data.get("won") or ())), payments=tuple(data.get("payments") or ()))
        return cls(**given)

    def to_dict(self, table: Table) -> Data:
        """The hand in `table show --json`, its players named as they sat then; a hand told without its tiles
        with what the table told of it (`told`: open, kongs, wild_roles), where it told any."""
        def name(seat: Optional[str]) -> Optional[str]:
            return self.player(seat) if seat and self.players else (table.player(seat) if seat else None)

        told = {"told": dict(self.input["told"])} if self.input.get("told") else {}
        return {
            **told,
            "number": self.number, "hand_id": self.hand_id, "round": self.round, "dealer": self.dealer,
            "dealer_player": name(self.dealer),
            "streak": self.streak, "shanglou": self.level, "factor": self.factor, "kind": self.kind,
            "hand": self.hand, "winner": self.winner, "winner_player": name(self.winner),
            "winners": [self.winner] if self.winner else [],  # one today; a deal with several (Sichuan) later
            "from": self.discarder, "from_player": name(self.discarder), "total": self.total,
            "patterns": self.patterns, "entry": self.entry, "situation": dict(self.situation),
            "payouts": dict(self.deltas), "players": dict(zip(SEATS, self.players or table.players)),
            "rules_sha256": self.rules_sha256, "recorded": self.recorded,
        }


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty between hands: `player` (a seat) pays as the ruleset's penalty `penalty` says; no hand number,
    the deal does not move. `after_hand`: how many hands were played before it."""

    penalty_id: str
    penalty: str  # the ruleset's penalty id (诈和 …)
    name: str  # its Chinese name, as the rules said when it was recorded
    player: str  # the seat that pays
    to: Optional[str]  # the seat paid, when the penalty pays one player
    reason: str
    deltas: Dict[str, int]
    players: Tuple[str, ...]  # who sat where (E S W N) then
    after_hand: int
    recorded: str
    revision: int = 0  # the event that recorded it (a revert names it)

    def to_json(self) -> Data:
        return {"penalty_id": self.penalty_id, "penalty": self.penalty, "name": self.name, "player": self.player,
                "to": self.to, "reason": self.reason, "deltas": dict(self.deltas), "players": list(self.players),
                "after_hand": self.after_hand, "recorded": self.recorded, "revision": self.revision}

    @classmethod
    def of(cls, data: Data) -> "PenaltyRecord":
        return cls(data["penalty_id"], data["penalty"], data["name"], data["player"], data.get("to"),
                   data.get("reason") or "", {s: int(data["deltas"][s]) for s in SEATS}, tuple(data["players"]),
                   int(data["after_hand"]), data["recorded"], int(data.get("revision", 0)))


@dataclass(frozen=True)
class Standing:
    """A person's score at a table; `seat` is where they sit now (None: they left the table)."""

    player: str
    score: int
    seat: Optional[str]


def standings_of(players: Tuple[str, ...], hands: List[HandRecord],
                 penalties: Tuple[PenaltyRecord, ...] = ()) -> List[Standing]:
    """Each person's score, hands and penalties: the people seated now E S W N first, then those who left, in
    the order they first played."""
    scores: Dict[str, int] = {}
    for seating, deltas in [(h.players, h.deltas) for h in hands] + [(p.players, p.deltas) for p in penalties]:
        for seat, person in zip(SEATS, seating or players):
            scores[person] = scores.get(person, 0) + deltas[seat]
    left = [p for p in scores if p not in players]
    return ([Standing(p, scores.get(p, 0), s) for s, p in zip(SEATS, players)]
            + [Standing(p, scores[p], None) for p in left])


def standings_with(standings: List[Standing], record: "HandRecord", sign: int = 1) -> Optional[List[Standing]]:
    """The standings `standings_of` gives after `record` is added (`sign` 1) or taken away (-1) as the evening's
    last hand, from the standings before it; None when that moves who is listed (someone who left the table)."""
    seated = {s.player for s in standings if s.seat is not None}
    if any(person not in seated for person in record.players):
        return None
    paid = {person: record.deltas[seat] * sign for seat, person in zip(SEATS, record.players)}
    return [replace(s, score=s.score + paid.get(s.player, 0)) for s in standings]


@dataclass(frozen=True)
class Request:
    """A write's request id (1–64 printable ASCII), the digest of what it asked, and the answer it got."""

    id: str
    digest: str
    answer: Optional[Data] = None


@dataclass(frozen=True)
class Change:
    """One write to a table: the event, and the table it leaves (its hands, of which the first `keep` are
    stored as they are; the state before the next hand; who sits where; the rules when they change)."""

    kind: EventKind
    data: Data
    hands: List[HandRecord]
    keep: int
    state: State
    players: Tuple[str, str, str, str]  # E S W N, as they sit after it
    rules: Optional[Tuple[str, str, str]] = None  # (ruleset as loaded, ruleset id, rules JSON)
    request: Optional[Request] = None
    penalties: Tuple[PenaltyRecord, ...] = ()  # the table's penalties after it (all of them)
    close: Optional[bool] = None  # True: the table is closed by it; False: reopened; None: as it was
    standings: Optional[Tuple[Standing, ...]] = None  # after it (`standings_of`), when the writer has them
    same: Optional[Tuple[int, ...]] = None  # the numbers of hands after `keep` that are stored as they are already

    def rows(self) -> List[int]:
        """The numbers of the hands the write stores anew: after `keep`, all but those stored as they are."""
        same = set(self.same or ())
        return [n for n in range(self.keep + 1, len(self.hands) + 1) if n not in same]


# How a HandRecord is stored: one column per field, named as the field, but `deltas` (a column per seat) and
# `after` (the state after the hand, a column per part); these fields are JSON text.
_SPLIT = {"deltas": tuple(f"d_{seat.lower()}" for seat in SEATS),
          "after": ("next_round", "next_dealer", "next_streak", "next_level", "next_won")}
_AS_JSON = ("situation", "patterns", "players", "input", "won", "payments")
_LATER = ("next_won",)  # columns a migration adds after the field's first ones: an older row reads their default
HAND_COLUMNS = tuple(column for f in fields(HandRecord) for column in _SPLIT.get(f.name, (f.name,)))
_HAND_COLUMNS = ", ".join(HAND_COLUMNS)


def _hand_values(record: HandRecord) -> Tuple[Any, ...]:
    """The record's row, in `HAND_COLUMNS` order."""
    values: List[Any] = []
    for f in fields(record):
        value = getattr(record, f.name)
        if f.name == "deltas":
            values += [value[seat] for seat in SEATS]
        elif f.name == "after":
            values += [value.round, value.dealer, value.streak, value.level, _dumps([list(w) for w in value.won])]
        elif f.name in _AS_JSON:
            values.append(_dumps([list(w) for w in value] if f.name == "won" else
                                 list(value) if f.name in ("players", "payments") else value))
        else:
            values.append(value)
    return tuple(values)


def _hand(row: sqlite3.Row) -> HandRecord:
    """A hand's row (read by name: `_named`) as its record; a field whose column an older schema has not yet (a
    migration reading its rows) is the field's default."""
    given: Dict[str, Any] = {}
    present = set(row.keys())
    for f in fields(HandRecord):
        if not set(_SPLIT.get(f.name, (f.name,))) - set(_LATER) <= present:
            continue
        if f.name == "deltas":
            given[f.name] = {seat: row[column] for seat, column in zip(SEATS, _SPLIT["deltas"])}
        elif f.name == "after":
            after = {key: row[column] for key, column in zip(("round", "dealer", "streak", "level"), _SPLIT["after"])}
            given[f.name] = State.of(dict(after, won=json.loads(row["next_won"]) if "next_won" in present else []))
        elif f.name == "won":
            given[f.name] = tuple(map(tuple, json.loads(row["won"])))
        elif f.name in _AS_JSON:
            given[f.name] = json.loads(row[f.name])
        else:
            given[f.name] = row[f.name]
    return HandRecord(**{**given, "players": tuple(given.get("players", ())), "payments": tuple(given.get("payments", ())),
                         "hand_id": given.get("hand_id") or ""})


def _named(db: sqlite3.Connection, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
    """`db.execute`, its rows read by column name (`sqlite3.Row`)."""
    cursor = db.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor.execute(sql, args)


# A hand's row as `check` reads it (by name): the values, and SQLite's type of the payouts and the level
# (`<column>_type`).
STORED_HAND = ", ".join(["number", "kind", "dealer", "winner", "discarder", "level", "typeof(level) AS level_type",
                         *_SPLIT["deltas"], *(f"typeof({c}) AS {c}_type" for c in _SPLIT["deltas"]),
                         *_SPLIT["after"], *_AS_JSON])


@dataclass(frozen=True)
class Stored:
    """A table's rows as stored (`Ledger.stored`), read by column name: its own row (player_e … player_n,
    base and base_type, rules, next_state), its hands (`STORED_HAND`), the same hands as the cache keeps them,
    its log (revision, kind, data) and its penalties' data."""

    table: sqlite3.Row
    hands: List[sqlite3.Row]
    cached: List[sqlite3.Row]
    events: List[Tuple[Any, ...]]  # (revision, kind, data) as stored, for `check` to judge
    penalties: List[Any]  # each penalty's data as stored

    def cached_hands(self) -> List[HandRecord]:
        """The cache's hands read as records (after `check` found their columns sound)."""
        return [_hand(row) for row in self.cached]


_TABLE_COLUMNS = ("id, name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, created, rules, "
                  "revision, rules_sha256, next_state, closed")
_TABLE_WIDTH = len(_TABLE_COLUMNS.split(","))


@dataclass
class _Known:
    """What one connection knows of a table while no other connection has written the file (SQLite's
    `data_version` is `version`): that it is sound at `revision` (checked, or written by this connection from a
    sound state), and its hands and log as read or written (None: not read yet)."""

    revision: int
    version: int
    hands: Optional[List["HandRecord"]] = None
    events: Optional[List[Tuple[str, Data]]] = None
    standings: Optional[List["Standing"]] = None


class NotText(str):
    """A stored text that is not UTF-8 (or bytes where a text belongs), read with its bad bytes replaced: shown
    as it is, and reported by `check` (it is never what mjcalc wrote)."""


def _lenient(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return NotText(raw.decode("utf-8", "replace"))


def _table(row: Sequence[Any]) -> Table:
    row = tuple(_lenient(v) if isinstance(v, bytes) else v for v in row)
    tid, name, ruleset, ruleset_id, base, e, s, w, n, created, rules, revision, sha, state, closed = row
    return Table(tid, name, ruleset, ruleset_id, base, (e, s, w, n), created, rules, revision, sha,
                 _stored_state(state), closed)


MAX_PLAYER = 24  # a player's name, in what a reader counts as characters (grapheme clusters)
MAX_TABLE = 64  # a table's name, likewise
ZWJ = "\u200d"
_EMOJI_JOINERS = {ZWJ, "\ufe0e", "\ufe0f"}  # the joiner and the variation selectors an emoji sequence is made of


def _emoji_part(ch: str) -> bool:
    """An invisible character that belongs to an emoji (👩‍💻, ❤️, 🏴 with its tags) rather than hiding text."""
    return ch in _EMOJI_JOINERS or 0xE0020 <= ord(ch) <= 0xE007F


def clusters(text: str) -> int:
    """How many characters a reader sees in `text`: combining marks, variation selectors, skin tones and tags
    join the character before them, a joiner joins the next one to it, and two regional indicators are one flag."""
    count, joined, flags = 0, False, 0
    for ch in text:
        code = ord(ch)
        if ch == ZWJ:
            joined = True
            continue
        if unicodedata.category(ch) in ("Mn", "Me", "Mc") or _emoji_part(ch) or 0x1F3FB <= code <= 0x1F3FF:
            continue
        if joined:
            joined = False
            continue
        if 0x1F1E6 <= code <= 0x1F1FF:
            flags += 1
            if flags % 2 == 0:
                continue
        else:
            flags = 0
        count += 1
    return count


def visible(text: str) -> str:
    """`text`, refused when it holds a control or invisible character (a name is printed to terminals); the
    joiners and selectors of an emoji sequence, after a visible character, are part of it, not hidden."""
    for i, ch in enumerate(text):
        if ch.isprintable() or _emoji_part(ch) and i > 0 and not text[i - 1].isspace():
            continue
        raise LedgerError("ledger.invisible_char", name=repr(text), char=ascii(ch)[1:-1])
    return text


def _bounded(name: str, limit: int, what: str) -> str:
    size = clusters(name)
    if size > limit:
        raise LedgerError("ledger.name_too_long", what=Message(what), name=repr(name[:40] + ("…" if len(name) > 40
                                                                                             else "")),
                          limit=limit, size=size)
    return name


def _table_name(name: str) -> str:
    name = visible(name.strip())
    if not name:
        raise LedgerError("ledger.table_needs_name")
    return _bounded(name, MAX_TABLE, "ledger.a_table")


def check_players(players: Dict[str, str]) -> List[str]:
    """The four players E S W N, each named, none like a seat, no two alike."""
    missing = [s for s in SEATS if not (players.get(s) or "").strip()]
    if missing:
        raise LedgerError("ledger.missing_players", seats=missing, first=missing[0])
    names = [_bounded(visible(players[s].strip()), MAX_PLAYER, "ledger.a_player") for s in SEATS]
    for seat, player in zip(SEATS, names):
        if seat_word(player) is not None:
            raise LedgerError("ledger.player_like_seat", seat=seat, player=player)
        if names.count(player) > 1:
            raise LedgerError("ledger.same_players", player=repr(player))
    return names


# --- the ledger ------------------------------------------------------------------------------------------


_Self = TypeVar("_Self", bound="Ledger")


class Ledger:
    """The ledger file: open it (creating or migrating it), then read tables and record hands."""

    def __init__(self, path: Union[str, "os.PathLike[str]", None] = None, target: int = VERSION,
                 readonly: bool = False) -> None:
        """Open the ledger at `path`. With `readonly`, nothing is ever written, created or migrated: an existing,
        current ledger is opened for reading only (it may sit in a read-only directory or on a full disk); an
        older one is read as a copy in memory, migrated there; a file that is not there (or empty) reads as an
        empty ledger, and no file or directory is made."""
        self.path = Path(path) if path is not None else default_path()
        self.backup: Optional[Path] = None  # where the file was copied before its schema changed, if it was
        self.in_memory = False  # a read-only view of a file that is not there, or of an older schema
        self._known: Dict[int, _Known] = {}  # table id → what this connection knows of it (`_knows`)
        if str(path if path is not None else self.path) in ("", ":memory:") or str(self.path).startswith("file:"):
            raise self._file_error("ledger.file_not_a_file")  # SQLite would keep it in memory: nothing stored
        try:
            if self.path.is_dir():
                raise self._file_error("ledger.file_is_directory")
            if self.path.exists() and not self.path.is_file():
                raise self._file_error("ledger.file_not_a_file")  # /dev/null, a pipe: nothing would be kept
            there = self.path.is_file() and self.path.stat().st_size > 0
        except OSError as exc:  # a name too long, a directory that cannot be searched
            raise self._file_error("ledger.file_cannot_open", reason=exc.strerror or str(exc)) from None
        if readonly:
            self._open_readonly(target, there)
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(self.path), timeout=TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise self._file_error("ledger.file_cannot_open", reason=str(exc)) from None
        try:
            self._open(target)
        except BaseException:
            self.db.close()
            raise

    def _open_readonly(self, target: int, there: bool) -> None:
        """Open for reading only. A file that is not there reads as an empty ledger in memory; a file not marked
        as a ledger in its header is refused (a read-only connection would leave a foreign WAL file's -wal and
        -shm behind); an older schema is copied into memory and migrated there, the file left as it is."""
        if not there:
            return self._in_memory(None, target)
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        if self._header_app_id(uri) not in (None, APPLICATION_ID):
            raise self._file_error("ledger.file_foreign")
        for suffix in ("", "&immutable=1"):  # immutable: where -shm cannot be made (a read-only place, a full disk)
            try:
                self.db = sqlite3.connect(uri + suffix, uri=True, timeout=TIMEOUT, isolation_level=None)
            except sqlite3.Error as exc:
                raise self._file_error("ledger.file_cannot_open", reason=str(exc)) from None
            try:
                with self._errors():
                    fresh, version = self._identify()
            except LedgerFileError as exc:
                self.db.close()
                if exc.code in ("ledger.file_cannot_open", "ledger.file_readonly", "ledger.file_full") and not suffix:
                    continue
                raise
            if fresh or version < target:
                copy = self.db
                try:
                    return self._in_memory(copy, target)
                finally:
                    copy.close()
            return
        raise self._file_error("ledger.file_cannot_open", reason="cannot be read")

    def check_writable(self) -> None:
        """LedgerFileError (`ledger.file_readonly`, …) when this file cannot be written here: on a read-only file
        system, or a file this user cannot write, SQLite opens it for reading and a transaction that writes nothing
        goes through, so this tries a write that changes nothing (the header's version, as it is) and rolls it
        back. Nothing is ever written."""
        with self._errors():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                self.db.execute(f"PRAGMA user_version = {int(version)}")
            finally:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")

    def _header_app_id(self, uri: str) -> Optional[int]:
        """The application id in the file's header, read by SQLite without locks and without making a -wal or
        -shm file (immutable); None when it cannot be known this way. Never through a file object of our own:
        closing any descriptor of a database drops every POSIX lock this process holds on it, which SQLite's
        own descriptors are kept from doing — a server's other connections would lose their locks, and another
        process could then checkpoint and delete a WAL that still holds acknowledged writes.

        Not probed while a WAL is beside the file: a writer may be checkpointing into it this moment, which a
        read without locks can see half written ("database disk image is malformed": a reader of a table being
        recorded at got that once in a few thousand reads), and the header itself may still be in the WAL. A
        writer that starts between the look and the read is the same case, told by the WAL it made."""
        wal = wal_path(self.path)
        if wal.exists():
            return None
        try:
            probe = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
            try:
                app: int = probe.execute("PRAGMA application_id").fetchone()[0]
                return app
            finally:
                probe.close()
        except sqlite3.DatabaseError as exc:
            if wal.exists():
                return None
            if "not a database" in str(exc):
                raise self._file_error("ledger.file_unreadable", reason=str(exc)) from None
            raise self._file_error("ledger.file_cannot_open", reason=str(exc)) from None

    def _in_memory(self, source: Optional[sqlite3.Connection], target: int) -> None:
        """A ledger in memory: empty, or a copy of `source` (a connection), migrated to `target` there."""
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        self.in_memory = True
        if source is not None:
            with self._errors():
                source.backup(self.db)
        self._open(target)

    def _file_error(self, code: str, **params: Any) -> LedgerFileError:
        """The error `code` (a `ledger.file_*` message) about this ledger's file, which it names first."""
        return LedgerFileError(code, path=str(self.path), **params)

    def close(self) -> None:
        self.db.close()

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """sqlite3's errors as one line naming the file."""
        try:
            yield
        except UnicodeDecodeError as exc:  # a stored text that is not UTF-8: the file was damaged
            raise self._file_error("ledger.file_unreadable", reason=f"a text that is not UTF-8 ({exc.reason})") from None
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "not a database" in text or "malformed" in text:
                raise self._file_error("ledger.file_unreadable", reason=text) from None
            if "locked" in text or "busy" in text:
                raise self._file_error("ledger.file_busy", seconds=f"{TIMEOUT:.0f}") from None
            if "disk is full" in text or "disk I/O error" in text and _full(self.path):
                raise self._file_error("ledger.file_full") from None
            if "readonly" in text or "read-only" in text:
                raise self._file_error("ledger.file_readonly", reason=text) from None
            if "unable to open" in text:
                raise self._file_error("ledger.file_cannot_open", reason=text) from None
            raise self._file_error("ledger.file_sqlite", reason=text) from None

    @contextmanager
    def reading(self: _Self) -> Iterator[_Self]:
        """One read transaction: every read inside it sees the ledger as of one moment (a table's revision and
        its hands alike), whatever is written meanwhile."""
        if self.db.in_transaction:  # inside another read (or a write): it sees one moment already
            yield self
            return
        with self._errors():
            self.db.execute("BEGIN")
            try:
                yield self
            finally:
                if self.db.in_transaction:
                    self.db.execute("COMMIT")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction that holds the write lock from its start, so what it reads stays true."""
        self._known.clear()  # whatever this write changes, nothing known before it is taken for granted
        with self._errors():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:  # (a full disk ends the transaction itself: its error is the one said)
                    self.db.execute("ROLLBACK")
                raise

    def _identify(self) -> Tuple[bool, int]:
        """Whether the file is new (empty: no schema, no marks), and its schema version; LedgerFileError when it
        is not an mjcalc ledger. Reads only: nothing is written to a file before it is known to be ours. The three
        reads are one read transaction, so another process creating the ledger is seen wholly or not at all."""
        self.db.execute("BEGIN")  # deferred: takes no write lock and writes nothing
        try:
            app = self.db.execute("PRAGMA application_id").fetchone()[0]
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            names = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master")}
        finally:
            if self.db.in_transaction:  # a read that failed (a full disk) ended it: its own error is the one said
                self.db.execute("COMMIT")
        if app == 0:
            if version or names:
                raise self._file_error("ledger.file_foreign")
            return True, 0
        self._check_version(app, version, fresh_ok=True)
        if version == 0 and names or version and not {"tables", "hands"} <= names:
            raise self._file_error("ledger.file_damaged")
        if version == VERSION:
            self._check_shape()
        return False, version

    def _check_shape(self) -> None:
        """A ledger whose tables lack a column as the migrations made it (a byte changed in its schema: a key
        that is no longer the row's id reads every table as gone) is refused as damaged, in one line."""
        self.db.execute("BEGIN")
        try:
            found = _shape(self.db)
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")
        changed = sorted(name for name, columns in expected_shape().items()  # a column added later is no damage
                         if not set(columns) <= set(found.get(name, ())))
        if changed:
            raise self._file_error("ledger.file_damaged_schema", tables=", ".join(changed))

    def _open(self, target: int) -> None:
        with self._errors():
            fresh, version = self._identify()  # before any statement that writes, journal_mode included
            if not fresh and 0 < version < target and not self.in_memory:
                self._back_up(version)
            self.db.execute("PRAGMA foreign_keys = ON")
            if self.db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            with self._write() as db:
                app, version = db.execute("PRAGMA application_id").fetchone()[0], db.execute("PRAGMA user_version").fetchone()[0]
                self._check_version(app, version, fresh_ok=True)
                if version == 0 and app == 0:
                    others = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                    if others:
                        raise self._file_error("ledger.file_foreign")
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                for number in range(version, target):
                    MIGRATIONS[number].run(db)
                    db.execute(f"PRAGMA user_version = {number + 1}")

    def _back_up(self, version: int) -> None:
        """Copy the ledger (schema `version`) beside itself before its schema changes: `NAME.bak-vN`, or
        `NAME.bak-vN.2`… when that is taken. The copy is SQLite's own backup, whole and consistent."""
        name = f"{self.path.name}.bak-v{version}"
        target = self.path.with_name(name)
        count = 1
        while target.exists():
            count += 1
            target = self.path.with_name(f"{name}.{count}")
        try:
            copy = sqlite3.connect(str(target))
            try:
                self.db.backup(copy)
            finally:
                copy.close()
        except (OSError, sqlite3.Error) as exc:
            raise self._file_error("ledger.file_no_backup", backup=str(target), reason=str(exc)) from None
        self.backup = target

    def _check_version(self, app: int, version: int, fresh_ok: bool) -> None:
        if app not in (0, APPLICATION_ID):
            raise self._file_error("ledger.file_foreign")
        if version > VERSION:
            raise self._file_error("ledger.file_newer", version=version, supported=VERSION)

    @property
    def version(self) -> int:
        version: int = self.db.execute("PRAGMA user_version").fetchone()[0]
        return version

    # --- tables ---

    def create_table(self, name: str, ruleset: str, ruleset_id: str, players: Dict[str, str], base: int = 1,
                     rules: Optional[str] = None, request: Optional[Request] = None) -> Table:
        """A new table playing `ruleset` (a built-in id or a file's absolute path; `rules`: its validated content
        as JSON, which the table keeps); `players` maps every seat E S W N to a distinct name. Its first event
        is its opening."""
        name = _table_name(name)
        names = check_players(players)
        if base < 1:
            raise LedgerError("ledger.base_too_small", base=base)
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE name = ?", (name,)).fetchone():
                raise LedgerError("ledger.table_exists", table=repr(name), path=str(self.path))
            sha = _keep_rules(db, rules) if rules else None
            opening: Data = {"players": names, "rules_sha256": sha, **_logged(_session(rules) if rules else None)}
            tid = db.execute(
                "INSERT INTO tables (name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, created,"
                " rules, revision, rules_sha256, next_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                (name, ruleset, ruleset_id, base, *names, now(exact=True), rules, sha,
                 _dumps(_state_json(State())))).lastrowid
            assert tid is not None  # an INSERT's row
            self._log(db, tid, 1, "open", opening, request)
            db.execute("UPDATE tables SET revision = 1 WHERE id = ?", (tid,))
        return self.table(name)

    def rename_table(self, table: Table, new_name: str) -> Table:
        new_name = _table_name(new_name)
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE name = ?", (new_name,)).fetchone():
                raise LedgerError("ledger.table_exists", table=repr(new_name), path=str(self.path))
            db.execute("UPDATE tables SET name = ? WHERE id = ?", (new_name, table.id))
            if self._setting(db, "table") == table.name:
                self._set(db, "table", new_name)
        return self.table(new_name)

    def delete_table(self, table: Table) -> int:
        """Remove the table, its hands and its log; returns how many hands went with it."""
        with self._write() as db:
            count: int = db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table.id,)).fetchone()[0]
            db.execute("DELETE FROM hands WHERE table_id = ?", (table.id,))
            db.execute("DELETE FROM events WHERE table_id = ?", (table.id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table.id,))
            if self._setting(db, "table") == table.name:
                db.execute("DELETE FROM settings WHERE key = 'table'")
        return count

    def rules_text(self, sha256: str) -> Optional[str]:
        """The rules kept under `sha256` (as JSON), if any."""
        with self._errors():
            row = self.db.execute("SELECT json FROM rules WHERE sha256 = ?", (sha256,)).fetchone()
        return row[0] if row else None

    # --- settings ---

    @staticmethod
    def _setting(db: sqlite3.Connection, key: str) -> Optional[str]:
        row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        value: Optional[str] = row[0] if row else None
        return value

    @staticmethod
    def _set(db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                   "excluded.value", (key, value))

    def setting(self, key: str) -> Optional[str]:
        with self._errors():
            return self._setting(self.db, key)

    def set_setting(self, key: str, value: str) -> None:
        with self._write() as db:
            self._set(db, key, value)

    def table(self, name: str) -> Table:
        """The table `name` as it stands now (its revision, seating, rules and next state), once it is known to
        be sound (`check.check_table`: read with it, at the same moment)."""
        with self._errors(), self.reading():
            row = self.db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE name = ?", (name,)).fetchone()
            if row is None:
                known = [r[0] for r in self.db.execute("SELECT name FROM tables ORDER BY name")]
                hint = did_you_mean(name, known) or (Message("ledger.hint_tables", tables=known) if known else
                                                     Message("ledger.hint_no_tables"))
                raise LedgerError("ledger.no_table", table=repr(name), path=str(self.path), hint=hint)
            table = _table(row)
            knows = self._knows(table.id)
            if knows is not None and knows.revision == table.revision:
                return table  # sound as this connection last checked or wrote it, and nobody wrote since
            table = self.checked(table)
            self._known[table.id] = _Known(table.revision, self._data_version())
            return table

    def checked(self, table: Table) -> Table:
        """The check a table passes before it is used: none in storage, which only reads rows; the evening's
        `Ledger` (`check.CheckedLedger`, what the front ends open) checks every invariant of it here."""
        return table

    def _data_version(self) -> int:
        """SQLite's count of writes by other connections that this one has seen (ours never change it)."""
        version: int = self.db.execute("PRAGMA data_version").fetchone()[0]
        return version

    def _knows(self, table_id: int) -> Optional[_Known]:
        """What this connection knows of the table, if no other connection has written the file since."""
        known = self._known.get(table_id)
        if known is not None and known.version != self._data_version():
            self._known.clear()
            return None
        return known

    @contextmanager
    def _leniently(self) -> Iterator[None]:
        """Reads that take a text that is not UTF-8 as `NotText` instead of failing on it (what `check` and the
        list of tables read: a damaged text is one problem among the others, not the end of the reading)."""
        self.db.text_factory = _lenient
        try:
            yield
        finally:
            self.db.text_factory = str

    def stored(self, table: Table) -> "Stored":
        """The table's rows as they are stored, SQLite's types beside the values, for `check` to judge (one read
        transaction; a text that is not UTF-8 is read as `NotText`)."""
        with self._errors(), self.reading(), self._leniently():
            row = _named(self.db, "SELECT player_e, player_s, player_w, player_n, typeof(base) AS base_type, base, "
                                  "rules, next_state FROM tables WHERE id = ?", (table.id,)).fetchone()
            if row is None:  # removed since it was read
                raise LedgerError("ledger.no_table", table=repr(table.name), path=str(self.path), hint="")
            hands = _named(self.db, f"SELECT {STORED_HAND} FROM hands WHERE table_id = ? ORDER BY number",
                           (table.id,)).fetchall()
            cached = _named(self.db, f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number",
                            (table.id,)).fetchall()
            events = self.db.execute("SELECT revision, kind, data FROM events WHERE table_id = ? ORDER BY revision",
                                     (table.id,)).fetchall()
            penalties = [d for (d,) in self.db.execute("SELECT data FROM penalties WHERE table_id = ? ORDER BY id",
                                                       (table.id,))]
        return Stored(row, hands, cached, events, penalties)

    def quick_check(self) -> List[str]:
        """SQLite's quick check of the whole file, and the ledger's own tables all there: ["ok"], or what is
        wrong (at most 20 lines)."""
        try:
            found = [r[0] for r in self.db.execute("PRAGMA quick_check(20)")]
            names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            return [str(exc)]
        missing = [n for n in LEDGER_TABLES if n not in names]
        if missing:
            return [r for r in found if r != "ok"] + [f"the ledger's table {n!r} is not there" for n in missing]
        return found

    def tables(self) -> List[Tuple[Table, int, Optional[str]]]:
        """Every table, with its number of hands and when the last one was recorded."""
        columns = ", ".join(f"t.{c.strip()}" for c in _TABLE_COLUMNS.split(","))
        with self._errors(), self._leniently():
            rows = self.db.execute(
                f"SELECT {columns}, count(h.id), max(h.recorded) FROM tables t LEFT JOIN hands h "
                "ON h.table_id = t.id GROUP BY t.id ORDER BY t.name").fetchall()
        return [(_table(r[:_TABLE_WIDTH]), r[_TABLE_WIDTH], r[_TABLE_WIDTH + 1]) for r in rows]

    # --- reading a table ---

    def hands(self, table: Table) -> List[HandRecord]:
        with self._errors():
            known = self._knows(table.id)
            if known is not None and known.hands is not None:
                return list(known.hands)
            rows = _named(self.db, f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number",
                          (table.id,)).fetchall()
        hands = [_hand(r) for r in rows]
        if known is not None:
            known.hands = list(hands)
        return hands

    def last_hand(self, table: Table) -> Optional[HandRecord]:
        with self._errors():
            row = _named(self.db, f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number DESC "
                         "LIMIT 1", (table.id,)).fetchone()
        return _hand(row) if row else None

    def state(self, table: Table) -> Tuple[int, State]:
        """How many hands the table has, and the state before the next one, as the ledger has them now."""
        fresh = self.table(table.name)
        with self._errors():
            count = self.db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table.id,)).fetchone()[0]
        return count, fresh.state

    def standings(self, table: Table, hands: Optional[List[HandRecord]] = None) -> List[Standing]:
        """Each person's score (`standings_of`), hands and penalties: the people seated now first; `hands`: the
        table's, when the caller has read them already."""
        now = self.table(table.name)
        known = self._knows(table.id)
        if hands is None and known is not None and known.standings is not None:
            return list(known.standings)
        standings = standings_of(now.players, self.hands(table) if hands is None else hands,
                                 tuple(self.penalties(table)))
        if hands is None and known is not None:
            known.standings = list(standings)
        return standings

    def penalties(self, table: Table) -> List[PenaltyRecord]:
        """The table's penalties, in the order they were recorded."""
        with self._errors():
            rows = self.db.execute("SELECT data FROM penalties WHERE table_id = ? ORDER BY id",
                                   (table.id,)).fetchall()
        return [PenaltyRecord.of(json.loads(data)) for data, in rows]

    def events(self, table: Table) -> List[Tuple[str, Data]]:
        """The table's log: every write (kind, data), in order; the first is its opening. (The data are the
        log's own: read them, never change them.)"""
        with self._errors():
            known = self._knows(table.id)
            if known is not None and known.events is not None:
                return list(known.events)
            rows = self.db.execute("SELECT kind, data FROM events WHERE table_id = ? ORDER BY revision",
                                   (table.id,)).fetchall()
        events = [(kind, json.loads(data)) for kind, data in rows]
        if known is not None:
            known.events = list(events)
        return events

    def last_event(self, table: Table) -> Optional[Tuple[str, Data]]:
        """The table's last write (kind, data), or None."""
        with self._errors():
            row = self.db.execute("SELECT kind, data FROM events WHERE table_id = ? ORDER BY revision DESC LIMIT 1",
                                  (table.id,)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def placed_last(self, table: Table, hand_id: str) -> bool:
        """Whether the hand `hand_id` was recorded by the log's last event that puts anything in the evening's
        timeline (`replay.PLACED`: a hand, a seat or dealer correction, a rules switch, a penalty): nothing is
        played after it."""
        with self._errors():
            row = self.db.execute(
                f"SELECT kind, data FROM events WHERE table_id = ? AND kind IN ({', '.join('?' * len(PLACED))}) "
                "ORDER BY revision DESC LIMIT 1", (table.id, *PLACED)).fetchone()
        return row is not None and row[0] == "hand" and json.loads(row[1]).get("hand_id") == hand_id

    def log(self, table: Table) -> List[Data]:
        """The table's log as `show --json` gives it: each event's revision, kind, when, and its data."""
        with self._errors():
            rows = self.db.execute("SELECT revision, kind, data, recorded, request_id FROM events WHERE table_id = ?"
                                   " ORDER BY revision", (table.id,)).fetchall()
        return [{"revision": r, "kind": k, "recorded": w, "request_id": q, "data": json.loads(d)}
                for r, k, d, w, q in rows]

    def request(self, request_id: str) -> Optional[Tuple[str, Optional[Data]]]:
        """What a request id was used for: (the digest of what it asked, the answer it got), or None."""
        with self._errors():
            row = self.db.execute("SELECT request_digest, answer FROM events WHERE request_id = ?",
                                  (request_id,)).fetchone()
        return (row[0], json.loads(row[1]) if row[1] else None) if row else None

    def copy_to(self, target: Union[str, "os.PathLike[str]"]) -> Path:
        """Copy the whole ledger to `target` (a new file), whole and consistent: SQLite's backup, written beside
        the target and put in place at the end."""
        if not str(target).strip():
            raise LedgerError("ledger.backup_failed", target=repr(str(target)), reason="no file named")
        path = Path(target)
        if path.exists():
            raise LedgerError("ledger.backup_exists", target=str(path))
        fresh = path.with_name(f"{path.name}.{os.getpid()}.part")
        try:
            copy = sqlite3.connect(str(fresh))
            try:
                with self._errors():
                    self.db.backup(copy)
            finally:
                copy.close()
            os.replace(fresh, path)
        except (OSError, sqlite3.Error) as exc:
            try:
                fresh.unlink(missing_ok=True)
            except OSError:
                pass  # nothing was made there
            raise LedgerError("ledger.backup_failed", target=str(path), reason=str(exc)) from None
        return path

    # --- writing ---

    def _log(self, db: sqlite3.Connection, table_id: int, revision: int, kind: EventKind, data: Data,
             request: Optional[Request]) -> None:
        if request is not None and db.execute("SELECT 1 FROM events WHERE request_id = ?", (request.id,)).fetchone():
            raise LedgerError("ledger.request_taken", request_id=request.id)
        db.execute("INSERT INTO events (table_id, revision, kind, data, request_id, request_digest, answer, "
                   "recorded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (table_id, revision, kind, _dumps(data), request and request.id, request and request.digest,
                    _dumps(request.answer) if request and request.answer is not None else None, now()))

    def write(self, table: Table, revision: int, change: Change) -> bool:
        """Make `change` to the table, in one transaction, if the table is still at `revision` (what the change
        was computed from); False, and nothing written, when another write came first: the caller computes it
        again from the table as it is now."""
        for record in change.hands[change.keep:]:  # (the hands kept are stored already, and were checked)
            assert sum(record.deltas.values()) == 0, record.deltas
            assert all(type(v) is int for v in record.deltas.values()), record.deltas  # never REAL money
        for penalty in change.penalties:
            assert sum(penalty.deltas.values()) == 0, penalty.deltas
        standings = change.standings if change.standings is not None else \
            standings_of(change.players, change.hands, change.penalties)
        for standing in standings:
            if abs(standing.score) > MAX_STANDING:
                raise LedgerError("ledger.score_too_large", table=repr(table.name), player=standing.player,
                                  limit=f"{MAX_STANDING:,}")
        known = self._knows(table.id)
        with self._write() as db:
            version = self._data_version()
            now_at = db.execute("SELECT revision FROM tables WHERE id = ?", (table.id,)).fetchone()
            if now_at is None:
                raise LedgerError("ledger.no_table", table=repr(table.name), path=str(self.path), hint="")
            if now_at[0] != revision:
                return False
            self._log(db, table.id, revision + 1, change.kind, change.data, change.request)
            db.execute("DELETE FROM hands WHERE table_id = ? AND number > ?", (table.id, len(change.hands)))
            for number in change.rows():
                db.execute("DELETE FROM hands WHERE table_id = ? AND number = ?", (table.id, number))
                self._insert(db, table, change.hands[number - 1])
            names = list(change.players)
            db.execute("UPDATE tables SET revision = ?, next_state = ?, player_e = ?, player_s = ?, player_w = ?, "
                       "player_n = ? WHERE id = ?",
                       (revision + 1, _dumps(_state_json(change.state)), *names, table.id))
            db.execute("DELETE FROM penalties WHERE table_id = ?", (table.id,))
            for penalty in change.penalties:
                db.execute("INSERT INTO penalties (table_id, penalty_id, data) VALUES (?, ?, ?)",
                           (table.id, penalty.penalty_id, _dumps(penalty.to_json())))
            if change.close is not None:
                db.execute("UPDATE tables SET closed = ? WHERE id = ?", (now() if change.close else None, table.id))
            if change.rules is not None:
                ruleset, ruleset_id, rules = change.rules
                db.execute("UPDATE tables SET ruleset = ?, ruleset_id = ?, rules = ?, rules_sha256 = ? WHERE id = ?",
                           (ruleset, ruleset_id, rules, _keep_rules(db, rules), table.id))
        if known is not None and known.revision == revision and known.version == version:
            # written by this connection from the state it checked, with no other write between: what it wrote is
            # what the file holds, so the next write reads it from here, not again from the file
            logged = (change.kind, json.loads(_dumps(change.data)))
            self._known[table.id] = _Known(revision + 1, version, list(change.hands),
                                           None if known.events is None else known.events + [logged],
                                           list(standings))
        return True

    def import_table(self, table: Table, rules: Dict[str, str], log: List[Data], hands: List[HandRecord],
                     penalties: Tuple[PenaltyRecord, ...]) -> Table:
        """A table brought from another ledger (`exchange.import_table` checked it): its row as `table` says
        (name, rules, seating, next state, revision, closed), the rules it refers to (JSON by SHA-256), its log
        as it was recorded and the cache of replaying it. A table of that name already here is refused."""
        name = _table_name(table.name)
        names = check_players(dict(zip(SEATS, table.players)))
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE name = ?", (name,)).fetchone():
                raise LedgerError("ledger.table_exists", table=repr(name), path=str(self.path))
            for text in rules.values():
                _keep_rules(db, text)
            tid = db.execute(
                "INSERT INTO tables (name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, created,"
                " rules, revision, rules_sha256, next_state, closed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, table.ruleset, table.ruleset_id, table.base, *names, table.created, table.rules, len(log),
                 table.rules_sha256, _dumps(_state_json(table.state)), table.closed)).lastrowid
            assert tid is not None  # an INSERT's row
            for event in log:
                db.execute("INSERT INTO events (table_id, revision, kind, data, recorded) VALUES (?, ?, ?, ?, ?)",
                           (tid, event["revision"], event["kind"], _dumps(event["data"]), event["recorded"]))
            imported = replace(table, id=tid, name=name)
            for record in hands:
                self._insert(db, imported, record)
            for penalty in penalties:
                db.execute("INSERT INTO penalties (table_id, penalty_id, data) VALUES (?, ?, ?)",
                           (tid, penalty.penalty_id, _dumps(penalty.to_json())))
        return self.table(name)

    def _insert(self, db: sqlite3.Connection, table: Table, r: HandRecord) -> None:
        db.execute(f"INSERT INTO hands (table_id, {_HAND_COLUMNS}) VALUES (?{', ?' * len(HAND_COLUMNS)})",
                   (table.id, *_hand_values(r)))
