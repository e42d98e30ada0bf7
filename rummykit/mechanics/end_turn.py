"""Ending a turn without a discard (``turn.end: done``).

A player's turn ends when they say so (``end turn``): nothing is discarded, and a player whose hand empties
by melding and laying off goes out.
"""

from __future__ import annotations

from .. import standard
from ..actions import Action, PositionWords
from ..engine import Deal
from ..hookspecs import hookimpl

SELECTED_BY = "turn.end: done"
"""The ruleset value that brings this mechanic into a game."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase == "play":
        standard.replace_kind(actions, "discard", [standard.END_TURN])


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if deal.phase == "play":
        words.hint = "meld, lay off, or end the turn"
    words.verbs.append("end turn")
