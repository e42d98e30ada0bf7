"""Variants: a ruleset (data) and the plugins it names (behaviour), built into a playable game.

This module builds and loads variants (:func:`load_variant`) and validates ruleset files
(:func:`validate`). Finding rulesets and reading their ``extends`` chains is in :mod:`rummykit.catalogue`,
finding and checking plugins in :mod:`rummykit.loader`, the kernel's ruleset values and their defaults in
:mod:`rummykit.settings`, and the checks a schema cannot express in :mod:`rummykit.checks`.
"""

from __future__ import annotations

import copy
import difflib
import itertools
import json
import os
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pluggy

from . import hookspecs, mechanics, standard
from .actions import Verb
from .cards import JOKER_FACE, RANKS, SUITS, Card, CardError, card_from_face, parse, parse_card
from .catalogue import (
    VariantInfo,
    _drop_counts_outside_players,
    _is_file,
    _locator,
    _Merged,
    _read_chain,
    _shipped_names,
    find_ruleset,
    list_variants,
)
from .checks import _rules_problems, _semantic_problems
from .dispatch import PluginError, ResolvedHooks
from .engine import Game, TableMeld
from .loader import (
    ENTRY_POINT_GROUP,
    PluginSource,
    _def_position,
    _load_plugin,
    _local_plugins,
    _plugin_entry_points,
    load_local_plugin,
    local_plugin_name,
    plugin_problems,
)
from .melds import RUN_ORDER, Arrangement, Meld, MeldRules, MeldSearch, check_copies
from .ruleset import (
    Document,
    Problem,
    RulesetError,
    clash,
    data_problems,
    dotted,
    kernel_schema,
    leaf_paths,
    load_document,
    merge,
    schema_problems,
    ten_as_t,
)
from .settings import RANK_KEYS, KernelSettings, Pack, per_players
from .typed import rules_as

__all__ = [
    "VariantInfo",
    "Variant",
    "list_variants",
    "load_variant",
    "find_ruleset",
    "house_rules_for",
    "plugin_problems",
    "load_local_plugin",
    "local_plugin_name",
    "per_players",
    "ENTRY_POINT_GROUP",
    "MAX_HOUSE_RULES",
]


MAX_HOUSE_RULES = 128
"""The most house rules selected at once, and defined in one ruleset file (shipped games accept at most 17;
validation tries each a file defines, so their number bounds its time)."""


_R = TypeVar("_R")


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
        self.origins = {path: getattr(doc, "shown", "") or doc.file for path, doc in merged.origins.items()}
        self.name: str = data["name"]
        self.title: str = data["title"]
        self.aliases: tuple[str, ...] = tuple(data.get("aliases", ()))
        self.summary: str = data.get("summary", "")
        self.house_rules = tuple(house_rules)
        self.options = dict(options or {})
        self.local_plugins: tuple[str, ...] = ()
        """Files of the local plugins (``plugins=`` / ``--plugin``) in force in this variant."""
        self.extra_plugins: tuple[str, ...] = ()
        """Names of the local plugins in force by themselves: loaded with the variant, offering no house rule
        and not named by its ruleset (what a banner names besides the house rules)."""
        self._read_from: tuple[tuple[str, tuple[int, int] | None], ...] = ()
        """The files this variant was read from (its ``extends`` chain, its plugins' house-rule files), each with
        its modification time and size then: :func:`load_variant` reads an edited one again."""
        self.min_players: int = data["players"]["min"]
        self.max_players: int = data["players"]["max"]
        self.kernel = KernelSettings.read(data)
        """The kernel's ruleset values with their defaults (:class:`~rummykit.settings.KernelSettings`)."""
        # Copied onto the variant, which the kernel reads on every action.
        kernel = self.kernel
        self.partnerships = kernel.partnerships
        self.discard_pile = kernel.discard_pile
        self.upcard = kernel.upcard
        self.draw_from_pile = kernel.draw_from_pile
        self.must_use = kernel.must_use
        self.empty_stock = kernel.empty_stock
        self.turn_end = kernel.turn_end
        self.discard_to = kernel.discard_to
        self.melds_on_table = kernel.melds_on_table
        self.layoff_mode = kernel.layoff_mode
        self.exchange = kernel.exchange
        self.discard_to_go_out = kernel.discard_to_go_out
        self.mechanic_settings: dict[str, Any] = mechanics.settings_of(data)
        """Each mechanic's own values, by its module's name (its ``Settings``), whether selected or not."""
        self.rules: dict[str, Any] = data.get("rules", {})
        """Game-specific values (the ruleset's ``rules`` block)."""
        self.values = self._values_table(data.get("card_values", {}))
        self.meld_values = (
            self._values_table({**data.get("card_values", {}), **data["meld_values"]})
            if "meld_values" in data
            else self.values
        )
        self.pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self.pm.add_hookspecs(hookspecs)
        self.pm.register(standard, "rummykit.standard")
        self.mechanics: tuple[str, ...] = ()
        """The built-in mechanics this ruleset selects (:mod:`rummykit.mechanics`), registered in this order
        after the plain turn and before the game's plugins."""
        for name, module in mechanics.selected(kernel):
            self.pm.register(module, name)
            self.mechanics += (name,)
        for name, module in plugins:
            self.pm.register(module, name)
        self.plugin_names = tuple(name for name, _ in plugins)
        self.hook = ResolvedHooks(self.pm)
        """The hooks, resolved once (see :mod:`rummykit.dispatch`); call with keyword arguments."""
        self.pack = Pack.read(data)
        """What a deck holds and the run order (``decks.ranks``, ``decks.suits``, ``melds.run_order``)."""
        meld_rules = self._meld_rules(data.get("melds", {}), self.pack.order)
        meld_rules = self.hook.rummykit_meld_rules(variant=self, rules=meld_rules) or meld_rules
        held = None if self.pack.size == 52 else self.pack.faces
        self.meld_search = MeldSearch(meld_rules, self.values, pack_faces=held)
        exchangeable = self.mechanic_settings[mechanics.exchange.__name__].exchangeable
        self.exchangeable: frozenset[int] = (
            self._faces(exchangeable) & meld_rules.wild_faces if exchangeable is not None else meld_rules.wild_faces
        )
        """The wild cards' faces that may be exchanged off the table (``table.exchangeable``; all by default)."""

    @property
    def top_layoff(self) -> bool:
        """``draw.top_layoff``, a value of mechanic :mod:`~rummykit.mechanics.whole_pile`."""
        return bool(self.mechanic_settings[mechanics.whole_pile.__name__].top_layoff)

    @property
    def rebuilds(self) -> int | None:
        """``draw.rebuilds``, a value of mechanic :mod:`~rummykit.mechanics.refill`."""
        limit: int | None = self.mechanic_settings[mechanics.refill.__name__].rebuilds
        return limit

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
    def _faces(items: Iterable[str]) -> frozenset[int]:
        """The faces a list of ranks or cards names (``['2', 'JK', 'QS']``)."""
        faces: set[int] = set()
        for item in items:
            if item == "JK":
                faces.add(JOKER_FACE)
            elif item[-1] in SUITS and len(item) >= 2:
                faces.add(parse_card(item).face)
            else:
                rank = RANK_KEYS[item]
                faces.update(s * 13 + rank - 1 for s in range(4))
        return frozenset(faces)

    @classmethod
    def _meld_rules(cls, spec: Mapping[str, Any], order: tuple[int, ...] = RUN_ORDER) -> MeldRules:
        wild = cls._faces(spec.get("wild", []))
        return MeldRules(
            sets=spec.get("sets", True),
            runs=spec.get("runs", True),
            set_min=spec.get("set_min", 3),
            set_max=spec.get("set_max", 4),
            run_min=spec.get("run_min", 3),
            run_max=spec.get("run_max"),
            ace=spec.get("ace", "low"),
            set_distinct_suits=spec.get("set_distinct_suits", False),
            wild_faces=wild,
            max_wilds=spec.get("max_wilds"),
            wild_sets=spec.get("wild_sets", False),
            joker_sets=spec.get("joker_sets", False),
            excluded_ranks=frozenset(RANK_KEYS[r] for r in spec.get("excluded_ranks", []) if r != "JK"),
            order=order,
        )

    def rules_as(self, cls: type[_R]) -> _R:
        """The ``rules`` block as ``cls``, a dataclass of its keys (:func:`rummykit.typed.rules_as`), read once."""
        return rules_as(self, cls)

    def value(self, card: Card) -> int:
        """The ruleset's value of ``card`` (what it costs left in hand)."""
        return self.values[card.face]

    def meld_value(self, card: Card) -> int:
        """What ``card`` scores melded (``meld_values``, by default the same as ``card_values``)."""
        return self.meld_values[card.face]

    def side_of(self, seat: int) -> int:
        """The partnership ``seat`` belongs to: partners sit across (seats 0 and 2, 1 and 3); in games without
        partners, the seat itself."""
        return seat % 2 if self.partnerships else seat

    def deck_count(self, players: int) -> int:
        """How many standard decks make the pack for ``players`` players (``decks.count``)."""
        return per_players(self.ruleset, "decks", "count", players)

    def joker_count(self, players: int) -> int:
        """How many jokers the pack holds for ``players`` players (``decks.jokers``)."""
        return per_players(self.ruleset, "decks", "jokers", players)

    def hand_size(self, players: int) -> int:
        """How many cards each player is dealt when ``players`` play (``deal.hand_size``)."""
        return per_players(self.ruleset, "deal", "hand_size", players)

    def seats_in_play(self, game: Game, dealer: int) -> list[int]:
        """The seats that play a deal dealt by ``dealer`` (the ``rummykit_seats_in_play`` hook)."""
        seats: list[int] = self.hook.rummykit_seats_in_play(game=game, dealer=dealer)
        return seats

    # -- use ------------------------------------------------------------------------------------------

    def new_game(
        self,
        players: int | Sequence[str] | None = None,
        seed: int | None = None,
        layout: Mapping[str, Any] | None = None,
        max_hands: int | None = None,
        *,
        deal: Mapping[str, Any] | None = None,
    ) -> Game:
        """Start a game. ``players`` is a count or a list of names (default: the fewest the game allows);
        ``seed`` makes every shuffle reproducible; ``layout`` prearranges the first deal:
        ``{"dealer": 0, "hands": [[...], ...], "discard": [bottom ... top], "stock": [top first ...]}``
        (cards not named go beneath the named stock, shuffled). ``max_hands`` ends the game after that many
        hands if it has not ended before (default: the ruleset's ``max_hands``, else
        :data:`rummykit.engine.DEFAULT_MAX_HANDS`); ``game.end_reason`` then says ``"max-hands"``.
        ``deal=`` is the old, deprecated name of ``layout=`` (``game.deal`` is the deal in progress)."""
        if deal is not None:
            if layout is not None:
                raise TypeError("new_game() takes layout= or its old name deal=, not both")
            warnings.warn("new_game(deal=...) is renamed new_game(layout=...)", DeprecationWarning, stacklevel=2)
            layout = deal
        return Game(self, players, seed, layout, max_hands)

    def arrange(self, cards: Iterable[Card | str] | str) -> Arrangement:
        """The arrangement of ``cards`` with the least deadwood under this variant's meld rules: its melds, its
        deadwood (the cards left over, sorted) and their value, ``deadwood_value``.

        ``cards`` is what a player holds: one text (``"7S 7H 7D 2C"``, spaces or commas between cards), a
        list of card texts, or a list of :class:`~rummykit.cards.Card` objects (texts and cards may be mixed).
        In a list of texts a card named twice is two copies, as in the one text. Raises
        :class:`~rummykit.cards.CardError` (a ``ValueError``) for a text that is no card, ``TypeError`` for
        an item that is neither a text nor a card, and ``ValueError`` for a hand holding a card more often
        than the game's decks do (``7S`` twice in a one-deck game).
        """
        search = self.meld_search
        items = cards.replace(",", " ").split() if isinstance(cards, str) else cards
        mask = search.hand_mask(items)  # type: ignore[arg-type]
        if mask is not None:  # distinct first-copy natural cards: nothing to check, the bit search at once
            return search._arrange_mask(mask)
        return search.arrange(self._held(cards, "arrange"))

    def deadwood(self, cards: Iterable[Card | str] | str) -> int:
        """The least deadwood value ``cards`` can leave under this variant's meld rules: the number
        ``arrange(cards).deadwood_value`` gives, without building the melds (several times faster).

        ``cards`` and the errors are as for :meth:`arrange`: one text (``"7S 7H 7D 2C"``), a list of card
        texts or :class:`~rummykit.cards.Card` objects. A hand of distinct cards without wild cards (every
        hand of a one-deck game) goes straight to the bit search, texts included.
        """
        items = cards.replace(",", " ").split() if isinstance(cards, str) else cards
        search = self.meld_search
        mask = search.hand_mask(items)  # type: ignore[arg-type]
        if mask is not None:
            return search._mask_deadwood(mask)
        return search.deadwood(self._held(cards, "deadwood"))

    def _held(self, cards: Iterable[Card | str] | str, where: str) -> list[Card]:
        """``cards`` as a list of :class:`Card` (see :meth:`arrange`), checked against the game's decks."""
        where = f"{self.name}: {where}"
        expected = "a card text such as '7H' or 'TC', or a rummykit Card"
        items: list[Card]
        try:
            if isinstance(cards, str):
                items = parse(cards)
            else:
                try:
                    given = list(cards)
                except TypeError:
                    raise TypeError(
                        f"{where}: expected the cards as one text ('7S 7H 7D') or a list of cards, "
                        f"not {type(cards).__name__}"
                    ) from None
                for item in given:
                    if not isinstance(item, (str, Card)):
                        raise TypeError(f"{where}: {item!r} ({type(item).__name__}) is not a card: expected {expected}")
                if all(isinstance(c, str) for c in given):
                    items = parse([str(c) for c in given])  # "7H", "7H": two copies, as in the text form
                else:
                    items = [c if isinstance(c, Card) else parse_card(c) for c in given]
        except CardError as exc:
            raise CardError(f"{where}: {exc}") from None
        check_copies(items, self._decks, self._jokers, where)
        pack = self.pack
        if len(pack.ranks) < 13 or len(pack.suits) < 4:
            outside = next((c for c in items if not c.is_joker and not pack.holds(c.rank, c.suit)), None)
            if outside is not None:
                raise ValueError(f"{where}: {outside} is not in the pack of {self.name} ({pack.text()})")
        return items

    @property
    def verbs(self) -> dict[str, Verb]:
        """The verbs this game's actions use, by name, as its plugins declare them (``rummykit_verbs``), in
        the order declared: the plain turn's, then each mechanic's and plugin's. Two declarations of one
        verb are merged: their shapes together, the first short form."""
        cached: dict[str, Verb] | None = self.__dict__.get("_verbs")
        if cached is not None:
            return cached
        merged: dict[str, Verb] = {}
        for impl in self.pm.hook.rummykit_verbs.get_hookimpls():  # in the order registered
            try:
                declared: list[Any] = impl.function(variant=self) or []  # type: ignore[assignment]
                if not all(isinstance(verb, Verb) for verb in declared):
                    raise TypeError(f"returned {declared!r:.60} where a list of Verb was expected")
            except Exception as exc:
                raise PluginError(impl.plugin_name, "rummykit_verbs", exc) from exc
            for verb in declared:
                old = merged.get(verb.name)
                if old is not None:
                    verb = Verb(verb.name, old.shapes | verb.shapes, old.short or verb.short)
                merged[verb.name] = verb
        self.__dict__["_verbs"] = merged
        return merged

    @property
    def _decks(self) -> int:
        """The most decks the game plays with, at any player count."""
        return max(self.deck_count(seats) for seats in range(self.min_players, self.max_players + 1))

    @property
    def _jokers(self) -> int:
        return max(self.joker_count(seats) for seats in range(self.min_players, self.max_players + 1))

    def observe(self, game: Game, seat: int | None) -> dict[str, Any]:
        """What :meth:`Game.observation` returns: ``seat``'s view of the current deal (None: an onlooker's).

        Games add to it (``rummykit_observe``); ``view["shown"]``, a list of ``{"label": ..., "cards": [...]}``,
        holds cards a game shows this seat besides the hands, the pile and the table (Gin: the knocker's
        unmatched cards while the other seat lays off), which every face displays under its label."""
        deal = game.deal
        pile = self.discard_pile
        view: dict[str, Any] = {
            "variant": self.name,
            "seat": seat,
            "deal": deal.number,
            "dealer": deal.dealer,
            "phase": deal.phase,
            "current_player": game.current_player,
            "turn_of": deal.current,
            "hand": [] if seat is None else [str(c) for c in sorted(deal.hands[seat])],
            "hand_sizes": [len(h) for h in deal.hands],
            "stock_size": len(deal.stock),
            "discard_top": None if (top := deal.pile_top_seen()) is None else str(top),
            "discard_size": len(deal.discard),
            "known": {str(s): [str(c) for c in deal.known_in_hand(seat, s)] for s in deal.seats if s != seat},
            "table": [table_entry(tm, self.meld_search) for tm in deal.table],
            "scores": list(game.scores),
        }
        if deal.zones:
            view["zones"] = {
                name: [
                    {
                        "count": len(held),
                        "cards": [str(c) for c in deal.zone_seen(seat, zone, owner)],
                    }
                    for owner, held in enumerate(zone.cards)
                ]
                for name, zone in deal.zones.items()
            }
        if deal.offer is not None:
            offer = deal.offer
            shown = deal.offer_seen(seat)
            view["offer"] = {
                "from": offer.offerer,
                "to": deal.responder,
                "declined": list(offer.declined),
                "card": None if shown is None else str(shown),
            }
        if self.melds_on_table:
            for entry, tm in zip(view["table"], deal.table):
                entry["played_by"] = [tm.credits.get(c.id, tm.owner) for c in tm.meld.cards]
            if deal.phase == "use" and deal.taken is not None:
                view["must_use"] = str(deal.taken)
        if pile == "fanned":
            view["discard"] = [str(c) for c in deal.pile_seen()]
        if game.current_player == seat:
            view["legal_actions"] = [str(a) for a in game.legal_actions()]
        self.hook.rummykit_observe(deal=deal, seat=seat, view=view)
        return view

    def __repr__(self) -> str:
        extra = f" +{','.join(self.house_rules)}" if self.house_rules else ""
        return f"<Variant {self.name}{extra}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Saved as what it was loaded from; loading it again in the same process gives the same object.
        return (_reload_variant, (self.source_name, self.house_rules, self.options, self.local_plugins))


def table_entry(table_meld: TableMeld, search: MeldSearch) -> dict[str, Any]:
    """A table meld as an observation shows it; ``stands_for`` names what each wild card stands for."""
    meld = table_meld.meld
    entry: dict[str, Any] = {"cards": [str(c) for c in meld.cards], "owner": table_meld.owner}
    meant = stands_for_faces(meld, search)
    if meant is not None:
        entry["stands_for"] = [None if f is None else str(card_from_face(f)) for f in meant]
    return entry


def stands_for_faces(meld: Meld, search: MeldSearch) -> list[int | None] | None:
    """Per card of a table meld, the face its wild card stands for (None for a natural card); None for a
    meld without wilds (or of a kind where wilds stand for nothing in particular)."""
    if not (meld.wilds and meld.kind in ("set", "run")):
        return None
    return [f if search.is_wild(c) else None for c, f in zip(meld.cards, meld.faces)]


def _reload_variant(
    source: str, house_rules: Sequence[str], options: Mapping[str, Any], plugins: Sequence[str]
) -> Variant:
    return load_variant(source, house_rules=house_rules, options=options or None, plugins=plugins)


class HouseRuleFile(dict[str, dict[str, Any]]):
    """What :func:`house_rule_file` returns: ``{name: spec}``, with the file it was read from."""

    def __init__(self, name: str, document: Document) -> None:
        super().__init__({name: dict(document.data)})
        self.name = name
        self.document = document


def house_rule_file(path: str | Path, name: str) -> dict[str, dict[str, Any]]:
    """A house rule read from a YAML file, for a plugin's ``rummykit_house_rules`` to return: ``{name: spec}``,
    the file holding the spec (``summary``, ``variants``, ``set``...), as ``rummykit new house-rule`` writes
    ``house_rule.yaml``. The file is read as a ruleset is (safely, within the same limits), and a problem in
    it, found now or when the house rule is checked, names the file and its line::

        @rummykit.hookimpl
        def rummykit_house_rules():
            return rummykit.house_rule_file(Path(__file__).with_name("house_rule.yaml"), "knock-7")
    """
    return HouseRuleFile(name, load_document(str(path)))


@dataclass
class _SetBlock(Document):
    """The ``set`` block of a house rule, as a layer of the ruleset: a problem with a value it sets is told at
    that value's line in the file that defines the house rule, as ``validate`` tells it. A plugin's house rule
    read with :func:`house_rule_file`: ``house_rule.yaml:5:18: set.rules.knock_limit: plugin 'knock-7': house
    rule 'knock-7': ...``; one a ruleset defines: ``my.yaml:9:28: house_rules.big.set.deal.hand_size: house
    rule 'big': ...``."""

    said: str = ""
    """What the message begins with: the plugin and the house rule."""
    prefix: tuple[str | int, ...] = ("set",)
    """Where the block is in its file."""
    shown: str = ""
    """How ``show --origin`` names it, when not by its file."""

    @classmethod
    def of(cls, plugin_name: str, read: HouseRuleFile) -> _SetBlock:
        return cls.within(read.document, ("set",), f"plugin {plugin_name!r}: house rule {read.name!r}: ")

    @classmethod
    def within(cls, doc: Document, prefix: tuple[str | int, ...], said: str, shown: str = "") -> _SetBlock:
        """The block at ``prefix`` of ``doc``."""
        n = len(prefix)
        positions, keys = (
            {path[n:]: place for path, place in held.items() if path[:n] == prefix}
            for held in (doc.positions, doc.keys)
        )
        block: Any = doc.data
        for key in prefix:
            block = block.get(key) if isinstance(block, Mapping) else None
        return cls(doc.file, block if isinstance(block, dict) else {}, positions, keys, said, prefix, shown)

    def problem(self, path: tuple[str | int, ...], message: str) -> Problem:
        found = super().problem(path, message)
        return Problem(found.file, found.line, found.column, dotted((*self.prefix, *path)), self.said + message)


_HOUSE_RULE_FILES: weakref.WeakKeyDictionary[ModuleType, HouseRuleFile] = weakref.WeakKeyDictionary()
"""The house rule each plugin last read with :func:`house_rule_file`: its problems are located in the file."""


def _offered_house_rules(plugin_name: str, module: ModuleType) -> dict[str, dict[str, Any]]:
    """The house rules ``module`` offers through ``rummykit_house_rules``, checked against the schema."""
    offered = getattr(module, "rummykit_house_rules", None)
    if offered is None:
        return {}
    try:
        specs = offered()
    except RulesetError:
        raise  # a house rule's file that cannot be read (house_rule_file): located in it already
    except Exception as exc:
        raise PluginError(plugin_name, "rummykit_house_rules", exc) from exc
    if specs is None:
        return {}
    if isinstance(specs, HouseRuleFile):
        _HOUSE_RULE_FILES[module] = specs
    else:
        _HOUSE_RULE_FILES.pop(module, None)
    locate = _hook_locator(plugin_name, module)
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


def _hook_locator(plugin_name: str, module: ModuleType) -> Callable[[tuple[str | int, ...], str], Problem]:
    """Locates a problem of the house rules ``module`` offers: at its ``rummykit_house_rules``, the path
    inside what the hook returns (``rummykit_house_rules().knock-7.variants[0]``)."""
    offered = getattr(module, "rummykit_house_rules", None)
    read = _HOUSE_RULE_FILES.get(module)

    def locate(path: tuple[str | int, ...], message: str) -> Problem:  # the hook's line read only for a problem
        if read is not None and path[:1] == (read.name,):  # read by house_rule_file: its file and line
            return _file_problem(read.document, path[1:], f"plugin {plugin_name!r}: {message}")
        return Problem(
            *_def_position(offered, getattr(module, "__file__", None) or f"plugin {plugin_name!r}"),
            "rummykit_house_rules()" + (f".{dotted(path)}" if path else ""),
            f"plugin {plugin_name!r}: {message}",
        )

    return locate


def _variant_names() -> dict[str, str]:
    """Every variant's name and alias (those of installed packages too), to the variant's name."""
    names, aliases = _shipped_names()
    by_path = {path: name for name, path in names.items()}
    return {**{alias: by_path.get(path, alias) for alias, path in aliases.items()}, **{name: name for name in names}}


def _applies(spec: Mapping[str, Any], variant_name: str, known: Mapping[str, str] | None = None) -> bool:
    """Whether a house rule a plugin offers applies to ``variant_name``: it names no ``variants``, or names
    the variant (by its name or an alias)."""
    variants = [str(v) for v in spec.get("variants") or ()]
    if not variants:
        return True
    known = _variant_names() if known is None else known
    return variant_name in {known.get(v, v) for v in variants}


def _ruleset_rule(merged: _Merged, path: str) -> Callable[[tuple[str | int, ...], str], Problem]:
    """A problem at a key path of the ruleset at ``path`` (``("house_rules", name)``), in the file of its
    chain that sets it."""
    return _locator(merged, path)


def _shipped_file(file: str) -> bool:
    """Whether ``file`` is a shipped ruleset (a built-in variant's, an installed game's): not the user's to change."""
    return str(Path(file).resolve()) in {str(Path(p).resolve()) for p in _shipped_names()[0].values()}


def _house_rule_specs(
    data: Mapping[str, Any],
    modules: Sequence[tuple[str, ModuleType]],
    broken: list[str] | None = None,
    *,
    at_ruleset: Callable[[tuple[str | int, ...], str], Problem] | None = None,
    elsewhere: dict[str, str] | None = None,
    files: dict[str, _SetBlock] | None = None,
    later: list[Problem] | None = None,
) -> dict[str, dict[str, Any]]:
    """House rules a variant accepts: its ruleset's ``house_rules``, then those its plugins and any installed
    plugin offer for it through ``rummykit_house_rules`` (selecting one of those also registers the plugin).

    An installed plugin the variant does not name and that cannot be loaded is skipped (its name is added
    to ``broken``): one broken plugin does not stop every game. The plugins in ``modules`` (the variant's
    own and local ones, given as files) are held to more: a house rule of theirs whose ``variants`` names
    no variant, or named like another house rule the variant has (from its ruleset or another plugin), is
    refused with a :class:`RulesetError` at their ``rummykit_house_rules``, or, for a clash with the
    ruleset's own house rule, at that rule (``at_ruleset`` locates it) unless the ruleset is a shipped one; a
    name in ``without_house_rules`` that no house rule has but is close to one's (a misspelling) is refused
    there too (when ``at_ruleset`` is given);
    ``later``, when given, receives the problems of ``without_house_rules`` instead of their being raised (the
    caller tells them with the ruleset's other problems); ``elsewhere`` receives, for each house rule offered
    for other variants only, which plugin offers it for
    which; ``files``, for each house rule a plugin read from its file (:func:`house_rule_file`), that file."""
    specs = {name: dict(spec) for name, spec in data.get("house_rules", {}).items()}
    # name -> (the plugin it comes from, how to locate a problem of it when it is held to more); the
    # ruleset's are named only for a clash (finding where a file defines each would cost on every load)
    sources: dict[str, tuple[str | None, Callable[[tuple[str | int, ...], str], Problem] | None]] = dict.fromkeys(
        specs, (None, None)
    )
    without = set(data.get("without_house_rules", []))
    known = _variant_names()
    checked = len(modules)
    offering = list(modules)
    for name in sorted(_plugin_entry_points()):
        if name in dict(modules):
            continue
        try:
            offering.append((name, _load_plugin(name)))
        except (LookupError, RulesetError):
            if broken is not None:
                broken.append(name)
    problems: list[Problem] = []
    for index, (plugin_name, module) in enumerate(offering):
        try:
            offered = _offered_house_rules(plugin_name, module)
        except (RulesetError, PluginError):
            if index < checked:
                raise
            if broken is not None:  # an installed plugin the variant does not name: skipped, as when it fails to load
                broken.append(plugin_name)
            continue
        if not offered:
            continue
        locate = _hook_locator(plugin_name, module) if index < checked else None
        source = f"plugin {plugin_name!r} ({getattr(module, '__file__', None) or 'not a file'})"
        for name, spec in offered.items():
            variants = [str(v) for v in spec.get("variants") or ()]
            if locate is not None:
                for at, variant in enumerate(variants):
                    if variant not in known and variant != data["name"]:
                        # A name close to a known variant's is taken for a typo; another may be a ruleset
                        # file's own name (``name: my-gin``), which no catalogue lists.
                        close = difflib.get_close_matches(variant, list(known), n=1)
                        if close:
                            names = ", ".join(sorted(set(known.values())))
                            message = (
                                f"no variant named {variant!r} (did you mean {close[0]!r}?); known variants: {names}"
                            )
                            problems.append(locate((name, "variants", at), f"house rule {name!r}: {message}"))
            if not _applies(spec, data["name"], known):
                if elsewhere is not None:
                    elsewhere.setdefault(name, f"plugin {plugin_name!r} offers it for {', '.join(variants)} only")
                continue
            if name in sources:
                first, first_locate = sources[name]
                at_local = locate or first_locate
                if at_local is not None and name not in without:
                    if first is None and at_ruleset is not None:
                        # The ruleset's own house rule and a plugin's: at the ruleset, unless it is a shipped one.
                        message = (
                            f"house rule {name!r}: {source} offers a house rule {name!r} for {data['name']} too; "
                            "a house rule's name is unique for a variant: rename one of them"
                        )
                        here = at_ruleset(("house_rules", name), message)
                        if not _shipped_file(here.file):
                            problems.append(here)
                            continue
                        first = f"{here.file}:{here.line}" if here.line else here.file
                    elif first is None:
                        first = f"{data['name']}'s ruleset"
                    other = first if at_local is locate else source
                    message = (
                        f"house rule {name!r}: {data['name']} has a house rule {name!r} already, from {other}; "
                        "a house rule's name is unique for a variant: rename one of them"
                    )
                    problems.append(at_local((name,), message))
                continue
            entry = {k: v for k, v in spec.items() if k != "variants"}
            entry["plugins"] = list(dict.fromkeys(list(entry.get("plugins", [])) + [plugin_name]))
            specs[name] = entry
            sources[name] = (source, locate)
            read = _HOUSE_RULE_FILES.get(module)
            if files is not None and read is not None and read.name == name:
                files[name] = _SetBlock.of(plugin_name, read)
    if at_ruleset is not None:
        for index, name in enumerate(data.get("without_house_rules", [])):
            if name in specs or broken:
                continue  # (a plugin that could not be loaded may be the one offering it)
            # A misspelt name would leave the rule it meant in force. A name like none offered may be a
            # plugin's house rule where that plugin is not installed: the ruleset still loads without it.
            left = [other for other in specs if other not in without]  # (those left out are not offered)
            close = difflib.get_close_matches(name, left, n=1)
            if not close:
                continue
            accepted = ", ".join(sorted(left))
            message = (
                f"no house rule {name!r} to leave out (did you mean {close[0]!r}?); {data['name']} accepts: {accepted}"
            )
            here = at_ruleset(("without_house_rules", index), message)
            if not _shipped_file(here.file):
                (problems if later is None else later).append(here)
    if problems:
        raise RulesetError(problems)
    for name in without:
        specs.pop(name, None)
    return specs


def house_rules_for(variant_name: str, plugins: Iterable[PluginSource] = ()) -> dict[str, dict[str, Any]]:
    """Every house rule the variant ``variant_name`` accepts, by name (summary, set, plugins, conflicts);
    ``plugins`` are local plugins (files or modules) offering more."""
    path = find_ruleset(variant_name) if not _is_file(variant_name) else variant_name
    merged = _read_chain(path)
    local = _local_plugins(plugins)
    given = {name for name, _ in local}  # a ruleset may name a local plugin, given here rather than installed
    modules = [(name, _load_plugin(name)) for name in merged.data.get("plugins", []) if name not in given]
    return _house_rule_specs(merged.data, modules + local, at_ruleset=_ruleset_rule(merged, path))


def _named_plugins(
    data: Mapping[str, Any], local: Sequence[tuple[str, ModuleType]], locate: Any
) -> tuple[list[tuple[str, ModuleType]], list[Problem]]:
    """The plugins a merged ruleset names, loaded (a local one given with it stands for an installed one of
    that name), and the problems of those that cannot be."""
    modules: list[tuple[str, ModuleType]] = []
    problems: list[Problem] = []
    given = dict(local)
    for index, name in enumerate(data.get("plugins", [])):
        if name in given:  # a local plugin given with this ruleset (--plugin FILE) stands for an installed one
            modules.append((name, given[name]))
            continue
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
    return modules, problems


def _plugin_values_problems(
    data: Mapping[str, Any], local: Sequence[tuple[str, ModuleType]], locate: Any
) -> list[Problem]:
    """The plugins' ``rules`` values checked beside problems already found in the kernel's, so that one run
    names both; nothing when the plugins themselves cannot be read or loaded (those problems come first)."""
    names, rules = data.get("plugins", []), data.get("rules", {})
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or not isinstance(rules, Mapping):
        return []
    modules, problems = _named_plugins(data, local, locate)
    return [] if problems else _rules_problems(data, modules, locate)


def _build(
    source: str,
    house_rules: Sequence[str],
    options: Mapping[str, Any] | None,
    local: Sequence[tuple[str, ModuleType]] = (),
    offers_checked: bool = False,
) -> Variant:
    """The variant ``source`` with ``house_rules`` and ``options``, ``local`` plugins given with it; refused
    with a :class:`RulesetError`. ``offers_checked``: the local plugins' house rules were checked already
    (validation builds the variant once per house rule: checking every one each time was quadratic)."""
    path = find_ruleset(source) if not _is_file(source) else source
    merged = _read_chain(path)
    locate = _locator(merged, path)
    problems = [  # validation tries each house rule a file defines: bound them, in the file that defines them
        doc.problem(
            ("house_rules",), f"defines {len(own):,} house rules; a ruleset may define at most {MAX_HOUSE_RULES}"
        )
        for doc in merged.chain
        if isinstance(own := doc.data.get("house_rules"), Mapping) and len(own) > MAX_HOUSE_RULES
    ]
    problems += _chain_schema_problems(merged, locate)
    if problems:
        raise RulesetError(problems + _plugin_values_problems(merged.data, local, locate))
    modules, problems = _named_plugins(merged.data, local, locate)
    if problems:
        raise RulesetError(problems)
    given = dict(local)
    # A local plugin (--plugin FILE, plugins=) that offers house rules is in force only through one of them
    # that is selected, as if installed: loading it makes them selectable. One that offers none is the
    # change itself, in force for the game it is loaded with.
    offering = modules + [(name, module) for name, module in local if name not in dict(modules)]
    extra = [
        (name, module) for name, module in local if name not in dict(modules) and not _offered_house_rules(name, module)
    ]
    modules += extra
    data = merged.data
    # house rules: data from the ruleset, plus those plugins offer
    broken: list[str] = []
    elsewhere: dict[str, str] = {}
    files: dict[str, _SetBlock] = {}
    deferred: list[Problem] = []  # told with the schema's and the semantic checks' problems, not alone
    specs = _house_rule_specs(
        data,
        offering,
        broken,
        at_ruleset=_ruleset_rule(merged, path),
        elsewhere=elsewhere,
        files=files,
        later=deferred,
    )
    problems = [] if offers_checked else _offered_set_problems(data, specs, modules, local)
    if problems:
        raise RulesetError(problems)
    for name in house_rules:
        if name not in specs:
            close = difflib.get_close_matches(name, list(specs), n=1)
            hint = f" ({elsewhere[name]})" if name in elsewhere else ""
            hint += f" (did you mean {close[0]!r}?)" if close else ""
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
    first = {name: i for i, name in reversed(list(enumerate(house_rules)))}
    clashes = set()  # each pair once, earlier-selected first: linear in the house rules selected
    for name in first:
        for other in specs[name].get("conflicts", []):
            if other in first and other != name:
                clashes.add((name, other) if first[name] < first[other] else (other, name))
    for name, other in sorted(clashes, key=lambda pair: (first[pair[0]], first[pair[1]])):
        problems.append(
            Problem(f"house rule {name!r}", 0, 0, "", f"house rules {name!r} and {other!r} conflict: choose one")
        )
    if problems:
        raise RulesetError(problems)
    for name in house_rules:
        spec = specs[name]
        body = ten_as_t(spec.get("set", {}))
        data = merge(data, body)
        unread = files.get(name) or Document(f"house rule {name!r}", {})  # (a plugin's, not read from a file)
        defined = _defined_in(merged, name) if name not in files else []
        for leaf in leaf_paths(body):
            merged.origins[leaf] = next((block for block in defined if leaf in block.positions), unread)
        for plugin in spec.get("plugins", []):
            if plugin not in [n for n, _ in modules]:
                try:
                    modules.append((plugin, given[plugin] if plugin in given else _load_plugin(plugin)))
                except LookupError as exc:
                    problems.append(Problem(f"house rule {name!r}", 0, 0, "plugins", str(exc)))
                except RulesetError as exc:
                    problems += exc.problems
    if options:
        body = ten_as_t(dict(options))
        data = merge(data, body)
        for leaf in leaf_paths(body):
            merged.origins[leaf] = Document("options", {})
    merged.data = data
    if "house_rules" not in (options or {}):  # the house rules block was checked above, with the chain
        data_checked = {k: v for k, v in data.items() if k != "house_rules"}
    else:
        data_checked = data
    problems += schema_problems(data_checked, kernel_schema(), locate)
    # The plugins' values are checked beside the kernel's, whichever of them has problems.
    plugin_values = _rules_problems(data, modules, locate) if isinstance(data.get("rules", {}), Mapping) else []
    if problems:
        raise RulesetError(deferred + problems + plugin_values)
    _drop_counts_outside_players(merged)  # a parent's decks.count "6" where the child allows 2 to 4 players
    data = merged.data
    problems += plugin_values + _semantic_problems(data, locate)
    if problems or deferred:
        raise RulesetError(deferred + problems)
    variant = Variant(source, merged, house_rules, options, modules)
    problems = _plugin_ruleset_problems(variant, data, locate)
    if problems:
        raise RulesetError(problems)
    variant.extra_plugins = tuple(name for name, _ in extra)
    read = [os.path.abspath(doc.file) for doc in merged.chain]
    # (every plugin's house-rule file read so far: an edit of any reads the variant again, which is rare)
    read += sorted({os.path.abspath(found.document.file) for found in list(_HOUSE_RULE_FILES.values())})
    variant._read_from = _file_stamps(read)
    in_force = dict(modules)
    variant.local_plugins = tuple(
        str(Path(str(m.__file__)).resolve())
        for name, m in local
        if getattr(m, "__file__", None) and in_force.get(name) is m
    )
    return variant


def _offered_set_problems(
    data: Mapping[str, Any],
    specs: Mapping[str, Mapping[str, Any]],
    modules: Sequence[tuple[str, ModuleType]],
    local: Sequence[tuple[str, ModuleType]],
) -> list[Problem]:
    """The ``set`` of each house rule a local plugin (``--plugin``, ``plugins=``) offers for this variant,
    merged over the ruleset and held to the kernel's schema and the game's ``rules`` schemas, selected or not:
    a value that could never be played is refused when the plugin is loaded, at the plugin's line for it. (A
    set that validates but makes an impossible game is found when it is selected, and by ``validate``.)"""
    problems: list[Problem] = []
    base = {k: v for k, v in data.items() if k != "house_rules"}
    given = dict(local)
    for plugin_name, module in local:
        if getattr(module, "rummykit_house_rules", None) is None:
            continue
        for name in _offered_house_rules(plugin_name, module):
            spec = specs.get(name)
            if spec is None or plugin_name not in spec.get("plugins", ()) or not spec.get("set"):
                continue  # offered for other variants, left out, or another plugin's of that name
            found: list[tuple[tuple[str | int, ...], str]] = []

            def note(where: tuple[str | int, ...], message: str, found: list[Any] = found) -> Problem:
                found.append((tuple(where), message))
                return Problem("", 0, 0, dotted(where), message)

            body = ten_as_t(spec["set"])
            with_it = merge(base, body)
            schema_problems(with_it, kernel_schema(), note)
            if isinstance(with_it.get("rules", {}), Mapping):
                # The rules' schemas: the game's plugins', and those the house rule brings in when selected.
                schemas: list[tuple[str, ModuleType]] | None = list(modules)
                for named in spec.get("plugins", ()):
                    if schemas is None or named in dict(schemas):
                        continue
                    try:
                        schemas.append((named, given[named] if named in given else _load_plugin(named)))
                    except (LookupError, RulesetError):
                        schemas = None  # a plugin missing: told when the house rule is selected, naming it
                if schemas is not None:
                    _rules_problems(with_it, schemas, note)
            leaves = list(leaf_paths(body))
            for where, message in dict.fromkeys(found):  # (a value two schemas refuse, told once)
                # Only what the set gives (the ruleset's own values are told at their lines, as its problems).
                if any(where[: len(leaf)] == leaf or leaf[: len(where)] == where for leaf in leaves):
                    at = _offered_at(plugin_name, module, name)
                    problems.append(at(("house_rules", name, "set") + where, f"house rule {name!r}: {message}"))
    return problems


def _plugin_ruleset_problems(variant: Variant, data: Mapping[str, Any], locate: Any) -> list[Problem]:
    """What each plugin's :func:`~rummykit.hookspecs.rummykit_ruleset_problems` finds in the merged ruleset,
    each at the line that sets the value it names. Every implementation is asked (as registered: one may take
    no argument), each with its own copy, and its problems kept under its plugin's name."""
    problems = []
    for impl in variant.pm.hook.rummykit_ruleset_problems.get_hookimpls():
        name = impl.plugin_name
        if impl.hookwrapper or impl.wrapper:
            problems.append(_at_def(impl.function, name, "cannot be a wrapper: it returns the problems it finds"))
            continue
        try:
            found = impl.function(*[copy.deepcopy(dict(data)) for _ in impl.argnames])
        except Exception as exc:
            raise PluginError(name, "rummykit_ruleset_problems", exc) from exc
        told = _told(found)
        if isinstance(told, str):
            problems.append(_at_def(impl.function, name, told))
            continue
        for path, message, others in told[:MAX_PLUGIN_PROBLEMS]:
            said = message if len(message) <= 500 else message[:500] + "..."
            problems.append(clash(locate, _undotted(path), f"plugin {name!r}: {said}", *map(_undotted, others[:8])))
        if len(told) > MAX_PLUGIN_PROBLEMS:
            more = len(told) - MAX_PLUGIN_PROBLEMS
            told_more = f"and {more:,} more problems (the first {MAX_PLUGIN_PROBLEMS} are told)"
            problems.append(_at_def(impl.function, name, told_more))
    return problems


MAX_PLUGIN_PROBLEMS = 50
"""The most problems told from one plugin's ``rummykit_ruleset_problems`` (then how many more), each message
clipped at 500 characters: a runaway check is refused in well under a second."""


def _at_def(function: Any, plugin_name: str, message: str) -> Problem:
    """A problem with a plugin's ``rummykit_ruleset_problems`` itself, at its ``def``, as a broken plugin's are."""
    file, line, column = _def_position(function, f"plugin {plugin_name!r}")
    return Problem(file, line, column, "rummykit_ruleset_problems", f"plugin {plugin_name!r}: {message}")


def _told(found: Any) -> list[tuple[str, str, tuple[str, ...]]] | str:
    """The problems a plugin gives, each ``(path, message)`` or ``(path, message, [other paths])``, paths
    dotted; or what is wrong with its answer."""
    expected = "expected None or a list of (path, message) or (path, message, [other paths]), paths dotted"
    if found is None:
        return []
    if not isinstance(found, (list, tuple)):
        return f"{expected}; got {found!r:.80}"
    told = []
    for item in found:
        fine = (
            isinstance(item, (tuple, list))
            and len(item) in (2, 3)
            and all(isinstance(part, str) and part for part in item[:2])
            and (len(item) == 2 or isinstance(item[2], (tuple, list)) and all(isinstance(o, str) for o in item[2]))
        )
        paths = [item[0], *(item[2] if len(item) == 3 else ())] if fine else []
        if not fine or not all(_undotted(path) and dotted(_undotted(path)) == path for path in paths):
            return f"{expected}; got {item!r:.80} in {found!r:.80}"
        told.append((item[0], item[1], tuple(item[2]) if len(item) == 3 else ()))
    return told


def _defined_in(merged: _Merged, name: str) -> list[_SetBlock]:
    """The ``set`` blocks of the house rule ``name`` in the files of the ``extends`` chain that define it,
    newest first: a problem with a value one sets is told at its line there."""
    prefix = ("house_rules", name, "set")
    return [
        _SetBlock.within(doc, prefix, f"house rule {name!r}: ", shown=f"house rule {name!r}")
        for doc in merged.chain
        if isinstance(own := doc.data.get("house_rules"), Mapping) and name in own
    ]


VARIANTS_KEPT = 256
"""Variants kept loaded (by name, house rules, options and plugins): a server replaying records with ever
other options keeps a bounded number."""

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


@lru_cache(maxsize=VARIANTS_KEPT)
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

    ``house_rules`` is a list of house-rule names (a single name as a string is taken as one), at most
    :data:`MAX_HOUSE_RULES` of them.

    ``options`` is a partial ruleset merged over the result (``{"target": 150}``,
    ``{"rules": {"knock_limit": 7}}``). ``plugins`` are local plugins, Python files (or modules) that are
    not installed: each is checked, registered for this variant, and its house rules become selectable.
    Raises :class:`RulesetError` for an invalid ruleset, house rule, option or plugin, and
    :class:`KeyError` for an unknown name.

    A loaded variant is kept and given again for the same arguments, until a ruleset file it was read from
    (or a plugin's house-rule file, :func:`house_rule_file`) is edited: then the files are read again.
    """
    source = str(name_or_path)
    if _is_file(source):
        source = str(Path(source).resolve())
    if isinstance(house_rules, str):  # one name, not its letters
        house_rules = [house_rules]
    selected = tuple(itertools.islice(house_rules, MAX_HOUSE_RULES + 1))
    if len(selected) > MAX_HOUSE_RULES:
        given = f"{len(house_rules):,}" if isinstance(house_rules, Sized) else f"more than {MAX_HOUSE_RULES}"
        message = f"{given} house rules selected; at most {MAX_HOUSE_RULES} may be"
        raise RulesetError([Problem("house_rules", 0, 0, "", message)])
    if options:  # bounded before it is copied, merged or checked (a record's options are data)
        problems = data_problems(options, lambda path, message: Problem("options", 0, 0, dotted(path), message))
        if problems:
            raise RulesetError(problems)
    options_json = json.dumps(options, sort_keys=True) if options else ""
    local = tuple(_local_plugins(plugins))
    variant = _load_cached(source, selected, options_json, local)
    if _file_stamps(file for file, _ in variant._read_from) != variant._read_from:
        _load_cached.cache_clear()  # a file it was read from was edited since (a notebook, a server): read again
        variant = _load_cached(source, selected, options_json, local)
    return variant


def _file_stamps(files: Iterable[str]) -> tuple[tuple[str, tuple[int, int] | None], ...]:
    """Each file with its modification time and size (None when it cannot be read now): what tells that a
    kept variant's files were edited."""
    stamps: list[tuple[str, tuple[int, int] | None]] = []
    for file in files:
        try:
            status = os.stat(file)
        except (OSError, ValueError):
            stamps.append((file, None))
        else:
            stamps.append((file, (status.st_mtime_ns, status.st_size)))
    return tuple(stamps)


def _ruleset_problems(
    path: str | Path, plugins: Iterable[PluginSource] = ()
) -> tuple[list[Problem], Variant | None, list[tuple[str, ModuleType]]]:
    """What :func:`rummykit.validation.validate` checks without playing: the problems of the ruleset at
    ``path`` (the schema, then the ``extends`` chain, plugins, card values, deals, targets, and each of its
    own house rules), the variant when it loads, and the local ``plugins`` loaded with it."""
    try:
        local = _local_plugins(plugins)
        variant = _build(str(path), (), None, local)
    except RulesetError as exc:
        return exc.problems, None, []
    except KeyError as exc:
        return [Problem(str(path), 0, 0, "", str(exc.args[0]))], None, []
    except PluginError as exc:
        return [_plugin_error_problem(str(path), exc)], None, []
    return _house_rule_problems(str(path), variant, local), variant, local


_MOVED: dict[str, Any] = {}
"""Names that moved to :mod:`rummykit.validation` (which plays trial games between bots, above this module),
filled in by it when it is imported (as ``import rummykit`` does): the old ``rummykit.variant`` names keep
working for a release, with a DeprecationWarning."""


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(f"rummykit.variant.{name} moved to rummykit.validation.{name}", DeprecationWarning, stacklevel=2)
        return _MOVED[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        accepted = _house_rule_specs(
            merged.data,
            modules + [m for m in local if m[0] not in variant.plugin_names],
            at_ruleset=_ruleset_rule(merged, path),
        )
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
        if getattr(module, "rummykit_house_rules", None) is None:
            continue
        for name, spec in _offered_house_rules(plugin_name, module).items():
            if not _applies(spec, variant.name) or name in merged.data.get("without_house_rules", ()):
                continue
            problems += _try_house_rule(path, name, local, _offered_at(plugin_name, module, name))
    return problems


def _offered_at(plugin_name: str, module: ModuleType, name: str) -> Callable[[tuple[str | int, ...], str], Problem]:
    """Locates a problem of the house rule ``name`` that ``module`` offers: at its line in the file it was read
    from (:func:`house_rule_file`), else at the plugin's ``rummykit_house_rules`` (found when a problem is)."""
    read = _HOUSE_RULE_FILES.get(module)
    if read is not None and read.name == name:
        return partial(_in_file, read.document, plugin_name, name)

    def at_hook(where: tuple[str | int, ...], message: str) -> Problem:
        position = _def_position(getattr(module, "rummykit_house_rules", None), plugin_name)
        return _at_hook(position, plugin_name, name, where, message)

    return at_hook


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


def _in_file(document: Document, plugin_name: str, name: str, where: tuple[str | int, ...], message: str) -> Problem:
    """A problem of the house rule ``name`` offered by a plugin that read it with :func:`house_rule_file`, at
    its line in that file."""
    inner = where[2:] if where[:2] == ("house_rules", name) else where
    return _file_problem(document, inner, f"plugin {plugin_name!r}: {message}")


def _file_problem(document: Document, path: tuple[str | int, ...], message: str) -> Problem:
    """A problem at ``path`` of a house rule's file: an unknown key at the key itself, as in a ruleset."""
    about_key = "unknown key" in message and path in document.keys
    line, column = document.keys[path] if about_key else document.where(path)
    return Problem(document.file, line, column, dotted(path), message)


def _try_house_rule(path: str, name: str, local: Sequence[tuple[str, ModuleType]], locate: Any) -> list[Problem]:
    """The problems of the variant at ``path`` with the house rule ``name`` selected, located by ``locate``."""
    problems: list[Problem] = []
    try:
        _build(path, (name,), None, local, offers_checked=True)
    except PluginError as exc:  # a hook that fails only with this house rule selected: at the hook's line
        problems.append(_plugin_error_problem(path, exc))
    except RulesetError as exc:
        for problem in exc.problems:
            if problem.file == f"house rule {name!r}":
                inner = _undotted(problem.path)
                where = ("house_rules", name) + (inner if inner[:1] == ("plugins",) else ("set",) + inner)
                problems.append(locate(where, f"house rule {name!r}: {problem.message}"))
            elif problem.line and (
                problem.message.startswith(f"house rule {name!r}: ")
                or problem.message.startswith("plugin ")
                and f": house rule {name!r}: " in problem.message
            ):
                problems.append(problem)  # at its line where the house rule is defined, told as such already
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
