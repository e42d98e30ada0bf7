"""A hand's turn limit (``max_turns``): the guard against hands that cannot end, as the hand limit (``max_hands``)
guards against games that cannot. A stock turned over from the pile as often as it runs out (Fortune with
``draw.rebuilds: null``) while nobody can go out would otherwise be played for ever, and a simulation of such a
house rule would never finish."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import rummykit
from rummykit.cli import main, rules_lines
from rummykit.engine import DEFAULT_MAX_TURNS, TURN_LIMIT, Deal
from rummykit.results import describe_result

ENDLESS = {"draw": {"rebuilds": None}}
"""Fortune's stock made again from the pile every time it runs out: under random play, seed 3's first hand comes
to two players holding a card or two that never meld, drawing and discarding for ever."""


def play_first_hand(game: rummykit.Game, seed: int) -> rummykit.HandResult:
    rng = random.Random(seed)
    while not game.results:
        game.apply(rng.choice(game.legal_actions()))
    return game.results[0]


def abandoned_hands(game: rummykit.Game, seed: int) -> Iterator[Deal]:
    """Play ``game`` to its end at random, giving each deal abandoned at the turn limit once the next is dealt."""
    rng = random.Random(seed)
    while not game.is_over:
        deal = game.deal
        game.apply(rng.choice(game.legal_actions()))
        if game.deal is not deal and game.results[-1].kind == TURN_LIMIT:
            yield deal


def test_a_hand_that_cannot_end_is_abandoned_at_the_default_limit_unscored_and_the_next_is_dealt() -> None:
    variant = rummykit.load_variant("fortune", options=ENDLESS)
    game = variant.new_game(seed=3)
    assert game.max_turns == DEFAULT_MAX_TURNS == 1000
    first_dealer = game.deal.dealer
    result = play_first_hand(game, 3)
    assert result.kind == TURN_LIMIT == "turn-limit"
    assert result.scores == (0, 0) and result.winner is None and result.details == {"turns": 1000}
    assert game.scores == [0, 0] and not game.is_over
    # The next hand is dealt, by the next dealer, with every card.
    assert game.deal.number == 2 and game.deal.dealer == (first_dealer + 1) % 2 and game.deal.turn == 0
    assert sorted(game.deal.all_cards()) == sorted(game.deck)
    # The same hand with the built-in rules (three rebuilds) ends by them.
    rules = rummykit.load_variant("fortune").new_game(seed=3)
    assert play_first_hand(rules, 3).kind == "exhausted"


def test_the_ruleset_sets_the_limit_and_a_hand_ending_by_its_rules_first_is_untouched() -> None:
    variant = rummykit.load_variant("fortune", options={"max_turns": 7})
    game = variant.new_game(seed=11)
    for _ in range(50):
        game.apply(game.legal_actions()[0])  # the first action: draw, meld the first meld, discard the first card
        if game.results:
            break
    result = game.results[0]
    assert result.kind == "turn-limit" and result.details == {"turns": 7} and result.scores == (0, 0)
    words = describe_result(game, None, result)
    assert words.ending == "the hand reached its turn limit (max_turns) and is abandoned"
    assert words.scored == "Nobody scores"
    # A limit no hand reaches changes nothing: the same moves, the same results.
    plain, limited = (rummykit.load_variant("500-rum", options=o).new_game(seed=5) for o in (None, {"max_turns": 999}))
    for one in (plain, limited):
        rng = random.Random(5)
        while not one.is_over:
            one.apply(rng.choice(one.legal_actions()))
    assert plain.history == limited.history and plain.results == limited.results


def test_random_play_of_the_endless_rules_always_ends_and_keeps_every_card() -> None:
    variant = rummykit.load_variant("fortune", options={**ENDLESS, "max_turns": 300, "target": 200})
    kinds: set[str] = set()
    for seed in range(12):
        game = variant.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            assert len(game.deal.all_cards()) == len(game.deck)
            assert game.deal.turn < 300
        kinds.update(r.kind for r in game.results)
        assert game.scores == [sum(r.scores[s] for r in game.results) for s in range(2)]
    assert "turn-limit" in kinds and "out" in kinds


def test_an_abandoned_hand_is_recorded_replayed_copied_and_pickled() -> None:
    variant = rummykit.load_variant("fortune", options={"max_turns": 5})
    game = variant.new_game(seed=2)
    play_first_hand(game, 2)
    again = rummykit.Game.from_json(game.to_json())
    assert again.results == game.results and again.history == game.history
    for other in (game.clone(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other.max_turns == 5
        rng = random.Random(9)
        while len(other.results) < 2:
            other.apply(rng.choice(other.legal_actions()))
        assert other.results[1].kind == "turn-limit"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, "max_turns: expected a number at least 1, got 0"),
        (100_001, "max_turns: expected a number at most 100000, got 100001"),
        ("many", "max_turns: expected a whole number or nothing (null), got 'many'"),
    ],
)
def test_a_limit_out_of_range_is_refused_at_its_line(tmp_path: Path, value: object, expected: str) -> None:
    path = tmp_path / "endless.yaml"
    path.write_text(f"name: endless\nextends: fortune\nmax_turns: {value!r}\n".replace("'", ""), encoding="utf-8")
    with pytest.raises(rummykit.RulesetError) as raised:
        rummykit.load_variant(str(path))
    assert f"endless.yaml:3:12: {expected}" in str(raised.value)


def test_rules_and_simulate_say_the_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    facts = rules_lines(rummykit.load_variant("fortune"))[-2]  # what ``rules`` shows at the table
    assert facts.strip() == "target 500, a game stops after 1000 hands at most, a hand after 1000 turns"
    path = tmp_path / "endless.yaml"
    path.write_text("name: endless\nextends: fortune\ndraw: {rebuilds: null}\nmax_turns: 40\n", encoding="utf-8")
    assert main(["simulate", str(path), "--games", "6", "--bots", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "turn-limit" in out.split("Hands played:")[1].splitlines()[0], out


def test_a_partnership_gin_table_abandoned_at_the_limit_is_dealt_again_at_that_table() -> None:
    # Partnership Gin's rounds read its tables' results (details "table", "table_points"), which a hand
    # abandoned by the kernel does not have: such a table is dealt again, as a dead hand is.
    variant = rummykit.load_variant("gin-partnership", options={"max_turns": 12, "target": 60})
    abandoned = 0
    for seed in range(4):
        game = variant.new_game(seed=seed)
        for deal in abandoned_hands(game, seed):
            abandoned += 1
            assert game.deal.dealer == deal.dealer and game.deal.seats == deal.seats
        assert game.scores == [sum(r.scores[s] for r in game.results) for s in range(4)]
    assert abandoned


@pytest.mark.parametrize(("name", "limit"), [("skarney", 67), ("skarney-singles", 89)])
def test_a_skarney_hand_abandoned_at_the_limit_is_played_again_as_the_same_hand(name: str, limit: int) -> None:
    # Skarney is seven counted hands, each with its contract: an abandoned hand is replayed, as a tied one is.
    # (Its random hands last 57 to 98 turns: the limit cuts about half of them.)
    variant = rummykit.load_variant(name, options={"max_turns": limit})
    abandoned = 0
    for seed in range(3):
        game = variant.new_game(seed=seed)
        for _ in abandoned_hands(game, seed):
            abandoned += 1
            assert game.results[-1].scores == (0,) * game.num_players
        counted = [r for r in game.results if r.kind != TURN_LIMIT and r.details.get("counted", True)]
        assert game.end_reason == "hands" and len(counted) == 7, [r.kind for r in game.results]
        assert [r.details["hand"] for r in counted] == [1, 2, 3, 4, 5, 6, 7]
        assert game.scores[: game.num_players] == [
            sum(r.scores[s] for r in game.results) + sum(p for seat, _, p in game.bonuses if seat == s)
            for s in range(game.num_players)
        ]
    assert abandoned


def test_a_record_played_with_a_higher_limit_says_so_where_it_does_not_replay() -> None:
    # A record of a hand longer than the limit in force (saved before hands had a limit, or under a higher one).
    longer = rummykit.load_variant("fortune", options={"max_turns": 12}).new_game(seed=3)
    rng = random.Random(3)
    while longer.deal.turn < 11:
        longer.apply(rng.choice(longer.legal_actions()))
    record = json.loads(longer.to_json())
    record["options"] = {"max_turns": 5}
    with pytest.raises(
        ValueError, match=r"deal 1 has more actions than it can take \(here it reached its turn limit, max_turns 5;"
    ):
        rummykit.Game.from_json(json.dumps(record))
