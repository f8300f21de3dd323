"""mjcalc: hands, waits, scores and payouts for regional Chinese mahjong, with the rules as YAML data.

Read a hand, load a ruleset, describe how it was won, and ask::

    >>> import mjcalc
    >>> rules = mjcalc.load_ruleset("beijing")
    >>> hand = mjcalc.parse_hand("[111m] 222p 333s EEE 9m +9m")
    >>> result = mjcalc.analyze(hand, rules, mjcalc.Situation(seat="E", dealer="E", base=2000, shaozhuang=1))
    >>> result.score.total, result.payout.deltas
    (3, {'E': 12000, 'S': -4000, 'W': -4000, 'N': -4000})

`analyze` scores a 14-tile hand (every decomposition, what each wildcard stands for, the patterns, the
payout of every seat) or finds a 13-tile hand's waits; `waits`, `advise` and `compare` answer the narrower
questions. Errors are `MjcalcError`s whose message is one line in the language of the game. A region (Beijing,
Zhuji, Shangrao) is a module of `mjcalc.regions`; a house region is added with `register_region`.
"""

from typing import Any, List

__version__ = "0.2.0"

# The names below are loaded on first use (PEP 562), so that `mjcalc waits --batch` starts without the scorer.
_API = {
    "Advice": "advice", "advise": "advice",
    "Analysis": "analysis", "analyze": "analysis", "compare": "analysis", "parse_seen": "analysis", "waits": "analysis",
    "HandError": "errors", "MjcalcError": "errors", "NotationError": "errors", "RulesetError": "errors",
    "SituationError": "errors",
    "Hand": "hand", "Meld": "hand",
    "format_hand": "notation", "parse_hand": "notation",
    "DealPayment": "regions.base", "Region": "regions.base",
    "Ruleset": "ruleset", "builtin_rulesets": "ruleset", "load_ruleset": "ruleset",
    "Option": "situation", "Situation": "situation",
    "Plan": "value", "Rivals": "value", "plan": "value",
}


def __getattr__(name: str) -> Any:
    if name == "register_region":
        from .regions import register  # loaded on first use (start-up time)
        globals()[name] = register
        return register
    if name not in _API:
        raise AttributeError(f"module 'mjcalc' has no attribute {name!r}")
    import importlib  # loaded on first use (start-up time)
    value = getattr(importlib.import_module(f".{_API[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Advice", "Analysis", "DealPayment", "Hand", "HandError", "Meld", "MjcalcError", "NotationError", "Option", "Plan",
    "Region", "Rivals", "Ruleset", "RulesetError", "Situation", "SituationError", "advise", "analyze",
    "builtin_rulesets", "compare", "format_hand", "load_ruleset", "parse_hand", "parse_seen", "plan",
    "register_region", "waits",
]
