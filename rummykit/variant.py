"""Variants: a ruleset (data) and the plugins it names (behaviour), found by name, alias or path."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs, standard
from .dispatch import ResolvedHooks
from .cards import JOKER_FACE, RANKS, SUITS, Card, CardError, parse_card
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

__all__ = ["VariantInfo", "Variant", "list_variants", "load_variant", "find_ruleset", "validate",
           "house_rules_for", "ENTRY_POINT_GROUP"]

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
            data["name"], data.get("title", data["name"]), tuple(data.get("aliases", ())),
            players.get("min", 2), players.get("max", 2), data.get("summary", ""), str(path))
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
    if name.endswith((".yaml", ".yml")) or "/" in name or Path(name).is_file():
        if Path(name).is_file():
            return str(Path(name))
        raise KeyError(f"no ruleset file {name!r}")
    known = sorted(list(names) + list(aliases))
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise KeyError(f"no variant named {name!r}{hint} Known variants: {', '.join(sorted(names))}")


def _plugin_entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


@cache
def _load_plugin(name: str) -> ModuleType:
    points = _plugin_entry_points()
    if name not in points:
        close = difflib.get_close_matches(name, list(points), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise LookupError(f"plugin {name!r} is not installed{hint}; installed: {', '.join(sorted(points)) or 'none'}")
    module = points[name].load()
    if not isinstance(module, ModuleType):
        raise LookupError(f"plugin {name!r}: the entry point must name a module, not {type(module).__name__}")
    return module


# -- reading a ruleset with its extends chain ------------------------------------------------------


@dataclass
class _Merged:
    data: dict[str, Any]
    origins: dict[tuple[str | int, ...], Document]
    chain: list[Document]


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
        doc = load_document(current)
        chain.append(doc)
        parent = doc.data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise RulesetError([doc.problem(("extends",), "expected a variant name or a path to a ruleset file")])
        candidate = Path(current).parent / parent
        if parent.endswith((".yaml", ".yml")) or candidate.is_file():
            if not candidate.is_file():
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


# -- the Variant ---------------------------------------------------------------------------------------

_RANK_KEYS = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_KEYS["10"] = 10


class Variant:
    """A playable game: its merged ruleset, its plugins, and the tables built once from them.

    Get one with :func:`load_variant`; start games with :meth:`new_game`.
    """

    def __init__(self, source: str, merged: _Merged, house_rules: Sequence[str], options: Mapping[str, Any] | None,
                 plugins: Sequence[tuple[str, ModuleType]]):
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
        self.min_players: int = data["players"]["min"]
        self.max_players: int = data["players"]["max"]
        self.partnerships: bool = bool(data.get("partnerships", False))
        self.rules: dict[str, Any] = data.get("rules", {})
        """Game-specific values (the ruleset's ``rules`` block)."""
        self.draw_from_pile: str = data.get("draw", {}).get("from_pile", "top")
        self.must_use: str = data.get("draw", {}).get("must_use", "none")
        """``deepest``: the deepest card taken from the pile must be melded or laid off at once."""
        self.melds_on_table: bool = bool(data.get("table", {}).get("melds", False))
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
            sets=spec.get("sets", True), runs=spec.get("runs", True),
            set_min=spec.get("set_min", 3), set_max=spec.get("set_max", 4),
            run_min=spec.get("run_min", 3), run_max=spec.get("run_max"),
            ace=spec.get("ace", "low"), set_distinct_suits=spec.get("set_distinct_suits", False),
            wild_faces=frozenset(wild), max_wilds=spec.get("max_wilds"),
            wild_sets=spec.get("wild_sets", False), joker_sets=spec.get("joker_sets", False),
            excluded_ranks=frozenset(_RANK_KEYS[r] for r in spec.get("excluded_ranks", []) if r != "JK"),
        )

    def value(self, card: Card) -> int:
        """The ruleset's value of ``card`` (what it costs left in hand)."""
        return self.values[card.face]

    @staticmethod
    def _per_players(spec: Any, players: int, default: int) -> int:
        if spec is None:
            return default
        if isinstance(spec, int):
            return spec
        return int(spec.get(str(players), spec.get("default", default)))

    def deck_count(self, players: int) -> int:
        return self._per_players(self.ruleset.get("decks", {}).get("count"), players, 1)

    def joker_count(self, players: int) -> int:
        return self._per_players(self.ruleset.get("decks", {}).get("jokers"), players, 0)

    def hand_size(self, players: int) -> int:
        return self._per_players(self.ruleset.get("deal", {}).get("hand_size"), players, 7)

    def seats_in_play(self, game: Game, dealer: int) -> list[int]:
        seats: list[int] = self.hook.rummykit_seats_in_play(game=game, dealer=dealer)
        return seats

    # -- use ------------------------------------------------------------------------------------------

    def new_game(self, players: int | Sequence[str] | None = None, seed: int | None = None,
                 deal: Mapping[str, Any] | None = None) -> Game:
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
            "discard_top": str(deal.discard[-1]) if deal.discard and deal.discard[-1].id not in deal.face_down
            else None,
            "discard_size": len(deal.discard),
            "known": {str(s): [str(c) for c in deal.hands[s] if c.id in deal.known[s]]
                      for s in deal.seats if s != seat},
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


def _house_rule_specs(data: Mapping[str, Any], modules: Sequence[tuple[str, ModuleType]]) -> dict[str, dict[str, Any]]:
    """House rules a variant accepts: its ruleset's ``house_rules``, then those any installed plugin offers
    for it through ``rummykit_house_rules`` (selecting one of those also registers the plugin)."""
    specs = {name: dict(spec) for name, spec in data.get("house_rules", {}).items()}
    offering = list(modules) + [(name, _load_plugin(name)) for name in sorted(_plugin_entry_points())
                                if name not in dict(modules)]
    for plugin_name, module in offering:
        offered = getattr(module, "rummykit_house_rules", None)
        if offered is None:
            continue
        for name, spec in (offered() or {}).items():
            if spec.get("variants") and data["name"] not in spec["variants"]:
                continue
            entry = {k: v for k, v in spec.items() if k != "variants"}
            entry["plugins"] = list(dict.fromkeys(list(entry.get("plugins", [])) + [plugin_name]))
            specs.setdefault(name, entry)
    return specs


def house_rules_for(variant_name: str) -> dict[str, dict[str, Any]]:
    """Every house rule the variant ``variant_name`` accepts, by name (summary, set, plugins, conflicts)."""
    merged = _read_chain(find_ruleset(variant_name) if not Path(variant_name).is_file() else variant_name)
    modules = [(name, _load_plugin(name)) for name in merged.data.get("plugins", [])]
    return _house_rule_specs(merged.data, modules)


def _build(source: str, house_rules: Sequence[str], options: Mapping[str, Any] | None) -> Variant:
    path = find_ruleset(source) if not Path(source).is_file() else source
    merged = _read_chain(path)
    locate = _locator(merged, path)
    problems = schema_problems(merged.data, kernel_schema(), locate)
    if problems:
        raise RulesetError(problems)
    modules: list[tuple[str, ModuleType]] = []
    for index, name in enumerate(merged.data.get("plugins", [])):
        try:
            modules.append((name, _load_plugin(name)))
        except LookupError as exc:
            problems.append(locate(("plugins", index), str(exc)))
    if problems:
        raise RulesetError(problems)
    data = merged.data
    # house rules: data from the ruleset, plus those plugins offer
    specs = _house_rule_specs(data, modules)
    for name in house_rules:
        if name not in specs:
            close = difflib.get_close_matches(name, list(specs), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            offered = ", ".join(sorted(specs)) or "none"
            problems.append(Problem(f"house rule {name!r}", 0, 0, "",
                                    f"{data['name']} has no house rule {name!r}{hint}; it accepts: {offered}"))
    if problems:
        raise RulesetError(problems)
    for i, name in enumerate(house_rules):
        for other in house_rules[i + 1:]:
            if other in specs[name].get("conflicts", []) or name in specs[other].get("conflicts", []):
                problems.append(Problem(f"house rule {name!r}", 0, 0, "",
                                        f"house rules {name!r} and {other!r} conflict: choose one"))
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
    if options:
        data = merge(data, dict(options))
        for leaf in leaf_paths(dict(options)):
            merged.origins[leaf] = Document("options", {})
    merged.data = data
    problems += schema_problems(data, kernel_schema(), locate)
    if problems:
        raise RulesetError(problems)
    problems += _rules_problems(data, modules, locate)
    problems += _semantic_problems(data, locate)
    if problems:
        raise RulesetError(problems)
    return Variant(source, merged, house_rules, options, modules)


def _rules_problems(data: Mapping[str, Any], modules: Sequence[tuple[str, ModuleType]], locate: Any) -> list[Problem]:
    rules = data.get("rules", {})
    properties: dict[str, Any] = {}
    problems = []
    for _name, module in modules:
        schema_fn = getattr(module, "rummykit_rules_schema", None)
        schema = schema_fn() if schema_fn else None
        if schema:
            properties.update(schema.get("properties", {}))
            problems += schema_problems(rules, {k: v for k, v in schema.items() if k != "additionalProperties"},
                                        locate, ("rules",))
    combined = {"type": "object", "properties": properties, "additionalProperties": False}
    problems += [p for p in schema_problems(rules, combined, locate, ("rules",)) if "unknown key" in p.message]
    return problems


def _semantic_problems(data: Mapping[str, Any], locate: Any) -> list[Problem]:
    problems = []
    players = data["players"]
    if players["min"] > players["max"]:
        problems.append(locate(("players", "min"), f"expected at most players.max ({players['max']}), "
                                                   f"got {players['min']}"))
    for key, value in data.get("card_values", {}).items():
        try:
            if key not in _RANK_KEYS and key != "JK":
                parse_card(key)
        except CardError:
            problems.append(locate(("card_values", key), f"{key!r} is not a rank or a card"))
        del value
    for count in range(players["min"], players["max"] + 1):
        decks = Variant._per_players(data.get("decks", {}).get("count"), count, 1)
        jokers = Variant._per_players(data.get("decks", {}).get("jokers"), count, 0)
        size = Variant._per_players(data.get("deal", {}).get("hand_size"), count, 7)
        needed = size * count + (1 if data.get("deal", {}).get("upcard", True) else 0)
        available = 52 * decks + jokers
        if needed > available:
            problems.append(locate(("deal", "hand_size"),
                                   f"dealing {size} cards to {count} players needs {needed} cards; "
                                   f"the deck holds {available}"))
    target = data.get("target")
    if target is None and data.get("max_hands") is None:
        problems.append(locate(("target",), "expected a target score or max_hands, or the game never ends"))
    return problems


@cache
def _load_cached(source: str, house_rules: tuple[str, ...], options_json: str) -> Variant:
    options = json.loads(options_json) if options_json else None
    return _build(source, house_rules, options)


def load_variant(
    name_or_path: str, house_rules: Iterable[str] = (), options: Mapping[str, Any] | None = None
) -> Variant:
    """The variant named ``name_or_path`` (a name, an alias or a YAML file), with house rules and options.

    ``options`` is a partial ruleset merged over the result (``{"target": 150}``,
    ``{"rules": {"knock_limit": 7}}``). Raises :class:`RulesetError` for an invalid ruleset, house rule or
    option, and :class:`KeyError` for an unknown name.
    """
    source = str(name_or_path)
    if Path(source).is_file():
        source = str(Path(source).resolve())
    options_json = json.dumps(options, sort_keys=True) if options else ""
    return _load_cached(source, tuple(house_rules), options_json)


def validate(path: str | Path) -> list[Problem]:
    """Every problem with the ruleset at ``path`` (an empty list when it is valid)."""
    try:
        _build(str(path), (), None)
    except RulesetError as exc:
        return exc.problems
    except KeyError as exc:
        return [Problem(str(path), 0, 0, "", str(exc.args[0]))]
    return []
