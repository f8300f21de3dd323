"""Who pays whom: named payout schemes; their numbers come from the ruleset's `payout.params`.

Every scheme returns integer deltas for the four seats that sum to zero, split into named parts
(the hand, 烧庄, 包, bonuses) so the output can show each.
"""
import re
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from .errors import SituationError

SEATS = "ESWN"


@dataclass
class Payout:
    """Per-seat integer deltas, and the parts they add up from: (zh label, en label, deltas)."""

    parts: List[Tuple[str, str, Dict[str, int]]] = field(default_factory=list)

    def add(self, zh: str, en: str, deltas: Dict[str, int]):
        full = {s: int(deltas.get(s, 0)) for s in SEATS}
        if sum(full.values()) != 0:
            raise AssertionError(f"payout part {en} does not sum to zero: {full}")
        self.parts.append((zh, en, full))

    @property
    def deltas(self) -> Dict[str, int]:
        return {s: sum(p[2][s] for p in self.parts) for s in SEATS}


def _transfer(deltas, payer, payee, amount):
    deltas[payer] = deltas.get(payer, 0) - amount
    deltas[payee] = deltas.get(payee, 0) + amount


class Scheme:
    """A payout scheme: checks its params, may adjust the situation, and pays a scored hand."""

    params: Dict[str, type] = {}
    required: Tuple[str, ...] = ()
    uses: Tuple[str, ...] = ()  # situation options this scheme reads (others are warned about)

    def check(self, params, fail):
        for key, value in params.items():
            if key not in self.params:
                fail(key, f"unknown parameter (known: {', '.join(sorted(self.params)) or 'none'})")
            kind = self.params[key]
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                fail(key, f"expected an integer, got {value!r}")
            if kind is int and value < 0:
                fail(key, f"must be at least 0, got {value}")
        for key in self.required:
            if key not in params:
                fail(key, "missing required parameter")

    def adjust(self, ruleset, situation):
        return situation

    def plays_wild(self, ruleset, situation) -> bool:
        """Whether wildcards are in play at all, so that a `*` tile means something."""
        return ruleset.wild_kinds > 0

    def pay(self, score, situation, ruleset) -> Payout:
        raise NotImplementedError


class Additive(Scheme):
    """北京: the hand part F·b from the discarder or from each seat on a self-draw; 烧庄; 互包."""

    uses = ("shaozhuang", "mutual")

    def pay(self, score, situation, ruleset) -> Payout:
        payout = Payout()
        winner, b, f = situation.seat, situation.base, score.total
        others = [s for s in SEATS if s != winner]
        hand = {}
        per_payer = 3 * f * b if score.self_drawn else f * b
        if situation.mutual:
            for partner in situation.mutual:
                _transfer(hand, partner, winner, per_payer)
        elif score.self_drawn:
            for s in others:
                _transfer(hand, s, winner, f * b)
        else:
            _transfer(hand, situation.discarder, winner, f * b)
        payout.add("和牌", "hand", hand)
        if situation.shaozhuang:
            unit = 2 ** (situation.shaozhuang - 1) * b
            burn = {s: unit for s in SEATS if s != situation.dealer}
            burn[situation.dealer] = -3 * unit
            payout.add(f"烧庄 {situation.shaozhuang}番", f"shaozhuang x{situation.shaozhuang}", burn)
        return payout


class MoneyTable(Scheme):
    """北京 2-4-8: rate × 2^F by who won and who paid, each payer capped."""

    params = {
        "discard": int, "dealer_discards": int, "to_dealer": int,
        "dealer_self_draw": int, "self_draw_dealer_pays": int, "self_draw_other_pays": int, "payer_cap": int,
    }
    required = tuple(params)

    def pay(self, score, situation, ruleset) -> Payout:
        p = dict(ruleset.payout_params)
        winner, dealer = situation.seat, situation.dealer
        unit = 2 ** score.total * situation.base
        cap = p["payer_cap"] * situation.base
        owed = {}
        if score.self_drawn:
            for s in SEATS:
                if s == winner:
                    continue
                if winner == dealer:
                    rate = p["dealer_self_draw"]
                else:
                    rate = p["self_draw_dealer_pays"] if s == dealer else p["self_draw_other_pays"]
                owed[s] = rate * unit
        else:
            d = situation.discarder
            rate = p["to_dealer"] if winner == dealer else p["dealer_discards"] if d == dealer else p["discard"]
            owed[d] = rate * unit
        hand = {}
        for s, amount in owed.items():
            _transfer(hand, s, winner, min(amount, cap))
        payout = Payout()
        payout.add("和牌", "hand", hand)
        return payout


_BID = re.compile(r"^(独|du|无财|wucai)?(\d+)(台)?$")


def bid_level(text: str) -> Tuple[int, int]:
    """A bid as (level N, wildcard kinds c): `2`/`2台` → (2, 2), `du2`/`独2` → (2, 1), `wucai2`/`无财2` → (2, 0)."""
    m = _BID.match(str(text).strip().lower())
    if not m or int(m.group(2)) < 2:
        raise SituationError(f"unknown bid {text!r}: write 2, du2 (独2), wucai2 (无财2), 3, … (level 2 or more)")
    kinds = {None: 2, "独": 1, "du": 1, "无财": 0, "wucai": 0}[m.group(1)]
    return int(m.group(2)), kinds


def bid_stake(level: int, kinds: int) -> int:
    """B(N, c) = 5·2^(N−2) with two 财神 kinds, 5·2^(N−1) with fewer."""
    return 5 * 2 ** (level - 2) if kinds == 2 else 5 * 2 ** (level - 1)


SCHEMES: Dict[str, Scheme] = {
    "additive": Additive(),
    "money_table": MoneyTable(),
}

from . import payouts_zhuji, payouts_shangrao  # noqa: E402,F401  (they register their schemes)
