"""Fortune Rummy and Arlington: what their rulesets' data does not express.

The turn is the kernel's: draw the stock's top card, or take the whole squared pile by first melding its
top card with at least two cards from hand (``draw.from_pile: whole``, ``draw.must_use: top``); meld and
add to one's own melds (``table.layoff: own``), deuces wild (``melds.wild``); end with a discard, optional
when going out; the pile less its top card turned over when the stock runs out (``draw.empty_stock``).

This plugin adds, as the rules say:

- the queen of spades may not be discarded while the player holds any other card
  (``rules.queen_of_spades_last``);
- Arlington: a 2 may stand for the queen of spades only in a meld otherwise all natural
  (``rules.queen_stand_in_natural``);
- the score of a hand: each card a player melded scores its value (an ace 10 high or in a set,
  ``rules.low_ace_value`` low in A-2-3); a wild 2 scores the melded value of the rank it stands for (a 2
  standing for the queen of spades scores as a queen, 10; a 2 standing for a 2 scores 5); each 2 of a set
  of 2s alone scores ``rules.wild_set_value`` (Arlington 25); a joker scores its own ``meld_values``; the
  cards left in hand count against their holder (``card_values``); whoever goes out scores
  ``rules.going_out_bonus`` more (Arlington 100).

See ``docs/fortune.md``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rummykit import hookimpl
from rummykit.actions import Action, PositionWords
from rummykit.cards import JOKER_FACE, RANKS, parse_card
from rummykit.engine import Deal, HandResult, TableMeld
from rummykit.melds import Meld, MeldRules
from rummykit.standard import Legality, any_time, hand_points, refuse, table_points
from rummykit.typed import rules_as
from rummykit.variant import Variant

QUEEN_OF_SPADES = parse_card("QS").face

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "low_ace_value": {"type": "integer", "description": "an ace (or a wild card standing for one) low in A-2-3"},
        "going_out_bonus": {"type": "integer", "minimum": 0, "description": "scored by the player who goes out"},
        "queen_of_spades_last": {
            "type": "boolean",
            "description": "the queen of spades may not be discarded while the player holds any other card",
        },
        "wild_set_value": {"type": "integer", "description": "each wild card in a set of wild cards alone"},
        "queen_stand_in_natural": {
            "type": "boolean",
            "description": "a wild card may stand for the queen of spades only in a meld otherwise all natural",
        },
    },
    "required": ["low_ace_value", "going_out_bonus", "queen_of_spades_last", "wild_set_value"],
}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@dataclasses.dataclass(frozen=True)
class FortuneRules:
    """Fortune's and Arlington's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant."""

    low_ace_value: int
    going_out_bonus: int
    queen_of_spades_last: bool
    wild_set_value: int
    queen_stand_in_natural: bool = False


def fortune_rules(variant: Variant) -> FortuneRules:
    """``variant``'s Fortune rules (built once per variant)."""
    return rules_as(variant, FortuneRules)


# -- melds ------------------------------------------------------------------------------------------


def queen_stand_in_natural(meld: Meld) -> bool:
    """Arlington: a wild card stands for the queen of spades only in a meld with no other wild card."""
    if meld.wilds < 2 or meld.kind not in ("set", "run"):
        return True
    stand_ins = (face == QUEEN_OF_SPADES and card.face != face for card, face in zip(meld.cards, meld.faces))
    return not any(stand_ins)


@hookimpl
def rummykit_meld_rules(variant: Variant, rules: MeldRules) -> MeldRules | None:
    if not fortune_rules(variant).queen_stand_in_natural:
        return None
    return dataclasses.replace(rules, accept=queen_stand_in_natural, accept_faces=frozenset({QUEEN_OF_SPADES}))


# -- the queen of spades ----------------------------------------------------------------------------


def holds_queen(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` holds a queen of spades."""
    return any(c.face == QUEEN_OF_SPADES for c in deal.hands[seat])


def queen_held_back(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` may not discard a queen of spades now: the rule is on and it holds another card."""
    if not fortune_rules(deal.variant).queen_of_spades_last:
        return False
    return any(c.face != QUEEN_OF_SPADES for c in deal.hands[seat])


def queen_problem(deal: Deal) -> str | None:
    """Fortune's one rule on discards, for the position: why the queen of spades may not be discarded now, or
    None when it may (asked once per position; the kernel's own discard check comes first)."""
    if deal.phase not in ("play", "discard") or not queen_held_back(deal, deal.current):
        return None
    return "the queen of spades may not be discarded while you hold any other card"


def discard_problem(deal: Deal, action: Action) -> str | None:
    """``discard``: None when Fortune allows it, else why not (:func:`queen_problem` for a queen of spades
    held); a card not held is left to the kernel's check."""
    if not action.cards or action.cards[0].face != QUEEN_OF_SPADES:
        return None
    if not holds_queen(deal, deal.current):
        return None
    return queen_problem(deal)


LEGALITY: dict[str, Legality] = {"discard": Legality("discard", any_time, discard_problem)}
"""Fortune's rule on the discard (:class:`~rummykit.standard.Legality`; the kernel's own check still applies)."""


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    # (no discard is listed at the draw, nor one of the queen in the many hands without it: nothing to take out)
    if deal.phase != "draw" and holds_queen(deal, deal.current) and queen_problem(deal) is not None:
        actions[:] = [a for a in actions if a.kind != "discard" or a.cards[0].face != QUEEN_OF_SPADES]


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if holds_queen(deal, seat) and queen_held_back(deal, seat):
        words.facts.append("QS: no discard while you hold another card")


# -- scoring ----------------------------------------------------------------------------------------


def rank_meld_value(variant: Variant, rank: int) -> int:
    """The melded value of a rank (1..13, 14 a high ace), whatever its suit: what a wild card standing for a
    card of that rank scores (by-card values such as ``QS: 50`` belong to the natural card only)."""
    values = {**variant.ruleset.get("card_values", {}), **variant.ruleset.get("meld_values", {})}
    name = RANKS[(rank - 1) % 13]
    if name in values:
        return int(values[name])
    if name == "T" and "10" in values:
        return int(values["10"])
    return min(rank, 10)


def melded_value(deal: Deal, table_meld: TableMeld, index: int, rules: FortuneRules | None = None) -> int:
    """What the card at ``index`` of ``table_meld`` scores for whoever played it (``rules``: the variant's,
    when the caller has read them already)."""
    variant = deal.variant
    if rules is None:
        rules = fortune_rules(variant)
    meld = table_meld.meld
    card = meld.cards[index]
    if meld.kind == "wild-set":
        return rules.wild_set_value
    if meld.kind == "run" and meld.ranks[index] == 1:
        return rules.low_ace_value
    if card.face != JOKER_FACE and variant.meld_search.is_wild(card) and meld.kind in ("set", "run"):
        return rank_meld_value(variant, meld.ranks[index])
    return variant.meld_value(card)


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    if kind not in ("out", "exhausted"):
        return None
    rules = fortune_rules(deal.variant)
    melded = table_points(deal, lambda tm, i: melded_value(deal, tm, i, rules))
    in_hand = hand_points(deal)
    winner = deal.current if kind == "out" else None
    bonus = [0] * len(melded)
    if winner is not None:
        bonus[winner] = rules.going_out_bonus
    scores = tuple(m - h + b for m, h, b in zip(melded, in_hand, bonus))
    details: dict[str, Any] = {"melded": melded, "in_hand": in_hand}
    if any(bonus):
        details["bonus"] = bonus
    return HandResult(deal.number, kind, scores, winner, deal.dealer, details)
