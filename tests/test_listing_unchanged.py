"""The legal actions listed in seeded games, step by step, are those the listing gave before it was made
faster: same actions, same order (which seeded bots and saved records depend on).

``tests/records/legal_listing.json`` holds, per game, a short digest of each step's listed actions, recorded
from the listing as it was (commit 35fbe7b) with ``python tests/test_listing_unchanged.py --record``. Every
variant is played, the 500 Rum family at several player counts (five players: two decks, so duplicates),
by random bots and by the greedy bot (which melds and lays off at once, so the table fills).
Re-record only for a deliberate change of what is legal or of its order, and say so in the commit.

Re-recorded once for a change of the greedy bot's play, not of the listing: when the solver began to search
hands of up to 20 cards card by card, the bot's best arrangement chose other melds of the same deadwood, and
the greedy game of 500 Rum at five players (two decks) went another way. Every other game is as recorded.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import rummykit
from rummykit.simulate import make_bots

FIXTURE = Path(__file__).resolve().parent / "records" / "legal_listing.json"
STEPS = 500
"""Steps recorded per game (a 500 Rum game runs to thousands)."""

GAMES: list[tuple[str, int, str, int]] = [
    # (variant, players, bot, seed)
    ("500-rum", 2, "random", 1),
    ("500-rum", 2, "random", 2),
    ("500-rum", 2, "greedy", 3),
    ("500-rum", 3, "random", 4),
    ("500-rum", 3, "greedy", 5),
    ("500-rum", 5, "random", 6),
    ("500-rum", 5, "greedy", 7),
    ("500-rum", 6, "greedy", 8),
    ("500-partnership", 4, "random", 9),
    ("500-partnership", 4, "greedy", 10),
    ("persian", 4, "random", 11),
    ("persian", 4, "random", 12),
    ("persian", 4, "greedy", 13),
    ("gin", 2, "random", 14),
    ("gin", 2, "greedy", 15),
    ("gin-3", 3, "random", 16),
    ("gin-partnership", 4, "random", 17),
    ("oklahoma-gin", 2, "greedy", 18),
]


def digests(name: str, players: int, bot: str, seed: int) -> list[str]:
    """Per step, the first 8 hex digits of the SHA-256 of the listed actions (one per line, in order)."""
    variant = rummykit.load_variant(name)
    game = variant.new_game(players=players, seed=seed)
    bots = make_bots([bot], game.num_players, seed)
    found = []
    while not game.is_over and len(found) < STEPS:
        listed = game.legal_actions()
        text = "\n".join(str(action) for action in listed)
        found.append(hashlib.sha256(text.encode()).hexdigest()[:8])
        game.apply(bots[game.deal.actor].choose(game))
    return found


def key(game: tuple[str, int, str, int]) -> str:
    return "{} {}p {} seed {}".format(*game)


def record() -> None:
    data = {key(game): " ".join(digests(*game)) for game in GAMES}
    FIXTURE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {FIXTURE}")


@pytest.mark.parametrize("game", GAMES, ids=key)
def test_listed_actions_are_unchanged(game: tuple[str, int, str, int]) -> None:
    expected = json.loads(FIXTURE.read_text())[key(game)].split()
    found = digests(*game)
    first = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b), None)
    assert first is None, f"{key(game)}: the listed actions differ first at step {first}"
    assert len(found) == len(expected)


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
    else:
        raise SystemExit("usage: python tests/test_listing_unchanged.py --record")
