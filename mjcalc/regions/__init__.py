"""Every region mjcalc knows, listed here and nowhere else; a ruleset's YAML names its region.

A region is one module (`regions/<name>.py`) holding what that region means, and one line below. A region
written outside mjcalc (a house region in Python) is added with `register(region)`; no module adds itself
by being imported.
"""
from typing import Dict, List, Optional

from ..errors import RulesetError
from ..messages import Message, did_you_mean
from ..situation import GENERIC, Option
from . import beijing, guangdong, guobiao, hangzhou, hongzhong, shangrao, sichuan, zhuji
from .base import Region

_REGIONS: Dict[str, Region] = {}


def register(region: Region) -> Region:
    """Make `region` known by its id. Its payout schemes and option names must not clash with another's."""
    if not region.id:
        raise RulesetError("regions.needs_id")
    for other in _REGIONS.values():
        if other.id == region.id:
            continue
        clash = set(other.schemes) & set(region.schemes)
        if clash:
            raise RulesetError("regions.scheme_taken", region=region.id, scheme=repr(sorted(clash)[0]), other=other.id)
        for option in region.options:
            theirs = other.option(option.name)
            if theirs is not None and theirs != option:
                raise RulesetError("regions.option_clash", region=region.id, option=repr(option.name), other=other.id)
    for option in region.options:
        if option.name in GENERIC:
            raise RulesetError("regions.option_generic", region=region.id, option=repr(option.name))
    _REGIONS[region.id] = region
    return region


def unregister(region_id: str) -> None:
    """Forget a region added with `register` (the built-in ones stay)."""
    if region_id in _BUILTIN:
        raise RulesetError("regions.built_in", region=region_id)
    _REGIONS.pop(region_id, None)


_BUILTIN = ("beijing", "zhuji", "shangrao", "sichuan", "hongzhong", "hangzhou", "guangdong", "guobiao")
for _region in (beijing.REGION, zhuji.REGION, shangrao.REGION, sichuan.REGION, hongzhong.REGION,
                hangzhou.REGION, guangdong.REGION, guobiao.REGION):
    register(_region)


def find_region(name: str) -> Region:
    region = _REGIONS.get(name)
    if region is None:
        hint = did_you_mean(name, _REGIONS) or Message("hint.known", known=sorted(_REGIONS))
        raise RulesetError("regions.unknown", name=repr(name), hint=hint)
    return region


def all_regions() -> List[Region]:
    return list(_REGIONS.values())


def scheme_owner(scheme: str) -> Optional[Region]:
    """The region that has the payout scheme `scheme`, or None."""
    return next((r for r in _REGIONS.values() if scheme in r.schemes), None)


def all_options() -> Dict[str, Option]:
    """Every region's situation options, by name (the generic ones are `situation.GENERIC`)."""
    out: Dict[str, Option] = {}
    for region in _REGIONS.values():
        for option in region.options:
            out.setdefault(option.name, option)
    return out


def all_schemes() -> List[str]:
    return sorted(s for r in _REGIONS.values() for s in r.schemes)
