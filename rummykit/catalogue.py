"""Rulesets: the catalogue (names and aliases of the built-in variants and of those installed packages
register under the ``rummykit.variants`` entry-point group), and reading a ruleset file with its ``extends``
chain, keeping where each value comes from."""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from .ruleset import (
    Document,
    Problem,
    RulesetError,
    dotted,
    leaf_paths,
    load_document,
    merge,
    ten_as_t,
)
from .settings import PER_PLAYER_DEFAULTS

__all__ = ["VARIANTS_ENTRY_POINT_GROUP", "VariantInfo", "list_variants", "find_ruleset", "refresh_catalogue"]

VARIANTS_ENTRY_POINT_GROUP = "rummykit.variants"
"""Entry-point group through which an installed package registers its variants: each entry point's value
names a package (``my_games.variants``) whose YAML files are rulesets, found by name like the built-in ones."""

BUILT_IN = "rummykit"
"""The package named as the source of the built-in variants."""


@dataclass(frozen=True)
class VariantInfo:
    """What :func:`list_variants` tells about a variant without building it."""

    name: str
    title: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    summary: str
    path: str
    package: str = BUILT_IN
    """The distribution that ships the variant (``rummykit`` for the built-in ones)."""


def _path_kind(path: str | Path) -> str | None:
    """``"file"`` or ``"folder"`` for what ``path`` names; None for nothing there, something else, or a name
    too long or otherwise impossible (never an OSError)."""
    try:
        mode = Path(path).stat().st_mode
    except (OSError, ValueError):  # no such path; ENAMETOOLONG; a NUL in the name
        return None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else None


def _is_file(path: str | Path) -> bool:
    """Whether ``path`` is a file; False (not an OSError) for a name too long or otherwise impossible."""
    return _path_kind(path) == "file"


def _yaml_files(package: str) -> list[Path]:
    folder = resources.files(package)
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith((".yaml", ".yml")))


def _variant_files() -> list[Path]:
    return [path for path, _ in _sourced_files()]


@cache
def _sourced_files() -> list[tuple[Path, str]]:
    """(ruleset file, distribution shipping it): the built-in rulesets, then those of every installed
    package's ``rummykit.variants`` entry points (a package that cannot be imported is refused, named)."""
    files = [(path, BUILT_IN) for path in _yaml_files("rummykit.variants")]
    for entry in sorted(metadata.entry_points(group=VARIANTS_ENTRY_POINT_GROUP), key=lambda e: (e.value, e.name)):
        dist = entry.dist.name if entry.dist is not None else entry.value
        try:
            found = _yaml_files(entry.module)
        except (ImportError, TypeError, OSError) as exc:
            raise RulesetError(
                [Problem(entry.value, 0, 0, "", f"the variants of package {dist!r} ({entry.name} = {entry.value}) "
                         f"cannot be read: {exc}")]
            ) from None  # fmt: skip
        files.extend((path, dist) for path in found)
    return files


def refresh_catalogue() -> None:
    """Forget the catalogue read so far: the next lookup finds the variants of packages installed since."""
    for cached in (_sourced_files, _catalogue, _shipped_names, _resolved_data):
        cached.cache_clear()


@cache
def _catalogue() -> dict[str, VariantInfo]:
    """Every shipped variant, by name."""
    infos = {}
    _shipped_names()  # a clash of names is refused before anything is built
    for path, package in _sourced_files():
        data = _resolved_data(str(path))
        players = data.get("players", {})
        infos[data["name"]] = VariantInfo(
            data["name"],
            data.get("title", data["name"]),
            tuple(data.get("aliases", ())),
            players.get("min", 2),
            players.get("max", 2),
            data.get("summary", ""),
            str(path),
            package,
        )
    return infos


def list_variants() -> list[VariantInfo]:
    """Every variant shipped with rummykit or registered by an installed package, sorted by name."""
    return sorted(_catalogue().values(), key=lambda info: info.name)


@cache
def _shipped_names() -> tuple[dict[str, str], dict[str, str]]:
    """(name -> path, alias -> path) of the shipped rulesets, read from each file itself (no ``extends``
    resolution), so that resolving ``extends: <name>`` while building the catalogue does not recurse."""
    names: dict[str, str] = {}
    aliases: dict[str, str] = {}
    owners: dict[str, tuple[str, str]] = {}  # name or alias -> (distribution, file)
    for path, package in _sourced_files():
        doc = load_document(path)
        data = doc.data
        if isinstance(data, Mapping) and isinstance(data.get("name"), str):
            name = data["name"]
            for key in [name, *(str(alias) for alias in data.get("aliases", ()) or ())]:
                owner = owners.get(key)
                if owner is not None and owner[0] != package:
                    what = f"variant of package {owner[0]!r}" + (" (built in)" if owner[0] == BUILT_IN else "")
                    message = f"package {package!r} registers a variant named {key!r}, which names the {what} "
                    raise RulesetError([doc.problem(("name",), message + f"({owner[1]}): rename one of them")])
                owners.setdefault(key, (package, str(path)))
            names[name] = str(path)
            for alias in data.get("aliases", ()) or ():
                aliases.setdefault(str(alias), str(path))
    return names, aliases


def find_ruleset(name: str) -> str:
    """The path of a shipped ruleset by name or alias, or of a YAML file; raises KeyError naming close matches."""
    key = name.strip().lower()
    names, aliases = _shipped_names()
    if key in names:
        return names[key]
    if key in aliases:
        return aliases[key]
    kind = _path_kind(name)
    if name.endswith((".yaml", ".yml")) or "/" in name or kind is not None:
        if kind == "file":
            return str(Path(name))
        if kind == "folder":
            example = f"{name.rstrip('/')}/my-gin.yaml"
            raise KeyError(f"{name!r} is a folder; a ruleset is a YAML file in it (such as {example})")
        if os.path.exists(name):  # (a link to nothing: no file)
            raise KeyError(f"{name!r} is not a regular file (a device, pipe or socket); a ruleset is a YAML file")
        raise KeyError(f"no ruleset file {name!r}")
    known = sorted(list(names) + list(aliases))
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    by_path = {path: shipped for shipped, path in names.items()}
    # An alias is shown with its variant's name, which the list of known variants gives.
    shown = [f"{c!r} ({by_path[aliases[c]]})" if c in aliases and aliases[c] in by_path else repr(c) for c in close]
    hint = f"; did you mean {' or '.join(shown)}?" if close else ""
    raise KeyError(f"no variant named {name!r}{hint or '.'} Known variants: {', '.join(sorted(names))}")


@dataclass
class _Merged:
    data: dict[str, Any]
    origins: dict[tuple[str | int, ...], Document]
    chain: list[Document]

    def age(self, doc: Document) -> int:
        """How far from the file read ``doc`` is: 0 for that file, 1 for the one it extends, and so on; -1 for
        a house rule or options, merged over the whole chain."""
        return next((i for i, own in enumerate(self.chain) if own is doc), -1)


def _document(path: str) -> Document:
    """The ruleset file ``path``, read once while it is unchanged (validation builds a variant once per
    house rule: reading the file each time made it quadratic in the number of house rules)."""
    if path.endswith(".py"):  # read as YAML, its first 'def f():' would be the problem told
        message = (
            f"a Python file is a plugin, not a ruleset: give it with --plugin after a variant (gin --plugin {path})"
        )
        raise RulesetError([Problem(path, 0, 0, "", message)])
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return load_document(path)  # the error, located
    return _document_cached(str(Path(path).resolve()), path, status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=64)
def _document_cached(_resolved: str, path: str, _mtime: int, _size: int) -> Document:
    return load_document(path)


def _read_chain(path: str) -> _Merged:
    chain: list[Document] = []
    seen: list[str] = []
    current = path
    while True:
        resolved = str(Path(current).resolve())
        if resolved in seen:
            cycle = " -> ".join(Path(p).name for p in seen + [resolved])
            doc = chain[-1]
            raise RulesetError([doc.problem(("extends",), f"'extends' makes a cycle: {cycle}")])
        seen.append(resolved)
        doc = _document(current)
        chain.append(doc)
        parent = doc.data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise RulesetError([doc.problem(("extends",), "expected a variant name or a path to a ruleset file")])
        candidate = Path(current).parent / parent
        if parent.endswith((".yaml", ".yml")) or _is_file(candidate):
            if not _is_file(candidate):
                raise RulesetError([doc.problem(("extends",), f"no ruleset file {parent!r} next to this one")])
            current = str(candidate)
        else:
            try:
                current = find_ruleset(parent)
            except KeyError as exc:
                raise RulesetError([doc.problem(("extends",), str(exc.args[0]))]) from None
    data: dict[str, Any] = {}
    origins: dict[tuple[str | int, ...], Document] = {}
    for doc in reversed(chain):
        body = ten_as_t({k: v for k, v in doc.data.items() if k != "extends"})
        data = merge(data, body)
        for leaf in leaf_paths(body):
            origins[leaf] = doc
    live = set(leaf_paths(data))  # a value a child replaced by a mapping (or the reverse) came from the child
    origins = {path: doc for path, doc in origins.items() if path in live}
    for key in ("name", "title", "aliases", "summary"):
        if key in chain[0].data:
            data[key] = chain[0].data[key]
        elif len(chain) > 1 and key in ("aliases", "summary"):  # they describe the parent, not the child
            data.pop(key, None)
    return _Merged(data, origins, chain)


@cache
def _resolved_data(path: str) -> dict[str, Any]:
    return _read_chain(path).data


class _Locator:
    """``locate(path, message)``: a problem at ``path``, in the file of the ``extends`` chain (or the house
    rule, or the options) that sets its value, or the newest that sets a value inside it.
    ``locate.clash(path, message, others)`` (see :func:`rummykit.ruleset.clash`): a problem with the value at
    ``path`` because of the values at ``others``, at the first of them the newest layer sets."""

    def __init__(self, merged: _Merged, fallback: str) -> None:
        self.merged, self.fallback = merged, fallback

    def __call__(self, path: tuple[str | int, ...], message: str) -> Problem:
        probe = tuple(path)
        while probe:
            doc = self.origin(probe)
            if doc is not None:
                return doc.problem(tuple(path), message)
            probe = probe[:-1]
        if self.merged.chain:
            return self.merged.chain[0].problem(tuple(path), message)
        return Problem(self.fallback, 0, 0, dotted(path), message)

    def origin(self, path: tuple[str | int, ...]) -> Document | None:
        """The layer that sets the value at ``path`` (or the list holding it), else the newest that sets a
        value inside it; None when none does (the value is a default)."""
        path = tuple(path)
        for end in range(len(path), 0, -1):
            if path[:end] in self.merged.origins:
                return self.merged.origins[path[:end]]
        inside = [doc for leaf, doc in self.merged.origins.items() if leaf[: len(path)] == path]
        return min(inside, key=self.merged.age, default=None)

    def clash(self, path: tuple[str | int, ...], message: str, others: Iterable[tuple[str | int, ...]]) -> Problem:
        own = self.origin(path)
        setters = [(other, doc) for other in others if (doc := self.origin(other)) is not None]
        if not setters:
            return self(path, message)
        at, doc = min(setters, key=lambda pair: self.merged.age(pair[1]))  # the first of the newest
        if own is not None and self.merged.age(own) <= self.merged.age(doc):
            return self(path, message)
        plain = self(path, message)
        if own is None and plain.file == doc.file:  # a default, told in the file that clashes with it
            return plain
        if own is None:
            note = f"{dotted(path)} is left at its default"
        else:
            note = f"{dotted(path)} inherited from {Path(own.file).name} line {own.where(path)[0]}"
        return doc.problem(at, f"{message} ({note})")


def _locator(merged: _Merged, fallback: str) -> _Locator:
    return _Locator(merged, fallback)


def _drop_counts_outside_players(merged: _Merged) -> None:
    """Drop the values by player count (``decks.count: {"5": 2}``) for counts ``players`` does not allow,
    where ``players`` is set by a newer layer than the value: a ruleset that narrows the players of the one
    it extends cannot remove the parent's keys, and they would never be used. Values a layer gives for
    counts its own (or an older) ``players`` excludes stay, and are refused by the checks."""
    data = merged.data
    players = data.get("players")
    if not isinstance(players, Mapping):
        return
    low, high = players.get("min"), players.get("max")
    setters = [doc for key in ("min", "max") if (doc := merged.origins.get(("players", key))) is not None]
    if not (isinstance(low, int) and isinstance(high, int) and setters):
        return
    newest = min(map(merged.age, setters))
    for block, key in PER_PLAYER_DEFAULTS:
        spec = data[block].get(key) if isinstance(data.get(block), Mapping) else None
        if not isinstance(spec, Mapping):
            continue
        dropped = [
            count
            for count in spec
            if count.isascii()
            and count.isdigit()
            and not low <= int(count) <= high
            and (doc := merged.origins.get((block, key, count))) is not None
            and merged.age(doc) > newest
        ]
        if dropped:
            data[block] = {**data[block], key: {k: v for k, v in spec.items() if k not in dropped}}
            for count in dropped:
                del merged.origins[(block, key, count)]
