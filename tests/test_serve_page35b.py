"""Issue 35 at the API (items 4 and 5): an edit's dry run says which later hands' money it changes and writes
nothing; an edit refused because the table moved on says what changed, in lines a player reads, and names the
hand shown as it is now; what reaches the Chinese page is Chinese (seats by their words, an amount beyond any
table, a base that overflows, an import refused, a ledger file in trouble)."""
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from mjcalc.evening import LedgerFileError
from test_messages_zh import english_words
from test_serve import api, start, stop

PLAYERS = {"E": "老王", "S": "小明", "W": "阿张", "N": "大刘"}
# a house ruleset where a full flush is 50 台 (2^51 with 无财: beyond any amount) and a half flush 35 (at 底分
# 1,000,000 the hand part is 2^36 million, beyond the 10^15 a seat may win)
HOUSE = "extends: zhuji\nid: zhuji-big\npatterns:\n  full_flush: {value: 50}\n  half_flush: {value: 35}\n"
FULL_FLUSH = "1112345678999m +5m"
HALF_FLUSH = "11123456789m EE +E"


@pytest.fixture
def server(tmp_path):
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    srv = start(tmp_path, ruleset=str(tmp_path / "house.yaml"))
    yield srv
    stop(srv)


def table_at(srv, name, hands, ruleset="beijing"):
    """A table `name` with `hands` recorded: (winner, discarder or None, the total or the tiles) each."""
    assert api(srv, "POST", "/api/tables", {"name": name, "players": PLAYERS, "ruleset": ruleset})[0] == 201
    for winner, discarder, given in hands:
        body = {"winner": winner, **({"total": given} if isinstance(given, int) else {"hand": given}),
                **({"from": discarder} if discarder else {})}
        assert api(srv, "POST", quote(f"/api/tables/{name}/hand"), body)[0] == 200
    return api(srv, "GET", quote(f"/api/tables/{name}"))[1]


# 北京: the dealer keeps the deal by winning, else it passes on; a hand won by the dealer counts 庄 (+1 番). Hand 2
# is 小明's self-drawn 2 番 from its tiles; when hand 1's winner becomes 小明 instead of 老王 (东, the dealer), 小明
# deals hand 2: 3 番 with 庄, each of the three pays 3 instead of 2. Hand 3 is an agreed total: it pays as it did.
TILES = "123m456p789s EE 45m +6m"
HANDS = [("老王", None, 2), ("小明", None, TILES), ("大刘", None, 2)]


def test_an_edits_dry_run_names_the_later_hands_it_changes_and_writes_nothing(server):
    before = table_at(server, "t", HANDS)
    first = before["hands"][0]
    status, doc = api(server, "POST", "/api/tables/t/edit", {"hand_id": first["hand_id"], "revision": before["revision"],
                                                             "winner": "小明", "total": 2, "dry_run": True})
    assert status == 200 and doc["dry_run"] is True and doc["revision"] == before["revision"]
    assert doc["hand"]["winner_player"] == "小明" and doc["replaced"]["winner_player"] == "老王"
    # the same evening recorded afresh with hand 1 as edited: what the later hands pay then
    fresh = table_at(server, "u", [("小明", None, 2)] + HANDS[1:])
    changed = {c["number"]: c for c in doc["changed"]}
    assert changed[2]["payouts_before"] == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert changed[2]["payouts"] == {"E": -3, "S": 9, "W": -3, "N": -3}
    for number, c in changed.items():  # (hand 3 is dealt by another seat now, and pays as before)
        assert c["payouts_before"] == before["hands"][number - 1]["payouts"]
        assert c["payouts"] == fresh["hands"][number - 1]["payouts"]
    after = api(server, "GET", "/api/tables/t")[1]
    assert after["revision"] == before["revision"] and after["hands"] == before["hands"]  # nothing written


def test_a_draws_dry_run_too(server):
    before = table_at(server, "t", HANDS)
    status, doc = api(server, "POST", "/api/tables/t/edit", {"hand_id": before["hands"][0]["hand_id"], "draw": True,
                                                             "revision": before["revision"], "dry_run": True})
    assert status == 200 and doc["hand"]["kind"] == "draw" and doc["changed"]
    assert api(server, "GET", "/api/tables/t")[1]["revision"] == before["revision"]


def test_a_stale_edit_says_what_changed_and_the_hand_as_it_is_now(server):
    shown = table_at(server, "t", HANDS)
    first = shown["hands"][0]
    # another phone records hand 4 meanwhile
    assert api(server, "POST", "/api/tables/t/hand", {"winner": "小明", "total": 3})[0] == 200
    edit = {"hand_id": first["hand_id"], "revision": shown["revision"], "winner": "阿张", "total": 2, "lang": "zh"}
    status, doc = api(server, "POST", "/api/tables/t/edit", edit)
    assert status == 409 and doc["code"] == "ledger.stale_revision"
    assert doc["since"] == ["记了第4手：小明 自摸 3"]  # the hand, its number and how it ended: no revision number
    assert doc["hand_now"] == {"hand_id": first["hand_id"], "number": 1}
    assert not re.search(r"\d{3,}|[0-9a-f]{12}", doc["error"])  # no revision numbers, no hash ids
    assert api(server, "GET", "/api/tables/t")[1]["hands"][0] == first  # nothing written
    # the player looked and saves again: at the table's revision now, it is saved
    now = api(server, "GET", "/api/tables/t")[1]["revision"]
    status, doc = api(server, "POST", "/api/tables/t/edit", dict(edit, revision=now))
    assert status == 200 and doc["hand"]["winner_player"] == "阿张"


def test_a_stale_edit_of_a_hand_another_phone_edited_names_that_edit(server):
    shown = table_at(server, "t", HANDS)
    first = shown["hands"][0]
    other = {"hand_id": first["hand_id"], "revision": shown["revision"], "winner": "大刘", "total": 3}
    assert api(server, "POST", "/api/tables/t/edit", other)[0] == 200
    mine = {"hand_id": first["hand_id"], "revision": shown["revision"], "winner": "阿张", "total": 2, "lang": "en"}
    status, doc = api(server, "POST", "/api/tables/t/edit", mine)
    assert status == 409 and len(doc["since"]) == 1 and doc["since"][0].startswith("hand 1 changed: 大刘 ")
    now = api(server, "GET", "/api/tables/t")[1]
    assert doc["hand_now"] == {"hand_id": now["hands"][0]["hand_id"], "number": 1} and doc["hand_now"]["hand_id"] != first["hand_id"]
    # removed meanwhile: no hand now
    assert api(server, "POST", "/api/tables/t/undo", {"hand_id": now["hands"][0]["hand_id"], "revision": now["revision"]})[0] == 200
    status, doc = api(server, "POST", "/api/tables/t/edit", dict(mine, revision=now["revision"]))
    assert status == 409 and doc["hand_now"] is None and doc["since"] == ["a hand removed"]


# --- what reaches the Chinese page ---------------------------------------------------------------------------


def chinese(doc):
    """A refusal said in Chinese: Chinese characters, and no English word."""
    assert re.search(r"[\u4e00-\u9fff]", doc["error"]), doc["error"]
    assert [w for w in english_words(doc["error"]) if w != "mjcalc"] == [], doc["error"]  # (the program's name)
    return doc["error"]


def test_a_table_without_four_players_names_its_seats_by_their_words(server):
    status, doc = api(server, "POST", "/api/tables", {"name": "q", "players": {"E": "甲", "S": "乙"}, "lang": "zh"})
    assert status == 400 and chinese(doc) == "一桌要四位玩家：西、北 没有人"
    status, doc = api(server, "POST", "/api/tables", {"name": "q", "players": {"E": "甲", "S": "乙"}, "lang": "en"})
    assert "no player for W, N" in doc["error"]


@pytest.mark.parametrize("body, code, said", [
    ({"hand": FULL_FLUSH}, "payout.beyond_any_amount", "51 台 的牌要付 2^51，超过任何数额（最多 2^50）"),
    ({"hand": HALF_FLUSH, "base": 1_000_000}, "payout.part_too_large", "和牌这一部分付给一家超过 1,000,000,000,000,000"),
])
def test_an_amount_beyond_any_table_is_refused_in_chinese(server, body, code, said):
    status, doc = api(server, "POST", "/api/analyze", dict(body, ruleset="zhuji-big", lang="zh"))
    assert status == 400 and doc["code"] == code and chinese(doc).startswith(said)
    status, doc = api(server, "POST", "/api/analyze", dict(body, ruleset="zhuji-big", lang="en"))
    assert english_words(doc["error"])


def test_an_import_refused_is_said_in_chinese(server):
    status, doc = api(server, "POST", "/api/import", {"document": {"format": 9}, "lang": "zh"})
    assert status == 400 and doc["code"] == "import.format"
    assert chinese(doc) == "不是 mjcalc 导出的牌桌（格式 9；这个 mjcalc 读格式 1）"


def test_a_ledger_file_in_trouble_is_said_in_chinese(server, monkeypatch):
    """A full disk (SQLite's "disk is full", stood in for here: the test's disk never fills) answers 503 in the
    page's language; the file's path is the server's, named as it is."""
    path = str(Path(server.lib.db_path))

    def full():
        raise LedgerFileError("ledger.file_full", path=path)
    table_at(server, "t", [])
    monkeypatch.setattr(server.lib, "writing", full)
    status, doc = api(server, "POST", "/api/tables/t/hand", {"winner": "老王", "total": 2, "lang": "zh"})
    assert status == 503 and doc["code"] == "ledger.file_full"
    assert chinese(dict(doc, error=doc["error"].replace(path, ""))) == "：磁盘满了：什么都没写；请腾出空间（查看牌桌还可以）"
