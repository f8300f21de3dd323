"""How and where a hand was won: the `Situation`, and the `Option`s that describe it.

Every situation field a user or a file can give is an `Option`: its name, its kind, its range and its meaning
in words. The CLI builds its flags from them, a situation file is read through them, and the library checks
every value through them, so each number has one range and each mistake one message. The options every
ruleset reads are `GENERIC`; a region declares its own (see `regions/`).
"""
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Literal, Optional, Tuple

from .errors import NotationError, Notice, SituationError
from .messages import Message, did_you_mean, shown
from .notation import parse_tiles
from .tiles import NUM_KINDS, SEATS, parse_seat

MAX_BASE = 1_000_000  # 底分: amounts stay far inside what a ledger keeps and a page can show exactly


Notes = Optional[List[Notice]]  # where a reader adds a notice (a seat given twice), when the caller keeps them
OptionKind = Literal["int", "flag", "seat", "seats", "seat_int", "seat_choice", "text", "tile", "tiles"]


@dataclass(frozen=True)
class Option:
    """One situation field: how it is named and written, its range, and what it means.

    `kind` is one of: "int" (a whole number in [minimum, maximum]), "flag" (true or false), "seat", "seats" (a
    list of seats; a seat written twice counts once, and the reader says so), "seat_int" (SEAT=N, a seat
    once), "seat_choice" (SEAT:CHOICE, repeatable), "text" (read by `parse`), "tile", "tiles".
    `choices`: a "seat_choice"'s choices; for a "text", every value it takes, in order, when they can be listed
    (a page offers them; `parse` still reads the value).
    """

    name: str
    kind: OptionKind
    help: str
    zh: str = ""
    default: Any = None
    minimum: int = 0
    maximum: int = 0
    choices: Tuple[str, ...] = ()
    parse: Optional[Callable[[str], Any]] = None  # kind "text": the text → a value, or SituationError
    flag: str = ""  # the CLI flag; "--" + the name with dashes when empty
    metavar: str = ""
    optional_value: Any = None  # an int option that may be given bare (`--kong-draw` means 1)
    value_type: Optional[type] = None  # kind "text": what `parse` makes (a value already read is kept)
    labels: Tuple[str, ...] = ()  # the words a page shows for each of `choices`, in the game's writing (独2台)
    # a flag a win is given when it reads the payment made to its discarder since the hand before it (杠上炮: that
    # kong's money, which the region's `win_pays_back` pays back; `replay.payments_read`)
    reads_payment: bool = False
    # a field a table's ledger fills from the deal itself (the seats that won earlier in it): never given at a table
    from_deal: bool = False

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def label(self) -> str:
        """How messages name the field: its name, and its Chinese word when it has one."""
        return f"{self.name} ({self.zh})" if self.zh else self.name

    @property
    def repeatable(self) -> bool:
        return self.kind in ("seats", "seat_int", "seat_choice")

    def read(self, value: Any, notes: Notes = None) -> Any:
        """`value` (from a command line, a file or a program) as this option's value; SituationError if not."""
        if value is None:
            return self.default
        reader = getattr(self, "_read_" + self.kind)
        return reader(value, notes)

    def fail(self, code: str, **params: Any) -> SituationError:
        """The error `code` (an `option.*` message) about this field, named by its label ("wild (百搭): …")."""
        return SituationError(code, field=self.name, label=self.label, **params)

    def _read_int(self, value: Any, notes: Notes) -> int:
        if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
            raise self.fail("option.whole_number", value=shown(value))
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self.fail("option.whole_number", value=shown(value))
            value = int(value)
        if isinstance(value, str):
            text = value.strip()
            if not re.fullmatch(r"[+-]?\d+", text, flags=re.ASCII):
                raise self.fail("option.whole_number", value=shown(value))
            if len(text.lstrip("+-").lstrip("0")) > 12:  # never int() of thousands of digits
                raise self.fail("option.out_of_range", minimum=self.minimum, maximum=self.maximum,
                                value=Message("option.long_number"))
            value = int(text)
        if not isinstance(value, int):
            raise self.fail("option.whole_number", value=shown(value))
        if not self.minimum <= value <= self.maximum:
            given = value if abs(value) < 10 ** 12 else Message("option.long_number")
            raise self.fail("option.out_of_range", minimum=self.minimum, maximum=self.maximum, value=given)
        return value

    def _read_flag(self, value: Any, notes: Notes) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
            return value.strip().lower() in ("true", "yes", "1")
        raise self.fail("option.true_or_false", value=shown(value))

    def _seat(self, value: Any) -> str:
        try:
            return parse_seat(value)
        except SituationError as exc:
            raise self.fail("option.reason", reason=exc.message) from None

    def _read_seat(self, value: Any, notes: Notes) -> str:
        return self._seat(value)

    def _items(self, value: Any) -> List[Any]:
        if self.kind in ("seat_int", "seat_choice") and isinstance(value, tuple) and len(value) == 2 \
                and isinstance(value[0], str) and value[0] in SEATS and (value[1] in self.choices if self.kind == "seat_choice"
                                           else isinstance(value[1], int) and not isinstance(value[1], bool)):  # a (seat, n) or (seat, choice) pair already read
            return [f"{value[0]}{':' if self.kind == 'seat_choice' else '='}{value[1]}"]
        if isinstance(value, dict):
            return [f"{k}={v}" for k, v in value.items()]
        if isinstance(value, (list, tuple)):
            out: List[Any] = []
            for item in value:
                out += self._items(item)
            return out
        if isinstance(value, str):
            return [part for part in value.split(",") if part.strip()]
        return [value]

    def _read_seats(self, value: Any, notes: Notes) -> Tuple[str, ...]:
        seats: List[str] = []
        for item in self._items(value):
            seat = self._seat(item)
            if seat in seats:
                if notes is not None:
                    notes.append(Notice("option.seat_given_twice", field=self.name, label=self.label, seat=seat))
                continue
            seats.append(seat)
        return tuple(seats)

    def _read_seat_int(self, value: Any, notes: Notes) -> Tuple[Tuple[str, int], ...]:
        found: Dict[str, int] = {}
        for item in self._items(value):
            who, sep, n = str(item).partition("=")
            if not sep:
                raise self.fail("option.seat_equals", value=shown(item))
            seat = self._seat(who)
            if seat in found:
                raise self.fail("option.seat_named_twice", seat=seat)
            found[seat] = self._read_int(n, notes)
        return tuple(sorted(found.items(), key=lambda kv: SEATS.index(kv[0])))

    def _read_seat_choice(self, value: Any, notes: Notes) -> Tuple[Tuple[str, str], ...]:
        found: List[Tuple[str, str]] = []
        for item in self._items(value):
            who, sep, choice = str(item).partition(":")
            if not sep or choice.strip() not in self.choices:
                raise self.fail("option.seat_colon", choices="|".join(self.choices), value=shown(item))
            found.append((self._seat(who), choice.strip()))
        return tuple(found)

    def _read_text(self, value: Any, notes: Notes) -> Any:
        if self.value_type is not None and isinstance(value, self.value_type):
            return value
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise self.fail("option.text", value=shown(value))
        return self.parse(str(value)) if self.parse else str(value)

    def _read_tile(self, value: Any, notes: Notes) -> int:
        return _one_tile(value, self)

    def _read_tiles(self, value: Any, notes: Notes) -> Tuple[int, ...]:
        tiles = tuple(_one_tile(item, self) for item in self._items(value))
        if len(set(tiles)) != len(tiles):
            raise self.fail("option.tile_twice")
        return tiles


def _one_tile(value: Any, option: Option) -> int:
    if not isinstance(value, str):
        raise option.fail("option.tile_expected", value=shown(value))
    try:
        tiles, melds, winning = parse_tiles(value.strip())
    except NotationError as exc:
        raise option.fail("option.reason", reason=exc.message) from None
    if len(tiles) != 1 or melds or winning is not None or tiles[0] >= NUM_KINDS:
        raise option.fail("option.one_tile", value=shown(value))
    return tiles[0]


# --- the options every ruleset reads -------------------------------------------------------------------

GENERIC: Dict[str, Option] = {o.name: o for o in (
    Option("seat", "seat", "The hand owner's (the winner's) seat: E S W N or 东南西北.", zh="座位", default="E",
           metavar="SEAT"),
    Option("dealer", "seat", "The dealer's seat (the dealer is East of the hand).", zh="庄家", default="E",
           metavar="SEAT"),
    Option("from", "seat", "Won on SEAT's discard 点炮 (with --rob-kong: the player whose kong was robbed).",
           zh="点炮", metavar="SEAT"),
    Option("self_drawn", "flag", "Won by self-draw 自摸 (the default).", zh="自摸", default=False),
    Option("kong_draw", "int", "Won on a kong replacement draw 杠上开花; N consecutive kongs (bare: 1).",
           zh="杠开", default=0, minimum=0, maximum=4, optional_value=1, metavar="[N]"),
    Option("last_tile", "flag", "Won on the last tile 海底捞月.", zh="海底", default=False),
    Option("rob_kong", "flag", "Won by robbing a kong 抢杠 (--from names the konger).", zh="抢杠", default=False),
    Option("first_turn", "flag", "Won before one's first discard: the dealer's 天和, a non-dealer's 地和.",
           zh="天地和", default=False),
    Option("base", "int", "Base points 底分: every amount is times this.", zh="底分", default=1, minimum=1,
           maximum=MAX_BASE, metavar="N"),
    Option("wild", "tiles", "The wildcard kind(s), e.g. 2m or 5m,6m.", zh="百搭", default=(), metavar="TILES"),
    Option("indicator", "tile", "The turned-up tile; the tile after it is wild.", zh="翻牌", metavar="TILE"),
)}
# Situation files say `from`; the field is `discarder` (from is a Python keyword).
FIELD_OF = {"from": "discarder"}


@dataclass(frozen=True, init=False)
class Situation:
    """How and where a hand was won: seats, the way of winning, and the region's own options (`extras`).

    `Situation(seat="S", discarder="W", shaozhuang=1)`: generic fields are checked here (a seat is E, S, W or
    N, or 东南西北); a region's options are kept as given and checked when the hand is analysed.
    """

    seat: str
    dealer: str
    discarder: Optional[str]
    kong_draw: int
    last_tile: bool
    rob_kong: bool
    first_turn: bool
    base: int
    wild: Tuple[int, ...]
    indicator: Optional[int]
    extras: Tuple[Tuple[str, Any], ...]
    # "seat" and/or "dealer" when they were not given and East was assumed (the analysis says so)
    assumed: Tuple[str, ...] = field(default=(), compare=False, repr=False)

    # Each value as given (a seat as E or 东, a number as text…), checked and read by its option.
    def __init__(self, seat: Any = None, dealer: Any = None, discarder: Any = None, kong_draw: Any = 0,
                 last_tile: Any = False, rob_kong: Any = False, first_turn: Any = False, base: Any = 1, wild: Any = (),
                 indicator: Any = None, extras: Any = (), assumed: Any = (), **options: Any) -> None:
        if "from" in options:  # as a situation file and `fields()` write it
            discarder = options.pop("from")
        assumed = tuple(assumed) + tuple(k for k, v in (("seat", seat), ("dealer", dealer)) if v is None)
        object.__setattr__(self, "assumed", tuple(k for k in ("seat", "dealer") if k in assumed))
        seat = "E" if seat is None else seat
        dealer = "E" if dealer is None else dealer
        given = dict(seat=seat, dealer=dealer, discarder=discarder, kong_draw=kong_draw, last_tile=last_tile,
                     rob_kong=rob_kong, first_turn=first_turn, base=base, wild=wild, indicator=indicator)
        for name, value in given.items():
            option = GENERIC["from" if name == "discarder" else name]
            if name == "discarder" and value is None or name == "indicator" and value is None:
                parsed = None
            elif name in ("wild", "indicator") and _is_tiles(value):
                parsed = tuple(value) if name == "wild" else value
            else:
                parsed = option.read(value)
            object.__setattr__(self, name, parsed)
        merged = dict(extras)
        merged.update(options)
        object.__setattr__(self, "extras", tuple(sorted((k, _frozen(v)) for k, v in merged.items())))

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    def extra(self, name: str, default: Any = None) -> Any:
        """A region option's value, or `default` when it is not set."""
        for key, value in self.extras:
            if key == name:
                return value
        return default

    def replace(self, **changes: Any) -> "Situation":
        """A copy with `changes`; region options go into `extras`."""
        fields = {k: getattr(self, k) for k in self.__dataclass_fields__}
        fields["assumed"] = tuple(k for k in self.assumed if k not in changes)
        extras = dict(fields.pop("extras"))
        for key, value in changes.items():
            if key == "extras":
                extras = dict(value)
            elif key in fields:
                fields[key] = value
            else:
                extras[key] = value
        return Situation(**fields, extras={k: v for k, v in extras.items() if v is not None})

    def fields(self) -> Dict[str, Any]:
        """Every field that differs from a fresh Situation, as a situation file writes it (`from`, not discarder)."""
        fresh = Situation()
        out = {}
        for key in self.__dataclass_fields__:
            if key in ("extras", "assumed"):
                continue
            value = getattr(self, key)
            if value != getattr(fresh, key) or key in ("seat", "dealer", "base"):
                out["from" if key == "discarder" else key] = list(value) if isinstance(value, tuple) else value
        for key, value in self.extras:
            out[key] = _plain(value)
        return out


def _is_tiles(value: object) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return 0 <= value < NUM_KINDS
    return isinstance(value, (tuple, list)) and all(
        isinstance(t, int) and not isinstance(t, bool) and 0 <= t < NUM_KINDS for t in value)


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


# --- reading a whole situation --------------------------------------------------------------------------


def read_situation(fields: Dict[str, Any], options: Dict[str, Option], notes: Notes = None,
                   source: str = "") -> Situation:
    """A Situation from named fields (a situation file's mapping, or a command line's options).

    `options` are every region option known (`regions.all_options()`); an unknown name is an error with a
    "did you mean". `source` prefixes messages (a file's name). Region option values are checked here for
    their kind and range and kept by name in `extras`.
    """
    lines = getattr(fields, "lines", {})
    known = {**GENERIC, **options}
    generic, extras = {}, {}
    for key, value in fields.items():
        key = str(key)
        where = (f"{source}:{lines[key]}" if key in lines else source) if source else ""
        option = known.get(key)
        if option is None:
            raise SituationError("situation.unknown_field", label=where, key=repr(key),
                                 hint=did_you_mean(key, known))
        try:
            parsed = option.read(value, notes)
        except SituationError as exc:
            if source:  # a file's mistake is said as the file says it: file:line: field (中文): …
                raise SituationError(exc.message.code, label=f"{where}: {exc.label}" if exc.label else where,
                                     **exc.message.params) from None
            raise
        if key in GENERIC:
            generic[FIELD_OF.get(key, key)] = parsed
        elif parsed != option.default:
            extras[key] = parsed
    if generic.pop("self_drawn", False):
        if generic.get("discarder") is not None:
            raise SituationError("situation.self_drawn_and_from", label=source)
    generic = {k: v for k, v in generic.items() if v is not None or k == "discarder"}
    return Situation(**generic, extras=extras)
