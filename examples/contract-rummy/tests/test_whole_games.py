"""Whole games of Contract Rummy between bots, every card checked after every action: 200 of random bots and
50 of greedy ones, at every player count from three to eight."""

from __future__ import annotations

import pytest

import rummykit
from rummykit import Game
from rummykit.engine import TURN_LIMIT, Action, Deal
from rummykit.simulate import play_game

RANDOM_GAMES = 200
GREEDY_GAMES = 50


def check(game: Game, deal: Deal, seat: int, action: Action) -> None:
    game.check_cards()
    assert deal.card_count() == len(game.deck)


def finished(game: Game) -> None:
    # Seven scored deals, one per contract in order. A deal that goes round in circles is abandoned at the turn
    # limit (1000 turns) and dealt again: greedy's seed 35 (eight players) once drew and discarded for ever in
    # its seventh deal, four players holding 17 cards and no contract, four holding a card or two.
    played = [r for r in game.results if r.kind != TURN_LIMIT]
    assert game.is_over and game.end_reason == "hands" and [r.details["deal"] for r in played] == list(range(1, 8))
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


def test_a_deal_abandoned_at_the_turn_limit_is_dealt_again_with_the_same_contract() -> None:
    # (Its random deals last 20 to 400 turns: the limit cuts about a third of them.)
    variant = rummykit.load_variant("contract-rummy", options={"max_turns": 120})
    abandoned = 0
    for seed in range(4):
        game = play_game(variant, seed, bots=["random"] * 3, on_action=check)
        abandoned += sum(1 for r in game.results if r.kind == TURN_LIMIT)
        finished(game)
        assert game.scores == [sum(r.scores[s] for r in game.results) for s in range(3)]
    assert abandoned
