"""The one place a command's document (`render.Doc`) becomes output: JSON, or text for a terminal.

Text fits the terminal's width (`COLUMNS`, else the terminal, else 80): a field's text wraps under its label,
and a table too wide has its widest columns wrapped. A new output format is one more function here.
"""
import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

import click

from ..errors import json_text, printable
from .common import echo, said
from .text_table import line_width, simple_table

if TYPE_CHECKING:  # for their types only: the renderer is imported by the command that uses it (start-up time)
    from ..render import Doc, Tone

LABEL = 10  # "hand      …": labels take ten columns
MIN_COLUMN = 6
_TONES: Dict[str, Dict[str, Any]] = {"good": {"fg": "green"}, "bad": {"fg": "red"}, "strong": {"bold": True}}


def width() -> int:
    """The columns to fit: $COLUMNS, else the terminal's, else 80; never below 40."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        try:
            columns = os.get_terminal_size(1).columns
        except OSError:
            columns = 80
    return max(40, columns)


def shown_width(text: str) -> int:
    """Columns `text` takes on a terminal (CJK characters two, colour codes none)."""
    measured = line_width(text)
    if measured is not None:
        return measured
    from wcwidth import wcswidth  # only for characters text_table does not measure (start-up time)
    return max(0, wcswidth(click.unstyle(text)))


def emit(doc: "Doc", as_json: bool = False, err: bool = False) -> None:
    """Print `doc`: its JSON document, or its text (on stderr with `err`: a preview beside a JSON answer); its
    warnings go to stderr either way."""
    for notice in doc.warnings:
        echo(f"warning: {printable(said(notice))}", err=True)
    if as_json:
        click.echo(json_text(doc.data), err=err)
    else:
        echo(text(doc, width()), err=err)


def _styled(value: object, tone: Optional["Tone"] = None) -> str:
    if isinstance(value, tuple):
        value, tone = value
    if isinstance(value, list):  # several lines in one cell
        return "\n".join(_styled(v) for v in value)
    return click.style(str(value), **_TONES[tone]) if tone else str(value)


def text(doc: "Doc", columns: int = 80) -> str:
    """The document as lines of text at most `columns` wide (a single word longer than that is left whole)."""
    lines = []
    for block in doc.blocks:
        kind = block[0]
        if kind == "field":
            _, label, body, tone = block
            lines += _field(label, str(body), tone, columns)
        elif kind == "text":
            lines.append(printable(block[1], keep_newlines=True))
        elif kind == "line":
            _, body, tone = block
            lines += [_styled(part, tone) for part in _wrap(str(body), columns, "")] if body else [""]
        else:
            _, headers, rows = block
            lines.append(_table(headers, rows, columns))
    return "\n".join(lines).replace("\u00a0", " ")  # a no-break space held two words on one line: a space now


def _field(label: str, body: str, tone: Optional["Tone"], columns: int) -> List[str]:
    indent = " " * LABEL
    wrapped = _wrap(body, columns, indent, first=label.ljust(LABEL) if label else indent)
    return [wrapped[0][:LABEL] + _styled(wrapped[0][LABEL:], tone)] + [indent + _styled(w[LABEL:], tone)
                                                                        for w in wrapped[1:]]


def _wrap(body: str, columns: int, indent: str, first: str = "") -> List[str]:
    """`body` wrapped to `columns`, the first line after `first`, the others after `indent`."""
    if shown_width(first + body) <= columns:
        return [first + body]
    out, line, fresh = [], first, True
    for word in body.split(" "):
        candidate = line + word if fresh else f"{line} {word}"
        if shown_width(candidate) > columns and not fresh:
            out.append(line)
            line = indent + word
        else:
            line = candidate
        fresh = False
    out.append(line)
    return out


def _words(cell: str) -> List[str]:
    """The words of a cell as it is wrapped: a no-break space holds its two sides in one word."""
    return cell.replace("\n", " ").split(" ")


def _table(headers: Sequence[object], rows: Sequence[Sequence[object]], columns: int) -> str:
    cells = [[_styled(c) for c in row] for row in rows]

    def render(limits: Optional[List[int]]) -> str:
        # a header is drawn two wider than its longest line, so it is wrapped two narrower than its column (never
        # below its longest word: the column's floor is that and two)
        heads = headers if limits is None else [
            "\n".join(part for line in str(h).split("\n") for part in _wrap(line, max(1, limit - 2), ""))
            for h, limit in zip(headers, limits)]
        drawn = simple_table(cells, heads, limits)  # wrapped or not, drawn without importing tabulate
        if drawn is not None:
            return drawn
        from tabulate import tabulate  # only for characters text_table does not measure (start-up time)
        by_tabulate: str = tabulate(cells, headers=heads, tablefmt="simple", disable_numparse=True, maxcolwidths=limits)
        return by_tabulate

    natural = [max([shown_width(line) + 2 * bool(line) for line in str(headers[i]).split("\n")] +  # drawn 2 wider
                   [shown_width(line) for row in cells for line in row[i].split("\n")])
               for i in range(len(headers))]
    # a column is never narrower than its longest word (a label cut in two reads as two labels)
    # (tabulate pads every header by two: a column is at least its header's longest word and two)
    floors = [max([MIN_COLUMN] + [shown_width(word) + 2 for word in str(headers[i]).split()]
                  + [shown_width(word) for row in cells for word in _words(row[i])]) for i in range(len(headers))]
    floors = [min(f, max(n, max([shown_width(w) + 2 for w in str(headers[i]).split()] or [0])))
              for i, (f, n) in enumerate(zip(floors, natural))]
    gaps = 2 * (len(natural) - 1)  # "simple" tables put two spaces between columns
    if sum(floors) + gaps > columns and len(headers) > 2:
        # too many columns to fit even at their longest words: several tables, each repeating the first column
        groups: List[List[int]] = []
        group: List[int] = []
        used = floors[0]
        for i in range(1, len(headers)):
            if group and used + 2 + floors[i] > columns:
                groups.append(group)
                group, used = [], floors[0]
            group.append(i)
            used += 2 + floors[i]
        groups.append(group)
        if len(groups) > 1:
            return "\n\n".join(_table([headers[0]] + [headers[i] for i in g],
                                        [[row[0]] + [row[i] for i in g] for row in rows], columns) for g in groups)

    def narrower(limits: List[int]) -> bool:
        wide = [i for i in range(len(limits)) if limits[i] > floors[i]]
        if not wide:
            return False
        limits[max(wide, key=lambda i: limits[i])] -= 1
        return True

    limits = list(natural)
    while sum(limits) + gaps > columns and narrower(limits):
        pass
    out = render(limits if limits != natural else None)
    for _ in range(40):  # a cell that cannot break where asked makes its column wider: ask again, narrower
        if max(shown_width(line) for line in out.split("\n")) <= columns or not narrower(limits):
            break
        out = render(limits)
    return out
