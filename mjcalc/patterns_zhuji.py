"""Detectors used by the Zhuji 诸暨包牌 ruleset (registered into patterns.DETECTORS)."""
from .shapes import STANDARD
from .hand import CHOW, KONG, PAIR, PUNG
from .patterns import pattern, seat_wind
from .tiles import DRAGONS, EAST


def _pungs_of(r, tile) -> int:
    return sum(1 for b in r.blocks if b.kind in (PUNG, KONG) and b.tiles[0] == tile)


@pattern("east_pung")
def east_pung(r, p):
    """东风: a pung or kong of East; the dealer's counts `dealer_count` times (the ruleset says how many)."""
    if not _pungs_of(r, EAST):
        return 0
    return p.param("dealer_count", 1) if r.situation.is_dealer else 1


@pattern("seat_wind_pung")
def seat_wind_pung(r, p):
    """门风: a pung or kong of one's own wind, South, West or North (the dealer's East is `east_pung`)."""
    wind = seat_wind(r.situation)
    return 0 if wind == EAST else _pungs_of(r, wind)


@pattern("pinghu")
def pinghu(r, p):
    """平胡: four chows and a pair that is no dragon, not East and not the winner's own wind."""
    if r.shape != STANDARD:
        return 0
    sets = [b for b in r.blocks if b.kind != PAIR]
    pairs = [b for b in r.blocks if b.kind == PAIR]
    if len(sets) != 4 or len(pairs) != 1 or any(b.kind != CHOW for b in sets):
        return 0
    eye = pairs[0].tiles[0]
    return int(eye not in DRAGONS and eye != EAST and eye != seat_wind(r.situation))


@pattern("no_wild")
def no_wild(r, p):
    """无财: no wildcard tile among the 14; a wildcard playing its own face is still one."""
    return int(r.wild_tiles == 0)
