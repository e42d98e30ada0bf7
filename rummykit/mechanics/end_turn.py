"""Ending a turn without a discard (``turn.end: done``).

A player's turn ends when they say so (``end turn``): nothing is discarded, and a player whose hand empties
by melding and laying off goes out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, PositionWords, Verb
from ..engine import Deal
from ..hookspecs import hookimpl
from ..ruleset import Problem, clash
from ..settings import KernelSettings

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "turn.end: done"
"""The ruleset value that brings this mechanic into a game."""


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """A turn that ends without a discard needs melds on the table (going out by melding the last card)."""
    if kernel.turn_end == "done" and not kernel.melds_on_table:
        message = f"a turn ends with {kernel.turn_end!r} only in games that meld on the table (table.melds: true)"
        return [clash(locate, ("turn", "end"), message, ("table", "melds"))]
    return []


def end_turn_now(deal: Deal) -> str | None:
    """``end turn``: after the draw, in the ``play`` phase."""
    if deal.phase == "draw":
        return "draw a card first"
    return None if deal.phase == "play" else standard.NO_REASON


def discard_now(deal: Deal) -> str | None:
    """``discard``: never after the draw, as the turn ends without one."""
    reason = standard.discard_now(deal)
    return "in this game a turn ends without a discard" if reason is None else reason


LEGALITY: dict[str, standard.Legality] = {
    "end turn": standard.Legality("end turn", end_turn_now),
    "discard": standard.Legality("discard", discard_now, standard.one_card, "name the card", True, instead="end turn"),
}
"""This mechanic's verb, and the plain turn's it replaces, each with its one check."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if end_turn_now(deal) is None:
        standard.replace_kind(actions, "discard", [standard.END_TURN])


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return standard.refuse(LEGALITY, deal, action)


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if deal.phase == "play":
        words.hint = "meld, lay off, or end the turn"
    words.verbs.append("end turn")


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The turn ends by saying so (``end turn``) rather than by a discard."""
    return [Verb("end turn", short="e")]
