"""Issue 26 at the table, in a real headless Chromium at 360×640 and 412×915 with touch taps (CDP touch events,
never a scroll made by the test between the taps it measures): the answer in view after the 14th tile, a picker
that folds away, no action that moves the scroll position, a number pad for a quick hand, big targets, three
themes, accessible names and a live region, a keyboard-only flow, and "lang" on every request. Screenshots at
360×640 go to /tmp/shots26/.
"""
import functools
import json
import os
import re
import time
import urllib.request
from pathlib import Path

import pytest

from browser import PHONE_SIZES, phone_module, serving
from test_e2e import PLAYERS, all_css, by_css, cli_json, text, wait

SHOTS = Path("/tmp/shots26")
SIZES = PHONE_SIZES
HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 4m 5m 6m".split()  # 12345m 456p 789s EE +6m
WON_HAND = "123m456p789s EE 45m +6m"


server, phone, no_page_errors, _ = phone_module("26", SHOTS)  # its screenshots are its own `shoot`'s


# --- helpers ------------------------------------------------------------------------------------------------------


class Taps:
    """Touch taps at an element's centre, counted; the element must already be on screen (a test never scrolls
    between the taps it measures, so a page that moved would be caught)."""

    def __init__(self, driver):
        self.driver, self.count = driver, 0

    def __call__(self, selector):
        d = self.driver
        box = d.execute_script("const e = document.querySelector(arguments[0]); if (!e) return null;"
                               "const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", selector)
        assert box, selector
        x, y = box
        assert 0 <= y <= d.size[1] and 0 <= x <= d.size[0], f"{selector} is off screen at {box}"
        hit = d.execute_script("const e = document.elementFromPoint(arguments[0], arguments[1]);"
                               "return !!e && e.closest(arguments[2]) === document.querySelector(arguments[2])", x, y, selector)
        assert hit, f"{selector} is covered at {box}"
        point = {"x": round(x), "y": round(y), "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.count += 1


def open_page(driver, srv, lang="zh", theme=None):
    driver.get(srv.url)
    driver.execute_script("localStorage.clear(); localStorage.setItem('mj-lang', arguments[0]);"
                          "if (arguments[1]) localStorage.setItem('mj-theme', arguments[1]);", lang, theme)
    driver.get(srv.url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page to start")


def scroll_y(driver):
    return driver.execute_script("return window.scrollY")


def scroll_to(driver, selector, block="center"):
    """Scroll so that `selector` is on screen (as a player would), and say where the page is."""
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: arguments[1]})", selector, block)
    return scroll_y(driver)


def in_view(driver, selector):
    """Whether the element is wholly inside the viewport and nothing fixed (the dock, the tab bar) covers it."""
    return driver.execute_script("""
        const e = document.querySelector(arguments[0]); if (!e) return false;
        const r = e.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth || !r.height) return false;
        const i = Math.min(8, r.width / 4, r.height / 4);  // inside the rounded corners
        for (const [x, y] of [[r.left + i, r.top + i], [r.right - i, r.bottom - i], [r.left + r.width / 2, r.top + r.height / 2]]) {
          const hit = document.elementFromPoint(x, y); if (!hit || !e.contains(hit)) return false; }
        return true;""", selector)


def shoot(driver, name):
    if driver.size != (360, 640):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / name))


def new_table(srv, name, ruleset="beijing", players=PLAYERS):
    body = json.dumps({"name": name, "ruleset": ruleset, "players": players}).encode()
    request = urllib.request.Request(srv.url.rstrip("/") + "/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201


def show(srv, name):
    return cli_json(["table", "show", name, "--json", "--db", str(srv.lib.db_path)])


def record_requests(driver):
    driver.execute_script("""
        window.mjSent = [];
        const real = window.fetch;
        window.fetch = (path, opt) => { window.mjSent.push([String(path), (opt && opt.method) || 'GET',
            opt && opt.body ? JSON.parse(opt.body) : null, (opt && opt.headers && opt.headers['Accept-Language']) || null]);
            return real(path, opt); };""")


def record_previewed(driver, taps, number, y):
    """Entered without a keyboard: once the preview of hand `number` shows, 记录 (scrolled to first only when it is
    off screen), until the hand is recorded; the scroll position the page must then keep."""
    assert driver.execute_script("return document.activeElement.id") != "rec-hand"  # no keyboard opened
    wait(driver, lambda d: text(d, "#rec-preview").startswith(f"将记录 #{number}"), "the preview")
    if not in_view(driver, "#rec-go"):
        y = scroll_to(driver, "#rec-go")
    taps("#rec-go")
    wait(driver, lambda d: text(d, "#rec-msg") == f"已记录第{number}手", f"hand {number}")
    return y


def at_the_record_form(driver, srv, name, seat, digits):
    """A new table `name` opened on the page, its record form in view, `seat` chosen as the winner and `digits`
    tapped on the number pad; the taps."""
    new_table(srv, name)
    open_page(driver, srv)
    taps = Taps(driver)
    open_table(driver, srv, name, taps)
    scroll_to(driver, "#record", "start")
    taps(f'#record [data-seg="winner"] [data-v="{seat}"]')
    for digit in digits:
        taps(f"#pad-{digit}")
    return taps


def open_table(driver, srv, name, taps):
    taps("#tab-table")
    wait(driver, lambda d: all_css(d, "#tables") or all_css(d, "#back"), "the table view")
    if not all_css(driver, "#tables") and all_css(driver, "#back"):  # another table open (a reload keeps it)
        driver.execute_script("window.scrollTo(0, 0)")
        taps("#back")
    wait(driver, lambda d: all_css(d, f'#tables [data-table="{name}"]'), "the list of tables")
    scroll_to(driver, f'#tables [data-table="{name}"]')
    taps(f'#tables [data-table="{name}"]')
    wait(driver, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name, "the table")


# --- 1. the answer always visible ----------------------------------------------------------------------------------


def test_the_answer_is_on_screen_after_the_14th_tap(phone, server):
    open_page(phone, server)
    taps = Taps(phone)
    for kind in HAND:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    assert taps.count == 14  # score a hand by tiles: 14 taps, as before; the answer is now on screen without a scroll
    assert scroll_y(phone) == 0
    cli = cli_json(["analyze", "12345m 456p 789s EE +6m", "--json"])
    assert text(phone, "#total") == str(cli["total"])
    assert in_view(phone, "#total"), "合计 is off screen or covered"
    for seat in "ESWN":
        assert in_view(phone, f'#payouts tr[data-seat="{seat}"]'), f"{seat}'s payout is off screen or covered"
    # the picker folded away after the 14th tile; one tap unfolds it, one folds it again
    assert not phone.execute_script("return document.getElementById('picker').offsetHeight")
    assert by_css(phone, "#act-fold").get_attribute("aria-expanded") == "false"
    shoot(phone, "score-14th-tap.png")
    taps("#act-fold")
    assert phone.execute_script("return document.getElementById('picker').offsetHeight") > 200
    assert scroll_y(phone) == 0
    shoot(phone, "score-picker-open.png")
    taps("#act-fold")
    assert not phone.execute_script("return document.getElementById('picker').offsetHeight")
    # the screen reader hears the answer
    said = text(phone, "#announce")
    assert said.startswith("合计 " + str(cli["total"])) and all(f"{s} {v:+d}" in said.replace("+0", "0") or v == 0
                                                             for s, v in zip("东南西北", cli["payouts"].values()))
    # clearing unfolds the picker: the next hand starts at once
    taps("#act-clear")
    wait(phone, lambda d: d.execute_script("return document.getElementById('picker').offsetHeight") > 200, "the picker back")


def test_recording_and_undo_keep_the_scroll_and_a_quick_hand_takes_three_taps(phone, server):
    name = f"快{phone.size[0]}"
    new_table(server, name)
    open_page(phone, server)
    taps = Taps(phone)
    for kind in HAND:  # a hand on the calculator: the table's first open must not take it behind the player's back
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    open_table(phone, server, name, taps)
    assert by_css(phone, "#rec-hand").get_attribute("value") == ""
    shoot(phone, "table-open.png")
    record_requests(phone)

    # a one-digit self-drawn hand: winner, digit, 记录 (自摸 is the default) — and nothing moves the page
    y = scroll_to(phone, "#record", "start")
    taps.count = 0
    taps('#record [data-seg="winner"] [data-v="S"]')
    taps('#record [data-seg="from"] [data-v=""]')  # 自摸 said explicitly: still within 4
    taps("#pad-3")
    assert by_css(phone, "#rec-hand").get_attribute("value") == "3"
    y = record_previewed(phone, taps, 1, y)
    assert taps.count <= 4
    assert scroll_y(phone) == y, "recording moved the page"
    assert in_view(phone, "#rec-msg")
    hand = show(server, name)["hands"][0]
    assert (hand["total"], hand["winner"], hand["payouts"]) == (3, "S", {"E": -3, "S": 9, "W": -3, "N": -3})
    shoot(phone, "table-recorded.png")

    # with a discarder and ⌫: winner, discarder, 2, ⌫, 1, 记录
    taps('#record [data-seg="winner"] [data-v="W"]')
    taps('#record [data-seg="from"] [data-v="N"]')
    taps("#pad-2")
    taps("#pad-del")
    taps("#pad-1")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #2"), "the preview")
    taps("#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已记录第2手", "hand 2")
    assert scroll_y(phone) == y
    assert show(server, name)["hands"][1]["payouts"] == {"E": 0, "S": 0, "W": 1, "N": -1}

    # undo: the first tap asks, on screen, without moving the page; the second undoes
    if not in_view(phone, "#rec-undo"):
        y = scroll_to(phone, "#rec-undo")
    taps("#rec-undo")
    wait(phone, lambda d: "2" in text(d, "#rec-undo"), "the undo to ask")
    assert scroll_y(phone) == y and in_view(phone, "#rec-undo")
    shoot(phone, "table-undo-ask.png")
    taps("#rec-undo")
    wait(phone, lambda d: len(all_css(d, "#history tr[data-hand]")) == 1, "the undo")
    assert scroll_y(phone) == y and len(show(server, name)["hands"]) == 1

    # every request said the page's language: "lang" in each body, Accept-Language on each read
    sent = phone.execute_script("return window.mjSent")
    assert sent and all(body["lang"] == "zh" for _, method, body, _ in sent if method == "POST"), sent
    assert all(lang == "zh" for path, method, _, lang in sent if method == "GET" and path.startswith("/api/")), sent


def test_patterns_entered_by_tapping_their_names(phone, server):
    """beijing.md: 对对和 ★ 2 番 replaces 推倒和, 门清无惠 1 番 combines with it: 3 番; "Discard 点炮: the
    discarder alone pays F·b"; South is not the dealer (East deals first), so no 庄: South +3, North −3."""
    name = f"番种{phone.size[0]}"
    new_table(server, name)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    y = scroll_to(phone, "#record", "start")
    taps.count = 0
    taps('#record [data-seg="winner"] [data-v="S"]')
    taps('#record [data-seg="from"] [data-v="N"]')
    taps('#record [data-seg="mode"] [data-v="patterns"]')
    offered = [b.get_attribute("data-pat") for b in all_css(phone, "#pats button")]
    # 庄 and 推倒和 the table adds itself where they hold: not offered
    assert {"dealer", "tuidaohe"}.isdisjoint(offered) and {"all_pungs", "concealed_no_wild"} <= set(offered)
    taps('#pats [data-pat="seven_pairs"]')
    taps('#pats [data-pat="luxury_seven_pairs"]')  # beijing.md: 豪华七对子 replaces 七对子; the page says it is not counted
    assert "dim" in by_css(phone, '#pats [data-pat="seven_pairs"]').get_attribute("class")
    assert text(phone, "#pats-note") == "豪华七对子 代替了 七对子，七对子 不另算"
    taps('#pats [data-pat="luxury_seven_pairs"]')
    taps('#pats [data-pat="seven_pairs"]')
    assert text(phone, "#pats-note") == ""
    taps('#pats [data-pat="all_pungs"]')
    taps('#pats [data-pat="dragon"]')
    taps('#pats [data-pat="dragon"]')  # a second tap takes it back out
    assert by_css(phone, '#pats [data-pat="dragon"]').get_attribute("aria-pressed") == "false"
    taps('#pats [data-pat="concealed_no_wild"]')
    assert by_css(phone, "#rec-hand").get_attribute("value") == "对对和,门清无惠"
    assert by_css(phone, '#pats [data-pat="all_pungs"]').get_attribute("aria-pressed") == "true"
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #1"), "the preview")
    y = scroll_y(phone)  # issue 35: a preview the chips pushed under the tab bar is brought into view
    y = record_previewed(phone, taps, 1, y)
    # the page moves only down, and only to show the confirmation and the standings under it (issue 35)
    assert taps.count == 12 and y <= scroll_y(phone) and in_view(phone, "#rec-msg") and in_view(phone, "#rec-sum")
    hand = show(server, name)["hands"][0]
    assert (hand["total"], hand["payouts"]) == (3, {"E": 0, "S": 3, "W": 0, "N": -3})
    assert sorted(p["id"] for p in hand["patterns"]) == ["all_pungs", "concealed_no_wild"]
    shoot(phone, "table-patterns.png")
    # the mode is kept: the next hand starts on the names; the pad is one tap back
    assert all_css(phone, "#pats button")
    scroll_to(phone, '#record [data-seg="mode"]')
    taps('#record [data-seg="mode"] [data-v="pad"]')
    assert all_css(phone, "#pad-3") and not all_css(phone, "#pats button")


def test_a_hand_told_on_the_page_pays_what_the_command_line_pays(phone, server):
    """Issue 33: the page's pattern form and number pad, with what the table knows of the hand (its claimed sets,
    the winner's kongs and whom a 明杠 was claimed from), record the money `table hand` records for the same hand
    told on the command line — two tables of beijing-money (the 2-4-8 table, kong money) played alike."""
    name, twin = f"告{phone.size[0]}", f"告cli{phone.size[0]}"
    for table in (name, twin):
        new_table(server, table, "beijing-money")
    db = str(server.lib.db_path)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")

    def tap_on_screen(selector):
        if not in_view(phone, selector):
            scroll_to(phone, selector)
        taps(selector)

    def same_as_cli(number, *args):
        """Hand `number` as the page recorded it, and as `table hand` records it at the twin table."""
        wait(phone, lambda d: text(d, "#rec-msg") == f"已记录第{number}手", f"hand {number}")
        page = show(server, name)["hands"][number - 1]
        cli = cli_json(["table", "hand", twin, *args, "--json", "--yes", "--db", db])["hand"]
        assert (page["total"], page["payouts"]) == (cli["total"], cli["payouts"]), (page, cli)
        return page

    # 1. by name: 对对和 and 门清, self-drawn on a kong draw with a 暗杠 (杠上开花 added, 暗杠 20 from each)
    tap_on_screen('#record [data-seg="winner"] [data-v="S"]')
    tap_on_screen('#record [data-seg="mode"] [data-v="patterns"]')
    tap_on_screen('#pats [data-pat="all_pungs"]')
    tap_on_screen('#pats [data-pat="concealed"]')
    tap_on_screen("#rec-flag-kong_draw")
    tap_on_screen('#told [data-seg="ckongs"] [data-v="1"]')
    wait(phone, lambda d: "已加上 杠上开花" in text(d, "#rec-preview"), "the preview naming what was added")
    tap_on_screen("#rec-go")
    hand = same_as_cli(1, "--patterns", "对对和,门清", "--winner", PLAYERS["S"], "--kong-draw", "--kongs", "concealed")
    assert hand["total"] == 3 and hand["told"] == {"kongs": ["concealed"]}
    # 2. by total on the pad: 2 番 self-drawn by 阿张 with a 明杠 claimed from 老王 (who pays 10 for it)
    tap_on_screen('#record [data-seg="winner"] [data-v="W"]')
    tap_on_screen('#record [data-seg="mode"] [data-v="pad"]')
    tap_on_screen("#pad-2")
    tap_on_screen('#told [data-seg="ekongs"] [data-v="1"]')
    tap_on_screen('#told [data-seg="ekong0"] [data-v="E"]')
    tap_on_screen("#rec-go")
    same_as_cli(2, "--fan", "2", "--winner", "阿张", "--kongs", "exposed:老王")
    # 3. an open hand (one claimed set) by name: 对对和 alone, no 门清
    tap_on_screen('#record [data-seg="winner"] [data-v="N"]')
    tap_on_screen('#record [data-seg="mode"] [data-v="patterns"]')
    tap_on_screen('#pats [data-pat="all_pungs"]')
    tap_on_screen('#told [data-seg="open"] [data-v="1"]')
    tap_on_screen("#rec-go")
    same_as_cli(3, "--patterns", "对对和", "--winner", "大刘", "--open", "1")
    shoot(phone, "table-told.png")
    # 4. 海底 ticked beside the names is counted (it was shown in the history and added nothing)
    tap_on_screen('#record [data-seg="winner"] [data-v="N"]')
    tap_on_screen('#pats [data-pat="all_pungs"]')
    tap_on_screen('#pats [data-pat="concealed"]')
    tap_on_screen("#rec-flag-last_tile")
    wait(phone, lambda d: "已加上 海底捞月" in text(d, "#rec-preview"), "the preview naming 海底捞月")
    tap_on_screen("#rec-go")
    hand = same_as_cli(4, "--patterns", "对对和,门清", "--winner", "大刘", "--last-tile")
    assert "sea_bottom" in [p["id"] for p in hand["patterns"]]


def test_a_total_above_the_usual_is_asked_about_on_the_page(phone, server):
    """beijing's hands usually reach 19 番 (told.usual_total): 25 on the pad is asked about, in the page's language,
    and recorded only on yes."""
    name = f"问{phone.size[0]}"
    taps = at_the_record_form(phone, server, name, "S", "25")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #1"), "the preview")
    if not in_view(phone, "#rec-go"):
        scroll_to(phone, "#rec-go")
    taps("#rec-go")
    wait(phone, lambda d: all_css(d, "#total-ask"), "the question")
    assert "25 番 比 北京麻将 一手牌通常的最大值还大（19" in text(phone, "#total-ask")
    assert show(server, name)["hands"] == []
    shoot(phone, "table-total-ask.png")
    if not in_view(phone, "#total-yes"):
        scroll_to(phone, "#total-yes")
    taps("#total-yes")
    wait(phone, lambda d: text(d, "#rec-msg") == "已记录第1手", "hand 1")
    assert show(server, name)["hands"][0]["total"] == 25


def choose(driver, taps, selector, value):
    """A <select> as a thumb uses it: two taps (open it, pick the option), counted; the element must be on screen."""
    from selenium.webdriver.support.ui import Select

    taps(selector)
    Select(by_css(driver, selector)).select_by_value(value)
    taps.count += 1


def test_waits_with_a_wildcard_take_13_taps(phone, server):
    """beijing, 12355m 456p 789s E and a 惠 (★): the 惠 as E makes the pair EE and 55m waits for its pung (5m,
    4 − 2 held = 2 left); as 5m it makes 555m and E waits for its pair (4 − 1 = 3 left)."""
    open_page(phone, server)
    taps = Taps(phone)
    for kind in "1m 2m 3m 4p 5p 6p 7s 8s 9s 5m 5m E".split():
        taps(f'#picker [data-k="{kind}"]')
    taps("#picker .t.w")
    wait(phone, lambda d: all_css(d, "#result[data-state=waits]"), "the waits")
    assert taps.count == 13 and scroll_y(phone) == 0
    left = {r.get_attribute("data-tile"): r.find_elements("css selector", "td")[1].text for r in all_css(phone, "#waits tr[data-tile]")}
    assert left == {"5m": "2", "E": "3"}, left
    shoot(phone, "waits-wild.png")
    # above the picker, which stays open for a 14th tile: the waits with their tiles left, on screen
    dock = {w.get_attribute("data-tile"): w.text.split()[-1] for w in all_css(phone, "#hand-waits [data-tile]")}
    assert dock == {"5m": "×2", "E": "×3"} and in_view(phone, "#hand-waits")
    taps('#picker [data-k="5m"]')  # the 14th tile: a win, and the line goes
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    assert not by_css(phone, "#hand-waits").is_displayed()


def test_a_zhuji_hand_with_a_bid_in_24_taps(phone, server):
    """examples/zhuji/spec-payout-bidder-self-draws.yaml (zhuji.md payout 1), worked there by hand: 东风 2 + 中发白 1 =
    3 台 ≥ the 2台 bid; the 包家 E self-draws: S, W, N each pay H = 2^3 = 8 and B(2台) = 5: E +39, the others −13."""
    open_page(phone, server)
    taps = Taps(phone)
    choose(phone, taps, "#ruleset", "zhuji")
    taps("#sitsum")
    high = "window.scrollBy(0, document.querySelector(arguments[0]).getBoundingClientRect().top - 120)"
    phone.execute_script(high, "#opt-bid")  # a scroll above the tile picker, not a tap
    choose(phone, taps, "#opt-bid", "2")
    assert by_css(phone, '#opt-bid option[value="du2"]').text == "独2台"  # the game's words, not du2
    choose(phone, taps, "#opt-bidder", "E")
    phone.execute_script(high, "#wild0")
    choose(phone, taps, "#wild0", "5p")
    assert by_css(phone, '#wild0 option[value="C"]').text == "中"
    phone.execute_script("window.scrollTo(0, 0)")
    taps("#sitsum")  # fold the situation away
    for kind in "1m 2m 3m 4p 5p 6p 9s E E E C C C 9s".split():
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    assert taps.count == 24
    assert text(phone, "#total") == "3"
    pays = {r.get_attribute("data-seat"): r.text.split()[-1] for r in all_css(phone, "#payouts tr[data-seat]")}
    assert pays == {"E": "+39", "S": "-13", "W": "-13", "N": "-13"}
    assert in_view(phone, "#total") and all(in_view(phone, f'#payouts tr[data-seat="{s}"]') for s in "ESWN")
    shoot(phone, "zhuji-bid.png")


def test_advice_by_value_is_the_cli_ranking(phone, server):
    """牌效 → 按期望得分: the discards in `advise --by value`'s order with its P(win), ~ where it marks them."""
    open_page(phone, server)
    by_css(phone, "#notation").send_keys("11112345667p 9p FF")
    taps = Taps(phone)
    taps("#act-fold")  # typed, not tapped: the picker stays until folded
    taps("#tab-advise")
    wait(phone, lambda d: all_css(d, "#result[data-state=advice]"), "the advice")
    taps('#advise-by [data-v="value"]')
    wait(phone, lambda d: all_css(d, "#advise-model"), "the valued advice")
    cli = cli_json(["advise", "11112345667p 9p FF", "--by", "value", "--json"])
    shown = phone.execute_script("return [...document.querySelectorAll('#discards tr[data-discard]')].map("
                                 "r => [r.dataset.discard, r.cells[2].innerText.trim()])")
    assert [k for k, _ in shown] == cli["ranked"], phone.execute_script("return document.getElementById('v-advise').innerHTML")[:3000]
    by_tile = {x["discard"]: x for x in cli["discards"]}
    for k, p in shown:
        x = by_tile[k]
        assert p == ("" if x["exact"] else "~") + f"{x['p_win'] * 100:.1f}%", (k, p, x)
    assert "时间上限" not in text(phone, "#result")  # no time cap: bounded by work


def test_long_advice_shows_a_busy_state_that_cancels_and_the_work_cap_answers(phone, server, monkeypatch):
    """shangrao, 2 from ready holding three 5m 宝 (bench/advise_value.py's heaviest row, narrowed by the work cap;
    the server made slow here, so that the busy card stays): a busy card with a running count of seconds and a
    cancel; cancelled, the plain ranking; asked again, the narrower figures marked ~."""
    from mjcalc import front
    from selenium.webdriver.support.ui import Select

    valued = front.advise_value

    def slow(*args, **kwargs):
        time.sleep(2)
        return valued(*args, **kwargs)
    monkeypatch.setattr(front, "advise_value", slow)
    open_page(phone, server)
    Select(by_css(phone, "#ruleset")).select_by_value("shangrao")
    by_css(phone, "#notation").send_keys("34455568m 235p 18s P")
    phone.execute_script("document.getElementById('sit').open = true")
    Select(by_css(phone, "#wild0")).select_by_value("5m")
    phone.execute_script("document.getElementById('sit').open = false; window.scrollTo(0, 0)")
    taps = Taps(phone)
    taps("#act-fold")
    taps("#tab-advise")
    wait(phone, lambda d: all_css(d, "#result[data-state=advice]"), "the advice")
    assert scroll_y(phone) == 0
    taps('#advise-by [data-v="value"]')
    wait(phone, lambda d: all_css(d, "#advise-busy"), "the busy card")
    assert "正在估算" in text(phone, "#advise-busy") and in_view(phone, "#advise-cancel")
    taps("#advise-cancel")
    wait(phone, lambda d: all_css(d, "#result[data-state=advice]") and not all_css(d, "#advise-busy"), "the plain advice")
    assert not all_css(phone, "#advise-model")
    assert by_css(phone, '#advise-by [data-v=""]').get_attribute("class") == "on"
    taps('#advise-by [data-v="value"]')
    wait(phone, lambda d: all_css(d, "#advise-model"), "the narrowed answer", timeout=15)
    assert "~" in text(phone, "#discards")  # ("—": the discards further from ready, not valued)
    shoot(phone, "advise-capped.png")


# --- 4. Chinese everywhere -----------------------------------------------------------------------------------------


def test_the_chinese_page_says_every_refusal_in_chinese(phone, server):
    """Twelve refused inputs, entered as a player enters them, each read where the page shows it: Chinese words,
    no English word (tile notation and honor letters aside), no command-line flag."""
    from selenium.webdriver.support.ui import Select
    from test_messages_zh import english_words

    said = []
    click = functools.partial(phone.execute_script, "document.querySelector(arguments[0]).click()")  # not a measured tap

    def shown(label, selector):  # a new refusal: not the one said before it
        wait(phone, lambda d: all_css(d, selector) and text(d, selector) not in ("", *(w for _, w in said[-1:])), label)
        said.append((label, text(phone, selector)))

    open_page(phone, server)
    field = by_css(phone, "#notation")
    for label, hand in (("a bad tile", "123m456p789s EE 45x +6m"), ("digits without a suit", "123")):
        field.clear()
        field.send_keys(hand)
        shown(label, "#result[data-state=error]")
    field.clear()
    field.send_keys(WON_HAND)
    Select(by_css(phone, "#ruleset")).select_by_value("shangrao")
    phone.execute_script("document.getElementById('sit').open = true")
    click('#how [data-seg="from"] [data-v="S"]')
    shown("shangrao takes no discard win", "#reason")
    click('#how [data-seg="from"] [data-v=""]')
    Select(by_css(phone, "#ruleset")).select_by_value("zhuji")
    wait(phone, lambda d: all_css(d, "#opt-bid"), "zhuji's options")
    Select(by_css(phone, "#opt-bid")).select_by_value("2")
    shown("a bid without its bidder", "#result[data-state=error]")
    Select(by_css(phone, "#opt-bid")).select_by_value("")

    names = {"beijing": "拒北", "zhuji": "拒诸"}
    for ruleset, name in names.items():
        new_table(server, name + str(phone.size[0]), ruleset)
    taps = Taps(phone)
    for label, ruleset, entry in (("a total below the least", "zhuji", "0"),
                                  ("an unknown pattern", "beijing", "海底月"),
                                  ("a pattern twice", "beijing", "对对和,对对和"),
                                  ("two patterns of no one shape", "beijing", "七对子,对对和"),
                                  ("a pattern the situation contradicts", "beijing", "天和"),
                                  ("tiles that do not win", "beijing", "123m456p789s EE 45m +9m")):
        name = names[ruleset] + str(phone.size[0])
        if not all_css(phone, "#table-name") or text(phone, "#table-name") != name:
            phone.execute_script("window.scrollTo(0, 0)")
            if all_css(phone, "#back"):
                click("#back")
            open_table(phone, server, name, taps)
        f = by_css(phone, "#rec-hand")
        f.clear()
        f.send_keys(entry)
        click('#record [data-seg="winner"] [data-v="S"]')
        shown(label, "#rec-preview.bad")
    click("#back")
    wait(phone, lambda d: all_css(d, "#new-name"), "the list of tables")
    for label, name in (("a table's name too long", "长" * 65), ("a table's name taken", names["beijing"] + str(phone.size[0]))):
        by_css(phone, "#new-name").clear()
        by_css(phone, "#new-name").send_keys(name)
        for seat, player in zip("ESWN", ["老王", "小李", "阿张", "大刘"]):
            by_css(phone, f"#new-{seat}").clear()
            by_css(phone, f"#new-{seat}").send_keys(player)
        click("#new-go")
        shown(label, "#new-msg")
        phone.execute_script("document.getElementById('new-msg').textContent = ''")
    assert len(said) >= 10
    for label, words in said:
        print(f"{label}: {words}")
        assert re.search(r"[\u4e00-\u9fff]", words) and not english_words(words) and "--" not in words, (label, words)


def test_the_small_things(phone, server):
    """Issue 26's item 10: no id twice in the page (the 局况 panel and the record form each have their own), a meld
    drawn with the hand and the winning tile last, 自摸 never broken across lines in the history."""
    name = f"小事{phone.size[0]}"
    new_table(server, name)
    cli_json(["table", "hand", name, "[123m] 456p 789s EE 45m +6m", "--winner", "S", "--json", "--db", str(server.lib.db_path)])
    open_page(phone, server)
    by_css(phone, "#notation").send_keys("[123m] 456p 789s EE 45m +6m")
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    assert phone.execute_script("return [...document.querySelectorAll('#hand > *')].map(e => e.className.split(' ')[0])")[-3:] == \
        ["meld", "plus", "t"]
    phone.execute_script("document.getElementById('sit').open = true")
    taps = Taps(phone)
    taps("#act-fold")
    taps("#tab-table")
    wait(phone, lambda d: all_css(d, f'#tables [data-table="{name}"]'), "the list of tables")
    scroll_to(phone, f'#tables [data-table="{name}"]')
    taps(f'#tables [data-table="{name}"]')
    wait(phone, lambda d: all_css(d, "#history tr[data-hand]"), "the table")
    ids = phone.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert [i for i in set(ids) if ids.count(i) > 1] == [] and "rec-opt-shaozhuang" in ids and "opt-shaozhuang" in ids
    assert phone.execute_script("const e = [...document.querySelectorAll('#history .line .nb')].find(x => x.textContent === '自摸');"
                                "return !!e && getComputedStyle(e).whiteSpace") == "nowrap"


# --- 3. big targets --------------------------------------------------------------------------------------------------


SMALL = """
    const out = [];
    for (const b of document.querySelectorAll('button')) {
      const r = b.getBoundingClientRect();
      if (!b.offsetParent && getComputedStyle(b).position !== 'fixed') continue;
      if (!r.width || !r.height) continue;
      if (b.classList.contains('t') ? r.width < 39.5 || r.height < 47.5 : r.width < 43.5 || r.height < 43.5) out.push([b.id || b.textContent.trim().slice(0, 12), Math.round(r.width), Math.round(r.height)]);
    }
    return out;"""


def test_targets_are_big_enough(phone, server):
    open_page(phone, server)
    taps = Taps(phone)
    tiles = phone.execute_script("""
        return [...document.querySelectorAll('#picker .t')].map(e => { const r = e.getBoundingClientRect();
                                                                         return [r.left, r.top, r.width, r.height]; });""")
    assert len(tiles) == 35
    assert min(w for _, _, w, _ in tiles) >= 40 and min(h for _, _, _, h in tiles) >= 48, tiles[:3]
    same_row = [(a, b) for a, b in zip(tiles, tiles[1:]) if abs(a[1] - b[1]) < 1]
    assert same_row and min(b[0] - (a[0] + a[2]) for a, b in same_row) >= 3.9
    rows = sorted({round(t[1]) for t in tiles})
    assert min(b - a for a, b in zip(rows, rows[1:])) >= 48 + 3.9
    assert phone.execute_script(SMALL) == []
    by_css(phone, "#sitsum").click()
    assert phone.execute_script(SMALL) == []
    by_css(phone, "#sitsum").click()
    name = f"大{phone.size[0]}"
    new_table(server, name)
    open_table(phone, server, name, taps)
    assert phone.execute_script(SMALL) == []


# --- 4. themes ------------------------------------------------------------------------------------------------------


def test_three_themes_kept_across_a_reload_and_reduced_motion(phone, server):
    open_page(phone, server)
    taps = Taps(phone)
    assert phone.execute_script("return document.documentElement.dataset.theme") == "light"
    background = lambda: phone.execute_script("return getComputedStyle(document.body).backgroundColor")  # noqa: E731
    tile = lambda: phone.execute_script(  # noqa: E731
        "return getComputedStyle(document.querySelector('#picker .t')).backgroundColor")
    light = background()
    for theme in ("dark", "contrast"):
        taps("#theme")
        assert phone.execute_script("return document.documentElement.dataset.theme") == theme
        assert background() != light
        assert phone.execute_script("return localStorage.getItem('mj-theme')") == theme
        # the tiles stay light in every theme
        assert sum(int(c) for c in tile()[tile().index("(") + 1:-1].split(",")[:3]) > 600, tile()
        phone.refresh()
        wait(phone, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page again")
        assert phone.execute_script("return document.documentElement.dataset.theme") == theme
        for kind in HAND:
            taps(f'#picker [data-k="{kind}"]')
        wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
        shoot(phone, f"theme-{theme}.png")
        taps("#act-clear")
    taps("#theme")
    assert phone.execute_script("return document.documentElement.dataset.theme") == "light"
    # legal and refused are said in words and a symbol, never by colour alone
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        assert phone.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert phone.execute_script("return getComputedStyle(document.querySelector('#picker .t')).transitionDuration") in ("0s", "")
    finally:
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# --- 5. accessible names, the keyboard -------------------------------------------------------------------------


NAMES = """
    const out = [];
    for (const b of document.querySelectorAll('button, select, input')) {
      if (!b.offsetParent && getComputedStyle(b).position !== 'fixed') continue;
      const label = b.labels && b.labels.length ? b.labels[0].textContent : '';
      const name = (b.getAttribute('aria-label') || b.textContent || label || b.placeholder || b.title || '').trim();
      if (!name) out.push(b.outerHTML.slice(0, 80));
    }
    return out;"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_tile_and_button_has_a_name_in_the_page_language(phone, server, lang):
    open_page(phone, server, lang)
    assert phone.execute_script(NAMES) == []
    names = phone.execute_script("return [...document.querySelectorAll('#picker .t')].map(e => e.getAttribute('aria-label'))")
    if lang == "zh":
        assert names[:3] == ["一万", "二万", "三万"] and names[27] == "东风" and names[31] == "红中"
    else:
        assert names[:3] == ["1 characters", "2 characters", "3 characters"] and names[27] == "East wind"
        assert all(n.isascii() for n in names[:34])


def test_keyboard_only_scores_and_records(phone, server):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    name = f"键{phone.size[0]}"
    new_table(server, name)
    open_page(phone, server)

    def tab_to(selector, limit=250):
        for _ in range(limit):
            if phone.execute_script("return document.activeElement === document.querySelector(arguments[0])", selector):
                return
            ActionChains(phone).send_keys(Keys.TAB).perform()
        raise AssertionError(f"Tab never reached {selector}")

    def press(selector):
        tab_to(selector)
        ActionChains(phone).send_keys(Keys.ENTER).perform()

    for kind in HAND:
        press(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score by keyboard")
    press("#tab-table")
    wait(phone, lambda d: all_css(d, f'#tables [data-table="{name}"]'), "the list")
    press(f'#tables [data-table="{name}"]')
    wait(phone, lambda d: all_css(d, "#record"), "the table")
    press('#record [data-seg="winner"] [data-v="E"]')
    press("#pad-2")
    press("#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已记录第1手", "the hand recorded by keyboard")
    assert show(server, name)["hands"][0]["total"] == 2


# --- axe-core (selenium-axe-python, an optional test dependency) -------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark", "contrast"])
def test_axe_finds_no_serious_violations(phone, server, theme):
    axe_module = pytest.importorskip("selenium_axe_python", reason="pip install selenium-axe-python")
    name = f"axe{phone.size[0]}{theme}"
    new_table(server, name)
    for winner in ("S", "W"):  # two hands: a history with rows, an undo to arm, statistics
        body = json.dumps({"winner": winner, "total": 2}).encode()
        urllib.request.urlopen(urllib.request.Request(server.url.rstrip("/") + f"/api/tables/{name}/hand", data=body,
                                                      headers={"Content-Type": "application/json"}), timeout=10).close()
    open_page(phone, server, theme=theme)
    taps = Taps(phone)
    always = {"page-has-heading-one", "empty-table-header"}  # moderate and minor, but the issue asked for them

    def check(view):
        axe = axe_module.Axe(phone)
        axe.inject()
        found = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical") or v["id"] in always]
        assert not found, (view, [(v["id"], [n["target"] for n in v["nodes"]][:4], v["nodes"][0].get("failureSummary", "")[:300]) for v in found])

    check("empty score")
    for kind in HAND[:13]:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=waits]"), "the waits")
    check("waits")
    for kind in HAND[13:]:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    check("score")
    by_css(phone, "#sitsum").click()
    check("situation")
    by_css(phone, "#sitsum").click()
    for view in ("compare", "advise"):
        taps(f"#tab-{view}")
        wait(phone, lambda d, v=view: d.execute_script(
            "const r = document.querySelector('#v-' + arguments[0] + ' #result'); return !!r", v), view)
        check(view)
    phone.execute_script("document.querySelector('#advise-by [data-v=\"win\"]').click()")
    wait(phone, lambda d: all_css(d, "#advise-model"), "the advice by P(win)")
    check("advise by P(win)")
    taps("#tab-table")
    wait(phone, lambda d: all_css(d, f'#tables [data-table="{name}"]'), "the list of tables")
    check("tables")
    by_css(phone, f'#tables [data-table="{name}"]').click()
    wait(phone, lambda d: all_css(d, "#record"), "the table")
    check("table")
    # the armed undo of a history row (red on green was axe's one serious finding), and the statistics
    click = functools.partial(phone.execute_script, "document.querySelector(arguments[0]).click()")  # (below the tab bar)
    click('#history tr[data-hand="1"] [data-act="undo"]')
    wait(phone, lambda d: all_css(d, '[data-act="undo-go"]') and text(d, "#hist-msg"), "the undo armed")
    check("history undo armed")
    click('[data-act="cancel"]')
    click("#stats-open")
    wait(phone, lambda d: all_css(d, "#stats-table"), "the statistics")
    check("statistics")
    click("#stats-open")
    phone.execute_script("document.querySelector('#record [data-seg=\"mode\"] [data-v=\"patterns\"]').click()")
    wait(phone, lambda d: all_css(d, "#pats button"), "the pattern names")
    check("table, patterns")


def test_the_table_list_shows_the_join_code_on_a_lan(phone, tmp_path):
    """扫码加入: on a LAN server the list of tables shows GET /api/join's QR code as an image; on loopback, none."""
    with serving(tmp_path / "lan26.sqlite3", host="0.0.0.0", token="t0ken-26", public_host="192.0.2.10") as srv:
        port = srv.server_address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/join?token=t0ken-26", timeout=10) as answer:
            doc = json.loads(answer.read())
        if not doc.get("svg"):
            pytest.skip(f"the server gives no QR code here: {doc}")
        phone.get(f"http://127.0.0.1:{port}/?token=t0ken-26")
        phone.execute_script("localStorage.clear(); localStorage.setItem('mj-lang', 'zh')")
        phone.refresh()
        wait(phone, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page")
        Taps(phone)("#tab-table")
        wait(phone, lambda d: d.execute_script("const i = document.querySelector('#join:not([hidden]) img');"
                                               "return !!i && i.complete && i.naturalWidth > 0"), "the join code")
        assert text(phone, "#join h2") == "扫码加入"
        assert by_css(phone, "#join img").get_attribute("src").startswith("data:image/svg+xml")
        assert "192.0.2.10" in text(phone, "#join")
        scroll_to(phone, "#join")
        shoot(phone, "join.png")


# --- the README's screenshots --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_main_views_for_the_readme(phone, server, lang):
    """The README's phone screenshots, 360×640, in both languages: a hand scored after its 14th tap, the compare
    summary, the record form with its number pad on a table with hands, and the standings. Written to
    $MJCALC_SCREENSHOTS (the README's are `examples/screenshots/`), else /tmp/shots26/."""
    if phone.size != (360, 640):
        pytest.skip("the README shows the 360×640 phone")
    out = Path(os.environ.get("MJCALC_SCREENSHOTS") or SHOTS)
    out.mkdir(parents=True, exist_ok=True)
    zh = lang == "zh"
    open_page(phone, server, lang)
    taps = Taps(phone)
    for kind in HAND:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    assert in_view(phone, "#total") and text(phone, "#verdict") == ("和了" if zh else "Legal win")
    phone.save_screenshot(str(out / f"{lang}-score.png"))
    taps("#tab-compare")
    wait(phone, lambda d: len(all_css(d, "#compare-sum tr[data-ruleset]")) >= 7, "the comparison")
    phone.save_screenshot(str(out / f"{lang}-compare.png"))
    name = "周五" if zh else "friday"
    new_table(server, name + "-readme", players=dict(zip("ESWN", ["老王", "小李", "阿张", "大刘"] if zh else ["Wang", "Li", "Zhang", "Liu"])))
    db = str(server.lib.db_path)
    for args in (["--winner", "S", "--fan", "3"], ["--winner", "W", "--from", "N", "--patterns", "对对和"],
                 ["123m456p789s EE 45m +6m", "--winner", "E"]):
        cli_json(["table", "hand", name + "-readme", *args, "--json", "--db", db])
    taps("#tab-table")
    wait(phone, lambda d: all_css(d, f'#tables [data-table="{name}-readme"]'), "the list of tables")
    scroll_to(phone, f'#tables [data-table="{name}-readme"]')
    taps(f'#tables [data-table="{name}-readme"]')
    wait(phone, lambda d: len(all_css(d, "#history tr[data-hand]")) == 3, "the table")
    phone.execute_script("document.querySelector('#record').scrollIntoView({block: 'start'}); window.scrollBy(0, -56)")
    taps('#record [data-seg="winner"] [data-v="N"]')
    taps("#pad-2")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #4" if zh else "will record #4"), "the preview")
    phone.execute_script("document.querySelector('#rec-preview').scrollIntoView({block: 'end'}); window.scrollBy(0, 64)")
    assert in_view(phone, "#rec-preview") and in_view(phone, "#rec-go")
    phone.save_screenshot(str(out / f"{lang}-record.png"))
    phone.execute_script("document.querySelector('#stand-card').scrollIntoView({block: 'start'}); window.scrollBy(0, -60)")
    assert len(all_css(phone, "#standings tr")) >= 4
    phone.save_screenshot(str(out / f"{lang}-standings.png"))


# --- issue 34, items 6 and 7: a stale tap never changes another's hand; a refused entry is not added to --------


def _freeze_live_view(driver):
    """The page stops seeing the table move (its reads of the table never come back): what a phone is in the
    seconds between another phone's write and its own next poll."""
    driver.execute_script("""
        const real = window.fetch;
        window.fetch = (path, opt) => (!opt || !opt.method || opt.method === 'GET') && String(path).startsWith('/api/tables/')
            ? new Promise(() => {}) : real(path, opt);""")


def test_a_stale_undo_or_record_is_refused_and_names_the_hand_that_came_between(phone, server):
    name = f"迟{phone.size[0]}"
    db = str(server.lib.db_path)
    taps = at_the_record_form(phone, server, name, "S", "3")
    record_previewed(phone, taps, 1, scroll_y(phone))

    # phone A arms undo of #1; phone B records #2 meanwhile; A's second tap removes nothing
    if not in_view(phone, "#rec-undo"):
        scroll_to(phone, "#rec-undo")
    taps("#rec-undo")
    wait(phone, lambda d: "1" in text(d, "#rec-undo"), "the undo to ask")
    _freeze_live_view(phone)
    other = cli_json(["table", "hand", name, "--fan", "3", "--winner", "W", "--from", "N", "--json", "--db", db])
    paid = other["hand"]["payouts"]
    taps("#rec-undo")
    wait(phone, lambda d: "记了第2手" in (text(d, "#rec-msg") or ""), "the refusal naming hand 2")
    assert "没有改动" in text(phone, "#rec-msg") and "版" not in text(phone, "#rec-msg")
    hands = show(server, name)["hands"]
    assert [h["number"] for h in hands] == [1, 2] and hands[1]["payouts"] == paid
    shoot(phone, "table-stale-undo.png")

    # a hand entered from a preview of the table before another write: refused, and the next digit starts afresh
    phone.refresh()  # the table comes back open (issue 35)
    wait(phone, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name, "the table again")
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="winner"] [data-v="E"]')
    taps("#pad-3")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #3"), "the preview")
    _freeze_live_view(phone)
    cli_json(["table", "draw", name, "--json", "--db", db])
    if not in_view(phone, "#rec-go"):
        scroll_to(phone, "#rec-go")
    taps("#rec-go")
    wait(phone, lambda d: "记了第3手" in (text(d, "#rec-msg") or ""), "the refusal naming hand 3")
    assert [h["kind"] for h in show(server, name)["hands"]] == ["win", "win", "draw"]
    scroll_to(phone, "#pad-2")
    taps("#pad-2")
    assert by_css(phone, "#rec-hand").get_attribute("value") == "2"  # never "32"
