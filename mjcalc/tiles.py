"""Tiles are ints 0-33: 1-9m, 1-9p, 1-9s, then E S W N C F P (中 发 白); seats are the letters E S W N. The wall
a ruleset plays (`Composition`) and what one player knows of it (`Wall`) are tiles too."""
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Optional, Sequence, Tuple

from .errors import SituationError
from . import messages
from .messages import shown

NUM_KINDS = 34
SUITS = "mps"
HONOR_LETTERS = "ESWNCFP"
EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS

NAMES = tuple(f"{r + 1}{s}" for s in SUITS for r in range(9)) + tuple(HONOR_LETTERS)
_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUITS = "万筒条"
ZH_NAMES = tuple(f"{_ZH_NUMERALS[r]}{_ZH_SUITS[s]}" for s in range(3) for r in range(9)) + tuple("东南西北中发白")
# U+1F000..1F006 are E S W N 中 发 白; then characters, bamboo (s), circles (p).
GLYPHS = (
    tuple(chr(0x1F007 + r) for r in range(9))
    + tuple(chr(0x1F019 + r) for r in range(9))
    + tuple(chr(0x1F010 + r) for r in range(9))
    + tuple(chr(0x1F000 + i) for i in range(7))
)
WILD_GLYPH = "\U0001F02A"
WILD = 34  # a `*` tile: a wildcard whose face is the declared wild kind, if any
SEATS = "ESWN"


def suit_of(tile: int) -> int:
    """The suit index 0-2 of a number tile, 3 for an honor."""
    return tile // 9 if tile < 27 else 3


def rank_of(tile: int) -> int:
    """The rank 1-9 of a number tile, 0 for an honor."""
    return tile % 9 + 1 if tile < 27 else 0


def is_honor(tile: int) -> bool:
    return tile >= 27


def is_terminal_or_honor(tile: int) -> bool:
    return tile >= 27 or tile % 9 in (0, 8)


def next_in_cycle(tile: int) -> int:
    """The tile after `tile`: 1→2…9→1 in a suit, E→S→W→N→E, C→F→P→C."""
    if tile < 27:
        return tile - tile % 9 + (tile % 9 + 1) % 9
    if tile in WINDS:
        return WINDS[(tile - EAST + 1) % 4]
    return DRAGONS[(tile - RED + 1) % 3]


# 花牌, the eight flowers of a 144-tile wall (no tile kind): f1-f4 梅兰竹菊 and f5-f8 春夏秋冬, as U+1F022..1F029
FLOWERS = 8
FLOWER_GLYPHS = tuple(chr(0x1F022 + i) for i in range(FLOWERS))


def flower_text(flower: int, glyphs: bool = False) -> str:
    """A flower (1-8) as written: `f3`, or its glyph."""
    return FLOWER_GLYPHS[flower - 1] if glyphs else f"f{flower}"


def tile_text(tile: int, glyphs: bool = False) -> str:
    """One tile as its name (`3m`, `E`) or its Unicode glyph; a faceless wildcard is `*` (🀪)."""
    if tile == WILD:
        return WILD_GLYPH if glyphs else "*"
    return GLYPHS[tile] if glyphs else NAMES[tile]


def format_tiles(tiles: Iterable[int], glyphs: bool = False) -> str:
    """Tiles as canonical groups, `123m 45p EE C *`, or as glyphs with `glyphs`: the one tile-to-text function."""
    tiles = sorted(tiles)
    if glyphs:
        return "".join(tile_text(t, True) for t in tiles)
    groups = []
    for t in tiles:
        if t == WILD:
            groups.append("*")
            continue
        if t < 27 and groups and groups[-1][-1] == SUITS[t // 9]:
            groups[-1] = groups[-1][:-1] + NAMES[t]
        elif t >= 27 and groups and groups[-1][-1] == NAMES[t]:
            groups[-1] += NAMES[t]
        else:
            groups.append(NAMES[t])
    return " ".join(groups)


COPIES = 4  # of each kind in a wall


@dataclass(frozen=True)
class Composition:
    """The tiles a ruleset's wall is made of: four of each kind of the `suits` (some of `mps`) and the `honors`
    (some of `ESWNCFP`), and `flowers`, which are no kind (a flower drawn is set aside and replaced), so they
    count in the wall's size but never among the tiles left. 136 by default; 108 with no honours, 112 with 中
    alone, 144 with eight flowers."""

    suits: str = SUITS
    honors: str = HONOR_LETTERS
    flowers: int = 0

    @cached_property
    def copies(self) -> Tuple[int, ...]:
        """Copies of each of the 34 kinds: 4 in play, 0 not."""
        return tuple(COPIES if self.has(k) else 0 for k in range(NUM_KINDS))

    @property
    def size(self) -> int:
        """Every tile of the wall, flowers included."""
        return sum(self.copies) + self.flowers

    def has(self, kind: int) -> bool:
        """Whether the wall holds tiles of `kind`."""
        return SUITS[kind // 9] in self.suits if kind < 27 else HONOR_LETTERS[kind - 27] in self.honors


FULL_WALL = Composition()


@dataclass(frozen=True)
class Wall:
    """What one player knows of the tiles he may still draw: the wall's composition less the copies in his hand
    (`held`: melds and wildcards' faces included), those `seen` on the table (discards, others' melds) and those
    the region's rules put out of it (`gone`: a flown 宝, the turned-up tile; `Region.tiles_gone`). A tile gone
    by the rules lies on the table, so written as seen too it is the same tile: of the two the larger counts.

    Every count of tiles left — waits, improvements, the wall the value of discards draws from, the page — is
    this one's `left`."""

    composition: Composition
    held: Tuple[int, ...]
    seen: Tuple[int, ...] = (0,) * NUM_KINDS
    gone: Tuple[int, ...] = (0,) * NUM_KINDS
    # the tiles the region keeps at the end of the wall, never drawn (`Region.dead_wall`): a deal ends with them
    dead: int = 0
    # kinds this player may never win holding (`Region.void_kinds`: a void suit 定缺): never a wait
    void: Tuple[int, ...] = ()

    @classmethod
    def of(cls, held: Sequence[int], seen: Optional[Sequence[int]] = None, gone: Optional[Sequence[int]] = None,
           composition: Composition = FULL_WALL) -> "Wall":
        """A wall from 34 counts each (`seen` and `gone` none when not given)."""
        zero = (0,) * NUM_KINDS
        return cls(composition, tuple(held), tuple(seen) if seen is not None else zero,
                   tuple(gone) if gone is not None else zero)

    def out(self, kind: int) -> int:
        """Copies of `kind` known out of the wall besides the hand: seen, or gone by the rules, whichever is more."""
        return max(self.seen[kind], self.gone[kind])

    def left(self, kind: int) -> int:
        """Copies of `kind` that may still be drawn: neither held, seen nor gone; never negative."""
        return max(0, self.composition.copies[kind] - self.held[kind] - self.out(kind))

    def drawable(self, kind: int) -> bool:
        """Whether a wait on `kind` is a wait at all: the wall has the kind, the hand holds not all of it (its
        copies left may still be 0, when every other one is seen) and the player may win holding it."""
        return self.held[kind] < self.composition.copies[kind] and kind not in self.void

    @property
    def counts(self) -> Tuple[int, ...]:
        """Tiles left of each of the 34 kinds."""
        return tuple(self.left(k) for k in range(NUM_KINDS))

    @property
    def live(self) -> int:
        """Every tile not yet seen by this player (flowers aside): in the wall or in another's hand."""
        return sum(self.counts)

    @property
    def draws_left(self) -> int:
        """At most how many tiles are still drawn before the deal ends: the unseen less the dead wall."""
        return max(0, self.live - self.dead)


SEAT_WORDS = {"E": "E", "S": "S", "W": "W", "N": "N", "东": "E", "南": "S", "西": "W", "北": "N", "東": "E"}
# a message's seats said in Chinese by their words: "一桌要四位玩家：西、北 没有人"
messages.ZH_NAMES["seats"] = dict(zip(SEATS, "东南西北"))


def seat_word(text: object) -> Optional[str]:
    """The seat letter E S W N a word names (`E`, `e`, `东`, `東`…, spaces around it ignored), else None."""
    return SEAT_WORDS.get(text.strip().upper()) if isinstance(text, str) else None


def parse_seat(value: object) -> str:
    """A seat letter E S W N from `E`/`e`/`东`/`東`…; anything else is a SituationError."""
    seat = seat_word(value)
    if seat is None:
        raise SituationError("seat.expected", value=shown(value))
    return seat
