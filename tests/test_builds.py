"""The two builds: pure Python (the default and the reference) and compiled (``RUMMYKIT_COMPILE=1``, mypyc over
the modules ``setup.py`` lists). The whole suite runs on both in CI (``.ci/run``), so both play the pinned
records of tests/test_builtin_games_unchanged.py byte for byte; these tests check that the build is the one
asked for and that ``rummykit.COMPILED`` tells the truth."""

from __future__ import annotations

import ast
import importlib
import os
import pickle
import random
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import rummykit
from rummykit.cli import main

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules() -> list[str]:
    """The paths ``setup.py`` gives mypyc (``COMPILED_MODULES``), read without running it."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["COMPILED_MODULES"]:
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no COMPILED_MODULES list")


def test_compiled_says_whether_every_listed_module_is_an_extension() -> None:
    paths = compiled_modules()
    assert paths, "setup.py compiles nothing"
    for path in paths:
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert (module.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)) is rummykit.COMPILED, module.__file__


def test_the_build_is_the_one_asked_for() -> None:
    """CI sets RUMMYKIT_EXPECT_COMPILED for each of its two runs, so a build that silently fell back to pure
    Python (or a pure run that picked up stray extensions) fails instead of testing the wrong thing."""
    expected = os.environ.get("RUMMYKIT_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("RUMMYKIT_EXPECT_COMPILED is not set (CI sets it)")
    assert rummykit.COMPILED is (expected == "1")


def test_the_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    shown = capsys.readouterr().out.strip()
    assert shown.startswith(f"rummykit {rummykit.__version__}")
    assert shown.endswith("(compiled)") is rummykit.COMPILED


@pytest.mark.parametrize("name", ["fortune", "iceberg", "skarney-singles"])
def test_games_holding_compiled_objects_copy_pickle_and_clone(name: str) -> None:
    """Melds on the table, the rules and the meld search are compiled objects in the compiled build: a game
    holding them survives pickle, deepcopy and clone, and the copies go on exactly like the original."""
    import copy

    game = rummykit.load_variant(name).new_game(seed=5)
    rng = random.Random(5)
    for _ in range(120):
        if game.is_over:
            break
        actions = game.legal_actions()
        melds = [a for a in actions if a.kind == "meld"]
        game.apply(rng.choice(melds or actions))
    assert any(game.deal.table), "random play put no meld on the table"
    copies = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game), game.clone()]
    for _ in range(60):
        if game.is_over:
            break
        actions = game.legal_actions()
        choice = rng.randrange(len(actions))
        for other in copies:
            assert [str(a) for a in other.legal_actions()] == [str(a) for a in actions]
            other.apply(other.legal_actions()[choice])
        game.apply(actions[choice])
    for other in copies:
        assert other.to_json() == game.to_json()


def test_the_frozen_kernel_values_pickle_and_copy() -> None:
    """Melds, arrangements and meld rules (compiled classes in the compiled build) come back equal from pickle
    and deepcopy, with the meld rules' tables rebuilt."""
    import copy

    fortune = rummykit.load_variant("fortune")
    iceberg = rummykit.load_variant("iceberg")
    arrangement = fortune.arrange(["2C", "3C", "4C", "5C", "7D", "7H", "2S", "KD", "9S"])
    values: list[object] = [arrangement, *arrangement.melds, fortune.meld_search.rules, iceberg.meld_search.rules]
    values += list(iceberg.meld_search.rules.specials)
    assert iceberg.meld_search.rules.specials and arrangement.melds
    for value in values:
        for other in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert other == value and type(other) is type(value)
    rules = pickle.loads(pickle.dumps(fortune.meld_search.rules))
    assert rules.run_span == fortune.meld_search.rules.run_span and rules.position(13) == 13
