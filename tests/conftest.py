"""Shared helpers and Hypothesis strategies: hands as the engine sees them, generated within the 4-copies rule.

Before anything else, the suite takes a home of its own: `HOME`, the XDG directories (and `APPDATA`) point into a
fresh temporary directory, and no `MJCALC_*` variable of the user's reaches a test. This runs when pytest imports
this file, before any test module is imported, so a module that reads the environment at import time (or a
subprocess a test starts with `os.environ`) sees only the suite's own directories: the player's ledger, the
table in use and the prompt's history are never read or written (tests/test_isolation.py checks it).
"""
import atexit
import os
import shutil
import sys
import tempfile


def _own_home():
    home = tempfile.mkdtemp(prefix="mjcalc-tests-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    for key in [k for k in os.environ if k.startswith("MJCALC_") and k not in KEPT]:
        del os.environ[key]
    os.environ.update({"HOME": home, "XDG_DATA_HOME": os.path.join(home, "data"),
                       "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_CACHE_HOME": os.path.join(home, "cache"),
                       "XDG_STATE_HOME": os.path.join(home, "state"), "APPDATA": os.path.join(home, "appdata")})
    return home


# What the suite itself reads (how long the reference hunts run, where screenshots go): the user's words to the
# suite, not to mjcalc.
KEPT = ("MJCALC_REF_SCALE", "MJCALC_SCREENSHOTS")
TEST_HOME = _own_home()

# after the home is the suite's own: nothing imported may have read the old one
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mjcalc.hand import CHOW, KONG, PUNG, Hand, Meld  # noqa: E402
from mjcalc.tiles import WILD  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))  # `import reference` from any test file
os.environ["COLUMNS"] = "80"  # text output fits the terminal: tests see an 80-column one, whatever runs them

# The fast local loop (README): `pytest -q -m "not slow" --hypothesis-profile=fast` tries each property on a few
# examples, even where a test asks for more; CI runs the default profile and every test.
FAST_EXAMPLES = 8
settings.register_profile("fast", max_examples=FAST_EXAMPLES, deadline=None)


def pytest_collection_modifyitems(config, items):
    if config.getoption("hypothesis_profile", None) != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)  # a test's own @settings(max_examples=…)
        if own is not None and own.max_examples > FAST_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=FAST_EXAMPLES)

@pytest.hookimpl(hookwrapper=True, trylast=True)  # inside pytest-cov's own pause
def pytest_runtest_call(item):
    """A test marked `no_cover` (an audit against a reference or an exhaustive enumeration) runs with no tracer in
    its thread. pytest-cov's pause is not enough in pytest-xdist's workers: there coverage runs two collectors, and
    stopping pytest-cov's resumes the one beneath it (measured: two audits took 110 s of CPU under `-n 2 --cov`
    with the mark, 32 s untraced; with this hook, as untraced). Traced, the audits are 3 to 5 times slower, and the
    unit tests cover the code they check."""
    tracer = sys.gettrace() if item.get_closest_marker("no_cover") else None
    if tracer is None:
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


NUM_KINDS = 34
ORPHANS = (0, 8, 9, 17, 18, 26) + tuple(range(27, 34))


def _chow_starts():
    return [9 * s + r for s in range(3) for r in range(7)]


@st.composite
def meld_counts(draw, melds):
    """34 counts of the tiles in `melds` declared sets (pungs, chows, kongs), at most 4 of a kind."""
    counts = [0] * NUM_KINDS
    for _ in range(melds):
        kind = draw(st.sampled_from(["pung", "chow", "kong"]))
        for _attempt in range(20):
            if kind == "chow":
                low = draw(st.sampled_from(_chow_starts()))
                tiles = [low, low + 1, low + 2]
            else:
                t = draw(st.integers(0, NUM_KINDS - 1))
                tiles = [t] * (4 if kind == "kong" else 3)
            if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
                break
        else:  # a pung of a kind nobody holds always fits
            t = next(k for k in range(NUM_KINDS) if counts[k] == 0)
            tiles = [t] * 3
        for t in tiles:
            counts[t] += 1
    return counts


@st.composite
def tile_list(draw, size, room):
    """`size` tile kinds, never more of a kind than `room` allows; shaped to give complete and ready hands often."""
    room = list(room)
    style = draw(st.sampled_from(["blocks", "blocks", "blocks", "one_suit", "random", "orphans", "lonely", "pairs"]))
    tiles = []

    def take(kinds):
        for t in kinds:
            if len(tiles) < size and room[t] > 0:
                room[t] -= 1
                tiles.append(t)

    for _ in range(3 * size):
        if len(tiles) >= size:
            break
        if style == "blocks":
            what = draw(st.integers(0, 3))
            if what == 0:
                low = draw(st.sampled_from(_chow_starts()))
                block = [low, low + 1, low + 2]
            else:
                t = draw(st.integers(0, NUM_KINDS - 1))
                block = [t] * (3 if what == 1 else 2)
            if all(room[t] >= block.count(t) for t in block):
                take(block)
        elif style == "one_suit":
            take([draw(st.integers(0, 8))])
        elif style == "orphans":
            take([draw(st.sampled_from(ORPHANS))])
        elif style == "lonely":
            suit = draw(st.integers(0, 3))
            if suit == 3:
                take([draw(st.integers(27, 33))])
            else:
                first = draw(st.integers(0, 2))
                take([9 * suit + first + 3 * draw(st.integers(0, 2))])
        elif style == "pairs":
            t = draw(st.integers(0, NUM_KINDS - 1))
            take([t, t])
        else:
            take([draw(st.integers(0, NUM_KINDS - 1))])
    while len(tiles) < size:  # top up deterministically from a drawn start
        start = draw(st.integers(0, NUM_KINDS - 1))
        take([k % NUM_KINDS for k in range(start, start + NUM_KINDS) if room[k % NUM_KINDS]][:1])
    if tiles and draw(st.integers(0, 4)) == 0:  # perturb one tile
        i = draw(st.integers(0, len(tiles) - 1))
        room[tiles[i]] += 1
        new = draw(st.integers(0, NUM_KINDS - 1))
        if room[new] > 0:
            room[new] -= 1
            tiles[i] = new
        else:
            room[tiles[i]] -= 1
    return tiles


@st.composite
def engine_hands(draw, size, max_wilds=4, max_melds=4):
    """A hand of `size` tiles (13 or 14, melds counting 3) as the engine sees it.

    Returns a dict: naturals (34 counts), wilds, melds, meld_counts (34), wild_kind (a kind or None: with a wild
    kind every wildcard's face is that kind and no natural tile of it is held; None: faceless `*` wildcards) and
    held (copies of each kind held: naturals, faces, melds)."""
    melds = draw(st.sampled_from([0, 0, 0, 0, 0, 1, 2, 3, 4][: 5 + max_melds]))
    mc = draw(meld_counts(melds))
    n = size - 3 * melds
    room = [4 - c for c in mc]
    tiles = draw(tile_list(n, room))
    wilds = draw(st.integers(0, min(max_wilds, n)))
    for _ in range(wilds):  # the wildcards replace some of the tiles, keeping the rest of the shape
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    naturals = [0] * NUM_KINDS
    for t in tiles:
        naturals[t] += 1
    wild_kind = None
    if draw(st.booleans()):
        free = [k for k in range(NUM_KINDS) if naturals[k] == 0 and mc[k] + wilds <= 4]
        if free:
            wild_kind = draw(st.sampled_from(free))
    held = [naturals[k] + mc[k] + (wilds if k == wild_kind else 0) for k in range(NUM_KINDS)]
    return {"naturals": naturals, "wilds": wilds, "melds": melds, "meld_counts": mc, "wild_kind": wild_kind,
            "held": held}


def hand_text(naturals, wilds=0, melds=0):
    """For failure messages: `123m EE + 2 wild, 1 meld`."""
    from reference import counts_to_text

    return f"{counts_to_text(naturals)} + {wilds} wild, {melds} meld(s)"


def draw_melds(draw, room, tries: int):
    """Up to `tries` melds (chow, pung, exposed or concealed kong) drawn within `room` (copies left of each kind,
    taken as the melds are made); a meld that does not fit is skipped."""
    melds = []
    for _ in range(tries):
        kind = draw(st.sampled_from([CHOW, PUNG, KONG, "concealed"]))
        if kind == CHOW:
            low = draw(st.sampled_from([9 * s + r for s in range(3) for r in range(7)]))
            tiles = (low, low + 1, low + 2)
        else:
            t = draw(st.integers(0, 33))
            tiles = (t,) * (3 if kind == PUNG else 4)
        if all(room[t] >= tiles.count(t) for t in tiles):
            for t in tiles:
                room[t] -= 1
            melds.append(Meld(KONG if kind == "concealed" else kind, tiles, concealed=kind == "concealed"))
    return melds


@st.composite
def notation_hands(draw):
    """A valid Hand: melds, concealed tiles and maybe `*`, at most 4 copies of a kind, 13 or 14 tiles."""
    room = [4] * 34
    melds = draw_melds(draw, room, draw(st.integers(0, 4)))
    size = draw(st.sampled_from([13, 14]))
    concealed = []
    while len(concealed) + 3 * len(melds) < size:
        t = draw(st.integers(0, 34))
        if t == WILD or room[t]:
            concealed.append(t)
            if t != WILD:
                room[t] -= 1
    winning = None
    if size == 14:
        winning = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    return Hand(tuple(sorted(concealed)), tuple(sorted(melds)), winning)


def first_turn_possible(hand_text, sit):
    """A first-turn win (天和/地和) has made no call, the dealer's is his dealt hand (no declared kong), and it
    is not also a kong draw, a last tile or a robbed kong."""
    from mjcalc.notation import parse_hand

    melds = parse_hand(hand_text).melds
    if any(not m.concealed for m in melds) or (melds and sit.get("seat", "E") == sit.get("dealer", "E")):
        return False
    return not (sit.get("kong_draw") or sit.get("last_tile") or sit.get("rob_kong"))


def situation_possible(hand_text, kong_draw=0, rob_kong=False, wild=()):
    """Whether a kong draw / robbed kong can happen with this hand at a real table, worked from the hand alone:
    N kong replacement draws in a row need N declared kongs; a robbed kong's other three copies were the
    konger's, so the winner holds no other copy of the winning tile (a wildcard counts as its face)."""
    from mjcalc.notation import parse_hand, parse_tiles

    hand = parse_hand(hand_text)
    if kong_draw and kong_draw > sum(1 for m in hand.melds if m.kind == KONG):
        return False
    if rob_kong and hand.winning is not None:
        faces = [parse_tiles(w)[0][0] for w in wild]
        win = faces[0] if hand.winning == WILD and faces else hand.winning
        copies = list(hand.concealed) + [t for m in hand.melds for t in m.tiles]
        copies = [faces[0] if t == WILD and faces else t for t in copies]
        if copies.count(win):
            return False
    return True


def copies_held(hand_text, tile_name):
    """Copies of `tile_name` in the hand, melds included, a `*` counting as this face."""
    from mjcalc.notation import parse_hand, parse_tiles

    hand = parse_hand(hand_text)
    face = parse_tiles(tile_name)[0][0]
    tiles = list(hand.tiles) + [t for m in hand.melds for t in m.tiles]
    return sum(1 for t in tiles if t == face or t == WILD)


def drop_impossible(text, sit, self_draw_when_not_robbed=False):
    """A generated situation less what this hand makes impossible (a kong draw with too few kongs, a first-turn
    win with calls, a robbed kong of a tile the winner holds again): those are refused, and have their own tests.
    With `self_draw_when_not_robbed`, a dropped rob becomes a self-draw (no discarder)."""
    if not situation_possible(text, kong_draw=sit.get("kong_draw", 0)):
        sit.pop("kong_draw")
    if sit.get("first_turn") and not first_turn_possible(text, sit):
        sit.pop("first_turn")
    if sit.get("rob_kong") and not situation_possible(text, rob_kong=True, wild=sit.get("wild", ())):
        sit.pop("rob_kong")
        if self_draw_when_not_robbed:
            sit.pop("from")
    return sit
