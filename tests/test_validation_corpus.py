"""The corpus of broken rulesets and plugins in ``tests/broken``: each file states, in its header, the
command that must refuse it (``rummykit validate FILE`` unless ``# command:`` says otherwise), the exit
status, and the exact message (``# expect:`` lines, in order). None may end in a traceback.

Run with ``RUMMYKIT_BLESS_CORPUS=1`` to rewrite the ``# expect:`` lines from what the commands print now
(then read the diff: every message must still name the file, line, column, path and what was expected).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import rummykit
from rummykit.cli import main

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(p for p in BROKEN.iterdir() if p.suffix in (".yaml", ".py"))
BLESS = bool(os.environ.get("RUMMYKIT_BLESS_CORPUS"))


@dataclass
class Case:
    path: Path
    what: str
    command: list[str]
    exit: int
    expect: list[str]

    @property
    def validates(self) -> bool:
        return self.command[0] == "validate"


def read_case(path: Path) -> Case:
    header: dict[str, list[str]] = {}
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():  # some cases are not UTF-8
        if not line.startswith("# "):
            break
        key, _, value = line[2:].partition(": ")
        header.setdefault(key.strip().lower(), []).append(value)
    command = header.get("command", ["validate {file}"])[0].format(file=path.name)
    return Case(
        path, header["broken"][0], shlex.split(command), int(header.get("exit", ["1"])[0]), header.get("expect", [])
    )


def bless(case: Case, lines: list[str], code: int) -> None:
    text = case.path.read_bytes().splitlines(keepends=True)
    size = next((i for i, line in enumerate(text) if not line.startswith(b"# ")), len(text))
    head = [line.decode() for line in text[:size] if not line.startswith((b"# expect: ", b"# exit: "))]
    exit_line = [f"# exit: {code}\n"] if code != 1 or not case.validates else []
    expect = [f"# expect: {line}\n" for line in lines]
    case.path.write_bytes("".join(head + exit_line + expect).encode() + b"".join(text[size:]))


def built_in_only(lines: list[str]) -> list[str]:
    """``lines`` with the variants and plugins of other installed packages (the ``examples/`` games, once
    installed) left out of their lists: the expected messages name the built-in ones."""
    from importlib import metadata

    from rummykit.catalogue import BUILT_IN

    others = {info.name for info in rummykit.list_variants() if info.package != BUILT_IN}
    others |= {e.name for e in metadata.entry_points(group="rummykit") if e.dist and e.dist.name != "rummykit"}
    found = []
    for line in lines:
        for marker in ("Known variants: ", "; installed: "):
            head, known, names = line.partition(marker)
            if known:
                line = head + known + ", ".join(name for name in names.split(", ") if name not in others)
        found.append(line)
    return found


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40
    plugins = [c for c in CASES if c.suffix == ".py"]
    assert len(plugins) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_broken_case(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    case = read_case(path)
    monkeypatch.chdir(BROKEN)
    code = main(case.command)  # an exception escaping here would be a traceback for the user
    out, err = capsys.readouterr()
    lines = built_in_only((out if case.validates else err).splitlines())
    if BLESS:
        bless(case, lines, code)
        return
    assert case.expect and "TODO" not in case.expect, f"{path.name} states no message"
    assert "Traceback" not in out + err
    assert (code, lines) == (case.exit, case.expect)
    if case.validates:
        assert all(line.startswith(case.path.name) or ":" in line for line in lines)
    else:
        assert all(line.startswith("rummykit: ") for line in lines)
    if case.command == ["validate", path.name]:  # the Python API says the same
        assert built_in_only([str(p) for p in rummykit.validate(path.name)]) == case.expect


def test_every_message_gives_a_position_a_path_and_what_was_expected() -> None:
    for path in CASES:
        case = read_case(path)
        if not case.validates:
            continue
        for line in case.expect:
            # file:line:column: path: message, or file: message when the file cannot be read at all
            assert line.split(":")[0].endswith((".yaml", ".py")), line
            assert len(line.split(": ", 2)) >= 2, line


def test_the_installed_command_checks_the_whole_corpus_without_a_traceback() -> None:
    yaml_cases = [read_case(p) for p in CASES if p.suffix == ".yaml"]
    assert all(c.command == ["validate", c.path.name] for c in yaml_cases)
    script = Path(sys.executable).with_name("rummykit")
    result = subprocess.run(
        [str(script), "validate", *[c.path.name for c in yaml_cases]],
        cwd=BROKEN,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and result.stderr == ""
    assert built_in_only(result.stdout.splitlines()) == [line for c in yaml_cases for line in c.expect]


def test_validate_json_lists_every_problem(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    assert main(["validate", "--json", "typo-top-key.yaml", "../../variants/gin.yaml"]) == 1
    import json

    report = json.loads(capsys.readouterr().out)
    assert [item["valid"] for item in report] == [False, True]
    problem = report[0]["problems"][0]
    assert set(problem) == {"file", "line", "column", "path", "message"}
    assert problem["path"] == "targt" and "did you mean 'target'?" in problem["message"]
    assert main(["validate", "--json", "../../variants/gin.yaml"]) == 0


HOSTILE = ["alias-bomb", "deep-nesting", "nul-byte", "control-character", "huge-integer", "long-name",
           "extends-long-name", "huge-deck-count", "huge-joker-count", "not-utf8"]  # fmt: skip


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_files_are_refused_quickly_in_bounded_memory(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import time
    import tracemalloc

    monkeypatch.chdir(BROKEN)
    tracemalloc.start()
    start = time.perf_counter()
    problems = rummykit.validate(f"{name}.yaml")
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(problems) == 1 and problems[0].line > 0
    assert elapsed < 5.0 and peak < 50_000_000  # unbounded, an alias bomb takes minutes and gigabytes


def test_huge_generated_rulesets_are_refused(tmp_path: Path) -> None:
    """Megabytes are generated here rather than committed: a 2 MB file and a very deep one."""
    big = tmp_path / "big.yaml"
    big.write_text("name: big\ntitle: Big\nextends: gin\nsummary: " + "x" * 2_000_000 + "\n", encoding="utf-8")
    assert [p.message for p in rummykit.validate(big)] == [
        f"the file holds {big.stat().st_size:,} bytes; a ruleset may hold at most 100,000"
    ]
    deep = tmp_path / "deep.yaml"
    deep.write_text(
        "name: deep\ntitle: Deep\nextends: gin\nrules:\n" + "".join(f"{' ' * i}k:\n" for i in range(1, 300))
    )
    [problem] = rummykit.validate(deep)
    assert problem.message == "nested more than 64 levels deep" and problem.line == 67
