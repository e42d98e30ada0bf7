"""Validating a ruleset: ``rummykit validate``.

:func:`validate` checks the ruleset without playing (:mod:`rummykit.variant`), then, when local plugins
come with it, plays a few hands of trial games between bots with every card counted after every action.
The trial games need the bots, which sit above the variants: so they live here, not in
:mod:`rummykit.variant`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

from . import variant as _variant
from .bots import make_bots
from .errors import PluginError
from .loader import PluginSource, _def_position
from .ruleset import Problem, RulesetError
from .variant import Variant, _applies, _build, _offered_house_rules, _plugin_error_problem, _ruleset_problems

__all__ = ["validate", "PLAY_CHECK"]

PLAY_CHECK = (("greedy", 1), ("greedy", 2), ("random", 3))
"""The games ``validate`` plays with local plugins (bot, seed), a few hands each, every card counted after
every action: a plugin that fails, or loses or creates a card, is found before anyone plays it."""


def validate(path: str | Path, plugins: Iterable[PluginSource] = ()) -> list[Problem]:
    """Every problem with the ruleset at ``path`` (an empty list when it is valid): the schema, then the
    ``extends`` chain, plugins, card values, deals, targets, and each of its own house rules.
    ``plugins`` are local plugins to check and load with it; with them, a few trial games are played
    (:data:`PLAY_CHECK`)."""
    problems, variant, local = _ruleset_problems(path, plugins)
    if not problems and variant is not None and local:
        problems = _play_problems(variant, local)
        # A plugin that offers house rules is in force only where one is selected: each is played too.
        for plugin_name, module in local:
            if problems:
                break
            for name, spec in _offered_house_rules(plugin_name, module).items():
                if not _applies(spec, variant.name):
                    continue
                try:
                    selected = _build(str(path), (name,), None, local, offers_checked=True)
                except (RulesetError, PluginError):
                    continue  # told by _ruleset_problems already, at the house rule
                problems = _play_problems(selected, [(plugin_name, module)], name)
                if problems:
                    break
    return problems


def _play_problems(
    variant: Variant, local: Sequence[tuple[str, ModuleType]], house_rule: str | None = None
) -> list[Problem]:
    names = ", ".join(repr(name) for name, _ in local)
    file = str(getattr(local[0][1], "__file__", None) or f"plugin {local[0][0]!r}")
    selected = f" with house rule {house_rule!r}" if house_rule else ""
    for bot, seed in PLAY_CHECK:
        game = variant.new_game(seed=seed)
        bots = make_bots([bot], game.num_players, seed)
        try:
            while not game.is_over and len(game.results) < 3:
                game.apply(bots[game.deal.actor].choose(game))
                game.check_cards()
        except PluginError as exc:
            found = _plugin_error_problem(file, exc)
            hook = getattr(dict(local).get(exc.plugin), exc.hook, None)
            if not found.line and hook is not None:  # a value out of range raises nothing inside the hook
                found = Problem(*_def_position(hook, file), exc.hook, found.message)
            if selected:
                found = Problem(
                    found.file, found.line, found.column, found.path, f"{found.message} (a {bot} game{selected})"
                )
            return [found]
        except AssertionError as exc:
            message = f"with plugin {names}{selected}, a {bot} game (seed {seed}) loses or creates cards: {exc}"
            return [Problem(file, 0, 0, "", message)]
    return []


_variant._MOVED.update(validate=validate, PLAY_CHECK=PLAY_CHECK)
