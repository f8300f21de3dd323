"""The Zhuji 诸暨包牌 payout scheme (registered into payouts.SCHEMES).

A bid 包牌 has a level N and a number c of 财神 kinds (2: `N台`, 1: `独N台`, 0: `无财N台`). The scheme turns
`--bid`, `--bidder` and `--wild` into the 财神 in play (`adjust`), and pays the hand part H = 2^T plus the
包 part, the stake B(N, c), between the 包家 and the others (`pay`).
"""
from dataclasses import replace
from typing import Optional, Tuple

from .errors import RulesetError, SituationError
from .payouts import SCHEMES, SEATS, Payout, Scheme, _transfer, bid_level
from .tiles import NAMES, next_in_cycle

KINDS_PREFIX = {2: "", 1: "独", 0: "无财"}


def bid_name(level: int, kinds: int) -> str:
    """A bid as written on the ladder: 2台, 独2台, 无财2台."""
    return f"{KINDS_PREFIX[kinds]}{level}台"


def ladder_rank(level: int, kinds: int) -> int:
    """The bid's place on the ladder, lowest 0: 2台 < 独2台 < 无财2台 < 3台 < …"""
    return 3 * (level - 2) + (2 - kinds)


def ladder_bid(rank: int) -> Tuple[int, int]:
    """The bid at a place on the ladder, as (level, kinds)."""
    return 2 + rank // 3, 2 - rank % 3


def stake(unit: int, level: int, kinds: int) -> int:
    """B(N, c) = unit·2^(N−2) with two 财神 kinds, unit·2^(N−1) with fewer (unit 5 in the spec)."""
    return unit * 2 ** (level - 2 + (kinds < 2))


def wild_for_bid(level: int, kinds: int, wild: Tuple[int, ...]) -> Tuple[int, ...]:
    """The full 财神 kinds a bid puts in play, from the kind(s) --wild names; a contradiction is an error."""
    names = ",".join(NAMES[k] for k in wild)
    bid = bid_name(level, kinds)
    if kinds == 0:
        if wild:
            raise SituationError(f"a {bid} bid plays without 财神, but --wild names {names}")
        return ()
    if not wild:
        example = "--wild 5m" if kinds == 1 else "--wild 5m (5m and 6m)"
        raise SituationError(f"a {bid} bid has {kinds} 财神 kind{'s' if kinds > 1 else ''}: name the 包家's choice with {example}")
    if kinds == 1:
        if len(wild) != 1:
            raise SituationError(f"a {bid} bid has one 财神 kind, but --wild names {len(wild)}: {names}")
        return wild
    if len(wild) == 1:
        return wild[0], next_in_cycle(wild[0])
    if len(wild) == 2:
        first, second = wild
        if second == next_in_cycle(first):
            return wild
        if first == next_in_cycle(second):
            return second, first
        raise SituationError(
            f"a {bid} bid's second 财神 follows the first in the cycle: after {NAMES[first]} comes "
            f"{NAMES[next_in_cycle(first)]}, not {NAMES[second]}"
        )
    raise SituationError(f"a {bid} bid has two 财神 kinds, but --wild names {len(wild)}: {names}")


class Zhuji(Scheme):
    """诸暨包牌: H = 2^T from the payers by how the hand was won, and the stake B between the 包家 and the rest."""

    params = {"stake": int}
    required = ("stake",)
    uses = ("bid", "bidder")

    def bid(self, situation) -> Optional[Tuple[int, int]]:
        return bid_level(situation.bid) if situation.bid is not None else None

    def adjust(self, ruleset, situation):
        """Check --bid/--bidder and set `wild` to every 财神 kind in play; idempotent."""
        if situation.indicator is not None:
            raise SituationError(f"{ruleset.id}: the 包家 chooses the 财神; name them with --wild, not --indicator")
        if situation.bid is None:
            if situation.bidder is not None:
                raise SituationError("--bidder names the 包家 of a bid: give the bid with --bid too")
            if len(situation.wild) > ruleset.wild_kinds:
                raise SituationError(f"{ruleset.id} has at most {ruleset.wild_kinds} 财神 kinds, but --wild names {len(situation.wild)}")
            return situation
        level, kinds = bid_level(situation.bid)
        if situation.bidder is None:
            raise SituationError(f"--bid {situation.bid} needs --bidder SEAT, the 包家 who made it")
        if situation.bidder not in SEATS:
            raise SituationError(f"--bidder: expected E, S, W or N, got {situation.bidder!r}")
        wild = wild_for_bid(level, kinds, tuple(situation.wild))
        return situation if wild == tuple(situation.wild) else replace(situation, wild=wild)

    def plays_wild(self, ruleset, situation) -> bool:
        """No 财神 under a 无财 bid; with no bid, `*` is a wildcard as anywhere."""
        return situation.bid is None or bid_level(situation.bid)[1] > 0

    def pay(self, score, situation, ruleset) -> Payout:
        winner, base = situation.seat, situation.base
        others = [s for s in SEATS if s != winner]
        h = 2 ** score.total * base
        hand = {}
        if score.self_drawn:
            for s in others:
                _transfer(hand, s, winner, h)
        elif situation.rob_kong:
            _transfer(hand, situation.discarder, winner, 3 * h)
        else:
            if h % 2:  # only a ruleset file with scoring.minimum 0 lets a 0-台 hand win on a discard
                raise RulesetError(f"{ruleset.id}: a discard win of {score.total} 台 has no whole H/2 = {h}/2; "
                                   "the zhuji payout needs scoring.minimum 1 or more")
            for s in others:
                _transfer(hand, s, winner, h if s == situation.discarder else h // 2)
        payout = Payout()
        payout.add("和牌", "hand", hand)
        bid = self.bid(situation)
        if bid is not None:
            b = stake(ruleset.param("stake"), *bid) * base
            bidder = situation.bidder
            part = {}
            for s in SEATS:
                if s == bidder:
                    continue
                if winner == bidder:
                    _transfer(part, s, bidder, b)
                else:
                    _transfer(part, bidder, s, b)
            payout.add(f"包 {bid_name(*bid)}", f"bid {bid_name(*bid)}", part)
        return payout

    def describe(self, ruleset) -> str:
        """The bid ladder, lowest first, with each bid's 财神 kinds, the 包家's minimum and the stake."""
        unit = ruleset.param("stake")
        lines = ["bid ladder 包牌 (lowest first; B = the stake; the 包家 needs N 台, everyone else 1):"]
        rows = [("bid", "财神 kinds", "包家 needs", "stake B")]
        for rank in range(12):
            level, kinds = ladder_bid(rank)
            rows.append((bid_name(level, kinds), str(kinds), f"{level} 台", str(stake(unit, level, kinds))))
        widths = [max(_width(r[i]) for r in rows) for i in range(4)]
        for row in rows:
            lines.append("  " + "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths)).rstrip())
        lines.append(f"  … each level doubles the stakes: B(N, c) = {unit}·2^(N−2) for N台, {unit}·2^(N−1) for 独N台 and 无财N台")
        lines.append("  no bid (--bid absent): stake 0, everyone needs 1 台, the 财神 are whatever --wild says")
        alone = [p.zh for p in ruleset.patterns if p.standalone]
        if alone:
            lines.append(f"standalone (no other 台 counted; may win below the minimum): {', '.join(alone)}")
        for p in ruleset.patterns:
            if p.params:
                lines.append(f"{p.id} {p.zh}: " + ", ".join(f"{k}={v}" for k, v in p.params))
        lines.append("hand part H = 2^台: self-draw, each other pays H; discard, the discarder H and the two others H/2;"
                     " 抢杠, the konger 3H")
        lines.append("包 part: the 包家 wins, each other pays him B; another wins, the 包家 pays B to each of the three")
        return "\n".join(lines)


def _width(text: str) -> int:
    """Columns on a terminal: CJK characters take two."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


SCHEMES["zhuji"] = Zhuji()
