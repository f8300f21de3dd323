#!/usr/bin/env python3
"""Time `mjcalc advise HAND --by value` (issue 15) as whole processes, and the engine in process; print figures.

    python3 bench/advise_value.py                       # 5 hands per row, beijing, zhuji, shangrao
    python3 bench/advise_value.py --hands 10 --seed 3 --rulesets beijing

Rows: hands whose best discard leaves them ready (0), 1 from ready with 0, 2 and 4 wildcards (5m wild),
and 2 from ready with 0 and 3, 8 draws (the default); with `--exact`, `advise ... --exact` on hands holding 1, 2
or 4 wildcards, ready and 1 from ready (the exchanges of wildcard hands weighed). Each hand is a fresh process (`python -m mjcalc advise ...
--by value`), so the figures include start-up: wall time, and CPU time (user + system; steadier on a shared
machine). `advise` without --by on the same hands is the floor (start-up, parsing, the shanten ranking), wall
and CPU. "engine" is `value.advise_value` alone, in process, CPU time: its own memos fresh for each hand, the library's
module caches warm from the hands before. Start-up includes compiling mjcalc's modules when their bytecode is
not cached (PYTHONDONTWRITEBYTECODE set and no __pycache__, as in a fresh checkout here; an installed mjcalc
has it): the first line says which, and `--compile` writes the bytecode (python -m compileall) first.
`--python PATH` times the mjcalc installed for that interpreter (a non-editable install), processes started
outside the checkout; the in-process "engine" column is still this checkout's. The targets of issue 15 (whole process, 2 cores): ready < 0.2 s, 1 from ready with up to 4
wildcards < 2 s, 2 from ready < 10 s. Nothing here asserts on time: the machine is shared and noisy.
"""
import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mjcalc.hand import Hand  # noqa: E402
from mjcalc.ruleset import load_ruleset  # noqa: E402
from mjcalc.shanten import shanten  # noqa: E402
from mjcalc.situation import Situation  # noqa: E402
from mjcalc.tiles import format_tiles  # noqa: E402
from mjcalc.value import advise_value  # noqa: E402

WILD = 4  # 5m
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def hand_at(rng, target, wilds, shapes):
    """14 closed tiles whose best discard leaves them `target` from ready: four sets and a pair with
    `target + 1` tiles replaced at random, `wilds` of them made 5m (wild)."""
    wild_kinds = (WILD,) if wilds else ()
    while True:
        tiles = []
        for _ in range(4):
            if rng.random() < 0.6:
                low = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [low, low + 1, low + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        rng.shuffle(tiles)
        for i in range(target + 1):
            tiles[i] = rng.randrange(34)
        tiles = [t for t in tiles if t != WILD][:14 - wilds]
        while len(tiles) < 14 - wilds:
            tiles.append(rng.choice([t for t in range(34) if t != WILD]))
        tiles += [WILD] * wilds
        counts = [tiles.count(t) for t in range(34)]
        if max(counts) > 4:
            continue
        naturals = [0 if t in wild_kinds else n for t, n in enumerate(counts)]
        if shanten(naturals, counts[WILD] if wilds else 0, 0, shapes) == target:
            return Hand(tuple(sorted(tiles)))


def _bytecode_cached() -> bool:
    """Whether every mjcalc module has bytecode as new as its source (else Python compiles it at each start)."""
    import importlib.util
    for folder, _, files in os.walk(os.path.join(ROOT, "mjcalc")):
        for name in files:
            if name.endswith(".py"):
                source = os.path.join(folder, name)
                cached = importlib.util.cache_from_source(source)
                if not os.path.exists(cached) or os.path.getmtime(cached) < os.path.getmtime(source):
                    return False
    return True


def _cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


PYTHON = [sys.executable]  # --python: another interpreter, whose installed mjcalc is timed
CWD = [ROOT]


def run(args):
    """(wall, CPU) seconds of one process `python -m mjcalc ARGS`."""
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run([PYTHON[0], "-m", "mjcalc"] + args, cwd=CWD[0], capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"mjcalc {' '.join(args)}: exit {done.returncode}: {done.stderr}")
    return took, _cpu() - cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5, help="hands per row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default="beijing,zhuji,shangrao")
    ap.add_argument("--draws", type=int, default=8)
    ap.add_argument("--compile", action="store_true", help="write the checkout's mjcalc bytecode first (as an install "
                    "does; with --python, compile the installed package with its python -m compileall)")
    ap.add_argument("--python", help="the interpreter whose mjcalc the processes run (an installed, non-editable "
                    "one; they start outside the checkout so that it is the one imported); default: this one, the "
                    "checkout's mjcalc")
    ap.add_argument("--exact", action="store_true", help="time `--exact` (the exchanges of wildcard hands weighed) "
                    "on hands holding wildcards, ready and 1 from ready, instead of the default rows")
    args = ap.parse_args()
    if args.python:
        PYTHON[0], CWD[0] = args.python, os.path.expanduser("~")
        found = subprocess.run([args.python, "-c", "import mjcalc, os; print(os.path.dirname(mjcalc.__file__))"],
                               cwd=CWD[0], capture_output=True, text=True)
        if found.returncode:
            raise SystemExit(f"{args.python}: no mjcalc to import: {found.stderr.strip()}")
        print(f"processes: {args.python}, mjcalc from {found.stdout.strip()}")
        if args.compile:
            subprocess.run([args.python, "-m", "compileall", "-q", found.stdout.strip()], check=True,
                           stdout=subprocess.DEVNULL)
    if args.compile and not args.python:
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "mjcalc")], check=True,
                       stdout=subprocess.DEVNULL)
    rows = [("ready", 0, 0), ("1 from ready", 1, 0), ("1 from ready, 2 wild", 1, 2), ("1 from ready, 4 wild", 1, 4),
            ("2 from ready", 2, 0), ("2 from ready, 3 wild", 2, 3)]
    exact = ["--exact"] if args.exact else []
    if args.exact:
        rows = [("ready, 1 wild", 0, 1), ("ready, 2 wild", 0, 2), ("1 from ready, 1 wild", 1, 1),
                ("1 from ready, 2 wild", 1, 2), ("1 from ready, 4 wild", 1, 4)]
    print(f"advise --by value --draws {args.draws}; {args.hands} hands a row; seconds (wall, CPU as marked); Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"load average {os.getloadavg()[0]:.1f} at the start (wall times stretch when it exceeds the CPUs); "
          f"mjcalc's bytecode {'installed' if args.python else 'cached' if _bytecode_cached() else 'compiled at every start'}")
    print(f"{'ruleset':10}{'hands':22}{'wall med':>9}{'max':>7}{'cpu med':>9}{'max':>7}{'floor':>7}{'cpu':>6}"
          f"{'engine med':>11}{'max':>7}  slowest hand (wall)")
    for name in args.rulesets.split(","):
        rules = load_ruleset(name)
        rng = random.Random(f"{args.seed}-{name}")
        for label, target, wilds in rows:
            whole, cpu, floor, floor_cpu, engine = [], [], [], [], []
            for _ in range(args.hands):
                hand = hand_at(rng, target, wilds, rules.shapes)
                text = format_tiles(hand.tiles)
                extra = ["--wild", "5m"] if wilds else []
                situation = Situation(wild=(WILD,) if wilds else ())
                start = time.process_time()
                advise_value(hand, rules, situation, draws=args.draws, by="value", exact=args.exact)
                engine.append(time.process_time() - start)
                wall, used = run(["advise", text, "-r", name, "--by", "value", "--draws", str(args.draws)] + extra + exact)
                whole.append((wall, text))
                cpu.append(used)
                wall, used = run(["advise", text, "-r", name] + extra)
                floor.append(wall)
                floor_cpu.append(used)
            worst = max(whole)
            print(f"{name:10}{label:22}{statistics.median(t for t, _ in whole):9.2f}{worst[0]:7.2f}"
                  f"{statistics.median(cpu):9.2f}{max(cpu):7.2f}{statistics.median(floor):7.2f}{statistics.median(floor_cpu):6.2f}"
                  f"{statistics.median(engine):11.3f}{max(engine):7.3f}  {worst[1]}" + (" --wild 5m" if wilds else ""))


if __name__ == "__main__":
    main()
