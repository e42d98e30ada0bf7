"""The ``rummykit`` command: list, show, validate, play, simulate and replay games; print the ruleset schema;
scaffold a house-rule package.

Every command prints plain text (``--json`` where a program reads the answer). Mistakes on the command
line (an unknown variant, a bad house rule, an invalid ruleset or plugin) print a short message to stderr
and exit with status 2; ``validate`` exits with 1 when a file it checks is invalid, and any command exits
with 1 when a plugin's hook raises (the message names the plugin and the hook).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import math
import os
import random
import re
import signal
import sys
import tempfile
import textwrap
import threading
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import yaml

from .actions import parse_cards_of, position_words, unknown_card
from .bots import BOTS, Bot, SearchBot
from .cards import CardError
from .dispatch import PluginError
from .engine import (
    DEFAULT_MAX_HANDS,
    DEFAULT_MAX_TURNS,
    Action,
    Game,
    TableMeld,
    players_text,
)
from .records import UntrustedPlugins, load_record, play_record
from .ruleset import Problem, RulesetError, kernel_schema
from .simulate import BACKENDS, ProgressBar, WorkerLost, make_bots, play_game, processes, simulate
from .turntext import TurnPrinter, Write, _by_side, _cards, _count, _in_force, _meld_text, for_people, printable
from .validation import validate
from .variant import Variant, find_ruleset, house_rules_for, list_variants, load_variant, table_entry

__all__ = ["main", "TurnPrinter", "play_interactive", "describe_position"]

Read = Callable[[str], str]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_PLUGIN = 1

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")
HAND_WORDS = ("hand", "look", "show")
RULES_WORDS = ("rules",)
COMMAND_WORDS = (*QUIT_WORDS[:2], *HELP_WORDS[:1], *HAND_WORDS[:1], *RULES_WORDS)
"""The prompt's own words a typo is matched against (``hlep``: ``help``)."""

PILE_NAMES = {"draw stock": "the stock", "draw discard": "the pile"}
"""What the plain turn's draws are called where a short form could mean two actions."""


def short_forms(variant: Variant) -> dict[str, str]:
    """What a person may type for the first word of an action in ``variant``: each declared verb's short form
    (:attr:`Verb.short <rummykit.actions.Verb.short>`), the first declared where two verbs claim one letter.
    The plain turn's are ``s`` (the stock), ``p`` (the discard pile), ``d 9S``, ``m 7S 7H 7D``, ``l 8C on
    2``; a game adds its own (Gin's ``k 9S``)."""
    forms: dict[str, str] = {}
    for name, verb in variant.verbs.items():
        if verb.short is not None:
            forms.setdefault(verb.short, name)
    return forms


_RULESET_ORDER = (
    "name", "title", "aliases", "summary", "source", "extends", "plugins", "players", "partnerships", "decks",
    "deal", "discard_pile", "draw", "table", "melds", "card_values", "target", "max_hands", "max_turns",
    "rules",
)  # fmt: skip


class CliError(Exception):
    """A mistake on the command line: printed to stderr, exit status 2."""


def _lines_printable(text: str) -> str:
    """``text`` with its line ends kept and everything else :func:`printable`: the last guard of the output."""
    return "\n".join(map(printable, text.split("\n")))


# -- what a person types ---------------------------------------------------------------------------------


_TYPED_MELD_NUMBER = re.compile(r"^(?P<head>.*\bon\s+)(?P<number>\d+)\s*$", re.IGNORECASE | re.DOTALL)


def from_people(text: str) -> tuple[str, str | None]:
    """A typed action with its table meld counted from 1 (``layoff 7C on 1``: the first table meld) as the
    engine's action text (``layoff 7C on 0``), and None; or the text unchanged and why ``on 0`` names no meld."""
    match = _TYPED_MELD_NUMBER.match(text)
    if match is None:
        return text, None
    number = int(match["number"])
    if number == 0:
        return text, "table melds are numbered from 1 ('on 1' is the first); type 'hand' to see them"
    return f"{match['head']}{number - 1}", None


def in_card_order(actions: Sequence[Action]) -> list[Action]:
    """``actions`` as a card player lists them: each verb's actions together, the verbs in the order the
    game lists them first, and within a verb by their cards, suit by suit (clubs, diamonds, hearts, spades,
    then jokers), rank by rank, then by table meld. Actions with the same text are listed once. The web page
    orders its moves the same way."""
    verbs: dict[str, int] = {}
    for action in actions:
        verbs.setdefault(action.kind, len(verbs))
    unique = list({str(action): action for action in actions}.values())  # in the order of each text's first
    return sorted(
        unique,
        key=lambda a: (verbs[a.kind], [card.face for card in a.cards], -1 if a.target is None else a.target),
    )


def _players_text(low: int, high: int) -> str:
    return f"{low} players" if low == high else f"{low}-{high} players"


# -- the person at the terminal -------------------------------------------------------------------------


def describe_position(game: Game, seat: int, printer: TurnPrinter) -> list[str]:
    """What ``seat`` sees on its turn: the pile, the stock, its sorted hand and best arrangement, the table."""
    view = game.observation(seat)
    deal = game.deal
    words = position_words(deal, seat)
    title = printer.deal_title(game, deal, inline=True)
    lines = ["", f"-- Your turn ({title}): {for_people(printable(words.hint))}"]
    top = view.get("discard_top")
    parts = [f"{'Upcard' if deal.turn == 0 else 'Discard'}: {top}" if top else "Discard pile: empty"]
    if "discard" in view and len(view["discard"]) > 1:
        parts[0] = f"Discard pile: {_cards(view['discard'])}"
    if game.variant.discard_pile == "none":
        parts = []  # no open pile to show (Skarney, Iceberg)
    parts.append(f"Stock: {_count(view['stock_size'], 'card')}")
    parts += (for_people(printable(fact)) for fact in words.facts)
    lines.append("   " + "   ".join(parts))
    for other in deal.seats:
        if other == seat:
            continue
        known = view["known"].get(str(other), [])
        # Cards seen in that hand: picked up from the pile, or offered (turn.end: offer) and seen since.
        label = "seen" if game.variant.turn_end == "offer" else "picked up"
        seen = f" ({label}: {' '.join(known)})" if known else ""
        lines.append(f"   {printer.name(game, other)} holds {_count(view['hand_sizes'][other], 'card')}{seen}")
    for index, meld in enumerate(view["table"]):
        others: dict[int, list[str]] = {}  # cards laid off by another player, who scores them
        for card, by in zip(meld["cards"], meld.get("played_by") or ()):
            if by != meld["owner"]:
                others.setdefault(by, []).append(card)
        also = "".join(f"; {' '.join(cards)} by {printer.name(game, by)}" for by, cards in others.items())
        lines.append(f"   Table meld {index + 1}: {_meld_text(meld)} ({printer.name(game, meld['owner'])}{also})")
    for shown in view.get("shown", ()):  # cards the game shows this seat besides hands, pile and table
        lines.append(f"   {printable(shown['label'])}: {' '.join(shown['cards'])}")
    lines.append(f"   Your hand: {' '.join(view['hand'])}")
    if view["hand"]:
        lines.append(f"   Best arrangement: {_arrangement_text(game.variant, view['hand'])}")
    lines.append(f"   Scores: {printer.scores_text(game, view['scores'])}")
    return lines


def _arrangement_text(variant: Variant, hand: list[str]) -> str:
    """A hand's best arrangement as ``[7H 2C=8H 9H] deadwood 4S KD (14)``: wild cards with what they stand for."""
    search = variant.meld_search
    return variant.arrange(hand).text(lambda meld: _meld_text(table_entry(TableMeld(meld, 0), search)))


def _legal_lines(game: Game) -> list[str]:
    legal = [for_people(str(a)) for a in in_card_order(game.legal_actions())]
    # Wrap between actions only: the spaces inside an action are made unbreakable for textwrap.
    text = "Legal now: " + ", ".join(a.replace(" ", "\0") for a in legal)
    lines = [line.replace("\0", " ") for line in textwrap.wrap(text, width=100, subsequent_indent="   ")]
    shorts = short_forms(game.variant)
    examples = {verb: next(t for t in legal if t == verb or t.startswith(verb + " ")) for verb in shorts.values()
                if any(t == verb or t.startswith(verb + " ") for t in legal)}  # fmt: skip
    forms = [f"{short}{examples[verb][len(verb):]} ({examples[verb]})" for short, verb in shorts.items()
             if verb in examples and not short_form_clash(game, short)]  # fmt: skip
    if forms:
        lines.append("Short forms: " + ", ".join(forms))
    lines.append("Also: help or ? (this list), hand (show your turn again), rules, quit")
    return lines


LEGAL_NOW = ". Legal now: "
"""Where the engine's refusal (:class:`~rummykit.IllegalAction`) turns from its reason to the legal actions."""


def refusal_text(game: Game, message: str) -> str:
    """The engine's refusal as people read it at the terminal: table melds counted from 1, and the legal
    actions it lists in a card player's order (:func:`in_card_order`), at most a dozen as the engine gives."""
    reason, found, _ = message.partition(LEGAL_NOW)
    if not found:
        return for_people(message)
    legal = [for_people(str(a)) for a in in_card_order(game.legal_actions())]
    more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
    return f"{for_people(reason)}{LEGAL_NOW}{', '.join(legal[:12])}{more}"


def short_form_clash(game: Game, text: str) -> str | None:
    """Why a short form typed alone is not taken now, when it could mean two legal actions: its verb's, and
    another verb's without cards that starts with the same letter (``p``, the pile, while Gin's ``pass`` is
    legal too at the upcard offer); None otherwise."""
    words = text.split()
    if len(words) != 1:
        return None
    letter = words[0].lower()
    verb = short_forms(game.variant).get(letter)
    if verb is None:
        return None
    legal = game.legal_actions()
    if not any(a.kind == verb and not a.cards for a in legal):
        return None
    other = next((a.kind for a in legal if not a.cards and a.kind != verb and a.kind.startswith(letter)), None)
    if other is None:
        return None
    meant = f"{PILE_NAMES[verb]} ('{verb}')" if verb in PILE_NAMES else f"'{verb}'"
    return f"'{letter}' could mean '{other}' or {meant}: type the one you mean in full."


def expand_short_form(game: Game, text: str) -> str:
    """The action text meant by a short form (``s``, ``p``, ``d 9S``...) or a bare ``draw`` when only one
    draw is legal; other text unchanged."""
    words = text.split()
    if not words:
        return text
    head = words[0].lower()
    shorts = short_forms(game.variant)
    if head in shorts:
        return " ".join([shorts[head], *words[1:]])
    if head == "draw" and len(words) == 1:
        draws = sorted({a.kind for a in game.legal_actions() if a.kind.startswith("draw")})
        if len(draws) == 1:
            return draws[0]
    return text


def did_you_mean(game: Game, text: str) -> str | None:
    """A suggestion for text whose words are no action or command, close to a legal one (``dicard 7H``)."""
    words = text.split()
    if not words:
        return None
    if len(words) == 1 and difflib.get_close_matches(words[0].lower(), COMMAND_WORDS, n=1, cutoff=0.75):
        return difflib.get_close_matches(words[0].lower(), COMMAND_WORDS, n=1, cutoff=0.75)[0]
    kinds = sorted({a.kind for a in game.legal_actions()} | set(position_words(game.deal, game.deal.actor).verbs))
    verb: list[str] = []
    rest = list(words)
    while rest:  # the verb is the words before the first card
        try:
            parse_cards_of(rest[0])
            break
        except CardError:
            verb.append(rest.pop(0).lower())
    typed = " ".join(verb)
    if not typed or typed in kinds:
        return None
    match = difflib.get_close_matches(typed, kinds, n=1, cutoff=0.6)
    if not match:
        match = difflib.get_close_matches(verb[0], kinds, n=1, cutoff=0.6)
    if not match or len(match[0].split()) < len(verb):
        return None  # words left over that are neither the verb nor cards ('discard 9Z'): no guess
    return " ".join([match[0], *rest])


def rules_lines(variant: Variant, game: Game | None = None) -> list[str]:
    """What ``rules`` shows in a game: the variant's summary, its house rules and main values; with ``game``,
    what the deal in progress sets, as the game states it beside the pile (its position facts: Oklahoma
    Gin's ``Knock limit: 6 (the upcard's value)``)."""
    lines = [f"{printable(variant.title)} ({variant.name})"]
    lines += ["   " + line for line in textwrap.wrap(printable(variant.summary or ""), width=96)]
    if variant.house_rules:
        lines.append(f"   House rules: {printable(', '.join(variant.house_rules))}")
    ruleset = variant.ruleset
    facts = []
    if ruleset.get("target") is not None:
        facts.append(f"target {ruleset['target']}")
    facts.append(f"a game stops after {_count(ruleset.get('max_hands') or DEFAULT_MAX_HANDS, 'hand')} at most")
    facts.append(f"a hand after {_count(ruleset.get('max_turns') or DEFAULT_MAX_TURNS, 'turn')}")
    lines.append("   " + ", ".join(facts))
    if game is not None and not game.is_over:
        dealt = position_words(game.deal, game.deal.actor).facts
        if dealt:
            lines.append(f"   This deal: {printable('; '.join(dealt))}")
    lines.append(f"   The whole ruleset: rummykit show {variant.name}")
    return lines


def _card_problem(game: Game, text: str) -> str | None:
    """Why typed text such as ``discard ZZ`` names something that is not a card (None when it does not)."""
    problem = unknown_card(game.deal, game.legal_actions(), text)
    return None if problem is None else f"{problem}. Type 'help' for the legal actions."


def play_interactive(
    game: Game,
    human: int,
    bots: Sequence[Bot | None],
    read: Read,
    write: Write,
    printer: TurnPrinter | None = None,
    pause: bool = False,
) -> bool:
    """Play ``game`` with a person in seat ``human`` and ``bots[seat]`` in the others.

    ``read(prompt)`` returns the person's next line (EOFError or KeyboardInterrupt means quit);
    ``write(line)`` shows a line. A line that is not a legal action is explained and asked again, the
    game unchanged; short forms (:func:`short_forms`) are accepted and near misses get a suggestion.
    With ``pause``, the person presses Enter after each hand's settlement before the next deal is shown.
    Returns True when the game was played to its end, False when the person quit.
    """
    printer = printer or TurnPrinter(write, viewer=human, show_hands=False)
    if printer.viewer is None:
        printer.viewer = human
    leaving = False
    if pause:

        def wait() -> bool:
            nonlocal leaving
            try:
                leaving = read("(press Enter for the next deal) ").strip().lower() in QUIT_WORDS
            except (EOFError, KeyboardInterrupt):
                leaving = True
            return not leaving

        printer.pause = wait
    printer.start(game)
    while not game.is_over:
        if leaving:
            write("You leave the game.")
            return False
        if printer.stop_after is not None and len(game.results) >= printer.stop_after:
            return False  # --max-hands: the caller says where play stopped
        deal = game.deal
        seat = deal.actor
        if seat != human:
            bot = bots[seat]
            if bot is None:
                raise ValueError(f"no bot plays seat {seat}")
            action = bot.choose(game)
            game.apply(action)
            printer(game, deal, seat, action)
            continue
        for line in describe_position(game, seat, printer):
            write(line)
        while True:
            try:
                text = read("> ").strip()
            except (EOFError, KeyboardInterrupt):
                text = "quit"
            word = text.lower()
            if word in QUIT_WORDS:
                write("You leave the game.")
                return False
            if word in HELP_WORDS:
                for line in _legal_lines(game):
                    write(line)
                continue
            if word in HAND_WORDS:
                for line in describe_position(game, seat, printer):
                    write(line)
                continue
            if word in RULES_WORDS:
                for line in rules_lines(game.variant, game):
                    write(line)
                continue
            if not word:
                write("Type an action (e.g. 'draw stock', 'discard 7H'), or 'help' for the legal ones.")
                continue
            if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in text):  # an arrow key's escape
                write(
                    "That line holds a control character (an arrow key?); type an action, or 'help' for the legal ones."
                )
                continue
            clash = short_form_clash(game, text)
            if clash:
                write(clash)
                continue
            text, numbering = from_people(expand_short_form(game, text))
            if numbering is not None:
                write(numbering)
                continue
            try:
                action = game.resolve(text)
            except ValueError as exc:  # IllegalAction, or text that is no action
                suggestion = did_you_mean(game, text)
                problem = _card_problem(game, text) or refusal_text(game, str(exc))
                if suggestion is None:
                    write(problem)
                    continue
                if suggestion in COMMAND_WORDS:
                    write(f"Did you mean '{suggestion}'?")
                    continue
                try:
                    game.resolve(suggestion)
                except ValueError as refused:  # a verb of the game, not legal now: say why
                    write(f"Did you mean '{for_people(suggestion)}'? {refusal_text(game, str(refused))}")
                else:
                    write(f"Did you mean '{for_people(suggestion)}'? ({problem})")
                continue
            break
        game.apply(action)
        printer(game, deal, seat, action)
    return True


# -- commands ---------------------------------------------------------------------------------------------


def _out(text: str) -> None:
    print(_lines_printable(text))


def _out_json(text: str) -> None:
    """JSON as it is: JSON escapes its own control characters (an escape added here would break it)."""
    print(text)


def _house_rules(values: Sequence[str] | None) -> list[str]:
    return [name.strip() for value in values or () for name in value.split(",") if name.strip()]


def _load(name: str, house_rules: Sequence[str] = (), plugins: Sequence[str] | None = None) -> Variant:
    return load_variant(name, house_rules=house_rules, plugins=plugins or ())


def _bot_names(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",")]
    if not any(names):
        raise CliError(f"--bots names no bot: name one for every seat, or one per seat ({', '.join(sorted(BOTS))})")
    if not all(names):
        raise CliError(f"--bots {text!r} has an empty name between its commas: name one bot per seat, or one for all")
    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise CliError(f"unknown bot {', '.join(map(repr, unknown))}: bots are {', '.join(sorted(BOTS))}")
    return names


def cmd_list(args: argparse.Namespace) -> int:
    infos = list_variants()
    width = max((len(info.name) for info in infos), default=4)
    for info in infos:
        aliases = f"; aliases: {', '.join(info.aliases)}" if info.aliases else ""
        _out(f"{info.name:<{width}}  {printable(info.title)} "
             f"({_players_text(info.min_players, info.max_players)}{aliases})")  # fmt: skip
        if info.summary:
            for line in textwrap.wrap(printable(info.summary), width=110 - width):
                _out(f"{'':<{width}}  {line}")
    return EXIT_OK


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    keys = [k for k in _RULESET_ORDER if k in data] + [k for k in data if k not in _RULESET_ORDER]
    return {k: data[k] for k in keys if k != "house_rules"}


class _RulesetDumper(yaml.SafeDumper):
    """Block mappings, lists on one line: how ruleset files are written."""


def _flow_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_RulesetDumper.add_representer(list, _flow_list)


def cmd_show(args: argparse.Namespace) -> int:
    chosen = _house_rules(args.house_rule)
    variant = _load(args.name, chosen, args.plugin)
    _out(f"# {printable(variant.title)} ({variant.name})" + (f" with {printable(', '.join(chosen))}" if chosen else ""))
    if args.origin:
        for line in origin_lines(variant):
            _out(line)
    else:
        text = yaml.dump(
            _ordered(variant.ruleset), Dumper=_RulesetDumper, sort_keys=False, allow_unicode=True, width=110
        )
        _out(text.rstrip())
    specs = house_rules_for(args.name, args.plugin or ())
    _out("")
    if not specs:
        _out(f"{variant.name} accepts no house rules.")
        return EXIT_OK
    _out("House rules (select with --house-rule NAME; * selected):")
    width = max(len(name) for name in specs)
    for name, spec in specs.items():
        mark = "*" if name in chosen else " "
        summary = str(spec.get("summary", ""))
        conflicts = spec.get("conflicts") or []
        if conflicts:
            summary += f" [not with: {', '.join(map(str, conflicts))}]"
        lines = textwrap.wrap(printable(summary), width=max(40, 112 - width)) or [""]
        _out(f"{mark} {printable(name):<{width}}  {lines[0]}")
        for line in lines[1:]:
            _out(f"  {'':<{width}}  {line}")
    return EXIT_OK


def _scalar_text(value: Any) -> str:
    text = yaml.dump(value, Dumper=_RulesetDumper, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.strip().removesuffix("...").strip()


def _origin_name(file: str) -> str:
    """How ``show --origin`` names a file: shipped rulesets by file name, others relative to here."""
    path = Path(file)
    if not path.is_absolute():
        return file
    if path.parent.name == "variants" and path.parent.joinpath("__init__.py").exists():
        return path.name
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return file


_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def origin_lines(variant: Variant) -> list[str]:
    """The merged ruleset as YAML, each value followed by ``# file`` naming where in the ``extends`` chain
    (or which house rule, or the options) it came from."""
    rows: list[tuple[str, str]] = []

    def walk(data: dict[str, Any], prefix: tuple[str | int, ...], indent: int) -> None:
        for key, value in data.items():
            path = prefix + (key,)
            label = key if _PLAIN_KEY.match(key) else json.dumps(key)
            if isinstance(value, dict) and value:
                rows.append((f"{'  ' * indent}{label}:", ""))
                walk(value, path, indent + 1)
            else:
                origin = _origin_name(variant.origins.get(path, ""))
                rows.append((f"{'  ' * indent}{label}: {_scalar_text(value)}", origin))

    walk(_ordered(variant.ruleset), (), 0)
    width = min(max((len(text) for text, origin in rows if origin), default=0), 48)
    return [f"{text:<{width}}  # {origin}" if origin else text for text, origin in rows]


def cmd_schema(args: argparse.Namespace) -> int:
    schema = kernel_schema()
    if args.plugin and not args.variant:
        raise CliError("schema --plugin adds a plugin's rules to a variant's schema: name the variant with --variant")
    if args.variant:
        variant = _load(args.variant, (), args.plugin)
        rules: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
        for result in variant.pm.hook.rummykit_rules_schema():
            if result:
                rules["properties"].update(result.get("properties", {}))
        schema["properties"]["rules"] = {**schema["properties"]["rules"], **rules}
    _out_json(json.dumps(schema, indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    from .scaffold import ScaffoldError, new_house_rule

    try:
        created = new_house_rule(args.name, Path(args.dir), args.variant)
    except ScaffoldError as exc:
        raise CliError(str(exc)) from None
    _out(f"Created {created.shown}/ (house rule {args.name!r} for {created.variant}):")
    for path in created.files:
        _out(f"  {path.relative_to(created.root.parent)}")
    _out("")
    _out("Next:")
    for line in created.next_steps:
        _out(f"  {line}")
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    report = []
    for path in args.paths:
        problems = validate(path, plugins=args.plugin or ())
        report.append({"file": str(path), "valid": not problems, "problems": [p.as_dict() for p in problems]})
        if not args.json:
            for problem in problems:
                _out(_problem_text(problem))
            if not problems:
                _out(f"{path}: OK")
    if args.json:
        _out_json(json.dumps(report, indent=1))
    return EXIT_OK if all(item["valid"] for item in report) else EXIT_INVALID


def check_output_path(path: str, option: str = "--save", what: str = "write the game to") -> None:
    """Refuse, before any game is played (or any server started), a file that cannot be written: a folder, a
    missing folder, no permission. Raises :class:`CliError` with one line naming the option and the path;
    ``what`` says what the file is for (``name a file to WHAT``)."""
    if not path:
        raise CliError(f"{option}: the file name is empty; name a file to {what}")
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise CliError(f"{option} {path}: that is a folder; name a file to {what}")
    if not folder.is_dir():
        missing = "is not a folder" if folder.exists() else "does not exist"
        raise CliError(f"{option} {path}: the folder {folder} {missing}")
    if target.exists() and not target.is_file():  # a device (/dev/full), a pipe: writes may fail, or go nowhere
        raise CliError(f"{option} {path}: not a regular file (a device, pipe or socket); name a file to {what}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise CliError(f"{option} {path}: cannot write there (permission denied)")
    # Permissions do not bind root, and some file systems (/proc, /sys) refuse new files whatever they say:
    # the file is opened (or made and removed again) now, so that nothing is played only to be lost.
    real = os.path.realpath(target)  # (a link to a file not made yet is written through, as open() does)
    try:
        if os.path.exists(real):
            with open(real, "ab"):  # appending nothing leaves the file as it was
                pass
            return
        os.close(os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError as exc:
        raise CliError(f"{option} {path}: cannot make a file there ({_reason(exc)})") from None
    with contextlib.suppress(OSError):  # made: the answer is yes, whether or not it can be removed now
        os.unlink(real)


def _reason(exc: OSError) -> str:
    """What the system said of a file it refused, in lower case (``permission denied``)."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def check_output_folder(path: str, option: str) -> None:
    """Refuse, before any game is played, a folder that cannot be written into (made, when it does not exist
    yet): a file, a missing parent folder, no permission. Raises :class:`CliError` with one line."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{option} {path}: not a folder")
    if not folder.exists() and not folder.resolve().parent.is_dir():
        raise CliError(f"{option} {path}: its parent folder does not exist")
    writable = folder if folder.exists() else folder.resolve().parent
    if not os.access(writable, os.W_OK | os.X_OK):
        raise CliError(f"{option} {path}: cannot write there (permission denied)")
    try:  # as for a file (check_output_path): a file is made in it and removed again, or the folder itself
        if folder.exists():
            with tempfile.TemporaryFile(dir=folder):
                pass
        else:
            folder.mkdir()
            folder.rmdir()
    except OSError as exc:
        raise CliError(f"{option} {path}: cannot write there ({_reason(exc)})") from None


def _record_refused(path: str, exc: KeyError | ValueError) -> CliError:
    """The one line for a record at ``path`` that does not replay, or names a variant, house rule or option
    that does not load (a KeyError's message without its quotes)."""
    return CliError(f"{path}: {printable(str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc))}")


def _record_text(path: str) -> str:
    """A record file's text; CliError naming the file when it is not UTF-8 text."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start:,}"
        raise CliError(f"{path}: not a rummykit record: not UTF-8 text ({where})") from None


def _resumed(path: str) -> Game:
    try:
        text = _record_text(path)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        game = Game.from_json(text)
    except (TypeError, AttributeError, json.JSONDecodeError) as exc:
        raise CliError(f"{path} is not a rummykit record: {exc}") from None
    except (KeyError, ValueError) as exc:
        raise _record_refused(path, exc) from None
    if game.is_over:
        raise CliError(f"{path}: that game is over (rummykit replay {path} shows it)")
    return game


def _check_max_hands(args: argparse.Namespace) -> None:
    """``--max-hands`` within what a ruleset's ``max_hands`` allows."""
    most = int(kernel_schema()["properties"]["max_hands"]["maximum"])
    if args.max_hands is not None and not 1 <= args.max_hands <= most:
        raise CliError(f"--max-hands is from 1 to {most:,}, not {args.max_hands}")


def cmd_play(args: argparse.Namespace) -> int:
    if args.name is not None and args.resume is not None:
        raise CliError(f"--resume goes on with the saved game's variant: leave out the variant ({args.name})")
    if args.name is None and args.resume is None:
        raise CliError("name a variant to play (rummykit play gin) or a saved game to go on with (--resume FILE)")
    save = args.save if args.save is not None else args.resume
    if args.save is not None:
        check_output_path(args.save)
    elif args.resume is not None:  # saved back where it came from
        check_output_path(args.resume, "--resume", "save the game to with --save")
    _check_max_hands(args)
    if args.bots and args.opponent is not None:
        raise CliError("--opponent is the bot a person plays against, and with --bots every seat is a bot: "
                       "leave out one of them")  # fmt: skip
    think = _think(args)
    if args.resume is not None:
        if args.bots or args.seed is not None or args.players is not None or args.house_rule or args.plugin:
            raise CliError("--resume goes on with the saved game's variant, seed and players: leave out "
                           "--bots, --seed, --players, --house-rule and --plugin")  # fmt: skip
        game = _resumed(args.resume)
        _play_person_against(game, args.opponent or "greedy", args.max_hands, think)
    elif args.bots:
        variant = _load(args.name, _house_rules(args.house_rule), args.plugin)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
        names = _bot_names(args.bots)
        players = args.players if args.players is not None else (len(names) if len(names) > 1 else variant.min_players)
        if args.players is None and not variant.min_players <= players <= variant.max_players:
            raise CliError(f"--bots names {players} bots, one per seat, but {players_text(variant, players)}")
        labels = names * min(players, variant.max_players) if len(names) == 1 else names  # the count is checked later
        printer = TurnPrinter(_out, show_hands=True, labels=labels)
        printer.stop_after = args.max_hands
        bots: Sequence[str | Bot] = names
        seats_fit = variant.min_players <= players <= variant.max_players and len(names) in (1, players)
        if think is not None and seats_fit:  # (else play_game says what is wrong, as without --think)
            bots = _thinking(make_bots(names, players, seed), think)
        game = play_game(variant, seed, bots, players, on_action=printer, max_hands=args.max_hands,
                         on_start=printer.start)  # fmt: skip
        printer.game_end(game)
    else:
        variant = _load(args.name, _house_rules(args.house_rule), args.plugin)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
        players = args.players if args.players is not None else variant.min_players
        game = variant.new_game(players=players, seed=seed)
        _play_person_against(game, args.opponent or "greedy", args.max_hands, think)
    if save is not None:
        try:
            Path(save).write_text(game.to_json() + "\n", encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {save}: {exc.strerror or exc}") from None
        _out(f"Saved the game to {save}")
    return EXIT_OK


def _think(args: argparse.Namespace) -> float | None:
    """``--think``'s seconds (None without it); CliError for a value that is no time, or with no search bot."""
    if args.think is None:
        return None
    try:
        seconds = float(args.think)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise CliError(f"--think is a number of seconds above 0, not {args.think!r}")
    if "search" not in _bot_names(args.bots or args.opponent or "greedy"):
        raise CliError("--think caps the search bot's moves, and no search bot plays here (--opponent search)")
    return seconds


def _thinking(bots: list[Bot], think: float) -> list[Bot]:
    """``bots`` with each search bot's decisions capped at ``think`` seconds (``--think``)."""
    for bot in bots:
        if isinstance(bot, SearchBot):
            bot.max_seconds = think
    return bots


def _play_person_against(game: Game, opponent_text: str, max_hands: int | None, think: float | None = None) -> None:
    """A person in seat 0 against one kind of bot in the others, then the end of the game shown."""
    opponent = _bot_names(opponent_text)
    if len(opponent) != 1:
        raise CliError("--opponent names one bot; use --bots for a game of bots only")
    players = game.num_players
    made = make_bots(opponent, players, game.seed)
    bots: list[Bot | None] = list(made if think is None else _thinking(made, think))
    bots[0] = None
    labels = [""] + opponent * (players - 1)
    printer = TurnPrinter(_out, viewer=0, show_hands=False, labels=labels)
    finished = _play_person(game, bots, printer, max_hands)
    if finished or game.results:
        printer.game_end(game)


def _play_person(game: Game, bots: Sequence[Bot | None], printer: TurnPrinter, max_hands: int | None) -> bool:
    # Pause after each settlement only for a person at a terminal: piped input must never wait.
    pause = sys.stdin.isatty() and sys.stdout.isatty()
    if max_hands is not None:
        printer.stop_after = len(game.results) + max_hands
    return play_interactive(game, 0, bots, input, _out, printer, pause=pause)


class _Stopped(Exception):
    """A run of many games stopped before its end: the one line to print and the exit status."""

    def __init__(self, line: str, status: int):
        super().__init__(line)
        self.status = status


class _Terminated(BaseException):
    """Raised in the main thread by SIGTERM, so that the run unwinds (and stops its workers) as for ^C."""


EXIT_TERMINATED = 128 + signal.SIGTERM


@contextlib.contextmanager
def _stoppable(what: str, bar: ProgressBar | None) -> Iterator[None]:
    """Around ``simulate`` and ``compare``: ^C, SIGTERM and a worker process that dies each stop the run at
    once, its workers with it, with one line (``rummykit: simulation interrupted``) and no traceback."""
    handler: Any = None
    if threading.current_thread() is threading.main_thread():

        def terminated(signum: int, frame: Any) -> None:
            raise _Terminated

        handler = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except WorkerLost as exc:
        raise _Stopped(str(exc), EXIT_PLUGIN) from None
    except KeyboardInterrupt:
        raise _Stopped(f"{what} interrupted", 130) from None
    except _Terminated:
        raise _Stopped(f"{what} terminated", EXIT_TERMINATED) from None
    finally:
        if handler is not None:
            signal.signal(signal.SIGTERM, handler)
        if bar is not None:
            bar.close()


def _check_backend(args: argparse.Namespace) -> None:
    """Refuse ``--jobs`` below 0 and ``--ray-address`` without ``--backend ray`` (simulate and compare)."""
    if args.jobs < 0:
        raise CliError(f"--jobs is 0 (one per CPU) or more, not {args.jobs}")
    if args.ray_address and args.backend != "ray":
        raise CliError("--ray-address goes with --backend ray")


@contextlib.contextmanager
def _ray_errors() -> Iterator[None]:
    """The Ray backend without Ray, or with no cluster at ``--ray-address``: one line, exit status 2."""
    try:
        yield
    except ImportError as exc:  # the Ray backend without Ray
        raise CliError(str(exc)) from None
    except ConnectionError as exc:  # no Ray cluster at --ray-address
        raise CliError(f"cannot connect to Ray: {exc}") from None


def _how_played(args: argparse.Namespace, games: int) -> str:
    """Where the games were played, for the Speed line: ``2 processes``, ``Ray, 4 tasks at a time``."""
    if args.backend == "ray":
        return f"Ray, {_count(args.jobs, 'task')} at a time" if args.jobs else "Ray"
    used = processes(games, args.jobs)
    return f"{used} process{'es' * (used != 1)}"


def cmd_simulate(args: argparse.Namespace) -> int:
    variant = _load(args.name, _house_rules(args.house_rule), args.plugin)
    if args.games < 1:
        raise CliError(f"--games is 1 or more (the number of games to play), not {args.games}")
    _check_max_hands(args)
    _check_backend(args)
    names = _bot_names(args.bots)
    bar = None if args.quiet or args.json else ProgressBar.for_terminal(sys.stderr)
    with _ray_errors(), _stoppable("simulation", bar):
        result = simulate(variant, args.games, args.seed, names, args.players, jobs=args.jobs, backend=args.backend,
                          progress=bar, ray_address=args.ray_address, max_hands=args.max_hands)  # fmt: skip
    data = result.as_dict()
    if args.json:
        _out(json.dumps(data))
        return EXIT_OK
    extra = _in_force(variant)
    seats = [f"Player {seat + 1} ({bot})" for seat, bot in enumerate(result.bots)]
    teams = [" & ".join(team) for team in _by_side(variant, seats)]  # partners share a score and win together
    played = _count(result.games, "game")
    _out(f"{played} of {printable(variant.title)} ({variant.name}){extra}, seed {result.seed}: {' vs '.join(teams)}")
    _out("Wins:           " + ", ".join(f"{t} {w}" for t, w in zip(teams, result.side_wins)))
    counts = sorted(result.hand_kinds.items(), key=lambda item: (-item[1], item[0]))
    kinds = ", ".join(f"{kind} {count}" for kind, count in counts)
    _out(f"Hands played:   {result.hands}" + (f" ({kinds})" if kinds else ""))
    _out("Average score:  " + ", ".join(f"{t} {a:.1f}" for t, a in zip(teams, result.side_average_scores)))
    _out(f"Actions:        {result.actions}")
    if result.max_hands_games:
        their = "its" if result.max_hands_games == 1 else "their"
        limit = (
            f"{their} hand limit ({_count(args.max_hands, 'hand')})" if args.max_hands else "the hand limit (max_hands)"
        )
        _out(f"Hand limit:     {_count(result.max_hands_games, 'game')} ended at {limit} before {their} end")
    how = _how_played(args, args.games)
    _out(f"Speed:          {data['games_per_second']:.1f} games/s, {data['hands_per_second']:.1f} hands/s, "
         f"{data['actions_per_second']:.0f} actions/s ({result.elapsed:.2f} s, {how})")  # fmt: skip
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    from .lab import compare, parse_config, write_report

    if args.games < 2:
        raise CliError(f"--games is 2 or more (an interval needs two games), not {args.games}")
    _check_backend(args)
    report = Path(args.report) if args.report else None
    if report is not None:
        check_output_folder(args.report, "--report")
    try:
        configs = [parse_config(text, args.plugin or ()) for text in args.configs]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    # The same game under two names (an alias, another path to a file, house rules in another order) counts
    # as given twice: its columns would be the same games, played again.
    seen: dict[tuple[str, frozenset[str]], str] = {}
    for config in configs:
        try:
            source = os.path.realpath(find_ruleset(config.variant))
        except (KeyError, OSError):
            source = config.variant  # refused with its reason when the games are set up
        label = config.label
        first = seen.setdefault((source, frozenset(config.house_rules)), label)
        if first is label:
            continue
        if first == label:
            raise CliError(f"the configuration {first!r} is given twice; give each once")
        raise CliError(f"the configurations {first!r} and {label!r} are the same game; give each once")
    names = _bot_names(args.bots)
    bar = None if args.quiet else ProgressBar.for_terminal(sys.stderr)
    jobs = args.jobs if args.backend == "ray" else args.jobs or (os.cpu_count() or 1)  # Ray: 0 is the cluster's CPUs
    try:
        with _ray_errors(), _stoppable("comparison", bar):
            result = compare(configs, args.games, args.seed, names, args.players, jobs=jobs, progress=bar,
                             backend=args.backend, ray_address=args.ray_address)  # fmt: skip
    except ValueError as exc:  # a player count the variant does not allow
        raise CliError(str(exc)) from None
    if args.json:
        _out(json.dumps(result.summary()))
    else:
        _out(result.table())
    if report is not None:
        try:
            written = write_report(result, report)
        except OSError as exc:  # what the check before the games could not foresee (a full disk...)
            raise CliError(f"--report {args.report}: cannot write there: {exc.strerror or exc}") from None
        if not args.json:
            _out(f"Report: {written[-1]} (data: {', '.join(p.name for p in written[:-1])})")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = _record_text(args.file)
    except OSError as exc:
        raise CliError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    printer = TurnPrinter(_out, show_hands=True)
    try:
        record, variant = load_record(text, args.plugin or (), args.trust_plugins)  # the one parse, guarded
        play_record(record, variant)  # checked whole first: nothing is shown of a record that does not replay
        actions = record["actions"]
        if actions and actions[-1] == []:
            printer.stop_after = len(actions) - 1  # play stopped as that deal was dealt (--max-hands), as play showed
        game = play_record(record, variant, on_start=printer.start, on_action=printer)
    except UntrustedPlugins as exc:
        raise CliError(
            f"{args.file} was played with local plugins, code that replaying would run: "
            f"{printable(', '.join(exc.files))}; if you trust them, add --plugin FILE for each (or --trust-plugins "
            "to load the files the record names)"
        ) from None
    except (KeyError, ValueError) as exc:
        raise _record_refused(args.file, exc) from None
    printer.game_end(game)
    return EXIT_OK


# -- the parser and main ------------------------------------------------------------------------------------


def _positive_minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        minutes = -1.0
    if not 0 < minutes <= 10_000_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"expected a number of minutes above 0 and at most 10,000,000 (19 years), not {text[:20]!r}"
        )
    return minutes


def _moves_per_second(text: str) -> float:
    try:
        rate = float(text)
    except ValueError:
        rate = -1.0
    if not 0 <= rate <= 1_000_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected a number of moves from 0 (no limit) up, not {text[:20]!r}")
    return rate


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a port number from 0 to 65535 (0: any free port), not {text[:20]!r}"
        )
    return port


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web.app import serve
    except ImportError as exc:
        raise CliError(f"serve needs the 'web' extra: pip install '.[web]' in rummykit's folder ({exc})") from None
    if args.db is not None and args.db != "none":  # the default's folder (the user's data folder) is made
        check_output_path(args.db, "--db", "keep the tables in")
    serve(
        args.host,
        args.port,
        rulesets=args.ruleset or (),
        plugins=args.plugin or (),
        allow_hosts=args.allow_host or (),
        idle_seconds=args.idle_minutes * 60,
        db=args.db,
        moves_per_second=args.moves_per_second or None,
    )
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummykit",
        description="Play, simulate, compare and check games of the rummy family: Gin Rummy and its variations, "
        "500 Rum and Persian Rummy, Fortune Rummy and Arlington, Skarney and Iceberg, and rulesets of your own "
        "('rummykit list' shows them all).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sub = commands.add_parser("list", help="every variant", description="Every variant shipped with rummykit.")
    sub.set_defaults(run=cmd_list)

    sub = commands.add_parser("show", help="a variant's merged ruleset and the house rules it accepts")
    sub.add_argument("name", metavar="NAME", help="variant name, alias or ruleset file")
    sub.add_argument("--house-rule", action="append", metavar="RULE", help="apply a house rule (repeatable)")
    sub.add_argument("--origin", action="store_true", help="name, for each value, the file it comes from")
    _plugin_option(sub)
    sub.set_defaults(run=cmd_show)

    sub = commands.add_parser(
        "validate", help="check ruleset files (exit 1 when one is invalid)",
        description="Check rulesets (files, or variant names) and plugins: every problem with its file, line, "
                    "column and path. Exit status 1 when anything is invalid, 0 otherwise.")  # fmt: skip
    sub.add_argument("paths", nargs="+", metavar="PATH")
    sub.add_argument("--json", action="store_true", help="print a machine-readable list")
    _plugin_option(sub)
    sub.set_defaults(run=cmd_validate)

    sub = commands.add_parser(
        "schema", help="print the JSON Schema of ruleset files (for editors)",
        description="Print the JSON Schema that ruleset files follow. With --variant, the 'rules' block is "
                    "described by that variant's plugins too.")  # fmt: skip
    sub.add_argument("--variant", metavar="NAME", help="include the rules keys of this variant's plugins")
    _plugin_option(sub)
    sub.set_defaults(run=cmd_schema)

    sub = commands.add_parser("new", help="scaffold a house-rule package")
    kinds = sub.add_subparsers(dest="kind", metavar="KIND", required=True)
    new = kinds.add_parser(
        "house-rule", help="an installable plugin package offering one house rule",
        description="Create NAME/: a pyproject with the rummykit entry point, a plugin module with a "
                    "documented hook, the house rule's values (house_rule.yaml) and a test.")  # fmt: skip
    new.add_argument("name", metavar="NAME", help="the house rule's name: lower-case letters, digits, hyphens")
    new.add_argument("--variant", default="gin", metavar="VARIANT", help="the variant it changes (default gin)")
    new.add_argument(
        "--dir", default=".", metavar="DIR", help="an existing folder to create the package in (default: here)"
    )
    new.set_defaults(run=cmd_new)

    sub = commands.add_parser("play", help="play a game: you against bots, or bots only with --bots")
    sub.add_argument("name", metavar="NAME", nargs="?", help="variant name, alias or ruleset file")
    sub.add_argument("--resume", metavar="FILE",
                     help="go on with the game saved in FILE (and save it there again, unless --save)")  # fmt: skip
    sub.add_argument("--seed", type=int, help="seed of the shuffles (default: random, printed)")
    sub.add_argument("--house-rule", action="append", metavar="RULE", help="apply a house rule (repeatable)")
    sub.add_argument(
        "--bots", metavar="BOT,BOT", help=f"bots only: one per seat, or one for every seat ({', '.join(sorted(BOTS))})"
    )
    sub.add_argument("--opponent", metavar="BOT", help="the bot you play against (default greedy)")
    sub.add_argument("--players", type=int, metavar="N", help="number of players (default: the fewest allowed)")
    sub.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    sub.add_argument("--max-hands", type=int, metavar="N", help="stop after N hands")
    sub.add_argument("--think", metavar="SECONDS",
                     help="the longest a search bot thinks over a move (default: its fixed budget, however long "
                          "that takes)")  # fmt: skip
    _plugin_option(sub)
    sub.set_defaults(run=cmd_play)

    sub = commands.add_parser("simulate", help="play many games between bots and sum them up")
    sub.add_argument("name", metavar="NAME", help="variant name, alias or ruleset file")
    sub.add_argument("--games", type=int, required=True, metavar="N", help="how many games to play (1 or more)")
    sub.add_argument("--seed", type=int, default=0, metavar="S", help="master seed (default 0)")
    sub.add_argument(
        "--bots", default="greedy", metavar="BOT,BOT", help="one bot per seat, or one for every seat (default greedy)"
    )
    sub.add_argument("--players", type=int, metavar="N",
                     help="number of players (default: one per bot named, else the fewest allowed)")  # fmt: skip
    sub.add_argument("--house-rule", action="append", metavar="RULE", help="apply a house rule (repeatable)")
    sub.add_argument("--json", action="store_true", help="print one JSON object (and no progress bar)")
    sub.add_argument("--jobs", type=int, default=1, metavar="J",
                     help="worker processes, or Ray tasks at a time (default 1; 0: one per CPU); "
                          "the results are the same for any J")  # fmt: skip
    _backend_options(sub)
    sub.add_argument("--max-hands", type=int, metavar="N",
                     help="end each game after N hands at most (its hand limit; such games are counted "
                          "apart)")  # fmt: skip
    sub.add_argument("--quiet", action="store_true", help="no progress bar (there is one only on a terminal)")
    _plugin_option(sub)
    sub.set_defaults(run=cmd_simulate)

    sub = commands.add_parser(
        "compare", help="what house rules change: the same seeded games under several configurations",
        description="Play the same seeded games under each configuration (VARIANT or VARIANT+HOUSE-RULE..., or a "
                    "ruleset file) and show every measure side by side with 95 % intervals, marking significant "
                    "differences from the first configuration (a paired test on the same deals; unpaired for a "
                    "configuration that deals them differently, such as another game).")  # fmt: skip
    sub.add_argument("configs", nargs="+", metavar="CONFIG", help="e.g. gin gin+gin-only gin+modern")
    sub.add_argument("--games", type=int, default=200, metavar="N", help="games per configuration (default 200)")
    sub.add_argument("--seed", type=int, default=0, metavar="S", help="master seed (default 0)")
    sub.add_argument(
        "--bots", default="greedy", metavar="BOT,BOT", help="one bot per seat, or one for every seat (default greedy)"
    )
    sub.add_argument("--players", type=int, metavar="N", help="number of players (default: the fewest allowed)")
    sub.add_argument("--jobs", type=int, default=1, metavar="J",
                     help="worker processes, or Ray tasks at a time (default 1; 0: one per CPU); the results are the "
                          "same for any J")  # fmt: skip
    _backend_options(sub)
    sub.add_argument("--report", metavar="DIR", help="write index.html with plots, summary.json, games.csv, games.json")
    sub.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    sub.add_argument("--quiet", action="store_true", help="no progress bar (there is one only on a terminal)")
    _plugin_option(sub)
    sub.set_defaults(run=cmd_compare)

    sub = commands.add_parser(
        "replay", help="show a saved game turn by turn",
        description="Replay a game record (play --save) turn by turn. A record played with local plugins "
                    "replays only with those plugins given (--plugin FILE) or trusted (--trust-plugins): "
                    "loading a plugin runs its code.")  # fmt: skip
    sub.add_argument("file", metavar="FILE")
    _plugin_option(sub)
    sub.add_argument(
        "--trust-plugins", action="store_true", help="load the local plugin files the record names (runs their code)"
    )
    sub.set_defaults(run=cmd_replay)

    sub = commands.add_parser("serve", help="play in the browser (needs the 'web' extra)",
                              description="Serve a card table for every variant at http://HOST:PORT/ and its "
                                          "JSON API under /api (docs/web.md). Ctrl-C stops it.")  # fmt: skip
    sub.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    sub.add_argument("--port", type=_port, default=8000, metavar="N", help="port (default 8000; 0: any free port)")
    sub.add_argument("--ruleset", action="append", metavar="FILE", help="also offer this ruleset file (repeatable)")
    sub.add_argument("--allow-host", action="append", metavar="NAME",
                     help="a name others reach this server by (repeatable); requests naming another host are "
                          "refused (IP addresses and this machine's names are always accepted)")  # fmt: skip
    sub.add_argument("--idle-minutes", type=_positive_minutes, default=1440, metavar="M",
                     help="drop a table no request has used for M minutes (default 1440: a day)")  # fmt: skip
    sub.add_argument("--moves-per-second", type=_moves_per_second, default=10.0, metavar="N",
                     help="a seat makes at most N moves a second on average, 30 at once (default 10; 0: no limit, "
                          "for scripts playing at full speed)")  # fmt: skip
    sub.add_argument("--db", metavar="PATH",
                     help="the SQLite file that keeps the tables across restarts, in a folder that exists "
                          "(default: tables.sqlite3 in the user's data folder; 'none': in memory only)")  # fmt: skip
    _plugin_option(sub)
    sub.set_defaults(run=cmd_serve)
    return parser


def _backend_options(sub: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--ray-address``, as simulate and compare take them."""
    sub.add_argument("--backend", choices=BACKENDS, default="process",
                     help="where games are played: processes on this machine (default), or a Ray cluster "
                          "(needs the 'ray' extra)")  # fmt: skip
    sub.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="the Ray cluster to connect to (default: RAY_ADDRESS, else a local Ray instance)",
    )


def _plugin_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--plugin",
        action="append",
        metavar="FILE.py",
        help="load a plugin from a Python file that is not installed (repeatable)",
    )


def _version() -> str:
    from . import COMPILED, __version__

    return f"{__version__} (compiled)" if COMPILED else __version__


def _problem_text(problem: Problem) -> str:
    """A problem on one line, its file relative to the current folder when it lies inside it."""
    file = Path(problem.file)
    if file.is_absolute() and file.is_relative_to(Path.cwd()):
        problem = Problem(
            str(file.relative_to(Path.cwd())), problem.line, problem.column, problem.path, problem.message
        )
    if not problem.line and not problem.path:
        return printable(f"{problem.file}: {problem.message}")
    return printable(str(problem))


def _error(lines: Sequence[str]) -> int:
    for line in lines:
        print(f"rummykit: {_lines_printable(line)}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``rummykit`` command with ``argv`` (default: the process's arguments); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except CliError as exc:
        return _error([str(exc)])
    except _Stopped as exc:
        _error([str(exc)])
        return exc.status
    except RulesetError as exc:
        return _error([_problem_text(p) for p in exc.problems] or [str(exc)])
    except PluginError as exc:  # a plugin's hook raised: name the plugin and the hook, no traceback
        _error([str(exc)])
        return EXIT_PLUGIN
    except KeyError as exc:  # an unknown variant, bot or plugin
        return _error([str(exc.args[0]) if exc.args else "not found"])
    except ValueError as exc:  # a wrong number of players, a bad seed...
        return _error([str(exc)])
    except KeyboardInterrupt:  # ^C while loading a variant, starting workers...: one line, no traceback
        print("rummykit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output was piped to a command that stopped reading (| head)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
