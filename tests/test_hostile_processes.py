"""Hostile plugins, records and processes: a plugin that fails again while its failure is undone, records
that nest deeply or carry terminal escapes, and worker processes whose parent is killed or interrupted."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import rummykit
from rummykit.bots import make_bot
from rummykit.cli import main
from rummykit.dispatch import GameBroken, PluginError

# -- a plugin that fails again while its failure is undone -------------------------------------------------

AGAIN = """
import rummykit

calls = []


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    calls.append(1)
    deal.state["calls"] = len(calls)  # an edit of the deal's state that a failure must not leave behind
    if len(calls) > 6 and len(calls) % 2 == 0:
        raise RuntimeError("every second call")
"""


def test_a_plugin_failing_again_while_the_game_is_restored_leaves_it_refusing_everything(tmp_path: Path) -> None:
    path = tmp_path / "again.py"
    path.write_text(AGAIN, encoding="utf-8")
    game = rummykit.load_variant("gin", plugins=[path]).new_game(seed=4)
    bots = [make_bot("greedy", seat) for seat in range(game.num_players)]
    for _ in range(100):
        action = bots[game.deal.actor].choose(game)
        try:
            game.apply(action)
        except PluginError as exc:
            error: PluginError = exc
            break
    else:
        raise AssertionError("the plugin never failed")
    # The failure was undone by playing the deal again, and the plugin failed again on the way: the game is
    # not as it was, and says so rather than going on from a half-restored state.
    assert isinstance(error, GameBroken), error
    assert str(error).startswith("plugin 'again' failed in hook rummykit_apply_action: RuntimeError: every second")
    assert "could not be restored" in str(error) and "\n" not in str(error)
    assert error.plugin == "again" and error.hook == "rummykit_apply_action"
    queries: list[Callable[[], object]] = [
        lambda: game.apply(action),
        lambda: game.apply("draw stock"),
        game.legal_actions,
        game.deal.legal_actions,
        lambda: game.resolve("draw stock"),
        lambda: game.observation(0),
        game.to_json,
        game.clone,
        game.check_cards,
        lambda: game.current_player,
    ]
    for query in queries:
        with pytest.raises(GameBroken, match="could not be restored"):
            query()


# -- records that nest deeply ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ['{"actions": ' + "[" * 100_000, '{"actions": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_replay_of_a_deeply_nested_file_is_one_line_naming_it(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "deep.json"
    saved.write_text(text, encoding="utf-8")
    assert main(["replay", str(saved)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"rummykit: {saved}: not a rummykit record: it nests too deeply to be read\n"


# -- text from a record or a ruleset is shown as text, never as terminal escapes ----------------------------

EVIL_NAMES = ["\x1b[2J\x1b[31mEve\x1b[0m", "Bob\r\nFinal scores: Bob 999\u2028\x07", "Mallory\x9b31m\u202e"]
"""Names that clear the screen, colour the text, forge a line, ring the bell, use a C1 control (CSI) and
reverse the text after them, when printed raw."""


def assert_inert(text: str) -> None:
    """No character of ``text`` (but its line ends) acts on a terminal, and no forged line is there."""
    for line in text.split("\n"):
        assert line.isprintable(), repr(line)
    assert "Final scores: Bob 999" not in text.replace("\\r\\nFinal scores: Bob 999", "")


def evil_record(tmp_path: Path, max_hands: int | None = None) -> Path:
    variant = rummykit.load_variant("gin")
    game = variant.new_game(players=EVIL_NAMES[:2], seed=5, max_hands=max_hands)
    bots = [make_bot("greedy", seat) for seat in range(2)]
    while not game.is_over and len(game.results) < 2:
        game.apply(bots[game.deal.actor].choose(game))
    saved = tmp_path / "evil.json"
    saved.write_text(game.to_json(), encoding="utf-8")
    return saved


def test_replay_shows_names_from_a_record_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = evil_record(tmp_path, max_hands=1)
    assert main(["replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert_inert(out)
    assert "Gin Rummy (gin), seed 5: \\x1b[2J\\x1b[31mEve\\x1b[0m vs Bob\\r\\nFinal scores: Bob 999\\u2028\\x07" in out
    assert "== Deal 1: \\x1b[2J\\x1b[31mEve\\x1b[0m deals ==" in out or "== Deal 1: Bob\\r\\n" in out
    assert any(line.startswith("Final scores: \\x1b[2J") for line in out.splitlines())


def test_play_resume_shows_names_from_a_record_escaped(tmp_path: Path) -> None:
    saved = evil_record(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "play", "--resume", str(saved), "--save", str(tmp_path / "out.json")],
        input="hand\nrules\nquit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    assert "You vs Bob\\r\\nFinal scores: Bob 999\\u2028\\x07" in result.stdout


EVIL_RULESET = r"""
name: evil
title: "Evil\e[2J\r\nForged title line\x9b31m"
summary: "A summary\e[31m in red\u2028with a line separator"
extends: gin
house_rules:
  red-rule:
    summary: "\e[31mred\r\nForged summary line"
    set: {target: 50}
"""


@pytest.mark.parametrize(
    "command",
    [
        ["show", "{ruleset}"],
        ["show", "{ruleset}", "--house-rule", "red-rule"],
        ["simulate", "{ruleset}", "--games", "1", "--house-rule", "red-rule"],
        ["play", "{ruleset}", "--bots", "greedy", "--seed", "1", "--max-hands", "1"],
    ],
    ids=lambda command: "-".join(command[:1] + command[2:3]),
)
def test_titles_and_summaries_from_a_ruleset_are_shown_escaped(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ruleset = tmp_path / "evil.yaml"
    ruleset.write_text(EVIL_RULESET, encoding="utf-8")
    assert main([part.format(ruleset=ruleset) for part in command]) == 0
    out = capsys.readouterr().out
    assert_inert(out)
    assert "Forged" not in "".join(line[:9] for line in out.splitlines())  # no line starts with the forged text
    assert "Evil\\x1b[2J\\r\\nForged title line\\x9b31m (evil)" in out


BAD_KEY = """
name: evil
title: Evil
extends: gin
"bad\\e[31mkey\\r\\nrummykit: OK": 1
"""


@pytest.mark.parametrize(("command", "status"), [(["validate"], 1), (["show"], 2), (["simulate", "--games", "1"], 2)])
def test_a_ruleset_problem_names_its_key_escaped(
    command: list[str], status: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ruleset = tmp_path / "bad.yaml"
    ruleset.write_text(BAD_KEY, encoding="utf-8")
    assert main([command[0], str(ruleset), *command[1:]]) == status
    out, err = capsys.readouterr()
    shown = out + err
    assert_inert(shown)
    assert shown.count("\n") == 1
    assert "bad\\x1b[31mkey\\r\\nrummykit: OK: unknown key" in shown


def test_the_interactive_rules_and_turn_view_escape_ruleset_and_record_text(tmp_path: Path) -> None:
    ruleset = tmp_path / "evil.yaml"
    ruleset.write_text(EVIL_RULESET, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "play", str(ruleset), "--seed", "1", "--house-rule", "red-rule"],
        input="rules\nhand\nquit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert_inert(result.stdout)
    assert "   A summary\\x1b[31m in red\\u2028with a line separator" in result.stdout


def test_a_record_naming_a_variant_with_escapes_is_refused_on_one_escaped_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(rummykit.load_variant("gin").new_game(seed=1).to_json())
    record["variant"] = "gin\x1b[2J\r\nrummykit: all good"
    saved = tmp_path / "bad.json"
    saved.write_text(json.dumps(record), encoding="utf-8")
    for command in (["replay", str(saved)], ["play", "--resume", str(saved)]):
        assert main(command) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith(f"rummykit: {saved}: "), err
        assert_inert(err)
        assert "\\x1b[2J\\r\\nrummykit: all good" in err


# -- worker processes die with the command that started them --------------------------------------------

needs_linux = pytest.mark.skipif(sys.platform != "linux", reason="reads the process table from /proc")

RUNS = {
    "simulate": ["simulate", "gin", "--games", "4000", "--jobs", "2", "--quiet"],
    "compare": ["compare", "gin", "gin+big-gin", "--games", "2000", "--jobs", "2", "--quiet"],
}


def session_processes(session: int) -> set[int]:
    """The live processes of ``session`` (zombies, which are only waiting to be reaped, left out)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[3]) == session and fields[0] != "Z":  # (state, ppid, pgrp, session, ...)
            found.add(int(entry.name))
    return found


def started(command: list[str], tmp_path: Path, processes: int = 5) -> tuple[subprocess.Popen[bytes], set[int]]:
    """``rummykit COMMAND`` in a session of its own, once its workers have started: the command, its output
    going to files (a pipe held by a stray worker would never close), and every process of its session
    (itself, the resource tracker, the fork server and two workers)."""
    out, err = (tmp_path / "out.txt").open("wb"), (tmp_path / "err.txt").open("wb")
    main_process = subprocess.Popen(
        [sys.executable, "-m", "rummykit.cli", *command], stdout=out, stderr=err, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while len(found := session_processes(main_process.pid)) < processes:
        assert time.monotonic() < deadline and main_process.poll() is None, "the workers never started"
        time.sleep(0.1)
    time.sleep(0.5)  # the workers are playing
    return main_process, found


def left_after(session: int, recorded: set[int], seconds: float = 5.0) -> set[int]:
    """The processes of ``session``, or recorded before, still alive after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        alive = {pid for pid in recorded if Path(f"/proc/{pid}").exists() and pid in session_processes(session)}
        alive |= session_processes(session)
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@needs_linux
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("command", sorted(RUNS))
def test_killing_the_command_leaves_no_process_behind(command: str, signal_name: str, tmp_path: Path) -> None:
    main_process, recorded = started(RUNS[command], tmp_path)
    try:
        os.kill(main_process.pid, getattr(signal, signal_name))
        status = main_process.wait(timeout=30)
        assert left_after(main_process.pid, recorded) == set()
        err = (tmp_path / "err.txt").read_text()
        if signal_name == "SIGTERM":  # stopped cleanly, with one line
            what = "simulation" if command == "simulate" else "comparison"
            assert (status, err) == (128 + signal.SIGTERM, f"rummykit: {what} terminated\n")
            assert (tmp_path / "out.txt").read_text() == ""
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(main_process.pid, signal.SIGKILL)
        main_process.wait(timeout=30)


@needs_linux
@pytest.mark.parametrize("command", sorted(RUNS))
def test_ctrl_c_stops_the_command_and_its_workers_at_once(command: str, tmp_path: Path) -> None:
    main_process, recorded = started(RUNS[command], tmp_path)
    try:
        start = time.monotonic()
        os.killpg(main_process.pid, signal.SIGINT)  # as a terminal does: to the whole foreground group
        status = main_process.wait(timeout=30)
        assert time.monotonic() - start < 5
        what = "simulation" if command == "simulate" else "comparison"
        assert (status, (tmp_path / "err.txt").read_text()) == (130, f"rummykit: {what} interrupted\n")
        assert left_after(main_process.pid, recorded) == set()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(main_process.pid, signal.SIGKILL)
        main_process.wait(timeout=30)


KILLER = """
import multiprocessing
import os
import signal

import rummykit


@rummykit.hookimpl
def rummykit_start_hand(deal):
    if multiprocessing.parent_process() is not None:  # in a worker process: die as if killed
        os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "gin", "--games", "20"],
        ["compare", "gin", "gin+big-gin", "--games", "20"],
    ],
    ids=lambda command: command[0],
)
def test_a_killed_worker_is_one_line_and_exit_1(command: list[str], tmp_path: Path) -> None:
    killer = tmp_path / "killer.py"
    killer.write_text(KILLER, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", *command, "--jobs", "2", "--quiet", "--plugin", str(killer)],
        capture_output=True, text=True, timeout=120, start_new_session=True,
    )  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "rummykit: a worker process stopped before finishing its games (killed, or out of memory)\n",
    )


def test_a_plugin_failing_in_a_compare_worker_is_one_line_naming_it(tmp_path: Path) -> None:
    failing = tmp_path / "failing.py"
    failing.write_text(
        textwrap.dedent(
            """
            import rummykit

            @rummykit.hookimpl
            def rummykit_game_over(game):
                raise RuntimeError("no end")
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "compare", "gin", "gin+big-gin", "--games", "8", "--jobs", "2",
         "--quiet", "--plugin", str(failing)],
        capture_output=True, text=True, timeout=120, start_new_session=True,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        1,
        "rummykit: plugin 'failing' failed in hook rummykit_game_over: RuntimeError: no end\n",
    )
