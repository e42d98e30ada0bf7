"""Iceberg (Gordon Bower, 1997): what its ruleset's data does not express. See ``docs/iceberg.md``.

The turn is the kernel's table turn with ``turn.discard_to: right``:

1. take up the card lying face down at your left (the kernel's ``take up``, a move the rules make);
2. draw one card from the stock;
3. lay every ace you hold face up in front of you at once (``expose AD``, a move the rules make: see
   :func:`rummykit_automatic_action`);
4. meld and lay off at will: pairs, sets, runs in a suit, and the special melds; on anyone's melds;
5. discard one card face down to your right-hand opponent (``discard 8D``), unless your hand is empty.

The hand ends when someone goes out (with or without a final discard), or at the end of the turn in
which the last ace of the pack was exposed (:func:`rummykit_turn_ended`).

Scoring (:func:`rummykit_score_hand`): melds score by length as they grow (:func:`built_up`), each card
for whoever played it; special melds score their own value. Each card left in hand costs its card value
(10); the cards still playable cost, in addition, what they would have scored with one more turn
(:func:`best_next_turn`); then each ace multiplies the hand score (one ace x2, two x3...), or under the
house rule ``ace-bonus`` adds ``rules.ace_bonus``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from rummykit import hookimpl
from rummykit.actions import Action, ActionWords, PositionWords
from rummykit.cards import Card
from rummykit.engine import Deal, HandResult
from rummykit.melds import Meld, MeldRules, SpecialMeld
from rummykit.typed import rules_as, state_of

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pair": {"type": "integer", "description": "a pair laid"},
        "third_card": {"type": "integer", "description": "the third card added to a pair"},
        "nth_card": {"type": "integer", "description": "the n-th card added (n >= 4) scores nth_card * n"},
        "special_melds": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                name: {"type": "integer", "description": text}
                for name, text in (
                    ("odd-suit", "K-J-9-7-5-3 of one suit"),
                    ("even-suit", "Q-T-8-6-4-2 of one suit"),
                    ("odd-colour", "K-J-9-7-5-3 of one colour, both its suits"),
                    ("even-colour", "Q-T-8-6-4-2 of one colour, both its suits"),
                )
            },
            "description": "the special melds the game allows, with what each scores (laid whole, never extended)",
        },
        "aces": {
            "enum": ["multiply", "bonus"],
            "description": "multiply: one ace doubles the hand score, two triple it...; bonus: each ace adds ace_bonus",
        },
        "ace_bonus": {"type": "integer", "description": "what each ace adds under aces: bonus"},
        "aces_left_in_hand": {
            "enum": ["ace", "card"],
            "description": "an ace still in hand at the end of the hand: counted as an ace laid, or as a card in hand",
        },
    },
    "required": ["pair", "third_card", "nth_card", "special_melds", "aces"],
}

ACES = "aces"
"""The zone of aces laid face up, one part per seat (public)."""
EXPOSE = "expose"
ODD = (13, 11, 9, 7, 5, 3)
EVEN = (12, 10, 8, 6, 4, 2)
COLOURS = ((0, 3), (1, 2))
"""Suit numbers (C D H S) by colour: black (clubs, spades) and red (diamonds, hearts)."""
_COLOUR_OF = {suit: index for index, colour in enumerate(COLOURS) for suit in colour}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str]]:
    """Iceberg is played on the table: the aces are laid as they are drawn, and a hand is won by melding."""
    if ruleset.get("table", {}).get("melds", False):
        return []
    message = "Iceberg's aces and melds are laid on the table as they are made: expected true"
    return [("table.melds", message)]


@dataclass(frozen=True)
class IcebergRules:
    """Iceberg's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant; a key left out has its default."""

    pair: int
    third_card: int
    nth_card: int
    special_melds: Mapping[str, int]
    aces: str
    ace_bonus: int = 20
    aces_left_in_hand: str = "ace"


def iceberg_rules(variant: Any) -> IcebergRules:
    """``variant``'s Iceberg rules (built once per variant)."""
    return rules_as(variant, IcebergRules)


@dataclass
class IcebergState:
    """What a deal of Iceberg keeps (``deal.state_of(IcebergState)``)."""

    added: dict[int, int] = field(default_factory=dict)
    """Card id -> the place it took in its meld, for cards laid off (what it scores depends on it)."""
    aces_out: bool = False
    """The last ace of the pack was laid face up: this turn is the hand's last."""
    aces_total: int = 0
    """The aces in the pack."""


def iceberg_state(deal: Deal) -> IcebergState:
    """The deal's Iceberg state."""
    return state_of(deal, IcebergState)


# -- melds ----------------------------------------------------------------------------------------------


def special_melds(values: dict[str, int]) -> tuple[SpecialMeld, ...]:
    """The special melds named in ``rules.special_melds``, each with every combination of faces it allows."""
    result = []
    for name in values:
        ranks = ODD if name.startswith("odd") else EVEN
        options: set[tuple[int, ...]] = set()
        if name.endswith("suit"):
            for suit in range(4):
                options.add(tuple(sorted(suit * 13 + r - 1 for r in ranks)))
        else:  # one colour, both its suits
            for pair in COLOURS:
                for choice in range(1, 2**6 - 1):  # not all of one suit
                    suits = [pair[(choice >> i) & 1] for i in range(6)]
                    options.add(tuple(sorted(s * 13 + r - 1 for s, r in zip(suits, ranks))))
        result.append(SpecialMeld(name, tuple(sorted(options))))
    return tuple(result)


@hookimpl
def rummykit_meld_rules(variant: Any, rules: MeldRules) -> MeldRules:
    return replace(rules, specials=special_melds(dict(iceberg_rules(variant).special_melds)))


# -- the deal ---------------------------------------------------------------------------------------------


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    deal.add_zone(ACES, visibility="public")
    iceberg_state(deal).aces_total = sum(1 for c in deal.game.deck if c.rank == 1)


@hookimpl
def rummykit_automatic_action(deal: Deal) -> Action | None:
    """Step 3 of the turn: every ace held is laid face up at once, as soon as the card is drawn."""
    if deal.phase != "play":
        return None
    aces = [c for c in deal.hands[deal.current] if c.rank == 1]  # asked after every action of a turn
    return Action(EXPOSE, tuple(aces)) if aces else None


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    if action.kind != EXPOSE:
        return None
    seat = deal.current
    state = iceberg_state(deal)
    deal.take_from_hand(seat, action.cards)
    zone = deal.zones[ACES]
    zone.cards[seat].extend(action.cards)
    if sum(map(len, zone.cards)) >= state.aces_total:
        state.aces_out = True  # the last ace of the pack: this turn is the hand's last
    if not deal.hands[seat]:
        deal.finish("out")  # nothing left to play or pass
    return True


@hookimpl
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    """Note the place each card laid off took in its meld (what it scores depends on it). A lay-off that
    empties the hand ends it and is scored before this is called: :func:`melded_points` places its cards."""
    if action.kind != "layoff" or action.target is None:
        return
    size = len(deal.table[action.target].meld.cards) - len(action.cards)
    added = iceberg_state(deal).added
    for offset, card in enumerate(action.cards, start=1):
        added[card.id] = size + offset


@hookimpl(tryfirst=True)
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    """The player who exposed the last ace finishes the turn, discard included; then the hand ends (before the
    kernel would call a stock emptied by that last ace ``exhausted``)."""
    if iceberg_state(deal).aces_out:
        deal.finish("last-ace")


# -- scoring ------------------------------------------------------------------------------------------------


def built_up(rules: IcebergRules, size: int) -> int:
    """What a set or run of ``size`` cards scores in all, however it was built: a pair ``pair``, the third
    card ``third_card``, the n-th (n >= 4) ``nth_card * n``. A meld laid with k cards at once scores as if
    built up (three at once: 30; a four-card run: 70)."""
    return _built_up(rules.pair, rules.third_card, rules.nth_card, size)


@lru_cache(maxsize=256)
def _built_up(pair: int, third: int, nth: int, size: int) -> int:
    if size < 2:
        return 0
    total = pair + (third if size >= 3 else 0)
    return total + sum(nth * n for n in range(4, size + 1))


def meld_points(rules: IcebergRules, meld: Meld) -> int:
    """What ``meld``, laid in one play, scores."""
    return laid_points(rules, meld.kind, len(meld.cards))


def laid_points(rules: IcebergRules, kind: str, size: int) -> int:
    """What a meld of ``kind`` laid with ``size`` cards in one play scores."""
    specials = rules.special_melds
    if kind in specials:
        return int(specials[kind])
    return built_up(rules, size)


def melded_points(deal: Deal) -> list[int]:
    """Per seat, what the cards it put on the table scored: the meld laid for its owner, each card laid off
    for whoever laid it, by the place it took in the meld."""
    rules = iceberg_rules(deal.variant)
    added = iceberg_state(deal).added
    points = [0] * deal.game.num_players
    for table_meld in deal.table:
        first_ids = table_meld.first_ids
        ids = [c.id for c in table_meld.meld.cards]
        first = len(first_ids.intersection(ids))
        points[table_meld.owner] += laid_points(rules, table_meld.meld.kind, first)
        if first == len(ids):
            continue  # nothing laid off on it
        # Cards not yet noted were laid off by the action that ended the hand, after every noted card (all by
        # one seat, so what they score together does not depend on their order).
        placed = first + len(added.keys() & ids)
        for card_id in ids:
            if card_id not in first_ids:
                place = added.get(card_id)
                if place is None:
                    placed += 1
                    place = placed
                step = built_up(rules, place) - built_up(rules, place - 1)
                points[table_meld.credits.get(card_id, table_meld.owner)] += step
    return points


def best_next_turn(deal: Deal, seat: int) -> int:
    """The most ``seat`` could score with the cards in its hand in one more turn: melds among them, and
    lay-offs on the table as it stands, each card counted once (the playable cards' extra penalty)."""
    search = deal.variant.meld_search
    hand = [c for c in deal.hands[seat] if c.rank not in search.rules.excluded_ranks]
    targets = [tm.meld for tm in deal.table if tm.meld.kind in ("set", "run")]
    if any(search.is_wild(c) for c in hand):
        masks = every_mask(hand)  # a wild card may stand anywhere: no shape to go by
        layoffs = [(mask, index) for mask in masks for index in range(len(targets))]
        return most_in_one_turn(deal.variant, hand, targets, masks, layoffs)
    return most_in_one_turn(deal.variant, hand, targets, *candidate_uses(hand, targets))


def most_in_one_turn(
    variant: Any, hand: list[Card], targets: list[Meld], melds: Iterable[int], layoffs: Iterable[tuple[int, int]]
) -> int:
    """The most the cards of ``hand`` score in one turn, each card once, as melds among them and lay-offs on
    ``targets``. Every set of cards that can be a meld is among ``melds`` (bit i: ``hand[i]``), every lay-off
    among ``layoffs`` (cards, index of the target)."""
    rules = iceberg_rules(variant)
    search = variant.meld_search
    uses: dict[int, list[tuple[int, int, int]]] = {}  # lowest card -> (mask, target or -1, points)

    def cards_of(mask: int) -> list[Card]:
        return [hand[i] for i in range(len(hand)) if mask >> i & 1]

    for mask in melds:
        if mask & (mask - 1):  # two cards or more
            meld = search.meld(cards_of(mask))
            if meld is not None:
                uses.setdefault((mask & -mask).bit_length() - 1, []).append((mask, -1, meld_points(rules, meld)))
    for mask, index in layoffs:
        target = targets[index]
        if search.extend(target, cards_of(mask)) is not None:
            size = len(target.cards)
            gain = built_up(rules, size + mask.bit_count()) - built_up(rules, size)
            uses.setdefault((mask & -mask).bit_length() - 1, []).append((mask, index, gain))
    if not uses:
        return 0
    memo: dict[tuple[int, int], int] = {}

    def best(mask: int, used: int) -> int:
        # The most the cards of ``mask`` score, lay-offs going to table melds not in ``used`` (one lay-off per
        # table meld: several cards on one meld are one lay-off, whose places follow each other).
        if not mask:
            return 0
        key = (mask, used)
        if key in memo:
            return memo[key]
        low = (mask & -mask).bit_length() - 1
        result = best(mask & ~(1 << low), used)
        for use, target, points in uses.get(low, ()):
            if use & mask == use and (target < 0 or not used >> target & 1):
                rest = best(mask & ~use, used | (1 << target) if target >= 0 else used)
                result = max(result, points + rest)
        memo[key] = result
        return result

    playable = 0  # the cards some use takes: the others score nothing whatever is played
    for options in uses.values():
        for use, _, _ in options:
            playable |= use
    try:
        return best(playable, 0)
    finally:
        best = None  # type: ignore[assignment]  # (the function refers to itself: no cycle left behind)


def every_mask(hand: list[Card]) -> set[int]:
    """Every set of hand cards that might form a meld or a lay-off, wild cards or not: any cards of one rank,
    any cards of one suit, and any six cards of one parity and one colour (the special melds)."""
    masks: set[int] = set()
    for group in [*_groups(hand, lambda c: c.rank).values(), *_groups(hand, lambda c: c.suit).values()]:
        masks.update(_subsets(group))
    masks.update(_special_masks(hand))
    return masks


def candidate_uses(hand: list[Card], targets: list[Meld]) -> tuple[set[int], set[tuple[int, int]]]:
    """The sets of two or more hand cards (none wild) that might form a meld, and those that might be laid
    off on each of ``targets``, built by shape rather than by trying every set of one suit (2^n of them) on
    every target. Melds: any two or more cards of one rank; in a suit, one card of each rank of a block of
    ranks in a row, around the corner too; the special melds' sixes. Lay-offs: cards of a table set's rank;
    next to a table run, a block below it and a block above it."""
    melds: set[int] = set()
    layoffs: set[tuple[int, int]] = set()
    if not hand:  # the seat that went out
        return melds, layoffs
    by_rank = _groups(hand, lambda c: c.rank)
    by_suit: dict[int, dict[int, list[int]]] = {}  # suit -> rank (1 to 13) -> hand indexes
    for i, card in enumerate(hand):
        by_suit.setdefault(card.suit, {}).setdefault(card.rank, []).append(i)
    for group in by_rank.values():
        if group & (group - 1):  # one card alone is no meld
            melds.update([sub for sub in _subsets(group) if sub & (sub - 1)])
    for ranks in by_suit.values():
        for start in ranks:
            block = [start]
            while len(block) < 13 and _after(block[-1]) in ranks and _after(block[-1]) != start:
                block.append(_after(block[-1]))
            for length in range(2, len(block) + 1):
                melds.update(_one_of_each(ranks, block[:length]))
    melds.update(_special_masks(hand))
    for index, meld in enumerate(targets):
        if meld.kind == "set":
            for set_rank in {(r - 1) % 13 + 1 for r in meld.ranks}:
                held = by_rank.get(set_rank)
                if held:  # most table sets take no card of the hand
                    layoffs.update([(mask, index) for mask in _subsets(held)])
            continue
        covered = {(r - 1) % 13 + 1 for r in meld.ranks}
        if meld.suit is None or meld.suit not in by_suit or len(covered) == 13:
            continue
        ranks = by_suit[meld.suit]
        lowest = next(r for r in covered if _before(r) not in covered)
        highest = next(r for r in covered if _after(r) not in covered)
        below: list[int] = []  # the ranks held in a row under the run, nearest first
        rank = _before(lowest)
        while rank in ranks and len(covered) + len(below) < 13:
            below.append(rank)
            rank = _before(rank)
        above: list[int] = []  # and over it, short of meeting those
        rank = _after(highest)
        while rank in ranks and rank not in below and len(covered) + len(below) + len(above) < 13:
            above.append(rank)
            rank = _after(rank)
        for down in range(len(below) + 1):
            for up in range(len(above) + 1):
                if down or up:
                    layoffs.update((mask, index) for mask in _one_of_each(ranks, below[:down] + above[:up]))
    return melds, layoffs


def _after(rank: int) -> int:
    return rank % 13 + 1


def _before(rank: int) -> int:
    return (rank - 2) % 13 + 1


def _groups(hand: list[Card], key: Any) -> dict[int, int]:
    # By key (a rank, a suit): the bits of the hand's cards that have it.
    groups: dict[int, int] = {}
    for i, card in enumerate(hand):
        value = key(card)
        groups[value] = groups.get(value, 0) | (1 << i)
    return groups


def _subsets(group: int) -> Iterable[int]:
    sub = group
    while sub:
        yield sub
        sub = (sub - 1) & group


def _one_of_each(ranks: dict[int, list[int]], block: list[int]) -> Iterable[int]:
    # One card of each rank of ``block`` (with two decks, either copy).
    for choice in itertools.product(*(ranks[r] for r in block)):
        yield sum(1 << i for i in choice)


def _special_masks(hand: list[Card]) -> Iterable[int]:
    # Six cards of one parity and one colour, aces aside: the hand's cards grouped by both in one pass.
    if len(hand) < 6:
        return
    groups: dict[tuple[int, int], list[int]] = {}
    for i, c in enumerate(hand):
        colour = _COLOUR_OF.get(c.suit)
        if colour is not None and c.rank > 1:
            groups.setdefault((c.rank % 2, colour), []).append(i)
    for members in groups.values():
        if len(members) >= 6:
            for six in itertools.combinations(members, 6):
                yield sum(1 << i for i in six)


def aces_held(deal: Deal, seat: int) -> int:
    """The aces ``seat`` laid face up, and (``rules.aces_left_in_hand: ace``) those still in its hand."""
    laid = len(deal.zones[ACES].cards[seat]) if ACES in deal.zones else 0
    if iceberg_rules(deal.variant).aces_left_in_hand == "ace":
        laid += sum(1 for c in deal.hands[seat] if c.rank == 1)
    return laid


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult:
    variant = deal.variant
    rules = iceberg_rules(variant)
    aces_as_aces = rules.aces_left_in_hand == "ace"
    melded = melded_points(deal)
    n = deal.game.num_players
    in_hand, playable, aces, scores = [0] * n, [0] * n, [0] * n, [0] * n
    breakdown: list[list[tuple[str, str]]] = [[] for _ in range(n)]
    for seat in deal.seats:
        in_hand[seat] = sum(variant.value(c) for c in deal.hands[seat] if not (aces_as_aces and c.rank == 1))
        playable[seat] = best_next_turn(deal, seat)
        aces[seat] = aces_held(deal, seat)
        total = melded[seat] - in_hand[seat] - playable[seat]
        if rules.aces == "multiply":
            scores[seat] = total * (1 + aces[seat])
            ace_text = ("ace multiplier", f"x{1 + aces[seat]}")
        else:
            scores[seat] = total + rules.ace_bonus * aces[seat]
            ace_text = ("aces", f"{rules.ace_bonus * aces[seat]:+d}")
        breakdown[seat] = [
            ("melded", str(melded[seat])),
            ("cards in hand", str(-in_hand[seat])),
            ("playable", str(-playable[seat])),
            ace_text,
            ("hand score", str(scores[seat])),
        ]
    winner = deal.current if kind == "out" else None
    details = {
        "melded": melded,
        "in_hand": [-p for p in in_hand],
        "playable": [-p for p in playable],
        "aces": aces,
        "breakdown": breakdown,
    }
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer, details)


# -- words ------------------------------------------------------------------------------------------------


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    if action.kind != EXPOSE:
        return None
    cards = " ".join(map(str, action.cards))
    return ActionWords(f"lay {cards} face up", f"lays {cards} face up")


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    if ACES not in deal.zones:
        return
    names = deal.game.names
    laid = [f"{'you' if s == seat else names[s]} {' '.join(map(str, held))}"
            for s, held in enumerate(deal.zones[ACES].cards) if held]  # fmt: skip
    out = sum(map(len, deal.zones[ACES].cards))
    words.facts.append(f"Aces face up: {'; '.join(laid) or 'none'} ({iceberg_state(deal).aces_total - out} to come)")


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    if ACES in deal.zones:
        view["aces_to_come"] = iceberg_state(deal).aces_total - sum(map(len, deal.zones[ACES].cards))
