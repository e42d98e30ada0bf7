#!/usr/bin/env python3
"""Time ``Game.legal_actions()`` on big hands: the table games, where a hand that takes the pile grows.

    .venv/bin/python benchmarks/listing.py                        # 20, 45 and 70 cards, 20 hands each
    .venv/bin/python benchmarks/listing.py --hands 50 --sizes 70 --only arlington
    benchmarks/.checkouts/venv-REF/bin/python benchmarks/listing.py --json before.json   # another checkout

Per variant and hand size, ``--hands`` seeded deals put that many cards in the first player's hand (the
``layout`` of ``Variant.new_game``: one card fewer, then the stock's top card drawn), with the other hands
dealt as usual and one card on the pile. Two listings are timed, in CPU seconds (``time.process_time``), on
a fresh game each time (no answer kept from an earlier call): the draw (``draw``: the whole pile's takes,
which meld its top card) and, after drawing, the play (``play``: melds, lay-offs, discards). Hand ``i`` of
``n`` cards is the first ``n - 1`` cards of ``random.Random(n * 1000 + i).shuffle`` of the variant's pack.
Needs only rummykit (any checkout's virtual environment will do, so two versions can be run side by side);
prints a Markdown table (the one in docs/performance-history.md) and, with ``--json``, every time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import rummykit
from rummykit.cards import build_deck

GAMES = {
    # variant: (players, decks, jokers)
    "fortune": (2, 2, 0),
    "arlington": (2, 2, 0),
    "skarney-singles": (2, 2, 4),
    "iceberg": (4, 2, 0),
    "500-rum": (5, 2, 0),
}


def deals(name: str, size: int, hands: int) -> list[dict[str, object]]:
    """The layouts: the first hand of ``size - 1`` cards, the others of the usual size, one card on the pile."""
    players, decks, jokers = GAMES[name]
    usual = rummykit.load_variant(name).new_game(players=players, seed=1).deal.hands[1]
    found = []
    for i in range(hands):
        pack = [str(c) for c in build_deck(decks, jokers)]
        random.Random(size * 1000 + i).shuffle(pack)
        first, rest = pack[: size - 1], pack[size - 1 :]
        others = [rest[j * len(usual) : (j + 1) * len(usual)] for j in range(players - 1)]
        used = (players - 1) * len(usual)
        found.append({"dealer": players - 1, "hands": [first, *others], "discard": [rest[used]]})
    return found


def forget(game: rummykit.Game) -> None:
    """Drop the answers kept for this position (the deal lists once per position; the meld search keeps its
    last hand's melds, each lowest card's and answers about melds; Skarney keeps its contracts' melds), so that
    the listing is timed whole."""
    game.deal._legal = None
    search = game.variant.meld_search
    for kept in ("_last_general", "_last_first"):  # the second is newer than some checkouts
        if hasattr(search, kept):
            setattr(search, kept, None)
    # Each lowest card's melds and their shapes, the tables' melds by the cards that meld, runs' placements by
    # their faces, answers kept with melds (each newer than some checkouts).
    for memo in ("_by_low_melds", "_skeletons", "_entries_by_meldable", "_placements_by_faces", "_kept"):
        if hasattr(search, memo):
            getattr(search, memo).clear()
    try:  # Skarney's contract melds, kept by their cards (newer still)
        from rummykit.plugins import skarney
    except ImportError:  # pragma: no cover - a checkout without the plugins package
        return
    for name in ("_KEPT", "_MADE"):  # the first is newer than some checkouts
        made = getattr(skarney, name, None)
        if made is not None:
            made.clear()


def time_listing(name: str, layout: dict[str, object]) -> tuple[float, float, int]:
    """CPU seconds of the draw's listing and of the play's, and how many actions the play lists."""
    variant = rummykit.load_variant(name)
    players = GAMES[name][0]
    game = variant.new_game(players=players, seed=1, layout=layout)
    forget(game)
    start = time.process_time()
    game.legal_actions()
    drawing = time.process_time() - start
    game.apply("draw stock")
    forget(game)
    start = time.process_time()
    listed = game.legal_actions()
    playing = time.process_time() - start
    return drawing, playing, len(listed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20, help="seeded hands per variant and size (default 20)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 45, 70])
    parser.add_argument("--only", action="append", choices=sorted(GAMES), help="variants (default: all)")
    parser.add_argument("--json", type=Path, help="save every time here")
    args = parser.parse_args()
    if args.json is not None and not args.json.parent.is_dir():
        parser.error(f"--json {args.json}: no such directory {args.json.parent}")
    names = args.only or list(GAMES)
    for name in names:  # tables built outside the clock
        rummykit.load_variant(name).new_game(players=GAMES[name][0], seed=1).legal_actions()
    saved: dict[str, dict[str, list[float]]] = {}
    print(
        "| variant | cards | draw median ms | draw worst ms | play median ms | play worst ms "
        "| actions listed (median) |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in names:
        for size in args.sizes:
            times = [time_listing(name, layout) for layout in deals(name, size, args.hands)]
            draw = [t[0] * 1000 for t in times]
            play = [t[1] * 1000 for t in times]
            listed = statistics.median(t[2] for t in times)
            saved[f"{name} {size}"] = {"draw": draw, "play": play}
            print(
                f"| {name} | {size} | {statistics.median(draw):.1f} | {max(draw):.1f} | "
                f"{statistics.median(play):.1f} | {max(play):.1f} | {listed:.0f} |",
                flush=True,
            )
    if args.json is not None:
        args.json.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
