"""``rummykit new house-rule NAME``: an installable package offering one house rule.

The package holds a ``pyproject.toml`` whose entry point (group ``rummykit``) names the plugin module, the
module with one documented hook implementation (``rummykit_house_rules``), the house rule's values in
``house_rule.yaml``, a README and a test. The files come from ``rummykit/templates/house-rule``.

The package is created in a folder that exists, and only whole: a name the package cannot take (a Python
keyword, a module that is importable already or in the standard library, an installed plugin's name, a
house rule the variant has) is refused before anything is written, and a write that fails removes what
was written.
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from string import Template

from .loader import _plugin_entry_points
from .variant import find_ruleset, house_rules_for, load_variant

__all__ = ["ScaffoldError", "Scaffold", "new_house_rule"]

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

# template file -> where it goes in the package ({module} is the Python module's name)
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "__init__.py.tmpl": "{module}/__init__.py",
    "house_rule.yaml.tmpl": "{module}/house_rule.yaml",
    "test.py.tmpl": "tests/test_{module}.py",
}


class ScaffoldError(ValueError):
    """The package cannot be created (a bad name, an unknown variant, a folder that exists or cannot be
    written in)."""


@dataclass
class Scaffold:
    """What :func:`new_house_rule` created."""

    root: Path
    variant: str
    module: str
    files: list[Path] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    shown: str = ""
    """``root`` as the next steps name it: relative to the current folder when inside it, else absolute."""


def _name_problem(name: str, variant: str) -> str | None:
    """Why ``name`` cannot name a house rule of ``variant`` scaffolded as a package, or None when it can.

    The package's module is the name with ``_`` for ``-``: installed, it sits beside every other module,
    so it must not be a keyword (``from import import ...``), nor replace a module that can be imported
    already (``yaml``, ``rummykit``) or one of the standard library's."""
    module = name.replace("-", "_")
    if keyword.iskeyword(module):
        return f"its package would be the Python module {module!r}, a Python keyword"
    if module in sys.stdlib_module_names:
        return f"its package would be the Python module {module!r}, which names a module of the standard library"
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    if found is not None:
        where = f" ({found.origin})" if found.origin and found.origin != "namespace" else ""
        return (
            f"its package would be the Python module {module!r}, which is importable already{where}: "
            "installing it would replace that module"
        )
    if name in _plugin_entry_points():
        return f"a plugin named {name!r} is installed already"
    if name in house_rules_for(variant):
        return f"{variant} has a house rule {name!r} already (rummykit show {variant} lists them)"
    return None


def _suggestion(name: str, variant: str) -> str | None:
    """A prefixed name that can be used instead of ``name``."""
    for prefix in ("my", "house", "table", variant):
        candidate = f"{prefix}-{name}"
        if NAME_PATTERN.match(candidate) and _name_problem(candidate, variant) is None:
            return candidate
    return None


def _folder_problem(where: Path) -> str | None:
    """Why the package cannot be created in the folder ``where``, or None when it can."""
    shown = f"the current folder ({Path.cwd()})" if str(where) == "." else str(where)
    if not where.exists():
        return f"{shown} does not exist: create the folder first, or name one that exists"
    if not where.is_dir():
        return f"{shown} is not a folder: name the folder to create the package in"
    if not os.access(where, os.W_OK | os.X_OK):
        return f"cannot create the package in {shown}: permission denied"
    return None


def _shown(path: Path) -> str:
    """``path`` as the next steps print it: relative to the current folder when it is inside it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


def new_house_rule(name: str, where: Path | str = ".", variant: str = "gin") -> Scaffold:
    """Create the package ``where/name`` for the house rule ``name`` of ``variant`` and return what was made.

    ``where`` must be an existing folder. Raises :class:`ScaffoldError` (nothing written) for a name that
    cannot be used, an unknown variant, a folder that does not exist or cannot be written in, or a package
    folder that exists already."""
    if not NAME_PATTERN.match(name):
        raise ScaffoldError(
            f"{name!r} is not a house rule name: use lower-case letters, digits and hyphens, "
            "starting with a letter (knock-7, going-out-bonus)"
        )
    try:
        find_ruleset(variant)
    except KeyError as exc:
        raise ScaffoldError(str(exc.args[0])) from None
    canonical = load_variant(variant).name
    problem = _name_problem(name, canonical)
    if problem is not None:
        other = _suggestion(name, canonical)
        raise ScaffoldError(
            f"{name!r} cannot name the house rule: {problem}; choose another name"
            + (f", such as {other!r}" if other else "")
        )
    where = Path(where)
    problem = _folder_problem(where)
    if problem is not None:
        raise ScaffoldError(problem)
    root = where / name
    if root.exists() or root.is_symlink():
        raise ScaffoldError(f"{root} already exists: choose another name or folder")
    module = name.replace("-", "_")
    values = {"name": name, "module": module, "variant": canonical, "title": name.replace("-", " ").capitalize()}
    templates = resources.files("rummykit").joinpath("templates").joinpath("house-rule")
    made = Scaffold(root, canonical, module)
    try:
        root.mkdir()
    except OSError as exc:
        raise ScaffoldError(f"cannot create {root}: {exc.strerror or exc}") from None
    try:
        for template, target in FILES.items():
            text = Template(templates.joinpath(template).read_text(encoding="utf-8")).substitute(values)
            path = root / target.format(module=module)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            made.files.append(path)
    except OSError as exc:
        shutil.rmtree(root, ignore_errors=True)  # made above, by this call: nothing half-made is left
        raise ScaffoldError(f"cannot write the package in {root}: {exc.strerror or exc}") from None
    shown = made.shown = _shown(root)
    install = shown if Path(shown).is_absolute() else f"./{shown}"
    made.next_steps = [
        f"edit {shlex.quote(f'{shown}/{module}/house_rule.yaml')} (values) and "
        f"{shlex.quote(f'{shown}/{module}/__init__.py')} (behaviour)",
        f"rummykit play {canonical} --plugin {shlex.quote(f'{shown}/{module}/__init__.py')} --house-rule {name}"
        "   # try it",
        f"pip install {shlex.quote(install)}   # then: rummykit show {canonical}; pytest {shlex.quote(shown)}",
    ]
    return made
