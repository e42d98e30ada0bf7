"""Passing the discard face down to a neighbour (``turn.discard_to: right`` or ``left``, Iceberg).

There is no open pile: a player's discard goes face down to the right-hand (previous) or left-hand (next)
player, and only the passer knows it. At the start of their next turn the receiver takes up the cards passed
to them, a move the rules make by themselves (``auto: take up 8D`` in a record); from then on the receiver
knows them too. A player whose discard is their last card goes out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import standard
from ..actions import Action, ActionWords
from ..engine import Deal
from ..hookspecs import hookimpl
from ..ruleset import Problem, clash
from ..settings import KernelSettings
from ..toolkit import cards_text

SELECTED_BY = "turn.discard_to: right or left"
"""The ruleset values that bring this mechanic into a game."""


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """A discard passed to a player needs no open pile and a turn that ends with a discard."""
    problems = []
    if kernel.discard_to != "pile":
        if kernel.discard_pile != "none":
            message = "a discard passed to a player needs discard_pile: none (no open pile)"
            problems.append(clash(locate, ("turn", "discard_to"), message, ("discard_pile",)))
        if kernel.turn_end != "discard":
            message = "a discard passed to a player needs turn.end: discard"
            problems.append(clash(locate, ("turn", "discard_to"), message, ("turn", "end")))
    return problems


PASSED = "passed"
"""The zone of cards passed face down to a seat, hidden from all but the passer (``deal.seen``) until the
seat takes them up at the start of its turn."""
TAKE_UP = "take up"
"""The move the rules make at the start of a turn: the cards passed to the seat go into its hand."""


def pass_receiver(deal: Deal, seat: int) -> int:
    """The seat ``seat``'s discard goes to: the next seat (``left``), or the previous one (``right``)."""
    if deal.variant.discard_to == "left":
        return deal.next_seat(seat)
    other = deal.next_seat(seat)
    while deal.next_seat(other) != seat:
        other = deal.next_seat(other)
    return other


@hookimpl(tryfirst=True)
def rummykit_start_hand(deal: Deal) -> None:
    deal.add_zone(PASSED, visibility="hidden")


@hookimpl
def rummykit_automatic_action(deal: Deal) -> Action | None:
    """A seat starting its turn first takes up the cards passed to it."""
    if deal.phase != "draw" or deal.responder is not None:
        return None
    passed = deal.zones[PASSED].cards[deal.current]
    if not passed:
        return None
    return Action.of(TAKE_UP, passed[0]) if len(passed) == 1 else Action(TAKE_UP, tuple(passed))


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    seat = deal.current
    if kind == TAKE_UP:
        passed = deal.zones[PASSED].cards[seat]
        for card in action.cards:
            passed.remove(card)
            deal.hands[seat].append(card)  # deal.seen still names the passer
        return True
    if kind == "discard":
        deal.take_from_hand(seat, action.cards)
        deal.zones[PASSED].cards[pass_receiver(deal, seat)].extend(action.cards)
        for card in action.cards:
            deal.seen[card.id] = {seat}  # only the passer knows it
        standard.after_discard(deal, seat)
        return True
    return None


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    cards = cards_text(action.cards)
    if kind == "discard":
        # Only the passer reads the card (the receiver reads it when taking it up).
        receiver = pass_receiver(deal, seat)
        to = deal.game.names[receiver]
        if viewer == receiver:
            return ActionWords(f"pass {cards} face down to {to}", "passes a card face down to you")
        return ActionWords(f"pass {cards} face down to {to}", f"passes a card face down to {to}")
    if kind == TAKE_UP:
        passer = next(iter(deal.seen.get(action.cards[0].id, ())), None) if action.cards else None
        by = f", passed face down by {deal.game.names[passer]}" if passer is not None else ""
        if viewer is not None and viewer == passer:
            return ActionWords(f"take up {cards}{by}", f"takes up {cards}, passed face down by you")
        what = "the card" if len(action.cards) == 1 else "the cards"
        return ActionWords(f"take up {cards}{by}", f"takes up {what}{by}")
    return None
