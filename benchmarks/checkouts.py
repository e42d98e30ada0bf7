#!/usr/bin/env python3
"""Is this checkout slower than another commit? Every variant's random play, both checkouts interleaved.

One command::

    python3 benchmarks/checkouts.py REF            # e.g. HEAD~5, a tag, a commit
    python3 benchmarks/checkouts.py REF --rounds 7 --actions 4000 --only gin --only fortune
    python3 benchmarks/checkouts.py compiled       # this checkout's compiled build beside its pure-Python one

It makes a worktree of ``REF`` and a virtual environment for each side under ``benchmarks/.checkouts/``
(ignored by git; reused), then, round after round, plays the same seeded random games of each variant in a
fresh process of each side in turn (so a change in the machine's load falls on both) and measures CPU time
per action (``time.process_time``; what the variants timed before kept is frozen out of the garbage
collector's way first, ``gc.freeze``, so that a full collection over it does not fall in whichever variant
is playing then). Per variant it prints both medians and the ratio this/REF with the
range of the per-round ratios: above 1 means this checkout is slower. Both sides must play the same
actions: the records' digests are compared, and a difference is reported (the comparison then means
little). Needs only the standard library to start (Python 3.10+).

``compiled`` in place of REF compares this checkout with its own compiled build (``RUMMYKIT_COMPILE=1``,
which needs a C compiler): a copy of this checkout's files (committed or not) in
``benchmarks/.checkouts/tree-compiled``, built again when the copy changed; a ratio below 1 is then the
compiled build's gain.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PLACE = HERE / ".checkouts"

DRIVER = r"""
import gc, hashlib, json, sys, time
import rummykit
from rummykit.bots import RandomBot

def play(name, actions, seed):
    variant = rummykit.load_variant(name)  # tables built once, outside the timing
    variant.new_game(seed=seed)
    # What the variants before kept stays out of the garbage collector's way: a full collection over it
    # would land in whichever variant happens to be playing then.
    gc.collect()
    gc.freeze()
    done = 0
    digest = hashlib.sha256()
    cpu = time.process_time()
    game_number = 0
    while done < actions:
        game = variant.new_game(seed=seed + game_number, max_hands=20)
        bots = [RandomBot(seed * 100 + game_number * 10 + seat) for seat in range(game.num_players)]
        game_number += 1
        while not game.is_over and done < actions:
            game.apply(bots[game.deal.actor].choose(game))
            done += 1
        digest.update(game.to_json().encode())
    return time.process_time() - cpu, digest.hexdigest()[:12]

names, actions, seed = json.loads(sys.argv[1])
out = {"": {"package": rummykit.__file__}, "compiled": getattr(rummykit, "COMPILED", False)}
for name in names:
    seconds, digest = play(name, actions, seed)
    out[name] = {"cpu_us_per_action": seconds / actions * 1e6, "digest": digest}
print(json.dumps(out))
"""


def run(cmd: list[str], **kwargs: object) -> str:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kwargs).stdout  # type: ignore[call-overload]


def run_side(python: Path, *args: str) -> str:
    """Run ``python -c ...`` from a directory without a ``rummykit`` package in it: ``-c`` puts the working
    directory first on the import path, and from this checkout's root both sides would import this code."""
    PLACE.mkdir(exist_ok=True)
    return run([str(python), *args], cwd=PLACE)


COMPILED = "compiled"
"""The REF that means this checkout's compiled build."""


def label_of(ref: str | None) -> str:
    if ref is None:
        return "this"
    if ref == COMPILED:
        return COMPILED
    return run(["git", "-C", str(REPO), "rev-parse", "--short", ref]).strip()


def copy_this_checkout(root: Path) -> bool:
    """Copy this checkout's files (tracked or new, not ignored) to ``root``; whether anything changed."""
    listed = run(["git", "-C", str(REPO), "ls-files", "--cached", "--others", "--exclude-standard", "-z"])
    changed = False
    for name in filter(None, listed.split("\0")):
        source, target = REPO / name, root / name
        if not source.is_file():
            continue  # deleted but not yet committed
        data = source.read_bytes()
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            changed = True
    return changed


def side(ref: str | None) -> Path:
    """The Python of a virtual environment with ``ref``'s checkout installed (this checkout for None; this
    checkout's compiled build for ``compiled``)."""
    label = label_of(ref)
    root = REPO if ref is None else PLACE / f"tree-{label}"
    changed = False
    if ref == COMPILED:
        changed = copy_this_checkout(root)
    elif ref is not None and not root.exists():
        PLACE.mkdir(exist_ok=True)
        run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(root), ref])
    env = PLACE / f"venv-{label}"
    python = env / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    if ref == COMPILED:
        build = {**os.environ, "RUMMYKIT_COMPILE": "1"}
        if not python.exists():
            print(f"setting up {env} (compiling: a few minutes) ...", flush=True)
            venv.create(env, with_pip=True)
            run([*pip, "-e", str(root)], env=build)
        elif changed:
            print(f"compiling the changed copy in {root} ...", flush=True)
            for stale in [*root.glob("*__mypyc*"), *(root / "rummykit").rglob("*.so")]:
                stale.unlink()  # an extension of a module no longer compiled would still be imported
            run([*pip, "--no-deps", "-e", str(root)], env=build)
    elif not python.exists():
        print(f"setting up {env} ...", flush=True)
        venv.create(env, with_pip=True)
        run([*pip, "-e", str(root)])
    elif ref is None:  # this checkout may have gained entry points since
        run([*pip, "--no-deps", "-e", str(root)])
    return python


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ref", help="the commit to compare this checkout with")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each side once per round (default 5)")
    parser.add_argument("--actions", type=int, default=3000, help="random actions per variant and round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", help="variant names (default: every built-in variant)")
    parser.add_argument("--json", type=Path, help="also save every round's figures here")
    args = parser.parse_args(argv)
    ours, theirs = side(None), side(args.ref)
    names = args.only or json.loads(
        run_side(ours, "-c", "import json, rummykit; print(json.dumps([v.name for v in rummykit.list_variants()]))")
    )
    rounds: list[dict[str, dict[str, dict[str, float | str]]]] = []
    for number in range(args.rounds):
        order = [("this", ours), (args.ref, theirs)]
        if number % 2:
            order.reverse()
        figures = {}
        for label, python in order:
            print(f"round {number + 1} of {args.rounds}: {label}", flush=True)
            figures[label] = json.loads(run_side(python, "-c", DRIVER, json.dumps([names, args.actions, args.seed])))
        if number == 0:
            packages = {label: Path(str(figures[label].pop("")["package"])) for label in figures}
            for label, root in (
                ("this", REPO),
                (args.ref, PLACE / f"tree-{theirs.parent.parent.name[len('venv-') :]}"),
            ):
                if root.resolve() not in packages[label].resolve().parents:
                    raise SystemExit(f"the {label} side imported {packages[label]}, not the code under {root}")
            builds = {label: bool(figures[label].pop("compiled")) for label in figures}
            if builds != {"this": False, args.ref: args.ref == COMPILED}:
                raise SystemExit(f"not the builds meant (compiled or not): {builds}")
        else:
            for label in figures:
                figures[label].pop("")
                figures[label].pop("compiled")
        rounds.append(figures)
    print(f"\nCPU microseconds per random action, {args.actions} actions a variant, {args.rounds} rounds interleaved")
    print(f"ratio: this / {args.ref} (above 1: this checkout is slower)")
    print(f"{'variant':18} {'this':>9} {args.ref[:12]:>12} {'ratio':>7}  ratio range   same games")
    slower = []
    for name in names:
        mine = [r["this"][name]["cpu_us_per_action"] for r in rounds]
        base = [r[args.ref][name]["cpu_us_per_action"] for r in rounds]
        ratios = sorted(float(a) / float(b) for a, b in zip(mine, base))
        same = all(r["this"][name]["digest"] == r[args.ref][name]["digest"] for r in rounds)
        ratio = statistics.median(ratios)
        if ratio > 1.05:
            slower.append(name)
        print(
            f"{name:18} {statistics.median(mine):9.1f} {statistics.median(base):12.1f} {ratio:7.3f}"
            f"  {ratios[0]:.3f}-{ratios[-1]:.3f}  {'yes' if same else 'NO: the games differ'}"
        )
    if args.json:
        args.json.write_text(json.dumps({"ref": args.ref, "rounds": rounds}, indent=1))
    if args.ref == COMPILED:
        print("\nthe pure-Python build slower by more than 5 % (median ratio):", ", ".join(slower) or "none")
    else:
        print("\nslower by more than 5 % (median ratio):", ", ".join(slower) if slower else "none")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
