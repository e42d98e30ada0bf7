"""Ending a turn without a discard (``turn.end: done``).

A player's turn ends when they say so (``end turn``): nothing is discarded, and a player whose hand empties
by melding and laying off goes out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, PositionWords, Verb
from ..engine import Deal
from ..hookspecs import hookimpl
from ..ruleset import Problem
from ..settings import KernelSettings

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "turn.end: done"
"""The ruleset value that brings this mechanic into a game."""


def ruleset_problems(kernel: KernelSettings, locate: Any) -> list[Problem]:
    """A turn that ends without a discard needs melds on the table (going out by melding the last card)."""
    if kernel.turn_end == "done" and not kernel.melds_on_table:
        message = f"a turn ends with {kernel.turn_end!r} only in games that meld on the table (table.melds: true)"
        return [locate(("turn", "end"), message)]
    return []


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase == "play":
        standard.replace_kind(actions, "discard", [standard.END_TURN])


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if deal.phase == "play":
        words.hint = "meld, lay off, or end the turn"
    words.verbs.append("end turn")


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The turn ends by saying so (``end turn``) rather than by a discard."""
    return [Verb("end turn", short="e")]
