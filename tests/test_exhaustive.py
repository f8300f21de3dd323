"""The waits of every one-suit 13-tile hand (counts of 1m..9m, each 0..4, summing to 13: 93,600 hands) agree with
tests/reference.py.

The reference answers "is hand + tile complete" once per distinct 14-tile count tuple (118,800 of them, memoised
here); the engine is asked for each hand's waits as a whole.  A tile of another suit or an honor never completes a
one-suit hand (it would be a lone tile, in no set, pair or pair of seven pairs), so only 1m..9m can be waits; a
sample checks that against the reference too.
"""
import random
import time
from itertools import product

import pytest

import reference as ref
from mjcalc.shapes import SEVEN_PAIRS, STANDARD, WaitFinder, waits

# An audit against an independent reference or an exhaustive enumeration: run in every suite, not traced by
# coverage (the unit tests cover the code it checks; traced, these audits alone took half of CI's 15 minutes).
pytestmark = [pytest.mark.slow, pytest.mark.no_cover]

STD = frozenset({STANDARD})
BEIJING = frozenset({STANDARD, SEVEN_PAIRS})
OTHER = [0] * 25  # 1p..9p, 1s..9s, E S W N C F P: none held

HANDS = [c for c in product(range(5), repeat=9) if sum(c) == 13]


def test_there_are_93600_hands():
    assert len(HANDS) == 93_600
    assert len(set(HANDS)) == 93_600


class ReferenceWaits:
    """Per hand, the reference's waits among 1m..9m for both shape sets, from memoised 14-tile answers."""

    def __init__(self):
        self.standard = {}
        self.pairs = {}

    def complete(self, counts14, shapes):
        std = self.standard.get(counts14)
        if std is None:
            full = list(counts14) + OTHER
            std = self.standard[counts14] = ref.ref_is_complete(full, 0, 0, {ref.STANDARD})
            self.pairs[counts14] = ref.ref_is_complete(full, 0, 0, {ref.SEVEN_PAIRS})
        return std or (SEVEN_PAIRS in shapes and self.pairs[counts14])

    def waits(self, hand, shapes):
        return tuple(r for r in range(9) if hand[r] < 4
                     and self.complete(hand[:r] + (hand[r] + 1,) + hand[r + 1:], shapes))


@pytest.fixture(scope="module")
def reference_waits():
    return ReferenceWaits()


def _compare(reference_waits, shapes, engine, hands=HANDS):
    start = time.perf_counter()
    wrong = []
    for hand in hands:
        got = engine(list(hand) + OTHER)
        want = reference_waits.waits(hand, shapes)
        if tuple(got) != want:
            wrong.append((ref.counts_to_text(list(hand) + OTHER), got, want))
    print(f"{len(hands)} hands, {sorted(shapes)}: {time.perf_counter() - start:.1f} s")
    assert not wrong, f"{len(wrong)} hands disagree, e.g. {wrong[:5]}"


@pytest.mark.parametrize("shapes", [BEIJING, STD], ids=["standard+seven_pairs", "standard"])
def test_wait_finder_on_every_one_suit_hand(reference_waits, shapes):
    finder = WaitFinder(shapes)
    _compare(reference_waits, shapes, finder.waits)


def test_waits_on_every_fourth_one_suit_hand(reference_waits):
    # `waits()` tries all 34 kinds per hand, ten times slower than WaitFinder (which the batch uses and which is
    # checked on every hand above): a quarter of the hands, with both of beijing's shapes, keeps CI fast
    _compare(reference_waits, BEIJING, lambda counts: waits(counts, 0, 0, BEIJING, counts, ()), HANDS[::4])


def test_no_other_kind_completes_a_one_suit_hand():
    rng = random.Random(93600)
    for hand in rng.sample(HANDS, 300):
        for other in (9, 17, 22, 27, 33):  # 1p 9p 5s E P
            counts = list(hand) + OTHER
            counts[other] += 1
            assert not ref.ref_is_complete(counts, 0, 0, {ref.STANDARD, ref.SEVEN_PAIRS})


def test_a_few_by_hand(reference_waits):
    """Spot checks worked by hand, so the reference itself is not taken on faith here."""
    nine_gates = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    assert reference_waits.waits(nine_gates, STD) == tuple(range(9))
    # 1122334455667m: 1m, 4m, 7m (see test_decompose.py)
    assert reference_waits.waits((2, 2, 2, 2, 2, 2, 1, 0, 0), BEIJING) == (0, 3, 6)
    # 1112223334449m: the lone 9m must be the pair
    assert reference_waits.waits((3, 3, 3, 3, 0, 0, 0, 0, 1), BEIJING) == (8,)
    # 1122446688999m: no standard shape (no 3m for the 1m-2m); seven pairs with the fourth 9m as a second pair
    assert reference_waits.waits((2, 2, 0, 2, 0, 2, 0, 2, 3), STD) == ()
    assert reference_waits.waits((2, 2, 0, 2, 0, 2, 0, 2, 3), BEIJING) == (8,)
