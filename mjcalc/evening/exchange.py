"""A table as one JSON document, to move it to another computer or keep it: `export_json` writes it, and
`import_table` brings it back into a ledger exactly — the same log, hands, penalties and standings.

The document (`"format": 1`) holds the table (its name, rules as named, 底分, seating, next state, revision,
whether it is closed), every rules JSON it refers to by SHA-256, the seat events, the hands as `table show
--json` gives them, the penalties, the standings and the log of every write. Import keeps the stored payouts
(a newer mjcalc never changes old money) once they are proven as `table check` proves a ledger: every rules
text has the digest it is filed under, the log replays with the results it stores, every result in the log is
one mjcalc could write (`proof.record_faults`) and, where this scorer stored it, is what scoring its entry again
gives (`proof.derived_faults`), and the hands, penalties and standings the log makes are the ones the document
lists. Request ids are not exported: they guard one ledger's retries, not the evening.
"""
import json
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from .. import __version__
from ..messages import Message
from ..regions.base import DealPayment
from ..session import State
from ..tiles import SEATS
from .kinds import Data
from .documents import hand_json, penalty_json, standings_json
from .ledger import HandRecord, Ledger, LedgerError, PenaltyRecord, Table, now, rules_digest, standings_of
from ..situation import MAX_BASE
from . import proof
from .record import kept_rules, read_view, rules_from_json, score_input
from .replay import EVENTS, ReplayError, replay

FORMAT = 1
SEAT_EVENTS = ("open", "seat", "seat_start", "dealer")
T = TypeVar("T")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=True)


def export_json(ledger: Ledger, name: str) -> Data:
    """The table `name` as one document (`mjcalc table export --json`), read at one moment."""
    with ledger.reading():
        view = read_view(ledger, name)
        log = ledger.log(view.table)
        t = view.table
        digests = {t.rules_sha256} | {h.rules_sha256 for h in view.hands}
        digests |= {e["data"].get("rules_sha256") for e in log if e["kind"] in ("open", "rules")}
        rules = {sha: json.loads(text) for sha in sorted(d for d in digests if d)
                 if (text := ledger.rules_text(sha)) is not None}
    return {
        "format": FORMAT, "mjcalc": __version__, "exported": now(),
        "table": {"name": t.name, "ruleset": t.ruleset, "ruleset_id": t.ruleset_id, "base": t.base,
                  "created": t.created, "closed": t.closed, "revision": t.revision, "rules_sha256": t.rules_sha256,
                  "players": dict(zip(SEATS, t.players)),
                  "next": {"round": t.state.round, "dealer": t.state.dealer, "streak": t.state.streak,
                           "level": t.state.level}},
        "rules": rules,
        "seat_events": [e for e in log if e["kind"] in SEAT_EVENTS],
        "hands": [hand_json(h, t, view.rules_of(h), view.units.get(h.rules_sha256)) for h in view.hands],
        "penalties": [penalty_json(p, t) for p in view.penalties],
        "standings": standings_json(view.standings),
        "log": [{"revision": e["revision"], "kind": e["kind"], "recorded": e["recorded"], "data": e["data"]}
                for e in log],
    }


def _damaged(why: str, **params: Any) -> LedgerError:
    # the reason is a Message, not an error's: an error takes `field=` as the field it names, not a parameter
    return LedgerError("import.damaged", reason=Message(why, **params))


def _get(doc: Data, key: str, kind: Type[T], where: str) -> T:
    value = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _damaged("import.field", field=f"{where}{key}")
    return value


def import_table(ledger: Ledger, doc: Any, name: Optional[str] = None,
                 progress: Optional[Callable[[int], None]] = None) -> Table:
    """Bring the exported table `doc` into the ledger, as `name` (else its own name); refused, and nothing
    written, when a table of that name is there or the document is not one export would write. `progress(done)`
    is told as each result the log keeps is scored again."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise LedgerError("import.format", format=repr(doc.get("format") if isinstance(doc, dict) else None),
                          expected=FORMAT)
    table = _get(doc, "table", dict, "")
    rules: Dict[str, str] = {}
    for sha, obj in _get(doc, "rules", dict, "").items():
        text = _dumps(obj)
        if rules_digest(text) != sha:
            raise _damaged("import.rules_digest", sha=sha[:12])
        try:
            rules_from_json(text)
        except (TypeError, ValueError, KeyError):
            raise _damaged("import.rules_unreadable", sha=sha[:12]) from None
        rules[sha] = text
    log = _get(doc, "log", list, "")
    events = []
    for number, event in enumerate(log, 1):
        if not isinstance(event, dict) or event.get("revision") != number or event.get("kind") not in EVENTS \
                or not isinstance(event.get("data"), dict) or not isinstance(event.get("recorded"), str):
            raise _damaged("import.event", revision=number)
        events.append((event["kind"], event["data"]))
    if not events or events[0][0] != "open":
        raise _damaged("import.no_opening")
    try:
        evening = replay(events)  # no scorer: every result must be in the log
    except (ReplayError, KeyError, TypeError, ValueError) as exc:
        raise _damaged("import.replay", reason=str(exc)) from None
    try:
        hands = [HandRecord.of(h) for h in evening.hands]
        penalties = tuple(PenaltyRecord.of(p) for p in evening.penalties)
    except (KeyError, TypeError, ValueError):
        raise _damaged("import.records") from None
    numbered = [(revision, kind, data) for revision, (kind, data) in enumerate(events, 1)]
    if proof.closed_faults(table.get("closed"), numbered):
        raise _damaged("import.field", field="table.closed")
    for revision, kept, ours in proof.stored_results(numbered):
        for fault in proof.record_faults(kept, ours):
            raise _damaged("import.result", revision=revision, what=fault)
    for record in list(hands) + list(penalties):
        deltas = [record.deltas.get(s) for s in SEATS]
        whole = [d for d in deltas if isinstance(d, int) and not isinstance(d, bool)]
        if len(whole) != len(SEATS) or sum(whole) != 0:
            raise _damaged("import.not_zero", what=str(getattr(record, "number", "a penalty")))
    sha = evening.rules_sha256
    if sha is not None and sha not in rules:
        raise _damaged("import.rules_missing", sha=sha[:12])
    for record in hands:
        if record.rules_sha256 is not None and record.rules_sha256 not in rules:
            raise _damaged("import.rules_missing", sha=record.rules_sha256[:12])
    try:
        east, south, west, north = evening.players
    except ValueError:
        raise _damaged("import.records") from None
    players = (east, south, west, north)
    t = Table(0, name if name is not None else _get(table, "name", str, "table."),
              _get(table, "ruleset", str, "table."), _get(table, "ruleset_id", str, "table."),
              _get(table, "base", int, "table."), players, _get(table, "created", str, "table."),
              rules.get(sha) if sha else None, len(events), sha, evening.state, table.get("closed"))
    if not 1 <= t.base <= MAX_BASE:
        raise _damaged("import.field", field="table.base")
    _same(doc, t, hands, penalties)
    _derived(numbered, rules, t, progress)
    return ledger.import_table(t, rules, log, hands, penalties)


def _derived(events: List[Tuple[int, str, Data]], rules: Dict[str, str], t: Table,
             progress: Optional[Callable[[int], None]] = None) -> None:
    """Every result the log keeps (this scorer's), scored again from its entry in its state under its rules at
    the table's 底分, is the one kept: an export whose money was changed in any hand, used now or kept for
    another state, is refused (`proof.derived_faults`)."""
    done = 0

    def rescore(sha: Optional[str], entry: Data, state: State, number: int, paid: Tuple[DealPayment, ...]) -> Data:
        nonlocal done
        if progress is not None:
            done += 1
            progress(done)
        text = rules.get(sha) if sha else t.rules
        if text is None:
            raise _damaged("import.rules_missing", sha=str(sha)[:12])
        record, _ = score_input(kept_rules(text), t.base, entry, state, number, paid)
        return record.to_json()

    for revision, _number, what in proof.derived_faults(events, rescore, lambda sha: sha is None or sha in rules):
        raise _damaged("import.result", revision=revision, what=what)


def _same(doc: Data, t: Table, hands: List[HandRecord], penalties: Tuple[PenaltyRecord, ...]) -> None:
    """The hands, penalties and standings the log makes are the ones the document lists (a document edited by
    hand, or cut short, is refused rather than half believed)."""
    listed = _get(doc, "hands", list, "")
    if [(h.get("hand_id"), h.get("number"), h.get("payouts")) if isinstance(h, dict) else None for h in listed] \
            != [(h.hand_id, h.number, h.deltas) for h in hands]:
        raise _damaged("import.hands_differ")
    listed_penalties = _get(doc, "penalties", list, "")
    if [(p.get("penalty_id"), p.get("payouts")) if isinstance(p, dict) else None for p in listed_penalties] \
            != [(p.penalty_id, p.deltas) for p in penalties]:
        raise _damaged("import.penalties_differ")
    if _get(doc, "standings", list, "") != standings_json(standings_of(t.players, hands, penalties)):
        raise _damaged("import.standings_differ")
    state = _get(_get(doc, "table", dict, ""), "next", dict, "table.")
    if state != {"round": t.state.round, "dealer": t.state.dealer, "streak": t.state.streak,
                 "level": t.state.level} or not isinstance(t.state, State):
        raise _damaged("import.state_differs")
