"""Taking the whole pile (``draw.from_pile: whole``, Fortune and Arlington).

Instead of drawing from the stock, a player may take the whole discard pile into hand. With
``draw.must_use: top`` the pile's top card must first go into a new meld with at least two cards from hand
(``take pile with 7S 7D``: the meld is laid, the rest of the pile goes into the hand), or, with
``draw.top_layoff``, be laid off on one of the taker's own table melds (``take pile on 2``); without it the
pile is simply taken (``take pile``). The top card is the card taken (``deal.taken``), and every player saw
the cards that came with it. A pile of one card melded with the last cards in hand takes the player out.

The ``take pile`` actions stand where the plain turn lists ``draw discard``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, ActionWords, PositionWords, Verb
from ..cards import Card
from ..engine import Deal
from ..hookspecs import hookimpl
from ..melds import Meld, MeldSearch
from ..ruleset import Problem, clash
from ..settings import KernelSettings
from ..toolkit import cards_from_hand, lay_meld, lay_off, layoff_targets, meld_action

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "draw.from_pile: whole"
"""The ruleset value that brings this mechanic into a game."""

SCHEMA: dict[str, dict[str, Any]] = {
    "draw": {
        "top_layoff": {
            "type": "boolean",
            "description": "with must_use: top, the top card may instead be laid off on one of the taker's own "
            "melds ('take pile on 2')",
        },
    },
}
"""The ruleset keys only this mechanic reads, by block: put into the ruleset's schema."""


@dataclass(frozen=True)
class Settings:
    """The ruleset values only this mechanic reads, with their defaults."""

    top_layoff: bool = False
    """``draw.top_layoff``: with ``must_use: top``, the top card may instead be laid off on one of the taker's
    melds."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Settings:
        """The values of a merged ruleset (the defaults above where it leaves them out)."""
        return cls(top_layoff=bool(data.get("draw", {}).get("top_layoff", cls.top_layoff)))


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """``draw.must_use: top`` and ``draw.top_layoff`` belong to the whole-pile take."""
    problems = []
    if kernel.must_use == "top" and kernel.draw_from_pile != "whole":
        message = f"must_use: top goes with from_pile: whole, not {kernel.draw_from_pile!r}"
        problems.append(clash(locate, ("draw", "must_use"), message, ("draw", "from_pile")))
    top_layoff = Settings.read(data or kernel.ruleset).top_layoff
    if top_layoff and kernel.must_use != "top":
        message = "top_layoff goes with must_use: top"
        problems.append(clash(locate, ("draw", "top_layoff"), message, ("draw", "must_use")))
    elif top_layoff and kernel.layoff_mode == "none":
        message = "top_layoff lays the top card off, and table.layoff is none"
        problems.append(clash(locate, ("draw", "top_layoff"), message, ("table", "layoff")))
    if kernel.must_use == "top" and not kernel.melds_on_table:
        message = "must_use: top is for games that meld on the table (table.melds: true)"
        problems.append(clash(locate, ("draw", "must_use"), message, ("table", "melds")))
    return problems


TAKE_PILE = Action("take pile")
TAKE_PILE_WITH = "take pile with"
TAKES = ("take pile", TAKE_PILE_WITH)


def pile_takes(deal: Deal) -> list[Action]:
    """Ways to take the whole pile. With ``draw.must_use: top`` its top card must first go into a new meld with
    at least two cards from hand (``take pile with 7S 7D``), or, with ``draw.top_layoff``, onto one of the
    taker's table melds (``take pile on 2``); otherwise ``take pile``. Actions name the cards from hand; a
    wild top card stands where it first fits."""
    variant = deal.variant
    if variant.must_use != "top":
        return [TAKE_PILE]
    top = deal.discard[-1]
    seat = deal.current
    hand = deal.hands[seat]
    search = variant.meld_search
    top_wild = search.is_wild(top)
    result: list[Action] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for meld in search.melds_containing(top, hand, standard.MELD_ACTION_LIMIT):
        for placed in (meld,) if top_wild or not meld.wilds else search.placements(meld):
            action = pile_take(search, placed, top)
            if len(action.cards) < 2:
                continue
            # once per text (another copy of a card reads the same): its faces and what its wild cards stand for
            meant = tuple([-1 if m is None else m.face for m in action.stands_for])
            key = (tuple([c.face for c in action.cards]), meant)
            if key not in seen:
                seen.add(key)
                result.append(action)
    if variant.mechanic_settings[__name__].top_layoff:
        for index in layoff_targets(deal, seat):
            if search.lays_off(deal.table[index].meld, top):
                result.append(Action("take pile", (), index))
    return result


def pile_take(search: MeldSearch, meld: Meld, top: Card) -> Action:
    """``take pile with`` the cards of ``meld`` from hand (all but the pile's ``top`` card), naming what their
    wild cards stand for; a wild top card stands where it first fits, so then nothing is named."""
    if not meld.wilds or meld.kind not in ("set", "run"):  # nothing to name: the meld's cards as they are
        return Action(TAKE_PILE_WITH, tuple([c for c in meld.cards if c is not top]))
    laid = meld_action(search, meld)
    keep = [i for i, c in enumerate(laid.cards) if c is not top]
    named = tuple(laid.stands_for[i] for i in keep) if laid.stands_for and not search.is_wild(top) else ()
    return Action(TAKE_PILE_WITH, tuple(laid.cards[i] for i in keep), stands_for=named)


_pile_take = pile_take  # the name the RL encoder used


def take_now(deal: Deal) -> str | None:
    """``take pile`` and ``take pile with``: at the turn's draw, when the pile's top card is face up."""
    if deal.phase != "draw":
        return standard.DRAWN
    if not deal.discard or deal.discard[-1].id in deal.face_down or deal.variant.discard_pile == "none":
        return "there is no pile to take"
    return None


def take_with_now(deal: Deal) -> str | None:
    """``take pile with``: as :func:`take_now`, in a game whose pile's top card is melded to take it
    (``draw.must_use: top``)."""
    reason = take_now(deal)
    if reason is None and deal.variant.must_use != "top":
        return standard.NO_REASON
    return reason


def take_with_problem(deal: Deal, action: Action) -> str | None:
    """The ``take pile with`` verb's one check: None when the pile's top card melds with the cards ``action``
    names from hand (two at least) and the pile may be taken, else why not. Listed takes pass it; typed ones
    are accepted by it and refused in its words."""
    reason = take_with_now(deal)
    return reason if reason is not None else take_with_cards(deal, action)


def take_with_cards(deal: Deal, action: Action) -> str | None:
    """The cards a ``take pile with`` names: from hand, two at least, melding with the pile's top card."""
    top = deal.discard[-1]
    missing = [c for c in action.cards if c.face not in {h.face for h in deal.hands[deal.current]}]
    if missing:
        return f"{' '.join(map(str, missing))} is not in your hand"
    if len(action.cards) < 2:
        return f"the top card, {top}, must be melded with at least two cards from your hand"
    cards = cards_from_hand(deal.hands[deal.current], action.cards)
    if cards is None or action.groups or action.target is not None:
        return _no_meld(deal, action)
    meant = list(action.stands_for) + [None] if action.stands_for else None
    if deal.variant.meld_search.meld(cards + [top], stands_for=meant) is None:
        return _no_meld(deal, action)
    return None


def _no_meld(deal: Deal, action: Action) -> str:
    return f"{' '.join(map(str, action.cards))} and the top card, {deal.discard[-1]}, make no valid meld"


def take_cards(deal: Deal, action: Action) -> str | None:
    """A ``take pile`` names no card; it names a table meld only under ``draw.top_layoff``, one of the taker's
    that the top card goes on. A bare one, where the top card must be melded first, says how."""
    top = deal.discard[-1]
    if action.cards or action.groups or action.stands_for:
        return standard.names_nothing(deal, action)
    target = action.target
    if target is not None:
        if not deal.variant.mechanic_settings[__name__].top_layoff:
            return standard.names_nothing(deal, action)
        if not 0 <= target < len(deal.table):
            return f"there is no table meld {target}"
        meld = deal.table[target].meld
        if target not in layoff_targets(deal, deal.current) or not deal.variant.meld_search.lays_off(meld, top):
            return f"the top card, {top}, does not go on table meld {target} ({meld}) of yours"
        return None
    if deal.variant.must_use != "top":
        return None
    takes = [a for a in deal.legal_actions() if a.kind in TAKES]
    if takes:
        return f"first meld the top card, {top}, with cards from your hand, as in '{takes[0]}'"
    return f"the pile's top card, {top}, makes no meld with your cards, so the pile cannot be taken now"


def draw_discard_now(deal: Deal) -> str | None:
    """``draw discard`` is never legal here: the pile is taken whole."""
    reason = standard.draw_discard_now(deal)
    if reason is not None:
        return reason
    if deal.variant.must_use == "top":
        return "in this game the whole pile is taken, its top card melded first: 'take pile with ...'"
    return "in this game the whole pile is taken: 'take pile'"


LEGALITY: dict[str, standard.Legality] = {
    "take pile": standard.Legality("take pile", take_now, take_cards),
    TAKE_PILE_WITH: standard.Legality(TAKE_PILE_WITH, take_with_now, take_with_cards, otherwise=_no_meld),
    "draw discard": standard.Legality("draw discard", draw_discard_now),
}
"""This mechanic's verbs, and the plain turn's it replaces, each with its one check."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    # take_now first: it is cheap, and after the draw the list is long (every meld, lay-off and discard).
    if take_now(deal) is None and standard.DRAW_DISCARD in actions:
        standard.replace_kind(actions, "draw discard", pile_takes(deal))


@hookimpl
def rummykit_check_action(deal: Deal, action: Action) -> Action | None:
    """Accept ``take pile with C1 C2 ...`` when its check, :func:`take_with_problem`, finds nothing (the listed
    takes are capped)."""
    if action.kind != TAKE_PILE_WITH or take_with_problem(deal, action) is not None:
        return None
    search = deal.variant.meld_search
    top = deal.discard[-1]
    cards = cards_from_hand(deal.hands[deal.current], action.cards)
    assert cards is not None  # take_with_problem found them in hand
    meant = list(action.stands_for) + [None] if action.stands_for else None
    meld = search.meld(cards + [top], stands_for=meant)
    return None if meld is None else pile_take(search, meld, top)


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if action.kind not in LEGALITY:
        return None
    return standard.refuse(LEGALITY, deal, action) or standard.NOTHING_TO_ADD


def why_not_take_pile(deal: Deal, action: Action) -> str | None:
    """Why ``take pile`` (``with`` cards, or ``on`` a meld) is refused now, or None to say nothing special."""
    return standard.refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    if action.kind not in TAKES:
        return None
    seat = deal.current
    hand = deal.hands[seat]
    top = deal.discard.pop()
    if action.kind == TAKE_PILE_WITH:
        meant = list(action.stands_for) + [None] if action.stands_for else None
        meld = deal.variant.meld_search.meld(list(action.cards) + [top], stands_for=meant)
        assert meld is not None
        hand.append(top)
        lay_meld(deal, seat, meld)
    elif action.target is not None:
        hand.append(top)
        lay_off(deal, seat, action.target, (top,))
    else:
        deal.discard.append(top)
    rest = deal.discard[:]
    deal.discard.clear()
    hand.extend(rest)
    deal.known[seat].update(c.id for c in rest)
    deal.taken = top
    deal.phase = standard.after_draw(deal)
    standard.check_out(deal, seat)  # a pile of one card taken with the last cards in hand: every card is melded
    return True


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    if kind not in TAKES:
        return None
    top = deal.taken or (deal.discard[-1] if deal.discard else None)
    what = " the discard pile"
    if kind == TAKE_PILE_WITH:
        what += f", melding its top card {top} with {standard.laid_text(action)}"
    elif action.target is not None:
        what += f", laying its top card {top} off on meld {action.target}{standard.now_text(deal, action.target)}"
    return ActionWords("take" + what, "takes" + what)


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if deal.phase == "draw":
        words.hint = "draw a card (draw stock)"
        takes = [a for a in deal.legal_actions() if a.kind in TAKES]
        if takes:
            top = "meld its top card first: take pile with ..." if deal.variant.must_use == "top" else "take pile"
            words.hint += f", or take the whole pile ({top})"
        elif deal.discard:
            words.hint += "; the pile cannot be taken now"
    words.verbs += ["take pile", TAKE_PILE_WITH]


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """Taking the whole pile (``take pile``; onto a table meld, ``take pile on 2``, where its top card may
    be laid off) and taking it with a meld of its top card (``take pile with 7H 7S 7D``)."""
    shapes = frozenset({"bare", "on meld"}) if variant.mechanic_settings[__name__].top_layoff else frozenset({"bare"})
    return [Verb("take pile", shapes, short="t"), Verb(TAKE_PILE_WITH, frozenset({"melds"}))]
