"""Toy Rummy's behaviour, written only against rummykit's public hooks (see toy.yaml)."""

from __future__ import annotations

import itertools

import rummykit
from rummykit import Action
from rummykit.standard import meld_action


@rummykit.hookimpl
def rummykit_start_hand(deal):
    deal.add_zone("aces", visibility="public")
    deal.state["contract"] = set()


@rummykit.hookimpl
def rummykit_automatic_action(deal):
    """Aces never stay in hand: at any moment a player holds one in play, the rules set it aside."""
    if deal.phase != "play":
        return None
    ace = next((c for c in deal.hands[deal.current] if c.rank == 1), None)
    return Action("set aside", (ace,)) if ace is not None else None


@rummykit.hookimpl
def rummykit_legal_actions(deal, actions):
    seat = deal.current
    if deal.phase != "play" or seat in deal.state["contract"]:
        return
    # Before a player's first meld, that meld is two melds laid at once; no single meld, no lay-off.
    actions[:] = [a for a in actions if a.kind not in ("meld", "layoff", "swap") or len(a.groups) == 2]
    if deal.probe is not None:
        return
    search = deal.variant.meld_search
    candidates = search.candidate_melds(deal.hands[seat], limit=30)
    for first, second in itertools.combinations(candidates, 2):
        if set(first.cards).isdisjoint(second.cards):
            one, two = meld_action(search, first), meld_action(search, second)
            meant = (one.stands_for or (None,) * len(one.cards)) + (two.stands_for or (None,) * len(two.cards))
            actions.append(
                Action(
                    "meld",
                    one.cards + two.cards,
                    groups=(len(one.cards), len(two.cards)),
                    stands_for=meant if any(meant) else (),
                )
            )


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    if action.kind == "set aside":
        card = action.cards[0]
        deal.take_from_hand(deal.current, (card,))
        deal.zones["aces"].cards[deal.current].append(card)
        return True
    if action.kind == "meld":
        deal.state["contract"].add(deal.current)
    if action.kind == "decline" and deal.offer is not None and deal.offer.asked == len(deal.offer.order):
        # Nobody wants it: the offered card is discarded onto the pile.
        offer = deal.offer
        deal.take_from_hand(offer.offerer, (offer.card,))
        deal.discard.append(offer.card)
        deal.end_turn()
        return True
    return None


@rummykit.hookimpl
def rummykit_score_hand(deal, kind):
    from rummykit.engine import HandResult
    from rummykit.standard import hand_points, table_points

    melded = table_points(deal)
    in_hand = hand_points(deal)
    aces = [15 * len(held) for held in deal.zones["aces"].cards]
    scores = tuple(m - h + a for m, h, a in zip(melded, in_hand, aces))
    return HandResult(deal.number, kind, scores, deal.current if kind == "out" else None, deal.dealer)
