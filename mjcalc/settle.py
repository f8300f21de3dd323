"""Settling up at the end of an evening: who pays whom, with as few transfers as there can be. Pure; no I/O."""
from typing import Dict, Hashable, List, Tuple

MAX_PLAYERS = 16  # exact search over subsets: meant for a table (four seats), not for a league


def settle(standings: Dict[Hashable, int]) -> List[Tuple[Hashable, Hashable, int]]:
    """Transfers (payer, payee, amount) that bring every standing to zero, as few as there can be.

    `standings` maps a player (a seat, a name) to an integer; they sum to zero (a table's standings always do).
    n players whose balances split into k groups that each sum to zero need exactly n' - k transfers (n' the
    players with a non-zero balance), so this finds the partition into the most zero-sum groups (a DP over
    subsets), then settles each group largest debtor to largest creditor. Ties go in the order the players are
    given. ValueError if the standings are not integers summing to zero, or name more than 16 players owing.
    """
    if any(not isinstance(v, int) or isinstance(v, bool) for v in standings.values()):
        raise ValueError("standings must be integers")
    if sum(standings.values()) != 0:
        raise ValueError(f"standings do not sum to zero: {dict(standings)}")
    names = [p for p, v in standings.items() if v]
    values = [standings[p] for p in names]
    n = len(names)
    if n > MAX_PLAYERS:
        raise ValueError(f"settle() is exact and meant for a table, not for more than {MAX_PLAYERS} players")
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + values[low]
    # groups[mask]: the most zero-sum groups `mask` splits into (only for masks that sum to zero)
    groups = [0] * (1 << n)
    choice = [0] * (1 << n)
    for mask in range(1, full + 1):
        if total[mask] != 0:
            continue
        low = mask & -mask
        best, pick = 1, mask
        sub = (mask - 1) & mask
        while sub:
            if sub & low and total[sub] == 0 and groups[mask ^ sub] + 1 > best:
                best, pick = groups[mask ^ sub] + 1, sub
            sub = (sub - 1) & mask
        groups[mask], choice[mask] = best, pick
    transfers = []
    mask = full
    while mask:
        part = choice[mask]
        members = [i for i in range(n) if part >> i & 1]
        left = {i: values[i] for i in members}
        while any(left.values()):
            debtor = min(members, key=lambda i: (left[i], i))
            creditor = max(members, key=lambda i: (left[i], -i))
            amount = min(-left[debtor], left[creditor])
            transfers.append((names[debtor], names[creditor], amount))
            left[debtor] += amount
            left[creditor] -= amount
        mask ^= part
    return transfers
