"""`mjcalc table …`: an evening at a table, kept in a ledger file (the storage and session rules: ledger.py).

The ledger remembers the table in use (`table new` and `table use` set it), and the ledger file itself is
written down in the user data directory, so that `mjcalc table hand …` needs neither the table's name nor
`--db`. Every table command's default output fits the terminal (80 columns when it is not one).
"""
import csv
import io
import json
import os
import sys
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from decimal import Decimal
from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import click

from .. import front  # the library as the front ends see it: nothing else of it is imported here
from ..front import (
    GENERIC,
    SEATS,
    Analysis,
    Data,
    Doc,
    HandRecord,
    Ledger,
    LedgerError,
    LedgerFileError,
    Message,
    MjcalcError,
    Notice,
    PenaltyRecord,
    Ruleset,
    Session,
    SituationError,
    Standing,
    State,
    Table,
    View,
    Written,
    all_options,
    context,
    json_text,
    load_ruleset,
    parse_seat,
    printable,
    remember_path,
    standings_json,
    total_kind,
    transfers_json,
)
from .common import (
    CliError,
    F,
    SituationCommand,
    UserError,
    answer_unwritten,
    build_situation,
    handle_errors,
    read_situation_file,
    said,
    said_lang,
    situation_options,
    typed_flag,
    warn,
    wild_options,
)
from .common import (
    table as _table,
)
from .output import emit

if TYPE_CHECKING:  # the log's types: evening.story is loaded on first use (start-up time)
    from ..front import Event, Told
Row = List[object]  # a row of a table drawn for the terminal


@click.group()
def table() -> None:
    """Keep an evening at a table: four players, a ledger of hands, running scores and the dealer.

    The table in use is remembered (`table new` and `table use NAME` set it), so NAME may be left out.

    \b
    Examples:
      mjcalc table new friday --seat 东=王 --seat 南=李 --seat 西=张 --seat 北=刘
      mjcalc table play
      mjcalc table hand 123m456p789s234s5m +5m --winner 李 --from 王
      mjcalc table hand --fan 3 --winner 李 --from 王
      mjcalc table hand --patterns 对对和 --winner 李
      mjcalc table draw
      mjcalc table show
      mjcalc table settle
    """


class Unanswered(CliError):
    """A write that is committed, whose answer could not be written (a full disk, a closed pipe): exit code 4, so
    that a script retrying on failure knows the write is there and does not make it twice."""

    exit_code = 4


@contextmanager
def answering(done: Message) -> Iterator[None]:
    """The answer to a write already committed (`done` says what it was): if stdout cannot take it, one line on
    stderr saying that the write stands, exit 4."""
    try:
        yield
        sys.stdout.flush()  # all of it, now: a full disk is seen here, not at exit
    except OSError as exc:
        if not answer_unwritten(exc):  # a file of ours, not the answer
            raise
        raise Unanswered("table.answer_unwritten", by_flag=False, done=done, reason=exc.strerror or str(exc)) from None


class BadLedgerFile(CliError):
    """A ledger file that cannot be used (corrupt, not mjcalc's, from a newer mjcalc, locked): exit code 1."""

    exit_code = 1


def ledger_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """A bad ledger file exits 1; every other mjcalc error is `handle_errors`' usage error, exit 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except LedgerFileError as exc:
            raise BadLedgerFile(exc, by_flag=False) from None

    return handle_errors(wrapper)


def db_option(func: F) -> F:
    return click.option(
        "--db", "db_path", type=click.Path(),
        help="The ledger file.  [default: $MJCALC_DB, else the last one used, else tables.sqlite3 in the "
             "user data directory]",
    )(func)


def name_argument(func: F) -> F:
    return click.argument("name", required=False)(func)


def request_option(func: F) -> F:
    return click.option(
        "--request-id", metavar="ID",
        help="Make this write once: run again with the same ID (1-64 printable ASCII), it records nothing and "
             "says what the first run recorded.")(func)


def _replayed(written: Written, as_json: bool, request_id: Optional[str]) -> None:
    """The answer to a request made already: its first answer (--json, with "replayed": true), or one line."""
    answer = written.answer or {}  # a request made already: its first answer
    hand = answer.get("hand") or answer.get("removed") or {}
    what = (f"hand {hand['number']}" if hand.get("number") else f"revision {answer.get('revision')}")
    emit(said_doc(f"request {request_id} was made already ({what}); nothing recorded again", data=written.answer),
         as_json)


def hand_entry_options(func: F) -> F:
    """What `table hand` and `table edit` read a hand from: the winner, the total or the patterns agreed (or the
    tiles, an argument), the wildcards and the situation."""
    func = wild_options(table_situation_options(func))
    func = click.option("--patterns", metavar="A,B",
                        help="Without tiles: the patterns the table agreed, by name or id (对对和,庄).")(func)
    func = click.option("--fan", "--tai", "--points", "total", metavar="N",
                        help="Without tiles: the total the table agreed, in the ruleset's unit (番, 台 or 分): "
                             "3, 3番, 三.")(func)
    func = click.option("--open", "open_melds", is_flag=False, flag_value="1", default=None, metavar="[N]",
                        help="Without tiles: the hand is open, N claimed 吃/碰 (bare: 1).")(func)
    func = click.option("--kongs", "winner_kongs", metavar="K,K",
                        help="Without tiles: the winner's kongs, each concealed (暗杠), exposed (明杠) or "
                             "exposed:PLAYER (claimed from PLAYER).")(func)
    return click.option("--winner", help="Who won: a player's name or a seat.")(func)


def _sure(question: str, refused: str, err: bool = False) -> bool:
    """The player's yes to `question` (no, or a closed stdin, says `refused` and is no)."""
    try:
        sure = click.confirm(question, default=False, err=err)
    except click.Abort:
        sure = False
    if not sure:
        emit(said_doc(refused), err=err)
    return sure


def _say_written(written: Written, as_json: bool, done: Message, head: str) -> None:
    """The answer to an undo, edit or revert committed: its document, or `head`, the later hands it changed
    and the next hand (exit 4 if stdout cannot take it)."""
    doc = said_doc(head, *changed_lines(written), _next_line(written.table, len(written.hands), written.table.state),
                   data=front.written_json(written))
    with answering(done):
        emit(doc, as_json)


def _seat_kind(name: str) -> Optional[str]:
    """The kind of a situation option that names seats ("seat", "seats", "seat_int", "seat_choice"), or None."""
    option = GENERIC.get("from" if name == "discarder" else name) or all_options().get(name)
    return option.kind if option is not None and option.kind.startswith("seat") else None


def _from_deal(name: Optional[str]) -> bool:
    option = all_options().get(name or "")
    return option is not None and option.from_deal


def table_situation_options(func: F) -> F:
    """analyze's situation options, where a seat may also be given as a player's name."""
    func = situation_options(func)
    options: List[click.Option] = func.__click_params__  # type: ignore[attr-defined]  # click's decorators put it
    for opt in options:
        filled = _from_deal(opt.name)  # the table fills it (the round's wind, 老庄, the deal's earlier winners)
        if opt.name in ("seat", "discarder") or _seat_kind(opt.name) in ("seat", "seats") and not filled:
            opt.metavar = "PLAYER"
        if opt.name == "discarder":
            opt.help = "Won on PLAYER's discard 点炮 (a name or a seat; with --rob-kong: the konger)."
        if opt.name in ("seat", "dealer", "base") or filled:
            opt.hidden = True  # the winner is --winner; the table keeps the dealer, the base and what it fills
    return func


def _open(db_path: Optional[str], readonly: bool = False) -> Ledger:
    return Ledger(db_path, readonly=readonly)


def said_doc(*lines: str, data: Any = None) -> Doc:
    """A `table` command's answer: its `lines`, laid out for the terminal already (the output path escapes a control
    or invisible character in a name), and its `--json` document `data`."""
    doc = Doc(data)
    doc.text(*lines)
    return doc


def current_table(ledger: Ledger, name: Optional[str] = None) -> Table:
    """The table `name`, else the ledger's table in use."""
    if name is None:
        name = ledger.setting("table")
        if name is None:
            raise UserError("table.none_in_use")
    return ledger.table(name)


def _use(ledger: Ledger, name: str) -> None:
    """Remember `name` as the table in use, and the ledger as the one to open next time."""
    ledger.set_setting("table", name)
    remember_path(ledger.path)


@contextmanager
def _at_table(db_path: Optional[str], name: Optional[str] = None,
              readonly: bool = False) -> Iterator[Tuple[Ledger, Table]]:
    with _open(db_path, readonly) as ledger:
        yield ledger, current_table(ledger, name)


# --- text that fits --------------------------------------------------------------------------------------


def columns() -> int:
    """The width to fit: $COLUMNS, else the terminal's, else 80 (as every command's output)."""
    from .output import width as terminal_width  # imported when used (start-up time)
    return terminal_width()


def width(text: object) -> int:
    """Terminal columns of the widest line of `text` (CJK characters take two)."""
    from .output import shown_width  # imported when used (start-up time)
    return max((shown_width(line) for line in str(text).splitlines()), default=0)


def _who(table: Table, seat: Optional[str]) -> str:
    return f"{seat} {table.player(seat)}" if seat else ""


def _standing_rows(table: Table, standings: Iterable[Standing]) -> List[Row]:
    """The standings by person: those seated now (with their seat), then those who left (seat —)."""
    return [[s.seat or "—", s.player, s.score] for s in standings]


def _seats_line(table: Table, record: HandRecord, rules: Optional[Ruleset] = None) -> List[str]:
    """A line saying the players changed seats after `record` (the round it ended: `seat_rotation`), if they did;
    and one saying the session is over where it ended the last round of one (`session.rounds`)."""
    seats, game = front.round_end(table, record, rules)
    lines = ["seats     changed as the round ended: " + ", ".join(f"{s} {p}" for s, p in zip(SEATS, seats))] if seats else []
    if game:
        assert rules is not None  # a session ends only under rules that play sessions
        lines += fit_text(f"session   {game} is over: its {Session.of(rules).rounds} rounds are played (`table close` "
                          f"ends the table; a hand recorded next starts session {game + 1}, the East round again)")
    return lines


def _next_line(table: Table, count: int, state: State, rules: Optional[Ruleset] = None) -> str:
    """The next hand: its number, round (within its session, where the rules play sessions: 国标's 16 hands) and
    dealer, with 连庄, 上楼 and the deal's wins so far."""
    rounds = Session.of(rules).rounds if rules is not None else 0
    where = f"round {state.round}" if not rounds or state.round <= rounds else \
        f"session {(state.round - 1) // rounds + 1}, round {(state.round - 1) % rounds + 1}"
    line = f"next      hand {count + 1}, {where}, dealer {_who(table, state.dealer)}"
    if state.streak:
        line += f" (连庄 {state.streak})"
    if state.level:
        line += f", 上楼 ×{state.factor}"
    if state.won:  # a deal that goes on after a win: who has won in it (they neither win nor pay again)
        line += "\ndeal      goes on; won: " + ", ".join(_who(table, seat) for seat in state.out)
    return line


def _total(record: HandRecord, rules: Ruleset) -> str:
    """A win's total as its table shows it: the bonus points it is also paid after a `+` (国标's 花牌: `9+2`), as the
    hand's own lines show them."""
    roles = {p.id: p.role for p in rules.patterns}
    bonus = sum(int(p.get("value") or 0) for p in record.patterns
                if isinstance(p, dict) and roles.get(str(p.get("id"))) == "bonus")
    return f"{record.total}+{bonus}" if bonus else str(record.total)


def _result_text(table: Table, record: HandRecord) -> str:
    """Who won how, named as they sat in that hand."""
    if record.kind == "draw":
        return "荒牌 draw"
    name = record.player if record.players else table.player
    assert record.winner is not None, "a win has a winner"
    how = "自摸" if record.discarder is None else f"← {name(record.discarder)}"
    return f"{name(record.winner)} {how}"


def _entry_text(record: HandRecord, rules: Ruleset) -> str:
    """How a hand without tiles was entered: the total agreed, or the patterns the table named (in the words of
    `rules`, those it was recorded under; the ones its situation added are not named)."""
    if record.entry == "total":
        agreed = (record.input or {}).get("total", record.total)  # above the cap: paid as the cap
        paid = f", paid as {record.total}" if isinstance(agreed, int) and agreed != record.total else ""
        return f"{agreed}{rules.unit_zh} agreed{paid}"
    if record.entry == "patterns":
        names = {p.id: p.zh for p in rules.patterns}
        named = [names.get(p, p) for p in (record.input or {}).get("patterns") or {}]
        return "named " + " ".join(named or [p["name"] for p in record.patterns])
    return ""


# --- the commands ----------------------------------------------------------------------------------------


@table.command("new")
@click.argument("name")
@click.option("-r", "--ruleset", "ruleset_name", default=lambda: os.environ.get("MJCALC_RULESET", "beijing"),
              show_default="beijing, or $MJCALC_RULESET", help="A built-in ruleset id or alias, or a YAML file.")
@click.option("--seat", "seats", multiple=True, metavar="SEAT=PLAYER",
              help="A player and the seat: E=老王 or 东=老王 (four of them).")
@click.option("--base", default="1", show_default=True, metavar="N",
              help=f"Base points 底分 for every hand (1 to {GENERIC['base'].maximum:,}).")
@request_option
@db_option
@ledger_errors
def table_new(name: str, ruleset_name: str, seats: Tuple[str, ...], base: str, request_id: Optional[str],
              db_path: Optional[str]) -> None:
    """Open a table with four players; East deals first. It becomes the table in use, and its rules are
    kept in the ledger (editing or moving the file later changes nothing; `table rules` adopts a new one).

    \b
    Example:
      mjcalc table new friday -r beijing --base 2 \\
          --seat 东=老王 --seat 南=小李 --seat 西=阿张 --seat 北=大刘
    """
    points: int = GENERIC["base"].read(base)  # the range every base has (a SituationError names --base)
    players = _read_seats(seats)
    with _open(db_path) as ledger:
        request = front.request_for(request_id, {"command": "new", "table": name, "ruleset": ruleset_name,
                                                   "players": players, "base": points})
        if front.request_answer(ledger, request) is not None:
            emit(said_doc(f"request {request_id} was made already (table {name!r}); nothing created again"))
            return
        t = front.create_table(ledger, name, ruleset_name, players, points, request)
        _use(ledger, t.name)
    lines = wrap_items("          ", [f"{s} {p}" for s, p in zip(SEATS, t.players)])
    doc = said_doc(f"table {t.name!r} (now in use): {t.ruleset_id}, base {t.base}; {t.player('E')} deals first",
                   "players   " + "\n".join(lines)[10:], f"ledger    {ledger.path}")
    with answering(Message("table.done_new", table=repr(t.name))):
        emit(doc)


def _read_seats(items: Iterable[str], flag: str = "--seat") -> Dict[str, str]:
    players: Dict[str, str] = {}
    for item in items:
        word, sep, player = item.partition("=")
        try:
            seat = parse_seat(word) if sep else None
        except SituationError:
            seat = None
        if seat is None:
            raise UserError("table.seat_player", flag=flag, item=repr(item))
        if seat in players:
            raise UserError("table.seat_twice", flag=flag, seat=seat)
        players[seat] = player.strip()
    return players


@table.command("use")
@click.argument("name")
@db_option
@ledger_errors
def table_use(name: str, db_path: Optional[str]) -> None:
    """Make NAME the table in use, so later `table` commands may leave its name (and --db) out.

    \b
    Example:
      mjcalc table use friday
    """
    with _open(db_path, readonly=True) as ledger:  # a read first: a mistyped --db creates no ledger file
        t = ledger.table(name)
    with _open(db_path) as ledger:
        _use(ledger, t.name)
        emit(said_doc(f"table {t.name!r} is in use ({ledger.path})"))


# The one who records (the prompt's session): a hand it said twice is two hands, only one another phone or
# terminal has just recorded is asked about (`record.duplicate`).
client_option = click.option("--client", hidden=True, help="Who records it (a prompt session's id).")


@table.command("hand", cls=SituationCommand)
@click.argument("words", nargs=-1, metavar="[NAME] [HAND]")
@hand_entry_options
@click.option("--json", "as_json", is_flag=True, help="Machine output: the hand, the standings, the next hand.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="Pattern names.")
@click.option("--dry-run", is_flag=True, help="Score it and show what it would pay; record nothing.")
@click.option("--brief", is_flag=True, hidden=True, help="One line for the hand and one for the next (the prompt).")
@click.option("-y", "--yes", is_flag=True, help="Record it even if it repeats the hand just recorded elsewhere, or "
              "its total is more than a hand usually reaches.")
@request_option
@client_option
@db_option
@ledger_errors
def table_hand(words: Tuple[str, ...], winner: Optional[str], total: Optional[str], patterns: Optional[str],
               as_json: bool, lang: str, dry_run: bool, brief: bool, yes: bool, request_id: Optional[str],
               client: Optional[str], db_path: Optional[str], **params: Any) -> None:
    """Record a won hand at the table in use (or NAME): from its HAND, scored as `analyze` scores it with the
    table's rules, base and dealer; or, without tiles, from the total (--fan/--tai/--points) or the patterns
    the table agreed, paid the same way. HAND may be unquoted (`mjcalc help notation`).

    \b
    Examples:
      mjcalc table hand 123m456p789s234s5m +5m --winner 小李 --from 老王
      mjcalc table hand "[111m] 222p 333s EEE 9m +9m" --winner S --shaozhuang 1
      mjcalc table hand --fan 3 --winner 小李 --from 老王
      mjcalc table hand --patterns 对对和 --winner 老王
    """
    with _open(db_path) as ledger:
        t, given = read_hand(ledger, words, winner, total, patterns, params)
        request = front.request_for(request_id, {"command": "hand", "table": t.name, "input": given})
        written = _record_asking(ledger, t, given, yes, dry_run=dry_run, request=request, client=client)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    with answering(Message("table.done_hand", number=written.hand.number)) if not dry_run else nullcontext():
        _answer_hand(written, brief, as_json, dry_run, lang)


ASKED = {"record.duplicate": "table.duplicate_ask", "record.total_unusual": "table.total_unusual_ask",
         "record.total_above_cap": "table.total_above_cap_ask"}  # a refusal a player at a terminal is asked instead
CONFIRMED = {"record.duplicate": "refuse_duplicate", "record.total_unusual": "confirm_total",
             "record.total_above_cap": "confirm_total"}
REFUSED = {"record.duplicate": "table.duplicate_refused", "record.total_unusual": "table.total_unusual_refused",
           "record.total_above_cap": "table.total_above_cap_refused"}  # and said so in a script: what --yes does


def _record_asking(ledger: Ledger, t: Table, given: Data, yes: bool, **how: Any) -> Written:
    """`evening.record_given`, asking first where the hand repeats the one just recorded from elsewhere (two
    players entering the same hand) or its total is more than a hand usually reaches; without a terminal to ask
    at, refused unless --yes."""
    said = {"refuse_duplicate": not yes, "confirm_total": yes}
    while True:
        try:
            return front.record_given(ledger, t, given, refuse_duplicate=said["refuse_duplicate"],
                                      confirm_total=said["confirm_total"], **how)
        except LedgerError as exc:
            if exc.code not in ASKED:
                raise
            asked = exc.message.params  # the refusal, said as a question in the command line's language
            params = {k: v for k, v in asked.items() if k != "hand_id"}
            if not sys.stdin.isatty():  # a script: refused, in the command line's words
                raise UserError(REFUSED[exc.code], flag="--yes", **params) from None
            if not _sure(Message(ASKED[exc.code], **params).text(said_lang()), "nothing recorded", err=True):
                raise SystemExit(1) from None
            said[CONFIRMED[exc.code]] = exc.code != "record.duplicate"


def read_hand(ledger: Ledger, words: Sequence[str], winner: Optional[str], total: Optional[str],
              patterns: Optional[str], params: Dict[str, Any], number: Optional[int] = None) -> Tuple[Table, Data]:
    """The table and the hand `table hand` and `table edit` were given (`hand_input`): its tiles, the agreed
    total or the named patterns, with the situation, players' names read as seats. For an edit of hand
    `number`, names are read as that hand was seated and patterns by the rules it was recorded under."""
    for key, flag in (("dealer", "--dealer"), ("base", "--base")):
        if params.get(key) is not None:
            raise UserError("table.keeps_field", flag=flag, key=key)
    fields: Dict[str, Any] = {}
    if params.get("situation_file"):
        fields = read_situation_file(params["situation_file"])
        for key in ("dealer", "base"):
            if key in fields:
                raise UserError("table.file_keeps_field", path=params["situation_file"], key=key)
    if winner is not None and params.get("seat") is not None:
        raise UserError("table.winner_and_seat")
    t, hand = _table_and_hand(ledger, words, quick=total is not None or patterns is not None)
    seated, rules = t, None
    if number is not None:
        seated, rules = front.as_played(ledger, t, number)
    if hand and (total is not None or patterns is not None):
        raise UserError("table.hand_and_agreed")
    if total is not None and patterns is not None:
        raise UserError("table.fan_and_patterns")
    if total is not None:
        _unit_said(rules or front.table_rules(t, ledger))
    params["seat"] = winner if winner is not None else params.get("seat")
    if params["seat"] is None and "seat" not in fields:
        raise UserError("table.who_won")
    facts = {key: params.pop(name) for key, name in (("open", "open_melds"), ("kongs", "winner_kongs"))
             if params.get(name) is not None}
    params.pop("open_melds", None), params.pop("winner_kongs", None)
    _seats_to_table(seated, params)
    situation = build_situation(params)
    if hand:
        if facts:
            raise UserError("table.open_with_tiles")
        return t, front.hand_input(hand, situation)
    if total is None and patterns is None:
        raise UserError("table.nothing_to_record")
    return t, front.agreed_input(rules or front.table_rules(t, ledger), situation, total, patterns, facts,
                                   seat_of=seated.seat)


def _answer_hand(written: Written, brief: bool, as_json: bool, dry_run: bool, lang: str) -> None:
    """The answer to `table hand`: the hand recorded (or only scored, `dry_run`), in one line (`brief`) or in full."""
    t, record, standings = written.table, written.hand, written.standings
    result, rules = written.analysis, written.rules
    assert result is not None and rules is not None, "a hand's write scored it under its rules"
    _warn_hand(result.warnings)
    data = front.preview_json(written, said_lang()) if dry_run else front.written_json(written)
    if brief and not dry_run:
        doc = said_doc(brief_line(t, record, rules), *_seats_line(t, record, rules), _next_line(t, record.number, record.after, rules),
                       data=data)
    else:
        doc = said_doc(*(["(not recorded)"] if dry_run else []),
                       *hand_lines(t, record, result, rules, lang, None if dry_run else standings), data=data)
    emit(doc, as_json)


def _warn_hand(notices: Sequence[Notice]) -> None:
    """A hand's warnings on stderr; the patterns its situation added to those named in one short line (a
    dealer's hand adds 庄 each time: not a warning)."""
    added = [n.message.params["name"] for n in notices if getattr(n, "code", "") == "record.pattern_added"]
    lines = [line for notice in notices
             if getattr(notice, "code", "") != "record.pattern_added" and not getattr(notice, "assumed", False)
             for line in fit_text(f"warning: {printable(said(notice))}", "  ")]
    if added:
        lines += fit_text("note: " + Message("table.patterns_added", names=added).text(said_lang()), "      ")
    if lines:
        emit(said_doc(*lines), err=True)


def brief_line(t: Table, record: HandRecord, rules: Ruleset) -> str:
    """A recorded hand in one line: who won how, for how much and by which patterns, and what each player got
    (the patterns on a line of their own when one line is wider than the terminal); in the seats it was played in."""
    t = _as_seated(t, record)
    unit = rules.unit_zh
    pays = ", ".join(f"{t.player(s)} {record.deltas[s]:+d}" for s in SEATS if record.deltas[s])
    extra = context(record, t, rules)
    named = " ".join(p["name"] for p in record.patterns if isinstance(p, dict) and p.get("name"))
    head = f"hand {record.number}: {_result_text(t, record)} {_total(record, rules)}{unit}"
    rest = ((f" ×{record.factor}" if record.level else "") + (f" ({', '.join(extra)})" if extra else "")
            + f": {pays}")
    line = head + (f" {named}" if named else "") + rest
    if not named or width(line) <= columns():
        return line
    return head + rest + "\n" + "\n".join(wrap_items("  ", named.split(), sep=" "))


TOTAL_FLAGS = {"--fan": "fan", "--tai": "tai", "--points": "points"}  # one option: the total in the rules' unit


def _unit_said(rules: Ruleset) -> None:
    """`--tai 3` at a 番 table is 3 番: said, so that nobody thinks 台 were counted."""
    flag = typed_flag(TOTAL_FLAGS)
    if flag is not None and rules.unit_en in TOTAL_FLAGS.values() and TOTAL_FLAGS[flag] != rules.unit_en:
        warn([Message("table.total_read_as", flag=flag, unit=rules.unit_zh, ruleset=rules.id,
                      own=f"--{rules.unit_en}")])


def _table_and_hand(ledger: Ledger, words: Sequence[str], quick: bool) -> Tuple[Table, str]:
    """NAME and HAND from the words: the first word is the table when it names one, else the words are the
    hand (unquoted or not) at the table in use."""
    words = list(words)
    if words:
        try:
            return ledger.table(words[0]), " ".join(words[1:])
        except LedgerError as exc:
            missing = exc
        try:
            front.parse_tiles(words[0])
        except MjcalcError:
            raise missing from None  # neither a table nor tiles: say which tables there are
        if quick:  # tiles beside an agreed total or patterns: one or the other, said as such
            raise UserError("table.hand_and_agreed")
    return current_table(ledger), " ".join(words)


def _seats_to_table(t: Table, params: Dict[str, Any]) -> None:
    """Seats given as players' names become seats."""
    for key, value in list(params.items()):
        option = GENERIC.get("from" if key == "discarder" else key) or all_options().get(key)
        if value is not None and value != () and option is not None:
            params[key] = front.player_seats(t, option, value)


def hand_lines(t: Table, record: HandRecord, result: Analysis, rules: Ruleset, lang: str,
               standings: Optional[List[Standing]] = None) -> List[str]:
    """The lines `table hand` prints for a recorded hand: in the seats it was played in (a round it ended can
    change them: `seat_rotation`), then the standings and the next hand as the table sits now."""
    now, t = t, _as_seated(t, record)
    score, payout = result.score, result.payout
    assert score is not None and payout is not None, "a hand recorded is a win, scored and paid"
    unit = rules.unit(lang)
    lines = [f"hand {record.number}  round {record.round}, dealer {_who(t, record.dealer)}"
             + (f" (连庄 {record.streak})" if record.streak else "")
             + (f", 上楼 ×{record.factor}" if record.level else "")]
    entered = record.hand or f"(no tiles: {_entry_text(record, rules)})"
    extra = context(record, t, rules)
    line = f"          {entered}   {_result_text(t, record)}" + (f"   {', '.join(extra)}" if extra else "")
    if width(line) <= columns():
        lines.append(line)
    else:
        lines += [f"          {entered}   {_result_text(t, record)}"] + wrap_items("          ", extra)
    if score.matches:
        lines.append(_table(front.pattern_rows(result, lang), ["pattern", "id", unit]))
    lines.append(f"total     {front.total_text(result, score, lang, long=True)}{front.bonus_text(result, lang)}")
    headers, rows = front.payout_rows(result, lang)
    headers = headers[:1] + ["player"] + headers[1:]
    rows = [row[:1] + [t.player(str(row[0]))] + row[1:] for row in rows]  # each row's first cell: its seat
    if record.level:  # the total column is what each seat is paid: the hand's payout × 上楼
        fixed = [zh if lang == "zh" else en for zh, en, _ in payout.parts if en in payout.fixed]
        headers[-1] = f"total (上楼 ×{record.factor}" + (f"; {', '.join(fixed)} ×1" if fixed else "") + ")"
        rows = [row[:-1] + [record.deltas[str(row[0])]] for row in rows]
    lines.append(_fit_rows(rows, headers, drop=(2,)))
    if standings is not None:
        lines.append("")
        lines.append(_table(_standing_rows(now, standings), ["seat", "player", f"after hand {record.number}"]))
        lines += _seats_line(now, record, rules)
        lines.append(_next_line(now, record.number, record.after, rules))  # a hand only scored leaves the next as it is
    return lines


def _as_seated(t: Table, record: HandRecord) -> Table:
    """The table as it sat for `record` (its seating kept with the hand)."""
    if len(record.players) != len(SEATS):
        return t
    east, south, west, north = record.players
    return replace(t, players=(east, south, west, north))


def _fit_rows(rows: Sequence[Sequence[object]], headers: Sequence[object], drop: Tuple[int, ...] = ()) -> str:
    """The table, without the columns `drop` (by index) when it is wider than the terminal."""
    text = _table(rows, headers)
    if width(text) <= columns() or not drop:
        return text
    keep = [i for i in range(len(headers)) if i not in drop]
    return _table([[row[i] for i in keep] for row in rows], [headers[i] for i in keep])


@table.command("draw")
@name_argument
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@click.option("-y", "--yes", is_flag=True, help="Record it even if a draw was just recorded elsewhere.")
@click.option("--told", "told", multiple=True, metavar="FACT=SEATS",
              help="What the table says of a draw where its rules pay one (e.g. ready=E,S: who was ready; "
                   "ready=小李:2: ready with a best hand of 2).")
@click.option("--dry-run", is_flag=True, help="Show what it would pay; record nothing.")
@request_option
@client_option
@db_option
@ledger_errors
def table_draw(name: Optional[str], as_json: bool, yes: bool, told: Tuple[str, ...], dry_run: bool,
               request_id: Optional[str], client: Optional[str], db_path: Optional[str]) -> None:
    """Record a drawn hand 荒牌 (the wall ran out): nobody pays, or what the rules
    pay on a draw; the dealer stays or passes and 上楼 rises as the ruleset says.

    \b
    Examples:
      mjcalc table draw
      mjcalc table draw --dry-run
    """
    written_facts = _draw_told(told)  # its form is checked before the ledger is opened
    with _at_table(db_path, name) as (ledger, t):
        facts = front.told_seats(t, written_facts)
        request = front.request_for(request_id, {"command": "draw", "table": t.name, **({"told": facts} if facts else {})})
        written = _record_asking(ledger, t, front.hand_input(facts=facts), yes, dry_run=dry_run, request=request,
                                 client=client)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    record, t = written.hand, written.table
    if dry_run:
        return emit(said_doc("(not recorded)", draw_line(t, record), data=front.preview_json(written, said_lang())),
                    as_json)
    doc = said_doc(draw_line(t, record), *_seats_line(t, record, written.rules), _next_line(t, record.number, record.after, written.rules),
                   data=front.written_json(written))
    with answering(Message("table.done_hand", number=record.number)):
        emit(doc, as_json)


def _draw_told(items: Iterable[str]) -> Dict[str, str]:
    """`--told FACT=SEATS` items (ready=E,小李): {fact: its seats as written}, read at the table (`told_seats`); a
    fact given twice (ready=E --told ready=小李) is one list of both."""
    facts: Dict[str, str] = {}
    for item in items:
        fact, sep, seats = item.partition("=")
        if not sep or not fact.strip():
            raise UserError("table.told_form", value=repr(item))
        facts[fact.strip()] = f"{facts[fact.strip()]},{seats}" if fact.strip() in facts else seats
    return facts


def draw_line(t: Table, record: HandRecord) -> str:
    """A draw and what it pays, the payments on a line of their own when the two do not fit on one; then what
    the table told of it (ready=S:2, pig=W, by name) and the payments of its deal it paid back, if any; in the
    seats it was played in."""
    t = _as_seated(t, record)
    head = f"hand {record.number}  round {record.round}, dealer {_who(t, record.dealer)}: 荒牌, a drawn hand;"
    paid = ", ".join(f"{_who(t, seat)} {record.deltas[seat]:+d}" for seat in SEATS if record.deltas[seat])
    line = f"{head} {paid or 'nobody pays'}"
    lines = [line] if width(line) <= columns() else [head] + fit_text(f"          {paid}")
    told = record.input.get("told") or {}
    facts = [f"{fact} " + ", ".join(record.player(w.split(":")[0]) + (f" {w.split(':')[1]}" if ":" in w else "")
                                    for w in seats) for fact, seats in told.items() if seats]
    if record.payments:
        n = len(record.payments)  # read: a seat the rules spare (ready) pays none of them back
        facts.append(f"the deal's {n} kong payment{'s' * (n > 1)} weighed: what the rules pay back of "
                     f"{'them' if n > 1 else 'it'} is in the draw's money")
    return "\n".join(lines + (fit_text(f"          {'; '.join(facts)}") if facts else []))


def rules_line(t: Table, rules: Ruleset, status: str = "") -> str:
    """Which rules the table plays, built-in or read from which file, kept in the ledger (lines that fit)."""
    from_file = t.ruleset.endswith((".yaml", ".yml")) or os.sep in t.ruleset  # `record._source`: else a name
    lines = fit_text(f"rules     {rules.id} {rules.zh}{'' if from_file else ', built-in'}, kept in the ledger")
    if status and width(f"{lines[-1]} ({status})") <= columns():
        lines[-1] += f" ({status})"
    elif status:
        lines.append(f"          ({status})")
    return "\n".join(lines + ([f"          read from {t.ruleset}"] if from_file else []))  # a path, whole


@table.command("show")
@name_argument
@click.option("--json", "as_json", is_flag=True, help="Machine output: players, standings, every hand, the next hand.")
@click.option("--tiles", "with_tiles", is_flag=True, help="Show each hand's tiles (a wider table).")
@db_option
@ledger_errors
def table_show(name: Optional[str], as_json: bool, with_tiles: bool, db_path: Optional[str]) -> None:
    """The standings, the hands so far (each with how it was won and entered) and who deals next.

    \b
    Examples:
      mjcalc table show
      mjcalc table show friday --json
    """
    with _at_table(db_path, name, readonly=True) as (ledger, t):
        view = front.read_view(ledger, t.name)
    emit(said_doc(*show_lines(view, with_tiles), data=view.json()), as_json)


def show_lines(view: View, with_tiles: bool = False) -> List[str]:
    """`table show`: the table, its standings, its hands, its penalties and the next hand (`evening.View`)."""
    t, rules, hands = view.table, view.rules, view.hands
    count = len(hands)
    lines = [f"table {t.name!r}: {rules.id}, base {t.base}, {count} hand{'s' if count != 1 else ''}"
             + (f" — closed {_when(t.closed)}" if t.closed else ""), *rules_line(t, rules).splitlines()]
    if view.changed:
        lines += fit_text(f"          (the built-in {rules.id} has changed since the table kept it; "
                          f"`table rules {rules.id}` adopts it)", "          ")
    lines.append(_table(_standing_rows(t, view.standings), ["seat", "player", "score"]))
    if hands:
        lines.append("")
        lines += history_lines(view, with_tiles)
    if view.penalties:
        lines.append("")
        for p in view.penalties:
            lines += penalty_lines(t, p)
    lines.append(_next_line(t, count, t.state, rules))
    return lines


def _when(stamp: str) -> str:
    """A stored time (UTC, ISO) as the minute it was: `2026-12-02 21:40`."""
    return stamp[:16].replace("T", " ")


def fit_text(text: str, indent: str = "          ") -> List[str]:
    """`text` as lines that fit the terminal: cut at spaces (or inside a long word, as CJK text has none), each
    line after the first starting with `indent`."""
    from .text_table import wrap_text  # imported when used (start-up time)

    room = columns()
    if width(text) <= room:
        return [text]
    first = wrap_text(text, room)[0]
    rest = text[len(first):].strip()
    return [first] + [indent + line for line in wrap_text(rest, max(room - width(indent), 10))]


def penalty_lines(t: Table, penalty: PenaltyRecord) -> List[str]:
    """A penalty in the lines that fit: after which hand, who paid whom how much (kong money: who paid him), and
    why (the revision is what `table revert` takes)."""
    names = dict(zip(SEATS, penalty.players or t.players))
    others = [s for s in SEATS if s != penalty.player and penalty.deltas[s]]  # paid, or paying kong money
    to = ", ".join(names[s] for s in others) if len(others) < 3 else "each other player"
    paid = penalty.deltas[penalty.player]
    reason = f" — {penalty.reason}" if penalty.reason else ""
    when = f"after hand {penalty.after_hand}" if penalty.after_hand else "before the first hand"
    return fit_text(f"penalty {when}: {penalty.name}, {names[penalty.player]} {paid:+d}, "
                    f"{abs(penalty.deltas[others[0]])} {'from' if paid > 0 else 'to'} {to}"
                    f" (revision {penalty.revision}){reason}")


def history_lines(view: View, with_tiles: bool = False) -> List[str]:
    """The hands, a column for each person (everyone who played, those seated now first: where seats changed,
    a person's column is their money whatever the chair), each hand in its own rules' words and unit, 上楼 only
    where the ruleset has it. Each hand's context and how it was entered (and its tiles, `with_tiles`) go in the
    last columns, or below the table when the row would be too wide; when the people's columns do not fit
    either, each hand is a few lines of its own, the money still by person."""
    t, hands = view.table, view.hands
    people = list(dict.fromkeys(list(t.players) + [p for h in hands for p in h.players]))
    rows, headers, notes = _history_rows(view, people)
    tiles = {h.number: h.hand for h in hands if with_tiles and h.hand}
    layouts = [([row[:4] + [tiles.get(h.number, "")] + row[4:] for row, h in zip(rows, hands)],
                headers[:4] + ["hand"] + headers[4:], notes)] if tiles else []
    layouts.append((rows, headers, {n: ([tiles[n]] if n in tiles else []) + items for n, items in notes.items()}))
    for shown_rows, shown_headers, below in layouts:  # the first that fits
        if any(below.values()):
            text = _table([row + [", ".join(below[h.number])] for row, h in zip(shown_rows, hands)],
                          shown_headers + ["notes"])
            if width(text) <= columns():
                return [text]
        text = _table(shown_rows, shown_headers)
        if width(text) <= columns():
            return [text] + [line for n, items in below.items() if items for line in _note_lines(f"  #{n}: ", items)]
    return [line for h in hands for line in _hand_block(view, h, tiles.get(h.number))]


def _note_lines(head: str, items: Sequence[str]) -> List[str]:
    """`items` after `head` (`  #3: `), in lines that fit, the later ones under the first item."""
    lines = wrap_items(" " * width(head), items)
    return [head + lines[0].lstrip()] + lines[1:]


def _history_rows(view: View, people: List[str]) -> Tuple[List[Row], List[str], Dict[int, List[str]]]:
    """The history's rows (by person), its headers, and each hand's notes (how it was entered, its context)."""
    t, rules, hands, units = view.table, view.rules, view.hands, view.units
    unit = rules.unit_zh
    mixed = any(units.get(h.rules_sha256, unit) != unit for h in hands)
    shanglou = Session.of(rules).shanglou_levels > 0 or any(h.level for h in hands)
    headers = ["#", "庄", "result", "total" if mixed else unit] + (["上楼"] if shanglou else []) + people
    rows, notes = [], {}
    for h in hands:
        own = view.rules_of(h)
        notes[h.number] = [w for w in [_entry_text(h, own)] + context(h, t, own) if w]
        total = "" if h.total is None else f"{_total(h, own)}{own.unit_zh}" if mixed else _total(h, own)
        if total_kind(h, own) == "flat":
            total = f"{h.total} flat"
        # where the players change seats as each round ends, a seat letter names another player each round
        dealer = h.player(h.dealer) if h.players and Session.of(own).seat_rotation != "none" else h.dealer
        row = [h.number, dealer + (f"+{h.streak}" if h.streak else ""), _result_text(t, h), total]
        if shanglou:
            row.append(f"×{h.factor}" if h.level else "")
        seated = dict(zip(h.players or t.players, SEATS))
        rows.append(row + [h.deltas[seated[p]] if p in seated else "" for p in people])
    return rows, headers, notes


def _hand_block(view: View, h: HandRecord, tiles: Optional[str] = None) -> List[str]:
    """One hand in a few lines (when the people's columns do not fit): its number, dealer, result and total,
    then what each person got, then its tiles and notes."""
    t, own = view.table, view.rules_of(h)
    name = h.player if h.players else t.player
    total = "" if h.total is None else f" {h.total} flat" if total_kind(h, own) == "flat" else f" {_total(h, own)}{own.unit_zh}"
    head = (f"#{h.number}  庄 {name(h.dealer)}" + (f" (连庄 {h.streak})" if h.streak else "")
            + f"  {_result_text(t, h)}{total}" + (f" ×{h.factor}" if h.level else ""))
    pays = [f"{name(s)} {h.deltas[s]:+d}" for s in SEATS if h.deltas[s]]
    notes = ([tiles] if tiles else []) + [w for w in [_entry_text(h, own)] + context(h, t, own) if w]
    return (fit_text(head, "      ") + wrap_items("      ", pays or ["nobody pays"])
            + (wrap_items("      ", notes) if notes else []))


@table.command("undo")
@name_argument
@click.option("--hand", "number", type=int, metavar="N", help="Remove hand N instead of the last (the later hands "
              "are replayed; a hand whose state did not change keeps its payouts).")
@click.option("-y", "--yes", is_flag=True, help="Do not ask before removing it.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: the hand removed, the standings, the next hand.")
@request_option
@db_option
@ledger_errors
def table_undo(name: Optional[str], number: Optional[int], yes: bool, as_json: bool, request_id: Optional[str],
               db_path: Optional[str]) -> None:
    """Show the table's last hand (or hand N) and remove it (asks first; "n" removes nothing). What is removed is
    the very hand shown: if another phone or terminal changed it meanwhile, nothing is removed. `table revert`
    brings it back.

    \b
    Examples:
      mjcalc table undo --yes
      mjcalc table undo --hand 3
    """
    with _at_table(db_path, name) as (ledger, t):
        request = front.request_for(request_id, {"command": "undo", "table": t.name, "hand": number})
        hands = ledger.hands(t)
        if not hands and (request is None or ledger.request(request.id) is None):
            raise UserError("table.no_hands_to_undo", table=repr(t.name))
        shown = hands[-1] if number is None and hands else next((h for h in hands if h.number == number), None)
        if shown is None and hands:
            raise LedgerError("ledger.no_such_hand", table=repr(t.name), number=number, count=len(hands))
        preview = None
        if shown is not None and not (request and ledger.request(request.id)):
            if not yes:  # what removing it changes in the later hands, shown before asking
                preview = front.undo_hand(ledger, t, shown, dry_run=True)
            emit(said_doc(undo_line(t, shown), *(changed_lines(preview) if preview else []),
                          *moved_penalty_lines(t, ledger.penalties(t), shown.number)), err=as_json)
            if not yes and not _sure("remove it?", "nothing removed (--yes removes it without asking)", as_json):
                return
        # the very hand shown, or nothing; asked, only while the table is as the answer showed it
        written = front.undo_hand(ledger, t, shown, request, revision=preview.made_at if preview else None)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    _say_written(written, as_json, Message("table.done_undo", number=written.hand.number),
                 f"removed hand {written.hand.number}")


def moved_penalty_lines(t: Table, penalties: Iterable[PenaltyRecord], removed: int) -> List[str]:
    """The penalties (kong money among them) recorded after hand `removed` or later: with that hand removed each
    comes one hand earlier, and one right after the first hand comes before the first hand. Their money stays."""
    lines = []
    for p in penalties:
        if p.after_hand >= removed:
            now = f"after hand {p.after_hand - 1}" if p.after_hand > 1 else "before the first hand"
            who = dict(zip(SEATS, p.players or t.players))[p.player]
            lines.append(f"  the {p.name} of {who} after hand {p.after_hand} is now {now}: paid as before")
    return lines


def changed_lines(written: Written, renames: Optional[Dict[str, str]] = None) -> List[str]:
    """The later hands a write placed or paid otherwise: one line each, old → new; the hands only numbered or
    seated otherwise (names a correction gave, `renames`: nobody's money moves) in one line."""
    lines, numbered, seated = [], [], []
    renames = renames or {}
    for old, new in written.changed:
        pays = ", ".join(f"{new.player(s)} {old.deltas[s]:+d}→{new.deltas[s]:+d}" for s in SEATS
                         if old.deltas[s] != new.deltas[s])
        state = (f", dealer {old.dealer}→{new.dealer}" if old.dealer != new.dealer else "") + (
            f", 上楼 ×{old.factor}→×{new.factor}" if old.level != new.level else "")
        if not pays and not state:
            if old.number != new.number:
                numbered.append((old.number, new.number))
            elif tuple(renames.get(p, p) for p in old.players) != tuple(new.players):
                seated.append(new.number)
            continue
        moved = f"hand {old.number} is now hand {new.number}" if old.number != new.number else f"hand {new.number}"
        lines.append(f"  {moved}{state}: {pays}" if pays else f"  {moved}{state}: paid as before")
    if numbered:
        lines.append(f"  {_hands([o for o, _ in numbered])} now numbered {_numbers([n for _, n in numbered])}, "
                     "each paid as before")
    if seated:
        lines.append(f"  {_hands(seated)} seated as corrected: each seat paid as before")
    return lines


def _numbers(numbers: Iterable[int]) -> str:
    """Hand numbers as ranges: `1–3, 7`."""
    runs: List[List[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs)


def _hands(numbers: List[int]) -> str:
    return f"hand{'s' if len(numbers) > 1 else ''} {_numbers(numbers)}"


def undo_line(t: Table, last: HandRecord, prefix: str = "") -> str:
    """A recorded hand in a few lines after `prefix`, its players named as they sat in it."""
    name = last.player if last.players else t.player
    head = (f"hand {last.number}  round {last.round}, dealer {last.dealer} {name(last.dealer)}: "
            f"{_result_text(t, last)}" + (f"  {last.total}" if last.total is not None else ""))
    lines = fit_text(prefix + head) + ([f"          {last.hand}"] if last.hand else [])
    return "\n".join(lines + wrap_items("          ", [f"{name(s)} {last.deltas[s]:+d}" for s in SEATS]))


def wrap_items(indent: str, items: Iterable[str], sep: str = ", ") -> List[str]:
    """`items` joined by `sep` in lines that fit the terminal, each after `indent`."""
    lines, line = [], ""
    for item in items:
        candidate = f"{line}{sep}{item}" if line else item
        if line and width(indent + candidate) > columns():
            lines.append(indent + line + sep.rstrip())
            line = item
        else:
            line = candidate
    return lines + ([indent + line] if line else [])


_FORMULA = ("=", "+", "-", "@")


def _cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: a leading = + - @ that is not a number gets a quote, and a
    control or invisible character (an escape sequence in a stored name) is written as its escape."""
    text = printable(str(value))
    if text.startswith(_FORMULA) and not text.lstrip("+-").isdigit():
        return "'" + text
    return text


@table.command("export")
@name_argument
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to FILE instead of stdout.")
@click.option("--json", "as_json", is_flag=True, help="The whole table as one JSON document that `table import` "
              "brings back (rules, seating, hands, penalties, the log).")
@db_option
@ledger_errors
def table_export(name: Optional[str], output: Optional[str], as_json: bool, db_path: Optional[str]) -> None:
    """The table's hands as CSV: one row a hand (and one a penalty), how it was won and entered, each person's
    payout and score (a column for everyone who played; empty where they did not sit), and who sat where. With
    --json, the whole table, to move it to another computer or keep it (`table import`).

    \b
    Examples:
      mjcalc table export -o friday.csv
      mjcalc table export --json -o friday.json
    """
    if as_json:
        with _at_table(db_path, name, readonly=True) as (ledger, t):
            doc = front.export_json(ledger, t.name)
        _write_out(output, json_text(doc, indent=1) + "\n",
                   f"wrote table {t.name!r} ({len(doc['hands'])} hands, {len(doc['log'])} events) to {output}")
        return
    with _at_table(db_path, name, readonly=True) as (ledger, t):
        rules = front.table_rules(t, ledger)
        hands = ledger.hands(t)
        penalties = ledger.penalties(t)
        people = [s.player for s in ledger.standings(t, hands)]
        own = front.hand_rules(ledger, t, hands, rules)  # each hand's, for its unit and its words
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([_cell(c) for c in ["hand", "round", "dealer", "streak", "factor", "kind", "winner", "from",
                                        "tiles", "total", "patterns"] + people + [f"{p} score" for p in people]
                     + ["recorded", "entry", "unit", "context", "seats E S W N"]])
    running = dict.fromkeys(people, 0)

    def penalty_rows(after: int) -> None:  # the penalties between this hand and the next, as rows of their own
        for p in (p for p in penalties if p.after_hand == after):
            seated = dict(zip(p.players, SEATS))
            for person in people:
                running[person] += p.deltas[seated[person]] if person in seated else 0
            writer.writerow([_cell(c) for c in ["", "", "", "", "", "penalty", "", "", "", "", p.name]
                             + [p.deltas[seated[q]] if q in seated else "" for q in people]
                             + [running[q] for q in people]
                             + [p.recorded, "", "", f"{p.players[SEATS.index(p.player)]} {p.reason}".strip(),
                                " ".join(p.players)]])

    penalty_rows(0)
    for h in hands:
        seated = dict(zip(h.players or t.players, SEATS))
        for p in people:
            running[p] += h.deltas[seated[p]] if p in seated else 0
        named = h.player if h.players else t.player
        writer.writerow([_cell(c) for c in [
            h.number, h.round, named(h.dealer), h.streak, h.factor, h.kind,
            named(h.winner) if h.winner else "", named(h.discarder) if h.discarder else "",
            h.hand or "", "" if h.total is None else h.total, " ".join(f"{p['name']}{p['value']}" for p in h.patterns)]
            + [h.deltas[seated[p]] if p in seated else "" for p in people] + [running[p] for p in people]
            + [h.recorded, h.entry or "", own.get(h.rules_sha256, rules).unit_zh if h.kind == "win" else "",
               "; ".join(context(h, t, own.get(h.rules_sha256, rules))), " ".join(h.players or t.players)]])
        penalty_rows(h.number)
    _write_out(output, buffer.getvalue(), f"wrote {len(hands)} hands to {output}")


def _write_out(output: Optional[str], text: str, said: str) -> None:
    """`text` to the file `output` (then `said`), or to stdout."""
    if not output:
        click.echo(text, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as exc:
        raise UserError("cli.cannot_write", flag="-o", path=output, reason=exc.strerror) from None
    emit(said_doc(said))


@table.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--as", "as_name", metavar="NAME", help="Import it under another name.")
@db_option
@ledger_errors
def table_import(file: str, as_name: Optional[str], db_path: Optional[str]) -> None:
    """Bring back a table written by `table export --json` (from this computer or another): its log, hands,
    penalties and standings exactly as they were; no hand is scored again. A table of the same name is refused
    (--as gives it another name).

    \b
    Examples:
      mjcalc table import friday.json
      mjcalc table import friday.json --as friday-copy
    """
    try:
        with click.open_file(file, "r", encoding="utf-8") as f:
            doc = json.loads(f.read())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError("import.unreadable", path=file, reason=getattr(exc, "strerror", None) or str(exc)) from None
    from .progress import Progress  # imported when used (start-up time)
    with _open(db_path) as ledger:
        with Progress("table import:", unit="results scored again") as shown:  # each scored again: a line at a terminal
            t = front.import_table(ledger, doc, as_name, progress=shown.step)
        count = len(ledger.hands(t))
    emit(said_doc(f"imported table {t.name!r}: {t.ruleset_id}, {count} hand{'s' if count != 1 else ''}, "
                  f"revision {t.revision}"))


@table.command("list")
@db_option
@ledger_errors
def table_list(db_path: Optional[str]) -> None:
    """The tables in the ledger; * marks the one in use.

    \b
    Example:
      mjcalc table list
    """
    with _open(db_path, readonly=True) as ledger:
        tables = ledger.tables()
        path = ledger.path
        using = ledger.setting("table")
    if not tables:
        emit(said_doc(f"no tables yet in {path}"))
        return
    rows = [[("* " if t.name == using else "  ") + t.name, t.ruleset_id, t.base, " ".join(t.players), hands,
             (last or "")[:16].replace("T", " ")] for t, hands, last in tables]
    emit(said_doc(_fit_rows(rows, ["table", "ruleset", "base", "players E S W N", "hands", "last hand"], drop=(5, 2))))


@table.command("settle")
@name_argument
@click.option("--rate", metavar="R", help="Money per point (0.5, 2, 0.05): each transfer in money, rounded to the "
              "cent, half up (said with the answer).")
@click.option("--json", "as_json", is_flag=True, help="Machine output: the standings and the transfers.")
@db_option
@ledger_errors
def table_settle(name: Optional[str], rate: Optional[str], as_json: bool, db_path: Optional[str]) -> None:
    """Who pays whom at the end: the fewest transfers that settle the standings; with --rate, in money.

    \b
    Examples:
      mjcalc table settle
      mjcalc table settle --rate 0.5
    """
    per_point = front.read_rate(rate) if rate is not None else None
    with _at_table(db_path, name, readonly=True) as (ledger, t):
        standings = ledger.standings(t)
    transfers = front.settle({s.player: s.score for s in standings})
    data: Data = {"table": t.name, "standings": standings_json(standings), "transfers": transfers_json(transfers)}
    if per_point is not None:
        data["rate"] = str(per_point)
        data["rounding"] = "each transfer to 0.01, half up"
        for item, (_, _, n) in zip(data["transfers"], transfers):
            item["money"] = str(front.money(n, per_point))
    emit(said_doc(*settle_lines(t, standings, transfers, per_point), data=data), as_json)


def settle_lines(t: Table, standings: List[Standing], transfers: List[Tuple[str, str, int]],
                 per_point: Optional[Decimal] = None) -> List[str]:
    lines = [_table(_standing_rows(t, standings), ["seat", "player", "score"]), ""]
    if not transfers:
        return lines + ["settled: nobody owes anything"]
    at = f" at {per_point} a point, each rounded to 0.01 half up" if per_point is not None else ""
    lines.append(f"{len(transfers)} transfer{'s' if len(transfers) != 1 else ''} settle it{at}:")
    return lines + [f"  {a} pays {b} {n}" + (f" points = {front.money(n, per_point)}" if per_point is not None else "")
                    for a, b, n in transfers]


@table.command("rename")
@click.argument("names", nargs=-1, required=True, metavar="[NAME] NEW")
@db_option
@ledger_errors
def table_rename(names: Tuple[str, ...], db_path: Optional[str]) -> None:
    """Rename the table in use (or NAME) to NEW.

    \b
    Example:
      mjcalc table rename friday friday-12-01
    """
    if len(names) > 2:
        raise UserError("table.rename_takes")
    old, new = (None, names[0]) if len(names) == 1 else names
    with _at_table(db_path, old) as (ledger, t):
        renamed = ledger.rename_table(t, new)
    emit(said_doc(f"table {t.name!r} is now {renamed.name!r}"))


@table.command("delete")
@click.argument("name")
@click.option("-y", "--yes", is_flag=True, help="Do not ask first.")
@db_option
@ledger_errors
def table_delete(name: str, yes: bool, db_path: Optional[str]) -> None:
    """Delete the table NAME and all its hands (asks first).

    \b
    Example:
      mjcalc table delete friday-12-01 --yes
    """
    with _open(db_path) as ledger:
        t = ledger.table(name)
        hands = len(ledger.hands(t))
        if not yes and not _sure(f"delete table {t.name!r} and its {hands} hand{'s' if hands != 1 else ''}?",
                                 "nothing deleted (--yes deletes without asking)"):
            return
        ledger.delete_table(t)
    emit(said_doc(f"deleted table {t.name!r} and its {hands} hand{'s' if hands != 1 else ''}"))


@table.command("seat")
@click.argument("words", nargs=-1, metavar="[NAME] [SEAT=PLAYER]…")
@click.option("--dealer", metavar="PLAYER", help="Who deals the next hand (a name or a seat; 连庄 starts again).")
@click.option("--from-start", is_flag=True, help="Correct the seating of the first hand instead (a new name renames "
              "the person it replaces in every hand); shows what changes and asks.")
@click.option("-y", "--yes", is_flag=True, help="With --from-start: do not ask.")
@request_option
@db_option
@ledger_errors
def table_seat(words: Tuple[str, ...], dealer: Optional[str], from_start: bool, yes: bool, request_id: Optional[str],
               db_path: Optional[str]) -> None:
    """Players change seats, or who deals next is corrected, from the next hand on. Each SEAT=PLAYER puts that
    player in that seat (a player who sat elsewhere swaps with the seat's player; a new name joins, and the
    person who leaves keeps their score). The deal stays with the seat; 连庄 starts again when the dealer's seat
    changes person. Recorded hands keep who sat where; `--from-start` corrects the first hand's seating instead.

    \b
    Examples:
      mjcalc table seat 南=阿张 西=小李
      mjcalc table seat --dealer 阿张
      mjcalc table seat --from-start 南=李明
    """
    name = words[0] if words and "=" not in words[0] else None
    changes = _read_seats([w for w in words if "=" in w], flag="table seat")
    if not changes and dealer is None:
        raise UserError("table.seat_takes")
    with _at_table(db_path, name) as (ledger, t):
        together = None  # the dealer corrected with a change of seats: one write
        request = front.request_for(request_id, {"command": "seat", "table": t.name, "changes": changes,
                                                   "from_start": from_start, "dealer": dealer})
        if changes:
            base = front.opening_players(ledger, t) if from_start else t.players
            players = front.seating_with(base, changes)
            if dealer is not None and not from_start:
                east, south, west, north = (players[s] for s in SEATS)
                together = replace(t, players=(east, south, west, north)).seat(dealer)  # as they will sit
            preview = None
            if from_start and not yes:
                preview = front.preview_seating(ledger, t, players)
                renames = preview.made.data.get("renames", {})
                emit(said_doc("first hand's seating: " + ", ".join(f"{s} {p}" for s, p in players.items()),
                              *[f"  {old} is {new} in every hand" for old, new in renames.items()],
                              *(changed_lines(preview, renames) or ["  no hand is paid or placed otherwise"]),
                              *standings_change(t, preview, renames)))
                if not _sure("correct it?", "nothing changed (--yes corrects without asking)"):
                    return
            written = front.seat_players(ledger, t, players, from_start, request,
                                           revision=preview.made_at if preview is not None else None,
                                           dealer=together)
            if written.replayed:
                return _replayed(written, False, request_id)
            t = written.table
            request = None  # the dealer below (after --from-start) is a second write
            head = f"table {t.name!r}" + ("" if from_start else " from the next hand on") + ": "
            emit(said_doc(*_note_lines(head, [f"{s} {p}" for s, p in zip(SEATS, t.players)])))
        if dealer is not None and together is None:
            written = front.correct_dealer(ledger, t, t.seat(dealer), request)
            if written.replayed:
                return _replayed(written, False, request_id)
            t = written.table
        emit(said_doc(_next_line(t, len(ledger.hands(t)), t.state)))


@table.command("penalty")
@click.argument("words", nargs=-1, metavar="[NAME] PENALTY")
@click.option("--player", required=True, help="Whose it is, a player's name or a seat: who pays a penalty; who is "
                                               "paid money the ruleset pays (kong money: the konger).")
@click.option("--to", "to", metavar="PLAYER", help="The one other player in it, where there is one: who is paid a "
                                                  "penalty; who pays money the ruleset pays (刮风: the discarder).")
@click.option("--reason", default="", help="Why, in a few words (shown in the history).")
@click.option("--json", "as_json", is_flag=True, help="Machine output: the penalty, the standings, the next hand.")
@request_option
@db_option
@ledger_errors
def table_penalty(words: Tuple[str, ...], player: str, to: Optional[str], reason: str, as_json: bool,
                  request_id: Optional[str], db_path: Optional[str]) -> None:
    """Record a penalty the ruleset declares (诈和 …) between hands: the player at fault pays each other player,
    or the one named with --to, the amount the ruleset says times 底分 (no 上楼, no dealer's doubling); or money
    the ruleset pays the player when it happens (kong money: the others, or --to, pay him; sichuan's 刮风 below:
    阿张 kongs 小李's discard, 小李 pays him). It takes no hand number and the deal stays where it is; `table
    revert REVISION` takes it back.

    \b
    Examples:
      mjcalc table penalty 诈和 --player 老王 --reason "没听牌就推倒"
      mjcalc table penalty friday 罚分 --player 老王 --to 小李
      mjcalc table penalty 刮风 --player 阿张 --to 小李
    """
    if not words:
        raise UserError("table.penalty_takes")
    name, what = (words[0], " ".join(words[1:])) if len(words) > 1 else (None, words[0])
    with _at_table(db_path, name) as (ledger, t):
        request = front.request_for(request_id, {"command": "penalty", "table": t.name, "penalty": what,
                                                   "player": player, "to": to, "reason": reason})
        written = front.record_penalty(ledger, t, what, player, to, reason, request)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    t, penalty = written.table, written.penalty
    assert penalty is not None, "a penalty's write recorded it"
    doc = said_doc(*penalty_lines(t, penalty), _table(_standing_rows(t, written.standings),
                                                               ["seat", "player", "score"]),
                   data=front.written_json(written))
    with answering(Message("table.done_penalty")):
        emit(doc, as_json)


@table.command("close")
@name_argument
@click.option("--reopen", is_flag=True, help="Open a closed table again for writes (asks first).")
@click.option("-y", "--yes", is_flag=True, help="With --reopen: do not ask.")
@request_option
@db_option
@ledger_errors
def table_close(name: Optional[str], reopen: bool, yes: bool, request_id: Optional[str],
                db_path: Optional[str]) -> None:
    """Close a settled table: every write to it (a hand, an undo, an edit, a seat change, a penalty) is refused
    until it is reopened, so a stray command cannot change an evening that was paid out. `--reopen` opens it.

    \b
    Examples:
      mjcalc table close friday
      mjcalc table close friday --reopen
    """
    with _at_table(db_path, name) as (ledger, t):
        if reopen and t.closed and not yes and not _sure(
                f"table {t.name!r} was closed {_when(t.closed)} UTC; reopen it for writes?",
                "still closed (--yes reopens without asking)"):
            return
        request = front.request_for(request_id, {"command": "close", "table": t.name, "reopen": reopen})
        written = front.close_table(ledger, t, closed=not reopen, request=request)
    t = written.table
    if written.change is None:
        emit(said_doc(f"table {t.name!r} is {'closed' if t.closed else 'open'} already"))
    elif t.closed:
        emit(said_doc(*fit_text(f"table {t.name!r} closed: no writes until `mjcalc table close {t.name} --reopen`",
                                "  ")))
    else:
        emit(said_doc(f"table {t.name!r} is open again"))


def standings_change(t: Table, written: Written, renames: Optional[Dict[str, str]] = None) -> List[str]:
    """The standings a previewed write would leave, where a person's score changes (`renames`: old → new
    names a correction gives, the same person)."""
    renames = renames or {}
    before = {renames.get(s.player, s.player): s.score for s in written.old_standings} if written.old_standings \
        else {}
    return [f"  {s.player}: {before.get(s.player, 0):+d} → {s.score:+d}" for s in written.standings
            if before.get(s.player, 0) != s.score]


@table.command("rules")
@click.argument("words", nargs=-1, metavar="[NAME] [RULESET]")
@click.option("-y", "--yes", is_flag=True, help="Do not ask before switching.")
@request_option
@db_option
@ledger_errors
def table_rules_command(words: Tuple[str, ...], yes: bool, request_id: Optional[str], db_path: Optional[str]) -> None:
    """Say which rules the table plays; with RULESET (a built-in or a YAML file, read now) the table adopts
    it from its next hand on, after asking. A table keeps the rules it was opened with until this command
    changes them; a 上楼 level the new rules do not have is reset (and said).

    \b
    Examples:
      mjcalc table rules
      mjcalc table rules friday my-house.yaml --yes
    """
    if len(words) > 2:
        raise UserError("table.rules_takes")
    name, source = (None, None)
    if len(words) == 2:
        name, source = words
    elif len(words) == 1:
        with _open(db_path, readonly=True) as ledger:
            try:
                ledger.table(words[0])
                name = words[0]
            except LedgerFileError:
                raise
            except LedgerError:
                source = words[0]
    with _at_table(db_path, name, readonly=True) as (ledger, t):  # a read first: a mistyped --db creates no file
        if source is None:  # only saying which rules
            emit(said_doc(rules_line(t, front.table_rules(t, ledger))))
            return
    with _open(db_path) as ledger:
        t = current_table(ledger, name)
        before = front.table_rules(t, ledger)
        after = load_ruleset(source)  # read once: what is shown is what is adopted
        same = front.rules_json(before) == front.rules_json(after)
        if not same and not yes:
            emit(said_doc(rules_line(t, before)))
            if not _sure(f"switch to {after.id} {after.zh} from the next hand on?",
                         "rules unchanged (--yes switches without asking)"):
                return
        was = state = t.state
        rules = before
        if not same:  # the same rules again: nothing to write
            request = front.request_for(request_id, {"command": "rules", "table": t.name, "rules": front.rules_json(after)})
            t, rules = front.adopt_rules(ledger, t, source, after, request, revision=None if yes else t.revision)
            state = t.state
    lines = [rules_line(t, rules, "unchanged" if same else "from the next hand on")]
    if state.level < was.level:
        reach = f"goes up at most {state.level} level{'s' if state.level != 1 else ''}" if state.level else "has no 上楼"
        lines.append(f"上楼 ×{was.factor} reset to ×{state.factor}: {rules.id} {reach}")
    emit(said_doc(*lines))


@table.command("edit", cls=SituationCommand)
@click.argument("number_given", metavar="N")
@click.argument("words", nargs=-1, metavar="[NAME] [HAND]")
@hand_entry_options
@click.option("--draw", "as_draw", is_flag=True, help="Hand N was a drawn hand 荒牌 (no winner; it pays what the "
              "rules pay on a draw, if anything).")
@click.option("--told", "told", multiple=True, metavar="FACT=SEATS", help="With --draw: what the table says of it "
              "where the rules pay on a draw (ready=E,S).")
@click.option("-y", "--yes", is_flag=True, help="Do not ask before replacing it.")
@click.option("--dry-run", is_flag=True, help="Show what it would change; replace nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: the hand as replaced and as it is now, the "
              "later hands it changes, the standings.")
@request_option
@db_option
@ledger_errors
def table_edit(number_given: str, words: Tuple[str, ...], winner: Optional[str], total: Optional[str],
               patterns: Optional[str], as_draw: bool, told: Tuple[str, ...], yes: bool, dry_run: bool, as_json: bool,
               request_id: Optional[str], db_path: Optional[str], **params: Any) -> None:
    """Replace hand N wholly (the options of `table hand`): shows the old hand, the new one and what changes for
    the later hands, and asks. The later hands keep what was entered; their dealer, 连庄 and 上楼 are replayed,
    and a hand whose state did not change keeps its payouts. `table revert` takes the edit back.

    \b
    Examples:
      mjcalc table edit 3 --fan 2 --winner 小李 --from 老王
      mjcalc table edit 5 123m456p789s234s5m +5m --winner 阿张 --yes
      mjcalc table edit 3 --fan 3 --winner 小李 --from 老王 --dry-run
      mjcalc table edit friday 3 --fan 2 --winner 小李
    """
    number, words = _hand_number(number_given, words)
    with _open(db_path) as ledger:
        if as_draw:
            if words[1:] or winner or total is not None or patterns is not None:
                raise UserError("table.draw_takes_nothing")
            t = ledger.table(words[0]) if words else current_table(ledger)
            given = front.hand_input(facts=front.told_seats(t, _draw_told(told)))
        else:
            t, given = read_hand(ledger, words, winner, total, patterns, params, number)
        request = front.request_for(request_id, {"command": "edit", "table": t.name, "number": number,
                                                   "input": given})
        preview = None
        if dry_run or not yes and not (request and ledger.request(request.id)):
            old = next((h for h in ledger.hands(t) if h.number == number), None)
            if old is None:
                raise LedgerError("ledger.no_such_hand", table=repr(t.name), number=number,
                                  count=len(ledger.hands(t)))
            preview = front.edit_hand(ledger, t, old, given, dry_run=True)
            unusual = front.unusual(preview.rules or front.table_rules(t, ledger), given, preview.analysis)
            doc = said_doc(undo_line(t, old, "was  "), undo_line(t, preview.hand, "now  "),
                           *changed_lines(preview), *standings_change(t, preview),
                           *([said(unusual)] if unusual is not None else []), data=front.preview_json(preview))
            if dry_run:  # the preview is the answer
                doc.text("nothing changed (a dry run)")
                return emit(doc, as_json)
            emit(doc, err=as_json)
            if not _sure("replace it?", "nothing changed (--yes replaces it without asking)", as_json):
                return
        shown = preview.old if preview else number
        written = front.edit_hand(ledger, t, shown, given, request=request,
                                    revision=preview.made_at if preview else None, confirm_total=True)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    head = (f"replaced hand {written.hand.number} (revision {written.table.revision}; "
            f"`table revert {written.table.revision}` takes it back)")
    if preview is None:  # (--yes: the new hand was not shown before it was written)
        head += "\n" + undo_line(written.table, written.hand, "now  ")
    _say_written(written, as_json, Message("table.done_edit", number=written.hand.number), head)


def _hand_number(given: str, words: Tuple[str, ...]) -> Tuple[int, Tuple[str, ...]]:
    """`table edit`'s hand number and the words after it: `N [NAME] …`, or `NAME N …` as the other commands take
    the table's name first."""
    if given.isdigit():
        return int(given), words
    if words and words[0].isdigit():
        return int(words[0]), (given,) + words[1:]
    raise click.BadParameter(f"{given!r} is not a hand number", param_hint="'N'")


@table.command("revert")
@click.argument("words", nargs=-1, metavar="[NAME] REVISION")
@click.option("-y", "--yes", is_flag=True, help="Do not ask before taking it back.")
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@request_option
@db_option
@ledger_errors
def table_revert(words: Tuple[str, ...], yes: bool, as_json: bool, request_id: Optional[str],
                 db_path: Optional[str]) -> None:
    """Take back an edit, an undo or a penalty, named by its revision in `table log` (shows what it does and
    asks first): the hand it replaced or removed is back in its place, paid as it was where its state is the
    same again. The revert is itself a new entry in the log.

    \b
    Examples:
      mjcalc table revert 12
      mjcalc table revert 12 --yes
    """
    if not words or not words[-1].isdigit() or len(words) > 2:
        raise UserError("table.revert_takes")
    with _at_table(db_path, words[0] if len(words) == 2 else None) as (ledger, t):
        request = front.request_for(request_id, {"command": "revert", "table": t.name, "revision": words[-1]})
        shown = None
        if not yes and not (request and ledger.request(request.id)):
            preview = front.revert_event(ledger, t, int(words[-1]), dry_run=True)
            back = preview.record
            lines = [f"revert revision {words[-1]}" + (f": hand {back.number} comes back" if back else "")]
            if back:
                lines.append(undo_line(preview.table, back))
            elif preview.penalty is not None:
                lines.append("takes back " + "\n".join(penalty_lines(preview.table, preview.penalty)))
            emit(said_doc(*lines, *changed_lines(preview), *standings_change(t, preview)), err=as_json)
            if not _sure("revert it?", "nothing changed (--yes reverts without asking)", as_json):
                return
            shown = preview.made_at
        written = front.revert_event(ledger, t, int(words[-1]), request, revision=shown)
    if written.replayed:
        return _replayed(written, as_json, request_id)
    _say_written(written, as_json, Message("table.done_revert", revision=words[-1]),
                 f"reverted revision {words[-1]}" + (f": hand {written.hand.number} is back" if written.record else ""))


@table.command("log")
@name_argument
@click.option("--json", "as_json", is_flag=True, help="Machine output: every event with its data.")
@db_option
@ledger_errors
def table_log(name: Optional[str], as_json: bool, db_path: Optional[str]) -> None:
    """Every write to the table, in order, one line each by revision: hands, edits, undos, reverts, seat
    changes, dealer corrections, rules switches and penalties (`table revert REVISION` takes back an edit, an
    undo or a penalty). Times are local; the date is said when it changes.

    \b
    Example:
      mjcalc table log
    """
    with _at_table(db_path, name, readonly=True) as (ledger, t):
        log = ledger.log(t)
        events = front.story(ledger, t, log)
    shown_lines = [" rev  when         what"]
    day = None
    for event in events:
        when = _local(event.recorded)
        shown = when[11:16] if when[:10] == day else when[5:16]
        day = when[:10]
        head = f"{event.revision:>4}  {shown:<11}  "
        said, _, entered = _event_text(event).partition("  ")  # how a hand was entered: whole, on its own line
        lines = fit_text(head + said, " " * width(head))
        if entered and width(f"{lines[-1]}  {entered}") <= columns():
            lines[-1] += f"  {entered}"
        elif entered:
            lines += fit_text(" " * width(head) + entered, " " * width(head))
        shown_lines += lines
    emit(said_doc(*shown_lines, data={"table": t.name, "revision": t.revision, "events": log}), as_json)


def _local(stamp: str) -> str:
    """A stored time (UTC, ISO) in local time: `2026-12-02 21:40`."""
    from datetime import datetime  # imported when used (start-up time)

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return _when(stamp)


def _told(hand: Optional["Told"]) -> str:
    """A hand as the log names it: `hand 3: 小李 ← 老王 3番`, `hand 4: 荒牌`."""
    if hand is None:
        return "a hand no longer in the log"
    if hand.kind == "draw":
        return f"hand {hand.number}: 荒牌 draw"
    how = "自摸" if hand.discarder is None else f"← {hand.discarder}"
    total = "" if hand.total is None else f" {hand.total}{hand.unit}"
    return f"hand {hand.number}: {hand.winner} {how}{total}"


def _entered(hand: Optional["Told"]) -> str:
    """How a hand was entered, after its line: its tiles, or the patterns named."""
    if hand is None or hand.kind == "draw":
        return ""
    if hand.tiles:
        return f"  {hand.tiles}"
    return f"  named {' '.join(hand.named)}" if hand.named else ""


def _edit_text(was: Optional["Told"], now: Optional["Told"]) -> str:
    """What an edit changed: `hand 2: 3番 → 4番`, or the whole hand before and after."""
    if was is None or now is None:
        return _told(now)
    parts = []
    if (was.kind, was.winner, was.discarder) != (now.kind, now.winner, now.discarder):
        parts.append(f"{_told(was).split(': ', 1)[1]} → {_told(now).split(': ', 1)[1]}")
    elif was.total != now.total or was.unit != now.unit:
        parts.append(f"{was.total}{was.unit} → {now.total}{now.unit}")
    if was.tiles != now.tiles and now.tiles:
        parts.append(f"tiles {now.tiles}")
    if was.named != now.named and now.named:
        parts.append(f"named {' '.join(now.named)}")
    if was.agreed != now.agreed and now.agreed:
        parts.append("the total agreed")
    return f"hand {now.number}: " + (", ".join(parts) or "the same result, its situation changed")


def _penalty_text(p: Data) -> str:
    others = p.get("with") or []
    to = p["to"] if p["to"] else ", ".join(others) if 0 < len(others) < 3 else "each other player"
    reason = f" — {p['reason']}" if p["reason"] else ""
    return f"{p['name']}: {p['player']} {p['paid']:+d}, {p['amount']} {'from' if p['paid'] > 0 else 'to'} {to}{reason}"


def _event_text(event: "Event") -> str:
    """One event of `table log` in words."""
    kind: str = event.kind
    if kind == "open":
        return f"opened ({event.rules[0]}): " + ", ".join(f"{s} {p}" for s, p in zip(SEATS, event.players))
    if kind == "hand":
        return _told(event.hand) + _entered(event.hand)
    if kind == "edit":
        return "edit of " + _edit_text(event.was, event.hand)
    if kind == "undo":
        return "undo of " + _told(event.hand)
    if kind == "revert" and event.target is not None:
        revision, taken = event.target
        if taken == "edit":
            return f"revert of revision {revision}: " + _edit_text(event.was, event.hand)
        if taken == "undo":
            return f"revert of revision {revision}: {_told(event.hand)} is back"
        if taken == "penalty" and event.penalty:
            return f"revert of revision {revision}: penalty {event.penalty['name']} taken back"
        return f"revert of revision {revision}"
    if kind == "seat":
        moved = ", ".join(f"{s} {now} (was {was})" for s, was, now in event.moved) or "nobody moved"
        return f"seats: {moved}" + (f"; {event.dealer[1]} deals next" if event.dealer else "")
    if kind == "seat_start":
        moved = ", ".join(f"{s} {now} (" + ("renamed from " if event.renames.get(was) == now else "was ")
                          + f"{was})" for s, was, now in event.moved) or "nobody moved"
        return f"first hand's seating corrected: {moved}"
    if kind == "dealer" and event.dealer:
        return f"dealer corrected: {event.dealer[0]} {event.dealer[1]} deals next"
    if kind == "rules":
        old_id, old_zh, new_id, new_zh = event.rules
        return f"rules: {old_id} {old_zh} → {new_id} {new_zh}"
    if kind == "penalty" and event.penalty:
        return "penalty " + _penalty_text(event.penalty)
    if kind == "close":
        return "closed: no writes until reopened" if event.closed else "reopened"
    if kind == "state" and event.state:
        return "state corrected: " + ", ".join(f"{k} {v}" for k, v in event.state.items())
    return kind


@table.command("check")
@name_argument
@click.option("--json", "as_json", is_flag=True, help="Machine output: every problem found.")
@db_option
@ledger_errors
def table_check(name: Optional[str], as_json: bool, db_path: Optional[str]) -> None:
    """Check the ledger (or the table NAME): SQLite's check of the file, and every table's rows against what
    mjcalc writes — payouts in whole numbers summing to zero, seats, JSON, the hands numbered in order, the
    table and the hands its log makes, the rules under their digest — and every result the log keeps scored
    again from how its hand was entered. Lists every problem (exit 1), or says the ledger is sound; repairs
    nothing.

    \b
    Example:
      mjcalc table check
    """
    with _open(db_path, readonly=True) as ledger:
        tables = [t for t, _, _ in ledger.tables() if name is None or t.name == name]
        if name is not None and not tables:
            ledger.table(name)  # says there is no such table
        found = [p for t in tables for p in front.problems(ledger, t, derive=True)] if name is not None \
            else front.problems(ledger, derive=True)
        path = ledger.path
    data = {"ledger": str(path), "sound": not found,
            "problems": [{"table": p.table, "hand": p.hand, "column": p.column, "problem": p.what} for p in found]}
    if not found:
        lines = [f"{path}: sound ({len(tables)} table{'s' if len(tables) != 1 else ''} checked)"]
    else:
        lines = [f"{path}: {len(found)} problem{'s' if len(found) != 1 else ''}; nothing was repaired",
                 *(f"  {p.text()}" for p in found)]
    emit(said_doc(*lines, data=data), as_json)
    if found:
        raise SystemExit(1)


@table.command("backup")
@click.argument("target", type=click.Path(dir_okay=False))
@db_option
@ledger_errors
def table_backup(target: str, db_path: Optional[str]) -> None:
    """Copy the whole ledger (every table) to TARGET, whole and consistent even while phones record hands.

    \b
    Example:
      mjcalc table backup ~/mahjong-2026-12-01.sqlite3
    """
    with _open(db_path, readonly=True) as ledger:
        ledger.copy_to(target)
    emit(said_doc(f"copied {ledger.path} to {target}"))


@table.command("play")
@name_argument
@db_option
@ledger_errors
def table_play(name: Optional[str], db_path: Optional[str]) -> None:
    """The evening at a prompt: one short line records a hand. Type `help` there.

    \b
    At the prompt (WINNER, then FROM or 自摸, then what was won):
      小李 老王 3                    on 老王's discard, 3 番 (or 台, 分)
      小李 自摸 对对和               self-drawn, the patterns named
      老王 阿张 123m456p789s234s5m +5m   from the tiles
      draw | undo | show | settle | score HAND | quit (or Ctrl-D)

    \b
    Example:
      mjcalc table play friday
    """
    from .play import TablePrompt  # imported when used (readline, cmd)

    with _at_table(db_path, name) as (ledger, t):  # the table in use stays the one `table use` chose
        TablePrompt(ledger, t, table).run()
