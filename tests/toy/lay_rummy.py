"""Lay Rummy: a table game whose verbs the built-in bots were not written for (see lay-rummy.yaml).

Melds are laid with ``lay`` (the kernel's ``meld`` is not listed); ``fold`` ends the turn without a discard,
which helps nobody. Written only against rummykit's public hooks."""

from __future__ import annotations

import rummykit
from rummykit import Action, ActionWords


@rummykit.hookimpl
def rummykit_legal_actions(deal, actions):
    if deal.phase != "play":
        return
    laid = [Action("lay", a.cards, a.target, a.groups, a.stands_for) for a in actions if a.kind == "meld"]
    actions[:] = [a for a in actions if a.kind != "meld"] + laid
    if deal.probe is None:
        actions.append(Action("fold"))


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    if action.kind == "lay":  # laid as the kernel lays a meld
        meld = Action("meld", action.cards, action.target, action.groups, action.stands_for)
        return deal.variant.hook.rummykit_apply_action(deal=deal, action=meld)
    if action.kind == "fold":
        deal.end_turn()
        return True
    return None


@rummykit.hookimpl
def rummykit_describe_action(deal, seat, action, viewer):
    if action.kind == "lay":
        cards = action.cards_text()
        return ActionWords(f"lay {cards}", f"lays {cards}")
    if action.kind == "fold":
        return ActionWords("fold", "folds")
    return None
