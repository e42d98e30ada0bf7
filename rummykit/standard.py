"""The kernel's own hook implementations: the standard rummy turn.

Registered first for every game, so every plugin overrides these. A turn is: draw (from the stock, or
from the discard pile as the ruleset's ``draw.from_pile`` allows), then, in games whose melds go on the
table, any number of melds and lay-offs, then a discard. A deal ends when a player goes out or the stock
runs out.

Phases: ``draw``; ``use`` (only with ``draw.must_use: deepest``, after a pick-up from the pile: the
deepest card taken must be melded or laid off before anything else); ``play`` (table games: melds,
lay-offs, the discard); ``discard`` (games that keep their melds in hand).

With ``draw.from_pile: any`` the hand does not end by itself when the stock runs out: a player to draw
from an empty stock may take from the pile or ``end`` the hand (kind ``exhausted``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .actions import Action, ActionWords, OneCardActions, PositionWords
from .cards import Card, card_from_face
from .engine import Deal, Game, HandResult, Offer, TableMeld
from .hookspecs import hookimpl
from .melds import Meld, MeldSearch

MELD_ACTION_LIMIT = 60
"""At most this many ``meld`` actions are listed at once, largest first, so that legal_actions stays
bounded on a large hand; any valid meld is still accepted when named."""

DRAW_STOCK = Action("draw stock")
DRAW_DISCARD = Action("draw discard")
TAKE_PILE = Action("take pile")
END = Action("end")
"""With ``draw.from_pile: any`` and an empty stock: do not take from the pile, and end the hand."""
END_TURN = Action("end turn")
"""Ends a turn that ends without a discard (``turn.end: done``, or ``offer`` with one card left)."""
ACCEPT = Action("accept")
DECLINE = Action("decline")
OFFERS = OneCardActions("offer")
USE = "use"
"""The phase after a pick-up under ``draw.must_use: deepest``."""
OFFERED = "offered"
"""The phase while a card is on offer (``turn.end: offer``): ``deal.responder`` accepts or declines."""
PASSED = "passed"
"""The zone of cards passed face down to a seat (``turn.discard_to: right|left``), hidden from all but the
passer (``deal.seen``) until the seat takes them up at the start of its turn."""
TAKE_UP = "take up"
"""The move the rules make at the start of a turn under ``turn.discard_to``: the cards passed to the seat
go into its hand (``auto: take up 8D`` in a record)."""


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


@hookimpl(tryfirst=True)
def rummykit_start_hand(deal: Deal) -> None:
    if deal.variant.discard_to != "pile":
        deal.add_zone(PASSED, visibility="hidden")


@hookimpl
def rummykit_automatic_action(deal: Deal) -> Action | None:
    """Under ``turn.discard_to``, a seat starting its turn first takes up the cards passed to it."""
    if deal.phase != "draw" or deal.variant.discard_to == "pile" or deal.responder is not None:
        return None
    passed = deal.zones[PASSED].cards[deal.current]
    return Action(TAKE_UP, tuple(passed)) if passed else None


def pass_receiver(deal: Deal, seat: int) -> int:
    """The seat ``seat``'s discard goes to under ``turn.discard_to``: the next seat (``left``), or the
    previous one (``right``)."""
    if deal.variant.discard_to == "left":
        return deal.next_seat(seat)
    other = deal.next_seat(seat)
    while deal.next_seat(other) != seat:
        other = deal.next_seat(other)
    return other


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    phase = deal.phase
    hand = deal.hands[deal.current]
    variant = deal.variant
    if phase == "draw":
        if deal.stock:
            actions.append(DRAW_STOCK)
        mode = variant.draw_from_pile
        if deal.discard and deal.discard[-1].id not in deal.face_down and variant.discard_pile != "none":
            if mode == "top":
                if variant.must_use != "deepest" or can_use(deal, deal.current, deal.discard[-1], hand):
                    actions.append(DRAW_DISCARD)
            elif mode == "any":
                actions.extend(pile_draws(deal))
            elif mode == "whole":
                actions.extend(pile_takes(deal))
        if not deal.stock and mode == "any":
            actions.append(END)
    elif phase == USE:
        assert deal.taken is not None
        others = [c for c in hand if c is not deal.taken]
        actions.extend(use_actions(deal, deal.current, deal.taken, others, MELD_ACTION_LIMIT))
    elif phase == "play":
        search = variant.meld_search
        wild = search.rules.wild_faces
        for meld in search.candidate_melds(hand, limit=MELD_ACTION_LIMIT):
            for placed in search.placements(meld) if meld.wilds else (meld,):
                actions.append(meld_action(search, placed))
        choices = distinct_cards(deal, hand)
        targets = layoff_targets(deal, deal.current)
        if targets:
            faces = {card.face for card in choices}
            has_wild = not wild.isdisjoint(faces)
            for index in targets:
                table_meld = deal.table[index]
                fits = search.layoff_faces(table_meld.meld)  # as extend(meld, [card]) answers, once per meld
                if not has_wild:
                    if not fits.isdisjoint(faces):
                        actions.extend([Action("layoff", (card,), index) for card in choices if card.face in fits])
                    continue
                for card in choices:
                    if card.face in wild:
                        actions.extend(wild_layoffs(search, table_meld.meld, card, index))
                    elif card.face in fits:
                        actions.append(Action("layoff", (card,), index))
        if variant.exchange != "none":
            actions.extend(swaps(deal, deal.current))
        actions.extend(_turn_endings(deal, hand))
    elif phase == "discard":
        actions.extend(_discards(deal, hand))
    elif phase == OFFERED:
        actions.extend((ACCEPT, DECLINE))
    if deal.probe is not None:
        actions.append(deal.probe)
    if variant.discard_to_go_out == "required" and phase in ("play", USE):
        # Going out needs a final discard: a meld or lay-off may not use every card left in hand.
        size = len(hand)
        actions[:] = [a for a in actions if a.kind not in ("meld", "layoff", "swap") or len(a.cards) < size]


def _turn_endings(deal: Deal, hand: list[Card]) -> list[Action]:
    """How the play phase may end, by the ruleset's ``turn.end``."""
    end = deal.variant.turn_end
    if end == "discard":
        return _discards(deal, hand)
    if end == "offer" and len(hand) > 1:
        return [OFFERS[card] for card in distinct_cards(deal, hand)]
    return [END_TURN]


def meld_action(search: MeldSearch, meld: Meld, kind: str = "meld") -> Action:
    """The action that lays ``meld`` as it stands: each wild card in a set or run names the card it stands for
    (``meld 5H 6H 2C=7H``), so that the action says exactly which meld it makes."""
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
    wild = search.rules.wild_faces
    meant = tuple(card_from_face(f) if c.face in wild else None for c, f in zip(meld.cards, meld.faces))
    return Action(kind, meld.cards, stands_for=meant)


_MELD_ACTIONS: dict[int, tuple[Meld, Action]] = {}
_LISTED_MELDS: dict[int, tuple[Action, Meld]] = {}
"""The meld each action of :data:`_MELD_ACTIONS` lays (it is the meld ``search.meld`` makes of its cards)."""


def wild_layoffs(search: MeldSearch, meld: Meld, card: Card, target: int) -> list[Action]:
    """Lay-offs of the wild ``card`` on ``meld``, one per place it may stand (either end of a run)."""
    options: list[Card | None] = [None]
    if meld.kind == "run" and meld.suit is not None:
        options = [
            card_from_face(_run_face(meld.suit, r)) for r in (meld.ranks[-1] + 1, meld.ranks[0] - 1) if 1 <= r <= 14
        ]
    actions = []
    for meant in options:
        grown = search.extend(meld, [card], [meant])
        if grown is not None:
            face = grown.faces[len(grown.cards) - 1 - grown.cards[::-1].index(card)]
            if meld.kind in ("set", "run"):
                actions.append(Action("layoff", (card,), target, stands_for=(card_from_face(face),)))
            else:
                actions.append(Action("layoff", (card,), target))
    return actions


def _run_face(suit: int, position: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


def pile_takes(deal: Deal) -> list[Action]:
    """Ways to take the whole pile (``draw.from_pile: whole``). With ``draw.must_use: top`` its top card must
    first go into a new meld with at least two cards from hand (``take pile with 7S 7D``), or, with
    ``draw.top_layoff``, onto one of the taker's table melds (``take pile on 2``); otherwise ``take pile``.
    Actions name the cards from hand; a wild top card stands where it first fits."""
    variant = deal.variant
    if variant.must_use != "top":
        return [TAKE_PILE]
    top = deal.discard[-1]
    seat = deal.current
    hand = deal.hands[seat]
    search = variant.meld_search
    top_wild = search.is_wild(top)
    result: list[Action] = []
    seen: set[str] = set()
    for meld in search.melds_containing(top, hand, MELD_ACTION_LIMIT):
        for placed in (meld,) if top_wild or not meld.wilds else search.placements(meld):
            action = _pile_take(search, placed, top)
            if len(action.cards) < 2:
                continue
            text = str(action)
            if text not in seen:
                seen.add(text)
                result.append(action)
    if variant.top_layoff:
        for index in layoff_targets(deal, seat):
            if search.lays_off(deal.table[index].meld, top):
                result.append(Action("take pile", (), index))
    return result


TAKE_PILE_WITH = "take pile with"


def swaps(deal: Deal, seat: int) -> list[Action]:
    """Exchanges of a natural card from hand for a wild card on the table (``swap 6H on 3``), on the melds the
    ruleset's ``table.exchange`` opens to ``seat``."""
    search = deal.variant.meld_search
    hand = [c for c in distinct_cards(deal, deal.hands[seat]) if not search.is_wild(c)]
    result = []
    for index in exchange_targets(deal, seat):
        meld = deal.table[index].meld
        # Only a card a wild card stands for (in a set, any card of its rank) can take its place.
        meant = {f for c, f in zip(meld.cards, meld.faces) if search.is_wild(c)}
        ranks = {f % 13 + 1 for f in meant} if meld.kind == "set" else set()
        for card in hand:
            if (card.face in meant or card.rank in ranks) and exchanged(deal, index, card) is not None:
                result.append(Action("swap", (card,), index))
    return result


def exchange_targets(deal: Deal, seat: int) -> list[int]:
    """Table melds holding a wild card that ``seat`` may exchange for, by the ruleset's ``table.exchange``:
    ``any``, ``own-side``, ``opponents``, or ``layer`` (only a wild card ``seat`` laid itself)."""
    mode = deal.variant.exchange
    if mode == "none":
        return []
    game = deal.game
    side = game.side_of(seat)
    exchangeable = deal.variant.exchangeable
    result = []
    for i, tm in enumerate(deal.table):
        if not tm.meld.wilds or tm.meld.kind not in ("set", "run"):
            continue
        if mode == "own-side" and game.side_of(tm.owner) != side:
            continue
        if mode == "opponents" and game.side_of(tm.owner) == side:
            continue
        if not any(c.face in exchangeable for c in tm.meld.cards):
            continue
        if mode == "layer" and not any(
            c.face in exchangeable and tm.credits.get(c.id, tm.owner) == seat for c in tm.meld.cards
        ):
            continue
        result.append(i)
    return result


def exchanged(deal: Deal, index: int, card: Card) -> tuple[Meld, Card] | None:
    """Table meld ``index`` with ``card`` in place of the wild card that stands for it, and that wild card; or
    None. In a run the wild must stand for ``card`` itself; in a set, for a card of its rank (one standing
    for ``card``'s suit first)."""
    table_meld = deal.table[index]
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
        cards = list(meld.cards)
        wild = cards[i]
        cards[i] = card
        meant = [card_from_face(f) if search.is_wild(c) else None for c, f in zip(cards, faces)]
        swapped = search.meld(cards, kind=meld.kind, stands_for=meant)
        if swapped is not None and (meld.kind != "run" or swapped.ranks == meld.ranks):
            return swapped, wild
    return None


def pile_draws(deal: Deal) -> list[Action]:
    """``draw discard`` actions for ``draw.from_pile: any``, deepest card first (under ``must_use:
    deepest`` only those whose deepest card can be used at once).

    An action names the deepest card taken (``draw discard 7H``: the 7H and every card above it). When
    the same card lies higher in the pile too (two decks), that short text means the higher copy, and
    taking from the lower copy names every card taken, deepest first (``draw discard 7H 4S 7H 2C``).
    """
    pile = deal.discard
    hand = deal.hands[deal.current]
    must_use = deal.variant.must_use == "deepest"
    search = deal.variant.meld_search
    # The hand and the cards above as counts per face, kept up to date down the pile (can_use's can_meld).
    counts: list[int] | None = None
    if must_use and not search.rules.wild_faces and not search.rules.specials:
        counts = [0] * 53
        for held in hand:
            counts[held.face] += 1
    uses = _uses(deal, deal.current) if must_use else None
    result = []
    faces_above: set[int] = set()
    cards_above: list[Card] = []
    for depth in range(len(pile) - 1, -1, -1):
        card = pile[depth]
        if card.id not in deal.face_down and (uses is None or uses.usable(card, hand, cards_above, counts)):
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
    return _uses(deal, seat).usable(card, others, (), counts)


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


def cards_from_hand(hand: Sequence[Card], wanted: Sequence[Card]) -> list[Card] | None:
    """The cards of ``hand`` that ``wanted`` names (by face, so any copy), or None if some are missing."""
    free = list(hand)
    chosen = []
    for card in wanted:
        match = card if card in free else next((c for c in free if c.face == card.face), None)
        if match is None:
            return None
        free.remove(match)
        chosen.append(match)
    return chosen


@hookimpl
def rummykit_check_action(deal: Deal, action: Action) -> Action | None:
    """Accept a valid meld, lay-off or pile take with a meld that ``legal_actions`` did not list (the listed
    melds are capped)."""
    if action.kind == TAKE_PILE_WITH:
        return _check_pile_take(deal, action)
    if action.kind == "draw discard" and not action.cards and deal.phase == "draw":
        # Where the deepest card must be named, a bare 'draw discard' means the only card that may be taken.
        draws = [a for a in deal.legal_actions() if a.kind == "draw discard"]
        return draws[0] if len(draws) == 1 else None
    if deal.phase not in ("play", USE) or action.kind not in ("meld", "layoff") or not action.cards:
        return None
    seat = deal.current
    cards = cards_from_hand(deal.hands[seat], action.cards)
    if cards is None:
        return None
    if deal.phase == USE:
        taken = deal.taken
        assert taken is not None
        if taken not in cards:
            twin = next((c for c in cards if c.face == taken.face), None)
            if twin is None:
                return None
            cards[cards.index(twin)] = taken
    search = deal.variant.meld_search
    meant = action.stands_for or None
    if action.kind == "meld":
        if action.target is not None:
            return None
        melds = []
        start = 0
        for size in action.groups or (len(cards),):
            group = cards[start : start + size]
            meld = search.meld(group, stands_for=meant[start : start + size] if meant else None)
            if meld is None:
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
    if target is None or target not in layoff_targets(deal, seat) or action.groups:
        return None
    grown = search.extend(deal.table[target].meld, cards, meant)
    if grown is None:
        return None
    wild = search.rules.wild_faces
    if any(c.face in wild for c in cards) and grown.kind in ("set", "run"):
        faces = dict(zip((c.id for c in grown.cards), grown.faces))
        named = tuple(card_from_face(faces[c.id]) if c.face in wild else None for c in cards)
        return Action("layoff", tuple(cards), target, stands_for=named)
    return Action("layoff", tuple(cards), target)


def _check_pile_take(deal: Deal, action: Action) -> Action | None:
    """``take pile with C1 C2 ...`` when the pile's top card melds with those cards from hand."""
    variant = deal.variant
    if deal.phase != "draw" or variant.draw_from_pile != "whole" or variant.must_use != "top" or not deal.discard:
        return None
    if len(action.cards) < 2 or action.groups or action.target is not None or variant.discard_pile == "none":
        return None
    top = deal.discard[-1]
    cards = cards_from_hand(deal.hands[deal.current], action.cards)
    if cards is None or top.id in deal.face_down:
        return None
    meant = list(action.stands_for) + [None] if action.stands_for else None
    meld = variant.meld_search.meld(cards + [top], stands_for=meant)
    if meld is None:
        return None
    return _pile_take(variant.meld_search, meld, top)


def _pile_take(search: MeldSearch, meld: Meld, top: Card) -> Action:
    """``take pile with`` the cards of ``meld`` from hand (all but the pile's ``top`` card), naming what their
    wild cards stand for; a wild top card stands where it first fits, so then nothing is named."""
    laid = meld_action(search, meld)
    keep = [i for i, c in enumerate(laid.cards) if c is not top]
    named = tuple(laid.stands_for[i] for i in keep) if laid.stands_for and not search.is_wild(top) else ()
    return Action(TAKE_PILE_WITH, tuple(laid.cards[i] for i in keep), stands_for=named)


DISCARDS = OneCardActions("discard")
PILE_DRAWS = OneCardActions("draw discard")
"""``draw discard C``: the card ``C`` and every card above it (shared, as the discards are)."""


def distinct_cards(deal: Deal, hand: list[Card]) -> list[Card]:
    """One card of each face in ``hand`` (two copies of 7H are one choice)."""
    if not deal.game.has_duplicates:
        return hand
    return list({c.face: c for c in hand}.values())


def _discards(deal: Deal, hand: list[Card]) -> list[Action]:
    return [DISCARDS[card] for card in distinct_cards(deal, hand)]


def layoff_targets(deal: Deal, seat: int) -> list[int]:
    """Indexes of table melds ``seat`` may lay off on, by the ruleset's ``table.layoff``."""
    mode = deal.variant.layoff_mode
    if mode == "none":
        return []
    game = deal.game
    return [i for i, tm in enumerate(deal.table) if mode == "any" or game.side_of(tm.owner) == game.side_of(seat)]


CARD_VERBS = {
    "draw discard": "name the deepest card you take",
    "discard": "name the card",
    "knock": "name the card you discard",
    "offer": "name the card",
    "meld": "name its cards",
    "layoff": "name the card and the table meld",
}
"""Verbs that name cards, with what a bare one lacks (the play prompt's typed text: ``discard`` alone)."""


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase == OFFERED and deal.offer is not None and action.kind not in ("accept", "decline"):
        return "a card is offered to you: accept or decline it first"
    hand = deal.hands[deal.actor]
    faces = {c.face for c in hand}
    missing = [c for c in action.cards if c.face not in faces]
    if action.kind in ("discard", "knock", "meld", "layoff") and missing:
        return f"{' '.join(map(str, missing))} is not in your hand"
    if action.kind == "discard" and deal.phase != "draw":
        offer = next((a for a in deal.legal_actions() if a.kind == "offer"), None)
        if offer is not None and not any(a.kind == "discard" for a in deal.legal_actions()):
            card = action.cards[0] if action.cards else offer.cards[0]
            return f"in this game a turn ends with an offer to the other players: 'offer {card}'"
    if not action.cards and action.kind in CARD_VERBS:
        legal = deal.legal_actions()
        example = next((a for a in legal if a.kind == action.kind and a.cards), None)
        if example is not None:  # the verb is legal now: only its cards are missing
            return f"{CARD_VERBS[action.kind]}, as in '{example}'"
        if deal.variant.melds_on_table and deal.phase == "play":  # (in the "use" phase, its reason below)
            if action.kind == "meld":
                return "your hand makes no meld the rules allow now"
            if action.kind == "layoff":
                if not layoff_targets(deal, deal.actor):
                    return "there is no meld on the table you may lay off on yet"
                return "no card of your hand fits a table meld you may add to"
    if action.kind in ("take pile", TAKE_PILE_WITH):
        reason = _why_not_take_pile(deal, action)
        if reason is not None:
            return reason
    if action.kind in ("meld", "layoff", "swap") and deal.phase == "draw":
        return "draw a card first: melds and lay-offs come after the draw"
    if action.kind == "draw":
        if deal.variant.discard_pile == "none" or deal.variant.draw_from_pile == "none":
            return "say 'draw stock' (this game draws only from the stock)"
        return "say which pile: 'draw stock' or 'draw discard'"
    if action.kind.startswith("draw") and deal.phase != "draw":
        return "you have drawn already this turn"
    if action.kind in ("discard", "knock", "offer") and deal.phase == "draw":
        return "draw a card first"
    if action.kind == "meld" and deal.phase == "play":
        search = deal.variant.meld_search
        groups = action.melds()
        if all(search.meld(cards, stands_for=meant if any(meant) else None) is not None for cards, meant in groups):
            return f"{action} is not one the rules allow now"
        bad = next(
            zip(cards, meant)
            for cards, meant in groups
            if search.meld(cards, stands_for=meant if any(meant) else None) is None
        )
        return f"{' '.join(str(c) if m is None else f'{c}={m}' for c, m in bad)} is not a valid meld"
    if action.kind == "layoff" and action.target is not None and not 0 <= action.target < len(deal.table):
        return f"there is no table meld {action.target}"
    if action.kind == "layoff" and action.target is not None and action.cards and deal.phase == "play":
        meld = deal.table[action.target].meld
        if action.target not in layoff_targets(deal, deal.actor):
            own = "your side's" if deal.variant.partnerships else "your own"
            return f"table meld {action.target} ({meld}) is not yours: in this game you add only to {own} melds"
        if deal.variant.meld_search.extend(meld, list(action.cards), action.stands_for or None) is None:
            return f"{action.cards_text()} does not fit table meld {action.target} ({meld})"
    if action.kind == "draw stock" and not deal.stock:
        return "the stock is empty"
    if deal.phase == USE and deal.taken is not None:
        return (
            f"first use {deal.taken}, the deepest card you took from the pile: meld it or lay it off "
            f"(with other cards if you like)"
        )
    if (
        action.kind == "draw discard"
        and deal.phase == "draw"
        and not action.cards
        and deal.variant.must_use
        and not any(a.kind == "draw discard" for a in deal.legal_actions())
    ):
        return (
            "no card of the pile can be melded or laid off at once with your hand and the table, as a card "
            "taken from the pile must be"
        )
    if action.kind == "draw discard" and deal.phase == "draw" and action.cards:
        if action.cards[0].face not in {c.face for c in deal.discard}:
            return f"{action.cards[0]} is not in the discard pile"
        if deal.variant.must_use == "deepest":
            return (
                f"{action.cards[0]} would have to be melded or laid off at once, and it fits no meld "
                f"with your hand and the cards above it, nor any meld on the table"
            )
    if action.kind == "end" and deal.phase == "draw" and deal.stock:
        return "the hand may be ended only when the stock is empty"
    return None


def _why_not_take_pile(deal: Deal, action: Action) -> str | None:
    """Why ``take pile`` (``with`` cards, or ``on`` a meld) is refused now, or None to say nothing special."""
    variant = deal.variant
    if variant.draw_from_pile != "whole":
        return "in this game the pile is never taken whole"
    if deal.phase != "draw":
        return "you have drawn already this turn"
    if not deal.discard or deal.discard[-1].id in deal.face_down:
        return "there is no pile to take"
    top = deal.discard[-1]
    takes = [a for a in deal.legal_actions() if a.kind in ("take pile", TAKE_PILE_WITH)]
    if variant.must_use != "top":
        return None
    if action.kind == "take pile" and action.target is None:
        if takes:
            return f"first meld the top card, {top}, with cards from your hand, as in '{takes[0]}'"
        return f"the pile's top card, {top}, makes no meld with your cards, so the pile cannot be taken now"
    if action.kind == TAKE_PILE_WITH:
        missing = [c for c in action.cards if c.face not in {h.face for h in deal.hands[deal.current]}]
        if missing:
            return f"{' '.join(map(str, missing))} is not in your hand"
        if len(action.cards) < 2:
            return f"the top card, {top}, must be melded with at least two cards from your hand"
        return f"{' '.join(map(str, action.cards))} and the top card, {top}, make no valid meld"
    return None


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    seat = deal.current
    if kind == "draw stock":
        deal.drawn = deal.stock.pop()
        deal.hands[seat].append(deal.drawn)
        deal.phase = _after_draw(deal)
    elif kind == TAKE_UP:
        passed = deal.zones[PASSED].cards[seat]
        for card in action.cards:
            passed.remove(card)
            deal.hands[seat].append(card)  # deal.seen still names the passer
    elif kind == "draw discard":
        if action.cards:
            depth = deal.discard.index(action.cards[0])
            taken = deal.discard[depth:]
            del deal.discard[depth:]
        else:
            taken = [deal.discard.pop()]
        deal.hands[seat].extend(taken)
        deal.known[seat].update(c.id for c in taken)
        deal.taken = taken[0]
        deal.phase = USE if deal.variant.must_use == "deepest" else _after_draw(deal)
    elif kind == "meld":
        search = deal.variant.meld_search
        listed = _LISTED_MELDS.get(id(action))
        if listed is not None and listed[0] is action:  # the very action meld_action made from this meld
            melds: list[Meld | None] = [listed[1]]
        else:
            melds = [search.meld(cards, stands_for=meant) for cards, meant in action.melds()]
        for meld in melds:
            assert meld is not None
            lay_meld(deal, seat, meld)
        if deal.phase == USE:
            deal.phase = "play"
        _check_out(deal, seat)
    elif kind == "layoff":
        assert action.target is not None
        lay_off(deal, seat, action.target, action.cards, action.stands_for or None)
        if deal.phase == USE:
            deal.phase = "play"
        _check_out(deal, seat)
    elif kind == "end":
        deal.finish("exhausted")
    elif kind == "discard":
        deal.take_from_hand(seat, action.cards)
        if deal.variant.discard_to == "pile":
            deal.discard.extend(action.cards)
        else:  # face down to a player: only the passer knows it
            deal.zones[PASSED].cards[pass_receiver(deal, seat)].extend(action.cards)
            for card in action.cards:
                deal.seen[card.id] = {seat}
        if not deal.hands[seat] and deal.variant.melds_on_table:
            deal.finish("out")
        else:
            deal.end_turn()
    elif kind in ("take pile", TAKE_PILE_WITH):
        _take_pile(deal, seat, action)
    elif kind == "swap":
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
    elif kind == "offer":
        card = action.cards[0]
        order = deal.variant.hook.rummykit_offer_order(deal=deal, seat=seat, card=card)
        order = [s for s in order if s != seat and s in deal.seats]
        if not order:
            deal.end_turn()
        else:
            deal.offer = Offer(card, seat, tuple(order), 1)
            deal.seen.setdefault(card.id, set()).add(order[0])
            deal.responder = order[0]
            deal.phase = OFFERED
    elif kind in ("accept", "decline"):
        _answer_offer(deal, kind == "accept")
    elif kind == "end turn":
        deal.end_turn()
    else:
        return None
    if not deal.stock and deal.result is None and deal.variant.empty_stock != "end":
        refill_stock(deal)
    return True


def _take_pile(deal: Deal, seat: int, action: Action) -> None:
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
    deal.phase = _after_draw(deal)
    _check_out(deal, seat)  # a pile of one card taken with the last cards in hand: every card is melded


def _answer_offer(deal: Deal, accepted: bool) -> None:
    offer = deal.offer
    assert offer is not None and deal.responder is not None
    responder = deal.responder
    if accepted:
        deal.take_from_hand(offer.offerer, (offer.card,))
        deal.hands[responder].append(offer.card)
        # Whoever was asked saw the card; it stays known to them in the taker's hand.
        deal.seen[offer.card.id] = {offer.offerer, *offer.order[: offer.asked]}
        deal.end_turn()
        return
    offer.declined += (responder,)
    if offer.asked < len(offer.order):
        deal.responder = offer.order[offer.asked]
        offer.asked += 1
        deal.seen.setdefault(offer.card.id, set()).add(deal.responder)
        return
    deal.end_turn()  # nobody took it: the offerer keeps it


def refill_stock(deal: Deal) -> bool:
    """Make a new stock from the pile less its top card, as the ruleset's ``draw.empty_stock`` says
    (``turn-over``: turned over as it lies; ``reshuffle``: shuffled). False when the pile is too small or the
    stock was made again as often as ``draw.rebuilds`` allows."""
    limit = deal.variant.rebuilds
    if len(deal.discard) < 2 or (limit is not None and deal.rebuilds >= limit):
        return False
    deal.rebuilds += 1
    top = deal.discard.pop()
    rest = deal.discard
    deal.discard = [top]
    if deal.variant.empty_stock == "reshuffle":
        deal.game.rng.shuffle(rest)
        deal.stock = rest
    else:
        deal.stock = rest[::-1]  # turned over: the pile's bottom card is the new stock's top (its last element)
    deal.face_down.difference_update(c.id for c in rest)
    return True


def _after_draw(deal: Deal) -> str:
    return "play" if deal.variant.melds_on_table else "discard"


def lay_meld(deal: Deal, seat: int, meld: Meld) -> TableMeld:
    """Move ``meld``'s cards from ``seat``'s hand to a new table meld owned by ``seat``."""
    deal.take_from_hand(seat, meld.cards)
    table_meld = TableMeld(
        meld, seat, {c.id: seat for c in meld.cards}, len(meld.cards), frozenset(c.id for c in meld.cards)
    )
    deal.table.append(table_meld)
    return table_meld


def lay_off(
    deal: Deal, seat: int, target: int, cards: Sequence[Card], stands_for: Sequence[Card | None] | None = None
) -> None:
    """Add ``cards`` from ``seat``'s hand to table meld ``target`` (``stands_for``: what its wild cards stand for)."""
    table_meld = deal.table[target]
    grown = deal.variant.meld_search.extend(table_meld.meld, cards, stands_for)
    assert grown is not None
    deal.take_from_hand(seat, cards)
    table_meld.meld = grown
    for card in cards:
        table_meld.credits[card.id] = seat


def _check_out(deal: Deal, seat: int) -> None:
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
    variant = deal.variant
    if variant.empty_stock != "end" and refill_stock(deal):
        return ""
    return "" if variant.draw_from_pile == "any" else "exhausted"


@hookimpl
def rummykit_offer_order(deal: Deal, seat: int, card: Card) -> list[int]:
    order = []
    other = deal.next_seat(seat)
    while other != seat:
        order.append(other)
        other = deal.next_seat(other)
    return order


MeldedValue = Callable[[TableMeld, int], int]
"""The points the card at an index of a table meld scores (for games where a card's value on the table
depends on the meld, such as an ace high or low)."""


def table_points(deal: Deal, melded_value: MeldedValue | None = None) -> list[int]:
    """Per seat, the points of the table cards it played (credited to whoever laid each card)."""
    variant = deal.variant
    points = [0] * deal.game.num_players
    for table_meld in deal.table:
        for index, card in enumerate(table_meld.meld.cards):
            value = melded_value(table_meld, index) if melded_value is not None else variant.meld_value(card)
            points[table_meld.credits.get(card.id, table_meld.owner)] += value
    return points


def hand_points(deal: Deal) -> list[int]:
    """Per seat, the value of the cards left in its hand."""
    variant = deal.variant
    points = [0] * deal.game.num_players
    for seat in deal.seats:
        points[seat] = sum(variant.value(c) for c in deal.hands[seat])
    return points


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


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as a log shows them: ``7H 7S 7D``, or ``-`` for none."""
    return " ".join(str(c) for c in cards) or "-"


def _laid_text(action: Action) -> str:
    """The cards of a meld or lay-off as typed, without the verb: ``7H 7S 7D | 8C 8D 8S``, ``2C=8H``."""
    text = str(Action(action.kind, action.cards, None, action.groups, action.stands_for))
    return text[len(action.kind) + 1 :] or "-"


def _now(deal: Deal, target: int | None) -> str:
    if target is not None and 0 <= target < len(deal.table):
        return f" (now {deal.table[target]})"
    return ""


def offered_card(deal: Deal) -> Card | None:
    """The card on offer now, or the one just answered (``accept``/``decline`` end the offer)."""
    if deal.offer is not None:
        return deal.offer.card
    for _, action in reversed(deal.log):
        if action.kind == "offer":
            return action.cards[0]
    return None


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    cards = cards_text(action.cards)
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
        if deal.variant.discard_to != "pile":
            return _pass_words(deal, seat, action, viewer)
        return ActionWords(f"discard {cards}", f"discards {cards}")
    if kind == TAKE_UP:
        passer = next(iter(deal.seen.get(action.cards[0].id, ())), None) if action.cards else None
        by = f", passed face down by {deal.game.names[passer]}" if passer is not None else ""
        if viewer is not None and viewer == passer:
            return ActionWords(f"take up {cards}{by}", f"takes up {cards}, passed face down by you")
        what = "the card" if len(action.cards) == 1 else "the cards"
        return ActionWords(f"take up {cards}{by}", f"takes up {what}{by}")
    if kind == "meld":
        return ActionWords(f"meld {_laid_text(action)}", f"melds {_laid_text(action)}")
    if kind == "layoff":
        what = f" off {_laid_text(action)} on meld {action.target}{_now(deal, action.target)}"
        return ActionWords("lay" + what, "lays" + what)
    if kind in ("take pile", TAKE_PILE_WITH):
        top = deal.taken or (deal.discard[-1] if deal.discard else None)
        what = " the discard pile"
        if kind == TAKE_PILE_WITH:
            what += f", melding its top card {top} with {_laid_text(action)}"
        elif action.target is not None:
            what += f", laying its top card {top} off on meld {action.target}{_now(deal, action.target)}"
        return ActionWords("take" + what, "takes" + what)
    if kind == "swap":
        what = f" {cards} for the wild card in meld {action.target}{_now(deal, action.target)}"
        return ActionWords("swap" + what, "swaps" + what)
    if kind in ("offer", "accept", "decline"):
        card = action.cards[0] if action.cards else offered_card(deal)
        # Only the seats it was offered to (and its owner) ever see an offered card.
        shown = card is not None and viewer is not None and (viewer == seat or viewer in deal.seen.get(card.id, ()))
        you = f" {card}" if card is not None else ""
        they = f" {card}" if shown else " a card" if kind == "offer" else " the offered card"
        if kind == "offer":
            return ActionWords("offer" + you, "offers" + they)
        return ActionWords(kind + you, kind + "s" + they)
    if kind == "end turn":
        return ActionWords("end the turn", "ends the turn")
    if kind == "end":
        return ActionWords("end the hand (the stock is empty)", "ends the hand (the stock is empty)")
    return None


def _pass_words(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords:
    """A discard passed face down (``turn.discard_to``): only the passer reads the card (the receiver reads it
    when taking it up)."""
    receiver = pass_receiver(deal, seat)
    cards = cards_text(action.cards)
    to = deal.game.names[receiver]
    if viewer == receiver:
        return ActionWords(f"pass {cards} face down to {to}", "passes a card face down to you")
    return ActionWords(f"pass {cards} face down to {to}", f"passes a card face down to {to}")


@hookimpl(tryfirst=True)
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    variant = deal.variant
    phase = deal.phase
    words.hint = PHASE_HINTS.get(phase, phase)
    if phase == "draw" and variant.draw_from_pile not in ("whole", "none") and deal.discard:
        kinds = {a.kind for a in deal.legal_actions()}
        if kinds == {"draw stock"}:
            words.hint = "draw a card (draw stock; the pile cannot be taken now)"
    if phase == "draw" and variant.draw_from_pile == "any" and deal.discard:
        draws = [a for a in deal.legal_actions() if a.kind == "draw discard"]
        if len(draws) > 1:
            words.hint = "draw a card (draw stock, or draw discard CARD: that card and every card above it)"
    if phase == "draw" and variant.draw_from_pile in ("whole", "none"):
        words.hint = "draw a card (draw stock)"
        takes = [a for a in deal.legal_actions() if a.kind in ("take pile", TAKE_PILE_WITH)]
        if variant.draw_from_pile == "whole" and takes:
            top = "meld its top card first: take pile with ..." if variant.must_use == "top" else "take pile"
            words.hint += f", or take the whole pile ({top})"
        elif variant.draw_from_pile == "whole" and deal.discard:
            words.hint += "; the pile cannot be taken now"
    if phase == "play":
        end = variant.turn_end
        last = "discard" if end == "discard" else "offer a card" if end == "offer" else "end the turn"
        words.hint = f"meld, lay off, or {last}"
    elif phase == USE and deal.taken is not None:
        words.hint = f"meld or lay off {deal.taken} first, the deepest card you took"
    elif phase == OFFERED and deal.offer is not None:
        offer = deal.offer
        words.hint = f"{deal.game.names[offer.offerer]} offers you {offer.card}: accept or decline"
    verbs = ["draw stock", "draw discard", "discard"]
    if variant.melds_on_table:
        verbs += ["meld", "layoff"]
    if variant.draw_from_pile == "whole":
        verbs += ["take pile", TAKE_PILE_WITH]
    if variant.draw_from_pile == "any":
        verbs.append("end")
    if variant.exchange != "none":
        verbs.append("swap")
    if variant.turn_end == "offer":
        verbs += ["offer", "accept", "decline"]
    if variant.turn_end != "discard":
        verbs.append("end turn")
    words.verbs.extend(verbs)
