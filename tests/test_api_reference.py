"""The API reference (docs/api, Sphinx autodoc over the docstrings) builds with warnings as errors, and every
public class, function and method it shows has a docstring of its own."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_builds import compiled_modules

import rummykit

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"
DIRECTIVE = re.compile(r"^\.\. (automodule|autoclass|autofunction|autodata):: (\S+)\n((?:   :.*\n)*)", re.M)


def documented() -> dict[str, Any]:
    """Every object the reference pages show, by its dotted name."""
    found: dict[str, Any] = {}
    for page in sorted(API.glob("*.rst")):
        for kind, target, options in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            if kind == "autodata":
                continue
            if kind != "automodule":
                module, _, name = target.rpartition(".")
                found[target] = getattr(importlib.import_module(module), name)
                continue
            module = importlib.import_module(target)
            found[target] = module
            listed = re.search(r":members:(.*)", options)
            if listed is None:
                continue
            names = [n.strip() for n in listed.group(1).split(",") if n.strip()] or list(getattr(module, "__all__", []))
            for name in names:
                found[f"{target}.{name}"] = getattr(module, name)
    return found


def undocumented(name: str, obj: Any) -> list[str]:
    missing = []
    if not (inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isfunction(obj)):
        return missing
    if not (obj.__doc__ or "").strip():
        missing.append(name)
    if inspect.isclass(obj):
        for member, value in vars(obj).items():
            function = value.fget if isinstance(value, property) else value
            if isinstance(function, (staticmethod, classmethod)):
                function = function.__func__
            if not member.startswith("_") and inspect.isfunction(function) and not (function.__doc__ or "").strip():
                # An override is documented by the method it overrides (Sphinx shows that docstring).
                inherited = [getattr(base, member, None) for base in obj.__mro__[1:]]
                if not any((getattr(f, "__doc__", None) or "").strip() for f in inherited if f is not None):
                    missing.append(f"{name}.{member}")
    return missing


def test_every_public_name_in_the_reference_has_a_docstring() -> None:
    pytest.importorskip("numpy")  # rummykit.envs: the rl extra
    pytest.importorskip("starlette")  # rummykit.web: the web extra
    shown = documented()
    assert {"rummykit.Variant", "rummykit.engine.Game", "rummykit.bots.GreedyBot", "rummykit.envs.RummyGym"} <= set(
        shown
    )
    if rummykit.COMPILED:
        # mypyc drops the docstrings of the modules it compiles; the reference is built from the pure-Python build.
        compiled = {path.removesuffix(".py").replace("/", ".") for path in compiled_modules()}
        shown = {name: obj for name, obj in shown.items() if getattr(obj, "__module__", name) not in compiled}
        shown = {name: obj for name, obj in shown.items() if name not in compiled}
    missing = [m for name, obj in sorted(shown.items()) for m in undocumented(name, obj)]
    assert missing == [], "no docstring: " + ", ".join(missing)


def test_the_reference_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    pytest.importorskip("numpy")
    pytest.importorskip("starlette")
    out = tmp_path / "html"
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(ROOT / "docs"), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    page = (out / "api" / "engine.html").read_text(encoding="utf-8")
    assert "legal_actions" in page and "IllegalAction" in page
    assert (out / "gin.html").exists()  # the guide's pages are in the same site
