"""A situation field as the command line names it (its flag), and a library error or notice in those words.

Click-free, so that the CLI and `mjcalc serve` (whose API answers with the CLI's error lines) say every mistake
the same way.
"""
from .regions import all_options
from .situation import GENERIC

OTHER_FLAGS = {"seen": "--seen"}  # fields that are not situation options


def flag_of(field: str) -> str:
    option = GENERIC.get(field) or all_options().get(field)
    return option.cli_flag if option else OTHER_FLAGS.get(field, field)


def flagged(message) -> str:
    """A library error or notice as the command line says it: the field named by its flag (`--from: …`)."""
    field = getattr(message, "field", None)
    if field and (field in GENERIC or field in all_options() or field in OTHER_FLAGS):
        joint = " " if message.detail.startswith("is ") else ": "  # "--bid is not used…" / "--bid: unknown bid …"
        return f"{flag_of(field)}{joint}{message.detail}"
    return str(message)
