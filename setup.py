"""The compiled build: with ``RUMMYKIT_COMPILE=1``, mypyc compiles the hot modules below to C extensions that
sit beside their ``.py`` sources (Python imports an extension before a source of the same name). Everything
else about the package is in ``pyproject.toml``; the build backend is ``build_support/rummykit_build.py``."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "build_support"))
from rummykit_build import NOT_NOW, compiling  # noqa: E402 - found through the path just given

COMPILED_MODULES = [
    "rummykit/meldorder.py",
    "rummykit/melds.py",
    "rummykit/envs/encoding.py",
]
"""The modules compiled: the meld search, where the games with wild cards and big hands spend their time, and
the environments' encoder (observations, masks, action indices), a few loops over cards at every step. The
solver (rummykit/solver.py) is left out: compiled, its big-integer states and dictionaries ran 10 to 40 %
slower than under the interpreter (docs/performance-history.md)."""

if compiling() and os.environ.get(NOT_NOW) != "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED_MODULES, opt_level="3"))
else:
    setup()
