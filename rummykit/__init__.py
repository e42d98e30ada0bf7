"""rummykit: a framework for the rummy family of card games.

Pick a variant by name, start a game, and drive it with ``legal_actions()`` and ``apply()``::

    import rummykit
    from rummykit.bots import GreedyBot
    gin = rummykit.load_variant("gin")
    game = gin.new_game(seed=7)
    bot = GreedyBot(seed=1)
    while not game.is_over:
        game.apply(bot.choose(game))  # or one of game.legal_actions(), or its text: "discard 7H"
    game.end_reason  # "target"; "max-hands" if the game reached its hand limit (max_hands) first
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES as _EXTENSION_SUFFIXES
from pathlib import Path as _Path

from . import cards, records  # records: gives Game.from_json its reader (records sits above the engine)
from .actions import ActionWords, PositionWords
from .dispatch import PluginError
from .engine import Action, Deal, Game, HandResult, IllegalAction, TableMeld
from .hookspecs import hookimpl
from .melds import Arrangement, Meld, MeldRules
from .ruleset import Problem, RulesetError
from .validation import validate
from .variant import Variant, VariantInfo, house_rule_file, list_variants, load_variant

__version__ = "0.1.0"


def _compiled() -> bool:
    from . import meldorder, melds  # the modules setup.py compiles (and envs/encoding.py, below)

    suffixes = tuple(_EXTENSION_SUFFIXES)
    envs = _Path(__file__).parent / "envs"  # the encoder imports numpy: its file is looked for instead
    encoder = any((envs / f"encoding{suffix}").is_file() for suffix in suffixes)
    return encoder and all((module.__file__ or "").endswith(suffixes) for module in (meldorder, melds))


COMPILED: bool = _compiled()
"""Whether this is the compiled build (``RUMMYKIT_COMPILE=1 pip install .`` in rummykit's folder): its meld
search and its environments' encoder run as C extensions made by mypyc. The pure-Python build is the default;
both play exactly alike."""

__all__ = [
    "COMPILED",
    "hookimpl",
    "cards",
    "records",
    "Action",
    "ActionWords",
    "PositionWords",
    "Deal",
    "Game",
    "HandResult",
    "IllegalAction",
    "PluginError",
    "TableMeld",
    "Arrangement",
    "Meld",
    "MeldRules",
    "Problem",
    "RulesetError",
    "Variant",
    "VariantInfo",
    "house_rule_file",
    "list_variants",
    "load_variant",
    "validate",
]
