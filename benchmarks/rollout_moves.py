#!/usr/bin/env python3
"""How far should the search bot's rollouts go? Two search bots that differ only in ``rollout_moves``, compared.

    .venv/bin/python benchmarks/rollout_moves.py agree skarney-singles --playing 80 --moves 80 20 --decisions 150
    .venv/bin/python benchmarks/rollout_moves.py deals skarney-singles --moves 20 80 --deals 30
    .venv/bin/python benchmarks/rollout_moves.py greedy skarney --moves 20 40 80 --deals 16 --jobs 2
    .venv/bin/python benchmarks/rollout_moves.py show skarney-singles

``agree``: a search bot (seed 1, in seat 0, greedy bots in the others; ``--playing N``: its ``rollout_moves``,
by default the game's own) plays a game; at each of its decisions with more than one legal action, a search
bot per ``--moves`` value, each seeded afresh, decides on a copy of the position. Printed: how often each
chose what the playing bot chose, and the CPU time of its decisions. A bot with the playing bot's own
``rollout_moves`` and another seed says how often two samplings of the same bot agree. Most decisions keep
the first choice (the outs bot's, which the search only overrides when another action is clearly better), so
how often the first choice alone agreed is printed too: agreement says where the bots differ and what they
cost, and the paired deals say which plays better.

``deals``: paired deals between the two bots (``--moves A B``: A is the first bot). Deal ``i`` is dealt from
``derive_seed(seed, variant, "deal", i)`` and played twice: A on seat 0's side and B on the others, then the
other way round; each play until a score has changed (at most 4 hands).
Printed: A's points less B's per hand, averaged over the two plays, with its 95 % t interval over the deals,
and each bot's CPU time per decision.

``greedy``: paired deals of the search bot against greedy bots, as ``benchmarks/bots.py --deals`` plays them
(the same deals and bot seeds; seed 0 by default), once per ``--moves`` value: each length's points a hand
over greedy, and on the same deals its difference from the shortest length's. ``--jobs N``: N processes.

All write one JSON line per decision or deal to ``benchmarks/.rollout_moves/`` (ignored by git), and a run
goes on from what is there: stop it any time and start it again with the same arguments. ``show`` prints
the summaries of what was saved. Needs only rummykit.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

import rummykit
from rummykit.bots import Bot, GreedyBot, OutsBot, SearchBot
from rummykit.engine import Game
from rummykit.search import side_difference
from rummykit.simulate import derive_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import DEAL_HANDS, mean_interval  # noqa: E402 - the strength table's, from beside this file
from bots import play_deal as play_strength_deal  # noqa: E402

HERE = Path(__file__).resolve().parent
SAVED = HERE / ".rollout_moves"


def saved(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def agree(variant_name: str, playing_moves: int | None, moves: list[int], decisions: int, seed: int) -> Path:
    """Run (or go on with) the agreement comparison; the file of its rows."""
    playing_name = "own" if playing_moves is None else playing_moves
    path = SAVED / f"agree-{variant_name}-seed{seed}-playing-{playing_name}-{'-'.join(map(str, moves))}.jsonl"
    done = saved(path)
    variant = rummykit.load_variant(variant_name)
    game = variant.new_game(seed=seed)
    playing = SearchBot(seed=seed, rollout_moves=playing_moves)
    greedy: list[GreedyBot | None] = [None] + [GreedyBot(seed=seed + s) for s in range(1, game.num_players)]
    made = 0
    filled = False
    with path.open("a") as out:
        while not game.is_over and made < decisions:
            seat = game.deal.actor
            if seat != 0:
                bot = greedy[seat]
                assert bot is not None
                game.apply(bot.choose(game))
                continue
            made += 1
            action = playing.choose(game)  # the playing bot's decisions are the same whether replayed or not
            if made <= len(done) and not done[made - 1].get("forced") and "first" not in done[made - 1]:
                done[made - 1]["first"] = first_choice(game, seed, made)  # a row saved before this column
                filled = True
            if made > len(done) and len(game.legal_actions()) > 1:
                row: dict[str, Any] = {"decision": made, "chosen": str(action), "first": first_choice(game, seed, made)}
                for horizon in moves:
                    other = SearchBot(seed=derive_seed(seed, "agree", made, horizon), rollout_moves=horizon)
                    start = time.process_time()
                    row[f"moves {horizon}"] = str(other.choose(game.clone()))
                    row[f"seconds {horizon}"] = time.process_time() - start
                out.write(json.dumps(row) + "\n")
                out.flush()
            elif made > len(done):
                out.write(json.dumps({"decision": made, "chosen": str(action), "forced": True}) + "\n")
                out.flush()
            game.apply(action)
    if filled:
        rows = saved(path)
        rows[: len(done)] = done
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def first_choice(game: Game, seed: int, decision: int) -> str:
    """The search bot's first choice, without search (the outs bot), seeded afresh."""
    return str(OutsBot(seed=derive_seed(seed, "agree", decision, "outs")).choose(game))


def agree_summary(path: Path) -> str:
    rows = [r for r in saved(path) if not r.get("forced")]
    if not rows:
        return f"{path.name}: nothing saved yet"
    horizons = sorted({int(k.split()[1]) for r in rows for k in r if k.startswith("moves ")}, reverse=True)
    lines = [f"{path.name}: {len(rows)} decisions with a choice"]
    if all("first" in r for r in rows):
        same = sum(r["first"] == r["chosen"] for r in rows)
        lines.append(
            f"  the first choice alone (no search): as the playing bot {same} of {len(rows)} ({same / len(rows):.0%})"
        )
    for horizon in horizons:
        same = sum(r[f"moves {horizon}"] == r["chosen"] for r in rows)
        seconds = [r[f"seconds {horizon}"] for r in rows]
        lines.append(
            f"  rollout_moves {horizon:>3}: chose as the playing bot {same} of {len(rows)} ({same / len(rows):.0%}); "
            f"CPU {sum(seconds):.1f} s, median {statistics.median(seconds) * 1000:.0f} ms a decision"
        )
    return "\n".join(lines)


def play_deal(variant_name: str, first: int, second: int, index: int, seed: int) -> dict[str, Any]:
    """Deal ``index`` played once per seat order; ``first``'s points less ``second``'s per hand, averaged."""
    variant = rummykit.load_variant(variant_name)
    deal_seed = derive_seed(seed, variant_name, "deal", index)
    plays: list[float] = []
    cpu: dict[int, list[float]] = {first: [], second: []}
    for order in (0, 1):
        game = variant.new_game(seed=deal_seed, max_hands=DEAL_HANDS)
        opening = game.side_of(0)  # the side of seat 0 has the first bot in the first play, the second in the other
        horizons = [first if (game.side_of(s) == opening) == (order == 0) else second for s in range(game.num_players)]
        bots: list[Bot] = [
            SearchBot(seed=derive_seed(deal_seed, "bot", order, s), rollout_moves=h) for s, h in enumerate(horizons)
        ]
        while not game.is_over and not any(game.scores):
            seat = game.deal.actor
            start = time.process_time()
            action = bots[seat].choose(game)
            cpu[horizons[seat]].append(time.process_time() - start)
            game.apply(action)
        # Seat 0's side against the average of the others, for the first bot: with more than two sides, one
        # bot holds every side but seat 0's in one of the two plays.
        opening_points = side_difference(game, game.scores, 0)
        plays.append(opening_points if order == 0 else -opening_points)
    return {"deal": index, "difference": sum(plays) / len(plays), "plays": plays, "cpu": cpu}


def deals(variant_name: str, first: int, second: int, count: int, seed: int) -> Path:
    path = SAVED / f"deals-{variant_name}-seed{seed}-{first}-vs-{second}.jsonl"
    done = len(saved(path))
    with path.open("a") as out:
        for index in range(done, count):
            out.write(json.dumps(play_deal(variant_name, first, second, index, seed)) + "\n")
            out.flush()
            print(deals_summary(path), flush=True)
    return path


def against_greedy_deal(variant_name: str, horizon: int, index: int, seed: int) -> dict[str, Any]:
    """Deal ``index`` as ``benchmarks/bots.py --deals`` plays it for search against greedy (the same deal and
    bot seeds), the search bot's rollouts ``horizon`` moves long: its side's points less the others' a hand."""
    row = play_strength_deal(variant_name, "search-greedy", index, seed, {"rollout_moves": horizon})
    cpu = row["cpu_times"]
    return {"deal": index, "moves": horizon, "difference": row["difference"], "plays": row["plays"], "cpu": cpu}


def _against_greedy(task: tuple[str, int, int, int]) -> dict[str, Any]:
    return against_greedy_deal(*task)


def against_greedy(variant_name: str, moves: list[int], count: int, seed: int, jobs: int) -> Path:
    """Paired deals of the search bot against greedy, once per rollout length, deal by deal (in ``jobs``
    processes); the file of their rows. The summary compares each length with the shortest."""
    path = SAVED / f"greedy-{variant_name}-seed{seed}.jsonl"
    done = {(r["deal"], r["moves"]) for r in saved(path)}
    tasks = [(variant_name, h, i, seed) for i in range(count) for h in moves if (i, h) not in done]
    with path.open("a") as out:
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                _save_rows(out, path, pool.map(_against_greedy, tasks, chunksize=1))
        else:
            _save_rows(out, path, map(_against_greedy, tasks))
    return path


def _save_rows(out: TextIO, path: Path, rows: Iterable[dict[str, Any]]) -> None:
    for row in rows:
        out.write(json.dumps(row) + "\n")
        out.flush()
        print(greedy_summary(path), flush=True)


def greedy_summary(path: Path) -> str:
    rows = saved(path)
    if not rows:
        return f"{path.name}: nothing saved yet"
    by_moves: dict[int, dict[int, dict[str, Any]]] = {}
    for row in rows:
        by_moves.setdefault(row["moves"], {})[row["deal"]] = row
    lines = [f"{path.name}: the search bot's side's points less greedy's a hand, paired deals (95 % intervals)"]
    first = min(by_moves)
    for horizon, played in sorted(by_moves.items()):
        mean, low, high = mean_interval([r["difference"] for r in played.values()])
        seconds = [t for r in played.values() for t in r["cpu"]]
        line = f"  rollout_moves {horizon:>3}: {len(played)} deals, {mean:+.1f} ({low:+.1f} to {high:+.1f})"
        line += f", median {statistics.median(seconds) * 1000:.0f} ms CPU a decision" if seconds else ""
        common = sorted(set(played) & set(by_moves[first]))
        if horizon != first and len(common) > 1:
            mean, low, high = mean_interval(
                [played[i]["difference"] - by_moves[first][i]["difference"] for i in common]
            )
            line += f"; on the same {len(common)} deals, {mean:+.1f} ({low:+.1f} to {high:+.1f}) beside {first}"
        lines.append(line)
    return "\n".join(lines)


def deals_summary(path: Path) -> str:
    rows = saved(path)
    if not rows:
        return f"{path.name}: nothing saved yet"
    mean, low, high = mean_interval([r["difference"] for r in rows])
    interval = f"{low:+.1f} to {high:+.1f}" if len(rows) > 1 else "-"
    times = {}
    for r in rows:
        for horizon, seconds in r["cpu"].items():
            times.setdefault(horizon, []).extend(seconds)
    timing = ", ".join(
        f"rollout_moves {h}: median {statistics.median(s) * 1000:.0f} ms, mean {statistics.mean(s) * 1000:.0f} ms"
        for h, s in times.items()
        if s
    )
    lead = f"first bot's points less the second's a hand {mean:+.1f} ({interval})"
    return f"{path.name}: {len(rows)} deals, {lead}; {timing}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["agree", "deals", "greedy", "show"])
    parser.add_argument("variant")
    parser.add_argument("--moves", type=int, nargs="+", default=[SearchBot.ROLLOUT_MOVES, 20])
    parser.add_argument("--playing", type=int, help="rollout_moves of the playing bot (agree; default: the game's)")
    parser.add_argument("--decisions", type=int, default=150)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, help="default 1; greedy: 0, as benchmarks/bots.py")
    parser.add_argument("--jobs", type=int, default=1, help="greedy: worker processes")
    args = parser.parse_args(argv)
    if args.what != "greedy" and args.seed is None:
        args.seed = 1
    SAVED.mkdir(exist_ok=True)
    if args.what == "agree":
        print(agree_summary(agree(args.variant, args.playing, args.moves, args.decisions, args.seed)))
    elif args.what == "deals":
        if len(args.moves) != 2:
            parser.error("deals compares two bots: --moves A B")
        print(deals_summary(deals(args.variant, args.moves[0], args.moves[1], args.deals, args.seed)))
    elif args.what == "greedy":
        seed = 0 if args.seed is None else args.seed
        print(greedy_summary(against_greedy(args.variant, args.moves, args.deals, seed, args.jobs)))
    else:
        for path in sorted(SAVED.glob("*.jsonl")):
            kind, _, rest = path.name.partition("-")
            if rest.rsplit("-seed", 1)[0] != args.variant:  # "gin" is not "oklahoma-gin"
                continue
            print({"agree": agree_summary, "greedy": greedy_summary}.get(kind, deals_summary)(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
