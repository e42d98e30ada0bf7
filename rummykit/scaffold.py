"""``rummykit new house-rule NAME``: an installable package offering one house rule.

The package holds a ``pyproject.toml`` whose entry point (group ``rummykit``) names the plugin module, the
module with one documented hook implementation (``rummykit_house_rules``), the house rule's values in
``house_rule.yaml``, a README and a test. The files come from ``rummykit/templates/house-rule``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from string import Template

from .variant import find_ruleset, load_variant

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
    """The package cannot be created (a bad name, an unknown variant, a folder that exists)."""


@dataclass
class Scaffold:
    """What :func:`new_house_rule` created."""

    root: Path
    variant: str
    module: str
    files: list[Path] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)


def new_house_rule(name: str, where: Path | str = ".", variant: str = "gin") -> Scaffold:
    """Create the package ``where/name`` for the house rule ``name`` of ``variant`` and return what was made."""
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
    root = Path(where) / name
    if root.exists():
        raise ScaffoldError(f"{root} already exists: choose another name or folder")
    module = name.replace("-", "_")
    values = {"name": name, "module": module, "variant": canonical, "title": name.replace("-", " ").capitalize()}
    templates = resources.files("rummykit").joinpath("templates").joinpath("house-rule")
    made = Scaffold(root, canonical, module)
    for template, target in FILES.items():
        text = Template(templates.joinpath(template).read_text(encoding="utf-8")).substitute(values)
        path = root / target.format(module=module)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        made.files.append(path)
    shown = root.as_posix()
    made.next_steps = [
        f"edit {shown}/{module}/house_rule.yaml (values) and {shown}/{module}/__init__.py (behaviour)",
        f"rummykit play {canonical} --plugin {shown}/{module}/__init__.py --house-rule {name}   # try it",
        f"pip install ./{shown}   # then: rummykit show {canonical}; pytest {shown}",
    ]
    return made
