"""A `table` command's text and its --json are one document (issue 36.4): for the same evening, what the text says of
the standings, the hands' money, the next hand, the transfers and a previewed hand is what the JSON says. The
evening's money is worked by hand in the comments, so the two agreeing on a wrong figure fails too."""
import json
import re

import pytest
from click.testing import CliRunner

from mjcalc.cli import cli
from mjcalc.cli.output import shown_width

SEATS = ["--seat", "东=老王", "--seat", "南=小李", "--seat", "西=阿张", "--seat", "北=大刘"]


def run(db, *args, as_json=False):
    result = CliRunner().invoke(cli, ["table", *args, *(["--json"] if as_json else []), "--db", str(db)],
                                env={"COLUMNS": "80"})
    assert result.exit_code == 0, (result.output, result.exception)
    if as_json:
        return json.loads(result.stdout)
    if args[0] != "new":  # (`new` names the ledger's path, whole)
        assert max(shown_width(line) for line in result.stdout.splitlines()) <= 80
    return result.stdout


@pytest.fixture
def db(tmp_path):
    """An evening at base 1, 老王 (E) deals first: hand 1 小李 on 老王's discard, 3 番 agreed (小李 +3, 老王 −3); the
    deal passes to 小李 (S). Hand 2 阿张 self-draws 2 番 agreed: each pays 2, the dealer 小李 too (阿张 +6). Hand 3 a
    draw: 阿张 (W) deals on. Standings: 老王 −5, 小李 +1, 阿张 +6, 大刘 −2."""
    path = tmp_path / "t.sqlite3"
    run(path, "new", "fri", *SEATS)
    run(path, "hand", "--fan", "3", "--winner", "小李", "--from", "老王")
    run(path, "hand", "--fan", "2", "--winner", "阿张")
    run(path, "draw")
    return path


def standings_in(text):
    """{player: score} from the lines of a standings table (`E       老王      -5`)."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^[ESWN—]\s+(\S+)\s+(-?\d+)$", text, re.M)}


def test_show_says_in_text_what_its_json_says(db):
    text, doc = run(db, "show"), run(db, "show", as_json=True)
    expected = {"老王": -5, "小李": 1, "阿张": 6, "大刘": -2}
    assert standings_in(text) == {s["player"]: s["score"] for s in doc["standings"]} == expected
    nxt = doc["next"]
    assert (nxt["hand"], nxt["dealer"], nxt["dealer_player"]) == (4, "W", "阿张")
    assert f"next      hand {nxt['hand']}, round {nxt['round']}, dealer {nxt['dealer']} {nxt['dealer_player']}" in text
    rows = [line.split() for line in text.splitlines() if re.match(r"^\d+\s", line)]
    assert len(rows) == len(doc["hands"]) == 3
    for row, hand in zip(rows, doc["hands"]):  # each person's money in the hand (the last four numbers of its row,
        # before its notes), in the seats' order E S W N
        numbers = [int(v) for v in row if re.fullmatch(r"-?\d+", v)]
        assert numbers[-4:] == [hand["payouts"][s] for s in "ESWN"]


def test_settle_says_in_text_what_its_json_says(db):
    text, doc = run(db, "settle"), run(db, "settle", as_json=True)
    said = [(m[1], m[2], int(m[3])) for m in re.finditer(r"^  (\S+) pays (\S+) (\d+)$", text, re.M)]
    assert said == [(t["from"], t["to"], t["amount"]) for t in doc["transfers"]]
    assert sum(n for _, _, n in said) == 7  # 老王 owes 5 and 大刘 2; 阿张 is owed 6 and 小李 1


def test_a_previewed_hand_says_in_text_what_its_json_says(db):
    args = ["hand", "--fan", "2", "--winner", "大刘", "--from", "阿张", "--dry-run"]
    text, doc = run(db, *args), run(db, *args, as_json=True)
    hand = doc["hand"]
    # 阿张 deals and pays 大刘's 2 番 agreed on her discard (a total agreed is the whole: 庄 is in it), at 上楼 ×2
    # after the draw: 4
    assert hand["payouts"] == {"E": 0, "S": 0, "W": -4, "N": 4}
    assert text.splitlines()[0] == "(not recorded)"
    assert f"total     {hand['total']} 番" in text
    paid = {m[1]: int(m[2]) for m in re.finditer(r"^([ESWN])\s+\S+\s.*?(-?\d+)$", text, re.M)}
    assert paid == hand["payouts"]
    assert run(db, "show", as_json=True)["hands"][-1]["kind"] == "draw"  # nothing recorded
