"""Joining from a phone: the QR code `mjcalc serve` prints on a LAN (checked against segno's own encoding),
--public-host, --qr, --open, `GET /api/join`, and the web manifest and icons, served without the token."""
import http.client
import json
import struct
import zlib
from xml.etree import ElementTree

import pytest
import segno
from click.testing import CliRunner

import mjcalc.serve.server as server_module
from browser import start_server
from mjcalc.cli import cli
from mjcalc.serve import join
from mjcalc.serve.server import announce, run

SVG_NS = "http://www.w3.org/2000/svg"
PUBLIC = ("/manifest.webmanifest", "/icon-192.png", "/icon-512.png", "/icon.svg")


def start(tmp_path, host="0.0.0.0", **kwargs):
    return start_server(tmp_path / "ledger.sqlite3", host, **kwargs)


@pytest.fixture
def lan(tmp_path):
    srv = start(tmp_path, public_host="192.0.2.7")
    yield srv
    srv.shutdown()
    srv.server_close()


def get(srv, path, headers=None, method="GET"):
    """(status, headers, body) of one request, with the Host header as given (else the loopback address)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=30)
    try:
        conn.request(method, path, headers={"Host": f"127.0.0.1:{srv.server_address[1]}", **(headers or {})})
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


def printed(srv, **kwargs):
    lines = []
    announce(srv, lambda text: lines.extend(text.split("\n")), **kwargs)
    return lines


HALF_BLOCKS = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}  # (top, bottom), 1 dark


def decode_terminal(lines):
    """The modules (1 dark) of a QR code printed with half blocks, its 4-module quiet zone taken off."""
    rows = []
    for line in lines:
        pairs = [HALF_BLOCKS[c] for c in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return [row[4:-4] for row in rows[4:4 + len(rows[0]) - 8]]


# --- the printed URL and its QR code ---------------------------------------------------------------------------


def test_a_lan_server_prints_a_qr_code_of_its_url_with_the_token(lan):
    lines = printed(lan)
    url = f"http://192.0.2.7:{lan.server_address[1]}/?token={lan.token}"
    assert lines[0] == f"mjcalc serve: http://127.0.0.1:{lan.server_address[1]}/?token={lan.token}"
    assert lines[1] == f"on the network: {url}"
    assert lines[2].startswith("scan it to join")
    block = [line for line in lines if line and set(line) <= set(HALF_BLOCKS)]
    own = segno.make_qr(url)
    assert [list(row) for row in own.matrix] == decode_terminal(block)  # the printed code is the URL's
    assert "\n".join(block) + "\n" == join.qr_terminal(url)
    assert lines[3 + len(block)].startswith("ledger ")


def test_public_host_changes_the_url_and_the_guess_is_used_without_it(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "lan_address", lambda: "10.1.2.3")
    for public, shown in ((None, "10.1.2.3"), ("192.168.50.4", "192.168.50.4"), ("fd00::5", "[fd00::5]")):
        srv = start(tmp_path, public_host=public)
        try:
            assert printed(srv)[1] == f"on the network: http://{shown}:{srv.server_address[1]}/?token={srv.token}"
        finally:
            srv.shutdown()
            srv.server_close()


def test_a_lan_server_with_no_address_found_asks_for_public_host(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "lan_address", lambda: None)
    srv = start(tmp_path)
    try:
        lines = printed(srv)
        assert "no network address found: name the one phones reach this computer at with --public-host ADDR" in lines
        assert not any(set(line) <= set(HALF_BLOCKS) and line for line in lines)
    finally:
        srv.shutdown()
        srv.server_close()


def test_qr_on_loopback_says_to_use_a_lan_host(tmp_path):
    srv = start(tmp_path, host="127.0.0.1")
    try:
        hint = "no QR code on a loopback address (only this computer can open it): use a LAN host, e.g. --host 0.0.0.0"
        assert printed(srv, qr=True) == [f"mjcalc serve: {srv.url}", hint, f"ledger    {srv.lib.db_path}"]
        assert hint not in printed(srv)
    finally:
        srv.shutdown()
        srv.server_close()


def test_open_calls_the_opener_with_the_page_on_this_computer(tmp_path):
    opened, lines = [], []

    def out(text):  # the first line after start-up that waits for Ctrl-C: press it
        lines.append(text)
        if text == "Ctrl-C stops it":
            raise KeyboardInterrupt

    srv = run("0.0.0.0", 0, tmp_path / "l.sqlite3", out=out, open_browser=True, opener=opened.append,
              public_host="192.0.2.7")
    assert opened == [srv.url] and srv.token in srv.url and lines[-1] == "stopping"
    run("127.0.0.1", 0, tmp_path / "l.sqlite3", out=out, opener=opened.append)
    assert opened == [srv.url]  # not without --open


def test_the_serve_command_passes_its_options_on(monkeypatch):
    calls = []
    monkeypatch.setattr(server_module, "run", lambda *a, **k: calls.append((a, k)))
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--public-host", "192.0.2.7", "--qr", "--open"])
    assert result.exit_code == 0, result.output
    (args, kwargs), = calls
    assert args[:2] == ("0.0.0.0", 8710)
    assert {k: kwargs[k] for k in ("public_host", "qr", "open_browser")} == {"public_host": "192.0.2.7", "qr": True,
                                                                            "open_browser": True}
    CliRunner().invoke(cli, ["serve", "--host", "::", "--public-host", "[fd00::5]"])
    assert calls[-1][1]["public_host"] == "fd00::5"  # the brackets are the URL's, added when it is made


@pytest.mark.parametrize("wrong", ["http://10.0.0.1", "10.0.0.1:8710", "host/path", "", "a..b", "[fd00::5]:80"])
def test_public_host_is_an_address_or_a_name(wrong, monkeypatch):
    monkeypatch.setattr(server_module, "run", lambda *a, **k: pytest.fail("started"))
    result = CliRunner().invoke(cli, ["serve", "--public-host", wrong])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        f"Error: --public-host {wrong}: expected an address or a host name (no scheme, port or path)")


# --- GET /api/join -----------------------------------------------------------------------------------------------


def test_api_join_needs_the_token_and_gives_the_url_and_its_svg(lan):
    assert get(lan, "/api/join")[0] == 403
    status, headers, raw = get(lan, "/api/join", {"X-Mjcalc-Token": lan.token})
    assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
    doc = json.loads(raw)
    url = f"http://192.0.2.7:{lan.server_address[1]}/?token={lan.token}"  # --public-host wins over the Host
    own = segno.make_qr(url).svg_inline(scale=4, dark="#000", light="#fff")  # segno's code of the URL, no xmlns
    assert doc == {"url": url, "svg": own.replace("<svg ", f'<svg xmlns="{SVG_NS}" ', 1), "lan": True}
    assert doc["svg"].startswith("<svg") and "<script" not in doc["svg"] and not doc["svg"].endswith("\n")
    # its own namespace, as an <img> data URL needs (an SVG image without it is not drawn), and nothing else added
    root = ElementTree.fromstring(doc["svg"])
    assert root.tag == f"{{{SVG_NS}}}svg" and doc["svg"].count("xmlns") == 1
    assert (root.get("width"), root.get("height")) == (str(4 * segno.make_qr(url).symbol_size()[0]),) * 2


def test_api_join_names_the_host_a_phone_reached_the_server_by(tmp_path, monkeypatch):
    monkeypatch.setattr(server_module, "lan_address", lambda: "10.1.2.3")
    srv = start(tmp_path)
    try:
        token = {"X-Mjcalc-Token": srv.token}
        reached = get(srv, "/api/join", {**token, "Host": "mjcalc.lan:8710"})
        assert json.loads(reached[2])["url"] == f"http://mjcalc.lan:8710/?token={srv.token}"
        local = json.loads(get(srv, "/api/join", token)[2])  # the serving computer's own browser (--open)
        assert local["url"] == f"http://10.1.2.3:{srv.server_address[1]}/?token={srv.token}"
        odd = json.loads(get(srv, "/api/join", {**token, "Host": "a b\"<"})[2])
        assert odd["url"] == local["url"]
    finally:
        srv.shutdown()
        srv.server_close()


def test_api_join_on_loopback_has_no_code(tmp_path):
    srv = start(tmp_path, host="127.0.0.1")
    try:
        status, _, raw = get(srv, "/api/join")
        assert status == 200 and json.loads(raw) == {"url": None, "svg": None, "lan": False}
    finally:
        srv.shutdown()
        srv.server_close()


# --- the manifest and the icons ----------------------------------------------------------------------------------


def png_size_and_first_pixel(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert (depth, kind) == (8, 2)
    idat = data.index(b"IDAT")
    (length,) = struct.unpack(">I", data[idat - 4:idat])
    pixels = zlib.decompress(data[idat + 4:idat + 4 + length])
    assert len(pixels) == height * (1 + 3 * width)
    return width, height, "#" + pixels[1:4].hex()


def test_the_manifest_and_icons_answer_without_the_token(lan):
    types = {}
    for path in PUBLIC:
        status, headers, raw = get(lan, path)
        assert status == 200, (path, raw)
        assert headers["Content-Length"] == str(len(raw))
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        types[path] = (headers["Content-Type"], raw)
        assert get(lan, path, method="HEAD")[:1] == (200,)
    assert types["/icon.svg"][0] == "image/svg+xml" and types["/icon.svg"][1].startswith(b"<svg")
    manifest_type, raw = types["/manifest.webmanifest"]
    assert manifest_type == "application/manifest+json; charset=utf-8"
    manifest = json.loads(raw)
    assert manifest["name"] == "mjcalc" and manifest["short_name"] and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and "token" not in raw.decode() and lan.token not in raw.decode()
    assert manifest["id"] == "/"  # the app's identity is explicit, not only derived from start_url
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    for icon in manifest["icons"]:
        ctype, body = types[icon["src"]]
        assert ctype == icon["type"]
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert png_size_and_first_pixel(body) == (size, size, manifest["theme_color"])
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}


@pytest.mark.parametrize("path", ["/api/rulesets", "/api/join", "/favicon.ico", "/icon-192.PNG",
                                  "/manifest.webmanifest/", "/icons/../api/tables", "/api/tables"])
def test_every_other_path_still_needs_the_token(lan, path):
    status, _, raw = get(lan, path)
    assert status == 403 and json.loads(raw)["code"] == "api.token"


def test_a_write_to_a_public_file_still_needs_the_token(lan):
    status, _, raw = get(lan, "/manifest.webmanifest", method="POST")
    assert status == 403 and json.loads(raw)["code"] == "api.token"


def test_the_host_check_still_applies_to_the_manifest_on_loopback(tmp_path):
    srv = start(tmp_path, host="127.0.0.1")
    try:
        assert get(srv, "/manifest.webmanifest")[0] == 200
        status, _, raw = get(srv, "/manifest.webmanifest", {"Host": "rebound.example"})
        assert status == 403 and json.loads(raw)["code"] == "api.foreign_host"
    finally:
        srv.shutdown()
        srv.server_close()
