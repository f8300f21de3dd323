"""Errors that mjcalc reports to a user as one line, and the notices (warnings) it gives beside an answer.

Both are made from a message id of `messages.EN` and its parameters: `SituationError("zhuji.bid_needs_bidder",
field="bid", bid="2台")`. Messages speak the game: a seat, the winning tile, 财神. One about a situation field
carries the field's name in `field`, and its text without it in `detail`, so a front end can name the field its
own way (the CLI says `--bid: …`, the API gives `"field": "bid"`); `str()` of it names the field by `label`
(default: the field's own name). `text(lang)` says it in another language.
"""
from typing import Any, Dict, Optional

from .messages import Message, worded


class _Said:
    """What an error and a notice share: their message, said in a language with the field named by its label."""

    message: Message
    label: Optional[str]

    def text(self, lang: str = "en") -> str:
        """The whole message in `lang`, the field named by its label (as `str()` says it in English)."""
        return worded(self.label, self.message.text(lang))


class MjcalcError(_Said, ValueError):
    """Input that mjcalc cannot use; the message is one line for the user."""

    def __init__(self, code: str, *, field: Optional[str] = None, label: Optional[str] = None, **params: Any):
        self.message = Message(code, **params)
        self.code = code
        self.params = params
        self.field = field
        self.label = field if label is None else label
        self.detail = self.message.text()
        super().__init__(worded(self.label, self.detail))

    def json(self) -> Dict[str, Any]:
        """What an API answers beside the message: its id, its field and its parameters as data."""
        return {"code": self.code, "field": self.field, **self.message.json()}

    def __reduce__(self) -> Any:
        """Pickled as made (its id, field, label and parameters), so it crosses a process pool whole."""
        return _remade, (type(self), self.code, self.field, self.label, self.params)


def _remade(kind: type, code: str, field: Optional[str], label: Optional[str], params: Dict[str, Any]) -> MjcalcError:
    error: MjcalcError = kind(code, field=field, label=label, **params)
    return error


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


class Notice(_Said, str):
    """A warning beside an answer (an option ignored, a rule that overrode one, a cap): its text, from a message id
    like an error's, and its field."""

    code: str
    field: Optional[str]
    detail: str
    assumed = False  # the seat or dealer taken when none was given (`analysis.assumed_seat`), said in the answer

    def __new__(cls, code: str, *, field: Optional[str] = None, label: Optional[str] = None,
                **params: Any) -> "Notice":
        message = Message(code, **params)
        detail = message.text()
        label = field if label is None else label
        notice = super().__new__(cls, worded(label, detail))
        notice.message, notice.code, notice.field, notice.label, notice.detail = message, code, field, label, detail
        return notice


def json_text(data: Any, indent: Optional[int] = None) -> str:
    """`data` as strict JSON (never NaN), its text as UTF-8 but every control or invisible character — which JSON
    leaves raw — as its `\\uXXXX` escape: stored text never reaches a terminal as an escape sequence, and the
    document reads back the same."""
    import json  # only for JSON output (start-up time)

    text = json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control or invisible character (escape sequences, U+200B, U+FEFF, bidi marks, line
    breaks unless `keep_newlines`) written as its escape, so that what is printed shows what was given."""
    return "".join(ch if ch.isprintable() or keep_newlines and ch == "\n" else ascii(ch)[1:-1] for ch in str(text))
