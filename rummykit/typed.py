"""A game's rules read once into a typed object, and a plugin's per-deal state as a typed object.

A plugin declares its ``rules`` values as a frozen dataclass, each field named after its key in the
ruleset's ``rules`` block and defaulting to what the game does when the key is absent::

    @dataclass(frozen=True)
    class SkarneyRules:
        hands: tuple[dict[str, Any], ...]
        contract_meld_size: int = 3
        stop_cards: tuple[str, ...] = ()

    rules = rules_as(deal.variant, SkarneyRules)   # built once per variant, then the same object
    rules.contract_meld_size

and its state for the deal in progress as a (mutable) dataclass whose fields all have defaults::

    @dataclass
    class GinState:
        knocker: int | None = None
        layoffs: list[tuple[Card, int]] = field(default_factory=list)

    state_of(deal, GinState).knocker = seat      # made at the first use in each deal

The state lives in ``deal.state`` under the dataclass's ``STATE_KEY`` (its module and name by default), so
copies of a game (``game.clone()``, ``copy.deepcopy``, ``pickle``) and a replayed deal keep it like any
other per-deal state. Declare the dataclass at the top level of the plugin's module, so that pickle finds
it. The ruleset's schema (``rummykit_rules_schema``) still checks every value's type when the variant is
loaded; these objects only give them names and defaults.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .engine import Deal
    from .variant import Variant

__all__ = ["rules_as", "state_of", "state_key"]

R = TypeVar("R")
S = TypeVar("S")

_CACHE = "_typed_rules"


def _freeze(value: Any) -> Any:
    """Lists as tuples (a frozen rules object's values do not change under a plugin's feet)."""
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value


def rules_as(variant: Variant, cls: type[R]) -> R:
    """``variant``'s ``rules`` block as ``cls``, a dataclass whose fields name its keys: each field takes the
    ruleset's value (lists as tuples) or, when the key is absent, the field's default. Keys no field names
    are left to other plugins. Built once per variant and class; a field without a default whose key is
    absent is a ``KeyError`` (mark the key ``required`` in the plugin's schema)."""
    try:  # the usual case first: read already (a few times per turn)
        found: R = variant.__dict__[_CACHE][cls]
        return found
    except KeyError:
        pass
    cache: dict[type, Any] = variant.__dict__.setdefault(_CACHE, {})
    made = cache.get(cls)
    if made is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"rules_as needs a dataclass, not {cls!r}")
        rules = variant.rules
        values = {}
        for spec in dataclasses.fields(cls):
            if not spec.init:
                continue
            if spec.name in rules:
                values[spec.name] = _freeze(rules[spec.name])
            elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise KeyError(f"{variant.name!r} gives no rules.{spec.name}, which {cls.__name__} needs")
        made = cache[cls] = cls(**values)
    return made


def state_key(cls: type) -> str:
    """Where :func:`state_of` keeps ``cls``'s state in ``deal.state``: ``cls.STATE_KEY``, else its module and
    name (``plugins.gin.GinState``)."""
    key = getattr(cls, "STATE_KEY", None)
    return key if isinstance(key, str) else f"{cls.__module__}.{cls.__qualname__}"


_KEYS: dict[type, str] = {}
""":func:`state_key` of each class asked for (:func:`state_of` is called several times per turn)."""


def state_of(deal: Deal, cls: type[S]) -> S:
    """The deal's state of type ``cls`` (a dataclass whose fields all have defaults), made on first use."""
    try:  # the usual case first: the key known, the state made (a few times per turn)
        state: S = deal.state[_KEYS[cls]]
        return state
    except KeyError:
        key = _KEYS.get(cls) or _KEYS.setdefault(cls, state_key(cls))
        made = deal.state.get(key)
        if made is None:
            made = deal.state[key] = cls()
        return made
