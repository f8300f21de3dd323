"""One preview, two front ends (issue 36.4): a hand or an edit previewed with `--dry-run --json` on the command line
and with `"dry_run": true` through the API is the same document (`evening.preview_json`), and neither records
anything. Only the previewed hand's stand-in identity (its new hand_id and the time it would be recorded) may
differ between two previews, as between two previews from the same front end."""
import json
import urllib.request

import pytest
from click.testing import CliRunner

from browser import serving
from mjcalc.cli import cli
from mjcalc.cli.output import shown_width

PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}  # 老王 deals the first hand


def api(srv, method, path, body=None):
    data = json.dumps(body, ensure_ascii=False).encode("utf-8") if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{srv.server_address[1]}{path}", data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read().decode("utf-8"))


def cli_json(db, *args):
    result = CliRunner().invoke(cli, ["table", *args, "--json", "--db", str(db)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)  # the document alone on stdout (a note on what was added goes to stderr)


def identity_aside(doc):
    """The document without the previewed hand's stand-in identity (new at each preview)."""
    doc = json.loads(json.dumps(doc))
    for key in ("hand_id", "recorded"):
        doc["hand"].pop(key)
    return doc


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "ledger.sqlite3"
    with serving(db) as srv:
        api(srv, "POST", "/api/tables", {"name": "fri", "players": PLAYERS})
        yield srv, db


# 底分 1, 老王 (E) deals. From the tiles: 推倒和 1 + 门清无惠 1 + 庄 1 (the dealer dealt in) = 3 番, paid by 老王.
# By the total agreed: 2 番 as agreed (庄 is not added to a total), paid by 老王. By the patterns named: 对对和 2 +
# 庄 1 (the dealer won) = 3 番, self-drawn: each of the other three pays 3.
HANDS = [
    pytest.param({"hand": "123m456p789s234s5m +5m", "winner": "小李", "from": "老王"},
                 ["123m456p789s234s5m", "+5m", "--winner", "小李", "--from", "老王"],
                 3, {"tuidaohe", "concealed_no_wild", "dealer"}, {"E": -3, "S": 3, "W": 0, "N": 0}, id="tiles"),
    pytest.param({"total": 2, "winner": "阿张", "from": "老王"}, ["--fan", "2", "--winner", "阿张", "--from", "老王"],
                 2, set(), {"E": -2, "S": 0, "W": 2, "N": 0}, id="total"),
    pytest.param({"patterns": "对对和", "winner": "老王"}, ["--patterns", "对对和", "--winner", "老王"],
                 3, {"all_pungs", "dealer"}, {"E": 9, "S": -3, "W": -3, "N": -3}, id="patterns"),
]


@pytest.mark.parametrize("body, args, total, patterns, payouts", HANDS)
def test_a_hand_previewed_is_one_document_from_the_command_line_and_the_api(table, body, args, total, patterns,
                                                                            payouts):
    srv, db = table
    by_api = api(srv, "POST", "/api/tables/fri/hand", dict(body, dry_run=True))
    by_cli = cli_json(db, "hand", "fri", *args, "--dry-run")
    assert identity_aside(by_cli) == identity_aside(by_api)
    hand = by_cli["hand"]
    assert (hand["total"], {p["id"] for p in hand["patterns"]}, hand["payouts"]) == (total, patterns, payouts)
    assert by_cli["recorded"] is False and by_cli["dry_run"] is True
    assert by_cli["revision"] == api(srv, "GET", "/api/tables/fri")["revision"]  # what a confirm names
    assert api(srv, "GET", "/api/tables/fri")["hands"] == []  # neither recorded it


@pytest.mark.parametrize("body, args, total, patterns, payouts", HANDS)
def test_an_edit_previewed_is_one_document_from_the_command_line_and_the_api(table, body, args, total, patterns,
                                                                             payouts):
    srv, db = table
    first = api(srv, "POST", "/api/tables/fri/hand", {"total": 1, "winner": "大刘", "from": "阿张"})["hand"]
    api(srv, "POST", "/api/tables/fri/draw", {})  # a later hand, replayed by the edit
    shown = api(srv, "GET", "/api/tables/fri")
    by_api = api(srv, "POST", "/api/tables/fri/edit",
                 dict(body, hand_id=first["hand_id"], revision=shown["revision"], dry_run=True))
    by_cli = cli_json(db, "edit", "1", "fri", *args, "--dry-run")
    assert identity_aside(by_cli) == identity_aside(by_api)
    assert by_cli["replaced"]["payouts"] == {"E": 0, "S": 0, "W": -1, "N": 1}  # 1 番 agreed, 阿张 paid it
    hand = by_cli["hand"]
    assert (hand["number"], hand["total"], {p["id"] for p in hand["patterns"]}) == (1, total, patterns)
    assert hand["payouts"] == payouts
    assert by_cli["dry_run"] is True and by_cli["revision"] == shown["revision"]
    assert api(srv, "GET", "/api/tables/fri") == shown  # nothing replaced


def test_an_edit_previewed_at_the_terminal_says_what_it_would_change_and_changes_nothing(table):
    srv, db = table
    api(srv, "POST", "/api/tables/fri/hand", {"total": 1, "winner": "大刘", "from": "阿张"})
    shown = api(srv, "GET", "/api/tables/fri")
    result = CliRunner().invoke(cli, ["table", "edit", "1", "fri", "--fan", "4", "--winner", "大刘", "--from", "阿张",
                                      "--dry-run", "--db", str(db)], env={"COLUMNS": "80"})
    assert result.exit_code == 0 and result.stderr == "", result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("was  hand 1") and any(line.startswith("now  hand 1") for line in lines)
    assert "大刘: +1 → +4" in result.stdout and "阿张: -1 → -4" in result.stdout  # 4 番 agreed instead of 1
    assert lines[-1] == "nothing changed (a dry run)"
    assert max(shown_width(line) for line in lines) <= 80
    assert api(srv, "GET", "/api/tables/fri") == shown
