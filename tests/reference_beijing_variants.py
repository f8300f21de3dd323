"""An independent, slow, obviously-correct REFERENCE SCORER for the three Beijing variant rulesets.

Never imports anything from ``mjcalc``.  Written from the players' rules pages rulesets/beijing-classic.md,
rulesets/beijing-doubling.md and rulesets/beijing-hunr.md (and the choices at the top of the three YAML files),
not from the engine.  Standard library only, plus the sibling references ``reference.py`` (completeness and waits)
and ``reference_scoring.py`` (its notation parser and its brute-force set decomposition, both engine-free).

    ref_variant(hand_text, ruleset_id, situation) -> {"complete", "legal", "total", "payouts", "patterns", "reason"}

ruleset_id: "beijing-classic", "beijing-doubling" or "beijing-hunr".  ``situation`` is a dict, every field
optional: seat, dealer (default "E"), from (the discarder / robbed konger; None = self-draw), kong_draw,
last_tile, rob_kong, first_turn, base (default 1), wild (list of one tile name), indicator (a tile name: the
wild kind is the next one in the cycle), shaozhuang (K), mutual (a list of seats: 互包, beijing-classic), and
the options rob_concealed, hui_on_wall, hunr_you (bools).

``total`` is the ruleset's unit: 番 (classic and doubling: the sum of the items; for a doubling 绘杠 the flat
amount), or 点 (hunr: the product of the factors on a base of 1, or the flat 40).  Payouts are integers that
sum to 0.  By brute force, with nothing clever:

1.  parse the notation; every concealed tile of the wild kind is a wildcard (a wild tile inside a declared meld
    stands for its own face); at most 2 concealed wildcards;
2.  every substitution of every concealed wildcard by any of the 34 kinds; every decomposition into the missing
    sets + one pair, and the seven-pairs reading of a meld-less hand whose counts are all even;
3.  every placement of the winning tile in a concealed block holding its stand-in;
4.  each item is a plain function of that reading (written from the rules pages);
5.  the best reading (the highest total; for a robbed concealed kong, among the readings whose 一条龙 holds the
    robbed tile), then legality, then the payouts.

The rules of issue 25, from the pages: beijing-hunr "吃、碰、开明杠都只能自摸胡牌" (an exposed hand wins only by
self-draw; a rob is a self-draw there) and "只能吃牌或者碰牌一次，开杠不算在内" (two exposed chows/pungs: no win,
混杠 included); beijing-classic 互包 (the partner pays the whole hand part: 3P on a self-draw or a rob, P on a
discard); 捉五魁's "only wait" is over tile faces, a 5m of the wild kind drawn as itself included.
"""

from math import prod

import reference
from reference_scoring import (
    CHOW, EXPOSED, FIVE_M, KONG, NUM_KINDS, PAIR, PUNG, SEATS, kind_of, next_in_cycle, parse_hand,
    standard_decompositions, is_seven_pairs,
)

RULESETS = ("beijing-classic", "beijing-doubling", "beijing-hunr")
CLASSIC_POINTS_PER_FAN = 1000
CLASSIC_SHAOZHUANG = 1000
DOUBLING_DEALER_FACTOR = 2
DOUBLING_HUI_KONG = 16
HUNR_DISCARDER_FACTOR = 2
HUNR_FLAT = 40
HUNR_SHAOZHUANG = 10
HUNR_MOST_CLAIMS = 1  # 只能吃牌或者碰牌一次


class Ctx:
    """Everything about the hand and the situation that does not depend on the reading."""

    def __init__(self, hand_text, rid, sit):
        if rid not in RULESETS:
            raise ValueError(f"unknown ruleset {rid!r}")
        self.rid = rid
        self.concealed, self.melds, self.winning = parse_hand(hand_text)
        self.seat = sit.get("seat") or "E"
        self.dealer = sit.get("dealer") or "E"
        self.discarder = sit.get("from")
        self.kong_draw = int(sit.get("kong_draw") or 0)
        self.last_tile = bool(sit.get("last_tile"))
        self.rob_kong = bool(sit.get("rob_kong"))
        self.rob_concealed = bool(sit.get("rob_concealed")) and self.rob_kong
        self.first_turn = bool(sit.get("first_turn"))
        self.base = int(sit.get("base") or 1)
        self.shaozhuang = int(sit.get("shaozhuang") or 0)
        self.hui_on_wall = bool(sit.get("hui_on_wall"))
        self.hunr_you = bool(sit.get("hunr_you"))
        wild = [kind_of(w) for w in (sit.get("wild") or [])]
        if sit.get("indicator"):
            wild.append(next_in_cycle(kind_of(sit["indicator"])))
        self.wild = set(wild)
        if rid == "beijing-classic" and self.wild:
            raise ValueError("beijing-classic plays no wildcards")
        if len(self.wild) > 1:
            raise ValueError("one wild kind only")
        self.wild_kind = next(iter(self.wild), None)
        # every tile of the wild kind held, melds included (a kong's fourth tile too)
        self.wild_held = (sum(1 for k in self.concealed if k in self.wild)
                          + sum(1 for m in self.melds for k in m[1] if k in self.wild))
        self.naturals = [0] * NUM_KINDS
        self.n_wild = 0
        for k in self.concealed:
            if k in self.wild:
                self.n_wild += 1
            else:
                self.naturals[k] += 1
        self.winning_is_wild = self.winning in self.wild
        self.exposed = any(m[2] == EXPOSED for m in self.melds)
        # claimed 吃 and 碰: exposed melds that are not kongs ("开杠不算在内")
        self.claims = sum(1 for m in self.melds if m[2] == EXPOSED and m[0] != KONG)
        self.mutual = list(sit.get("mutual") or ())
        self.is_dealer = self.seat == self.dealer
        self.four_held = self.wild_kind is not None and self.wild_held >= 4
        self.four_wilds = self.four_held
        if rid == "beijing-hunr" and self.claims > HUNR_MOST_CLAIMS:
            # a hand that broke the limit wins nothing whatever the shape: it is judged by its shape (混杠 still
            # its only item when the shape is complete), and refused
            self.four_wilds = False
        if self.n_wild > 2 and not self.four_wilds:
            raise ValueError(f"{self.n_wild} concealed wildcards: the brute force takes at most 2")
        self.self_drawn = self.discarder is None
        self._natural_waits = None

    def natural_waits(self):
        """The tile faces completing the 13 tiles (the 14 minus the winning tile), standard or seven pairs, each
        drawn tile taken as itself: a drawn tile of the wild kind counts as its own face (a 惠 5m drawn is a 5m).

        A kind whose four copies are already among the 13 is no wait."""
        if self._natural_waits is None:
            nat13 = list(self.naturals)
            wilds13 = self.n_wild
            if self.winning_is_wild:
                wilds13 -= 1
            else:
                nat13[self.winning] -= 1
            held13 = [0] * NUM_KINDS
            for k in self.concealed:
                held13[k] += 1
            held13[self.winning] -= 1
            for m in self.melds:
                for k in m[1]:
                    held13[k] += 1
            shapes = {reference.STANDARD, reference.SEVEN_PAIRS}
            waits = set()
            for k in range(NUM_KINDS):
                if held13[k] >= 4:
                    continue
                trial = list(nat13)  # the wild kind's naturals are 0: k added here is a natural of its face
                trial[k] += 1
                if reference.ref_is_complete(trial, wilds13, len(self.melds), shapes):
                    waits.add(k)
            self._natural_waits = waits
        return self._natural_waits


class Reading:
    """One substitution + one decomposition + one placement of the winning tile.

    shape "standard" (blocks: sets and the pair, melds included; win_block: the index of the block holding the
    winning tile), "seven_pairs" or None (a 四惠/绘杠/混杠 hand with no shape).  subs: what each concealed
    wildcard stands for; win_as: what the winning tile stands for; tiles: 34 counts as read."""

    def __init__(self, shape, blocks, win_block, win_as, tiles, subs):
        self.shape, self.blocks, self.win_block = shape, blocks, win_block
        self.win_as, self.tiles, self.subs = win_as, tiles, subs

    @property
    def sets(self):
        return [b for b in self.blocks if b[0] != PAIR]


def readings(ctx):
    meld_tiles = [0] * NUM_KINDS
    for m in ctx.melds:
        for k in m[1]:
            meld_tiles[k] += 1
    sets_needed = 4 - len(ctx.melds)
    found = []
    seen_subs = set()
    for subs in _substitutions(ctx.n_wild):
        counts = list(ctx.naturals)
        for k in subs:
            counts[k] += 1
        win_as = subs[0] if ctx.winning_is_wild else ctx.winning  # the first wildcard plays the winning tile
        tiles = [counts[k] + meld_tiles[k] for k in range(NUM_KINDS)]
        for blocks in standard_decompositions(counts, sets_needed):
            all_blocks = blocks + list(ctx.melds)
            for i, b in enumerate(blocks):
                if win_as in b[1]:
                    found.append(Reading("standard", all_blocks, i, win_as, tiles, subs))
        if not ctx.melds and is_seven_pairs(counts):
            key = (tuple(counts), win_as, tuple(sorted(subs)))
            if key not in seen_subs:
                seen_subs.add(key)
                found.append(Reading("seven_pairs", [], None, win_as, tiles, subs))
    return found


def _substitutions(n):
    if n == 0:
        return [()]
    if n == 1:
        return [(a,) for a in range(NUM_KINDS)]
    return [(a, b) for a in range(NUM_KINDS) for b in range(NUM_KINDS)]


# ---------------------------------------------------------------------------------------------------------------
# Shapes and items, straight from the rules pages
# ---------------------------------------------------------------------------------------------------------------


def all_pungs(r):
    return r.shape == "standard" and all(b[0] in (PUNG, KONG) for b in r.sets)


def suits_of(r):
    return {k // 9 if k < 27 else 3 for k in range(NUM_KINDS) if r.tiles[k]}


def full_flush(r):
    s = suits_of(r)
    return len(s) == 1 and 3 not in s


def half_flush(r):
    s = suits_of(r)
    return len(s) == 2 and 3 in s


def all_honors(r):
    return suits_of(r) == {3}


def dragon_suits(r):
    """The suits in which the reading has 123, 456 and 789 as three chows."""
    if r.shape != "standard":
        return set()
    chows = {b[1] for b in r.sets if b[0] == CHOW}
    return {s for s in range(3) if all((9 * s + a, 9 * s + a + 1, 9 * s + a + 2) in chows for a in (0, 3, 6))}


def winning_tile_in_dragon(r):
    """The winning tile sits in one of the three chows of a 一条龙 (the robbed tile completes it)."""
    if r.shape != "standard" or r.win_block is None:
        return False
    block = r.blocks[r.win_block]
    if block[0] != CHOW:
        return False
    s = block[1][0] // 9
    return s in dragon_suits(r) and block[1][0] % 9 in (0, 3, 6)


def seven_pairs(r):
    return r.shape == "seven_pairs"


def luxury(r):
    return r.shape == "seven_pairs" and any(c >= 4 for c in r.tiles)


def big_single_wait(r, ctx):
    return (r.shape == "standard" and len(ctx.melds) == 4 and all(m[2] == EXPOSED for m in ctx.melds)
            and r.blocks[r.win_block][0] == PAIR)


def catch_five_chow(r, ctx):
    if r.shape != "standard" or r.win_block is None:
        return False
    block = r.blocks[r.win_block]
    return block[0] == CHOW and block[1] == (3, 4, 5) and r.win_as == FIVE_M and ctx.natural_waits() == {FIVE_M}


def catch_five_pairs(r, ctx):
    """七对单吊五万: seven pairs, the winning tile a 5m completing the pair 55m, 5m the only natural wait."""
    return r.shape == "seven_pairs" and r.win_as == FIVE_M and ctx.natural_waits() == {FIVE_M}


def kong_bloom(ctx):
    return ctx.kong_draw >= 1 and ctx.self_drawn


def own_hunr_dragon(r, ctx):
    """本混儿龙: a 一条龙 holding the hand's only 混儿, standing for itself, in the dragon's suit."""
    w = ctx.wild_kind
    if w is None or w >= 27 or ctx.wild_held != 1:
        return False
    if w // 9 not in dragon_suits(r):
        return False
    return all(k == w for k in r.subs)  # a concealed 混儿 stands for itself (one in a meld always does)


# --- beijing-classic ---------------------------------------------------------------------------------------------


def classic_items(r, ctx):
    p = {}
    star = {
        "all_pungs": (2, all_pungs(r)),
        "big_single_wait": (2, big_single_wait(r, ctx)),
        "catch_five": (2, catch_five_chow(r, ctx)),
        "sea_bottom": (2 if ctx.self_drawn else 1, ctx.last_tile),
        "dragon": (3, bool(dragon_suits(r))),
        "seven_pairs": (4, seven_pairs(r) and not luxury(r)),
        "kong_bloom": (5, kong_bloom(ctx)),
        "full_flush": (6, full_flush(r)),
        "luxury_seven_pairs": (8, luxury(r)),
    }
    for pid, (value, applies) in star.items():
        if applies:
            p[pid] = value
    if not p:
        p["tuidaohe"] = 1
    return p


def classic_payouts(ctx, fan):
    pay = {s: 0 for s in SEATS}
    points = fan * CLASSIC_POINTS_PER_FAN * ctx.base
    if ctx.exposed:  # a hand that broke 门清 is paid half, rounded up
        points = -(-points // 2)

    def charge(payer, amount):
        pay[payer] -= amount
        pay[ctx.seat] += amount

    # what one seat pays when it pays the hand alone: the robbed konger the self-draw total, a discarder his P
    whole = 3 * points if ctx.self_drawn or ctx.rob_kong else points
    if ctx.mutual:  # 互包: "则由另一家来支付其所有点数" — each partner pays the whole part, nobody else pays
        for partner in ctx.mutual:
            charge(partner, whole)
    elif ctx.self_drawn:
        for s in SEATS:
            if s != ctx.seat:
                charge(s, points)
    else:
        charge(ctx.discarder, whole)
    _shaozhuang(pay, ctx, CLASSIC_SHAOZHUANG)
    return pay


def _shaozhuang(pay, ctx, amount):
    if ctx.shaozhuang >= 1:
        unit = amount * 2 ** (ctx.shaozhuang - 1) * ctx.base
        for s in SEATS:
            pay[s] += -3 * unit if s == ctx.dealer else unit


# --- beijing-doubling --------------------------------------------------------------------------------------------


def doubling_items(r, ctx):
    p = {}
    if ctx.first_turn:
        p["heavenly" if ctx.is_dealer else "earthly"] = 4 if ctx.is_dealer else 3
    if dragon_suits(r):
        if full_flush(r):
            p["pure_dragon"] = 2
        else:
            p["dragon"] = 1
    if seven_pairs(r):
        if full_flush(r):
            p["full_flush_seven_pairs"] = 2
        if luxury(r):
            p["luxury_seven_pairs"] = 2
        if not full_flush(r) and not luxury(r):
            p["seven_pairs"] = 1
    if not ctx.exposed:
        p["concealed"] = 1
    if kong_bloom(ctx):
        p["kong_bloom"] = 2
    elif ctx.self_drawn:
        p["self_draw"] = 1
    if ctx.wild_held == 0:
        if ctx.hui_on_wall:
            p["hui_on_wall"] = 2
        else:
            p["no_wild"] = 1
    return p


def doubling_payouts(ctx, fan, flat):
    pay = {s: 0 for s in SEATS}

    def charge(payer, amount):
        pay[payer] -= amount
        pay[ctx.seat] += amount

    if flat:
        for s in SEATS:
            if s != ctx.seat:
                charge(s, DOUBLING_HUI_KONG * ctx.base)
        return pay
    chips = 2 ** fan * ctx.base

    def factor(payer):
        return DOUBLING_DEALER_FACTOR if ctx.dealer in (payer, ctx.seat) else 1

    if ctx.self_drawn:
        for s in SEATS:
            if s != ctx.seat:
                charge(s, chips * factor(s))
    else:
        charge(ctx.discarder, chips * factor(ctx.discarder))
    return pay


# --- beijing-hunr ------------------------------------------------------------------------------------------------


def hunr_items(r, ctx):
    """The base 推倒胡 1 and the factors of one reading; the hand's value is their product."""
    self_draw = ctx.self_drawn or ctx.rob_kong  # a rob counts as 自摸
    p = {"tuidaohe": 1}
    if ctx.is_dealer:
        p["dealer_win"] = 2
    if not ctx.exposed:
        p["concealed"] = 2
    if self_draw:
        p["self_draw"] = 2
    own = own_hunr_dragon(r, ctx)
    you = ctx.hunr_you and ctx.self_drawn and ctx.wild_held >= 1
    if you:
        p["hunr_you"] = 2
    elif ctx.wild_held == 0 or own:
        p["no_hunr"] = 2
    if catch_five_chow(r, ctx) or catch_five_pairs(r, ctx):
        p["catch_five"] = 2
    if ctx.last_tile:
        p["sea_bottom"] = 4
    if own:
        p["own_hunr_dragon"] = 4
    elif dragon_suits(r):
        p["dragon"] = 2
    if luxury(r):
        p["luxury_seven_pairs"] = 4
    elif seven_pairs(r):
        p["seven_pairs"] = 2
    if kong_bloom(ctx):
        p["kong_bloom"] = 2
    if full_flush(r):
        p["full_flush"] = 4
    if half_flush(r):
        p["half_flush"] = 2
    if all_honors(r):
        p["all_honors"] = 8
    return p


def hunr_flat(ctx):
    if ctx.four_wilds:
        return "four_wilds"
    if ctx.first_turn:
        return "heavenly" if ctx.is_dealer else "earthly"
    return None


def hunr_payouts(ctx, value, flat):
    pay = {s: 0 for s in SEATS}

    def charge(payer, amount):
        pay[payer] -= amount
        pay[ctx.seat] += amount

    v = value * ctx.base
    for s in SEATS:
        if s == ctx.seat:
            continue
        if flat or ctx.self_drawn or ctx.rob_kong or s != ctx.discarder:
            charge(s, v)
        else:
            charge(s, HUNR_DISCARDER_FACTOR * v)
    _shaozhuang(pay, ctx, HUNR_SHAOZHUANG)
    return pay


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------


def ref_variant(hand_text, rid, situation):
    """Score a 14-tile hand under one of the three variants by brute force.  See the module docstring."""
    ctx = Ctx(hand_text, rid, dict(situation or {}))
    flat_hand = (rid == "beijing-doubling" and ctx.four_wilds) or (rid == "beijing-hunr" and hunr_flat(ctx))
    # 绘杠 / 混杠 win whatever the shape: no reading is needed
    found = [] if ctx.four_wilds else readings(ctx)
    if ctx.four_wilds:
        tiles = [0] * NUM_KINDS
        for k in ctx.concealed:
            tiles[k] += 1
        for m in ctx.melds:
            for k in m[1]:
                tiles[k] += 1
        found = [Reading(None, [], None, ctx.winning, tiles, ())]
    if not found:
        return {"complete": False, "legal": False, "total": None, "payouts": None, "patterns": None,
                "reason": "not complete"}

    reason = None
    if ctx.rob_concealed and rid in ("beijing-classic", "beijing-hunr") and not flat_hand:
        robbable = [r for r in found if winning_tile_in_dragon(r)]
        if not robbable:
            reason = "a concealed kong may only be robbed to complete 一条龙"
        else:
            found = robbable

    if rid == "beijing-classic":
        scored = [(sum(p.values()), p) for p in (classic_items(r, ctx) for r in found)]
    elif rid == "beijing-doubling":
        if ctx.four_wilds:
            scored = [(DOUBLING_HUI_KONG, {"four_wilds": DOUBLING_HUI_KONG})]
        else:
            scored = [(sum(p.values()), p) for p in (doubling_items(r, ctx) for r in found)]
    else:
        flat = hunr_flat(ctx) or ("four_wilds" if ctx.four_held else None)
        if flat:
            scored = [(HUNR_FLAT, {flat: HUNR_FLAT})]
        else:
            scored = [(prod(p.values()), p) for p in (hunr_items(r, ctx) for r in found)]
    total, patterns = max(scored, key=lambda tp: tp[0])

    legal = reason is None
    if rid == "beijing-hunr" and ctx.claims > HUNR_MOST_CLAIMS:
        legal, reason = False, "a hand may claim at most 1 吃 or 碰"  # on any win, before any other rule
    if (legal and rid == "beijing-doubling" and not ctx.four_wilds and ctx.wild and ctx.exposed
            and not ctx.self_drawn):
        legal, reason = False, "吃碰堤: with 绘 in play a hand with an exposed meld must self-draw"
    if legal and rid == "beijing-hunr" and not flat_hand and ctx.exposed and not ctx.self_drawn and not ctx.rob_kong:
        legal, reason = False, "吃碰堤: an exposed hand (吃、碰、开明杠) wins only by self-draw"
    payouts = None
    if legal:
        if rid == "beijing-classic":
            payouts = classic_payouts(ctx, total)
        elif rid == "beijing-doubling":
            payouts = doubling_payouts(ctx, total, ctx.four_wilds)
        else:
            payouts = hunr_payouts(ctx, total, bool(hunr_flat(ctx)))
        assert sum(payouts.values()) == 0, payouts
    return {"complete": True, "legal": legal, "total": total, "payouts": payouts, "patterns": patterns,
            "reason": reason}
