"""Loading rulesets: safe YAML with positions, ``extends`` chains, and validation messages that name the
file, line and column, the path inside the document, and what was expected.

Nothing in a ruleset is executed: files are read with PyYAML's safe loader, and a ruleset can only name
plugins that are installed, never import code itself.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

__all__ = [
    "Problem",
    "RulesetError",
    "Document",
    "load_document",
    "merge",
    "kernel_schema",
    "declare_keys",
    "schema_problems",
    "clash",
]

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset."""

    file: str
    line: int
    column: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        if not self.path and not self.line:  # not about a file's node (a house rule or option given as data)
            return f"{where}: {self.message}"
        return f"{where}: {self.path or '(document)'}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        """The problem as plain data (``rummykit validate --json``)."""
        return {"file": self.file, "line": self.line, "column": self.column, "path": self.path, "message": self.message}


class RulesetError(ValueError):
    """A ruleset (or a house rule, or options) that is not valid. ``problems`` lists every finding."""

    def __init__(self, problems: Iterable[Problem]):
        found = list(problems)
        # In the order of the files, then of their lines: as a reader goes through them.
        files = {problem.file: index for index, problem in reversed(list(enumerate(found)))}
        self.problems = sorted(found, key=lambda p: (files[p.file], p.line, p.column))
        super().__init__("\n".join(str(p) for p in self.problems))


def dotted(path: Iterable[str | int]) -> str:
    parts: list[str] = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts)


@dataclass
class Document:
    """A parsed YAML file: its data, and the line and column (1-based) of every node by path."""

    file: str
    data: dict[str, Any]
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path_) -> tuple[int, int]:
        """Position of ``path``, or of its closest ancestor present in the file."""
        path = tuple(path)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        if not self.positions:  # not read from a file (options, a house rule given as data): no line to name
            return (0, 0)
        return self.positions.get((), (1, 1))

    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    """Line and column of each mapping key, by the path of its value."""

    def problem(self, path: Path_, message: str) -> Problem:
        """A problem at ``path``; one about a key itself (an unknown key, a key that is no card) points at
        the key rather than at its value."""
        about_key = message.startswith("unknown key") or message.endswith("is not a rank or a card")
        line, column = self.keys[tuple(path)] if about_key and tuple(path) in self.keys else self.where(path)
        return Problem(self.file, line, column, dotted(path), message)


def clash(locate: Any, path: Path_, message: str, *others: Path_) -> Problem:
    """A problem with the value at ``path`` because of the values at ``others`` it goes with (``must_use``
    with ``from_pile``, ``set_min`` with ``set_max``). A locator that knows which file of an ``extends`` chain
    sets each value (the one ``load_variant`` checks with) puts it at ``path`` when the newest file setting any
    of them sets ``path``, else at the first of ``others`` that file sets, the one its author can change,
    with the message saying where the value at ``path`` comes from (``(draw.must_use inherited from
    500-rum.yaml line 21)``); any other ``locate(path, message)`` puts it at ``path``."""
    among = getattr(locate, "clash", None)
    return among(path, message, others) if among is not None else locate(path, message)  # type: ignore[no-any-return]


MAX_DEPTH = 64
"""The deepest nesting of lists and mappings a ruleset may have (real ones need four or five levels)."""

MAX_VALUES = 5_000
"""The most values (list items and mapping entries) a ruleset file may hold, and expand to with YAML
aliases counted each time they are used (real ones hold a few hundred): counted while the file is read,
so a large or alias-bombed file is refused before it costs time or memory."""

MAX_BYTES = 100_000
"""The largest ruleset file read (shipped ones hold under 5,000 bytes): PyYAML reads its slowest text
(blank or very short lines) at about 400,000 bytes a second, so any file is refused or read in a fraction
of a second."""

MAX_INT = 1_000_000_000
"""The largest whole number (either sign) in a ruleset: counts, scores and values are far smaller, and a
bound keeps arithmetic and printing cheap whatever the input."""

_MAX_INT_TEXT = 40
"""Longer integer texts are refused unread: hex, octal, binary and base-60 forms have no digit limit."""


class _Refused(Exception):
    """Reading stopped at ``mark`` for ``reason`` (the document is too deep or too large); ``path`` is the
    top-level key being read."""

    def __init__(self, mark: Any, reason: str, path: str = ""):
        super().__init__(reason)
        self.mark, self.reason, self.path = mark, reason, path


class _Loader(yaml.SafeLoader):
    """The safe loader with bounds: on nesting (PyYAML composes recursively, and a deep document would end in
    a RecursionError), on the number of values, and on aliases inside the value they name (which would make
    a value that contains itself)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.values = 0
        self.top = ""
        """The top-level key being read: where a refusal is reported."""
        self.open_anchors: set[str] = set()
        """Anchors of the lists and mappings being read (an alias to one of them is a loop)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if self.depth == 1 and isinstance(index, yaml.ScalarNode):
            self.top = str(index.value)
        if isinstance(event, yaml.AliasEvent) and event.anchor in self.open_anchors:
            message = f"the alias *{event.anchor} is used inside the value it names: a value cannot contain itself"
            raise _Refused(event.start_mark, message, self.top)
        if parent is None or index is not None:  # a value, not a mapping key
            self.values += 1
            if self.values > MAX_VALUES:
                message = f"more than {MAX_VALUES:,} values in one file (list items and mapping entries)"
                raise _Refused(event.start_mark, message, self.top)
        self.depth += 1
        anchor = getattr(event, "anchor", None) if isinstance(event, yaml.CollectionStartEvent) else None
        if anchor is not None:
            self.open_anchors.add(anchor)
        try:
            if self.depth > MAX_DEPTH:
                raise _Refused(event.start_mark, f"nested more than {MAX_DEPTH} levels deep", self.top)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1
            if anchor is not None:
                self.open_anchors.discard(anchor)


def _position(text: str, index: int) -> tuple[int, int]:
    """(line, column), 1-based, of character ``index`` of ``text``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _flow_too_deep(text: str) -> int | None:
    """Where ``[`` and ``{`` first nest deeper than :data:`MAX_DEPTH`, if they do. PyYAML's scanner takes
    time quadratic in the depth of flow collections, so they are measured before it reads them."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif depth:
            depth -= 1
    return None


_BRACKETS = re.compile(r"[\[\]{}]")

_YAML_HINTS = (
    ("mapping values are not allowed", " (is this line indented more than the keys above it, or is a value "
     "holding ': ' left without quotes?)"),
    ("found character '\\t'", " (YAML indents with spaces, not tabs)"),
    ("expected <block end>", " (the keys of one block start in the same column)"),
    ("could not find expected ':'", " (a key needs ': ' and its value)"),
)  # fmt: skip
"""What PyYAML's commonest complaints usually mean in a ruleset file, by how the complaint starts."""


def load_document(source: str | Path, text: str | None = None) -> Document:
    """Read a YAML mapping safely, keeping positions. Mapping keys become strings.

    Raises :class:`RulesetError` with a located problem for a file that cannot be read, is larger than
    :data:`MAX_BYTES`, is not UTF-8, holds characters YAML does not allow, is not valid YAML, nests deeper
    than :data:`MAX_DEPTH`, holds or expands (through aliases) to more than :data:`MAX_VALUES` values, holds
    a value that contains itself, or a whole number beyond :data:`MAX_INT`."""
    name = str(source)
    if text is None:
        try:
            with open(source, "rb") as stream:
                size = os.fstat(stream.fileno()).st_size
                raw = stream.read(MAX_BYTES + 1)
        except OSError as exc:
            raise RulesetError([Problem(name, 0, 0, "", f"cannot read the file: {exc.strerror or exc}")]) from None
        if len(raw) > MAX_BYTES:  # a device has no size: then what it gives counts
            raise RulesetError([_too_large(name, size)])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            message = f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read (save the file as UTF-8)"
            raise RulesetError([Problem(name, line, column, "", message)]) from None
    elif len(text) > MAX_BYTES and len(text.encode("utf-8")) > MAX_BYTES:
        raise RulesetError([_too_large(name, len(text.encode("utf-8")))])
    deep = _flow_too_deep(text)
    if deep is not None:
        raise RulesetError([Problem(name, *_position(text, deep), "", f"nested more than {MAX_DEPTH} levels deep")])
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:  # a NUL or another control character
        line, column = _position(text, exc.position)
        message = f"the character #x{exc.character:04x} is not allowed in YAML text (is this a text file?)"
        raise RulesetError([Problem(name, line, column, "", message)]) from None
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        reason = getattr(exc, "problem", None) or str(exc)
        hint = next((words for start, words in _YAML_HINTS if reason.startswith(start)), "")
        raise RulesetError([Problem(name, line, column, "", f"not valid YAML: {reason}{hint}")]) from None
    except _Refused as exc:
        raise RulesetError([Problem(name, exc.mark.line + 1, exc.mark.column + 1, exc.path, exc.reason)]) from None
    finally:
        loader.dispose()
    if node is None:
        raise RulesetError([Problem(name, 1, 1, "", "the file is empty: expected a mapping of ruleset keys")])
    positions: dict[Path_, tuple[int, int]] = {}
    problems: list[Problem] = []
    keys: dict[Path_, tuple[int, int]] = {}
    try:
        data = _build(node, (), positions, problems, name, yaml.SafeLoader(""), keys, [MAX_VALUES])
    except _Refused:
        raise RulesetError(problems[-1:]) from None
    if problems:
        raise RulesetError(problems)
    if not isinstance(data, dict):
        raise RulesetError(
            [
                Problem(
                    name,
                    node.start_mark.line + 1,
                    node.start_mark.column + 1,
                    "",
                    "expected a mapping of ruleset keys at the top of the file",
                )
            ]
        )
    return Document(name, data, positions, keys)


def _too_large(name: str, size: int) -> Problem:
    held = f"{size:,}" if size > MAX_BYTES else f"more than {MAX_BYTES:,}"
    return Problem(name, 0, 0, "", f"the file holds {held} bytes; a ruleset may hold at most {MAX_BYTES:,}")


_PLAIN_TAGS = {yaml.MappingNode: "tag:yaml.org,2002:map", yaml.SequenceNode: "tag:yaml.org,2002:seq"}


def _tag_problem(node: yaml.Node, path: Path_, name: str) -> Problem:
    tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
    return Problem(
        name,
        node.start_mark.line + 1,
        node.start_mark.column + 1,
        dotted(path),
        f"the tag {tag!r} is not allowed: a ruleset holds plain data only",
    )


def _scalar(node: yaml.Node, path: Path_, problems: list[Problem], name: str, constructor: yaml.SafeLoader) -> Any:
    """A scalar's value; a tag the safe loader does not know (``!!python/...``) or a whole number out of
    bounds is a problem, not an error."""
    text = str(node.value)
    is_int = node.tag == "tag:yaml.org,2002:int"
    if is_int and len(text) > _MAX_INT_TEXT:  # refused unread: 0x and base-60 forms have no digit limit
        problems.append(_int_problem(node, path, name, f"one of {len(text):,} characters"))
        return None
    try:
        value = constructor.construct_object(node, deep=True)
    except yaml.YAMLError:
        problems.append(_tag_problem(node, path, name))
        return None
    except ValueError:  # an explicit tag on a text of another kind (!!int abc)
        if is_int:
            problems.append(_int_problem(node, path, name, repr(text)))
        else:
            tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
            line, column = node.start_mark.line + 1, node.start_mark.column + 1
            problems.append(Problem(name, line, column, dotted(path), f"{text[:40]!r} cannot be read as {tag}"))
        return None
    if is_int and not -MAX_INT <= value <= MAX_INT:
        problems.append(_int_problem(node, path, name, repr(text)))
        return None
    return value


def int_bounds() -> str:
    """What a whole number in a ruleset may be, in words."""
    return f"a whole number from -{MAX_INT:,} to {MAX_INT:,}"


def _int_problem(node: yaml.Node, path: Path_, name: str, shown: str) -> Problem:
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    return Problem(name, line, column, dotted(path), f"expected {int_bounds()}, got {shown}")


def data_problems(data: Any, locate: Any) -> list[Problem]:
    """The limits a file's reader enforces, for a ruleset given as data (options, a record's options): at
    most :data:`MAX_VALUES` values, :data:`MAX_DEPTH` levels, and whole numbers within :data:`MAX_INT`.
    ``locate(path, message)`` makes a problem."""
    problems = []
    count = 0
    stack: list[tuple[Path_, Any]] = [((), data)]
    while stack:  # without recursion: the data may nest deeply
        path, value = stack.pop()
        count += 1
        if count > MAX_VALUES:
            return [locate(path[:1], f"more than {MAX_VALUES:,} values")]
        if len(path) > MAX_DEPTH:
            return [locate(path[:1], f"nested more than {MAX_DEPTH} levels deep")]
        if isinstance(value, Mapping):
            stack.extend((path + (str(k),), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, int) and not isinstance(value, bool) and not -MAX_INT <= value <= MAX_INT:
            problems.append(locate(path, f"expected {int_bounds()}, got {_digits(value)}"))
    return problems


def _digits(value: int) -> str:
    """A whole number in words: itself when short, else how many digits it has (printing a number of more
    than 4,300 digits is refused by Python)."""
    if abs(value) < 10**30:
        return str(value)
    digits = int(abs(value).bit_length() * 0.30103) + 1  # log10(2): exact to a digit, without printing it
    if abs(value) < 10 ** (digits - 1):
        digits -= 1
    return f"one of {digits:,} digits"


def _build(
    node: yaml.Node,
    path: Path_,
    positions: dict[Path_, tuple[int, int]],
    problems: list[Problem],
    name: str,
    constructor: yaml.SafeLoader,
    keys: dict[Path_, tuple[int, int]] | None = None,
    budget: list[int] | None = None,
) -> Any:
    if budget is not None:  # aliases make a small file expand to billions of values: count each use
        budget[0] -= 1
        if budget[0] < 0:
            top = positions.get(path[:1], (node.start_mark.line + 1, node.start_mark.column + 1))
            message = f"expands to more than {MAX_VALUES:,} values (YAML aliases repeat what they name)"
            problems.append(Problem(name, top[0], top[1], dotted(path[:1]), message))
            raise _Refused(node.start_mark, message)
    positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.CollectionNode) and node.tag != _PLAIN_TAGS.get(type(node)):
        problems.append(_tag_problem(node, path, name))  # e.g. !!python/object on a mapping
        return None
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(
                    Problem(
                        name,
                        key_node.start_mark.line + 1,
                        key_node.start_mark.column + 1,
                        dotted(path),
                        "expected a plain key (text), not a mapping or a list",
                    )
                )
                continue
            key = str(_scalar(key_node, path, problems, name, constructor))
            if key in result:
                problems.append(
                    Problem(
                        name,
                        key_node.start_mark.line + 1,
                        key_node.start_mark.column + 1,
                        dotted(path + (key,)),
                        "this key is given twice",
                    )
                )
            if keys is not None:
                keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = _build(value_node, path + (key,), positions, problems, name, constructor, keys, budget)
            if value_node.start_mark.line > key_node.start_mark.line:
                # A block mapping or list starts on the next line: a problem with it belongs at its key.
                positions[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _build(item, path + (i,), positions, problems, name, constructor, keys, budget)
            for i, item in enumerate(node.value)
        ]
    return _scalar(node, path, problems, name, constructor)


def ten_as_t(layer: Any) -> Any:
    """``layer`` (a ruleset file's values, a house rule's ``set``, options) with the keys ``10`` and ``10H``...
    of ``card_values`` and ``meld_values`` written ``T`` and ``TH``, as the kernel reads them: so that a layer
    merged over another replaces its ten's value whichever way either writes it. A mapping that gives both
    keeps both (the checks refuse it)."""
    if not isinstance(layer, Mapping) or not any(
        isinstance(layer.get(k), Mapping) for k in ("card_values", "meld_values")
    ):
        return layer
    result = dict(layer)
    for key in ("card_values", "meld_values"):
        values = layer.get(key)
        if isinstance(values, Mapping):
            renamed = {("T" + str(k)[2:] if str(k).startswith("10") else k): v for k, v in values.items()}
            if len(renamed) == len(values):
                result[key] = renamed
    return result


def merge(base: Any, override: Any) -> Any:
    """Deep merge: mappings merge key by key, anything else in ``override`` replaces ``base``."""
    if isinstance(base, Mapping) and isinstance(override, Mapping):
        result = dict(base)
        for key, value in override.items():
            result[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return result
    return copy.deepcopy(override)


def leaf_paths(data: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Paths of every leaf value (non-mapping) in ``data``."""
    if isinstance(data, Mapping) and data:
        for key, value in data.items():
            yield from leaf_paths(value, prefix + (key,))
    else:
        yield prefix


_DECLARED: dict[str, Mapping[str, Mapping[str, Any]]] = {}
"""The ruleset keys each mechanic declares, by the mechanic's module name (:func:`declare_keys`)."""


def declare_keys(owner: str, fragment: Mapping[str, Mapping[str, Any]]) -> None:
    """Declare the ruleset keys only ``owner`` (a mechanic's module) reads, as ``{block: {key: schema}}``:
    :func:`kernel_schema` puts them into those blocks. :mod:`rummykit.mechanics` declares each mechanic's
    ``SCHEMA`` when it is imported (importing rummykit imports it)."""
    _DECLARED[owner] = fragment


def kernel_schema() -> dict[str, Any]:
    """The JSON Schema of a ruleset file: the kernel's keys as shipped in the package
    (``ruleset.schema.json``), each mechanic's as its module declares them (:func:`declare_keys`). The shipped
    file holds a copy of the mechanics' keys for editors, kept equal to their declarations by the tests."""
    text = resources.files("rummykit").joinpath("ruleset.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    for fragment in _DECLARED.values():
        for block, keys in fragment.items():
            result["properties"][block]["properties"].update(copy.deepcopy(dict(keys)))
    return result


def _known_keys(schema: Mapping[str, Any]) -> list[str]:
    return list(schema.get("properties", {}))


_WHOLE_NUMBERS = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, instance: isinstance(instance, int) and not isinstance(instance, bool)
)
_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # jsonschema's stubs leave it untyped
    jsonschema.Draft202012Validator, type_checker=_WHOLE_NUMBERS
)
"""The schema's validator, with ``integer`` meaning a whole number written as one: ``10.0`` is refused
(JSON Schema itself takes it), so card values, targets and counts are never floats."""


def schema_problems(data: Any, schema: Mapping[str, Any], locate: Any, prefix: Path_ = ()) -> list[Problem]:
    """Validate ``data`` against ``schema``; ``locate(path, message)`` turns a finding into a Problem."""
    validator = _Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = prefix + tuple(error.absolute_path)
        if "propertyNames" in error.schema_path and isinstance(error.instance, str):
            path += (error.instance,)  # a bad key: point at the key, in the file that holds it
        owner = error.schema if isinstance(error.schema, Mapping) else {}
        if (
            error.validator == "additionalProperties"
            and isinstance(error.instance, Mapping)
            and "patternProperties" not in owner
        ):
            # One problem per unknown key, at the key itself (not at the mapping that holds it).
            known = _known_keys(owner)
            for key in [k for k in error.instance if k not in known]:
                problems.append(locate(path + (key,), _unknown_key(key, known)))
            continue
        problems.append(locate(path, _describe(error)))
    return problems


def _unknown_key(key: str, known: list[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown key {key!r}{hint}" + (f"; expected one of: {', '.join(known)}" if known else "")


def _describe(error: jsonschema.ValidationError) -> str:
    """A plain-language message for a schema finding."""
    validator = error.validator
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = _known_keys(schema)
        extra = [k for k in error.instance if k not in known]
        parts = []
        for key in extra:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            parts.append(f"unknown key {key!r}{hint}")
        return "; ".join(parts) + (f"; expected one of: {', '.join(known)}" if known else "")
    if validator == "type":
        return f"expected {_type_words(error.validator_value)}, got {_show(error.instance)}"
    if validator == "enum":
        options = ", ".join(repr(v) for v in error.validator_value)  # type: ignore[union-attr]
        return f"expected one of {options}, got {_show(error.instance)}"
    if validator == "const":
        return f"expected {error.validator_value!r}, got {_show(error.instance)}"
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {
            "minimum": "at least",
            "maximum": "at most",
            "exclusiveMinimum": "more than",
            "exclusiveMaximum": "less than",
        }[str(validator)]
        return f"expected a number {words} {error.validator_value}, got {_show(error.instance)}"
    if validator == "required":
        return f"missing required key {error.message.split(chr(39))[1]!r}"
    if validator == "maxLength":
        return f"expected at most {error.validator_value} characters, got {len(str(error.instance)):,}"
    if validator == "pattern":
        wanted = schema.get("description") or error.validator_value
        return f"expected text matching {wanted}, got {_show(error.instance)}"
    if validator == "propertyNames":
        return f"{error.message}"
    if validator in ("maxItems", "maxProperties") and isinstance(error.instance, (list, Mapping)):
        what = "items" if validator == "maxItems" else "entries"
        return f"expected at most {error.validator_value} {what}, got {len(error.instance):,}"
    if validator == "uniqueItems" and isinstance(error.instance, list):
        return f"expected each item once, got {_clip(_repeated(error.instance))} more than once"
    if validator in ("minItems", "minProperties"):
        return error.message
    if validator in ("oneOf", "anyOf"):
        return f"expected {schema.get('description') or 'a value of another form'}, got {_show(error.instance)}"
    return error.message


def _repeated(items: list[Any]) -> str:
    """The first item of ``items`` that is there twice, as JSON (the schema's message would show them all)."""
    seen: set[str] = set()
    for item in map(json.dumps, items):
        if item in seen:
            return item
        seen.add(item)
    return ""


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _type_words(value: Any) -> str:
    names = {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "null": "nothing (null)",
    }
    if isinstance(value, list):
        return " or ".join(names.get(str(v), str(v)) for v in value)
    return names.get(value, str(value))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if value is None:
        return "nothing (null)"
    return repr(value)
