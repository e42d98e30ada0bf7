"""Gin Rummy for three: the dealer deals to the other two and sits out (docs/gin.md, Gin for three).

Used with the ``gin`` plugin (``plugins: [gin, gin-3]``). The gin plugin's dealer rule already names the
loser of each hand as the next dealer, so the next hand is played between the previous winner and the
previous dealer; a dead hand is dealt again by the same dealer. Each player keeps a score of their own:
the first to the target ends the game, and the game, shutout and box bonuses work as in two-player Gin.
"""

from __future__ import annotations

from typing import Any

from rummykit import hookimpl
from rummykit.engine import Game


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str]]:
    """Three players, no more or fewer: the dealer sits out and the other two play a hand of Gin."""
    return [
        (f"players.{end}", f"Gin for three is for three players (the dealer sits out, two play): expected 3, got {n}")
        for end in ("min", "max")
        if (n := ruleset["players"][end]) != 3
    ]


@hookimpl
def rummykit_seats_in_play(game: Game, dealer: int) -> list[int]:
    return [seat for seat in range(game.num_players) if seat != dealer]
