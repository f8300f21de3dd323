"""Issue 23 at a real table: four phones (four headless Chromiums, each its own profile: four isolated browser
contexts) on one table of one `mjcalc serve`, at 360×640 and 412×915. Each phone follows the ledger (a hand
recorded on another phone or from the command line shows within 2 s, without moving a half-typed entry or the
scroll position), another phone's same hand is asked about, the history says what `table show` says, and the
corrections, penalties, statistics and closing are made from the page. Screenshots go to /tmp/shots23/.
An endpoint the server does not have yet skips the test that needs it (probed, not assumed).
"""
import json
import re
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.serve import server as server_module
from browser import need_browser, serving, start_chromium, stop_chromium
from test_e2e import PLAYERS, all_css, by_css, cli_json, text, wait

SHOTS = Path("/tmp/shots23")
SIZES = [(360, 640), (412, 915), (360, 640), (412, 915)]  # phone A, B, C, D
LIVE_SECONDS = 2.0  # every phone shows a hand recorded anywhere within this


# --- the server, its API and what it has ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("ledger23") / "ledger.sqlite3") as srv:
        yield srv


def call(srv, method, path, body=None):
    """(status, answer) of one API request."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def has_endpoint(srv, method, tail):
    """Whether the server has /api/tables/NAME/`tail` (asked of a table that is not there: a 404 for the table,
    or a 400 for the body, but never "no such endpoint")."""
    status, doc = call(srv, method, "/api/tables/no-such-table-23/" + tail, {} if method == "POST" else None)
    return not (status == 404 and doc.get("code") == "api.no_endpoint")


def new_table(srv, name, ruleset="beijing", players=PLAYERS):
    status, doc = call(srv, "POST", "/api/tables", {"name": name, "ruleset": ruleset, "players": players})
    assert status == 201, doc
    return doc


def show(srv, name):
    return cli_json(["table", "show", name, "--json", "--db", str(srv.lib.db_path)])


def _probe():
    """What the server has, asked of a server started for the question (its own empty ledger): each endpoint
    the page uses, and whether another client's same hand a moment later is refused (409 record.duplicate)."""
    with tempfile.TemporaryDirectory() as directory, serving(Path(directory) / "probe.sqlite3") as srv:
        has = {f"{method} {tail}": has_endpoint(srv, method, tail) for method, tail in (
            ("GET", "stats"), ("POST", "close"), ("POST", "dealer"), ("POST", "rules"), ("POST", "penalty"),
            ("POST", "revert"))}
        new_table(srv, "probe")
        body = {"total": 2, "winner": "E"}  # the dealer: 推倒和 1 + 庄 1 at least
        first = call(srv, "POST", "/api/tables/probe/hand", dict(body, client_id="probe-a"))
        second = call(srv, "POST", "/api/tables/probe/hand", dict(body, client_id="probe-b"))
        has["duplicate"] = first[0] == 200 and second[0] == 409 and second[1].get("code") == "record.duplicate"
    return has


HAS = _probe()


def needs(*what):
    missing = [w for w in what if not HAS[w]]
    return pytest.mark.skipif(bool(missing), reason="the server has no " + ", ".join(missing) + " yet")


# --- the phones -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def phones():
    need_browser()
    started = [None] * len(SIZES)

    def start(i):
        width, height = SIZES[i]
        started[i] = start_chromium(width, height, mobile=True, touch=True, logs=True, prefix="mjcalc-phone-")

    threads = [threading.Thread(target=start, args=(i,)) for i in range(len(SIZES))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert all(started), "a browser did not start"
        yield started
    finally:
        for driver in started:
            if driver is not None:
                stop_chromium(driver)


@pytest.fixture(autouse=True)
def no_page_errors(request):
    """After each test: no script error and nothing the Content-Security-Policy refused, on any phone."""
    yield
    if "phones" not in request.fixturenames:
        return
    for driver in request.getfixturevalue("phones"):
        bad = [e["message"] for e in driver.get_log("browser")
               if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]
               or "Content Security Policy" in e["message"] or "Refused to" in e["message"]]
        assert not bad, bad


@pytest.fixture(scope="module")
def shots():
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def tap(driver, selector):
    element = by_css(driver, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def open_table(driver, srv, name):
    """The page, its 牌桌 tab and the table `name`, as a player opens them (a fresh profile: zh, no draft)."""
    driver.get(srv.url)
    driver.execute_script("localStorage.clear(); localStorage.setItem('mj-lang', 'zh');")
    driver.get(srv.url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to start")
    tap(driver, "#tab-table")
    wait(driver, lambda d: all_css(d, f'#tables [data-table="{name}"]'), "the table list")
    tap(driver, f'#tables [data-table="{name}"]')
    wait(driver, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name, f"table {name}")


def hands_shown(driver):
    return len(all_css(driver, "#history tr[data-hand]"))


def enter(driver, entry, winner, discarder=None):
    """Fill the record form: the entry, the winner, the discarder (or self-draw)."""
    field = by_css(driver, "#rec-hand")
    field.clear()
    field.send_keys(entry)
    tap(driver, f'#record [data-seg="winner"] [data-v="{winner}"]')
    if discarder:
        tap(driver, f'#record [data-seg="from"] [data-v="{discarder}"]')


def record(driver, entry, winner, discarder=None):
    """Record a hand from the page; its number, as the page says it (the phone may not yet show a hand recorded
    elsewhere a moment ago, so its own count is not the number)."""
    said = all_css(driver, "#rec-msg") and text(driver, "#rec-msg")
    enter(driver, entry, winner, discarder)
    tap(driver, "#rec-go")
    pattern = re.compile(r"已记录第(\d+)手")
    wait(driver, lambda d: text(d, "#rec-msg") != said and pattern.fullmatch(text(d, "#rec-msg")), "hand recorded")
    return int(pattern.fullmatch(text(driver, "#rec-msg")).group(1))


def watch(driver):
    """Note, in the page, the moment each hand number first shows in the history (window.mjSeen)."""
    driver.execute_script("""
        window.mjSeen = {};
        const note = () => { for (const tr of document.querySelectorAll('#history tr[data-hand]'))
                               if (!(tr.dataset.hand in mjSeen)) mjSeen[tr.dataset.hand] = Date.now(); };
        note();
        new MutationObserver(note).observe(document.body, {childList: true, subtree: true});""")


def note_acks(driver):
    """Note, in the page, when the answer to each hand it records arrives (window.mjAck: the hand's number → ms)."""
    driver.execute_script("""
        window.mjAck = {};
        if (window.mjAckReal) return;
        window.mjAckReal = window.fetch;
        window.fetch = async (path, opt) => {
            const answer = await window.mjAckReal(path, opt);
            if (opt && opt.method === 'POST' && String(path).endsWith('/hand') && answer.ok)
                answer.clone().json().then(doc => { if (doc.recorded) mjAck[doc.hand.number] = Date.now(); });
            return answer; };""")


def seen_at(driver, number):
    return driver.execute_script("return window.mjSeen[arguments[0]] || null", str(number))


def record_requests(driver):
    """Keep every API request the page sends from now on in window.mjSent: [path, method, body]."""
    driver.execute_script("""
        window.mjSent = [];
        if (window.mjReal) return;
        window.mjReal = window.fetch;
        window.fetch = (path, opt) => { window.mjSent.push([String(path), (opt && opt.method) || 'GET',
                                                            opt && opt.body ? JSON.parse(opt.body) : null]);
                                        return window.mjReal(path, opt); };""")


def sent(driver, tail):
    return [body for path, method, body in driver.execute_script("return window.mjSent")
            if method == "POST" and path.endswith(tail)]


def shoot(driver, name, selector=None):
    if selector:
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", selector)
    path = SHOTS / name
    driver.save_screenshot(str(path))
    print(f"screenshot {path}")
    return path


def no_overflow(driver):
    """Nothing on the page is wider than the phone's screen."""
    wide = driver.execute_script("""
        const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('#v-table *')].filter(e => e.getBoundingClientRect().right > w + 1
                 && !e.closest('.scroll')).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
    assert wide == [], wide


# --- the tests ------------------------------------------------------------------------------------------------


def test_four_phones_follow_the_ledger(phones, server, shots):
    """Five hands, each recorded on another phone: every other phone shows each within 2 s (the median, printed
    with every figure); a poll leaves phone B's half-typed entry, its focus and its scroll position alone."""
    new_table(server, "四人")
    for driver in phones:
        open_table(driver, server, "四人")
        watch(driver)
        note_acks(driver)
    delays = []
    for i in range(5):
        recorder = phones[i % 4]
        number = record(recorder, str(2 + i % 3), "ESWN"[i % 4])  # 2 at least: 推倒和 + 庄 for the dealer
        wait(recorder, lambda d, n=number: d.execute_script("return window.mjAck[arguments[0]]", n), "the answer")
        started = recorder.execute_script("return window.mjAck[arguments[0]]", number)  # committed, acknowledged
        for j, driver in enumerate(phones):
            if driver is not recorder:
                wait(driver, lambda d, n=number: seen_at(d, n) is not None, f"hand {number} on phone {j}", timeout=10)
                delays.append(seen_at(driver, number) - started)
    figures = ", ".join(f"{d:.0f}" for d in delays)
    print(f"\nhand acknowledged on one phone → shown on the others (ms, 5 hands × 3 phones): {figures}; "
          f"median {statistics.median(delays):.0f}, max {max(delays):.0f}")
    assert statistics.median(delays) <= LIVE_SECONDS * 1000
    assert all(text(d, "#sync").startswith("与账本一致 ") for d in phones)

    # phone B: a half-typed entry, scrolled down; phone A records; B shows it and keeps all three
    a, b = phones[0], phones[1]
    field = by_css(b, "#rec-hand")
    field.clear()
    field.send_keys("12m 3")
    y = b.execute_script("window.scrollTo(0, Math.min(260, document.documentElement.scrollHeight - innerHeight));"
                         "return window.scrollY")
    assert y > 0
    number = record(a, "2", "S", "E")
    wait(b, lambda d: seen_at(d, number) is not None, "the new hand on phone B")
    state = b.execute_script("return [document.getElementById('rec-hand').value, document.activeElement.id, "
                             "window.scrollY, document.getElementById('rec-hand').selectionStart]")
    assert state == ["12m 3", "rec-hand", y, 5]
    standings = {row.get_attribute("data-seat"): int(row.find_element("css selector", ".score").text)
                 for row in all_css(b, "#standings tr")}
    assert standings == {s["seat"]: s["score"] for s in show(server, "四人")["standings"]}


def test_a_hand_from_the_command_line_shows_on_a_phone(phones, server):
    c = phones[2]
    before = len(show(server, "四人")["hands"])
    wait(c, lambda d: hands_shown(d) == before, "phone C up to date")
    watch(c)
    started = time.time() * 1000
    result = CliRunner().invoke(cli, ["table", "hand", "四人", "--fan", "2", "--winner", "阿张", "--from", "大刘",
                                      "--db", str(server.lib.db_path)])
    assert result.exit_code == 0, result.output
    wait(c, lambda d: seen_at(d, before + 1) is not None, "the command line's hand", timeout=10)
    delay = seen_at(c, before + 1) - started
    print(f"\ncommand line → phone: {delay:.0f} ms")
    assert delay <= LIVE_SECONDS * 1000
    row = by_css(c, f'#history tr[data-hand="{before + 1}"]').text
    assert "阿张" in row and "← 大刘" in row and "2番" in row


@needs("duplicate")
def test_another_phones_same_hand_is_asked_about(phones, server, shots):
    a, b = phones[0], phones[1]
    number = record(a, "3", "N")
    wait(b, lambda d: hands_shown(d) == number, "the hand on phone B")
    enter(b, "3", "N")
    tap(b, "#rec-go")
    wait(b, lambda d: all_css(d, "#rec-dup:not([hidden]) #dup-yes"), "the question")
    asked = text(b, "#rec-dup")
    assert f"和第{number}手一样" in asked and "秒前" in asked, asked
    shoot(b, "duplicate-asked.png", "#record")
    tap(b, "#dup-no")
    wait(b, lambda d: text(d, "#rec-msg") == "没有记录", "nothing recorded")
    assert len(show(server, "四人")["hands"]) == number
    tap(b, "#rec-go")  # the form is as it was: asked again, and this time yes
    wait(b, lambda d: all_css(d, "#rec-dup:not([hidden]) #dup-yes"), "the question again")
    record_requests(b)
    tap(b, "#dup-yes")
    wait(b, lambda d: text(d, "#rec-msg") == f"已记录第{number + 1}手", "the second hand recorded")
    resent = sent(b, "/hand")[-1]
    assert resent["confirm_duplicate"] is True and resent["client_id"] and resent["request_id"]
    assert len(show(server, "四人")["hands"]) == number + 1


def test_a_retried_request_records_once(phones, server):
    """The page's own request sent twice with one request_id (a lost answer, retried): one hand."""
    a = phones[0]
    before = len(show(server, "四人")["hands"])
    answers = a.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const body = {total: "4", winner: "W", from: "N", request_id: "retry-23-once", client_id: clientId()};
        (async () => [await api("/api/tables/" + encodeURIComponent("四人") + "/hand", body),
                      await api("/api/tables/" + encodeURIComponent("四人") + "/hand", body)])().then(done, e => done(String(e)));""")
    assert isinstance(answers, list), answers
    assert answers[0]["hand"]["number"] == answers[1]["hand"]["number"] == before + 1
    assert answers[1].get("replayed") is True and not answers[0].get("replayed")
    assert len(show(server, "四人")["hands"]) == before + 1
    wait(a, lambda d: hands_shown(d) == before + 1, "the one hand on the phone")


def test_the_history_says_what_table_show_says(phones, server, shots):
    """A draw (上楼: what follows pays double), then 3番 entered as a number with 烧庄 1: its row says 3番, ×2,
    番数 and 烧庄 1, and each player's payout, as `table show --json` has them; then edited and undone from it."""
    a, b = phones[0], phones[1]
    new_table(server, "历史")
    for driver in (a, b):
        open_table(driver, server, "历史")
    tap(a, "#rec-draw")
    wait(a, lambda d: hands_shown(d) == 1, "the draw")
    enter(a, "3", "S")
    by_css(a, "#rec-opt-shaozhuang").clear()
    by_css(a, "#rec-opt-shaozhuang").send_keys("1\t")
    tap(a, "#rec-go")
    wait(a, lambda d: text(d, "#rec-msg") == "已记录第2手", "hand 2")
    hand = show(server, "历史")["hands"][1]
    assert (hand["total"], hand["factor"], hand["entry"], hand["context"]) == (3, 2, "total", ["烧庄 1"])
    for driver in (a, b):
        wait(driver, lambda d: hands_shown(d) == 2, "hand 2 on both phones")
        row = by_css(driver, '#history tr[data-hand="2"]')
        assert row.find_element("css selector", ".u").text == "3番"
        assert row.find_element("css selector", ".tag.up").text == "×2"
        assert "番数" in row.text and row.find_element("css selector", ".ctx").text == "烧庄 1"
        shown = [p.text.replace("\n", " ") for p in row.find_elements("css selector", ".pay")]
        assert shown == [f"{hand['players'][s]} {hand['payouts'][s]:+d}".replace("+0", "0") for s in "ESWN"]
    assert "流局" in by_css(a, '#history tr[data-hand="1"]').text
    no_overflow(a)
    shoot(a, "history.png", "#history")

    # edit hand 2 from its row: the form holds it as entered; 4番 instead, 烧庄 kept
    tap(a, '#history tr[data-hand="2"] [data-act="edit"]')
    wait(a, lambda d: text(d, "#record h2") == "修改第2手", "the form holding hand 2")
    assert by_css(a, "#rec-hand").get_attribute("value") == "3"
    assert by_css(a, '#record [data-seg="winner"] .on').get_attribute("data-v") == "S"
    assert by_css(a, "#rec-opt-shaozhuang").get_attribute("value") == "1"
    shoot(a, "edit-form.png", "#record")
    record_requests(a)
    by_css(a, "#rec-hand").clear()
    by_css(a, "#rec-hand").send_keys("4")
    tap(a, "#rec-go")
    wait(a, lambda d: text(d, "#rec-msg") == "已修改第2手", "the edit")
    body = sent(a, "/edit")[-1]
    assert body["hand_id"] == hand["hand_id"] and isinstance(body["revision"], int) and body["shaozhuang"] == 1
    edited = show(server, "历史")["hands"][1]
    assert (edited["total"], edited["context"]) == (4, ["烧庄 1"])
    wait(b, lambda d: by_css(d, '#history tr[data-hand="2"] .u').text == "4番", "the edit on phone B")

    # undo hand 2 from its row: two taps; the question stays while another hand arrives from the command line
    tap(a, '#history tr[data-hand="2"] [data-act="undo"]')
    wait(a, lambda d: all_css(d, '#history tr[data-hand="2"] [data-act="undo-go"]'), "the undo asked")
    assert text(a, '#history tr[data-hand="2"] [data-act="undo-go"]') == "确认撤销第2手"
    result = CliRunner().invoke(cli, ["table", "hand", "历史", "--fan", "1", "--winner", "W",
                                      "--db", str(server.lib.db_path)])
    assert result.exit_code == 0, result.output
    wait(a, lambda d: hands_shown(d) == 3, "hand 3 from the command line")
    assert all_css(a, '#history tr[data-hand="2"] [data-act="undo-go"]')  # still asked, on the same hand
    tap(a, '#history tr[data-hand="2"] [data-act="undo-go"]')
    wait(a, lambda d: hands_shown(d) == 2, "the undo")
    assert edited["hand_id"] not in [h["hand_id"] for h in show(server, "历史")["hands"]]


@needs("POST dealer", "POST rules", "POST penalty", "POST revert")
def test_corrections_and_a_penalty_from_the_table(phones, server, shots):
    """更正: a seat change, a dealer correction, a rules switch; 罚分: a fine paid to one player, shown between the
    hands and taken back. Each write carries a request_id and the revision its form was shown."""
    a, b = phones[0], phones[1]
    new_table(server, "更正", ruleset="beijing-classic")
    for driver in (a, b):
        open_table(driver, server, "更正")
    record(a, "2", "E")
    record_requests(a)

    tap(a, "#fix-open")
    wait(a, lambda d: all_css(d, "#fix #fix-S"), "the correction forms")
    no_overflow(a)
    shoot(a, "fix-panel.png", "#fix")
    by_css(a, "#fix-S").clear()
    by_css(a, "#fix-S").send_keys("小明")
    tap(a, "#fix-seat-go")
    wait(a, lambda d: by_css(d, '#standings tr[data-seat="S"] .player').text == "小明", "the new seating")
    assert show(server, "更正")["players"]["S"] == "小明"
    wait(b, lambda d: by_css(d, '#record [data-seg="winner"] [data-v="S"]').text == "小明", "phone B's names")

    tap(a, "#fix-open")
    wait(a, lambda d: all_css(d, '#fix [data-seg="fix-dealer"] [data-v="W"]'), "the dealer choice")
    tap(a, '#fix [data-seg="fix-dealer"] [data-v="W"]')
    tap(a, "#fix-dealer-go")
    wait(a, lambda d: show(server, "更正")["next"]["dealer"] == "W", "the dealer corrected")
    wait(b, lambda d: "西" in text(d, "#next") and "阿张" in text(d, "#next"), "the dealer on phone B")

    tap(a, "#pen-open")
    wait(a, lambda d: all_css(d, "#pen #pen-kind"), "the penalty form")
    kinds = call(server, "GET", "/api/tables/%E6%9B%B4%E6%AD%A3")[1]["penalty_kinds"]
    fine = next(k for k in kinds if k["pays"] == "one")
    from selenium.webdriver.support.ui import Select
    Select(by_css(a, "#pen-kind")).select_by_value(fine["id"])
    wait(a, lambda d: all_css(d, '#pen [data-seg="pen-to"]'), "whom it pays")
    tap(a, '#pen [data-seg="pen-player"] [data-v="N"]')
    tap(a, '#pen [data-seg="pen-to"] [data-v="E"]')
    by_css(a, "#pen-reason").send_keys("<b>看错牌</b>")
    no_overflow(a)
    shoot(a, "penalty-panel.png", "#pen")
    tap(a, "#pen-go")
    wait(a, lambda d: all_css(d, "#history tr.pen"), "the penalty in the history")
    doc = call(server, "GET", "/api/tables/%E6%9B%B4%E6%AD%A3")[1]
    penalty = doc["penalties"][0]
    assert (penalty["penalty"], penalty["player"], penalty["to"], penalty["reason"]) == (fine["id"], "N", "E", "<b>看错牌</b>")
    row = by_css(a, "#history tr.pen")
    assert "<b>看错牌</b>" in row.text and not row.find_elements("css selector", "td b b")  # text, never markup
    rows = [r.get_attribute("data-hand") or "pen" for r in all_css(a, "#history tr")]
    assert rows == ["pen", "1"]  # after hand 1, newest first
    wait(b, lambda d: all_css(d, "#history tr.pen"), "the penalty on phone B")
    scores = {s["player"]: s["score"] for s in doc["standings"]}
    assert {r.find_element("css selector", ".player").text: int(r.find_element("css selector", ".score").text)
            for r in all_css(b, "#standings tr")} == scores
    shoot(a, "history-penalty.png", "#history")
    tap(a, '#history tr.pen [data-act="revert"]')
    tap(a, '#history tr.pen [data-act="revert-go"]')
    wait(a, lambda d: not all_css(d, "#history tr.pen"), "the penalty taken back")
    assert call(server, "GET", "/api/tables/%E6%9B%B4%E6%AD%A3")[1]["penalties"] == []

    tap(a, "#fix-open")
    wait(a, lambda d: all_css(d, "#fix-ruleset"), "the rules choice")
    Select(by_css(a, "#fix-ruleset")).select_by_value("beijing")
    tap(a, "#fix-rules-go")
    assert text(a, "#fix-rules-go").startswith("再点一次")
    tap(a, "#fix-rules-go")
    wait(a, lambda d: show(server, "更正")["ruleset"] == "beijing", "the rules switched")
    wait(b, lambda d: text(d, "#table-rules").startswith("北京麻将 ·"), "the rules on phone B")

    for tail in ("/seat", "/dealer", "/penalty", "/rules"):
        body = sent(a, tail)[-1]
        assert body["request_id"] and isinstance(body["revision"], int), (tail, body)


@needs("GET stats")
def test_the_statistics_of_the_table(phones, server, shots):
    a = phones[0]
    open_table(a, server, "四人")
    tap(a, "#stats-open")
    wait(a, lambda d: all_css(d, "#stats-table"), "the statistics")
    people = call(server, "GET", "/api/tables/%E5%9B%9B%E4%BA%BA/stats")[1]["people"]
    assert [th.get_attribute("title") for th in all_css(a, "#stats-table tr:first-child th[title]")] == \
        [p["player"] for p in people]
    for stat in ("hands", "won", "self_draws", "deal_ins", "net"):
        shown = [td.text for td in all_css(a, f'#stats-table tr[data-stat="{stat}"] td')]
        assert shown == [(f"{p[stat]:+d}".replace("+0", "0") if stat == "net" else str(p[stat])) for p in people]
    assert by_css(a, '#stats-table tr[data-stat="shaozhuang"] th').text == "烧庄"  # the option's own word
    standings = {s["player"]: s["score"] for s in show(server, "四人")["standings"]}
    assert {p["player"]: p["net"] for p in people} == standings
    no_overflow(a)
    shoot(a, "stats.png", "#stats")


@needs("POST close")
def test_closing_the_table(phones, server, shots):
    a, b = phones[0], phones[1]
    new_table(server, "收桌")
    for driver in (a, b):
        open_table(driver, server, "收桌")
    record(a, "2", "S")
    tap(a, "#close-table")
    assert text(a, "#close-table") == "再点一次收桌"
    tap(a, "#close-table")
    wait(a, lambda d: all_css(d, "#closed:not([hidden])"), "the closed table")
    assert call(server, "GET", "/api/tables/%E6%94%B6%E6%A1%8C")[1]["closed"] is True
    for driver in (a, b):
        wait(driver, lambda d: all_css(d, "#closed:not([hidden])") and not by_css(d, "#record").is_displayed()
             and not all_css(d, '#history [data-act="undo"]'), "closed on both phones")
    shoot(a, "closed.png")
    status, doc = call(server, "POST", "/api/tables/%E6%94%B6%E6%A1%8C/draw", {})
    assert (status, doc["code"]) == (409, "ledger.table_closed")
    tap(a, "#reopen")
    wait(b, lambda d: by_css(d, "#record").is_displayed(), "reopened on phone B")


def test_a_hidden_phone_stops_asking(phones, server):
    """Polling asks with the ETag it holds (304 while nothing changes), stops while the page is hidden and asks at
    once when it is shown again."""
    d = phones[3]
    open_table(d, server, "四人")
    d.execute_script("""
        window.mjGets = [];
        const real = window.fetch;
        window.fetch = async (path, opt) => { const answer = await real(path, opt);
            if (!opt || !opt.method) mjGets.push([Date.now(), String(path), (opt.headers || {})['If-None-Match'] || null,
                                                  answer.status]);
            return answer; };""")
    time.sleep(1.7)
    polls = d.execute_script("return window.mjGets")
    assert polls and all(tag and status == 304 for _, _, tag, status in polls), polls
    d.execute_script("Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});"
                     "document.dispatchEvent(new Event('visibilitychange')); window.mjGets = [];")
    time.sleep(2)
    assert d.execute_script("return window.mjGets") == []
    shown = d.execute_script("delete document.visibilityState; document.dispatchEvent(new Event('visibilitychange'));"
                             "return Date.now()")
    wait(d, lambda x: x.execute_script("return window.mjGets.length"), "a poll when shown again", timeout=1)
    assert d.execute_script("return window.mjGets[0][0]") - shown < 300
    # the server out of reach: the line says so, and since when the phone has not agreed with the ledger
    assert text(d, "#sync").startswith("与账本一致 ")
    d.execute_script("const real = window.fetch; window.fetch = (path, opt) => (!opt || !opt.method) ?"
                     " Promise.reject(new TypeError('Failed to fetch')) : real(path, opt);")
    wait(d, lambda x: text(x, "#sync").startswith("连不上服务器 · 上次一致 "), "the line saying the server is out of reach",
         timeout=3)
    shoot(d, "offline-head.png")


def test_a_page_of_another_api_version_writes_nothing(phones, server, monkeypatch):
    import dataclasses
    real = server_module.do_rulesets  # GET /api/rulesets answers through the router's table (ROUTES)
    newer = dataclasses.replace(next(r for r in server_module.ROUTES if r.path == ("rulesets",)),
                                call=lambda lib: dict(real(lib), api_version=99))
    monkeypatch.setattr(server_module, "ROUTES",
                        tuple(newer if r.path == ("rulesets",) else r for r in server_module.ROUTES))
    d = phones[3]
    open_table(d, server, "四人")
    assert text(d, "#version") == "此页面与服务器版本不符 (页面 API 2, 服务器 99)：请刷新页面"
    record_requests(d)
    enter(d, "2", "N")
    tap(d, "#rec-go")
    wait(d, lambda x: text(x, "#rec-msg").startswith("此页面与服务器版本不符"), "the refusal")
    time.sleep(0.3)
    assert [p for p, method, _ in d.execute_script("return window.mjSent") if method == "POST"] == []
