"""Hook calls resolved once per variant.

pluggy looks up and orders a hook's implementations on every call; a game calls a few hooks on every
action, so each variant resolves its hooks once into plain functions that call the implementations
directly. Hooks with wrappers keep going through pluggy's caller. Either way an exception inside a hook
reaches the caller as :class:`PluginError` naming the plugin and the hook.

Order. A *first result* hook asks the plugin registered last first (a house rule overrides its game,
which overrides the kernel). Every other hook adjusts something in place (the list of legal actions,
the view, the deal's state), so its implementations run in layers, registered first first: the kernel,
then the game's plugins in the order its ruleset lists them, then house rules. Each layer sees and may
change what the layers before it did; ``tryfirst``/``trylast`` move an implementation to the front or the
back of that order, and wrappers wrap the whole.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any

import pluggy

from .actions import Action, ActionWords, IllegalAction
from .engine import HandResult
from .errors import GameBroken, PluginError
from .melds import MeldRules

__all__ = ["GameBroken", "PluginError", "ResolvedHooks"]


RESULT_TYPES: dict[str, type | tuple[type, ...]] = {
    "rummykit_meld_rules": MeldRules,
    "rummykit_deal": bool,
    "rummykit_seats_in_play": list,
    "rummykit_explain_illegal": str,
    "rummykit_check_action": (Action, bool),
    "rummykit_apply_action": bool,
    "rummykit_automatic_action": Action,
    "rummykit_offer_order": list,
    "rummykit_stock_exhausted": str,
    "rummykit_score_hand": HandResult,
    "rummykit_next_dealer": int,
    "rummykit_game_over": bool,
    "rummykit_score_game": list,
    "rummykit_describe_action": ActionWords,
}
"""What a first-result hook must return (when not None); anything else is the plugin's error."""


def _wrong_type(name: str, result: Any) -> TypeError | None:
    expected = RESULT_TYPES.get(name)
    if expected is None or isinstance(result, expected):
        return None
    names = " or ".join(t.__name__ for t in (expected if isinstance(expected, tuple) else (expected,)))
    return TypeError(f"returned {type(result).__name__} {result!r:.60} where {names} (or None) was expected")


def _seat_problem(value: Any, seats: int, what: str) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        return f"{what} {value!r:.40}, but the seats are 0 to {seats - 1}"
    return None


def _hand_problem(result: HandResult, kwargs: dict[str, Any]) -> str | None:
    seats = kwargs["deal"].game.num_players
    scores = result.scores
    if not isinstance(scores, (tuple, list)) or len(scores) != seats:
        return f"a HandResult with scores {scores!r:.60}: expected one whole number per seat ({seats})"
    if any(isinstance(s, bool) or not isinstance(s, int) for s in scores):
        return f"a HandResult with scores {scores!r:.60}: expected whole numbers"
    if result.winner is not None:
        return _seat_problem(result.winner, seats, "a HandResult with winner")
    return None


def _bonus_problem(bonuses: list[Any], kwargs: dict[str, Any]) -> str | None:
    seats = kwargs["game"].num_players
    for item in bonuses:
        if not (isinstance(item, (tuple, list)) and len(item) == 3 and isinstance(item[1], str)):
            return f"the bonus {item!r:.60}: expected (seat, name, points)"
        problem = _seat_problem(item[0], seats, "a bonus for seat")
        if problem or isinstance(item[2], bool) or not isinstance(item[2], int):
            return problem or f"the bonus {item!r:.60}: expected whole points"
    return None


def _seats_problem(seats: list[Any], kwargs: dict[str, Any]) -> str | None:
    count = kwargs["game"].num_players
    if not seats or len(set(seats)) != len(seats):
        return f"the seats {seats!r:.60}: expected distinct seats, at least one"
    return next((p for s in seats if (p := _seat_problem(s, count, "the seat"))), None)


VALUE_CHECKS: dict[str, Callable[[Any, dict[str, Any]], str | None]] = {
    "rummykit_next_dealer": lambda seat, kwargs: _seat_problem(seat, kwargs["game"].num_players, "the dealer"),
    "rummykit_score_hand": _hand_problem,
    "rummykit_score_game": _bonus_problem,
    "rummykit_seats_in_play": _seats_problem,
}
"""Range checks of first-result hooks called once a deal (never per action): a plugin that returns a
value out of range is blamed at once, not by a traceback far from its cause."""


def _wrong_value(name: str, result: Any, kwargs: dict[str, Any]) -> ValueError | None:
    check = VALUE_CHECKS.get(name)
    problem = check(result, kwargs) if check is not None else None
    return ValueError(f"returned {problem}") if problem else None


def _culprit(impls: list[Any], traceback: TracebackType | None) -> str:
    """The plugin whose implementation appears deepest in ``traceback``."""
    codes = {impl.function.__code__: impl.plugin_name for impl in impls if hasattr(impl.function, "__code__")}
    found = "unknown plugin"
    while traceback is not None:
        name = codes.get(traceback.tb_frame.f_code)
        if name is not None:
            found = name
        traceback = traceback.tb_next
    return found


def _layered(impls: list[Any]) -> list[Any]:
    """Non-wrapper implementations in the order a hook that is not *first result* calls them: ``tryfirst``
    ones, then the rest, then ``trylast`` ones, each group in the order the plugins were registered.

    pluggy keeps ``impls`` as [trylast (newest first)..., plain (oldest first)..., tryfirst (oldest
    first)...] and calls them from the end."""
    plain = [i for i in impls if not (i.hookwrapper or i.wrapper)]
    first = [i for i in plain if i.tryfirst]
    last = [i for i in plain if i.trylast]
    middle = [i for i in plain if not i.tryfirst and not i.trylast]
    return first + middle + last[::-1]


def resolve(pm: pluggy.PluginManager, name: str) -> Callable[..., Any]:
    """A function with the hook's keyword interface, calling its implementations directly."""
    caller = getattr(pm.hook, name)
    impls = caller.get_hookimpls()
    firstresult = bool(caller.spec is not None and caller.spec.opts.get("firstresult"))
    passthrough = (PluginError, IllegalAction)  # already explained; an illegal action changes nothing

    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        wrappers = [impl for impl in impls if impl.hookwrapper or impl.wrapper]
        # pluggy calls the list from its end: wrappers outermost, then the layers in order.
        call_list = impls if firstresult else _layered(impls)[::-1] + wrappers

        def through_pluggy(**kwargs: Any) -> Any:
            try:
                result = pm._hookexec(name, call_list, kwargs, firstresult)
            except passthrough:
                raise
            except Exception as exc:
                raise PluginError(_culprit(impls, exc.__traceback__), name, exc) from exc
            if firstresult and result is not None:
                wrong = _wrong_type(name, result) or _wrong_value(name, result, kwargs)
                if wrong is not None:
                    raise PluginError(
                        ", ".join(impl.plugin_name for impl in impls if impl.wrapper or impl.hookwrapper), name, wrong
                    )
            return result

        return through_pluggy

    checked = name in VALUE_CHECKS
    expected = RESULT_TYPES.get(name)
    every_arg = set(caller.spec.argnames) if caller.spec is not None else set()
    # None: the implementation takes every argument, so it is called with the caller's keywords as they are.
    ordered = [
        (impl.plugin_name, impl.function, None if set(impl.argnames) == every_arg else tuple(impl.argnames))
        for impl in (reversed(impls) if firstresult else _layered(impls))
    ]

    def blame(plugin: str, result: Any, kwargs: dict[str, Any]) -> None:
        wrong = _wrong_type(name, result) or (checked and _wrong_value(name, result, kwargs))
        if wrong:
            raise PluginError(plugin, name, wrong)

    if not ordered:
        return (lambda **kwargs: None) if firstresult else (lambda **kwargs: [])
    names = (name, *caller.spec.argnames) if caller.spec is not None else ()
    if not names or not all(a.isidentifier() and not a.startswith("_") for a in names):
        # the caller's own names start with "_": a hook whose names could clash takes the loop
        return _loop_caller(name, ordered, firstresult, checked, expected, blame)
    return _compiled_caller(name, caller.spec.argnames, ordered, firstresult, checked, expected, blame)


_Ordered = list[tuple[str, Callable[..., Any], tuple[str, ...] | None]]
"""A hook's implementations in the order they are called: (plugin, function, its argument names, or None
when it takes every argument of the hook)."""
_Blame = Callable[[str, Any, dict[str, Any]], None]
"""Raises PluginError for a first-result answer of the wrong type or out of range."""
_Expected = type | tuple[type, ...] | None
"""The type (or types) a first-result hook's answer must have, None when any answer goes."""


def _compiled_caller(
    name: str,
    argnames: tuple[str, ...],
    ordered: _Ordered,
    firstresult: bool,
    checked: bool,
    expected: _Expected,
    blame: _Blame,
) -> Callable[..., Any]:
    """The hook's caller as straight-line Python: a function with the hook's own keyword parameters calling
    each implementation in turn with the arguments it takes, as :func:`_loop_caller` does. A few hooks run on
    every action, and a loop over the implementations with a dictionary of keyword arguments cost more than
    the implementations of most of them. The source is made from the hook specification's argument names
    (identifiers of this package's hook specifications), nothing from a ruleset or a plugin's data."""
    everything = ", ".join(f"{a!r}: {a}" for a in argnames)
    every = ", ".join(f"{a}={a}" for a in argnames)  # by keyword: an implementation may take them in any order
    lines = [f"def {name}(*, {', '.join(argnames)}):" if argnames else f"def {name}():"]
    if not firstresult:
        lines.append("    _hook_results = []")
    namespace: dict[str, Any] = {
        "_passthrough": (PluginError, IllegalAction),
        "_PluginError": PluginError,
        "_isinstance": isinstance,
        "_expected": expected,
        "_blame": blame,
        "_name": name,
    }
    for k, (plugin, function, impl_args) in enumerate(ordered):
        namespace[f"_f{k}"] = function
        namespace[f"_p{k}"] = plugin
        lines += [
            "    try:",
            f"        _hook_result = _f{k}({every if impl_args is None else ', '.join(impl_args)})",
            "    except _passthrough:",
            "        raise",
            "    except Exception as _hook_error:",
            f"        raise _PluginError(_p{k}, _name, _hook_error) from _hook_error",
            "    if _hook_result is not None:",
        ]
        if not firstresult:
            lines.append("        _hook_results.append(_hook_result)")
            continue
        if checked:
            lines.append(f"        _blame(_p{k}, _hook_result, {{{everything}}})")
        elif expected is not None:
            lines += [
                "        if not _isinstance(_hook_result, _expected):",
                f"            _blame(_p{k}, _hook_result, {{{everything}}})",
            ]
        lines.append("        return _hook_result")
    lines.append("    return _hook_results" if not firstresult else "    return None")
    exec(compile("\n".join(lines), f"<rummykit hook {name}>", "exec"), namespace)  # noqa: S102 - see above
    made: Callable[..., Any] = namespace[name]
    return made


def _loop_caller(
    name: str,
    ordered: _Ordered,
    firstresult: bool,
    checked: bool,
    expected: _Expected,
    blame: _Blame,
) -> Callable[..., Any]:
    """The hook's caller as a loop over its implementations (a hook whose specification is not at hand)."""
    passthrough = (PluginError, IllegalAction)

    def call(**kwargs: Any) -> Any:
        results = []
        for plugin, function, argnames in ordered:
            try:
                result = function(**kwargs) if argnames is None else function(*[kwargs[a] for a in argnames])
            except passthrough:
                raise
            except Exception as exc:
                raise PluginError(plugin, name, exc) from exc
            if result is None:
                continue
            if not firstresult:
                results.append(result)
                continue
            if checked or (expected is not None and not isinstance(result, expected)):
                blame(plugin, result, kwargs)
            return result
        return None if firstresult else results

    return call


class ResolvedHooks:
    """``variant.hook``: each hook resolved on first use, then called without pluggy's per-call work. Call
    a hook with every one of its arguments, by keyword (``variant.hook.rummykit_game_over(game=game)``).

    The plugins of a variant are fixed when it is built; after registering another plugin on ``pm``
    directly, build a new ``ResolvedHooks``.
    """

    def __init__(self, pm: pluggy.PluginManager):
        self._pm = pm

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if not name.startswith("rummykit_"):
            raise AttributeError(name)
        function = resolve(self._pm, name)
        setattr(self, name, function)
        return function
