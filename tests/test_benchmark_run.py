"""benchmarks/run.py: which variants ``--variant`` runs, the games ``--again`` plays again, and the targets it
prints (not timed: the figures are the benchmark's own, in docs/performance-history.md)."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import benchmark  # benchmarks/ scripts imported as modules


def run_module() -> ModuleType:
    return benchmark("run")


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


def test_games_played_again_are_the_same_actions() -> None:
    tasks = benchmark("tasks")
    once = tasks.variant("fortune", {"hands": 2, "seconds_limit": 60.0})
    again = tasks.variant("fortune", {"hands": 2, "seconds_limit": 60.0, "again": True})
    assert "again_actions" not in once
    assert again["actions"] == once["actions"] > 0
    assert again["again_actions"] == again["actions"]
    assert again["again_actions_cpu_rate"] > 0


def test_the_variants_table_says_gins_ratio_for_the_games_played_again() -> None:
    run = run_module()
    common = {"players": 2, "rate": 1.0, "actions_rate": 1.0, "actions_per_hand": 10.0, "hands": 1, "seconds": 1.0}
    common |= {"rss_peak_mib": 1.0, "heap_peak_mib": 1.0}
    results = {
        "gin": {**common, "actions_cpu_rate": 100_000.0, "again_actions_cpu_rate": 120_000.0},
        "fortune": {**common, "actions_cpu_rate": 20_000.0, "again_actions_cpu_rate": 30_000.0},
    }

    def cells(section: str, name: str) -> list[str]:
        line = next(line for line in section.splitlines() if line.startswith(f"| {name} "))
        return [cell.strip() for cell in line.split("|")[1:-1]]

    section = run.variant_section(results, {})
    assert cells(section, "fortune")[4:8] == ["20,000", "5.00x", "30,000", "4.00x"]
    assert "played again" in section
    plain = run.variant_section({name: {**res, "again_actions_cpu_rate": None} for name, res in results.items()}, {})
    assert cells(plain, "fortune")[4:8] == ["20,000", "5.00x", "-", "-"]
    del results["fortune"]["again_actions_cpu_rate"], results["gin"]["again_actions_cpu_rate"]
    assert "played again" not in run.variant_section(results, {})


def test_the_compiled_builds_targets_are_judged_per_cpu_second_and_name_the_build() -> None:
    run = run_module()
    report = {
        "versions": {"rummykit": "0.1.0 (compiled)"},
        "engine": {"rummykit": {"actions_cpu_rate": 200_000.0}, "openspiel": {"actions_cpu_rate": 50_000.0}},
        "meld10": {
            "results": {
                "openspiel": {"cpu_rate": 100.0},
                "rummykit-variant-deadwood": {"cpu_rate": 130.0},
                "rummykit-variant-deadwood-texts": {"cpu_rate": 99.0},
            }
        },
    }
    lines = run.targets(report).splitlines()
    compiled = [line for line in lines if line.startswith("  compiled build:")]
    build = "this run is the compiled build's"
    assert compiled == [
        f"  compiled build: Gin actions >= 4x OpenSpiel's ({build}): 4.00x, met",
        f"  compiled build: Variant.deadwood from Cards >= OpenSpiel (10 cards; {build}): 1.30x, met",
        f"  compiled build: Variant.deadwood from texts >= OpenSpiel (10 cards; {build}): 0.99x, NOT met",
    ]
    report["versions"] = {"rummykit": "0.1.0"}
    report["engine"]["rummykit"]["actions_cpu_rate"] = 199_999.0
    said = next(line for line in run.targets(report).splitlines() if "Gin actions >= 4x" in line)
    assert said.endswith("(this run is the pure build's): 4.00x, NOT met")


def test_the_engine_table_gives_the_rates_per_cpu_second() -> None:
    run = run_module()
    common = {"hands": 10, "actions_per_hand": 100.0, "dead_share": 0.9, "rss_peak_mib": 30.0, "rss_base_mib": 28.0}
    results = {
        "rummykit": {**common, "rate": 1_000.0, "actions_rate": 100_000.0, "actions_cpu_rate": 120_000.0},
        "openspiel": {**common, "rate": 400.0, "actions_rate": 40_000.0, "actions_cpu_rate": 40_000.0},
    }
    section = run.engine_section(results, {"versions": {"rummykit": "0.1.0"}})
    row = next(line for line in section.splitlines() if line.startswith("| OpenSpiel"))
    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    assert cells[3] == "40,000" and cells[6] == "2.50x" and cells[7] == "3.00x"
