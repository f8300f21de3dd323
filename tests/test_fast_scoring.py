"""The scorer as it runs (one reading per key the region gives, `Region.reading_keys`) against the plain definition
(`score_hand(..., exhaustive=True)`: every reading of every decomposition), on generated hands with up to four
wildcards under every built-in ruleset and random situations: the same best reading, patterns, total, bonus,
legality, reason and number of decompositions. Then the worst hands of issue 11 (six to eight wildcards), whose
answers were worked by hand or agreed with the exhaustive scorer once (it takes minutes on them).

Nothing here times anything: bench/worst_case.py does.
"""
import pytest
from conftest import draw_melds, tile_list
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from mjcalc import HandError, SituationError, load_ruleset
from mjcalc.analysis import analyze, pay, setting
from mjcalc.decompose import count_decompositions, decompositions
from mjcalc.hand import Hand
from mjcalc.tiles import WILD
from mjcalc.notation import parse_hand
from mjcalc import scoring
from mjcalc.scoring import Reading, score_hand, score_hands
from mjcalc.situation import Situation

# An audit against an independent reference or an exhaustive enumeration: run in every suite, not traced by
# coverage (the unit tests cover the code it checks; traced, these audits alone took half of CI's 15 minutes).
pytestmark = pytest.mark.no_cover

RULESETS = ["beijing", "beijing-money", "zhuji", "shangrao", "beijing-classic", "beijing-doubling", "beijing-hunr"]
SEATS = "ESWN"


def outcome(score):
    """Everything a user sees of a score."""
    r = score.reading
    return (score.complete, score.legal, score.reason, score.total, score.bonus, score.matches,
            len(score.decompositions), score.situation, r and r.shape, r and r.decomposition,
            r and r.winning_block, r and r.winning_as, score.notes)


@st.composite
def hands(draw, max_wilds=4):
    """A 14-tile hand (melds counting 3) with up to `max_wilds` wildcards, written `*` or as the wild kind's face."""
    room = [4] * 34
    melds = draw_melds(draw, room, draw(st.sampled_from([0, 0, 0, 1, 1, 2, 4])))
    n = 14 - 3 * len(melds)
    tiles = draw(st.one_of(complete_tiles(n, room), complete_tiles(n, room), tile_list(n, room)))
    wilds = draw(st.integers(0, min(max_wilds, n)))
    for _ in range(wilds):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    kinds = draw(st.sampled_from([(), (), (4,), (31,), (4, 5), (27,)]))
    written = draw(st.sampled_from(["star", "face", "mixed"])) if kinds else "star"
    for i in range(wilds):
        face = written == "face" or (written == "mixed" and i % 2)
        tiles.append(kinds[i % len(kinds)] if face else WILD)
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return Hand(tuple(sorted(tiles)), tuple(sorted(melds)), win), kinds


@st.composite
def complete_tiles(draw, n, room):
    """`n` tiles (n = 2 mod 3) making sets and a pair, or seven pairs, within `room`; topped up at random."""
    room = list(room)
    tiles = []
    pairs = draw(st.booleans()) and n == 14

    def take(block):
        if all(room[t] >= block.count(t) for t in block) and len(tiles) + len(block) <= n:
            for t in block:
                room[t] -= 1
            tiles.extend(block)

    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2))
    for _ in range(12):
        suit = draw(st.sampled_from(suits))
        if suit == 3:
            t = draw(st.integers(27, 33))
            block = [t] * draw(st.sampled_from([2, 3]))
        else:
            r = draw(st.integers(0, 8))
            what = draw(st.sampled_from(["chow", "pung", "pair"]))
            if pairs or what == "pair":
                block = [9 * suit + r] * 2
            elif what == "pung" or r > 6:
                block = [9 * suit + r] * 3
            else:
                block = [9 * suit + r, 9 * suit + r + 1, 9 * suit + r + 2]
        take(block)
    while len(tiles) < n:
        t = draw(st.integers(0, 33))
        if room[t]:
            room[t] -= 1
            tiles.append(t)
    return tiles


@st.composite
def situations(draw, rid, kinds):
    seat = draw(st.sampled_from(SEATS))
    dealer = draw(st.sampled_from(SEATS))
    discarder = draw(st.sampled_from([None, None] + [s for s in SEATS if s != seat]))
    options = {}
    if rid == "beijing" and draw(st.booleans()):
        options["shaozhuang"] = draw(st.integers(1, 2))
    rob_kong = discarder is not None and draw(st.integers(0, 5)) == 0
    if rid.startswith("beijing"):
        options["hui_on_wall"] = draw(st.integers(0, 3)) == 0
        options["hunr_you"] = draw(st.integers(0, 3)) == 0
        options["rob_concealed"] = rob_kong and draw(st.booleans())
    if rid == "zhuji" and kinds and draw(st.booleans()):
        options["bid"] = draw(st.sampled_from(["2", "3"] if len(kinds) == 2 else ["du2"]))
        options["bidder"] = draw(st.sampled_from(SEATS))
    if rid == "shangrao":
        if draw(st.booleans()):
            options["flown"] = draw(st.integers(0, 1))
        if draw(st.booleans()):
            options["jiebao"] = True
    return Situation(
        seat=seat, dealer=dealer, discarder=discarder,
        kong_draw=draw(st.sampled_from([0, 0, 0, 1])) if discarder is None else 0,
        last_tile=draw(st.booleans()), rob_kong=rob_kong,
        first_turn=draw(st.integers(0, 6)) == 0, wild=kinds, **options)


def _fast_and_slow(rid, hand, kinds, data):
    """The hand under the ruleset in a drawn situation, scored fast and in full; None when it cannot be."""
    rules = load_ruleset(rid)
    situation = data.draw(situations(rid, kinds))
    try:
        here = setting(hand, rules, situation)
    except (SituationError, HandError):
        return None
    fast = score_hand(here.tiles, here.situation, rules, here.region)
    slow = score_hand(here.tiles, here.situation, rules, here.region, exhaustive=True)
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(outcome(fast), outcome(slow))) if a != b]
    assert not differ, f"{hand} under {rid}, {here.situation}: {differ}"
    return here, rules, slow


def _check(rid, data, max_wilds):
    hand, kinds = data.draw(hands(max_wilds))
    scored = _fast_and_slow(rid, hand, kinds, data)
    if scored is None:
        return
    here, rules, slow = scored
    # a wait is scored won by self-draw and on a discard in one go, as analyze does
    other = here.situation.replace(discarder=None if here.situation.discarder else
                                   SEATS[(SEATS.index(here.situation.seat) + 3) % 4], rob_kong=False, kong_draw=0)
    both = score_hands(here.tiles, (here.situation, other), rules, here.region)
    assert outcome(both[0]) == outcome(slow)
    assert outcome(both[1]) == outcome(score_hand(here.tiles, other, rules, here.region, exhaustive=True))


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_scorer_is_the_exhaustive_one(rid, data):
    _check(rid, data, 4)


@pytest.mark.slow
@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_scorer_is_the_exhaustive_one_more(rid, data):
    _check(rid, data, 4)


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_keys_without_a_winning_place_score_alike_whichever_tile_won(rid, data):
    """`advise --by value` scores 14 tiles once for every winning tile when the region's keys read no winning tile
    (`ReadingKeys.place` None): so every tile of such a hand that can be the winning one, won by self-draw,
    gives the same legality, patterns, total and payout (each scored on its own here)."""
    hand, kinds = data.draw(hands(4))
    situation = data.draw(situations(rid, kinds)).replace(discarder=None, rob_kong=False)
    seen = _scored_by_winning_tile(hand, rid, situation)
    event(f"winning tiles compared: {min(len(seen), 3)}")
    assert len(set(seen.values())) <= 1, f"{hand} under {rid}: {seen}"


@pytest.mark.parametrize("text,rid", [
    ("123p 789s EEE 99p 4m 6m +5m", "beijing"),  # won on 5m: 捉五魁 (5m the only wait of 46m), on 1p not
    ("123p 789s EEE 99p 4m 6m +5m", "beijing-money"),
    ("123p 789s EEE 99p 4m 6m +5m", "beijing-classic"),
    ("123p 789s EEE 99p 4m 6m +5m", "beijing-hunr"),
])
def test_a_winning_tile_that_scores_differently_is_keyed(text, rid):
    """Where the winning tile changes the score, the keys must read it: the hand scores differently won on 5m
    and on 1p, so at most one of those two can be scored without a winning place."""
    hand = parse_hand(text)
    rules = load_ruleset(rid)
    situation = Situation()
    scores = {}
    for win in (4, 9):  # 5m, 1p
        tiles = list(hand.tiles)
        tiles.remove(win)
        here = setting(Hand(tuple(sorted(tiles)), hand.melds, win), rules, situation)
        scores[win] = score_hand(here.tiles, here.situation, rules, here.region).total
    assert scores[4] > scores[9]  # 捉五魁 counts on 5m
    assert len(_scored_by_winning_tile(hand, rid, situation).keys() & {4, 9}) <= 1


def _scored_by_winning_tile(hand, rid, situation):
    """For each kind of the hand that can be its winning tile (self-drawn) and whose keys read no winning tile:
    what the library scores and pays for it."""
    rules = load_ruleset(rid)
    seen = {}
    for win in sorted(set(hand.tiles)):
        tiles = list(hand.tiles)
        tiles.remove(win)
        try:
            here = setting(Hand(tuple(sorted(tiles)), hand.melds, win), rules, situation)
        except (SituationError, HandError):
            continue
        keys = here.region.reading_keys(rules, here.region.as_paid(rules, here.situation), here.tiles)
        if keys is None or keys.place is not None:
            continue
        score = score_hand(here.tiles, here.situation, rules, here.region)
        paid = sorted(pay(score, rules, here.region).deltas.items()) if score.legal else None
        if score.complete:
            seen[win] = (score.legal, score.total, score.bonus, score.matches, tuple(paid or ()))
    return seen


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_decompositions_are_counted_as_listed(data):
    hand, kinds = data.draw(hands(5))
    from mjcalc.scoring import prepare
    shapes = data.draw(st.sampled_from([frozenset({"standard"}), frozenset({"standard", "seven_pairs"}),
                                        load_ruleset("shangrao").shapes]))
    try:
        t = prepare(hand, kinds)
    except HandError:
        return
    args = (t.naturals, t.wilds, t.melds, shapes, t.faces)
    assert count_decompositions(*args) == sum(1 for _ in decompositions(*args))


# --- the worst hands of issue 11 ----------------------------------------------------------------------------

ISSUE_HAND = "1m 2m 3m 4m 5p 5m5m5m5m 6m6m6m6m"  # zhuji, 5m and 6m wild: eight 财神 (60 s before)

# Worked by hand: the dealer East scores 东风 2 for an EEE of three 财神; eight 财神 pay for that pung and for the
# natural tiles (1m2m3m4m5p and the wait) only when those need at most 5, leaving 3 for a dragon pung (+1). That
# is the case when the wait joins 1m-4m or 5p cheaply (1m-4m, 3p-7p) or is itself E or a dragon; otherwise 2.
ISSUE_WAITS = {name: (3 if name in {"1m", "2m", "3m", "4m", "3p", "4p", "5p", "6p", "7p", "E", "C", "F", "P"} else 2)
               for name in "1m 2m 3m 4m 7m 8m 9m 1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s 5s 6s 7s 8s 9s E S W N C F P"
               .split()}


def test_eight_caishen_waits_and_scores():
    from mjcalc import parse_hand
    from mjcalc.tiles import NAMES

    result = analyze(parse_hand(ISSUE_HAND), load_ruleset("zhuji"), Situation(wild=(4, 5)))
    got = {NAMES[w.tile]: (w.self_draw.total, w.self_draw.legal, w.discard.total, w.discard.legal)
           for w in result.waits}
    assert got == {name: (t, True, t, True) for name, t in ISSUE_WAITS.items()}


def test_eight_caishen_complete_hand():
    rules = load_ruleset("zhuji")
    result = analyze(parse_hand(ISSUE_HAND + " +7m"), rules, Situation(wild=(4, 5)))
    assert result.score.total == 2
    assert [m.pattern_id for m in result.score.matches] == ["east_pung"]
    assert len(result.score.decompositions) == 11816


@pytest.mark.slow
def test_eight_caishen_complete_hand_against_the_exhaustive_scorer():
    rules = load_ruleset("zhuji")
    here = setting(parse_hand(ISSUE_HAND + " +7m"), rules, Situation(wild=(4, 5)))
    fast = score_hand(here.tiles, here.situation, rules, here.region)
    assert outcome(fast) == outcome(score_hand(here.tiles, here.situation, rules, here.region, exhaustive=True))


@pytest.mark.slow
@pytest.mark.parametrize("rid,text,wild", [
    ("zhuji", "1m 2m 3m 4m 5m ******** +6m", ()),
    ("beijing", "1m 2m 3m 4m 5m 6m 7m 8m 9m **** +E", ()),
    ("shangrao", "123m 456p 7s 8s 9s **** +E", ()),
    ("beijing-money", "11m 22m 33m 4p 5p 7s CCCC +8s", (31,)),
])
def test_worst_complete_hands_against_the_exhaustive_scorer(rid, text, wild):
    rules = load_ruleset(rid)
    here = setting(parse_hand(text), rules, Situation(wild=wild))
    fast = score_hand(here.tiles, here.situation, rules, here.region)
    assert outcome(fast) == outcome(score_hand(here.tiles, here.situation, rules, here.region, exhaustive=True))


def test_nine_terminals_and_a_straight_with_four_faceless_wildcards():
    # 1m-9m as 一条龙 (3), E and a '*' the pair, three '*' any set; the dealer (1): 4 番, 推倒和 replaced
    result = analyze(parse_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m **** +E"), load_ruleset("beijing"), Situation())
    assert result.score.total == 4
    assert {m.pattern_id for m in result.score.matches} == {"dealer", "dragon"}


@pytest.mark.parametrize("rid,text,most", [
    ("beijing", "1m 2m 3m 4m **********", 4),
    ("shangrao", "********123m456p", 4),
    ("zhuji", "1m 2m 3m 4m *********", 8),
])
def test_more_faceless_wildcards_than_the_ruleset_has_are_refused(rid, text, most):
    from click.testing import CliRunner

    import mjcalc.cli

    for command in ("analyze", "advise", "compare"):
        argv = [command, text, "-r", rid]
        result = CliRunner().invoke(mjcalc.cli.cli, argv)
        if command == "compare":
            assert f"at most {most}" in result.output
            continue
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and f"at most {most}" in lines[0], result.output


def test_eight_faceless_wildcards_are_fine_in_zhuji():
    result = analyze(parse_hand("1m 2m 3m 4m 5m ******** +6m"), load_ruleset("zhuji"), Situation())
    assert result.score.complete and result.score.legal


def test_a_faceless_wildcard_in_nine_terminals_is_never_its_own_face():
    # 九幺 (every tile a terminal or an honor) with a `*` of no declared 宝 kind: the `*` has no face, so it plays
    # a wildcard role and the hand is worth 九幺's value with a 宝 (2), not its 无宝 value (4); no reading has the
    # `*` stand for "no tile" (-1)
    hand = parse_hand("119999m 11119p 1s * +1m")
    rules = load_ruleset("shangrao")
    for exhaustive in (False, True):
        here = setting(hand, rules, Situation())
        score = score_hand(here.tiles, here.situation, rules, here.region, exhaustive=exhaustive)
        assert score.total == 2 and [m.pattern_id for m in score.matches] == ["nine_terminals"]
        assert all(t >= 0 for d in score.decompositions for t in d.wild_as)


@st.composite
def irregular_hands(draw):
    """A shangrao hand near 十三浪 (lonely tiles: ranks of a suit 3 apart, honors once) or 九幺 (terminals and
    honors), with up to four wildcards written `*` or as the 宝's face."""
    if draw(st.booleans()):
        tiles = []
        for s in range(3):
            ranks = draw(st.sampled_from([(0, 3, 6), (0, 4, 8), (1, 4, 7), (2, 5, 8), (0, 3, 7), (1, 5, 8), (0, 5)]))
            tiles += [9 * s + r for r in ranks]
        tiles += list(range(27, 34))
        tiles = draw(st.permutations(tiles))[:14]
    else:
        pool = [t for t in range(34) if t >= 27 or t % 9 in (0, 8)]
        tiles = draw(st.lists(st.sampled_from(pool), min_size=14, max_size=14))
        tiles = ([t for t in tiles if tiles.count(t) <= 4] + [t for t in pool for _ in range(2)])[:14]
    kind = draw(st.sampled_from([(), (27,), (33,), (0,)]))
    wilds = draw(st.integers(0, 4))
    for i in range(wilds):
        tiles[i] = kind[0] if kind and draw(st.booleans()) else WILD
    if any(tiles.count(t) > 4 for t in range(34)):
        tiles = sorted(set(tiles))[:14] + [WILD] * (14 - len(set(tiles)))
    win = tiles.pop(draw(st.integers(0, 13)))
    return Hand(tuple(sorted(tiles)), (), win), kind


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_scorer_is_the_exhaustive_one_on_irregular_shapes(data):
    hand, kinds = data.draw(irregular_hands())
    _fast_and_slow("shangrao", hand, kinds, data)


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_per_hand_detector_counts_alike_on_every_reading(rid, data):
    # the scorer runs a detector marked `per_hand` once for all the readings of a hand: it must read nothing
    # that changes from one reading to another; one marked `only_on` only on readings of its shapes
    hand, kinds = data.draw(hands(4))
    rules = load_ruleset(rid)
    try:
        here = setting(hand, rules, data.draw(situations(rid, kinds)))
    except (SituationError, HandError):
        return
    t, s = here.tiles, here.situation
    listed = list(decompositions(t.naturals, t.wilds, t.melds, rules.shapes, t.faces))
    readings = [Reading(t, s, rules, d, b, w) for d, b, w in scoring._readings(t, listed)]
    assume(len(readings) > 1)
    detectors = here.region.detectors
    for p in rules.patterns:
        if getattr(detectors[p.id], "per_hand", False):
            assert len({detectors[p.id](r, p) for r in readings}) <= 1, (p.id, hand)
        # a detector marked `only_on` some shapes counts 0 on readings of the others, and on a hand won whatever
        # its shape (no decomposition)
        shapes = getattr(detectors[p.id], "shapes", None)
        if shapes is not None:
            others = [r for r in readings if r.shape not in shapes] + [Reading(t, s, rules, None, None, None)]
            assert all(detectors[p.id](r, p) == 0 for r in others), (p.id, hand)


def test_the_key_spaces_kept_between_hands_stay_bounded_and_change_no_score(monkeypatch):
    # a long-running process (serve, a batch) keeps key spaces from hand to hand; with tiny bounds they are
    # dropped and made again often, and every hand still scores as it does on its own
    hands_ = ["1m 2m 3m 4m ** ** ** **  5m +6m", "123m 456p 789s 11s 2s * +3s", "11m 22m 33m 4p 5p 7s 9s ** 6s +8s",
              "1m 2m 3m 4m 5m 6m 7m 8m 9m ** E E +E", "EE 1s 9s 3p ** ** ** 5p 6p +S"]
    rules = load_ruleset("zhuji")

    def scores():
        out = []
        for text in hands_:
            here = setting(parse_hand(text), rules, Situation())
            out.append(outcome(score_hand(here.tiles, here.situation, rules, here.region)))
        return out

    alone = []
    for text in hands_:
        scoring._SPACES.clear()
        here = setting(parse_hand(text), rules, Situation())
        alone.append(outcome(score_hand(here.tiles, here.situation, rules, here.region)))
    monkeypatch.setattr(scoring, "_MOST_MEMO", 40)
    monkeypatch.setattr(scoring, "_MOST_SPACES", 2)
    assert scores() + scores() == alone + alone
    assert len(scoring._SPACES) <= 2
