"""The `--json` documents of `mjcalc table` (a hand with its context, the standings, the next hand, a table
shown), click-free, so that `mjcalc serve`'s ledger API answers with the very same documents."""
from typing import Any, Callable, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple

from ..regions import all_options, find_region
from ..regions.base import MAX_DRAW_COUNT
from ..ruleset import Ruleset
from ..session import State
from ..situation import GENERIC
from ..tiles import NAMES, SEATS
from .kinds import Data
from .ledger import HandRecord, PenaltyRecord, Standing, Table

NOT_CONTEXT = ("seat", "dealer", "from", "base", "self_drawn")  # the record says these itself
TotalKind = Literal["flat", "unit"]  # what a won hand's total counts (`total_kind`)


def next_json(table: Table, count: int, state: State) -> Data:
    """The next hand after `count` hands: its number, round, dealer (seat and player), 连庄 streak and 上楼; in
    the middle of a deal that goes on after a win (血战), the deal's wins so far (`won`)."""
    doc: Data = {"hand": count + 1, "round": state.round, "dealer": state.dealer,
                 "dealer_player": table.player(state.dealer), "streak": state.streak, "shanglou": state.level,
                 "factor": state.factor}
    if state.won:
        doc["won"] = won_json(state.won, table.player)
    return doc


def won_json(won: Iterable[Tuple[str, Optional[str]]], player: Callable[[str], str]) -> List[Data]:
    """A deal's wins so far: each winner (seat, player) and from whom (seat or None for a self-draw)."""
    return [{"seat": w, "player": player(w), "from": d} for w, d in won]


def standings_json(standings: Iterable[Standing]) -> List[Data]:
    """Each person's score and seat (`Ledger.standings`): the people seated now E S W N first, then those who
    left the table (seat null)."""
    return [{"seat": s.seat, "player": s.player, "score": s.score} for s in standings]


def _context_value(key: str, value: Any, table: "_Seating") -> str:
    if isinstance(value, bool):
        return ""
    if key in ("wild", "indicator"):
        tiles = value if isinstance(value, list) else [value]
        return ",".join(NAMES[t] if isinstance(t, int) and 0 <= t < len(NAMES) else str(t) for t in tiles)
    if isinstance(value, list):
        return ",".join(_pair(v, table) if isinstance(v, list) else _seat_name(v, table) for v in value)
    return _seat_name(value, table)


def _pair(item: List[Any], table: "_Seating") -> str:
    """A stored SEAT=N or SEAT:CHOICE item ([seat, value]) with the player's name."""
    if len(item) != 2:
        return " ".join(str(v) for v in item)
    seat, value = item
    return f"{_seat_name(seat, table)}{'=' if isinstance(value, int) else ':'}{value}"


def _seat_name(value: Any, table: "_Seating") -> str:
    return table.player(value) if isinstance(value, str) and value in SEATS and len(value) == 1 else str(value)


class _Seating:
    """A hand's seating where a table's is asked for (`.player(seat)`): names as they sat in that hand."""

    def __init__(self, record: HandRecord, table: Table) -> None:
        self.players = record.players or table.players

    def player(self, seat: str) -> str:
        return self.players[SEATS.index(seat)]


def context(record: HandRecord, table: Table, rules: Optional[Ruleset] = None) -> List[str]:
    """What else the hand's situation said (every stored field but the seats and the base), as short words:
    `烧庄 1`, `互包 阿张`, `抢杠` — named by each option's own word (the wildcards by the ruleset's), whatever
    the region."""
    known = {**GENERIC, **all_options()}
    seating = _Seating(record, table)
    words = []
    for key, value in record.situation.items():
        if key in NOT_CONTEXT or value in (None, False, 0, [], ""):
            continue
        option = known.get(key)
        label = option.zh or option.name if option is not None else key
        if key == "wild" and rules is not None and rules.wild_zh:
            label = rules.wild_zh
        if key == "kong_draw" and rules is not None and any(p.id == "kong_bloom" for p in rules.patterns):
            label = rules.pattern("kong_bloom").zh  # the ruleset's own word: 杠上花, 杠上开花, 杠开
        if option is not None and option.metavar == "WIND" and value in SEATS:  # a wind (圈风), not a seat's player
            shown = "东南西北"[SEATS.index(value)]
        else:
            shown = _context_value(key, value, seating)
        words.append(f"{label} {shown}" if shown else label)
    return words + _told_words(record, seating, rules)


def _told_words(record: HandRecord, table: "_Seating", rules: Optional[Ruleset]) -> List[str]:
    """What the table told of a hand entered without its tiles: `吃碰 1`, `暗杠`, `明杠←老王`, `无宝`."""
    told = (record.input or {}).get("told") or {}
    words = [f"吃碰 {told['open']}"] if told.get("open") else []
    for kong in told.get("kongs", ()):
        kind, _, source = str(kong).partition(":")
        words.append("暗杠" if kind == "concealed" else "明杠" + (f"←{table.player(source)}" if source else ""))
    if told.get("wild_roles") == 0 and rules is not None and rules.wild_zh:
        words.append(f"无{rules.wild_zh}")
    return words


def total_kind(record: HandRecord, rules: Optional[Ruleset]) -> Optional[TotalKind]:
    """What a won hand's total counts: "flat" (a fixed amount × 底分, as 绘杠's 16: `Region.paid_flat`) or
    "unit" (番, 台, 分 …); None for a draw."""
    if record.kind != "win" or record.total is None:
        return None
    if rules is None:  # no rules to say a pattern pays flat
        return "unit"
    region = find_region(rules.region)
    known = {p.id for p in rules.patterns}
    flat = any(p.get("id") in known and region.paid_flat(rules, p["id"])
               for p in record.patterns if isinstance(p, dict))
    return "flat" if flat else "unit"


def hand_json(record: HandRecord, table: Table, rules: Optional[Ruleset] = None, unit: Optional[str] = None) -> Data:
    """A recorded hand, with its context in words and its unit (番, 台 or 分: the rules it was recorded under);
    `total_kind` says whether its total is that unit or a flat amount."""
    data = record.to_dict(table)
    data["unit"] = unit or (rules.unit_zh if rules is not None else None)
    data["total_kind"] = total_kind(record, rules)
    data["context"] = context(record, table, rules)
    if record.won:  # a later win in its deal, or the end of a deal that had wins
        data["won_before"] = won_json(record.won, record.player if record.players else table.player)
    return data


def penalty_json(penalty: PenaltyRecord, table: Table) -> Data:
    """A penalty between hands (`PenaltyRecord`), its players named as they sat then."""
    name = dict(zip(SEATS, penalty.players or table.players))
    return {"penalty_id": penalty.penalty_id, "penalty": penalty.penalty, "name": penalty.name,
            "player": penalty.player, "player_name": name[penalty.player], "to": penalty.to,
            "to_player": name[penalty.to] if penalty.to else None, "reason": penalty.reason,
            "payouts": dict(penalty.deltas), "after_hand": penalty.after_hand, "players": name,
            "recorded": penalty.recorded, "revision": penalty.revision}


def show_json(table: Table, rules: Ruleset, hands: Sequence[HandRecord], standings: Iterable[Standing],
              units: Optional[Mapping[Optional[str], str]] = None, changed_builtin: Optional[bool] = None,
              penalties: Iterable[PenaltyRecord] = (), penalty_kinds: Iterable[Data] = (),
              hand_rules: Optional[Mapping[Optional[str], Ruleset]] = None) -> Data:
    """`table show --json`: the table, its revision and rules digest, its standings by person, every hand (each
    in the unit and words of its own rules: `units` and `hand_rules` by rules digest), the penalties between
    them, the next hand."""
    units, hand_rules = units or {}, hand_rules or {}
    doc: Data = {
        "table": table.name, "revision": table.revision, "ruleset": table.ruleset_id, "rules_from": table.ruleset,
        "ruleset_sha256": table.rules_sha256, "unit": rules.unit_zh, "base": table.base, "created": table.created,
        "closed": bool(table.closed), "closed_at": table.closed,
        "players": dict(zip(SEATS, table.players)), "standings": standings_json(standings),
        "hands": [hand_json(h, table, hand_rules.get(h.rules_sha256, rules), units.get(h.rules_sha256)) for h in hands],
        "penalties": [penalty_json(p, table) for p in penalties],
        "penalty_kinds": list(penalty_kinds),  # `record.penalty_kinds`
        "next": next_json(table, len(hands), table.state),
    }
    region = find_region(rules.region)
    if region.draw_facts:  # what a draw is told at this table (`Region.draw_facts`): the page asks it before recording
        doc["draw_asks"] = list(region.draw_facts)
        if region.draw_counted:  # each seat with a number (`S:2`), from 0 to the ruleset's cap
            doc["draw_counted"] = list(region.draw_counted)
            doc["draw_most"] = rules.cap if rules.cap is not None else MAX_DRAW_COUNT
    if changed_builtin is not None:
        doc["builtin_changed"] = changed_builtin
    return doc


def transfers_json(transfers: Iterable[Tuple[str, str, int]]) -> List[Data]:
    """`table settle --json`'s transfers: [(payer, payee, amount)] as objects."""
    return [{"from": a, "to": b, "amount": n} for a, b, n in transfers]
