"""A finished hand's result in words: what the ``rummykit_describe_result`` hook fills in.

Every face (the terminal, the web page, the lab, the environments) shows a hand's result through
:func:`describe_result`, never by reading a game's ``HandResult.details`` itself: the kernel describes
what every game has (the points, the melds on the table, the cards left, ``details["breakdown"]``), and
a game's plugin says what only it knows (Gin: the knock, the deadwood, the cards laid off).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import card_from_face

if TYPE_CHECKING:
    from .engine import Deal, Game, HandResult
    from .melds import Meld, MeldSearch

__all__ = ["ResultWords", "SeatResult", "describe_result", "meld_text"]


@dataclass
class SeatResult:
    """One seat's line of a result: ``North (knocker, deadwood 5): [4C 4D 4S] [7H 8H 9H]; unmatched 2C 3D``."""

    seat: int
    notes: list[str] = field(default_factory=list)
    """Shown in brackets after the seat's name (``knocker``, ``deadwood 5``)."""
    laid: list[str] = field(default_factory=list)
    """The melds the seat laid, each as its cards (``4C 4D 4S``)."""
    held: list[str] = field(default_factory=list)
    """The cards left in its hand."""
    held_as: str = "in hand"
    """What the cards left are called (Gin: ``unmatched``)."""
    counted: list[tuple[str, Any]] = field(default_factory=list)
    """How the seat's points were counted, as (label, value) pairs (``melded 50``, ``cards in hand -50``)."""

    def text(self) -> str:
        """The line after the seat's name."""
        notes = f" ({', '.join(self.notes)})" if self.notes else ""
        laid = " ".join(f"[{meld}]" for meld in self.laid) or "no melds"
        counted = " (" + ", ".join(f"{label} {value}" for label, value in self.counted) + ")" if self.counted else ""
        return f"{notes}: {laid}; {self.held_as} {' '.join(self.held) or '-'}{counted}"


@dataclass
class ResultWords:
    """A finished hand's result for people: a headline, a line per seat, further lines, and per-seat figures.

    ``names`` are the seats' names as the face shows them (``You`` for the reader ``viewer``); write other
    seats' names with :meth:`name` and verbs that agree with them with :meth:`verb`. Texts count table melds
    from 1, as people do.
    """

    names: list[str]
    viewer: int | None = None
    ending: str = ""
    """How the hand ended (``knock by North``, ``a player went out``)."""
    scored: str = ""
    """Who scored what (``North scores 12``, ``Nobody scores``)."""
    remarks: list[str] = field(default_factory=list)
    """Sentences that follow the headline (``(3 cards left in the stock)``)."""
    seats: list[SeatResult] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    """Further lines after the seats' (``Laid off: 4H on [4C 4D 4S]``, ``Bonuses: ...``)."""
    figures: dict[str, list[int | None]] = field(default_factory=dict)
    """Numbers per seat a game reports for statistics, by name (Gin: ``knock deadwood``, the knocker's
    deadwood at the others' seats None). The lab averages them over the hands that have them."""

    def name(self, seat: int) -> str:
        """``seat``'s name as shown."""
        return self.names[seat]

    def verb(self, seat: int, you: str, they: str) -> str:
        """``you`` when ``seat`` is the reader, else ``they`` (``score``/``scores``)."""
        return you if seat == self.viewer else they

    def headline(self) -> str:
        """``knock by North. North scores 12.`` and the remarks."""
        return " ".join([f"{self.ending}. {self.scored}.", *self.remarks])

    def body(self) -> list[str]:
        """The seats' lines and the further lines, each indented by three spaces."""
        lines = [f"   {self.name(s.seat)}{s.text()}" for s in self.seats]
        return lines + [f"   {line}" for line in self.lines]

    def as_dict(self) -> dict[str, Any]:
        """As plain data (the web page's ``words`` of a result)."""
        return {
            "ending": self.ending,
            "scored": self.scored,
            "headline": self.headline(),
            "seats": [{"seat": s.seat, "name": self.name(s.seat), "text": s.text()} for s in self.seats],
            "lines": list(self.lines),
            "figures": {name: list(values) for name, values in self.figures.items()},
        }


def describe_result(
    game: Game, deal: Deal | None, result: HandResult, names: Sequence[str] | None = None, viewer: int | None = None
) -> ResultWords:
    """``result`` (of ``deal``, when the deal is at hand) in the words of the ``rummykit_describe_result`` hook,
    naming the seats ``names`` (the game's names by default) as read by ``viewer``."""
    words = ResultWords(list(game.names if names is None else names), viewer)
    game.variant.hook.rummykit_describe_result(game=game, deal=deal, result=result, words=words)
    return words


def meld_text(meld: Meld, search: MeldSearch) -> str:
    """A meld's cards, each wild card with what it stands for in a set or run (``KS 2H=QS JS``)."""
    if not (meld.wilds and meld.kind in ("set", "run")):
        return " ".join(map(str, meld.cards))
    pairs = zip(meld.cards, meld.faces)
    return " ".join(f"{card}={card_from_face(face)}" if search.is_wild(card) else str(card) for card, face in pairs)


_KERNEL_ENDINGS = {
    "out": "a player went out",
    "exhausted": "the stock ran out",
    "turn-limit": "the hand reached its turn limit (max_turns) and is abandoned",  # engine.TURN_LIMIT
}


def kernel_words(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    """What the kernel says of any hand (its ``rummykit_describe_result``): the ending (``a player went
    out``, ``the stock ran out``, else the result's kind), the points, each seat's melds and cards left
    with ``details["breakdown"]`` (or ``melded``/``in_hand``/``bonus``), and ``details["bonuses"]``."""
    details = result.details
    words.ending = _KERNEL_ENDINGS.get(result.kind, result.kind)
    scored = [f"{words.name(s)} {words.verb(s, 'score', 'scores')} {p}" for s, p in enumerate(result.scores) if p]
    words.scored = ", ".join(scored) or "Nobody scores"
    if deal is not None and deal.result is result:
        search = game.variant.meld_search
        melded, in_hand = details.get("melded"), details.get("in_hand")
        breakdown = details.get("breakdown")
        for seat in deal.seats:
            line = SeatResult(seat, held=[str(c) for c in sorted(deal.hands[seat])])
            line.laid = [meld_text(tm.meld, search) for tm in deal.table if tm.owner == seat]
            if isinstance(breakdown, (list, tuple)) and seat < len(breakdown) and breakdown[seat]:
                line.counted = [(str(label), value) for label, value in breakdown[seat]]
            elif isinstance(melded, list) and isinstance(in_hand, list):
                line.counted = [("melded", melded[seat]), ("in hand", f"-{in_hand[seat]}" if in_hand[seat] else "0")]
                bonus = details.get("bonus")
                if isinstance(bonus, list) and bonus[seat]:
                    line.counted.append(("bonus", f"+{bonus[seat]}"))
            words.seats.append(line)
    bonuses = details.get("bonuses")
    if isinstance(bonuses, list) and bonuses:  # [[seat, name, points], ...]
        words.lines.append("Bonuses: " + ", ".join(f"{words.name(b[0])} {b[1]} {b[2]:+d}" for b in bonuses))
