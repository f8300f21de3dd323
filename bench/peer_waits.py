#!/usr/bin/env python3
"""A peer's waits for each 13-tile hand of a file, one line a hand, as `mjcalc waits --batch` prints them.

    ../peers/venv/bin/python bench/peer_waits.py mahjong hands.txt     # 34 x Agari.is_agari (pure Python)
    ../peers/venv/bin/python bench/peer_waits.py xiangting hands.txt   # necessary tiles (a Rust core)

Run with the peers' own venv (`pip install mahjong xiangting`), never mjcalc's. Waits are printed in kind order
(1m..9m 1p..9s E S W N C F P), space separated, an empty line when the hand is not ready; a tile whose four
copies are all in the hand is not a wait.
"""
import sys

SUITS = "mps"
HONORS = "ESWNCFP"
NAMES = [f"{k % 9 + 1}{SUITS[k // 9]}" for k in range(27)] + list(HONORS)
# xiangting orders the dragons 白 發 中 (5z 6z 7z); mjcalc writes C F P (中 发 白)
XIANGTING_INDEX = list(range(31)) + [33, 32, 31]


def counts_of(line):
    counts, digits = [0] * 34, []
    for ch in line.replace(" ", ""):
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in SUITS:
            for d in digits:
                counts[SUITS.index(ch) * 9 + d - 1] += 1
            digits = []
        else:
            counts[27 + HONORS.index(ch)] += 1
    return counts


def mahjong_waits():
    from mahjong.agari import Agari
    agari = Agari()

    def waits(counts):
        found = []
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if agari.is_agari(counts):
                    found.append(k)
                counts[k] -= 1
        return found
    return waits


def xiangting_waits():
    from xiangting import PlayerCount, calculate_necessary_tiles, to_array

    def waits(counts):
        theirs = [0] * 34
        for k in range(34):
            theirs[XIANGTING_INDEX[k]] = counts[k]
        shanten, flags = calculate_necessary_tiles(theirs, PlayerCount.FOUR)
        if shanten != 1:            # xiangting counts a ready hand as 1 (one tile from complete)
            return []
        needed = to_array(flags)
        return [k for k in range(34) if needed[XIANGTING_INDEX[k]] and counts[k] < 4]
    return waits


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("mahjong", "xiangting"):
        sys.exit("usage: peer_waits.py mahjong|xiangting HANDS")
    waits = mahjong_waits() if sys.argv[1] == "mahjong" else xiangting_waits()
    with open(sys.argv[2]) as hands:
        out = [" ".join(NAMES[k] for k in waits(counts_of(line.strip()))) for line in hands]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
