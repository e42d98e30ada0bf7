"""Drawing from deep in a fanned pile, and using the card at once (``draw.from_pile: any`` and
``draw.must_use: deepest``, 500 Rum).

With ``draw.from_pile: any`` a player may take any card of the discard pile together with every card above
it (``draw discard 7H``: the 7H and all above). When the same card lies higher in the pile too (two decks),
that short text means the higher copy, and taking from the lower copy names every card taken, deepest first
(``draw discard 7H 4S 7H 2C``). The hand does not end by itself when the stock runs out: a player to draw
from an empty stock may take from the pile or end the hand (``end``, scored as ``exhausted``).

With ``draw.must_use: deepest`` the deepest card taken must be used at once: only a card that can be
melded (with cards from hand and the cards above it) or laid off may be taken, and until it is melded or
laid off nothing else may be done (the ``use`` phase). With ``from_pile: top`` this rule applies to the one
card taken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import standard
from ..actions import Action, ActionWords, OneCardActions, PositionWords, Verb
from ..cards import Card
from ..engine import Deal
from ..hookspecs import hookimpl
from ..melds import Meld, MeldSearch
from ..ruleset import Problem, clash
from ..settings import KernelSettings
from ..toolkit import cards_from_hand, layoff_targets, meld_action

if TYPE_CHECKING:
    from ..variant import Variant

SELECTED_BY = "draw.from_pile: any, or draw.must_use: deepest"
"""The ruleset values that bring this mechanic into a game."""


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """``draw.must_use: deepest`` needs a pile drawn from its top or anywhere, and melds on the table (the card
    taken is melded or laid off there at once); ``from_pile: any`` a pile whose cards are seen."""
    problems = []
    if kernel.must_use == "deepest" and kernel.draw_from_pile not in ("top", "any"):
        message = f"must_use: deepest goes with from_pile: top or any, not {kernel.draw_from_pile!r}"
        problems.append(clash(locate, ("draw", "must_use"), message, ("draw", "from_pile")))
    elif kernel.must_use == "deepest" and not kernel.melds_on_table:
        message = "must_use: deepest is for games that meld on the table (table.melds: true)"
        problems.append(clash(locate, ("draw", "must_use"), message, ("table", "melds")))
    if kernel.draw_from_pile == "any" and kernel.discard_pile == "squared":
        # (its cards below the top would be named by the actions listed, to a player who cannot see them)
        message = "from_pile: any takes cards from deep in the pile, which a squared pile hides: expected fanned"
        problems.append(clash(locate, ("draw", "from_pile"), message, ("discard_pile",)))
    return problems


USE = "use"
"""The phase after a pick-up under ``draw.must_use: deepest``."""
END = Action("end")
"""With ``draw.from_pile: any`` and an empty stock: do not take from the pile, and end the hand."""
PILE_DRAWS = OneCardActions("draw discard")
"""``draw discard C``: the card ``C`` and every card above it (shared, as the discards are)."""


def _must_use(deal: Deal) -> bool:
    return deal.variant.must_use == "deepest"


def _any(deal: Deal) -> bool:
    return deal.variant.draw_from_pile == "any"


def draw_discard_now(deal: Deal) -> str | None:
    """``draw discard`` under this mechanic: as in the plain turn, and under ``draw.must_use: deepest`` with
    ``from_pile: top`` only a top card that can be used at once (with ``any``, which cards may be taken is
    the cards' check, :func:`draw_discard_problem`)."""
    reason = standard.draw_discard_now(deal)
    if reason is None and _must_use(deal) and not _any(deal):
        if not can_use(deal, deal.current, deal.discard[-1], deal.hands[deal.current]):
            return NOT_USABLE
    return reason


NOT_USABLE = (
    "no card of the pile can be melded or laid off at once with your hand and the table, as a card taken from "
    "the pile must be"
)


def draw_discard_problem(deal: Deal, action: Action) -> str | None:
    """The cards a ``draw discard`` names: with ``draw.from_pile: any``, a card of the pile (the highest copy)
    or every card from one to the top, deepest first, not face down; with ``top``, none. Under
    ``draw.must_use: deepest`` the deepest card taken must be usable at once; a bare one then takes the one
    card that may be taken."""
    if not action.cards:
        draws = [a for a in deal.legal_actions() if a.kind == "draw discard"]
        if _must_use(deal) and not draws:
            return NOT_USABLE
        if len(draws) > 1:
            return "name the deepest card you take"
        return standard.names_nothing(deal, action)
    if not _any(deal):
        return standard.top_card_only(deal, action)
    reason = standard.pile_cards(deal, action)
    if reason is not None:
        return reason
    if action.target is not None or action.groups or action.stands_for:
        return standard.NOTHING_TO_ADD
    pile = deal.discard
    card = action.cards[0]
    if len(action.cards) > 1:
        depth = len(pile) - len(action.cards)
        if depth < 0 or [c.face for c in pile[depth:]] != [c.face for c in action.cards]:
            return f"{action.cards_text()} are not the pile's cards from {card} to its top"
    else:
        depth = max(i for i, c in enumerate(pile) if c.face == card.face)
    if pile[depth].id in deal.face_down:
        return f"{card} lies face down"
    if not _must_use(deal):
        return None
    hand = deal.hands[deal.current]
    uses = _uses(deal, deal.current)
    if _usable(deal, uses, pile[depth], hand, pile[depth + 1 :]):
        return None
    if uses.usable(pile[depth], hand, pile[depth + 1 :]):
        return (
            f"{card} would have to be used at once, and every way to use it would leave no card to discard: "
            f"{standard.KEEP_A_DISCARD}"
        )
    return (
        f"{card} would have to be melded or laid off at once, and it fits no meld with your hand and the cards "
        f"above it, nor any meld on the table"
    )


def end_now(deal: Deal) -> str | None:
    """``end``: under ``draw.from_pile: any``, at the draw, when the stock is empty."""
    if not _any(deal) or deal.phase != "draw":
        return standard.NO_REASON
    return "the hand may be ended only when the stock is empty" if deal.stock else None


def first_use(deal: Deal) -> str:
    """What the ``use`` phase says of anything but a use of the card taken."""
    return (
        f"first use {deal.taken}, the deepest card you took from the pile: meld it or lay it off "
        f"(with other cards if you like)"
    )


def laying_now(deal: Deal) -> str | None:
    """``meld`` and ``layoff``: as in the plain turn, and in the ``use`` phase."""
    return None if deal.phase == USE else standard.laying_now(deal)


CardsCheck = Callable[[Deal, Action], "str | None"]


def _using(check: CardsCheck) -> CardsCheck:
    """``check`` (the plain turn's meld or lay-off check) outside the ``use`` phase; in it, the cards named
    must use the card taken first."""

    def problem(deal: Deal, action: Action) -> str | None:
        if deal.phase != USE:
            return check(deal, action)
        target = action.target
        if action.kind == "layoff" and target is not None and not 0 <= target < len(deal.table):
            return f"there is no table meld {target}"
        taken = deal.taken
        if taken is None or not any(c.face == taken.face for c in action.cards):
            return first_use(deal)
        reason = check(deal, action)
        return first_use(deal) if reason == standard.NOTHING_TO_ADD else reason

    problem.__doc__ = f"{check.__doc__} In the ``use`` phase, the cards named use the card taken."
    return problem


def _otherwise(deal: Deal, action: Action) -> str | None:
    if deal.phase == USE:
        return first_use(deal)
    return standard.MELD_RULE.otherwise(deal, action) if action.kind == "meld" else None


LEGALITY: dict[str, standard.Legality] = {
    "draw discard": standard.Legality(
        "draw discard", draw_discard_now, draw_discard_problem, "name the deepest card you take"
    ),
    "end": standard.Legality("end", end_now),
    "meld": standard.Legality("meld", laying_now, _using(standard.meld_problem), "name its cards", True, _otherwise),
    "layoff": standard.Legality(
        "layoff", laying_now, _using(standard.layoff_problem), "name the card and the table meld", True, _otherwise
    ),
}
"""This mechanic's verbs, and the plain turn's it changes, each with its one check."""


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    phase = deal.phase
    if phase == "draw":
        if standard.DRAW_DISCARD in actions:
            if draw_discard_now(deal) is not None:
                actions.remove(standard.DRAW_DISCARD)
            elif _any(deal):
                standard.replace_kind(actions, "draw discard", pile_draws(deal))
        if end_now(deal) is None:
            actions.append(END)
    elif phase == USE:
        assert deal.taken is not None
        others = [c for c in deal.hands[deal.current] if c is not deal.taken]
        actions.extend(use_actions(deal, deal.current, deal.taken, others, standard.MELD_ACTION_LIMIT))


def pile_draws(deal: Deal) -> list[Action]:
    """``draw discard`` actions, deepest card first (under ``must_use: deepest`` only those whose deepest card
    can be used at once)."""
    pile = deal.discard
    hand = deal.hands[deal.current]
    must_use = _must_use(deal)
    search = deal.variant.meld_search
    # The hand and the cards above as counts per face, kept up to date down the pile (can_use's can_meld).
    counts: list[int] | None = None
    if must_use and not search.rules.wild_faces and not search.rules.specials and search.accept is None:
        counts = [0] * 53
        for held in hand:
            counts[held.face] += 1
    uses = _uses(deal, deal.current) if must_use else None
    usable: Callable[[Card, Sequence[Card], Sequence[Card], Sequence[int] | None], bool] | None = None
    if uses is not None:  # (asked of every card in the pile: the house rule's exact check only where it is in force)
        usable = uses.usable if deal.variant.discard_to_go_out != "required" else partial(_usable, deal, uses)
    result = []
    faces_above: set[int] = set()
    cards_above: list[Card] = []
    for depth in range(len(pile) - 1, -1, -1):
        card = pile[depth]
        if card.id not in deal.face_down and (usable is None or usable(card, hand, cards_above, counts)):
            if card.face in faces_above:
                result.append(Action("draw discard", tuple(pile[depth:])))
            else:
                result.append(PILE_DRAWS[card])
        faces_above.add(card.face)
        cards_above.append(card)
        if counts is not None:
            counts[card.face] += 1
    result.reverse()
    return result


def can_use(deal: Deal, seat: int, card: Card, others: Sequence[Card], counts: Sequence[int] | None = None) -> bool:
    """Whether ``seat`` could meld ``card`` (with cards from ``others``) or lay it off at once. ``counts``, when
    given, are ``others`` counted per face (see :meth:`MeldSearch.can_meld_counts`), which is quicker."""
    return _usable(deal, _uses(deal, seat), card, others, (), counts, seat)


def _usable(
    deal: Deal,
    uses: _Uses,
    card: Card,
    hand: Sequence[Card],
    more: Sequence[Card],
    counts: Sequence[int] | None = None,
    seat: int | None = None,
) -> bool:
    """Whether ``card``, taken with ``more`` (the cards above it), can be used at once, by :meth:`_Uses.usable`;
    under ``table.discard_to_go_out: required`` only by a use that leaves a card in hand to discard (the
    listing leaves out those that do not, :func:`~rummykit.standard.keep_a_discard`)."""
    if not uses.usable(card, hand, more, counts):
        return False
    if deal.variant.discard_to_go_out != "required":
        return True
    others = [*hand, *more]
    # Rare (a house rule), so exact: every use of the card, and the cards each would leave.
    uses_of = use_actions(deal, deal.current if seat is None else seat, card, others)
    return any(len(action.cards) <= len(others) for action in uses_of)


_LAST_USES: list[tuple[tuple[int, ...], _Uses]] = []


def _uses(deal: Deal, seat: int) -> _Uses:
    """:class:`_Uses` for ``seat``, kept while the melds it may lay off on stay the same objects (a grown
    meld is a new object): the table changes far less often than a player draws."""
    search = deal.variant.meld_search
    targets = layoff_targets(deal, seat)
    key = (id(search), *(id(deal.table[index].meld) for index in targets))
    last = _LAST_USES[0] if _LAST_USES else None  # read once: another thread may replace it
    if last is not None and last[0] == key:
        return last[1]
    found = _Uses(deal, seat, targets)
    _LAST_USES[:] = [(key, found)]  # the melds and the search are kept in it: their ids are not reused meanwhile
    return found


class _Uses:
    """What :func:`can_use` needs to know of the table melds ``seat`` may lay off on, gathered once (the pile
    draws of ``draw.must_use: deepest`` ask it of every card in the pile)."""

    def __init__(self, deal: Deal, seat: int, targets: Sequence[int]):
        search = deal.variant.meld_search
        self.search = search
        self.melds = [deal.table[index].meld for index in targets]
        fits: set[int] = set()
        self.runs: dict[int | None, list[Meld]] = {}
        for meld in self.melds:
            fits |= search.layoff_faces(meld)
            if meld.kind == "run":
                self.runs.setdefault(meld.suit, []).append(meld)
        self.fits = fits
        """Faces of the cards (not wild) that some meld takes alone."""

    def usable(
        self, card: Card, hand: Sequence[Card], more: Sequence[Card], counts: Sequence[int] | None = None
    ) -> bool:
        """Whether ``card`` melds with cards of ``hand`` and ``more`` (the cards above it in the pile), or lays
        off; ``counts``, when given, are those cards counted per face."""
        search = self.search
        if search.is_wild(card):
            others = [*hand, *more]
            if any(layoff_with(search, meld, card, others) is not None for meld in self.melds):
                return True
        elif card.face in self.fits:
            return True
        else:  # layoff_with's other way: cards from ``others`` bridging to a run of the card's suit
            for meld in self.runs.get(card.suit, ()):
                if counts is not None and not _may_bridge(search, meld, card, counts):
                    continue
                if layoff_with(search, meld, card, [*hand, *more]) is not None:
                    return True
        if counts is not None:
            return search.can_meld_counts(card, counts)
        return search.can_meld(card, [*hand, *more])


def use_actions(deal: Deal, seat: int, card: Card, others: Sequence[Card], limit: int | None = None) -> list[Action]:
    """The melds (largest first, at most ``limit``) and lay-offs that use ``card`` with cards from ``others``."""
    search = deal.variant.meld_search
    actions = [
        meld_action(search, placed)
        for m in search.melds_containing(card, others, limit)
        for placed in (search.placements(m) if m.wilds else (m,))
    ]
    for index in layoff_targets(deal, seat):
        cards = layoff_with(search, deal.table[index].meld, card, others)
        if cards is not None:
            actions.append(Action("layoff", cards, index))
    return actions


def _may_bridge(search: MeldSearch, meld: Meld, card: Card, counts: Sequence[int]) -> bool:
    """Whether the cards counted in ``counts`` (per face) hold every position between ``meld``, a run, and
    ``card`` of its suit: :func:`layoff_with` can bridge the gap only then."""
    base = card.suit * 13 - 1
    # gap positions are 2..13, never an ace
    return any(all(counts[base + p] for p in gap) for gap in _run_gaps(search, meld, card))


def _run_gaps(search: MeldSearch, meld: Meld, card: Card) -> Iterator[range]:
    """For each place ``card`` may take beyond either end of the run ``meld`` (not next to it), the positions
    between: the cards a lay-off of ``card`` there needs as a bridge."""
    low, high = min(meld.ranks), max(meld.ranks)
    for pos in search.rules.positions(card.rank):
        if pos > high + 1:
            yield range(high + 1, pos)
        elif pos < low - 1:
            yield range(pos + 1, low)


def layoff_with(search: MeldSearch, meld: Meld, card: Card, others: Sequence[Card]) -> tuple[Card, ...] | None:
    """The fewest cards that lay ``card`` off on ``meld``: ``card`` alone, or for a run, ``card`` with the
    cards from ``others`` that bridge the gap between the run's end and it (``8H 9H`` on ``5H 6H 7H``)."""
    if search.lays_off(meld, card):
        return (card,)
    if meld.kind != "run" or card.suit != meld.suit or search.is_wild(card):
        return None
    by_rank: dict[int, Card] = {}
    for other in others:
        if other.suit == card.suit and other is not card and not search.is_wild(other):
            for pos in search.rules.positions(other.rank):
                by_rank.setdefault(pos, other)
    for gap in _run_gaps(search, meld, card):
        if all(r in by_rank for r in gap):
            bridge = [by_rank[r] for r in gap]
            cards = tuple(sorted(bridge + [card], key=lambda c: c.rank))
            if search.extend(meld, list(cards)) is not None:
                return cards
    return None


@hookimpl
def rummykit_check_action(deal: Deal, action: Action) -> Action | None:
    """A bare ``draw discard`` where only one card may be taken means that card; in the ``use`` phase a meld
    or lay-off its check (:data:`LEGALITY`) passes, naming the deepest card's face, uses that very card."""
    if action.kind == "draw discard" and not action.cards:
        if LEGALITY["draw discard"].problem(deal, action) is not None:
            return None
        draws = [a for a in deal.legal_actions() if a.kind == "draw discard"]
        return draws[0] if len(draws) == 1 else None
    if deal.phase != USE or action.kind not in ("meld", "layoff") or not action.cards:
        return None
    if LEGALITY[action.kind].problem(deal, action) is not None:
        return None
    cards = cards_from_hand(deal.hands[deal.current], action.cards)
    if cards is None:
        return None
    taken = deal.taken
    assert taken is not None
    if taken not in cards:
        twin = next(c for c in cards if c.face == taken.face)  # the check found one
        cards[cards.index(twin)] = taken
    return standard.checked_laid(deal, action, cards)


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase == USE and deal.taken is not None and action.kind not in LEGALITY:
        return standard.refusal(deal, action) or first_use(deal)
    return standard.refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    if kind == "draw discard" and _must_use(deal):
        standard.take_from_pile(deal, deal.current, action)
        deal.phase = USE
        return True
    if kind in ("meld", "layoff") and deal.phase == USE:
        deal.phase = "play"  # the card taken is used: the turn goes on as usual
        return standard.rummykit_apply_action(deal=deal, action=action)
    if kind == "end":
        deal.finish("exhausted")
        return True
    return None


@hookimpl
def rummykit_stock_exhausted(deal: Deal) -> str | None:
    """The stock is empty: play on, as the next player may take from the pile (or ``end`` the hand)."""
    return "" if _any(deal) else None


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    if action.kind == "end":
        return ActionWords("end the hand (the stock is empty)", "ends the hand (the stock is empty)")
    return None


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    phase = deal.phase
    if phase == "draw" and _any(deal) and deal.discard:
        draws = [a for a in deal.legal_actions() if a.kind == "draw discard"]
        if len(draws) > 1:
            words.hint = "draw a card (draw stock, or draw discard CARD: that card and every card above it)"
    elif phase == USE and deal.taken is not None:
        words.hint = f"meld or lay off {deal.taken} first, the deepest card you took"
    if _any(deal):
        words.verbs.append("end")


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """Drawing from the pile names the deepest card taken (``draw discard 7H``); ``end`` ends a hand
    whose stock is gone."""
    return [Verb("draw discard", frozenset({"bare", "card"})), Verb("end")]
