"""Exchanging a wild card on the table (``table.exchange``, the Fortune family's joker rules and Skarney).

In the play phase a player may take a wild card off a table meld by putting in its place the natural card
it stands for (``swap 6H on 3``): in a run the wild card must stand for that very card; in a set, for a card
of its rank (one standing for the card's suit first). The wild card goes into the player's hand, seen by
everyone; the card put in scores for whoever laid the wild card. ``table.exchange`` says on whose melds:
``any``, ``own-side`` (the player's side's), ``opponents``, or ``layer`` (only a wild card the player laid);
``table.exchangeable`` says which wild cards may be exchanged (all by default). A set of wild cards alone is
never exchanged from.

The swaps are listed after the lay-offs, before the turn's endings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, ActionWords, OneCardActionsOn, PositionWords, Verb
from ..cards import JOKER_FACE, Card, card_from_face
from ..engine import Deal, TableMeld
from ..hookspecs import hookimpl
from ..melds import Meld, MeldSearch
from ..ruleset import Problem, clash
from ..settings import KernelSettings
from ..toolkit import cards_text, distinct_cards

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "table.exchange: any, own-side, opponents or layer"
"""The ruleset values that bring this mechanic into a game."""

SCHEMA: dict[str, dict[str, Any]] = {
    "table": {
        "exchangeable": {
            "type": "array",
            "items": {"$ref": "#/$defs/rank_or_card"},
            "uniqueItems": True,
            "maxItems": 71,
            "description": "which wild cards may be exchanged (ranks or cards, e.g. ['JK']); by default every "
            "wild card",
        },
    },
}
"""The ruleset keys only this mechanic reads, by block: put into the ruleset's schema."""

CARD_LISTS = (("table", "exchangeable"),)
"""This mechanic's keys that name ranks or cards: the kernel refuses one outside the pack."""


@dataclass(frozen=True)
class Settings:
    """The ruleset values only this mechanic reads, with their defaults."""

    exchangeable: tuple[str, ...] | None = None
    """``table.exchangeable``: the wild cards that may be exchanged, as ranks or cards (None: every wild
    card)."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Settings:
        """The values of a merged ruleset (the defaults above where it leaves them out)."""
        given = data.get("table", {}).get("exchangeable")
        return cls(exchangeable=None if given is None else tuple(given))


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """``table.exchangeable`` names wild cards, and goes with a ``table.exchange`` that allows swaps."""
    data = data or kernel.ruleset
    problems = []
    exchangeable = Settings.read(data).exchangeable or ()
    wild = set(data.get("melds", {}).get("wild", []))
    for index, item in enumerate(exchangeable):
        if item not in wild and not (item[-1:] in "CDHS" and item[:-1] in wild):
            problems.append(
                clash(
                    locate,
                    ("table", "exchangeable", index),
                    f"{item!r} is not wild: expected one of melds.wild",
                    ("melds", "wild"),
                )
            )
    if exchangeable and kernel.exchange == "none":
        message = "table.exchange is none: expected a mode that allows swaps"
        problems.append(clash(locate, ("table", "exchangeable"), message, ("table", "exchange")))
    if kernel.exchange != "none" and not wild:
        message = f"exchange: {kernel.exchange} swaps wild cards, and no card is wild (melds.wild)"
        problems.append(clash(locate, ("table", "exchange"), message, ("melds", "wild")))
    return problems


ENDINGS = ("discard", "offer", "end turn")
"""The verbs that end a turn: swaps are listed before them."""


def swaps(deal: Deal, seat: int) -> list[Action]:
    """Exchanges of a natural card from hand for a wild card on the table (``swap 6H on 3``), on the melds the
    ruleset's ``table.exchange`` opens to ``seat``."""
    targets = exchange_targets(deal, seat)
    if not targets:
        return []
    search = deal.variant.meld_search
    wild = search.rules.wild_faces
    # The hand's natural cards by face, with their places: the swaps of a meld are listed in hand order.
    placed = {c.face: (i, c) for i, c in enumerate(distinct_cards(deal, deal.hands[seat])) if c.face not in wild}
    result = []
    table = deal.table
    exchangeable = deal.variant.exchangeable
    by_meld = deal.variant.exchange != "layer"  # else who laid each wild card matters: exchanged() decides
    for index in targets:
        meld = table[index].meld
        kept = search.kept(meld)  # what _takers and exchanged keep with the meld, read here directly
        faces = kept.get("takers")
        takers = [placed[f] for f in (faces if faces is not None else _takers(search, meld)) if f in placed]
        if len(takers) > 1:
            takers.sort()  # places are unique: by place
        for _, card in takers:
            known = kept.get(("exchanged", card.id, exchangeable), _UNKNOWN) if by_meld else _UNKNOWN
            if (exchanged(deal, index, card) if known is _UNKNOWN else known) is not None:
                result.append(_SWAPS[index][card])
    return result


_UNKNOWN: Any = object()
"""Not yet worked out (None, no exchange, is an answer kept too)."""


_SWAPS = OneCardActionsOn("swap")
"""``swap C on N``, shared: listed at every turn."""


def _takers(search: MeldSearch, meld: Meld) -> frozenset[int]:
    """The natural faces that may take the place of a wild card of ``meld``: a card one stands for (in a set,
    any card of its rank). Kept with the meld (the table's melds stay from turn to turn)."""
    kept = search.kept(meld)
    faces: frozenset[int] | None = kept.get("takers")
    if faces is None:
        meant = {f for c, f in zip(meld.cards, meld.faces) if search.is_wild(c)}
        if meld.kind == "set":
            meant = {rank_face for f in meant if f < JOKER_FACE for rank_face in range(f % 13, 52, 13)}
        faces = kept["takers"] = frozenset(meant)
    return faces


def exchange_targets(deal: Deal, seat: int) -> list[int]:
    """Table melds holding a wild card that ``seat`` may exchange for, by the ruleset's ``table.exchange``:
    ``any``, ``own-side``, ``opponents``, or ``layer`` (only a wild card ``seat`` laid itself)."""
    variant = deal.variant
    mode = variant.exchange
    if mode == "none":
        return []
    side_of = variant.side_of
    side = side_of(seat)
    exchangeable = variant.exchangeable
    # A meld's wild cards are all exchangeable when every wild card is (the default): no card need be looked at.
    every_wild = exchangeable == variant.meld_search.rules.wild_faces
    result = []
    for i, tm in enumerate(deal.table):
        meld = tm.meld
        if not meld.wilds or meld.kind not in _EXCHANGED_FROM:
            continue
        if mode == "own-side" and side_of(tm.owner) != side:
            continue
        if mode == "opponents" and side_of(tm.owner) == side:
            continue
        if not every_wild and not any(c.face in exchangeable for c in meld.cards):
            continue
        if mode == "layer" and not any(
            c.face in exchangeable and tm.credits.get(c.id, tm.owner) == seat for c in meld.cards
        ):
            continue
        result.append(i)
    return result


_EXCHANGED_FROM = ("set", "run")
"""The kinds of meld a wild card is exchanged from (never a set of wild cards alone, nor a special meld)."""


def exchanged(deal: Deal, index: int, card: Card) -> tuple[Meld, Card] | None:
    """Table meld ``index`` with ``card`` in place of the wild card that stands for it, and that wild card; or
    None. In a run the wild must stand for ``card`` itself; in a set, for a card of its rank (one standing
    for ``card``'s suit first)."""
    table_meld = deal.table[index]
    if deal.variant.exchange == "layer":
        return _exchanged(deal, table_meld, card)
    meld = table_meld.meld
    search = deal.variant.meld_search
    # Whoever laid its wild cards, the answer is the meld's and the card's: kept with the meld (the swaps are
    # listed every turn, and a table meld stays the same object from turn to turn).
    answers = search.kept(meld)
    key = ("exchanged", card.id, deal.variant.exchangeable)
    if key in answers:
        known: tuple[Meld, Card] | None = answers[key]
        return known
    found = answers[key] = _exchanged(deal, table_meld, card)
    return found


def _exchanged(deal: Deal, table_meld: TableMeld, card: Card) -> tuple[Meld, Card] | None:
    """:func:`exchanged`, worked out."""
    meld = table_meld.meld
    search = deal.variant.meld_search
    layer_only = deal.variant.exchange == "layer"
    faces = meld.faces
    candidates = [
        i
        for i, c in enumerate(meld.cards)
        if c.face in deal.variant.exchangeable
        and (faces[i] == card.face or (meld.kind == "set" and faces[i] % 13 + 1 == card.rank))
        and (not layer_only or table_meld.credits.get(c.id, table_meld.owner) == deal.current)
    ]
    candidates.sort(key=lambda i: faces[i] != card.face)
    for i in candidates:
        swapped = _swapped(search, meld, i, card)
        if swapped is not None:
            return swapped, meld.cards[i]
    return None


def _swapped(search: MeldSearch, meld: Meld, i: int, card: Card) -> Meld | None:
    """``meld`` with ``card`` in place of its wild card at ``i``, the other wild cards standing where they
    stood; None if that is no meld of the same kind (a run: of the same ranks). Kept with the meld: the
    swaps are listed every turn, and a table meld stays the same object from turn to turn."""
    answers = search.kept(meld)
    key = ("swap", i, card.id)
    if key in answers:
        known: Meld | None = answers[key]
        return known
    cards = list(meld.cards)
    cards[i] = card
    # What each card stands for, worked out once per meld (its swaps are tried card by card).
    stand_ins: list[Card | None] | None = answers.get("stand-ins")
    if stand_ins is None:
        stand_ins = answers["stand-ins"] = [
            card_from_face(f) if search.is_wild(c) else None for c, f in zip(meld.cards, meld.faces)
        ]
    meant = list(stand_ins)
    meant[i] = card_from_face(meld.faces[i]) if search.is_wild(card) else None
    swapped = search.meld(cards, kind=meld.kind, stands_for=meant)
    if swapped is not None and meld.kind == "run" and swapped.ranks != meld.ranks:
        swapped = None
    answers[key] = swapped
    return swapped


def swap_now(deal: Deal) -> str | None:
    """``swap``: after the draw, in the ``play`` phase."""
    if deal.phase == "draw":
        return standard.AFTER_DRAW
    return None if deal.phase == "play" else standard.NO_REASON


def swap_problem(deal: Deal, action: Action) -> str | None:
    """The card a ``swap`` names, natural, takes the place of a wild card in the table meld it names, one the
    ruleset's ``table.exchange`` opens to the player. Listed swaps (:func:`swaps`) pass it."""
    target = action.target
    if len(action.cards) != 1 or target is None or action.groups:
        return standard.NOTHING_TO_ADD
    if not 0 <= target < len(deal.table):
        return f"there is no table meld {target}"
    card = action.cards[0]
    meld = deal.table[target].meld
    if deal.variant.meld_search.is_wild(card):
        return f"{card} is a wild card: a wild card on the table is exchanged for a natural card"
    if target not in exchange_targets(deal, deal.current):
        return f"table meld {target} ({meld}) holds no wild card you may exchange"
    held = next(c for c in deal.hands[deal.actor] if c.face == card.face)  # from_hand: it is there
    if exchanged(deal, target, held) is None:
        return f"{card} takes the place of no wild card in table meld {target} ({meld})"
    return standard.keeps_a_discard(deal, action)


LEGALITY: dict[str, standard.Legality] = {
    "swap": standard.Legality("swap", swap_now, swap_problem, "name the card and the table meld", True),
}
"""This mechanic's verb, with its one check."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if swap_now(deal) is not None:
        return
    found = swaps(deal, deal.current)
    if found:
        at = next((i for i, a in enumerate(actions) if a.kind in ENDINGS), len(actions))
        actions[at:at] = found


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return standard.refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    if action.kind != "swap":
        return None
    seat = deal.current
    assert action.target is not None
    found = exchanged(deal, action.target, action.cards[0])
    assert found is not None
    swapped, wild = found
    table_meld = deal.table[action.target]
    deal.take_from_hand(seat, action.cards)
    credit = table_meld.credits.pop(wild.id, table_meld.owner)
    table_meld.credits[action.cards[0].id] = credit
    if wild.id in table_meld.first_ids:
        table_meld.first_ids = (table_meld.first_ids - {wild.id}) | {action.cards[0].id}
    table_meld.meld = swapped
    deal.hands[seat].append(wild)
    deal.known[seat].add(wild.id)  # everyone saw it come off the table
    return True


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    if action.kind != "swap":
        return None
    what = f" {cards_text(action.cards)} for the wild card in meld {action.target}"
    what += standard.now_text(deal, action.target)
    return ActionWords("swap" + what, "swaps" + what)


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    words.verbs.append("swap")


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """A wild card on the table exchanged for the natural card it stands for: ``swap 7H on 2``."""
    return [Verb("swap", frozenset({"card on meld"}))]
