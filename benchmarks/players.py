"""Hands and actions per second of variants by player count, with random and greedy bots.

    python3 benchmarks/players.py                      # Fortune and Arlington at 2, 4 and 8 (Arlington 7)
    python3 benchmarks/players.py --variant skarney-singles --players 2 3 4 --hands 100

Rates are per CPU second of this process (``time.process_time``), so a loaded machine slows the clock
less than the wall; the wall-clock rate is printed beside it. Needs only rummykit.
"""

from __future__ import annotations

import argparse
import statistics
import time

import rummykit
from rummykit.bots import GreedyBot, RandomBot


def measure(name: str, players: int, bot: str, hands: int, seed: int) -> dict[str, float]:
    variant = rummykit.load_variant(name)
    played = actions = 0
    moves: list[float] = []
    cpu, wall = time.process_time(), time.perf_counter()
    game_index = 0
    while played < hands:
        game = variant.new_game(players=players, seed=seed + game_index)
        bots = [(GreedyBot if bot == "greedy" else RandomBot)(seed * 100 + game_index * 10 + s) for s in range(players)]
        game_index += 1
        while not game.is_over and played < hands:
            before = len(game.results)
            start = time.perf_counter()
            action = bots[game.current_player].choose(game)
            moves.append(time.perf_counter() - start)
            game.apply(action)
            actions += 1
            played += len(game.results) - before
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "hands_cpu": played / cpu,
        "actions_cpu": actions / cpu,
        "hands_wall": played / wall,
        "median_move_ms": 1000 * statistics.median(moves),
        "worst_move_ms": 1000 * max(moves),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", help="variants (default: fortune and arlington)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 8], help="player counts (default 2 4 8)")
    parser.add_argument("--hands", type=int, default=200, help="hands per row (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = args.variant or ["fortune", "arlington"]
    print("| variant | players | bots | hands/s | actions/s | hands/s (wall) | median move ms | worst move ms |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        variant = rummykit.load_variant(name)
        counts = sorted({min(max(n, variant.min_players), variant.max_players) for n in args.players})
        for players in counts:
            for bot in ("random", "greedy"):
                m = measure(name, players, bot, args.hands, args.seed)
                print(
                    f"| {name} | {players} | {bot} | {m['hands_cpu']:,.0f} | {m['actions_cpu']:,.0f} | "
                    f"{m['hands_wall']:,.0f} | {m['median_move_ms']:.2f} | {m['worst_move_ms']:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
