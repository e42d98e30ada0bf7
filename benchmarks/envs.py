#!/usr/bin/env python3
"""Environment steps per second with random masked actions: every rummykit variant through
``rummykit.envs`` (PettingZoo AEC: ``last()`` for the observation and mask, then ``step``), beside its raw
engine (``Game.legal_actions`` and ``Game.apply``, no observation), RLCard's ``gin-rummy`` environment and
OpenSpiel's ``gin_rummy`` with its observation tensor, each when importable.

    python3 benchmarks/envs.py                 # every variant, a few seconds each
    python3 benchmarks/envs.py --seconds 1 gin # a quick look at one

Run it with the interpreter that has the ``rl`` extra and the peers (``pip install -e '.[rl]' rlcard
open_spiel``, or the ``peers`` extra; ``benchmarks/run.py`` installs them into ``benchmarks/.venv``): neither
peer is a dependency of rummykit. Rates are per CPU second (``time.process_time``: the machine may be
shared). Every episode is one hand on every side, actions are drawn with ``random.Random.choice`` among the
legal ones. An environment step is one index: in table games meld building takes ``select`` and ``next
meld`` steps, counted as steps (``engine actions/s`` counts the engine actions those steps carried out).
The raw engine is measured twice: random legal actions on a plain Game, and the environment's own
episodes replayed on a plain Game (``legal_actions`` then ``apply``), since random masked play reaches
positions (bigger hands) that cost the engine more than random engine play's.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial
from typing import Any

SEED = 20240607


def rummykit_env(name: str, seconds: float) -> dict[str, Any]:
    import numpy as np

    from rummykit import envs

    env = envs.env(name, hands=1)  # one hand an episode, as RLCard's and OpenSpiel's gin environments
    rng = random.Random(SEED)  # as for the peers below: the same random choice among legal indices
    steps = actions = games = 0
    played: list[tuple[int, list[Any]]] = []  # per episode: the game's seed and the engine actions carried out
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=SEED + games)
        games += 1
        assert env.game is not None
        carried: list[Any] = []
        played.append((env.game.seed, carried))
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            index = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            engine = env._plan[index]
            env.step(index)
            steps += 1
            if engine is not None:
                actions += 1
                carried.append(engine)
            if steps % 64 == 0 and time.process_time() - start > seconds:
                break
    elapsed = time.process_time() - start
    return {"steps/s": steps / elapsed, "engine actions/s": actions / elapsed, "steps": steps, "played": played}


def rummykit_vector(name: str, seconds: float, num_envs: int = 64) -> dict[str, Any]:
    """``rummykit.envs.vector``: ``num_envs`` games stepped together, random masked indices drawn for all
    rows at once (``sample_masked``); a step is one index in one game."""
    import numpy as np

    from rummykit import envs

    venv = envs.vector(name, num_envs, hands=1)
    selecting = np.array([venv.space.is_selection_step(i) for i in range(venv.action_size)])
    rng = np.random.default_rng(SEED)
    _observations, masks = venv.reset(seed=SEED)
    # warm up until half the games have ended once (or for the measuring time): the games then stand at
    # every stage of a hand, as the single env's episodes do, not all at their start
    restarted = np.zeros(num_envs, dtype=bool)
    start = time.process_time()
    while restarted.sum() * 2 < num_envs and time.process_time() - start < seconds:
        _observations, masks, _rewards, ended, _infos = venv.step(envs.sample_masked(masks, rng))
        restarted |= ended
    steps = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        chosen = envs.sample_masked(masks, rng)
        engine = num_envs - int(selecting[chosen].sum())
        _observations, masks, _rewards, _ended, _infos = venv.step(chosen)
        steps += num_envs
        actions += engine
    elapsed = time.process_time() - start
    return {"steps/s": steps / elapsed, "engine actions/s": actions / elapsed, "steps": steps}


def rummykit_replay(name: str, played: list[tuple[int, list[Any]]]) -> dict[str, Any]:
    """The raw engine on the environment's own positions: each episode's engine actions replayed on a plain
    Game, listing the legal actions before each as random play does (random masked play reaches other
    positions than random engine play: fewer melds, larger hands, where the engine's listing costs more)."""
    import rummykit

    variant = rummykit.load_variant(name)
    games = [(variant.new_game(seed=seed, max_hands=1), actions) for seed, actions in played]
    count = 0
    start = time.process_time()
    for game, actions in games:
        for action in actions:
            game.legal_actions()
            game.apply(action)
        count += len(actions)
    elapsed = time.process_time() - start
    return {"steps/s": count / elapsed, "engine actions/s": count / elapsed, "steps": count}


def rummykit_engine(name: str, seconds: float) -> dict[str, Any]:
    import rummykit

    variant = rummykit.load_variant(name)
    rng = random.Random(SEED)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = variant.new_game(seed=SEED + games, max_hands=1)
        games += 1
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
            if actions % 64 == 0 and time.process_time() - start > seconds:
                break
    elapsed = time.process_time() - start
    return {"steps/s": actions / elapsed, "engine actions/s": actions / elapsed, "steps": actions}


def rlcard_gin(seconds: float) -> dict[str, Any] | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": SEED})
    rng = random.Random(SEED)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    elapsed = time.process_time() - start
    return {"steps/s": steps / elapsed, "engine actions/s": steps / elapsed, "steps": steps}


def openspiel_gin(seconds: float) -> dict[str, Any] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(SEED)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.observation_tensor(state.current_player())  # what an agent observes before acting
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    elapsed = time.process_time() - start
    return {"steps/s": steps / elapsed, "engine actions/s": steps / elapsed, "steps": steps}


def _keep(best: dict[str, Any], system: str, result: dict[str, Any] | None, key: str = "steps/s") -> None:
    """Keep ``result`` as ``system``'s if it is the fastest so far (None: the system is not installed)."""
    held = best.get(system)
    if system not in best or (result is not None and (held is None or result[key] > held[key])):
        best[system] = result


def main() -> int:
    import rummykit

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", help="variants to measure (default: every variant)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds; each system's fastest is kept (default 3)"
    )
    parser.add_argument(
        "--num-envs", type=int, default=64, help="games stepped together by the vector env (default 64)"
    )
    args = parser.parse_args()
    names = args.variants or [info.name for info in rummykit.list_variants()]

    rows = []
    peers = {"RLCard gin-rummy env": rlcard_gin, "OpenSpiel gin_rummy + observation_tensor": openspiel_gin}
    for name in names:
        best: dict[str, dict[str, Any] | None] = {}
        keep = partial(_keep, best)
        # interleaved rounds, each system's fastest kept: a change in the machine's load falls on all alike
        for _ in range(args.rounds):
            env = rummykit_env(name, args.seconds)
            keep("env", env)
            keep("vector", rummykit_vector(name, args.seconds, args.num_envs))
            keep("raw", rummykit_engine(name, args.seconds))
            keep("same", rummykit_replay(name, env["played"]), "engine actions/s")
            if name == "gin":  # the peers, on the same rounds as the environment they are compared with
                for label, measure in peers.items():
                    keep(label, measure(args.seconds))
        env, raw, same, vector = best["env"], best["raw"], best["same"], best["vector"]
        assert env is not None and raw is not None and same is not None and vector is not None
        share = env["steps/s"] / raw["engine actions/s"]
        own = env["steps/s"] / same["engine actions/s"]
        carried = env["engine actions/s"] / raw["engine actions/s"]
        note = (
            f"steps {share:.2f} of the raw engine's actions, {own:.2f} on the env's positions; "
            f"engine actions {carried:.2f}"
        )
        rows.append((f"rummykit env {name}", env["steps/s"], env["engine actions/s"], note))
        share = vector["steps/s"] / raw["engine actions/s"]
        note = f"{args.num_envs} games a step; steps {share:.2f} of the raw engine's actions"
        rows.append((f"rummykit vector env {name}", vector["steps/s"], vector["engine actions/s"], note))
        rows.append((f"rummykit engine {name}", raw["steps/s"], raw["engine actions/s"], "random legal actions"))
        rows.append((f"rummykit engine {name}, env's positions", None, same["engine actions/s"], "replayed"))
        if name == "gin":
            for label in peers:
                result = best[label]
                if result is None:
                    rows.append((label, None, None, "not installed"))
                else:
                    ratio = env["steps/s"] / result["steps/s"]
                    ratio_vector = vector["steps/s"] / result["steps/s"]
                    note = f"rummykit's env {ratio:.2f}x, vector env {ratio_vector:.2f}x"
                    rows.append((label, result["steps/s"], result["engine actions/s"], note))
    print("| system | steps/s | engine actions/s | note |\n| --- | ---: | ---: | --- |")
    for label, steps, actions, note in rows:
        cell = lambda v: "-" if v is None else f"{v:,.0f}"  # noqa: E731
        print(f"| {label} | {cell(steps)} | {cell(actions)} | {note} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
