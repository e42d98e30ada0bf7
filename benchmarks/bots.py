"""The bots' strength table: whole games between two bots, per variant, written to ``docs/bots.md``.

    python3 benchmarks/bots.py                                   # every variant, 1,000 games per pairing
    python3 benchmarks/bots.py --variants gin --pairings search-greedy --games 200 --jobs 2
    python3 benchmarks/bots.py --table-only                      # rewrite the table from the saved results

Pairings: ``search-greedy`` (the search bot at its default budget against greedy), ``outs-greedy`` (the search
bot's first choice, without search, against greedy) and ``greedy-random``.
Game ``i`` of a pairing has the seed ``derive_seed(seed, variant, i)``; the first bot plays the side
``i % sides`` (its partner's seat too in partnership games; in games of three or more without partners it
has one seat and the second bot all the others), so the seats alternate. A game counts as won when the
first bot's side is the game's winner; the table gives that rate with its 95 % Wilson interval, the rate an
even match would give (one in the number of sides), and the search bot's median and slowest time per
decision. Results accumulate in ``benchmarks/bots-results.json`` (one entry per variant and pairing, replaced
by a new run of it, or continued with ``--resume``), and the OpenSpiel yardstick's summaries, one per bot
(``benchmarks/openspiel_gin.py --json benchmarks/openspiel-results.json``), are shown under the table when
present.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import rummykit
from rummykit.bots import Bot, SearchBot, make_bot
from rummykit.engine import Game
from rummykit.search import side_difference
from rummykit.simulate import derive_seed

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "bots-results.json"
OPENSPIEL = HERE / "openspiel-results.json"
DOC = HERE.parent / "docs" / "bots.md"
BEGIN, END = "<!-- strength table: benchmarks/bots.py -->", "<!-- end of strength table -->"

VARIANTS = [
    "gin",
    "oklahoma-gin",
    "gin-3",
    "gin-partnership",
    "500-rum",
    "500-partnership",
    "persian",
    "fortune",
    "arlington",
    "skarney",
    "skarney-singles",
    "iceberg",
]
PAIRINGS = {
    "search-greedy": ("search", "greedy"),
    "outs-greedy": ("outs", "greedy"),
    "greedy-random": ("greedy", "random"),
}
SEARCH_VERSION = 3
"""Which search bot an entry measured, saved with every entry of the search bot (``search_version``):
1 (entries without the field) settled every decision on its 24 samples; 2 settles close calls on more;
3 stops sampling candidates far behind and close calls once settled (``stop_early``)."""
SEARCH_VERSIONS = {
    1: "the search bot before close calls were settled on more samples (commit d0eba3c and earlier)",
    2: "the search bot before it stopped sampling early (commit e3c84d6 and earlier; `stop_early=False` plays so)",
}
"""What the table's legend says of an earlier search bot, whose entries are marked ``(v1)``..."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131)


def t95(df: int) -> float:
    """The two-sided 95 % quantile of Student's t with ``df`` degrees of freedom: a table up to 15, then its
    Cornish-Fisher expansion around the normal quantile (within 0.001 from there on)."""
    if df <= len(T95):
        return T95[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95 % t interval (infinite for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def play(variant_name: str, pairing: str, index: int, seed: int) -> dict[str, Any]:
    """Game ``index`` of a pairing: whether the first bot's side won, and the first bot's decision times."""
    variant = rummykit.load_variant(variant_name)
    game_seed = derive_seed(seed, variant_name, index)
    game = variant.new_game(seed=game_seed)
    first, second = PAIRINGS[pairing]
    n = game.num_players
    sides = sorted({game.side_of(s) for s in range(n)})
    side = sides[index % len(sides)]
    bots: list[Bot] = [
        make_bot(first if game.side_of(s) == side else second, derive_seed(game_seed, "bot", s)) for s in range(n)
    ]
    times: list[float] = []
    cpu_times: list[float] = []
    play_timed(game, bots, times, cpu_times)
    won = game.winner is not None and game.side_of(game.winner) == side
    return {"won": won, "sides": len(sides), "hands": len(game.results), "times": times, "cpu_times": cpu_times}


def play_timed(
    game: Game, bots: list[Bot], times: list[float], cpu_times: list[float], until_scored: bool = False
) -> None:
    """Play ``game`` with a bot per seat to its end (``until_scored``: or until a score has changed), adding
    the search bots' time per decision to ``times`` (wall clock) and ``cpu_times``."""
    timed = [isinstance(bot, SearchBot) for bot in bots]
    while not game.is_over and not (until_scored and any(game.scores)):
        seat = game.deal.actor
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(game)
        if timed[seat]:
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
        game.apply(action)


def _one(args: tuple[str, str, int, int]) -> dict[str, Any]:
    return play(*args)


DEAL_HANDS = 4
"""The most hands a paired deal plays while no score has changed (Partnership Gin scores a round of two
tables at its second hand; a hand may end without a score)."""


def play_deal(
    variant_name: str, pairing: str, index: int, seed: int, first_options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Deal ``index`` played once per side that has a seat in the hand (the dealer sits out in Three-handed
    Gin), the first bot on that side, the second bot in every other seat: the first bot's side's points less
    the other sides' average (:func:`~rummykit.search.side_difference`), averaged over the plays. Every
    play starts from the same cards, dealer and seat order, so what the deal gives cancels out. A play
    stops at the end of the first hand that changed a score (at most :data:`DEAL_HANDS` hands).
    ``first_options`` are the first bot's options (:func:`~rummykit.bots.make_bot`), if any."""
    variant = rummykit.load_variant(variant_name)
    deal_seed = derive_seed(seed, variant_name, "deal", index)
    first, second = PAIRINGS[pairing]
    differences: list[float] = []
    times: list[float] = []
    cpu_times: list[float] = []
    probe = variant.new_game(seed=deal_seed, max_hands=DEAL_HANDS)
    sides = sorted({probe.side_of(s) for s in probe.deal.seats})
    for side in sides:
        game = variant.new_game(seed=deal_seed, max_hands=DEAL_HANDS)
        n = game.num_players
        bots: list[Bot] = [
            make_bot(first, derive_seed(deal_seed, "bot", side, s), **(first_options or {}))
            if game.side_of(s) == side
            else make_bot(second, derive_seed(deal_seed, "bot", side, s))
            for s in range(n)
        ]
        play_timed(game, bots, times, cpu_times, until_scored=True)
        mine = next(s for s in range(n) if game.side_of(s) == side)
        differences.append(side_difference(game, game.scores, mine))
    return {
        "difference": sum(differences) / len(differences),
        "plays": differences,
        "times": times,
        "cpu_times": cpu_times,
    }


def _one_deal(args: tuple[str, str, int, int]) -> dict[str, Any]:
    return play_deal(*args)


def run_deals(name: str, pairing: str, deals: int, jobs: int, seed: int, resume: bool = False) -> dict[str, Any]:
    """:func:`play_deal` for deals 0 to ``deals``-1 (in ``jobs`` processes), the entry saved after each deal
    (``resume``: on from the deals saved; the time figures are then this run's)."""
    start = time.perf_counter()
    key = f"{name}/{pairing}/deals"
    previous = saved_entry(key, seed) if resume else None
    rows: list[dict[str, Any]] = list(previous["rows"]) if previous is not None else []
    earlier = previous["elapsed_seconds"] if previous is not None else 0.0
    tasks = [(name, pairing, i, seed) for i in range(len(rows), deals)]
    entry: dict[str, Any] = previous or {}
    wall: list[float] = []
    cpu: list[float] = []
    with ProcessPoolExecutor(jobs) as pool:
        for row in pool.map(_one_deal, tasks, chunksize=1):
            rows.append({"difference": row["difference"], "plays": row["plays"]})
            wall += row["times"]
            cpu += row["cpu_times"]
            entry = deal_summary(name, pairing, rows, seed, earlier + time.perf_counter() - start, wall, cpu)
            save(entry, key)
    return entry


def deal_summary(
    name: str,
    pairing: str,
    rows: list[dict[str, Any]],
    seed: int,
    elapsed: float,
    wall: list[float],
    cpu: list[float],
) -> dict[str, Any]:
    """The paired-deal entry: the mean difference per hand with its 95 % t interval over the deals, plays
    won and lost, and the first bot's time per decision (``wall``, ``cpu``: the decisions timed)."""
    n = len(rows)
    mean, low, high = mean_interval([r["difference"] for r in rows])
    plays = [p for r in rows for p in r["plays"]]
    return {
        "variant": name,
        "pairing": pairing,
        "deals": n,
        "hands": len(plays),
        "hands_won": sum(p > 0 for p in plays),
        "hands_lost": sum(p < 0 for p in plays),
        "mean_difference": mean,
        "interval": [low, high] if n > 1 else None,
        "rows": rows,
        **run_fields(wall, cpu, seed, elapsed),
    }


def run(name: str, pairing: str, games: int, jobs: int, seed: int, resume: bool = False) -> dict[str, Any]:
    """Play the games (in ``jobs`` processes), saving the entry after each game, so that a run stopped
    early still leaves the games it played in the results. ``resume``: go on from the saved entry of the
    same seed (games 0 to n-1 played) with games n onwards."""
    start = time.perf_counter()
    previous = saved_entry(f"{name}/{pairing}", seed) if resume else None
    first = previous["games"] if previous is not None else 0
    rows: list[dict[str, Any]] = []
    tasks = [(name, pairing, i, seed) for i in range(first, games)]
    entry: dict[str, Any] = previous or {}
    with ProcessPoolExecutor(jobs) as pool:
        for row in pool.map(_one, tasks, chunksize=1):
            rows.append(row)
            entry = summary(name, pairing, rows, seed, time.perf_counter() - start)
            if previous is not None:
                entry = combined(previous, entry)
            save(entry)
    return entry


def combined(earlier: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    """The entry of two runs of one pairing, the later one going on where the earlier stopped: counts add
    up; the time figures stay the earlier run's (a median does not combine), ``timed_games`` says over how
    many games they were taken."""
    entry = dict(earlier)
    for key in ("games", "wins", "hands", "decisions", "elapsed_seconds"):
        entry[key] = earlier[key] + later[key]
    entry["rate"] = entry["wins"] / entry["games"]
    entry["interval"] = list(wilson(entry["wins"], entry["games"]))
    entry["timed_games"] = earlier.get("timed_games", earlier["games"])
    return entry


def summary(name: str, pairing: str, rows: list[dict[str, Any]], seed: int, elapsed: float) -> dict[str, Any]:
    wins = sum(r["won"] for r in rows)
    times = [t for r in rows for t in r["times"]]
    cpu = [t for r in rows for t in r.get("cpu_times", ())]
    low, high = wilson(wins, len(rows))
    return {
        "variant": name,
        "pairing": pairing,
        "games": len(rows),
        "wins": wins,
        "rate": wins / len(rows) if rows else 0.0,
        "interval": [low, high],
        "even": 1 / rows[0]["sides"] if rows else None,
        "hands": sum(r["hands"] for r in rows),
        **run_fields(times, cpu, seed, elapsed),
    }


def run_fields(wall: list[float], cpu: list[float], seed: int, elapsed: float) -> dict[str, Any]:
    """What every saved entry says of its run: the search bot's decision times (wall clock and CPU), the
    seed, the time taken and the machine."""
    return {
        "median_move_seconds": statistics.median(wall) if wall else None,
        "max_move_seconds": max(wall) if wall else None,
        "median_move_cpu_seconds": statistics.median(cpu) if cpu else None,
        "decisions": len(wall),
        "seed": seed,
        "search_version": SEARCH_VERSION,
        "elapsed_seconds": elapsed,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }


def save(entry: dict[str, Any], key: str | None = None) -> None:
    results = load_results()  # another run may have saved meanwhile
    results[key or f"{entry['variant']}/{entry['pairing']}"] = entry
    tmp = RESULTS.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(RESULTS)


TIMED_PER_GAME = 10
"""Decisions timed per game by :func:`time_moves`."""
SKIPPED_MOVES = 600
"""Up to this many moves of greedy play (a seeded number) before a game's timed decisions start."""


def time_moves(name: str, decisions: int, seed: int) -> dict[str, Any]:
    """The search bot's time per decision (wall clock and this process's CPU time) over ``decisions``
    decisions in games against greedy, one process: the speed figure without the strength run. Each game is
    first played by greedy in every seat for a seeded number of moves (0 to :data:`SKIPPED_MOVES`), then the
    search bot's next :data:`TIMED_PER_GAME` decisions are timed: decisions from every stage of a game, not
    only its first hand."""
    wall: list[float] = []
    cpu: list[float] = []
    index = 0
    variant = rummykit.load_variant(name)
    while len(wall) < decisions:
        game_seed = derive_seed(seed, name, "timing", index)
        game = variant.new_game(seed=game_seed)
        sides = sorted({game.side_of(s) for s in range(game.num_players)})
        side = sides[index % len(sides)]  # the search bot's side (its partner's seat too), alternating
        greedy = [make_bot("greedy", derive_seed(game_seed, "greedy", s)) for s in range(game.num_players)]
        bots: list[Bot] = [
            SearchBot(derive_seed(game_seed, "search", s)) if game.side_of(s) == side else greedy[s]
            for s in range(game.num_players)
        ]
        index += 1
        for _ in range(random.Random(game_seed).randrange(SKIPPED_MOVES)):
            if game.is_over:
                break
            game.apply(greedy[game.deal.actor].choose(game))
        timed = 0
        while not game.is_over and len(wall) < decisions and timed < TIMED_PER_GAME:
            bot = bots[game.deal.actor]
            start, used = time.perf_counter(), time.process_time()
            action = bot.choose(game)
            if isinstance(bot, SearchBot):
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - used)
                timed += 1
            game.apply(action)
    return {
        "variant": name,
        "search_version": SEARCH_VERSION,
        "decisions": len(wall),
        "median_wall_seconds": statistics.median(wall),
        "max_wall_seconds": max(wall),
        "median_cpu_seconds": statistics.median(cpu),
        "max_cpu_seconds": max(cpu),
        "share_over_1s_cpu": sum(t > 1 for t in cpu) / len(cpu),
    }


def saved_entry(key: str, seed: int) -> dict[str, Any] | None:
    """The saved entry ``key`` if it was played from ``seed`` (a resumed run goes on from it), else None.
    An entry of an earlier search bot is not gone on with: the run would mix two bots."""
    entry: dict[str, Any] | None = load_results().get(key)
    if entry is None or entry.get("seed") != seed:
        return None
    if "search" in key and entry.get("search_version", 1) != SEARCH_VERSION:
        raise SystemExit(f"{key} was played by search bot {entry.get('search_version', 1)}, not {SEARCH_VERSION}: "
                         "start it afresh (without --resume)")  # fmt: skip
    return entry


def version_note(entry: dict[str, Any]) -> str:
    """`` (v1)`` for an entry of an earlier search bot (:data:`SEARCH_VERSIONS`); empty otherwise."""
    if "search" not in entry.get("pairing", "search"):
        return ""
    version = entry.get("search_version", 1)
    return "" if version == SEARCH_VERSION else f" (v{version})"


def legend(lines: list[str]) -> list[str]:
    """The lines saying what each ``(vN)`` mark in ``lines`` stands for."""
    return [f"(v{v}): {text}." for v, text in SEARCH_VERSIONS.items() if any(f" (v{v})" in line for line in lines)]


def load_results() -> dict[str, Any]:
    if RESULTS.exists():
        data: dict[str, Any] = json.loads(RESULTS.read_text(encoding="utf-8"))
        return data
    return {}


def timing_cell(entry: dict[str, Any]) -> str:
    """The table's median / slowest move of an entry (and its CPU median), or ``-`` where no bot was timed."""
    if entry["median_move_seconds"] is None:
        return "-"
    slowest = entry["max_move_seconds"]  # None where a run was paused mid-move (its wall clock ran on)
    cell = f"{entry['median_move_seconds'] * 1000:.0f} ms / " + ("-" if slowest is None else f"{slowest:.1f} s")
    if entry.get("median_move_cpu_seconds") is not None:
        cell += f" (CPU median {entry['median_move_cpu_seconds'] * 1000:.0f} ms)"
    return cell


def with_earlier(results: dict[str, Any], key: str) -> list[str]:
    """``key``'s entries to show: an earlier search bot's kept beside it (``KEY@v1``...) first, then ``key``'s
    own (where there is one)."""
    earlier = sorted((k for k in results if k.startswith(key + "@v")), key=lambda k: int(k.rsplit("@v", 1)[1]))
    return earlier + ([key] if key in results else [])


def table(results: dict[str, Any]) -> str:
    lines = [
        BEGIN,
        "",
        "| variant | pairing | games | first bot's wins | 95 % interval | even match "
        "| median / slowest move (wall clock) |",
        "|---|---|---:|---:|---|---:|---|",
    ]
    for name in VARIANTS:
        for pairing in PAIRINGS:
            key = f"{name}/{pairing}"
            # an earlier search bot's entries kept beside the current one's (``KEY@vN``), then the current one
            shown = with_earlier(results, key)
            if not shown and pairing == "outs-greedy":
                continue  # optional: shown where it was run
            if not shown:
                lines.append(f"| {name} | {pairing.replace('-', ' vs ')} | not run | | | | |")
                continue
            for e in (results[k] for k in shown):
                low, high = e["interval"]
                timing = timing_cell(e)
                if timing != "-" and e.get("timed_games", e["games"]) < e["games"]:
                    timing += f", over the first {e['timed_games']:,} games"
                lines.append(
                    f"| {name} | {pairing.replace('-', ' vs ')}{version_note(e)} | {e['games']:,} | {e['rate']:.1%} "
                    f"| {low:.1%} – {high:.1%} | {e['even']:.0%} | {timing} |"
                )
    timings = [results[f"{name}/timing"] for name in VARIANTS if f"{name}/timing" in results]
    if timings:
        lines += [
            "",
            "Time per decision of the search bot at its default budget, in games against greedy, one process:",
            "",
        ]
        lines += ["| variant | decisions | median (CPU) | slowest (CPU) | over 1 s (CPU) | median (wall clock) |"]
        lines += ["|---|---:|---:|---:|---:|---:|"]
        for t in timings:
            lines.append(
                f"| {t['variant']}{version_note(t)} | {t['decisions']:,} "
                f"| {t['median_cpu_seconds'] * 1000:.0f} ms "
                f"| {t['max_cpu_seconds']:.2f} s | {t['share_over_1s_cpu']:.1%} "
                f"| {t['median_wall_seconds'] * 1000:.0f} ms |"
            )
    paired = [results[k] for name in VARIANTS for p in PAIRINGS for k in with_earlier(results, f"{name}/{p}/deals")]
    if paired:
        lines += [
            "",
            "Paired deals (`--deals N`): each deal played one hand per side, the first bot on each side in turn; "
            "the first bot's hand points less the other sides' average, per hand:",
            "",
            "| variant | pairing | deals (hands) | hands ahead / behind | points per hand | 95 % interval "
            "| median / slowest move (wall clock) |",
            "|---|---|---:|---:|---:|---|---|",
        ]
        for e in paired:
            interval = "-" if e["interval"] is None else "{:+.1f} to {:+.1f}".format(*e["interval"])
            lines.append(
                f"| {e['variant']} | {e['pairing'].replace('-', ' vs ')}{version_note(e)} "
                f"| {e['deals']:,} ({e['hands']:,}) "
                f"| {e['hands_won']:,} / {e['hands_lost']:,} | {e['mean_difference']:+.1f} | {interval} "
                f"| {timing_cell(e)} |"
            )
    if OPENSPIEL.exists():
        saved = json.loads(OPENSPIEL.read_text(encoding="utf-8"))
        for spiel in [saved] if "bot" in saved else saved.values():  # one summary per bot
            low, high = spiel["interval"]
            lines += [
                "",
                f"OpenSpiel yardstick ({spiel['bot']} bot{version_note({'pairing': spiel['bot'], **spiel})}"
                + (f", {spiel['iterations']} samples per decision" if spiel.get("iterations") else "")
                + ", against "
                f"`make_simple_gin_rummy_bot` in OpenSpiel's `gin_rummy`): {spiel['deals']:,} deals played twice "
                f"with the seats swapped ({spiel['hands']:,} hands); {spiel['hands_won']:,} hands won, "
                f"{spiel['hands_lost']:,} lost; {spiel['points']:+,.0f} hand points in all, "
                f"{spiel['mean_difference'] / 2:+.2f} per hand (95 % interval {low / 2:+.2f} to {high / 2:+.2f}); "
                f"median move {spiel['median_move_seconds'] * 1000:.0f} ms, "
                f"slowest {spiel['max_move_seconds']:.1f} s.",
            ]
    marks = legend(lines)
    lines += ["", *marks, *([""] if marks else []), END]
    return "\n".join(lines)


def write_table(results: dict[str, Any]) -> None:
    text = DOC.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOC} has no strength table markers ({BEGIN} ... {END})")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(head + table(results) + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=VARIANTS, choices=VARIANTS, metavar="NAME")
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--games", type=int, default=1000, help="games per variant and pairing (default 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--table-only", action="store_true", help="only rewrite docs/bots.md from the saved results")
    parser.add_argument(
        "--resume", action="store_true", help="go on from the saved games of a pairing (same seed) up to --games"
    )
    parser.add_argument("--time-moves", type=int, metavar="N", help="only time N search decisions per variant")
    parser.add_argument(
        "--deals",
        type=int,
        metavar="N",
        help="play N paired deals (one hand per side, the bots' sides swapped) instead of whole games",
    )
    args = parser.parse_args(argv)
    if args.time_moves:
        for name in args.variants:
            entry = time_moves(name, args.time_moves, args.seed)
            print(json.dumps(entry), flush=True)
            results = load_results()
            results[f"{name}/timing"] = entry
            RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        write_table(load_results())
        return 0
    if args.deals:
        for name in args.variants:
            for pairing in args.pairings:
                entry = run_deals(name, pairing, args.deals, args.jobs, args.seed, args.resume)
                shown = {k: v for k, v in entry.items() if k != "rows"}
                print(json.dumps(shown), flush=True)
    elif not args.table_only:
        for name in args.variants:
            for pairing in args.pairings:
                entry = run(name, pairing, args.games, args.jobs, args.seed, args.resume)
                print(json.dumps(entry), flush=True)
    results = load_results()
    write_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
