#!/usr/bin/env python3
"""`rummykit serve` under load: many tables with bots, live views open on them, moves made at a steady rate.

    .venv/bin/python benchmarks/web_load.py                          # 200 tables, 100 live views, 60 s
    .venv/bin/python benchmarks/web_load.py --tables 50 --connections 20 --seconds 20 --rate 10
    .venv/bin/python benchmarks/web_load.py --results web-load.json  # every figure (and every latency) saved

It starts ``rummykit serve --db TMP/tables.sqlite3`` on a free port (this interpreter, this checkout), makes
``--tables`` tables (Gin, 500 Rum and Oklahoma Gin in turn, each a person seat the benchmark plays and a
greedy bot), then opens ``--connections`` live views (``GET /api/tables/{id}/events``, server-sent events,
read with httpx's async streaming): ``--per-table`` views on each watched table, the first as the person's
seat (with its token), the others as onlookers. Then for ``--seconds`` it makes ``--rate`` moves a second
on tables picked at random among those ready (a random legal action of the person seat; the answer comes
after the bot's reply), and measures, for each move on a watched table and each of its live views, the time
from sending the move to that view receiving the first ``state`` event that shows it.

What "shows it" means, exactly: between two of the benchmark's moves nothing changes at a table (only its
person seat moves it, and the bot answers before the move's answer comes), so a table gets its next move
only once each of its views has received the state as it stands (the seat's view equal to the last move's
answer, an onlooker's equal to ``GET /api/tables/{id}`` without a token, read after that answer): the first
event after the move is sent that differs from that state is the move (or the move and the bot's reply).

Reported: latency p50, p90, p99 and max (ms), the moves' own answer time, moves made, events received,
errors (answers other than 200, views that did not catch up within 30 s, lost connections), and the
server's CPU seconds over the measured time and peak RSS (``VmHWM`` of /proc/PID/status; Linux only). The
benchmark and the server share the machine: on a small one the benchmark's own parsing of the events is
part of what is measured. ``--memory`` runs the server with ``--db none`` instead (tables in memory only), to
see what storing each move costs; ``--results`` also keeps the first refused moves' answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from tasks import peak_rss_mib  # this folder's helpers (the script's folder is on the path)

VARIANTS = ["gin", "500-rum", "oklahoma-gin"]
CATCH_UP_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(db: Path | str, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "import sys; from rummykit.cli import main; sys.exit(main())"]
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=5)
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                said = process.stderr.read().decode() if process.stderr else ""
                raise SystemExit(f"rummykit serve stopped: {said}") from None
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("rummykit serve did not answer in 60 s") from None
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of the process so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))]


@dataclass
class View:
    """One live view: the last state it received, and the move it waits to see (sent at ``since``)."""

    table: Table
    token: str | None
    last: dict[str, Any] | None = None
    since: float | None = None
    baseline: dict[str, Any] | None = None
    events: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Table:
    id: str
    token: str
    state: dict[str, Any]
    views: list[View] = field(default_factory=list)
    busy: bool = False
    onlooker: dict[str, Any] | None = None


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    moves: int = 0
    measured_moves: int = 0
    events: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    refusals: list[dict[str, Any]] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def watch(client: httpx.AsyncClient, base: str, view: View, figures: Figures) -> None:
    """Read one live view's events until cancelled, timing the move it waits for."""
    headers = {} if view.token is None else {"Authorization": f"Bearer {view.token}"}
    try:
        async with client.stream("GET", f"{base}/api/tables/{view.table.id}/events", headers=headers) as response:
            if response.status_code != 200:
                figures.error(f"events {response.status_code}")
                return
            name = None
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:") and name == "state":
                    now = time.perf_counter()
                    state = json.loads(line[5:])
                    view.events += 1
                    figures.events += 1
                    if view.since is not None and state != view.baseline:
                        figures.latencies.append(now - view.since)
                        view.since = None
                    view.last = state
                    view.changed.set()
                elif not line:
                    name = None
    except asyncio.CancelledError:
        raise
    except httpx.HTTPError:
        figures.error("live view lost")


async def caught_up(view: View, wanted: dict[str, Any]) -> bool:
    """Wait until ``view`` last received ``wanted`` (False after :data:`CATCH_UP_SECONDS`)."""
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while view.last != wanted:
        view.changed.clear()
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(view.changed.wait(), left)
        except asyncio.TimeoutError:
            return view.last == wanted
    return True


async def move(client: httpx.AsyncClient, base: str, table: Table, rng: random.Random, figures: Figures) -> None:
    """One move of the table's person seat, timed, and the wait for its views to hold the new state (the
    table is marked busy by the caller, and free again at the end)."""
    try:
        action = rng.choice(table.state["legal_actions"])
        headers = {"Authorization": f"Bearer {table.token}"}
        sent = time.perf_counter()
        for view in table.views:
            view.baseline = view.last
            view.since = sent
        try:
            answer = await client.post(f"{base}/api/tables/{table.id}/moves", json={"action": action}, headers=headers)
        except httpx.HTTPError as exc:
            figures.error(f"move: {type(exc).__name__}")
            for view in table.views:
                view.since = None
            return
        figures.answers.append(time.perf_counter() - sent)
        if answer.status_code != 200:
            figures.error(f"move {answer.status_code}")
            if len(figures.refusals) < 20:
                figures.refusals.append(
                    {"table": table.id, "action": action, "status": answer.status_code, "answer": answer.text[:300],
                     "state": {k: table.state.get(k) for k in ("current_player", "legal_actions", "is_over")}}
                )  # fmt: skip
            for view in table.views:
                view.since = None
            refreshed = await client.get(f"{base}/api/tables/{table.id}", headers=headers)
            table.state = refreshed.json()
            return
        figures.moves += 1
        table.state = answer.json()
        if not table.views:
            return
        figures.measured_moves += 1
        onlooker = (await client.get(f"{base}/api/tables/{table.id}")).json() if len(table.views) > 1 else None
        for view in table.views:
            wanted = table.state if view.token is not None else onlooker
            if not await caught_up(view, wanted):  # type: ignore[arg-type]
                figures.error("live view behind")
            if view.since is not None:  # the state changed and the view never saw it change: counted above
                view.since = None
                figures.error("move not seen")
    finally:
        table.busy = False


async def run(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60.0)
    figures = Figures()
    async with (
        httpx.AsyncClient(limits=limits, timeout=timeout) as client,
        httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(60.0, read=None)) as streams,
    ):
        started = time.perf_counter()
        tables: list[Table] = []
        for number in range(args.tables):
            variant = args.variants[number % len(args.variants)]
            body = {"variant": variant, "bots": [None, "greedy"], "seed": args.seed * 100_000 + number}
            answer = await client.post(f"{base}/api/tables", json=body)
            if answer.status_code != 201:
                raise SystemExit(f"table {number} ({variant}) not made: {answer.status_code} {answer.text[:200]}")
            data = answer.json()
            tables.append(Table(data["id"], data["tokens"]["0"], data))
        made = time.perf_counter() - started
        watched = tables[: -(-args.connections // args.per_table)] if args.connections else []
        views: list[View] = []
        for number in range(args.connections):
            table = watched[number // args.per_table]
            view = View(table, table.token if len(table.views) == 0 else None)
            table.views.append(view)
            views.append(view)
        watchers = [asyncio.ensure_future(watch(streams, base, view, figures)) for view in views]
        deadline = time.monotonic() + 60
        while any(view.last is None for view in views) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if any(view.last is None for view in views):
            raise SystemExit("some live views never received their first state")
        print(f"{len(tables)} tables made in {made:.1f} s, {len(views)} live views open", flush=True)

        figures.events = 0
        cpu_before = cpu_seconds(pid)
        clock = time.perf_counter()
        moves: set[asyncio.Future[None]] = set()
        tick = 0
        while True:
            target = clock + tick / args.rate
            now = time.perf_counter()
            if target - clock >= args.seconds:
                break
            await asyncio.sleep(max(target - now, 0))  # behind time too: the moves under way go on
            tick += 1
            ready = [t for t in tables if not t.busy and not t.state["is_over"] and t.state["legal_actions"]]
            if not ready:
                figures.skipped += 1
                continue
            chosen = rng.choice(ready)
            chosen.busy = True  # now, not when the task first runs: the next tick must not pick it again
            task = asyncio.ensure_future(move(client, base, chosen, rng, figures))
            moves.add(task)
            task.add_done_callback(moves.discard)
        elapsed = time.perf_counter() - clock
        if moves:
            await asyncio.wait(moves, timeout=CATCH_UP_SECONDS + 30)
        cpu = cpu_seconds(pid) - cpu_before
        for watcher in watchers:
            watcher.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

    lat = [x * 1000 for x in figures.latencies]
    ans = [x * 1000 for x in figures.answers]

    def summary(values: list[float]) -> dict[str, float | None]:
        if not values:
            return {"p50": None, "p90": None, "p99": None, "max": None}
        return {
            "p50": statistics.median(values),
            "p90": percentile(values, 0.90),
            "p99": percentile(values, 0.99),
            "max": max(values),
        }

    return {
        "tables": args.tables,
        "connections": args.connections,
        "per_table": args.per_table,
        "watched_tables": len(watched),
        "seconds": elapsed,
        "rate": args.rate,
        "storage": "memory" if args.memory else "sqlite",
        "variants": args.variants,
        "tables_made_seconds": made,
        "moves": figures.moves,
        "measured_moves": figures.measured_moves,
        "latencies_measured": len(lat),
        "latency_ms": summary(lat),
        "answer_ms": summary(ans),
        "events": figures.events,
        "errors": figures.errors,
        "refused_moves": figures.refusals,
        "skipped_ticks": figures.skipped,
        "server_cpu_seconds": cpu,
        "server_cpu_share": cpu / elapsed if elapsed else None,
        "server_peak_rss_mib": peak_rss_mib(pid),
        "machine": {
            "cpus": os.cpu_count(),
            "load_before": args.load_before,
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "latencies": lat,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables made (default 200; the server holds 500)")
    parser.add_argument("--connections", type=int, default=100, help="live views open (default 100)")
    parser.add_argument("--per-table", type=int, default=2,
                        help="live views per watched table: the seat's, then onlookers' (default 2)")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60.0, help="how long moves are made (default 60)")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second, all tables together (default 20)")
    parser.add_argument("--variants", nargs="+", default=VARIANTS, help=f"played in turn (default {VARIANTS})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", action="store_true", help="the server keeps its tables in memory (--db none)")
    parser.add_argument("--results", type=Path, help="save every figure (and every latency) here as JSON")
    args = parser.parse_args()
    if args.results is not None and not args.results.parent.is_dir():
        parser.error(f"--results {args.results}: no such directory {args.results.parent}")
    if args.per_table < 1 or args.connections < 0 or args.rate <= 0 or args.tables < 1:
        parser.error("--per-table, --tables and --rate must be positive")
    if -(-args.connections // args.per_table) > args.tables:
        parser.error(f"{args.connections} live views at {args.per_table} a table need more than {args.tables} tables")
    args.load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rummykit-web-load-") as folder:
        port = free_port()
        process = start_server("none" if args.memory else Path(folder) / "tables.sqlite3", port)
        try:
            report = asyncio.run(run(args, f"http://127.0.0.1:{port}", process.pid))
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    lat, ans = report["latency_ms"], report["answer_ms"]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    print()
    print("| figure | value |")
    print("|---|---|")
    print(f"| tables (watched) | {report['tables']} ({report['watched_tables']}), kept in {report['storage']} |")
    print(f"| live views | {report['connections']} ({report['per_table']} a watched table) |")
    print(f"| moves made / a second asked | {report['moves']} in {report['seconds']:.0f} s / {report['rate']:g} |")
    print(f"| moves timed on watched tables | {report['measured_moves']} ({report['latencies_measured']} deliveries) |")
    print(f"| move to live view, p50 / p90 / p99 / max ms | {ms(lat['p50'])} / {ms(lat['p90'])} / "
          f"{ms(lat['p99'])} / {ms(lat['max'])} |")  # fmt: skip
    print(f"| move's own answer, p50 / p90 / p99 / max ms | {ms(ans['p50'])} / {ms(ans['p90'])} / "
          f"{ms(ans['p99'])} / {ms(ans['max'])} |")  # fmt: skip
    print(f"| state events received | {report['events']} |")
    print(f"| errors | {sum(report['errors'].values())} {report['errors'] or ''} |")
    print(f"| server CPU | {report['server_cpu_seconds']:.1f} s ({100 * report['server_cpu_share']:.0f} % of a core) |")
    rss = report["server_peak_rss_mib"]
    print(f"| server peak RSS | {'-' if rss is None else f'{rss:.0f} MiB'} |")
    print(f"| machine | {report['machine']['cpus']} CPUs, load {report['machine']['load_before'][0]:.2f} before |")
    if args.results is not None:
        args.results.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
