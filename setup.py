"""The compiled build: with ``RUMMYKIT_COMPILE=1``, mypyc compiles the hot modules below to C extensions that
sit beside their ``.py`` sources (Python imports an extension before a source of the same name). Everything
else about the package is in ``pyproject.toml``."""

import os

from setuptools import setup

COMPILED_MODULES = [
    "rummykit/meldorder.py",
    "rummykit/melds.py",
]
"""The modules compiled: the meld search, where the games with wild cards and big hands spend their time. The
solver (rummykit/solver.py) is left out: compiled, its big-integer states and dictionaries ran 10 to 40 %
slower than under the interpreter (docs/performance.md)."""

compiling = os.environ.get("RUMMYKIT_COMPILE", "").strip() not in ("", "0")
listing_requires = os.environ.get("RUMMYKIT_BUILD_LISTING_REQUIRES") == "1"  # set by build_support/rummykit_build.py
if compiling and not listing_requires:
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED_MODULES, opt_level="3"))
else:
    setup()
