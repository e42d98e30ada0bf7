"""Bots: players that choose an action for the current seat.

``random`` picks uniformly among the legal actions. ``greedy`` keeps its deadwood as low as it can:
it takes a discard only when that lowers its deadwood, throws the card that leaves the least deadwood,
knocks (or goes gin) as soon as it may, and lays down melds and lay-offs at once in table games.
"""

from __future__ import annotations

import random
from typing import Protocol

from .cards import Card
from .engine import Action, Game

__all__ = ["Bot", "RandomBot", "GreedyBot", "BOTS", "make_bot"]


class Bot(Protocol):
    """Anything with ``choose(game) -> Action`` for the game's current player."""

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class GreedyBot:
    """Least deadwood now; knocks when it can."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        deal = game.deal
        search = game.variant.meld_search
        hand = deal.hands[deal.current]
        by_kind: dict[str, list[Action]] = {}
        for action in actions:
            by_kind.setdefault(action.kind, []).append(action)
        if "big gin" in by_kind:
            return by_kind["big gin"][0]
        if "knock" in by_kind:
            return min(by_kind["knock"], key=lambda a: search.deadwood([c for c in hand if c is not a.cards[0]]))
        if "meld" in by_kind:
            best = search.arrange(hand)
            wanted = {tuple(sorted(c.face for c in m.cards)) for m in best.melds}
            for action in by_kind["meld"]:
                if tuple(sorted(c.face for c in action.cards)) in wanted:
                    return action
        if "layoff" in by_kind:
            return max(by_kind["layoff"], key=lambda a: game.variant.value(a.cards[0]))
        if "done" in by_kind:
            return by_kind["done"][0]
        if "draw discard" in by_kind and deal.discard:
            take = [a for a in by_kind["draw discard"] if not a.cards] or by_kind["draw discard"][:1]
            top = deal.discard[-1]
            now = search.deadwood(hand)
            after = search.discard_deadwoods(hand + [top])
            # Compare with the hand after throwing some other card than the one just taken.
            if min(after[:-1], default=now) < now:
                return take[0]
            for kind in ("pass", "draw stock"):
                if kind in by_kind:
                    return by_kind[kind][0]
            return take[0]
        if "draw stock" in by_kind:
            return by_kind["draw stock"][0]
        if "discard" in by_kind:
            return self._best_discard(game, by_kind["discard"], hand)
        return self.rng.choice(actions)

    @staticmethod
    def _best_discard(game: Game, discards: list[Action], hand: list[Card]) -> Action:
        search = game.variant.meld_search
        after = dict(zip((c.id for c in hand), search.discard_deadwoods(hand)))
        return min(discards, key=lambda a: (after[a.cards[0].id], -game.variant.value(a.cards[0])))


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``random`` or ``greedy``)."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise KeyError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
