"""Reinforcement-learning environments for every variant: PettingZoo (AEC) and Gymnasium.

Needs the ``rl`` extra (``pip install '.[rl]'`` in rummykit's folder: numpy, pettingzoo, gymnasium); ``import rummykit``
does not. ``env(variant, ...)`` is a PettingZoo AEC environment for any variant; ``gym(variant, ...)`` one
seat of it as a single-agent Gymnasium environment against bots; ``vector(variant, num_envs, ...)`` many
games of it stepped together for self-play, with ``sample_masked`` drawing a legal index per game.
Importing this module registers ``rummykit/<variant>-v0`` with Gymnasium for every variant
(``gymnasium.make("rummykit/gin-v0", opponents="random")``). See ``docs/rl.md``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import Action, IllegalAction
from ..bots import Bot, bot_class, make_bot
from ..catalogue import list_variants
from ..engine import Game
from ..variant import Variant, load_variant
from .encoding import (
    FACES,
    SCORE_LIMIT,
    TABLE_SLOTS,
    ActionSpace,
    Encoder,
    Selection,
    carry_out,
    checked_seats,
    end_info,
    end_text,
)
from .vector import VectorEnv, sample_masked

__all__ = [
    "RummyEnv",
    "RummyGym",
    "VectorEnv",
    "env",
    "gym",
    "vector",
    "sample_masked",
    "ActionSpace",
    "Encoder",
    "TABLE_SLOTS",
    "FACES",
    "SCORE_LIMIT",
    "register_envs",
]

Observation = dict[str, npt.NDArray[Any]]


class RummyEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment playing one rummykit game; agents ``player_0`` ... in seat order.

    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; actions are indices of
    :attr:`space` (``action_text(i)``, ``action_index(text)``). Rewards are the change of each agent's score
    (its side's, in partnerships) at each step: hand scores when a hand ends, end-of-game bonuses at the end.
    """

    metadata = {"render_modes": ["ansi"], "name": "rummykit_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant: Variant,
        players: int | None = None,
        hands: int | None = None,
        render_mode: str | None = None,
        table_slots: int = TABLE_SLOTS,
    ):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.variant = variant
        self.players = checked_seats(variant, players, hands, table_slots)
        self.hands = hands
        self.render_mode = render_mode
        self.space = ActionSpace(variant, self.players, table_slots)
        self.encoder = Encoder.for_variant(variant, self.players, max_hands=1 if hands == 1 else None)
        self.deck_size = self.encoder.deck_size
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.agents = list(self.possible_agents)
        self.agent_selection = self.possible_agents[0]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        self.game: Game | None = None
        self.selections = [Selection() for _ in range(self.players)]
        self._plan: dict[int, Action | None] = {}
        """Per legal index of the agent to act, the engine action it carries out (None: a builder step)."""
        self._rewarded = False
        """Whether :attr:`rewards` holds the last step's non-zero rewards (cleared at the next step)."""
        self._side_scores: list[int] = []
        """Each side's score when rewards were last worked out."""
        self._rng = np.random.default_rng()

    # -- spaces ----------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space: the vector's bounds (``encoder.bounds()``) and the 0/1 mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(space.size)``, the same for every agent."""
        return self.action_spaces[agent]

    def action_text(self, index: int) -> str:
        """The text of action ``index`` (``discard 7H``, ``layoff 8C on 2``, ``select 7H``, ``meld``);
        IndexError outside ``0 .. space.size - 1``."""
        return self.space.text(index)

    def action_index(self, text: str) -> int:
        """The index of an action text (KeyError when the space has no such action)."""
        return self.space.index(text)

    # -- play ------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` makes it reproducible; ``options={"layout": {...}}`` prearranges the
        first deal as ``Variant.new_game(layout=...)`` does."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**62))
        self.space._cached = None  # answers about the previous game (whose id a new game may reuse)
        layout = (options or {}).get("layout")
        self.game = self.variant.new_game(
            players=self.players, seed=game_seed, layout=layout, max_hands=1 if self.hands == 1 else None
        )
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.selections = [Selection() for _ in range(self.players)]
        self._rewarded = False
        self._side_scores = self.game.side_scores()
        self._refresh()

    def _refresh(self) -> None:
        game = self.game
        assert game is not None
        if game.is_over:
            self._plan = {}
            for agent in self.agents:
                self.terminations[agent] = True
            return
        actor = game.deal.actor
        self._plan = self.space.plan(game, self.selections[actor])
        self.agent_selection = self.possible_agents[actor]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation now: new arrays at every call (a caller may keep or change them)."""
        game = self.game
        if game is None:
            game = self._started()  # the error
        seat = self._seat[agent]
        vector = self.encoder.encode_game(game, seat, self.selections[seat])
        mask = self.space.mask_of(self._plan if not game.is_over and game.deal.actor == seat else {})
        return {"observation": vector, "action_mask": mask}

    def legal(self) -> list[int]:
        """The legal indices for the agent to act now."""
        self._started()
        return sorted(self._plan)

    def _started(self) -> Game:
        """The game being played; RuntimeError before :meth:`reset`."""
        if self.game is None:
            raise RuntimeError("the environment has no game yet: call reset() first")
        return self.game

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward, termination, truncation and info (PettingZoo's ``last``);
        RuntimeError before :meth:`reset` and once every agent is done."""
        if self.game is None or not self.agents:
            self._ongoing()
        agent = self.agent_selection  # AECEnv.last, inline: it runs every step
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _ongoing(self) -> None:
        """RuntimeError before :meth:`reset`, and once every agent has been stepped out of a finished game."""
        game = self._started()
        if not self.agents:
            raise RuntimeError(f"the game is over ({end_text(game)}) and every agent is done: call reset()")

    def step(self, action: int | None) -> None:
        """Carry out index ``action`` for the agent to act (None once it is done); IllegalAction for an index
        masked 0."""
        agent = self.agent_selection
        try:
            index = operator.index(action)  # type: ignore[arg-type]
            engine_action = self._plan[index]  # empty before reset() and once the game is over
        except (TypeError, KeyError):
            self._ongoing()
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            text = self.space.described(action)
            raise IllegalAction(f"action {action!r} ({text}) is not legal now (its action_mask entry is 0)") from None
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step's rewards are not this one's
            self.rewards = dict.fromkeys(self.rewards, 0.0)
            self._rewarded = False
        if engine_action is None:  # a step of the meld builder
            selection = self.selections[self._seat[agent]]
            self.space.build(selection, index)
            self._plan = self.space.plan(game, selection)
        else:
            self._apply(engine_action)

    def apply_engine_action(self, action: Action | str) -> None:
        """Apply an engine action (or its text) for the seat acting now, as bots choose them; clears that
        seat's selection. Rewards are set as by :meth:`step` (the gym wrapper uses this for opponents)."""
        game = self.game
        assert game is not None
        self._cumulative_rewards[self.agent_selection] = 0.0
        if self._rewarded:
            self.rewards = dict.fromkeys(self.rewards, 0.0)
            self._rewarded = False
        self._apply(game.resolve(action))

    def _apply(self, action: Action) -> None:
        """Carry out ``action``; set the rewards (the change of each side's score) and add them up."""
        game = self.game
        assert game is not None
        self._side_scores, gained = carry_out(game, self.selections[game.deal.actor], action, self._side_scores)
        if gained is not None:
            self.rewards = {agent: gained[s] for agent, s in self._seat.items()}
            self._rewarded = True
            self._accumulate_rewards()
        self._refresh()
        if game.is_over:
            self.agent_selection = self.agents[0]
            self.infos = {agent: end_info(game) for agent in self.agents}

    def render(self) -> str | None:
        """The position as text for the seat to act (``render_mode="ansi"``); None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode='ansi'")
            return None
        game = self.game
        if game is None:
            return "(not started: call reset())"
        if game.is_over:
            return f"game over ({end_text(game)}); scores {game.scores}"
        deal = game.deal
        seat = deal.actor
        view = game.observation(seat)
        lines = [
            f"{game.variant.title}: deal {deal.number}, phase {deal.phase}, player_{seat} to act; scores {game.scores}",
            f"stock {len(deal.stock)}, pile top {view.get('discard_top') or '-'} ({len(deal.discard)} cards)",
        ]
        for i, entry in enumerate(view["table"]):
            lines.append(f"  meld {i} (player_{entry['owner']}): {' '.join(entry['cards'])}")
        lines.append(f"player_{seat} holds {' '.join(view['hand'])}")
        if view.get("must_use"):
            lines.append(f"must use {view['must_use']} (taken from the pile) in a meld or lay-off")
        selection = self.selections[seat]
        if selection.faces:
            groups = [*selection.closed(), selection.current()]
            texts = [" ".join(self.space.text(self.space.select_base + f)[7:] for f in g) for g in groups]
            lines.append("selected: " + " | ".join(texts))
        lines.append("legal: " + ", ".join(self.space.text(i) for i in self.legal()[:20]))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def env(
    variant: str | Path | Variant,
    house_rules: Iterable[str] = (),
    players: int | None = None,
    hands: int | None = None,
    plugins: Iterable[str | Path | ModuleType] = (),
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    table_slots: int = TABLE_SLOTS,
) -> RummyEnv:
    """A PettingZoo AEC environment for ``variant`` (a name, a ruleset file or a loaded Variant), with house
    rules, local plugin files and options as ``load_variant`` takes them. ``hands=1`` ends it after one
    hand; ``table_slots`` bounds the table melds lay-offs and swaps can address."""
    loaded = variant if isinstance(variant, Variant) else load_variant(str(variant), house_rules, options, plugins)
    return RummyEnv(loaded, players=players, hands=hands, render_mode=render_mode, table_slots=table_slots)


def vector(
    variant: str | Path | Variant,
    num_envs: int,
    house_rules: Iterable[str] = (),
    players: int | None = None,
    hands: int | None = None,
    plugins: Iterable[str | Path | ModuleType] = (),
    options: Mapping[str, Any] | None = None,
    table_slots: int = TABLE_SLOTS,
) -> VectorEnv:
    """``num_envs`` games of ``variant`` stepped together (:class:`VectorEnv`): the games of :func:`env`,
    every seat played by the caller, observations and masks as one array each."""
    loaded = variant if isinstance(variant, Variant) else load_variant(str(variant), house_rules, options, plugins)
    return VectorEnv(loaded, num_envs, players=players, hands=hands, table_slots=table_slots)


class RummyGym(gymnasium.Env[Observation, np.int64]):
    """One seat of a :class:`RummyEnv` as a single-agent Gymnasium environment; bots play the other seats.

    An episode is the game (or one hand with ``hands=1``); the reward is the change of the learner's
    (side's) score over its step and the opponents' moves after it."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # text has no frame rate; Gymnasium asks for one

    def __init__(
        self,
        aec: RummyEnv,
        opponents: str | Bot | Sequence[str | Bot] = "greedy",
        seat: int = 0,
        illegal_action_reward: float = 0.0,
    ):
        self.aec = aec
        self.illegal_action_reward = illegal_action_reward
        """The reward of an index whose mask entry is 0: such a step changes nothing (info says
        ``illegal_action``), as single-agent learners may ignore the mask."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < aec.players:
            raise ValueError(f"seat is a seat of this game, 0 to {aec.players - 1}, not {seat!r}")
        self.seat = int(seat)
        self.agent = aec.possible_agents[self.seat]
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents] * (aec.players - 1)
        named = list(opponents)
        if len(named) != aec.players - 1:
            raise ValueError(f"{aec.players - 1} opponents are needed, not {len(named)}")
        for opponent in named:
            if isinstance(opponent, str):
                bot_class(opponent)  # KeyError naming the bots, now rather than at reset()
            elif not callable(getattr(opponent, "choose", None)):
                raise TypeError(f"an opponent is a bot name or a bot (with a choose(game) method), not {opponent!r}")
        self.opponents: list[str | Bot] = named
        """Per opponent seat in turn order: a bot name (a new bot seeded from each episode's seed) or a bot
        object, used as it is (its own seed and budget)."""
        self.bots: dict[int, Bot] = {}
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.render_mode = aec.render_mode

    def action_text(self, index: int) -> str:
        """The text of action ``index`` (:meth:`RummyEnv.action_text`)."""
        return self.aec.action_text(index)

    def action_index(self, text: str) -> int:
        """The index of an action text (:meth:`RummyEnv.action_index`)."""
        return self.aec.action_index(text)

    def _others(self) -> float:
        aec = self.aec
        game = aec.game
        assert game is not None
        reward = 0.0
        while not game.is_over and game.deal.actor != self.seat:
            aec.apply_engine_action(self.bots[game.deal.actor].choose(game))
            reward += aec.rewards[self.agent]
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode (``seed`` seeds it and the named bots); the bots play until the learner's turn."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.aec.reset(seed=game_seed, options=options)
        others = [s for s in range(self.aec.players) if s != self.seat]
        self.bots = {
            s: make_bot(bot, game_seed + s) if isinstance(bot, str) else bot for s, bot in zip(others, self.opponents)
        }
        self._others()
        return self.aec.observe(self.agent), {}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Carry out the learner's index, then the bots' moves up to its next turn or the end."""
        aec = self.aec
        game = aec._started()
        if game.is_over:  # stepped again after the episode ended: it stays ended
            return aec.observe(self.agent), 0.0, True, False, end_info(game)
        if int(action) not in aec._plan:
            observation = aec.observe(self.agent)
            return observation, self.illegal_action_reward, False, False, {"illegal_action": True}
        aec.step(int(action))
        reward = aec.rewards[self.agent]
        reward += self._others()
        info: dict[str, Any] = end_info(game) if game.is_over else {}
        return aec.observe(self.agent), reward, game.is_over, False, info

    def render(self) -> str | None:
        """:meth:`RummyEnv.render`."""
        return self.aec.render()


def gym(
    variant: str | Path | Variant,
    opponents: str | Bot | Sequence[str | Bot] = "greedy",
    seat: int = 0,
    house_rules: Iterable[str] = (),
    players: int | None = None,
    hands: int | None = None,
    plugins: Iterable[str | Path | ModuleType] = (),
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    table_slots: int = TABLE_SLOTS,
    illegal_action_reward: float = 0.0,
) -> RummyGym:
    """A single-agent Gymnasium environment: seat ``seat`` of :func:`env` against bots: a bot name
    (``random``, ``greedy``, ``outs``, ``search``; a new bot each episode, seeded from its seed) or a bot
    object (``SearchBot(seed, iterations=8)``, used as it is), one for all opponents or one per opponent
    seat. An index whose mask entry is 0 changes nothing and is rewarded ``illegal_action_reward``."""
    aec = env(variant, house_rules, players, hands, plugins, options, render_mode, table_slots)
    return RummyGym(aec, opponents, seat, illegal_action_reward)


def register_envs() -> list[str]:
    """Register ``rummykit/<variant>-v0`` with Gymnasium for every shipped variant (done when this module is
    imported); ids already registered are left as they are. ``gymnasium.make(id, **kwargs)`` calls
    :func:`gym` with the variant and ``kwargs`` (``players``, ``seat``, ``opponents``, ``house_rules``,
    ``options``, ``hands``...). Returns the ids."""
    ids = []
    for info in list_variants():
        env_id = f"rummykit/{info.name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="rummykit.envs:gym", kwargs={"variant": info.name})
        ids.append(env_id)
    return ids


register_envs()
