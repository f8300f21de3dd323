"""Recording an evening: score a hand with the table's ruleset, base and dealer, then record it in the ledger.

Scoring happens outside the ledger's write transaction (so a slow hand never keeps other commands waiting);
the record is written only if the table is still where it was when the hand was scored, else it is scored
again from the new state.
"""
import os

from .analysis import analyze
from .ledger import HandRecord, Ledger, LedgerError, Table, now
from .notation import parse_hand
from .ruleset import Ruleset, find_ruleset_path, load_ruleset
from .session import Session, advance
from .situation import Situation
from .tiles import SEATS

ATTEMPTS = 20


def create_table(ledger: Ledger, name: str, ruleset: str, players, base: int = 1) -> Table:
    """A new table in `ledger` playing `ruleset` (a built-in name, or a file kept by its absolute path)."""
    rules = load_ruleset(ruleset)
    if ruleset.endswith((".yaml", ".yml")) or os.sep in ruleset:
        ruleset = str(find_ruleset_path(ruleset).resolve())
    return ledger.create_table(name, ruleset, rules.id, players, base)


def table_rules(table: Table) -> Ruleset:
    return load_ruleset(table.ruleset)


def record_win(ledger: Ledger, table: Table, hand_text: str, situation: Situation, rules: Ruleset = None):
    """Score `hand_text` won in `situation` with the table's ruleset, base and current dealer, and record it.

    Returns (the record, the Analysis). A hand that is not a legal win is an error and records nothing."""
    rules = rules or table_rules(table)
    session = Session.of(rules)
    hand = parse_hand(hand_text)
    if hand.winning is None:
        raise LedgerError(f"a table hand is a won hand of 14 tiles; {hand_text!r} has {hand.size}")
    for _ in range(ATTEMPTS):
        number, state = ledger.state(table)
        placed = situation.replace(dealer=state.dealer, base=table.base)
        result = analyze(hand, rules, placed)
        score = result.score
        if not score.complete:
            raise LedgerError(f"not a winning hand: {score.reason or 'not a winning shape'}; nothing recorded")
        if not score.legal:
            raise LedgerError(f"not a legal win: {score.reason}; nothing recorded")
        deltas = result.payout.scaled(state.factor).deltas  # each part checked against MAX_AMOUNT again
        patterns = [{"id": m.pattern_id, "name": rules.pattern(m.pattern_id).zh, "value": m.value}
                    for m in score.matches]
        discarder = None if score.self_drawn else result.situation.discarder
        record = HandRecord(number + 1, state.round, state.dealer, state.streak, state.level, "win",
                            str(hand), placed.seat, discarder, score.total, result.situation.fields(), patterns,
                            deltas, advance(state, session, placed.seat), now())
        if ledger.append(table, record):
            return record, result
    raise LedgerError(f"table {table.name!r} kept changing while the hand was scored; nothing recorded, try again")


def record_draw(ledger: Ledger, table: Table, rules: Ruleset = None) -> HandRecord:
    """Record a drawn hand 荒牌: nobody pays; the dealer and 上楼 move as the ruleset says."""
    session = Session.of(rules or table_rules(table))
    for _ in range(ATTEMPTS):
        number, state = ledger.state(table)
        record = HandRecord(number + 1, state.round, state.dealer, state.streak, state.level, "draw", None, None,
                            None, None, {}, [], dict.fromkeys(SEATS, 0), advance(state, session, None), now())
        if ledger.append(table, record):
            return record
    raise LedgerError(f"table {table.name!r} kept changing; nothing recorded, try again")

