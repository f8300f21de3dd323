#!/usr/bin/env python3
"""Every path to the same hand pays the same money, at bench size: generated won hands of every built-in ruleset
scored from their tiles, then told by their patterns (by id and by Chinese name) and by their total
(tests/told_paths.py), and the answers compared. Prints, per ruleset, the hands compared, how many paid the same
on each path, every refusal by its id, the patterns the hands covered, and hands per second.

    python3 bench/told_paths.py                  # 3,000 hands a ruleset (21,000), seed 1
    python3 bench/told_paths.py --hands 500 --seed 5

The suite runs the same comparison with a fixed seed and fewer hands (tests/test_told.py). Nothing here asserts on
seconds; the exit status is 1 when a path paid differently (a refusal of a flat total is not a difference).
"""
import argparse
import os
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mjcalc.analysis import analyze  # noqa: E402
from mjcalc.notation import parse_hand  # noqa: E402
from mjcalc.ruleset import load_ruleset  # noqa: E402
from told_paths import RULESETS, run  # noqa: E402

REFUSED_BY_RIGHT = {"told.total_like_flat"}  # only a flat pattern's name says the hand is paid flat


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=3000, help="hands a ruleset (default 3000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start = time.process_time()
    compared = run(args.seed, args.hands)
    seconds = time.process_time() - start
    rows = defaultdict(Counter)
    seen = defaultdict(Counter)
    differed = []
    for c in compared:
        row = rows[c.ruleset]
        row["hands"] += 1
        for path in ("by_id", "by_name", "by_total"):
            got = getattr(c, path)
            if got == c.tiles:
                row[path + " same"] += 1
            elif got[0] in ("error", "refused") and path == "by_total" and got[1] in REFUSED_BY_RIGHT:
                row[f"{path} refused {got[1]}"] += 1
            else:
                row[f"{path} DIFFERENT"] += 1
                differed.append((c.ruleset, path, c.hand, c.situation.fields(), c.tiles, got))
        rules = load_ruleset(c.ruleset)
        seen[c.ruleset].update(m.pattern_id for m in analyze(parse_hand(c.hand), rules, c.situation).score.matches)
    print(f"seed {args.seed}: {len(compared)} won hands compared, each told three ways, in {seconds:.1f} s of CPU "
          f"({len(compared) / max(seconds, 1e-9):.0f} hands/s, the tiles path included)")
    print()
    print(f"{'ruleset':17} {'hands':>6} {'by id':>6} {'by name':>8} {'by total':>9}  refused (why)")
    for rid in RULESETS:
        row = rows[rid]
        refusals = sorted((k, v) for k, v in row.items() if " refused " in k)
        print(f"{rid:17} {row['hands']:6} {row['by_id same']:6} {row['by_name same']:8} {row['by_total same']:9}  "
              + ", ".join(f"{k.split(' refused ')[0]} {k.split(' refused ')[1]} ×{v}" for k, v in refusals))
    print()
    for rid in RULESETS:
        patterns = load_ruleset(rid).patterns
        missing = [p.zh for p in patterns if not seen[rid][p.id]]
        print(f"{rid:17} patterns among the hands: {len(patterns) - len(missing)}/{len(patterns)}"
              + (f" (not seen: {', '.join(missing)})" if missing else ""))
    if differed:
        print(f"\n{len(differed)} answers paid differently; the first:")
        for row in differed[:10]:
            print("  ", row)
        sys.exit(1)
    print("\nevery path paid what the tiles pay (or refused a flat total)")


if __name__ == "__main__":
    main()
