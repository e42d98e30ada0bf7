#!/usr/bin/env python3
"""Instructions per step, counted by valgrind's callgrind: a speed measure that does not move with the
machine's load, for comparing two versions of the code on a shared machine where timings drift by 5 % or
more from run to run.

    python3 benchmarks/instructions.py                      # Gin: the vector env, the AEC env, the raw engine
    python3 benchmarks/instructions.py --variants 500-rum --steps 40
    python3 benchmarks/instructions.py --variants skarney-singles --kinds search --decisions 10
    benchmarks/.checkouts/venv-REF/bin/python benchmarks/instructions.py --source benchmarks/.checkouts/tree-REF
                                                            # another checkout, with its own environment

Each count runs the workload twice under callgrind, with a warm-up only and with ``--steps`` more steps
(``--decisions`` for ``search``),
and divides the difference by the steps taken (so start-up, imports and warm-up cancel out). The play is
seeded and ``PYTHONHASHSEED`` fixed, so two runs of the same code take the same path and give the same
count. Workloads, with random legal choices throughout:

- ``vector``: ``envs.vector(variant, 64, hands=1)`` stepped with ``sample_masked``; per game step.
- ``aec``: the PettingZoo loop of ``benchmarks/envs.py`` (``last()``, an index drawn from the mask,
  ``step``); per step.
- ``raw``: ``Game.legal_actions`` then ``Game.apply`` on one-hand games; per action.
- ``search``: the search bot (seat 0) against greedy bots, seed 1, as ``benchmarks/search_bot.py`` plays it;
  per decision of the search bot (``--decisions`` of them, the greedy bots' moves between them included).
  A whole game takes minutes of CPU, hours under callgrind: this counts a stretch of one.

Needs ``valgrind`` (``apt install valgrind``) and, for the environments, the ``rl`` extra. Instructions are
not time (cache misses and allocation cost more than they count), but a change that removes instructions
from a step removes time, and the count answers in one run what timings need many interleaved runs for.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WARM_UP = {"vector": 100, "aec": 1000, "raw": 2000, "search": 2}
"""Steps played before counting starts (vector: steps of all 64 games; search: the search bot's decisions)."""

WORKLOAD = r"""
import os, random, sys
name, kind, warm, steps, source = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
import rummykit
try:
    import rummykit.plugins as plugins
    places = [rummykit.__file__, *plugins.__path__]
except ImportError:  # a checkout whose games are not a package of their own
    places = [rummykit.__file__]
for place in places:  # an environment's editable install may map the games to another checkout
    if not os.path.realpath(place).startswith(os.path.realpath(source) + os.sep):
        raise SystemExit(f"this environment imports {place}, not {source}'s own code: run the tool with the "
                         "checkout's own environment (benchmarks/.checkouts/venv-REF/bin/python, made by checkouts.py)")
if kind == "vector":
    import numpy as np
    from rummykit import envs
    venv = envs.vector(name, 64, hands=1)
    rng = np.random.default_rng(1)
    _, masks = venv.reset(seed=1)
    for _ in range(warm + steps):
        _, masks, _, _, _ = venv.step(envs.sample_masked(masks, rng))
elif kind == "aec":
    import numpy as np
    from rummykit import envs
    env = envs.env(name, hands=1)
    rng = random.Random(1)
    episode = done = 0
    env.reset(seed=episode)
    while done < warm + steps:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            done += 1
            if done >= warm + steps:
                break
        episode += 1
        env.reset(seed=episode)
elif kind == "search":
    from rummykit.bots import GreedyBot, SearchBot
    game = rummykit.load_variant(name).new_game(seed=1)
    bots = [SearchBot(seed=1)] + [GreedyBot(seed=1 + seat) for seat in range(1, game.num_players)]
    made = 0
    while not game.is_over and made < warm + steps:
        seat = game.deal.actor
        made += seat == 0
        game.apply(bots[seat].choose(game))
    print("decisions", made)
else:
    import rummykit
    variant = rummykit.load_variant(name)
    rng = random.Random(1)
    episode = 0
    game = variant.new_game(seed=episode, max_hands=1)
    for _ in range(warm + steps):
        if game.is_over:
            episode += 1
            game = variant.new_game(seed=episode, max_hands=1)
        game.apply(rng.choice(game.legal_actions()))
"""


def count(source: Path, name: str, kind: str, steps: int) -> int:
    """Instructions executed by the workload with ``steps`` steps after its warm-up."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(source))
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-c",
        WORKLOAD,
        name,
        kind,
        str(WARM_UP[kind]),
        str(steps),
        str(source),
    ]
    done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed ({kind} {name}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_step(source: Path, name: str, kind: str, steps: int) -> float:
    """Instructions per step (vector: per game step, 64 a call; search: per decision of the search bot)."""
    taken = steps * (64 if kind == "vector" else 1)
    return (count(source, name, kind, steps) - count(source, name, kind, 0)) / taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["gin"], metavar="NAME")
    parser.add_argument("--kinds", nargs="+", default=["vector", "aec", "raw"], choices=list(WARM_UP))
    parser.add_argument(
        "--steps", type=int, default=100, help="vector steps (64 game steps each); AEC and raw 64x as many"
    )
    parser.add_argument(
        "--decisions", type=int, default=10, help="search: the search bot's decisions counted (default 10)"
    )
    parser.add_argument("--source", type=Path, default=HERE.parent, help="the checkout to measure (default: this one)")
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.steps < 1:
        parser.error("--steps and --decisions are whole numbers of at least 1")
    source = args.source.resolve()
    if not (source / "rummykit" / "__init__.py").is_file():
        raise SystemExit(f"--source {args.source}: no rummykit package there (expected {source}/rummykit/__init__.py)")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    print(f"instructions per step, {source}")
    for name in args.variants:
        for kind in args.kinds:
            steps = args.steps if kind == "vector" else args.decisions if kind == "search" else args.steps * 64
            print(f"{name:16} {kind:7} {per_step(source, name, kind, steps):>10,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
