"""What a seat cannot see, and positions consistent with what it can: the ground of the search bot.

:func:`hidden_places` lists every place holding a card that ``seat`` cannot see, by the rules the kernel's
observation follows (:meth:`Game.observation`): another seat's hand less the cards known to be in it
(:attr:`Deal.known`, :attr:`Deal.seen`: cards taken from the pile, passed or offered to this seat), the
stock, pile cards lying face down (or the whole pile when the game has no open pile), and zone cards of
``hidden`` zones or of ``owner`` zones of other seats. The table, the open discard pile, the cards set aside
and this seat's own hand and zones are seen.

:func:`determinize` returns a copy of the game in which those hidden cards are dealt again at random among
those same places: every place keeps its size, every card the seat sees stays where it is, and what marks a
place (who else saw the card there, a pile card lying face down) stays with the place. Which cards go
where depends only on the set of hidden cards and the generator, never on where they really were, so two
games that look the same to ``seat`` give the same samples::

    import random
    from rummykit import load_variant
    from rummykit.search import determinize

    game = load_variant("gin").new_game(seed=7)
    seat = game.deal.actor
    world = determinize(game, seat, random.Random(1))
    assert world.observation(seat) == game.observation(seat)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .cards import Card
from .engine import Deal, Game
from .melds import MeldSearch

__all__ = ["hidden_places", "hidden_cards", "determinize", "hand_points", "expected_deadwood"]

Place = tuple[list[Card], int]
"""A list of cards and an index in it."""


def hidden_places(deal: Deal, seat: int) -> list[Place]:
    """Every (list, index) holding a card ``seat`` cannot see, in an order that depends only on the deal's
    layout (sizes and visible cards), not on the hidden cards themselves."""
    return list(_hidden(deal, seat))


def _hidden(deal: Deal, seat: int) -> Iterator[Place]:
    for holder, hand in enumerate(deal.hands):
        if holder == seat:
            continue
        for i, card in enumerate(hand):
            if not deal.sees(seat, card, holder):
                yield hand, i
    for i in range(len(deal.stock)):
        yield deal.stock, i
    open_pile = deal.variant.discard_pile != "none"
    for i, card in enumerate(deal.discard):
        if (not open_pile or card.id in deal.face_down) and seat not in deal.seen.get(card.id, ()):
            yield deal.discard, i
    for zone in deal.zones.values():
        for owner, held in enumerate(zone.cards):
            visible = {c.id for c in deal.zone_seen(seat, zone, owner)}
            for i, card in enumerate(held):
                if card.id not in visible:
                    yield held, i


def hidden_cards(deal: Deal, seat: int) -> list[Card]:
    """The cards ``seat`` cannot see, sorted by id (the same list for every deal that looks alike to it)."""
    return sorted((cards[i] for cards, i in _hidden(deal, seat)), key=lambda c: c.id)


def determinize(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with the cards ``seat`` cannot see dealt again at random among the places that hold
    them (see the module's text). The copy's own random generator is seeded from ``rng`` too, so what the
    copy deals next (a new stock, the next hand) owes nothing to the real game's generator."""
    world = game._clone(random.Random(rng.getrandbits(64)))
    if world.is_over:
        return world
    deal = world.deal
    places = hidden_places(deal, seat)
    cards = sorted((held[i] for held, i in places), key=lambda c: c.id)
    rng.shuffle(cards)
    before = [held[i] for held, i in places]
    moved: dict[int, Card] = {}
    for (held, i), card in zip(places, cards):
        if held[i] is not card:
            moved[held[i].id] = card
            held[i] = card
    if moved:
        # What points at a card by what it is (an offered card, the card just drawn) follows its place.
        if deal.offer is not None and deal.offer.card.id in moved:
            deal.offer.card = moved[deal.offer.card.id]
        if deal.drawn is not None and deal.drawn.id in moved:
            deal.drawn = moved[deal.drawn.id]
        hidden = {c.id for c in before}
        if deal.seen:
            # Who else saw a hidden card goes with its place too.
            seen = {k: v for k, v in deal.seen.items() if k not in hidden}
            for old, new in zip(before, cards):
                if old.id in deal.seen:
                    seen[new.id] = deal.seen[old.id]
            deal.seen = seen
        if deal.face_down & hidden:
            # So does a card's lying face down in the pile (a knock card): the card now in its place lies
            # face down, and the card moved away from it does not.
            face_down = deal.face_down - hidden
            face_down.update(new.id for old, new in zip(before, cards) if old.id in deal.face_down)
            deal.face_down = face_down
    deal._legal = None
    return world


def hand_points(game: Game, seat: int) -> float:
    """A guess at how a hand stands for ``seat``'s side, for a position left unfinished: the value it has
    melded on the table less the deadwood in its hand, against the other sides' average."""
    deal = game.deal
    variant = game.variant
    search = variant.meld_search
    own = [0.0] * game.num_players
    for tm in deal.table:
        for card in tm.meld.cards:
            own[tm.credits.get(card.id, tm.owner)] += variant.value(card)
    for s in deal.seats:
        own[s] -= search.deadwood(deal.hands[s])
    return side_difference(game, own, seat)


def side_difference(game: Game, points: list[float] | tuple[int, ...], seat: int) -> float:
    """``seat``'s side's points less the average of the other sides'."""
    sides: dict[int, float] = {}
    for s, p in enumerate(points):
        side = game.side_of(s)
        sides[side] = sides.get(side, 0.0) + p
    mine = sides.pop(game.side_of(seat), 0.0)
    return mine - (sum(sides.values()) / len(sides) if sides else 0.0)


def expected_deadwood(search: MeldSearch, hand: list[Card], pool: list[Card]) -> float:
    """The deadwood ``hand`` can expect after its next draw and the best discard then, the card drawn being
    any of ``pool`` (the cards its seat cannot see, :func:`hidden_cards`) with equal chance.

    A hand's worth one draw ahead: of two hands with the same deadwood, the one with more cards that would
    meld with it (more "outs") scores lower. The empty pool leaves the deadwood as it is."""
    if not pool:
        return float(search.deadwood(hand))
    return sum(min(search.discard_deadwoods([*hand, card])) for card in pool) / len(pool)
