"""Rulesets are YAML data: load with the safe loader, validate against a schema, freeze.

Every error names the file, the line and the path: `zhuji.yaml:41: patterns.full_flush.value: expected an
integer, got 'three'`. Unknown keys are errors, so a typo never changes a score silently.
"""
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, Literal, NoReturn, Optional, Set, Tuple, Union, get_args

from .errors import RulesetError, RulesetNotFound
from . import messages
from .messages import Message, did_you_mean, shown
from .payouts import MAX_VALUE, unknown_param
from .regions import all_schemes, find_region, scheme_owner
from .regions.base import Region, RulesetKey
from .rulesets.compiled import COMPILED
from .shapes import SHAPES
from .tiles import FULL_WALL, HONOR_LETTERS, NAMES, SUITS, Composition



def _builtin_dir() -> Path:
    """The folder of the built-in rulesets' YAML, their rules pages and the glossary: the checkout's top-level
    `rulesets/`, which an installed mjcalc carries as package data (`mjcalc/rulesets/builtin`)."""
    here = Path(__file__).resolve().parent
    installed = here / "rulesets" / "builtin"
    return installed if installed.is_dir() else here.parent / "rulesets"


BUILTIN_DIR = _builtin_dir()

# A pattern's role: added to the points, the one base of a reading, a factor on them, or bonus points beside them.
PatternRole = Literal["add", "base", "multiplier", "bonus"]
ROLES: Tuple[PatternRole, ...] = get_args(PatternRole)
MAX_TOTAL = 1_000_000  # scoring.minimum and scoring.cap
MAX_EXTENDS = 16  # files in one `extends` chain
Scale = Literal["linear", "power", "once"]  # value × count, value × 2^count, value however many
SCALES: Tuple[Scale, ...] = get_args(Scale)
# How a hand may win on a discard (or rob a kong): any hand; a concealed hand only; a concealed hand only while
# wildcards are declared; never (self-draw only).
WinRule = Literal["any", "concealed", "concealed_if_wild", "never"]
WIN_RULES: Tuple[WinRule, ...] = get_args(WinRule)
# Of two readings of a hand worth the same, the one shown: the first read, or the one naming the patterns that come
# first in the ruleset's order (`ranked`: a table that runs from the highest pattern down).
Ties = Literal["first", "ranked"]
TIES: Tuple[Ties, ...] = get_args(Ties)
# What YAML 1.1 read as a number (0x2710, 0b11, 1:30, 1_000) and the safe loader now reads as the text written.
_NUMBER_AS_TEXT = re.compile(r"[-+]?[0-9][0-9a-fA-F_:.xXoObB]*", flags=re.ASCII)
# A house file's id: ASCII only (no look-alike of a built-in's), lower case.
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*", flags=re.ASCII)


@dataclass(frozen=True)
class Pattern:
    """A pattern as the ruleset values it; the detector with the same id is its region's."""

    id: str
    zh: str
    en: str
    value: int
    role: PatternRole = "add"
    scale: Scale = "linear"
    excludes: Tuple[str, ...] = ()
    standalone: bool = False
    below_minimum: bool = False
    params: Tuple[Tuple[str, object], ...] = ()
    # `combines: N`: a pattern made of N of the hand's sets, counted once for each combination of sets the scorer
    # selects under the rules of combining (`scoring.combined`); 0 for a pattern of the whole reading
    combines: int = 0

    def name(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)


_BUILTIN_ZH: Dict[str, str] = {str(data["id"]): str(data["zh"]) for data in COMPILED.values()}  # id → 北京麻将 …

PenaltyPays = Literal["each", "one"]  # each other player, or one player the table names


@dataclass(frozen=True)
class Penalty:
    """A payment the ruleset declares, recorded between hands or between the wins of a deal: a penalty (诈和 …),
    where the player at fault pays each other player still in the deal (`pays: each`) or one player the table
    names (`one`); or, with `gets: true`, money the player is paid so (kong money 杠钱 when the kong is made). The
    amount is either `points` or what a hand of `total` (in the ruleset's unit) is worth to one payer — times
    底分, never 上楼 or a dealer's doubling."""

    id: str
    zh: str
    en: str
    pays: PenaltyPays = "each"
    points: Optional[int] = None
    total: Optional[int] = None
    gets: bool = False

    def name(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh


PENALTY_PAYS: Tuple[PenaltyPays, ...] = get_args(PenaltyPays)


@dataclass(frozen=True)
class Ruleset:
    """A ruleset, validated and frozen: its region, wildcards, shapes, win rules, patterns, payout and options.

    Load one with `load_ruleset(name_or_path)`. Nothing mutates a loaded ruleset; a house variant is a YAML
    file that `extends:` another and changes what differs.
    """

    id: str
    zh: str
    en: str
    path: str
    region: str = "beijing"
    aliases: Tuple[str, ...] = ()
    description: str = ""
    unit_zh: str = "番"
    unit_en: str = "fan"
    wild_zh: str = "混"
    wild_en: str = "wildcard"
    wild_kinds: int = 1
    # `wildcard.tiles`: kinds always wild, whatever the situation says (红中 in 红中麻将); () where the situation
    # names them (`--wild`, `--indicator`)
    fixed_wild: Tuple[int, ...] = ()
    # `wildcard.fifth_copy`: whether a wildcard may stand for a fifth copy of a kind in the concealed hand (False:
    # the concealed tiles and the winning tile never hold five of one kind, wildcards counted as what they stand
    # for; melds are not counted)
    wild_fifth_copy: bool = True
    shapes: Tuple[str, ...] = ("standard",)
    discard: WinRule = "any"
    rob_kong: WinRule = "any"
    max_wilds_on_discard: Optional[int] = None
    earthly_discard_from_dealer: bool = False
    rob_kong_as_self_draw: bool = False  # a robbed kong is scored and paid as a self-draw
    robbable_concealed_kong: str = "never"  # wins.rob_concealed_kong: any, never, or a pattern id the robbed tile completes
    minimum: int = 0
    zero_self_draw_only: bool = False
    ties: Ties = "first"  # `scoring.ties`
    cap: Optional[int] = None
    patterns: Tuple[Pattern, ...] = ()
    payout: str = "additive"
    payout_params: Tuple[Tuple[str, object], ...] = ()
    session: Tuple[Tuple[str, object], ...] = ()
    options: Tuple[str, ...] = ()
    penalties: Tuple[Penalty, ...] = ()
    wall: Composition = FULL_WALL  # the tiles of the wall (136 unless the file says `wall:`)
    dead_wall: int = 0  # `wall.dead`: the tiles left in the wall when a deal is drawn, never drawn

    def __post_init__(self) -> None:
        # a Chinese message names the ruleset by its Chinese name; its parameter stays the id. A built-in id is
        # named as the built-in is now: rules a table kept from an older mjcalc never rename it for the process.
        messages.ZH_NAMES["ruleset"][self.id] = _BUILTIN_ZH.get(self.id, self.zh)

    def name(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def unit(self, lang: str) -> str:
        return self.unit_en if lang == "en" else self.unit_zh

    def pattern(self, pattern_id: str) -> Pattern:
        return next(p for p in self.patterns if p.id == pattern_id)

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.payout_params).get(key, default)


# A mapping of a ruleset file (`yamlfile.Map`: it knows its file and the line of each key) or of plain data (a
# built-in compiled): read by key, the file and lines looked up when they are there.
Node = Any


def _located(node: Node) -> bool:
    """A mapping read from a file, which knows the file and line of each key (`yamlfile.Map`)."""
    return isinstance(node, dict) and hasattr(node, "lines")


def _read(path: Path) -> Node:
    from .yamlfile import read_ruleset_yaml  # yaml is imported only to read a file: built-ins need none at start-up
    return read_ruleset_yaml(path)


def _merge(parent: Node, child: Node) -> Node:
    """`extends`: the child's keys replace the parent's; mappings merge key by key."""
    if not (_located(parent) and _located(child)):
        return child
    merged = type(child)(parent)
    merged.file, merged.line, merged.lines = child.file, child.line, dict(parent.lines)
    for key, value in child.items():
        merged[key] = _merge(parent[key], value) if key in parent else value
        merged.lines[key] = child.lines[key]
    # lines of inherited keys point into the parent file; keep a per-key file
    merged.files = {k: (child.file if k in child else getattr(parent, "files", {}).get(k, parent.file)) for k in merged}
    return merged


# --- validation ------------------------------------------------------------------------------------


class _Checker:
    """Walks the merged data, checking types and keys, and raising with file:line: path. The last error keeps
    where it was (`failed`: the node, its key, the file, the line, the code and its parameters), for
    `check_ruleset_file` to go on past it."""

    failed: Optional[Tuple[Any, Any, str, int, Any, Dict[str, Any]]] = None

    def fail(self, node: Node, key: Optional[str], path: Union[str, Message], code: Union[str, Message], /,
             **params: Any) -> NoReturn:
        """The error `code` (a `ruleset.*` message, or a `Message` made elsewhere), placed: the file and line of
        `node[key]`, and its path."""
        file = getattr(node, "files", {}).get(key, getattr(node, "file", "")) if _located(node) else ""
        line = node.lines.get(key, node.line) if _located(node) else 0
        where = Message("yaml.at_line", file=_short(file), line=line) if file else Message("ruleset.nowhere")
        problem = code if isinstance(code, Message) else Message(code, **params)
        self.failed = (node, key, file, line, code, params)
        raise RulesetError("ruleset.at", where=where, path=path, problem=problem)

    def keys(self, node: Node, path: str, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        for key in node:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or Message("hint.known", known=sorted(allowed))
                self.fail(node, key, f"{path}{key}", "ruleset.unknown_key", hint=hint)
        for key in required:
            if key not in node:
                self.fail(node, None, path.rstrip(".") or Message("ruleset.top"), "ruleset.missing_key", key=key)

    def get(self, node: Node, key: str, path: str, kind: type, default: Any = None,
            choices: Optional[Iterable[Any]] = None, minimum: Optional[int] = None, maximum: Optional[int] = None,
            lines: bool = False) -> Any:
        """node[key] checked: its type (`kind`), one of `choices`, an int in [minimum, maximum], text without
        control or invisible characters (line breaks allowed with `lines`)."""
        if key not in node:
            return default
        value = node[key]
        full = f"{path}{key}"
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            if value is None and default is None:
                return None
            if isinstance(value, str) and _NUMBER_AS_TEXT.fullmatch(value):
                self.fail(node, key, full, "ruleset.not_decimal", value=shown(value))
            self.fail(node, key, full, "ruleset.expected_int", value=shown(value))
        if kind is bool and not isinstance(value, bool):
            self.fail(node, key, full, "ruleset.expected_bool", value=shown(value))
        if kind is str:
            if not isinstance(value, str):
                self.fail(node, key, full, "ruleset.expected_text", value=shown(value))
            self.text(node, key, full, value, lines)
        if kind is list and not isinstance(value, list):
            self.fail(node, key, full, "ruleset.expected_list", value=shown(value))
        if kind is dict and not isinstance(value, dict):
            self.fail(node, key, full, "ruleset.expected_mapping", value=shown(value))
        if choices is not None and value not in choices:
            named = [str(c) for c in choices]
            self.fail(node, key, full, "ruleset.expected_choice", choices=named, value=shown(value),
                      hint=did_you_mean(value, named))
        if kind is int and value is not None:
            if maximum is not None and not (minimum or 0) <= value <= maximum:
                self.fail(node, key, full, "ruleset.out_of_range", minimum=minimum or 0, maximum=maximum, value=value)
            if minimum is not None and value < minimum:
                self.fail(node, key, full, "ruleset.below_minimum", minimum=minimum, value=value)
        return value

    def text(self, node: Node, key: str, path: str, value: str, lines: bool = False) -> None:
        bad = next((ch for ch in value if not ch.isprintable() and not (lines and ch == "\n")), None)
        if bad is not None:
            self.fail(node, key, path, "ruleset.invisible_char", char=ascii(bad)[1:-1], value=shown(value))

    def strings(self, node: Node, key: str, path: str) -> List[str]:
        """node[key], a list of text (or absent: empty)."""
        items: List[str] = self.get(node, key, path, list, [])
        for item in items:
            if not isinstance(item, str):
                self.fail(node, key, f"{path}{key}", "ruleset.expected_names", value=shown(item))
            self.text(node, key, f"{path}{key}", item)
        return items

    def names(self, node: Node, key: str, path: str, default_zh: str, default_en: str) -> Tuple[str, str]:
        value = node.get(key)
        if value is None:
            return default_zh, default_en
        if isinstance(value, str):
            self.text(node, key, f"{path}{key}", value)
            return value, value
        if not isinstance(value, dict):
            self.fail(node, key, f"{path}{key}", "ruleset.expected_name", value=shown(value))
        self.keys(value, f"{path}{key}.", ("zh", "en"))
        zh = self.get(value, "zh", f"{path}{key}.", str, default_zh)
        en = self.get(value, "en", f"{path}{key}.", str, zh)
        return zh, en


def _short(file: str) -> str:
    try:
        return os.path.relpath(file)
    except ValueError:
        return file


_TOP = (
    "id", "name", "aliases", "description", "extends", "region", "unit", "wildcard", "shapes", "wins", "scoring",
    "patterns", "payout", "session", "options", "penalties", "wall",
)
_PATTERN_KEYS = ("name", "value", "role", "scale", "excludes", "excluded_by", "standalone", "below_minimum", "params",
                 "combines")
COMBINES = (2, 3, 4)  # `combines: N`: how many of the hand's sets a pattern of sets is made of
# The keys of `wins:` and `scoring:` that every ruleset reads; a region adds its own (`Region.ruleset_keys`).
_SECTION_KEYS: Dict[str, Dict[str, RulesetKey]] = {
    "wins": {
        "discard": RulesetKey(str, "any", WIN_RULES),
        "rob_kong": RulesetKey(str, "any", WIN_RULES),
        "max_wilds_on_discard": RulesetKey(int, None, minimum=0, maximum=14),
        "earthly_discard_from_dealer": RulesetKey(bool, False),
    },
    "scoring": {
        "minimum": RulesetKey(int, 0, minimum=0, maximum=MAX_TOTAL),
        "cap": RulesetKey(int, None, minimum=0, maximum=MAX_TOTAL),
        "zero_self_draw_only": RulesetKey(bool, False),
        "ties": RulesetKey(str, "first", TIES),
    },
}
SECTIONS_WITH_REGION_KEYS = tuple(_SECTION_KEYS)  # the sections a region may add keys to


def _validate(data: Node, path: Path, c: Optional[_Checker] = None) -> Ruleset:
    """The file's data (its `extends` resolved) as a Ruleset: each top-level section checked by its own function,
    in the order their errors are reported."""
    c = c or _Checker()
    c.keys(data, "", _TOP, required=("id", "patterns", "payout"))
    rid = c.get(data, "id", "", str)
    _check_id(c, data, rid, path)
    region, scheme = _region(c, data)
    zh, en = c.names(data, "name", "", rid, rid)
    aliases = c.strings(data, "aliases", "")
    unit_zh, unit_en = c.names(data, "unit", "", "番", "fan")
    wild_zh, wild_en, wild_kinds, fixed_wild, fifth_copy = _wildcard(c, data)
    shapes = _shapes(c, data)
    scoring = _scoring(c, data, region)
    patterns = _patterns(c, data, region)
    wins = _section(c, data, "wins", region, frozenset(p.id for p in patterns))
    payout_params = _payout_params(c, data, region, scheme)
    session = _session(c, data)
    options = _options(c, data, region)
    penalties = _penalties(c, data)
    wall, dead = _wall(c, data)
    for kind in fixed_wild:
        if not wall.has(kind):
            c.fail(data["wildcard"], "tiles", "wildcard.tiles", "ruleset.wild_tile_not_in_wall", value=NAMES[kind])
    return Ruleset(
        wall=wall, dead_wall=dead,
        id=rid, zh=zh, en=en, path=str(path), region=region.id, aliases=tuple(aliases),
        description=c.get(data, "description", "", str, "", lines=True),
        unit_zh=unit_zh, unit_en=unit_en, wild_zh=wild_zh, wild_en=wild_en, wild_kinds=wild_kinds,
        fixed_wild=fixed_wild, wild_fifth_copy=fifth_copy,
        shapes=tuple(shapes),
        **wins,
        **scoring,
        patterns=tuple(patterns),
        payout=scheme,
        payout_params=tuple(sorted((str(k), _freeze(v)) for k, v in payout_params.items())),
        session=tuple(sorted((str(k), _freeze(v)) for k, v in session.items())),
        options=tuple(str(o) for o in options),
        penalties=tuple(penalties),
    )


def _region(c: _Checker, data: Node) -> Tuple[Region, str]:
    """`region:` and `payout.scheme`: the region, the one of the payout scheme when the file names none."""
    payout = c.get(data, "payout", "", dict)
    c.keys(payout, "payout.", ("scheme", "params"), required=("scheme",))
    scheme = c.get(payout, "scheme", "payout.", str)
    region_name = c.get(data, "region", "", str, None)
    if region_name is None:  # a file that names no region belongs to the region of its payout scheme
        owner = scheme_owner(scheme)
        if owner is None:
            hint = did_you_mean(scheme, all_schemes()) or Message("hint.known", known=all_schemes())
            c.fail(payout, "scheme", "payout.scheme", "ruleset.unknown_scheme", hint=hint)
        region_name = owner.id
    try:
        return find_region(region_name), scheme
    except RulesetError as exc:
        c.fail(data, "region", "region", exc.message)


def _wildcard(c: _Checker, data: Node) -> Tuple[str, str, int, Tuple[int, ...], bool]:
    """`wildcard:` its name (zh, en), how many kinds are wild, the kinds always wild (`tiles`, each a tile of the
    wall) and whether a wildcard may be a fifth copy in the concealed hand (`fifth_copy`)."""
    wild = c.get(data, "wildcard", "", dict, {})
    c.keys(wild, "wildcard.", ("name", "kinds", "tiles", "fifth_copy"))
    wild_zh, wild_en = c.names(wild, "name", "wildcard.", "混", "wildcard")
    kinds = c.get(wild, "kinds", "wildcard.", int, 1, choices=(0, 1, 2))
    fixed = []
    for name in c.strings(wild, "tiles", "wildcard."):
        if name not in NAMES:
            c.fail(wild, "tiles", "wildcard.tiles", "ruleset.wild_tile", value=shown(name))
        if NAMES.index(name) in fixed:
            c.fail(wild, "tiles", "wildcard.tiles", "ruleset.wild_tile_twice", value=shown(name))
        fixed.append(NAMES.index(name))
    if len(fixed) > kinds:
        c.fail(wild, "tiles", "wildcard.tiles", "ruleset.wild_tiles_many", count=len(fixed), kinds=kinds)
    return wild_zh, wild_en, kinds, tuple(fixed), c.get(wild, "fifth_copy", "wildcard.", bool, True)


def _shapes(c: _Checker, data: Node) -> List[str]:
    """`shapes:` the winning shapes, standard when absent."""
    shapes = c.strings(data, "shapes", "") if "shapes" in data else ["standard"]
    for shape in shapes:
        if shape not in SHAPES:
            c.fail(data, "shapes", "shapes", "ruleset.unknown_shape", shape=repr(shape),
                   hint=did_you_mean(shape, SHAPES))
    if not shapes:
        c.fail(data, "shapes", "shapes", "ruleset.no_shape")
    return shapes


def _section(c: _Checker, data: Node, name: str, region: Region,
             pattern_ids: FrozenSet[str] = frozenset()) -> Dict[str, Any]:
    """Section `name` (`wins:`, `scoring:`): its keys, every ruleset's and the region's own
    (`Region.ruleset_keys`), checked; their values by the `Ruleset` field each sets."""
    keys = {**_SECTION_KEYS[name], **region.ruleset_keys.get(name, {})}
    node = c.get(data, name, "", dict, {})
    c.keys(node, f"{name}.", tuple(keys))
    out = {}
    for key, spec in keys.items():
        value = c.get(node, key, f"{name}.", spec.kind, spec.default, choices=spec.choices, minimum=spec.minimum,
                      maximum=spec.maximum)
        problem = spec.check(value, pattern_ids) if spec.check is not None else None
        if problem:
            c.fail(node, key, f"{name}.{key}", problem)
        out[spec.field or key] = value
    return out


def _scoring(c: _Checker, data: Node, region: Region) -> Dict[str, Any]:
    """`scoring:` the minimum, the cap (never below the minimum) and the rest of the section."""
    scoring = _section(c, data, "scoring", region)
    minimum, cap = scoring["minimum"], scoring["cap"]
    if cap is not None and cap < minimum:
        node = data["scoring"]
        files = getattr(node, "files", {})  # name the one this file sets, when the other is inherited
        which = "minimum" if files.get("minimum") == data.file != files.get("cap") else "cap"
        c.fail(node, which, f"scoring.{which}", "ruleset.cap_below_minimum", cap=cap, minimum=minimum)
    return scoring


def _patterns(c: _Checker, data: Node, region: Region) -> List[Pattern]:
    """`patterns:` each pattern of the region's, its value, role, scale, exclusions and parameters."""
    raw_patterns = c.get(data, "patterns", "", dict)
    patterns = []
    excluded_by: Dict[str, List[Tuple[str, Any]]] = {}
    for pid, spec in raw_patterns.items():
        ppath = f"patterns.{pid}"
        if pid not in region.detectors:
            c.fail(raw_patterns, pid, ppath, "ruleset.unknown_pattern", hint=did_you_mean(pid, region.detectors))
        if not isinstance(spec, dict):
            c.fail(raw_patterns, pid, ppath, "ruleset.pattern_not_mapping", value=repr(spec))
        c.keys(spec, ppath + ".", _PATTERN_KEYS, required=("value",))
        pzh, pen = c.names(spec, "name", ppath + ".", pid, pid)
        value = c.get(spec, "value", ppath + ".", int, 0, minimum=0, maximum=MAX_VALUE)
        excludes = c.strings(spec, "excludes", ppath + ".")
        for other in c.strings(spec, "excluded_by", ppath + "."):
            excluded_by.setdefault(other, []).append((pid, spec))
        params = c.get(spec, "params", ppath + ".", dict, {})
        combines = c.get(spec, "combines", ppath + ".", int, 0, choices=COMBINES)
        made_of = getattr(region.detectors[pid], "combines", 0)  # what its detector reads (`patterns.of_sets`)
        if combines != made_of:
            c.fail(spec if "combines" in spec else raw_patterns, "combines" if "combines" in spec else pid,
                   f"{ppath}.combines", "ruleset.combines_detector", combines=combines, sets=made_of)
        known_params = region.params_of(pid)
        for key, param_value in params.items():
            if key not in known_params:
                c.fail(params, key, f"{ppath}.params.{key}", unknown_param(key, known_params))
            problem = known_params[key].problem(param_value)
            if problem:
                c.fail(params, key, f"{ppath}.params.{key}", problem)
        patterns.append(Pattern(
            id=pid, zh=pzh, en=pen, value=value,
            role=c.get(spec, "role", ppath + ".", str, "add", choices=ROLES),
            scale=c.get(spec, "scale", ppath + ".", str, "linear", choices=SCALES),
            excludes=tuple(excludes),
            standalone=c.get(spec, "standalone", ppath + ".", bool, False),
            below_minimum=c.get(spec, "below_minimum", ppath + ".", bool, False),
            params=tuple(sorted((str(k), v) for k, v in params.items())),
            combines=combines,
        ))
    known = {p.id for p in patterns}
    for p in patterns:
        for other in p.excludes:
            if other not in known:
                c.fail(raw_patterns[p.id], "excludes", f"patterns.{p.id}.excludes", "ruleset.names_no_pattern",
                       name=repr(other), hint=did_you_mean(other, known))
    for other, sources in excluded_by.items():
        if other not in known:
            pid, spec = sources[0]
            c.fail(spec, "excluded_by", f"patterns.{pid}.excluded_by", "ruleset.names_no_pattern",
                   name=repr(other), hint=did_you_mean(other, known))
    _check_exclusions(c, data, patterns, raw_patterns, excluded_by)
    if excluded_by:
        patterns = [
            Pattern(**{**p.__dict__, "excludes": p.excludes + tuple(pid for pid, _ in excluded_by.get(p.id, ()))})
            for p in patterns
        ]
    return patterns


def _payout_params(c: _Checker, data: Node, region: Region, scheme: str) -> Dict[str, Any]:
    """`payout.params`: the parameters the region's scheme reads."""
    payout = c.get(data, "payout", "", dict)
    if scheme not in region.schemes:
        hint = did_you_mean(scheme, region.schemes) or Message("hint.known", known=sorted(region.schemes))
        c.fail(payout, "scheme", "payout.scheme", "ruleset.unknown_scheme", hint=hint)
    params: Dict[str, Any] = c.get(payout, "params", "payout.", dict, {})
    region.schemes[scheme].check(params, lambda key, msg: c.fail(params, key, f"payout.params.{key}", msg))
    return params


def _session(c: _Checker, data: Node) -> Dict[str, Any]:
    """`session:` the evening's rules between hands (`session.SESSION`)."""
    session: Dict[str, Any] = c.get(data, "session", "", dict, {})
    from .session import SESSION  # only to validate a file (start-up time)
    c.keys(session, "session.", tuple(SESSION))
    for key, (kind, _default, choices, maximum) in SESSION.items():
        c.get(session, key, "session.", kind, choices=choices, minimum=0 if kind is int else None, maximum=maximum)
    return session


def _options(c: _Checker, data: Node, region: Region) -> List[str]:
    """`options:` the region's situation options this ruleset reads (all of them when absent)."""
    declared = [o.name for o in region.options]
    options = c.strings(data, "options", "") if "options" in data else declared
    for name in options:
        if name not in declared:
            hint = did_you_mean(name, declared) or Message("ruleset.its_options",
                                                           options=declared or Message("ruleset.none"))
            c.fail(data, "options", "options", "ruleset.not_an_option", name=repr(name), region=region.id, hint=hint)
    return options


def _penalties(c: _Checker, data: Node) -> List[Penalty]:
    """`penalties:` each penalty, its names, its amount (points or a hand's total) and who is paid."""
    penalties = []
    for pid, spec in c.get(data, "penalties", "", dict, {}).items():
        ppath = f"penalties.{pid}"
        if not isinstance(spec, dict):
            c.fail(data["penalties"], pid, ppath, "ruleset.penalty_not_mapping", value=repr(spec))
        c.keys(spec, ppath + ".", ("name", "points", "total", "pays", "gets"))
        pzh, pen = c.names(spec, "name", ppath + ".", str(pid), str(pid))
        points = c.get(spec, "points", ppath + ".", int, None, minimum=1, maximum=MAX_VALUE * 1000)
        total = c.get(spec, "total", ppath + ".", int, None, minimum=1, maximum=MAX_TOTAL)
        if (points is None) == (total is None):
            c.fail(data["penalties"], pid, ppath, "ruleset.penalty_amount")
        penalties.append(Penalty(id=str(pid), zh=pzh, en=pen, points=points, total=total,
                                 pays=c.get(spec, "pays", ppath + ".", str, "each", choices=PENALTY_PAYS),
                                 gets=c.get(spec, "gets", ppath + ".", bool, False)))
    return penalties


MAX_FLOWERS = 8


def _wall(c: _Checker, data: Node) -> Tuple[Composition, int]:
    """`wall:` the tiles the wall is made of: `suits` (some of mps), `honors` (true, false, or some of ESWNCFP)
    and `flowers` (0-8), 136 tiles when absent; and its `dead`, the tiles left when a deal is drawn (the Ruleset's
    `dead_wall`)."""
    node = c.get(data, "wall", "", dict, {})
    c.keys(node, "wall.", ("suits", "honors", "flowers", "dead"))
    suits = c.get(node, "suits", "wall.", str, SUITS)
    honors = node.get("honors", True)
    if isinstance(honors, bool):
        honors = HONOR_LETTERS if honors else ""
    else:
        honors = c.get(node, "honors", "wall.", str)
    for key, value, letters in (("suits", suits, SUITS), ("honors", honors, HONOR_LETTERS)):
        if any(ch not in letters for ch in value) or len(set(value)) != len(value):
            c.fail(node, key, f"wall.{key}", "ruleset.wall_letters", value=shown(value), letters=letters)
    if not suits:
        c.fail(node, "suits", "wall.suits", "ruleset.wall_no_suit")
    flowers = c.get(node, "flowers", "wall.", int, 0, minimum=0, maximum=MAX_FLOWERS)
    wall = Composition("".join(ch for ch in SUITS if ch in suits), "".join(ch for ch in HONOR_LETTERS if ch in honors),
                       flowers)
    return wall, c.get(node, "dead", "wall.", int, 0, minimum=0, maximum=wall.size - 4 * 13 - 1)


def _check_id(c: _Checker, data: Node, rid: str, path: Path) -> None:
    """A file's own id, ASCII lower case, and a house file's never a built-in ruleset's id or alias (a ledger, a
    comparison and the page name a ruleset by its id: two rulesets must never answer to one name)."""
    if _file_of(data, "id") != data.file:  # inherited from the file it extends
        c.fail(data, None, "id", "ruleset.id_not_own", parent=rid)
    odd = next((ch for ch in rid if not ch.isascii()), None)
    if odd is not None:
        c.fail(data, "id", "id", "ruleset.id_not_ascii", value=shown(rid), char=odd, point=f"{ord(odd):04X}")
    if not _ID.fullmatch(rid):
        c.fail(data, "id", "id", "ruleset.id_form", value=shown(rid))
    if Path(path).resolve().parent == BUILTIN_DIR:
        return  # a built-in file names itself
    stem = _builtin_stem(rid)
    if stem is not None:
        c.fail(data, "id", "id", "ruleset.id_builtin", value=shown(rid), builtin=COMPILED[stem]["id"],
               own=f"{rid}-house")


def _check_exclusions(c: _Checker, data: Node, patterns: List[Pattern], raw_patterns: Node,
                      excluded_by: Dict[str, List[Tuple[str, Any]]]) -> None:
    """No pattern excludes itself and no patterns exclude one another in a cycle: the scorer drops every pattern
    another match excludes, so all of a cycle that match together would be dropped, silently."""
    edges: Dict[str, Dict[str, Tuple[Any, str, str]]] = {p.id: {} for p in patterns}  # a → b → where it is written
    for p in patterns:
        for other in p.excludes:
            edges[p.id].setdefault(other, (raw_patterns[p.id], "excludes", f"patterns.{p.id}.excludes"))
    for other, sources in excluded_by.items():
        for pid, spec in sources:
            edges[other].setdefault(pid, (spec, "excluded_by", f"patterns.{pid}.excluded_by"))
    for pid, targets in edges.items():
        if pid in targets:
            c.fail(*targets[pid], "ruleset.excludes_itself", name=repr(pid))
    cycle = _a_cycle(edges)
    if cycle:
        steps = [edges[a][b] for a, b in zip(cycle, cycle[1:])]
        # Name a step this file wrote (a cycle may pass through the file it extends), else the first.
        where = next((step for step in steps if _file_of(step[0], step[1]) == data.file), steps[0])
        c.fail(*where, "ruleset.exclusion_cycle", cycle=" → ".join(cycle))


def _a_cycle(edges: Dict[str, Dict[str, Any]]) -> Optional[List[str]]:
    """One cycle of the graph `edges` (a → {b: …}) as [a, b, …, a], the one reached first in order; or None."""
    state: Dict[str, int] = {}  # 1 on the path, 2 done
    for start in edges:
        if start in state:
            continue
        path, stack = [start], [iter(edges[start])]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(edges[nxt]))
    return None


def _file_of(node: Node, key: Optional[str]) -> str:
    """The file that wrote node[key] (a merged mapping knows each key's file)."""
    file: str = getattr(node, "files", {}).get(key, getattr(node, "file", ""))
    return file


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


# --- finding rulesets ------------------------------------------------------------------------------

_cache: Dict[str, Ruleset] = {}
NOT_RULESETS = ("glossary",)  # YAML shipped next to the rulesets that is not one (`mjcalc explain` reads it)


def builtin_paths() -> List[Path]:
    """The built-in ruleset files, by name (beijing before beijing-money); the glossary is not one."""
    return sorted((p for p in BUILTIN_DIR.glob("*.yaml") if p.stem not in NOT_RULESETS), key=lambda p: p.stem)


def _raw(path: Path) -> Node:
    """The file's data merged over the files it `extends` (at most MAX_EXTENDS in a chain, no cycle)."""
    chain = [_read(path)]
    paths = [path]
    while chain[-1].get("extends") is not None:
        data, here = chain[-1], paths[-1]
        parent = data["extends"]
        where = Message("yaml.at_line", file=_short(str(here)), line=data.lines["extends"])
        if not isinstance(parent, str):
            raise _extends_error(where, Message("ruleset.extends_not_name", value=shown(parent)))
        try:
            parent_path = find_ruleset_path(parent, relative_to=here.parent)
        except RulesetNotFound as exc:  # the file is wrong, not the command: said with its line
            raise _extends_error(where, exc.message) from None
        if parent_path.resolve() in {p.resolve() for p in paths}:
            raise _extends_error(where, Message("ruleset.extends_cycle", name=repr(parent)))
        if len(paths) >= MAX_EXTENDS:
            raise _extends_error(where, Message("ruleset.extends_too_long", limit=MAX_EXTENDS))
        chain.append(_read(parent_path))
        paths.append(parent_path)
    merged = chain.pop()
    while chain:
        merged = _merge(merged, chain.pop())
        del merged["extends"]
    return merged


def _extends_error(where: Message, problem: Message) -> RulesetError:
    """The file's `extends:` (at `where`) names no ruleset this file can extend."""
    return RulesetError("ruleset.at", where=where, path="extends", problem=problem)


def _builtin_stem(name: str) -> Optional[str]:
    """The built-in ruleset a name means (its file stem, its id or an alias), or None."""
    for stem, data in COMPILED.items():
        aliases: Any = data["aliases"]
        if name in (stem, data["id"]) or name in aliases:
            return stem
    return None


def find_ruleset_path(name: str, relative_to: Optional[Path] = None) -> Path:
    """The file of a ruleset: a YAML path (relative to `relative_to` or the working directory), or a built-in."""
    candidate = Path(name)
    if name.endswith((".yaml", ".yml")) or os.sep in name:
        for base in ([relative_to] if relative_to else []) + [Path.cwd()]:
            full = candidate if candidate.is_absolute() else base / candidate
            if full.is_file():
                return full
        raise RulesetNotFound("ruleset.no_file", name=repr(name))
    stem = _builtin_stem(name)
    if stem is not None:
        return BUILTIN_DIR / f"{stem}.yaml"
    known = sorted(COMPILED)
    spellings: List[Any] = []  # each built-in's id and aliases: `pekin` is near `peking`
    for stem in known:
        aliases: Any = COMPILED[stem]["aliases"]
        spellings += [COMPILED[stem]["id"], *aliases]
    raise RulesetNotFound("ruleset.unknown", name=repr(name), hint=did_you_mean(name, spellings), known=known)


def _from_compiled(stem: str) -> Ruleset:
    data: Dict[str, Any] = dict(COMPILED[stem])
    data["path"] = str(BUILTIN_DIR / data["path"])
    data["patterns"] = tuple(Pattern(**p) for p in data["patterns"])
    data["penalties"] = tuple(Penalty(**p) for p in data.get("penalties", ()))
    data["wall"] = Composition(**data["wall"]) if "wall" in data else FULL_WALL
    return Ruleset(**data)


def load_ruleset(name: str) -> Ruleset:
    """A built-in ruleset by id or alias (from its compiled form: no YAML read at run time), or a YAML file by
    path, validated and frozen."""
    stem = None if name.endswith((".yaml", ".yml")) or os.sep in name else _builtin_stem(name)
    if stem is None:  # a file is read each time: it may have changed
        path = find_ruleset_path(name)
        return _validate(_raw(path), path)
    if stem not in _cache:
        _cache[stem] = _from_compiled(stem)
    return _cache[stem]


def load_ruleset_file(path: Union[str, "os.PathLike[str]"]) -> Ruleset:
    """A ruleset YAML file, read and validated now (never the compiled form)."""
    path = Path(path)
    return _validate(_raw(path), path)


MAX_ERRORS = 100  # errors `check_ruleset_file` reports of one file


def check_ruleset_file(path: Union[str, "os.PathLike[str]"]) -> Tuple[Optional[Ruleset], List[RulesetError]]:
    """A ruleset YAML file checked whole: the ruleset when it is valid, else every error found in it, in line
    order. Past an error the check goes on without the key that is wrong (a pattern without its wrong value is
    left out whole), so one mistake is said once, not again as what follows from it (a pattern left out is
    not said again where another names it). A file that cannot be read or `extends` nothing is one error."""
    path = Path(path)
    try:
        data = _raw(path)
    except RulesetError as exc:
        return None, [exc]
    found: List[Tuple[Tuple[int, int], RulesetError]] = []
    dropped: Set[Tuple[int, str]] = set()  # (id of a mapping, a key) taken out after an error
    left_out: Set[str] = set()  # patterns taken out whole
    while len(found) < MAX_ERRORS:
        c = _Checker()
        try:
            rules = _validate(data, path, c)
            return (None, [e for _, e in sorted(found, key=lambda f: f[0])]) if found else (rules, [])
        except RulesetError as exc:
            if c.failed is None:  # said by no check of a place: nothing to go on past
                found.append(((1, 0), exc))
                break
            node, key, file, line, code, params = c.failed
            again = code == "ruleset.missing_key" and (id(node), params.get("key")) in dropped
            if getattr(code, "code", None) == "payout.missing_param" and (id(node), key) in dropped:
                break  # a parameter left out for its wrong value: what follows is said already
            named = code == "ruleset.names_no_pattern" and params.get("name") in {repr(p) for p in left_out}
            if named and isinstance(node.get(key), list):  # go on without the name of a pattern left out
                node[key] = [n for n in node[key] if repr(n) != params.get("name")]
                continue
            if not again:  # not what follows from an error said already
                found.append(((0 if file == data.file else 1, line), exc))
            if key is None or not isinstance(node, dict) or key not in node:
                held = _holder(data, node)  # a key missing: go on without what holds it
                if held is None:
                    break
                node, key = held
            if node is data.get("patterns"):
                left_out.add(key)
            dropped.add((id(node), key))
            del node[key]
    return None, [e for _, e in sorted(found, key=lambda f: f[0])]


def _holder(data: Node, node: Node) -> Optional[Tuple[Node, str]]:
    """The mapping in `data` that holds `node`, and its key (None for the top)."""
    for key, value in data.items():
        if value is node:
            return data, key
        if isinstance(value, dict):
            held = _holder(value, node)
            if held is not None:
                return held
    return None


def builtin_rulesets() -> List[Ruleset]:
    """Every built-in ruleset, loaded (by file stem: beijing before beijing-money)."""
    return [load_ruleset(stem) for stem in sorted(COMPILED)]


def as_data(rules: Ruleset) -> Dict[str, Any]:
    """The ruleset as plain data (what `compiled.py` and a table keep), `Ruleset(**…)` again once its nested
    values are rebuilt. The 136-tile wall, which every ruleset had before a file could declare its own, is left
    out: the data, and so the digest a table keeps its rules under, stays what it was."""
    data = asdict(rules)
    if rules.wall == FULL_WALL:
        del data["wall"]
    if data["ties"] == "first":  # new: a ruleset without it keeps its data, and its digest, as they were
        del data["ties"]
    for pattern in data["patterns"]:  # a pattern of sets is new: every other pattern's data stays what it was
        if not pattern["combines"]:
            del pattern["combines"]
    for penalty in data["penalties"]:  # a payment the player gets is new: a penalty's data stays what it was
        if not penalty["gets"]:
            del penalty["gets"]
    return data


def compile_builtins() -> str:
    """The text of `rulesets/compiled.py`: every built-in ruleset validated from its YAML, as plain data."""
    from pprint import pformat  # only to write the file (start-up time)
    out = {}
    for path in builtin_paths():
        data = as_data(load_ruleset_file(path))
        data["path"] = path.name
        out[path.stem] = data
    return ('"""The built-in rulesets, validated from the YAML files of the top-level rulesets/ and written as data, so\n'
            'that using one needs no YAML parse at run time. Generated by `python -m mjcalc.ruleset`;\n'
            'tests/test_ruleset.py checks it against the YAML files. Do not edit."""\n\n'
            f"COMPILED = {pformat(out, width=118, sort_dicts=False)}\n")


if __name__ == "__main__":
    target = Path(__file__).resolve().parent / "rulesets" / "compiled.py"
    target.write_text(compile_builtins(), encoding="utf-8")
    print(f"wrote {target}")
