"""Gin Rummy (default rules) against the published rules and the project's rules decisions (docs/gin.md,
"Rules decisions for Gin Rummy"), which win where they settle something.

Every test builds a deal by hand and drives it with real actions through ``Game.apply``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rummykit.plugins import gin
from rummykit.plugins.gin import GinState

import rummykit
from rummykit import Game, IllegalAction
from rummykit.actions import Action
from rummykit.bots import GreedyBot, make_bot
from rummykit.cards import parse_card
from rummykit.cli import describe_position
from rummykit.turntext import TurnPrinter

MANUAL = {"rules": {"settlement": "manual"}}


def cards(text: str) -> list[str]:
    return text.split()


def new_game(
    hands: tuple[str, str],
    discard: str = "",
    stock: str = "",
    dealer: int = 1,
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> Game:
    """A game whose first deal is laid out by hand (seat 0 is the non-dealer when ``dealer`` is 1)."""
    variant = rummykit.load_variant("gin", options=options)
    return variant.new_game(
        seed=seed,
        layout={
            "dealer": dealer,
            "hands": [cards(hands[0]), cards(hands[1])],
            "discard": cards(discard),
            "stock": cards(stock),
        },
    )


def play(game: Game, *actions: str) -> None:
    for action in actions:
        game.apply(action)
        game.check_cards()


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare before and after an action."""
    deal = game.deal
    return (
        game.to_json(),
        json.dumps([game.observation(s) for s in range(game.num_players)], sort_keys=True),
        [list(h) for h in deal.hands],
        list(deal.stock),
        list(deal.discard),
        set(deal.face_down),
        deal.phase,
        deal.current,
        deal.taken,
        repr(sorted(deal.state.items())),
        [str(t) for t in deal.table],
        list(game.scores),
        len(game.results),
        [str(a) for a in game.legal_actions()],
    )


def value(card: str) -> int:
    return min(parse_card(card).rank, 10)


# -- the worked examples of 001 ------------------------------------------------------------------------

# 001: "you knock with 7S 7H 7D, 9C 10C JC and 3H 4H 5H on the table and 8D as deadwood, which is 8 points.
# Your opponent spreads 2S 3S 4S and QD QH QC, holding 8C KH 5D 10S, worth 33. But 8C fits the bottom end of
# your club run [...] their count drops to 25. You score 17."
EXAMPLE_1 = ("7S 7H 7D 9C TC JC 3H 4H 5H 8D", "2S 3S 4S QD QH QC 8C KH 5D TS")


def test_worked_example_knock_on_8_against_33_lays_off_8c_and_scores_17() -> None:
    game = new_game(EXAMPLE_1, discard="2C", stock="KS")
    assert game.current_player == 0 and game.deal.phase == "offer"
    play(game, "pass", "pass", "draw stock")
    assert game.deal.hands[0][-1] == parse_card("KS")
    play(game, "knock KS")  # the knocker throws the drawn king face down

    assert len(game.results) == 1
    result = game.results[0]
    assert result.kind == "knock"
    assert result.scores == (17, 0)
    assert result.winner == 0
    assert result.boxes == (1, 0)
    details = result.details
    assert details["knocker"] == 0
    assert details["deadwood"] == [8, 25]
    assert details["knock_limit"] == 10
    knocker_melds = set(details["melds"]["0"])
    assert knocker_melds == {"7D 7H 7S", "8C 9C TC JC", "3H 4H 5H"}
    assert set(details["melds"]["1"]) == {"2S 3S 4S", "QC QD QH"}
    assert details["unmatched"] == {"0": ["8D"], "1": ["5D", "KH", "TS"]}
    assert len(details["layoffs"]) == 1 and details["layoffs"][0].startswith("8C on ")
    assert game.scores == [17, 0]
    assert game.history[0] == ["pass", "pass", "draw stock", "knock KS"]
    # The knocker won, so the loser (the dealer, seat 1) deals the next hand.
    assert game.deal.number == 2 and game.deal.dealer == 1 and game.current_player == 0


# 001: "You knock on 9 points, your opponent has 12 and lays off two cards worth 5 between them. The counts now
# read 9 against 7, so the opponent takes 2 points for the difference plus the 10 point bonus, 12 in all."
EXAMPLE_2 = ("2S 2D 2C 4H 5H 6H KS KD KC 9D", "2H 3H 7S TS JS QS 8C 8D 8H 8S")


def test_worked_example_knock_on_9_against_12_with_lay_offs_worth_5_is_undercut_for_12() -> None:
    variant = rummykit.load_variant("gin")
    assert variant.arrange(EXAMPLE_2[0]).deadwood_value == 9
    assert variant.arrange(EXAMPLE_2[1]).deadwood_value == 12  # 2H 3H 7S before laying off
    game = new_game(EXAMPLE_2, discard="AC", stock="JD")
    play(game, "pass", "pass", "draw stock", "knock JD")

    result = game.results[0]
    assert result.kind == "undercut"
    assert result.scores == (0, 12)
    assert result.winner == 1
    assert result.boxes == (0, 1)
    assert result.details["deadwood"] == [9, 7]
    laid = sorted(entry.split(" on ")[0] for entry in result.details["layoffs"])
    assert laid == ["2H", "3H"]
    assert sum(value(c) for c in laid) == 5
    assert result.details["unmatched"]["1"] == ["7S"]
    assert game.scores == [0, 12]
    # The opponent (the dealer) won: the loser, seat 0, deals next and seat 1 plays first.
    assert game.deal.dealer == 0 and game.current_player == 1


# -- automatic settlement as strong players ---------------------------------------------------------------


def test_opponent_breaks_its_own_meld_to_lay_off() -> None:
    # Opponent: 6S 7S 8S run and 6D 6C. Laying 8S off on the knocker's 8s lets 6S join 6D 6C: 22 -> 17.
    hands = ("8H 8D 8C AC 2C 3C JD QD KD 4H", "6S 7S 8S 6D 6C 9H TH JH QH KS")
    variant = rummykit.load_variant("gin")
    assert variant.arrange(hands[1]).deadwood_value == 22
    game = new_game(hands, discard="5C", stock="9D")
    play(game, "pass", "pass", "draw stock", "knock 9D")

    result = game.results[0]
    assert result.kind == "knock"
    assert result.details["deadwood"] == [4, 17]
    assert result.scores == (13, 0)
    assert [entry.split(" on ")[0] for entry in result.details["layoffs"]] == ["8S"]
    assert set(result.details["melds"]["1"]) == {"6C 6D 6S", "9H TH JH QH"}
    assert "8C 8D 8H 8S" in result.details["melds"]["0"]
    assert result.details["unmatched"]["1"] == ["7S", "KS"]


def test_chain_lay_off_ten_then_nine_onto_jack_queen_king() -> None:
    hands = ("JS QS KS 2D 3D 4D 7C 7D 7H 5C", "TS 9S AH 2H 3H 4S 4C 4H 8C KH")
    game = new_game(hands, discard="6D", stock="KC")
    play(game, "pass", "pass", "draw stock", "knock KC")

    result = game.results[0]
    assert result.kind == "knock"
    # 37 (TS 9S 8C KH) before laying off; TS goes first, and only then can 9S follow it.
    assert [entry.split(" on ")[0] for entry in result.details["layoffs"]] == ["TS", "9S"]
    assert result.details["deadwood"] == [5, 18]
    assert result.scores == (13, 0)
    assert "9S TS JS QS KS" in result.details["melds"]["0"]


# 5-5-5, 6-6-6, 7-7-7 in clubs, diamonds and hearts; the opponent holds 4C 4D 8C 8D.
SETS_NOT_RUNS = ("5C 5D 5H 6C 6D 6H 7C 7D 7H AS", "4C 4D 8C 8D JS QS KS 9H TH JH")


def test_knocker_lays_sets_rather_than_runs_so_nothing_can_be_laid_off() -> None:
    game = new_game(SETS_NOT_RUNS, discard="2S", stock="QD")
    play(game, "pass", "pass", "draw stock", "knock QD")

    result = game.results[0]
    assert set(result.details["melds"]["0"]) == {"5C 5D 5H", "6C 6D 6H", "7C 7D 7H"}
    assert result.details["layoffs"] == []
    assert result.details["deadwood"] == [1, 24]
    assert result.kind == "knock" and result.scores == (23, 0)


def test_the_same_hand_laid_as_runs_would_be_undercut() -> None:
    # The alternative the knocker avoids, played out by hand (manual settlement): runs take all four cards.
    game = new_game(SETS_NOT_RUNS, discard="2S", stock="QD", options=MANUAL)
    play(
        game,
        "pass",
        "pass",
        "draw stock",
        "knock QD",
        "meld 5C 6C 7C",
        "meld 5D 6D 7D",
        "meld 5H 6H 7H",
        "done",
        "meld JS QS KS",
        "meld 9H TH JH",
        "layoff 4C on 0",
        "layoff 8C on 0",
        "layoff 4D on 1",
        "layoff 8D on 1",
        "done",
    )
    result = game.results[0]
    assert result.kind == "undercut"
    assert result.details["deadwood"] == [1, 0]
    assert result.scores == (0, 11)


# The knocker's least deadwood (4) lays 6H 7H 8H 9H; keeping 6H back (deadwood 10) stops 5H and 4H.
BLOCKING = ("6H 7H 8H 9H JS QS KS AC AD 2C", "4H 5H 8D 3S TC JC QC 7S 7D 7C")


def test_knocker_keeps_a_card_back_when_that_blocks_lay_offs() -> None:
    variant = rummykit.load_variant("gin")
    assert variant.arrange(BLOCKING[0]).deadwood_value == 4
    assert variant.arrange(BLOCKING[1]).deadwood_value == 20
    game = new_game(BLOCKING, discard="2S", stock="KD")
    play(game, "pass", "pass", "draw stock", "knock KD")

    result = game.results[0]
    # Laying 6H 7H 8H 9H would let 5H then 4H go on it: 4 against 11, 7 points. Holding 6H back: 10 against 20.
    assert set(result.details["melds"]["0"]) == {"7H 8H 9H", "JS QS KS"}
    assert result.details["unmatched"]["0"] == ["AC", "2C", "AD", "6H"]
    assert result.details["layoffs"] == []
    assert result.details["deadwood"] == [10, 20]
    assert result.kind == "knock" and result.scores == (10, 0)


GIN = "2C 3C 4C 5C 9D 9H 9S JH QH KH"


def test_gin_forbids_lay_offs_and_scores_20_plus_the_opponents_deadwood() -> None:
    # 6C, 9C and TH would all fit the knocker's melds, but nobody lays off on gin.
    opponent = "6C 9C TH 7S 8D AS 2S 3S 4D KD"
    game = new_game((GIN, opponent), discard="5S", stock="AD")
    play(game, "pass", "pass", "draw stock", "knock AD")

    result = game.results[0]
    assert result.kind == "gin"
    assert result.details["layoffs"] == []
    assert result.details["deadwood"] == [0, 54]
    assert result.scores == (20 + 54, 0)
    assert result.winner == 0


def test_gin_is_never_undercut_even_by_an_opponent_with_no_deadwood() -> None:
    opponent = "6D 7D 8D TS JS QS KS 4H 4S 4D"
    assert rummykit.load_variant("gin").arrange(opponent).deadwood_value == 0
    game = new_game((GIN, opponent), discard="5S", stock="AD")
    play(game, "pass", "pass", "draw stock", "knock AD")

    result = game.results[0]
    assert result.kind == "gin"
    assert result.details["deadwood"] == [0, 0]
    assert result.scores == (20, 0)
    assert result.winner == 0


def test_equal_counts_are_an_undercut() -> None:
    knocker = "2C 3C 4C 9D 9H 9C JH QH KH 5D"  # deadwood 5D
    opponent = "6S 7S 8S 9S TC JC QC AH AS 3H"  # deadwood AH AS 3H = 5
    game = new_game((knocker, opponent), discard="2S", stock="KC")
    play(game, "pass", "pass", "draw stock", "knock KC")

    result = game.results[0]
    assert result.details["deadwood"] == [5, 5]
    assert result.kind == "undercut"
    assert result.scores == (0, 10)
    assert result.winner == 1


# -- the first turn ------------------------------------------------------------------------------------------

PLAIN = ("7S 7H 7D 9C TC JC 3H 4H 5H 8D", "2S 3S 4S QD QH QC 8C KH 5D TS")


def test_first_turn_non_dealer_declines_then_dealer_takes_the_upcard() -> None:
    game = new_game(PLAIN, discard="6C", stock="KS AD")
    assert game.deal.dealer == 1 and game.current_player == 0
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "pass"]
    play(game, "pass")
    assert game.current_player == 1
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "pass"]
    play(game, "draw discard")
    assert game.current_player == 1 and game.deal.phase == "discard"
    assert parse_card("6C") in game.deal.hands[1]
    play(game, "discard KH")
    # After the dealer's discard it is the non-dealer's turn, a normal draw.
    assert game.current_player == 0 and game.deal.phase == "draw"
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "draw stock"]
    assert game.observation(0)["discard_top"] == "KH"


def test_after_both_refuse_the_upcard_the_first_draw_is_from_the_stock_and_the_next_is_free() -> None:
    game = new_game(PLAIN, discard="6C", stock="KS AD 9H")
    play(game, "pass", "pass")
    assert game.current_player == 0
    assert sorted(map(str, game.legal_actions())) == ["draw stock"]
    with pytest.raises(IllegalAction, match="both players refused the upcard"):
        game.apply("draw discard")
    play(game, "draw stock", "discard KS")
    # The stock-only draw is spent: the dealer may take the discard.
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "draw stock"]
    play(game, "draw discard", "discard KH")
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "draw stock"]


STOCK_DRAWER = """
import rummykit
from rummykit.standard import draw_from_stock


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    # a house rule that carries out the stock draw itself (registered after Gin, it is asked first)
    if action.kind == "draw stock":
        draw_from_stock(deal, deal.current)
        deal.state["drawn"] = deal.state.get("drawn", 0) + 1
        return True
    return None
"""


def test_the_stock_only_draw_is_spent_whichever_plugin_carries_the_draw_out(tmp_path: Path) -> None:
    path = tmp_path / "stock_drawer.py"
    path.write_text(STOCK_DRAWER, encoding="utf-8")
    variant = rummykit.load_variant("gin", plugins=[path])
    layout = {
        "dealer": 1,
        "hands": [cards(PLAIN[0]), cards(PLAIN[1])],
        "discard": cards("6C"),
        "stock": cards("KS AD 9H"),
    }
    game = variant.new_game(seed=7, layout=layout)
    play(game, "pass", "pass", "draw stock", "discard KS")
    assert game.deal.state["drawn"] == 1
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "draw stock"]


def test_first_turn_non_dealer_takes_the_upcard_then_the_dealer_plays() -> None:
    game = new_game(PLAIN, discard="6C", stock="KS AD")
    play(game, "draw discard")
    assert game.current_player == 0 and game.deal.phase == "discard"
    play(game, "discard 8D")
    assert game.current_player == 1 and game.deal.phase == "draw"
    assert game.observation(1)["discard_top"] == "8D"


def test_the_dealer_may_take_the_upcard_and_go_gin_on_the_first_turn() -> None:
    game = new_game((EXAMPLE_1[1], EXAMPLE_1[0]), discard="7C", stock="KS")
    play(game, "pass", "draw discard")
    assert game.current_player == 1
    assert "knock 7C" not in [str(a) for a in game.legal_actions()]
    play(game, "knock 8D")
    result = game.results[0]
    assert result.kind == "gin" and result.scores == (0, 20 + 33) and result.dealer == 1
    assert "7C 7D 7H 7S" in result.details["melds"]["1"]
    assert game.deal.dealer == 0  # the loser deals next


def test_first_turn_both_decline_the_non_dealer_must_draw_from_the_stock() -> None:
    game = new_game(PLAIN, discard="6C", stock="KS AD")
    play(game, "pass", "pass")
    assert game.current_player == 0 and game.deal.phase == "draw"
    assert [str(a) for a in game.legal_actions()] == ["draw stock"]
    with pytest.raises(IllegalAction, match="both players refused the upcard"):
        game.apply("draw discard")
    with pytest.raises(IllegalAction):
        game.apply("pass")
    play(game, "draw stock")
    assert game.deal.hands[0][-1] == parse_card("KS")
    play(game, "discard KS")
    assert game.current_player == 1
    assert sorted(map(str, game.legal_actions())) == ["draw discard", "draw stock"]
    play(game, "draw stock")
    assert game.deal.hands[1][-1] == parse_card("AD")


# -- the card just taken from the pile ------------------------------------------------------------------------


def test_card_just_taken_may_not_be_discarded_or_knocked_with_that_turn() -> None:
    # The non-dealer's hand is 8 deadwood, so knocking with the upcard would otherwise be legal.
    game = new_game(PLAIN, discard="2C", stock="KS AD 6S")
    play(game, "draw discard")
    legal = [str(a) for a in game.legal_actions()]
    assert "discard 2C" not in legal and "knock 2C" not in legal
    assert "knock 8D" in legal  # 2C left in hand as deadwood: 2, within the limit
    for text in ("discard 2C", "knock 2C"):
        with pytest.raises(IllegalAction, match="2C was just taken from the discard pile"):
            game.apply(text)
    play(game, "discard 8D", "draw stock", "discard KS")
    # On a later turn the card taken earlier may be discarded.
    play(game, "draw stock")
    assert "discard 2C" in [str(a) for a in game.legal_actions()]
    play(game, "discard 2C")
    assert game.observation(1)["discard_top"] == "2C"


# -- illegal actions change nothing -----------------------------------------------------------------------------


def test_illegal_actions_leave_the_game_exactly_as_it_was() -> None:
    # Seat 0: 7S 7D 7H 7C 9C TC JC QC + 5D 6S is 11 deadwood after throwing the drawn KH.
    hands = ("7S 7D 7H 7C 9C TC JC QC 5D 6S", "2S 3S 4S QD QH KC 8C KD 5C TS")
    game = new_game(hands, discard="AC", stock="KH 9H")

    def refused(action: Any, *fragments: str) -> None:
        before = snapshot(game)
        with pytest.raises(IllegalAction) as info:
            game.apply(action)
        for fragment in fragments:
            assert fragment in str(info.value)
        assert snapshot(game) == before
        assert isinstance(info.value, ValueError)

    # In the offer phase.
    refused("", "empty action")
    refused("frobnicate")
    refused("discard 9Z")
    refused("draw stock", "take it ('draw discard') or 'pass'")
    refused("discard 7S", "take it ('draw discard') or 'pass'")
    refused("knock 7S")
    refused("done")
    refused("layoff 8C on 0")
    refused(rummykit.Action("discard", (parse_card("7S"),)))
    play(game, "pass", "pass")
    refused("draw discard", "both players refused the upcard")
    refused("discard 7S", "draw a card first")
    play(game, "draw stock")
    # In the discard phase.
    refused("draw stock", "you have drawn already")
    refused("discard AD", "AD is not in your hand")
    refused("knock AD", "AD is not in your hand")
    refused("knock KH", "deadwood is 11", "10 or less")
    refused("knock 5D", "deadwood is 16", "10 or less")
    refused("discard", "name the card, as in 'discard ")  # a bare verb: which card?
    refused("meld 7S 7D 7H")
    refused("big gin")
    refused("discard 7S on 3")
    refused(rummykit.Action("knock", (parse_card("KH"),)))
    assert not [a for a in game.legal_actions() if a.kind == "knock"]
    refused("knock", "after your best discard your deadwood is 11", "10 or less")
    play(game, "discard KH")
    assert game.current_player == 1 and game.deal.phase == "draw"
    refused("discard 2S", "draw a card first")


# -- the knock limit and the face-down discard --------------------------------------------------------------------


def test_knocking_needs_deadwood_of_10_or_less_and_is_optional() -> None:
    hands = ("7S 7D 7H 7C 9C TC JC QC 5D 5S", "2S 3S 4S QD QH KC 8C KD 5C TS")
    game = new_game(hands, discard="AC", stock="KH 9H")
    play(game, "pass", "pass", "draw stock")
    legal = [str(a) for a in game.legal_actions()]
    assert [a for a in legal if a.startswith("knock")] == ["knock KH"]  # 5D 5S = 10 exactly
    with pytest.raises(IllegalAction, match="name the card you discard, as in 'knock KH'"):
        game.apply("knock")
    assert "discard KH" in legal  # knocking is never compulsory
    with pytest.raises(IllegalAction, match="deadwood is 15"):
        game.apply("knock 5D")
    play(game, "discard KH")
    assert not game.results and game.current_player == 1


def test_knocking_with_exactly_10() -> None:
    hands = ("7S 7D 7H 7C 9C TC JC QC 5D 5S", "2S 3S 4S QD QH KC 8C KD 5C TS")
    game = new_game(hands, discard="AC", stock="KH 9H")
    play(game, "pass", "pass", "draw stock", "knock KH")
    result = game.results[0]
    assert result.details["deadwood"][0] == 10
    assert result.kind == "knock"


def test_knock_discard_lies_face_down() -> None:
    game = new_game(EXAMPLE_1, discard="2C", stock="KS", options=MANUAL)
    play(game, "pass", "pass", "draw stock")
    assert game.observation(1)["discard_top"] == "2C"
    play(game, "knock KS")
    assert game.deal.phase == "knocker-melds"
    assert game.deal.discard[-1] == parse_card("KS")
    for seat in (0, 1):
        view = game.observation(seat)
        assert view["discard_top"] != "KS"
        assert "KS" not in json.dumps(view) or seat == 0
        assert view["discard_size"] == 2
    assert "draw discard" not in [str(a) for a in game.legal_actions()]


# -- the dead hand --------------------------------------------------------------------------------------------------

# Seat 0 (non-dealer) already holds 8 deadwood; seat 1 holds nothing that meets or lays off.
DEAD = ("7S 7H 7D 9C TC JC 3H 4H 5H 8D", "KS QH JD 9S 8H 6C KH QD 2D AS")


def draw_and_throw_until_stock(game: Game, left: int) -> None:
    """Both players draw from the stock and throw the card drawn, until a discard leaves ``left`` cards."""
    while len(game.deal.stock) > left:
        seat = game.current_player
        assert seat is not None
        play(game, "draw stock")
        play(game, f"discard {game.deal.hands[seat][-1]}")
        assert not game.results


def test_dead_hand_when_a_discard_leaves_two_cards_in_the_stock() -> None:
    game = new_game(DEAD, discard="2C", seed=11)
    play(game, "pass", "pass")
    assert len(game.deal.stock) == 31
    draw_and_throw_until_stock(game, 3)
    assert game.deal.number == 1 and not game.results and game.deal.phase == "draw"
    # The non-dealer draws the third-last card: it may still knock, but discards.
    assert game.current_player == 0
    play(game, "draw stock")
    assert len(game.deal.stock) == 2
    assert any(a.kind == "knock" for a in game.legal_actions())
    play(game, f"discard {game.deal.hands[0][-1]}")

    result = game.results[0]
    assert result.kind == "dead"
    assert result.scores == (0, 0)
    assert result.winner is None
    assert game.scores == [0, 0]
    # The same dealer deals again.
    assert game.deal.number == 2 and game.deal.dealer == 1 and game.current_player == 0
    assert len(game.deal.stock) == 31 and len(game.deal.hands[0]) == 10


def test_third_last_card_drawer_may_still_knock() -> None:
    game = new_game(DEAD, discard="2C", seed=11)
    play(game, "pass", "pass")
    draw_and_throw_until_stock(game, 3)
    play(game, "draw stock")
    drawn = game.deal.hands[0][-1]
    play(game, f"knock {drawn}")
    result = game.results[0]
    assert result.kind == "knock"
    assert result.details["deadwood"][0] == 8
    assert result.scores[0] > 0 and result.scores[1] == 0


@pytest.mark.parametrize("last_chance", [False, True])
def test_with_no_dead_hand_stock_the_hand_is_dead_when_the_stock_runs_out(last_chance: bool) -> None:
    # dead_hand_stock 0: the last stock card may be drawn; a discard after it leaves the hand dead (not
    # "exhausted", which Gin does not score), or, with the last chance, lets the other take it to knock.
    rules = {"dead_hand_stock": 0, "last_chance": last_chance}
    game = new_game(DEAD, discard="2C", seed=11, options={"rules": rules})
    play(game, "pass", "pass")
    draw_and_throw_until_stock(game, 1)
    seat = game.current_player
    assert seat is not None
    play(game, "draw stock")
    assert not game.deal.stock and any(a.kind == "knock" for a in game.legal_actions())
    play(game, f"discard {game.deal.hands[seat][-1]}")
    if last_chance:
        assert not game.results and {str(a) for a in game.legal_actions()} <= {"draw discard", "pass"}
        play(game, "pass")
    result = game.results[0]
    assert (result.kind, result.scores, result.winner) == ("dead", (0, 0), None)


def test_the_hand_is_not_dead_before_the_stock_is_down_to_two() -> None:
    game = new_game(DEAD, discard="2C", seed=3)
    play(game, "pass", "pass")
    draw_and_throw_until_stock(game, 3)
    # The dealer drew the fourth-last card and discarded it: three left, the hand goes on.
    assert len(game.deal.stock) == 3 and not game.results and game.current_player == 0


# -- dealers and the end of the game --------------------------------------------------------------------------------


def lay_out_next_deal(game: Game, hands: tuple[str, str], discard: str, stock: str = "") -> None:
    """Prearrange the deal that has just started (only the first deal can be given to ``new_game``).

    Uses the same placement the engine uses for a given first deal; the start-of-hand hooks have run already
    and only depend on there being an upcard."""
    deal = game.deal
    assert not deal.log and deal.phase == "offer"
    game._place(deal, {"hands": [cards(hands[0]), cards(hands[1])], "discard": cards(discard), "stock": cards(stock)})
    game.check_cards()


def expected_bonuses(game: Game) -> list[int]:
    """Per seat, the end-of-game bonuses the rules give, computed from the hands alone."""
    totals = [sum(r.scores[s] for r in game.results) for s in (0, 1)]
    won = [sum(1 for r in game.results if r.winner == s) for s in (0, 1)]
    winner = 0 if totals[0] >= 100 else 1
    loser = 1 - winner
    bonuses = [20 * won[0], 20 * won[1]]
    bonuses[winner] += 200 if won[loser] == 0 else 100
    return bonuses


# Seat 0 goes gin with AD; seat 1 holds 86 deadwood with no meld and nothing to lay off.
BIG_LOSS = "KS QD JC TS 8S 7D 6H KD QC 5S"


def test_shutout_in_one_hand_game_bonus_200_and_one_box() -> None:
    game = new_game((GIN, BIG_LOSS), discard="4S", stock="AD")
    play(game, "pass", "pass", "draw stock", "knock AD")
    assert game.results[0].kind == "gin" and game.results[0].scores == (106, 0)
    assert game.is_over and game.winner == 0 and game.current_player is None
    assert sorted(game.bonuses) == sorted([(0, "game (shutout)", 200), (0, "boxes (1)", 20)])
    assert game.scores == [106 + 200 + 20, 0]
    assert [sum(r.scores[s] for r in game.results) + expected_bonuses(game)[s] for s in (0, 1)] == game.scores
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply("draw stock")


def test_race_to_100_counts_hand_points_only_and_boxes_come_at_the_end() -> None:
    game = new_game(EXAMPLE_1, discard="2C", stock="KS")
    play(game, "pass", "pass", "draw stock", "knock KS")  # seat 0: 17
    assert game.scores == [17, 0] and not game.is_over
    assert game.deal.dealer == 1  # the loser deals

    # Hand 2: seat 1 takes the upcard and goes gin against 67 deadwood: 87 points.
    lay_out_next_deal(game, ("KS QD JC TS 8S 7D 6H 2S AS 3D", "2C 3C 4C 5C 9D 9H 9S JH QH AD"), discard="KH")
    play(game, "pass", "draw discard", "knock AD")
    assert game.results[1].kind == "gin" and game.results[1].scores == (0, 87)
    # 87 + a 20 box would pass 100, but boxes do not count towards the target.
    assert game.scores == [17, 87] and not game.is_over and not game.bonuses
    assert game.deal.dealer == 0 and game.current_player == 1  # seat 0 lost: seat 0 deals

    # Hand 3: seat 1 (non-dealer) knocks as in example 1 and scores 17: 104.
    lay_out_next_deal(game, (EXAMPLE_1[1], EXAMPLE_1[0]), discard="2C", stock="KS")
    play(game, "pass", "pass", "draw stock", "knock KS")
    assert game.results[2].scores == (0, 17)
    assert game.is_over and game.winner == 1
    assert sorted(game.bonuses) == sorted([(1, "game", 100), (0, "boxes (1)", 20), (1, "boxes (2)", 40)])
    assert game.scores == [17 + 20, 104 + 100 + 40]
    bonuses = expected_bonuses(game)
    assert [sum(r.scores[s] for r in game.results) + bonuses[s] for s in (0, 1)] == game.scores


def test_the_winner_is_who_reached_100_even_if_the_loser_ends_with_more_after_boxes() -> None:
    # Seat 0 wins seven 13-point knocks (91, seven boxes); seat 1 then goes gin for 106 and wins the game.
    breaks_meld = ("8H 8D 8C AC 2C 3C JD QD KD 4H", "6S 7S 8S 6D 6C 9H TH JH QH KS")
    game = new_game(breaks_meld, discard="5C", stock="9D")
    for number in range(7):
        if number:
            lay_out_next_deal(game, breaks_meld, discard="5C", stock="9D")
        play(game, "pass", "pass", "draw stock", "knock 9D")
        assert game.results[-1].scores == (13, 0) and game.deal.dealer == 1
    lay_out_next_deal(game, (BIG_LOSS, "2C 3C 4C 5C 9D 9H 9S JH QH AD"), discard="KH")
    play(game, "pass", "draw discard", "knock AD")
    assert game.results[-1].kind == "gin" and game.results[-1].scores == (0, 106)
    assert game.is_over
    assert game.scores == [91 + 7 * 20, 106 + 100 + 20]  # 231 against 226
    assert game.winner == 1


def test_dead_hands_do_not_count_as_hands_won() -> None:
    game = new_game(DEAD, discard="2C", seed=11)
    play(game, "pass", "pass")
    draw_and_throw_until_stock(game, 3)
    play(game, "draw stock")
    play(game, f"discard {game.deal.hands[0][-1]}")
    assert game.results[0].kind == "dead" and game.results[0].boxes == (0, 0)
    lay_out_next_deal(game, (GIN, BIG_LOSS), discard="4S", stock="AD")
    play(game, "pass", "pass", "draw stock", "knock AD")
    assert game.is_over and game.winner == 0
    assert game.scores == [106 + 200 + 20, 0]  # still a shutout: the dead hand was nobody's


def test_greedy_games_add_up_to_the_rules() -> None:
    """Whole games between greedy bots, with the bonuses computed independently from the hands."""
    variant = rummykit.load_variant("gin")
    for seed in range(12):
        game = variant.new_game(seed=seed)
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 100)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(bots[seat].choose(game))
        totals = [sum(r.scores[s] for r in game.results) for s in (0, 1)]
        assert max(totals) >= 100 and min(totals) < 100
        # The race ended with the last hand, not before.
        before = [totals[s] - game.results[-1].scores[s] for s in (0, 1)]
        assert max(before) < 100
        bonuses = expected_bonuses(game)
        assert [totals[s] + bonuses[s] for s in (0, 1)] == game.scores
        assert game.winner == (0 if totals[0] >= 100 else 1)
        # Loser of each hand deals the next; a dead hand is redealt by the same dealer.
        for previous, following in zip(game.results, game.results[1:]):
            if previous.winner is None:
                assert following.dealer == previous.dealer
            else:
                assert following.dealer == 1 - previous.winner


# -- manual settlement ----------------------------------------------------------------------------------------


def test_manual_settlement_of_example_1() -> None:
    game = new_game(EXAMPLE_1, discard="2C", stock="KS", options=MANUAL)
    play(game, "pass", "pass", "draw stock", "knock KS")
    deal = game.deal
    assert deal.phase == "knocker-melds" and game.current_player == 0
    legal = [str(a) for a in game.legal_actions()]
    assert "done" not in legal
    with pytest.raises(IllegalAction, match="more than the knock limit 10"):
        game.apply("done")
    assert sorted(a for a in legal if a.startswith("meld")) == ["meld 3H 4H 5H", "meld 7D 7H 7S", "meld 9C TC JC"]
    play(game, "meld 7S 7H 7D", "meld 9C TC JC")
    with pytest.raises(IllegalAction):
        game.apply("done")  # 3H 4H 5H 8D = 20 still unmelded
    play(game, "meld 3H 4H 5H")
    assert [str(a) for a in game.legal_actions()] == ["done"]
    play(game, "done")

    assert deal.phase == "opponent-melds" and game.current_player == 1
    view = game.observation(1)
    assert view["knocker_unmatched"] == ["8D"]
    assert view["shown"] == [{"label": "Knocker's unmatched cards", "cards": ["8D"]}]  # what the faces display
    assert "   Knocker's unmatched cards: 8D" in describe_position(game, 1, TurnPrinter(lambda line: None))
    assert "layoff 8C on 1" in [str(a) for a in game.legal_actions()]
    play(game, "meld 2S 3S 4S", "meld QD QH QC")
    with pytest.raises(IllegalAction):
        game.apply("layoff 5D on 1")  # does not fit the club run
    with pytest.raises(IllegalAction, match="not in your hand"):
        game.apply("layoff 8D on 1")
    with pytest.raises(IllegalAction):
        game.apply("layoff 8C on 7")
    play(game, "layoff 8C on 1", "done")

    result = game.results[0]
    assert result.kind == "knock" and result.scores == (17, 0)
    assert result.details["deadwood"] == [8, 25]
    assert result.details["layoffs"] == ["8C on 1"]


def test_manual_lay_offs_go_on_the_knockers_melds_only() -> None:
    hands = ("JS QS KS 2D 3D 4D 7C 7D 7H 5C", "TS 9S AH 2H 3H 4S 4C 4H 8C KH")
    game = new_game(hands, discard="6D", stock="KC", options=MANUAL)
    play(game, "pass", "pass", "draw stock", "knock KC", "meld JS QS KS", "meld 2D 3D 4D", "meld 7C 7D 7H", "done")
    assert [str(a) for a in game.legal_actions() if a.kind == "layoff"] == ["layoff TS on 0"]
    play(game, "meld AH 2H 3H")  # table meld 3, the opponent's own
    assert "layoff 4H on 3" not in [str(a) for a in game.legal_actions()]
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply("layoff 4H on 3")
    assert snapshot(game) == before
    play(game, "layoff TS on 0", "layoff 9S on 0")
    assert str(game.deal.table[0]) == "9S TS JS QS KS"
    play(game, "done")
    result = game.results[0]
    assert result.details["layoffs"] == ["TS on 0", "9S on 0"]
    assert result.details["deadwood"] == [5, 4 + 4 + 4 + 8 + 10]
    assert result.kind == "undercut" or result.scores[0] == result.details["deadwood"][1] - 5


def test_manual_settlement_after_gin_offers_no_lay_off() -> None:
    opponent = "6C 9C TH 7S 8D AS 2S 3S 4D KD"
    game = new_game((GIN, opponent), discard="5S", stock="AD", options=MANUAL)
    play(game, "pass", "pass", "draw stock", "knock AD", "meld 2C 3C 4C 5C", "meld 9D 9H 9S", "meld JH QH KH", "done")
    assert game.deal.phase == "opponent-melds"
    assert not [a for a in game.legal_actions() if a.kind == "layoff"]
    with pytest.raises(IllegalAction):
        game.apply("layoff 6C on 0")
    play(game, "meld AS 2S 3S", "done")
    result = game.results[0]
    assert result.kind == "gin" and result.scores == (74, 0)


def best_manual_score(game: Game) -> tuple[int, int]:
    """Both sides settle a manual knock optimally (minimax over every legal settlement action): the hand's
    scores. The knocker maximises its score minus the opponent's; the opponent minimises it."""
    record = game.to_json()
    deal_number = game.deal.number
    knocker = game.deal.state_of(GinState).knocker
    memo: dict[Any, tuple[int, int]] = {}

    def key(g: Game) -> Any:
        d = g.deal
        return (
            d.phase,
            frozenset((tm.owner, frozenset(c.id for c in tm.meld.cards)) for tm in d.table),
            tuple(frozenset(c.id for c in h) for h in d.hands),
        )

    def search(actions: list[str]) -> tuple[int, int]:
        g = Game.from_json(record)
        for text in actions:
            g.apply(text)
        if len(g.results) >= deal_number:
            scores = g.results[deal_number - 1].scores
            return scores[0], scores[1]
        k = key(g)
        if k in memo:
            return memo[k]
        outcomes = [search(actions + [str(a)]) for a in g.legal_actions()]
        net = [o[knocker] - o[1 - knocker] for o in outcomes]
        pick = max if g.current_player == knocker else min
        best = outcomes[net.index(pick(net))]
        memo[k] = best
        return best

    return search([])


@pytest.mark.parametrize(
    "hands, discard, stock",
    [
        (EXAMPLE_1, "2C", "KS"),
        (EXAMPLE_2, "AC", "JD"),
        (("8H 8D 8C AC 2C 3C JD QD KD 4H", "6S 7S 8S 6D 6C 9H TH JH QH KS"), "5C", "9D"),
        (("JS QS KS 2D 3D 4D 7C 7D 7H 5C", "TS 9S AH 2H 3H 4S 4C 4H 8C KH"), "6D", "KC"),
        (SETS_NOT_RUNS, "2S", "QD"),
        (BLOCKING, "2S", "KD"),
        (("2C 3C 4C 9D 9H 9C JH QH KH 5D", "6S 7S 8S 9S TC JC QC AH AS 3H"), "2S", "KC"),
    ],
)
def test_manual_settlement_played_optimally_equals_auto_settlement(
    hands: tuple[str, str], discard: str, stock: str
) -> None:
    auto = new_game(hands, discard=discard, stock=stock)
    play(auto, "pass", "pass", "draw stock", f"knock {stock}")
    manual = new_game(hands, discard=discard, stock=stock, options=MANUAL)
    play(manual, "pass", "pass", "draw stock", f"knock {stock}")
    assert best_manual_score(manual) == auto.results[0].scores


def test_auto_settlement_of_bot_knocks_equals_optimal_manual_settlement() -> None:
    """Knocks from greedy games, replayed with manual settlement and settled by exhaustive search."""
    variant = rummykit.load_variant("gin")
    compared = 0
    seed = 0
    while compared < 15:
        seed += 1
        game = variant.new_game(seed=seed)
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 50)]
        while not game.results:
            game.apply(bots[game.current_player or 0].choose(game))
        if game.results[0].kind == "dead":
            continue
        record = json.loads(game.to_json())
        record.update(options=MANUAL, actions=record["actions"][:1], scores=None, results=None, end_reason=None)
        manual = Game.from_json(json.dumps(record))
        assert manual.deal.phase == "knocker-melds"
        assert best_manual_score(manual) == game.results[0].scores, f"seed {seed}"
        compared += 1


def test_manual_settlement_random_players_never_get_stuck() -> None:
    variant = rummykit.load_variant("gin", options=MANUAL)
    rng = random.Random(5)
    settled = 0
    for seed in range(30):
        game = variant.new_game(seed=seed)
        while not game.is_over and len(game.results) < 3:
            legal = game.legal_actions()
            assert legal, f"no legal action in phase {game.deal.phase}"
            knocks = [a for a in legal if a.kind == "knock"]
            game.apply(knocks[0] if knocks else rng.choice(legal))
            game.check_cards()
        settled += sum(1 for r in game.results if r.kind != "dead")
    assert settled > 0


# -- observations --------------------------------------------------------------------------------------------------


def card_strings(value: Any) -> set[str]:
    """Every card named anywhere in an observation."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= card_strings(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_strings(item)
    elif isinstance(value, str):
        for token in value.split():
            try:
                found.add(str(parse_card(token)))
            except ValueError:
                pass
    return found


def test_observations_hide_the_other_hand_and_show_only_the_discard_top() -> None:
    variant = rummykit.load_variant("gin")
    for seed in range(6):
        game = variant.new_game(seed=seed)
        bots = [make_bot("random" if seed % 2 else "greedy", seed), make_bot("random", seed + 1)]
        while not game.is_over and len(game.results) < 2:
            deal = game.deal
            for seat in (0, 1):
                view = game.observation(seat)
                other = 1 - seat
                known = {str(c) for c in deal.hands[other] if c.id in deal.known[other]}
                hidden = {str(c) for c in deal.hands[other]} - known
                seen = card_strings(view)
                assert not seen & hidden, f"seat {seat} sees {seen & hidden}"
                assert set(view["known"][str(other)]) == known
                assert view["hand"] == sorted(view["hand"], key=lambda t: parse_card(t))
                assert {parse_card(t) for t in view["hand"]} == set(deal.hands[seat])
                assert "discard" not in view  # the pile is squared: only the top shows
                top = deal.discard[-1] if deal.discard else None
                assert view["discard_top"] == (str(top) if top is not None and top.id not in deal.face_down else None)
                # Nothing from lower in the pile shows, unless it is in the viewer's own hand or on top.
                buried = {str(c) for c in deal.discard[:-1]}
                assert not (seen & buried) - {str(c) for c in deal.hands[seat]}
                assert view["hand_sizes"] == [len(h) for h in deal.hands]
                assert view["stock_size"] == len(deal.stock)
                assert ("legal_actions" in view) == (game.current_player == seat)
            seat = game.current_player
            assert seat is not None
            game.apply(bots[seat].choose(game))


def test_a_card_taken_from_the_pile_is_known_to_the_other_player_until_it_is_discarded() -> None:
    game = new_game(PLAIN, discard="6C", stock="KS AD 6S")
    play(game, "draw discard")
    assert game.observation(1)["known"] == {"0": ["6C"]}
    play(game, "discard 8D")
    assert game.observation(1)["known"] == {"0": ["6C"]}
    play(game, "draw stock", "discard KS", "draw stock", "discard 6C")
    assert game.observation(1)["known"] == {"0": []}
    assert "6C" not in game.observation(0)["hand"]


def test_a_bare_knock_counts_only_the_cards_that_may_be_discarded() -> None:
    # Seat 0 takes the upcard KS: the best discard would be KS itself (deadwood AD 2D = 3), but the card just
    # taken may not be thrown, so the best is 2D (AD KS = 11) and no knock is legal.
    game = new_game(("2C 3C 4C 5C 9S 9D 9C 9H AD 2D", "3S 4S 6S 7S 8S 8D 8H QH QD QC"), discard="KS", stock="TS JS")
    play(game, "draw discard")
    assert not [a for a in game.legal_actions() if a.kind == "knock"]
    with pytest.raises(IllegalAction, match="after your best discard your deadwood is 11; knocking needs 10 or less"):
        game.apply("knock")


def test_the_last_chance_hint_says_what_is_legal() -> None:
    from rummykit.actions import position_words

    variant = rummykit.load_variant("gin", house_rules=["last-chance"])
    game = variant.new_game(seed=41)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not (game.deal.phase == "draw" and game.deal.state_of(GinState).last_chance):
        game.apply(bots[game.deal.actor].choose(game))
    hint = position_words(game.deal, game.deal.actor).hint
    assert "draw stock" not in hint and "stock is down to its last cards" in hint
    assert ("draw discard" in hint) == any(a.kind == "draw discard" for a in game.legal_actions())


# -- Gin states each of its verbs' legality once ----------------------------------------------------------------


def test_gin_explains_its_knock_refusals_itself() -> None:
    # Gin's own check says every reason a knock is refused, the kernel's plain turn not asked.
    hands = ("7S 7D 7H 7C 9C TC JC QC 5D 5S", "2S 3S 4S QD QH KC 8C KD 5C TS")
    game = new_game(hands, discard="AC", stock="KH 9H")
    deal = game.deal
    assert gin.knock_problem(deal, Action.parse("knock 7S")) == gin.UPCARD_FIRST
    play(game, "pass", "pass")
    assert gin.knock_problem(deal, Action.parse("knock 7S")) == "draw a card first"
    assert gin.knock_problem(deal, Action.parse("knock")) == "draw a card first"
    assert gin.knock_problem(deal, Action.parse("knock AD")) == "AD is not in your hand"
    play(game, "draw stock")
    assert gin.knock_problem(deal, Action.parse("knock 7H")) == (
        "after that discard your deadwood is 20; knocking needs 10 or less"
    )
    assert gin.knock_problem(deal, Action.parse("knock AD")) == "AD is not in your hand"
    assert gin.knock_problem(deal, Action.parse("knock")) == ""  # not legal, though nothing is wrong but the card
    assert gin.LEGALITY["knock"].refusal(deal, Action.parse("knock")) == "name the card you discard, as in 'knock KH'"
    assert gin.knock_problem(deal, Action.parse("knock KH")) is None
    for text, reason in (("knock 7H", "deadwood is 20"), ("knock", "as in 'knock KH'"), ("knock AD", "not in your")):
        with pytest.raises(IllegalAction, match=reason):
            game.apply(text)
    play(game, "knock KH")
    assert game.results[0].kind == "knock"


def test_gins_other_verbs_say_why_they_are_refused() -> None:
    hands = ("7S 7D 7H 7C 9C TC JC QC 5D 6S", "2S 3S 4S QD QH KC 8C KD 5C TS")
    game = new_game(hands, discard="AC", stock="KH 9H", options={"rules": {"big_gin_bonus": 31}})
    play(game, "pass", "pass", "draw stock")
    with pytest.raises(IllegalAction, match="big gin needs all eleven cards of your hand in melds"):
        game.apply("big gin")
    assert "big gin" not in [str(a) for a in game.legal_actions()]


def test_after_a_knock_meld_and_layoff_refusals_name_the_rule() -> None:
    game = new_game(EXAMPLE_1, discard="2C", stock="KS", options=MANUAL)
    play(game, "pass", "pass", "draw stock", "knock KS")
    with pytest.raises(IllegalAction, match="only the knocker's opponent lays off"):
        game.apply("layoff 8D on 0")
    with pytest.raises(IllegalAction, match="3H 4H 8D is not a valid meld"):
        game.apply("meld 3H 4H 8D")
    play(game, "meld 7S 7H 7D", "meld 9C TC JC", "meld 3H 4H 5H", "done")
    with pytest.raises(IllegalAction, match=r"5D does not fit table meld 1 \(9C TC JC\)"):
        game.apply("layoff 5D on 1")
    with pytest.raises(IllegalAction, match="lay off one card at a time"):
        game.apply("layoff 8C 2S on 1")
    play(game, "meld 2S 3S 4S")
    with pytest.raises(IllegalAction, match="only on the knocker's melds"):
        game.apply("layoff KH on 3")
