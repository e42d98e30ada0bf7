"""rummykit.envs: observation spaces with finite, true bounds, and registration with Gymnasium.

Every variant and player count declares finite bounds, every observation the AEC environment, the gym
wrapper and the vector environment produce lies within them, Gymnasium's and PettingZoo's checkers raise no
warning about bounds, and ``gymnasium.make("rummykit/<variant>-v0")`` makes every variant.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import rummykit  # noqa: E402
from rummykit import envs  # noqa: E402

VARIANTS = [info.name for info in rummykit.list_variants() if info.package == "rummykit"]
SEATINGS = [
    (name, n)
    for name in VARIANTS
    for n in range(rummykit.load_variant(name).min_players, rummykit.load_variant(name).max_players + 1)
]
IDS = [f"{v}-{n}" for v, n in SEATINGS]
BOUND_WARNINGS = (
    r".*(infinity|maximum and minimum|minimum and maximum|values are equal|low value is greater"
    r"|not within the observation space)"
)
"""Gymnasium's and PettingZoo's warnings about a space's bounds, and about an observation outside them."""


@contextmanager
def bound_warnings_fail() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=BOUND_WARNINGS)
        yield


def _box(env: envs.RummyEnv, agent: str = "player_0") -> gymnasium.spaces.Box:
    space = env.observation_space(agent)["observation"]
    assert isinstance(space, gymnasium.spaces.Box)
    return space


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_bounds_are_finite_and_apart(name: str, players: int) -> None:
    for hands in (None, 1):
        env = envs.env(name, players=players, hands=hands)
        box = _box(env)
        assert box.dtype == np.float32 and box.shape == (env.encoder.size,)
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all(), name
        assert (box.low < box.high).all(), name  # Gymnasium's checker warns where they are equal
        assert box.is_bounded("both")
        low, high = env.encoder.bounds()
        assert np.array_equal(low, box.low) and np.array_equal(high, box.high)


def test_bounds_are_the_encoders_features() -> None:
    """Counts up to the copies of a face in the deck, 0/1 flags, sizes over the deck, scores over the target
    within the clip, the deal number over 100 up to the hand limit."""
    gin = envs.env("gin")
    low, high = gin.encoder.bounds()
    planes = gin.encoder.planes * envs.FACES
    assert (low == 0)[: gin.encoder.rest].all()
    assert high[: envs.FACES - 1].tolist() == [1.0] * 52  # one deck: one copy of each card
    assert high[envs.FACES - 1] == 1.0  # no joker in Gin: 0 always, bounded [0, 1] rather than [0, 0]
    assert (high[planes : gin.encoder.rest] == 1).all()  # phase, acting, actor one-hots
    n = gin.players
    sizes = high[gin.encoder.rest : gin.encoder.rest + n + 2]
    assert sizes.tolist() == [1.0] * (n + 2)
    scores = slice(gin.encoder.rest + n + 2, gin.encoder.rest + 2 * n + 2)
    assert low[scores].tolist() == [-envs.SCORE_LIMIT] * n and high[scores].tolist() == [envs.SCORE_LIMIT] * n
    deal, selected, cuts = high[-3:]
    assert deal == 10.0  # the default hand limit, 1000 hands, over 100
    assert selected == cuts == 52
    assert envs.env("gin", hands=1).encoder.bounds()[1][-3] == np.float32(0.01)
    assert envs.env("skarney").encoder.bounds()[1][-3] == np.float32(0.5)  # its ruleset's max_hands: 50
    fortune = envs.env("fortune", players=3, house_rules=["joker"]).encoder
    assert fortune.bounds()[1][: envs.FACES].tolist() == [2.0] * 52 + [1.0]  # two decks and one joker
    wilds = fortune.plane_names().index("wilds on table of seat +0 stand for")
    assert fortune.bounds()[1][wilds * envs.FACES] == 9.0  # eight deuces and the joker


def _check_every_view(env: envs.RummyEnv) -> None:
    for agent in env.possible_agents:
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation), _outside(env, agent, observation["observation"])


def _outside(env: envs.RummyEnv, agent: str, vector: object) -> str:
    box = _box(env, agent)
    values = np.asarray(vector)
    wrong = np.flatnonzero((values < box.low) | (values > box.high))[:5].tolist()
    return f"{agent}: entries {wrong} = {values[wrong].tolist()} outside {box.low[wrong]}..{box.high[wrong]}"


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_aec_observations_lie_in_the_space(name: str, players: int) -> None:
    """Random masked games (one hand each), every seat's observation at every step."""
    env = envs.env(name, players=players, hands=1)
    rng = random.Random(players)
    for seed in range(2):
        env.reset(seed=seed)
        _check_every_view(env)
        for agent in env.agent_iter(max_iter=3000):
            observation, _, termination, truncation, _ = env.last()
            assert env.observation_space(agent).contains(observation)
            env.step(None if termination or truncation else rng.choice(env.legal()))
            if env.agents:
                _check_every_view(env)


@pytest.mark.parametrize(
    ("name", "players"), [("gin", 2), ("gin-3", 3), ("500-rum", 3), ("fortune", 2), ("skarney-singles", 2)]
)
def test_whole_games_lie_in_the_space(name: str, players: int) -> None:
    """Whole games (scores, deal numbers and the end-of-game bonuses) through the gym wrapper against
    greedy bots, with a learner playing random legal indices."""
    gym = envs.gym(name, opponents="greedy", players=players)
    rng = np.random.default_rng(1)
    observation, _ = gym.reset(seed=1)
    assert gym.observation_space.contains(observation)
    for _ in range(20_000):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, done, _, info = gym.step(action)
        assert gym.observation_space.contains(observation), _outside(gym.aec, gym.agent, observation["observation"])
        if done:
            break
    assert done and info["end_reason"] in ("target", "hands"), info


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_gym_observations_lie_in_the_space(name: str, players: int) -> None:
    gym = envs.gym(name, opponents="random", seat=players - 1, players=players, hands=1)
    rng = np.random.default_rng(players)
    for seed in range(2):
        observation, _ = gym.reset(seed=seed)
        assert gym.observation_space.contains(observation)
        done = False
        while not done:
            # an index masked 0 now and then: the unchanged observation is in the space too (and every index
            # is masked 0 where the bots ended the hand before this seat's first turn: the step says it ended)
            legal = np.flatnonzero(observation["action_mask"])
            wrong = rng.random() < 0.05 or not legal.size
            action = int(rng.integers(gym.action_space.n)) if wrong else int(rng.choice(legal))
            observation, _, done, _, _ = gym.step(action)
            assert gym.observation_space.contains(observation)


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_vector_rows_lie_in_the_space(name: str, players: int) -> None:
    """The vector environment's rows lie within the space the AEC environment of the same variant declares
    (its encoder's bounds), across games ended and replaced."""
    venv = envs.vector(name, 4, players=players, hands=1)
    box = _box(envs.env(name, players=players, hands=1))
    observations, masks = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    ended_games = 0
    for _ in range(600):
        for row in observations:
            assert box.contains(row)
        observations, masks, _, ended, _ = venv.step(envs.sample_masked(masks, rng))
        ended_games += int(ended.sum())
    assert ended_games >= 1


def test_scores_beyond_the_limit_are_clipped() -> None:
    """Scores are over the target (else 100), clipped to [-SCORE_LIMIT, SCORE_LIMIT]: the same in the fast
    encoder, the text encoder and the vector environment; scores within it are unchanged."""
    env = envs.env("500-rum", players=3)
    env.reset(seed=1)
    game = env.game
    assert game is not None
    limit = envs.SCORE_LIMIT
    game.scores[:] = [limit * 500 + 1, -(10**9), 123]
    start = env.encoder.rest + 3 + 2
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation)
        scores = observation["observation"][start : start + 3]
        expected = np.roll(np.array([limit, -limit, 123 / 500], dtype=np.float32), -seat)
        assert np.array_equal(scores, expected), (seat, scores)
        text = env.encoder.encode(game.observation(seat), env.selections[seat], len(game.deck))
        assert np.array_equal(observation["observation"], text)
    venv = envs.vector("500-rum", 1, players=3)
    venv.reset(seed=1)
    venv.games[0].scores[:] = [limit * 500 + 1, -(10**9), 123]
    row = venv._observe()[0][0]
    seat = int(venv.actor[0])
    assert np.array_equal(row[start : start + 3], np.roll(np.array([limit, -limit, 123 / 500], np.float32), -seat))


def test_the_hand_limit_bounds_the_deal_number() -> None:
    """A ruleset's max_hands (here an option) is the deal number's bound; games stopped by it stay inside."""
    env = envs.env("gin", options={"max_hands": 3})
    assert env.encoder.bounds()[1][-3] == np.float32(0.03)
    rng = random.Random(0)
    env.reset(seed=0)
    for agent in env.agent_iter(max_iter=100_000):
        observation, _, termination, truncation, _ = env.last()
        assert env.observation_space(agent).contains(observation)
        env.step(None if termination or truncation else rng.choice(env.legal()))
    assert env.game is not None and len(env.game.results) == 3


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_gymnasium_checker_has_no_bound_warnings(name: str, players: int) -> None:
    for hands in (1, None):
        with bound_warnings_fail():
            check_env(envs.gym(name, players=players, hands=hands).unwrapped, skip_render_check=True)


@pytest.mark.parametrize(("name", "players"), SEATINGS, ids=IDS)
def test_pettingzoo_api_test_has_no_bound_warnings(name: str, players: int) -> None:
    with bound_warnings_fail():
        api_test(envs.env(name, players=players, hands=1), num_cycles=30)


# -- registration --------------------------------------------------------------------------------------


def test_every_variant_is_registered() -> None:
    ids = {f"rummykit/{info.name}-v0" for info in rummykit.list_variants()}  # installed games' too
    assert ids <= set(gymnasium.registry)
    assert ids == set(envs.register_envs())


@pytest.mark.parametrize("name", VARIANTS)
def test_gymnasium_make_makes_every_variant(name: str) -> None:
    """With Gymnasium's own wrappers (its passive checker among them): bound warnings are errors."""
    with bound_warnings_fail():
        env = gymnasium.make(f"rummykit/{name}-v0", hands=1, opponents="random")
        assert isinstance(env.unwrapped, envs.RummyGym)
        assert env.unwrapped.aec.variant.name == rummykit.load_variant(name).name
        observation, _ = env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(30):
            legal = np.flatnonzero(observation["action_mask"])  # none: the hand ended first (Gin for three's dealer)
            observation, _, done, _, _ = env.step(int(rng.choice(legal)) if legal.size else 0)
            assert env.observation_space.contains(observation)
            if done:
                observation, _ = env.reset()
        env.close()


def test_gymnasium_make_passes_options_to_the_environment() -> None:
    env = gymnasium.make(
        "rummykit/500-rum-v0",
        players=4,
        seat=2,
        opponents=["greedy", "random", "outs"],
        house_rules=["one-joker"],
        options={"target": 300},
        hands=1,
        illegal_action_reward=-1.0,
    )
    gym = env.unwrapped
    assert isinstance(gym, envs.RummyGym)
    assert gym.aec.players == 4 and gym.seat == 2 and gym.agent == "player_2"
    assert gym.opponents == ["greedy", "random", "outs"] and gym.illegal_action_reward == -1.0
    assert gym.aec.variant.ruleset["target"] == 300 and "one-joker" in gym.aec.variant.house_rules
    assert gym.aec.hands == 1
    assert env.spec is not None and env.spec.kwargs["players"] == 4
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("rummykit/gin-v0", seat=2)


def test_make_without_importing_rummykit_first() -> None:
    """``module:id``: Gymnasium imports rummykit.envs, whose import registers every variant."""
    code = (
        "import sys, gymnasium\n"
        "assert 'rummykit' not in sys.modules\n"
        "env = gymnasium.make('rummykit.envs:rummykit/gin-v0', hands=1)\n"
        "observation, info = env.reset(seed=1)\n"
        "assert env.observation_space.contains(observation)\n"
        "print(env.unwrapped.aec.variant.name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == rummykit.load_variant("gin").name


def test_importing_again_registers_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envs.register_envs()


def test_gymnasium_make_renders_and_vectorises_without_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make("rummykit/gin-v0", render_mode="ansi", hands=1)
        env.reset(seed=1)
        assert env.render().startswith("Gin Rummy: deal 1")
        vector = gymnasium.make_vec("rummykit/gin-v0", num_envs=2, hands=1, opponents="random")
        observations, _ = vector.reset(seed=0)
        assert vector.observation_space.contains(observations)
        actions = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
        observations, *_ = vector.step(actions)
        assert vector.observation_space.contains(observations)
