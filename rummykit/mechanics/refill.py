"""Making the stock again from the pile (``draw.empty_stock: turn-over`` or ``reshuffle``, the Fortune
family).

When the stock runs out (the last card drawn, or at the end of a turn), the discard pile less its top card
becomes the new stock: turned over as it lies (``turn-over``: the pile's bottom card is the new stock's top),
or shuffled (``reshuffle``); the top card stays as the new pile. A pile of fewer than two cards makes no
stock. ``draw.rebuilds`` limits how often a deal's stock is made again (:class:`RefillState` counts them); once
the stock runs out after that, the hand ends as it would without this rule (``exhausted``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import standard
from ..actions import Action
from ..engine import Deal
from ..hookspecs import hookimpl
from ..ruleset import Problem, clash
from ..settings import KernelSettings

SELECTED_BY = "draw.empty_stock: turn-over or reshuffle"
"""The ruleset values that bring this mechanic into a game."""


SCHEMA: dict[str, dict[str, Any]] = {
    "draw": {
        "rebuilds": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "how many times a deal's stock may be made again from the pile (null: every time it "
            "runs out); when it runs out once more, the hand ends",
        },
    },
}
"""The ruleset keys only this mechanic reads, by block: put into the ruleset's schema."""


@dataclass(frozen=True)
class Settings:
    """The ruleset values only this mechanic reads, with their defaults."""

    rebuilds: int | None = None
    """``draw.rebuilds``: how many times a deal's stock may be made again from the pile (None: as often as it
    runs out); once more it runs out, the hand ends as the stock's end does (``exhausted``)."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Settings:
        """The values of a merged ruleset (the defaults above where it leaves them out)."""
        return cls(rebuilds=data.get("draw", {}).get("rebuilds", cls.rebuilds))


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """``draw.rebuilds`` limits a stock that is made again."""
    if Settings.read(data or kernel.ruleset).rebuilds is not None and kernel.empty_stock == "end":
        message = "rebuilds goes with empty_stock: turn-over or reshuffle"
        return [clash(locate, ("draw", "rebuilds"), message, ("draw", "empty_stock"))]
    if kernel.empty_stock != "end" and kernel.discard_pile == "none":
        message = (
            f"{kernel.empty_stock} makes a new stock from the discard pile, and discard_pile is none: expected end"
        )
        return [clash(locate, ("draw", "empty_stock"), message, ("discard_pile",))]
    return []


@dataclass
class RefillState:
    """This mechanic's per-deal state (``deal.state_of(RefillState)``)."""

    STATE_KEY: ClassVar[str] = __name__

    rebuilds: int = 0
    """How many times this deal's stock was made again from the pile."""


def refill_stock(deal: Deal) -> bool:
    """Make a new stock from the pile less its top card, as the ruleset's ``draw.empty_stock`` says. False
    when the pile is too small or the stock was made again as often as ``draw.rebuilds`` allows."""
    limit = deal.variant.mechanic_settings[__name__].rebuilds
    state = deal.state_of(RefillState)
    if len(deal.discard) < 2 or (limit is not None and state.rebuilds >= limit):
        return False
    state.rebuilds += 1
    top = deal.discard.pop()
    rest = deal.discard
    deal.discard = [top]
    if deal.variant.empty_stock == "reshuffle":
        deal.game.rng.shuffle(rest)
        deal.stock = rest
    else:
        deal.stock = rest[::-1]  # turned over: the pile's bottom card is the new stock's top (its last element)
    deal.face_down.difference_update(c.id for c in rest)
    return True


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    """Drawing the stock's last card makes a new stock at once."""
    if action.kind != "draw stock":
        return None
    standard.draw_from_stock(deal, deal.current)
    if not deal.stock and deal.result is None:
        refill_stock(deal)
    return True


@hookimpl
def rummykit_stock_exhausted(deal: Deal) -> str | None:
    """A turn ended with the stock empty: make it again and play on (or let the rules end the hand)."""
    return "" if refill_stock(deal) else None
