"""The built-in rulesets as data: one YAML file each (`<id>.yaml`), its rules page for players (`<id>.md`), the
glossary (`glossary.yaml`) and `compiled.py`, every ruleset validated and written as Python data (made by
`python -m mjcalc.ruleset`)."""
