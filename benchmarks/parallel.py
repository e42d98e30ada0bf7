#!/usr/bin/env python3
"""``simulate`` with one worker, two worker processes and Ray, side by side (the second speed-up's targets).

    .venv/bin/python benchmarks/parallel.py --games 600 --rounds 2 [--variant gin] [--no-ray]

Runs ``rummykit.simulate.simulate`` in interleaved rounds (``--jobs 1``, ``--jobs 2``, Ray on a local
instance with 2 CPUs, each round in that order) and prints, per setting, the best and every round's games
per second (wall clock, start-up included), and the CPU seconds the chunks took in the workers (measured in
each worker with ``time.process_time``): on a loaded machine the wall-clock ratio says how much CPU the
machine gave, the CPU seconds whether running in parallel cost more work. Needs only rummykit (and ray for
the Ray rows). Results are checked to be identical for every setting.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import rummykit.simulate as sim

_original_run_chunk = sim._run_chunk
CPU: list[float] = []


def _timed_chunk(*args: Any) -> Any:
    start = time.process_time()
    result = _original_run_chunk(*args)
    result._cpu = time.process_time() - start  # survives pickling (instance __dict__)
    return result


# Set at import, so that the worker processes (which import this script as __mp_main__) and Ray (which
# pickles the function by value) run the timed version too.
sim._run_chunk = _timed_chunk
_original_simulate_games = sim.simulate_games


def _collecting(parts: Any) -> Any:
    for number, part in parts:
        CPU.append(getattr(part, "_cpu", 0.0))
        yield number, part


def _in_process(variant: Any, ranges: Any, seed: int, bots: Any, players: Any, max_hands: Any = None) -> Any:
    for number, indexes in enumerate(ranges):
        start = time.process_time()
        part = _original_simulate_games(variant, indexes, seed, bots, players, max_hands)
        CPU.append(time.process_time() - start)
        yield number, part


_in_pool, _on_ray = sim._in_pool, sim._on_ray
sim._in_process = _in_process
sim._in_pool = lambda *a, **k: _collecting(_in_pool(*a, **k))
sim._on_ray = lambda *a, **k: _collecting(_on_ray(*a, **k))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="gin")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    settings = [("jobs 1", 1, "process"), ("jobs 2", 2, "process")]
    if not args.no_ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray is not installed: its rows are left out")
        else:
            settings.append(("ray, 2 CPUs", 2, "ray"))
    rates: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    reference = None
    for round_number in range(args.rounds):
        for label, jobs, backend in settings:
            CPU.clear()
            load = os.getloadavg()[0]
            start = time.perf_counter()
            result = sim.simulate(args.variant, args.games, 1, jobs=jobs, backend=backend)
            wall = time.perf_counter() - start
            data = {k: v for k, v in result.as_dict().items() if k not in sim.TIMING_FIELDS}
            if reference is None:
                reference = data
            assert data == reference, f"{label}: the result differs"
            rates.setdefault(label, []).append(args.games / wall)
            cpus.setdefault(label, []).append(sum(CPU))
            print(
                f"round {round_number + 1} {label:12s} {wall:6.1f} s  {args.games / wall:7.1f} games/s  "
                f"chunk CPU {sum(CPU):6.1f} s in {len(CPU)} chunks  load before {load:.1f}",
                flush=True,
            )
    print()
    base = max(rates["jobs 1"])
    print("| setting | best games/s | every round | vs jobs 1 | chunk CPU s (best) |")
    print("|---|---|---|---|---|")
    for label, _, _ in settings:
        every = " / ".join(f"{r:.1f}" for r in rates[label])
        best = max(rates[label])
        print(f"| {label} | {best:.1f} | {every} | {best / base:.2f}x | {min(cpus[label]):.1f} |")


if __name__ == "__main__":
    main()
