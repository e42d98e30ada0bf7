"""Partnership Gin for four (docs/gin.md, "Rules decisions for Partnership Gin").

Partners sit opposite (seats 0 and 2 against 1 and 3). Each round every player plays a separate
two-hand game of Gin against one opponent, opponents alternating each round: 0 v 1 and 2 v 3, then
0 v 3 and 2 v 1, and so on. Both partners won: their team scores the total of their points. One win each:
the team with the higher score scores the difference. First team to the target (125) wins.

Design: each two-hand game is one kernel :class:`~rummykit.engine.Deal` with its own full deck, stock and
discard pile (``rummykit_seats_in_play`` gives the two seats of that table), so every card is accounted
for by the kernel as in two-player Gin. A round is two such deals, one table after the other. The first
table's :class:`HandResult` keeps that game's points in ``details["table_points"]`` and scores nothing yet;
the second table's result carries the round's team settlement in its ``scores`` (credited to the seats
that won), so seat scores still add up to the hand scores and ``Game.side_scores()`` are the team scores.
A dead hand at a table is dealt again at that table by the same dealer before the round goes on, and so is
a hand abandoned at the turn limit (``max_turns``, kind ``turn-limit``), which the kernel ends unscored.

Who deals: both dealers of a round belong to one team (each table pairs one player of each team). The
first round's dealing team is the first dealer's; afterwards ``rules.next_dealer`` applies to teams: the
team that lost the round deals (``loser``, the default; a round with no score alternates), the team that
won it (``winner``), or the teams take turns (``alternate``). There are no game, box or shutout bonuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rummykit import hookimpl
from rummykit.engine import TURN_LIMIT, Deal, Game, HandResult
from rummykit.results import ResultWords

from . import gin

REPLAYED = ("dead", TURN_LIMIT)
"""Kinds of a table's hand that settle nothing: the table is dealt again by the same dealer (a dead hand, or
one the kernel abandoned at the turn limit, which has no ``table`` or ``table_points`` details)."""

PAIRINGS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (((0, 1), (2, 3)), ((0, 3), (2, 1)))
"""The two tables of a round, in round order: even rounds, then odd rounds."""

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # There is no game bonus to double: a shutout option would do nothing.
        "shutout": {"enum": ["bonus"]},
    },
}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


def round_state(game: Game) -> tuple[int, list[HandResult]]:
    """(index of the round in progress from 0, the results of its tables already won) from finished hands."""
    number = sum(1 for r in game.results if r.details.get("round_done"))
    done: list[HandResult] = []
    for result in reversed(game.results):
        if result.details.get("round_done"):
            break
        if result.kind not in REPLAYED:
            done.append(result)
    return number, done


def table_of(round_index: int, seat: int) -> tuple[int, int]:
    """The two seats at ``seat``'s table in a round."""
    for pair in PAIRINGS[round_index % 2]:
        if seat in pair:
            return pair
    raise ValueError(f"no seat {seat} at a four-player table")


@hookimpl
def rummykit_seats_in_play(game: Game, dealer: int) -> list[int]:
    round_index, _ = round_state(game)
    return sorted(table_of(round_index, dealer))


def settle_round(games: list[tuple[int, int]]) -> list[int]:
    """Per seat, what a round scores, from its two games as (winner, points).

    Both winners in one team: each keeps their points (the team scores the total). One win each: the
    winner whose points are higher keeps the difference, the other scores nothing (equal: nobody scores)."""
    scores = [0] * 4
    (w1, p1), (w2, p2) = games
    if w1 % 2 == w2 % 2:
        scores[w1] += p1
        scores[w2] += p2
    elif p1 > p2:
        scores[w1] = p1 - p2
    elif p2 > p1:
        scores[w2] = p2 - p1
    return scores


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    result: HandResult | None = gin.rummykit_score_hand(deal=deal, kind=kind)
    if result is None:
        return None
    game = deal.game
    round_index, done = round_state(game)
    details: dict[str, Any] = dict(result.details)
    details["round"] = round_index + 1
    details["table"] = list(deal.seats)
    zero = (0,) * game.num_players
    if result.kind == "dead":
        return replace(result, scores=zero, details=details)
    assert result.winner is not None
    details["table_points"] = list(result.scores)
    if not done:
        return replace(result, scores=zero, details=details)
    first = done[0]
    assert first.winner is not None
    games = [(first.winner, first.details["table_points"][first.winner]), (result.winner, result.scores[result.winner])]
    details["round_games"] = [list(g) for g in games]
    details["round_done"] = True
    scores = settle_round(games)
    details["team_points"] = [scores[0] + scores[2], scores[1] + scores[3]]
    return replace(result, scores=tuple(scores), details=details)


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int:
    if result.kind in REPLAYED:
        return result.dealer  # that table is dealt again by the same dealer
    dealing_team = result.dealer % 2
    round_index, done = round_state(game)
    if done:  # the round's other table is next
        played = {seat for r in done for seat in r.details["table"]}
        pair = next(p for p in PAIRINGS[round_index % 2] if not played & set(p))
        return next(seat for seat in pair if seat % 2 == dealing_team)
    team_points = result.details["team_points"]
    rule = gin.gin_rules(game.variant).next_dealer
    if rule == "alternate" or team_points[0] == team_points[1]:
        team = 1 - dealing_team
    else:
        won = 0 if team_points[0] > team_points[1] else 1
        team = won if rule == "winner" else 1 - won
    pair = PAIRINGS[round_index % 2][0]
    return next(seat for seat in pair if seat % 2 == team)


@hookimpl
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]]:
    return []


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    game = deal.game
    round_index, done = round_state(game)
    view["round"] = round_index + 1
    view["table_seats"] = list(deal.seats)  # "table" is the table melds, as in every variant
    view["team_scores"] = game.side_scores()
    view["tables_done"] = [
        {"seats": r.details["table"], "winner": r.winner, "points": r.details["table_points"][r.winner]} for r in done
    ]


def _points(number: int) -> str:
    return f"{number} point{'' if number == 1 else 's'}"


def round_text(game: Game, details: Mapping[str, Any], words: ResultWords) -> str:
    """How a round of tables scores, from the result of its last table; for an earlier table, that the round
    is scored when the other ends."""
    round_number = details.get("round")
    games = details.get("round_games")
    if not details.get("round_done") or not isinstance(games, list):
        return f"Round {round_number} is scored when its other table ends."
    won = [f"{words.name(seat)} won table {table} ({_points(points)})" for table, (seat, points) in enumerate(games, 1)]
    teams: dict[int, list[str]] = {}
    for seat in range(game.num_players):
        teams.setdefault(game.side_of(seat), []).append(words.name(seat))
    (w1, p1), (w2, p2) = games[0], games[-1]
    if game.side_of(w1) == game.side_of(w2):
        how = f"{' & '.join(teams[game.side_of(w1)])} won both tables and score {p1} + {p2} = {p1 + p2}"
    elif p1 == p2:
        how = "one table each, with equal points, so nobody scores"
    else:
        high, low, seat = (p1, p2, w1) if p1 > p2 else (p2, p1, w2)
        how = (
            f"one table each, so {' & '.join(teams[game.side_of(seat)])} score the difference, "
            f"{high} - {low} = {high - low}"
        )
    return f"Round {round_number}: {', '.join(won)}: {how}."


@hookimpl
def rummykit_describe_result(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    """A table's result: the table's points (the round's are scored at its last table), and the round."""
    details = result.details
    table_points = details.get("table_points")
    if isinstance(table_points, list) and isinstance(result.winner, int):
        winner = result.winner
        won = f"{words.name(winner)} {words.verb(winner, 'win', 'wins')} the table"
        words.scored = f"{won}: {_points(table_points[winner])}"
    if result.kind == "dead" and isinstance(details.get("table"), list):
        words.remarks.append("The table is dealt again.")
    if isinstance(table_points, list) and result.kind != "dead":
        words.lines.append(round_text(game, details, words))
