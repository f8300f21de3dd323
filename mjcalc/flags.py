"""A situation field as the command line names it (its flag) or as a page names it (its word), and a library error
or notice in those words.

Click-free, so that the CLI and `mjcalc serve` (whose API answers with the CLI's error lines) say every mistake
the same way; a page asks for its own field names (`page=True`): the Chinese word in Chinese, never a flag.
"""
from typing import Any

from .messages import worded
from .regions import all_options
from .situation import GENERIC

# fields that are not situation options (the winner: a table's hand names him so, not by `--seat`)
OTHER_FLAGS = {"seen": "--seen", "open": "--open", "kongs": "--kongs", "winner": "--winner"}
# a field that is not a situation option, as the Chinese page labels it (a situation option says its own `zh`)
FIELD_ZH = {
    "seen": "见过的牌", "hand": "牌", "total": "合计", "patterns": "番种", "winner": "和牌者", "penalty": "罚分",
    "player": "玩家", "players": "玩家", "to": "付给", "reason": "原因", "cap": "封顶", "rate": "每分金额",
    "name": "名字", "ruleset": "规则", "lang": "语言", "request_id": "请求编号", "client_id": "设备编号",
    "hand_id": "编号", "number": "局数", "revision": "版本", "document": "导出文件", "closed": "结束",
    "by": "估算方式", "draws": "摸牌数", "exact": "精确估算", "alone": "只算自己", "open": "吃碰", "kongs": "杠", "wild_roles": "无宝",
}


def flag_of(field: str) -> str:
    option = GENERIC.get(field) or all_options().get(field)
    return option.cli_flag if option else OTHER_FLAGS.get(field, field)


def word_of(field: str, lang: str) -> str:
    """How a page names a field: in Chinese its option's word (or the page's word for it), else its name."""
    option = GENERIC.get(field) or all_options().get(field)
    word = (option.zh if option else FIELD_ZH.get(field, "")) if lang == "zh" else ""
    return word or field


def flagged(message: Any, lang: str = "en", *, page: bool = False) -> str:
    """A library error or notice (or a `messages.Message`) as the command line says it, in `lang`: the field
    named by its flag (`--from: …`, `--bid is not used …`); with `page`, by its word (`点炮：…`, `from: …`)."""
    field = getattr(message, "field", None)
    if page and field:
        detail = message.message.text(lang)
        return f"{word_of(field, lang)}：{detail}" if lang == "zh" else worded(word_of(field, lang), detail)
    if field and (field in GENERIC or field in all_options() or field in OTHER_FLAGS):
        return worded(flag_of(field), message.message.text(lang))
    in_lang = getattr(message, "text", None)  # an error, a notice or a Message; a plain str is itself
    return in_lang(lang) if callable(in_lang) else str(message)
