"""An independent Monte Carlo check of `mjcalc.value`: deal the wall, play, count.

Written apart from the engine: it builds the wall itself (4 of each kind less the hand, its melds, the
wildcards' faces and the seen tiles), shuffles it, draws, and judges every win itself with the library's
`is_complete` and `analyze` (the scorer, not the engine). The only thing it takes from the engine is the
policy: when a draw does not win, which tile the player throws (`Engine.player(discard).throw(drawn)`): the
drawn tile, or a hand tile when the player keeps the drawn one (a step toward ready, or an exchange at the
same shanten). The hand it plays is its own list of tiles; a throw of a tile it does not hold fails.
"""
import math
import random

from mjcalc.analysis import analyze
from mjcalc.shapes import is_complete
from mjcalc.hand import Hand
from mjcalc.tiles import WILD

KINDS = 34


class Result:
    def __init__(self, trials, wins, payouts):
        self.trials = trials
        self.wins = wins
        self.payouts = payouts  # one per trial, 0 for no win

    @property
    def p(self):
        return self.wins / self.trials

    @property
    def p_se(self):
        return math.sqrt(max(self.p * (1 - self.p), 1e-12) / self.trials)

    @property
    def mean(self):
        return sum(self.payouts) / self.trials

    @property
    def mean_se(self):
        m = self.mean
        var = sum((x - m) ** 2 for x in self.payouts) / max(1, self.trials - 1)
        return math.sqrt(max(var, 1e-12) / self.trials)


def wall_of(hand, wild_kinds, seen=None, copies=None):
    """The unseen tiles, one entry per tile: `copies` of each kind (the ruleset's wall; 4 of each of the 34 when
    not given) less the hand, its melds and `seen`."""
    left = list(copies) if copies is not None else [4] * KINDS
    for t in hand.tiles:
        face = (wild_kinds[0] if wild_kinds else None) if t == WILD else t
        if face is not None:
            left[face] -= 1
    for t in hand.meld_tiles:
        left[t] -= 1
    for t, n in enumerate(seen or ()):
        left[t] -= n
    assert min(left) >= 0
    return [t for t in range(KINDS) for _ in range(left[t])]


def simulate(engine, hand, ruleset, situation, wild_kinds, discard, draws, trials, seed, seen=None):
    """Play `trials` deals after throwing `discard` (a kind, or WILD for a `*`); wins are taken when legal."""
    rng = random.Random(seed)
    wall = wall_of(hand, wild_kinds, seen, ruleset.wall.copies)
    self_draw = situation.replace(discarder=None, rob_kong=False, kong_draw=0, first_turn=False, last_tile=False)
    automatic = any(p.id == "four_wilds" for p in ruleset.patterns) and bool(wild_kinds)
    meld_tiles = list(hand.meld_tiles)
    scored = {}
    wins, payouts = 0, []
    for _ in range(trials):
        tiles = list(hand.tiles)
        tiles.remove(discard)
        player = engine.player(discard)
        rng.shuffle(wall)
        paid = 0
        for drawn in wall[:draws]:
            tiles.append(drawn)
            key = (tuple(sorted(tiles)), drawn)
            if key not in scored:
                scored[key] = _judge(tiles, drawn, hand.melds, meld_tiles, ruleset, self_draw, wild_kinds, automatic)
            legal, pay = scored[key]
            if legal:
                wins += 1
                paid = pay
                break
            thrown = player.throw(drawn)
            tiles.remove(thrown)  # a ValueError here: the policy threw a tile the hand does not hold
        payouts.append(paid)
    return Result(trials, wins, payouts)


def _judge(tiles, drawn, melds, meld_tiles, ruleset, situation, wild_kinds, automatic):
    naturals = [0] * KINDS
    wilds = 0
    held = [0] * KINDS
    for t in tiles:
        if t == WILD or t in wild_kinds:
            wilds += 1
            held[wild_kinds[0] if t == WILD else t] += 1
        else:
            naturals[t] += 1
    for t in meld_tiles:
        held[t] += 1
    four = automatic and any(held[k] == 4 for k in wild_kinds)
    if not four and not is_complete(naturals, wilds, len(melds), ruleset.shapes):
        return False, 0
    rest = list(tiles)
    rest.remove(drawn)
    result = analyze(Hand(tuple(sorted(rest)), melds, drawn), ruleset, situation)
    if result.score is None or not result.score.legal:
        return False, 0
    return True, result.payout.deltas[situation.seat]


def simulate_table(engine, hand, ruleset, situation, wild_kinds, discard, trials, seed, rivals, seen=None):
    """The table's game (issue 37) as the engine's model states it, played out: after the player's discard
    each other seat, in turn order, throws a tile: one of the tiles the player has not drawn, the wildcards
    excepted, each alike likely, and not taken from the wall (the others' tiles are as unknown as the wall's,
    and their discards leave its proportions as they were). A ready hand wins on it when the scorer says the
    win on that seat's discard is legal; a hand not ready may claim it as the engine's policy says
    (`Plan.claim`: a pung, or a chow of the seat before the player's discard), throw, and the others discard
    again, the draws as they were. Then, unless another seat wins (a coin with `rivals.hazard(age)`, the deal
    `age` cycles old), the player draws, wins when legal, or throws as the engine's policy says. After the last
    draw the others discard once more. Another's win costs the player the engine's `loss` (what the model says
    it costs: `Rivals.loss`, or the engine's default from the ruleset)."""
    rng = random.Random(seed)
    wall = wall_of(hand, wild_kinds, seen, ruleset.wall.copies)
    self_draw = situation.replace(discarder=None, rob_kong=False, kong_draw=0, first_turn=False, last_tile=False)
    order = "ESWN"
    after = order.index(self_draw.seat)
    on_discard = [self_draw.replace(discarder=order[(after + i) % 4]) for i in range(1, rivals.others + 1)]
    automatic = any(p.id == "four_wilds" for p in ruleset.patterns) and bool(wild_kinds)
    age = sum(seen or ()) // 4
    scored = {}
    wins, payouts, claims = 0, [], 0
    for _ in range(trials):
        tiles = list(hand.tiles)
        tiles.remove(discard)
        melds, meld_tiles = list(hand.melds), list(hand.meld_tiles)
        player = engine.player(discard)
        rng.shuffle(wall)
        paid, won, t = 0, False, 0  # t: the draws made
        while True:
            rest = [x for x in wall[t:] if x not in wild_kinds]
            claimed = False
            for who, situation_of in enumerate(on_discard):
                thrown = rng.choice(rest)
                key = (tuple(sorted(tiles + [thrown])), thrown, situation_of.discarder, tuple(melds))
                if key not in scored:
                    scored[key] = _judge(tiles + [thrown], thrown, tuple(melds), meld_tiles, ruleset, situation_of,
                                         wild_kinds, automatic)
                legal, pay = scored[key]
                if legal:
                    won, paid = True, pay
                    break
                if not player.spent:
                    got = player.claim(thrown, who)
                    if got is not None:
                        meld, thrown_after = got
                        used = list(meld.tiles)
                        used.remove(thrown)
                        for x in used:
                            tiles.remove(x)  # a ValueError here: the claim used a tile the hand does not hold
                        melds.append(meld)
                        meld_tiles.extend(meld.tiles)
                        tiles.remove(thrown_after)
                        claimed = True
                        claims += 1
                        break
            if won or not claimed and t == engine.draws:
                break
            if claimed:
                continue
            if rng.random() < rivals.hazard(age + t):
                paid = -engine.loss  # another won: what that costs the player (`Rivals.loss`)
                break
            drawn = wall[t]
            t += 1
            tiles.append(drawn)
            key = (tuple(sorted(tiles)), drawn, None, tuple(melds))
            if key not in scored:
                scored[key] = _judge(tiles, drawn, tuple(melds), meld_tiles, ruleset, self_draw, wild_kinds, automatic)
            legal, pay = scored[key]
            if legal:
                won, paid = True, pay
                break
            tiles.remove(player.throw(drawn))  # a ValueError here: the policy threw a tile the hand does not hold
        wins += won
        payouts.append(paid)
    result = Result(trials, wins, payouts)
    result.claims = claims
    return result
