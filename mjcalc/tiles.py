"""Tiles are ints 0-33: 1-9m, 1-9p, 1-9s, then E S W N C F P (中 发 白)."""

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


def tile_name(tile: int, glyphs: bool = False) -> str:
    return GLYPHS[tile] if glyphs else NAMES[tile]


def format_tiles(tiles, glyphs: bool = False) -> str:
    """Tiles as canonical groups: `123m 45p EE C`, or glyphs with `glyphs`."""
    tiles = sorted(tiles)
    if glyphs:
        return "".join(GLYPHS[t] for t in tiles)
    groups = []
    for t in tiles:
        if t < 27 and groups and groups[-1][-1] == SUITS[t // 9]:
            groups[-1] = groups[-1][:-1] + NAMES[t]
        elif t >= 27 and groups and groups[-1][-1] == NAMES[t]:
            groups[-1] += NAMES[t]
        else:
            groups.append(NAMES[t])
    return " ".join(groups)
