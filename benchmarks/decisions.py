#!/usr/bin/env python3
"""What the search bot's decisions are worth: every legal action at a few positions, played out many times.

    python3 benchmarks/decisions.py iceberg --positions 16 --samples 400
    python3 benchmarks/decisions.py gin --positions 10 --samples 100

Positions are taken from seeded games of greedy bots (one hand each; every sixth decision with a choice,
from the third on). At each, every legal action (at most ``--actions``) is played out ``--samples`` times
the way the search bot does it (a sample of the cards the seat cannot see, then greedy play to the end of
the hand), all actions on the same samples, and compared with the search bot's first choice (the outs
bot's). One line per position: the best action, by how many points a rollout it beats the first choice on
average, the standard error of that, and the standard deviation of one sample's difference (what a
budget of N samples divides by the square root of N).

The best of several actions is chosen on the same samples it is measured on, so its lead is biased upwards
by about one standard error when every action is worth the same; a lead of three standard errors or more
is real.
"""

from __future__ import annotations

import argparse
import random
import statistics

import rummykit
from rummykit.bots import GreedyBot, OutsBot, SearchBot
from rummykit.engine import Game
from rummykit.search import determinize


def positions(name: str, count: int, seed: int) -> list[Game]:
    """``count`` positions with a choice, from seeded one-hand games of greedy bots."""
    variant = rummykit.load_variant(name)
    found: list[Game] = []
    game_seed = seed
    while len(found) < count:
        game = variant.new_game(seed=game_seed, max_hands=1)
        bots = [GreedyBot(game_seed * 7 + s) for s in range(game.num_players)]
        game_seed += 1
        choices = 0
        while not game.is_over and len(found) < count:
            if len(game.legal_actions()) > 1:
                choices += 1
                if choices % 6 == 3:
                    found.append(game.clone())
            game.apply(bots[game.deal.actor].choose(game))
    return found


def weigh(game: Game, samples: int, actions: int, rng: random.Random) -> dict[str, object]:
    """Every legal action (at most ``actions``, the first choice among them) against the first choice."""
    legal = game.legal_actions()[:actions]
    first = OutsBot(1).choose(game)
    if first not in legal:
        legal = [first, *legal[: actions - 1]]
    base = legal.index(first)
    seat = game.deal.actor
    player = SearchBot(1)
    values: list[list[float]] = [[] for _ in legal]
    for _ in range(samples):
        world = determinize(game, seat, rng)
        for i, action in enumerate(legal):
            values[i].append(player.rollout(world.clone(), action, seat))
    leads = [[a - b for a, b in zip(v, values[base])] for v in values]
    best = max(range(len(legal)), key=lambda i: statistics.mean(leads[i]))
    spread = statistics.stdev(leads[best]) if best != base and samples > 1 else 0.0
    return {
        "actions": len(legal),
        "first": str(first),
        "best": str(legal[best]),
        "lead": statistics.mean(leads[best]),
        "standard_error": spread / samples**0.5,
        "spread": spread,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant")
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--samples", type=int, default=100, help="rollouts of each action (default 100)")
    parser.add_argument("--actions", type=int, default=14, help="most actions weighed per position (default 14)")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    if min(args.positions, args.samples, args.actions) < 1:
        parser.error("--positions, --samples and --actions are at least 1")
    rng = random.Random(args.seed)
    leads = []
    for game in positions(args.variant, args.positions, args.seed):
        row = weigh(game, args.samples, args.actions, rng)
        leads.append(row["lead"])
        print(
            f"{row['actions']:>2} actions  first {row['first']:<16} best {row['best']:<16} "
            f"lead {row['lead']:+7.1f}  s.e. {row['standard_error']:5.1f}  s.d. {row['spread']:5.0f}",
            flush=True,
        )
    print(f"mean lead of the best action over the first choice: {statistics.mean(leads):+.1f} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
