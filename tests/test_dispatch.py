"""The resolved hook callers (``variant.hook``) call each implementation with the arguments it takes, in
the documented order, and blame a failing or wrong-typed implementation on its plugin, whatever the names
of the hook's arguments."""

from __future__ import annotations

from typing import Any

import pluggy
import pytest

from rummykit import hookimpl, hookspecs
from rummykit.dispatch import PluginError, ResolvedHooks
from rummykit.loader import ENTRY_POINT_GROUP


def hooks(*plugins: tuple[str, object]) -> ResolvedHooks:
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    for name, plugin in plugins:
        pm.register(plugin, name=name)
    return ResolvedHooks(pm)


class Words:
    ending = ""


def test_an_argument_named_like_a_result_reaches_every_implementation() -> None:
    seen: list[tuple[str, object]] = []

    class First:
        @hookimpl
        def rummykit_describe_result(self, game: Any, deal: Any, result: Any, words: Any) -> None:
            seen.append(("first", result))

    class Second:
        @hookimpl
        def rummykit_describe_result(self, words: Any, result: Any) -> None:  # a subset, in another order
            seen.append(("second", result))
            words.ending = f"ended as {result}"

    words = Words()
    answer = hooks(("first", First()), ("second", Second())).rummykit_describe_result(
        game="g", deal=None, result="knock", words=words
    )
    assert answer == []
    assert seen == [("first", "knock"), ("second", "knock")]
    assert words.ending == "ended as knock"


def test_the_arguments_reach_an_implementation_taking_them_in_another_order() -> None:
    class Reordered:
        @hookimpl
        def rummykit_observe(self, view: dict[str, Any], seat: int | None, deal: Any) -> None:
            view["got"] = (deal, seat)

    view: dict[str, Any] = {}
    assert hooks(("reordered", Reordered())).rummykit_observe(deal="d", seat=1, view=view) == []
    assert view == {"got": ("d", 1)}


def test_a_first_result_hook_asks_the_last_registered_first_and_stops_at_an_answer() -> None:
    asked: list[str] = []

    class Says:
        def __init__(self, name: str, answer: bool | None):
            self.name, self.answer = name, answer

        @hookimpl
        def rummykit_game_over(self, game: Any) -> bool | None:
            asked.append(self.name)
            return self.answer

    resolved = hooks(("kernel", Says("kernel", False)), ("game", Says("game", None)), ("house", Says("house", None)))
    assert resolved.rummykit_game_over(game="g") is False
    assert asked == ["house", "game", "kernel"]


def test_a_failing_implementation_is_named_with_its_hook() -> None:
    class Broken:
        @hookimpl
        def rummykit_game_over(self, game: Any) -> bool | None:
            raise KeyError("lost")

    with pytest.raises(PluginError, match="broken.*rummykit_game_over.*lost") as caught:
        hooks(("broken", Broken())).rummykit_game_over(game="g")
    assert isinstance(caught.value.error, KeyError)


def test_a_wrong_answer_is_blamed_on_its_plugin() -> None:
    class Wrong:
        @hookimpl
        def rummykit_game_over(self, game: Any) -> Any:
            return "yes"

    with pytest.raises(PluginError, match="wrong.*returned str 'yes' where bool"):
        hooks(("wrong", Wrong())).rummykit_game_over(game="g")


def test_a_call_missing_an_argument_or_naming_another_is_refused() -> None:
    class Quiet:
        @hookimpl
        def rummykit_game_over(self, game: Any) -> None:
            return None

    resolved = hooks(("quiet", Quiet()))
    with pytest.raises(TypeError):
        resolved.rummykit_game_over()
    with pytest.raises(TypeError):
        resolved.rummykit_game_over(game="g", other=1)
    assert resolved.rummykit_game_over(game="g") is None


def test_a_hook_without_arguments_is_called_too() -> None:
    class Schema:
        @hookimpl
        def rummykit_rules_schema(self) -> dict[str, Any]:
            return {"type": "object"}

    assert hooks(("schema", Schema())).rummykit_rules_schema() == [{"type": "object"}]
