"""The glossary behind `mjcalc explain TERM`: the terms players argue about, read from `glossary.yaml` (shipped
next to the built-in rulesets) and found by Chinese, pinyin (with or without tones), English or any alias,
whatever the case."""
import difflib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, List, Sequence, Tuple

from .messages import Message
from .ruleset import BUILTIN_DIR, Pattern
from .yamlfile import read_yaml_mapping

GLOSSARY_FILE = BUILTIN_DIR / "glossary.yaml"


@dataclass(frozen=True)
class Term:
    key: str
    zh: str
    pinyin: str
    en: str
    aliases: Tuple[str, ...]
    patterns: Tuple[str, ...]  # the pattern ids of the built-in rulesets this term explains
    text: str

    @property
    def spellings(self) -> Tuple[str, ...]:
        return (self.key, self.zh, self.pinyin, self.en) + self.aliases


def normal(text: str) -> str:
    """A spelling as it is matched: lower case, tone marks and spaces, dashes and apostrophes dropped."""
    decomposed = unicodedata.normalize("NFD", str(text).strip().lower())
    plain = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", "".join(ch for ch in plain if ch not in " -_'’·"))


@lru_cache(maxsize=1)
def terms() -> Tuple[Term, ...]:
    """Every entry of the glossary, in file order."""
    data = read_yaml_mapping(GLOSSARY_FILE, Message("glossary.file"))
    out = []
    for key, entry in data.items():
        out.append(Term(str(key), entry["zh"], entry["pinyin"], entry["en"],
                        tuple(str(a) for a in entry.get("aliases") or ()),
                        tuple(entry.get("patterns") or ()), " ".join(str(entry["text"]).split())))
    return tuple(out)


def _index() -> Dict[str, List[Term]]:
    index: Dict[str, List[Term]] = {}
    for term in terms():
        for spelling in term.spellings:
            found = index.setdefault(normal(spelling), [])
            if term not in found:
                found.append(term)
    return index


def lookup(word: str) -> List[Term]:
    """The entries `word` names (more than one when a spelling is shared, as toneless pinyin may be); a
    pattern id names the entry that explains it."""
    key = normal(word)
    found = list(_index().get(key, []))
    for term in terms():
        if word.strip() in term.patterns and term not in found:
            found.append(term)
    return found


PLAIN_WIN = "tuidaohe"  # the entry of the plain win (推倒和), which a table may name for a hand of no pattern


def names_plain_win(word: str) -> bool:
    """Whether `word` names the plain win (推倒和, 推倒胡, tuidaohe …)."""
    return any(term.key == PLAIN_WIN for term in lookup(word))


def suggestions(word: str, n: int = 3) -> List[str]:
    """Spellings close to `word`, for a "did you mean"."""
    spellings: Dict[str, str] = {}
    for term in terms():
        for spelling in term.spellings:
            spellings.setdefault(normal(spelling), spelling)
    close = difflib.get_close_matches(normal(word), list(spellings), n=n, cutoff=0.6)
    return [spellings[c] for c in close]


# How players write one pattern name: 和, 胡 and 糊 are one hú; 七对 and 七对子 (qidui, qiduizi) one pattern; traditional characters
# as simplified. Names are compared folded, so 对对胡 finds 对对和 and 七对 finds 七对子.
_FOLDS = str.maketrans({"和": "胡", "糊": "胡", "對": "对", "龍": "龙", "條": "条", "槓": "杠", "開": "开", "華": "华",
                        "門": "门", "無": "无", "寶": "宝", "撈": "捞", "風": "风", "發": "发", "單": "单", "釣": "钓",
                        "莊": "庄", "個": "个", "頭": "头", "繪": "绘", "兒": "儿", "牆": "墙", "財": "财", "么": "幺",
                        "搶": "抢", "東": "东"})


@lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """A name as pattern names are compared: `normal`, one character for each way of writing it, 对子 as 对 (and
    its pinyin, duizi as dui: qiduizi is qidui)."""
    return normal(text).translate(_FOLDS).replace("对子", "对").replace("duizi", "dui")


def _heads(term: Term) -> Dict[str, str]:
    """The term's own spellings, each with the Chinese name it spells: each Chinese name of it (`无绘 / 无财`), its
    pinyin, and its key when it has one name."""
    zh = [z.strip() for z in term.zh.split("/")]
    pinyin = [p.strip() for p in term.pinyin.split("/")]
    heads = {folded(term.key): folded(zh[0])} if len(zh) == 1 else {}
    for i, name in enumerate(zh):
        heads[folded(name)] = folded(name)
        if i < len(pinyin):
            heads[folded(pinyin[i])] = folded(name)
    return heads


def patterns_named(word: str, patterns: Sequence[Pattern]) -> List[Pattern]:
    """The patterns of one ruleset (`patterns`) that `word` names: a pattern by its own id, Chinese or English
    name, as written or folded (对对胡 for 对对和, 七对 for 七对子); else through the glossary, a pattern an
    entry that explains one pattern calls by any of its words (碰碰胡, duiduihe for 对对和), or one an entry
    that explains several calls by its own name or pinyin (qidui: 七对, not 清七对; a mere alias of such an entry
    names none of them). More than one pattern: the word is ambiguous in this ruleset."""
    text = word.strip()
    exact = [p for p in patterns if text in (p.id, p.zh) or text.lower() in (p.id.lower(), p.en.lower())]
    key = folded(text)
    if exact or not key:
        return exact
    own = [p for p in patterns if key in (folded(p.id), folded(p.zh), folded(p.en))]
    if own:
        return own
    found: List[Pattern] = []
    for term, spellings, heads in _folded_terms():
        if key not in spellings:
            continue
        explained = [p for p in patterns if p.id in term.patterns]
        if len(term.patterns) == 1:
            named = explained + [p for p in patterns if p not in explained
                                 and {folded(p.zh), folded(p.en)} & spellings]
        elif key in heads:
            named = [p for p in explained if folded(p.zh) == heads[key]] or explained
        else:
            named = []
        found += [p for p in named if p not in found]
    return found


@lru_cache(maxsize=1)
def _folded_terms() -> Tuple[Tuple[Term, FrozenSet[str], Dict[str, str]], ...]:
    """Each entry with its spellings (and the pattern ids it explains) folded, and its own spellings."""
    return tuple((term, frozenset(folded(s) for s in term.spellings + term.patterns), _heads(term))
                 for term in terms())


def closest(word: str, choices: Sequence[str]) -> str:
    """The one choice `word` is a near miss of, for a "did you mean", or "": difflib's closest, else (a short
    name, whose one wrong character difflib finds too far) the only choice one character away (自模 for 自摸)."""
    spelt: Dict[str, str] = {}
    for choice in choices:
        spelt.setdefault(folded(choice), choice)  # 七对 and 七對 are one near miss
    key = folded(word)
    close = difflib.get_close_matches(key, list(spelt), n=1)
    if close:
        return spelt[close[0]]
    one_off = [c for k, c in spelt.items() if len(k) == len(key) > 1 and sum(a != b for a, b in zip(k, key)) == 1]
    return one_off[0] if len(one_off) == 1 else ""


def pattern_spellings(patterns: Sequence[Pattern]) -> Dict[str, str]:
    """The spellings `patterns_named` reads as one of `patterns` alone (its names, the words of a glossary entry
    that explains it alone), each with the pattern's Chinese name: the words a "did you mean" chooses from."""
    spellings = {s: p.zh for p in patterns for s in (p.zh, p.id)}
    for term in terms():
        named = [p for p in patterns if p.id in term.patterns]
        if len(term.patterns) == 1 and len(named) == 1:
            spellings.update({s: named[0].zh for s in term.spellings if s not in spellings})
    return spellings
