"""The page is installable by Chromium's own check, in a real headless Chromium: the Chrome DevTools Protocol's
`Page.getInstallabilityErrors` (the check behind the browser's install prompt: it reads the manifest, fetches the
icons and decodes them) and `Page.getAppManifest` (the parsed manifest and its parse errors). The server has a
token, so the manifest and the icons are fetched without it, as a phone's browser fetches them.

Headless Chromium 156 reports nothing of its own here (no "in-incognito": the profile is a --user-data-dir; no
service worker is asked for), so no error id is excused. A second test breaks the manifest in the ways that matter
and shows the same check reports each of them; a third shows the join card's QR code (GET /api/join) is drawn as an
<img> data URL, and that segno's svg_inline() output, without the SVG namespace, is not.

Chromium's check does not compare an icon's declared size with its pixels (tests/test_serve_join.py does), and on
a LAN address over plain http (not a secure origin) it says "not-from-secure-origin": these pass on 127.0.0.1 only.
"""
import json

import pytest

from browser import chromium, need_browser, serving
from mjcalc.serve import join
from test_e2e import wait

TOKEN = "installable-test-token"
MANIFEST = "/manifest.webmanifest"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("ledger-install") / "ledger.sqlite3", token=TOKEN) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    need_browser()
    with chromium(prefix="mjcalc-chromium-install-") as driver:  # 390×844, a desktop's page: no phone's emulation
        # the manifest and icons are served with max-age=86400: every test must see what the server serves now
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        yield driver


def check(driver, srv):
    """(installability error ids with their arguments, Page.getAppManifest's answer) for the page as opened now."""
    assert srv.token in srv.url
    driver.get(srv.url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to start")
    origin = srv.url.split("?")[0].rstrip("/")

    def fetched(d):
        app = d.execute_cdp_cmd("Page.getAppManifest", {})
        return app if app.get("url") == origin + MANIFEST and (app.get("data") or app.get("errors")) else None

    app = wait(driver, fetched, "the manifest to be fetched")
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    return errors, app


def ids(errors):
    return {e["errorId"] for e in errors}


def test_chromium_finds_the_page_installable(browser, server):
    errors, app = check(browser, server)
    assert errors == [], json.dumps(errors, indent=1)
    assert app["errors"] == [], json.dumps(app["errors"], indent=1)
    origin = server.url.split("?")[0].rstrip("/")
    served = json.loads(join.manifest())
    assert json.loads(app["data"]) == served  # what Chromium read is what join.py serves, without the token
    parsed = app["manifest"]
    assert (parsed["name"], parsed["display"]) == (served["name"], "kStandalone")
    assert parsed["startUrl"] == parsed["id"] == parsed["scope"] == origin + "/"  # never the token
    assert [(i["url"], i["sizes"], i["type"]) for i in parsed["icons"]] == [
        (origin + i["src"], "0x0" if i["sizes"] == "any" else i["sizes"], i["type"]) for i in served["icons"]]
    assert parsed["themeColor"] == "rgba(11,110,79,1)" and join.THEME == "#0b6e4f"


def _without_icons(doc):
    return {**doc, "icons": []}


def _icons_maskable_only(doc):
    return {**doc, "icons": [dict(i, purpose="maskable") for i in doc["icons"]]}


def _icons_missing(doc):
    return {**doc, "icons": [{"src": "/no-such-icon.png", "sizes": "512x512", "type": "image/png"}]}


def _display_browser(doc):
    return {**doc, "display": "browser"}


def _no_name(doc):
    return {k: v for k, v in doc.items() if k not in ("name", "short_name")}


@pytest.mark.parametrize("broken, expected", [
    (_without_icons, "no-acceptable-icon"),
    (_icons_maskable_only, "no-acceptable-icon"),  # an icon for "any" purpose is needed
    (_icons_missing, "no-acceptable-icon"),  # a 403 (the token asked for) or a 404 is no icon
    (_display_browser, "manifest-display-not-supported"),
    (_no_name, "manifest-missing-name-or-short-name"),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_the_check_reports_a_broken_manifest(browser, server, monkeypatch, broken, expected):
    body = json.dumps(broken(json.loads(join.manifest()))).encode("utf-8")
    ctype = join.FILES[MANIFEST][0]
    monkeypatch.setitem(join.FILES, MANIFEST, (ctype, lambda: body))
    errors, app = check(browser, server)
    assert json.loads(app["data"]) == json.loads(body)  # the broken one was read
    assert expected in ids(errors), json.dumps(errors, indent=1)


def test_the_check_reports_icons_that_need_the_token(browser, server, monkeypatch):
    for path in ("/icon-192.png", "/icon-512.png", "/icon.svg"):
        monkeypatch.delitem(join.FILES, path)  # no longer public: a request without the token gets a 403
    errors, _ = check(browser, server)
    assert "no-acceptable-icon" in ids(errors), json.dumps(errors, indent=1)


def test_the_join_qr_code_is_drawn_as_an_img_data_url(browser, server):
    """GET /api/join's SVG (join.qr_svg) as the page shows it; segno's svg_inline(), without xmlns, is not drawn."""
    import segno

    browser.get(server.url)
    url = f"http://192.0.2.7:{server.server_address[1]}/?token={TOKEN}"
    drawn = """
        const done = arguments[arguments.length - 1], img = new Image();
        img.onload = () => done([img.naturalWidth, img.naturalHeight]);
        img.onerror = () => done(null);
        img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(arguments[0]);
    """
    side = 4 * segno.make_qr(url).symbol_size()[0]
    assert browser.execute_async_script(drawn, join.qr_svg(url)) == [side, side]
    assert browser.execute_async_script(drawn, segno.make_qr(url).svg_inline(scale=4)) is None  # the check can fail
