"""How an evening at a table goes on between hands: the dealer, 连庄, rounds and 上楼, from the ruleset's
`session:` block. Pure values and one function, `advance`; the ledger stores what it returns."""
from dataclasses import dataclass, replace
from typing import Optional

from .tiles import SEATS

MAX_LEVELS = 16  # 上楼: later hands are paid at most 2^16 times over

# `session:` — key → (type, default, choices, maximum); validated by ruleset.py.
SESSION = {
    "dealer_stays_on_win": (bool, True, None, None),     # 连庄 when the dealer wins
    "dealer_stays_on_draw": (bool, True, None, None),    # 连庄 on a drawn hand 荒牌
    "shanglou_levels": (int, 0, None, MAX_LEVELS),       # 上楼: each draw doubles later hands, at most this many times
    "shanglou_until": (str, "round_end", ("round_end", "win"), None),  # when the 上楼 doubling ends
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
        return 2 ** self.level


@dataclass(frozen=True)
class Session:
    """The ruleset's `session:` rules, with their defaults."""

    dealer_stays_on_win: bool = True
    dealer_stays_on_draw: bool = True
    shanglou_levels: int = 0
    shanglou_until: str = "round_end"
    shanglou_on_dealer_win: bool = False

    @classmethod
    def of(cls, ruleset) -> "Session":
        given = dict(ruleset.session)
        return cls(**{key: given.get(key, default) for key, (_, default, _, _) in SESSION.items()})


def advance(state: State, session: Session, winner: Optional[str]) -> State:
    """The state after a hand won by `winner`, or drawn (`winner` None)."""
    drawn = winner is None
    stays = session.dealer_stays_on_draw if drawn else (winner == state.dealer and session.dealer_stays_on_win)
    if stays:
        after = replace(state, streak=state.streak + 1)
    elif state.dealer == SEATS[-1]:  # North passes the deal on: the round ends
        after = State(round=state.round + 1, dealer=SEATS[0], streak=0,
                      level=0 if session.shanglou_until == "round_end" else state.level)
    else:
        after = replace(state, dealer=SEATS[SEATS.index(state.dealer) + 1], streak=0)
    if drawn:
        return replace(after, level=min(state.level + 1, session.shanglou_levels))
    if session.shanglou_on_dealer_win and winner == state.dealer:
        return replace(after, level=min(after.level + 1, session.shanglou_levels))
    if session.shanglou_until == "win":
        return replace(after, level=0)
    return after
