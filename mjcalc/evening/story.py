"""The table's log as a player reads it: each event with its hands by number and its people by name, as they
were when it was written (`table log`). The log itself keeps hand ids, seats and rules digests; this module
follows it from the opening, as `replay.timeline` does, to say what each event meant then."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Set

from ..session import rotated
from ..tiles import SEATS
from .kinds import Data
from .ledger import Ledger, Table
from .record import rules_reader


@dataclass
class Told:
    """One hand as an event names it: its number then, who won how and for how much, in its rules' unit."""

    number: int
    kind: str  # win | draw
    winner: Optional[str] = None  # names, as they sat in that hand
    discarder: Optional[str] = None
    total: Optional[int] = None
    unit: str = ""
    tiles: Optional[str] = None
    named: Tuple[str, ...] = ()  # the patterns the table named (entered by patterns)
    agreed: bool = False  # entered by its total

    def key(self) -> Tuple[Any, ...]:
        return (self.kind, self.winner, self.discarder, self.total, self.tiles, self.named, self.agreed)


@dataclass
class Event:
    """A log event in a player's terms (`kind` as the log's: open, hand, edit, undo, revert, seat, seat_start,
    dealer, rules, state, penalty, close); the fields its kind uses are set."""

    revision: int
    recorded: str
    kind: str
    hand: Optional[Told] = None  # hand, undo, revert (the hand back); edit: the hand now
    was: Optional[Told] = None  # edit: the hand as it was
    players: Tuple[str, ...] = ()  # open, seat_start: E S W N
    moved: List[Tuple[str, str, str]] = field(default_factory=list)  # seat, seat_start: (seat, who sat, who sits)
    renames: Dict[str, str] = field(default_factory=dict)  # seat_start
    dealer: Optional[Tuple[str, str]] = None  # seat, dealer: (seat, player) who deals next
    rules: Tuple[str, ...] = ()  # open: (id, zh); rules: (old id, old zh, new id, new zh)
    penalty: Optional[Data] = None  # name, player, paid, to, amount (each other seat's), reason, with (those seats)
    target: Optional[Tuple[int, str]] = None  # revert: (revision, kind) taken back
    closed: Optional[bool] = None
    state: Optional[Data] = None


class _Follow:
    """The table as the log has made it so far: the order of its hands, who sat where, which rules."""

    def __init__(self, ledger: Ledger, table: Table):
        self.rules = rules_reader(ledger, table)
        self.order: List[str] = []  # hand ids in their places (an edit's new id in the old one's place)
        self.removed: Set[str] = set()
        self.records: Dict[str, Data] = {}  # hand id → its latest result
        self.inputs: Dict[str, Data] = {}
        self.seatings: List[List[str]] = [[]]  # the opening's, then each seat change's (a round's end's too)
        self.rotation = "none"  # the rules' seat_rotation: the players change seats as each round ends (国标)
        self.seating_of: Dict[str, int] = {}  # hand id → the seating it was played in
        self.sha: Optional[str] = None
        self.penalties: Dict[str, Data] = {}  # penalty id → as recorded, with names

    def number(self, hand_id: str) -> int:
        place = self.order.index(hand_id)
        return 1 + sum(1 for h in self.order[:place] if h not in self.removed)

    def told(self, hand_id: str) -> Optional[Told]:
        record = self.records.get(hand_id)
        if record is None or hand_id not in self.order:
            return None
        players = self.seatings[self.seating_of.get(hand_id, 0)] or [""] * 4
        name = dict(zip(SEATS, players))
        given = self.inputs.get(hand_id, {})
        rules = self.rules(record.get("rules_sha256"))
        named = tuple(rules.pattern(p).zh if p in {q.id for q in rules.patterns} else p
                      for p in (given.get("patterns") or {}))
        return Told(self.number(hand_id), record.get("kind", "win"), name.get(record.get("winner") or ""),
                    name.get(record.get("discarder") or ""), record.get("total"), rules.unit_zh,
                    given.get("hand"), named, given.get("entry") == "total")

    def names(self) -> Dict[str, str]:
        return dict(zip(SEATS, self.seatings[-1]))

    def seats_after(self, hand_id: str, back: bool = False) -> None:
        """The seats as they change when hand `hand_id` ends a round (the rules' seat_rotation), or change back
        when it is taken away (`back`): the seating it was played in."""
        record = self.records.get(hand_id) or {}
        ended = record.get("round")
        if self.rotation == "none" or not ended or (record.get("after") or {}).get("round", ended) <= ended:
            return
        played = self.seatings[self.seating_of.get(hand_id, 0)]
        self.seatings.append(list(played) if back else list(rotated(tuple(played), self.rotation, ended)))


def story(ledger: Ledger, table: Table, log: Optional[List[Data]] = None) -> List[Event]:
    """Every event of the table's log (`Ledger.log`, or `log` read already) as a player reads it."""
    follow = _Follow(ledger, table)
    by_revision: Dict[int, Tuple[str, Data]] = {}
    events = []
    for entry in log if log is not None else ledger.log(table):
        kind, data = entry["kind"], entry["data"]
        by_revision[entry["revision"]] = (kind, data)
        for record in data.get("records", ()):
            follow.records[record["hand_id"]] = record
        event = Event(entry["revision"], entry["recorded"], kind)
        _follow(follow, event, data, by_revision)
        events.append(event)
    return events


def _follow(f: _Follow, event: Event, data: Data, by_revision: Dict[int, Tuple[str, Data]]) -> None:
    """Fill `event` from its data, and move the table on."""
    kind = event.kind
    if kind == "open":
        f.seatings[0] = list(data.get("players", ()))
        f.sha, f.rotation = data.get("rules_sha256"), data.get("rotation", "none")
        rules = f.rules(f.sha)
        event.players, event.rules = tuple(f.seatings[0]), (rules.id, rules.zh)
    elif kind == "hand":
        hand_id = data["hand_id"]
        f.order.append(hand_id)
        f.inputs[hand_id] = data.get("input") or {}
        f.seating_of[hand_id] = len(f.seatings) - 1
        event.hand = f.told(hand_id)
        f.seats_after(hand_id)
    elif kind == "edit" and data.get("hand_id") in f.order:
        old, new = data["hand_id"], data["new_id"]
        event.was = f.told(old)
        f.order[f.order.index(old)] = new
        f.inputs[new], f.seating_of[new] = data.get("input") or {}, f.seating_of.get(old, 0)
        event.hand = f.told(new)
    elif kind == "undo" and data.get("hand_id") in f.order:
        event.hand = f.told(data["hand_id"])
        f.removed.add(data["hand_id"])
        f.seats_after(data["hand_id"], back=True)
    elif kind == "revert":
        _revert(f, event, data, by_revision)
    elif kind == "seat":
        before = f.seatings[-1]
        f.seatings.append(list(data.get("players", ())))
        event.moved = [(s, a, b) for s, a, b in zip(SEATS, before, f.seatings[-1]) if a != b]
        if data.get("dealer"):
            event.dealer = (data["dealer"], f.names()[data["dealer"]])
    elif kind == "seat_start":
        renames = dict(data.get("renames") or {})
        event.moved = [(s, a, b) for s, a, b in zip(SEATS, f.seatings[0], data.get("players", ())) if a != b]
        f.seatings = [list(data.get("players", ()))] + [[renames.get(p, p) for p in s] for s in f.seatings[1:]]
        event.players, event.renames = tuple(f.seatings[0]), renames
    elif kind == "dealer":
        event.dealer = (data.get("seat", ""), f.names().get(data.get("seat", ""), ""))
    elif kind == "rules":
        old, f.sha, f.rotation = f.rules(f.sha), data.get("rules_sha256"), data.get("rotation", "none")
        new = f.rules(f.sha)
        event.rules = (old.id, old.zh, new.id, new.zh)
    elif kind == "penalty":
        names = f.names()
        deltas = data.get("deltas", {})
        others = [s for s in SEATS if s != data.get("player") and deltas.get(s, 0)]  # paid, or paying kong money
        event.penalty = {"name": data.get("name", data.get("penalty", "")), "player": names.get(data.get("player") or "", ""),
                         "paid": deltas.get(data.get("player"), 0),
                         "to": names.get(data.get("to") or "") if data.get("to") else None,
                         "amount": abs(deltas.get(others[0], 0)) if others else 0, "reason": data.get("reason", ""),
                         "with": [names.get(s, "") for s in others]}
        f.penalties[data.get("penalty_id", "")] = event.penalty
    elif kind == "close":
        event.closed = bool(data.get("closed"))
    elif kind == "state":
        event.state = dict(data.get("state", {}))


def _revert(f: _Follow, event: Event, data: Data, by_revision: Dict[int, Tuple[str, Data]]) -> None:
    """A revert: the event it takes back, and the hand (or penalty) back in its place."""
    revision = int(data.get("revision") or 0)
    taken, target = by_revision.get(revision, ("", {}))
    event.target = (revision, taken)
    if taken == "edit" and target.get("new_id") in f.order:
        event.was = f.told(target["new_id"])
        f.order[f.order.index(target["new_id"])] = target["hand_id"]
        event.hand = f.told(target["hand_id"])
    elif taken == "undo":
        f.removed.discard(target.get("hand_id"))
        event.hand = f.told(target.get("hand_id") or "")
        f.seats_after(target.get("hand_id") or "")
    elif taken == "penalty":
        event.penalty = f.penalties.get(target.get("penalty_id", ""))
