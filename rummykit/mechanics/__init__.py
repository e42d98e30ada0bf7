"""The mechanics only some games use, each a plugin module of its own.

Every game gets the plain turn (:mod:`rummykit.standard`) first; then, in the order of :data:`MECHANICS`,
the mechanics its ruleset selects; then the game's own plugins and its house rules. Each mechanic
implements the hooks for its own verbs and phases only, through the same hooks and the same
:mod:`rummykit.toolkit` a game's plugin uses. ``docs/hooks.md`` lists them with the ruleset values that
select them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .. import engine, ruleset, settings, standard
from ..ruleset import Problem
from ..settings import KernelSettings
from . import end_turn, exchange, offers, pass_face_down, pile_draw, refill, whole_pile

if TYPE_CHECKING:
    from ..variant import Variant

__all__ = ["MECHANICS", "selected", "legality", "settings_of", "card_lists", "ruleset_problems", "docs_section"]

MECHANICS: tuple[tuple[ModuleType, Callable[[KernelSettings], bool]], ...] = (
    (whole_pile, lambda k: k.draw_from_pile == "whole"),
    (pile_draw, lambda k: k.draw_from_pile == "any" or k.must_use == "deepest"),
    (exchange, lambda k: k.exchange != "none"),
    (offers, lambda k: k.turn_end == "offer"),
    (end_turn, lambda k: k.turn_end == "done"),
    (pass_face_down, lambda k: k.discard_to != "pile"),
    (refill, lambda k: k.empty_stock != "end"),
)
"""Each mechanic with the test of the ruleset's kernel values that selects it, in the order they are
registered (the order their actions are listed in, their words read, and, last first, their answers to
first-result hooks are asked: the stock is made again before the pile is offered to an empty stock's
player)."""


_NAMES_MOVED = {
    whole_pile: ("TAKE_PILE", "TAKE_PILE_WITH", "pile_takes"),
    pile_draw: ("USE", "END", "PILE_DRAWS", "pile_draws", "can_use", "use_actions", "layoff_with"),
    exchange: ("swaps", "exchange_targets", "exchanged"),
    offers: ("ACCEPT", "DECLINE", "OFFERS", "OFFERED", "offered_card"),
    pass_face_down: ("PASSED", "TAKE_UP", "pass_receiver"),
    refill: ("refill_stock",),
}
"""The public names of rummykit.standard that moved to a mechanic: still found there, with a warning."""
for _module, _names in _NAMES_MOVED.items():
    standard._MOVED.update({name: (_module.__name__, getattr(_module, name)) for name in _names})


def _reader(module: ModuleType, key: str) -> Callable[[Mapping[str, Any]], Any]:
    def read(data: Mapping[str, Any]) -> Any:
        return getattr(module.Settings.read(data), key)

    return read


for _module, _ in MECHANICS:
    # A mechanic owns the ruleset keys only it reads: its SCHEMA (the keys), Settings (their defaults) and
    # ruleset_problems (their checks). The keys that select mechanics stay in the kernel's schema.
    if hasattr(_module, "SCHEMA"):
        ruleset.declare_keys(_module.__name__, _module.SCHEMA)
        for _keys in _module.SCHEMA.values():
            settings.MOVED_VALUES.update({key: (_module.__name__, _reader(_module, key)) for key in _keys})


engine.MOVED_STATE.update({field.name: refill.RefillState for field in dataclasses.fields(refill.RefillState)})


def settings_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """Each mechanic's settings (its ``Settings``: the values only it reads, with its defaults) of the merged
    ruleset ``data``, by the mechanic's module name, whether the ruleset selects it or not."""
    return {module.__name__: module.Settings.read(data) for module, _ in MECHANICS if hasattr(module, "Settings")}


def card_lists() -> list[tuple[str, ...]]:
    """The mechanics' ruleset keys that list ranks or cards (``table.exchangeable``)."""
    return [path for module, _ in MECHANICS for path in getattr(module, "CARD_LISTS", ())]


def selected(kernel: KernelSettings) -> list[tuple[str, ModuleType]]:
    """The mechanics a ruleset's kernel values select, as (plugin name, module), in registration order."""
    return [(module.__name__, module) for module, selects in MECHANICS if selects(kernel)]


def legality(variant: Variant) -> dict[str, standard.Legality]:
    """Each verb of the plain turn and of the mechanics ``variant`` selects, with its one check
    (:class:`~rummykit.standard.Legality`): a mechanic's check of a plain verb it changes (``offers``'s of
    ``discard``) stands for the plain turn's. A game's own plugins may narrow these further."""
    rules = dict(standard.LEGALITY)
    chosen = set(variant.mechanics)
    for module, _ in MECHANICS:
        if module.__name__ in chosen:
            rules.update(getattr(module, "LEGALITY", {}))
    return rules


def ruleset_problems(kernel: KernelSettings, locate: Any, data: Mapping[str, Any] | None = None) -> list[Problem]:
    """The problems every mechanic finds with the ruleset values it owns (whether it is selected or not: a
    value of a mechanic the rest of the ruleset leaves out is a mistake), located by ``locate(path, message)``
    (through :func:`rummykit.ruleset.clash` for a value that clashes with others);
    ``data`` is the merged ruleset (by default the one ``kernel`` was read from)."""
    problems = []
    for module, _ in MECHANICS:
        check = getattr(module, "ruleset_problems", None)
        if check is not None:
            problems += check(kernel, locate, data)
    return problems


ORDER = """\
## The built-in plugins, in order

Every game registers, in this order: the plain turn (``rummykit.standard``: draw from the stock or the
pile's top, meld, lay off, discard, go out, plain scoring, and the kernel's answer to every *first result*
hook); then the mechanics below that its ruleset selects; then the plugins its ruleset names, in the order
it lists them; then the plugins of the house rules selected. So a layered hook (``rummykit_legal_actions``,
``rummykit_describe_position``...) sees the plain turn's work, then each mechanic's, then the game's; a
*first result* hook asks the house rules first, then the game, then the mechanics, then the plain turn.
A mechanic changes only its own verbs and phases (``whole_pile`` lists the pile takes where the plain turn
lists ``draw discard``). A plugin moves cards and counts points with the same
[plugin toolkit](toolkit.md) the mechanics use. A mechanic also owns the ruleset values only it reads
(``draw.top_layoff``, ``draw.rebuilds``, ``table.exchangeable``): its module declares their schema
(``SCHEMA``, put into the ruleset's schema), their defaults (``Settings``, read into
``variant.mechanic_settings``) and their checks (``ruleset_problems``).

| mechanic | selected by | what it does |
| --- | --- | --- |
"""


LEGALITY = """
## Stating a verb's legality once

Every verb of the plain turn and of each mechanic has one check, a ``rummykit.standard.Legality``, and the
list of legal actions, the acceptance of a typed action and the reason a refused one is refused all come
from it, so they cannot disagree. ``now(deal)`` says why the verb cannot be used in this position, or
``None`` when it can: ``rummykit_legal_actions`` asks it once per position before listing the verb's
actions (never once per card). ``cards(deal, action)`` says why the cards and table meld an action names
cannot be, or ``None``: listed actions pass it, ``rummykit_check_action`` accepts a typed action it passes
(for a verb whose list is bounded), and ``rummykit_explain_illegal`` gives its words
(``refuse(LEGALITY, deal, action)``). A check that has nothing particular to say answers ``NO_REASON``;
one with nothing to add to the kernel's is ``any_time`` (for ``now``) or ``any_cards`` (for ``cards``).
``bare`` is what an action naming no card lacks (the refusal shows a listed one); ``from_hand``: its cards
come from the hand, and a card not there is said first; ``instead``: the verb this one gives way to in this
game (a mechanic's check of a plain verb it replaces, as ``offers`` does ``discard``, stands for the plain
turn's: ``rummykit.mechanics.legality(variant)`` gives the checks in force). A game's plugin states its own
verbs the same way:

```python
from rummykit import load_variant
from rummykit.actions import Action
from rummykit.standard import NO_REASON, Legality, one_card, refuse


def show_now(deal):
    \"\"\"``show``: after the draw, in the play phase.\"\"\"
    if deal.phase == "draw":
        return "draw a card first"
    return None if deal.phase == "play" else NO_REASON


LEGALITY = {"show": Legality("show", show_now, one_card, bare="name the card", from_hand=True)}

# In the plugin: rummykit_legal_actions lists 'show' actions only when show_now(deal) is None, and
# rummykit_explain_illegal returns refuse(LEGALITY, deal, action).
game = load_variant("500-rum").new_game(players=2, seed=1)
card = game.deal.hands[game.deal.current][0]
assert refuse(LEGALITY, game.deal, Action("show", (card,))) == "draw a card first"
```
"""


def docs_section() -> str:
    """The plugin order, the table of mechanics and how a verb's legality is stated, as the hooks page shows
    them."""
    rows = []
    for module, _ in MECHANICS:
        title = " ".join((module.__doc__ or "").split("\n\n")[0].split())
        rows.append(f"| `{module.__name__}` | `{module.SELECTED_BY}` | {title} |\n")
    return ORDER + "".join(rows) + LEGALITY
