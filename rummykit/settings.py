"""The kernel's ruleset values with their defaults, read in one typed place: the Variant, the kernel's
hooks and validation all take them from here (``docs/rulesets.md`` describes each). A value only one
mechanic reads is declared, defaulted and checked in that mechanic's module (:mod:`rummykit.mechanics`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import RANKS, SUITS

__all__ = [
    "MAX_DECKS",
    "MAX_JOKERS",
    "MAX_HAND_SIZE",
    "MAX_WILD_HAND_SIZE",
    "MAX_WILD_CARDS",
    "MAX_WILD_CARDS_TRIED",
    "PER_PLAYER_DEFAULTS",
    "RANK_KEYS",
    "KernelSettings",
    "Pack",
    "per_players",
    "wild_cards",
]

# Bounds on the work a ruleset asks of the engine: finding melds and the least deadwood grows with the
# cards a hand holds and steeply (exponentially) with the wild cards among them. Within these bounds a
# turn's legal actions take well under a second (docs/rulesets.md gives the measurements).

MAX_DECKS = 4
"""The most 52-card decks a ruleset may use (the largest rummy games use three or four; shipped: two)."""

MAX_JOKERS = 8
"""The most jokers a ruleset may add (two a deck; shipped: four)."""

MAX_HAND_SIZE = 30
"""The most cards dealt to a hand (shipped: thirteen)."""

MAX_WILD_HAND_SIZE = 15
"""The most cards dealt to a hand when some cards are wild (shipped: thirteen)."""

MAX_WILD_CARDS = 12
"""The most wild cards the decks may hold (shipped: Skarney's eight 2s and four jokers)."""

MAX_WILD_CARDS_TRIED = 4
"""The most wild cards with sets of distinct suits or a longest run (``melds.set_distinct_suits``,
``melds.run_max``): the least deadwood is then found by trying every meld, far slower with wild cards."""

PER_PLAYER_DEFAULTS: dict[tuple[str, str], int] = {
    ("decks", "count"): 1,
    ("decks", "jokers"): 0,
    ("deal", "hand_size"): 7,
}
"""Ruleset values that may depend on the player count, with their defaults when a ruleset omits them."""

RANK_KEYS: dict[str, int] = {**{r: i + 1 for i, r in enumerate(RANKS)}, "10": 10}
"""How a ruleset names a rank (``A``, ``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``), to its number."""


@dataclass(frozen=True)
class Pack:
    """What one deck holds and the order of its ranks in a run (``decks.ranks``, ``decks.suits``,
    ``melds.run_order``): by default the 52 cards, runs A 2 .. K."""

    ranks: tuple[int, ...] = tuple(range(1, 14))
    """The ranks a deck holds (1..13), in the usual order."""
    suits: tuple[int, ...] = tuple(range(4))
    """The suits a deck holds (0..3 for ``C D H S``)."""
    order: tuple[int, ...] = tuple(range(1, 14))
    """The ranks that follow each other in a run, lowest first (default: :attr:`ranks`)."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Pack:
        """The pack of a merged ruleset (values a schema refuses are left out, never an error here)."""
        decks = data.get("decks", {})
        ranks = cls._ranks(decks.get("ranks")) or cls.ranks
        suits = tuple(sorted({SUITS.index(s) for s in decks.get("suits") or () if s in SUITS})) or cls.suits
        order = cls._ranks(data.get("melds", {}).get("run_order"), keep_order=True) or ranks
        return cls(tuple(sorted(ranks)), suits, order)

    @staticmethod
    def _ranks(items: Any, keep_order: bool = False) -> tuple[int, ...]:
        ranks: list[int] = []
        for item in items or ():
            rank = RANK_KEYS.get(str(item))
            if rank is not None and rank not in ranks:
                ranks.append(rank)
        return tuple(ranks) if keep_order else tuple(sorted(ranks))

    @property
    def usual(self) -> bool:
        """Whether this is the usual 52-card pack with runs A 2 .. K."""
        return self == Pack()

    @property
    def size(self) -> int:
        """Cards in one deck (52 for the usual pack)."""
        return len(self.ranks) * len(self.suits)

    @property
    def faces(self) -> frozenset[int]:
        """The faces (0..51) of the natural cards a deck holds."""
        return frozenset(suit * 13 + rank - 1 for suit in self.suits for rank in self.ranks)

    def holds(self, rank: int, suit: int | None = None) -> bool:
        """Whether a deck holds cards of ``rank`` (of ``suit``, when given); a joker's rank 0 is not a rank."""
        return rank in self.ranks and (suit is None or suit in self.suits)

    def text(self) -> str:
        """The pack as a ruleset writes it: ``A 2 3 4 5 6 7 J Q K`` (and its suits when not all four)."""
        ranks = " ".join(RANKS[r - 1] for r in self.ranks)
        return ranks if len(self.suits) == 4 else f"{ranks} of {' '.join(SUITS[s] for s in self.suits)}"


def wild_cards(wild: Sequence[str], decks: int, jokers: int, suits: int = 4) -> int:
    """How many cards ``melds.wild`` (ranks, cards or ``JK``) makes wild in ``decks`` decks of ``suits`` suits
    with ``jokers``."""
    ranks = {RANK_KEYS[item] for item in wild if item in RANK_KEYS}  # T and 10 are one rank
    cards = {(RANK_KEYS.get(item[:-1]), item[-1]) for item in wild if item != "JK" and item not in RANK_KEYS}
    single = [card for card in cards if card[0] not in ranks]  # a card of a wild rank is counted with it
    return suits * decks * len(ranks) + decks * len(single) + (jokers if "JK" in wild else 0)


def per_players(data: Mapping[str, Any], block: str, key: str, players: int) -> int:
    """``data[block][key]`` for ``players``: a number, or a mapping by player count with ``default``."""
    default = PER_PLAYER_DEFAULTS[(block, key)]
    spec = data.get(block, {}).get(key)
    if spec is None:
        return default
    if isinstance(spec, int):
        return spec
    return int(spec.get(str(players), spec.get("default", default)))


@dataclass(frozen=True)
class KernelSettings:
    """How the kernel plays a ruleset's turn: every kernel value and its default."""

    discard_pile: str = "squared"
    """``squared`` (only the top card is seen), ``fanned`` (every card is seen) or ``none`` (no open pile:
    no upcard, nothing drawn from it, discards lie face down)."""
    upcard: bool = True
    """One card turned up to start the pile (default: unless ``discard_pile`` is ``none``)."""
    draw_from_pile: str = "top"
    """``top``, ``any`` (a card with all above it), ``whole`` (the whole pile) or ``none``."""
    must_use: str = "none"
    """``deepest``: the deepest card taken from the pile must be melded or laid off at once; ``top`` (with
    ``from_pile: whole``): the top card is melded with two or more cards from hand first."""
    empty_stock: str = "end"
    """When the stock runs out: ``end`` the hand, ``turn-over`` the pile less its top card, or ``reshuffle`` it."""
    turn_end: str = "discard"
    """How a turn ends: with a ``discard``, an ``offer`` to the other players, or ``done`` (``end turn``)."""
    discard_to: str = "pile"
    """Where a discard goes: onto the ``pile``, or face down to the ``right``-hand (previous) or ``left``-hand
    (next) player, who takes it up at the start of their next turn (a move the rules make, ``take up``)."""
    melds_on_table: bool = False
    layoff_mode: str = "any"
    """On whose melds a player may lay off: ``any``, ``own`` (own side's) or ``none``."""
    exchange: str = "none"
    """Who may exchange a natural card for a wild card on the table: ``none``, ``any``, ``own-side``,
    ``opponents``, or ``layer`` (the player who laid the wild card)."""
    discard_to_go_out: str = "optional"
    """``optional`` or ``required`` (a player keeps one card to discard on going out)."""
    partnerships: bool = False
    ruleset: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The merged ruleset these values were read from: a mechanic reads its own values from it."""

    def __getattr__(self, name: str) -> Any:
        moved = MOVED_VALUES.get(name)
        if moved is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        module, read = moved
        warnings.warn(
            f"KernelSettings.{name} moved to the settings of {module} ({module}.Settings)",
            DeprecationWarning,
            stacklevel=2,
        )
        return read(self.ruleset)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> KernelSettings:
        """The settings of a merged ruleset (its values where given, the defaults above otherwise)."""
        draw = data.get("draw", {})
        table = data.get("table", {})
        pile = data.get("discard_pile", cls.discard_pile)
        return cls(
            discard_pile=pile,
            upcard=bool(data.get("deal", {}).get("upcard", pile != "none")),
            draw_from_pile=draw.get("from_pile", cls.draw_from_pile),
            must_use=draw.get("must_use", cls.must_use),
            empty_stock=draw.get("empty_stock", cls.empty_stock),
            turn_end=data.get("turn", {}).get("end", cls.turn_end),
            discard_to=data.get("turn", {}).get("discard_to", cls.discard_to),
            melds_on_table=bool(table.get("melds", cls.melds_on_table)),
            layoff_mode=table.get("layoff", cls.layoff_mode),
            exchange=table.get("exchange", cls.exchange),
            discard_to_go_out=table.get("discard_to_go_out", cls.discard_to_go_out),
            partnerships=bool(data.get("partnerships", cls.partnerships)),
            ruleset=data,
        )


MOVED_VALUES: dict[str, tuple[str, Callable[[Mapping[str, Any]], Any]]] = {}
"""Values that moved from :class:`KernelSettings` to a mechanic's settings, by name: (the mechanic's module,
how to read the value from a ruleset), filled in by :mod:`rummykit.mechanics`. They keep working for a
release, with a DeprecationWarning."""
