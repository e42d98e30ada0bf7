"""The melds a hand could make, as sequences of faces in the order they would be laid, produced in
ascending order one size at a time, so that a caller wanting the first few never enumerates the rest.

A *layout* is a tuple of faces (0..51, 52 for a joker): a run's cards by position, low to high; a set's
natural cards in ascending order, then its wild cards in ascending order; a meld of wild cards or jokers
alone, or a special meld, ascending. :func:`layouts` yields every layout of one size that the rules could
accept from the cards held, in ascending order, with the same families and limits as the exhaustive walk
of :meth:`rummykit.melds.MeldSearch.candidate_melds`. A hand of several wild cards has many layouts per
meld (a wild card may stand in several places); the caller keeps the first of each multiset of faces.

Everything here works on integers and tables built from the rules; nothing builds a card or a meld.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .cards import JOKER_FACE

if TYPE_CHECKING:
    from .melds import MeldRules

__all__ = ["Holding", "layouts", "size_bounds"]


class Holding:
    """The cards of one hand as counts per face, split into natural and wild, with what the rules allow."""

    __slots__ = (
        "rules",
        "naturals",
        "wilds",
        "wild_faces",
        "wild_total",
        "max_wilds",
        "required",
        "specials",
        "canonical",
    )

    def __init__(
        self,
        rules: MeldRules,
        faces: Sequence[int],
        required: int | None = None,
        specials: Sequence[tuple[int, ...]] = (),
        canonical: tuple[bool, bool, bool, bool] = (True, True, True, True),
    ) -> None:
        self.rules = rules
        self.canonical = canonical
        """By suit, whether every run is laid as the rules place it (no game's own test may move it elsewhere)."""
        wild = rules.wild_faces
        self.naturals = [0] * (JOKER_FACE + 1)
        self.wilds = [0] * (JOKER_FACE + 1)
        for face in faces:
            if face in wild:
                self.wilds[face] += 1
            else:
                self.naturals[face] += 1
        self.wild_faces = sorted(f for f in range(JOKER_FACE + 1) if self.wilds[f])
        self.wild_total = sum(self.wilds)
        self.max_wilds = self.wild_total if rules.max_wilds is None else min(rules.max_wilds, self.wild_total)
        self.required = required
        """A face every layout must hold (the card a pile take must use), or None."""
        present = []
        for option in specials:
            need: dict[int, int] = {}
            for face in option:
                need[face] = need.get(face, 0) + 1
            if all(self.naturals[f] >= n for f, n in need.items()):
                present.append(tuple(sorted(option)))
        self.specials = sorted(set(present))


def size_bounds(holding: Holding) -> tuple[int, int]:
    """The largest and smallest sizes a layout of ``holding`` may have (the largest may have none)."""
    rules = holding.rules
    sizes = []
    wild_room = holding.max_wilds
    if rules.sets:
        best = 0
        for rank in range(13):
            held = [holding.naturals[s * 13 + rank] for s in range(4)]
            count = sum(min(n, 1) for n in held) if rules.set_distinct_suits else sum(held)
            if count:
                best = max(best, count + wild_room)
        if best:
            sizes.append((best if rules.set_max is None else min(best, rules.set_max), rules.set_min))
    if rules.runs:
        lo, hi = rules.run_span
        span = min(hi - lo + 1, rules.top)
        natural = sum(holding.naturals[:52])
        if natural:
            longest = min(span, natural + wild_room)
            sizes.append((longest if rules.run_max is None else min(longest, rules.run_max), rules.run_min))
    if rules.wild_sets and holding.wild_faces:
        sizes.append(
            (holding.wild_total if rules.set_max is None else min(holding.wild_total, rules.set_max), rules.set_min)
        )
    if rules.joker_sets and JOKER_FACE not in rules.wild_faces and holding.naturals[JOKER_FACE]:
        jokers = holding.naturals[JOKER_FACE]
        sizes.append((jokers if rules.set_max is None else min(jokers, rules.set_max), rules.set_min))
    for option in holding.specials:
        sizes.append((len(option), len(option)))
    if not sizes:
        return (0, 1)
    return (max(s[0] for s in sizes), max(1, min(s[1] for s in sizes)))


def layouts(holding: Holding, size: int) -> Iterator[tuple[int, ...]]:
    """Every layout of ``size`` cards the rules could accept from ``holding``, ascending (a layout may
    repeat only if two families give it, which the caller's multiset check absorbs)."""
    rules = holding.rules
    families: list[Iterator[tuple[int, ...]]] = []
    required = holding.required
    wild = rules.wild_faces
    set_ok = size >= rules.set_min and (rules.set_max is None or size <= rules.set_max)
    if rules.sets and set_ok:
        ranks = range(13)
        if required is not None and required not in wild:
            ranks = range(required % 13, required % 13 + 1) if required != JOKER_FACE else range(0)
        for rank in ranks:
            if rank + 1 not in rules.excluded_ranks:
                family = _sets(holding, rank, size)
                if family is not None:
                    families.append(family)
    if rules.runs and size >= rules.run_min and (rules.run_max is None or size <= rules.run_max):
        suits = range(4)
        if required is not None and required not in wild:
            suits = range(required // 13, required // 13 + 1) if required != JOKER_FACE else range(0)
        for suit in suits:
            family = _runs(holding, suit, size)
            if family is not None:
                families.append(family)
    if rules.wild_sets and set_ok and holding.wild_faces:
        groups: dict[int, list[int]] = {}
        for face in holding.wild_faces:
            groups.setdefault(-1 if face == JOKER_FACE else face % 13, []).append(face)
        for group in groups.values():
            if required is None or required in group:
                families.append(_ascending(holding.wilds, group, size, required))
    if (
        rules.joker_sets
        and set_ok
        and JOKER_FACE not in wild
        and holding.naturals[JOKER_FACE] >= size
        and required in (None, JOKER_FACE)
    ):
        families.append(iter([(JOKER_FACE,) * size]))
    specials = [o for o in holding.specials if len(o) == size and (required is None or required in o)]
    if specials:
        families.append(iter(specials))
    if len(families) == 1:
        return families[0]
    return heapq.merge(*families)


def _ascending(counts: list[int], faces: list[int], size: int, required: int | None) -> Iterator[tuple[int, ...]]:
    """Non-decreasing sequences of ``size`` faces from ``faces`` (ascending), each used at most ``counts``
    times, holding ``required`` when given: the layouts of wild cards of one rank alone."""
    pool = [f for f in faces for _ in range(counts[f])]
    found: set[tuple[int, ...]] = set()

    def walk(start: int, chosen: list[int]) -> Iterator[tuple[int, ...]]:
        if len(chosen) == size:
            if required is None or required in chosen:
                layout = tuple(chosen)
                if layout not in found:
                    found.add(layout)
                    yield layout
            return
        for i in range(start, len(pool) - (size - len(chosen)) + 1):
            chosen.append(pool[i])
            yield from walk(i + 1, chosen)
            chosen.pop()

    return walk(0, [])


def _sets(holding: Holding, rank: int, size: int) -> Iterator[tuple[int, ...]] | None:
    """Layouts of sets of ``rank`` (0..12): at least one natural card, ascending, then wild cards ascending."""
    rules = holding.rules
    faces = [s * 13 + rank for s in range(4)]
    limit = [min(holding.naturals[f], 1) if rules.set_distinct_suits else holding.naturals[f] for f in faces]
    natural_total = sum(limit)
    if not natural_total or natural_total + holding.max_wilds < size:
        return None
    wild_faces = holding.wild_faces
    wild_left = holding.wilds[:]
    max_w = holding.max_wilds
    required = holding.required
    used = [0, 0, 0, 0]
    prefix: list[int] = []

    def walk(index: int, wilds_from: int, w: int, have: bool) -> Iterator[tuple[int, ...]]:
        k = len(prefix)
        if k == size:
            if have:
                yield tuple(prefix)
            return
        rest = size - k - 1  # positions after the next one
        options: list[tuple[int, int, int]] = []  # (face, natural index or -1, wild index)
        if wilds_from < 0:  # still laying natural cards
            for i in range(index, 4):
                if used[i] < limit[i]:
                    options.append((faces[i], i, -1))
        if k and w < max_w:
            start = max(wilds_from, 0)
            for j in range(start, len(wild_faces)):
                if wild_left[wild_faces[j]]:
                    options.append((wild_faces[j], -1, j))
        options.sort()
        for face, i, j in options:
            if i >= 0:
                used[i] += 1
                naturals_left = sum(limit[x] - used[x] for x in range(i, 4))
                room = naturals_left + min(max_w - w, _left_from(wild_left, wild_faces, 0))
                got = have or face == required
                if room >= rest and (got or _set_can_take(holding, faces[i:], used[i:], limit[i:], rest, max_w - w)):
                    prefix.append(face)
                    yield from walk(i, -1, w, got)
                    prefix.pop()
                used[i] -= 1
            else:
                wild_left[face] -= 1
                room = min(max_w - w - 1, _left_from(wild_left, wild_faces, j))
                got = have or face == required
                if room >= rest and (got or bool(rest and room and required in wild_faces[j:] and wild_left[required])):
                    prefix.append(face)
                    yield from walk(index, j, w + 1, got)
                    prefix.pop()
                wild_left[face] += 1

    return walk(0, -1, 0, required is None)


def _left_from(left: list[int], faces: list[int], start: int) -> int:
    return sum(left[faces[j]] for j in range(start, len(faces)))


def _set_can_take(
    holding: Holding, faces: list[int], used: list[int], limit: list[int], rest: int, wild_room: int
) -> bool:
    """Whether a set can still take the required face in its ``rest`` places, its natural cards from
    ``faces`` on (``used`` of each so far, at most ``limit``)."""
    required = holding.required
    if not rest or required is None:
        return bool(rest)
    if required in holding.rules.wild_faces:
        return wild_room > 0 and holding.wilds[required] > 0
    return required in faces and used[faces.index(required)] < limit[faces.index(required)]


def _runs(holding: Holding, suit: int, size: int) -> Iterator[tuple[int, ...]] | None:
    """Layouts of runs of ``suit`` of ``size`` positions: each position its natural card (when held) or a
    wild card, at least one natural card, at most ``max_wilds`` wild cards, the wild cards ascending from
    low to high (as a meld places them; other orders are the same multiset)."""
    rules = holding.rules
    lo, hi = rules.run_span
    top = rules.top
    rank_at = rules._order_tables[1]
    excluded = rules.excluded_ranks
    wild = rules.wild_faces
    natural: list[int] = [-1] * (hi + 2)
    blocked = [False] * (hi + 2)
    for pos in range(lo, hi + 1):
        rank = rank_at[pos]
        if (1 if rank == 14 else rank) in excluded:
            blocked[pos] = True
            continue
        face = suit * 13 + (0 if rank == 14 else rank - 1)
        if face not in wild and holding.naturals[face]:
            natural[pos] = face
    # missing[p]: positions below p (from lo) without a natural card
    missing = [0] * (hi + 3)
    for pos in range(1, hi + 2):
        missing[pos + 1] = missing[pos] + (1 if pos >= lo and natural[pos] < 0 else 0)
    required = holding.required
    required_wild = required is not None and required in wild
    starts = []
    for start in range(lo, hi - size + 2):
        end = start + size - 1
        if start == 1 and end == top + 1:
            continue
        if any(blocked[p] for p in range(start, end + 1)):
            continue
        gaps = missing[end + 1] - missing[start]
        if gaps > holding.max_wilds or gaps == size:
            continue
        if required is not None and not required_wild and required not in natural[start : end + 1]:
            continue
        starts.append(start)
    if not starts:
        return None
    # A meld puts spare wild cards above its natural cards while there is room, so wild cards come before
    # the lowest natural card only in a window that reaches as high as runs may go. (A game's own test may
    # refuse that placement, and the meld then takes another: with a test, every placement is a layout.)
    canonical = holding.canonical[suit]
    reach_top = [not canonical] * (hi + 2)
    for start in starts:
        end = start + size - 1
        reach_top[start] = reach_top[start] or end == hi or blocked[end + 1]
    # And it puts an ace high when the run fits that way: an ace low (a window from position 1) then needs
    # another natural card below the window an ace-high run of this size would take.
    high_start = top + 2 - size
    ace_high_fits = (
        canonical and hi == top + 1 and 2 <= high_start and not any(blocked[p] for p in range(high_start, top + 2))
    )
    deadline = high_start - 1 if ace_high_fits else hi + 1
    wild_faces = holding.wild_faces
    wild_left = holding.wilds[:]
    max_w = holding.max_wilds
    prefix: list[int] = []

    def walk(group: list[int], w: int, naturals: int, have: bool, left: int, lowest: int) -> Iterator[tuple[int, ...]]:
        k = len(prefix)
        if k == size:
            yield tuple(prefix)
            return
        options: dict[int, list[int]] = {}
        for start in group:
            pos = start + k
            end = start + size - 1
            only_natural = False
            if start == 1 and naturals == 1 and k and prefix[0] == natural[1]:  # a low ace alone so far
                if pos > deadline:
                    continue
                only_natural = pos == deadline
            gaps_after = missing[end + 1] - missing[pos + 1]
            naturals_after = (end - pos) - gaps_after
            face = natural[pos]
            if face >= 0 and gaps_after <= min(max_w - w, left):
                if (
                    have
                    or face == required
                    or _run_can_take(required, required_wild, natural, pos + 1, end, max_w - w, left, wild_left)
                ):
                    options.setdefault(face, []).append(start)
            if only_natural or not (naturals or reach_top[start]):
                continue
            if w < max_w and left and gaps_after <= min(max_w - w - 1, left - 1) and (naturals or naturals_after):
                for wface in wild_faces:
                    if wface >= lowest and wild_left[wface]:
                        if (
                            have
                            or wface == required
                            or _run_can_take(
                                required, required_wild, natural, pos + 1, end, max_w - w - 1, left - 1, wild_left
                            )
                        ):
                            options.setdefault(wface, []).append(start)
        for face in sorted(options):
            prefix.append(face)
            if face in wild:
                wild_left[face] -= 1
                yield from walk(options[face], w + 1, naturals, have or face == required, left - 1, face)
                wild_left[face] += 1
            else:
                yield from walk(options[face], w, naturals + 1, have or face == required, left, lowest)
            prefix.pop()

    return walk(starts, 0, 0, required is None, holding.wild_total, 0)


def _run_can_take(
    required: int | None,
    required_wild: bool,
    natural: list[int],
    start: int,
    end: int,
    wild_room: int,
    left: int,
    wild_left: list[int],
) -> bool:
    """Whether positions ``start..end`` can still take the ``required`` face."""
    if required is None:
        return True
    if start > end:
        return False
    if required_wild:
        return wild_room > 0 and left > 0 and wild_left[required] > 0
    return required in natural[start : end + 1]
