"""Random legal 国标麻将 (MCR) winning hands, drawn from the 144-tile set, and what makes a hand legal.

A hand is legal when it could have been won at a table: its tiles exist (4 of each of the 34 kinds, 8 flowers),
its melds are real melds, its tiles make a winning shape, and its situation could have happened:

- 和绝张 (`last_of_kind`): the three other copies of the winning tile are in sight, so none is among the
  concealed tiles; when the melds show three copies, the winning tile is necessarily the last one;
- 杠上开花 (`kong_related`, self-drawn): the hand holds a kong (its replacement tile is the winning tile);
- 抢杠和 (`kong_related`, on a discard): the winning tile is the fourth copy an opponent adds to an exposed
  pung, so the hand holds no other copy, and it is never 和绝张 (抢杠和不计和绝张);
- 妙手回春 / 海底捞月 (`last_tile`): the last tile of the wall is never a kong's replacement nor a robbed kong.

PyMahjongGB 1.4.0 silently corrects flags that contradict the tiles (it drops 和绝张 when the winning tile is
among the concealed tiles, adds it when the melds show three copies, drops 杠上开花 without a kong and 抢杠和 when
the hand holds the tile): a legal hand's flags are the ones it applies, so a comparison never hides behind them.

The shapes (`SHAPES`): four sets and a pair (`standard`, with 0-4 melds), 七对 (`seven_pairs`, a four-alike may
be two pairs), 十三幺, 全不靠 (`lesser_knitted`), 七星不靠 (`greater_knitted`), and 组合龙 with a set and a pair
(`knitted_straight`, concealed or with one meld). Standard hands lean toward hands that make many patterns.
"""
from __future__ import annotations

import importlib.util
import itertools
import random

from oracle_guobiao import HONORS, INDEX, TILES, McrHand, counts, meld, oracle

SHAPES = ("standard", "seven_pairs", "thirteen_orphans", "lesser_knitted", "greater_knitted", "knitted_straight")
SHAPE_WEIGHTS = (60, 13, 5, 6, 5, 11)
ORPHANS = ("1m", "9m", "1p", "9p", "1s", "9s", *HONORS)
KNITS = tuple(tuple(f"{r}{suit}" for suit, start in zip(order, (1, 2, 3)) for r in (start, start + 3, start + 6))
              for order in itertools.permutations("mps"))
DRAGONS = ("C", "F", "P")
WINDS = ("E", "S", "W", "N")
GREEN = ("2s", "3s", "4s", "6s", "8s", "F")
REVERSIBLE = ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")
FLOWER_WEIGHTS = (40, 20, 14, 9, 6, 4, 3, 2, 2)
MELD_WEIGHTS = (30, 22, 20, 14, 14)


class GeneratorBug(AssertionError):
    """The generator built a hand that is not legal or that the oracle refuses."""


def _suited(i: int) -> bool:
    return i < 27


def _chow_start(i: int) -> bool:
    return _suited(i) and i % 9 <= 6


def _sets(table: list[int], n: int) -> bool:
    """Whether `table` (34 counts) splits into exactly `n` chows and pungs."""
    if n == 0:
        return not any(table)
    i = next(k for k, c in enumerate(table) if c)
    if table[i] >= 3:
        table[i] -= 3
        ok = _sets(table, n - 1)
        table[i] += 3
        if ok:
            return True
    if _chow_start(i) and table[i + 1] and table[i + 2]:
        for k in (i, i + 1, i + 2):
            table[k] -= 1
        ok = _sets(table, n - 1)
        for k in (i, i + 1, i + 2):
            table[k] += 1
        return ok
    return False


def _sets_and_pair(table: list[int], n: int) -> bool:
    """Whether `table` splits into `n` sets and one pair."""
    if sum(table) != 3 * n + 2:
        return False
    for i, c in enumerate(table):
        if c >= 2:
            table[i] -= 2
            ok = _sets(table, n)
            table[i] += 2
            if ok:
                return True
    return False


def _free_table(hand: McrHand) -> list[int]:
    table = [0] * len(TILES)
    for tile in (*hand.concealed, hand.winning):
        table[INDEX[tile]] += 1
    return table


def shape_of(hand: McrHand) -> str | None:
    """The winning shape of the hand's tiles (first of 十三幺, 七星不靠, 全不靠, 组合龙, 七对, standard), or None."""
    table = _free_table(hand)
    free = [t for t, c in zip(TILES, table) for _ in range(c)]
    if not hand.melds and len(free) == 14:
        if set(free) == set(ORPHANS):
            return "thirteen_orphans"
        if len(set(free)) == 14:
            honors = [t for t in free if t in HONORS]
            numbers = {t for t in free if t not in HONORS}
            if len(honors) >= 5 and any(numbers <= set(knit) for knit in KNITS):
                return "greater_knitted" if len(honors) == 7 else "lesser_knitted"
    if len(hand.melds) <= 1:
        for knit in KNITS:
            if all(table[INDEX[t]] for t in knit):
                rest = list(table)
                for t in knit:
                    rest[INDEX[t]] -= 1
                if _sets_and_pair(rest, 1 - len(hand.melds)):
                    return "knitted_straight"
    if not hand.melds and len(free) == 14 and all(c % 2 == 0 for c in table):
        return "seven_pairs"
    if _sets_and_pair(table, 4 - len(hand.melds)):
        return "standard"
    return None


def _meld_problem(m) -> str | None:
    size = {"chow": 3, "pung": 3, "kong": 4}.get(m.kind)
    if size is None or len(m.tiles) != size:
        return f"not a meld: {m.kind} {m.tiles}"
    first = INDEX[m.tiles[0]]
    if m.kind == "chow":
        if not _chow_start(first) or [INDEX[t] for t in m.tiles] != [first, first + 1, first + 2]:
            return f"not a chow: {m.tiles}"
        if m.offer not in (1, 2, 3):
            return f"a chow's offer is the tile claimed, 1-3: {m.offer}"
    else:
        if len(set(m.tiles)) != 1:
            return f"not a {m.kind}: {m.tiles}"
        if m.concealed and m.kind != "kong":
            return f"only a kong is declared concealed: {m.tiles}"
        if m.offer not in ((0,) if m.concealed else (1, 2, 3)):
            return f"offer {m.offer} for {'a concealed' if m.concealed else 'an exposed'} {m.kind}"
    return None


def why_illegal(hand: McrHand) -> list[str]:
    """Every reason the hand could not have been won at an MCR table; empty when it is legal."""
    reasons = [p for p in map(_meld_problem, hand.melds) if p]
    if reasons:
        return reasons
    if len(hand.melds) > 4:
        reasons.append(f"{len(hand.melds)} melds")
    if len(hand.concealed) != 13 - 3 * len(hand.melds):
        reasons.append(f"{len(hand.concealed)} concealed tiles with {len(hand.melds)} melds")
    reasons += [f"{c} × {t}" for t, c in zip(TILES, counts(hand)) if c > 4]
    if not 0 <= hand.flowers <= 8:
        reasons.append(f"{hand.flowers} flowers")
    if not (0 <= hand.seat_wind <= 3 and 0 <= hand.prevalent_wind <= 3):
        reasons.append("a wind outside 0-3")
    if not reasons and shape_of(hand) is None:
        reasons.append("not a winning shape")
    win = hand.winning
    shown = sum(m.tiles.count(win) for m in hand.melds)
    if hand.last_of_kind and win in hand.concealed:
        reasons.append("和绝张 while a copy of the winning tile is concealed")
    if shown == 3 and not hand.last_of_kind:
        reasons.append("the melds show three copies of the winning tile: it is 和绝张")
    if hand.kong_related and hand.self_drawn and not any(m.kind == "kong" for m in hand.melds):
        reasons.append("杠上开花 without a kong")
    if hand.kong_related and not hand.self_drawn:
        if shown or win in hand.concealed:
            reasons.append("抢杠和 on a tile the hand holds")
        if hand.last_of_kind:
            reasons.append("抢杠和 with 和绝张")
    if hand.kong_related and hand.last_tile:
        reasons.append("the last tile of the wall with 杠上开花 or 抢杠和")
    return reasons


def legal(hand: McrHand) -> bool:
    """Whether the hand could have been won at an MCR table (`why_illegal` says why not)."""
    return not why_illegal(hand)


# Generation: a set is ("chow", first index) or ("pung", index); a table is 34 counts.

def _set_tiles(s) -> list[str]:
    kind, i = s
    return [TILES[i], TILES[i + 1], TILES[i + 2]] if kind == "chow" else [TILES[i]] * 3


def _suit(suit: str, ranks=range(1, 10)) -> list[int]:
    return [INDEX[f"{r}{suit}"] for r in ranks]


ALL = list(range(len(TILES)))
HONOR_INDICES = [INDEX[h] for h in HONORS]


class _Build:
    """The sets and pair taken so far, within four of each kind."""

    def __init__(self, tiles=()):
        self.table = [0] * len(TILES)
        self.sets: list = []
        self.pair: int | None = None
        self.take(tiles)

    def take(self, tiles) -> bool:
        extra = [0] * len(TILES)
        for t in tiles:
            extra[INDEX[t]] += 1
        if any(a + b > 4 for a, b in zip(self.table, extra)):
            return False
        self.table = [a + b for a, b in zip(self.table, extra)]
        return True

    def add_set(self, s) -> bool:
        if self.take(_set_tiles(s)):
            self.sets.append(s)
            return True
        return False

    def add_pair(self, i: int) -> bool:
        if self.take([TILES[i]] * 2):
            self.pair = i
            return True
        return False


class _Theme:
    """Where a standard hand's sets come from: sets it starts with, the chows and pungs and pairs it draws the rest
    from, and how often it draws a chow."""

    def __init__(self, prefix=(), chows=None, pungs=None, p_chow=0.6, pairs=None, pool=ALL):
        pool = set(pool)
        self.prefix = list(prefix)
        self.chows = [("chow", i) for i in sorted(pool) if _chow_start(i) and {i + 1, i + 2} <= pool] \
            if chows is None else chows
        self.pungs = [("pung", i) for i in sorted(pool)] if pungs is None else pungs
        self.p_chow = p_chow
        self.pairs = sorted(pool) if pairs is None else pairs

    def build(self, rng, n_sets: int = 4, start=()) -> _Build | None:
        build = _Build(start)
        for s in self.prefix:
            if not build.add_set(s):
                return None
        for _ in range(40):
            if len(build.sets) >= n_sets:
                break
            use_chow = self.chows and (not self.pungs or rng.random() < self.p_chow)
            build.add_set(rng.choice(self.chows if use_chow else self.pungs))
        for _ in range(20):
            if build.pair is not None:
                break
            build.add_pair(rng.choice(self.pairs))
        if len(build.sets) != n_sets or build.pair is None:
            return None
        rng.shuffle(build.sets)
        return build


def _theme_pool(rng) -> _Theme:
    """A pool of tiles: any, a flush, a half flush, honors only, a range of ranks, 推不倒, 绿一色."""
    suit = rng.choice("mps")
    kind = rng.choices(["plain", "flush", "half", "honors", "simples", "middle", "upper", "lower", "upper4",
                        "lower4", "reversible", "green"], [14, 8, 8, 2, 4, 1, 1, 1, 1, 1, 2, 2])[0]
    ranges = {"simples": range(2, 9), "middle": range(4, 7), "upper": range(7, 10), "lower": range(1, 4),
              "upper4": range(6, 10), "lower4": range(1, 5)}
    if kind in ranges:
        pool = [i for s in "mps" for i in _suit(s, ranges[kind])]
    else:
        pool = {"plain": ALL, "flush": _suit(suit), "half": _suit(suit) + HONOR_INDICES, "honors": HONOR_INDICES,
                "reversible": [INDEX[t] for t in REVERSIBLE], "green": [INDEX[t] for t in GREEN]}[kind]
    return _Theme(pool=pool, p_chow=rng.choice((0.0, 0.3, 0.6, 0.8)))


def _theme_ordinary(rng) -> _Theme:
    """An ordinary hand, the stuff of 无番和: a chow of simples in each suit at unrelated ranks, an honor pair."""
    ranks = rng.sample(range(2, 7), 3)
    while sorted(ranks) == list(range(min(ranks), min(ranks) + 3)):
        ranks = rng.sample(range(2, 7), 3)
    prefix = [("chow", INDEX[f"{r}{suit}"]) for r, suit in zip(ranks, rng.sample("mps", 3))]
    return _Theme(prefix, pool=[i for s in "mps" for i in _suit(s, range(2, 9))], p_chow=0.5, pairs=HONOR_INDICES)


def _theme_honors(rng) -> _Theme:
    """Dragon or wind pungs: 大三元, 小三元, 双箭刻, 箭刻, 大四喜, 小四喜, 三风刻, 圈风刻, 门风刻."""
    group = list(DRAGONS if rng.random() < 0.5 else WINDS)
    rng.shuffle(group)
    n = rng.randint(1, len(group))
    prefix = [("pung", INDEX[t]) for t in group[:n]]
    pairs = [INDEX[group[n]]] if n < len(group) and rng.random() < 0.5 else None
    return _Theme(prefix, p_chow=rng.choice((0.0, 0.5)), pairs=pairs)


def _theme_terminals(rng) -> _Theme:
    """Sets that each hold a terminal or an honor: 全带幺, 清幺九, 混幺九."""
    ends = [i for s in "mps" for i in _suit(s, (1, 9))]
    kind = rng.choice(["outside", "all_terminals", "terminals_honors"])
    pool = ends if kind == "all_terminals" else ends + HONOR_INDICES
    chows = [("chow", i) for s in "mps" for i in _suit(s, (1, 7))] if kind == "outside" else []
    return _Theme(chows=chows, pungs=[("pung", i) for i in pool], p_chow=0.5, pairs=pool)


def _theme_five(rng) -> _Theme:
    """全带五: every set and the pair hold a 5."""
    fives = [INDEX[f"5{s}"] for s in "mps"]
    chows = [("chow", i) for s in "mps" for i in _suit(s, (3, 4, 5))]
    return _Theme(chows=chows, pungs=[("pung", i) for i in fives], p_chow=0.7, pairs=fives)


def _theme_chows(rng) -> _Theme:
    """Chow patterns: straights, same and shifted chows, terminal chows, 连六, 老少副, 一般高, 喜相逢."""
    a, b, c = rng.sample("mps", 3)
    r = rng.randint(1, 7)
    step = rng.choice((1, 2))

    def ch(suit, rank):
        return ("chow", INDEX[f"{rank}{suit}"])

    templates = {
        "pure_straight": [ch(a, 1), ch(a, 4), ch(a, 7)],
        "mixed_straight": [ch(a, 1), ch(b, 4), ch(c, 7)],
        "pure_triple": [ch(a, r)] * 3,
        "quadruple": [ch(a, r)] * 4,
        "mixed_triple": [ch(a, r), ch(b, r), ch(c, r)],
        "pure_shifted": [ch(a, min(r, 7 - 2 * step) + k * step) for k in range(3)],
        "four_shifted": [ch(a, min(r, 7 - 3 * step) + k * step) for k in range(4)],
        "mixed_shifted": [ch(s, min(r, 5) + k) for k, s in enumerate((a, b, c))],
        "pure_terminal": [ch(a, 1), ch(a, 1), ch(a, 7), ch(a, 7)],
        "three_suited_terminal": [ch(a, 1), ch(a, 7), ch(b, 1), ch(b, 7)],
        "pure_double": [ch(a, r)] * 2,
        "mixed_double": [ch(a, r), ch(b, r)],
        "short_straight": [ch(a, min(r, 4)), ch(a, min(r, 4) + 3)],
        "two_terminal": [ch(a, 1), ch(a, 7)],
    }
    name = rng.choice(sorted(templates))
    p_chow = rng.choice((0.5, 0.8, 1.0))
    if name == "pure_terminal":
        return _Theme(templates[name], pairs=[INDEX[f"5{a}"]])
    if name == "three_suited_terminal":
        return _Theme(templates[name], pairs=[INDEX[f"5{c}"]])
    if rng.random() < 0.4:
        return _Theme(templates[name], pool=_suit(a) + (HONOR_INDICES if rng.random() < 0.5 else []), p_chow=p_chow)
    return _Theme(templates[name], p_chow=p_chow)


def _theme_pungs(rng) -> _Theme:
    """Pung patterns: shifted pungs, same-rank pungs, 全双刻, 碰碰和."""
    a, b, c = rng.sample("mps", 3)
    r = rng.randint(1, 7)

    def pu(suit, rank):
        return ("pung", INDEX[f"{rank}{suit}"])

    templates = {
        "pure_shifted": [pu(a, r + k) for k in range(3)],
        "four_pure_shifted": [pu(a, min(r, 6) + k) for k in range(4)],
        "mixed_shifted": [pu(s, r + k) for k, s in enumerate((a, b, c))],
        "triple": [pu(a, r), pu(b, r), pu(c, r)],
        "double": [pu(a, r), pu(b, r)],
        "all_pungs": [],
    }
    name = rng.choice([*sorted(templates), "even"])
    if name == "even":
        return _Theme(pool=[i for s in "mps" for i in _suit(s, (2, 4, 6, 8))], p_chow=0.0)
    return _Theme(templates[name], p_chow=rng.choice((0.0, 0.0, 0.5)))


THEMES = ((_theme_pool, 40), (_theme_ordinary, 12), (_theme_honors, 12), (_theme_terminals, 8), (_theme_five, 2), (_theme_chows, 22),
          (_theme_pungs, 12))


def _declare(rng, build: _Build, n_melds: int, kong_bias: float):
    """Split the sets into melds and concealed tiles, turning some pungs into kongs when a fourth copy is free."""
    order = list(range(len(build.sets)))
    rng.shuffle(order)
    melded = set(order[:n_melds])
    melds, concealed = [], []
    for k, s in enumerate(build.sets):
        tiles = _set_tiles(s)
        free = s[0] == "pung" and build.table[s[1]] == 3
        if k in melded and s[0] == "chow":
            melds.append(meld("chow", tiles, offer=rng.randint(1, 3)))
        elif k in melded and free and rng.random() < max(kong_bias, 0.4):
            build.table[s[1]] += 1
            hidden = rng.random() < 0.35
            melds.append(meld("kong", tiles + tiles[:1], hidden, None if hidden else rng.randint(1, 3)))
        elif k in melded:
            melds.append(meld("pung", tiles, offer=rng.randint(1, 3)))
        elif free and rng.random() < kong_bias:
            build.table[s[1]] += 1
            melds.append(meld("kong", tiles + tiles[:1], True))
        else:
            concealed += tiles
    concealed += [TILES[build.pair]] * 2
    return melds, concealed


def _standard(rng):
    if rng.random() < 0.03:
        suit = rng.choice("mps")
        gates = [f"{r}{suit}" for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
        return gates, [], f"{rng.randint(1, 9)}{suit}"
    theme = rng.choices([t for t, _ in THEMES], [w for _, w in THEMES])[0](rng)
    build = theme.build(rng)
    if build is None:
        return None
    n_melds = rng.choices(range(5), MELD_WEIGHTS)[0]
    melds, concealed = _declare(rng, build, n_melds, rng.choice((0.05, 0.05, 0.05, 0.05, 0.4, 0.8)))
    return concealed, melds, concealed.pop(rng.randrange(len(concealed)))


def _seven_pairs(rng):
    suit = rng.choice("mps")
    kind = rng.choices(["plain", "flush", "half", "honors", "simples", "shifted"], [6, 3, 3, 2, 2, 2])[0]
    if kind == "shifted":
        start = rng.randint(1, 3)
        kinds = [f"{r}{suit}" for r in range(start, start + 7)]
    else:
        own = [f"{r}{suit}" for r in range(1, 10)]
        pool = {"plain": TILES, "flush": own, "half": own + list(HONORS), "honors": HONORS,
                "simples": [f"{r}{s}" for s in "mps" for r in range(2, 9)]}[kind]
        four = rng.random() < 0.2
        kinds = rng.sample(list(pool), 6 if four else 7)
        if four:
            kinds.append(kinds[0])
    tiles = [t for k in kinds for t in (k, k)]
    return tiles, [], tiles.pop(rng.randrange(14))


def _thirteen_orphans(rng):
    tiles = [*ORPHANS, rng.choice(ORPHANS)]
    return tiles, [], tiles.pop(rng.randrange(14))


def _knitted(rng, greater: bool):
    n_honors = 7 if greater else rng.choice((5, 6))
    tiles = rng.sample(rng.choice(KNITS), 14 - n_honors) + rng.sample(HONORS, n_honors)
    return tiles, [], tiles.pop(rng.randrange(14))


def _knitted_straight(rng):
    knit = list(rng.choice(KNITS))
    build = _Theme(p_chow=0.5).build(rng, n_sets=1, start=knit)
    if build is None:
        return None
    melds, concealed = _declare(rng, build, rng.choice((0, 1)), rng.choice((0.05, 0.5)))
    concealed += knit
    return concealed, melds, concealed.pop(rng.randrange(len(concealed)))


BUILDERS = {
    "standard": _standard,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "lesser_knitted": lambda rng: _knitted(rng, greater=False),
    "greater_knitted": lambda rng: _knitted(rng, greater=True),
    "knitted_straight": _knitted_straight,
}


def _situation(rng, concealed, melds, win) -> dict:
    """Random flags, winds and flowers that the tiles allow (the module docstring's rules)."""
    self_drawn = rng.random() < 0.45
    shown = sum(m.tiles.count(win) for m in melds)
    held = shown + concealed.count(win)
    kong_related = False
    if self_drawn and any(m.kind == "kong" for m in melds):
        kong_related = rng.random() < 0.3
    elif not self_drawn and held == 0:
        kong_related = rng.random() < 0.12
    last_tile = not kong_related and rng.random() < 0.07
    if shown == 3:
        last_of_kind = True
    elif (kong_related and not self_drawn) or win in concealed:
        last_of_kind = False
    else:
        last_of_kind = rng.random() < 0.3
    return {"flowers": rng.choices(range(9), FLOWER_WEIGHTS)[0], "self_drawn": self_drawn,
            "last_of_kind": last_of_kind, "kong_related": kong_related, "last_tile": last_tile,
            "seat_wind": rng.randrange(4), "prevalent_wind": rng.randrange(4)}


_HAVE_ORACLE = importlib.util.find_spec("MahjongGB") is not None


def random_win(rng: random.Random, shape: str | None = None) -> McrHand:
    """A random legal winning hand (of `shape`, else of a shape drawn by `SHAPE_WEIGHTS`) that the oracle accepts.

    Raises `GeneratorBug` if the hand built is illegal or refused by PyMahjongGB: that is a bug here."""
    shape = shape or rng.choices(SHAPES, SHAPE_WEIGHTS)[0]
    parts = None
    while parts is None:
        parts = BUILDERS[shape](rng)
    concealed, melds, win = parts
    hand = McrHand(tuple(concealed), tuple(melds), win, **_situation(rng, concealed, melds, win))
    problems = why_illegal(hand)
    if problems:
        raise GeneratorBug(f"{hand}: {'; '.join(problems)} ({hand!r})")
    if _HAVE_ORACLE:
        try:
            oracle(hand)
        except ValueError as error:
            raise GeneratorBug(str(error)) from error
    return hand
