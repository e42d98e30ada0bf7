"""The kernel's own hook implementations: the plain rummy turn every game shares.

Registered first for every game, so every plugin overrides these. A turn is: draw (the stock's top card, or
the discard pile's top card unless the ruleset's ``draw.from_pile`` is ``none``), then, in games whose melds
go on the table (``table.melds``), any number of melds and lay-offs (on the melds ``table.layoff`` opens),
then a discard. A player whose hand empties goes out (unless ``table.discard_to_go_out: required``: then a
final discard is kept). A deal ends when a player goes out or the stock runs out, and each seat scores its
table cards less its cards in hand.

Phases: ``draw``; ``play`` (table games: melds, lay-offs, the discard); ``discard`` (games that keep their
melds in hand).

What only some games do (taking the whole pile, drawing from deep in a fanned pile, offering a card, passing
it face down, exchanging wild cards, making the stock again) is not here: each is a plugin of its own in
:mod:`rummykit.mechanics`, registered after this one when the ruleset selects it. The functions a plugin
needs to move cards and count points are in :mod:`rummykit.toolkit` (also importable from here).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, ActionWords, OneCardActions, OneCardActionsOn, PositionWords, Verb
from .cards import Card, card_from_face
from .engine import Deal, Game, HandResult
from .hookspecs import hookimpl
from .melds import Meld
from .results import ResultWords, kernel_words
from .toolkit import (
    _WILD_LAYOFF_ACTIONS,
    MeldedValue,
    cards_from_hand,
    cards_text,
    distinct_cards,
    hand_points,
    lay_meld,
    lay_off,
    layoff_targets,
    listed_meld,
    meld_action,
    table_points,
    wild_layoffs,
)

if TYPE_CHECKING:
    from .variant import Variant

__all__ = [  # the toolkit's names stay importable from here, as plugins written before it import them
    "MELD_ACTION_LIMIT",
    "DRAW_STOCK",
    "DRAW_DISCARD",
    "END_TURN",
    "DISCARDS",
    "LEGALITY",
    "Legality",
    "NO_REASON",
    "names_nothing",
    "one_card",
    "any_cards",
    "any_time",
    "refuse",
    "MeldedValue",
    "cards_from_hand",
    "cards_text",
    "distinct_cards",
    "hand_points",
    "lay_meld",
    "lay_off",
    "layoff_targets",
    "meld_action",
    "table_points",
    "wild_layoffs",
]

MELD_ACTION_LIMIT = 60
"""At most this many ``meld`` actions are listed at once, largest first, so that legal_actions stays
bounded on a large hand; any valid meld is still accepted when named."""

DRAW_STOCK = Action("draw stock")
DRAW_DISCARD = Action("draw discard")
END_TURN = Action("end turn")
"""Ends a turn that ends without a discard (``turn.end: done``, or ``offer`` with one card left)."""
DISCARDS = OneCardActions("discard")
_LAYOFFS = OneCardActionsOn("layoff")
NOTHING_TO_ADD = "not a legal action now"
"""What a refusal says when no rule explains it further: an ``rummykit_explain_illegal`` answer that ends
the search for a reason (the engine says the same for no answer)."""


_MOVED: dict[str, tuple[str, Any]] = {}
"""Names of the mechanics that lived here, by name: (their module now, the object), filled in by
:mod:`rummykit.mechanics` when it is imported (it sits above this module). The old names keep working for
a release, with a DeprecationWarning."""


def __getattr__(name: str) -> Any:
    if name == "CARD_VERBS":
        warnings.warn(
            "rummykit.standard.CARD_VERBS is retired: each verb's Legality says what a bare one lacks (bare)",
            DeprecationWarning,
            stacklevel=2,
        )
        rules = {**LEGALITY, **_WORDS}
        return {verb: rule.bare for verb, rule in rules.items() if rule.bare}
    if name in _MOVED:
        module, found = _MOVED[name]
        warnings.warn(f"rummykit.standard.{name} moved to {module}.{name}", DeprecationWarning, stacklevel=2)
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- dealing and seats -------------------------------------------------------------------------------


@hookimpl
def rummykit_deal(deal: Deal, deck: list[Any]) -> bool:
    variant = deal.variant
    size = variant.hand_size(deal.game.num_players)
    for _ in range(size):
        for seat in _from_left_of_dealer(deal):
            deal.hands[seat].append(deck.pop())
    if variant.upcard and deck:
        deal.discard.append(deck.pop())
    deal.stock = deck
    return True


def _from_left_of_dealer(deal: Deal) -> list[int]:
    seats = []
    seat = deal.dealer
    for _ in deal.seats:
        seat = deal.next_seat(seat)
        seats.append(seat)
    return seats


@hookimpl
def rummykit_seats_in_play(game: Game, dealer: int) -> list[int]:
    return list(range(game.num_players))


# -- what is legal: each verb's check, stated once -------------------------------------------------------

NO_REASON = ""
"""A check's answer for "not now, and nothing particular to say": the verb is not listed, and a refusal lets
the next plugin (or the engine's ``not a legal action now``) say why."""


def names_nothing(deal: Deal, action: Action) -> str | None:
    """The cards check of a verb that names no card and no table meld (``draw stock``, ``end turn``)."""
    if action.cards or action.groups or action.stands_for:
        return f"'{action.kind}' names no card"
    return None if action.target is None else f"'{action.kind}' names no table meld"


def one_card(deal: Deal, action: Action) -> str | None:
    """The cards check of a verb that names one card of the hand and no table meld (``discard``)."""
    if len(action.cards) > 1 or action.groups or action.stands_for:
        return f"'{action.kind}' names one card"
    return None if action.target is None else f"'{action.kind}' names no table meld"


def any_cards(deal: Deal, action: Action) -> str | None:
    """A cards check with nothing to add: what the action names is left to the other checks (the kernel's)."""
    return None


def any_time(deal: Deal) -> str | None:
    """A ``now`` check with nothing to add: the verb is open whenever the other checks (the kernel's, the
    phase's) let it be."""
    return None


@dataclass(frozen=True, slots=True)
class Legality:
    """One verb's legality, stated once: the listing, the acceptance of a typed action and the refusal's
    reason all come from these checks.

    ``now(deal)`` says why the verb cannot be used in this position (None when it can): asked once per
    position before its actions are listed, never per card. ``cards(deal, action)`` says why the cards (and
    the table meld) ``action`` names cannot be (None when they can): asked of a typed action that the bounded
    list left out (which is then accepted) and when refusing one. A check answers :data:`NO_REASON` for "not
    now" when it has nothing particular to say.

    ``bare``, for a verb that names cards, is what an action naming none lacks (``name the card``): the
    refusal then shows one listed action of the verb. ``from_hand``: the cards named come from the actor's
    hand, and a card not there is the first thing said. ``otherwise`` words the refusal of an action both
    checks pass, which a game's own rule then refused (its ``rummykit_legal_actions`` removed it).
    ``instead``: the verb this one gives way to in this game (``offer`` for ``discard``), suggested when
    ``now`` refuses."""

    verb: str
    now: Callable[[Deal], str | None]
    cards: Callable[[Deal, Action], str | None] = names_nothing
    bare: str = ""
    from_hand: bool = False
    otherwise: Callable[[Deal, Action], str | None] = any_cards
    instead: str = ""

    def problem(self, deal: Deal, action: Action) -> str | None:
        """None when ``action`` (of this verb) is legal by this verb's rules, else why not (perhaps
        :data:`NO_REASON`): what accepts a typed action."""
        if self.from_hand:
            missing = not_in_hand(deal, action)
            if missing is not None:
                return missing
        reason = self.now(deal)
        return reason if reason is not None else self.cards(deal, action)

    def refusal(self, deal: Deal, action: Action) -> str | None:
        """Why ``action``, refused, is refused, from the same checks as :meth:`problem`; None when they have
        nothing particular to say (the next plugin is asked)."""
        if self.from_hand:
            missing = not_in_hand(deal, action)
            if missing is not None:
                return missing
        reason = self.now(deal)
        if reason is not None:
            if reason and self.instead:
                other = next((a for a in deal.legal_actions() if a.kind == self.instead), None)
                if other is not None:
                    shown = Action(self.instead, action.cards[:1]) if other.cards and action.cards else other
                    return f"{reason}: '{shown}'"
            return reason or None
        if not action.cards and self.bare:
            example = next((a for a in deal.legal_actions() if a.kind == self.verb and a.cards), None)
            if example is not None:  # the verb is legal now: only its cards are missing
                return f"{self.bare}, as in '{example}'"
        return self.cards(deal, action) or self.otherwise(deal, action) or None


def refuse(rules: Mapping[str, Legality], deal: Deal, action: Action) -> str | None:
    """Why ``action`` is refused, by its verb's :class:`Legality` in ``rules`` (None for another verb): the
    whole of a plugin's ``rummykit_explain_illegal`` for the verbs it states."""
    rule = rules.get(action.kind)
    return None if rule is None else rule.refusal(deal, action)


def not_in_hand(deal: Deal, action: Action) -> str | None:
    """``7H is not in your hand`` when ``action`` names cards the actor lacks."""
    faces = {c.face for c in deal.hands[deal.actor]}
    missing = [c for c in action.cards if c.face not in faces]
    return f"{' '.join(map(str, missing))} is not in your hand" if missing else None


def pile_open(deal: Deal) -> bool:
    """Whether the discard pile's top card may be drawn: there is one, face up, in a game that draws from
    its pile (``discard_pile`` and ``draw.from_pile`` not ``none``)."""
    variant = deal.variant
    return (
        bool(deal.discard)
        and deal.discard[-1].id not in deal.face_down
        and variant.discard_pile != "none"
        and variant.draw_from_pile != "none"
    )


DRAWN = "you have drawn already this turn"
AFTER_DRAW = "draw a card first: melds and lay-offs come after the draw"


def draw_stock_now(deal: Deal) -> str | None:
    """``draw stock``: at the turn's draw, from a stock that has a card."""
    if deal.phase != "draw":
        return DRAWN
    return None if deal.stock else "the stock is empty"


def draw_discard_now(deal: Deal) -> str | None:
    """``draw discard``: at the turn's draw, when the pile's top card is face up in a game that draws from
    its pile (:func:`pile_open`)."""
    if deal.phase != "draw":
        return DRAWN
    if pile_open(deal):
        return None
    variant = deal.variant
    if variant.discard_pile == "none" or variant.draw_from_pile == "none":
        return "in this game cards are drawn only from the stock"
    return "the discard pile is empty" if not deal.discard else "the pile's top card is face down"


def pile_cards(deal: Deal, action: Action) -> str | None:
    """The card a ``draw discard`` names lies in the pile."""
    if action.cards and action.cards[0].face not in {c.face for c in deal.discard}:
        return f"{action.cards[0]} is not in the discard pile"
    return None


def top_card_only(deal: Deal, action: Action) -> str | None:
    """The plain turn's ``draw discard`` names no card: it takes the pile's top card."""
    if action.cards:
        return pile_cards(deal, action) or "'draw discard' takes the pile's top card: name no card"
    return names_nothing(deal, action)


def discard_now(deal: Deal) -> str | None:
    """``discard``: after the draw, in the ``play`` or ``discard`` phase."""
    if deal.phase == "draw":
        return "draw a card first"
    return None if deal.phase in ("play", "discard") else NO_REASON


def laying_now(deal: Deal) -> str | None:
    """``meld`` and ``layoff``: after the draw, in the ``play`` phase of a game whose melds go on the table."""
    if deal.phase == "draw":
        return AFTER_DRAW
    return None if deal.phase == "play" and deal.variant.melds_on_table else NO_REASON


def meld_problem(deal: Deal, action: Action) -> str | None:
    """The ``meld`` verb's check of the melds ``action`` names: None when they are legal, else why not.
    Listed melds pass it, typed melds are accepted by it (:func:`checked_laid`) and refused in its words."""
    reason = not_in_hand(deal, action)
    if reason is not None:
        return reason
    if not action.cards:
        return "your hand makes no meld the rules allow now"
    search = deal.variant.meld_search
    for cards, meant in action.melds():
        if search.meld(cards, stands_for=meant if any(meant) else None) is None:
            return f"{' '.join(str(c) if m is None else f'{c}={m}' for c, m in zip(cards, meant))} is not a valid meld"
    if action.target is not None:
        return f"{action} is not one the rules allow now"
    return keeps_a_discard(deal, action)


KEEP_A_DISCARD = "in this game going out takes a final discard"
"""Why a meld, lay-off or swap that would empty the hand is refused under ``table.discard_to_go_out: required``."""


def keeps_a_discard(deal: Deal, action: Action) -> str | None:
    """Under ``table.discard_to_go_out: required`` a meld, lay-off or swap may not use every card left in
    hand: going out takes a final discard (:func:`keep_a_discard` leaves such actions out of the list)."""
    if deal.variant.discard_to_go_out == "required" and len(action.cards) >= len(deal.hands[deal.actor]):
        return f"keep a card to discard: {KEEP_A_DISCARD}"
    return None


def layoff_problem(deal: Deal, action: Action) -> str | None:
    """The ``layoff`` verb's check of the cards and the table meld ``action`` names: None when the lay-off is
    legal, else why not. Listed lay-offs pass it, typed ones are accepted by it (:func:`checked_laid`) and
    refused in its words."""
    reason = not_in_hand(deal, action)
    if reason is not None:
        return reason
    target = action.target
    if not action.cards:
        if not layoff_targets(deal, deal.actor):
            return "there is no meld on the table you may lay off on yet"
        return "no card of your hand fits a table meld you may add to"
    if target is None:
        return NOTHING_TO_ADD
    if not 0 <= target < len(deal.table):
        return f"there is no table meld {target}"
    meld = deal.table[target].meld
    if target not in layoff_targets(deal, deal.actor):
        own = "your side's" if deal.variant.partnerships else "your own"
        return f"table meld {target} ({meld}) is not yours: in this game you add only to {own} melds"
    if deal.variant.meld_search.extend(meld, list(action.cards), action.stands_for or None) is None:
        return f"{action.cards_text()} does not fit table meld {target} ({meld})"
    if action.groups:  # one lay-off names one group of cards
        return NOTHING_TO_ADD
    return keeps_a_discard(deal, action)


def _not_allowed(deal: Deal, action: Action) -> str | None:
    return f"{action} is not one the rules allow now"


def _say_which_pile(deal: Deal) -> str | None:
    if deal.phase in ("play", "discard", "use"):
        return DRAWN  # no draw now: why, rather than which pile
    if deal.variant.discard_pile == "none" or deal.variant.draw_from_pile == "none":
        return "say 'draw stock' (this game draws only from the stock)"
    return "say which pile: 'draw stock' or 'draw discard'"


DRAW_STOCK_RULE = Legality("draw stock", draw_stock_now)
DRAW_DISCARD_RULE = Legality("draw discard", draw_discard_now, top_card_only)
MELD_RULE = Legality("meld", laying_now, meld_problem, "name its cards", True, _not_allowed)
LAYOFF_RULE = Legality("layoff", laying_now, layoff_problem, "name the card and the table meld", True)
DISCARD_RULE = Legality("discard", discard_now, one_card, "name the card", True)
LEGALITY: dict[str, Legality] = {
    rule.verb: rule for rule in (DRAW_STOCK_RULE, DRAW_DISCARD_RULE, MELD_RULE, LAYOFF_RULE, DISCARD_RULE)
}
"""The plain turn's verbs, each with its one check (:class:`Legality`)."""
_WORDS: dict[str, Legality] = {
    "draw": Legality("draw", _say_which_pile, any_cards),  # not a verb: what people type meaning one of the draws
}


# -- listing, accepting, refusing: each from the verbs' checks --------------------------------------


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    """The plain turn's actions, each verb's listed when its check (:data:`LEGALITY`) allows it now: the
    draws; then melds, lay-offs and the discards; in the order listed."""
    # Each check refuses every action in the other half of the turn (the draws after it, the rest before):
    # only the half of the phase is asked.
    if deal.phase == "draw":
        if draw_stock_now(deal) is None:
            actions.append(DRAW_STOCK)
        if draw_discard_now(deal) is None:
            actions.append(DRAW_DISCARD)
    else:
        hand = deal.hands[deal.current]
        choices = None  # the hand's distinct cards, found once for the lay-offs and the discards, when asked
        if laying_now(deal) is None:
            choices = distinct_cards(deal, hand)
            closed = closed_verbs(deal)
            laid = melds_and_layoffs(
                deal, hand, melds="meld" not in closed, layoffs="layoff" not in closed, choices=choices
            )
            actions.extend(laid)
        if discard_now(deal) is None:
            actions.extend([DISCARDS[card] for card in (distinct_cards(deal, hand) if choices is None else choices)])
    if deal.probe is not None:
        actions.append(deal.probe)


@hookimpl(specname="rummykit_legal_actions")
def keep_a_discard(deal: Deal, actions: list[Action]) -> None:
    """Under ``table.discard_to_go_out: required`` going out needs a final discard: a meld, lay-off or swap
    may not use every card left in hand (after every built-in mechanic has listed its own)."""
    if deal.variant.discard_to_go_out != "required":
        return
    size = len(deal.hands[deal.current])
    if deal.phase in ("play", "use"):
        actions[:] = [a for a in actions if a.kind not in ("meld", "layoff", "swap") or len(a.cards) < size]
    elif deal.phase == "draw":  # taking the pile melds its top card: the rest of the pile comes to hand
        kept = size + len(deal.discard) - 1
        actions[:] = [a for a in actions if a.kind != "take pile with" or len(a.cards) < kept]


_NOTHING_CLOSED: frozenset[str] = frozenset()


def closed_verbs(deal: Deal) -> set[str] | frozenset[str]:
    """The plain turn's verbs the game's plugins close in this position (:func:`rummykit_closed_verbs
    <rummykit.hookspecs.rummykit_closed_verbs>`): the kernel does not list them."""
    answers = deal.variant.hook.rummykit_closed_verbs(deal=deal)
    if not answers:
        return _NOTHING_CLOSED
    found: set[str] = set()
    for answer in answers:
        if answer:
            found.update(answer)
    return found


def melds_and_layoffs(
    deal: Deal, hand: list[Card], *, melds: bool = True, layoffs: bool = True, choices: list[Card] | None = None
) -> list[Action]:
    """The melds ``hand`` makes (largest first, at most :data:`MELD_ACTION_LIMIT`, a wild card once per
    place it may stand) and its lay-offs on the table melds the current seat may add to: every one passes
    :func:`meld_problem` or :func:`layoff_problem`. ``melds`` or ``layoffs`` False leaves that verb out.
    ``choices``: ``distinct_cards(deal, hand)``, when the caller has it already."""
    search = deal.variant.meld_search
    wild = search.rules.wild_faces
    actions = []
    if melds:
        for meld in search.candidate_melds(hand, limit=MELD_ACTION_LIMIT):
            for placed in search.placements(meld) if meld.wilds else (meld,):
                actions.append(meld_action(search, placed))
    if not layoffs:
        return actions
    if choices is None:
        choices = distinct_cards(deal, hand)
    targets = layoff_targets(deal, deal.current)
    if targets:
        faces = {card.face for card in choices}
        has_wild = not wild.isdisjoint(faces)
        table = deal.table
        melds_on = [table[index].meld for index in targets]
        # The faces each table meld takes, as extend(meld, [card]) answers (found once per meld object).
        fits_each = search.layoff_faces_each(melds_on)
        if not has_wild:
            for index, fits in zip(targets, fits_each):
                if not fits.isdisjoint(faces):
                    on = _LAYOFFS[index]
                    actions.extend([on[card] for card in choices if card.face in fits])
            return actions
        for index, meld, fits in zip(targets, melds_on, fits_each):
            on = _LAYOFFS[index]
            kept = search.kept(meld)  # a wild card's lay-offs, kept with the meld by wild_layoffs
            for card in choices:
                if card.face in wild:
                    known = kept.get((_WILD_LAYOFF_ACTIONS, card.id, index))
                    actions.extend(known if known is not None else wild_layoffs(search, meld, card, index))
                elif card.face in fits:
                    actions.append(on[card])
    return actions


def replace_kind(actions: list[Action], kind: str, new: Sequence[Action]) -> None:
    """Put ``new`` where the listed actions of ``kind`` are (they are listed together), or at the end: how a
    mechanic changes a verb of the plain turn (the whole pile for the top card, offers for discards)."""
    kinds = [a.kind for a in actions]  # (then list methods: the listing after a draw is long)
    if kind not in kinds:
        actions.extend(new)
        return
    at = kinds.index(kind)
    end = at + 1
    while end < len(kinds) and kinds[end] == kind:
        end += 1
    actions[at:end] = new


@hookimpl
def rummykit_check_action(deal: Deal, action: Action) -> Action | None:
    """Accept a meld or lay-off that ``legal_actions`` did not list (the listed melds are capped) when its
    verb's check (:data:`LEGALITY`) passes it."""
    if action.kind not in ("meld", "layoff") or not action.cards:
        return None
    if LEGALITY[action.kind].problem(deal, action) is not None:
        return None
    cards = cards_from_hand(deal.hands[deal.current], action.cards)
    return None if cards is None else checked_laid(deal, action, cards)


def checked_laid(deal: Deal, action: Action, cards: list[Card]) -> Action | None:
    """The meld or lay-off ``action`` names, laying ``cards`` (from hand), if the rules allow it (its verb's
    check, :func:`meld_problem` or :func:`layoff_problem`, finds nothing); else None."""
    check = meld_problem if action.kind == "meld" else layoff_problem
    if check(deal, action) is not None:
        return None
    search = deal.variant.meld_search
    meant = action.stands_for or None
    if action.kind == "meld":
        melds = []
        start = 0
        for size in action.groups or (len(cards),):
            group = cards[start : start + size]
            meld = search.meld(group, stands_for=meant[start : start + size] if meant else None)
            if meld is None:  # not met: meld_problem made these melds of the same faces
                return None
            melds.append(meld)
            start += size
        if len(melds) == 1:
            return meld_action(search, melds[0])
        laid = [meld_action(search, m) for m in melds]
        return Action(
            "meld",
            tuple(c for a in laid for c in a.cards),
            groups=tuple(len(a.cards) for a in laid),
            stands_for=tuple(m for a in laid for m in (a.stands_for or (None,) * len(a.cards)))
            if any(a.stands_for for a in laid)
            else (),
        )
    target = action.target
    assert target is not None
    grown = search.extend(deal.table[target].meld, cards, meant)
    if grown is None:  # not met: layoff_problem grew the meld with the same faces
        return None
    wild = search.rules.wild_faces
    if any(c.face in wild for c in cards) and grown.kind in ("set", "run"):
        faces = dict(zip((c.id for c in grown.cards), grown.faces))
        named = tuple(card_from_face(faces[c.id]) if c.face in wild else None for c in cards)
        return Action("layoff", tuple(cards), target, stands_for=named)
    return Action("layoff", tuple(cards), target)


# -- why an action is refused ------------------------------------------------------------------------


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return refusal(deal, action)


def refusal(deal: Deal, action: Action) -> str | None:
    """Why the plain turn refuses ``action`` now, from its verb's check (:data:`LEGALITY`), or None when it
    has nothing particular to say."""
    return refuse(LEGALITY, deal, action) or refuse(_WORDS, deal, action)


# -- carrying actions out ----------------------------------------------------------------------------


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    seat = deal.current
    if kind == "draw stock":
        draw_from_stock(deal, seat)
    elif kind == "draw discard":
        take_from_pile(deal, seat, action)
        deal.phase = after_draw(deal)
    elif kind == "meld":
        search = deal.variant.meld_search
        listed = listed_meld(action)
        if listed is not None:  # the very action meld_action made from this meld
            melds: list[Meld | None] = [listed]
        else:
            melds = [search.meld(cards, stands_for=meant) for cards, meant in action.melds()]
        for meld in melds:
            assert meld is not None
            lay_meld(deal, seat, meld)
        check_out(deal, seat)
    elif kind == "layoff":
        assert action.target is not None
        lay_off(deal, seat, action.target, action.cards, action.stands_for or None)
        check_out(deal, seat)
    elif kind == "discard":
        deal.take_from_hand(seat, action.cards)
        deal.discard.extend(action.cards)
        after_discard(deal, seat)
    elif kind == "end turn":
        deal.end_turn()
    else:
        return None
    return True


def draw_from_stock(deal: Deal, seat: int) -> None:
    """``seat`` draws the stock's top card (``deal.drawn``); the turn goes on to its next phase."""
    deal.drawn = deal.stock.pop()
    deal.hands[seat].append(deal.drawn)
    deal.phase = after_draw(deal)


def take_from_pile(deal: Deal, seat: int, action: Action) -> None:
    """``seat`` takes the pile's top card, or (``draw discard C``) the card ``C`` and every card above it;
    every player saw them (``deal.known``), and the deepest is ``deal.taken``."""
    if action.cards:
        depth = deal.discard.index(action.cards[0])
        taken = deal.discard[depth:]
        del deal.discard[depth:]
    else:
        taken = [deal.discard.pop()]
    deal.hands[seat].extend(taken)
    deal.known[seat].update(c.id for c in taken)
    deal.taken = taken[0]


def after_draw(deal: Deal) -> str:
    """The phase after the draw: ``play`` where melds go on the table, ``discard`` where they stay in hand."""
    return "play" if deal.variant.melds_on_table else "discard"


def after_discard(deal: Deal, seat: int) -> None:
    """End ``seat``'s turn after its discard, or the hand when that was its last card (in a table game)."""
    if not deal.hands[seat] and deal.variant.melds_on_table:
        deal.finish("out")
    else:
        deal.end_turn()


def check_out(deal: Deal, seat: int) -> None:
    """End the hand (``out``) when ``seat`` laid its last card, unless going out needs a final discard."""
    if deal.hands[seat]:
        return
    if deal.variant.discard_to_go_out != "required":
        deal.finish("out")


@hookimpl
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    if deal.stock:
        return
    ending = deal.variant.hook.rummykit_stock_exhausted(deal=deal)
    if ending:
        deal.finish(ending)


@hookimpl(trylast=True)
def rummykit_stock_exhausted(deal: Deal) -> str:
    """A turn ended with the stock empty: the hand ends (``exhausted``)."""
    return "exhausted"


# -- scoring and the game's end ----------------------------------------------------------------------


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult:
    """Default scoring: each seat scores the values of its table cards minus its cards in hand."""
    melded = table_points(deal)
    in_hand = hand_points(deal)
    scores = [m - h for m, h in zip(melded, in_hand)]
    winner = deal.current if kind == "out" else None
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer)


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int:
    return (result.dealer + 1) % game.num_players


@hookimpl
def rummykit_game_over(game: Game) -> bool:
    """Over after ``max_hands`` hands, or when a seat (a side with partners) has reached the target on
    hand points and leads alone; leaders tied at or above the target play another hand."""
    max_hands = game.variant.ruleset.get("max_hands")
    if max_hands is not None and len(game.results) >= max_hands:
        return True
    target = game.variant.ruleset.get("target")
    if target is None:
        return False
    totals = game.side_hand_totals()
    best = max(totals)
    return bool(best >= target and totals.count(best) == 1)


@hookimpl
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]]:
    return []


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    return None


# -- words for people and bots -------------------------------------------------------------------------

PHASE_HINTS = {
    "draw": "draw a card (draw stock, draw discard)",
    "discard": "discard a card",
}


def laid_text(action: Action) -> str:
    """The cards of a meld or lay-off as typed, without the verb: ``7H 7S 7D | 8C 8D 8S``, ``2C=8H``."""
    text = str(Action(action.kind, action.cards, None, action.groups, action.stands_for))
    return text[len(action.kind) + 1 :] or "-"


def now_text(deal: Deal, target: int | None) -> str:
    """`` (now 7H 8H 9H TH)``: table meld ``target`` as it lies now, for a log line about it."""
    if target is not None and 0 <= target < len(deal.table):
        return f" (now {deal.table[target]})"
    return ""


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    if kind == "draw stock":
        drawn = deal.drawn if deal.result is None else None
        return ActionWords(f"draw {drawn} from the stock" if drawn else "draw", "draws from the stock")
    if kind == "draw discard":
        if action.cards:
            what = f" the discard pile down to {action.cards[0]}"
        else:
            what = f" {deal.taken or 'the top card'} from the discard pile"
        return ActionWords("take" + what, "takes" + what)
    if kind == "discard":
        cards = cards_text(action.cards)
        return ActionWords(f"discard {cards}", f"discards {cards}")
    if kind == "meld":
        return ActionWords(f"meld {laid_text(action)}", f"melds {laid_text(action)}")
    if kind == "layoff":
        what = f" off {laid_text(action)} on meld {action.target}{now_text(deal, action.target)}"
        return ActionWords("lay" + what, "lays" + what)
    if kind == "end turn":
        return ActionWords("end the turn", "ends the turn")
    return None


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The plain turn's verbs: drawing from the stock or the pile, discarding, and in table games melding
    and laying off."""
    verbs = [Verb("draw stock", short="s"), Verb("draw discard", short="p")]
    verbs.append(Verb("discard", frozenset({"card"}), short="d"))
    if variant.melds_on_table:
        verbs += [Verb("meld", frozenset({"melds"}), short="m"), Verb("layoff", frozenset({"card on meld"}), short="l")]
    return verbs


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    variant = deal.variant
    phase = deal.phase
    words.hint = PHASE_HINTS.get(phase, phase)
    if phase == "draw":
        if variant.draw_from_pile == "none":
            words.hint = "draw a card (draw stock)"
        elif deal.discard and {a.kind for a in deal.legal_actions()} == {"draw stock"}:
            words.hint = "draw a card (draw stock; the pile cannot be taken now)"
    elif phase == "play":
        words.hint = "meld, lay off, or discard"
    verbs = ["draw stock", "draw discard", "discard"]
    if variant.melds_on_table:
        verbs += ["meld", "layoff"]
    words.verbs.extend(verbs)


@hookimpl(tryfirst=True)
def rummykit_describe_result(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    """What the kernel says of any hand (:func:`rummykit.results.kernel_words`); a game's plugin says more."""
    kernel_words(game, deal, result, words)
