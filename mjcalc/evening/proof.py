"""Every stored result proven: a result the log keeps is a cache of scoring its hand's entry in the state it names
under the rules it names, so it can always be scored again and compared.

Two levels. `record_faults` is what any stored result must be, whoever scored it (whole numbers summing to zero, a
win with a winner who is not its discarder, a draw that pays nothing, states in range): cheap, checked whenever a
table is opened. `derived_faults` scores every result again — the ones the evening uses now and the ones it keeps
for another state (a hand before an edit moved the dealer, a hand an undo removed) — and names each that differs:
`table check` and `table import` run it, and a write re-scores a kept result before it pays it again.

A result is re-derived only where the event that stored it says it was scored by this scorer (`SCORER`): what an
older mjcalc stored is the table's word (a newer scorer never changes old money), held to the invariants only.
"""
import json
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ..errors import MjcalcError
from ..regions.base import DealPayment
from ..session import MAX_LEVELS, State
from ..tiles import SEATS
from .kinds import Data
from .replay import record_state, stored_key

# The scorer whose results an event stores (the event's "scorer"): raise it when a change of the scoring code
# changes what a stored entry pays, so that results an older scorer stored are no longer re-derived.
SCORER = 1

SEAT_SET = frozenset(SEATS)  # a seat is one of these letters (never a substring of "ESWN", never a number)
MAX_AMOUNT = 2 ** 53 - 1  # a payout or a standing stays exact as a JSON number
# What a result says of its hand that scoring its entry again must give the same (not when, nor its number or
# seating: those are the timeline's).
DERIVED = ("round", "dealer", "streak", "level", "kind", "hand", "winner", "discarder", "total", "situation",
           "patterns", "deltas", "after", "entry")


def is_int(value: object) -> bool:
    """A whole number as JSON and SQLite keep one (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def state_faults(state: Any) -> List[str]:
    """What is wrong with a state between hands (round, dealer, 连庄, 上楼 level): [] when it is one."""
    if not isinstance(state, dict):
        return ["not a state"]
    faults = []
    if not (is_int(state.get("round")) and state["round"] >= 1):
        faults.append(f"round {state.get('round')!r} is not a round (1, 2, …)")
    if state.get("dealer") not in SEAT_SET:
        faults.append(f"dealer {state.get('dealer')!r} is not a seat (E, S, W, N)")
    if not (is_int(state.get("streak")) and state["streak"] >= 0):
        faults.append(f"连庄 {state.get('streak')!r} is not a count")
    if not (is_int(state.get("level")) and 0 <= state["level"] <= MAX_LEVELS):
        faults.append(f"上楼 level {state.get('level')!r} is not 0 to {MAX_LEVELS}")
    won = state.get("won", [])
    if not (isinstance(won, list) and len(won) < len(SEATS)
            and all(isinstance(w, list) and len(w) == 2 and w[0] in SEAT_SET and w[1] in SEAT_SET | {None}
                    and w[0] != w[1] for w in won)
            and len({w[0] for w in won}) == len(won)):
        faults.append(f"the deal's wins {won!r} are not wins by different seats")
    return faults


def record_faults(record: Any, ours: bool = False) -> List[str]:
    """What is wrong with one stored result, whoever scored it: [] when it is a result mjcalc could have written.
    A draw pays only where this scorer stored it (`ours`: a region's draw that pays is then scored again)."""
    if not isinstance(record, dict):
        return ["not a result"]
    faults = []
    if not isinstance(record.get("hand_id"), str) or not record["hand_id"]:
        faults.append("no hand id")
    before = {k: record.get(k) for k in ("round", "dealer", "streak", "level") + (("won",) if "won" in record else ())}
    for what, state in (("the state it was scored in", before),
                        ("the state after it", record.get("after"))):
        faults += [f"{what}: {fault}" for fault in state_faults(state)[:1]]
    deltas = record.get("deltas")
    if not isinstance(deltas, dict) or set(deltas) != set(SEATS) or not all(is_int(deltas[s]) for s in SEATS):
        faults.append(f"payouts {deltas!r} are not four whole numbers")
    elif sum(deltas.values()) != 0:
        faults.append(f"payouts {[deltas[s] for s in SEATS]} do not sum to zero")
    elif any(abs(v) > MAX_AMOUNT for v in deltas.values()):
        faults.append("a payout beyond any amount")
    kind, winner, discarder = record.get("kind"), record.get("winner"), record.get("discarder")
    payments = record.get("payments", [])
    if not (isinstance(payments, list) and all(isinstance(p, str) for p in payments)):
        faults.append(f"payments {payments!r} are not the ids of payments a hand read")
    if kind == "draw":
        if winner is not None or discarder is not None:
            faults.append("a draw with a winner")
        elif not ours and isinstance(deltas, dict) and any(deltas.get(s) for s in SEATS):
            faults.append("a draw that pays")
    elif kind == "win":
        if winner not in SEAT_SET:
            faults.append(f"winner {winner!r} is not a seat")
        if discarder is not None and (discarder not in SEAT_SET or discarder == winner):
            faults.append(f"discarder {discarder!r} is not another seat")
        out = [w[0] for w in record.get("won") or () if isinstance(w, list) and w]
        if winner in out or discarder in out:
            faults.append("a seat that won earlier in the deal wins or pays again")
        if not (is_int(record.get("total")) and record["total"] >= 0):
            faults.append(f"total {record.get('total')!r} is not a whole number")
    else:
        faults.append(f"{kind!r} is neither a win nor a draw")
    return faults


def closed_by(events: Iterable[Tuple[int, str, Data]]) -> bool:
    """Whether the log leaves the table closed against writes: its last `close` event says closed."""
    closes = [data.get("closed") for _, kind, data in events if kind == "close"]
    return bool(closes) and closes[-1] is True


def closed_faults(closed: Any, events: Iterable[Tuple[int, str, Data]]) -> List[str]:
    """The table row's `closed` (when it was closed, or None) against its log."""
    if closed is not None and not _timestamp(closed):
        return [f"{closed!r} is not when it was closed"]
    if (closed is not None) != closed_by(events):
        return ["closed where the log leaves it open" if closed is not None else
                "open where the log closes it"]
    return []


def _timestamp(value: object) -> bool:
    from datetime import datetime  # only when a table is checked
    try:
        return isinstance(value, str) and datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def stored_results(events: Iterable[Tuple[int, str, Data]]) -> Iterable[Tuple[int, Data, bool]]:
    """Every result the log stores: (the revision of its event, the result, whether this scorer stored it)."""
    for revision, _kind, data in events:
        ours = data.get("scorer") == SCORER
        for record in data.get("records", ()) or ():
            yield revision, record, ours


def entries(events: Iterable[Tuple[int, str, Data]]) -> Dict[str, Data]:
    """Each hand id's entry (how it was entered), as the hand and edit events give it."""
    out: Dict[Any, Any] = {}
    for _revision, kind, data in events:
        if kind == "hand":
            out[data.get("hand_id")] = data.get("input")
        elif kind == "edit":
            out[data.get("new_id")] = data.get("input")
    return out


# score(rules_sha256, entry, state, number, the deal's payments a draw read) -> the result as the log keeps it
# (`HandRecord.to_json`)
Rescore = Callable[[Optional[str], Data, State, int, Tuple[DealPayment, ...]], Data]


def difference(stored: Data, derived: Data) -> Optional[str]:
    """What a stored result says that scoring its entry again does not (its payouts first), or None."""
    changed = [k for k in DERIVED if _plain(stored.get(k)) != _plain(derived.get(k))]
    if not changed:
        return None
    if "deltas" in changed:
        return (f"pays {[stored['deltas'].get(s) for s in SEATS]} where its entry pays "
                f"{[derived['deltas'][s] for s in SEATS]}")
    return f"{', '.join(changed)} not what its entry scores"


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str)) if value is not None else None


def derived_faults(events: List[Tuple[int, str, Data]], rescore: Rescore, rules_ok: Callable[[Optional[str]], bool]
                   ) -> List[Tuple[int, Optional[int], str]]:
    """Every stored result of this scorer scored again from its entry, state and rules, and compared:
    (revision, hand number or None, what differs) for each that does not match. `rules_ok(sha)` says whether
    the rules under a digest are there to score with (a missing one is reported by the rules check)."""
    inputs = entries(events)
    payments = {data.get("penalty_id"): data for _revision, kind, data in events if kind == "penalty"}
    found: List[Tuple[int, Optional[int], str]] = []
    done: Dict[Tuple[Any, ...], Optional[Data]] = {}
    for revision, record, ours in stored_results(events):
        if not ours or record_faults(record, ours):
            continue  # an older scorer's word; a malformed result is reported by the invariants
        number = record.get("number") if is_int(record.get("number")) else None
        entry = inputs.get(record["hand_id"])
        if not isinstance(entry, dict):
            found.append((revision, number, f"hand {record['hand_id']!r} has no entry in the log"))
            continue
        sha = record.get("rules_sha256")
        if not rules_ok(sha):
            continue
        read = record.get("payments") or []
        missing = [p for p in read if p not in payments]
        if missing:
            found.append((revision, number, f"it reads payment {missing[0]!r}, which the log does not have"))
            continue
        state = record_state(record)
        key = stored_key(record)
        if key not in done:
            try:
                done[key] = rescore(sha, entry, state, number or 1, tuple(DealPayment.of(payments[p]) for p in read))
            except (MjcalcError, KeyError, TypeError, ValueError) as exc:
                done[key] = None
                found.append((revision, number, f"its entry no longer scores in its state ({str(exc)[:80]})"))
                continue
        derived = done[key]
        if derived is None:
            continue
        what = difference(record, derived)
        if what:
            found.append((revision, number, what))
    return found

