"""Detectors used by the Shangrao 上饶 ruleset (registered into patterns.DETECTORS).

上饶 counts a 宝 as wild only when it stands for something other than its own face (`Reading.wild_roles`):
a hand whose 宝 all stand for themselves is 无宝 (清). The precise readings of 宝吊头, 宝吊宝 and 宝吊无宝 are
written at the top of rulesets/shangrao.yaml.
"""
from .shapes import NINE_TERMINALS, SEVEN_PAIRS, STANDARD, THIRTEEN_LONELY, is_complete
from .hand import CHOW, KONG, PAIR, PUNG, WILD
from .patterns import pattern
from .tiles import HONORS


def _sets(r):
    return [b for b in r.blocks if b.kind in (CHOW, PUNG, KONG)]


def _standard(r) -> bool:
    return r.shape == STANDARD


def _all_pungs(r) -> bool:
    return _standard(r) and all(b.kind in (PUNG, KONG) for b in _sets(r))


def _wins_on_wild(r) -> bool:
    win = r.hand.winning
    return win == WILD or win in r.tiles.wild_kinds


def _wild_single(r) -> bool:
    """The winning tile pairs with a lone 宝: the pair is the winning tile and one 宝 (both wild if a 宝 won)."""
    b = r.winning_block
    if not _standard(r) or b is None or b.kind != PAIR:
        return False
    return len(b.wild_as) == (2 if _wins_on_wild(r) else 1)


def _was_wild_single(r) -> bool:
    """偷机: the 13 tiles before the winning tile are four sets and one lone 宝, so any draw would win."""
    before = r.tiles.before
    if before.wilds < 1:
        return False
    counts = list(before.naturals)
    # The 12 tiles left after setting one 宝 aside form sets exactly when adding a natural pair of an honor
    # they do not hold completes them: that pair is either the pair or, with one more 宝, a pung.
    spare = next((h for h in HONORS if not counts[h]), None)
    if spare is None:
        return False
    counts[spare] += 2
    return is_complete(counts, before.wilds - 1, before.melds, (STANDARD,))


def _wild_single_none(r) -> bool:
    """From 宝吊头, the draw left no 宝 in a wildcard role (a natural pair or pung of 宝)."""
    return _standard(r) and r.wild_roles == 0 and _was_wild_single(r)


def _seven_stars(r) -> bool:
    return all(h in r.kinds for h in HONORS)


@pattern("plain")
def plain(r, p):
    """平糊: four sets and a pair with a 宝 in a wildcard role."""
    return int(_standard(r) and r.wild_roles > 0)


@pattern("pure_self_draw")
def pure_self_draw(r, p):
    """平糊自摸: four sets and a pair, no 宝 in a wildcard role, at least one chow."""
    return int(_standard(r) and r.wild_roles == 0 and any(b.kind == CHOW for b in _sets(r)))


@pattern("wild_single")
def wild_single(r, p):
    """宝吊头: four sets and a lone 宝, completed by the winning tile as the pair."""
    return int(_wild_single(r))


@pattern("wild_single_wild")
def wild_single_wild(r, p):
    """宝吊宝: 宝吊头 won by drawing a second 宝, the two a natural pair, another 宝 still wild."""
    b = r.winning_block
    return int(_wild_single(r) and _wins_on_wild(r) and b.wild_as[0] in r.tiles.wild_kinds and r.wild_roles > 0)


@pattern("wild_single_none")
def wild_single_none(r, p):
    """宝吊无宝: from 宝吊头, the draw leaves every 宝 standing for itself."""
    return int(_wild_single_none(r))


@pattern("pungs")
def pungs(r, p):
    """碰碰糊: four pungs or kongs and a pair, a 宝 in a wildcard role."""
    return int(_all_pungs(r) and r.wild_roles > 0)


@pattern("pure_pungs")
def pure_pungs(r, p):
    """清碰碰糊: four pungs or kongs and a pair, no 宝 in a wildcard role."""
    return int(_all_pungs(r) and r.wild_roles == 0)


@pattern("pungs_wild_single")
def pungs_wild_single(r, p):
    """碰碰糊宝吊头: four pungs or kongs, the pair a lone 宝 and the winning tile."""
    return int(_all_pungs(r) and _wild_single(r))


@pattern("pungs_wild_single_none")
def pungs_wild_single_none(r, p):
    """碰碰糊宝吊无宝: four pungs or kongs, from 宝吊头, no 宝 left in a wildcard role."""
    return int(_all_pungs(r) and _wild_single_none(r))


@pattern("pure_seven_pairs")
def pure_seven_pairs(r, p):
    """清七对: seven pairs, no 宝 in a wildcard role."""
    return int(r.shape == SEVEN_PAIRS and r.wild_roles == 0)


@pattern("pure_luxury_seven_pairs")
def pure_luxury_seven_pairs(r, p):
    """清豪华七对: seven pairs with fours, no 宝 in a wildcard role; counts the fours."""
    if r.shape != SEVEN_PAIRS or r.wild_roles:
        return 0
    pairs = [b.tiles[0] for b in r.blocks]
    return sum(pairs.count(t) // 2 for t in set(pairs))


@pattern("seven_star_thirteen_lonely")
def seven_star_thirteen_lonely(r, p):
    """七星十三浪: a 十三浪 holding all seven honors (a 宝 may fill one)."""
    return int(r.shape == THIRTEEN_LONELY and _seven_stars(r))


@pattern("seven_star_nine_terminals")
def seven_star_nine_terminals(r, p):
    """七星九幺: a 九幺 holding all seven honors (a 宝 may fill one)."""
    return int(r.shape == NINE_TERMINALS and _seven_stars(r))


@pattern("single_wait")
def single_wait(r, p):
    """单吊: four melds declared, won on the single tile left in hand."""
    b = r.winning_block
    return int(_standard(r) and len(r.hand.melds) == 4 and b is not None and b.kind == PAIR)


@pattern("flown")
def flown(r, p):
    """飞宝: 宝 the winner has discarded; counts them (none on a first-turn win, 天糊/地糊)."""
    s = r.situation
    return 0 if s.first_turn else s.flown


@pattern("exposed_kong")
def exposed_kong(r, p):
    """碰杠: the winner's exposed kongs; counts them."""
    return sum(1 for m in r.hand.melds if m.kind == KONG and m.exposed)


@pattern("concealed_kong")
def concealed_kong(r, p):
    """自摸杠: the winner's concealed kongs; counts them."""
    return sum(1 for m in r.hand.melds if m.kind == KONG and m.concealed)


@pattern("jiebao")
def jiebao(r, p):
    """接宝: given by the situation (--jiebao)."""
    return int(r.situation.jiebao)


@pattern("four_wild")
def four_wild(r, p):
    """四个宝: the winner drew all four 宝 this hand (--four-wild)."""
    return int(r.situation.four_wild)
