"""``Variant.deadwood`` and ``Variant.arrange`` from what a user holds (texts, cards, one text): the same answers
as the search on parsed, validated cards, for every variant, and errors that say what was expected."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rummykit
from rummykit.cards import Card, CardError, build_deck, card_from_face, parse
from rummykit.melds import Arrangement


@pytest.fixture(scope="module")
def gin() -> rummykit.Variant:
    return rummykit.load_variant("gin")


def reference(variant: rummykit.Variant, cards: list[Card]) -> Arrangement:
    """The arrangement the long way: the cards as they are, the search's general walk where it can be used
    (exact, not the bit tables), else its own arrange with the one-deck shortcut out of the way."""
    search = variant.meld_search
    if not search.rules.wild_faces and not any(c.is_joker for c in cards) and len(cards) <= 13:
        return search._arrange_exhaustive(cards)
    return search.arrange(list(cards))


def assert_sound(variant: rummykit.Variant, cards: list[Card], found: Arrangement) -> None:
    """The melds are valid, melds and deadwood hold every card once, and the value is the deadwood's."""
    search = variant.meld_search
    for meld in found.melds:
        assert search.meld(list(meld.cards)) is not None, str(meld)
    assert Counter(c.id for c in found.melded + found.deadwood) == Counter(c.id for c in cards)
    assert found.deadwood_value == sum(variant.value(c) for c in found.deadwood)
    assert list(found.deadwood) == sorted(found.deadwood)


def test_gin_deadwood_equals_arrange_on_many_random_hands(gin: rummykit.Variant) -> None:
    rng = random.Random(15)
    for round_number in range(3000):
        size = rng.choice((0, 1, 3, 7, 10, 10, 10, 11, 13))
        cards = [card_from_face(f) for f in rng.sample(range(52), size)]
        texts = [str(c) for c in cards]
        value = gin.deadwood(texts)
        assert gin.deadwood(cards) == value
        assert gin.deadwood(" ".join(texts)) == value
        assert gin.deadwood(tuple(cards)) == value
        found = gin.arrange(texts)
        assert found.deadwood_value == value
        assert gin.arrange(cards) == found == gin.arrange(" ".join(texts))
        if round_number % 10 == 0:  # the exhaustive walk is slow: a tenth of the hands
            assert reference(gin, cards).deadwood_value == value
            assert_sound(gin, cards, found)


@pytest.mark.parametrize("name", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_every_variant_deadwood_equals_arrange(name: str) -> None:
    # Hands from the variant's own deck at its largest player count: duplicates and wild cards included.
    variant = rummykit.load_variant(name)
    deck = build_deck(variant._decks, variant._jokers)
    rng = random.Random(name)
    for _ in range(150):
        cards = rng.sample(deck, rng.choice((3, 7, 10, 11)))
        found = variant.arrange(cards)
        assert variant.deadwood(cards) == found.deadwood_value
        assert_sound(variant, cards, found)
        assert reference(variant, cards).deadwood_value == found.deadwood_value
        # the same hand as texts: copies are renumbered, the answer is the same
        texts = [str(c) for c in cards]
        assert variant.deadwood(texts) == found.deadwood_value == variant.deadwood(" ".join(texts))
        assert variant.arrange(texts).deadwood_value == found.deadwood_value


def test_other_spellings_and_mixed_lists(gin: rummykit.Variant) -> None:
    hand = "2S 3S 4S QD QH QC 8C KH 5D TS"
    expected = gin.arrange(hand)
    assert expected.deadwood_value == 33
    spelled = ["2s", "3♠", "♠4", "qd", "Q♥", "qc", "8C", "kh", "5d", "10S"]
    assert gin.deadwood(spelled) == 33
    assert gin.arrange(spelled) == expected
    mixed: list[Card | str] = [*parse("2S 3S 4S"), "QD", "QH", "QC", "8C", "KH", "5D", "TS"]
    assert gin.deadwood(mixed) == 33
    assert gin.arrange(mixed) == expected
    assert gin.deadwood(iter(hand.split())) == 33  # any iterable
    assert gin.deadwood("2S,3S,4S, QD QH QC 8C KH 5D TS") == 33
    assert gin.deadwood([]) == 0 and gin.deadwood("") == 0


def test_arrangements_from_texts_hold_the_usual_cards(gin: rummykit.Variant) -> None:
    found = gin.arrange("KH 2S QD 3S QH 4S QC 8C 5D TS")
    assert [str(m) for m in found.melds] == ["QC QD QH", "2S 3S 4S"]
    assert " ".join(map(str, found.deadwood)) == "8C 5D KH TS"
    assert all(c is card_from_face(c.face) for c in found.melded + found.deadwood)
    # melds are shared between answers (they are immutable); each answer is its own
    again = gin.arrange("QC QD QH 2S 3S 4S AC AD AH 9S")
    assert next(m for m in again.melds if str(m) == "QC QD QH") is found.melds[0]


def test_two_decks_and_wild_cards_go_the_long_way() -> None:
    rum = rummykit.load_variant("500-rum")
    assert rum.deadwood("7S 7S 7H") == 0
    assert rum.deadwood(["7S", "7S", "7H", "KD"]) == rum.arrange("7S 7S 7H KD").deadwood_value
    second = Card(7, 3, copy=1)
    assert rum.deadwood([Card(7, 3), second, "7H"]) == 0


@pytest.mark.parametrize("call", ["deadwood", "arrange"])
@pytest.mark.parametrize(
    ("hand", "error", "message"),
    [
        ("7S 7S 7H", ValueError, "gin: {call}: the hand names 7S twice, but the deck holds it once"),
        (["7S", "7S", "7H"], ValueError, "gin: {call}: the hand names 7S twice, but the deck holds it once"),
        ("JK 7S 7H", ValueError, "gin: {call}: the hand names JK once, but the deck holds no such card"),
        (
            "7S 8S XS",
            CardError,
            "gin: {call}: 'XS' is not a card: expected a rank (A 2-9 T/10 J Q K) followed by a suit "
            "(C D H S or ♣ ♦ ♥ ♠), e.g. '7H' or 'TC', or 'JK' for a joker",
        ),
        (
            ["7S", 8, "9S"],
            TypeError,
            "gin: {call}: 8 (int) is not a card: expected a card text such as '7H' or 'TC', or a rummykit Card",
        ),
        (
            ["7S", None],
            TypeError,
            "gin: {call}: None (NoneType) is not a card: expected a card text such as '7H' or 'TC', or a rummykit Card",
        ),
        (
            7,
            TypeError,
            "gin: {call}: expected the cards as one text ('7S 7H 7D') or a list of cards, not int",
        ),
    ],
)
def test_bad_hands_say_what_was_expected(
    gin: rummykit.Variant, call: str, hand: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        getattr(gin, call)(hand)
    assert str(raised.value) == message.format(call=call)


@pytest.mark.parametrize("call", ["deadwood", "arrange"])
def test_the_same_card_twice(gin: rummykit.Variant, call: str) -> None:
    seven = Card(7, 3)
    with pytest.raises(ValueError, match="7S twice, but the deck holds it once"):
        getattr(gin, call)([seven, seven, Card(7, 2)])
    with pytest.raises(ValueError, match="7S twice, but the deck holds it once"):
        getattr(gin, call)([seven, "7S", "7H"])  # a text and the card it names
    with pytest.raises(ValueError, match=r"gin: .*: the hand holds 7S copy 1, but the deck holds it once"):
        getattr(gin, call)([Card(7, 3, copy=1), "7H", "7D"])  # a second deck's card in a one-deck game
    rum = rummykit.load_variant("500-rum")  # two decks: the same card object twice is still one card
    with pytest.raises(ValueError, match=r"500-rum: .*: the hand holds the same 7S \(copy 0\) twice"):
        getattr(rum, call)([seven, seven, "7H"])
