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

__version__ = "0.2.0"

from .advice import Advice, advise
from .analysis import Analysis, analyze, compare, parse_seen, waits
from .errors import HandError, MjcalcError, NotationError, RulesetError, SituationError
from .hand import Hand, Meld
from .notation import format_hand, parse_hand
from .regions import register as register_region
from .regions.base import Region
from .ruleset import Ruleset, builtin_rulesets, load_ruleset
from .situation import Option, Situation


__all__ = [
    "Advice", "Analysis", "Hand", "HandError", "Meld", "MjcalcError", "NotationError", "Option", "Region",
    "Ruleset", "RulesetError", "Situation", "SituationError", "advise", "analyze", "builtin_rulesets", "compare",
    "format_hand", "load_ruleset", "parse_hand", "parse_seen", "register_region", "waits",
]
