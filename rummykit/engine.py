"""The game engine: actions, the deal in progress, and a whole game played to its end.

A :class:`Game` is a sequence of deals (:class:`Deal`), each ending in a :class:`HandResult`. Play is
driven by ``legal_actions()`` and ``apply(action)``; an illegal action raises :class:`IllegalAction` and
changes nothing. What each action does comes from the variant's plugins through the hooks in
:mod:`rummykit.hookspecs`; the kernel's own implementations live in :mod:`rummykit.standard`.
"""

from __future__ import annotations

import copy
import copyreg
import functools
import json
import random
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from .actions import Action, IllegalAction, unknown_card
from .cards import Card, CardError, build_deck, parse_card
from .errors import GameBroken, PluginError
from .melds import Meld
from .typed import state_of as _state_of

if TYPE_CHECKING:
    from .variant import Variant

__all__ = [
    "IllegalAction",
    "Action",
    "TableMeld",
    "Zone",
    "Offer",
    "HandResult",
    "Deal",
    "Game",
    "RECORD_FORMAT",
    "DEFAULT_MAX_HANDS",
    "DEFAULT_MAX_TURNS",
    "TURN_LIMIT",
]

MOVED_STATE: dict[str, type] = {}
"""Deal attributes that moved to a mechanic's per-deal state, by name: that state's dataclass, filled in by
:mod:`rummykit.mechanics`. They keep working for a release, with a DeprecationWarning."""

RECORD_FORMAT = "rummykit-record/1"
AUTO_PREFIX = "auto: "
"""How a record writes a move the rules made by themselves; replay checks it rather than applying it."""
MAX_AUTOMATIC_MOVES = 10_000

DEFAULT_MAX_HANDS = 1000
"""The hand limit of a game whose ruleset sets no ``max_hands`` and that is started without one: a guard
against games that cannot end (a policy that never knocks redeals dead hands for ever). Real games end
long before it (a greedy Gin game takes about ten hands)."""

DEFAULT_MAX_TURNS = 1000
"""The turn limit of a hand whose ruleset sets no ``max_turns``: a guard against hands that cannot end (a stock
turned over from the pile as often as it runs out, while nobody can go out). A hand that reaches it is
abandoned (:data:`TURN_LIMIT`). The built-in games' hands end long before it: their stocks are made again a
few times at most."""

TURN_LIMIT = "turn-limit"
"""The kind of a hand abandoned at the turn limit (``max_turns``): nobody scores, and the next hand is dealt."""


_S = TypeVar("_S")
_T = TypeVar("_T")


@dataclass
class Zone:
    """Cards a deal keeps per seat outside hands and the table: Iceberg's card passed face down, aces set
    aside face up. ``cards[seat]`` is that seat's part."""

    name: str
    visibility: str
    """``public``, ``owner`` or ``hidden`` (see :meth:`Deal.add_zone`)."""
    cards: list[list[Card]]

    def __deepcopy__(self, memo: dict[int, Any]) -> Zone:
        if type(self) is not Zone or len(self.__dict__) != _ZONE_FIELDS:  # a subclass, or an attribute added
            return _copy_fields(self, memo, {"cards": _flat_each})
        new = memo[id(self)] = Zone(self.name, self.visibility, _flat_each(self.cards, memo))
        return new  # a clone's hot path (see _copy_fields)


_ZONE_FIELDS = len(fields(Zone))


@dataclass
class Offer:
    """A card offered by ``offerer`` to the seats in ``order``, asked one after another."""

    card: Card
    offerer: int
    order: tuple[int, ...]
    asked: int = 0
    """How many seats of ``order`` have been asked so far (the one asked now included)."""
    declined: tuple[int, ...] = ()


@dataclass
class TableMeld:
    """A meld on the table: who laid it down and who played each of its cards."""

    meld: Meld
    owner: int
    credits: dict[int, int] = field(default_factory=dict)
    """card id -> seat that played it (lay-offs on another's meld score for whoever laid them)."""
    first_size: int = 0
    """How many cards were laid down in the play that started the meld."""
    first_ids: frozenset[int] = frozenset()
    """Ids of the cards laid down in the play that started the meld (the rest were laid off later)."""

    def __str__(self) -> str:
        return str(self.meld)

    def __deepcopy__(self, memo: dict[int, Any]) -> TableMeld:
        if type(self) is not TableMeld or len(self.__dict__) != _TABLE_MELD_FIELDS:  # a subclass, or an attribute added
            return _copy_fields(self, memo, {"credits": _flat})
        # A clone's hot path (see _copy_fields): the meld and first_ids are immutable, the credits numbers.
        credits = _flat(self.credits, memo)
        new = memo[id(self)] = TableMeld(self.meld, self.owner, credits, self.first_size, self.first_ids)
        return new


_TABLE_MELD_FIELDS = len(fields(TableMeld))


@dataclass(frozen=True)
class HandResult:
    """How a deal ended and what each seat scored."""

    number: int
    kind: str
    """``knock``, ``undercut``, ``gin``, ``out``, ``dead``, ``exhausted``, ``turn-limit`` (:data:`TURN_LIMIT`) or a
    game's own word."""
    scores: tuple[int, ...]
    winner: int | None
    dealer: int
    details: Mapping[str, Any] = field(default_factory=dict)
    boxes: tuple[int, ...] = ()
    """Boxes (lines) each seat earned this hand, for games with a box bonus."""

    def as_dict(self) -> dict[str, Any]:
        """The result as plain data, as a record stores it."""
        return {
            "number": self.number,
            "kind": self.kind,
            "scores": list(self.scores),
            "winner": self.winner,
            "dealer": self.dealer,
            "boxes": list(self.boxes),
            "details": _jsonable(self.details),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Meld):
        return [str(c) for c in value.cards]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return value


class _MovedToState:
    """A :class:`Deal` attribute that moved to a mechanic's per-deal state (:data:`MOVED_STATE`): read and
    written there, with a DeprecationWarning."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, deal: Deal | None, owner: type | None = None) -> Any:
        if deal is None:
            return self
        return getattr(deal._moved_state(self.name), self.name)

    def __set__(self, deal: Deal, value: Any) -> None:
        setattr(deal._moved_state(self.name), self.name, value)


def _copy_random(rng: random.Random) -> random.Random:
    """A copy of ``rng`` in the same state. ``copy.copy`` seeds a new generator before setting its state, a
    sixth of a Gin game's clone; a subclass is left to ``copy.copy`` (its ``__reduce__`` may differ)."""
    if type(rng) is not random.Random:
        return copy.copy(rng)
    return _random_in_state(rng.getstate())


def _random_in_state(state: tuple[Any, ...]) -> random.Random:
    """A ``random.Random`` set to ``state`` (from ``getstate``) without seeding it first."""
    made = random.Random.__new__(random.Random)
    made.setstate(state)
    return made


def _flat(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of a list, set or dict holding only immutable values (cards, card ids, actions, tuples of
    them), made whole; the one copy of it when it was reached before (as deepcopy keeps shared values)."""
    found = memo.get(id(value))
    if found is None:
        found = memo[id(value)] = value.copy()
    return found


def _flat_each(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of a list of such lists, sets or dicts (one per seat)."""
    found = memo.get(id(value))
    if found is None:
        found = memo[id(value)] = [_flat(held, memo) for held in value]
    return found


def _flat_values(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of a dict whose values are such lists, sets or dicts (``deal.seen``: card id -> seats)."""
    found = memo.get(id(value))
    if found is None:
        found = memo[id(value)] = {key: _flat(held, memo) for key, held in value.items()}
    return found


# The copies below are put in the memo before they are filled, as deepcopy does: what they hold may point
# back at them (a plugin's state keeping deal.state, say), and must then point at the copy.


def _table_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``deal.table``, each table meld by its own ``__deepcopy__`` (without deepcopy's dispatch
    per meld); None when it is not a list of table melds."""
    found = memo.get(id(value))
    if found is None:
        if type(value) is not list or not all(type(held) is TableMeld for held in value):
            return None
        found = memo[id(value)] = []
        for held in value:
            found.append(memo.get(id(held)) or held.__deepcopy__(memo))
    return found


def _zones_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``deal.zones`` (name -> zone), each zone by its own ``__deepcopy__``; None when it is not a
    dict of zones."""
    found = memo.get(id(value))
    if found is None:
        if type(value) is not dict or not all(type(held) is Zone for held in value.values()):
            return None
        found = memo[id(value)] = {}
        for name, held in value.items():
            found[name] = memo.get(id(held)) or held.__deepcopy__(memo)
    return found


def _states_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of ``deal.state`` (each mechanic's and plugin's state object): see :func:`_copy_state`; None
    when it is not a dict."""
    found = memo.get(id(value))
    if found is None:
        if type(value) is not dict:
            return None
        found = memo[id(value)] = {}
        for key, held in value.items():
            found[key] = _copy_state(held, memo)
    return found


_PLAIN: dict[type, bool] = {}
"""Per class of state object: whether its instances are plain objects, which deepcopy copies as an object of
the class with each attribute copied: classes written in Python alone (no list or dict underneath), with a
``__dict__``, no ``__slots__``, nothing of their own about copying or pickling, and no ``copyreg`` entry."""
_COPY_METHODS = ("__slots__", "__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__")
_HEAP_TYPE = 1 << 9
"""``Py_TPFLAGS_HEAPTYPE``: a class made by a ``class`` statement, not a built-in type."""


def _plain(cls: type) -> bool:
    plain = _PLAIN.get(cls)
    if plain is None:
        bases = [base for base in cls.__mro__ if base is not object]
        plain = _PLAIN[cls] = (
            cls.__dictoffset__ != 0
            and cls not in copyreg.dispatch_table
            and all(base.__flags__ & _HEAP_TYPE for base in bases)
            and not any(name in vars(base) for base in bases for name in _COPY_METHODS)
        )
    return plain


def _copy_state(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a mechanic's or plugin's state object (a dataclass, most often), made as deepcopy makes
    it, each field by :func:`_copy_value`; an object that is not plain goes to deepcopy whole."""
    found = memo.get(id(value))
    if found is not None:
        return found
    if not _plain(type(value)):
        return copy.deepcopy(value, memo)
    new = memo[id(value)] = copy.copy(value)
    fields = new.__dict__
    for name, held in fields.items():
        fields[name] = _copy_value(held, memo)
    return new


def _copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``value`` as deepcopy makes it, sharing what is immutable: a list, set or dict holding
    only numbers, text and cards is copied whole, a tuple of them shared; anything else goes to deepcopy."""
    kind = type(value)
    if kind in _SHARED:
        return value
    found = memo.get(id(value))
    if found is not None:  # copied already, or shared (the game, its variant, its deck)
        return found
    if kind is list or kind is set:
        if all(type(v) in _SHARED for v in value):
            return _flat(value, memo)
    elif kind is dict:
        if all(type(k) in _SHARED and type(v) in _SHARED for k, v in value.items()):
            return _flat(value, memo)
    elif kind is tuple and all(type(v) in _SHARED for v in value):
        return value  # deepcopy too gives the tuple itself
    return copy.deepcopy(value, memo)


_FLAT_TYPES = (list, set, dict)
_SHARED = frozenset({int, str, bool, float, type(None), Card})
"""Types whose values a copy shares (immutable): most of a deal's and a game's fields hold them."""


def _copy_fields(value: _T, memo: dict[int, Any], flat: Mapping[str, Callable[[Any, dict[int, Any]], Any]]) -> _T:
    """A deep copy of ``value`` (a game's deal, zone or table meld) made quickly: the fields named in ``flat``
    are copied by their function when they hold what it expects, every other field by :func:`_copy_value`
    (deepcopy, but sharing what is immutable).

    Cards and actions are immutable and copy as themselves, so walking them one by one only costs time:
    most of a clone's time went there (``Game.clone``, which search bots call for every sampled position)."""
    new = copy.copy(value)
    memo[id(value)] = new
    fields = new.__dict__
    for name, held in fields.items():
        if type(held) in _SHARED:
            continue  # immutable: the shallow copy's value is the copy
        how = flat.get(name)
        if how is None:
            pass
        elif how is _flat or how is _flat_each or how is _flat_values:
            if type(held) in _FLAT_TYPES and (
                how is _flat or all(type(v) in _FLAT_TYPES for v in (held.values() if how is _flat_values else held))
            ):
                fields[name] = how(held, memo)
                continue
        else:
            copied = how(held, memo)  # None: not what the function copies
            if copied is not None:
                fields[name] = copied
                continue
        fields[name] = _copy_value(held, memo)
    for cls in type(value).__mro__:  # a subclass's slots (copy.copy shares what they hold)
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                object.__setattr__(new, name, copy.deepcopy(getattr(value, name), memo))
    return new


_DEAL_FLAT: dict[str, Callable[[Any, dict[int, Any]], Any]] = {
    "stock": _flat,
    "discard": _flat,
    "set_aside": _flat,
    "face_down": _flat,
    "log": _flat,
    "_legal": _flat,
    "hands": _flat_each,
    "known": _flat_each,
    "seen": _flat_values,
    "table": _table_copy,
    "zones": _zones_copy,
    "state": _states_copy,
}
"""The deal's fields of cards, card ids and actions, and how each is copied."""


_GAME_FLAT: dict[str, Callable[[Any, dict[int, Any]], Any]] = {
    "names": _flat,
    "scores": _flat,
    "bonuses": _flat,
    "_actions": _flat_each,
    "_automatic": _flat_each,
}
"""The game's fields of names, numbers, bonuses, actions and action indexes (a search bot's copy walked the
current hand's actions one by one), and how each is copied. The hands' results (their details may be dicts)
are deep-copied, except by :meth:`Game.clone`, which shares the finished hands'."""


class Deal:
    """One hand (deal) in progress: who holds what, the piles, the table, whose turn and what phase.

    Its lists and sets of cards, card ids and actions (``hands``, ``stock``, ``discard``, ``set_aside``,
    ``face_down``, ``known``, ``log``, and ``seen``'s sets of seats) hold nothing else: a copy of the game
    (:meth:`Game.clone`) copies them whole, sharing the cards and actions, which are immutable. Keep other
    values in :attr:`state`."""

    rebuilds = _MovedToState()
    """Deprecated: how many times this deal's stock was made again from the pile, now mechanic ``refill``'s
    state (``deal.state_of(rummykit.mechanics.refill.RefillState).rebuilds``)."""

    def __init__(self, game: Game, number: int, dealer: int, seats: Sequence[int]):
        self.game = game
        self.variant = game.variant
        self.number = number
        self.dealer = dealer
        self.seats = tuple(seats)
        """Seats that play this deal, in turn order from seat 0 (a sitting-out dealer is left out)."""
        n = game.num_players
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        """The stock; its top card is the last element."""
        self.discard: list[Card] = []
        """The discard pile, bottom to top."""
        self.face_down: set[int] = set()
        """Ids of pile cards lying face down (a knocker's discard)."""
        self.set_aside: list[Card] = []
        """Cards out of play for this deal but still accounted for."""
        self.table: list[TableMeld] = []
        self.known: list[set[int]] = [set() for _ in range(n)]
        """Per seat, ids of cards in that hand that every player has seen (taken from the pile)."""
        self.zones: dict[str, Zone] = {}
        """Per-seat places for cards that are neither in a hand nor on the table (see :meth:`add_zone`)."""
        self.seen: dict[int, set[int]] = {}
        """Card id -> seats that have seen that card though it is not theirs (an offered card, a card passed
        face down); it stays known while the card is in a hand or a zone."""
        self.phase = "draw"
        self.current = self.next_seat(dealer)
        """The seat whose turn it is."""
        self.responder: int | None = None
        """A seat that must answer now although it is not its turn (an offered card), or None."""
        self.offer: Offer | None = None
        """The card on offer, while one is."""
        self.taken: Card | None = None
        """The card taken from the discard pile this turn, if any."""
        self.drawn: Card | None = None
        """The card drawn from the stock this turn, if any."""
        self.turn = 0
        self.state: dict[str, Any] = {}
        """Per-deal values a plugin keeps (a knock limit, the knocker...)."""
        self.log: list[tuple[int, Action]] = []
        self.result: HandResult | None = None
        self._legal: list[Action] | None = None
        self.probe: Action | None = None
        """While :meth:`allows` runs: an action that was not listed, which the kernel lists too so that every
        plugin's ``rummykit_legal_actions`` may keep or remove it."""
        self._start: Any = None
        """The random generator's state before this deal was dealt: a failed action is undone by dealing
        it again and playing its log again (nothing is copied while actions succeed)."""

    # -- seats ----------------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The seat in play after ``seat`` (to the left)."""
        n = self.game.num_players
        after = (seat + 1) % n
        if after in self.seats:  # the seat after plays, most often: no loop
            return after
        for step in range(2, n + 1):
            candidate = (seat + step) % n
            if candidate in self.seats:
                return candidate
        raise AssertionError("a deal has at least one seat in play")

    def opponents(self, seat: int) -> list[int]:
        """The other seats that play this deal, in turn order."""
        return [s for s in self.seats if s != seat]

    @property
    def actor(self) -> int:
        """The seat that must act now: the responder to an offer, otherwise the seat whose turn it is."""
        return self.current if self.responder is None else self.responder

    def add_zone(self, name: str, visibility: str = "owner") -> Zone:
        """Make a per-seat zone (once per deal, from ``rummykit_start_hand``). ``visibility``: ``public``
        (everyone sees its cards), ``owner`` (its seat sees them, others their number), ``hidden`` (only
        those in :attr:`seen`)."""
        if visibility not in ("public", "owner", "hidden"):
            raise ValueError(f"zone visibility is public, owner or hidden, not {visibility!r}")
        zone = self.zones[name] = Zone(name, visibility, [[] for _ in range(self.game.num_players)])
        return zone

    @property
    def is_over(self) -> bool:
        """Whether this deal has ended (its :class:`HandResult` is ``result``)."""
        return self.result is not None

    # -- moving cards -----------------------------------------------------------------------------

    def take_from_hand(self, seat: int, cards: Iterable[Card]) -> None:
        """Remove ``cards`` (these very cards) from ``seat``'s hand; a plugin then puts them somewhere else."""
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
            self.known[seat].discard(card.id)
            if self.seen:
                self.seen.pop(card.id, None)

    def state_of(self, cls: type[_S]) -> _S:
        """A plugin's typed state for this deal (:func:`rummykit.typed.state_of`), made on first use."""
        return _state_of(self, cls)

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return _copy_fields(self, memo, _DEAL_FLAT)

    def _moved_state(self, name: str) -> Any:
        cls = MOVED_STATE[name]
        warnings.warn(
            f"Deal.{name} moved to {cls.__module__}: deal.state_of({cls.__name__}).{name}",
            DeprecationWarning,
            stacklevel=3,
        )
        return self.state_of(cls)

    def sees(self, seat: int | None, card: Card, holder: int) -> bool:
        """Whether ``seat`` (None: an onlooker) knows that ``card`` is in ``holder``'s hand or zone."""
        return seat == holder or card.id in self.known[holder] or seat in self.seen.get(card.id, ())

    # -- what a seat can see (observations and the RL encoder both read these) ------------------

    def known_in_hand(self, seat: int | None, holder: int) -> list[Card]:
        """The cards of ``holder``'s hand that ``seat`` knows are there (:meth:`sees`), in hand order."""
        hand = self.hands[holder]
        if seat == holder:
            return list(hand)
        known = self.known[holder]
        if not self.seen:  # the usual case: only cards known to all (taken from the pile, shown)
            return [c for c in hand if c.id in known] if known else []
        return [c for c in hand if self.sees(seat, c, holder)]

    def zone_seen(self, seat: int | None, zone: Zone, owner: int) -> list[Card]:
        """The cards of ``owner``'s part of ``zone`` that ``seat`` can see (by the zone's visibility)."""
        held = zone.cards[owner]
        if zone.visibility == "public" or (zone.visibility == "owner" and owner == seat):
            return list(held)
        seen = self.seen
        return [c for c in held if seat in seen.get(c.id, ())] if seen else []

    def offer_seen(self, seat: int | None) -> Card | None:
        """The card on offer if ``seat`` has seen it (its offerer and the seats asked so far), else None."""
        offer = self.offer
        if offer is None or not (seat == offer.offerer or seat in offer.order[: offer.asked]):
            return None
        return offer.card

    def pile_top_seen(self) -> Card | None:
        """The pile's top card when everyone can see it (face up, in a game whose pile shows its top)."""
        if not self.discard or self.discard[-1].id in self.face_down or self.variant.discard_pile == "none":
            return None
        return self.discard[-1]

    def pile_seen(self) -> list[Card]:
        """The pile's face-up cards, bottom to top (all of them visible when the pile is fanned)."""
        face_down = self.face_down
        return [c for c in self.discard if c.id not in face_down] if face_down else list(self.discard)

    def finish(self, kind: str) -> HandResult:
        """End the deal as ``kind`` and score it through the variant's ``rummykit_score_hand``."""
        if self.result is not None:
            return self.result
        result: HandResult | None = self.variant.hook.rummykit_score_hand(deal=self, kind=kind)
        if result is None:
            raise AssertionError(f"no plugin scored a deal that ended as {kind!r}")
        self.result = result
        self.phase = "over"
        return result

    def end_turn(self) -> None:
        """Finish the current player's turn and pass play to the next seat."""
        seat = self.current
        self.variant.hook.rummykit_turn_ended(deal=self, seat=seat)
        if self.result is not None:
            return
        self.current = self.next_seat(seat)
        self.responder = None
        self.offer = None
        self.phase = "draw"
        self.taken = None
        self.drawn = None
        self.turn += 1
        if self.turn >= self.game.max_turns:
            self._abandon()
            return
        if self.game._tells_turn_started:
            self.variant.hook.rummykit_turn_started(deal=self, seat=self.current)

    def _abandon(self) -> None:
        """End the hand at the game's turn limit, unscored (:data:`TURN_LIMIT`): the rules did not end it, so no
        game's scoring is asked to."""
        scores = (0,) * len(self.hands)
        self.result = HandResult(self.number, TURN_LIMIT, scores, None, self.dealer, {"turns": self.turn})
        self.phase = "over"

    def all_cards(self) -> list[Card]:
        """Every card of this deal, wherever it is."""
        cards = [c for hand in self.hands for c in hand]
        cards += self.stock + self.discard + self.set_aside
        cards += [c for tm in self.table for c in tm.meld.cards]
        for zone in self.zones.values():
            for held in zone.cards:
                cards += held
        return cards

    def card_count(self) -> int:
        """How many cards the deal holds, wherever they are (cheap: lengths only)."""
        count = sum(map(len, self.hands)) + len(self.stock) + len(self.discard) + len(self.set_aside)
        # Plain loops: asked after every action, and a comprehension or a sum per zone costs a call each.
        if self.table:
            for table_meld in self.table:
                count += len(table_meld.meld.cards)
        if self.zones:
            for zone in self.zones.values():
                for held in zone.cards:
                    count += len(held)
        return count

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now (listed once per position, then reused)."""
        if self._legal is None:
            if self.game._broken is not None:  # a broken game empties this cache: checked here, off the hot path
                self.game._intact()
            if self.result is not None:
                return []
            actions: list[Action] = []
            self.variant.hook.rummykit_legal_actions(deal=self, actions=actions)
            self._legal = actions
        elif self.result is not None:
            return []
        return self._legal

    def allows(self, action: Action) -> bool:
        """Whether every plugin's ``rummykit_legal_actions`` keeps ``action``, an action that the bounded list
        left out but ``rummykit_check_action`` accepted: typed actions pass the same filters as listed ones."""
        actions: list[Action] = []
        self.probe = action
        try:
            self.variant.hook.rummykit_legal_actions(deal=self, actions=actions)
        finally:
            self.probe = None
        return any(candidate is action for candidate in actions)

    def __repr__(self) -> str:
        return f"<Deal {self.number} phase={self.phase} current={self.current} stock={len(self.stock)}>"


class Game:
    """A whole game of one variant: deals played one after another until the game is over."""

    def __init__(
        self,
        variant: Variant,
        players: int | Sequence[str] | None = None,
        seed: int | None = None,
        deal: Mapping[str, Any] | None = None,
        max_hands: int | None = None,
    ):
        self.variant = variant
        check_max_hands(max_hands)
        self.max_hands_given = max_hands
        ruleset_limit = variant.ruleset.get("max_hands")
        self.max_hands: int = max_hands or ruleset_limit or DEFAULT_MAX_HANDS
        """The most hands this game plays: the ``max_hands`` it was started with, else the ruleset's
        ``max_hands``, else :data:`DEFAULT_MAX_HANDS`. Reaching it ends the game (``end_reason``
        ``"max-hands"``)."""
        self.max_turns = variant.ruleset.get("max_turns") or DEFAULT_MAX_TURNS
        """The most turns a hand lasts: the ruleset's ``max_turns``, else :data:`DEFAULT_MAX_TURNS`. A hand that
        reaches it is abandoned unscored (kind :data:`TURN_LIMIT`) and the next one is dealt."""
        if players is None:
            players = variant.min_players
        if isinstance(players, bool) or not isinstance(players, (int, Sequence)) or isinstance(players, str):
            raise TypeError(f"players is a number or a list of names, not {_clip(repr(players))}")
        count = players if isinstance(players, int) else len(players)
        if not variant.min_players <= count <= variant.max_players:  # before building names: players=10**9
            raise ValueError(players_text(variant, count))
        if isinstance(players, int):
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = [str(p) for p in players]
        self.names = names
        self.num_players = len(names)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"seed is a whole number (or None for a random one), not {_clip(repr(seed))}")
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.first_deal = _deal_to_text(deal) if deal is not None else None
        pack = variant.pack
        deck, duplicates = _deck_of(
            variant.deck_count(self.num_players), variant.joker_count(self.num_players), pack.ranks, pack.suits
        )
        self.deck = list(deck)
        self.has_duplicates = duplicates
        """Whether the deck holds identical cards (several decks, or several jokers)."""
        self.results: list[HandResult] = []
        """How each finished hand ended and scored, in order (``game.deal.hands`` are the cards in hand)."""
        self.bonuses: list[tuple[int, str, int]] = []
        """End-of-game bonuses as (seat, name, points)."""
        self.scores = [0] * self.num_players
        """Each seat's score: the sum of its hand scores, plus its bonuses once the game is over."""
        self.is_over = False
        self.end_reason: str | None = None
        """Why the game ended: None while it goes on; ``"target"`` when its rules ended it (a seat or side
        reached the target); ``"hands"`` when a game without a target played its ruleset's number of hands;
        ``"max-hands"`` when it reached its hand limit (:attr:`max_hands`) first. A game
        with a target stopped by the hand limit scores no end-of-game bonuses, and has a winner only if one
        seat (side) leads alone on hand points."""
        self.winner: int | None = None
        self._actions: list[list[Action]] = []
        self._automatic: list[set[int]] = []
        """Per deal, the indexes in ``_actions`` of the moves the rules made by themselves."""
        # Hooks called at every action or turn that most games do not implement: not called when none does.
        hooks = variant.pm.hook
        self._asks_automatic = bool(hooks.rummykit_automatic_action.get_hookimpls())
        self._tells_applied = bool(hooks.rummykit_action_applied.get_hookimpls())
        self._tells_turn_started = bool(hooks.rummykit_turn_started.get_hookimpls())
        dealer = self.first_deal["dealer"] if self.first_deal is not None else self.rng.randrange(self.num_players)
        if self.first_deal is not None and not 0 <= dealer < self.num_players:
            raise ValueError(f"deal: 'dealer' is seat {dealer}, but the seats are 0 to {self.num_players - 1}")
        self.deal = self._new_deal(dealer, self.first_deal)
        self._automatic_moves()
        if self.first_deal is not None and not self.is_over and not self.deal.legal_actions():
            raise ValueError(f"deal: seat {self.deal.actor} has no legal action at the start of this deal")

    @property
    def hands(self) -> list[HandResult]:
        """Deprecated: :attr:`results` (``deal.hands`` are the cards in hand, which this name was confused with)."""
        warnings.warn("Game.hands is renamed Game.results", DeprecationWarning, stacklevel=2)
        return self.results

    @property
    def history(self) -> list[list[str]]:
        """The text of every action applied, one list per deal. A move the rules made by themselves (see
        ``rummykit_automatic_action``) reads ``auto: ACTION``."""
        return [
            [AUTO_PREFIX + str(action) if i in auto else str(action) for i, action in enumerate(actions)]
            for actions, auto in zip(self._actions, self._automatic)
        ]

    # -- deals ---------------------------------------------------------------------------------------

    def seats_for_deal(self, dealer: int) -> list[int]:
        """The seats that play a deal dealt by ``dealer`` (all, unless the game leaves the dealer out)."""
        return self.variant.seats_in_play(self, dealer)

    def _new_deal(self, dealer: int, given: Mapping[str, Any] | None) -> Deal:
        start = self.rng.getstate()
        deal = Deal(self, len(self.results) + 1, dealer, self.seats_for_deal(dealer))
        if given is not None:
            self._place(deal, given)
        else:
            deck = list(self.deck)
            self.rng.shuffle(deck)
            self.variant.hook.rummykit_deal(deal=deal, deck=deck)
        self.variant.hook.rummykit_dealt(deal=deal, prearranged=given is not None)
        self._actions.append([])
        self._automatic.append(set())
        self.variant.hook.rummykit_start_hand(deal=deal)
        deal._start = start
        self.variant.hook.rummykit_turn_started(deal=deal, seat=deal.current)
        return deal

    def _place(self, deal: Deal, given: Mapping[str, Any]) -> None:
        """Lay out a prearranged deal; cards not named go beneath the named stock, shuffled. A card is named
        no more often than the pack holds it: the deck less what the game's deal sets aside (the jokers under
        Skarney's no-jokers house rule)."""
        unused: dict[int, list[Card]] = {}
        for card in self.deck:
            unused.setdefault(card.face, []).append(card)
        aside = self._set_aside_faces(deal)
        named: Counter[int] = Counter()

        def take(token: Any, where: str) -> Card:
            card = token if isinstance(token, Card) else parse_card(str(token))
            copies = unused.get(card.face)
            if not copies and not card.is_joker and not self.variant.pack.holds(card.rank, card.suit):
                pack = f"the pack of {self.variant.name} ({self.variant.pack.text()})"
                raise ValueError(f"deal: {where} names {card}, which {pack} does not hold")
            if not copies:
                raise ValueError(f"deal: {where} names {card} more times than the deck holds it")
            if aside[card.face]:
                named[card.face] += 1
                held = sum(c.face == card.face for c in self.deck) - aside[card.face]
                if named[card.face] > held:
                    rules = f" with {', '.join(self.variant.house_rules)}" if self.variant.house_rules else ""
                    pack = f"the pack of {self.variant.name}{rules}"
                    if held:
                        raise ValueError(f"deal: {where} names {card} more times than {pack} holds it ({held})")
                    raise ValueError(f"deal: {where} names {card}, but {pack} holds no {card}: its rules set it aside")
            return copies.pop(0)

        hands = given.get("hands", [])
        if len(hands) != self.num_players:
            raise ValueError(f"deal: 'hands' has {len(hands)} hands for {self.num_players} players")
        for seat, cards in enumerate(hands):
            if not cards and seat in deal.seats:
                raise ValueError(f"deal: hand {seat} is empty, but seat {seat} plays this deal")
            if cards and seat not in deal.seats:
                raise ValueError(f"deal: hand {seat} holds cards, but seat {seat} sits out this deal")
            deal.hands[seat] = [take(t, f"hand {seat}") for t in cards]
        deal.discard = [take(t, "discard") for t in given.get("discard", [])]
        named_stock = [take(t, "stock") for t in given.get("stock", [])]
        rest = [c for copies in unused.values() for c in copies]
        self.rng.shuffle(rest)
        deal.stock = list(reversed(named_stock + rest))

    def _set_aside_faces(self, deal: Deal) -> Counter[int]:
        """How many copies of each card the game's deal sets aside (``rummykit_deal`` on a copy of the deck,
        in a deal of its own: nothing of the game, its random generator included, is touched)."""
        trial = Deal(self, deal.number, deal.dealer, deal.seats)
        self.variant.hook.rummykit_deal(deal=trial, deck=list(self.deck))
        return Counter(card.face for card in trial.set_aside)

    def _finish_deal(self) -> None:
        deal = self.deal
        result = deal.result
        assert result is not None
        self.results.append(result)
        for seat, points in enumerate(result.scores):
            self.scores[seat] += points
        hook = self.variant.hook
        over = bool(hook.rummykit_game_over(game=self))
        at_limit = len(self.results) >= self.max_hands
        if over or at_limit:
            self.is_over = True
            race = self.variant.ruleset.get("target") is not None
            totals = self.side_hand_totals()
            leader_alone = totals.count(max(totals)) == 1
            reached = race and leader_alone and max(totals) >= self.variant.ruleset["target"]
            if over and not (race and at_limit and not reached):
                self.end_reason = "target" if race else "hands"  # "hands": a fixed number of hands, played out
            else:
                self.end_reason = "max-hands"
            # A race stopped by the hand limit did not end by its rules: no end-of-game bonuses, and a
            # winner only if one seat (side) leads alone on hand points.
            stopped = race and self.end_reason == "max-hands"
            self.bonuses = [] if stopped else list(hook.rummykit_score_game(game=self) or [])
            for seat, _name, points in self.bonuses:
                self.scores[seat] += points
            # A game raced to a target is won by whoever reached it: hand points decide, and end-of-game
            # bonuses (Gin's game and box bonuses, added afterwards) only break ties.

            def rank(seat: int) -> tuple[int, int]:
                return (totals[self.side_of(seat)] if race else 0, self.score_of(seat))

            best = max(rank(s) for s in range(self.num_players))
            winners = [s for s in range(self.num_players) if rank(s) == best]
            self.winner = winners[0] if len(winners) == 1 or not self.variant.partnerships else min(winners)
            if stopped and not leader_alone:
                self.winner = None
            return
        dealer = hook.rummykit_next_dealer(game=self, result=result)
        self.deal = self._new_deal(dealer if dealer is not None else deal.dealer, None)

    # -- scores -------------------------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        """The partnership a seat belongs to (the seat itself in games without partners)."""
        return self.variant.side_of(seat)

    def side_scores(self) -> list[int]:
        """The score of each side (each seat's, in a game without partnerships)."""
        if not self.variant.partnerships:
            return list(self.scores)
        return [sum(self.scores[s] for s in range(self.num_players) if self.side_of(s) == side) for side in range(2)]

    def score_of(self, seat: int) -> int:
        """The score that counts for ``seat``: its side's in a partnership game, else its own."""
        return self.side_scores()[self.side_of(seat)]

    def hand_totals(self) -> list[int]:
        """Per seat, the sum of hand scores only (what races to the target)."""
        totals = [0] * self.num_players
        for result in self.results:
            for seat, points in enumerate(result.scores):
                totals[seat] += points
        return totals

    def side_hand_totals(self) -> list[int]:
        """Hand points per side (per seat in games without partners): what races to the target."""
        totals = self.hand_totals()
        if not self.variant.partnerships:
            return totals
        return [sum(totals[s] for s in range(self.num_players) if self.side_of(s) == side) for side in range(2)]

    # -- play --------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat that must act now (the seat whose turn it is, or one answering an offer), or None when
        the game is over."""
        self._intact()
        return None if self.is_over else self.deal.actor

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now."""
        if self._broken is not None:
            self._intact()
        if self.is_over:
            return []
        deal = self.deal
        listed = deal._legal  # (Deal.legal_actions inlined: a bot asks, then apply asks again)
        return listed if listed is not None and deal.result is None else deal.legal_actions()

    def resolve(self, action: Action | str) -> Action:
        """The legal action meant by ``action`` (or its text). Raises :class:`IllegalAction` with the reason.

        ``legal_actions()`` may list only a bounded subset (meld actions are capped on a large hand); an
        action that is not listed is put to the ``rummykit_check_action`` hook, which accepts any legal one.
        """
        if self._broken is not None:
            self._intact()
        if self.is_over:
            raise IllegalAction("the game is over")
        deal = self.deal
        legal = deal._legal
        if legal is None or deal.result is not None:
            legal = deal.legal_actions()
        for candidate in legal:  # bots hand back the very objects listed (the rest: _legal_form)
            if candidate is action:
                return candidate
        found = self._legal_form(action)
        if found is not None:
            return found
        if isinstance(action, str):
            reason = unknown_card(deal, legal, action)  # 'discard ZZ' parses as a verb of two words
            wanted = Action.parse(action)
        else:
            reason, wanted = None, action
        if reason is None:
            reason = self.variant.hook.rummykit_explain_illegal(deal=deal, action=wanted)
        names = ", ".join(sorted({str(a) for a in legal})[:12])
        more = "" if len(legal) <= 12 else f" (and {len(legal) - 12} more)"
        raise IllegalAction(
            f"{_clip(str(wanted))} is not allowed: {_clip(reason or 'not a legal action now', 300)}. "
            f"Legal now: {_clip(names, 400)}{more}"
        )

    def _legal_form(self, action: Action | str) -> Action | None:
        """:meth:`resolve` in a game that is not over, but None where it would raise :class:`IllegalAction` for
        an action that is not legal now: without the message, which names the legal actions (a bot trying an
        action the rules may refuse need not pay for it)."""
        legal = self.deal.legal_actions()
        if isinstance(action, str):
            wanted = Action.parse(action)
            for candidate in legal:
                if candidate.same_as(wanted):
                    return candidate
        elif isinstance(action, Action):
            wanted = action
            for candidate in legal:  # bots hand back the very objects listed
                if candidate is wanted:
                    return candidate
            kind, cards = wanted.kind, wanted.cards
            for candidate in legal:  # (the verb and the cards first: the dataclass's == builds two tuples)
                if candidate.cards == cards and candidate.kind == kind and candidate == wanted:
                    return candidate
            _check_fields(wanted)  # a malformed Action is the caller's mistake, not a plugin's failure
        else:
            raise TypeError(f"an action is an Action or its text, not {type(action).__name__} {_clip(repr(action))}")
        checked = self.variant.hook.rummykit_check_action(deal=self.deal, action=wanted)
        if isinstance(checked, Action) and self.deal.allows(checked):
            return checked
        return None

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its text) for the current player.

        Raises :class:`IllegalAction` (a ValueError) for an action that is not legal now and TypeError for
        something that is no action; :class:`~rummykit.dispatch.PluginError` when a plugin fails while
        carrying it out, or loses or creates a card. Either way the game is left exactly as it was, except
        when the plugin fails again while the game is put back: then :class:`~rummykit.dispatch.GameBroken`
        (a PluginError) says so, and every later action and query of the game raises it."""
        chosen = self.resolve(action)
        deal = self.deal
        hands_before, done = len(self.results), len(deal.log)
        try:
            self._carry_out(chosen)
            if self._asks_automatic:
                self._automatic_moves()
        except Exception as failure:
            self._roll_back(deal, hands_before, done, failure)
            raise

    def _carry_out(self, chosen: Action, automatic: bool = False) -> None:
        deal = self.deal
        seat = deal.current if deal.responder is None else deal.responder  # (deal.actor, without a call)
        handled = self.variant.hook.rummykit_apply_action(deal=deal, action=chosen)
        if not handled:  # pragma: no cover - the kernel handles every standard action
            raise AssertionError(f"no plugin carried out {chosen}")
        deal._legal = None
        deal.log.append((seat, chosen))
        if automatic:
            self._automatic[-1].add(len(self._actions[-1]))
        self._actions[-1].append(chosen)
        if (self._counts_cards or deal.result is not None) and deal.card_count() != len(self.deck):  # len() calls
            done = _clip(str(chosen))
            self._lost_cards(
                deal,
                f"after {done}" if self._counts_cards else f"in a play-out, by the end of its hand ({done} ended it),",
            )
        if self._tells_applied:
            self.variant.hook.rummykit_action_applied(deal=deal, seat=seat, action=chosen)
        if deal.result is not None:
            self._finish_deal()

    def _lost_cards(self, deal: Deal, when: str) -> None:
        plugins = ", ".join(self.variant.plugin_names) or "rummykit.standard"
        held = deal.card_count()
        error = AssertionError(f"{when} the deal holds {held} cards; the deck has {len(self.deck)}")
        raise PluginError(plugins, "rummykit_apply_action", error)

    max_turns: int = DEFAULT_MAX_TURNS  # (a game pickled before hands had a turn limit)

    _counts_cards = True
    """Whether the deal's cards are counted after every action (a plugin that loses or makes a card is caught
    at that action). False: only after the action that ends the hand. A search bot's play-outs, copies of the
    game thrown away once scored, count so, and once more when they stop before the hand ends (in Iceberg the
    counts after every move were a twentieth of the search bot's time)."""

    _asks_automatic = _tells_applied = _tells_turn_started = True
    """Whether a plugin implements ``rummykit_automatic_action`` (``rummykit_action_applied``,
    ``rummykit_turn_started``), asked (told) after each action (at each turn's start): set in ``__init__``; a
    game pickled before they were kept asks (tells)."""

    _broken: GameBroken | None = None
    """Set when a failed action could not be undone (:meth:`_roll_back`): every later action and query
    raises it again."""

    def _intact(self) -> None:
        """Raise :class:`~rummykit.dispatch.GameBroken` when a failed action could not be undone."""
        broken = self._broken
        if broken is not None:
            raise type(broken)(broken.plugin, broken.hook, broken.error, broken.again)

    def _roll_back(self, deal: Deal, hands_before: int, done: int, failure: Exception) -> None:
        """Put the game back as it was before a failed action, or mark it broken when that fails too.

        A snapshot per action would cost more than the action (plugins keep nested state), so nothing is
        copied while actions succeed; a failure is undone by dealing the deal again from the random
        generator's state it started with and replaying the first ``done`` actions of its log."""
        try:
            self._replay_deal(deal, hands_before, done)
        except Exception as again:
            plugins = ", ".join(self.variant.plugin_names) or "rummykit.standard"
            first = failure if isinstance(failure, PluginError) else PluginError(plugins, "apply", failure)
            self._broken = GameBroken(first.plugin, first.hook, first.error, again)
            deal._legal = self.deal._legal = None  # so that Deal.legal_actions asks _intact
            raise self._broken from failure

    def _replay_deal(self, deal: Deal, hands_before: int, done: int) -> None:
        """Deal ``deal`` again and play the first ``done`` actions of its log again (the moves the rules made
        by themselves among them, as they were made)."""
        log = deal.log[:done]
        automatic = (
            {i for i in self._automatic[hands_before] if i < done} if hands_before < len(self._automatic) else set()
        )
        del self.results[hands_before:]
        del self._actions[hands_before:]
        del self._automatic[hands_before:]
        self.scores = [sum(r.scores[s] for r in self.results) for s in range(self.num_players)]
        self.bonuses, self.is_over, self.winner, self.end_reason = [], False, None, None
        self.rng.setstate(deal._start)
        again = self._new_deal(deal.dealer, self.first_deal if deal.number == 1 else None)
        vars(deal).update(vars(again))  # the same Deal object: callers may hold it
        self.deal = deal
        self._automatic[hands_before] = automatic
        for seat, action in log:
            self.variant.hook.rummykit_apply_action(deal=deal, action=action)
            deal._legal = None
            deal.log.append((seat, action))
            self._actions[hands_before].append(action)
            self.variant.hook.rummykit_action_applied(deal=deal, seat=seat, action=action)

    def _automatic_moves(self) -> None:
        """Carry out the moves the rules make by themselves, as ``rummykit_automatic_action`` names them."""
        if not self._asks_automatic:
            return
        hook = self.variant.hook.rummykit_automatic_action
        for _ in range(MAX_AUTOMATIC_MOVES):
            if self.is_over:
                return
            action = hook(deal=self.deal)
            if action is None:
                return
            self._carry_out(action, automatic=True)
        raise RuntimeError(f"rummykit_automatic_action named {MAX_AUTOMATIC_MOVES} moves in a row: a plugin loops")

    def clone(self) -> Game:
        """An independent copy of this game as it stands, random generator included, sharing the variant.

        Applying actions to the copy leaves this game unchanged; both go on identically from the same
        actions. For search bots and vectorised environments. Games also pickle (the variant is saved by
        name, house rules, options and plugin files, and loaded again)."""
        # The random generator's state: a shallow copy sets it whole, where a deep one copies its 625 numbers
        # one by one.
        return self._clone(_copy_random(self.rng))

    def _clone(self, rng: random.Random) -> Game:
        """:meth:`clone`, the copy holding ``rng`` as its random generator (``search.determinize`` gives
        its copies a generator of their own: a copy of this game's would be thrown away)."""
        self._intact()
        memo: dict[int, Any] = {id(self.variant): self.variant, id(self.rng): rng}
        # What never changes is shared rather than walked: the deal's starting state, and the finished
        # hands' actions, automatic moves and results.
        memo[id(self.deck)] = self.deck  # the game's cards, never changed (dealing copies them): shared
        start = self.deal._start
        if start is not None:
            memo[id(start)] = start
        for finished in (*self._actions[:-1], *self._automatic[:-1], *self.results):
            memo[id(finished)] = finished
        return copy.deepcopy(self, memo)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return _copy_fields(self, memo, _GAME_FLAT)

    def _drop(self) -> None:
        """Break the reference between this game and its deal (``deal.game``), so that the game is freed as
        soon as its holder lets go of it rather than at the garbage collector's next pass: for copies that a
        caller made and is done with (a search bot's play-outs, a hundred or more a decision). The game is not
        to be used again."""
        self.deal.game = None  # type: ignore[assignment]

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` can see now, as plain data: its own hand, never another's hidden cards. ``None`` is an
        onlooker, who sees only what every player sees (no hand, no legal actions)."""
        self._intact()
        return self.variant.observe(self, seat)

    # -- records ------------------------------------------------------------------------------------

    def to_json(self) -> str:
        """A JSON record from which :meth:`from_json` replays this game to the identical state."""
        self._intact()
        record = {
            "format": RECORD_FORMAT,
            "variant": self.variant.source_name,
            "house_rules": list(self.variant.house_rules),
            "options": self.variant.options,
            "plugins": list(self.variant.local_plugins),
            "players": self.names,
            "seed": self.seed,
            "max_hands": self.max_hands_given,
            "deal": self.first_deal,
            "actions": self.history,
            "results": [r.as_dict() for r in self.results],
            "scores": self.scores,
            "end_reason": self.end_reason,
        }
        return json.dumps(record, indent=1)

    @staticmethod
    def from_json(text: str, plugins: Iterable[str | Path | ModuleType] = (), trust_plugins: bool = False) -> Game:
        """Rebuild a game from :meth:`to_json` by replaying every action.

        A record names the local plugins (Python files) its game was played with. Loading one runs its
        code, so a record's plugins are loaded only when the caller passes them in ``plugins`` (files or
        modules, matched by plugin name: the file may be elsewhere now) or sets ``trust_plugins`` to load
        the files the record names; otherwise :class:`~rummykit.records.UntrustedPlugins` names them. Raises
        ValueError (TypeError never) naming what is wrong with a record that is malformed or does not replay.
        The work is done by :func:`rummykit.records.read_game`."""
        if _read_game is None:  # pragma: no cover - ``import rummykit`` imports rummykit.records, which sets it
            raise RuntimeError("Game.from_json needs rummykit.records: import rummykit")
        return _read_game(text, plugins, trust_plugins)

    def check_cards(self) -> None:
        """Raise AssertionError unless every card of the deck is in exactly one place."""
        self._intact()
        if self.is_over:
            return
        found = Counter(c.id for c in self.deal.all_cards())
        expected = Counter(c.id for c in self.deck)
        if found != expected:
            lost = expected - found
            extra = found - expected
            raise AssertionError(f"cards lost: {sorted(lost)}; cards created: {sorted(extra)}")

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} hands={len(self.results)} scores={self.scores} over={self.is_over}>"


def _deal_to_text(deal: Mapping[str, Any]) -> dict[str, Any]:
    """A prearranged deal with its cards as text (for the record); ValueError or TypeError, naming the
    part of the deal, when it is not one."""
    if not isinstance(deal, Mapping):
        raise TypeError(f"deal is a mapping (dealer, hands, discard, stock), not {_clip(repr(deal))}")
    unknown = set(deal) - {"dealer", "hands", "discard", "stock"}
    if unknown:
        raise ValueError(
            f"deal: unknown keys {_clip(str(sorted(map(str, unknown))))}; expected dealer, hands, discard, stock"
        )
    dealer = deal.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise ValueError(f"deal: 'dealer' is a seat number, not {_clip(repr(dealer))}")
    hands = deal.get("hands", [])
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise ValueError(f"deal: 'hands' is a list of hands, not {_clip(repr(hands))}")
    result: dict[str, Any] = {"dealer": dealer}
    result["hands"] = [[str(c) for c in _cards(h, f"hand {seat}")] for seat, h in enumerate(hands)]
    for key in ("discard", "stock"):
        if key in deal:
            result[key] = [str(c) for c in _cards(deal[key], key)]
    return result


def _cards(items: Any, where: str) -> list[Card]:
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    if not isinstance(items, Sequence):
        raise ValueError(f"deal: {where} is a list of cards, not {_clip(repr(items))}")
    cards = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif not isinstance(item, str):
            raise ValueError(f"deal: {where} names {_clip(repr(item))}, not a card such as '7H'")
        else:
            try:
                cards.append(parse_card(item))
            except CardError as exc:
                raise ValueError(f"deal: {where}: {_clip(str(exc))}") from None
    return cards


_read_game: Callable[[str, Iterable[str | Path | ModuleType], bool], Game] | None = None
"""How :meth:`Game.from_json` reads a record, set by :mod:`rummykit.records` when it is imported (as
``import rummykit`` does). Reading a record loads its variant, which sits above the engine: the engine
is told how rather than importing what sits above it."""

_MOVED: dict[str, Any] = {}
"""Record names that moved to :mod:`rummykit.records`, which fills this in when it is imported: the old
``rummykit.engine`` names keep working for a release, with a DeprecationWarning."""


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(f"rummykit.engine.{name} moved to rummykit.records.{name}", DeprecationWarning, stacklevel=2)
        return _MOVED[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=64)
def _deck_of(decks: int, jokers: int, ranks: tuple[int, ...], suits: tuple[int, ...]) -> tuple[tuple[Card, ...], bool]:
    """A game's cards in their fixed order (:func:`~rummykit.cards.build_deck`), and whether two are identical:
    built once per pack (Card objects are unique, so games share them)."""
    deck = build_deck(decks, jokers, ranks, suits)
    return tuple(deck), len({c.face for c in deck}) != len(deck)


def check_max_hands(max_hands: object) -> None:
    """ValueError unless ``max_hands`` is None or a whole number of hands, 1 or more."""
    if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1):
        raise ValueError(f"max_hands is a whole number of hands, 1 or more, not {_clip(repr(max_hands), 40)}")


def players_text(variant: Variant, count: int) -> str:
    """Why ``count`` players cannot play ``variant`` ("gin is for 2 players, not 3")."""
    low, high = variant.min_players, variant.max_players
    allowed = f"{low}" if low == high else f"{low} to {high}"
    return f"{variant.name} is for {allowed} players, not {count}"


def _clip(text: str, limit: int = 120) -> str:
    """``text`` cut to about ``limit`` characters: messages stay one readable line whatever the input."""
    return text if len(text) <= limit else f"{text[: limit - 15]}... ({len(text):,} characters)"


def _check_fields(action: Action) -> None:
    """Raise TypeError unless ``action`` holds a text kind, a tuple of Cards and an int (or None) target."""
    if not isinstance(action.kind, str):
        raise TypeError(f"Action.kind is text such as 'discard', not {_clip(repr(action.kind))}")
    if not isinstance(action.cards, tuple) or not all(isinstance(c, Card) for c in action.cards):
        raise TypeError(
            f"Action.cards is a tuple of Card (parse_card('7H')), not {_clip(repr(action.cards))}; "
            "or pass the action's text: 'discard 7H'"
        )
    if action.target is not None and (isinstance(action.target, bool) or not isinstance(action.target, int)):
        raise TypeError(f"Action.target is a meld number or None, not {_clip(repr(action.target))}")
    groups = action.groups
    if not isinstance(groups, tuple) or not all(
        isinstance(g, int) and not isinstance(g, bool) and g > 0 for g in groups
    ):
        raise TypeError(f"Action.groups is a tuple of meld sizes, not {_clip(repr(groups))}")
    if groups and sum(groups) != len(action.cards):
        raise TypeError(f"Action.groups {_clip(repr(groups))} do not add up to the {len(action.cards)} cards named")
    meant = action.stands_for
    if not isinstance(meant, tuple) or not all(m is None or isinstance(m, Card) for m in meant):
        raise TypeError(f"Action.stands_for is a tuple of Card or None, not {_clip(repr(meant))}")
    if meant and len(meant) != len(action.cards):
        raise TypeError(f"Action.stands_for names {len(meant)} cards for the {len(action.cards)} cards of the action")
