"""国标麻将 (MCR) on the page, as a player at the table uses it: a real headless Chromium at 360×640 and 412×915 with
touch taps. The picker offers the eight flowers (花牌) where the wall has them (国标's 144 tiles) and none elsewhere,
and no 天/地和 (国标 scores none);
a flower tapped is set aside beside the hand, never one of its 14; a hand tapped with its flowers is paid as the
command line pays it; a flower selected and removed is gone from the notation. Screenshots go to /tmp/shots-guobiao/.
"""
from pathlib import Path


from browser import phone_module
from test_e2e import PLAYERS, all_css, by_css, cli_json, text, wait
from test_e2e_page26 import Taps, in_view, new_table, open_page, open_table, scroll_to, show

SHOTS = Path("/tmp/shots-guobiao")
# 十三幺 self-drawn on the second 白 (p. 23, 88 番; 自摸 1), with 梅 and 菊 beside it (花牌, 1 番 each, p. 22)
TILES = "1m 9m 1p 9p 1s 9s E S W N C F P P".split()
HAND = "19m 19p 19s E S W N C F P +P f1 f4"


server, phone, no_page_errors, shoot = phone_module("guobiao", SHOTS)


def choose(driver, ruleset):
    driver.execute_script("const s = document.getElementById('ruleset'); s.value = arguments[0];"
                          "s.dispatchEvent(new Event('change'))", ruleset)


def picker_kinds(driver):
    return [t.get_attribute("data-k") for t in all_css(driver, "#picker .t")]


def tap_at(driver, taps, selector):
    """A player's tap: scrolled to it first, as a thumb would (the picker is long on a narrow phone)."""
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", selector)
    taps(selector)


def tap_tile(driver, taps, kind):
    tap_at(driver, taps, f'#picker [data-k="{kind}"]')


def test_the_flowers_are_offered_where_the_wall_has_them(phone, server):
    open_page(phone, server)
    choose(phone, "guobiao")
    wait(phone, lambda d: "f8" in picker_kinds(d), "the eight flowers in the picker")
    kinds = picker_kinds(phone)
    assert kinds[-8:] == [f"f{n}" for n in range(1, 9)] and len(kinds) == 34 + 8 and "*" not in kinds
    assert [text(phone, f'#picker [data-k="f{n}"] .n') for n in range(1, 9)] == list("梅兰竹菊春夏秋冬")
    phone.execute_script("document.querySelector('#picker [data-k=\"f8\"]').scrollIntoView({block: 'end'})")
    shoot(phone, "picker.png")
    assert not all_css(phone, "#flag-first_turn")  # no 天和 or 地和 among the 81 番: not offered
    choose(phone, "beijing")
    wait(phone, lambda d: not any(k.startswith("f") for k in picker_kinds(d)), "no flower in beijing's picker")
    assert all_css(phone, "#flag-first_turn")


def test_a_hand_tapped_with_its_flowers_is_paid_as_the_command_line_pays_it(phone, server):
    open_page(phone, server)
    choose(phone, "guobiao")
    wait(phone, lambda d: "f1" in picker_kinds(d), "the flowers in the picker")
    taps = Taps(phone)
    for kind in ["f1", "f4"] + TILES:
        tap_tile(phone, taps, kind)
    wait(phone, lambda d: d.execute_script("return document.getElementById('notation').value") == HAND,
         "the notation written with its flowers")
    assert text(phone, "#count") == "14 张 · 花牌 2"
    wait(phone, lambda d: d.execute_script(
        "const r = document.querySelector('#v-score #result'); return r && r.dataset.state") == "legal", "scored")
    cli = cli_json(["analyze", HAND, "-r", "guobiao", "--json"])
    assert (cli["total"], cli["bonus"]) == (89, 2)  # 十三幺 88 + 自摸 1; 花牌 2 beside it, paid (p. 14: 8 + 番)
    assert cli["payouts"] == {"E": 3 * (8 + 91), "S": -99, "W": -99, "N": -99}
    wait(phone, lambda d: {row.get_attribute("data-seat"): int(row.find_elements("css selector", "td")[1].text)
                           for row in all_css(d, "#payouts tr")} == cli["payouts"], "the page paying as the CLI")
    assert text(phone, "#total") == "89"
    # 十三幺's one block of 14 tiles wraps within the phone's width (it widened the page past 360 before)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= phone.size[0]
    assert "(+2 花牌)" in phone.execute_script("return document.getElementById('total').parentNode.innerText")
    shoot(phone, "flowers.png")

    tap_at(phone, taps, '#hand .flowers [data-k="f4"]')  # a flower selected, then removed
    tap_at(phone, taps, "#act-del")
    wait(phone, lambda d: d.execute_script("return document.getElementById('notation').value")
         == "19m 19p 19s E S W N C F P +P f1", "the flower gone from the notation")
    cli = cli_json(["analyze", "19m 19p 19s E S W N C F P +P f1", "-r", "guobiao", "--json"])
    wait(phone, lambda d: d.execute_script("return document.getElementById('total').parentNode.innerText").find("(+1 花牌)")
         >= 0, "one flower paid")
    assert cli["payouts"]["E"] == 3 * (8 + 90)


def test_a_flower_typed_or_tapped_twice_is_one_flower(phone, server):
    open_page(phone, server)
    choose(phone, "guobiao")
    wait(phone, lambda d: "f1" in picker_kinds(d), "the flowers in the picker")
    taps = Taps(phone)
    tap_tile(phone, taps, "f2")
    tap_tile(phone, taps, "f2")
    assert phone.execute_script("return document.getElementById('notation').value") == "f2"
    wait(phone, lambda d: "每张花牌只有一张" in text(d, "#msg"), "the second tap refused in a word")
    field = by_css(phone, "#notation")
    field.clear()
    field.send_keys("19m 19p 19s E S W N C F P +P 🀢🀥")  # the glyphs read as f1 f4
    wait(phone, lambda d: d.execute_script(
        "const r = document.querySelector('#v-score #result'); return r && r.dataset.state") == "legal", "scored")
    assert [t.get_attribute("data-k") for t in all_css(phone, "#hand .flowers .t")] == ["f1", "f4"]


def test_the_sixteenth_hand_recorded_on_the_page_says_the_session_is_over(phone, server):
    """A 国标 session is four rounds of four hands (pp. 7-8): fifteen hands recorded from the command line, the
    16th, a draw, on the page; the page says the session is over where the player is looking."""
    name = f"国标{phone.size[0]}"
    new_table(server, name, "guobiao", PLAYERS)

    def draws(n):
        for _ in range(n):
            cli_json(["table", "draw", name, "--yes", "--json", "--db", str(server.lib.db_path)])

    def draw_on_the_page():
        scroll_to(phone, "#rec-draw")
        taps("#rec-draw")
        wait(phone, lambda d: all_css(d, "#dup-yes") and in_view(d, "#dup-yes"), "asked: a draw again, just after one")
        taps("#dup-yes")

    draws(3)
    open_page(phone, server)
    taps = Taps(phone)
    open_table(phone, server, name, taps)
    draw_on_the_page()  # hand 4 ends the East round: the seats change (natsuki p. 9: 东↔南, 西↔北), said
    e, s, w, n = PLAYERS["S"], PLAYERS["E"], PLAYERS["N"], PLAYERS["W"]
    wait(phone, lambda d: text(d, "#rec-msg") == f"已记流局 · 换座：东 {e}、南 {s}、西 {w}、北 {n}",
         "the change of seats said")
    draws(11)
    phone.refresh()
    wait(phone, lambda d: d.execute_script("return document.body.dataset.ready === '1'"), "the page again")
    open_table(phone, server, name, taps)
    draw_on_the_page()
    wait(phone, lambda d: text(d, "#rec-msg") == "已记流局 · 第1局结束，再记一手开新局", "the session over said")
    assert in_view(phone, "#rec-msg")
    assert text(phone, "#next").startswith("下一手 17 · 第2局 · 圈 1 · ")  # not "圈 5"
    assert all_css(phone, "#rec-flag-kong_draw") and not all_css(phone, "#rec-flag-first_turn")
    hands = show(server, name)["hands"]
    assert len(hands) == 16 and hands[-1]["round"] == 4
    shoot(phone, "session-over.png")


def test_the_round_wind_is_always_one_kept_on_clear_and_shown_folded(phone, server):
    """From a fresh pair of eyes: 圈风 offered 无 and started on it, though the server counts 东 (there is always a
    round's wind); 清空 reset it with the hand, losing 圈风刻 in the South round unless set again each hand; and the
    folded 局况 line said neither 圈风 nor 和绝张. The round's wind starts on 东, has no 无, stays through 清空 (it holds
    for four hands, as the seat does), and the line says it; 和绝张 goes with the hand."""
    from selenium.webdriver.support.ui import Select
    open_page(phone, server)
    choose(phone, "guobiao")
    wait(phone, lambda d: all_css(d, "#opt-prevalent"), "the round's wind")
    select = Select(by_css(phone, "#opt-prevalent"))
    assert [o.get_attribute("value") for o in select.options] == ["E", "S", "W", "N"]
    assert select.first_selected_option.get_attribute("value") == "E" and "圈风 东" in text(phone, "#sitsum")
    phone.execute_script("const s = document.getElementById('opt-prevalent'); s.value = 'S';"
                         "s.dispatchEvent(new Event('change'));"
                         "document.getElementById('opt-last_of_kind').click()")
    wait(phone, lambda d: "圈风 南" in text(d, "#sitsum") and "和绝张" in text(d, "#sitsum"), "both said folded")
    field = by_css(phone, "#notation")
    field.clear()
    field.send_keys("SSS 12345678m 99p +9m")
    wait(phone, lambda d: d.execute_script(
        "const r = document.querySelector('#v-score #result'); return r && r.dataset.state") == "legal", "scored")
    phone.execute_script("document.getElementById('act-clear').click()")
    wait(phone, lambda d: "和绝张" not in text(d, "#sitsum"), "和绝张 gone with the hand")
    assert "圈风 南" in text(phone, "#sitsum")
    assert Select(by_css(phone, "#opt-prevalent")).first_selected_option.get_attribute("value") == "S"
