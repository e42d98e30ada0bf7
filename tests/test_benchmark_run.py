"""benchmarks/run.py: which variants ``--variant`` runs, and the targets it prints (not timed: the figures are the
benchmark's own, in docs/performance.md)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest


def run_module() -> ModuleType:
    """``benchmarks/run.py`` imported as a module (the folder is no package)."""
    folder = str(Path(__file__).resolve().parents[1] / "benchmarks")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module("run")
    finally:
        sys.path.remove(folder)


LISTED = ["500-rum", "arlington", "fortune", "gin", "iceberg", "skarney"]


def test_variant_runs_those_named_and_gin_in_the_listed_order() -> None:
    run = run_module()
    assert run.chosen_variants(LISTED, None) == LISTED
    assert run.chosen_variants(LISTED, []) == LISTED
    assert run.chosen_variants(LISTED, ["skarney", "fortune"]) == ["fortune", "gin", "skarney"]
    assert run.chosen_variants(LISTED, ["gin"]) == ["gin"]


def test_a_variant_not_listed_is_refused_by_name() -> None:
    run = run_module()
    with pytest.raises(ValueError, match="no variant named fortunee, nosuch .known: 500-rum, arlington"):
        run.chosen_variants(LISTED, ["fortunee", "fortune", "nosuch"])


def test_the_table_games_target_is_a_quarter_of_gins_rate() -> None:
    run = run_module()
    rates = {"gin": 100_000.0, "fortune": 25_000.0, "arlington": 24_999.0, "iceberg": 40_000.0}
    report = {"variants": {name: {"actions_cpu_rate": rate} for name, rate in rates.items()}}
    lines = run.targets(report).splitlines()
    said = {
        name: next(line for line in lines if line.startswith(f"  table games: {name} ")) for name in run.TABLE_GAMES
    }
    assert said["fortune"].endswith("0.25x, met")
    assert said["arlington"].endswith("0.25x, NOT met")  # 24,999 is just under a quarter
    assert said["iceberg"].endswith("0.40x, met")
    assert said["skarney"].endswith("not measured")
    assert said["skarney-singles"].endswith("not measured")
