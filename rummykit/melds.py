"""Melds: validation, extension (lay-offs) and the least-deadwood arrangement of a hand.

A :class:`MeldRules` describes what melds a game allows; a :class:`MeldSearch` is built once per variant
from those rules and the card values, with every table the search needs. Two search paths:

* the fast path, for hands with no wild card and no duplicate card (every game played with one deck):
  hands are 52-bit masks and every possible meld is a precomputed mask, indexed by its lowest card;
* the general path, for wild cards and duplicates from several decks: the dynamic programme of
  :mod:`rummykit.solver` (milliseconds on 45 cards); rules it does not cover (special melds, sets
  needing distinct suits, a longest run) and melds a game's own test (``accept``) refuses fall back
  to an exhaustive search over sorted tuples of faces, exact but exponential in the hand.

All find the arrangement whose unmelded cards (deadwood) have the least total value.
"""

from __future__ import annotations

import heapq
import itertools
import operator
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Literal

from . import meldorder
from .cards import JOKER_FACE, Card, card_from_face
from .errors import warn_outside
from .solver import DeadwoodSolver

_ORDER = operator.attrgetter("order")
"""Sorts cards as ``sorted(cards)`` does (by face, then copy), without a Python call per comparison."""

__all__ = ["MeldRules", "SpecialMeld", "Meld", "Arrangement", "MeldSearch", "MeldCheck", "check_copies"]

MeldCheck = Callable[["Meld"], bool]
"""A game's own test of a meld the rules allow (Arlington: a 2 stands for QS only in an otherwise natural
meld). Called with every meld before it is accepted, listed or used by the search; False refuses it. Its
answer must depend only on the meld's kind and faces (what each card is and stands for), not on which copy
of a card it holds: the search keeps its answers by faces."""

_MELD_MASK = (1 << 52) - 1
"""The meld a memo entry of the bit search names (see :meth:`MeldSearch._best_inner`)."""

AceRule = Literal["low", "high", "both"]

RUN_ORDER: tuple[int, ...] = tuple(range(1, 14))
"""The usual run order, A 2 3 .. Q K (ranks 1..13)."""


@dataclass(frozen=True)
class SpecialMeld:
    """A meld a game names explicitly (Iceberg's K-J-9-7-5-3). Laid whole; never extended.

    ``options`` lists every allowed combination of faces (each a sorted tuple).
    """

    name: str
    options: tuple[tuple[int, ...], ...]

    def __reduce__(self) -> tuple[type[SpecialMeld], tuple[object, ...]]:
        return (type(self), _init_values(self))


@dataclass(frozen=True)
class MeldRules:
    """Which melds a game allows. Built from a ruleset's ``melds`` block."""

    sets: bool = True
    runs: bool = True
    set_min: int = 3
    set_max: int | None = 4
    run_min: int = 3
    run_max: int | None = None
    ace: AceRule = "low"
    set_distinct_suits: bool = False
    """Whether a set needs different suits (otherwise two decks' 7H may stand in one set)."""
    wild_faces: frozenset[int] = frozenset()
    """Faces that are wild (0..51 for natural cards, 52 for jokers)."""
    max_wilds: int | None = None
    """Wild cards allowed in one meld (None: any number, as long as one card is natural)."""
    wild_sets: bool = False
    """Wild cards of one rank may meld together alone (three 2s; three jokers)."""
    joker_sets: bool = False
    """Jokers that are not wild meld with each other only."""
    excluded_ranks: frozenset[int] = frozenset()
    """Ranks that never meld (Iceberg's aces): in the pack, but in no set or run, which they cut short (not
    even a wild card stands for one). A rank missing from :attr:`order` is only left out of runs."""
    order: tuple[int, ...] = RUN_ORDER
    """The ranks that follow each other in a run, lowest first (``melds.run_order``, by default the pack's
    ranks in the usual order): without 8 9 T, J follows 7. An ace, when listed, is first; :attr:`ace` says
    whether it also follows the last rank."""
    specials: tuple[SpecialMeld, ...] = ()
    accept: MeldCheck | None = None
    """The game's last word on a meld that the rules above allow (Arlington: a 2 may stand for QS only in a
    meld otherwise natural). Set it from ``rummykit_meld_rules``; validation, the listed actions, lay-offs
    and the deadwood search all honour it (see :data:`MeldCheck`)."""
    accept_faces: frozenset[int] | None = None
    """The faces (0..51) whose stand-ins the game's test looks at, when it looks at no other: it accepts
    every meld in which no wild card stands for one of them (Arlington: the queen of spades). None: it may
    refuse any meld. Optional, for speed: runs of the other suits are then listed as the rules place them
    rather than by every placement of their wild cards. Declaring more faces than the test looks at costs
    time, never a meld; declaring too few may list melds out of order, so a search that sees the test refuse
    a meld the declaration says it accepts warns (``RuntimeWarning``) and stops trusting it."""

    _order_tables: tuple[tuple[int, ...], tuple[int, ...], int] = field(init=False, repr=False, compare=False)
    _usual: bool = field(init=False, repr=False, compare=False)
    _span: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[MeldRules], tuple[object, ...]]:
        return (type(self), _init_values(self))

    def __post_init__(self) -> None:
        # Tables of the run order, built once (read on every run checked).
        object.__setattr__(self, "_order_tables", self._build_order_tables())
        object.__setattr__(self, "_usual", self.order == RUN_ORDER)
        if self.ace not in ("low", "high", "both"):
            raise ValueError(f"ace is 'low', 'high' or 'both', not {self.ace!r}")
        top = self._order_tables[2]
        span = (
            (2, top)
            if self.order[:1] != (1,)
            else {"low": (1, top), "high": (2, top + 1), "both": (1, top + 1)}[self.ace]
        )
        object.__setattr__(self, "_span", span)  # asked for every run checked

    def _build_order_tables(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """(position of each rank 0..14 (0: none; 14 is the high ace), rank at each position, top position).

        Position 1 is the low ace, then the ranks of :attr:`order`, the top one the highest; the high ace
        takes the position above it. Under the usual order a rank's position is the rank itself."""
        if not self.order:
            return (0,) * 15, (0, 14), 0
        if 1 in self.order[1:]:
            raise ValueError(f"an ace in a run order comes first, not as in {self.order}")
        first = 1 if self.order[0] == 1 else 2  # without an ace, position 1 (the low ace's) stays empty
        position = [0] * 15
        for i, rank in enumerate(self.order):
            position[rank] = first + i
        top = first + len(self.order) - 1
        position[14] = top + 1
        rank_at = [0] * (top + 2)
        for rank in range(1, 15):
            if position[rank]:
                rank_at[position[rank]] = rank
        return tuple(position), tuple(rank_at), top

    @property
    def usual_order(self) -> bool:
        """Whether runs follow the usual order A 2 .. K (the fast tables assume it)."""
        return self._usual

    @property
    def top(self) -> int:
        """The highest run position of a rank other than the high ace (13 under the usual order, a king's)."""
        return self._order_tables[2]

    def rank_at(self, position: int) -> int:
        """The rank at a run position (14 for the high ace, above :attr:`top`)."""
        return self._order_tables[1][position]

    def position(self, rank: int) -> int:
        """The run position of ``rank`` (1 for an ace, 14 for a high ace: its low and high places; others
        follow :attr:`order`); 0 for a rank that is in no run."""
        return self._order_tables[0][rank]

    @property
    def run_span(self) -> tuple[int, int]:
        """The lowest and highest run positions the ace rule allows (1 is a low ace, ``top + 1`` a high one;
        under the usual order 1..13, 2..14 or 1..14; 2..top without an ace in :attr:`order`)."""
        return self._span

    def positions(self, rank: int) -> tuple[int, ...]:
        """The run positions a card of ``rank`` may take (under the usual order: 1..13, and 14 for a high
        ace); none for a rank outside :attr:`order`."""
        if rank != 1:
            position = self._order_tables[0][rank]
            return (position,) if position else ()
        if self.order[:1] != (1,):
            return ()
        return {"low": (1,), "high": (self.top + 1,), "both": (1, self.top + 1)}[self.ace]


@dataclass(frozen=True)
class Meld:
    """A valid meld. ``cards`` are in order (runs low to high); ``ranks`` give the rank each card
    stands for (14 is a high ace; a wild card stands for the rank it fills)."""

    kind: str
    """``set``, ``run``, ``wild-set`` (wild cards of one rank alone), ``joker-set`` or a special name."""
    cards: tuple[Card, ...]
    ranks: tuple[int, ...]
    suit: int | None = None
    """The suit of a run; None for sets."""
    wilds: int = 0
    represents: tuple[int, ...] = ()
    """The face each card stands for, where it was chosen (a wild card in a set); empty: see :attr:`faces`."""

    @property
    def faces(self) -> tuple[int, ...]:
        """The face (0..51, 52 for a joker) each card stands for: its own for a natural card; for a wild
        card the card it replaces (in a run, the one at its place; in a set, the card of the set's rank it
        was said to be, by default of the first suit the set lacks). Cards in a set of wild cards alone,
        a set of jokers, or a special meld stand for themselves."""
        if self.represents:
            return self.represents
        if self.kind == "run" and self.suit is not None:
            before = self.suit * 13 - 1  # _face inlined: asked for every meld action with a wild card
            return tuple([before + rank if rank != 14 else before + 1 for rank in self.ranks])
        return tuple([card.face for card in self.cards])

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __reduce__(self) -> tuple[type[Meld], tuple[object, ...]]:
        return (type(self), _init_values(self))

    def __copy__(self) -> Meld:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Meld:
        return self  # immutable: a copied game shares its table's melds, and what is known of them (lay-offs)


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and deadwood."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_value: int

    def __reduce__(self) -> tuple[type[Arrangement], tuple[object, ...]]:
        return (type(self), _init_values(self))

    @property
    def melded(self) -> tuple[Card, ...]:
        """Every card of the arrangement's melds, meld by meld."""
        return tuple(card for meld in self.melds for card in meld.cards)

    def __str__(self) -> str:
        return self.text()

    def text(self, meld_text: Callable[[Meld], str] = str) -> str:
        """``[7H 8H 9H] deadwood 4S KD (14)``, each meld written by ``meld_text``."""
        parts = [f"[{meld_text(meld)}]" for meld in self.melds]
        parts.append(f"deadwood {' '.join(map(str, self.deadwood)) or '-'} ({self.deadwood_value})")
        return " ".join(parts)


def _init_values(value: object) -> tuple[object, ...]:
    """A frozen dataclass's fields as its constructor takes them: what it pickles as. Compiled (the compiled
    build), such a class cannot be unpickled field by field, as its fields refuse to be set."""
    return tuple(getattr(value, f.name) for f in fields(value) if f.init)  # type: ignore[arg-type]


_RANK_BITS = [sum(1 << (suit * 13 + index) for suit in range(4)) for index in range(13)]
"""The four faces of each rank, as bits, by the rank's index (0: the aces)."""


def _face(rank: int, suit: int) -> int:
    """Face of the natural card at run position ``rank`` (14 is the ace)."""
    return suit * 13 + (0 if rank == 14 else rank - 1)


@lru_cache(maxsize=32)
def _lane_tables(values: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """(sum, highest) of the values of every subset of one suit's 13 cards: shared (never changed) by
    every variant with those values, as building them takes most of the time a variant takes to load."""
    total, highest = [0] * 8192, [0] * 8192
    for subset in range(1, 8192):
        low = subset & -subset
        value = values[low.bit_length() - 1]
        total[subset] = total[subset ^ low] + value
        highest[subset] = max(highest[subset ^ low], value)
    return total, highest


@dataclass
class MeldSearch:
    """Meld validation and search for one game's rules and deadwood values (tables built once)."""

    rules: MeldRules
    values: Sequence[int]
    """Deadwood value of each face (53 entries; index 52 is the joker)."""
    cache_limit: int = 200_000
    accept: MeldCheck | None = None
    """The game's own meld test (see :data:`MeldCheck`); None accepts every meld the rules allow."""
    pack_faces: frozenset[int] | None = None
    """The natural faces a deck holds (``decks.ranks``, ``decks.suits``); None: all 52. A hand given as
    texts naming another card is not taken on the fast path, so the caller's check refuses it."""
    _by_low: list[tuple[int, ...]] = field(init=False, repr=False)
    _by_low_second: list[list[tuple[int, tuple[int, ...]]]] = field(init=False, repr=False)
    _cache: dict[int, int] = field(init=False, repr=False)
    """The bit search's memo: a mask's least deadwood and the meld of its lowest card, packed in one int (see
    :meth:`_best_inner`). Ints, not tuples: the memo then makes nothing the garbage collector must track."""
    _gcache: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, tuple[tuple[int, ...], ...]]] = field(
        init=False, repr=False
    )

    def __post_init__(self) -> None:
        if len(self.values) != 53:
            raise ValueError("values needs 53 entries, one per face")
        given: Sequence[Any] = self.values  # any integer type, numpy's too (the compiled build checks ints)
        try:
            # Whole numbers as Python ints: the search packs them into wider ints.
            self.values = [operator.index(value) for value in given]
        except TypeError:
            wrong = next(v for v in given if not hasattr(v, "__index__"))
            raise ValueError(f"values: each deadwood value is a whole number, not {wrong!r}") from None
        if self.accept is None:
            self.accept = self.rules.accept  # a game sets its test on the rules (rummykit_meld_rules)
        self._placements: dict[int, tuple[Meld, tuple[Meld, ...]]] = {}
        """:meth:`placements` by the meld's id, with the meld (asked while the tables are built, too)."""
        self._placements_by_faces: dict[Hashable, list[_Layout]] = {}
        """The same by the run's faces in their places: each other placement's :func:`_layout`."""
        self._made_by_faces: dict[Hashable, Any] = {}
        """What :meth:`meld` answered, by the faces given (distinct faces only), the kind asked for and the faces
        named: False for no meld, else its :func:`_layout`. A meld's validity and shape depend on faces alone
        (and the game's test on them: see :data:`MeldCheck`), so other copies of the same faces make the same
        meld."""
        looked_at = self.rules.accept_faces
        by_suit = [
            self.accept is None
            or (looked_at is not None and self.rules.accept is self.accept and not any(f // 13 == s for f in looked_at))
            for s in range(4)
        ]
        self._placed_by_rules = (by_suit[0], by_suit[1], by_suit[2], by_suit[3])
        """By suit, whether every run of it is laid where the rules place its wild cards (no game's test refuses it)."""
        self._by_low = self._build_tables()
        self._by_low_second = [_by_second_card(masks) for masks in self._by_low]
        """Each lowest card's melds in the tables grouped by their second card (:meth:`_table_entries`)."""
        self._cache = {}
        self._gcache = {}
        self._wild_bits = sum(1 << face for face in self.rules.wild_faces)
        """The wild faces (a joker's too when wild), as bits."""
        self._slow_bits = self._wild_bits | 1 << JOKER_FACE
        self._lane_values = [self._lane_table(suit) for suit in range(4)]
        self._lane_max = [self._lane_max_table(suit) for suit in range(4)]
        # The pruning bound assumes every meld of the rules is allowed; a game's own test may refuse some.
        self._scan_prune = self._pruning_table()
        """The pruning masks for the meld tables' scans (:meth:`_candidate_melds_fast`): the cards that may be
        in a meld of the rules hold every card of a meld the game's test accepts, so they serve there too."""
        self._prune = self._scan_prune if self.accept is None else None
        solvable = DeadwoodSolver.supports(self.rules) and (self.rules.usual_order or self._order_holds_pack())
        # The solver's search for small hands takes its melds from this search's list; a game's own meld test
        # would refuse some of them (the solver's arrangement is then searched again exhaustively, far slower),
        # so with a test the solver keeps to its programme, whose arrangements the test rarely refuses.
        melds_with = self._skeletons_with if self.accept is None else None
        self._solver = DeadwoodSolver(self.rules, self.values, melds_with) if solvable else None
        # Special melds by their lowest face, each with the faces it needs: found without a scan of every option.
        self._specials_by_low: dict[int, list[tuple[tuple[int, ...], int, Counter[int]]]] = {}
        for special in self.rules.specials:
            for option in special.options:
                repeated = Counter({f: n for f, n in Counter(option).items() if n > 1})
                mask = sum(1 << f for f in set(option))
                self._specials_by_low.setdefault(option[0], []).append((option, mask, repeated))
        self._hand_bits = self._hand_bits_table()
        self._bit_of = self._hand_bits.__getitem__
        self._mask_deadwood, self._mask_best = self._mask_functions()
        self._melds_by_mask: dict[int, Meld] = {}
        self._table_melds: dict[int, tuple[tuple[int, tuple[int, ...]], Meld]] = {}
        top = self.rules.top
        self._top_rank = self.rules.rank_at(top) if top else -1
        self._below_top_rank = self.rules.rank_at(top - 1) if top > 1 else -1
        """The top rank of a run, and the one below it (K and Q in the usual order)."""
        self._kept: dict[int, tuple[Meld, dict[Hashable, Any]]] = {}
        """Answers about melds, by the meld's id (see :meth:`kept`)."""
        self._layoff_faces_by_faces: dict[
            tuple[str, tuple[int, ...], tuple[int, ...], int | None, tuple[int, ...]], frozenset[int]
        ] = {}
        """:meth:`layoff_faces` by the meld's kind, cards' faces, ranks, suit and what it represents (another copy
        of a meld answers alike)."""
        self._wild_layoffs_by_faces: dict[tuple[object, ...], tuple[int, ...]] = {}
        """:meth:`wild_layoff_faces` by the meld's kind, cards' faces, ranks, suit and what it represents, and the
        wild card's face."""
        self._fits: dict[int, tuple[Meld, frozenset[int]]] = {}
        """:meth:`layoff_faces` by the meld's id, with the meld."""
        self._last_general: tuple[tuple[int, ...], list[Meld]] | None = None
        """The general walk's last answer, by the hand's card ids: the engine's capped listing and a caller
        wanting every meld of the same hand (the RL action mask) share one walk."""
        self._last_first: tuple[tuple[int, ...], int, list[Meld]] | None = None
        """The lazy walk's last answer, by the hand's card ids and the limit (see :meth:`_first_melds`)."""
        self._made: dict[tuple[int, ...], Meld | None] = {}
        """Melds made by the walks, by their cards' ids (see :meth:`_realise`)."""
        self._copied: dict[tuple[int, ...], Meld] = {}
        """Melds of hands of several decks, by their cards' ids (see :meth:`_candidate_melds_copies`)."""
        self._entries_by_meldable: dict[int, list[tuple[tuple[int, tuple[int, ...]], Meld]]] = {}
        """The tables' melds within a hand's cards that meld (first copies, as a mask), in the listing's order
        (see :meth:`_sorted_entries`)."""
        self._repeated: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, tuple[int, ...]], Meld]]] = {}
        """Sets holding a face twice, by rank and copies held (see :meth:`_repeated_sets`)."""
        self._repeated_set_made: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, tuple[int, ...]], Meld] | None] = {}
        """Each such set, by rank and copies of each suit's card (see :meth:`_repeated_set`)."""
        self._choices: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}
        """The walk's choices of wild cards, by the hand's wild cards and their number (:meth:`_wild_choices`)."""
        self._by_low_melds: dict[tuple[object, ...], list[Meld]] = {}
        """The general walk's melds by their lowest natural face, with the ids of the cards they may hold."""
        self._skeletons: dict[tuple[object, ...], list[tuple[tuple[int, ...], int]]] = {}
        """What those melds are made of (:meth:`_skeletons_with`), by their lowest natural face, how many wild
        cards a meld may take and how many cards of each face they may hold."""
        self._run_paths = [self._run_path(face) for face in range(52)]
        """By natural face, the faces of its suit a run holding it passes, position by position away from its own
        (as bits), up and down from each run position it may take, within the run span, excluded ranks cutting
        them short: see :meth:`_meld_reach`. Empty for a face in no run."""
        self._reach = [self._faces_reached(low) for low in range(JOKER_FACE + 1)]
        """By natural face, the faces a meld whose lowest natural card it is may hold besides wild cards: those
        of its sets and special melds, and, for its runs, the faces above and below it position by position."""

    def _run_path(self, face: int) -> tuple[tuple[int, ...], ...]:
        """:attr:`_run_paths` of one face."""
        rules = self.rules
        rank, suit = face % 13 + 1, face // 13
        if not rules.runs or rank in rules.excluded_ranks:
            return ()
        lo_bound, hi_bound = rules.run_span
        rank_at, ace_high = rules._order_tables[1], rules.top + 1
        paths = []
        for pos in rules.positions(rank):
            if not lo_bound <= pos <= hi_bound:
                continue
            for step, end in ((1, hi_bound + 1), (-1, lo_bound - 1)):
                path = []
                for at in range(pos + step, end, step):
                    at_rank = 1 if at == ace_high else rank_at[at]
                    if at_rank in rules.excluded_ranks:
                        break
                    path.append(1 << _face(at_rank, suit))
                paths.append(tuple(path))
        return tuple(paths)

    def _faces_reached(self, low: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The natural faces :meth:`_melds_with` may put beside ``low``: its rank's from ``low`` up and those of
        the special melds starting at ``low``; and, from each run position of ``low``, the faces of its suit
        at the positions above and below (a run reaches them only while the wild cards fill the gaps)."""
        if low == JOKER_FACE:
            return (JOKER_FACE,), ()
        reached = {low, *(face for face in range(low % 13, 52, 13) if face >= low)}
        for option, _, _ in self._specials_by_low.get(low, ()):
            reached.update(option)
        rules = self.rules
        rank_at, top = rules._order_tables[1], rules._order_tables[2]
        suit = low // 13
        ways: list[tuple[int, ...]] = []
        for pos in rules.positions(low % 13 + 1) if rules.runs else ():
            ways.append(tuple(_face(rank_at[p], suit) for p in range(pos + 1, top + 2)))  # up
            ways.append(tuple(_face(rank_at[p], suit) for p in range(pos - 1, 0, -1)))  # down (from a high ace)
        return tuple(sorted(reached)), tuple(ways)

    def _reached_ids(self, low: int, ids: dict[int, tuple[int, ...]], max_w: int) -> tuple[tuple[int, ...], ...]:
        """The ids of the cards the melds whose lowest natural card is ``low`` may hold besides wild cards (by
        face, in a fixed order): a run goes up or down from ``low`` only until it meets more gaps (faces not
        held, or below ``low``) than ``max_w`` wild cards fill, so the faces past those gaps are not among them."""
        fixed, ways = self._reach[low]
        found = [ids.get(face, ()) for face in fixed]
        for faces in ways:
            gaps = 0
            for face in faces:
                held = ids.get(face, ()) if face >= low else ()
                found.append(held)
                if not held:
                    gaps += 1
                    if gaps > max_w:
                        break
        return tuple(found)

    def _order_holds_pack(self) -> bool:
        """Whether every rank of the pack is in the run order (the solver visits those ranks only)."""
        faces = range(52) if self.pack_faces is None else self.pack_faces
        return {face % 13 + 1 for face in faces} <= set(self.rules.order)

    def _lane_table(self, suit: int) -> list[int]:
        """Deadwood value of every subset of one suit's 13 cards (a 13-bit lane), built once."""
        return _lane_tables(tuple(self.values[suit * 13 : suit * 13 + 13]))[0]

    def _lane_max_table(self, suit: int) -> list[int]:
        """Highest single card value in every subset of one suit's cards."""
        return _lane_tables(tuple(self.values[suit * 13 : suit * 13 + 13]))[1]

    def _pruning_table(self) -> tuple[int, int, int, int, int] | None:
        """Masks for :meth:`_meldable`, or None when the rules need the full search (pairs, specials).

        (run length, run start bits, ace-high top run bits of one lane, set size (0: no sets), excluded bits).
        """
        rules = self.rules
        if rules.specials or (rules.sets and rules.set_min not in (3, 4)) or (rules.runs and rules.run_min < 2):
            return None
        if rules.runs and not rules.usual_order:
            return None  # runs over other orders are not neighbouring bits
        excluded = 0
        for rank in rules.excluded_ranks:
            for suit in range(4):
                excluded |= 1 << _face(rank, suit)
        length = rules.run_min if rules.runs else 0
        starts = 0
        top = 0
        if length:
            first = 1 if rules.ace == "high" else 0  # an ace-high-only game has no A-2-3
            lane_starts = sum(1 << i for i in range(first, 14 - length))
            starts = sum(lane_starts << (13 * suit) for suit in range(4))
            if rules.ace in ("high", "both"):
                top = 1 | sum(1 << (13 - i) for i in range(1, length))  # the ace and the ranks below it
        return (length, starts, top, rules.set_min if rules.sets else 0, excluded)

    def _meldable(self, mask: int, prune: tuple[int, int, int, int, int] | None = None) -> int:
        """Every card of ``mask`` that belongs to at least one meld of the rules within ``mask`` (by the pruning
        table, or ``prune``)."""
        if prune is None:
            prune = self._prune
        assert prune is not None
        length, starts, top, set_min, excluded = prune
        mask &= ~excluded
        result = 0
        if length:
            if length == 3:  # most rules: written out, as this is asked of every hand listed
                start = mask & starts & mask >> 1 & mask >> 2
                result = start | start << 1 | start << 2
            else:
                start = mask & starts
                for i in range(1, length):
                    start &= mask >> i
                result = start
                for i in range(1, length):
                    result |= start << i
            if top:
                if mask & top == top:
                    result |= top
                lane = top << 13
                if mask & lane == lane:
                    result |= lane
                lane = top << 26
                if mask & lane == lane:
                    result |= lane
                lane = top << 39
                if mask & lane == lane:
                    result |= lane
        if set_min:
            a, b, c, d = mask & 0x1FFF, (mask >> 13) & 0x1FFF, (mask >> 26) & 0x1FFF, mask >> 39
            ranks = (a & b & (c | d)) | (c & d & (a | b)) if set_min == 3 else a & b & c & d
            if ranks:
                result |= mask & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
        return result

    def _lane_sum(self, mask: int) -> int:
        tables = self._lane_values
        return (
            tables[0][mask & 0x1FFF]
            + tables[1][(mask >> 13) & 0x1FFF]
            + tables[2][(mask >> 26) & 0x1FFF]
            + tables[3][(mask >> 39) & 0x1FFF]
        )

    def _fast_mask(self, faces: Sequence[int]) -> int | None:
        """The hand as a mask when the fast path applies (no wild card, joker or duplicate), else None."""
        mask = 0
        for face in faces:
            mask |= 1 << face
        if mask & self._slow_bits or mask.bit_count() != len(faces):
            return None
        return mask

    # -- one-deck hands as masks, straight from what a user holds -------------------------------------

    def _hand_bits_table(self) -> dict[object, int]:
        """The bit of each first-copy natural card that is not wild, keyed by the :class:`Card` and by its usual
        texts (``7H``, ``7h``, ``TC``, ``10C``, ``10c``, ``tc``): a hand of these is a fast-path mask at once.
        Anything else (another copy, a joker, a wild card, other spellings) is not a key."""
        bits: dict[object, int] = {}
        ranks, suits = "A23456789TJQK", "CDHS"
        for face in range(52):
            if face in self.rules.wild_faces or (self.pack_faces is not None and face not in self.pack_faces):
                continue
            bit = 1 << face
            bits[card_from_face(face)] = bit
            rank, suit = ranks[face % 13], suits[face // 13]
            for rank_text in (rank, "10") if rank == "T" else (rank,):
                for text in (rank_text + suit, (rank_text + suit).lower(), rank_text + suit.lower()):
                    bits[text] = bit
        return bits

    def hand_mask(self, items: Sequence[object]) -> int | None:
        """The hand ``items`` (:class:`Card` objects or card texts) as a mask of faces, when every item is a
        first-copy natural card that is not wild and no face comes twice; else None (nothing is checked
        then: the caller parses and validates the hand the long way)."""
        if not isinstance(items, (list, tuple)):
            return None
        try:
            mask: int = sum(map(self._bit_of, items))
        except (KeyError, TypeError):
            return None
        # A sum of powers of two has as many one bits as terms exactly when no two are equal.
        return mask if mask.bit_count() == len(items) else None

    def _mask_functions(self) -> tuple[Callable[[int], int], Callable[[int], tuple[int, tuple[int, ...]]]]:
        """The least deadwood of a fast-path mask, and that with its melds (:meth:`_best_mask`), with the usual
        rules (runs of three, ace low, sets of three or four, no excluded rank) unrolled: these are the calls
        a user makes for every hand."""
        best_inner = self._best_inner
        melds_of = self._melds_of
        cache = self._cache
        t0, t1, t2, t3 = self._lane_values
        prune = self._prune
        if prune is None or prune[0] != 3 or prune[2] or prune[3] != 3 or prune[4]:
            return self._mask_value, self._best_mask
        starts = prune[1]

        def deadwood(mask: int) -> int:
            start = mask & starts & (mask >> 1) & (mask >> 2)
            meldable = start | (start << 1) | (start << 2)
            a, b, c, d = mask & 0x1FFF, (mask >> 13) & 0x1FFF, (mask >> 26) & 0x1FFF, mask >> 39
            ranks = (a & b & (c | d)) | (c & d & (a | b))
            if ranks:
                meldable |= mask & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
            if not meldable:
                return t0[a] + t1[b] + t2[c] + t3[d]
            loose = mask & ~meldable
            hit = cache.get(meldable)
            value = (hit if hit is not None else best_inner(meldable)) >> 52
            value += t0[loose & 0x1FFF] + t1[(loose >> 13) & 0x1FFF]
            return value + t2[(loose >> 26) & 0x1FFF] + t3[loose >> 39]

        def best(mask: int) -> tuple[int, tuple[int, ...]]:
            start = mask & starts & (mask >> 1) & (mask >> 2)
            meldable = start | (start << 1) | (start << 2)
            a, b, c, d = mask & 0x1FFF, (mask >> 13) & 0x1FFF, (mask >> 26) & 0x1FFF, mask >> 39
            ranks = (a & b & (c | d)) | (c & d & (a | b))
            if ranks:
                meldable |= mask & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
            if not meldable:
                return (t0[a] + t1[b] + t2[c] + t3[d], ())
            loose = mask & ~meldable
            hit = cache.get(meldable)
            value = (hit if hit is not None else best_inner(meldable)) >> 52
            loose_value = t0[loose & 0x1FFF] + t1[(loose >> 13) & 0x1FFF] + t2[(loose >> 26) & 0x1FFF] + t3[loose >> 39]
            return (value + loose_value, melds_of(meldable))

        return deadwood, best

    def mask_deadwood(self, mask: int) -> int:
        """Least deadwood value of the hand ``mask`` (bit ``face`` set for each card; no wild card or joker)."""
        return self._mask_deadwood(mask)

    def _arrange_mask(self, mask: int) -> Arrangement:
        """The arrangement of the first-copy cards of ``mask``; its melds are built once per meld and shared."""
        value, melds = self._mask_best(mask)
        if not melds:
            return Arrangement((), self._cards_of(mask), value)
        built = []
        dead = mask
        by_mask = self._melds_by_mask
        for meld_mask in melds:
            meld = by_mask.get(meld_mask)
            if meld is None:
                meld = self._first_copy_meld(meld_mask)
            built.append(meld)
            dead &= ~meld_mask
        return Arrangement(tuple(built), self._cards_of(dead), value)

    def _first_copy_meld(self, meld_mask: int) -> Meld:
        """The meld of the first copies of the faces of ``meld_mask``, a mask of the meld tables. The first
        time, every meld of the tables is built (a few hundred, milliseconds): a user's first hands are then
        as quick as the rest."""
        if not self._melds_by_mask:
            for masks in self._by_low:
                for other in masks:
                    if other & self._slow_bits:
                        continue  # with a wild card: never a fast-path meld
                    found = self.meld([card_from_face(f) for f in _bits(other)])
                    if found is not None:
                        self._melds_by_mask[other] = found
        meld = self._melds_by_mask.get(meld_mask)
        if meld is None:
            meld = self._meld_from_faces([card_from_face(f) for f in _bits(meld_mask)])
            self._melds_by_mask[meld_mask] = meld
        return meld

    @staticmethod
    def _cards_of(mask: int) -> tuple[Card, ...]:
        """The first-copy cards of ``mask``, in order (clubs, diamonds, hearts, spades; ace to king), from
        eight small tables of the cards of every 7- or 6-bit piece of a suit's lane (no cache to warm)."""
        p = _PIECE_CARDS
        return (
            p[0][mask & 127]
            + p[1][(mask >> 7) & 63]
            + p[2][(mask >> 13) & 127]
            + p[3][(mask >> 20) & 63]
            + p[4][(mask >> 26) & 127]
            + p[5][(mask >> 33) & 63]
            + p[6][(mask >> 39) & 127]
            + p[7][(mask >> 46) & 63]
        )

    # -- tables --------------------------------------------------------------------------------

    def _natural_melds(self) -> Iterable[tuple[int, ...]]:
        """Every meld of distinct natural faces (no wild cards), as tuples of faces."""
        rules = self.rules
        if rules.sets:
            top = min(4, rules.set_max or 4)
            for rank in range(1, 14):
                if rank in rules.excluded_ranks:
                    continue
                faces = [_face(rank, suit) for suit in range(4)]
                for size in range(max(rules.set_min, 1), top + 1):
                    yield from itertools.combinations(faces, size)
        if rules.runs:
            lo, hi = rules.run_span
            ace_high = rules.top + 1
            for suit in range(4):
                for start in range(lo, hi + 1):
                    for end in range(start + rules.run_min - 1, hi + 1):
                        length = end - start + 1
                        if rules.run_max is not None and length > rules.run_max:
                            break
                        if start == 1 and end == ace_high:
                            break  # would use the ace twice
                        ranks = [rules.rank_at(pos) for pos in range(start, end + 1)]
                        if any(
                            (14 if r == 14 else r) in rules.excluded_ranks or (r == 14 and 1 in rules.excluded_ranks)
                            for r in ranks
                        ):
                            continue
                        yield tuple(_face(r, suit) for r in ranks)
        for special in rules.specials:
            for option in special.options:
                if JOKER_FACE not in option and len(set(option)) == len(option):
                    yield option

    def _build_tables(self) -> list[tuple[int, ...]]:
        by_low: list[list[int]] = [[] for _ in range(52)]
        seen = set()
        for faces in self._natural_melds():
            mask = 0
            for face in faces:
                mask |= 1 << face
            if mask in seen:
                continue
            seen.add(mask)
            if self.accept is not None and self.meld([card_from_face(f) for f in faces]) is None:
                continue
            by_low[min(faces)].append(mask)
        # Larger melds first: the search finds good arrangements early.
        return [tuple(sorted(masks, key=lambda m: -m.bit_count())) for masks in by_low]

    # -- validation ------------------------------------------------------------------------------

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is wild under these rules (its rank or the card itself is named wild)."""
        return card.face in self.rules.wild_faces

    def meld(
        self, cards: Sequence[Card], kind: str | None = None, stands_for: Sequence[Card | None] | None = None
    ) -> Meld | None:
        """The meld these cards form, or None. ``kind`` restricts the answer (``set``/``run``/...).

        ``stands_for`` (parallel to ``cards``) names the card a wild card stands for (``2C=5H``): in a run
        that fixes its place, in a set its suit. A wild card left unnamed fills a gap, then extends a run
        upwards, then downwards; in a set it is of the first suit the set lacks. Naming a card for a natural
        card, or one a wild card cannot be there, gives None. The game's own test (:attr:`accept`) has the
        last word.
        """
        if not isinstance(cards, (list, tuple)):
            cards = list(cards)
        faces = [card.face for card in cards]
        if len(set(faces)) != len(faces):
            return self._meld_checked(cards, kind, stands_for)  # copies of one face: their order would matter
        key = (kind, tuple(faces), tuple([-1 if m is None else m.face for m in stands_for]) if stands_for else None)
        made = self._made_by_faces
        template = made.get(key)
        if template is None:
            found = self._meld_checked(cards, kind, stands_for)
            if len(made) >= 20_000:
                made.clear()
            if found is None:
                made[key] = False
                return None
            made[key] = _layout(found, cards)
            return found
        if template is False:
            return None
        return _laid_out(template, cards)

    def _meld_checked(
        self, cards: Sequence[Card], kind: str | None, stands_for: Sequence[Card | None] | None
    ) -> Meld | None:
        """:meth:`meld`, worked out: the rules' check, then the game's own test."""
        found = self._rules_meld(cards, kind, stands_for)
        if found is None or self.accept is None or self.accept(found):
            return found
        if self._declared(found):
            self._distrust(found)
        if found.kind == "set" and found.wilds:
            # The game refuses the suits the wild cards took by default: other suits may do; else a run may.
            other = self._accepted_set(cards, stands_for)
            if other is not None or kind == "set":
                return other
            run = self._rules_meld(cards, "run", stands_for)
            return run if run is not None and self.accept(run) else None
        if found.kind == "run" and found.wilds and not (stands_for and any(stands_for)):
            # The game refuses where the wild cards went by default: another place may do (placements
            # lists only those the game accepts).
            others = self.placements(found)[1:]
            return others[0] if others else None
        return None

    def _declared(self, refused: Meld) -> bool:
        """Whether :attr:`MeldRules.accept_faces` said the game's test accepts ``refused`` (no wild card in it
        stands for a face named), while the listing still trusts it."""
        looked_at = self.rules.accept_faces
        if looked_at is None or self.rules.accept is not self.accept or not any(self._placed_by_rules):
            return False
        wild = self.rules.wild_faces
        return not any(c.face in wild and f in looked_at for c, f in zip(refused.cards, refused.faces))

    def _distrust(self, refused: Meld) -> None:
        """The game's test refused a meld its declaration said it accepts: from now on every placement of
        every run is listed, as without a declaration (the listing's order depended on it)."""
        warn_outside(  # at the line that asked for the meld
            __name__,
            f"the game's own meld test refused {refused}, though MeldRules.accept_faces "
            f"({' '.join(str(card_from_face(f)) for f in sorted(self.rules.accept_faces or ()))}) says it accepts "
            "every meld with no wild card standing for one of those faces: name every face whose stand-ins it "
            "looks at, or none (accept_faces None). Until then listings may be out of order; this search now "
            "lists as if none were named.",
            RuntimeWarning,
        )
        self._placed_by_rules = (False, False, False, False)
        self._last_first = None

    def _accepted_set(self, cards: Sequence[Card], stands_for: Sequence[Card | None] | None) -> Meld | None:
        """The set of ``cards`` with other suits for the wild cards not named, the first the game accepts."""
        assert self.accept is not None
        wild_faces = self.rules.wild_faces
        free = [i for i, c in enumerate(cards) if c.face in wild_faces and not (stands_for and stands_for[i])]
        rank = next(c.rank for c in cards if c.face not in wild_faces)
        for suits in itertools.islice(itertools.product(range(4), repeat=len(free)), 256):
            named: list[Card | None] = list(stands_for) if stands_for else [None] * len(cards)
            for i, suit in zip(free, suits):
                named[i] = card_from_face(suit * 13 + rank - 1)
            other = self._rules_meld(cards, "set", named)
            if other is not None and self.accept(other):
                return other
        return None

    def _rules_meld(
        self, cards: Sequence[Card], kind: str | None, stands_for: Sequence[Card | None] | None = None
    ) -> Meld | None:
        cards = list(cards)
        if not cards:
            return None
        rules = self.rules
        named: dict[int, int] = {}  # id of a wild card -> face it stands for
        if stands_for:
            if len(stands_for) != len(cards):
                return None
            for card, meant in zip(cards, stands_for):
                if meant is None:
                    continue
                if card.face not in rules.wild_faces or meant.is_joker:
                    if meant.face != card.face:
                        return None
                    continue
                named[card.id] = meant.face
        if rules.specials:
            sorted_faces = tuple(sorted([c.face for c in cards]))
            for special in rules.specials:
                if (kind is None or kind == special.name) and sorted_faces in special.options:
                    if named:
                        return None
                    ordered = tuple(sorted(cards, key=_ORDER))
                    return Meld(special.name, ordered, tuple([c.rank for c in ordered]))
        wild_faces = rules.wild_faces
        wild = [c for c in cards if c.face in wild_faces]
        natural = [c for c in cards if c.face not in wild_faces]
        if not natural:
            if any(named[c.id] != c.face for c in wild if c.id in named):
                return None
            if (
                kind in (None, "wild-set")
                and rules.wild_sets
                and len({c.rank for c in wild}) == 1
                and self._set_size_ok(len(wild))
            ):
                return Meld("wild-set", tuple(sorted(wild, key=_ORDER)), tuple(c.rank for c in wild), None, 0)
            return None
        if rules.max_wilds is not None and len(wild) > rules.max_wilds:
            return None
        excluded = rules.excluded_ranks
        jokers = 0
        for card in natural:  # (one loop: every meld the listing makes comes here)
            if card.rank in excluded:
                return None
            if card.face == JOKER_FACE:
                jokers += 1
        if jokers == len(natural):
            if kind in (None, "joker-set") and rules.joker_sets and not wild and self._set_size_ok(len(natural)):
                return Meld("joker-set", tuple(natural), (0,) * len(natural))
            return None
        if jokers:
            return None
        found = None
        if kind in (None, "set") and rules.sets:
            found = self._as_set(natural, wild, named)
        if found is None and kind in (None, "run") and rules.runs:
            found = self._as_run(natural, wild, named)
        return found

    def _set_size_ok(self, size: int) -> bool:
        return size >= self.rules.set_min and (self.rules.set_max is None or size <= self.rules.set_max)

    def _as_set(self, natural: list[Card], wild: list[Card], named: dict[int, int]) -> Meld | None:
        rank = natural[0].rank
        for card in natural:
            if card.rank != rank:
                return None
        if not self._set_size_ok(len(natural) + len(wild)):
            return None
        suits = [c.suit for c in natural]
        wild = sorted(wild, key=_ORDER) if len(wild) > 1 else list(wild)
        # Each wild card's suit, in the order of ``wild``: a named one keeps its own (a wild card on the table
        # keeps what it stands for, whichever sorts first), the others take the suits still lacking.
        wild_suits: list[int] = []
        for card in wild:
            face = named.get(card.id)
            if face is not None:
                if face == JOKER_FACE or face % 13 + 1 != rank:
                    return None
                suits.append(face // 13)
                wild_suits.append(face // 13)
            else:
                wild_suits.append(-1)
        for i, suit in enumerate(wild_suits):
            if suit < 0:
                missing = [s for s in range(4) if s not in suits]
                wild_suits[i] = missing[0] if missing else 0
                suits.append(wild_suits[i])
        if self.rules.set_distinct_suits and len(set(suits)) != len(suits):
            return None
        natural = sorted(natural, key=_ORDER)
        ordered = tuple(natural + wild)
        represents = tuple([c.face for c in natural] + [_face(rank, s) for s in wild_suits])
        return Meld("set", ordered, (rank,) * len(ordered), None, len(wild), represents)

    def _as_run(
        self, natural: list[Card], wild: list[Card], named: dict[int, int], up: int | None = None
    ) -> Meld | None:
        """The run of these cards; ``up``, when given, is how many unnamed spare wild cards go above the
        natural cards (the rest go below); by default as many as fit."""
        rules = self.rules
        suit = natural[0].suit
        if any(c.suit != suit for c in natural):
            return None
        size = len(natural) + len(wild)
        if size < rules.run_min or (rules.run_max is not None and size > rules.run_max):
            return None
        fixed = [c for c in wild if c.id in named]
        free = sorted([c for c in wild if c.id not in named], key=_ORDER)
        if any(named[c.id] == JOKER_FACE or named[c.id] // 13 != suit for c in fixed):
            return None
        aces = [c for c in natural if c.rank == 1] + [c for c in fixed if named[c.id] % 13 == 0]
        others = [(c.rank, c) for c in natural if c.rank != 1]
        others += [(named[c.id] % 13 + 1, c) for c in fixed if named[c.id] % 13 != 0]
        if not rules._usual:
            others = [(rules.position(rank), c) for rank, c in others]
            if any(not pos for pos, _ in others):
                return None  # a rank outside the run order
        if len(aces) > 1:
            return None
        ace_positions = rules.positions(1) if aces else (0,)
        for ace_pos in sorted(ace_positions, reverse=True):
            placed = others + ([(ace_pos, aces[0])] if aces else [])
            placed.sort(key=lambda pc: pc[0])
            ranks = [p for p, _ in placed]
            if len(set(ranks)) != len(ranks):
                continue
            low, high = ranks[0], ranks[-1]
            bounds = self._run_bounds(low, high)
            if bounds is None:
                continue
            lo_bound, hi_bound = bounds
            gaps = (high - low + 1) - len(ranks)
            spare = len(free) - gaps
            if spare < 0:
                continue
            # Spare wild cards extend the run upwards first, then downwards, unless told otherwise.
            above = min(spare, hi_bound - high) if up is None else up
            down = spare - above
            if above < 0 or down < 0 or high + above > hi_bound or low - down < lo_bound:
                continue
            start, end = low - down, high + above
            if start == 1 and end == rules.top + 1:
                continue  # a run holds one ace: A-2-...-K-A would need a second (natural or wild)
            by_pos = dict(placed)
            wild_iter = iter(free)
            ordered: list[Card] = []
            for pos in range(start, end + 1):
                ordered.append(by_pos[pos] if pos in by_pos else next(wild_iter))
            ranks_of = range(start, end + 1) if rules.usual_order else [rules.rank_at(p) for p in range(start, end + 1)]
            return Meld("run", tuple(ordered), tuple(ranks_of), suit, len(wild))
        return None

    def placements(self, meld: Meld) -> list[Meld]:
        """Every distinct way the wild cards of ``meld`` may stand (``6H 7H 2C``: 5-6-7 and 6-7-8), ``meld``'s own
        first. A run's spare wild cards may go on either end; a set's wild cards stand for its rank, and
        their suit is left as it is (any suit may be named when melding)."""
        if meld.kind != "run" or not meld.wilds:
            return [meld]
        known = self._placements.get(id(meld))  # a hand's melds are listed again turn after turn
        if known is not None and known[0] is meld:
            return list(known[1])
        cards = meld.cards
        # Another run of the same faces in the same places (other copies, a new object) has the same placements,
        # their cards in the same places: kept by the faces (and the copies' order, where a face repeats).
        faces = tuple([c.face for c in cards])
        copies = tuple([c.copy for c in cards]) if len(set(faces)) != len(faces) else None
        key = (faces, meld.ranks, meld.suit, copies)
        by_faces = self._placements_by_faces
        shapes = by_faces.get(key)
        if shapes is None:
            wild_faces = self.rules.wild_faces
            natural = [c for c in cards if c.face not in wild_faces]
            wild = [c for c in cards if c.face in wild_faces]
            shapes = []
            for up in range(len(wild) + 1):
                other = self._as_run(natural, wild, {}, up)
                if other is not None and other.ranks != meld.ranks:
                    if self.accept is None or self.accept(other):
                        shapes.append(_layout(other, cards))
            if len(by_faces) >= 20_000:
                by_faces.clear()
            by_faces[key] = shapes
        found = [meld]
        for shape in shapes:
            found.append(_laid_out(shape, cards))
        if len(self._placements) >= 4096:
            self._placements.clear()
        self._placements[id(meld)] = (meld, tuple(found))  # the meld is kept with them: its id is not reused
        return found

    def _run_bounds(self, low: int, high: int) -> tuple[int, int] | None:
        """The lowest and highest positions a run over positions ``low``..``high`` may reach: the ace rule's
        bounds, cut short by excluded ranks (which not even a wild card may stand for). None when an
        excluded rank lies between ``low`` and ``high``."""
        rules = self.rules
        lo_bound, hi_bound = rules.run_span
        for rank in rules.excluded_ranks:
            for pos in (1, rules.top + 1) if rank == 1 else (rules.position(rank),):
                if not pos:
                    continue
                if low <= pos <= high:
                    return None
                if pos < low:
                    lo_bound = max(lo_bound, pos + 1)
                else:
                    hi_bound = min(hi_bound, pos - 1)
        return lo_bound, hi_bound

    def extend(self, meld: Meld, cards: Sequence[Card], stands_for: Sequence[Card | None] | None = None) -> Meld | None:
        """``meld`` with ``cards`` added (a lay-off), or None if the result is not a meld of the same kind.

        Special melds are never extended. A run stays in its suit, and every wild card already in ``meld``
        keeps what it stands for. ``stands_for`` names what the added wild cards stand for (see :meth:`meld`).
        """
        if len(cards) == 1 and not stands_for:
            # One natural card on a set or run (every lay-off tried while listing actions), decided here as the
            # checks below would decide it. Wild cards on the table keep what they stand for, so they count as
            # the natural cards they stand for.
            card = cards[0]
            kind = meld.kind
            if card.face not in self.rules.wild_faces and card.rank not in self.rules.excluded_ranks:
                if kind == "run" and card.suit != meld.suit:
                    return None
                if kind == "set" or (kind == "run" and not self._ace_may_move(meld, card.rank)):
                    if kind == "set" and card.rank != meld.ranks[0]:
                        return None
                    grown = self._extend_natural(meld, card)
                    # Every card of the meld keeps its place: the game's test takes it or nothing. A refusal of a
                    # meld with wild cards goes to the general check: it refuses it too, and warns when the test
                    # contradicts what MeldRules.accept_faces says it looks at.
                    accept = self.accept
                    if grown is None or accept is None or accept(grown):
                        return grown
                    if not meld.wilds:
                        return None
                    return self._extend_general(meld, cards, stands_for)
        if meld.kind not in ("set", "run", "wild-set", "joker-set"):
            return None
        # Quick refusals (same answers as the full check below, which is costly): lay-offs are listed
        # for every table meld and every card in hand.
        wild = self.rules.wild_faces
        most = self.rules.max_wilds
        if (
            most is not None
            and meld.kind in ("set", "run")
            and not self.rules.specials
            and meld.wilds + sum(1 for c in cards if c.face in wild) > most
        ):
            return None  # a set or run takes at most max_wilds wild cards (Skarney: one)
        if len(cards) == 1 and cards[0].face not in wild and meld.kind == "run" and not meld.wilds:
            # One natural card goes on an end of a run without wild cards, or nowhere.
            position = self.rules._order_tables[0]
            low, high = position[meld.ranks[0]] - 1, position[meld.ranks[-1]] + 1
            if not any(pos == low or pos == high for pos in self.rules.positions(cards[0].rank)):
                return None
        if meld.kind == "set" and any(c.face not in wild and c.rank != meld.ranks[0] for c in cards):
            return None
        if meld.kind == "run" and any(c.face not in wild and c.suit != meld.suit for c in cards):
            return None
        if meld.kind == "joker-set" and any(not c.is_joker for c in cards):
            return None
        if len(cards) == 1 and meld.kind == "run" and stands_for and len(stands_for) == 1 and cards[0].face in wild:
            # One wild card on a run, named as a card of its suit (every wild lay-off listed): placed as that
            # card would be, when the quick path decides as the general check would (a refusal by the game's
            # test goes to the general check, as above).
            meant = stands_for[0]
            if (
                meant is not None
                and meant.face not in wild
                and not meant.is_joker
                and meant.suit == meld.suit
                and meant.rank not in self.rules.excluded_ranks
                and not self.rules.specials
                and not self._ace_may_move(meld, meant.rank)
            ):
                grown = self._extend_natural(meld, meant, cards[0])
                if grown is None or self.accept is None or self.accept(grown):
                    return grown
        return self._extend_general(meld, cards, stands_for)

    def _ace_may_move(self, meld: Meld, rank: int) -> bool:
        """Whether a card of ``rank`` on the run ``meld`` may move its ace: A-..-Q with a K under ``ace: both``,
        where the ace may go to the top. The quick lay-offs leave that to the general check."""
        return rank == self._top_rank and meld.ranks[0] == 1 and meld.ranks[-1] == self._below_top_rank

    def _extend_natural(self, meld: Meld, card: Card, laid: Card | None = None) -> Meld | None:
        """:meth:`extend` of a set or a run by one natural card of its rank (set) or suit (run), before the
        game's own test: the answer the general check gives (``tests/test_melds.py`` compares them), built
        directly (lay-offs are tried for every table meld each turn). The meld's wild cards keep what they
        stand for: in a run its place, in a set its suit. ``laid``, a wild card (runs only), goes on a run in
        ``card``'s place instead. Special melds do not matter: the general check asks for a meld of the table
        meld's own kind."""
        rules = self.rules
        size = len(meld.cards) + 1
        if meld.kind == "set":
            if not rules.sets or not self._set_size_ok(size):
                return None
            if meld.wilds:
                return self._extend_wild_set(meld, card)
            if rules.set_distinct_suits and any(c.suit == card.suit for c in meld.cards):
                return None
            ordered = tuple(sorted(meld.cards + (card,), key=_ORDER))
            return Meld("set", ordered, (card.rank,) * size, None, 0, tuple(c.face for c in ordered))
        if not rules.runs or (rules.run_max is not None and size > rules.run_max):
            return None
        position, rank_at, _ = rules._order_tables
        low, high = position[meld.ranks[0]], position[meld.ranks[-1]]
        if card.rank == 1 and (low == 1 or high == position[14]):
            return None  # a run holds one ace
        placed, wilds = (card, meld.wilds) if laid is None else (laid, meld.wilds + 1)
        # The card's places, highest first (an ace: 14 before 1), as the general check tries them.
        for pos in sorted(rules.positions(card.rank), reverse=True):
            rank = rank_at[pos]
            if pos == high + 1:
                cards, ranks, new_low, new_high = meld.cards + (placed,), meld.ranks + (rank,), low, pos
            elif pos == low - 1:
                cards, ranks, new_low, new_high = (placed,) + meld.cards, (rank,) + meld.ranks, pos, high
            else:
                continue
            bounds = self._run_bounds(new_low, new_high)
            if bounds is None or new_low < bounds[0] or new_high > bounds[1]:
                continue
            return Meld("run", cards, ranks, meld.suit, wilds)
        return None

    def _extend_wild_set(self, meld: Meld, card: Card) -> Meld | None:
        """:meth:`_extend_natural` of a set holding wild cards: :meth:`_as_set` with each wild card named as the
        card it stood for."""
        wild_faces = self.rules.wild_faces
        natural = [card]
        wild: list[Card] = []
        named: dict[int, int] = {}
        for held, face in zip(meld.cards, meld.faces):
            if held.face in wild_faces:
                wild.append(held)
                named[held.id] = face
            elif held.is_joker:
                return None  # a joker that is not wild melds only with jokers
            else:
                natural.append(held)
        if self.rules.max_wilds is not None and len(wild) > self.rules.max_wilds:
            return None
        return self._as_set(natural, wild, named)

    def _extend_general(
        self, meld: Meld, cards: Sequence[Card], stands_for: Sequence[Card | None] | None = None
    ) -> Meld | None:
        """:meth:`extend` past its quick refusals: the meld of the cards together, checked whole."""
        wild = self.rules.wild_faces
        # A wild card on the table keeps what it stands for: laying off the natural card it stands for is
        # refused (taking a wild card back is an exchange, which games offer as their own action).
        held: list[Card | None] = [
            card_from_face(f) if c.face in wild and meld.kind in ("set", "run") else None
            for c, f in zip(meld.cards, meld.faces)
        ]
        meant: list[Card | None] = list(stands_for) if stands_for else [None] * len(cards)
        grown = self.meld(list(meld.cards) + list(cards), kind=meld.kind, stands_for=held + meant)
        if grown is None or (meld.kind == "run" and grown.suit != meld.suit):
            return None
        if meld.kind == "set" and meld.ranks and grown.ranks[0] != meld.ranks[0]:
            return None
        return grown

    def melds_containing(self, card: Card, others: Sequence[Card], limit: int | None = None) -> list[Meld]:
        """Every valid meld that uses ``card`` itself plus cards from ``others`` (largest first, at most
        ``limit``). Only the cards that could meld with ``card`` are searched, so this stays cheap when
        ``others`` is large."""
        wild = self.rules.wild_faces
        if card.face in wild or self.rules.specials:
            pool = [c for c in others if c is not card]
        elif not wild or card.is_joker:  # no wild card: the tables answer as fast; a joker melds with jokers only
            pool = [
                c for c in others if c is not card and (c.rank == card.rank or c.suit == card.suit or c.face in wild)
            ]
        else:
            reach = self._meld_reach(card, others)
            if reach is None:
                return []
            pool = reach
        cards = pool + [card]
        fast = self._candidate_melds_fast(cards)
        if fast is not None:
            return self._holding(card, fast, limit)
        if self._makes_no_meld(cards):
            return []
        if limit is not None and self._lazy(cards, _LAZY_POOL_FROM):
            try:
                return self._holding(card, self._ordered_melds(cards, card.face), limit)
            except _OutOfOrder:  # see _first_melds: the whole walk decides
                pass
        # Only the melds holding a card of its face are walked (another copy's then swapped for it); with special
        # melds, every meld (they need not follow ranks and suits).
        held = None if self.rules.specials or (card.is_joker and card.face not in wild) else card.face
        return self._holding(card, self._candidate_melds_general(cards, holding=held), limit)

    def _meld_reach(self, card: Card, others: Sequence[Card]) -> list[Card] | None:
        """The cards of ``others`` that a meld holding the natural ``card`` might hold, in their order, or None
        when no meld can hold it (too few cards of its rank for a set, of its suit within reach for a run:
        positions reachable from its own across at most as many gaps as its wild cards may fill). Without
        wild cards, every card of its rank or suit (the meld tables search them at a cost that barely
        follows them); with some, the wild cards, its rank's cards if a set may hold it, and its suit's
        within reach if a run may. Every meld holding ``card`` (or another copy of it, in its place) is made
        of these, so a search of them finds the same melds as a search of all ``others``."""
        rules = self.rules
        wild = rules.wild_faces
        rank, suit = card.rank, card.suit
        if rank in rules.excluded_ranks:
            return None
        pool = [c for c in others if c is not card and (c.rank == rank or c.suit == suit or c.face in wild)]
        wilds = 0
        same_rank = 0
        suited = 0  # the faces of ``card``'s suit held (bits), wild ones left out
        for other in pool:
            face = other.face
            if face in wild:
                wilds += 1
            elif other.rank == rank:
                same_rank += 1
            else:
                suited |= 1 << face
        room = wilds if rules.max_wilds is None else min(wilds, rules.max_wilds)
        sets = rules.sets and same_rank + 1 + room >= rules.set_min
        if sets and not wilds:
            return pool  # without wild cards: as below
        reached = 0  # the faces of ``card``'s suit a run holding it may reach
        paths = self._run_paths[card.face]
        if suited | room:
            for path in paths:
                gaps = 0
                for bit in path:
                    if suited & bit:
                        reached |= bit
                    else:
                        gaps += 1
                        if gaps > room:
                            break
        runs = bool(paths) and reached.bit_count() + 1 + room >= rules.run_min
        if not sets and not runs:
            return None
        if not wilds or (sets and runs and reached == suited):
            return pool  # without wild cards the meld tables search them, at a cost that barely follows them
        allowed = self._wild_bits | (_RANK_BITS[rank - 1] if sets else 0) | (reached if runs else 0)
        return [c for c in pool if allowed >> c.face & 1]

    def _holding(self, card: Card, melds: Iterable[Meld], limit: int | None) -> list[Meld]:
        """The first ``limit`` of ``melds`` that hold ``card`` itself, or another copy of it (then swapped)."""
        found: list[Meld] = []
        for meld in melds:
            if limit is not None and len(found) >= limit:
                break
            if card in meld.cards:
                found.append(meld)
                continue
            twin = next((c for c in meld.cards if c.face == card.face), None)
            if twin is None:
                continue
            # The search took another copy of the same card: use this one instead (same meld).
            swapped = self.meld([card if c is twin else c for c in meld.cards], kind=meld.kind)
            if swapped is not None:
                found.append(swapped)
        return found

    def can_meld(self, card: Card, others: Sequence[Card]) -> bool:
        """Whether some valid meld uses ``card`` plus cards from ``others`` (fast for natural cards)."""
        rules = self.rules
        if rules.wild_faces or rules.specials or self.accept is not None:
            return bool(self.melds_containing(card, others, limit=1))
        counts = [0] * (JOKER_FACE + 1)
        for other in others:
            if other is not card:
                counts[other.face] += 1
        return self.can_meld_counts(card, counts)

    def can_meld_counts(self, card: Card, counts: Sequence[int]) -> bool:
        """:meth:`can_meld` with the other cards given as a count per face (53 entries; ``card`` itself not
        counted), for rules without wild cards, special melds or a game's own test: callers that try many cards
        against a growing set of others (the pile draws of 500 Rum) keep the counts up to date instead of a list."""
        rules = self.rules
        if rules.wild_faces or rules.specials or self.accept is not None:
            raise ValueError(
                "can_meld_counts is for rules without wild cards, special melds or a game's own test: use can_meld"
            )
        if card.is_joker:
            jokers = 1 + counts[JOKER_FACE]
            return rules.joker_sets and jokers >= rules.set_min and self._set_size_ok(rules.set_min)
        if card.rank in rules.excluded_ranks:
            return False
        rank, suit = card.rank, card.suit
        if rules.sets and self._set_size_ok(rules.set_min):
            if rules.set_distinct_suits:
                count = sum(1 for s in range(4) if s != suit and counts[s * 13 + rank - 1])
            else:
                count = counts[rank - 1] + counts[13 + rank - 1] + counts[26 + rank - 1] + counts[39 + rank - 1]
            if count + 1 >= rules.set_min:
                return True
        if rules.runs and (rules.run_max is None or rules.run_max >= rules.run_min):
            lo_bound, hi_bound = rules.run_span
            excluded = rules.excluded_ranks
            base = suit * 13 - 1  # counts[base + rank] for ranks 1..13; the high ace is rank 1
            rank_at, ace_high = rules._order_tables[1], rules.top + 1
            # A position is held when a card of its rank is (the bounds leave out an ace's other position).
            for pos in rules.positions(card.rank):
                if not lo_bound <= pos <= hi_bound:
                    continue
                low = pos
                while low - 1 >= lo_bound and counts[base + rank_at[low - 1]] and rank_at[low - 1] not in excluded:
                    low -= 1
                high = pos
                while high + 1 <= hi_bound:
                    rank = 1 if high + 1 == ace_high else rank_at[high + 1]
                    if not counts[base + rank] or rank in excluded:
                        break
                    high += 1
                # A run holds one ace: reaching both of an ace's places (order A 2 3, ace both) counts one.
                if high - low + 1 - (low == 1 and high == ace_high) >= rules.run_min:
                    return True
        return False

    # -- search ------------------------------------------------------------------------------------

    def arrange(self, cards: Sequence[Card]) -> Arrangement:
        """The arrangement of ``cards`` with the least deadwood value."""
        mask = self.hand_mask(cards)
        if mask is not None:
            return self._arrange_mask(mask)
        mask = self._fast_mask([c.face for c in cards])
        if mask is not None:
            value, melds = self._best_mask(mask)
            by_face = {c.face: c for c in cards}
            built = tuple(self._meld_from_faces([by_face[f] for f in _bits(m)]) for m in melds)
            used = 0
            for m in melds:
                used |= m
            dead = tuple(sorted([c for c in cards if not (used >> c.face) & 1], key=_ORDER))
            return Arrangement(built, dead, value)
        return self._arrange_general(cards)

    def deadwood(self, cards: Sequence[Card]) -> int:
        """Least deadwood value of ``cards`` (faster than :meth:`arrange` when only the number is wanted)."""
        mask = self.hand_mask(cards)
        if mask is not None:
            return self._mask_deadwood(mask)
        mask = self._fast_mask([c.face for c in cards])
        if mask is not None:
            return self._mask_value(mask)
        if self._solver is not None and self.accept is None:
            # The solver's least deadwood is the answer (only a game's own meld test may refuse its melds).
            return self._solver.solve(*self._solver_input(cards))[0]
        return self._arrange_general(cards).deadwood_value

    def _meld_from_faces(self, cards: list[Card]) -> Meld:
        found = self.meld(cards)
        if found is None:  # pragma: no cover - tables only hold valid melds
            raise AssertionError(f"table meld {cards} is not valid")
        return found

    def _best_mask(self, mask: int) -> tuple[int, tuple[int, ...]]:
        """Least deadwood of a fast-path hand: cards in no meld are counted at once, the rest searched."""
        if self._prune is None:
            return (self._best_inner(mask) >> 52, self._melds_of(mask))
        meldable = self._meldable(mask)
        loose = self._lane_sum(mask & ~meldable)
        if not meldable:
            return (loose, ())
        return ((self._best_inner(meldable) >> 52) + loose, self._melds_of(meldable))

    def _mask_value(self, mask: int) -> int:
        """:meth:`_best_mask`'s deadwood alone (its melds are not followed back)."""
        if self._prune is None:
            return self._best_inner(mask) >> 52
        meldable = self._meldable(mask)
        loose = self._lane_sum(mask & ~meldable)
        return (self._best_inner(meldable) >> 52) + loose if meldable else loose

    def _best_inner(self, mask: int) -> int:
        """The least deadwood of ``mask`` shifted left 52 bits, or'ed with the meld its lowest card goes into
        (a mask of the tables; 0: the card is left loose). :meth:`_melds_of` follows these melds back."""
        cache = self._cache
        hit = cache.get(mask)
        if hit is not None:
            return hit
        if len(cache) > self.cache_limit:
            cache.clear()
        result = self._search_mask(mask)
        cache[mask] = result
        return result

    def _search_mask(self, mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        face = low.bit_length() - 1
        best = (self._best_inner(mask ^ low) >> 52) + self.values[face]
        choice = 0
        for meld in self._by_low[face]:
            if meld & mask == meld:
                value = self._best_inner(mask ^ meld) >> 52
                if value < best:
                    best, choice = value, meld
                    if value == 0:
                        break
        return best << 52 | choice

    def _melds_of(self, mask: int) -> tuple[int, ...]:
        """The melds of the best arrangement of ``mask`` found by :meth:`_best_inner`, lowest card first."""
        melds = []
        cache = self._cache
        while mask:
            hit = cache.get(mask)
            meld = (hit if hit is not None else self._best_inner(mask)) & _MELD_MASK
            if meld:
                melds.append(meld)
                mask ^= meld
            else:
                mask ^= mask & -mask
        return tuple(melds)

    def discard_deadwoods(self, cards: Sequence[Card]) -> list[int]:
        """For each card of ``cards``, the least deadwood of the others (the hand after discarding it)."""
        faces = [c.face for c in cards]
        mask = self._fast_mask(faces)
        if mask is not None:
            best = self._discard_faces(faces, mask, mask if self._prune is None else self._meldable(mask))
            return [best[face] for face in faces]
        return [self.deadwood([c for j, c in enumerate(cards) if j != i]) for i in range(len(cards))]

    def discard_deadwoods_within(self, cards: Sequence[Card], limit: int) -> list[int] | None:
        """:meth:`discard_deadwoods`, or None when no discard can leave ``limit`` or less.

        Decided first from a bound that needs no search: after any discard the cards in no meld still
        count, less at most the dearest of them, so most hands are settled without searching.
        """
        faces = [c.face for c in cards]
        mask = self._fast_mask(faces) if self._prune is not None else None
        if mask is not None:
            meldable = self._meldable(mask)
            loose = mask & ~meldable
            tables = self._lane_max
            dearest = max(
                tables[0][loose & 0x1FFF],
                tables[1][(loose >> 13) & 0x1FFF],
                tables[2][(loose >> 26) & 0x1FFF],
                tables[3][(loose >> 39) & 0x1FFF],
            )
            if self._lane_sum(loose) - dearest > limit:
                return None
            best = self._discard_faces(faces, mask, meldable)
            return [best[face] for face in faces]
        return self.discard_deadwoods(cards)

    def _discard_faces(self, faces: list[int], mask: int, meldable: int) -> dict[int, int]:
        """Fast path of :meth:`discard_deadwoods`: one walk over every set of disjoint melds in the hand.

        The best hand after discarding ``f`` is an arrangement of the whole hand that leaves ``f`` out of
        its melds (every sub-meld is in the tables), so each arrangement updates every card it leaves out.
        A card in no meld at all is deadwood in every arrangement: discarding it saves exactly its value.
        """
        values = self.values
        total = self._lane_sum(mask)
        if not meldable:
            return {face: total - values[face] for face in faces}
        in_melds = [f for f in faces if (meldable >> f) & 1]
        by_low = self._by_low
        melds = [m for f in in_melds for m in by_low[f] if m & meldable == m]
        meld_values = [self._lane_sum(m) for m in melds]
        best = {face: total for face in in_melds}
        least = total
        count = len(melds)
        # A walk by a stack of its own, not a nested function that calls itself: that would be a cycle only the
        # garbage collector frees (in the compiled build too), and the search bot pauses it while it decides.
        # The order it goes in does not matter: only the least values are kept.
        stack = [(0, 0, total)]
        while stack:
            start, used, deadwood = stack.pop()
            if deadwood < least:
                least = deadwood
            for face in in_melds:
                if not (used >> face) & 1:
                    left = deadwood - values[face]
                    if left < best[face]:
                        best[face] = left
            for j in range(start, count):
                meld = melds[j]
                if not meld & used:
                    stack.append((j + 1, used | meld, deadwood - meld_values[j]))
        for face in faces:
            if not (meldable >> face) & 1:
                best[face] = least - values[face]
        return best

    def arrangements(self, cards: Sequence[Card], max_deadwood: int) -> list[Arrangement]:
        """Every arrangement (any set of disjoint melds, not only the best) with deadwood value at most
        ``max_deadwood``. Used to choose how a knocker spreads."""
        melds = self.candidate_melds(cards)
        total = sum(self.values[c.face] for c in cards)
        found: list[Arrangement] = []
        # Candidate melds are listed once per combination of faces; with several copies of a card, the
        # walk counts faces (a meld may even be chosen twice) and hands out the copies at the end.
        by_face: dict[int, list[Card]] = {}
        for card in cards:
            by_face.setdefault(card.face, []).append(card)
        needs = [Counter(c.face for c in meld.cards) for meld in melds]
        meld_values = [sum(self.values[c.face] for c in meld.cards) for meld in melds]
        taken: Counter[int] = Counter()
        chosen: list[int] = []
        # A depth-first walk by a stack of its own (see _discard_faces: no nested function calling itself), in
        # the order a recursive one takes: each set of melds is recorded as it is reached, then grown by the
        # melds from its last one on. A frame is [the next meld to try, the value melded]; each frame but the
        # first was reached by the meld last in ``chosen``.
        if total <= max_deadwood:
            found.append(self._spread(melds, chosen, by_face, cards, total))
        frames = [[0, 0]]
        while frames:
            frame = frames[-1]
            i = frame[0]
            while i < len(melds) and not all(taken[face] + n <= len(by_face[face]) for face, n in needs[i].items()):
                i += 1
            if i == len(melds):
                frames.pop()
                if frames:
                    taken.subtract(needs[chosen.pop()])
                continue
            frame[0] = i + 1
            taken.update(needs[i])
            chosen.append(i)
            melded_value = frame[1] + meld_values[i]
            if total - melded_value <= max_deadwood:
                found.append(self._spread(melds, chosen, by_face, cards, total - melded_value))
            frames.append([i, melded_value])
        return found

    @staticmethod
    def _spread(
        melds: list[Meld], chosen: list[int], by_face: dict[int, list[Card]], cards: Sequence[Card], deadwood: int
    ) -> Arrangement:
        """:meth:`arrangements`' arrangement of the melds ``chosen`` (indexes into ``melds``), the copies of each
        face handed out in turn."""
        given: Counter[int] = Counter()
        built = []
        for i in chosen:
            copies = []
            for card in melds[i].cards:
                copies.append(by_face[card.face][given[card.face]])
                given[card.face] += 1
            built.append(replace(melds[i], cards=tuple(copies)))
        used = {c.id for meld in built for c in meld.cards}
        dead = tuple(c for c in cards if c.id not in used)
        return Arrangement(tuple(built), dead, deadwood)

    def candidate_melds(self, cards: Sequence[Card], limit: int | None = None) -> list[Meld]:
        """Every valid meld that can be made from ``cards`` (each physical card used once per meld), largest
        first, then by the faces as laid.

        With duplicates, melds that differ only in which copy they use are listed once. ``limit`` caps
        the count: only the first ``limit`` melds are made, so the cost follows ``limit``, not every meld
        a large hand could make.
        """
        fast = self._candidate_melds_fast(cards)
        if fast is not None:
            return fast[:limit] if limit is not None else fast
        if self._makes_no_meld(cards):
            return []
        key = tuple(sorted(c.id for c in cards))
        if limit is not None and self._lazy(cards):
            first_known = self._last_first
            if first_known is not None and first_known[0] == key and first_known[1] == limit:
                return list(first_known[2])
            first = self._first_melds(cards, limit)
            self._last_first = (key, limit, first)
            return list(first)
        last = self._last_general
        if last is not None and last[0] == key:
            found = last[1]
        else:  # the walk does not depend on the cards' order; a limit only cuts its sorted answer
            found = self._candidate_melds_general(cards)
            self._last_general = (key, found)
        return found[:limit] if limit is not None else list(found)

    def _makes_no_meld(self, cards: Sequence[Card]) -> bool:
        """Whether ``cards`` surely make no meld (the solver's quick check, under rules it handles): most of the
        small hands a turn lists have none, and the general walk takes longer to find that out."""
        if self._solver is None:
            return False
        counts, wilds, jokers = self._solver_input(cards)
        return self._solver._meldless(counts, len(wilds), jokers)

    def _solver_input(self, cards: Sequence[Card]) -> tuple[list[int], list[int], int]:
        """``cards`` as the solver takes a hand: natural cards counted by face, the wild cards' faces (sorted),
        and the jokers that are not wild."""
        wild_faces = self.rules.wild_faces
        counts = [0] * 52
        wilds: list[int] = []
        jokers = 0
        for card in cards:
            face = card.face
            if face in wild_faces:
                wilds.append(face)
            elif face == JOKER_FACE:
                jokers += 1
            else:
                counts[face] += 1
        wilds.sort()
        return counts, wilds, jokers

    def _lazy(self, cards: Sequence[Card], sizes: tuple[int, int, int] | None = None) -> bool:
        """Whether the first melds of ``cards`` are best made lazily: the whole walk costs what it finds, which
        grows exponentially with the hand, the faster the more wild cards a meld may take; the lazy walk has
        a fixed cost per size of meld. (Measured crossings: about 24 cards with several wild cards to a meld,
        32 with one, 50 without.)"""
        size = len(cards)
        if size >= _LAZY_FROM:
            return True
        wild = self.rules.wild_faces
        from_size = _LAZY_WITH_WILDS_FROM if sizes is None else sizes
        if not wild or size < min(from_size[1:]):
            return False
        held = sum(1 for c in cards if c.face in wild)
        room = held if self.rules.max_wilds is None else min(held, self.rules.max_wilds)
        return room > 0 and size >= from_size[min(room, 2)]

    def _first_melds(self, cards: Sequence[Card], limit: int, required: int | None = None) -> list[Meld]:
        """The first ``limit`` melds of :meth:`candidate_melds` (only those holding face ``required``, when
        given), made in order, largest first: see :mod:`rummykit.meldorder`."""
        try:
            return list(itertools.islice(self._ordered_melds(cards, required), limit))
        except _OutOfOrder:  # a test that moves melds elsewhere than declared (accept_faces): the whole walk decides
            found = self._candidate_melds_general(cards)
            if required is not None:
                found = [m for m in found if any(c.face == required for c in m.cards)]
            return found[:limit]

    def _ordered_melds(self, cards: Sequence[Card], required: int | None = None) -> Iterator[Meld]:
        """The melds of :meth:`candidate_melds`, in its order, made one at a time.

        Layouts (sequences of faces) come in ascending order within each size; each new multiset of faces is
        made into a meld as the walk would make it, and that meld's own faces as laid decide its place. A
        meld's faces as laid are themselves one of its layouts, reached no later than any layout after them,
        so a meld is given out as soon as the layouts pass its faces: everything smaller has been made.
        """
        by_face = _sorted_by_face(cards)
        wild = self.rules.wild_faces
        specials = [option for special in self.rules.specials for option in special.options]
        holding = meldorder.Holding(self.rules, [c.face for c in cards], required, specials, self._placed_by_rules)
        largest, smallest = meldorder.size_bounds(holding)
        seen: set[tuple[int, ...]] = set()
        for size in range(largest, smallest - 1, -1):
            pending: list[tuple[tuple[int, ...], Meld]] = []
            given: tuple[int, ...] = ()
            for layout in meldorder.layouts(holding, size):
                while pending and pending[0][0] < layout:
                    given, meld = heapq.heappop(pending)
                    yield meld
                key = tuple(sorted(layout))
                if key in seen:
                    continue
                seen.add(key)
                naturals = tuple(f for f in key if f not in wild)
                made = self._realise(naturals, tuple(f for f in key if f in wild), by_face)
                if holding.canonical != self._placed_by_rules:  # the declaration was found wrong: see _distrust
                    raise _OutOfOrder(())
                if made is None:
                    continue
                laid = tuple(c.face for c in made.cards)
                if laid < given:
                    raise _OutOfOrder(laid)
                heapq.heappush(pending, (laid, made))
            while pending:
                yield heapq.heappop(pending)[1]

    def _candidate_melds_fast(self, cards: Sequence[Card]) -> list[Meld] | None:
        """:meth:`candidate_melds` for a hand without wild cards or jokers that are wild, from the meld tables
        (every meld of the rules, the game's own test applied once): the melds within the hand's meldable
        cards, in the general search's order (two copies of a card: :meth:`_candidate_melds_copies`). None
        when the hand or the rules need the general search."""
        mask = self.hand_mask(cards)  # first copies only: the tables' own melds will do
        first_copies = mask is not None
        if mask is None:
            copies = self._candidate_melds_copies(cards)  # another deck's copies, or two of a card
            if copies is not None:
                return copies
            mask = self._fast_mask([c.face for c in cards])
        if mask is None:
            if JOKER_FACE in self.rules.wild_faces or not any(c.face == JOKER_FACE for c in cards):
                return None
            # Jokers that are not wild meld only together (Persian): the other cards' melds, and the jokers'.
            naturals = [c for c in cards if c.face != JOKER_FACE]
            found = self._candidate_melds_fast(naturals)
            if found is None:
                return None
            jokers = sorted([c for c in cards if c.face == JOKER_FACE], key=_ORDER)
            found += self._joker_melds(jokers)
            found.sort(key=lambda m: (-len(m.cards), [c.face for c in m.cards]))
            return found
        meldable = mask if self._scan_prune is None else self._meldable(mask, self._scan_prune)
        if not meldable:
            return []
        entries = self._sorted_entries(meldable)
        if first_copies:
            return [entry[1] for entry in entries]
        # another deck's copies: the same melds, of the hand's cards
        return self._with_copies(entries, {c.face: [c] for c in cards})

    def _sorted_entries(self, meldable: int) -> list[tuple[tuple[int, tuple[int, ...]], Meld]]:
        """:meth:`_table_entries` in the listing's order, kept by ``meldable``: the same few cards meld in hand
        after hand (in Fortune's random play seven times in ten). The list kept is not to be changed."""
        kept = self._entries_by_meldable
        known = kept.get(meldable)
        if known is None:
            known = self._table_entries(meldable)
            known.sort(key=_first)
            if len(kept) >= 4096:
                kept.clear()
            kept[meldable] = known
        return known

    def _table_entries(self, meldable: int) -> list[tuple[tuple[int, tuple[int, ...]], Meld]]:
        """The tables' melds within ``meldable`` (first copies), each with its place in the listing's order."""
        by_second = self._by_low_second
        entries = []
        rest = meldable
        while rest:
            low = rest & -rest
            # Most cards that may meld make no meld with the others: grouped by their second card, the melds
            # of a card not held are passed over together.
            for second, meld_masks in by_second[low.bit_length() - 1]:
                if second & meldable:
                    for meld_mask in meld_masks:
                        if meld_mask & meldable == meld_mask:
                            entries.append(self._table_meld(meld_mask))
            rest ^= low
        return entries

    def _candidate_melds_copies(self, cards: Sequence[Card]) -> list[Meld] | None:
        """:meth:`candidate_melds` for a hand of several decks without wild cards or jokers: the melds of
        distinct faces from the meld tables and the sets holding two copies of a card (by the copies of each
        rank held), each made of the lowest copies held, as the general walk makes them. None for hands and
        rules the general walk handles (special melds may repeat a face; the largest hands are listed lazily)."""
        rules = self.rules
        if rules.specials or len(cards) >= _LAZY_FROM:
            return None
        present = twice = 0  # the faces held, and those held more than once (bits)
        for card in cards:
            bit = 1 << card.face
            if present & bit:
                twice |= bit
            else:
                present |= bit
        if present & self._slow_bits:
            return None  # a wild card or a joker
        meldable = present if self._scan_prune is None else self._meldable(present, self._scan_prune)
        repeats = 0  # the ranks (bits, 0 for aces) of the faces held twice, when a set may repeat a face
        if twice and rules.sets and not rules.set_distinct_suits:
            for suit in range(4):
                repeats |= (twice >> (13 * suit)) & 0x1FFF
        if not meldable and not repeats:
            return []  # most small hands: no card of them melds
        # Only the faces a meld may take are sorted out by copy: those that meld alone and the repeated ranks'.
        wanted = meldable | repeats | repeats << 13 | repeats << 26 | repeats << 39
        by_face: dict[int, list[Card]] = {}
        for card in cards:
            face = card.face
            if wanted >> face & 1:
                held = by_face.get(face)
                if held is None:
                    by_face[face] = [card]
                else:
                    held.append(card)
        if twice & wanted:
            for held in by_face.values():
                if len(held) > 1:
                    held.sort(key=_ORDER)  # each face's copies, lowest first
        entries: list[tuple[tuple[int, tuple[int, ...]], Meld]] = []
        if meldable:
            entries = self._sorted_entries(meldable)
        if repeats:
            entries = list(entries)  # the kept list stays as it is
            while repeats:
                low = repeats & -repeats
                index = low.bit_length() - 1
                counts = tuple([len(by_face.get(f, ())) for f in range(index, 52, 13)])
                entries += self._repeated_sets(index, counts)
                repeats ^= low
            entries.sort(key=_first)
        return self._with_copies(entries, by_face)

    def _with_copies(
        self, entries: list[tuple[tuple[int, tuple[int, ...]], Meld]], by_face: dict[int, list[Card]]
    ) -> list[Meld]:
        """The melds of ``entries`` made of the hand's cards: each face's copies held (``by_face``, lowest first)
        take the places of the first copies in the meld the entry holds (a set's second copy of a face after
        its first), in the same order."""
        copied = self._copied
        found = []
        for _place, template in entries:
            laid = tuple([by_face[c.face][c.copy] for c in template.cards])
            if laid == template.cards:
                found.append(template)
                continue
            key = tuple([c.id for c in laid])  # ints: a key the garbage collector need not follow
            meld = copied.get(key)
            if meld is None:
                if len(copied) >= 4096:  # the melds of a few turns' hands
                    copied.clear()
                meld = copied[key] = Meld(
                    template.kind, laid, template.ranks, template.suit, template.wilds, template.represents
                )
            found.append(meld)
        return found

    def _repeated_sets(self, index: int, held: tuple[int, ...]) -> list[tuple[tuple[int, tuple[int, ...]], Meld]]:
        """The sets of the rank at ``index`` (0 for aces) holding a face more than once, made of the first
        copies, with their places in the listing's order, for ``held`` copies of each suit's card (kept)."""
        key = (index, held)
        found = self._repeated.get(key)
        if found is None:
            found = []
            if index + 1 not in self.rules.excluded_ranks:
                for pick in itertools.product(*[range(n + 1) for n in held]):
                    if max(pick) < 2 or not self._set_size_ok(sum(pick)):
                        continue  # a set without a repeated face is one of the tables'
                    entry = self._repeated_set(index, pick)
                    if entry is not None:
                        found.append(entry)
            self._repeated[key] = found
        return found

    def _repeated_set(self, index: int, pick: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], Meld] | None:
        """The set of ``pick`` copies of each suit's card of the rank at ``index``, first copies first, with its
        place in the listing's order; None if the rules refuse it. Made once: copies of one face make
        :meth:`meld` check the set whole."""
        key = (index, pick)
        if key in self._repeated_set_made:
            return self._repeated_set_made[key]
        made = self.meld([card_from_face(f, copy) for f, n in zip(range(index, 52, 13), pick) for copy in range(n)])
        entry = None if made is None else ((-len(made.cards), tuple([c.face for c in made.cards])), made)
        self._repeated_set_made[key] = entry
        return entry

    def _joker_melds(self, jokers: list[Card]) -> list[Meld]:
        """The sets of jokers alone (``joker_sets``) that ``jokers`` (sorted) make, as the general walk lists them."""
        rules = self.rules
        if not rules.joker_sets:
            return []
        top = len(jokers) if rules.set_max is None else min(len(jokers), rules.set_max)
        found = []
        for size in range(rules.set_min, top + 1):
            meld = self.meld(jokers[:size])
            if meld is not None:
                found.append(meld)
        return found

    def _table_meld(self, meld_mask: int) -> tuple[tuple[int, tuple[int, ...]], Meld]:
        """The meld of the first copies of the faces of ``meld_mask`` (built once), with its place in the
        order :meth:`candidate_melds` lists melds in (largest first, then by faces as laid)."""
        entry = self._table_melds.get(meld_mask)
        if entry is None:
            meld = self._melds_by_mask.get(meld_mask) or self._first_copy_meld(meld_mask)
            entry = self._table_melds[meld_mask] = ((-len(meld.cards), tuple(c.face for c in meld.cards)), meld)
        return entry

    def lays_off(self, meld: Meld, card: Card) -> bool:
        """Whether ``extend(meld, [card])`` gives a meld: for a card that is not wild, from the faces that fit
        ``meld``, found once per meld object (melds are immutable; a grown table meld is a new object)."""
        if card.face in self.rules.wild_faces:
            return self.extend(meld, [card]) is not None
        return card.face in self.layoff_faces(meld)

    def layoff_faces(self, meld: Meld) -> frozenset[int]:
        """The faces (0..52) of the cards that are not wild and that :meth:`extend` lays off alone on ``meld``."""
        fit = self._fits.get(id(meld))  # asked for every table meld at every listing: one lookup
        if fit is not None and fit[0] is meld:
            return fit[1]
        kept = self.kept(meld)
        known: frozenset[int] | None = kept.get("layoff_faces")
        if known is not None:
            self._keep_fit(meld, known)
            return known
        # Another meld of the same faces in the same places takes the same cards (the answers are the faces'):
        # a search bot's play-outs make the same melds again and again, each a new object.
        key = (meld.kind, tuple([c.face for c in meld.cards]), meld.ranks, meld.suit, meld.represents)
        by_faces = self._layoff_faces_by_faces
        known = by_faces.get(key)
        if known is not None:
            kept["layoff_faces"] = known
            self._keep_fit(meld, known)
            return known
        wild = self.rules.wild_faces
        candidates: Iterable[int]
        if meld.kind == "set" and meld.ranks:
            candidates = [_face(meld.ranks[0] if meld.ranks[0] != 14 else 1, s) for s in range(4)]
        elif meld.kind == "run" and meld.suit is not None and meld.ranks:
            # A natural card goes on either end or nowhere: every position between is taken, by a natural
            # card or by a wild card that keeps what it stands for (see extend's quick refusals).
            position, rank_at, top = self.rules._order_tables
            ends = (position[meld.ranks[0]] - 1, position[meld.ranks[-1]] + 1)
            candidates = [_face(rank_at[pos], meld.suit) for pos in ends if 1 <= pos <= top + 1]
        elif meld.kind == "joker-set":
            candidates = [JOKER_FACE]
        else:
            candidates = range(JOKER_FACE + 1)
        fits = []
        for face in candidates:
            if face in wild:
                continue
            # a copy the meld does not hold (the first copy may be in it, with two decks)
            copy = 1 + max((c.copy for c in meld.cards if c.face == face), default=-1)
            if self.extend(meld, [card_from_face(face, copy)]) is not None:
                fits.append(face)
        found = kept["layoff_faces"] = frozenset(fits)
        if len(by_faces) >= 20_000:
            by_faces.clear()
        by_faces[key] = found
        self._keep_fit(meld, found)
        return found

    def layoff_faces_each(self, melds: Iterable[Meld]) -> list[frozenset[int]]:
        """:meth:`layoff_faces` of each of ``melds``, in order: a listing asks it of every table meld."""
        fits = self._fits
        found = []
        for meld in melds:
            fit = fits.get(id(meld))
            found.append(fit[1] if fit is not None and fit[0] is meld else self.layoff_faces(meld))
        return found

    def _keep_fit(self, meld: Meld, faces: frozenset[int]) -> None:
        """Keep :meth:`layoff_faces`'s answer by the meld's id, with the meld (so that its id is not reused)."""
        if len(self._fits) >= 4096:
            self._fits.clear()
        self._fits[id(meld)] = (meld, faces)

    def wild_layoff_faces(self, meld: Meld, card: Card) -> tuple[int, ...]:
        """The faces the wild ``card`` stands for in each place :meth:`extend` lays it off on ``meld``: a run's
        top end, then its bottom end (where it is a meld); a set or another meld, the one place it takes.
        Empty where it goes nowhere. Kept with the meld, and by the meld's faces and the card's face: another
        copy of the meld, or of the wild card, takes the same places (the meld's own wild cards keep what they
        stand for, whichever copy it holds)."""
        kept = self.kept(meld)
        key = ("wild layoff", card.id)
        known: tuple[int, ...] | None = kept.get(key)
        if known is not None:
            return known
        by_faces = self._wild_layoffs_by_faces
        faces_key = (meld.kind, tuple([c.face for c in meld.cards]), meld.ranks, meld.suit, meld.represents, card.face)
        known = by_faces.get(faces_key)
        if known is None:
            options: list[Card | None] = [None]
            if meld.kind == "run" and meld.suit is not None:
                ends = (meld.ranks[-1] + 1, meld.ranks[0] - 1)
                options = [card_from_face(_face(rank, meld.suit)) for rank in ends if 1 <= rank <= 14]
            found = []
            for meant in options:
                grown = self.extend(meld, [card], [meant])
                if grown is not None:
                    found.append(grown.faces[len(grown.cards) - 1 - grown.cards[::-1].index(card)])
            known = tuple(found)
            if len(by_faces) >= 20_000:
                by_faces.clear()
            by_faces[faces_key] = known
        kept[key] = known
        return known

    def kept(self, meld: Meld) -> dict[Hashable, Any]:
        """A place to keep answers about ``meld`` under these rules (its lay-offs, its exchanges, its action), for
        as long as it is kept. Melds are immutable and a table meld stays the same object from turn to turn (a grown
        meld is a new one, the same one for the same lay-off: :func:`~rummykit.toolkit.lay_off`), so what a turn's
        listing asks of the table is found again the next turn. Callers choose keys that say what the answer is of
        (``("swap", place, card id)``)."""
        entry = self._kept.get(id(meld))
        if entry is None or entry[0] is not meld:
            if len(self._kept) > 4096:
                self._kept.clear()
            entry = self._kept[id(meld)] = (meld, {})  # the meld is kept with its answers: its id is not reused
        return entry[1]

    def _candidate_melds_general(
        self, cards: Sequence[Card], limit: int | None = None, holding: int | None = None
    ) -> list[Meld]:
        """:meth:`candidate_melds` by the general walk (wild cards, duplicates, special melds). ``holding``, a
        face (no special melds): only the melds that hold a card of that face, in the same order. For a natural
        face only the lowest cards whose melds may hold it are walked (those of its rank or suit up to it: a
        meld holds its lowest natural card and faces above it only); for a wild one, only the melds taking it."""
        by_face = _sorted_by_face(cards)
        wild_faces = self.rules.wild_faces
        seen: set[tuple[int, ...]] = set()
        result: list[Meld] = []
        # One pass over the faces (in ascending order): each natural face's count, each face's cards' ids, the
        # wild cards' faces (one per card) and ids.
        counts: dict[int, int] = {}
        ids: dict[int, tuple[int, ...]] = {}
        wild_list: list[int] = []
        wild_id_list: list[tuple[int, ...]] = []
        for face, held in by_face.items():
            held_ids = ids[face] = tuple([c.id for c in held])
            if face in wild_faces:
                wild_list += [face] * len(held)
                wild_id_list.append(held_ids)
            else:
                counts[face] = len(held)
        wilds = tuple(wild_list)
        wild_ids = tuple(wild_id_list)
        max_w = len(wilds) if self.rules.max_wilds is None else min(self.rules.max_wilds, len(wilds))
        by_low = self._by_low_melds
        skeletons = self._skeletons
        natural_held = wild_held = None  # the face ``holding`` names, as the one or the other
        if holding is not None:
            if holding in wild_faces:
                wild_held = holding
            else:
                natural_held = holding
        for low in counts:  # ascending
            if natural_held is not None and (
                low > natural_held or (low % 13 != natural_held % 13 and low // 13 != natural_held // 13)
            ):
                continue
            # The melds whose lowest natural card is ``low`` depend only on the cards they may hold: kept by
            # those cards' ids, they are found again when the hand changed elsewhere (a card or two a turn).
            reached = self._reached_ids(low, ids, max_w)
            key_low = (low, wild_ids, reached, holding)
            found = by_low.get(key_low)
            if found is None:
                # What they are made of depends on how many of each face are within reach, not on which
                # copies or which wild cards: kept so, the walk is not repeated when only those changed.
                key_shape = (low, max_w, tuple(map(len, reached)))
                shapes = skeletons.get(key_shape)
                if shapes is None:
                    shapes = list(self._skeletons_with(low, counts, max_w))
                    if len(skeletons) >= 20_000:
                        skeletons.clear()
                    skeletons[key_shape] = shapes
                found = []
                for faces, w in shapes:
                    if natural_held is not None and natural_held not in faces:
                        continue  # only melds holding that card are wanted (a pile's top card)
                    for used_wilds in self._wild_choices(wilds, w):
                        if wild_held is not None and wild_held not in used_wilds:
                            continue
                        key = tuple(sorted(faces + used_wilds))
                        if key not in seen:
                            seen.add(key)
                            meld = self._realise(faces, used_wilds, by_face)
                            if meld is not None:
                                found.append(meld)
                if len(by_low) >= 20_000:
                    by_low.clear()
                by_low[key_low] = found
            result.extend(found)
        for faces in self._wild_only_melds(wilds) if natural_held is None else ():
            if faces not in seen and (wild_held is None or wild_held in faces):
                seen.add(faces)
                meld = self._realise((), faces, by_face)
                if meld is not None:
                    result.append(meld)
        result.sort(key=lambda m: (-len(m.cards), [c.face for c in m.cards]))
        return result[:limit] if limit is not None else result

    def _realise(self, faces: tuple[int, ...], wilds: tuple[int, ...], by_face: dict[int, list[Card]]) -> Meld | None:
        """The meld of the first copies held of ``faces`` and ``wilds``, or None (the game's own test may refuse
        it). Kept by the cards' ids: a hand changes a card or two a turn, and most of its melds stay."""
        taken: dict[int, int] = {}
        cards = []
        for face in faces + wilds:
            copy = taken.get(face, 0)
            cards.append(by_face[face][copy])
            taken[face] = copy + 1
        key = tuple([c.id for c in cards])
        made = self._made
        if key in made:
            return made[key]
        if len(made) >= 20_000:
            made.clear()
        meld = made[key] = self.meld(cards)
        return meld

    # -- general search (wild cards, duplicates) ---------------------------------------------------------

    def _arrange_general(self, cards: Sequence[Card]) -> Arrangement:
        if self._solver is not None:
            found = self._arrange_solver(cards)
            if found is not None:
                return found
        return self._arrange_exhaustive(cards)

    def _arrange_solver(self, cards: Sequence[Card]) -> Arrangement | None:
        """The solver's arrangement (see :mod:`rummykit.solver`), or None when the game's own meld test
        refuses one of its melds (the exhaustive search, which asks the test of every meld, then decides)."""
        assert self._solver is not None
        value, groups = self._solver.solve(*self._solver_input(cards))
        chosen_groups, dead = _cards_for(groups, cards)
        built = []
        for chosen in chosen_groups:
            meld = self.meld(chosen)
            if meld is None:
                if self.accept is None:  # pragma: no cover - the solver only forms melds the rules allow
                    raise AssertionError(f"solver meld {' '.join(map(str, chosen))} is not valid")
                return None
            built.append(meld)
        return Arrangement(tuple(built), dead, value)

    def _arrange_exhaustive(self, cards: Sequence[Card]) -> Arrangement:
        """Every meld containing the lowest card, memoised on what is left: exact, exponential in the hand."""
        wild_faces = self.rules.wild_faces
        naturals = tuple(sorted(c.face for c in cards if c.face not in wild_faces))
        wilds = tuple(sorted(c.face for c in cards if c.face in wild_faces))
        value, melds = self._best_general(naturals, wilds)
        chosen_groups, dead = _cards_for(melds, cards)
        return Arrangement(tuple(self._meld_from_faces(chosen) for chosen in chosen_groups), dead, value)

    def _best_general(
        self, naturals: tuple[int, ...], wilds: tuple[int, ...]
    ) -> tuple[int, tuple[tuple[int, ...], ...]]:
        key = (naturals, wilds)
        hit = self._gcache.get(key)
        if hit is not None:
            return hit
        if len(self._gcache) > self.cache_limit:
            self._gcache.clear()
        values = self.values
        if not naturals:
            best: tuple[int, tuple[tuple[int, ...], ...]] = (sum(values[w] for w in wilds), ())
            for faces in self._wild_only_melds(wilds):
                if not self._faces_ok(faces):
                    continue
                rest = list(wilds)
                for face in faces:
                    rest.remove(face)
                value, melds = self._best_general((), tuple(rest))
                if value < best[0]:
                    best = (value, (faces,) + melds)
            self._gcache[key] = best
            return best
        low = naturals[0]
        value, melds = self._best_general(naturals[1:], wilds)
        best = (value + values[low], melds)  # the lowest card as deadwood
        counts = Counter(naturals)
        for faces, used_wilds in self._melds_with(low, counts, wilds):
            if not self._faces_ok(faces + used_wilds):
                continue
            rest_nat = Counter(naturals)
            rest_nat.subtract(faces)
            rest_wild = Counter(wilds)
            rest_wild.subtract(used_wilds)
            value, melds = self._best_general(tuple(sorted(rest_nat.elements())), tuple(sorted(rest_wild.elements())))
            if value < best[0]:
                best = (value, (faces + used_wilds,) + melds)
        self._gcache[key] = best
        return best

    def _faces_ok(self, faces: tuple[int, ...]) -> bool:
        """Whether the game's own test accepts the meld of these faces (always, without a test)."""
        if self.accept is None:
            return True
        seen: Counter[int] = Counter()
        cards = []
        for face in faces:
            cards.append(card_from_face(face, seen[face]))
            seen[face] += 1
        return self.meld(cards) is not None

    def _wild_choices(self, wilds: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
        """The distinct choices of ``count`` of the wild cards ``wilds`` (sorted faces), in order: asked for
        every set and run the walk finds, so kept (a hand holds a few wild cards)."""
        if count == 0:
            return _NO_WILDS
        key = (wilds, count)
        found = self._choices.get(key)
        if found is None:
            if len(self._choices) >= 4096:
                self._choices.clear()
            found = self._choices[key] = sorted(set(itertools.combinations(wilds, count)))
        return found

    def _melds_with(
        self, low: int, counts: Counter[int], wilds: tuple[int, ...]
    ) -> Iterable[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Melds that contain natural face ``low`` and otherwise only faces >= low from ``counts``,
        plus wild cards from ``wilds``: pairs of (natural faces, wild faces)."""
        max_w = len(wilds) if self.rules.max_wilds is None else min(self.rules.max_wilds, len(wilds))
        for faces, w in self._skeletons_with(low, counts, max_w):
            for chosen in self._wild_choices(wilds, w):
                yield faces, chosen

    def _skeletons_with(self, low: int, counts: dict[int, int], max_w: int) -> Iterable[tuple[tuple[int, ...], int]]:
        """:meth:`_melds_with` before its wild cards are chosen: pairs of (natural faces, how many wild cards),
        each then taken with every choice of that many of the hand's wild cards. They depend on the wild
        cards only by how many a meld may take (``max_w``)."""
        rules = self.rules
        if low == JOKER_FACE:
            if rules.joker_sets:
                top = counts[JOKER_FACE] if rules.set_max is None else min(counts[JOKER_FACE], rules.set_max)
                for size in range(rules.set_min, top + 1):
                    yield (JOKER_FACE,) * size, 0
            return
        rank, suit = low % 13 + 1, low // 13
        if rank in rules.excluded_ranks:
            return
        if rules.sets:
            rank_faces = [_face(rank, s) for s in range(4)]
            singles = [(f,) for f in rank_faces]
            per_suit = [counts.get(f, 0) if f >= low else 0 for f in rank_faces]
            if rules.set_distinct_suits:
                per_suit = [min(n, 1) for n in per_suit]
            ranges = [range(1 if s == suit else 0, per_suit[s] + 1) for s in range(4)]
            for pick in itertools.product(*ranges):
                naturals_n = sum(pick)
                faces: tuple[int, ...] = sum(map(operator.mul, singles, pick), ())  # each face as often as picked
                for w in range(0, max_w + 1):
                    if self._set_size_ok(naturals_n + w):
                        yield faces, w
        if rules.runs:
            for pos in rules.positions(rank):
                bounds = self._run_bounds(pos, pos)
                if bounds is None or not bounds[0] <= pos <= bounds[1]:
                    continue
                lo_bound, hi_bound = bounds
                # Grow downwards, then upwards; a position takes a natural card still in hand (a face
                # above ``low``: lower ones were settled already) or a wild card.
                downs: list[tuple[int, tuple[int, ...], int]] = [(pos, (low,), 0)]
                frontier = downs[:]
                ace_high, rank_at = rules.top + 1, rules._order_tables[1]
                for start in range(pos - 1, lo_bound - 1, -1):
                    if start == 1 and pos == ace_high:
                        break  # a run holds one ace: down from a high ace, a wild card may not be the low one
                    frontier = self._grow(frontier, start, _face(rank_at[start], suit), low, counts, max_w)
                    if not frontier:
                        break
                    downs.extend(frontier)
                for start, faces0, w0 in downs:
                    partial = [(faces0, w0)]
                    end = pos
                    while True:
                        length = end - start + 1
                        if rules.run_max is not None and length > rules.run_max:
                            break
                        if length >= rules.run_min:
                            yield from partial
                        end += 1
                        if end > hi_bound or (start == 1 and end == ace_high):
                            break
                        grown = [
                            (f, w)
                            for _, f, w in self._grow(
                                [(start, f, w) for f, w in partial], end, _face(rank_at[end], suit), low, counts, max_w
                            )
                        ]
                        if not grown:
                            break
                        partial = grown
        specials = self._specials_by_low.get(low)
        if specials:
            present = 0
            for face, count in counts.items():
                if count:
                    present |= 1 << face
            for option, mask, repeated in specials:
                if mask & present == mask and all(counts[f] >= n for f, n in repeated.items()):
                    yield option, 0

    @staticmethod
    def _grow(
        partial: list[tuple[int, tuple[int, ...], int]],
        position: int,
        face: int,
        low: int,
        counts: dict[int, int],
        max_w: int,
    ) -> list[tuple[int, tuple[int, ...], int]]:
        """Extend partial runs by one run position, with the natural card there (``face``) or a wild card."""
        grown = []
        for _, faces, w in partial:
            if face >= low and counts.get(face, 0) > faces.count(face):
                grown.append((position, faces + (face,), w))
            if w < max_w:
                grown.append((position, faces, w + 1))
        return grown

    def _wild_only_melds(self, wilds: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        if not self.rules.wild_sets or not wilds:
            return
        by_rank: dict[int, list[int]] = {}
        for face in wilds:
            rank = 0 if face == JOKER_FACE else face % 13 + 1
            by_rank.setdefault(rank, []).append(face)
        for group in by_rank.values():
            top = len(group) if self.rules.set_max is None else min(len(group), self.rules.set_max)
            for size in range(self.rules.set_min, top + 1):
                yield from sorted(set(itertools.combinations(sorted(group), size)))


_LAZY_WITH_WILDS_FROM = (0, 32, 24)
"""By how many wild cards a meld of the hand may take (one; two or more)."""
_LAZY_POOL_FROM = (0, 16, 12)
"""The same for the cards that might meld with one card (its suit, its rank, the wild cards), which the whole
walk finds costlier for their size: one suit makes long runs."""
_LAZY_FROM = 50
"""Hand sizes from which :meth:`MeldSearch.candidate_melds` makes its first melds lazily (measured: below
them the whole walk is cheaper; both give the same melds)."""


_NO_WILDS: list[tuple[int, ...]] = [()]


class _OutOfOrder(Exception):
    """A meld whose faces as laid are no layout of :mod:`rummykit.meldorder` (a rule it does not foresee)."""


def check_copies(cards: Sequence[Card], decks: int, jokers: int, where: str) -> None:
    """Refuse (ValueError naming ``where``) a hand that holds a card more often than a game with ``decks``
    decks and ``jokers`` jokers has it, or the same physical card twice."""
    seen: set[int] = set()
    for card in cards:
        limit = jokers if card.is_joker else decks
        if card.id in seen or card.copy >= limit:
            count = sum(1 for c in cards if c.face == card.face)
            times = {1: "once", 2: "twice"}
            named = times.get(count, f"{count} times")
            held = "no such card" if limit == 0 else "it " + times.get(limit, f"{limit} times")
            if count <= limit and card.id in seen:  # one card object twice where the deck has copies enough
                raise ValueError(
                    f"{where}: the hand holds the same {card} (copy {card.copy}) twice; "
                    f"another deck's {card} is another copy (Card(..., copy=1))"
                )
            if count <= limit:
                raise ValueError(
                    f"{where}: the hand holds {card} copy {card.copy}, but the deck holds {held} "
                    f"(copies are numbered from 0)"
                )
            raise ValueError(f"{where}: the hand names {card} {named}, but the deck holds {held}")
        seen.add(card.id)


_Layout = tuple[str, tuple[int, ...], tuple[int, ...], int | None, int, tuple[int, ...]]
"""A meld's fields with its cards as places in the cards it was made of (:func:`_layout`)."""


def _layout(meld: Meld, cards: Sequence[Card]) -> _Layout:
    """``meld``'s fields, its cards given as their places in ``cards`` (which hold each of them once): other cards
    of the same faces in the same places make the same meld, :func:`_laid_out` of them."""
    where = {card.id: i for i, card in enumerate(cards)}
    return (meld.kind, tuple([where[c.id] for c in meld.cards]), meld.ranks, meld.suit, meld.wilds, meld.represents)


def _laid_out(layout: _Layout, cards: Sequence[Card]) -> Meld:
    """The meld :func:`_layout` describes, of ``cards``."""
    kind, order, ranks, suit, wilds, represents = layout
    return Meld(kind, tuple([cards[i] for i in order]), ranks, suit, wilds, represents)


def _sorted_by_face(cards: Iterable[Card]) -> dict[int, list[Card]]:
    """``cards`` by face, faces in ascending order and each face's copies in ascending order."""
    by_face: dict[int, list[Card]] = {}
    for card in sorted(cards, key=_ORDER):
        by_face.setdefault(card.face, []).append(card)
    return by_face


def _cards_for(groups: Iterable[Sequence[int]], cards: Sequence[Card]) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """The cards of ``cards`` that make up each group of faces (each card used once), and the rest, sorted."""
    by_face = _sorted_by_face(cards)
    taken: Counter[int] = Counter()
    chosen_groups = []
    for faces in groups:
        chosen = []
        for face in faces:
            chosen.append(by_face[face][taken[face]])
            taken[face] += 1
        chosen_groups.append(chosen)
    dead = tuple(sorted([card for face, group in by_face.items() for card in group[taken[face] :]], key=_ORDER))
    return chosen_groups, dead


_PIECE_CARDS: list[list[tuple[Card, ...]]] = [
    [tuple(card_from_face(face) for face in range(start, start + width) if (piece >> (face - start)) & 1)
     for piece in range(1 << width)]
    for start, width in ((s * 13 + half * 7, 7 - half) for s in range(4) for half in (0, 1))
]  # fmt: skip
"""Per 7- or 6-bit piece of a mask (clubs A-7, clubs 8-K, diamonds A-7 ...), the first-copy cards of each value."""


def _by_second_card(masks: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """``masks`` (melds of one lowest card) grouped by their second lowest card, as that card's bit."""
    groups: dict[int, list[int]] = {}
    for mask in masks:
        rest = mask & (mask - 1)
        groups.setdefault(rest & -rest if rest else mask, []).append(mask)  # a meld of one card: its own bit
    return [(second, tuple(group)) for second, group in groups.items()]


def _first(entry: tuple[tuple[int, tuple[int, ...]], Meld]) -> tuple[int, tuple[int, ...]]:
    return entry[0]


def _bits(mask: int) -> list[int]:
    faces = []
    while mask:
        low = mask & -mask
        faces.append(low.bit_length() - 1)
        mask ^= low
    return faces
