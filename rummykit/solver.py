"""Exact least deadwood for big hands with wild cards and cards from several decks.

The general path of :class:`rummykit.melds.MeldSearch` for the usual meld rules (sets and runs, wild
cards, duplicates; no special melds, no sets needing distinct suits, no longest run). A dynamic
programme over run positions (ace low, 2 .. K, ace high), suit by suit within a position:

* a state holds, per suit, the runs still open (each as the positions from its first natural card, its
  wild cards when a meld's wild cards are limited, and whether it ends in a wild card filling a gap),
  the wild cards used so far, the room for more wild cards that finished melds leave, and with "ace high
  or low" the aces kept back for the top of the runs;
* at a position every open run takes the natural card there, a wild card filling a gap, or ends; the
  cards left start runs, go to the sets of that rank (which take wild cards too), or stay deadwood.

Three facts keep the states few without losing any arrangement. A run of twice the shortest length or
more is two runs. Wild cards at a run's ends are only counted when it ends: as many as it lacks, and
the rest of its room is room for spare wild cards. Deadwood values depend only on the cards, so the
programme maximises the value of the natural cards melded for each number of wild cards used; which
wild cards those are (the dearest, or those better melded as a set of wild cards alone) is settled at
the end.

Hands of up to :attr:`DeadwoodSolver.small_up_to` cards are searched another way first, where it is quicker
(:meth:`DeadwoodSolver._solve_small`): the lowest card left is deadwood or goes into one of the melds that hold
it, each choice searched in turn and what is left remembered, for each number of wild cards melded. A hand
whose search grows past :attr:`DeadwoodSolver.small_work` choices goes to the programme.

Big hands first get a quick pass that keeps only the most promising states. Its deadwood bounds the passes
after it, which drop every state that has already left out, plus what the positions after it must leave
out whatever it does, as much (:meth:`DeadwoodSolver._look_ahead`: each suit on its own, runs coming from
below free, a card of a rank with too few for a set taking its share of the wild cards the set lacks).
Those passes, and the depth-first tries below, also drop every state whose open runs need more wild cards
than it has left, counting the natural cards above that could fill them: it can never end, so the answer,
melds included, is the same. Very big hands are then tried depth first for no deadwood, then for the least
step deadwood can take, and so on, up to three tries (a try that gives up leaves its bound to a pass); what
is left gets passes within a third and two thirds of the deadwood to beat, then the exact pass.
"""

from __future__ import annotations

import itertools
import math
import operator
import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from .melds import MeldRules

__all__ = ["DeadwoodSolver", "Group"]

JOKER = 52
INF = 10**9
_T = TypeVar("_T")

Run = tuple[int, int, int]
"""An open run: (positions from its first natural card to here, wild cards in it when a meld's wild cards
are limited, 1 when its last position holds a wild card filling a gap)."""
SuitRuns = tuple[Run, ...]
Group = tuple[tuple[int, ...], int]
"""A meld found by the solver: its natural faces and how many wild cards it takes."""
# A move of one suit at one position: new open runs, naturals melded in runs, wild cards used, naturals
# sent to the sets of this rank, naturals kept back (aces), room for more wild cards left by the runs
# that ended, what each open run did, runs started.
Move = tuple[SuitRuns, int, int, int, int, int, tuple[tuple[str, int, int], ...], int]
CodedMove = tuple[int, int, int, int, int, Move]
"""A move for numbered states (see :meth:`DeadwoodSolver._coded_moves`)."""
Layout = tuple[int, int]
"""Widths of the fields of a numbered state that depend on the hand: naturals for the sets, wild cards."""
MeldsWith = Callable[[int, dict[int, int], int], Iterable[tuple[tuple[int, ...], int]]]
"""The melds holding natural face ``low`` (or a joker that is not wild) and otherwise only higher faces of the
counts given, with up to the number of wild cards given: pairs of (natural faces, wild cards). The meld
search's own list (:meth:`rummykit.melds.MeldSearch._skeletons_with`), so that both find the same melds."""
Step = tuple[int, int, dict[int, tuple[int, object]]]
"""One step of the programme (a position, and a suit or -1 for the sets): each state reached, from which
state of the step before and by which move."""
Found = tuple[tuple[int, tuple[int, ...], list[tuple[int, ...]]], dict[int, tuple[int, int, int]], list[Step]]
"""What a pass found: (deadwood, wild cards melded, sets of wild cards alone), the pass's best natural values
by wild cards melded, and its steps (see :meth:`DeadwoodSolver._best_by_wilds`)."""
_IDLE: Move = ((), 0, 0, 0, 0, 0, (), 0)
"""The move of a suit with no card at a position and no run open: nothing happens."""
_RUNS_BITS = 16
_KEPT_BITS = 6
_GUARDS = sum(8 << (4 * face) for face in range(JOKER + 1))
"""The guard bit of each face's count in :meth:`DeadwoodSolver._solve_small`'s hands."""
_SUIT_ABOVE = [(1 << (4 * (13 - face % 13))) - 1 for face in range(JOKER + 1)]
"""By face, the counts of its suit from it up in those hands, once shifted down to it."""
_NONE = -INF
"""No arrangement with that many wild cards melded."""


def _face(position: int, suit: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


class DeadwoodSolver:
    """Least deadwood of a hand given as counts of natural faces and a list of wild faces."""

    def __init__(self, rules: MeldRules, values: Sequence[int], melds_with: MeldsWith | None = None) -> None:
        self.rules = rules
        self.values = values
        self._melds_with = melds_with
        """The melds holding a face (see :data:`MeldsWith`); without it every hand goes to the programme."""
        self._small_melds: dict[
            tuple[int, int, int, tuple[int, ...]], tuple[tuple[int, int, int, tuple[int, ...]], ...]
        ] = {}
        """:meth:`_solve_small`'s melds by their lowest face, kept by what they depend on."""
        self._small_melds_kept = 0
        """How many melds :attr:`_small_melds` holds in all."""
        self._small_values: dict[int, dict[int, tuple[int, ...]]] = {}
        """:meth:`_solve_small`'s values of the hands left, by how many wild cards the hand holds (which sets the
        most a meld takes too): a hand's value depends on its cards only, and the hands a bot asks about share
        most of theirs."""
        self._small_values_kept = 0
        self._wild_uses_kept: dict[tuple[int, ...], list[tuple[tuple[int, ...], int, list[tuple[int, ...]]]]] = {}
        """:meth:`_wild_uses`' answers, by the wild cards."""
        self._run_min = rules.run_min
        self._max_wilds = rules.max_wilds
        # Positions follow the run order (under the usual order a position is its rank; 14 is the high ace).
        self._ace_high = rules.top + 1
        rank_at = [rules.rank_at(p) for p in range(self._ace_high + 1)] + [0]
        self._rank_at = [1 if rank == 14 else rank for rank in rank_at]
        self._face_at = [[suit * 13 + rank - 1 if rank else -1 for suit in range(4)] for rank in self._rank_at]
        """The face at each position of each suit."""
        if rules.runs:
            self._lo, self._hi = rules.run_span
        else:
            self._lo, self._hi = 1, rules.top
        self._both = rules.runs and rules.ace == "both"
        # Where sets of aces are formed: with the aces' other run position when it is the only one.
        self._ace_set_position = self._ace_high if rules.runs and rules.ace in ("high", "both") else 1
        self._moves: dict[tuple[object, ...], list[Move]] = {}
        self._coded: dict[tuple[object, ...], list[CodedMove]] = {}
        self._relaxed: dict[tuple[object, ...], list[tuple[tuple[int, ...], int, int, int]]] = {}
        self._future: tuple[object, dict[int, list[list[int]]]] = (None, {})
        self._runs_ids: dict[SuitRuns, int] = {}
        self._runs_of: list[SuitRuns] = []
        self._deficit_of: list[int] = []
        self._lacking_of: list[tuple[int, list[int], list[int]]] = []
        """Per shape of open runs: the cards they lack, and how many lack at least 1, 2, ... (see
        :meth:`_open_runs_need`)."""
        self._need: tuple[bytes | None, Callable[[int, int, int], int]] = (None, _no_need)
        self._runs_id(())  # no open run is 0
        self._solved: dict[tuple[bytes, tuple[int, ...], int], tuple[int, tuple[tuple[int, ...], ...]]] = {}
        """Hands solved already (bots and searches ask about the same hands again and again)."""
        self._penalty_of: dict[int, int] = {}
        """How the quick pass ranks a state's open runs and kept aces (see :meth:`_best_by_wilds`)."""
        self._budget = 0
        # One solver serves every game of a variant, and a search keeps scratch values on it (_budget): games
        # played in several threads at once (the web server) take turns.
        self._lock = threading.Lock()
        self._position_table = self._build_position_table()
        self._set_faces, self._run_bits = self._natural_meld_tables()

    beam_from: int | tuple[int, ...] = (48, 34, 25, 20)
    """Hands of at least ``beam_from[w]`` cards with ``w`` wild cards (the last entry for more; one number: for
    any number of wild cards) get a quick first pass (see :meth:`solve`). Below, the exact pass alone is
    quicker, the more so the fewer wild cards: it visits more states with each wild card, the quick pass
    about as many. Means of 60 seeded random hands
    (Arlington's rules), with the quick pass and without: no wild card, 20 cards 1.26 and 0.30 ms, 40 cards
    5.1 and 2.1, 46 cards 7.4 and 4.4, 50 cards 8.3 and 10.1; one wild card, 32 cards 5.5 and 4.3, 36 cards
    9.1 and 10.4; two, 24 cards 4.9 and 4.3, 28 cards 7.2 and 8.2; three, 20 cards 4.1 and 4.6."""
    zero_from = 40
    """Hands of this many cards or more, when the quick pass leaves deadwood, are first tried depth first for
    none at all, then for the least step of deadwood, and so on, up to three tries (most hands of 45 cards or
    more have none; most of 30 cards have some, and the try would be lost). Each try is within what is ruled
    out so far, so what it finds is the least."""
    beam = 48
    beam_penalty = 10
    """States kept per step in the quick pass, and how they are ranked."""
    try_states = 8_000
    """States a depth-first try may visit before it gives up. A walk that finds what it looks for mostly does
    so within a few thousand states; one that needs more costs more than the pass that decides in its place
    (on 45-card hands, deuces wild or jokers too: a walk that found nothing took two to four times the pass's
    time)."""
    pass_states = 100_000
    more_try_states = 64_000
    """When a try has given up, a pass that visits more states than ``pass_states`` gives up in turn, and the
    try goes on, up to ``more_try_states`` states, before the pass decides. Most passes within a bound small
    enough for a try need 5,000 to 70,000 states (60 to 150 ms); a few need half a million or more, and a try
    finds their arrangement within some 30,000."""
    parts = (33, 67)
    """Passes within these percentages of the deadwood to beat come before the exact pass."""
    skip_meldless = True
    """Whether a hand that makes no meld at all (:meth:`_meldless`) is answered at once (everything deadwood,
    the only arrangement there is) rather than by the programme. Bots ask about many: in a search bot's
    rollouts, hands of a few cards and a wild card took 0.1 ms each in the programme."""
    check_open_runs = True
    """Whether the exact passes and the depth-first tries drop a state whose open runs need more wild cards
    than it has left (:meth:`_open_runs_need`): such a state can never end, so the answer is the same either
    way, found sooner."""

    small_up_to = 20
    """Hands of at most this many cards are searched by :meth:`_solve_small` first. Measured on the hands a search
    bot's play-outs ask about (Skarney Singles, Skarney, Fortune) and on seeded random hands: up to 18 cards it is
    quicker whatever the wild cards, often several times; from 22 or so, with fewer than three wild cards, the
    programme is."""
    small_work = 5_000
    """:meth:`_solve_small` gives a hand up to the programme once it has tried this many choices (a card as
    deadwood or a meld; a few microseconds each), the melds of the hand's lists counted too. The play-outs'
    hands of Skarney Singles need some 60 at the median and at most 3,000; the programme takes about a
    millisecond for a hand of 16 cards. A few hands of many cards in two suits with several wild cards, where a
    meld may take any number of them, would need hundreds of thousands."""

    @staticmethod
    def supports(rules: MeldRules) -> bool:
        """Whether the rules are within what the programme handles (the rest use the exhaustive search). It
        visits the ranks of the run order only: with another order than the usual one, the caller makes sure
        that the pack holds no other rank."""
        usual = rules.usual_order or rules.order[:1] == (1,)  # another order starts with the ace
        return not rules.specials and not rules.set_distinct_suits and rules.run_max is None and usual

    # -- positions ---------------------------------------------------------------------------------

    def _rank(self, position: int) -> int:
        return self._rank_at[position]

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

    def _region_length(self, position: int) -> int:
        """How many positions a run through ``position`` may cover (never both aces: no K-A-2)."""
        bottom = self._bottom(position)
        top = position
        while self._allowed(top + 1):
            top += 1
        return top - bottom + 1 - (1 if self._both and bottom == 1 and top == self._ace_high else 0)

    # -- one suit at one position --------------------------------------------------------------------

    def _suit_moves(self, runs: SuitRuns, naturals: int, budget: int, ctx: tuple[int, ...]) -> list[Move]:
        """What one suit can do at one position: every open run ends (it ended at the position before),
        takes the natural card here or a wild card filling a gap; the naturals left start runs, go to the
        sets of this rank or stay deadwood."""
        key = (runs, naturals, budget, ctx)
        hit = self._moves.get(key)
        if hit is not None:
            return hit
        cont, region, keep_back, sets_ok = ctx
        length_min = self._run_min
        longest = 2 * length_min - 1
        cap = self._max_wilds
        found: dict[tuple[object, ...], Move] = {}
        actions: list[tuple[str, int, int]] = []
        kept: list[Run] = []

        def walk(i: int, avail: int, wilds: int, credit: int, room_for: int) -> None:
            if i == len(runs):
                finish(avail, wilds, credit, room_for)
                return
            length, held, gap = runs[i]
            if not gap:
                # End the run: wild cards it lacks go on either end, within the positions it may cover.
                need = max(0, length_min - length)
                free = region - length - need
                spare = free if cap is None else min(free, cap - held - need)
                if free >= 0 and spare >= 0 and wilds + need <= budget:
                    actions.append(("end", need, spare))
                    walk(i + 1, avail, wilds + need, credit, room_for + spare)
                    actions.pop()
            if cont and length < longest:
                grown = length + 1
                if avail:
                    kept.append((grown, held, 0))
                    actions.append(("natural", 0, 0))
                    walk(i + 1, avail - 1, wilds, credit + 1, room_for)
                    actions.pop()
                    kept.pop()
                if wilds < budget and (cap is None or held < cap):
                    kept.append((grown, held + 1 if cap is not None else 0, 1))
                    actions.append(("wild", 0, 0))
                    walk(i + 1, avail, wilds + 1, credit, room_for)
                    actions.pop()
                    kept.pop()

        def finish(avail: int, wilds: int, credit: int, room_for: int) -> None:
            room_for = min(room_for, budget)
            for started in range(avail + 1 if cont else 1):
                rest = avail - started
                new_runs = tuple(sorted(kept + [(1, 0, 0)] * started))
                options = [(0, rest)] if keep_back else [(s, 0) for s in range(rest + 1 if sets_ok else 1)]
                for to_sets, back in options:
                    move_key = (new_runs, credit + started, wilds, to_sets, back, room_for)
                    if move_key not in found:
                        found[move_key] = (
                            new_runs,
                            credit + started,
                            wilds,
                            to_sets,
                            back,
                            room_for,
                            tuple(actions),
                            started,
                        )

        try:
            walk(0, naturals, 0, 0, 0)
        finally:
            walk = None  # type: ignore[assignment]  # (the function refers to itself: no cycle left behind)
        result = list(found.values())
        self._moves[key] = result
        return result

    # -- sets ----------------------------------------------------------------------------------------

    def _split_sets(self, naturals: int, wilds: int, groups: int) -> list[tuple[int, int, int]] | None:
        """``naturals`` cards of a rank and ``wilds`` wild cards cut into ``groups`` valid sets, sizes as
        even as can be: (naturals, wild cards, room for more wild cards) per set, or None."""
        rules = self.rules
        total = naturals + wilds
        if groups > naturals or groups * rules.set_min > total:
            return None
        result = []
        for i in range(groups):
            size = total // groups + (1 if i < total % groups else 0)
            count = naturals // groups + (1 if i < naturals % groups else 0)
            wild = size - count
            room = self._budget if rules.set_max is None else rules.set_max - size
            if self._max_wilds is not None:
                room = min(room, self._max_wilds - wild)
            if room < 0:
                return None
            result.append((count, wild, room))
        return result

    def _set_options(self, naturals: int) -> list[tuple[int, int, int]]:
        """Ways to meld ``naturals`` cards of one rank as sets: (wild cards, room for more, sets).
        A way that fewer wild cards plus room for more already covers is left out."""
        if naturals == 0:
            return [(0, 0, 0)]
        options: list[tuple[int, int, int]] = []
        for wilds in range(self._budget + 1):
            best: tuple[int, int] | None = None
            for groups in range(1, naturals + 1):
                split = self._split_sets(naturals, wilds, groups)
                if split is not None:
                    room = min(sum(r for _, _, r in split), self._budget)
                    if best is None or room > best[0]:
                        best = (room, groups)
            if best is None:
                continue
            if any(k + r >= wilds + best[0] for k, r, _ in options):
                continue
            options.append((wilds, best[0], best[1]))
        return options

    # -- the programme -------------------------------------------------------------------------------

    def solve(self, counts: Sequence[int], wilds: Sequence[int], jokers: int = 0) -> tuple[int, list[tuple[int, ...]]]:
        """Least deadwood and its melds (as faces) of a hand: ``counts[face]`` natural cards of each face
        0..51 (wild faces count 0), the wild cards' faces, and ``jokers`` jokers that are not wild."""
        key = (bytes(counts), tuple(wilds), jokers)
        hit = self._solved.get(key)
        if hit is None:
            with self._lock:
                if len(self._solved) >= 50_000:
                    self._solved.clear()
                hit = self._solved[key] = self._solve(counts, wilds, jokers)
        return hit[0], list(hit[1])

    def _natural_meld_tables(self) -> tuple[list[tuple[int, int, int, int]], list[int]]:
        """For :meth:`_meldless`: the faces of each rank that may make a set, and each face's run positions
        (the bits of the positions a run may pass through)."""
        rules = self.rules
        set_faces = [
            (rank - 1, rank + 12, rank + 25, rank + 38)
            for rank in range(1, 14)
            if rules.sets and rank not in rules.excluded_ranks
        ]
        run_bits = [0] * 52
        for face in range(52):
            rank = face % 13 + 1
            if rules.runs and rank not in rules.excluded_ranks:
                for position in rules.positions(rank):
                    if self._allowed(position):
                        run_bits[face] |= 1 << position
        return set_faces, run_bits

    def _meldless(self, counts: Sequence[int], wilds: int = 0, jokers: int = 0) -> bool:
        """Whether the natural cards ``counts`` make no meld, with ``wilds`` wild cards and ``jokers`` jokers
        that are not wild: no rank holds a set's least size, and no suit holds a run's least length at
        positions in a row. With wild cards it answers as if each could join any set or run (up to the
        rules' most per meld), so a hand it calls meldless makes no meld at all; a few it does not call so
        make none either."""
        rules = self.rules
        room = wilds if self._max_wilds is None else min(wilds, self._max_wilds)
        if rules.wild_sets and wilds >= rules.set_min:
            return False
        if rules.joker_sets and jokers + room >= rules.set_min:
            return False
        least = max(1, rules.set_min - room)
        for a, b, c, d in self._set_faces:
            if counts[a] + counts[b] + counts[c] + counts[d] >= least:
                return False
        run_bits = self._run_bits
        run_min = self._run_min
        need = max(1, run_min - room)
        window = (1 << run_min) - 1
        for suit in range(0, 52, 13):
            held = 0
            for face in range(suit, suit + 13):
                if counts[face]:
                    held |= run_bits[face]
            if not room:
                for _ in range(run_min - 1):
                    held &= held >> 1
                if held:
                    return False
                continue
            while held:  # every window of run_min positions from the lowest held one up
                if (held & window).bit_count() >= need:
                    return False
                held >>= 1
        return True

    def _forced_deadwood(self, counts: Sequence[int], wilds: int) -> int:
        """The value of the natural cards of ``counts`` that no meld can hold, whatever the rest does: deadwood
        every arrangement leaves, so the least deadwood is at least this. A card may be in a set when its rank
        holds a set's least size with as many wild cards as a meld may take, in a run when some run of the
        least length through its place holds as many natural cards as the wild cards left to fill cannot. (A
        big hand's quick pass often finds an arrangement leaving just these: nothing less need be looked
        for, and looking can take minutes with many wild cards.)"""
        room = wilds if self._max_wilds is None else min(wilds, self._max_wilds)
        meldable = 0  # faces (bits) some meld may hold
        least_set = self.rules.set_min - room
        for a, b, c, d in self._set_faces:
            if counts[a] + counts[b] + counts[c] + counts[d] >= least_set:
                meldable |= 1 << a | 1 << b | 1 << c | 1 << d
        run_bits = self._run_bits
        run_min = self._run_min
        need = max(1, run_min - room)
        window = (1 << run_min) - 1
        for suit in range(0, 52, 13):
            held = 0  # the run positions the suit's cards hold
            for face in range(suit, suit + 13):
                if counts[face]:
                    held |= run_bits[face]
            covered = 0  # those in a window of run_min positions holding ``need`` of them
            start = 0
            rest = held
            while rest:
                here = rest & window
                if here.bit_count() >= need:
                    covered |= here << start
                rest >>= 1
                start += 1
            if covered:
                for face in range(suit, suit + 13):
                    if run_bits[face] & covered:
                        meldable |= 1 << face
        values = self.values
        return sum(values[face] * counts[face] for face in range(52) if counts[face] and not meldable >> face & 1)

    def _solve(
        self, counts: Sequence[int], wilds: Sequence[int], jokers: int
    ) -> tuple[int, tuple[tuple[int, ...], ...]]:
        values = self.values
        if self.skip_meldless and self._meldless(counts, len(wilds), jokers):
            natural = sum(map(operator.mul, values[:52], counts[:52]))
            return natural + sum(values[face] for face in wilds) + jokers * values[JOKER], ()
        if self._melds_with is not None and sum(counts) + len(wilds) + jokers <= self.small_up_to:
            small = self._solve_small(counts, wilds, jokers)
            if small is not None:
                return small
        return self._solve_by_passes(counts, wilds, jokers)

    def _solve_by_passes(
        self, counts: Sequence[int], wilds: Sequence[int], jokers: int
    ) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """:meth:`_solve` by the programme's passes (a method of its own: its closures' cells cost every call
        something, and most calls end before them)."""
        rules = self.rules
        values = self.values
        if len(self._moves) > 200_000:
            self._moves.clear()
            self._coded.clear()
            self._relaxed.clear()
        if len(self._coded) > 50_000:  # a few hundred bytes each, quick to make again from the moves
            self._coded.clear()

        def better(found: Found | None, beam: int | None = None, bound: int | None = None) -> Found | None:
            """Run one pass; its arrangement if it leaves less deadwood than ``found``, else ``found``."""
            best, trace = self._best_by_wilds(counts, len(wilds), beam=beam, bound=bound)
            return better_of(found, best, trace)

        def better_of(found: Found | None, best: dict[int, tuple[int, int, int]], trace: list[Step]) -> Found | None:
            if best:
                choice = self._choose(counts, wilds, best)
                if found is None or choice[0] < found[0][0]:
                    return (choice, best, trace)
            return found

        # Deadwood is a multiple of what divides every value in the hand: a pass that finds nothing within a
        # bound rules out every deadwood up to the next multiple.
        step = math.gcd(*(values[f] for f in range(52) if counts[f]), *(values[f] for f in wilds))

        def above(bound: int) -> int:
            return -(-(bound + 1) // step) * step if step else bound + 1

        least = self._forced_deadwood(counts, len(wilds))  # the deadwood is known to be at least this
        found: Found | None = None
        size = sum(counts) + len(wilds)
        beam_from = self.beam_from
        if size >= (beam_from if isinstance(beam_from, int) else beam_from[min(len(wilds), len(beam_from) - 1)]):
            # A quick pass that keeps only the most promising states gives a deadwood to beat; no deadwood at
            # all cannot be beaten (big hands with a few wild cards usually get there).
            found = better(found, beam=self.beam)
        if found is not None and size >= self.zero_from:
            # Big hands nearly always meld everything, or all but a card: looked for depth first, such an
            # arrangement is met long before a pass would have visited every state that could lead to it.
            # Up to three tries, each within what is ruled out so far (none, then the next step...), so what
            # it finds is the least. A try that gives up has met a hand with few such arrangements or none,
            # which a pass decides for less than a walk: a pass within the same bound, and after a try for
            # none, if that pass finds nothing, a pass within the step rather than another try.
            for _ in range(3):
                if found[0][0] <= least:
                    break
                bound = least
                failed: dict[tuple[int, int, int], int] = {}
                tried = self._first_within(counts, wilds, bound, failed)
                if tried is None:
                    tried = self._decide_within(counts, wilds, bound, failed)
                    if not tried[0] and bound == 0 and found[0][0] > above(bound):
                        least = bound = above(bound)
                        tried = self._best_by_wilds(counts, len(wilds), bound=bound)
                found = better_of(found, *tried)
                assert found is not None
                if found[0][0] > bound:
                    least = above(bound)
        for part in self.parts:
            # A pass within part of the deadwood to beat costs a fraction of the exact pass (the cost grows
            # fast with the bound); what it finds is the least. The quick pass is sometimes far off.
            if found is None or found[0][0] <= least:
                break
            bound = max(found[0][0] * part // 100, least)
            if bound >= found[0][0] - 1:
                break  # the exact pass's bound
            trial = better(None, bound=bound)
            if trial is not None and trial[0][0] <= bound:
                found, least = trial, trial[0][0]
            else:
                least = above(bound)
        if found is None or found[0][0] > least:
            # The exact pass drops every state that has already left out, or must still leave out (see
            # :meth:`_look_ahead`), natural cards worth as much as the deadwood to beat: it cannot lead to
            # anything better.
            found = better(found, bound=None if found is None else found[0][0] - 1)
        assert found is not None  # the exact pass without a bound always ends somewhere
        (cost, used, wild_groups), best, trace = found
        melds: list[tuple[int, ...]] = []
        spare = list(used)
        end_key, extra = best[len(used)][1], len(used) - best[len(used)][2]
        for naturals, wild_count, room in self._groups(trace, end_key):
            more = min(room, extra)
            extra -= more
            melds.append(naturals + tuple(spare[: wild_count + more]))
            del spare[: wild_count + more]
        assert not spare
        melds.extend(wild_groups)
        if jokers and rules.joker_sets:
            melded = best_partition(jokers, rules.set_min, rules.set_max)
            melds.extend(_even_groups((JOKER,) * melded, rules.set_max))
            jokers -= melded
        return cost + jokers * values[JOKER], tuple(melds)

    def _solve_small(
        self, counts: Sequence[int], wilds: Sequence[int], jokers: int
    ) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
        """:meth:`_solve` by another search, quicker for small hands; None once it has tried more than
        :attr:`small_work` choices. The lowest card left is deadwood, or goes into one of the melds that
        hold it and higher cards only (:data:`MeldsWith`); for each choice the cards left are searched the same
        way and remembered. What a hand leaves is a number, 4 bits per face (its count, below a guard bit), so
        whether a meld's cards are there is one subtraction (a hand holding a face 8 times or more goes to the
        programme). For each number of wild cards in melds it keeps the most natural value melded; which wild
        cards are melded is then chosen as in :meth:`_choose`. Of two choices worth the same, the first
        (deadwood before melds, melds in the meld search's order)."""
        assert self._melds_with is not None
        if jokers > 7 or max(counts) > 7:
            return None  # a count takes 3 bits (8 decks or 8 jokers: the programme)
        values = self.values
        budget = len(wilds)
        max_w = budget if self._max_wilds is None else min(self._max_wilds, budget)
        hand = jokers << (4 * JOKER)
        present = []  # the faces held, in order
        for face in range(52):
            held = counts[face]
            if held:
                hand += held << (4 * face)
                present.append(face)
        if jokers:
            present.append(JOKER)
        by_low: dict[int, tuple[tuple[int, int, int, tuple[int, ...]], ...]] = {}
        kept = self._small_melds
        if self._small_melds_kept > 100_000:  # melds kept (a face's list may hold thousands)
            kept.clear()
            self._small_melds_kept = 0
        work = self.small_work  # each meld of the hand's lists counts, and each choice tried (below)
        as_dict: dict[int, int] | None = None
        for face in present:
            # A face's melds depend on the cards of its suit from it up (runs) and on the faces of its rank
            # from it up (sets).
            above = tuple(counts[face + 13 : 52 : 13])
            key = (face, max_w, (hand >> (4 * face)) & _SUIT_ABOVE[face], above)
            options = kept.get(key)
            if options is None:
                if as_dict is None:
                    as_dict = {f: n for f, n in enumerate(counts) if n}
                    if jokers:
                        as_dict[JOKER] = jokers
                listed: list[tuple[int, int, int, tuple[int, ...]]] = []
                for faces, wild_count in self._melds_with(face, as_dict, max_w):
                    if len(listed) > work:
                        return None  # (many wild cards to a meld: the lists alone would cost more than the programme)
                    taken = 0
                    for f in faces:
                        taken += 1 << (4 * f)
                    listed.append((taken, wild_count, sum(values[f] for f in faces), faces))
                options = kept[key] = tuple(listed)  # (tuples of numbers: the collector stops tracking them)
                self._small_melds_kept += len(options)
            work -= len(options)
            if work < 0:
                return None
            by_low[face] = options
        least = _NONE
        # What the cards left meld is theirs alone (a meld's options for the lowest card are the hand's, which
        # hold every one its cards left can make): kept from call to call.
        if self._small_values_kept > 200_000:
            self._small_values.clear()
            self._small_values_kept = 0
        memo = self._small_values.get(budget)
        if memo is None:
            memo = self._small_values[budget] = {0: (0,) + (least,) * budget}
        known = len(memo)

        def best(left: int) -> tuple[int, ...]:
            """Per number of wild cards melded, the most natural value the cards ``left`` meld (not yet kept)."""
            nonlocal work
            low = ((left & -left).bit_length() - 1) >> 2
            work -= len(by_low[low]) + 1
            if work < 0:
                raise _GiveUp
            rest = memo.get(left - (1 << (4 * low)))
            found = list(rest if rest is not None else best(left - (1 << (4 * low))))  # the lowest card as deadwood
            guarded = left | _GUARDS
            for taken, wild_count, worth, _ in by_low[low]:
                if (guarded - taken) & _GUARDS != _GUARDS:
                    continue  # a card it needs is not left
                rest = memo.get(left - taken)
                if rest is None:
                    rest = best(left - taken)
                for k in range(budget + 1 - wild_count):
                    value = rest[k]
                    if value != least and value + worth > found[k + wild_count]:
                        found[k + wild_count] = value + worth
            # A tuple of numbers: the collector stops tracking it (a list stays tracked, and full collections walk
            # every one kept).
            kept_found = memo[left] = tuple(found)
            return kept_found

        try:
            top = memo[hand] if hand in memo else best(hand)
        except _GiveUp:
            return None
        finally:
            best = None  # type: ignore[assignment]  # (the function refers to itself: no cycle left behind)
            self._small_values_kept += len(memo) - known
        melded = {k: (value, 0, 0) for k, value in enumerate(top) if value != least}
        cost, used, wild_groups = self._choose(counts, wilds, melded)
        cost += jokers * values[JOKER]  # (melded jokers are in the values melded; _choose counts naturals only)
        # The melds, followed back: at each hand left, the first choice that reaches what was kept.
        melds: list[tuple[int, ...]] = []
        spare = list(used)
        left, k = hand, len(used)
        while left:
            want = memo[left][k]
            low = ((left & -left).bit_length() - 1) >> 2
            if memo[left - (1 << (4 * low))][k] == want:
                left -= 1 << (4 * low)
                continue
            guarded = left | _GUARDS
            for taken, wild_count, worth, faces in by_low[low]:
                if wild_count > k or (guarded - taken) & _GUARDS != _GUARDS:
                    continue
                value = memo[left - taken][k - wild_count]
                if value != least and value + worth == want:
                    melds.append(faces + tuple(spare[:wild_count]))
                    del spare[:wild_count]
                    left -= taken
                    k -= wild_count
                    break
            else:  # pragma: no cover - the value kept came from one of these choices
                raise AssertionError("small search: no choice reaches the value kept")
        melds.extend(wild_groups)
        return cost, tuple(melds)

    def _decide_within(
        self, counts: Sequence[int], wilds: Sequence[int], bound: int, failed: dict[tuple[int, int, int], int]
    ) -> tuple[dict[int, tuple[int, int, int]], list[Step]]:
        """What a try within ``bound`` that gave up leaves undecided: a pass decides it, unless the pass runs
        long (past :attr:`pass_states` states); then the try goes on where it stopped, up to
        :attr:`more_try_states`, before the pass decides whatever it takes. A few hands make a pass visit
        millions of states where a walk finds their arrangement in tens of thousands."""
        try:
            return self._best_by_wilds(counts, len(wilds), bound=bound, cap=self.pass_states)
        except _GiveUp as gave_up:
            paused = gave_up.run
        tried = self._first_within(counts, wilds, bound, failed, self.more_try_states)
        assert paused is not None
        return tried if tried is not None else _run_pass(paused)  # the pass goes on where it stopped

    def _choose(
        self, counts: Sequence[int], wilds: Sequence[int], best: dict[int, tuple[int, int, int]]
    ) -> tuple[int, tuple[int, ...], list[tuple[int, ...]]]:
        """Which wild cards go into sets and runs (the rest may make sets of their own): the least
        deadwood of naturals and wild cards, the wild cards used, and the sets of wild cards alone."""
        values = self.values
        natural_total = sum(map(operator.mul, values[:52], counts[:52]))
        choice: tuple[int, tuple[int, ...], list[tuple[int, ...]]] | None = None
        for used, left_over, wild_groups in self._wild_uses(wilds):
            melded = best.get(len(used))
            if melded is None:
                continue
            cost = natural_total - melded[0] + left_over
            if choice is None or cost < choice[0]:
                choice = (cost, used, wild_groups)
        assert choice is not None  # using no wild card is always possible
        return choice

    def _wild_uses(self, wilds: Sequence[int]) -> list[tuple[tuple[int, ...], int, list[tuple[int, ...]]]]:
        """For :meth:`_choose`, each choice of the wild cards that go into sets and runs (:func:`sub_multisets`, in
        its order): the choice, what the other wild cards leave as deadwood once they make what sets of wild cards
        alone they can, and those sets. Kept by the wild cards: a hand's solution asks it, and hands hold few."""
        key = tuple(wilds)
        found = self._wild_uses_kept.get(key)
        if found is None:
            values = self.values
            found = []
            for used in sub_multisets(wilds):
                rest = list(wilds)
                for face in used:
                    rest.remove(face)
                wild_groups = self._wild_sets(rest) if self.rules.wild_sets else []
                left_over = sum(values[face] for face in rest) - sum(values[f] for group in wild_groups for f in group)
                found.append((used, left_over, wild_groups))
            if len(self._wild_uses_kept) >= 4096:
                self._wild_uses_kept.clear()
            self._wild_uses_kept[key] = found
        return found

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

    def _runs_id(self, runs: SuitRuns) -> int:
        """A suit's open runs as a small number (states are numbers: see :meth:`_best_by_wilds`)."""
        found = self._runs_ids.get(runs)
        if found is None:
            found = self._runs_ids[runs] = len(self._runs_of)
            if found >> _RUNS_BITS:  # pragma: no cover - some hundreds of run shapes exist under any rules
                raise RuntimeError("too many shapes of open runs")
            self._runs_of.append(runs)
            self._deficit_of.append(sum(max(0, self._run_min - run[0]) + run[2] for run in runs))
            lacking = [self._run_min - run[0] for run in runs if run[0] < self._run_min]
            self._lacking_of.append(
                (
                    sum(lacking),
                    [sum(k >= d for k in lacking) for d in range(1, self._run_min)],
                    [run[0] for run in runs if run[2]],
                )
            )
        return found

    def _coded_moves(
        self, suit: int, runs_id: int, naturals: int, left: int, ctx: tuple[int, ...], layout: Layout
    ) -> list[CodedMove]:
        """:meth:`_suit_moves` for the numbered states of :meth:`_best_by_wilds`, in the same order: per
        move what it adds to a state (its suit's new runs, wild cards used, naturals sent to the sets),
        naturals melded, wild cards used, room added, naturals kept back, and the move itself."""
        key = (suit, runs_id, naturals, left, ctx, layout)
        hit = self._coded.get(key)
        if hit is not None:
            return hit
        set_bits, room_bits = layout
        used_at = set_bits + room_bits
        runs_at = used_at + room_bits + 4 * _KEPT_BITS + suit * _RUNS_BITS
        coded = []
        for move in self._suit_moves(self._runs_of[runs_id], naturals, left, ctx):
            new_runs, credit, wild_used, to_sets, held_back, room_add, _, _ = move
            add = (self._runs_id(new_runs) << runs_at) + (wild_used << used_at) + to_sets
            coded.append((add, credit + to_sets, wild_used, room_add, held_back, move))
        self._coded[key] = coded
        return coded

    def _positions(self, counts: Sequence[int]) -> list[tuple[int, bool, tuple[int, ...], bool, bool, list[int]]]:
        """The programme's positions in order, one past the top to end the runs still open: (position,
        whether it holds cards, the context of its moves, whether aces are kept back or taken back there,
        the naturals of each suit there)."""
        return [
            (position, in_span, ctx, keep_back, take_back, [counts[f] for f in faces] if faces else [0, 0, 0, 0])
            for position, in_span, ctx, keep_back, take_back, faces in self._position_table
        ]

    def _build_position_table(self) -> list[tuple[int, bool, tuple[int, ...], bool, bool, list[int] | None]]:
        """What :meth:`_positions` says of each position whatever the hand, with the faces its cards have there
        (None where no card counts), built once."""
        rules = self.rules
        found: list[tuple[int, bool, tuple[int, ...], bool, bool, list[int] | None]] = []
        for position in range(self._lo, self._hi + 2):
            in_span = position <= self._hi
            rank = self._rank(position) if in_span else 0
            cont = self._allowed(position)
            region = self._region_length(position - 1) if self._allowed(position - 1) else 0
            keep_back = self._both and position == 1
            take_back = self._both and position == self._ace_high
            sets_ok = bool(
                in_span
                and rules.sets
                and rank not in rules.excluded_ranks
                and (rank != 1 or position == self._ace_set_position)
            )
            ctx = (int(cont), region, int(keep_back), int(sets_ok))
            counted = in_span and rank not in rules.excluded_ranks
            found.append((position, in_span, ctx, keep_back, take_back, self._face_at[position] if counted else None))
        return found

    def _layout(self, counts: Sequence[int], budget: int) -> tuple[list[list[tuple[int, int, int]]], Layout]:
        """Ways to meld each number of naturals of a rank as sets (:meth:`_set_options`, for ``budget`` wild
        cards), and the widths of a numbered state's fields for this hand."""
        self._budget = budget
        most = max(counts[f] + counts[f + 13] + counts[f + 26] + counts[f + 39] for f in range(13))
        if max(counts[_face(1, s)] for s in range(4)) >> _KEPT_BITS:  # pragma: no cover - 64 decks
            raise ValueError("too many aces of one suit")
        return [self._set_options(m) for m in range(most + 1)], (max(1, most.bit_length()), max(1, budget.bit_length()))

    def _best_by_wilds(
        self,
        counts: Sequence[int],
        budget: int,
        beam: int | None = None,
        bound: int | None = None,
        cap: int | None = None,
    ) -> tuple[dict[int, tuple[int, int, int]], list[Step]]:
        """For each number of wild cards melded in sets and runs: the most natural value melded, the final
        state that reaches it and the wild cards that state needs (the rest fill room it left) (:meth:`_pass`).
        With ``cap``, it gives up once it has visited that many states: it raises :class:`_GiveUp` holding the
        pass where it stopped, which :func:`_run_pass` takes on to the same answer."""
        return _run_pass(self._pass(counts, budget, beam, bound, cap is not None), cap)

    def _pass(
        self, counts: Sequence[int], budget: int, beam: int | None, bound: int | None, counted: bool
    ) -> Generator[int, None, tuple[dict[int, tuple[int, int, int]], list[Step]]]:
        """:meth:`_best_by_wilds`' pass, step by step: ``counted``, it yields the states each step visited (so
        that a pass given up can go on later from where it stopped).

        A state is a number (hashing numbers is what makes the programme quick), fields from the lowest
        bits: the naturals sent to the sets of this rank (within a position only), the room for more wild
        cards, the wild cards used, the aces kept back per suit and the open runs per suit (numbered by
        :meth:`_runs_id`). States are visited, and ties between equal values broken, in the order they were
        first reached, move by move."""
        values = self.values
        set_options, layout = self._layout(counts, budget)
        set_bits, room_bits = layout
        ace_worth = [values[_face(1, s)] for s in range(4)]
        set_mask = (1 << set_bits) - 1
        room_mask = (1 << room_bits) - 1
        # Fields of a state between positions (no naturals for the sets): room, used, kept, runs.
        used_at = room_bits
        kept_at = 2 * room_bits
        runs_at = kept_at + 4 * _KEPT_BITS
        kept_mask = (1 << _KEPT_BITS) - 1
        runs_mask = (1 << _RUNS_BITS) - 1
        kept_full = set_bits + kept_at  # where the kept aces start in a state within a position
        deficit_of = self._deficit_of
        coded_moves = self._coded_moves

        all_kept_mask = (1 << (4 * _KEPT_BITS)) - 1
        # The worth of the aces kept back, by their field (a few dozen ways at most).
        worth_of_kept = {
            sum(k << (_KEPT_BITS * s) for s, k in enumerate(kept)): sum(k * w for k, w in zip(kept, ace_worth))
            for kept in itertools.product(*(range(counts[_face(1, s)] + 1) for s in range(4)))
        }
        deficit_of_runs: dict[int, int] = {0: 0}
        # By open runs and kept aces (whatever the hand): the quick pass's deficit less the aces kept back.
        penalty_of = self._penalty_of
        if len(penalty_of) > 100_000:
            penalty_of.clear()

        def kept_worth(state: int) -> int:
            return worth_of_kept[(state >> kept_at) & all_kept_mask]

        def deficit(state: int) -> int:
            """How far the open runs are from being melds (positions short, gaps open)."""
            runs = state >> runs_at
            found = deficit_of_runs.get(runs)
            if found is None:
                found = deficit_of_runs[runs] = sum(
                    deficit_of[(runs >> (_RUNS_BITS * s)) & runs_mask] for s in range(4)
                )
            return found

        future = self._future_loss(counts, budget) if bound is not None else None
        nothing_ahead = [0] * (budget + 1)
        states: dict[int, int] = {0: 0}
        steps: list[Step] = []
        seen = 0  # value of the naturals the states have placed so far (aces kept back included)
        positions = self._positions(counts)
        # The exact passes drop a state whose open runs need more wild cards than it has left (see
        # :meth:`_open_runs_need`): it can never end. A quick pass keeps its states as they come.
        open_need = self._open_runs_need(counts) if beam is None and self.check_open_runs else None
        previous = positions[0][0] - 1
        for position, in_span, ctx, keep_back, take_back, here in positions:
            if beam is None and not (keep_back or take_back or any(here) or any(state >> runs_at for state in states)):
                # No card here and no run open: every state stays as it is (no step to trace). (A quick pass
                # goes through: it may cut its states down again at any step.)
                continue
            layer = {state << set_bits: val for state, val in states.items()}
            # Per suit, the positions its open runs are at: the suits moved already at this one.
            run_positions = [previous] * 4
            previous = position
            for suit in range(4):
                worth = values[self._face_at[position][suit]] if in_span else 0
                if not take_back:
                    seen += worth * here[suit]
                # A state that has left out more than ``bound`` is dropped at once: its value is below
                # ``floor`` (aces kept back count as placed).
                floor = None if bound is None else seen - bound
                # What the positions after this one must leave out, at least, by the wild cards left.
                ahead = future[position][suit] if future is not None else nothing_ahead
                runs_shift = set_bits + runs_at + suit * _RUNS_BITS
                kept_shift = set_bits + kept_at + suit * _KEPT_BITS
                nxt: dict[int, int] = {}
                back: dict[int, tuple[int, object]] = {}
                get = nxt.get
                naturals = here[suit]
                step_moves: dict[int, list[tuple[int, int, Move]]] = {}
                need_of_others: dict[int, int] = {}
                others_mask = ~(runs_mask << (_RUNS_BITS * suit))
                # No card of this suit here: a state with no run of it open goes on as it is (its one move).
                idle = not naturals and not (keep_back or take_back)
                for key, val in layer.items():
                    runs_id = (key >> runs_shift) & runs_mask
                    if idle and not runs_id:
                        if floor is not None:
                            left = budget - ((key >> (set_bits + used_at)) & room_mask)
                            if val < floor + ahead[left] - worth_of_kept[(key >> kept_full) & all_kept_mask]:
                                continue
                        if val > get(key, -1):
                            nxt[key] = val
                            back[key] = (key >> set_bits if suit == 0 else key, _IDLE)
                        continue
                    room = (key >> set_bits) & room_mask
                    left = budget - ((key >> (set_bits + used_at)) & room_mask)
                    spare = left  # the wild cards left beyond what the other suits' open runs need
                    if open_need is not None:
                        others = (key >> (set_bits + runs_at)) & others_mask
                        if others:
                            need = need_of_others.get(others)
                            if need is None:
                                need = need_of_others[others] = _runs_need(open_need, run_positions, others)
                            spare -= need
                            if spare < 0:
                                continue
                    prev = key >> set_bits if suit == 0 else key  # the first suit starts from a state
                    base = key - (runs_id << runs_shift) - (room << set_bits)
                    if keep_back or take_back:
                        held = (key >> kept_shift) & kept_mask
                        n = held if take_back else here[suit]
                        base -= held << kept_shift
                        worth_kept = kept_worth(key >> set_bits) - held * ace_worth[suit]
                        for add, gain, wild_used, room_add, held_back, move in coded_moves(
                            suit, runs_id, n, left, ctx, layout
                        ):
                            if open_need is not None:
                                new_runs = (add >> runs_shift) & runs_mask
                                if wild_used + (open_need(position, suit, new_runs) if new_runs else 0) > spare:
                                    continue
                            nval = val + worth * gain
                            if floor is not None:
                                if nval + worth_kept + held_back * ace_worth[suit] < floor + ahead[left]:
                                    continue
                            room_next = room + room_add
                            if room_next > left - wild_used:
                                room_next = left - wild_used
                            nkey = base + add + (room_next << set_bits) + (held_back << kept_shift)
                            if nval > get(nkey, -1):
                                nxt[nkey] = nval
                                back[nkey] = (prev, move)
                        continue
                    if floor is None:
                        least = -1
                    else:
                        least = floor + ahead[left] - worth_of_kept[(key >> kept_full) & all_kept_mask]
                    # The moves here depend on the suit's open runs, the wild cards left, the room and the spare.
                    moves_key = (((((runs_id << room_bits) | left) << room_bits) | room) << room_bits) | spare
                    moves = step_moves.get(moves_key)
                    if moves is None:
                        moves = step_moves[moves_key] = []
                        for add, gain, wild_used, room_add, _, move in coded_moves(
                            suit, runs_id, naturals, left, ctx, layout
                        ):
                            if open_need is not None:
                                new_runs = (add >> runs_shift) & runs_mask
                                if wild_used + (open_need(position, suit, new_runs) if new_runs else 0) > spare:
                                    continue  # the wild cards it uses and those its suit's open runs need
                            room_next = room + room_add
                            if room_next > left - wild_used:
                                room_next = left - wild_used
                            moves.append((add + (room_next << set_bits), worth * gain, move))
                    for add, gain, move in moves:
                        nval = val + gain
                        if nval < least:
                            continue
                        nkey = base + add
                        if nval > get(nkey, -1):
                            nxt[nkey] = nval
                            back[nkey] = (prev, move)
                steps.append((position, suit, back))
                if counted:
                    yield len(layer)
                run_positions[suit] = position
                if beam is not None and len(nxt) > beam:
                    lost = {}
                    for key, val in nxt.items():
                        # What a state has lost depends, beyond its value, on its open runs and kept aces.
                        shape = key >> kept_full
                        penalty = penalty_of.get(shape)
                        if penalty is None:
                            state = key >> set_bits
                            penalty = penalty_of[shape] = self.beam_penalty * deficit(state) - kept_worth(state)
                        lost[key] = seen - val + penalty
                    ranked = sorted(nxt, key=lost.__getitem__)
                    # Keep one state with no open run and nothing for the sets: it can always end.
                    safe = [k for k in ranked if not k & set_mask and not k >> (set_bits + runs_at)][:1]
                    nxt = {key: nxt[key] for key in ranked[:beam] + safe}
                layer = nxt
            states = {}
            set_back: dict[int, tuple[int, object]] = {}
            for key, val in layer.items():
                in_sets = key & set_mask
                state = key >> set_bits
                room = state & room_mask
                used = (state >> used_at) & room_mask
                base = state - room - (used << used_at)
                for wilds, more, groups in set_options[in_sets]:
                    if used + wilds > budget:
                        break
                    room_next = room + more
                    if room_next > budget - used - wilds:
                        room_next = budget - used - wilds
                    state = base + ((used + wilds) << used_at) + room_next
                    if val > states.get(state, -1):
                        states[state] = val
                        set_back[state] = (key, (wilds, groups))
            steps.append((position, -1, set_back))
        best: dict[int, tuple[int, int, int]] = {}
        for state, val in states.items():
            if state >> kept_at:  # runs still open or aces kept back
                continue
            used = (state >> used_at) & room_mask
            room = state & room_mask
            for total in range(used, used + room + 1):
                if total not in best or val > best[total][0]:
                    best[total] = (val, state, used)
        return best, steps

    def _open_runs_need(self, counts: Sequence[int]) -> Callable[[int, int, int], int]:
        """For a hand: the fewest wild cards a suit's open runs at a position must still take,
        ``need(position, suit, runs_id)``. Each run lacking ``k`` cards gets them from the natural cards of
        its suit at the ``k`` positions above, one per position (each natural card to one run), and wild
        cards for the rest, whether they fill gaps or go on an end. A run whose last card is a wild card
        filling a gap cannot end before it takes a natural card, so it also needs a wild card for every
        position below the next natural card it may reach (none within reach: the state is dead). A state
        needing more than it has left can never end, so dropping it changes no answer. Worked out once for
        all the passes over a hand."""
        key = bytes(counts)
        if self._need[0] == key:
            return self._need[1]
        table = self._position_table
        lo = self._lo
        longest = 2 * self._run_min - 1
        above: dict[int, list[tuple[int, ...]]] = {}

        def naturals_above(position: int) -> list[tuple[int, ...]]:
            """Per suit, the natural cards at the positions above ``position`` its runs may still reach."""
            held: list[tuple[int, ...]] = [(), (), (), ()]
            for entry in table[position - lo + 1 : position - lo + longest]:
                faces = entry[5]
                if not entry[2][0]:
                    break  # runs stop below this position
                held = [row + (counts[faces[suit]] if faces else 0,) for suit, row in enumerate(held)]
            above[position] = held
            return held

        memo: dict[int, int] = {}
        lacking_of = self._lacking_of

        def need(position: int, suit: int, runs_id: int) -> int:
            code = (runs_id << 6) | (position << 2) | suit
            found = memo.get(code)
            if found is None:
                found, at_least, gaps = lacking_of[runs_id]
                if found or gaps:
                    row = above.get(position)
                    held_above = (row or naturals_above(position))[suit]
                    for held, runs in zip(held_above, at_least):
                        found -= held if held < runs else runs
                    # A run ending in a wild card filling a gap cannot end before it takes a natural card: it
                    # fills every position up to the next one it may reach with a wild card.
                    gap_fill = 0
                    for length in gaps:
                        first = next((d for d, held in enumerate(held_above[: longest - length]) if held), None)
                        if first is None:
                            gap_fill = INF
                            break
                        gap_fill += first
                    found = max(found, gap_fill)
                memo[code] = found
            return found

        self._need = (key, need)
        return need

    def _future_loss(self, counts: Sequence[int], budget: int) -> dict[int, list[list[int]]]:
        """:meth:`_look_ahead` of a hand, worked out once for all the passes over it."""
        key = (bytes(counts), budget)
        if self._future[0] != key:
            self._future = (key, self._look_ahead(counts, budget))
        return self._future[1]

    def _look_ahead(self, counts: Sequence[int], budget: int) -> dict[int, list[list[int]]]:
        """At least the natural value any arrangement leaves out after each step of the programme, by the
        wild cards left: ``[position][suits done there - 1][wild cards]`` (the suits not done there, and
        every position after it).

        It solves a looser problem, one suit at a time from the top down: runs may come from below the
        step for free, their lengths only matter up to the shortest run, and a natural card goes to a set
        for its share of the wild cards that rank lacks (with sets of three: nothing when the hand holds
        three of the rank, half a wild card for each of a pair, two for a card alone; wild cards are counted
        in such shares). Every arrangement is one of the looser problem's, so it never leaves out more. The
        suits are then combined over the wild cards, keeping only the (wild cards, left out) pairs no other
        beats on both."""
        rules = self.rules
        values = self.values
        run_min = self._run_min if rules.runs else 0
        units = math.lcm(*range(1, rules.set_min)) if rules.sets and rules.set_min > 1 else 1
        top = budget * units
        lo, hi = self._lo, self._hi
        of_rank = [0] * 14
        for face in range(52):
            of_rank[face % 13 + 1] += counts[face]
        fronts: list[dict[int, list[tuple[int, int]]]] = []
        for suit in range(4):
            states: dict[tuple[int, ...], list[tuple[int, int]]] = {(): [(0, 0)]}
            by_position = {hi: [(0, 0)]}
            for q in range(hi, lo - 1, -1):
                rank = self._rank(q)
                excluded = rank in rules.excluded_ranks
                face = self._face_at[q][suit]
                n = 0 if excluded else counts[face]
                cont = self._allowed(q)
                worth = 0 if (self._both and rank == 1) else values[face]
                set_ok = bool(rules.sets and not excluded and (rank != 1 or q == self._ace_set_position))
                charge = units * max(0, rules.set_min - of_rank[rank]) // of_rank[rank] if of_rank[rank] else 0
                nxt: dict[tuple[int, ...], list[tuple[int, int]]] = {}
                for runs, front in states.items():
                    for new_runs, wilds, lost, to_set in self._relaxed_moves(runs, n, cont, set_ok, run_min):
                        du = wilds * units + to_set * charge
                        dl = lost * worth
                        if front[0][0] + du > top:
                            continue
                        target = nxt.get(new_runs)
                        if target is None:
                            target = nxt[new_runs] = []
                        for u, loss in front:
                            if u + du <= top:
                                target.append((u + du, loss + dl))
                states = {runs: _pareto(found) for runs, found in nxt.items()}
                by_position[q - 1] = _pareto([item for front in states.values() for item in front])
            fronts.append(by_position)
        nothing = [(0, 0)]

        def combined(first: list[tuple[int, int]], second: list[tuple[int, int]]) -> list[tuple[int, int]]:
            """Two fronts taken together (one that loses nothing for no wild card leaves the other as it is)."""
            if second == nothing:
                return first
            if first == nothing:
                return second
            return _pareto([(u + v, a + b) for u, a in first for v, b in second if u + v <= top])

        # Per position, by the suits done there: the suits done count from the next position on. The suits
        # up to ``done`` at the position are taken together once, and so are those after it at the one below.
        result: dict[int, list[list[int]]] = {hi + 1: [[0] * (budget + 1)] * 4}
        for position in range(lo, hi + 1):
            rows = []
            done_here = [fronts[0][position]]
            for suit in range(1, 4):
                done_here.append(combined(done_here[-1], fronts[suit][position]))
            after_below = [nothing]
            for suit in range(3, 0, -1):
                after_below.append(combined(fronts[suit][position - 1], after_below[-1]))
            for done in range(4):
                total = combined(done_here[done], after_below[3 - done])
                row = []
                at = 0
                least = INF
                for w in range(budget + 1):
                    while at < len(total) and total[at][0] <= w * units:
                        least = total[at][1]
                        at += 1
                    row.append(least)
                rows.append(row)
            result[position] = rows
        return result

    def _relaxed_moves(
        self, runs: tuple[int, ...], n: int, cont: bool, set_ok: bool, run_min: int
    ) -> list[tuple[tuple[int, ...], int, int, int]]:
        """One suit at one position of :meth:`_look_ahead`'s looser problem, going down: each open run
        (its length up to the shortest run) takes a natural, takes a wild card, or ends, taking the wild
        cards it lacks; the ``n`` naturals left start runs, go to a set or are left out. Per way: the open
        runs after, wild cards, naturals left out, naturals sent to sets."""
        key = (runs, n, cont, set_ok)
        hit = self._relaxed.get(key)
        if hit is not None:
            return hit
        found: dict[tuple[tuple[int, ...], int, int, int], None] = {}

        def walk(i: int, avail: int, wilds: int, kept: list[int]) -> None:
            if i == len(runs):
                for start in range(avail + 1 if cont else 1):
                    rest = avail - start
                    for to_set in range(rest + 1 if set_ok else 1):
                        found[(tuple(sorted(kept + [1] * start)), wilds, rest - to_set, to_set)] = None
                return
            length = runs[i]
            walk(i + 1, avail, wilds + max(0, run_min - length), kept)
            if cont:
                grown = min(length + 1, run_min)
                if avail:
                    walk(i + 1, avail - 1, wilds, kept + [grown])
                walk(i + 1, avail, wilds + 1, kept + [grown])

        walk(0, n, 0, [])
        hit = self._relaxed[key] = list(found)
        return hit

    def _first_within(
        self,
        counts: Sequence[int],
        wilds: Sequence[int],
        bound: int,
        failed: dict[tuple[int, int, int], int] | None = None,
        limit: int | None = None,
    ) -> tuple[dict[int, tuple[int, int, int]], list[Step]] | None:
        """:meth:`_best_by_wilds` for an arrangement whose deadwood is at most ``bound``: the first one a
        depth-first walk of the programme's states meets (moves leaving out less first, then those using
        fewer wild cards), or nothing. A state that led nowhere is not visited again having left out as much
        or more. Big hands usually meld everything, and this meets such an arrangement long before the
        programme would have visited every state that leaves nothing out. None if it gives up (after ``limit``
        states, :attr:`try_states` by default): a walk that finds nothing costs more than a pass. A walk given
        the ``failed`` states of one within the same bound that gave up goes on where that one stopped."""
        budget = len(wilds)
        values = self.values
        set_options, layout = self._layout(counts, budget)
        set_bits, room_bits = layout
        set_mask = (1 << set_bits) - 1
        room_mask = (1 << room_bits) - 1
        used_at = room_bits  # the fields as in _best_by_wilds
        kept_at = 2 * room_bits
        runs_at = kept_at + 4 * _KEPT_BITS
        kept_mask = (1 << _KEPT_BITS) - 1
        runs_mask = (1 << _RUNS_BITS) - 1
        positions = self._positions(counts)
        future = self._future_loss(counts, budget)
        open_need = self._open_runs_need(counts) if self.check_open_runs else _no_need
        need_of_others: dict[tuple[int, int, int], int] = {}
        # The natural value the programme places (not that of ranks it never visits, as an excluded one).
        placed = sum(
            here[suit] * values[self._face_at[position][suit]]
            for position, in_span, _, _, take_back, here in positions
            if in_span and not take_back
            for suit in range(4)
        )
        coded_moves = self._coded_moves
        if failed is None:
            failed = {}  # states that led nowhere: the least they had left out
        path: list[tuple[int, int, int, tuple[int, object]]] = []
        ends: dict[tuple[int, int, int], bool] = {}
        ordered: dict[tuple[int, ...], list[tuple[int, int, int, int, int, Move, int]]] = {}

        def ends_well(state: int, lost: int) -> bool:
            """Whether a final state's deadwood, wild cards left out included, is within the bound."""
            used = (state >> used_at) & room_mask
            room = state & room_mask
            found = ends.get((used, room, lost))
            if found is None:
                best = {total: (placed - lost, state, used) for total in range(used, used + room + 1)}
                found = ends[used, room, lost] = self._choose(counts, wilds, best)[0] <= bound
            return found

        def at_position(i: int, state: int, lost: int) -> tuple[int, int] | None:
            if i == len(positions):
                return (state, lost) if not state >> kept_at and ends_well(state, lost) else None
            return at_suit(i, 0, state << set_bits, lost)

        def at_suit(i: int, suit: int, key: int, lost: int) -> tuple[int, int] | None:
            if suit == 4:
                return at_sets(i, key, lost)
            if failed.get((i, suit, key), bound + 1) <= lost:
                return None
            if len(failed) >= most:
                raise _GiveUp
            position, in_span, ctx, keep_back, take_back, here = positions[i]
            worth = values[self._face_at[position][suit]] if in_span else 0
            ahead = future[position][suit]
            runs_shift = set_bits + runs_at + suit * _RUNS_BITS
            kept_shift = set_bits + kept_at + suit * _KEPT_BITS
            runs_id = (key >> runs_shift) & runs_mask
            room = (key >> set_bits) & room_mask
            left = budget - ((key >> (set_bits + used_at)) & room_mask)
            base = key - (runs_id << runs_shift) - (room << set_bits)
            naturals = here[suit]
            if keep_back or take_back:
                held = (key >> kept_shift) & kept_mask
                base -= held << kept_shift
                if take_back:
                    naturals = held
            prev = key >> set_bits if suit == 0 else key
            # The wild cards left beyond what the other suits' open runs need (see _open_runs_need).
            others = (key >> (set_bits + runs_at)) & ~(runs_mask << (_RUNS_BITS * suit))
            spare = left
            if others:
                need = need_of_others.get((i, suit, others))
                if need is None:
                    at = [position if s < suit else positions[i - 1][0] for s in range(4)]
                    need = need_of_others[i, suit, others] = _runs_need(open_need, at, others)
                spare -= need
            order_key = (i, suit, runs_id, naturals, left)
            moves = ordered.get(order_key)
            if moves is None:
                # Moves that leave out fewer natural cards first, then those using fewer wild cards; each with
                # the wild cards it uses and those its suit's open runs will need.
                moves = ordered[order_key] = [
                    (*m, m[2] + (open_need(position, suit, r) if (r := (m[0] >> runs_shift) & runs_mask) else 0))
                    for m in sorted(
                        coded_moves(suit, runs_id, naturals, left, ctx, layout),
                        key=lambda m: (naturals - m[1] - m[4], m[2]),
                    )
                ]
            for add, gain, wild_used, room_add, held_back, move, demand in moves:
                if demand > spare:
                    continue  # its open runs could never end
                now_lost = lost + (naturals - gain - held_back) * worth
                if now_lost + ahead[left - wild_used] > bound:
                    continue  # what it left out, and what the rest must leave out, is too much
                room_next = min(room + room_add, left - wild_used)
                nkey = base + add + (room_next << set_bits) + (held_back << kept_shift)
                path.append((position, suit, nkey, (prev, move)))
                end = at_suit(i, suit + 1, nkey, now_lost)
                if end is not None:
                    return end
                path.pop()
            failed[i, suit, key] = lost
            return None

        def at_sets(i: int, key: int, lost: int) -> tuple[int, int] | None:
            position = positions[i][0]
            state = key >> set_bits
            room = state & room_mask
            used = (state >> used_at) & room_mask
            base = state - room - (used << used_at)
            for set_wilds, more, groups in set_options[key & set_mask]:
                if used + set_wilds > budget:
                    break
                room_next = min(room + more, budget - used - set_wilds)
                nstate = base + ((used + set_wilds) << used_at) + room_next
                path.append((position, -1, nstate, (key, (set_wilds, groups))))
                end = at_position(i + 1, nstate, lost)
                if end is not None:
                    return end
                path.pop()
            return None

        most = self.try_states if limit is None else limit
        try:
            found = at_position(0, 0, 0)
        except _GiveUp:
            return None
        if found is None:
            return {}, []
        end, lost = found
        used = (end >> used_at) & room_mask
        best = {total: (placed - lost, end, used) for total in range(used, used + (end & room_mask) + 1)}
        return best, [(position, suit, {key: back}) for position, suit, key, back in path]

    def _groups(self, steps: list[Step], key: int) -> list[tuple[tuple[int, ...], int, int]]:
        """The melds on the way to final state ``key``: (natural faces, wild cards, room for more)."""
        chosen: list[tuple[int, int, object]] = []
        for position, suit, back in reversed(steps):
            key, info = back[key]
            chosen.append((position, suit, info))
        chosen.reverse()
        found: list[tuple[tuple[int, ...], int, int]] = []
        # Open runs per suit: [state, cells (a face, or -1 for a wild card)].
        open_runs: list[list[list[Any]]] = [[], [], [], []]
        to_sets: list[int] = []
        for position, suit, info in chosen:
            if suit < 0:
                set_wilds, set_groups = cast(tuple[int, int], info)
                at = 0
                for count, wild, room in self._split_sets(len(to_sets), set_wilds, set_groups) or ():
                    found.append((tuple(to_sets[at : at + count]), wild, room))
                    at += count
                to_sets = []
                continue
            move: Move = info  # type: ignore[assignment]
            new_runs, _, _, sets_here, _, _, actions, started = move
            if not open_runs[suit] and not started and not sets_here:
                continue  # nothing here (most steps of a small hand)
            current = sorted(open_runs[suit], key=lambda r: r[0])
            face = self._face_at[position][suit] if position <= self._hi else -1
            kept_runs: list[list[Any]] = []
            for run, (action, need, room) in zip(current, actions):
                state, cells = run
                length, held, _ = state
                if action == "end":
                    naturals = tuple(f for f in cells if f >= 0)
                    found.append((naturals, sum(1 for f in cells if f < 0) + need, room))
                    continue
                if action == "natural":
                    cells.append(face)
                    run[0] = (length + 1, held, 0)
                else:
                    cells.append(-1)
                    run[0] = (length + 1, held + 1 if self._max_wilds is not None else 0, 1)
                kept_runs.append(run)
            for _ in range(started):
                kept_runs.append([(1, 0, 0), [face]])
            open_runs[suit] = kept_runs
            assert tuple(sorted(r[0] for r in kept_runs)) == new_runs
            to_sets.extend([face] * sets_here)
        return found


class _GiveUp(Exception):
    """A depth-first try, or a pass, has visited as many states as it may; ``run``: the pass, where it stopped."""

    def __init__(self, run: Generator[int, None, Any] | None = None) -> None:
        super().__init__()
        self.run = run


def _run_pass(run: Generator[int, None, _T], cap: int | None = None) -> _T:
    """What a pass (:meth:`DeadwoodSolver._pass`, new or stopped on the way) finds, run to its end; with
    ``cap``, it gives up (raises :class:`_GiveUp` holding it) once its steps have visited more states than that."""
    try:
        while True:
            visited = next(run)
            if cap is not None:
                cap -= visited
                if cap < 0:
                    raise _GiveUp(run)
    except StopIteration as done:
        found: _T = done.value
        return found


def _no_need(position: int, suit: int, runs_id: int) -> int:
    return 0


def _runs_need(open_need: Callable[[int, int, int], int], at: list[int], runs: int) -> int:
    """What the open runs ``runs`` (the runs fields of a state) need in all, each suit's at position ``at[suit]``
    (see :meth:`DeadwoodSolver._open_runs_need`)."""
    need = 0
    for suit in range(4):
        of_suit = (runs >> (_RUNS_BITS * suit)) & ((1 << _RUNS_BITS) - 1)
        if of_suit:
            need += open_need(at[suit], suit, of_suit)
    return need


def _pareto(items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs (wild units, loss) no other pair beats on both, by units."""
    items.sort()
    kept: list[tuple[int, int]] = []
    for u, loss in items:
        if not kept or loss < kept[-1][1]:
            kept.append((u, loss))
    return kept


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
    return [tuple(face for face, n in zip(distinct, pick) for _ in range(n)) for pick in itertools.product(*ranges)]
