#!/usr/bin/env python3
"""Time `mjcalc waits --batch` against its peers, as whole processes, and check the answers agree.

    python3 bench/run.py                       # peers venv at ../peers/venv, mjcalc from a fresh venv
    python3 bench/run.py --mjcalc .venv/bin/mjcalc --repeat 9

See bench/README.md. Nothing here asserts on seconds: the machines are shared and noisy, so every program is
run --repeat times in turn (round robin), and the table shows medians of wall and CPU time and their ratios.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
HONORS = "ESWNCFP"
ORPHANS = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}
NAMES = [f"{t % 9 + 1}{'mps'[t // 9]}" for t in range(27)] + list(HONORS)
ANALYZE_HAND = "123m456p789s EE 45m"


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers-venv", type=Path, default=Path(os.environ.get("MJCALC_PEERS_VENV", REPO.parent / "peers" / "venv")),
                    help="a venv with mahjong and xiangting (default: $MJCALC_PEERS_VENV or ../peers/venv)")
    ap.add_argument("--setup-peers", action="store_true",
                    help="create --peers-venv with `python3 -m venv` + `pip install mahjong xiangting` if missing")
    ap.add_argument("--mjcalc", type=Path,
                    help="the mjcalc executable to time (default: install this repo into a fresh temporary venv)")
    ap.add_argument("--hands", type=int, default=20000, help="hands in the main batch (default 20000, seed 1)")
    ap.add_argument("--wild-hands", type=int, default=2000, help="hands in the wildcard batch (default 2000, seed 3)")
    ap.add_argument("--repeat", type=int, default=7, help="runs of each program (default 7); medians are shown")
    ap.add_argument("--work", type=Path, help="keep hands and outputs here (default: a temporary directory)")
    return ap.parse_args()


def setup_peers(venv: Path, create: bool) -> Path:
    python = venv / "bin" / "python"
    if python.exists():
        return python
    if not create:
        sys.exit(f"no peers venv at {venv}: pass --setup-peers to create it, or --peers-venv PATH")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "mahjong", "xiangting"], check=True)
    return python


def install_mjcalc(work: Path) -> Path:
    """A fresh venv with this repository installed non-editable (the system python's site is slow to start)."""
    venv = work / "mjcalc-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(REPO)], check=True)
    return venv / "bin" / "mjcalc"


def run_once(argv, out_path):
    """(wall seconds, CPU seconds of the child, exit code) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        code = subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL).returncode
        wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), code


def counts_of(text):
    counts, digits = [0] * 34, []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mps":
            for d in digits:
                counts["mps".index(ch) * 9 + d - 1] += 1
            digits = []
        elif ch in HONORS:
            counts[27 + HONORS.index(ch)] += 1
    return counts


def compare(hands_file, ours_file, peer_file):
    """(agreeing lines, known differences by kind, unexplained line numbers) between two waits outputs."""
    hands = Path(hands_file).read_text().splitlines()
    ours = ["" if line == "-" else line for line in Path(ours_file).read_text().splitlines()]  # "-": no waits
    theirs = Path(peer_file).read_text().splitlines()
    same, known, unexplained = 0, {"seven pairs with four of a kind": 0, "thirteen orphans": 0}, []
    for number, (hand, a, b) in enumerate(zip(hands, ours, theirs), 1):
        if a == b:
            same += 1
            continue
        counts = counts_of(hand)
        ours_only, theirs_only = set(a.split()) - set(b.split()), set(b.split()) - set(a.split())
        if theirs_only and not ours_only and all(counts[t] == 0 or t in ORPHANS for t in range(34)):
            known["thirteen orphans"] += 1  # 十三幺 is not a shape of the default ruleset (beijing)
        elif ours_only and not theirs_only and max(counts) >= 3 and sum(n % 2 for n in counts) <= 2:
            known["seven pairs with four of a kind"] += 1  # the peers refuse four identical tiles as two pairs
        else:
            unexplained.append(number)
    if len(hands) != len(ours) or len(ours) != len(theirs):
        unexplained.append(f"line counts {len(hands)}/{len(ours)}/{len(theirs)}")
    return same, known, unexplained


EIGHT_WILD_TIMER = r"""
import sys, time
t0 = time.perf_counter()
from mjcalc.batch import BatchWaits
from mjcalc.situation import Situation
from mjcalc.ruleset import load_ruleset
finder = BatchWaits(load_ruleset("zhuji"), Situation())  # zhuji plays 8 财神; beijing at most 4 惠
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
took = []
from mjcalc.errors import MjcalcError
for line in lines:
    start = time.perf_counter()
    try:
        finder.waits_of(line)
    except MjcalcError:  # more than 8 (the generator adds 8 to hands that may hold some): refused, timed too
        pass
    took.append(time.perf_counter() - start)
rest = sorted(took[1:])
print(f"{took[0] * 1e3:.3f} {rest[len(rest) // 2] * 1e3:.3f} {rest[-1] * 1e3:.3f} {len(lines)}")
"""


def main():
    args = parse_args()
    gen = HERE / "hands.py"
    peer = str(HERE / "peer_waits.py")
    peers_python = setup_peers(args.peers_venv, args.setup_peers)
    tmp = tempfile.TemporaryDirectory(prefix="mjcalc-bench-")
    work = args.work or Path(tmp.name)
    work.mkdir(parents=True, exist_ok=True)
    mjcalc = args.mjcalc.resolve() if args.mjcalc else install_mjcalc(work)
    mj_python = mjcalc.parent / "python"

    hands = work / "hands.txt"
    wild = work / "hands-wild4.txt"
    eight = work / "hands-wild8.txt"
    empty = work / "empty.txt"
    with open(hands, "w") as f:
        subprocess.run([sys.executable, str(gen), str(args.hands), "1"], stdout=f, check=True)
    with open(wild, "w") as f:
        subprocess.run([sys.executable, str(gen), str(args.wild_hands), "3", "--wild", "4", "--wild-kind", "C"],
                       stdout=f, check=True)
    # 8 wildcards: one kind has only 4 tiles, so they are written `*` (faceless, no --wild)
    eight_text = subprocess.run([sys.executable, str(gen), "500", "5", "--wild", "8", "--wild-kind", "C"],
                                capture_output=True, text=True, check=True).stdout
    eight.write_text(eight_text.replace("C", "*"))
    empty.write_text("")

    programs = {
        "mahjong peer": [str(peers_python), peer, "mahjong", str(hands)],
        "xiangting peer": [str(peers_python), peer, "xiangting", str(hands)],
        "mjcalc batch": [str(mjcalc), "waits", "--batch", str(hands)],
        # beijing-money: beijing's 四惠牌 wins any hand holding four 惠 on every tile, so its answer for these
        # hands (each holds four C) is the tiles left, not a search of shapes; this ruleset has the shapes alone
        "mjcalc wild batch": [str(mjcalc), "waits", "--batch", str(wild), "--wild", "C", "-r", "beijing-money"],
        "mjcalc empty batch": [str(mjcalc), "waits", "--batch", str(empty)],
        "mjcalc analyze": [str(mjcalc), "analyze", ANALYZE_HAND],
        "import click,yaml,tabulate": [str(mj_python), "-c", "import click, yaml, tabulate"],
    }
    times = {name: [] for name in programs}
    for _ in range(args.repeat):
        for name, argv in programs.items():
            wall, cpu, code = run_once(argv, work / (name.replace(" ", "_").replace(",", "_") + ".out"))
            times[name].append((wall, cpu))
    med = {name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for name, t in times.items()}

    print(f"mjcalc: {mjcalc}\npeers:  {peers_python}\n{args.repeat} runs each, round robin; medians\n")
    print(f"{'program':28} {'wall s':>8} {'cpu s':>8}   {'min..max wall':>15}")
    for name, (wall, cpu) in med.items():
        walls = [w for w, _ in times[name]]
        print(f"{name:28} {wall:8.3f} {cpu:8.3f}   {min(walls):6.3f}..{max(walls):6.3f}")

    def ratio(a, b, i):
        return med[a][i] / med[b][i]

    per_plain = med["mjcalc batch"][0] / args.hands
    per_wild = med["mjcalc wild batch"][0] / args.wild_hands
    startup = med["mjcalc empty batch"][0]
    print("\nratios (wall; cpu)")
    print(f"  mahjong / mjcalc batch          {ratio('mahjong peer', 'mjcalc batch', 0):6.2f}x; "
          f"{ratio('mahjong peer', 'mjcalc batch', 1):6.2f}x   (target: at least 5x)")
    print(f"  mjcalc batch / xiangting        {ratio('mjcalc batch', 'xiangting peer', 0):6.2f}x; "
          f"{ratio('mjcalc batch', 'xiangting peer', 1):6.2f}x   (goal: within 2x)")
    print(f"  wild / plain, per hand          {per_wild / per_plain:6.2f}x   whole processes (target: at most 5x)")
    print(f"  wild / plain, per hand, minus the empty batch's startup "
          f"{(med['mjcalc wild batch'][0] - startup) / args.wild_hands / ((med['mjcalc batch'][0] - startup) / args.hands):6.2f}x")
    print(f"  analyze / import click,yaml,tabulate {ratio('mjcalc analyze', 'import click,yaml,tabulate', 0):6.2f}x; "
          f"{ratio('mjcalc analyze', 'import click,yaml,tabulate', 1):6.2f}x   (target: at most 1.5x)")
    print(f"  per hand: plain {per_plain * 1e6:.1f} us, wild {per_wild * 1e6:.1f} us (whole process / hands)")

    timed = subprocess.run([str(mj_python), "-c", EIGHT_WILD_TIMER, str(eight)], capture_output=True, text=True)
    if timed.returncode == 0:
        first, median, worst, n = timed.stdout.split()
        print(f"  8 wildcards, one hand at a time (full parser + WaitFinder, in process): the first {first} ms "
              f"(lazy imports and the table included), then median {median} ms, slowest {worst} ms of {n} "
              f"(target: under 20 ms)")
    else:
        print(f"  8 wildcards: timer failed: {timed.stderr.strip().splitlines()[-1:]}")

    print("\nanswers (mjcalc batch vs peers, same 20000 hands)")
    ours = work / "mjcalc_batch.out"
    for peer in ("mahjong peer", "xiangting peer"):
        same, known, unexplained = compare(hands, ours, work / (peer.replace(" ", "_") + ".out"))
        known_text = ", ".join(f"{n} {k}" for k, n in known.items())
        print(f"  {peer:15} {same} lines agree; known differences: {known_text}; "
              f"unexplained: {len(unexplained)}" + (f" (lines {unexplained[:10]})" if unexplained else ""))


if __name__ == "__main__":
    main()
