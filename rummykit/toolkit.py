"""The plugin toolkit: what a game's plugin needs to move cards and count points without reaching into the
kernel's internals.

Every function here takes the :class:`~rummykit.engine.Deal` in progress (or the variant's
:class:`~rummykit.melds.MeldSearch`) and works for any ruleset: wild cards, several decks, partnerships.
The kernel's own turn (:mod:`rummykit.standard`) and the built-in mechanics (:mod:`rummykit.mechanics`) are
written with these same functions. ``docs/toolkit.md`` describes each, with the members of ``Deal`` a
plugin may read and change.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Card, card_from_face
from .engine import TableMeld
from .melds import Meld, MeldSearch

if TYPE_CHECKING:
    from .engine import Deal
    from .variant import Variant

__all__ = [
    "MeldedValue",
    "cards_from_hand",
    "cards_text",
    "distinct_cards",
    "hand_points",
    "lay_meld",
    "lay_off",
    "layoff_targets",
    "listed_meld",
    "meld_action",
    "rules_of",
    "table_points",
    "wild_layoffs",
]


# -- moving cards -------------------------------------------------------------------------------------


def lay_meld(deal: Deal, seat: int, meld: Meld) -> TableMeld:
    """Move ``meld``'s cards from ``seat``'s hand to a new table meld owned by ``seat``; return it.

    Every card is credited to ``seat`` (:func:`table_points` counts it for them)."""
    deal.take_from_hand(seat, meld.cards)
    table_meld = TableMeld(
        meld, seat, {c.id: seat for c in meld.cards}, len(meld.cards), frozenset(c.id for c in meld.cards)
    )
    deal.table.append(table_meld)
    return table_meld


def lay_off(
    deal: Deal, seat: int, target: int, cards: Sequence[Card], stands_for: Sequence[Card | None] | None = None
) -> None:
    """Add ``cards`` from ``seat``'s hand to table meld ``target`` (``stands_for``: what its wild cards stand
    for, one entry per card, ``None`` for a natural card). The cards are credited to ``seat``. The lay-off
    must be valid (``deal.variant.meld_search.extend`` accepts it)."""
    table_meld = deal.table[target]
    search = deal.variant.meld_search
    # Kept with the meld: a search bot's play-outs make the same lay-off again and again, and the grown meld,
    # one object then, keeps what the listing found of it (its lay-offs, its exchanges).
    kept = search.kept(table_meld.meld)
    key = ("grown", tuple(cards), tuple(stands_for) if stands_for else ())
    grown = kept.get(key)
    if grown is None:
        grown = kept[key] = search.extend(table_meld.meld, cards, stands_for)
    assert grown is not None
    deal.take_from_hand(seat, cards)
    table_meld.meld = grown
    for card in cards:
        table_meld.credits[card.id] = seat


# -- choosing cards ----------------------------------------------------------------------------------


def cards_from_hand(hand: Sequence[Card], wanted: Sequence[Card]) -> list[Card] | None:
    """The cards of ``hand`` that ``wanted`` names (by face, so any copy), or None if some are missing.

    A typed action names cards by face (``7H``); with two decks this picks the very cards to move."""
    free = list(hand)
    chosen = []
    for card in wanted:
        match = card if card in free else next((c for c in free if c.face == card.face), None)
        if match is None:
            return None
        free.remove(match)
        chosen.append(match)
    return chosen


def distinct_cards(deal: Deal, hand: list[Card]) -> list[Card]:
    """One card of each face in ``hand`` (two copies of 7H are one choice): list one action per face."""
    if not deal.game.has_duplicates:
        return hand
    return list({c.face: c for c in hand}.values())


def layoff_targets(deal: Deal, seat: int) -> list[int]:
    """Indexes of the table melds ``seat`` may lay off on, by the ruleset's ``table.layoff`` (``any``: every
    meld; ``own``: those of ``seat``'s side; ``none``: none)."""
    mode = deal.variant.layoff_mode
    if mode == "none":
        return []
    if mode == "any":
        return list(range(len(deal.table)))
    side_of = deal.variant.side_of  # what Game.side_of asks, without a call between: once per table meld
    side = side_of(seat)
    return [i for i, tm in enumerate(deal.table) if side_of(tm.owner) == side]


# -- building actions ---------------------------------------------------------------------------------

_MELD_ACTIONS: dict[int, tuple[Meld, Action]] = {}
_LISTED_MELDS: dict[int, tuple[Action, Meld]] = {}
"""The meld each action of :data:`_MELD_ACTIONS` lays (it is the meld ``search.meld`` makes of its cards)."""


def meld_action(search: MeldSearch, meld: Meld, kind: str = "meld") -> Action:
    """The action that lays ``meld`` as it stands: each wild card in a set or run names the card it stands for
    (``meld 5H 6H 2C=7H``), so that the action says exactly which meld it makes. ``kind`` names another verb
    that lays a meld (Skarney's ``contract``)."""
    if not meld.wilds or meld.kind not in ("set", "run"):
        if kind == "meld":  # one action per meld object (the meld tables share theirs between hands)
            known = _MELD_ACTIONS.get(id(meld))
            if known is not None and known[0] is meld:
                return known[1]
            action = Action(kind, meld.cards)
            if len(_MELD_ACTIONS) > 4096:
                _MELD_ACTIONS.clear()
                _LISTED_MELDS.clear()
            _MELD_ACTIONS[id(meld)] = (meld, action)  # both are kept, so their ids are not reused meanwhile
            _LISTED_MELDS[id(action)] = (action, meld)
            return action
        return Action(kind, meld.cards)
    # A hand's melds with wild cards are the same objects turn after turn, until it changes: each keeps its
    # action with the meld search (whose rules say which cards are wild).
    kept = search.kept(meld) if kind == "meld" else None
    if kept is not None:
        laid: Action | None = kept.get("meld action")
        if laid is not None:
            return laid
    wild = search.rules.wild_faces
    meant = tuple([card_from_face(f) if c.face in wild else None for c, f in zip(meld.cards, meld.faces)])
    action = Action(kind, meld.cards, stands_for=meant)
    if kept is not None:
        kept["meld action"] = action
    return action


def listed_meld(action: Action) -> Meld | None:
    """The meld :func:`meld_action` made ``action`` from, when it did (so it need not be found again)."""
    listed = _LISTED_MELDS.get(id(action))
    return listed[1] if listed is not None and listed[0] is action else None


_WILD_LAYOFF_ACTIONS = "wild layoff actions"
"""The key, with the wild card's id and the table meld's index, of :func:`wild_layoffs`' answers kept with a
meld (:meth:`MeldSearch.kept <rummykit.melds.MeldSearch.kept>`): a listing reads them there directly."""


def wild_layoffs(search: MeldSearch, meld: Meld, card: Card, target: int) -> list[Action]:
    """Lay-offs of the wild ``card`` on ``meld`` (table meld ``target``), one per place it may stand (either
    end of a run), each naming the card it stands for (``layoff 2C=8H on 3``)."""
    # Kept with the meld: the table's melds and the hand's wild cards stay from turn to turn.
    kept = search.kept(meld)
    key = (_WILD_LAYOFF_ACTIONS, card.id, target)
    known: tuple[Action, ...] | None = kept.get(key)
    if known is None:
        faces = search.wild_layoff_faces(meld, card)
        if meld.kind in ("set", "run"):
            known = tuple([Action("layoff", (card,), target, stands_for=(card_from_face(face),)) for face in faces])
        else:
            known = tuple([Action("layoff", (card,), target) for _ in faces])
        kept[key] = known
    return list(known)


# -- counting ----------------------------------------------------------------------------------------

MeldedValue = Callable[[TableMeld, int], int]
"""The points the card at an index of a table meld scores (for games where a card's value on the table
depends on the meld, such as an ace high or low)."""


def table_points(deal: Deal, melded_value: MeldedValue | None = None) -> list[int]:
    """Per seat, the points of the table cards it played (credited to whoever laid each card), by the
    ruleset's ``meld_values`` (or ``card_values``), or by ``melded_value`` when given."""
    variant = deal.variant
    points = [0] * deal.game.num_players
    for table_meld in deal.table:
        for index, card in enumerate(table_meld.meld.cards):
            value = melded_value(table_meld, index) if melded_value is not None else variant.meld_value(card)
            points[table_meld.credits.get(card.id, table_meld.owner)] += value
    return points


def hand_points(deal: Deal) -> list[int]:
    """Per seat, the value of the cards left in its hand (the ruleset's ``card_values``)."""
    variant = deal.variant
    points = [0] * deal.game.num_players
    for seat in deal.seats:
        points[seat] = sum(variant.value(c) for c in deal.hands[seat])
    return points


# -- words and rules ---------------------------------------------------------------------------------


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as a log shows them: ``7H 7S 7D``, or ``-`` for none."""
    return " ".join(str(c) for c in cards) or "-"


def rules_of(variant: Variant, key: str, default: Any = None) -> Any:
    """Deprecated: read the ``rules`` block once as a dataclass with :func:`rummykit.typed.rules_as`
    (``variant.rules_as(cls)``). The game's own value ``key`` from the ruleset's ``rules`` block (``default``
    when the ruleset and its house rules leave it out)."""
    warnings.warn(
        "rummykit.toolkit.rules_of is deprecated: declare the rules as a dataclass and read them once with "
        "variant.rules_as(cls) (rummykit.typed.rules_as)",
        DeprecationWarning,
        stacklevel=2,
    )
    return variant.rules.get(key, default)
