"""The ledger: every table and every hand of an evening, stored in one SQLite file. Storage only: the rules
between hands are `session.py`, scoring and recording a hand `evening.py`.

Each hand is one `BEGIN IMMEDIATE` transaction that checks the table's last hand is still the one the hand was
scored after and writes one row, so a killed writer leaves the hand either whole or absent, and two writers
take turns (the second waits up to `TIMEOUT` seconds). The state after a hand (dealer, round, 连庄, 上楼 level) is
stored in that hand's row: undoing the last hand is deleting its row, and the standings are a SUM of the rows.
The schema's version is SQLite's `user_version`; an older file is migrated when it is opened.
"""
import json
import os
import sqlite3
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union
from urllib.parse import quote

from ..errors import MjcalcError
from ..messages import Message, did_you_mean
from ..session import MAX_LEVELS, State
from ..tiles import SEATS, seat_word

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


def _current_file() -> Path:
    return data_dir() / "current.json"


def remembered_path() -> Optional[Path]:
    """The ledger `remember_path` wrote down, if any (an unreadable note is no note)."""
    try:
        data = json.loads(_current_file().read_text(encoding="utf-8"))
        return Path(data["db"]) if isinstance(data, dict) and isinstance(data.get("db"), str) else None
    except (OSError, ValueError):
        return None


def remember_path(path: Path):
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

MIGRATIONS = (
    # 1: tables and hands; a hand row carries its deltas and the state after it.
    """
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
    """,
    # 2: the pattern breakdown of each win, for `show` and `export` (hands recorded before it show none).
    """
    ALTER TABLE hands ADD COLUMN patterns TEXT NOT NULL DEFAULT '[]';
    """,
    # 3: a table keeps its rules (the validated ruleset as JSON; NULL for a table opened before: it takes the
    # file's rules on first use and keeps them); how each hand was entered (tiles, total, patterns; NULL for a
    # draw); the ledger's settings (the current table).
    """
    ALTER TABLE tables ADD COLUMN rules TEXT;
    ALTER TABLE hands ADD COLUMN entry TEXT CHECK (entry IN ('tiles', 'total', 'patterns'));
    UPDATE hands SET entry = 'tiles' WHERE kind = 'win';
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
)
VERSION = len(MIGRATIONS)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- values --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    id: int
    name: str
    ruleset: str  # as it is loaded: a built-in id or a file's absolute path
    ruleset_id: str
    base: int
    players: Tuple[str, str, str, str]  # E S W N
    created: str
    rules: Optional[str] = None  # the validated ruleset as JSON, kept when the table was opened

    def player(self, seat: str) -> str:
        return self.players[SEATS.index(seat)]

    def brief(self, record: "HandRecord") -> str:
        """A hand in a few words, to tell it from another: `hand 2 (小李 ← 老王 3)`, `(小李 自摸 3)`, `(荒牌)`."""
        if record.kind != "win" or record.winner is None:
            return f"hand {record.number} (荒牌)"
        how = f"← {self.player(record.discarder)}" if record.discarder else "自摸"
        return f"hand {record.number} ({self.player(record.winner)} {how} {record.total})"

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
    kind: str  # win | draw
    hand: Optional[str]
    winner: Optional[str]
    discarder: Optional[str]
    total: Optional[int]
    situation: Dict
    patterns: List
    deltas: Dict[str, int]
    after: State
    recorded: str
    entry: Optional[str] = None  # how a win was entered: tiles, total or patterns (None for a draw)

    @property
    def factor(self) -> int:
        return 2 ** self.level

    @property
    def before(self) -> State:
        return State(self.round, self.dealer, self.streak, self.level)

    def to_dict(self, table: Table) -> dict:
        name = lambda seat: table.player(seat) if seat else None  # noqa: E731
        return {
            "number": self.number, "round": self.round, "dealer": self.dealer, "dealer_player": name(self.dealer),
            "streak": self.streak, "shanglou": self.level, "factor": self.factor, "kind": self.kind,
            "hand": self.hand, "winner": self.winner, "winner_player": name(self.winner),
            "from": self.discarder, "from_player": name(self.discarder), "total": self.total,
            "patterns": self.patterns, "entry": self.entry, "situation": dict(self.situation),
            "payouts": dict(self.deltas), "recorded": self.recorded,
        }


_HAND_COLUMNS = ("number, round, dealer, streak, level, kind, hand, winner, discarder, total, situation, patterns, "
                 "d_e, d_s, d_w, d_n, next_round, next_dealer, next_streak, next_level, recorded, entry")


def _hand(row) -> HandRecord:
    (number, rnd, dealer, streak, level, kind, hand, winner, discarder, total, situation, patterns,
     de, ds, dw, dn, nr, nd, ns, nl, recorded, entry) = row
    return HandRecord(number, rnd, dealer, streak, level, kind, hand, winner, discarder, total,
                      json.loads(situation), json.loads(patterns), dict(zip(SEATS, (de, ds, dw, dn))),
                      State(nr, nd, ns, nl), recorded, entry)


_TABLE_COLUMNS = "id, name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, created, rules"


def _table(row) -> Table:
    tid, name, ruleset, ruleset_id, base, e, s, w, n, created, rules = row
    return Table(tid, name, ruleset, ruleset_id, base, (e, s, w, n), created, rules)


def _visible(text: str) -> str:
    """`text`, refused when it holds a control or invisible character (a name is printed to terminals)."""
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        raise LedgerError("ledger.invisible_char", name=repr(text), char=ascii(bad)[1:-1])
    return text


def _table_name(name: str) -> str:
    name = _visible(name.strip())
    if not name:
        raise LedgerError("ledger.table_needs_name")
    return name


def _check_players(players: Dict[str, str]) -> List[str]:
    """The four players E S W N, each named, none like a seat, no two alike."""
    missing = [s for s in SEATS if not (players.get(s) or "").strip()]
    if missing:
        raise LedgerError("ledger.missing_players", seats=missing, first=missing[0])
    names = [_visible(players[s].strip()) for s in SEATS]
    for seat, player in zip(SEATS, names):
        if seat_word(player) is not None:
            raise LedgerError("ledger.player_like_seat", seat=seat, player=player)
        if names.count(player) > 1:
            raise LedgerError("ledger.same_players", player=repr(player))
    return names


# --- the ledger ------------------------------------------------------------------------------------------


class Ledger:
    """The ledger file: open it (creating or migrating it), then read tables and record hands."""

    def __init__(self, path=None, target: int = VERSION, readonly: bool = False):
        """Open the ledger at `path`. With `readonly`, an existing, current ledger is opened for reading only (it
        may sit in a read-only directory); a new or older file is opened to write, to create or migrate it."""
        self.path = Path(path) if path is not None else default_path()
        if str(path if path is not None else self.path) in ("", ":memory:") or str(self.path).startswith("file:"):
            raise self._file_error("ledger.file_not_a_file")  # SQLite would keep it in memory: nothing stored
        if self.path.is_dir():
            raise self._file_error("ledger.file_is_directory")
        if self.path.exists() and not self.path.is_file():
            raise self._file_error("ledger.file_not_a_file")  # /dev/null, a pipe: nothing would be kept
        if readonly and self.path.is_file() and self._open_readonly(target):
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

    def _open_readonly(self, target) -> bool:
        """Open for reading only; False (nothing open) when the file must be created or migrated first, or is not
        marked as a ledger in its header (the ordinary open refuses it: a read-only connection would leave a
        foreign WAL file's -wal and -shm behind)."""
        try:
            with open(self.path, "rb") as f:
                header = f.read(100)
        except OSError:
            return False
        if len(header) < 100 or int.from_bytes(header[68:72], "big") != APPLICATION_ID:
            return False
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        for suffix in ("", "&immutable=1"):  # immutable: a WAL ledger in a directory where -shm cannot be made
            try:
                self.db = sqlite3.connect(uri + suffix, uri=True, timeout=TIMEOUT, isolation_level=None)
            except sqlite3.Error as exc:
                raise self._file_error("ledger.file_cannot_open", reason=str(exc)) from None
            try:
                with self._errors():
                    fresh, version = self._identify()
            except LedgerFileError as exc:
                self.db.close()
                if ("unable to open" in str(exc) or "readonly" in str(exc)) and not suffix:
                    continue
                raise
            if fresh or version < target:
                self.db.close()
                return False
            return True
        return False

    def _file_error(self, code: str, **params) -> LedgerFileError:
        """The error `code` (a `ledger.file_*` message) about this ledger's file, which it names first."""
        return LedgerFileError(code, path=str(self.path), **params)

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def _errors(self):
        """sqlite3's errors as one line naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "not a database" in text or "malformed" in text:
                raise self._file_error("ledger.file_unreadable", reason=text) from None
            if "locked" in text or "busy" in text:
                raise self._file_error("ledger.file_busy", seconds=f"{TIMEOUT:.0f}") from None
            raise self._file_error("ledger.file_sqlite", reason=text) from None

    @contextmanager
    def _write(self):
        """One transaction that holds the write lock from its start, so what it reads stays true."""
        with self._errors():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

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
            self.db.execute("COMMIT")
        if app == 0:
            if version or names:
                raise self._file_error("ledger.file_foreign")
            return True, 0
        self._check_version(app, version, fresh_ok=True)
        if version == 0 and names or version and not {"tables", "hands"} <= names:
            raise self._file_error("ledger.file_damaged")
        return False, version

    def _open(self, target):
        with self._errors():
            self._identify()  # before any statement that writes, journal_mode included
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
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA user_version = {number + 1}")

    def _check_version(self, app, version, fresh_ok):
        if app not in (0, APPLICATION_ID):
            raise self._file_error("ledger.file_foreign")
        if version > VERSION:
            raise self._file_error("ledger.file_newer", version=version, supported=VERSION)

    @property
    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    # --- tables ---

    def create_table(self, name: str, ruleset: str, ruleset_id: str, players: Dict[str, str], base: int = 1,
                     rules: Optional[str] = None) -> Table:
        """A new table playing `ruleset` (a built-in id or a file's absolute path; `rules`: its validated content
        as JSON, which the table keeps); `players` maps every seat E S W N to a distinct name."""
        name = _table_name(name)
        names = _check_players(players)
        if base < 1:
            raise LedgerError("ledger.base_too_small", base=base)
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE name = ?", (name,)).fetchone():
                raise LedgerError("ledger.table_exists", table=repr(name), path=str(self.path))
            db.execute(
                "INSERT INTO tables (name, ruleset, ruleset_id, base, player_e, player_s, player_w, player_n, created,"
                " rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (name, ruleset, ruleset_id, base, *names, now(), rules))
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
        """Remove the table and its hands; returns how many hands went with it."""
        with self._write() as db:
            count = db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table.id,)).fetchone()[0]
            db.execute("DELETE FROM hands WHERE table_id = ?", (table.id,))
            db.execute("DELETE FROM tables WHERE id = ?", (table.id,))
            if self._setting(db, "table") == table.name:
                db.execute("DELETE FROM settings WHERE key = 'table'")
        return count

    def set_players(self, table: Table, players: Dict[str, str]) -> Table:
        """Correct who sits where (the hands keep their seats: a seat's results go to its new name)."""
        names = _check_players(players)
        with self._write() as db:
            db.execute("UPDATE tables SET player_e = ?, player_s = ?, player_w = ?, player_n = ? WHERE id = ?",
                       (*names, table.id))
        return self.table(table.name)

    def set_next_dealer(self, table: Table, seat: str):
        """Correct who deals the next hand (stored as the state after the last hand; 连庄 starts again)."""
        with self._write() as db:
            last = self.last_hand(table, db)
            if last is None:
                raise LedgerError("ledger.dealer_before_hands", table=repr(table.name))
            db.execute("UPDATE hands SET next_dealer = ?, next_streak = 0 WHERE table_id = ? AND number = ?",
                       (seat, table.id, last.number))

    def set_rules(self, table: Table, ruleset: str, ruleset_id: str, rules: str,
                  max_level: int = MAX_LEVELS) -> Table:
        """The rules the table plays from its next hand on (the hands recorded keep their payouts). A 上楼 level
        the new rules do not reach (`max_level`, their `shanglou_levels`) is brought down to it, in the same
        transaction: the next hand is paid as the new rules pay it."""
        with self._write() as db:
            db.execute("UPDATE tables SET ruleset = ?, ruleset_id = ?, rules = ? WHERE id = ?",
                       (ruleset, ruleset_id, rules, table.id))
            last = self.last_hand(table, db)
            if last is not None and last.after.level > max_level:
                db.execute("UPDATE hands SET next_level = ? WHERE table_id = ? AND number = ?",
                           (max_level, table.id, last.number))
        return self.table(table.name)

    # --- settings ---

    @staticmethod
    def _setting(db, key: str) -> Optional[str]:
        row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @staticmethod
    def _set(db, key: str, value: str):
        db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                   "excluded.value", (key, value))

    def setting(self, key: str) -> Optional[str]:
        with self._errors():
            return self._setting(self.db, key)

    def set_setting(self, key: str, value: str):
        with self._write() as db:
            self._set(db, key, value)

    def table(self, name: str) -> Table:
        with self._errors():
            row = self.db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE name = ?", (name,)).fetchone()
            if row is None:
                known = [r[0] for r in self.db.execute("SELECT name FROM tables ORDER BY name")]
                hint = did_you_mean(name, known) or (Message("ledger.hint_tables", tables=known) if known else
                                                     Message("ledger.hint_no_tables"))
                raise LedgerError("ledger.no_table", table=repr(name), path=str(self.path), hint=hint)
            return _table(row)

    def tables(self) -> List[Tuple[Table, int, Optional[str]]]:
        """Every table, with its number of hands and when the last one was recorded."""
        with self._errors():
            rows = self.db.execute(
                "SELECT t.id, t.name, t.ruleset, t.ruleset_id, t.base, t.player_e, t.player_s, t.player_w, "
                "t.player_n, t.created, t.rules, count(h.id), max(h.recorded) FROM tables t LEFT JOIN hands h "
                "ON h.table_id = t.id GROUP BY t.id ORDER BY t.name").fetchall()
        return [(_table(r[:11]), r[11], r[12]) for r in rows]

    # --- reading a table ---

    def hands(self, table: Table) -> List[HandRecord]:
        with self._errors():
            rows = self.db.execute(f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number",
                                   (table.id,)).fetchall()
        return [_hand(r) for r in rows]

    def last_hand(self, table: Table, db=None) -> Optional[HandRecord]:
        with self._errors():
            row = (db or self.db).execute(f"SELECT {_HAND_COLUMNS} FROM hands WHERE table_id = ? ORDER BY number DESC "
                                          "LIMIT 1", (table.id,)).fetchone()
        return _hand(row) if row else None

    def state(self, table: Table, db=None) -> Tuple[int, State]:
        """How many hands the table has, and the state before the next one."""
        last = self.last_hand(table, db)
        return (last.number, last.after) if last else (0, State())

    def standings(self, table: Table) -> Dict[str, int]:
        with self._errors():
            row = self.db.execute("SELECT coalesce(sum(d_e), 0), coalesce(sum(d_s), 0), coalesce(sum(d_w), 0), "
                                  "coalesce(sum(d_n), 0) FROM hands WHERE table_id = ?", (table.id,)).fetchone()
        return dict(zip(SEATS, row))

    # --- recording ---

    def append(self, table: Table, record: HandRecord) -> bool:
        """Record `record` as the table's next hand, in one transaction; False (nothing written) when the table
        moved on since `record` was made from it — another hand recorded, or the state it was scored in corrected
        (who deals, 连庄, 上楼) — so the caller makes it again from the new state."""
        with self._write() as db:
            number, state = self.state(table, db)
            if number != record.number - 1 or state != State(record.round, record.dealer, record.streak, record.level):
                return False
            sums = db.execute("SELECT coalesce(sum(d_e), 0), coalesce(sum(d_s), 0), coalesce(sum(d_w), 0), "
                              "coalesce(sum(d_n), 0) FROM hands WHERE table_id = ?", (table.id,)).fetchone()
            for seat, before in zip(SEATS, sums):
                if abs(before + record.deltas[seat]) > MAX_STANDING:
                    raise LedgerError("ledger.score_too_large", table=repr(table.name), player=table.player(seat),
                                      limit=f"{MAX_STANDING:,}")
            self._insert(db, table, record)
        return True

    def _insert(self, db, table, r: HandRecord):
        assert sum(r.deltas.values()) == 0, r.deltas
        db.execute(
            f"INSERT INTO hands (table_id, {_HAND_COLUMNS}) VALUES ({', '.join('?' * 23)})",
            (table.id, r.number, r.round, r.dealer, r.streak, r.level, r.kind, r.hand, r.winner, r.discarder, r.total,
             json.dumps(r.situation, ensure_ascii=False, allow_nan=False),
             json.dumps(r.patterns, ensure_ascii=False, allow_nan=False),
             *(r.deltas[s] for s in SEATS), r.after.round, r.after.dealer, r.after.streak, r.after.level, r.recorded,
             r.entry))

    def undo(self, table: Table, shown: Union[int, HandRecord]) -> HandRecord:
        """Remove the table's last hand, which must still be the one shown: hand number `shown`, or, given the
        record a player was shown, that very hand (the same number is not enough: it may have been undone
        elsewhere meanwhile and another hand recorded under it)."""
        number = shown if isinstance(shown, int) else shown.number
        with self._write() as db:
            last = self.last_hand(table, db)
            if last is None:
                raise LedgerError("ledger.nothing_to_undo", table=repr(table.name))
            if last.number != number:
                raise LedgerError("ledger.undo_changed", table=repr(table.name), last=last.number, number=number)
            if isinstance(shown, HandRecord) and last != shown:
                raise LedgerError("ledger.undo_replaced", table=repr(table.name), now=table.brief(last),
                                  shown=table.brief(shown))
            db.execute("DELETE FROM hands WHERE table_id = ? AND number = ?", (table.id, number))
        return last
