"""Variants: a ruleset (data) and the plugins it names (behaviour), found by name, alias or path."""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import inspect
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from importlib import metadata, resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs, standard
from .cards import JOKER_FACE, RANKS, SUITS, Card, CardError, parse_card
from .dispatch import PluginError, ResolvedHooks
from .engine import Game
from .melds import Arrangement, MeldRules, MeldSearch
from .ruleset import (
    Document,
    Problem,
    RulesetError,
    dotted,
    kernel_schema,
    leaf_paths,
    load_document,
    merge,
    schema_problems,
)

__all__ = [
    "VariantInfo",
    "Variant",
    "list_variants",
    "load_variant",
    "find_ruleset",
    "validate",
    "house_rules_for",
    "plugin_problems",
    "load_local_plugin",
    "ENTRY_POINT_GROUP",
]

ENTRY_POINT_GROUP = "rummykit"
"""Entry-point group through which plugins (built-in games and house rules alike) are found."""


@dataclass(frozen=True)
class VariantInfo:
    """What :func:`list_variants` tells about a variant without building it."""

    name: str
    title: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    summary: str
    path: str


# -- finding rulesets and plugins -----------------------------------------------------------------


def _is_file(path: str | Path) -> bool:
    """Whether ``path`` is a file; False (not an OSError) for a name too long or otherwise impossible."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):  # ENAMETOOLONG; a NUL in the name
        return False


def _variant_files() -> list[Path]:
    folder = resources.files("rummykit.variants")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith((".yaml", ".yml")))


@cache
def _catalogue() -> dict[str, VariantInfo]:
    """Every shipped variant, by name."""
    infos = {}
    for path in _variant_files():
        data = _resolved_data(str(path))
        players = data.get("players", {})
        infos[data["name"]] = VariantInfo(
            data["name"],
            data.get("title", data["name"]),
            tuple(data.get("aliases", ())),
            players.get("min", 2),
            players.get("max", 2),
            data.get("summary", ""),
            str(path),
        )
    return infos


def list_variants() -> list[VariantInfo]:
    """Every variant shipped with rummykit, sorted by name."""
    return sorted(_catalogue().values(), key=lambda info: info.name)


@cache
def _shipped_names() -> tuple[dict[str, str], dict[str, str]]:
    """(name -> path, alias -> path) of the shipped rulesets, read from each file itself (no ``extends``
    resolution), so that resolving ``extends: <name>`` while building the catalogue does not recurse."""
    names: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for path in _variant_files():
        data = load_document(path).data
        if isinstance(data, Mapping) and isinstance(data.get("name"), str):
            names[data["name"]] = str(path)
            for alias in data.get("aliases", ()) or ():
                aliases.setdefault(str(alias), str(path))
    return names, aliases


def find_ruleset(name: str) -> str:
    """The path of a shipped ruleset by name or alias, or of a YAML file; raises KeyError naming close matches."""
    key = name.strip().lower()
    names, aliases = _shipped_names()
    if key in names:
        return names[key]
    if key in aliases:
        return aliases[key]
    if name.endswith((".yaml", ".yml")) or "/" in name or _is_file(name):
        if _is_file(name):
            return str(Path(name))
        raise KeyError(f"no ruleset file {name!r}")
    known = sorted(list(names) + list(aliases))
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise KeyError(f"no variant named {name!r}{hint} Known variants: {', '.join(sorted(names))}")


def _plugin_entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _hook_names() -> list[str]:
    return [name for name in vars(hookspecs) if name.startswith("rummykit_")]


def _def_position(function: Any, fallback: str) -> tuple[str, int, int]:
    """(file, line, column) of the ``def`` of ``function`` (not of its decorator)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return fallback, 0, 0
    file, line = code.co_filename, code.co_firstlineno
    try:
        lines, start = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return file, line, 1
    for offset, text in enumerate(lines):
        stripped = text.lstrip()
        if stripped.startswith(("def ", "async def ")):
            return file, start + offset, len(text) - len(stripped) + 1
    return file, line, 1


def _signature_text(function: Any) -> str:
    try:
        return f"{function.__name__}{inspect.signature(function)}"
    except (TypeError, ValueError):
        return str(function.__name__)


def plugin_problems(name: str, module: ModuleType) -> list[Problem]:
    """What is wrong with the plugin ``name``'s hook implementations (an empty list when nothing is).

    A module-level function named ``rummykit_*`` must be a hook of :mod:`rummykit.hookspecs`, marked
    ``@rummykit.hookimpl``, and take only arguments of that hook.
    """
    source = getattr(module, "__file__", None) or f"plugin {name!r}"
    hooks = _hook_names()
    problems = []
    for attr, value in vars(module).items():
        if not attr.startswith("rummykit_") or not callable(value) or isinstance(value, type):
            continue
        if getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # imported from elsewhere (another plugin's hook): that plugin is checked on its own
        file, line, column = _def_position(value, source)

        def problem(message: str, file: str = file, line: int = line, column: int = column, attr: str = attr) -> None:
            problems.append(Problem(file, line, column, attr, f"plugin {name!r}: {message}"))

        if attr not in hooks:
            close = difflib.get_close_matches(attr, hooks, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else "the hooks are listed in docs/hooks.md"
            problem(f"{attr} is not a rummykit hook ({hint})")
            continue
        options = getattr(value, f"{ENTRY_POINT_GROUP}_impl", None)
        if options is None:
            problem(f"{attr} is not marked @rummykit.hookimpl, so it would never be called")
            continue
        spec_args = [p for p in inspect.signature(getattr(hookspecs, attr)).parameters]
        try:
            impl_params = inspect.signature(value).parameters.values()
        except (TypeError, ValueError):
            continue
        extra = [
            p.name
            for p in impl_params
            if p.name not in spec_args
            and p.default is inspect.Parameter.empty
            and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        ]
        if extra:
            words = ", ".join(repr(a) for a in extra)
            problem(
                f"{_signature_text(value)}: {'argument' if len(extra) == 1 else 'arguments'} {words} "
                f"{'is' if len(extra) == 1 else 'are'} not among the hook's: {attr}({', '.join(spec_args)})"
            )
            continue
        wrapper = options.get("wrapper") or options.get("hookwrapper")
        if wrapper and not inspect.isgeneratorfunction(value):
            problem(f"{attr} is marked wrapper=True, so it must 'yield' once to get the game's result")
            continue
    if problems:
        return problems
    manager = pluggy.PluginManager(ENTRY_POINT_GROUP)
    manager.add_hookspecs(hookspecs)
    try:
        manager.register(module, name)
        manager.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        problems.append(Problem(source, 0, 0, "", f"plugin {name!r} is refused: {first}"))
    return problems


def _import_problem(name: str, origin: str, exc: BaseException) -> Problem:
    """A plugin that fails to import, as a problem at the failing line of its own file when known."""
    if isinstance(exc, SyntaxError):
        return Problem(
            exc.filename or origin,
            exc.lineno or 0,
            exc.offset or 0,
            "(module)",
            f"plugin {name!r} cannot be imported: SyntaxError: {exc.msg}",
        )
    tb = exc.__traceback__
    file, line = origin, 0
    while tb is not None:  # the deepest frame inside the plugin's own file
        if tb.tb_frame.f_code.co_filename == origin:
            file, line = origin, tb.tb_lineno
        tb = tb.tb_next
    return Problem(
        file, line, 1 if line else 0, "(module)", f"plugin {name!r} cannot be imported: {type(exc).__name__}: {exc}"
    )


@cache
def _load_plugin(name: str) -> ModuleType:
    """The installed plugin ``name``, checked. Raises LookupError when it is not installed and
    :class:`RulesetError` when it cannot be imported or implements hooks wrongly."""
    points = _plugin_entry_points()
    if name not in points:
        close = difflib.get_close_matches(name, list(points), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise LookupError(f"plugin {name!r} is not installed{hint}; installed: {', '.join(sorted(points)) or 'none'}")
    try:
        module = points[name].load()
    except Exception as exc:
        origin = f"plugin {name!r} ({points[name].value})"
        raise RulesetError([_import_problem(name, origin, exc)]) from None
    if not isinstance(module, ModuleType):
        raise LookupError(f"plugin {name!r}: the entry point must name a module, not {type(module).__name__}")
    problems = plugin_problems(name, module)
    if problems:
        raise RulesetError(problems)
    return module


def local_plugin_name(path: str | Path) -> str:
    """The name a plugin loaded from a file goes by: the file's name (its folder's for ``__init__.py``),
    with ``_`` written ``-``."""
    file = Path(path)
    stem = file.parent.name if file.name == "__init__.py" else file.stem
    return stem.replace("_", "-")


@cache
def _load_local_plugin_cached(path: str, _mtime: int) -> tuple[str, ModuleType]:
    name = local_plugin_name(path)
    file = Path(path)
    if not _is_file(file):
        raise RulesetError([Problem(path, 0, 0, "", f"plugin file {path!r} does not exist")])
    if file.suffix != ".py":
        raise RulesetError([Problem(path, 0, 0, "", "a plugin is a Python file (.py); rulesets are never executed")])
    # A private module name: a plugin file named json.py must not replace the json module, nor a file
    # named like an installed plugin's module be taken for it (by worker processes, for one).
    digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:12]
    module_name = f"_rummykit_local_{digest}_" + re.sub(r"\W", "_", name)
    package = file.name == "__init__.py"
    spec = importlib.util.spec_from_file_location(
        module_name, file, submodule_search_locations=[str(file.parent)] if package else None
    )
    if spec is None or spec.loader is None:
        raise RulesetError([Problem(path, 0, 0, "", f"cannot load {path!r} as a Python module")])
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(module_name)
    sys.modules[module_name] = module  # dataclasses and relative imports look the module up here
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        if previous is not None:
            sys.modules[module_name] = previous
        else:
            sys.modules.pop(module_name, None)
        raise RulesetError([_import_problem(name, str(file), exc)]) from None
    problems = plugin_problems(name, module)
    if problems:
        raise RulesetError(problems)
    _LOCAL_NAMES[module_name] = name
    return name, module


_LOCAL_NAMES: dict[str, str] = {}
"""Plugin name of each local plugin module, by its private module name."""


def load_local_plugin(path: str | Path) -> tuple[str, ModuleType]:
    """(name, module) of the plugin in the Python file ``path``, imported and checked (see
    :func:`plugin_problems`); raises :class:`RulesetError` naming the file otherwise. Reloaded when the
    file changes."""
    resolved = Path(path).resolve()
    mtime = resolved.stat().st_mtime_ns if _is_file(resolved) else 0
    try:
        return _load_local_plugin_cached(str(resolved), mtime)
    except RulesetError as exc:
        shown = str(path)
        raise RulesetError(
            [
                Problem(shown if p.file == str(resolved) else p.file, p.line, p.column, p.path, p.message)
                for p in exc.problems
            ]
        ) from None


PluginSource = str | Path | ModuleType


def _local_plugins(plugins: Iterable[PluginSource]) -> list[tuple[str, ModuleType]]:
    result: list[tuple[str, ModuleType]] = []
    problems: list[Problem] = []
    for item in plugins:
        if isinstance(item, ModuleType):
            name = _LOCAL_NAMES.get(item.__name__) or item.__name__.rsplit(".", 1)[-1].replace("_", "-")
            found = plugin_problems(name, item)
            problems += found
            if not found:
                result.append((name, item))
            continue
        try:
            result.append(load_local_plugin(item))
        except RulesetError as exc:
            problems += exc.problems
    if problems:
        raise RulesetError(problems)
    return result


# -- reading a ruleset with its extends chain ------------------------------------------------------


@dataclass
class _Merged:
    data: dict[str, Any]
    origins: dict[tuple[str | int, ...], Document]
    chain: list[Document]


def _document(path: str) -> Document:
    """The ruleset file ``path``, read once while it is unchanged (validation builds a variant once per
    house rule: reading the file each time made it quadratic in the number of house rules)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return load_document(path)  # the error, located
    return _document_cached(str(Path(path).resolve()), path, status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=64)
def _document_cached(_resolved: str, path: str, _mtime: int, _size: int) -> Document:
    return load_document(path)


def _read_chain(path: str) -> _Merged:
    chain: list[Document] = []
    seen: list[str] = []
    current = path
    while True:
        resolved = str(Path(current).resolve())
        if resolved in seen:
            cycle = " -> ".join(Path(p).name for p in seen + [resolved])
            doc = chain[-1]
            raise RulesetError([doc.problem(("extends",), f"'extends' makes a cycle: {cycle}")])
        seen.append(resolved)
        doc = _document(current)
        chain.append(doc)
        parent = doc.data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise RulesetError([doc.problem(("extends",), "expected a variant name or a path to a ruleset file")])
        candidate = Path(current).parent / parent
        if parent.endswith((".yaml", ".yml")) or _is_file(candidate):
            if not _is_file(candidate):
                raise RulesetError([doc.problem(("extends",), f"no ruleset file {parent!r} next to this one")])
            current = str(candidate)
        else:
            try:
                current = find_ruleset(parent)
            except KeyError as exc:
                raise RulesetError([doc.problem(("extends",), str(exc.args[0]))]) from None
    data: dict[str, Any] = {}
    origins: dict[tuple[str | int, ...], Document] = {}
    for doc in reversed(chain):
        body = {k: v for k, v in doc.data.items() if k != "extends"}
        data = merge(data, body)
        for leaf in leaf_paths(body):
            origins[leaf] = doc
    live = set(leaf_paths(data))  # a value a child replaced by a mapping (or the reverse) came from the child
    origins = {path: doc for path, doc in origins.items() if path in live}
    for key in ("name", "title", "aliases", "summary"):
        if key in chain[0].data:
            data[key] = chain[0].data[key]
        elif len(chain) > 1 and key in ("aliases",):
            data.pop(key, None)
    return _Merged(data, origins, chain)


@cache
def _resolved_data(path: str) -> dict[str, Any]:
    return _read_chain(path).data


def _locator(merged: _Merged, fallback: str) -> Any:
    def locate(path: tuple[str | int, ...], message: str) -> Problem:
        probe = tuple(path)
        while probe:
            if probe in merged.origins:
                return merged.origins[probe].problem(tuple(path), message)
            for leaf, doc in merged.origins.items():
                if leaf[: len(probe)] == probe:
                    return doc.problem(tuple(path), message)
            probe = probe[:-1]
        if merged.chain:
            return merged.chain[0].problem(tuple(path), message)
        return Problem(fallback, 0, 0, dotted(path), message)

    return locate


MAX_DECKS = 20
"""The most 52-card decks a ruleset may use (the largest rummy games use three or four)."""

MAX_JOKERS = 100
"""The most jokers a ruleset may add."""

PER_PLAYER_DEFAULTS: dict[tuple[str, str], int] = {
    ("decks", "count"): 1,
    ("decks", "jokers"): 0,
    ("deal", "hand_size"): 7,
}
"""Ruleset values that may depend on the player count, with their defaults when a ruleset omits them."""


def per_players(data: Mapping[str, Any], block: str, key: str, players: int) -> int:
    """``data[block][key]`` for ``players``: a number, or a mapping by player count with ``default``."""
    default = PER_PLAYER_DEFAULTS[(block, key)]
    spec = data.get(block, {}).get(key)
    if spec is None:
        return default
    if isinstance(spec, int):
        return spec
    return int(spec.get(str(players), spec.get("default", default)))


# -- the Variant ---------------------------------------------------------------------------------------

_RANK_KEYS = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_KEYS["10"] = 10


class Variant:
    """A playable game: its merged ruleset, its plugins, and the tables built once from them.

    Get one with :func:`load_variant`; start games with :meth:`new_game`.
    """

    def __init__(
        self,
        source: str,
        merged: _Merged,
        house_rules: Sequence[str],
        options: Mapping[str, Any] | None,
        plugins: Sequence[tuple[str, ModuleType]],
    ):
        data = merged.data
        self.source_name = source
        self.ruleset: dict[str, Any] = data
        """The merged ruleset (after ``extends``, house rules and options)."""
        self.origins = {path: doc.file for path, doc in merged.origins.items()}
        self.name: str = data["name"]
        self.title: str = data["title"]
        self.aliases: tuple[str, ...] = tuple(data.get("aliases", ()))
        self.summary: str = data.get("summary", "")
        self.house_rules = tuple(house_rules)
        self.options = dict(options or {})
        self.local_plugins: tuple[str, ...] = ()
        """Files of the local plugins (``plugins=`` / ``--plugin``) this variant was loaded with."""
        self.min_players: int = data["players"]["min"]
        self.max_players: int = data["players"]["max"]
        self.partnerships: bool = bool(data.get("partnerships", False))
        self.rules: dict[str, Any] = data.get("rules", {})
        """Game-specific values (the ruleset's ``rules`` block)."""
        self.draw_from_pile: str = data.get("draw", {}).get("from_pile", "top")
        self.must_use: str = data.get("draw", {}).get("must_use", "none")
        """``deepest``: the deepest card taken from the pile must be melded or laid off at once."""
        self.melds_on_table: bool = bool(data.get("table", {}).get("melds", False))
        self.layoff_mode: str = data.get("table", {}).get("layoff", "any")
        """On whose melds a player may lay off: ``any``, ``own`` or ``none``."""
        self.discard_to_go_out: str = data.get("table", {}).get("discard_to_go_out", "optional")
        self.values = self._values_table(data.get("card_values", {}))
        self.pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self.pm.add_hookspecs(hookspecs)
        self.pm.register(standard, "rummykit.standard")
        for name, module in plugins:
            self.pm.register(module, name)
        self.plugin_names = tuple(name for name, _ in plugins)
        self.hook = ResolvedHooks(self.pm)
        """The hooks, resolved once (see :mod:`rummykit.dispatch`); call with keyword arguments."""
        meld_rules = self._meld_rules(data.get("melds", {}))
        meld_rules = self.hook.rummykit_meld_rules(variant=self, rules=meld_rules) or meld_rules
        self.meld_search = MeldSearch(meld_rules, self.values)

    # -- tables ----------------------------------------------------------------------------------

    @staticmethod
    def _values_table(spec: Mapping[str, int]) -> list[int]:
        values = [0] * 53
        for face in range(52):
            rank = face % 13 + 1
            values[face] = spec.get(RANKS[rank - 1], spec.get("10" if rank == 10 else "", min(rank, 10)))
        values[JOKER_FACE] = spec.get("JK", 0)
        for key, value in spec.items():
            if len(key) >= 2 and key[-1] in SUITS and key != "JK":
                values[parse_card(key).face] = value
        return values

    @staticmethod
    def _meld_rules(spec: Mapping[str, Any]) -> MeldRules:
        wild: set[int] = set()
        for item in spec.get("wild", []):
            if item == "JK":
                wild.add(JOKER_FACE)
            elif item[-1] in SUITS and len(item) >= 2:
                wild.add(parse_card(item).face)
            else:
                rank = _RANK_KEYS[item]
                wild.update(s * 13 + rank - 1 for s in range(4))
        return MeldRules(
            sets=spec.get("sets", True),
            runs=spec.get("runs", True),
            set_min=spec.get("set_min", 3),
            set_max=spec.get("set_max", 4),
            run_min=spec.get("run_min", 3),
            run_max=spec.get("run_max"),
            ace=spec.get("ace", "low"),
            set_distinct_suits=spec.get("set_distinct_suits", False),
            wild_faces=frozenset(wild),
            max_wilds=spec.get("max_wilds"),
            wild_sets=spec.get("wild_sets", False),
            joker_sets=spec.get("joker_sets", False),
            excluded_ranks=frozenset(_RANK_KEYS[r] for r in spec.get("excluded_ranks", []) if r != "JK"),
        )

    def value(self, card: Card) -> int:
        """The ruleset's value of ``card`` (what it costs left in hand)."""
        return self.values[card.face]

    def deck_count(self, players: int) -> int:
        return per_players(self.ruleset, "decks", "count", players)

    def joker_count(self, players: int) -> int:
        return per_players(self.ruleset, "decks", "jokers", players)

    def hand_size(self, players: int) -> int:
        return per_players(self.ruleset, "deal", "hand_size", players)

    def seats_in_play(self, game: Game, dealer: int) -> list[int]:
        seats: list[int] = self.hook.rummykit_seats_in_play(game=game, dealer=dealer)
        return seats

    # -- use ------------------------------------------------------------------------------------------

    def new_game(
        self, players: int | Sequence[str] | None = None, seed: int | None = None, deal: Mapping[str, Any] | None = None
    ) -> Game:
        """Start a game. ``players`` is a count or a list of names (default: the fewest the game allows);
        ``seed`` makes every shuffle reproducible; ``deal`` prearranges the first deal:
        ``{"dealer": 0, "hands": [[...], ...], "discard": [bottom ... top], "stock": [top first ...]}``
        (cards not named go beneath the named stock, shuffled)."""
        return Game(self, players, seed, deal)

    def arrange(self, cards: Iterable[Card | str] | str) -> Arrangement:
        """The arrangement of ``cards`` with the least deadwood under this variant's meld rules."""
        if isinstance(cards, str):
            from .cards import parse

            items: list[Card] = parse(cards)
        else:
            items = [c if isinstance(c, Card) else parse_card(c) for c in cards]
        return self.meld_search.arrange(items)

    def observe(self, game: Game, seat: int) -> dict[str, Any]:
        deal = game.deal
        pile = self.ruleset.get("discard_pile", "squared")
        visible_pile = [c for c in deal.discard if c.id not in deal.face_down]
        view: dict[str, Any] = {
            "variant": self.name,
            "seat": seat,
            "deal": deal.number,
            "dealer": deal.dealer,
            "phase": deal.phase,
            "current_player": game.current_player,
            "hand": [str(c) for c in sorted(deal.hands[seat])],
            "hand_sizes": [len(h) for h in deal.hands],
            "stock_size": len(deal.stock),
            "discard_top": str(deal.discard[-1])
            if deal.discard and deal.discard[-1].id not in deal.face_down
            else None,
            "discard_size": len(deal.discard),
            "known": {
                str(s): [str(c) for c in deal.hands[s] if c.id in deal.known[s]] for s in deal.seats if s != seat
            },
            "table": [{"cards": [str(c) for c in tm.meld.cards], "owner": tm.owner} for tm in deal.table],
            "scores": list(game.scores),
        }
        if self.melds_on_table:
            for entry, tm in zip(view["table"], deal.table):
                entry["played_by"] = [tm.credits.get(c.id, tm.owner) for c in tm.meld.cards]
            if deal.phase == "use" and deal.taken is not None:
                view["must_use"] = str(deal.taken)
        if pile == "fanned":
            view["discard"] = [str(c) for c in visible_pile]
        if game.current_player == seat:
            view["legal_actions"] = [str(a) for a in game.legal_actions()]
        self.hook.rummykit_observe(deal=deal, seat=seat, view=view)
        return view

    def __repr__(self) -> str:
        extra = f" +{','.join(self.house_rules)}" if self.house_rules else ""
        return f"<Variant {self.name}{extra}>"


# -- loading and validating ---------------------------------------------------------------------------


def _offered_house_rules(plugin_name: str, module: ModuleType) -> dict[str, dict[str, Any]]:
    """The house rules ``module`` offers through ``rummykit_house_rules``, checked against the schema."""
    offered = getattr(module, "rummykit_house_rules", None)
    if offered is None:
        return {}
    try:
        specs = offered()
    except Exception as exc:
        raise PluginError(plugin_name, "rummykit_house_rules", exc) from exc
    if specs is None:
        return {}
    file, line, column = _def_position(offered, getattr(module, "__file__", None) or f"plugin {plugin_name!r}")

    def locate(path: tuple[str | int, ...], message: str) -> Problem:
        return Problem(
            file,
            line,
            column,
            "rummykit_house_rules()" + (f".{dotted(path)}" if path else ""),
            f"plugin {plugin_name!r}: {message}",
        )

    rule_schema = dict(kernel_schema()["$defs"]["house_rule"])
    variants = {"type": "array", "items": {"type": "string"}}
    rule_schema["properties"] = {**rule_schema["properties"], "variants": variants}
    schema = {
        "type": "object",
        "propertyNames": {"pattern": "^[a-z0-9][a-z0-9-]*$", "description": "lower-case letters, digits and hyphens"},
        "additionalProperties": rule_schema,
        "$defs": kernel_schema()["$defs"],
    }
    problems = schema_problems(specs, schema, locate)
    if problems:
        raise RulesetError(problems)
    return {str(name): dict(spec) for name, spec in specs.items()}


def _house_rule_specs(
    data: Mapping[str, Any], modules: Sequence[tuple[str, ModuleType]], broken: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """House rules a variant accepts: its ruleset's ``house_rules``, then those its plugins and any installed
    plugin offer for it through ``rummykit_house_rules`` (selecting one of those also registers the plugin).

    An installed plugin the variant does not name and that cannot be loaded is skipped (its name is added
    to ``broken``): one broken plugin does not stop every game."""
    specs = {name: dict(spec) for name, spec in data.get("house_rules", {}).items()}
    offering = list(modules)
    for name in sorted(_plugin_entry_points()):
        if name in dict(modules):
            continue
        try:
            offering.append((name, _load_plugin(name)))
        except (LookupError, RulesetError):
            if broken is not None:
                broken.append(name)
    for plugin_name, module in offering:
        for name, spec in _offered_house_rules(plugin_name, module).items():
            if spec.get("variants") and data["name"] not in spec["variants"]:
                continue
            entry = {k: v for k, v in spec.items() if k != "variants"}
            entry["plugins"] = list(dict.fromkeys(list(entry.get("plugins", [])) + [plugin_name]))
            specs.setdefault(name, entry)
    for name in data.get("without_house_rules", []):
        specs.pop(name, None)
    return specs


def house_rules_for(variant_name: str, plugins: Iterable[PluginSource] = ()) -> dict[str, dict[str, Any]]:
    """Every house rule the variant ``variant_name`` accepts, by name (summary, set, plugins, conflicts);
    ``plugins`` are local plugins (files or modules) offering more."""
    merged = _read_chain(find_ruleset(variant_name) if not _is_file(variant_name) else variant_name)
    modules = [(name, _load_plugin(name)) for name in merged.data.get("plugins", [])]
    return _house_rule_specs(merged.data, modules + _local_plugins(plugins))


def _build(
    source: str,
    house_rules: Sequence[str],
    options: Mapping[str, Any] | None,
    local: Sequence[tuple[str, ModuleType]] = (),
) -> Variant:
    path = find_ruleset(source) if not _is_file(source) else source
    merged = _read_chain(path)
    locate = _locator(merged, path)
    problems = _chain_schema_problems(merged, locate)
    if problems:
        raise RulesetError(problems)
    modules: list[tuple[str, ModuleType]] = []
    for index, name in enumerate(merged.data.get("plugins", [])):
        try:
            modules.append((name, _load_plugin(name)))
        except LookupError as exc:
            problems.append(locate(("plugins", index), str(exc)))
        except RulesetError as exc:
            problems.append(
                locate(
                    ("plugins", index), f"plugin {name!r} is installed but broken: {len(exc.problems)} problem(s) below"
                )
            )
            problems += exc.problems
    if problems:
        raise RulesetError(problems)
    for name, module in local:
        if name not in dict(modules):
            modules.append((name, module))
    data = merged.data
    # house rules: data from the ruleset, plus those plugins offer
    broken: list[str] = []
    specs = _house_rule_specs(data, modules, broken)
    for name in house_rules:
        if name not in specs:
            close = difflib.get_close_matches(name, list(specs), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            offered = ", ".join(sorted(specs)) or "none"
            note = (
                (
                    f" (installed plugins that could not be loaded: {', '.join(broken)}; "
                    f"'rummykit validate --plugin' tells why)"
                )
                if broken
                else ""
            )
            problems.append(
                Problem(
                    f"house rule {name!r}",
                    0,
                    0,
                    "",
                    f"{data['name']} has no house rule {name!r}{hint}; it accepts: {offered}{note}",
                )
            )
    if problems:
        raise RulesetError(problems)
    for i, name in enumerate(house_rules):
        for other in house_rules[i + 1 :]:
            if other in specs[name].get("conflicts", []) or name in specs[other].get("conflicts", []):
                problems.append(
                    Problem(
                        f"house rule {name!r}", 0, 0, "", f"house rules {name!r} and {other!r} conflict: choose one"
                    )
                )
    if problems:
        raise RulesetError(problems)
    for name in house_rules:
        spec = specs[name]
        data = merge(data, spec.get("set", {}))
        for leaf in leaf_paths(spec.get("set", {})):
            merged.origins[leaf] = Document(f"house rule {name!r}", {})
        for plugin in spec.get("plugins", []):
            if plugin not in [n for n, _ in modules]:
                try:
                    modules.append((plugin, _load_plugin(plugin)))
                except LookupError as exc:
                    problems.append(Problem(f"house rule {name!r}", 0, 0, "plugins", str(exc)))
                except RulesetError as exc:
                    problems += exc.problems
    if options:
        data = merge(data, dict(options))
        for leaf in leaf_paths(dict(options)):
            merged.origins[leaf] = Document("options", {})
    merged.data = data
    if "house_rules" not in (options or {}):  # the house rules block was checked above, with the chain
        data_checked = {k: v for k, v in data.items() if k != "house_rules"}
    else:
        data_checked = data
    problems += schema_problems(data_checked, kernel_schema(), locate)
    if problems:
        raise RulesetError(problems)
    problems += _rules_problems(data, modules, locate)
    problems += _semantic_problems(data, locate)
    if problems:
        raise RulesetError(problems)
    variant = Variant(source, merged, house_rules, options, modules)
    variant.local_plugins = tuple(
        str(Path(str(m.__file__)).resolve()) for _, m in local if getattr(m, "__file__", None)
    )
    return variant


_CHAIN_PROBLEMS: dict[tuple[int, ...], tuple[list[Document], list[Problem]]] = {}


def _chain_schema_problems(merged: _Merged, locate: Any) -> list[Problem]:
    """The schema's problems with a ruleset's ``extends`` chain, found once per chain of (cached) files:
    a ruleset with many house rules is otherwise checked whole again for each."""
    key = tuple(id(doc) for doc in merged.chain)
    if key not in _CHAIN_PROBLEMS:
        if len(_CHAIN_PROBLEMS) > 64:
            _CHAIN_PROBLEMS.clear()
        # the documents are kept with the answer, so their ids cannot be reused while it is cached
        _CHAIN_PROBLEMS[key] = (merged.chain, schema_problems(merged.data, kernel_schema(), locate))
    return list(_CHAIN_PROBLEMS[key][1])


def _rules_problems(data: Mapping[str, Any], modules: Sequence[tuple[str, ModuleType]], locate: Any) -> list[Problem]:
    rules = data.get("rules", {})
    properties: dict[str, Any] = {}
    problems = []
    for name, module in modules:
        schema_fn = getattr(module, "rummykit_rules_schema", None)
        try:
            schema = schema_fn() if schema_fn else None
        except Exception as exc:
            raise PluginError(name, "rummykit_rules_schema", exc) from exc
        if schema:
            properties.update(schema.get("properties", {}))
            problems += schema_problems(
                rules, {k: v for k, v in schema.items() if k != "additionalProperties"}, locate, ("rules",)
            )
    combined = {"type": "object", "properties": properties, "additionalProperties": False}
    problems += [p for p in schema_problems(rules, combined, locate, ("rules",)) if "unknown key" in p.message]
    return problems


_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def _semantic_problems(data: Mapping[str, Any], locate: Any) -> list[Problem]:
    """The checks a schema cannot express: player counts, decks, deals, card values, melds, the end."""
    problems = []
    players = data["players"]
    low, high = players["min"], players["max"]
    counts = range(low, high + 1)
    if low > high:
        problems.append(locate(("players", "min"), f"expected at most players.max ({high}), got {low}"))
    seated = players.get("seated")
    if seated is not None and seated < high:
        problems.append(locate(("players", "seated"), f"expected at least players.max ({high}), got {seated}"))
    if data.get("partnerships") and any(count % 2 for count in counts):
        odd = ", ".join(str(c) for c in counts if c % 2)
        problems.append(locate(("partnerships",), f"partnerships need an even number of players; players allows {odd}"))
    # per-player-count values: keys must name an allowed count
    for block, key in PER_PLAYER_DEFAULTS:
        spec = data.get(block, {}).get(key)
        if isinstance(spec, Mapping):
            for count_key in spec:
                if count_key != "default" and int(count_key) not in counts:
                    problems.append(
                        locate(
                            (block, key, count_key),
                            f"expected a player count from {low} to {high} or 'default', got {count_key!r}",
                        )
                    )
            missing = [c for c in counts if str(c) not in spec and "default" not in spec]
            if missing and low <= high:
                problems.append(
                    locate(
                        (block, key),
                        "expected a value for every allowed player count: "
                        f"add 'default' or {', '.join(repr(str(c)) for c in missing)}",
                    )
                )
    jokers_dealt = False
    for count in counts:
        decks = per_players(data, "decks", "count", count)
        jokers = per_players(data, "decks", "jokers", count)
        jokers_dealt = jokers_dealt or jokers > 0
        if decks < 1:
            problems.append(locate(("decks", "count"), f"expected at least 1 deck for {count} players, got {decks}"))
            continue
        if decks > MAX_DECKS or jokers > MAX_JOKERS:  # a deck is built card by card: bound it before play
            key, value, most = ("count", decks, MAX_DECKS) if decks > MAX_DECKS else ("jokers", jokers, MAX_JOKERS)
            problems.append(locate(("decks", key), f"expected at most {most} for {count} players, got {value:,}"))
            continue
        size = per_players(data, "deal", "hand_size", count)
        needed = size * count + (1 if data.get("deal", {}).get("upcard", True) else 0)
        available = 52 * decks + jokers
        if needed > available:
            problems.append(
                locate(
                    ("deal", "hand_size"),
                    f"dealing {size} cards to {count} players needs {needed} cards; the deck holds {available}",
                )
            )
        if size < 1:
            problems.append(locate(("deal", "hand_size"), f"expected at least 1 card each for {count} players"))
    problems += _card_value_problems(data, locate, jokers_dealt)
    melds = data.get("melds", {})
    for low_key, high_key in (("set_min", "set_max"), ("run_min", "run_max")):
        if melds.get(high_key) is not None and melds.get(low_key, 3) > melds[high_key]:
            problems.append(
                locate(
                    ("melds", low_key),
                    f"expected at most melds.{high_key} ({melds[high_key]}), got {melds.get(low_key, 3)}",
                )
            )
    if "JK" in melds.get("wild", []) and not jokers_dealt:
        index = melds["wild"].index("JK")
        problems.append(locate(("melds", "wild", index), "JK is wild but the decks hold no jokers (set decks.jokers)"))
    if not melds.get("sets", True) and not melds.get("runs", True):
        problems.append(locate(("melds",), "expected sets or runs (or both): with neither nothing can be melded"))
    target = data.get("target")
    if target is None and data.get("max_hands") is None:
        problems.append(locate(("target",), "expected a target score or max_hands, or the game never ends"))
    return problems


def _card_value_problems(data: Mapping[str, Any], locate: Any, jokers_dealt: bool) -> list[Problem]:
    """``card_values`` keys name ranks or cards the decks hold; once given, every rank has a value, and
    jokers have one whenever they are dealt."""
    problems = []
    spec = data.get("card_values")
    for key in spec or {}:
        try:
            if key not in _RANK_KEYS and key != "JK":
                parse_card(key)
        except CardError:
            problems.append(locate(("card_values", key), f"{key!r} is not a rank or a card"))
    if spec is not None:
        missing = []
        for rank in _RANK_NAMES:
            by_card = all(f"{rank}{suit}" in spec for suit in "CDHS")
            if rank not in spec and not (rank == "T" and "10" in spec) and not by_card:
                missing.append(rank)
        if missing:
            problems.append(
                locate(
                    ("card_values",), f"expected a value for every rank the decks hold; missing: {', '.join(missing)}"
                )
            )
        if "JK" in spec and not jokers_dealt:
            problems.append(
                locate(
                    ("card_values", "JK"),
                    "a value for JK, but the decks hold no jokers (set decks.jokers, or remove JK)",
                )
            )
    if jokers_dealt and "JK" not in (spec or {}):
        problems.append(locate(("decks", "jokers"), "the decks hold jokers: expected a value for JK in card_values"))
    return problems


@cache
def _load_cached(
    source: str, house_rules: tuple[str, ...], options_json: str, local: tuple[tuple[str, ModuleType], ...] = ()
) -> Variant:
    options = json.loads(options_json) if options_json else None
    return _build(source, house_rules, options, local)


def load_variant(
    name_or_path: str,
    house_rules: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    plugins: Iterable[PluginSource] = (),
) -> Variant:
    """The variant named ``name_or_path`` (a name, an alias or a YAML file), with house rules and options.

    ``options`` is a partial ruleset merged over the result (``{"target": 150}``,
    ``{"rules": {"knock_limit": 7}}``). ``plugins`` are local plugins, Python files (or modules) that are
    not installed: each is checked, registered for this variant, and its house rules become selectable.
    Raises :class:`RulesetError` for an invalid ruleset, house rule, option or plugin, and
    :class:`KeyError` for an unknown name.
    """
    source = str(name_or_path)
    if _is_file(source):
        source = str(Path(source).resolve())
    options_json = json.dumps(options, sort_keys=True) if options else ""
    return _load_cached(source, tuple(house_rules), options_json, tuple(_local_plugins(plugins)))


def validate(path: str | Path, plugins: Iterable[PluginSource] = ()) -> list[Problem]:
    """Every problem with the ruleset at ``path`` (an empty list when it is valid): the schema, then the
    ``extends`` chain, plugins, card values, deals, targets, and each of its own house rules.
    ``plugins`` are local plugins to check and load with it."""
    try:
        local = _local_plugins(plugins)
        variant = _build(str(path), (), None, local)
    except RulesetError as exc:
        return exc.problems
    except KeyError as exc:
        return [Problem(str(path), 0, 0, "", str(exc.args[0]))]
    except PluginError as exc:
        return [_plugin_error_problem(str(path), exc)]
    problems = _house_rule_problems(str(path), variant, local)
    if not problems and local:
        problems = _play_problems(variant, local)
    return problems


PLAY_CHECK = (("greedy", 1), ("greedy", 2), ("random", 3))
"""The games ``validate`` plays with local plugins (bot, seed), a few hands each, every card counted after
every action: a plugin that fails, or loses or creates a card, is found before anyone plays it."""


def _play_problems(variant: Variant, local: Sequence[tuple[str, ModuleType]]) -> list[Problem]:
    from .simulate import make_bots

    names = ", ".join(repr(name) for name, _ in local)
    file = str(getattr(local[0][1], "__file__", None) or f"plugin {local[0][0]!r}")
    for bot, seed in PLAY_CHECK:
        game = variant.new_game(seed=seed)
        bots = make_bots([bot], game.num_players, seed)
        try:
            while not game.is_over and len(game.hands) < 3:
                game.apply(bots[game.deal.current].choose(game))
                game.check_cards()
        except PluginError as exc:
            return [_plugin_error_problem(file, exc)]
        except AssertionError as exc:
            message = f"with plugin {names}, a {bot} game (seed {seed}) loses or creates cards: {exc}"
            return [Problem(file, 0, 0, "", message)]
    return []


def _house_rule_problems(path: str, variant: Variant, local: Sequence[tuple[str, ModuleType]]) -> list[Problem]:
    """Each house rule the ruleset itself defines, tried on its own: conflicts that name house rules the
    variant has, plugins that are installed, and values that validate once merged. House rules inherited
    through ``extends`` are checked when their own file is validated."""
    merged = _read_chain(find_ruleset(path) if not _is_file(path) else path)
    locate = _locator(merged, path)
    own = {
        name: spec
        for name, spec in merged.data.get("house_rules", {}).items()
        if name in (merged.chain[0].data.get("house_rules") or {})
    }  # inherited ones: checked in their file
    try:
        modules = [(n, m) for n in variant.plugin_names if isinstance(m := variant.pm.get_plugin(n), ModuleType)]
        accepted = _house_rule_specs(merged.data, modules + [m for m in local if m[0] not in variant.plugin_names])
    except (RulesetError, PluginError):
        accepted = dict(own)
    accepted.update(own)
    problems = []
    for name, spec in own.items():
        for index, other in enumerate(spec.get("conflicts", [])):
            if other not in accepted:
                close = difflib.get_close_matches(other, list(accepted), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(
                    locate(
                        ("house_rules", name, "conflicts", index),
                        f"no house rule {other!r}{hint}; {variant.name} accepts: {', '.join(sorted(accepted))}",
                    )
                )
        problems += _try_house_rule(path, name, local, locate)
    for plugin_name, module in local:  # the house rules a local plugin offers, at its hook
        offered = getattr(module, "rummykit_house_rules", None)
        if offered is None:
            continue
        file, line, column = _def_position(offered, plugin_name)
        for name, spec in _offered_house_rules(plugin_name, module).items():
            if spec.get("variants") and variant.name not in spec["variants"]:
                continue

            at_hook = partial(_at_hook, (file, line, column), plugin_name, name)
            problems += _try_house_rule(path, name, local, at_hook)
    return problems


def _at_hook(
    position: tuple[str, int, int], plugin_name: str, name: str, where: tuple[str | int, ...], message: str
) -> Problem:
    """A problem of the house rule ``name`` offered by a plugin, at its ``rummykit_house_rules``."""
    inner = dotted(where[2:]) if where[:2] == ("house_rules", name) else dotted(where)
    return Problem(
        *position,
        f"rummykit_house_rules().{name}" + (f".{inner}" if inner else ""),
        f"plugin {plugin_name!r}: {message}",
    )


def _try_house_rule(path: str, name: str, local: Sequence[tuple[str, ModuleType]], locate: Any) -> list[Problem]:
    """The problems of the variant at ``path`` with the house rule ``name`` selected, located by ``locate``."""
    problems: list[Problem] = []
    try:
        _build(path, (name,), None, local)
    except RulesetError as exc:
        for problem in exc.problems:
            if problem.file == f"house rule {name!r}":
                inner = _undotted(problem.path)
                where = ("house_rules", name) + (inner if inner[:1] == ("plugins",) else ("set",) + inner)
                problems.append(locate(where, f"house rule {name!r}: {problem.message}"))
            elif problem.line:
                problems.append(
                    Problem(
                        problem.file,
                        problem.line,
                        problem.column,
                        problem.path,
                        f"with house rule {name!r}: {problem.message}",
                    )
                )
            else:
                problems.append(locate(("house_rules", name), f"house rule {name!r}: {problem.message}"))
    return problems


def _undotted(text: str) -> tuple[str | int, ...]:
    """``rules.knock_limit`` or ``melds.wild[0]`` as a path."""
    path: list[str | int] = []
    for part in text.replace("[", ".[").split("."):
        if part.startswith("[") and part.endswith("]") and part[1:-1].isdigit():
            path.append(int(part[1:-1]))
        elif part:
            path.append(part)
    return tuple(path)


def _plugin_error_problem(fallback: str, exc: PluginError) -> Problem:
    """A hook that raised while a ruleset was checked, at the line of the hook that raised."""
    file, line = fallback, 0
    tb = exc.error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == exc.hook:
            file, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    return Problem(file, line, 1 if line else 0, exc.hook if line else "", str(exc))
