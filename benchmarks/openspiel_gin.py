"""A rummykit bot against OpenSpiel's simple Gin bot, refereed by OpenSpiel's own ``gin_rummy`` engine.

    python3 benchmarks/openspiel_gin.py --hands 1000 --jobs 2          # the yardstick: 1,000 deals, each twice
    python3 benchmarks/openspiel_gin.py --hands 20 --bot greedy          # a quick look

Each deal (a seeded sequence of OpenSpiel chance outcomes) is played twice, the rummykit bot in seat 0 and
then in seat 1, against ``pyspiel.make_simple_gin_rummy_bot``. OpenSpiel's game (default parameters: knock
card 10, gin bonus 25, undercut bonus 25, no big gin) decides what is legal and scores each hand; its
``returns()`` are the hand points reported.

:class:`RummykitAgent` is the adapter. When the rummykit bot has a decision to make (take the first upcard
or pass, draw from the upcard or the stock, discard or knock) it is shown a rummykit Gin position (gin with
the ``modern`` house rule: gin and undercut bonuses 25) built only from what the seat observes in OpenSpiel:
its own hand, the discard pile with the upcard on top, the stock's size, and the cards the opponent is known
to hold (upcards it took and has not discarded). The opponent's other cards and the stock are filled with
the unseen cards in a fixed order; a search bot samples them again itself. The bot's action is translated
back (``knock X``: OpenSpiel's knock, then ``X`` as the knock discard). Laying melds after a knock and
laying off are done by the adapter: the best meld group (``GinRummyUtils.best_meld_group``), and every
lay-off that lowers the deadwood left (the simple bot never lays off).

Needs ``open_spiel`` (the ``test`` extra). Prints a summary and, with ``--json FILE``, saves it there under
the bot's name (after every deal), beside the other bots' summaries the file holds (one run per file at a
time: runs of two bots at once would each write over the other's).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pyspiel
from bots import SEARCH_VERSION  # benchmarks/bots.py: which search bot a saved entry measured

import rummykit
from rummykit.bots import Bot, SearchBot, make_bot
from rummykit.cards import card_from_face
from rummykit.engine import Action, Game

GR = pyspiel.gin_rummy
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = GR.DRAW_UPCARD_ACTION, GR.DRAW_STOCK_ACTION, GR.PASS_ACTION, GR.KNOCK_ACTION
MELD_BASE = GR.MELD_ACTION_BASE
UTILS = GR.GinRummyUtils(GR.DEFAULT_NUM_RANKS, GR.DEFAULT_NUM_SUITS, GR.DEFAULT_HAND_SIZE)
Phase = GR.Phase


def os_card(face: int) -> int:
    """OpenSpiel's number of a rummykit face (OpenSpiel orders the suits s c d h, rummykit C D H S)."""
    return ((face // 13 + 1) % 4) * 13 + face % 13


def rk_face(card: int) -> int:
    """rummykit's face of an OpenSpiel card number."""
    return ((card // 13 + 3) % 4) * 13 + card % 13


def deadwood(hand: list[int]) -> int:
    return int(UTILS.min_deadwood(hand))


def meld_actions(hand: list[int]) -> list[int]:
    """OpenSpiel's meld actions for the best meld group of ``hand``."""
    return [MELD_BASE + UTILS.meld_to_int(sorted(meld)) for meld in UTILS.best_meld_group(hand)]


class RummykitAgent:
    """Plays seat ``player`` of an OpenSpiel ``gin_rummy`` hand with a rummykit bot (see the module's text)."""

    def __init__(self, bot: Bot, player: int, variant: rummykit.Variant):
        self.bot = bot
        self.player = player
        self.variant = variant
        self.pending: list[int] = []
        self.move_seconds: list[float] = []

    def step(self, state: Any) -> int:
        legal = list(state.legal_actions())
        if self.pending:
            action = self.pending.pop(0)
            if action in legal:
                return action
            self.pending = []
        if len(legal) == 1:
            return legal[0]
        phase = state.current_phase()
        hand = list(state.hands()[self.player])
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD):
            return self._ask_bot(state, phase, hand, legal)
        if phase == Phase.WALL:
            return KNOCK if KNOCK in legal else PASS
        if phase == Phase.KNOCK:
            if len(hand) == GR.DEFAULT_HAND_SIZE + 1:  # the knock discard, when not chosen already (the wall)
                return min(legal, key=lambda c: (deadwood([x for x in hand if x != c]), -UTILS.card_value(c)))
            self.pending = meld_actions(hand) + [PASS]
            return self.step(state)
        if phase == Phase.LAYOFF:
            if not state.finished_layoffs():
                now = deadwood(hand)
                for card in legal:
                    if card != PASS and deadwood([x for x in hand if x != card]) < now:
                        return card
                return PASS
            self.pending = meld_actions(hand) + [PASS]
            return self.step(state)
        return legal[0]

    def position(self, state: Any, phase: Any, hand: list[int]) -> Game:
        """The rummykit Gin position this seat sees (see the module's text)."""
        me, other = self.player, 1 - self.player
        pile = list(state.discard_pile())
        upcard = state.upcard()
        if upcard is not None:
            pile.append(upcard)
        seen = set(hand) | set(pile)
        known = [c for c in state.known_cards()[other] if c not in seen]
        unseen = [c for c in range(52) if c not in seen and c not in known]
        other_size = GR.DEFAULT_HAND_SIZE
        filler = unseen[: other_size - len(known)]
        stock = unseen[other_size - len(known) :]
        assert len(stock) == state.stock_size(), (len(stock), state.stock_size())
        hands: list[list[str]] = [[], []]
        hands[me] = [str(card_from_face(rk_face(c))) for c in hand]
        hands[other] = [str(card_from_face(rk_face(c))) for c in known + filler]
        layout = {
            "dealer": 1,  # OpenSpiel's player 0 has the first turn
            "hands": hands,
            "discard": [str(card_from_face(rk_face(c))) for c in pile],
            "stock": [str(card_from_face(rk_face(c))) for c in stock],
        }
        if phase == Phase.DISCARD:
            # The kernel deals ten cards each: the eleventh goes in once the game is set up.
            layout["hands"][me] = layout["hands"][me][:-1]
            layout["stock"] = [str(card_from_face(rk_face(hand[-1])))] + layout["stock"]  # the first is the top
        game = self.variant.new_game(seed=0, layout=layout)
        deal = game.deal
        deal.known[other] = {card_from_face(rk_face(c)).id for c in known}
        if phase == Phase.FIRST_UPCARD:
            if me == 1:
                game.apply("pass")  # OpenSpiel's player 0 passed: the dealer's refusal now
            return game
        if phase == Phase.DISCARD:
            card = deal.stock.pop()
            deal.hands[me].append(card)
            prev = state.prev_upcard()
            if prev is not None and prev in hand:
                deal.taken = card_from_face(rk_face(prev))
        deal.state.pop("passes", None)
        deal.current = me
        deal.phase = "draw" if phase == Phase.DRAW else "discard"
        deal.turn = 2
        deal._legal = None
        return game

    def _ask_bot(self, state: Any, phase: Any, hand: list[int], legal: list[int]) -> int:
        game = self.position(state, phase, hand)
        start = time.perf_counter()
        action: Action = self.bot.choose(game)
        self.move_seconds.append(time.perf_counter() - start)
        if action.kind == "draw discard":
            chosen = DRAW_UPCARD
        elif action.kind == "draw stock":
            chosen = DRAW_STOCK
        elif action.kind == "pass":
            chosen = PASS
        elif action.kind == "discard":
            chosen = os_card(action.cards[0].face)
        elif action.kind == "knock":
            chosen = KNOCK
            self.pending = [os_card(action.cards[0].face)]
        else:
            raise AssertionError(f"no OpenSpiel action for {action}")
        if chosen not in legal:
            raise AssertionError(f"{action} is {chosen}, not legal in OpenSpiel: {legal}\n{state}")
        return chosen


def play_hand(seed: int, seat: int, bot_name: str, iterations: int | None) -> dict[str, Any]:
    """One OpenSpiel hand from the deal numbered ``seed``, the rummykit bot in ``seat``."""
    game = pyspiel.load_game("gin_rummy")
    variant = rummykit.load_variant("gin", house_rules=["modern"])
    bot: Bot = SearchBot(seed * 2 + seat, iterations=iterations) if bot_name == "search" else make_bot(bot_name, seed)
    agent = RummykitAgent(bot, seat, variant)
    simple = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - seat)
    chance = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[chance.randrange(len(outcomes))])
        elif state.current_player() == seat:
            state.apply_action(agent.step(state))
        else:
            state.apply_action(simple.step(state))
    returns = state.returns()
    return {
        "seed": seed,
        "seat": seat,
        "points": returns[seat],
        "other": returns[1 - seat],
        "moves": agent.move_seconds,
    }


def _deal(args: tuple[int, str, int | None]) -> list[dict[str, Any]]:
    seed, bot_name, iterations = args
    return [play_hand(seed, seat, bot_name, iterations) for seat in (0, 1)]


def run(
    hands: int, jobs: int, bot_name: str, iterations: int | None, seed: int = 0, save: Path | None = None
) -> dict[str, Any]:
    """Play ``hands`` deals twice each (in ``jobs`` processes); with ``save``, the summary is written there
    after every deal, so that a run stopped early still leaves the deals it played."""
    tasks = [(seed * 1_000_003 + i, bot_name, iterations) for i in range(hands)]
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    with ProcessPoolExecutor(jobs) as pool:
        for pair in pool.map(_deal, tasks, chunksize=1):
            rows += pair
            summary = summarise(rows, bot_name, iterations, time.perf_counter() - start)
            if save is not None:
                saved = load_results(save)
                saved[bot_name] = summary
                save.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    return summary


def load_results(path: Path) -> dict[str, dict[str, Any]]:
    """The saved summaries by bot name (a file of one summary, as earlier runs wrote, is read as that bot's)."""
    if not path.exists():
        return {}
    saved = json.loads(path.read_text(encoding="utf-8"))
    return {saved["bot"]: saved} if "bot" in saved else saved


def summarise(rows: list[dict[str, Any]], bot_name: str, iterations: int | None, elapsed: float) -> dict[str, Any]:
    diffs = [r["points"] - r["other"] for r in rows]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("inf")
    won = sum(1 for r in rows if r["points"] > 0)
    lost = sum(1 for r in rows if r["other"] > 0)
    moves = [t for r in rows for t in r["moves"]]
    return {
        "bot": bot_name,
        "iterations": iterations or (SearchBot.ITERATIONS if bot_name == "search" else None),
        "search_version": SEARCH_VERSION,
        "deals": len(rows) // 2,
        "hands": len(rows),
        "points": sum(r["points"] for r in rows),
        "opponent_points": sum(r["other"] for r in rows),
        "mean_difference": mean,
        "interval": [mean - half, mean + half],
        "hands_won": won,
        "hands_lost": lost,
        "median_move_seconds": statistics.median(moves) if moves else None,
        "max_move_seconds": max(moves) if moves else None,
        "elapsed_seconds": elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="deals, each played twice with the seats swapped")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--iterations", type=int, default=None, help="the search bot's budget (default its own)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    summary = run(args.hands, args.jobs, args.bot, args.iterations, args.seed, Path(args.json) if args.json else None)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
