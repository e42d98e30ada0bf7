"""One place decides legality: listed and typed actions pass the same plugin filters, and filters run in
layers (kernel, game plugins, house rules) so a house rule sees what its game added."""

from __future__ import annotations

from pathlib import Path

import pytest

import rummykit
from rummykit import IllegalAction

NO_KNOCKS = """\
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"no-knocks": {"summary": "Only gin ends a hand.", "variants": ["gin"]}}


@rummykit.hookimpl
def rummykit_legal_actions(deal, actions):
    actions[:] = [a for a in actions if a.kind != "knock"]
"""

NO_MELDS = """\
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"no-melds": {"summary": "Nothing is melded.", "variants": ["500-rum"]}}


@rummykit.hookimpl
def rummykit_legal_actions(deal, actions):
    actions[:] = [a for a in actions if a.kind != "meld"]
"""

KNOCKABLE = {
    "dealer": 1,
    "hands": [
        "7S 7H 7D 9C TC JC 3H 4H 5H 8D 2S".split(),
        "KS KH QD QC JD 9S 6C 4D 2D AC".split(),
    ],
    "discard": ["KC"],
}


def plugin(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


def test_a_house_rule_filter_runs_after_its_game_adds_knocks(tmp_path: Path) -> None:
    path = plugin(tmp_path, "no_knocks", NO_KNOCKS)
    plain = rummykit.load_variant("gin").new_game(layout=KNOCKABLE, seed=1)
    ruled = rummykit.load_variant("gin", house_rules=["no-knocks"], plugins=[path]).new_game(layout=KNOCKABLE, seed=1)
    # The 11-card player opens with a discard; with 8D out the hand (2S) is a knock on 2.
    assert any(a.kind == "knock" for a in plain.legal_actions())
    assert not any(a.kind == "knock" for a in ruled.legal_actions())
    with pytest.raises(IllegalAction):
        ruled.apply("knock 2S")


def test_a_typed_meld_that_a_plugin_removed_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    path = plugin(tmp_path, "no_melds", NO_MELDS)
    deal = {
        "dealer": 1,
        "hands": ["7S 7H 7D 8C 9C TC JC QH KH 2S".split(), "AS AH AD 3C 4C 5C 6C 3D 4D 5D".split()],
        "discard": ["6H"],
    }
    for house_rules, plugins, melds_allowed in (([], [], True), (["no-melds"], [path], False)):
        game = rummykit.load_variant("500-rum", house_rules=house_rules, plugins=plugins).new_game(layout=deal, seed=3)
        game.apply("draw stock")
        assert any(a.kind == "meld" for a in game.legal_actions()) is melds_allowed
        before = game.to_json(), [list(h) for h in game.deal.hands]
        if melds_allowed:
            game.apply("meld 7S 7H 7D")
            assert sorted(str(c) for c in game.deal.table[0].meld.cards) == ["7D", "7H", "7S"]
        else:
            with pytest.raises(IllegalAction):
                game.apply("meld 7S 7H 7D")
            with pytest.raises(IllegalAction):
                game.apply("meld 8C 9C TC")
            assert (game.to_json(), [list(h) for h in game.deal.hands]) == before


ORDER = """\
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {{"{name}": {{"summary": "records when its observe hook runs", "variants": ["gin"]}}}}


@rummykit.hookimpl
def rummykit_observe(deal, seat, view):
    view.setdefault("order", []).append(("{name}", "knock_limit" in view))
"""


def test_in_place_hooks_run_kernel_then_game_then_house_rules_in_order(tmp_path: Path) -> None:
    first = plugin(tmp_path, "first_rule", ORDER.format(name="first-rule"))
    second = plugin(tmp_path, "second_rule", ORDER.format(name="second-rule"))
    variant = rummykit.load_variant("gin", house_rules=["first-rule", "second-rule"], plugins=[first, second])
    view = variant.new_game(seed=1).observation(0)
    # The game's own observe hook (gin's, which adds knock_limit) ran before both house rules.
    assert view["order"] == [("first-rule", True), ("second-rule", True)]


@pytest.mark.parametrize("name", ["skarney-singles", "fortune", "gin"])
def test_resolve_without_its_message_accepts_and_refuses_exactly_what_resolve_does(name: str) -> None:
    # The bots try an action the rules may refuse through Game._legal_form, which skips resolve's message: it
    # must find the same action for whatever resolve accepts (the listed object itself, an equal copy, a meld
    # left out of the capped listing) and None for whatever resolve refuses.
    import random

    from rummykit.toolkit import meld_action

    variant = rummykit.load_variant(name)
    search = variant.meld_search
    rng = random.Random(7)
    compared = refused = unlisted = 0
    for seed in range(3):
        game = variant.new_game(seed=seed, max_hands=1)
        while not game.is_over and compared < 3000:
            listed = game.legal_actions()
            hand = game.deal.hands[game.deal.actor]
            tries: list[rummykit.Action] = list(listed) + [rummykit.Action(a.kind, a.cards, a.target) for a in listed]
            tries += [meld_action(search, m) for m in search.arrange(hand).melds]
            if len(hand) >= 3:
                tries.append(rummykit.Action("meld", tuple(rng.sample(hand, 3))))
            tries.append(rummykit.Action("discard", (game.deck[rng.randrange(len(game.deck))],)))
            for action in tries:
                try:
                    expected: rummykit.Action | None = game.resolve(action)
                except IllegalAction:
                    expected = None
                found = game._legal_form(action)
                assert found == expected, (name, str(action))
                if expected is not None and action in listed:
                    assert found is next(a for a in listed if a == action)
                compared += 1
                refused += expected is None
                unlisted += expected is not None and all(a != expected for a in listed)
            assert game.legal_actions() == listed
            game.apply(rng.choice(listed))
    assert refused and compared - refused  # both answers met
    if name == "skarney-singles":
        assert unlisted  # a meld resolve accepts outside the listing
