#!/usr/bin/env python3
"""国标 (MCR) against PyMahjongGB 1.4.0 on random legal winning hands: the agreement on the total and on each 番.

    python3 bench/guobiao_oracle.py                          # 50,000 hands, seed 1, one process a core
    python3 bench/guobiao_oracle.py --hands 100000 --seed 7 --workers 2

The hands come from tests/deal_guobiao.py (`random_win`: every shape, melds, flowers and random situations) and the
oracle from tests/oracle_guobiao.py, so it runs where the tests' extra is installed (`pip install -e .[test]`). Hand
i of the run is drawn from its own generator, seeded (seed, i), so the hands are the same whatever the number of
workers. It prints how many hands agree on the total paid (flowers included) and on the whole list of 番, the
agreement of each 番 (hands where either names it, and where both name it as many times), and the disagreements
grouped by kind (the 番 each side has more of) with one hand each. A difference in the list at the same total is
a reading of equal worth (tests/test_guobiao.py, EQUAL_WORTH); any other is a disagreement to explain.
"""
import argparse
import collections
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

SEATS = "ESWN"


def _situation(hand: Any) -> Any:
    from mjcalc.situation import Situation
    from oracle_guobiao import situation_fields

    return Situation(**situation_fields(hand))


def _shard(args: Tuple[int, int, int]) -> Dict[str, Any]:
    """Hands start, start + step, … below `stop`: totals agreeing, lists agreeing, per-fan counts, disagreements."""
    import yaml

    from deal_guobiao import random_win
    from oracle_guobiao import notation, oracle
    from mjcalc.analysis import analyze
    from mjcalc.notation import parse_hand
    from mjcalc.ruleset import load_ruleset

    seed, (start, stop, step) = args[0], args[1:]  # type: ignore[misc]
    fans = yaml.safe_load((ROOT / "tests" / "fixtures" / "guobiao_fans.yaml").read_text(encoding="utf-8"))
    by_en = {f["en"]: f["id"] for f in fans["fans"] + fans["supplement_fans"]}
    rules = load_ruleset("guobiao")
    out: Dict[str, Any] = {"hands": 0, "totals": 0, "lists": 0, "either": collections.Counter(),
                           "both": collections.Counter(), "kinds": collections.Counter(), "example": {}}
    for i in range(start, stop, step):
        hand = random_win(random.Random(f"{seed}:{i}"))
        score = analyze(parse_hand(notation(hand)), rules, _situation(hand)).score
        mine = {m.pattern_id: m.count for m in score.matches}
        theirs_raw = oracle(hand)
        theirs = {by_en[en]: n for en, n in theirs_raw["fans"].items()}
        total = score.total + score.bonus
        out["hands"] += 1
        out["totals"] += total == theirs_raw["total"]
        out["lists"] += mine == theirs
        for pid in set(mine) | set(theirs):
            out["either"][pid] += 1
            out["both"][pid] += mine.get(pid) == theirs.get(pid)
        if mine != theirs or total != theirs_raw["total"]:
            kind = ("same total" if total == theirs_raw["total"] else "total differs",) + tuple(sorted(
                f"{pid} {mine.get(pid, 0) - theirs.get(pid, 0):+d}" for pid in set(mine) | set(theirs)
                if mine.get(pid, 0) != theirs.get(pid, 0)))
            out["kinds"][kind] += 1
            out["example"].setdefault(kind, f"{notation(hand)}  {_said(hand)}  mjcalc {total}, oracle "
                                            f"{theirs_raw['total']}")
    return out


def _said(hand: Any) -> str:
    flags = ["self-drawn" if hand.self_drawn else "on a discard"]
    flags += [name for name, on in (("kong", hand.kong_related), ("last tile", hand.last_tile),
                                     ("last of kind", hand.last_of_kind)) if on]
    return f"({', '.join(flags)}; seat {SEATS[hand.seat_wind]}, round {SEATS[hand.prevalent_wind]})"


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    began = time.perf_counter()
    shards = [(args.seed, w, args.hands, args.workers) for w in range(args.workers)]
    if args.workers == 1:
        results = [_shard(shards[0])]
    else:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(_shard, shards)
    hands = sum(r["hands"] for r in results)
    totals = sum(r["totals"] for r in results)
    lists = sum(r["lists"] for r in results)
    either: collections.Counter = sum((r["either"] for r in results), collections.Counter())
    both: collections.Counter = sum((r["both"] for r in results), collections.Counter())
    kinds: collections.Counter = sum((r["kinds"] for r in results), collections.Counter())
    example: Dict[Any, str] = {}
    for r in results:
        for kind, text in r["example"].items():
            example.setdefault(kind, text)
    seconds = time.perf_counter() - began
    print(f"{hands} hands (seed {args.seed}, {args.workers} workers, {seconds:.0f} s)")
    print(f"total agrees: {totals} ({100 * totals / hands:.3f}%)")
    print(f"番 list agrees: {lists} ({100 * lists / hands:.3f}%)")
    print("per 番 (hands naming it on either side: agreeing):")
    for pid in sorted(either, key=lambda p: (-either[p], p)):
        print(f"  {pid:36} {either[pid]:7} {both[pid]:7}  {100 * both[pid] / either[pid]:.2f}%")
    print(f"disagreements: {sum(kinds.values())} in {len(kinds)} kinds")
    for kind, count in kinds.most_common():
        print(f"  {count:6}  {kind[0]}: {', '.join(kind[1:])}")
        print(f"          e.g. {example[kind]}")
    return 0 if totals == hands else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
