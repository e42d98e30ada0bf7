"""Bot games and simulations.

:func:`play_game` plays one whole game between bots; :func:`simulate` plays many and sums them up in a
:class:`SimulationResult`. Every seed is derived from the master seed and the game's index only (and, for
bots, the seat), never from the order games are played in, so splitting a simulation over any number of
worker processes and adding the parts with :meth:`SimulationResult.combine` gives the identical result.

::

    from rummykit.simulate import simulate
    result = simulate("gin", games=1000, seed=1, bots=("greedy", "greedy"))
    result.wins, result.hand_kinds, result.average_scores
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, make_bot
from .engine import Action, Deal, Game, IllegalAction
from .variant import Variant, load_variant

__all__ = [
    "OnAction",
    "SimulationResult",
    "derive_seed",
    "game_seed",
    "bot_seed",
    "make_bots",
    "play_game",
    "simulate",
    "simulate_games",
    "replay_record",
]

OnAction = Callable[[Game, Deal, int, Action], None]
"""Called after each action as ``on_action(game, deal, seat, action)``: ``deal`` is the deal the action
was applied in (finished when ``deal.result`` is set; ``game.deal`` is then already the next deal)."""

_SEED_BITS = 63


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the sha256 of ``parts`` joined with ``:``; the same parts always give the same seed."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)


def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` (0-based) of a simulation with master seed ``seed``."""
    return derive_seed(seed, index)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game with seed ``seed``."""
    return derive_seed(seed, "bot", seat)


def _as_variant(variant: Variant | str) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


def _seat_count(variant: Variant, bots: Sequence[str | Bot], players: int | Sequence[str] | None) -> int:
    if players is None:
        return len(bots) if len(bots) > 1 else variant.min_players
    return players if isinstance(players, int) else len(players)


def make_bots(names: Sequence[str | Bot], seats: int, seed: int) -> list[Bot]:
    """One bot per seat: names (``random``, ``greedy``) are built with :func:`bot_seed`; bot objects are
    used as given. A single entry plays every seat. Raises ValueError when the counts differ and KeyError
    for an unknown bot name."""
    items = list(names)
    if len(items) == 1:
        items = items * seats
    if len(items) != seats:
        raise ValueError(f"{len(items)} bots for {seats} seats: name one bot per seat (or one for all)")
    return [make_bot(item, bot_seed(seed, seat)) if isinstance(item, str) else item for seat, item in enumerate(items)]


def play_game(
    variant: Variant | str,
    seed: int,
    bots: Sequence[str | Bot] = ("greedy", "greedy"),
    players: int | Sequence[str] | None = None,
    on_action: OnAction | None = None,
    max_hands: int | None = None,
    on_start: Callable[[Game], None] | None = None,
) -> Game:
    """Play a whole game between bots and return it.

    ``bots`` names one bot per seat (or one for every seat); ``players`` is a count or a list of names
    (default: one seat per bot). ``on_start(game)`` is called once the game is dealt, before any action;
    ``on_action`` after every action (see :data:`OnAction`). ``max_hands`` stops after that many hands
    even when the game is not over.
    """
    variant = _as_variant(variant)
    seats = _seat_count(variant, bots, players)
    chosen = make_bots(bots, seats, seed)
    game = variant.new_game(players=players if players is not None else seats, seed=seed)
    if on_start is not None:
        on_start(game)
    if on_action is None and max_hands is None:
        while not game.is_over:
            game.apply(chosen[game.deal.current].choose(game))
        return game
    while not game.is_over and (max_hands is None or len(game.hands) < max_hands):
        deal = game.deal
        seat = deal.current
        action = chosen[seat].choose(game)
        game.apply(action)
        if on_action is not None:
            on_action(game, deal, seat, action)
    return game


@dataclass
class SimulationResult:
    """What a simulation found. Every field except ``elapsed`` depends only on the variant, the bots, the
    master seed and the game indexes played."""

    variant: str
    house_rules: tuple[str, ...]
    seed: int
    bots: tuple[str, ...]
    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    """Games won, per seat."""
    hand_kinds: Counter[str] = field(default_factory=Counter)
    """Hands played, by how they ended (``knock``, ``gin``, ``undercut``, ``dead``...)."""
    total_scores: list[int] = field(default_factory=list)
    """Sum over the games of each seat's final score."""
    hands: int = 0
    actions: int = 0
    elapsed: float = 0.0
    """Seconds spent playing (wall clock)."""

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.total_scores:
            self.total_scores = [0] * self.players

    @property
    def average_scores(self) -> list[float]:
        """Average final score per seat."""
        return [total / self.games if self.games else 0.0 for total in self.total_scores]

    def add(self, game: Game) -> None:
        """Count one finished game."""
        self.games += 1
        if game.winner is not None:
            self.wins[game.winner] += 1
        for seat, score in enumerate(game.scores):
            self.total_scores[seat] += score
        for result in game.hands:
            self.hand_kinds[result.kind] += 1
        self.hands += len(game.hands)
        self.actions += sum(len(actions) for actions in game.history)

    def combine(self, other: SimulationResult) -> SimulationResult:
        """The sum of two parts of one simulation (for parallel runs; elapsed is the larger)."""
        if (self.variant, self.house_rules, self.seed, self.bots, self.players) != (
            other.variant,
            other.house_rules,
            other.seed,
            other.bots,
            other.players,
        ):
            raise ValueError("only parts of the same simulation (variant, house rules, seed, bots) combine")
        return SimulationResult(
            self.variant,
            self.house_rules,
            self.seed,
            self.bots,
            self.players,
            games=self.games + other.games,
            wins=[a + b for a, b in zip(self.wins, other.wins)],
            hand_kinds=self.hand_kinds + other.hand_kinds,
            total_scores=[a + b for a, b in zip(self.total_scores, other.total_scores)],
            hands=self.hands + other.hands,
            actions=self.actions + other.actions,
            elapsed=max(self.elapsed, other.elapsed),
        )

    def rate(self, count: int) -> float:
        """``count`` per second of ``elapsed``."""
        return count / self.elapsed if self.elapsed > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready). The timing fields are ``elapsed_seconds`` and the ``*_per_second`` ones."""
        return {
            "variant": self.variant,
            "house_rules": list(self.house_rules),
            "seed": self.seed,
            "bots": list(self.bots),
            "players": self.players,
            "games": self.games,
            "wins": list(self.wins),
            "hands": self.hands,
            "hand_kinds": dict(sorted(self.hand_kinds.items())),
            "actions": self.actions,
            "average_scores": [round(score, 3) for score in self.average_scores],
            "elapsed_seconds": round(self.elapsed, 6),
            "games_per_second": round(self.rate(self.games), 3),
            "hands_per_second": round(self.rate(self.hands), 3),
            "actions_per_second": round(self.rate(self.actions), 3),
        }


TIMING_FIELDS = ("elapsed_seconds", "games_per_second", "hands_per_second", "actions_per_second")
"""The keys of :meth:`SimulationResult.as_dict` that depend on the machine, not on the seed."""


def simulate_games(
    variant: Variant | str,
    indexes: Iterable[int],
    seed: int,
    bots: Sequence[str] = ("greedy", "greedy"),
    players: int | None = None,
) -> SimulationResult:
    """Play the games numbered ``indexes`` of the simulation with master seed ``seed`` (one part of it)."""
    variant = _as_variant(variant)
    seats = _seat_count(variant, bots, players)
    names = tuple(bots) * seats if len(bots) == 1 else tuple(bots)
    make_bots(names, seats, 0)  # refuse a wrong count or an unknown name before playing
    result = SimulationResult(variant.name, variant.house_rules, seed, names, seats)
    start = time.perf_counter()
    for index in indexes:
        result.add(play_game(variant, game_seed(seed, index), names, seats))
    result.elapsed = time.perf_counter() - start
    return result


def simulate(
    variant: Variant | str,
    games: int,
    seed: int,
    bots: Sequence[str] = ("greedy", "greedy"),
    players: int | None = None,
) -> SimulationResult:
    """Play ``games`` whole games between ``bots`` (one name per seat, or one for all) and sum them up.

    Game ``i`` uses the seed :func:`game_seed` ``(seed, i)`` and is the same game as
    ``play_game(variant, game_seed(seed, i), bots)``.
    """
    if games < 0:
        raise ValueError(f"the number of games is 0 or more, not {games}")
    return simulate_games(variant, range(games), seed, bots, players)


def replay_record(text: str, on_action: OnAction | None = None, on_start: Callable[[Game], None] | None = None) -> Game:
    """Replay a :meth:`Game.to_json` record on a fresh game, calling ``on_start(game)`` before the first
    action and ``on_action`` after every action.

    The record is first checked with :meth:`Game.from_json` (which raises ValueError when it does not
    replay); the returned game is the fresh one.
    """
    Game.from_json(text)
    record = json.loads(text)
    variant = load_variant(
        record["variant"], house_rules=record.get("house_rules", ()), options=record.get("options") or None
    )
    game = variant.new_game(players=record["players"], seed=record["seed"], deal=record.get("deal"))
    if on_start is not None:
        on_start(game)
    for actions in record["actions"]:
        for text_action in actions:
            if game.is_over:
                raise IllegalAction("record does not replay: the game ended before its last action")
            deal = game.deal
            seat = deal.current
            action = game.resolve(text_action)
            game.apply(action)
            if on_action is not None:
                on_action(game, deal, seat, action)
    return game
