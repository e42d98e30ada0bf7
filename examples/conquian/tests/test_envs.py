"""Conquian through rummykit's reinforcement-learning environments (``rummykit.envs``, the ``rl`` extra;
skipped without it): its melds take the face-up card, which is not in the hand, and a random agent playing
the masked indices plays whole games to their end, the mask exact at every step."""

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
    env = envs.env("conquian", hands=1)
    verbs = env.variant.verbs
    assert {"pass", "force", "waive"} <= set(verbs) and verbs["pass"].shapes == {"bare"}
    assert env.action_text(env.action_index("force")) == "force"
    with pytest.raises(KeyError):
        env.action_index("pass 7H")  # passing names no card
    assert env.space.commits == ["meld"]
    assert env.action_text(env.action_index("layoff 5H on 3")) == "layoff 5H on 3"


def test_the_face_up_card_is_selected_towards_a_meld() -> None:
    """``meld 5H 5C 5D`` with 5H face up and 5C 5D in hand: the builder selects 5H though the hand does not
    hold it, and the commit melds it."""
    env = envs.env("conquian", hands=1)
    hands = [["5C", "5D", "KS", "QD", "7C", "2S", "3H", "JD", "AC", "4S"], ["KH", "QH", "JH", "7S", "6S"]]
    hands[1] += ["2D", "3D", "4D", "6C", "AD"]
    env.reset(seed=0, options={"layout": {"dealer": 1, "hands": hands, "stock": ["5H"]}})
    assert env.game is not None and str(env.game.deal.discard[-1]) == "5H" and env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert mask[env.action_index("select 5H")] and mask[env.action_index("pass")]
    for text in ("select 5H", "select 5C", "select 5D"):
        env.step(env.action_index(text))
    assert env.observe("player_0")["action_mask"][env.action_index("meld")]
    env.step(env.action_index("meld"))
    assert sorted(str(c) for c in env.game.deal.table[0].meld.cards) == ["5C", "5D", "5H"]
    assert env.game.deal.phase == "discard"


def test_pettingzoo_api() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not a NumPy array)")
        api_test(envs.env("conquian", hands=1), num_cycles=20)


@pytest.mark.parametrize("seed", range(4))
def test_a_random_agent_plays_whole_games_with_an_exact_mask(seed: int) -> None:
    env = envs.env("conquian")
    env.reset(seed=seed)
    rng = random.Random(seed)
    melds = 0
    for _agent in env.agent_iter(max_iter=20_000):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if not env.selections[env.game.deal.actor].faces:  # type: ignore[union-attr]
            check_position(env)
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal, env.game.legal_actions()  # type: ignore[union-attr]
        index = rng.choice(legal)
        melds += env.action_text(index) in ("meld", "layoff") or env.action_text(index).startswith("layoff")
        env.step(index)
    game = env.game
    assert game is not None and game.is_over and game.end_reason == "target"
    assert melds > 0
    replay = game.variant.new_game(players=2, seed=game.seed)
    for hand in game.history:
        for text in hand:
            if not text.startswith("auto: "):
                replay.apply(text)
    assert replay.history == game.history and replay.scores == game.scores
