"""Reading YAML files safely: the safe loader (never a Python object), with the file and line of every key kept
for messages. The only module that imports yaml; ruleset and situation files are read through it."""
from typing import Dict

import yaml

from .errors import RulesetError, SituationError

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Map(dict):
    """A mapping that remembers the file and the line of each key."""

    file = ""
    line = 0
    lines: Dict[str, int] = {}


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
            raise RulesetError(f"line {key_node.start_mark.line + 1}: a key must be a plain value")
        key = str(key)
        if key in result:
            raise RulesetError(f"line {key_node.start_mark.line + 1}: {key}: a key written twice")
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)


def read_ruleset_yaml(path) -> "Map":
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesetError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = yaml.load(text, Loader=_LineLoader)  # a SafeLoader subclass: no Python tags
    except RulesetError as exc:
        raise RulesetError(f"{path}:{str(exc)[5:]}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RulesetError(f"{path}{line}: not valid YAML: {problem}") from None
    if not isinstance(data, Map):
        raise RulesetError(f"{path}:1: a ruleset is a mapping of keys (id, name, patterns, …)")
    stamp(data, str(path))
    return data


def read_yaml_mapping(path, what: str) -> dict:
    """A YAML file that must hold a mapping (a situation file); errors name `what` and the file."""
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.load(f, Loader=_BaseLoader)
    except OSError as exc:
        raise SituationError(f"{what} {path}: cannot read: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SituationError(f"{what} {path}{':' + str(mark.line + 1) if mark else ''}: not valid YAML") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SituationError(f"{what} {path}: expected a mapping of fields")
    return data


def stamp(node, file):
    if isinstance(node, Map):
        node.file = file
        for value in node.values():
            stamp(value, file)
    elif isinstance(node, list):
        for value in node:
            stamp(value, file)


