#!/usr/bin/env python3
"""Time the deadwood solver on big wild hands: two decks and four jokers, deuces and jokers wild.

    .venv/bin/python benchmarks/solver.py                      # 11, 20, 30, 45 cards, 30 seeded hands each
    .venv/bin/python benchmarks/solver.py --hands 100 --sizes 40 45
    .venv/bin/python benchmarks/solver.py --profile 45         # cProfile of the 45-card hands

Rules as Fortune and Arlington play them (sets of three or four, runs of any length, ace high or low, no
limit of wild cards per meld) and Fortune's values in hand (QS 50, 8 to K and aces 10, 3 to 7 5, a 2 10, a
joker 200). Hand ``i`` of ``n`` cards is ``random.Random(seed * 1000 + n * 100 + i).sample(deck, n)``.
Needs only rummykit; prints a Markdown table (the one in docs/performance.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from rummykit.cards import JOKER_FACE, Card, build_deck
from rummykit.melds import MeldRules, MeldSearch

TWOS = frozenset(suit * 13 + 1 for suit in range(4))


def fortune_values() -> list[int]:
    values = []
    for face in range(52):
        rank = face % 13 + 1
        values.append(10 if rank == 1 or rank == 2 or rank >= 8 else 5)
    values[3 * 13 + 11] = 50  # QS
    return values + [200]


def hands(size: int, count: int, seed: int) -> list[list[Card]]:
    deck = build_deck(2, 4)
    return [random.Random(seed * 1000 + size * 100 + i).sample(deck, size) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="seeded hands per size (default 30)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[11, 20, 30, 45])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, metavar="SIZE", help="profile the hands of this size instead")
    args = parser.parse_args()
    search = MeldSearch(MeldRules(wild_faces=TWOS | {JOKER_FACE}, ace="both"), fortune_values())
    search.arrange(hands(20, 1, args.seed + 1)[0])  # build the solver's tables once, outside the clock
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for hand in hands(args.profile, args.hands, args.seed):
            search.arrange(hand)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    print("| cards | hands | wild cards (mean) | median ms | worst ms | mean deadwood | no deadwood |")
    print("|------:|------:|------------------:|----------:|---------:|--------------:|------------:|")
    for size in args.sizes:
        times = []
        deadwood = []
        wilds = []
        for hand in hands(size, args.hands, args.seed):
            start = time.perf_counter()
            found = search.arrange(hand)
            times.append(time.perf_counter() - start)
            deadwood.append(found.deadwood_value)
            wilds.append(sum(1 for c in hand if search.is_wild(c)))
        print(
            f"| {size} | {len(times)} | {statistics.mean(wilds):.1f} | {statistics.median(times) * 1e3:.1f} "
            f"| {max(times) * 1e3:.1f} | {statistics.mean(deadwood):.1f} | {sum(d == 0 for d in deadwood)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
