"""`mjcalc serve` under faults (issue 24, "the server"): text that is not Unicode, a write from another origin, a
loopback address of its own, a body that stops short, a 404 that names too much, a ruleset file edited while the
server runs, reads while a writer holds the ledger; and a property over every endpoint's fields.

The server runs in this process on a free port; requests go through http.client (or a raw socket where the
request itself is broken), so every header is the test's own.
"""
import http.client
import json
import socket
import sqlite3
import time

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjcalc.cli import cli
import mjcalc.serve.server as served
from mjcalc.serve.server import WRITES, endpoint_fields
from test_serve import start, stop

PLAYERS = {"E": "老王", "S": "小李", "W": "阿张", "N": "大刘"}
SEVEN_PAIRS = "1122m 3344p 556s EE +6s"
ERROR_KEYS = {"error", "code", "field", "params"}


# --- helpers ---------------------------------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path):
    srv = start(tmp_path / "ledger.sqlite3")
    yield srv
    stop(srv)


def call(srv, method, path, body=None, *, raw=None, headers=None, host=None, timeout=10):
    """(status, headers, the answer as JSON) of one request; `raw` is the body as bytes, as sent."""
    address = host or srv.server_address[0]
    conn = http.client.HTTPConnection(address, srv.server_address[1], timeout=timeout)
    try:
        data = raw if raw is not None else (json.dumps(body).encode("utf-8") if body is not None else None)
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        text = answer.read()
    finally:
        conn.close()
    assert answer.headers["Content-Type"] == "application/json; charset=utf-8", (answer.status, text[:200])
    doc = json.loads(text.decode("utf-8"))
    if answer.status >= 400:
        assert set(doc) - {"duplicate_of", "since", "hand_now"} == ERROR_KEYS and isinstance(doc["error"], str) and doc["error"], doc
        assert "\n" not in doc["error"] and "Traceback" not in doc["error"], doc
    return answer.status, answer.headers, doc


def api(srv, method, path, body=None, **kwargs):
    status, _, doc = call(srv, method, path, body, **kwargs)
    return status, doc


def raw_exchange(srv, head: bytes, parts=(), pause=0.0, timeout=15):
    """Send `head` (the request line and headers) and each of `parts` `pause` seconds apart, then read the
    answer until the server closes: (seconds from the first byte to the answer, the answer's bytes)."""
    with socket.create_connection(srv.server_address[:2], timeout=timeout) as s:
        began = time.monotonic()
        s.sendall(head)
        for part in parts:
            time.sleep(pause)
            try:
                s.sendall(part)
            except OSError:  # the server answered and closed already
                break
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
        return time.monotonic() - began, out


def conditional(srv, path, tag, timeout=10):
    """The status of a GET with If-None-Match: `tag` (a 304 has no body and the same ETag)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=timeout)
    try:
        conn.request("GET", path, headers={"If-None-Match": tag})
        answer = conn.getresponse()
        body = answer.read()
    finally:
        conn.close()
    if answer.status == 304:
        assert body == b"" and answer.headers["ETag"] and (tag == "*" or answer.headers["ETag"] == tag)
    return answer.status


def answer_of(out: bytes):
    head, _, body = out.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body.decode("utf-8"))


def new_table(srv, name="friday", **fields):
    status, doc = api(srv, "POST", "/api/tables", dict({"name": name, "players": PLAYERS}, **fields))
    assert status == 201, doc
    return doc


# --- text that is not Unicode ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path, raw, field", [
    pytest.param("/api/analyze", rb'{"hand": "\ud800"}', "hand", id="a_hand"),
    pytest.param("/api/analyze", rb'{"hand": "123m", "seat": "E\udfff"}', "seat", id="a_situation_field"),
    pytest.param("/api/compare", rb'{"hand": "123m", "rulesets": ["beijing", "\udbff"]}', "rulesets", id="in_a_list"),
    pytest.param("/api/tables", rb'{"name": "t", "players": {"E": "\ud83d", "S": "b", "W": "c", "N": "d"}}',
                 "players", id="nested_in_an_object"),
    pytest.param("/api/tables", rb'{"name": "t", "players": {"\udc00": "a"}}', "players", id="a_nested_key"),
    pytest.param("/api/analyze", rb'{"\ud800": 1}', None, id="a_field_name"),
    pytest.param("/api/import", rb'{"document": {"hands": [{"x": [["\ude00"]]}]}}', "document", id="deep"),
])
def test_a_lone_surrogate_anywhere_in_the_body_is_a_400(server, capfd, path, raw, field):
    """A JSON escape of half a UTF-16 pair decodes to a string that cannot be encoded again: refused at the door
    with one line naming the field, before anything reads it (it used to drop the connection with a traceback)."""
    status, doc = api(server, "POST", path, raw=raw)
    assert (status, doc["code"], doc["field"]) == (400, "api.lone_surrogate", field), doc
    assert "lone surrogate" in doc["error"] and "\\u" in doc["error"]
    assert "Traceback" not in capfd.readouterr().err
    assert api(server, "GET", "/api/tables")[0] == 200  # the server is still there


def test_a_field_named_with_a_line_break_is_said_escaped(server):
    """Issue 34, item 12: `{"\\n": ["\\ud800"]}` put a raw line break at the head of the error and of its field (a
    flake of the fuzz test above); a field named by the request's own key is escaped as a value is."""
    status, doc = api(server, "POST", "/api/advise", raw=rb'{"\n": ["\ud800"]}')
    assert (status, doc["code"], doc["field"]) == (400, "api.lone_surrogate", "\\n"), doc
    assert "\n" not in doc["error"] and doc["error"].startswith("\\n: ")


def test_a_surrogate_pair_is_a_character(server):
    """An escaped pair (U+1F600) is one character, accepted as any other is."""
    status, doc = api(server, "POST", "/api/tables", raw=json.dumps(
        {"name": "😀 night", "players": PLAYERS}, ensure_ascii=True).encode("ascii"))
    assert status == 201 and doc["table"] == "😀 night", doc


# --- the Origin header -------------------------------------------------------------------------------------------


def test_a_write_from_another_origin_is_refused_and_writes_nothing(server):
    port = server.server_address[1]
    for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"https://127.0.0.1:{port}",
                   f"http://localhost:{port}", "http://127.0.0.1"):
        status, doc = api(server, "POST", "/api/tables", {"name": "t", "players": PLAYERS},
                          headers={"Origin": origin})
        assert (status, doc["code"]) == (403, "api.foreign_origin"), (origin, doc)
        assert doc["error"] == (f"this server takes writes only from its own page (http://127.0.0.1:{port}), "
                                f"not from {origin!r}"), doc
    assert api(server, "GET", "/api/tables")[1]["tables"] == []
    for method in ("PUT", "PATCH", "DELETE"):  # every write method, before it is known to be refused (405)
        status, doc = api(server, method, "/api/tables", {}, headers={"Origin": "http://evil.example"})
        assert (status, doc["code"]) == (403, "api.foreign_origin"), (method, doc)


def test_a_write_from_its_own_page_or_without_an_origin_is_taken(server):
    port = server.server_address[1]
    status, _ = api(server, "POST", "/api/tables", {"name": "a", "players": PLAYERS},
                    headers={"Origin": f"http://127.0.0.1:{port}"})
    assert status == 201
    status, _ = api(server, "POST", "/api/tables", {"name": "b", "players": PLAYERS},
                    headers={"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"})
    assert status == 201
    assert api(server, "POST", "/api/tables", {"name": "c", "players": PLAYERS})[0] == 201  # curl, scripts
    # a read from another origin is answered (the browser keeps it from that page: no CORS header is sent)
    status, headers, _ = call(server, "GET", "/api/tables", headers={"Origin": "http://evil.example"})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers


def test_the_origin_is_checked_with_the_token_too(tmp_path):
    srv = start(tmp_path / "l.sqlite3", token="s3cret")
    try:
        token = {"X-Mjcalc-Token": "s3cret"}
        status, doc = api(srv, "POST", "/api/tables", {"name": "t", "players": PLAYERS},
                          headers=dict(token, Origin="http://evil.example"))
        assert (status, doc["code"]) == (403, "api.foreign_origin")
        own = f"http://127.0.0.1:{srv.server_address[1]}"
        assert api(srv, "POST", "/api/tables", {"name": "t", "players": PLAYERS},
                   headers=dict(token, Origin=own))[0] == 201
    finally:
        stop(srv)


# --- a loopback address of its own ---------------------------------------------------------------------------------


def _bindable(host):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family) as s:
            s.bind((host, 0))
        return True
    except OSError:
        return False


@pytest.mark.parametrize("host", ["127.0.0.2", "127.42.0.1", "::1"])
def test_any_loopback_address_answers_its_own_url(tmp_path, host):
    if not _bindable(host):
        pytest.skip(f"{host} cannot be bound here")
    srv = start(tmp_path / "l.sqlite3", host=host)
    try:
        port = srv.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        assert srv.url == f"http://{shown}:{port}/"
        status, _, _ = call(srv, "GET", "/api/tables")  # http.client sends Host: the address and port
        assert status == 200
        conn = http.client.HTTPConnection(host, port, timeout=10)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200  # the page
        conn.close()
        status, _ = api(srv, "POST", "/api/tables", {"name": "t", "players": PLAYERS},
                        headers={"Origin": f"http://{shown}:{port}"})  # a write from that page
        assert status == 201
        assert api(srv, "GET", "/api/tables", headers={"Host": f"localhost:{port}"})[0] == 200
        status, doc = api(srv, "GET", "/api/tables", headers={"Host": f"evil.example:{port}"})
        assert (status, doc["code"]) == (403, "api.foreign_host_named")
        assert doc["error"] == f"this server answers only to {shown} or localhost"
    finally:
        stop(srv)


# --- a body that stops short ------------------------------------------------------------------------------------


def _head(srv, length, path="/api/analyze"):
    port = srv.server_address[1]
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode("ascii")


def test_the_body_has_a_deadline_of_a_few_seconds():
    assert 1 <= served.BODY_SECONDS <= 10


def test_a_body_that_stops_short_is_a_408_within_the_deadline(server, capfd):
    server.body_seconds = 1.0
    took, out = raw_exchange(server, _head(server, 100) + b'{"hand": "')
    status, doc = answer_of(out)
    assert (status, doc["code"]) == (408, "api.body_timeout"), doc
    assert doc["error"] == "the request body stopped after 10 of its 100 bytes (Content-Length) for 1 s; nothing was done"
    assert took < 5 and b"Connection: close" in out
    assert "bug" not in capfd.readouterr().err


def test_a_body_that_trickles_in_is_held_to_the_whole_deadline(server):
    """Not a timeout per read: a byte a while keeps a read alive for ever, the deadline is for the whole body."""
    server.body_seconds = 1.0
    took, out = raw_exchange(server, _head(server, 100), [b" "] * 12, pause=0.2)
    assert answer_of(out)[0] == 408 and took < 4


def test_a_body_cut_off_by_the_client_is_a_400(server):
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(_head(server, 100) + b'{"hand": "')
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    status, doc = answer_of(out)
    assert (status, doc["code"]) == (400, "api.body_short"), doc
    assert doc["error"] == "the request body ended after 10 of its 100 bytes (Content-Length); nothing was done"


def test_a_whole_body_sent_slowly_within_the_deadline_is_read(server):
    server.body_seconds = 3.0
    body = json.dumps({"hand": SEVEN_PAIRS}).encode("utf-8")
    _, out = raw_exchange(server, _head(server, len(body)).replace(b"HTTP/1.1\r\n", b"HTTP/1.1\r\nConnection: close\r\n"),
                          [body[:5], body[5:]], pause=0.5)
    status, doc = answer_of(out)
    assert status == 200 and doc["hand"], doc


# --- a 404 names no path and no other table ----------------------------------------------------------------------


def test_a_missing_table_names_no_path_and_no_other_table(server, tmp_path):
    new_table(server, "friday")
    new_table(server, "saturday")
    for method, path in (("GET", "/api/tables/fridya"), ("GET", "/api/tables/fridya/standings"),
                         ("GET", "/api/tables/fridya/export"), ("GET", "/api/tables/fridya/stats"),
                         ("POST", "/api/tables/fridya/draw"), ("POST", "/api/tables/fridya/close")):
        body = {"closed": True} if path.endswith("close") else ({} if method == "POST" else None)
        status, doc = api(server, method, path, body)
        assert (status, doc) == (404, {"error": "no table named 'fridya'", "code": "api.no_table", "field": None,
                                       "params": {"table": "'fridya'"}}), (path, doc)
    status, _, doc = call(server, "GET", "/api/tables/fridya", headers={"If-None-Match": 'W/"2.x.1"'})
    assert status == 404 and doc["code"] == "api.no_table"
    # the command line keeps its own words: the ledger it looked in and the near names
    result = CliRunner().invoke(cli, ["table", "show", "fridya", "--db", str(server.lib.db_path)])
    assert result.exit_code != 0 and "'friday'" in result.output


# --- a ruleset file read once ------------------------------------------------------------------------------------


def test_a_ruleset_file_is_read_once_at_start(tmp_path):
    """Every request and every new table uses the file as read at start: editing it while the server runs changes
    nothing the server says (a table opened later scored 50 番 where the calculator said 5)."""
    house = tmp_path / "house.yaml"
    house.write_text("extends: beijing\nid: my-house\npatterns:\n  seven_pairs: {value: 5}\n", encoding="utf-8")
    srv = start(tmp_path / "l.sqlite3", ruleset=str(house))
    try:
        before = new_table(srv, "before")
        hand = {"hand": SEVEN_PAIRS, "winner": "S", "self_drawn": True}
        first = api(srv, "POST", "/api/tables/before/hand", hand)[1]["hand"]
        analyzed = api(srv, "POST", "/api/analyze", {"hand": SEVEN_PAIRS})[1]["total"]
        house.write_text("extends: beijing\nid: my-house\npatterns:\n  seven_pairs: {value: 50}\n", encoding="utf-8")
        after = new_table(srv, "after")
        assert after["ruleset_sha256"] == before["ruleset_sha256"] and after["rules_from"] == before["rules_from"]
        second = api(srv, "POST", "/api/tables/after/hand", hand)[1]["hand"]
        assert second["payouts"] == first["payouts"]
        assert api(srv, "POST", "/api/analyze", {"hand": SEVEN_PAIRS})[1]["total"] == analyzed
        new_table(srv, "switched", ruleset="beijing")
        status, doc = api(srv, "POST", "/api/tables/switched/rules", {"ruleset": "my-house"})
        assert status == 200 and doc["ruleset_sha256"] == before["ruleset_sha256"]
        house.unlink()  # gone altogether: still the reading at start
        assert new_table(srv, "gone")["ruleset_sha256"] == before["ruleset_sha256"]
    finally:
        stop(srv)


# --- reads go through a read-only connection ---------------------------------------------------------------------


def test_reads_are_answered_while_a_writer_holds_the_ledger(server):
    """A GET opens the ledger read-only: it neither waits for the write lock nor takes it (an ordinary open took
    it to check the schema, so a read waited for every write in progress, 30 s at worst)."""
    new_table(server, "friday")
    _, headers, _ = call(server, "GET", "/api/tables/friday")
    writer = sqlite3.connect(str(server.lib.db_path), isolation_level=None, timeout=1)
    try:
        writer.execute("BEGIN IMMEDIATE")
        began = time.monotonic()
        for path in ("/api/tables", "/api/tables/friday", "/api/tables/friday/standings",
                     "/api/tables/friday/export", "/api/tables/friday/stats", "/api/stats"):
            assert api(server, "GET", path, timeout=5)[0] == 200, path
        assert conditional(server, "/api/tables/friday", headers["ETag"], timeout=5) == 304
        assert time.monotonic() - began < 5
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_the_etag_path_answers_304_from_one_read(server):
    new_table(server, "friday")
    _, headers, doc = call(server, "GET", "/api/tables/friday")
    assert conditional(server, "/api/tables/friday", headers["ETag"]) == 304
    assert conditional(server, "/api/tables/friday/standings", "*") == 304
    api(server, "POST", "/api/tables/friday/draw", {})
    status, moved, _ = call(server, "GET", "/api/tables/friday", headers={"If-None-Match": headers["ETag"]})
    assert status == 200 and moved["ETag"] != headers["ETag"]


def test_a_read_never_creates_the_ledger(server):
    path = server.lib.db_path
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        p.unlink(missing_ok=True)
    for url in ("/api/tables", "/api/tables/friday", "/api/stats"):
        assert api(server, "GET", url)[0] in (200, 404, 503)
    assert not path.exists()


# --- a property over every endpoint's fields -----------------------------------------------------------------------


class Raw:
    """A JSON token written as it is (NaN, a number of 5000 digits), which json.dumps would not write."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"Raw({self.text[:20]!r})"


def dump(value) -> str:
    """JSON text of `value`, strings escaped as ASCII (so a lone surrogate is sent as its escape)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {dump(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dump(v) for v in value) + "]"
    return json.dumps(value)


ENDPOINTS = {"analyze": "/api/analyze", "advise": "/api/advise", "compare": "/api/compare", "waits": "/api/waits",
             "table_new": "/api/tables", "import": "/api/import",
             **{"table_" + w: f"/api/tables/fuzz/{w}" for w in WRITES}}

surrogate_text = st.builds(lambda a, c, b: a + chr(c) + b, st.text(max_size=4), st.integers(0xD800, 0xDFFF),
                           st.text(max_size=4))
strings = st.one_of(st.text(max_size=12), surrogate_text,
                    st.sampled_from(["E", "S", "南", "老王", SEVEN_PAIRS, "123m456p789s EE 45m +6m", "beijing", "zh",
                                     "3", "对对和,庄", "\x00", "\u202e", "e" * 1200]))
numbers = st.one_of(st.integers(-5, 20), st.integers(), st.sampled_from([2 ** 63, -2 ** 63 - 1, 10 ** 30]),
                    st.floats(allow_nan=False), st.sampled_from([Raw("NaN"), Raw("-Infinity"), Raw("1e400"),
                                                                 Raw("9" * 5000), Raw("-0")]))
scalars = st.one_of(st.none(), st.booleans(), numbers, strings)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(strings, inner, max_size=3),
                      max_leaves=6)


@st.composite
def bodies(draw):
    endpoint = draw(st.sampled_from(sorted(ENDPOINTS)))
    fields = sorted(endpoint_fields(endpoint))
    keys = draw(st.lists(st.sampled_from(fields), max_size=4, unique=True))
    if draw(st.booleans()):  # the fields it needs, so that a request goes past the first refusal more often
        keys = [k for k in ("hand", "name", "players", "winner", "hand_id", "revision", "document") if k in fields] + keys
    body = {k: draw(st.one_of(strings, values)) for k in keys}  # text is what most fields take
    if draw(st.booleans()):
        body[draw(strings)] = draw(values)  # a field it does not take, maybe with a lone surrogate
    return endpoint, body


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    srv = start(tmp_path_factory.mktemp("fuzz") / "l.sqlite3")
    new_table(srv, "fuzz")
    yield srv
    stop(srv)


def test_every_endpoint_is_in_the_field_table():
    for endpoint in ENDPOINTS:
        assert endpoint_fields(endpoint)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies())
def test_any_json_in_any_field_is_answered_without_a_5xx(fuzzed, endpoint_and_body):
    """Every type in every field (lone surrogates, huge numbers, NaN, nested lists and objects): a JSON answer, a
    4xx with "error" and "code" when refused, never a 5xx and never a dropped connection."""
    endpoint, body = endpoint_and_body
    status, doc = api(fuzzed, "POST", ENDPOINTS[endpoint], raw=dump(body).encode("utf-8"))
    assert status < 500, (endpoint, body, doc)
    if status >= 400:
        assert isinstance(doc["code"], str) and doc["code"], doc
