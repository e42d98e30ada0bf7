"""The search bot: legal moves in every variant, the same moves from the same seed, and no peeking.

Not timed and kept small (tiny budgets): the strength and speed figures are ``benchmarks/bots.py``'s.
"""

from __future__ import annotations

import gc
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import benchmark  # benchmarks/ scripts imported as modules

import rummykit
from rummykit.bots import Bot, GreedyBot, OutsBot, SearchBot, candidate_actions, make_bot
from rummykit.cards import card_from_face, parse
from rummykit.engine import Action, Game
from rummykit.search import determinize, expected_deadwood, hidden_cards, side_difference

VARIANTS = [info.name for info in rummykit.list_variants() if info.package == "rummykit"]


def small(seed: int) -> SearchBot:
    return SearchBot(seed, iterations=2, candidates=3, rollout_moves=10)


def positions(name: str, seed: int, moves: int, every: int = 1) -> Iterator[Game]:
    """Positions of a game of greedy bots: every ``every``-th of its first ``moves`` moves."""
    game = rummykit.load_variant(name).new_game(seed=seed)
    bots = [GreedyBot(seed * 10 + s) for s in range(game.num_players)]
    for done in range(moves):
        if game.is_over:
            return
        if done % every == 0:
            yield game
        game.apply(bots[game.deal.actor].choose(game))


def test_search_is_a_named_bot() -> None:
    assert isinstance(make_bot("search", 1), SearchBot)


def plays_only_legal_actions(name: str, seed: int, make: Callable[[int], Bot], moves: int) -> None:
    """``make(seat)`` bots in every seat play ``moves`` moves of a game; each must be legal."""
    game = rummykit.load_variant(name).new_game(seed=seed)
    bots = [make(s) for s in range(game.num_players)]
    for _ in range(moves):
        if game.is_over:
            break
        action = bots[game.deal.actor].choose(game)
        game.resolve(action)  # IllegalAction unless legal (a meld the capped listing leaves out is legal too)
        game.apply(action)


@pytest.mark.parametrize("name", VARIANTS)
def test_only_legal_actions(name: str) -> None:
    plays_only_legal_actions(name, 3, small, 15)


@pytest.mark.parametrize("name", VARIANTS)
def test_determinize_keeps_what_the_seat_sees(name: str) -> None:
    rng = random.Random(5)
    for game in positions(name, 11, 120, every=15):
        for seat in game.deal.seats:
            world = determinize(game, seat, rng)
            deal, other = game.deal, world.deal
            assert world.observation(seat) == game.observation(seat)
            assert Counter(c.id for c in other.all_cards()) == Counter(c.id for c in deal.all_cards())
            assert [len(h) for h in other.hands] == [len(h) for h in deal.hands]
            assert len(other.stock) == len(deal.stock) and other.discard[-1:] == deal.discard[-1:]
            assert other.hands[seat] == deal.hands[seat]
            for holder in deal.seats:
                known = [c for c in deal.hands[holder] if deal.sees(seat, c, holder)]
                assert all(c in other.hands[holder] for c in known)
            assert sorted(c.id for c in hidden_cards(other, seat)) == sorted(c.id for c in hidden_cards(deal, seat))
            world.check_cards()
            if seat == game.deal.actor:
                # What the seat may do is part of what it sees: the search bot's play-outs start from the game's list.
                assert world.legal_actions() == game.legal_actions()
            # The copy plays on (the rules find it a position like any other). Only for the seat to move: for
            # another, the copy may give the mover a hand its own moves rule out (a pile card taken to meld).
            if seat == game.deal.actor and not world.is_over:
                world.apply(GreedyBot(1).choose(world))


def test_determinize_keeps_a_face_down_card_face_down() -> None:
    """Gin settled by hand: after a knock the knock card lies face down on the pile while the knocker and
    then the opponent lay their melds. A determinized world puts another card in its place, face down, and
    the card that was there goes elsewhere face up: ``face_down`` names only cards of the world's pile, the
    seat sees what it saw, every card is in one place, and the world plays on."""
    variant = rummykit.load_variant("gin", options={"rules": {"settlement": "manual"}})
    knocks = 0
    for seed in range(4):
        game = variant.new_game(seed=seed)
        bots = [GreedyBot(seed), GreedyBot(seed + 7)]
        while not game.is_over and game.deal.phase != "knocker-melds":
            game.apply(bots[game.deal.actor].choose(game))
        if game.is_over:
            continue
        knocks += 1
        deal = game.deal
        assert deal.face_down == {deal.discard[-1].id}
        moved = 0
        for seat in deal.seats:
            for sample in range(6):
                world = determinize(game, seat, random.Random(sample))
                other = world.deal
                assert other.face_down == {other.discard[-1].id}, (seed, seat, sample)
                assert world.observation(seat) == game.observation(seat)
                world.check_cards()
                moved += other.discard[-1].id != deal.discard[-1].id
                if seat == deal.actor:
                    world.apply(GreedyBot(1).choose(world))
        assert moved  # the knock card's place took other cards
    assert knocks >= 2


def test_determinize_moves_hidden_cards() -> None:
    game = rummykit.load_variant("gin").new_game(seed=2)
    seat = game.deal.actor
    opponent = 1 - seat
    worlds = [determinize(game, seat, random.Random(i)) for i in range(20)]
    assert len({tuple(sorted(c.id for c in w.deal.hands[opponent])) for w in worlds}) > 1


def twin(game: Game, seat: int) -> Game | None:
    """A copy of ``game`` that looks the same to ``seat``: a card of another hand that ``seat`` has not
    seen swapped with a card of the stock. None if there is no such card."""
    copy = game.clone()
    deal = copy.deal
    for holder in deal.seats:
        if holder == seat:
            continue
        hand = deal.hands[holder]
        for i, card in enumerate(hand):
            if not deal.sees(seat, card, holder) and deal.stock:
                hand[i], deal.stock[0] = deal.stock[0], hand[i]
                deal._legal = None
                assert copy.observation(seat) == game.observation(seat)
                return copy
    return None


def reads_hidden_cards(make: Callable[[], Bot], name: str, seed: int, moves: int = 60) -> bool:
    """Whether a bot (a fresh one from ``make`` each time) ever chooses differently in two positions that
    look the same to it."""
    for game in positions(name, seed, moves, every=3):
        other = twin(game, game.deal.actor)
        if other is None:
            continue
        if str(make().choose(game)) != str(make().choose(other)):
            return True
    return False


class PeekingBot:
    """A search bot that cheats: it plays its rollouts in the real position, hidden cards and all."""

    def __init__(self, seed: int):
        self.bot = SearchBot(seed, iterations=3, candidates=4, rollout_moves=40)

    def choose(self, game: Game) -> Action:
        import rummykit.bots as bots

        real = bots.determinize
        bots.determinize = lambda g, seat, rng: g.clone()  # type: ignore[assignment]
        try:
            return self.bot.choose(game)
        finally:
            bots.determinize = real


@pytest.mark.parametrize("name", ["gin", "500-rum"])
def test_search_bot_does_not_read_hidden_cards(name: str) -> None:
    assert not reads_hidden_cards(lambda: SearchBot(4, iterations=3, candidates=4, rollout_moves=40), name, 8)


def test_a_bot_that_reads_hidden_cards_is_caught() -> None:
    assert reads_hidden_cards(lambda: PeekingBot(4), "gin", 8)


def test_same_seed_same_moves() -> None:
    def play(seed: int) -> list[list[str]]:
        game = rummykit.load_variant("gin").new_game(seed=21, max_hands=1)
        bots = [SearchBot(seed, iterations=3), GreedyBot(seed)]
        while not game.is_over:
            game.apply(bots[game.deal.actor].choose(game))
        return game.history

    assert play(1) == play(1)


def test_seconds_budget() -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)
    game.resolve(SearchBot(1, seconds=0.01).choose(game))


def test_max_seconds_caps_a_decision_and_changes_nothing_below_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    def play(**options: Any) -> object:
        game = rummykit.load_variant("gin").new_game(seed=21, max_hands=1)
        bots = [SearchBot(5, iterations=3, **options), GreedyBot(5)]
        while not game.is_over:
            game.apply(bots[game.deal.actor].choose(game))
        return game.history

    assert play(max_seconds=1e9) == play()  # a cap never reached: the seed's moves

    # A clock that moves a second at every reading: a cap of 0.5 s leaves time for the first sample only
    # (which always runs), 1.5 s for two.
    ticks = iter(range(10**6))
    monkeypatch.setattr("rummykit.bots.time.perf_counter", lambda: float(next(ticks)))
    game = rummykit.load_variant("gin").new_game(seed=3)
    while len(game.legal_actions()) < 3:
        game.apply(GreedyBot(1).choose(game))
    for cap, samples in ((0.5, 1), (1.5, 2), (None, 24)):
        bot = SearchBot(1, max_seconds=cap, confirm=0, stop_early=False)
        taken: list[object] = []
        sample = bot._sample

        def counted(*args: Any, taken: list[object] = taken, sample: Callable[..., None] = sample) -> None:
            taken.append(args)
            sample(*args)

        monkeypatch.setattr(bot, "_sample", counted)
        game.resolve(bot.choose(game))
        assert len(taken) == samples


def _games_alive() -> int:
    return sum(isinstance(o, Game) for o in gc.get_objects())


@pytest.mark.parametrize("cap", [None, 1.5])
def test_the_play_outs_are_freed_without_the_collector(monkeypatch: pytest.MonkeyPatch, cap: float | None) -> None:
    # A game and its deal refer to each other, so a copy dropped as it is waits for the collector; a decision
    # plays out hundreds. The bot frees each when done with it, also the sample a time cap leaves unplayed.
    game = rummykit.load_variant("iceberg").new_game(seed=2)
    while len(game.legal_actions()) < 3:
        game.apply(GreedyBot(1).choose(game))
    if cap is not None:  # a clock that moves a second at every reading: the cap stops the second sample's rollouts
        ticks = iter(range(10**6))
        monkeypatch.setattr("rummykit.bots.time.perf_counter", lambda: float(next(ticks)))
    bot = SearchBot(1, iterations=4, max_seconds=cap, stop_early=False)
    gc.collect()
    gc.disable()
    try:
        before = _games_alive()
        game.resolve(bot.choose(game))
        after = _games_alive()
    finally:
        gc.enable()
    assert after == before


def test_openspiel_adapter_plays_whole_hands() -> None:
    """benchmarks/openspiel_gin.py: a rummykit bot plays OpenSpiel's gin_rummy through the adapter."""
    pytest.importorskip("pyspiel")
    openspiel_gin = benchmark("openspiel_gin")
    for seat in (0, 1):
        row = openspiel_gin.play_hand(5, seat, "greedy", None)
        assert row["points"] == -row["other"]
        assert row["moves"]
    row = openspiel_gin.play_hand(6, 1, "search", 2)
    assert row["points"] == -row["other"]


@pytest.mark.parametrize("name", ["gin-3", "gin-partnership"])
def test_strength_benchmark_times_moves_with_any_number_of_seats(name: str) -> None:
    """benchmarks/bots.py --time-moves: a bot for every seat (the search bot's side alternating)."""
    strength = benchmark("bots")
    entry = strength.time_moves(name, 3, 0)
    assert entry["decisions"] == 3
    assert 0 < entry["median_cpu_seconds"] <= entry["max_cpu_seconds"]


def test_strength_benchmark_paired_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/bots.py --deals: one deal played once per side on the same cards, the first bot's side
    scored each time."""
    strength = benchmark("bots")
    # Two equal bots that never draw on their generators in Gin play the very same hand twice, the first
    # bot's side swapped: its two differences cancel exactly, and are not zero (someone scored).
    monkeypatch.setitem(strength.PAIRINGS, "greedy-greedy", ("greedy", "greedy"))
    for index in range(3):
        row = strength.play_deal("gin", "greedy-greedy", index, 0)
        first, second = row["plays"]
        assert first == -second != 0
        assert row["difference"] == 0
    assert strength.play_deal("gin", "greedy-random", 4, 0) == strength.play_deal("gin", "greedy-random", 4, 0)
    # Three-handed Gin: the dealer sits out, so two plays (one per seat in the hand); Partnership Gin
    # scores its round at the second table's hand, so its plays are not all zero.
    assert len(strength.play_deal("gin-3", "greedy-random", 1, 0)["plays"]) == 2
    assert any(strength.play_deal("gin-partnership", "greedy-random", i, 0)["plays"] != [0.0, 0.0] for i in range(3))
    mean, low, high = strength.mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])  # t(4) = 2.776, standard error 0.7071
    assert mean == 3.0 and high - mean == pytest.approx(1.963, abs=0.001) and mean - low == high - mean
    assert strength.mean_interval([7.0])[1:] == (-math.inf, math.inf)
    assert strength.t95(40) == pytest.approx(2.021, abs=0.001)


def test_outs_bot_keeps_the_hand_more_cards_improve() -> None:
    """Three tens to choose from, each leaving 20 deadwood: greedy throws a queen of the pair, the outs bot
    the lone king (the pair of queens has two cards, QC and QS, that meld it next draw; K and Q none)."""
    gin = rummykit.load_variant("gin")
    mine = "4D 4H 4S 4C 6S 7S 8S 9S QH QD".split()
    theirs = "AC 2C 3C 5C 6C 7C AD 2D 3D 5D".split()
    used = {*mine, *theirs, "KC", "AH"}
    stock = ["KC", *(str(card_from_face(f)) for f in range(52) if str(card_from_face(f)) not in used)]  # top first
    game = gin.new_game(seed=0, layout={"dealer": 1, "hands": [mine, theirs], "discard": ["AH"], "stock": stock})
    for action in ("pass", "pass", "draw stock"):
        game.apply(action)
    assert str(GreedyBot(1).choose(game)) == "discard QH"
    assert str(OutsBot(1).choose(game)) == "discard KC"


@pytest.mark.parametrize("name", ["arlington", "skarney-singles", "500-rum"])
def test_what_greedy_remembers_after_laying_cards_is_a_best_arrangement(name: str) -> None:
    """After laying a meld or laying off a card its arrangement left as deadwood, greedy keeps the rest of that
    arrangement for the hand that is left rather than searching it again: it must be an arrangement of exactly
    those cards with the least deadwood the search finds."""
    variant = rummykit.load_variant(name)
    search = variant.meld_search
    checked = Counter[str]()
    for seed in range(4):
        game = variant.new_game(seed=seed)
        bot = GreedyBot(seed)
        for _ in range(400):
            if game.is_over:
                break
            before = dict(bot._arranged)
            action = bot.choose(game)
            seat = game.deal.actor
            game.apply(action)
            for key, arrangement in bot._arranged.items():
                if key in before or game.is_over or game.deal.actor != seat:
                    continue
                hand = game.deal.hands[seat]
                if tuple(sorted(c.id for c in hand)) != key[1]:
                    continue
                laid = [*arrangement.melded, *arrangement.deadwood]
                assert sorted(c.id for c in laid) == sorted(c.id for c in hand)
                assert arrangement.deadwood_value == sum(search.values[c.face] for c in arrangement.deadwood)
                assert arrangement.deadwood_value == search.deadwood(hand), (name, seed, action)
                checked[action.kind] += 1
    assert checked["meld"] > 5 and checked["layoff"] > 5, checked


@pytest.mark.parametrize("name", VARIANTS)
def test_outs_bot_only_legal_actions(name: str) -> None:
    plays_only_legal_actions(name, 4, OutsBot, 60)


def test_outs_bot_does_not_read_hidden_cards() -> None:
    assert not reads_hidden_cards(lambda: OutsBot(4), "gin", 8, moves=120)


def test_expected_deadwood_counts_outs() -> None:
    """A pair has outs and a lone card has none: of two hands with the same deadwood, the pair's expects less;
    with nothing hidden the deadwood stays as it is."""
    gin = rummykit.load_variant("gin")
    search = gin.meld_search
    cards = {str(c): c for c in (card_from_face(f) for f in range(52))}
    pair = [cards[f] for f in "QH QD AC 2S".split()]
    lone = [cards[f] for f in "QH KC AC 2S".split()]
    pool = [c for name, c in cards.items() if name not in {"QH", "QD", "KC", "AC", "2S"}]
    assert search.deadwood(pair) == search.deadwood(lone) == 23
    assert expected_deadwood(search, pair, pool) < expected_deadwood(search, lone, pool) <= 23
    assert expected_deadwood(search, pair, []) == 23


@pytest.mark.parametrize(
    "options",
    [
        {"iterations": 0},
        {"iterations": -1},
        {"candidates": 2.5},
        {"rollout_moves": -1},
        {"rollout_moves": True},
        {"seconds": "1"},
        {"seconds": 0},
        {"seconds": -0.5},
        {"confirm": -1},
        {"max_seconds": 0},
        {"max_seconds": "2"},
        {"max_seconds": float("nan")},
    ],
)
def test_search_bot_refuses_a_budget_that_is_no_budget(options: dict[str, object]) -> None:
    name = next(iter(options))
    with pytest.raises(ValueError, match=f"^{name} is None"):
        SearchBot(1, **options)  # type: ignore[arg-type]


def test_stopping_early_looks_every_four_samples_then_at_each_doubling() -> None:
    """Within the budget's 24 samples the bot looks for candidates to drop from 8 on, every 4; past them (a
    ``seconds`` budget) at 48, 96, 192...: the looks go over every sample so far, so they thin out."""
    bot = SearchBot(1)
    assert [n for n in range(1, 400) if bot._look(n)] == [8, 12, 16, 20, 24, 48, 96, 192, 384]
    assert [n for n in range(1, 100) if SearchBot(1, iterations=10)._look(n)] == [8, 20, 40, 80]


def test_search_bot_refuses_a_stop_early_that_is_not_true_or_false() -> None:
    with pytest.raises(ValueError, match="^stop_early is True \\(the default\\) or False, not 'no'"):
        SearchBot(1, stop_early="no")  # type: ignore[arg-type]


def test_search_bot_refuses_a_pause_collector_that_is_not_true_or_false() -> None:
    with pytest.raises(ValueError, match="^pause_collector is True \\(the default\\) or False, not 1"):
        SearchBot(1, pause_collector=1)  # type: ignore[arg-type]


class CollectorWatcher(SearchBot):
    """A search bot that notes whether the garbage collector runs during each of its play-outs."""

    def __init__(self, *, fail: bool = False, **options: Any) -> None:
        super().__init__(1, iterations=2, candidates=3, rollout_moves=6, **options)
        self.seen: list[bool] = []
        self.fail = fail

    def rollout(self, sim: Game, action: Action, seat: int) -> float:
        self.seen.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("a play-out failed")
        return super().rollout(sim, action, seat)


def searched_position() -> Game:
    """A Gin position where the search bot plays out several candidates (a discard)."""
    for game in positions("gin", 3, 40):
        if game.deal.phase == "discard" and len(game.legal_actions()) > 2:
            return game
    raise AssertionError("no discard in the first 40 moves")


def test_the_search_bot_pauses_the_collector_while_it_decides_and_sets_it_going_again() -> None:
    game = searched_position()
    assert gc.isenabled()
    bot = CollectorWatcher()
    bot.choose(game)
    assert bot.seen and not any(bot.seen)
    assert gc.isenabled()
    gc.disable()  # a program that runs without the collector keeps it off
    try:
        bot.choose(game)
        assert not gc.isenabled()
    finally:
        gc.enable()
    failing = CollectorWatcher(fail=True)
    with pytest.raises(RuntimeError, match="a play-out failed"):
        failing.choose(game)
    assert failing.seen == [False] and gc.isenabled()
    running = CollectorWatcher(pause_collector=False)
    running.choose(game)
    assert running.seen and all(running.seen)


def test_the_search_bot_chooses_the_same_with_the_collector_paused_or_not() -> None:
    game = searched_position()
    paused = [SearchBot(seed, iterations=3, rollout_moves=10).choose(game) for seed in range(4)]
    running = [SearchBot(seed, iterations=3, rollout_moves=10, pause_collector=False).choose(game) for seed in range(4)]
    assert paused == running


@pytest.mark.parametrize("name", VARIANTS)
def test_a_decision_leaves_nothing_for_the_collector(name: str) -> None:
    """The pause holds cycles back, so a decision must make none: a search that names itself (a nested function
    that calls itself) is one, and each Gin decision left thousands of objects so before those searches walked by
    a stack of their own."""
    chosen = 0
    for game in positions(name, 5, 24, every=6):
        gc.collect()
        gc.disable()
        try:
            game.resolve(SearchBot(chosen, iterations=3, rollout_moves=20).choose(game))
            left = gc.collect()
        finally:
            gc.enable()
        assert left == 0, f"{name}: a decision left {left} objects in cycles"
        chosen += 1
    assert chosen >= 3


class CycleMaker(SearchBot):
    """A search bot whose play-outs each leave 200 cycles behind, as a game's plugin might."""

    def __init__(self) -> None:
        super().__init__(1, iterations=8, candidates=3, rollout_moves=4, stop_early=False, confirm=0)
        self.made = 0

    def rollout(self, sim: Game, action: Action, seat: int) -> float:
        for _ in range(200):
            cycle: list[object] = []
            cycle.append(cycle)
        self.made += 200
        return super().rollout(sim, action, seat)


def test_cycles_gather_no_further_than_the_young_limit_while_the_collector_is_paused() -> None:
    game = searched_position()
    gc.collect()
    gc.disable()
    try:
        bot = CycleMaker()
        bot.YOUNG_LIMIT = 1_000
        bot.choose(game)
        left = gc.collect()
        unbounded = CycleMaker()
        unbounded.YOUNG_LIMIT = 10**9
        unbounded.choose(game)
        left_unbounded = gc.collect()
    finally:
        gc.enable()
    assert bot.made >= 3_000 and left_unbounded >= bot.made
    assert left < 1_000 + 3 * 200 + 200  # the limit, one sample's play-outs, and what else the decision made


def test_the_collector_runs_again_once_the_last_pause_in_any_thread_has_ended() -> None:
    import threading

    from rummykit.bots import collector_paused

    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with collector_paused():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=other)
    with collector_paused():
        thread.start()
        assert inside.wait(10)
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's pause is still running
    release.set()
    thread.join(10)
    assert gc.isenabled()


def test_make_bot_takes_options_and_any_case() -> None:
    bot = make_bot("Search", 1, iterations=4, candidates=2)
    assert isinstance(bot, SearchBot) and (bot.iterations, bot.candidates) == (4, 2)
    with pytest.raises(TypeError, match=r"the greedy bot has no option 'iterations' \(it takes none\)"):
        make_bot("greedy", 1, iterations=4)
    with pytest.raises(TypeError, match=r"no option 'budget' \(its options: iterations, seconds"):
        make_bot("search", 1, budget=4)
    with pytest.raises(KeyError, match="no bot named 'clever'; bots: greedy, outs, random, search"):
        make_bot("clever")


class ScriptedBot(SearchBot):
    """A search bot (24 samples, 3 candidates) whose rollouts are scored by ``scores[i](n)``: candidate ``i`` (in
    the order first played out) on its n-th rollout."""

    def __init__(self, scores: list[Callable[[int], float]], confirm: int = 3, stop_early: bool = True) -> None:
        super().__init__(1, iterations=24, candidates=3, confirm=confirm, stop_early=stop_early)
        self.scores = scores
        self.order: list[Action] = []
        self.calls: Counter[int] = Counter()

    def rollout(self, sim: Game, action: Action, seat: int) -> float:
        if action not in self.order:
            self.order.append(action)
        i = self.order.index(action)
        self.calls[i] += 1
        return self.scores[i](self.calls[i])


def test_a_close_call_is_settled_on_more_samples() -> None:
    """An alternative ahead of the first choice by between PROMISING and MARGIN standard errors is sampled
    ``confirm`` x ``iterations`` times more, with the first choice alone; the margin then decides on all
    the samples. Without the confirmation the first choice stays."""
    game = next(g for g in positions("gin", 4, 200) if len(candidates_of(g, 3)) == 3)
    # The first choice scores 0, the second 1 and -0.6 in turn (0.2 ahead, 1.2 standard errors over 24
    # samples, 2.4 over 96), the third -1.
    scores: list[Callable[[int], float]] = [lambda n: 0.0, lambda n: 1.0 if n % 2 else -0.6, lambda n: -1.0]

    def scripted(confirm: int, stop_early: bool = False) -> ScriptedBot:
        return ScriptedBot(scores, confirm=confirm, stop_early=stop_early)

    confirmed = scripted(3)
    assert confirmed.choose(game) == confirmed.order[1]
    assert confirmed.calls == {0: 96, 1: 96, 2: 24}
    unconfirmed = scripted(0)
    assert unconfirmed.choose(game) == unconfirmed.order[0]
    assert unconfirmed.calls == {0: 24, 1: 24, 2: 24}
    # Stopping early: the third, far behind, is dropped after 8 samples; the close call is never settled
    # before its end (the leader 1.5 to 2.4 standard errors ahead at each look), so it runs whole.
    early = scripted(3, stop_early=True)
    assert early.choose(game) == early.order[1]
    assert early.calls == {0: 96, 1: 96, 2: 8}


def test_stopping_early_drops_candidates_far_behind_and_settles_close_calls() -> None:
    """``stop_early``: a candidate more than DROP standard errors behind the first choice at a look (after 8
    samples, then every 4) is played out no more, and sampling ends when only the first choice is left; a
    close call ends at a look (every 12 extra samples) once the leader is behind the first choice or more
    than SETTLED standard errors ahead. The same bot without it samples everything."""
    game = next(g for g in positions("gin", 4, 200) if len(candidates_of(g, 3)) == 3)

    def level(n: int) -> float:
        return 0.0

    def behind(n: int) -> float:  # 0.75 a sample behind, give or take 0.5: about -4 standard errors at 8
        return -0.25 if n % 2 else -1.25

    def slightly_behind(n: int) -> float:  # 0.1 behind, give or take 1: -0.26 standard errors at 8, -0.48 at 24
        return 0.9 if n % 2 else -1.1

    kept = ScriptedBot([level, level, behind])
    assert kept.choose(game) == kept.order[0]
    assert kept.calls == {0: 24, 1: 24, 2: 8}
    gone = ScriptedBot([level, behind, behind])
    assert gone.choose(game) == gone.order[0]
    assert gone.calls == {0: 8, 1: 8, 2: 8}
    close = ScriptedBot([level, slightly_behind, level])
    assert close.choose(game) == close.order[0] and close.calls == {0: 24, 1: 24, 2: 24}
    whole = ScriptedBot([level, behind, behind], stop_early=False)
    assert whole.choose(game) == whole.order[0] and whole.calls == {0: 24, 1: 24, 2: 24}

    def pulls_ahead(n: int) -> float:  # a close call (1.2 standard errors at 24), then 1.0 every time
        return 1.0 if n > 24 or n % 2 else -0.6

    def falls_back(n: int) -> float:  # a close call, then -1.0 every time: behind at the first look
        return -1.0 if n > 24 else 1.0 if n % 2 else -0.6

    ahead = ScriptedBot([level, pulls_ahead, behind])
    assert ahead.choose(game) == ahead.order[1]
    assert ahead.calls[1] == 36  # 3.7 standard errors ahead at the first look
    back = ScriptedBot([level, falls_back, behind])
    assert back.choose(game) == back.order[0]
    assert back.calls[1] == 36 and back.calls[0] == 36


def candidates_of(game: Game, limit: int) -> list[Action]:
    bot = SearchBot(1)
    return candidate_actions(game, game.legal_actions(), bot.greedy.choose(game), limit)


def test_strength_table_marks_an_earlier_search_bots_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/bots.py: an entry saved without ``search_version`` (the search bot before close calls) is
    marked (v1) with a legend, shown before the current bot's entry kept under ``KEY@v1``; it cannot be
    resumed (the run would mix two bots); greedy-random entries are never marked."""
    strength = benchmark("bots")
    monkeypatch.setattr(strength, "OPENSPIEL", tmp_path / "no-yardstick.json")
    games = {"games": 10, "wins": 7, "rate": 0.7, "interval": [0.4, 0.9], "even": 0.5, "median_move_seconds": None}
    results = {
        "gin/search-greedy@v1": {"variant": "gin", "pairing": "search-greedy", "seed": 0, **games},
        "gin/search-greedy": {"variant": "gin", "pairing": "search-greedy", "seed": 0, "search_version": 3, **games},
        "gin/greedy-random": {"variant": "gin", "pairing": "greedy-random", "seed": 0, **games},
        "iceberg/search-greedy": {"variant": "iceberg", "pairing": "search-greedy", "seed": 0, **games},
        "fortune/search-greedy@v2": {"variant": "fortune", "pairing": "search-greedy", "seed": 0, "search_version": 2,
                                     **games},
    }  # fmt: skip
    text = strength.table(results)
    rows = [line for line in text.splitlines() if line.startswith("| gin | ")]
    assert [r.split(" | ")[1] for r in rows] == ["search vs greedy (v1)", "search vs greedy", "greedy vs random"]
    assert "| iceberg | search vs greedy (v1) | 10 |" in text
    assert "(v1): the search bot before close calls were settled on more samples" in text
    # Only an earlier bot's entry: shown, marked, and not called "not run".
    assert "| fortune | search vs greedy (v2) | 10 |" in text and "| fortune | search vs greedy | not run" not in text
    assert "(v2): the search bot before it stopped sampling early" in text
    saved = tmp_path / "results.json"
    saved.write_text(json.dumps(results), encoding="utf-8")
    monkeypatch.setattr(strength, "RESULTS", saved)
    assert strength.saved_entry("gin/search-greedy", 0) == results["gin/search-greedy"]
    assert strength.saved_entry("gin/search-greedy", 1) is None  # another seed: started afresh
    with pytest.raises(SystemExit, match="played by search bot 1, not 3"):
        strength.saved_entry("iceberg/search-greedy", 0)
    assert "(v1)" not in strength.table({k: v for k, v in results.items() if "@" not in k and "iceberg" not in k})


def test_stop_early_benchmark_replays_the_bots_own_weighing() -> None:
    """benchmarks/stop_early.py: the whole budget replayed on its own record chooses as it did, rollout for
    rollout (so the record lines up with the samples); stopping early plays no more of them."""
    stop_early = benchmark("stop_early")
    bot, actions = stop_early.record_game("gin", 2, 4)
    assert len(actions) >= 4 and bot.decisions
    whole = stop_early.replay("gin", bot, stop_early=False)
    assert whole["same"] == whole["decisions"] == len(bot.decisions)
    assert whole["rollouts"] == whole["whole_rollouts"] > 0
    early = stop_early.replay("gin", bot)
    assert early["same"] + early["other"] + early["unknown"] == early["decisions"]
    assert early["rollouts"] <= early["whole_rollouts"]


def test_decision_weighing_benchmark_runs() -> None:
    """benchmarks/decisions.py: positions with a choice, every action weighed against the first choice."""
    decisions = benchmark("decisions")
    games = decisions.positions("iceberg", 2, 100)
    assert len(games) == 2 and all(len(g.legal_actions()) > 1 for g in games)
    row = decisions.weigh(games[0], 3, 4, random.Random(1))
    assert 2 <= row["actions"] <= 4 and row["standard_error"] >= 0
    assert row["lead"] >= 0  # the first choice is among the actions: the best leads it by 0 or more


def test_search_bot_benchmark_plays_the_same_game_twice() -> None:
    """benchmarks/search_bot.py: seeded bots on both sides, so two runs play the same actions (the digest)."""
    search_bot = benchmark("search_bot")
    lines = [search_bot.play("fortune", 3, decisions=2) for _ in range(2)]
    assert "over 2 decisions (stopped after 2 decisions" in lines[0]
    assert lines[0].split("actions digest")[1] == lines[1].split("actions digest")[1]


def test_solver_benchmark_collects_the_hands_a_search_bot_asks_about() -> None:
    """benchmarks/solver.py --bot-hands: the distinct hands the rollouts gave the solver, in the order first
    asked, the same on every run (the game is seeded)."""
    benchmark("search_bot")  # solver.py imports it when it plays
    solver_benchmark = benchmark("solver")
    hands = solver_benchmark.bot_hands("fortune", 1, 3)
    assert hands
    assert len({(bytes(counts), tuple(wilds), jokers) for counts, wilds, jokers in hands}) == len(hands)
    assert all(len(counts) == 52 and all(0 <= n <= 2 for n in counts) for counts, _, _ in hands)
    assert solver_benchmark.bot_hands("fortune", 1, 3) == hands


def test_solver_benchmark_times_both_ways_on_the_same_hands(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/solver.py --bot-hands and --built-small: each hand solved by the solver as built and by its
    programme alone (the benchmark stops if their least deadwood differs); the built hands are as named."""
    benchmark("search_bot")
    solver_benchmark = benchmark("solver")
    search = rummykit.load_variant("skarney-singles").meld_search
    built = solver_benchmark.built_small_hands(search)
    assert len(built) == 48
    for name, (counts, wilds) in built.items():
        _, cards, wild = name.split(", ")  # e.g. "two suits in a row, 16 cards, 2 wild"
        assert sum(counts) + len(wilds) == int(cards.split()[0]) and len(wilds) == int(wild.split()[0])
        assert not set(wilds) - search.rules.wild_faces
    solver_benchmark.time_built_small_hands("skarney-singles")
    solver_benchmark.time_bot_hands("fortune", 1, 3)
    out = capsys.readouterr().out
    assert "48 built hands under skarney-singles's rules" in out
    assert "distinct hands from 1 decisions of a search bot in fortune" in out
    assert "(the same least deadwood for every hand)" in out


def test_solver_benchmark_times_the_played_hand_and_hands_heavy_with_wild_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/solver.py --hard and --wild-heavy: the played hand is the one named (44 cards, ten wild, least
    deadwood 10), and each wild-heavy row holds as many wild cards as it says."""
    solver_benchmark = benchmark("solver")
    search = rummykit.load_variant("skarney-singles").meld_search
    played = parse(solver_benchmark.PLAYED_HAND)
    assert len(played) == 44 and sum(search.is_wild(c) for c in played) == 10
    assert search.arrange(played).deadwood_value == 10
    solver_benchmark.time_wild_heavy(1, 1)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [tuple(map(int, row.split("|")[1:4])) for row in rows] == [(30, 8, 1), (44, 10, 1), (60, 12, 1)]


@pytest.mark.parametrize("name", ["iceberg", "gin"])
def test_a_rollout_plays_out_its_hand_and_deals_no_other(name: str) -> None:
    """A rollout ends with its hand (its copy of the game is over, no next hand dealt), and scores it as playing
    the game on would: the same hand result, from the same moves."""
    variant = rummykit.load_variant(name)
    for seed in range(3):
        game = variant.new_game(seed=seed)
        seat = game.deal.actor
        action = game.legal_actions()[0]
        bot = SearchBot(seed=seed)
        state = bot.rollout_bot.rng.getstate()
        sim = game.clone()
        value = bot.rollout(sim, action, seat)
        assert sim.is_over and len(sim.results) == 1 and sim.deal.result is not None  # not dealt again
        # The same moves in a copy that goes on to the next hand.
        bot.rollout_bot.rng.setstate(state)
        bot.rollout_bot._arranged.clear()
        other = game.clone()
        other.apply(action)
        moves = 1
        while not other.results and moves < bot.moves_for(game) + 1:
            other.apply(bot.rollout_bot.choose(other))
            moves += 1
        assert other.results, "the hand did not end within the rollout's moves"
        assert not other.is_over and other.deal.number == 2  # playing on deals the next hand
        assert other.results[0].scores == sim.results[0].scores
        assert value == pytest.approx(side_difference(other, other.results[0].scores, seat))


def test_a_games_own_rollout_length_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bots.search.rollout_moves`` in the ruleset sets how far a rollout goes, unless the bot is given its own."""
    variant = rummykit.load_variant("skarney-singles", options={"bots": {"search": {"rollout_moves": 3}}})
    game = variant.new_game(seed=2)
    assert SearchBot(1).moves_for(game) == 3
    assert SearchBot(1, rollout_moves=7).moves_for(game) == 7
    assert SearchBot(1).moves_for(rummykit.load_variant("gin").new_game(seed=1)) == SearchBot.ROLLOUT_MOVES
    assert SearchBot(1).moves_for(rummykit.load_variant("skarney-singles").new_game(seed=1)) == 20  # its ruleset's
    assert SearchBot(1).moves_for(rummykit.load_variant("arlington").new_game(seed=1)) == 20
    for name in ("skarney", "iceberg", "fortune"):  # measured: shorter rollouts did not pay there
        assert SearchBot(1).moves_for(rummykit.load_variant(name).new_game(seed=1)) == SearchBot.ROLLOUT_MOVES
    bot = SearchBot(1)
    moves = []
    choose = bot.rollout_bot.choose
    monkeypatch.setattr(bot.rollout_bot, "choose", lambda sim: moves.append(1) or choose(sim))
    bot.rollout(game.clone(), game.legal_actions()[0], game.deal.actor)
    assert len(moves) == 3  # the hand goes on: three moves, then the position is scored


def test_rollout_length_benchmark_compares_two_bots_and_goes_on_from_what_it_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmarks/rollout_moves.py: agreement rows per decision with a choice (the same bot with another seed
    among them), paired deals with both seat orders, each saved as it is made and not played again."""
    rollout_moves = benchmark("rollout_moves")
    monkeypatch.setattr(rollout_moves, "SAVED", tmp_path)
    monkeypatch.setattr(SearchBot, "ITERATIONS", 2)
    monkeypatch.setattr(SearchBot, "CANDIDATES", 2)
    path = rollout_moves.agree("gin", 6, [6, 3], 3, 1)
    rows = rollout_moves.saved(path)
    assert [r["decision"] for r in rows] == [1, 2, 3]
    chosen = [r for r in rows if not r.get("forced")]
    assert chosen and all({"first", "moves 6", "moves 3", "seconds 6", "seconds 3"} <= r.keys() for r in chosen)
    assert "the first choice alone" in rollout_moves.agree_summary(path)
    rollout_moves.agree("gin", 6, [6, 3], 3, 1)  # nothing left to do: the rows stay as they were
    assert rollout_moves.saved(path) == rows
    # Rows saved before the first choice was: it is found again on the way through, the rest kept.
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "first"}) + "\n" for r in rows))
    rollout_moves.agree("gin", 6, [6, 3], 3, 1)
    assert rollout_moves.saved(path) == rows
    monkeypatch.setattr(rollout_moves, "DEAL_HANDS", 1)
    path = rollout_moves.deals("gin", 3, 6, 1, 1)
    (deal,) = rollout_moves.saved(path)
    assert len(deal["plays"]) == 2 and deal["difference"] == pytest.approx(sum(deal["plays"]) / 2)
    assert deal["cpu"]["3"] and deal["cpu"]["6"]
    assert "1 deals" in rollout_moves.deals_summary(path)
    path = rollout_moves.against_greedy("gin", [3, 6], 2, 0, 1)
    rows = rollout_moves.saved(path)
    assert sorted((r["deal"], r["moves"]) for r in rows) == [(0, 3), (0, 6), (1, 3), (1, 6)]
    assert all(len(r["plays"]) == 2 and r["cpu"] for r in rows)
    assert "on the same 2 deals" in rollout_moves.greedy_summary(path)
    assert rollout_moves.saved(rollout_moves.against_greedy("gin", [3, 6], 2, 0, 1)) == rows  # nothing left to play


LOSES_A_CARD = """
import rummykit


@rummykit.hookimpl
def rummykit_turn_ended(deal, seat):
    if deal.turn == {turn} and deal.stock:
        deal.stock.pop()  # a card gone: a plugin's mistake the real game has not reached yet
"""


@pytest.mark.parametrize(
    ("turn", "moves", "named"),
    [
        (6, None, r"in a play-out, by the end of its hand \(.* ended it\), the deal holds 51 cards"),
        (3, 3, r"in a play-out of .*, by its last move, the deal holds 51 cards"),
    ],
    ids=["the play-out ends its hand", "the play-out stops short"],
)
def test_a_play_out_that_loses_a_card_is_caught(tmp_path: Path, turn: int, moves: int | None, named: str) -> None:
    """The search bot's play-outs count the deal's cards when their hand ends, or when they stop short of it,
    rather than after every move: a plugin that loses a card in a play-out is still named, and the real game,
    counting after every action, names the action that lost it."""
    from rummykit.dispatch import PluginError

    source = tmp_path / "loses_a_card.py"
    source.write_text(LOSES_A_CARD.format(turn=turn), encoding="utf-8")
    variant = rummykit.load_variant("gin", plugins=[source])
    game = variant.new_game(seed=3)
    greedy = GreedyBot(seed=3)
    while game.deal.turn < 2:
        game.apply(greedy.choose(game))
    position = game.clone()
    bot = SearchBot(seed=1, iterations=2, rollout_moves=moves)
    with pytest.raises(PluginError, match="loses-a-card.*" + named):
        while True:  # a decision with candidates to play out, before the real game reaches the lossy turn
            assert game.deal.turn < turn
            game.apply(bot.choose(game))
    with pytest.raises(PluginError, match=r"loses-a-card.*after discard \w\w the deal holds 51 cards"):
        while True:
            position.apply(greedy.choose(position))
