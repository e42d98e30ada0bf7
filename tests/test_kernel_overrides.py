"""Kernel behaviour a game may change: how a hand ends when the stock runs out (``rummykit_stock_exhausted``),
and finishing a special deal for prearranged deals too (``rummykit_dealt``). Each is proved with a toy plugin."""

from __future__ import annotations

import random
import types
from typing import Any

import rummykit
from rummykit.engine import Deal, Game
from rummykit.variant import load_variant


def _plugin(name: str, **hooks: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook, function in hooks.items():
        function.__module__ = name
        setattr(module, hook, rummykit.hookimpl(function))
    return module


def _play_random(game: Game, seed: int, hands: int = 1) -> None:
    rng = random.Random(seed)
    while not game.is_over and len(game.results) < hands:
        game.apply(rng.choice(game.legal_actions()))
        game.check_cards()


def _first_hands(plugins: list[types.ModuleType], games: int = 12) -> list[str]:
    """How the first hand of random games of Skarney for two ended (``draw.empty_stock: end``)."""
    variant = load_variant("skarney-singles", plugins=plugins)
    ended = []
    for seed in range(games):
        game = variant.new_game(seed=seed)
        _play_random(game, seed)
        ended.append(game.results[0].kind)
    return ended


def washed_out(deal: Deal) -> str:
    """A game's own ending when the stock runs out."""
    return "washed-out"


def test_a_game_overrides_how_the_hand_ends_when_the_stock_runs_out() -> None:
    kernel = _first_hands([])
    assert "exhausted" in kernel
    overridden = _first_hands([_plugin("washed_out", rummykit_stock_exhausted=washed_out)])
    # The same games, played alike up to the stock's end, which now ends them the game's way.
    assert overridden == ["washed-out" if kind == "exhausted" else kind for kind in kernel]


def ends_at_once(deal: Deal) -> str:
    return "exhausted"


def test_a_game_ends_the_hand_where_the_kernel_plays_on() -> None:
    # 500 Rum plays on when the stock runs out (draw.from_pile: any): the next player draws from the pile.
    variant = load_variant("500-rum")
    stopped = load_variant("500-rum", plugins=[_plugin("ends_at_once", rummykit_stock_exhausted=ends_at_once)])
    ran_out = 0
    for seed in range(6):
        kernel, game = variant.new_game(seed=seed), stopped.new_game(seed=seed)
        first = game.deal
        _play_random(kernel, seed)
        _play_random(game, seed)
        if game.results[0].kind == "exhausted":
            # The same play up to the turn that took the last stock card, which ended the hand; the kernel
            # played on from there.
            ran_out += 1
            played = game.history[0]
            assert kernel.history[0][: len(played)] == played and len(kernel.history[0]) > len(played)
            assert played[-1].startswith("discard") and not first.stock
    assert ran_out


def set_aside_sevens(deal: Deal, deck: list[Any]) -> None:
    """A special deal: the sevens go into a zone of their own before the deal."""
    deal.add_zone("sevens", visibility="public")
    deal.zones["sevens"].cards[0].extend(c for c in deck if c.rank == 7)
    deck[:] = [c for c in deck if c.rank != 7]


def finish_sevens(deal: Deal, prearranged: bool) -> None:
    """Every deal, prearranged ones too: the sevens lie in their zone, none in the stock."""
    if prearranged:
        deal.add_zone("sevens", visibility="public")
        deal.zones["sevens"].cards[0].extend(c for c in deal.stock if c.rank == 7)
        deal.stock = [c for c in deal.stock if c.rank != 7]
    deal.state["dealt"] = "prearranged" if prearranged else "shuffled"


def test_a_special_deal_is_finished_for_prearranged_deals_too() -> None:
    plugin = _plugin("sevens", rummykit_deal=set_aside_sevens, rummykit_dealt=finish_sevens)
    variant = load_variant("gin", plugins=[plugin])
    shuffled = variant.new_game(seed=1)
    assert shuffled.deal.state["dealt"] == "shuffled"
    assert sorted(str(c) for c in shuffled.deal.zones["sevens"].cards[0]) == ["7C", "7D", "7H", "7S"]
    hands = [["AC", "2C", "3C", "4C", "5C", "6C", "8C", "9C", "TC", "JC"],
             ["AD", "2D", "3D", "4D", "5D", "6D", "8D", "9D", "TD", "JD"]]  # fmt: skip
    given = variant.new_game(seed=1, layout={"dealer": 0, "hands": hands, "discard": ["QC"]})
    deal = given.deal
    assert deal.state["dealt"] == "prearranged"
    assert sorted(str(c) for c in deal.zones["sevens"].cards[0]) == ["7C", "7D", "7H", "7S"]
    assert not any(c.rank == 7 for c in deal.stock) and len(deal.stock) == 52 - 4 - 21
