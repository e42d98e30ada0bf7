"""Records saved by rummykit 0.1.0 (before Kernel 2) still replay to the same game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit import Game
from rummykit.cli import main

RECORDS = sorted((Path(__file__).parent / "records").glob("*-0.1.0.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_record_saved_by_0_1_0_replays_to_the_same_game(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = Game.from_json(path.read_text(encoding="utf-8"))
    assert game.is_over
    assert game.scores == record["scores"]
    assert [r.as_dict() for r in game.results] == record["results"]
    assert game.history == record["actions"]


def test_the_replay_command_shows_an_old_record(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in RECORDS if p.stem.startswith("gin-0"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert f"{record['scores'][0]}" in out and "wins" in out


def test_a_record_of_another_format_is_refused_naming_it(tmp_path: Path) -> None:
    record = json.loads(RECORDS[0].read_text(encoding="utf-8"))
    record["format"] = "rummykit-record/9"
    with pytest.raises(ValueError, match="rummykit-record/9"):
        Game.from_json(json.dumps(record))
