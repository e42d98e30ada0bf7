"""The errors a plugin's failure raises, low in the package so that the engine, the checks and the hook
calls (:mod:`rummykit.dispatch`, which exports them too) all raise and catch the same classes; and how the
compiled modules warn (:func:`warn_outside`)."""

from __future__ import annotations

import sys
import warnings
from types import FrameType
from typing import Any

__all__ = ["PluginError", "GameBroken"]


class PluginError(RuntimeError):
    """A plugin's hook implementation raised an exception (kept as ``__cause__``)."""

    def __init__(self, plugin: str, hook: str, error: BaseException):
        self.plugin = plugin
        self.hook = hook
        self.error = error
        super().__init__(f"plugin {plugin!r} failed in hook {hook}: {type(error).__name__}: {error}")


class GameBroken(PluginError):
    """A plugin failed while an action was carried out, and failed again while the game was being put back
    as it was: the game is neither as it was nor as the action left it, so it refuses every later action
    and query with this error. ``plugin``, ``hook`` and ``error`` name the first failure, ``again`` the
    second."""

    def __init__(self, plugin: str, hook: str, error: BaseException, again: BaseException):
        super().__init__(plugin, hook, error)
        self.again = again
        second = str(again) if isinstance(again, PluginError) else f"{type(again).__name__}: {again}"
        self.args = (
            f"{self.args[0]}; the game could not be restored (while it was put back as it was: {second}), "
            "so it takes no more actions",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.plugin, self.hook, self.error, self.again))


def warn_outside(module: str, message: str, category: type[Warning]) -> None:
    """Warn at the line that asked: the first frame outside ``module`` (a module compiled with mypyc, or not).
    A fixed ``stacklevel`` would be one frame off in one of the builds: compiled functions have no frames of
    their own."""
    level = 1
    frame: FrameType | None = sys._getframe(0)
    while frame is not None and frame.f_globals.get("__name__") in (module, __name__):
        level, frame = level + 1, frame.f_back
    warnings.warn(message, category, stacklevel=level)
