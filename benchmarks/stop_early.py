#!/usr/bin/env python3
"""Does stopping early change the search bot's choices, and what does it save? Replayed on recorded rollouts.

    .venv/bin/python benchmarks/stop_early.py gin arlington --seeds 1 2 3
    .venv/bin/python benchmarks/stop_early.py skarney-singles --decisions 45 --time

For each variant and seed, the search bot with its whole budget (``SearchBot(seed=SEED, stop_early=False)``)
plays a game against greedy bots seeded ``SEED + seat``, as ``benchmarks/search_bot.py`` does, and every
rollout of every decision is recorded. The bot with ``stop_early`` then weighs the same candidates on the
same rollouts, read from the record (``SearchBot.weigh``, the bot's own code): its choice is compared with
the whole budget's and its rollouts are counted. Where it sends a close call to another leader than the
whole budget did, the rollouts it would need were never played: that decision counts as unknown (and its
rollouts as far as the record goes).

``--time`` also times both bots' decisions on the positions of each game: the recorded game is played
again in two processes side by side, one per bot, each timing its own bot's decisions (CPU time). Their
samples differ from the first decision on (the bot stopping early draws fewer), so the choices they would
make are not compared there: the replay above does that. Needs only rummykit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rummykit
from rummykit.bots import GreedyBot, SearchBot
from rummykit.engine import Action, Game


class _Unrecorded(Exception):
    """A rollout the whole budget never played."""


class Recorder(SearchBot):
    """The whole-budget bot, keeping every decision's rollouts (by candidate, in sample order) and choice."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, stop_early=False)
        self.decisions: list[tuple[list[list[float]], int]] = []

    def weigh(self, game: Game, candidates: list[Action], values: list[list[float]]) -> int:
        chosen = super().weigh(game, candidates, values)
        self.decisions.append(([list(v) for v in values], chosen))
        return chosen


class Replayer(SearchBot):
    """The bot stopping early, its rollouts read from a record instead of played."""

    def __init__(self, record: list[list[float]], stop_early: bool = True) -> None:
        super().__init__(0, stop_early=stop_early)
        self.record = record
        self.rollouts = 0

    def _sample(self, game, seat, candidates, which, values, stop=None):  # type: ignore[no-untyped-def]
        for i in which:
            n = len(values[i])
            if n >= len(self.record[i]):
                raise _Unrecorded
            values[i].append(self.record[i][n])
            self.rollouts += 1


def record_game(name: str, seed: int, decisions: int | None) -> tuple[Recorder, list[str]]:
    """The whole-budget bot's game (stopped after its ``decisions``-th decision) and its actions as text."""
    game = rummykit.load_variant(name).new_game(seed=seed)
    bot = Recorder(seed)
    others = [GreedyBot(seed=seed + seat) for seat in range(game.num_players)]
    actions: list[str] = []
    made = 0
    while not game.is_over and (decisions is None or made < decisions):
        seat = game.deal.actor
        if seat == 0:
            action = bot.choose(game)
            made += 1
        else:
            action = others[seat].choose(game)
        actions.append(str(action))
        game.apply(action)
    return bot, actions


def replay(name: str, bot: Recorder, stop_early: bool = True) -> dict[str, int]:
    """The bot stopping early on each recorded decision: same choice, another, or unknown; rollouts.
    (``stop_early=False`` replays the whole budget: every choice the same, every rollout, a check.)"""
    game = rummykit.load_variant(name).new_game(seed=0)  # weigh() asks whose turn it is, nothing else
    counts = {"decisions": 0, "same": 0, "other": 0, "unknown": 0, "rollouts": 0, "whole_rollouts": 0}
    for values, chosen in bot.decisions:
        counts["decisions"] += 1
        counts["whole_rollouts"] += sum(map(len, values))
        early = Replayer(values, stop_early)
        try:
            mine = early.weigh(game, [Action("discard")] * len(values), [[] for _ in values])
        except _Unrecorded:
            counts["unknown"] += 1
        else:
            counts["same" if mine == chosen else "other"] += 1
        counts["rollouts"] += early.rollouts
    return counts


def time_positions(name: str, seed: int, path: str, stop_early: bool) -> float:
    """CPU seconds the bot takes over the seat-0 decisions of the recorded game at ``path`` (its actions played)."""
    game = rummykit.load_variant(name).new_game(seed=seed)
    bot = SearchBot(seed=seed, stop_early=stop_early)
    seconds = 0.0
    for text in json.loads(Path(path).read_text(encoding="utf-8")):
        if game.deal.actor == 0:
            start = time.process_time()
            bot.choose(game)
            seconds += time.process_time() - start
        game.apply(game.resolve(text))
    return seconds


def time_both(name: str, seed: int, actions: list[str]) -> tuple[float, float]:
    """Both bots timed on the recorded game's positions, in two processes side by side: (early, whole)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as saved:
        json.dump(actions, saved)
    runs = [
        subprocess.Popen(
            [sys.executable, __file__, "--time-positions", name, str(seed), saved.name, flag],
            stdout=subprocess.PIPE,
            text=True,
        )
        for flag in ("early", "whole")
    ]
    try:
        early, whole = (float(run.communicate()[0]) for run in runs)
    finally:
        Path(saved.name).unlink()
    return early, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["gin", "arlington", "iceberg"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument("--decisions", type=int, help="stop each game after the search bot's N-th decision")
    parser.add_argument("--time", action="store_true", help="also time both bots on each game's positions")
    parser.add_argument("--time-positions", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_positions:
        name, seed, path, which = args.time_positions
        print(time_positions(name, int(seed), path, which == "early"))
        return
    total: dict[str, int] = {}
    for name in args.variants:
        for seed in args.seeds:
            bot, actions = record_game(name, seed, args.decisions)
            counts = replay(name, bot)
            for key, value in counts.items():
                total[key] = total.get(key, 0) + value
            line = f"{name}, seed {seed}: {describe(counts)}"
            if args.time:
                early, whole = time_both(name, seed, actions)
                line += f"; CPU s on the same positions: stopping early {early:.1f}, whole budget {whole:.1f} "
                line += f"({early / whole:.2f})"
            print(line, flush=True)
    if len(args.variants) * len(args.seeds) > 1:
        print(f"all: {describe(total)}")


def describe(counts: dict[str, int]) -> str:
    return (
        f"{counts['decisions']} decisions weighed; stopping early chose the same {counts['same']}, another "
        f"{counts['other']}, unknown {counts['unknown']}; rollouts {counts['rollouts']:,} of "
        f"{counts['whole_rollouts']:,} ({counts['rollouts'] / max(1, counts['whole_rollouts']):.2f})"
    )


if __name__ == "__main__":
    main()
