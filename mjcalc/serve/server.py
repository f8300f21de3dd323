"""`mjcalc serve`: the calculator and the table ledger as one page and a JSON API, from the standard library.

    GET  /                              the page (page.html, package data)
    GET  /api/rulesets                  the rulesets, the situation options each one reads and its patterns
    POST /api/analyze                   {"hand", "ruleset"?, situation fields…, "seen"?, "lang"?} → analyze --json
    POST /api/waits                     {"hand", "ruleset"?, "wild"?, "indicator"?, "seen"?}     → waits --json
    POST /api/compare                   {"hand", "rulesets"?: [...], situation fields…}          → compare --json
    POST /api/advise                    like analyze, "by"?: "win"|"value", "draws"?, "exact"?, "alone"? → advise --json [--by]
    GET  /api/tables                    {"tables": [...]}
    POST /api/tables                    {"name", "ruleset"?, "players": {"E": …}, "base"?}        → table show --json
    GET  /api/tables/NAME               table show --json
    POST /api/tables/NAME/hand          {"hand" | "total" | "patterns", "winner", "from"?, …}     → table hand --json
    POST /api/tables/NAME/draw          {}                                                        → table draw --json
    POST /api/tables/NAME/undo          {"hand_id"} or {"number", "revision"}; "dry_run"?         → the removed hand
    POST /api/tables/NAME/edit          {"hand_id", "revision"?, "dry_run"?, what …/hand takes}   → table edit --json
    POST /api/tables/NAME/seat          {"players"?: {"E": …}, "from_start"?, "dealer"?}          → table seat
Every write takes "request_id" (1-64 printable ASCII): the same id again answers as the first time, with
"replayed": true, and records nothing; with another body it is a 409. A write that names a revision or a
hand the table has moved past is a 409 too, and writes nothing: its "since" says what was written meanwhile, and
an edit's "hand_now" the hand it named as it is now (or null: removed).
    GET  /api/tables/NAME/standings     standings, the settlement (fewest transfers) and the next hand
    GET  /api/join                      {"url", "svg", "lan"}: the page's URL with the token, and its QR code
    GET  /manifest.webmanifest, /icon-192.png, /icon-512.png, /icon.svg: the web manifest and icons (no token)

Every error is `{"error": "…", "code", "field", "params"}` with a 4xx status (503 for a busy or unreadable ledger
file), never a traceback: "error" in the CLI's words (in Chinese where the request says `"lang": "zh"` and the
message has a Chinese text), "code" its id in `mjcalc.messages`, "field" the field it is about (or null), and
"params" its parameters as data (a nested message is `{"code", "params"}`).
Safety: a request's line and headers must come whole within `HEADER_SECONDS` of its first byte (a 408 else),
name each of `ONCE_HEADERS` (Host, Origin, the token, the body's length and type) at most once and a path, not a
whole URL (a 400 else); an address holds at most `MAX_CONNECTIONS` connections at once (one more is answered 503
and closed, with no thread started for it); bodies are capped at `MAX_BODY` bytes, must be `application/json`,
must come whole within `BODY_SECONDS` (a 408 else) and hold no lone surrogate nor a key given twice in an
object (a 400); no request names a file (the ledger is fixed at start, rulesets are read once, at start, and
chosen among those); on loopback the Host header must be a loopback name or the server's own address (against
DNS rebinding); a write that names an Origin must come from the server's own page (http:// and the Host header);
on any other address every request to /api/ needs the start-up token (the page itself, its manifest and icons
hold no data and need none). The connections per address, the headers and the target are checked before the
token, and cost no read of the ledger.
Reads (GET) open the ledger read-only: they never create, migrate or lock it. A ledger that cannot be written at
start (a read-only file system) is served read-only: reads as ever, every write a 503 (`ledger.read_only`).
A 404 names no path and no other table.
Every call into the mjcalc library is in the ADAPTER section below, and nowhere else in this module.
"""
import base64
import hashlib
import hmac
import io
import ipaddress
import json
import re
import secrets
import socket
import socketserver
import sys
import threading
import time
import webbrowser
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, List, Literal, NoReturn, Optional, \
    Sequence, Set, Tuple, TypeVar, Union
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

if TYPE_CHECKING:  # typeshed's name for a buffer `readinto` fills: the type checker's only
    from _typeshed import WriteableBuffer

API_VERSION = 2  # raised when an endpoint or a field changes meaning; GET /api/rulesets says it, the page checks it
MAX_BODY = 64 * 1024
MAX_IMPORT = 8 * 1024 * 1024  # an exported evening (POST /api/import): hundreds of hands with their log
PAGE_FILE = Path(__file__).resolve().parent / "page.html"  # package data beside this module
TOKEN_HEADER = "X-Mjcalc-Token"
BODY_SECONDS = 5.0  # the whole body must come within this (apart from the idle timeout), plus BODY_RATE's time
BODY_RATE = 256 * 1024  # bytes a second the slowest phone is given on a big body (an 8 MiB import: 37 s)
HEADER_SECONDS = 5.0  # a request's line and headers must come whole within this, from its first byte (else a 408)
MAX_CONNECTIONS = 16  # open connections from one address at once (a browser opens at most 6 to a host); one more
# is answered 503 at once, without reading it or starting a thread for it, and closed: 300 sockets are not 300 threads
BACKLOG = 64  # connections the kernel queues until they are accepted (at 5, every 7th connect of a burst waited 1 s)
ONCE_HEADERS = ("Host", "Origin", TOKEN_HEADER, "Content-Length", "Content-Type", "Transfer-Encoding")  # once each
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
SEATS = ("E", "S", "W", "N")
# (6 s: the heaviest narrower plays, shangrao 2 from ready with three wildcards, take 5-8 s; at 3 s they got no figure)

Data = Dict[str, Any]  # a JSON object: a request's fields, an answer (the evening's `kinds.Data`)
FieldType = Union[type, Tuple[type, ...]]  # the JSON type(s) a request's field may take: `str`, `(int, str)`
Headers = Iterable[Tuple[str, str]]  # an answer's extra headers: (name, value)
Address = Tuple[Any, ...]  # a client's address: (host, port), or IPv6's (host, port, flowinfo, scope id)
Connection = Union[socket.socket, Tuple[bytes, socket.socket]]  # what socketserver calls a request
T = TypeVar("T")


# ============================================================================================================
# ADAPTER: every call into the mjcalc library is in this section, and nowhere else in this module. Each do_*
# function takes the request's fields (a dict from JSON) and returns the dict that the CLI prints with --json for
# the same request, or raises ApiError; the library's errors are worded as the CLI words them (`flags.flagged`).
# ============================================================================================================

from .. import front  # noqa: E402  (the library as the front ends see it: nothing else of it is imported here)
from ..front import (  # noqa: E402
    GENERIC,
    LANGS,
    BatchWaits,
    Ledger,
    LedgerError,
    LedgerFileError,
    Message,
    MjcalcError,
    NAMES,
    NUM_KINDS,
    Ruleset,
    Session,
    __version__,
    added_by_situation,
    advice_json,
    advise,
    all_options,
    analysis_json,
    analyze,
    builtin_rulesets,
    compare,
    compare_doc,
    did_you_mean,
    escaped,
    export_json,
    find_region,
    flagged,
    import_table,
    json_text,
    load_ruleset,
    most_count,
    next_json,
    parse_hand,
    parse_seen,
    printable,
    read_situation,
    reads_first_turn,
    seat_word,
    settle,
    shown,
    standings_json,
    transfers_json,
    waits_doc,
)
from . import join  # noqa: E402  (serve's own, not the library: the QR code, the manifest and the icons)

if TYPE_CHECKING:  # the library's types this module names only in annotations
    from ..front import Option, Pattern, Region, Request, Situation, Table, Written

TableView = Callable[[Ledger, "Table"], Tuple[Data, str]]  # a table's view and its ETag (`table_show`, …)


class ApiError(Exception):
    """An error answer: an HTTP status, and what it says as `{"error", "code", "field", "params"}`. A library
    error is said as the CLI says it (a situation field named by its flag, unless not `flag`); the server's own
    are made by `refusal` and `bad`."""

    def __init__(self, status: int, error: MjcalcError, flag: bool = True, headers: Headers = (),
                 extra: Optional[Data] = None) -> None:
        super().__init__(str(error))
        self.status, self.error, self.flag, self.headers = status, error, flag, tuple(headers)
        self.extra = dict(extra or {})  # fields of the answer beside the message's (an edit's hand as it is now)

    def text(self, lang: str = "en") -> str:
        # the server's own refusal names the request's field as it is written ("by: …"); in Chinese by its word
        own_name = self.error.field is not None and self.error.label == self.error.field
        return flagged(self.error, lang, page=True) if self.flag or lang == "zh" and own_name else self.error.text(lang)

    def answer(self, lang: str = "en") -> Data:
        """The answer's body: the text in `lang` (English where the message has no text in it), and the message's
        id, field and parameters as data (a duplicate names the hand it repeats at the top too)."""
        doc = {"error": self.text(lang), **self.error.json(), **self.extra}
        if self.error.code == "record.duplicate":
            doc["duplicate_of"] = self.error.message.params["duplicate_of"]
        if self.error.code == "ledger.stale_revision":  # what changed since, each in a line of its own
            doc["since"] = [m.text(lang) for m in self.error.message.params["what"]]
        return doc


def refusal(status: int, code: str, field: Optional[str] = None, headers: Headers = (), **params: Any) -> ApiError:
    """One of the server's own errors: the message `code` (an `api.*` id of `mjcalc.messages`) with its
    parameters, about the request's `field` (named before it: `base: expected …`) or none. A field named by a
    request's own key is said as written, its line breaks and control characters escaped, as a value is."""
    field = escaped(field) if isinstance(field, str) else field
    return ApiError(status, MjcalcError(code, field=field, **params), flag=False, headers=headers)


def bad(code: str, field: Optional[str] = None, **params: Any) -> ApiError:
    return refusal(400, code, field, **params)


# The JSON types each kind of situation option takes in a request (the value is then read by the Option itself,
# as the CLI's text is).
_JSON_TYPES: Dict[str, FieldType] = {
    "int": int, "flag": bool, "seat": str, "seats": (str, list), "seat_int": (str, list, dict),
    "seat_choice": (str, list), "text": (str, int), "tile": str, "tiles": (str, list)}


def situation_options() -> Dict[str, "Option"]:
    """Every situation option by name: the generic ones and every region's (one registered after start too)."""
    return {**GENERIC, **all_options()}


def situation_fields() -> Dict[str, FieldType]:
    """The situation fields a request may give, named as in a `--situation` file, with their JSON types."""
    return {name: _JSON_TYPES.get(o.kind, (str, int, bool, list, dict)) for name, o in situation_options().items()}


# the ledger's file errors at start that mean "it cannot be written here", after which a read-only open is tried
UNWRITABLE = ("ledger.file_readonly", "ledger.file_cannot_open", "ledger.file_no_backup")


class Library:
    """The rulesets loaded at start (a request picks one by id or alias, never by path) and the ledger path. A
    ruleset file is read here, once: every request and every table opened later plays that reading. A ledger
    that cannot be written at start (a read-only file system) is served read-only: `read_only` says why."""

    def __init__(self, db_path: Optional[Union[str, Path]] = None, ruleset: Optional[str] = None) -> None:
        self.builtin = builtin_rulesets()  # compare's default, as the CLI's
        choices = {r.id: (r, r.id) for r in self.builtin}  # id → (Ruleset, how a table names it: id or the file)
        self.default = self.builtin[0].id
        if ruleset:
            rules = load_ruleset(ruleset)  # the operator's choice at start: a built-in name or a YAML file
            is_file = ruleset.endswith((".yaml", ".yml")) or "/" in ruleset or "\\" in ruleset
            choices[rules.id] = (rules, str(Path(ruleset).resolve()) if is_file else rules.id)
            self.default = rules.id
        self.choices = choices
        self.by_name = dict(choices)
        for rules, load in choices.values():
            for alias in rules.aliases:
                self.by_name.setdefault(alias, (rules, load))
        self.read_only: Optional[LedgerFileError] = None  # why the ledger cannot be written, when it cannot
        try:
            with Ledger(db_path) as ledger:  # opens (creates or migrates) it now: a bad file stops the start
                self.db_path: Path = ledger.path
                ledger.check_writable()
        except LedgerFileError as exc:
            if exc.code not in UNWRITABLE:
                raise
            # a read-only file system (or a file or directory this user cannot write): if the ledger reads, as
            # every CLI read does there, serve it read-only; every write is then a 503 (`writing`)
            with Ledger(db_path, readonly=True) as ledger:
                self.db_path = ledger.path
            self.read_only = exc

    def writing(self) -> Ledger:
        """The ledger opened for a write; refused (a 503) when it could not be written at start."""
        if self.read_only is not None:
            raise LedgerFileError("ledger.read_only")
        return Ledger(self.db_path)

    def rules(self, name: object) -> Tuple[Ruleset, str]:
        """The ruleset a request names (`name`: its id or an alias; None for the default), and how a table names it."""
        name = self.default if name is None else name
        if not isinstance(name, str) or name not in self.by_name:
            raise bad("api.unknown_ruleset", name=repr(name), known=sorted(self.choices))
        return self.by_name[name]

    def all_rulesets(self) -> List[Ruleset]:
        return [rules for rules, _ in self.choices.values()]


def situation_from(fields: Data, table: Optional["Table"] = None) -> "Situation":
    """A `mjcalc.Situation` from request fields, read by `situation.read_situation` as `cli_common.build_situation`
    reads the command line's options (tests/test_serve.py checks that both give the same Situation). With
    `table`, a seat may be given as a player's name, as `mjcalc table hand` takes it."""
    options = situation_options()
    given = {k: v for k, v in fields.items() if k in options and v is not None}
    if given.get("self_drawn") and "from" in given:
        raise bad("cli.self_drawn_and_from")  # build_situation's words
    if table is not None:
        given = {k: front.player_seats(table, options[k], v) for k, v in given.items()}
    return read_situation(given, all_options())


def _seen(text: Optional[str]) -> Optional[Tuple[int, ...]]:
    return parse_seen(text) if text else None


def _plain(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, (str, int, bool)) else str(value)


def _option_doc(option: "Option") -> Data:
    """A situation option as data, for the page to build its control: kind, range, choices, words."""
    return {"name": option.name, "kind": option.kind, "help": option.help, "zh": option.zh,
            "default": _plain(option.default), "minimum": option.minimum, "maximum": option.maximum,
            "choices": list(option.choices), "labels": list(option.labels or option.choices),
            "repeatable": option.repeatable, **({"from_deal": True} if option.from_deal else {})}


def do_rulesets(lib: Library) -> Data:
    """The rulesets a request may name, each with the Option specs of the region options it reads (`ruleset.options`
    in its region's terms), and the generic options every ruleset reads. No CLI --json counterpart."""
    out = []
    for r in lib.all_rulesets():
        region = find_region(r.region)
        specs = [region.option(name) for name in r.options]
        out.append({
            "id": r.id, "name": {"zh": r.zh, "en": r.en}, "aliases": list(r.aliases), "description": r.description,
            "region": r.region, "unit": {"zh": r.unit_zh, "en": r.unit_en},
            "wildcard": {"zh": r.wild_zh, "en": r.wild_en, "kinds": r.wild_kinds,
                         "tiles": [NAMES[k] for k in r.fixed_wild], "faceless": region.wild_faceless(r)},
            "wall": [NAMES[k] for k in range(NUM_KINDS) if r.wall.has(k)], "flowers": r.wall.flowers,
            "shapes": list(r.shapes), "discard": r.discard, "first_turn": reads_first_turn(r, region),
            "rounds": Session.of(r).rounds,
            "options": [_option_doc(o) for o in specs if o is not None],
            "patterns": [_pattern_doc(p, region) for p in r.patterns],
        })
    return {"api_version": API_VERSION, "version": __version__, "default": lib.default, "rulesets": out, "generic": [_option_doc(o) for o in GENERIC.values()]}


def _pattern_doc(p: "Pattern", region: "Region") -> Data:
    """A pattern as the page's quick entry names it: `added` when the situation adds it by itself where it holds
    (庄: the library adds it to named patterns, so the page need not offer it)."""
    detector = region.detectors.get(p.id)
    return {"id": p.id, "zh": p.zh, "en": p.en, "value": p.value, "added": added_by_situation(detector),
            "every_win": bool(getattr(detector, "every_win", False)), "excludes": list(p.excludes),
            "most": most_count(detector), "without_wild": p.param("without_wild")}


def do_analyze(lib: Library, p: Data) -> Data:
    """analysis.analyze(parse_hand(hand), rules, situation, seen) → render.analysis_json, as `analyze --json`."""
    rules, _ = lib.rules(p.get("ruleset"))  # in the CLI's order, so that the first mistake is the one told
    result = analyze(parse_hand(p["hand"]), rules, situation_from(p), _seen(p.get("seen")))
    lang = p.get("lang", "zh")  # the names and the refusal's words alike: the page says one language
    return analysis_json(result, lang, said_in=lang)


def do_waits(lib: Library, p: Data) -> Data:
    """batch.BatchWaits(rules, situation).answer(hand, seen) → render.waits_doc, as `waits --json`."""
    rules, _ = lib.rules(p.get("ruleset"))
    finder = BatchWaits(rules, situation_from({k: p[k] for k in ("wild", "indicator") if k in p}))
    parsed, found, every = finder.answer(p["hand"], _seen(p["seen"]) if p.get("seen") else None)
    ghosts = finder.wild_draw(parsed)
    answer: Data = waits_doc(parsed, found, every=every,
                             wild_draw=None if ghosts is None else (ghosts, rules.wild_zh)).data  # what --json prints
    return answer


def do_compare(lib: Library, p: Data) -> List[Data]:
    """analysis.compare under each ruleset (default: the built-in ones) → render.compare_doc, as `compare --json`."""
    names = p.get("rulesets")
    rules = [lib.rules(n)[0] for n in names] if names else list(lib.builtin)
    situation = situation_from(p)
    parsed = parse_hand(p["hand"])
    # the document in one language (as `compare --lang`): names, refusals and a ruleset's error, its field named
    # by its word, never a flag
    lang = p.get("lang", "zh")
    results = [(r, a, flagged(e, lang, page=True) if e else None) for r, a, e in compare(parsed, rules, situation, _seen(p.get("seen")))]
    columns: List[Data] = compare_doc(p["hand"], results, lang, said_in=lang).data  # one a ruleset
    return columns


def do_advise(lib: Library, p: Data) -> Data:
    """advice.advise(parse_hand(hand), rules, situation, seen) → render.advice_json, as `advise --json`; with "by"
    (and "draws", "exact"), value.advise_value within its work cap (`exact` too: a server bounds every answer) →
    render.value_into, as `advise --json --by`, with the fields of the time cap it had before (`TIME_CAP_FIELDS`:
    none, never reached) for the clients that read them."""
    from ..front import DEFAULT_DRAWS, OBJECTIVES, TABLE, Doc, advise_value, value_into  # imported when used (start-up time)

    by, draws, exact, alone = p.get("by"), p.get("draws"), p.get("exact", False), p.get("alone", False)
    if by is not None and by not in OBJECTIVES:  # the CLI's choice and range, checked first as click checks them
        raise bad("api.by", field="by", value=json.dumps(by)[:40])
    if draws is not None and not 0 <= draws <= 60:
        raise bad("api.draws", field="draws", least=0, most=60, value=draws)
    rules, _ = lib.rules(p.get("ruleset"))  # in the CLI's order (the situation, then the hand)
    situation = situation_from(p)
    parsed, seen = parse_hand(p["hand"]), _seen(p.get("seen"))
    if (by or draws is not None) and parsed.size != 14:  # the field named in the data, not before the words
        raise ApiError(400, MjcalcError("api.by_needs_14_tiles", field="by" if by else "draws", label="",
                                        size=parsed.size), flag=False)
    if (draws is not None or exact or alone) and not by:
        raise bad("api.needs_by", field="draws" if draws is not None else "exact" if exact else "alone")
    lang = p.get("lang", "zh")  # the names and the refusal's words alike: the page says one language
    advice = advise(parsed, rules, situation, seen)
    if not by:
        return advice_json(advice, lang, said_in=lang)
    doc = Doc(advice_json(advice, lang, said_in=lang))
    valued = advise_value(parsed, rules, situation, seen, DEFAULT_DRAWS if draws is None else draws, by, exact=exact,
                          rivals=None if alone else TABLE)
    value_into(doc, advice, valued, lang)
    answer: Data = doc.data
    answer.update(TIME_CAP_FIELDS)
    return answer


# the fields of the time cap POST /api/advise with "by" had (issue 37: bounded by work instead, `value.CAP`), kept
# for the clients that read them: no time cap, never reached, every discard valued
TIME_CAP_FIELDS: Data = {"time_cap": None, "time_capped": False, "timed_out": False, "unvalued": [], "time_note": None}


def _open_table(ledger: Ledger, name: str) -> "Table":
    """The table `name`; a 404 that names it alone (the CLI's words name the ledger's file and its other tables:
    nothing a phone should be told)."""
    try:
        return ledger.table(name)
    except LedgerFileError:
        raise
    except LedgerError as exc:
        if exc.code == "ledger.no_table":
            raise refusal(404, "api.no_table", table=repr(name)) from None
        raise ApiError(404, exc, flag=False) from None


def _reading(lib: Library) -> Ledger:
    """The ledger opened for reading only: a GET never creates, migrates or locks it, nor waits for a writer."""
    return Ledger(lib.db_path, readonly=True)


def do_tables(lib: Library) -> Data:
    """Ledger.tables() (no CLI --json counterpart: `table list` prints a table)."""
    with _reading(lib) as ledger:
        rows = ledger.tables()
    return {"tables": [{"table": t.name, "ruleset": t.ruleset_id, "base": t.base, "players": dict(zip(SEATS, t.players)),
                        "hands": hands, "last": last} for t, hands, last in rows]}


def _request(p: Data, endpoint: str, name: Optional[str]) -> Optional["Request"]:
    """The write's request id (taken out of the body) with the digest of the rest of it (its language aside: a
    retry asking for its answer in another language is the same request)."""
    request_id = p.pop("request_id", None)
    asked = {k: v for k, v in p.items() if k != "lang"}
    return front.request_for(request_id, {"endpoint": endpoint, "table": name, "body": asked})


def _answer(written: "Written") -> Data:
    """A write's answer: for a retried request the answer the first one got, else the write's own."""
    if written.replayed:
        assert written.answer is not None  # a replayed write carries its answer (`front.request_answer`)
        return written.answer
    return front.written_json(written)


def do_table_new(lib: Library, p: Data) -> Data:
    """evening.create_table(ledger, name, ruleset, players, base); answers as `table show --json`."""
    request = _request(p, "table_new", None)
    rules, load_name = lib.rules(p.get("ruleset"))
    players = p.get("players")
    if not isinstance(players, dict) or any(not isinstance(k, str) or not isinstance(v, str) for k, v in players.items()):
        raise bad("api.players_object", field="players", shape='{"E": name, "S": name, "W": name, "N": name}')
    players = {k.strip().upper(): v for k, v in players.items()}
    unknown = [k for k in players if k not in SEATS]
    if unknown:
        raise bad("api.players_seat", field="players", seat=repr(unknown[0]))
    with lib.writing() as ledger:
        replayed = front.request_answer(ledger, request) is not None
        if not replayed:
            t = front.create_table(ledger, p["name"], load_name, players, p.get("base", 1), request, rules=rules)
    if replayed:  # made already: the table as it stands (a table's opening keeps no answer of its own)
        return dict(do_table_show(lib, p["name"]), replayed=True)
    return do_table_show(lib, t.name)


def do_table_show(lib: Library, name: str) -> Data:
    """table_json.show_json of the table's rules, hands and standings, as `table show --json`."""
    with _reading(lib) as ledger:
        return table_show(ledger, _open_table(ledger, name))[0]


def table_show(ledger: Ledger, table: "Table") -> Tuple[Data, str]:
    """`do_table_show`'s answer and its ETag, read at one moment."""
    view = front.read_view(ledger, table.name)
    return view.json(), table_tag(view.table)


def table_view(lib: Library, view: TableView, name: str, offered: FrozenSet[str] = frozenset()
               ) -> Tuple[Optional[Data], str]:
    """A table's view (`table_show` or `table_standings`) and its ETag, through one read-only connection in one
    read; (None, the ETag) when If-None-Match offered it (`offered`: the tags without W/, or "*")."""
    with _reading(lib) as ledger, ledger.reading():
        t = _open_table(ledger, name)
        tag = table_tag(t)
        if "*" in offered or tag.removeprefix("W/") in offered:
            return None, tag
        return view(ledger, t)


def table_tag(table: "Table") -> str:
    """The weak ETag of what GET /api/tables/NAME and …/standings answer: the table's revision (every write, from
    the page or the command line, raises it) and the table itself (one deleted and made again under its name
    starts at revision 1 again)."""
    which = hashlib.sha256(f"{table.name}\0{table.created}".encode("utf-8")).hexdigest()[:12]
    return f'W/"{API_VERSION}.{which}.{table.revision}"'


def do_table_hand(lib: Library, name: str, p: Data) -> Data:
    """evening.record_given(ledger, table, the hand given) as `table hand --json`; the winner and every seat
    may be a player's name (the table keeps the dealer and the base: those fields are refused)."""
    dry_run, revision = p.pop("dry_run", False), p.pop("revision", None)
    client, confirmed = p.pop("client_id", None), p.pop("confirm_duplicate", False)
    large = p.pop("confirm_total", False)
    request = None if dry_run else _request(p, "table_hand", name)
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        quick: Data = {k: p.pop(k) for k in ("total", "patterns") if k in p}
        if ("hand" in p) == bool(quick):
            raise bad("api.hand_or_agreed")
        given = _hand_given(ledger, t, p, quick)
        written = front.record_given(ledger, t, given, dry_run=dry_run, request=request, revision=revision,
                                       client=client, refuse_duplicate=not confirmed, confirm_total=large)
    if dry_run:  # the preview: what would be recorded, and the revision to confirm it at (as `table hand --dry-run`)
        return front.preview_json(written, p.get("lang", "en"))
    return dict(_answer(written), recorded=True)


TOLD = ("open", "kongs", "wild_roles")  # what a request tells of a hand given without its tiles (`told.told_facts`)


def _hand_given(ledger: Ledger, t: "Table", p: Data, quick: Data, rules: Optional[Ruleset] = None) -> Data:
    """The hand a request gives (`evening.hand_input`): its tiles, or the agreed total or patterns with what it
    tells of the hand (open, the winner's kongs, wild_roles)."""
    facts = {k: p.pop(k) for k in TOLD if k in p}
    situation = situation_from(dict(p, seat=p["winner"]), table=t)
    if not quick:
        if facts:
            raise bad("api.told_with_tiles", field=sorted(facts)[0])
        return front.hand_input(p["hand"], situation)
    return front.agreed_input(rules or front.table_rules(t, ledger), situation, quick.get("total"),
                                quick.get("patterns"), facts, seat_of=t.seat)


def do_table_draw(lib: Library, name: str, p: Data) -> Data:
    """evening.record_given(ledger, table, a drawn hand) as `table draw --json`."""
    client, confirmed = p.pop("client_id", None), p.pop("confirm_duplicate", False)
    request = _request(p, "table_draw", name)
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        written = front.record_given(ledger, t, front.hand_input(facts=_draw_told(t, p)), request=request,
                                       client=client, refuse_duplicate=not confirmed)
    return _answer(written)


def _draw_told(t: "Table", p: Data) -> Dict[str, List[str]]:
    """What a draw was told ("told": {"ready": ["E", "小李"]}), its seats read by letter or by player; `{}` for
    none. Which facts a draw takes is the rules' (`evening.record_given` refuses another)."""
    told = p.pop("told", None) or {}
    for value in told.values():
        if not isinstance(value, (list, str)) or isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise bad("api.wrong_type", field="told", types=_types_word((list,)), value=json.dumps(value)[:40])
    return front.told_seats(t, told)


def do_table_dealer(lib: Library, name: str, p: Data) -> Data:
    """evening.correct_dealer: who deals the next hand (`table seat --dealer`)."""
    request = _request(p, "table_dealer", name)
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        if p.get("revision") is not None and p["revision"] != t.revision:
            raise ApiError(409, LedgerError("ledger.stale_revision", table=repr(t.name),
                                            what=front.changes_since(ledger, t, p["revision"])))
        return _answer(front.correct_dealer(ledger, t, t.seat(p["dealer"]), request))


def do_table_rules(lib: Library, name: str, p: Data) -> Data:
    """evening.adopt_rules: the table plays one of the rulesets loaded at start from its next hand on (`table
    rules RULESET --yes`); the same rules again write nothing."""
    request = _request(p, "table_rules", name)
    rules, load_name = lib.rules(p["ruleset"])
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        if front.rules_json(front.table_rules(t, ledger)) != front.rules_json(rules):
            front.adopt_rules(ledger, t, load_name, rules, request, revision=p.get("revision"))
    return do_table_show(lib, name)


def do_table_penalty(lib: Library, name: str, p: Data) -> Data:
    """evening.record_penalty (`table penalty PENALTY --player P [--to Q] [--reason …] --json`)."""
    request = _request(p, "table_penalty", name)
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        written = front.record_penalty(ledger, t, p["penalty"], p["player"], p.get("to"), p.get("reason", ""),
                                         request, p.get("revision"))
    return _answer(written)


def do_table_revert(lib: Library, name: str, p: Data) -> Data:
    """evening.revert_event: take back the edit, undo or penalty at `revision` (`table revert REVISION --json`);
    with `shown_revision` (the table's revision the phone showed), refused if the table moved on since. With
    `dry_run`, what it would change (the later hands, before and after: a draw that refunded kong money taken
    back), written nowhere."""
    request = _request(p, "table_revert", name)
    if p.get("dry_run"):  # a read
        with _reading(lib) as ledger:
            return _answer(front.revert_event(ledger, _open_table(ledger, name), p["revision"], None,
                                              p.get("shown_revision"), dry_run=True))
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        written = front.revert_event(ledger, t, p["revision"], request, p.get("shown_revision"))
    return _answer(written)


def do_table_close(lib: Library, name: str, p: Data) -> Data:
    """evening.close_table: closed against writes, or reopened (`table close [--reopen]`); answers the table."""
    request = _request(p, "table_close", name)
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        front.close_table(ledger, t, closed=p["closed"], request=request)
    return do_table_show(lib, name)


def do_table_undo(lib: Library, name: str, p: Data) -> Data:
    """evening.undo_hand: the hand `hand_id` (what the phone showed), or hand `number` if the table is still at
    `revision` (what the phone read); anything less could remove a hand nobody saw (`table undo`). With
    `dry_run`, what it would change (the later hands, before and after), written nowhere."""
    request = _request(p, "table_undo", name)
    if "hand_id" in p:
        shown, revision = p["hand_id"], p.get("revision")
    elif "number" in p and "revision" in p:
        shown, revision = p["number"], p["revision"]
    else:
        raise bad("api.undo_names_hand")
    if p.get("dry_run"):  # what it would do (the later hands it changes): a read
        with _reading(lib) as ledger:
            return _answer(front.undo_hand(ledger, _open_table(ledger, name), shown, None, revision, dry_run=True))
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        written = front.undo_hand(ledger, t, shown, request, revision)
    return _answer(written)


def do_table_edit(lib: Library, name: str, p: Data) -> Data:
    """evening.edit_hand: replace the hand `hand_id` (what the phone showed) by the hand given (as for
    …/hand), its later hands replayed (`table edit --yes`). With `dry_run`, what it would change (the later
    hands, before and after) and the revision it was made at, written nowhere."""
    dry_run = p.pop("dry_run", False)
    request = None if dry_run else _request(p, "table_edit", name)
    shown, revision = p.pop("hand_id"), p.pop("revision", None)
    try:
        return _edit(lib, name, p, shown, revision, request, dry_run)
    except LedgerError as exc:  # the table moved on: the hand shown as it is now (another edit's), or none (removed)
        if exc.code not in ("ledger.stale_revision", "ledger.no_hand_id"):
            raise
        with _reading(lib) as ledger:
            now = front.hand_now(ledger, _open_table(ledger, name), shown)
        raise ApiError(409, exc, extra={"hand_now": None if now is None else {"hand_id": now.hand_id,
                                                                                 "number": now.number}}) from None


def _edit(lib: Library, name: str, p: Data, shown: str, revision: Optional[int], request: Optional["Request"],
          dry_run: bool) -> Data:
    with _reading(lib) if dry_run else lib.writing() as ledger:
        t = _open_table(ledger, name)
        if p.pop("draw", False):  # it was a drawn hand
            written = front.edit_hand(ledger, t, shown, front.hand_input(facts=_draw_told(t, p)), request=request,
                                        revision=revision, dry_run=dry_run)
            return _edit_answer(written, dry_run)
        if "winner" not in p:
            raise bad("api.missing_field", name="'winner'")
        quick: Data = {k: p.pop(k) for k in ("total", "patterns") if k in p}
        if ("hand" in p) == bool(quick):
            raise bad("api.hand_or_agreed")
        old = next((h for h in ledger.hands(t) if h.hand_id == shown), None)
        seated, rules = front.as_played(ledger, t, old.number) if old else (t, None)  # as that hand was played
        large = p.pop("confirm_total", False)
        written = front.edit_hand(ledger, t, shown, _hand_given(ledger, seated, p, quick, rules), request=request,
                                    revision=revision, confirm_total=large, dry_run=dry_run)
    return _edit_answer(written, dry_run)


def _edit_answer(written: "Written", dry_run: bool) -> Data:
    """An edit's answer; its dry run's (`table edit --dry-run`) names the revision it was made at (to save it at)
    and says it wrote nothing."""
    return front.preview_json(written) if dry_run else _answer(written)


def do_table_seat(lib: Library, name: str, p: Data) -> Data:
    """evening.seat_players (who sits where from the next hand on) and/or evening.correct_dealer (`table seat`)."""
    request = _request(p, "table_seat", name)
    if "players" not in p and "dealer" not in p:
        raise bad("api.seat_takes")
    with lib.writing() as ledger:
        t = _open_table(ledger, name)
        written: Optional["Written"] = None
        if "players" in p:  # the seats that change, as `table seat 南=阿张` (a name seated elsewhere swaps)
            changes = {}
            for key, value in p["players"].items():
                seat = seat_word(str(key))
                if seat is None or not isinstance(value, str):
                    raise bad("api.players_seat", field="players", seat=repr(key))
                changes[seat] = value.strip()
            from_start = bool(p.get("from_start"))
            base = front.opening_players(ledger, t) if from_start else t.players
            players = front.seating_with(base, changes)
            together = None  # the dealer with the seats: one write, whole or not at all
            if "dealer" in p and not from_start:
                seated = (players["E"], players["S"], players["W"], players["N"])
                together = replace(t, players=seated).seat(p["dealer"])
            written = front.seat_players(ledger, t, players, from_start, request, p.get("revision"),
                                           dealer=together)
            t = written.table
            if together is not None:
                return _answer(written)
        if "dealer" in p and not (written and written.replayed):
            written = front.correct_dealer(ledger, t, t.seat(p["dealer"]), None if written else request)
    assert written is not None  # "players" or "dealer" wrote (refused above without either)
    return _answer(written)


def do_table_export(lib: Library, name: str) -> Data:
    """exchange.export_json: the whole table as one document (`table export --json`)."""
    with _reading(lib) as ledger:
        _open_table(ledger, name)
        return export_json(ledger, name)


def do_table_stats(lib: Library, name: Optional[str]) -> Data:
    """evening.read_stats: each person's figures at the table (`table stats NAME --json`), or across the ledger
    (None: `table stats --all --json`)."""
    with _reading(lib) as ledger:
        if name is not None:
            _open_table(ledger, name)
        rows, _, left_out = front.read_stats(ledger, name)
    return front.stats_json(rows, name, left_out)


def do_import(lib: Library, p: Data) -> Data:
    """exchange.import_table: a table exported from this ledger or another, as `"as"` or its own name (`table
    import FILE [--as NAME]`); answers the table as GET /api/tables/NAME."""
    with lib.writing() as ledger:
        t = import_table(ledger, p["document"], p.get("as"))
    return do_table_show(lib, t.name)


def do_standings(lib: Library, name: str) -> Data:
    """Ledger.standings and `settle.settle` of them: `table settle --json` (transfers between players, by
    person), and the next hand."""
    with _reading(lib) as ledger, ledger.reading():
        return table_standings(ledger, _open_table(ledger, name))[0]


def table_standings(ledger: Ledger, t: "Table") -> Tuple[Data, str]:
    """`do_standings`'s answer and its ETag, read at one moment (inside the caller's read)."""
    with ledger.reading():
        standings = ledger.standings(t)
        count, state = ledger.state(t)
    transfers = settle({s.player: s.score for s in standings})
    seat = {s.player: s.seat for s in standings}
    return {"table": t.name, "revision": t.revision, "standings": standings_json(standings),
            "transfers": transfers_json(transfers),
            "settlement": [{"from": seat[a], "from_player": a, "to": seat[b], "to_player": b, "amount": n}
                           for a, b, n in transfers],
            "next": next_json(t, count, state)}, table_tag(t)


CONFLICTS = ("ledger.request_reused", "ledger.stale_revision", "ledger.hand_replaced", "ledger.no_hand_id",
             "record.kept_changing", "record.duplicate", "ledger.table_closed", "record.total_unusual",
             "record.total_above_cap")
READS = {"export": do_table_export, "stats": do_table_stats}
WRITES = {"hand": do_table_hand, "draw": do_table_draw, "undo": do_table_undo, "edit": do_table_edit,
          "seat": do_table_seat, "dealer": do_table_dealer, "rules": do_table_rules, "penalty": do_table_penalty,
          "revert": do_table_revert, "close": do_table_close}


RouteKind = Literal["body", "read", "view", "join"]  # how a route's request is read: `Handler.answer_<kind>`


@dataclass(frozen=True)
class Route:
    """One API path and what answers it: `path` the segments after /api/ (NAME: a table's name, any non-empty
    segment), `methods` the methods it takes, `kind` how the request is read (a checked body, a read, a table's
    view with its ETag, the join card), `call` the function of this module that answers, `endpoint` the fields
    checked (`endpoint_fields`), `status` on success, `limit` the body's largest size."""

    methods: Tuple[str, ...]
    path: Tuple[str, ...]
    kind: RouteKind
    call: Optional[Callable[..., Any]] = None
    endpoint: str = ""
    status: int = 200
    limit: int = MAX_BODY

    def match(self, parts: Sequence[str]) -> Optional[List[str]]:
        """The names the path's NAME segments stand for, or None when `parts` is not this path."""
        if len(parts) != len(self.path):
            return None
        names: List[str] = []
        for want, got in zip(self.path, parts):
            if want is NAME:
                names.append(got)
            elif want != got:
                return None
        return names

    def answer(self, handler: "Handler", *names: str) -> None:
        getattr(handler, "answer_" + self.kind)(self, *names)

    @property
    def func(self) -> Callable[..., Any]:
        """`call`, which every route has but the join card's."""
        assert self.call is not None, self.path
        return self.call


NAME = "{name}"
ROUTES: Tuple[Route, ...] = (
    *(Route(("POST",), (what,), "body", call, what) for what, call in
      (("analyze", do_analyze), ("waits", do_waits), ("compare", do_compare), ("advise", do_advise))),
    Route(("GET",), ("rulesets",), "read", do_rulesets),
    Route(("GET",), ("join",), "join"),
    Route(("GET",), ("stats",), "read", lambda lib: do_table_stats(lib, None)),
    Route(("POST",), ("import",), "body", do_import, "import", status=201, limit=MAX_IMPORT),
    Route(("GET",), ("tables",), "read", do_tables),
    Route(("POST",), ("tables",), "body", do_table_new, "table_new", status=201),
    Route(("GET", "HEAD"), ("tables", NAME), "view", table_show),
    Route(("GET", "HEAD"), ("tables", NAME, "standings"), "view", table_standings),
    *(Route(("GET",), ("tables", NAME, what), "read", call) for what, call in READS.items()),
    *(Route(("POST",), ("tables", NAME, what), "body", call, "table_" + what) for what, call in WRITES.items()),
)


def library_call(func: Callable[..., T], *args: Any) -> T:
    """Run an adapter function; the library's errors become ApiErrors, one line each in the CLI's words."""
    try:
        return func(*args)
    except ApiError:
        raise
    except LedgerFileError as exc:
        raise ApiError(503, exc, flag=False) from None
    except LedgerError as exc:
        if exc.code == "ledger.no_table":  # gone between two reads: named alone, as `_open_table` names it
            raise refusal(404, "api.no_table", table=exc.message.params["table"]) from None
        if exc.code in CONFLICTS:  # the table moved on, or a request id reused: nothing was written
            raise ApiError(409, exc) from None
        raise ApiError(400, exc) from None
    except MjcalcError as exc:  # notation, hand, situation, ruleset and ledger errors
        raise ApiError(400, exc) from None
    except RecursionError:
        raise bad("api.input_too_deep") from None

# ============================================================================================================
# END OF ADAPTER
# ============================================================================================================


# --- request checking ---------------------------------------------------------------------------------------

HAND_FIELDS: Dict[str, FieldType] = {"hand": str, "ruleset": str, "seen": str, "lang": str}


def endpoint_fields(endpoint: str) -> Dict[str, FieldType]:
    """The fields a request to `endpoint` may give, with their JSON types (the situation's from the library)."""
    situation = situation_fields()
    by_endpoint: Dict[str, Dict[str, FieldType]] = {
        "analyze": dict(HAND_FIELDS, **situation),
        "advise": dict(HAND_FIELDS, by=str, draws=int, exact=bool, alone=bool, **situation),
        "compare": dict({k: v for k, v in HAND_FIELDS.items() if k != "ruleset"}, rulesets=list, **situation),
        "waits": {"hand": str, "ruleset": str, "wild": situation["wild"], "indicator": situation["indicator"], "seen": str},
        "table_new": {"name": str, "ruleset": str, "players": dict, "base": int, "request_id": str},
        "table_hand": dict({k: v for k, v in situation.items() if k not in ("seat", "dealer", "base")},
                           hand=str, winner=str, lang=str, total=(int, str), patterns=(str, list), request_id=str,
                           dry_run=bool, revision=int, client_id=str, confirm_duplicate=bool, confirm_total=bool,
                           open=int, kongs=(list, str), wild_roles=int),
        "table_draw": {"request_id": str, "client_id": str, "confirm_duplicate": bool, "told": dict},
        "table_dealer": {"dealer": str, "revision": int, "request_id": str},
        "table_rules": {"ruleset": str, "revision": int, "request_id": str},
        "table_penalty": {"penalty": str, "player": str, "to": str, "reason": str, "revision": int,
                          "request_id": str},
        "table_revert": {"revision": int, "shown_revision": int, "request_id": str, "dry_run": bool},
        "table_close": {"closed": bool, "request_id": str},
        "import": {"document": dict, "as": str},
        "table_undo": {"hand_id": str, "number": int, "revision": int, "request_id": str, "dry_run": bool},
        "table_edit": dict({k: v for k, v in situation.items() if k not in ("seat", "dealer", "base")},
                           hand_id=str, revision=int, hand=str, winner=str, lang=str, total=(int, str),
                           patterns=(str, list), draw=bool, told=dict, request_id=str, confirm_total=bool, open=int,
                           kongs=(list, str), wild_roles=int, dry_run=bool),
        "table_seat": {"players": dict, "from_start": bool, "dealer": str, "revision": int, "request_id": str},
    }
    fields = by_endpoint[endpoint]
    if endpoint.startswith("table_") or endpoint == "import":  # every write says its refusals in "lang"
        fields = dict(fields, lang=str)
    return fields


REQUIRED = {"analyze": ("hand",), "advise": ("hand",), "compare": ("hand",), "waits": ("hand",),
            "table_new": ("name", "players"), "table_hand": ("winner",), "table_edit": ("hand_id",),
            "table_dealer": ("dealer",), "table_rules": ("ruleset",), "table_penalty": ("penalty", "player"),
            "table_revert": ("revision",), "table_close": ("closed",), "import": ("document",)}
_TYPE_WORDS: Dict[type, str] = {  # what a field's JSON type is called, in each language
    str: "api.type_text", bool: "api.type_flag", int: "api.type_int", list: "api.type_list", dict: "api.type_object"}


def _types_word(types: Sequence[type]) -> Message:
    """`a whole number or text`: the JSON types a field takes, as one message."""
    words = [Message(_TYPE_WORDS[t]) for t in types]
    said = words[-1]
    for word in reversed(words[:-1]):
        said = Message("api.either", a=word, b=said)
    return said


def accepted_language(header: Optional[str]) -> str:
    """The page language an Accept-Language header prefers (RFC 9110: the highest q, the first of equals), "en"
    when it names none of them: `zh-CN,zh;q=0.9,en;q=0.8` → zh."""
    best, best_q = "en", 0.0
    for item in (header or "")[:1000].split(","):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGS and 0 < q <= 1 and q > best_q:
            best, best_q = primary, q
    return best


def check_fields(endpoint: str, body: object) -> Data:
    """The body as a dict of known fields with the right JSON types, nulls dropped; else one clear error."""
    if not isinstance(body, dict):
        raise bad("api.not_an_object")
    allowed = endpoint_fields(endpoint)
    out: Data = {}
    for key, value in body.items():
        if key not in allowed:
            raise bad("api.unknown_field", name=repr(key), hint=did_you_mean(key, allowed))
        if value is None:
            continue
        wanted = allowed[key]
        types = wanted if isinstance(wanted, tuple) else (wanted,)
        ok = any(isinstance(value, t) and not (t is int and isinstance(value, bool)) for t in types)
        if not ok:
            raise bad("api.wrong_type", field=key, types=_types_word(types),
                      value=json.dumps(value)[:40])
        out[key] = value
    for key in REQUIRED.get(endpoint, ()):
        if key not in out:
            raise bad("api.missing_field", name=repr(key))
    if out.get("lang", "zh") not in LANGS:
        raise bad("api.lang", field="lang")
    for key in ("hand", "seen", "name"):
        if key in out and len(out[key]) > 1000:
            raise bad("api.too_long", field=key, length=len(out[key]))
    return out


# --- the HTTP server ---------------------------------------------------------------------------------------


def _not_json(name: str) -> NoReturn:
    raise ValueError(Message("api.not_a_json_value", name=name).text())


def _members(pairs: List[Tuple[str, Any]]) -> Data:
    """A JSON object's members as a dict, at any depth; a key given twice is a 400 (json.loads would keep the last
    one silently: `{"total": 1, "total": 9}` recorded 9)."""
    members = dict(pairs)
    if len(members) < len(pairs):
        seen: Set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise bad("api.duplicate_key", name=shown(key))  # repr: a control character or surrogate escaped
            seen.add(key)
    return members


def _check_text(body: object) -> None:
    """Refuse a lone surrogate (`"\\ud800"`: half of a UTF-16 pair, which json.loads lets through) in any
    string of the body, a key or a value at any depth: it could be neither stored nor said back. The field it
    is under is named (none for a top-level key)."""
    def check(text: str, field: Optional[str]) -> None:
        half = None if text.isascii() else _SURROGATE.search(text)
        if half:
            raise bad("api.lone_surrogate", field=field, char=f"\\u{ord(half.group()):04x}")

    todo: List[Tuple[object, Optional[str]]] = [(body, None)]
    while todo:  # a list, not recursion: the body may be as deep as json.loads allows
        value, field = todo.pop()
        if isinstance(value, dict):
            for k in value:  # the keys first: a field named by one must be sayable
                check(k, field)
            todo += [(v, k if value is body else field) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(v, field) for v in value]
        elif isinstance(value, str):
            check(value, field)


_SURROGATE = re.compile(r"[\ud800-\udfff]")  # re reads the escapes: the source stays ASCII


def served_page(page: str) -> str:
    """The page as served: its script's whole-line comments (written for who reads page.html) left out."""
    found = re.match(r"(.*?<script>)(.*?)(</script>.*)", page, re.S)
    if found is None:
        return page
    head, script, rest = found.groups()
    return head + re.sub(r"(?m)^[ \t]*//[^\n]*\n", "", script) + rest


def _csp(page: str) -> str:
    """default-src 'self', with the page's one inline script and one inline style allowed by their hashes."""
    def digest(tag: str) -> str:
        m = re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S)
        assert m is not None, tag  # the page has one of each
        return "'sha256-" + base64.b64encode(hashlib.sha256(m.group(1).encode("utf-8")).digest()).decode() + "'"
    return (f"default-src 'self'; script-src {digest('script')}; style-src {digest('style')}; img-src 'self' data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, host: str, port: int, lib: Library, token: Optional[str] = None, quiet: bool = False,
                 public_host: Optional[str] = None) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.held: Dict[str, int] = {}  # open connections by client address (`MAX_CONNECTIONS` each)
        self.held_lock = threading.Lock()
        self.max_connections = MAX_CONNECTIONS
        super().__init__((host, port), Handler)
        self.lib = lib
        self.host = host
        self.loopback = is_loopback(host)
        self.token = token if token is not None else (None if self.loopback else secrets.token_urlsafe(24))
        self.quiet = quiet
        page = served_page(PAGE_FILE.read_text(encoding="utf-8"))
        self.page = page.encode("utf-8")
        self.csp = _csp(page)
        self.body_seconds = BODY_SECONDS
        self.header_seconds = HEADER_SECONDS
        bound, port = str(self.server_address[0]), self.server_address[1]
        own = "127.0.0.1" if bound in ("0.0.0.0", "::") else (f"[{bound}]" if ":" in bound else bound)
        self.own_host: str = own  # the address its URL names (any of 127.0.0.0/8, [::1])
        # the loopback names and its own address, with its port or none (port 80)
        names = {"127.0.0.1", "localhost", "[::1]", own}
        self.allowed_hosts = names | {f"{h}:{port}" for h in names}
        self.public_host = public_host  # the address phones are told (--public-host) …
        wildcard = bound in ("0.0.0.0", "::")
        self.lan_host = lan_address() if public_host is None and wildcard and not self.loopback else None  # … guessed

    def process_request(self, request: Connection, client_address: Address) -> None:
        """A thread for the connection, unless its address holds `max_connections` already: then a 503, written
        at once without reading the request (a full send buffer drops it), and the connection closed."""
        who: str = client_address[0]
        with self.held_lock:
            held = self.held.get(who, 0)
            if held < self.max_connections:
                self.held[who] = held + 1
        if held >= self.max_connections:
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: the caller closes the connection
            self._let_go(who)
            raise

    def process_request_thread(self, request: Connection, client_address: Address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._let_go(client_address[0])

    def handle_error(self, request: Connection, client_address: Address) -> None:
        """A request that failed past its handler's own answers: one line in the server's log, never the standard
        library's traceback (a phone that went away mid-request is not the server's fault: nothing is said)."""
        error = sys.exc_info()[1]
        if self.quiet or isinstance(error, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"mjcalc serve: a request from {client_address[0]} failed: "
                         f"{type(error).__name__}: {printable(str(error))}\n")

    def _let_go(self, who: str) -> None:
        with self.held_lock:
            left = self.held.pop(who) - 1
            if left:
                self.held[who] = left

    def _turn_away(self, request: Connection) -> None:
        assert isinstance(request, socket.socket)  # a TCP server's requests are its connections
        body = json_text(refusal(503, "api.too_many_connections", most=self.max_connections).answer()).encode("utf-8")
        head = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\nRetry-After: 1\r\n"
                "Connection: close\r\n\r\n").encode("ascii")
        try:
            request.setblocking(False)
            request.send(head + body)
        except OSError:
            pass
        self.shutdown_request(request)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # HTTPServer's would look the host's name up (slow, needless)
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]

    def url_for(self, host: Optional[str] = None) -> str:
        """The page's URL (with the token in LAN mode); `host` for another name of this machine."""
        bound, port = str(self.server_address[0]), self.server_address[1]
        host = host or ("127.0.0.1" if bound in ("0.0.0.0", "::") else bound)
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/" + (f"?token={quote(self.token)}" if self.token else "")

    @property
    def url(self) -> str:
        return self.url_for()

    def join_url(self, host: Optional[str] = None) -> Optional[str]:
        """The URL a phone joins at: on --public-host, else at `host` (the Host a phone reached this server by,
        if not a loopback name), else at the guessed network address; None on loopback or with no address."""
        if self.loopback:
            return None
        if self.public_host is None and host and _HOST.fullmatch(host) and not is_loopback(host.rsplit(":", 1)[0]):
            return f"http://{host}/" + (f"?token={quote(self.token)}" if self.token else "")
        bound = str(self.server_address[0])
        name = self.public_host or self.lan_host or (None if bound in ("0.0.0.0", "::") else bound)
        return self.url_for(name) if name else None


_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def lan_address() -> Optional[str]:
    """This machine's address on its network, for the printed URL: the source address the kernel would pick
    for a UDP socket "connected" to a documentation address (TEST-NET-1); connect() on UDP sends no packet."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address: str = s.getsockname()[0]
            return None if address.startswith("0.") else address
    except OSError:
        return None


class _Late(Exception):
    """A request's line and headers did not come whole within the server's deadline for them."""


class _Clocked(io.RawIOBase):
    """A connection's bytes, for `Handler.rfile`. While a request's line and headers are read (`start`), the reads
    after its first byte share one deadline, `seconds` from that byte (a timeout per read is not enough: a byte a
    minute would hold the connection for ever); waiting for the first byte is an idle connection's wait
    (`Handler.timeout`). Otherwise a read is the socket's (the body keeps its own deadline: `Handler._read`)."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__()
        self.sock = sock
        self.seconds: Optional[float] = None  # reading a request's line and headers: its time for them
        self.due: Optional[float] = None  # … counted from its first byte

    def readable(self) -> bool:
        return True

    def start(self, seconds: float) -> None:
        self.seconds, self.due = seconds, None

    def stop(self) -> None:
        self.seconds = self.due = None

    def readinto(self, buffer: "WriteableBuffer") -> int:
        if self.seconds is None:
            return self.sock.recv_into(buffer)
        if self.due is None:
            got = self.sock.recv_into(buffer)
            self.due = time.monotonic() + self.seconds
            return got
        left = self.due - time.monotonic()
        if left <= 0:
            raise _Late
        idle = self.sock.gettimeout()
        self.sock.settimeout(left)
        try:
            return self.sock.recv_into(buffer)
        except TimeoutError:
            raise _Late from None
        finally:
            self.sock.settimeout(idle)


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "mjcalc"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    # The headers and the body go out as two writes: with Nagle's algorithm on, a keep-alive connection waits for
    # the client's delayed ACK between them (about 40 ms on every request after the first).
    disable_nagle_algorithm = True
    timeout = 60  # an idle or slow connection is closed after this many seconds
    lang = "en"  # the language of an error answer: the body's "lang" once it is read (`_body`)

    # --- plumbing ---

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket's own reader: the request is read through the clock instead
        self.clock = _Clocked(self.connection)
        self.rfile = io.BufferedReader(self.clock)

    def handle_one_request(self) -> None:
        """One request, its line and headers read within `header_seconds` of its first byte, else a 408 and the
        connection closed."""
        self.command, self.path, self.request_version = "", "", "HTTP/1.1"  # until its line is read
        self.clock.start(self.server.header_seconds)
        try:
            super().handle_one_request()
        except _Late:
            self.connection.settimeout(self.timeout)
            self.close_connection = True
            try:
                self._error(refusal(408, "api.headers_timeout", seconds=f"{self.server.header_seconds:.0f}"))
            except OSError:
                pass
        finally:
            self.clock.stop()

    def parse_request(self) -> bool:
        try:
            return super().parse_request()
        finally:
            self.clock.stop()  # the line and the headers are in: the body has a deadline of its own (`_read`)

    def log_message(self, fmt: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write("%s %s\n" % (self.log_date_time_string(), fmt % args))

    def log_request(self, code: Union[int, str] = "-", size: Union[int, str] = "-") -> None:
        path = urlsplit(getattr(self, "path", "") or "").path  # never the query: it may hold the token
        self.log_message('"%s %s" %s', self.command, path, getattr(code, "value", code))

    def send_error(self, code: int, message: Optional[str] = None, explain: Optional[str] = None) -> None:
        """http.server's own errors (a bad request line, an unknown method, headers too long) as JSON too."""
        short = self.responses.get(code, ("error",))[0]
        self.close_connection = True
        said = refusal(code, "api.http", text=message or short).answer()  # http.server's own words
        body = json.dumps(said, allow_nan=False).encode("utf-8")
        self.send_response(code, short)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)

    def _headers(self, status: int, ctype: str, length: int, tag: Optional[str] = None,
                 cache: Optional[str] = None) -> None:
        """The headers every answer has; with `tag`, a table's view: its ETag, and kept only to be revalidated
        (`no-cache`), so a phone polling it is answered 304 while nothing changed (`_not_modified`)."""
        self.send_response(status)
        if tag is not None:
            self.send_header("ETag", tag)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", self.server.csp)
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", cache or ("no-store" if tag is None else "no-cache"))
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")

    def _not_modified(self, tag: str) -> None:
        """A 304 for a table's view the request has (its ETag): no body, so no type nor length."""
        self.send_response(304)
        self.send_header("ETag", tag)
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def _json(self, status: int, doc: object, tag: Optional[str] = None) -> None:
        body = json_text(doc).encode("utf-8")  # strict JSON, never NaN; an invisible character as its \uXXXX
        self._headers(status, "application/json; charset=utf-8", len(body), tag)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, exc: ApiError) -> None:
        """The error answer, said in the request's language (`"lang"` in its body; English else)."""
        status, extra_headers = exc.status, exc.headers
        body = json_text(exc.answer(self.lang)).encode("utf-8")
        self._headers(status, "application/json; charset=utf-8", len(body))
        for k, v in extra_headers:
            self.send_header(k, v)
        if self.command in WRITE_METHODS or self.close_connection:
            self.send_header("Connection", "close")  # the body may be unread: never reuse this connection
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    # --- methods ---

    def do_GET(self) -> None:
        self._handle("GET")

    def do_HEAD(self) -> None:
        self._handle("HEAD")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def _handle(self, method: str) -> None:
        if method != "POST" and (self.headers.get("Content-Length") or "0").strip() != "0":
            self.close_connection = True  # a body nobody reads: never read the next request from it
        # errors are said in the body's "lang" (`_body`), else in the language the browser asks for, else English
        self.lang = accepted_language(self.headers.get("Accept-Language"))
        try:
            self._guard()
            self._route(method)
        except ApiError as exc:
            self._error(exc)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as exc:  # a bug: one line in the server's log, a plain 500 for the client
            sys.stderr.write(f"mjcalc serve: {exc.__class__.__name__}: {exc} (this is a bug in mjcalc; please report it)\n")
            self._error(refusal(500, "api.internal"))

    def _guard(self) -> None:
        """Host header, Origin of a write and token, before anything else happens (and so before the ledger is
        touched). First what a request must be to be read at all, cheap and the same in LAN mode: each of
        `ONCE_HEADERS` at most once (two Host or Origin headers would be read one way here and another way by a
        proxy or a check), and a target that is a path on this server, not a whole URL naming a host (its
        absolute form)."""
        srv = self.server
        for name in ONCE_HEADERS:
            if len(self.headers.get_all(name, ())) > 1:
                self.close_connection = True  # which of its lengths or bodies is meant is unknowable: read no more
                raise bad("api.header_twice", header=name)
        target = urlsplit(self.path)
        if not self.path.startswith("/") or target.scheme or target.netloc:
            self.close_connection = True
            raise bad("api.absolute_target")
        host = self.headers.get("Host") or ""
        if srv.loopback and host.lower() not in srv.allowed_hosts:
            if srv.own_host == "127.0.0.1":
                raise refusal(403, "api.foreign_host")
            raise refusal(403, "api.foreign_host_named", names=f"{srv.own_host} or localhost")
        origin = self.headers.get("Origin")
        # A browser names the page a write comes from; only this server's own page may write (a missing Origin is
        # not a browser's cross-site request: curl, a script). The page's origin is the URL it was opened at.
        if self.command in WRITE_METHODS and origin is not None and origin.lower() != f"http://{host}".lower():
            raise refusal(403, "api.foreign_origin", expected=f"http://{host}", origin=shown(origin, 80))
        # the page and its manifest and icons hold no data: an installed page opens at "/" and sends the token
        # it keeps with every API request
        where = urlsplit(self.path).path
        public = self.command in ("GET", "HEAD") and (where in join.FILES or where in ("/", "/index.html"))
        if srv.token is not None and not public:
            given = self.headers.get(TOKEN_HEADER) or ""
            if not given:
                given = (parse_qs(urlsplit(self.path).query).get("token") or [""])[0]
            if not hmac.compare_digest(given.encode("utf-8", "replace"), srv.token.encode("utf-8")):
                raise refusal(403, "api.token")

    def _body(self, limit: int = MAX_BODY) -> object:
        """The request's body, read as JSON: any JSON value (`{}` for none), checked by `check_fields` after."""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if self.headers.get("Transfer-Encoding"):
            raise refusal(411, "api.chunked")
        length = self.headers.get("Content-Length")
        if length is None:
            raise refusal(411, "api.no_length")
        try:
            size = int(length)
        except ValueError:
            raise bad("api.length_not_a_number") from None
        if size < 0:
            raise bad("api.length_negative")
        if size > limit:
            raise refusal(413, "api.too_large", size=size, limit=limit)
        if ctype != "application/json":
            raise refusal(415, "api.not_json_type", headers=(("Accept-Post", "application/json"),))
        raw = self._read(size)
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_not_json, object_pairs_hook=_members)
        except (UnicodeDecodeError, ValueError) as exc:
            raise bad("api.bad_json", reason=str(exc)) from None
        except RecursionError:
            raise bad("api.body_too_deep") from None
        _check_text(body)
        if isinstance(body, dict) and body.get("lang") in LANGS:
            self.lang = body["lang"]
        return body

    def _read(self, size: int) -> bytes:
        """The body's `size` bytes, all of them within the server's deadline for a body (a read a while is not
        enough: a byte a minute would hold the connection for ever); else a 408, or a 400 if the client closed."""
        seconds = self.server.body_seconds + size / BODY_RATE
        deadline = time.monotonic() + seconds
        chunks: List[bytes] = []
        got = 0
        try:
            while got < size:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.connection.settimeout(left)
                chunk = self.rfile.read1(size - got)
                if not chunk:
                    raise bad("api.body_short", got=got, size=size)
                chunks.append(chunk)
                got += len(chunk)
        except TimeoutError:
            raise refusal(408, "api.body_timeout", got=got, size=size, seconds=f"{seconds:.0f}") from None
        finally:
            self.connection.settimeout(self.timeout)
        return b"".join(chunks)

    def _route(self, method: str) -> None:
        path = urlsplit(self.path).path
        if path in ("/", "/index.html"):
            self._only(method, "GET", "HEAD")
            self._send(200, "text/html; charset=utf-8", self.server.page, method)
            return
        if path in join.FILES:
            self._only(method, "GET", "HEAD")
            ctype, make = join.FILES[path]
            self._send(200, ctype, make(), method, cache="max-age=86400")
            return
        parts = path.split("/")
        if len(parts) < 3 or parts[1] != "api" or not parts[2]:
            raise refusal(404, "api.no_page", path=path)
        try:
            parts = [unquote(p, errors="strict") for p in parts[2:]]
        except UnicodeDecodeError:
            raise bad("api.path_not_utf8") from None
        if parts[0] == "tables" and len(parts) > 1 and not parts[1]:
            raise refusal(404, "api.no_table_name")
        found = [(route, names) for route in ROUTES for names in [route.match(parts)] if names is not None]
        if not found:
            raise refusal(404, "api.no_endpoint", path=path)
        self._only(method, *[m for route, _ in found for m in route.methods])
        route, names = next((route, names) for route, names in found if method in route.methods)
        route.answer(self, *names)

    def _send(self, status: int, ctype: str, body: bytes, method: str, cache: Optional[str] = None) -> None:
        self._headers(status, ctype, len(body), cache=cache)
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)

    def answer_body(self, route: Route, *names: str) -> None:
        """A POST whose body holds the endpoint's fields: checked, then given to the library."""
        fields = check_fields(route.endpoint, self._body(route.limit))
        self._json(route.status, library_call(route.func, self.server.lib, *names, fields))

    def answer_read(self, route: Route, *names: str) -> None:
        self._json(route.status, library_call(route.func, self.server.lib, *names))

    def answer_view(self, route: Route, name: str) -> None:
        self._table_view(route.func, name)

    def answer_join(self, route: Route) -> None:
        url = self.server.join_url(self.headers.get("Host"))
        self._json(200, {"url": url, "svg": join.qr_svg(url) if url else None, "lan": url is not None})

    def _table_view(self, view: TableView, name: str) -> None:
        """A table's view with its ETag; 304 and no body when the request's If-None-Match has it (the weak
        comparison: W/ and the list of tags as RFC 9110 reads them)."""
        given = self.headers.get("If-None-Match")
        offered = frozenset(t.strip().removeprefix("W/") for t in given.split(",")) if given else frozenset()
        doc, tag = library_call(table_view, self.server.lib, view, name, offered)
        if doc is None:
            self._not_modified(tag)
            return
        self._json(200, doc, tag)

    def _only(self, method: str, *allowed: str) -> None:
        if method not in allowed:
            raise refusal(405, "api.method", headers=(("Allow", ", ".join(allowed)),), method=method,
                          allowed=" or ".join(allowed))


def make_server(host: str = "127.0.0.1", port: int = 8710, db_path: Optional[Union[str, Path]] = None,
                ruleset: Optional[str] = None, token: Optional[str] = None, quiet: bool = False,
                public_host: Optional[str] = None) -> Server:
    """A server bound and ready (port 0: any free port); call serve_forever(), and shutdown() from another thread.
    `public_host` is the address phones are told (the printed URL, its QR code, `GET /api/join`)."""
    return Server(host, port, Library(db_path, ruleset), token=token, quiet=quiet, public_host=public_host)


def announce(server: Server, out: Callable[[str], None] = print, qr: bool = False) -> None:
    """Print the start-up lines: the URL, the network's URL and its QR code (LAN mode), the ledger."""
    out(f"mjcalc serve: {server.url}")
    joined = server.join_url()
    if joined and joined != server.url:
        out(f"on the network: {joined}")
    if joined:
        try:
            out("scan it to join (the page shows this code too):\n" + join.qr_terminal(joined).rstrip("\n"))
        except UnicodeEncodeError:  # a terminal that cannot show the half blocks
            out("(this terminal cannot show the QR code: open the URL above, or the code on a joined phone's page)")
    elif server.token and not server.loopback:
        out("no network address found: name the one phones reach this computer at with --public-host ADDR")
    elif qr or server.public_host:
        out("no QR code on a loopback address (only this computer can open it): use a LAN host, e.g. --host 0.0.0.0")
    out(f"ledger    {server.lib.db_path}")
    if server.lib.read_only is not None:
        why = server.lib.read_only.params.get("reason") or server.lib.read_only.text()
        out(f"read-only the ledger cannot be written here ({why}): serving reads; every write is refused (503)")
    if server.token:
        out("LAN mode: every request needs the token in this URL; share it only with the players at the table")


def run(host: str = "127.0.0.1", port: int = 8710, db_path: Optional[Union[str, Path]] = None,
        ruleset: Optional[str] = None, out: Callable[[str], None] = print, public_host: Optional[str] = None,
        qr: bool = False, open_browser: bool = False, opener: Optional[Callable[[str], object]] = None) -> Server:
    """Serve until Ctrl-C; `out` prints the lines for the user; with `open_browser`, `opener` (webbrowser.open)
    opens the page on this computer. Raises OSError if the port cannot be bound."""
    server = make_server(host, port, db_path, ruleset, public_host=public_host)
    thread = threading.Thread(target=server.serve_forever, name="mjcalc-serve", daemon=True)
    try:  # from here on a Ctrl-C, wherever it lands, stops the server cleanly
        thread.start()
        announce(server, out, qr)
        if open_browser:
            (opener or webbrowser.open)(server.url)
        out("Ctrl-C stops it")
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        out("stopping")
    finally:
        if thread.is_alive():
            server.shutdown()
        server.server_close()
    return server
