"""The page in a real headless Chromium, driven by Selenium: the system's /usr/bin/chromium and /usr/bin/chromedriver
(Debian's `chromium` and `chromium-driver`; `.ci/run` installs them). Without them these tests skip here and fail
in CI (CI=true). Screenshots at 390×844 go to $MJCALC_SCREENSHOTS (default: a pytest temporary directory).
"""
import json
import os
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from browser import chromium, need_browser, serving
from mjcalc.cli import cli
from mjcalc.ruleset import builtin_rulesets

SCRIPT_NAME = "<svg onload=alert(1)>"  # markup a page must show as text (a name holds at most 24 characters)
PLAYERS = {"E": "老王", "S": SCRIPT_NAME, "W": "阿张", "N": "大刘"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("ledger") / "ledger.sqlite3") as srv:
        yield srv


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    directory = Path(os.environ.get("MJCALC_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    directory.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {directory}")
    return directory


@pytest.fixture(scope="module")
def browser():
    need_browser()
    with chromium(mobile=True, logs=True) as driver:  # 390×844, laid out as a phone's (no touch events)
        yield driver


# --- helpers ------------------------------------------------------------------------------------------------------


def by_css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, selector)


def all_css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def wait(driver, predicate, what, timeout=15):
    """Until `predicate(driver)`; an element re-drawn while it is read is read again at the next poll. A wait
    that times out says what the page's message lines said then (a refusal, an unreadable table, no network)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                             ).until(lambda d: predicate(d), message=f"waiting for {what}")
    except TimeoutException:
        said = driver.execute_script(
            "return ['rec-msg', 'rec-preview', 'table-msg', 'table-error', 'sync'].map(id => {"
            " const el = document.getElementById(id); return el && el.textContent ? id + ': ' + el.textContent : '';"
            " }).filter(Boolean).join(' | ');")
        raise TimeoutException(f"waiting for {what}; the page said: {said or 'nothing'}") from None


@pytest.fixture(autouse=True)
def no_page_errors(request):
    """After each test: no script error and nothing the Content-Security-Policy refused, in the browser's console."""
    yield
    if "browser" not in request.fixturenames:
        return
    driver = request.getfixturevalue("browser")
    bad = [entry["message"] for entry in driver.get_log("browser")
           if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]
           or "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]]
    assert not bad, bad


def open_page(driver, srv, lang="zh"):
    driver.get(srv.url)
    driver.execute_script("localStorage.clear(); localStorage.setItem('mj-lang', arguments[0]);", lang)
    driver.get(srv.url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to start")


def tap(driver, selector):
    element = by_css(driver, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def result_state(driver):
    return driver.execute_script("const r = document.querySelector('#v-' + (document.querySelector('nav .on').id.slice(4)) "
                                 "+ ' #result'); return r ? r.dataset.state : null")


def cli_json(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.stdout)


def text(driver, selector):
    """The text an element shows, read in one step (the page may re-draw it at any time)."""
    shown = driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : null", selector)
    if shown is None:
        from selenium.common.exceptions import NoSuchElementException
        raise NoSuchElementException(selector)
    return shown.strip()


def shoot(driver, shots, name):
    driver.execute_script("window.scrollTo(0, 0)")
    path = shots / name
    driver.save_screenshot(str(path))
    return path


# --- the tests ------------------------------------------------------------------------------------------------------


def test_score_a_hand_by_tapping_tiles(browser, server, shots):
    open_page(browser, server)
    load = browser.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "const r = performance.getEntriesByType('resource').filter(e => !e.name.includes('/api/'));"
        "return {transfer: n.transferSize, body: n.encodedBodySize, resources: r.reduce((s, e) => s + e.transferSize, 0)}")
    print(f"\npage load: document {load['body']} bytes ({load['transfer']} transferred with headers), "
          f"other resources {load['resources']} bytes")
    assert 0 < load["body"] < 110 * 1024
    for kind in "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 4m 5m".split():
        tap(browser, f'#picker [data-k="{kind}"]')
    wait(browser, lambda d: result_state(d) == "waits", "the waits of 13 tiles")
    waits = [row.get_attribute("data-tile") for row in all_css(browser, "#waits tr[data-tile]")]
    assert waits == ["3m", "6m"]
    tap(browser, '#picker [data-k="6m"]')  # the 14th tile becomes the winning tile
    wait(browser, lambda d: result_state(d) == "legal", "the score")
    notation = by_css(browser, "#notation").get_attribute("value")
    assert notation == "12345m 456p 789s EE +6m"
    cli = cli_json(["analyze", notation, "--json"])
    assert text(browser, "#total") == str(cli["total"])
    shown = {row.get_attribute("data-seat"): int(row.find_elements("css selector", "td")[1].text)
             for row in all_css(browser, "#payouts tr")}
    assert shown == cli["payouts"]
    assert [r.find_elements("css selector", "td")[0].text for r in all_css(browser, "#patterns tr")] == \
           [p["name"] for p in cli["patterns"]]
    tap_ms = browser.execute_script(
        "const m = performance.getEntriesByName('mj-tap-to-result'); return m.length ? m[m.length - 1].duration : null")
    print(f"tap to result: {tap_ms:.1f} ms (the 14th tile's tap to the score on the page)")
    shoot(browser, shots, "score.png")

    # mark a meld by tapping: select 1m 2m 3m in the hand, then 副露
    for kind in ("1m", "2m", "3m"):
        tap(browser, f'#hand [data-k="{kind}"]')
    tap(browser, "#act-meld")
    wait(browser, lambda d: by_css(d, "#notation").get_attribute("value") == "45m 456p 789s EE [123m] +6m", "the meld")
    wait(browser, lambda d: result_state(d) == "legal" and by_css(d, "#result .mute").text.strip().endswith("[123m] +6m"),
         "the score with a meld")
    cli = cli_json(["analyze", "45m 456p 789s EE [123m] +6m", "--json"])
    assert text(browser, "#total") == str(cli["total"]) and cli["total"] != 3

    # and the winning tile: tap 9s, then 和牌: 6m goes back into the hand; the notation follows
    tap(browser, '#hand [data-k="9s"]')
    tap(browser, "#act-win")
    wait(browser, lambda d: by_css(d, "#notation").get_attribute("value") == "456m 456p 78s EE [123m] +9s", "a new winning tile")
    wait(browser, lambda d: by_css(d, "#result .mute").text.strip() == "456m 456p 78s EE [123m] +9s", "its score")
    cli = cli_json(["analyze", "456m 456p 78s EE [123m] +9s", "--json"])
    assert result_state(browser) == "legal" and text(browser, "#total") == str(cli["total"])


def test_a_refused_discard_win_shows_its_reason(browser, server, shots):
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    field = by_css(browser, "#notation")
    field.send_keys("123m456p789s EE 45m +6m")
    wait(browser, lambda d: result_state(d) == "legal", "the typed hand scored")
    assert len(all_css(browser, "#hand .t")) == 14  # the picker's hand follows the notation box
    Select(by_css(browser, "#ruleset")).select_by_value("shangrao")
    by_css(browser, "#sitsum").click()
    tap(browser, '#how [data-seg="from"] [data-v="S"]')
    wait(browser, lambda d: result_state(d) == "refused", "the refusal")
    reason = cli_json(["analyze", "123m456p789s EE 45m +6m", "-r", "shangrao", "--from", "S", "--json", "--lang", "zh"])["reason"]
    assert reason and text(browser, "#reason") == reason and re.search(r"[\u4e00-\u9fff]", reason)
    assert text(browser, "#verdict") == "不能和"
    # the options shown are the ones shangrao reads
    assert all_css(browser, "#opt-flown") and not all_css(browser, "#opt-shaozhuang") and not all_css(browser, "#opt-bid")
    by_css(browser, "#sitsum").click()  # fold the situation away: the hand, then the refusal
    shoot(browser, shots, "refused.png")
    Select(by_css(browser, "#ruleset")).select_by_value("beijing")
    wait(browser, lambda d: result_state(d) == "legal", "beijing takes the discard")
    assert all_css(browser, "#opt-shaozhuang") and not all_css(browser, "#opt-flown")


def _record_requests(driver):
    """Keep every API request body the page sends in window.mjSent (fetch wrapped from outside the page)."""
    driver.execute_script("""
        if (window.mjSent) return;
        window.mjSent = [];
        const real = window.fetch;
        window.fetch = (path, opt) => { window.mjSent.push([String(path), opt && opt.body ? JSON.parse(opt.body) : null]);
                                        return real(path, opt); };""")


def _last_sent(driver, path):
    """The last body the page posted to `path` to record (a preview, `dry_run`, may come after it)."""
    sent = driver.execute_script("return window.mjSent")
    return [body for p, body in sent if p == path and not body.get("dry_run")][-1]


def _set(driver, selector, value):
    """A control's new value, as a person's change (the change event)."""
    element = by_css(driver, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});"
                          "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))",
                          element, value)


def _payouts(driver):
    return {row.get_attribute("data-seat"): int(row.find_elements("css selector", "td")[1].text)
            for row in all_css(driver, "#payouts tr")}


def test_the_options_shown_are_built_from_each_rulesets_specs_and_reach_the_api(browser, server, shots):
    """Each region option's control (a number, seats, seat numbers, seat choices, a list of bids) is made from its
    spec in /api/rulesets; what is set there is what the page sends, and the page shows what the CLI answers."""
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    _record_requests(browser)
    hand = "123m456p789s EE 45m +6m"
    by_css(browser, "#notation").send_keys(hand)
    wait(browser, lambda d: result_state(d) == "legal", "the typed hand scored")
    by_css(browser, "#sitsum").click()

    # beijing: 烧庄 (an int with its range from the spec) and 互包 (seats)
    assert by_css(browser, "#opt-shaozhuang").get_attribute("max") == "16"
    tap(browser, '#how [data-seg="from"] [data-v="S"]')
    _set(browser, "#opt-shaozhuang", "99")  # clamped to the spec's maximum
    assert by_css(browser, "#opt-shaozhuang").get_attribute("value") == "16"
    _set(browser, "#opt-shaozhuang", "2")
    tap(browser, "#opt-mutual label:nth-child(2) input")  # the second seat: S
    wait(browser, lambda d: _last_sent(d, "/api/analyze").get("mutual") == ["S"], "互包 sent")
    sent = _last_sent(browser, "/api/analyze")
    assert {k: v for k, v in sent.items() if k not in ("hand", "lang")} == \
        {"ruleset": "beijing", "seat": "E", "dealer": "E", "base": 1, "from": "S", "shaozhuang": 2, "mutual": ["S"]}
    cli = cli_json(["analyze", hand, "--from", "S", "--shaozhuang", "2", "--mutual", "S", "--json"])
    wait(browser, lambda d: result_state(d) == "legal" and text(d, "#total") == str(cli["total"])
         and _payouts(d) == cli["payouts"], "beijing's answer with its options")

    # zhuji: the bid is a list from the spec's choices, the bidder a seat
    Select(by_css(browser, "#ruleset")).select_by_value("zhuji")
    wait(browser, lambda d: all_css(d, "#opt-bid") and not all_css(d, "#opt-shaozhuang"), "zhuji's options")
    options = [o.get_attribute("value") for o in all_css(browser, "#opt-bid option")]
    assert options[:4] == ["", "2", "du2", "wucai2"] and options[-1] == "wucai16"
    tap(browser, '#how [data-seg="from"] [data-v=""]')
    Select(by_css(browser, "#wild0")).select_by_value("C")
    Select(by_css(browser, "#wild1")).select_by_value("F")
    Select(by_css(browser, "#opt-bid")).select_by_value("2")
    Select(by_css(browser, "#opt-bidder")).select_by_value("S")
    wait(browser, lambda d: _last_sent(d, "/api/analyze").get("bidder") == "S", "the bidder sent")
    sent = _last_sent(browser, "/api/analyze")
    assert (sent["ruleset"], sent["bid"], sent["wild"]) == ("zhuji", "2", "C,F") and "shaozhuang" not in sent
    cli = cli_json(["analyze", hand, "-r", "zhuji", "--wild", "C,F", "--bid", "2", "--bidder", "S", "--json"])
    wait(browser, lambda d: result_state(d) == ("legal" if cli["legal"] else "refused")
         and (not cli["legal"] or _payouts(d) == cli["payouts"]), "zhuji's answer with its options")

    # shangrao: 他家飞宝 a number for each seat, 他家杠 a choice for each seat, the flags together
    Select(by_css(browser, "#ruleset")).select_by_value("shangrao")
    wait(browser, lambda d: all_css(d, "#opt-flown_by") and not all_css(d, "#opt-bid"), "shangrao's options")
    by_css(browser, "#notation").clear()
    by_css(browser, "#notation").send_keys("123m456p789s {CCCC} E +E")
    Select(by_css(browser, "#wild0")).select_by_value("P")
    _set(browser, "#opt-flown_by label:nth-child(2) input", "1")
    _set(browser, "#opt-kong label:nth-child(3) select", "exposed")
    tap(browser, "#opt-jiebao")
    tap(browser, "#flag-kong_draw")
    wait(browser, lambda d: _last_sent(d, "/api/analyze").get("kong_draw") == 1
         and _last_sent(d, "/api/analyze").get("hand") == "123m456p789s {CCCC} E +E", "shangrao's fields sent")
    sent = _last_sent(browser, "/api/analyze")
    assert (sent["flown_by"], sent["kong"], sent["jiebao"]) == (["S=1"], ["W:exposed"], True)
    assert "four_wild" not in sent and "flown" not in sent and "bid" not in sent
    cli = cli_json(["analyze", "123m456p789s {CCCC} E +E", "-r", "shangrao", "--wild", "P", "--flown-by", "S=1",
                    "--kong", "W:exposed", "--jiebao", "--kong-draw", "--json"])
    wait(browser, lambda d: result_state(d) == "legal" and text(d, "#total") == str(cli["total"])
         and _payouts(d) == cli["payouts"], "shangrao's answer with its options")
    browser.execute_script("document.querySelector('#sit').scrollIntoView()")
    browser.save_screenshot(str(shots / "options-shangrao.png"))
    Select(by_css(browser, "#ruleset")).select_by_value("beijing")


def test_compare_advise_and_english(browser, server, shots):
    open_page(browser, server)
    by_css(browser, "#notation").send_keys("13m 46p 79s EE CF 5m5m5m5m")
    wait(browser, lambda d: result_state(d) == "incomplete", "a hand that is not a win")
    tap(browser, "#tab-advise")
    wait(browser, lambda d: result_state(d) == "advice", "the advice")
    cli = cli_json(["advise", "13m 46p 79s EE CF 5m5m5m5m", "--json"])
    assert [r.get_attribute("data-discard") for r in all_css(browser, "#discards tr[data-discard]")] == \
           [d["discard"] for d in cli["discards"]]
    shoot(browser, shots, "advise.png")
    by_css(browser, "#act-clear").click()
    by_css(browser, "#notation").send_keys("123m456p789s EE 45m +6m")
    tap(browser, "#tab-compare")
    every = len(builtin_rulesets())
    wait(browser, lambda d: len(all_css(d, "#compare-sum tr[data-ruleset]")) == every, "every built-in ruleset compared")
    # the summary first: one row a ruleset, its total as the CLI's compare gives it, or ✗; the cards folded after
    for doc in cli_json(["compare", "123m456p789s EE 45m +6m", "--json"]):
        row = text(browser, f'#compare-sum tr[data-ruleset="{doc["ruleset"]}"]')
        assert (f"✓ {doc['total']}" in row) if doc.get("legal") else ("✗" in row), (doc["ruleset"], row)
    assert not any(d.get_attribute("open") for d in all_css(browser, "#v-compare details.cmp"))
    shoot(browser, shots, "compare.png")
    tap(browser, "#lang")
    wait(browser, lambda d: text(d, "#tab-compare") == "Compare", "English")
    wait(browser, lambda d: "Full flush" in text(d, "#compare-sum") or "beijing" in text(d, "#compare-sum")
         or "Beijing" in text(d, "#compare-sum"), "the comparison in English")
    tap(browser, '#compare-sum tr[data-ruleset="beijing"] button')
    wait(browser, lambda d: "Legal win" in by_css(d, '#v-compare details[data-ruleset="beijing"]').text, "beijing's card")
    shoot(browser, shots, "compare-en.png")


def _new_table(browser, server, name, ruleset=None):
    """Open the page and a new table NAME (the page's ruleset, or `ruleset`) with PLAYERS, as a player does."""
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    tap(browser, "#tab-table")
    wait(browser, lambda d: all_css(d, "#new-name"), "the table list")
    by_css(browser, "#new-name").send_keys(name)
    if ruleset:
        Select(by_css(browser, "#new-ruleset")).select_by_value(ruleset)
    for seat, player in PLAYERS.items():
        by_css(browser, f"#new-{seat}").send_keys(player)
    tap(browser, "#new-go")
    wait(browser, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name, "the new table")


def test_a_table_evening_three_hands_and_a_draw(browser, server, shots):
    _new_table(browser, server, "周五")
    hands = [("123m456p789s234s5m +5m", "S", "E"), ("[111m] 222p 333s EEE 9m +9m", "S", None),
             ("123m456p789s EE 45m +6m", "W", "N")]
    for number, (hand, winner, discarder) in enumerate(hands, 1):
        field = by_css(browser, "#rec-hand")
        field.clear()
        field.send_keys(hand)
        tap(browser, f'#record [data-seg="winner"] [data-v="{winner}"]')
        if discarder:
            tap(browser, f'#record [data-seg="from"] [data-v="{discarder}"]')
        if number == 2:  # the table's ruleset's options are in the form too, built from the same specs
            _record_requests(browser)
            _set(browser, "#rec-opt-shaozhuang", "1")
        tap(browser, "#rec-go")
        wait(browser, lambda d, n=number: all_css(d, "#rec-msg") and text(d, "#rec-msg") == f"已记录第{n}手", f"hand {number}")
        if number == 2:
            sent = _last_sent(browser, "/api/tables/%E5%91%A8%E4%BA%94/hand")
            assert {k: v for k, v in sent.items() if k not in ("lang", "request_id", "revision", "client_id")} == \
                {"hand": hand, "winner": "S", "shaozhuang": 1}, sent
            assert 1 <= len(sent["request_id"]) <= 64  # a retried tap records once (issue 21)
    tap(browser, "#rec-draw")
    wait(browser, lambda d: len(all_css(d, "#history tr")) == 4, "the draw")
    show = cli_json(["table", "show", "周五", "--json", "--db", str(server.lib.db_path)])
    assert [h["kind"] for h in show["hands"]] == ["win", "win", "win", "draw"]
    standings = {row.get_attribute("data-seat"): int(row.find_element("css selector", ".score").text)
                 for row in all_css(browser, "#standings tr")}
    assert standings == {s["seat"]: s["score"] for s in show["standings"]}
    assert sum(standings.values()) == 0 and any(standings.values())
    assert all_css(browser, "#settlement b")  # who pays whom
    assert "2" in text(browser, "#next") or "南" in text(browser, "#next")
    # the <script> player is text on the page, never markup
    assert by_css(browser, '#standings tr[data-seat="S"] .player').text == SCRIPT_NAME
    assert browser.execute_script("return document.scripts.length") == 1
    assert browser.execute_script("return document.querySelectorAll('#v-table script, #v-table img').length") == 0
    from selenium.common.exceptions import NoAlertPresentException
    with pytest.raises(NoAlertPresentException):
        _ = browser.switch_to.alert.text
    shoot(browser, shots, "table.png")
    # the list of tables shows the name as text too
    tap(browser, "#back")
    wait(browser, lambda d: all_css(d, "#tables [data-table]"), "the list of tables")
    assert SCRIPT_NAME in text(browser, "#tables")
    # undo takes two taps
    tap(browser, '#tables [data-table="周五"]')
    wait(browser, lambda d: all_css(d, "#rec-undo"), "the table again")
    tap(browser, "#rec-undo")
    wait(browser, lambda d: "4" in text(d, "#rec-undo"), "the undo to ask again")
    tap(browser, "#rec-undo")
    wait(browser, lambda d: len(all_css(d, "#history tr")) == 3, "the undo")
    time.sleep(0.1)
    assert len(cli_json(["table", "show", "周五", "--json", "--db", str(server.lib.db_path)])["hands"]) == 3


def test_lan_mode_the_page_sends_its_token(browser, tmp_path):
    """With a token (as on --host 0.0.0.0), the page from the printed URL passes it on to every API call."""
    with serving(tmp_path / "lan.sqlite3", token="t0ken-for-the-test") as srv:
        assert srv.url.endswith("/?token=t0ken-for-the-test")
        bare = srv.url.split("?")[0]  # as a page added to the home screen opens: its start_url holds no token
        browser.get(bare)
        wait(browser, lambda d: all_css(d, "#start-error:not([hidden])"), "the refusal")
        assert text(browser, "#start-error").startswith("缺少口令或口令不对")
        open_page(browser, srv)
        by_css(browser, "#notation").send_keys("123m456p789s EE 45m +6m")
        wait(browser, lambda d: result_state(d) == "legal", "the score through the token")
        tap(browser, "#tab-table")
        wait(browser, lambda d: all_css(d, "#new-name"), "the table list through the token")
        assert not all_css(browser, "#table-error:not([hidden])")
        browser.get(bare)  # the token the page kept: the home-screen page reaches the API
        wait(browser, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to start")
        assert not all_css(browser, "#start-error:not([hidden])")
        by_css(browser, "#notation").send_keys("123m456p789s EE 45m +6m")
        wait(browser, lambda d: result_state(d) == "legal", "the score through the kept token")


def test_quick_entry_records_what_the_table_agreed(browser, server, shots):
    """No tiles: a number is the agreed total, pattern names the agreed patterns (beijing, E deals)."""
    _new_table(browser, server, "quick")
    for number, (entry, winner, discarder) in enumerate([("3", "S", None), ("对对和", "W", "S")], 1):
        field = by_css(browser, "#rec-hand")
        field.clear()
        field.send_keys(entry)
        tap(browser, f'#record [data-seg="winner"] [data-v="{winner}"]')
        if discarder:
            tap(browser, f'#record [data-seg="from"] [data-v="{discarder}"]')
        tap(browser, "#rec-go")
        wait(browser, lambda d, n=number: all_css(d, "#rec-msg") and text(d, "#rec-msg") == f"已记录第{n}手", f"hand {number}")
    show = cli_json(["table", "show", "quick", "--json", "--db", str(server.lib.db_path)])
    # S self-draws 3 番: +9, each other −3; the deal passes to S. Then W wins 对对和 2 on S's discard, and 庄 1 is
    # added as the tiles path adds it ("the dealer deals in", rulesets/beijing.md), with 门清无惠 1 (a discard win
    # is concealed, and no 惠 is declared): 4 番, S pays 4
    assert [h["payouts"] for h in show["hands"]] == [{"E": -3, "S": 9, "W": -3, "N": -3},
                                                     {"E": 0, "S": -4, "W": 4, "N": 0}]


def test_a_table_that_cannot_be_read_for_a_moment_after_a_record_stays_on_screen(browser, server):
    """CI once saw the table view answer 503 right after a hand was recorded (a read at the moment a write's
    checkpoint ended, since fixed in the ledger): the page left the table for the list, and a pending preview
    then read the table it had dropped (a script error). A table that cannot be read for a moment stays on
    screen, the line under its head says why, and the live view catches up at once."""
    _new_table(browser, server, "blip")
    browser.execute_script("""
        const real = window.fetch, path = "/api/tables/blip";
        window.mjBlip = {armed: false, served: 0};
        window.fetch = (url, opt) => {
            const get = !opt || !opt.method || opt.method === "GET";
            if (get && window.mjBlip.armed && String(url) === path) {
                window.mjBlip.armed = false; window.mjBlip.served += 1;
                return Promise.resolve(new Response(JSON.stringify({error: "暂时读不到账本", code: "ledger.file_cannot_open",
                    field: null, params: {}}), {status: 503, headers: {"Content-Type": "application/json; charset=utf-8"}}));
            }
            if (!get && String(url) === path + "/hand" && opt.body && !JSON.parse(opt.body).dry_run) window.mjBlip.armed = true;
            return real(url, opt);
        };""")
    by_css(browser, "#rec-hand").send_keys("3")
    tap(browser, '#record [data-seg="winner"] [data-v="S"]')
    wait(browser, lambda d: text(d, "#rec-preview").startswith("将记录 #1"), "the preview")
    tap(browser, "#rec-go")
    wait(browser, lambda d: text(d, "#rec-msg") == "已记录第1手", "hand 1")
    assert browser.execute_script("return window.mjBlip.served") == 1  # the read after the record did fail
    assert text(browser, "#table-name") == "blip" and not by_css(browser, "#table-error").is_displayed()
    wait(browser, lambda d: len(all_css(d, "#history tr[data-hand]")) == 1, "the live view to catch up")
    wait(browser, lambda d: "与账本一致" in text(d, "#sync"), "the sync line to agree again")


def show_revision(server, name):
    return cli_json(["table", "show", name, "--json", "--db", str(server.lib.db_path)])["revision"]


def test_every_hand_starts_clean_on_the_page(browser, server, shots):
    """Issue 22, item 1: a hand recorded with 烧庄 1 and 海底 ticked, then a plain `1` 小李 ← 阿张: the second
    pays as a plain hand (1 番 on 阿张's discard: 小李 +1, 阿张 −1, rulesets/beijing.md), not with the first
    hand's situation carried over."""
    _new_table(browser, server, "clean")
    assert by_css(browser, "#rec-hand").get_attribute("value") == ""  # not the calculator's hand, silently
    _record_requests(browser)
    by_css(browser, "#rec-hand").send_keys("2")
    tap(browser, '#record [data-seg="winner"] [data-v="S"]')
    _set(browser, "#rec-opt-shaozhuang", "1")
    tap(browser, "#rec-flag-last_tile")
    tap(browser, "#rec-go")
    wait(browser, lambda d: all_css(d, "#rec-msg") and text(d, "#rec-msg") == "已记录第1手", "hand 1")
    first = _last_sent(browser, "/api/tables/clean/hand")
    assert first["shaozhuang"] == 1 and first["last_tile"] is True, first
    assert by_css(browser, "#rec-hand").get_attribute("value") == ""
    by_css(browser, "#rec-hand").send_keys("1")
    tap(browser, '#record [data-seg="winner"] [data-v="W"]')
    tap(browser, '#record [data-seg="from"] [data-v="N"]')
    browser.refresh()  # a draft not yet recorded survives a reload, and the table comes back open (issue 35)
    wait(browser, lambda d: all_css(d, "#rec-hand") and by_css(d, "#rec-hand").get_attribute("value") == "1",
         "the draft kept")
    # the live preview says what the one tap will record: 阿张 ← 大刘 1番, 阿张 +1, 大刘 −1
    wait(browser, lambda d: all_css(d, "#rec-preview") and text(d, "#rec-preview").startswith("将记录 #2: 阿张 ← 大刘 1番"),
         "the preview")
    assert "阿张 +1" in text(browser, "#rec-preview") and "大刘 -1" in text(browser, "#rec-preview")
    shoot(browser, shots, "record-preview.png")
    _record_requests(browser)
    tap(browser, "#rec-go")
    wait(browser, lambda d: all_css(d, "#rec-msg") and text(d, "#rec-msg") == "已记录第2手", "hand 2")
    second = _last_sent(browser, "/api/tables/clean/hand")
    assert second["revision"] == show_revision(server, "clean") - 1  # confirmed at what the preview showed
    assert {k: v for k, v in second.items() if k not in ("lang", "request_id", "revision", "client_id")} == \
        {"total": "1", "winner": "W", "from": "N"}, second
    show = cli_json(["table", "show", "clean", "--json", "--db", str(server.lib.db_path)])
    assert show["hands"][1]["payouts"] == {"E": 0, "S": 0, "W": 1, "N": -1}
    assert show["hands"][1]["context"] == []


def test_the_calculator_keeps_each_rulesets_wildcards(browser, server, shots):
    """Issue 22: switching 诸暨 → 上饶 no longer turns 财神 9s into 宝 9s; back at 诸暨, 9s is the 财神 again."""
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    Select(by_css(browser, "#ruleset")).select_by_value("zhuji")
    wait(browser, lambda d: all_css(d, "#wild0"), "the 财神 select")
    _set(browser, "#wild0", "9s")
    wait(browser, lambda d: Select(by_css(d, "#wild0")).first_selected_option.get_attribute("value") == "9s", "9s")
    Select(by_css(browser, "#ruleset")).select_by_value("shangrao")
    wait(browser, lambda d: all_css(d, "#wild0"), "the 宝 select")
    assert Select(by_css(browser, "#wild0")).first_selected_option.get_attribute("value") == ""
    Select(by_css(browser, "#ruleset")).select_by_value("zhuji")
    wait(browser, lambda d: Select(by_css(d, "#wild0")).first_selected_option.get_attribute("value") == "9s",
         "the 财神 kept")
    Select(by_css(browser, "#ruleset")).select_by_value("beijing")


def test_a_zhuji_bid_stays_with_its_hand(browser, server, shots):
    """Issue 22, item 1 at a zhuji table: hand 1 S self-draws 2台 with a 2台 bid by S (包家); hand 2, a plain
    1台 W ← N, is paid as a plain hand. Expected: the command line's answer for the same two hands
    (`table hand --tai 2 --winner S --bid 2 --bidder S`, then `--tai 1 --winner W --from N`)."""
    from selenium.webdriver.support.ui import Select

    _new_table(browser, server, "bid", ruleset="zhuji")
    _record_requests(browser)
    by_css(browser, "#rec-hand").send_keys("2")
    tap(browser, '#record [data-seg="winner"] [data-v="S"]')
    Select(by_css(browser, "#rec-opt-bid")).select_by_value("2")
    wait(browser, lambda d: all_css(d, "#rec-opt-bidder"), "the bidder")
    Select(by_css(browser, "#rec-opt-bidder")).select_by_value("S")
    tap(browser, "#rec-go")
    wait(browser, lambda d: all_css(d, "#rec-msg") and text(d, "#rec-msg") == "已记录第1手", "hand 1")
    by_css(browser, "#rec-hand").send_keys("1")
    tap(browser, '#record [data-seg="winner"] [data-v="W"]')
    tap(browser, '#record [data-seg="from"] [data-v="N"]')
    tap(browser, "#rec-go")
    wait(browser, lambda d: all_css(d, "#rec-msg") and text(d, "#rec-msg") == "已记录第2手", "hand 2")
    sent = _last_sent(browser, "/api/tables/bid/hand")
    assert "bid" not in sent and "bidder" not in sent, sent
    show = cli_json(["table", "show", "bid", "--json", "--db", str(server.lib.db_path)])
    assert show["hands"][0]["context"] == ["包牌 2台", "包家 " + PLAYERS["S"]]
    assert show["hands"][1]["context"] == [] and show["hands"][1]["payouts"] == {"E": -1, "S": -1, "W": 4, "N": -2}


def test_the_red_dragon_game_offers_its_wall_and_its_own_wildcard(browser, server, shots):
    """红中麻将 (rulesets/hongzhong.md): the picker holds the 112-tile wall's kinds (the three suits and 中) and no `*`;
    the 红中 is wild without being chosen, and says so; a bird that hits is an option built from its spec, and the
    page pays what the command line pays (例 3, p. 9: 七对 2 番, 4 from each, and 1 more from each for the bird)."""
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    Select(by_css(browser, "#ruleset")).select_by_value("hongzhong")
    wait(browser, lambda d: len(all_css(d, "#picker .t")) == 28, "the 112 tiles' 28 kinds")
    kinds = [t.get_attribute("data-k") for t in all_css(browser, "#picker .t")]
    assert "C" in kinds and "E" not in kinds and "*" not in kinds and "F" not in kinds
    field = by_css(browser, "#notation")
    field.clear()
    field.send_keys("44p 6p 88p 9p C 66m 88s 99s +6p")
    wait(browser, lambda d: result_state(d) == "legal", "the seven pairs scored")
    assert "wild" in by_css(browser, '#hand [data-k="C"]').get_attribute("class")
    by_css(browser, "#sitsum").click()
    assert text(browser, "#wild-fixed") == "中" and not all_css(browser, "#wild0")
    _set(browser, "#opt-birds", "1")
    cli = cli_json(["analyze", "44p 6p 88p 9p C 66m 88s 99s +6p", "-r", "hongzhong", "--birds", "1", "--json"])
    assert cli["payouts"] == {"E": 15, "S": -5, "W": -5, "N": -5}
    wait(browser, lambda d: {row.get_attribute("data-seat"): int(row.find_elements("css selector", "td")[1].text)
                             for row in all_css(d, "#payouts tr")} == cli["payouts"], "the bird paid")
    assert text(browser, "#total") == str(cli["total"])
    shoot(browser, shots, "hongzhong.png")
    Select(by_css(browser, "#ruleset")).select_by_value("beijing")


def test_the_guangdong_ghosts_are_tapped_as_stars_and_named_by_no_tile(browser, server, shots):
    """广东麻将 (rulesets/guangdong.md): the ghosts are flowers, no tile kind: the picker offers ★ and nothing asks
    which tile is wild; a hand with a ghost and 碰碰和 self-drawn is paid as the command line pays it (5 番 × 1 from
    each), and with the ghosts thrown twice before (--ghosts-out 2) four times that."""
    from selenium.webdriver.support.ui import Select

    open_page(browser, server)
    Select(by_css(browser, "#ruleset")).select_by_value("guangdong")
    wait(browser, lambda d: all_css(d, '#picker [data-k="*"]'), "the ghost in the picker")
    field = by_css(browser, "#notation")
    field.clear()
    field.send_keys("[555m] [666m] 888p 99p 9m * +9m")
    wait(browser, lambda d: result_state(d) == "legal", "the hand scored")
    by_css(browser, "#sitsum").click()
    assert text(browser, "#wild-fixed") == "★" and not all_css(browser, "#wild0")
    _set(browser, "#opt-ghosts_out", "2")
    cli = cli_json(["analyze", "[555m] [666m] 888p 99p 9m * +9m", "-r", "guangdong", "--ghosts-out", "2", "--json"])
    assert cli["payouts"] == {"E": 60, "S": -20, "W": -20, "N": -20}
    wait(browser, lambda d: _payouts(d) == cli["payouts"], "the ghosts thrown paid")
    shoot(browser, shots, "guangdong.png")
    Select(by_css(browser, "#ruleset")).select_by_value("beijing")
