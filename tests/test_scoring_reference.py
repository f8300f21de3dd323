"""The engine against the independent brute-force scorer ``reference_scoring.ref_score``.

The engine is reached only through the command line (``mjcalc analyze ... --json`` run by click's CliRunner).
Hands are generated complete: four sets and a pair from random tiles (some sets written as exposed melds or kongs,
a concealed kong now and then), or seven pairs; 0-2 of the concealed tiles become wildcards by declaring their
kind wild; the situation (seats, dealer, discarder, kong draw, last tile, first turn, base, 烧庄, 互包, bids) is
random.  Situations the CLI refuses (exit code 2) are skipped, and counted: they must stay rare.
"""
import json
import os
from collections import Counter

import pytest
from click.testing import CliRunner
from conftest import drop_impossible
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mjcalc.cli
from reference_scoring import kind_of, name_of, next_in_cycle, ref_score

# An audit against an independent reference or an exhaustive enumeration: run in every suite, not traced by
# coverage (the unit tests cover the code it checks; traced, these audits alone took half of CI's 15 minutes).
pytestmark = pytest.mark.no_cover

SEATS = "ESWN"
NUM_KINDS = 34
CHOW_STARTS = [9 * s + r for s in range(3) for r in range(7)]


# ---------------------------------------------------------------------------------------------------------------
# Running the engine
# ---------------------------------------------------------------------------------------------------------------


def cli_args(text, rid, sit):
    args = ["analyze", text, "-r", rid, "--seat", sit["seat"], "--dealer", sit["dealer"],
            "--base", str(sit.get("base", 1)), "--json"]
    if sit.get("from"):
        args += ["--from", sit["from"]]
    if sit.get("kong_draw"):
        args += ["--kong-draw", str(sit["kong_draw"])]
    for flag, key in (("--last-tile", "last_tile"), ("--rob-kong", "rob_kong"), ("--first-turn", "first_turn")):
        if sit.get(key):
            args.append(flag)
    if sit.get("wild"):
        args += ["--wild", ",".join(sit["wild"])]
    if sit.get("shaozhuang"):
        args += ["--shaozhuang", str(sit["shaozhuang"])]
    for m in sit.get("mutual") or []:
        args += ["--mutual", m]
    if sit.get("bid") is not None:
        args += ["--bid", sit["bid"], "--bidder", sit["bidder"]]
    return args


def run_engine(text, rid, sit):
    """(exit code, the JSON object or None)."""
    result = CliRunner().invoke(mjcalc.cli.cli, cli_args(text, rid, sit))
    if result.exit_code != 0:
        return result.exit_code, result.output
    # the JSON object is one line; with click < 8.2 warnings on stderr may be mixed into the same output
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("{"))
    return 0, json.loads(line)


def compare(text, rid, sit):
    """Engine vs reference on one hand; returns None if the CLI refused the situation (exit 2)."""
    code, out = run_engine(text, rid, sit)
    assert code in (0, 2), (code, out)
    if code == 2:
        return None
    ref = ref_score(text, rid, sit)
    got = {k: out[k] for k in ("complete", "legal", "total", "payouts")}
    want = {k: ref[k] for k in ("complete", "legal", "total", "payouts")}
    assert got == want, (
        f"\n  mjcalc {' '.join(repr(a) if ' ' in a else a for a in cli_args(text, rid, sit))}"
        f"\n  engine:    {got}  patterns {[(p['id'], p['value']) for p in out['patterns']]}"
        f" decomposition {out.get('decomposition')} wild_as {out.get('wild_as')}"
        f"\n  reference: {want}  patterns {ref['patterns']}")
    return out


# ---------------------------------------------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------------------------------------------

POOLS = {
    "any": list(range(NUM_KINDS)),
    "man": list(range(9)),
    "man+honors": list(range(9)) + list(range(27, 34)),
    "honors": list(range(27, 34)),
    "man-middle": [2, 3, 4, 5, 6],
}


def group_text(kinds):
    """Canonical-ish text of a list of kinds: ``123m 45p EE``."""
    kinds = sorted(kinds)
    out = []
    for s, letter in enumerate("mps"):
        digits = "".join(str(k - 9 * s + 1) for k in kinds if 9 * s <= k < 9 * s + 9)
        if digits:
            out.append(digits + letter)
    honors = "".join(name_of(k) for k in kinds if k >= 27)
    if honors:
        out.append(honors)
    return " ".join(out)


@st.composite
def standard_hand(draw):
    """(concealed kinds incl. the winning tile, meld strings, winning kind): four sets and a pair."""
    pool = POOLS[draw(st.sampled_from(["any", "any", "any", "man", "man+honors", "honors", "man-middle"]))]
    room = [4] * NUM_KINDS
    sets = []
    seeded = draw(st.sampled_from([None, None, None, "dragon", "catch_five"]))
    if seeded == "dragon":  # 123 456 789 of one suit (一条龙), written before the rest
        suit = draw(st.integers(0, 2))
        sets = [(9 * suit + a, 9 * suit + a + 1, 9 * suit + a + 2) for a in (0, 3, 6)]
    elif seeded == "catch_five":  # a 4m-5m-6m chow; its 5m will be the winning tile
        sets = [(3, 4, 5)]
    for tiles in sets:
        for t in tiles:
            room[t] -= 1
    while len(sets) < 4:
        starts = [c for c in CHOW_STARTS if c in pool]
        for _attempt in range(30):
            if not starts or draw(st.integers(0, 2)) == 0:
                t = draw(st.sampled_from(pool))
                tiles = (t, t, t)
            else:
                low = draw(st.sampled_from(starts))
                tiles = (low, low + 1, low + 2)
            if all(room[t] >= tiles.count(t) for t in tiles):
                break
        else:
            t = next(k for k in range(NUM_KINDS) if room[k] >= 3)
            tiles = (t, t, t)
        for t in tiles:
            room[t] -= 1
        sets.append(tiles)
    pair_choices = [k for k in pool if room[k] >= 2] or [k for k in range(NUM_KINDS) if room[k] >= 2]
    pair = draw(st.sampled_from(pair_choices))
    room[pair] -= 2
    concealed = [pair, pair]
    melds = []
    exposed_rate = draw(st.sampled_from([0, 0, 1, 2, 4]))  # out of 4: how often a set is written as a meld
    for i, tiles in enumerate(sets):
        if seeded == "catch_five" and i == 0:
            concealed.extend(tiles)
            continue
        where = "hand" if draw(st.integers(0, 3)) >= exposed_rate else draw(
            st.sampled_from(["exposed", "exposed", "kong", "concealed_kong"]))
        is_pung = tiles[0] == tiles[1]
        if where in ("kong", "concealed_kong") and not (is_pung and room[tiles[0]] >= 1):
            where = "exposed"
        if where == "hand":
            concealed.extend(tiles)
        elif where == "exposed":
            melds.append("[" + group_text(tiles).replace(" ", "") + "]")
        else:
            room[tiles[0]] -= 1
            text = group_text(tiles * 1 + (tiles[0],)).replace(" ", "")
            melds.append(("[" + text + "]") if where == "kong" else ("{" + text + "}"))
    winning = 4 if seeded == "catch_five" else draw(st.sampled_from(sorted(concealed)))
    return concealed, melds, winning


@st.composite
def seven_pairs_hand(draw):
    pool = POOLS[draw(st.sampled_from(["any", "any", "any", "man+honors", "man"]))]
    room = [4] * NUM_KINDS
    concealed = []
    for _ in range(7):
        choices = [k for k in pool if room[k] >= 2] or [k for k in range(NUM_KINDS) if room[k] >= 2]
        if draw(st.integers(0, 3)):  # mostly seven different pairs; now and then four of a kind
            choices = [k for k in choices if room[k] == 4] or choices
        k = draw(st.sampled_from(choices))
        room[k] -= 2
        concealed += [k, k]
    winning = draw(st.sampled_from(sorted(concealed)))
    return concealed, [], winning


def hand_text(concealed, melds, winning):
    rest = list(concealed)
    rest.remove(winning)
    parts = [group_text(rest)] + list(melds)
    return " ".join(p for p in parts if p) + " +" + name_of(winning)


def meld_kinds(melds):
    from reference import tiles_from_text

    return [k for m in melds for k in tiles_from_text(m[1:-1])]


# ---------------------------------------------------------------------------------------------------------------
# Situations
# ---------------------------------------------------------------------------------------------------------------


@st.composite
def wild_for(draw, concealed, melds, kinds_per_bid):
    """A wild declaration keeping at most 2 concealed wildcards.

    kinds_per_bid: 1 = one kind (beijing, 独N台), 2 = the kind and the next in the cycle (N台)."""
    count = Counter(concealed)

    def ok(k):
        kinds = {k, next_in_cycle(k)} if kinds_per_bid == 2 else {k}
        return sum(count[x] for x in kinds) <= 2

    held = [k for k in sorted(count) if ok(k)]
    anywhere = [k for k in sorted(set(concealed) | set(meld_kinds(melds))) if ok(k)]
    free = [k for k in range(NUM_KINDS) if ok(k)]
    source = draw(st.sampled_from(["held", "held", "held", "anywhere", "free"]))
    choices = {"held": held, "anywhere": anywhere, "free": free}[source] or free
    return draw(st.sampled_from(choices))


@st.composite
def scenario(draw, rid, seven_pairs=False):
    concealed, melds, winning = draw(seven_pairs_hand() if seven_pairs else standard_hand())
    text = hand_text(concealed, melds, winning)
    sit = {"seat": draw(st.sampled_from(SEATS)), "dealer": draw(st.sampled_from(SEATS))}
    sit["base"] = draw(st.sampled_from([1, 1, 1, 2, 3, 10, 2000]))
    others = [s for s in SEATS if s != sit["seat"]]
    sit["from"] = draw(st.sampled_from(others)) if draw(st.booleans()) else None
    if sit["from"] and draw(st.integers(0, 6)) == 0:
        sit["rob_kong"] = True
    if (sit["from"] is None and draw(st.integers(0, 5)) == 0) or draw(st.integers(0, 40)) == 0:
        sit["kong_draw"] = draw(st.integers(1, 2))
    if draw(st.integers(0, 7)) == 0:
        sit["last_tile"] = True
    if draw(st.integers(0, 9)) == 0:
        sit["first_turn"] = True
    if rid == "zhuji":
        bid = draw(st.sampled_from([None, "2", "3", "4", "du2", "du3", "wucai2", "wucai3", "5"]))
        if bid is None:
            how = draw(st.sampled_from(["none", "one", "two"]))
            if how != "none":
                k = draw(wild_for(concealed, melds, 1))
                sit["wild"] = [name_of(k)]
                if how == "two":
                    k2 = draw(wild_for(concealed, melds, 1))
                    if k2 != k and Counter(concealed)[k] + Counter(concealed)[k2] <= 2:
                        sit["wild"].append(name_of(k2))
        else:
            sit["bid"] = bid
            sit["bidder"] = draw(st.sampled_from(SEATS))
            if bid.startswith("du"):
                sit["wild"] = [name_of(draw(wild_for(concealed, melds, 1)))]
            elif not bid.startswith("wucai"):
                sit["wild"] = [name_of(draw(wild_for(concealed, melds, 2)))]
    else:
        if draw(st.integers(0, 9)) >= 4:
            sit["wild"] = [name_of(draw(wild_for(concealed, melds, 1)))]
        if draw(st.integers(0, 2)) == 0:
            sit["shaozhuang"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            partners = [s for s in SEATS if s != sit["seat"]]
            sit["mutual"] = draw(st.lists(st.sampled_from(partners), min_size=1, max_size=2, unique=True))
    return text, drop_impossible(text, sit)


# ---------------------------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------------------------


SCALE = float(os.environ.get("MJCALC_REF_SCALE", "1"))  # e.g. 20 for a long hunt


def _property(rid, max_examples, seven_pairs_share):
    max_examples = int(max_examples * SCALE)
    stats = Counter()
    seen_patterns = Counter()

    @settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def check(data):
        sp = data.draw(st.integers(0, 99)) < seven_pairs_share
        text, sit = data.draw(scenario(rid, seven_pairs=sp))
        stats["drawn"] += 1
        out = compare(text, rid, sit)
        if out is None:
            stats["refused"] += 1
            assume(False)
        stats["compared"] += 1
        stats["legal"] += bool(out["legal"])
        stats["wild"] += bool(out["wildcards"])
        stats["complete"] += bool(out["complete"])
        for p in out["patterns"]:
            seen_patterns[p["id"]] += 1

    check()
    # the refusals must not hollow the test out
    assert stats["compared"] >= max_examples // 2, stats
    assert stats["refused"] <= stats["drawn"] // 4, stats
    assert stats["legal"] >= stats["compared"] // 5, stats
    assert stats["wild"] >= stats["compared"] // 5, stats
    print(f"{rid}: {dict(stats)}\n  patterns seen: {dict(seen_patterns)}")
    return stats


def test_beijing_engine_matches_reference():
    _property("beijing", 600, 15)


def test_beijing_money_engine_matches_reference():
    _property("beijing-money", 450, 15)


def test_zhuji_engine_matches_reference():
    _property("zhuji", 600, 5)


# ---------------------------------------------------------------------------------------------------------------
# A small table from the hand-worked examples: the reference recomputes them, and the engine agrees
# ---------------------------------------------------------------------------------------------------------------

EXAMPLES = [  # (file, ruleset, hand, situation, expect)
    ("beijing/catch-five", "beijing", "123p 456s 789s EE 46m +5m", {"seat": "S", "from": "W"},
     {"total": 3, "payouts": {"E": 0, "S": 3, "W": -3, "N": 0}}),
    ("beijing/hui-spoils-menqing", "beijing", "123m 456p 789s 234s 9p +E", {"seat": "S", "wild": ["9p"]},
     {"total": 1, "payouts": {"E": -1, "S": 3, "W": -1, "N": -1}}),
    ("beijing/luxury-seven-pairs", "beijing", "1111m 22p 33s 44s EE C +C", {"seat": "S"},
     {"total": 9, "payouts": {"E": -9, "S": 27, "W": -9, "N": -9}}),
    ("beijing/mutual-two-partners-self-draw", "beijing", "[123m] 456p 789s 234s E +E",
     {"seat": "N", "mutual": ["S", "W"], "shaozhuang": 1},
     {"total": 1, "payouts": {"E": -3, "S": -2, "W": -2, "N": 7}}),
    ("beijing/shaozhuang-dealer-all-pungs", "beijing", "[111m] 222p 333s EEE 9m +9m",
     {"seat": "E", "dealer": "E", "shaozhuang": 1, "base": 2000},
     {"complete": True, "legal": True, "total": 3, "payouts": {"E": 12000, "S": -4000, "W": -4000, "N": -4000}}),
    ("beijing/big-single-wait-by-discard-refused", "beijing", "[123p] [456s] [789s] [EEE] 9m +9m",
     {"seat": "S", "from": "W"}, {"complete": True, "legal": False, "payouts": None}),
    ("beijing/money-cap", "beijing-money", "111m 234m 678m 999m 5m +5m", {"seat": "S"},
     {"total": 6, "payouts": {"E": -640, "S": 1920, "W": -640, "N": -640}}),
    ("beijing/money-zhuangdian", "beijing-money", "123m 456p 789s 234s E +E", {"seat": "S", "from": "E"},
     {"total": 1, "payouts": {"E": -60, "S": 60, "W": 0, "N": 0}}),
    ("beijing/money-pingmo", "beijing-money", "[123m] 456p 789s 234s E +E", {"seat": "S"},
     {"total": 0, "payouts": {"E": -20, "S": 40, "W": -10, "N": -10}}),
    ("zhuji/rob-kong-of-the-bidder", "zhuji", "222m 345m 555p 89s 8p 8p +7s",
     {"seat": "W", "dealer": "E", "from": "S", "rob_kong": True, "bid": "3", "bidder": "S", "wild": ["5m"]},
     {"complete": True, "legal": True, "total": 1, "payouts": {"E": 10, "S": -36, "W": 16, "N": 10}}),
    ("zhuji/heavenly-below-the-bid", "zhuji", "123m 234m 456p 789s 5p +5p",
     {"seat": "E", "dealer": "E", "first_turn": True, "bid": "9", "bidder": "E", "wild": ["9s"]},
     {"legal": True, "total": 8, "payouts": {"E": 2688, "S": -896, "W": -896, "N": -896}}),
    ("zhuji/bidder-below-the-bid", "zhuji", "123m 456p 789s EEE 1s +1s",
     {"seat": "E", "dealer": "E", "bid": "3", "bidder": "E", "wild": ["1s"]},
     {"complete": True, "legal": False, "total": 2}),
    ("zhuji/full-flush-discard-by-non-bidder", "zhuji", "111m 234m 678m 999m 1p +5m",
     {"seat": "N", "dealer": "E", "from": "E", "bid": "2", "bidder": "W", "wild": ["1p"]},
     {"total": 3, "payouts": {"E": -3, "S": 1, "W": -19, "N": 21}}),
    ("zhuji/spec-tai-mixed-kong-bloom", "zhuji", "{2222m} 345m 555p 789s 8p +8p",
     {"seat": "S", "dealer": "E", "bid": "du2", "bidder": "W", "wild": ["5m"], "kong_draw": 1},
     {"legal": True, "total": 1, "payouts": {"E": 8, "S": 16, "W": -32, "N": 8}}),
    ("zhuji/all-honors-on-the-bidder-discard", "zhuji", "EEE SSS NNN CCC F +F",
     {"seat": "N", "dealer": "E", "from": "S", "bid": "2", "bidder": "S", "wild": ["5m"]},
     {"total": 8, "payouts": {"E": -123, "S": -271, "W": -123, "N": 517}}),
]


@pytest.mark.parametrize("name,rid,text,sit,expect", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_examples_table(name, rid, text, sit, expect):
    ref = ref_score(text, rid, sit)
    for key, value in expect.items():
        assert ref[key] == value, (key, ref[key], value)
    sit = {"seat": "E", "dealer": "E", **sit}
    compare(text, rid, sit)


def test_table_reads_the_example_files():
    """The table above is copied from examples/; keep the copy honest."""
    import os

    import yaml

    root = os.path.join(os.path.dirname(__file__), os.pardir, "examples")
    for name, rid, text, _sit, expect in EXAMPLES:
        with open(os.path.join(root, name + ".yaml"), encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        assert doc["ruleset"] == rid and doc["hand"] == text, name
        for key, value in expect.items():
            assert doc["expect"][key] == value, (name, key)


def test_reference_sanity():
    """A few direct checks of the reference itself."""
    assert kind_of("5m") == 4 and name_of(33) == "P"
    assert [name_of(next_in_cycle(kind_of(t))) for t in ("9m", "N", "P", "4s")] == ["1m", "E", "C", "5s"]
    # 捉五魁: 46m waits on 5m only
    assert ref_score("123p 456s 789s EE 46m +5m", "beijing", {"seat": "S"})["patterns"].get("catch_five") == 2
    # with the EE pair as two 惠 the 13 tiles wait on much more than 5m: no 捉五魁
    wild_pair = ref_score("123p 456s 789s EE 46m +5m", "beijing", {"seat": "S", "wild": ["E"]})
    assert "catch_five" not in wild_pair["patterns"]
    with pytest.raises(ValueError):
        ref_score("123m 456p 789s EEE 1s +1s", "beijing", {"wild": ["E"]})


# ---------------------------------------------------------------------------------------------------------------
# Disagreements kept as strict xfails (the engine is not changed here; see the reasons)
# ---------------------------------------------------------------------------------------------------------------

AGREEMENTS_ONCE_DISPUTED = [
    # The engine once scored 豪华七对子 per four (16 + 1 = 17); rules-beijing.md gives a flat 8 番 for "seven
    # pairs containing four identical tiles". Fixed with `scale: once` in beijing.yaml: 8 + 门清无惠 1 = 9.
    pytest.param("1111m 2222p 33s 44s E +E", "beijing", {"seat": "S", "dealer": "E"},
                 id="beijing-luxury-seven-pairs-two-quads"),
]


@pytest.mark.parametrize("text,rid,sit", AGREEMENTS_ONCE_DISPUTED)
def test_disagreement(text, rid, sit):
    compare(text, rid, sit)
