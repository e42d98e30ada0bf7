"""A game's rules read once into a typed object; a plugin's per-deal state as a typed object that copies of a
game keep."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path

import pytest
from rummykit.plugins.oklahoma_gin import OklahomaState
from rummykit.plugins.skarney import SkarneyRules

import rummykit
from rummykit.ruleset import RulesetError
from rummykit.typed import rules_as, state_key, state_of


def test_rules_are_read_once_with_the_rulesets_values_and_the_defaults() -> None:
    variant = rummykit.load_variant("skarney")
    rules = variant.rules_as(SkarneyRules)
    assert rules is rules_as(variant, SkarneyRules)  # built once per variant
    assert len(rules.hands) == len(variant.rules["hands"]) and isinstance(rules.hands, tuple)
    assert rules.contract_meld_size == variant.rules.get("contract_meld_size", 3)
    assert rules.stop_cards == tuple(variant.rules.get("stop_cards", ()))
    with pytest.raises(FrozenInstanceError):
        rules.contract_meld_size = 4  # type: ignore[misc]


def test_a_key_the_ruleset_leaves_out_takes_the_fields_default(tmp_path: Path) -> None:
    @dataclass(frozen=True)
    class Extra:
        knock_limit: int
        not_in_gin: str = "the default"

    gin = rummykit.load_variant("gin")
    assert gin.rules_as(Extra) == Extra(gin.rules["knock_limit"], "the default")

    @dataclass(frozen=True)
    class Needs:
        not_in_gin: int

    with pytest.raises(KeyError, match="not_in_gin"):
        gin.rules_as(Needs)


def test_a_bad_type_in_the_rules_block_is_refused_by_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "bad-skarney.yaml"
    path.write_text("name: bad-skarney\nextends: skarney\nrules:\n  contract_meld_size: four\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="contract_meld_size"):
        rummykit.load_variant(str(path))


def oklahoma_game() -> rummykit.Game:
    game = rummykit.load_variant("oklahoma-gin").new_game(seed=8)
    rng = random.Random(2)
    for _ in range(6):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_typed_state_is_kept_in_the_deal_under_its_key() -> None:
    game = oklahoma_game()
    state = game.deal.state_of(OklahomaState)
    assert state is state_of(game.deal, OklahomaState) is game.deal.state[state_key(OklahomaState)]
    assert state.knock_card is not None and state.multiplier == (2 if state.knock_card.suit == 3 else 1)
    assert game.observation(0)["knock_card"] == str(state.knock_card)


@pytest.mark.parametrize("how", ["clone", "deepcopy", "pickle"])
def test_typed_state_survives_copies_of_the_game(how: str) -> None:
    game = oklahoma_game()
    copied = {
        "clone": game.clone,
        "deepcopy": lambda: copy.deepcopy(game),
        "pickle": lambda: pickle.loads(pickle.dumps(game)),
    }[how]()
    original, kept = game.deal.state_of(OklahomaState), copied.deal.state_of(OklahomaState)
    assert kept == original and kept is not original
    kept.multiplier = 99  # the copy's state is its own
    assert game.deal.state_of(OklahomaState).multiplier != 99
    rng_a, rng_b = random.Random(5), random.Random(5)
    copied.deal.state_of(OklahomaState).multiplier = original.multiplier
    for _ in range(40):
        if game.is_over:
            break
        game.apply(rng_a.choice(game.legal_actions()))
        copied.apply(rng_b.choice(copied.legal_actions()))
    assert copied.scores == game.scores


def test_toolkit_rules_of_still_answers_for_a_release_with_a_deprecation_warning() -> None:
    from rummykit import toolkit

    gin = rummykit.load_variant("gin")
    with pytest.warns(DeprecationWarning, match="rules_as"):
        assert toolkit.rules_of(gin, "knock_limit") == gin.rules["knock_limit"]
    with pytest.warns(DeprecationWarning):
        assert toolkit.rules_of(gin, "not_in_gin", "the default") == "the default"


def test_the_built_in_games_keep_their_deal_as_typed_state() -> None:
    # Every deal of a built-in game holds only typed state objects, each under its class's key.
    for name, seed in (("gin", 3), ("oklahoma-gin", 4), ("skarney", 5), ("iceberg", 6)):
        game = rummykit.load_variant(name).new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(12):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        state = game.deal.state
        assert state and all(key == state_key(type(value)) for key, value in state.items()), (name, state)
