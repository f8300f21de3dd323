"""The hand notation (README, `mjcalc help notation`): `parse_hand(text) -> Hand`, `format_hand(hand) -> str`.

Grammar (whitespace between groups is ignored)::

    hand    := item+
    item    := group | meld | '+' tile
    group   := digit+ suit | honor | glyph | '*'
    digit   := 1-9 | 一…九              suit := m p s z | 万 筒 饼 条 索 (and 萬 餅 條)
    honor   := E S W N C F P | 东 南 西 北 中 发 白 (and 東 發; 红中 红 for 中, 发财 for 发, 白板 for 白)
    幺鸡    := 1s (the one of bamboos, by its bird)
    meld    := '[' group+ ']' seat?  (chow, pung or kong)  |  '{' group+ '}'  (concealed kong)
    seat    := E S W N, right after ']' with no space: the seat the meld was claimed from ([5555p]W)

`z` digits follow the Chinese order: 1-4z = E S W N, 5z = 中 C, 6z = 发 F, 7z = 白 P.

A seat letter written right after an exposed meld's closing bracket names the seat it was claimed from:
`[5555p]W` is an exposed kong of 5p claimed from West. With a space it is a loose tile: `[EEE] E`.
`format_hand` writes a space between a meld and any tile that follows it, so the two never mix.
"""
import dataclasses
from collections import Counter

from .errors import HandError, NotationError
from .hand import CHOW, KONG, PUNG, Hand, Meld
from .tiles import GLYPHS, HONOR_LETTERS, NAMES, WILD, WILD_GLYPH

MAX_INPUT = 200

_SUIT_OFFSETS = {"m": 0, "万": 0, "萬": 0, "p": 9, "筒": 9, "饼": 9, "餅": 9, "s": 18, "条": 18, "條": 18, "索": 18}
_HONOR_CHARS = {c: 27 + i for i, c in enumerate(HONOR_LETTERS)}
_HONOR_CHARS.update({c: 27 + i for i, c in enumerate("东南西北中发白")})
_HONOR_CHARS.update({"東": 27, "發": 32})
# Words for a tile, each replaced by text of the same length so that columns in messages stay right.
_WORDS = (("红中", "中 "), ("發財", "發 "), ("发财", "发 "), ("白板", "白 "), ("幺鸡", "1s"), ("么鸡", "1s"),
          ("红", "中"), ("紅", "中"))
_DIGITS = {str(d): d for d in range(1, 10)}
_DIGITS.update({c: i + 1 for i, c in enumerate("一二三四五六七八九")})
_GLYPH_TILES = {g: t for t, g in enumerate(GLYPHS)}
_GLYPH_TILES[WILD_GLYPH] = WILD
_SEAT_LETTERS = "ESWN"


def _shown(text: str) -> str:
    """`text` quoted in a one-line message: line breaks and control characters escaped (`\\n`, `\\x1b`)."""
    import unicodedata  # only when a message is written (start-up time)
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
        for ch in text
    )


class _Reader:
    """Turns text into concealed tiles, melds and the `+` tile, remembering columns for errors."""

    def __init__(self, text: str):
        self.text = text
        self.concealed = []  # (tile, column)
        self.melds = []  # (closing char, [tiles], column)
        self.meld = None
        self.plus = None  # column of '+', while waiting for its tile
        self.winning = None
        self.digits = []  # (digit, column) waiting for a suit letter
        self.closed_at = None  # the column of the ']' that closed the last exposed meld

    def fail(self, message: str, column: int) -> NotationError:
        return NotationError(f'{message} at column {column} in "{_shown(self.text)}"')

    def read(self):
        text = self.text
        for word, same in _WORDS:
            text = text.replace(word, same)
        for column, ch in enumerate(text, 1):
            self.step(ch, column)
        self.flush_digits_error()
        if self.meld is not None:
            raise self.fail(f"unclosed '{'[' if self.meld[0] == ']' else '{'}'", self.meld[2])
        if self.plus is not None:
            raise self.fail("'+' with no tile after it", self.plus)
        return self

    def flush_digits_error(self):
        if self.digits:
            written = "".join(self.text[c - 1] for _, c in self.digits)
            raise self.fail(f"digits '{written}' without a suit letter (m, p, s or z)", self.digits[0][1])

    def step(self, ch: str, column: int):
        if ch in _SEAT_LETTERS and self.closed_at == column - 1 and not self.digits:
            meld, start = self.melds[-1]
            self.melds[-1] = (dataclasses.replace(meld, claimed_from=ch), start)
            return
        if ch in _DIGITS:
            self.digits.append((_DIGITS[ch], column))
        elif ch == "0":
            raise self.fail("'0' is not a rank (ranks are 1-9)", column)
        elif ch in _SUIT_OFFSETS or ch == "z":
            self.suit(ch, column)
        elif ch.isspace():
            self.flush_digits_error()
        else:
            if self.digits and ch.isascii() and ch.isalpha() and ch not in HONOR_LETTERS:
                written = "".join(self.text[c - 1] for _, c in self.digits)
                raise self.fail(f"unknown suit letter '{ch}' after '{written}' (suits are m p s z, or 万 筒 条)", column)
            self.flush_digits_error()
            if ch in _HONOR_CHARS:
                self.add(_HONOR_CHARS[ch], column)
            elif ch in _GLYPH_TILES:
                self.add(_GLYPH_TILES[ch], column)
            elif ch == "*":
                self.add(WILD, column)
            elif ch in "[{":
                self.open(ch, column)
            elif ch in "]}":
                self.close(ch, column)
            elif ch == "+":
                self.plus_sign(column)
            elif ch in "eswncfp" and ch.upper() in HONOR_LETTERS:
                raise self.fail(f"unknown character '{ch}' (winds and dragons are upper case: E S W N C F P)", column)
            elif "\U0001F022" <= ch <= "\U0001F029":
                raise self.fail(f"flower and season tiles are not used ('{ch}')", column)
            else:
                raise self.fail(f"unknown character '{_shown(ch)}'", column)

    def suit(self, ch: str, column: int):
        if not self.digits:
            raise self.fail(f"suit letter '{ch}' without digits before it", column)
        digits, self.digits = self.digits, []
        if self.plus is not None and len(digits) > 1:
            raise self.fail(f"'+' marks one winning tile, but {len(digits)} digits follow it (write +{digits[0][0]}{ch})",
                            self.plus)
        for digit, at in digits:
            if ch == "z":
                if digit > 7:
                    raise self.fail(f"'{digit}z' is not an honor (1-7z are E S W N C F P)", at)
                self.add(26 + digit, at)
            else:
                self.add(_SUIT_OFFSETS[ch] + digit - 1, at)

    def add(self, tile: int, column: int):
        if self.plus is not None:
            if self.meld is not None:
                raise self.fail("'+' inside a meld", self.plus)
            self.winning = (tile, self.plus)
            self.plus = None
        elif self.meld is not None:
            if tile == WILD:
                raise self.fail("a wildcard '*' cannot be in a meld: write the tile it stands for", column)
            self.meld[1].append(tile)
        else:
            self.concealed.append((tile, column))

    def open(self, ch: str, column: int):
        if self.meld is not None:
            raise self.fail(f"'{ch}' inside an open meld", column)
        if self.plus is not None:
            raise self.fail("'+' must be followed by a tile, not a meld", self.plus)
        self.meld = ("]" if ch == "[" else "}", [], column)

    def close(self, ch: str, column: int):
        if self.meld is None:
            raise self.fail(f"'{ch}' without its opening bracket", column)
        if self.meld[0] != ch:
            opened = "[" if self.meld[0] == "]" else "{"
            raise self.fail(f"'{ch}' closes the '{opened}' at column {self.meld[2]}, which needs '{self.meld[0]}'", column)
        closing, tiles, start = self.meld
        self.meld = None
        if not tiles:
            raise self.fail("empty meld", start)
        self.melds.append((_make_meld(tiles, closing == "}", self, start), start))
        if closing == "]":
            self.closed_at = column

    def plus_sign(self, column: int):
        if self.plus is not None or self.winning is not None:
            raise self.fail("more than one '+' (one winning tile per hand)", column)
        if self.meld is not None:
            raise self.fail("'+' inside a meld", column)
        self.plus = column


def _make_meld(tiles, concealed: bool, reader: _Reader, column: int) -> Meld:
    tiles = tuple(sorted(tiles))
    written = " ".join(NAMES[t] for t in tiles)
    if concealed:
        if len(tiles) == 4 and len(set(tiles)) == 1:
            return Meld(KONG, tiles, concealed=True)
        raise reader.fail(f"{{{written}}} is not a concealed kong (four identical tiles)", column)
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld(KONG, tiles)
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return Meld(PUNG, tiles)
    a, b, c = tiles if len(tiles) == 3 else (0, 0, 0)
    if len(tiles) == 3 and a < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2:
        return Meld(CHOW, tiles)
    raise reader.fail(f"[{written}] is not a set (a chow, pung or kong)", column)


def parse_hand(text: str) -> Hand:
    """Read a hand in mjcalc notation; raise NotationError/HandError with one precise line."""
    if len(text) > MAX_INPUT:
        raise NotationError(f"input too long: {len(text)} characters (a hand is at most {MAX_INPUT})")
    reader = _Reader(text).read()
    if not reader.concealed and not reader.melds and reader.winning is None:
        raise NotationError("empty hand: write tiles like 123m456p789s EE 45m +6m")
    concealed = [t for t, _ in reader.concealed]
    melds = tuple(sorted(m for m, _ in reader.melds))
    winning = reader.winning[0] if reader.winning else None
    size = len(concealed) + (winning is not None) + 3 * len(melds)
    if size not in (13, 14):
        raise HandError(f"{size} tile{'s' if size != 1 else ''}: a hand has 13 (to find waits) or 14 (to score)")
    if winning is not None and size == 13:
        raise HandError("13 tiles with a '+' winning tile: a hand to score has 14 (drop the '+' to find waits)")
    implied = False
    if size == 14 and winning is None:
        if not concealed:
            raise HandError("a 14-tile hand needs a concealed winning tile")
        winning, implied = concealed.pop(), True
    counts = Counter(t for t in concealed + [winning] + [t for m in melds for t in m.tiles] if t not in (None, WILD))
    for tile, n in sorted(counts.items()):
        if n > 4:
            raise HandError(f"{n} copies of {NAMES[tile]}: there are only 4 of each tile")
    return Hand(tuple(sorted(concealed)), melds, winning, implied)


def parse_tiles(text: str):
    """Loose tiles and melds that are not a hand (`--wild`, `--seen`): (tiles, melds, winning or None)."""
    reader = _Reader(text).read()
    melds = [m for m, _ in reader.melds]
    return [t for t, _ in reader.concealed], melds, reader.winning


def format_hand(hand: Hand) -> str:
    """The canonical notation of a hand; `parse_hand(format_hand(h)) == h`."""
    return str(hand)
