"""Actions and positions described through hooks (``rummykit_describe_action``, ``rummykit_describe_position``):
the words the terminal shows, the flag the greedy bot acts on, and cards that must not leak."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rummykit
from rummykit.actions import action_words, position_words
from rummykit.bots import GreedyBot
from rummykit.cli import TurnPrinter, describe_position
from rummykit.engine import Game
from rummykit.simulate import play_game

TOY = Path(__file__).parent / "toy"

FOLD_PLUGIN = '''
"""A house rule adding a new verb: in the discard phase a player may fold, and the hand is dead."""
import rummykit
from rummykit import Action, ActionWords

FOLD = Action("fold")


@rummykit.hookimpl
def rummykit_legal_actions(deal, actions):
    if deal.phase == "discard":
        actions.append(FOLD)


@rummykit.hookimpl
def rummykit_apply_action(deal, action):
    if action.kind != "fold":
        return None
    deal.finish("dead")
    return True


@rummykit.hookimpl
def rummykit_describe_action(deal, seat, action, viewer):
    if action.kind == "fold":
        return ActionWords("fold the hand", "folds the hand", ends_hand=ENDS)
    return None


@rummykit.hookimpl
def rummykit_describe_position(deal, seat, words):
    if deal.phase == "discard":
        words.hint += ", or fold"
    words.verbs.append("fold")
'''


def fold_variant(tmp_path: Path, ends_hand: bool) -> rummykit.Variant:
    path = tmp_path / "fold_rule.py"
    path.write_text(FOLD_PLUGIN.replace("ENDS", str(ends_hand)), encoding="utf-8")
    return rummykit.load_variant("gin", plugins=[path])


def to_discard_phase(game: Game) -> None:
    while game.deal.phase != "discard":
        game.apply("pass" if game.deal.phase == "offer" else "draw stock")


def test_a_new_verb_is_shown_in_its_own_words(tmp_path: Path) -> None:
    game = fold_variant(tmp_path, ends_hand=True).new_game(seed=3)
    to_discard_phase(game)
    deal, seat = game.deal, game.deal.actor
    assert position_words(deal, seat).hint == "discard a card, or fold"
    lines: list[str] = []
    you, onlooker = TurnPrinter(lines.append, viewer=seat), TurnPrinter(lines.append)
    game.apply("fold")
    assert you.action_text(game, deal, seat, rummykit.Action("fold")) == "You fold the hand"
    assert onlooker.action_text(game, deal, seat, rummykit.Action("fold")) == f"{game.names[seat]} folds the hand"
    assert deal.result is not None and deal.result.kind == "dead"


def test_a_mistyped_new_verb_is_suggested(tmp_path: Path) -> None:
    from rummykit.cli import did_you_mean

    game = fold_variant(tmp_path, ends_hand=True).new_game(seed=3)
    assert did_you_mean(game, "fodl") == "fold"  # not legal in the offer phase, but a verb of this game


@pytest.mark.parametrize("ends_hand", [True, False])
def test_the_greedy_bot_takes_an_action_that_ends_the_hand(tmp_path: Path, ends_hand: bool) -> None:
    game = fold_variant(tmp_path, ends_hand).new_game(seed=3)
    to_discard_phase(game)
    assert not any(a.kind == "knock" for a in game.legal_actions())
    chosen = GreedyBot(0).choose(game)
    assert (chosen.kind == "fold") is ends_hand
    if not ends_hand:
        assert chosen.kind == "discard"


def test_gin_verbs_end_the_hand_and_others_do_not() -> None:
    variant = rummykit.load_variant("gin", house_rules=["big-gin"])
    deal = variant.new_game(seed=1).deal
    flags = {
        kind: action_words(deal, deal.actor, rummykit.Action.parse(kind)) for kind in ("knock 7H", "big gin", "pass")
    }
    assert {kind: words.ends_hand for kind, words in flags.items() if words} == {
        "knock 7H": True,
        "big gin": True,
        "pass": False,
    }
    assert flags["knock 7H"] is not None and flags["knock 7H"].they == "knocks, discarding a card face down"
    assert flags["knock 7H"].you == "knock with 7H face down"


def play_toy(players: int, seed: int) -> tuple[Game, list[tuple[object, int, rummykit.Action]]]:
    variant = rummykit.load_variant(str(TOY / "toy.yaml"), plugins=[TOY / "toy_rummy.py"])
    game = variant.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    moves = []
    while not game.is_over:
        deal, seat = game.deal, game.deal.actor
        action = rng.choice(game.legal_actions())
        game.apply(action)
        moves.append((deal, seat, action))
    return game, moves


def test_the_kernel_describes_every_verb_of_its_own() -> None:
    seen: dict[str, str] = {}
    for seed in range(4):
        game, moves = play_toy(3, seed)
        printer = TurnPrinter(lambda line: None)
        for deal, seat, action in moves:
            line = printer.action_text(game, deal, seat, action)  # type: ignore[arg-type]
            assert not line.startswith(f"{game.names[seat]}:"), line  # described, not the bare action
            seen.setdefault(action.kind if not action.groups else "meld x2", line)
    for kind in ("draw stock", "take pile with", "meld x2", "offer", "accept", "decline"):
        assert kind in seen, sorted(seen)
    assert re.fullmatch(r"Player \d melds (\S+ )+\| (\S+ ?)+", seen["meld x2"]), seen["meld x2"]
    assert "takes the discard pile, melding its top card" in seen["take pile with"]
    deal = game.deal
    swap = action_words(deal, 0, rummykit.Action.parse("swap 6H on 0"), 1)
    assert swap is not None and not swap.ends_hand
    assert swap.they.startswith("swaps 6H for the wild card in meld 0 (now ")


def test_an_offered_card_is_named_only_to_the_seats_it_was_offered_to() -> None:
    variant = rummykit.load_variant(str(TOY / "toy.yaml"), plugins=[TOY / "toy_rummy.py"])
    game = variant.new_game(players=3, seed=4)
    while not any(a.kind == "offer" for a in game.legal_actions()):
        game.apply(GreedyBot(0).choose(game) if game.deal.phase != "offered" else "decline")
    deal = game.deal
    offerer = deal.actor
    offer = next(a for a in game.legal_actions() if a.kind == "offer")
    card = str(offer.cards[0])
    game.apply(offer)
    asked = deal.responder
    assert asked is not None
    third = next(s for s in deal.seats if s not in (offerer, asked))

    def line(viewer: int | None, seat: int, action: rummykit.Action) -> str:
        return TurnPrinter(lambda text: None, viewer=viewer).action_text(game, deal, seat, action)

    assert line(offerer, offerer, offer) == f"You offer {card}"
    assert line(asked, offerer, offer) == f"{game.names[offerer]} offers {card}"
    assert card not in line(third, offerer, offer)
    assert card not in line(None, offerer, offer)
    # The seat asked is told which card, on its turn to answer.
    lines = describe_position(game, asked, TurnPrinter(lambda text: None, viewer=asked))
    assert f"offers you {card}: accept or decline" in lines[1]
    # Declined: the third seat is asked now and sees it; an onlooker still does not.
    decline = rummykit.Action("decline")
    game.apply(decline)
    assert deal.responder == third
    assert card in line(third, asked, decline)
    assert card not in line(None, asked, decline)
    assert line(asked, asked, decline) == f"You decline {card}"


def test_the_terminal_shows_the_words_of_the_hooks_for_a_whole_game() -> None:
    """Bots' lines in Gin, 500 Rum and the toy game: every action described, no bare ``Player 1: ...``."""
    for name, kwargs in (("gin", {"options": {"rules": {"settlement": "manual"}}}), ("500-rum", {})):
        variant = rummykit.load_variant(name, **kwargs)  # type: ignore[arg-type]
        lines: list[str] = []
        printer = TurnPrinter(lines.append, show_hands=False)
        play_game(variant, 5, ["random", "random"], 2, on_action=printer, on_start=printer.start, max_hands=2)
        assert not [text for text in lines if re.match(r"  Player \d: ", text)]


def test_the_position_words_of_gin_and_500_rum() -> None:
    gin = rummykit.load_variant("gin").new_game(seed=1)
    words = position_words(gin.deal, gin.deal.actor)
    assert (words.hint, words.facts) == ("take the upcard (draw discard) or pass", ["Knock limit: 10"])
    assert {"pass", "knock", "done", "draw stock"} <= set(words.verbs) and "big gin" not in words.verbs
    big = rummykit.load_variant("gin", ["big-gin"]).new_game(seed=1)  # a verb of its own only when it is played
    assert "big gin" in position_words(big.deal, big.deal.actor).verbs
    assert big.variant.verbs == gin.variant.verbs  # declared in both: the same action space
    rum = rummykit.load_variant("500-rum").new_game(seed=1)
    words = position_words(rum.deal, rum.deal.actor)
    assert (words.hint, words.facts) == ("draw a card (draw stock, draw discard)", [])
    assert "knock" not in words.verbs and "end" in words.verbs
    deepest = next(a for a in rum.legal_actions() if a.kind == "draw discard")
    rum.apply(deepest)
    assert position_words(rum.deal, rum.deal.actor).hint == (
        f"meld or lay off {deepest.cards[0]} first, the deepest card you took"
    )
