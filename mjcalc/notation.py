"""The hand notation (README, `mjcalc help notation`): `parse_hand(text) -> Hand`, `format_hand(hand) -> str`.

Grammar (whitespace between groups is ignored)::

    hand    := item+
    item    := group | meld | '+' tile
    group   := digit+ suit | honor | glyph | '*'
    digit   := 1-9 | 一…九              suit := m p s z | 万 筒 饼 条 索 (and 萬 餅 條)
    honor   := E S W N C F P | 东 南 西 北 中 发 白 (and 東 發; 红中 红 for 中, 发财 for 发, 白板 for 白)
               (红 and 中 run together only as 红中 words: 中红中 is refused, write 中中中 or 红中 红中)
    幺鸡    := 1s (the one of bamboos, by its bird)
    meld    := '[' group+ ']' seat?  (chow, pung or kong)  |  '{' group+ '}'  (concealed kong)
    seat    := E S W N, right after ']' with no space: the seat the meld was claimed from ([5555p]W)
    flower  := f1 … f8 | 🀢 … 🀩   (花牌, anywhere: set aside beside the hand, never among its 13 or 14)

`z` digits follow the Chinese order: 1-4z = E S W N, 5z = 中 C, 6z = 发 F, 7z = 白 P.

A seat letter written right after an exposed meld's closing bracket names the seat it was claimed from:
`[5555p]W` is an exposed kong of 5p claimed from West. With a space it is a loose tile: `[EEE] E`.
`format_hand` writes a space between a meld and any tile that follows it, so the two never mix.

A hand of the wrong size is refused with what was read, group by group in the order written, and where the
count went wrong: "15 tiles: 147m 258p 369s E S W N C +F — the winning tile +F is one of the 14: write 13
before it"; a meld counts 3 toward the 14, a kong too, and the message adds up the melds apart.
"""
import dataclasses
import re
from collections import Counter
from typing import Any, List, Optional, Tuple

from .errors import HandError, NotationError
from .hand import CHOW, KONG, PUNG, Hand, Meld
from .messages import Message, escaped
from .tiles import FLOWER_GLYPHS, FLOWERS, GLYPHS, HONOR_LETTERS, NAMES, WILD, WILD_GLYPH, format_tiles, tile_text

MAX_INPUT = 200
ECHO_LIMIT = 80  # a refused hand's echo is cut here: a hand is about 40 characters

_SUIT_OFFSETS = {"m": 0, "万": 0, "萬": 0, "p": 9, "筒": 9, "饼": 9, "餅": 9, "s": 18, "条": 18, "條": 18, "索": 18}
_HONOR_CHARS = {c: 27 + i for i, c in enumerate(HONOR_LETTERS)}
_HONOR_CHARS.update({c: 27 + i for i, c in enumerate("东南西北中发白")})
_HONOR_CHARS.update({"東": 27, "發": 32})
# Words for a tile, each replaced by text of the same length so that columns in messages stay right.
_WORDS = (("红中", "中 "), ("紅中", "中 "), ("發財", "發 "), ("发财", "发 "), ("白板", "白 "), ("幺鸡", "1s"),
          ("么鸡", "1s"), ("红", "中"), ("紅", "中"))
# 红 alone is 中 too, so 中红中 could be two tiles (中 红中) or three (中 红 中): a run mixing them is refused
# unless it is 红中 words only; 中中中 and 红红红 read one way.
_RED_RUN = re.compile("[中红紅]+")
_RED_WORDS = re.compile("(?:[红紅]中)+")
_DIGITS = {str(d): d for d in range(1, 10)}
_DIGITS.update({c: i + 1 for i, c in enumerate("一二三四五六七八九")})
_GLYPH_TILES = {g: t for t, g in enumerate(GLYPHS)}
_GLYPH_TILES[WILD_GLYPH] = WILD
_SEAT_LETTERS = "ESWN"
# a flower: f and its number, not after a digit (`5f` is a suit letter unknown); or its glyph
_FLOWER = re.compile("(?<![0-9一二三四五六七八九])f([0-9])|[" + "".join(FLOWER_GLYPHS) + "]")
# Every character the notation reads (lower-case honors too: it refuses them with a message of its own).
_ALPHABET = frozenset("".join(_DIGITS) + "0z*+[]{}eswncfp" + "".join(_SUIT_OFFSETS) + "".join(_HONOR_CHARS)
                      + "".join(_GLYPH_TILES) + "".join(FLOWER_GLYPHS) + "".join(word for word, _ in _WORDS))


class _Reader:
    """Turns text into concealed tiles, melds and the `+` tile, remembering columns for errors."""

    def __init__(self, text: str):
        self.text = text
        self.concealed: List[Tuple[int, int]] = []  # (tile, column)
        self.melds: List[Tuple[Meld, int]] = []  # (meld, column)
        self.meld: Optional[Tuple[str, List[int], int]] = None  # (closing char, [tiles], column) while open
        self.plus: Optional[int] = None  # column of '+', while waiting for its tile
        self.winning: Optional[Tuple[int, int]] = None  # (tile, column)
        self.digits: List[Tuple[int, int]] = []  # (digit, column) waiting for a suit letter
        self.closed_at: Optional[int] = None  # the column of the ']' that closed the last exposed meld
        self.flowers: List[int] = []  # 1-8, in the order written

    def echo(self) -> str:
        """What was read, in the order written: each run of loose tiles written without a space as its canonical
        groups (`147m 258p`), each meld as a group (`[1111m]`), the winning tile (`+F`)."""
        items = [(c, str(m)) for m, c in self.melds]
        if self.winning is not None:
            items.append((self.winning[1], "+" + tile_text(self.winning[0])))
        runs: List[List[Tuple[int, int]]] = []  # each run of loose tiles: [(tile, column)]
        for tile, column in self.concealed:  # in the order written
            last = runs[-1][-1][1] if runs else 0
            joined = not any(ch.isspace() for ch in self.text[last:column - 1])
            if runs and joined and not any(last < c < column for c, _ in items):
                runs[-1].append((tile, column))
            else:
                runs.append([(tile, column)])
        items += [(run[0][1], format_tiles(t for t, _ in run)) for run in runs]
        written = " ".join(text for _, text in sorted(items))
        return written if len(written) <= ECHO_LIMIT else written[:ECHO_LIMIT - 1] + "…"

    def fail(self, code: str, column: int, **params: Any) -> NotationError:
        """The error `code` (a `notation.*` message), placed: at which column of which text."""
        return NotationError(code, at=Message("notation.at", column=column, text=escaped(self.text)), **params)

    def read(self) -> "_Reader":
        text = self.flowers_read(self.text)
        for run in _RED_RUN.finditer(text):
            written = run.group()
            if "中" in written and written.strip("中") and not _RED_WORDS.fullmatch(written):
                raise self.fail("notation.red_mixed", run.start() + 1, written=written)
        for word, same in _WORDS:
            text = text.replace(word, same)
        for column, ch in enumerate(text, 1):
            self.step(ch, column)
        self.flush_digits_error()
        if self.meld is not None:
            raise self.fail("notation.unclosed", self.meld[2], bracket="[" if self.meld[0] == "]" else "{")
        if self.plus is not None:
            raise self.fail("notation.plus_alone", self.plus)
        return self

    def flowers_read(self, text: str) -> str:
        """The flowers of `text` taken out (each replaced by as many spaces, so columns stay right)."""
        for found in _FLOWER.finditer(text):
            number = int(found.group(1)) if found.group(1) else FLOWER_GLYPHS.index(found.group()) + 1
            if not 1 <= number <= FLOWERS:
                raise self.fail("notation.flower_number", found.start() + 1, written=found.group())
            if number in self.flowers:
                raise self.fail("notation.flower_twice", found.start() + 1, written=found.group())
            self.flowers.append(number)
        return _FLOWER.sub(lambda found: " " * len(found.group()), text)

    def flush_digits_error(self) -> None:
        if self.digits:
            written = "".join(self.text[c - 1] for _, c in self.digits)
            raise self.fail("notation.no_suit", self.digits[0][1], written=written)

    def step(self, ch: str, column: int) -> None:
        if ch in _SEAT_LETTERS and self.closed_at == column - 1 and not self.digits:
            meld, start = self.melds[-1]
            self.melds[-1] = (dataclasses.replace(meld, claimed_from=ch), start)
            return
        if ch in _DIGITS:
            self.digits.append((_DIGITS[ch], column))
        elif ch == "0":
            raise self.fail("notation.zero", column)
        elif ch in _SUIT_OFFSETS or ch == "z":
            self.suit(ch, column)
        elif ch.isspace():
            self.flush_digits_error()
        else:
            if self.digits and ch.isascii() and ch.isalpha() and ch not in HONOR_LETTERS:
                written = "".join(self.text[c - 1] for _, c in self.digits)
                raise self.fail("notation.unknown_suit", column, letter=ch, written=written)
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
                raise self.fail("notation.lower_honor", column, char=ch)
            else:
                raise self.fail("notation.unknown_char", column, char=escaped(ch))

    def suit(self, ch: str, column: int) -> None:
        if not self.digits:
            raise self.fail("notation.suit_alone", column, letter=ch)
        digits, self.digits = self.digits, []
        if self.plus is not None and len(digits) > 1:
            raise self.fail("notation.plus_many", self.plus, count=len(digits), first=digits[0][0], letter=ch)
        for digit, at in digits:
            if ch == "z":
                if digit > 7:
                    raise self.fail("notation.bad_honor", at, digit=digit)
                self.add(26 + digit, at)
            else:
                self.add(_SUIT_OFFSETS[ch] + digit - 1, at)

    def add(self, tile: int, column: int) -> None:
        if self.plus is not None:
            if self.meld is not None:
                raise self.fail("notation.plus_in_meld", self.plus)
            self.winning = (tile, self.plus)
            self.plus = None
        elif self.meld is not None:
            if tile == WILD:
                raise self.fail("notation.wild_in_meld", column)
            self.meld[1].append(tile)
        else:
            self.concealed.append((tile, column))

    def open(self, ch: str, column: int) -> None:
        if self.meld is not None:
            raise self.fail("notation.inside_meld", column, char=ch)
        if self.plus is not None:
            raise self.fail("notation.plus_meld", self.plus)
        self.meld = ("]" if ch == "[" else "}", [], column)

    def close(self, ch: str, column: int) -> None:
        if self.meld is None:
            raise self.fail("notation.no_opening", column, char=ch)
        if self.meld[0] != ch:
            opened = "[" if self.meld[0] == "]" else "{"
            raise self.fail("notation.wrong_close", column, char=ch, opened=opened, opened_at=self.meld[2], needs=self.meld[0])
        closing, tiles, start = self.meld
        self.meld = None
        if not tiles:
            raise self.fail("notation.empty_meld", start)
        self.melds.append((_make_meld(tiles, closing == "}", self, start), start))
        if closing == "]":
            self.closed_at = column

    def plus_sign(self, column: int) -> None:
        if self.plus is not None or self.winning is not None:
            raise self.fail("notation.plus_twice", column)
        if self.meld is not None:
            raise self.fail("notation.plus_in_meld", column)
        self.plus = column


def _make_meld(given: List[int], concealed: bool, reader: _Reader, column: int) -> Meld:
    tiles = tuple(sorted(given))
    written = " ".join(NAMES[t] for t in tiles)
    if concealed:
        if len(tiles) == 4 and len(set(tiles)) == 1:
            return Meld(KONG, tiles, concealed=True)
        raise reader.fail("notation.not_concealed_kong", column, written=written)
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld(KONG, tiles)
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return Meld(PUNG, tiles)
    a, b, c = tiles if len(tiles) == 3 else (0, 0, 0)
    if len(tiles) == 3 and a < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2:
        return Meld(CHOW, tiles)
    raise reader.fail("notation.not_a_set", column, written=written)


def parse_hand(text: str) -> Hand:
    """Read a hand in mjcalc notation; raise NotationError/HandError with one precise line."""
    if len(text) > MAX_INPUT:
        raise NotationError("notation.too_long", length=len(text), limit=MAX_INPUT)
    reader = _Reader(text).read()
    if not reader.concealed and not reader.melds and reader.winning is None:
        raise NotationError("notation.empty")
    concealed = [t for t, _ in reader.concealed]
    melds = tuple(sorted(m for m, _ in reader.melds))
    winning = reader.winning[0] if reader.winning else None
    size = len(concealed) + (winning is not None) + 3 * len(melds)
    if size not in (13, 14) or (winning is not None and size == 13):
        raise _miscounted(reader, size)
    implied = False
    if size == 14 and winning is None:
        if not concealed:
            raise HandError("hand.no_concealed_win")
        winning, implied = concealed.pop(), True
    counts = Counter(t for t in concealed + [winning] + [t for m in melds for t in m.tiles] if t not in (None, WILD))
    for tile, n in sorted(counts.items()):
        if n > 4:
            raise HandError("hand.fifth_copy", count=n, tile=NAMES[tile])
    return Hand(tuple(sorted(concealed)), melds, winning, implied, tuple(sorted(reader.flowers)))


def _miscounted(reader: _Reader, size: int) -> HandError:
    """A hand of the wrong size: what was read, what the melds count, and where the count went wrong."""
    read = reader.echo()
    counted: Any = ""
    if reader.melds:
        kongs = any(m.kind == KONG for m, _ in reader.melds)
        counted = Message("hand.kongs_count" if kongs else "hand.melds_count", melds=3 * len(reader.melds),
                          rest=size - 3 * len(reader.melds))
    if reader.winning is not None and size == 13:
        return HandError("hand.plus_on_13", read=read, counted=counted)
    why = Message("hand.why_plus", tile=tile_text(reader.winning[0])) if reader.winning else Message("hand.why_rule")
    return HandError("hand.size", size=size, plural="s" if size != 1 else "", read=read, counted=counted, why=why)


def written_in_notation(text: str) -> bool:
    """Whether `text` is meant as tiles: written in the notation's characters only, or holding a digit, a
    bracket, '+' or '*' (a word like 自摸 or duiduihe is not), so that the notation's own message says what
    is wrong with it."""
    return all(ch in _ALPHABET or ch.isspace() for ch in text) or any(ch in "0123456789[]{}+*" for ch in text)


def parse_tiles(text: str) -> Tuple[List[int], List[Meld], Optional[Tuple[int, int]]]:
    """Loose tiles and melds that are not a hand (`--wild`, `--seen`): (tiles, melds, winning or None)."""
    reader = _Reader(text).read()
    melds = [m for m, _ in reader.melds]
    return [t for t, _ in reader.concealed], melds, reader.winning


def format_hand(hand: Hand) -> str:
    """The canonical notation of a hand; `parse_hand(format_hand(h)) == h`."""
    return str(hand)
