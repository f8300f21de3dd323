"""Every message mjcalc says to a user, in one table: an id, its English text, its parameters.

An error or a notice is made from an id and named parameters, never from a sentence built where it is raised::

    raise NotationError("notation.unknown_suit", letter="x", written="12", at=where(3, "12x"))

The table gives the words (`EN`, and `ZH` where a Chinese text has been written: a missing one falls back to
English). A parameter is plain data (a string, a number, a list of strings) or another `Message`, put into words
in the same language. So a front end can say a message in its own language from the id, name the field its own
way (the CLI by its flag, the API as data: `{"error", "code", "field", "params"}`), and two front ends can be
checked to refuse the same input with the same id.

The helpers every message shares live here and nowhere else: `shown` (a value quoted as given, cut at 40
characters), `did_you_mean` (the closest known word, or nothing) and `worded` (a field's name before its
message).
"""
from typing import Any, Dict, Iterable, Mapping, Optional, Union

LANGS = ("en", "zh")


class Message:
    """An id and its parameters: what a message says, before it is put into words."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any):
        if code not in EN:
            raise KeyError(f"no message {code!r} in messages.EN")
        self.code = code
        self.params = params

    def text(self, lang: str = "en") -> str:
        return text(self.code, self.params, lang)

    def json(self) -> Dict[str, Any]:
        return {"code": self.code, "params": params_json(self.params)}

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self) -> int:
        return hash(self.code)


Words = Union[str, Message]


def text(code: str, params: Optional[Mapping[str, Any]] = None, lang: str = "en") -> str:
    """The message `code` in `lang` (English where no text in `lang` is written), its parameters filled in."""
    template = (ZH.get(code) if lang == "zh" else None) or EN[code]
    if not params:
        return template
    return template.format_map({k: _worded_value(v, lang) for k, v in params.items()})


def _worded_value(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_worded_value(v, lang)) for v in value)
    return value


def params_json(params: Mapping[str, Any]) -> Dict[str, Any]:
    """The parameters as JSON data: a nested message is `{"code", "params"}`, a tuple a list."""
    def data(value: Any) -> Any:
        if isinstance(value, Message):
            return value.json()
        if isinstance(value, (list, tuple)):
            return [data(v) for v in value]
        return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)
    return {k: data(v) for k, v in params.items()}


def shown(value: Any, limit: int = 40) -> str:
    """A value as given, quoted (its `repr`), cut to `limit` characters with '…'."""
    written = repr(value)
    return written if len(written) <= limit else written[:limit - 3] + "…"


def did_you_mean(word: Any, choices: Iterable[str]) -> Words:
    """" (did you mean 'x'?)" with the known word closest to a mistyped one, or "" when none is close."""
    import difflib  # only when a message needs it (start-up time)
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return Message("hint.did_you_mean", word=close[0]) if close else ""


def worded(name: str, detail: str) -> str:
    """A field's name before its message: `bid is not used …` (a message that starts with "is"), else `bid: …`."""
    return f"{name}{' ' if detail.startswith('is ') else ': '}{detail}"


def message_lang(given: Optional[str] = None) -> str:
    """The language messages are said in: `given` (a `--lang` the user typed), else $MJCALC_LANG, else English."""
    import os  # only when a front end asks (start-up time)
    for lang in (given, os.environ.get("MJCALC_LANG", "").strip().lower()[:2]):
        if lang in LANGS:
            return lang
    return "en"


# --- the table -------------------------------------------------------------------------------------------------
# Ids are `area.what`. A template names its parameters in braces; `{at}`, `{hint}` and the like are nested
# messages (or "" when there is nothing to add). Keep each text one line, in the words of the game.

EN: Dict[str, str] = {
    # hints shared by every area
    "legacy": "{text}",  # TRANSITION
    "hint.did_you_mean": " (did you mean '{word}'?)",
    "hint.known": " (known: {known})",
    # --- notation: reading a hand ---
    "notation.at": " at column {column} in \"{text}\"",
    "notation.unclosed": "unclosed '{bracket}'{at}",
    "notation.plus_alone": "'+' with no tile after it{at}",
    "notation.no_suit": "digits '{written}' without a suit letter (m, p, s or z){at}",
    "notation.zero": "'0' is not a rank (ranks are 1-9){at}",
    "notation.unknown_suit": "unknown suit letter '{letter}' after '{written}' (suits are m p s z, or 万 筒 条){at}",
    "notation.lower_honor": "unknown character '{char}' (winds and dragons are upper case: E S W N C F P){at}",
    "notation.flower": "flower and season tiles are not used ('{char}'){at}",
    "notation.unknown_char": "unknown character '{char}'{at}",
    "notation.suit_alone": "suit letter '{letter}' without digits before it{at}",
    "notation.plus_many": "'+' marks one winning tile, but {count} digits follow it (write +{first}{letter}){at}",
    "notation.bad_honor": "'{digit}z' is not an honor (1-7z are E S W N C F P){at}",
    "notation.plus_in_meld": "'+' inside a meld{at}",
    "notation.wild_in_meld": "a wildcard '*' cannot be in a meld: write the tile it stands for{at}",
    "notation.inside_meld": "'{char}' inside an open meld{at}",
    "notation.plus_meld": "'+' must be followed by a tile, not a meld{at}",
    "notation.no_opening": "'{char}' without its opening bracket{at}",
    "notation.wrong_close": "'{char}' closes the '{opened}' at column {opened_at}, which needs '{needs}'{at}",
    "notation.empty_meld": "empty meld{at}",
    "notation.plus_twice": "more than one '+' (one winning tile per hand){at}",
    "notation.not_concealed_kong": "{{{written}}} is not a concealed kong (four identical tiles){at}",
    "notation.not_a_set": "[{written}] is not a set (a chow, pung or kong){at}",
    "notation.too_long": "input too long: {length} characters (a hand is at most {limit})",
    "notation.empty": "empty hand: write tiles like 123m456p789s EE 45m +6m",
    # --- hand: a hand that reads but cannot be played ---
    "hand.size": "{size} tile{plural}: a hand has 13 (to find waits) or 14 (to score)",
    "hand.plus_on_13": "13 tiles with a '+' winning tile: a hand to score has 14 (drop the '+' to find waits)",
    "hand.no_concealed_win": "a 14-tile hand needs a concealed winning tile",
    "hand.fifth_copy": "{count} copies of {tile}: there are only 4 of each tile",
    # --- seats ---
    "seat.expected": "expected a seat E, S, W or N (东 南 西 北), got {value}",
    # --- [A] rulesets and their files, payouts, scoring, patterns, the glossary ---
    # --- [B] the situation and its options, analysis, value, batch waits, the regions ---
    # --- [C] the evening (ledger, record), the command line, the server, settle ---
}

# Chinese texts, by id (the page's words); an id not here is said in English.
ZH: Dict[str, str] = {
    "hint.did_you_mean": "（是不是 '{word}'？）",
    "notation.at": "（\"{text}\" 第 {column} 列）",
    "notation.unclosed": "'{bracket}' 没有闭合{at}",
    "notation.plus_alone": "'+' 后面没有牌{at}",
    "notation.no_suit": "数字 '{written}' 后面缺少花色字母（m、p、s 或 z）{at}",
    "notation.zero": "'0' 不是点数（点数是 1-9）{at}",
    "notation.unknown_suit": "'{written}' 后面的花色字母 '{letter}' 不认识（花色是 m p s z，或 万 筒 条）{at}",
    "notation.unknown_char": "不认识的字符 '{char}'{at}",
    "notation.empty": "没有牌：请写成 123m456p789s EE 45m +6m 这样",
    "hand.size": "{size} 张牌：一手牌是 13 张（算听牌）或 14 张（算番）",
    "hand.fifth_copy": "{tile} 有 {count} 张：每种牌只有 4 张",
    "seat.expected": "座位应是 E、S、W 或 N（东 南 西 北），不是 {value}",
}
