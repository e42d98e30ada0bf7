"""Fortune Rummy and Arlington: hand-built deals for each rule, a worked hand, and soak runs."""

from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from conftest import snapshot  # one snapshot: what an illegal action must leave as it was

import rummykit
from rummykit import Game, IllegalAction
from rummykit.actions import position_words
from rummykit.bots import GreedyBot, RandomBot
from rummykit.cards import Card, parse_card
from rummykit.mechanics.refill import RefillState


@pytest.fixture(scope="module")
def fortune() -> rummykit.Variant:
    return rummykit.load_variant("fortune")


@pytest.fixture(scope="module")
def arlington() -> rummykit.Variant:
    return rummykit.load_variant("arlington")


def layout(hands: list[str], discard: str = "", stock: str = "", dealer: int = 0) -> dict[str, Any]:
    """A prearranged deal: hands, the pile bottom to top, the stock top first (the rest beneath, shuffled)."""
    return {"dealer": dealer, "hands": [h.split() for h in hands], "discard": discard.split(), "stock": stock.split()}


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()


def refused(game: Game, text: str) -> str:
    """Apply ``text``, expect it refused with the game unchanged; return the refusal's message."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(text)
    assert snapshot(game) == before
    return str(info.value)


def table_texts(game: Game) -> list[str]:
    return [str(tm) for tm in game.deal.table]


# -- the variants ----------------------------------------------------------------------------------


def test_the_variants_have_the_documented_shape(fortune: rummykit.Variant, arlington: rummykit.Variant) -> None:
    assert (fortune.min_players, fortune.max_players) == (2, 8)
    assert (arlington.min_players, arlington.max_players) == (2, 7)
    assert fortune.ruleset["target"] == 500 and arlington.ruleset["target"] == 1000
    for variant, size in ((fortune, 11), (arlington, 13)):
        for players in (2, variant.max_players):
            game = variant.new_game(players=players, seed=players)
            assert len(game.deck) == 104
            assert all(len(game.deal.hands[s]) == size for s in range(players))
            assert len(game.deal.discard) == 1  # one upcard starts the pile
            game.check_cards()
    value = {c: fortune.value(parse_card(c)) for c in ("QS", "QH", "KD", "8C", "7S", "3H", "AC", "2D")}
    assert value == {"QS": 50, "QH": 10, "KD": 10, "8C": 10, "7S": 5, "3H": 5, "AC": 10, "2D": 10}
    assert [arlington.value(parse_card(c)) for c in ("QS", "2D", "KD")] == [100, 20, 10]
    assert rummykit.load_variant("oklahoma-rummy").name == "arlington"


# -- drawing: the whole pile -------------------------------------------------------------------------


def test_the_pile_is_taken_only_by_melding_its_top_card_with_two_cards_from_hand(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, layout=layout(["7S 7D 9C 3H KH", "4D 5D"], discard="4C JD 7H", dealer=1))
    for text in ("take pile with 7S", "take pile with 9C 3H", "take pile", "draw discard"):
        refused(game, text)
    play(game, "take pile with 7S 7D")
    assert table_texts(game) == ["7D 7H 7S"]
    assert game.deal.table[0].owner == 0
    assert not game.deal.discard
    # The rest of the pile came into the hand, and its cards are known to everyone.
    assert sorted(map(str, game.deal.hands[0])) == ["3H", "4C", "9C", "JD", "KH"]
    assert set(game.observation(1)["known"]["0"]) == {"4C", "JD"}


def test_the_pile_is_squared_only_its_top_card_is_seen(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, layout=layout(["7S 7D", "4D 5D"], discard="4C JD 7H"))
    view = game.observation(0)
    assert view["discard_top"] == "7H" and view["discard_size"] == 3
    assert "discard" not in view  # no list of the cards beneath


def test_wild_cards_from_hand_take_the_pile_and_say_what_they_stand_for(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, layout=layout(["2C JH 5S 9D", "4D 5D"], discard="8C KH", dealer=1))
    assert [str(a) for a in game.legal_actions()] == ["draw stock", "take pile with JH 2C=QH"]
    play(game, "take pile with JH 2C")
    meld = game.observation(1)["table"][0]
    assert (meld["cards"], meld["stands_for"]) == (["JH", "2C", "KH"], [None, "QH", None])
    assert sorted(map(str, game.deal.hands[0])) == ["5S", "8C", "9D"]


def test_the_stock_is_turned_over_from_the_pile_less_its_top_card(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, seed=4)
    deal = game.deal
    cards = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.discard = cards[:6] + deal.discard
    deal.set_aside = cards[6:]  # out of play for this test, still accounted for
    pile = list(deal.discard)
    game.check_cards()
    play(game, "draw stock")
    assert deal.discard == [pile[-1]]
    assert deal.stock == pile[:-1][::-1]  # turned over unshuffled: the pile's bottom card is the new top
    assert deal.stock[-1] is pile[0]


def test_the_shuffled_stock_house_rule_shuffles_the_new_stock() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["shuffled-stock"])
    game = variant.new_game(players=2, seed=4)
    deal = game.deal
    cards = deal.stock[:-1]
    deal.stock = deal.stock[-1:]
    deal.discard = cards[:30] + deal.discard
    deal.set_aside = cards[30:]
    pile = list(deal.discard)
    play(game, "draw stock")
    assert deal.discard == [pile[-1]]
    assert sorted(deal.stock) == sorted(pile[:-1]) and deal.stock != pile[:-1][::-1]


def test_a_hand_ends_when_the_stock_runs_out_after_its_last_rebuild(fortune: rummykit.Variant) -> None:
    assert fortune.rebuilds == 3
    game = fortune.new_game(players=2, layout=layout(["5C 9D", "6H JS"], discard="KH", stock="4S"))
    deal = game.deal
    deal.set_aside, deal.stock = deal.stock[:-1], deal.stock[-1:]
    deal.state_of(RefillState).rebuilds = 3  # the stock was made again as often as the ruleset allows
    play(game, "draw stock", "discard 4S")
    assert game.results[-1].kind == "exhausted"
    result = game.results[-1]
    assert result.scores == (-10 - 5, -10 - 5)  # 9D and 5C; JS and 6H: nothing melded


# -- melds -------------------------------------------------------------------------------------------


def test_sets_of_three_or_four_runs_of_any_length_ace_high_or_low(fortune: rummykit.Variant) -> None:
    search = fortune.meld_search
    for text in ("7H 7S 7D", "7H 7S 7D 7C", "7H 7H 7D", "AH 2H 3H", "QS KS AS", "3C 4C 5C 6C 7C 8C 9C TC JC"):
        assert search.meld(rummykit.cards.parse(text)) is not None, text
    for text in ("7H 7S 7D 7C 7C", "KS AS 2S 3S", "KS AS 3S", "7H 8S 9H"):
        assert search.meld(rummykit.cards.parse(text)) is None, text
    larger = rummykit.load_variant("fortune", house_rules=["larger-sets"])
    assert larger.meld_search.meld(rummykit.cards.parse("7H 7S 7D 7C 7C")) is not None


def test_deuces_are_wild_but_never_meld_as_a_set_of_2s(fortune: rummykit.Variant, arlington: rummykit.Variant) -> None:
    four = rummykit.cards.parse("2C 2D 2H 2S")
    assert fortune.meld_search.meld(four) is None
    assert fortune.meld_search.meld(four[:3]) is None
    meld = arlington.meld_search.meld(four)
    assert meld is not None and meld.kind == "wild-set"
    # A 2 standing for a card: 5H 6H 2C is 5-6-7.
    run = fortune.meld_search.meld(rummykit.cards.parse("5H 6H 2C"))
    assert run is not None and [str(rummykit.cards.card_from_face(f)) for f in run.faces] == ["5H", "6H", "7H"]


def test_a_set_of_four_2s_scores_100_in_arlington_and_is_refused_in_fortune(
    fortune: rummykit.Variant, arlington: rummykit.Variant
) -> None:
    hands = ["2C 2D 2H 2S 9C", "4D 5D"]
    game = arlington.new_game(players=2, layout=layout(hands, discard="KH", stock="8H 4H 9H", dealer=1))
    play(game, "draw stock", "meld 2C 2D 2H 2S", "discard 8H", "draw stock", "discard 4H", "draw stock")
    play(game, "discard 9H")
    assert table_texts(game) == ["2C 2D 2H 2S"]
    assert game.deal.finish("out").details["melded"] == [100, 0]  # the hand scored as it stands
    game = fortune.new_game(players=2, layout=layout(hands, discard="KH", stock="8H", dealer=1))
    play(game, "draw stock")
    refused(game, "meld 2C 2D 2H 2S")
    refused(game, "meld 2C 2D 2H")
    assert not any(a.kind == "meld" and all(c.rank == 2 for c in a.cards) for a in game.legal_actions())


def test_arlington_lets_a_2_stand_for_the_queen_of_spades_only_in_an_otherwise_natural_meld(
    fortune: rummykit.Variant, arlington: rummykit.Variant
) -> None:
    parse = rummykit.cards.parse
    accepted = arlington.meld_search.meld(parse("KS 2H JS"))
    assert accepted is not None and parse_card("QS").face in accepted.faces
    for text in ("JS 2H KS 2D", "KS 2H JS 2D"):  # a second wild card with the queen's stand-in
        assert arlington.meld_search.meld(parse(text)) is None, text
        assert fortune.meld_search.meld(parse(text)) is not None, text
    # Two wild cards are fine when neither stands for the queen of spades.
    assert arlington.meld_search.meld(parse("5H 2C 2D")) is not None
    assert arlington.meld_search.meld(parse("QH QD 2C 2D")) is not None  # the 2s are queens of other suits
    # And in play: the listed and the typed meld agree.
    game = arlington.new_game(players=2, layout=layout(["JS 2H 2D KS 5C", "4D"], stock="9C", dealer=1))
    play(game, "draw stock")
    refused(game, "meld JS 2H KS 2D")
    refused(game, "meld JS 2H=QS KS 2D=AS")
    play(game, "meld JS 2H KS")
    assert game.observation(1)["table"][0]["stands_for"] == [None, "QS", None]


def test_players_add_only_to_their_own_melds(fortune: rummykit.Variant) -> None:
    hands = ["7S 7D 7H 9C KC", "7C 4D 5D 8S"]
    game = fortune.new_game(players=2, layout=layout(hands, discard="KH", stock="8H 7H 3C", dealer=1))
    play(game, "draw stock", "meld 7S 7D 7H", "discard 8H")
    play(game, "draw stock")  # seat 1 draws the other 7H and holds 7C: both fit seat 0's sevens
    assert "layoff" not in {a.kind for a in game.legal_actions()}
    refused(game, "layoff 7C on 0")
    play(game, "discard 8S", "draw stock")
    assert "layoff 3C on 0" not in {str(a) for a in game.legal_actions()}


# -- the queen of spades -----------------------------------------------------------------------------


def test_the_queen_of_spades_is_not_discarded_while_another_card_is_held(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, layout=layout(["QS 9C", "4D 5D"], discard="KH", stock="8H", dealer=1))
    assert "queen" not in refused(game, "discard QS")  # before drawing, the reason is the draw
    play(game, "draw stock")
    assert {str(a) for a in game.legal_actions() if a.kind == "discard"} == {"discard 9C", "discard 8H"}
    assert "queen of spades" in refused(game, "discard QS")
    # Two queens of spades and nothing else: either may go.
    game = fortune.new_game(players=2, layout=layout(["QS QS", "4D 5D"], discard="KH", stock="8H", dealer=1))
    play(game, "draw stock")
    assert [str(a) for a in game.legal_actions() if a.kind == "discard"] == ["discard 8H"]


def test_the_free_queen_house_rule_lets_the_queen_of_spades_go() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["free-queen"])
    game = variant.new_game(players=2, layout=layout(["QS 9C", "4D 5D"], discard="KH", stock="8H", dealer=1))
    play(game, "draw stock", "discard QS")
    assert game.deal.discard[-1] == parse_card("QS")


def test_only_the_queen_of_spades_left_may_be_discarded_to_go_out(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, layout=layout(["QS 4C 5C", "9D 9H"], discard="KH", stock="2H", dealer=1))
    play(game, "draw stock", "meld 4C 5C 2H")
    assert [str(a) for a in game.legal_actions() if a.kind == "discard"] == ["discard QS"]
    play(game, "discard QS")
    assert game.results[-1].kind == "out" and game.results[-1].winner == 0


# -- scoring -----------------------------------------------------------------------------------------


def test_a_worked_three_player_hand_is_scored_to_the_point(fortune: rummykit.Variant) -> None:
    """Seat 0 takes the pile and goes out; every meld, wild card and card in hand counted by the rules."""
    hands = [
        "7S 7D 9C TC JC 3H 4H 5H KH QS 8D",
        "2C 5S 6S AC AD AH 8S 8H 6H 9D JD",
        "KS QH JS 2D 3C 3D 6C 6D TH TS 9S",
    ]
    game = fortune.new_game(players=3, layout=layout(hands, discard="4C 7H", stock="9H KD 5C 4S 2H", dealer=2))
    assert game.deal.current == 0
    play(game, "take pile with 7S 7D", "meld 9C TC JC", "meld 3H 4H 5H")
    refused(game, "discard QS")
    play(game, "discard KH")
    play(game, "draw stock", "meld AC AD AH", "meld 5S 6S 2C")  # 2C stands for 7S
    refused(game, "layoff 6H on 2")  # seat 0's meld
    play(game, "discard JD")
    play(game, "draw stock", "meld 9S TS JS 2D KS", "discard 3C")  # 2D stands for QS
    play(game, "draw stock", "discard 8D")
    play(game, "take pile with 8S 8H", "discard 9H")  # the 8D melded; KH JD 3C come into hand
    play(game, "draw stock", "discard 4S")
    play(game, "draw stock", "meld 4C 5C 2H", "discard QS")  # out: the last card is the queen
    result = game.results[-1]
    assert (result.kind, result.winner) == ("out", 0)
    # Seat 0: 7-7-7 15, 9-T-J of clubs 30, 3-4-5 of hearts 15, 4C 5C 2H(=6C) 15; nothing in hand.
    # Seat 1: three aces 30, 5S 6S 2C(=7S) 15, three 8s 30; in hand 6H 9D KH JD 3C = 5+10+10+10+5.
    # Seat 2: 9S TS JS 2D(=QS, scoring as a queen: 10) KS 50; in hand QH 3D 6C 6D TH KD = 10+5+5+5+10+10.
    assert result.details["melded"] == [75, 75, 50]
    assert result.details["in_hand"] == [0, 40, 45]
    assert result.scores == (75, 35, 5)
    assert "bonus" not in result.details  # Fortune: no bonus for going out


def test_aces_and_wild_cards_score_by_what_they_are_in_the_meld(fortune: rummykit.Variant) -> None:
    hands = ["AH 2C 3H QS KS 2D 9C 9D 9H 7C", "4D"]
    game = fortune.new_game(players=2, layout=layout(hands, stock="5D", dealer=1))
    play(game, "draw stock", "meld AH 2C 3H", "meld QS KS 2D", "meld 9C 9D 9H")
    melded = game.deal.finish("out").details["melded"][0]
    # A-2-3 low: ace 5, the 2 standing for the 2 of hearts 5, 3 5; Q-K-A high: QS 50, KS 10, the 2 as the ace 10;
    # three 9s 30.
    assert melded == 15 + 70 + 30


def test_arlington_scores_the_costly_queen_deuces_in_hand_and_100_for_going_out(arlington: rummykit.Variant) -> None:
    hands = ["4C 5C 6C 7C", "QS 2D 9H"]
    game = arlington.new_game(players=2, layout=layout(hands, discard="KH", stock="8C", dealer=1))
    play(game, "draw stock", "meld 4C 5C 6C 7C 8C")
    result = game.results[-1]
    assert (result.kind, result.winner) == ("out", 0)
    assert result.details["in_hand"] == [0, 100 + 20 + 10]
    assert result.details["bonus"] == [100, 0]
    assert result.scores == (5 * 4 + 10 + 100, -130)


def test_the_game_is_won_at_500_in_fortune(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(players=2, seed=3)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    assert game.end_reason == "target"
    assert max(game.scores) >= 500 and game.scores.count(max(game.scores)) == 1


# -- the joker ---------------------------------------------------------------------------------------


def test_the_joker_is_taken_back_by_whoever_melded_it() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["joker"])
    assert variant.joker_count(2) == 1 and variant.value(Card(0, 4)) == 200
    hands = ["5H 6H JK 9C 9D KC", "8C 8D 7S 2C QD KD"]
    game = variant.new_game(players=2, layout=layout(hands, discard="3S", stock="4D 7H 7H", dealer=1))
    play(game, "draw stock", "meld 5H 6H JK", "discard 4D")  # the joker stands for 7H
    assert game.observation(1)["table"][0]["stands_for"] == [None, None, "7H"]
    play(game, "draw stock")  # seat 1 draws a 7H
    assert not any(a.kind == "swap" for a in game.legal_actions())
    refused(game, "swap 7H on 0")  # seat 1 did not meld the joker
    play(game, "discard KD", "draw stock")  # seat 0 draws the other 7H
    assert any(str(a) == "swap 7H on 0" for a in game.legal_actions())
    play(game, "swap 7H on 0")
    assert table_texts(game) == ["5H 6H 7H"]
    assert Card(0, 4) in game.deal.hands[0]
    game.check_cards()


def test_a_2_laid_off_on_a_set_takes_a_suit_it_lacks_and_the_2_there_keeps_its_own(fortune: rummykit.Variant) -> None:
    game = fortune.new_game(
        players=2, layout=layout(["5C 5D 2S 2H 9C KC", "4D 8D"], discard="3S", stock="JD", dealer=1)
    )
    play(game, "draw stock", "meld 5C 5D 2S=5H")
    assert [str(a) for a in game.legal_actions() if a.kind == "layoff"] == ["layoff 2H=5S on 0"]
    play(game, "layoff 2H on 0")
    seen = game.observation(1)["table"][0]
    assert dict(zip(seen["cards"], seen["stands_for"])) == {"5C": None, "5D": None, "2S": "5H", "2H": "5S"}


def test_a_2_named_in_a_meld_stands_for_what_it_is_named_the_other_takes_a_suit_the_set_lacks(
    fortune: rummykit.Variant,
) -> None:
    game = fortune.new_game(
        players=2, layout=layout(["5C 5D 2S 2H 9C KC", "4D 8D"], discard="3S", stock="JD", dealer=1)
    )
    play(game, "draw stock", "meld 5C 5D 2H 2S=5H")  # the 2H, sorting first, is not named
    seen = game.observation(1)["table"][0]
    assert dict(zip(seen["cards"], seen["stands_for"])) == {"5C": None, "5D": None, "2S": "5H", "2H": "5S"}


def test_a_2_is_never_exchanged_only_the_joker() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["joker"])
    game = variant.new_game(players=2, layout=layout(["5H 6H 2C 9C", "8C"], stock="7H", dealer=1))
    play(game, "draw stock", "meld 5H 6H 2C")
    refused(game, "swap 7H on 0")


def test_with_the_variation_anyone_may_take_the_joker_back() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["joker-anyone"])
    hands = ["5H 6H JK 9C 9D KC", "8C 8D 7S 2C QD KD"]
    game = variant.new_game(players=2, layout=layout(hands, discard="3S", stock="4D 7H", dealer=1))
    play(game, "draw stock", "meld 5H 6H JK", "discard 4D", "draw stock")
    play(game, "swap 7H on 0")
    assert Card(0, 4) in game.deal.hands[1]
    assert game.deal.table[0].owner == 0  # the meld stays its owner's


def test_a_joker_melded_scores_100_and_costs_200_in_hand() -> None:
    variant = rummykit.load_variant("fortune", house_rules=["joker"])
    game = variant.new_game(players=2, layout=layout(["5H 6H JK 9C", "8D"], stock="4D", dealer=1))
    play(game, "draw stock", "meld 5H 6H JK")
    assert game.deal.finish("out").details["melded"] == [5 + 5 + 100, 0]
    game = variant.new_game(players=2, layout=layout(["5H 6H", "JK 8D"], stock="4D", dealer=1))
    assert game.deal.finish("out").details["in_hand"] == [10, 200 + 10]


# -- Arlington's easier pick-up ------------------------------------------------------------------------


def test_the_easy_pickup_lays_the_top_discard_off_on_an_own_meld(arlington: rummykit.Variant) -> None:
    easy = rummykit.load_variant("arlington", house_rules=["easy-pickup"])
    hands = ["7S 7D 7H 9C", "8C 8D 4H"]
    games = []
    for variant in (arlington, easy):
        game = variant.new_game(players=2, layout=layout(hands, discard="KH", stock="3D 7C", dealer=1))
        play(game, "draw stock", "meld 7S 7D 7H", "discard 3D", "draw stock", "discard 7C")
        games.append(game)
    standard, game = games
    assert [str(a) for a in standard.legal_actions()] == ["draw stock"]
    refused(standard, "take pile on 0")
    assert "take pile on 0" in {str(a) for a in game.legal_actions()}
    play(game, "take pile on 0")
    assert sorted(map(str, game.deal.table[0].meld.cards)) == ["7C", "7D", "7H", "7S"]
    assert sorted(map(str, game.deal.hands[0])) == ["3D", "9C", "KH"]


# -- 500 Rum's wild jokers -----------------------------------------------------------------------------


def test_500_rum_with_a_wild_joker_scores_the_card_it_stands_for() -> None:
    variant = rummykit.load_variant("500-rum", house_rules=["one-joker"])
    game = variant.new_game(players=3, layout=layout(["QH KH JK 4C", "5D", "6S"], stock="9S", dealer=2))
    play(game, "draw stock", "meld QH KH JK")  # the joker stands for the ace: Q-K-A, 15
    assert game.deal.finish("out").details["melded"][0] == 10 + 10 + 15
    assert rummykit.load_variant("500-rum", house_rules=["two-jokers"]).joker_count(3) == 2
    with pytest.raises(rummykit.RulesetError):
        rummykit.load_variant("persian", house_rules=["one-joker"])


def test_the_greedy_bot_takes_the_pile_when_that_scores_and_melds_the_queen(fortune: rummykit.Variant) -> None:
    hands = ["QS 7S 7D 9C 4D", "5H 8C"]
    game = fortune.new_game(players=2, layout=layout(hands, discard="QD QH 7H", stock="KC", dealer=1))
    bot = GreedyBot(1)
    assert bot.choose(game).same_as(rummykit.Action.parse("take pile with 7S 7D"))
    game.apply(bot.choose(game))
    while game.deal.phase == "play" and game.current_player == 0:
        game.apply(bot.choose(game))
    assert sorted(str(tm) for tm in game.deal.table) == ["7D 7H 7S", "QD QH QS"]
    # When the pile brings more into hand than the meld scores, it draws from the stock.
    game = fortune.new_game(players=2, layout=layout(["7S 7D 5C", "5H 8C"], discard="QD KC 9H 7H", dealer=1))
    assert str(bot.choose(game)) == "draw stock"


# -- play to the end ---------------------------------------------------------------------------------

# The counts (500 random hands, 500 greedy games per configuration: about 45 minutes of one core) run with
# RUMMYKIT_SOAK=full; by default a share of them keeps the whole suite within its time. RUMMYKIT_SOAK_HANDS and
# RUMMYKIT_SOAK_GAMES set the counts directly.
FULL = os.environ.get("RUMMYKIT_SOAK") == "full"
RANDOM_HANDS = int(os.environ.get("RUMMYKIT_SOAK_HANDS", "500" if FULL else "60"))
GREEDY_GAMES = int(os.environ.get("RUMMYKIT_SOAK_GAMES", "500" if FULL else "8"))
CONFIGS = [("fortune", 2), ("fortune", 4), ("fortune", 8), ("arlington", 2), ("arlington", 4), ("arlington", 7)]


def _check(game: Game) -> None:
    game.check_cards()
    if not game.is_over:
        assert game.legal_actions(), f"no legal action in phase {game.deal.phase}"


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CONFIGS)
def test_random_bots_play_hands_to_the_end(name: str, players: int) -> None:
    variant = rummykit.load_variant(name)
    kinds: set[str] = set()
    for seed in range(RANDOM_HANDS):
        game = variant.new_game(players=players, seed=seed, max_hands=1)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while not game.is_over:
            action = bots[game.current_player].choose(game)
            kinds.add(action.kind)
            game.apply(action)
            _check(game)
        assert sum(game.results[0].scores) == sum(game.scores)
    assert {"draw stock", "take pile with", "meld", "layoff", "discard"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CONFIGS)
def test_greedy_bots_play_whole_games(name: str, players: int) -> None:
    variant = rummykit.load_variant(name)
    rng = random.Random(players)
    for seed in range(GREEDY_GAMES):
        game = variant.new_game(players=players, seed=seed)
        bots = [GreedyBot(seed * 10 + s) for s in range(players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
            if rng.random() < 0.2:
                _check(game)
        assert game.end_reason == "target"
        assert game.scores == [sum(r.scores[s] for r in game.results) for s in range(players)]


def test_the_draw_hint_and_refused_pile_takes_say_why() -> None:
    fortune = rummykit.load_variant("fortune")
    hands = ["7H 7S 4D 9S JH KC 3S 5D QD 8H AC", "AS 3C 5C 9D TH JC KD 4S 6H 8S TC"]
    g = fortune.new_game(layout=layout(hands, discard="QS 7D", stock="KH", dealer=1))
    assert position_words(g.deal, 0).hint.endswith(
        "or take the whole pile (meld its top card first: take pile with ...)"
    )
    for text, reason in (
        ("take pile", "first meld the top card, 7D, with cards from your hand, as in 'take pile with 7H 7S'"),
        ("take pile with QD", "the top card, 7D, must be melded with at least two cards from your hand"),
        ("take pile with QD 8H", "QD 8H and the top card, 7D, make no valid meld"),
        ("take pile with 2C 3C", "2C 3C is not in your hand"),
        ("meld 7H 7S QD", "draw a card first"),
    ):
        before = snapshot(g)
        with pytest.raises(IllegalAction, match=re.escape(reason)):
            g.apply(text)
        assert snapshot(g) == before
    g.apply("draw stock")
    with pytest.raises(IllegalAction, match="you have drawn already this turn"):
        g.apply("take pile with 7H 7S")
    # A pile whose top card melds with nothing in hand: the hint does not offer it.
    g = fortune.new_game(layout=layout(hands, discard="QS 6C", stock="KH", dealer=1))
    assert [str(a) for a in g.legal_actions()] == ["draw stock"]
    assert position_words(g.deal, 0).hint == "draw a card (draw stock); the pile cannot be taken now"
    with pytest.raises(IllegalAction, match="the pile's top card, 6C, makes no meld with your cards"):
        g.apply("take pile")


def test_a_refused_wild_layoff_names_what_the_wild_card_stands_for() -> None:
    hands = ["7H 7S 7D 2C 9S JH KC 3S 5D QD 8H", "AS 3C 5C 9D TH JC KD 4S 6H 8S TC"]
    g = rummykit.load_variant("fortune").new_game(layout=layout(hands, discard="QS 6C", stock="KH", dealer=1))
    play(g, "draw stock", "meld 7H 7S 7D")
    with pytest.raises(IllegalAction, match=re.escape("2C=TD does not fit table meld 0 (7D 7H 7S)")):
        g.apply("layoff 2C=TD on 0")
