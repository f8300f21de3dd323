"""Situation options read a value the same way whichever way it comes (a command line's text, JSON's number)."""
import pytest

from mjcalc.errors import SituationError
from mjcalc.regions.zhuji import BIDS, REGION as ZHUJI
from mjcalc.situation import GENERIC


@pytest.mark.parametrize("value", [10 ** 13, -10 ** 13, "10000000000000", " +10000000000000 ", "-" + "9" * 5000])
def test_a_long_number_is_told_the_same_as_text_or_as_a_number(value):
    with pytest.raises(SituationError) as caught:
        GENERIC["base"].read(value)
    assert caught.value.detail == "must be from 1 to 1000000, got a number of more than 12 digits"
    assert caught.value.field == "base"


def test_leading_zeros_are_not_digits_that_count():
    assert GENERIC["base"].read("0000000000000000002") == 2


def test_every_bid_offered_is_read_and_in_ladder_order():
    option = ZHUJI.option("bid")
    assert option.choices == BIDS and BIDS[:6] == ("2", "du2", "wucai2", "3", "du3", "wucai3")
    read = [option.read(b) for b in BIDS]
    assert [(b.level, b.kinds) for b in read] == sorted(((b.level, b.kinds) for b in read), key=lambda lk: (lk[0], -lk[1]))
    assert len(set(read)) == len(BIDS)
