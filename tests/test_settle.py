"""mjcalc.settle: who pays whom at the end of an evening, exact and with the fewest transfers (brute-forced)."""
import itertools
import random

import pytest

from mjcalc.settle import settle


def _fewest(values):
    """The fewest transfers, by brute force: players minus the most zero-sum groups they split into."""
    players = [i for i, v in enumerate(values) if v]

    def most_groups(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for size in range(len(others) + 1):
            for combo in itertools.combinations(others, size):
                if values[first] + sum(values[i] for i in combo) == 0:
                    left = [i for i in others if i not in combo]
                    best = max(best, 1 + most_groups(left))
        return best

    return len(players) - most_groups(players)


def test_settle_examples():
    assert settle({"E": 0, "S": 0, "W": 0, "N": 0}) == []
    assert settle({}) == []
    assert sorted(settle({"E": 12000, "S": -4000, "W": -4000, "N": -4000})) == \
        [("N", "E", 4000), ("S", "E", 4000), ("W", "E", 4000)]
    assert sorted(settle({"E": 5, "S": -5, "W": 3, "N": -3})) == [("N", "W", 3), ("S", "E", 5)]
    # no two of these cancel: three transfers; below, two pairs cancel: two
    assert len(settle({"a": 8, "b": 2, "c": -7, "d": -3})) == 3
    assert sorted(settle({"a": 7, "b": 3, "c": -7, "d": -3})) == [("c", "a", 7), ("d", "b", 3)]
    assert settle({"E": 12000, "S": -4000, "W": -4000, "N": -4000}) == \
        settle({"N": -4000, "W": -4000, "S": -4000, "E": 12000})  # the same answer whatever the order given


@pytest.mark.parametrize("standings", [{"E": 1, "S": 0}, {"E": 1.5, "S": -1.5}, {"E": True, "S": -1},
                                       {f"p{i}": (1 if i % 2 else -1) for i in range(20)}])
def test_settle_refuses_what_is_not_a_table(standings):
    with pytest.raises(ValueError):
        settle(standings)


def test_settle_is_exact_and_as_short_as_can_be():
    rng = random.Random(14)
    for _ in range(400):
        n = rng.randint(2, 7)
        values = [rng.choice([-9, -6, -4, -3, -2, 0, 2, 3, 4, 6, 9]) for _ in range(n - 1)]
        values.append(-sum(values))
        balances = {f"p{i}": v for i, v in enumerate(values)}
        transfers = settle(balances)
        after = dict(balances)
        for payer, payee, amount in transfers:
            assert amount > 0 and isinstance(amount, int) and balances[payer] < 0 < balances[payee]
            after[payer] += amount
            after[payee] -= amount
        assert set(after.values()) <= {0}, (balances, transfers)
        assert len(transfers) == _fewest(values), (balances, transfers)
