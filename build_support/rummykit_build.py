"""rummykit's build backend: setuptools, plus mypyc when the compiled build is asked for.

``RUMMYKIT_COMPILE=1 pip install .`` compiles the modules listed in ``setup.py`` with mypyc; without the
variable (or with ``0``) the package is pure Python, the default and the reference. mypy and the type
information it needs are build requirements of the compiled build only, so the pure build never downloads
them. An sdist never compiles (it is the source either build starts from), and neither does reading the
package's metadata.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every hook setuptools provides; those below wrap its own

COMPILE_REQUIRES = [
    # mypyc ships with mypy; the rest is what mypy needs to check the compiled modules and what they import.
    "mypy>=1.10,<3",
    "pluggy>=1.3",
    "types-PyYAML",
    "types-jsonschema",
    # rummykit/envs/encoding.py is checked against numpy's types and its package (rummykit/envs) against
    # gymnasium's (the `rl` extra); the compiled encoder needs them installed only where the environments are used.
    "numpy>=1.24",
    "gymnasium>=0.29",
]

VARIABLE = "RUMMYKIT_COMPILE"
NOT_NOW = "RUMMYKIT_BUILD_NOT_COMPILING"
"""Set while setuptools runs setup.py for anything but building a wheel (its requirements, the metadata, an
sdist): setup.py then leaves the extensions out, and mypy is not needed."""

_YES, _NO = ("1", "true", "yes"), ("", "0", "false", "no")


def compiling() -> bool:
    """Whether ``RUMMYKIT_COMPILE`` asks for the compiled build (``1``, ``true``, ``yes``; ``0``, ``false``,
    ``no`` or unset: pure Python)."""
    value = os.environ.get(VARIABLE, "").strip().lower()
    if value not in _YES + _NO:
        raise SystemExit(f"{VARIABLE} is 1 (the compiled build) or 0 (pure Python), not {value!r}")
    return value in _YES


@contextlib.contextmanager
def _not_compiling() -> Iterator[None]:
    os.environ[NOT_NOW] = "1"
    try:
        yield
    finally:
        del os.environ[NOT_NOW]


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        found = _setuptools.get_requires_for_build_wheel(config_settings)
    return found + (COMPILE_REQUIRES if compiling() else [])


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        found = _setuptools.get_requires_for_build_editable(config_settings)
    return found + (COMPILE_REQUIRES if compiling() else [])


def get_requires_for_build_sdist(config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        return _setuptools.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        return _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_sdist(sdist_directory, config_settings=None):  # type: ignore[no-untyped-def]
    with _not_compiling():
        return _setuptools.build_sdist(sdist_directory, config_settings)
