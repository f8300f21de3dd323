"""`mjcalc serve` hardened (issue 34, items 10 and 11): a JSON key given twice, a header given twice, a whole URL
as the target, headers that dribble in, too many connections from one address, the listen backlog; a ledger on a
read-only file system served read-only; and a read on the command line that never creates a ledger file.

The server runs in this process on a free port (`test_serve.start`); a request whose head is the test itself goes
through a raw socket. A read-only file system is a real read-only bind mount where the machine allows one (in a
mount namespace of its own), and else SQLite opening every ledger file read-only (`mode=ro`), as SQLite does there.
"""
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

import mjcalc.evening.ledger as ledger_module
import mjcalc.serve.server as served
from mjcalc.cli import cli
from mjcalc.messages import EN, ZH
from mjcalc.serve.server import announce
from test_serve import start, stop
from test_serve_faults import PLAYERS, answer_of, api, raw_exchange

SEVEN_PAIRS = "1122m 3344p 556s EE +6s"


@pytest.fixture
def server(tmp_path):
    srv = start(tmp_path / "ledger.sqlite3")
    yield srv
    stop(srv)


def head(srv, method="GET", target="/api/tables", extra=(), body=b""):
    """A request's bytes: its line, its own Host, the `extra` header lines, and the body."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: 127.0.0.1:{srv.server_address[1]}", *extra]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body


def refused(out: bytes, status: int, code: str) -> dict:
    """The error of a raw answer, checked: its status, its code, one line, and the connection closed after it."""
    got, doc = answer_of(out)
    assert (got, doc["code"]) == (status, code), (got, doc)
    assert "\n" not in doc["error"] and "Traceback" not in doc["error"]
    assert b"Connection: close" in out.partition(b"\r\n\r\n")[0]
    return doc


def hands(srv, name="friday"):
    return len(api(srv, "GET", f"/api/tables/{name}")[1]["hands"])


# --- a JSON key given twice ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path, raw, name", [
    pytest.param("/api/tables/friday/hand", b'{"total": 1, "winner": "S", "total": 9}', "'total'", id="a_hand's_total"),
    pytest.param("/api/tables", json.dumps({"name": "t"})[:-1].encode() + b', "players": {"E": "a", "S": "b", '
                 b'"W": "c", "N": "d", "E": "x"}}', "'E'", id="nested_in_an_object"),
    pytest.param("/api/analyze", b'{"hand": "123m", "hand": "' + SEVEN_PAIRS.encode() + b'"}', "'hand'", id="analyze"),
    pytest.param("/api/import", b'{"document": {"format": 1, "format": 2}}', "'format'", id="an_import"),
    pytest.param("/api/analyze", b'{"\\n": 1, "\\n": 2}', "'\\n'", id="a_key_said_escaped"),
])
def test_a_json_key_given_twice_is_a_400_and_nothing_is_done(server, path, raw, name):
    api(server, "POST", "/api/tables", {"name": "friday", "players": PLAYERS})
    status, doc = api(server, "POST", path, raw=raw)
    assert (status, doc["code"]) == (400, "api.duplicate_key"), doc
    assert doc["error"] == f"the request body names {name} twice; nothing was done"
    assert hands(server) == 0 and [t["table"] for t in api(server, "GET", "/api/tables")[1]["tables"]] == ["friday"]


def test_a_json_key_given_twice_is_said_in_chinese_on_the_chinese_page(server):
    status, doc = api(server, "POST", "/api/analyze", raw=b'{"hand": "1m", "hand": "2m"}',
                      headers={"Accept-Language": "zh-CN"})
    assert (status, doc["error"]) == (400, "请求内容里 'hand' 出现了两次；什么都没做")


# --- a header given twice, a whole URL as the target --------------------------------------------------------------


@pytest.mark.parametrize("extra", [
    pytest.param(["Host: evil.example"], id="two_hosts"),
    pytest.param(["Origin: http://evil.example", "Origin: http://127.0.0.1"], id="two_origins"),
    pytest.param(["X-Mjcalc-Token: a", "X-Mjcalc-Token: b"], id="two_tokens"),
])
def test_a_header_given_twice_is_a_400(server, extra):
    _, out = raw_exchange(server, head(server, extra=extra))
    name = extra[0].split(":")[0]
    doc = refused(out, 400, "api.header_twice")
    assert doc["error"] == f"the request has the header {name} twice; nothing was done"


def test_a_write_with_two_origins_writes_nothing(server):
    own = f"Origin: http://127.0.0.1:{server.server_address[1]}"
    body = json.dumps({"name": "friday", "players": PLAYERS}).encode("utf-8")
    for extra in ([own, "Origin: http://evil.example"], ["Origin: http://evil.example", own]):
        _, out = raw_exchange(server, head(server, "POST", extra=extra, body=body))
        refused(out, 400, "api.header_twice")
    _, out = raw_exchange(server, head(server, "POST", extra=[own, "Connection: close"], body=body))
    assert answer_of(out)[0] == 201  # the same write with its own Origin once is taken


@pytest.mark.parametrize("target", ["http://evil.example/api/tables", "http://127.0.0.1/api/tables",
                                    "HTTP://evil.example:80/api/tables?x=1", "evil.example/api/tables"])
def test_a_whole_url_as_the_target_is_a_400(server, target):
    _, out = raw_exchange(server, head(server, target=target))
    doc = refused(out, 400, "api.absolute_target")
    assert doc["error"] == EN["api.absolute_target"] and "evil" not in doc["error"]
    _, out = raw_exchange(server, head(server, extra=["Connection: close"]))
    assert answer_of(out)[0] == 200


def test_in_lan_mode_these_are_refused_before_the_token_is_asked(tmp_path):
    srv = start(tmp_path / "l.sqlite3", token="s3cret")
    try:
        for request, code in ((head(srv, extra=["Host: evil.example"]), "api.header_twice"),
                              (head(srv, target="http://evil.example/api/tables"), "api.absolute_target"),
                              (head(srv, "POST", "/api/analyze", body=b'{"hand": "1m", "hand": "2m"}',
                                    extra=["X-Mjcalc-Token: s3cret"]), "api.duplicate_key")):
            _, out = raw_exchange(srv, request)
            refused(out, 400, code)
        _, out = raw_exchange(srv, head(srv, extra=["Connection: close"]))
        assert answer_of(out)[0] == 403  # and a request without the token is still a 403
    finally:
        stop(srv)


# --- headers that dribble in -------------------------------------------------------------------------------------


def test_the_headers_have_a_deadline_of_a_few_seconds():
    assert 1 <= served.HEADER_SECONDS <= 10


@pytest.mark.parametrize("first, dribble", [
    pytest.param(b"GET /api/tab", [b"l"] * 20, id="the_request_line"),
    pytest.param(b"GET /api/tables HTTP/1.1\r\n", [b"X-A: 1\r\n"] * 20, id="header_lines"),
    pytest.param(b"GET /api/tables HTTP/1.1\r\nX-Slow: ", [b"a"] * 20, id="one_header_line"),
])
def test_headers_that_dribble_in_are_a_408_within_the_deadline(server, capfd, first, dribble):
    """Not a timeout per read: a byte a while kept the connection open for ever (the body had a deadline, the
    headers had none)."""
    server.header_seconds = 1.0
    took, out = raw_exchange(server, first, dribble, pause=0.2, timeout=10)
    doc = refused(out, 408, "api.headers_timeout")
    assert doc["error"] == "the request's line and headers did not come whole within 1 s; nothing was done"
    assert took < 3
    assert "bug" not in capfd.readouterr().err


def test_an_idle_connection_between_requests_is_not_held_to_the_header_deadline(server):
    """The deadline counts from a request's first byte: a kept-alive connection may wait for its next request."""
    server.header_seconds = 0.5
    with socket.create_connection(server.server_address[:2], timeout=10) as s:
        for _ in range(2):
            s.sendall(head(server))
            answer = b""
            while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < int(
                    re.search(rb"Content-Length: (\d+)", answer).group(1)):
                chunk = s.recv(65536)
                assert chunk, answer
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 "), answer[:100]
            time.sleep(1.0)


def test_headers_sent_whole_but_slowly_within_the_deadline_are_read(server):
    server.header_seconds = 3.0
    request = head(server, extra=["Connection: close"])
    _, out = raw_exchange(server, request[:10], [request[10:30], request[30:]], pause=0.5)
    assert answer_of(out)[0] == 200


# --- connections from one address, the backlog -------------------------------------------------------------------


def _until(check, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def test_connections_from_one_address_are_capped_and_none_is_leaked(server):
    assert served.MAX_CONNECTIONS == 16
    address = server.server_address[:2]
    idle = [socket.create_connection(address, timeout=10) for _ in range(served.MAX_CONNECTIONS)]
    try:
        _until(lambda: server.held.get("127.0.0.1") == served.MAX_CONNECTIONS)
        began = time.monotonic()
        with socket.create_connection(address, timeout=10) as one_more:
            out = b""
            while chunk := one_more.recv(65536):
                out += chunk
        assert time.monotonic() - began < 2  # answered at once, not after a thread's idle timeout
        doc = refused(out, 503, "api.too_many_connections")
        assert doc["error"] == "too many connections from one address (at most 16 at once); nothing was done: try again"
        assert server.held["127.0.0.1"] == served.MAX_CONNECTIONS
        idle.pop().close()  # one closes: one more may come in
        _until(lambda: server.held.get("127.0.0.1") == served.MAX_CONNECTIONS - 1)
        _, out = raw_exchange(server, head(server, extra=["Connection: close"]))
        assert answer_of(out)[0] == 200
    finally:
        for s in idle:
            s.close()
    _until(lambda: server.held == {})  # every connection's count given back


def test_connections_that_answer_or_fail_give_their_place_back(server):
    server.header_seconds = 0.5
    for request in (head(server, extra=["Connection: close"]), head(server, target="http://x/"), b"BAD\r\n\r\n",
                    b"GET /api/tables HTTP/1.1\r\nX-Late: "):
        raw_exchange(server, request)
    with socket.create_connection(server.server_address[:2], timeout=10) as s:  # a body cut off by the client
        s.sendall(head(server, "POST", "/api/analyze", body=b'{"hand": "1m"}')[:-5])
    _until(lambda: server.held == {})


def test_the_listen_backlog_takes_a_burst_of_connections(server):
    assert server.request_queue_size >= 64


# --- a read-only file system -------------------------------------------------------------------------------------


class ReadOnlySqlite:
    """sqlite3 as on a read-only file system: a ledger file opened by its path is opened read-only (`mode=ro`), so
    SQLite itself refuses every write ("attempt to write a readonly database") and cannot make a file that is not
    there ("unable to open database file"). Everything else is sqlite3's own."""

    def __getattr__(self, name):
        return getattr(sqlite3, name)

    def connect(self, database, *args, uri=False, **kwargs):
        if not uri and database != ":memory:":
            database, uri = "file:" + quote(str(Path(database).resolve())) + "?mode=ro", True
        return sqlite3.connect(database, *args, uri=uri, **kwargs)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"


def a_ledger_with_a_hand(path: Path):
    srv = start(path)
    try:
        api(srv, "POST", "/api/tables", {"name": "friday", "players": PLAYERS})
        assert api(srv, "POST", "/api/tables/friday/hand", {"hand": SEVEN_PAIRS, "winner": "S"})[0] == 200
    finally:
        stop(srv)


WRITES = [("/api/tables/friday/draw", {}), ("/api/tables/friday/hand", {"total": 2, "winner": "S"}),
          ("/api/tables", {"name": "saturday", "players": PLAYERS}), ("/api/tables/friday/close", {"closed": True}),
          ("/api/import", {"document": {}})]


def test_a_ledger_sqlite_cannot_write_is_served_read_only(tmp_path, monkeypatch):
    path = tmp_path / "ledger.sqlite3"
    a_ledger_with_a_hand(path)
    before = digest(path)
    monkeypatch.setattr(ledger_module, "sqlite3", ReadOnlySqlite())
    srv = start(path)  # refused to start before: "cannot be written here (attempt to write a readonly database)"
    try:
        assert srv.lib.read_only is not None
        said = []
        announce(srv, out=said.append)
        assert [line for line in said if "read-only" in line] == [
            "read-only the ledger cannot be written here (attempt to write a readonly database): serving reads; "
            "every write is refused (503)"]
        status, doc = api(srv, "GET", "/api/tables")
        assert status == 200 and [(t["table"], t["hands"]) for t in doc["tables"]] == [("friday", 1)]
        for url in ("/api/tables/friday", "/api/tables/friday/standings", "/api/tables/friday/export",
                    "/api/tables/friday/stats", "/api/stats"):
            assert api(srv, "GET", url)[0] == 200, url
        assert api(srv, "POST", "/api/analyze", {"hand": SEVEN_PAIRS})[0] == 200  # no ledger: as ever
        for url, body in WRITES:
            status, doc = api(srv, "POST", url, body)
            assert (status, doc["code"], doc["error"]) == (503, "ledger.read_only", EN["ledger.read_only"]), url
            assert doc["error"].startswith("the file system is read-only")
        status, doc = api(srv, "POST", "/api/tables/friday/draw", {"lang": "zh"})
        assert (status, doc["error"]) == (503, ZH["ledger.read_only"])
        assert hands(srv) == 1
    finally:
        stop(srv)
    assert digest(path) == before


def test_a_directory_sqlite_cannot_write_in_serves_an_empty_ledger_read_only(tmp_path, monkeypatch):
    monkeypatch.setattr(ledger_module, "sqlite3", ReadOnlySqlite())
    path = tmp_path / "ledger.sqlite3"
    srv = start(path)
    try:
        assert srv.lib.read_only is not None
        assert api(srv, "GET", "/api/tables") == (200, {"tables": []})
        assert api(srv, "POST", "/api/tables", WRITES[2][1])[0] == 503
    finally:
        stop(srv)
    assert list(tmp_path.iterdir()) == []


def test_a_ledger_that_is_not_a_ledger_still_stops_the_start(tmp_path, monkeypatch):
    junk = tmp_path / "notes.sqlite3"
    junk.write_text("not a database\n" * 100)
    monkeypatch.setattr(ledger_module, "sqlite3", ReadOnlySqlite())
    with pytest.raises(served.LedgerFileError, match="not a readable ledger file"):
        start(junk)


def _bind_mount_works(where: Path) -> bool:
    """Whether this machine lets a process make `where` a read-only bind mount in a mount namespace of its own."""
    if shutil.which("unshare") is None:
        return False
    probe = f"mount --bind '{where}' '{where}' && mount -o remount,bind,ro '{where}' && ! touch '{where}/probe'"
    try:
        done = subprocess.run(["unshare", "-rm", "sh", "-c", probe], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and not (where / "probe").exists()


def test_mjcalc_serve_on_a_read_only_bind_mount_serves_reads(tmp_path):
    """The real thing: `mjcalc serve` in a mount namespace where the ledger's directory is mounted read-only (root
    writes nothing there either)."""
    where = tmp_path / "ro"
    where.mkdir()
    path = where / "ledger.sqlite3"
    a_ledger_with_a_hand(path)
    if not _bind_mount_works(where):
        pytest.skip("no read-only bind mount here (unshare -rm and mount are needed)")
    before = digest(path)
    script = (f"mount --bind '{where}' '{where}' && mount -o remount,bind,ro '{where}' && "
              f"exec '{sys.executable}' -m mjcalc serve --port 0 --db '{path}'")
    proc = subprocess.Popen(["unshare", "-rm", "sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        said = []
        while not said or said[-1] != "Ctrl-C stops it":
            line = proc.stdout.readline()
            assert line, (said, proc.stderr.read() if proc.poll() is not None else "")
            said.append(line.rstrip("\n"))
        url = re.match(r"mjcalc serve: (http://127\.0\.0\.1:\d+)/$", said[0]).group(1)
        assert len([line for line in said if line.startswith("read-only ")]) == 1, said
        with urllib.request.urlopen(url + "/api/tables", timeout=30) as r:
            assert r.status == 200 and [t["hands"] for t in json.load(r)["tables"]] == [1]
        request = urllib.request.Request(url + "/api/tables/friday/draw", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=30)
        assert answer.value.code == 503 and json.load(answer.value)["code"] == "ledger.read_only"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert digest(path) == before


# --- a read never creates a ledger file ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, exit_code, said", [
    pytest.param(["use", "friday"], 2, "no table named 'friday'", id="use"),
    pytest.param(["rules", "friday", "beijing"], 2, "no table named 'friday'", id="rules_NAME_RULESET"),
    pytest.param(["rules", "beijing", "--yes"], 2, "no table in use", id="rules_RULESET"),
    pytest.param(["rules", "friday"], 2, "no table in use", id="rules_NAME"),
    pytest.param(["list"], 0, "no tables yet", id="list"),
    pytest.param(["show", "friday"], 2, "no table named 'friday'", id="show"),
    pytest.param(["stats", "friday"], 2, "no table named 'friday'", id="stats"),
    pytest.param(["stats", "--all"], 0, "no tables yet", id="stats_all"),
    pytest.param(["check"], 0, "sound", id="check"),
    pytest.param(["export", "friday"], 2, "no table named 'friday'", id="export"),
    pytest.param(["log", "friday"], 2, "no table named 'friday'", id="log"),
    pytest.param(["settle", "friday"], 2, "no table named 'friday'", id="settle"),
])
def test_a_read_with_a_mistyped_db_creates_no_ledger_file(tmp_path, args, exit_code, said):
    typo = tmp_path / "ledgr" / "tables.sqlite3"
    result = CliRunner().invoke(cli, ["table", *args, "--db", str(typo)])
    assert result.exit_code == exit_code, result.output
    assert said in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_table_use_and_rules_still_write_where_the_table_is(tmp_path):
    db = str(tmp_path / "l.sqlite3")
    seats = [x for s, p in zip("ESWN", PLAYERS.values()) for x in ("--seat", f"{s}={p}")]
    assert CliRunner().invoke(cli, ["table", "new", "friday", *seats, "--db", db]).exit_code == 0
    assert CliRunner().invoke(cli, ["table", "new", "saturday", *seats, "--db", db]).exit_code == 0
    result = CliRunner().invoke(cli, ["table", "use", "friday", "--db", db])
    assert result.exit_code == 0 and "table 'friday' is in use" in result.output
    result = CliRunner().invoke(cli, ["table", "rules", "beijing-money", "--yes", "--db", db])
    assert result.exit_code == 0 and "beijing-money" in result.output, result.output
    result = CliRunner().invoke(cli, ["table", "rules", "--db", db])
    assert result.exit_code == 0 and "beijing-money" in result.output


# --- issue 34, item 6: undo, edit and revert carry the revision the phone showed -------------------------------


def test_a_stale_undo_edit_or_revert_is_refused_naming_what_came_between(tmp_path):
    from test_serve import request, start, stop
    srv = start(tmp_path)
    try:
        post = lambda path, body: request(srv, "POST", path, body)  # noqa: E731
        assert post("/api/tables", {"name": "t", "ruleset": "beijing",
                                    "players": {"E": "dan", "S": "cat", "W": "ann", "N": "bob"}})[0] == 201
        status, _, body = post("/api/tables/t/hand", {"total": 3, "winner": "S"})
        first = json.loads(body)
        shown = first["revision"]
        status, _, body = post("/api/tables/t/hand", {"total": 3, "winner": "W", "from": "N"})
        second = json.loads(body)["hand"]
        # the undo armed for #1 when the table was at `shown`: refused, in the page's language, naming hand 2
        status, _, body = post("/api/tables/t/undo", {"hand_id": first["hand"]["hand_id"], "revision": shown,
                                                     "lang": "zh"})
        assert status == 409 and "记了第2手" in json.loads(body)["error"], body
        status, _, body = post("/api/tables/t/edit", {"hand_id": first["hand"]["hand_id"], "revision": shown,
                                                     "total": 2, "winner": "S"})
        assert status == 409 and "hand 2 recorded" in json.loads(body)["error"], body
        # a dry run says which later hands an undo of #1 changes, and writes nothing
        status, _, body = post("/api/tables/t/undo", {"hand_id": first["hand"]["hand_id"], "dry_run": True})
        preview = json.loads(body)
        assert status == 200 and [(c["number_before"], c["number"], c["hand_id"]) for c in preview["changed"]] == \
            [(2, 1, second["hand_id"])], body
        assert preview["changed"][0]["payouts_before"] == second["payouts"]
        status, _, body = request(srv, "GET", "/api/tables/t")
        assert len(json.loads(body)["hands"]) == 2
        # a revert carries the revision shown too
        status, _, body = post("/api/tables/t/undo", {"hand_id": second["hand_id"]})
        undone = json.loads(body)["revision"]
        post("/api/tables/t/hand", {"total": 4, "winner": "E"})
        status, _, body = post("/api/tables/t/revert", {"revision": undone, "shown_revision": undone})
        assert status == 409 and "hand 2 recorded" in json.loads(body)["error"], body
    finally:
        stop(srv)


def test_a_request_that_fails_past_its_handler_says_one_line_not_a_traceback(capsys, tmp_path):
    """socketserver prints a traceback for an exception its handler lets through; mjcalc serve says one line, and
    nothing for a phone that went away mid-request."""
    from mjcalc.serve.server import make_server

    server = make_server("127.0.0.1", 0, db_path=tmp_path / "l.sqlite3")
    try:
        for error in (ValueError("bad\nthing"), ConnectionResetError("gone")):
            try:
                raise error
            except Exception:
                server.handle_error(None, ("10.0.0.7", 5555))
        said = capsys.readouterr().err
    finally:
        server.server_close()
    assert said == "mjcalc serve: a request from 10.0.0.7 failed: ValueError: bad\\nthing\n", said
