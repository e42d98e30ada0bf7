"""Shared test fixtures."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rummykit import Game


def benchmark(name: str) -> ModuleType:
    """A script of ``benchmarks/`` imported as a module (the folder is no package)."""
    folder = str(Path(__file__).resolve().parents[1] / "benchmarks")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)


# `rummykit serve` keeps its tables in the user's data folder: the tests (and the servers they start) use a
# folder of their own, one per test process, and never the user's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="rummykit-test-data-")

UNDERCUT_DOUBLE = """\
import dataclasses

import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"undercut-double": {"summary": "An undercut scores double.", "variants": ["gin"]}}


@rummykit.hookimpl(wrapper=True)
def rummykit_score_hand(deal, kind):
    result = yield
    if result is not None and result.kind == "undercut":
        return dataclasses.replace(result, scores=tuple(2 * s for s in result.scores))
    return result
"""
"""A local house-rule plugin: offers ``undercut-double`` for gin and wraps the scoring hook."""


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything an illegal action must leave as it was: the record, every card's place, the table, the phase,
    whose move it is, the plugin's state and any card on offer."""
    deal = game.deal
    return (
        game.to_json(),
        [list(h) for h in deal.hands],
        list(deal.stock),
        list(deal.discard),
        [(str(tm), tm.owner, dict(tm.credits)) for tm in deal.table],
        deal.phase,
        deal.actor,
        repr(deal.state),
        deal.offer,
    )


@pytest.fixture
def undercut_double_plugin(tmp_path: Path) -> Path:
    """The :data:`UNDERCUT_DOUBLE` plugin written to ``tmp_path/undercut_double.py``."""
    path = tmp_path / "undercut_double.py"
    path.write_text(UNDERCUT_DOUBLE, encoding="utf-8")
    return path


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium, which the browser tests drive through Playwright (skipped without it)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the module's tests (each opens contexts and pages of its own)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()
