"""Many games of one variant stepped together, for self-play at scale: one call steps every game, and the
observations and masks of all of them come back as two numpy arrays.

The games are those of :class:`~rummykit.envs.RummyEnv` (the same action space, observation, meld builder
and rewards), without the PettingZoo bookkeeping of one agent at a time. Every seat of every game is played
by the caller: each row is the observation of the seat to act in that game (:attr:`VectorEnv.actor`).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action, IllegalAction
from ..engine import Game
from ..variant import Variant
from .encoding import (
    SCORE_LIMIT,
    TABLE_SLOTS,
    ActionSpace,
    Encoder,
    Selection,
    carry_out,
    checked_seats,
    end_info,
)

__all__ = ["VectorEnv", "sample_masked"]


class VectorEnv:
    """``num_envs`` games of ``variant``, each started again as soon as it ends (``hands=1``: after one hand).

    :meth:`reset` and :meth:`step` return ``observations`` (``num_envs`` x :attr:`observation_size`,
    float32: each game's seat to act, as :class:`~rummykit.envs.RummyEnv` encodes it) and ``masks``
    (``num_envs`` x :attr:`action_size`, int8: 1 exactly where that seat's index is legal). :meth:`step`
    also returns ``rewards`` (``num_envs`` x players: the change of each seat's side score, non-zero when a
    hand ends), ``ended`` (the games that ended at this step) and ``infos`` (for an ended game, its final
    scores, end reason and the finished :class:`~rummykit.Game` itself). A game that ends is replaced at
    once by a new one (seeded from the environment's random generator), so the observation and mask
    returned for it are the new game's.
    """

    def __init__(
        self,
        variant: Variant,
        num_envs: int,
        players: int | None = None,
        hands: int | None = None,
        table_slots: int = TABLE_SLOTS,
    ):
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        self.variant = variant
        self.num_envs = num_envs
        self.players = checked_seats(variant, players, hands, table_slots)
        self.hands = hands
        space = ActionSpace(variant, self.players, table_slots)
        self.space = space
        """The action space (``text(i)``, ``index(text)``), shared by every game."""
        self.encoder = Encoder.for_variant(variant, self.players, max_hands=1 if hands == 1 else None)
        self.encoder.meld_cache_size = max(self.encoder.meld_cache_size, 256 * num_envs)
        self.observation_size = self.encoder.size
        self.action_size = space.size
        # one shallow copy of the space per game: each keeps its own position cache (the layout and the
        # index-by-id cache, which depends on the layout alone, are shared)
        self._spaces = [copy.copy(space) for _ in range(num_envs)]
        self.games: list[Game] = []
        """The games being played, one per row."""
        self.selections: list[list[Selection]] = []
        """Per game, each seat's meld builder selection."""
        self._plans: list[dict[int, Action | None]] = []
        self._side_scores: list[list[int]] = []
        self._actors: list[int] = []
        self._rng = np.random.default_rng()
        self._row_starts = np.arange(num_envs, dtype=np.intp) * self.observation_size
        self._mask_starts = np.arange(num_envs, dtype=np.intp) * self.action_size

    @property
    def actor(self) -> npt.NDArray[np.int64]:
        """Per game, the seat to act (whose observation and mask the row is)."""
        return np.array(self._actors, dtype=np.int64)

    def action_text(self, index: int) -> str:
        """The text of action ``index`` (as :meth:`RummyEnv.action_text <rummykit.envs.RummyEnv.action_text>`)."""
        return self.space.text(index)

    def action_index(self, text: str) -> int:
        """The index of an action text (KeyError when the space has no such action)."""
        return self.space.index(text)

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Start every game afresh (``seed`` makes the whole run reproducible); observations and masks."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        n = self.num_envs
        self.games = [self._new_game(i) for i in range(n)]
        self.selections = [[Selection() for _ in range(self.players)] for _ in range(n)]
        self._side_scores = [game.side_scores() for game in self.games]
        self._actors = [game.deal.actor for game in self.games]
        self._plans = [
            space.plan(game, s[a]) for space, game, s, a in zip(self._spaces, self.games, self.selections, self._actors)
        ]
        return self._observe()

    def _new_game(self, i: int) -> Game:
        self._spaces[i]._cached = None  # its cache answers about the game this one replaces
        return self.variant.new_game(
            players=self.players,
            seed=int(self._rng.integers(2**62)),
            max_hands=1 if self.hands == 1 else None,
        )

    def legal(self, i: int) -> list[int]:
        """The legal indices of game ``i`` now."""
        self._started()
        return sorted(self._plans[i])

    def _started(self) -> None:
        if not self.games:
            raise RuntimeError("the environment has no games yet: call reset() first")

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]:
        """Carry out one index in every game (``actions``: one per row, each masked 1). Raises
        :class:`~rummykit.actions.IllegalAction` naming the first game whose index is not legal, before any
        game moves."""
        self._started()
        array = np.asarray(actions)
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"actions are integer indices, not {array.dtype} values")
        chosen = array.reshape(-1).tolist()
        if len(chosen) != self.num_envs:
            raise ValueError(f"one action per game is needed: {self.num_envs}, not {len(chosen)}")
        plans = self._plans
        if not all(map(dict.__contains__, plans, chosen)):
            i, index = next((i, a) for i, (a, plan) in enumerate(zip(chosen, plans)) if a not in plan)
            text = self.space.described(index)
            raise IllegalAction(f"game {i}: action {index} ({text}) is not legal now (its mask entry is 0)")
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        games, spaces, actors = self.games, self._spaces, self._actors
        for i, index in enumerate(chosen):
            game = games[i]
            selection = self.selections[i][actors[i]]
            engine_action = plans[i][index]
            if engine_action is None:  # a step of the meld builder: the same seat goes on selecting
                spaces[i].build(selection, index)
                plans[i] = spaces[i].plan(game, selection)
                continue
            self._side_scores[i], gained = carry_out(game, selection, engine_action, self._side_scores[i])
            if gained is not None:
                rewards[i] = gained
            if game.is_over:
                ended[i] = True
                infos[i] = {**end_info(game), "game": game}
                game = games[i] = self._new_game(i)
                self.selections[i] = [Selection() for _ in range(self.players)]
                self._side_scores[i] = game.side_scores()
            actor = actors[i] = game.deal.actor
            plans[i] = spaces[i].plan(game, self.selections[i][actor])
        observations, masks = self._observe()
        return observations, masks, rewards, ended, infos

    def _observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Every game's observation and mask for its seat to act, in two arrays built with a few numpy calls
        for all the games (new arrays at every call)."""
        parts, n, size = self.encoder.parts, self.num_envs, self.observation_size
        cols: list[int] = []
        lengths: list[int] = []
        rests: list[int] = []
        counted = False
        mask_cols: list[int] = []
        mask_lengths: list[int] = []
        for game, selections, plan, seat in zip(self.games, self.selections, self._plans, self._actors):
            faces, once, rest = parts(game, seat, selections[seat])
            if not once:
                counted = True
            cols += faces
            lengths.append(len(faces))
            rests += rest
            mask_cols += plan
            mask_lengths.append(len(plan))
        # row offsets added in numpy (np.repeat) rather than per entry in Python
        flat = np.array(cols, dtype=np.intp) + np.repeat(self._row_starts, lengths)
        if counted:  # a card listed twice (two decks, wild cards): count per entry
            observations = np.bincount(flat, minlength=n * size).astype(np.float32).reshape(n, size)
        else:
            observations = np.zeros((n, size), dtype=np.float32)
            observations.put(flat, 1.0)
        scalars = np.array(rests, dtype=np.float64).reshape(n, -1) / self.encoder.divisors
        scores = scalars[:, self.encoder.score_columns]  # clipped as Encoder.encode_game clips them
        np.minimum(scores, SCORE_LIMIT, out=scores)
        np.maximum(scores, -SCORE_LIMIT, out=scores)
        observations[:, self.encoder.rest :] = scalars
        masks = np.zeros((n, self.action_size), dtype=np.int8)
        masks.put(np.array(mask_cols, dtype=np.intp) + np.repeat(self._mask_starts, mask_lengths), 1)
        return observations, masks


def sample_masked(masks: npt.NDArray[Any], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One index per row of ``masks``, uniformly among the row's 1s (random masked play for every game in
    one call). Every row needs a 1: a game not over always has a legal index."""
    masks = np.asarray(masks)
    if masks.ndim != 2:
        raise ValueError(f"masks is 2-D (one row per game), not of shape {masks.shape}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng is a numpy Generator (numpy.random.default_rng(seed)), not {rng!r}")
    n, width = masks.shape
    # flat positions of the 1s, row by row: flatnonzero of a bool array is many times quicker than nonzero
    flat = np.flatnonzero(masks if masks.dtype == np.bool_ else masks != 0)
    rows = flat // width
    counts = np.bincount(rows, minlength=n)
    if not counts.all():
        raise ValueError(f"row {int(np.argmin(counts))} of the masks has no legal index")
    picks = np.cumsum(counts) - counts + (rng.random(n) * counts).astype(np.int64)
    chosen: npt.NDArray[np.int64] = flat[picks] - rows[picks] * width
    return chosen
