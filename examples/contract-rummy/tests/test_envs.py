"""Contract Rummy through rummykit's reinforcement-learning environments (``rummykit.envs``, the ``rl``
extra; skipped without it): buying out of turn has its indices, a contract is committed as several melds,
and a random agent playing the masked indices plays whole games to their end, the mask exact at every step."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test  # noqa: E402

import rummykit  # noqa: E402
from rummykit import IllegalAction, envs  # noqa: E402
from rummykit.envs.encoding import Selection, Way  # noqa: E402


def accepted(game: rummykit.Game, text: str) -> bool:
    try:
        game.resolve(text)
    except IllegalAction:
        return False
    return True


def built(env: envs.RummyEnv, way: Way) -> bool:
    """Whether the builder reaches ``way`` step by step (``select X``, ``next meld``), each step legal, and
    its commit then carries out an action laying the same cards."""
    space, game = env.space, env.game
    assert game is not None
    selection = Selection()
    for g, group in enumerate(way.groups_sorted):
        if g:
            if space.next_index not in space.plan(game, selection):
                return False
            space.build(selection, space.next_index)
        for face in group:
            if space.select_base + face not in space.plan(game, selection):
                return False
            space.build(selection, space.select_base + face)
    done = space.plan(game, selection).get(space.commit_index[way.action.kind])
    return done is not None and Way.of(done).key == way.key


def check_position(env: envs.RummyEnv) -> None:
    """Every index masked 1 carries out an action the engine accepts; every action the engine lists is
    carried out by an index, or by the builder's steps and a commit."""
    game = env.game
    assert game is not None
    space = env.space
    for i, planned in env._plan.items():
        assert accepted(game, space.text(i) if planned is None else str(planned)) or planned is None
    for action in game.legal_actions():
        if action.kind in space.commits:
            assert built(env, Way.of(action)), str(action)
        else:
            assert space.listed(game, [action]), f"{action} has no index"


def test_the_declared_verbs_make_the_space() -> None:
    env = envs.env("contract-rummy", hands=1)
    verbs = env.variant.verbs
    assert verbs["buy"].shapes == {"bare"} and verbs["buy"].short == "b" and verbs["pass"].shapes == {"bare"}
    assert env.action_text(env.action_index("buy")) == "buy"
    with pytest.raises(KeyError):
        env.action_index("buy 7H")
    assert env.space.commits == ["meld"] and env.space.next_index >= 0


def test_pettingzoo_api() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not a NumPy array)")
        api_test(envs.env("contract-rummy", hands=1), num_cycles=20)


@pytest.mark.parametrize(("seed", "players"), [(0, 3), (1, 4), (2, 6)])
def test_a_random_agent_plays_whole_games_with_an_exact_mask(seed: int, players: int) -> None:
    """Seven deals each, the mask checked against the engine at every tenth step."""
    env = envs.env("contract-rummy", players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    steps = 0
    for _agent in env.agent_iter(max_iter=50_000):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if steps % 10 == 0 and not env.selections[env.game.deal.actor].faces:  # type: ignore[union-attr]
            check_position(env)
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal, env.game.legal_actions()  # type: ignore[union-attr]
        index = rng.choice(legal)
        kinds.add(env.action_text(index).split()[0])
        env.step(index)
        steps += 1
    game = env.game
    assert game is not None and game.is_over and game.end_reason == "hands" and len(game.results) == 7
    assert {"buy", "pass", "meld", "next"} <= kinds
    replay = game.variant.new_game(players=players, seed=game.seed)
    for hand in game.history:
        for text in hand:
            if not text.startswith("auto: "):
                replay.apply(text)
    assert replay.history == game.history and replay.scores == game.scores
