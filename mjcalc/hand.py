"""Frozen values a hand is made of: melds, the hand itself, and the situation it was won in."""
from dataclasses import dataclass, field
from typing import Optional, Tuple

from .tiles import NAMES, format_tiles

WILD = 34  # a `*` tile: a wildcard whose face is the declared wild kind, if any

CHOW, PUNG, KONG, PAIR = "chow", "pung", "kong", "pair"


@dataclass(frozen=True, order=True)
class Meld:
    """A declared set: an exposed chow, pung or kong, or a concealed kong."""

    kind: str
    tiles: Tuple[int, ...]
    concealed: bool = False

    @property
    def exposed(self) -> bool:
        return not self.concealed

    def __str__(self) -> str:
        body = format_tiles(self.tiles).replace(" ", "")
        return "{%s}" % body if self.concealed else "[%s]" % body


def _tile_text(tile: int) -> str:
    return "*" if tile == WILD else NAMES[tile]


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted, `WILD` for `*`), declared melds, and the winning tile of a 14-tile hand."""

    concealed: Tuple[int, ...]
    melds: Tuple[Meld, ...] = ()
    winning: Optional[int] = None
    winning_implied: bool = field(default=False, compare=False)

    @property
    def tiles(self) -> Tuple[int, ...]:
        """Every concealed tile, the winning tile included."""
        return self.concealed + ((self.winning,) if self.winning is not None else ())

    @property
    def size(self) -> int:
        return len(self.tiles) + 3 * len(self.melds)

    @property
    def meld_tiles(self) -> Tuple[int, ...]:
        return tuple(t for m in self.melds for t in m.tiles)

    @property
    def is_concealed(self) -> bool:
        """No 吃/碰/明杠 (a concealed kong keeps the hand concealed)."""
        return all(m.concealed for m in self.melds)

    def without_winning(self) -> "Hand":
        return Hand(self.concealed, self.melds)

    def with_winning(self, tile: int) -> "Hand":
        return Hand(self.concealed, self.melds, tile)

    def __str__(self) -> str:
        naturals = [t for t in self.concealed if t != WILD]
        parts = [format_tiles(naturals)] if naturals else []
        parts += ["*"] * self.concealed.count(WILD)
        parts += [str(m) for m in self.melds]
        if self.winning is not None:
            parts.append("+" + _tile_text(self.winning))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"parse_hand({str(self)!r})"


@dataclass(frozen=True)
class Situation:
    """How and where a hand was won: seats, the way of winning, and the ruleset-specific extras."""

    seat: str = "E"
    dealer: str = "E"
    discarder: Optional[str] = None  # None: self-drawn
    kong_draw: int = 0
    last_tile: bool = False
    rob_kong: bool = False
    first_turn: bool = False
    base: int = 1
    wild: Tuple[int, ...] = ()
    indicator: Optional[int] = None
    shaozhuang: int = 0
    mutual: Tuple[str, ...] = ()
    bid: Optional[str] = None
    bidder: Optional[str] = None
    flown: int = 0
    flown_by: Tuple[Tuple[str, int], ...] = ()
    four_wild: bool = False
    jiebao: bool = False
    kongs: Tuple[Tuple[str, str], ...] = ()

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer
