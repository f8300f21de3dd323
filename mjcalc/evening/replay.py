"""The evening replayed: the state between hands (`advance`: the dealer, 连庄, rounds and 上楼, from the ruleset's
`session:` rules) and the table's log of events replayed into its hands (`replay`).

The ledger keeps every write to a table as an event (a hand, an edit, an undo, a revert, a seat change, a dealer
correction, a rules switch) and its hands as a cache of replaying them. Replaying walks the evening's timeline —
the hands and the corrections between them, in the order they were made — from the opening state. A hand's
result (its payouts and the state after it) is looked up among every result the log ever stored for that hand
in that state under those rules: a hand whose state did not change keeps the money it was recorded with, and a
revert finds again what the edit replaced. Only a hand in a state it was never scored in is scored again, by
the `score` the writer passes (the reader never scores: every result it needs is in the log).

A hand stores its winner as a seat; its seating (seat → person) is the timeline's at its place, so a seat change
moves the chairs from the next hand on and the money stays with the person who won it.
"""
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..regions import all_regions
from ..regions.base import DealPayment, Region
from ..ruleset import Ruleset
from ..session import Session, State, rotated
from ..tiles import SEATS
from .kinds import Data


def advance(state: State, session: Session, winner: Optional[str]) -> State:
    """The state after a hand won by `winner`, or drawn (`winner` None)."""
    drawn = winner is None
    stays = session.dealer_stays_on_draw if drawn else (winner == state.dealer and session.dealer_stays_on_win)
    if stays:
        after = replace(state, streak=state.streak + (0 if drawn and not session.streak_on_draw else 1))
    elif state.dealer == SEATS[-1]:  # North passes the deal on: the round ends
        after = State(round=state.round + 1, dealer=SEATS[0], streak=0,
                      level=0 if session.shanglou_until == "round_end" else state.level)
    else:
        after = replace(state, dealer=SEATS[SEATS.index(state.dealer) + 1], streak=0)
    if drawn:
        return replace(after, level=min(state.level + 1, session.shanglou_levels))
    if session.shanglou_on_dealer_win and winner == state.dealer:
        return replace(after, level=min(after.level + 1, session.shanglou_levels))
    if session.shanglou_until == "win":
        return replace(after, level=0)
    return after


def after_deal(state: State, session: Session, region: Region, rules: Ruleset, winner: Optional[str] = None,
               discarder: Optional[str] = None) -> State:
    """The state after a win by `winner` (from `discarder`, None for a self-draw), or a draw (`winner` None): a
    deal that goes on after the win keeps it in `won` (`region.deal_goes_on`); one that ends moves the deal
    as `advance` does for the seat whose win counts (`region.deal_mover`), or for a draw if nobody won in it, to
    the seat the region names (`region.next_dealer`) where it names one."""
    won = state.won
    if winner is not None:
        won = won + ((winner, discarder),)
        if region.deal_goes_on(rules, won):
            return replace(state, won=won)
    after = advance(replace(state, won=()), session, region.deal_mover(rules, won) if won else None)
    dealer = region.next_dealer(rules, won) if won else None
    if dealer is None or dealer == after.dealer:
        return after
    # the region names who deals next: 连庄 if the dealer deals again; a round ends as the deal passes North to East
    passed = SEATS.index(dealer) < SEATS.index(state.dealer)
    level = 0 if passed and session.shanglou_until == "round_end" else after.level
    return replace(after, dealer=dealer, streak=state.streak + 1 if dealer == state.dealer else 0,
                   round=state.round + passed, level=level)


# --- the log replayed ------------------------------------------------------------------------------------

# What each kind of event says (its `data`); "records" lists the hand results the event's write scored.
EVENTS = {
    "open": "the opening: players [E, S, W, N], rules_sha256, levels (the rules' 上楼 levels), rotation? (their "
            "seat_rotation, where the players change seats as a round ends)",
    "hand": "a hand recorded: hand_id, input (how it was entered), recorded, records",
    "edit": "hand_id replaced by new_id with another input; records",
    "undo": "hand_id removed; records (later hands scored again)",
    "revert": "the edit or undo at `revision` taken back; records",
    "seat": "players [E, S, W, N] from the next hand on; with dealer, who deals next (连庄 starts again)",
    "seat_start": "players [E, S, W, N] from the first hand; renames {old: new} in every hand",
    "dealer": "seat deals the next hand (连庄 starts again)",
    "rules": "rules_sha256 and their levels (and rotation?) from the next hand on (上楼 brought down to them)",
    "state": "state {round, dealer, streak, level}: a correction an older ledger folded into a hand",
    "penalty": "a penalty between hands: penalty_id, penalty (the rules' id), name, player (the seat paying), to, "
               "reason, deltas (fixed when recorded), recorded; no hand number, the deal does not move",
    "close": "closed true (the table takes no writes until reopened) or false (reopened)",
}


# The events that put something in the evening's timeline, or rename what is in it (`timeline`): after the last
# of them, nothing is played.
PLACED = ("hand", "seat", "seat_start", "dealer", "rules", "state", "penalty")


class ReplayError(ValueError):
    """A log that does not replay: an event naming a hand that is not there (a damaged ledger)."""


@dataclass
class Item:
    """One place in the timeline: a hand (`hand_id`, `input`) or a correction between hands."""

    kind: str  # an event's kind as the log stored it (`timeline` refuses one it does not know)
    data: Data
    removed: bool = False


@dataclass
class Evening:
    """A table replayed: its hands (records as dicts, numbered, each with its seating), the state before the
    next hand, the seating and rules now, and the results scored while replaying (for the write to keep)."""

    hands: List[Data] = field(default_factory=list)
    state: State = State()
    players: Tuple[str, ...] = ()
    rules_sha256: Optional[str] = None
    levels: int = 0
    rotation: str = "none"  # the rules' `seat_rotation`: the players change seats as each round ends
    scored: List[Data] = field(default_factory=list)
    penalties: List[Data] = field(default_factory=list)  # each with the seating and the hands played before it


# What names a stored result: its hand id, the state it was scored in (round, dealer, streak, level, the deal's
# wins), its rules' digest and, for a draw, the ids of the payments made during its deal that it read.
ResultKey = Tuple[str, int, str, int, int, Tuple[Tuple[str, Optional[str]], ...], Optional[str], Tuple[str, ...]]


def result_key(hand_id: str, state: State, rules_sha256: Optional[str], payments: Tuple[str, ...] = ()) -> ResultKey:
    return (hand_id, state.round, state.dealer, state.streak, state.level, state.won, rules_sha256, payments)


def stored_key(record: Data) -> ResultKey:
    """The key of a result the log stores (`result_key`)."""
    return result_key(record["hand_id"], record_state(record), record.get("rules_sha256"),
                      tuple(record.get("payments") or ()))


def deal_payments(penalties: Iterable[Data], number: int, state: State) -> Tuple[DealPayment, ...]:
    """The payments made during the deal that hand `number` is played in, in `state`, in order: the table's
    penalty records (as data, each with `after_hand`, the hands played before it) recorded before that hand and
    at or after the end of the last hand that ended a deal — the deal's wins so far (`state.won`) are the hands
    since — whose player was paid (a ruleset payment with `gets`, kong money; a penalty's player pays instead)."""
    start = number - 1 - len(state.won)
    return tuple(DealPayment.of(p) for p in penalties
                 if start <= p["after_hand"] < number and p["deltas"][p["player"]] > 0)


def payments_read(given: Data, penalties: Iterable[Data], number: int, state: State,
                  spent: Iterable[str] = ()) -> Tuple[DealPayment, ...]:
    """What the hand entered as `given` reads of the payments made during its deal: a draw settles them all
    (`deal_payments`) but those an earlier win in the deal read (`spent`: `spent_in_deal`); a win given a
    region's option that `reads_payment` (杠上炮: won on the tile a konger threw after his kong) reads the last
    payment made to the discarder since the hand before it (that kong's money; a kong that earned nothing is
    recorded as nothing: then there is none); any other win reads none."""
    paid = deal_payments(penalties, number, state)
    if given.get("entry") == "draw":
        gone = set(spent)
        return tuple(p for p in paid if p.payment_id not in gone)
    situation = given.get("situation") or {}
    if not any(situation.get(o.name) for r in all_regions() for o in r.options if o.reads_payment):
        return ()
    since = {p["penalty_id"] for p in penalties if p["after_hand"] == number - 1}
    kong = [p for p in paid if p.seat == situation.get("from") and p.payment_id in since]
    return tuple(kong[-1:])


def spent_in_deal(read: Sequence[Sequence[str]], state: State) -> Tuple[str, ...]:
    """The ids of the payments the deal's earlier wins read (a 杠上炮 refunds its kong's money: a draw later in
    the deal does not refund it again), from what each of the table's hands so far read (its `payments`), in
    order."""
    return tuple(i for ids in (read[len(read) - len(state.won):] if state.won else ()) for i in ids)


def record_state(record: Data) -> State:
    """The state a stored result was scored in (the deal's earlier wins with it, where it has them)."""
    return State.of(record)


# score(input, state, rules_sha256, hand_id, number, the deal's payments) -> a record dict (payouts, after, …):
# that hand in that state (`deal_payments`: a draw reads them)
Score = Callable[[Data, State, Optional[str], str, int, Tuple[DealPayment, ...]], Data]


def timeline(events: Sequence[Tuple[str, Data]]) -> Tuple[Data, List[Item], Dict[ResultKey, Data]]:
    """The opening, the timeline's items and every result the log stored, from the events (kind, data) in
    order."""
    opening: Data = {}
    items: List[Item] = []
    known: Dict[ResultKey, Data] = {}
    by_revision: Dict[int, Tuple[str, Data]] = {}

    def find(hand_id: str) -> Item:
        for item in items:
            if item.kind == "hand" and item.data["hand_id"] == hand_id:
                return item
        raise ReplayError(f"no hand {hand_id} to change")

    for revision, (kind, data) in enumerate(events, 1):
        by_revision[revision] = (kind, data)
        for record in data.get("records", ()):
            known[stored_key(record)] = record
        if kind == "open":
            opening = {"players": list(data["players"]), "rules_sha256": data.get("rules_sha256"),
                       "levels": data.get("levels", 0), "rotation": data.get("rotation", "none")}
        elif kind == "hand":
            items.append(Item("hand", {"hand_id": data["hand_id"], "input": data["input"],
                                       "recorded": data["recorded"]}))
        elif kind == "edit":
            item = find(data["hand_id"])
            item.data = {"hand_id": data["new_id"], "input": data["input"], "recorded": item.data["recorded"],
                         "was": item.data}
        elif kind == "undo":
            find(data["hand_id"]).removed = True
        elif kind == "revert":
            target_kind, target = by_revision.get(data["revision"], ("", {}))
            if target_kind == "edit":
                item = find(target["new_id"])
                if item.removed:
                    raise ReplayError(f"hand {target['new_id']} was removed after the edit")
                item.data = item.data["was"]
            elif target_kind == "undo":
                find(target["hand_id"]).removed = False
            elif target_kind == "penalty":
                penalty = next((i for i in items
                                if i.kind == "penalty" and i.data["penalty_id"] == target["penalty_id"]), None)
                if penalty is None or penalty.removed:
                    raise ReplayError(f"penalty {target['penalty_id']} is not there to take back")
                penalty.removed = True
            else:
                raise ReplayError(f"revision {data['revision']} is not an edit, an undo or a penalty")
        elif kind == "seat_start":
            renames = data.get("renames", {})
            for item in items:
                if item.kind == "seat":
                    item.data = dict(item.data, players=[renames.get(p, p) for p in item.data["players"]])
            opening["players"] = list(data["players"])
        elif kind in ("seat", "dealer", "rules", "state"):
            items.append(Item(kind, dict(data)))
        elif kind == "penalty":
            items.append(Item(kind, dict(data, revision=revision)))
        elif kind == "close":
            pass  # the table's state of writes, not of play
        else:
            raise ReplayError(f"unknown event {kind!r}")
    return opening, items, known


def replay(events: Sequence[Tuple[str, Data]], score: Optional[Score] = None) -> Evening:
    """The table the events (kind, data), in order, make. A hand in a state the log has no result for is
    scored by `score`; without it, that is a ReplayError."""
    opening, items, known = timeline(events)
    evening = Evening(players=tuple(opening.get("players", ())), rules_sha256=opening.get("rules_sha256"),
                      levels=opening.get("levels", 0), rotation=opening.get("rotation", "none"))
    state = State()
    for item in items:
        if item.removed:
            continue
        data = item.data
        if item.kind == "hand":
            number = len(evening.hands) + 1
            paid = payments_read(data["input"], evening.penalties, number, state,
                                 spent_in_deal([h.get("payments") or () for h in evening.hands], state))
            key = result_key(data["hand_id"], state, evening.rules_sha256, tuple(p.payment_id for p in paid))
            record = known.get(key)
            if record is None:
                if score is None:
                    raise ReplayError(f"hand {data['hand_id']} has no result in {state}")
                record = score(data["input"], state, evening.rules_sha256, data["hand_id"], number, paid)
                known[key] = record
                evening.scored.append(record)
            record = dict(record, number=number, players=list(evening.players),
                          recorded=data["recorded"], input=data["input"])
            evening.hands.append(record)
            ended, state = state.round, State.of(record["after"])
            if state.round > ended:  # the round ended: the players change seats where the rules say so
                evening.players = rotated(evening.players, evening.rotation, ended)
        elif item.kind == "seat":
            players = tuple(data["players"])
            dealer = SEATS.index(state.dealer)
            if evening.players and players[dealer] != evening.players[dealer]:
                state = replace(state, streak=0)  # the deal stays with the seat; 连庄 is the person's
            evening.players = players
            if data.get("dealer"):  # and who deals next, corrected with it
                state = replace(state, dealer=data["dealer"], streak=0)
        elif item.kind == "dealer":
            state = replace(state, dealer=data["seat"], streak=0)
        elif item.kind == "rules":
            evening.rules_sha256, evening.levels = data["rules_sha256"], data.get("levels", 0)
            evening.rotation = data.get("rotation", "none")
            state = replace(state, level=min(state.level, evening.levels))
        elif item.kind == "state":
            state = State.of(data["state"])
        elif item.kind == "penalty":
            evening.penalties.append(dict(data, players=list(evening.players), after_hand=len(evening.hands)))
    evening.state = state
    return evening
