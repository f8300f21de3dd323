"""Errors that mjcalc reports to a user as one line, and the notices (warnings) it gives beside an answer.

Messages speak the game: a seat, the winning tile, 财神. An error or notice about one situation field carries
the field's name in `field` and the message without it in `detail`, so a front end can name the field its own
way (the CLI says `--from: …`).
"""


class MjcalcError(ValueError):
    """Input that mjcalc cannot use; the message is one line for the user."""

    def __init__(self, message: str = "", field: str = None, detail: str = None):
        super().__init__(message)
        self.field = field
        self.detail = message if detail is None else detail


class NotationError(MjcalcError):
    """Text that is not a hand in mjcalc notation."""


class HandError(MjcalcError):
    """A hand that reads but cannot be played: wrong size, a fifth copy, a bad meld."""


class RulesetError(MjcalcError):
    """A ruleset that cannot be found, read or validated."""


class RulesetNotFound(RulesetError):
    """A ruleset name or file that does not exist: a usage error, not an invalid file."""


class SituationError(MjcalcError):
    """A situation that cannot happen, that the ruleset does not allow, or that contradicts itself."""


class ImpossibleSituation(SituationError):
    """A situation no table could produce with this hand (a kong draw without a kong, a fifth 宝…), whatever
    the ruleset."""


class Notice(str):
    """A warning beside an answer (an option ignored, a rule that overrode one, a cap): text, and its field."""

    def __new__(cls, text: str, field: str = None, detail: str = None):
        notice = super().__new__(cls, text)
        notice.field = field
        notice.detail = text if detail is None else detail
        return notice


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control or invisible character (escape sequences, U+200B, U+FEFF, bidi marks, line
    breaks unless `keep_newlines`) written as its escape, so that what is printed shows what was given."""
    return "".join(ch if ch.isprintable() or keep_newlines and ch == "\n" else ascii(ch)[1:-1] for ch in str(text))


def close_matches(word, choices, n: int = 1):
    """The known words closest to a mistyped one, for "did you mean"."""
    import difflib  # only when a message needs it (start-up time)
    return difflib.get_close_matches(word, choices, n=n)
