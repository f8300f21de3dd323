"""The glossary behind `mjcalc explain` (rulesets/glossary.yaml) and the players' rules pages (rulesets/<id>.md).

Read as plain data, without the engine: every pattern id of every ruleset file is explained by some entry, the
terms a player argues about are all findable, every spelling leads to one entry, and every ruleset has a page
that names each of its patterns.
"""
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
GLOSSARY = yaml.safe_load((RULESETS / "glossary.yaml").read_text(encoding="utf-8"))
RULESET_FILES = sorted(p for p in RULESETS.glob("*.yaml") if p.name != "glossary.yaml")
REQUIRED = [
    "烧庄", "跟庄", "互包", "吃碰堤", "包牌", "包家", "财神", "台", "番", "宝", "飞宝", "接宝", "十三浪", "九幺", "上楼",
    "连庄", "荒牌", "绘上墙", "混儿悠", "惠/混儿", "惠", "混儿", "底分", "门清", "自摸", "点炮", "抢杠", "杠上开花",
    "海底捞月", "天和", "地和", "七对", "豪华七对", "一条龙", "清一色", "混一色", "对对和", "大钓", "捉五魁", "推倒和",
    "宝吊头", "宝吊宝", "宝吊无宝", "单吊", "四惠牌", "混杠", "本混儿龙", "字一色", "notation",
    # pinyin and English, as a player would type them
    "shaozhuang", "hubao", "chipengdi", "caishen", "feibao", "jiebao", "shisanlang", "jiuyao", "shanglou",
    "lianzhuang", "huishangqiang", "hunryou", "self-draw", "seven pairs", "kong bloom",
]


def spellings(key, entry, pinyin=True):
    """Every spelling that finds the entry.  Tone-marked pinyin may be shared by homophones (平胡, 平糊)."""
    words = [key, entry["zh"], entry["en"], *entry["aliases"]] + ([entry["pinyin"]] if pinyin else [])
    return {s.lower() for s in words}


def find(term):
    return [key for key, entry in GLOSSARY.items() if term.lower() in spellings(key, entry)]


def pattern_ids(path):
    return list(yaml.safe_load(path.read_text(encoding="utf-8"))["patterns"])


@pytest.mark.parametrize("key", sorted(GLOSSARY))
def test_entry_shape(key):
    entry = GLOSSARY[key]
    assert set(entry) == {"zh", "pinyin", "en", "aliases", "patterns", "text"}, key
    assert all(isinstance(entry[k], str) and entry[k] for k in ("zh", "pinyin", "en", "text")), key
    assert isinstance(entry["aliases"], list) and entry["aliases"], key
    assert isinstance(entry["patterns"], list), key
    sentences = re.findall(r"[.!?。](?:\s|$)", entry["text"].replace("e.g.", "eg"))
    assert 2 <= len(sentences) <= 5, (key, len(sentences))


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_every_pattern_id_is_explained(path):
    explained = {pid for entry in GLOSSARY.values() for pid in entry["patterns"]}
    missing = set(pattern_ids(path)) - explained
    assert not missing, f"{path.name}: no glossary entry lists {sorted(missing)}"


@pytest.mark.parametrize("term", REQUIRED)
def test_required_term_is_findable(term):
    assert len(find(term)) == 1, (term, find(term))


def test_every_spelling_leads_to_one_entry():
    owner = {}
    for key, entry in GLOSSARY.items():
        for s in spellings(key, entry, pinyin=False):
            assert owner.setdefault(s, key) == key, f"{s!r} is in both {owner[s]} and {key}"


def test_patterns_listed_exist_in_some_ruleset_or_the_shape_list():
    known = {pid for path in RULESET_FILES for pid in pattern_ids(path)} | {"thirteen_orphans"}
    for key, entry in GLOSSARY.items():
        assert set(entry["patterns"]) <= known, (key, set(entry["patterns"]) - known)


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_every_ruleset_has_a_rules_page_naming_its_patterns(path):
    page = path.with_suffix(".md")
    assert page.is_file(), page
    text = page.read_text(encoding="utf-8")
    missing = [pid for pid in pattern_ids(path) if f"`{pid}`" not in text]
    assert not missing, f"{page.name} does not name {missing}"


def test_nothing_shipped_cites_the_team_spec():
    shipped = [RULESETS, ROOT / "examples", ROOT / "tests", ROOT / "bench", ROOT / "mjcalc"]
    for path in (p for folder in shipped for p in folder.rglob("*")
                 if "__pycache__" not in p.parts and p != Path(__file__)):  # (this test names what it looks for)
        if path.is_file():
            assert b"shared/" not in path.read_bytes(), path  # bytes: examples/screenshots holds PNGs
