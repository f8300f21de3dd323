#!/usr/bin/env python3
"""Time discard advice (`mjcalc advise`) for 14-tile hands with 4 wildcards, in process, and print the figures.

    python3 bench/advise.py                 # 200 random hands, 5 repeats each
    python3 bench/advise.py --hands 50 --repeat 9 --seed 7

Three figures per hand, median and worst over the hands (each hand's time is its median over --repeat runs):

* rank: `shanten.discards` alone: every discard's shanten and improving tiles (the advice proper);
* advise: `shanten.advise` without scoring waits (adds parsing the ruleset's view of the hand, --seen checks);
* scored: `shanten.advise` with every ready discard's waits scored both ways (self-draw and discard), which
  reuses the scoring engine and grows with the number of waits.

Caches are warm after the first repeat; the "cold" column is each hand's first run. Nothing here asserts on
time: the machine is shared and noisy.
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from mjcalc.hand import Hand  # noqa: E402
from mjcalc.situation import Situation  # noqa: E402
from mjcalc.ruleset import load_ruleset  # noqa: E402
from mjcalc.scoring import prepare  # noqa: E402
from mjcalc.advice import advise  # noqa: E402
from mjcalc.shanten import discards  # noqa: E402
from mjcalc.tiles import NAMES  # noqa: E402

WILD_KIND = 4  # 5m


def random_hand(rng):
    """14 tiles: 4 copies of the wild kind 5m and 10 other tiles, at most 4 of a kind."""
    counts = [0] * 34
    tiles = []
    while len(tiles) < 10:
        t = rng.randrange(34)
        if t != WILD_KIND and counts[t] < 4:
            counts[t] += 1
            tiles.append(t)
    return Hand(tuple(sorted(tiles + [WILD_KIND] * 3)), (), WILD_KIND)


def timed(fn, repeat):
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return runs[0], statistics.median(runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="beijing")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rules = load_ruleset(args.ruleset)
    situation = Situation(wild=(WILD_KIND,))
    figures = {"rank": [], "advise": [], "scored": []}
    cold = {"rank": [], "advise": [], "scored": []}
    worst = {}
    for _ in range(args.hands):
        hand = random_hand(rng)
        tiles = prepare(hand, (WILD_KIND,))
        jobs = {
            "rank": lambda t=tiles: discards(t.naturals, t.wilds, t.melds, rules.shapes, (WILD_KIND,), t.held),
            "advise": lambda h=hand: advise(h, rules, situation, score_waits=False),
            "scored": lambda h=hand: advise(h, rules, situation),
        }
        for name, job in jobs.items():
            first, median = timed(job, args.repeat)
            cold[name].append(first)
            figures[name].append(median)
            if median >= worst.get(name, (0, None))[0]:
                worst[name] = (median, hand)
    print(f"{args.hands} hands of 14 tiles with 4 wildcards (5m wild, {args.ruleset}), {args.repeat} runs each; ms")
    print(f"{'':8}{'median':>10}{'p90':>10}{'worst':>10}{'cold med':>10}{'cold worst':>12}")
    for name, values in figures.items():
        ms = sorted(v * 1000 for v in values)
        cms = sorted(v * 1000 for v in cold[name])
        print(f"{name:8}{statistics.median(ms):10.2f}{ms[int(0.9 * (len(ms) - 1))]:10.2f}{ms[-1]:10.2f}"
              f"{statistics.median(cms):10.2f}{cms[-1]:12.2f}")
    for name, (value, hand) in worst.items():
        shown = " ".join(NAMES[t] for t in hand.tiles)
        print(f"worst {name}: {value * 1000:.1f} ms  {shown}")


if __name__ == "__main__":
    main()
