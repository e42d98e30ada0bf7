"""Melds: validation, lay-offs (extend) and the least-deadwood search, by example and by property."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummykit
from rummykit.cards import JOKER_FACE, Card, build_deck, card_from_face, parse
from rummykit.melds import Arrangement, Meld, MeldRules, MeldSearch, SpecialMeld

GIN_VALUES: list[int] = [min(face % 13 + 1, 10) for face in range(52)] + [25]
TWOS = frozenset(suit * 13 + 1 for suit in range(4))
"""The four 2s, as wild faces."""


def make(values: Sequence[int] = GIN_VALUES, **rules: object) -> MeldSearch:
    return MeldSearch(MeldRules(**rules), values)  # type: ignore[arg-type]


def shown(meld: Meld | None) -> str | None:
    return None if meld is None else str(meld)


def faces_of(cards: Sequence[Card]) -> list[int]:
    return sorted(c.face for c in cards)


@pytest.fixture(scope="module")
def gin() -> rummykit.Variant:
    return rummykit.load_variant("gin")


# == validation ========================================================================================


def test_gin_meld_rules_come_from_the_ruleset(gin: rummykit.Variant) -> None:
    rules = gin.meld_search.rules
    assert (rules.sets, rules.runs, rules.set_min, rules.set_max, rules.run_min, rules.run_max) == (
        True,
        True,
        3,
        4,
        3,
        None,
    )
    assert rules.ace == "low"
    assert rules.wild_faces == frozenset()
    assert list(gin.meld_search.values) == GIN_VALUES[:52] + [0]


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        ("7H 7S 7D", "set"),
        ("7H 7S 7D 7C", "set"),
        ("AH AS AD", "set"),
        ("9C TC JC", "run"),
        ("AH 2H 3H", "run"),
        ("8H 9H TH JH", "run"),
        ("AS 2S 3S 4S 5S", "run"),
        ("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "run"),
        ("JH 9H TH", "run"),  # order given does not matter
    ],
)
def test_gin_valid_melds(gin: rummykit.Variant, hand: str, kind: str) -> None:
    meld = gin.meld_search.meld(parse(hand))
    assert meld is not None
    assert meld.kind == kind
    assert meld.wilds == 0
    assert sorted(meld.cards) == sorted(parse(hand))
    if kind == "run":
        assert list(meld.ranks) == sorted(meld.ranks)
        assert meld.ranks == tuple(range(meld.ranks[0], meld.ranks[0] + len(meld)))
        assert [c.rank for c in meld.cards] == list(meld.ranks)
        assert meld.suit == meld.cards[0].suit
    else:
        assert meld.suit is None
        assert set(meld.ranks) == {meld.cards[0].rank}


@pytest.mark.parametrize(
    "hand",
    [
        "7H 7S",  # too short
        "7H 8H",
        "7H 7S 7D 7C 7H",  # five with set_max 4 (two copies of 7H)
        "7H 7H 7S 7D 7C",
        "QH KH AH",  # ace low only
        "KH AH 2H",  # round the corner
        "7H 8H 9S",  # mixed suits
        "7H 8H TH",  # gap
        "7H 7S 8D",
        "7H 8H 9H 9S",
        "JK JK JK",  # no jokers in gin
        "7H 8H JK",
        "",
    ],
)
def test_gin_invalid_melds(gin: rummykit.Variant, hand: str) -> None:
    assert gin.meld_search.meld(parse(hand)) is None


def test_run_order_and_ranks() -> None:
    meld = make().meld(parse("JH 9H TH"))
    assert meld is not None
    assert str(meld) == "9H TH JH"
    assert meld.ranks == (9, 10, 11)
    assert len(meld) == 3


def test_kind_restricts_the_answer() -> None:
    search = make()
    assert search.meld(parse("7H 7S 7D"), kind="set") is not None
    assert search.meld(parse("7H 7S 7D"), kind="run") is None
    assert search.meld(parse("7H 8H 9H"), kind="set") is None
    assert search.meld(parse("7H 8H 9H"), kind="run") is not None


def test_sets_and_runs_can_be_switched_off() -> None:
    assert make(sets=False).meld(parse("7H 7S 7D")) is None
    assert make(sets=False).meld(parse("7H 8H 9H")) is not None
    assert make(runs=False).meld(parse("7H 8H 9H")) is None
    assert make(runs=False).meld(parse("7H 7S 7D")) is not None


def test_set_sizes() -> None:
    assert make(set_min=2).meld(parse("7H 7S")) is not None
    assert make(set_max=3).meld(parse("7H 7S 7D 7C")) is None
    no_max = make(set_max=None)
    assert shown(no_max.meld(parse("7H 7H 7S 7D 7C"))) == "7C 7D 7H 7H 7S"
    assert shown(no_max.meld(parse("7H 7H 7S 7S 7D 7D 7C 7C"))) == "7C 7C 7D 7D 7H 7H 7S 7S"
    assert make(set_max=5).meld(parse("7H 7H 7S 7S 7D 7D")) is None
    # Two copies of one card may share a set, unless sets need distinct suits.
    assert make().meld(parse("7H 7H 7S")) is not None
    assert make(set_distinct_suits=True).meld(parse("7H 7H 7S")) is None
    assert make(set_distinct_suits=True).meld(parse("7H 7D 7S")) is not None
    assert make(set_distinct_suits=True, set_max=None).meld(parse("7H 7D 7S 7C 7C")) is None


def test_run_lengths() -> None:
    assert make(run_min=4).meld(parse("7H 8H 9H")) is None
    assert make(run_min=4).meld(parse("7H 8H 9H TH")) is not None
    assert make(run_max=4).meld(parse("7H 8H 9H TH JH")) is None
    assert make(run_max=4).meld(parse("7H 8H 9H TH")) is not None
    # Two copies of one card never sit in one run.
    assert make(set_max=None).meld(parse("7H 7H 8H 9H")) is None


def test_ace_low() -> None:
    search = make(ace="low")
    assert search.meld(parse("AH 2H 3H")) is not None
    assert search.meld(parse("QH KH AH")) is None
    assert search.meld(parse("KH AH 2H")) is None


def test_ace_high() -> None:
    search = make(ace="high")
    assert search.meld(parse("AH 2H 3H")) is None
    meld = search.meld(parse("AH QH KH"))
    assert meld is not None
    assert str(meld) == "QH KH AH"
    assert meld.ranks == (12, 13, 14)
    assert search.meld(parse("KH AH 2H")) is None


def test_ace_both_never_round_the_corner() -> None:
    search = make(ace="both")
    low = search.meld(parse("AH 2H 3H"))
    high = search.meld(parse("QH KH AH"))
    assert low is not None and low.ranks == (1, 2, 3)
    assert high is not None and high.ranks == (12, 13, 14)
    for hand in ("KH AH 2H", "QH KH AH 2H", "KH AH 2H 3H", "JH QH KH AH 2H 3H"):
        assert search.meld(parse(hand)) is None, hand
    # A full suit is a run with the ace at one end, never at both.
    full = search.meld(parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))
    assert full is not None and len(full) == 13
    assert full.ranks in (tuple(range(1, 14)), tuple(range(2, 15)))
    # Two aces of one suit never sit in one run, even Q-K-A plus A-2-3.
    assert make(ace="both", set_max=None).meld(parse("QH KH AH AH 2H 3H")) is None


def test_ace_both_from_a_ruleset_with_wilds() -> None:
    search = make(ace="both", wild_faces=TWOS)
    meld = search.meld(parse("QH KH 2C"))
    assert meld is not None and meld.kind == "run" and meld.wilds == 1
    assert meld.ranks in ((11, 12, 13), (12, 13, 14))
    assert search.meld(parse("KH 2C 2D")) is not None  # K with two wilds: J-Q-K or Q-K-A
    assert search.meld(parse("KH 2C 3H")) is None  # K-A-2... would go round the corner
    assert shown(search.meld(parse("AH 2C 3H"))) == "AH 2C 3H"


# -- wild cards -------------------------------------------------------------------------------------


def test_wild_fills_a_gap() -> None:
    search = make(wild_faces=TWOS)
    meld = search.meld(parse("5H 2C 7H"))
    assert meld is not None
    assert meld.kind == "run" and meld.suit == 2 and meld.wilds == 1
    assert str(meld) == "5H 2C 7H"
    assert meld.ranks == (5, 6, 7)  # the 2 stands for 6H


@pytest.mark.parametrize("hand", ["5H 6H 2C", "2C 5H 6H", "2C 6H 7H 8H", "6H 7H 8H 2D"])
def test_wild_at_either_end(hand: str) -> None:
    meld = make(wild_faces=TWOS).meld(parse(hand))
    assert meld is not None and meld.kind == "run" and meld.wilds == 1
    natural = sorted(c.rank for c in meld.cards if c.rank != 2)
    assert set(natural) <= set(meld.ranks)
    assert meld.ranks == tuple(range(meld.ranks[0], meld.ranks[0] + len(meld)))


def test_wild_at_the_top_of_a_low_ace_suit_goes_below() -> None:
    meld = make(wild_faces=TWOS).meld(parse("QH KH 2C"))
    assert meld is not None and meld.ranks == (11, 12, 13)
    assert str(meld) == "2C QH KH"


def test_wild_in_a_set() -> None:
    meld = make(wild_faces=TWOS).meld(parse("7H 7S 2C"))
    assert meld is not None and meld.kind == "set" and meld.wilds == 1
    assert meld.ranks == (7, 7, 7)


def test_max_wilds() -> None:
    one = make(wild_faces=TWOS, max_wilds=1)
    assert one.meld(parse("5H 2C 7H")) is not None
    assert one.meld(parse("5H 2C 2D")) is None
    assert one.meld(parse("5H 2C 2D 8H")) is None
    assert one.meld(parse("7H 2C 2D")) is None
    assert one.meld(parse("7H 7S 2C 2D")) is None
    many = make(wild_faces=TWOS)
    assert many.meld(parse("5H 2C 2D 8H")) is not None
    assert many.meld(parse("7H 7S 2C 2D")) is not None
    none_ = make(wild_faces=TWOS, max_wilds=0)
    assert none_.meld(parse("5H 2C 7H")) is None


def test_a_meld_needs_a_natural_card_unless_wild_sets() -> None:
    assert make(wild_faces=TWOS).meld(parse("2C 2D 2H")) is None
    wild_sets = make(wild_faces=TWOS, wild_sets=True)
    meld = wild_sets.meld(parse("2C 2D 2H"))
    assert meld is not None and meld.kind == "wild-set"
    assert wild_sets.meld(parse("2C 2D")) is None
    assert wild_sets.meld(parse("2C 2D 2H 2S")) is not None
    assert wild_sets.meld(parse("2C 2D 2H 2S 2C")) is None  # set_max 4
    # A wild set is of one rank: 2s with a wild joker are not a wild set.
    mixed = make(wild_faces=TWOS | {JOKER_FACE}, wild_sets=True)
    assert mixed.meld(parse("2C 2D JK")) is None
    assert shown(mixed.meld(parse("JK JK JK"))) == "JK JK JK"


def test_wild_jokers() -> None:
    search = make(wild_faces=frozenset({JOKER_FACE}))
    meld = search.meld(parse("7H JK 9H"))
    assert meld is not None and meld.kind == "run" and meld.ranks == (7, 8, 9)
    assert search.meld(parse("7H 7S JK")) is not None
    assert search.meld(parse("JK JK JK")) is None


def test_joker_sets() -> None:
    search = make(joker_sets=True)
    meld = search.meld(parse("JK JK JK"))
    assert meld is not None and meld.kind == "joker-set"
    assert search.meld(parse("JK JK JK JK")) is not None
    assert search.meld(parse("JK JK")) is None
    # Non-wild jokers meld only with each other.
    for hand in ("JK JK 7H", "JK 7H 8H", "JK 7H 7S", "7H 8H 9H JK"):
        assert search.meld(parse(hand)) is None, hand
    assert make().meld(parse("JK JK JK")) is None


def test_excluded_ranks() -> None:
    search = make(excluded_ranks=frozenset({1}), ace="both")
    for hand in ("AH AS AD", "AH 2H 3H", "QH KH AH"):
        assert search.meld(parse(hand)) is None, hand
    assert search.meld(parse("2H 3H 4H")) is not None
    assert search.meld(parse("JH QH KH")) is not None


def test_excluded_ace_is_not_stood_for_by_a_wild() -> None:
    search = make(excluded_ranks=frozenset({1}), ace="both", wild_faces=TWOS)
    meld = search.meld(parse("QH KH 2C"))
    assert meld is not None and meld.ranks == (11, 12, 13)
    # Every natural card from 3 to K plus one wild: the wild may only stand for the 2.
    meld = search.meld(parse("3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2C"))
    assert meld is not None and meld.ranks == tuple(range(2, 14))
    assert search.meld(parse("3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2C 2D")) is None


ICEBERG_HIGH = SpecialMeld(
    "odd-run", (tuple(faces_of(parse("3C 5C 7C 9C JC KC"))), tuple(faces_of(parse("3D 5D 7D 9D JD KD"))))
)


def test_special_meld() -> None:
    search = make(specials=(ICEBERG_HIGH,), excluded_ranks=frozenset({1}))
    meld = search.meld(parse("KC 3C 5C 9C 7C JC"))
    assert meld is not None
    assert meld.kind == "odd-run"
    assert str(meld) == "3C 5C 7C 9C JC KC"
    assert search.meld(parse("3D 5D 7D 9D JD KD"), kind="odd-run") is not None
    assert search.meld(parse("3C 5C 7C 9C JC KC"), kind="run") is None
    assert search.meld(parse("3H 5H 7H 9H JH KH")) is None  # not one of the options
    assert search.meld(parse("3C 5C 7C 9C JC")) is None  # laid whole
    assert make().meld(parse("3C 5C 7C 9C JC KC")) is None


def test_special_meld_in_the_search() -> None:
    search = make(specials=(ICEBERG_HIGH,))
    hand = parse("3C 5C 7C 9C JC KC 8H")
    best = search.arrange(hand)
    assert best.deadwood_value == 8
    assert [m.kind for m in best.melds] == ["odd-run"]
    assert search._arrange_general(hand).deadwood_value == 8


# -- extend (lay-offs) ------------------------------------------------------------------------------


def meld_of(search: MeldSearch, text: str) -> Meld:
    meld = search.meld(parse(text))
    assert meld is not None, text
    return meld


def test_fourth_card_onto_a_set(gin: rummykit.Variant) -> None:
    search = gin.meld_search
    sevens = meld_of(search, "7H 7S 7D")
    grown = search.extend(sevens, parse("7C"))
    assert grown is not None and grown.kind == "set" and len(grown) == 4
    assert search.extend(sevens, parse("8C")) is None
    assert search.extend(grown, [Card(7, 0, 1)]) is None  # a fifth: set_max 4


def test_extend_a_set_with_no_maximum() -> None:
    search = make(set_max=None)
    sevens = meld_of(search, "7H 7S 7D 7C")
    grown = search.extend(sevens, [Card(7, 2, 1)])
    assert grown is not None and len(grown) == 5


def test_extend_a_run_at_either_end(gin: rummykit.Variant) -> None:
    search = gin.meld_search
    run = meld_of(search, "9C TC JC")
    low = search.extend(run, parse("8C"))
    high = search.extend(run, parse("QC"))
    assert shown(low) == "8C 9C TC JC"
    assert shown(high) == "9C TC JC QC"
    assert shown(search.extend(run, parse("8C QC KC"))) == "8C 9C TC JC QC KC"
    assert search.extend(run, parse("7C")) is None  # not adjacent
    assert search.extend(run, parse("TC")) is None  # already there (no second copy)
    assert search.extend(run, parse("8D")) is None  # a run stays in its suit
    assert search.extend(run, parse("9S")) is None


def test_extend_chains(gin: rummykit.Variant) -> None:
    search = gin.meld_search
    run = meld_of(search, "JS QS KS")
    assert search.extend(run, parse("9S")) is None
    step = search.extend(run, parse("TS"))
    assert step is not None
    chained = search.extend(step, parse("9S"))
    assert shown(chained) == "9S TS JS QS KS"
    assert shown(search.extend(run, parse("9S TS"))) == "9S TS JS QS KS"


def test_extend_runs_stop_at_the_ace(gin: rummykit.Variant) -> None:
    assert gin.meld_search.extend(meld_of(gin.meld_search, "JS QS KS"), parse("AS")) is None
    both = make(ace="both")
    assert shown(both.extend(meld_of(both, "JS QS KS"), parse("AS"))) == "JS QS KS AS"
    assert shown(both.extend(meld_of(both, "2S 3S 4S"), parse("AS"))) == "AS 2S 3S 4S"
    assert both.extend(meld_of(both, "QS KS AS"), parse("2S")) is None


def test_extend_keeps_the_kind() -> None:
    search = make(set_min=2, run_min=2)
    pair = meld_of(search, "7H 7S")
    assert pair.kind == "set"
    assert search.extend(pair, parse("8H")) is None  # 7H 8H would be a run, not the set grown
    run = meld_of(search, "7H 8H")
    assert run.kind == "run"
    assert search.extend(run, parse("7S")) is None


def test_extend_a_wild_run_stays_in_its_suit() -> None:
    search = make(wild_faces=TWOS)
    run = meld_of(search, "5H 2C 7H")
    assert run.suit == 2
    assert shown(search.extend(run, parse("8H"))) == "5H 2C 7H 8H"
    assert search.extend(run, parse("8C")) is None
    assert search.extend(run, parse("6H")) is None  # the 2 holds 6H's place
    grown = search.extend(run, parse("2D"))
    assert grown is not None and grown.wilds == 2 and grown.suit == 2


def test_extend_joker_and_wild_sets() -> None:
    jokers = make(joker_sets=True, set_max=None)
    three = meld_of(jokers, "JK JK JK")
    grown = jokers.extend(three, [Card(0, 4, 3)])
    assert grown is not None and grown.kind == "joker-set"
    assert jokers.extend(three, parse("7H")) is None
    twos = make(wild_faces=TWOS, wild_sets=True)
    wild_set = meld_of(twos, "2C 2D 2H")
    assert wild_set.kind == "wild-set"
    assert twos.extend(wild_set, parse("2S")) is not None
    assert twos.extend(wild_set, parse("7S")) is None


def test_extend_refuses_a_special_meld() -> None:
    search = make(specials=(ICEBERG_HIGH,))
    special = meld_of(search, "3C 5C 7C 9C JC KC")
    assert search.extend(special, parse("QC")) is None
    assert search.extend(special, parse("AC")) is None
    assert search.extend(special, []) is None


# == search: worked examples ==========================================================================


def test_seed_001_drawing_the_six_of_spades(gin: rummykit.Variant) -> None:
    hand = parse("♠4 ♠5 ♦K ♦9 ♣2 ♥Q ♥J ♥10 ♣7 ♦7")
    before = gin.meld_search.arrange(hand)
    assert before.deadwood_value == 44  # only the heart run
    assert [str(m) for m in before.melds] == ["TH JH QH"]
    after = gin.meld_search.arrange(hand + parse("6S"))
    assert sorted(str(m) for m in after.melds) == ["4S 5S 6S", "TH JH QH"]
    assert after.deadwood_value == 35
    assert sorted(str(c) for c in after.deadwood) == ["2C", "7C", "7D", "9D", "KD"]
    # Out goes the king, the most expensive loose card: 25 left.
    eleven = hand + parse("6S")
    after_discards = gin.meld_search.discard_deadwoods(eleven)
    best = min(after_discards)
    assert best == 25
    assert [str(c) for c, v in zip(eleven, after_discards) if v == best] == ["KD"]


def test_seed_001_the_seven_of_hearts_in_only_one_meld(gin: rummykit.Variant) -> None:
    search = gin.meld_search
    best = search.arrange(parse("7H 7S 7D 8H 9H"))
    assert len(best.melds) == 1
    assert best.deadwood_value == 14  # the heart run, leaving 7S 7D (the set would leave 8H 9H: 17)
    assert str(best.melds[0]) == "7H 8H 9H"
    # One more card makes both: a 7 or the 10 of hearts.
    assert search.deadwood(parse("7H 7S 7D 8H 9H 7C")) == 0
    assert search.deadwood(parse("7H 7S 7D 8H 9H TH")) == 0
    assert len(search.arrange(parse("7H 7S 7D 8H 9H TH")).melds) == 2


def test_seed_001_knock_example(gin: rummykit.Variant) -> None:
    knocker = gin.arrange("7S 7H 7D 9C TC JC 3H 4H 5H 8D")
    assert knocker.deadwood_value == 8
    assert [str(c) for c in knocker.deadwood] == ["8D"]
    opponent = gin.arrange("2S 3S 4S QD QH QC 8C KH 5D TS")
    assert opponent.deadwood_value == 33
    club_run = next(m for m in knocker.melds if m.kind == "run" and m.suit == 0)
    assert shown(gin.meld_search.extend(club_run, parse("8C"))) == "8C 9C TC JC"


def test_gin_with_two_five_card_sequences(gin: rummykit.Variant) -> None:
    best = gin.arrange("3C 4C 5C 6C 7C 9D TD JD QD KD")
    assert best.deadwood_value == 0
    assert sorted(len(m) for m in best.melds) == [5, 5]
    best = gin.arrange("AS 2S 3S 4S 5S 6H 7H 8H 9H TH")
    assert best.deadwood_value == 0 and len(best.melds) == 2


def test_common_gin_shape_and_empty_hand(gin: rummykit.Variant) -> None:
    best = gin.arrange("7H 7S 7D 7C 2H 3H 4H KS QS JS")
    assert best.deadwood_value == 0
    assert sorted(len(m) for m in best.melds) == [3, 3, 4]
    empty = gin.meld_search.arrange([])
    assert empty == Arrangement((), (), 0)


def test_a_long_run_beats_a_set_when_it_leaves_less(gin: rummykit.Variant) -> None:
    # 5-6-7-8H as a run leaves 5S 5D (10); the set of 5s and 6-7-8H leave nothing.
    assert gin.meld_search.deadwood(parse("5H 6H 7H 8H 5S 5D")) == 0
    # Four 5s would leave 6H 7H (13): better three 5s and 5-6-7H.
    assert gin.meld_search.deadwood(parse("5H 5S 5D 5C 6H 7H")) == 0
    # Only three 5s: the run (leaving 5S 5D, 10) beats the set (leaving 6H 7H, 13).
    assert gin.meld_search.deadwood(parse("5H 5S 5D 6H 7H")) == 10


def test_wild_search_examples() -> None:
    search = make(wild_faces=TWOS, max_wilds=1)
    best = search.arrange(parse("5H 6H 2C 2D 9S 9C"))
    assert best.deadwood_value == 0 and len(best.melds) == 2
    assert all(m.wilds == 1 for m in best.melds)
    # One wild per meld: the second 2 is deadwood.
    assert search.deadwood(parse("5H 6H 2C 2D")) == 2
    assert make(wild_faces=TWOS).deadwood(parse("5H 6H 2C 2D")) == 0


def test_two_decks_search_examples() -> None:
    search = make(set_max=None)
    # One 7H in the set, the other in the run.
    hand = parse("7H 7H 7S 7D 8H 9H")
    best = search.arrange(hand)
    assert best.deadwood_value == 0
    assert sorted(m.kind for m in best.melds) == ["run", "set"]
    assert search.deadwood(parse("7H 8H 9H 7H 8H 9H")) == 0


# == search: properties ===============================================================================

# Hands drawn from a compact pool (low ranks, pictures and aces), so that melds are common.
POOL_RANKS = (1, 2, 3, 4, 5, 11, 12, 13)
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALUE_TABLES: list[list[int]] = [
    GIN_VALUES,
    [5 if 2 <= f % 13 + 1 <= 9 else (15 if f % 13 == 0 else 10) for f in range(52)] + [20],  # 500 Rum
    [(f * 7) % 11 + 1 for f in range(52)] + [3],  # arbitrary, not monotone
]


def pool(decks: int, jokers: int) -> list[Card]:
    return [c for c in build_deck(decks, jokers) if c.is_joker or c.rank in POOL_RANKS]


ODDS = SpecialMeld("odds", (tuple(faces_of(parse("3H 5H JH KH"))),))


def _rule_catalogue(general: bool, count: int) -> list[MeldRules]:
    """The games' own meld rules, plus a fixed random sample of other combinations (a fixed list keeps the
    number of searches to build, the costly part, small)."""
    rng = random.Random(20261130 + general)
    games = [
        MeldRules(),  # gin
        MeldRules(ace="both", set_max=None),  # 500 Rum (two decks allow larger sets)
        MeldRules(ace="both", set_min=2, excluded_ranks=frozenset({1}), specials=(ODDS,)),  # Iceberg-like
    ]
    if general:
        games += [
            MeldRules(ace="both", set_max=None, joker_sets=True),  # Persian
            MeldRules(ace="both", wild_faces=TWOS),  # Fortune
            MeldRules(ace="both", wild_faces=TWOS, wild_sets=True),  # Arlington
            MeldRules(set_max=None, wild_faces=TWOS | {JOKER_FACE}, max_wilds=1, wild_sets=True),  # Skarney
        ]
    while len(games) < count:
        sets, runs = rng.choice([(True, True), (True, True), (True, False), (False, True)])
        wild = rng.choice([frozenset(), TWOS, frozenset({JOKER_FACE}), TWOS | {JOKER_FACE}]) if general else frozenset()
        games.append(
            MeldRules(
                sets=sets,
                runs=runs,
                set_min=rng.choice([3, 3, 2]),
                set_max=rng.choice([4, 3, None]),
                run_min=rng.choice([3, 3, 2, 4]),
                run_max=rng.choice([None, None, 4]),
                ace=rng.choice(["low", "high", "both"]),
                excluded_ranks=rng.choice([frozenset(), frozenset(), frozenset({1}), frozenset({5})]),
                specials=rng.choice([(), (), (ODDS,)]),
                set_distinct_suits=general and rng.random() < 0.3,
                wild_faces=wild,
                max_wilds=rng.choice([None, 1, 2]) if general else None,
                wild_sets=general and rng.random() < 0.5,
                joker_sets=general and rng.random() < 0.5 and JOKER_FACE not in wild,
            )
        )
    return games


SINGLE_DECK_RULES = _rule_catalogue(general=False, count=16)
GENERAL_RULES = _rule_catalogue(general=True, count=32)


_SEARCHES: dict[tuple[MeldRules, int], MeldSearch] = {}


def shared_search(rules: MeldRules, values: int) -> MeldSearch:
    """One search per rules and value table (building the tables is the costly part), shared by examples."""
    key = (rules, values)
    if key not in _SEARCHES:
        _SEARCHES[key] = MeldSearch(rules, VALUE_TABLES[values])
    return _SEARCHES[key]


@st.composite
def single_deck_case(draw: st.DrawFn, max_size: int = 11) -> tuple[MeldSearch, list[Card]]:
    rules = draw(st.sampled_from(SINGLE_DECK_RULES))
    values = draw(st.sampled_from(range(len(VALUE_TABLES))))
    source = draw(st.sampled_from([pool(1, 0), build_deck(1, 0)]))
    hand = draw(st.lists(st.sampled_from(source), unique=True, max_size=max_size))
    return shared_search(rules, values), hand


@st.composite
def general_case(draw: st.DrawFn, max_size: int = 8) -> tuple[MeldSearch, list[Card]]:
    rules = draw(st.sampled_from(GENERAL_RULES))
    values = draw(st.sampled_from(range(len(VALUE_TABLES))))
    decks = draw(st.sampled_from([1, 2]))
    jokers = draw(st.sampled_from([0, 2, 4]))
    hand = draw(st.lists(st.sampled_from(pool(decks, jokers)), unique=True, max_size=max_size))
    return shared_search(rules, values), hand


class Reference:
    """Brute force over one search's rules, using ``meld()`` alone (validity depends only on faces)."""

    def __init__(self, search: MeldSearch):
        self.search = search
        self._valid: dict[tuple[int, ...], bool] = {}
        self._best: dict[tuple[int, ...], int] = {}

    def valid(self, faces: tuple[int, ...]) -> bool:
        hit = self._valid.get(faces)
        if hit is None:
            copies: Counter[int] = Counter()
            cards = []
            for face in faces:
                cards.append(card_from_face(face, copies[face]))
                copies[face] += 1
            hit = self._valid[faces] = self.search.meld(cards) is not None
        return hit

    def deadwood(self, cards: Sequence[Card]) -> int:
        return self.best(tuple(sorted(c.face for c in cards)))

    def best(self, faces: tuple[int, ...]) -> int:
        """The lowest card is deadwood or in some valid meld with other cards of the hand: try every
        such meld (any sub-multiset of the rest)."""
        if not faces:
            return 0
        hit = self._best.get(faces)
        if hit is not None:
            return hit
        first, rest = faces[0], faces[1:]
        result = self.search.values[first] + self.best(rest)
        options = {combo for size in range(1, len(rest) + 1) for combo in itertools.combinations(rest, size)}
        for combo in options:
            if self.valid((first,) + combo):
                left = Counter(rest)
                left.subtract(combo)
                result = min(result, self.best(tuple(sorted(left.elements()))))
        self._best[faces] = result
        return result


def check_arrangement(search: MeldSearch, cards: Sequence[Card], arrangement: Arrangement) -> None:
    """Melds valid, disjoint, melds and deadwood exactly the hand, deadwood value right."""
    ids = [c.id for m in arrangement.melds for c in m.cards] + [c.id for c in arrangement.deadwood]
    assert len(ids) == len(set(ids)), f"a card is used twice in {arrangement}"
    assert sorted(ids) == sorted(c.id for c in cards)
    for meld in arrangement.melds:
        again = search.meld(meld.cards)
        assert again is not None, f"{meld} is not a meld"
        assert len(meld.cards) == len(meld.ranks)
    assert arrangement.deadwood_value == sum(search.values[c.face] for c in arrangement.deadwood)
    assert arrangement.melded == tuple(c for m in arrangement.melds for c in m.cards)


@PROPERTY
@given(single_deck_case())
def test_fast_and_general_paths_agree(case: tuple[MeldSearch, list[Card]]) -> None:
    search, hand = case
    fast = search.arrange(hand)
    general = search._arrange_general(hand)
    assert fast.deadwood_value == general.deadwood_value
    assert search.deadwood(hand) == fast.deadwood_value
    check_arrangement(search, hand, fast)
    check_arrangement(search, hand, general)


@PROPERTY
@given(single_deck_case(max_size=8))
def test_single_deck_search_finds_the_minimum(case: tuple[MeldSearch, list[Card]]) -> None:
    search, hand = case
    assert search.arrange(hand).deadwood_value == Reference(search).deadwood(hand)


@PROPERTY
@given(general_case())
def test_general_search_finds_the_minimum(case: tuple[MeldSearch, list[Card]]) -> None:
    search, hand = case
    best = search.arrange(hand)
    assert best.deadwood_value == Reference(search).deadwood(hand)
    assert search.deadwood(hand) == best.deadwood_value
    check_arrangement(search, hand, best)


@PROPERTY
@given(general_case(max_size=7))
def test_candidate_melds_are_valid_and_complete(case: tuple[MeldSearch, list[Card]]) -> None:
    search, hand = case
    listed = search.candidate_melds(hand)
    keys = [tuple(sorted(c.face for c in m.cards)) for m in listed]
    assert len(keys) == len(set(keys)), "a meld is listed twice"
    ids = {c.id for c in hand}
    for meld in listed:
        assert {c.id for c in meld.cards} <= ids
        assert len({c.id for c in meld.cards}) == len(meld.cards)
        assert search.meld(meld.cards) is not None
    faces = sorted(c.face for c in hand)
    every = {combo for size in range(1, len(faces) + 1) for combo in itertools.combinations(faces, size)}
    reference = Reference(search)
    assert {combo for combo in every if reference.valid(combo)} == set(keys)
    assert [len(m) for m in listed] == sorted((len(m) for m in listed), reverse=True)
    assert search.candidate_melds(hand, limit=2) == listed[:2]


@PROPERTY
@given(st.one_of(single_deck_case(), general_case()))
def test_discard_deadwoods(case: tuple[MeldSearch, list[Card]]) -> None:
    search, hand = case
    after = search.discard_deadwoods(hand)
    assert len(after) == len(hand)
    for i, value in enumerate(after):
        assert value == search.deadwood(hand[:i] + hand[i + 1 :])


@PROPERTY
@given(st.one_of(single_deck_case(max_size=8), general_case(max_size=7)), st.integers(0, 40))
def test_arrangements_within_a_limit(case: tuple[MeldSearch, list[Card]], limit: int) -> None:
    search, hand = case
    optimum = search.deadwood(hand)
    found = search.arrangements(hand, limit)
    for arrangement in found:
        assert arrangement.deadwood_value <= limit
        check_arrangement(search, hand, arrangement)
    if optimum <= limit:
        assert optimum in {a.deadwood_value for a in found}
    else:
        assert found == []
    as_sets = [frozenset(frozenset(c.id for c in m.cards) for m in a.melds) for a in found]
    assert len(as_sets) == len(set(as_sets)), "an arrangement is listed twice"


def test_arrangements_lists_the_alternatives(gin: rummykit.Variant) -> None:
    # 5-5-5, 6-6-6, 7-7-7 as sets or as three runs: both spreads are offered.
    hand = parse("5H 5S 5D 6H 6S 6D 7H 7S 7D 9C")
    zero_or_nine = [a for a in gin.meld_search.arrangements(hand, 9) if a.deadwood_value == 9]
    kinds = {tuple(sorted(m.kind for m in a.melds)) for a in zero_or_nine}
    assert ("set", "set", "set") in kinds
    assert ("run", "run", "run") in kinds
    assert all(a.deadwood_value <= 9 for a in gin.meld_search.arrangements(hand, 9))
    assert gin.meld_search.arrangements(hand, 8) == []


def test_arrangements_with_duplicates_find_the_best() -> None:
    search = make(set_max=None)
    hand = parse("7H 7H 7S 7D 8H 9H")
    values = {a.deadwood_value for a in search.arrangements(hand, 0)}
    assert values == {0}
    twin_runs = search.arrangements(parse("7H 8H 9H 7H 8H 9H"), 0)
    assert len(twin_runs) == 1 and len(twin_runs[0].melds) == 2


def test_search_needs_53_values() -> None:
    with pytest.raises(ValueError):
        MeldSearch(MeldRules(), [1] * 52)


def test_positions() -> None:
    assert MeldRules(ace="low").positions(1) == (1,)
    assert MeldRules(ace="high").positions(1) == (14,)
    assert MeldRules(ace="both").positions(1) == (1, 14)
    assert MeldRules(ace="both").positions(7) == (7,)


def test_cache_limit_keeps_answers_right() -> None:
    search = MeldSearch(MeldRules(), GIN_VALUES, cache_limit=5)
    hands = [parse("7H 7S 7D 8H 9H"), parse("AS 2S 3S 4S 5S 6H 7H 8H 9H TH"), parse("KD QD 9C 4H")]
    first = [search.deadwood(h) for h in hands]
    assert first == [14, 0, 33]
    assert [search.deadwood(h) for h in reversed(hands)] == first[::-1]


@pytest.mark.parametrize(
    "rules", [MeldRules(), MeldRules(ace="both", set_max=None, run_min=4)], ids=["gin", "ace both"]
)
def test_a_memo_cleared_mid_search_gives_the_same_arrangements(rules: MeldRules) -> None:
    # The bit search keeps each hand's choice for its lowest card, and follows the choices back to the melds:
    # a memo cleared part-way (cache_limit 5) must give the same melds, and the memo holds plain ints only, so
    # the garbage collector has nothing of it to track.
    import gc

    kept = MeldSearch(rules, GIN_VALUES)
    cleared = MeldSearch(rules, GIN_VALUES, cache_limit=5)
    rng = random.Random(7)
    for _ in range(1500):
        hand = [card_from_face(f) for f in rng.sample(range(52), rng.choice((7, 10, 13, 16)))]
        expected = kept.arrange(hand)
        assert cleared.arrange(hand) == expected
        assert cleared.deadwood(hand) == kept.deadwood(hand) == expected.deadwood_value
        assert (
            sum(sum(GIN_VALUES[c.face] for c in m.cards) for m in expected.melds)
            == sum(GIN_VALUES[c.face] for c in hand) - expected.deadwood_value
        )
    assert kept._cache and all(type(v) is int and not gc.is_tracked(v) for v in kept._cache.values())


# == quick paths: the same answers as the general checks =====================================


QUICK_RULES = [
    {},
    {"ace": "both", "set_max": None},
    {"ace": "high", "run_max": 5},
    {"set_distinct_suits": True, "set_max": None, "run_min": 4},
    {"excluded_ranks": frozenset({1, 7}), "set_min": 4},
    {"ace": "both", "joker_sets": True, "excluded_ranks": frozenset({13})},
    # a game's own test that refuses some natural melds: the quick lay-off asks it as the general check does
    {"ace": "both", "set_max": None, "accept": lambda m: len(m.cards) < 5 and m.faces[-1] % 13 != 12},
    # special melds (Iceberg's: pairs, no aces, sixes of one parity), which a lay-off never makes
    {"set_min": 2, "set_distinct_suits": True, "excluded_ranks": frozenset({1}), "specials": (ICEBERG_HIGH,)},
]


def rules_id(rules: dict[str, object]) -> str:
    """A test id that names a game's own test rather than its address (the same in every xdist worker)."""
    return str({key: "a test" if callable(value) else value for key, value in rules.items()})


@pytest.mark.parametrize("rules", QUICK_RULES, ids=rules_id)
def test_natural_lay_offs_and_listed_melds_agree_with_the_general_checks(rules: dict[str, object]) -> None:
    search = make(**rules)
    made = [search.meld([card_from_face(f) for f in faces]) for faces in search._natural_melds()]
    melds = [m for m in made if m is not None]  # a game's own test refuses some
    texts = ("7S 7S 7H", "7S 7H 7D 7C 7S", "5H 6H 7H", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "AH 2H 3H")
    texts += ("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "QH KH AH", "JC QC KC", "2D 3D 4D")
    two_decks = [search.meld(parse(text)) for text in texts]
    rng = random.Random(rules_id(rules))  # the same in every run (a test function's repr holds its address)
    melds = rng.sample(melds, min(80, len(melds))) + [m for m in two_decks if m is not None]
    cards = [card_from_face(face, copy) for face in range(53) for copy in (0, 1)]
    for meld in melds:
        for card in cards:
            if card in meld.cards:
                continue
            assert search.extend(meld, [card]) == search._extend_general(meld, [card]), (str(meld), str(card))
        spare = [card_from_face(face, copy) for face in range(53) for copy in (0, 1, 2)]
        fits = {c.face for c in spare if c not in meld.cards and search._extend_general(meld, [c]) is not None}
        assert search.layoff_faces(meld) == fits, str(meld)
    deck = build_deck(1, 4 if rules.get("joker_sets") else 0)  # jokers that meld only together (Persian)
    for _ in range(200):  # one-deck hands: the meld tables give what the general walk finds, in its order
        hand = rng.sample(deck, rng.choice((5, 10, 13, 20)))
        assert search.candidate_melds(hand) == search._candidate_melds_general(hand)
        assert search.candidate_melds(hand, limit=3) == search._candidate_melds_general(hand, limit=3)
        # can_meld from counts, as the general walk says
        counts = [0] * 53
        for card in hand[1:]:
            counts[card.face] += 1
        expected = any(hand[0] in m.cards for m in search._candidate_melds_general(hand))
        assert search.can_meld(hand[0], hand[1:]) == expected
        if search.accept is None and not search.rules.specials:
            assert search.can_meld_counts(hand[0], counts) == expected
        else:
            with pytest.raises(ValueError, match="special melds or a game's own test"):
                search.can_meld_counts(hand[0], counts)


def test_the_quick_check_counts_an_ace_once_in_a_run() -> None:
    # Order A 2 3 with the ace low or high: A 2 3 reaches both of the ace's places, but a run holds it once.
    search = make(ace="both", order=(1, 2, 3), run_min=4, sets=False)
    for card, others in (("3H", "AH 2H 9C"), ("2H", "AH 3H"), ("AH", "2H 3H AH")):
        counts = [0] * 53
        for other in parse(others):
            counts[other.face] += 1
        assert not search.melds_containing(parse(card)[0], parse(others))
        assert not search.can_meld(parse(card)[0], parse(others))
        assert not search.can_meld_counts(parse(card)[0], counts)
    search = make(ace="both", order=(1, 2, 3), run_min=3, sets=False)
    assert search.can_meld(parse("3H")[0], parse("AH 2H")) and search.can_meld(parse("AH")[0], parse("2H 3H"))


WILD_QUICK_RULES = [
    {**rules, "wild_faces": wild, "max_wilds": most}
    for rules in QUICK_RULES
    for wild in (frozenset({1, 14, 27, 40}), frozenset({1, 14, 27, 40, JOKER_FACE}))
    for most in (None, 1)
]


def _long_runs(search: MeldSearch, rng: random.Random) -> list[Meld]:
    """Runs of 11 to 13 cards in hearts (A..Q, 2..K, 3..A where the ace rule allows), one or two places taken by
    wild cards named as the cards they stand for (the ace's too): lay-offs at both ends, the ace moving."""
    spare = [card_from_face(face, copy) for copy in (1, 0) for face in sorted(search.rules.wild_faces)][:2]
    found = []
    for low, high in ((1, 12), (2, 13), (3, 14), (1, 11)):
        for _ in range(6):
            faces = [_face_at(rank) for rank in range(low, high + 1)]
            taken = rng.sample(range(len(faces)), rng.choice((1, 2)))
            cards = [spare[taken.index(k)] if k in taken else card_from_face(f) for k, f in enumerate(faces)]
            meant = [card_from_face(f) if k in taken else None for k, f in enumerate(faces)]
            meld = search.meld(cards, stands_for=meant)
            if meld is not None:
                found.append(meld)
    return found


def _past_the_ends(search: MeldSearch, meld: Meld) -> list[Card]:
    """The cards a wild card laid on ``meld`` may be named as: past either end of a run, any suit of a set."""
    if meld.kind == "set":
        return [card_from_face(s * 13 + meld.ranks[0] - 1) for s in range(4) if meld.ranks[0] != 14]
    if meld.kind != "run" or meld.suit is None:
        return []
    position, rank_at, top = search.rules._order_tables
    ends = (position[meld.ranks[0]] - 1, position[meld.ranks[-1]] + 1)
    return [card_from_face(meld.suit * 13 + (rank_at[p] - 1) % 13) for p in ends if 1 <= p <= top + 1]


def _face_at(rank: int) -> int:
    """Hearts' card of ``rank`` (14: the ace)."""
    return 2 * 13 + (0 if rank == 14 else rank - 1)


@pytest.mark.parametrize(
    "rules",
    [*WILD_QUICK_RULES, "fortune", "arlington", "skarney"],
    ids=lambda r: r if isinstance(r, str) else rules_id(r),
)
def test_lay_offs_on_melds_with_wild_cards_agree_with_the_general_check(rules: dict[str, object] | str) -> None:
    """A natural card on a set or run holding wild cards, a wild card named as a card on a run, and a wild card
    past the rules' limit are decided by quick paths: each gives what the general check gives (wild cards in
    the table meld keeping what they stand for, a set's wild cards named other suits, long runs whose ace may
    move, natural melds taking a wild card, a game's own test)."""
    search = rummykit.load_variant(rules).meld_search if isinstance(rules, str) else make(**rules)
    wild = search.rules.wild_faces
    rng = random.Random(rules if isinstance(rules, str) else rules_id(rules))
    cards = [card_from_face(face, copy) for face in range(53) for copy in (0, 1)]
    melds: list[Meld] = _long_runs(search, rng)
    with_wilds = 0
    while with_wilds < 60:
        hand = rng.sample(cards, rng.choice((6, 9, 12)))
        hand += [c for c in (card_from_face(min(wild)), card_from_face(min(wild), 1)) if c not in hand][:1]
        for meld in search.candidate_melds(hand, limit=20):
            melds += search.placements(meld)  # natural melds too: a wild card laid on them
            with_wilds += bool(meld.wilds)
            if meld.kind == "set" and meld.wilds:  # the wild cards named as other suits
                named = [card_from_face(rng.randrange(4) * 13 + meld.ranks[0] - 1) for _ in meld.cards]
                meant = [m if c.face in wild else None for c, m in zip(meld.cards, named)]
                other = search.meld(list(meld.cards), stands_for=meant)
                melds += [other] if other is not None else []
    taken = 0
    for meld in melds:
        ends = _past_the_ends(search, meld)
        for card in cards:
            if card in meld.cards:
                continue
            named = [None] if card.face not in wild else [None, *ends, *rng.sample(cards[:104:2], 4)]
            for meant in named:
                stands_for = None if meant is None else [meant]
                expected = search._extend_general(meld, [card], stands_for)
                assert search.extend(meld, [card], stands_for) == expected, (str(meld), str(card), str(meant))
                taken += expected is not None
        for king in (card_from_face(_face_at(13), 1), card_from_face(min(wild), 1)):  # the ace may move to the top
            meant = [card_from_face(_face_at(13))] if king.face in wild else None
            if king not in meld.cards:
                assert search.extend(meld, [king], meant) == search._extend_general(meld, [king], meant), str(meld)
    assert taken  # some lay-offs were taken, not only refused
    run = search.meld(parse("9H TH JH")) or search.meld(parse("9H TH JH QH"))
    assert run is not None
    past = _past_the_ends(search, run)[0]  # one name for each card laid, or none
    assert search._extend_general(run, [card_from_face(min(wild))], [past]) is not None
    assert search.extend(run, [card_from_face(min(wild))], [past, None]) is None


def test_a_refused_lay_off_on_a_meld_with_wild_cards_still_reports_a_wrong_declaration() -> None:
    """The quick lay-offs hand a refusal by the game's own test to the general check, which warns when the test
    refuses a meld that ``MeldRules.accept_faces`` says it accepts (this one refuses a wild card in a run of
    four or more, declared to look only at stand-ins for KC) and stops trusting the declaration."""

    def short_wild_runs(meld: Meld) -> bool:
        return len(meld.cards) < 4 or not meld.wilds

    rules = MeldRules(wild_faces=frozenset({JOKER_FACE}), accept=short_wild_runs, accept_faces=frozenset({12}))
    [joker] = parse("JK")
    for table, card, meant in (("JK 3C 4C", "5C", None), ("3C 4C 5C", "JK", "6C")):
        search = MeldSearch(rules, GIN_VALUES)
        cards = parse(table)
        named = [parse("2C")[0] if c is cards[0] and c.is_joker else None for c in cards]
        meld = search.meld(cards, stands_for=named if any(named) else None)
        assert meld is not None and search._placed_by_rules != (False, False, False, False)
        laid = joker if card == "JK" else parse(card)[0]
        with pytest.warns(RuntimeWarning, match="the game's own meld test refused"):
            assert search.extend(meld, [laid], parse(meant) if meant else None) is None
        assert search._placed_by_rules == (False, False, False, False)


def test_a_run_holds_one_ace_even_with_wild_cards() -> None:
    """Growing down from a high ace, the search once let a wild card stand for the low ace as well: a
    14-card A-2-...-K-A run that ``meld()`` refuses, so the engine listed a meld it would not accept
    (found by a vector environment of Fortune whose random hands grew to 80 cards)."""
    search = rummykit.load_variant("fortune").meld_search
    hand = parse("2C 2D 3D 4D 5D 6D 7D 8D 2H 2H TD JD QD KD AD")
    assert search.meld(hand[:9] + hand[10:]) is None  # A (2C) 2 3 ... 8 9 (2H) 10 J Q K A: the ace twice
    listed = search.candidate_melds(hand)
    assert listed and max(len(m.cards) for m in listed) == 13
    top = hand[2]  # 3D, taken from the pile with the rest
    for meld in listed + search.melds_containing(top, hand[:2] + hand[3:]):
        assert not (meld.kind == "run" and meld.ranks[0] == 1 and meld.ranks[-1] == 14), meld
        action = rummykit.standard.meld_action(search, meld)
        assert search.meld(list(action.cards), stands_for=list(action.stands_for) or None) is not None, meld


@PROPERTY
@given(general_case(max_size=16))
def test_candidate_melds_are_valid_with_what_their_wild_cards_stand_for(
    case: tuple[MeldSearch, list[Card]],
) -> None:
    """Every candidate meld of a large hand is accepted again as the engine names it (the wild cards with
    what they stand for): what the engine lists, it accepts."""
    search, hand = case
    for meld in search.candidate_melds(hand, limit=200):
        action = rummykit.standard.meld_action(search, meld)
        assert search.meld(list(action.cards), stands_for=list(action.stands_for) or None) is not None, meld


def _fitting_faces(search: MeldSearch, meld: Meld) -> set[int]:
    """The faces (not wild) that the general check lays off alone on ``meld``, each of a copy not in it."""
    fits = set()
    for face in range(JOKER_FACE + 1):
        if face in search.rules.wild_faces:
            continue
        copy = 1 + max((c.copy for c in meld.cards if c.face == face), default=-1)
        if search._extend_general(meld, [card_from_face(face, copy)]) is not None:
            fits.add(face)
    return fits


@PROPERTY
@given(general_case(max_size=14), st.sampled_from([None, "fortune", "arlington", "skarney"]), st.integers(0, 10**6))
def test_lay_off_faces_of_melds_with_wild_cards_are_those_the_general_check_takes(
    case: tuple[MeldSearch, list[Card]], game: str | None, seed: int
) -> None:
    """A natural card goes on the ends of a run, wild cards or not: ``layoff_faces`` tries only those, and
    finds every face the general check takes (wild cards, two decks, aces both ways, a game's own test)."""
    search, hand = case
    if game is not None:  # a game's own rules, a hand of its whole pack
        search = rummykit.load_variant(game).meld_search
        hand = random.Random(seed).sample(build_deck(2, 4), 16)
    for meld in search.candidate_melds(hand, limit=30):
        assert search.layoff_faces(meld) == _fitting_faces(search, meld), str(meld)


def test_no_lay_off_makes_a_run_hold_the_ace_twice() -> None:
    """A wild card laid off below 2 of a run that ends in a high ace would stand for the low ace too."""
    search = rummykit.load_variant("fortune").meld_search
    run = search.meld(parse("2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"))
    assert run is not None and run.ranks[0] == 2 and run.ranks[-1] == 14  # 2C stands for 2D
    assert search.extend(run, parse("2S")) is None
    assert search.extend(run, parse("2S"), stands_for=[parse("AD")[0]]) is None
    cards = parse("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    low = search.meld(cards, stands_for=[None, cards[1]] + [None] * 10)  # the wild 2D as itself: A to Q
    assert low is not None and low.ranks == tuple(range(1, 13))
    full = search.extend(low, parse("KD"))
    assert full is not None and len(full.cards) == 13 and full.ranks[-1] - full.ranks[0] == 12  # one ace
    assert search.extend(full, parse("2S")) is None  # only the ace's other place is left for it


def test_deadwood_values_are_whole_numbers() -> None:
    # Values are kept as Python ints, whatever integer type they come as (numpy's wraps when the search packs
    # them into wider ints); a value that is no whole number is refused, naming it.
    numpy = pytest.importorskip("numpy")
    big = [v * 100 for v in GIN_VALUES]
    hand = parse("7H 7S 7D 8H 9H KC KD")
    as_ints = MeldSearch(MeldRules(), big)
    as_numpy = MeldSearch(MeldRules(), numpy.array(big, dtype=numpy.int64))
    assert as_numpy.deadwood(hand) == as_ints.deadwood(hand) == 3400
    assert str(as_numpy.arrange(hand)) == str(as_ints.arrange(hand))
    with pytest.raises(ValueError, match=r"whole number, not 10\.5"):
        MeldSearch(MeldRules(), [*GIN_VALUES[:11], 10.5, *GIN_VALUES[12:]])
