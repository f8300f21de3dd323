"""Detectors used by the Zhuji 诸暨包牌 ruleset (registered into patterns.DETECTORS)."""
