#!/usr/bin/env python3
"""What a write to a table costs as the evening grows: every write replays the table's log (issue 21), so a hand
recorded late in a long evening, an edit of its first hand and `table show` are timed at several lengths.

    python3 bench/ledger_writes.py                 # hands 1, 50, 200 and 400 of one evening
    python3 bench/ledger_writes.py --hands 800

Records hands from agreed totals (the scoring is the same at every length, so what grows is the ledger's part),
with a draw every fifth hand. Prints milliseconds (median of --repeat tries) at each length; nothing asserts
on time. Uses a fresh ledger in a temporary directory.
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjcalc import evening  # noqa: E402
from mjcalc.evening import Ledger  # noqa: E402
from mjcalc.situation import Situation  # noqa: E402


def timed(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    marks = sorted({1, 50, 200, args.hands} - {0})
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(Path(folder) / "bench.sqlite3")
        t = evening.create_table(ledger, "bench", "beijing", dict(zip("ESWN", "abcd")))
        print(f"{'hands':>6} {'record':>9} {'edit #1':>9} {'undo+revert':>12} {'show':>8}   (ms, median of "
              f"{args.repeat})")
        count = 0
        for mark in marks:
            while count < mark - 1:
                count += 1
                if count % 5 == 0:
                    evening.record_draw(ledger, t)
                else:
                    evening.record_quick(ledger, t, Situation(seat="ESWN"[count % 4]), total=1 + count % 3)
            seat = "ESWN"[count % 4]

            def record(seat=seat):
                evening.record_quick(ledger, t, Situation(seat=seat), total=2)
                evening.undo_hand(ledger, t, ledger.last_hand(t))

            write = timed(record, args.repeat) / 2  # a record and an undo: each a write of the same size
            first = ledger.hands(t)[0] if ledger.hands(t) else None
            edit = revert = show = float("nan")
            if first is not None:
                edit = timed(lambda: evening.revert_event(ledger, t, evening.edit_hand(
                    ledger, t, 1, evening.hand_input(None, Situation(seat="S"), total=3)).table.revision),
                    args.repeat) / 2
                revert = timed(lambda: evening.revert_event(ledger, t, evening.undo_hand(
                    ledger, t, 1).table.revision), args.repeat) / 2
                show = timed(lambda: (ledger.hands(t), ledger.standings(t)), args.repeat)
            print(f"{mark:>6} {write:>9.1f} {edit:>9.1f} {revert:>12.1f} {show:>8.1f}")
            evening.record_quick(ledger, t, Situation(seat=seat), total=2)
            count += 1
        print(f"log: {len(ledger.events(t))} events for {len(ledger.hands(t))} hands")


if __name__ == "__main__":
    main()
