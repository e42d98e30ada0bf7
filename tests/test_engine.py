"""The engine as Gin drives it: records and replay, seeds, prearranged deals, action text and errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit import Action, Game, IllegalAction
from rummykit.bots import GreedyBot, make_bot
from rummykit.cards import CardError, parse_card
from rummykit.simulate import play_game

MANUAL = {"rules": {"settlement": "manual"}}


def state_of(game: Game) -> dict[str, Any]:
    """Everything about a game's state that replay must reproduce."""
    deal = game.deal
    return {
        "scores": list(game.scores),
        "hands": [r.as_dict() for r in game.results],
        "bonuses": list(game.bonuses),
        "is_over": game.is_over,
        "winner": game.winner,
        "history": game.history,
        "deal": deal.number,
        "dealer": deal.dealer,
        "phase": deal.phase,
        "current": game.current_player,
        "cards": [[str(c) for c in h] for h in deal.hands],
        "stock": [str(c) for c in deal.stock],
        "discard": [str(c) for c in deal.discard],
        "face_down": sorted(deal.face_down),
        "table": [(tm.owner, str(tm.meld)) for tm in deal.table],
        "known": [sorted(k) for k in deal.known],
        "taken": str(deal.taken),
        "state": repr(sorted(deal.state.items())),
        "legal": [str(a) for a in game.legal_actions()],
        "observations": [game.observation(s) for s in range(game.num_players)],
    }


def play(game: Game, bots: list[Any], limit: int | None = None) -> int:
    """Let bots play (at most ``limit`` actions); returns how many actions were applied."""
    count = 0
    while not game.is_over and (limit is None or count < limit):
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game))
        count += 1
    return count


def bots_for(kind: str, seed: int) -> list[Any]:
    return [make_bot(kind, seed * 2), make_bot(kind, seed * 2 + 1)]


# -- records and replay ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_game_replays_to_the_identical_state(kind: str, seed: int) -> None:
    variant = rummykit.load_variant("gin")
    game = variant.new_game(seed=seed)
    play(game, bots_for(kind, seed), limit=None if kind == "greedy" else 600)
    record = game.to_json()
    again = Game.from_json(record)
    assert state_of(again) == state_of(game)
    assert again.to_json() == record


@pytest.mark.parametrize("kind", ["random", "greedy"])
@pytest.mark.parametrize("stop", [0, 1, 2, 5, 37, 120])
def test_a_game_recorded_mid_hand_replays_and_plays_on_identically(kind: str, stop: int) -> None:
    variant = rummykit.load_variant("gin")
    game = variant.new_game(seed=stop + 40)
    play(game, bots_for(kind, stop), limit=stop)
    again = Game.from_json(game.to_json())
    assert state_of(again) == state_of(game)
    # Both go on with the same moves and stay identical.
    more = bots_for(kind, 99)
    for _ in range(150):
        if game.is_over:
            break
        action = more[game.current_player or 0].choose(game)
        game.apply(action)
        again.apply(str(action))
        assert state_of(again) == state_of(game)


def test_a_prearranged_manual_settlement_game_replays() -> None:
    variant = rummykit.load_variant("gin", options=MANUAL)
    deal = {
        "dealer": 1,
        "hands": [
            ["7S", "7H", "7D", "9C", "TC", "JC", "3H", "4H", "5H", "8D"],
            "2S 3S 4S QD QH QC 8C KH 5D TS".split(),
        ],
        "discard": ["2C"],
        "stock": ["KS"],
    }
    game = variant.new_game(seed=5, layout=deal)
    for text in [
        "pass",
        "pass",
        "draw stock",
        "knock KS",
        "meld 7S 7H 7D",
        "meld 9C TC JC",
        "meld 3H 4H 5H",
        "done",
        "meld 2S 3S 4S",
        "meld QD QH QC",
    ]:
        game.apply(text)
    mid = Game.from_json(game.to_json())
    assert state_of(mid) == state_of(game)
    assert mid.deal.phase == "opponent-melds"
    game.apply("layoff 8C on 1")
    game.apply("done")
    record = json.loads(game.to_json())
    assert record["options"] == MANUAL
    assert record["deal"]["hands"][0][0] == "7S"
    again = Game.from_json(game.to_json())
    assert state_of(again) == state_of(game)
    assert again.results[0].scores == (17, 0)


def test_records_that_do_not_replay_are_refused() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    play(game, bots_for("greedy", 3), limit=300)
    record = json.loads(game.to_json())
    with pytest.raises(ValueError, match="not a rummykit record"):
        Game.from_json(json.dumps({"format": "something else"}))
    wrong_scores = dict(record, scores=[s + 1 for s in record["scores"]])
    with pytest.raises(ValueError, match="does not replay"):
        Game.from_json(json.dumps(wrong_scores))
    bad_action = dict(record, actions=[["discard 7H 7H 7H"]])
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(bad_action))
    # A card the record names that is no card is told as at the terminal, not as an unknown verb.
    actions = [list(record["actions"][0])]
    at = next(i for i, text in enumerate(actions[0]) if text.startswith("discard "))
    actions[0][at] = "discard zz"
    with pytest.raises(ValueError, match=r"does not replay: deal 1: discard zz is not allowed: 'zz' is not a card"):
        Game.from_json(json.dumps(dict(record, actions=actions)))


# -- seeds ------------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_identical_game() -> None:
    variant = rummykit.load_variant("gin")
    records = []
    for _ in range(2):
        game = variant.new_game(seed=1234)
        play(game, bots_for("greedy", 8))
        records.append(game.to_json())
    assert records[0] == records[1]
    first = variant.new_game(seed=1234)
    other = variant.new_game(seed=1235)
    assert [first.deal.hands, first.deal.stock] != [other.deal.hands, other.deal.stock]


def test_the_same_seed_and_prearranged_deal_shuffle_the_unnamed_cards_alike() -> None:
    variant = rummykit.load_variant("gin")
    deal = {
        "dealer": 0,
        "hands": ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS".split(), "AH 2H 3H 4H 5H 6H 7H 8H 9H TH".split()],
        "discard": ["KD"],
        "stock": ["QD", "JD"],
    }
    a = variant.new_game(seed=9, layout=deal)
    b = variant.new_game(seed=9, layout=deal)
    c = variant.new_game(seed=10, layout=deal)
    assert a.deal.stock == b.deal.stock
    assert a.deal.stock != c.deal.stock
    assert [str(x) for x in a.deal.stock[-2:]] == ["JD", "QD"]  # the top of the stock is the last element
    assert len(a.deal.stock) == 31
    assert a.deal.dealer == 0 and a.current_player == 1
    a.check_cards()


# -- prearranged deals ------------------------------------------------------------------------------------


def test_prearranged_deal_errors_are_value_errors_with_clear_messages() -> None:
    variant = rummykit.load_variant("gin")
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS".split()
    other = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH".split()
    with pytest.raises(ValueError, match="names AS more times than the deck holds it"):
        variant.new_game(seed=1, layout={"hands": [hand, ["AS"] + other[1:]]})
    with pytest.raises(ValueError, match="names 7H more times"):
        variant.new_game(seed=1, layout={"hands": [hand, other], "discard": ["7H"]})
    with pytest.raises(ValueError, match="names TS more times"):
        variant.new_game(seed=1, layout={"hands": [hand, other], "stock": ["KC", "TS"]})
    with pytest.raises(ValueError, match="'hands' has 1 hands for 2 players"):
        variant.new_game(seed=1, layout={"hands": [hand]})
    with pytest.raises(ValueError, match="'hands' has 3 hands for 2 players"):
        variant.new_game(seed=1, layout={"hands": [hand, other, ["KC"]]})
    with pytest.raises(ValueError, match="unknown keys"):
        variant.new_game(seed=1, layout={"hands": [hand, other], "upcard": "KC"})
    with pytest.raises(ValueError):
        variant.new_game(seed=1, layout={"hands": [hand, other[:-1] + ["1X"]]})
    with pytest.raises(ValueError, match="gin is for 2 players, not 3"):
        variant.new_game(players=3, seed=1)


# -- actions ---------------------------------------------------------------------------------------------------


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
    game = rummykit.load_variant("gin").new_game(seed=4)
    with pytest.raises(ValueError):
        game.apply("discard KS on")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("draw stock", Action("draw stock")),
        ("draw discard", Action("draw discard")),
        ("pass", Action("pass")),
        ("discard 7H", Action("discard", (parse_card("7H"),))),
        ("knock TC", Action("knock", (parse_card("TC"),))),
        ("knock 10c", Action("knock", (parse_card("TC"),))),
        ("big gin", Action("big gin")),
        ("meld 7S 7H 7D", Action("meld", tuple(map(parse_card, ["7S", "7H", "7D"])))),
        ("meld 7S, 7H, 7D", Action("meld", tuple(map(parse_card, ["7S", "7H", "7D"])))),
        ("layoff 8C on 2", Action("layoff", (parse_card("8C"),), 2)),
        ("  Done ", Action("done")),
    ],
)
def test_action_text_parses(text: str, expected: Action) -> None:
    action = Action.parse(text)
    assert action == expected
    assert Action.parse(str(action)) == action


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty action"),
        ("7H", "no verb"),
        ("discard 7H 9Z", "is not a card"),
        ("layoff 8C on two", "meld number"),
        ("layoff 8C on 2 please", "unexpected text"),
    ],
)
def test_bad_action_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Action.parse(text)


def test_every_legal_action_round_trips_through_its_text() -> None:
    seen: set[str] = set()
    for options in (None, MANUAL):
        variant = rummykit.load_variant("gin", options=options)
        for seed in range(4):
            game = variant.new_game(seed=seed)
            bots = bots_for("greedy" if seed % 2 else "random", seed)
            while not game.is_over and len(game.results) < 2:
                for action in game.legal_actions():
                    assert Action.parse(str(action)) == action
                    assert game.resolve(str(action)) == action
                    seen.add(action.kind)
                seat = game.current_player
                assert seat is not None
                game.apply(bots[seat].choose(game))
    assert {"pass", "draw stock", "draw discard", "discard", "knock", "meld", "done"} <= seen


def test_apply_accepts_action_objects_and_texts_alike() -> None:
    variant = rummykit.load_variant("gin")
    by_text = variant.new_game(seed=21)
    by_object = variant.new_game(seed=21)
    bots = bots_for("greedy", 21)
    while not by_text.is_over and len(by_text.results) < 3:
        action = bots[by_text.current_player or 0].choose(by_text)
        by_text.apply(str(action))
        by_object.apply(action)
        assert state_of(by_text) == state_of(by_object)
    # A fresh Action object equal to a legal one is accepted too, and text in other spellings.
    game = variant.new_game(seed=22)
    game.apply(Action("pass"))
    game.apply("PASS")
    game.apply(Action("draw stock"))
    card = game.deal.hands[game.deal.current][0]
    game.apply(f"discard {str(card).lower()}")
    assert game.deal.discard[-1] is card
    with pytest.raises(IllegalAction):
        game.apply(Action("discard", (card,)))  # no longer in hand, and it is the draw phase


def test_observation_lists_the_legal_actions_as_text_for_the_player_to_act() -> None:
    game = rummykit.load_variant("gin").new_game(seed=6)
    view = game.observation(game.current_player or 0)
    assert view["legal_actions"] == [str(a) for a in game.legal_actions()]
    assert "legal_actions" not in game.observation(1 - (game.current_player or 0))


def test_card_text_accepts_symbols_and_ten() -> None:
    assert parse_card("10H") == parse_card("TH") == parse_card("th")
    with pytest.raises(CardError):
        parse_card("11H")


def test_a_record_names_its_local_plugins_and_replays_with_them(undercut_double_plugin: Path) -> None:
    plugin = undercut_double_plugin
    variant = rummykit.load_variant("gin", house_rules=["undercut-double"], plugins=[plugin])
    game = play_game(variant, 5, ("greedy", "greedy"))
    undercuts = [h for h in game.results if h.kind == "undercut"]
    assert undercuts and all(max(h.scores) % 2 == 0 for h in undercuts)
    record = json.loads(game.to_json())
    assert record["plugins"] == [str(plugin.resolve())]
    with pytest.raises(rummykit.records.UntrustedPlugins, match="undercut_double.py"):
        rummykit.Game.from_json(game.to_json())  # loading the plugin runs its code: only when asked
    for again in (
        rummykit.Game.from_json(game.to_json(), plugins=[plugin]),
        rummykit.Game.from_json(game.to_json(), trust_plugins=True),
    ):
        assert again.scores == game.scores and again.history == game.history


def test_a_bad_card_in_an_action_is_named_as_a_card() -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="'9Z' is not a card"):
        game.apply("discard 9Z")
    assert game.to_json() == before


def test_old_names_still_work_with_a_deprecation_warning() -> None:
    gin = rummykit.load_variant("gin")
    layout = {"dealer": 0, "hands": ["7S 7H 7D 9C TC JC 3H 4H 5H 8D".split(), "2S 3S 4S QD QH QC 8C KH 5D TS".split()]}
    with pytest.warns(DeprecationWarning, match="layout"):
        old = gin.new_game(deal=layout, seed=1)
    new = gin.new_game(layout=layout, seed=1)
    assert old.to_json() == new.to_json()
    with pytest.raises(TypeError, match="not both"):
        gin.new_game(layout=layout, deal=layout)
    with pytest.warns(DeprecationWarning, match="Game.results"):
        assert old.hands is old.results


@pytest.mark.parametrize("name", ["gin", "gin-partnership", "oklahoma-gin"])
def test_hand_totals_are_the_hands_points_before_and_after_the_bonuses(name: str) -> None:
    game = rummykit.load_variant(name).new_game(seed=5)
    bots = [GreedyBot(seat) for seat in range(game.num_players)]
    hands = 0
    while not game.is_over:
        game.apply(bots[game.deal.actor].choose(game))
        if len(game.results) > hands or game.is_over:
            hands = len(game.results)
            sums = [sum(r.scores[seat] for r in game.results) for seat in range(game.num_players)]
            assert game.hand_totals() == sums
    if name != "gin-partnership":  # its partnerships score no end-of-game bonuses
        assert game.bonuses and game.scores != game.hand_totals()  # the bonuses are not hand points
    # the sums follow the results as they are: fewer hands, other hands
    del game.results[2:]
    assert game.hand_totals() == [sum(r.scores[seat] for r in game.results[:2]) for seat in range(game.num_players)]
    game.results = [game.results[1]]
    assert game.hand_totals() == list(game.results[0].scores)


def test_text_naming_no_card_is_refused_for_its_card_only_after_a_verb_that_names_cards() -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)  # the upcard offer: draw discard or pass
    with pytest.raises(IllegalAction, match=r"^knock q is not allowed: 'q' is not a card: expected a rank"):
        game.resolve("knock q")
    with pytest.raises(IllegalAction, match=r"^pass zz is not allowed: not a legal action now\. Legal now: "):
        game.resolve("pass zz")  # 'pass' names no card: the game's own refusal
