"""What the browser tests share, and the API tests' server (not a test module, and no fixtures: a test module
builds its own from these, or takes the usual set from `phone_module`).

- a test server: `serving(db_path, **kwargs)` (a context manager), or `start_server` and `stop_server`: make_server
  on 127.0.0.1 (or `host`), any free port, quiet, served from a daemon thread and stopped again;
- a real headless Chromium driven by Selenium: the system's /usr/bin/chromium and /usr/bin/chromedriver (Debian's
  `chromium` and `chromium-driver`; `.ci/run` installs them). `need_browser()` skips a test without them, and fails
  it in CI (CI=true); `chromium(...)` (a context manager), or `start_chromium` and `stop_chromium`, gives a driver
  with a profile of its own (a temporary --user-data-dir, removed at the end), at a window size, emulating a phone
  when asked, and keeping the browser's console log when asked.
"""
import contextlib
import os
import shutil
import tempfile
import threading

import pytest

from mjcalc.serve.server import make_server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
IN_CI = os.environ.get("CI", "").lower() == "true"
WIDTH, HEIGHT = 390, 844  # the window when no size is asked for
CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--window-size={WIDTH},{HEIGHT}"]


# --- the server -----------------------------------------------------------------------------------------------


def start_server(db_path, host="127.0.0.1", **kwargs):
    """make_server on any free port, quiet, serving from a daemon thread (kept as `srv.test_thread`)."""
    srv = make_server(host, 0, db_path, quiet=True, **kwargs)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    srv.test_thread = thread
    return srv


def stop_server(srv):
    srv.shutdown()
    srv.server_close()
    srv.test_thread.join(5)


@contextlib.contextmanager
def serving(db_path, host="127.0.0.1", **kwargs):
    """A test server for the `with` block (its ledger `db_path`; `kwargs` as make_server takes them)."""
    srv = start_server(db_path, host, **kwargs)
    try:
        yield srv
    finally:
        stop_server(srv)


# --- the browser ----------------------------------------------------------------------------------------------


def _missing():
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(path)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (pip install '.[test]')")
    return missing


def need_browser():
    """Skip the test when Chromium, chromedriver or Selenium is missing; under CI=true, fail it instead."""
    missing = _missing()
    if missing:
        reason = "a real browser is needed: missing " + ", ".join(missing) + \
                 " (apt-get install chromium chromium-driver, as .ci/run does)"
        if IN_CI:
            pytest.fail("CI=true: " + reason, pytrace=False)
        pytest.skip(reason)
    _offline()


def _offline():
    if os.environ.get("SE_OFFLINE") != "true":
        os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never downloads anything (and the driver path is given)


def start_chromium(width=None, height=None, mobile=False, touch=False, logs=False, prefix="mjcalc-chromium-"):
    """A headless Chromium with a profile of its own (`driver.profile_dir`, a temporary directory named `prefix`…),
    its window `width`×`height` (by default 390×844). `mobile`: the page is laid out as on a phone of that size
    (Emulation.setDeviceMetricsOverride); `touch`: touch events are emulated; `logs`: the browser's console log is
    kept (driver.get_log("browser")). Call need_browser() first; stop_chromium() ends it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    width, height = width or WIDTH, height or HEIGHT
    _offline()
    profile = tempfile.mkdtemp(prefix=prefix)
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in [f for f in CHROME_FLAGS if not f.startswith("--window-size")] + [
                f"--window-size={width},{height}", f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        if logs:
            options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.profile_dir = profile
    try:
        if mobile:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        if touch:
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    except BaseException:
        stop_chromium(driver)
        raise
    return driver


def stop_chromium(driver):
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.profile_dir, ignore_errors=True)


@contextlib.contextmanager
def chromium(width=None, height=None, mobile=False, touch=False, logs=False, prefix="mjcalc-chromium-"):
    """start_chromium(...) for the `with` block, stopped and its profile removed after it."""
    driver = start_chromium(width, height, mobile=mobile, touch=touch, logs=logs, prefix=prefix)
    try:
        yield driver
    finally:
        stop_chromium(driver)


PHONE_SIZES = [(360, 640), (412, 915)]  # the two phones the page is tested on


@contextlib.contextmanager
def phone_browser(size, prefix):
    """A phone's Chromium (emulated, touch, its console logged) at `size`, which `driver.size` says."""
    need_browser()
    width, height = size
    with chromium(width, height, mobile=True, touch=True, logs=True, prefix=prefix) as driver:
        driver.size = (width, height)
        yield driver


def page_errors(driver, excused=()):
    """The console's errors since the last call (a failed resource load aside, and any text in `excused`), and
    every Content Security Policy refusal."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]
            and not any(x in e["message"] for x in excused)
            or "Content Security Policy" in e["message"] or "Refused to" in e["message"]]


def phone_module(name, shots):
    """What a module of phone tests builds from these, the same in each: a server of its own on a fresh ledger, a
    phone at each of PHONE_SIZES (its Chromium named by `name`), no console error after any test that used it, and
    `shoot(driver, name)` saving a screenshot to `shots` named by the phone's size. Bind them by their names:
    `server, phone, no_page_errors, shoot = phone_module("guobiao", SHOTS)`."""
    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        with serving(tmp_path_factory.mktemp(f"ledger-{name}") / "ledger.sqlite3") as srv:
            yield srv

    @pytest.fixture(scope="module", params=PHONE_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    def phone(request):
        with phone_browser(request.param, f"mjcalc-chromium-{name}-") as driver:
            yield driver

    @pytest.fixture(autouse=True)
    def no_page_errors(request):
        yield
        if "phone" not in request.fixturenames:
            return
        bad = page_errors(request.getfixturevalue("phone"))
        assert not bad, bad

    def shoot(driver, name):
        shots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(shots / f"{driver.size[0]}x{driver.size[1]}-{name}"))

    return server, phone, no_page_errors, shoot
