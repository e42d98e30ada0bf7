"""Skarney and Skarney Singles: hand-built deals for each rule, a whole game scored by hand, and
soak runs of random and greedy bots."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from conftest import (
    benchmark,  # benchmarks/ scripts imported as modules
    snapshot,  # one snapshot: what an illegal action must leave as it was
)
from rummykit.plugins.skarney import skarney_state

import rummykit
from rummykit import Game, IllegalAction
from rummykit.bots import GreedyBot, RandomBot

# Seats 1-3 hold cards that make no meld (no three of a rank, no three in sequence in a suit).
FILLER = [
    "3C 5C 7C 9C JC KC 4D 6D 8D TD QD",
    "3H 5H 7H 9H JH KH 4S 6S 8S TS QS",
    "4C 6C 8C TC QC 3D 5D 7D 9D JD KD",
]
CONTRACT = "7H 7S 7D 8C 8D 8S 9H 9C JK"
CONTRACT_ACTION = "meld 7H 7S 7D | 8C 8D 8S | 9H 9C JK"

# The rules' own numbers, written out here (docs/skarney.md), to check the plugin against.
HAND_BONUS = [100, 100, 100, 200, 300, 400, 500]
CONTRACT_MELDS = [3, 3, 3, 4, 4, 4, 4]
SHUTOUT = 200


def value_in_hand(card: str) -> int:
    rank = card[:-1] if card != "JK" else "JK"
    return {"JK": 100, "2": 50, "A": 15, "K": 10, "Q": 10, "J": 10, "T": 10}.get(rank, 5)


def value_melded(card: str, kind: str) -> int:
    if card == "JK":
        return 100 if kind == "wild-set" else 50
    if card[0] == "2":
        return 50 if kind == "wild-set" else 25
    return value_in_hand(card)


def variant(name: str = "skarney", **options: Any) -> rummykit.Variant:
    return rummykit.load_variant(name, options=options or None)


def new_game(
    hands: list[str], stock: str = "", name: str = "skarney", dealer: int | None = None, **options: Any
) -> Game:
    players = len(hands)
    layout = {
        "dealer": players - 1 if dealer is None else dealer,
        "hands": [h.split() for h in hands],
        "stock": stock.split(),
    }
    return variant(name, **options).new_game(players=players, seed=1, layout=layout)


def refused(game: Game, text: str, reason: str = "") -> str:
    """``text`` is refused and leaves the game exactly as it was; returns the message."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(text)
    assert snapshot(game) == before
    assert reason in str(info.value), str(info.value)
    return str(info.value)


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()
        assert game.deal.card_count() == len(game.deck)


def offer_declined(game: Game, card: str) -> None:
    """The current player offers ``card`` and every seat asked declines."""
    play(game, f"offer {card}")
    while game.deal.phase == "offered":
        play(game, "decline")


def pass_turn(game: Game) -> None:
    """The current player draws (unless stopped) and offers its first natural non-ace card; nobody takes it."""
    if game.deal.phase == "draw":
        play(game, "draw stock")
    card = next(c for c in game.deal.hands[game.deal.current] if c.rank > 2)
    offer_declined(game, str(card))


def at(game: Game, card: str) -> int:
    """The index of the table meld holding ``card`` (a listed contract may order its melds its own way)."""
    return next(i for i, tm in enumerate(game.deal.table) if card in [str(c) for c in tm.meld.cards])


def texts(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


# -- the variants ------------------------------------------------------------------------------------------


def test_the_variants_deal_108_cards_11_each_without_a_pile() -> None:
    game = variant().new_game(players=4, seed=3)
    assert len(game.deck) == 108 and sum(c.is_joker for c in game.deck) == 4
    assert [len(h) for h in game.deal.hands] == [11] * 4 and game.deal.discard == []
    assert game.variant.partnerships
    singles = variant("skarney-singles")
    assert (singles.min_players, singles.max_players) == (2, 4) and not singles.partnerships
    for players in (2, 3, 4):
        assert [len(h) for h in singles.new_game(players=players, seed=2).deal.hands] == [11] * players


def test_no_jokers_house_rule_sets_the_jokers_aside() -> None:
    plain = rummykit.load_variant("skarney", house_rules=["no-jokers"])
    game = plain.new_game(players=4, seed=5)
    deal = game.deal
    in_play = [c for h in deal.hands for c in h] + deal.stock
    assert len(in_play) == 104 and not any(c.is_joker for c in in_play)
    assert sorted(str(c) for c in deal.set_aside) == ["JK"] * 4
    # A prearranged deal too: the jokers it does not name never reach the stock.
    arranged = plain.new_game(
        players=4, seed=1, layout={"dealer": 3, "hands": [h.split() for h in [CONTRACT.replace("JK", "9S"), *FILLER]]}
    )
    assert not any(c.is_joker for c in arranged.deal.stock) and len(arranged.deal.set_aside) == 4
    game.check_cards()


def test_no_contract_house_rule_allows_any_meld_at_any_time() -> None:
    free = rummykit.load_variant("skarney", house_rules=["no-contract"])
    hands = [h.split() for h in [CONTRACT + " KC KD", *FILLER]]
    game = free.new_game(players=4, seed=1, layout={"dealer": 3, "hands": hands, "stock": ["KH"]})
    play(game, "draw stock", "meld KC KD KH", "meld 7H 7S 7D", "meld 8C 8D 8S")
    play(game, f"layoff JK on {at(game, 'KC')}")
    assert len(game.deal.table) == 3 and game.observation(1)["contracts"][0]["laid"]
    assert len(game.deal.table[at(game, "KC")].meld) == 4


# -- the contract ------------------------------------------------------------------------------------------


def test_a_contract_is_three_sets_laid_at_once_and_nothing_else_that_turn() -> None:
    game = new_game([CONTRACT + " KC KD", *FILLER], stock="KH")
    play(game, "draw stock")
    assert CONTRACT_ACTION.replace("JK", "JK=9S") in texts(game) or any(
        a.kind == "meld" and len(a.groups) == 3 for a in game.legal_actions()
    )
    # No single meld before the contract (the seed: "Until you ... make your team's contract meld, you are
    # not allowed to make any other melds").
    refused(game, "meld KC KD KH", "contract")
    refused(game, "meld 7H 7S 7D", "contract")
    play(game, CONTRACT_ACTION)
    assert [str(tm) for tm in game.deal.table] == ["7D 7H 7S", "8C 8D 8S", "9C 9H JK"]
    # The turn the contract is laid, nothing else is laid: the set of kings waits, an offer ends the turn.
    refused(game, "meld KC KD KH", "nothing else")
    assert {a.kind for a in game.legal_actions()} == {"offer"}


def test_a_contract_naming_a_card_not_held_is_told_that_not_the_contracts_shape() -> None:
    game = new_game([CONTRACT + " KC KD", *FILLER], stock="KH")
    play(game, "draw stock")
    assert refused(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9S", "9S is not in your hand")
    assert "only meld is the contract" not in refused(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9S")


def test_a_contract_of_ten_cards_is_refused() -> None:
    game = new_game(["7H 7S 7D 8C 8D 8S 9H 9C 9S 9D KC", *FILLER], stock="QH")
    play(game, "draw stock")
    refused(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9S 9D", "only meld is the contract")
    play(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9S")
    # Without the contract restriction (house rule) the same ten cards may go down.
    free = new_game(["7H 7S 7D 8C 8D 8S 9H 9C 9S 9D KC", *FILLER], stock="QH", rules={"contract": False})
    play(free, "draw stock", "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9S 9D")


def test_a_contract_mixing_sets_and_runs_is_refused() -> None:
    hand = "7H 7S 7D 8C 8D 8S 4H 5H 6H 9C 9D"
    game = new_game([hand, *FILLER], stock="QH")
    play(game, "draw stock")
    refused(game, "meld 7H 7S 7D | 8C 8D 8S | 4H 5H 6H", "contract")
    # Three runs, each in one suit, the suits different: a contract.
    runs = new_game(["4H 5H 6H 8D 9D TD JS QS KS TH TH", *FILLER], stock="QH")
    play(runs, "draw stock", "meld 4H 5H 6H | 8D 9D TD | JS QS KS")


def test_hands_four_to_seven_ask_for_four_melds_of_three() -> None:
    game = new_game([CONTRACT + " KC KD KH", *FILLER], stock="QH")
    skarney_state(game.deal).hand = 4
    game.deal._legal = None
    play(game, "draw stock")
    refused(game, CONTRACT_ACTION, "4 sets or 4 runs")
    play(game, CONTRACT_ACTION + " | KC KD KH")
    assert game.observation(0)["contract"] == {"melds": 4, "cards_each": 3}


def test_the_listed_contracts_are_capped_and_any_valid_one_is_accepted_when_typed() -> None:
    from rummykit.plugins.skarney import CONTRACT_LIMIT

    # Sevens, eights and nines twice over, with wild cards: a great many ways to make four sets of three.
    hand = "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 2C"
    game = new_game([hand, *FILLER], stock="2D")
    skarney_state(game.deal).hand = 4
    game.deal._legal = None
    play(game, "draw stock")
    started = time.perf_counter()
    contracts = [a for a in game.legal_actions() if a.kind == "meld"]
    assert time.perf_counter() - started < 2
    assert len(contracts) == CONTRACT_LIMIT and all(len(a.groups) == 4 for a in contracts)
    listed = {str(a) for a in contracts}
    typed = "meld 9C 9D 9H | 8H 8S 2D | 7C 7D 2C | 7H 7S 8C 8D"
    refused(game, typed)  # the last group mixes ranks
    typed = "meld 9C 9D 9H | 8H 8S 2D | 7H 7S 2C | 7C 7D 8C"
    refused(game, typed)
    typed = "meld 9C 9D 9H | 8H 8S 8D | 7H 7S 2C | 7C 7D 2D"
    assert typed not in listed
    play(game, typed)
    assert len(game.deal.table) == 4


def test_a_contract_that_takes_every_card_goes_out() -> None:
    game = new_game([CONTRACT + " KC KD", *FILLER], stock="KH")
    skarney_state(game.deal).hand = 4
    game.deal._legal = None
    play(game, "draw stock", CONTRACT_ACTION + " | KC KD KH")
    result = game.results[0]
    assert result.kind == "out" and result.winner == 0
    assert result.details["hand_bonus"] == 200 and result.details["shutout_bonus"] == SHUTOUT


def test_a_second_wild_card_in_a_meld_is_refused() -> None:
    game = new_game(["7H 7S 7D 8C 8D 8S 9H 2C JK QC QD", *FILLER], stock="QH 4C 4D 4H 2S")
    play(game, "draw stock")
    refused(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 2C JK", "at most one wild card")
    play(game, "meld 7H 7S 7D | 8C 8D 8S | QC QD 2C")
    offer_declined(game, "9H")
    for _ in range(3):
        pass_turn(game)
    # After the contract: a set with two wild cards is refused; a wild card on a meld that holds one too.
    play(game, "draw stock")
    refused(game, "meld QH JK 2S", "at most one wild card")
    refused(game, f"layoff JK on {at(game, 'QC')}")
    play(game, f"layoff QH on {at(game, 'QC')}", f"layoff JK on {at(game, '7H')}")
    assert len(game.deal.table[at(game, "7H")].meld) == 4


def test_special_melds_of_wild_cards_alone_are_never_in_a_contract_nor_exchanged() -> None:
    game = new_game(["7H 7S 7D 8C 8D 8S 9H 9C 9D 2C 2D", *FILLER], stock="2H 4C 4D 4H 9S")
    play(game, "draw stock")
    refused(game, "meld 7H 7S 7D | 8C 8D 8S | 2C 2D 2H", "contract")
    play(game, "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 9D", "offer 2H", "decline")
    assert game.deal.current == 1  # a 2 goes to the left-hand opponent only
    for _ in range(3):
        pass_turn(game)
    play(game, "draw stock", "meld 2C 2D 2H", "end turn")
    assert game.deal.table[3].meld.kind == "wild-set"
    # Seat 1 may not take a 2 out of the meld of 2s (none of them stands for another card).
    play(game, "draw stock")
    refused(game, "swap 3C on 3")
    assert not any(a.kind == "swap" for a in game.legal_actions())


# -- after the contract --------------------------------------------------------------------------------------


def contract_down(extra: str, stock: str, name: str = "skarney", **options: Any) -> Game:
    """Seat 0 lays the contract on its first turn, offers KC (declined), and the others pass; seat 0 to play."""
    hands = [CONTRACT + " KC " + extra, *FILLER]
    game = new_game(hands, stock="QH 4C 4D 4H " + stock, name=name, **options)
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    for _ in range(3):
        pass_turn(game)
    assert game.deal.current == 0
    return game


def test_three_cards_added_to_one_meld_in_a_turn_are_refused() -> None:
    game = contract_down("7C 7S", "2H 5C 5D 5H 8H")
    sevens, eights = at(game, "7H"), at(game, "8C")
    play(game, "draw stock", f"layoff 7C on {sevens}", f"layoff 7S on {sevens}")
    refused(game, f"layoff 2H on {sevens}", "at most 2 cards")
    # Another meld still takes one or two.
    play(game, f"layoff 2H on {eights}")
    assert len(game.deal.table[sevens].meld) == 5 and len(game.deal.table[eights].meld) == 4
    # Next turn the count starts again.
    offer_declined(game, "QH")
    for _ in range(3):
        pass_turn(game)
    play(game, "draw stock")
    assert f"layoff 8H on {eights}" in texts(game)


def test_two_cards_at_once_but_not_three() -> None:
    game = contract_down("7C 7S", "2H")
    sevens = at(game, "7H")
    play(game, "draw stock")
    refused(game, f"layoff 7C 7S 2H on {sevens}", "at most 2 cards")
    play(game, f"layoff 7C 7S on {sevens}")
    refused(game, f"layoff 2H on {sevens}", "at most 2 cards")


def test_a_layoff_before_the_sides_contract_is_refused() -> None:
    # Lay-offs on any meld (changed here) so that only the contract rule stands in the way.
    game = new_game(
        [CONTRACT + " KC KD", "7C 9S 8H " + FILLER[0][9:], *FILLER[1:]], stock="QH", table={"layoff": "any"}
    )
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    play(game, "draw stock")
    refused(game, f"layoff 7C on {at(game, '7H')}", "before your side's contract")
    assert not any(a.kind == "layoff" for a in game.legal_actions())


def test_a_partners_contract_counts_for_the_side() -> None:
    hands = [CONTRACT + " KC KD", FILLER[0], "QH QD QS 7C 3C 5C 6S 8S TS 4S AS", FILLER[2]]
    game = new_game(hands, stock="2S 4C 4D 4H")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    pass_turn(game)
    assert game.deal.current == 2
    play(game, "draw stock", "meld QH QD QS", f"layoff 7C on {at(game, '7H')}")
    obs = game.observation(1)
    assert [c["laid"] for c in obs["contracts"]] == [True, False]
    assert obs["contracts"][0]["laid_by"] == 0 and obs["contracts"][0]["seats"] == [0, 2]


# -- exchanges ------------------------------------------------------------------------------------------------


def test_an_exchange_takes_an_opponents_wild_card_never_ones_own_sides() -> None:
    hands = [CONTRACT + " KC KD", "9S 9D " + FILLER[0][6:], "9S " + FILLER[1][3:], FILLER[2]]
    game = new_game(hands, stock="QH 4C 4D 4H")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    # Seat 1 (an opponent) exchanges 9S for the joker standing in 9H 9C JK, before its contract.
    play(game, "draw stock")
    nines = at(game, "9H")
    assert game.observation(1)["table"][nines]["stands_for"] == [None, None, "9D"]
    assert f"swap 9S on {nines}" in texts(game)
    play(game, f"swap 9S on {nines}")
    assert str(game.deal.table[nines]) == "9C 9H 9S" and any(c.is_joker for c in game.deal.hands[1])
    assert game.observation(0)["known"]["1"] == ["JK"]  # everyone saw it come off the table
    refused(game, f"swap 9D on {nines}")  # no wild card left there
    offer_declined(game, "4D")


def test_an_exchange_from_ones_own_side_is_refused() -> None:
    hands = [CONTRACT + " KC KD", FILLER[0], "9S 9D " + FILLER[1][6:], FILLER[2]]
    game = new_game(hands, stock="QH 4C 4D 4H")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    pass_turn(game)
    play(game, "draw stock")  # seat 2, seat 0's partner
    assert not any(a.kind == "swap" for a in game.legal_actions())
    refused(game, f"swap 9S on {at(game, '9H')}", "opponents' wild cards")


def test_exchanges_come_before_any_meld_in_the_turn() -> None:
    hands = [CONTRACT + " KC KD", "9S QH QD QS " + FILLER[0][12:], FILLER[1], FILLER[2]]
    game = new_game(hands, stock="QH 4C 4D 4H", rules={"contract": False})
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    play(game, "draw stock")
    nines = at(game, "9H")
    assert f"swap 9S on {nines}" in texts(game)
    play(game, "meld QH QD QS")
    refused(game, f"swap 9S on {nines}", "exchanges come first")
    # With rules.exchange_first off, the same exchange after a meld is allowed.
    late = new_game(hands, stock="QH 4C 4D 4H", rules={"contract": False, "exchange_first": False})
    play(late, "draw stock", CONTRACT_ACTION)
    offer_declined(late, "KC")
    play(late, "draw stock", "meld QH QD QS", f"swap 9S on {nines}")


def test_singles_exchange_from_any_opponent_and_lay_off_only_on_own_melds() -> None:
    hands = [CONTRACT + " KC KD", "4H 5H 6H 8D 9D TD JS QS KS 9S 7C"]
    game = new_game(hands, stock="QH 5C 7H", name="skarney-singles")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    play(game, "draw stock", f"swap 9S on {at(game, '9H')}", "meld 4H 5H 6H | 8D 9D TD | JS QS KS")
    offer_declined(game, "5C")
    play(game, "draw stock")  # 7H: it fits seat 0's sevens and seat 1's 4H 5H 6H, which takes no card of seat 0's
    assert f"layoff 7H on {at(game, '7S')}" in texts(game)
    refused(game, f"layoff 7H on {at(game, '5H')}", "only to your own melds")
    refused(game, f"swap 9D on {at(game, '9H')}")  # no wild card there any more


# -- offers and stop cards -----------------------------------------------------------------------------------


def test_an_ace_is_offered_only_to_the_left() -> None:
    game = new_game(["AH " + CONTRACT.replace("JK", "3S") + " 5S", *FILLER], stock="QH")
    play(game, "draw stock", "offer AH")
    assert game.deal.responder == 1
    play(game, "decline")
    # Nobody else is asked: the offerer keeps the ace, and seat 1's turn begins.
    assert game.deal.current == 1 and game.deal.phase == "draw" and game.deal.offer is None
    assert any(c.rank == 1 for c in game.deal.hands[0])
    ace = next(c for c in game.deal.hands[0] if c.rank == 1)
    assert game.deal.seen[ace.id] == {1}
    assert game.observation(1)["known"]["0"] == ["AH"] and game.observation(2)["known"]["0"] == []
    # A seven goes round: left-hand opponent, then the others clockwise (partner included).
    other = new_game(["AH " + CONTRACT.replace("JK", "3S") + " 5S", *FILLER], stock="QH")
    play(other, "draw stock", "offer 5S", "decline")
    assert other.deal.responder == 2
    play(other, "decline")
    assert other.deal.responder == 3
    view = other.observation(2)
    assert view["offers"] == [{"from": 0, "card": "5S", "declined_by": [1, 2], "taken_by": None}]
    assert other.observation(1)["offers"][0]["card"] == "5S"
    play(other, "decline")
    assert other.observation(3)["known"]["0"] == ["5S"]


def test_a_seat_answering_an_offer_is_told_to_answer_it() -> None:
    game = new_game(["AH " + CONTRACT.replace("JK", "3S") + " 5S", *FILLER], stock="QH")
    play(game, "draw stock", "offer 5S")
    responder_hand = [str(c) for c in game.deal.hands[game.deal.responder]]
    # A card the responder holds is not "missing" from the offerer's hand: the answer is asked for.
    for text in (f"meld {responder_hand[0]}", "draw", "draw stock", "offer 5S"):
        refused(game, text, "a card is offered to you: accept or decline it first")
    play(game, "decline", "decline", "decline")
    # Skarney has no discard pile: a bare "draw" names only the stock.
    refused(game, "draw", "say 'draw stock'")
    refused(game, f"offer {game.deal.hands[game.deal.current][0]}", "draw a card first")


def test_wild_cards_are_offered_only_to_the_left_too() -> None:
    game = new_game(["2H JK " + CONTRACT.replace("JK", "3S")[:-3], *FILLER], stock="QH")
    play(game, "draw stock", "offer 2H", "decline")
    assert game.deal.current == 1 and game.deal.offer is None


def test_a_stop_card_skips_the_takers_next_draw() -> None:
    game = new_game(["2H 7C " + CONTRACT.replace("JK", "3S"), *FILLER], stock="QH 4C 4D 4H")
    play(game, "draw stock", "offer 2H", "accept")
    deal = game.deal
    assert deal.current == 1 and deal.phase == "play"  # no draw: straight to melding and offering
    assert not any(a.kind == "draw stock" for a in game.legal_actions())
    stock = len(deal.stock)
    assert game.observation(1)["skips_draw"] == [] and game.observation(0)["skips_draw"] == []
    offer_declined(game, "3C")
    assert len(deal.stock) == stock
    # An ordinary card taken: the taker still draws.
    plain = new_game(["2H 7C " + CONTRACT.replace("JK", "3S"), *FILLER], stock="QH 4C 4D 4H")
    play(plain, "draw stock", "offer 7C", "accept")
    assert plain.deal.current == 1 and plain.deal.phase == "draw"


def test_a_stop_card_is_known_to_the_two_players_it_passed_between() -> None:
    game = new_game(["AH 7C " + CONTRACT.replace("JK", "3S"), *FILLER], stock="QH 4C 4D 4H")
    play(game, "draw stock", "offer AH")
    assert game.observation(1)["offers"][0]["card"] == "AH"
    assert game.observation(2)["offers"][0]["card"] is None
    play(game, "accept")
    assert game.deal.phase == "play" and game.deal.current == 1


def test_one_card_left_no_offer() -> None:
    game = new_game([CONTRACT + " KC", *FILLER], stock="QH")
    play(game, "draw stock", CONTRACT_ACTION)
    assert texts(game) == ["offer KC", "offer QH"] or {a.kind for a in game.legal_actions()} == {"offer"}
    one = new_game([CONTRACT, *FILLER], stock="QH")
    play(one, "draw stock", CONTRACT_ACTION)
    assert texts(one) == ["end turn"]
    refused(one, "offer QH")
    play(one, "end turn")
    assert one.deal.current == 1


# -- the end of a hand and scoring ---------------------------------------------------------------------------


def go_out_game(opponent_contract: bool) -> tuple[Game, list[list[str]]]:
    """Seat 0 lays its contract, then goes out with three kings; seat 1 lays a contract first or not."""
    seat1 = "4H 5H 6H 8D 9D TD JS QS KS TH TH" if opponent_contract else FILLER[0]
    hands = [CONTRACT + " KC", seat1, FILLER[1], FILLER[2]]
    game = new_game(hands, stock="KD 5C 4D 4C KH")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    play(game, "draw stock")
    if opponent_contract:
        play(game, "meld 4H 5H 6H | 8D 9D TD | JS QS KS", "offer TH", "decline", "decline", "decline")
    else:
        offer_declined(game, "3C")
    pass_turn(game)
    pass_turn(game)
    deal = game.deal
    hands_before = [[str(c) for c in h] for h in deal.hands]
    play(game, "draw stock", "meld KC KD KH")
    assert deal.result is not None and deal.result.kind == "out"
    return game, [[str(c) for c in h] for h in deal.hands] or hands_before


def test_going_out_before_the_opponents_contract_earns_the_shutout_bonus() -> None:
    game, hands = go_out_game(opponent_contract=False)
    result = game.results[0]
    melded0 = sum(value_melded(c, "set") for c in CONTRACT.split()) + 30
    assert melded0 == 15 + 15 + (5 + 5 + 50) + 30
    penalty = [0, sum(map(value_in_hand, hands[1])), 0, sum(map(value_in_hand, hands[3]))]
    assert result.scores == (melded0 + 100 + SHUTOUT, -penalty[1], 0, -penalty[3])
    assert result.details["shutout_bonus"] == SHUTOUT and result.winner == 0
    assert game.side_scores() == [melded0 + 300, -penalty[1] - penalty[3]]


def test_no_shutout_bonus_once_the_opponents_contract_is_down() -> None:
    game, hands = go_out_game(opponent_contract=True)
    result = game.results[0]
    melded0 = 15 + 15 + (5 + 5 + 50) + 30
    melded1 = 15 + 20 + 30
    assert "shutout_bonus" not in result.details
    assert result.scores[0] == melded0 + 100
    assert result.scores[1] == melded1 - sum(map(value_in_hand, hands[1]))


def test_singles_shutout_only_if_no_opponent_has_a_contract() -> None:
    hands = [CONTRACT + " KC", "4H 5H 6H 8D 9D TD JS QS KS TH TH", FILLER[1]]
    game = new_game(hands, stock="KD 5C 4D KH", name="skarney-singles")
    play(game, "draw stock", CONTRACT_ACTION)
    offer_declined(game, "KC")
    play(game, "draw stock", "meld 4H 5H 6H | 8D 9D TD | JS QS KS", "offer TH", "decline", "decline")
    pass_turn(game)
    play(game, "draw stock", "meld KC KD KH")
    result = game.results[0]
    # Seat 2 laid nothing, but seat 1 did: no shutout. Every other player pays for the cards in hand.
    assert "shutout_bonus" not in result.details and result.scores[0] == 120 + 100
    assert result.scores[1] == 65 - 5 - 10 - 10  # 5C, TH, TH in hand
    assert result.scores[2] == -(sum(value_in_hand(c) for c in FILLER[1].split()) + 5)  # and the 4D drawn
    # Had seat 1 laid nothing either, seat 0 would have had the shutout bonus.
    alone = new_game([CONTRACT + " KC", FILLER[0], FILLER[1]], stock="KD 5C 4D KH", name="skarney-singles")
    play(alone, "draw stock", CONTRACT_ACTION)
    offer_declined(alone, "KC")
    pass_turn(alone)
    pass_turn(alone)
    play(alone, "draw stock", "meld KC KD KH")
    assert alone.results[0].scores[0] == 120 + 100 + SHUTOUT


def last_card_game(hands: list[str], last: str, name: str = "skarney") -> Game:
    """A deal whose stock holds one card (the rest set aside, still accounted for): seat 0 draws it."""
    game = new_game(hands, stock=last, name=name)
    deal = game.deal
    deal.set_aside.extend(deal.stock[:-1])
    del deal.stock[:-1]
    deal._legal = None
    return game


def test_a_tied_hand_does_not_count_and_the_next_deal_plays_the_same_hand() -> None:
    hands = ["3C 4D 5H 6S 7C 8D", "3D 4H 5S 6C 7D 8H", "9C TD JH QS KC AD", "9D TH JS QC KD AH"]
    game = last_card_game(hands, "3S")
    # Seat 1's side holds one five more than seat 0's side once seat 0 draws the 3S: give seat 1 a 3 too.
    game.deal.hands[1].append(
        game.deal.set_aside.pop(next(i for i, c in enumerate(game.deal.set_aside) if c.rank == 3))
    )
    game.deal._legal = None
    play(game, "draw stock", "end turn")
    result = game.results[0]
    assert result.kind == "tie" and result.scores == (0, 0, 0, 0) and result.details["counted"] is False
    assert result.details["side_points"] == {0: -95, 1: -95}
    assert game.scores == [0, 0, 0, 0] and not game.is_over
    assert skarney_state(game.deal).hand == 1 and game.observation(0)["hand_number"] == 1  # the same hand again


def test_when_nobody_goes_out_the_side_with_more_points_takes_the_hand_bonus() -> None:
    hands = ["3C 4D 5H 6S 7C 8D", "3D 4H 5S 6C 7D 8H", "9C TD JH QS KC AD", "9D TH JS QC KD AH"]
    game = last_card_game(hands, "3S")
    play(game, "draw stock")
    # The last card drawn: no offer; the player melds what they can and ends the turn, which ends the hand.
    assert texts(game) == ["end turn"]
    refused(game, "offer 3S", "no offer")
    play(game, "end turn")
    result = game.results[0]
    # Side 0 holds 30 + 5 + 60 = 95 + the 3S... side 1 holds 30 + 60: side 1 has more points (fewer against).
    pen = [sum(value_in_hand(c) for c in h.split()) for h in hands]
    pen[0] += 5
    assert result.kind == "exhausted" and result.details["counted"]
    assert result.scores == (-pen[0], -pen[1] + 100, -pen[2], -pen[3])
    assert skarney_state(game.deal).hand == 2


# -- a whole game -----------------------------------------------------------------------------------------------


def expected_scores(deal: Any, hand: int) -> tuple[tuple[int, ...], bool]:
    """A hand's scores worked out from the rules as written (not through the plugin's functions)."""
    game = deal.game
    side = game.side_of
    seats = list(deal.seats)
    melded = [0] * game.num_players
    for tm in deal.table:
        for card in tm.meld.cards:
            melded[tm.credits.get(card.id, tm.owner)] += value_melded(str(card), tm.meld.kind)
    in_hand = [sum(value_in_hand(str(c)) for c in deal.hands[s]) for s in range(game.num_players)]
    out = deal.result.kind == "out"
    scores = [melded[s] - (0 if out and side(s) == side(deal.current) else in_hand[s]) for s in range(game.num_players)]
    sides = sorted({side(s) for s in seats})
    totals = {x: sum(scores[s] for s in seats if side(s) == x) for x in sides}
    if out:
        scores[deal.current] += HAND_BONUS[hand - 1]
        laid = {side(tm.owner) for tm in deal.table}
        if not any(x in laid for x in sides if x != side(deal.current)):
            scores[deal.current] += SHUTOUT
        return tuple(scores), True
    best = max(totals.values())
    leaders = [x for x in sides if totals[x] == best]
    if len(leaders) > 1:
        return tuple(0 for _ in scores), False
    scores[min(s for s in seats if side(s) == leaders[0])] += HAND_BONUS[hand - 1]
    return tuple(scores), True


@pytest.mark.parametrize("name, players", [("skarney", 4), ("skarney-singles", 3)])
def test_a_whole_seven_hand_game_scored_by_hand(name: str, players: int) -> None:
    game = variant(name).new_game(players=players, seed=11)
    bots = [GreedyBot(i) for i in range(players)]
    hand = 1
    counted = 0
    while not game.is_over:
        deal = game.deal
        if deal.turn == 0 and deal.phase == "draw" and not deal.log:
            # Each deal asks for the contract of its hand: three melds in hands 1-3, four in 4-7.
            assert game.observation(0)["contract"]["melds"] == CONTRACT_MELDS[hand - 1]
        game.apply(bots[game.current_player].choose(game))
        if deal.result is not None:
            scores, counts = expected_scores(deal, hand)
            assert deal.result.scores == scores, (hand, deal.result)
            assert deal.result.details["hand"] == hand
            if counts:
                hand += 1
                counted += 1
    assert counted == 7 and game.end_reason == "hands"
    assert game.scores == [sum(r.scores[s] for r in game.results) for s in range(players)]
    best = max(game.side_scores())
    assert game.side_scores()[game.side_of(game.winner)] == best
    # The record replays to the same game.
    again = Game.from_json(game.to_json())
    assert again.scores == game.scores and again.history == game.history and again.is_over


# -- soak -----------------------------------------------------------------------------------------------------

CONFIGS = [("skarney", 4), ("skarney-singles", 2), ("skarney-singles", 3), ("skarney-singles", 4)]
FULL = os.environ.get("RUMMYKIT_SOAK") == "full"  # the counts; by default the suite's share
RANDOM_HANDS = int(os.environ.get("SKARNEY_RANDOM_HANDS", "300" if FULL else "60"))
# Whole greedy games take 2-6 s each on one shared core (the bot's wild-card arrangement search dominates), so
# the default run plays a sample sized to a minute or two per variant. SKARNEY_GREEDY_GAMES=300 plays the full
# 300 of each, which takes longer than pytest's 900 s test timeout: add --timeout 0.
GREEDY_SAMPLE = {("skarney", 4): 8, ("skarney-singles", 2): 10, ("skarney-singles", 3): 5, ("skarney-singles", 4): 4}


def _step(game: Game, bot: Any) -> None:
    """One action; a deal that is not over always offers one, and every card is accounted for after it."""
    deal = game.deal
    assert game.legal_actions(), f"no legal action in phase {deal.phase}"
    game.apply(bot.choose(game))
    assert deal.card_count() == len(game.deck)
    if deal.result is not None:
        assert sorted(c.id for c in deal.all_cards()) == sorted(c.id for c in game.deck)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", CONFIGS)
def test_random_bots_play_300_seeded_hands(name: str, players: int) -> None:
    var = variant(name)
    hands = 0
    seed = 0
    while hands < RANDOM_HANDS:
        game = var.new_game(players=players, seed=seed)
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        while not game.is_over and len(game.results) < 2 and hands + len(game.results) < RANDOM_HANDS:
            _step(game, bots[game.current_player])
        game.check_cards()
        hands += len(game.results)
        seed += 1


@pytest.mark.slow
@pytest.mark.parametrize("name, players", CONFIGS)
def test_greedy_bots_play_whole_games(name: str, players: int) -> None:
    var = variant(name)
    count = int(os.environ.get("SKARNEY_GREEDY_GAMES", 300 if FULL else GREEDY_SAMPLE[name, players]))
    kinds: dict[str, int] = {}
    for seed in range(count):
        game = var.new_game(players=players, seed=seed)
        bots = [GreedyBot(seed * 10 + i) for i in range(players)]
        while not game.is_over:
            _step(game, bots[game.current_player])
        assert sum(1 for r in game.results if r.details.get("counted")) == 7 and game.end_reason == "hands"
        assert game.winner is not None
        for result in game.results:
            kinds[result.kind] = kinds.get(result.kind, 0) + 1
    assert kinds.get("out", 0) > count  # greedy players go out in most hands


@pytest.mark.slow
@pytest.mark.parametrize("house_rules", [["no-jokers"], ["no-contract"], ["no-jokers", "no-contract"]])
def test_bots_play_with_the_house_rules(house_rules: list[str]) -> None:
    var = rummykit.load_variant("skarney", house_rules=house_rules)
    for seed in range(6):
        game = var.new_game(players=4, seed=seed)
        bots = [(RandomBot if seed % 2 else GreedyBot)(seed * 10 + i) for i in range(4)]
        while not game.is_over and len(game.results) < 2:
            _step(game, bots[game.current_player])
        if "no-jokers" in house_rules:
            assert len(game.deal.set_aside) == 4 and all(c.is_joker for c in game.deal.set_aside)


def test_greedy_offers_its_lowest_unmelded_card() -> None:
    """Whoever takes an offered card may score it on the table, so greedy offers the lowest card its best
    arrangement leaves unmelded (a natural card before a wild one), never a dearer spare one."""
    variant = rummykit.load_variant("skarney-singles")
    search, value = variant.meld_search, variant.value
    offers = 0
    for seed in range(3):
        game = variant.new_game(players=2, seed=seed)
        bots = [GreedyBot(seed=seed), RandomBot(seed=seed + 50)]
        while not game.is_over and offers < 60:
            seat = game.deal.actor
            action = bots[seat].choose(game)
            if seat == 0 and action.kind == "offer":
                offers += 1
                hand = game.deal.hands[seat]
                spare = {c.face for c in search.arrange(hand).deadwood}
                natural = [c for c in hand if c.face in spare and not search.is_wild(c)]
                if natural:
                    assert action.cards[0].face in spare and not search.is_wild(action.cards[0])
                    assert value(action.cards[0]) == min(value(c) for c in natural), (hand, action)
            game.apply(action)
    assert offers >= 20


@pytest.mark.parametrize("name", ["skarney", "skarney-singles"])
def test_contracts_kept_from_turn_to_turn_are_those_found_afresh(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The melds of contracts, a rank's sets and a suit's runs are kept by their cards from turn to turn (a hand
    changes a card or two), and each meld's counts and action by the meld: over random games, the contracts
    listed are those found with nothing kept."""
    from rummykit.plugins import skarney

    class Forgetful(dict[Any, Any]):
        def __setitem__(self, key: object, value: object) -> None:
            pass

    variant = rummykit.load_variant(name)
    checked = 0
    for seed in range(3):
        game = variant.new_game(seed=seed, max_hands=1)
        bot = RandomBot(seed)
        while not game.is_over:
            deal = game.deal
            if deal.phase == "play" and deal.actor == deal.current:
                kept = skarney.contracts(deal, deal.current)
                with monkeypatch.context() as patch:
                    patch.setattr(
                        skarney,
                        "_kept_by",
                        lambda search: skarney._Kept(
                            search, made=Forgetful(), groups=Forgetful(), contracts=Forgetful(), joined=Forgetful()
                        ),
                    )
                    deal.variant.meld_search._kept.clear()  # what is kept with each meld (its counts, its action)
                    assert skarney.contracts(deal, deal.current) == kept
                checked += bool(kept)
            game.apply(bot.choose(game))
    assert checked > 5


def test_a_hands_contracts_are_kept_by_its_cards_in_order() -> None:
    """A search bot's play-outs list the same hand's contracts again and again: they are kept by the hand's
    cards in order. A copy of the game lists what the game listed; the same cards in another order list what
    they list afresh (a card two melds name is taken in hand order, so the order is part of the key); a
    caller's change to the list it got changes nothing kept."""
    from rummykit.plugins import skarney

    variant = rummykit.load_variant("skarney-singles")
    kept_of = skarney._kept_by(variant.meld_search).contracts
    checked = reordered = 0
    for seed in range(4):
        game = variant.new_game(seed=seed, max_hands=1)
        bot = RandomBot(seed)
        while not game.is_over and checked < 40:
            deal = game.deal
            if deal.phase == "play" and deal.actor == deal.current and skarney.contract_owed(deal, deal.current):
                listed = skarney.contracts(deal, deal.current)
                if listed:
                    checked += 1
                    size = len(kept_of)
                    again = skarney.contracts(game.clone().deal, deal.current)
                    assert again == listed and again is not listed and len(kept_of) == size  # found kept
                    again.clear()
                    assert skarney.contracts(deal, deal.current) == listed
                    hand = deal.hands[deal.current]
                    turned = hand[::-1]
                    if turned != hand:
                        hand[:] = turned
                        afresh = skarney._contracts(
                            variant.meld_search,
                            hand,
                            skarney.contract_size(deal),
                            int(skarney._rules(deal).contract_meld_size),
                            skarney.CONTRACT_LIMIT,
                        )
                        assert skarney.contracts(deal, deal.current) == afresh
                        reordered += 1
                        hand[:] = turned[::-1]
            game.apply(bot.choose(game))
    assert checked >= 20 and reordered >= 10


def test_the_same_lay_off_on_the_same_meld_grows_the_same_meld() -> None:
    """``lay_off`` keeps the grown meld with the meld it grew from: the same lay-off in a copy of the game (a
    search bot's play-out) gives the very same object, which keeps what the listing found of it; a wild card
    standing for another card grows another meld."""
    from rummykit.cards import parse_card
    from rummykit.toolkit import lay_meld, lay_off

    variant = rummykit.load_variant("skarney-singles")
    mine = "7H 8H 9H TH 2C 2D KS KD QC 4C 5D".split()
    theirs = "3S 4S 5S 6S 7S 8S 9S JC QD 6C 6D".split()
    game = variant.new_game(seed=1, layout={"dealer": 1, "hands": [mine, theirs]})
    deal = game.deal
    seat = deal.current
    assert seat == 0
    hand = deal.hands[seat]
    held = {str(c): c for c in hand}
    run = variant.meld_search.meld([held["7H"], held["8H"], held["9H"]])
    assert run is not None
    lay_meld(deal, seat, run)
    copy = game.clone()
    lay_off(deal, seat, 0, [held["TH"]])
    lay_off(copy.deal, seat, 0, [held["TH"]])
    assert deal.table[0].meld is copy.deal.table[0].meld
    assert [str(c) for c in deal.table[0].meld.cards] == ["7H", "8H", "9H", "TH"]
    low, high = game.clone(), game.clone()
    lay_off(low.deal, seat, 0, [held["2C"]], [parse_card("6H")])
    lay_off(high.deal, seat, 0, [held["2C"]], [parse_card("JH")])
    assert low.deal.table[0].meld.ranks[0] == 6 and high.deal.table[0].meld.ranks[-1] == 11
    again = game.clone()
    lay_off(again.deal, seat, 0, [held["2C"]], [parse_card("6H")])
    assert again.deal.table[0].meld is low.deal.table[0].meld


def test_contracts_benchmark_times_the_listing_and_puts_it_back() -> None:
    """benchmarks/contracts.py: the same seeded play gives the same digest of the contracts listed, and the
    plugin's ``contracts`` is its own again afterwards."""
    from rummykit.plugins import skarney

    contracts = benchmark("contracts")
    listed = skarney.contracts
    first, again = (contracts.measure("skarney-singles", 400) for _ in range(2))
    assert skarney.contracts is listed
    assert "contracts listed" in first and first.split("digest ")[1] == again.split("digest ")[1]
    assert first.split("listed ")[1].split(" times")[0] != "0"


def _swaps_every_card(deal: Any, seat: int) -> list[str]:
    """The exchanges by trying every natural card of the hand on every meld open to ``seat`` (what the listing
    gives by looking only at the cards a wild card stands for)."""
    from rummykit.mechanics.exchange import exchange_targets, exchanged
    from rummykit.toolkit import distinct_cards

    search = deal.variant.meld_search
    hand = [c for c in distinct_cards(deal, deal.hands[seat]) if not search.is_wild(c)]
    return [
        f"swap {card} on {index}"
        for index in exchange_targets(deal, seat)
        for card in hand
        if exchanged(deal, index, card) is not None
    ]


@pytest.mark.parametrize("name", ["skarney", "skarney-singles"])
def test_the_exchanges_and_wild_lay_offs_kept_with_a_table_meld_are_those_worked_out_afresh(name: str) -> None:
    # exchanged() keeps its answer with the table meld by the card; wild_layoffs() its actions by the card and
    # the meld's place. A key without the card, or the place, would answer for another card or meld.
    from rummykit.mechanics.exchange import _exchanged, exchanged
    from rummykit.toolkit import wild_layoffs

    variant = rummykit.load_variant(name)
    search = variant.meld_search
    exchanges = layoffs = 0
    for seed in range(5):
        game = variant.new_game(seed=seed)
        bots = [GreedyBot(seed * 10 + s) if s % 2 else RandomBot(seed * 10 + s) for s in range(game.num_players)]
        while not game.is_over and len(game.results) < 2:
            deal = game.deal
            if deal.phase == "play":
                hand = deal.hands[deal.current]
                for index, table_meld in enumerate(deal.table):
                    for card in hand:
                        if table_meld.meld.wilds and not search.is_wild(card):
                            found = exchanged(deal, index, card)
                            assert found == _exchanged(deal, table_meld, card)
                            exchanges += found is not None
                        if search.is_wild(card):
                            listed = wild_layoffs(search, table_meld.meld, card, index)
                            listed.clear()  # the list is the caller's: what is kept stays
                            listed = wild_layoffs(search, table_meld.meld, card, index)
                            faces = search.wild_layoff_faces(table_meld.meld, card)
                            assert len(listed) == len(faces)
                            for action in listed:
                                assert action.cards == (card,) and action.target == index
                                assert search.extend(table_meld.meld, [card], list(action.stands_for)) is not None
                            moved = wild_layoffs(search, table_meld.meld, card, index + 1)  # as if at another place
                            assert [a.target for a in moved] == [index + 1] * len(listed)
                            layoffs += len(listed)
            game.apply(bots[deal.actor].choose(game))
    assert exchanges > 20 and layoffs > 50


@pytest.mark.parametrize("name", ["skarney", "skarney-singles"])
def test_the_listed_exchanges_are_every_card_that_takes_a_wild_cards_place(name: str) -> None:
    from rummykit.mechanics.exchange import swaps

    variant = rummykit.load_variant(name)
    checked = 0
    for seed in range(6):
        game = variant.new_game(seed=seed)
        bots = [GreedyBot(seed * 10 + s) if s % 2 else RandomBot(seed * 10 + s) for s in range(game.num_players)]
        while not game.is_over and len(game.results) < 2:
            deal = game.deal
            if deal.phase == "play" and deal.table:
                listed = [str(a) for a in swaps(deal, deal.current)]
                assert listed == _swaps_every_card(deal, deal.current)
                checked += len(listed)
            game.apply(bots[deal.actor].choose(game))
    assert checked > 50  # exchanges were there to list


def test_the_contracts_choice_of_melds_is_the_depth_first_walk_with_its_step_budget() -> None:
    # _choose walks with a loop over a stack; the walk it stands for, written as calls, must give the same
    # choices in the same order, under every limit and step budget (random holdings and melds by face).
    import random

    from rummykit.plugins import skarney

    def walked(needs: list[int], count: int, have: int, limit: int, steps: int) -> list[list[int]]:
        found: list[list[int]] = []
        chosen: list[int] = []
        budget = steps

        def walk(start: int, used: int) -> None:
            nonlocal budget
            if len(chosen) == count:
                found.append(list(chosen))
                return
            for i in range(start, len(needs)):
                if len(found) >= limit or budget <= 0:
                    return
                budget -= 1
                after = used + needs[i]
                if (have - after) & skarney._GUARDS != skarney._GUARDS:
                    continue
                chosen.append(i)
                walk(i + 1, after)
                chosen.pop()

        walk(0, 0)
        return found

    rng = random.Random(7)
    default_steps = skarney.CONTRACT_STEPS
    compared = 0
    try:
        for _ in range(3000):
            faces = rng.randint(3, 12)
            needs = [sum(1 << (8 * f) for f in rng.sample(range(faces), 3)) for _ in range(rng.randint(0, 20))]
            have = skarney._GUARDS + sum(rng.randint(0, 2) << (8 * f) for f in range(faces))
            count, limit = rng.randint(1, 4), rng.randint(1, 30)
            for steps in (default_steps, 7, 40):
                skarney.CONTRACT_STEPS = steps
                result: list[list[int]] = []
                skarney._choose(list(range(len(needs))), needs, count, have, result, limit)  # type: ignore[arg-type]
                assert result == walked(needs, count, have, limit, steps)
                compared += bool(result)
    finally:
        skarney.CONTRACT_STEPS = default_steps
    assert compared > 1000


@pytest.mark.parametrize(("size", "hands", "most"), [(3, 150, 22), (4, 60, 16)])
def test_the_three_card_melds_are_every_set_and_run_of_that_size_with_one_wild_card_at_most(
    size: int, hands: int, most: int
) -> None:
    # three_card_melds builds a rank's sets and a suit's runs place by place, skipping ranks and suits that
    # cannot hold one; tried against every combination of the hand's cards (first copies), each wild card
    # standing in a run for every card of the suit the hand lacks in turn (where it holds the card, the
    # natural run is listed).
    import itertools
    import random

    from rummykit.plugins import skarney

    from rummykit.cards import card_from_face

    search = rummykit.load_variant("skarney-singles").meld_search
    pack = [card_from_face(face, copy) for face in range(52) for copy in (0, 1)] + [
        card_from_face(52, copy) for copy in range(4)
    ]
    rng = random.Random(11)

    def described(meld: Any) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        meant = tuple(f for c, f in zip(meld.cards, meld.faces) if search.is_wild(c) and meld.kind == "run")
        return meld.kind, tuple(sorted(c.face for c in meld.cards)), meant

    found_some = 0
    for _ in range(hands):
        hand = rng.sample(pack, rng.randint(size, most))
        firsts = list({c.face: c for c in sorted(hand)}.values())  # the first copy of each face
        wanted: set[tuple[str, tuple[int, ...], tuple[int, ...]]] = set()
        for combo in itertools.combinations(sorted(hand), size):
            wilds = [c for c in combo if search.is_wild(c)]
            if len(wilds) > 1 or any(c not in firsts and c.face in {w.face for w in wilds} for c in combo):
                continue
            naturals = [c for c in combo if not search.is_wild(c)]
            if len({c.face for c in naturals}) < len(naturals) and len({c.rank for c in naturals}) > 1:
                continue
            meld = search.meld(list(combo))
            if meld is not None and meld.kind == "set":
                wanted.add(described(meld))
            if wilds:  # a run: the wild card standing for each card of the naturals' suit that the hand lacks
                held = {c.face for c in hand if not search.is_wild(c)}
                for face in set(range(13 * naturals[0].suit, 13 * naturals[0].suit + 13)) - held:
                    meant = [card_from_face(face) if c is wilds[0] else None for c in combo]
                    run = search.meld(list(combo), kind="run", stands_for=meant)
                    if run is not None:
                        wanted.add(described(run))
            elif meld is not None and meld.kind == "run":
                wanted.add(described(meld))
        made = skarney.three_card_melds(search, hand, size)
        got = [described(m) for m in made]
        assert len(got) == len(set(got)), "a combination of faces listed twice"
        assert set(got) == wanted, sorted(set(got) ^ wanted)
        assert all(len(m.cards) == size and sum(search.is_wild(c) for c in m.cards) <= 1 for m in made)
        found_some += bool(made)
    assert found_some > hands // 3


def test_a_hand_the_quick_count_turns_away_holds_no_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    # _may_hold answers "surely none" before any meld is made; checked against the contracts found without it,
    # on random hands of two decks and four jokers, contracts of three and four melds of three or four cards.
    import random

    from rummykit.plugins import skarney

    from rummykit.cards import card_from_face

    search = rummykit.load_variant("skarney-singles").meld_search
    pack = [card_from_face(face, copy) for face in range(52) for copy in (0, 1)] + [
        card_from_face(52, copy) for copy in range(4)
    ]
    rng = random.Random(5)
    turned_away = empty = 0
    for _ in range(600):
        count, size = rng.choice([(3, 3), (4, 3), (3, 4)])
        hand = rng.sample(pack, rng.randint(count * size, count * size + 10))
        may = skarney._may_hold(search, hand, count, size)
        with monkeypatch.context() as patch:
            patch.setattr(skarney, "_may_hold", lambda *args: True)
            found = skarney._contracts(search, hand, count, size, 1)
        assert may or not found, [str(c) for c in hand]
        empty += not found
        turned_away += not may
    assert turned_away > empty // 3  # it turns most hands without a contract away
