#!/usr/bin/env python3
"""How much of random Skarney play goes to listing the contracts: CPU time in ``contracts`` and in all.

    .venv/bin/python benchmarks/contracts.py                       # Skarney Singles and Skarney, 6,000 actions each
    .venv/bin/python benchmarks/contracts.py --actions 20000 skarney

Seeded random games (``variant.new_game(seed=1 + game, max_hands=20)``, random bots seeded by game and seat),
as ``benchmarks/checkouts.py`` plays them; Skarney's ``contracts`` is wrapped to time it and to digest what it
lists, so two versions that list the same contracts print the same digest. Needs only rummykit: run it with
another checkout's environment to compare (``benchmarks/.checkouts/venv-REF/bin/python``, made by
``benchmarks/checkouts.py REF``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import time

import rummykit
from rummykit.bots import RandomBot


def measure(name: str, actions: int) -> str:
    variant = rummykit.load_variant(name)
    skarney = importlib.import_module("rummykit.plugins.skarney")
    listed = skarney.contracts
    spent = 0.0
    calls = 0
    digest = hashlib.sha256()

    def timed(*args: object, **options: object) -> object:
        nonlocal spent, calls
        start = time.process_time()
        found = listed(*args, **options)
        spent += time.process_time() - start
        calls += 1
        digest.update(repr([str(action) for action in found]).encode())
        return found

    skarney.contracts = timed
    try:
        done = game_number = 0
        start = time.process_time()
        while done < actions:
            game = variant.new_game(seed=1 + game_number, max_hands=20)
            bots = [RandomBot(100 + game_number * 10 + seat) for seat in range(game.num_players)]
            game_number += 1
            while not game.is_over and done < actions:
                game.apply(bots[game.deal.actor].choose(game))
                done += 1
        total = time.process_time() - start
    finally:
        skarney.contracts = listed
    return (
        f"{name}: {actions:,} random actions {total:.2f} CPU s; contracts listed {calls} times, {spent:.3f} s "
        f"({spent / total:.0%}); digest {digest.hexdigest()[:12]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["skarney-singles", "skarney"])
    parser.add_argument("--actions", type=int, default=6000)
    args = parser.parse_args()
    for name in args.variants:
        print(measure(name, args.actions), flush=True)


if __name__ == "__main__":
    main()
