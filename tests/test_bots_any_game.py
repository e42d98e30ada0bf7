"""The greedy and outs bots play a game whose verbs they were not written for: Lay Rummy (tests/toy/) lays
melds with ``lay`` and lets a turn end with ``fold``. They still meld, lay off and go out, and never fold
while they could lay a meld."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import rummykit
from rummykit.bots import GreedyBot, make_bots

TOY = Path(__file__).resolve().parent / "toy"


@pytest.fixture(scope="module")
def lay_rummy() -> rummykit.Variant:
    return rummykit.load_variant(str(TOY / "lay-rummy.yaml"), plugins=[TOY / "lay_rummy.py"])


def play(variant: rummykit.Variant, bot: str, seed: int) -> tuple[Counter[str], list[str], int]:
    """The verbs chosen, each hand's ending and how often a lay was listed but not chosen for a fold."""
    game = variant.new_game(seed=seed)
    bots = make_bots([bot], game.num_players, seed)
    chosen: Counter[str] = Counter()
    folded = 0
    while not game.is_over:
        listed = game.legal_actions()
        action = bots[game.deal.actor].choose(game)
        folded += action.kind == "fold" and any(a.kind == "lay" for a in listed)
        chosen[action.kind] += 1
        game.apply(action)
        game.check_cards()
    return chosen, [r.kind for r in game.results], folded


def test_the_toy_game_lists_its_own_verbs(lay_rummy: rummykit.Variant) -> None:
    """``lay`` where the kernel would list ``meld`` (which is refused), and ``fold``."""
    game = lay_rummy.new_game(seed=3)
    bot = GreedyBot(seed=3)
    while not any(a.kind == "lay" for a in game.legal_actions()):
        game.apply(bot.choose(game))
    kinds = {a.kind for a in game.legal_actions()}
    assert "fold" in kinds and "meld" not in kinds
    lay = next(a for a in game.legal_actions() if a.kind == "lay")
    with pytest.raises(rummykit.IllegalAction):
        game.apply(f"meld {lay.cards_text()}")
    game.apply(lay)
    assert {c.id for c in game.deal.table[-1].meld.cards} == {c.id for c in lay.cards}  # laid as a meld


@pytest.mark.parametrize("bot", ["greedy", "outs"])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_greedy_and_outs_lay_melds_and_go_out(lay_rummy: rummykit.Variant, bot: str, seed: int) -> None:
    chosen, endings, folded = play(lay_rummy, bot, seed)
    assert chosen["lay"] > 0
    assert folded == 0 and chosen["fold"] == 0
    assert "out" in endings


def test_without_reading_the_verbs_greedy_never_melds(
    lay_rummy: rummykit.Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same game with ``lay`` and ``fold`` taken as verbs greedy knows (so it does not look at what they
    do): it never lays a meld and nobody goes out, which is what the test above guards against."""
    monkeypatch.setattr(GreedyBot, "KNOWN_VERBS", GreedyBot.KNOWN_VERBS | {"lay", "fold"})
    chosen, endings, _ = play(lay_rummy, "greedy", 3)
    assert chosen["lay"] == 0
    assert "out" not in endings


def test_greedy_never_passes_a_meld_that_takes_the_turned_up_card() -> None:
    """Conquian (examples/conquian, when installed) melds the card turned up with cards from the hand, under
    verbs greedy knows: greedy takes such a meld rather than pass, and goes out."""
    if "conquian" not in {info.name for info in rummykit.list_variants()}:
        pytest.skip("the Conquian example package is not installed (pip install examples/conquian)")
    chosen, endings, _ = play(rummykit.load_variant("conquian"), "greedy", 1)
    assert chosen["meld"] > 0 and "out" in endings
