#!/usr/bin/env python3
"""Time the deadwood solver on big wild hands from two decks: deuces wild, or deuces and four jokers wild.

    .venv/bin/python benchmarks/solver.py                        # 30, 45, 60 cards, 200 hands each, both settings
    .venv/bin/python benchmarks/solver.py --hands 1000 --results solver-times.jsonl   # resumable full run
    .venv/bin/python benchmarks/solver.py --hands 100 --sizes 45 --wilds jokers
    .venv/bin/python benchmarks/solver.py --profile 45           # cProfile of the 45-card hands
    .venv/bin/python benchmarks/solver.py --hard                 # only the known hard hands
    .venv/bin/python benchmarks/solver.py --wild-heavy --hands 40  # hands holding 8 to 12 wild cards (Skarney)
    .venv/bin/python benchmarks/solver.py --bot-hands arlington  # the hands a search bot's rollouts ask for

Rules as Fortune and Arlington play them (sets of three or four, runs of any length, ace high or low, no
limit of wild cards per meld) and Fortune's values in hand (QS 50, 8 to K and aces 10, 3 to 7 5, a 2 10, a
joker 200). Two settings: ``deuces`` (two decks without jokers, the eight 2s wild) and ``jokers`` (two decks
and four jokers, 2s and jokers wild). Hand ``i`` of ``n`` cards is
``random.Random(seed * 1_000_000 + n * 10_000 + i).sample(deck, n)``. Times are CPU seconds
(``time.process_time``) of ``MeldSearch.arrange``, one solver per setting kept across hands as a game keeps
it. With ``--results FILE`` every hand's time is appended to FILE as it is measured and hands already in
FILE are not measured again, so a long run can be stopped and resumed (one FILE per version of the code
measured). Needs only rummykit; prints a
Markdown table (the one in docs/performance-history.md).

``--bot-hands VARIANT`` times the hands bots ask about instead: a search bot (seeded with ``--seed``) plays
that variant against greedy bots for ``--decisions`` of its decisions, every distinct hand its rollouts
hand the solver is kept, and each is then solved once by a new solver, timed by hand size; then once more by
a solver kept to its programme (hands of up to ``small_up_to`` cards are otherwise searched card by card
first). Those are the hands that decide a search bot's time (most of 8 to 20 cards with a wild card or two).
``--programme`` keeps the seeded hands' solver to its programme too. ``--wild-heavy`` times hands under Skarney
Singles' rules (2s and jokers wild, one to a meld) that hold many of the pack's twelve wild cards, as a hand
that takes every card offered comes to: 30 cards with 8, 44 with 10, 60 with 12, ``--hands`` of each (hand
``i``: ``random.Random(seed * 1_000_000 + cards * 10_000 + i)`` picks the wild cards, then the rest).
``--built-small VARIANT`` times hands of 14 to 20 cards built to be hard for that search card by card, both
ways, under the variant's rules.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import rummykit
from rummykit.cards import JOKER_FACE, Card, build_deck, parse
from rummykit.melds import MeldRules, MeldSearch
from rummykit.solver import DeadwoodSolver

TWOS = frozenset(suit * 13 + 1 for suit in range(4))
SETTINGS = {"deuces": (TWOS, 0), "jokers": (TWOS | {JOKER_FACE}, 4)}
"""Wild faces and jokers in the two decks."""
HARD_HAND = (
    "AC AC 2C 2C 3C 3C 4C 5C 6C TC TC AD AD 2D 3D 3D 4D 5D 6D 7D 8D 8D AH AH 2H 4H 5H 5H 6H 8H 8H JH KH "
    "AS 3S 3S 4S 4S 5S 6S 7S 8S 9S JS QS"
)
"""45 cards, deuces wild, whose least deadwood is 0 but which the quick pass leaves at 40 (without a look at
what the rest of the hand must leave out, the exact pass held some 700,000 states in its widest step)."""
PLAYED_HAND = (
    "3H 3S JK 4C 4C 4D 4H JK 4H 4S 4S 5C 5D 5H 5H 5S 5S 6C 6C 6D 6H 6H 6S 7C 7C 7D 7S 7S 7H 8H JK 9D TD JK "
    "JC JH JH 2C 2C 2D 2H 2S 2S KD"
)
"""44 cards of a terminal game of Skarney Singles, ten of them wild: least deadwood 10 (KD, which no meld can
hold). Proving that nothing less exists took the passes two minutes before they started from the cards no meld
can hold."""
WILD_HEAVY = ((30, 8), (44, 10), (60, 12))
"""``--wild-heavy``: cards in hand, wild cards among them."""


def fortune_values() -> list[int]:
    values = []
    for face in range(52):
        rank = face % 13 + 1
        values.append(10 if rank == 1 or rank == 2 or rank >= 8 else 5)
    values[3 * 13 + 11] = 50  # QS
    return values + [200]


def new_search(setting: str, programme: bool = False) -> MeldSearch:
    """A meld search under the module's rules and values; ``programme``: its solver's programme for every hand,
    small ones too (``--programme``)."""
    search = MeldSearch(MeldRules(wild_faces=SETTINGS[setting][0], ace="both"), fortune_values())
    if programme and search._solver is not None:
        search._solver.small_up_to = 0
    search.arrange(parse("3H 4H 5H 7C 7D 2S 9S TS KD KC QC 2D"))  # build the solver's tables outside the clock
    return search


def hand(setting: str, size: int, index: int, seed: int) -> list[Card]:
    deck = build_deck(2, SETTINGS[setting][1])
    return random.Random(seed * 1_000_000 + size * 10_000 + index).sample(deck, size)


def timed(search: MeldSearch, cards: list[Card]) -> tuple[float, int]:
    """CPU seconds to arrange ``cards``, and their least deadwood."""
    start = time.process_time()
    found = search.arrange(cards)
    return time.process_time() - start, found.deadwood_value


def bot_hands(variant_name: str, decisions: int, seed: int) -> list[tuple[list[int], list[int], int]]:
    """The distinct hands (counts, wild faces, jokers) the solver is asked about while a search bot plays
    ``decisions`` decisions of ``variant_name`` against greedy bots (``benchmarks/search_bot.py``), in the
    order first asked."""
    from search_bot import play

    import rummykit

    solver = rummykit.load_variant(variant_name).meld_search._solver  # the one the game will use
    if solver is None:
        raise SystemExit(f"{variant_name} does not use the solver (no wild cards or duplicates)")
    asked: dict[tuple[bytes, tuple[int, ...], int], None] = {}
    solve = solver.solve

    def recording(counts: Sequence[int], wilds: Sequence[int], jokers: int = 0) -> tuple[int, list[tuple[int, ...]]]:
        asked[bytes(counts), tuple(wilds), jokers] = None
        return solve(counts, wilds, jokers)

    solver.solve = recording  # type: ignore[method-assign]
    try:
        play(variant_name, seed, decisions=decisions)
    finally:
        del solver.solve  # the method again
    return [(list(counts), list(wilds), jokers) for counts, wilds, jokers in asked]


def solvers_both_ways(search: MeldSearch) -> dict[str, DeadwoodSolver]:
    """New solvers for ``search``'s hands: "as built" (small hands first searched card by card) and
    "programme" (its programme alone)."""
    if search._solver is None:
        raise SystemExit("this variant does not use the solver (no wild cards or duplicates)")
    ways = {}
    for way, small_up_to in (("as built", search._solver.small_up_to), ("programme", 0)):
        solver = DeadwoodSolver(search.rules, search.values, search._solver._melds_with)
        solver.small_up_to = small_up_to
        ways[way] = solver
    return ways


def time_bot_hands(variant_name: str, decisions: int, seed: int) -> None:
    """Each distinct hand solved once by a new solver of the variant's meld search, then once more by a new
    solver kept to its programme (no search for small hands), by hand size."""
    import rummykit

    hands = bot_hands(variant_name, decisions, seed)
    search = rummykit.load_variant(variant_name).meld_search
    ways = solvers_both_ways(search)
    by_size: dict[int, dict[str, list[float]]] = {}
    answers: dict[str, list[int]] = {way: [] for way in ways}
    for way, solver in ways.items():
        for counts, wilds, jokers in hands:
            start = time.process_time()
            answers[way].append(solver.solve(counts, wilds, jokers)[0])
            seconds = time.process_time() - start
            size = (sum(counts) + len(wilds) + jokers) // 4 * 4
            by_size.setdefault(size, {w: [] for w in ways})[way].append(seconds)
    if answers["as built"] != answers["programme"]:
        raise SystemExit("the two ways found different least deadwood")
    total = {way: sum(sum(times[way]) for times in by_size.values()) for way in ways}
    print(f"{len(hands)} distinct hands from {decisions} decisions of a search bot in {variant_name} (seed {seed})")
    print("(the solver as built, small hands first searched card by card; then its programme alone)\n")
    print("| cards | hands | median ms | mean ms | share of the time | programme: median ms | mean ms |")
    print("|------:|------:|----------:|--------:|------------------:|---------------------:|--------:|")
    for size, times in sorted(by_size.items()):
        built, programme = times["as built"], times["programme"]
        print(
            f"| {size} to {size + 3} | {len(built)} | {statistics.median(built) * 1e3:.2f} "
            f"| {statistics.mean(built) * 1e3:.2f} | {sum(built) / total['as built']:.0%} "
            f"| {statistics.median(programme) * 1e3:.2f} | {statistics.mean(programme) * 1e3:.2f} |"
        )
    print(
        f"\nAll: {total['as built']:.2f} CPU s, {total['as built'] / len(hands) * 1e3:.2f} ms a hand; the programme "
        f"alone {total['programme']:.2f} s, {total['programme'] / len(hands) * 1e3:.2f} ms a hand (the same least "
        "deadwood for every hand)"
    )


def built_small_hands(search: MeldSearch) -> dict[str, tuple[list[int], list[int]]]:
    """Hands of 14 to 20 cards built to be hard for the search card by card, with 0 to 3 wild cards (the
    search's own wild faces, jokers left out): one suit twice over, two suits in a row, and four of each
    rank from 3 up. By name: (counts by face, wild faces)."""
    wild_faces = sorted(search.rules.wild_faces - {JOKER_FACE})
    natural = [f for f in range(52) if f not in search.rules.wild_faces]
    shapes = {
        "one suit twice over": [f for f in natural if f < 13 for _ in range(2)],
        "two suits in a row": [f for f in natural if f < 26],
        "four of each rank": [s * 13 + r - 1 for r in range(3, 14) for s in range(4) if s * 13 + r - 1 in natural],
    }
    hands = {}
    for wild_count in range(4):
        for size in (14, 16, 18, 20):
            for shape, faces in shapes.items():
                counts = [0] * 52
                for face in faces[: size - wild_count]:
                    counts[face] += 1
                hands[f"{shape}, {size} cards, {wild_count} wild"] = (counts, (wild_faces * 4)[:wild_count])
    return hands


def time_built_small_hands(variant_name: str) -> None:
    """:func:`built_small_hands` under a variant's rules, each by a new solver as built and by a new one kept to
    its programme."""
    import rummykit

    search = rummykit.load_variant(variant_name).meld_search
    rows = []
    for name, (counts, wilds) in built_small_hands(search).items():
        seconds = []
        answers = []
        for solver in solvers_both_ways(search).values():  # new ones for each hand: nothing kept from another
            start = time.process_time()
            answers.append(solver.solve(counts, wilds)[0])
            seconds.append(time.process_time() - start)
        if answers[0] != answers[1]:
            raise SystemExit(f"{name}: the two ways found different least deadwood")
        rows.append((seconds[0], seconds[1], name))
    rows.sort()
    print(f"{len(rows)} built hands under {variant_name}'s rules: the solver as built, and its programme alone\n")
    print("| hand | ms as built | ms, programme |")
    print("|:-----|-----------:|--------------:|")
    for built, programme, name in rows[-5:]:
        print(f"| {name} | {built * 1e3:.1f} | {programme * 1e3:.1f} |")
    print(
        f"\nAll: {sum(r[0] for r in rows) * 1e3:.0f} ms as built, {sum(r[1] for r in rows) * 1e3:.0f} ms the programme "
        f"alone; the most a hand took more: {max(r[0] - r[1] for r in rows) * 1e3:.1f} ms"
    )


def time_wild_heavy(hands: int, seed: int) -> None:
    """``--wild-heavy``: under Skarney Singles' rules, hands holding many wild cards (:data:`WILD_HEAVY`)."""
    search = rummykit.load_variant("skarney-singles").meld_search
    deck = build_deck(2, 4)
    wild = [c for c in deck if search.is_wild(c)]
    natural = [c for c in deck if not search.is_wild(c)]
    print("| cards | wild cards | hands | median ms | worst ms | over 250 ms |")
    print("|------:|-----------:|------:|----------:|---------:|------------:|")
    for size, wilds in WILD_HEAVY:
        times = []
        for index in range(hands):
            rng = random.Random(seed * 1_000_000 + size * 10_000 + index)
            seconds, _ = timed(search, rng.sample(wild, wilds) + rng.sample(natural, size - wilds))
            times.append(seconds)
        times.sort()
        over = sum(t > 0.25 for t in times)
        print(
            f"| {size} | {wilds} | {hands} | {statistics.median(times) * 1e3:.1f} | {times[-1] * 1e3:.0f} | {over} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="seeded hands per size and setting (default 200)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 45, 60])
    parser.add_argument("--wilds", choices=sorted(SETTINGS), nargs="+", default=sorted(SETTINGS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--results", type=Path, help="append each hand's time here; hands already in it are kept")
    parser.add_argument("--profile", type=int, metavar="SIZE", help="profile the hands of this size instead")
    parser.add_argument("--hard", action="store_true", help="time only the known hard hands")
    parser.add_argument("--wild-heavy", action="store_true", help="time hands of Skarney Singles with many wild cards")
    parser.add_argument("--skip-hard", action="store_true", help="leave the known hard hand out")
    parser.add_argument("--bot-hands", metavar="VARIANT", help="time the hands a search bot asks about instead")
    parser.add_argument("--decisions", type=int, default=15, help="search-bot decisions for --bot-hands (15)")
    parser.add_argument("--programme", action="store_true", help="no search card by card for small hands")
    parser.add_argument("--built-small", metavar="VARIANT", help="time hands built to be hard for small-hand search")
    args = parser.parse_args()
    if args.bot_hands:
        time_bot_hands(args.bot_hands, args.decisions, args.seed)
        return
    if args.built_small:
        time_built_small_hands(args.built_small)
        return
    if args.profile:
        profile = cProfile.Profile()
        for setting in args.wilds:
            search = new_search(setting, args.programme)
            profile.enable()
            for index in range(args.hands):
                search.arrange(hand(setting, args.profile, index, args.seed))
            profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    if not args.skip_hard:
        seconds, least = timed(new_search("deuces", args.programme), parse(HARD_HAND))
        print(f"The hard hand (45 cards, deuces wild): {seconds * 1e3:.0f} ms, least deadwood {least}", flush=True)
        played = rummykit.load_variant("skarney-singles").meld_search
        seconds, least = timed(played, parse(PLAYED_HAND))
        print(
            f"The played hand (44 cards of Skarney Singles, ten wild): {seconds * 1e3:.0f} ms, least deadwood {least}\n"
        )
    if args.hard:
        return
    if args.wild_heavy:
        time_wild_heavy(args.hands, args.seed)
        return
    done: dict[tuple[str, int, int, int], tuple[float, int]] = {}
    if args.results and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line)
            done[row["wilds"], row["cards"], row["seed"], row["hand"]] = (row["seconds"], row["deadwood"])
    out = args.results.open("a") if args.results else None
    print("| wild cards | cards | hands | wild cards (mean) | median ms | worst ms | mean deadwood | no deadwood |")
    print("|:-----------|------:|------:|------------------:|----------:|---------:|--------------:|------------:|")
    for setting in args.wilds:
        search = new_search(setting, args.programme)
        for size in args.sizes:
            times, deadwood, wilds = [], [], []
            for index in range(args.hands):
                cards = hand(setting, size, index, args.seed)
                measured = done.get((setting, size, args.seed, index))
                if measured is None:
                    measured = timed(search, cards)
                    if out:
                        row = {"wilds": setting, "cards": size, "seed": args.seed, "hand": index}
                        out.write(json.dumps(row | {"seconds": measured[0], "deadwood": measured[1]}) + "\n")
                        out.flush()
                times.append(measured[0])
                deadwood.append(measured[1])
                wilds.append(sum(1 for c in cards if search.is_wild(c)))
            worst = max(range(len(times)), key=times.__getitem__)
            print(
                f"| {'2s and jokers' if setting == 'jokers' else '2s'} | {size} | {len(times)} "
                f"| {statistics.mean(wilds):.1f} | {statistics.median(times) * 1e3:.1f} "
                f"| {times[worst] * 1e3:.0f} (hand {worst}) | {statistics.mean(deadwood):.1f} "
                f"| {sum(d == 0 for d in deadwood)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
