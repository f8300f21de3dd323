#!/usr/bin/env python3
"""The work cap of `advise --by win|value` (issue 37): random 14-tile hands in every built-in ruleset, the worst.

    python3 bench/advice_cap.py                           # 2,000 hands a ruleset, both objectives, one worker
    python3 bench/advice_cap.py --hands 50 --rulesets beijing,zhuji --workers 2 --processes 5

Each hand is 14 tiles dealt at random from the ruleset's wall (a first-turn hand: most are 3 to 5 from ready). Where
the ruleset plays wildcards, three deals in four have them: beijing's rulesets and shangrao turn up a tile from the
rest of the wall (`--indicator`; the next kind is wild), zhuji names one or two kinds at random (`--wild`); so some
hands hold wildcards, as at the table; 国标's flowers drawn are set aside beside the hand. Every hand goes through the
CLI's own command (`mjcalc advise HAND --by win|value --json`, click's runner, in this process): CPU seconds by
time.process_time (the machine is shared: CPU, not wall), the work the engine counted (`work` in the JSON) and the
discards the cap narrowed. Peak memory: the process's peak RSS (resource.getrusage) after each ruleset, an upper
bound of any one hand's, whose memo tables are dropped after it. Then the `--processes` worst hands by CPU are run
again as whole processes (`python -m mjcalc advise ...`), as a user runs them: their CPU (user + system of the
child) and peak RSS (os.wait4), start-up included; start-up alone (`mjcalc --help`) is measured once. Printed: for
each ruleset and objective the median, p99 and max CPU and work, the share of hands narrowed; the worst hands with
their figures. Issue 37's targets: every hand at most 1 s of CPU and 300 MB in the CLI. Nothing asserts on time.
"""
import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from click.testing import CliRunner  # noqa: E402

from mjcalc.cli import cli  # noqa: E402
from mjcalc.ruleset import builtin_rulesets, load_ruleset  # noqa: E402
from mjcalc.tiles import NAMES, NUM_KINDS, next_in_cycle  # noqa: E402

OBJECTIVES = ("value", "win")


def deal(rng, rules, mid=False):
    """One hand: the CLI's arguments after `advise` (the hand, the ruleset, its wildcards if any, and for a
    mid-deal hand its melds, the tiles seen and the draws left)."""
    copies = rules.wall.copies
    # the wall's flowers: 广东's ghosts (`*`, its wildcards), else 国标's 花牌, set aside beside the hand when drawn
    flowers = ["*"] * rules.wall.flowers if rules.wild_kinds else [f"f{n}" for n in range(1, rules.wall.flowers + 1)]
    wall = [NAMES[k] for k in range(NUM_KINDS) for _ in range(copies[k])] + flowers
    rng.shuffle(wall)
    flags, wild = [], set(rules.fixed_wild)
    if rules.wild_kinds and not rules.fixed_wild and not rules.wall.flowers and rng.random() < 0.75:
        if rules.region == "zhuji":
            named = rng.sample(range(NUM_KINDS), rng.randint(1, rules.wild_kinds))
            flags += ["--wild", ",".join(NAMES[k] for k in named)]
            wild |= set(named)
        else:
            turned = wall.pop()  # turned up from the rest of the wall; the next kind is wild
            flags += ["--indicator", turned]
            wild.add(next_in_cycle(NAMES.index(turned)))
    melds = []
    if mid:  # one or two pungs claimed, 6 to 40 tiles seen, 2 to 12 draws left
        for _ in range(rng.randint(1, 2)):
            kinds = [t for t in set(wall) if t in NAMES and NAMES.index(t) not in wild and wall.count(t) >= 3]
            kind = rng.choice(sorted(kinds))
            for _ in range(3):
                wall.remove(kind)
            melds.append(f"[{kind * 3}]" if len(kind) == 1 else f"[{kind[0] * 3}{kind[1]}]")
    size = 14 - 3 * len(melds)
    taken = 0
    while sum(t[0] != "f" for t in wall[:taken]) < size:  # a flower drawn is set aside and replaced
        taken += 1
    hand = sorted((t for t in wall[:taken] if t[0] != "f"), key=lambda t: (t == "*", t[::-1]))
    beside = sorted(t for t in wall[:taken] if t[0] == "f")
    argv = [" ".join(melds + hand + beside), "-r", rules.id] + flags
    if mid:
        seen = [t for t in wall[taken:taken + rng.randint(6, 40)] if t in NAMES]
        argv += ["--seen", " ".join(seen), "--draws", str(rng.randint(2, 12))]
    return argv


def run_hand(argv, by):
    """One hand through the CLI in this process: (CPU seconds, the JSON's work, discards narrowed, figures)."""
    begun = time.process_time()
    done = CliRunner().invoke(cli, ["advise"] + argv + ["--by", by, "--json"])
    cpu = time.process_time() - begun
    if done.exit_code:
        return cpu, None, None, (done.stdout or str(done.exception)).strip()[:80]
    data = json.loads(done.stdout)
    best = data["ranked"][0] if data["ranked"] else None
    row = next((r for r in data["discards"] if r["discard"] == best), None)
    figures = f"{best}{'' if row and row['exact'] else ' ~'} P {row['p_win']:.3f} E {row['expected']:.2f}" if row else "-"
    return cpu, data["work"], len(data["narrowed"]), f"shanten {data['shanten']}, best {figures}"


def shard(job):
    """A worker's share: (ruleset id, seed, first hand, hands) → rows and the worker's peak RSS (MB)."""
    rid, seed, first, count = job
    rules = load_ruleset(rid)
    rows = []
    for n in range(first, first + count):
        rng = random.Random(f"{seed}-{rid}-{n}")
        argv = deal(rng, rules, mid=n % 2 == 1)
        for by in OBJECTIVES:
            cpu, work, narrowed, said = run_hand(argv, by)
            rows.append((rid, by, n, argv, cpu, work, narrowed, said))
    return rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def whole_process(argv):
    """The CLI as a user runs it: (CPU seconds of the child, its peak RSS in MB)."""
    child = subprocess.Popen([sys.executable, "-m", "mjcalc"] + argv, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=ROOT)
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2000, help="hands a ruleset (default 2000), each by win and value")
    ap.add_argument("--rulesets", help="comma-separated ids (default: every built-in ruleset)")
    ap.add_argument("--seed", default="37")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--processes", type=int, default=10, help="worst hands re-run as whole processes (default 10)")
    ap.add_argument("--worst", type=int, default=5, help="worst hands printed a ruleset and objective (default 5)")
    args = ap.parse_args()
    ids = args.rulesets.split(",") if args.rulesets else [r.id for r in builtin_rulesets()]
    chunk = max(1, -(-args.hands // (4 * args.workers)))
    jobs = [(rid, args.seed, first, min(chunk, args.hands - first)) for rid in ids
            for first in range(0, args.hands, chunk)]
    rows, peak = [], {}
    with ProcessPoolExecutor(args.workers) as pool:
        for job, (got, rss) in zip(jobs, pool.map(shard, jobs)):
            rows += got
            peak[job[0]] = max(peak.get(job[0], 0.0), rss)
    print(f"{args.hands} hands a ruleset, {len(rows)} answers, seed {args.seed!r}, {args.workers} worker(s); "
          "CPU seconds in process (the CLI's command, start-up excluded)\n")
    print(f"{'ruleset':17} {'by':5} {'median':>7} {'p99':>7} {'max':>7} {'work med':>9} {'work max':>9} "
          f"{'narrowed':>9} {'refused':>8} {'peak RSS':>9}")
    for rid in ids:
        for by in OBJECTIVES:
            mine = [r for r in rows if r[0] == rid and r[1] == by]
            ok = [r for r in mine if r[5] is not None]
            cpus, works = [r[4] for r in ok], [r[5] for r in ok]
            narrowed = sum(1 for r in ok if r[6])
            print(f"{rid:17} {by:5} {statistics.median(cpus):7.3f} {pct(cpus, 0.99):7.3f} {max(cpus):7.3f} "
                  f"{statistics.median(works):9.0f} {max(works):9.0f} {narrowed / len(ok):9.1%} "
                  f"{len(mine) - len(ok):8} {peak[rid]:7.0f} MB")
    refused: dict = {}
    for r in rows:
        if r[5] is None:
            refused.setdefault((r[0], r[7]), []).append(r)
    for (rid, said), mine in refused.items():
        r = mine[0]
        print(f"refused {len(mine)} answers in {rid}: {said}; e.g. advise "
              f"{' '.join(repr(a) if ' ' in a else a for a in r[3])} --by {r[1]}")
    print("\nthe worst hands in process (CPU s, work, discards narrowed):")
    for rid in ids:
        for by in OBJECTIVES:
            mine = sorted((r for r in rows if r[0] == rid and r[1] == by and r[5] is not None), key=lambda r: -r[4])
            for r in mine[:args.worst]:
                print(f"  {r[4]:6.3f} {r[5]:7} {r[6]:3}  advise {' '.join(repr(a) if ' ' in a else a for a in r[3])}"
                      f" --by {by}: {r[7]}")
    empty = [whole_process(["--help"]) for _ in range(3)]
    print(f"\nstart-up alone (mjcalc --help, whole process, median of 3): CPU {statistics.median(e[0] for e in empty):.3f} s, "
          f"peak RSS {statistics.median(e[1] for e in empty):.0f} MB")
    worst = sorted((r for r in rows if r[5] is not None), key=lambda r: -r[4])[:args.processes]
    worst += sorted((r for r in rows if r[5] is not None and r not in worst), key=lambda r: -r[5])[:args.processes]
    print(f"the {len(worst)} worst hands by CPU, then by work, as whole processes (CPU s, peak RSS):")
    outs = []
    for r in worst:
        cpu, rss = whole_process(["advise"] + r[3] + ["--by", r[1]])
        outs.append((cpu, rss))
        print(f"  {cpu:6.3f} s {rss:5.0f} MB  advise {' '.join(repr(a) if ' ' in a else a for a in r[3])} --by {r[1]}")
    if outs:
        print(f"worst whole process: CPU {max(o[0] for o in outs):.3f} s, peak RSS {max(o[1] for o in outs):.0f} MB "
              "(issue 37's targets: 1 s, 300 MB)")


if __name__ == "__main__":
    main()
