"""Each verb of the plain turn and of every mechanic has one check (rummykit.standard.Legality), and the
listing, the acceptance of typed actions and the refusal's reason all come from it: at every position of
random games of rulesets that use only the kernel's plugins, a verb whose check refuses it now is not
listed; the listed actions of a verb are exactly those its check passes (every card of the hand, every table
meld, tried); a typed action the check passes is accepted; and one it refuses is refused with its reason."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rummykit
from rummykit import mechanics, standard
from rummykit.actions import Action, IllegalAction
from rummykit.bots import RandomBot
from rummykit.engine import Game

BASE = """\
name: NAME
title: Checked Rummy
summary: A ruleset of the kernel's plugins only.
plugins: []
players: {min: 2, max: 4}
decks: {count: 1, jokers: 0}
deal: {hand_size: 7}
discard_pile: squared
table: {melds: true, layoff: any}
melds: {sets: true, runs: true}
target: 100
max_hands: 2
"""
WILD = "melds: {sets: true, runs: true, wild: ['2'], max_wilds: 1}\n"
RULESETS = {
    "plain": ("", ()),
    "offers": ("turn: {end: offer}\n", ("offers",)),
    "end-turn": ("turn: {end: done}\n", ("end_turn",)),
    "top-deepest": ("draw: {from_pile: top, must_use: deepest}\n", ("pile_draw",)),
    "any-deepest": ("discard_pile: fanned\ndraw: {from_pile: any, must_use: deepest}\n", ("pile_draw",)),
    "any": ("discard_pile: fanned\ndraw: {from_pile: any}\n", ("pile_draw",)),
    "no-pile": ("draw: {from_pile: none}\n", ()),
    "whole": ("draw: {from_pile: whole}\n", ("whole_pile",)),
    "whole-top": ("draw: {from_pile: whole, must_use: top, top_layoff: true}\n", ("whole_pile",)),
    "refill": ("draw: {empty_stock: turn-over, rebuilds: 1}\n", ("refill",)),
    "exchange": ("table: {melds: true, layoff: any, exchange: any}\n" + WILD, ("exchange",)),
    "own-required": ("table: {melds: true, layoff: own, discard_to_go_out: required}\n", ()),
    "pass": ("discard_pile: none\ndraw: {from_pile: none}\nturn: {discard_to: right}\n", ("pass_face_down",)),
}


def load(tmp_path: Path, name: str) -> rummykit.Variant:
    extra, _ = RULESETS[name]
    text = BASE.replace("NAME", name)
    for line in extra.splitlines(keepends=True):  # a line of the extra replaces the base's line of its key
        key = line.split(":", 1)[0]
        text = "".join(x for x in text.splitlines(keepends=True) if not x.startswith(key + ":"))
    path = tmp_path / f"{name}.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return rummykit.load_variant(str(path))


def candidates(game: Game, verb: str) -> list[Action]:
    """Actions of ``verb`` a player might type now: bare, each card of the hand (and of the pile), each on
    every table meld (and one past them), and runs of two and three cards of the hand."""
    deal = game.deal
    hand = sorted({c.face: c for c in deal.hands[deal.actor]}.values(), key=lambda c: (c.suit, c.rank))
    found = [Action(verb)]
    for card in [*hand, *{c.face: c for c in deal.discard}.values()]:
        found.append(Action(verb, (card,)))
        found += [Action(verb, (card,), target) for target in range(len(deal.table) + 1)]
    for size in (2, 3):
        found += [Action(verb, tuple(hand[i : i + size])) for i in range(len(hand) - size + 1)]
    found += [Action(verb, (), target) for target in range(len(deal.table) + 1)]
    return found


def refused_for(game: Game, action: Action) -> str:
    with pytest.raises(IllegalAction) as refused:
        game.resolve(action)
    return str(refused.value).split(" is not allowed: ", 1)[1].split(". Legal now:", 1)[0]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_one_check_per_verb_lists_accepts_and_refuses(tmp_path: Path, name: str) -> None:
    variant = load(tmp_path, name)
    assert variant.mechanics == tuple(f"rummykit.mechanics.{m}" for m in RULESETS[name][1])
    rules = mechanics.legality(variant)
    assert set(variant.verbs) <= set(rules), "every declared verb has its check"
    checked: dict[str, set[str]] = {verb: set() for verb in rules}
    offered = "a card is offered to you: accept or decline it first"
    for seed in range(2):
        game = variant.new_game(2, seed=seed)
        bot, rng = RandomBot(seed), random.Random(seed)
        steps = 0
        while not game.is_over and steps < 60:
            deal = game.deal
            legal = game.legal_actions()
            for verb, rule in rules.items():
                listed = [a for a in legal if a.kind == verb]
                if rule.now(deal) is not None:
                    assert not listed, (verb, deal.phase, listed)
                    checked[verb].add("refused now")
                for action in listed:
                    assert rule.problem(deal, action) is None, (verb, action)
                    checked[verb].add("listed")
                if not listed and rng.random() > 0.3:  # typed where the verb is listed, and at a sample of others
                    continue
                for action in candidates(game, verb):
                    problem = rule.problem(deal, action)
                    is_listed = any(a.same_as(action) for a in listed)
                    # a verb that names cards asks for them, unless it is declared bare too
                    complete = bool(action.cards) or not rule.bare or "bare" in variant.verbs[verb].shapes
                    if problem is None and complete:
                        accepted = game.resolve(action)
                        assert (accepted.kind, accepted.target) == (action.kind, action.target)
                        if action.cards:  # a bare one may stand for the one listed (the one card to take)
                            assert sorted(c.face for c in accepted.cards) == sorted(c.face for c in action.cards)
                        else:
                            assert accepted in listed
                        checked[verb].add("accepted")
                        bounded = verb in ("meld", "take pile with") or (verb == "layoff" and len(action.cards) > 1)
                        if action.cards and (not bounded or deal.phase == "use"):
                            assert is_listed, f"{action} passes its check but is not listed"
                    elif problem is not None:
                        assert not is_listed, f"{action} is listed, but its check says: {problem}"
                        reason = rule.refusal(deal, action)
                        if deal.phase == "offered" and verb not in ("accept", "decline"):
                            assert refused_for(game, action) == offered  # the phase's own words come first
                        elif reason is not None:
                            assert refused_for(game, action) == reason
                            checked[verb].add("refused")
            game.apply(bot.choose(game))
            steps += 1
    for verb, seen in checked.items():
        if "listed" in seen and verb not in ("end", "end turn", "accept", "decline"):  # bare verbs, or rare
            assert {"accepted", "refused"} <= seen, (verb, seen)


def test_a_refusal_gives_the_check_s_reason_for_each_plain_verb(tmp_path: Path) -> None:
    variant = load(tmp_path, "plain")
    game = variant.new_game(2, seed=1)
    hand = game.deal.hands[game.deal.current]
    missing = next(c for c in game.deal.discard + game.deal.stock if c.face not in {h.face for h in hand})
    assert refused_for(game, Action("discard", (hand[0],))) == "draw a card first"
    assert refused_for(game, Action("discard", (missing,))) == f"{missing} is not in your hand"
    assert refused_for(game, Action("meld", tuple(hand[:3]))) == standard.AFTER_DRAW
    game.apply("draw stock")
    assert refused_for(game, Action("draw stock")) == standard.DRAWN
    assert refused_for(game, Action("draw discard")) == standard.DRAWN
    assert refused_for(game, Action("layoff", (hand[0],), 4)) == "there is no table meld 4"
    assert refused_for(game, Action("discard")).startswith("name the card, as in 'discard ")


def test_a_mechanic_s_check_stands_for_the_plain_verb_it_changes(tmp_path: Path) -> None:
    assert mechanics.legality(load(tmp_path, "offers"))["discard"] is mechanics.offers.LEGALITY["discard"]
    assert mechanics.legality(load(tmp_path, "plain"))["discard"] is standard.LEGALITY["discard"]
    game = load(tmp_path, "offers").new_game(2, seed=1)
    game.apply("draw stock")
    card = game.deal.hands[game.deal.current][0]
    reason = "in this game a turn ends with an offer to the other players"
    assert refused_for(game, Action("discard", (card,))) == f"{reason}: 'offer {card}'"
