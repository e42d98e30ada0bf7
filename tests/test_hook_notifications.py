"""rummykit_action_applied: every action, chosen or made by the rules, is reported once, in order, after it
was carried out and recorded."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rummykit

WATCHER = """
import rummykit


@rummykit.hookimpl
def rummykit_action_applied(deal, seat, action):
    # Recorded already: the action is the log's last entry when the plugin hears of it.
    assert deal.log[-1] == (seat, action)
    deal.state.setdefault("watched", []).append((seat, str(action), len(deal.log)))
"""


@pytest.fixture
def watcher(tmp_path: Path) -> Path:
    path = tmp_path / "watcher.py"
    path.write_text(WATCHER, encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "players"), [("iceberg", 3), ("skarney", 4), ("gin", 2), ("oklahoma-gin", 2)])
def test_every_action_is_reported_once_in_order_with_its_seat(watcher: Path, name: str, players: int) -> None:
    game = rummykit.load_variant(name, plugins=[watcher]).new_game(players=players, seed=11)
    rng = random.Random(5)
    deals = [game.deal]
    automatic = 0
    for _ in range(400):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        if game.deal is not deals[-1]:
            deals.append(game.deal)
    for deal in deals:
        watched = deal.state.get("watched", [])
        assert watched == [(seat, str(action), n) for n, (seat, action) in enumerate(deal.log, start=1)]
        automatic += sum(1 for seat, action in deal.log if action.kind in ("take up", "expose"))
    assert sum(len(d.log) for d in deals) > 50
    if name == "iceberg":
        assert automatic > 0  # the moves the rules make are reported too


def test_the_game_plays_the_same_with_a_watcher(watcher: Path) -> None:
    plain = rummykit.load_variant("skarney").new_game(players=4, seed=3)
    watched = rummykit.load_variant("skarney", plugins=[watcher]).new_game(players=4, seed=3)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(300):
        if plain.is_over:
            break
        plain.apply(rng_a.choice(plain.legal_actions()))
        watched.apply(rng_b.choice(watched.legal_actions()))
    assert plain.scores == watched.scores
    assert [str(a) for _, a in plain.deal.log] == [str(a) for _, a in watched.deal.log]


ASKER = """
import rummykit


@rummykit.hookimpl
def rummykit_automatic_action(deal):
    deal.state["asked"] = deal.state.get("asked", 0) + 1
    return None


@rummykit.hookimpl
def rummykit_turn_started(deal, seat):
    deal.state.setdefault("turns", []).append((deal.turn, seat))
"""


def test_a_plugin_asked_at_every_action_and_turn_is_asked(tmp_path: Path) -> None:
    # Gin's own plugins name no moves the rules make and do not watch turns start, so its games do not call
    # those hooks; a plugin that implements them is called
    path = tmp_path / "asker.py"
    path.write_text(ASKER, encoding="utf-8")
    game = rummykit.load_variant("gin", plugins=[path]).new_game(seed=4)
    rng = random.Random(2)
    played = 0
    while not game.is_over and played < 40:
        deal = game.deal
        asked = deal.state.get("asked", 0)
        game.apply(rng.choice(game.legal_actions()))
        if game.deal is deal:
            assert deal.state["asked"] == asked + 1
            played += 1
            turns = deal.state["turns"]
            assert turns[-1] == (deal.turn, deal.current)
            assert [turn for turn, _ in turns] == list(range(turns[0][0], deal.turn + 1))
    assert played >= 20


def test_a_game_pickled_before_the_hooks_were_looked_up_still_reports(watcher: Path) -> None:
    # A game unpickled from an earlier version has no record of which hooks are implemented: it calls them.
    game = rummykit.load_variant("gin", plugins=[watcher]).new_game(seed=8)
    for flag in ("_tells_applied", "_asks_automatic", "_tells_turn_started"):
        del game.__dict__[flag]
    rng = random.Random(3)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions()))
    watched = game.deal.state["watched"]
    assert watched == [(seat, str(action), n) for n, (seat, action) in enumerate(game.deal.log, start=1)]
    assert len(watched) == 10
