"""Plugins: found through the ``rummykit`` entry-point group or given as local Python files, and checked
before use (every ``rummykit_*`` function a marked hook with the hook's arguments)."""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .catalogue import _is_file
from .ruleset import (
    Problem,
    RulesetError,
)

__all__ = ["ENTRY_POINT_GROUP", "PluginSource", "plugin_problems", "load_local_plugin", "local_plugin_name"]


ENTRY_POINT_GROUP = "rummykit"
"""Entry-point group through which plugins (built-in games and house rules alike) are found."""


def _plugin_entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _hook_names() -> list[str]:
    return [name for name in vars(hookspecs) if name.startswith("rummykit_")]


def _def_position(function: Any, fallback: str) -> tuple[str, int, int]:
    """(file, line, column) of the ``def`` of ``function`` (not of its decorator)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return fallback, 0, 0
    file, line = code.co_filename, code.co_firstlineno
    try:
        lines, start = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return file, line, 1
    for offset, text in enumerate(lines):
        stripped = text.lstrip()
        if stripped.startswith(("def ", "async def ")):
            return file, start + offset, len(text) - len(stripped) + 1
    return file, line, 1


def _signature_text(function: Any) -> str:
    try:
        return f"{function.__name__}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return str(function.__name__)


def plugin_problems(name: str, module: ModuleType) -> list[Problem]:
    """What is wrong with the plugin ``name``'s hook implementations (an empty list when nothing is).

    A module-level function named ``rummykit_*`` must be a hook of :mod:`rummykit.hookspecs`, marked
    ``@rummykit.hookimpl``, and take only arguments of that hook.
    """
    source = getattr(module, "__file__", None) or f"plugin {name!r}"
    hooks = _hook_names()
    problems = []
    for attr, value in vars(module).items():
        if not attr.startswith("rummykit_") or not callable(value) or isinstance(value, type):
            continue
        if getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # imported from elsewhere (another plugin's hook): that plugin is checked on its own
        file, line, column = _def_position(value, source)

        def problem(message: str, file: str = file, line: int = line, column: int = column, attr: str = attr) -> None:
            problems.append(Problem(file, line, column, attr, f"plugin {name!r}: {message}"))

        if attr not in hooks:
            close = difflib.get_close_matches(attr, hooks, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else "the hooks are listed in docs/hooks.md"
            problem(f"{attr} is not a rummykit hook ({hint})")
            continue
        options = getattr(value, f"{ENTRY_POINT_GROUP}_impl", None)
        if options is None:
            problem(f"{attr} is not marked @rummykit.hookimpl, so it would never be called")
            continue
        spec_args = [p for p in inspect.signature(getattr(hookspecs, attr)).parameters]
        try:
            impl_params = inspect.signature(value).parameters.values()
        except (TypeError, ValueError):
            continue
        extra = [
            p.name
            for p in impl_params
            if p.name not in spec_args
            and p.default is inspect.Parameter.empty
            and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        ]
        if extra:
            words = ", ".join(repr(a) for a in extra)
            problem(
                f"{_signature_text(value)}: {'argument' if len(extra) == 1 else 'arguments'} {words} "
                f"{'is' if len(extra) == 1 else 'are'} not among the hook's: {attr}({', '.join(spec_args)})"
            )
            continue
        wrapper = options.get("wrapper") or options.get("hookwrapper")
        if wrapper and not inspect.isgeneratorfunction(value):
            problem(f"{attr} is marked wrapper=True, so it must 'yield' once to get the game's result")
            continue
    if problems:
        return problems
    manager = pluggy.PluginManager(ENTRY_POINT_GROUP)
    manager.add_hookspecs(hookspecs)
    try:
        manager.register(module, name)
        manager.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        problems.append(Problem(source, 0, 0, "", f"plugin {name!r} is refused: {first}"))
    return problems


def _import_problem(name: str, origin: str, exc: BaseException) -> Problem:
    """A plugin that fails to import, as a problem at the failing line of its own file when known."""
    if isinstance(exc, SyntaxError):
        return Problem(
            exc.filename or origin,
            exc.lineno or 0,
            exc.offset or 0,
            "(module)",
            f"plugin {name!r} cannot be imported: SyntaxError: {exc.msg}",
        )
    tb = exc.__traceback__
    file, line = origin, 0
    while tb is not None:  # the deepest frame inside the plugin's own file
        if tb.tb_frame.f_code.co_filename == origin:
            file, line = origin, tb.tb_lineno
        tb = tb.tb_next
    return Problem(
        file, line, 1 if line else 0, "(module)", f"plugin {name!r} cannot be imported: {type(exc).__name__}: {exc}"
    )


@cache
def _load_plugin(name: str) -> ModuleType:
    """The installed plugin ``name``, checked. Raises LookupError when it is not installed and
    :class:`RulesetError` when it cannot be imported or implements hooks wrongly."""
    points = _plugin_entry_points()
    if name not in points:
        close = difflib.get_close_matches(name, list(points), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise LookupError(f"plugin {name!r} is not installed{hint}; installed: {', '.join(sorted(points)) or 'none'}")
    try:
        module = points[name].load()
    except Exception as exc:
        origin = f"plugin {name!r} ({points[name].value})"
        raise RulesetError([_import_problem(name, origin, exc)]) from None
    if not isinstance(module, ModuleType):
        raise LookupError(f"plugin {name!r}: the entry point must name a module, not {type(module).__name__}")
    problems = plugin_problems(name, module)
    if problems:
        raise RulesetError(problems)
    return module


def local_plugin_name(path: str | Path) -> str:
    """The name a plugin loaded from a file goes by: the file's name (its folder's for ``__init__.py``),
    with ``_`` written ``-``."""
    file = Path(path)
    stem = file.parent.name if file.name == "__init__.py" else file.stem
    return stem.replace("_", "-")


@cache
def _load_local_plugin_cached(path: str, _mtime: int) -> tuple[str, ModuleType]:
    name = local_plugin_name(path)
    file = Path(path)
    if not _is_file(file):
        raise RulesetError([Problem(path, 0, 0, "", f"plugin file {path!r} does not exist")])
    if file.suffix != ".py":
        raise RulesetError([Problem(path, 0, 0, "", "a plugin is a Python file (.py); rulesets are never executed")])
    # A private module name: a plugin file named json.py must not replace the json module, nor a file
    # named like an installed plugin's module be taken for it (by worker processes, for one).
    digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:12]
    module_name = f"_rummykit_local_{digest}_" + re.sub(r"\W", "_", name)
    package = file.name == "__init__.py"
    spec = importlib.util.spec_from_file_location(
        module_name, file, submodule_search_locations=[str(file.parent)] if package else None
    )
    if spec is None or spec.loader is None:
        raise RulesetError([Problem(path, 0, 0, "", f"cannot load {path!r} as a Python module")])
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(module_name)
    sys.modules[module_name] = module  # dataclasses and relative imports look the module up here
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        if previous is not None:
            sys.modules[module_name] = previous
        else:
            sys.modules.pop(module_name, None)
        raise RulesetError([_import_problem(name, str(file), exc)]) from None
    problems = plugin_problems(name, module)
    if problems:
        raise RulesetError(problems)
    _LOCAL_NAMES[module_name] = name
    return name, module


_LOCAL_NAMES: dict[str, str] = {}
"""Plugin name of each local plugin module, by its private module name."""


def load_local_plugin(path: str | Path) -> tuple[str, ModuleType]:
    """(name, module) of the plugin in the Python file ``path``, imported and checked (see
    :func:`plugin_problems`); raises :class:`RulesetError` naming the file otherwise. Reloaded when the
    file changes."""
    resolved = Path(path).resolve()
    mtime = resolved.stat().st_mtime_ns if _is_file(resolved) else 0
    try:
        return _load_local_plugin_cached(str(resolved), mtime)
    except RulesetError as exc:
        shown = str(path)
        raise RulesetError(
            [
                Problem(shown if p.file == str(resolved) else p.file, p.line, p.column, p.path, p.message)
                for p in exc.problems
            ]
        ) from None


PluginSource = str | Path | ModuleType


def _local_plugins(plugins: Iterable[PluginSource]) -> list[tuple[str, ModuleType]]:
    result: list[tuple[str, ModuleType]] = []
    problems: list[Problem] = []
    for item in plugins:
        if isinstance(item, ModuleType):
            name = _LOCAL_NAMES.get(item.__name__) or item.__name__.rsplit(".", 1)[-1].replace("_", "-")
            found = plugin_problems(name, item)
            problems += found
            if not found:
                result.append((name, item))
            continue
        try:
            result.append(load_local_plugin(item))
        except RulesetError as exc:
            problems += exc.problems
    if problems:
        raise RulesetError(problems)
    return result
