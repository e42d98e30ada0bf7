"""Whole games of Contract Rummy between bots, every card checked after every action: 200 of random bots and
50 of greedy ones, at every player count from three to eight."""

from __future__ import annotations

import pytest

import rummykit
from rummykit import Game
from rummykit.engine import Action, Deal
from rummykit.simulate import play_game

RANDOM_GAMES = 200
GREEDY_GAMES = 50


LONGEST_DEAL = 2000
"""Turns after which a deal is taken to go round in circles (the longest seen is a few hundred)."""


def check(game: Game, deal: Deal, seat: int, action: Action) -> None:
    game.check_cards()
    assert deal.card_count() == len(game.deck)
    assert deal.turn <= LONGEST_DEAL, f"deal {deal.number} of seed {game.seed} runs past {LONGEST_DEAL} turns"


def finished(game: Game) -> None:
    assert game.is_over and game.end_reason == "hands" and len(game.results) == 7
    assert all(score <= 0 for score in game.scores)  # points against, as negative scores
    assert game.winner is not None and game.scores[game.winner] == max(game.scores)


@pytest.fixture(scope="module")
def variant() -> rummykit.Variant:
    return rummykit.load_variant("contract-rummy")


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, RANDOM_GAMES, 25))
def test_random_bots(variant: rummykit.Variant, first: int) -> None:
    for seed in range(first, first + 25):
        finished(play_game(variant, seed, bots=["random"] * (3 + seed % 6), on_action=check))


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, GREEDY_GAMES, 10))
def test_greedy_bots(variant: rummykit.Variant, first: int) -> None:
    for seed in range(first, first + 10):
        finished(play_game(variant, seed, bots=["greedy"] * (3 + seed % 6), on_action=check))
