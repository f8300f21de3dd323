"""`mjcalc table …`: an evening at a table, kept in a ledger file (the storage and session rules: ledger.py)."""
import csv
import io
import json
from functools import wraps

import click

from . import evening
from .cli_common import (
    SituationCommand, UserError, build_situation, handle_errors, read_situation_file, situation_options, table as _table, warn,
    wild_options,
)
from .ledger import Ledger, LedgerFileError, State
from .regions import all_options
from .situation import GENERIC
from .tiles import SEATS


@click.group()
def table():
    """Keep an evening at a table: four players, a ledger of hands, running scores and the dealer.

    \b
    Examples:
      mjcalc table new friday -r beijing --seat E=老王 --seat S=小李 --seat W=阿张 --seat N=大刘
      mjcalc table hand friday "123m456p789s234s5m +5m" --winner 小李 --from 老王
      mjcalc table draw friday
      mjcalc table show friday
    """


class BadLedgerFile(click.ClickException):
    """A ledger file that cannot be used (corrupt, not mjcalc's, from a newer mjcalc, locked): exit code 1."""

    exit_code = 1


def ledger_errors(func):
    """A bad ledger file exits 1; every other mjcalc error is `handle_errors`' usage error, exit 2."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except LedgerFileError as exc:
            raise BadLedgerFile(str(exc)) from None

    return handle_errors(wrapper)


def db_option(func):
    return click.option(
        "--db", "db_path", type=click.Path(),
        help="The ledger file.  [default: $MJCALC_DB, else tables.sqlite3 in the user data directory]",
    )(func)


def _seat_kind(name):
    """The kind of a situation option that names seats ("seat", "seats", "seat_int", "seat_choice"), or None."""
    option = GENERIC.get("from" if name == "discarder" else name) or all_options().get(name)
    return option.kind if option is not None and option.kind.startswith("seat") else None


def table_situation_options(func):
    """analyze's situation options, where a seat may also be given as a player's name."""
    func = situation_options(func)
    for opt in func.__click_params__:
        if opt.name in ("seat", "discarder") or _seat_kind(opt.name) in ("seat", "seats"):
            opt.metavar = "PLAYER"
        if opt.name == "discarder":
            opt.help = "Won on PLAYER's discard 点炮 (a name or a seat; with --rob-kong: the konger)."
        if opt.name in ("seat", "dealer", "base"):
            opt.hidden = True  # the winner is --winner; the table keeps the dealer and the base
    return func


def _open(db_path) -> Ledger:
    return Ledger(db_path)


def _who(table, seat):
    return f"{seat} {table.player(seat)}" if seat else ""


def _standing_rows(table, standings):
    return [[seat, table.player(seat), standings[seat]] for seat in SEATS]


def _next_line(table, count, state):
    line = f"next      hand {count + 1}, round {state.round}, dealer {_who(table, state.dealer)}"
    if state.streak:
        line += f" (连庄 {state.streak})"
    if state.level:
        line += f", 上楼 ×{state.factor}"
    return line


def _result_text(table, record):
    if record.kind == "draw":
        return "荒牌 draw"
    how = "自摸" if record.discarder is None else f"← {table.player(record.discarder)}"
    return f"{table.player(record.winner)} {how}"


def _next_dict(table, count, state):
    return {"hand": count + 1, "round": state.round, "dealer": state.dealer, "dealer_player": table.player(state.dealer),
            "streak": state.streak, "shanglou": state.level, "factor": state.factor}


def _standings_dict(table, standings):
    return [{"seat": s, "player": table.player(s), "score": standings[s]} for s in SEATS]


@table.command("new")
@click.argument("name")
@click.option("-r", "--ruleset", "ruleset_name", default="beijing", show_default=True,
              help="A built-in ruleset id or alias, or a YAML file.")
@click.option("--seat", "seats", multiple=True, metavar="SEAT=PLAYER", help="A player and the seat: E=老王 (four of them).")
@click.option("--base", type=int, default=1, show_default=True, help="Base points 底分 for every hand.")
@db_option
@ledger_errors
def table_new(name, ruleset_name, seats, base, db_path):
    """Open a table with four players; East deals first.

    \b
    Example:
      mjcalc table new friday -r beijing --seat E=老王 --seat S=小李 --seat W=阿张 --seat N=大刘 --base 2
    """
    players = {}
    for item in seats:
        seat, sep, player = item.partition("=")
        seat = seat.strip().upper()
        if not sep or seat not in SEATS or len(seat) != 1:
            raise UserError(f"--seat takes SEAT=PLAYER like E=老王, got {item!r}")
        if seat in players:
            raise UserError(f"--seat {seat} is given twice")
        players[seat] = player.strip()
    with _open(db_path) as ledger:
        t = evening.create_table(ledger, name, ruleset_name, players, base)
        click.echo(f"table {t.name!r}: {t.ruleset_id}, base {t.base}, "
                   + ", ".join(f"{s} {p}" for s, p in zip(SEATS, t.players)) + f"; {t.player('E')} deals first")
        click.echo(f"ledger    {ledger.path}")


@table.command("hand", cls=SituationCommand)
@click.argument("name")
@click.argument("hand")
@click.option("--winner", help="Who won: a player's name or a seat.")
@wild_options
@table_situation_options
@click.option("--json", "as_json", is_flag=True, help="Machine output: the hand, the standings, the next hand.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="Pattern names.")
@db_option
@ledger_errors
def table_hand(name, hand, winner, as_json, lang, db_path, **params):
    """Score a won hand as `analyze` does, with the table's ruleset, base and dealer; record it.

    \b
    Examples:
      mjcalc table hand friday "123m456p789s234s5m +5m" --winner 小李 --from 老王
      mjcalc table hand friday "[111m] 222p 333s EEE 9m +9m" --winner S --shaozhuang 1
    """
    from . import render  # imported when used (start-up time)

    for key, flag in (("dealer", "--dealer"), ("base", "--base")):
        if params.get(key) is not None:
            raise UserError(f"{flag}: the table keeps the {key}; leave it out")
    if params.get("situation_file"):
        fields = read_situation_file(params["situation_file"])
        for key in ("dealer", "base"):
            if key in fields:
                raise UserError(f"--situation {params['situation_file']}: the table keeps the {key}; leave it out")
    if winner is not None and params.get("seat") is not None:
        raise UserError("--winner and --seat say the same thing: give one")
    with _open(db_path) as ledger:
        t = ledger.table(name)
        params["seat"] = winner if winner is not None else params.get("seat")
        if params["seat"] is None and not (params.get("situation_file") and "seat" in fields):
            raise UserError("who won? give --winner PLAYER (a name or a seat)")
        for key, value in list(params.items()):
            kind = _seat_kind(key)
            if value is None or kind is None or key == "dealer":
                continue
            if kind == "seat":
                params[key] = t.seat(value)
            elif kind == "seats":
                params[key] = tuple(t.seat(m) for m in value)
            else:
                params[key] = tuple(_seat_prefix(t, item, "=" if kind == "seat_int" else ":") for item in value)
        situation = build_situation(params)
        rules = evening.table_rules(t)
        record, result = evening.record_win(ledger, t, hand, situation, rules)
        standings = ledger.standings(t)
    warn(result.warnings)
    if as_json:
        click.echo(json.dumps({"table": t.name, "hand": record.to_dict(t), "standings": _standings_dict(t, standings),
                               "next": _next_dict(t, record.number, record.after)}, ensure_ascii=False))
        return
    click.echo(f"hand {record.number}  round {record.round}, dealer {_who(t, record.dealer)}"
               + (f" (连庄 {record.streak})" if record.streak else "")
               + (f", 上楼 ×{record.factor}" if record.level else ""))
    click.echo(f"          {record.hand}   {_result_text(t, record)}")
    if result.score.matches:
        click.echo(_table(render.pattern_rows(result, lang), ["pattern", "id", rules.unit(lang)]))
    click.echo(f"total     {result.score.total} {rules.unit(lang)}")
    headers, rows = render.payout_rows(result, lang)
    headers = headers[:1] + ["player"] + headers[1:]
    rows = [row[:1] + [t.player(row[0])] + row[1:] for row in rows]
    if record.level:
        headers.append(f"上楼 ×{record.factor}")
        rows = [row + [record.deltas[row[0]]] for row in rows]
    click.echo(_table(rows, headers))
    click.echo("")
    click.echo(_table(_standing_rows(t, standings), ["seat", "player", f"after hand {record.number}"]))
    click.echo(_next_line(t, record.number, record.after))


def _seat_prefix(t, item, sep):
    who, found, rest = str(item).partition(sep)
    if not found:
        return item
    return f"{t.seat(who)}{sep}{rest}"


@table.command("draw")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Machine output.")
@db_option
@ledger_errors
def table_draw(name, as_json, db_path):
    """Record a drawn hand 荒牌: nobody pays; the dealer stays or passes, and 上楼 rises, as the ruleset says.

    \b
    Example:
      mjcalc table draw friday
    """
    with _open(db_path) as ledger:
        t = ledger.table(name)
        record = evening.record_draw(ledger, t)
        standings = ledger.standings(t)
    if as_json:
        click.echo(json.dumps({"table": t.name, "hand": record.to_dict(t), "standings": _standings_dict(t, standings),
                               "next": _next_dict(t, record.number, record.after)}, ensure_ascii=False))
        return
    click.echo(f"hand {record.number}  round {record.round}, dealer {_who(t, record.dealer)}: 荒牌, a drawn hand; nobody pays")
    click.echo(_next_line(t, record.number, record.after))


@table.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Machine output: players, standings, every hand, the next hand.")
@db_option
@ledger_errors
def table_show(name, as_json, db_path):
    """The standings, the hands so far and who deals next.

    \b
    Example:
      mjcalc table show friday --json
    """
    with _open(db_path) as ledger:
        t = ledger.table(name)
        hands = ledger.hands(t)
        standings = ledger.standings(t)
    count, state = (hands[-1].number, hands[-1].after) if hands else (0, State())
    if as_json:
        click.echo(json.dumps({
            "table": t.name, "ruleset": t.ruleset_id, "base": t.base, "created": t.created,
            "players": dict(zip(SEATS, t.players)), "standings": _standings_dict(t, standings),
            "hands": [h.to_dict(t) for h in hands], "next": _next_dict(t, count, state),
        }, ensure_ascii=False))
        return
    click.echo(f"table {t.name!r}: {t.ruleset_id}, base {t.base}, {count} hand{'s' if count != 1 else ''}")
    click.echo(_table(_standing_rows(t, standings), ["seat", "player", "score"]))
    if hands:
        click.echo("")
        rows = [[h.number, h.round, _who(t, h.dealer) + (f" 连庄{h.streak}" if h.streak else ""),
                 _result_text(t, h), h.hand or "", "" if h.total is None else h.total,
                 f"×{h.factor}" if h.level else ""] + [h.deltas[s] for s in SEATS] for h in hands]
        click.echo(_table(rows, ["#", "round", "dealer", "result", "hand", "番", "上楼"] + list(t.players)))
    click.echo(_next_line(t, count, state))


@table.command("undo")
@click.argument("name")
@click.option("-y", "--yes", is_flag=True, help="Do not ask before removing it.")
@db_option
@ledger_errors
def table_undo(name, yes, db_path):
    """Show the table's last hand and remove it.

    \b
    Example:
      mjcalc table undo friday --yes
    """
    with _open(db_path) as ledger:
        t = ledger.table(name)
        last = ledger.last_hand(t)
        if last is None:
            raise UserError(f"table {t.name!r} has no hands to undo")
        click.echo(f"hand {last.number}  round {last.round}, dealer {_who(t, last.dealer)}: {_result_text(t, last)}"
                   + (f"  {last.hand}  {last.total}" if last.hand else "")
                   + "  " + ", ".join(f"{t.player(s)} {last.deltas[s]:+d}" for s in SEATS))
        try:
            if not yes and not click.confirm("remove it?", default=False):
                raise click.Abort()
        except click.Abort:
            raise UserError("nothing removed (--yes removes it without asking)") from None
        ledger.undo(t, last.number)
        count, state = ledger.state(t)
    click.echo(f"removed hand {last.number}")
    click.echo(_next_line(t, count, state))


@table.command("export")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to FILE instead of stdout.")
@db_option
@ledger_errors
def table_export(name, output, db_path):
    """The table's hands as CSV: one row a hand, each player's payout and running score.

    \b
    Example:
      mjcalc table export friday -o friday.csv
    """
    with _open(db_path) as ledger:
        t = ledger.table(name)
        hands = ledger.hands(t)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["hand", "round", "dealer", "streak", "factor", "kind", "winner", "from", "tiles", "total",
                     "patterns"] + [f"{s} {p}" for s, p in zip(SEATS, t.players)]
                    + [f"{s} {p} score" for s, p in zip(SEATS, t.players)] + ["recorded"])
    running = dict.fromkeys(SEATS, 0)
    for h in hands:
        for s in SEATS:
            running[s] += h.deltas[s]
        writer.writerow([h.number, h.round, t.player(h.dealer), h.streak, h.factor, h.kind,
                         t.player(h.winner) if h.winner else "", t.player(h.discarder) if h.discarder else "",
                         h.hand or "", "" if h.total is None else h.total,
                         " ".join(f"{p['name']}{p['value']}" for p in h.patterns)]
                        + [h.deltas[s] for s in SEATS] + [running[s] for s in SEATS] + [h.recorded])
    if output:
        try:
            with open(output, "w", encoding="utf-8", newline="") as f:
                f.write(buffer.getvalue())
        except OSError as exc:
            raise UserError(f"-o {output}: cannot write: {exc.strerror}") from None
        click.echo(f"wrote {len(hands)} hands to {output}")
    else:
        click.echo(buffer.getvalue(), nl=False)


@table.command("list")
@db_option
@ledger_errors
def table_list(db_path):
    """The tables in the ledger.

    \b
    Example:
      mjcalc table list
    """
    with _open(db_path) as ledger:
        tables = ledger.tables()
        path = ledger.path
    if not tables:
        click.echo(f"no tables yet in {path}")
        return
    rows = [[t.name, t.ruleset_id, t.base, " ".join(t.players), hands, last or ""] for t, hands, last in tables]
    click.echo(_table(rows, ["table", "ruleset", "base", "players E S W N", "hands", "last hand"]))
