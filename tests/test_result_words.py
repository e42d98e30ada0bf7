"""Every face shows a hand's result through rummykit_describe_result: the terminal, the web page, the lab."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import rummykit
from rummykit.lab import measure_game
from rummykit.results import describe_result
from rummykit.turntext import TurnPrinter
from rummykit.web.app import create_app

TOY_WORDS = """
import rummykit


@rummykit.hookimpl
def rummykit_describe_result(game, deal, result, words):
    words.ending = "the toy ending of " + result.kind
    words.lines.append("Toy line for " + words.name(0))
    words.figures["knock deadwood"] = [7] + [None] * (len(words.names) - 1)
"""


@pytest.fixture
def toy_words(tmp_path: Path) -> Path:
    path = tmp_path / "toy_words.py"
    path.write_text(TOY_WORDS, encoding="utf-8")
    return path


def finished_game(variant: rummykit.Variant, seed: int = 4) -> rummykit.Game:
    game = variant.new_game(seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_terminal_prints_the_words_of_the_hook(toy_words: Path) -> None:
    game = rummykit.load_variant("gin", plugins=[toy_words]).new_game(seed=2)
    lines: list[str] = []
    printer = TurnPrinter(lines.append, viewer=0)
    rng = random.Random(1)
    while not game.results:
        deal = game.deal
        action = game.resolve(rng.choice(game.legal_actions()))
        game.apply(action)
        printer(game, deal, deal.log[-1][0], action)
    kind = game.results[0].kind
    assert f"-- Deal 1 ends: the toy ending of {kind}. " in "\n".join(lines)
    assert "   Toy line for You" in lines


def test_the_web_page_gets_the_words_of_the_hook(toy_words: Path) -> None:
    with TestClient(create_app(plugins=[str(toy_words)], moves_per_second=None)) as client:
        created = client.post("/api/tables", json={"variant": "gin", "bots": [None, "random"]}).json()
        state, rng = created, random.Random(3)
        while not state["results"]:
            response = client.post(
                f"/api/tables/{state['id']}/moves",
                json={"seat": 0, "action": rng.choice(state["legal_actions"])},
                headers={"Authorization": f"Bearer {created['tokens']['0']}"},
            )
            assert response.status_code == 200, response.text
            state = response.json()
    result = state["results"][0]
    assert result["words"]["ending"] == f"the toy ending of {result['kind']}"
    assert "Toy line for Player 1" in result["words"]["lines"]
    assert any("the toy ending of" in line for line in result["lines"])  # the settlement as printed


def test_the_lab_reads_the_figures_of_the_hook(toy_words: Path) -> None:
    game = finished_game(rummykit.load_variant("gin", plugins=[toy_words]))
    assert measure_game(game)["knock_deadwood"] == 7


def test_gin_reports_the_knockers_deadwood_as_a_figure() -> None:
    variant = rummykit.load_variant("gin")
    for seed in range(6):
        game = finished_game(variant, seed)
        for result in game.results:
            figure = describe_result(game, None, result).figures.get("knock deadwood")
            if result.kind in ("knock", "undercut"):
                knocker = result.details["knocker"]
                assert figure == [result.details["deadwood"][knocker] if s == knocker else None for s in range(2)]
            else:
                assert figure is None


def test_the_kernel_describes_a_game_without_words_of_its_own() -> None:
    game = finished_game(rummykit.load_variant("fortune"), 1)
    result = game.results[-1]
    words = describe_result(game, game.deal if game.deal.result is result else None, result, viewer=None)
    assert words.ending == {"out": "a player went out", "exhausted": "the stock ran out"}.get(result.kind, result.kind)
    scored = [f"{game.names[s]} scores {p}" for s, p in enumerate(result.scores) if p]
    assert words.scored == (", ".join(scored) or "Nobody scores")
