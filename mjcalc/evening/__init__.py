"""The evening at a table: the ledger that remembers it, the rules replayed between hands, recording a hand, and
the documents the front ends render. The names below are the evening's public face; the front ends reach them
through theirs, `mjcalc.front`.

- `ledger`: storage only (one SQLite file; every table and hand), the only module that imports sqlite3;
- `replay`: the state after each hand (dealer, 连庄, rounds, 上楼) from the ruleset's `session:` rules;
- `record`: score a hand with the table's ruleset, base and dealer, then record it;
- `documents`: the `--json` documents of `mjcalc table`, which `mjcalc serve` answers with too.
"""
from .documents import context, hand_json, next_json, show_json, standings_json, total_kind, transfers_json
from .ledger import (
    HandRecord,
    PenaltyRecord,
    Standing,
    LedgerError,
    LedgerFileError,
    Table,
    data_dir,
    default_path,
    remember_path,
    remembered_path,
)
from .record import (
    Written,
    adopt_rules,
    agreed_input,
    as_played,
    builtin_changed,
    changes_since,
    correct_dealer,
    create_table,
    edit_hand,
    hand_input,
    told_seats,
    hand_now,
    hand_rules,
    hand_units,
    opening_players,
    parse_total,
    preview_json,
    preview_seating,
    record_given,
    request_answer,
    request_for,
    revert_event,
    seat_players,
    seating_with,
    undo_hand,
    written_json,
    View,
    close_table,
    find_penalty,
    penalty_amount,
    penalty_kinds,
    read_view,
    record_penalty,
    find_pattern,
    parse_named,
    parse_patterns,
    player_seats,
    record_draw,
    record_quick,
    record_win,
    round_end,
    rules_from_json,
    rules_json,
    score_agreed,
    table_rules,
    unusual,
)
from ..told import MAX_TOTAL, least_total, usual_total
from .check import CheckedLedger as Ledger  # every table it opens is checked first (`check.check_table`)
from .exchange import export_json, import_table
from .replay import advance
from .stats import PersonStats, read_stats, stats_json

__all__ = [
    "changes_since",
    "HandRecord", "PenaltyRecord", "Ledger", "LedgerError", "LedgerFileError", "MAX_TOTAL", "Standing", "Table", "Written",
    "total_kind", "adopt_rules", "advance", "agreed_input", "as_played", "builtin_changed", "context", "correct_dealer", "create_table", "data_dir",
    "default_path", "edit_hand", "find_pattern", "hand_input", "told_seats", "hand_now", "hand_json", "hand_rules", "hand_units", "next_json",
    "opening_players",
    "parse_patterns", "parse_total", "player_seats", "preview_json", "preview_seating", "record_draw", "record_given", "record_quick",
    "record_win", "round_end", "remember_path", "remembered_path", "request_answer", "request_for", "revert_event", "rules_from_json",
    "least_total", "parse_named", "rules_json", "unusual", "usual_total", "score_agreed", "seat_players", "seating_with", "show_json", "standings_json", "table_rules",
    "transfers_json", "undo_hand", "written_json",
    "View", "PersonStats", "read_stats", "stats_json", "export_json", "import_table", "close_table", "find_penalty", "penalty_amount", "penalty_kinds", "read_view", "record_penalty",
]
