"""Hostile plugins, records and processes: a plugin that fails again while its failure is undone, records
that nest deeply or carry terminal escapes, and worker processes whose parent is killed or interrupted."""

from __future__ import annotations

from pathlib import Path

import pytest

import rummykit
from rummykit.bots import make_bot
from rummykit.dispatch import GameBroken, PluginError

# -- a plugin that fails again while its failure is undone -------------------------------------------------

AGAIN = """
import rummykit

calls = []


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    calls.append(1)
    deal.state["calls"] = len(calls)  # an edit of the deal's state that a failure must not leave behind
    if len(calls) > 6 and len(calls) % 2 == 0:
        raise RuntimeError("every second call")
"""


def test_a_plugin_failing_again_while_the_game_is_restored_leaves_it_refusing_everything(tmp_path: Path) -> None:
    path = tmp_path / "again.py"
    path.write_text(AGAIN, encoding="utf-8")
    game = rummykit.load_variant("gin", plugins=[path]).new_game(seed=4)
    bots = [make_bot("greedy", seat) for seat in range(game.num_players)]
    for _ in range(100):
        action = bots[game.deal.actor].choose(game)
        try:
            game.apply(action)
        except PluginError as exc:
            error: PluginError = exc
            break
    else:
        raise AssertionError("the plugin never failed")
    # The failure was undone by playing the deal again, and the plugin failed again on the way: the game is
    # not as it was, and says so rather than going on from a half-restored state.
    assert isinstance(error, GameBroken), error
    assert str(error).startswith("plugin 'again' failed in hook rummykit_apply_action: RuntimeError: every second")
    assert "could not be restored" in str(error) and "\n" not in str(error)
    assert error.plugin == "again" and error.hook == "rummykit_apply_action"
    queries = [
        lambda: game.apply(action),
        lambda: game.apply("draw stock"),
        game.legal_actions,
        game.deal.legal_actions,
        lambda: game.resolve("draw stock"),
        lambda: game.observation(0),
        game.to_json,
        game.clone,
        game.check_cards,
        lambda: game.current_player,
    ]
    for query in queries:
        with pytest.raises(GameBroken, match="could not be restored"):
            query()
