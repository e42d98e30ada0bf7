"""500 Rum, 500 Partnership Rummy and Persian Rummy: hand-built deals and soak runs."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import rummykit
from rummykit import Game, IllegalAction
from rummykit.actions import position_words
from rummykit.bots import GreedyBot, RandomBot
from rummykit.cards import Card, parse_card
from rummykit.standard import MELD_ACTION_LIMIT


@pytest.fixture(scope="module")
def rum() -> rummykit.Variant:
    return rummykit.load_variant("500-rum")


@pytest.fixture(scope="module")
def partnership() -> rummykit.Variant:
    return rummykit.load_variant("500-partnership")


@pytest.fixture(scope="module")
def persian() -> rummykit.Variant:
    return rummykit.load_variant("persian")


def deal(hands: list[str], discard: str = "", stock: str = "", dealer: int = 0) -> dict[str, Any]:
    return {"dealer": dealer, "hands": [h.split() for h in hands], "discard": discard.split(), "stock": stock.split()}


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()


def empty_stock(game: Game) -> None:
    """Set the stock aside (still accounted for by check_cards) to reach the end of the stock at once."""
    game.deal.set_aside.extend(game.deal.stock)
    game.deal.stock.clear()
    game.deal._legal = None


def texts(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


# -- the variants ----------------------------------------------------------------------------------


def test_variants_load_with_the_documented_shape(
    rum: rummykit.Variant, partnership: rummykit.Variant, persian: rummykit.Variant
) -> None:
    assert (rum.min_players, rum.max_players) == (2, 6)
    assert [rum.deck_count(n) for n in range(2, 7)] == [1, 1, 1, 2, 2]
    assert [rum.hand_size(n) for n in range(2, 7)] == [13, 7, 7, 7, 7]
    assert (partnership.min_players, partnership.max_players, partnership.partnerships) == (4, 4, True)
    assert (persian.deck_count(4), persian.joker_count(4)) == (1, 4)
    assert len(persian.new_game(players=4, seed=1).deck) == 56
    for n in range(2, 7):
        g = rum.new_game(players=n, seed=n)
        assert all(len(g.deal.hands[s]) == rum.hand_size(n) for s in range(n))
        assert len(g.deal.discard) == 1
        g.check_cards()
    values = {c: rum.value(parse_card(c)) for c in ("AS", "KS", "TD", "9H", "2C")}
    assert values == {"AS": 15, "KS": 10, "TD": 10, "9H": 5, "2C": 5}
    traditional = rummykit.load_variant("500-rum", house_rules=["traditional"])
    assert [traditional.value(parse_card(c)) for c in ("AS", "KS", "9H", "2C")] == [15, 10, 9, 2]
    assert persian.value(Card(0, 4)) == 20


def test_observation_shows_the_whole_fanned_pile(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=3, layout=deal(["2C 3C", "4D 5D", "6H 7H"], discard="KS QH 9C"))
    for seat in range(3):
        assert g.observation(seat)["discard"] == ["KS", "QH", "9C"]


# -- taking from the pile --------------------------------------------------------------------------


def test_a_pickup_whose_deepest_card_cannot_be_used_is_refused(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["2C 5D 9H", "3S 6S 8D"], discard="KD 7C 7S", dealer=0))
    assert g.current_player == 1
    before = (g.to_json(), [g.observation(s) for s in range(2)])
    with pytest.raises(IllegalAction, match="melded or laid off at once") as info:
        g.apply("draw discard KD")
    assert "nor any meld on the table. Legal now" in str(info.value)  # the whole reason, not cut short
    # Only the top card (7S) is no use either: taking only the top card must be used too.
    with pytest.raises(IllegalAction):
        g.apply("draw discard 7S")
    assert (g.to_json(), [g.observation(s) for s in range(2)]) == before
    assert texts(g) == ["draw stock"]


def test_the_deepest_card_taken_must_be_used_first(rum: rummykit.Variant) -> None:
    # Seat 1 may take 8H (with 2C and 4D above it): 8H melds with its 8S 8D.
    g = rum.new_game(players=2, layout=deal(["2S 5D 9H", "8S 8D 3C 3D 3H KC"], discard="8H 2C 4D"))
    assert "draw discard 8H" in texts(g) and "draw discard 2C" not in texts(g)
    play(g, "draw discard 8H")
    assert g.deal.phase == "use" and g.observation(1)["must_use"] == "8H"
    assert set(texts(g)) == {"meld 8D 8H 8S"}
    for refused in ("discard KC", "meld 3C 3D 3H"):
        before = g.to_json()
        with pytest.raises(IllegalAction, match="first use 8H"):
            g.apply(refused)
        assert g.to_json() == before
    play(g, "meld 8S 8H 8D", "meld 3C 3D 3H", "discard KC")
    assert sorted(map(str, g.deal.hands[1])) == ["2C", "4D"]


def test_deepest_card_laid_off_with_a_bridging_card(rum: rummykit.Variant) -> None:
    # Seat 1 has 5H 6H 7H on the table; 9H deep in the pile is usable only with its 8H: "layoff 8H 9H on 0".
    g = rum.new_game(players=2, layout=deal(["2S 5D 9C", "5H 6H 7H 8H KC QD"], discard="9H 2C", stock="3S 4S"))
    play(g, "draw stock", "meld 5H 6H 7H", "discard 3S", "draw stock", "discard 4S")
    assert "draw discard 9H" in texts(g)
    play(g, "draw discard 9H")
    assert texts(g) == ["layoff 8H 9H on 0"]
    play(g, "layoff 8H 9H on 0")
    assert g.deal.phase == "play"


def test_duplicate_cards_in_the_pile_have_distinct_texts(rum: rummykit.Variant) -> None:
    hands = [
        "7C 7D 2S 3S 9C 9D TC",
        "7S 7D KD 4C 5C JD QC",
        "2H 3H 5S 6S JH QH KH",
        "2D 3D 4D 5D 8S 9S TS",
        "AC AD JC QD KS KC 4H",
    ]
    g = rum.new_game(players=5, layout=deal(hands, discard="7H 4S 7H 2C"))
    assert len(g.deck) == 104
    listed = texts(g)
    assert "draw discard 7H" in listed and "draw discard 7H 4S 7H 2C" in listed
    record = g.to_json()
    play(g, "draw discard 7H 4S 7H 2C")
    assert len(g.deal.hands[1]) == 7 + 4 and g.deal.discard == []
    copies = sorted(c.copy for c in g.deal.hands[1] if str(c) == "7H")
    assert copies == [0, 1]
    # The set may hold both 7H (two decks: duplicates allowed).
    play(g, "meld 7H 7H 7S")
    assert [str(c) for c in g.deal.table[0].meld.cards] == ["7H", "7H", "7S"]
    replay = Game.from_json(g.to_json())
    assert replay.to_json() == g.to_json()
    other = Game.from_json(record)
    play(other, "draw discard 7H")
    assert len(other.deal.hands[1]) == 7 + 2


def test_a_named_meld_not_listed_is_accepted(rum: rummykit.Variant) -> None:
    hearts = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    g = rum.new_game(players=2, layout=deal(["2C 3C 4C", hearts], stock="5S"))
    play(g, "draw stock")
    listed = g.legal_actions()
    assert sum(1 for a in listed if a.kind == "meld") == MELD_ACTION_LIMIT
    assert "meld 2H 3H 4H" not in [str(a) for a in listed]
    play(g, "meld 2H 3H 4H")
    assert str(g.deal.table[0]) == "2H 3H 4H"
    with pytest.raises(IllegalAction):
        g.apply("meld 2H 3H 4H")  # no longer in hand
    with pytest.raises(IllegalAction):
        g.apply("meld 6H 7H 9H")
    # An unlisted multi-card lay-off is accepted too.
    play(g, "layoff 5H 6H on 0")
    assert str(g.deal.table[0]) == "2H 3H 4H 5H 6H"


# -- the end of the stock ----------------------------------------------------------------------------


def test_end_of_the_stock(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=3, layout=deal(["2C 5D 9H", "3S 6S 8D", "4H JC QC"], discard="KD"))
    with pytest.raises(IllegalAction, match="only when the stock is empty"):
        g.apply("end")
    empty_stock(g)
    assert texts(g) == ["end"]
    play(g, "end")
    result = g.results[0]
    assert result.kind == "exhausted" and result.winner is None
    assert result.scores == (-15, -15, -25)
    assert g.deal.number == 2  # the next hand is dealt


def test_with_an_empty_stock_a_usable_pickup_or_end(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["2C 5D 9H", "3S 4S 8D KC"], discard="5S QD"))
    empty_stock(g)
    assert texts(g) == ["draw discard 5S", "end"]
    play(g, "draw discard 5S", "meld 3S 4S 5S", "discard QD")
    assert texts(g) == ["draw discard QD", "end"] or texts(g) == ["end"]


# -- scoring -------------------------------------------------------------------------------------------


def test_layoff_on_an_opponents_meld_scores_for_whoever_laid_it(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["7C 2D 3D", "7S 7H 7D KC"], discard="QS", stock="9S 4D"))
    play(g, "draw stock", "meld 7S 7H 7D", "discard 9S", "draw stock", "layoff 7C on 0")
    table = g.observation(1)["table"]
    assert table == [{"cards": ["7C", "7D", "7H", "7S"], "owner": 1, "played_by": [0, 1, 1, 1]}]
    play(g, "meld 2D 3D 4D")  # seat 0 goes out by melding its last cards (no final discard)
    result = g.results[0]
    assert result.kind == "out" and result.winner == 0
    assert result.details["melded"] == [5 + 15, 15] and result.details["in_hand"] == [0, 10]
    assert result.scores == (20, 5)


def test_meld_values_score_the_melded_cards_and_card_values_the_cards_in_hand() -> None:
    sevens = rummykit.load_variant("500-rum", options={"meld_values": {"7": 100}})
    g = sevens.new_game(players=2, layout=deal(["7C 2D 3D", "7S 7H 7D KC"], discard="QS", stock="9S 4D"))
    play(g, "draw stock", "meld 7S 7H 7D", "discard 9S", "draw stock", "layoff 7C on 0", "meld 2D 3D 4D")
    result = g.results[0]
    assert result.details["melded"] == [100 + 15, 300] and result.details["in_hand"] == [0, 10]


def test_ace_high_and_low_in_runs(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["QH KH AH AS 2S 3S AC AD 9C 8C", "4D 5D 6D"], stock="TC 9D 2H"))
    play(g, "draw stock", "discard TC")
    play(g, "draw stock", "meld QH KH AH", "meld AS 2S 3S", "discard AD")
    play(g, "draw stock", "meld 4D 5D 6D", "discard 2H")  # going out with a final discard
    result = g.results[0]
    assert result.kind == "out" and result.winner == 1
    # Q-K-A: 10 + 10 + 15; A-2-3: 5 + 5 + 5; left in hand AC 9C 8C 9D: 15 + 5 + 5 + 5.
    assert result.details["melded"] == [35 + 15, 15]
    assert result.details["in_hand"] == [30, 0]
    assert result.scores == (20, 15)


def test_ace_in_a_set_and_laid_off_low(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["AC AH AS JS QS KS AD 5H", "2D 3D 4D 9C"], stock="TC 9H 8S"))
    play(g, "draw stock", "meld 2D 3D 4D", "discard TC")
    play(g, "draw stock", "meld AC AH AS", "meld JS QS KS", "layoff AD on 0", "discard 9H")
    play(g, "draw stock", "discard 8S")
    empty_stock(g)
    assert texts(g) == ["end"]
    play(g, "end")
    result = g.results[0]
    assert result.kind == "exhausted" and result.winner is None
    assert result.details["melded"] == [45 + 30 + 5, 15]
    assert result.scores == (80 - 5, 15 - 5)


def test_traditional_scoring(rum: rummykit.Variant) -> None:
    traditional = rummykit.load_variant("500-rum", house_rules=["traditional"])
    g = traditional.new_game(players=2, layout=deal(["2D 3D 9C", "7S 7H 7D 8C"], stock="KS 4D"))
    play(g, "draw stock", "meld 7S 7H 7D", "discard KS", "draw stock", "meld 2D 3D 4D", "discard 9C")
    assert g.results[0].scores == (2 + 3 + 4, 21 - 8)


def test_partnership_sides_score_the_sum_of_partners(partnership: rummykit.Variant) -> None:
    hands = ["KH KD KS", "5C 6C 7C 9D", "8C 2H", "3D JD"]
    g = partnership.new_game(players=4, layout=deal(hands, stock="TS QH AH TD"))
    play(g, "draw stock", "meld 5C 6C 7C", "discard 9D")  # seat 1: 15 - TS 10
    play(g, "draw stock", "layoff 8C on 0", "discard QH")  # seat 2: 5 (on seat 1's run) - 2H 5
    play(g, "draw stock", "discard AH")  # seat 3: - 3D JD 15
    play(g, "draw stock", "meld KH KD KS", "discard TD")  # seat 0 goes out: the hand stops
    result = g.results[0]
    assert result.winner == 0 and result.scores == (30, 5, 0, -15)
    assert result.details["sides"] == [30, -10]
    assert g.side_scores() == [30, -10]
    assert [g.score_of(s) for s in range(4)] == [30, -10, 30, -10]


@pytest.mark.parametrize(
    "plays, melded",
    [
        (["meld JK JK JK JK"], 160),  # four jokers at once: (4 x 20) x 2
        (["meld JK JK JK", "layoff JK on 0"], 80),  # three, then the fourth: 60 + 20
        (["meld 2C 2D 2H 2S"], 40),  # four 2s at once: (4 x 5) x 2
        (["meld 2C 2D 2H", "layoff 2S on 0"], 20),  # three 2s 15, the fourth later 5
        (["meld 2C 2D 2H"], 15),
        (["meld 5H 6H 7H 8H"], 40),  # any meld of exactly four cards
        (["meld 5H 6H 7H 8H 9H"], 25),  # five at once: not doubled
    ],
)
def test_persian_melds_of_four_at_once_count_double(persian: rummykit.Variant, plays: list[str], melded: int) -> None:
    hands = ["QC", "JK JK JK JK 2C 2D 2H 2S 5H 6H 7H 8H 9H KC", "3C", "4C"]
    g = persian.new_game(players=4, layout=deal(hands, stock="TC"))
    play(g, "draw stock", *plays, "discard TC")
    empty_stock(g)
    play(g, "end")
    result = g.results[0]
    assert result.details["melded"][1] == melded
    assert result.scores[1] == melded - result.details["in_hand"][1]


def test_persian_jokers_are_not_wild_and_cost_20_in_hand(persian: rummykit.Variant) -> None:
    hands = ["QC", "JK JK 5H 6H 7S", "3C", "4C"]
    g = persian.new_game(players=4, layout=deal(hands, stock="TC"))
    play(g, "draw stock")
    assert not any(a.kind == "meld" for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply("meld JK 5H 6H")
    play(g, "discard TC")
    empty_stock(g)
    play(g, "end")
    assert g.results[0].scores[1] == -(20 + 20 + 5 + 5 + 5)


def test_game_to_500_highest_wins_and_a_tie_plays_on(rum: rummykit.Variant) -> None:
    from rummykit.engine import HandResult

    game_over = rum.hook.rummykit_game_over  # whatever implementation 500 Rum uses
    g = rum.new_game(players=3, seed=5)
    g.results = [HandResult(1, "out", (480, 510, 530), 2, 0)]
    assert game_over(game=g)
    g.results = [HandResult(1, "out", (530, 510, 530), 0, 0)]
    assert not game_over(game=g)
    g.results = [HandResult(1, "out", (499, 0, 499), 0, 0)]
    assert not game_over(game=g)
    # Through the engine: a small target ends the game after the first hand, won by the highest.
    small = rummykit.load_variant("500-rum", options={"target": 10})
    g = small.new_game(players=2, layout=deal(["7C 2D 3D", "7S 7H 7D KC"], stock="9S 4D"))
    play(g, "draw stock", "meld 7S 7H 7D", "discard 9S", "draw stock", "layoff 7C on 0", "meld 2D 3D 4D")
    assert g.is_over and g.winner == 0 and g.scores == [20, 5]


# -- soak runs --------------------------------------------------------------------------------------------

# The counts (500 random hands, 500 greedy games per configuration) with RUMMYKIT_SOAK=full; by default a
# share of them, so that the whole suite, every game's soak included, stays within its time.
FULL = os.environ.get("RUMMYKIT_SOAK") == "full"
RANDOM_HANDS = 500 if FULL else int(os.environ.get("RUMMYKIT_SOAK_HANDS", "150"))
GREEDY_GAMES = 500 if FULL else int(os.environ.get("RUMMYKIT_SOAK_GAMES", "25"))
CONFIGS = [("500-rum", n) for n in range(2, 7)] + [("500-partnership", 4), ("persian", 4)]


def check_scores(g: Game) -> None:
    for seat in range(g.num_players):
        bonuses = sum(points for s, _name, points in g.bonuses if s == seat)
        assert g.scores[seat] == sum(r.scores[seat] for r in g.results) + bonuses
    if g.variant.partnerships:
        assert g.side_scores() == [g.scores[0] + g.scores[2], g.scores[1] + g.scores[3]]
        for r in g.results:
            assert r.details["sides"] == [r.scores[0] + r.scores[2], r.scores[1] + r.scores[3]]
    for r in g.results:
        assert list(r.scores) == [m - h for m, h in zip(r.details["melded"], r.details["in_hand"])]


def turn_bound(g: Game) -> int:
    """Every turn draws from the stock, puts a card from the pile on the table, or ends the hand; each
    turn has at most one action per card in hand plus the draw and the discard."""
    return (len(g.deck) + 1) * (len(g.deck) + 2)


@pytest.mark.slow
@pytest.mark.parametrize("name, players", CONFIGS)
def test_random_bots_play_hands_to_the_end(name: str, players: int) -> None:
    variant = rummykit.load_variant(name)
    for seed in range(RANDOM_HANDS):
        g = variant.new_game(players=players, seed=seed)
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        steps = 0
        while not g.results:
            assert g.legal_actions(), f"{name} seed {seed}: a deal not over has no legal action"
            action = bots[g.deal.actor].choose(g)
            g.apply(action)
            g.check_cards()
            steps += 1
            assert steps < turn_bound(g)
        check_scores(g)
        if seed % 50 == 0:
            assert Game.from_json(g.to_json()).to_json() == g.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("name, players", CONFIGS)
def test_greedy_bots_play_whole_games(name: str, players: int) -> None:
    variant = rummykit.load_variant(name)
    for seed in range(GREEDY_GAMES):
        g = variant.new_game(players=players, seed=seed)
        bots = [GreedyBot(seed * 10 + s) for s in range(players)]
        while not g.is_over:
            assert g.legal_actions(), f"{name} seed {seed}: a deal not over has no legal action"
            g.apply(bots[g.deal.actor].choose(g))
            g.check_cards()
            assert len(g.results) < 200
        check_scores(g)
        best = max(g.side_scores())
        assert best >= 500 and g.side_scores().count(best) == 1
        assert g.score_of(g.winner if g.winner is not None else -1) == best


def test_legal_actions_stay_bounded_on_a_large_hand(rum: rummykit.Variant) -> None:
    import time

    g = rum.new_game(players=6, seed=3)
    deal_ = g.deal
    # Move most of the stock to the pile (a deep fanned pile) and give seat 1 a big hand.
    while len(deal_.stock) > 5:
        deal_.discard.append(deal_.stock.pop())
    for _ in range(6):
        deal_.hands[1].append(deal_.discard.pop(0))
    deal_._legal = None
    start = time.perf_counter()
    actions = g.legal_actions()
    assert len(actions) <= len(deal_.discard) + 2
    play(g, "draw stock")
    actions = g.legal_actions()
    assert sum(1 for a in actions if a.kind == "meld") <= MELD_ACTION_LIMIT
    assert time.perf_counter() - start < 2.0


def test_a_bare_verb_is_asked_for_its_cards(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["2S 5D 9H", "3C 3D 3H KC 7S"], discard="8H", stock="QD JD"))
    before = g.to_json()
    with pytest.raises(IllegalAction, match="no card of the pile can be melded or laid off at once"):
        g.apply("draw discard")  # 8H fits nothing, and a card taken must be used at once
    assert position_words(g.deal, g.deal.actor).hint == "draw a card (draw stock; the pile cannot be taken now)"
    play(g, "draw stock")
    before = g.to_json()
    for typed, answer in (
        ("meld", "name its cards, as in 'meld 3C 3D 3H'"),
        ("discard", "name the card, as in 'discard "),
        ("layoff", "there is no meld on the table you may lay off on yet"),
    ):
        with pytest.raises(IllegalAction) as info:
            g.apply(typed)
        assert answer in str(info.value)
        assert g.to_json() == before
    play(g, "meld 3C 3D 3H")
    with pytest.raises(IllegalAction, match="no card of your hand fits a table meld you may add to"):
        g.apply("layoff")  # KC 7S QD fit no meld on the table
    with pytest.raises(IllegalAction, match="your hand makes no meld the rules allow now"):
        g.apply("meld")


def test_a_bare_pile_draw_asks_for_the_deepest_card(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["4S 5D 9H", "8S 8D 2S 2D"], discard="8H 2C", stock="QD JD"))
    assert {"draw discard 8H", "draw discard 2C"} <= set(texts(g))
    assert "draw discard CARD: that card and every card above it" in position_words(g.deal, 1).hint
    with pytest.raises(IllegalAction, match="name the deepest card you take, as in 'draw discard 8H'"):
        g.apply("draw discard")


def test_a_bare_pile_draw_takes_the_only_card_that_may_be_taken(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["2S 5D 9H", "8S 8D 3C"], discard="8H 2C", stock="QD JD"))
    assert [t for t in texts(g) if t.startswith("draw discard")] == ["draw discard 8H"]
    assert position_words(g.deal, 1).hint == "draw a card (draw stock, draw discard)"
    g.apply("draw discard")
    assert json.loads(g.to_json())["actions"][0] == ["draw discard 8H"]  # recorded as the card it took


def test_a_layoff_that_does_not_fit_says_so(rum: rummykit.Variant) -> None:
    g = rum.new_game(players=2, layout=deal(["2S 5D 9H", "3C 3D 3H KC 7S"], discard="8H", stock="QD JD"))
    play(g, "draw stock", "meld 3C 3D 3H")
    with pytest.raises(IllegalAction, match=r"KC does not fit table meld 0 \(3C 3D 3H\)"):
        g.apply("layoff KC on 0")


def test_a_settlement_with_nothing_left_in_hand_says_0(capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.cli import main

    assert main(["play", "500-partnership", "--bots", "greedy", "--seed", "1", "--max-hands", "1"]) == 0
    out = capsys.readouterr().out
    assert "in hand 0)" in out and "in hand -0" not in out


def test_a_layoff_on_a_meld_not_yours_says_so() -> None:
    own = rummykit.load_variant("500-rum", options={"table": {"layoff": "own"}})
    g = own.new_game(players=2, layout=deal(["3S 5D 9H", "3C 3D 3H KC 7S"], discard="8H", stock="QD JD 2C"))
    play(g, "draw stock", "meld 3C 3D 3H", "discard KC", "draw stock")
    with pytest.raises(
        IllegalAction, match=r"table meld 0 \(3C 3D 3H\) is not yours: in this game you add only to your own"
    ):
        g.apply("layoff 3S on 0")
