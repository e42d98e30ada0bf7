"""Game records: reading a record (:meth:`Game.to_json <rummykit.engine.Game.to_json>`), checking it, and
replaying it on the variant it names.

This module sits above the engine and the variants: reading a record loads the variant it was played with,
and with it any local plugins the record names (only those the caller trusts, see :func:`load_record`).
:meth:`Game.from_json <rummykit.engine.Game.from_json>` reads through :func:`read_game`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from . import engine
from .actions import Action, IllegalAction
from .engine import AUTO_PREFIX, RECORD_FORMAT, TURN_LIMIT, Deal, Game, _clip
from .loader import _local_plugins, local_plugin_name
from .ruleset import MAX_DEPTH, MAX_VALUES
from .variant import Variant, load_variant

__all__ = ["RECORD_FORMAT", "UntrustedPlugins", "load_record", "play_record", "read_game"]


class UntrustedPlugins(ValueError):
    """A record names local plugins that the caller did not pass: replaying would run their code."""

    def __init__(self, files: Sequence[str]):
        self.files = list(files)
        super().__init__(
            f"the record was played with local plugins, code that replaying would run: {_clip(', '.join(files), 400)}; "
            "if you trust them, pass them as plugins=[...] (rummykit replay --plugin FILE), or trust the files "
            "the record names with trust_plugins=True (rummykit replay --trust-plugins)"
        )


def _record_problem(record: Any) -> str | None:
    """What makes ``record`` (parsed JSON) malformed, or None."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        found = record.get("format") if isinstance(record, dict) else None
        if isinstance(found, str) and found.startswith("rummykit-record/"):
            return f"not a record this rummykit reads: its format is {_clip(repr(found), 60)}, not {RECORD_FORMAT!r}"
        return f"not a rummykit record: expected 'format': {RECORD_FORMAT!r}"

    def texts(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    checks: list[tuple[str, bool, str]] = [
        ("variant", isinstance(record.get("variant"), str), "a variant name or ruleset file"),
        ("house_rules", texts(record.get("house_rules", [])), "a list of house rule names"),
        ("options", isinstance(record.get("options") or {}, dict), "a mapping of ruleset values"),
        ("plugins", texts(record.get("plugins", [])), "a list of plugin files"),
        ("players", whole(record.get("players")) or texts(record.get("players")), "a list of names"),
        ("seed", whole(record.get("seed")), "a whole number"),
        ("deal", isinstance(record.get("deal") or {}, dict), "a mapping (dealer, hands, discard, stock)"),
        ("actions", isinstance(record.get("actions"), list) and all(map(texts, record["actions"])),
         "a list of deals, each a list of actions as text"),
        ("max_hands", record.get("max_hands") is None or (whole(record["max_hands"]) and record["max_hands"] >= 1),
         "a whole number of hands, 1 or more"),
        ("scores", record.get("scores") is None or (isinstance(record["scores"], list)
                                                     and all(map(whole, record["scores"]))), "a list of whole numbers"),
    ]  # fmt: skip
    for key, good, expected in checks:
        if not good:
            return f"'{key}' is {expected}, not {_clip(json.dumps(record.get(key)), 60)}"
    deepest, count = _extent(record.get("options"), MAX_VALUES)
    if deepest > MAX_DEPTH:
        return f"'options' nests more than {MAX_DEPTH} levels deep"
    if count > MAX_VALUES:  # as a ruleset file may hold: checked before anything is copied or merged
        return f"'options' holds more than {MAX_VALUES:,} values"
    return None


def _extent(value: Any, most: int) -> tuple[int, int]:
    """How deeply lists and mappings nest in ``value``, and how many values it holds, counted (without
    recursion) until there are more than ``most``."""
    deepest, count, level = 0, 0, [(value, 1)]
    while level and count <= most:
        item, depth = level.pop()
        count += 1
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            level.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest, count


def load_record(
    text: str, plugins: Iterable[str | Path | ModuleType] = (), trust_plugins: bool = False
) -> tuple[dict[str, Any], Variant]:
    """A record (:meth:`Game.to_json`) checked, and the variant it was played with: see :meth:`Game.from_json`."""
    try:
        record = json.loads(text)
    except RecursionError:
        raise ValueError("not a rummykit record: it nests too deeply to be read") from None
    except ValueError as exc:
        raise ValueError(f"not a rummykit record: not JSON ({exc})") from None
    problem = _record_problem(record)
    if problem is not None:
        raise ValueError(problem if problem.startswith("not a") else f"not a valid rummykit record: {problem}")
    given = list(plugins)
    names = {name for name, _ in _local_plugins(given)}
    named = [file for file in record.get("plugins", []) if local_plugin_name(file) not in names]
    if named and not trust_plugins:
        raise UntrustedPlugins(named)
    try:
        variant = load_variant(
            record["variant"],
            house_rules=record.get("house_rules", ()),
            options=record.get("options") or None,
            plugins=given + named,
        )
    except KeyError as exc:  # no such variant or file: a ValueError, as for any record that does not load
        raise ValueError(str(exc.args[0]) if exc.args else f"no variant {record['variant']!r}") from None
    return record, variant


def play_record(
    record: Mapping[str, Any],
    variant: Variant,
    on_start: Callable[[Game], None] | None = None,
    on_action: Callable[[Game, Deal, int, Action], None] | None = None,
) -> Game:
    """Replay a record checked by :func:`load_record` on ``variant``, calling ``on_start(game)`` before the
    first action and ``on_action(game, deal, seat, action)`` after each. Raises ValueError when the record
    does not replay (an action refused, more actions than a deal takes, other scores)."""
    game = variant.new_game(
        players=record["players"], seed=record["seed"], layout=record.get("deal"), max_hands=record.get("max_hands")
    )
    if on_start is not None:
        on_start(game)
    for number, actions in enumerate(record["actions"], start=1):
        for text_action in actions:
            if text_action.startswith(AUTO_PREFIX):
                continue  # the rules make it again by themselves; checked below
            if game.is_over or game.deal.number != number:
                ended = game.results[number - 1] if len(game.results) >= number else None
                why = (
                    f" (here it reached its turn limit, max_turns {game.max_turns}; the record was played with a higher"
                    " one, or none)"
                    if ended is not None and ended.kind == TURN_LIMIT
                    else ""
                )
                raise ValueError(f"record does not replay: deal {number} has more actions than it can take{why}")
            deal, seat = game.deal, game.deal.actor
            try:
                action = game.resolve(text_action)
            except IllegalAction as exc:
                raise IllegalAction(f"record does not replay: deal {number}: {exc}") from None
            game.apply(action)
            if on_action is not None:
                on_action(game, deal, seat, action)
    if game.history != record["actions"]:
        raise ValueError("record does not replay: the moves made by the rules differ from the record's")
    if record.get("scores") is not None and record["scores"] != game.scores:
        raise ValueError(f"record does not replay: scores {game.scores} differ from {record['scores']}")
    _check_outcome(record, game)
    return game


def _check_outcome(record: Mapping[str, Any], game: Game) -> None:
    """ValueError unless the record's hand results and end reason (where it holds them) are the replayed
    game's: a record is believed only as far as its actions go."""
    saved = record.get("results")
    if saved is not None:
        replayed = json.loads(json.dumps([r.as_dict() for r in game.results]))  # as a record holds them
        if not isinstance(saved, list) or len(saved) != len(replayed):
            held = len(saved) if isinstance(saved, list) else _clip(repr(saved), 40)
            raise ValueError(f"record does not replay: it holds {held} hand results, its actions make {len(replayed)}")
        for number, (mine, theirs) in enumerate(zip(replayed, saved), start=1):
            if mine == theirs:
                continue
            if not isinstance(theirs, dict):
                raise ValueError(f"record does not replay: hand {number}'s result is {_clip(repr(theirs), 40)}")
            key = next(k for k in sorted(mine.keys() | theirs.keys()) if mine.get(k) != theirs.get(k))
            raise ValueError(
                f"record does not replay: hand {number}'s result differs: its {key} is "
                f"{_clip(repr(mine.get(key)), 60)} when replayed, {_clip(repr(theirs.get(key)), 60)} in the record"
            )
    if "end_reason" in record and record["end_reason"] != game.end_reason:
        said = _clip(repr(record["end_reason"]), 40)
        raise ValueError(f"record does not replay: the game ends by {game.end_reason!r}, the record says {said}")


def read_game(text: str, plugins: Iterable[str | Path | ModuleType] = (), trust_plugins: bool = False) -> Game:
    """The game of the record ``text``, replayed to the state it was saved in: what
    :meth:`Game.from_json <rummykit.engine.Game.from_json>` does (see there for ``plugins`` and
    ``trust_plugins``)."""
    record, variant = load_record(text, plugins, trust_plugins)
    return play_record(record, variant)


engine._read_game = read_game
engine._MOVED.update(UntrustedPlugins=UntrustedPlugins, load_record=load_record, play_record=play_record)
