"""A person plays every variant in a pseudo-terminal: the first screens, ``help``, a few moves (in short
form when there is one), a typo, ``rules``, end of input; never a traceback."""

from __future__ import annotations

import re
import sys

import pytest

import rummykit

pexpect = pytest.importorskip("pexpect", reason="the pseudo-terminal tests need pexpect (the test extra)")

PROMPT = "\r\n> "
PAUSE = r"\(press Enter for the next deal\) "
SHORT = {"draw stock": "s", "draw discard": "p"}


def _spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable, ["-m", "rummykit.cli", *args], encoding="utf-8", timeout=60, dimensions=(50, 200)
    )
    child.logfile_read = _Log()
    return child


class _Log:
    """Everything the terminal showed, for the failure message and the traceback check."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, data: str) -> None:
        self.text += data

    def flush(self) -> None:
        pass


def _prompt(child: pexpect.spawn) -> None:
    """Wait for the action prompt, pressing Enter at each pause between deals."""
    while child.expect([PROMPT, PAUSE]) == 1:
        child.sendline("")


def _legal(child: pexpect.spawn) -> list[str]:
    child.sendline("help")
    child.expect(r"Legal now: (.*?)\r\n(?:Short forms|Also)")
    text = re.sub(r"\r\n +", " ", child.match.group(1))
    _prompt(child)
    return [action.strip() for action in text.split(",")]


@pytest.mark.parametrize("variant", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_a_person_plays_in_a_terminal(variant: str) -> None:
    child = _spawn("play", variant, "--seed", "5")
    log: _Log = child.logfile_read
    try:
        _prompt(child)
        assert "-- Your turn" in log.text and "Your hand:" in log.text
        for _ in range(4):
            legal = _legal(child)
            assert legal and all(legal), log.text[-2000:]
            action = legal[0]
            child.sendline(SHORT.get(action, action))
            _prompt(child)
        child.sendline("dicard 2C")
        child.expect("Did you mean 'discard 2C'\\?")
        _prompt(child)
        child.sendline("rules")
        child.expect(re.escape(rummykit.load_variant(variant).title))
        _prompt(child)
        child.sendeof()
        child.expect("You leave the game.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, log.text[-3000:]
    assert "Traceback" not in log.text, log.text
    assert "is not allowed" not in log.text.split("dicard 2C")[0], log.text  # every move taken was legal
