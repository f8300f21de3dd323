"""Each person's figures for an evening, at one table or across a ledger: hands played, wins, self-draws, deal-ins,
the biggest gain, the hands in which they paid the dealer's charge or paid for others 包, the penalties they paid,
and their net, which is what the standings say (`ledger.standings_of`). Click-free: a front end prints
`stats_json`'s data.

People are matched by exact name: 小李 at two tables is one person; 小李 and 李 are two. Every figure is read from
the records as `table show` shows them: a hand's seats are read as that hand was seated, a win recorded as a
self-draw (a robbed kong paid as one) is a self-draw, the discarder recorded is the one who dealt in.

Who is charged is read from the region options' own declarations (`regions.all_options`), never from a region's
name or its keys, so a region added later is counted too:

- the dealer's charge: a region option of kind "int" whose Chinese word has the dealer's 庄 (烧庄 in beijing): a
  hand whose situation gives it above 0 counts for that hand's dealer (`PersonStats.shaozhuang`);
- paying for others 包: a region option naming seats (kind "seat" or "seats") whose Chinese word has 包 (互包 in
  beijing: the partner pays the winner's whole hand part; 包家 in zhuji: the bidder, who pays each other player
  when someone else wins): a hand counts for every seat it names but the winner's (a bidder who wins is paid,
  not paying) (`PersonStats.bao`).
"""
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..regions import all_options
from ..situation import GENERIC, Option
from ..tiles import SEATS
from .ledger import HandRecord, Ledger, LedgerFileError, PenaltyRecord, Table

DEALER_WORD = "庄"  # the dealer, in an option's Chinese word: the dealer pays what it counts
PAYER_WORD = "包"  # the one who pays for others, in an option's Chinese word: the seats it names pay

# (who sits E S W N now, the table's hands, its penalties)
Evening = Tuple[Tuple[str, ...], Sequence[HandRecord], Sequence[PenaltyRecord]]


@dataclass(frozen=True)
class PersonStats:
    """One person's figures (`person_stats`). `biggest`: their largest gain in one hand (0 when they gained in
    none); `biggest_hand`: that hand's number within its table (the first such hand when several tie; None when
    there is none), and `biggest_table` its table's name when the names were given. `shaozhuang`: hands in which,
    dealing, they paid the dealer's charge; `bao`: hands in which they paid for others (the module's docstring
    says how both are read). `net`: the sum of their payouts in hands and penalties."""

    player: str
    hands: int = 0
    won: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    biggest: int = 0
    biggest_hand: Optional[int] = None
    biggest_table: Optional[str] = None
    shaozhuang: int = 0
    bao: int = 0
    penalties: int = 0
    net: int = 0


def dealer_charges() -> List[Option]:
    """The region options whose value the hand's dealer pays: kind "int", the dealer's 庄 in their Chinese word, and
    given with the hand (a level the table keeps itself, 老庄, is no charge)."""
    return [o for name, o in all_options().items()
            if name not in GENERIC and o.kind == "int" and DEALER_WORD in o.zh and not o.from_deal]


def payer_options() -> List[Option]:
    """The region options whose named seats pay for others: kind "seat" or "seats", 包 in their Chinese word."""
    return [o for name, o in all_options().items()
            if name not in GENERIC and o.kind in ("seat", "seats") and PAYER_WORD in o.zh]


def _named_seats(value: object) -> List[str]:
    """The seats a stored "seat" or "seats" value names (a seat, or a list of them)."""
    items = [value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []
    return [s for s in items if s in tuple(SEATS)]  # SEATS is a string: "ES" is in it, not in its tuple


class _Tally:
    """One person's figures while they are counted (`PersonStats`' fields, mutable)."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.hands = self.won = self.self_draws = self.deal_ins = self.biggest = 0
        self.biggest_hand: Optional[int] = None
        self.biggest_table: Optional[str] = None
        self.shaozhuang = self.bao = self.penalties = self.net = 0

    def gained(self, amount: int, number: int, table: Optional[str]) -> None:
        if amount > self.biggest:  # the first of equal gains stays
            self.biggest, self.biggest_hand, self.biggest_table = amount, number, table

    def frozen(self) -> PersonStats:
        return PersonStats(**vars(self))


def person_stats(evenings: Sequence[Evening], names: Sequence[Optional[str]] = ()) -> List[PersonStats]:
    """Each person's figures over `evenings` (one table's, or a ledger's tables in order), people matched by exact
    name; `names`, the tables' names in the same order, name the table of each person's biggest hand. The people
    seated now at the last table come first, E S W N, then everyone else in the order they first appear (a
    table's people seated now, then those who left, as its standings list them)."""
    dealer_keys = [o.name for o in dealer_charges()]
    payer_keys = [o.name for o in payer_options()]
    tallies: Dict[str, _Tally] = {}

    def tally(person: str) -> _Tally:
        return tallies.setdefault(person, _Tally(person))

    for index, (players, hands, penalties) in enumerate(evenings):
        table = names[index] if index < len(names) else None
        for person in players:
            tally(person)
        for h in hands:
            seated = {seat: tally(person) for seat, person in zip(SEATS, h.players or players)}
            for seat, who in seated.items():
                who.hands += 1
                who.net += h.deltas[seat]
                who.gained(h.deltas[seat], h.number, table)
            if h.kind == "win" and h.winner in seated:
                seated[h.winner].won += 1
                if h.discarder is None:
                    seated[h.winner].self_draws += 1
                elif h.discarder in seated:
                    seated[h.discarder].deal_ins += 1
            if h.dealer in seated and any(_positive(h.situation.get(k)) for k in dealer_keys):
                seated[h.dealer].shaozhuang += 1
            for seat in {s for k in payer_keys for s in _named_seats(h.situation.get(k)) if s != h.winner}:
                seated[seat].bao += 1
        for p in penalties:
            seated = {seat: tally(person) for seat, person in zip(SEATS, p.players or players)}
            for seat, who in seated.items():
                who.net += p.deltas[seat]
            if p.player in seated and p.deltas[p.player] < 0:  # kong money paid to the player is no fine
                seated[p.player].penalties += 1
    first = list(evenings[-1][0]) if evenings else []
    order = first + [person for person in tallies if person not in first]
    return [tallies[person].frozen() for person in order]


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def stats_json(rows: Sequence[PersonStats], table_name: Optional[str] = None,
               left_out: Sequence[Tuple[str, str]] = ()) -> Dict[str, Any]:
    """`table stats --json`: the table (None across a ledger) and each person's figures (`PersonStats`); across
    a ledger, the damaged tables left out (`left_out`: each with what is wrong), when there are any."""
    out = {"table": table_name, "people": [asdict(row) for row in rows]}
    if left_out:
        out["left_out"] = [{"table": name, "problem": problem} for name, problem in left_out]
    return out


def read_stats(ledger: Ledger, name: Optional[str] = None
               ) -> Tuple[List[PersonStats], List[Table], List[Tuple[str, str]]]:
    """Each person's figures at the table `name`, or (None) across every table of the ledger in the order they
    were opened, read at one moment; the tables read; and the tables left out, damaged (name, what is wrong:
    every table is checked as `show` checks it, and a damaged one is never counted)."""
    left_out: List[Tuple[str, str]] = []
    with ledger.reading():
        if name is not None:
            tables = [ledger.table(name)]
        else:
            tables = []
            for t, _, _ in sorted(ledger.tables(), key=lambda row: row[0].id):
                try:
                    tables.append(ledger.table(t.name))
                except LedgerFileError as exc:
                    if exc.code != "ledger.table_damaged":
                        raise  # the file itself: nothing of it is read
                    left_out.append((t.name, str(exc.params.get("problem", exc.message))))
        evenings = [(t.players, ledger.hands(t), ledger.penalties(t)) for t in tables]
    return person_stats(evenings, [t.name for t in tables]), tables, left_out
