"""The mechanics only some games use are plugins of their own (rummykit/mechanics/): each is registered exactly
for the variants whose ruleset selects it, after the plain turn and before the game's plugins; the plain turn
(rummykit/standard.py) reads none of the ruleset values that select them; and a mechanic turned on in a
ruleset of one's own plays whole games."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit import mechanics, standard
from rummykit.bots import RandomBot
from rummykit.mechanics import end_turn, exchange, offers, pass_face_down, pile_draw, refill, whole_pile
from rummykit.settings import KernelSettings

EXPECTED = {
    "gin": [],
    "oklahoma-gin": [],
    "gin-3": [],
    "gin-partnership": [],
    "500-rum": [pile_draw],
    "500-partnership": [pile_draw],
    "persian": [pile_draw],
    "fortune": [whole_pile, refill],
    "arlington": [whole_pile, refill],
    "skarney": [exchange, offers],
    "skarney-singles": [exchange, offers],
    "iceberg": [pass_face_down],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_mechanic_is_registered_exactly_where_the_ruleset_selects_it(name: str) -> None:
    variant = rummykit.load_variant(name)
    expected = [m.__name__ for m in EXPECTED[name]]
    assert list(variant.mechanics) == expected
    registered = [n for n, _ in variant.pm.list_name_plugin()]
    # pluggy lists in registration order: the plain turn, the mechanics, the game's plugins
    assert registered == ["rummykit.standard", *expected, *variant.plugin_names]


def test_a_house_rule_that_sets_a_mechanics_value_brings_it_in() -> None:
    assert rummykit.load_variant("fortune", house_rules=["joker"]).mechanics == (
        whole_pile.__name__,
        exchange.__name__,
        refill.__name__,
    )
    assert rummykit.load_variant("500-rum").mechanics == (pile_draw.__name__,)
    fanned = rummykit.load_variant("gin", options={"discard_pile": "fanned", "draw": {"from_pile": "any"}})
    assert fanned.mechanics == (pile_draw.__name__,)  # the cards taken simply go into the hand
    turned = rummykit.load_variant("500-rum", options={"draw": {"empty_stock": "turn-over"}})
    assert turned.mechanics == (pile_draw.__name__, refill.__name__)


def test_every_mechanic_module_is_in_the_table_and_says_what_selects_it() -> None:
    modules = [m for m, _ in mechanics.MECHANICS]
    assert set(modules) == {whole_pile, pile_draw, exchange, offers, end_turn, pass_face_down, refill}
    for module in modules:
        assert module.__doc__ and module.__doc__.strip().endswith(".")
        assert isinstance(module.SELECTED_BY, str) and module.SELECTED_BY


MECHANIC_VALUES = {
    "turn_end",
    "discard_to",
    "must_use",
    "top_layoff",
    "exchange",
    "exchangeable",
    "empty_stock",
    "rebuilds",
    "offer",
    "responder",
}
"""The Variant's and Deal's members that only the mechanics read (the kernel values only some games set)."""


def test_the_plain_turn_reads_no_value_that_only_some_games_set() -> None:
    tree = ast.parse(Path(standard.__file__).read_text(encoding="utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert read & MECHANIC_VALUES == set()
    # draw.from_pile is read only for the plain turn's own values (none: no pile draw), never any or whole
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not {"whole", "deepest", "turn-over", "reshuffle", "right", "left"} & strings
    compared = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(isinstance(n, ast.Attribute) and n.attr == "draw_from_pile" for n in ast.walk(node))
    ]
    for node in compared:
        values = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)}
        assert values == {"none"}, ast.unparse(node)


OFFERS_RUMMY = """\
name: offer-rummy
title: Offer Rummy
summary: A plain table rummy whose turns end with an offer instead of a discard.
plugins: []
players: {min: 2, max: 4}
decks: {count: 1, jokers: 0}
deal: {hand_size: 7}
discard_pile: squared
turn: {end: offer}
draw: {from_pile: top}
table: {melds: true, layoff: any}
melds: {sets: true, runs: true}
target: 100
max_hands: 4
"""


@pytest.mark.parametrize("players", [2, 3])
def test_offers_turned_on_in_a_plain_game_play_whole_games(tmp_path: Path, players: int) -> None:
    path = tmp_path / "offer-rummy.yaml"
    path.write_text(OFFERS_RUMMY, encoding="utf-8")
    variant = rummykit.load_variant(str(path))
    assert variant.mechanics == (offers.__name__,)
    kinds: set[str] = set()
    for seed in range(6):
        game = variant.new_game(players, seed=seed)
        bot = RandomBot(seed)
        steps = 0
        while not game.is_over:
            legal = game.legal_actions()
            assert legal, "a seat to act always has a legal action"
            assert "discard" not in {a.kind for a in legal}
            action = bot.choose(game)
            kinds.add(action.kind)
            game.apply(action)
            game.check_cards()
            steps += 1
            assert steps < 5000
        assert len(game.results) <= 4
    assert {"offer", "accept", "decline"} <= kinds


def test_the_plain_turn_without_a_mechanic_has_no_mechanics_verbs(tmp_path: Path) -> None:
    path = tmp_path / "plain-rummy.yaml"
    path.write_text(OFFERS_RUMMY.replace("turn: {end: offer}\n", "").replace("offer-rummy", "plain-rummy"), "utf-8")
    variant = rummykit.load_variant(str(path))
    assert variant.mechanics == ()
    game = variant.new_game(2, seed=1)
    seen: set[str] = set()
    while not game.is_over:
        legal = game.legal_actions()
        seen |= {a.kind for a in legal}
        game.apply(random.Random(len(game.deal.log)).choice(legal))
        game.check_cards()
    assert seen <= {"draw stock", "draw discard", "meld", "layoff", "discard"}


@pytest.mark.parametrize(
    ("module", "values", "message"),
    [
        (whole_pile, {"must_use": "top"}, "must_use: top goes with from_pile: whole, not 'top'"),
        (whole_pile, {"ruleset": {"draw": {"top_layoff": True}}}, "top_layoff goes with must_use: top"),
        (
            whole_pile,
            {
                "draw_from_pile": "whole",
                "must_use": "top",
                "melds_on_table": True,
                "layoff_mode": "none",
                "ruleset": {"draw": {"top_layoff": True}},
            },
            "top_layoff lays the top card off, and table.layoff is none",
        ),
        (whole_pile, {"draw_from_pile": "whole", "must_use": "top"}, "must_use: top is for games that meld on"),
        (
            pile_draw,
            {"must_use": "deepest", "draw_from_pile": "whole", "melds_on_table": True},
            "must_use: deepest goes with from_pile",
        ),
        (pile_draw, {"must_use": "deepest"}, "must_use: deepest is for games that meld on the table"),
        (pile_draw, {"draw_from_pile": "any", "melds_on_table": True}, "which a squared pile hides"),
        (refill, {"ruleset": {"draw": {"rebuilds": 2}}}, "rebuilds goes with empty_stock: turn-over or reshuffle"),
        (refill, {"empty_stock": "reshuffle", "discard_pile": "none"}, "and discard_pile is none: expected end"),
        (exchange, {"exchange": "any"}, "exchange: any swaps wild cards, and no card is wild"),
        (offers, {"turn_end": "offer"}, "a turn ends with 'offer' only in games that meld on the table"),
        (end_turn, {"turn_end": "done"}, "a turn ends with 'done' only in games that meld on the table"),
        (pass_face_down, {"discard_to": "left"}, "a discard passed to a player needs discard_pile: none"),
    ],
)
def test_each_mechanic_checks_the_ruleset_values_it_owns(module: Any, values: dict[str, Any], message: str) -> None:
    kernel = KernelSettings(**values)
    found = module.ruleset_problems(kernel, lambda path, text: (path, text))
    assert any(message in text for _, text in found), found
    others = [m for m, _ in mechanics.MECHANICS if m is not module and hasattr(m, "ruleset_problems")]
    assert all(other.ruleset_problems(kernel, lambda path, text: (path, text)) == [] for other in others)
    assert module.ruleset_problems(KernelSettings(), lambda path, text: (path, text)) == []


@pytest.mark.parametrize(
    ("name", "module"),
    [("refill_stock", refill), ("pile_takes", whole_pile), ("can_use", pile_draw), ("TAKE_UP", pass_face_down)],
)
def test_names_that_moved_to_a_mechanic_keep_working_with_a_warning(name: str, module: Any) -> None:
    with pytest.warns(DeprecationWarning, match=rf"rummykit\.standard\.{name} moved to {module.__name__}\.{name}"):
        found = getattr(standard, name)
    assert found is getattr(module, name)
    with pytest.raises(AttributeError):
        standard.no_such_name  # noqa: B018


def test_a_pile_take_typed_after_the_pile_was_taken_is_refused_in_words() -> None:
    from rummykit.actions import IllegalAction

    game = rummykit.load_variant("fortune").new_game(2, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        takes = [a for a in game.legal_actions() if a.kind in ("take pile", "take pile with")]
        game.apply(takes[0] if takes else rng.choice(game.legal_actions()))
        if takes and not game.deal.discard:
            break
    assert not game.is_over and game.deal.phase == "play" and not game.deal.discard
    with pytest.raises(IllegalAction, match="you have drawn already this turn"):
        game.apply("take pile with 7S 7D")
