"""Bots: players that choose an action for the current seat.

``random`` picks uniformly among the legal actions. ``greedy`` keeps its deadwood as low as it can:
it takes a discard only when that lowers its deadwood, throws the card that leaves the least deadwood,
accepts an offered card only when its best arrangement melds it and offers its lowest unmelded card
(``turn.end: offer``: whoever takes a card may score it on the table),
ends the hand as soon as it may (a knock, gin: whatever the game describes as ending the hand, see
``rummykit_describe_action``), and lays down melds and lay-offs at once in table games. In a game with
verbs it was not written for, it lays cards on the table first whatever the verb (an action whose cards
form melds or go on the table meld it names), then ends the hand if it can; in any game it lays such an
action rather than pass. ``outs`` is greedy
that, in the Gin family, weighs a hand by the deadwood it can expect after its next draw. ``search`` looks
ahead: for each of a handful of candidate actions (``outs``' choice first) it plays the hand out many times
with ``greedy`` in every seat, in positions sampled consistently with what it can see
(:func:`rummykit.search.determinize`), and takes the action whose hands end best for its side (see
``docs/bots.md``).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import inspect
import math
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import groupby
from operator import attrgetter
from typing import Any, Protocol

from .actions import action_words
from .cards import Card
from .engine import Action, Deal, Game, _random_in_state
from .melds import Arrangement
from .search import determinize, expected_deadwood, hand_points, hidden_cards, side_difference
from .standard import layoff_targets, meld_action

__all__ = [
    "Bot",
    "RandomBot",
    "GreedyBot",
    "OutsBot",
    "SearchBot",
    "BOTS",
    "make_bot",
    "make_bots",
    "bot_seed",
    "derive_seed",
    "collector_paused",
]


class Bot(Protocol):
    """Anything with ``choose(game) -> Action`` for the game's current player."""

    def choose(self, game: Game) -> Action:
        """The action this bot takes for ``game``'s current player: one of ``game.legal_actions()``, or any
        action the game accepts."""
        ...


_KIND = attrgetter("kind")


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        """Any legal action, each as likely."""
        return self.rng.choice(game.legal_actions())


class GreedyBot:
    """Least deadwood now; ends the hand (knocks, goes gin) when it can."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self._arranged: dict[tuple[int, tuple[int, ...]], Arrangement] = {}

    ACCEPT_ANYWAY = 0.2
    """How often an offered card that neither melds nor lays off is taken all the same."""

    PICKUP_DEPTH = 8
    """Table games: pick-ups of more cards than this from the pile are not considered."""

    def choose(self, game: Game) -> Action:
        """The greedy choice for the current player (see the class's description)."""
        actions = game.legal_actions()
        deal = game.deal
        search = game.variant.meld_search
        hand = deal.hands[deal.actor]
        by_kind: dict[str, list[Action]] = {}
        # A search bot's play-outs group every action listed: by runs of one verb (a listing keeps each verb's
        # actions together), not action by action.
        for kind, run in groupby(actions, _KIND):
            group = by_kind.get(kind)
            if group is None:
                by_kind[kind] = list(run)
            else:
                group.extend(run)
        if "accept" in by_kind and "decline" in by_kind and deal.offer is not None:
            # A card offered (``turn.end: offer``): taken when the best arrangement with it melds it, when it goes
            # on a table meld this seat may add to, and now and then anyway (a hand that melds nothing must change).
            card = deal.offer.card
            useful = (
                self.rng.random() < self.ACCEPT_ANYWAY
                # (before the arrangement: far quicker, and either answer will do)
                or any(search.lays_off(deal.table[i].meld, card) for i in layoff_targets(deal, deal.actor))
                # (a card no meld of the hand can hold is deadwood in every arrangement: most offered cards)
                or (
                    search.can_meld(card, hand)
                    and card.face not in {c.face for c in self._arrange(game, hand + [card]).deadwood}
                )
            )
            return by_kind["accept" if useful else "decline"][0]
        if not by_kind.keys() <= self.KNOWN_VERBS:
            chosen = self._other_game_choice(game, by_kind)
            if chosen is not None:
                return chosen
        if game.variant.melds_on_table and deal.phase in ("draw", "use", "play"):
            return self._table_choice(game, actions, by_kind)
        ending = self._hand_enders(game, by_kind)
        if ending:
            # Least deadwood left; an action naming no card (big gin) first on a tie.
            return min(ending, key=lambda a: (search.deadwood(_without(hand, a.cards)), len(a.cards)))
        if "meld" in by_kind:
            best = search.arrange(hand)
            wanted = {tuple(sorted(c.face for c in m.cards)) for m in best.melds}
            for action in by_kind["meld"]:
                if tuple(sorted(c.face for c in action.cards)) in wanted:
                    return action
        if "layoff" in by_kind:
            return max(by_kind["layoff"], key=lambda a: game.variant.value(a.cards[0]))
        if "draw discard" in by_kind and deal.discard:
            take = [a for a in by_kind["draw discard"] if not a.cards] or by_kind["draw discard"][:1]
            top = deal.discard[-1]
            now = search.deadwood(hand)
            after = search.discard_deadwoods(hand + [top])
            # Compare with the hand after throwing some other card than the one just taken.
            if min(after[:-1], default=now) < now:
                return take[0]
            # Not worth taking: the other way to start the turn (the stock, or passing the upcard).
            return next((a for a in actions if a.kind != "draw discard"), take[0])
        if "draw stock" in by_kind:
            return by_kind["draw stock"][0]
        if "discard" in by_kind:
            return self._best_discard(game, by_kind["discard"], hand)
        laying = self._laying(game, by_kind)
        if laying:  # never pass while a meld can be laid (one taking the card turned up, say)
            return self._best_laying(game, laying)
        # Nothing left worth laying down: finish (Gin's "done", "end turn"), an action that names no card.
        finish = next((a for a in actions if not a.cards and a.target is None), None)
        return finish if finish is not None else self.rng.choice(actions)

    KNOWN_VERBS = frozenset(
        {
            "draw stock", "draw discard", "take pile", "take pile with", "discard", "meld", "layoff", "swap",
            "knock", "big gin", "done", "end", "end turn", "pass", "offer", "accept", "decline",
        }
    )  # fmt: skip
    """The verbs greedy's rules are written for: every built-in game's. In a game that lists any other verb,
    greedy first judges every action by what it does with the cards (:meth:`_other_game_choice`)."""

    NOT_LAYING = KNOWN_VERBS - {"meld", "layoff"}
    """Known verbs that never lay cards on the table, whatever cards they name. Neither does any verb with the
    word ``draw`` or ``discard`` in it (``discard face down``)."""

    def _other_game_choice(self, game: Game, by_kind: dict[str, list[Action]]) -> Action | None:
        """In a game with verbs greedy was not written for: an action that lays cards on the table
        (:meth:`_laying`) when there is one; else one that ends the hand (as the ``rummykit_describe_action``
        hook says); else None, for the usual choice. So greedy melds and goes out whatever the game calls
        it, and never passes or folds while it can meld."""
        laying = self._laying(game, by_kind)
        if laying:
            return self._best_laying(game, laying)
        ending = self._hand_enders(game, by_kind)
        if ending:
            hand = game.deal.hands[game.deal.actor]
            search = game.variant.meld_search
            return min(ending, key=lambda a: (search.deadwood(_without(hand, a.cards)), len(a.cards)))
        return None

    def _laying(self, game: Game, by_kind: dict[str, list[Action]]) -> list[Action]:
        """The listed actions that lay cards on the table, whatever their verb: cards from the hand (and
        perhaps the pile's, as when a meld takes the card turned up) that form melds, or go on the table
        meld the action names. Never a draw or a discard."""
        deal = game.deal
        hand = {c.id for c in deal.hands[deal.actor]}
        seen = hand | {c.id for c in deal.discard}
        return [
            action
            for kind, kind_actions in by_kind.items()
            if kind not in self.NOT_LAYING and not {"draw", "discard"} & set(kind.split())
            for action in kind_actions
            if action.cards
            and any(c.id in hand for c in action.cards)
            and all(c.id in seen for c in action.cards)
            and _lays(deal, action)
        ]

    def _best_laying(self, game: Game, laying: list[Action]) -> Action:
        """Of actions that lay cards, one whose melds the best arrangement of the cards (the hand and what
        the action takes from the pile) also makes, then the one laying the most cards, the most value."""
        hand = game.deal.hands[game.deal.actor]
        held = {c.id for c in hand}
        value = game.variant.value

        def merit(action: Action) -> tuple[bool, int, int]:
            taken = [c for c in action.cards if c.id not in held]
            best = self._arrange(game, hand + taken)
            wanted = {tuple(sorted(c.face for c in m.cards)) for m in best.melds}
            planned = all(tuple(sorted(c.face for c in cards)) in wanted for cards, _ in action.melds())
            return planned, len(action.cards), sum(value(c) for c in action.cards)

        return max(laying, key=merit)

    @staticmethod
    def _hand_enders(game: Game, by_kind: dict[str, list[Action]]) -> list[Action]:
        """The legal actions that end the hand on the player's terms (a knock, gin), as the game describes
        them: the ``rummykit_describe_action`` hook is asked once per verb."""
        deal = game.deal
        ending: list[Action] = []
        for kind_actions in by_kind.values():
            words = action_words(deal, deal.actor, kind_actions[0], deal.actor)
            if words is not None and words.ends_hand:
                ending += kind_actions
        return ending

    # -- table games (500 Rum and the like) -------------------------------------------------------

    def _table_choice(self, game: Game, actions: list[Action], by_kind: dict[str, list[Action]]) -> Action:
        """Take from the pile when that adds more melded value than it leaves in hand, meld everything
        the best arrangement melds, lay off what it can, and discard the highest-value card left."""
        deal = game.deal
        search = game.variant.meld_search
        value = game.variant.value
        hand = deal.hands[deal.actor]
        if deal.phase == "draw":
            pickups = by_kind.get("draw discard", [])
            base = self._worth(game, hand) if pickups else 0  # (costly: only when there is a pile to take from)
            best: Action | None = None
            best_gain = 0
            for action in pickups:
                depth = deal.discard.index(action.cards[0]) if action.cards else len(deal.discard) - 1
                taken = deal.discard[depth:]
                if len(taken) > self.PICKUP_DEPTH:
                    continue
                gain = self._worth(game, hand + taken) - base
                if gain > best_gain:
                    best, best_gain = action, gain
            takes = by_kind.get("take pile with", []) + by_kind.get("take pile", [])
            if takes and self._worth(game, hand + deal.discard) - base > best_gain:
                # Every way of taking the pile ends with the same cards: lay the meld the best arrangement makes.
                return self._best_take(game, takes, hand + deal.discard)
            if best is not None:
                return best
            for kind in ("draw stock", "end"):
                if kind in by_kind:
                    return by_kind[kind][0]
            return self.rng.choice(actions)
        arrangement = self._arrange(game, hand)
        if deal.phase == "use":
            wanted = {tuple(sorted(c.face for c in m.cards)) for m in arrangement.melds}
            melds = by_kind.get("meld", [])
            for action in melds:
                if tuple(sorted(c.face for c in action.cards)) in wanted:
                    return action
            return max(actions, key=lambda a: (sum(value(c) for c in a.cards), -len(a.cards)))
        if arrangement.melds and "meld" in by_kind:
            # The best arrangement's melds, named even when the capped listing leaves them out, if the game
            # allows them now (a contract may ask for several melds at once: then the longest listed one).
            # None listed, none is allowed: the listing caps melds, it lists some whenever a meld is allowed.
            laid = max(arrangement.melds, key=len)
            # Named as the listing names it (each wild card's stand-in too), so that it is found there; what the
            # rules refuse is None here (resolve's refusal would name every legal action, for nothing).
            melding = game._legal_form(meld_action(search, laid))
            if melding is None:
                return max(by_kind["meld"], key=lambda a: (len(a.cards), sum(value(c) for c in a.cards)))
            # What is left is best arranged as the rest of this arrangement: no need to search it again.
            rest = [c for c in hand if c not in laid.cards]
            kept = tuple(m for m in arrangement.melds if m is not laid)
            self._remember(game, rest, Arrangement(kept, arrangement.deadwood, arrangement.deadwood_value))
            return melding
        if "layoff" in by_kind:
            laid_off = max(by_kind["layoff"], key=lambda a: value(a.cards[0]))
            card = laid_off.cards[0]
            if any(c.id == card.id for c in arrangement.deadwood):
                # The rest is best arranged as this arrangement less the card: were there a better one, it
                # would be better with the card as deadwood too. No need to search it again.
                rest = [c for c in hand if c.id != card.id]
                dead = tuple(c for c in arrangement.deadwood if c.id != card.id)
                worth = search.values[card.face]
                self._remember(game, rest, Arrangement(arrangement.melds, dead, arrangement.deadwood_value - worth))
            return laid_off
        discards = by_kind.get("discard", [])
        if discards:
            # The dearest card, but a wild card last: it may make a meld next turn.
            wild, values = search.rules.wild_faces, game.variant.values
            return max(discards, key=lambda a: (a.cards[0].face not in wild, values[a.cards[0].face], a.cards[0].face))
        if "offer" in by_kind:
            # Offer the lowest card the best arrangement leaves unmelded (a natural one first), else the lowest
            # card: whoever takes it may score it on the table, and a high card scores them more.
            spare = {c.face for c in arrangement.deadwood}
            return max(
                by_kind["offer"],
                key=lambda a: (a.cards[0].face in spare, not search.is_wild(a.cards[0]), -value(a.cards[0])),
            )
        return self.rng.choice(actions)

    def _arrange(self, game: Game, cards: list[Card]) -> Arrangement:
        """``cards``' best arrangement, remembered: a turn asks for the same hands again."""
        key = (id(game.variant.meld_search), tuple(sorted([c.id for c in cards])))
        found = self._arranged.get(key)
        if found is None:
            found = game.variant.meld_search.arrange(cards)
            self._keep(key, found)
        return found

    def _remember(self, game: Game, cards: list[Card], arrangement: Arrangement) -> None:
        self._keep((id(game.variant.meld_search), tuple(sorted([c.id for c in cards]))), arrangement)

    def _keep(self, key: tuple[int, tuple[int, ...]], arrangement: Arrangement) -> None:
        if len(self._arranged) > 256:
            self._arranged.clear()
        self._arranged[key] = arrangement

    def _best_take(self, game: Game, takes: list[Action], cards: list[Card]) -> Action:
        """The pile take whose meld the best arrangement of ``cards`` (hand and pile) also makes, else the one
        laying the most value."""
        value = game.variant.value
        wanted = {tuple(sorted(c.face for c in m.cards)) for m in self._arrange(game, cards).melds}
        top = game.deal.discard[-1]
        for action in takes:
            if tuple(sorted([top.face, *(c.face for c in action.cards)])) in wanted:
                return action
        return max(takes, key=lambda a: sum(value(c) for c in a.cards))

    def _worth(self, game: Game, cards: list[Card]) -> int:
        """Melded value minus value left in hand, if ``cards`` were laid down as well as they can be
        (melds of the best arrangement, single lay-offs on the melds the player may add to)."""
        search = game.variant.meld_search
        value = game.variant.value
        arrangement = self._arrange(game, cards)
        deal = game.deal
        table = [deal.table[i].meld for i in layoff_targets(deal, deal.actor)]
        dead = 0
        for card in arrangement.deadwood:
            if not any(search.lays_off(meld, card) for meld in table):
                dead += value(card)
        return sum(value(c) for c in cards) - 2 * dead

    @staticmethod
    def _best_discard(game: Game, discards: list[Action], hand: list[Card]) -> Action:
        search = game.variant.meld_search
        after = dict(zip((c.id for c in hand), search.discard_deadwoods(hand)))
        return min(discards, key=lambda a: (after[a.cards[0].id], -game.variant.value(a.cards[0])))


class OutsBot(GreedyBot):
    """Greedy, but in games that keep melds in hand until the hand ends (the Gin family) it weighs a hand by
    the deadwood it can expect after its next draw (:func:`~rummykit.search.expected_deadwood`, over the cards
    it cannot see), not only by its deadwood now. It discards the card that leaves the least such deadwood: of
    two hands equally low it keeps the one more cards would improve (pairs and near-runs over a lone low
    card). It takes the pile's top card only when the deadwood it leaves (after the best discard) is below
    what a draw from the stock is expected to leave. The search bot's first choice."""

    def choose(self, game: Game) -> Action:
        """The greedy choice, except that in games keeping melds in hand a discard or a pile draw is weighed
        by the outs it leaves (see the class's description)."""
        action = super().choose(game)
        if game.variant.melds_on_table or action.kind not in ("discard", "draw discard"):
            return action
        deal = game.deal
        seat = deal.actor
        pool = hidden_cards(deal, seat)
        if not pool:
            return action
        hand = deal.hands[seat]
        search = game.variant.meld_search
        actions = game.legal_actions()
        if action.kind == "draw discard":
            # Greedy takes the card whenever it lowers the deadwood; a stock draw may well lower it too.
            other = next((a for a in actions if a.kind != "draw discard"), None)
            after = search.discard_deadwoods([*hand, deal.discard[-1]])
            if other is not None and min(after[:-1]) >= expected_deadwood(search, hand, pool):
                return other
            return action
        value = game.variant.value
        discards = [a for a in actions if a.kind == "discard"]
        # A tie throws the dearer card, as greedy does.
        return min(
            discards,
            key=lambda a: (expected_deadwood(search, _without(hand, a.cards), pool), -value(a.cards[0])),
        )


def _lays(deal: Deal, action: Action) -> bool:
    """Whether ``action``'s cards would lie on the table as melds: on the table meld it names (its
    ``target``), or, naming none, as melds of their own (each of its groups)."""
    search = deal.variant.meld_search
    if action.target is not None:
        if not 0 <= action.target < len(deal.table):
            return False
        return search.extend(deal.table[action.target].meld, action.cards, action.stands_for or None) is not None
    return all(
        search.meld(cards, stands_for=meant if any(m is not None for m in meant) else None) is not None
        for cards, meant in action.melds()
    )


def _without(hand: list[Card], cards: tuple[Card, ...]) -> list[Card]:
    """``hand`` less these very cards (not their twins from another deck)."""
    return [c for c in hand if all(c is not x for x in cards)]


class SearchBot:
    """Determinised rollouts (perfect-information Monte Carlo): for each sampled position (the cards it
    cannot see dealt again, :func:`~rummykit.search.determinize`), each candidate action is played and the
    hand played out by ``greedy`` bots; the action with the best total score difference for the bot's side
    is taken. The same samples serve every candidate.

    ``iterations`` is the number of sampled positions per decision (the default budget: reproducible from
    ``seed``); ``seconds``, if given, stops sampling once that much time has gone (at least one sample), and
    the moves then depend on the machine's speed. ``candidates`` caps the actions compared (the outs
    bot's choice first, then the best few of each kind by the deadwood they leave); a decision with one
    candidate is taken without search, and another candidate replaces the outs bot's choice only when its
    rollouts beat it clearly (:attr:`MARGIN`). A close call (another candidate ahead by between
    :attr:`PROMISING` and :attr:`MARGIN` standard errors) is settled on ``confirm`` budgets more samples
    of that candidate and the first choice alone (not with ``seconds``; ``confirm=0``: never). A rollout
    ends with its hand, or stops after ``rollout_moves`` moves (by default the game's own,
    :meth:`moves_for`) and is then scored by :func:`~rummykit.search.hand_points`.

    ``max_seconds`` caps a decision's time on top of the budget, for a person waiting on the bot: sampling
    and a close call's extra samples stop once it has gone, between two rollouts, after one whole sample at
    least (so a decision may run over by the time its first sample takes). The moves are the seed's until a
    decision is cut short; from there the bot's random draws, and so its later moves, differ.

    ``stop_early`` (the default) spends no samples where more would hardly change the choice: from
    :attr:`CHECK_FROM` samples on, every :attr:`CHECK_EVERY` (with ``seconds``, past ``iterations`` samples
    only at twice, four times... ``iterations``), a candidate behind the first choice by more than
    :attr:`DROP` standard errors is played out no more (sampling stops when none is left beside the first
    choice, with ``seconds`` too), and a close call stops, every :attr:`SETTLE_EVERY` extra samples, once the
    leader is behind the first choice or ahead by more than :attr:`SETTLED` standard errors.
    ``stop_early=False`` samples the whole budget.

    ``pause_collector`` (the default) pauses Python's garbage collector while the bot decides, as ``timeit``
    does while it times, and sets it going again as it was (:func:`collector_paused`). The built-in games'
    decisions leave no cycles for it to free (each play-out's copy of the game is taken apart as it ends, and
    no search leaves a function that names itself), but the copies live long enough to set off full
    collections, and each full collection walks every object the process holds, the meld search's answers
    kept among them: in a game of Skarney Singles a seventh of the bot's time went there, freeing nothing. In
    case a game's plugin does leave cycles, the young objects are collected between two samples once more
    than :attr:`YOUNG_LIMIT` have gathered. ``pause_collector=False`` leaves the collector alone.
    """

    ITERATIONS = 24
    CANDIDATES = 5
    ROLLOUT_MOVES = 80
    MARGIN = 1.5
    """How many standard errors of the paired difference another candidate must beat the first choice by."""
    PROMISING = 0.5
    """How many standard errors ahead of the first choice make another candidate a close call."""
    CONFIRM = 3
    """A close call's extra samples, in budgets (``iterations``): the leader and the first choice alone."""
    CHECK_FROM = 8
    """Samples after which ``stop_early`` first looks for candidates to drop."""
    CHECK_EVERY = 4
    """Samples between two such looks."""
    DROP = 1.5
    """How many standard errors behind the first choice drop a candidate (``stop_early``): one that far behind
    after 8 samples was almost never chosen after 24."""
    SETTLE_EVERY = 12
    """A close call's extra samples between two looks at whether it is settled (``stop_early``)."""
    YOUNG_LIMIT = 100_000
    """With the collector paused (``pause_collector``): the young objects (``gc.get_count()[0]``) that may gather
    before they are collected (``gc.collect(0)``), between two samples: a bound on what cycles a game's plugin
    might leave. The built-in games stay far below it."""
    SETTLED = 3.0
    """How many standard errors ahead of the first choice settle a close call for the leader (``stop_early``);
    a leader behind the first choice settles it for the first choice."""

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        candidates: int | None = None,
        rollout_moves: int | None = None,
        confirm: int | None = None,
        max_seconds: float | None = None,
        stop_early: bool = True,
        pause_collector: bool = True,
    ):
        self.rng = random.Random(seed)
        self.iterations = _count("iterations", iterations, self.ITERATIONS)
        self.seconds = _seconds("seconds", seconds)
        self.max_seconds = _seconds("max_seconds", max_seconds)
        if not isinstance(stop_early, bool):
            raise ValueError(f"stop_early is True (the default) or False, not {stop_early!r}")
        self.stop_early = stop_early
        if not isinstance(pause_collector, bool):
            raise ValueError(f"pause_collector is True (the default) or False, not {pause_collector!r}")
        self.pause_collector = pause_collector
        self.candidates = _count("candidates", candidates, self.CANDIDATES)
        self.rollout_moves: int | None = (
            None
            if rollout_moves is None
            else _count(
                "rollout_moves",
                rollout_moves,
                self.ROLLOUT_MOVES,
                default_text=f"the game's own, else {self.ROLLOUT_MOVES}",
            )
        )
        """The longest rollout as given; None: the game's own (:meth:`moves_for`)."""
        self.confirm = self.CONFIRM if confirm is None else _count("confirm", confirm, self.CONFIRM, least=0)
        self.greedy = OutsBot(self.rng.getrandbits(64))
        self.rollout_bot = GreedyBot(self.rng.getrandbits(64))

    def choose(self, game: Game) -> Action:
        """The candidate action whose sampled play-outs score best (see the class's description); the only
        legal action at once."""
        if not self.pause_collector:
            return self._choose(game)
        with collector_paused():
            return self._choose(game)

    def _choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        first = self.greedy.choose(game)
        candidates = candidate_actions(game, actions, first, self.candidates)
        if len(candidates) == 1:
            return candidates[0]
        values: list[list[float]] = [[] for _ in candidates]
        return candidates[self.weigh(game, candidates, values)]

    def weigh(self, game: Game, candidates: list[Action], values: list[list[float]]) -> int:
        """Which of ``candidates`` (the first choice first) to play, from rollouts of the sampled positions
        (appended to ``values``, one list per candidate, each in the order of the samples)."""
        seat = game.deal.actor
        budget = self.seconds  # sample for this long instead of a count of samples
        limits = [t for t in (budget, self.max_seconds) if t is not None]
        stop = time.perf_counter() + min(limits) if limits else None
        which = list(range(len(candidates)))
        for done in range(1, (self.iterations if budget is None else 1 << 30) + 1):
            if done > 1 and stop is not None and time.perf_counter() > stop:
                break
            self._sample(game, seat, candidates, which, values, stop if done > 1 else None)
            if self.stop_early and self._look(done):
                which = [i for i in which if i == 0 or _paired(values[i], values[0])[1] >= -self.DROP]
                if len(which) == 1:  # only the first choice is left: nothing to compare it with
                    break
        leader = self.leader(values)
        if budget is None and leader:
            # A close call: the leader and the first choice alone, on more samples, settle it.
            for done in range(1, self.confirm * self.iterations + 1):
                if stop is not None and time.perf_counter() > stop:
                    break
                self._sample(game, seat, candidates, (0, leader), values, stop)
                if self.stop_early and done % self.SETTLE_EVERY == 0:
                    lead = _paired(values[leader], values[0])[1]
                    if lead < 0 or lead > self.SETTLED:
                        break
        return self.pick(values)

    def _look(self, done: int) -> bool:
        """Whether to look for candidates to drop after ``done`` samples: from :attr:`CHECK_FROM` on, every
        :attr:`CHECK_EVERY` within the budget's ``iterations``; past them (a ``seconds`` budget) at each
        doubling, so that the looks, each over every sample so far, cost little beside the samples."""
        if done < self.CHECK_FROM:
            return False
        if done <= self.iterations:
            return (done - self.CHECK_FROM) % self.CHECK_EVERY == 0
        times, left = divmod(done, self.iterations)
        return left == 0 and times & (times - 1) == 0

    def _sample(
        self,
        game: Game,
        seat: int,
        candidates: list[Action],
        which: Sequence[int],
        values: list[list[float]],
        stop: float | None = None,
    ) -> None:
        """One sampled position: a rollout of each candidate in ``which`` on it, appended to its values; past
        ``stop`` (a ``time.perf_counter`` time) no further candidate is played out. A sample cut short
        leaves the candidates after it one value short, a dropped candidate has no values from there on, and
        comparisons use the samples both sides have."""
        if self.pause_collector and gc.get_count()[0] > self.YOUNG_LIMIT:
            gc.collect(0)
        world = determinize(game, seat, self.rng)
        if not world.is_over:
            # The seat's legal actions are part of what it sees, which determinize keeps: the world lists what the
            # game lists, the candidates among them (found by identity), and every copy of the world keeps the list.
            world.deal._legal = list(game.deal.legal_actions())
        # Every candidate's copy starts from the world's generator state (a plain random.Random, just seeded by
        # determinize): read once, set in each copy (reading it is two thirds of copying it).
        state = world.rng.getstate() if len(which) > 1 else ()
        for k, i in enumerate(which):
            if k and stop is not None and time.perf_counter() > stop:
                break
            sim = world._clone(_random_in_state(state)) if k < len(which) - 1 else world
            values[i].append(self.rollout(sim, candidates[i], seat))
            sim._drop()  # freed at once rather than by the collector: a decision plays out a hundred or more
        world._drop()

    def leader(self, values: list[list[float]]) -> int:
        """The candidate worth more samples: the one beating the first choice by the most on the same
        samples, if by between :attr:`PROMISING` and :attr:`MARGIN` standard errors; else 0 (none)."""
        return _ahead(values, lambda t: self.PROMISING < t < self.MARGIN)

    def pick(self, values: list[list[float]]) -> int:
        """The candidate to play: the one whose rollouts beat the first choice's (the outs bot's) by the most
        on the same samples, if by more than :attr:`MARGIN` standard errors; else the first choice."""
        return _ahead(values, lambda t: t > self.MARGIN)

    def moves_for(self, game: Game) -> int:
        """The longest rollout in ``game``: the bot's ``rollout_moves`` if given, else the game's own
        (its ruleset's ``bots.search.rollout_moves``), else :attr:`ROLLOUT_MOVES`."""
        if self.rollout_moves is not None:
            return self.rollout_moves
        own = game.variant.ruleset.get("bots", {}).get("search", {}).get("rollout_moves")
        return self.ROLLOUT_MOVES if own is None else int(own)

    def rollout(self, sim: Game, action: Action, seat: int) -> float:
        """``action`` played in ``sim``, the hand played out by greedy bots: the score difference for ``seat``'s
        side (:func:`~rummykit.search.hand_points` if the rollout stops first). ``sim`` is a copy to play out:
        it ends with this hand (its ``max_hands`` is set so that no next hand is dealt)."""
        hands = len(sim.results)
        moves = self.moves_for(sim)
        sim.max_hands = min(sim.max_hands, hands + 1)  # the play-out ends with this hand: no next one dealt
        sim._counts_cards = False  # counted when the hand ends instead of after every move (see Game._counts_cards)
        sim.apply(action)
        bot = self.rollout_bot
        for _ in range(moves):
            if len(sim.results) > hands:
                break
            sim.apply(bot.choose(sim))
        if len(sim.results) > hands:
            return side_difference(sim, sim.results[hands].scores, seat)
        if sim.deal.card_count() != len(sim.deck):  # stopped before the hand's end, where it is counted
            sim._lost_cards(sim.deal, f"in a play-out of {action}, by its last move,")
        return hand_points(sim, seat)


_PAUSES = 0
"""How many :func:`collector_paused` blocks are running, in every thread."""
_PAUSE_LOCK = threading.Lock()
_RESUME = False
"""Whether the collector was running when the first of those blocks began."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's garbage collector paused for the block (``gc.disable()``), and set going again once the last
    such block, in any thread, has ended, if it was running when the first began (so code that turns the
    collector on or off while a block runs sees its setting undone at the end). Objects are still freed as
    their last reference goes; only cycles wait. :class:`SearchBot` decides so, and
    :func:`~rummykit.simulate.simulate_games` and the house-rule lab play each game so."""
    global _PAUSES, _RESUME
    with _PAUSE_LOCK:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _PAUSE_LOCK:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


def _count(name: str, value: int | None, default: int, least: int = 1, default_text: str | None = None) -> int:
    """A budget option: ``default`` for None, else a whole number of at least ``least`` (ValueError otherwise,
    naming the default as ``default_text`` says, if given)."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        shown = default if default_text is None else default_text
        raise ValueError(f"{name} is None (the default, {shown}) or a whole number of at least {least}, not {value!r}")
    return value


def _seconds(name: str, value: float | None) -> float | None:
    """A time option: None, or a number of seconds above 0 (ValueError otherwise)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0):
        raise ValueError(f"{name} is None (no time limit) or a number of seconds above 0, not {value!r}")
    return value


def _ahead(values: list[list[float]], counts: Callable[[float], bool]) -> int:
    """The candidate beating the first (index 0) by the most on the samples both have, among those whose
    lead in standard errors ``counts``; 0 when there is none."""
    best, best_mean = 0, 0.0
    for i in range(1, len(values)):
        mean, t = _paired(values[i], values[0])
        if mean > best_mean and counts(t):
            best, best_mean = i, mean
    return best


def _paired(values: list[float], base: list[float]) -> tuple[float, float]:
    """The mean of ``values`` less ``base`` over the samples both have, and that mean in standard errors
    (infinite when every sample agrees and the mean is not 0; 0 with fewer than two samples)."""
    diffs = [a - b for a, b in zip(values, base)]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), 0.0
    mean = sum(diffs) / n
    spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5
    if spread == 0.0:
        return mean, (math.inf if mean > 0 else -math.inf if mean < 0 else 0.0)
    return mean, mean / (spread / n**0.5)


def candidate_actions(game: Game, actions: list[Action], first: Action, limit: int) -> list[Action]:
    """Up to ``limit`` actions worth comparing: ``first`` (the outs bot's choice), then in turn the best of each
    kind of action, the second best of each kind, and so on. Actions naming cards of the hand are ranked by
    the deadwood the hand keeps without them (the dearer cards first on a tie); others keep their order."""
    deal = game.deal
    hand = deal.hands[deal.actor]
    search = game.variant.meld_search
    value = game.variant.value
    ids = {c.id for c in hand}
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    ranked: list[list[Action]] = []
    for kind_actions in by_kind.values():
        if kind_actions[0].cards and all(c.id in ids for c in kind_actions[0].cards):
            if all(len(a.cards) == 1 for a in kind_actions):
                after = dict(zip((c.id for c in hand), search.discard_deadwoods(hand)))
                kind_actions = sorted(kind_actions, key=lambda a: (after[a.cards[0].id], -value(a.cards[0])))
            elif len(kind_actions) <= 24:
                kind_actions = sorted(
                    kind_actions,
                    key=lambda a: (search.deadwood(_without(hand, a.cards)), -sum(value(c) for c in a.cards)),
                )
        ranked.append(kind_actions)
    chosen = [first]
    depth = 0
    while len(chosen) < limit and any(depth < len(r) for r in ranked):
        for kind_actions in ranked:
            if depth < len(kind_actions) and len(chosen) < limit and kind_actions[depth] not in chosen:
                chosen.append(kind_actions[depth])
        depth += 1
    return chosen


BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[SearchBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "outs": OutsBot,
    "search": SearchBot,
}


def bot_class(name: str) -> type[RandomBot] | type[GreedyBot] | type[SearchBot]:
    """The bot class named ``name`` (any case); KeyError naming the bots there are."""
    found = BOTS.get(name.lower()) if isinstance(name, str) else None
    if found is None:
        raise KeyError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}")
    return found


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``greedy``, ``outs`` or ``search``, any case); ``options`` go to its class
    (the search bot's budget: ``make_bot("search", 1, iterations=8)``)."""
    cls = bot_class(name)
    known = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = [k for k in options if k not in known]
    if unknown:
        takes = f"its options: {', '.join(known)}" if known else "it takes none"
        raise TypeError(f"the {name.lower()} bot has no option {', '.join(map(repr, unknown))} ({takes})")
    return cls(seed, **options)


def make_bots(names: Sequence[str | Bot], seats: int, seed: int) -> list[Bot]:
    """One bot per seat: names (``random``, ``greedy``) are built with :func:`bot_seed`; bot objects are
    used as given. A single entry plays every seat. Raises ValueError when the counts differ and KeyError
    for an unknown bot name."""
    items = list(names)
    if len(items) == 1:
        items = items * seats
    if len(items) != seats:
        raise ValueError(f"{len(items)} bots for {seats} seats: name one bot per seat (or one for all)")
    return [make_bot(item, bot_seed(seed, seat)) if isinstance(item, str) else item for seat, item in enumerate(items)]


_SEED_BITS = 63


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the sha256 of ``parts`` joined with ``:``; the same parts always give the same seed."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game with seed ``seed``."""
    return derive_seed(seed, "bot", seat)
