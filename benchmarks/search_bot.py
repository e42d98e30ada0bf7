#!/usr/bin/env python3
"""Time the search bot over a whole game against greedy bots: the CPU seconds of its decisions.

    .venv/bin/python benchmarks/search_bot.py arlington               # a whole game, seed 1
    .venv/bin/python benchmarks/search_bot.py skarney-singles --decisions 100
    .venv/bin/python benchmarks/search_bot.py iceberg --players 2 --seed 3

The search bot (``SearchBot(seed=SEED)``, its default budget) sits in seat 0, greedy bots seeded
``SEED + seat`` in the others; the game is ``variant.new_game(seed=SEED)``. Only the search bot's decisions
are timed (``time.process_time``). ``--decisions N`` stops after its N-th decision; ``--whole-budget`` has the
bot sample every decision's whole budget (``stop_early=False``, the search bot before it stopped early). The
line printed ends with a digest of every action played: two versions of rummykit that play the same game
print the same digest, so their times compare like for like. Needs only rummykit.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import rummykit
from rummykit.bots import GreedyBot, SearchBot


def play(
    variant_name: str, seed: int, players: int | None = None, decisions: int | None = None, stop_early: bool = True
) -> str:
    """Play ``variant_name`` as the module's text says; the line that describes the game and the time."""
    variant = rummykit.load_variant(variant_name)
    game = variant.new_game(players, seed=seed) if players else variant.new_game(seed=seed)
    bots: list[SearchBot | GreedyBot] = [SearchBot(seed=seed, stop_early=stop_early)]
    bots += [GreedyBot(seed=seed + seat) for seat in range(1, game.num_players)]
    digest = hashlib.sha256()
    seconds = 0.0
    made = actions = 0
    while not game.is_over and (decisions is None or made < decisions):
        seat = game.deal.actor
        if seat == 0:
            start = time.process_time()
            action = bots[0].choose(game)
            seconds += time.process_time() - start
            made += 1
        else:
            action = bots[seat].choose(game)
        game.apply(action)
        actions += 1
        digest.update(str(action).encode())
    ended = "the game ended" if game.is_over else f"stopped after {made} decisions"
    return (
        f"{variant_name}, {game.num_players} players, seed {seed}: search bot {seconds:.1f} CPU s over "
        f"{made} decisions ({ended}; {actions} actions, {len(game.results)} hands, scores {game.scores}); "
        f"actions digest {digest.hexdigest()[:12]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, help="players (default: the variant's own default)")
    parser.add_argument("--decisions", type=int, help="stop after the search bot's N-th decision")
    parser.add_argument(
        "--whole-budget", action="store_true", help="sample every decision's whole budget (stop_early=False)"
    )
    args = parser.parse_args()
    print(play(args.variant, args.seed, args.players, args.decisions, not args.whole_budget))


if __name__ == "__main__":
    main()
