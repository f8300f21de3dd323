"""The rules replayed between hands: the state after a hand is won or drawn (the dealer, 连庄, rounds and 上楼),
from the ruleset's `session:` rules (`session.Session`); the ledger stores what `advance` returns."""
from dataclasses import replace
from typing import Optional

from ..session import Session, State
from ..tiles import SEATS


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
