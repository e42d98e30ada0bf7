"""Game.clone() and pickling: independent copies that go on exactly as the original would."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest

import rummykit
from rummykit.engine import Game

VARIANTS = [
    ("gin", 2),
    ("oklahoma-gin", 2),
    ("gin-3", 3),
    ("gin-partnership", 4),
    ("500-rum", 3),
    ("500-partnership", 4),
    ("persian", 4),
    ("fortune", 2),
    ("arlington", 3),
    ("iceberg", 4),
    ("skarney", 4),
    ("skarney-singles", 2),
]


def play(game: Game, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def state(game: Game) -> tuple[object, ...]:
    deal = game.deal
    return (
        game.to_json(),
        [list(map(str, hand)) for hand in deal.hands],
        list(map(str, deal.stock)),
        list(map(str, deal.discard)),
        [(str(tm), tm.owner, sorted(tm.credits.items()), tm.first_size) for tm in deal.table],
        {name: [list(map(str, held)) for held in zone.cards] for name, zone in deal.zones.items()},
        [sorted(ids) for ids in deal.known],
        sorted((k, sorted(v)) for k, v in deal.seen.items()),
        sorted(deal.face_down),
        deal.phase,
        deal.current,
        game.rng.getstate(),
    )


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_clone_is_independent_and_goes_on_identically(name: str, players: int) -> None:
    game = rummykit.load_variant(name).new_game(players=players, seed=11)
    play(game, random.Random(1), 40)
    before = state(game)
    twin = game.clone()
    assert twin.variant is game.variant
    assert state(twin) == before

    play(twin, random.Random(2), 200)  # long enough to cross into later deals, reshuffling from the game's rng
    assert state(game) == before, "playing the clone changed the original"

    play(game, random.Random(2), 200)
    assert state(game) == state(twin)


@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_games_pickle_and_deepcopy(name: str, players: int) -> None:
    game = rummykit.load_variant(name).new_game(players=players, seed=5)
    play(game, random.Random(3), 25)
    copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    play(game, random.Random(4), 60)
    for copied in copies:
        assert copied.variant is game.variant  # loaded again by name in this process: the same object
        play(copied, random.Random(4), 60)
        assert state(copied) == state(game)


def test_pickle_keeps_house_rules_options_and_local_plugins(undercut_double_plugin: Path) -> None:
    variant = rummykit.load_variant(
        "gin", house_rules=["undercut-double"], options={"target": 150}, plugins=[undercut_double_plugin]
    )
    game = variant.new_game(seed=2)
    copied = pickle.loads(pickle.dumps(game))
    assert copied.variant is variant
    assert copied.variant.house_rules == ("undercut-double",)
    assert copied.variant.ruleset["target"] == 150


@pytest.mark.parametrize("name", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_clone_after_finished_hands(name: str) -> None:
    """A clone shares what finished hands left (their actions and results) and the generator's state with
    nothing: playing either on, through further hands, leaves the other as it was."""
    from rummykit.bots import GreedyBot

    game = rummykit.load_variant(name).new_game(seed=21)
    bots = [GreedyBot(seat) for seat in range(game.num_players)]
    while not game.is_over and len(game.results) < 2:
        game.apply(bots[game.deal.actor].choose(game))
    if game.is_over:
        pytest.skip("the game ended within two hands")
    play(game, random.Random(5), 7)
    before = state(game)
    twin = game.clone()
    assert state(twin) == before

    play(twin, random.Random(6), 400)  # into later hands: new deals from the clone's own generator
    assert state(game) == before, "playing the clone changed the original"
    play(game, random.Random(6), 400)
    assert state(game) == state(twin)
    assert game.history == twin.history and game.results == twin.results


def test_a_deep_copy_shares_no_finished_hand_and_its_lists_are_its_own() -> None:
    """``copy.deepcopy`` of a game copies the finished hands' results (their details are dicts), where
    ``clone`` shares them; the game's own lists (names, scores, actions) are new lists either way."""
    from rummykit.bots import GreedyBot

    game = rummykit.load_variant("gin").new_game(seed=4)
    bots = [GreedyBot(seat) for seat in range(game.num_players)]
    while not game.results:
        game.apply(bots[game.deal.actor].choose(game))
    copied, twin = copy.deepcopy(game), game.clone()
    assert copied.results == game.results and copied.results[0] is not game.results[0]
    assert twin.results[0] is game.results[0]
    for other in (copied, twin):
        for field in ("names", "scores", "bonuses", "results", "_actions", "_automatic"):
            assert getattr(other, field) is not getattr(game, field), field
        assert other._actions[-1] is not game._actions[-1]
        other.scores[0] += 1
        other._actions[-1].append(other._actions[0][0])
    assert game.scores != copied.scores and len(game._actions[-1]) + 1 == len(twin._actions[-1])


def test_a_clone_shares_no_mutable_part_and_keeps_what_is_shared_shared() -> None:
    """The clone's lists, sets and dicts of cards are new objects (changing them leaves the game as it was), a
    list reached twice (here a plugin's state pointing at a hand) is still one list in the clone, and a subclass
    of a table meld is copied whole."""
    from dataclasses import dataclass

    from rummykit.engine import TableMeld

    @dataclass
    class NotedMeld(TableMeld):
        notes: list[str] | None = None

    @dataclass(slots=True)
    class SlottedMeld(TableMeld):
        notes: list[str] | None = None

    game = rummykit.load_variant("iceberg").new_game(players=4, seed=3)
    play(game, random.Random(3), 120)
    deal = game.deal
    meld = deal.table[0] if deal.table else None
    assert meld is not None, "random play put no meld on the table"
    deal.table.append(NotedMeld(meld.meld, meld.owner, dict(meld.credits), notes=["laid"]))
    deal.table.append(SlottedMeld(meld.meld, meld.owner, dict(meld.credits), notes=["slotted"]))
    meld.remark = ["added"]  # type: ignore[attr-defined]  # an attribute a plugin added
    deal.state["watched hand"] = deal.hands[0]
    zone, seat = next((z, s) for z in deal.zones.values() for s, held in enumerate(z.cards) if held)
    before = state(game)
    twin = game.clone()
    other = twin.deal
    assert other.state["watched hand"] is other.hands[0] is not deal.hands[0]
    for ours, theirs in [(deal.hands, other.hands), (deal.known, other.known), (deal.table, other.table)]:
        assert all(a is not b for a, b in zip(ours, theirs))
    for field in ("stock", "discard", "set_aside", "face_down", "log", "seen"):
        assert getattr(other, field) is not getattr(deal, field) or not getattr(deal, field)
    for copied, original in zip(other.table[-2:], deal.table[-2:]):
        assert type(copied) is type(original) and copied.notes == original.notes  # type: ignore[attr-defined]
        assert copied.notes is not original.notes  # type: ignore[attr-defined]
    assert other.table[0].remark == ["added"] and other.table[0].remark is not meld.remark  # type: ignore[attr-defined]
    other.hands[0].clear()
    other.known[0].add(999)
    other.table[0].credits[999] = 0
    other.zones[zone.name].cards[seat].clear()
    other.stock.clear()
    assert deal.seen, "no card passed face down is seen by its passer alone"
    for seats in other.seen.values():
        seats.add(99)  # each card's seats are a set of the clone's own
    assert state(game) == before


class _Noted(dict):  # type: ignore[type-arg]  # a plugin's state kept in a dict of its own
    pass


class _CopiesItself:
    def __init__(self) -> None:
        self.copies = 0
        self.cards: list[object] = []

    def __deepcopy__(self, memo: dict[int, object]) -> _CopiesItself:
        twin = _CopiesItself()
        twin.copies, twin.cards = self.copies + 1, list(self.cards)
        return twin


def test_a_clone_copies_each_plugin_state_as_deepcopy_would() -> None:
    """``deal.state`` holds each mechanic's and plugin's state: a clone copies a plain one (a dataclass) field
    by field, its lists, sets and dicts of numbers, text and cards new and the rest deep-copied, a list reached
    twice still one list; a state that copies itself, keeps slots or is a dict underneath is deep-copied."""
    from dataclasses import dataclass, field

    @dataclass
    class Plain:
        count: int = 0
        ids: set[int] = field(default_factory=set)
        places: dict[int, int] = field(default_factory=dict)
        cards: list[object] = field(default_factory=list)
        pairs: list[tuple[int, list[int]]] = field(default_factory=list)
        fixed: tuple[int, ...] = (1, 2)
        same: list[object] | None = None
        hand: list[object] | None = None
        states: dict[str, object] | None = field(default=None, compare=False)  # it holds this state

    @dataclass(slots=True)
    class Slotted:
        ids: list[int] = field(default_factory=list)

    game = rummykit.load_variant("gin").new_game(seed=5)
    play(game, random.Random(5), 7)
    deal = game.deal
    plain = Plain(3, {1, 2}, {4: 5}, list(deal.hands[0][:2]), [(1, [2])], (1, 2))
    plain.same, plain.hand, plain.states = plain.cards, deal.hands[1], deal.state
    noted = _Noted(seen=[1])
    own, slotted = _CopiesItself(), Slotted([7])
    deal.state.update({"plain": plain, "noted": noted, "own": own, "slotted": slotted})
    clone = game.clone()
    twin = clone.deal.state
    copied = twin["plain"]
    assert type(copied) is Plain and copied == plain and copied is not plain
    for name in ("ids", "places", "cards", "pairs", "hand"):
        assert getattr(copied, name) is not getattr(plain, name)
    assert copied.pairs[0][1] is not plain.pairs[0][1]  # a list inside a tuple inside the list: deep-copied
    assert copied.fixed is plain.fixed and copied.cards[0] is plain.cards[0]  # immutable: shared
    assert copied.same is copied.cards and copied.hand is clone.deal.hands[1]  # a list reached twice: one list
    assert copied.states is twin  # a state keeping deal.state keeps the copy's
    assert type(twin["noted"]) is _Noted and twin["noted"] == noted and twin["noted"]["seen"] is not noted["seen"]
    assert type(twin["own"]) is _CopiesItself and twin["own"].copies == 1  # its own __deepcopy__
    assert type(twin["slotted"]) is Slotted and twin["slotted"].ids == [7] and twin["slotted"].ids is not slotted.ids
    copied.ids.add(9)
    copied.places[0] = 0
    copied.pairs[0][1].append(3)
    twin["noted"]["seen"].append(2)
    assert plain == Plain(3, {1, 2}, {4: 5}, plain.cards, [(1, [2])], (1, 2), plain.cards, plain.hand)
    assert plain.states is deal.state
    assert noted == {"seen": [1]}


@pytest.mark.skipif(rummykit.COMPILED, reason="the compiled build's Meld cannot be subclassed")
def test_a_meld_subclass_pickles_and_copies_as_itself() -> None:
    from dataclasses import dataclass

    from rummykit.melds import Meld

    @dataclass(frozen=True)
    class TaggedMeld(Meld):
        tag: str = ""

    meld = rummykit.load_variant("gin").arrange("7H 8H 9H").melds[0]
    tagged = TaggedMeld(meld.kind, meld.cards, meld.ranks, meld.suit, meld.wilds, meld.represents, tag="x")
    assert copy.deepcopy(tagged) is tagged
    globals()["TaggedMeld"] = TaggedMeld  # pickle finds a class by its module's name
    TaggedMeld.__qualname__ = "TaggedMeld"
    back = pickle.loads(pickle.dumps(tagged))
    assert type(back) is TaggedMeld and back == tagged and back.tag == "x"


def test_a_clone_copies_the_random_generator_and_a_subclass_of_it() -> None:
    """The copy's generator is in the same state and independent (it deals the same next hands); a subclass of
    ``random.Random`` stays one."""

    class Counted(random.Random):
        pass

    game = rummykit.load_variant("gin").new_game(seed=4)
    game.rng.gauss(0, 1)  # gauss draws two numbers and keeps one for its next call: the copy keeps it too
    twin = game.clone()
    assert type(twin.rng) is random.Random and twin.rng is not game.rng
    assert twin.rng.gauss(0, 1) == game.rng.gauss(0, 1)
    assert twin.rng.getstate() == game.rng.getstate()
    assert [twin.rng.random() for _ in range(3)] == [game.rng.random() for _ in range(3)]
    game.rng = Counted(9)
    other = game.clone()
    assert type(other.rng) is Counted and other.rng is not game.rng
    assert other.rng.random() == game.rng.random()
