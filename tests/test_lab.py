"""The house-rule lab: `rummykit compare` and rummykit.lab."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit.lab import Comparison, compare, paired, parse_config, write_report


def difference(result: Comparison, key: str, index: int = 1) -> dict[str, object]:
    row = next(r for r in result.summary()["measures"] if r["key"] == key)
    diff: dict[str, object] = row["configs"][index]["difference"]
    return diff


# -- known effects, each with its sign and significance --------------------------------------------


@pytest.mark.slow
def test_gin_only_raises_the_share_of_dead_hands_in_gin() -> None:
    result = compare(["gin", "gin+gin-only"], games=300, seed=11, jobs=1)
    dead = difference(result, "kind:dead")
    assert dead["significant"] and dead["mean"] > 0  # type: ignore[operator]
    assert difference(result, "hands")["mean"] < 0  # type: ignore[operator]


@pytest.mark.slow
def test_oklahoma_gins_knock_limit_lowers_the_knockers_deadwood() -> None:
    result = compare(["gin", "oklahoma-gin"], games=300, seed=12, jobs=1)
    deadwood = difference(result, "knock_deadwood")
    assert deadwood["significant"] and deadwood["mean"] < 0  # type: ignore[operator]


@pytest.mark.slow
def test_traditional_scoring_changes_500_rums_points_per_hand() -> None:
    # Face values for 2 to 9 add up to 44 per suit against 40 at 5 each, and bots meld the high ones: so
    # "traditional" raises the points won per hand (the issue expected a fall; the arithmetic says a rise).
    result = compare(["500-rum", "500-rum+traditional"], games=150, seed=13, players=3, jobs=1)
    points = difference(result, "points_per_hand")
    assert points["significant"] and points["mean"] > 0  # type: ignore[operator]


# -- the statistics ----------------------------------------------------------------------------------


def test_the_paired_test_needs_a_consistent_difference() -> None:
    base = [10.0, 12.0, 9.0, 11.0, 10.0, 13.0]
    assert paired(base, [b + 1 for b in base]).significant  # every game one more: significant
    assert not paired(base, [b + (1 if i % 2 else -1) for i, b in enumerate(base)]).significant
    found = paired(base, [None, 13.0, None, 12.0, 11.0, 14.0])  # only the games both have count
    assert found.n == 4 and found.mean == 1.0


def test_the_same_comparison_for_any_number_of_jobs() -> None:
    one = compare(["gin", "gin+big-gin"], games=12, seed=5, jobs=1)
    two = compare(["gin", "gin+big-gin"], games=12, seed=5, jobs=1)
    assert one.per_game == two.per_game
    assert one.summary() == two.summary()


def test_configurations_are_parsed_and_bad_ones_refused_before_playing() -> None:
    config = parse_config("gin+gin-only+modern")
    assert (config.variant, config.house_rules, config.label) == ("gin", ("gin-only", "modern"), "gin+gin-only+modern")
    with pytest.raises(ValueError, match="VARIANT"):
        parse_config("gin++modern")
    with pytest.raises(Exception, match="no-such-rule"):
        compare(["gin", "gin+no-such-rule"], games=2)


# -- the report --------------------------------------------------------------------------------------


def test_the_report_is_self_contained_and_agrees_with_its_data(tmp_path: Path) -> None:
    result = compare(["gin", "gin+gin-only"], games=8, seed=3)
    written = write_report(result, tmp_path / "report")
    assert {"index.html", "summary.json", "games.csv", "games.json"} <= {p.name for p in written}
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    # Nothing is fetched: no script, stylesheet or image from elsewhere.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<script" not in page and "@import" not in page
    summary = json.loads((tmp_path / "report" / "summary.json").read_text(encoding="utf-8"))
    hands = next(r for r in summary["measures"] if r["key"] == "hands")
    for entry in hands["configs"]:
        assert f"{entry['mean']:.2f} [{entry['low']:.2f}, {entry['high']:.2f}]" in page
    with open(tmp_path / "report" / "games.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 16 and {r["config"] for r in rows} == {"gin", "gin+gin-only"}
    assert [int(r["hands"]) for r in rows[:8]] == [g["hands"] for g in result.per_game[0]]
    pytest.importorskip("matplotlib", reason="plots need the 'plots' extra")
    assert page.count("<svg") == 3 and (tmp_path / "report" / "endings.svg").exists()


def test_the_command_prints_the_table_and_refuses_bad_input(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "rummykit.cli", "compare"]
    done = subprocess.run([*run, "gin", "gin+gin-only", "--games", "4", "--seed", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "hands ending gin" in done.stdout and "gin+gin-only" in done.stdout
    bad = subprocess.run([*run, "gin", "gin+nope", "--games", "4"], capture_output=True, text=True)
    assert bad.returncode == 2 and "nope" in bad.stderr
    blocked = tmp_path / "file"
    blocked.write_text("x")
    bad = subprocess.run([*run, "gin", "--games", "4", "--report", str(blocked)], capture_output=True, text=True)
    assert bad.returncode == 2 and "not a folder" in bad.stderr
    under_a_file = str(blocked / "lab")
    bad = subprocess.run([*run, "gin", "--games", "4", "--report", under_a_file], capture_output=True, text=True)
    assert bad.returncode == 2 and "its parent folder does not exist" in bad.stderr
    out = subprocess.run([*run, "gin", "gin+big-gin", "--games", "3", "--json"], capture_output=True, text=True)
    assert json.loads(out.stdout)["configs"] == ["gin", "gin+big-gin"]


def test_a_configuration_given_twice_is_refused_before_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummykit import cli

    played: list[object] = []
    monkeypatch.setattr("rummykit.lab.compare", lambda *args, **kwargs: played.append(args))
    assert cli.main(["compare", "gin", "gin+big-gin", " gin", "--games", "2"]) == 2
    assert capsys.readouterr().err == "rummykit: the configuration 'gin' is given twice; give each once\n"
    # The same game by another name: an alias, the house rules in another order.
    assert cli.main(["compare", "gin", "gin+big-gin+modern", "gin+modern+big-gin", "--games", "2"]) == 2
    assert "'gin+big-gin+modern' and 'gin+modern+big-gin' are the same game" in capsys.readouterr().err
    assert cli.main(["compare", "gin", "gin-rummy", "--games", "2"]) == 2
    assert "'gin' and 'gin-rummy' are the same game" in capsys.readouterr().err
    assert played == []


def test_a_report_folder_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummykit import cli

    played: list[object] = []
    monkeypatch.setattr("rummykit.lab.compare", lambda *args, **kwargs: played.append(args))
    # (the suite may run as root, whom permissions do not stop: the check asks os.access, as for --save)
    monkeypatch.setattr(cli.os, "access", lambda path, mode: False)
    for folder in (tmp_path / "new", tmp_path):
        assert cli.main(["compare", "gin", "--games", "2", "--report", str(folder)]) == 2
        assert f"--report {folder}: cannot write there (permission denied)" in capsys.readouterr().err
    assert played == [] and not (tmp_path / "new").exists()


def test_a_local_house_rule_plugin_and_a_ruleset_file_take_a_slot(tmp_path: Path, undercut_double_plugin: Path) -> None:
    ruleset = tmp_path / "gin-to-50.yaml"
    ruleset.write_text("name: gin-to-50\nextends: gin\ntarget: 50\n", encoding="utf-8")
    result = compare(["gin", "gin+undercut-double", str(ruleset)], games=6, seed=4, plugins=[undercut_double_plugin])
    assert [c.label for c in result.configs] == ["gin", "gin+undercut-double", str(ruleset)]
    assert difference(result, "hands", 2)["mean"] < 0  # to 50, games are shorter
