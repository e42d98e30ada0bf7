#!/usr/bin/env python3
"""rummykit side by side with OpenSpiel (C++, ``gin_rummy``) and RLCard (Python, ``gin-rummy``).

One command::

    python3 benchmarks/run.py            # full run (a few minutes)
    python3 benchmarks/run.py --quick    # smoke run (well under a minute once installed)

It creates ``benchmarks/.venv`` (ignored by git), installs rummykit from this checkout and each peer
(the ``peers`` extra of pyproject.toml: open_spiel, rlcard) one by one, reporting a peer that cannot
install and carrying on without it, then runs every benchmark in its own process on identical inputs,
checks that the answers agree, and prints the tables. ``--json FILE`` also saves every number.
Needs only the standard library to start (Python 3.10+).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TASKS = HERE / "tasks.py"
DEFAULT_VENV = HERE / ".venv"

# Used when pyproject.toml cannot be read (Python 3.10 has no tomllib); keep in step with its ``peers`` extra.
FALLBACK_PEERS = {"open_spiel": "open_spiel>=2.0.2", "rlcard": "rlcard>=1.2.0"}
IMPORT_NAMES = {"open_spiel": "pyspiel", "rlcard": "rlcard"}

TABLE_GAMES = ("fortune", "arlington", "iceberg", "skarney", "skarney-singles")
"""The variants whose random play should take at most 4x Gin's time per action (pure Python)."""

FULL = {"meld_hands": 100_000, "engine_hands": 2_000, "rlcard_hands": 1_000, "variant_hands": 1_000, "limit": 30.0}
QUICK = {"meld_hands": 2_000, "engine_hands": 100, "rlcard_hands": 50, "variant_hands": 60, "limit": 5.0}


# -- set-up -------------------------------------------------------------------------------------------------


def peer_requirements() -> dict[str, str]:
    """Peer name -> requirement, from the ``peers`` extra of pyproject.toml."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return dict(FALLBACK_PEERS)
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    found = {}
    for requirement in data.get("project", {}).get("optional-dependencies", {}).get("peers", []):
        spec = requirement.split(";")[0].strip()
        for name in IMPORT_NAMES:
            if spec.lower().replace("-", "_").startswith(name):
                found[name] = spec
    return found or dict(FALLBACK_PEERS)


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def pip(venv: Path, *args: str) -> tuple[bool, str, float]:
    start = time.perf_counter()
    proc = subprocess.run(
        [str(venv_python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
    )
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if "is ignored: it is neither" not in line]
    return proc.returncode == 0, "\n".join(lines[-15:]), time.perf_counter() - start


def importable(venv: Path, module: str) -> bool:
    return subprocess.run([str(venv_python(venv)), "-c", f"import {module}"], capture_output=True).returncode == 0


def setup(venv: Path, source: Path, skip_install: bool) -> dict[str, Any]:
    """Make the venv, install rummykit from ``source`` and each peer; returns what happened."""
    notes: dict[str, Any] = {"peers": {}}
    if not venv_python(venv).exists():
        print(f"creating {venv}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if skip_install:
        notes["rummykit"] = "not reinstalled (--skip-install)"
    else:
        print(f"installing rummykit from {source}", flush=True)
        ok, log, seconds = pip(venv, str(source))
        if ok:  # the version number does not change between commits: force the current sources in
            ok, log, more = pip(venv, "--force-reinstall", "--no-deps", str(source))
            seconds += more
        if not ok:
            raise SystemExit(f"could not install rummykit from {source}:\n{log}")
        notes["rummykit"] = f"installed from {source} in {seconds:.0f} s"
    for name, requirement in peer_requirements().items():
        module = IMPORT_NAMES[name]
        if importable(venv, module):
            notes["peers"][name] = {"ok": True, "how": "already installed"}
            continue
        if skip_install:
            notes["peers"][name] = {"ok": False, "how": "not installed (--skip-install)"}
            continue
        print(f"installing {requirement}", flush=True)
        ok, log, seconds = pip(venv, requirement)
        ok = ok and importable(venv, module)
        how = f"pip install {requirement}: {seconds:.0f} s"
        notes["peers"][name] = {"ok": ok, "how": how, "log": "" if ok else log}
        if not ok:
            print(f"  {name} could not be installed; its benchmarks are skipped:\n{log}", flush=True)
    return notes


# -- running tasks --------------------------------------------------------------------------------------------


def run_task(task: str, system: str, params: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run one workload in a fresh process of this interpreter; its JSON answer, or {"error": ...}."""
    try:
        proc = subprocess.run(
            [sys.executable, str(TASKS), task, system, json.dumps(params)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-3:]
        return {"error": " | ".join(tail) or f"exit {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "os": platform.platform(), "load_before": load}


# -- tables ----------------------------------------------------------------------------------------------------


def fmt_rate(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def fmt_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def fmt_mib(value: float | None) -> str:
    return "-" if value is None else f"{max(value, 0.0):.0f}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")
    return "\n".join(lines)


def compare(reference: list[int], other: list[int], hands: list[list[int]] | None = None) -> dict[str, Any]:
    bad = [i for i, (a, b) in enumerate(zip(reference, other)) if a != b]
    result: dict[str, Any] = {"hands": len(reference), "disagree": len(bad) + abs(len(reference) - len(other))}
    result["examples"] = [{"index": i, "rummykit": reference[i], "peer": other[i]} for i in bad[:5]]
    return result


def describe_cards(faces: list[int]) -> str:
    ranks, suits = "A23456789TJQK", "CDHS"
    return " ".join(ranks[f % 13] + suits[f // 13] for f in sorted(faces))


MELD_LABELS = {
    "rummykit-deadwood": "rummykit meld_search.deadwood",
    "rummykit-deadwood-cold": "rummykit meld_search.deadwood, memo cleared per hand",
    "rummykit-variant-deadwood-texts": "rummykit Variant.deadwood, card texts",
    "rummykit-variant-deadwood": "rummykit Variant.deadwood, Card objects",
    "rummykit-arrange-texts": "rummykit Variant.arrange, card texts",
    "rummykit-arrange": "rummykit Variant.arrange, Card objects",
    "openspiel": "OpenSpiel GinRummyUtils.min_deadwood (C++)",
    "openspiel-each-discard": "OpenSpiel min_deadwood of each 10-card discard",
}
MELD11_LABELS = {
    "rummykit-deadwood": "rummykit min(meld_search.discard_deadwoods)",
    "rummykit-deadwood-cold": "rummykit min(discard_deadwoods), memo cleared per hand",
    "rummykit-arrange": "rummykit min of Variant.arrange per discard",
    "openspiel": "OpenSpiel min_deadwood(11 cards), its own discard rule (C++)",
    "openspiel-each-discard": "OpenSpiel min of min_deadwood per discard (C++)",
}


def meld_section(size: int, results: dict[str, dict[str, Any]], report: dict[str, Any]) -> str:
    labels = MELD_LABELS if size == 10 else MELD11_LABELS
    reference = results.get("rummykit-deadwood", {}).get("answers")
    os_rate = results.get("openspiel", {}).get("rate")
    os_cpu = results.get("openspiel", {}).get("cpu_rate")
    rows = []
    agreement = {}
    for system, res in results.items():
        if "error" in res:
            rows.append([labels[system], "error: " + res["error"][:60], "-", "-", "-", "-", "-", "-"])
            continue
        check = "reference"
        if system != "rummykit-deadwood" and reference is not None:
            cmp = compare(reference, res["answers"])
            agreement[system] = cmp
            check = "all agree" if cmp["disagree"] == 0 else f"{cmp['disagree']} DIFFER"
        ratio = res["rate"] / os_rate if os_rate else None
        cpu_ratio = res["cpu_rate"] / os_cpu if os_cpu and res.get("cpu_rate") else None
        label = labels[system] + (f" [first {res['sample']:,} hands]" if res.get("sample") else "")
        rows.append(
            [
                label,
                fmt_rate(res["rate"]),
                fmt_ratio(ratio),
                fmt_rate(res.get("cpu_rate")),
                fmt_ratio(cpu_ratio),
                fmt_mib(res["rss_peak_mib"]),
                fmt_mib(res["rss_peak_mib"] - res["rss_base_mib"]),
                check,
            ]
        )
    report[f"meld{size}"] = {
        "hands": next((r["count"] for r in results.values() if "count" in r), 0),
        "results": {k: {kk: vv for kk, vv in v.items() if kk != "answers"} for k, v in results.items()},
        "agreement": agreement,
    }
    count = report[f"meld{size}"]["hands"]
    title = f"Meld search, {count:,} seeded {size}-card hands"
    if size == 11:
        title += " (least deadwood after the best discard)"
    out = [title, ""]
    headers = ["system", "hands/s", "vs OpenSpiel", "hands per CPU s", "vs OpenSpiel (CPU)", "peak RSS MiB"]
    out.append(table(headers + ["growth MiB", "answers"], rows))
    from tasks import MELD10_SEED, MELD11_SEED, seeded_hands  # noqa: PLC0415 - only needed for examples

    for system, cmp in agreement.items():
        if cmp["disagree"]:
            hands = seeded_hands(MELD10_SEED if size == 10 else MELD11_SEED, count, size)
            out.append(f"\n{labels[system]} differs from rummykit on {cmp['disagree']} of {count:,} hands, e.g.:")
            for ex in cmp["examples"][:3]:
                out.append(f"  {describe_cards(hands[ex['index']])}: rummykit {ex['rummykit']}, peer {ex['peer']}")
    return "\n".join(out)


def engine_section(results: dict[str, dict[str, Any]], report: dict[str, Any]) -> str:
    labels = {
        "rummykit": "rummykit gin (compiled)" if compiled_run(report) else "rummykit gin (Python)",
        "openspiel": "OpenSpiel gin_rummy (C++ via pyspiel)",
        "rlcard": "RLCard gin-rummy (Python)",
    }
    rk = results.get("rummykit", {}).get("rate")
    rk_cpu = results.get("rummykit", {}).get("actions_cpu_rate")
    rows = []
    for system, res in results.items():
        if "error" in res:
            rows.append([labels[system], "error: " + res["error"][:60]] + ["-"] * 8)
            continue
        share = res.get("dead_share")
        cpu_rate = res.get("actions_cpu_rate")
        rows.append(
            [
                labels[system],
                fmt_rate(res["rate"]),
                fmt_rate(res["actions_rate"]),
                fmt_rate(cpu_rate),
                f"{res['actions_per_hand']:.1f}",
                "-" if share is None else f"{share:.0%}",
                fmt_ratio(rk / res["rate"]) if rk else "-",
                fmt_ratio(rk_cpu / cpu_rate) if rk_cpu and cpu_rate else "-",
                fmt_mib(res["rss_peak_mib"]),
                fmt_mib(res["rss_peak_mib"] - res["rss_base_mib"]),
            ]
        )
    report["engine"] = results
    hands = results.get("rummykit", {}).get("hands", "?")
    out = [f"Engine: random play of Gin hands through each public Python API (rummykit {hands} hands)", ""]
    out.append(
        table(
            [
                "system",
                "hands/s",
                "actions/s",
                "actions per CPU s",
                "actions/hand",
                "dead hands",
                "rummykit is (hands/s)",
                "rummykit is (actions per CPU s)",
                "peak RSS MiB",
                "growth",
            ],
            rows,
        )
    )
    return "\n".join(out)


def variant_section(results: dict[str, dict[str, Any]], report: dict[str, Any]) -> str:
    gin = results.get("gin", {}).get("actions_cpu_rate")
    gin_again = results.get("gin", {}).get("again_actions_cpu_rate")
    again = any("again_actions_cpu_rate" in res for res in results.values())
    rows = []
    for name, res in results.items():
        if "error" in res:
            rows.append([name, "error: " + res["error"][:70]] + ["-"] * (13 if again else 11))
            continue
        played_again = []
        if again:
            rate = res.get("again_actions_cpu_rate")
            played_again = [fmt_rate(rate), f"{gin_again / rate:.2f}x" if gin_again and rate else "-"]
        rows.append(
            [
                name,
                str(res["players"]),
                fmt_rate(res["rate"]),
                fmt_rate(res["actions_rate"]),
                fmt_rate(res.get("actions_cpu_rate")),
                f"{gin / res['actions_cpu_rate']:.2f}x" if gin and res.get("actions_cpu_rate") else "-",
                *played_again,
                f"{res['actions_per_hand']:.1f}",
                f"{res['hands']} in {res['seconds']:.1f} s",
                fmt_ms(res.get("greedy_median_ms")),
                fmt_ms(res.get("greedy_worst_ms")),
                f"{res.get('greedy_moves', 0)} ({res.get('greedy_hands', 0)} hands)",
                fmt_mib(res["rss_peak_mib"]),
                f"{res['heap_peak_mib']:.1f}",
            ]
        )
    report["variants"] = results
    out = [
        "Every rummykit variant (rummykit.list_variants()): random bots (RandomBot) for the rates, the greedy bot"
        " (GreedyBot) on every seat for the time per move (choose: listing the actions and picking one)",
        "",
    ]
    if again:
        out[-1:-1] = [
            "Played again: each random game played twice in a row, the second play timed, where the meld search"
            " finds every answer it keeps (the most that keeping answers can give; not the target's measure)",
        ]
    out.append(
        table(
            [
                "variant",
                "players",
                "hands/s",
                "actions/s",
                "actions per CPU s",
                "gin per action (CPU) is",
                *(["played again: actions per CPU s", "played again: gin per action is"] if again else []),
                "actions/hand",
                "measured",
                "greedy median ms (CPU)",
                "greedy worst ms (CPU)",
                "greedy moves",
                "peak RSS MiB",
                "heap peak MiB",
            ],
            rows,
        )
    )
    return "\n".join(out)


def fmt_ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 1 else f"{value:.1f}"


def targets(report: dict[str, Any]) -> str:
    lines = ["Targets (ratios of rates per CPU second of each process, measured side by side: see docs/performance.md)"]

    def rate(section: str, system: str, key: str = "cpu_rate") -> float | None:
        block = report.get(section, {})
        res = block.get("results", block).get(system, {})
        return res.get(key) if isinstance(res, dict) else None

    def check(text: str, a: float | None, b: float | None, goal: float) -> None:
        if a is None or b is None or not b:
            lines.append(f"  {text}: not measured")
        else:
            lines.append(f"  {text}: {a / b:.2f}x, {'met' if a / b >= goal else 'NOT met'}")

    os10 = rate("meld10", "openspiel")
    check("first targets: meld_search.deadwood >= 1/4 of OpenSpiel", rate("meld10", "rummykit-deadwood"), os10, 0.25)
    engine, os_engine, rl_engine = (rate("engine", system, "rate") for system in ("rummykit", "openspiel", "rlcard"))
    check("first targets: engine >= 2x OpenSpiel (wall clock)", engine, os_engine, 2.0)
    check("first targets: engine >= 8x RLCard (wall clock)", engine, rl_engine, 8.0)
    for system, goal, what in [
        ("rummykit-variant-deadwood-texts", 0.35, "Variant.deadwood from card texts"),
        ("rummykit-variant-deadwood", 0.35, "Variant.deadwood from Cards"),
        ("rummykit-arrange-texts", 0.2, "Variant.arrange from card texts"),
        ("rummykit-arrange", 0.2, "Variant.arrange from Cards"),
    ]:
        check(f"second speed-up: {what} >= {goal} of OpenSpiel (10 cards)", rate("meld10", system), os10, goal)
    gin = rate("variants", "gin", "actions_cpu_rate")
    for name in ("500-rum", "500-partnership", "persian"):
        mine = rate("variants", name, "actions_cpu_rate")
        check(f"second speed-up: {name} actions/s >= 1/2 of gin's", mine, gin, 0.5)
    for name in TABLE_GAMES:
        mine = rate("variants", name, "actions_cpu_rate")
        check(f"table games: {name} actions/s >= 1/4 of gin's (the target is the pure build's)", mine, gin, 0.25)
    build = "this run is the compiled build's" if compiled_run(report) else "this run is the pure build's"
    engine_cpu, os_engine_cpu = (rate("engine", system, "actions_cpu_rate") for system in ("rummykit", "openspiel"))
    check(f"compiled build: Gin actions >= 4x OpenSpiel's ({build})", engine_cpu, os_engine_cpu, 4.0)
    for system, what in [
        ("rummykit-variant-deadwood", "from Cards"),
        ("rummykit-variant-deadwood-texts", "from texts"),
    ]:
        check(
            f"compiled build: Variant.deadwood {what} >= OpenSpiel (10 cards; {build})",
            rate("meld10", system),
            os10,
            1.0,
        )
    return "\n".join(lines)


def compiled_run(report: dict[str, Any]) -> bool:
    """Whether the run measured the compiled build (its version, as rummykit reports it, says so)."""
    return "compiled" in str(report.get("versions"))


# -- main -------------------------------------------------------------------------------------------------------


def best_of(
    task: str, plan: list[tuple[str, dict[str, Any]]], rounds: int, timeout: float, what: str
) -> dict[str, dict[str, Any]]:
    """Run every system of ``plan`` ``rounds`` times, interleaved (so that a change in the machine's load
    falls on all of them), keeping each system's fastest round; the answers of every round must match."""
    results: dict[str, dict[str, Any]] = {}
    for round_number in range(1, rounds + 1):
        for system, params in plan:
            print(f"{what}: {system} (round {round_number} of {rounds})", flush=True)
            res = run_task(task, system, params, timeout)
            res["rounds"] = [res.get("rate")]
            kept = results.get(system)
            if kept is None or "error" in kept:
                results[system] = res
                continue
            if "error" in res:
                continue
            if "answers" in res and res["answers"] != kept.get("answers"):
                kept["error"] = f"answers changed between rounds {round_number - 1} and {round_number}"
                continue
            res["rounds"] = kept["rounds"] + res["rounds"]
            if res["rate"] > kept["rate"]:
                results[system] = res
            else:
                kept["rounds"] = res["rounds"]
    return results


def chosen_variants(listed: list[str], wanted: list[str] | None) -> list[str]:
    """The variants of ``listed`` that ``--variant`` names (all of them when it names none), and Gin always: the
    table games' targets are ratios to its time per action. ValueError for a name not listed."""
    if not wanted:
        return list(listed)
    unknown = sorted(set(wanted) - set(listed))
    if unknown:
        raise ValueError(f"no variant named {', '.join(unknown)} (known: {', '.join(listed)})")
    return [name for name in listed if name == "gin" or name in wanted]


def inside(args: argparse.Namespace, notes: dict[str, Any]) -> int:
    sizes = QUICK if args.quick else FULL
    report: dict[str, Any] = {"mode": "quick" if args.quick else "full", "machine": machine(), "setup": notes}
    info = run_task("versions", "-", {}, 60)
    report.update(info)
    have_os = notes.get("peers", {}).get("open_spiel", {}).get("ok", True)
    have_rl = notes.get("peers", {}).get("rlcard", {}).get("ok", True)
    m = report["machine"]
    print(f"\nMachine: {m['cpu']}, {m['cores']} cores, {m['memory']}; {m['os']}; load average {m['load_before']}")
    print(f"Python {report.get('python')}; " + ", ".join(f"{k} {v}" for k, v in report.get("versions", {}).items()))
    for name, peer in notes.get("peers", {}).items():
        print(f"Peer {name}: {'ok' if peer['ok'] else 'NOT AVAILABLE'} ({peer['how']})")
    sections = []
    wanted = set(args.only or ["meld", "engine", "variants"])
    long = 1800.0
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    report["rounds"] = rounds
    if "meld" in wanted:
        for size in (10, 11):
            systems = ["rummykit-deadwood", "rummykit-deadwood-cold"]
            if size == 10:
                systems += ["rummykit-variant-deadwood-texts", "rummykit-variant-deadwood", "rummykit-arrange-texts"]
            systems.append("rummykit-arrange")
            if have_os:
                systems += ["openspiel"] + (["openspiel-each-discard"] if size == 11 else [])
            plan = []
            for system in systems:
                hands = sizes["meld_hands"]
                if system == "rummykit-deadwood-cold" or (system == "rummykit-arrange" and size == 11):
                    hands = max(hands // 10, 100)  # slow or only illustrative: the first tenth of the hands
                plan.append((system, {"hands": hands}))
            results = best_of(f"meld{size}", plan, rounds, long, f"meld search, {size} cards")
            ref = results.get("rummykit-deadwood", {}).get("answers")
            for res in results.values():  # a sample is compared on its own hands, the first ones
                if "answers" in res and ref is not None and len(res["answers"]) < len(ref):
                    res["sample"] = len(res["answers"])
                    res["answers"] = res["answers"] + ref[len(res["answers"]) :]
            sections.append(meld_section(size, results, report))
    if "engine" in wanted:
        plan = [("rummykit", sizes["engine_hands"]), ("openspiel", sizes["engine_hands"])] if have_os else []
        if not have_os:
            plan = [("rummykit", sizes["engine_hands"])]
        if have_rl:
            plan.append(("rlcard", sizes["rlcard_hands"]))
        results = best_of("engine", [(system, {"hands": hands}) for system, hands in plan], rounds, long, "engine")
        sections.append(engine_section(results, report))
    if "variants" in wanted:
        listed = run_task("list", "-", {}, 120)
        results = {}
        if "error" in listed:
            results["(list_variants)"] = listed
        params = {"hands": sizes["variant_hands"], "seconds_limit": sizes["limit"], "again": args.again}
        try:
            chosen = chosen_variants(listed.get("variants", []), args.variant)
        except ValueError as error:
            print(f"run.py: {error}", file=sys.stderr)
            return 2
        plan = [(name, params) for name in chosen]
        # Interleaved rounds as above, each variant's fastest kept: the per-action ratios to gin compare
        # runs made under the same load.
        results.update(best_of("variant", plan, rounds, sizes["limit"] * 4 + 60, "variant"))
        sections.append(variant_section(results, report))
    print()
    for section in sections:
        print(section)
        print()
    print(targets(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        print(f"\nsaved {args.json}")
    agree = all(
        cmp["disagree"] == 0
        for key in ("meld10", "meld11")
        for system, cmp in report.get(key, {}).get("agreement", {}).items()
        if system != "openspiel" or key == "meld10"
    )
    return 0 if agree else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--only", action="append", choices=["meld", "engine", "variants"], help="run only these")
    parser.add_argument("--json", help="also write every number to this JSON file")
    parser.add_argument(
        "--variant", action="append", help="with --only variants: only these variants (and gin, for the ratios)"
    )
    parser.add_argument(
        "--again",
        action="store_true",
        help="with --only variants: also time each variant's random games played a second time in the process",
    )
    parser.add_argument("--rounds", type=int, help="interleaved rounds per timing, best kept (default: 3, quick: 1)")
    parser.add_argument("--venv", default=str(DEFAULT_VENV), help="virtual environment to use (default: %(default)s)")
    parser.add_argument("--source", default=str(REPO), help="rummykit source tree to install (default: this checkout)")
    parser.add_argument("--skip-install", action="store_true", help="use the venv as it is")
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.variant and args.only and "variants" not in args.only:
        parser.error("--variant chooses among the variants: it goes with --only variants")
    if args.again and args.only and "variants" not in args.only:
        parser.error("--again plays the variants' games again: it goes with --only variants")
    venv = Path(args.venv).resolve()
    if args.inside is None:
        notes = setup(venv, Path(args.source).resolve(), args.skip_install)
        python = str(venv_python(venv))
        os.execv(python, [python, str(Path(__file__).resolve()), *sys.argv[1:], "--inside", json.dumps(notes)])
    sys.path.insert(0, str(HERE))
    return inside(args, json.loads(args.inside))


if __name__ == "__main__":
    sys.exit(main())
