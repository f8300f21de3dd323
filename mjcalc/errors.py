"""Errors that mjcalc reports to a user as one line."""


class MjcalcError(ValueError):
    """Input that mjcalc cannot use; the message is one line for the user."""


class NotationError(MjcalcError):
    """Text that is not a hand in mjcalc notation."""


class HandError(MjcalcError):
    """A hand that reads but cannot be played: wrong size, a fifth copy, a bad meld."""


class RulesetError(MjcalcError):
    """A ruleset that cannot be found, read or validated."""


class RulesetNotFound(RulesetError):
    """A ruleset name or file that does not exist: a usage error, not an invalid file."""


class SituationError(MjcalcError):
    """A situation the ruleset does not allow or that contradicts itself."""
