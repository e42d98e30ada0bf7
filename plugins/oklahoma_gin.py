"""Oklahoma Gin: Gin Rummy in which the first upcard sets the knock limit and a spade doubles the deal.

Used with the ``gin`` plugin (``plugins: [gin, oklahoma-gin]``), which does everything else. Rules and their
sources: docs/gin.md, "Oklahoma Gin" and "Rules decisions for Oklahoma Gin" (the "some play" variations
are house rules).

- The value of the first upcard (ace 1, pictures 10) is the most deadwood one may knock with this deal.
- A spade upcard doubles the deal's whole score, gin and undercut bonuses included.
- ``rules.ace_gin_only`` (house rule ``ace-gin-only``): an ace upcard means one may only go gin.
- ``rules.extra_boxes`` (house rule ``extra-boxes``): an undercut earns one extra box and gin two, both
  doubled under a spade upcard; boxes become ``box_bonus`` points each at the end of the game.
- With the 11-card start there is no upcard: the non-dealer's opening discard, the card that starts the
  pile, is the knock card; on that opening turn (before any knock card exists) only gin may end the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit import hookimpl
from rummykit.actions import PositionWords
from rummykit.cards import Card
from rummykit.engine import Action, Deal, HandResult
from rummykit.typed import rules_as

from . import gin

SPADES = 3

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ace_gin_only": {"type": "boolean"},
        "extra_boxes": {"type": "boolean"},
    },
}

EXTRA_BOXES = {"undercut": 1, "gin": 2, "big-gin": 2}
"""Extra boxes (house rule extra-boxes, "some play") by how the hand ended; doubled under a spade upcard."""


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@dataclass(frozen=True)
class OklahomaRules:
    """Oklahoma Gin's own ``rules`` keys (:data:`RULES_SCHEMA`); Gin's are :class:`~.gin.GinRules`."""

    ace_gin_only: bool = False
    extra_boxes: bool = False


def oklahoma_rules(variant: Any) -> OklahomaRules:
    """``variant``'s Oklahoma Gin rules (built once per variant)."""
    return rules_as(variant, OklahomaRules)


def knock_card_limit(deal: Deal, card: Card) -> int:
    """The knock limit a knock card sets: its value (ace 1, pictures 10), 0 (gin only) for an ace under
    ``ace_gin_only``, and always 0 in a game of Gin Only."""
    if gin.gin_rules(deal.variant).gin_only or (card.rank == 1 and oklahoma_rules(deal.variant).ace_gin_only):
        return 0
    return min(card.rank, 10)


@dataclass
class OklahomaState:
    """What a deal of Oklahoma Gin keeps besides Gin's own state (``deal.state_of(OklahomaState)``)."""

    knock_card: Card | None = None
    """The card that set the knock limit: the upcard, or the opening discard of an 11-card start."""
    multiplier: int = 1
    """2 when the knock card is a spade: the deal's whole score is doubled."""


def _set_knock_card(deal: Deal, card: Card) -> None:
    state = deal.state_of(OklahomaState)
    state.knock_card = card
    state.multiplier = 2 if card.suit == SPADES else 1
    gin.gin_state(deal).knock_limit = knock_card_limit(deal, card)


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    # Runs after the gin plugin's start_hand (a later layer) and replaces its default limit.
    if deal.discard:
        _set_knock_card(deal, deal.discard[0])
    else:  # 11-card start: the knock card is the non-dealer's opening discard
        deal.state_of(OklahomaState)  # no knock card yet, no multiplier
        gin.gin_state(deal).knock_limit = 0


@hookimpl
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    # Only the opening discard of an 11-card start finds no knock card yet: it becomes the knock card.
    if action.kind == "discard" and deal.state_of(OklahomaState).knock_card is None:
        _set_knock_card(deal, action.cards[0])


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    if kind != "knock":
        return None
    state = deal.state_of(OklahomaState)
    multiplier = state.multiplier
    extra = {k: v * multiplier for k, v in EXTRA_BOXES.items()} if oklahoma_rules(deal.variant).extra_boxes else None
    result = gin.score_knock(deal, multiplier, extra)
    card = state.knock_card
    details = dict(result.details)
    details["knock_card"] = str(card) if card is not None else None
    return HandResult(result.number, result.kind, result.scores, result.winner, result.dealer, details, result.boxes)


def knock_limit_reason(deal: Deal) -> str:
    """How this deal's knock limit was set, for people: ``the upcard's value``, ``gin only until the opening
    discard sets it``..."""
    card = deal.state_of(OklahomaState).knock_card
    rules = gin.gin_rules(deal.variant)
    knock_card = "the opening discard" if rules.eleven_card_start else "the upcard"
    if rules.gin_only:
        return "gin only"
    if card is None:
        return f"gin only until {knock_card}, the knock card, sets it"
    if knock_card_limit(deal, card) == 0:
        return f"{knock_card} is an ace: gin only"
    return f"{knock_card}'s value"


@hookimpl(trylast=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    """The gin plugin states the knock limit; here it says how the deal's knock card set it."""
    stated = f"Knock limit: {gin.knock_limit(deal)}"
    words.facts[:] = [f"{fact} ({knock_limit_reason(deal)})" if fact == stated else fact for fact in words.facts]


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    state = deal.state_of(OklahomaState)
    view["knock_card"] = str(state.knock_card) if state.knock_card is not None else None
    view["score_multiplier"] = state.multiplier
