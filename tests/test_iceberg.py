"""Iceberg: the published example hand, hand-built deals for each rule, and soak runs."""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

import pytest
from rummykit.plugins import iceberg

import rummykit
from rummykit import Game, IllegalAction
from rummykit.bots import GreedyBot, RandomBot
from rummykit.cards import parse


@pytest.fixture(scope="module")
def berg() -> rummykit.Variant:
    return rummykit.load_variant("iceberg")


def layout(hands: list[str], stock: str = "", dealer: int | None = None) -> dict[str, Any]:
    """A prearranged deal; the player after the dealer plays first (seat 0 unless ``dealer`` says)."""
    seat_dealer = len(hands) - 1 if dealer is None else dealer
    return {"dealer": seat_dealer, "hands": [h.split() for h in hands], "stock": stock.split()}


def new(variant: rummykit.Variant, hands: list[str], stock: str = "") -> Game:
    """A game whose first deal is ``hands`` (seat 0 plays first) over ``stock`` (top card first)."""
    return variant.new_game(players=len(hands), layout=layout(hands, stock), seed=1)


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()


def texts(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def snapshot(game: Game) -> tuple[Any, ...]:
    deal = game.deal
    return (
        [sorted(map(str, h)) for h in deal.hands],
        [str(c) for c in deal.stock],
        [str(tm) for tm in deal.table],
        {name: [[str(c) for c in part] for part in zone.cards] for name, zone in deal.zones.items()},
        deal.phase,
        deal.current,
        game.history,
        list(game.scores),
        dict(iceberg.iceberg_state(deal).added),
    )


# -- the published example hand ----------------------------------------------------------------------------

EXAMPLE = layout(
    [
        "9S 8S 7S JH 3H QD AD",  # A
        "KS JS 3S QH JD 8D JC",  # B
        "6S TD 9D 4D 2D KC QC",  # C
    ],
    stock="3C 6C AC QS",
)


def test_the_seeds_example_hand_scores_a_100_b_minus_120_c_minus_20(berg: rummykit.Variant) -> None:
    game = berg.new_game(players=["A", "B", "C"], layout=EXAMPLE, seed=1)
    # A draws the 3C, lays the AD face up (the rules do it), melds 9-8-7 of spades, discards the JH.
    play(game, "draw stock")
    assert game.history[0][-1] == "auto: expose AD"
    play(game, "meld 9S 8S 7S", "discard JH")
    # B draws the 6C, melds the pair of jacks, discards the 8D.
    play(game, "draw stock", "meld JD JC", "discard 8D")
    # C takes up the JH (the rules do it), draws the AC (laid face up), lays off the JH on B's pair and the
    # 6S on A's run, and discards the 2D.
    assert game.history[0][-1] == "auto: take up JH"
    play(game, "draw stock")
    assert game.history[0][-1] == "auto: expose AC"
    play(game, "layoff JH on 1", "layoff 6S on 0", "discard 2D")
    # A takes up the 8D, draws the QS, lays two pairs and goes out by discarding the 8D.
    assert game.history[0][-1] == "auto: take up 8D"
    play(game, "draw stock", "meld 3H 3C", "meld QD QS", "discard 8D")
    result = game.results[0]
    assert result.kind == "out" and result.winner == 0
    assert result.details["melded"] == [50, 10, 60]
    assert result.details["in_hand"] == [0, -50, -50]
    # B: the JS would be the 4th jack (40), the QH and the 3S the third card of a pair (20 each).
    assert result.details["playable"] == [0, -80, -20]
    assert result.details["aces"] == [1, 0, 1]
    assert result.scores == (100, -120, -20)
    assert game.scores == [100, -120, -20]
    # The record replays, the moves the rules made included.
    again = Game.from_json(game.to_json())
    assert again.history == game.history and again.scores == game.scores


def test_the_hand_end_shows_melded_points_penalties_and_ace_multiplier(berg: rummykit.Variant) -> None:
    from rummykit.cli import play_interactive

    game = berg.new_game(players=["A", "B", "C"], layout=EXAMPLE, seed=1)
    moves = iter(["draw stock", "meld 9S 8S 7S", "discard JH", "draw stock", "meld JD JC", "discard 8D"]
                 + ["draw stock", "layoff JH on 1", "layoff 6S on 0", "discard 2D"]
                 + ["draw stock", "meld 3H 3C", "meld QD QS", "discard 8D"])  # fmt: skip
    seen: list[str] = []

    class Seat:
        def choose(self, g: Game) -> Any:
            if g.results:
                raise EOFError  # the example hand is over
            return g.resolve(next(moves))

    # Seat 0 is the person; the others play the example's moves as bots would.
    def read(prompt: str) -> str:
        return next(moves)

    with pytest.raises(EOFError):
        play_interactive(game, 0, [None, Seat(), Seat()], read, seen.append)
    text = "\n".join(seen)
    assert "You lay AD face up" in text and "C takes up JH, passed face down by you" in text
    assert "B passes a card face down to you" in text and "You take up 8D, passed face down by B" in text
    b_line = next(line for line in seen if line.startswith("   B:"))
    assert "melded 10, cards in hand -50, playable -80, ace multiplier x1, hand score -120" in b_line
    a_line = next(line for line in seen if line.startswith("   You:"))
    assert "melded 50, cards in hand 0, playable 0, ace multiplier x2, hand score 100" in a_line


# -- the turn -------------------------------------------------------------------------------------------


def test_an_ace_drawn_is_laid_face_up_at_once(berg: rummykit.Variant) -> None:
    game = new(berg, ["2C 3C 4C 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"], "AH")
    play(game, "draw stock")
    assert [str(c) for c in game.deal.zones["aces"].cards[0]] == ["AH"]
    assert all(c.rank != 1 for c in game.deal.hands[0])
    assert game.history[0] == ["draw stock", "auto: expose AH"]
    # Everyone sees it.
    assert game.observation(1)["zones"]["aces"][0]["cards"] == ["AH"]


def test_dealt_aces_are_laid_after_the_draw_of_the_first_turn(berg: rummykit.Variant) -> None:
    game = new(berg, ["AC AD 4C 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"], "KH")
    assert len(game.deal.hands[0]) == 7  # nothing happens before the draw (step 3 comes after step 2)
    play(game, "draw stock")
    assert sorted(map(str, game.deal.zones["aces"].cards[0])) == ["AC", "AD"]
    assert game.history[0] == ["draw stock", "auto: expose AC AD"]


def test_aces_never_meld(berg: rummykit.Variant) -> None:
    search = berg.meld_search
    assert search.meld(parse("AC AD")) is None
    assert search.meld(parse("AC 2C 3C")) is None
    assert search.meld(parse("QC KC AC")) is None


def test_the_discard_goes_face_down_to_the_right_and_is_taken_up_next_turn(berg: rummykit.Variant) -> None:
    hands = ["2C 3C 5D 6D 9D JH KS", "2S 4S 5H 7H 9C JD KD", "3D 4H 6S 8C TC QD KH"]
    game = new(berg, hands, "8D 8H 8S")
    play(game, "draw stock", "discard KS")  # seat 0's right-hand opponent is seat 2
    deal = game.deal
    assert [str(c) for c in deal.zones["passed"].cards[2]] == ["KS"]
    # Seat 1 plays; seat 2 takes the KS up at the start of its turn, before drawing.
    play(game, "draw stock", "discard KD")
    assert [str(c) for c in deal.zones["passed"].cards[0]] == ["KD"]
    assert "KS" in map(str, deal.hands[2]) and deal.zones["passed"].cards[2] == []
    assert game.history[0][-1] == "auto: take up KS"
    assert texts(game) == ["draw stock"]


def test_the_passed_card_is_seen_only_by_passer_and_receiver(berg: rummykit.Variant) -> None:
    hands = ["2C 3C 5D 6D 9D JH KS", "2S 4S 5H 7H 9C JD KD", "3D 4H 6S 8C TC QD KH"]
    game = new(berg, hands, "8D 8H 8S")
    play(game, "draw stock", "discard KS")
    # Lying face down beside seat 2: the passer sees it, the others only that a card lies there.
    views = [game.observation(s)["zones"]["passed"][2] for s in range(3)]
    assert views == [{"count": 1, "cards": ["KS"]}, {"count": 1, "cards": []}, {"count": 1, "cards": []}]
    play(game, "draw stock", "discard KD")  # seat 2 takes the KS up
    assert game.observation(0)["known"]["2"] == ["KS"]  # the passer knows it is in seat 2's hand
    assert game.observation(1)["known"]["2"] == []  # the third player does not
    assert "KS" in game.observation(2)["hand"]
    # The words of the log follow the same rule.
    deal = game.deal
    seat, action = deal.log[1]
    assert str(action) == "discard KS"
    words = rummykit.actions.action_words(deal, seat, action, viewer=1)
    assert words is not None and "KS" not in words.they
    words = rummykit.actions.action_words(deal, seat, action, viewer=0)
    assert words is not None and "KS" in words.you
    take_up = next(a for s, a in deal.log if a.kind == "take up")
    assert "KS" not in rummykit.actions.action_words(deal, 2, take_up, viewer=1).they  # type: ignore[union-attr]
    assert "KS" in rummykit.actions.action_words(deal, 2, take_up, viewer=0).they  # type: ignore[union-attr]


def test_going_out_by_melding_the_last_card_needs_no_discard(berg: rummykit.Variant) -> None:
    game = new(berg, ["2C 3C 4C 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"], "9C")
    play(game, "draw stock", "meld 2C 3C 4C", "meld 5D 6D 7D")
    assert not game.is_over and "discard 9H" in texts(game)
    play(game, "meld 9C 9H")
    assert game.results[0].kind == "out" and game.results[0].winner == 0


def test_illegal_actions_leave_the_game_exactly_as_it_was(berg: rummykit.Variant) -> None:
    hands = ["2C 3C 5D 6D 9D JH KS", "2S 4S 5H 7H 9C JD KD", "3D 4H 6S 8C TC QD KH"]
    game = new(berg, hands, "8D 2D 8S QS")
    for text in ("discard KS", "meld 2C 3C", "draw discard", "take up", "expose AC", "end turn"):
        before = snapshot(game)
        with pytest.raises(IllegalAction):
            game.apply(text)
        assert snapshot(game) == before
    play(game, "draw stock", "discard KS")  # seat 0 draws the 8D
    play(game, "draw stock", "meld 2S 2D", "discard KD")  # seat 1 draws the 2D
    play(game, "draw stock")  # seat 2 takes up the KS and draws the 8S
    for text in ("draw stock", "discard KD", "layoff 2C on 0", "layoff 3D on 0", "meld 8S 8S", "expose KH", "take up"):
        before = snapshot(game)
        with pytest.raises(IllegalAction):
            game.apply(text)
        assert snapshot(game) == before
    assert "meld KH KS" in texts(game)
    play(game, "meld KH KS")


def test_a_discard_may_go_to_the_left_instead(berg: rummykit.Variant) -> None:
    variant = rummykit.load_variant("iceberg", options={"turn": {"discard_to": "left"}})
    hands = ["2C 3C 5D 6D 9D JH KS", "2S 4S 5H 7H 9C JD KD", "3D 4H 6S 8C TC QD KH"]
    game = new(variant, hands, "8D 8H 8S")
    deal = game.deal
    play(game, "draw stock", "discard KS")
    assert [str(c) for c in deal.zones["passed"].cards[1]] == []  # taken up at once: seat 1 plays next
    assert "KS" in map(str, deal.hands[1]) and game.history[0][-1] == "auto: take up KS"


def test_a_passed_discard_needs_no_open_pile() -> None:
    with pytest.raises(rummykit.RulesetError, match="discard_to"):
        rummykit.load_variant("500-rum", options={"turn": {"discard_to": "right"}})


# -- melds ------------------------------------------------------------------------------------------------


def test_a_pair_of_the_same_suit_is_refused_with_two_decks(berg: rummykit.Variant) -> None:
    hands = ["7H 7H 7S 2C 4D 6S 9C", "2S 4S 5H 8H 9D JD KD", "3D 4H 6S 8C TC QD KH", "3H 5C 6C 8D TD QC KC"]
    game = new(berg, hands, "JC")
    assert game.deck.count(game.deck[0]) == 1 and len(game.deck) == 104
    play(game, "draw stock")
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply("meld 7H 7H")
    assert snapshot(game) == before
    assert "meld 7H 7H" not in texts(game) and "meld 7H 7S" in texts(game)
    with pytest.raises(IllegalAction):
        game.apply("meld 7H 7H 7S")
    assert snapshot(game) == before


def test_a_special_meld_scores_its_value_and_is_never_extended(berg: rummykit.Variant) -> None:
    hands = ["KH JH 9H 7H 5H 3H 2C", "KS JS 9S 7S 5S 4C 2D", "QD TC 8C 6D 4D 2H 9D"]
    game = new(berg, hands, "8D 3S 6C")
    play(game, "draw stock", "meld KH JH 9H 7H 5H 3H", "discard 8D")
    assert game.deal.table[0].meld.kind == "odd-suit"
    play(game, "draw stock")  # seat 1 draws the 3S: it would fit K-J-9-7-5 of spades, not the hearts
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply("layoff 3S on 0")
    with pytest.raises(IllegalAction):
        game.apply("layoff 4C on 0")
    assert snapshot(game) == before
    assert not any(a.kind == "layoff" for a in game.legal_actions())
    assert iceberg.melded_points(game.deal)[0] == 700


def test_the_mixed_colour_special_meld_scores_350(berg: rummykit.Variant) -> None:
    search = berg.meld_search
    meld = search.meld(parse("QD TH 8H 6D 4D 2H"))
    assert meld is not None and meld.kind == "even-colour"
    assert iceberg.meld_points(iceberg.iceberg_rules(berg), meld) == 350
    assert search.meld(parse("QD TC 8H 6D 4D 2H")) is None  # two colours
    one_suit = search.meld(parse("QD TD 8D 6D 4D 2D"))
    assert one_suit is not None and iceberg.meld_points(iceberg.iceberg_rules(berg), one_suit) == 700


def test_the_fourth_and_fifth_cards_of_a_run_score_40_and_50(berg: rummykit.Variant) -> None:
    hands = ["5S 6S 7S 2C 4D 9D JH", "8S 9S 2H 4H 6H TH QH", "3D 5D 7D 9C JC KC QS"]
    game = new(berg, hands, "KD KH 3C")
    play(game, "draw stock", "meld 5S 6S 7S", "discard JH")
    play(game, "draw stock", "layoff 8S on 0", "layoff 9S on 0", "discard QH")
    points = iceberg.melded_points(game.deal)
    assert points[:2] == [30, 40 + 50]
    assert iceberg.iceberg_state(game.deal).added == {
        game.deal.table[0].meld.cards[3].id: 4,
        game.deal.table[0].meld.cards[4].id: 5,
    }


def test_a_lay_off_that_goes_out_scores_the_places_its_cards_take(berg: rummykit.Variant) -> None:
    # The hand is scored as the lay-off empties it: its cards take places 4 to 7 of the run (40 + 50 + 60 + 70).
    hands = ["5S 6S 7S 2C 4D 9D JS", "8S 9S TS 4H 4C 4S QH"]
    game = new(berg, hands, "KD QD 3C")
    play(game, "draw stock", "meld 5S 6S 7S", "discard JS")
    play(game, "draw stock", "meld 4H 4C 4S", "meld QH QD", "layoff 8S 9S TS JS on 0")
    result = game.results[0]
    assert result.kind == "out" and result.details["melded"][:2] == [30, 30 + 10 + 40 + 50 + 60 + 70]


def test_a_pair_then_its_third_card_score_10_and_20_and_a_run_laid_whole_scores_as_built(
    berg: rummykit.Variant,
) -> None:
    rules = iceberg.iceberg_rules(berg)
    assert [iceberg.built_up(rules, k) for k in (2, 3, 4, 5, 6)] == [10, 30, 70, 120, 180]
    hands = ["9C 9D 5S 6S 7S 8S 2H", "9H 4H 6H TH QH KH 3D", "3C 5D 7D JC KC QS 2D"]
    game = new(berg, hands, "KD JD 3H")
    play(game, "draw stock", "meld 9C 9D", "meld 5S 6S 7S 8S", "discard 2H")
    play(game, "draw stock", "layoff 9H on 0", "discard 3D")
    assert iceberg.melded_points(game.deal)[:2] == [10 + 70, 20]


# -- the end of a hand ------------------------------------------------------------------------------------


def test_the_hand_ends_at_the_last_ace_after_the_exposers_whole_turn(berg: rummykit.Variant) -> None:
    hands = ["AC AD AH 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"]
    game = new(berg, hands, "KH AS QC")
    play(game, "draw stock", "meld 5D 6D 7D", "discard 9H")  # three aces out, one to come
    assert not game.is_over
    play(game, "draw stock")  # seat 1 draws the last ace: laid at once, and the turn goes on
    assert game.history[0][-1] == "auto: expose AS"
    assert not game.is_over and game.deal.phase == "play"
    play(game, "meld 2S 3S 4S")
    assert not game.is_over
    deal = game.deal
    play(game, "discard 9D")  # the exposer finishes the turn, discard included; then the hand ends
    result = game.results[0]
    assert result.kind == "last-ace" and result.winner is None
    assert result.details["aces"] == [3, 1]
    # Seat 0 kept the KH; the 9D it was passed lies face down beside it and counts for nobody.
    assert [str(c) for c in deal.zones["passed"].cards[0]] == ["9D"]
    assert result.details["in_hand"] == [-10, -40]
    # Seat 1 holds 5H 6H 7H (a run: 30) and the 9H taken up.
    assert result.details["playable"] == [0, -30]
    assert result.scores == ((30 - 10) * 4, (30 - 40 - 30) * 2)


def test_playable_cards_cost_what_they_would_score_with_one_more_turn(berg: rummykit.Variant) -> None:
    hands = ["5D 6D 7D QC QD 9H 2C", "8D 9D 4S 4H TC 3C JS"]
    game = new(berg, hands, "KH AS")
    play(game, "draw stock", "meld 5D 6D 7D", "discard 2C")
    play(game, "draw stock", "discard TC")
    deal = game.deal
    # Seat 1 holds 8D 9D (the 4th and 5th cards of the run: 40 + 50), the pair 4S 4H (10), 3C, JS, 2C.
    assert iceberg.best_next_turn(deal, 1) == 40 + 50 + 10
    # Seat 0 holds QC QD (a pair: 10), 9H, KH; the TC passed to it is not in its hand yet.
    assert iceberg.best_next_turn(deal, 0) == 10


def test_one_table_meld_takes_one_lay_off_and_twins_count_once(berg: rummykit.Variant) -> None:
    hands = ["3H 3C 5D 6D 9H JH KS", "3S 3S 4S 5H 6H 7H 9D", "2C 4C 6C 8C TC QC 2H", "2D 4D 8D TD QD KD 7C"]
    game = new(berg, hands, "KH 8S 8H 9C")
    play(game, "draw stock", "meld 3H 3C", "discard KS")
    # Seat 1's two 3S: only one may join the pair of threes (different suits): 20, with the run 5H 6H 7H 30.
    assert iceberg.best_next_turn(game.deal, 1) == 20 + 30


def test_the_ace_bonus_house_rule_adds_20_per_ace_instead_of_multiplying() -> None:
    hands = ["AC AD AH 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"]
    actions = ["draw stock", "meld 5D 6D 7D", "discard 9H", "draw stock", "meld 2S 3S 4S", "discard 9D"]
    scores = []
    for house in ((), ("ace-bonus",)):
        variant = rummykit.load_variant("iceberg", house_rules=house)
        game = new(variant, hands, "KH AS QC")
        play(game, *actions)
        scores.append(game.results[0].scores)
    assert scores[0] == ((30 - 10) * 4, (30 - 40 - 30) * 2)
    assert scores[1] == (30 - 10 + 3 * 20, 30 - 40 - 30 + 20)


# -- soak runs --------------------------------------------------------------------------------------------

# Random bots: 500 seeded hands per player count. Greedy bots: whole games to 5000 take 25-80 hands each
# (measured on one core: about 0.3-0.4 s a game for two players, 0.7 for three, 0.9-1.3 for four, 1.3 for
# five, up to twice that on a loaded machine), so by default each player count plays
# as many games as fit in about 45 s; RUMMYKIT_SOAK=full plays the 500 the issue names.
FULL = os.environ.get("RUMMYKIT_SOAK", "") == "full"
RANDOM_HANDS = int(os.environ.get("RUMMYKIT_SOAK_HANDS", "500" if FULL else "150"))
GREEDY_GAMES = {2: 40, 3: 20, 4: 12, 5: 8}  # the suite's share; RUMMYKIT_SOAK=full plays 500 of each


def check_result(game: Game, index: int) -> None:
    """One finished hand against the scoring rules: the breakdown adds up to the score."""
    result = game.results[index]
    details = result.details
    for seat in range(game.num_players):
        total = details["melded"][seat] + details["in_hand"][seat] + details["playable"][seat]
        assert result.scores[seat] == total * (1 + details["aces"][seat]), result
        assert details["in_hand"][seat] <= 0 and details["playable"][seat] <= 0
    assert sum(details["aces"]) <= sum(1 for c in game.deck if c.rank == 1)
    assert result.kind in ("out", "last-ace", "exhausted"), result


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_bots_play_500_hands(berg: rummykit.Variant, players: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(RANDOM_HANDS):
        game = berg.new_game(players=players, seed=seed, max_hands=1)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while not game.is_over:
            assert game.legal_actions(), f"seed {seed}: a deal not over has no legal action"
            action = bots[game.deal.actor].choose(game)
            kinds[action.kind] += 1
            game.apply(action)
            game.check_cards()
        check_result(game, 0)
        kinds[game.results[0].kind] += 1
        if seed % 50 == 0:
            assert Game.from_json(game.to_json()).to_json() == game.to_json()
    for kind in ("meld", "layoff", "discard", "out", "last-ace"):
        assert kinds[kind] > 0, dict(kinds)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_greedy_bots_play_whole_games_to_5000(berg: rummykit.Variant, players: int) -> None:
    games = 500 if FULL else GREEDY_GAMES[players]
    start = time.perf_counter()
    hands = 0
    for seed in range(games):
        game = berg.new_game(players=players, seed=seed)
        bots = [GreedyBot(seed * 10 + s) for s in range(players)]
        while not game.is_over:
            assert game.legal_actions(), f"seed {seed}: a deal not over has no legal action"
            game.apply(bots[game.deal.actor].choose(game))
            game.check_cards()
            assert len(game.results) < 300
        for index in range(len(game.results)):
            check_result(game, index)
        hands += len(game.results)
        best = max(game.scores)
        assert game.end_reason == "target" and best >= 5000 and game.scores.count(best) == 1
        assert game.winner == game.scores.index(best)
    elapsed = time.perf_counter() - start
    print(f"{players} players: {games} greedy games, {hands} hands, {elapsed:.1f} s ({elapsed / games:.2f} s a game)")


def test_a_special_meld_held_costs_its_value(berg: rummykit.Variant) -> None:
    game = new(berg, ["KH JH 9H 7H 5H 3H 2C", "2S 3S 4S 5D 6D 7D 9D"], "8C QS")
    play(game, "draw stock", "discard 2C")
    assert iceberg.best_next_turn(game.deal, 0) == 700


def test_an_ace_never_laid_counts_as_an_ace_by_default(berg: rummykit.Variant) -> None:
    hands = ["2C 3C 4C 5D 6D 7D 9H", "AS 3S 5S 7H 9D JD KD"]
    actions = ["draw stock", "meld 2C 3C 4C", "meld 5D 6D 7D", "meld 9C 9H"]
    game = new(berg, hands, "9C")
    play(game, *actions)
    result = game.results[0]
    assert result.kind == "out" and result.details["aces"] == [0, 1]
    # Seat 1 never had a turn: the AS is still in its hand. The 9D would be the third nine (20).
    assert result.scores == (30 + 30 + 10, (0 - 60 - 20) * 2)
    as_card = rummykit.load_variant("iceberg", options={"rules": {"aces_left_in_hand": "card"}})
    game = new(as_card, hands, "9C")
    play(game, *actions)
    assert game.results[0].scores == (70, 0 - 70 - 20)


def test_the_last_ace_drawn_as_the_last_stock_card_ends_the_hand_as_last_ace(berg: rummykit.Variant) -> None:
    game = new(berg, ["2C 3C 4C 5D 6D 7D 9H", "2S 3S 4S 5H 6H 7H 9D"], "KH")
    deal = game.deal
    # Keep only the four aces in the stock, the last one at the bottom (the rest set aside, still counted).
    aces = [c for c in deal.stock if c.rank == 1]
    deal.set_aside.extend(c for c in deal.stock if c.rank != 1)
    deal.stock[:] = aces
    deal._legal = None
    for _ in range(4):
        assert not game.is_over
        play(game, "draw stock")
        play(game, f"discard {game.deal.hands[game.deal.current][0]}")
    assert game.results[0].kind == "last-ace"


@pytest.mark.parametrize("players", [2, 4])  # one deck, and two (twin cards: either copy may be played)
def test_the_playable_penalty_built_by_shape_equals_trying_every_set_of_one_suit_or_rank(
    berg: rummykit.Variant, players: int
) -> None:
    # best_next_turn tries only the sets of cards that can be a meld or a lay-off by their shape; trying every
    # set of one suit or one rank on every table meld must give the same most, position after position.
    search = berg.meld_search
    checked = 0
    for seed in range(12):
        game = berg.new_game(players=players, seed=seed, max_hands=1)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        while not game.is_over:
            deal = game.deal
            targets = [tm.meld for tm in deal.table if tm.meld.kind in ("set", "run")]
            for seat in deal.seats:
                hand = [c for c in deal.hands[seat] if c.rank not in search.rules.excluded_ranks]
                every = iceberg.every_mask(hand)
                tried = iceberg.most_in_one_turn(
                    berg, hand, targets, every, [(m, i) for m in every for i in range(len(targets))]
                )
                assert iceberg.best_next_turn(deal, seat) == tried, (seed, [str(c) for c in hand], targets)
                checked += tried > 0
            game.apply(bots[deal.actor].choose(game))
    assert checked > 100


def test_lay_offs_on_a_run_are_built_from_both_its_ends() -> None:
    # A run 5H 6H 7H takes 4H and 8H at once (one lay-off from both ends); 3H alone does not touch it.
    hand = parse("3H 4H 8H 9H")
    berg = rummykit.load_variant("iceberg")
    run = berg.meld_search.meld(parse("5H 6H 7H"))
    assert run is not None
    melds, layoffs = iceberg.candidate_uses(hand, [run])
    laid = {tuple(str(hand[i]) for i in range(len(hand)) if mask >> i & 1) for mask, _ in layoffs}
    assert ("4H", "8H") in laid and ("3H", "4H", "8H", "9H") in laid and ("3H",) not in laid
    assert all(index == 0 for _, index in layoffs)
    # 3H 4H and 8H 9H are tried as melds (the search says a run of two is none); 4H 8H is not even tried.
    assert {0b0011, 0b1100} <= melds and 0b0110 not in melds
    assert iceberg.most_in_one_turn(berg, hand, [run], melds, layoffs) == 40 + 50 + 60 + 70
