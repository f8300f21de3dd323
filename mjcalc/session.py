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
    "streak_on_draw": (bool, True, None, None),          # a draw the dealer stays on counts in 连庄 (false: it stays)
    "seat_rotation": (str, "none", ("none", "mcr"), None),  # the players change seats as each round ends (国标)
    "rounds": (int, 0, None, 64),                        # the rounds 圈 of a game (国标: 4); 0: the evening has no end
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
    # the wins so far of a deal that goes on after a win (血战): (winner, discarder or None), in order; () between
    # deals, and always in a region whose deal ends at its first win
    won: Tuple[Tuple[str, Optional[str]], ...] = ()

    @property
    def factor(self) -> int:
        return 1 << self.level

    @property
    def out(self) -> Tuple[str, ...]:
        """The seats that have won in this deal: they neither win nor pay again in it."""
        return tuple(winner for winner, _ in self.won)

    def json(self) -> Dict[str, Any]:
        """The state as a ledger and an API write it (`won` only in the middle of a deal)."""
        data: Dict[str, Any] = {"round": self.round, "dealer": self.dealer, "streak": self.streak, "level": self.level}
        if self.won:
            data["won"] = [list(pair) for pair in self.won]
        return data

    @classmethod
    def of(cls, data: Dict[str, Any]) -> "State":
        """A state as `json` writes it."""
        return cls(data["round"], data["dealer"], data["streak"], data["level"],
                   tuple((w, d) for w, d in data.get("won") or ()))


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
    streak_on_draw: bool = True
    seat_rotation: str = "none"
    rounds: int = 0

    def game_ended(self, before: int, after: int) -> int:
        """The game a hand ended (its number, from 1) where the session plays games of `rounds` rounds and the hand
        moved the table from round `before` to round `after` past a game's last; else 0."""
        if not self.rounds or after <= before or before % self.rounds:
            return 0
        return before // self.rounds

    def logged(self) -> Dict[str, Any]:
        """What a table's log keeps of these rules beside their digest (its open and rules events): the 上楼
        levels, and the seat rotation where the players change seats."""
        return {"levels": self.shanglou_levels, **({"rotation": self.seat_rotation} if self.seat_rotation != "none" else {})}

    @classmethod
    def of(cls, ruleset: "_WithSession") -> "Session":
        given: Dict[str, Any] = dict(ruleset.session)  # validated by ruleset.py against SESSION
        return cls(**{key: given.get(key, default) for key, (_, default, _, _) in SESSION.items()})


# 国标's change of seats as a round ends (natsuki p. 9, the book leaving it to the event): after the East round the
# players of 东位 and 南位 change places, and those of 西位 and 北位; after the South round 东位 goes to 西位, 南位 to
# 北位, 西位 to 南位 and 北位 to 东位; after the West round as after the East. Each is, seat by seat, the seat whose
# player sits there next (E S W N).
MCR_ROTATIONS = {1: "SENW", 2: "NWES", 3: "SENW"}


def rotated(players: Tuple[str, ...], rotation: str, ended_round: int) -> Tuple[str, ...]:
    """The seating (E S W N) after round `ended_round` ends, under the session's `seat_rotation`."""
    if rotation != "mcr":
        return players
    moves = MCR_ROTATIONS.get((ended_round - 1) % 4 + 1)
    if moves is None:  # after the North round a new game starts as it is seated
        return players
    return tuple(players["ESWN".index(source)] for source in moves)
