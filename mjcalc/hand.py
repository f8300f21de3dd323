"""Frozen values a hand is made of: melds and the hand itself."""
from dataclasses import dataclass, field
from typing import Optional, Tuple

from .tiles import flower_text, format_tiles, tile_text

CHOW, PUNG, KONG, PAIR = "chow", "pung", "kong", "pair"
CLAIM = "claim"  # a claimed 吃 or 碰 of a hand told without its tiles (`told.py`): which of the two is not said


@dataclass(frozen=True, order=True)
class Meld:
    """A declared set: an exposed chow, pung or kong, or a concealed kong.

    `claimed_from` is the seat (E S W N) an exposed meld was claimed from, when the hand says so (`[5555p]W`);
    "" when it does not. A meld of a hand told without its tiles has none (`tiles` empty): a kong, or a claimed
    set (`CLAIM`), is all that is known of it.
    """

    kind: str
    tiles: Tuple[int, ...]
    concealed: bool = False
    claimed_from: str = ""

    @property
    def exposed(self) -> bool:
        return not self.concealed

    def text(self, glyphs: bool = False) -> str:
        """`[123m]`, `[EEEE]`, `[5555p]W` (claimed from W), `{CCCC}` (a concealed kong), or the same with
        glyphs inside the brackets."""
        body = format_tiles(self.tiles, glyphs).replace(" ", "") if self.tiles else \
            {KONG: "杠", CLAIM: "吃碰"}.get(self.kind, self.kind)
        return "{%s}" % body if self.concealed else "[%s]%s" % (body, self.claimed_from)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (sorted, `WILD` for `*`), declared melds, and the winning tile of a 14-tile hand; and the
    flowers 花牌 set aside beside it (1-8, sorted: no tile kind, and not among the 13 or 14)."""

    concealed: Tuple[int, ...]
    melds: Tuple[Meld, ...] = ()
    winning: Optional[int] = None
    winning_implied: bool = field(default=False, compare=False)
    flowers: Tuple[int, ...] = ()

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
        return Hand(self.concealed, self.melds, flowers=self.flowers)

    def with_winning(self, tile: int) -> "Hand":
        return Hand(self.concealed, self.melds, tile, flowers=self.flowers)

    def text(self, glyphs: bool = False) -> str:
        """The hand in canonical notation (`parse_hand(hand.text()) == hand`), or with glyphs for tiles."""
        parts = [format_tiles(self.concealed, glyphs)] if self.concealed else []
        parts += [m.text(glyphs) for m in self.melds]
        if self.winning is not None:
            parts.append("+" + tile_text(self.winning, glyphs))
        parts += [flower_text(f, glyphs) for f in self.flowers]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"parse_hand({str(self)!r})"
