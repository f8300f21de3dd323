"""Who pays whom, in general: a `Payout` of named parts, and the `Scheme` protocol a region's payout implements.

A scheme pays a scored hand: integer deltas for the four seats that sum to zero, split into named parts (the
hand, and whatever else the region pays) so the output can show each. Its numbers come from the ruleset's
`payout.params`, declared as `Param`s so that a ruleset file is checked against them and `rulesets show` can
say what each means. The schemes themselves live with their regions (`regions/`).
"""
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, NoReturn, Optional, Set, Tuple

from .errors import SituationError
from .messages import ZH_NAMES, Message, did_you_mean, shown
from .situation import Situation
from .tiles import SEATS

# The largest amount a seat may win or lose in one hand: far beyond any table, and exact as a JSON number in a
# browser (2^53) and as an SQLite integer (2^63).
MAX_AMOUNT = 10 ** 15


@dataclass
class Payout:
    """Per-seat integer deltas, and the parts they add up from: (zh label, en label, deltas)."""

    parts: List[Tuple[str, str, Dict[str, int]]] = field(default_factory=list)
    fixed: Set[str] = field(default_factory=set)  # en labels of parts a table's doubling never multiplies
    side: Set[str] = field(default_factory=set)  # en labels of parts paid this hand whoever wins it

    def add(self, zh: str, en: str, deltas: Dict[str, int], doubled_at_table: bool = True,
            whoever_wins: bool = False) -> None:
        """Add a part; `doubled_at_table=False` for money a table's doubling (see `session.py`) never touches;
        `whoever_wins=True` for money the hand pays whoever wins it (a penalty for earlier rounds, another seat's
        kong), not the win's."""
        full = {s: int(deltas.get(s, 0)) for s in SEATS}
        if sum(full.values()) != 0:
            raise AssertionError(f"payout part {en} does not sum to zero: {full}")
        if any(abs(v) > MAX_AMOUNT for v in full.values()):
            ZH_NAMES.setdefault("part", {})[en] = zh  # the Chinese text names the part by its Chinese label
            raise SituationError("payout.part_too_large", part=en, limit=MAX_AMOUNT)
        self.parts.append((zh, en, full))
        if not doubled_at_table:
            self.fixed.add(en)
        if whoever_wins:
            self.side.add(en)

    def scaled(self, factor: int) -> "Payout":
        """Every part times `factor` (a table's doubling), except the parts it never touches."""
        out = Payout()
        for zh, en, deltas in self.parts:
            f = 1 if en in self.fixed else factor
            out.add(zh, en, {s: d * f for s, d in deltas.items()}, en not in self.fixed, en in self.side)
        return out

    @property
    def deltas(self) -> Dict[str, int]:
        return {s: sum(p[2][s] for p in self.parts) for s in SEATS}

    @property
    def win_deltas(self) -> Dict[str, int]:
        """The deltas of the parts the win pays (less those paid whoever wins): what winning is worth."""
        return {s: sum(p[2][s] for p in self.parts if p[1] not in self.side) for s in SEATS}


def transfer(deltas: Dict[str, int], payer: str, payee: str, amount: int) -> None:
    """`payer` pays `amount` to `payee` in the running `deltas`."""
    deltas[payer] = deltas.get(payer, 0) - amount
    deltas[payee] = deltas.get(payee, 0) + amount


# The largest value a ruleset file may give a pattern (and a pattern's whole-number parameters).
MAX_VALUE = 10_000
# The largest exponent a payout raises 2 to (2^50 is about MAX_AMOUNT).
MAX_EXPONENT = 50


def capped_points(total: int, cap: Optional[int]) -> int:
    """What a hand of `total` 番 is worth to one payer at 底分 1 where it doubles a 番: 2^番, at most 2^cap."""
    paid: int = total if cap is None else min(total, cap)
    return 1 << paid


def power_of_two(exponent: int, what: object) -> int:
    """2^exponent for a payout, refused (one line) when it is beyond any amount, before it is computed; `what`
    (text or a `Message`) names what pays it."""
    if exponent > MAX_EXPONENT:
        raise SituationError("payout.beyond_any_amount", what=what, exponent=exponent, limit=MAX_EXPONENT)
    return 1 << max(exponent, 0)


@dataclass(frozen=True)
class Param:
    """A parameter a ruleset file gives a payout scheme (`payout.params`) or a pattern (`patterns.X.params`): a
    whole number in a range (or, with `kind=bool`, true or false), and its meaning."""

    meaning: str
    minimum: int = 0
    maximum: int = 1_000_000
    required: bool = True
    default: Optional[int] = None
    kind: type = int

    def problem(self, value: object) -> Optional[Message]:
        """Why `value` is not a value of this parameter, or None."""
        if self.kind is bool:
            return None if isinstance(value, bool) else Message("ruleset.expected_bool", value=shown(value))
        if isinstance(value, bool) or not isinstance(value, int):
            return Message("ruleset.expected_int", value=shown(value))
        if not self.minimum <= value <= self.maximum:
            if value < self.minimum and self.minimum == 0:
                return Message("ruleset.below_minimum", minimum=0, value=value)
            return Message("ruleset.out_of_range", minimum=self.minimum, maximum=self.maximum, value=value)
        return None


def unknown_param(key: str, params: Iterable[str]) -> Message:
    """The message for a parameter nobody reads: did you mean, or the known ones."""
    known = sorted(params) or Message("ruleset.none")
    return Message("payout.unknown_param", hint=did_you_mean(key, params) or Message("hint.known", known=known))


class Scheme:
    """A payout scheme: its parameters, and `pay(score, situation, ruleset) -> Payout`."""

    params: Dict[str, Param] = {}
    meaning: str = ""  # one line for `rulesets show`

    def check(self, params: Dict[str, Any], fail: Callable[[str, Message], NoReturn]) -> None:
        """Check a ruleset's `payout.params`; `fail(key, message)` raises (the message a `Message`)."""
        for key, value in params.items():
            spec = self.params.get(key)
            if spec is None:
                fail(key, unknown_param(key, self.params))
            problem = spec.problem(value)
            if problem:
                fail(key, problem)
        for key, spec in self.params.items():
            if spec.required and key not in params:
                fail(key, Message("payout.missing_param"))

    # The score and the ruleset are `scoring.Score` and `ruleset.Ruleset`, which import this module: Any here.
    def param(self, ruleset: Any, key: str) -> int:
        value = ruleset.param(key)
        if value is None:
            value = self.params[key].default
        assert isinstance(value, int), key  # a parameter the scheme reads has a default
        return value

    def pay(self, score: Any, situation: Situation, ruleset: Any) -> Payout:
        raise NotImplementedError

    def unit_points(self, total: int, ruleset: Any) -> int:
        """What a hand of `total` (in the ruleset's unit) is worth to one payer at 底分 1, without 上楼, the
        dealer's doubling or any halving: a penalty given as a total is paid so (`ruleset.Penalty`). Linear
        here; a scheme that pays 2^total says so."""
        return total
