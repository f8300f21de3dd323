"""Joining a table from a phone: the page's URL as a QR code (terminal text and SVG, by segno), and what makes the
page installable: its web manifest and its icons (PNG drawn here, with zlib and struct; nothing read from a file).

The manifest and the icons hold no data, so the server answers them without the token; the manifest's start_url
is "/" (the page keeps the token itself), never a URL with the token in it.
"""
import io
import json
import struct
import zlib
from functools import lru_cache
from typing import Callable, Dict, Tuple

import segno

THEME = "#0b6e4f"  # the page's green
BACKGROUND = "#fbf8f1"
ICON_SIZES = (192, 512)
# The icon, as rectangles in fractions of its side, painted in order: a tile on the green, a red 中 on the tile.
_RED, _TILE = "#c0392b", "#fbf6e9"
_ICON = (
    (0.00, 0.00, 1.00, 1.00, THEME),
    (0.22, 0.10, 0.78, 0.90, _TILE),
    (0.30, 0.34, 0.70, 0.62, _RED),  # the box of 中 …
    (0.36, 0.40, 0.64, 0.56, _TILE),  # … hollow
    (0.47, 0.20, 0.53, 0.80, _RED),  # its stroke down
)


def qr_code(url: str) -> "segno.QRCode":
    """The QR code of `url` (always a full QR code: phones' cameras do not read Micro QR)."""
    return segno.make_qr(url)


def qr_terminal(url: str) -> str:
    """The QR code of `url` as segno prints it in a terminal, two rows of modules a line (half blocks)."""
    out = io.StringIO()
    qr_code(url).terminal(out=out, compact=True)
    return out.getvalue()


def qr_svg(url: str) -> str:
    """The QR code of `url` as an SVG element: black on white (scannable in a dark theme too), 4 px a module.

    With its namespace (segno's svg_inline() leaves it out): the page shows it as an <img> data URL, and an SVG image
    without xmlns="http://www.w3.org/2000/svg" is not drawn at all. No XML declaration and no trailing newline."""
    out = io.BytesIO()
    qr_code(url).save(out, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode("utf-8")


def manifest() -> bytes:
    """The web manifest: mjcalc's name, icons and colours; id and start_url "/" (never the token)."""
    icons = [{"src": f"/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"} for n in ICON_SIZES]
    icons.append({"src": "/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"})
    doc = {"name": "mjcalc", "short_name": "mjcalc", "description": "算番 and the table's ledger (mjcalc serve)",
           "lang": "zh", "id": "/", "start_url": "/", "scope": "/", "display": "standalone",
           "theme_color": THEME, "background_color": BACKGROUND, "icons": icons}
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour[1:])


@lru_cache(maxsize=None)
def icon_png(size: int) -> bytes:
    """The icon as a `size`×`size` RGB PNG."""
    rows = []
    spans = [(round(x0 * size), round(y0 * size), round(x1 * size), round(y1 * size), _rgb(c))
             for x0, y0, x1, y1, c in _ICON]
    for y in range(size):
        row = bytearray(size * 3)
        for x0, y0, x1, y1, rgb in spans:
            if y0 <= y < y1:
                row[x0 * 3:x1 * 3] = rgb * (x1 - x0)
        rows.append(b"\0" + bytes(row))  # filter type 0 (none) before each row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8 bits a channel, RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))


@lru_cache(maxsize=None)
def icon_svg() -> bytes:
    """The same icon as SVG, for a browser that takes one."""
    rects = "".join(f'<rect x="{x0 * 100:g}" y="{y0 * 100:g}" width="{(x1 - x0) * 100:g}" height="{(y1 - y0) * 100:g}"'
                    f' fill="{c}"/>' for x0, y0, x1, y1, c in _ICON)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{rects}</svg>'.encode("utf-8")


# path → (content type, the body's maker): the files the server gives without the token
FILES: Dict[str, Tuple[str, Callable[[], bytes]]] = {
    "/manifest.webmanifest": ("application/manifest+json; charset=utf-8", manifest),
    "/icon-192.png": ("image/png", lambda: icon_png(192)),
    "/icon-512.png": ("image/png", lambda: icon_png(512)),
    "/icon.svg": ("image/svg+xml", icon_svg),
}
