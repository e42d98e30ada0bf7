"""Bot games and simulations.

:func:`play_game` plays one whole game between bots; :func:`simulate` plays many and sums them up in a
:class:`SimulationResult`. Every seed is derived from the master seed and the game's index only (and, for
bots, the seat), never from the order games are played in, so splitting a simulation over any number of
worker processes and adding the parts with :meth:`SimulationResult.combine` gives the identical result.

::

    from rummykit.simulate import simulate
    result = simulate("gin", games=1000, seed=1, bots=("greedy", "greedy"))
    result.wins, result.hand_kinds, result.average_scores

``simulate(..., jobs=J)`` plays contiguous chunks of games in ``J`` worker processes (``backend="ray"``:
as tasks on a Ray cluster) and adds the chunks up in index order, so every field but ``elapsed`` is the
same for any ``J`` and either backend. A result holds only counters, never the games, so memory stays
flat however many games are played.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO, TypeVar

from .bots import Bot, bot_seed, collector_paused, derive_seed, make_bots  # bot_seed, derive_seed, make_bots: exported
from .dispatch import PluginError
from .engine import Action, Deal, Game, check_max_hands, players_text
from .records import load_record, play_record
from .variant import ENTRY_POINT_GROUP, Variant, load_variant

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
    "BACKENDS",
    "TIMING_FIELDS",
    "Progress",
    "ProgressBar",
    "VariantSpec",
    "chunks",
    "WorkerLost",
]

OnAction = Callable[[Game, Deal, int, Action], None]
"""Called after each action as ``on_action(game, deal, seat, action)``: ``deal`` is the deal the action
was applied in (finished when ``deal.result`` is set; ``game.deal`` is then already the next deal)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` (0-based) of a simulation with master seed ``seed``."""
    return derive_seed(seed, index)


def _as_variant(variant: Variant | str) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


def _seat_count(variant: Variant, bots: Sequence[str | Bot], players: int | Sequence[str] | None) -> int:
    if players is None:
        return len(bots) if len(bots) > 1 else variant.min_players
    count = players if isinstance(players, int) else len(players)
    if not variant.min_players <= count <= variant.max_players:  # before a bot is built per seat: 10**9
        raise ValueError(players_text(variant, count))
    return count


def play_game(
    variant: Variant | str,
    seed: int,
    bots: Sequence[str | Bot] = ("greedy",),
    players: int | Sequence[str] | None = None,
    on_action: OnAction | None = None,
    max_hands: int | None = None,
    on_start: Callable[[Game], None] | None = None,
    *,
    hand_limit: int | None = None,
) -> Game:
    """Play a whole game between bots and return it.

    ``bots`` names one bot per seat (or one for every seat); ``players`` is a count or a list of names
    (default: one seat per bot). ``on_start(game)`` is called once the game is dealt, before any action;
    ``on_action`` after every action (see :data:`OnAction`). ``max_hands`` stops after that many hands
    even when the game is not over. ``hand_limit`` is the game's own hand limit (``new_game(max_hands=...)``):
    the game ends there, ``end_reason == "max-hands"``.
    """
    check_max_hands(max_hands)  # (the game's own limit is another: this one only stops the loop below)
    variant = _as_variant(variant)
    seats = _seat_count(variant, bots, players)
    count = players if players is not None else seats
    game = variant.new_game(players=count, seed=seed, max_hands=hand_limit)  # checks the count first
    chosen = make_bots(bots, seats, seed)
    if on_start is not None:
        on_start(game)
    if on_action is None and max_hands is None:
        while not game.is_over:
            game.apply(chosen[game.deal.actor].choose(game))
        return game
    while not game.is_over and (max_hands is None or len(game.results) < max_hands):
        deal = game.deal
        seat = deal.actor
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
    max_hands_games: int = 0
    """Games that ended at their hand limit (``Game.end_reason == "max-hands"``) rather than by their rules."""
    elapsed: float = 0.0
    """Seconds spent playing (wall clock)."""
    max_hands: int | None = None
    """The hand limit every game was played with (``new_game(max_hands=...)``); None: each game's own."""
    sides: tuple[tuple[int, ...], ...] = ()
    """In a partnership game, the seats of each side (``((0, 2), (1, 3))``): partners share a score, and a game
    is won by a side. Empty in games without partners."""

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.total_scores:
            self.total_scores = [0] * self.players

    @property
    def average_scores(self) -> list[float]:
        """Average final score per seat."""
        return [total / self.games if self.games else 0.0 for total in self.total_scores]

    @property
    def side_wins(self) -> list[int]:
        """Games won per side (per seat in games without partners)."""
        if not self.sides:
            return list(self.wins)
        return [sum(self.wins[seat] for seat in seats) for seats in self.sides]

    @property
    def side_average_scores(self) -> list[float]:
        """Average final score per side, the sum of its seats' (per seat in games without partners)."""
        if not self.sides:
            return self.average_scores
        averages = self.average_scores
        return [sum(averages[seat] for seat in seats) for seats in self.sides]

    def add(self, game: Game) -> None:
        """Count one finished game."""
        self.games += 1
        if game.winner is not None:
            self.wins[game.winner] += 1
        for seat, score in enumerate(game.scores):
            self.total_scores[seat] += score
        for result in game.results:
            self.hand_kinds[result.kind] += 1
        self.hands += len(game.results)
        self.actions += sum(len(actions) for actions in game.history)
        if game.end_reason == "max-hands":
            self.max_hands_games += 1

    def combine(self, other: SimulationResult) -> SimulationResult:
        """The sum of two parts of one simulation (for parallel runs; elapsed is the larger)."""
        if (self.variant, self.house_rules, self.seed, self.bots, self.players, self.max_hands, self.sides) != (
            other.variant,
            other.house_rules,
            other.seed,
            other.bots,
            other.players,
            other.max_hands,
            other.sides,
        ):
            raise ValueError("only parts of the same simulation (variant, house rules, seed, bots, hand limit) combine")
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
            max_hands_games=self.max_hands_games + other.max_hands_games,
            elapsed=max(self.elapsed, other.elapsed),
            max_hands=self.max_hands,
            sides=self.sides,
        )

    def rate(self, count: int) -> float:
        """``count`` per second of ``elapsed``."""
        return count / self.elapsed if self.elapsed > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready). The timing fields are ``elapsed_seconds`` and the ``*_per_second`` ones.

        In a partnership game ``sides`` lists the seats of each side, and ``wins`` and ``average_scores`` are
        per side (partners share a score); otherwise they are per seat."""
        data: dict[str, Any] = {
            "variant": self.variant,
            "house_rules": list(self.house_rules),
            "seed": self.seed,
            "bots": list(self.bots),
            "players": self.players,
        }
        if self.sides:
            data["sides"] = [list(seats) for seats in self.sides]
        return data | {
            "games": self.games,
            "wins": self.side_wins,
            "hands": self.hands,
            "hand_kinds": dict(sorted(self.hand_kinds.items())),
            "actions": self.actions,
            "average_scores": [round(score, 3) for score in self.side_average_scores],
            "max_hands": self.max_hands,
            "max_hands_games": self.max_hands_games,
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
    bots: Sequence[str] = ("greedy",),
    players: int | None = None,
    max_hands: int | None = None,
) -> SimulationResult:
    """Play the games numbered ``indexes`` of the simulation with master seed ``seed`` (one part of it), each
    with the hand limit ``max_hands`` (None: the game's own)."""
    check_max_hands(max_hands)
    variant = _as_variant(variant)
    seats = _seat_count(variant, bots, players)
    names = tuple(bots) * seats if len(bots) == 1 else tuple(bots)
    make_bots(names, seats, 0)  # refuse a wrong count or an unknown name before playing
    sides: tuple[tuple[int, ...], ...] = ()
    if variant.partnerships:
        count = max(map(variant.side_of, range(seats))) + 1
        sides = tuple(tuple(s for s in range(seats) if variant.side_of(s) == side) for side in range(count))
    result = SimulationResult(variant.name, variant.house_rules, seed, names, seats, max_hands=max_hands, sides=sides)
    start = time.perf_counter()
    for index in indexes:
        game = _play_in_bulk(variant, game_seed(seed, index), names, seats, hand_limit=max_hands)
        result.add(game)
        game._drop()  # the game and its deal refer to each other: freed now rather than by the collector
    result.elapsed = time.perf_counter() - start
    return result


def _play_in_bulk(variant: Variant, seed: int, bots: Sequence[str | Bot], players: int | None, **options: Any) -> Game:
    """:func:`play_game`, with Python's garbage collector paused while the game is played
    (:func:`~rummykit.bots.collector_paused`), for the loops that play game after game (:func:`simulate_games`,
    the house-rule lab). Each full collection walks every object the process keeps, the meld search's kept
    answers among them, and in a whole game it found next to nothing to free; the game's own cycles are freed
    once the collector runs again."""
    with collector_paused():
        return play_game(variant, seed, bots, players, **options)


BACKENDS = ("process", "ray")
"""Where :func:`simulate` plays its chunks of games: worker processes on this machine, or tasks on Ray."""

CHUNK_SIZE = 250
"""The most games in one chunk (one task of a worker)."""

RAY_MISSING = "the Ray backend needs the 'ray' extra: pip install '.[ray]' in rummykit's folder"

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: games finished so far, once with 0 before the first game and then
each time a chunk finishes (chunks finish in any order; ``done`` only grows)."""


@dataclass(frozen=True)
class VariantSpec:
    """What rebuilds a variant in another process: :class:`Variant` objects hold a plugin manager and do
    not pickle, so workers load the variant again from its name (or ruleset file), house rules, options
    and local plugin files (cached: once per worker)."""

    source: str
    house_rules: tuple[str, ...] = ()
    options_json: str = ""
    plugins: tuple[str, ...] = ()
    """Files of the local plugins (those not installed)."""

    @classmethod
    def of(cls, variant: Variant) -> VariantSpec:
        """The spec of ``variant``; raises ValueError when a local plugin has no file to load again."""
        installed = {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
        files = []
        for name in variant.plugin_names:
            module = variant.pm.get_plugin(name)
            if installed.get(name) == getattr(module, "__name__", None):
                continue  # an installed plugin: the ruleset or a house rule names it, and it loads by name
            file = getattr(module, "__file__", None)
            if not file:
                raise ValueError(f"plugin {name!r} has no file, so other processes cannot load it: use jobs=1")
            files.append(str(file))
        options = json.dumps(variant.options, sort_keys=True) if variant.options else ""
        return cls(variant.source_name, tuple(variant.house_rules), options, tuple(files))

    def load(self) -> Variant:
        """The variant this spec names, loaded again (in a worker: its name or file, house rules, options and
        local plugin files)."""
        options = json.loads(self.options_json) if self.options_json else None
        return load_variant(self.source, self.house_rules, options, self.plugins)


def chunks(games: int, jobs: int, size: int = CHUNK_SIZE) -> list[range]:
    """Game indexes ``0 .. games-1`` cut into contiguous ranges of at most ``size`` games, small enough
    that each of ``jobs`` workers gets about four (for an even load and a progress bar that moves)."""
    step = max(1, min(size, math.ceil(games / (max(jobs, 1) * 4))))
    return [range(first, min(first + step, games)) for first in range(0, games, step)]


def processes(games: int, jobs: int) -> int:
    """How many processes :func:`simulate` plays ``games`` games in with ``jobs`` (0: one per CPU) on this
    machine: no more than it has chunks of games, and one (this process) for a single chunk."""
    jobs = jobs or os.cpu_count() or 1
    ranges = chunks(games, jobs)
    return 1 if jobs == 1 or len(ranges) <= 1 else min(jobs, len(ranges))


class _RemotePluginError(Exception):
    """A :class:`PluginError` raised in a worker, in a form that pickles (the original may not)."""

    def __init__(self, plugin: str, hook: str, message: str):
        super().__init__(plugin, hook, message)
        self.plugin, self.hook, self.message = plugin, hook, message

    def local(self) -> PluginError:
        error = PluginError(self.plugin, self.hook, RuntimeError(self.message))
        error.args = (self.message,)
        return error


def _run_chunk(
    spec: VariantSpec,
    first: int,
    stop: int,
    seed: int,
    bots: tuple[str, ...],
    players: int | None,
    max_hands: int | None = None,
) -> SimulationResult:
    """Play games ``first .. stop-1`` (in a worker process or a Ray task)."""
    try:
        return simulate_games(spec.load(), range(first, stop), seed, bots, players, max_hands)
    except PluginError as exc:
        raise _RemotePluginError(exc.plugin, exc.hook, str(exc)) from None


Parts = Iterator[tuple[int, SimulationResult]]
"""(chunk number, its result) as chunks finish, in any order."""


def _in_process(
    variant: Variant,
    ranges: Sequence[range],
    seed: int,
    bots: tuple[str, ...],
    players: int | None,
    max_hands: int | None,
) -> Parts:
    for number, indexes in enumerate(ranges):
        yield number, simulate_games(variant, indexes, seed, bots, players, max_hands)


def _pool_context() -> Any:
    """forkserver where there is one (no fork of a process that may run threads, such as Ray's), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["rummykit.simulate"])
        return context
    return multiprocessing.get_context("spawn")


def _ignore_interrupts() -> None:
    """Workers leave ^C to the parent, which stops handing out chunks (no traceback from every worker).
    They start with SIGINT blocked (see :func:`_pool_map`), so a ^C while they start is ignored too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


_PR_SET_PDEATHSIG = 1


def _die_with_parent(lifeline: Any) -> None:
    """Make this worker process end when the process that started the pool ends, however it ends (SIGKILL
    included), rather than play on as an orphan holding the fork server and the resource tracker up.

    ``lifeline`` is the read end of a pipe whose only write end the pool's process holds: its end of file
    means that process is gone. A thread waits for it, since a worker's parent is the fork server, not
    that process. On Linux the kernel also kills the worker when its own parent dies."""
    _ignore_interrupts()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no usable libc: the thread below still watches
            pass

    def watch() -> None:
        try:
            while True:
                lifeline.recv_bytes()  # nothing is ever sent: this returns only by end of file
        except (EOFError, OSError):
            pass
        os._exit(1)

    threading.Thread(target=watch, name="rummykit-lifeline", daemon=True).start()


class WorkerLost(RuntimeError):
    """A worker process stopped before finishing its games (killed, or out of memory)."""


def _blocking_interrupts(block: bool) -> bool:
    """Block (or unblock) SIGINT in this thread when it can be; whether it could. A ^C that comes while
    it is blocked is raised when it is unblocked."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK if block else signal.SIG_UNBLOCK, {signal.SIGINT})
    return True


Result = TypeVar("Result")


def _in_worker(function: Callable[..., Result], *args: Any) -> Result:
    """``function(*args)`` in a worker, with a plugin's error made into one that pickles."""
    try:
        return function(*args)
    except PluginError as exc:
        raise _RemotePluginError(exc.plugin, exc.hook, str(exc)) from None


def _pool_map(
    function: Callable[..., Result], tasks: Sequence[tuple[Any, ...]], jobs: int
) -> Iterator[tuple[int, Result]]:
    """``function(*task)`` for every task in ``jobs`` worker processes: (task number, result) as each finishes.

    The one pool behind ``simulate`` and ``compare``: a few tasks queued per worker (memory stays flat), a
    plugin's error raised here as the same PluginError, ^C (or any error) stops the workers at once, a
    worker that dies is :class:`WorkerLost`, and workers end when this process ends (:func:`_die_with_parent`)."""
    context = _pool_context()
    lifeline, keep_alive = context.Pipe(duplex=False)
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(jobs, len(tasks))), mp_context=context, initializer=_die_with_parent,
        initargs=(lifeline,),
    )  # fmt: skip
    queue = iter(enumerate(tasks))
    pending: dict[Future[Result], int] = {}

    def submit() -> None:
        for number, task in queue:
            pending[pool.submit(_in_worker, function, *task)] = number
            return

    try:
        # Workers start with SIGINT blocked (they inherit the mask): a ^C while they import would print
        # a traceback from each. The parent gets the ^C once they have started.
        blocked = _blocking_interrupts(True)
        try:
            for _ in range(2 * jobs):
                submit()
        finally:
            if blocked:
                _blocking_interrupts(False)
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                number = pending.pop(future)
                submit()
                try:
                    result = future.result()
                except _RemotePluginError as exc:
                    raise exc.local() from None
                yield number, result
        pool.shutdown()
    except BaseException as exc:  # ^C, SIGTERM or an error: stop at once rather than after the tasks running
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        # Wait for the pool's own thread to see its workers gone (they were just stopped, so at once): left
        # running, it may close its wake-up pipe while the interpreter's exit still writes to it, and print
        # "Exception ignored ... Bad file descriptor" after the error the user should read.
        pool.shutdown(wait=True, cancel_futures=True)
        if isinstance(exc, BrokenProcessPool):  # when a result is awaited, or a task handed out
            raise WorkerLost("a worker process stopped before finishing its games (killed, or out of memory)") from None
        raise
    finally:
        lifeline.close()
        keep_alive.close()  # after the shutdown: a worker still stopping sees the end of file and leaves


def _tasks(
    spec: VariantSpec,
    ranges: Sequence[range],
    seed: int,
    bots: tuple[str, ...],
    players: int | None,
    max_hands: int | None,
) -> list[tuple[Any, ...]]:
    """The arguments of :func:`_run_chunk` for each chunk of games."""
    return [(spec, indexes.start, indexes.stop, seed, bots, players, max_hands) for indexes in ranges]


def _in_pool(
    spec: VariantSpec,
    ranges: Sequence[range],
    seed: int,
    bots: tuple[str, ...],
    players: int | None,
    jobs: int,
    max_hands: int | None = None,
) -> Parts:
    return _pool_map(_run_chunk, _tasks(spec, ranges, seed, bots, players, max_hands), jobs)


def _on_ray(
    spec: VariantSpec,
    ranges: Sequence[range],
    seed: int,
    bots: tuple[str, ...],
    players: int | None,
    jobs: int,
    address: str | None,
    max_hands: int | None = None,
) -> Parts:
    return _ray_map(_run_chunk, _tasks(spec, ranges, seed, bots, players, max_hands), jobs, address)


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ImportError(RAY_MISSING) from None


def _ray_map(
    function: Callable[..., Result], tasks: Sequence[tuple[Any, ...]], jobs: int, address: str | None
) -> Iterator[tuple[int, Result]]:
    """``function(*task)`` for every task as a Ray task: (task number, result) as each finishes.

    The Ray counterpart of :func:`_pool_map`, behind ``simulate`` and ``compare``: on the cluster Ray is
    already connected to (used as it is and left running), on the one at ``address`` (or ``RAY_ADDRESS``),
    or on a local instance of ``jobs`` CPUs (0: all) started here and shut down at the end. At most ``jobs``
    tasks run at once (0: the cluster's CPUs); a plugin's error is raised here as the same PluginError."""
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        import logging

        quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if address or os.environ.get("RAY_ADDRESS"):
            ray.init(address=address, **quiet)  # an existing cluster (RAY_ADDRESS when address is None)
        else:
            ray.init(num_cpus=jobs or None, include_dashboard=False, **quiet)  # a local instance
        started = True
    pending: dict[Any, int] = {}
    try:
        remote = ray.remote(_in_worker)
        window = 2 * (jobs or max(1, int(ray.cluster_resources().get("CPU", 1))))
        queue = iter(enumerate(tasks))

        def submit() -> None:
            for number, task in queue:
                pending[remote.remote(function, *task)] = number
                return

        for _ in range(window):
            submit()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                number = pending.pop(ref)
                submit()
                try:
                    result = ray.get(ref)
                except _RemotePluginError as exc:  # Ray's task error is also an instance of the cause's class
                    raise _RemotePluginError(exc.plugin, exc.hook, exc.message).local() from None
                yield number, result
    finally:
        # Tasks left when a plugin failed (or the caller stopped) are cancelled and their outcome collected:
        # an outcome never collected is logged by Ray later, from a thread, wherever the program then is.
        for ref in pending:
            ray.cancel(ref)
        for ref in pending:
            try:
                ray.get(ref, timeout=30)
            except Exception:  # cancelled or failed: either way nothing is left to report
                pass
        if started:
            ray.shutdown()


def simulate(
    variant: Variant | str,
    games: int,
    seed: int,
    bots: Sequence[str] = ("greedy",),
    players: int | None = None,
    *,
    jobs: int = 1,
    backend: str = "process",
    progress: Progress | None = None,
    ray_address: str | None = None,
    max_hands: int | None = None,
) -> SimulationResult:
    """Play ``games`` whole games between ``bots`` (one name per seat, or one for all) and sum them up.

    Game ``i`` uses the seed :func:`game_seed` ``(seed, i)`` and is the same game as
    ``play_game(variant, game_seed(seed, i), bots)``, whoever plays it.

    ``jobs`` worker processes play chunks of games (:func:`chunks`) at once; ``0`` means one per CPU
    (``os.cpu_count()``), and ``1`` plays them in this process. ``backend="ray"`` plays the chunks as Ray
    tasks instead: on the cluster Ray is already connected to, on the one at ``ray_address`` (or
    ``RAY_ADDRESS``), or else on a local instance of ``jobs`` CPUs (0: all) started for the simulation and
    shut down after it; ``jobs`` is then how many tasks run at once (0: the cluster's CPUs). The parts are
    added up in index order, so the result is identical (but for ``elapsed``, the wall-clock time of the
    whole run) for any ``jobs`` and either backend. ``progress`` is called as chunks finish (:data:`Progress`).
    ``max_hands`` is every game's hand limit (``new_game(max_hands=...)``; None: the game's own): a game ends
    there, and is counted in ``max_hands_games``.

    Raises ValueError for a bad count, backend or bot, and ImportError (naming the extra to install) for
    the Ray backend without Ray.
    """
    for name, count in (("games", games), ("jobs", jobs)):
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"{name} is a whole number, not {count!r}")
    if games < 0:
        raise ValueError(f"the number of games is 0 or more, not {games}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: the backends are {' and '.join(BACKENDS)}")
    if jobs < 0:
        raise ValueError(f"jobs is 0 (one per CPU) or more, not {jobs}")
    variant = _as_variant(variant)
    names = tuple(bots)
    total = simulate_games(variant, (), seed, names, players, max_hands)  # refuses bad bots before workers start
    start = time.perf_counter()
    parts: Parts
    if backend == "ray":
        ranges = chunks(games, jobs or os.cpu_count() or 1)
        parts = _on_ray(VariantSpec.of(variant), ranges, seed, names, players, jobs, ray_address, max_hands=max_hands)
    else:
        jobs = jobs or os.cpu_count() or 1
        ranges = chunks(games, jobs)
        if processes(games, jobs) == 1:
            parts = _in_process(variant, ranges, seed, names, players, max_hands)
        else:
            parts = _in_pool(VariantSpec.of(variant), ranges, seed, names, players, jobs, max_hands=max_hands)
    if progress is not None:
        progress(0, games)
    done = 0
    waiting: dict[int, SimulationResult] = {}
    following = 0
    for number, part in parts:
        done += part.games
        waiting[number] = part
        while following in waiting:  # add up in index order, holding only the chunks that came early
            total = total.combine(waiting.pop(following))
            following += 1
        if progress is not None:
            progress(done, games)
    total.elapsed = time.perf_counter() - start
    return total


class ProgressBar:
    """A one-line progress bar for a terminal: games done of the total, a bar, the rate and the time left.

    Call it as a :data:`Progress`; it redraws at most every ``interval`` seconds (and always at the end,
    where it ends its line). ``for_terminal`` gives one only when the stream is a terminal.
    """

    def __init__(
        self, stream: TextIO, width: int = 30, interval: float = 0.2, clock: Callable[[], float] = time.monotonic
    ):
        self.stream = stream
        self.width = width
        self.interval = interval
        self.clock = clock
        self.started: float | None = None
        self.shown = -math.inf
        self.finished = False

    @classmethod
    def for_terminal(cls, stream: TextIO | None = None) -> ProgressBar | None:
        """A bar on ``stream`` (default ``sys.stderr``) when it is a terminal, else None."""
        stream = stream if stream is not None else sys.stderr
        isatty = getattr(stream, "isatty", None)
        return cls(stream) if isatty is not None and isatty() else None

    def text(self, done: int, total: int, elapsed: float) -> str:
        """The bar for ``done`` of ``total`` games after ``elapsed`` seconds."""
        share = done / total if total else 1.0
        filled = round(self.width * share)
        rate = done / elapsed if elapsed > 0 else 0.0
        if done >= total:
            tail = f"in {_duration(elapsed)}"
        else:
            tail = f"ETA {_duration((total - done) / rate)}" if rate > 0 else "ETA --:--"
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {done:,}/{total:,} games "
                f"{share:4.0%}  {rate:,.1f} games/s  {tail}")  # fmt: skip

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.started is None:
            self.started = now
        if self.finished or (done < total and now - self.shown < self.interval):
            return
        self.shown = now
        self.stream.write("\r" + self.text(done, total, now - self.started) + "\x1b[K")
        if done >= total:
            self.stream.write("\n")
            self.finished = True
        self.stream.flush()

    def close(self) -> None:
        """End the line when the run stopped before the end (an error, ^C)."""
        if self.started is not None and not self.finished:
            self.stream.write("\n")
            self.stream.flush()
            self.finished = True


def _duration(seconds: float) -> str:
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def replay_record(
    text: str,
    on_action: OnAction | None = None,
    on_start: Callable[[Game], None] | None = None,
    plugins: Iterable[str | Path | ModuleType] = (),
    trust_plugins: bool = False,
) -> Game:
    """Replay a :meth:`Game.to_json` record on a fresh game, calling ``on_start(game)`` before the first
    action and ``on_action`` after every action.

    The record is checked first, on the same variant (its house rules, options and plugins), so nothing
    is shown of a record that does not replay (ValueError). Its local plugins are loaded only when passed
    in ``plugins`` or trusted with ``trust_plugins``, as for :meth:`Game.from_json`.
    """
    record, variant = load_record(text, plugins, trust_plugins)
    play_record(record, variant)
    return play_record(record, variant, on_start, on_action)
