"""Recording an evening: score a hand with the table's ruleset, base and dealer, then record it in the ledger;
edit or remove any hand, take an edit or an undo back, change seats, correct the dealer, switch the rules.

Every write is made from the table as read (its revision), by replaying its log with the new event added
(`replay.replay`), and kept only if the table is still at that revision (`Ledger.write`), else made again from
the new state — or, when a player was shown what is about to change (`revision=`, a hand named by its id),
refused with what changed. Scoring happens outside the write transaction, so a slow hand never keeps other
commands waiting.

A table keeps its rules: the validated ruleset is stored in the ledger as JSON when the table is opened, so
editing or moving the file later changes nothing; `adopt_rules` is how a table takes a changed file on purpose.
A hand is recorded from its tiles (`record_win`) or from what the table agreed (`record_quick`: the total, or
the named patterns), paid by the same payout scheme; the ledger marks which.
"""
import hashlib
import json
import os
import re
import unicodedata
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from .. import glossary
from ..analysis import Analysis, analyze
from ..errors import MjcalcError, Notice
from ..hand import Hand
from ..messages import Message, Words, did_you_mean, shown
from ..notation import parse_hand
from ..regions import find_region
from ..regions.base import MAX_DRAW_COUNT, DealPayment, Region
from ..regions.base import penalty_amount as region_penalty_amount
from ..ruleset import Pattern, Penalty, Ruleset, as_data, find_ruleset_path, load_ruleset
from ..patterns import most_count
from ..session import Session, State, rotated
from ..situation import GENERIC, Option, Situation
from ..told import MAX_TOTAL, Told, analyze_told, told_facts, usual_total
from ..tiles import SEATS, Composition, parse_seat
from .documents import hand_json, next_json, penalty_json, show_json, standings_json
from .kinds import Data, EventKind, WrittenKind
from .ledger import (
    Change,
    HandRecord,
    Ledger,
    LedgerError,
    LedgerFileError,
    PenaltyRecord,
    Request,
    Table,
    check_players,
    new_hand_id,
    now,
    rules_digest,
    Standing,
    standings_of,
    standings_with,
    visible,
)
from . import proof
from .replay import (Evening, ReplayError, ResultKey, Score, after_deal, payments_read, replay, result_key,
                     spent_in_deal, stored_key, timeline)

ATTEMPTS = 20
ENTRIES = ("tiles", "total", "patterns")  # how a won hand was entered


def rules_json(rules: Ruleset) -> str:
    """The validated ruleset as JSON: what a table keeps."""
    return json.dumps(as_data(rules), ensure_ascii=False, sort_keys=True, allow_nan=False)


def _tuples(value: Any) -> Any:
    """A JSON value with every list in it a tuple (as a validated ruleset keeps them)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def rules_from_json(text: str) -> Ruleset:
    """The ruleset a table kept (`rules_json`), as it was validated."""
    data = {k: _tuples(v) for k, v in json.loads(text).items()}
    data["patterns"] = tuple(Pattern(**{k: _tuples(v) for k, v in p.items()}) for p in json.loads(text)["patterns"])
    data["penalties"] = tuple(Penalty(**p) for p in json.loads(text).get("penalties", ()))
    if "wall" in data:
        data["wall"] = Composition(**data["wall"])
    return Ruleset(**data)


def _source(ruleset: str) -> str:
    """How the ruleset was named: a built-in id, or a file's absolute path (shown, never read again)."""
    if ruleset.endswith((".yaml", ".yml")) or os.sep in ruleset:
        return str(find_ruleset_path(ruleset).resolve())
    return ruleset


def create_table(ledger: Ledger, name: str, ruleset: str, players: Dict[str, str], base: int = 1,
                 request: Optional[Request] = None, rules: Optional[Ruleset] = None) -> Table:
    """A new table in `ledger` playing `ruleset` (a built-in name, or a file): its rules are kept in the ledger
    — `rules`, where the caller read them already (`mjcalc serve -r FILE` reads its file once), else read now.
    `base` is read as every hand's base will be, so a table is never opened with a base no hand could be scored at."""
    base = GENERIC["base"].read(base)
    if rules is None:
        rules, ruleset = load_ruleset(ruleset), _source(ruleset)
    return ledger.create_table(name, ruleset, rules.id, players, base, rules_json(rules), request)


def table_rules(table: Table, ledger: Optional[Ledger] = None) -> Ruleset:
    """The rules the table keeps. A table opened before tables kept their rules reads its file once; with
    `ledger` it then keeps what it read."""
    if table.rules:
        return kept_rules(table.rules)
    rules = load_ruleset(table.ruleset)
    if ledger is not None:
        try:
            adopt_rules(ledger, table, table.ruleset, rules)
        except LedgerFileError:  # a ledger that cannot be written (read-only): read the file again next time
            pass
    return rules


# --- a hand from what the table agreed -----------------------------------------------------------------


def find_pattern(rules: Ruleset, word: str) -> Pattern:
    """A pattern of the ruleset by its id, Chinese or English name (any case), as players write it (对对胡 for
    对对和, 七对 for 七对子) or by the glossary's words for it (碰碰胡, duiduihe); a LedgerError names the near
    ones, or, for a word that names two patterns of the ruleset, both."""
    return read_pattern(rules, word)[0]


def read_pattern(rules: Ruleset, word: str) -> Tuple[Pattern, Optional[int]]:
    """`find_pattern`, and whether the word says no wildcard stands in (0) for a pattern worth more so: 无宝十三浪
    (the texts' name of 十三浪 without a 宝), `thirteen lonely without bao`; None when it does not say."""
    text = word.strip()
    found = glossary.patterns_named(text, rules.patterns)
    if not found:
        for prefix, suffix in ((f"无{rules.wild_zh}", ""), ("", f" without {rules.wild_en}")):
            if rules.wild_zh and text.startswith(prefix) and text.lower().endswith(suffix) and len(text) > len(
                    prefix + suffix):
                bare = text[len(prefix):len(text) - len(suffix)]
                plain = [p for p in glossary.patterns_named(bare, rules.patterns)
                         if p.param("without_wild") is not None]
                if len(plain) == 1:
                    return plain[0], 0
    if len(found) == 1:
        return found[0], None
    if found:
        raise LedgerError("record.ambiguous_pattern", field="patterns", label="--patterns", ruleset=rules.id,
                          pattern=repr(text), names=" or ".join(f"{p.zh} ({p.id})" for p in found))
    spellings = glossary.pattern_spellings(rules.patterns)
    close = glossary.closest(text, list(spellings))
    hint = (Message("hint.did_you_mean", word=spellings[close]) if close
            else Message("record.hint_patterns", patterns=[p.zh for p in rules.patterns]))
    raise LedgerError("record.unknown_pattern", field="patterns", label="--patterns", ruleset=rules.id,
                      pattern=repr(text), hint=hint)


def parse_patterns(rules: Ruleset, text: object) -> Dict[str, int]:
    """`对对和,庄` or `flown*2` (a pattern counted twice) as {pattern id: count}."""
    return parse_named(rules, text)[0]


def parse_named(rules: Ruleset, text: object) -> Tuple[Dict[str, int], Optional[int]]:
    """`对对和,庄`, `中发白×2` (a pattern counted twice; 中发白,中发白 says the same of one that counts) as {pattern id:
    count}, and whether a name said no wildcard stands in (无宝十三浪: 0; None when none said so). 推倒和 under rules
    that have no such pattern names a hand of no pattern: {}."""
    words = text if isinstance(text, (list, tuple)) else str(text).replace("，", ",").replace("、", ",").split(",")
    counts: Dict[str, int] = {}
    roles: Optional[int] = None
    plain = False
    detectors = find_region(rules.region).detectors
    for word in words:
        if not isinstance(word, str):
            raise LedgerError("record.pattern_not_text", field="patterns", label="--patterns", value=repr(word)[:40])
        word = word.strip()
        if not word:
            continue
        count = 1
        given: Words = "1"  # the count as written
        for mark in ("×", "*", "x"):
            name, found, times = word.rpartition(mark)
            if found and name and times.isascii() and times.isdigit():  # never int() of thousands of digits
                word, count = name.strip(), int(times) if len(times) <= 6 else 10 ** 6
                given = times if len(times) <= 6 else Message("record.many_digits", digits=len(times))
                break
        if not 1 <= count <= 16:
            raise LedgerError("record.pattern_count", field="patterns", label="--patterns", word=word, count=given)
        try:
            p, no_roles = read_pattern(rules, word)
        except LedgerError as exc:
            if exc.code == "record.unknown_pattern" and glossary.names_plain_win(word):
                plain = True  # 推倒和 where the rules have no such pattern (beijing-money's 0 番): no pattern
                continue
            raise
        if no_roles is not None:
            roles = no_roles
        if p.id in counts:
            if most_count(detectors.get(p.id)) == 1:
                raise LedgerError("record.pattern_twice", field="patterns", label="--patterns", name=p.zh,
                                  pattern=p.id)
            counts[p.id] += count  # 中发白,中发白: two dragon pungs
        else:
            counts[p.id] = count
    if not counts and not plain:
        raise LedgerError("record.no_patterns", field="patterns", label="--patterns")
    return counts, roles


UNITS = (("番", "fan"), ("台", "tai"), ("分", "points"))  # the units a total may be said in
_NUMERALS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9}
_POWERS = {"十": 10, "百": 100, "千": 1000}


def parse_total(rules: Ruleset, value: object) -> int:
    """An agreed total as the table says it: `3`, `3番` (the ruleset's own unit only), a full-width `３`, or in
    Chinese numerals `三`, `十二`, `一百零五`; from 0 to MAX_TOTAL. One reading for the command line, the prompt
    and the API alike."""
    if isinstance(value, bool):
        raise LedgerError("record.total_unreadable", field="total", label=f"--{rules.unit_en}", total=repr(value))
    if isinstance(value, int):
        number = value
    else:
        text = unicodedata.normalize("NFKC", str(value)).strip()
        for zh, en in UNITS:
            if text.endswith(zh) or text.lower().endswith(en):
                if zh != rules.unit_zh:
                    raise LedgerError("record.total_unit", field="total", label=f"--{rules.unit_en}",
                                      total=repr(str(value)), ruleset=rules.id, unit=rules.unit_zh)
                text = text[:-len(zh)] if text.endswith(zh) else text[:-len(en)]
                break
        text = text.strip()
        if text.isascii() and text.isdigit():
            if len(text) > 7:  # never int() of thousands of digits, and never print them
                raise LedgerError("record.total_range", field="total", label=f"--{rules.unit_en}", limit=MAX_TOTAL,
                                  total=Message("record.many_digits", digits=len(text)))
            number = int(text)
        else:
            read = _chinese_number(text)
            if read is None:
                raise LedgerError("record.total_unreadable", field="total", label=f"--{rules.unit_en}",
                                  total=repr(str(value)[:40]))
            number = read
    if not 0 <= number <= MAX_TOTAL:
        raise LedgerError("record.total_range", field="total", label=f"--{rules.unit_en}", limit=MAX_TOTAL,
                          total=repr(str(value)[:40]) if not isinstance(value, int) else repr(value))
    return number


def _chinese_number(text: str) -> Optional[int]:
    """`三` 3, `十二` 12, `二十` 20, `一百零五` 105; None for anything else (`三暗刻` is a pattern, not a number)."""
    if not text or len(text) > 8 or any(ch not in _NUMERALS and ch not in _POWERS for ch in text):
        return None
    total = digit = 0
    for ch in text:
        if ch in _NUMERALS:
            digit = _NUMERALS[ch]
        else:
            total += (digit or 1) * _POWERS[ch]
            digit = 0
    return total + digit


@contextmanager
def as_ledgers() -> Iterator[None]:
    """A library refusal raised within (the scorer's, a region's) raised again as the ledger's, in the same
    words and with the same field."""
    try:
        yield
    except LedgerError:
        raise
    except MjcalcError as exc:
        raise LedgerError(exc.code, field=exc.field, label=exc.label, **exc.params) from None


def score_agreed(rules: Ruleset, situation: Situation, total: Optional[int] = None,
                 patterns: Optional[Dict[str, int]] = None, facts: Optional[Data] = None) -> Analysis:
    """A won hand from what the table agreed, without its tiles: the `total` (in the ruleset's unit), or the
    named `patterns` ({id: count}), with what the table knows of the hand (`facts`: `told.told_facts`'s open,
    kongs, wild_roles) — scored and paid by the region as its tiles would be (`told.analyze_told`)."""
    if (total is None) == (patterns is None):
        raise LedgerError("record.total_or_patterns")
    with as_ledgers():  # the same refusal, as the ledger's (a later hand it fails is named: `_evening`)
        told = Told(patterns=None if patterns is None else tuple(patterns.items()), total=total,
                    **told_facts(facts or {}))
        return analyze_told(told, rules, situation)


# --- scoring a hand in a state ---------------------------------------------------------------------------


def _won_hand(text: str) -> Hand:
    """The hand of a win entered by its tiles: 14 tiles with the winning one, else a LedgerError."""
    hand = parse_hand(text)
    if hand.winning is None:
        raise LedgerError("record.not_14_tiles", hand=repr(text), size=hand.size)
    return hand


def hand_input(hand: Optional[str] = None, situation: Optional[Situation] = None, total: Optional[int] = None,
               patterns: Optional[Dict[str, int]] = None, facts: Optional[Data] = None) -> Data:
    """How a hand was entered, as the log keeps it (to score it again if an edit changes the state it is
    played in): its tiles (read and written as the notation writes them), the agreed total or the named
    patterns with what the table told of the hand (`told`: open, kongs, wild_roles; an entry with `told` is
    scored as a told reading, `told.py`), with the situation as given (without the dealer and the base, which
    the table says); a drawn hand without any."""
    if situation is None:
        return {"entry": "draw", "told": dict(facts)} if facts else {"entry": "draw"}
    given = {k: v for k, v in situation.fields().items() if k not in ("dealer", "base")}
    if hand is not None:
        return {"entry": "tiles", "hand": str(_won_hand(hand)), "situation": given}
    if total is not None:
        return {"entry": "total", "total": total, "situation": given, "told": dict(facts or {})}
    return {"entry": "patterns", "patterns": dict(patterns or {}), "situation": given, "told": dict(facts or {})}


def agreed_input(rules: Ruleset, situation: Situation, total: object = None, patterns: object = None,
                 facts: Optional[Data] = None, seat_of: Optional[Callable[[str], str]] = None) -> Data:
    """A hand entered by what the table agreed (`hand_input`): the total as `parse_total` reads it, or the
    patterns as `parse_named` reads them (text, or {id: count}) — one of the two — and what the table told of the
    hand (`facts`, as `told.told_facts` reads them: {"open": 1, "kongs": ["concealed"], "wild_roles": 0}; a kong's
    seat read by `seat_of`, a table's players' names too)."""
    if (total is None) == (patterns is None):
        raise LedgerError("record.total_or_patterns")
    facts = dict(facts or {})
    counts: Optional[Dict[str, int]] = None
    if patterns is not None:
        if isinstance(patterns, dict):
            counts = dict(patterns)
        else:
            counts, roles = parse_named(rules, patterns)
            if roles is not None:
                facts.setdefault("wild_roles", roles)
    told = Told(**told_facts(facts, seat_of or parse_seat))  # checked now: the log keeps only what reads back
    return hand_input(None, situation, None if total is None else parse_total(rules, total), counts,
                      told.facts_json())


def score_input(rules: Ruleset, base: int, given: Data, state: State, number: int,
                paid: Sequence[DealPayment] = ()) -> Tuple[HandRecord, Optional[Analysis]]:
    """The hand `given` (`hand_input`) scored in `state` under `rules` at `base`: its record (without its id,
    seating and rules digest) and its Analysis (None for a draw). A draw reads `paid`, the payments made during
    its deal (`replay.payments_read`), a 杠上炮 win its kong's money (`Region.win_pays_back`); each names what it
    read in its record. A hand that is not a legal win is a LedgerError."""
    session, region = Session.of(rules), find_region(rules.region)
    entry = given["entry"]
    if entry == "draw":
        told = draw_facts(region, given.get("told") or {})
        with as_ledgers():  # a fact the deal makes impossible (a seat out of it)
            deltas = dict(region.draw_pays(rules, state, told, base, tuple(paid)))
        return HandRecord(number, state.round, state.dealer, state.streak, state.level, "draw", None, None, None,
                          None, {}, [], deltas, after_deal(state, session, region, rules), now(),
                          won=state.won, payments=tuple(p.payment_id for p in paid)), None
    placed = Situation(**given["situation"]).replace(dealer=state.dealer, base=base)
    for seat, role in ((placed.seat, "winner"), (placed.discarder, "discarder")):
        if seat is not None and seat in state.out:
            raise LedgerError("record.won_already", field="winner" if role == "winner" else "from",
                              seats=[seat])
    placed = region.at_table(rules, region.in_deal(rules, placed, state.won), state)
    if entry == "tiles":
        hand = _won_hand(given["hand"])
        result = analyze(hand, rules, placed)
        assert result.score is not None  # 14 tiles are scored
        if not result.score.complete:
            raise LedgerError("record.not_winning", reason=result.score.reason or Message("record.no_shape"))
        shown: Optional[str] = str(hand)
    else:
        result = score_agreed(rules, placed, given.get("total"), given.get("patterns"), given.get("told"))
        shown = None
    score = result.score
    assert score is not None
    if not score.legal:
        raise LedgerError("record.not_legal", reason=score.reason)
    assert result.payout is not None  # a legal win is paid
    refund = region.win_pays_back(rules, result.situation, tuple(paid))
    if any(refund.values()):  # 杠上炮's 退税: shown with the win, never doubled
        result.payout.add("退税", "refund", refund, doubled_at_table=False, whoever_wins=True)
    reading = next((o for o in region.options if o.reads_payment and result.situation.extra(o.name)), None)
    if reading is not None and not paid and result.situation.discarder is not None:
        result.warnings.append(Notice("record.nothing_paid_back", field=reading.name, option=reading.zh,
                                      seat=result.situation.discarder))
    deltas = result.payout.scaled(state.factor).deltas  # each part checked against MAX_AMOUNT again
    patterns = [{"id": m.pattern_id, "name": rules.pattern(m.pattern_id).zh, "value": m.value} for m in score.matches]
    discarder = None if score.self_drawn else result.situation.discarder
    record = HandRecord(number, state.round, state.dealer, state.streak, state.level, "win", shown, placed.seat,
                        discarder, score.total, result.situation.fields(), patterns, deltas,
                        after_deal(state, session, region, rules, placed.seat, discarder), now(), entry,
                        won=state.won, payments=tuple(p.payment_id for p in paid))
    return record, result


SEAT_PARAMS = ("seat", "seats", "discarder", "left")  # a refusal's parameters that name seats, named by player at a table


def by_players(error: MjcalcError, t: Table) -> MjcalcError:
    """A refusal of a write at a table (a hand, an edit, a draw, a penalty), its seats named by the players in them
    (`Bob (S)`), as the players know each other; the same refusal where it names none."""
    def named(seat: Any) -> Any:
        return f"{t.player(seat)} ({seat})" if isinstance(seat, str) and seat in SEATS else seat

    params = {k: ([named(v) for v in value] if isinstance(value, (list, tuple)) else named(value))
              if k in SEAT_PARAMS else value for k, value in error.params.items()}
    if params == error.params:
        return error
    return type(error)(error.code, field=error.field, label=error.label, **params)


def check_given(rules: Ruleset, given: Data) -> None:
    """A hand entered at a table does not give what the ledger fills from the deal itself (`Option.from_deal`: the
    seats that won earlier in it, `Region.in_deal`): one line if it does. (Checked when a hand is entered, never
    when the log is read again.)"""
    situation = given.get("situation") or {}
    for option in find_region(rules.region).options:
        if option.from_deal and situation.get(option.name):
            raise LedgerError("record.from_deal", field=option.name, label=option.label)


def check_draw(ledger: Ledger, t: Table, rules: Ruleset, given: Data) -> None:
    """A draw entered now, against what its deal has recorded (`Region.check_draw`: a deduction taken twice):
    one line if the region refuses it. (Checked when a draw is entered, never when the log is read again.)"""
    region = find_region(rules.region)
    start = len(ledger.hands(t)) - len(t.state.won)  # the hands played before the deal's first
    done = [(p.penalty, p.player) for p in ledger.penalties(t) if p.after_hand >= start]
    with as_ledgers():
        region.check_draw(rules, draw_facts(region, given.get("told") or {}), done)


def draw_facts(region: Region, told: Data) -> Dict[str, Any]:
    """What the table told of a draw (`Region.draw_facts`: each a list of seats), checked: a fact the region
    does not ask is refused, a seat is read as `parse_seat` reads it. A fact the region counts
    (`Region.draw_counted`: each seat with a number, `S:2`; a bare seat is 0) is {seat: number}."""
    out: Dict[str, Any] = {}
    for fact, seats in told.items():
        if fact not in region.draw_facts or not isinstance(seats, (str, list, tuple)):
            raise LedgerError("record.draw_fact", field=fact, fact=shown(fact),
                              known=list(region.draw_facts) or Message("ruleset.none"))
        if fact in region.draw_counted:
            counted = dict(_counted_seat(fact, word) for word in _seat_words(seats))
            out[fact] = {seat: counted[seat] for seat in SEATS if seat in counted}
        else:
            out[fact] = sorted({parse_seat(s) for s in _seat_words(seats)}, key=SEATS.index)
    return out


def _count_of(word: str) -> Tuple[str, Optional[str]]:
    """A counted fact's entry as written, `小李:2`: the seat or player, and the number (None when bare)."""
    who, sep, count = str(word).rpartition(":")
    return (who, count) if sep and who.strip() else (str(word), None)


def _counted_seat(fact: str, word: str) -> Tuple[str, int]:
    who, count = _count_of(word)
    return parse_seat(who), 0 if count is None else _checked_count(fact, word, count)


def _checked_count(fact: str, word: str, count: str) -> int:
    """The number after a seat in a counted draw fact (`小李:2`), or a LedgerError naming the entry as written."""
    if not (count.strip().isdigit() and int(count) <= MAX_DRAW_COUNT):
        raise LedgerError("record.draw_count", field=str(fact), value=shown(word), most=MAX_DRAW_COUNT)
    return int(count)


def _seat_words(seats: Union[str, Iterable[str]]) -> List[str]:
    """A draw fact's seats as given: a list, or one text with commas or spaces between ("E,小李")."""
    return seats.replace(",", " ").split() if isinstance(seats, str) else list(seats)


def told_seats(table: Table, told: Data) -> Dict[str, List[str]]:
    """What a front end was told of a draw ({"ready": "E,小李"} or lists), each seat read by its letter or by the
    player sitting there (`Table.seat`), for `hand_input(facts=…)`; a number after a seat (`小李:2`) is kept."""
    out: Dict[str, List[str]] = {}
    for fact, seats in told.items():
        entries, named = [], []
        for word in _seat_words(seats):
            who, count = _count_of(word)
            named.append(table.seat(who))
            entries.append(named[-1] + ("" if count is None else f":{_checked_count(fact, word, count)}"))
        twice = sorted({seat for seat in named if named.count(seat) > 1}, key=SEATS.index)
        if twice:  # a seat said twice (ready=E:1,E:2) is a mistake to ask about, never one to settle silently
            raise LedgerError("record.draw_seat_twice", field=str(fact),
                              seats=", ".join(f"{s} {table.player(s)}" for s in twice))
        out[str(fact)] = entries
    return out


# --- writing: every write is computed from the table as read, and kept only if it is still so -------------


@dataclass
class Written:
    """What a write did: the table it left, its event, the hand it recorded, edited or removed (`record`; for
    an edit `old` is the hand it replaced), the later hands whose payouts or state it changed (old, new), the
    standings, and, for a retried request, `replayed` with the answer the first one got."""

    table: Table
    kind: WrittenKind
    record: Optional[HandRecord] = None
    old: Optional[HandRecord] = None
    changed: List[Tuple[HandRecord, HandRecord]] = field(default_factory=list)
    hands: List[HandRecord] = field(default_factory=list)
    standings: List[Standing] = field(default_factory=list)
    old_standings: List[Standing] = field(default_factory=list)
    analysis: Optional[Analysis] = None
    rules: Optional[Ruleset] = None
    change: Optional[Change] = None
    replayed: bool = False
    answer: Optional[Data] = None
    made_at: int = 0  # the revision the write was computed from (what a preview showed)
    penalties: List[PenaltyRecord] = field(default_factory=list)  # the table's, after the write
    penalty: Optional[PenaltyRecord] = None  # the penalty the write recorded

    @property
    def hand(self) -> HandRecord:
        """The hand the write recorded, edited or removed (a write of a hand has one)."""
        assert self.record is not None, self.kind
        return self.record

    @property
    def made(self) -> Change:
        """The change the write made (or, previewed, would make)."""
        assert self.change is not None, self.kind
        return self.change


REQUEST_ID = re.compile(r"[\x21-\x7e]{1,64}")


def request_for(request_id: Optional[str], asked: Any) -> Optional[Request]:
    """A request id (1–64 printable ASCII, no space) and the digest of what the write `asked` (a JSON value:
    the same id with another request is refused), or None without an id."""
    if request_id is None:
        return None
    if not isinstance(request_id, str) or not REQUEST_ID.fullmatch(request_id):
        raise LedgerError("ledger.bad_request_id", field="request_id", label="--request-id",
                          request_id=repr(request_id)[:80])
    digest = hashlib.sha256(json.dumps(asked, ensure_ascii=False, sort_keys=True, default=str).encode()).hexdigest()
    return Request(request_id, digest)


def request_answer(ledger: Ledger, request: Optional[Request]) -> Optional[Data]:
    """If `request` was made already (the same id, the same request), the answer it got, with `"replayed":
    true`: nothing is written twice. The same id with another request is refused; None for a new one."""
    if request is None:
        return None
    kept = ledger.request(request.id)
    if kept is None:
        return None
    digest, answer = kept
    if digest != request.digest:
        raise LedgerError("ledger.request_reused", field="request_id", label="--request-id", request_id=request.id)
    return dict(answer or {}, replayed=True)


def _replay_of(ledger: Ledger, table: Table, request: Optional[Request]) -> Optional[Written]:
    """The write `request` made already, answered as it was then, or None."""
    answer = request_answer(ledger, request)
    return None if answer is None else Written(table, "replay", replayed=True, answer=answer)


class _Rules:
    """The rules a table's hands were recorded under, by digest, each read from the ledger once."""

    def __init__(self, ledger: Ledger, table: Table, current: Optional[Ruleset] = None) -> None:
        self.ledger, self.table = ledger, table
        self.known: Dict[Optional[str], Ruleset] = {}
        if current is not None:
            self.known[table.rules_sha256] = current

    def __call__(self, sha256: Optional[str]) -> Ruleset:
        if sha256 not in self.known:
            text = self.ledger.rules_text(sha256) if sha256 else None
            self.known[sha256] = kept_rules(text) if text else table_rules(self.table, self.ledger)
        return self.known[sha256]


def rules_reader(ledger: Ledger, table: Table) -> "_Rules":
    """The rules `table`'s hands and events were recorded under, by digest: call it with a digest (each read
    from the ledger once)."""
    return _Rules(ledger, table)


@lru_cache(maxsize=64)
def kept_rules(text: str) -> Ruleset:
    """`rules_from_json`, once per text (a ruleset is frozen: every table kept under it shares it)."""
    return rules_from_json(text)


def _evening(ledger: Ledger, t: Table, event: Tuple[EventKind, Data], rules: _Rules, fresh: Optional[str] = None,
             before: Optional[List[HandRecord]] = None) -> Tuple[Evening, List[HandRecord], Optional[Analysis]]:
    """The table replayed with `event` added: (Evening, its hands, the Analysis of hand `fresh` if it was
    scored). A hand that no longer scores in its new state is a LedgerError naming it. A result the log kept
    for another state, used again (an edit reverted, a dealer moved back), is scored again first and must be
    what the log says (`_proven`); `before`: the table's hands now, when the caller has read them."""
    analyses: Dict[str, Analysis] = {}

    def score(given: Data, state: State, sha256: Optional[str], hand_id: str, number: int,
              paid: Tuple[DealPayment, ...]) -> Data:
        try:
            record, result = score_input(rules(sha256), t.base, given, state, number, paid)
        except LedgerError as exc:
            if hand_id == fresh:
                raise
            raise LedgerError("record.later_hand_fails", number=number, reason=exc.message) from None
        if result is not None:
            analyses[hand_id] = result
        return record.but(hand_id=hand_id, rules_sha256=sha256).to_json()

    fast = _appended(ledger, t, event, before, score,
                     lambda: Session.of(rules(t.rules_sha256)).seat_rotation if t.rules_sha256 else "none")
    if fast is not None:
        return fast + (analyses.get(fresh or ""),)
    events = ledger.events(t)
    try:
        evening = replay(events + [event], score)
    except ReplayError as exc:
        raise LedgerError("ledger.log_damaged", table=repr(t.name), reason=str(exc)) from None
    _stamp(event, evening.scored)
    hands = [HandRecord.of(h) for h in evening.hands]
    before = ledger.hands(t) if before is None else before
    if event[0] in ("undo", "revert", "edit"):  # (a correction of the seats from the start moves them on purpose)
        _seats_kept(hands, before)
    _proven(t, events, evening, hands, before, {r["hand_id"] for r in evening.scored}, rules)
    return evening, hands, analyses.get(fresh or "")


def _seats_kept(hands: List[HandRecord], before: List[HandRecord]) -> None:
    """A change that would move a later hand into other seats is refused: where the players change seats as each
    round ends (国标's `seat_rotation`), taking a hand back (or putting one back) moves the later ones across a
    round's end, and a hand entered as won by one player would be paid to another (a draw that names no seat
    moves harmlessly). The count is kept by making the hand a draw instead."""
    was = {h.hand_id: h for h in before}
    for hand in hands:
        old = was.get(hand.hand_id)
        names_seats = hand.input.get("entry") != "draw" or bool(hand.input.get("told"))
        if old is not None and names_seats and tuple(old.players) != tuple(hand.players):
            raise LedgerError("record.seats_would_move", number=old.number, now=hand.number)


def _stamp(event: Tuple[EventKind, Data], scored: List[Data]) -> None:
    """The event keeps the results its write scored, and which scorer scored them (`proof.SCORER`)."""
    event[1]["records"] = scored
    if scored:
        event[1]["scorer"] = proof.SCORER


@dataclass
class _Appended(Evening):
    """The table with its last hand added or removed (`_appended`): the first `keep` hands are the very hands
    it had."""

    keep: int = 0


def _appended(ledger: Ledger, t: Table, event: Tuple[EventKind, Data], before: Optional[List[HandRecord]],
              score: Score, rotation: Callable[[], str]) -> Optional[Tuple[_Appended, List[HandRecord]]]:
    """The table with `event` added, when the event only adds or removes the evening's last hand: (Evening, its
    hands) from the table as it stands — its next state, seating and hands, which the check proved are what its
    log replays to — without replaying the log (a write costs the same at hand 400 as at hand 4); else None.
    What the replay would make, exactly: the new hand scored in the table's next state, or the state before the
    last hand when it goes, and the seating then (`rotation()`: the rules' `seat_rotation`, as a round ends)."""
    kind, data = event
    if before is None or kind not in ("hand", "undo"):
        return None
    penalties = [p.to_json() for p in ledger.penalties(t)]
    if kind == "hand":
        number = len(before) + 1
        paid = payments_read(data["input"], penalties, number, t.state,
                             spent_in_deal([h.payments for h in before], t.state))
        record = score(data["input"], t.state, t.rules_sha256, data["hand_id"], number, paid)
        _stamp(event, [record])
        placed = HandRecord.of(dict(record, number=len(before) + 1, players=list(t.players),
                                    recorded=data["recorded"], input=data["input"]))
        seated = rotated(t.players, rotation(), t.state.round) if placed.after.round > t.state.round else t.players
        return (_Appended(state=placed.after, players=seated, penalties=penalties, keep=len(before)),
                before + [placed])
    if not before or before[-1].hand_id != data["hand_id"] or not ledger.placed_last(t, data["hand_id"]):
        return None  # a hand before others, or with a correction or a penalty after it: the log is replayed
    if any(p["after_hand"] >= len(before) for p in penalties):
        return None
    _stamp(event, [])
    seated = before[-1].players if rotation() != "none" else t.players  # the seats the hand was played in
    return (_Appended(state=before[-1].before, players=seated, penalties=penalties, keep=len(before) - 1),
            before[:-1])


def _key(record: HandRecord) -> ResultKey:
    return result_key(record.hand_id, record.before, record.rules_sha256, record.payments)


def _proven(t: Table, events: List[Tuple[str, Data]], evening: Evening, hands: List[HandRecord],
            before: List[HandRecord], scored: Set[str], rules: _Rules) -> None:
    """Each hand the write pays from a result the log kept but the table did not use until now is scored again
    from its entry and compared: a result changed in the file (or in an export) is refused, never paid. What an
    older scorer kept is the table's word (`proof`)."""
    using = {_key(h) for h in before}
    fresh = [h for h in hands if h.hand_id not in scored and _key(h) not in using]
    if not fresh:
        return
    ours = {stored_key(r) for _, r, mine in proof.stored_results((0, kind, data) for kind, data in events) if mine}
    for record in fresh:
        if _key(record) not in ours:
            continue
        read = [h.get("payments") or () for h in evening.hands[:record.number - 1]]
        paid = payments_read(record.input, evening.penalties, record.number, record.before,
                             spent_in_deal(read, record.before))
        again, _ = score_input(rules(record.rules_sha256), t.base, record.input, record.before, record.number, paid)
        what = proof.difference(record.to_json(), again.to_json())
        if what:
            raise LedgerError("ledger.log_damaged", table=repr(t.name),
                              reason=Message("ledger.result_changed", number=record.number, what=what))


def _change(t: Table, kind: EventKind, data: Data, evening: Evening, hands: List[HandRecord],
            before: List[HandRecord], rules: Optional[Tuple[str, str, str]] = None) -> Change:
    keep = evening.keep if isinstance(evening, _Appended) else 0
    while keep < min(len(hands), len(before)) and hands[keep] == before[keep]:
        keep += 1
    same = tuple(n for n in range(keep + 1, min(len(hands), len(before)) + 1) if hands[n - 1] == before[n - 1])
    east, south, west, north = evening.players  # four: the table's check proved its log seats four
    return Change(kind, data, hands, keep, evening.state, (east, south, west, north), rules,
                  penalties=tuple(PenaltyRecord.of(p) for p in evening.penalties), same=same)


def _differences(before: List[HandRecord], after: List[HandRecord], skip: Set[str], same: int = 0
                 ) -> List[Tuple[HandRecord, HandRecord]]:
    """The hands that stay but are paid or placed otherwise: (as they were, as they are now); the first `same`
    are known to be the same hands (`Change.keep`)."""
    old = {h.hand_id: h for h in before[same:]}
    return [(old[h.hand_id], h) for h in after[same:] if h.hand_id in old and h.hand_id not in skip
            and (old[h.hand_id].deltas, old[h.hand_id].before, old[h.hand_id].number, old[h.hand_id].players)
            != (h.deltas, h.before, h.number, h.players)]


SINCE_HAND = {"hand": "ledger.since_hand", "edit": "ledger.since_edit"}
SINCE = {"revert": "ledger.since_revert", "seat": "ledger.since_seat", "seat_start": "ledger.since_seat",
         "dealer": "ledger.since_dealer", "rules": "ledger.since_rules", "state": "ledger.since_dealer",
         "penalty": "ledger.since_penalty", "close": "ledger.since_close"}


def changes_since(ledger: Ledger, t: Table, revision: int) -> List[Message]:
    """What was written to the table after `revision` (what a player was shown), in words a player knows: the
    hands recorded, changed or removed (by number, with how each ended), a correction, a penalty."""
    hands = {h.hand_id: h for h in ledger.hands(t)}
    said: List[Message] = []
    for event in ledger.log(t):
        if event["revision"] <= revision:
            continue
        kind, data = event["kind"], event["data"]
        hand = hands.get(data.get("new_id") if kind == "edit" else data.get("hand_id"))
        if kind in ("hand", "edit") and hand is not None:
            said.append(Message(SINCE_HAND[kind], number=hand.number, result=t.result(hand)))
        elif kind in ("hand", "edit", "undo"):
            said.append(Message("ledger.since_undo"))
        else:
            said.append(Message(SINCE.get(kind, "ledger.since_other")))
    return said


def hand_now(ledger: Ledger, t: Table, hand_id: str) -> Optional[HandRecord]:
    """The hand a player was shown as `hand_id`, as it is now: itself, or what the edits since made of it; None
    when it was removed."""
    hands = {h.hand_id: h for h in ledger.hands(t)}
    ids = [hand_id]  # it, and each hand an edit put in its place (a revert of an edit brings back the one before)
    for event in ledger.log(t):
        if event["kind"] == "edit" and event["data"].get("hand_id") in ids:
            ids.append(event["data"].get("new_id"))
    return next((hands[i] for i in reversed(ids) if i in hands), None)


def _standings_after(ledger: Ledger, t: Table, change: Change) -> List[Standing]:
    """The standings after `change` (`standings_of`): from the standings now when it only adds or removes the
    last hand (a write costs the same at hand 400 as at hand 4), else counted again."""
    if change.players == t.players and change.penalties == tuple(ledger.penalties(t)):
        before = ledger.hands(t)
        moved = None
        if len(before) == change.keep and len(change.hands) == change.keep + 1:
            moved = standings_with(ledger.standings(t), change.hands[-1])
        elif len(change.hands) == change.keep and len(before) == change.keep + 1:
            moved = standings_with(ledger.standings(t), before[-1], -1)
        if moved is not None:
            return moved
    return standings_of(change.players, change.hands, change.penalties)


def _write(ledger: Ledger, table: Table, make: Callable[[Table], Written], request: Optional[Request] = None,
           revision: Optional[int] = None, dry_run: bool = False, closing: bool = False) -> Written:
    """Make a write from the table as it stands (`make(table)` → Written with its Change) and keep it if the
    table is still so; else make it again from the new state. With `revision` (what a player was shown), a
    table that moved on since is refused instead. A request already made answers as it did then."""
    for _ in range(ATTEMPTS):
        t = ledger.table(table.name)
        replayed = _replay_of(ledger, t, request)
        if replayed is not None:
            return replayed
        if t.closed and not closing:  # closing or reopening is the one write a closed table takes
            raise LedgerError("ledger.table_closed", table=repr(t.name), name=t.name,
                              closed=t.closed[:16].replace("T", " "))
        if revision is not None and t.revision != revision:
            raise LedgerError("ledger.stale_revision", table=repr(t.name), what=changes_since(ledger, t, revision))
        try:
            written = make(t)
        except LedgerFileError:
            raise
        except MjcalcError as exc:  # a refusal names each seat by its player, as the players know each other
            raise by_players(exc, t) from None
        written.made_at = t.revision
        change = written.change
        if change is None:  # a hand scored only
            return written
        after = replace(t, revision=t.revision + 1, players=change.players, state=change.state)
        if change.close is not None:
            after = replace(after, closed=now() if change.close else None)
        if change.rules is not None:
            after = replace(after, ruleset=change.rules[0], ruleset_id=change.rules[1], rules=change.rules[2],
                            rules_sha256=rules_digest(change.rules[2]))
        written.table = after
        written.hands = change.hands
        change = replace(change, standings=tuple(_standings_after(ledger, t, change)))
        written.standings = list(change.standings or ())
        written.penalties = list(change.penalties)
        if dry_run:
            written.old_standings = ledger.standings(t)
            return written
        if request is not None:
            written.answer = written_json(written)
            change = replace(change, request=replace(request, answer=written.answer))
        try:
            if ledger.write(t, t.revision, change):
                return written
        except LedgerError as exc:
            if exc.code != "ledger.request_taken":  # the same request, made meanwhile: answer as it was
                raise
    raise LedgerError("record.kept_changing", table=repr(table.name))


DUPLICATE_SECONDS = 60  # a hand equal to the last one recorded this recently, from elsewhere, is asked about


def check_client(client: Optional[str]) -> Optional[str]:
    """A client id (the page's, kept by the browser): 1–64 printable ASCII, no space; None for none."""
    if client is not None and (not isinstance(client, str) or not REQUEST_ID.fullmatch(client)):
        raise LedgerError("record.bad_client_id", field="client_id", client_id=repr(client)[:80])
    return client


def _duplicate(ledger: Ledger, t: Table, before: List[HandRecord], given: Data, client: Optional[str]) -> None:
    """Refuse a hand equal to the table's last one (winner, from, how entered, the total, patterns or tiles, the
    situation) recorded less than `DUPLICATE_SECONDS` ago by another phone or the command line, with nothing
    written since: two players entering the same hand. The same phone entering it again meant it."""
    last = before[-1] if before else None
    if last is None or last.input != given:
        return
    age = (datetime.now(timezone.utc) - datetime.fromisoformat(last.recorded)).total_seconds()
    if not 0 <= age < DUPLICATE_SECONDS:
        return
    kind, data = ledger.last_event(t) or ("", {})
    if kind != "hand" or data.get("hand_id") != last.hand_id:
        return  # the table was corrected since (seats, rules, an edit, a penalty): not a second entry of it
    made_by = data.get("client")
    if client is not None and made_by == client:
        return
    raise LedgerError("record.duplicate", duplicate_of=last.number, hand_id=last.hand_id, seconds=int(age),
                      result=t.result(last), where=Message("record.duplicate_phone" if made_by else "record.duplicate_cli"))


def unusual(rules: Ruleset, given: Data, result: Optional[Analysis]) -> Optional[LedgerError]:
    """Why a hand entered without its tiles is asked about before it is recorded, or None: its total (before the
    cap) is above the ruleset's cap, or above what a real hand usually reaches (`told.usual_total`). A flat
    amount is what its pattern pays, never asked about."""
    if given.get("entry") not in ("total", "patterns") or result is None or result.score is None:
        return None
    score = result.score
    total = score.total if score.uncapped is None else score.uncapped
    if any(result.region.paid_flat(rules, m.pattern_id) for m in score.matches):
        return None
    if rules.cap is not None:
        if total <= rules.cap:
            return None
        return LedgerError("record.total_above_cap", field="total", total=total, unit=rules.unit_zh,
                           ruleset=rules.id, cap=rules.cap)
    if total <= max((p.value for p in rules.patterns), default=0):  # one pattern's worth: never unusual
        return None
    usual, how = usual_total(rules)
    if total <= usual:
        return None
    return LedgerError("record.total_unusual", field="total", total=total, unit=rules.unit_zh, ruleset=rules.id,
                       usual=usual, how=how)


def record_given(ledger: Ledger, table: Table, given: Data, rules: Optional[Ruleset] = None, dry_run: bool = False,
                 request: Optional[Request] = None, revision: Optional[int] = None, client: Optional[str] = None,
                 refuse_duplicate: bool = False, confirm_total: bool = False) -> Written:
    """Record the hand `given` (`hand_input`) as the table's next hand, scored in the table's state with its
    rules and base (with `dry_run`, only score it: a preview, whose `made_at` is the revision it was scored
    at). With `revision` (what a preview showed), a table that moved on since refuses it. `client`: the phone
    that sent it; with `refuse_duplicate`, a hand that repeats the last one from elsewhere is refused
    (`_duplicate`) until it is sent again with it off. A total above what a hand usually reaches (`unusual`) is
    refused until it is sent again with `confirm_total` (a preview says it)."""
    check_client(client)

    def make(t: Table) -> Written:
        current = rules if rules is not None and t.rules and rules_json(rules) == t.rules else table_rules(t, ledger)
        check_given(current, given)
        if given.get("entry") == "draw":
            check_draw(ledger, t, current, given)
        hand_id = new_hand_id()
        data: Data = {"hand_id": hand_id, "input": given, "recorded": now()}
        if client is not None:
            data["client"] = client
        if dry_run:
            number = ledger.state(t)[0] + 1
            paid = payments_read(given, [p.to_json() for p in ledger.penalties(t)], number, t.state,
                                 spent_in_deal([h.payments for h in ledger.hands(t)], t.state))
            record, result = score_input(current, t.base, given, t.state, number, paid)
            record = record.but(hand_id=hand_id, players=t.players, rules_sha256=t.rules_sha256, input=given)
            asked = unusual(current, given, result)
            if asked is not None and result is not None:
                result.warnings.append(Notice(asked.code, field="total", **asked.params))
            return Written(t, "hand", record, analysis=result, rules=current)
        before = ledger.hands(t)
        if refuse_duplicate:
            _duplicate(ledger, t, before, given, client)
        evening, hands, result = _evening(ledger, t, ("hand", data), _Rules(ledger, t, current), fresh=hand_id,
                                          before=before)
        asked = None if confirm_total else unusual(current, given, result)
        if asked is not None:
            raise asked
        return Written(t, "hand", hands[-1], analysis=result, rules=current,
                       change=_change(t, "hand", data, evening, hands, before))

    return _write(ledger, table, make, request, revision, dry_run)


def record_win(ledger: Ledger, table: Table, hand_text: str, situation: Situation, rules: Optional[Ruleset] = None,
               dry_run: bool = False, request: Optional[Request] = None
               ) -> Tuple[Optional[HandRecord], Optional[Analysis]]:
    """Score `hand_text` won in `situation` with the table's ruleset, base and current dealer, and record it
    (with `dry_run`, only score it). Returns (the record, the Analysis): (None, None) for a retried request,
    which records nothing again. A hand that is not a legal win is an error and records nothing."""
    written = record_given(ledger, table, hand_input(hand_text, situation), rules, dry_run, request)
    return written.record, written.analysis


def record_quick(ledger: Ledger, table: Table, situation: Situation, total: Optional[int] = None,
                 patterns: object = None, rules: Optional[Ruleset] = None, dry_run: bool = False,
                 request: Optional[Request] = None, facts: Optional[Data] = None, confirm_total: bool = False
                 ) -> Tuple[Optional[HandRecord], Optional[Analysis]]:
    """Record a won hand from what the table agreed, without its tiles (`score_agreed`): the winner is
    `situation.seat`, the discarder `situation.discarder` (None for a self-draw). `patterns` is text
    (`对对和,庄`) or {id: count}; `facts` what the table told of the hand (`told.told_facts`). Returns (the record,
    the Analysis), (None, None) for a retried request; an illegal win records nothing, and `dry_run` records
    nothing either."""
    rules = table_rules(ledger.table(table.name), ledger)  # as the table plays now, whatever `table` was read as
    written = record_given(ledger, table, agreed_input(rules, situation, total, patterns, facts), rules, dry_run,
                           request, confirm_total=confirm_total)
    return written.record, written.analysis


def record_draw(ledger: Ledger, table: Table, rules: Optional[Ruleset] = None,
                request: Optional[Request] = None) -> HandRecord:
    """Record a drawn hand 荒牌: nobody pays; the dealer and 上楼 move as the ruleset says."""
    return record_given(ledger, table, hand_input(), rules, request=request).hand


# --- changing what was recorded ---------------------------------------------------------------------------


Shown = Union[int, str, HandRecord]  # a hand as a player was shown it: its number, its id, or the record itself


def _shown_hand(t: Table, hands: List[HandRecord], shown: Optional[Shown], done: str) -> HandRecord:
    """The hand a player was shown and means: a hand id, a HandRecord (that very hand), or a hand number (the
    hand there now). Refused, with what is there now, when that hand is no longer in the table (None names no
    hand: a front end passes it where a retried request is answered before any hand is read)."""
    if isinstance(shown, int) and not isinstance(shown, bool):
        for record in hands:
            if record.number == shown:
                return record
        raise LedgerError("ledger.no_such_hand", table=repr(t.name), number=shown, count=len(hands))
    hand_id = shown.hand_id if isinstance(shown, HandRecord) else str(shown)
    for record in hands:
        if record.hand_id == hand_id:
            if isinstance(shown, HandRecord) and record.number != shown.number:
                break
            return record
    if isinstance(shown, HandRecord):
        there = next((h for h in hands if h.number == shown.number), None)
        now_there = t.brief(there) if there else Message("ledger.no_hand_now", number=shown.number)
        raise LedgerError("ledger.hand_replaced", table=repr(t.name), now=now_there, shown=t.brief(shown), done=done)
    raise LedgerError("ledger.no_hand_id", table=repr(t.name), hand_id=repr(hand_id), done=done)


def undo_hand(ledger: Ledger, table: Table, shown: Optional[Shown], request: Optional[Request] = None,
              revision: Optional[int] = None, dry_run: bool = False) -> Written:
    """Remove the hand `shown` (`_shown_hand`); the later hands are replayed, each keeping its payouts where its
    state did not change. With `dry_run`, what it would do (the later hands it changes), written nowhere."""
    def make(t: Table) -> Written:
        before = ledger.hands(t)
        if not before:
            raise LedgerError("ledger.nothing_to_undo", table=repr(t.name))
        gone = _shown_hand(t, before, shown, "removed")
        data = {"hand_id": gone.hand_id}
        known = _Rules(ledger, t)
        evening, hands, _ = _evening(ledger, t, ("undo", data), known, before=before)
        change = _change(t, "undo", data, evening, hands, before)
        return Written(t, "undo", gone, changed=_differences(before, hands, {gone.hand_id}, change.keep),
                       change=change, rules=known(gone.rules_sha256))

    return _write(ledger, table, make, request, revision, dry_run)


def edit_hand(ledger: Ledger, table: Table, shown: Optional[Shown], given: Data, dry_run: bool = False,
              request: Optional[Request] = None, revision: Optional[int] = None,
              confirm_total: bool = False) -> Written:
    """Replace the hand `shown` wholly by the hand `given` (`hand_input`), scored in its place; the later hands
    keep their entries and are replayed (a hand whose state did not change keeps its payouts; another is scored
    again under its own rules). With `dry_run`, what it would do, written nowhere. A total above what a hand
    usually reaches is refused until sent again with `confirm_total` (`unusual`)."""
    def make(t: Table) -> Written:
        before = ledger.hands(t)
        old = _shown_hand(t, before, shown, "changed")
        new_id = new_hand_id()
        data = {"hand_id": old.hand_id, "new_id": new_id, "input": given}
        known = _Rules(ledger, t)
        check_given(known(old.rules_sha256), given)
        evening, hands, result = _evening(ledger, t, ("edit", data), known, fresh=new_id, before=before)
        new = hands[old.number - 1]
        asked = None if confirm_total or dry_run else unusual(known(new.rules_sha256), given, result)
        if asked is not None:
            raise asked
        later = _differences(before, hands, {old.hand_id})
        if not later and _as_recorded(new) == _as_recorded(old):
            raise LedgerError("ledger.edit_unchanged", table=repr(t.name), number=old.number)
        change = _change(t, "edit", data, evening, hands, before)
        return Written(t, "edit", new, old, later, hands, analysis=result,
                       change=change, rules=known(new.rules_sha256))

    return _write(ledger, table, make, request, revision, dry_run)


def _as_recorded(h: HandRecord) -> Tuple[Any, ...]:
    """What a player sees of a recorded hand: an edit that changes none of it changes nothing."""
    return (h.kind, h.hand, h.winner, h.discarder, h.total, h.situation, h.patterns, h.deltas, h.entry, h.after)


def revert_event(ledger: Ledger, table: Table, revision_taken_back: int, request: Optional[Request] = None,
                 revision: Optional[int] = None, dry_run: bool = False) -> Written:
    """Take back the edit or the undo the table's log has at `revision_taken_back`: the hand it replaced or
    removed is back in its place with what it was paid (where its state is the same again). With `dry_run`,
    what it would do, written nowhere."""
    def make(t: Table) -> Written:
        log = ledger.log(t)
        target = next((e for e in log if e["revision"] == revision_taken_back), None)
        reverted = {e["data"].get("revision") for e in log if e["kind"] == "revert"}
        if revision_taken_back in reverted:
            raise LedgerError("ledger.reverted_already", table=repr(t.name), revision=revision_taken_back)
        if target is None or target["kind"] not in REVERTIBLE:
            open_ones = [f"{e['revision']} {e['kind']}" for e in log
                         if e["kind"] in REVERTIBLE and e["revision"] not in reverted]
            hint = Message("ledger.hint_revertible", kinds=open_ones) if open_ones else Message("ledger.hint_none")
            raise LedgerError("ledger.not_revertible", table=repr(t.name), revision=revision_taken_back, hint=hint)
        before = ledger.hands(t)
        data = {"revision": revision_taken_back}
        try:
            timeline(ledger.events(t) + [("revert", data)])
        except ReplayError:
            touched = target["data"].get("new_id") or target["data"].get("hand_id")
            later = [e["revision"] for e in log if e["revision"] > revision_taken_back and e["revision"] not in reverted
                     and e["kind"] in ("edit", "undo") and e["data"].get("hand_id") == touched]
            raise LedgerError("ledger.revert_blocked", table=repr(t.name), revision=revision_taken_back,
                              later=later[-1] if later else "a later one") from None
        evening, hands, _ = _evening(ledger, t, ("revert", data), _Rules(ledger, t), before=before)
        back = target["data"].get("hand_id")
        record = next((h for h in hands if h.hand_id == back), None)
        written = Written(t, "revert", record, changed=_differences(before, hands, {back}),
                          change=_change(t, "revert", data, evening, hands, before))
        if target["kind"] == "penalty":
            written.penalty = next(p for p in ledger.penalties(t) if p.penalty_id == target["data"]["penalty_id"])
        return written

    return _write(ledger, table, make, request, revision, dry_run)


REVERTIBLE = ("edit", "undo", "penalty")  # what `revert_event` takes back


# --- between hands: penalties, closing ----------------------------------------------------------------------

MAX_REASON = 200  # characters of a penalty's reason


def find_penalty(rules: Ruleset, name: str) -> Penalty:
    """The ruleset's penalty named by its id or either name (`false_win`, `诈和`, `false win`)."""
    text = str(name).strip()
    for penalty in rules.penalties:
        if text in (penalty.id, penalty.zh, penalty.en):
            return penalty
    if not rules.penalties:
        raise LedgerError("record.no_penalties", field="penalty", ruleset=rules.id)
    names = [p.zh for p in rules.penalties] + [p.id for p in rules.penalties]
    raise LedgerError("record.no_penalty", field="penalty", ruleset=rules.id, name=repr(text),
                      hint=did_you_mean(text, names) or Message("hint.known", known=names))


def penalty_amount(rules: Ruleset, penalty: Penalty, base: int) -> int:
    """What the player at fault pays each player paid: the points, or a hand of the total to one payer (the
    scheme's `unit_points`), times 底分."""
    return region_penalty_amount(find_region(rules.region), rules, penalty, base)


def penalty_kinds(rules: Ruleset, base: int) -> List[Data]:
    """The penalties the rules declare, each with what it costs at the table's 底分, as the API gives them."""
    return [{"id": p.id, "zh": p.zh, "en": p.en, "pays": p.pays, "points": p.points, "total": p.total,
             "unit": rules.unit_zh, "amount": penalty_amount(rules, p, base), **({"gets": True} if p.gets else {})}
            for p in rules.penalties]


def record_penalty(ledger: Ledger, table: Table, name: str, player: str, to: Optional[str] = None,
                   reason: str = "", request: Optional[Request] = None, revision: Optional[int] = None) -> Written:
    """Record the ruleset's penalty `name` against `player` (a seat or a name), paid to each other player or to
    `to`, with a `reason`: an event between hands that takes no hand number and leaves the deal where it is. Its
    amount is fixed when it is recorded (the table's word, never worked out again)."""
    reason = " ".join(str(reason or "").split())
    if len(reason) > MAX_REASON:
        raise LedgerError("record.reason_too_long", field="reason", limit=MAX_REASON, size=len(reason))
    visible(reason)

    def make(t: Table) -> Written:
        rules = table_rules(t, ledger)
        penalty = find_penalty(rules, name)
        seat = t.seat(player)
        paid = [s for s in SEATS if s != seat and s not in t.state.out]  # those who won in the deal are out of it
        if penalty.pays == "one":
            if to is None:
                raise LedgerError("record.payment_needs_to" if penalty.gets else "record.penalty_needs_to", field="to",
                                  name=penalty.zh)
            paid = [t.seat(to)]
            if paid == [seat]:
                raise LedgerError("record.penalty_to_self", field="to", name=penalty.zh, player=t.player(seat))
        elif to is not None:
            raise LedgerError("record.payment_from_each" if penalty.gets else "record.penalty_pays_each", field="to",
                              name=penalty.zh)
        for who, role in ((seat, "player"), *((s, "to") for s in paid)):
            if who in t.state.out:
                raise LedgerError("record.won_already", field=role, seats=[who])
        amount = penalty_amount(rules, penalty, t.base) * (-1 if penalty.gets else 1)
        deltas = {s: 0 for s in SEATS}
        for s in paid:
            deltas[s] += amount
            deltas[seat] -= amount
        data = {"penalty_id": new_hand_id(), "penalty": penalty.id, "name": penalty.zh, "player": seat,
                "to": paid[0] if penalty.pays == "one" else None, "reason": reason, "deltas": deltas,
                "recorded": now()}
        before = ledger.hands(t)
        evening, hands, _ = _evening(ledger, t, ("penalty", data), _Rules(ledger, t))
        change = _change(t, "penalty", data, evening, hands, before)
        written = Written(t, "penalty", change=change)
        written.penalty = next(p for p in change.penalties if p.penalty_id == data["penalty_id"])
        return written

    return _write(ledger, table, make, request, revision)


def close_table(ledger: Ledger, table: Table, closed: bool = True, request: Optional[Request] = None) -> Written:
    """Close a settled table against accidental writes (every write is refused until it is reopened), or
    reopen it (`closed` False). Closing a closed table, or opening an open one, writes nothing."""
    def make(t: Table) -> Written:
        if bool(t.closed) == closed:
            return Written(t, "close")
        data = {"closed": closed}
        before = ledger.hands(t)
        evening, hands, _ = _evening(ledger, t, ("close", data), _Rules(ledger, t))
        return Written(t, "close", change=replace(_change(t, "close", data, evening, hands, before), close=closed))

    return _write(ledger, table, make, request, closing=True)


def _correction(ledger: Ledger, table: Table, kind: EventKind, data_of: Callable[[Table], Data],
                request: Optional[Request] = None, rules: Optional[Tuple[str, str, str]] = None,
                revision: Optional[int] = None, dry_run: bool = False) -> Written:
    """A seat change, a dealer correction or a rules switch: an event between hands, in the timeline from the
    next hand on (`seat_start` corrects the whole evening)."""
    def make(t: Table) -> Written:
        data = data_of(t)
        before = ledger.hands(t)
        evening, hands, _ = _evening(ledger, t, (kind, data), _Rules(ledger, t))
        return Written(t, kind, changed=_differences(before, hands, set()),
                       change=_change(t, kind, data, evening, hands, before, rules))

    return _write(ledger, table, make, request, revision, dry_run)


def seat_players(ledger: Ledger, table: Table, players: Dict[str, str], from_start: bool = False,
                 request: Optional[Request] = None, revision: Optional[int] = None, dry_run: bool = False,
                 dealer: Optional[str] = None) -> Written:
    """Who sits where from the next hand on (`players`: every seat E S W N): the deal stays with the seat, 连庄
    starts again when the dealer's seat changes person, a new name joins and a person who leaves keeps their
    standing. With `from_start`, the seating of the first hand is corrected instead: a name new to the table
    renames the person it replaces in every hand."""
    names = check_players(players)

    def data_of(t: Table) -> Data:
        if not from_start:
            return {"players": names, **({"dealer": dealer} if dealer else {})}
        opening = opening_players(ledger, t)
        known = {p for h in ledger.hands(t) for p in h.players} | set(t.players) | set(opening)
        renames = {old: new for old, new in zip(opening, names) if old != new and new not in known}
        return {"players": names, "renames": renames}

    return _correction(ledger, table, "seat_start" if from_start else "seat", data_of, request, revision=revision,
                       dry_run=dry_run)


def seating_with(players: Sequence[str], changes: Dict[str, str]) -> Dict[str, str]:
    """The seating `players` (E S W N) with `changes` ({seat: name}): a name that sat elsewhere swaps with the
    seat's person; a new name takes the seat."""
    named = list(changes.values())
    twice = next((p for p in named if named.count(p) > 1), None)
    if twice is not None:  # one person, one seat: a second seat would move people nobody named
        raise LedgerError("ledger.same_players", player=repr(twice))
    seated = dict(zip(SEATS, players))
    for seat, player in changes.items():
        old = next((s for s, p in seated.items() if p == player), None)
        if old is not None and old != seat:
            seated[old] = seated[seat]
        seated[seat] = player
    return seated


def opening_players(ledger: Ledger, table: Table) -> Tuple[str, ...]:
    """Who sat where at the first hand, as the log says now (its opening, corrected by `seat --from-start`)."""
    return tuple(timeline(ledger.events(table))[0].get("players", table.players))


def as_played(ledger: Ledger, table: Table, number: int) -> Tuple[Table, Ruleset]:
    """Hand `number` as it was played: the table seated as it was then, and the rules it was recorded under (to
    read an edit of it)."""
    hands = ledger.hands(table)
    record = next((h for h in hands if h.number == number), None)
    if record is None:
        raise LedgerError("ledger.no_such_hand", table=repr(table.name), number=number, count=len(hands))
    players = tuple(record.players)  # () before seats were kept
    played = replace(table, players=players if len(players) == 4 else table.players)
    return played, _Rules(ledger, table)(record.rules_sha256)


def preview_seating(ledger: Ledger, table: Table, players: Dict[str, str]) -> Written:
    """What correcting the first hand's seating to `players` would change, written nowhere."""
    return seat_players(ledger, table, players, from_start=True, dry_run=True)


def hand_rules(ledger: Ledger, table: Table, hands: List[HandRecord], rules: Ruleset
               ) -> Dict[Optional[str], Ruleset]:
    """The rules each hand was recorded under, by their digest (`rules`: the table's now), so that a hand is
    described in its own rules' words (惠 or 财神, 番 or 台) after a switch."""
    known = _Rules(ledger, table, rules)
    return {h.rules_sha256: known(h.rules_sha256) for h in hands}


def hand_units(ledger: Ledger, table: Table, hands: List[HandRecord], rules: Ruleset) -> Dict[Optional[str], str]:
    """Each hand's unit (番, 台 or 分) by the digest of the rules it was recorded under."""
    return {sha: kept.unit_zh for sha, kept in hand_rules(ledger, table, hands, rules).items()}


@dataclass
class View:
    """A table as `show` and the API show it, read at one moment: its rules, hands (with each one's unit),
    penalties and standings."""

    table: Table
    rules: Ruleset
    hands: List[HandRecord]
    penalties: List[PenaltyRecord]
    standings: List[Standing]
    units: Dict[Optional[str], str]
    changed: Optional[bool]
    rules_by: Dict[Optional[str], Ruleset] = field(default_factory=dict)  # each hand's rules, by digest

    def rules_of(self, record: HandRecord) -> Ruleset:
        """The rules `record` was recorded under (its words: 惠 or 财神; its unit)."""
        return self.rules_by.get(record.rules_sha256, self.rules)

    def json(self) -> Data:
        """`table show --json`."""
        t = self.table
        return show_json(t, self.rules, self.hands, self.standings, self.units, self.changed, self.penalties,
                         penalty_kinds(self.rules, t.base), self.rules_by)


def read_view(ledger: Ledger, name: str) -> View:
    """The table `name` as it stands, every part of it read in one transaction."""
    with ledger.reading():
        t = ledger.table(name)
        rules = table_rules(t, ledger)
        hands = ledger.hands(t)
        penalties = ledger.penalties(t)
        standings = standings_of(t.players, hands, tuple(penalties))
        rules_by = hand_rules(ledger, t, hands, rules)
    units = {sha: kept.unit_zh for sha, kept in rules_by.items()}
    return View(t, rules, hands, penalties, standings, units, builtin_changed(t, rules), rules_by)


def builtin_changed(table: Table, rules: Ruleset) -> Optional[bool]:
    """Whether the built-in ruleset the table plays has changed since the table kept it (None: it plays a
    file, which mjcalc does not read again)."""
    if table.ruleset != rules.id or not table.rules:
        return None
    built_in = _builtin_json(table.ruleset)
    return built_in is None or built_in != table.rules


@lru_cache(maxsize=32)
def _builtin_json(ruleset_id: str) -> Optional[str]:
    """A built-in ruleset as a table keeps it (the same for as long as the process runs), or None."""
    try:
        return rules_json(load_ruleset(ruleset_id))
    except MjcalcError:
        return None


def correct_dealer(ledger: Ledger, table: Table, seat: str, request: Optional[Request] = None) -> Written:
    """Who deals the next hand (连庄 starts again)."""
    def data_of(t: Table) -> Data:
        if not ledger.hands(t):
            raise LedgerError("ledger.dealer_before_hands", table=repr(t.name))
        return {"seat": seat}

    return _correction(ledger, table, "dealer", data_of, request)


def adopt_rules(ledger: Ledger, table: Table, ruleset: str, rules: Optional[Ruleset] = None,
                request: Optional[Request] = None, revision: Optional[int] = None) -> Tuple[Table, Ruleset]:
    """The table plays `ruleset` (a built-in name or a file, read now unless `rules` is what was read of it)
    from its next hand on; a 上楼 level it does not reach is brought down to what it has (none: ×1)."""
    rules = rules or load_ruleset(ruleset)
    text = rules_json(rules)
    data: Data = {"rules_sha256": rules_digest(text), **Session.of(rules).logged()}
    written = _correction(ledger, table, "rules", lambda t: data, request, (_source(ruleset), rules.id, text),
                          revision)
    return written.table, rules


def written_json(written: Written) -> Data:
    """A write's answer, as the API and `--json` give it: the table and its revision, what the write recorded,
    changed or removed, the standings and the next hand."""
    t = written.table
    doc: Data = {"table": t.name, "revision": t.revision, "event": written.kind}
    if written.kind == "hand":
        doc["recorded"] = True
    if written.record is not None:
        key = "removed" if written.kind == "undo" else "hand"
        doc[key] = hand_json(written.record, t, written.rules)
    if written.old is not None:
        doc["replaced"] = hand_json(written.old, t, written.rules)
    if written.changed:
        doc["changed"] = [{"number": new.number, "number_before": old.number, "hand_id": new.hand_id,
                           "payouts_before": old.deltas,
                           "payouts": new.deltas} for old, new in written.changed]
    if written.penalty is not None:
        doc["removed_penalty" if written.kind == "revert" else "penalty"] = penalty_json(written.penalty, t)
    if written.kind == "close":
        doc["closed"] = bool(t.closed)
    doc["standings"] = standings_json(written.standings)
    doc["next"] = next_json(t, len(written.hands), t.state)
    if written.kind == "hand" and written.record is not None:
        seats, game = round_end(t, written.record, written.rules)
        if seats is not None:
            doc["seats_changed"] = dict(zip(SEATS, seats))
        if game:
            doc["session_over"] = game
    return doc


def round_end(t: Table, record: HandRecord, rules: Optional[Ruleset]) -> Tuple[Optional[Tuple[str, ...]], int]:
    """What a hand just recorded ended besides itself: the seating the table has after it where the round it ended
    moved the players (`session.seat_rotation`), else None; and the session it ended where it ended the last round
    of one (`session.rounds`: 国标's 16 hands), its number, else 0."""
    moved = tuple(t.players) if record.players and tuple(record.players) != tuple(t.players) else None
    session = Session.of(rules) if rules is not None else Session()
    return moved, session.game_ended(record.round, record.after.round)


def preview_json(written: Written, lang: str = "en") -> Data:
    """A write previewed and not made (a dry run), one answer for `table hand --dry-run --json`, `table edit
    --dry-run --json` and the API's `dry_run`: a hand as it would be recorded (and its notes, in `lang`), or an
    edit's `written_json` (the hand as replaced and as it would be, the later hands it would change, the
    standings); `revision` is the table's revision it was computed at (to make it at), `dry_run` true."""
    if written.kind != "hand":
        return dict(written_json(written), revision=written.made_at, dry_run=True)
    notes = written.analysis.warnings if written.analysis is not None else []
    return {"table": written.table.name, "revision": written.made_at, "recorded": False,
            "hand": hand_json(written.hand, written.table, written.rules), "notes": [n.text(lang) for n in notes],
            "dry_run": True}


def player_seats(table: Table, option: Option, value: Any) -> Any:
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
    out: List[object] = []
    for item in items:
        if isinstance(item, dict):
            out.append({table.seat(k): v for k, v in item.items()})
        elif isinstance(item, str) and sep in item:
            who, _, rest = item.partition(sep)
            out.append(f"{table.seat(who)}{sep}{rest}")
        else:
            out.append(item)  # not SEAT=N / SEAT:KIND: the Option says so
    return out
