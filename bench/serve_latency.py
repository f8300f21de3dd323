#!/usr/bin/env python3
"""Request latency of `mjcalc serve` with four clients at once, as phones at one table make them.

    python3 bench/serve_latency.py                      # the mjcalc beside this Python, else the one on PATH
    python3 bench/serve_latency.py --mjcalc /tmp/mjv/bin/mjcalc --requests 200

Starts `mjcalc serve --port 0` on a fresh ledger with one table, then four client threads each send
--requests requests, in turn `GET /api/tables/NAME` (the view a phone refreshes) and `POST /api/analyze` (a hand
tapped in), first over one keep-alive connection per client, then with a new connection per request. Prints
p50 and p99 in milliseconds for each; nothing asserts on time. Loopback only.
"""
import argparse
import http.client
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CLIENTS = 4
HAND = {"hand": "123m456p789s EE 45m +6m", "ruleset": "beijing"}


def start(mjcalc: str, db: Path):
    subprocess.run([mjcalc, "table", "new", "bench", "--seat", "E=a", "--seat", "S=b", "--seat", "W=c",
                    "--seat", "N=d", "--db", str(db)], check=True, capture_output=True)
    proc = subprocess.Popen([mjcalc, "serve", "--port", "0", "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # "mjcalc serve: http://127.0.0.1:PORT/ …"
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    for stream in (proc.stdout, proc.stderr):  # read its request log, or the server blocks once the pipe is full
        threading.Thread(target=stream.read, daemon=True).start()
    return proc, port


def client(port: int, requests: int, keep_alive: bool, times: list):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps(HAND)
    for i in range(requests):
        if not keep_alive:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start = time.perf_counter()
        if i % 2:
            conn.request("POST", "/api/analyze", body, {"Content-Type": "application/json"})
        else:
            conn.request("GET", "/api/tables/bench")
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - start)
        if response.status != 200:
            raise SystemExit(f"HTTP {response.status}")
        if not keep_alive:
            conn.close()
    conn.close()


def measure(port: int, requests: int, keep_alive: bool):
    times: list = []
    threads = [threading.Thread(target=client, args=(port, requests, keep_alive, times)) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    times.sort()
    return statistics.median(times) * 1000, times[int(0.99 * (len(times) - 1))] * 1000, len(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mjcalc", help="the mjcalc to time (default: beside this Python, else on PATH)")
    ap.add_argument("--requests", type=int, default=200, help="requests per client and mode (default 200)")
    args = ap.parse_args()
    mjcalc = args.mjcalc or str(Path(sys.executable).with_name("mjcalc"))
    if not Path(mjcalc).exists():
        mjcalc = shutil.which("mjcalc") or sys.exit("no mjcalc found: give --mjcalc")
    with tempfile.TemporaryDirectory() as work:
        proc, port = start(mjcalc, Path(work) / "bench.sqlite3")
        try:
            measure(port, 10, True)  # warm up: the first request imports the scorer
            print(f"mjcalc serve, {CLIENTS} clients at once, {args.requests} requests each (GET table, POST analyze)")
            print(f"{'connection':<24} {'p50 ms':>8} {'p99 ms':>8} {'requests':>9}")
            for keep_alive in (True, False):
                p50, p99, n = measure(port, args.requests, keep_alive)
                print(f"{'keep-alive' if keep_alive else 'new per request':<24} {p50:8.2f} {p99:8.2f} {n:9d}")
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
