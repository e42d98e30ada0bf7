"""Conquian: hand-built deals for each rule, and whole games of bots with every card checked."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from rummykit_conquian import RULESET
from rummykit_conquian.plugin import ConquianRules, ConquianState, as_meld

import rummykit
from rummykit import Game, IllegalAction
from rummykit.bots import GreedyBot, RandomBot
from rummykit.cards import parse_card
from rummykit.ruleset import RulesetError


@pytest.fixture(scope="module")
def conquian() -> rummykit.Variant:
    return rummykit.load_variant(str(RULESET))


def new(variant: rummykit.Variant, first: str, second: str, stock: str) -> Game:
    """A game whose first deal gives seat 0 (who plays first) ``first`` and seat 1 ``second``, over ``stock``
    (top card first; the cards not named go beneath it)."""
    layout = {"dealer": 1, "hands": [first.split(), second.split()], "stock": stock.split()}
    return variant.new_game(players=2, layout=layout, seed=1)


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()


def texts(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def table(game: Game, seat: int) -> list[str]:
    return sorted(" ".join(map(str, tm.meld.cards)) for tm in game.deal.table if tm.owner == seat)


def face_up(game: Game) -> str | None:
    deal = game.deal
    assert len(deal.discard) <= 1  # the pile is the face-up card alone: refused cards are out of play
    return str(deal.discard[-1]) if deal.discard else None


def in_any_hand(game: Game, card: str) -> bool:
    return any(str(c) == card for hand in game.deal.hands for c in hand)


def idle(*used: str) -> str:
    """A hand of ten for seat 1 of cards not in ``used``: at most two of a rank, no two of one suit next to each
    other in run order, so that it holds no meld and no part of a run (it never melds alone, nor is forced)."""
    taken = {card for text in used for card in text.split()}
    ranks = "A234567JQK"
    free = [r + s for r in ranks for s in "CDHS" if r + s not in taken]

    def pick(start: int, chosen: list[str]) -> list[str] | None:
        if len(chosen) == 10:
            return chosen
        for index in range(start, len(free)):
            card = free[index]
            place = ranks.index(card[0])
            same_rank = sum(c[0] == card[0] for c in chosen)
            touching = any(c[1] == card[1] and abs(ranks.index(c[0]) - place) == 1 for c in chosen)
            if same_rank < 2 and not touching:
                found = pick(index + 1, [*chosen, card])
                if found is not None:
                    return found
        return None

    hand = pick(0, [])
    assert hand is not None
    return " ".join(hand)


# -- the package -------------------------------------------------------------------------------------------------


def test_the_installed_package_registers_conquian_by_name() -> None:
    from rummykit.catalogue import list_variants

    info = {v.name: v for v in list_variants()}["conquian"]
    assert info.package == "rummykit-conquian" and (info.min_players, info.max_players) == (2, 2)
    variant = rummykit.load_variant("conquian")
    assert "conquian" in variant.plugin_names


# -- the pack and the run order ----------------------------------------------------------------------------------


def test_forty_cards_dealt_ten_each_no_upcard(conquian: rummykit.Variant) -> None:
    game = conquian.new_game(players=2, seed=3)
    deal = game.deal
    assert len(game.deck) == len(deal.all_cards()) == 40
    assert sorted({c.rank for c in game.deck}) == [1, 2, 3, 4, 5, 6, 7, 11, 12, 13]
    assert [len(h) for h in deal.hands] == [10, 10]
    # The first player has turned the stock's top card (no upcard was dealt): 19 left.
    assert len(deal.stock) == 19 and face_up(game) is not None and game.history[0] == [f"auto: turn {face_up(game)}"]


def test_jack_follows_seven_in_a_run_and_ace_is_low(conquian: rummykit.Variant) -> None:
    melds = conquian.meld_search.rules

    def run(text: str) -> str | None:
        meld = as_meld(melds, [parse_card(t) for t in text.split()])
        return None if meld is None else f"{meld.kind} {' '.join(map(str, meld.cards))}"

    assert run("JH 6H 7H") == "run 6H 7H JH"
    assert run("7H JH QH KH") == "run 7H JH QH KH"
    assert run("KH AH 2H") is None  # the ace is low only
    assert run("QH KH AH") is None
    assert run("7H 8H 9H") is None  # no 8s or 9s in the pack
    assert run("AH 2H 3H 4H 5H 6H 7H JH QH") is None  # nine cards: a run has at most eight
    assert run("5H 5C 5D 5S") == "set 5C 5D 5H 5S"


def test_six_seven_jack_melded_in_play_and_no_eight_can_be_dealt(conquian: rummykit.Variant) -> None:
    game = new(conquian, "6H 7H KC KD 2S 4D QS JC AC 3S", idle("6H 7H KC KD 2S 4D QS JC AC 3S JH"), "JH")
    assert face_up(game) == "JH"
    assert "meld JH 6H 7H" in texts(game)
    play(game, "meld JH 6H 7H")
    assert table(game, 0) == ["6H 7H JH"]
    with pytest.raises(ValueError, match="8H"):
        new(conquian, "6H 7H 8H KD 2S 4D QS JC AC 3S", idle("6H 7H KD 2S 4D QS JC AC 3S JH"), "JH")
    # Nor does one lie in the stock beneath the named cards: the pack holds no 8, 9 or 10.
    assert all(c.rank in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13) for c in game.deal.stock)


# -- the face-up card never enters the hand ------------------------------------------------------------------------


def test_the_face_up_card_is_only_melded_never_taken_into_the_hand(conquian: rummykit.Variant) -> None:
    game = new(conquian, "KC KD 2S 4D QS JC AC 3S 6C 2D", idle("KC KD 2S 4D QS JC AC 3S 6C 2D KH"), "KH")
    assert sorted(texts(game)) == ["meld KH KC KD", "pass"]
    for refused in ("draw stock", "draw discard", "take KH", "discard 2S", "meld KC KD 2S"):
        with pytest.raises(IllegalAction):
            game.apply(refused)
    with pytest.raises(IllegalAction, match="face-up card KH must be in it"):
        game.apply("meld KC KD 2D")
    assert not in_any_hand(game, "KH")
    play(game, "meld KH KC KD")
    assert not in_any_hand(game, "KH") and table(game, 0) == ["KC KD KH"]
    # Then a discard from the hand, face up, and nothing else.
    assert all(t.startswith("discard ") for t in texts(game))
    play(game, "discard 2S")
    assert face_up(game) == "2S" and game.current_player == 1


# -- rearranging one's melds ---------------------------------------------------------------------------------------


def test_a_card_taken_off_the_end_of_a_four_card_run(conquian: rummykit.Variant) -> None:
    # Seat 0 melds 4H-7H, then meets the 7C with 7D in hand: 7H comes off the run to make 7C 7D 7H.
    game = new(conquian, "4H 5H 6H 7D KC QS 2S 2D JC 3C", "AH 3H 5C JD QC 4S 6S AD 3D KS", "7H AS 7C")
    play(game, "meld 7H 4H 5H 6H", "discard KC", "pass")  # seat 1 lets KC go and turns AS
    play(game, "pass")  # seat 1 passes its own AS: it stays for seat 0
    play(game, "pass")  # seat 0 refuses AS and turns 7C
    assert face_up(game) == "7C"
    assert "meld 7C 7D 7H" in texts(game)
    play(game, "meld 7C 7D 7H")
    assert table(game, 0) == ["4H 5H 6H", "7C 7D 7H"]


def test_a_card_moved_from_a_set_of_four(conquian: rummykit.Variant) -> None:
    mine, stock = "5C 5D 5S 2H 3H KC KD QS JS 6C", "5H 2C 4H"
    game = new(conquian, mine, idle(mine, stock), stock)
    play(game, "meld 5H 5C 5D 5S", "discard QS", "pass", "pass", "pass")  # seat 0 refuses 2C, turns 4H
    assert face_up(game) == "4H"
    # 4H with 2H 3H from hand and 5H off the set of four: the three 5s left are still a set.
    assert "meld 4H 2H 3H 5H" in texts(game)
    play(game, "meld 4H 2H 3H 5H")
    assert table(game, 0) == ["2H 3H 4H 5H", "5C 5D 5S"]


def test_taking_a_card_that_leaves_an_invalid_group_is_refused(conquian: rummykit.Variant) -> None:
    mine, stock = "5C 5D 2H 3H KC KD QS JS 6C 7D", "5H 2C 4H"
    game = new(conquian, mine, idle(mine, stock), stock)
    play(game, "meld 5H 5C 5D", "discard QS", "pass", "pass", "pass")
    assert face_up(game) == "4H"
    assert "meld 4H 2H 3H 5H" not in texts(game)
    with pytest.raises(IllegalAction, match="leaves a group that is no valid meld"):
        game.apply("meld 4H 2H 3H 5H")


def test_splitting_a_long_run_in_the_middle(conquian: rummykit.Variant) -> None:
    mine, stock = "AH 2H 3H 4H 5H 6H 4D KC QS JS", "7H 2C 4C"
    game = new(conquian, mine, idle(mine, stock), stock)
    play(game, "meld 7H AH 2H 3H 4H 5H 6H", "discard QS", "pass", "pass", "pass")
    assert face_up(game) == "4C"
    play(game, "meld 4C 4D 4H")  # 4H from the middle: A-2-3 and 5-6-7 are left, two runs
    assert table(game, 0) == ["4C 4D 4H", "5H 6H 7H", "AH 2H 3H"]


# -- passing ---------------------------------------------------------------------------------------------------


def test_a_passed_card_stays_face_up_for_the_opponent_who_may_meld_it(conquian: rummykit.Variant) -> None:
    game = new(conquian, "KC KD 2S 4D QS JH AC 3S 6C 2D", "QH QD AH 3H 5H 7H JD 4S 6S 3D", "QC")
    assert texts(game) == ["pass"]  # QC melds with nothing seat 0 holds
    play(game, "pass")  # seat 0 lets its own QC go: seat 1's turn, QC face up
    assert game.current_player == 1 and face_up(game) == "QC"
    assert "meld QC QH QD" in texts(game) and "pass" in texts(game)
    assert len(game.deal.stock) == 19  # nothing turned yet on seat 1's turn
    play(game, "meld QC QH QD", "discard 4S")
    assert table(game, 1) == ["QC QD QH"] and not in_any_hand(game, "QC")


def test_passing_the_opponents_card_turns_it_down_and_turns_the_next(conquian: rummykit.Variant) -> None:
    mine, stock = "KC KD 2S 4D QS JC AC 3S 6C 2D", "QC 2H"
    game = new(conquian, mine, idle(mine, stock), stock)
    play(game, "pass", "pass")
    deal = game.deal
    assert face_up(game) == "2H" and game.current_player == 1
    assert parse_card("QC") in deal.set_aside and game.history[0][-1] == "auto: turn 2H"


# -- forcing ---------------------------------------------------------------------------------------------------


def forcing_game(conquian: rummykit.Variant) -> Game:
    """Seat 0 melds 5C 5D 5H, discards QS; seat 1 lets it go and turns 2C, passes it; seat 0 lets 2C go and
    turns 5S, which extends its set, and passes it: seat 1 may force it."""
    mine, stock = "5C 5D KC KD QS JS 6C 7D 2H 3H", "5H 2C 5S"
    game = new(conquian, mine, idle(mine, stock), stock)
    play(game, "meld 5H 5C 5D", "discard QS", "pass", "pass", "pass")
    assert face_up(game) == "5S" and game.current_player == 0
    play(game, "pass")
    return game


def test_the_opponent_forces_a_card_that_extends_my_meld(conquian: rummykit.Variant) -> None:
    game = forcing_game(conquian)
    assert game.deal.phase == "forcing" and game.current_player == 1  # seat 1 answers
    assert sorted(texts(game)) == ["force", "waive"]
    play(game, "force")
    assert game.current_player == 0 and game.deal.state_of(ConquianState).forced
    # The typed state is the deal's own: a copy of the game keeps it, and the copy's changes stay there.
    copy = game.clone()
    assert copy.deal.state_of(ConquianState) == ConquianState(stake=1, turned_by=0, forced=True)
    copy.deal.state_of(ConquianState).forced = False
    assert game.deal.state_of(ConquianState).forced
    assert "pass" not in texts(game)
    with pytest.raises(IllegalAction, match="forced to meld 5S"):
        game.apply("pass")
    assert "layoff 5S on 0" in texts(game)
    play(game, "layoff 5S on 0")
    assert table(game, 0) == ["5C 5D 5H 5S"]
    assert all(t.startswith("discard ") for t in texts(game))
    play(game, "discard KC")
    assert game.current_player == 1 and face_up(game) == "KC"


def test_a_waived_card_stays_face_up_for_the_opponent(conquian: rummykit.Variant) -> None:
    game = forcing_game(conquian)
    play(game, "waive")
    assert game.current_player == 1 and face_up(game) == "5S" and game.deal.phase == "face-up"


def test_no_forcing_when_the_rule_is_off(conquian: rummykit.Variant) -> None:
    variant = rummykit.load_variant(str(RULESET), options={"rules": {"forcing": False}})
    assert variant.rules_as(ConquianRules) == ConquianRules(forcing=False, after_tie="double")
    game = forcing_game(variant)
    assert game.current_player == 1 and game.deal.phase == "face-up"


# -- winning with eleven -----------------------------------------------------------------------------------------


WINNER, WINNER_STOCK = "2C 3C 5D 6D KH KD KC JH QS 2S", "AC 4D KS 4C"


def test_the_first_to_meld_eleven_wins_and_ten_with_an_empty_hand_is_not_enough(conquian: rummykit.Variant) -> None:
    game = new(conquian, WINNER, idle(WINNER, WINNER_STOCK), WINNER_STOCK)
    play(game, "meld AC 2C 3C", "discard JH", "pass", "pass")  # seat 1 lets JH go, turns 4D, passes it
    play(game, "meld 4D 5D 6D", "discard QS", "pass", "pass")  # seat 1 turns KS and passes it
    play(game, "meld KS KH KD KC", "discard 2S")
    deal = game.deal
    assert not deal.hands[0] and sum(len(tm.meld.cards) for tm in deal.table) == 10
    assert not deal.is_over  # ten melded and an empty hand: play goes on
    play(game, "pass")  # seat 1 lets 2S go and turns 4C, passes it
    play(game, "pass")
    assert face_up(game) == "4C" and game.current_player == 0 and "layoff 4C on 0" in texts(game)
    play(game, "layoff 4C on 0")
    result = game.results[0]
    assert result.kind == "out" and result.winner == 0 and result.scores == (1, 0)
    assert result.details["melded"] == [11, 0]
    assert game.is_over and game.winner == 0  # a game is one win


def test_a_win_needs_more_hands_when_the_target_says_so(conquian: rummykit.Variant) -> None:
    variant = rummykit.load_variant(str(RULESET), options={"target": 2})
    game = new(variant, WINNER, idle(WINNER, WINNER_STOCK), WINNER_STOCK)
    play(game, "meld AC 2C 3C", "discard JH", "pass", "pass", "meld 4D 5D 6D", "discard QS", "pass", "pass")
    play(game, "meld KS KH KD KC", "discard 2S", "pass", "pass", "layoff 4C on 0")
    assert game.results[0].winner == 0 and not game.is_over and game.deal.number == 2


# -- the stock exhausted -------------------------------------------------------------------------------------------


IDLER = "AC 3C 5C 7C QC AD 3D 5D 7D QD"


def pass_to_the_end(game: Game) -> None:
    """Both players pass every card until the hand ends (neither hand melds, so nobody is forced)."""
    number = game.deal.number
    while game.deal.number == number and not game.is_over:
        if not game.deal.stock and game.deal.phase == "face-up":
            # The stock is empty, yet the face-up card may still be melded: the hand goes on.
            assert not game.deal.is_over and "pass" in texts(game)
        play(game, "pass")


def test_an_exhausted_stock_is_a_tie_and_the_next_hand_counts_double(conquian: rummykit.Variant) -> None:
    game = new(conquian, IDLER, idle(IDLER), "")
    pass_to_the_end(game)
    tie = game.results[0]
    assert tie.kind == "exhausted" and tie.winner is None and tie.scores == (0, 0)
    assert not game.is_over and game.deal.number == 2
    assert game.deal.state_of(ConquianState).stake == 2
    finish = RandomBot(seed=5)
    while game.deal.number == 2 and not game.is_over:
        game.apply(finish.choose(game))
        game.check_cards()
    second = game.results[1]
    assert second.details["stake"] == 2
    if second.kind == "out":
        assert second.winner is not None and second.scores[second.winner] == 2


def test_no_double_when_the_ruleset_says_same(conquian: rummykit.Variant) -> None:
    variant = rummykit.load_variant(str(RULESET), options={"rules": {"after_tie": "same"}})
    game = new(variant, IDLER, idle(IDLER), "")
    pass_to_the_end(game)
    assert game.results[0].kind == "exhausted" and game.deal.state_of(ConquianState).stake == 1


# -- whole games of bots -----------------------------------------------------------------------------------------


def whole_games(variant: rummykit.Variant, bot: Any, games: int) -> tuple[float, int]:
    start, actions = time.perf_counter(), 0
    for seed in range(games):
        game = variant.new_game(players=2, seed=seed)
        bots = [bot(seed=seed), bot(seed=seed + 10_000)]
        game.check_cards()
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
            game.check_cards()
            actions += 1
        assert game.end_reason in ("target", "max-hands")
        for result in game.results:
            assert result.kind in ("out", "exhausted")
            if result.kind == "out":
                assert result.details["melded"][result.winner] == 11
    return time.perf_counter() - start, actions


def test_200_random_bot_games_finish_with_every_card_checked(conquian: rummykit.Variant) -> None:
    elapsed, actions = whole_games(conquian, RandomBot, 200)
    print(f"200 random games: {actions} actions in {elapsed:.1f} s")


def test_50_greedy_bot_games_finish_with_every_card_checked(conquian: rummykit.Variant) -> None:
    elapsed, actions = whole_games(conquian, GreedyBot, 50)
    print(f"50 greedy games: {actions} actions in {elapsed:.1f} s")


@pytest.mark.parametrize(
    ("options", "path", "own"),
    [
        ({"table": {"layoff": "any"}}, "table.layoff", "own"),
        ({"turn": {"end": "offer"}}, "turn.end", "discard"),
        ({"draw": {"empty_stock": "turn-over"}}, "draw.empty_stock", "end"),
        ({"draw": {"from_pile": "whole"}}, "draw.from_pile", "top"),
        ({"discard_pile": "fanned"}, "discard_pile", "squared"),
        ({"table": {"discard_to_go_out": "required"}}, "table.discard_to_go_out", "optional"),
        ({"table": {"melds": False}}, "table.melds", "true"),
    ],
)
def test_kernel_turn_values_its_own_turn_would_ignore_are_refused(options: dict[str, Any], path: str, own: str) -> None:
    refused = rf"{re.escape(path)}: plugin 'conquian': Conquian plays its own turn .* expected {own}$"
    with pytest.raises(RulesetError, match=refused):
        rummykit.load_variant("conquian", options=options)


def test_a_deal_of_every_card_is_refused_before_a_game() -> None:
    # 20 cards in two suits, ten each: no stock to turn up from (it used to leave no legal action).
    with pytest.raises(RulesetError, match="takes every card, leaving none for the stock"):
        rummykit.load_variant("conquian", options={"decks": {"suits": ["S", "H"]}})
