#!/usr/bin/env python3
"""Deterministic 13-tile hands for the waits benchmark, one a line, in the plain batch notation.

    python3 bench/hands.py 20000 1 > hands.txt                     # the main batch
    python3 bench/hands.py 2000 3 --wild 4 --wild-kind C > wild.txt  # hands holding 4 wildcards

Even lines are a complete hand (four sets and a pair, built at random) with one tile taken out: mostly ready
hands with real waits. Odd lines are 13 tiles drawn at random from the 136: mostly far from ready, the common
case of a batch. With --wild K, K tiles of each hand become the wild kind (sets first broken, then filled), so
a hand may hold more than four of that kind: mjcalc refuses those lines, as it should, and says why.
"""
import argparse
import random

SUITS = "mps"
HONORS = "ESWNCFP"
KINDS = 34


def name(kind):
    return f"{kind % 9 + 1}{SUITS[kind // 9]}" if kind < 27 else HONORS[kind - 27]


def written(tiles):
    """`123m 45p E C`: one group of digits per suit, honours one by one, in kind order."""
    groups, digits, suit = [], "", ""
    for kind in sorted(tiles):
        if kind >= 27:
            if digits:
                groups.append(digits + suit)
                digits = ""
            groups.append(HONORS[kind - 27])
        else:
            if digits and SUITS[kind // 9] != suit:
                groups.append(digits + suit)
                digits = ""
            digits, suit = digits + str(kind % 9 + 1), SUITS[kind // 9]
    if digits:
        groups.append(digits + suit)
    return " ".join(groups)


def one_short(rng):
    """A complete hand (4 sets + a pair, no kind more than 4 times) less one tile chosen at random."""
    while True:
        counts = [0] * KINDS
        for _ in range(4):
            kind = rng.randrange(KINDS)
            if kind < 27 and kind % 9 <= 6 and rng.random() < 0.6:
                meld = [kind, kind + 1, kind + 2]
            else:
                meld = [kind] * 3
            for k in meld:
                counts[k] += 1
        counts[rng.randrange(KINDS)] += 2
        if max(counts) <= 4:
            tiles = [k for k in range(KINDS) for _ in range(counts[k])]
            tiles.pop(rng.randrange(len(tiles)))
            return tiles


def drawn(rng):
    return rng.sample([k for k in range(KINDS) for _ in range(4)], 13)


def with_wild(rng, tiles, count, wild):
    others = [k for k in tiles if k != wild]
    rng.shuffle(others)
    return others[count:] + [k for k in tiles if k == wild] + [wild] * count


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="how many hands")
    ap.add_argument("seed", type=int, help="the random seed: the same seed writes the same hands")
    ap.add_argument("--wild", type=int, default=0, metavar="K", help="wild tiles in each hand")
    ap.add_argument("--wild-kind", default="C", help="the wild kind written (default C)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    wild = [name(k) for k in range(KINDS)].index(args.wild_kind)
    for i in range(args.n):
        tiles = one_short(rng) if i % 2 == 0 else drawn(rng)
        if args.wild:
            tiles = with_wild(rng, tiles, args.wild, wild)
        print(written(tiles))


if __name__ == "__main__":
    main()
