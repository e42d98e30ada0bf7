"""Benchmark workloads. Each runs in its own process (so peak memory is its own) and prints one JSON line.

Run by ``benchmarks/run.py``; by hand: ``python benchmarks/tasks.py TASK SYSTEM '{"hands": 1000}'``.

Inputs are identical for every system: hands are drawn by ``random.Random(seed).sample(range(52), size)``
with rummykit faces (``suit * 13 + rank - 1``, suits ``C D H S``) and converted to each system's encoding
before the clock starts. Only the loop that computes answers is timed.
"""

from __future__ import annotations

import json
import os
import random
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

MELD10_SEED = 10_000
MELD11_SEED = 11_000
ENGINE_SEED = 20_000


def rss_mib() -> float:
    """Resident memory now, MiB."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mib(pid: int | None = None) -> float | None:
    """Peak resident memory so far, MiB, of this process or of process ``pid`` (None when it cannot be read).

    VmHWM, not ``ru_maxrss``: Linux carries ru_maxrss over a fork and exec, so a child would report its
    parent's peak (run.py's, holding every answer) whenever that is larger than its own."""
    try:
        with open(f"/proc/{'self' if pid is None else pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if pid is None else None


def seeded_hands(seed: int, count: int, size: int) -> list[list[int]]:
    """``count`` hands of ``size`` distinct faces (0..51, rummykit encoding), reproducible from ``seed``."""
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def openspiel_card(face: int) -> int:
    """rummykit face (suit*13 + rank-1, suits C D H S) -> OpenSpiel gin card (suit*13 + rank-1, suits s c d h)."""
    return ((face // 13 + 1) % 4) * 13 + face % 13


# -- meld search ---------------------------------------------------------------------------------------


def _rummykit_meld(size: int, system: str, hands: list[list[int]]) -> tuple[Callable[[], list[int]], Any]:
    import rummykit
    from rummykit.cards import card_from_face

    variant = rummykit.load_variant("gin")
    search = variant.meld_search
    inputs = [[card_from_face(f) for f in hand] for hand in hands]
    # Each measurement starts from an empty memo (the memo persists across hands, as it does in play).
    for name in ("_cache", "_gcache"):
        memo = getattr(search, name, None)
        if isinstance(memo, dict):
            memo.clear()

    def clear() -> None:
        memo = getattr(search, "_cache", None)
        if isinstance(memo, dict):
            memo.clear()

    texts = [[str(card) for card in cards] for cards in inputs]  # what a user holds: texts, or Card objects
    if size == 10:
        if system == "rummykit-arrange":
            return lambda: [variant.arrange(cards).deadwood_value for cards in inputs], rummykit
        if system == "rummykit-arrange-texts":
            return lambda: [variant.arrange(cards).deadwood_value for cards in texts], rummykit
        if system == "rummykit-variant-deadwood":
            return lambda: [variant.deadwood(cards) for cards in inputs], rummykit
        if system == "rummykit-variant-deadwood-texts":
            return lambda: [variant.deadwood(cards) for cards in texts], rummykit
        if system == "rummykit-deadwood":
            return lambda: [search.deadwood(cards) for cards in inputs], rummykit
        if system == "rummykit-deadwood-cold":

            def cold() -> list[int]:
                out = []
                for cards in inputs:
                    clear()
                    out.append(search.deadwood(cards))
                return out

            return cold, rummykit
    else:
        if system == "rummykit-arrange":

            def by_arrange() -> list[int]:
                return [
                    min(variant.arrange(cards[:i] + cards[i + 1 :]).deadwood_value for i in range(len(cards)))
                    for cards in inputs
                ]

            return by_arrange, rummykit
        if system == "rummykit-deadwood":
            return lambda: [min(search.discard_deadwoods(cards)) for cards in inputs], rummykit
        if system == "rummykit-deadwood-cold":

            def cold11() -> list[int]:
                out = []
                for cards in inputs:
                    clear()
                    out.append(min(search.discard_deadwoods(cards)))
                return out

            return cold11, rummykit
    raise KeyError(system)


def _openspiel_meld(size: int, system: str, hands: list[list[int]]) -> tuple[Callable[[], list[int]], Any]:
    import pyspiel

    gin = pyspiel.gin_rummy
    utils = gin.GinRummyUtils(gin.DEFAULT_NUM_RANKS, gin.DEFAULT_NUM_SUITS, gin.DEFAULT_HAND_SIZE)
    inputs = [[openspiel_card(f) for f in hand] for hand in hands]
    min_deadwood = utils.min_deadwood
    if system == "openspiel":
        # 10 cards: the hand's least deadwood. 11 cards: OpenSpiel's own "after the best discard" answer.
        return lambda: [min_deadwood(cards) for cards in inputs], pyspiel
    if system == "openspiel-each-discard" and size == 11:
        return lambda: [min(min_deadwood(cards[:i] + cards[i + 1 :]) for i in range(11)) for cards in inputs], pyspiel
    raise KeyError(system)


def meld(size: int, system: str, params: dict[str, Any]) -> dict[str, Any]:
    seed = MELD10_SEED if size == 10 else MELD11_SEED
    hands = seeded_hands(seed, params["hands"], size)
    factory = _openspiel_meld if system.startswith("openspiel") else _rummykit_meld
    run, _module = factory(size, system, hands)
    base = rss_mib()
    start, cpu = time.perf_counter(), time.process_time()
    answers = run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "count": len(hands),
        "seconds": seconds,
        "rate": len(hands) / seconds,
        "cpu_seconds": cpu,
        "cpu_rate": len(hands) / cpu if cpu else None,
        "answers": answers,
        "rss_base_mib": base,
        "rss_peak_mib": peak_rss_mib(),
    }


# -- engines: random play ------------------------------------------------------------------------------


def engine_rummykit(params: dict[str, Any], variant_name: str = "gin") -> dict[str, Any]:
    """Random play through the public API: legal_actions(), a uniform choice from a seeded RNG, apply()."""
    import rummykit

    variant = rummykit.load_variant(variant_name)
    rng = random.Random(ENGINE_SEED)
    target = params["hands"]
    limit = params.get("seconds_limit", float("inf"))
    hands = actions = dead = games = 0
    base = rss_mib()
    cpu = time.process_time()
    start = time.perf_counter()
    while hands < target and time.perf_counter() - start < limit:
        game = variant.new_game(seed=ENGINE_SEED + games)
        games += 1
        while not game.is_over and hands + len(game.results) < target:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
        hands += len(game.results)
        dead += sum(1 for result in game.results if result.kind in ("dead", "exhausted"))
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "hands": hands,
        "games": games,
        "actions": actions,
        "seconds": seconds,
        "rate": hands / seconds,
        "actions_rate": actions / seconds,
        "cpu_seconds": cpu,
        "actions_cpu_rate": actions / cpu if cpu else None,
        "actions_per_hand": actions / max(hands, 1),
        "dead_share": dead / max(hands, 1),
        "rss_base_mib": base,
        "rss_peak_mib": peak_rss_mib(),
        "players": variant.min_players,
    }


def engine_openspiel(params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel's gin_rummy (one episode is one hand), driven from Python the same way; chance nodes
    (the deal, stock draws) are sampled by the same seeded RNG."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(ENGINE_SEED)
    target = params["hands"]
    hands = actions = dead = chance = 0
    base = rss_mib()
    cpu = time.process_time()
    start = time.perf_counter()
    while hands < target:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # gin_rummy's chance outcomes are uniform over the unseen cards.
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        hands += 1
        if not any(state.returns()):
            dead += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "hands": hands,
        "actions": actions,
        "chance_actions": chance,
        "seconds": seconds,
        "rate": hands / seconds,
        "actions_rate": actions / seconds,
        "cpu_seconds": cpu,
        "actions_cpu_rate": actions / cpu if cpu else None,
        "actions_per_hand": actions / hands,
        "dead_share": dead / hands,
        "rss_base_mib": base,
        "rss_peak_mib": peak_rss_mib(),
    }


def engine_rlcard(params: dict[str, Any]) -> dict[str, Any]:
    """RLCard's gin-rummy environment with uniform random choices (its step loop; env.run with
    RandomAgent does the same work)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": ENGINE_SEED})
    rng = random.Random(ENGINE_SEED)
    target = params["hands"]
    hands = actions = 0
    base = rss_mib()
    cpu = time.process_time()
    start = time.perf_counter()
    while hands < target:
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        hands += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "hands": hands,
        "actions": actions,
        "seconds": seconds,
        "rate": hands / seconds,
        "actions_rate": actions / seconds,
        "cpu_seconds": cpu,
        "actions_cpu_rate": actions / cpu if cpu else None,
        "actions_per_hand": actions / hands,
        "dead_share": None,
        "rss_base_mib": base,
        "rss_peak_mib": peak_rss_mib(),
    }


# -- every rummykit variant ------------------------------------------------------------------------------


def list_variants(params: dict[str, Any]) -> dict[str, Any]:
    import rummykit

    return {"variants": [info.name for info in rummykit.list_variants()]}


def variant(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Random bots (rummykit.bots.RandomBot, one per seat) playing ``name``: hands and actions per second;
    then the greedy bot (rummykit.bots.GreedyBot) on every seat, each of its moves timed in CPU time of the
    thread (``choose``, which lists the legal actions and picks one; the wall-clock times are kept too);
    then a shorter, untimed random pass under tracemalloc for the Python heap's peak. Peak RSS (VmHWM) is
    the process's, after the two timed passes. With ``params["again"]``, the random pass's games are then
    played again, each twice in a row with only its second play timed: the same actions, for which the meld
    search (and every answer kept about the table and the hand) finds what it keeps, so that rate is the most
    keeping answers can give. (A game at a time: a whole pass replayed finds little, as the kept answers of its
    first games have given way to later ones.)"""
    import statistics
    import tracemalloc

    import rummykit
    from rummykit import Game
    from rummykit.bots import GreedyBot, RandomBot

    loaded = rummykit.load_variant(name)
    wall_moves: list[float] = []

    def new_game(index: int, kind: type[GreedyBot] | type[RandomBot]) -> tuple[Game, list[GreedyBot | RandomBot]]:
        # Game ``index`` of a pass and its bots, seeded by the index: a pass played again plays the same games.
        game = loaded.new_game(seed=ENGINE_SEED + index)
        return game, [kind(ENGINE_SEED + index * 10 + seat) for seat in range(game.num_players)]

    def play(target: int, limit: float, greedy: bool = False) -> tuple[int, int, int, float, list[float]]:
        hands = actions = games = 0
        moves: list[float] = []
        clock = time.perf_counter
        if greedy:
            wall_moves.clear()
        start = clock()
        while hands < target and clock() - start < limit:
            game, bots = new_game(games, GreedyBot if greedy else RandomBot)
            games += 1
            while not game.is_over and hands + len(game.results) < target:
                if clock() - start > limit:
                    break
                if greedy:  # CPU time of the move: a wall-clock time would count the waits of a busy machine
                    began, began_cpu = clock(), time.thread_time()
                    action = bots[game.deal.current].choose(game)
                    moves.append(time.thread_time() - began_cpu)
                    wall_moves.append(clock() - began)
                else:
                    action = bots[game.deal.current].choose(game)
                game.apply(action)
                actions += 1
            hands += len(game.results)
        return hands, actions, games, clock() - start, moves

    def played_again(most: int) -> tuple[int, float]:
        # The random pass's first ``most`` actions, each game played twice in a row: the second play's CPU time.
        actions = games = 0
        cpu = 0.0
        while actions < most:
            for timed in (False, True):
                game, bots = new_game(games, RandomBot)
                done = 0
                began = time.process_time()
                while not game.is_over and actions + done < most:
                    game.apply(bots[game.deal.current].choose(game))
                    done += 1
                if timed:
                    cpu += time.process_time() - began
                    actions += done
            games += 1
        return actions, cpu

    base = rss_mib()
    cpu = time.process_time()
    hands, actions, games, seconds, _ = play(params["hands"], params.get("seconds_limit", 60.0))
    cpu = time.process_time() - cpu
    again: dict[str, Any] = {}
    if params.get("again"):
        again_actions, again_cpu = played_again(actions)
        again = {
            "again_actions": again_actions,
            "again_actions_cpu_rate": again_actions / again_cpu if again_cpu else 0.0,
        }
    greedy_hands, greedy_actions, _, greedy_seconds, moves = play(
        params.get("greedy_hands", max(params["hands"] // 5, 5)), params.get("seconds_limit", 60.0) / 2, greedy=True
    )
    peak = peak_rss_mib()
    tracemalloc.start()
    play(max(params["hands"] // 10, 5), params.get("seconds_limit", 60.0) / 5)
    _current, heap_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "variant": name,
        "players": loaded.min_players,
        "hands": hands,
        "games": games,
        "actions": actions,
        "seconds": seconds,
        "rate": hands / seconds if seconds else 0.0,
        "actions_rate": actions / seconds if seconds else 0.0,
        "actions_per_hand": actions / max(hands, 1),
        "cpu_seconds": cpu,
        "actions_cpu_rate": actions / cpu if cpu else 0.0,
        "greedy_hands": greedy_hands,
        "greedy_moves": len(moves),
        "greedy_seconds": greedy_seconds,
        "greedy_median_ms": statistics.median(moves) * 1000 if moves else None,
        "greedy_p99_ms": sorted(moves)[int(len(moves) * 0.99)] * 1000 if moves else None,
        "greedy_worst_ms": max(moves) * 1000 if moves else None,
        "greedy_wall_median_ms": statistics.median(wall_moves) * 1000 if wall_moves else None,
        "greedy_wall_worst_ms": max(wall_moves) * 1000 if wall_moves else None,
        "rss_base_mib": base,
        "rss_peak_mib": peak,
        "heap_peak_mib": heap_peak / 2**20,
        **again,
    }


# -- versions ----------------------------------------------------------------------------------------------


def versions(params: dict[str, Any]) -> dict[str, Any]:
    from importlib import metadata

    found: dict[str, str | None] = {}
    for dist in ("rummykit", "open_spiel", "rlcard", "numpy", "scipy", "pluggy", "PyYAML"):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = None
    import rummykit

    if found["rummykit"] and getattr(rummykit, "COMPILED", False):
        found["rummykit"] += " (compiled)"
    return {"python": sys.version.split()[0], "versions": found}


def main(argv: list[str]) -> None:
    task, system = argv[0], argv[1]
    params = json.loads(argv[2]) if len(argv) > 2 else {}
    if task == "meld10":
        result = meld(10, system, params)
    elif task == "meld11":
        result = meld(11, system, params)
    elif task == "engine":
        result = {"rummykit": engine_rummykit, "openspiel": engine_openspiel, "rlcard": engine_rlcard}[system](params)
    elif task == "variant":
        result = variant(system, params)
    elif task == "list":
        result = list_variants(params)
    elif task == "versions":
        result = versions(params)
    else:
        raise SystemExit(f"unknown task {task!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
