"""Every built-in variant, at every player count it allows, plays exactly as it did before the kernel's
turn mechanics became plugins: the same seeds give byte-identical records (so the same scores) and the
same legal actions, step by step, in the same order.

``tests/records/builtin_games.json`` was recorded (commit 4dba4ff, before that change) with
``python tests/test_builtin_games_unchanged.py --record``. Per game it holds the SHA-256 of the record
(``Game.to_json()``) after at most ``STEPS`` actions (greedy games are played whole), the scores, and the
first 8 hex digits of the SHA-256 of each step's listed actions. Random bots reach every verb a deal offers;
the greedy bot melds and lays off at once, so the table fills. Re-record only for a deliberate change of
what a built-in game does, and say so in the commit.

Re-recorded twice since, each time for the same reason in two greedy games: when the solver stopped giving
hands of 16 to 19 cards a quick pass first (faster there), the greedy bot's best arrangement chose other
melds of the same deadwood (Arlington at 7 players, Skarney Singles at 2); and again when hands with few wild
cards stopped getting it (no wild card up to 47 cards, one up to 33, two up to 24: Fortune at 5 players,
Arlington at 4). And once for a fix of the rules: a wild card laid off on a set that already held one took the
suit the one on the table stood for when it sorted before it (a deuce of hearts beside a deuce of spades
standing for the five of hearts was listed as ``2H=5H``, and the deuce of spades became the five of spades);
the table's wild card now keeps what it stands for. Fortune and Arlington list such lay-offs: 23 of their
games' listings changed (1 to 12 steps each, those listing one), 6 of their records (where a bot laid one
off), none of their scores (a set's cards score alike whatever suit a wild card stands for). And again when
the solver began to search hands of up to 20 cards card by card (quicker there): the greedy bot's best
arrangement again chose other melds of the same deadwood, in the greedy games of the two-deck games (500 Rum at
5 and 6 players, Fortune at every count, Skarney, Skarney Singles at every count); the random bots' games
and every listing before the first such choice stayed the same. Every other game is as first recorded.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import rummykit
from rummykit.simulate import make_bots

FIXTURE = Path(__file__).resolve().parent / "records" / "builtin_games.json"
STEPS = {"random": 250, "greedy": 5000}
"""Actions played per game: random bots rarely end a game; the greedy bot's games are played whole."""

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


def games() -> list[tuple[str, int, str, int]]:
    """(variant, players, bot, seed): every player count of every variant, with random bots and greedy."""
    found = []
    seed = 100
    for name in VARIANTS:
        variant = rummykit.load_variant(name)
        for players in range(variant.min_players, variant.max_players + 1):
            for bot in ("random", "greedy"):
                seed += 1
                found.append((name, players, bot, seed))
    return found


def play(name: str, players: int, bot: str, seed: int) -> dict[str, object]:
    variant = rummykit.load_variant(name)
    game = variant.new_game(players=players, seed=seed)
    bots = make_bots([bot], game.num_players, seed)
    listed = []
    while not game.is_over and len(listed) < STEPS[bot]:
        text = "\n".join(str(action) for action in game.legal_actions())
        listed.append(hashlib.sha256(text.encode()).hexdigest()[:8])
        game.apply(bots[game.deal.actor].choose(game))
    return {
        "record": hashlib.sha256(game.to_json().encode()).hexdigest(),
        "scores": list(game.scores),
        "listed": " ".join(listed),
    }


def key(game: tuple[str, int, str, int]) -> str:
    return "{} {}p {} seed {}".format(*game)


def record() -> None:
    data = {key(game): play(*game) for game in games()}
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {FIXTURE}: {len(data)} games")


@pytest.mark.parametrize("game", games(), ids=key)
def test_a_builtin_game_plays_as_before(game: tuple[str, int, str, int]) -> None:
    expected = json.loads(FIXTURE.read_text())[key(game)]
    found = play(*game)
    steps = list(zip(found["listed"].split(), expected["listed"].split()))  # type: ignore[union-attr]
    first = next((i for i, (a, b) in enumerate(steps) if a != b), None)
    assert first is None, f"{key(game)}: the listed actions differ first at step {first}"
    assert found == expected


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    record()
