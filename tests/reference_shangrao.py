"""An independent, slow, obviously-correct REFERENCE SCORER for the Shangrao 上饶 ruleset (tests only).

Never imports anything from ``mjcalc``.  Written from the rules page rulesets/shangrao.md, the notation, the CLI and the
comment block at the top of rulesets/shangrao.yaml (its exact readings of 宝吊头 / 宝吊宝 / 宝吊无宝 and its
choices where the rules are silent).  Standard library only, plus the notation parser of the sibling reference
``reference_scoring`` (itself independent of the engine).

    ref_score_shangrao(hand_text, situation) -> {"complete", "legal", "total", "bonus", "payouts", "patterns"}

``situation`` (every field optional): seat, dealer ("E"/"S"/"W"/"N", default "E"), from (the discarder / the
robbed konger; None = self-draw), kong_draw (int), rob_kong, first_turn (bools), base (int, default 1), wild (a
list with one tile name: the 宝 kind), flown (int: 宝 the winner has discarded), flown_by ({seat: n}), four_wild,
jiebao (bools), kong (list of "SEAT:exposed" / "SEAT:concealed": other seats' kongs).

total is V, the per-loser value before a loser's own 飞宝 factor (not times --base); bonus is the winner's bonus
per payer (not times --base); payouts are the four deltas times --base (None when not a legal win).

How, by brute force and nothing clever:

1.  parse the notation (concealed tiles incl. the ``+X`` winning tile, ``[..]`` exposed melds, ``{..}`` concealed
    kongs); every concealed tile of the 宝 kind W is a 宝 (a W inside a declared meld is just its face); at most
    2 concealed 宝 (ValueError above that);
2.  every ordered substitution of the concealed 宝 by any of the 34 kinds (a fifth copy allowed); a 宝 put back
    as W itself is NOT wild; the reading is "with 宝" (wild) when some 宝 stands for another kind.  When the
    winning tile is a 宝, the first 宝 plays it;
3.  every reading of the substituted concealed tiles in every shape: standard ((4 - melds) sets + one pair, every
    placement of the winning tile in a concealed block holding its stand-in); and, with no melds at all, 七对
    (all counts even; a four is two pairs), 十三浪 (14 distinct kinds, in each suit any two ranks >= 3 apart),
    九幺 (every tile a 1, a 9 or an honor);
4.  for each reading every base pattern that applies (straight from the spec's table + the yaml's definitions),
    each with its own final value = base x multipliers (杠开 2^N on a self-draw, 单吊 x2 with four declared melds,
    九幺 x2 when every tile as read is 1/9/honor and the base is not 九幺 itself, winner's 飞宝 2^N unless it is a
    first-turn win); 天糊/地糊 are a flat 10 base, nothing multiplies them;
5.  V = the best final value; legality; payouts by the spec's formulas.

Readings written down (where the yaml is explicit, its words; where it is not, marked CHOICE):

*   宝吊头 (3): a standard reading, winning tile placed in the pair, and either (natural winning tile X) some 宝
    stands for X -- the pair is X + that 宝 -- or (a 宝 winning) the other 宝 stands for the same kind as the
    winning 宝 -- the pair is two 宝.
*   宝吊宝 (6): 宝吊头 with a 宝 winning, the two 宝 of the pair both standing for W itself, and some other 宝
    wild.  Needs 3 concealed 宝, so it never arises within this reference's limit of 2 (kept for clarity).
*   宝吊无宝 (6): the finished reading is standard with no 宝 wild, and the 13 tiles before the winning tile are
    偷机: one 宝 set aside, the other 12 concealed tiles (any remaining 宝 wild, every substitution) form
    (4 - melds) sets and no pair.  碰碰糊宝吊头 (8) / 碰碰糊宝吊无宝 (16): the same with every set a pung/kong.
*   平糊 (1): standard, with 宝 wild.  平糊自摸 (2): standard, no 宝 wild, at least one chow (melds included).
    碰碰糊 (4) / 清碰碰糊 (10): standard, every set a pung or kong, with / without 宝 wild.
*   七对 4 / 清七对 10 / 豪华七对 4*2^n / 清豪华七对 10*2^n, n = the number of fours (count // 4 of each kind).
*   十三浪 / 九幺: with 宝 2, without 4; 七星 (all seven honors among the tiles as read): with 4, without 8.
*   天糊 (10): first turn, the winner is the dealer, self-drawn.  地糊 (10): first turn, the winner is not the
    dealer, on the dealer's discard only (issue 12: a non-dealer's first self-draw is an ordinary win).
*   九幺 modifier: all 14 tiles as read, melds included, are 1/9/honors (CHOICE: melds count).
*   杠开: kong_draw N >= 1 and self-drawn (CHOICE, as in the other references: not on a discard win).
*   Ties between a flat 天糊/地糊 and another base of the same final value: the flat one is kept (CHOICE: the only
    difference is whether a loser's own 飞宝 multiplies his share; see ``prefer_flat``).
*   Legal: self-draw; 抢杠 (rob_kong with a from); 地糊 on the dealer's first discard (first_turn, the winner not
    the dealer, from = the dealer, not rob_kong).  Anything else from a discarder is not legal.
*   Payouts: self-draw: each other s pays V * f(s) + bonus; 抢杠: the konger pays 6 * V * f(konger), every other
    pays the bonus; 地糊 on a discard: the dealer pays V * f(dealer), every other pays the bonus.  f(s) = 2^flown_by
    [s], or 1 when the kept base is 天糊/地糊.  bonus = 1 per exposed kong [XXXX] + 2 per concealed kong {XXXX} of
    the winner + 接宝 10 + 四个宝 10.  Other seats' kongs (``kong``): each of the three others pays the owner 1
    (exposed) or 2 (concealed).  Everything times base.
"""

from itertools import product

from reference_scoring import CONCEALED_KONG, KONG, is_seven_pairs, kind_of, parse_hand, standard_decompositions

NUM_KINDS = 34
SEATS = "ESWN"
HONORS = tuple(range(27, 34))
TERMINALS_HONORS = frozenset((0, 8, 9, 17, 18, 26) + HONORS)

CHOW, PUNG, PAIR = "chow", "pung", "pair"


# ---------------------------------------------------------------------------------------------------------------
# Shapes of a natural (substituted) multiset of concealed tiles
# ---------------------------------------------------------------------------------------------------------------


def set_decompositions(counts, sets_needed, pairs_needed):
    """Every multiset of (kind, tiles) blocks: ``sets_needed`` sets + ``pairs_needed`` pairs using every tile."""
    return [[(kind, tiles) for kind, tiles, _ in blocks]
            for blocks in standard_decompositions(counts, sets_needed, pairs_needed)]


def is_thirteen_lonely(counts):
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return False
    for suit in range(3):
        ranks = [r for r in range(9) if counts[9 * suit + r]]
        for a in ranks:
            for b in ranks:
                if a < b and b - a < 3:
                    return False
    return True


def is_nine_terminals(counts):
    return sum(counts) == 14 and all(counts[k] == 0 for k in range(NUM_KINDS) if k not in TERMINALS_HONORS)


def has_all_honors(counts):
    return all(counts[k] >= 1 for k in HONORS)


# ---------------------------------------------------------------------------------------------------------------
# The hand and the situation
# ---------------------------------------------------------------------------------------------------------------


class Ctx:
    def __init__(self, hand_text, sit):
        self.concealed, self.melds, self.winning = parse_hand(hand_text)
        self.seat = sit.get("seat") or "E"
        self.dealer = sit.get("dealer") or "E"
        self.discarder = sit.get("from")
        self.kong_draw = int(sit.get("kong_draw") or 0)
        self.rob_kong = bool(sit.get("rob_kong"))
        self.first_turn = bool(sit.get("first_turn"))
        self.base = int(sit.get("base") or 1)
        wild = list(sit.get("wild") or [])
        if len(wild) > 1:
            raise ValueError("shangrao has one 宝 kind")
        self.wild = kind_of(wild[0]) if wild else None
        self.flown = int(sit.get("flown") or 0)
        self.flown_by = {s: int(n) for s, n in (sit.get("flown_by") or {}).items()}
        self.four_wild = bool(sit.get("four_wild"))
        self.jiebao = bool(sit.get("jiebao"))
        self.other_kongs = []
        for item in sit.get("kong") or []:
            seat, how = item.split(":")
            self.other_kongs.append((seat, how))
        # the concealed tiles: naturals and 宝 (a W in a meld is only its face)
        self.naturals = [0] * NUM_KINDS
        self.n_bao = 0
        for k in self.concealed:
            if k == self.wild:
                self.n_bao += 1
            else:
                self.naturals[k] += 1
        if self.n_bao > 2:
            raise ValueError(f"{self.n_bao} concealed 宝: the brute force takes at most 2")
        self.winning_is_bao = self.winning == self.wild
        self.meld_counts = [0] * NUM_KINDS
        for m in self.melds:
            for k in m[1]:
                self.meld_counts[k] += 1
        self.sets_needed = 4 - len(self.melds)
        self.self_draw = self.discarder is None
        self._touji = None

    # --- 偷机: the 13 tiles before the winning tile are four sets and a lone 宝 -------------------------------
    def touji(self):
        if self._touji is None:
            thirteen = list(self.concealed)
            thirteen.remove(self.winning)
            baos = sum(1 for k in thirteen if k == self.wild)
            result = False
            if baos >= 1:
                nat = [0] * NUM_KINDS
                for k in thirteen:
                    if k != self.wild:
                        nat[k] += 1
                rest = baos - 1  # one 宝 set aside; the others may stand for anything
                for subs in product(range(NUM_KINDS), repeat=rest):
                    c = list(nat)
                    for k in subs:
                        c[k] += 1
                    if set_decompositions(c, self.sets_needed, 0):
                        result = True
                        break
            self._touji = result
        return self._touji


# ---------------------------------------------------------------------------------------------------------------
# Candidates: (base id, base value, final value, flat) for every reading
# ---------------------------------------------------------------------------------------------------------------


def _multiplied(ctx, base_id, value, standard_four_melds, all_orphans):
    """base value x the multipliers; returns (final, [(multiplier id, factor)])."""
    mults = []
    if ctx.kong_draw >= 1 and ctx.self_draw:
        mults.append(("kong_bloom", 2 ** ctx.kong_draw))
    if standard_four_melds:
        mults.append(("single_wait", 2))
    if all_orphans and base_id not in ("nine_terminals", "seven_star_nine_terminals"):
        mults.append(("all_terminals_and_honors", 2))
    if ctx.flown >= 1 and not ctx.first_turn:
        mults.append(("flown", 2 ** ctx.flown))
    final = value
    for _, f in mults:
        final *= f
    return final, mults


def candidates(ctx):
    """Every (final value, flat, patterns) over every reading and every base that applies to it."""
    out = []
    meld_sets_pung = all(m[0] in (PUNG, KONG) for m in ctx.melds)
    meld_has_chow = any(m[0] == CHOW for m in ctx.melds)
    heavenly = ctx.first_turn and ctx.seat == ctx.dealer and ctx.self_draw
    earthly = ctx.first_turn and ctx.seat != ctx.dealer and ctx.discarder == ctx.dealer and not ctx.rob_kong

    def add(base_id, value, tiles, standard_four_melds=False):
        all_orphans = all(tiles[k] == 0 for k in range(NUM_KINDS) if k not in TERMINALS_HONORS)
        final, mults = _multiplied(ctx, base_id, value, standard_four_melds, all_orphans)
        out.append((final, False, {base_id: value, **dict(mults)}))

    for subs in product(range(NUM_KINDS), repeat=ctx.n_bao):
        counts = list(ctx.naturals)
        for k in subs:
            counts[k] += 1
        wild = any(k != ctx.wild for k in subs)  # some 宝 stands for another kind
        win_as = subs[0] if ctx.winning_is_bao else ctx.winning
        tiles = [counts[k] + ctx.meld_counts[k] for k in range(NUM_KINDS)]
        found_any = False

        # standard
        for blocks in set_decompositions(counts, ctx.sets_needed, 1):
            found_any = True
            sets_all_pungs = meld_sets_pung and all(b[0] != CHOW for b in blocks if b[0] != PAIR)
            has_chow = meld_has_chow or any(b[0] == CHOW for b in blocks)
            pair = next(b for b in blocks if b[0] == PAIR)
            four_melds = len(ctx.melds) == 4
            for _i, b in enumerate(blocks):  # every placement of the winning tile
                if win_as not in b[1]:
                    continue
                in_pair = b[0] == PAIR
                if wild:
                    add("pungs" if sets_all_pungs else "plain", 4 if sets_all_pungs else 1, tiles, four_melds)
                    if sets_all_pungs:
                        add("plain", 1, tiles, four_melds)
                else:
                    if sets_all_pungs:
                        add("pure_pungs", 10, tiles, four_melds)
                    if has_chow:
                        add("pure_self_draw", 2, tiles, four_melds)
                    if ctx.touji():  # 宝吊无宝
                        if sets_all_pungs:
                            add("pungs_wild_single_none", 16, tiles, four_melds)
                        add("wild_single_none", 6, tiles, four_melds)
                # 宝吊头: the winning tile in the pair, with a 宝 as its partner
                if in_pair and pair[1][0] == win_as:
                    if ctx.winning_is_bao:
                        bao_single = ctx.n_bao >= 2 and subs[1] == subs[0]
                    else:
                        bao_single = any(k == win_as for k in subs) and win_as != ctx.wild
                    if bao_single:
                        add("pungs_wild_single" if sets_all_pungs else "wild_single",
                            8 if sets_all_pungs else 3, tiles, four_melds)
                        if sets_all_pungs:
                            add("wild_single", 3, tiles, four_melds)
                        # 宝吊宝: won on a second 宝, the pair natural 宝, another 宝 still wild (needs 3 宝)
                        if (ctx.winning_is_bao and subs[0] == ctx.wild
                                and any(k != ctx.wild for k in subs[2:])):
                            add("wild_single_wild", 6, tiles, four_melds)

        if not ctx.melds:
            if is_seven_pairs(counts):
                found_any = True
                n = sum(c // 4 for c in counts)
                if wild:
                    add("luxury_seven_pairs" if n else "seven_pairs", 4 * 2 ** n, tiles)
                else:
                    add("pure_luxury_seven_pairs" if n else "pure_seven_pairs", 10 * 2 ** n, tiles)
            if is_thirteen_lonely(counts):
                found_any = True
                star = has_all_honors(counts)
                value = (4 if star else 2) if wild else (8 if star else 4)
                add("seven_star_thirteen_lonely" if star else "thirteen_lonely", value, tiles)
            if is_nine_terminals(counts):
                found_any = True
                star = has_all_honors(counts)
                value = (4 if star else 2) if wild else (8 if star else 4)
                add("seven_star_nine_terminals" if star else "nine_terminals", value, tiles)

        if found_any and (heavenly or earthly):
            out.append((10, True, {"heavenly" if heavenly else "earthly": 10}))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------


def is_legal(ctx):
    if ctx.discarder is None:
        return True
    if ctx.rob_kong:
        return True
    return ctx.first_turn and ctx.seat != ctx.dealer and ctx.discarder == ctx.dealer


def ref_score_shangrao(hand_text, situation=None, prefer_flat=True):
    ctx = Ctx(hand_text, dict(situation or {}))
    cands = candidates(ctx)
    if not cands:
        return {"complete": False, "legal": False, "total": None, "bonus": None, "payouts": None, "patterns": None}
    best = max(c[0] for c in cands)
    at_best = [c for c in cands if c[0] == best]
    flat_options = {c[1] for c in at_best}
    flat = (True in flat_options) if prefer_flat else (False not in flat_options)
    patterns = dict(next(c[2] for c in at_best if c[1] == flat))

    bonus = 0
    for m in ctx.melds:
        if m[0] == KONG:
            if m[2] == CONCEALED_KONG:
                bonus += 2
                patterns["concealed_kong"] = patterns.get("concealed_kong", 0) + 2
            else:
                bonus += 1
                patterns["exposed_kong"] = patterns.get("exposed_kong", 0) + 1
    if ctx.jiebao:
        bonus += 10
        patterns["jiebao"] = 10
    if ctx.four_wild:
        bonus += 10
        patterns["four_wild"] = 10

    legal = is_legal(ctx)
    payouts = None
    if legal:
        b = ctx.base
        pay = {s: 0 for s in SEATS}

        def charge(payer, earner, amount):
            pay[payer] -= amount * b
            pay[earner] += amount * b

        def factor(s):
            return 1 if flat else 2 ** ctx.flown_by.get(s, 0)

        others = [s for s in SEATS if s != ctx.seat]
        if ctx.self_draw:
            for s in others:
                charge(s, ctx.seat, best * factor(s))
        elif ctx.rob_kong:
            charge(ctx.discarder, ctx.seat, 6 * best * factor(ctx.discarder))
        else:  # 地糊 on the dealer's first discard
            charge(ctx.dealer, ctx.seat, best * factor(ctx.dealer))
        for s in others:
            charge(s, ctx.seat, bonus)
        for owner, how in ctx.other_kongs:
            for s in SEATS:
                if s != owner:
                    charge(s, owner, 2 if how == "concealed" else 1)
        assert sum(pay.values()) == 0, pay
        payouts = pay
    return {"complete": True, "legal": legal, "total": best, "bonus": bonus, "payouts": payouts,
            "patterns": patterns, "flat": flat, "flat_tie": len(flat_options) == 2}
