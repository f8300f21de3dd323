"""An independent, slow, obviously-correct REFERENCE SCORER for the tests of mjcalc.

Never imports anything from ``mjcalc``: it is written from the written rules alone
(the rules pages rulesets/beijing.md, beijing-money.md, zhuji.md, the hand notation and the command line) and the
"where the rules are silent we chose" comments at the top of rulesets/beijing.yaml, beijing-money.yaml and zhuji.yaml.  Standard library only, plus the
sibling brute-force reference ``reference.py`` (itself independent of the engine) for wait sets.

    ref_score(hand_text, ruleset_id, situation) -> {"complete", "legal", "total", "payouts"}

ruleset_id is "beijing", "beijing-money" or "zhuji".  ``situation`` is a dict; every field is optional:
seat, dealer ("E"/"S"/"W"/"N", default "E"), from (the discarder / robbed konger, None = self-draw),
kong_draw (int, 0 = not on a kong replacement), last_tile, rob_kong, first_turn (bools), base (int, default 1),
wild (list of tile names), shaozhuang (int), mutual (list of seats), bid ("2", "du2", "wucai2", "3", ...),
bidder (a seat).

How it works, by brute force, with nothing clever:

1.  parse the notation (tiles, ``[..]`` exposed melds, ``{..}`` concealed kongs, ``+X`` the winning tile);
2.  the wildcard kinds: beijing = ``wild``; zhuji with a bid N台 = the given kind and the next in the cycle,
    独N台 = the given kind only, 无财N台 = none; zhuji with no bid = ``wild``;
3.  every concealed tile of a wildcard kind is a wildcard (a tile of a wild kind inside a declared meld stands
    for its own face, README); at most 2 concealed wildcards (ValueError above that);
4.  every substitution of every concealed wildcard by any of the 34 kinds (a fifth copy allowed) -- ordered, so
    that the winning tile, when it is a wildcard, gets every stand-in too;
5.  every decomposition of the substituted concealed tiles into the missing sets + one pair (and, for beijing, the
    seven-pairs reading of a meld-less hand whose counts are all even; four of a kind = two pairs);
6.  every placement of the winning tile in a concealed block that holds its stand-in;
7.  each pattern is a plain function of that reading (written straight from the "when" column of the tables);
    exclusions: beijing ★ patterns replace 推倒和, 豪华七对子 replaces 七对子, 天和 replaces 庄;
    beijing-money 豪华七对 replaces 七对; zhuji standalone 8-台 hands count alone;
8.  the maximum total over all readings, then legality, then the payouts from the spec's formulas.

READINGS OF AMBIGUOUS POINTS (written down here and in the report):

*   "Natural wait" for 捉五魁 (beijing.yaml: "5m to be the only natural wait"): the natural (not wild) kinds k
    such that the 13 tiles (the 14 minus the winning tile) plus one natural tile of kind k form a winning shape of
    the ruleset (standard or seven pairs), leaving out any kind whose four copies are already held in the 13
    tiles (cli.md, "Waits, precisely"; a wildcard counts as a copy of its face).  A drawn tile of the 惠 kind is
    taken as its own face here (rulesets/beijing.md, "捉五魁 when the 5万 is a 惠": a 惠 5万 drawn and played as a
    5万 is a 5万); it is not a wait merely because a drawn 惠 completes any ready hand.  That set must be exactly
    {5m}, and the winning tile (natural 5m, a 5m of the 惠 kind, or a wildcard standing in as 5m) must be the
    middle of a concealed 4m-5m-6m chow.  (So with 5m itself the 惠, 46m won on a 5m is 捉五魁.)
*   四惠牌 (beijing only; beijing-money has no such pattern, so there four 惠 are just four wildcards): "scored as a
    self-draw" is taken for everything: 庄 only if the winner is the dealer, the self-draw payout, and the win is
    legal whatever --from says (neither 吃碰堤 nor "3+ 惠 must self-draw" applies).  It is a win whatever the
    shape; when the tiles also form a shape, the best shape reading is scored (★ patterns combine).
*   "A hand holding three or more 惠": every 惠 tile held counts, melds included (as 四惠牌 counts them).
*   Zhuji seat winds are relative to the dealer (rules-zhuji.md: "The dealer is East; the dealer's right is
    South, opposite West, left North"; cli.md: "the dealer is East of the round"): the seat k places after the
    dealer in E-S-W-N order has wind E, S, W, N for k = 0..3.
*   Zhuji standalone patterns: when any of 天胡 / 地胡 / 全字牌 applies, T = 8 exactly (the hand is an 8-台 hand,
    "no other 台 is counted"; two standalone patterns at once still give 8) and the win is legal below the
    minimum.
*   混一色 (zhuji, beijing-money): exactly one suit and at least one honor tile.  全字牌: every tile an honor.
*   When several readings reach the maximum total, the win is legal if any of them is (only matters for zhuji,
    where a standalone reading is legal below the minimum).
*   beijing-money: the reported total is the 番 capped at 6; the "0 番 only by self-draw" rule looks at the sum.
    The payer cap is 640 x base; --base multiplies the rate.
*   zhuji: --base multiplies H and B (zhuji.yaml).  杠开 / beijing 杠上开花 need kong_draw >= 1 and a self-draw;
    no kong needs to be in the hand (examples/zhuji/spec-tai-mixed-kong-bloom.yaml scores one without a kong).
*   Corrected rules (issue 12): zhuji 地胡 only on the dealer's first discard; beijing 海底捞月 on a discard is 1;
    beijing-money 跟庄 (--shaozhuang K: the dealer pays each other 10 * 2^(K-1) * base) and kong money (the
    winner's 暗杠 {XXXX} 20 from each other, his 明杠 [XXXX]S 10 from the seat written after the bracket; a 明杠
    with no seat earns nothing), both outside the 640 cap.
*   A hand that is not complete: total None, payouts None, legal False.  A complete hand that is not a legal win:
    the total is still reported, payouts None.
"""

from itertools import product

import reference

NUM_KINDS = 34
WINDS = "ESWN"
SEATS = "ESWN"
E, S_, W_, N_ = 27, 28, 29, 30
DRAGONS = (31, 32, 33)
FIVE_M = 4  # 5m

PUNG, CHOW, KONG, PAIR = "pung", "chow", "kong", "pair"
HAND, EXPOSED, CONCEALED_KONG = "hand", "exposed", "concealed_kong"  # where a block comes from


# ---------------------------------------------------------------------------------------------------------------
# Tiles and notation
# ---------------------------------------------------------------------------------------------------------------


def kind_of(name):
    kinds = reference.tiles_from_text(name)
    if len(kinds) != 1:
        raise ValueError(f"not one tile: {name!r}")
    return kinds[0]


def name_of(kind):
    return reference.tile_name(kind)


def next_in_cycle(kind):
    """1->2..9->1 within a suit; E->S->W->N->E; C->F->P->C."""
    if kind < 27:
        return 9 * (kind // 9) + (kind % 9 + 1) % 9
    if kind <= 30:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def _meld(tiles, closed):
    tiles = tuple(sorted(tiles))
    if closed:
        if len(tiles) != 4 or len(set(tiles)) != 1:
            raise ValueError(f"a concealed kong must be four of a kind: {tiles}")
        return (KONG, tiles, CONCEALED_KONG)
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return (KONG, tiles, EXPOSED)
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return (PUNG, tiles, EXPOSED)
    a, b, c = tiles if len(tiles) == 3 else (None, None, None)
    if a is not None and a < 27 and b == a + 1 and c == a + 2 and a // 9 == c // 9:
        return (CHOW, tiles, EXPOSED)
    raise ValueError(f"not a set: {tiles}")


def claimed_from(text):
    """For each meld in written order, the seat letter written right after its closing ``]`` (or None)."""
    seats = []
    for i, ch in enumerate(text):
        if ch in "]}":
            nxt = text[i + 1] if i + 1 < len(text) else ""
            seats.append(nxt if ch == "]" and nxt in SEATS else None)
    return seats


def strip_claimed_from(text):
    """The hand text without the seat letters that follow an exposed meld's ``]``."""
    out, i = [], 0
    while i < len(text):
        out.append(text[i])
        if text[i] == "]" and i + 1 < len(text) and text[i + 1] in SEATS:
            i += 1
        i += 1
    return "".join(out)


def parse_hand(text):
    """A minimal parser: returns (concealed kinds incl. the winning tile, melds, winning kind).

    melds: list of (type, tiles, HAND/EXPOSED/CONCEALED_KONG).  Needs an explicit ``+X``."""
    concealed, melds, winning = [], [], None
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            j = text.index(close, i)
            melds.append(_meld(reference.tiles_from_text(text[i + 1:j]), closed=ch == "{"))
            i = j + 1
        elif ch == "+":
            j = i + 1
            while j < len(text) and text[j].isspace():
                j += 1
            k = j
            if k < len(text) and text[k].isdigit():
                k += 1
            k += 1
            if winning is not None:
                raise ValueError("two winning tiles")
            winning = kind_of(text[j:k])
            i = k
        else:
            j = i
            while j < len(text) and text[j] not in "[{+":
                j += 1
            concealed.extend(reference.tiles_from_text(text[i:j]))
            i = j
    if winning is None:
        raise ValueError("the reference parser needs an explicit +X winning tile")
    concealed.append(winning)
    if len(concealed) + 3 * len(melds) != 14:
        raise ValueError(f"{len(concealed)} concealed tiles + {len(melds)} melds is not 14 tiles")
    return concealed, melds, winning


# ---------------------------------------------------------------------------------------------------------------
# Decompositions of a natural (substituted) multiset
# ---------------------------------------------------------------------------------------------------------------


def standard_decompositions(counts, sets_needed, pairs_needed=1):
    """Every multiset of blocks (``sets_needed`` sets + ``pairs_needed`` pairs) using every tile of ``counts``.

    The lowest tile left must be the lowest tile of its block: a pair, a pung or the chow starting at it.
    Each multiset of blocks comes out exactly once (blocks in order of their lowest tile)."""
    counts = list(counts)
    out = []

    def rec(sets_left, pairs_left, blocks):
        low = next((k for k in range(NUM_KINDS) if counts[k] > 0), None)
        if low is None:
            if sets_left == 0 and pairs_left == 0:
                out.append(list(blocks))
            return
        options = []
        if pairs_left and counts[low] >= 2:
            options.append((PAIR, (low, low)))
        if sets_left and counts[low] >= 3:
            options.append((PUNG, (low, low, low)))
        if sets_left and low < 27 and low % 9 <= 6 and counts[low + 1] > 0 and counts[low + 2] > 0:
            options.append((CHOW, (low, low + 1, low + 2)))
        for kind, tiles in options:
            for t in tiles:
                counts[t] -= 1
            blocks.append((kind, tiles, HAND))
            rec(sets_left - (kind != PAIR), pairs_left - (kind == PAIR), blocks)
            blocks.pop()
            for t in tiles:
                counts[t] += 1

    rec(sets_needed, pairs_needed, [])
    return out


def is_seven_pairs(counts):
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


# ---------------------------------------------------------------------------------------------------------------
# The situation
# ---------------------------------------------------------------------------------------------------------------


def parse_bid(bid):
    """'2' -> (2, 2); 'du2'/'独2' -> (2, 1); 'wucai2'/'无财2' -> (2, 0).  A trailing 台 is allowed."""
    text = str(bid).strip().replace("台", "")
    for prefix, c in (("wucai", 0), ("无财", 0), ("du", 1), ("独", 1)):
        if text.startswith(prefix):
            return int(text[len(prefix):]), c
    return int(text), 2


def stake(level, c):
    """B(N, c) = 5 * 2^(N-2) for c = 2, 5 * 2^(N-1) for c < 2."""
    return 5 * 2 ** (level - 2) if c == 2 else 5 * 2 ** (level - 1)


def wild_kinds(ruleset_id, sit):
    given = [kind_of(w) for w in (sit.get("wild") or [])]
    if ruleset_id == "zhuji" and sit.get("bid") is not None:
        _, c = parse_bid(sit["bid"])
        if c == 0:
            return set()
        if c == 1:
            return {given[0]}
        if len(given) >= 2:
            return set(given[:2])
        return {given[0], next_in_cycle(given[0])}
    return set(given)


class Ctx:
    """Everything about the hand that does not depend on the reading."""

    def __init__(self, hand_text, ruleset_id, sit):
        if ruleset_id not in ("beijing", "beijing-money", "zhuji"):
            raise ValueError(f"unknown ruleset {ruleset_id!r}")
        self.rid = ruleset_id
        self.meld_from = claimed_from(hand_text)
        self.concealed, self.melds, self.winning = parse_hand(strip_claimed_from(hand_text))
        self.seat = sit.get("seat") or "E"
        self.dealer = sit.get("dealer") or "E"
        self.discarder = sit.get("from")
        self.kong_draw = int(sit.get("kong_draw") or 0)
        self.last_tile = bool(sit.get("last_tile"))
        self.rob_kong = bool(sit.get("rob_kong"))
        self.first_turn = bool(sit.get("first_turn"))
        self.base = int(sit.get("base") or 1)
        self.shaozhuang = int(sit.get("shaozhuang") or 0)
        self.mutual = list(sit.get("mutual") or [])
        self.bid = parse_bid(sit["bid"]) if (ruleset_id == "zhuji" and sit.get("bid") is not None) else None
        self.bidder = sit.get("bidder")
        self.wild = wild_kinds(ruleset_id, sit)
        # every 惠/财神 tile held, melds included (a kong's fourth tile too)
        self.wild_held = (sum(1 for k in self.concealed if k in self.wild)
                          + sum(1 for m in self.melds for k in m[1] if k in self.wild))
        self.naturals = [0] * NUM_KINDS
        self.n_wild = 0
        for k in self.concealed:
            if k in self.wild:
                self.n_wild += 1
            else:
                self.naturals[k] += 1
        if self.n_wild > 2:
            raise ValueError(f"{self.n_wild} concealed wildcards: the brute force takes at most 2")
        self.winning_is_wild = self.winning in self.wild
        self.exposed = any(m[2] == EXPOSED for m in self.melds)
        self.is_dealer = self.seat == self.dealer
        # 四惠牌 (beijing only): all four 惠 held
        self.four_wilds = ruleset_id == "beijing" and len(self.wild) == 1 and self.wild_held >= 4
        # "scored as a self-draw" for 四惠牌
        self.self_draw = self.discarder is None or self.four_wilds
        self._natural_waits = None

    def natural_waits(self):
        """The natural kinds that complete the 13 tiles (the 14 minus the winning tile): see 捉五魁 above."""
        if self._natural_waits is None:
            nat13 = list(self.naturals)
            wilds13 = self.n_wild
            if self.winning_is_wild:
                wilds13 -= 1
            else:
                nat13[self.winning] -= 1
            held13 = [0] * NUM_KINDS  # copies held among the 13, by face
            for k in self.concealed:
                held13[k] += 1
            held13[self.winning] -= 1
            for m in self.melds:
                for k in m[1]:
                    held13[k] += 1
            shapes = {reference.STANDARD}
            if self.rid != "zhuji":
                shapes.add(reference.SEVEN_PAIRS)
            waits = set()
            for k in range(NUM_KINDS):
                if held13[k] >= 4:
                    continue
                trial = list(nat13)
                trial[k] += 1
                if reference.ref_is_complete(trial, wilds13, len(self.melds), shapes):
                    waits.add(k)
            self._natural_waits = waits
        return self._natural_waits


# ---------------------------------------------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------------------------------------------


class Reading:
    """One substitution + one decomposition + one placement of the winning tile.

    shape: "standard", "seven_pairs" or None (四惠牌 without a shape); blocks: the four sets and the pair, melds
    included (standard only); win_block: the index in ``blocks`` of the block that took the winning tile, or None;
    win_as: what the winning tile stands for; tiles: the 34 counts of every tile as what it stands for."""

    def __init__(self, shape, blocks, win_block, win_as, tiles):
        self.shape, self.blocks, self.win_block, self.win_as, self.tiles = shape, blocks, win_block, win_as, tiles

    @property
    def sets(self):
        return [b for b in self.blocks if b[0] != PAIR]

    @property
    def pair(self):
        return next(b for b in self.blocks if b[0] == PAIR)


def readings(ctx):
    """Every reading of the hand (see Reading)."""
    meld_tiles = [0] * NUM_KINDS
    for m in ctx.melds:
        for k in m[1]:
            meld_tiles[k] += 1
    sets_needed = 4 - len(ctx.melds)
    found = []
    for subs in product(range(NUM_KINDS), repeat=ctx.n_wild):
        counts = list(ctx.naturals)
        for k in subs:
            counts[k] += 1
        win_as = subs[0] if ctx.winning_is_wild else ctx.winning  # the first wildcard plays the winning tile
        tiles = [counts[k] + meld_tiles[k] for k in range(NUM_KINDS)]
        for blocks in standard_decompositions(counts, sets_needed):
            all_blocks = blocks + list(ctx.melds)
            for i, b in enumerate(blocks):
                if win_as in b[1]:
                    found.append(Reading("standard", all_blocks, i, win_as, tiles))
        if ctx.rid != "zhuji" and not ctx.melds and is_seven_pairs(counts):
            found.append(Reading("seven_pairs", [], None, win_as, tiles))
    return found


# ---------------------------------------------------------------------------------------------------------------
# Patterns: one plain function each, straight from the spec's "when" column
# ---------------------------------------------------------------------------------------------------------------


def is_set_of(block, kind):
    """A pung or kong of ``kind``."""
    return block[0] in (PUNG, KONG) and block[1][0] == kind


def all_pungs(r):
    return r.shape == "standard" and all(b[0] in (PUNG, KONG) for b in r.sets)


def full_flush(r):
    kinds = [k for k in range(NUM_KINDS) if r.tiles[k]]
    return all(k < 27 for k in kinds) and len({k // 9 for k in kinds}) == 1


def half_flush(r):
    kinds = [k for k in range(NUM_KINDS) if r.tiles[k]]
    suits = {k // 9 for k in kinds if k < 27}
    return len(suits) == 1 and any(k >= 27 for k in kinds)


def all_honors(r):
    return all(r.tiles[k] == 0 for k in range(27))


def dragon(r):
    if r.shape != "standard":
        return False
    chows = {b[1] for b in r.sets if b[0] == CHOW}
    return any(all((9 * s + a, 9 * s + a + 1, 9 * s + a + 2) in chows for a in (0, 3, 6)) for s in range(3))


def seven_pairs(r):
    return r.shape == "seven_pairs"


def luxury_seven_pairs(r):
    return r.shape == "seven_pairs" and any(c >= 4 for c in r.tiles)


def big_single_wait(r, ctx):
    return r.shape == "standard" and len(ctx.melds) == 4 and all(m[2] == EXPOSED for m in ctx.melds)


def catch_five(r, ctx):
    if r.shape != "standard" or r.win_block is None:
        return False
    block = r.blocks[r.win_block]
    if not (block[0] == CHOW and block[1] == (3, 4, 5) and r.win_as == FIVE_M):
        return False
    return ctx.natural_waits() == {FIVE_M}


def kong_bloom(ctx):
    return ctx.kong_draw >= 1 and ctx.discarder is None


def beijing_patterns(r, ctx):
    p = {}
    star = {
        "all_pungs": (2, all_pungs(r)),
        "big_single_wait": (2, big_single_wait(r, ctx)),
        "catch_five": (2, catch_five(r, ctx)),
        "sea_bottom": (2 if ctx.self_draw else 1, ctx.last_tile),  # on the last discard: 1
        "dragon": (3, dragon(r)),
        "seven_pairs": (4, seven_pairs(r) and not luxury_seven_pairs(r)),  # 豪华 replaces 七对子
        "kong_bloom": (5, kong_bloom(ctx)),
        "full_flush": (6, full_flush(r)),
        "luxury_seven_pairs": (8, luxury_seven_pairs(r)),
        "four_wilds": (8, ctx.four_wilds),
        "heavenly": (10, ctx.first_turn and ctx.is_dealer),
        "earthly": (8, ctx.first_turn and not ctx.is_dealer),
    }
    for pid, (value, applies) in star.items():
        if applies:
            p[pid] = value
    if not p:
        p["tuidaohe"] = 1
    dealer_involved = ctx.is_dealer or (not ctx.self_draw and ctx.discarder == ctx.dealer)
    if dealer_involved and "heavenly" not in p:
        p["dealer"] = 1
    if not ctx.exposed and ctx.wild_held == 0:
        p["concealed_no_wild"] = 1
    return p


def money_patterns(r, ctx):
    p = {}
    table = {
        "concealed": (1, not ctx.exposed),
        "all_pungs": (1, all_pungs(r)),
        "half_flush": (1, half_flush(r)),
        "big_single_wait": (1, big_single_wait(r, ctx)),
        "catch_five": (1, catch_five(r, ctx)),
        "sea_bottom": (1, ctx.last_tile),
        "kong_bloom": (1, kong_bloom(ctx)),
        "dragon": (3, dragon(r)),
        "seven_pairs": (4, seven_pairs(r) and not luxury_seven_pairs(r)),  # 豪华七对 replaces 七对
        "full_flush": (5, full_flush(r)),
        "luxury_seven_pairs": (5, luxury_seven_pairs(r)),
    }
    for pid, (value, applies) in table.items():
        if applies:
            p[pid] = value
    return p


def seat_wind(ctx):
    """Zhuji: the seat's wind, counted from the dealer (the dealer is East)."""
    return 27 + (SEATS.index(ctx.seat) - SEATS.index(ctx.dealer)) % 4


def zhuji_patterns(r, ctx):
    """The 台 of one reading; standalone hands count alone (8)."""
    standalone = {
        "heavenly": ctx.first_turn and ctx.is_dealer,
        # only on the dealer's first discard ("闲家对庄家打的第一张牌就能胡的为地胡")
        "earthly": ctx.first_turn and not ctx.is_dealer and ctx.discarder == ctx.dealer,
        "all_honors": all_honors(r),
    }
    hit = [pid for pid, applies in standalone.items() if applies]
    if hit:
        return {hit[0]: 8}, True
    p = {}
    dragons = sum(1 for b in r.sets for d in DRAGONS if is_set_of(b, d))
    if dragons:
        p["dragon_pung"] = dragons
    if any(is_set_of(b, E) for b in r.sets):
        p["east_pung"] = 2 if ctx.is_dealer else 1
    wind = seat_wind(ctx)
    if wind != E and any(is_set_of(b, wind) for b in r.sets):
        p["seat_wind_pung"] = 1
    pair_kind = r.pair[1][0]
    if all(b[0] == CHOW for b in r.sets) and pair_kind not in DRAGONS and pair_kind != E and pair_kind != wind:
        p["pinghu"] = 1
    if all_pungs(r):
        p["all_pungs"] = 1
    if half_flush(r):
        p["half_flush"] = 1
    if full_flush(r):
        p["full_flush"] = 3
    if ctx.wild_held == 0:
        p["no_wild"] = 1
    if kong_bloom(ctx):
        p["kong_bloom"] = 1
    if ctx.rob_kong:
        p["rob_kong"] = 1
    return p, False


# ---------------------------------------------------------------------------------------------------------------
# Payouts
# ---------------------------------------------------------------------------------------------------------------


def payouts_beijing(ctx, fan):
    b = ctx.base
    pay = {s: 0 for s in SEATS}
    hand_part = 3 * fan * b if ctx.self_draw else fan * b
    partners = [m for m in dict.fromkeys(ctx.mutual) if m != ctx.seat]
    if partners:  # 互包: each partner pays the whole hand part, nobody else pays any
        for p in partners:
            pay[p] -= hand_part
            pay[ctx.seat] += hand_part
    elif ctx.self_draw:
        for s in SEATS:
            if s != ctx.seat:
                pay[s] -= fan * b
        pay[ctx.seat] += 3 * fan * b
    else:
        pay[ctx.discarder] -= fan * b
        pay[ctx.seat] += fan * b
    k = ctx.shaozhuang
    if k >= 1:  # 烧庄: separate from the hand part, never moved by 互包
        unit = 2 ** (k - 1) * b
        for s in SEATS:
            pay[s] += -3 * unit if s == ctx.dealer else unit
    return pay


def payouts_money(ctx, fan_capped):
    m = 2 ** fan_capped
    cap = 640
    pay = {s: 0 for s in SEATS}

    def charge(payer, rate):
        amount = min(rate * m, cap) * ctx.base
        pay[payer] -= amount
        pay[ctx.seat] += amount

    if ctx.self_draw:
        for s in SEATS:
            if s == ctx.seat:
                continue
            if ctx.is_dealer:
                charge(s, 20)  # 庄摸
            else:
                charge(s, 20 if s == ctx.dealer else 10)  # 平摸
    else:
        if ctx.is_dealer:
            rate = 40  # 点庄
        elif ctx.discarder == ctx.dealer:
            rate = 30  # 庄点
        else:
            rate = 20  # 平点
        charge(ctx.discarder, rate)
    # kong money, the winner's own kongs, never capped
    for meld, seat in zip(ctx.melds, ctx.meld_from):
        if meld[0] != KONG:
            continue
        if meld[2] == CONCEALED_KONG:
            for s in SEATS:
                if s != ctx.seat:
                    pay[s] -= 20 * ctx.base
                    pay[ctx.seat] += 20 * ctx.base
        elif seat is not None and seat != ctx.seat:
            pay[seat] -= 10 * ctx.base
            pay[ctx.seat] += 10 * ctx.base
    k = ctx.shaozhuang
    if k >= 1:  # 跟庄: the dealer pays each other player 10, doubling per further round
        unit = 10 * 2 ** (k - 1) * ctx.base
        for s in SEATS:
            pay[s] += -3 * unit if s == ctx.dealer else unit
    return pay


def payouts_zhuji(ctx, tai):
    pay = {s: 0 for s in SEATS}
    h = 2 ** tai * ctx.base
    others = [s for s in SEATS if s != ctx.seat]

    def charge(payer, amount):
        pay[payer] -= amount
        pay[ctx.seat] += amount

    if ctx.self_draw:
        for s in others:
            charge(s, h)
    elif ctx.rob_kong:
        charge(ctx.discarder, 3 * h)
    else:
        assert h % 2 == 0
        for s in others:
            charge(s, h if s == ctx.discarder else h // 2)
    if ctx.bid is not None:
        stake_b = stake(*ctx.bid) * ctx.base
        p = ctx.bidder
        for s in SEATS:
            if s == p:
                continue
            if ctx.seat == p:
                pay[s] -= stake_b
                pay[p] += stake_b
            else:
                pay[p] -= stake_b
                pay[s] += stake_b
    return pay


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------


def ref_score(hand_text, ruleset_id, situation):
    """Score a 14-tile hand by brute force.  See the module docstring."""
    ctx = Ctx(hand_text, ruleset_id, dict(situation or {}))
    found = readings(ctx)
    if ctx.four_wilds and not found:  # 四惠牌 wins whatever the shape
        tiles = [0] * NUM_KINDS
        for k in ctx.concealed:
            tiles[k] += 1
        for m in ctx.melds:
            for k in m[1]:
                tiles[k] += 1
        found = [Reading(None, [], None, ctx.winning, tiles)]
    if not found:
        return {"complete": False, "legal": False, "total": None, "payouts": None, "patterns": None}

    scored = []  # (total, legal, patterns)
    for r in found:
        if ruleset_id == "beijing":
            p = beijing_patterns(r, ctx)
            total = sum(p.values())
            legal = True
            if not ctx.four_wilds and ctx.discarder is not None:
                if ctx.exposed or ctx.wild_held >= 3:  # 吃碰堤 / three or more 惠 must self-draw
                    legal = False
        elif ruleset_id == "beijing-money":
            p = money_patterns(r, ctx)
            raw = sum(p.values())
            total = min(raw, 6)
            legal = True
            if ctx.discarder is not None and (ctx.exposed or ctx.wild_held >= 3 or raw == 0):
                legal = False
        else:
            p, standalone = zhuji_patterns(r, ctx)
            total = sum(p.values())
            if ctx.bid is not None and ctx.seat == ctx.bidder:
                minimum = ctx.bid[0]
            else:
                minimum = 1
            legal = standalone or total >= minimum
        scored.append((total, legal, p))

    best = max(t for t, _, _ in scored)
    legal = any(lg for t, lg, _ in scored if t == best)
    patterns = next(p for t, lg, p in scored if t == best and lg == legal)
    payouts = None
    if legal:
        if ruleset_id == "beijing":
            payouts = payouts_beijing(ctx, best)
        elif ruleset_id == "beijing-money":
            payouts = payouts_money(ctx, best)
        else:
            payouts = payouts_zhuji(ctx, best)
        assert sum(payouts.values()) == 0, payouts
    return {"complete": True, "legal": legal, "total": best, "payouts": payouts, "patterns": patterns}
