"""Actions and their text form.

An :class:`Action` is one move: a verb (``kind``), the cards it names, and for some verbs a table meld
(``target``). Its text form round-trips: ``str(Action.parse(text))`` is the canonical text, and
:meth:`Game.apply <rummykit.engine.Game.apply>` accepts either. The grammar::

    action  := verb+ [cards] ["on" N]
    cards   := group ("|" group)*              several melds laid in one action
    group   := card+
    card    := CARD ["=" CARD]                 a wild card and the card it stands for

Examples: ``draw stock``, ``discard 7H``, ``meld 7S 7H 7D``, ``meld 5H 6H 2C=7H``,
``meld 7H 7S 7D | 8C 8D 8S | 9H 9C 2S``, ``layoff 8C on 2``, ``layoff 2C=8H on 3``,
``take pile with 7S 7D``, ``swap 6H on 3``, ``offer 7H``, ``accept``, ``decline``.
A verb is any run of words without digits (a token with a digit is a card, so ``discard 9Z`` is refused
as a bad card rather than read as a verb). Cards are written as in :mod:`rummykit.cards`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Card, CardError, parse_card

if TYPE_CHECKING:
    from .engine import Deal

__all__ = [
    "Action",
    "ActionWords",
    "PositionWords",
    "Verb",
    "VERB_SHAPES",
    "action_words",
    "position_words",
    "IllegalAction",
    "ActionTextError",
    "MAX_ACTION_TEXT",
]

MAX_ACTION_TEXT = 2000
"""Longer action texts are refused before they are read (no action names more than a few decks' cards)."""


class IllegalAction(ValueError):
    """An action that is not legal now. The game is left exactly as it was."""


class ActionTextError(IllegalAction):
    """Text that is not an action in the documented grammar."""


@dataclass(frozen=True, slots=True)
class Action:
    """One move. ``kind`` is the verb (``draw stock``, ``discard``, ``knock``, ``meld``, ``layoff``,
    ``take pile with``, ``swap``, ``offer``, ``accept``...), ``cards`` the cards it names and ``target``
    the table meld it goes to (lay-offs, exchanges).

    ``groups`` gives the sizes of several melds named at once (``meld 7H 7S 7D | 8C 8D 8S``: ``(3, 3)``);
    empty for one group. ``stands_for`` gives, per card, the card a wild card stands for (``2C=7H``), or
    None; empty when no card says.
    """

    kind: str
    cards: tuple[Card, ...] = ()
    target: int | None = None
    groups: tuple[int, ...] = ()
    stands_for: tuple[Card | None, ...] = ()

    def __str__(self) -> str:
        text = self.kind
        if self.cards:
            text += " " + self.cards_text()
        if self.target is not None:
            text += f" on {self.target}"
        return text

    def cards_text(self) -> str:
        """The cards as the action's text names them: each wild card with what it stands for (``2C=TD``), the
        melds of a contract apart (``7H 7S 7D | 8C 8D 8S``). Messages about the cards quote this, so that a
        wild card is never shown without its place."""
        return " | ".join(" ".join(self._card_text(i) for i in group) for group in self._index_groups())

    def _card_text(self, index: int) -> str:
        card = self.cards[index]
        meant = self.stands_for[index] if self.stands_for else None
        return str(card) if meant is None else f"{card}={meant}"

    def _index_groups(self) -> Iterator[range]:
        start = 0
        for size in self.groups or (len(self.cards),):
            yield range(start, start + size)
            start += size

    def melds(self) -> list[tuple[tuple[Card, ...], tuple[Card | None, ...]]]:
        """The groups this action names, each as (cards, what each card stands for)."""
        result = []
        for group in self._index_groups():
            cards = tuple(self.cards[i] for i in group)
            meant = tuple(self.stands_for[i] for i in group) if self.stands_for else (None,) * len(cards)
            result.append((cards, meant))
        return result

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self  # immutable, and listed actions are shared between turns

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action's text form. Raises :class:`ActionTextError` (an :class:`IllegalAction`) saying
        what is wrong."""
        if len(text) > MAX_ACTION_TEXT:
            raise ActionTextError(f"an action is at most {MAX_ACTION_TEXT} characters, not {len(text)}")
        tokens = text.replace(",", " ").replace("|", " | ").split()
        if not tokens:
            raise ActionTextError("empty action: type an action such as 'draw stock' or 'discard 7H'")
        words: list[str] = []
        cards: list[Card] = []
        meant: list[Card | None] = []
        groups: list[int] = []
        target = None
        size = 0
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.lower() == "on" and i + 1 < len(tokens) and (cards or words):
                try:
                    target = int(tokens[i + 1])
                except ValueError:
                    raise ActionTextError(f"'on' is followed by a meld number, not {tokens[i + 1]!r}") from None
                if i + 2 != len(tokens):
                    raise ActionTextError(f"unexpected text after 'on {target}': {' '.join(tokens[i + 2 :])!r}")
                break
            if token == "|":
                if size == 0:
                    raise ActionTextError("'|' separates melds: a meld is missing before it")
                groups.append(size)
                size = 0
                i += 1
                continue
            card_text, _, meant_text = token.partition("=")
            try:
                card = parse_card(card_text)
            except CardError as exc:
                # Verbs have no digits and come first: anything else is a card that is wrong.
                if cards or meant_text or (words and any(ch.isdigit() for ch in token)):
                    raise ActionTextError(str(exc)) from None
                words.append(token.lower())
                i += 1
                continue
            if meant_text:
                try:
                    stood = parse_card(meant_text)
                except CardError as exc:
                    raise ActionTextError(f"after '=' comes the card {card} stands for: {exc}") from None
            else:
                stood = None
            cards.append(card)
            meant.append(stood)
            size += 1
            i += 1
        if not words:
            raise ActionTextError(f"{text!r} has no verb: start with one such as 'draw', 'discard' or 'knock'")
        if groups:
            if size == 0:
                raise ActionTextError("'|' separates melds: a meld is missing after it")
            groups.append(size)
        return Action(
            " ".join(words),
            tuple(cards),
            target,
            tuple(groups),
            tuple(meant) if any(m is not None for m in meant) else (),
        )

    @staticmethod
    def of(kind: str, card: Card) -> Action:
        """The action ``kind`` with one card (``discard 7H``), shared rather than rebuilt every turn."""
        table = _ONE_CARD_ACTIONS.get(kind)
        if table is None:
            table = _ONE_CARD_ACTIONS[kind] = OneCardActions(kind)
        return table[card]

    def same_as(self, other: Action) -> bool:
        """The same move, ignoring which copy of a card is named and the order of cards within a meld (and of
        the melds themselves)."""
        if self.kind != other.kind or self.target != other.target or len(self.cards) != len(other.cards):
            return False
        if not self.groups and not self.stands_for and not other.groups and not other.stands_for:
            return sorted(c.face for c in self.cards) == sorted(c.face for c in other.cards)
        return _meld_key(self) == _meld_key(other)


@dataclass(frozen=True, slots=True)
class ActionWords:
    """How an action reads to people, and what bots need to know of it beyond its verb: the answer of the
    ``rummykit_describe_action`` hook.

    ``you`` follows "You" (``knock with 8D face down``), ``they`` follows a player's name (``knocks with 8D
    face down``). Neither names a card its reader may not see.
    """

    you: str
    they: str
    ends_hand: bool = False
    """Taking it ends the hand on the player's own terms (a knock, gin, going out): a bot that wants the
    hand over takes such an action when one is legal."""


VERB_SHAPES = frozenset({"bare", "card", "melds", "card on meld", "on meld"})
"""How an action of a verb may name cards: ``bare`` (no card: ``draw stock``), ``card`` (one card:
``discard 7H``), ``melds`` (cards that form melds, several melds at once: ``meld 7S 7H 7D``), ``card on
meld`` (one card onto table meld k: ``layoff 8C on 2``), ``on meld`` (no card, onto table meld k: ``take
pile on 2``)."""


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb a game's actions use, as its plugin declares it in the ``rummykit_verbs`` hook. The faces
    read verbs from here rather than knowing any game: the terminal's short forms and the reinforcement-learning
    action space (which needs every verb's shapes before a game is played)."""

    name: str
    shapes: frozenset[str] = frozenset({"bare"})
    """How its actions name cards, any of :data:`VERB_SHAPES`; a verb said both bare and with a card
    (``draw discard``, ``draw discard 7H``) has both."""
    short: str | None = None
    """A letter a person may type instead of the verb at the terminal (``k 9S`` for ``knock 9S``)."""

    def __post_init__(self) -> None:
        unknown = set(self.shapes) - VERB_SHAPES
        if not self.shapes or unknown:
            raise ValueError(f"verb {self.name!r}: shapes are some of {sorted(VERB_SHAPES)}, not {sorted(self.shapes)}")
        if self.short is not None and (len(self.short) != 1 or not self.short.isalpha()):
            raise ValueError(f"verb {self.name!r}: its short form is one letter, not {self.short!r}")


@dataclass(slots=True)
class PositionWords:
    """What a player is told about the position besides the cards, filled in by the
    ``rummykit_describe_position`` hook, the kernel first and then each plugin."""

    hint: str
    """What to do now: ``draw a card (draw stock, draw discard)``, ``discard a card, or knock``."""
    facts: list[str] = field(default_factory=list)
    """Short facts about the deal shown beside the pile and the stock (``Knock limit: 10``)."""
    verbs: list[str] = field(default_factory=list)
    """Every verb of the game, legal now or not, for suggesting what a mistyped action meant."""


def action_words(deal: Deal, seat: int, action: Action, viewer: int | None = None) -> ActionWords | None:
    """How ``action`` by ``seat`` reads to ``seat`` and to ``viewer`` (None: an onlooker), from the
    ``rummykit_describe_action`` hook; None when no plugin describes it."""
    words: ActionWords | None = deal.variant.hook.rummykit_describe_action(
        deal=deal, seat=seat, action=action, viewer=viewer
    )
    return words


def position_words(deal: Deal, seat: int) -> PositionWords:
    """What ``seat`` is told about the position besides the cards, from the ``rummykit_describe_position``
    hook: a hint of what to do now, facts about the deal, the game's verbs."""
    words = PositionWords(deal.phase)
    deal.variant.hook.rummykit_describe_position(deal=deal, seat=seat, words=words)
    return words


_NAMING_CARDS = frozenset({"card", "melds", "card on meld"})
"""The shapes of a verb (:data:`VERB_SHAPES`) whose actions name cards."""


def parse_cards_of(token: str) -> None:
    """Raise :class:`~rummykit.cards.CardError` unless ``token`` is a card, or a wild card with what it stands
    for (``2H=TS``)."""
    for part in token.split("=", 1):
        parse_card(part)


def unknown_card(deal: Deal, legal: Sequence[Action], text: str) -> str | None:
    """Why ``text`` (typed, or read from a record) names something that is no card after a verb that takes
    cards, as in ``discard ZZ``: the card's own error (``'ZZ' is not a card: ...``); None when it does not.
    The verbs are those of ``legal`` that name cards and the game's verbs of a shape that names cards
    (``pass zz`` is left to the game's own refusal: ``pass`` names no card)."""
    verbs = {a.kind for a in legal if a.cards}
    verbs.update(name for name, verb in deal.variant.verbs.items() if verb.shapes & _NAMING_CARDS)
    words = text.replace(",", " ").replace("|", " ").split()  # '|' separates the melds of a contract
    for verb in sorted(verbs, key=len, reverse=True):
        size = len(verb.split())
        if [w.lower() for w in words[:size]] != verb.split():
            continue
        rest = words[size:]  # (the verb alone, 'take pile with': the game says what it lacks)
        if len(rest) >= 2 and rest[-2].lower() == "on":
            rest = rest[:-2]
        for token in rest:
            try:
                parse_cards_of(token)
            except CardError as exc:
                return str(exc)
        return None
    return None


def _meld_key(action: Action) -> list[list[tuple[int, int]]]:
    return sorted(
        sorted((c.face, m.face if m is not None else -1) for c, m in zip(cards, meant))
        for cards, meant in action.melds()
    )


class OneCardActions(dict[Card, Action]):
    """``table[card]`` is the shared action ``kind card`` (``on target`` when given), made on first use: one
    dict lookup per card."""

    def __init__(self, kind: str, target: int | None = None):
        super().__init__()
        self.kind = kind
        self.target = target

    def __missing__(self, card: Card) -> Action:
        action = self[card] = Action(self.kind, (card,), self.target)
        return action


class OneCardActionsOn(dict[int, OneCardActions]):
    """``table[target][card]`` is the shared action ``kind card on target``: lay-offs of one card, listed
    for every table meld at every turn."""

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def __missing__(self, target: int) -> OneCardActions:
        actions = self[target] = OneCardActions(self.kind, target)
        return actions


_ONE_CARD_ACTIONS: dict[str, OneCardActions] = {}
