"""Exact least deadwood for big hands with wild cards and cards from several decks.

The general path of :class:`rummykit.melds.MeldSearch` for the usual meld rules (sets and runs, wild
cards, duplicates; no special melds, no sets needing distinct suits, no longest run). A dynamic
programme over run positions (ace low, 2 .. K, ace high), suit by suit within a position:

* a state holds, per suit, the runs still open (each as its length so far, capped at the shortest run,
  the room below its start for wild cards, and its wild cards when a meld's wild cards are limited), the
  wild cards used so far, and with "ace high or low" the aces kept back for the top of the runs;
* at a position every open run takes the natural card there, a wild card, or ends; the cards left
  start runs, go to the sets of that rank (which take wild cards too), or stay deadwood;
* wild cards placed before a run's lowest natural card are only needed when the run ends at the top of
  its positions (otherwise they can as well go on the top end), so they are added when such a run ends.

Deadwood values depend only on the cards, so the programme maximises the value of the natural cards
melded for each number of wild cards used; which wild cards those are (the dearest, or those that are
better melded as a set of wild cards alone) is settled at the end. Cost grows with the number of
states, not with the number of arrangements: 45 cards take milliseconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .melds import MeldRules

__all__ = ["DeadwoodSolver", "Group"]

JOKER = 52

Run = tuple[int, int, int]
"""An open run: (length capped at the shortest run, room below its start capped, wild cards in it)."""
SuitRuns = tuple[Run, ...]
Group = tuple[tuple[int, ...], int]
"""A meld found by the solver: its natural faces and how many wild cards it takes."""
# A move of one suit at one position: new open runs, naturals melded in runs, wild cards used, naturals
# sent to the sets of this rank, naturals kept back (aces), what each open run did, runs started.
Move = tuple[SuitRuns, int, int, int, int, tuple[tuple[str, int], ...], int]


def _face(position: int, suit: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


class DeadwoodSolver:
    """Least deadwood of a hand given as counts of natural faces and a list of wild faces."""

    def __init__(self, rules: MeldRules, values: Sequence[int]) -> None:
        self.rules = rules
        self.values = values
        self._run_min = rules.run_min
        self._max_wilds = rules.max_wilds
        if rules.runs:
            self._lo, self._hi = rules.run_span
        else:
            self._lo, self._hi = 1, 13
        self._both = rules.runs and rules.ace == "both"
        # Where sets of aces are formed: with the aces' other run position when it is the only one.
        self._ace_set_position = 14 if rules.runs and rules.ace in ("high", "both") else 1
        self._moves: dict[tuple[object, ...], list[Move]] = {}
        self._room_cap = 0

    @staticmethod
    def supports(rules: MeldRules) -> bool:
        """Whether the rules are within what the programme handles (the rest use the exhaustive search)."""
        return not rules.specials and not rules.set_distinct_suits and rules.run_max is None

    # -- positions ---------------------------------------------------------------------------------

    def _rank(self, position: int) -> int:
        return 1 if position == 14 else position

    def _allowed(self, position: int) -> bool:
        """Whether a run may pass through ``position`` (within the ace rule, not an excluded rank)."""
        return (
            self.rules.runs
            and self._lo <= position <= self._hi
            and self._rank(position) not in self.rules.excluded_ranks
        )

    def _bottom(self, position: int) -> int:
        while self._allowed(position - 1):
            position -= 1
        return position

    # -- one suit at one position --------------------------------------------------------------------

    def _suit_moves(self, runs: SuitRuns, naturals: int, budget: int, ctx: tuple[object, ...]) -> list[Move]:
        key = (runs, naturals, budget, ctx)
        hit = self._moves.get(key)
        if hit is not None:
            return hit
        cont, top_close, new_room, no_room0, close_adj, keep_back, sets_ok = ctx
        length_min = self._run_min
        cap = self._max_wilds
        found: dict[tuple[object, ...], Move] = {}
        actions: list[tuple[str, int]] = []
        kept: list[Run] = []

        def walk(i: int, avail: int, wilds: int, credit: int) -> None:
            if i == len(runs):
                finish(avail, wilds, credit)
                return
            length, room, held = runs[i]
            # End the run here (it ended at the position before).
            if length >= length_min:
                actions.append(("end", 0))
                walk(i + 1, avail, wilds, credit)
                actions.pop()
            if top_close:
                need = max(1, length_min - length)
                most = min(int(room) - int(close_adj), budget - wilds, budget if cap is None else cap - held)
                for extra in range(need, most + 1):
                    actions.append(("end", extra))
                    walk(i + 1, avail, wilds + extra, credit)
                    actions.pop()
            if cont and not (no_room0 and room == 0):
                grown = min(length + 1, length_min)
                if avail:
                    kept.append((grown, room, held))
                    actions.append(("natural", 0))
                    walk(i + 1, avail - 1, wilds, credit + 1)
                    actions.pop()
                    kept.pop()
                if wilds < budget and (cap is None or held < cap):
                    kept.append((grown, room, held + (cap is not None)))
                    actions.append(("wild", 0))
                    walk(i + 1, avail, wilds + 1, credit)
                    actions.pop()
                    kept.pop()

        def finish(avail: int, wilds: int, credit: int) -> None:
            for started in range(avail + 1 if cont else 1):
                rest = avail - started
                new_runs = tuple(sorted(kept + [(1, int(new_room), 0)] * started))
                options = [(0, rest)] if keep_back else [(s, 0) for s in range(rest + 1 if sets_ok else 1)]
                for to_sets, back in options:
                    move_key = (new_runs, credit + started, wilds, to_sets, back)
                    if move_key not in found:
                        found[move_key] = (new_runs, credit + started, wilds, to_sets, back, tuple(actions), started)

        walk(0, naturals, 0, 0)
        result = list(found.values())
        self._moves[key] = result
        return result

    # -- sets ----------------------------------------------------------------------------------------

    def _set_split(self, naturals: int, wilds: int) -> int:
        """How many sets ``naturals`` cards of a rank and ``wilds`` wild cards make exactly (0: none)."""
        rules = self.rules
        total = naturals + wilds
        for groups in range(1, naturals + 1):
            if groups * rules.set_min > total:
                break
            if rules.set_max is not None and total > groups * rules.set_max:
                continue
            if self._max_wilds is not None and wilds > groups * self._max_wilds:
                continue
            return groups
        return 0

    # -- the programme -------------------------------------------------------------------------------

    def solve(self, counts: Sequence[int], wilds: Sequence[int], jokers: int = 0) -> tuple[int, list[tuple[int, ...]]]:
        """Least deadwood and its melds (as faces) of a hand: ``counts[face]`` natural cards of each face
        0..51 (wild faces count 0), the wild cards' faces, and ``jokers`` jokers that are not wild."""
        rules = self.rules
        values = self.values
        if len(self._moves) > 200_000:
            self._moves.clear()
        natural_total = sum(values[face] * counts[face] for face in range(52))
        wild_total = sum(values[face] for face in wilds)
        best, trace = self.best_by_wilds(counts, len(wilds))
        choice: tuple[int, tuple[int, ...], list[tuple[int, ...]]] | None = None
        for used in sub_multisets(wilds):
            if len(used) not in best:
                continue
            rest = list(wilds)
            for face in used:
                rest.remove(face)
            wild_groups = self._wild_sets(rest) if rules.wild_sets else []
            cost = (
                natural_total
                - best[len(used)]
                + wild_total
                - sum(values[face] for face in used)
                - sum(values[face] for group in wild_groups for face in group)
            )
            if choice is None or cost < choice[0]:
                choice = (cost, used, wild_groups)
        assert choice is not None  # no wild card used is always possible
        cost, used, wild_groups = choice
        melds: list[tuple[int, ...]] = []
        spare = list(used)
        for naturals, wild_count in self.groups(trace, len(used)):
            melds.append(naturals + tuple(spare[:wild_count]))
            del spare[:wild_count]
        melds.extend(wild_groups)
        if jokers and rules.joker_sets:
            melded = best_partition(jokers, rules.set_min, rules.set_max)
            melds.extend(_even_groups((JOKER,) * melded, rules.set_max))
            jokers -= melded
        return cost + jokers * values[JOKER], melds

    def _wild_sets(self, wilds: list[int]) -> list[tuple[int, ...]]:
        """The most valuable sets of wild cards alone (one rank each) that ``wilds`` make."""
        rules = self.rules
        by_rank: dict[int, list[int]] = {}
        for face in wilds:
            by_rank.setdefault(0 if face == JOKER else face % 13 + 1, []).append(face)
        result: list[tuple[int, ...]] = []
        for group in by_rank.values():
            group.sort(key=lambda f: -self.values[f])
            melded = best_partition(len(group), rules.set_min, rules.set_max)
            result.extend(_even_groups(tuple(group[:melded]), rules.set_max))
        return result

    def best_by_wilds(self, counts: Sequence[int], budget: int) -> tuple[dict[int, int], object]:
        """For each number of wild cards used in sets and runs, the most natural value melded."""
        rules = self.rules
        values = self.values
        empty: tuple[SuitRuns, SuitRuns, SuitRuns, SuitRuns] = ((), (), (), ())
        start_key = (empty, 0, (0, 0, 0, 0))
        states: dict[tuple[object, ...], int] = {start_key: 0}
        steps: list[tuple[int, int, dict[tuple[object, ...], tuple[tuple[object, ...], object]]]] = []
        room_cap = self._room_cap = budget + 2
        max_rank = max((sum(counts[_face(r, s)] for s in range(4)) for r in range(1, 14)), default=0)
        set_options = [
            [k for k in range(budget + 1) if m == 0 and k == 0 or m and self._set_split(m, k)]
            for m in range(max_rank + 1)
        ]
        for position in range(self._lo, self._hi + 2):
            in_span = position <= self._hi
            cont = self._allowed(position)
            top_close = self._allowed(position - 1) and not cont
            new_room = min(position - self._bottom(position), room_cap) if cont else 0
            no_room0 = self._both and position == 14 and self._bottom(14) == 1
            close_adj = self._both and position == 15 and self._bottom(14) == 1
            keep_back = self._both and position == 1
            rank = self._rank(position) if in_span else 0
            sets_ok = bool(
                in_span
                and rules.sets
                and rank not in rules.excluded_ranks
                and (rank != 1 or position == self._ace_set_position)
            )
            ctx = (cont, top_close, new_room, no_room0, close_adj, keep_back, sets_ok)
            # Cards at this position, per suit (None: take the aces kept back at position 1).
            if not in_span or rank in rules.excluded_ranks:
                here: list[int | None] = [0, 0, 0, 0]
            elif self._both and position == 14:
                here = [None, None, None, None]
            else:
                here = [counts[_face(position, s)] for s in range(4)]
            layer: dict[tuple[object, ...], int] = {key + (0,): val for key, val in states.items()}
            for suit in range(4):
                worth = values[_face(position, suit)] if in_span else 0
                nxt: dict[tuple[object, ...], int] = {}
                back: dict[tuple[object, ...], tuple[tuple[object, ...], object]] = {}
                for key, val in layer.items():
                    runs4, used, kept, in_sets = key  # type: ignore[misc]
                    n = here[suit]
                    if n is None:
                        n = kept[suit]  # type: ignore[index]
                    for move in self._suit_moves(runs4[suit], n, budget - used, ctx):  # type: ignore[index, operator]
                        new_runs, credit, wild_used, to_sets, held_back, _, _ = move
                        runs_next = runs4[:suit] + (new_runs,) + runs4[suit + 1 :]  # type: ignore[index, operator]
                        if keep_back or (self._both and position == 14):
                            kept_next = kept[:suit] + (held_back,) + kept[suit + 1 :]  # type: ignore[index, operator]
                        else:
                            kept_next = kept
                        nkey = (runs_next, used + wild_used, kept_next, in_sets + to_sets)  # type: ignore[operator]
                        nval = val + worth * (credit + to_sets)
                        if nval > nxt.get(nkey, -1):
                            nxt[nkey] = nval
                            back[nkey] = (key, move)
                steps.append((position, suit, back))
                layer = nxt
            states = {}
            back = {}
            for key, val in layer.items():
                runs4, used, kept, in_sets = key  # type: ignore[misc]
                if in_sets >= len(set_options):  # type: ignore[operator]
                    continue
                for k in set_options[in_sets]:  # type: ignore[index]
                    if used + k > budget:  # type: ignore[operator]
                        break
                    nkey = (runs4, used + k, kept)  # type: ignore[operator]
                    if val > states.get(nkey, -1):
                        states[nkey] = val
                        back[nkey] = (key, k)
            steps.append((position, -1, back))
        best: dict[int, int] = {}
        ends: dict[int, tuple[object, ...]] = {}
        for key, val in states.items():
            runs4, used, kept = key  # type: ignore[misc]
            if any(runs4) or any(kept):  # type: ignore[arg-type]
                continue
            if val > best.get(used, -1):  # type: ignore[arg-type]
                best[used] = val  # type: ignore[index]
                ends[used] = key  # type: ignore[index]
        return best, (steps, ends)

    def groups(self, trace: object, used: int) -> list[Group]:
        """The melds of the best arrangement that uses ``used`` wild cards (from :meth:`best_by_wilds`)."""
        steps, ends = trace  # type: ignore[misc]
        key = ends[used]
        chosen: list[tuple[int, int, tuple[object, ...], object]] = []
        for position, suit, back in reversed(steps):
            prev, info = back[key]
            chosen.append((position, suit, prev, info))
            key = prev[:3] if suit == 0 else prev  # a position's first suit starts from a state without sets
        chosen.reverse()
        found: list[Group] = []
        # Open runs per suit: [canonical state, lowest position, cells (face or -1 for a wild card)].
        open_runs: list[list[list[object]]] = [[], [], [], []]
        to_sets: list[int] = []
        for position, suit, prev, info in chosen:
            if suit < 0:
                if to_sets:
                    found.extend(self._split_sets(to_sets, int(info)))  # type: ignore[call-overload]
                to_sets = []
                continue
            move: Move = info  # type: ignore[assignment]
            new_runs, _, _, sets_here, _, actions, started = move
            current = sorted(open_runs[suit], key=lambda r: r[0])  # type: ignore[arg-type, return-value]
            face = _face(position, suit) if position <= self._hi else -1
            kept_runs: list[list[object]] = []
            for run, (action, extra) in zip(current, actions):
                state, low, cells = run
                length, room, held = state  # type: ignore[misc]
                if action == "end":
                    naturals = tuple(f for f in cells if f >= 0)  # type: ignore[attr-defined]
                    wild_count = sum(1 for f in cells if f < 0) + extra  # type: ignore[attr-defined]
                    found.append((naturals, wild_count))
                    continue
                grown = min(length + 1, self._run_min)
                if action == "natural":
                    cells.append(face)  # type: ignore[attr-defined]
                    run[0] = (grown, room, held)
                else:
                    cells.append(-1)  # type: ignore[attr-defined]
                    run[0] = (grown, room, held + (self._max_wilds is not None))
                kept_runs.append(run)
            new_room = min(position - self._bottom(position), self._room_cap)
            for _ in range(started):
                kept_runs.append([(1, new_room, 0), position, [face]])
            open_runs[suit] = kept_runs
            assert tuple(sorted(r[0] for r in kept_runs)) == new_runs  # type: ignore[type-var]
            to_sets.extend([face] * sets_here)
        return found

    def _split_sets(self, faces: list[int], wilds: int) -> list[Group]:
        """Cut the naturals of one rank (and ``wilds`` wild cards) into valid sets, sizes as even as can be."""
        groups = self._set_split(len(faces), wilds)
        total = len(faces) + wilds
        sizes = [total // groups + (1 if i < total % groups else 0) for i in range(groups)]
        naturals = [len(faces) // groups + (1 if i < len(faces) % groups else 0) for i in range(groups)]
        result: list[Group] = []
        at = 0
        for size, count in zip(sizes, naturals):
            result.append((tuple(faces[at : at + count]), size - count))
            at += count
        return result


def best_partition(count: int, low: int, high: int | None) -> int:
    """The most of ``count`` cards that can be cut into groups of ``low`` to ``high`` cards."""
    for used in range(count, 0, -1):
        groups_needed = -(-used // high) if high is not None else 1
        if groups_needed * low <= used:
            return used
    return 0


def _even_groups(faces: tuple[int, ...], high: int | None) -> list[tuple[int, ...]]:
    """``faces`` cut into the fewest groups of at most ``high``, sizes as even as can be."""
    if not faces:
        return []
    groups = -(-len(faces) // high) if high is not None else 1
    result = []
    at = 0
    for i in range(groups):
        size = len(faces) // groups + (1 if i < len(faces) % groups else 0)
        result.append(faces[at : at + size])
        at += size
    return result


def sub_multisets(items: Sequence[int]) -> list[tuple[int, ...]]:
    """Every sub-multiset of ``items`` (sorted tuples, each once)."""
    distinct = sorted(set(items))
    ranges = [range(items.count(face) + 1) for face in distinct]
    return [
        tuple(face for face, n in zip(distinct, pick) for _ in range(n)) for pick in itertools.product(*ranges)
    ]
