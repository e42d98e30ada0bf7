"""Game.clone() and pickling: independent copies that go on exactly as the original would."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest

import rummykit
from rummykit.engine import Game

VARIANTS = [
    ("gin", 2),
    ("oklahoma-gin", 2),
    ("gin-3", 3),
    ("gin-partnership", 4),
    ("500-rum", 3),
    ("500-partnership", 4),
    ("persian", 4),
]


def play(game: Game, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def state(game: Game) -> tuple[object, ...]:
    deal = game.deal
    return (
        game.to_json(),
        [list(map(str, hand)) for hand in deal.hands],
        list(map(str, deal.stock)),
        list(map(str, deal.discard)),
        [str(tm) for tm in deal.table],
        deal.phase,
        deal.current,
        game.rng.getstate(),
    )


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_clone_is_independent_and_goes_on_identically(name: str, players: int) -> None:
    game = rummykit.load_variant(name).new_game(players=players, seed=11)
    play(game, random.Random(1), 40)
    before = state(game)
    twin = game.clone()
    assert twin.variant is game.variant
    assert state(twin) == before

    play(twin, random.Random(2), 200)  # long enough to cross into later deals, reshuffling from the game's rng
    assert state(game) == before, "playing the clone changed the original"

    play(game, random.Random(2), 200)
    assert state(game) == state(twin)


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_games_pickle_and_deepcopy(name: str, players: int) -> None:
    game = rummykit.load_variant(name).new_game(players=players, seed=5)
    play(game, random.Random(3), 25)
    copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    play(game, random.Random(4), 60)
    for copied in copies:
        assert copied.variant is game.variant  # loaded again by name in this process: the same object
        play(copied, random.Random(4), 60)
        assert state(copied) == state(game)


def test_pickle_keeps_house_rules_options_and_local_plugins(undercut_double_plugin: Path) -> None:
    variant = rummykit.load_variant(
        "gin", house_rules=["undercut-double"], options={"target": 150}, plugins=[undercut_double_plugin]
    )
    game = variant.new_game(seed=2)
    copied = pickle.loads(pickle.dumps(game))
    assert copied.variant is variant
    assert copied.variant.house_rules == ("undercut-double",)
    assert copied.variant.ruleset["target"] == 150


@pytest.mark.parametrize("name", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_clone_after_finished_hands(name: str) -> None:
    """A clone shares what finished hands left (their actions and results) and the generator's state with
    nothing: playing either on, through further hands, leaves the other as it was."""
    from rummykit.bots import GreedyBot

    game = rummykit.load_variant(name).new_game(seed=21)
    bots = [GreedyBot(seat) for seat in range(game.num_players)]
    while not game.is_over and len(game.results) < 2:
        game.apply(bots[game.deal.actor].choose(game))
    if game.is_over:
        pytest.skip("the game ended within two hands")
    play(game, random.Random(5), 7)
    before = state(game)
    twin = game.clone()
    assert state(twin) == before

    play(twin, random.Random(6), 400)  # into later hands: new deals from the clone's own generator
    assert state(game) == before, "playing the clone changed the original"
    play(game, random.Random(6), 400)
    assert state(game) == state(twin)
    assert game.history == twin.history and game.results == twin.results
