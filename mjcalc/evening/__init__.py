"""The evening at a table: the ledger that remembers it, the rules replayed between hands, recording a hand, and
the documents the front ends render. The names below are the evening's public face: `cli/` and `serve/` use
these and nothing deeper.

- `ledger`: storage only (one SQLite file; every table and hand), the only module that imports sqlite3;
- `replay`: the state after each hand (dealer, 连庄, rounds, 上楼) from the ruleset's `session:` rules;
- `record`: score a hand with the table's ruleset, base and dealer, then record it;
- `documents`: the `--json` documents of `mjcalc table`, which `mjcalc serve` answers with too.
"""
from .documents import context, hand_json, next_json, show_json, standings_json, transfers_json
from .ledger import (
    HandRecord,
    Ledger,
    LedgerError,
    LedgerFileError,
    Table,
    data_dir,
    default_path,
    remember_path,
    remembered_path,
)
from .record import (
    adopt_rules,
    create_table,
    find_pattern,
    parse_patterns,
    player_seats,
    record_draw,
    record_quick,
    record_win,
    rules_from_json,
    rules_json,
    score_agreed,
    table_rules,
)
from .replay import advance

__all__ = [
    "HandRecord", "Ledger", "LedgerError", "LedgerFileError", "Table", "adopt_rules", "advance", "context",
    "create_table", "data_dir", "default_path", "find_pattern", "hand_json", "next_json", "parse_patterns",
    "player_seats", "record_draw", "record_quick", "record_win", "remember_path", "remembered_path",
    "rules_from_json", "rules_json", "score_agreed", "show_json", "standings_json", "table_rules",
    "transfers_json",
]
