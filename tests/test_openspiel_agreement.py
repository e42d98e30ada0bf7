"""rummykit's Gin deadwood agrees with OpenSpiel's GinRummyUtils.min_deadwood (C++) on seeded hands.

OpenSpiel (``open_spiel`` on PyPI, module ``pyspiel``) is in the ``test`` and ``peers`` extras where it has a
wheel (Linux x86_64, Python 3.11+); elsewhere these tests are skipped. Not timed: the timings are
``benchmarks/run.py``.

OpenSpiel numbers its cards ``suit * 13 + rank - 1`` with suits ordered ``s c d h``; rummykit's faces use
``C D H S``. For an 11-card hand OpenSpiel's ``min_deadwood`` keeps the arrangement that melds the most
points and then drops that arrangement's highest deadwood card, which is not always the best discard
(see ``test_openspiel_eleven_card_shortcut``), so the 11-card comparison is with the least of OpenSpiel's
10-card answers over every discard.
"""

from __future__ import annotations

import random

import pytest

import rummykit
from rummykit.cards import card_from_face, parse

pyspiel = pytest.importorskip("pyspiel")

HANDS = 3000


def openspiel_card(face: int) -> int:
    return ((face // 13 + 1) % 4) * 13 + face % 13


@pytest.fixture(scope="module")
def utils():  # type: ignore[no-untyped-def]
    gin = pyspiel.gin_rummy
    return gin.GinRummyUtils(gin.DEFAULT_NUM_RANKS, gin.DEFAULT_NUM_SUITS, gin.DEFAULT_HAND_SIZE)


@pytest.fixture(scope="module")
def gin() -> rummykit.Variant:
    return rummykit.load_variant("gin")


def hands(seed: int, size: int, count: int = HANDS) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def test_card_encoding(utils) -> None:  # type: ignore[no-untyped-def]
    for text in ("AC", "7D", "TH", "KS", "AS", "QC"):
        (card,) = parse(text)
        assert utils.card_string(openspiel_card(card.face)) == text[0] + text[1].lower()


def test_ten_card_deadwood_agrees(utils, gin: rummykit.Variant) -> None:  # type: ignore[no-untyped-def]
    differ = []
    for faces in hands(6_010, 10):
        cards = [card_from_face(f) for f in faces]
        ours = gin.meld_search.deadwood(cards)
        theirs = utils.min_deadwood([openspiel_card(f) for f in faces])
        if ours != theirs:
            differ.append((rummykit.cards.format_cards(cards, sort=True), ours, theirs))
    assert not differ, differ[:5]


def test_ten_card_arrangement_agrees(utils, gin: rummykit.Variant) -> None:  # type: ignore[no-untyped-def]
    for faces in hands(6_020, 10, 500):
        cards = [card_from_face(f) for f in faces]
        arrangement = gin.arrange(cards)
        assert arrangement.deadwood_value == utils.min_deadwood([openspiel_card(f) for f in faces])
        assert sum(gin.value(c) for c in arrangement.deadwood) == arrangement.deadwood_value
        assert sorted(arrangement.melded + arrangement.deadwood) == sorted(cards)


def test_eleven_card_best_discard_agrees(utils, gin: rummykit.Variant) -> None:  # type: ignore[no-untyped-def]
    differ = []
    for faces in hands(6_011, 11):
        cards = [card_from_face(f) for f in faces]
        ours = min(gin.meld_search.discard_deadwoods(cards))
        theirs_each = [utils.min_deadwood([openspiel_card(f) for f in faces[:i] + faces[i + 1 :]]) for i in range(11)]
        assert gin.meld_search.discard_deadwoods(cards) == theirs_each
        if ours != min(theirs_each):
            differ.append((rummykit.cards.format_cards(cards, sort=True), ours, min(theirs_each)))
    assert not differ, differ[:5]


@pytest.mark.parametrize(
    ("hand", "best", "openspiel"),
    [
        # Melds 4H-7H and 6C 6D 6S (40 points), drops the highest of 5C 5D AH 2H: 8. Melding 5C 5D 5H and
        # the four sixes (39) leaves AH 2H 4H 7H; discarding 7H leaves 7.
        ("5C 6C 5D 6D AH 2H 4H 5H 6H 7H 6S", 7, 8),
        # A tie at 54 melded points: the eights and tens leave 6C 7C 9D 9H AS (drop a 9: 23); the two runs
        # leave 6C 7C AS 8S TS (drop TS: 22). Found among the benchmark's 100,000 seeded hands.
        ("6C 7C 8D 9D TD 8H 9H TH AS 8S TS", 22, 23),
    ],
)
def test_openspiel_eleven_card_shortcut(utils, gin: rummykit.Variant, hand: str, best: int, openspiel: int) -> None:  # type: ignore[no-untyped-def]
    """OpenSpiel's 11-card ``min_deadwood`` keeps the first arrangement melding the most points and drops its
    highest deadwood card, which is not always the best discard; rummykit and the least of OpenSpiel's own
    10-card answers agree on the best."""
    cards = parse(hand)
    faces = [c.face for c in cards]
    each = [utils.min_deadwood([openspiel_card(f) for f in faces[:i] + faces[i + 1 :]]) for i in range(11)]
    assert min(gin.meld_search.discard_deadwoods(cards)) == min(each) == best
    assert utils.min_deadwood([openspiel_card(f) for f in faces]) == openspiel
