"""Offering a card instead of discarding it (``turn.end: offer``, Skarney).

A turn ends not with a discard but with an offer of one card from hand to the other players (``offer 7H``),
asked one at a time in the order ``rummykit_offer_order`` gives (the kernel's: from the left-hand player
clockwise). The seat asked (``deal.responder``) accepts the card into its hand (``accept``), which ends the
offerer's turn, or declines it (``decline``) and the next is asked; when every one declined, the offerer
keeps it. While a card is on offer the phase is ``offered``. Only its owner and the seats asked see the card.
With one card left in hand a player offers nothing and ends the turn (``end turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, ActionWords, OneCardActions, PositionWords, Verb
from ..cards import Card
from ..engine import Deal, Offer
from ..hookspecs import hookimpl
from ..ruleset import Problem, clash
from ..settings import KernelSettings
from ..toolkit import distinct_cards

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "turn.end: offer"
"""The ruleset value that brings this mechanic into a game."""


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """A turn that ends without a discard needs melds on the table (going out by melding the last card)."""
    if kernel.turn_end == "offer" and not kernel.melds_on_table:
        message = f"a turn ends with {kernel.turn_end!r} only in games that meld on the table (table.melds: true)"
        return [clash(locate, ("turn", "end"), message, ("table", "melds"))]
    return []


ACCEPT = Action("accept")
DECLINE = Action("decline")
OFFERS = OneCardActions("offer")
OFFERED = "offered"
"""The phase while a card is on offer: ``deal.responder`` accepts or declines."""


def offer_now(deal: Deal) -> str | None:
    """``offer``: after the draw, in the ``play`` phase, with more than one card in hand."""
    if deal.phase == "draw":
        return "draw a card first"
    if deal.phase != "play":
        return standard.NO_REASON
    return None if len(deal.hands[deal.current]) > 1 else "with one card left the turn ends without an offer"


def end_turn_now(deal: Deal) -> str | None:
    """``end turn``: in the ``play`` phase, with one card left in hand (more are offered)."""
    if deal.phase != "play":
        return standard.NO_REASON
    return None if len(deal.hands[deal.current]) <= 1 else "in this game a turn ends with an offer to the other players"


def discard_now(deal: Deal) -> str | None:
    """``discard``: never after the draw, as the turn ends with an offer."""
    reason = standard.discard_now(deal)
    if reason is None:
        return "in this game a turn ends with an offer to the other players"
    return reason


def answer_now(deal: Deal) -> str | None:
    """``accept`` and ``decline``: by the seat asked, while a card is on offer."""
    return None if deal.phase == OFFERED and deal.offer is not None else "no card is offered to you"


LEGALITY: dict[str, standard.Legality] = {
    "offer": standard.Legality("offer", offer_now, standard.one_card, "name the card", True, instead="end turn"),
    "end turn": standard.Legality("end turn", end_turn_now, instead="offer"),
    "discard": standard.Legality("discard", discard_now, standard.one_card, "name the card", True, instead="offer"),
    "accept": standard.Legality("accept", answer_now),
    "decline": standard.Legality("decline", answer_now),
}
"""This mechanic's verbs, and the plain turn's it replaces, each with its one check."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase == "play":
        hand = deal.hands[deal.current]
        endings = [OFFERS[card] for card in distinct_cards(deal, hand)] if offer_now(deal) is None else []
        if end_turn_now(deal) is None:
            endings.append(standard.END_TURN)
        standard.replace_kind(actions, "discard", endings)
    elif answer_now(deal) is None:
        actions.extend((ACCEPT, DECLINE))


@hookimpl
def rummykit_offer_order(deal: Deal, seat: int, card: Card) -> list[int]:
    """Every other seat in play, from the left-hand one clockwise."""
    order = []
    other = deal.next_seat(seat)
    while other != seat:
        order.append(other)
        other = deal.next_seat(other)
    return order


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    if kind == "offer":
        seat = deal.current
        card = action.cards[0]
        order = deal.variant.hook.rummykit_offer_order(deal=deal, seat=seat, card=card)
        order = [s for s in order if s != seat and s in deal.seats]
        if not order:
            deal.end_turn()
        else:
            deal.offer = Offer(card, seat, tuple(order), 1)
            deal.seen.setdefault(card.id, set()).add(order[0])
            deal.responder = order[0]
            deal.phase = OFFERED
    elif kind in ("accept", "decline"):
        _answer_offer(deal, kind == "accept")
    else:
        return None
    return True


def _answer_offer(deal: Deal, accepted: bool) -> None:
    offer = deal.offer
    assert offer is not None and deal.responder is not None
    responder = deal.responder
    if accepted:
        deal.take_from_hand(offer.offerer, (offer.card,))
        deal.hands[responder].append(offer.card)
        # Whoever was asked saw the card; it stays known to them in the taker's hand.
        deal.seen[offer.card.id] = {offer.offerer, *offer.order[: offer.asked]}
        deal.end_turn()
        return
    offer.declined += (responder,)
    if offer.asked < len(offer.order):
        deal.responder = offer.order[offer.asked]
        offer.asked += 1
        deal.seen.setdefault(offer.card.id, set()).add(deal.responder)
        return
    deal.end_turn()  # nobody took it: the offerer keeps it


def offered_card(deal: Deal) -> Card | None:
    """The card on offer now, or the one just answered (``accept``/``decline`` end the offer)."""
    if deal.offer is not None:
        return deal.offer.card
    for _, action in reversed(deal.log):
        if action.kind == "offer":
            return action.cards[0]
    return None


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase == OFFERED and deal.offer is not None and action.kind not in ("accept", "decline"):
        return "a card is offered to you: accept or decline it first"
    return standard.refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    if kind not in ("offer", "accept", "decline"):
        return None
    card = action.cards[0] if action.cards else offered_card(deal)
    # Only the seats it was offered to (and its owner) ever see an offered card.
    shown = card is not None and viewer is not None and (viewer == seat or viewer in deal.seen.get(card.id, ()))
    you = f" {card}" if card is not None else ""
    they = f" {card}" if shown else " a card" if kind == "offer" else " the offered card"
    if kind == "offer":
        return ActionWords("offer" + you, "offers" + they)
    return ActionWords(kind + you, kind + "s" + they)


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if deal.phase == "play":
        words.hint = "meld, lay off, or offer a card"
    elif deal.phase == OFFERED and deal.offer is not None:
        offer = deal.offer
        words.hint = f"{deal.game.names[offer.offerer]} offers you {offer.card}: accept or decline"
    words.verbs += ["offer", "accept", "decline", "end turn"]


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The card offered to the other seats (``offer 7H``), their answers, and the turn's end."""
    return [
        Verb("offer", frozenset({"card"}), short="o"),
        Verb("accept"),
        Verb("decline"),
        Verb("end turn", short="e"),
    ]
