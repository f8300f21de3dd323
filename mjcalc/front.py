"""The library as its front ends see it: every name that `mjcalc table …` (cli/table.py, its prompt cli/play.py and
`table stats`, cli/stats.py) and `mjcalc serve` (serve/server.py) call, in one place.

The evening (the ledger, recording, editing and previewing a hand, the documents both answer with), the
calculator's answers the server gives, the documents' renderers, and the words (messages, seats, situation
options). A front end imports from here and from its own folder only (`tests/test_design.py`): what the front
ends need of the library is this one list, not sixteen modules, and a change below it that keeps these names
changes neither front end. The calculator and the settlement, which `table` commands rarely need, are loaded on
first use (PEP 562), so that a table command starts without them.
"""
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import MjcalcError, Notice, SituationError, json_text, printable
from .evening import (
    HandRecord,
    Ledger,
    LedgerError,
    LedgerFileError,
    PenaltyRecord,
    PersonStats,
    Standing,
    Table,
    View,
    Written,
    adopt_rules,
    agreed_input,
    as_played,
    changes_since,
    close_table,
    context,
    correct_dealer,
    create_table,
    data_dir,
    edit_hand,
    export_json,
    find_pattern,
    hand_input,
    told_seats,
    hand_now,
    hand_rules,
    import_table,
    next_json,
    opening_players,
    parse_patterns,
    parse_total,
    player_seats,
    preview_json,
    preview_seating,
    read_stats,
    read_view,
    record_given,
    record_penalty,
    remember_path,
    request_answer,
    request_for,
    revert_event,
    round_end,
    rules_json,
    seat_players,
    seating_with,
    standings_json,
    stats_json,
    table_rules,
    total_kind,
    transfers_json,
    undo_hand,
    unusual,
    written_json,
)
from .evening.check import problems
from .evening.kinds import Data
from .evening.ledger import Request
from .evening.stats import dealer_charges
from .flags import flagged
from .glossary import closest
from .messages import LANGS, Message, did_you_mean, escaped, shown
from .notation import parse_hand, parse_tiles, written_in_notation
from .patterns import added_by_situation, most_count
from .regions import all_options, find_region
from .regions.base import Region
from .render import (
    Doc,
    advice_json,
    analysis_json,
    bonus_text,
    compare_doc,
    pattern_rows,
    payout_rows,
    total_text,
    value_into,
    waits_doc,
)
from .ruleset import Pattern, Ruleset, builtin_rulesets, load_ruleset
from .session import Session, State
from .situation import GENERIC, Option, Situation, read_situation
from .tiles import NAMES, NUM_KINDS, SEATS, parse_seat, seat_word
from .analysis import Analysis, analyze, compare, parse_seen, reads_first_turn

# loaded on first use (start-up time): the calculator's heavier answers, the settlement, the log's story
LAZY = {"advise": "advice", "BatchWaits": "batch", "DEFAULT_DRAWS": "value", "OBJECTIVES": "value", "TABLE": "value",
        "advise_value": "value", "money": "settle", "read_rate": "settle", "settle": "settle",
        "story": "evening.story", "Event": "evening.story", "Told": "evening.story"}

if TYPE_CHECKING:  # the type checker sees them; at run time each is loaded on first use (start-up time)
    from .advice import advise
    from .batch import BatchWaits
    from .evening.story import Event, Told, story
    from .settle import money, read_rate, settle
    from .value import DEFAULT_DRAWS, OBJECTIVES, TABLE, advise_value


def __getattr__(name: str) -> Any:
    if name not in LAZY:
        raise AttributeError(f"module 'mjcalc.front' has no attribute {name!r}")
    import importlib  # loaded on first use (start-up time)
    value = getattr(importlib.import_module(f".{LAZY[name]}", "mjcalc"), name)
    globals()[name] = value
    return value


__all__ = [
    # the types the front ends name
    "Analysis", "Data", "Event", "HandRecord", "Notice", "Option", "Pattern", "PenaltyRecord", "PersonStats", "Region",
    "Request", "Situation", "Standing", "State", "Table", "Told", "View", "Written",
    # the functions and values they call
    "BatchWaits", "DEFAULT_DRAWS", "Doc", "GENERIC", "LANGS", "Ledger", "LedgerError", "LedgerFileError", "Message",
    "MjcalcError", "NAMES", "NUM_KINDS", "OBJECTIVES", "Ruleset", "SEATS", "TABLE", "Session", "SituationError", "__version__",
    "added_by_situation", "adopt_rules", "advice_json", "advise", "advise_value", "agreed_input", "all_options",
    "analysis_json", "analyze", "as_played", "builtin_rulesets", "changes_since", "close_table", "closest",
    "compare", "compare_doc", "context", "correct_dealer", "create_table", "data_dir", "dealer_charges",
    "did_you_mean", "edit_hand", "escaped", "export_json", "find_pattern", "find_region", "flagged", "hand_input", "told_seats",
    "hand_now", "hand_rules", "import_table", "json_text", "load_ruleset", "money", "most_count", "next_json",
    "opening_players", "parse_hand", "parse_patterns", "parse_seat", "parse_seen", "parse_tiles", "parse_total",
    "pattern_rows", "payout_rows", "player_seats", "preview_json", "preview_seating", "printable", "problems",
    "reads_first_turn", "read_rate", "read_situation", "read_stats", "read_view", "record_given", "record_penalty", "round_end", "remember_path",
    "request_answer", "request_for", "revert_event", "rules_json", "seat_players", "seat_word", "seating_with",
    "settle", "shown", "standings_json", "stats_json", "story", "table_rules", "total_kind", "total_text", "bonus_text",
    "transfers_json", "undo_hand", "unusual", "value_into", "waits_doc", "written_in_notation", "written_json",
]
