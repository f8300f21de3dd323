"""Detectors used by the Shangrao 上饶 ruleset (registered into patterns.DETECTORS)."""
