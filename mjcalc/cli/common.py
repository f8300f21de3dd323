"""What every mjcalc command shares: option decorators built from the situation options, the situation reader,
the error contract (one `Error: …` line, the documented exit code) and the one place text is printed."""
import os
from functools import wraps
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar, Union

import click
from click.core import ParameterSource

from ..errors import MjcalcError, Notice, RulesetError, RulesetNotFound, json_text, printable
from ..flags import flag_of as flag_of, flagged as flagged  # main.py imports them from here
from ..messages import Message, message_lang
from ..regions import all_options
from ..situation import GENERIC, Notes, Option, Situation, read_situation
from .text_table import char_width, simple_table
from .text_table import text_width as text_width  # tests import it from here

if TYPE_CHECKING:  # for its type only: yaml is imported when a file is read (start-up time)
    from ..yamlfile import Map


def said_lang() -> str:
    """The language the command line says its messages in: a `--lang` typed on it, else $MJCALC_LANG, else
    English. (A `--lang` left at its default chooses the language of pattern names only.)"""
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if "lang" in ctx.params and ctx.get_parameter_source("lang") is ParameterSource.COMMANDLINE:
            return message_lang(ctx.params["lang"])
        ctx = ctx.parent
    return message_lang()


def said(message: Any) -> str:
    """A library error or notice, or a `Message`, as the command line says it: in its language (`said_lang`),
    a situation field named by its flag."""
    return flagged(message, said_lang())


class CliError(click.ClickException):
    """A one-line error: a message id of `messages.EN` with its parameters, or a library error (its situation
    field named by its flag unless `by_flag=False`), said in the command line's language."""

    def __init__(self, code: Union[str, MjcalcError], by_flag: bool = True, **params: Any):
        self.said = code if isinstance(code, MjcalcError) else Message(code, **params)
        lang = said_lang()
        super().__init__(flagged(self.said, lang) if by_flag else self.said.text(lang))


class UserError(CliError):
    """A one-line error with exit code 2 (usage, notation, situation)."""

    exit_code = 2


class InvalidRuleset(CliError):
    """A ruleset file that does not validate: exit code 1."""

    exit_code = 1


F = TypeVar("F", bound=Callable[..., Any])  # a command function, given back with an option added


def ruleset_option(func: F) -> F:
    return click.option(
        "-r", "--ruleset", "ruleset_name", default=lambda: os.environ.get("MJCALC_RULESET", "beijing"),
        show_default="beijing, or $MJCALC_RULESET", help="A built-in ruleset id or alias, or a YAML file.",
    )(func)


def _click_args(option: Option) -> Tuple[Tuple[str, str], Dict[str, Any]]:
    """The declarations and settings of a click option for a situation `Option`: values are read (and checked)
    by the Option, not by click."""
    decls = (option.cli_flag, "discarder" if option.name == "from" else option.name)
    if option.kind == "flag":
        return decls, dict(is_flag=True, default=None, help=option.help)
    kwargs = dict(help=option.help, metavar=option.metavar or None)
    if option.repeatable:
        return decls, dict(multiple=True, **kwargs)
    if option.optional_value is not None:
        return decls, dict(is_flag=False, flag_value=str(option.optional_value), default=None, **kwargs)
    return decls, kwargs


def _click_option(option: Option) -> Callable[[F], F]:
    decls, kwargs = _click_args(option)
    return click.option(*decls, **kwargs)


class SituationCommand(click.Command):
    """A command taking every region's situation options, those of a region registered after start-up too. The
    words it was given are kept (`typed`): which of an option's names was typed (`--tai` of `--fan/--tai`)."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        ctx.meta["typed"] = list(args)
        return super().parse_args(ctx, args)

    def get_params(self, ctx: click.Context) -> List[click.Parameter]:
        params = super().get_params(ctx)
        have = {p.name for p in params}
        late = [click.Option(list(_click_args(o)[0]), **_click_args(o)[1]) for o in all_options().values()
                if o.name not in have]
        return params[:-1] + late + params[-1:] if late else params  # --help stays last


def wild_options(func: F) -> F:
    func = _click_option(GENERIC["indicator"])(func)
    return _click_option(GENERIC["wild"])(func)


def situation_options(func: F) -> F:
    """How the hand was won (the generic fields), every region's own options, and --situation FILE."""
    generic = [GENERIC[k] for k in ("seat", "dealer", "self_drawn", "from", "kong_draw", "last_tile", "rob_kong",
                                    "first_turn", "base")]
    options = [_click_option(o) for o in generic]
    options.append(click.option("--situation", "situation_file", type=click.Path(dir_okay=False),
                                help="A YAML file with any of these fields (options given here win)."))
    options += [_click_option(o) for o in all_options().values()]
    for option in reversed(options):
        func = option(func)
    return func


def seen_option(func: F) -> F:
    """`--seen TILES`: copies visible on the table, taken off every count of tiles left."""
    return click.option(
        "--seen", metavar="TILES",
        help="Tiles visible on the table (discards, others' melds) in hand notation, e.g. \"3m 6m [555p]\"; "
             "they are taken off every count of tiles left.",
    )(func)


def output_options(func: F) -> F:
    func = click.option("--glyphs", is_flag=True, help="Print tiles as Unicode mahjong glyphs.")(func)
    func = click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True,
                        help="Pattern names in Chinese or English.")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Machine output (the JSON contract in the README).")(func)
    return func


NOT_SITUATION = ("situation_file", "ruleset_name", "as_json", "lang", "glyphs", "hand", "batch", "seen")


def read_situation_file(path: str) -> "Map":
    """The situation fields of a YAML file: its `situation:` mapping, or its top level less an example's keys.
    The fields keep the line of each key (`lines`), for messages."""
    from ..yamlfile import Map, read_yaml_mapping  # yaml is imported only when a file is read (start-up time)

    data = read_yaml_mapping(path, "--situation")
    if "situation" in data:
        inner = data["situation"]
        if inner is None:
            inner = Map()
            inner.lines = {}
        if not isinstance(inner, Map):
            raise UserError("cli.situation_not_mapping", path=path, line=data.lines["situation"])
        return inner
    fields = Map((k, v) for k, v in data.items() if k not in ("hand", "ruleset", "expect", "note", "title", "work"))
    fields.lines = {k: data.lines[k] for k in fields}
    return fields


def build_situation(params: Dict[str, Any], notes: Notes = None) -> Situation:
    """A Situation from the command's options, over the --situation file's fields. What the reading notices (a
    seat given twice) goes to `notes`, or is printed as a warning when `notes` is None."""
    if notes is None:
        notes = []
        try:
            return build_situation(params, notes)
        finally:
            warn(notes)
    fields: Dict[str, Any] = {}
    source = ""
    if params.get("situation_file"):
        fields = read_situation_file(params["situation_file"])
        source = f"--situation {params['situation_file']}"
    given = {}
    for key, value in params.items():
        if value is None or value == () or key in NOT_SITUATION:
            continue
        given["from" if key == "discarder" else key] = value
    if given.get("self_drawn") and "from" in given:
        raise UserError("cli.self_drawn_and_from")
    if given.get("self_drawn"):
        fields.pop("from", None)
    if "from" in given:
        fields.pop("self_drawn", None)
    if fields:
        read_situation(fields, all_options(), None, source)  # the file's own mistakes name the file and line
    return read_situation({**fields, **given}, all_options(), notes)


def typed_flag(names: Iterable[str]) -> Optional[str]:
    """Which of `names` (one option's names) the command line typed last, or None."""
    ctx = click.get_current_context(silent=True)
    typed = [w.partition("=")[0] for w in (ctx.meta.get("typed", ()) if ctx is not None else ())]
    return next((w for w in reversed(typed) if w in names), None)


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn mjcalc's errors into one line in the command line's language (`said_lang`) and exit 2 (1 for an
    invalid ruleset file); never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RulesetError as exc:
            if isinstance(exc, RulesetNotFound):
                raise UserError(exc, by_flag=False) from None
            raise InvalidRuleset(exc, by_flag=False) from None
        except MjcalcError as exc:
            raise UserError(exc) from None

    return wrapper


def answer_unwritten(exc: BaseException) -> bool:
    """Whether `exc` is the answer refused by stdout (a full disk, `> /dev/full`): an OSError naming no file."""
    return isinstance(exc, OSError) and exc.filename is None and exc.errno is not None


def color() -> Optional[bool]:
    """None lets click colour a terminal only; NO_COLOR (any value) turns colour off."""
    return False if os.environ.get("NO_COLOR") else None


def echo(text: str = "", **kwargs: Any) -> None:
    click.echo(text, color=color(), **kwargs)


def warn(notices: Iterable[Union[Notice, Message]]) -> None:
    """Warnings on stderr; the seat assumed is part of the answer (`render.assumed_field`), on stdout."""
    for notice in notices:
        if not getattr(notice, "assumed", False):
            echo(f"warning: {printable(said(notice))}", err=True)


_TONES: Dict[str, Dict[str, Any]] = {"good": {"fg": "green"}, "bad": {"fg": "red"}, "strong": {"bold": True}}


def tone(text: object, kind: Optional[str]) -> str:
    return click.style(str(text), **_TONES[kind]) if kind else str(text)


_SECOND_COLUMN = "\ue000"  # a private-use character: the second terminal column of a wide character while wrapping


def _widened(text: str) -> str:
    """`text` with each wide (CJK) character followed by a stand-in for its second column, so that click's wrapping,
    which counts characters, counts terminal columns; the stand-ins are taken out once the help is written."""
    if text.isascii():
        return text
    return "".join(ch + _SECOND_COLUMN if char_width(ch) == 2 else ch for ch in text)


class HelpFormatter(click.HelpFormatter):
    """click's help layout, wrapped by terminal columns: a line of help with Chinese in it fits the width too."""

    def write_dl(self, rows: Iterable[Tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(first, _widened(second)) for first, second in rows], col_max, col_spacing)

    def write_text(self, text: str) -> None:
        super().write_text(_widened(text))

    def getvalue(self) -> str:
        return super().getvalue().replace(_SECOND_COLUMN, "")


def table(rows: Iterable[Sequence[object]], headers: Iterable[object] = ()) -> str:
    """A table as tabulate's "simple" format draws it: by `simple_table` when it can (every table mjcalc prints),
    else by tabulate."""
    drawn = simple_table(rows, headers)
    if drawn is not None:
        return drawn
    from tabulate import tabulate  # imported only for a table the drawing here does not take (start-up time)
    drawn_by_tabulate: str = tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
    return drawn_by_tabulate


def emit_json(data: Any) -> None:
    click.echo(json_text(data))

