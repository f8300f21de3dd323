"""The `mjcalc` command group and its commands (the table commands: `table.py`). Errors become one `Error: …`
line and the documented exit code (`_Commands.main`). Ctrl-C is one line and exit 130 from the first import on
(`_interrupted_while_starting`), and changes nothing once the command has answered (`_answered`)."""
import os
import signal
import sys
from importlib.machinery import ModuleSpec
from types import FrameType
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, NoReturn, Optional, Sequence,
                    TextIO, Tuple, TypeVar)


def _interrupted_while_starting(signum: int, frame: Optional[FrameType]) -> NoReturn:
    """Ctrl-C before `_Commands.main` handles it (the imports below take ~0.1 s): what it says, one line and exit
    130, never a traceback from the middle of an import (os._exit: nothing is written yet, nothing half-read runs)."""
    argv = sys.argv[1:]
    try:  # as `fail` says it, once this module is read that far
        as_json, line = _wants_json(argv), Message("cli.interrupted").text(_lang_of(argv))
    except NameError:  # still importing: the message table's English words
        as_json, line = "--json" in argv, "interrupted"
    if as_json:
        import json  # only when Ctrl-C comes this early (start-up time)
        os.write(1, (json.dumps({"error": line, "exit": 130}) + "\n").encode("ascii"))
    os.write(2, f"Error: {line}\n".encode(getattr(sys.stderr, "encoding", None) or "utf-8", "backslashreplace"))
    os._exit(130)


def _started_as_mjcalc() -> bool:
    """This process is the `mjcalc` command — its console script, or `python -m mjcalc` — not a program that imports
    the command line (a test, a notebook), whose Ctrl-C is its own."""
    spec: Optional[ModuleSpec] = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None:
        return spec.name == "mjcalc.__main__"
    return os.path.basename(sys.argv[0] if sys.argv else "").startswith("mjcalc")


# Before click and the rest are imported; not when Ctrl-C was ignored already (a job started in the background).
OWNS_CTRL_C = _started_as_mjcalc() and signal.getsignal(signal.SIGINT) is signal.default_int_handler
if OWNS_CTRL_C:
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import click

from .. import __version__
from ..errors import MjcalcError, RulesetError, RulesetNotFound, printable
from ..messages import Message, message_lang
from .common import (
    CliError,
    HelpFormatter,
    SituationCommand,
    UserError,
    answer_unwritten,
    build_situation,
    emit_json,
    flag_of,
    flagged,
    handle_errors,
    output_options,
    ruleset_option,
    said,
    said_lang,
    seen_option,
    situation_options,
    warn,
    wild_options,
)

if TYPE_CHECKING:  # for their types only: each is imported by the command that uses it (start-up time)
    from ..render import Doc
    from ..ruleset import Ruleset
    from .progress import Progress

F = TypeVar("F", bound=Callable[..., Any])  # a command function, given back with an option added


def one_hand_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Everything `analyze` and `advise` take besides the hand: ruleset, wildcards, situation, --seen, output."""
    for decorate in (handle_errors, output_options, seen_option, situation_options, wild_options, ruleset_option):
        func = decorate(func)
    return func


def _seen(text: Optional[str]) -> Optional[Tuple[int, ...]]:
    from ..analysis import parse_seen  # imported when used (start-up time)
    return parse_seen(text) if text else None


def emit(doc: "Doc", as_json: bool = False) -> None:
    """Print a command's document through the one output path."""
    from .output import emit as print_doc  # tabulate is imported when something is printed (start-up time)
    print_doc(doc, as_json)


def _load(name: str) -> "Ruleset":
    from ..ruleset import load_ruleset  # imported when used (start-up time)
    return load_ruleset(name)

# every command's help is laid out by terminal columns (this process is the CLI's own)
click.Context.formatter_class = HelpFormatter


PAUSE_AFTER_ANSWER = "MJCALC_TEST_PAUSE_AFTER_ANSWER"  # seconds: a slow teardown, for tests/test_prompt_pipes.py


def _answered() -> None:
    """The command is over (its answer written, or its error about to be said): from here a Ctrl-C changes
    nothing, so a script that saw a hand recorded is given exit 0 (or the code the exit table gives), never 130."""
    if not OWNS_CTRL_C:
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pause = os.environ.get(PAUSE_AFTER_ANSWER, "")
    if pause.replace(".", "", 1).isdigit():
        import time  # only where a test asks (start-up time)
        time.sleep(float(pause))


class _Commands(click.Group):
    """The command group; `table` (the ledger, with sqlite3) is imported only when it is used. Its `main` keeps
    the error contract for every command: one `Error: …` line on stderr and the documented exit code (2 usage,
    notation, situation; 1 an invalid ruleset or ledger file, or an answer stdout cannot take; 3 a bug; 4 a table
    write recorded whose answer could not be written), and with `--json` the same error as a JSON object on
    stdout."""

    def main(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
             complete_var: Optional[str] = None, standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        try:
            if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
                signal.signal(signal.SIGINT, signal.default_int_handler)  # a KeyboardInterrupt, said below
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except SystemExit:
            _answered()
            raise
        except BaseException as exc:  # every way out is one line (a KeyboardInterrupt too)
            _answered()
            lang = _lang_of(argv)
            error = _error_of(exc, argv, lang)
            if error is None:
                raise
            fail(*error, _wants_json(argv), lang)
        _answered()
        if standalone_mode:
            sys.exit(code if isinstance(code, int) else 0)
        return code

    def list_commands(self, ctx: click.Context) -> List[str]:
        return sorted(set(super().list_commands(ctx)) | {"table"})

    def get_command(self, ctx: click.Context, name: str) -> Optional[click.Command]:
        if name == "table" and name not in self.commands:
            from .table import table  # the ledger (sqlite3) is imported only when `table` is used
            from . import stats  # noqa: F401 (registers `table stats`)
            self.add_command(table)
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mjcalc")
def cli() -> None:
    """Hands, waits, scores and payouts for regional Chinese mahjong.

    \b
    Example:
      mjcalc analyze "123m456p789s EE 45m +6m" -r beijing --wild 5m

    Tiles: 1-9 m/p/s, winds E S W N, dragons C (中) F (发) P (白); 1-7z in the
    Chinese order E S W N 中 发 白 (riichi tools order 5-7z as 白 发 中).

    The whole notation, with examples: mjcalc help notation
    """


NOTATION = """\
Hand notation, for every HAND argument (quotes are optional)

  1m..9m 1p..9p 1s..9s  characters 万, dots 筒, bamboo 条; 123m shares its m
  E S W N, C F P        the winds, and the dragons 中 发 白 (upper case)
  1z..7z                honors in the Chinese order E S W N 中 发 白
  一万 五筒 三条         Chinese numbers, and 万 筒/饼 条/索
  东南西北 中发白        honors; also 红中 or 红, 发财, 白板; 幺鸡 is 1s
  *                     a wildcard (its face is the declared wild kind)
  [123m] [555p]         an exposed chow or pung; [EEEE] an exposed kong
  {CCCC}                a concealed kong
  +6m                   the winning tile (else the last tile written)
  f1..f8 (🀢..🀩)       flowers 花牌, beside the hand, where the wall has them

13 tiles (a meld counts 3) ask for the waits; 14 tiles for the score.
Wildcards come from the ruleset and --wild 5m or --indicator 4m.

Examples:
  mjcalc analyze 123m456p789s EE 45m +6m         +6m: the winning tile
  mjcalc analyze "[111m] 222p 333s EEE 9m +9m"   quote [ ] in a shell
  mjcalc analyze 11m22m33p44p55s66sE +E          seven pairs
  mjcalc waits 1112345678999m                    13 tiles: the waits
  mjcalc analyze 红中红中红中 123m456p789s 5m5m   Chinese words
  mjcalc analyze 123m456p789s EE 45m +* --wild 5m   a wildcard
"""

TOPICS = {"notation": NOTATION}


@cli.command("help")
@click.argument("topic", required=False)
@click.pass_context
def help_command(ctx: click.Context, topic: Optional[str]) -> None:
    """Help on a TOPIC (notation), or the list of commands.

    \b
    Example:
      mjcalc help notation
    """
    if topic is None:
        click.echo(ctx.find_root().get_help())  # the command group's (`help` is one of its commands)
        click.echo("\nTopics: mjcalc help notation")
        return
    if topic not in TOPICS:
        raise UserError("cli.no_help_topic", topic=repr(topic), topics=list(TOPICS))
    click.echo(TOPICS[topic], nl=False)


def hand_argument(required: bool = True) -> Callable[[F], F]:
    """HAND as one or more words (`123m456p789s EE 45m +6m` needs no quotes), joined by spaces."""
    return click.argument("hand", nargs=-1, required=required, callback=lambda ctx, param, words: (
        " ".join(words) if words else None), metavar="HAND")


@cli.command(cls=SituationCommand)
@hand_argument()
@one_hand_options
def analyze(hand: str, ruleset_name: str, as_json: bool, lang: str, glyphs: bool, seen: Optional[str],
            **params: Any) -> None:
    """Score a 14-tile hand, or show a 13-tile hand's waits. HAND: `mjcalc help notation`.

    \b
    Examples:
      mjcalc analyze "[111m] 222p 333s EEE 9m +9m" --shaozhuang 1 --base 2000
      mjcalc analyze "123m456p789s EE 45m" --wild 5m --json
    """
    from .. import render  # imported when used (start-up time)
    from ..analysis import analyze as run  # imported when used (start-up time)
    from ..notation import parse_hand

    rules = _load(ruleset_name)
    result = run(parse_hand(hand), rules, build_situation(params), _seen(seen))
    emit(render.analysis_doc(result, lang, glyphs, said_in=said_lang()), as_json)


@cli.command()
@hand_argument(required=False)
@click.option("--batch", type=click.Path(dir_okay=False, allow_dash=True), help="A file with one hand a line, or - for stdin.")
@ruleset_option
@wild_options
@click.option("--json", "as_json", is_flag=True, help="JSON (with --batch: one object a line).")
@click.option("--glyphs", is_flag=True, help="Print tiles as Unicode mahjong glyphs.")
@seen_option
@click.option("--void", metavar="SUIT", help="The player's void suit 定缺 where the ruleset plays one (sichuan): m 万, "
              "p 筒, s 条; none of it is a wait.")
@handle_errors
def waits(hand: Optional[str], batch: Optional[str], ruleset_name: str, wild: Optional[str], indicator: Optional[str],
          as_json: bool, glyphs: bool, seen: Optional[str], void: Optional[str]) -> None:
    """The waits 听 of a 13-tile hand and how many of each are left. HAND: `mjcalc help notation`.

    With --batch, one output line per input line: the waits, `-` for a hand with no waits, or
    `error: …` (exit 1 if any line was an error).

    \b
    Examples:
      mjcalc waits 1112345678999m
      mjcalc waits --batch hands.txt --wild C
    """
    from ..batch import BatchWaits  # imported when used (start-up time)

    if (hand is None) == (batch is None):
        raise UserError("cli.hand_or_batch")
    if batch is not None and seen:
        raise UserError("cli.seen_with_batch")
    rules = _load(ruleset_name)
    situation = build_situation({"wild": wild, "indicator": indicator})
    if void is not None:  # read as the ruleset reads it, or dropped with a warning where it plays none
        from ..regions import find_region  # imported when used (start-up time)

        notes: List[Any] = []
        situation = find_region(rules.region).prepare(rules, situation.replace(void=void), notes)
        warn(notes)
    finder = BatchWaits(rules, situation)
    if batch is None:
        assert hand is not None  # one of HAND and --batch, said above
        parsed, found, every = finder.answer(hand, _seen(seen) if seen else None)
        from .. import render  # imported when used (start-up time)
        from ..analysis import ready_at_draw  # imported when used (start-up time)
        best = ready_at_draw(parsed, rules, finder.situation)
        from ..scoring import prepare  # imported when used (start-up time)
        never = finder.region.never_ready(rules, finder.situation, prepare(parsed, finder.wild_kinds).held)
        ghosts = finder.wild_draw(parsed)
        doc = render.waits_doc(parsed, found, glyphs, every, None if best is None else (best, rules.unit_zh),
                               None if never is None else said(never),
                               None if ghosts is None else (ghosts, rules.wild_zh))
        if rules.minimum and found and every is None:
            from ..analysis import short_waits  # imported when used (start-up time)
            render.short_waits_lines(doc, rules, short_waits(parsed, rules, finder.situation), glyphs)
        emit(doc, as_json)
        return
    from .progress import Progress  # imported when used (start-up time)
    with Progress("waits --batch:", unit="lines", stdout_too=True) as shown:  # stderr at a terminal, stdout elsewhere
        bad = finder.run_batch(_counted(_open_batch(batch), shown), sys.stdout, as_json)
    if bad:
        raise SystemExit(1)


def _counted(lines: Iterable[str], shown: "Progress") -> Iterator[str]:
    """`lines`, counted on `shown` (the progress line) as they are read."""
    if not shown.on:
        yield from lines
        return
    for number, line in enumerate(lines, 1):
        shown.done = number
        yield line


def _open_batch(path: str) -> TextIO:
    """The batch's lines, read as UTF-8 with an optional BOM (a bad byte becomes U+FFFD, an error on its line)."""
    import io  # imported when used (start-up time)

    if path == "-":
        if sys.stdin is None or sys.stdin.closed or getattr(sys.stdin, "closed_at_start", False):
            raise UserError("cli.stdin_closed", flag="--batch")
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:
            return sys.stdin
        return io.TextIOWrapper(buffer, encoding="utf-8-sig", errors="replace", newline=None)
    try:
        return open(path, encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise UserError("cli.cannot_read", flag="--batch", path=path, reason=exc.strerror) from None


def _listed(names: Tuple[str, ...]) -> List[str]:
    """`-r a -r b` and `-r a,b` alike (a file's path is taken whole)."""
    return [piece.strip() for name in names
            for piece in ([name] if os.path.exists(name) else name.split(",")) if piece.strip()]


@cli.command(cls=SituationCommand)
@hand_argument()
@click.option("-r", "--ruleset", "ruleset_names", multiple=True, metavar="NAME[,NAME]|PATH",
              help="The rulesets to compare (repeatable, or comma-separated).  [default: every built-in ruleset]")
@wild_options
@situation_options
@seen_option
@output_options
@handle_errors
def compare(hand: str, ruleset_names: Tuple[str, ...], as_json: bool, lang: str, glyphs: bool, seen: Optional[str],
            **params: Any) -> None:
    """The same hand and situation under several rulesets, side by side. HAND: `mjcalc help notation`.

    \b
    Examples:
      mjcalc compare "123m456p789s EE 45m +6m"
      mjcalc compare "11223344556677m" -r beijing -r zhuji --from S
    """
    from .. import render  # imported when used (start-up time)
    from ..analysis import compare as run
    from ..analysis import unused_options
    from ..notation import parse_hand
    from ..ruleset import builtin_rulesets  # imported when used (start-up time)

    rules = [_load(name) for name in _listed(ruleset_names)] if ruleset_names else list(builtin_rulesets())
    situation = build_situation(params)
    results = [(r, a, said(e) if e else None) for r, a, e in run(parse_hand(hand), rules, situation, _seen(seen))]
    unused: Dict[str, List[str]] = {}
    for r, _, _ in results:
        for name in unused_options(r, situation):
            unused.setdefault(flag_of(name), []).append(r.id)
    emit(render.compare_doc(hand, results, lang, glyphs, unused, said_in=said_lang()), as_json)


@cli.command(cls=SituationCommand)
@hand_argument()
@click.option("--by", "by", type=click.Choice(["win", "value"]),
              help="Also value each discard: P(win) within --draws draws and the expected payout, the player "
                   "playing for the chance to win (win) or for the expected payout (value). 14 tiles.")
@click.option("--draws", type=click.IntRange(0, 60), default=None,
              help="Draws left for --by.  [default: 8, about half of one player's draws in a hand]")
@click.option("--alone", is_flag=True,
              help="With --by: the player alone, self-draws only, no other players (not the table's game).")
@click.option("--exact", is_flag=True,
              help="With --by: weigh the exchanges of every discard 0 or 1 from ready, wildcard hands too, "
                   "with no cap on the work (seconds to minutes with wildcards).")
@one_hand_options
def advise(hand: str, ruleset_name: str, as_json: bool, lang: str, glyphs: bool, seen: Optional[str], by: Optional[str],
           draws: Optional[int], alone: bool, exact: bool, **params: Any) -> None:
    """Shanten 向听 and discard advice: which tile to throw, and which draws help. HAND: `mjcalc help notation`.

    For 14 tiles, every discard ranked by the shanten it leaves and the tiles that improve it (有效牌,
    with copies left); the best three ready results show their waits and what each would score. For 13
    tiles, the shanten and the improving tiles (and the waits, when ready).

    With --by win|value (14 tiles), each discard also gets P(win), the expected payout to the player and
    the most likely winning patterns, in this model: after the discard the player draws --draws tiles, one
    at a time, from the unseen tiles (the ruleset's wall less the hand, --seen, the turned-up tile and a flown
    宝; a kind's tiles in the wall are its
    unseen copies less those drawn and held, the wall one tile smaller a draw); a complete hand that is a
    legal self-draw win is taken at once; otherwise the player throws the tile best for the objective (win:
    the chance to win; value: the expected payout, by the ruleset's scoring and payout with the situation
    options, less money the hand pays whoever wins it; --from, --kong-draw, --rob-kong, --first-turn and
    --last-tile are dropped): the drawn tile, or
    a hand tile keeping the drawn one when that lowers the shanten or, once, leaves it as it was (an
    exchange for better waits). The shanten never goes back up. At the table (the default): between two
    draws the three others each discard one of the unseen tiles (wildcards excepted), which a ready hand wins
    on where that is legal, or one not ready claims (a pung; a chow from the seat before) where the rules
    allow it and it pays, and another may win first (a chance growing with the deal's age, costing what a
    non-winner pays on average); the draws are at most the player's share of the wall. --alone: no other
    players, self-draws only, no claims. Wildcards
    are drawn like any tile. Exact in this model for the best discards of a hand 0 or 1 from ready holding no
    wildcard, and with --exact for every discard 0 or 1 from ready; elsewhere (the discards that break a
    ready hand, wildcards in hand, 2 or more from ready) a narrower play without exchanges is weighed,
    marked ~ (a lower bound). The work is capped, the same on any machine: a discard whose play passes its
    share of the cap is weighed by a narrower play too, marked ~ (far from ready, an estimate); --exact lifts
    the cap (seconds to minutes with wildcards).

    \b
    Examples:
      mjcalc advise "1368m 27p 469s E 5m5m5m5m" --wild 5m
      mjcalc advise "123m 456p 1s 79s EES C" --seen "8s 8s E"
      mjcalc advise "11112345667p 9p FF" --by value --draws 8
    """
    from .. import render  # imported when used (start-up time)
    from ..advice import advise as run  # imported when used (start-up time)
    from ..notation import parse_hand

    rules = _load(ruleset_name)
    situation = build_situation(params)
    parsed = parse_hand(hand)
    if (by or draws is not None) and parsed.size != 14:
        flags = " and ".join(f for f, given in (("--by", by), ("--draws", draws is not None)) if given)
        raise UserError("cli.by_needs_14_tiles", flags=flags, size=parsed.size)
    if (draws is not None or exact or alone) and not by:
        raise UserError("cli.needs_by", flag="--draws" if draws is not None else "--exact" if exact else "--alone")
    advice = run(parsed, rules, situation, _seen(seen))
    doc = render.advice_doc(advice, lang, glyphs, said_in=said_lang())
    if by:
        from ..value import CAP, DEFAULT_DRAWS, TABLE, advise_value  # imported when used (start-up time)
        from .progress import Progress  # imported when used (start-up time)
        with Progress("valuing discards") as shown:  # a line on stderr at a terminal: --exact may take minutes
            valued = advise_value(parsed, rules, situation, _seen(seen), DEFAULT_DRAWS if draws is None else draws,
                                  by, exact=exact, cap=None if exact else CAP, progress=shown.step,
                                  rivals=None if alone else TABLE)
        render.value_into(doc, advice, valued, lang, glyphs)
    emit(doc, as_json)


@cli.group(invoke_without_command=True)
@click.pass_context
def rulesets(ctx: click.Context) -> None:
    """List the built-in rulesets; `show NAME` one of them; `check FILE…` validates files.

    \b
    Examples:
      mjcalc rulesets
      mjcalc rulesets show zhuji
      mjcalc rulesets check my-house.yaml
    """
    if ctx.invoked_subcommand is not None:
        return
    from .. import render  # imported when used (start-up time)
    from ..ruleset import builtin_rulesets
    emit(render.rulesets_doc(builtin_rulesets()))


@rulesets.command("show")
@click.argument("name")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@handle_errors
def rulesets_show(name: str, lang: str) -> None:
    """Show a ruleset's patterns and values.  Example: mjcalc rulesets show beijing"""
    from .. import render  # imported when used (start-up time)
    from ..regions import find_region
    rules = _load(name)
    emit(render.ruleset_doc(rules, find_region(rules.region), lang))


@rulesets.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path())
def rulesets_check(files: Tuple[str, ...]) -> None:
    """Validate ruleset files: every error of a file, in line order, each with its file, line and path. A
    built-in id is checked already.  Example: mjcalc rulesets check house.yaml"""
    from ..ruleset import check_ruleset_file, find_ruleset_path, load_ruleset  # imported when used (start-up time)
    bad = 0
    for path in files:
        if not os.path.exists(path) and not path.endswith((".yaml", ".yml")) and os.sep not in path:
            try:
                find_ruleset_path(path)
            except MjcalcError:
                pass
            else:  # a built-in's id or alias, not a file here
                builtin = load_ruleset(path)
                click.echo(printable(Message("cli.checked_builtin", name=path, id=builtin.id).text(said_lang())))
                continue
        rules, errors = check_ruleset_file(path)
        if rules is not None:
            click.echo(f"{printable(path)}: ok ({printable(rules.id)}, {len(rules.patterns)} patterns)")
        bad += bool(errors)
        for exc in errors:
            click.echo(f"Error: {printable(exc.text(said_lang()))}", err=True)
    if bad:
        raise SystemExit(1)

@cli.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8710, show_default=True, help="The TCP port (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 for phones on the same network (a token is then required).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False),
              help="The ledger file.  [default: $MJCALC_DB, else tables.sqlite3 in the user data directory]")
@click.option("--public-host", metavar="ADDR",
              help="The address phones reach this computer at, for the printed URL and QR code (when the guessed one "
                   "is wrong: a VPN or a container).")
@click.option("--qr", is_flag=True, help="Print the QR code to join (always done on a LAN host).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser on this computer.")
@ruleset_option
@handle_errors
def serve(port: int, host: str, db_path: Optional[str], public_host: Optional[str], qr: bool, open_browser: bool,
          ruleset_name: str) -> None:
    """The calculator and the table ledger as a page for a phone, and a JSON API; Ctrl-C stops it.

    \b
    Examples:
      mjcalc serve --open
      mjcalc serve --host 0.0.0.0 --port 8710 --db friday.sqlite3
      mjcalc serve --host 0.0.0.0 --public-host 192.168.1.20
    """
    import ipaddress  # these, the ledger (sqlite3) and the server are imported when used (start-up time)
    import re
    from ..evening import LedgerFileError
    from ..serve.server import run
    if public_host is not None:
        try:  # an address (an IPv6 one with or without its brackets), or a host name
            public_host = str(ipaddress.ip_address(public_host.strip("[]")))
        except ValueError:
            if not re.fullmatch(r"[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*\.?", public_host):
                raise UserError("cli.bad_public_host", host=printable(public_host)) from None
    try:
        run(host, port, db_path, ruleset_name, out=click.echo, public_host=public_host, qr=qr,
            open_browser=open_browser)
    except OSError as exc:
        raise UserError("cli.cannot_listen", host=host, port=port, reason=exc.strerror or str(exc)) from None
    except LedgerFileError as exc:  # exit 1, as `table` does for a ledger file it cannot use
        raise CliError(exc, by_flag=False) from None


@cli.command()
@click.argument("term", nargs=-1)
@handle_errors
def explain(term: Tuple[str, ...]) -> None:
    """Explain a term players argue about, in Chinese, pinyin or English; alone, list the terms.

    \b
    Examples:
      mjcalc explain 烧庄
      mjcalc explain shanglou
      mjcalc explain "seven pairs"
    """
    from .. import glossary, render  # imported when used (start-up time)
    word = " ".join(term).strip()
    if not word:
        emit(render.glossary_doc(glossary.terms()))
        return
    found = glossary.lookup(word)
    if not found:
        close = glossary.suggestions(word)
        hint = Message("cli.did_you_mean_any", words=" or ".join(repr(c) for c in close)) if close else ""
        raise UserError("cli.no_term", word=repr(word), hint=hint)
    emit(render.terms_doc(found))


def _options(argv: List[str]) -> List[str]:
    return argv[:argv.index("--")] if "--" in argv else argv


def _wants_json(argv: List[str]) -> bool:
    return "--json" in _options(argv)


def _lang_of(argv: List[str]) -> str:
    """The language of an error that left its command (whose context knew the `--lang` typed): a `--lang`
    among the options, else $MJCALC_LANG, else English."""
    given = None
    options = _options(argv)
    for i, word in enumerate(options):
        if word == "--lang" and i + 1 < len(options):
            given = options[i + 1]
        elif word.startswith("--lang="):
            given = word[len("--lang="):]
    return message_lang(given)


def _error_of(exc: BaseException, argv: List[str], lang: str = "en") -> Optional[Tuple[str, int]]:
    """(the one-line message in `lang`, the exit code) of an exception leaving a command; None to
    re-raise. A message made by a command (a `CliError`) is already in the command line's language."""

    ctx = getattr(exc, "ctx", None)  # a click.UsageError's (NoArgsIsHelpError is one since click 8.2)
    if exc.__class__.__name__ == "NoArgsIsHelpError" and ctx is not None:
        click.echo(ctx.get_help())  # `mjcalc` or `mjcalc table` alone: the help, not an error
        sys.exit(0)
    if isinstance(exc, click.exceptions.NoSuchOption):
        return _no_such_option(exc, argv, lang), 2
    if isinstance(exc, click.UsageError):  # click's own words, and where to read more
        command = " ".join(["mjcalc"] + (exc.ctx.command_path.split(" ")[1:] if exc.ctx is not None else []))
        return Message("cli.usage", error=exc.format_message().rstrip("."), command=command).text(lang), 2
    if isinstance(exc, click.ClickException):
        return exc.format_message(), exc.exit_code
    if isinstance(exc, click.exceptions.Abort):  # click's word for Ctrl-C (130) and for an input that ended (1)
        if _from_ctrl_c(exc):
            return Message("cli.interrupted").text(lang), 130
        return Message("cli.aborted").text(lang), 1
    if isinstance(exc, KeyboardInterrupt) or _from_ctrl_c(exc):
        return Message("cli.interrupted").text(lang), 130
    if isinstance(exc, BrokenPipeError):
        return None
    if isinstance(exc, OSError) and answer_unwritten(exc):
        return Message("cli.output_failed", reason=exc.strerror or str(exc)).text(lang), 1
    if isinstance(exc, RulesetError):
        return exc.text(lang), 2 if isinstance(exc, RulesetNotFound) else 1
    if isinstance(exc, MjcalcError):
        return flagged(exc, lang), 2
    if isinstance(exc, OSError):  # the machine said no (a name too long, a directory that cannot be read)
        where = f"{exc.filename}: " if exc.filename else ""
        return Message("cli.os_error", where=printable(where), reason=exc.strerror or str(exc)).text(lang), 1
    if isinstance(exc, Exception):
        first = str(exc).splitlines()[0] if str(exc) else ""
        return Message("cli.bug", kind=exc.__class__.__name__, error=first[:200]).text(lang), 3
    return None


def _from_ctrl_c(exc: BaseException) -> bool:
    """An error Python made of a Ctrl-C (a KeyboardInterrupt raised inside a class body's `__set_name__` while a
    module was imported comes out as a RuntimeError caused by it): an interruption, not a bug."""
    seen = 0
    cause: Optional[BaseException] = exc.__cause__ or exc.__context__
    while cause is not None and seen < 10:
        if isinstance(cause, KeyboardInterrupt):
            return True
        cause, seen = cause.__cause__ or cause.__context__, seen + 1
    return False


def _no_such_option(exc: click.exceptions.NoSuchOption, argv: List[str], lang: str = "en") -> str:
    """`--kong-draw -1` (a negative value read as an option) said as the option's own range error; a mistyped
    option with the command's options it is near (`--form`: `--from`); a hand starting with '-' told to come
    after `--`."""
    from ..regions import all_options  # imported when used (start-up time)
    from ..situation import GENERIC

    name = exc.option_name
    position = next((i for i, a in enumerate(argv) if a == name or a.startswith(name)), None)
    before = argv[position - 1] if position else None
    options = {o.cli_flag: o for o in list(GENERIC.values()) + list(all_options().values())}
    option = options.get(before) if before is not None else None
    if option is not None and option.kind == "int" and position is not None:
        try:
            option.read(argv[position])
        except MjcalcError as error:
            return flagged(error, lang)
    if exc.possibilities:  # click's near misses among the command's options: `--form` is `--from` mistyped
        hint = Message("cli.did_you_mean_any", words=" or ".join(exc.possibilities[:3]))
        return Message("cli.no_such_option_close", token=name, hint=hint).text(lang)
    return Message("cli.no_such_option", token=argv[position] if position is not None else name).text(lang)


def fail(message: str, code: int, as_json: bool = False, lang: str = "en") -> NoReturn:
    """Print one error as the contract says, and exit with `code`."""

    line = printable(message)
    if len(line) > 200:  # a pasted 5,000-digit number is named by its size, not repeated
        import re  # imported when used (start-up time)
        line = re.sub(r"\d{41,}", lambda m: Message("cli.digits", start=m.group()[:12], count=len(m.group())).text(lang),
                      line)
    for say in ((lambda: emit_json({"error": line, "exit": code})) if as_json else None,
                lambda: click.echo(f"Error: {line}", err=True)):
        try:
            if say is not None:
                say()
        except OSError:  # stdout (or stderr) cannot take it either: the exit code still says
            pass
    if code == 130 and OWNS_CTRL_C:
        _exit_interrupted()
    sys.exit(code)


def _exit_interrupted() -> NoReturn:
    """Exit 130 now, what was said flushed; not by SystemExit. CPython (3.11) can take a caught Ctrl-C for an
    unhandled one: when it lands while the command imports a module, under `python -m`, it re-sends itself
    SIGINT at exit (strace: `kill(self, SIGINT)` after the SystemExit) and the shell sees -2, not 130 (one run
    in 60 of tests/test_prompt_pipes.py's Ctrl-C test). Nothing is half-written: a ledger write is one SQLite
    transaction, rolled back when not committed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(130)


def main() -> None:
    """The `mjcalc` console script: the command group, under the error contract (`_Commands.main`). A closed
    stdin reads as an empty one (a question is then answered no); a terminal that cannot show a character
    (PYTHONIOENCODING=latin-1) gets its escape rather than an error."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
        sys.stdin.closed_at_start = True  # type: ignore[attr-defined]  # `--batch -` says so
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure") and "utf" not in (stream.encoding or "").lower():
            stream.reconfigure(errors="backslashreplace")
    cli.main(prog_name="mjcalc")


if __name__ == "__main__":
    main()
