"""The `mjcalc` command line: the group and its commands (`main`), the table commands (`table`), the prompt
(`play`), what every command shares (`common`) and terminal output (`output`, `text_table`). The only folder that
imports click."""
from .main import cli, main

__all__ = ["cli", "main"]
