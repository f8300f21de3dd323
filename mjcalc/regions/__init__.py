"""Every region mjcalc knows, listed here and nowhere else; a ruleset's YAML names its region.

A region is one module (`regions/<name>.py`) holding what that region means, and one line below. A region
written outside mjcalc (a house region in Python) is added with `register(region)`; no module adds itself
by being imported.
"""
from typing import Dict, List

from ..errors import RulesetError, close_matches
from ..situation import GENERIC, Option
from . import beijing, shangrao, zhuji
from .base import Region

_REGIONS: Dict[str, Region] = {}


def register(region: Region) -> Region:
    """Make `region` known by its id. Its payout schemes and option names must not clash with another's."""
    if not region.id:
        raise RulesetError("a region needs an id")
    for other in _REGIONS.values():
        if other.id == region.id:
            continue
        clash = set(other.schemes) & set(region.schemes)
        if clash:
            raise RulesetError(f"region {region.id}: payout scheme {sorted(clash)[0]!r} is {other.id}'s already")
        for option in region.options:
            theirs = other.option(option.name)
            if theirs is not None and theirs != option:
                raise RulesetError(f"region {region.id}: option {option.name!r} means something else in {other.id}")
    for option in region.options:
        if option.name in GENERIC:
            raise RulesetError(f"region {region.id}: option {option.name!r} is a generic situation field")
    _REGIONS[region.id] = region
    return region


def unregister(region_id: str):
    """Forget a region added with `register` (the built-in ones stay)."""
    if region_id in _BUILTIN:
        raise RulesetError(f"region {region_id} is built in")
    _REGIONS.pop(region_id, None)


_BUILTIN = ("beijing", "zhuji", "shangrao")
for _region in (beijing.REGION, zhuji.REGION, shangrao.REGION):
    register(_region)


def find_region(name: str) -> Region:
    region = _REGIONS.get(name)
    if region is None:
        hint = close_matches(str(name), list(_REGIONS), n=1)
        raise RulesetError(f"unknown region {name!r}" + (f" (did you mean '{hint[0]}'?)" if hint else
                                                          f" (known: {', '.join(sorted(_REGIONS))})"))
    return region


def all_regions() -> List[Region]:
    return list(_REGIONS.values())


def scheme_owner(scheme: str):
    """The region that has the payout scheme `scheme`, or None."""
    return next((r for r in _REGIONS.values() if scheme in r.schemes), None)


def all_options() -> Dict[str, Option]:
    """Every region's situation options, by name (the generic ones are `situation.GENERIC`)."""
    out = {}
    for region in _REGIONS.values():
        for option in region.options:
            out.setdefault(option.name, option)
    return out


def all_schemes() -> List[str]:
    return sorted(s for r in _REGIONS.values() for s in r.schemes)
