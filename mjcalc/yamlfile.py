"""Reading YAML files safely: the safe loader (never a Python object), with the file and line of every key kept
for messages. The only module that imports yaml; ruleset and situation files are read through it.

A file is refused, with one line naming it (and the line where there is one), before it can cost time or
memory: more than `MAX_BYTES` (checked before parsing, so `/dev/zero` is refused at once), not UTF-8 (a BOM
is allowed), nested deeper than `MAX_DEPTH`, more than `MAX_NODES` values once its aliases are expanded (an
alias bomb is measured on the parsed graph, each node once, and never expanded), a recursive alias, or a
number of more than `MAX_DIGITS` digits.
"""
import re
from typing import TYPE_CHECKING, Any, Dict

import yaml

from .errors import RulesetError, SituationError, printable
from .messages import Message

if TYPE_CHECKING:
    from yaml import SafeLoader as _BaseLoader  # the C loader where libyaml is there: the same interface
else:
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_BYTES = 256 << 10  # 256 KiB: the largest built-in ruleset is under 10 KB
MAX_DEPTH = 24  # mappings and lists inside one another
MAX_NODES = 20_000  # values in the file with every alias expanded (a built-in has about 1,000)
MAX_DIGITS = 30  # far beyond any number a field takes; int() of 4,300+ digits is refused by Python itself
DECIMAL = re.compile(r"[-+]?[0-9]+\Z")  # the only whole numbers read (YAML 1.2 core schema, decimal)


class Map(dict):
    """A mapping that remembers the file and the line of each key."""

    file = ""
    line = 0
    lines: Dict[str, int] = {}


class _Refused(Exception):
    """A reason to refuse the file (a `yaml.*` message), and the line (0 when none)."""

    def __init__(self, line: int, code: str, **params: Any):
        self.message = Message(code, **params)
        super().__init__(self.message.text())
        self.line = line


class _LineLoader(_BaseLoader):
    """The safe loader, keeping line numbers; it constructs only plain YAML types, never objects."""


def _construct_map(loader, node):
    loader.flatten_mapping(node)
    result = Map()
    result.line = node.start_mark.line + 1
    result.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) or key is None:
            raise _Refused(key_node.start_mark.line + 1, "yaml.key_not_plain")
        key = str(key)
        if key in result:
            raise _Refused(key_node.start_mark.line + 1, "yaml.key_twice", key=printable(key))
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_int(loader, node):
    """A whole number as YAML 1.2's core schema writes one: decimal digits, optionally signed (`010` is ten)."""
    text = str(node.value)
    if not DECIMAL.fullmatch(text):  # only an explicit `!!int 0x10` gets here: plain 0x10 and 1:30 are text
        raise _Refused(node.start_mark.line + 1, "yaml.not_whole_number", value=printable(text)[:40])
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise _Refused(node.start_mark.line + 1, "yaml.long_number", digits=digits, limit=MAX_DIGITS)
    return int(text, 10)


_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
# YAML 1.1's numbers read as 1.2 reads them: 1:30 (sexagesimal), 0x2710, 0b11, 1_000 and 1:30.5 are text, never
# a number nobody wrote; a leading 0 is not octal.
_LineLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_INT, _FLOAT)]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()}
_LineLoader.add_implicit_resolver(_INT, DECIMAL, list("-+0123456789"))
_LineLoader.add_implicit_resolver(
    _FLOAT, re.compile(r"(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"),
    list("-+0123456789."))
_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)
_LineLoader.add_constructor(_INT, _construct_int)


def _read_text(path) -> str:
    """The file's text: at most MAX_BYTES read (the size is checked before any parsing), UTF-8 with an optional BOM."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _Refused(0, "yaml.cannot_read", reason=str(exc.strerror or exc)) from None
    if len(data) > MAX_BYTES:
        raise _Refused(0, "yaml.too_large", limit=MAX_BYTES // 1024)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _Refused(line, "yaml.not_utf8", byte=f"{data[exc.start]:02x}") from None


def _check_graph(root):
    """Depth, expanded size and recursion of the parsed node graph; each node visited once (aliases share nodes)."""
    size: Dict[int, int] = {}
    depth: Dict[int, int] = {}
    open_nodes = set()
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if isinstance(node, yaml.ScalarNode):
            size[key], depth[key] = 1, 0
            continue
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = list(node.value)
        if done:
            open_nodes.discard(key)
            size[key] = min(MAX_NODES + 1, 1 + sum(size[id(c)] for c in children))
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if depth[key] > MAX_DEPTH:
                raise _Refused(node.start_mark.line + 1, "yaml.too_deep", limit=MAX_DEPTH)
            if size[key] > MAX_NODES:
                raise _Refused(node.start_mark.line + 1, "yaml.too_many_values", limit=MAX_NODES)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise _Refused(node.start_mark.line + 1, "yaml.alias_loop")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)
        for c in children:
            if id(c) in open_nodes:
                raise _Refused(c.start_mark.line + 1, "yaml.alias_loop")


def _load(path):
    """The file's data (mappings as `Map`), or _Refused."""
    text = _read_text(path)
    loader = _LineLoader(text)  # a SafeLoader subclass: no Python tags
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise _Refused(mark.line + 1 if mark else 0, "yaml.invalid", problem=problem) from None
        except RecursionError:
            raise _Refused(0, "yaml.too_deep", limit=MAX_DEPTH) from None
        if node is None:
            return None
        _check_graph(node)
        try:
            return loader.construct_document(node)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise _Refused(mark.line + 1 if mark else 0, "yaml.invalid", problem=problem) from None
        except (ValueError, OverflowError) as exc:  # a value the safe constructors cannot make (a bad date…)
            raise _Refused(0, "yaml.unreadable_value", problem=str(exc).splitlines()[0][:80]) from None
    finally:
        loader.dispose()


def _where(path, line):
    """The file, and the line when there is one."""
    return Message("yaml.at_line", file=str(path), line=line) if line else str(path)


def read_ruleset_yaml(path) -> "Map":
    try:
        data = _load(path)
    except _Refused as exc:
        raise RulesetError("yaml.refused", where=_where(path, exc.line), problem=exc.message) from None
    if not isinstance(data, Map):
        raise RulesetError("yaml.ruleset_not_mapping", where=_where(path, 1))
    stamp(data, str(path))
    return data


def read_yaml_mapping(path, what) -> "Map":
    """A YAML file that must hold a mapping (a situation file); errors name `what` (text, or a `Message`) and
    the file. The mapping knows the line of each key (`Map.lines`)."""
    try:
        data = _load(path)
    except _Refused as exc:
        where = _where(path, exc.line)
        raise SituationError("yaml.file_refused", what=what, where=where, problem=exc.message) from None
    if data is None:
        empty = Map()
        empty.lines = {}
        return empty
    if not isinstance(data, Map):
        raise SituationError("yaml.not_mapping", what=what, where=_where(path, 1), kind=_kind(data))
    stamp(data, str(path))
    return data


def _kind(value) -> Message:
    if isinstance(value, list):
        return Message("yaml.kind_list")
    return Message("yaml.kind_value", value=printable(repr(value))[:40])


def stamp(node, file):
    """Set the file of every mapping in `node`; each shared value (an alias) is visited once."""
    seen = set()
    stack = [node]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Map):
            node.file = file
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
