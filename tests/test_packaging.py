"""The package as installed without ``-e``: every subpackage of ``rummykit/`` is in ``pyproject.toml``'s
package list (a plain ``pip install .`` leaves out one that is not, and ``import rummykit`` then fails)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_installed() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'"(rummykit(?:\.\w+)*)"', re.search(r"^packages = \[(.*)\]$", text, re.M)[1]))  # type: ignore[index]
    found = {
        ".".join(("rummykit", *init.parent.relative_to(ROOT / "rummykit").parts))
        for init in (ROOT / "rummykit").rglob("__init__.py")
    }
    assert found - listed == set(), "subpackages missing from [tool.setuptools] packages"
