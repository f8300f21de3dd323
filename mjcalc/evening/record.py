"""Recording an evening: score a hand with the table's ruleset, base and dealer, then record it in the ledger.

Scoring happens outside the ledger's write transaction (so a slow hand never keeps other commands waiting);
the record is written only if the table is still where it was when the hand was scored, else it is scored
again from the new state.

A table keeps its rules: the validated ruleset is stored in the ledger as JSON when the table is opened, so
editing or moving the file later changes nothing; `adopt_rules` is how a table takes a changed file on purpose.
A hand is recorded from its tiles (`record_win`) or from what the table agreed (`record_quick`: the total, or
the named patterns), paid by the same payout scheme; the ledger marks which.
"""
import json
import os
from dataclasses import asdict
from types import SimpleNamespace
from typing import Dict, List, Optional, Tuple

from ..analysis import Analysis, analyze, pay
from ..errors import Notice
from ..messages import Message, Words, did_you_mean
from ..notation import parse_hand
from ..regions import find_region
from ..ruleset import Pattern, Ruleset, find_ruleset_path, load_ruleset
from ..scoring import Match, Score, match_patterns
from ..session import Session
from ..situation import GENERIC, Situation
from ..tiles import SEATS
from .ledger import HandRecord, Ledger, LedgerError, LedgerFileError, Table, now
from .replay import advance

ATTEMPTS = 20
ENTRIES = ("tiles", "total", "patterns")  # how a won hand was entered


def rules_json(rules: Ruleset) -> str:
    """The validated ruleset as JSON: what a table keeps."""
    return json.dumps(asdict(rules), ensure_ascii=False, sort_keys=True, allow_nan=False)


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def rules_from_json(text: str) -> Ruleset:
    """The ruleset a table kept (`rules_json`), as it was validated."""
    data = {k: _tuples(v) for k, v in json.loads(text).items()}
    data["patterns"] = tuple(Pattern(**{k: _tuples(v) for k, v in p.items()}) for p in json.loads(text)["patterns"])
    return Ruleset(**data)


def _source(ruleset: str) -> str:
    """How the ruleset was named: a built-in id, or a file's absolute path (shown, never read again)."""
    if ruleset.endswith((".yaml", ".yml")) or os.sep in ruleset:
        return str(find_ruleset_path(ruleset).resolve())
    return ruleset


def create_table(ledger: Ledger, name: str, ruleset: str, players, base: int = 1) -> Table:
    """A new table in `ledger` playing `ruleset` (a built-in name, or a file): its rules are kept in the ledger.
    `base` is read as every hand's base will be, so a table is never opened with a base no hand could be scored at."""
    base = GENERIC["base"].read(base)
    rules = load_ruleset(ruleset)
    return ledger.create_table(name, _source(ruleset), rules.id, players, base, rules_json(rules))


def adopt_rules(ledger: Ledger, table: Table, ruleset: str, rules: Optional[Ruleset] = None) -> Tuple[Table, Ruleset]:
    """The table plays `ruleset` (a built-in name or a file, read now unless `rules` is what was read of it)
    from its next hand on; a 上楼 level it does not reach is brought down to what it has (none: ×1)."""
    rules = rules or load_ruleset(ruleset)
    levels = Session.of(rules).shanglou_levels
    return ledger.set_rules(table, _source(ruleset), rules.id, rules_json(rules), max_level=levels), rules


def table_rules(table: Table, ledger: Optional[Ledger] = None) -> Ruleset:
    """The rules the table keeps. A table opened before tables kept their rules reads its file once; with
    `ledger` it then keeps what it read."""
    if table.rules:
        return rules_from_json(table.rules)
    rules = load_ruleset(table.ruleset)
    if ledger is not None:
        try:
            ledger.set_rules(table, table.ruleset, rules.id, rules_json(rules))
        except LedgerFileError:  # a ledger that cannot be written (read-only): read the file again next time
            pass
    return rules


# --- a hand from what the table agreed -----------------------------------------------------------------


def find_pattern(rules: Ruleset, word: str) -> Pattern:
    """A pattern of the ruleset by its id, Chinese or English name (any case); a LedgerError names the near ones."""
    text = word.strip()
    for p in rules.patterns:
        if text in (p.id, p.zh) or text.lower() in (p.id.lower(), p.en.lower()):
            return p
    names = [p.zh for p in rules.patterns] + [p.id for p in rules.patterns]
    hint = did_you_mean(text, names) or Message("record.hint_patterns", patterns=[p.zh for p in rules.patterns])
    raise LedgerError("record.unknown_pattern", field="patterns", label="--patterns", ruleset=rules.id,
                      pattern=repr(text), hint=hint)


def parse_patterns(rules: Ruleset, text) -> Dict[str, int]:
    """`对对和,庄` or `flown*2` (a pattern counted twice) as {pattern id: count}."""
    words = text if isinstance(text, (list, tuple)) else str(text).replace("，", ",").replace("、", ",").split(",")
    counts: Dict[str, int] = {}
    for word in words:
        word = word.strip()
        if not word:
            continue
        count = 1
        given: Words = "1"  # the count as written
        for mark in ("×", "*"):
            name, found, times = word.rpartition(mark)
            if found and times.isascii() and times.isdigit():  # never int() of thousands of digits
                word, count = name, int(times) if len(times) <= 6 else 10 ** 6
                given = times if len(times) <= 6 else Message("record.many_digits", digits=len(times))
                break
        if not 1 <= count <= 16:
            raise LedgerError("record.pattern_count", field="patterns", label="--patterns", word=word, count=given)
        p = find_pattern(rules, word)
        if p.id in counts:
            raise LedgerError("record.pattern_twice", field="patterns", label="--patterns", name=p.zh,
                              pattern=p.id)
        counts[p.id] = count
    if not counts:
        raise LedgerError("record.no_patterns", field="patterns", label="--patterns")
    return counts


MAX_TOTAL = 10_000


def score_agreed(rules: Ruleset, situation: Situation, total: Optional[int] = None,
                 patterns: Optional[Dict[str, int]] = None) -> Analysis:
    """A won hand from what the table agreed, without its tiles: the `total` (in the ruleset's unit), or the
    named `patterns` ({id: count}) valued by the ruleset, its exclusions and cap applied. Paid by the ruleset's
    payout scheme as a hand with those tiles would be. Without tiles mjcalc cannot see exposed melds or
    wildcards, so it takes the hand as concealed and each pattern at its ordinary value; the minimum, the
    discard rules that do not depend on the tiles and the region's checks of the situation apply."""
    if (total is None) == (patterns is None):
        raise LedgerError("record.total_or_patterns")
    region = find_region(rules.region)
    notes: List[Notice] = []
    situation = region.as_paid(rules, region.prepare(rules, situation, notes))
    if total is not None:
        if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= MAX_TOTAL:
            raise LedgerError("record.total_range", field="total", label=f"--{rules.unit_en}", limit=MAX_TOTAL,
                              total=repr(total))
        matches: Tuple[Match, ...] = ()
        bonus = 0
        if rules.cap is not None and total > rules.cap:
            notes.append(Notice("record.cap_total", field="cap", total=total, unit=rules.unit_zh, ruleset=rules.id,
                                cap=rules.cap))
            total = rules.cap
    else:
        reading = SimpleNamespace(ruleset=rules, situation=situation, wild_roles=1, shape=None)  # each pattern at its value
        named = {p.id: patterns.get(p.id, 0) for p in rules.patterns}
        detectors = {pid: (lambda r, p, n=n: n) for pid, n in named.items()}
        matches, total, bonus, uncapped = match_patterns(reading, detectors)
        dropped = [rules.pattern(pid).zh for pid in patterns if pid not in {m.pattern_id for m in matches}]
        if dropped:
            notes.append(Notice("record.patterns_excluded", field="patterns", patterns=dropped))
        if uncapped > total:
            notes.append(Notice("record.cap_patterns", field="cap", total=uncapped, unit=rules.unit_zh,
                                ruleset=rules.id, cap=total))
    concealed = SimpleNamespace(hand=SimpleNamespace(is_concealed=True), wild_tiles=0)
    reason = region.refusal(rules, situation, concealed, matches, total)
    score = Score(True, reason is None, reason, None, tuple(matches), total, bonus, [], situation, tuple(notes))
    result = Analysis(rules, region, None, situation, None, score=score, warnings=list(notes))
    if score.legal:
        result.payout = pay(score, rules, region)
    return result


def record_win(ledger: Ledger, table: Table, hand_text: str, situation: Situation, rules: Ruleset = None,
               dry_run: bool = False):
    """Score `hand_text` won in `situation` with the table's ruleset, base and current dealer, and record it
    (with `dry_run`, only score it).

    Returns (the record, the Analysis). A hand that is not a legal win is an error and records nothing."""
    rules = rules or table_rules(table, ledger)
    session = Session.of(rules)
    hand = parse_hand(hand_text)
    if hand.winning is None:
        raise LedgerError("record.not_14_tiles", hand=repr(hand_text), size=hand.size)
    for _ in range(ATTEMPTS):
        number, state = ledger.state(table)
        placed = situation.replace(dealer=state.dealer, base=table.base)
        result = analyze(hand, rules, placed)
        score = result.score
        if not score.complete:
            raise LedgerError("record.not_winning", reason=score.reason or Message("record.no_shape"))
        if not score.legal:
            raise LedgerError("record.not_legal", reason=score.reason)
        deltas = result.payout.scaled(state.factor).deltas  # each part checked against MAX_AMOUNT again
        patterns = [{"id": m.pattern_id, "name": rules.pattern(m.pattern_id).zh, "value": m.value}
                    for m in score.matches]
        discarder = None if score.self_drawn else result.situation.discarder
        record = HandRecord(number + 1, state.round, state.dealer, state.streak, state.level, "win",
                            str(hand), placed.seat, discarder, score.total, result.situation.fields(), patterns,
                            deltas, advance(state, session, placed.seat), now(), "tiles")
        if dry_run or ledger.append(table, record):
            return record, result
    raise LedgerError("record.kept_changing_scoring", table=repr(table.name))


def record_quick(ledger: Ledger, table: Table, situation: Situation, total: Optional[int] = None,
                 patterns=None, rules: Ruleset = None, dry_run: bool = False):
    """Record a won hand from what the table agreed, without its tiles (`score_agreed`): the winner is
    `situation.seat`, the discarder `situation.discarder` (None for a self-draw). `patterns` is text
    (`对对和,庄`) or {id: count}. Returns (the record, the Analysis); an illegal win records nothing, and
    `dry_run` records nothing either."""
    rules = rules or table_rules(table, ledger)
    session = Session.of(rules)
    counts = None if patterns is None else (patterns if isinstance(patterns, dict) else parse_patterns(rules, patterns))
    for _ in range(ATTEMPTS):
        number, state = ledger.state(table)
        placed = situation.replace(dealer=state.dealer, base=table.base)
        result = score_agreed(rules, placed, total, counts)
        score = result.score
        if not score.legal:
            raise LedgerError("record.not_legal", reason=score.reason)
        deltas = {s: d * state.factor for s, d in result.payout.deltas.items()}
        named = [{"id": m.pattern_id, "name": rules.pattern(m.pattern_id).zh, "value": m.value}
                 for m in score.matches]
        discarder = None if score.self_drawn else result.situation.discarder
        record = HandRecord(number + 1, state.round, state.dealer, state.streak, state.level, "win", None,
                            placed.seat, discarder, score.total, result.situation.fields(), named, deltas,
                            advance(state, session, placed.seat), now(), "total" if counts is None else "patterns")
        if dry_run or ledger.append(table, record):
            return record, result
    raise LedgerError("record.kept_changing", table=repr(table.name))


def record_draw(ledger: Ledger, table: Table, rules: Ruleset = None) -> HandRecord:
    """Record a drawn hand 荒牌: nobody pays; the dealer and 上楼 move as the ruleset says."""
    session = Session.of(rules or table_rules(table, ledger))
    for _ in range(ATTEMPTS):
        number, state = ledger.state(table)
        record = HandRecord(number + 1, state.round, state.dealer, state.streak, state.level, "draw", None, None,
                            None, None, {}, [], dict.fromkeys(SEATS, 0), advance(state, session, None), now())
        if ledger.append(table, record):
            return record
    raise LedgerError("record.kept_changing", table=repr(table.name))



def player_seats(table: Table, option, value):
    """A situation field's value with players' names as seats (`Table.seat`), where `option` names seats:
    `小李`, `[老王, 阿张]`, `老王=2`, `{老王: 2}`, `阿张:exposed` (a seat letter stays as it is)."""
    if option.name == "dealer" or not option.kind.startswith("seat"):
        return value
    if option.kind == "seat":
        return table.seat(value) if isinstance(value, str) else value
    if isinstance(value, dict):
        return {table.seat(k): v for k, v in value.items()}
    items = list(value) if isinstance(value, (list, tuple)) else [x for x in str(value).split(",") if x.strip()]
    if option.kind == "seats":
        return [table.seat(x) if isinstance(x, str) else x for x in items]
    sep = "=" if option.kind == "seat_int" else ":"
    out = []
    for item in items:
        if isinstance(item, dict):
            out.append({table.seat(k): v for k, v in item.items()})
        elif isinstance(item, str) and sep in item:
            who, _, rest = item.partition(sep)
            out.append(f"{table.seat(who)}{sep}{rest}")
        else:
            out.append(item)  # not SEAT=N / SEAT:KIND: the Option says so
    return out
