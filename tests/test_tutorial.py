"""docs/tutorial.md, run as written: every ``$ command`` of its console blocks runs, in order, in an empty
folder with a fresh virtual environment that has rummykit installed from this checkout, and prints what the
page shows; every code block whose first line names a file (``# knock-7/knock_7/house_rule.yaml``) is
written to that file first. In the expected output, a line ``...`` stands for any lines and ``...`` within
a line for any text; a last line ``[exit status N]`` is the status the command must end with (else 0).

The environment is made once per test session (pip needs PyPI for rummykit's dependencies and pytest).
Run with ``RUMMYKIT_SHOW_TUTORIAL=1`` to print what each command printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# One fresh virtual environment serves the whole module: keep its tests on one xdist worker.
pytestmark = pytest.mark.xdist_group("tutorial")

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


@dataclass
class Step:
    command: str | None = None
    expected: str = ""
    file: str | None = None
    content: str = ""


def steps(text: str) -> list[Step]:
    found: list[Step] = []
    for language, body in FENCE.findall(text):
        first = body.split("\n", 1)[0]
        if language in ("yaml", "python", "toml") and re.fullmatch(r"# [\w./-]+/[\w.-]+", first):
            found.append(Step(file=first[2:], content=body))  # with the comment naming it: as a reader copies it
        elif language == "console":
            for line in body.splitlines():
                if line.startswith("$ "):
                    found.append(Step(command=line[2:]))
                elif found and found[-1].command is not None:
                    found[-1].expected += line + "\n"
    return found


def pattern(expected: str) -> re.Pattern[str]:
    parts = []
    for line in expected.splitlines():
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def test_the_page_has_both_examples() -> None:
    found = steps(PAGE.read_text(encoding="utf-8"))
    commands = [s.command for s in found if s.command]
    assert any(c.startswith("rummykit new house-rule knock-7 --variant gin") for c in commands)
    assert any(c.startswith("rummykit new house-rule going-out-bonus --variant 500-rum") for c in commands)
    assert any("--plugin" in c for c in commands)
    assert any(c.startswith("pip install") for c in commands)
    assert [s.file for s in found if s.file] == [
        "knock-7/knock_7/house_rule.yaml",
        "going-out-bonus/going_out_bonus/house_rule.yaml",
        "going-out-bonus/going_out_bonus/__init__.py",
    ]
    assert pattern("a\n...\nb ... c\n").fullmatch("a\nx\ny\nb and c\n")
    assert not pattern("a\nb\n").fullmatch("a\nx\nb\n")


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A fresh virtual environment with rummykit installed (not editable) from this checkout."""
    base = tmp_path_factory.mktemp("tutorial")
    source = base / "rummykit-source"  # a copy, so that building leaves the checkout untouched
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd")  # a pure copy, even of a compiled tree
    for name in ("rummykit", "plugins", "variants", "build_support"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(env_dir),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        COLUMNS="200",
    )
    install = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    work = base / "work"
    work.mkdir()
    yield work, env


def test_the_tutorial_runs_as_written(environment: tuple[Path, dict[str, str]]) -> None:
    work, env = environment
    show = bool(os.environ.get("RUMMYKIT_SHOW_TUTORIAL"))
    for step in steps(PAGE.read_text(encoding="utf-8")):
        if step.file is not None:
            path = work / step.file
            assert path.parent.is_dir(), f"{step.file}: the tutorial writes it before its folder exists"
            path.write_text(step.content, encoding="utf-8")
            continue
        assert step.command is not None
        result = subprocess.run(
            ["bash", "-c", step.command], cwd=work, env=env, capture_output=True, text=True, timeout=900
        )
        if show:
            print(f"$ {step.command}\n{result.stdout}{result.stderr}", file=sys.__stdout__)
        expected, status = step.expected, 0
        last = expected.splitlines()[-1] if expected else ""
        if re.fullmatch(r"\[exit status \d+\]", last):
            expected, status = expected[: -len(last) - 1], int(last[13:-1])
        assert result.returncode == status, f"$ {step.command}\n{result.stdout}{result.stderr}"
        assert "Traceback" not in result.stderr
        assert pattern(expected).fullmatch(result.stdout), (
            f"$ {step.command}\n-- the page shows --\n{step.expected}-- it printed --\n{result.stdout}"
        )
