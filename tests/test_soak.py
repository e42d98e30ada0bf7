"""Soak tests: many seeded Gin games between bots, every result checked against the rules arithmetic.

* random bots play 2,000 hands (random players rarely knock, so games run long; hands are what count);
* greedy bots play 2,000 whole games;
* random bots play a few hundred hands with manual settlement (melds and lay-offs as actions).

Card conservation (``check_cards``) is checked after every action, as the issue asks. The work is split
over two worker processes where ``fork`` is available.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import rummykit
from rummykit import Game
from rummykit.bots import make_bot

pytestmark = pytest.mark.slow

TARGET = 100
GIN_BONUS = 20
UNDERCUT_BONUS = 10
BOX = 20
GAME_BONUS = 100
SHUTOUT_GAME_BONUS = 200
KNOCK_LIMIT = 10


def check_hand(game: Game, index: int) -> None:
    """One finished hand against the scoring rules (default Gin)."""
    result = game.results[index]
    scores = result.scores
    assert len(scores) == 2 and all(s >= 0 for s in scores), result
    assert [s for seat, s in enumerate(scores) if seat != result.winner] == [0] * (2 - (result.winner is not None))
    if result.kind == "dead":
        assert scores == (0, 0) and result.winner is None and result.boxes == (0, 0), result
        return
    assert result.kind in ("knock", "undercut", "gin"), result
    details = result.details
    knocker = details["knocker"]
    opponent = 1 - knocker
    knocker_dw, opponent_dw = details["deadwood"][knocker], details["deadwood"][opponent]
    assert 0 <= knocker_dw <= KNOCK_LIMIT, result
    assert result.boxes == tuple(1 if s == result.winner else 0 for s in (0, 1)), result
    if result.kind == "gin":
        assert knocker_dw == 0 and details["layoffs"] == [], result
        assert result.winner == knocker and scores[knocker] == GIN_BONUS + opponent_dw, result
    elif result.kind == "knock":
        assert 0 < knocker_dw < opponent_dw, result
        assert result.winner == knocker and scores[knocker] == opponent_dw - knocker_dw, result
    else:
        assert 0 < knocker_dw and opponent_dw <= knocker_dw, result
        assert result.winner == opponent and scores[opponent] == knocker_dw - opponent_dw + UNDERCUT_BONUS, result
    # The deadwood reported is what is left unmatched.
    values = {**{r: i + 1 for i, r in enumerate("A23456789")}, "T": 10, "J": 10, "Q": 10, "K": 10}
    for seat in (knocker, opponent):
        assert sum(values[c[0]] for c in details["unmatched"][str(seat)]) == details["deadwood"][seat], result


def check_finished_game(game: Game) -> None:
    """A whole game: hands, dealers, the race to the target and the end-of-game bonuses."""
    assert game.is_over and game.results
    for index in range(len(game.results)):
        check_hand(game, index)
    for previous, following in zip(game.results, game.results[1:]):
        expected = previous.dealer if previous.winner is None else 1 - previous.winner
        assert following.dealer == expected, (previous, following)
    totals = [sum(r.scores[s] for r in game.results) for s in (0, 1)]
    before_last = [totals[s] - game.results[-1].scores[s] for s in (0, 1)]
    assert max(before_last) < TARGET <= max(totals), totals
    winner = 0 if totals[0] >= TARGET else 1
    assert totals[1 - winner] < TARGET
    # The winner reached the target with hand points.
    assert game.winner == winner, (game.winner, totals, game.scores, game.bonuses)
    won = [sum(1 for r in game.results if r.winner == s) for s in (0, 1)]
    bonuses = [BOX * won[0], BOX * won[1]]
    bonuses[winner] += SHUTOUT_GAME_BONUS if won[1 - winner] == 0 else GAME_BONUS
    assert [totals[s] + bonuses[s] for s in (0, 1)] == game.scores, (totals, bonuses, game.scores)
    # ... and the bonuses the game lists add up to the same.
    listed = [sum(points for seat, _name, points in game.bonuses if seat == s) for s in (0, 1)]
    assert listed == bonuses, game.bonuses


class Checker:
    """Checks that every card is accounted for after every action, and counts both."""

    def __init__(self, seed: int):
        self.checked = 0
        self.actions = 0

    def step(self, game: Game, games_played: int, hand_ended: bool) -> None:
        self.actions += 1
        game.check_cards()
        self.checked += 1


def play_random_hands(first_seed: int, hands_wanted: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Random bots play seeded games until ``hands_wanted`` hands have finished."""
    variant = rummykit.load_variant("gin", options=options)
    checker = Checker(first_seed)
    kinds: Counter[str] = Counter()
    hands = games = finished_games = 0
    seed = first_seed
    while hands < hands_wanted:
        game = variant.new_game(seed=seed)
        bots = [make_bot("random", seed * 2), make_bot("random", seed * 2 + 1)]
        seed += 1
        while not game.is_over and hands < hands_wanted:
            legal = game.legal_actions()
            assert legal, f"seed {seed - 1}: no legal action in phase {game.deal.phase}"
            seat = game.current_player
            assert seat is not None
            before = len(game.results)
            game.apply(bots[seat].choose(game))
            ended = len(game.results) > before
            checker.step(game, games, ended)
            if ended:
                check_hand(game, before)
                kinds[game.results[-1].kind] += 1
                hands += 1
        games += 1
        if game.is_over:
            check_finished_game(game)
            finished_games += 1
    return {
        "hands": hands,
        "games": games,
        "finished": finished_games,
        "kinds": kinds,
        "actions": checker.actions,
        "checked": checker.checked,
    }


def play_greedy_games(first_seed: int, count: int) -> dict[str, Any]:
    """Greedy bots play ``count`` whole seeded games."""
    variant = rummykit.load_variant("gin")
    checker = Checker(first_seed)
    kinds: Counter[str] = Counter()
    shutouts = 0
    for number, seed in enumerate(range(first_seed, first_seed + count)):
        game = variant.new_game(seed=seed)
        bots = [make_bot("greedy", seed * 2), make_bot("greedy", seed * 2 + 1)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None, f"seed {seed}: nobody to play"
            before = len(game.results)
            game.apply(bots[seat].choose(game))
            checker.step(game, number, len(game.results) > before)
        check_finished_game(game)
        kinds.update(r.kind for r in game.results)
        shutouts += any(name.startswith("game (shutout)") for _s, name, _p in game.bonuses)
    return {
        "games": count,
        "kinds": kinds,
        "shutouts": shutouts,
        "actions": checker.actions,
        "checked": checker.checked,
    }


def run_split(function: Callable[..., dict[str, Any]], jobs: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Run jobs in two worker processes (``fork``), or one after another where that is not possible."""
    workers = min(2, os.cpu_count() or 1)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [function(*job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(function, *job) for job in jobs]
        return [future.result() for future in futures]


def merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {}
    for result in results:
        for key, value in result.items():
            total[key] = total[key] + value if key in total else value
    return total


def test_random_bots_play_2000_hands() -> None:
    results = run_split(play_random_hands, [(1, 1000, None), (500_001, 1000, None)])
    total = merged(results)
    assert total["hands"] == 2000
    assert total["kinds"]["dead"] > 0 and total["kinds"]["knock"] + total["kinds"]["undercut"] > 0
    assert total["checked"] == total["actions"] > 0


def test_greedy_bots_play_2000_games() -> None:
    results = run_split(play_greedy_games, [(10_000, 1000), (20_000, 1000)])
    total = merged(results)
    assert total["games"] == 2000
    kinds = total["kinds"]
    # Strong enough players produce every way a hand can end.
    assert kinds["knock"] > kinds["undercut"] > 0 and kinds["gin"] > 0
    assert total["shutouts"] > 0
    assert total["checked"] == total["actions"] > 0


def test_random_bots_with_manual_settlement_never_get_stuck() -> None:
    results = run_split(
        play_random_hands,
        [(7, 150, {"rules": {"settlement": "manual"}}), (900_007, 150, {"rules": {"settlement": "manual"}})],
    )
    total = merged(results)
    assert total["hands"] == 300
    assert total["checked"] == total["actions"] > 0
    assert total["kinds"]["knock"] + total["kinds"]["undercut"] + total["kinds"]["gin"] > 0
