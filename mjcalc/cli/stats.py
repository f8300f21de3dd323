"""`mjcalc table stats`: each person's figures at a table, or across every table of the ledger (the figures:
`evening/stats.py`). A command of the `table` group, registered when this module is imported."""
from typing import Dict, List, Optional, Sequence, Tuple

import click

from ..front import SEATS, Ledger, PersonStats, Table, dealer_charges, read_stats, stats_json
from .common import UserError, said_lang
from .common import table as draw_table
from .output import emit
from .table import (
    columns,
    current_table,
    db_option,
    ledger_errors,
    name_argument,
    said_doc,
    table,
    width,
)


@table.command("stats")
@name_argument
@click.option("--all", "every", is_flag=True, help="Every table of the ledger, people matched by exact name.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: each person's figures.")
@db_option
@ledger_errors
def table_stats(name: Optional[str], every: bool, as_json: bool, db_path: Optional[str]) -> None:
    """Each person's figures: hands played (draws too), won, 自摸 self-drawn, 点炮 dealt in, best: the biggest
    gain in one hand (#N: that hand), 烧庄 paid dealing, 包 paid for others, fined: penalties paid, net: the
    score `table show` gives (with MJCALC_LANG=zh: 局 和 自摸 点炮 最大 烧庄 包 罚 净). --all: every table,
    people matched by name, the tables in the order opened.

    \b
    Examples:
      mjcalc table stats
      mjcalc table stats friday --json
      mjcalc table stats --all
    """
    if name is not None and every:
        raise UserError("table.stats_name_or_all", table=repr(name))
    with Ledger(db_path, readonly=True) as ledger:
        rows, tables, left_out = read_stats(ledger, None if every else current_table(ledger, name).name)
        read = {t.name for t in tables}
        played = {t.name: n for t, n, _ in ledger.tables() if t.name in read}  # counts, not the hands again
        path = ledger.path
    if left_out:
        emit(said_doc(*(f"table {left!r} is damaged and left out: {problem} (`mjcalc table check`)"
                        for left, problem in left_out)), err=True)
    lines = _figures(rows, tables, played, every) if tables else [] if left_out else [f"no tables yet in {path}"]
    if as_json or lines:
        emit(said_doc(*lines, data=stats_json(rows, None if every else tables[0].name, left_out) if as_json else None),
             as_json)
    if left_out:
        raise SystemExit(1)


def _figures(rows: Sequence[PersonStats], tables: List[Table], played: Dict[str, int], every: bool) -> List[str]:
    """The figures' lines: how many tables and hands, then the table of each person's figures."""
    count = sum(played.values())
    hands = f"{count} hand{'s' if count != 1 else ''}"
    head = f"table {tables[0].name!r}: {hands}"
    if every:
        head = f"{len(tables)} table{'s' if len(tables) != 1 else ''} ({', '.join(t.name for t in tables)}): {hands}"
        if width(head) > columns():
            head = f"{len(tables)} tables: {hands}"
    return [head, _fitted(rows, None if every else tables[0].players, every)]


# The columns in the terminal's language (`said_lang`), the game's own words (自摸, 点炮, 烧庄, 包) as every table
# says them (`table show`: 庄, 上楼, 自摸);
# the eighth is the region's dealer charges by their Chinese words.
HEADERS = {"en": ("seat", "player", "hands", "won", "自摸", "点炮", "best", "", "包", "fined", "net"),
           "zh": ("座位", "玩家", "局", "和", "自摸", "点炮", "最大", "", "包", "罚", "净")}


def _fitted(rows: Sequence[PersonStats], seated: Optional[Tuple[str, ...]], every: bool) -> str:
    """The figures as a table: a seat column at one table, the biggest gain with its hand (`#3`, and its table
    across a ledger). When that is wider than the terminal, the columns that are 0 for everyone go, then the
    hands, then the seats."""
    charge = "/".join(o.zh for o in dealer_charges()) or "庄付"
    headers = list(HEADERS[said_lang()])
    headers[7] = charge
    body = [[SEATS[seated.index(r.player)] if seated and r.player in seated else "—", r.player, r.hands, r.won,
             r.self_draws, r.deal_ins, r.biggest, r.shaozhuang, r.bao, r.penalties, r.net] for r in rows]
    where = ["" if r.biggest_hand is None else f" {r.biggest_table} #{r.biggest_hand}" if every else
             f" #{r.biggest_hand}" for r in rows]
    zero = {i for i in range(2, len(headers)) if all(row[i] == 0 for row in body)}
    seat = set() if seated else {0}
    text = ""
    for hands, dropped in ((True, seat), (True, seat | zero), (False, seat | zero), (False, seat | zero | {0})):
        kept = [i for i in range(len(headers)) if i not in dropped]
        text = draw_table([[f"{row[i]}{more}" if i == 6 and hands else row[i] for i in kept]
                           for row, more in zip(body, where)], [headers[i] for i in kept])
        if width(text) <= columns():
            break
    return text
