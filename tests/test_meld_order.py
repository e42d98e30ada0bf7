"""The first melds of a hand, made lazily (``candidate_melds(hand, limit=n)``, ``melds_containing``), are
exactly the first ``n`` of every meld the exhaustive walk finds, in the same order, for any rules: wild
cards, jokers, two decks, aces low, high or both, excluded ranks, other run orders, special melds and a
game's own test that moves a meld's wild cards elsewhere."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_melds import GENERAL_RULES, TWOS, VALUE_TABLES

import rummykit
from rummykit import melds
from rummykit.cards import JOKER_FACE, Card, build_deck, parse
from rummykit.melds import Meld, MeldRules, MeldSearch, SpecialMeld

QUEEN_OF_SPADES = 3 * 13 + 11


def no_wild_queen(meld: Meld) -> bool:
    """A game's own test (Arlington's): no wild card stands for QS beside another wild card."""
    if meld.wilds < 2 or meld.kind not in ("set", "run"):
        return True
    return not any(f == QUEEN_OF_SPADES and c.face != f for c, f in zip(meld.cards, meld.faces))


def no_wild_on_top(meld: Meld) -> bool:
    """A test that refuses a run whose highest card is wild, so wild cards go below instead."""
    return meld.kind != "run" or meld.cards[-1].face == meld.faces[-1]


ODD_RUN = SpecialMeld("odd-run", tuple(tuple(sorted(s * 13 + r - 1 for r in (3, 5, 9, 11, 13))) for s in range(4)))
ORDERED_RULES = [
    *GENERAL_RULES,
    MeldRules(ace="both", wild_faces=TWOS, accept=no_wild_queen),  # Arlington's test
    # The same test, declared to look only at stand-ins for QS: runs of other suits are placed by the rules.
    MeldRules(ace="both", wild_faces=TWOS, accept=no_wild_queen, accept_faces=frozenset({QUEEN_OF_SPADES})),
    MeldRules(ace="both", wild_faces=TWOS | {JOKER_FACE}, accept=no_wild_on_top),
    MeldRules(ace="high", wild_faces=TWOS, set_max=None, accept=no_wild_on_top),
    MeldRules(order=(1, 2, 3, 4, 5, 6, 7, 11, 12, 13), ace="both", wild_faces=TWOS),  # no 8 9 T in runs
    MeldRules(ace="both", wild_faces=TWOS, excluded_ranks=frozenset({7}), run_max=6),
    MeldRules(ace="both", set_min=2, set_distinct_suits=True, specials=(ODD_RUN,), wild_faces=frozenset({JOKER_FACE})),
]
_SEARCHES: dict[int, MeldSearch] = {}


def search_for(index: int, values: int) -> MeldSearch:
    key = index * 10 + values
    if key not in _SEARCHES:
        _SEARCHES[key] = MeldSearch(ORDERED_RULES[index], VALUE_TABLES[values])
    return _SEARCHES[key]


@contextmanager
def always_lazy() -> Iterator[None]:
    """Make the first melds lazily whatever the hand's size (small hands take the whole walk otherwise)."""
    saved = melds._LAZY_FROM
    melds._LAZY_FROM = 0
    try:
        yield
    finally:
        melds._LAZY_FROM = saved


def described(melds: list[Meld]) -> list[tuple[object, ...]]:
    return [(m.kind, m.cards, m.ranks, m.suit, m.wilds, m.represents) for m in melds]


def every_meld(search: MeldSearch, hand: list[Card]) -> list[Meld]:
    fast = search._candidate_melds_fast(hand)
    return fast if fast is not None else search._candidate_melds_general(hand)


@st.composite
def hands(draw: st.DrawFn) -> tuple[MeldSearch, list[Card], int]:
    search = search_for(draw(st.sampled_from(range(len(ORDERED_RULES)))), draw(st.sampled_from(range(3))))
    deck = build_deck(draw(st.sampled_from([1, 2])), draw(st.sampled_from([0, 2, 4])))
    size = draw(st.integers(min_value=0, max_value=24))
    hand = random.Random(draw(st.integers(0, 10**9))).sample(deck, size)
    return search, hand, draw(st.sampled_from([1, 3, 10, 60]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_the_first_melds_are_those_of_the_whole_walk(case: tuple[MeldSearch, list[Card], int]) -> None:
    search, hand, limit = case
    search._last_first = None
    expected = every_meld(search, hand)[:limit]
    with always_lazy():
        assert described(search.candidate_melds(hand, limit=limit)) == described(expected)
    if hand:
        card = hand[len(hand) // 2]
        others = [c for c in hand if c is not card]
        full = search._holding(card, every_meld(search, others + [card]), limit)
        with always_lazy():
            assert described(search.melds_containing(card, others, limit)) == described(full)
        # and by the whole walk, of the lowest cards that may start a meld holding the card only
        assert described(search.melds_containing(card, others, limit)) == described(full)
        every = search._holding(card, every_meld(search, others + [card]), None)
        assert described(search.melds_containing(card, others)) == described(every)


REACH_RULES = [
    MeldRules(ace="both", wild_faces=TWOS, max_wilds=0),  # wild cards that may stand nowhere
    MeldRules(wild_faces=frozenset({1}), set_max=None),  # one natural face wild (2C), sets of any size
    MeldRules(order=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), wild_faces=frozenset({JOKER_FACE}), max_wilds=2),
    MeldRules(order=(), wild_faces=TWOS, run_min=2),  # no runs at all: sets only
    MeldRules(ace="high", wild_faces=TWOS | {JOKER_FACE}, excluded_ranks=frozenset({9}), run_min=4, set_min=2),
]
"""Rules the meld order's own list leaves out, for the search of the cards within a card's reach."""
_REACH_SEARCHES: dict[int, MeldSearch] = {}


@st.composite
def reach_hands(draw: st.DrawFn) -> tuple[MeldSearch, list[Card], int]:
    index = draw(st.sampled_from(range(len(ORDERED_RULES) + len(REACH_RULES))))
    if index < len(ORDERED_RULES):
        search = search_for(index, draw(st.sampled_from(range(3))))
    else:
        search = _REACH_SEARCHES.get(index) or _REACH_SEARCHES.setdefault(
            index, MeldSearch(REACH_RULES[index - len(ORDERED_RULES)], VALUE_TABLES[0])
        )
    deck = build_deck(draw(st.sampled_from([1, 2, 3])), draw(st.sampled_from([0, 2, 4])))
    size = draw(st.integers(min_value=0, max_value=24))
    hand = random.Random(draw(st.integers(0, 10**9))).sample(deck, size)
    return search, hand, draw(st.sampled_from([1, 3, 10, 60]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reach_hands())
def test_the_melds_holding_each_card_are_found_among_the_cards_it_may_meld_with(
    case: tuple[MeldSearch, list[Card], int],
) -> None:
    """``melds_containing`` searches only the cards a meld holding the card may hold (its rank's, its suit's
    within reach across the gaps the wild cards may fill, the wild cards), and none when no meld can hold
    it: for every card of the hand, the same melds as the walk over every other card finds."""
    search, hand, limit = case
    for card in hand[:12]:
        others = [c for c in hand if c is not card]
        full = search._holding(card, every_meld(search, others + [card]), limit)
        assert described(search.melds_containing(card, others, limit)) == described(full)


def test_a_top_card_out_of_reach_is_searched_no_further() -> None:
    """Fortune's rules (deuces wild): a card with no card of its rank and none of its suit within reach makes
    no meld, and is found to make none before any search; with a wild card in hand, the search holds only
    the cards that may meld with it."""
    search = rummykit.load_variant("fortune").meld_search
    top = parse("7H")[0]
    apart = parse("JH QS 3C 4D KD")
    assert search._meld_reach(top, apart) is None
    assert search.melds_containing(top, apart) == []
    with_wild = parse("2C 5H JH QS 3C 4D 7D")
    reach = search._meld_reach(top, with_wild)
    assert reach is not None and {str(c) for c in reach} == {"2C", "5H", "7D"}  # JH: two gaps, one wild card
    found = {" ".join(map(str, m.cards)) for m in search.melds_containing(top, with_wild)}
    assert found == {"5H 2C 7H", "7D 7H 2C"}, found


@pytest.mark.parametrize("name", ["fortune", "arlington", "skarney-singles"])
def test_large_hands_of_the_wild_card_games(name: str) -> None:
    """Hands of 30 to 60 cards of two decks, where the whole walk finds up to hundreds of thousands of melds."""
    variant = rummykit.load_variant(name)
    search = variant.meld_search
    deck = build_deck(2, 4 if name.startswith("skarney") else 0)
    for seed, size in enumerate((30, 40, 50, 60)):
        hand = random.Random(seed).sample(deck, size)
        search._last_first = None
        first = search.candidate_melds(hand, limit=60)
        if size <= 40:  # the whole walk takes seconds beyond
            assert described(first) == described(search._candidate_melds_general(hand)[:60])
        assert len(first) == 60
        assert [len(m.cards) for m in first] == sorted((len(m.cards) for m in first), reverse=True)


def test_a_long_run_with_an_ace_either_end() -> None:
    """Aces both ways and deuces wild: a 13-card club run is laid ace high, its wild cards below."""
    search = MeldSearch(MeldRules(ace="both", wild_faces=TWOS), VALUE_TABLES[0])
    hand = parse("AC 2C 2D 4C 5C 6C 7C 8C 9C TC JC QC KC 3H")
    with always_lazy():
        first = search.candidate_melds(hand, limit=3)
    assert [str(m) for m in first] == [str(m) for m in search._candidate_melds_general(hand)[:3]]
    assert str(first[0]) == "2C 2D 4C 5C 6C 7C 8C 9C TC JC QC KC AC"


def test_the_cost_follows_what_is_listed() -> None:
    """Sixty melds of a 70-card Fortune hand are made from a few thousand layouts, not from the whole walk's
    hundreds of thousands (counted, not timed)."""
    search = rummykit.load_variant("fortune").meld_search
    hand = random.Random(2).sample(build_deck(2, 0), 70)
    search._made.clear()  # the melds made, by their cards: counted afresh
    search._last_first = None
    assert len(search.candidate_melds(hand, limit=60)) == 60
    assert len(search._made) < 2_000


def test_a_test_that_names_its_faces_walks_only_their_suit() -> None:
    """Arlington's test looks only at a wild card standing for QS, and says so (``accept_faces``): the runs of
    the three other suits are walked as the rules place them, so sixty melds of a 70-card hand with seven
    wild cards come from a few hundred melds made, where every placement of every suit's wild cards made
    thousands (counted, not timed)."""
    search = rummykit.load_variant("arlington").meld_search
    assert search.rules.accept_faces == {QUEEN_OF_SPADES}
    assert search._placed_by_rules == (True, True, True, False)
    hand = parse(
        "2C 2C 2D 2H 2H 2S 3C 3C 3H 3S 3S 4C 4D 4D 4S 5C 5H 5H 5S 6C 6H 6H 7C 7C 7D 7H 7S 7S 8C 8D 8D 8H 8H 8S "
        "9C 9D 9S 9S AC AD AD AH AH AS AS JC JD JD JH JH JS JS KC KD KH KH KS KS QC QC QD QD QS TC TC TD TH TH TS TS"
    )
    made, listed = [], []
    for placed in ((True, True, True, False), (False, False, False, False)):  # declared; as if not declared
        search._placed_by_rules = placed
        search._made.clear()
        search._last_first = None
        try:
            listed.append(described(search.candidate_melds(hand, limit=60)))
        finally:
            search._placed_by_rules = (True, True, True, False)
        made.append(len(search._made))
    assert len(listed[0]) == 60
    assert listed[0] == listed[1]
    assert made[0] < 500 < 2_000 < made[1]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from(["fortune", "arlington", "skarney-singles", "persian", *range(12)]))
def test_melds_kept_by_their_lowest_card_match_a_fresh_walk(seed: int, rules: str | int) -> None:
    """The whole walk keeps each natural face's melds by the cards they may hold (a run's only as far as the
    wild cards reach), and finds them again when the hand changes elsewhere: over a run of hands changing a
    card or two at a time, the same melds in the same order as a search that keeps nothing, for the games
    with wild cards and for rules with aces high or both, other run orders, excluded ranks, special melds."""
    kept = rummykit.load_variant(rules).meld_search if isinstance(rules, str) else search_for(-1 - rules, 0)
    rng = random.Random(seed)
    deck = build_deck(2, 4)
    hand = rng.sample(deck, rng.randint(3, 20))
    for _ in range(6):
        fresh = MeldSearch(kept.rules, kept.values, accept=kept.accept)
        assert described(kept._candidate_melds_general(hand)) == described(fresh._candidate_melds_general(hand))
        if rng.random() < 0.5 and len(hand) > 3:
            hand.remove(rng.choice(hand))
        hand.append(rng.choice([c for c in deck if c not in hand]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9), st.sampled_from(["fortune", "arlington", "skarney", "persian", *range(len(ORDERED_RULES))])
)
def test_melds_kept_by_their_faces_hold_other_copies_in_the_same_places(seed: int, rules: str | int) -> None:
    """What the whole walk keeps by faces (each lowest card's meld shapes, the layout of each meld made, each
    run's placements of its wild cards) serves another hand of the same faces in other copies (three decks:
    copies 0 to 2, a face held twice or three times) with melds of its own cards, as a search that keeps
    nothing makes them."""
    variant_search = rummykit.load_variant(rules).meld_search if isinstance(rules, str) else search_for(rules, 0)
    kept = MeldSearch(variant_search.rules, variant_search.values, accept=variant_search.accept)
    rng = random.Random(seed)
    deck = build_deck(3, 6)
    hand = rng.sample(deck, rng.randint(3, 14))
    twin = [Card(c.rank, c.suit, (c.copy + rng.randint(1, 2)) % 3) if not c.is_joker else c for c in hand]
    if len({c.id for c in twin}) != len(twin):
        return  # two cards became the same card
    for meld in kept._candidate_melds_general(twin):
        kept.placements(meld)
    fresh = MeldSearch(kept.rules, kept.values, accept=kept.accept)
    listed = kept._candidate_melds_general(hand)
    assert described(listed) == described(fresh._candidate_melds_general(hand))
    for meld in listed:  # each run's other placements of its wild cards, kept by faces too
        assert described(kept.placements(meld)) == described(fresh.placements(meld))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9), st.sampled_from(["fortune", "arlington", "skarney", "persian", *range(len(ORDERED_RULES))])
)
def test_the_melds_holding_a_card_are_those_of_the_whole_walk_that_hold_it(seed: int, rules: str | int) -> None:
    """The melds holding one card (a pile's top card; natural, wild or a joker) walk only the melds that may hold
    it: the same melds in the same order as every meld of the hand and the card, those holding it kept."""
    variant_search = rummykit.load_variant(rules).meld_search if isinstance(rules, str) else search_for(rules, 0)
    kept = MeldSearch(variant_search.rules, variant_search.values, accept=variant_search.accept)
    rng = random.Random(seed)
    deck = build_deck(2, 4)
    hand = rng.sample(deck, rng.randint(3, 16))
    wild = [c for c in deck if kept.is_wild(c) and c not in hand]
    top = rng.choice(wild) if wild and rng.random() < 0.4 else rng.choice([c for c in deck if c not in hand])
    for limit in (None, 60, 3):
        fresh = MeldSearch(kept.rules, kept.values, accept=kept.accept)
        every = fresh._holding(top, fresh._candidate_melds_general([*hand, top]), limit)
        assert described(kept.melds_containing(top, hand, limit)) == described(every)


def test_placements_kept_by_faces_follow_the_order_of_two_copies_of_a_wild_card() -> None:
    """A run may hold two copies of one wild card in either order (a Meld made by hand): the placements kept
    for one order are not handed to the other, whose copies stand where a fresh search puts them."""
    search = rummykit.load_variant("fortune").meld_search
    two = Card(2, 0, 1)  # the second deck's 2C
    laid = search.meld([*parse("5H 6H 2C"), two])
    assert laid is not None and [c.copy for c in laid.cards] == [0, 0, 0, 1]
    swapped = Meld(laid.kind, (*laid.cards[:2], two, laid.cards[2]), laid.ranks, laid.suit, laid.wilds)
    search.placements(laid)
    fresh = MeldSearch(search.rules, search.values, accept=search.accept)
    assert described(search.placements(swapped)) == described(fresh.placements(swapped))
    assert described(search.placements(laid)) == described(fresh.placements(laid))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(ORDERED_RULES))), st.integers(0, 10**9), st.integers(0, 30))
def test_the_tables_list_what_the_walk_lists(index: int, seed: int, size: int) -> None:
    """A hand of one deck without wild cards takes its melds from the tables, special melds included (Iceberg's
    suits of odd and even cards): the same melds in the same order as the walk."""
    search = search_for(index, 0)
    hand = random.Random(seed).sample(build_deck(1, 0), size)
    fast = search._candidate_melds_fast(hand)
    if fast is not None:
        assert described(fast) == described(search._candidate_melds_general(hand))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(ORDERED_RULES))), st.integers(0, 10**9), st.integers(0, 40), st.sampled_from([2, 3]))
def test_hands_of_several_decks_without_wild_cards_take_the_tables_too(
    index: int, seed: int, size: int, decks: int
) -> None:
    """Two or three copies of a card, no wild card: the tables' melds of the lowest copies held and the sets
    with a repeated card, the same melds (the same card objects) in the same order as the walk, and the same
    melds holding a given card (a pile's top card)."""
    search = search_for(index, seed % 3)
    deck = [c for c in build_deck(decks, 2) if not search.is_wild(c)]
    hand = random.Random(seed).sample(deck, min(size, len(deck)))
    copies = search._candidate_melds_copies(hand)
    if search.rules.specials:
        assert copies is None  # a special meld may repeat a card: the walk lists them
        return
    assert copies is not None or any(c.is_joker for c in hand)
    if copies is not None:
        walked = search._candidate_melds_general(hand)
        assert described(copies) == described(walked)
        assert search.candidate_melds(hand, limit=5) == walked[:5]
    if hand:
        top, rest = hand[0], hand[1:]
        walked = search._candidate_melds_general([*rest, top], holding=None if top.is_joker else top.face)
        expected = search._holding(top, walked, 60)  # another copy of the top card taken: swapped for it
        assert described(search.melds_containing(top, rest, 60)) == described(expected)


def test_a_set_with_two_copies_of_a_card_is_made_of_the_lowest_copies_held() -> None:
    search = rummykit.load_variant("fortune").meld_search
    seven_hearts = [Card(7, 2, copy) for copy in (0, 1)]
    hand = [Card(7, 0, 1), seven_hearts[1], Card(7, 3, 0), seven_hearts[0], Card(9, 1, 1)]
    listed = search._candidate_melds_copies(hand)
    assert listed is not None
    assert [[(c.face, c.copy) for c in m.cards] for m in listed] == [
        [(6, 1), (32, 0), (32, 1), (45, 0)],  # 7C 7H 7H 7S
        [(6, 1), (32, 0), (32, 1)],
        [(6, 1), (32, 0), (45, 0)],
        [(32, 0), (32, 1), (45, 0)],
    ]
    assert described(listed) == described(search._candidate_melds_general(hand))
    # a wild card in hand is the walk's
    assert search._candidate_melds_copies([*hand, Card(2, 0, 0)]) is None


def test_iceberg_specials_come_from_the_tables() -> None:
    search = rummykit.load_variant("iceberg").meld_search
    hand = parse("3H 5H 7H 9H JH KH 4C 4D 8S")
    fast = search._candidate_melds_fast(hand)
    assert fast is not None
    assert [m.kind for m in fast][:1] == ["odd-suit"]
    assert described(fast) == described(search._candidate_melds_general(hand))


def test_a_wrong_declaration_of_what_the_games_test_looks_at_is_reported_then_no_longer_trusted() -> None:
    # This test moves runs of every suit (a wild card never on top), but is declared to look at QS only: clubs
    # runs would be listed where the rules place their wild cards, and a capped listing could miss one.
    rules = MeldRules(ace="high", wild_faces=TWOS, accept=no_wild_on_top, accept_faces=frozenset({QUEEN_OF_SPADES}))
    with pytest.warns(RuntimeWarning, match=r"refused 3C 4C 2C.*accept_faces \(QS\)"):
        search = MeldSearch(rules, VALUE_TABLES[0])  # its tables are built from melds the test refuses already
    assert search._placed_by_rules == (False, False, False, False)
    hand = parse("AD AC 8H 9S 3C JC 3D 2C 4C TC")
    whole = search._candidate_melds_general(hand)
    assert "2C TC JC" in [str(m) for m in whole[:3]]  # the test refuses TC JC 2C=QC: 2C=9C TC JC is laid
    with always_lazy():
        for size in (3, 10, 60):
            assert described(search.candidate_melds(hand, limit=size)) == described(whole[:size])
    # Seen while listing (jokers are in no table): that listing is made again by the whole walk.
    jokers = MeldRules(
        ace="both", wild_faces=frozenset({JOKER_FACE}), accept=no_wild_on_top, accept_faces=frozenset({1})
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        search = MeldSearch(jokers, VALUE_TABLES[0])
    hand = parse("3C 4C JK 7H 7D 8S KD")
    with always_lazy(), pytest.warns(RuntimeWarning, match=r"refused 3C 4C JK.*accept_faces \(2C\)"):
        listed = search.candidate_melds(hand, limit=2)
    assert described(listed) == described(search._candidate_melds_general(hand)[:2])
    # A right declaration is trusted and never reported: Arlington's test looks at stand-ins for QS only.
    right = MeldSearch(
        MeldRules(ace="both", wild_faces=TWOS, accept=no_wild_queen, accept_faces=frozenset({QUEEN_OF_SPADES})),
        VALUE_TABLES[0],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right._candidate_melds_general(parse("QC QD QH 2C 2D JS KS 9S TS AS"))
    assert right._placed_by_rules == (True, True, True, False)


@pytest.mark.parametrize("index", range(len(ORDERED_RULES)))
def test_melds_kept_by_faces_are_the_melds_the_checks_make(index: int) -> None:
    # MeldSearch.meld keeps its answers by the faces given: other copies of the same faces (and the same kind
    # asked for and cards named) must give the meld the checks give them, cards in the same places.
    rules = ORDERED_RULES[index]
    search = MeldSearch(rules, VALUE_TABLES[0])
    wild = [c for c in build_deck(decks=2, jokers=2) if c.face in rules.wild_faces]
    rng = random.Random(index)
    made = 0
    for _ in range(3000):
        size = rng.randint(2, 6)
        shape = rng.random()
        if shape < 0.4:  # a run's cards, some of them wild
            suit, low = rng.randrange(4), rng.randint(1, 14 - size)
            cards = [Card(low + i, suit, rng.randrange(2)) for i in range(size)]
        elif shape < 0.8:  # a rank's cards
            rank = rng.randint(1, 13)
            cards = [Card(rank, rng.randrange(4), rng.randrange(2)) for _ in range(size)]
        else:
            cards = [Card(rng.randint(1, 13), rng.randrange(4), rng.randrange(2)) for _ in range(size)]
        if wild and rng.random() < 0.5:
            cards[rng.randrange(size)] = rng.choice(wild)
        if len(set(cards)) < len(cards):
            continue
        kind = rng.choice((None, None, "set", "run"))
        named: list[Card | None] | None = None
        if rng.random() < 0.3:
            named = [
                Card(rng.randint(1, 13), rng.randrange(4))
                if c.face in rules.wild_faces and rng.random() < 0.5
                else None
                for c in cards
            ]
        other_copies = [Card(c.rank, c.suit, 1 - c.copy) for c in cards]
        reversed_named = named[::-1] if named else None
        for hand, meant in ((cards, named), (other_copies, named), (cards[::-1], reversed_named)):
            found = search.meld(hand, kind, meant)
            assert found == search._meld_checked(hand, kind, meant), (hand, kind, meant)
            made += found is not None
    assert made > 200  # the draws make melds, not only refusals


def test_a_wrong_declaration_is_reported_at_the_line_that_asked_for_the_meld() -> None:
    rules = MeldRules(
        ace="both", wild_faces=frozenset({JOKER_FACE}), accept=no_wild_on_top, accept_faces=frozenset({1})
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        search = MeldSearch(rules, VALUE_TABLES[0])
    with pytest.warns(RuntimeWarning, match=r"refused 3C 4C JK") as caught:
        search.meld(parse("3C 4C JK"))
    assert [w.filename for w in caught] == [__file__]
