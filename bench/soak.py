#!/usr/bin/env python3
"""A soak test of the table ledger: four API clients and the CLI writing for N minutes while the server and the
CLI are SIGKILLed; prints what was acknowledged, recorded, lost and duplicated, and p50/p99 per endpoint.

    python3 bench/soak.py                       # one minute, the mjcalc beside this Python, else the one on PATH
    python3 bench/soak.py --minutes 2 --seed 7 --work /tmp/soak   # keep the ledger and the server's log

On a fresh ledger with one table, `mjcalc serve` runs as a subprocess (the first start picks a free port, every
restart takes the same one) and a killer thread SIGKILLs it every few seconds and starts it again. Four API
client threads, each with its own client_id, record hands by agreed total (`"confirm_duplicate": true`: two
clients may enter equal hands on purpose), and now and then undo or edit a hand, mostly one of their own; two
keep one keep-alive connection, two open a new connection per request. A CLI thread runs `mjcalc table hand
--fan N --request-id ID --yes --json` as processes and SIGKILLs some of them after a short random delay. Every
logical write has one request id and is sent again with that id, unchanged, until it gets an answer (a 5xx is
no answer; a write still unanswered a minute after the end, the killer stopped, is counted as abandoned): so a
write is acknowledged exactly once, whatever was killed meanwhile. Options: --kill-every (mean seconds between
the server's SIGKILLs, default 4), --pause (mean seconds between a client's requests, default 0.25), --work.

At the end the table (`table show --json`, `table log --json` and `GET /api/tables/NAME`) is checked against the
acknowledgements: lost is an acknowledged write whose effect is not in the ledger (a hand neither present nor
removed by an acknowledged undo or edit, an undo or edit whose hand is still there, a write with no event in
the log); duplicated is a request id with more than one event, a hand id shown twice, or an event from a
request nobody sent. When mjcalc refuses to read the table (a damaged ledger) the figures are counted from the
SQLite file itself and `table check` is quoted. Prints one JSON object; exits 1 when anything is lost or
duplicated, a hand does not sum to zero or the table is refused. Latencies are of the attempts that got an
answer; nothing asserts on time. The server's stderr goes to serve-stderr.log in the work directory (its
tracebacks and "bug in mjcalc" lines are counted). Loopback only.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

TABLE = "soak"
SEATS = "ESWN"
CLIENTS = 4
AFTER = 60.0  # seconds past the deadline (the killer has stopped) a write is still retried before it is abandoned
ANSWER_WAIT = 40.0  # seconds an attempt waits for its answer: more than the ledger's 30 s wait for a busy file


class Server:
    """`mjcalc serve` as a subprocess that can be SIGKILLed and started again on the same port."""

    def __init__(self, mjcalc: str, db: Path, log: Path, env: dict):
        self.mjcalc, self.db, self.log, self.env = mjcalc, db, log, env
        self.proc = None
        self.port = 0
        self.starts = 0
        self.kills = 0
        self.start_times = []  # seconds from Popen to the line saying it listens

    def start(self):
        began = time.monotonic()
        deadline = began + 30
        while True:
            with open(self.log, "a", encoding="utf-8") as err:
                err.write(f"--- soak: start {self.starts + 1} on port {self.port or 'any'}\n")
                err.flush()
                proc = subprocess.Popen([self.mjcalc, "serve", "--port", str(self.port), "--db", str(self.db)],
                                        stdout=subprocess.PIPE, stderr=err, text=True, env=self.env)
            line = proc.stdout.readline()  # "mjcalc serve: http://127.0.0.1:PORT/ …", or "" if it could not bind
            if "http://127.0.0.1:" in line:
                break
            proc.wait()
            if time.monotonic() > deadline:
                sys.exit(f"mjcalc serve does not start on port {self.port}: see {self.log}")
            time.sleep(0.2)
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain it, or the server blocks
        self.port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        self.proc = proc
        self.starts += 1
        self.start_times.append(time.monotonic() - began)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.kills += 1

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Record:
    """What every thread saw, behind one lock: answers, latencies, acknowledgements and the hands alive."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency = defaultdict(list)  # (endpoint, mode) -> seconds of attempts that got an answer
        self.failed = Counter()  # (endpoint, mode) -> attempts with no answer (refused, reset, timed out)
        self.reasons = Counter()  # why: the exception's class
        self.errors = {}  # "endpoint status" -> Counter of the answers' "error" texts
        self.statuses = Counter()  # (endpoint, status)
        self.acks = {}  # request_id -> {"op", "by", "created", "removed", "replayed", "revision", "attempts"}
        self.sent = set()  # every request id sent
        self.refusals = []  # (request_id, op, status, code, target)
        self.abandoned = []  # writes still unanswered AFTER seconds past the deadline
        self.slowest = (0.0, None)  # (seconds, what): the write longest from its first attempt to its answer
        self.alive = {}  # hand_id -> who recorded it, as far as the acknowledgements say
        self.cli = Counter()  # runs, killed, exit codes
        self.cli_errors = Counter()  # the last line of stderr of a failed CLI run
        self.cli_latency = []

    def ack(self, request_id, op, by, doc, created=None, removed=None, attempts=None):
        with self.lock:
            self.acks[request_id] = {"op": op, "by": by, "created": created, "removed": removed,
                                     "replayed": bool(doc.get("replayed")), "revision": doc.get("revision"),
                                     "attempts": attempts}
            if removed:
                self.alive.pop(removed, None)
            if created:
                self.alive[created] = by

    def pick(self, rng, me):
        """A hand to undo or edit: mostly one of mine, sometimes anyone's (so two clients may race for it)."""
        with self.lock:
            mine = [h for h, by in self.alive.items() if by == me]
            pool = mine if mine and rng.random() < 0.75 else list(self.alive)
            return rng.choice(pool) if pool else None


def hand_fields(rng):
    winner = rng.choice(SEATS)
    fields = {"total": rng.randint(1, 8), "winner": winner}
    if rng.random() < 0.6:
        fields["from"] = rng.choice([s for s in SEATS if s != winner])
    return fields


class ApiClient(threading.Thread):
    def __init__(self, index, server, record, deadline, keep_alive, seed, pause):
        super().__init__(name=f"client{index}")
        self.me = f"soak-{index}"
        self.server, self.record, self.deadline = server, record, deadline
        self.keep_alive = keep_alive
        self.mode = "keep-alive" if keep_alive else "new connection"
        self.rng = random.Random(f"{seed}-{index}")
        self.pause = pause
        self.conn = None
        self.n = 0
        self.last_failure = None

    def request(self, method, path, body=None):
        """One attempt: (status, document), or None when no answer came."""
        endpoint = path.rsplit("/", 1)[-1] if method == "POST" else "GET table"
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=ANSWER_WAIT)
        start = time.perf_counter()
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            self.conn = None
            with self.record.lock:
                self.record.failed[endpoint, self.mode] += 1
                self.record.reasons[type(exc).__name__] += 1
                self.last_failure = type(exc).__name__
            return None
        elapsed = time.perf_counter() - start
        if not self.keep_alive or response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        try:
            doc = json.loads(data) if data else None
        except ValueError:
            doc = None
        with self.record.lock:
            self.record.latency[endpoint, self.mode].append(elapsed)
            self.record.statuses[endpoint, response.status] += 1
            if response.status >= 400:
                error = doc.get("error", "") if isinstance(doc, dict) else data[:80].decode("utf-8", "replace")
                self.record.errors.setdefault(f"{endpoint} {response.status}", Counter())[error[:200]] += 1
        return response.status, doc

    def write(self, op, fields, target=None):
        """Send one logical write until it is answered, the same request id and body every time."""
        self.n += 1
        request_id = f"{self.me}-{self.n}"
        body = json.dumps(dict(fields, request_id=request_id))
        with self.record.lock:
            self.record.sent.add(request_id)
        began = time.monotonic()
        attempts = Counter()
        while True:
            answer = self.request("POST", f"/api/tables/{TABLE}/{op}", body)
            if answer is not None and answer[0] < 500:
                break
            attempts[self.last_failure if answer is None else f"HTTP {answer[0]}"] += 1
            if time.monotonic() > self.deadline + AFTER:
                with self.record.lock:
                    self.record.abandoned.append((request_id, op, dict(attempts)))
                return
            time.sleep(self.rng.uniform(0.02, 0.15))  # the server is down (or busy): the same request again
        status, doc = answer
        took = time.monotonic() - began
        with self.record.lock:
            if took > self.record.slowest[0]:
                self.record.slowest = (took, {"request_id": request_id, "op": op, "seconds": round(took, 1),
                                              "attempts without answer": dict(attempts)})
        if status != 200:
            with self.record.lock:
                self.record.refusals.append((request_id, op, status, (doc or {}).get("code"), target))
            return
        if op == "hand":
            self.record.ack(request_id, op, self.me, doc, created=doc["hand"]["hand_id"], attempts=dict(attempts))
        elif op == "edit":
            self.record.ack(request_id, op, self.me, doc, created=doc["hand"]["hand_id"], removed=target,
                            attempts=dict(attempts))
        else:
            self.record.ack(request_id, op, self.me, doc, removed=target, attempts=dict(attempts))

    def run(self):
        while time.monotonic() < self.deadline:
            roll = self.rng.random()
            target = self.record.pick(self.rng, self.me) if roll < 0.25 else None
            if roll < 0.1:
                self.request("GET", f"/api/tables/{TABLE}")
            elif target and roll < 0.17:
                self.write("undo", {"hand_id": target}, target)
            elif target:
                self.write("edit", dict(hand_fields(self.rng), hand_id=target), target)
            else:
                self.write("hand", dict(hand_fields(self.rng), client_id=self.me, confirm_duplicate=True))
            time.sleep(self.rng.uniform(0, 2 * self.pause))
        if self.conn is not None:
            self.conn.close()


class CliClient(threading.Thread):
    """`mjcalc table hand` as processes, some SIGKILLed part-way, each retried with its request id until it answers."""

    def __init__(self, mjcalc, db, env, record, deadline, seed, pause):
        super().__init__(name="cli")
        self.mjcalc, self.db, self.env = mjcalc, db, env
        self.record, self.deadline = record, deadline
        self.rng = random.Random(f"{seed}-cli")
        self.pause = pause

    def run(self):
        n = 0
        while time.monotonic() < self.deadline:
            n += 1
            request_id = f"soak-cli-{n}"
            fields = hand_fields(self.rng)
            args = [self.mjcalc, "table", "hand", TABLE, "--fan", str(fields["total"]), "--winner", fields["winner"],
                    "--request-id", request_id, "--yes", "--json", "--db", str(self.db)]
            if "from" in fields:
                args += ["--from", fields["from"]]
            with self.record.lock:
                self.record.sent.add(request_id)
            began = time.monotonic()
            attempts = 0
            while not self.attempt(args, request_id):
                attempts += 1
                if time.monotonic() > self.deadline + AFTER:
                    with self.record.lock:
                        self.record.abandoned.append((request_id, "cli hand", {}))
                    break
                time.sleep(self.rng.uniform(0.02, 0.15))
            took = time.monotonic() - began
            with self.record.lock:
                if took > self.record.slowest[0]:
                    self.record.slowest = (took, {"request_id": request_id, "op": "cli hand",
                                                  "seconds": round(took, 1), "attempts without answer": attempts})
            time.sleep(self.rng.uniform(0, 2 * self.pause))

    def attempt(self, args, request_id) -> bool:
        kill_after = self.rng.uniform(0.05, 0.8) if self.rng.random() < 0.35 else None
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
        try:
            out, err = proc.communicate(timeout=kill_after or 60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            with self.record.lock:
                self.record.cli["killed"] += 1
            return False
        elapsed = time.perf_counter() - start
        with self.record.lock:
            self.record.cli[f"exit {proc.returncode}"] += 1
            if proc.returncode != 0:
                self.record.cli_errors[(err.strip().splitlines() or [""])[-1][:160]] += 1
                self.record.cli["tracebacks"] += "Traceback" in err
                return False
            self.record.cli_latency.append(elapsed)
        doc = json.loads(out)
        self.record.ack(request_id, "hand", "cli", doc, created=doc["hand"]["hand_id"])
        return True


def killer(server, deadline, rng, every):
    while True:
        time.sleep(rng.uniform(0.5 * every, 1.5 * every))
        if time.monotonic() >= deadline:
            return
        server.kill()
        server.start()


def percentiles(times):
    if not times:
        return {"n": 0}
    times = sorted(times)
    return {"p50_ms": round(times[(len(times) - 1) // 2] * 1000, 2),
            "p99_ms": round(times[int(0.99 * (len(times) - 1))] * 1000, 2), "n": len(times)}


def read_raw(db: Path):
    """The table's hands and log straight from the SQLite file (read-only), for when mjcalc refuses to read it:
    the figures can still be counted on a damaged ledger."""
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tid, revision = con.execute("SELECT id, revision FROM tables WHERE name = ?", (TABLE,)).fetchone()
        hands = [{"hand_id": h, "payouts": dict(zip(SEATS, d))} for h, *d in con.execute(
            "SELECT hand_id, d_e, d_s, d_w, d_n FROM hands WHERE table_id = ? ORDER BY number", (tid,))]
        events = [{"revision": r, "kind": k, "request_id": q, "data": json.loads(d)} for r, k, q, d in con.execute(
            "SELECT revision, kind, request_id, data FROM events WHERE table_id = ? ORDER BY revision", (tid,))]
    finally:
        con.close()
    return {"hands": hands, "standings": None, "revision": revision}, {"events": events}


def check(record, show, log, api_show):
    """The ledger against the acknowledgements: the figures of the report."""
    hands = show["hands"]
    present = Counter(h["hand_id"] for h in hands)
    events = [e for e in log["events"] if e["kind"] != "open"]
    by_request = defaultdict(list)
    for e in events:
        by_request[e["request_id"]].append(e)
    removed_by_ack = {a["removed"] for a in record.acks.values() if a["removed"]}
    lost = []
    for request_id, a in record.acks.items():
        if request_id not in by_request:
            lost.append((request_id, "no event in the log", a))
        elif a["created"] and not present[a["created"]] and a["created"] not in removed_by_ack:
            lost.append((request_id, f"hand {a['created']} is not in the table", a))
        elif a["removed"] and present[a["removed"]]:
            lost.append((request_id, f"hand {a['removed']} is still in the table", a))
    created_ids = {a["created"] for a in record.acks.values() if a["created"]}
    duplicated = [(rid, f"{len(es)} events") for rid, es in by_request.items() if len(es) > 1]
    duplicated += [(hid, f"hand shown {n} times") for hid, n in present.items() if n > 1]
    duplicated += [(rid, "an event from a request never sent") for rid in by_request if rid not in record.sent]
    unacknowledged = sorted(rid for rid in by_request if rid in record.sent and rid not in record.acks)
    foreign_hands = [h["hand_id"] for h in hands if h["hand_id"] not in created_ids]
    not_zero = [h["hand_id"] for h in hands if sum(h["payouts"].values()) != 0]
    scores = Counter()
    for h in hands:
        scores.update(h["payouts"])
    standings_agree = show["standings"] is not None and all(scores[s["seat"]] == s["score"] for s in show["standings"])
    # a refusal of an undo or edit is explained when an acknowledged write removed its hand first
    unexplained = [r for r in record.refusals if not (r[1] in ("undo", "edit") and r[4] in removed_by_ack)]
    acked = Counter(("cli hand" if a["by"] == "cli" else a["op"]) for a in record.acks.values())
    return {
        "acknowledged": {"hand (API)": acked["hand"], "hand (CLI)": acked["cli hand"], "edit": acked["edit"],
                         "undo": acked["undo"], "replayed": sum(a["replayed"] for a in record.acks.values())},
        "recorded": {"hands in the table": len(hands), "hand events": sum(e["kind"] == "hand" for e in events),
                     "events": len(events), "revision": show["revision"]},
        "lost": len(lost), "duplicated": len(duplicated),
        "lost_detail": lost[:10], "duplicated_detail": duplicated[:10],
        "hands_not_summing_to_zero": len(not_zero), "standings_agree_with_hands": standings_agree,
        "api_and_cli_show_agree": api_show is not None and
                                  [h["hand_id"] for h in api_show["hands"]] == [h["hand_id"] for h in hands],
        "hands_from_no_acknowledged_write": len(foreign_hands),
        "recorded_but_not_acknowledged": unacknowledged[:10], "abandoned": record.abandoned[:10],
        "refused": Counter(f"{r[1]} {r[2]} {r[3]}" for r in record.refusals),
        "refused_unexplained": unexplained[:10],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=1.0, help="how long the clients write (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="the random seed of the clients and the killer (default 1)")
    ap.add_argument("--mjcalc", help="the mjcalc to run (default: beside this Python, else on PATH)")
    ap.add_argument("--kill-every", type=float, default=4.0,
                    help="mean seconds between SIGKILLs of the server (default 4)")
    ap.add_argument("--pause", type=float, default=0.25, help="mean seconds between a client's requests (default 0.25)")
    ap.add_argument("--work", help="keep the ledger and the server's log in this directory (default: a temporary one)")
    args = ap.parse_args()
    mjcalc = args.mjcalc or str(Path(sys.executable).with_name("mjcalc"))
    if not Path(mjcalc).exists():
        mjcalc = shutil.which("mjcalc") or sys.exit("no mjcalc found: give --mjcalc")
    temporary = None if args.work else tempfile.TemporaryDirectory()
    work = Path(args.work or temporary.name)
    work.mkdir(parents=True, exist_ok=True)
    db, log = work / "soak.sqlite3", work / "serve-stderr.log"
    for stale in (db, log, work / "soak.sqlite3-wal", work / "soak.sqlite3-shm"):
        stale.unlink(missing_ok=True)
    # the user data directory (where `table new` remembers the table in use) is the work directory's own
    env = {k: v for k, v in os.environ.items() if not k.startswith("MJCALC_")}
    env["XDG_DATA_HOME"] = str(work / "data")
    subprocess.run([mjcalc, "table", "new", TABLE] + [a for s in SEATS for a in ("--seat", f"{s}={s.lower()}1")]
                   + ["--db", str(db)], check=True, capture_output=True, env=env)
    server = Server(mjcalc, db, log, env)
    server.start()
    record = Record()
    began = time.monotonic()
    deadline = began + 60 * args.minutes
    threads = [ApiClient(i, server, record, deadline, i % 2 == 0, args.seed, args.pause) for i in range(CLIENTS)]
    threads.append(CliClient(mjcalc, db, env, record, deadline, args.seed, args.pause))
    kill_thread = threading.Thread(target=killer, args=(server, deadline, random.Random(f"{args.seed}-kill"),
                                                        args.kill_every))
    try:
        for t in threads + [kill_thread]:
            t.start()
        for t in threads + [kill_thread]:
            t.join()
        ran = time.monotonic() - began
        client = ApiClient(9, server, record, 0, True, args.seed, 0)
        api_show = None
        for _ in range(50):
            answer = client.request("GET", f"/api/tables/{TABLE}")
            if answer and answer[0] == 200:
                api_show = answer[1]
                break
            time.sleep(0.1)
    finally:
        server.stop()

    def mjcalc_table(*command):
        return subprocess.run([mjcalc, "table", *command, "--db", str(db)], capture_output=True, text=True, env=env)

    shown, logged = mjcalc_table("show", TABLE, "--json"), mjcalc_table("log", TABLE, "--json")
    ledger = {"read by": "mjcalc table show/log --json"}
    if shown.returncode or logged.returncode:  # refused (a damaged table): count from the file, say why
        refused = shown if shown.returncode else logged
        ledger = {"read by": "sqlite3, read-only: mjcalc refused it",
                  "mjcalc said": (refused.stderr.strip().splitlines() or [""])[-1][:300],
                  "table check": mjcalc_table("check").stdout.strip().splitlines()[:6]}
        try:
            figures = check(record, *read_raw(db), api_show)
        except Exception as exc:  # a file SQLite cannot read either: what there is to say
            print(json.dumps({"ledger": dict(ledger, sqlite3=str(exc)), "acknowledged": len(record.acks)},
                             ensure_ascii=False, indent=1))
            return 1
    else:
        figures = check(record, json.loads(shown.stdout), json.loads(logged.stdout), api_show)
    stderr = log.read_text(encoding="utf-8", errors="replace").splitlines()
    problems = [line for line in stderr if any(w in line for w in ("Traceback", "bug in mjcalc", "Exception occurred"))]
    latency = {f"{endpoint}, {mode}": percentiles(times) for (endpoint, mode), times in sorted(record.latency.items())}
    latency["table hand (CLI process)"] = percentiles(record.cli_latency)
    latency["server start (to its first line)"] = percentiles(server.start_times)
    report = dict(
        figures, ledger=ledger,
        seconds=round(ran, 1), server_kills=server.kills, server_starts=server.starts,
        cli=dict(record.cli), cli_errors=dict(record.cli_errors),
        attempts_without_answer={f"{e}, {m}": n for (e, m), n in sorted(record.failed.items())},
        why_no_answer=dict(record.reasons), slowest_write=record.slowest[1],
        statuses={f"{e} {s}": n for (e, s), n in sorted(record.statuses.items())},
        error_answers={k: dict(c.most_common(3)) for k, c in sorted(record.errors.items())},
        server_stderr={"tracebacks": sum("Traceback" in line for line in stderr),
                       "bug_in_mjcalc": sum("bug in mjcalc" in line for line in stderr), "first": problems[:5]},
        latency=latency, work=str(work) if args.work else None,
    )
    print(json.dumps(report, ensure_ascii=False, indent=1, default=list))
    if args.work:  # every acknowledgement, to look a lost or duplicated write up in the ledger
        (work / "acks.json").write_text(json.dumps(record.acks, indent=1), encoding="utf-8")
    if temporary:
        temporary.cleanup()
    failed = figures["lost"] or figures["duplicated"] or figures["hands_not_summing_to_zero"] or len(ledger) > 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
