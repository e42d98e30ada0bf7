"""Kernel 2: a toy game written only against the public hooks, and the ruleset options the kernel now
carries out (whole-pile takes, empty-stock turn-over, required final discard, no discard pile)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import snapshot  # one snapshot: what an illegal action must leave as it was

import rummykit
from rummykit import IllegalAction, RulesetError
from rummykit.engine import AUTO_PREFIX, Game

TOY = Path(__file__).parent / "toy"


def toy(**options: object) -> rummykit.Variant:
    return rummykit.load_variant(str(TOY / "toy.yaml"), options=options or None, plugins=[TOY / "toy_rummy.py"])


def play_randomly(game: Game, rng: random.Random, kinds: Counter[str], refusals: bool = False) -> None:
    """Random legal moves to the end; after every action every card is in exactly one place, and a game that
    is not over always has a legal action. With ``refusals``, an illegal action tried before each move is
    refused and changes nothing."""
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {game.deal.phase}"
        junk = rng.choice(["discard 2C", "meld 7H 7S", "take pile with 5D", "swap 9S on 0", "offer JK", "decline"])
        if refusals and all(not a.same_as(rummykit.Action.parse(junk)) for a in legal):
            before = snapshot(game)
            with pytest.raises(IllegalAction):
                game.apply(junk)
            assert snapshot(game) == before
        action = rng.choice(legal)
        turn_of = game.deal.current
        if action.kind in ("accept", "decline"):
            assert game.current_player != turn_of  # answered by another seat than the one whose turn it is
        game.apply(action)
        kinds[action.kind if not action.groups else f"meld x{len(action.groups)}"] += 1
        game.check_cards()
        steps += 1
        assert steps < 20_000
    for deal_actions in game.history:
        kinds["auto"] += sum(text.startswith(AUTO_PREFIX) for text in deal_actions)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_toy_game_plays_to_the_end_under_random_bots(players: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(12):
        game = toy().new_game(players=players, seed=seed)
        play_randomly(game, random.Random(seed), kinds, refusals=seed < 3)
        assert game.is_over
        assert sum(game.scores) == sum(sum(r.scores) for r in game.results)
        # The record replays, automatic moves included.
        again = Game.from_json(game.to_json(), plugins=[TOY / "toy_rummy.py"])
        assert again.scores == game.scores and again.history == game.history
    for kind in ("take pile with", "meld x2", "offer", "accept", "decline", "auto", "draw stock"):
        assert kinds[kind] > 0, f"no {kind!r} in {dict(kinds)}"


def test_an_offer_is_answered_by_the_other_seats_in_turn() -> None:
    game = toy().new_game(players=3, seed=4)
    while game.deal.phase != "play":
        game.apply(next(a for a in game.legal_actions() if a.kind == "draw stock"))
    offerer = game.current_player
    offer = next(a for a in game.legal_actions() if a.kind == "offer")
    game.apply(offer)
    left = (offerer + 1) % 3
    assert game.current_player == left and game.deal.current == offerer
    assert {str(a) for a in game.legal_actions()} == {"accept", "decline"}
    # The card is seen by the offerer and the seat asked, not by the third seat.
    third = (offerer + 2) % 3
    assert game.observation(left)["offer"]["card"] == str(offer.cards[0])
    assert game.observation(third)["offer"]["card"] is None
    game.apply("decline")
    assert game.current_player == third
    assert game.observation(third)["offer"]["card"] == str(offer.cards[0])
    game.apply("accept")
    assert offer.cards[0] in game.deal.hands[third]
    assert str(offer.cards[0]) in game.observation(left)["known"][str(third)]
    assert game.current_player == left and game.deal.phase == "draw"


def test_take_pile_with_one_card_from_hand_is_refused_and_changes_nothing() -> None:
    deal = {
        "dealer": 1,
        "hands": ["7S 7D 9C TC JC 3H 4H 5D 8D KH".split(), "7C 9H 4S 5S 6C 8S TD JD QS KC".split()],
        "discard": ["7H"],
    }
    game = toy().new_game(layout=deal, seed=2)
    assert any(a.same_as(rummykit.Action.parse("take pile with 7S 7D")) for a in game.legal_actions())
    before = snapshot(game)
    for text in ("take pile with 7S", "take pile with 9C", "take pile"):
        with pytest.raises(IllegalAction):
            game.apply(text)
        assert snapshot(game) == before
    game.apply("take pile with 7S 7D")
    assert [sorted(map(str, tm.meld.cards)) for tm in game.deal.table] == [["7D", "7H", "7S"]]
    assert not game.deal.discard


def test_the_empty_stock_is_turned_over_in_order() -> None:
    game = toy().new_game(players=2, seed=9)
    deal = game.deal
    # Leave one card in the stock and a known pile, then draw it: the pile less its top becomes the stock.
    cards = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.discard = cards[:5] + deal.discard
    deal.set_aside = cards[5:]  # out of play for this test, still accounted for
    pile = list(deal.discard)
    game.check_cards()
    game.apply("draw stock")
    assert deal.discard == [pile[-1]]
    assert deal.stock == pile[:-1][::-1]  # turned over: the pile's bottom card is the new top
    assert deal.stock[-1] is pile[0]


def test_reshuffle_and_end_are_ruleset_choices() -> None:
    for mode in ("reshuffle", "end"):
        variant = toy(draw={"from_pile": "whole", "must_use": "top", "empty_stock": mode})
        game = variant.new_game(players=2, seed=9)
        deal = game.deal
        deal.set_aside = deal.stock[:-1]
        deal.stock = deal.stock[-1:]
        deal.discard = deal.set_aside[:6] + deal.discard
        del deal.set_aside[:6]
        pile = list(deal.discard)
        game.apply("draw stock")
        if mode == "reshuffle":
            assert sorted(deal.stock) == sorted(pile[:-1]) and deal.discard == [pile[-1]]
        else:
            assert not deal.stock and deal.discard == pile


def test_a_required_final_discard_never_leaves_an_empty_hand() -> None:
    deal = {"dealer": 1, "hands": ["7S 7H 7D".split(), "AS AH AD".split()], "discard": ["KC"], "stock": ["7C"]}
    for mode, four_allowed in (("optional", True), ("required", False)):
        variant = rummykit.load_variant("500-rum", options={"table": {"discard_to_go_out": mode}})
        game = variant.new_game(layout=deal, seed=1)
        game.apply("draw stock")
        assert any(a.kind == "meld" and len(a.cards) == 4 for a in game.legal_actions()) is four_allowed
        if not four_allowed:
            with pytest.raises(IllegalAction):
                game.apply("meld 7S 7H 7D 7C")
            game.apply("meld 7S 7H 7D")
            assert [str(c) for c in game.deal.hands[0]] == ["7C"]
            assert {str(a) for a in game.legal_actions()} == {"discard 7C"}  # the 7C cannot be laid off either
            game.apply("discard 7C")
            assert game.results[-1].kind == "out"


def test_a_required_final_discard_refuses_a_pile_card_whose_only_use_empties_the_hand() -> None:
    # 500 Rum's pile card must be used at once; with 2S 4S in hand the 3S is used only by melding all three.
    deal = {"dealer": 1, "hands": [["2S", "4S"], ["9H", "9D"]], "discard": ["3S"], "stock": ["KC", "KD"]}
    for mode, listed in (("optional", True), ("required", False)):
        variant = rummykit.load_variant("500-rum", options={"table": {"discard_to_go_out": mode}})
        game = variant.new_game(layout=deal, seed=1)
        assert any(a.kind == "draw discard" for a in game.legal_actions()) is listed
        if not listed:
            before = game.observation(0)
            with pytest.raises(IllegalAction, match="would leave no card to discard"):
                game.apply("draw discard 3S")
            assert game.observation(0) == before
            game.apply("draw stock")
            assert game.legal_actions()


def test_no_discard_pile_means_no_upcard_and_nothing_drawn_from_it() -> None:
    variant = rummykit.load_variant(
        "500-rum",
        options={"discard_pile": "none", "deal": {"upcard": False}, "draw": {"from_pile": "none", "must_use": "none"}},
    )
    game = variant.new_game(seed=3)
    assert game.deal.discard == []
    assert {str(a) for a in game.legal_actions()} == {"draw stock"}
    assert game.observation(0)["discard_top"] is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"table": {"discard_to_go_out": "forbidden"}}, "table.discard_to_go_out"),
        ({"players": {"min": 2, "max": 6, "seated": 6}}, "unknown key 'seated'"),
        ({"discard_pile": "none"}, "discard_pile is none, so nothing is drawn from it"),
        ({"draw": {"from_pile": "top", "must_use": "top"}}, "must_use: top goes with from_pile: whole"),
        ({"turn": {"end": "offer"}, "table": {"melds": False}}, "only in games that meld on the table"),
        ({"draw": {"empty_stock": "end", "rebuilds": 2}}, "rebuilds goes with empty_stock"),
        ({"table": {"exchangeable": ["JK"]}}, "'JK' is not wild"),
        ({"table": {"exchange": "none", "exchangeable": ["2"]}}, "table.exchange is none"),
        # values that could never take effect together
        ({"table": {"discard_to_go_out": "required"}, "turn": {"end": "done"}}, "required needs a turn that ends"),
        (
            {"melds": {"run_order": ["A", "2", "3"], "run_min": 4}},
            r"melds.run_min \(4\) is above the 3 ranks a run can hold",
        ),
        ({"melds": {"excluded_ranks": ["JK"]}}, "JK is no rank"),
        ({"melds": {"excluded_ranks": list("A23456789TJQK")}}, "every rank of the pack is excluded"),
        ({"melds": {"set_distinct_suits": True, "set_min": 5}}, r"melds.set_min \(5\) is above the 4 suits"),
        ({"melds": {"wild_sets": True}}, "wild_sets is for wild cards, and no card is wild"),
        ({"melds": {"max_wilds": 1}}, "max_wilds is for wild cards, and no card is wild"),
        ({"melds": {"joker_sets": True}}, "joker_sets, but the decks hold no jokers"),
        ({"discard_pile": "squared"}, "from_pile: any takes cards from deep in the pile, which a squared pile hides"),
        ({"table": {"exchange": "any"}}, "exchange: any swaps wild cards, and no card is wild"),
        (
            {
                "discard_pile": "none",
                "deal": {"upcard": False},
                "draw": {"from_pile": "none", "must_use": "none", "empty_stock": "reshuffle"},
            },
            "reshuffle makes a new stock from the discard pile, and discard_pile is none",
        ),
    ],
)
def test_options_that_cannot_work_are_refused_before_a_game(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        rummykit.load_variant("500-rum", options=options)


@pytest.mark.parametrize(
    "options",
    [
        {"table": {"discard_to_go_out": "required"}},
        {"draw": {"from_pile": "any", "must_use": "deepest"}, "discard_pile": "fanned"},
        {"draw": {"from_pile": "whole", "must_use": "top"}},
    ],
)
def test_table_rules_in_a_game_that_melds_nothing_on_the_table_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(RulesetError, match="for games that meld on the table"):
        rummykit.load_variant("gin", options=options)


@pytest.mark.parametrize(("seed", "players"), [(3, 2), (7, 4)])
def test_a_final_discard_required_keeps_a_card_after_taking_the_pile(seed: int, players: int) -> None:
    # Arlington's pile take melds its top card with cards from hand: with nothing else in the pile, using the
    # whole hand left the player with no card to discard, and so no legal action (these seeds reached it).
    variant = rummykit.load_variant("arlington", options={"table": {"discard_to_go_out": "required"}})
    game = variant.new_game(seed=seed, players=players)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, game.deal
        size, pile = len(game.deal.hands[game.deal.current]), len(game.deal.discard)
        assert all(len(a.cards) < size + pile - 1 for a in legal if a.kind == "take pile with")
        game.apply(rng.choice(legal))
    assert game.end_reason == "target"


def test_whole_pile_without_a_meld_takes_everything_and_a_dead_stock_ends_the_hand() -> None:
    variant = rummykit.load_variant("500-rum", options={"draw": {"from_pile": "whole", "must_use": "none"}})
    game = variant.new_game(seed=5)
    pile = list(game.deal.discard)
    game.apply("take pile")
    assert all(card in game.deal.hands[game.deal.current] for card in pile)
    rng = random.Random(1)
    while not game.is_over and len(game.results) == 0:
        assert game.legal_actions()
        game.apply(rng.choice(game.legal_actions()))
        game.check_cards()
    assert game.results[0].kind in ("out", "exhausted")


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_bots_only_play_legal_moves_in_a_game_with_a_contract(players: int) -> None:
    from rummykit.bots import GreedyBot

    for seed in range(4):
        game = toy().new_game(players=players, seed=seed)
        bots = [GreedyBot(seed * 10 + s) for s in range(players)]
        steps = 0
        while not game.is_over:
            game.apply(bots[game.current_player or 0].choose(game))
            game.check_cards()
            steps += 1
            assert steps < 20_000
        assert game.end_reason in ("target", "hands")


def test_a_pile_take_left_out_of_a_long_list_is_accepted_when_named() -> None:
    from rummykit import standard

    deal = {
        "dealer": 1,
        "hands": ["7S 7D 8H 9H 5H 6H TH JH 3C 4D".split(), "7C 9C 4S 5S 6C 8S TD JD QS KC".split()],
        "discard": ["7H"],
    }
    game = toy().new_game(layout=deal, seed=2)
    listed = {str(a) for a in game.legal_actions()}
    limit = standard.MELD_ACTION_LIMIT
    try:
        standard.MELD_ACTION_LIMIT = 1  # only the longest meld with the 7H is listed
        game.deal._legal = None
        short = {str(a) for a in game.legal_actions()}
        assert len(short) < len(listed)
        game.apply("take pile with 7S 7D")  # not listed now, still legal
    finally:
        standard.MELD_ACTION_LIMIT = limit
    assert sorted(str(c) for c in game.deal.table[0].meld.cards) == ["7D", "7H", "7S"]


def test_the_pile_turned_over_at_most_rebuilds_times_then_the_hand_ends() -> None:
    game = toy(draw={"rebuilds": 1}).new_game(players=2, seed=9)
    deal = game.deal
    cards = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.discard = cards[:3] + deal.discard
    deal.set_aside = cards[3:]
    game.apply("draw stock")  # the stock runs out: the pile less its top card is the new stock, once
    assert deal.rebuilds == 1 and len(deal.stock) == 3
    while game.results == [] and deal.stock:
        legal = game.legal_actions()
        game.apply(next(a for a in legal if a.kind in ("draw stock", "offer", "decline", "end turn")))
        game.check_cards()
    while not game.results:
        legal = game.legal_actions()
        game.apply(next(a for a in legal if a.kind in ("draw stock", "offer", "decline", "end turn", "discard")))
    assert game.results[0].kind == "exhausted"


def test_only_the_exchangeable_wild_cards_are_swapped() -> None:
    variant = toy(table={"exchange": "any", "exchangeable": ["2C"]})
    layout = {"dealer": 1, "hands": ["5H 6H 2C 5S 6S 2D 9C 7H 7S".split(), "8C 8D".split()], "stock": ["KD"]}
    game = variant.new_game(players=2, layout=layout)
    game.apply("draw stock")
    game.apply("meld 5H 6H 2C | 5S 6S 2D")
    swaps = {str(a) for a in game.legal_actions() if a.kind == "swap"}
    assert swaps == {"swap 7H on 0"}
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply("swap 7S on 1")
    assert snapshot(game) == before
