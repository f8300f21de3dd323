#!/usr/bin/env python3
"""What the page's live view costs: one phone polling a table as the page does, for a minute of an evening.

    python3 bench/live_view.py                       # the mjcalc beside this Python, else the one on PATH
    python3 bench/live_view.py --hands 40 --seconds 60

Starts `mjcalc serve --port 0` on a fresh ledger with one table of --hands hands, then polls
`GET /api/tables/NAME` every POLL seconds for --seconds with the last ETag in `If-None-Match` (as the page
does), while another client records one hand a minute (a quick hand every 3 minutes is a fast table; one a
minute is the worst case). Prints the requests per phone per minute, the bytes on the wire each way (request
line and headers; status line, headers and body), how many were 304, and the time a poll takes (p50, p99 ms).
Nothing asserts on time. Loopback only.
"""
import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

POLL = 1.5  # seconds between polls while the table is on screen (page.html's POLL_MS)


def start(mjcalc: str, db: Path, hands: int):
    run = lambda *a: subprocess.run([mjcalc, "table", *a, "--db", str(db)], check=True, capture_output=True)  # noqa: E731
    run("new", "bench", "--seat", "E=老王", "--seat", "S=小李", "--seat", "W=阿张", "--seat", "N=大刘")
    for i in range(hands):
        run("hand", "--fan", str(1 + i % 5), "--winner", "SWNE"[i % 4], "--yes")
    proc = subprocess.Popen([mjcalc, "serve", "--port", "0", "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    for stream in (proc.stdout, proc.stderr):
        threading.Thread(target=stream.read, daemon=True).start()
    return proc, port


def exchange(sock, request: bytes):
    """Send one request on a keep-alive socket; (status, the response's bytes, the ETag)."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:])}
    length = int(headers.get("content-length", "0")) if not lines[0].split()[1] == "304" else 0
    while len(body) < length:
        body += sock.recv(65536)
    return int(lines[0].split()[1]), len(head) + 4 + length, headers.get("etag")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mjcalc", default=str(Path(sys.executable).with_name("mjcalc")))
    ap.add_argument("--hands", type=int, default=40, help="hands at the table before the minute (default 40)")
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        proc, port = start(args.mjcalc, db, args.hands)
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            sent = received = polls = not_modified = 0
            times = []
            tag = None
            writer = threading.Thread(target=lambda: (time.sleep(args.seconds / 2), subprocess.run(
                [args.mjcalc, "table", "hand", "--fan", "2", "--winner", "小李", "--yes", "--db", str(db)],
                check=True, capture_output=True)), daemon=True)
            writer.start()
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                request = ("GET /api/tables/bench HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           + (f"If-None-Match: {tag}\r\n" if tag else "") + "\r\n").encode()
                began = time.perf_counter()
                status, size, tag = exchange(sock, request)
                times.append((time.perf_counter() - began) * 1000)
                polls += 1
                sent += len(request)
                received += size
                not_modified += status == 304
                time.sleep(POLL)
            sock.close()
            writer.join()
        finally:
            proc.terminate()
            proc.wait(10)
    minutes = args.seconds / 60
    times.sort()
    print(json.dumps({"table_hands": args.hands, "poll_seconds": POLL, "requests_per_minute": round(polls / minutes, 1),
                      "not_modified": not_modified, "full_answers": polls - not_modified,
                      "bytes_sent_per_minute": round(sent / minutes), "bytes_received_per_minute": round(received / minutes),
                      "poll_ms_p50": round(statistics.median(times), 2),
                      "poll_ms_p99": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2)}, indent=1))


if __name__ == "__main__":
    main()
