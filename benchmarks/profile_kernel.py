#!/usr/bin/env python3
"""Profile rummykit (cProfile): random play of a variant, and Gin meld search on seeded hands.

    .venv/bin/python benchmarks/profile_kernel.py                  # gin engine + meld search, top 25 functions
    .venv/bin/python benchmarks/profile_kernel.py --variant 500-rum --hands 200 --top 40

Needs only rummykit (the dev venv will do). Hands are the same seeded ones benchmarks/run.py times.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tasks import ENGINE_SEED, MELD10_SEED, MELD11_SEED, seeded_hands  # noqa: E402


def play(variant_name: str, hands: int) -> None:
    import rummykit

    variant = rummykit.load_variant(variant_name)
    rng = random.Random(ENGINE_SEED)
    done = games = 0
    while done < hands:
        game = variant.new_game(seed=ENGINE_SEED + games)
        games += 1
        while not game.is_over and done + len(game.results) < hands:
            game.apply(rng.choice(game.legal_actions()))
        done += len(game.results)


def meld_search(count: int) -> None:
    import rummykit
    from rummykit.cards import card_from_face

    search = rummykit.load_variant("gin").meld_search
    ten = [[card_from_face(f) for f in hand] for hand in seeded_hands(MELD10_SEED, count, 10)]
    eleven = [[card_from_face(f) for f in hand] for hand in seeded_hands(MELD11_SEED, count, 11)]
    for cards in ten:
        search.deadwood(cards)
    for cards in eleven:
        min(search.discard_deadwoods(cards))


def report(title: str, profile: cProfile.Profile, top: int) -> None:
    for key in ("cumulative", "tottime"):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(key).print_stats(top)
        text = out.getvalue()
        for prefix in sorted({p for p in sys.path if p}, key=len, reverse=True):
            text = text.replace(prefix + "/", "")
        print(f"== {title}, by {key}")
        print("\n".join(line for line in text.splitlines() if line.strip()))
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="gin")
    parser.add_argument("--hands", type=int, default=500, help="hands of random play (default %(default)s)")
    parser.add_argument("--meld-hands", type=int, default=20_000, help="10- and 11-card hands (default %(default)s)")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    import rummykit

    rummykit.load_variant(args.variant)  # load outside the profile
    profile = cProfile.Profile()
    profile.runcall(play, args.variant, args.hands)
    report(f"random play, {args.variant}, {args.hands} hands", profile, args.top)
    if args.meld_hands:
        profile = cProfile.Profile()
        profile.runcall(meld_search, args.meld_hands)
        report(f"meld search, {args.meld_hands} 10-card and 11-card hands (input building included)", profile, args.top)


if __name__ == "__main__":
    main()
