"""The evening's closed sets, as they are stored (the ledger's columns and events, the JSON of the API): a hand's
kind, how it was entered, the kind of a write. Each alias lists its values once; a tuple of them is `get_args`."""
from typing import Literal, Tuple, get_args

HandKind = Literal["win", "draw"]  # the hands table's CHECK (kind IN ('win', 'draw')) says the same
Entry = Literal["tiles", "total", "patterns", "draw"]  # `record.hand_input`'s; a draw's record keeps None
EventKind = Literal["open", "hand", "edit", "undo", "revert", "seat", "seat_start", "dealer", "rules", "state",
                    "penalty", "close"]  # a table's log (`replay.timeline` reads every one)
WrittenKind = Literal[EventKind, "replay"]  # what a write did (`record.Written`): an event, or a retried request

HAND_KINDS: Tuple[HandKind, ...] = get_args(HandKind)
ENTRIES: Tuple[Entry, ...] = get_args(Entry)
EVENT_KINDS: Tuple[EventKind, ...] = get_args(EventKind)
