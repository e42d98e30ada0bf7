"""Checks of a merged ruleset that its JSON Schema cannot express: player counts, decks and deals, card
values, melds, turns, and each plugin's ``rules`` schema. Each returns located problems; none raises."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from . import mechanics
from .cards import CardError, parse_card
from .errors import PluginError
from .ruleset import (
    Problem,
    clash,
    schema_problems,
)
from .settings import (
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_JOKERS,
    MAX_WILD_CARDS,
    MAX_WILD_CARDS_TRIED,
    MAX_WILD_HAND_SIZE,
    PER_PLAYER_DEFAULTS,
    RANK_KEYS,
    KernelSettings,
    Pack,
    per_players,
    wild_cards,
)


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
    players_keys = (("players", "min"), ("players", "max"))
    if low > high:
        problems.append(
            clash(locate, ("players", "min"), f"players.min ({low}) is above players.max ({high})", ("players", "max"))
        )
    if data.get("partnerships") and any(count % 2 or count < 4 for count in counts):
        odd = ", ".join(str(c) for c in counts if c % 2 or c < 4)
        message = f"partnerships need an even number of players, 4 or more; players allows {odd}"
        problems.append(clash(locate, ("partnerships",), message, *players_keys))
    # per-player-count values: keys must name an allowed count
    for block, key in PER_PLAYER_DEFAULTS:
        spec = data.get(block, {}).get(key)
        if isinstance(spec, Mapping):
            for count_key in spec:
                if count_key != "default" and int(count_key) not in counts:
                    problems.append(
                        clash(
                            locate,
                            (block, key, count_key),
                            f"expected a player count from {low} to {high} or 'default', got {count_key!r}",
                            ("players", "max" if int(count_key) > high else "min"),
                        )
                    )
            missing = [c for c in counts if str(c) not in spec and "default" not in spec]
            if missing and low <= high:
                given = [int(k) for k in spec if k != "default"]
                below = missing[0] < min(given, default=low)  # players.min let in counts the values miss
                problems.append(
                    clash(
                        locate,
                        (block, key),
                        "expected a value for every allowed player count: "
                        f"add 'default' or {', '.join(repr(str(c)) for c in missing)}",
                        *(players_keys if below else reversed(players_keys)),
                    )
                )
    too_large = _limit_problems(data, locate)
    problems += too_large
    jokers_dealt = False
    melds = data.get("melds", {})
    wild_items = melds.get("wild", [])
    most_wild = (0, 0, 0)  # (wild cards, decks, jokers) at the player count with the most
    suits = len(Pack.read(data).suits)
    for count in counts:
        decks = per_players(data, "decks", "count", count)
        jokers = per_players(data, "decks", "jokers", count)
        jokers_dealt = jokers_dealt or jokers > 0
        if too_large:  # a deck is built card by card: nothing is worked out from values out of bounds
            continue
        if decks < 1:
            problems.append(locate(("decks", "count"), f"expected at least 1 deck for {count} players, got {decks}"))
            continue
        most_wild = max(most_wild, (wild_cards(wild_items, decks, jokers, suits), decks, jokers))
        size = per_players(data, "deal", "hand_size", count)
        needed = size * count + (1 if KernelSettings.read(data).upcard else 0)
        available = Pack.read(data).size * decks + jokers
        if needed >= available:  # a deal without a stock could not get past its first turns
            what = f"needs {needed} cards" if needed > available else "takes every card, leaving none for the stock"
            problems.append(
                clash(
                    locate,
                    ("deal", "hand_size"),
                    f"dealing {size} cards to {count} players {what}; the deck holds {available}",
                    *reversed(players_keys),  # the most players need the most cards
                    *_DECK_KEYS,
                    ("deal", "upcard"),
                )
            )
        if size < 1:
            problems.append(locate(("deal", "hand_size"), f"expected at least 1 card each for {count} players"))
        if size > MAX_WILD_HAND_SIZE and wild_cards(wild_items, decks, jokers, suits):
            message = f"expected at most {MAX_WILD_HAND_SIZE} cards a hand when cards are wild (melds.wild), got {size}"
            if all(not p.message.startswith(message) for p in problems):
                problems.append(clash(locate, ("deal", "hand_size"), message, ("melds", "wild")))
    tried = [key for key in ("set_distinct_suits", "run_max") if melds.get(key)]  # no quick search for these
    most = MAX_WILD_CARDS_TRIED if tried else MAX_WILD_CARDS
    if most_wild[0] > most:
        found, decks, jokers = most_wild
        reason = f" with melds.{tried[0]} (the least deadwood is found by trying every meld)" if tried else ""
        problems.append(
            clash(
                locate,
                ("melds", "wild"),
                f"makes {found} wild cards with {_count(decks, 'deck')} and {_count(jokers, 'joker')}; "
                f"expected at most {most}{reason}",
                *_DECK_KEYS,
                *(("melds", key) for key in tried),
            )
        )
    problems += _card_value_problems(data, locate, jokers_dealt)
    problems += _pack_problems(data, locate)
    for low_key, high_key in (("set_min", "set_max"), ("run_min", "run_max")):
        if melds.get(high_key) is not None and melds.get(low_key, 3) > melds[high_key]:
            problems.append(
                clash(
                    locate,
                    ("melds", low_key),
                    f"melds.{low_key} ({melds.get(low_key, 3)}) is above melds.{high_key} ({melds[high_key]})",
                    ("melds", high_key),
                )
            )
    if "JK" in melds.get("wild", []) and not jokers_dealt:
        index = melds["wild"].index("JK")
        message = "JK is wild but the decks hold no jokers (set decks.jokers)"
        problems.append(clash(locate, ("melds", "wild", index), message, ("decks", "jokers")))
    if not melds.get("sets", True) and not melds.get("runs", True):
        problems.append(locate(("melds",), "expected sets or runs (or both): with neither nothing can be melded"))
    problems += _meld_problems(data, locate, jokers_dealt, wild=bool(wild_items))
    problems += _turn_problems(data, locate)
    target = data.get("target")
    if target is None and data.get("max_hands") is None:
        problems.append(locate(("target",), "expected a target score or max_hands, or the game never ends"))
    return problems


def _meld_problems(data: Mapping[str, Any], locate: Any, jokers_dealt: bool, wild: bool) -> list[Problem]:
    """Meld values that cannot take effect together: each would be a rule the game never plays."""
    problems = []
    melds = data.get("melds", {})
    pack = Pack.read(data)
    excluded = melds.get("excluded_ranks") or []
    for index, item in enumerate(excluded):
        if item == "JK":
            message = (
                "JK is no rank: jokers meld only as wild cards (melds.wild) or in sets of jokers (melds.joker_sets)"
            )
            problems.append(locate(("melds", "excluded_ranks", index), message))
    excluded_ranks = {RANK_KEYS[item] for item in excluded if item in RANK_KEYS}  # (a wild rank: wild cards only)
    if excluded_ranks and set(pack.ranks) <= excluded_ranks:
        message = "every rank of the pack is excluded: nothing can be melded"
        problems.append(clash(locate, ("melds", "excluded_ranks"), message, *_DECK_KEYS))
    run_min = melds.get("run_min", 3)
    if melds.get("runs", True) and len(pack.order) < run_min:
        held = len(pack.order)
        message = f"melds.run_min ({run_min}) is above the {held} ranks a run can hold (melds.run_order, or the pack's)"
        problems.append(clash(locate, ("melds", "run_min"), message, ("melds", "run_order"), *_DECK_KEYS))
    suits, set_min = len(pack.suits), melds.get("set_min", 3)
    if melds.get("sets", True) and melds.get("set_distinct_suits") and set_min > suits:
        message = (
            f"melds.set_min ({set_min}) is above the {suits} suits, and a set's cards are of different suits "
            "(melds.set_distinct_suits)"
        )
        problems.append(clash(locate, ("melds", "set_min"), message, ("melds", "set_distinct_suits"), *_DECK_KEYS))
    for key in ("max_wilds", "wild_sets"):
        if melds.get(key) not in (None, False) and not wild:
            message = f"{key} is for wild cards, and no card is wild (melds.wild)"
            problems.append(clash(locate, ("melds", key), message, ("melds", "wild")))
    if melds.get("joker_sets") and not jokers_dealt:
        message = "joker_sets, but the decks hold no jokers (decks.jokers)"
        problems.append(clash(locate, ("melds", "joker_sets"), message, ("decks", "jokers")))
    return problems


_DECK_KEYS = (("decks", "count"), ("decks", "jokers"), ("decks", "ranks"), ("decks", "suits"))
"""The values that make the decks."""

_LIMITS = {
    ("decks", "count"): (MAX_DECKS, "decks"),
    ("decks", "jokers"): (MAX_JOKERS, "jokers"),
    ("deal", "hand_size"): (MAX_HAND_SIZE, "cards a hand"),
}


def _limit_problems(data: Mapping[str, Any], locate: Any) -> list[Problem]:
    """Decks, jokers and hand sizes above their bounds: one problem for each value given (not one for each
    player count it applies to)."""
    problems = []
    for (block, key), (most, unit) in _LIMITS.items():
        spec = data.get(block, {}).get(key)
        given = list(spec.items()) if isinstance(spec, Mapping) else [] if spec is None else [(None, spec)]
        for count_key, value in given:
            if isinstance(value, int) and value > most:
                path = (block, key) if count_key is None else (block, key, count_key)
                problems.append(locate(path, f"expected at most {most} {unit}, got {value:,}"))
    return problems


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _turn_problems(data: Mapping[str, Any], locate: Any) -> list[Problem]:
    """Draw, pile and turn settings that contradict each other (each would leave a player without a move)."""
    problems = []
    kernel = KernelSettings.read(data)
    from_pile = kernel.draw_from_pile
    if kernel.discard_pile == "none":
        if from_pile != "none":
            problems.append(
                clash(
                    locate,
                    ("draw", "from_pile"),
                    f"discard_pile is none, so nothing is drawn from it: expected none, got {from_pile!r}",
                    ("discard_pile",),
                )
            )
        if kernel.upcard:
            message = "discard_pile is none, so there is no upcard: expected false"
            problems.append(clash(locate, ("deal", "upcard"), message, ("discard_pile",)))
    if kernel.discard_to_go_out == "required":
        if not kernel.melds_on_table:
            message = "required is for games that meld on the table (table.melds)"
            problems.append(clash(locate, ("table", "discard_to_go_out"), message, ("table", "melds")))
        elif kernel.turn_end != "discard":
            message = (
                f"required needs a turn that ends with a discard (turn.end: discard), not {kernel.turn_end!r}: "
                "nobody could go out"
            )
            problems.append(clash(locate, ("table", "discard_to_go_out"), message, ("turn", "end")))
    problems += mechanics.ruleset_problems(kernel, locate, data)  # each mechanic checks its own values
    return problems


def _card_value_problems(data: Mapping[str, Any], locate: Any, jokers_dealt: bool) -> list[Problem]:
    """``card_values`` keys name ranks or cards the decks hold; once given, every rank has a value, and
    jokers have one whenever they are dealt."""
    problems = []
    spec = data.get("card_values")
    for key in spec or {}:
        try:
            if key not in RANK_KEYS and key != "JK":
                parse_card(key)
        except CardError:
            problems.append(locate(("card_values", key), f"{key!r} is not a rank or a card"))
    if spec is not None and "T" in spec and "10" in spec:
        message = "T and 10 are one rank: expected its value once"
        problems.append(clash(locate, ("card_values", "10"), message, ("card_values", "T")))
    if spec is not None:
        missing = []
        held = Pack.read(data).ranks
        for rank in (name for i, name in enumerate(_RANK_NAMES) if i + 1 in held):
            by_card = all(f"{rank}{suit}" in spec for suit in "CDHS")
            if rank not in spec and not (rank == "T" and "10" in spec) and not by_card:
                missing.append(rank)
        if missing:
            problems.append(
                clash(
                    locate,
                    ("card_values",),
                    f"expected a value for every rank the decks hold; missing: {', '.join(missing)}",
                    ("decks", "ranks"),
                )
            )
        if "JK" in spec and not jokers_dealt:
            problems.append(
                clash(
                    locate,
                    ("card_values", "JK"),
                    "a value for JK, but the decks hold no jokers (set decks.jokers, or remove JK)",
                    ("decks", "jokers"),
                )
            )
    if jokers_dealt and "JK" not in (spec or {}):
        message = "the decks hold jokers: expected a value for JK in card_values"
        problems.append(clash(locate, ("decks", "jokers"), message, ("card_values",)))
    return problems


def _outside(item: str, pack: Pack) -> bool:
    """Whether ``item`` (a rank or a card a ruleset names; ``JK`` is neither) is one the pack does not hold."""
    if item == "JK":
        return False
    if item in RANK_KEYS:
        return not pack.holds(RANK_KEYS[item])
    try:
        card = parse_card(item)
    except CardError:
        return False  # refused as no card elsewhere
    return not card.is_joker and not pack.holds(card.rank, card.suit)


_PACK_KEYS = (("decks", "ranks"), ("decks", "suits"))


def _pack_problems(data: Mapping[str, Any], locate: Any) -> list[Problem]:
    """A pack (``decks.ranks``, ``decks.suits``) and run order (``melds.run_order``) that make sense, and no rank
    or card outside the pack named anywhere: wild cards, exchangeable ones, excluded ranks, values."""
    problems = []
    pack = Pack.read(data)
    decks, melds = data.get("decks", {}), data.get("melds", {})
    held = " ".join(_RANK_NAMES[r - 1] for r in pack.ranks)
    for index, item in enumerate(decks.get("ranks") or ()):
        if item == "JK":
            problems.append(locate(("decks", "ranks", index), "JK is no rank of a deck: jokers are decks.jokers"))
    order = melds.get("run_order")
    if order is not None:
        ranks = [RANK_KEYS.get(str(item)) for item in order]
        for index, (item, rank) in enumerate(zip(order, ranks)):
            if rank is None:
                problems.append(locate(("melds", "run_order", index), f"{item} is no rank of a run"))
            elif not pack.holds(rank):
                message = f"{item} is not in the pack ({held})"
                problems.append(clash(locate, ("melds", "run_order", index), message, ("decks", "ranks")))
            elif rank == 1 and index:
                problems.append(locate(("melds", "run_order", index), "an ace comes first in a run order (melds.ace "
                                       "says whether it also follows the last rank)"))  # fmt: skip
        known = [r for r in ranks if r is not None and r != 1]
        if known != sorted(known):
            problems.append(locate(("melds", "run_order"), "expected the ranks in the usual order (A 2 .. K), "
                                   "leaving out those that are in no run: cards are shown in that order"))  # fmt: skip
    named = [("melds", "wild"), ("melds", "excluded_ranks"), *mechanics.card_lists()]
    for block, key in named:
        for index, item in enumerate(data.get(block, {}).get(key) or ()):
            if isinstance(item, str) and _outside(item, pack):
                message = f"{item} is not in the pack ({pack.text()})"
                problems.append(clash(locate, (block, key, index), message, *_PACK_KEYS))
    for key in ("card_values", "meld_values"):
        for item in data.get(key) or {}:
            if isinstance(item, str) and _outside(item, pack):
                problems.append(clash(locate, (key, item), f"{item} is not in the pack ({pack.text()})", *_PACK_KEYS))
    return problems
