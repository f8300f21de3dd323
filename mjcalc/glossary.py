"""The glossary behind `mjcalc explain TERM`: the terms players argue about, read from `glossary.yaml` (shipped
next to the built-in rulesets) and found by Chinese, pinyin (with or without tones), English or any alias,
whatever the case."""
import difflib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Tuple

from .messages import Message
from .ruleset import BUILTIN_DIR
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


def suggestions(word: str, n: int = 3) -> List[str]:
    """Spellings close to `word`, for a "did you mean"."""
    spellings = {}
    for term in terms():
        for spelling in term.spellings:
            spellings.setdefault(normal(spelling), spelling)
    close = difflib.get_close_matches(normal(word), list(spellings), n=n, cutoff=0.6)
    return [spellings[c] for c in close]
