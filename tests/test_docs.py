"""README.md and docs/*.md, run as written (docs/tutorial.md has its own test, tests/test_tutorial.py).

Each page runs in a folder of its own that holds a copy of this checkout (so that ``pip install .`` works
as in a fresh clone) and every file block of every page: a ``python``, ``yaml`` or ``toml`` block whose first
line is ``# NAME.EXT`` (or ``# FOLDER/NAME.EXT``, its folders made) is that file's content, and one whose first
line is ``# NAME.EXT (continued)`` adds to the file an earlier block of its page started. Then, in page
order, every line of every ``sh`` block and every ``$ command`` of every ``console`` block runs with bash
(``rummykit`` is this environment's, standard input is empty) and must exit with 0 without a traceback;
then the page's ``python`` blocks run, in order, as one script. Everything has a time limit, so a snippet
that never ends fails. A block right after ``<!-- not run: REASON -->`` is skipped; the reason is required.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "tutorial.md")]
BLOCK = re.compile(r"^(?P<indent> *)```(?P<lang>\w*)\n(?P<body>.*?)^(?P=indent)```", re.M | re.S)
NOT_RUN = re.compile(r"<!-- not run: (?P<reason>.*?) -->")
FILE_LINE = re.compile(r"# (?P<name>[\w.-]+(?:/[\w.-]+)*\.(?:py|yaml|toml))(?P<continued> \(continued\))?")
COMMAND_SECONDS = 300  # the README's first command builds a virtual environment
PYTHON_SECONDS = 120


@dataclass
class Block:
    page: str
    line: int
    lang: str
    body: str
    skip: str | None

    @property
    def file(self) -> str | None:
        match = self._file_line()
        return match["name"] if match else None

    @property
    def continues(self) -> bool:
        """Whether the block adds to a file an earlier block started (``# NAME.EXT (continued)``)."""
        match = self._file_line()
        return bool(match and match["continued"])

    def _file_line(self) -> re.Match[str] | None:
        first = self.body.split("\n", 1)[0]
        return FILE_LINE.fullmatch(first) if self.lang in ("python", "yaml", "toml") else None

    def commands(self) -> list[str]:
        if self.lang == "sh":
            return [line for line in self.body.splitlines() if line.strip() and not line.startswith("#")]
        if self.lang == "console":
            return [line[2:] for line in self.body.splitlines() if line.startswith("$ ")]
        return []


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        before = text[: match.start()].rstrip().rsplit("\n", 1)[-1].strip()
        marker = NOT_RUN.fullmatch(before)
        indent = len(match["indent"])
        body = "".join(line[indent:] for line in match["body"].splitlines(keepends=True))
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(page.name, line, match["lang"], body, marker["reason"].strip() if marker else None))
    return found


def run_python(source: str, cwd: Path, timeout: float = PYTHON_SECONDS) -> subprocess.CompletedProcess[str]:
    """Run ``source`` as a script in ``cwd``; a run over ``timeout`` seconds comes back as exit status -9."""
    script = cwd.parent / f"{cwd.name}-snippets.py"
    script.write_text(source, encoding="utf-8")
    try:
        return subprocess.run(
            [sys.executable, str(script)], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=_env()
        )
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(exc.cmd, -9, _text(exc.stdout), _text(exc.stderr) + "[time limit]")


def _text(data: str | bytes | None) -> str:
    return data.decode() if isinstance(data, bytes) else data or ""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _folder(base: Path) -> Path:
    """A copy of the checkout with every page's files in it."""
    work = base / "work"
    work.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd")  # a pure copy, even of a compiled tree
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, work / name)
    for name in ("rummykit", "plugins", "variants", "build_support"):
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    for page in PAGES:
        write_files(work, blocks(page))
    return work


def write_files(work: Path, page_blocks: list[Block]) -> None:
    """Write a page's file blocks under ``work``, in page order (a continued block adds to its file)."""
    started: set[str] = set()
    for block in page_blocks:
        if not block.file or block.skip:
            continue
        where = f"{block.page}:{block.line}: {block.file}"
        assert ".." not in block.file.split("/"), f"{where}: a file block stays in the page's folder"
        path = work / block.file
        content = block.body  # with its first line, the file's name as a comment: as a reader copies it
        if block.continues:
            assert block.file in started, f"{where}: continued, but no earlier block of the page starts it"
            with path.open("a", encoding="utf-8") as file:
                file.write("\n\n" + content)  # two blank lines between the parts, as between functions
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
            started.add(block.file)


def test_every_skipped_block_says_why_and_runnable_ones_are_found() -> None:
    every = [block for page in PAGES for block in blocks(page)]
    assert all(block.skip for block in every if block.skip is not None)
    names = {block.page for block in every if block.commands() or block.lang == "python"}
    assert {"README.md", "playing.md", "simulating.md", "500-rum.md", "rulesets.md"} <= names
    readme = [command for block in blocks(ROOT / "README.md") if not block.skip for command in block.commands()]
    assert "rummykit simulate 500-rum --players 4 --games 200 --seed 1 --jobs 2" in readme


def test_file_blocks_make_folders_and_continued_blocks_add_to_their_file(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n# game/pkg/plugin.py\nA = 1\n```\n\ntext\n\n"
        "```python\n# game/pkg/plugin.py (continued)\nB = 2\n```\n"
        "\n```python\nprint('a snippet')\n```\n",
        encoding="utf-8",
    )
    found = blocks(page)
    assert [(b.file, b.continues) for b in found] == [
        ("game/pkg/plugin.py", False),
        ("game/pkg/plugin.py", True),
        (None, False),
    ]
    write_files(tmp_path, found)
    written = (tmp_path / "game" / "pkg" / "plugin.py").read_text(encoding="utf-8")
    assert written == "# game/pkg/plugin.py\nA = 1\n\n\n# game/pkg/plugin.py (continued)\nB = 2\n"  # as copied
    orphan = Block("page.md", 1, "python", "# other.py (continued)\nC = 3\n", None)
    with pytest.raises(AssertionError, match="no earlier block"):
        write_files(tmp_path, [orphan])
    escaping = Block("page.md", 1, "python", "# ../outside.py\nD = 4\n", None)
    with pytest.raises(AssertionError, match="stays in the page's folder"):
        write_files(tmp_path, [escaping])


def test_a_snippet_that_never_ends_fails(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    result = run_python("while True:\n    pass\n", tmp_path / "work", timeout=2)
    assert result.returncode != 0 and "[time limit]" in result.stderr


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    work = _folder(tmp_path)
    runnable = [block for block in blocks(page) if block.skip is None]
    for block in runnable:
        for command in block.commands():
            try:
                result = subprocess.run(
                    ["bash", "-c", command], cwd=work, env=_env(), capture_output=True, text=True,
                    stdin=subprocess.DEVNULL, timeout=COMMAND_SECONDS,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                pytest.fail(f"{page.name}:{block.line}: $ {command}: no end after {COMMAND_SECONDS} s")
            assert result.returncode == 0, f"{page.name}:{block.line}: $ {command}\n{result.stdout}{result.stderr}"
            assert "Traceback" not in result.stderr, f"{page.name}:{block.line}: $ {command}\n{result.stderr}"
    python = [block for block in runnable if block.lang == "python" and block.file is None]
    if not python:
        return
    source = "".join(f"# {page.name}, line {block.line}\n{block.body}\n" for block in python)
    result = run_python(source, work)
    assert result.returncode == 0, f"{page.name}: the Python snippets fail\n{source}\n{result.stdout}{result.stderr}"
