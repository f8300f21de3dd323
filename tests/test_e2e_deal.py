"""A deal with several wins and a draw that pays, on the page (issue 36.2 and its exit), in a real headless Chromium
at 360×640 and 412×915 with touch taps, at a table of the Sichuan-shaped test region (`deal_region.py`: 平和 1 paid
by the discarder, or by each seat still in on a self-draw; the deal goes on after a win; at a draw each seat
still in and not ready pays each ready one 2). Screenshots go to /tmp/shots-deal/ (both sizes).

The evening: 老王 wins on 小李's discard (1), the deal goes on; 老王's seat can no longer be picked; 阿张
self-draws (小李 and 大刘 pay 1 each: 老王 is out); the wall runs out with 小李 ready: 大刘 pays him 2.
"""
from pathlib import Path

import pytest

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
    record(phone, taps, "阿张", None, 1, 2)
    # the wall runs out: 流局 asks who was ready, among the seats still in (老王 and 阿张 won)
    scroll_to(phone, "#rec-draw")
    taps("#rec-draw")
    wait(phone, lambda d: all_css(d, "#draw-ask"), "who was ready")
    offered = [b.get_attribute("data-v") for b in all_css(phone, '#draw-ask [data-fact="ready"] button')]
    assert offered == ["S", "N"]
    scroll_to(phone, "#draw-ask")
    taps('#draw-ask [data-fact="ready"] [data-v="S"]')
    shoot(phone, "2-who-was-ready.png")
    scroll_to(phone, "#draw-go")
    taps("#draw-go")
    wait(phone, lambda d: "已记流局" in text(d, "#rec-msg") or "已记流局" in text(d, "#table-msg"), "the draw recorded")
    doc = show(server, name)
    assert [h["payouts"] for h in doc["hands"]] == [
        {"E": 1, "S": -1, "W": 0, "N": 0}, {"E": 0, "S": -1, "W": 2, "N": -1}, {"E": 0, "S": 2, "W": 0, "N": -2}]
    assert {s["seat"]: s["score"] for s in doc["standings"]} == {"E": 1, "S": 0, "W": 2, "N": -3}
    assert "won" not in doc["next"] and not all_css(phone, "#deal-won")  # a new deal: E dealt first and deals
    assert doc["next"]["dealer"] == "E" and doc["next"]["streak"] == 1
    scroll_to(phone, "#history", "start")
    shoot(phone, "3-history.png")
    history = text(phone, "#history")
    assert "本局第2家" in history, history
    assert not page_errors(phone)
