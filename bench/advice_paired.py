#!/usr/bin/env python3
"""Discard advice proven at the table: a paired-deal (duplicate) benchmark (issue 37, item 1).

Every seeded wall is dealt five times: once with all four seats on the efficient baseline, and once for each
seat in turn (E, S, W, N) with that seat on the policy under test and the three others on the baseline. A
wall's paired difference is the mean over the four seats of (the seat's result under the policy − the same
seat's result in the all-baseline deal), so the luck of the wall cancels. Results are the seat's win (0/1) and
its payout (mjcalc's own `payout.deltas`, integers that sum to 0 over the four seats, asserted every deal).

    python3 bench/advice_paired.py --ruleset beijing --policy advise --walls 40 --out /tmp/advise.jsonl
    python3 bench/advice_paired.py --summary /tmp/advise.jsonl /tmp/value.jsonl

The table's rules (bench/README.md says why each is so):

- the wall is the ruleset's composition, shuffled by the seed; 13 tiles to each seat, E deals and draws first;
  beijing turns up the wall's last tile (惠坯, never drawn) and the tile after it is the 惠; zhuji plays with no
  bid, and its two 财神 kinds are a kind drawn by the seed and the one after it in the cycle (as under an N台
  bid); wildcards lie in the wall like any tile;
- a turn: draw; a legal self-draw win (the library's scorer says) is taken; otherwise the seat's policy
  discards. Then a legal win on that discard (the first seat in turn order), else a pung (any seat), else a
  chow (the next seat), else the next seat draws. No kongs. A wall drawn down to the region's dead wall is a
  drawn deal: nobody pays;
- claims and wins on a discard follow the baseline rule for every policy: a win is always taken; a pung or
  chow is claimed when, after the claim and the best discard, the hand is nearer ready than before; claims use
  natural tiles only and a discarded wildcard is never claimed (the advice measured is the discard).
"""
import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from mjcalc import Hand, Meld, Situation, advise, analyze, load_ruleset
from mjcalc.hand import CHOW, PUNG
from mjcalc.regions import find_region
from mjcalc.ruleset import Ruleset
from mjcalc.scoring import prepare
from mjcalc.shanten import improvements, shanten
from mjcalc.shapes import is_complete
from mjcalc.tiles import NUM_KINDS, SEATS, Wall, next_in_cycle, suit_of
from mjcalc.value import STAR, TABLE, Plan, Rivals, plan

RULESETS = ("beijing", "zhuji")
POLICIES = ("random", "efficient", "advise", "win", "value", "win-alone", "value-alone")
BASELINE = "efficient"
ENGINE_POLICIES = ("win", "value", "win-alone", "value-alone")
# The value engine (`win`, `value`) may be asked only when the hand's best discard leaves it this close to ready
# or closer (`--engine-within`), the seat playing the baseline's discard further away. None: always (the
# default since the engine's work cap bounds every answer, issue 37 item 3); the first figures used 2.
ENGINE_WITHIN: Optional[int] = None
BOOTSTRAP = 2000
BOOTSTRAP_SEED = 37


# --- the wall --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One seeded wall under a ruleset: the tiles in draw order (the first 52 dealt), where drawing stops,
    the wildcard kinds and the situation every seat's hands start from (dealer E, the 惠 or 财神)."""

    ruleset: Ruleset
    seed: int
    tiles: Tuple[int, ...]
    end: int  # tiles[end:] are never drawn (the region's dead wall)
    wild_kinds: Tuple[int, ...]
    situation: Situation
    turned_up: Optional[int]  # beijing's indicator, set aside face up


def make_table(ruleset: Ruleset, seed: int) -> Table:
    """The wall of `seed`: the ruleset's composition shuffled, and its wildcards as the region's rules give them."""
    composition = ruleset.wall
    if composition.flowers:
        raise ValueError(f"{ruleset.id}: flowers are not dealt by this table")
    rng = random.Random(f"advice_paired:{ruleset.id}:{seed}")
    tiles = [k for k in range(NUM_KINDS) for _ in range(composition.copies[k])]
    rng.shuffle(tiles)
    turned_up = None
    if ruleset.region == "beijing":
        turned_up = tiles.pop()  # 惠坯: the wall's last tile, turned up; the tile after it is the 惠
        situation = Situation(dealer="E", indicator=turned_up)
    elif ruleset.region == "zhuji":
        first = rng.choice([k for k in range(NUM_KINDS) if composition.has(k)])
        situation = Situation(dealer="E", wild=(first, next_in_cycle(first)))
    else:
        raise ValueError(f"{ruleset.id}: this table deals beijing and zhuji only")
    region = find_region(ruleset.region)
    wild_kinds = tuple(region.wild_kinds(ruleset, situation))
    end = len(tiles) - region.dead_wall(ruleset)
    return Table(ruleset, seed, tuple(tiles), end, wild_kinds, situation, turned_up)


# --- what a seat sees, and the policies -----------------------------------------------------------------


@dataclass
class Seat:
    """A seat's tiles: concealed (a list of kinds) and exposed melds."""

    concealed: List[int]
    melds: List[Meld] = field(default_factory=list)
    discarded: bool = False  # has discarded at least once

    @property
    def size(self) -> int:
        return len(self.concealed) + 3 * len(self.melds)

    def hand(self, winning: Optional[int] = None) -> Hand:
        return Hand(tuple(sorted(self.concealed)), tuple(self.melds), winning)


@dataclass
class View:
    """What the seat to discard knows: its 14 tiles, the tiles it can see elsewhere (discards lying on the
    table and the others' melds: 34 counts) and the situation of its hand."""

    table: Table
    seat: str
    tiles: Seat
    seen: Tuple[int, ...]
    situation: Situation
    rng: random.Random
    engine_within: Optional[int] = ENGINE_WITHIN
    drawn: Optional[int] = None  # the tile the seat just drew (None: its 14th is a claimed discard)
    memory: Dict[str, Plan] = field(default_factory=dict)  # the seat's own, kept through the deal (its plan)

    def wall(self) -> Wall:
        """The wall as this seat knows it (the library's: composition less its 14 tiles, the seen and the
        turned-up tile)."""
        ruleset = self.table.ruleset
        held = [0] * NUM_KINDS
        for t in list(self.tiles.concealed) + [t for m in self.tiles.melds for t in m.tiles]:
            held[t] += 1
        region = find_region(ruleset.region)
        return region.wall(ruleset, self.situation, held, self.seen, self.table.wild_kinds)


Policy = Callable[[View], Tuple[int, str]]  # the tile thrown, and how it was chosen ("engine", "baseline", "")


def efficient_key(view: View) -> List[Tuple[Tuple[int, int, bool, int], int]]:
    """The discards at the least 向听 with their keys, best first: minus the improving tiles left in the wall as
    the seat knows it, natural tiles before wildcards, then the tile's kind."""
    table = view.table
    melds = len(view.tiles.melds)
    after = {}
    for t in set(view.tiles.concealed):
        rest = list(view.tiles.concealed)
        rest.remove(t)
        naturals, wilds = _split(table, rest)
        after[t] = (tuple(naturals), wilds)
    kept = {t: _shanten(table.ruleset.shapes, n, w, melds) for t, (n, w) in after.items()}
    least = min(kept.values())
    wall = view.wall()
    out = []
    for t in sorted(t for t, s in kept.items() if s == least):
        kinds = _improvements(table.ruleset.shapes, table.wild_kinds, *after[t], melds)
        left = sum(wall.left(k) for k in kinds if wall.drawable(k))
        out.append(((least, -left, t in table.wild_kinds, t), t))
    out.sort()
    return out


@lru_cache(maxsize=1 << 16)
def _shanten(shapes: Tuple[str, ...], naturals: Tuple[int, ...], wilds: int, melds: int) -> int:
    return shanten(naturals, wilds, melds, shapes)


@lru_cache(maxsize=1 << 16)
def _improvements(shapes: Tuple[str, ...], wild_kinds: Tuple[int, ...], naturals: Tuple[int, ...], wilds: int,
                  melds: int) -> Tuple[int, ...]:
    return improvements(naturals, wilds, melds, shapes, wild_kinds)[0]


def play_efficient(view: View) -> Tuple[int, str]:
    return efficient_key(view)[0][1], ""


def play_random(view: View) -> Tuple[int, str]:
    return view.rng.choice(sorted(view.tiles.concealed)), ""


def play_advise(view: View) -> Tuple[int, str]:
    """`mjcalc.advise`'s first discard (its ranking does not read the scored waits, so they are not scored)."""
    answer = advise(view.tiles.hand(), view.table.ruleset, view.situation, view.seen, score_waits=False)
    assert answer.discards is not None
    return answer.discards[0].tile, ""


def engine_policy(by: str, rivals: Optional[Rivals]) -> Policy:
    """The value engine's discard for the objective `by` (`rivals`: in the table's game, None: alone), when the
    hand's best discard leaves it `engine_within` or fewer from ready (None: always); the baseline's discard
    further away. The engine's plan is followed draw by draw and asked again only when it runs out
    (`mjcalc.Plan.spent`), after a claim, or when the seat's tiles are not the plan's."""
    def play(view: View) -> Tuple[int, str]:
        ranked = efficient_key(view)
        if view.engine_within is not None and ranked[0][0][0] > view.engine_within:
            view.memory.pop("plan", None)
            return ranked[0][1], "baseline"
        mine = view.memory.get("plan")
        if mine is not None and view.drawn is not None and not mine.spent and _follows(view, mine):
            try:
                return _natural(view, mine.throw(view.drawn)), "plan"
            except ValueError:  # the plan would take a win the table's rules did not give (a flag it drops)
                pass
        hand = view.tiles.hand()
        mine = view.memory["plan"] = plan(hand, view.table.ruleset, view.situation, view.seen, by=by, rivals=rivals)
        return _natural(view, mine.discard), "engine"
    return play


def _follows(view: View, mine: Plan) -> bool:
    """Whether the seat's 14 tiles are the plan's 13 and the tile just drawn."""
    counts = [0] * (NUM_KINDS + 1)
    for t in view.tiles.concealed:
        counts[t] += 1
    assert view.drawn is not None
    counts[view.drawn] -= 1
    return tuple(counts) == mine.hand and len(view.tiles.melds) == mine.engine.melds


def _natural(view: View, tile: int) -> int:
    """A tile of the seat's hand for the engine's `tile` (`STAR`: the seat's first wildcard)."""
    if tile == STAR:
        return next(t for t in sorted(view.tiles.concealed) if t in view.table.wild_kinds)
    return tile


PLAY: Dict[str, Policy] = {"random": play_random, "efficient": play_efficient, "advise": play_advise,
                           "win": engine_policy("win", TABLE), "value": engine_policy("value", TABLE),
                           "win-alone": engine_policy("win", None), "value-alone": engine_policy("value", None)}


# --- the deal -------------------------------------------------------------------------------------------


@dataclass
class Deal:
    """One deal's outcome: the winner (None: a drawn deal), whom from (None: a self-draw), every seat's delta,
    and what the seats' policies cost."""

    winner: Optional[str]
    discarder: Optional[str]
    deltas: Dict[str, int]
    turns: int
    cpu: float = 0.0
    decision_max: float = 0.0  # the longest one decision of the test seat (CPU seconds)
    engine: int = 0  # decisions of the test seat the value engine made
    fallback: int = 0  # decisions of the test seat the baseline made (the hand too far from ready)
    planned: int = 0  # of the engine's, those that followed its plan without asking it again

    def record(self, test: Optional[str]) -> dict:
        return {"test": test, "winner": self.winner, "from": self.discarder, "deltas": self.deltas,
                "turns": self.turns, "engine": self.engine, "fallback": self.fallback,
                "planned": self.planned}


def legal_win(table: Table, seat: Seat, tile: int, situation: Situation) -> Optional[Dict[str, int]]:
    """The deltas when `seat`'s 13 tiles and `tile` are a legal win in `situation`, by the library's scorer;
    None when they are not. Only complete hands (or the region's win whatever the shape) are scored."""
    ruleset = table.ruleset
    hand = seat.hand(tile)
    tiles = prepare(hand, table.wild_kinds)
    region = find_region(ruleset.region)
    if not is_complete(tiles.naturals, tiles.wilds, len(seat.melds), ruleset.shapes) \
            and region.automatic_win(ruleset, situation, tiles) is None:
        return None
    result = analyze(hand, ruleset, situation)
    if result.score is None or not result.score.legal:
        return None
    assert result.payout is not None
    deltas = dict(result.payout.deltas)
    assert sorted(deltas) == sorted(SEATS) and all(type(v) is int for v in deltas.values()), deltas
    assert sum(deltas.values()) == 0, deltas
    return deltas


def _best_after_claim(table: Table, seat: Seat, used: Sequence[int]) -> int:
    """The 向听 of `seat` after claiming a meld with its own `used` tiles and the discard, and throwing its best
    tile."""
    rest = list(seat.concealed)
    for t in used:
        rest.remove(t)
    melds = len(seat.melds) + 1
    best = 99
    for d in set(rest):
        after = list(rest)
        after.remove(d)
        naturals, wilds = _split(table, after)
        best = min(best, _shanten(table.ruleset.shapes, tuple(naturals), wilds, melds))
    return best


def _split(table: Table, tiles: Sequence[int]) -> Tuple[List[int], int]:
    """Natural counts and the number of wildcards among `tiles`."""
    naturals = [0] * NUM_KINDS
    wilds = 0
    for t in tiles:
        if t in table.wild_kinds:
            wilds += 1
        else:
            naturals[t] += 1
    return naturals, wilds


def _now(table: Table, seat: Seat) -> int:
    naturals, wilds = _split(table, seat.concealed)
    return _shanten(table.ruleset.shapes, tuple(naturals), wilds, len(seat.melds))


def pung_claim(table: Table, seat: Seat, tile: int) -> Optional[Tuple[int, ...]]:
    """The baseline's pung: two natural copies held, and the claim lowers the 向听."""
    if tile in table.wild_kinds or seat.concealed.count(tile) < 2:
        return None
    if _best_after_claim(table, seat, (tile, tile)) < _now(table, seat):
        return (tile, tile)
    return None


def chow_claim(table: Table, seat: Seat, tile: int) -> Optional[Tuple[int, ...]]:
    """The baseline's chow (the next seat only): the run, of natural tiles, whose claim lowers the 向听 most
    (the lowest run first on a tie); None when none lowers it."""
    if tile >= 27 or tile in table.wild_kinds:
        return None
    now = _now(table, seat)
    best: Optional[Tuple[int, Tuple[int, ...]]] = None
    for start in (tile - 2, tile - 1, tile):
        run = (start, start + 1, start + 2)
        if start < 0 or suit_of(start) != suit_of(tile) or suit_of(start + 2) != suit_of(tile):
            continue
        used = [t for t in run if t != tile]
        if any(t in table.wild_kinds for t in used) or any(seat.concealed.count(t) < 1 for t in used):
            continue
        after = _best_after_claim(table, seat, used)
        if after < now and (best is None or after < best[0]):
            best = (after, tuple(used))
    return None if best is None else best[1]


def play(table: Table, policies: Dict[str, str], test: Optional[str] = None,
         engine_within: Optional[int] = ENGINE_WITHIN) -> Deal:
    """Play the wall once with each seat's policy; `test` is the seat whose decisions are timed and counted."""
    ruleset = table.ruleset
    seats = {s: Seat(list(table.tiles[13 * i:13 * i + 13])) for i, s in enumerate(SEATS)}
    rngs = {s: random.Random(f"advice_paired:policy:{ruleset.id}:{table.seed}:{s}") for s in SEATS}
    memories: Dict[str, Dict[str, Plan]] = {s: {} for s in SEATS}
    on_table = [0] * NUM_KINDS  # discards lying on the table (a claimed one goes to its meld)
    drawn = 52
    turn = "E"
    claimed = False  # a claim was made: no first-turn win after it
    deal = Deal(None, None, dict.fromkeys(SEATS, 0), 0)
    need_draw = True
    began = time.process_time()
    while True:
        me = seats[turn]
        if need_draw:
            if drawn >= table.end:
                break  # the wall is drawn: nobody pays
            tile = table.tiles[drawn]
            drawn += 1
            deal.turns += 1
            assert me.size == 13, (turn, me)
            situation = table.situation.replace(seat=turn, first_turn=not claimed and not me.discarded,
                                                last_tile=drawn == table.end)
            deltas = legal_win(table, me, tile, situation)
            if deltas is not None:
                deal.winner, deal.deltas = turn, deltas
                break
            me.concealed.append(tile)
        assert me.size == 14, (turn, me)
        seen = list(on_table)
        for s, other in seats.items():
            if s != turn:
                for m in other.melds:
                    for t in m.tiles:
                        seen[t] += 1
        view = View(table, turn, me, tuple(seen), table.situation.replace(seat=turn), rngs[turn], engine_within,
                    tile if need_draw else None, memories[turn])
        start = time.process_time()
        thrown, how = PLAY[policies[turn]](view)
        if turn == test:
            deal.decision_max = max(deal.decision_max, time.process_time() - start)
            deal.engine += how in ("engine", "plan")
            deal.planned += how == "plan"
            deal.fallback += how == "baseline"
        me.concealed.remove(thrown)  # a ValueError: the policy threw a tile the seat does not hold
        me.discarded = True
        on_table[thrown] += 1
        last = drawn >= table.end
        order = [SEATS[(SEATS.index(turn) + k) % 4] for k in (1, 2, 3)]
        won = False
        for s in order:
            situation = table.situation.replace(seat=s, discarder=turn, last_tile=last,
                                                first_turn=not claimed and not seats[s].discarded)
            deltas = legal_win(table, seats[s], thrown, situation)
            if deltas is not None:
                deal.winner, deal.discarder, deal.deltas = s, turn, deltas
                won = True
                break
        if won:
            break
        claim: Optional[Tuple[str, str, Tuple[int, ...]]] = None
        if not last:  # the last discard is not claimed: nobody would draw after it
            for s in order:
                used = pung_claim(table, seats[s], thrown)
                if used is not None:
                    claim = (s, PUNG, used)
                    break
            if claim is None:
                used = chow_claim(table, seats[order[0]], thrown)
                if used is not None:
                    claim = (order[0], CHOW, used)
        if claim is None:
            turn, need_draw = order[0], True
            continue
        s, kind, used = claim
        for t in used:
            seats[s].concealed.remove(t)
        on_table[thrown] -= 1
        seats[s].melds.append(Meld(kind, tuple(sorted(used + (thrown,))), claimed_from=turn))
        claimed = True
        turn, need_draw = s, False
    deal.cpu = time.process_time() - began
    _check_tiles(table, seats, on_table, drawn, deal)
    assert all(type(v) is int for v in deal.deltas.values()) and sum(deal.deltas.values()) == 0, deal.deltas
    return deal


def _check_tiles(table: Table, seats: Dict[str, Seat], on_table: List[int], drawn: int, deal: Deal) -> None:
    """Every tile of the wall is in one place at the end: a hand, a meld, the table, the undrawn wall, the
    turned-up tile, or (a winning tile) won; so none was drawn twice and none was lost."""
    where = Counter(table.tiles[drawn:])
    if table.turned_up is not None:
        where[table.turned_up] += 1
    for s in seats.values():
        where.update(s.concealed)
        where.update(t for m in s.melds for t in m.tiles)
        assert s.size in (13, 14), s
    where.update({k: n for k, n in enumerate(on_table) if n})
    wall = Counter({k: n for k, n in enumerate(table.ruleset.wall.copies) if n})
    missing = wall - where
    extra = where - wall
    assert not extra, extra
    # a win on the last drawn tile (self-draw) leaves that tile with the winner's 13, counted as missing here
    assert sum(missing.values()) == (1 if deal.winner is not None and deal.discarder is None else 0), missing


# --- a wall, five deals ----------------------------------------------------------------------------------


def run_wall(args: Tuple[str, str, int, Optional[int]]) -> dict:
    """The five deals of one wall: all on the baseline, then the policy at E, S, W and N in turn."""
    ruleset_id, policy, seed, engine_within = args
    ruleset = load_ruleset(ruleset_id)
    table = make_table(ruleset, seed)
    deals, cpu, decision_max = [], {}, 0.0
    base = play(table, dict.fromkeys(SEATS, BASELINE))
    deals.append(base.record(None))
    cpu["baseline"] = round(base.cpu, 4)
    test_cpu = 0.0
    for seat in SEATS:
        policies = dict.fromkeys(SEATS, BASELINE)
        policies[seat] = policy
        deal = play(table, policies, test=seat, engine_within=engine_within)
        deals.append(deal.record(seat))
        test_cpu += deal.cpu
        decision_max = max(decision_max, deal.decision_max)
    cpu["test"] = round(test_cpu, 4)
    cpu["decision_max"] = round(decision_max, 4)
    line = {"seed": seed, "ruleset": ruleset_id, "policy": policy, "deals": deals, "cpu": cpu}
    if policy in ENGINE_POLICIES:
        line["engine_within"] = engine_within
    return line


def walls(ruleset: str, policy: str, start: int, count: int, workers: int = 1,
          engine_within: Optional[int] = ENGINE_WITHIN) -> Iterator[dict]:
    """The JSONL lines of walls `start` … `start + count - 1`, in seed order."""
    jobs = [(ruleset, policy, seed, engine_within) for seed in range(start, start + count)]
    if workers <= 1:
        yield from map(run_wall, jobs)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(run_wall, jobs)  # in seed order, so the file is the same with any workers


# --- the summary ------------------------------------------------------------------------------------------


def seat_results(line: dict) -> Tuple[Dict[str, Tuple[int, int]], Dict[str, Tuple[int, int]]]:
    """(seat → (win, payout) in the all-baseline deal, seat → (win, payout) of that seat under the policy)."""
    base: Dict[str, Tuple[int, int]] = {}
    test: Dict[str, Tuple[int, int]] = {}
    for deal in line["deals"]:
        for seat in SEATS:
            result = (int(deal["winner"] == seat), deal["deltas"][seat])
            if deal["test"] is None:
                base[seat] = result
            elif deal["test"] == seat:
                test[seat] = result
    return base, test


def interval(values: Sequence[float], rng: random.Random) -> Tuple[float, float, float, float, float]:
    """The mean, its normal 95% interval and a percentile bootstrap 95% interval (resampling the walls)."""
    n = len(values)
    mean = sum(values) / n
    se = statistics.stdev(values) / math.sqrt(n) if n > 1 else float("nan")
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(BOOTSTRAP))
    return mean, mean - 1.96 * se, mean + 1.96 * se, means[int(0.025 * BOOTSTRAP)], means[int(0.975 * BOOTSTRAP) - 1]


def summary(files: Iterable[str], out=sys.stdout) -> None:
    groups: Dict[Tuple[str, str, str], Dict[int, dict]] = {}
    for name in files:
        with open(name, encoding="utf-8") as f:
            for text in f:
                if text.strip():
                    line = json.loads(text)
                    key = (line["ruleset"], line["policy"], str(line.get("engine_within", "")))
                    groups.setdefault(key, {})[line["seed"]] = line
    for (ruleset, policy, within), by_seed in sorted(groups.items()):
        lines = [by_seed[s] for s in sorted(by_seed)]
        rows = {"win": ([], [], []), "payout": ([], [], [])}
        engine = fallback = planned = 0
        for line in lines:
            base, test = seat_results(line)
            for i, what in enumerate(("win", "payout")):
                b = sum(base[s][i] for s in SEATS) / 4
                t = sum(test[s][i] for s in SEATS) / 4
                rows[what][0].append(t)
                rows[what][1].append(b)
                rows[what][2].append(t - b)
            engine += sum(d["engine"] for d in line["deals"])
            fallback += sum(d["fallback"] for d in line["deals"])
            planned += sum(d.get("planned", 0) for d in line["deals"])
        rng = random.Random(BOOTSTRAP_SEED)
        label = f"{policy} (the engine within {within} of ready)" if within not in ("", "None") else policy
        drawn = sum(line["deals"][0]["winner"] is None for line in lines)
        print(f"{ruleset} · {label} against {BASELINE}: {len(lines)} walls "
              f"(seeds {lines[0]['seed']}–{lines[-1]['seed']}), {4 * len(lines)} paired deals; "
              f"{drawn} of the all-baseline deals drawn", file=out)
        for what, (t, b, d) in rows.items():
            mean, lo, hi, blo, bhi = interval(d, rng)
            scale, unit = (100, " points of %") if what == "win" else (1, " a deal")
            print(f"  {what:7s} policy {scale * sum(t) / len(t):8.3f}  baseline {scale * sum(b) / len(b):8.3f}  "
                  f"paired difference {scale * mean:+.3f}{unit}  95% normal [{scale * lo:+.3f}, {scale * hi:+.3f}]"
                  f"  bootstrap [{scale * blo:+.3f}, {scale * bhi:+.3f}]", file=out)
        base_cpu = sum(line["cpu"]["baseline"] for line in lines)
        test_cpu = sum(line["cpu"]["test"] for line in lines)
        worst = max(line["cpu"]["decision_max"] for line in lines)
        print(f"  deals per CPU-second: baseline {len(lines) / base_cpu:.2f}, with the policy "
              f"{4 * len(lines) / test_cpu:.2f}; the longest decision of a test seat {worst:.2f} s CPU", file=out)
        if engine or fallback:
            print(f"  test seats' decisions: {engine} by the value engine ({planned} of them following its plan), "
                  f"{fallback} by the baseline (the best discard more than {within} from ready)", file=out)


def hazards(ruleset_id: str, start: int, count: int, cycles: int = 12, out=sys.stdout) -> None:
    """The chance a deal of four efficient players ends with a win in each cycle (four draws) among the deals still
    on, and the others' share of it as one seat sees it (three in four): what `mjcalc.value.Rivals` models as
    `hazard(age)`, and the mean a non-winner pays another's win (`Rivals.loss`)."""
    ruleset = load_ruleset(ruleset_id)
    ends, lost = [], []
    for seed in range(start, start + count):
        deal = play(make_table(ruleset, seed), dict.fromkeys(SEATS, BASELINE))
        ends.append((deal.turns - 1) // 4 if deal.winner is not None else None)
        if deal.winner is not None:
            lost += [deal.deltas[s] for s in SEATS if s != deal.winner]
    drawn = sum(e is None for e in ends)
    print(f"{ruleset_id}: {count} all-baseline walls (seeds {start}-{start + count - 1}), {drawn} drawn; "
          f"a non-winner pays {-sum(lost) / max(len(lost), 1):.2f} a win on average", file=out)
    print("  cycle  deals on  won in it  hazard  the others' (x 3/4)", file=out)
    for c in range(cycles):
        on = sum(1 for e in ends if e is None or e >= c)
        won = sum(1 for e in ends if e == c)
        if on:
            print(f"  {c:5d}  {on:8d}  {won:9d}  {won / on:6.3f}  {0.75 * won / on:6.3f}", file=out)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", choices=RULESETS, default="beijing")
    parser.add_argument("--policy", choices=POLICIES, default="advise")
    parser.add_argument("--start", type=int, default=0, help="the first wall's seed (shards: disjoint ranges)")
    parser.add_argument("--walls", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--engine-within", type=int, default=ENGINE_WITHIN, metavar="N",
                        help="win/value: ask the engine only when the best discard leaves the hand N or fewer "
                             "from ready, else play the baseline's discard (default: always the engine)")
    parser.add_argument("--out", help="the JSONL file written, one line a wall (default: standard output)")
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="summarise these JSONL files and stop")
    parser.add_argument("--hazard", action="store_true",
                        help="print the chance a deal of four baseline players ends in each cycle, over --walls "
                             "walls from --start (value.Rivals' calibration), and stop")
    args = parser.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return
    if args.hazard:
        hazards(args.ruleset, args.start, args.walls)
        return
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    try:
        for line in walls(args.ruleset, args.policy, args.start, args.walls, args.workers, args.engine_within):
            out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
            out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
    if args.out:
        summary([args.out])


if __name__ == "__main__":
    main()
