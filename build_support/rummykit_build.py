"""rummykit's build backend: setuptools, plus mypyc when the compiled build is asked for.

``RUMMYKIT_COMPILE=1 pip install .`` compiles the modules listed in ``setup.py`` with mypyc; without the
variable the package is pure Python (the default and the reference). mypy and the type information it needs
are build requirements only of the compiled build, so the pure build never downloads them.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook setuptools provides, unchanged but these two

COMPILE_REQUIRES = [
    # mypyc ships with mypy; the rest is what mypy needs to check the compiled modules and what they import.
    "mypy>=1.10,<3",
    "pluggy>=1.3",
    "types-PyYAML",
    "types-jsonschema",
]


LISTING_REQUIRES = "RUMMYKIT_BUILD_LISTING_REQUIRES"
"""Set while setuptools runs setup.py only to list its build requirements."""


def compiling() -> bool:
    """Whether ``RUMMYKIT_COMPILE`` asks for the compiled build."""
    return os.environ.get("RUMMYKIT_COMPILE", "").strip() not in ("", "0")


def _requires(setuptools_requires, config_settings):  # type: ignore[no-untyped-def]
    # setuptools runs setup.py to find its own requirements, before mypy is installed: setup.py is told so
    # (it then leaves the extensions out of that run only).
    os.environ[LISTING_REQUIRES] = "1"
    try:
        found = setuptools_requires(config_settings)
    finally:
        del os.environ[LISTING_REQUIRES]
    return found + (COMPILE_REQUIRES if compiling() else [])


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)
