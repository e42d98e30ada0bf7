"""Cards: notation, identity, decks."""

from __future__ import annotations

import copy
import operator
import pickle
import random

import pytest

from rummykit.cards import (
    JOKER_FACE,
    RANKS,
    SUITS,
    Card,
    CardError,
    build_deck,
    card_from_face,
    format_cards,
    parse,
    parse_card,
)

ALL_NOTATION = [r + s for s in SUITS for r in RANKS] + ["JK"]


# -- notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ALL_NOTATION)
def test_round_trip_every_card(text: str) -> None:
    card = parse_card(text)
    assert str(card) == text
    assert parse_card(str(card)) is card
    assert parse_card(text.lower()) is card


def test_all_52_faces_and_the_joker_are_distinct() -> None:
    cards = [parse_card(t) for t in ALL_NOTATION]
    assert len({c.face for c in cards}) == 53
    assert sorted(c.face for c in cards if not c.is_joker) == list(range(52))
    assert parse_card("JK").face == JOKER_FACE
    assert parse_card("JK").rank == 0 and parse_card("JK").suit == 4


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("7H", 7, 2), ("AS", 1, 3), ("KC", 13, 0), ("TD", 10, 1), ("QH", 12, 2), ("JS", 11, 3), ("2C", 2, 0)],
)
def test_rank_and_suit_fields(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit, card.copy) == (rank, suit, 0)
    assert card.face == suit * 13 + rank - 1


@pytest.mark.parametrize("text", ["10C", "10c", "tc", "Tc", " TC ", "10♣", "10♣\ufe0f", "♣10", "♣\ufe0f10"])
def test_ten_spellings(text: str) -> None:
    assert str(parse_card(text)) == "TC"


@pytest.mark.parametrize(
    ("symbol", "letter"),
    [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")],
)
@pytest.mark.parametrize("selector", ["", "\ufe0f"])
def test_suit_symbols(symbol: str, letter: str, selector: str) -> None:
    assert str(parse_card("7" + symbol + selector)) == "7" + letter
    assert str(parse_card("a" + symbol + selector)) == "A" + letter
    # The rules documents write the symbol first (♠️4, ♥️10).
    assert str(parse_card(symbol + selector + "4")) == "4" + letter
    assert str(parse_card(symbol + selector + "10")) == "T" + letter


def test_parse_seed_notation() -> None:
    hand = parse("♠️4 ♠️5 ♦️K ♦️9 ♣️2 ♥️Q ♥️J ♥️10 ♣️7 ♦️7")
    assert format_cards(hand) == "4S 5S KD 9D 2C QH JH TH 7C 7D"


@pytest.mark.parametrize("text", ["jk", "Jk", "JK", "joker", "Joker"])
def test_joker_spellings(text: str) -> None:
    assert parse_card(text) is Card(0, 4)


@pytest.mark.parametrize("text", ["1H", "11H", "7X", "H7", "7", "H", "", "ZZ", "7HH", "0C", "JK7", "7 H", "♥"])
def test_bad_text_is_refused_naming_the_token(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    message = str(info.value)
    assert repr(text) in message
    assert "expected" in message


def test_parse_error_names_the_bad_token_in_a_list() -> None:
    with pytest.raises(CardError, match="'7X'"):
        parse("7H 8H 7X 9H")
    with pytest.raises(CardError, match="'QQ'"):
        parse(["7H", "QQ"])


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_parse_separators_and_iterables() -> None:
    assert format_cards(parse("7H,8H, 9H  TH")) == "7H 8H 9H TH"
    assert format_cards(parse(["7h", "10h"])) == "7H TH"
    assert parse("") == []
    assert parse("   ") == []


def test_parse_duplicates_get_increasing_copies() -> None:
    first, second = parse("7H 7H")
    assert first is not second
    assert first.face == second.face
    assert (first.copy, second.copy) == (0, 1)
    assert first.id != second.id
    third = parse("7H 8H 7H 7H")
    assert [c.copy for c in third] == [0, 0, 1, 2]
    jokers = parse("JK JK JK")
    assert [c.copy for c in jokers] == [0, 1, 2]
    assert len({c.id for c in jokers}) == 3


def test_parse_copies_count_faces_not_spellings() -> None:
    cards = parse("TC 10c ♣10")
    assert [c.copy for c in cards] == [0, 1, 2]


def test_format_cards_sorting() -> None:
    cards = parse("KS 2C JK 7H AC 7H")
    assert format_cards(cards) == "KS 2C JK 7H AC 7H"
    assert format_cards(cards, sort=True) == "AC 2C 7H 7H KS JK"
    assert format_cards([]) == ""


def test_repr_shows_copy() -> None:
    assert repr(Card(7, 2)) == "Card('7H')"
    assert repr(Card(7, 2, 1)) == "Card('7H', copy=1)"


# -- identity and immutability -----------------------------------------------------------------------


def test_equal_cards_are_the_same_object() -> None:
    assert Card(7, 2, 0) is Card(7, 2, 0)
    assert Card(7, 2) is Card(7, 2, 0)
    assert Card(7, 2, 1) is not Card(7, 2, 0)
    assert Card(7, 2, 1) != Card(7, 2, 0)
    assert parse_card("7H") is Card(7, 2, 0)
    assert parse_card("7H", copy=3) is Card(7, 2, 3)
    assert hash(Card(7, 2)) == hash(Card(7, 2))
    assert len({Card(7, 2), Card(7, 2), Card(7, 2, 1)}) == 2


def test_card_ids() -> None:
    assert Card(1, 0).id == 0
    assert Card(13, 3).id == 51
    assert Card(0, 4).id == JOKER_FACE
    assert Card(1, 0, 1).id == 53
    assert Card(0, 4, 2).id == 2 * 53 + 52


@pytest.mark.parametrize("name", ["rank", "suit", "copy", "face", "id", "other"])
def test_card_is_immutable(name: str) -> None:
    card = Card(7, 2)
    with pytest.raises(AttributeError):
        setattr(card, name, 3)
    assert (card.rank, card.suit, card.copy, card.face) == (7, 2, 0, 32)


def test_card_has_no_instance_dict() -> None:
    assert not hasattr(Card(7, 2), "__dict__")


@pytest.mark.parametrize("card", [Card(7, 2), Card(1, 0, 1), Card(13, 3, 5), Card(0, 4), Card(0, 4, 3)])
def test_pickle_and_copy_keep_identity(card: Card) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(card, protocol=protocol)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    hand = [card, Card(5, 1)]
    assert pickle.loads(pickle.dumps(hand)) == hand


@pytest.mark.parametrize(
    ("rank", "suit", "copy_"),
    [(0, 0, 0), (14, 0, 0), (5, 5, 0), (5, -1, 0), (3, 4, 0), (5, 0, -1), (0, 4, -1)],
)
def test_impossible_cards_are_refused(rank: int, suit: int, copy_: int) -> None:
    with pytest.raises(CardError):
        Card(rank, suit, copy_)


def test_card_from_face() -> None:
    for face in range(52):
        card = card_from_face(face)
        assert card.face == face and card.copy == 0
    assert card_from_face(JOKER_FACE) is Card(0, 4)
    assert card_from_face(10, copy=2) is Card(11, 0, 2)
    for bad in (-1, 53, 100):
        with pytest.raises(CardError):
            card_from_face(bad)


def test_ordering_is_by_face_then_copy() -> None:
    cards = [Card(0, 4), Card(7, 2, 1), Card(7, 2), Card(1, 3), Card(13, 0)]
    assert sorted(cards) == [Card(13, 0), Card(7, 2), Card(7, 2, 1), Card(1, 3), Card(0, 4)]


def test_order_key_sorts_as_comparison_does() -> None:
    """``order`` (the meld search's sort key) orders cards by face, then copy, as ``<`` does."""
    deck = build_deck(3, 4)
    random.Random(5).shuffle(deck)
    by_key = sorted(deck, key=operator.attrgetter("order"))
    assert by_key == sorted(deck) == sorted(deck, key=lambda c: (c.face, c.copy))
    assert len({c.order for c in deck}) == len(deck)
    assert Card(13, 3, 1).order < Card(0, 4).order  # a second king of spades before the first joker
    for bad_copy in (-1, 2**32):
        with pytest.raises(CardError, match="a card copy is 0 to 4,294,967,295"):
            Card(7, 2, bad_copy)


# -- decks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 2), (2, 0), (2, 4), (3, 1)])
def test_build_deck(decks: int, jokers: int) -> None:
    deck = build_deck(decks, jokers)
    assert len(deck) == 52 * decks + jokers
    assert len({c.id for c in deck}) == len(deck)
    assert len(set(deck)) == len(deck)
    assert sum(c.is_joker for c in deck) == jokers
    for face in range(52):
        assert sorted(c.copy for c in deck if c.face == face) == list(range(decks))
    assert sorted(c.copy for c in deck if c.is_joker) == list(range(jokers))
    assert build_deck(decks, jokers) == deck  # a fixed order


def test_build_deck_default_is_one_plain_deck() -> None:
    deck = build_deck()
    assert len(deck) == 52
    assert {str(c) for c in deck} == set(ALL_NOTATION[:-1])


def test_build_deck_needs_a_deck() -> None:
    with pytest.raises(ValueError):
        build_deck(0)
