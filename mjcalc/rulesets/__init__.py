"""The built-in rulesets compiled: `compiled.py`, every ruleset of the top-level `rulesets/` folder (one YAML file
each, `<id>.yaml`, beside its rules page for players, `<id>.md`, and the glossary) validated and written as Python
data, made by `python -m mjcalc.ruleset`. An installed mjcalc carries that folder as `mjcalc/rulesets/builtin`."""
