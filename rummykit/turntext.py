"""The turn text people read: a game told turn by turn, as the terminal prints it and the web page shows it.

:class:`TurnPrinter` writes the deal headers, one line per action in the words of the game's
``rummykit_describe_action`` hook, each hand's result and the end of the game. The terminal
(:mod:`rummykit.cli`) and the web table (:mod:`rummykit.web.app`) both use it, so a game reads the same in
both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from .actions import Action, action_words, position_words
from .engine import Deal, Game, HandResult
from .results import describe_result
from .variant import Variant

__all__ = ["TurnPrinter", "printable", "for_people", "Write"]

Write = Callable[[str], None]


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (ESC, carriage return, line ends, other control
    and format characters) written as a Python escape (``\\x1b``, ``\\r\\n``): names and titles from a
    record or a ruleset show as text, and cannot colour the output, clear the screen or forge a line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _cards(items: Sequence[Any]) -> str:
    return " ".join(str(c) for c in items) or "-"


def _count(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun in the singular or the plural."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


_MELD_NUMBER = re.compile(r"\b(on|meld) (\d+)\b")


def for_people(text: str) -> str:
    """``text`` from the engine or a plugin with its table meld numbers counted from 1, as people count them:
    ``layoff 7C on 0`` reads ``layoff 7C on 1``, ``does not fit table meld 0`` reads ``table meld 1``.
    Action texts (records, the Python API, the JSON API) count table melds from 0; the terminal and the web
    page show them from 1 and read what people type from 1 (:func:`from_people`)."""
    return _MELD_NUMBER.sub(lambda match: f"{match[1]} {int(match[2]) + 1}", text)


class TurnPrinter:
    """Prints a game turn by turn: deal headers, one line per action, each hand's result, the end.

    Use it as ``on_start`` and ``on_action`` of :func:`rummykit.simulate.play_game` and
    :func:`rummykit.simulate.replay_record`. Action lines are in the words of the game's
    ``rummykit_describe_action`` hook, which name no card ``viewer`` may not see (Gin shows the knocker's
    face-down discard; ``viewer`` sees the cards it draws itself). ``show_hands`` prints every hand at the
    start of each deal (bot games and replays only).
    """

    def __init__(self, write: Write, viewer: int | None = None, show_hands: bool = True, labels: Sequence[str] = ()):
        self.write = write
        self.viewer = viewer
        self.show_hands = show_hands
        self.labels = list(labels)
        """Per seat, a word shown after the name in the game header (the bot's name)."""
        self.pause: Callable[[], bool] | None = None
        """Called after a hand's result, before the next deal is shown (to let a person read it); False: the
        person leaves, and the next deal is not shown."""
        self.stop_after: int | None = None
        """The number of finished hands at which play stops (``--max-hands``): the deal dealt then is not shown."""

    # -- names --

    def name(self, game: Game, seat: int) -> str:
        """The seat's name as shown: ``You`` for the viewer, else its name from the game, :func:`printable`."""
        return "You" if seat == self.viewer else printable(game.names[seat])

    def scores_text(self, game: Game, scores: Sequence[int]) -> str:
        """``You 12, Player 2 30``: ``scores`` (one per seat) after the seats' names."""
        return ", ".join(f"{self.name(game, seat)} {score}" for seat, score in enumerate(scores))

    # -- the game --

    def start(self, game: Game) -> None:
        """Write the game's header (the variant, what is in force, the seed, who plays whom) and the first
        deal's: ``on_start`` of :func:`rummykit.simulate.play_game`."""
        variant = game.variant
        extra = _in_force(variant)
        seats = []
        for seat in range(game.num_players):
            label = self.labels[seat] if seat < len(self.labels) else ""
            seats.append(self.name(game, seat) + (f" ({label})" if label else ""))
        shown = " vs ".join(" & ".join(side) for side in _by_side(variant, seats))  # "You & Player 3 vs ..."
        self.write(f"{printable(variant.title)} ({variant.name}){extra}, seed {game.seed}: {shown}")
        self.deal_header(game, game.deal)

    def table_text(self, game: Game, round_number: int, table: int, seats: Sequence[int], inline: bool = False) -> str:
        """``Round 1, table 2 (Player 3 vs Player 4)`` (``inline``: ``round 1, table 2: Player 3 vs Player 4``):
        a deal of a game whose rounds are played at several tables at once (Partnership Gin)."""
        players = " vs ".join(self.name(game, s) for s in sorted(seats))
        if inline:
            return f"round {round_number}, table {table}: {players}"
        return f"Round {round_number}, table {table} ({players})"

    def deal_title(self, game: Game, deal: Deal, inline: bool = False) -> str:
        """How the deal in progress is named: ``Deal 3``, or its round and table (Partnership Gin); ``inline``:
        within a sentence (``deal 3``)."""
        view = game.observation(deal.seats[0])
        if isinstance(view.get("round"), int) and isinstance(view.get("table_seats"), list):
            done = view.get("tables_done")
            table = len(done) + 1 if isinstance(done, list) else 1
            return self.table_text(game, view["round"], table, view["table_seats"], inline)
        return f"{'deal' if inline else 'Deal'} {deal.number}"

    def result_title(self, game: Game, result: HandResult) -> str:
        """How a finished deal is named: ``Deal 3``, or its round and table (Partnership Gin)."""
        details = result.details
        round_number, seats = details.get("round"), details.get("table")
        if not isinstance(round_number, int) or not isinstance(seats, list):
            return f"Deal {result.number}"
        before = game.results[: result.number - 1]
        table = 1 + sum(1 for r in before if r.details.get("round") == round_number and r.kind != "dead")
        return self.table_text(game, round_number, table, seats)

    def deal_header(self, game: Game, deal: Deal) -> None:
        """Write the header of ``deal``: who deals, every hand when ``show_hands``, the pile and the stock."""
        self.write("")
        self.write(
            f"== {self.deal_title(game, deal)}: {self.name(game, deal.dealer)} "
            f"deal{'' if deal.dealer == self.viewer else 's'} =="
        )
        if self.show_hands:
            width = max(len(self.name(game, s)) for s in deal.seats)
            for seat in deal.seats:
                self.write(f"  {self.name(game, seat):<{width}}  {_cards(sorted(deal.hands[seat]))}")
        view = game.observation(deal.seats[0])
        parts = []
        if view.get("discard_top"):
            parts.append(f"{'Upcard' if deal.turn == 0 else 'Discard'}: {view['discard_top']}")
        parts.append(f"Stock: {_count(view['stock_size'], 'card')}")
        parts += (for_people(printable(fact)) for fact in position_words(deal, deal.seats[0]).facts)
        self.write("  " + "   ".join(parts))

    def action_text(self, game: Game, deal: Deal, seat: int, action: Action) -> str:
        """The line for ``action`` just applied by ``seat`` in ``deal``, in the words of the
        ``rummykit_describe_action`` hook (``Player 2: ACTION`` for an action no plugin describes)."""
        words = action_words(deal, seat, action, self.viewer)
        if words is None:
            return f"{self.name(game, seat)}: {for_people(str(action))}"
        # A plugin's words may hold other seats' names as they are: escaped as well.
        if seat == self.viewer:
            return f"You {for_people(printable(words.you))}"
        return f"{self.name(game, seat)} {for_people(printable(words.they))}"

    def __call__(self, game: Game, deal: Deal, seat: int, action: Action) -> None:
        self.write("  " + self.action_text(game, deal, seat, action))
        for mover, move in _moves_after(deal, action):  # the moves the rules then made (a card taken up)
            self.write("  " + self.action_text(game, deal, mover, move))
        if deal.result is not None:
            self.hand_result(game, deal, deal.result)
            stopping = self.stop_after is not None and len(game.results) >= self.stop_after
            if not game.is_over and game.deal is not deal and not stopping:
                if self.pause is not None and not self.pause():
                    return
                self.deal_header(game, game.deal)

    def hand_result(self, game: Game, deal: Deal | None, result: HandResult) -> None:
        """Write the :meth:`result_lines` of a finished hand."""
        for line in self.result_lines(game, deal, result):
            self.write(line)

    def result_lines(self, game: Game, deal: Deal | None, result: HandResult) -> list[str]:
        """The result of a hand in the words of the ``rummykit_describe_result`` hook: how it ended, the points,
        each seat's spread, then the scores so far."""
        names = [self.name(game, seat) for seat in range(game.num_players)]
        words = describe_result(game, deal, result, names, self.viewer)
        lines = [printable(f"-- {self.result_title(game, result)} ends: {words.headline()}")]
        lines += map(printable, words.body())
        totals = [0] * game.num_players
        for hand in game.results[: result.number]:
            for seat, points in enumerate(hand.scores):
                totals[seat] += points
        lines.append(f"   Scores: {self.scores_text(game, totals)}")
        if game.variant.partnerships:
            sides = [sum(totals[s] for s in range(game.num_players) if game.side_of(s) == side) for side in (0, 1)]
            lines.append("   Sides: " + ", ".join(
                f"{' & '.join(self.name(game, s) for s in range(game.num_players) if game.side_of(s) == side)} {score}"
                for side, score in enumerate(sides)))  # fmt: skip
        return lines

    def played_text(self, game: Game) -> str:
        """``3 deals``, or ``2 rounds (5 deals)`` in a game of rounds at several tables (Partnership Gin)."""
        deals = _count(len(game.results), "deal")
        if not any(isinstance(r.details.get("table"), list) and "round" in r.details for r in game.results):
            return deals
        rounds = sum(1 for r in game.results if r.details.get("round_done"))
        return f"{_count(rounds, 'round')} ({deals})"

    def game_end(self, game: Game) -> None:
        """Write how the game ended (or that it stopped before its end), the final scores and who wins."""
        self.write("")
        if not game.is_over:
            self.write(f"== Stopped after {self.played_text(game)}: the game is not over ==")
            self.write(f"Scores so far: {self.scores_text(game, game.scores)}")
            return
        self.write(f"== Game over after {self.played_text(game)} ==")
        if game.end_reason == "max-hands":
            self.write(f"The game reached its hand limit ({_count(game.max_hands, 'hand')}) before its end.")
        if game.bonuses:
            self.write("Bonuses:")
            for seat, name, points in game.bonuses:
                self.write(f"  {self.name(game, seat)}: {printable(name)} {points:+d}")
        self.write(f"Final scores: {self.scores_text(game, game.scores)}")
        teams = _by_side(game.variant, [self.name(game, s) for s in range(game.num_players)])
        if game.variant.partnerships:
            sides = game.side_scores()
            self.write("Sides: " + ", ".join(f"{' & '.join(team)} {score}" for team, score in zip(teams, sides)))
        if game.winner is None:
            self.write("Nobody wins.")
            return
        if game.variant.partnerships:
            self.write(f"{' & '.join(teams[game.side_of(game.winner)])} win.")
        else:
            self.write(f"{self.name(game, game.winner)} win{'' if game.winner == self.viewer else 's'}.")


def _by_side(variant: Variant, texts: Sequence[str]) -> list[list[str]]:
    """Per side (in side order), the texts of its seats (``texts[seat]``): partners together."""
    sides: list[list[str]] = [[] for _ in range(max(map(variant.side_of, range(len(texts)))) + 1)]
    for seat, text in enumerate(texts):
        sides[variant.side_of(seat)].append(text)
    return sides


def _moves_after(deal: Deal, action: Action) -> list[tuple[int, Action]]:
    """The moves the rules made by themselves right after ``action``, the last action ``deal``'s log holds
    that is that very object (made by the rules, they are new objects, never a listed action)."""
    log = deal.log
    for index in range(len(log) - 1, -1, -1):
        if log[index][1] is action:
            return log[index + 1 :]
    return []


def _meld_text(entry: dict[str, Any]) -> str:
    """A table meld as the observation gives it, each wild card with what it stands for (``KS 2H=QS JS``)."""
    meant = entry.get("stands_for") or [None] * len(entry["cards"])
    return " ".join(card if m is None else f"{card}={m}" for card, m in zip(entry["cards"], meant))


def _in_force(variant: Variant) -> str:
    """`` with HOUSE-RULES, plugin NAME`` for a banner: what is in force besides the ruleset ('' if nothing)."""
    added = [*variant.house_rules, *(f"plugin {name}" for name in variant.extra_plugins)]
    return f" with {printable(', '.join(added))}" if added else ""
