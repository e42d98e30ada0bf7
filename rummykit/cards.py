"""Cards, card notation and decks.

A card is identified by rank, suit and copy (which of several identical decks it came from). Ranks are
1 (ace) to 13 (king); suits are ``C D H S``. A joker has rank 0 and suit ``JK``. Two copies of the same
card are different objects for bookkeeping but equal for meld purposes: compare ``card.face``.

Notation: ``7H``, ``TC`` (``10C`` accepted), ``AS``, ``JK``; lower case and the suit symbols
``♣ ♦ ♥ ♠`` (after the rank, or before it as card-game books and sites write them: ``♠4``) are accepted on
input. ``str(card)`` always gives the canonical form.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "RANKS",
    "SUITS",
    "JOKER_FACE",
    "Card",
    "CardError",
    "parse",
    "parse_card",
    "format_cards",
    "build_deck",
    "card_from_face",
]

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
JOKER_FACE: Final = 52
"""Face index shared by every joker; natural cards have faces ``suit * 13 + rank - 1`` (0..51)."""

_SUIT_SYMBOLS: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])([CDHS])$")


_COPIES: Final = 1 << 32
"""More copies of one card than any deck holds: ``order`` keeps the copy below the face."""


class CardError(ValueError):
    """Text that is not a card in rummykit notation."""


class Card:
    """One physical card. Immutable; equal cards (same rank, suit and copy) are the same object."""

    __slots__ = ("rank", "suit", "copy", "face", "id", "order")
    _cache: dict[tuple[int, int, int], Card] = {}

    rank: int
    """1 (ace) .. 13 (king); 0 for a joker."""
    suit: int
    """0..3 for ``C D H S``; 4 for a joker."""
    copy: int
    """Which copy this is when several identical cards exist (0 for the first)."""
    face: int
    """What the card is, ignoring the copy: 0..51 for natural cards, 52 for any joker."""
    id: int
    """Dense unique number: ``copy * 53 + face``."""
    order: int
    """The card's place in sorted order (by face, then copy): ``sorted(cards, key=attrgetter("order"))`` sorts
    as ``sorted(cards)`` does, without a Python call per comparison."""

    def __new__(cls, rank: int, suit: int, copy: int = 0) -> Card:
        key = (rank, suit, copy)
        card = cls._cache.get(key)
        if card is not None:
            return card
        if suit == 4:
            if rank != 0:
                raise CardError(f"a joker has rank 0, not {rank}")
            face = JOKER_FACE
        elif 0 <= suit < 4 and 1 <= rank <= 13:
            face = suit * 13 + rank - 1
        else:
            raise CardError(f"no card has rank {rank} and suit {suit}")
        if not 0 <= copy < _COPIES:
            raise CardError(f"a card copy is 0 to {_COPIES - 1:,}, not {copy}")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "copy", copy)
        object.__setattr__(card, "face", face)
        object.__setattr__(card, "id", copy * 53 + face)
        object.__setattr__(card, "order", face * _COPIES + copy)
        cls._cache[key] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int, int]]:
        return (Card, (self.rank, self.suit, self.copy))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # one object per card: copies of a game share its cards

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker (``JK``)."""
        return self.suit == 4

    def __str__(self) -> str:
        if self.suit == 4:
            return "JK"
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}'{', copy=' + str(self.copy) if self.copy else ''})"

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order

    # Identity equality and hashing are right: equal cards are the same object (see __new__).


def card_from_face(face: int, copy: int = 0) -> Card:
    """The card with this face index (0..52) and copy."""
    if face == JOKER_FACE:
        return Card(0, 4, copy)
    if not 0 <= face < JOKER_FACE:
        raise CardError(f"a face index is 0..52, not {face}")
    return Card(face % 13 + 1, face // 13, copy)


def _normalise(token: str) -> str:
    text = token.strip().replace("\ufe0f", "")
    if text[:1] in _SUIT_SYMBOLS:
        text = text[1:] + text[0]  # books and sites often write the symbol first: ♠4, ♥10
    for symbol, letter in _SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    return text.upper()


def parse_card(token: str, copy: int = 0) -> Card:
    """Parse one card such as ``7H``, ``10c``, ``A♠`` or ``JK``.

    Raises :class:`CardError` naming the token and the expected form.
    """
    text = _normalise(token)
    if text in ("JK", "JOKER"):
        return Card(0, 4, copy)
    match = _TOKEN.match(text)
    if match is None:
        raise CardError(
            f"{token!r} is not a card: expected a rank (A 2-9 T/10 J Q K) followed by a suit "
            "(C D H S or ♣ ♦ ♥ ♠), e.g. '7H' or 'TC', or 'JK' for a joker"
        )
    rank_text, suit_text = match.groups()
    rank = 10 if rank_text == "10" else RANKS.index(rank_text) + 1
    return Card(rank, SUITS.index(suit_text), copy)


def parse(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas (or an iterable of tokens).

    A card named more than once gets increasing copies (``"7H 7H"`` is two different seven of hearts),
    which is what a multi-deck deal means.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    seen: dict[int, int] = {}
    cards = []
    for token in tokens:
        card = parse_card(token)
        copy = seen.get(card.face, 0)
        seen[card.face] = copy + 1
        cards.append(card if copy == 0 else Card(card.rank, card.suit, copy))
    return cards


def format_cards(cards: Iterable[Card], sort: bool = False) -> str:
    """Cards as space-separated notation, optionally sorted by suit then rank."""
    items: Sequence[Card] = sorted(cards) if sort else list(cards)
    return " ".join(str(card) for card in items)


def build_deck(
    decks: int = 1, jokers: int = 0, ranks: Iterable[int] | None = None, suits: Iterable[int] | None = None
) -> list[Card]:
    """Every card of ``decks`` decks plus ``jokers`` jokers, in a fixed order (by copy, then face). A deck
    holds the ``ranks`` (1..13; default all thirteen) of the ``suits`` (0..3 for ``C D H S``; default all
    four): 52 cards by default, 40 for a Spanish-style pack without 8 9 T."""
    if decks < 1:
        raise ValueError(f"a game uses at least one deck, not {decks}")
    faces: Sequence[int] = range(52)
    if ranks is not None or suits is not None:
        held_ranks = set(range(1, 14) if ranks is None else ranks)
        held_suits = set(range(4) if suits is None else suits)
        faces = [f for f in faces if f % 13 + 1 in held_ranks and f // 13 in held_suits]
    cards = [card_from_face(face, copy) for copy in range(decks) for face in faces]
    cards.extend(Card(0, 4, copy) for copy in range(jokers))
    return cards


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of ``cards`` drawn from ``rng`` (the game's seeded generator)."""
    result = list(cards)
    rng.shuffle(result)
    return result
