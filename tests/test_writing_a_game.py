"""docs/writing-a-game.md, the part tests/test_docs.py cannot run: the commands that need the page's game
installed as a package.

tests/test_docs.py writes the page's files and runs its other commands and snippets, with the game loaded
from its files. Here the package those files make is installed apart (``pip install --target``, without
dependencies: rummykit is this environment's), and the commands of the page's block that installs it run
with it on the path, as they would after ``pip install -e ./tonk``: the game is found by name. pip builds
the package with setuptools from PyPI, as the README's first command does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from test_docs import ROOT, _env, blocks, write_files

PAGE = ROOT / "docs" / "writing-a-game.md"
INSTALL = "pip install -e ./tonk"


def installed_commands() -> list[str]:
    """The commands of the page's block that installs the game, which the docs test skips."""
    found = [block for block in blocks(PAGE) if block.skip and Path(__file__).name in block.skip]
    assert len(found) == 1, "the page has one block left to this test"
    commands = found[0].commands()
    assert commands[0] == INSTALL, commands
    return commands[1:]


def test_the_installed_game_is_found_by_name(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    write_files(work, blocks(PAGE))
    site = tmp_path / "site"
    env = _env()
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), "./tonk"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    env["PYTHONPATH"] = str(site)
    output = {}
    for command in installed_commands():
        result = subprocess.run(
            ["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True,
            stdin=subprocess.DEVNULL, timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, f"$ {command}\n{result.stdout}{result.stderr}"
        assert "Traceback" not in result.stderr, f"$ {command}\n{result.stderr}"
        output[command.split("#")[0].strip()] = result.stdout
    listed = [line.split()[0] for line in output["rummykit list"].splitlines() if line and not line[0].isspace()]
    assert {"tonk", "tonk-40", "gin"} <= set(listed)
    assert output["rummykit validate tonk tonk-40"].splitlines() == ["tonk: OK", "tonk-40: OK"]
    assert "Tonk (tonk), seed 1" in output["rummykit play tonk --bots random,greedy --seed 1"]
    assert "7 passed" in output["python -m pytest -q tonk"]
    person = subprocess.run(
        ["bash", "-c", "for s in 1 2 3 4 5 6 7 8; do printf 'drop\\nquit\\n' | rummykit play tonk --seed $s; done"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    drops = [line for line in person.stdout.splitlines() if "ends: You drop" in line]
    assert len(drops) == 8 and "and is caught" not in person.stdout, person.stdout + person.stderr
    assert any("You drop and are caught." in line for line in drops)  # the reader's words
