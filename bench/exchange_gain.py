#!/usr/bin/env python3
"""What the exchanges are worth in `advise --by value`: the best discard's expected payout with the narrower
play (a drawn tile kept only when it lowers the shanten) and with one exchange (`--exact`), on generated hands.

    python3 bench/exchange_gain.py                        # beijing, zhuji, shangrao; 0, 1 and 2 wildcards
    python3 bench/exchange_gain.py --hands 4 --draws 8 --rulesets beijing --wilds 2

For each hand: the two figures, the gain in per cent, and the engine's CPU seconds for each (in process).
The per-ruleset lines give the median and range of the gains. Hands as in `advise_value.py` (`hand_at`): the
best discard leaves them 0 or 1 from ready, the wildcards are 5m.
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from advise_value import WILD, hand_at  # noqa: E402
from mjcalc.ruleset import load_ruleset  # noqa: E402
from mjcalc.situation import Situation  # noqa: E402
from mjcalc.tiles import format_tiles  # noqa: E402
from mjcalc.value import Engine  # noqa: E402


def best(hand, rules, situation, draws, exact):
    start = time.process_time()
    engine = Engine(hand, rules, situation, draws=draws, by="value", exact=exact, swaps=1 if exact else 0)
    top = engine.evaluate().discards[0]
    return top.expected, time.process_time() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2, help="hands per ruleset, target and wildcard count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draws", type=int, default=4)
    ap.add_argument("--rulesets", default="beijing,zhuji,shangrao")
    ap.add_argument("--wilds", default="0,1,2", help="wildcards in hand, comma-separated")
    args = ap.parse_args()
    print(f"advise --by value, {args.draws} draws; the best discard's expected payout, narrower play and one "
          "exchange; engine CPU seconds")
    print(f"{'ruleset':10}{'from ready':>11}{'wild':>5}{'narrower':>10}{'exchange':>10}{'gain':>8}{'s':>7}{'s':>7}"
          "  hand")
    for name in args.rulesets.split(","):
        rules = load_ruleset(name)
        rng = random.Random(f"{args.seed}-{name}")
        gains, unpriced = [], 0
        for wilds in (int(w) for w in args.wilds.split(",")):
            if wilds and not rules.wild_kinds:
                continue
            situation = Situation(wild=(WILD,) if wilds else ())
            for target in (0, 1):
                for _ in range(args.hands):
                    hand = hand_at(rng, target, wilds, rules.shapes)
                    low, low_s = best(hand, rules, situation, args.draws, False)
                    high, high_s = best(hand, rules, situation, args.draws, True)
                    if low > 0:
                        gains.append(100 * (high - low) / low)
                        gain = f"{gains[-1]:7.1f}%"
                    else:  # the narrower play cannot win a legal hand: no ratio
                        gain = "    new" if high > 0 else "      -"
                        unpriced += 1
                    print(f"{name:10}{target:>11}{wilds:>5}{low:10.3f}{high:10.3f}{gain}{low_s:7.2f}{high_s:7.2f}"
                          f"  {format_tiles(hand.tiles)}")
        if gains:
            print(f"{name:10} gain median {statistics.median(gains):.1f}%, {min(gains):.1f}-{max(gains):.1f}% "
                  f"over {len(gains)} hands" + (f" ({unpriced} more the narrower play could not win)" if unpriced else ""))


if __name__ == "__main__":
    main()
