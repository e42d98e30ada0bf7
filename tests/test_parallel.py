"""Bulk simulation in parallel: identical results for any number of worker processes, on Ray, and
from the command line; the progress bar; memory that does not grow with the number of games."""

from __future__ import annotations

import io
import json
import logging
import os
import pickle
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.cli import main
from rummykit.simulate import (
    CHUNK_SIZE,
    RAY_MISSING,
    TIMING_FIELDS,
    ProgressBar,
    SimulationResult,
    VariantSpec,
    chunks,
    simulate,
)

SCRIPT = Path(sys.executable).with_name("rummykit")

TABLE_GAME = "500-rum" if any(info.name == "500-rum" for info in rummykit.list_variants()) else "gin-3"


def without_timing(result: SimulationResult | dict[str, Any]) -> dict[str, Any]:
    data = result.as_dict() if isinstance(result, SimulationResult) else result
    return {k: v for k, v in data.items() if k not in TIMING_FIELDS}


# -- chunks ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("games", "jobs"), [(0, 1), (1, 2), (13, 3), (1000, 2), (100_000, 2), (7, 0)])
def test_chunks_cover_every_game_once_in_order(games: int, jobs: int) -> None:
    parts = chunks(games, jobs)
    assert [i for part in parts for i in part] == list(range(games))
    assert all(0 < len(part) <= CHUNK_SIZE for part in parts)
    if games >= 8 * max(jobs, 1):
        assert len(parts) >= 4 * max(jobs, 1)  # every worker gets several chunks


# -- the same result for any number of jobs -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "house_rules", "bots"),
    [
        ("gin", ("big-gin",), ("greedy", "random")),
        (TABLE_GAME, ("traditional",) if TABLE_GAME == "500-rum" else (), ("greedy", "greedy")),
    ],
)
def test_any_number_of_jobs_gives_the_same_result(
    name: str, house_rules: tuple[str, ...], bots: tuple[str, ...]
) -> None:
    variant = rummykit.load_variant(name, house_rules=house_rules)
    even = 8
    one = simulate(variant, even, seed=11, bots=bots, jobs=1)
    two = simulate(variant, even, seed=11, bots=bots, jobs=2)
    assert one.games == even and one.hands > 0
    assert without_timing(two) == without_timing(one)
    assert two.hand_kinds == one.hand_kinds and list(two.hand_kinds) == list(one.hand_kinds)
    assert one.as_dict()["house_rules"] == list(house_rules)
    odd = 13  # three workers, chunks of unequal size
    assert len({len(part) for part in chunks(odd, 3)}) > 1
    assert without_timing(simulate(variant, odd, seed=11, bots=bots, jobs=3)) == without_timing(
        simulate(variant, odd, seed=11, bots=bots, jobs=1)
    )


def test_jobs_0_means_one_per_cpu_and_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    result = simulate("gin", 6, seed=3, jobs=0, progress=lambda done, total: calls.append((done, total)))
    assert without_timing(result) == without_timing(simulate("gin", 6, seed=3))
    assert len(calls) == len(chunks(6, 2)) + 1


def test_a_local_plugin_reaches_the_workers(undercut_double_plugin: Path) -> None:
    plugin = undercut_double_plugin
    variant = rummykit.load_variant("gin", ["undercut-double"], plugins=[plugin])
    spec = VariantSpec.of(variant)
    assert spec.plugins == (str(plugin.resolve()),) and spec.house_rules == ("undercut-double",)
    assert spec.load() is variant  # loading is cached: once per process
    assert VariantSpec.of(rummykit.load_variant("gin")).plugins == ()  # installed plugins load by name
    one = simulate(variant, 6, seed=2, jobs=1)
    assert without_timing(simulate(variant, 6, seed=2, jobs=2)) == without_timing(one)
    plain = simulate("gin", 6, seed=2)
    assert one.hand_kinds == plain.hand_kinds  # same games, only undercut scores differ
    assert one.hand_kinds["undercut"] == 0 or one.total_scores != plain.total_scores


def test_a_plugin_failing_in_a_worker_is_named_as_in_one_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = tmp_path / "oops.py"
    plugin.write_text(
        'import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_turn_ended(deal, seat):\n    raise KeyError("nobody")\n',
        encoding="utf-8",
    )
    with pytest.raises(rummykit.PluginError) as info:
        simulate(rummykit.load_variant("gin", plugins=[plugin]), 4, seed=1, jobs=2)
    assert (info.value.plugin, info.value.hook) == ("oops", "rummykit_turn_ended")
    assert str(info.value) == "plugin 'oops' failed in hook rummykit_turn_ended: KeyError: 'nobody'"
    assert main(["simulate", "gin", "--games", "4", "--jobs", "2", "--plugin", str(plugin)]) == 1
    assert capsys.readouterr().err == "rummykit: plugin 'oops' failed in hook rummykit_turn_ended: KeyError: 'nobody'\n"


# -- memory --------------------------------------------------------------------------------------------------


def test_a_result_holds_only_counters_never_games() -> None:
    small = simulate("gin", 2, seed=5, jobs=2)
    large = simulate("gin", 24, seed=5, jobs=2)
    for result in (small, large):
        for item in fields(result):
            value = getattr(result, item.name)
            if isinstance(value, Counter):
                assert all(isinstance(k, str) and isinstance(v, int) for k, v in value.items())
                assert len(value) <= 10  # one entry per way a hand ends
            elif isinstance(value, list):
                assert len(value) == result.players and all(isinstance(v, int) for v in value)
            elif isinstance(value, tuple):
                assert all(isinstance(v, str) for v in value)
            else:
                assert value is None or isinstance(value, (int, float, str)), item.name  # None: no max_hands given
    # Twelve times the games, (almost) the same size: the counts grow by a few digits at most.
    assert len(pickle.dumps(large)) - len(pickle.dumps(small)) < 64


def test_the_meld_search_memo_is_bounded() -> None:
    variant = rummykit.load_variant("gin")
    assert 0 < variant.meld_search.cache_limit <= 1_000_000


# -- Ray ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="Ray is not installed (the test extra installs it where wheels exist)")
    ray.init(
        num_cpus=2, include_dashboard=False, ignore_reinit_error=True, logging_level=logging.ERROR, log_to_driver=False
    )
    yield ray
    ray.shutdown()


def test_ray_gives_the_result_of_the_process_backend(ray_instance: Any) -> None:
    variant = rummykit.load_variant("gin", house_rules=["big-gin"])
    calls: list[tuple[int, int]] = []
    on_ray = simulate(
        variant,
        20,
        seed=7,
        bots=("greedy", "random"),
        jobs=2,
        backend="ray",
        progress=lambda d, t: calls.append((d, t)),
    )
    in_processes = simulate(variant, 20, seed=7, bots=("greedy", "random"), jobs=2)
    assert on_ray.games == 20
    assert without_timing(on_ray) == without_timing(in_processes)
    assert without_timing(on_ray) == without_timing(simulate(variant, 20, seed=7, bots=("greedy", "random")))
    assert calls[0] == (0, 20) and calls[-1] == (20, 20) and len(calls) == len(chunks(20, 2)) + 1
    assert ray_instance.is_initialized()  # a Ray that was already running is left running


def test_a_plugin_failing_in_a_ray_task_is_named(ray_instance: Any, tmp_path: Path) -> None:
    plugin = tmp_path / "oops.py"
    plugin.write_text(
        'import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_turn_ended(deal, seat):\n    raise KeyError("nobody")\n',
        encoding="utf-8",
    )
    with pytest.raises(rummykit.PluginError) as info:
        simulate(rummykit.load_variant("gin", plugins=[plugin]), 4, seed=1, jobs=2, backend="ray")
    assert str(info.value) == "plugin 'oops' failed in hook rummykit_turn_ended: KeyError: 'nobody'"


def test_ray_on_the_command_line(ray_instance: Any, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", TABLE_GAME, "--games", "4", "--seed", "3", "--json"]
    assert main([*base, "--backend", "ray", "--jobs", "2"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(base) == 0
    assert without_timing(on_ray) == without_timing(json.loads(capsys.readouterr().out))


def test_the_command_starts_and_stops_a_local_ray(ray_instance: Any) -> None:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    base = [str(SCRIPT), "simulate", "gin", "--games", "4", "--seed", "6", "--json"]
    on_ray = subprocess.run([*base, "--backend", "ray", "--jobs", "2"], capture_output=True, text=True, env=env,
                            timeout=300)  # fmt: skip
    assert on_ray.returncode == 0, on_ray.stderr
    local = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert without_timing(json.loads(on_ray.stdout)) == without_timing(json.loads(local.stdout))


def test_ray_backend_without_ray_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as when it is not installed
    with pytest.raises(ImportError, match=r"pip install '\.\[ray\]' in rummykit's folder"):
        simulate("gin", 2, seed=1, backend="ray")
    assert main(["simulate", "gin", "--games", "2", "--backend", "ray"]) == 2
    assert capsys.readouterr().err == f"rummykit: {RAY_MISSING}\n"
    assert RAY_MISSING == "the Ray backend needs the 'ray' extra: pip install '.[ray]' in rummykit's folder"


# -- the command line -----------------------------------------------------------------------------------------


def test_cli_json_is_the_same_for_any_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "gin", "--games", "7", "--seed", "9", "--house-rule", "modern", "--json"]
    outputs = []
    for jobs in ("1", "2", "3"):
        assert main([*base, "--jobs", jobs]) == 0
        captured = capsys.readouterr()
        assert captured.err == ""  # no progress bar without a terminal
        outputs.append(json.loads(captured.out))
    assert outputs[0]["games"] == 7 and outputs[0]["house_rules"] == ["modern"]
    assert without_timing(outputs[1]) == without_timing(outputs[0]) == without_timing(outputs[2])


def test_cli_text_differs_only_in_the_speed_line(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "gin", "--games", "5", "--seed", "2", "--bots", "random,greedy"]
    texts = []
    for jobs in ("1", "2"):
        assert main([*base, "--jobs", jobs]) == 0
        texts.append(capsys.readouterr().out.splitlines())
    one, two = texts
    assert [line for line in one if not line.startswith("Speed:")] == [
        line for line in two if not line.startswith("Speed:")
    ]
    assert one[-1].startswith("Speed:") and one[-1].endswith(", 1 process)")
    assert two[-1].endswith(", 2 processes)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "-1"], "--jobs is 0 (one per CPU) or more, not -1"),
        (["--ray-address", "auto"], "--ray-address goes with --backend ray"),
    ],
)
def test_cli_mistakes(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gin", "--games", "1", *args]) == 2
    assert capsys.readouterr().err == f"rummykit: {message}\n"


def test_cli_bad_backend_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "gin", "--games", "1", "--backend", "spark"])
    assert info.value.code == 2
    assert "argument --backend: invalid choice: 'spark' (choose from" in capsys.readouterr().err


def test_a_bad_backend_or_job_count_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown backend 'spark': the backends are process and ray"):
        simulate("gin", 1, seed=1, backend="spark")
    with pytest.raises(ValueError, match="jobs is 0"):
        simulate("gin", 1, seed=1, jobs=-2)


# -- the progress bar ------------------------------------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only() -> None:
    assert ProgressBar.for_terminal(io.StringIO()) is None
    terminal = FakeTerminal()
    bar = ProgressBar.for_terminal(terminal)
    assert bar is not None
    now = [100.0]
    bar.clock = lambda: now[0]
    bar(0, 1000)
    now[0] += 10
    bar(250, 1000)
    now[0] += 0.01
    bar(260, 1000)  # too soon after the last redraw: skipped
    now[0] += 10
    bar(1000, 1000)
    bar(1000, 1000)  # finished: nothing more
    frames = terminal.getvalue().split("\r")[1:]
    assert len(frames) == 3
    assert "0/1,000 games" in frames[0] and "ETA --:--" in frames[0]
    assert "[#######" in frames[1] and "250/1,000 games" in frames[1] and "25.0 games/s" in frames[1]
    assert "ETA 0:30" in frames[1]
    assert frames[2].startswith("[" + "#" * 30 + "]") and "1,000/1,000 games 100%" in frames[2]
    assert frames[2].endswith("in 0:20\x1b[K\n")


def test_progress_is_reported_as_chunks_finish() -> None:
    calls: list[tuple[int, int]] = []
    simulate("gin", 10, seed=4, jobs=2, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 10) and calls[-1] == (10, 10)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert len(calls) == len(chunks(10, 2)) + 1


def test_progress_bar_closes_its_line_when_stopped_early() -> None:
    terminal = FakeTerminal()
    bar = ProgressBar(terminal)
    bar(0, 10)
    bar.close()
    assert terminal.getvalue().endswith("\n")
    silent = FakeTerminal()
    ProgressBar(silent).close()
    assert silent.getvalue() == ""


def _in_a_pseudo_terminal(*args: str) -> tuple[str, str]:
    """Run the rummykit script with stderr on a pseudo-terminal: (stdout, what the terminal showed)."""
    pty = pytest.importorskip("pty", reason="no pseudo-terminals on this platform")
    leader, follower = pty.openpty()
    try:
        result = subprocess.run(
            [str(SCRIPT), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            timeout=300,
        )
        os.close(follower)
        follower = -1
        shown = b""
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:
                break
            if not data:
                break
            shown += data
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert result.returncode == 0
    return result.stdout, shown.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals on Windows")
def test_the_command_shows_a_bar_on_a_terminal_and_not_when_quiet() -> None:
    out, shown = _in_a_pseudo_terminal("simulate", "gin", "--games", "3", "--seed", "1", "--jobs", "2")
    assert "3/3 games 100%" in shown and "games/s" in shown
    assert out.startswith("3 games of Gin Rummy")
    for quiet in ("--quiet", "--json"):
        out, shown = _in_a_pseudo_terminal("simulate", "gin", "--games", "3", "--seed", "1", quiet)
        assert shown == "" and out
