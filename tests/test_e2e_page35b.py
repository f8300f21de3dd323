"""Issue 35, items 4-7, on the page in a real headless Chromium at 360×640 and 412×915 with touch taps: what reaches
the Chinese page is Chinese (an amount beyond any table, a base that overflows, a table short of players, no
network, a ledger file in trouble, an import refused); an edit of an earlier hand says beforehand which later
hands' money it changes, and one refused because the table moved on says what changed, keeps the edit and saves
it on the second tap; the armed undo of a history row looks destructive and reads in every theme; the statistics
count penalties as a count. Screenshots go to /tmp/shots-35b/.
"""
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from browser import page_errors, phone_browser, serving
from mjcalc.evening import LedgerFileError
from test_e2e import all_css, by_css, text, wait
from test_e2e_page26 import SIZES, Taps, in_view, open_page, open_table, scroll_to
from test_messages_zh import english_words
from test_serve import api as api_call
from test_serve_page35b import FULL_FLUSH, HANDS, HOUSE, table_at

SHOTS = Path("/tmp/shots-35b")


def api(srv, method, path, body=None):
    return api_call(srv, method, quote(path), body)
THEMES = ["light", "dark", "contrast"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    where = tmp_path_factory.mktemp("ledger35b")
    (where / "house.yaml").write_text(HOUSE, encoding="utf-8")  # 诸暨 with a 50-台 full flush: the default ruleset
    with serving(where / "ledger.sqlite3", ruleset=str(where / "house.yaml")) as srv:
        yield srv


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def phone(request):
    with phone_browser(request.param, "mjcalc-chromium35b-") as driver:
        yield driver


@pytest.fixture(autouse=True)
def no_page_errors(request):
    yield
    if "phone" not in request.fixturenames:
        return
    # the test takes the network away on purpose
    bad = page_errors(request.getfixturevalue("phone"), excused=("ERR_INTERNET_DISCONNECTED",))
    assert not bad, bad


def shoot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}-{driver.size[0]}.png"))


def tap_on_screen(driver, taps, selector):
    """Scroll `selector` into view only if it is not (as a player scrolls to what they look for), then tap it."""
    if not in_view(driver, selector):
        scroll_to(driver, selector)
    taps(selector)


def chinese_only(label, words, path=""):
    """Chinese words, and no English word (the program's name, and the server's file path, aside)."""
    said = words.replace(path, "") if path else words
    assert re.search(r"[\u4e00-\u9fff]", said) and "--" not in said, (label, words)
    assert [w for w in english_words(said) if w != "mjcalc"] == [], (label, words)


# --- item 4: what reaches the Chinese page ---------------------------------------------------------------------------


def test_what_reaches_the_chinese_page_is_chinese(phone, server, monkeypatch):
    w = phone.size[0]
    path = str(server.lib.db_path)
    said = []

    def seen(label, selector, expected=None, fresh=True):  # fresh: not the words said before it
        wait(phone, lambda d: all_css(d, selector) and text(d, selector) and
             not (fresh and text(d, selector) in [s for _, s in said[-1:]]), label)
        said.append((label, text(phone, selector)))
        if expected is not None:
            assert expected in said[-1][1], said[-1]

    open_page(phone, server)
    taps = Taps(phone)
    # 算番 under the house rules (the server's default): a full flush of 50 台 pays 2^51, beyond any amount
    for kind in "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m".split():
        taps(f'#picker [data-k="{kind}"]')
    seen("beyond any amount", "#result[data-state=error]", "51 台 的牌要付 2^51，超过任何数额")
    shoot(phone, "zh-beyond")
    # 底分 1,000,000 and a half flush of 37 台: the hand part is beyond what a seat may win
    taps("#act-clear")
    tap_on_screen(phone, taps, "#sitsum")
    from selenium.webdriver.common.keys import Keys
    base = by_css(phone, "#base")
    base.send_keys(Keys.CONTROL, "a")
    base.send_keys("1000000")
    phone.execute_script("arguments[0].blur()", base)
    wait(phone, lambda d: "底分 1000000" in text(d, "#sitsum"), "the base")
    for kind in "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m E E E".split():
        taps(f'#picker [data-k="{kind}"]')
    seen("a base that overflows", "#result[data-state=error]", "和牌这一部分付给一家超过 1,000,000,000,000,000")

    # a new table short of two players: its seats by their words
    taps("#tab-table")
    wait(phone, lambda d: all_css(d, "#new-name") or all_css(d, "#back"), "the table view")
    if all_css(phone, "#back"):  # the table open before (a reload keeps it): back to the list
        phone.execute_script("window.scrollTo(0, 0)")
        taps("#back")
    wait(phone, lambda d: all_css(d, "#new-name"), "the list of tables")
    for field, value in (("#new-name", f"缺{w}"), ("#new-E", "老王"), ("#new-S", "小明")):
        scroll_to(phone, field)
        by_css(phone, field).send_keys(value)
    tap_on_screen(phone, taps, "#new-go")
    seen("a table short of players", "#new-msg", "一桌要四位玩家：西、北 没有人")
    shoot(phone, "zh-seats")

    # at a table under the house rules: the full flush recorded from its tiles is refused in Chinese
    name = f"大{w}"
    table_at(server, name, [], ruleset="zhuji-big")
    phone.execute_script("window.scrollTo(0, 0)")
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="winner"] [data-v="E"]')
    by_css(phone, "#rec-hand").send_keys(FULL_FLUSH)
    seen("a recorded hand beyond any amount", "#rec-preview.bad", "2^51")

    # the ledger's disk is full: the write is refused, 503, in Chinese (a digit on the pad replaces the tiles)
    phone.execute_script("document.activeElement.blur()")

    def full():
        raise LedgerFileError("ledger.file_full", path=path)
    monkeypatch.setattr(server.lib, "writing", full)
    tap_on_screen(phone, taps, "#pad-2")
    seen("a full disk", "#rec-preview.bad", "磁盘满了：什么都没写")
    tap_on_screen(phone, taps, "#rec-go")
    seen("a full disk, the record refused", "#rec-msg.bad", "磁盘满了", fresh=False)
    monkeypatch.undo()

    # no network: the browser's "Failed to fetch" is never shown, the page's own words are
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1,
                                                               "uploadThroughput": -1})
    try:
        tap_on_screen(phone, taps, "#pad-3")
        seen("no network, the preview", "#rec-preview.bad", "连不上服务器")
        tap_on_screen(phone, taps, "#rec-go")
        wait(phone, lambda d: text(d, "#rec-msg") == "连不上服务器", "no network, the record")
        said.append(("no network, the record", text(phone, "#rec-msg")))
        wait(phone, lambda d: text(d, "#sync").startswith("连不上服务器"), "the line under the head")
        said.append(("no network, the live view", text(phone, "#sync")))
        shoot(phone, "zh-offline")
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                   "downloadThroughput": -1, "uploadThroughput": -1})
    assert not api(server, "GET", f"/api/tables/{name}")[1]["hands"]  # nothing was recorded

    # an import refused (the page's own request function, as the page would send it)
    refused = phone.execute_async_script("const done = arguments[0];"
                                         "api('/api/import', {document: {format: 9}}).then(() => done(null), e => done(e.message))")
    said.append(("an import refused", refused))
    assert refused == "不是 mjcalc 导出的牌桌（格式 9；这个 mjcalc 读格式 1）"

    assert len(said) >= 10
    for label, words in said:
        chinese_only(label, words, path)


# --- item 5: an edit against a moving table ------------------------------------------------------------------------------


def freeze_polls(driver):
    """The page's live view stops seeing the table move (its polls, the reads that name the ETag they hold, never
    come back), while a read of the table anew still answers: a phone in the seconds before its next poll."""
    driver.execute_script("""
        const real = window.fetch;
        window.fetch = (path, opt) => opt && opt.headers && opt.headers['If-None-Match'] ? new Promise(() => {}) : real(path, opt);""")


def start_edit(driver, taps, number):
    selector = f'#history tr[data-hand="{number}"] [data-act="edit"]'
    tap_on_screen(driver, taps, selector)
    wait(driver, lambda d: text(d, "#record h2") == f"修改第{number}手", f"the edit of hand {number}")


def test_an_edit_says_the_later_hands_it_changes_and_survives_a_moving_table(phone, server):
    w = phone.size[0]
    name = f"改{w}"
    table_at(server, name, HANDS)  # 老王 2 番; 小明's tiles, 2 番 self-drawn; 大刘 2 番
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)

    # hand 1 won by 小明 instead: 小明 then deals hand 2, which counts 庄 (3 番: each other pays 3, not 2);
    # hand 3, an agreed total, pays as before and is not named
    start_edit(phone, taps, 1)
    assert by_css(phone, "#rec-hand").get_attribute("value") == "2"
    tap_on_screen(phone, taps, '#record [data-seg="winner"] [data-v="S"]')
    wait(phone, lambda d: text(d, "#rec-preview").startswith("第1手将改成：小明 自摸 2番"), "the edit's preview")
    preview = text(phone, "#rec-preview")
    assert preview.endswith("改了以后这几手会变：#2 老王 -2→-3, 小明 +6→+9, 阿张 -2→-3, 大刘 -2→-3"), preview
    assert "#3" not in preview
    shoot(phone, "edit-preview")

    # another phone records hand 4 before this one has seen it; the save is refused, says what came between, and
    # keeps the edit
    freeze_polls(phone)
    assert api(server, "POST", f"/api/tables/{name}/hand", {"winner": "大刘", "total": 3})[0] == 200
    tap_on_screen(phone, taps, "#rec-go")
    wait(phone, lambda d: "记了第4手" in text(d, "#rec-msg"), "the refusal naming hand 4")
    assert text(phone, "#rec-msg") == "第1手的修改还没保存：牌桌刚变了（记了第4手：大刘 自摸 3）。修改还在，看一下再点保存修改"
    assert in_view(phone, "#rec-msg")  # where the eye is: not under the tab bar
    assert text(phone, "#record h2") == "修改第1手" and by_css(phone, "#rec-hand").get_attribute("value") == "2"
    assert "on" in by_css(phone, '#record [data-seg="winner"] [data-v="S"]').get_attribute("class")
    assert [h["number"] for h in show_hands(server, name)] == [1, 2, 3, 4] and show_hands(server, name)[0]["winner"] == "E"
    wait(phone, lambda d: text(d, "#history tr[data-hand] td.no").startswith("#4"), "hand 4 in the history")
    # the second save is at the table's revision now: saved
    wait(phone, lambda d: text(d, "#rec-preview").startswith("第1手将改成：小明"), "the preview again")
    wait(phone, lambda d: in_view(d, "#rec-msg"), "the refusal in view under the preview")
    shoot(phone, "edit-stale")
    tap_on_screen(phone, taps, "#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已修改第1手", "the edit saved")
    hands = show_hands(server, name)
    assert [h["winner"] for h in hands] == ["S", "S", "N", "N"] and hands[1]["payouts"] == {"E": -3, "S": 9, "W": -3, "N": -3}

    # another phone edits the very hand this one is editing: the live view sees it, the page says so before the
    # save, and the save then replaces the other phone's edit
    phone.refresh()
    wait(phone, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page")
    open_table(phone, server, name, taps)
    start_edit(phone, taps, 3)
    tap_on_screen(phone, taps, "#pad-del")
    tap_on_screen(phone, taps, "#pad-4")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("第3手将改成：大刘 自摸 4番"), "the preview of hand 3")
    now = api(server, "GET", f"/api/tables/{name}")[1]
    other = {"hand_id": now["hands"][2]["hand_id"], "revision": now["revision"], "winner": "阿张", "total": 5}
    assert api(server, "POST", f"/api/tables/{name}/edit", other)[0] == 200
    wait(phone, lambda d: "第3手改成了：阿张 自摸 5" in text(d, "#rec-msg"), "the other phone's edit, said")
    assert in_view(phone, "#rec-msg")
    assert text(phone, "#rec-msg").startswith("第3手的修改还没保存") and text(phone, "#record h2") == "修改第3手"
    assert by_css(phone, "#rec-hand").get_attribute("value") == "4"
    wait(phone, lambda d: text(d, "#rec-preview").startswith("第3手将改成：大刘 自摸 4番"), "the preview at the new revision")
    tap_on_screen(phone, taps, "#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已修改第3手", "hand 3 saved")
    assert show_hands(server, name)[2]["winner"] == "N" and show_hands(server, name)[2]["total"] == 4

    # 改成流局 asks once more, saying what it changes; a hand removed meanwhile ends the edit, and says so
    start_edit(phone, taps, 1)
    tap_on_screen(phone, taps, "#rec-draw")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("第1手将改成：流局 荒牌 ·"), "the draw's preview")
    assert text(phone, "#rec-draw") == "再点：改成流局" and "armed" in by_css(phone, "#rec-draw").get_attribute("class")
    wait(phone, lambda d: in_view(d, "#rec-preview") and in_view(d, "#rec-draw"), "the list and the confirm in view")
    shoot(phone, "edit-draw-armed")
    now = api(server, "GET", f"/api/tables/{name}")[1]
    assert api(server, "POST", f"/api/tables/{name}/undo", {"hand_id": now["hands"][0]["hand_id"],
                                                           "revision": now["revision"]})[0] == 200
    wait(phone, lambda d: text(d, "#rec-msg") == "第1手已经不在了（撤销了一手）：修改没有保存", "the hand gone")
    assert in_view(phone, "#rec-msg")
    shoot(phone, "edit-gone")
    assert text(phone, "#record h2") == "记一手"
    assert len(show_hands(server, name)) == 3  # the undo only: the draw was never saved


def show_hands(srv, name):
    return api(srv, "GET", f"/api/tables/{name}")[1]["hands"]


# --- item 6: the armed undo of a history row -----------------------------------------------------------------------------


CONTRAST = """
const lum = c => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(v => { v = v / 255;
  return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const e = document.querySelector(arguments[0]), s = getComputedStyle(e);
const a = lum(s.color), b = lum(s.backgroundColor);
const bad = getComputedStyle(document.documentElement).getPropertyValue('--bad').trim();
const probe = document.createElement('i'); probe.style.color = bad; document.body.append(probe);
const badRgb = getComputedStyle(probe).color; probe.remove();
return [(Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), s.backgroundColor, badRgb];"""


@pytest.mark.parametrize("theme", THEMES)
def test_the_armed_undo_of_a_history_row_looks_destructive_and_reads(phone, server, theme):
    name = f"撤{phone.size[0]}{theme}"
    # 阿张 wins hand 1, so 小明 deals hand 2 and counts 庄 on it (3 番); without hand 1, 老王 deals it: 2 番
    table_at(server, name, [("阿张", None, 2), HANDS[1]])
    open_page(phone, server, theme=theme)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    tap_on_screen(phone, taps, '#history tr[data-hand="1"] [data-act="undo"]')
    wait(phone, lambda d: all_css(d, '[data-act="undo-go"]'), "the undo armed")
    ratio, background, bad = phone.execute_script(CONTRAST, '[data-act="undo-go"]')
    assert background == bad, (background, bad)  # the destructive colour, filled
    assert ratio >= 4.5, ratio
    assert text(phone, '[data-act="undo-go"]') == "确认撤销第1手"
    wait(phone, lambda d: text(d, "#hist-msg"), "the later hands")
    assert text(phone, "#hist-msg") == "撤销后这几手会变：#2 老王 -3→-2, 小明 +9→+6, 阿张 -3→-2, 大刘 -3→-2"
    scroll_to(phone, '[data-act="undo-go"]')
    shoot(phone, f"armed-undo-{theme}")


# --- item 7: penalties counted -------------------------------------------------------------------------------------------


def test_the_statistics_count_penalties_as_a_count(phone, server):
    name = f"罚{phone.size[0]}"
    table_at(server, name, [("老王", None, 2)], ruleset="beijing-classic")
    for player, to in (("小明", "老王"), ("小明", "阿张")):
        assert api(server, "POST", f"/api/tables/{name}/penalty", {"penalty": "fine", "player": player, "to": to})[0] == 200
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    scroll_to(phone, "#stats-open")
    taps("#stats-open")
    wait(phone, lambda d: all_css(d, "#stats-table"), "the statistics")
    players = [th.get_attribute("title") for th in all_css(phone, "#stats-table tr:first-child th[title]")]
    shown = dict(zip(players, [td.text for td in all_css(phone, '#stats-table tr[data-stat="penalties"] td')]))
    assert shown == {"老王": "0", "小明": "2次", "阿张": "0", "大刘": "0"}
    assert by_css(phone, '#stats-table tr[data-stat="penalties"] th').text == "罚分"
    assert not all_css(phone, '#stats-table tr[data-stat="penalties"] .pos, #stats-table tr[data-stat="penalties"] .neg')
    net = dict(zip(players, [td.text for td in all_css(phone, '#stats-table tr[data-stat="net"] td')]))
    fined = players.index("小明") + 2  # (the row's heading, then one cell a person)
    score = {x["player"]: x["score"] for x in api(server, "GET", f"/api/tables/{name}/standings")[1]["standings"]}
    assert score["小明"] < 0 and net["小明"] == str(score["小明"]) and "neg" in by_css(phone, f'#stats-table tr[data-stat="net"] td:nth-child({fined}) span').get_attribute("class")
    shoot(phone, "stats-penalties")


def test_the_page_has_its_heading(phone, server):
    open_page(phone, server)
    assert [h.text for h in all_css(phone, "h1")] == ["mjcalc"]
    assert json.loads(phone.execute_script("return JSON.stringify(getComputedStyle(document.querySelector('h1')).fontSize)")) == "17px"
