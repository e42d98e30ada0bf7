"""Write the records of a fixed set of games, one file each, for CI to compare between the pure-Python and the
compiled build (``diff -r``): every built-in variant at every player count it allows, and every house rule it
offers, with greedy bots (whole games) and random bots (the first 300 actions).

    python .ci/records.py OUTDIR
"""

from __future__ import annotations

import sys
from pathlib import Path

import rummykit
from rummykit.simulate import make_bots
from rummykit.variant import house_rules_for

BUILT_IN = "rummykit"
STEPS = {"random": 300, "greedy": 5000}


def play(out: Path, name: str, house_rules: list[str], players: int, bot: str, seed: int) -> None:
    try:
        variant = rummykit.load_variant(name, house_rules=house_rules)
    except rummykit.RulesetError:
        return  # a house rule that needs another (or excludes the default): not a game to record
    if not variant.min_players <= players <= variant.max_players:
        return
    game = variant.new_game(players=players, seed=seed)
    bots = make_bots([bot], game.num_players, seed)
    for _ in range(STEPS[bot]):
        if game.is_over:
            break
        game.apply(bots[game.deal.actor].choose(game))
    label = "+".join([name, *house_rules])
    (out / f"{label}-{players}p-{bot}-{seed}.json").write_text(game.to_json(), encoding="utf-8")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    seed = 1000
    for info in rummykit.list_variants():
        if info.package != BUILT_IN:
            continue
        for players in range(info.min_players, info.max_players + 1):
            for bot in ("greedy", "random"):
                seed += 1
                play(out, info.name, [], players, bot, seed)
        for rule in sorted(house_rules_for(info.name)):
            seed += 1
            play(out, info.name, [rule], info.min_players, "greedy", seed)
    print(f"{len(list(out.iterdir()))} records in {out} ({'compiled' if rummykit.COMPILED else 'pure Python'})")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
