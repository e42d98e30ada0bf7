"""Skarney and Skarney Singles (John Scarne), as docs/skarney.md and its rules decisions describe them.

The ruleset carries the turn: draw one card from the stock (there is no discard pile), then melds and
lay-offs on the table, then an offer (``turn.end: offer``) of one card to the left-hand opponent and then to
the others clockwise; 2s and jokers are wild, at most one in a meld, and 2s alone or jokers alone (three or
more) make a special meld (``melds.max_wilds: 1``, ``melds.wild_sets``); an exchange takes an opponent's wild
card for the natural card it stands for (``table.exchange: opponents``); cards are added to one's own side's
melds only (``table.layoff: own``). This plugin adds what is Skarney's own:

* **The contract.** Until a side (a player, in Singles) has laid its contract, it lays no other meld and adds
  to no meld. The contract is ``rules.hands[n].contract`` melds of three cards laid in one action (``meld 7H 7S
  7D | 8C 8D 8S | 9H 9C 2S``): all sets or all runs (each run in one suit), each with at most one wild card,
  none a special meld of wild cards; three melds (9 cards exactly) in hands 1-3, four (12 cards) in hands
  4-7. Either partner may lay it; it counts for the side. The turn it is laid, the player lays nothing else.
* **After the contract**, any number of new melds, and at most ``rules.layoff_per_meld`` (two) cards added to
  each of the side's melds in one turn.
* **Exchanges** come first in the turn (``rules.exchange_first``): once a player has melded or laid off in a
  turn, they exchange no more. A side may exchange before its contract is down.
* **Offers.** Cards of the ranks in ``rules.left_only`` (aces, 2s, jokers) are offered only to the left-hand
  opponent. Accepting a card of ``rules.stop_cards`` (ace, 2, joker) makes the taker skip the draw of their
  next turn: a "stop card". With one card left there is no offer (the kernel's ``end turn``).
* **End of the hand.** A player melds their last card (out); or draws the last stock card, melds what they
  can and offers nothing (``end turn``): the hand ends (exhausted).
* **Scoring.** Each side scores its melded cards: a card of a special meld of wild cards its ``card_values``
  value (joker 100, 2 50), any other card its ``meld_values`` value (a wild card 50 or 25, ace 15, K-T 10, 9-3
  5). Cards in hand count against every side but the one that went out. The side that goes out scores the
  hand bonus ``rules.hands[n].bonus`` (100 in hands 1-3, then 200, 300, 400, 500), and
  ``rules.shutout_bonus`` (200) more if no other side has laid its contract. When nobody goes out the side with
  the most points scores the hand bonus; a tie for the most: the hand does not count (everybody scores 0) and
  the next deal plays the same hand number and contract again.
* **The game** is ``len(rules.hands)`` counted hands (seven); the highest total wins.

House rules: ``no-jokers`` (``rules.jokers: false``: the four jokers are set aside, 104 cards play) and
``no-contract`` (``rules.contract: false``: any meld whenever one likes; the shutout bonus then goes when no
other side has melded at all). See ``docs/skarney.md``.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias

from rummykit import hookimpl
from rummykit.actions import Action, ActionWords, PositionWords
from rummykit.cards import JOKER_FACE, RANKS, Card, card_from_face
from rummykit.engine import TURN_LIMIT, Deal, Game, HandResult, TableMeld
from rummykit.melds import Meld, MeldSearch
from rummykit.results import ResultWords
from rummykit.standard import END_TURN, NO_REASON, Legality, hand_points, meld_action, refuse, table_points
from rummykit.typed import rules_as, state_of

CONTRACT_LIMIT = 24
"""At most this many contracts are listed at once (any valid one is accepted when typed)."""
CONTRACT_STEPS = 4000
"""The search for contracts visits at most this many partial choices, so that it stays cheap on any hand."""

_RANK_NAMES = [*RANKS, "JK"]

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "hands": {
            "type": "array",
            "minItems": 1,
            "description": "the counted hands of a game, in order: how many melds the contract holds, and the "
            "bonus of the side that goes out (or scores most when nobody does)",
            "items": {
                "type": "object",
                "properties": {
                    "contract": {"type": "integer", "minimum": 1, "maximum": 6},
                    "bonus": {"type": "integer"},
                },
                "required": ["contract", "bonus"],
                "additionalProperties": False,
            },
        },
        "contract": {"type": "boolean", "description": "false: no contract restriction (meld anything any time)"},
        "contract_meld_size": {"type": "integer", "minimum": 3, "description": "cards in each meld of a contract"},
        "layoff_per_meld": {"type": "integer", "minimum": 1, "description": "cards added to one meld in one turn"},
        "shutout_bonus": {"type": "integer", "description": "going out before every other side's contract"},
        "left_only": {
            "type": "array",
            "items": {"enum": _RANK_NAMES},
            "description": "ranks offered only to the left-hand opponent",
        },
        "stop_cards": {
            "type": "array",
            "items": {"enum": _RANK_NAMES},
            "description": "ranks whose taker skips the next draw",
        },
        "exchange_first": {"type": "boolean", "description": "exchanges only before melding or laying off"},
        "jokers": {"type": "boolean", "description": "false: the jokers are set aside (104 cards play)"},
    },
    "required": ["hands"],
}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str]]:
    """A game of Skarney is its hands (``rules.hands``), the highest total winning: there is no target."""
    if ruleset.get("target") is None:
        return []
    hands = len(ruleset["rules"]["hands"])
    message = f"a game of Skarney is {hands} hands (rules.hands), the highest total winning: expected no target (null)"
    return [("target", message)]


@dataclass(frozen=True)
class SkarneyRules:
    """Skarney's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant; a key left out has its default."""

    hands: tuple[dict[str, Any], ...]
    contract: bool = True
    contract_meld_size: int = 3
    layoff_per_meld: int = 2
    shutout_bonus: int = 200
    left_only: tuple[str, ...] = ()
    stop_cards: tuple[str, ...] = ()
    exchange_first: bool = True
    jokers: bool = True


def _rules(deal: Deal) -> SkarneyRules:
    return rules_as(deal.variant, SkarneyRules)


@dataclass(frozen=True)
class Offer:
    """One offer of the deal: who offered which card, who was asked, who took it. Immutable: an answer replaces
    the entry, so that a copy of the deal shares its offers (a search bot copies it for every sample, and a
    hand makes a hundred offers or more)."""

    offerer: int
    card: Card
    asked: tuple[int, ...] = ()
    taken_by: int | None = None

    def __copy__(self) -> Offer:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Offer:
        return self


@dataclass
class SkarneyState:
    """What a deal of Skarney keeps (``deal.state_of(SkarneyState)``)."""

    hand: int = 1
    """The hand this deal plays (1 to 7)."""
    contracts: dict[int, int] = field(default_factory=dict)
    """Side -> the seat that laid its contract (with no contract restriction: its first meld)."""
    offers: list[Offer] = field(default_factory=list)
    stopped: dict[int, int] = field(default_factory=dict)
    """Seat -> the seat whose stop card it took: it skips its next draw."""
    added: dict[int, int] = field(default_factory=dict)
    """This turn: table meld index -> cards added to it."""
    laid: bool = False
    """This turn: a meld or lay-off was made."""
    contract_now: bool = False
    """This turn: the contract was laid."""
    skipped: bool = False
    """This turn: the draw was skipped (a stop card)."""


def skarney_state(deal: Deal) -> SkarneyState:
    """The deal's Skarney state."""
    return state_of(deal, SkarneyState)


def _rank_name(card: Card) -> str:
    return "JK" if card.is_joker else RANKS[card.rank - 1]


# -- hands of the game ---------------------------------------------------------------------------------


def counted_hands(game: Game) -> int:
    """How many hands of the game have counted (a tied hand does not, nor one abandoned at the turn limit)."""
    return sum(1 for r in game.results if r.details.get("counted", True) and r.kind != TURN_LIMIT)


def hand_number(deal: Deal) -> int:
    """The hand this deal plays (1 to 7): a deal after a tied hand plays the same hand again."""
    return skarney_state(deal).hand


def contract_size(deal: Deal) -> int:
    """How many melds the contract of this hand holds."""
    hands = _rules(deal).hands
    size: int = hands[min(hand_number(deal), len(hands)) - 1]["contract"]
    return size


def has_contract(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s side (``seat`` itself in Singles) has laid its contract."""
    return deal.game.side_of(seat) in skarney_state(deal).contracts


def contract_owed(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s side must still lay a contract before anything else (this hand has one, not laid)."""
    return bool(_rules(deal).contract) and not has_contract(deal, seat)


def _yours(deal: Deal) -> str:
    """``your side's`` with partners, ``your`` in Singles (where each plays for themselves)."""
    return "your side's" if deal.variant.partnerships else "your"


# -- the deal --------------------------------------------------------------------------------------------


@hookimpl
def rummykit_deal(deal: Deal, deck: list[Any]) -> None:
    """Without jokers (house rule), they are set aside before the deal; the kernel deals the rest."""
    if _rules(deal).jokers:
        return None
    deal.set_aside.extend(c for c in deck if c.is_joker)
    deck[:] = [c for c in deck if not c.is_joker]
    return None


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    game = deal.game
    if not _rules(deal).jokers:
        # A prearranged deal puts the cards it does not name into the stock, jokers too.
        jokers = [c for c in deal.stock if c.is_joker]
        if jokers:
            deal.stock = [c for c in deal.stock if not c.is_joker]
            deal.set_aside.extend(jokers)
    skarney_state(deal).hand = counted_hands(game) + 1


@hookimpl
def rummykit_turn_started(deal: Deal, seat: int) -> None:
    state = skarney_state(deal)
    state.added = {}
    state.laid = False
    state.contract_now = False
    state.skipped = seat in state.stopped
    if state.skipped:
        del state.stopped[seat]
        deal.phase = "play"  # the stop card: no draw this turn


@hookimpl
def rummykit_offer_order(deal: Deal, seat: int, card: Card) -> list[int] | None:
    """Aces and wild cards go to the left-hand opponent only; others to everyone, clockwise (the kernel's)."""
    if _rank_name(card) in _rules(deal).left_only:
        return [deal.next_seat(seat)]
    return None


# -- what is legal ---------------------------------------------------------------------------------------


_ORDER = operator.attrgetter("order")
"""Sorts cards as ``sorted(cards)`` does, without a Python call per comparison (:attr:`Card.order`)."""

_Made: TypeAlias = "dict[tuple[object, ...], Meld | None]"


@dataclass
class _Kept:
    """What a meld search has made for the contracts so far, by cards: melds by kind, the face a wild card
    stands for and the cards' ids; a rank's sets and a suit's runs by the cards they may hold. (What is
    found of one meld is kept with it, in :meth:`MeldSearch.kept <rummykit.melds.MeldSearch.kept>`.)"""

    search: MeldSearch
    made: _Made = field(default_factory=dict)
    groups: dict[tuple[object, ...], tuple[list[Meld], list[int]]] = field(default_factory=dict)
    """Each group's melds, with the cards each holds by face (:func:`_need`)."""
    run_places: list[list[tuple[int, int]]] = field(init=False)
    """Each suit's places in a run (the rules' run span), with the face at each, in order."""
    natural_run_places: list[list[tuple[int, int]]] = field(init=False)
    """:attr:`run_places` less those of wild faces (a wild card is no natural card of a run)."""
    contracts: dict[tuple[int, ...], list[Action]] = field(default_factory=dict)
    """:func:`contracts`' answers by the contract's shape and the hand's cards in order: a search bot's
    play-outs list the same hand's contracts again and again (four times in ten in Skarney Singles)."""
    joined: dict[tuple[int, ...], tuple[tuple[Meld, ...], Action | None]] = field(default_factory=dict)
    """A contract's melds (by their ids, kept with them) and its action (:func:`_joined`; None: two of them name
    the same card, and the hand's copies decide)."""

    def __post_init__(self) -> None:
        low, high = self.search.rules.run_span
        self.run_places = [
            [(pos, suit * 13 + (0 if pos == 14 else pos - 1)) for pos in range(low, high + 1)] for suit in range(4)
        ]
        wild_faces = self.search.rules.wild_faces
        self.natural_run_places = [
            [(pos, face) for pos, face in places if face not in wild_faces] for places in self.run_places
        ]


_KEPT: dict[int, _Kept] = {}
"""By meld search (its id; the search is kept, so the id is not reused). A hand changes a card or two a
turn, and its contracts are listed every turn until it opens."""


def _kept_by(search: MeldSearch) -> _Kept:
    kept = _KEPT.get(id(search))
    if kept is None or kept.search is not search:
        if len(_KEPT) >= 8:  # a process that builds many variants keeps the latest few searches' melds only
            _KEPT.clear()
        kept = _KEPT[id(search)] = _Kept(search)
    return kept


def three_card_melds(search: MeldSearch, hand: Sequence[Card], size: int = 3) -> list[Meld]:
    """Every set and every run of exactly ``size`` cards (default three) that ``hand`` can make with at most
    one wild card, once per combination of faces (the first copies of each face). Built rank by rank and
    suit by suit, so the cost grows with the hand, not with its subsets; a rank's sets and a suit's runs are
    kept by the cards they may hold (a hand changes a card or two a turn, so most are found again)."""
    sets, _, runs, _ = _three_card_melds(search, hand, size)
    return sets + runs


def _three_card_melds(
    search: MeldSearch, hand: Sequence[Card], size: int
) -> tuple[list[Meld], list[int], list[Meld], list[int]]:
    """:func:`three_card_melds`: the sets and the cards each holds by face (:func:`_need`), then the runs and
    theirs."""
    by_face: dict[int, list[Card]] = {}
    for card in sorted(hand, key=_ORDER):  # by face, so by_face's faces are in order too
        copies = by_face.get(card.face)
        if copies is None:
            by_face[card.face] = [card]
        else:
            copies.append(card)
    wild_faces = search.rules.wild_faces
    wilds = [cards[0] for face, cards in by_face.items() if face in wild_faces]
    wild_ids = tuple([c.id for c in wilds])
    kept = _kept_by(search)
    groups = kept.groups
    if len(groups) >= 20_000:
        groups.clear()
    sets: list[Meld] = []
    set_needs: list[int] = []
    runs: list[Meld] = []
    run_needs: list[int] = []
    key: tuple[object, ...]
    rules = search.rules
    if rules.sets:
        by_rank: dict[int, list[Card]] = {}
        for face, cards in by_face.items():
            if face not in wild_faces and face != JOKER_FACE:
                by_rank.setdefault(cards[0].rank, []).extend(cards)
        for cards in by_rank.values():
            if len(cards) < size - 1:
                continue  # too few to make a set, even with a wild card: most ranks of a hand
            key = ("set", size, tuple([c.id for c in cards]), wild_ids)
            group = groups.get(key)
            if group is None:
                melds = _rank_sets(search, kept.made, cards, wilds, size)
                group = groups[key] = (melds, [_need(search, m) for m in melds])
            sets += group[0]
            set_needs += group[1]
    if rules.runs:
        low, high = rules.run_span
        room = range(low, high - size + 2)  # the places a run of ``size`` may start
        for suit, places in enumerate(kept.natural_run_places):
            # The first copy of each face held, by place: the cards (so their places) are the runs' key.
            held = [by_face[face][0] for _, face in places if face in by_face]
            if len(held) < size - 1:
                continue  # too few of the suit's cards for a run, even with a wild card
            key = ("run", size, suit, tuple([c.id for c in held]), wild_ids)
            group = groups.get(key)
            if group is None:
                at = {pos: by_face[face][0] for pos, face in places if face in by_face}
                melds = _suit_runs(search, kept.made, suit, at, _run_starts(at, size, room), wilds, size)
                group = groups[key] = (melds, [_need(search, m) for m in melds])
            runs += group[0]
            run_needs += group[1]
    return sets, set_needs, runs, run_needs


def _rank_sets(search: MeldSearch, made: _Made, cards: list[Card], wilds: list[Card], size: int) -> list[Meld]:
    """The sets of ``size`` of :func:`three_card_melds` from ``cards`` (one rank's, sorted) and ``wilds`` (one card
    of each wild face): each multiset of faces once (:func:`_face_combinations`)."""
    found: list[Meld] = []
    for combo in _face_combinations(cards, size):
        _add(search, made, found, combo, "set")
    if wilds:
        for combo in _face_combinations(cards, size - 1):
            for wild in wilds:
                _add(search, made, found, [*combo, wild], "set")
    return found


def _run_starts(at: dict[int, Card], size: int, room: range) -> list[int]:
    """The first places of the runs of ``size`` (within ``room``, the places a run may start) that hold at least
    ``size - 1`` of the natural cards ``at`` their places, in order: the only ones a run of at most one wild card
    may take."""
    counted: dict[int, int] = {}
    for pos in at:
        for start in range(pos - size + 1, pos + 1):
            counted[start] = counted.get(start, 0) + 1
    return sorted(start for start, n in counted.items() if n >= size - 1 and start in room)


def _suit_runs(
    search: MeldSearch, made: _Made, suit: int, at: dict[int, Card], starts: list[int], wilds: list[Card], size: int
) -> list[Meld]:
    """The runs of ``size`` of :func:`three_card_melds` in ``suit``, whose natural cards by position are ``at``,
    starting at ``starts`` (:func:`_run_starts`)."""
    found: list[Meld] = []
    for start in starts:
        window = range(start, start + size)
        missing = [p for p in window if p not in at]
        if not missing:
            _add(search, made, found, [at[p] for p in window], "run")
        elif wilds:  # one place missing (starts hold size - 1 cards at least): a wild card stands for its card
            gap = missing[0]
            naturals = [at[p] for p in window if p != gap]
            meant_face = suit * 13 + (0 if gap == 14 else gap - 1)
            for wild in wilds:
                _add(search, made, found, [*naturals, wild], "run", meant_face)
    return found


def _add(
    search: MeldSearch, made: _Made, found: list[Meld], cards: list[Card], kind: str, meant_face: int | None = None
) -> None:
    """``cards`` as a meld of ``kind`` (the last, a wild card, standing for the card of ``meant_face`` when given)
    added to ``found`` when it is one. Callers make each multiset of faces once. Kept by the cards: a hand's
    melds come back turn after turn."""
    by_cards = (kind, meant_face, *[c.id for c in cards])
    meld = made.get(by_cards, _UNMADE)
    if meld is _UNMADE:
        if len(made) >= 20_000:
            made.clear()
        meant = None if meant_face is None else [None] * (len(cards) - 1) + [card_from_face(meant_face)]
        meld = made[by_cards] = search.meld(cards, kind=kind, stands_for=meant)
    if meld is not None:
        found.append(meld)


_UNMADE: Any = object()
"""Not yet made (a meld is made once per cards: None, no meld, is an answer kept too)."""


def _face_combinations(cards: list[Card], size: int) -> Iterator[list[Card]]:
    """Combinations of ``size`` of ``cards`` (sorted), once per multiset of faces, in the order of
    ``itertools.combinations``."""
    seen: set[tuple[int, ...]] = set()
    if size <= 0:
        return
    for combo in itertools.combinations(cards, size):
        key = tuple([c.face for c in combo])
        if key not in seen:
            seen.add(key)
            yield list(combo)


def contracts(deal: Deal, seat: int, limit: int = CONTRACT_LIMIT) -> list[Action]:
    """Contracts ``seat`` can lay now: ``contract_size`` melds of ``contract_meld_size`` cards, all sets or all
    runs, from distinct cards of the hand (at most ``limit``; the search for sets, and then for runs, is capped
    at ``CONTRACT_STEPS`` steps each)."""
    search = deal.variant.meld_search
    hand = deal.hands[seat]
    count = contract_size(deal)
    size = int(_rules(deal).contract_meld_size)
    if len(hand) < count * size:
        return []
    kept = _kept_by(search).contracts
    key = (count, size, limit, *[card.id for card in hand])
    found = kept.get(key)
    if found is None:
        found = _contracts(search, hand, count, size, limit)
        if len(kept) >= 4096:
            kept.clear()
        kept[key] = found
    return list(found)


def _contracts(search: MeldSearch, hand: list[Card], count: int, size: int, limit: int) -> list[Action]:
    """:func:`contracts` of ``hand``, found."""
    if not _may_hold(search, hand, count, size):
        return []
    sets, set_needs, runs, run_needs = _three_card_melds(search, hand, size)
    have = _GUARDS  # each face's count held, in its own byte, above it the byte's guard bit
    by_face: dict[int, list[Card]] = {}  # the hand's cards by face, in the hand's order
    for card in hand:
        have += 1 << (8 * card.face)
        by_face.setdefault(card.face, []).append(card)
    result: list[list[Meld]] = []
    _choose(sets, set_needs, count, have, result, limit)
    _choose(runs, run_needs, count, have, result, limit)
    joined = _kept_by(search).joined
    if len(joined) >= 20_000:
        joined.clear()
    actions = []
    for chosen in result:
        # The same melds come back turn after turn while the hand waits for its contract: their action is kept.
        key = tuple(map(id, chosen))
        known = joined.get(key)
        if known is None or any(a is not b for a, b in zip(known[0], chosen)):
            known = joined[key] = (tuple(chosen), _joined(search, chosen))
        action = known[1]
        if action is None:  # two melds name the same card: the hand's copies decide, so it is not kept
            action = _contract_action_of_copies(by_face, chosen, [_laid(search, meld)[0] for meld in chosen])
        actions.append(action)
    return actions


def _may_hold(search: MeldSearch, hand: Sequence[Card], count: int, size: int) -> bool:
    """False when ``hand`` surely holds no ``count`` sets, nor ``count`` runs, of ``size`` cards with one wild
    card at most: most hands waiting for their contract, found so before their melds are made. A meld of one
    rank or suit holds ``size - 1`` natural cards of it at least, a run at places a window of ``size`` places
    holds that many of; the cards counted so make at most so many melds without wild cards, and one more per
    wild card where ``size - 1`` remain."""
    if size < 2:
        return True
    wild_faces = search.rules.wild_faces
    wilds = 0
    by_face: dict[int, int] = {}
    for card in hand:
        face = card.face
        if face in wild_faces:
            wilds += 1
        elif face != JOKER_FACE:
            by_face[face] = by_face.get(face, 0) + 1
    by_rank = [0] * 13
    for face, held in by_face.items():
        by_rank[face % 13] += held
    if _most_melds(by_rank, wilds, size) >= count:
        return True
    low, high = search.rules.run_span
    places = _kept_by(search).run_places
    full = (1 << size) - 1
    in_places = [0] * 4  # per suit, the natural cards at places that may be in a run
    for suit in range(4):
        present = 0
        for pos, face in places[suit]:
            if face in by_face:
                present |= 1 << pos
        usable = 0
        for start in range(low, high - size + 2):
            window = (present >> start) & full
            if window.bit_count() >= size - 1:
                usable |= window << start
        for pos, face in places[suit]:
            if usable >> pos & 1:
                in_places[suit] += by_face[face]
                usable &= ~_same_face_places(pos)  # an ace at both ends: its cards counted once
    return _most_melds(in_places, wilds, size) >= count


def _same_face_places(pos: int) -> int:
    """The places (bits) of the card at ``pos``: both ends for an ace."""
    return (1 << 1 | 1 << 14) if pos in (1, 14) else 1 << pos


def _most_melds(held: list[int], wilds: int, size: int) -> int:
    """At most how many melds of ``size`` cards, one wild card in each at most, groups of ``held`` natural
    cards (a rank's, a suit's) and ``wilds`` wild cards make: ``size`` natural cards to a meld, or ``size -
    1`` and a wild card."""
    natural = sum(n // size for n in held)
    with_wild = sum(n // (size - 1) - n // size for n in held)
    return natural + min(wilds, with_wild)


_GUARDS = sum(128 << (8 * face) for face in range(JOKER_FACE + 1))
"""A hand's and a meld's cards are counted face by face, one byte a face (a hand holds a face at most 8 times:
4 decks, 8 jokers, the rulesets' limits; a count up to 127 fits): below each byte's top bit, the guard.
Counts ``used`` fit the hand ``have`` (guards included) when no byte of ``have - used`` borrowed its guard:
one subtraction checks every face."""


def _need(search: MeldSearch, meld: Meld) -> int:
    """How many cards of each face ``meld`` holds, a byte a face (kept with the meld: contract melds are made
    once)."""
    kept = search.kept(meld)
    need: int | None = kept.get("contract need")
    if need is None:
        need = kept["contract need"] = sum(1 << (8 * c.face) for c in meld.cards)
    return need


def _choose(options: list[Meld], needs: list[int], count: int, have: int, result: list[list[Meld]], limit: int) -> None:
    """Depth-first: add to ``result`` the choices of ``count`` melds of ``options`` whose cards the hand holds
    (``have`` and ``needs``, counts by face as in :data:`_GUARDS`), until ``limit`` are found or
    ``CONTRACT_STEPS`` melds have been tried. (A loop over a stack of choices rather than calls: listed at every
    turn before a contract.)"""
    if count <= 0:
        result.append([])
        return
    budget = CONTRACT_STEPS
    size = len(options)
    picks = [0] * count  # the option chosen at each depth
    used = [0] * count  # the cards the choices above each depth hold
    depth = 0
    i = 0
    while True:
        if i < size:
            if len(result) >= limit or budget <= 0:
                return
            budget -= 1
            after = used[depth] + needs[i]
            if (have - after) & _GUARDS != _GUARDS:  # some face more than the hand holds
                i += 1
                continue
            picks[depth] = i
            if depth + 1 == count:
                result.append([options[p] for p in picks])
                i += 1
                continue
            depth += 1
            used[depth] = after
            i += 1
            continue
        if depth == 0:
            return
        depth -= 1
        i = picks[depth] + 1


def _joined(search: MeldSearch, melds: Sequence[Meld]) -> Action | None:
    """The ``meld A B C | D E F | ...`` action laying ``melds`` when no two name the same card (their actions
    joined), else None (:func:`_contract_action_of_copies` decides)."""
    laid = [_laid(search, meld) for meld in melds]
    actions = [action for action, _ in laid]
    sizes = tuple([len(action.cards) for action in actions])
    if len(frozenset().union(*[held for _, held in laid])) != sum(sizes):
        return None  # some card named twice
    cards = tuple([card for action in actions for card in action.cards])
    meant = tuple([m for action in actions for m in (action.stands_for or (None,) * len(action.cards))])
    return Action("meld", cards, groups=sizes, stands_for=meant if any(meant) else ())


def _laid(search: MeldSearch, meld: Meld) -> tuple[Action, frozenset[int]]:
    """The action laying ``meld`` alone, with its cards' ids (kept with the meld: contract melds are made once)."""
    kept = search.kept(meld)
    laid: tuple[Action, frozenset[int]] | None = kept.get("contract action")
    if laid is None:
        action = meld_action(search, meld)
        laid = kept["contract action"] = (action, frozenset(c.id for c in action.cards))
    return laid


def _contract_action_of_copies(by_face: dict[int, list[Card]], melds: Sequence[Meld], laid: list[Action]) -> Action:
    """The action laying ``melds`` where two name the same card, from their actions ``laid`` and the hand's cards by
    face in its order (``by_face``): a card two melds name goes to the first, the second takes the next copy held."""
    taken: set[int] = set()
    cards: list[Card] = []
    meant: list[Card | None] = []
    for action in laid:
        for i, card in enumerate(action.cards):
            if card.id in taken:
                card = next(c for c in by_face[card.face] if c.id not in taken)
            taken.add(card.id)
            cards.append(card)
            meant.append(action.stands_for[i] if action.stands_for else None)
    return Action(
        "meld", tuple(cards), groups=tuple(len(m.cards) for m in melds), stands_for=tuple(meant) if any(meant) else ()
    )


def is_contract(deal: Deal, action: Action) -> bool:
    """Whether ``action`` lays a contract of this hand: the right number of melds, each of
    ``contract_meld_size`` cards with at most one wild card, all sets or all runs."""
    if action.kind != "meld":
        return False
    groups = action.melds()
    size = int(_rules(deal).contract_meld_size)
    if len(groups) != contract_size(deal) or any(len(cards) != size for cards, _ in groups):
        return False
    search = deal.variant.meld_search
    kinds = set()
    for cards, meant in groups:
        meld = search.meld(cards, stands_for=meant if any(meant) else None)
        if meld is None or meld.kind not in ("set", "run") or meld.wilds > 1:
            return False
        kinds.add(meld.kind)
    return len(kinds) == 1


# Each of Skarney's rules on the turn's verbs is checked once, below: None when it allows the action, else
# why not. The listing removes what a verb's check refuses for the whole position (asked once, not per
# action), filters lay-offs by the per-meld count and builds the contracts by construction; a typed action
# the listing left out passes the same filter (``deal.probe``); a refusal is the check's answer.


def laying_problem(deal: Deal, kind: str) -> str | None:
    """Whether ``meld``, ``layoff`` or ``swap`` may be played at all this turn: nothing else the turn a
    contract is laid; before the side's contract no lay-off; exchanges before any meld or lay-off."""
    return laying_refusals(deal).get(kind)


_CONTRACT_TURN = "the turn a contract is laid, nothing else is laid"
_NOTHING_LAID: Mapping[str, str] = MappingProxyType({kind: _CONTRACT_TURN for kind in ("meld", "layoff", "swap")})


def laying_refusals(deal: Deal) -> Mapping[str, str]:
    """:func:`laying_problem`'s answer for each verb it refuses now (asked once for all three: every listing
    of the turn asks)."""
    state = skarney_state(deal)
    if state.contract_now:
        return _NOTHING_LAID
    refused: dict[str, str] = {}
    if contract_owed(deal, deal.current):
        refused["layoff"] = f"no card is added to a meld before {_yours(deal)} contract is down"
    if state.laid and _rules(deal).exchange_first:
        refused["swap"] = "exchanges come first in a turn, before any meld or lay-off"
    return refused


def contract_problem(deal: Deal, action: Action) -> str | None:
    """A ``meld`` before the side's contract: it must be the contract (:func:`is_contract`)."""
    if not _rules(deal).contract or has_contract(deal, deal.current) or is_contract(deal, action):
        return None
    count = contract_size(deal)
    size = int(_rules(deal).contract_meld_size)
    return (
        f"before {_yours(deal)} contract, the only meld is the contract: {count} sets or {count} runs of {size} "
        f"cards each ({count * size} cards), at most one wild card in each, laid at once "
        f"('meld 7H 7S 7D | 8C 8D 8S | ...')"
    )


def wild_count_problem(deal: Deal, action: Action) -> str | None:
    """At most one wild card in a meld (2s alone or jokers alone make a special meld)."""
    search = deal.variant.meld_search
    for cards, _ in action.melds():
        wilds = sum(search.is_wild(c) for c in cards)
        if 1 < wilds < len(cards):
            return "a meld holds at most one wild card (2s alone or jokers alone make a special meld)"
    return None


def layoff_count_problem(deal: Deal, action: Action) -> str | None:
    """At most ``rules.layoff_per_meld`` cards added to one meld in a turn."""
    if action.target is None:
        return None
    limit = int(_rules(deal).layoff_per_meld)
    done = skarney_state(deal).added.get(action.target, 0)
    if done + len(action.cards) > limit:
        are = "card is" if limit == 1 else "cards are"
        return f"at most {limit} {are} added to one meld in a turn ({done} already this turn)"
    return None


def own_side_problem(deal: Deal, action: Action) -> str | None:
    """A lay-off on the side's own melds only (the ruleset's ``table.layoff: own``, in Skarney's words)."""
    target = action.target
    if target is not None and 0 <= target < len(deal.table) and deal.variant.layoff_mode == "own":
        game = deal.game
        if game.side_of(deal.table[target].owner) != game.side_of(deal.current):
            own = "your own side's" if deal.variant.partnerships else "your own"
            return f"cards are added only to {own} melds, never to an opponent's"
    return None


def exchanged_problem(deal: Deal, action: Action) -> str | None:
    """An exchange takes an opponent's wild card, never one of a special meld of wild cards alone."""
    if action.target is not None and 0 <= action.target < len(deal.table):
        table_meld = deal.table[action.target]
        if table_meld.meld.kind not in ("set", "run"):
            return "wild cards in a special meld of wild cards alone are not exchanged"
        if deal.game.side_of(table_meld.owner) == deal.game.side_of(deal.current):
            return "you exchange only for your opponents' wild cards"
    return None


def offer_problem(deal: Deal) -> str | None:
    """``offer``: not after drawing the stock's last card (the turn then ends with ``end turn``)."""
    if not deal.stock:
        return "you drew the last card of the stock: meld what you can and end the turn (no offer)"
    return None


def _in_play(check: Callable[[Deal], str | None]) -> Callable[[Deal], str | None]:
    """``check``, asked in the ``play`` phase (Skarney's rules are on its melds, lay-offs, exchanges and
    offers; in any other phase the kernel's check speaks)."""

    def now(deal: Deal) -> str | None:
        return check(deal) if deal.phase == "play" else NO_REASON

    return now


def _laying(kind: str) -> Callable[[Deal], str | None]:
    return _in_play(lambda deal: laying_problem(deal, kind))


def _first(*checks: Callable[[Deal, Action], str | None]) -> Callable[[Deal, Action], str | None]:
    def cards(deal: Deal, action: Action) -> str | None:
        return next((reason for check in checks if (reason := check(deal, action)) is not None), None)

    return cards


MELD_RULE = Legality("meld", _laying("meld"), _first(wild_count_problem, contract_problem))
LAYOFF_RULE = Legality("layoff", _laying("layoff"), _first(own_side_problem, layoff_count_problem))
SWAP_RULE = Legality("swap", _laying("swap"), exchanged_problem)
OFFER_RULE = Legality("offer", _in_play(offer_problem))
LEGALITY: dict[str, Legality] = {rule.verb: rule for rule in (MELD_RULE, LAYOFF_RULE, SWAP_RULE, OFFER_RULE)}
"""Skarney's rules on the turn's verbs, one :class:`~rummykit.standard.Legality` each (the kernel's and the
mechanics' own checks of these verbs still apply)."""


def meld_problem(deal: Deal, action: Action) -> str | None:
    """``meld``'s check: nothing the turn a contract is laid; at most one wild card; the contract first."""
    return MELD_RULE.problem(deal, action)


def layoff_problem(deal: Deal, action: Action) -> str | None:
    """``layoff``'s check: not the turn a contract is laid nor before it; own melds; the per-meld count."""
    return LAYOFF_RULE.problem(deal, action)


def swap_problem(deal: Deal, action: Action) -> str | None:
    """``swap``'s check: not the turn a contract is laid; exchanges first; an opponent's wild card."""
    return SWAP_RULE.problem(deal, action)


@hookimpl
def rummykit_closed_verbs(deal: Deal) -> list[str] | None:
    """Lay-offs and free melds closed before the side's contract (the contracts are listed below), and what
    the turn closes (the turn a contract is laid)."""
    refused = laying_refusals(deal)
    closed = [kind for kind in ("meld", "layoff") if kind in refused]
    if "meld" not in closed and contract_owed(deal, deal.current):
        closed.append("meld")
    return closed


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase != "play":
        return
    seat = deal.current
    closed = laying_refusals(deal)
    if closed:
        actions[:] = [a for a in actions if a.kind not in closed]
    if "meld" not in closed and contract_owed(deal, seat):
        # Before the side's contract the only meld is the contract: listed by construction, typed ones checked.
        actions[:] = [a for a in actions if a.kind != "meld" or (a is deal.probe and contract_problem(deal, a) is None)]
        if deal.probe is None:
            actions.extend(contracts(deal, seat))
    if "layoff" not in closed:
        # layoff_count_problem, inlined (listed after every card laid): at most so many cards to a meld a turn.
        added = skarney_state(deal).added
        limit = int(_rules(deal).layoff_per_meld)
        actions[:] = [
            a
            for a in actions
            if a.kind != "layoff" or a.target is None or added.get(a.target, 0) + len(a.cards) <= limit
        ]
    if offer_problem(deal) is not None:
        # The last stock card was drawn: the player melds what they can and offers nothing; the hand ends.
        actions[:] = [a for a in actions if a.kind != "offer"]
        if END_TURN not in actions:
            actions.append(END_TURN)


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return refuse(LEGALITY, deal, action)


# -- carrying out ----------------------------------------------------------------------------------------


@hookimpl
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    """Keep Skarney's books on each action the kernel carried out."""
    state = skarney_state(deal)
    kind = action.kind
    if kind == "meld":
        side = deal.game.side_of(seat)
        if side not in state.contracts:
            state.contracts[side] = seat
            state.contract_now = _rules(deal).contract
        state.laid = True
    elif kind == "layoff":
        assert action.target is not None
        state.added[action.target] = state.added.get(action.target, 0) + len(action.cards)
        state.laid = True
    elif kind == "offer":
        state.offers.append(Offer(seat, action.cards[0]))
    elif kind in ("accept", "decline") and state.offers:
        entry = state.offers[-1]
        taker = seat if kind == "accept" else entry.taken_by
        state.offers[-1] = Offer(entry.offerer, entry.card, entry.asked + (seat,), taker)  # (replace() costs more)


@hookimpl
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    """A stop card taken: the taker skips its next draw. Noted as the offerer's turn ends, before the next
    turn starts (the taker's own, when it sits at the offerer's left)."""
    offer, taker = deal.offer, deal.responder
    if offer is None or taker is None or _rank_name(offer.card) not in _rules(deal).stop_cards:
        return  # no offer, nobody asked, or not a stop card (looked at before the taker's hand, which may be long)
    if any(card is offer.card for card in deal.hands[taker]):  # taken
        skarney_state(deal).stopped[taker] = offer.offerer


# -- scoring ---------------------------------------------------------------------------------------------


def melded_value(deal: Deal, table_meld: TableMeld, index: int) -> int:
    """What the card at ``index`` of ``table_meld`` scores: in a special meld of wild cards alone its
    ``card_values`` value (joker 100, 2 50), elsewhere its ``meld_values`` value (as a wild card 50 or 25)."""
    card = table_meld.meld.cards[index]
    if table_meld.meld.kind == "wild-set":
        return deal.variant.value(card)
    return deal.variant.meld_value(card)


def _sides(deal: Deal) -> dict[int, list[int]]:
    sides: dict[int, list[int]] = {}
    for seat in deal.seats:
        sides.setdefault(deal.game.side_of(seat), []).append(seat)
    return sides


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    if kind not in ("out", "exhausted"):
        return None
    game = deal.game
    rules = _rules(deal)
    number = hand_number(deal)
    hands = rules.hands
    bonus = int(hands[min(number, len(hands)) - 1]["bonus"])
    melded = table_points(deal, lambda tm, i: melded_value(deal, tm, i))
    in_hand = hand_points(deal)
    sides = _sides(deal)
    out_side = game.side_of(deal.current) if kind == "out" else None
    penalty = [0 if out_side is not None and game.side_of(s) == out_side else in_hand[s] for s in range(len(in_hand))]
    scores = [m - p for m, p in zip(melded, penalty)]
    side_points = {side: sum(scores[s] for s in seats) for side, seats in sides.items()}
    details: dict[str, Any] = {"hand": number, "contract": contract_size(deal), "melded": melded, "in_hand": in_hand}
    details["penalty"] = penalty
    winner_side = out_side
    if winner_side is None:
        best = max(side_points.values())
        leaders = [side for side, points in side_points.items() if points == best]
        if len(leaders) > 1:
            # A tie when nobody went out: the hand does not count; the next deal plays it again.
            details.update(counted=False, side_points=side_points)
            return HandResult(deal.number, "tie", tuple(0 for _ in scores), None, deal.dealer, details)
        winner_side = leaders[0]
    taker = deal.current if kind == "out" else sides[winner_side][0]
    scores[taker] += bonus
    details["hand_bonus"] = bonus
    details["bonuses"] = [[taker, "hand bonus", bonus]]
    if kind == "out":
        others = [side for side in sides if side != winner_side]
        if all(side not in skarney_state(deal).contracts for side in others):
            shutout = int(rules.shutout_bonus)
            scores[taker] += shutout
            details["shutout_bonus"] = shutout
            details["bonuses"].append([taker, "shutout bonus", shutout])
    details["counted"] = True
    details["side_points"] = {side: sum(scores[s] for s in seats) for side, seats in sides.items()}
    winner = deal.current if kind == "out" else taker
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer, details)


@hookimpl
def rummykit_describe_result(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    if result.kind == "tie":
        words.ending = "the stock ran out and the sides tied: the hand does not count"


@hookimpl
def rummykit_game_over(game: Game) -> bool:
    """Over when every hand of ``rules.hands`` (seven) has counted."""
    return counted_hands(game) >= len(rules_as(game.variant, SkarneyRules).hands)


# -- words -----------------------------------------------------------------------------------------------


def contract_text(deal: Deal) -> str:
    count = contract_size(deal)
    size = int(_rules(deal).contract_meld_size)
    names = {3: "three", 4: "four"}
    word = names.get(count, str(count))
    return f"{word} sets or {word} runs of {names.get(size, str(size))} ({count * size} cards)"


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    if action.kind == "end turn" and not deal.stock:
        return ActionWords("end the turn (the stock is empty: the hand ends)", "ends the turn; the hand ends")
    return None


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    rules = _rules(deal)
    hands = len(rules.hands)
    if rules.contract:
        words.facts.append(f"Hand {hand_number(deal)} of {hands}, contract: {contract_text(deal)}")
        mine = "down" if has_contract(deal, seat) else "not yet"
        words.facts.append(f"{_yours(deal).capitalize()} contract: {mine}")
    else:
        words.facts.append(f"Hand {hand_number(deal)} of {hands}")
    if deal.phase == "play" and deal.current == seat:
        state = skarney_state(deal)
        if state.skipped:
            words.hint = "no draw this turn (you took a stop card); " + words.hint
        if contract_owed(deal, seat) and not state.contract_now:
            words.hint = f"lay your contract ({contract_text(deal)}) or exchange, then offer a card"
        if not deal.stock:
            words.hint = "you drew the last card: meld what you can, then end turn (no offer; the hand ends)"


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    """Each side's contract, the hand number, the offers made (a card shown only to those who saw it) and
    who skips a draw (to those who know)."""
    state = skarney_state(deal)
    view["hand_number"] = state.hand
    view["contract"] = {"melds": contract_size(deal), "cards_each": int(_rules(deal).contract_meld_size)}
    view["contracts"] = [
        {"side": side, "seats": seats, "laid": side in state.contracts, "laid_by": state.contracts.get(side)}
        for side, seats in _sides(deal).items()
    ]
    offers = []
    for entry in state.offers:
        saw = (
            seat == entry.offerer
            or seat in entry.asked
            or (deal.offer is not None and entry is state.offers[-1] and seat == deal.responder)
        )
        offers.append(
            {
                "from": entry.offerer,
                "card": str(entry.card) if saw else None,
                "declined_by": [s for s in entry.asked if s != entry.taken_by],
                "taken_by": entry.taken_by,
            }
        )
    view["offers"] = offers
    view["skips_draw"] = [s for s, giver in state.stopped.items() if seat in (s, giver)]
