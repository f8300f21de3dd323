#!/usr/bin/env python3
"""What a write to a table costs as the evening grows (issue 34: a write costs the same at hand 400 as at hand 4):
a hand recorded late in a long evening, an edit of its first hand, an undo and its revert, and `table show`'s
reads, timed at several lengths of one evening.

    python3 bench/ledger_writes.py                 # hands 10, 50, 200, 400 and 1000 of one evening
    python3 bench/ledger_writes.py --hands 400

Records hands from agreed totals, with a draw every fifth hand, through the library in one process (a server
or a long prompt session: the first write of a process also checks the table once, which the CLI pays at every
command). Each figure is milliseconds, the median of --repeat tries; "ledger" is the time less the time spent
scoring hands (`score_input`: the region's scoring, the same at every length), which is what grows if anything
does. Ends with the ratios 1000 : 10 (or --hands : 10). Nothing asserts on time; a fresh ledger in a temporary
directory.
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
from mjcalc.evening import record as recording  # noqa: E402
from mjcalc.situation import Situation  # noqa: E402

scoring = [0.0]  # seconds spent in score_input since the last reset
_score_input = recording.score_input


def _timed_score_input(*args, **kwargs):
    start = time.perf_counter()
    try:
        return _score_input(*args, **kwargs)
    finally:
        scoring[0] += time.perf_counter() - start


recording.score_input = _timed_score_input


def timed(func, repeat):
    """(median ms, median ms less scoring) of `repeat` calls."""
    times, ledger_times = [], []
    for _ in range(repeat):
        scoring[0] = 0.0
        start = time.perf_counter()
        func()
        spent = time.perf_counter() - start
        times.append(spent * 1000)
        ledger_times.append((spent - scoring[0]) * 1000)
    return statistics.median(times), statistics.median(ledger_times)


def paired(write, back, repeat):
    """A write and what takes it back, `repeat` times: the medians of the write (ms), of its ledger part (less
    the scoring) and of taking it back."""
    writes, ledger_parts, backs = [], [], []
    for _ in range(repeat):
        scoring[0] = 0.0
        start = time.perf_counter()
        done = write()
        spent = time.perf_counter() - start
        writes.append(spent * 1000)
        ledger_parts.append((spent - scoring[0]) * 1000)
        start = time.perf_counter()
        back(done)
        backs.append((time.perf_counter() - start) * 1000)
    return statistics.median(writes), statistics.median(ledger_parts), statistics.median(backs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    marks = sorted({10, 50, 200, 400, args.hands} - {0})
    marks = [m for m in marks if m <= args.hands]
    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(Path(folder) / "bench.sqlite3")
        t = evening.create_table(ledger, "bench", "beijing", dict(zip("ESWN", "abcd")))
        print(f"{'hands':>6} {'record':>7} {'ledger':>7} {'undo':>7} {'edit #1':>8} {'ledger':>7} "
              f"{'revert':>7} {'show':>6}   (ms, median of {args.repeat})")
        count = 0
        for mark in marks:
            while count < mark - 1:
                count += 1
                if count % 5 == 0:
                    evening.record_draw(ledger, t)
                else:
                    evening.record_quick(ledger, t, Situation(seat="ESWN"[count % 4]), total=2 + count % 3)
            seat = "ESWN"[count % 4]
            def record(seat=seat):
                evening.record_quick(ledger, t, Situation(seat=seat), total=2)

            def undo():
                evening.undo_hand(ledger, t, ledger.last_hand(t))

            def edit():
                return evening.edit_hand(ledger, t, 1, evening.hand_input(None, Situation(seat="S"), total=3))

            write, write_ledger, undone = paired(record, lambda _: undo(), args.repeat)
            edit_ms, edit_ledger, revert = paired(edit, lambda e: evening.revert_event(ledger, t, e.table.revision),
                                                  args.repeat)
            show, _ = timed(lambda: (ledger.hands(t), ledger.standings(t)), args.repeat)
            rows[mark] = (write, write_ledger, undone, edit_ms, edit_ledger)
            print(f"{mark:>6} {write:>7.1f} {write_ledger:>7.1f} {undone:>7.1f} {edit_ms:>8.1f} {edit_ledger:>7.1f} "
                  f"{revert:>7.1f} {show:>6.1f}")
            evening.record_quick(ledger, t, Situation(seat=seat), total=2)
            count += 1
        print(f"log: {len(ledger.events(t))} events for {len(ledger.hands(t))} hands")
    first, last = rows[marks[0]], rows[marks[-1]]
    print(f"ratio {marks[-1]} : {marks[0]} hands — record {last[0] / first[0]:.2f}× (ledger part "
          f"{last[1] / first[1]:.2f}×), undo of the last hand {last[2] / first[2]:.2f}×, edit of hand 1 "
          f"{last[3] / first[3]:.2f}×")


if __name__ == "__main__":
    main()
