"""500 Rum, 500 Partnership Rummy and Persian Rummy: what their rulesets' data does not express.

The turn itself is the kernel's (``draw.from_pile: any`` with ``draw.must_use: deepest``, melds and
lay-offs on any table meld, optional final discard, ``end`` when the stock is empty). This plugin adds
the scoring: a card on the table scores for whoever played it, an ace by how it was used (high run or
set of aces: its ``card_values`` value; low run A-2-3: ``rules.low_ace_value``), a meld of exactly four
cards laid down in one play scores ``rules.four_at_once_multiplier`` times (Persian: double), a wild joker
(house rules ``one-joker``, ``two-jokers``) scores the card it stands for, and the
cards left in hand count against their holder. The game ends when a seat (or side) has reached the
target after a hand and is alone in the lead. See ``docs/500-rum.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit import hookimpl
from rummykit.cards import card_from_face
from rummykit.engine import Deal, HandResult, TableMeld
from rummykit.standard import hand_points, table_points
from rummykit.typed import rules_as

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "low_ace_value": {"type": "integer", "description": "an ace in a low run (A-2-3)"},
        "four_at_once_multiplier": {
            "type": "integer",
            "minimum": 1,
            "description": "a meld of exactly four cards laid in one play",
        },
    },
    "required": ["low_ace_value"],
}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@dataclass(frozen=True)
class FiveHundredRules:
    """500 Rum's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant."""

    low_ace_value: int
    four_at_once_multiplier: int = 1


def melded_value(deal: Deal, table_meld: TableMeld, index: int, rules: FiveHundredRules | None = None) -> int:
    """What the card at ``index`` of ``table_meld`` scores for whoever played it (``rules``: the variant's,
    when the caller has read them already)."""
    variant = deal.variant
    if rules is None:
        rules = rules_as(variant, FiveHundredRules)
    meld = table_meld.meld
    card = meld.cards[index]
    if meld.kind in ("set", "run") and variant.meld_search.is_wild(card):
        card = card_from_face(meld.faces[index])  # a wild joker scores the card it stands for
    value = variant.meld_value(card)  # (meld_values: by default the card values)
    if card.rank == 1 and meld.kind == "run" and meld.ranks[index] == 1:
        value = rules.low_ace_value
    multiplier = rules.four_at_once_multiplier
    if multiplier != 1 and table_meld.first_size == 4 and card.id in table_meld.first_ids:
        value *= multiplier
    return value


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    if kind not in ("out", "exhausted"):
        return None
    rules = rules_as(deal.variant, FiveHundredRules)
    melded = table_points(deal, lambda tm, i: melded_value(deal, tm, i, rules))
    in_hand = hand_points(deal)
    scores = tuple(m - h for m, h in zip(melded, in_hand))
    winner = deal.current if kind == "out" else None
    details: dict[str, Any] = {"melded": melded, "in_hand": in_hand}
    if deal.variant.partnerships:
        details["sides"] = [sum(scores[s] for s in deal.seats if deal.game.side_of(s) == side) for side in (0, 1)]
    return HandResult(deal.number, kind, scores, winner, deal.dealer, details)
