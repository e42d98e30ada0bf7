"""The pack and the run order as ruleset values: a 40-card Spanish-style pack (no 8 9 T), where J follows 7 in
a run, honoured by dealing, melds, lay-offs, the least-deadwood search, displays and validation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit import load_variant
from rummykit.cards import Card, build_deck, format_cards, parse
from rummykit.melds import MeldSearch
from rummykit.ruleset import RulesetError
from rummykit.settings import Pack
from rummykit.variant import Variant

SPANISH = """\
name: spanish-rummy
title: Spanish Rummy
summary: Rummy with the 40-card pack.
plugins: []
players: {min: 2, max: 4}
decks: {count: 1, jokers: 0, ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K]}
deal: {hand_size: 7}
discard_pile: squared
draw: {from_pile: top}
table: {melds: true, layoff: any}
melds: {sets: true, runs: true, set_min: 3, set_max: 4, run_min: 3, ace: low}
card_values: {A: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, J: 10, Q: 10, K: 10}
target: 100
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pack") / "spanish.yaml"
    path.write_text(SPANISH)
    return path


@pytest.fixture(scope="module")
def spanish(ruleset: Path) -> Variant:
    return load_variant(str(ruleset))


def _errors(ruleset: Path, **options: object) -> str:
    """The problems ``options`` over the Spanish ruleset make."""
    with pytest.raises(RulesetError) as error:
        load_variant(str(ruleset), options=options)
    return str(error.value)


def test_the_deck_holds_forty_cards(spanish: Variant) -> None:
    game = spanish.new_game(players=2, seed=4)
    deck = game.deck
    assert len(deck) == 40 and len({c.face for c in deck}) == 40
    assert not any(c.rank in (8, 9, 10) for c in deck)
    spanish_ranks = (1, 2, 3, 4, 5, 6, 7, 11, 12, 13)
    assert spanish.pack == Pack(ranks=spanish_ranks, order=spanish_ranks) and spanish.pack.size == 40
    game.check_cards()
    assert len(build_deck(2, 1, ranks=(1, 2, 3, 4, 5, 6, 7, 11, 12, 13), suits=(0, 1))) == 41
    assert build_deck() == build_deck(1, 0, range(1, 14), range(4))  # the usual pack, in the same order


def test_j_follows_7_in_a_run(spanish: Variant) -> None:
    search = spanish.meld_search
    for text in ("6H 7H JH", "7H JH QH", "5S 6S 7S JS QS KS", "AC 2C 3C"):
        meld = search.meld(parse(text))
        assert meld is not None and meld.kind == "run", text
    run = search.meld(parse("JH 6H 7H"))
    assert run is not None and str(run) == "6H 7H JH" and run.ranks == (6, 7, 11)
    assert run.faces == tuple(c.face for c in parse("6H 7H JH"))
    for text in ("7H 8H 9H", "6H 7H QH", "QH KH AH", "7H JH QD"):
        assert search.meld(parse(text)) is None, text


def test_lay_offs_follow_the_run_order(spanish: Variant) -> None:
    search = spanish.meld_search
    run = search.meld(parse("5H 6H 7H"))
    assert run is not None
    grown = search.extend(run, parse("JH"))
    assert grown is not None and str(grown) == "5H 6H 7H JH"
    assert str(search.extend(run, parse("4H"))) == "4H 5H 6H 7H"
    assert search.extend(run, parse("QH")) is None and search.extend(run, parse("JD")) is None
    assert search.layoff_faces(run) == {c.face for c in parse("4H JH")}
    top = search.meld(parse("JS QS KS"))
    assert top is not None and str(search.extend(top, parse("7S"))) == "7S JS QS KS"
    assert search.extend(top, parse("AS")) is None  # ace low: nothing follows K
    assert search.can_meld(parse("JC")[0], parse("6C 7C")) and not search.can_meld(parse("JC")[0], parse("5C 6C"))


def test_the_least_deadwood_uses_such_runs(spanish: Variant) -> None:
    best = spanish.meld_search.arrange(parse("5H 6H 7H JH QH KC 2D"))
    assert [str(m) for m in best.melds] == ["5H 6H 7H JH QH"] and best.deadwood_value == 12
    best = spanish.meld_search.arrange(parse("7C JC QC 7D 7H AS KS"))
    # 7C JC QC (27) and 7C 7D 7H (21) share 7C: the run, with 7D 7H AS KS left (7 + 7 + 1 + 10)
    assert [str(m) for m in best.melds] == ["7C JC QC"] and best.deadwood_value == 25


@pytest.mark.parametrize("extra", [{"decks": {"count": 2}}, {"melds": {"wild": ["2"]}}])
def test_the_general_search_follows_the_order(ruleset: Path, extra: dict[str, object]) -> None:
    """Two decks or wild cards: the search that is not over one-deck masks."""
    variant = load_variant(str(ruleset), options=extra)
    search = variant.meld_search
    hand = parse("6H 7H JH QH 3C 3D")
    best = search.arrange(hand)
    assert "6H 7H JH QH" in [str(m) for m in best.melds]
    if "wild" in str(extra):
        wild_run = search.meld(parse("7H 2C QH"))
        assert wild_run is not None and wild_run.faces == tuple(c.face for c in parse("7H JH QH"))
        assert search.meld(parse("7H 2C 9H")) is None
    # The solver's programme (over run positions) against the exhaustive search, which is used when the
    # search is not told the pack (a rank outside the order might then hold cards).
    assert search._solver is not None
    exhaustive = MeldSearch(search.rules, variant.values)
    assert exhaustive._solver is None
    deck = variant.new_game(seed=0).deck
    for seed in range(40):
        cards = random.Random(seed).sample(deck, 10)
        assert exhaustive.deadwood(cards) == search.deadwood(cards), cards


def test_sorted_cards_show_j_after_7(spanish: Variant) -> None:
    cards = parse("JH 2H 7H KH 6H")
    assert format_cards(cards, sort=True) == "2H 6H 7H JH KH"
    arranged = spanish.meld_search.arrange(parse("JH 7H 6H 2C"))
    assert str(arranged) == "[6H 7H JH] deadwood 2C (2)"


def test_cards_outside_the_pack_are_refused(spanish: Variant, ruleset: Path) -> None:
    with pytest.raises(ValueError, match="deal: hand 0 names 8C, which the pack of spanish-rummy"):
        spanish.new_game(seed=1, layout={"dealer": 1, "hands": [["8C", *"AC 2C 3C 4C 5C 6C".split()], []]})
    with pytest.raises(ValueError, match=r"9H is not in the pack of spanish-rummy \(A 2 3 4 5 6 7 J Q K\)"):
        spanish.arrange("7H 9H JH")
    assert "melds.wild[0]: 8 is not in the pack" in _errors(ruleset, melds={"wild": ["8"]})
    assert "melds.wild[0]: TS is not in the pack" in _errors(ruleset, melds={"wild": ["TS"]})
    assert "card_values.9: 9 is not in the pack" in _errors(ruleset, card_values={"9": 9})
    message = _errors(ruleset, melds={"run_order": ["A", "2", "3", "4", "5", "6", "7", "8", "J", "Q", "K"]})
    assert "melds.run_order[7]: 8 is not in the pack" in message
    assert "expected the ranks in the usual order" in _errors(ruleset, melds={"run_order": ["7", "6", "5"]})
    assert "an ace comes first" in _errors(ruleset, melds={"run_order": ["2", "3", "A"]})
    assert "needs 22 cards; the deck holds 20" in _errors(ruleset, decks={"suits": ["C", "D"]}, players={"max": 3})


def test_a_run_order_leaving_out_ranks(ruleset: Path) -> None:
    variant = load_variant(str(ruleset), options={"melds": {"run_order": ["A", "2", "3", "4", "5", "6", "7"]}})
    search = variant.meld_search
    assert search.meld(parse("5H 6H 7H")) is not None
    assert search.meld(parse("6H 7H JH")) is None and search.meld(parse("JH QH KH")) is None
    assert search.meld(parse("JH JC JD")) is not None  # in no run, but in sets


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_play_to_the_end_with_every_card_checked(spanish: Variant, players: int) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        game = spanish.new_game(players=players, seed=seed, max_hands=3)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            game.check_cards()
            assert all(c.rank not in (8, 9, 10) for hand in game.deal.hands for c in hand)
        for meld in (m.meld for m in game.deal.table):
            if meld.kind == "run":
                assert spanish.meld_search.meld(list(meld.cards)) is not None
        assert game.results and all(isinstance(card, Card) for card in game.deck)


def test_a_deal_must_leave_the_stock_a_card(ruleset: Path) -> None:
    # Every turn starts from the stock: dealing the whole deck left the first player no legal action.
    # Two suits of ten ranks are 20 cards.
    message = _errors(ruleset, decks={"suits": ["C", "D"]}, players={"max": 2}, deal={"hand_size": 10, "upcard": False})
    assert "dealing 10 cards to 2 players takes every card, leaving none for the stock; the deck holds 20" in message
    message = _errors(ruleset, decks={"suits": ["C", "D"]}, players={"max": 2}, deal={"hand_size": 10})
    assert "dealing 10 cards to 2 players needs 21 cards; the deck holds 20" in message
    game = load_variant(
        str(ruleset), options={"decks": {"suits": ["C", "D"]}, "players": {"max": 2}, "deal": {"hand_size": 9}}
    ).new_game(players=2, seed=1)
    assert len(game.deal.stock) == 1 and game.legal_actions()
