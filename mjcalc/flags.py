"""A situation field as the command line names it (its flag), and a library error or notice in those words.

Click-free, so that the CLI and `mjcalc serve` (whose API answers with the CLI's error lines) say every mistake
the same way.
"""
from .messages import worded
from .regions import all_options
from .situation import GENERIC

OTHER_FLAGS = {"seen": "--seen"}  # fields that are not situation options


def flag_of(field: str) -> str:
    option = GENERIC.get(field) or all_options().get(field)
    return option.cli_flag if option else OTHER_FLAGS.get(field, field)


def flagged(message, lang: str = "en") -> str:
    """A library error or notice (or a `messages.Message`) as the command line says it, in `lang`: the field
    named by its flag (`--from: …`, `--bid is not used …`)."""
    field = getattr(message, "field", None)
    if field and (field in GENERIC or field in all_options() or field in OTHER_FLAGS):
        return worded(flag_of(field), message.message.text(lang))
    in_lang = getattr(message, "text", None)  # an error, a notice or a Message; a plain str is itself
    return in_lang(lang) if callable(in_lang) else str(message)
