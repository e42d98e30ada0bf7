"""rummykit.simulate: bot games, reproducible simulations and record replays."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rummykit
from rummykit.bots import GreedyBot, make_bot
from rummykit.engine import Action, Deal, Game
from rummykit.simulate import (
    TIMING_FIELDS,
    SimulationResult,
    bot_seed,
    derive_seed,
    game_seed,
    make_bots,
    play_game,
    processes,
    replay_record,
    simulate,
    simulate_games,
)


@pytest.fixture(scope="module")
def gin() -> rummykit.Variant:
    return rummykit.load_variant("gin")


def without_timing(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in TIMING_FIELDS}


# -- seeds -------------------------------------------------------------------------------------------


def test_derived_seeds_are_fixed_63_bit_numbers() -> None:
    assert derive_seed(1, 0) == derive_seed(1, 0)
    assert derive_seed(1, 0) != derive_seed(1, 1) != derive_seed(2, 1)
    assert derive_seed("1:0") == derive_seed(1, 0)  # the parts are joined with ':'
    seeds = {game_seed(7, i) for i in range(200)}
    assert len(seeds) == 200
    assert all(0 <= s < 2**63 for s in seeds)
    assert bot_seed(5, 0) != bot_seed(5, 1)


def test_a_known_seed_value_never_changes() -> None:
    # Records and published simulations depend on this derivation: sha256("3:0"), top 63 bits.
    import hashlib

    expected = int.from_bytes(hashlib.sha256(b"3:0").digest()[:8], "big") >> 1
    assert game_seed(3, 0) == expected


# -- play_game ----------------------------------------------------------------------------------------


def manual_game(variant: rummykit.Variant, seed: int, bots: tuple[str, ...]) -> Game:
    game = variant.new_game(players=len(bots), seed=seed)
    players = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    while not game.is_over:
        game.apply(players[game.current_player or 0].choose(game))
    return game


def test_play_game_is_the_game_its_seed_and_bots_give(gin: rummykit.Variant) -> None:
    game = play_game(gin, 11, ("random", "greedy"))
    assert game.is_over
    again = manual_game(gin, 11, ("random", "greedy"))
    assert game.history == again.history
    assert game.scores == again.scores
    assert game.winner is not None


def test_play_game_accepts_a_name_and_bot_objects(gin: rummykit.Variant) -> None:
    by_name = play_game("gin", 4, ("greedy", "greedy"))
    by_object = play_game(gin, 4, (GreedyBot(bot_seed(4, 0)), GreedyBot(bot_seed(4, 1))))
    assert by_name.history == by_object.history


def test_one_bot_name_plays_every_seat(gin: rummykit.Variant) -> None:
    game = play_game(gin, 2, ("greedy",))
    assert game.num_players == gin.min_players
    assert game.history == play_game(gin, 2, ("greedy", "greedy")).history


def test_wrong_bot_count_or_name_is_refused(gin: rummykit.Variant) -> None:
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        play_game(gin, 1, ("greedy", "greedy", "greedy"), players=2)
    with pytest.raises(KeyError, match="no bot named 'clever'"):
        make_bots(["clever", "greedy"], 2, 0)


def test_callbacks_see_every_action_in_order(gin: rummykit.Variant) -> None:
    started: list[int] = []
    seen: list[tuple[int, int, str]] = []

    def on_start(game: Game) -> None:
        started.append(sum(len(h) for h in game.history))

    def on_action(game: Game, deal: Deal, seat: int, action: Action) -> None:
        assert deal.log[-1] == (seat, action)
        seen.append((deal.number, seat, str(action)))

    game = play_game(gin, 9, ("greedy", "random"), on_action=on_action, on_start=on_start)
    assert started == [0]
    assert [text for _, _, text in seen] == [text for deal in game.history for text in deal]
    assert [number for number, _, _ in seen] == [n for n, deal in enumerate(game.history, 1) for _ in deal]
    # Watching does not change the game.
    assert game.history == play_game(gin, 9, ("greedy", "random")).history


def test_max_hands_stops_early(gin: rummykit.Variant) -> None:
    game = play_game(gin, 3, ("greedy", "greedy"), max_hands=1)
    assert len(game.results) == 1
    assert not game.is_over
    assert game.history[:1] == play_game(gin, 3, ("greedy", "greedy")).history[:1]


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "2"])
def test_a_hand_limit_that_is_no_count_is_refused(gin: rummykit.Variant, bad: object) -> None:
    with pytest.raises(ValueError, match="max_hands is a whole number of hands, 1 or more"):
        play_game(gin, 3, ("greedy",), max_hands=bad)  # type: ignore[arg-type]


def test_counts_that_are_no_whole_numbers_are_refused(gin: rummykit.Variant) -> None:
    with pytest.raises(TypeError, match="games is a whole number, not '3'"):
        simulate(gin, "3", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="jobs is a whole number, not 1.5"):
        simulate(gin, 3, 1, jobs=1.5)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="no bot named 'nope'"):
        simulate(gin, 2, 1, ("nope",))


def test_processes_are_what_simulate_starts() -> None:
    assert processes(5, 1000) == 5  # no more than the chunks of games
    assert processes(1, 8) == 1 and processes(100, 1) == 1
    assert processes(100, 2) == 2


# -- simulate ----------------------------------------------------------------------------------------------


def test_simulation_sums_its_games(gin: rummykit.Variant) -> None:
    result = simulate(gin, games=4, seed=5)
    games = [play_game(gin, game_seed(5, i), ("greedy", "greedy")) for i in range(4)]
    assert result.games == 4
    assert sum(result.wins) == 4
    assert result.wins == [sum(1 for g in games if g.winner == seat) for seat in range(2)]
    assert result.hands == sum(len(g.results) for g in games) == sum(result.hand_kinds.values())
    assert result.actions == sum(len(d) for g in games for d in g.history)
    assert result.average_scores == [sum(g.scores[s] for g in games) / 4 for s in range(2)]
    assert set(result.hand_kinds) <= {"knock", "gin", "undercut", "dead", "big-gin"}
    assert result.elapsed > 0


@pytest.mark.parametrize("running", [True, False])
def test_the_collector_is_paused_while_each_game_is_played(
    gin: rummykit.Variant, monkeypatch: pytest.MonkeyPatch, running: bool
) -> None:
    """simulate_games and the house-rule lab pause Python's garbage collector for each game they play, and set
    it going again as it was between games and after (off stays off); the games are the same."""
    import gc

    from rummykit import lab
    from rummykit import simulate as simulate_module

    during: list[bool] = []
    between: list[bool] = []
    played, counted = simulate_module.play_game, SimulationResult.add

    def watched_play(*args: Any, **options: Any) -> Game:
        during.append(gc.isenabled())
        return played(*args, **options)

    def watched_add(self: SimulationResult, game: Game) -> None:
        between.append(gc.isenabled())
        counted(self, game)

    monkeypatch.setattr(simulate_module, "play_game", watched_play)
    monkeypatch.setattr(SimulationResult, "add", watched_add)
    was = gc.isenabled()
    switch = {True: gc.enable, False: gc.disable}
    try:
        switch[running]()
        alone = [play_game(gin, game_seed(5, i), ("greedy", "greedy")) for i in range(3)]  # (not watched)
        result = simulate_games(gin, range(3), 5, ("greedy",))
        measured = lab._play_chunk(lab.Config("gin"), range(2), 5, ("greedy",), None)
        after = gc.isenabled()
    finally:
        switch[was]()
    assert during == [False] * 5  # the simulation's three games and the lab's two
    assert between == [running] * 3
    assert after is running
    assert result.wins == [sum(1 for g in alone if g.winner == seat) for seat in range(2)]
    assert [m["winner"] for m in measured] == [g.winner for g in alone[:2]]


def test_same_seed_same_result_other_seed_other_result(gin: rummykit.Variant) -> None:
    one = without_timing(simulate(gin, 3, seed=21, bots=("random", "greedy")).as_dict())
    two = without_timing(simulate(gin, 3, seed=21, bots=("random", "greedy")).as_dict())
    other = without_timing(simulate(gin, 3, seed=22, bots=("random", "greedy")).as_dict())
    assert one == two
    assert one != other


def test_parts_combine_to_the_whole_for_any_split(gin: rummykit.Variant) -> None:
    whole = simulate(gin, 5, seed=8)
    parts = [simulate_games(gin, indexes, 8) for indexes in ([0, 1], [2], [3, 4])]
    combined = parts[0].combine(parts[1]).combine(parts[2])
    assert without_timing(combined.as_dict()) == without_timing(whole.as_dict())
    # The order the games are played in does not matter either.
    backwards = simulate_games(gin, [4, 3, 2, 1, 0], 8)
    assert without_timing(backwards.as_dict()) == without_timing(whole.as_dict())


def test_parts_of_different_simulations_do_not_combine(gin: rummykit.Variant) -> None:
    with pytest.raises(ValueError, match="same simulation"):
        simulate_games(gin, [0], 1).combine(simulate_games(gin, [1], 2))


def test_as_dict_is_json_ready(gin: rummykit.Variant) -> None:
    data = simulate(gin, 2, seed=1).as_dict()
    assert json.loads(json.dumps(data)) == data
    for key in ("wins", "hand_kinds", "average_scores", "hands", "actions", *TIMING_FIELDS):
        assert key in data
    assert data["bots"] == ["greedy", "greedy"]
    assert data["variant"] == "gin"


def test_zero_games_and_house_rules(gin: rummykit.Variant) -> None:
    empty = simulate(gin, 0, seed=1)
    assert empty.games == 0 and empty.average_scores == [0.0, 0.0] and empty.rate(empty.games) == 0.0
    modern = rummykit.load_variant("gin", house_rules=["modern"])
    assert simulate(modern, 1, seed=1).as_dict()["house_rules"] == ["modern"]
    with pytest.raises(ValueError):
        simulate(gin, -1, seed=1)


def test_result_defaults() -> None:
    result = SimulationResult("gin", (), 1, ("greedy", "greedy"), 2)
    assert result.wins == [0, 0] and result.total_scores == [0, 0]


# -- replay ------------------------------------------------------------------------------------------------


def test_replay_record_reproduces_the_game(gin: rummykit.Variant) -> None:
    game = play_game(gin, 17, ("random", "greedy"))
    actions: list[str] = []
    replayed = replay_record(game.to_json(), on_action=lambda g, d, s, a: actions.append(str(a)))
    assert replayed.scores == game.scores
    assert replayed.is_over
    assert actions == [text for deal in game.history for text in deal]


def test_replay_record_of_an_unfinished_game(gin: rummykit.Variant) -> None:
    game = play_game(gin, 17, ("greedy", "greedy"), max_hands=2)
    replayed = replay_record(game.to_json())
    assert not replayed.is_over
    assert replayed.scores == game.scores
    assert len(replayed.results) == 2


def test_replay_record_refuses_a_tampered_record(gin: rummykit.Variant) -> None:
    record = json.loads(play_game(gin, 17, ("greedy", "greedy")).to_json())
    record["scores"] = [1, 2]
    with pytest.raises(ValueError, match="does not replay"):
        replay_record(json.dumps(record))
