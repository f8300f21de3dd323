"""One wall on the page (issue 36.1), in a real headless Chromium at 360×640 and 412×915 with touch taps: under
shangrao with the 宝 9p and three 宝 flown by 南, the waits and the advice show the 9p left as the rules count
them (4 − 0 held − 3 flown = 1), the numbers `analyze` and `advise` give. Screenshots at 360×640 go to
/tmp/shots-wall/.
"""
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

from browser import phone_browser, serving
from test_e2e import all_css, wait
from test_e2e_page26 import SIZES, Taps, choose, open_page

SHOTS = Path("/tmp/shots-wall")
READY = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 4s 5s".split()  # waits on 3s, 6s, and the 宝 9p


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("ledger-wall") / "ledger.sqlite3") as srv:
        yield srv


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def phone(request):
    with phone_browser(request.param, "mjcalc-chromium-wall-") as driver:
        yield driver


def shoot(driver, name):
    if driver.size == (360, 640):
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / name))


def test_the_page_counts_the_flown_bao_off_the_wall(phone, server):
    open_page(phone, server, lang="en")
    taps = Taps(phone)
    choose(phone, taps, "#ruleset", "shangrao")
    taps("#sitsum")
    high = "window.scrollBy(0, document.querySelector(arguments[0]).getBoundingClientRect().top - 120)"
    phone.execute_script(high, "#wild0")  # a scroll above the tile picker, not a tap
    choose(phone, taps, "#wild0", "9p")
    phone.execute_script(high, "#opt-flown_by")
    taps('#opt-flown_by label:nth-of-type(2) input')  # the seats in order E S W N: 南 is the second
    south = phone.switch_to.active_element
    assert south.get_attribute("aria-label").endswith("S"), south.get_attribute("aria-label")
    south.send_keys(Keys.CONTROL, "a")
    south.send_keys("3")  # the 0 selected, 3 typed over it
    assert south.get_attribute("value") == "3"
    phone.execute_script("window.scrollTo(0, 0)")
    taps("#sitsum")  # fold the situation away (the number is set as the field loses the focus)
    for kind in READY:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=waits]"), "the waits")
    left = {r.get_attribute("data-tile"): r.find_elements("css selector", "td")[1].text
            for r in all_css(phone, "#waits tr[data-tile]")}
    assert left == {"3s": "4", "6s": "4", "9p": "1"}, left
    dock = {w.get_attribute("data-tile"): w.text.split()[-1] for w in all_css(phone, "#hand-waits [data-tile]")}
    assert dock == {"3s": "×4", "6s": "×4", "9p": "×1"}, dock
    shoot(phone, "waits-flown.png")
    taps("#act-fold")
    taps("#tab-advise")
    wait(phone, lambda d: all_css(d, "#result[data-state=advice]"), "the advice")
    shown = phone.execute_script("return document.getElementById('v-advise').innerText")
    flat = "".join(shown.split())
    assert "improves9:" in flat and all(x in flat for x in ("9p×1", "3s×4", "6s×4")), shown  # 1 + 4 + 4 tiles
    assert not shown.lstrip().startswith("null"), shown  # 13 tiles have no "by" choice: nothing, not "null"
    shoot(phone, "advice-flown.png")
