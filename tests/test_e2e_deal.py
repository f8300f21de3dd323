"""A deal with several wins and a draw that pays, on the page (issue 36.2 and its exit), in a real headless Chromium
at 360×640 and 412×915 with touch taps, at a table of the Sichuan-shaped test region (`deal_region.py`: 平和 1 paid
by the discarder, or by each seat still in on a self-draw; the deal goes on after a win; at a draw each seat
still in and not ready pays each ready one 2). Screenshots go to /tmp/shots-deal/ (both sizes).

The evening: 老王 wins on 小李's discard (1), the deal goes on; 老王's seat can no longer be picked; 阿张 makes a
concealed kong (小李 and 大刘 pay him 2 each, 杠钱 when it is made); 阿张 self-draws (小李 and 大刘 pay 1 each: 老王 is out); the wall runs out with 小李 ready: 大刘 pays him 2.

At a Sichuan table (rulesets/sichuan.md): 老王 wins 2 番 on 小李's discard (2^2 = 4, by the number pad: the
agreed total); the wall runs out with 小李 ready with 2 番 (three taps: 0, 1, 2) and 阿张 an active 花猪: 阿张 pays
8 to 小李 and to 大刘, and 阿张 and 大刘, not ready, pay 小李 4 each — the draw: 小李 +16, 阿张 -20, 大刘 +4.

The refund (退税), at another table: 阿张's 暗杠 first (老王, 小李, 大刘 pay him 2 each), 老王 wins on 小李's discard
(1), the wall runs out with 小李 ready: 阿张 and 大刘 pay 小李 2 each, and 阿张, not ready, pays back the 2 each paid
him — the draw: 老王 +2, 小李 +4+2 = +6, 阿张 -2-6 = -8, 大刘 -2+2 = 0. Taking the 暗杠 back says first that the
draw then pays 老王 0, 小李 +4, 阿张 -2, 大刘 -2 (no kong money, nothing to refund).
"""
from pathlib import Path

import pytest
from selenium.webdriver.support.ui import Select

import deal_region
from browser import PHONE_SIZES, page_errors, phone_browser, serving
from mjcalc import evening
from test_e2e import all_css, by_css, text, wait
from test_e2e_page26 import Taps, open_page, open_table, scroll_to, show

SHOTS = Path("/tmp/shots-deal")
PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    where = tmp_path_factory.mktemp("deal")
    path = deal_region.install(where)
    with evening.Ledger(where / "ledger.sqlite3") as ledger:
        for w, _ in PHONE_SIZES:
            evening.create_table(ledger, f"deal{w}", str(path), PLAYERS, 1)
            evening.create_table(ledger, f"refund{w}", str(path), PLAYERS, 1)
            evening.create_table(ledger, f"sbr{w}", "sichuan", PLAYERS, 1)
    with serving(where / "ledger.sqlite3") as srv:
        yield srv
    deal_region.uninstall()


@pytest.fixture(scope="module", params=PHONE_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def phone(request):
    with phone_browser(request.param, "mjcalc-chromium-deal-") as driver:
        yield driver


def shoot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{driver.size[0]}x{driver.size[1]}-{name}"))


def seat_of(name):
    return next(seat for seat, player in PLAYERS.items() if player == name)


def record(driver, taps, winner, discarder, total, number):
    """Winner, how, the total on the number pad, 记录; until 已记录第N手 shows."""
    scroll_to(driver, '#record [data-seg="winner"]')
    taps(f'#record [data-seg="winner"] [data-v="{seat_of(winner)}"]')
    taps(f'#record [data-seg="from"] [data-v="{seat_of(discarder) if discarder else ""}"]')
    scroll_to(driver, "#pad-" + str(total))
    taps("#pad-" + str(total))
    wait(driver, lambda d: str(number) in text(d, "#rec-preview") or "第" in text(d, "#rec-preview"), "the preview")
    scroll_to(driver, "#rec-go")
    taps("#rec-go")
    wait(driver, lambda d: f"第{number}手" in text(d, "#rec-msg"), f"hand {number} recorded")


def test_a_deal_with_two_wins_and_a_paying_draw_by_touch(phone, server):
    name = next(f"deal{w}" for w, _ in PHONE_SIZES if abs(w - phone.size[0]) < 40)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    record(phone, taps, "老王", "小李", 1, 1)
    # the deal goes on: the head says who has won, and 老王 can neither win nor deal in again
    wait(phone, lambda d: all_css(d, "#deal-won"), "the deal's wins in the head")
    assert text(phone, "#deal-won") == "本局继续，已和：东 老王"
    assert by_css(phone, '#record [data-seg="winner"] [data-v="E"]').get_attribute("disabled") is not None
    assert by_css(phone, '#record [data-seg="from"] [data-v="E"]').get_attribute("disabled") is not None
    shoot(phone, "1-deal-goes-on.png")
    # kong money when the kong is made: 阿张's 暗杠, paid 2 by each seat still in (小李, 大刘; not 老王)
    kong(phone, taps, out="E")
    shoot(phone, "1b-kong-money.png")
    record(phone, taps, "阿张", None, 1, 2)
    # the wall runs out: 流局 asks who was ready, among the seats still in (老王 and 阿张 won)
    draw_ready(phone, taps, "S", offered=["S", "N"], shot="2-who-was-ready.png")
    doc = show(server, name)
    assert [h["payouts"] for h in doc["hands"]] == [
        {"E": 1, "S": -1, "W": 0, "N": 0}, {"E": 0, "S": -1, "W": 2, "N": -1}, {"E": 0, "S": 2, "W": 0, "N": -2}]
    assert [p["payouts"] for p in doc["penalties"]] == [{"E": 0, "S": -2, "W": 4, "N": -2}]
    assert {s["seat"]: s["score"] for s in doc["standings"]} == {"E": 1, "S": -2, "W": 6, "N": -5}
    assert "won" not in doc["next"] and not all_css(phone, "#deal-won")  # a new deal: E dealt first and deals
    assert doc["next"]["dealer"] == "E" and doc["next"]["streak"] == 1
    scroll_to(phone, "#history", "start")
    shoot(phone, "3-history.png")
    history = text(phone, "#history")
    assert "本局第2家" in history, history
    assert not page_errors(phone)


def kong(driver, taps, out=None):
    """阿张's 暗杠 by the payments panel (a seat that won in the deal, `out`, cannot make one)."""
    driver.execute_script("window.scrollTo(0, 0)")
    assert text(driver, "#pen-open") == "杠钱·罚分"
    taps("#pen-open")
    wait(driver, lambda d: all_css(d, "#pen-kind"), "the payments panel")
    Select(by_css(driver, "#pen-kind")).select_by_value("kong")
    wait(driver, lambda d: "其余各家付给他" in text(d, "#pen-says"), "what the kong money is")
    if out:
        assert by_css(driver, f'[data-seg="pen-player"] [data-v="{out}"]').get_attribute("disabled") is not None
    scroll_to(driver, '[data-seg="pen-player"]')
    taps('[data-seg="pen-player"] [data-v="W"]')
    scroll_to(driver, "#pen-go")
    taps("#pen-go")
    wait(driver, lambda d: "已记杠钱" in text(d, "#table-msg"), "kong money recorded")


def draw_ready(driver, taps, ready, offered, shot=None):
    """流局 with `ready` told ready, among the seats `offered` (those still in)."""
    scroll_to(driver, "#rec-draw")
    taps("#rec-draw")
    wait(driver, lambda d: all_css(d, "#draw-ask"), "who was ready")
    assert [b.get_attribute("data-v") for b in all_css(driver, '#draw-ask [data-fact="ready"] button')] == offered
    scroll_to(driver, "#draw-ask")
    taps(f'#draw-ask [data-fact="ready"] [data-v="{ready}"]')
    if shot:
        shoot(driver, shot)
    scroll_to(driver, "#draw-go")
    taps("#draw-go")
    wait(driver, lambda d: "已记流局" in text(d, "#rec-msg") or "已记流局" in text(d, "#table-msg"), "the draw recorded")


def test_a_draw_refunds_kong_money_and_a_revert_says_so_first_by_touch(phone, server):
    name = next(f"refund{w}" for w, _ in PHONE_SIZES if abs(w - phone.size[0]) < 40)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    kong(phone, taps)  # 老王, 小李, 大刘 pay 阿张 2 each
    record(phone, taps, "老王", "小李", 1, 1)
    draw_ready(phone, taps, "S", offered=["S", "W", "N"])
    doc = show(server, name)
    assert doc["hands"][-1]["payouts"] == {"E": 2, "S": 6, "W": -8, "N": 0}
    scroll_to(phone, "#history", "start")
    row = by_css(phone, '#history [data-hand="2"]')
    assert "老王 +2 小李 +6 阿张 -8 大刘 0" in " ".join(row.text.split()), row.text
    shoot(phone, "4-refund.png")
    # 撤销罚分 on the 暗杠: before it is confirmed, the page says what the draw will pay instead
    scroll_to(phone, '#history [data-act="revert"]')
    taps('#history [data-act="revert"]')
    wait(phone, lambda d: "#2" in text(d, "#hist-msg"), "the later hands the revert changes")
    assert text(phone, "#hist-msg") == "撤销后这几手会变：#2 老王 +2→0, 小李 +6→+4, 阿张 -8→-2, 大刘 0→-2"
    assert show(server, name)["hands"][-1]["payouts"] == {"E": 2, "S": 6, "W": -8, "N": 0}  # asked, not done
    scroll_to(phone, "#hist-msg")
    shoot(phone, "5-revert-asks.png")
    scroll_to(phone, '#history [data-act="revert-go"]')
    taps('#history [data-act="revert-go"]')
    wait(phone, lambda d: not show(server, name)["penalties"], "the kong money taken back")
    assert show(server, name)["hands"][-1]["payouts"] == {"E": 0, "S": 4, "W": -2, "N": -2}
    assert not page_errors(phone)


def test_a_sichuan_draw_counts_the_ready_hands_fan_and_a_flower_pig_by_touch(phone, server):
    name = next(f"sbr{w}" for w, _ in PHONE_SIZES if abs(w - phone.size[0]) < 40)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    record(phone, taps, "老王", "小李", 2, 1)
    form = text(phone, "#record")  # the ledger knows who has won in the deal: the form never asks it
    assert "杠上炮" in form and "本副已和" not in form, form
    scroll_to(phone, "#rec-draw")
    taps("#rec-draw")
    wait(phone, lambda d: all_css(d, "#draw-ask"), "who was ready")
    ask = text(phone, "#draw-ask")
    assert "谁听牌（再点：最大番数）" in ask and "主动花猪" in ask, ask
    for fact in ("ready", "pig"):  # 老王 won: only the seats still in are asked
        assert [b.get_attribute("data-v") for b in all_css(phone, f'#draw-ask [data-fact="{fact}"] button')] == \
            ["S", "W", "N"]
    scroll_to(phone, "#draw-ask")
    ready = '#draw-ask [data-fact="ready"] [data-v="S"]'
    for fan in (0, 1, 2):  # off → 0 番 → 1 番 → 2 番
        taps(ready)
        wait(phone, lambda d, want=f"小李 {fan}番": text(d, ready) == want, f"小李 at {fan} 番")
    assert by_css(phone, ready).get_attribute("aria-pressed") == "true"
    taps('#draw-ask [data-fact="pig"] [data-v="W"]')
    wait(phone, lambda d: by_css(d, '#draw-ask [data-fact="pig"] [data-v="W"]').get_attribute("aria-pressed") == "true",
         "阿张 a 花猪")
    shoot(phone, "6-sichuan-draw-asks.png")
    scroll_to(phone, "#draw-go")
    taps("#draw-go")
    wait(phone, lambda d: "已记流局" in text(d, "#rec-msg") or "已记流局" in text(d, "#table-msg"), "the draw recorded")
    doc = show(server, name)
    assert [h["payouts"] for h in doc["hands"]] == [
        {"E": 4, "S": -4, "W": 0, "N": 0}, {"E": 0, "S": 16, "W": -20, "N": 4}]
    scroll_to(phone, "#history", "start")
    shoot(phone, "7-sichuan-draw-paid.png")
    assert not page_errors(phone)
