"""mjcalc: hands, waits, scores and payouts for regional Chinese mahjong, with rules as YAML data."""

__version__ = "0.1.0"
