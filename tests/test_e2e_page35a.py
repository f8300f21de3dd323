"""Issue 35, the page (items 1-3 and 8-10), in a real headless Chromium at 360×640 and 412×915 with touch taps:
an undo says which hand it took back; 记入牌桌 opens on the record form; by patterns, the preview and the
confirmation stay above the tab bar; a reload keeps the 算番 hand, its 局况, the view and the table open; 清空 and
a ruleset switch take what belongs to one hand out of the 局况 and keep the table's; the result of an action is in
view after it. Screenshots go to /tmp/shots-35a/ (both sizes).
"""
import json
from pathlib import Path

import pytest

from browser import PHONE_SIZES, phone_module
from test_e2e import PLAYERS, all_css, by_css, cli_json, text, wait
from test_e2e_page26 import Taps, in_view, new_table, open_page, open_table, scroll_to, scroll_y, show

SHOTS = Path("/tmp/shots-35a")
SIZES = PHONE_SIZES
HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 4m 5m 6m".split()  # 12345m 456p 789s EE +6m


server, phone, no_page_errors, shoot = phone_module("35a", SHOTS)


def between_the_bars(driver, selector):
    """Whether `selector` is wholly between the sticky header and the fixed tab bar (and the tile dock, when it
    shows), by getBoundingClientRect against the viewport; and nothing covers it (in_view)."""
    box = driver.execute_script("""
        const r = document.querySelector(arguments[0]).getBoundingClientRect();
        const top = document.querySelector('header').getBoundingClientRect().bottom;
        const dock = document.getElementById('dock'), tabs = document.getElementById('tabs').getBoundingClientRect();
        const bottom = dock.hidden ? tabs.top : dock.getBoundingClientRect().top;
        return {top: r.top, bottom: r.bottom, height: r.height, bar: top, floor: bottom, tabs: tabs.top, vh: innerHeight};""",
                                selector)
    assert box["tabs"] < box["vh"], box  # the tab bar is on screen, fixed at the bottom
    ok = box["height"] > 0 and box["top"] >= box["bar"] - 0.5 and box["bottom"] <= box["floor"] + 0.5
    return (ok and in_view(driver, selector)), box


def assert_shown(driver, selector):
    ok, box = between_the_bars(driver, selector)
    assert ok, f"{selector} is not between the header and the tab bar: {box}"


def bring(driver, selector):
    """A player's scroll: `selector` just under the header, above the tile dock."""
    driver.execute_script("window.scrollBy(0, document.querySelector(arguments[0]).getBoundingClientRect().top - 120)", selector)


def cli_hand(srv, name, *args):
    return cli_json(["table", "hand", name, *args, "--json", "--yes", "--db", str(srv.lib.db_path)])


# --- 1. an undo says which hand it took back -------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_undo_names_the_hand_it_took_back(phone, server, lang):
    """Hand 1 (南 self-draws 3), hand 2 a draw: the form's undo takes back the draw, which is hand 2; the history's
    undo takes back hand 1; each says so, in the page's language, where the player is looking."""
    zh = lang == "zh"
    name = f"撤{phone.size[0]}{lang}"
    new_table(server, name)
    open_page(phone, server, lang)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="winner"] [data-v="S"]')
    taps("#pad-3")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #1" if zh else "will record #1"), "the preview")
    taps("#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == ("已记录第1手" if zh else "recorded hand 1"), "hand 1")
    taps("#rec-draw")
    wait(phone, lambda d: text(d, "#rec-msg") == ("已记流局" if zh else "draw recorded"), "the draw")
    assert [h["kind"] for h in show(server, name)["hands"]] == ["win", "draw"]

    # the form's undo: the first tap asks about hand 2 (the draw), the second takes it back and says so
    if not in_view(phone, "#rec-undo"):
        scroll_to(phone, "#rec-undo")
    taps("#rec-undo")
    wait(phone, lambda d: "2" in text(d, "#rec-undo"), "the undo to ask")
    taps("#rec-undo")
    undone = "已撤销第{}手" if zh else "removed hand {}"
    wait(phone, lambda d: len(all_css(d, "#history tr[data-hand]")) == 1, "the draw taken back")
    wait(phone, lambda d: text(d, "#rec-msg") == undone.format(2), "the undo said")
    assert_shown(phone, "#rec-msg")
    assert [h["kind"] for h in show(server, name)["hands"]] == ["win"]
    shoot(phone, f"undo-form-{lang}.png")

    # the history's undo of hand 1: 撤销, 确认撤销第1手; said above the history, on screen
    scroll_to(phone, '#history tr[data-hand="1"] [data-act="undo"]')
    taps('#history tr[data-hand="1"] [data-act="undo"]')
    wait(phone, lambda d: all_css(d, '#history [data-act="undo-go"]'), "the undo to ask")
    taps('#history [data-act="undo-go"]')
    wait(phone, lambda d: text(d, "#hist-msg") == undone.format(1), "the history's undo said")
    assert_shown(phone, "#hist-msg")
    assert show(server, name)["hands"] == []
    shoot(phone, f"undo-history-{lang}.png")


# --- 2. 记入牌桌 opens on the record form ----------------------------------------------------------------------


def test_record_at_the_table_opens_on_the_form_with_the_hand(phone, server):
    name = f"记入{phone.size[0]}"
    new_table(server, name)
    for args in (["--winner", "S", "--fan", "3"], ["--winner", "W", "--from", "N", "--fan", "2"],
                 ["--winner", "N", "--fan", "1"], ["--winner", "E", "--from", "S", "--fan", "4"]):
        cli_hand(server, name, *args)  # a history long enough that landing on it would hide the form
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)  # the table the calculator's 记入牌桌 writes to
    taps("#tab-score")
    for kind in HAND:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#to-table"), "记入牌桌")
    notation = by_css(phone, "#notation").get_attribute("value")
    if not in_view(phone, "#to-table"):
        scroll_to(phone, "#to-table")
    taps("#to-table")
    wait(phone, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name
         and by_css(d, "#rec-hand").get_attribute("value") == notation, "the table with the hand")
    wait(phone, lambda d: d.execute_script("return Math.abs(document.getElementById('record').getBoundingClientRect().top"
                                           " - document.querySelector('header').getBoundingClientRect().bottom) < 2"),
         "the form at the top")
    for selector in ("#record h2", '#record [data-seg="winner"]', "#rec-hand"):
        assert_shown(phone, selector)
    shoot(phone, "to-table.png")


# --- 3 and 10. by patterns, and the first hand: what the tap did is above the tab bar ---------------------------


def test_by_patterns_the_preview_and_the_confirmation_stay_above_the_tab_bar(phone, server):
    """beijing-hunr offers 16 pattern names (more than the issue's 15): the chips push the confirm, the preview and
    the line that says 已记录 toward the tab bar. beijing-hunr.md's example: "a non-dealer self-draws a
    concealed hand with no 混儿 (none is declared): 门清 ×2 × 自摸 ×2 × 无混儿 ×2 = 8: each pays 8"."""
    name = f"番种35{phone.size[0]}"
    new_table(server, name, "beijing-hunr")
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="mode"] [data-v="patterns"]')
    assert len(all_css(phone, "#pats button")) >= 15
    taps('#record [data-seg="winner"] [data-v="S"]')
    taps('#pats [data-pat="concealed"]')
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #1"), "the preview")
    assert_shown(phone, "#rec-preview")
    assert_shown(phone, "#rec-go")
    shoot(phone, "patterns-preview.png")
    taps("#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已记录第1手", "hand 1")
    assert show(server, name)["hands"][0]["payouts"] == {"E": -8, "S": 24, "W": -8, "N": -8}
    assert_shown(phone, "#rec-msg")
    assert_shown(phone, "#rec-sum")
    shoot(phone, "patterns-recorded.png")


def standings_said(driver):
    """{player: score} as the line under the form says them ("积分: 老王 -3 · 小李 +9 · …", as 局况: says its own)."""
    said = text(driver, "#rec-sum")
    assert said.startswith("积分: ") or said.startswith("Standings: "), said
    pairs = [p.rsplit(" ", 1) for p in said.split(": ", 1)[1].split(" · ")]
    return {who: int(score) for who, score in pairs}


def test_the_first_hand_shows_the_standings_without_a_scroll(phone, server):
    """The table just opened, the form reached (one scroll, as any hand needs): 南 self-draws 3 番 (beijing.md:
    each other seat pays F·b, no 庄 as East deals): the confirmation and the standings, 南 +9 and the others −3,
    are on screen after the tap that recorded it."""
    name = f"首{phone.size[0]}"
    new_table(server, name)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="winner"] [data-v="S"]')
    taps("#pad-3")
    wait(phone, lambda d: text(d, "#rec-preview").startswith("将记录 #1"), "the preview")
    taps("#rec-go")
    wait(phone, lambda d: text(d, "#rec-msg") == "已记录第1手" and text(d, "#rec-sum"), "hand 1 and the standings")
    assert standings_said(phone) == {PLAYERS["E"]: -3, PLAYERS["S"]: 9, PLAYERS["W"]: -3, PLAYERS["N"]: -3}
    assert_shown(phone, "#rec-msg")
    assert_shown(phone, "#rec-sum")
    assert taps.count == 3 + 2  # the two taps opening the table, then winner, 3, 记录
    shoot(phone, "first-hand.png")


def test_declared_wild_waits_and_the_answer_are_in_view(phone, server):
    """beijing, 惠 declared as 9p in the 局况 (its select reached by one scroll, as a player does), then 12355m 456p
    789s E and a 9p: the 9p is a 惠, so as E it makes the pair EE and 55m waits on 5m (4 − 2 held = 2 left), as 5m
    it makes 555m and E waits on its pair (4 − 1 = 3 left). The waits are on screen after the 13th tile, the total
    after the 14th (5m), with no second scroll: 16 taps and one scroll in all."""
    from selenium.webdriver.support.ui import Select

    open_page(phone, server)
    taps = Taps(phone)
    taps("#sitsum")
    bring(phone, "#wild0")  # the one scroll
    y = scroll_y(phone)
    taps("#wild0")
    Select(by_css(phone, "#wild0")).select_by_value("9p")
    taps.count += 1
    wait(phone, lambda d: all_css(d, '#picker .t.wild[data-k="9p"]'), "9p marked as the 惠")
    for kind in "1m 2m 3m 4p 5p 6p 7s 8s 9s 5m 5m E 9p".split():
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=waits]"), "the waits")
    assert taps.count == 16
    dock = {w.get_attribute("data-tile"): w.text.split()[-1] for w in all_css(phone, "#hand-waits [data-tile]")}
    assert dock.get("5m") == "×2" and dock.get("E") == "×3", dock
    wait(phone, lambda d: between_the_bars(d, "#hand-waits")[0], "the waits on screen")
    assert scroll_y(phone) != y or y == 0  # the page came to the answer, not the player
    shoot(phone, "wild-waits.png")
    taps('#picker [data-k="5m"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    wait(phone, lambda d: between_the_bars(d, "#total")[0], "the total on screen")
    for seat in "ESWN":
        assert between_the_bars(phone, f'#payouts tr[data-seat="{seat}"]')[0], f"{seat}'s payout is off screen or covered"
    shoot(phone, "wild-total.png")


# --- 8. a reload keeps the page --------------------------------------------------------------------------------


def reload(driver):
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page again")


def test_a_reload_keeps_the_hand_its_situation_and_the_table(phone, server):
    if phone.size != (360, 640):
        pytest.skip("not about layout: once is enough")
    name = f"重载{phone.size[0]}"
    new_table(server, name)
    open_page(phone, server)
    taps = Taps(phone)
    for kind in "1m 2m 3m 4p 5p 6p 7s".split():
        taps(f'#picker [data-k="{kind}"]')
    assert text(phone, "#count") == "7 张"
    taps("#sitsum")
    for selector in ('#sitbody [data-seg="seat"] [data-v="W"]', '#sitbody [data-seg="from"] [data-v="S"]', "#flag-last_tile"):
        bring(phone, selector)
        taps(selector)
    summary = text(phone, "#sitsum")
    assert "← 南" in summary and "西" in summary
    reload(phone)
    assert text(phone, "#count") == "7 张"
    assert by_css(phone, "#notation").get_attribute("value") == "123m 456p 7s"
    assert len(all_css(phone, "#hand .t")) == 7
    assert text(phone, "#sitsum") == summary
    assert by_css(phone, "#flag-last_tile").is_selected()
    assert "on" in by_css(phone, '#sitbody [data-seg="from"] [data-v="S"]').get_attribute("class")
    assert "on" in by_css(phone, "#tab-score").get_attribute("class")
    shoot(phone, "reload-score.png")

    # the table open, and its record form's draft, come back with the view
    phone.execute_script("window.scrollTo(0, 0)")
    open_table(phone, server, name, taps)
    scroll_to(phone, "#record", "start")
    taps('#record [data-seg="winner"] [data-v="N"]')
    taps("#pad-2")
    reload(phone)
    wait(phone, lambda d: all_css(d, "#table-name") and text(d, "#table-name") == name, "the table again")
    assert "on" in by_css(phone, "#tab-table").get_attribute("class")
    assert by_css(phone, "#rec-hand").get_attribute("value") == "2"
    assert "on" in by_css(phone, '#record [data-seg="winner"] [data-v="N"]').get_attribute("class")
    kept = json.loads(phone.execute_script("return sessionStorage.getItem('mj-page')"))
    assert set(kept) == {"view", "table", "hand", "sit", "sitBy"}, kept  # what a reload needs, no more
    shoot(phone, "reload-table.png")
    # back on 算番, the hand is there still; reloaded there, its 记入牌桌 still writes to the table kept
    taps("#tab-score")
    assert text(phone, "#count") == "7 张"
    reload(phone)
    for kind in HAND[7:]:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#to-table"), "记入牌桌")
    assert by_css(phone, "#notation").get_attribute("value") == "12345m 456p 789s EE +6m"
    scroll_to(phone, "#to-table")
    taps("#to-table")
    wait(phone, lambda d: all_css(d, "#rec-hand") and by_css(d, "#rec-hand").get_attribute("value") == "12345m 456p 789s EE +6m",
         "the hand on the record form")
    assert text(phone, "#table-name") == name


# --- 9. 清空 and a ruleset switch start a new hand's 局况 -------------------------------------------------------


def test_clear_and_a_ruleset_switch_keep_only_the_tables_situation(phone, server):
    """What belongs to one hand (点炮 ← 南, 海底, 杠上开花, the 惠) goes on 清空 and on a ruleset switch (the 惠
    kept with its ruleset, as before); the seat, the dealer and the base (the table's) stay."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    if phone.size != (360, 640):
        pytest.skip("not about layout: once is enough")
    open_page(phone, server)
    taps = Taps(phone)
    for kind in HAND:
        taps(f'#picker [data-k="{kind}"]')
    wait(phone, lambda d: all_css(d, "#result[data-state=legal]"), "the score")
    phone.execute_script("window.scrollTo(0, 0)")
    taps("#sitsum")

    def situation(wild=True):
        for selector in ('#sitbody [data-seg="seat"] [data-v="W"]', '#sitbody [data-seg="dealer"] [data-v="S"]',
                         '#sitbody [data-seg="from"] [data-v="S"]', "#flag-last_tile", "#flag-kong_draw"):
            bring(phone, selector)
            taps(selector)
        if wild:
            bring(phone, "#wild0")
            Select(by_css(phone, "#wild0")).select_by_value("5m")
        wait(phone, lambda d: "← 南" in text(d, "#sitsum"), "点炮 ← 南")

    def on(seg):
        return by_css(phone, f'#sitbody [data-seg="{seg}"] button.on').get_attribute("data-v")

    bring(phone, "#base")
    by_css(phone, "#base").send_keys(Keys.CONTROL, "a")
    by_css(phone, "#base").send_keys("2", Keys.TAB)  # the base typed, as on a phone's number keyboard
    wait(phone, lambda d: "底分 2" in text(d, "#sitsum"), "the base 2")
    situation()
    phone.execute_script("window.scrollTo(0, 0)")
    taps("#act-clear")
    wait(phone, lambda d: "← 南" not in text(d, "#sitsum"), "点炮 gone")
    assert (on("seat"), on("dealer"), on("from")) == ("W", "S", "")
    assert not by_css(phone, "#flag-last_tile").is_selected() and not by_css(phone, "#flag-kong_draw").is_selected()
    assert Select(by_css(phone, "#wild0")).first_selected_option.get_attribute("value") == ""
    assert by_css(phone, "#base").get_attribute("value") == "2"
    assert text(phone, "#sitsum") == "局况: 门风 西 · 自摸 · 底分 2"
    shoot(phone, "clear-situation.png")

    # a ruleset switch: 点炮 and the flags go; the seat, the dealer and the base stay
    situation(wild=False)
    scroll_to(phone, "#ruleset")
    Select(by_css(phone, "#ruleset")).select_by_value("zhuji")
    wait(phone, lambda d: all_css(d, "#wild1"), "zhuji's two 财神")
    assert "← 南" not in text(phone, "#sitsum")
    assert (on("seat"), on("dealer"), on("from")) == ("W", "S", "")
    assert not by_css(phone, "#flag-last_tile").is_selected() and not by_css(phone, "#flag-kong_draw").is_selected()
    assert by_css(phone, "#base").get_attribute("value") == "2"
    Select(by_css(phone, "#ruleset")).select_by_value("beijing")
