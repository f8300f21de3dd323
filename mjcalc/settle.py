"""Who pays whom at the end of an evening: the fewest transfers that bring every standing to zero.

`settle(standings)` is exact: the fewest transfers for n people whose balances sum to zero is n minus the
largest number of groups they split into, each group summing to zero (a group of k settles in k − 1 transfers
and never in fewer). The groups are found over subsets (2^n · n steps), which is instant for a table of four
and fine up to `MAX_PEOPLE`.
"""
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Dict, List, Tuple

from .errors import MjcalcError

MAX_PEOPLE = 18


def settle(standings: Dict[str, int]) -> List[Tuple[str, str, int]]:
    """[(payer, payee, amount)] with the fewest transfers; amounts are positive whole numbers.

    `standings` maps each person to a balance (what they won, negative for what they lost); the balances must
    sum to zero. The order is deterministic: the largest debts first within each group."""
    if any(not isinstance(v, int) or isinstance(v, bool) for v in standings.values()):
        raise ValueError("standings must be whole numbers")
    if sum(standings.values()) != 0:
        raise ValueError(f"standings must sum to zero, got {sum(standings.values())}")
    people = [p for p in standings if standings[p] != 0]
    if len(people) > MAX_PEOPLE:
        raise ValueError(f"settle takes at most {MAX_PEOPLE} people with a balance, got {len(people)}")
    transfers = []
    for group in _zero_groups([standings[p] for p in people]):
        transfers += _settle_group({people[i]: standings[people[i]] for i in group})
    return transfers


def _zero_groups(balances: List[int]) -> List[List[int]]:
    """The indices split into the most groups that each sum to zero."""
    n = len(balances)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + balances[low]
    # best[mask]: the most zero-sum groups in which an ordering of `mask` can be cut into consecutive parts
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        best[mask] = max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    order, mask = [], full
    while mask:
        i = next(i for i in range(n) if mask >> i & 1
                 and best[mask & ~(1 << i)] + (total[mask] == 0) == best[mask])
        order.append(i)
        mask &= ~(1 << i)
    order.reverse()  # the prefixes of `order` that sum to zero cut it into the groups
    groups, current, running = [], [], 0
    for i in order:
        current.append(i)
        running += balances[i]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _settle_group(balances: Dict[str, int]) -> List[Tuple[str, str, int]]:
    """A zero-sum group with no smaller zero-sum part: the largest debtor pays the largest creditor, k − 1 times."""
    left = dict(balances)
    out = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], p))
        payee = max(left, key=lambda p: (left[p], p))
        amount = min(-left[payer], left[payee])
        out.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out


MAX_RATE = Decimal(10 ** 6)
CENT = Decimal("0.01")


def read_rate(text: str) -> Decimal:
    """Money per point, as the user writes it: `0.5`, `2`, `0.05` (positive, at most `MAX_RATE`)."""
    try:
        rate = Decimal(str(text).strip())
    except InvalidOperation:
        rate = None
    if rate is None or not rate.is_finite() or not 0 < rate <= MAX_RATE:
        raise MjcalcError("settle.bad_rate", field="rate", label="--rate", rate=repr(str(text)), limit=f"{MAX_RATE:,}")
    return rate


def money(points: int, rate: Decimal) -> Decimal:
    """`points` at `rate`, rounded to the cent, half up (a transfer is paid as one sum)."""
    return (Decimal(points) * rate).quantize(CENT, rounding=ROUND_HALF_UP)
