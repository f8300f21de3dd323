"""Tables drawn as tabulate's "simple" format draws them, without importing tabulate.

`tabulate(rows, headers, tablefmt="simple", disable_numparse=True, maxcolwidths=limits)` is the reference, the same
to the character (tests/test_cli_table_format.py compares the two over generated tables). Importing tabulate (it
looks up its own version in the package metadata and imports wcwidth) and its wrapping were a third of a short
command's time, so every table mjcalc prints is drawn here; tabulate is left only the tables with something this
module does not measure (`simple_table` answers None for them).
"""
import re
from functools import lru_cache
from textwrap import TextWrapper
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
_RESET = "\x1b[0m"
# Characters whose width is east_asian_width's (2 for W and F, else 1), the same as wcwidth's for every one of
# them (a test checks each): printable ASCII, Latin-1, Latin Extended-A and -B (pinyin's tone marks), general
# punctuation, arrows, mathematical operators, box drawing, CJK punctuation, CJK ideographs, fullwidth forms,
# mahjong tiles (--glyphs).
_PLAIN_RANGES = ((0x20, 0x7E), (0xA1, 0x24F), (0x2010, 0x2027), (0x2030, 0x205E), (0x2190, 0x22FF),
                 (0x2500, 0x257F), (0x3001, 0x303E), (0x4E00, 0x9FFF), (0xFF01, 0xFF60), (0x1F000, 0x1F02B))


def char_width(ch: str) -> Optional[int]:
    """The terminal width of `ch` when it is one this module measures, else None."""
    code = ord(ch)
    if code < 0x7F:
        return 1 if code >= 0x20 else None
    if code == 0xA0:  # a no-break space: one column, and never a place to wrap
        return 1
    for low, high in _PLAIN_RANGES:
        if low <= code <= high:
            import unicodedata  # a C module, needed for wide text only (start-up time)
            if unicodedata.category(ch)[0] not in "LNPS":
                return None
            return 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return None


_KNOWN: Dict[str, Optional[int]] = {}  # char_width of the non-ASCII characters seen (a wrapped table measures each many times)


def text_width(text: str) -> Optional[int]:
    """The terminal width of `text` (no colour codes) when this module measures each of its characters, else None."""
    if text.isascii():
        return len(text) if text.isprintable() else None
    try:
        return sum([1 if " " <= ch <= "~" else _KNOWN[ch] for ch in text])  # type: ignore[misc]  # None: TypeError
    except KeyError:  # characters not seen yet
        _KNOWN.update((ch, char_width(ch)) for ch in set(text) if ch not in _KNOWN)
        return text_width(text)
    except TypeError:  # one not measured (None)
        return None


def _visible(text: str) -> str:
    return _COLOUR.sub("", text) if "\x1b" in text else text


@lru_cache(maxsize=8192)  # each try at a narrower table measures mostly the lines the last one did
def line_width(text: str) -> Optional[int]:
    """The width of one line that may carry colour codes; None for anything else unprintable (line breaks, tabs,
    other escapes) or not measured."""
    return text_width(_visible(text))


def _known_width(text: str) -> int:
    """`line_width` of a line found measured already (or a piece of one)."""
    width = line_width(text)
    assert width is not None
    return width


def simple_table(rows: Iterable[Sequence[object]], headers: Iterable[object],
                 limits: Optional[Sequence[Optional[int]]] = None) -> Optional[str]:
    """tabulate(rows, headers, tablefmt="simple", disable_numparse=True, maxcolwidths=limits), the same to the
    character, for text and int cells (one line or several) under a full header; None for any other table.

    Cells may hold "\\n"; a column with a limit has its cells wrapped to it (`wrap_cell`). Cells are stripped (the
    header is not), every cell left-aligned; a column is as wide as its widest line, and at least its header and
    two. Each row is as tall as its tallest cell, but only once some cell or header has a line break: until then
    a row of empty cells is still one (blank) line."""
    headers = list(headers)
    rows = [list(r) for r in rows]
    if not headers or not rows or any(len(r) != len(headers) for r in rows):
        return None
    no_limit: List[Optional[int]] = [None]
    limits = no_limit * len(headers) if limits is None else list(limits) + no_limit * (len(headers) - len(limits))
    if len(limits) != len(headers) or not all(_is_cell(c) for row in [headers] + rows for c in row):
        return None
    texts = [[str(h) for h in headers]]
    for row in rows:
        cells = [str(c) if limit is None else wrap_cell(str(c), limit) for c, limit in zip(row, limits)]
        wrapped = [c for c in cells if c is not None]
        if len(wrapped) < len(cells):
            return None
        texts.append(wrapped)
    if any(line_width(line) is None for row in texts for text in row for line in text.split("\n")):
        return None
    several = any("\n" in text for row in texts for text in row)  # decided before the cells are stripped
    head = [text.split("\n") for text in texts[0]]
    body = [[text.strip().split("\n") if text.strip() else [] for text in row] for row in texts[1:]]
    measured = [[[_known_width(line) for line in lines] for lines in row] for row in [head] + body]
    columns = [max([max(measured[0][j]) + 2] + [w for row in measured[1:] for w in row[j]])
               for j in range(len(headers))]

    def draw(row: List[List[str]], widths: List[List[int]]) -> List[str]:
        height = max(len(lines) for lines in row) if several else 1
        return ["  ".join(lines[k] + " " * (column - seen[k]) if k < len(lines) else " " * column
                          for lines, seen, column in zip(row, widths, columns)).rstrip() for k in range(height)]

    out = draw(head, measured[0]) + ["  ".join("-" * c for c in columns)]
    for row, widths in zip(body, measured[1:]):
        out += draw(row, widths)
    return "\n".join(out)


def _is_cell(value: object) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


@lru_cache(maxsize=4096)  # output.py draws a table again at each narrower try, most cells as before
def wrap_cell(text: str, width: int) -> Optional[str]:
    """`text` wrapped to `width` columns as tabulate's maxcolwidths wraps a cell; None where tabulate would change
    the cell otherwise (`_kept_by_type_guess`) or the cell has something not measured here.

    Each line of the cell is wrapped on its own, blank lines dropped: textwrap's chunks (words, runs of spaces, the
    pieces of hyphenated words) fill a line while they fit; a space does not begin a line (the first one excepted)
    nor end one; a chunk wider than the column is cut to fill the line. A colour still open at the end of a line is
    closed there and opened again on the next (also across the cell's own lines)."""
    if width < 1 or not _kept_by_type_guess(text):
        return None
    visible = _visible(text)
    lines = [line for line in text.split("\n") if line.strip()]
    if any(line_width(line) is None for line in lines):
        return None
    if width < 2 and any(line_width(ch) == 2 for ch in visible):
        width = 2  # tabulate would never finish: a wide character cannot start a one-column line
    open_codes: List[str] = []
    out = []
    for line in lines:
        for piece in _fill(line, width):
            codes = _COLOUR.findall(piece)
            piece = "".join(open_codes) + piece
            for code in codes:
                if code == _RESET:
                    open_codes.clear()
                else:
                    open_codes.append(code)
            out.append(piece + _RESET if open_codes else piece)
    return "\n".join(out)


_NUMBER_LIKE = re.compile(r"[+-]?[0-9,]*(\.[0-9]*)?\n?")


def _kept_by_type_guess(text: str) -> bool:
    """Whether tabulate leaves the cell as it is before wrapping it. It guesses the cell's type (colour codes and
    all) and converts it: a number stays as written, but "False" becomes "True", and text it takes for a number
    with thousands separators ("1,000", a lone line break) makes it fail. False for those, and for a few more
    number-like cells to be safe."""
    try:
        number = float(text)
        if number - number == 0 or text.lower() in ("inf", "-inf", "nan"):  # finite, or written as such
            return True
    except ValueError:
        pass
    if text in ("True", "False", "\n"):
        return False
    return not (any(ch.isdigit() for ch in text) and _NUMBER_LIKE.fullmatch(text))


def _fill(line: str, width: int) -> List[str]:
    """One line of a cell cut into lines at most `width` wide (before colours are carried over)."""
    chunks = [(c, _known_width(c)) for c in reversed(TextWrapper.wordsep_re.split(line)) if c]  # the next chunk is last
    out: List[str] = []
    while chunks:
        if out and not chunks[-1][0].strip():
            chunks.pop()
        taken, used = [], 0
        while chunks and used + chunks[-1][1] <= width:
            used += chunks[-1][1]
            taken.append(chunks.pop()[0])
        if chunks and chunks[-1][1] > width and used < width:
            head, rest = _cut(chunks[-1][0], width - used)
            chunks[-1] = (rest, _known_width(rest))
            taken.append(head)
        if taken and not taken[-1].strip():
            taken.pop()
        if taken:
            out.append("".join(taken))
    return out


def _cut(chunk: str, room: int) -> Tuple[str, str]:
    """`chunk` split before its first visible character that does not fit in `room` columns (colour codes before
    that character go with the first part)."""
    used = 0
    at = 0
    while at < len(chunk):
        code = _COLOUR.match(chunk, at)
        if code:
            at = code.end()
            continue
        used += _known_width(chunk[at])
        if used > room:
            break
        at += 1
    return chunk[:at], chunk[at:]


def wrap_text(text: str, width: int) -> List[str]:
    """One line of text in lines at most `width` columns wide, cut where a table cell is cut (at spaces, and
    inside a word longer than the line: CJK text has no spaces); a character not measured here counts one."""
    if any(line_width(ch) is None for ch in set(text)):
        text = "".join(ch if line_width(ch) is not None else "?" for ch in text)  # (printable() has run: rare)
    return _fill(text, max(width, 2)) or [""]
