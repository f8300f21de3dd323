"""The rules model of an evening between hands: the ruleset's `session:` block (the dealer, 连庄, rounds and 上楼)
and the `State` the evening stands in before a hand. Pure values; `evening.replay.advance` moves the state on."""
from dataclasses import dataclass
from typing import Any, Dict, Literal, Optional, Protocol, Tuple, get_args

MAX_LEVELS = 16  # 上楼: later hands are paid at most 2^16 times over

ShanglouUntil = Literal["round_end", "win"]  # 上楼's doubling ends when the round does, or at the next win

# `session:` — key → (type, default, choices, maximum); validated by ruleset.py.
SESSION: Dict[str, Tuple[type, Any, Optional[Tuple[str, ...]], Optional[int]]] = {
    "dealer_stays_on_win": (bool, True, None, None),     # 连庄 when the dealer wins
    "dealer_stays_on_draw": (bool, True, None, None),    # 连庄 on a drawn hand 荒牌
    "shanglou_levels": (int, 0, None, MAX_LEVELS),       # 上楼: each draw doubles later hands, at most this many times
    "shanglou_until": (str, "round_end", get_args(ShanglouUntil), None),  # when the 上楼 doubling ends
    "shanglou_on_dealer_win": (bool, False, None, None),  # a hand the dealer wins raises 上楼 as a draw does
}


@dataclass(frozen=True)
class State:
    """Where the evening stands before the next hand."""

    round: int = 1
    dealer: str = "E"
    streak: int = 0  # 连庄: how many hands in a row the dealer has kept the deal
    level: int = 0   # 上楼: later payouts are multiplied by 2**level

    @property
    def factor(self) -> int:
        return 1 << self.level


class _WithSession(Protocol):
    """A `ruleset.Ruleset`, as far as `Session.of` reads it."""

    @property
    def session(self) -> Tuple[Tuple[str, object], ...]: ...


@dataclass(frozen=True)
class Session:
    """The ruleset's `session:` rules, with their defaults."""

    dealer_stays_on_win: bool = True
    dealer_stays_on_draw: bool = True
    shanglou_levels: int = 0
    shanglou_until: ShanglouUntil = "round_end"
    shanglou_on_dealer_win: bool = False

    @classmethod
    def of(cls, ruleset: "_WithSession") -> "Session":
        given: Dict[str, Any] = dict(ruleset.session)  # validated by ruleset.py against SESSION
        return cls(**{key: given.get(key, default) for key, (_, default, _, _) in SESSION.items()})
