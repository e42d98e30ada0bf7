"""The web server: many tables at once, each a :class:`~rummykit.engine.Game` behind a JSON API.

Nothing a request sends is executed: variant names come only from :func:`rummykit.list_variants` and the
ruleset files given on the command line, house rules only from those the variant offers, bots only from
:data:`rummykit.bots.BOTS`, and moves are action texts the engine checks (an illegal one changes nothing).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..actions import Action, IllegalAction, action_words
from ..bots import BOTS, Bot, SearchBot, make_bot
from ..catalogue import list_variants
from ..dispatch import PluginError
from ..engine import AUTO_PREFIX, Deal, Game, HandResult
from ..engine import TableMeld as _TableMeld
from ..loader import _local_plugins
from ..records import load_record, play_record
from ..results import describe_result
from ..ruleset import RulesetError
from ..turntext import TurnPrinter
from ..variant import Variant, house_rules_for, load_variant, table_entry
from .storage import MemoryStorage, SQLiteStorage, Storage, StorageError, StoredSeat, StoredTable, digest

__all__ = ["create_app", "serve", "default_db", "WebError", "Tables", "MAX_BODY", "MAX_TABLES", "IDLE_SECONDS"]

MAX_BODY = 256 * 1024
"""Request bodies longer than this are refused (413): a game record of a long game fits many times over."""
MAX_TABLES = 500
"""Tables kept at once; when full, the finished table used least recently is dropped, else new tables are
refused (503) until an idle table expires."""
IDLE_SECONDS = 86400.0
"""A table that no request has read or played for this long (a day) is dropped."""
DROPPED_KEPT = 10_000
"""How many dropped tables the server remembers, to answer 410 (and why) instead of 404."""
HEAVY_REQUESTS = 2
"""Engine work (making tables, moves, the bots' moves, replays) done at once; the rest waits its turn, first
come first served, so no table's bots can keep another table's move waiting for long."""
BOT_SLICE_SECONDS = 0.2
"""The bots of a table move for about this long at a time, then let other tables' work (and reads of their
own table) go first."""
MAX_BOT_MOVES = 200_000
"""Bot moves made for one request at most (a whole bots-only game takes far fewer)."""
LOG_LENGTH = 300
"""Moves kept per table for the page's move list."""
NAME_LENGTH = 30
"""The longest name a seat joins with."""
LOBBY_LENGTH = 100
"""Listed tables the lobby shows at most (the newest)."""
MOVES_PER_SECOND = 10
"""The rate limit of a seat's moves: this many a second on average..."""
MOVE_BURST = 30
"""...and this many at once."""
MAX_LIVE = 1000
"""Live views (``/events`` streams) open at once; more are refused (503)."""
KEEP_ALIVE_SECONDS = 15.0
"""A live view with nothing new is sent a comment this often, so proxies keep it open."""


class WebError(Exception):
    """A request the server refuses: an HTTP status and a message for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Table:
    """One game and who plays each seat (a bot, or a person through the API)."""

    id: str
    game: Game
    bots: list[str | None]
    """Per seat, the bot's name, or None for a person."""
    players: list[Bot | None]
    log: list[dict[str, Any]] = field(default_factory=list)
    settlements: list[dict[int | None, list[str]]] = field(default_factory=list)
    """Per finished hand, its settlement lines as each person seat (and None: an onlooker) reads them."""
    used: float = field(default_factory=time.monotonic)
    busy: int = 0
    """Requests (and bot play) under way on this table: a busy table is never dropped as idle."""
    bot_moves: int = 0
    lock: asyncio.Lock | None = None
    """Held while anything reads or changes the table (made on first use, in the server's event loop)."""
    driver: asyncio.Task[None] | None = None
    """The task letting the bots move, while they have moves to make."""
    replay: Replay | None = None
    owner_digest: str = ""
    """The digest of the creator's token, which deletes the table and steps a replay."""
    seats: dict[int, StoredSeat] = field(default_factory=dict)
    """Per person seat, the digest of the token that shows that seat's view and plays for it (the seat's
    secret), the name it joined with, and whether somebody joined it."""
    listed: bool = False
    """Shown in the lobby, where anybody may join a free seat."""
    storage: Storage | None = None
    """Where each move is stored before it is acknowledged (None while the table is rebuilt, and for replays)."""
    moves: int = 0
    """Moves made at the table (the bots' too), which is the number of the next one stored."""
    broken: str | None = None
    """Why the table is closed: a move that could not be stored."""
    version: int = 0
    """Counts every change anybody may see (moves, joins, steps): live views are sent again when it moves."""
    shown_version: int = 0
    changed: asyncio.Event | None = None
    """Set (and replaced) when the version moves; live views wait on it."""
    gone: str | None = None
    """Why the table was dropped, once it was: live views end."""
    epoch: str = ""
    """Names the server's run that holds the table: versions count from its start (a restart starts again)."""
    allowance: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Per seat, the moves it may still make at once and when that was counted (the rate limit)."""

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token ``token`` is, or None."""
        wanted = digest(token)
        found = None
        # A copy: a worker thread may change the seats meanwhile. compare_digest: no hint of how much matched.
        for seat, held in list(self.seats.items()):
            if secrets.compare_digest(held.token_digest, wanted):
                found = seat
        return found

    def is_owner(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(self.owner_digest, digest(token))

    def free_seats(self) -> list[int]:
        """The person seats nobody joined yet."""
        return [seat for seat, held in sorted(list(self.seats.items())) if not held.joined]


@dataclass
class Replay:
    """A saved record shown step by step: the moves (the rules' own moves left out) and how many are shown."""

    record: dict[str, Any]
    variant: Variant
    moves: list[str]
    step: int = 0


def _viewers(table: Table) -> list[int | None]:
    if table.replay is not None:
        return [None, *range(table.game.num_players)]
    return [None, *(s for s, bot in enumerate(table.bots) if bot is None)]


def _apply(table: Table, action: Action | str) -> None:
    """Apply ``action`` for the seat to act, recording how it reads (and every move the rules made by
    themselves after it, each under the seat it was made for) and any hand it ends."""
    game = table.game
    deal: Deal = game.deal
    logged = len(deal.log)
    before = len(game.results)
    if table.gone is not None:
        raise WebError(410, f"table {table.id} was dropped: {table.gone}")
    game.apply(action)
    mover, done = deal.log[logged]
    number = table.moves
    table.moves += 1
    if table.storage is not None:
        try:
            table.storage.add_move(table.id, number, mover, str(done))
        except StorageError as exc:
            # The game in memory is now ahead of what is stored: nobody is shown it (see state()).
            table.broken = str(exc)
            raise WebError(503, _closed(exc)) from None
    table.version += 1
    moves = [(deal, entry) for entry in deal.log[logged:]]
    if game.deal is not deal:  # a new deal began: the moves the rules made at its start
        moves += [(game.deal, entry) for entry in game.deal.log]
    for where, (mover, done) in moves:
        words = {}
        for viewer in _viewers(table):
            said = action_words(where, mover, done, viewer)
            if said is None:
                words[str(viewer)] = f"{game.names[mover]}: {done}"
            elif viewer == mover:
                words[str(viewer)] = f"You {said.you}"
            else:
                words[str(viewer)] = f"{game.names[mover]} {said.they}"
        table.log.append({"deal": where.number, "seat": mover, "action": str(done), "words": words})
    del table.log[:-LOG_LENGTH]
    for index in range(before, len(game.results)):
        result = game.results[index]
        table.settlements.append(
            {
                viewer: TurnPrinter(lambda _: None, viewer=viewer, show_hands=False).result_lines(
                    game, deal if index == before else None, result
                )
                for viewer in _viewers(table)
            }
        )


def _closed(why: object) -> str:
    return (
        f"the move could not be stored ({why}): the table is closed until the server starts again, and goes on "
        "then from its last stored move"
    )


def _store(what: str, write: Callable[..., None], *args: Any) -> None:
    """``write(*args)``, a change to storage made before memory changes: when it fails nothing changed (503)."""
    try:
        write(*args)
    except StorageError as exc:
        raise WebError(503, f"the {what} could not be stored: {exc}") from None


def _lobby_entry(table: Table) -> dict[str, Any]:
    game = table.game
    free = table.free_seats()
    seats = [
        {"seat": s, "name": game.names[s], "bot": table.bots[s], "free": s in free} for s in range(game.num_players)
    ]
    return {
        "id": table.id,
        "variant": game.variant.name,
        "title": game.variant.title,
        "house_rules": list(game.variant.house_rules),
        "players": game.num_players,
        "seats": seats,
        "free": len(free),
    }


def _bot_to_move(table: Table) -> bool:
    game = table.game
    return not game.is_over and game.current_player is not None and table.players[game.current_player] is not None


def _run_bots(table: Table, seconds: float = float("inf")) -> bool:
    """Let the bots move until a person must act, the game is over, or ``seconds`` have passed (after one move
    at least). True when a bot still has a move to make."""
    game = table.game
    deadline = time.monotonic() + seconds
    moved = False
    while not game.is_over and table.gone is None:
        seat = game.current_player
        assert seat is not None
        bot = table.players[seat]
        if bot is None:
            return False
        if moved and time.monotonic() >= deadline:
            return True
        if table.bot_moves >= MAX_BOT_MOVES:
            raise WebError(500, f"the bots made {MAX_BOT_MOVES} moves without the game ending")
        _apply(table, bot.choose(game))
        table.bot_moves += 1
        moved = True
    return False


def _server_bot(name: str, seed: int) -> Bot:
    """The bot ``name`` as a table's seat plays it. A search bot leaves the garbage collector running: the
    server's threads decide for many tables at once, so paused collectors (:func:`~rummykit.bots.collector_paused`)
    might overlap for long and hold back the server's own garbage."""
    bot = make_bot(name, seed=seed)
    if isinstance(bot, SearchBot):
        bot.pause_collector = False
    return bot


# -- reading requests ----------------------------------------------------------------------------------


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    value = body.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise WebError(400, f"'{name}' must be {_type_word(want)}, not {_type_word(type(value).__name__)}")
    return value


def _type_word(name: str) -> str:
    return {
        "int": "a whole number",
        "str": "text",
        "list": "a list",
        "dict": "an object",
        "bool": "true or false",
        "NoneType": "null",
        "float": "a number with a fraction",
    }.get(name, name)


def _name(value: Any) -> str:
    """A person's name as given (1 to :data:`NAME_LENGTH` printable characters), without spaces around it."""
    if not isinstance(value, str):
        raise WebError(400, f"a seat is joined with a 'name' of 1 to {NAME_LENGTH} characters")
    name = value.strip()
    if not 0 < len(name) <= NAME_LENGTH or not name.isprintable():
        raise WebError(400, f"a name is 1 to {NAME_LENGTH} printable characters, not {value[:40]!r}")
    return name


def _int(body: dict[str, Any], name: str, low: int, high: int, default: int | None) -> int | None:
    value = _field(body, name, int, default)
    if value is not None and not low <= value <= high:
        raise WebError(400, f"'{name}' must be from {low} to {high}, not {value}")
    return value  # type: ignore[no-any-return]


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most :data:`MAX_BODY` bytes far."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        # Also keeps other sites' pages out: a cross-site JSON request needs a preflight this server never grants.
        raise WebError(415, "send the body as JSON, with the header Content-Type: application/json")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(413, f"the request body is over {MAX_BODY} bytes")
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise WebError(413, f"the request body is over {MAX_BODY} bytes")
    except ClientDisconnect:
        raise WebError(400, "the client went away before its request body ended") from None
    if not data:
        return {}
    try:
        body = json.loads(bytes(data))
    except (ValueError, RecursionError):
        raise WebError(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise WebError(400, f"the request body must be a JSON object, not {_type_word(type(body).__name__)}")
    return body


# -- the tables ------------------------------------------------------------------------------------------


class Tables:
    """Every table the server keeps, and the variants it offers."""

    def __init__(
        self,
        rulesets: Sequence[str] = (),
        plugins: Sequence[str] = (),
        max_tables: int = MAX_TABLES,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        storage: Storage | None = None,
        moves_per_second: float | None = MOVES_PER_SECOND,
    ):
        self.storage: Storage = MemoryStorage() if storage is None else storage
        self.moves_per_second = moves_per_second
        _local_plugins(plugins)  # a plugin file missing or broken is refused now (RulesetError), not at a request
        self.plugins = [str(Path(p).resolve()) for p in plugins]
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.dropped: OrderedDict[str, str] = OrderedDict()
        """Ids of tables dropped lately, with why (the newest last)."""
        self.sources: dict[str, str] = {info.name: info.name for info in list_variants()}
        self.aliases: dict[str, str] = {alias: info.name for info in list_variants() for alias in info.aliases}
        """A record names its variant as it was loaded: by an alias, maybe."""
        """Variant name -> what load_variant is given: a shipped name, or a ruleset file from the command line."""
        for path in rulesets:
            variant = load_variant(path, plugins=self.plugins)
            self.sources[variant.name] = variant.source_name
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self._catalogue: list[dict[str, Any]] | None = None
        self.dropped.update(self.storage.dropped(DROPPED_KEPT))
        self.epoch = secrets.token_hex(4)
        self.on_drop: Callable[[Table], None] | None = None
        """Called (from any thread) with each table dropped: the server tells its live views."""
        self.not_restored: list[str] = []
        """Why stored tables were not taken up again (their variant is no longer offered...): they stay stored."""
        for stored in self.storage.tables():
            try:
                table = self.rebuild(stored)
            except (WebError, IllegalAction, ValueError, TypeError, KeyError, PluginError) as exc:
                message = exc.message if isinstance(exc, WebError) else str(exc)
                self.not_restored.append(f"table {stored.id} is kept stored but not played: {message[:300]}")
                continue
            table.used = self.clock()
            table.epoch = self.epoch
            self.tables[table.id] = table

    # -- variants --

    def catalogue(self) -> list[dict[str, Any]]:
        """Every variant offered, with its player counts and house rules (``GET /api/variants``)."""
        if self._catalogue is None:
            entries = []
            for name, source in sorted(self.sources.items()):
                variant = load_variant(source, plugins=self.plugins)
                rules = house_rules_for(source, self.plugins)
                entries.append(
                    {
                        "name": name,
                        "title": variant.title,
                        "summary": variant.summary,
                        "min_players": variant.min_players,
                        "max_players": variant.max_players,
                        "house_rules": [
                            {"name": rule, "summary": str(spec.get("summary", ""))}
                            for rule, spec in sorted(rules.items())
                        ],
                    }
                )
            self._catalogue = entries
        return self._catalogue

    def variant(self, name: Any, house_rules: Any) -> Variant:
        """The offered variant ``name`` (or an alias) with ``house_rules``; WebError 400 for anything else."""
        if isinstance(name, str) and name in self.aliases:
            name = self.aliases[name]
        if not isinstance(name, str) or name not in self.sources:
            shown = json.dumps(name)[:60] if not isinstance(name, str) else repr(name[:60])
            raise WebError(400, f"unknown variant {shown}: variants are {', '.join(sorted(self.sources))}")
        if not isinstance(house_rules, list) or not all(isinstance(r, str) for r in house_rules):
            raise WebError(400, "'house_rules' must be a list of house-rule names")
        offered = {entry["name"]: entry for entry in self.catalogue()}[name]["house_rules"]
        names = {rule["name"] for rule in offered}
        unknown = [r for r in house_rules if r not in names]
        if unknown:
            raise WebError(
                400, f"{name} has no house rule {unknown[0][:60]!r}: it has {', '.join(sorted(names)) or 'none'}"
            )
        try:
            return load_variant(self.sources[name], house_rules=house_rules, plugins=self.plugins)
        except RulesetError as exc:
            raise WebError(400, str(exc)) from None

    # -- tables --

    def _drop(self, table_id: str, why: str) -> None:
        """Forget a table, remembering why (under ``self.lock``)."""
        table = self.tables.pop(table_id)
        table.gone = why
        if table.replay is None:
            self.storage.drop(table_id, why)
        if self.on_drop is not None:
            self.on_drop(table)
        self.dropped[table_id] = why
        while len(self.dropped) > DROPPED_KEPT:
            self.dropped.popitem(last=False)

    def expire(self) -> None:
        """Drop every table idle for longer than :attr:`idle_seconds` (under ``self.lock``); a table a request
        or its bots are still using is not idle."""
        now = self.clock()
        for key, table in list(self.tables.items()):
            if now - table.used > self.idle_seconds and not table.busy:
                self._drop(key, f"no request used it for {self.idle_seconds:g} seconds")

    def add(self, table: Table) -> None:
        """Keep ``table``; when the server is full, the finished table (or replay) used least recently is
        dropped to make room, and failing that the new table is refused (503)."""
        table.used = self.clock()
        table.epoch = self.epoch
        with self.lock:
            self.expire()
            if len(self.tables) >= self.max_tables:
                finished = sorted((t.used, key) for key, t in self.tables.items() if t.game.is_over or t.replay)
                if not finished:
                    now = self.clock()
                    wait = min(self.idle_seconds - (now - t.used) for t in self.tables.values())
                    raise WebError(
                        503,
                        f"the server holds {self.max_tables} tables in play; a table idle for "
                        f"{self.idle_seconds:g} seconds is dropped, the next in {max(wait, 0):.0f} seconds",
                    )
                self._drop(finished[0][1], "the server was full and it was the finished table used least lately")
            self.tables[table.id] = table

    def get(self, table_id: str) -> Table:
        """The table ``table_id``, marked as used now; WebError 410 (and why) when it was dropped, else 404."""
        with self.lock:
            self.expire()
            table = self.tables.get(table_id)
            why = self.dropped.get(table_id) if table is None else None
        if why is not None:
            raise WebError(410, f"table {table_id[:40]!r} was dropped: {why}")
        if table is None:
            raise WebError(404, f"no table {table_id[:40]!r}")
        if table.broken is not None:
            raise WebError(503, f"table {table_id[:40]!r} is closed until the server starts again: {table.broken}")
        table.used = self.clock()
        return table

    @contextmanager
    def using(self, table: Table) -> Iterator[Table]:
        """Mark ``table`` busy while a request (or its bots) works on it, and used when that ends."""
        table.busy += 1
        try:
            yield table
        finally:
            table.busy -= 1
            table.used = self.clock()

    def remove(self, table_id: str, token: str | None) -> Table:
        """Drop the table ``table_id`` for its creator (``token`` is the owner token; WebError 403 if not)."""
        table = self.get(table_id)
        if not table.is_owner(token):
            raise WebError(403, "only the table's creator deletes it: send its owner token (Authorization: Bearer)")
        with self.lock:
            if table_id in self.tables:
                self._drop(table_id, "its creator deleted it")
        return table

    def give_to_bot(self, table: Table, seat: int, body: dict[str, Any], token: str | None) -> None:
        """Let a bot play a person seat nobody took (``POST /api/tables/{id}/seats/{seat}``, owner token): a
        friend who does not come. The seat's join link stops working."""
        if not table.is_owner(token):
            raise WebError(403, "only the table's creator gives a seat to a bot: send its owner token")
        name = _field(body, "bot", str, None)
        if name not in BOTS:
            shown = "no bot" if name is None else repr(name[:40])
            raise WebError(
                400, f'a seat is given to a bot with {{"bot": NAME}}, not {shown}: bots are {", ".join(sorted(BOTS))}'
            )
        if table.replay is not None or table.game.is_over:
            raise WebError(409, "the game is over" if table.replay is None else "a replay has no seats to give")
        if not 0 <= seat < table.game.num_players:
            raise WebError(404, f"no seat {seat}: seats are 0 to {table.game.num_players - 1}")
        if table.bots[seat] is not None:
            raise WebError(409, f"seat {seat} is the {table.bots[seat]} bot's already")
        if table.seats[seat].joined:
            raise WebError(409, f"seat {seat} is taken by {table.seats[seat].name}")
        if table.storage is not None:
            _store("seat", table.storage.give_to_bot, table.id, seat, name)
        table.bots[seat] = name
        table.players[seat] = _server_bot(name, table.game.seed + seat)
        table.seats = {s: held for s, held in table.seats.items() if s != seat}  # a new dict: readers hold the old
        table.version += 1

    def create(self, body: dict[str, Any]) -> tuple[Table, str, dict[int, str]]:
        """A new table from a request body (``POST /api/tables``), stored, with its owner token and each person
        seat's token (given only here: the server keeps their digests). With a ``name``, the creator takes the
        first person seat at once under that name."""
        variant = self.variant(body.get("variant"), body.get("house_rules", []))
        players = _int(body, "players", variant.min_players, variant.max_players, variant.min_players)
        assert players is not None
        bots_given = _field(body, "bots", list, [None] + ["greedy"] * (players - 1))
        if len(bots_given) != players:
            raise WebError(400, f"'bots' names a bot or null for each of the {players} seats, not {len(bots_given)}")
        for name in bots_given:
            if name is not None and (not isinstance(name, str) or name not in BOTS):  # (a list or dict: unhashable)
                shown = repr(name[:40]) if isinstance(name, str) else json.dumps(name)[:40]
                raise WebError(400, f"unknown bot {shown}: bots are {', '.join(sorted(BOTS))} (null for a person)")
        seed = _int(body, "seed", 0, 2**63 - 1, None)
        max_hands = _int(body, "max_hands", 1, 1000, None)
        layout = _field(body, "layout", dict, None)
        listed = _field(body, "listed", bool, False)
        creator = body.get("name")
        if creator is not None:
            creator = _name(creator)
            if None not in bots_given:
                raise WebError(400, "'name' takes the first person seat for the creator, but every seat is a bot's")
        names = _field(body, "names", list, None)
        if names is not None:
            if len(names) != players or not all(
                isinstance(n, str) and 0 < len(n.strip()) <= NAME_LENGTH for n in names
            ):
                raise WebError(400, f"'names' must be {players} names of 1 to {NAME_LENGTH} characters")
            names = [_name(n) for n in names]
        else:
            names = [
                f"Player {s + 1}" if b is None else f"{b.capitalize()} bot {s + 1}" for s, b in enumerate(bots_given)
            ]
        try:
            game = variant.new_game(players=names, seed=seed, layout=layout, max_hands=max_hands)
        except (ValueError, TypeError, KeyError) as exc:
            raise WebError(400, str(exc)[:500]) from None
        spec = {
            "variant": variant.name if variant.name in self.sources else body.get("variant"),
            "house_rules": list(variant.house_rules),
            "names": names,
            "seed": game.seed,
            "layout": layout,
            "max_hands": max_hands,
            "bots": list(bots_given),
            "listed": listed,
        }
        owner = secrets.token_urlsafe(16)
        tokens = {s: secrets.token_urlsafe(16) for s, b in enumerate(bots_given) if b is None}
        table = self._table(secrets.token_hex(16), game, spec)
        table.owner_digest = digest(owner)
        table.seats = {s: StoredSeat(digest(token), names[s]) for s, token in tokens.items()}
        if creator is not None:  # the creator takes the first person seat at once: nobody can take it first
            first = min(tokens)
            table.seats[first] = StoredSeat(digest(tokens[first]), creator, True, 0)
            game.names[first] = spec["names"][first] = creator
        stored = StoredTable(table.id, spec, table.owner_digest, dict(table.seats))
        _store("table", self.storage.add_table, stored)
        table.storage = self.storage
        try:
            self.add(table)  # the bots make their first moves after (see create_app)
        except WebError:
            self.storage.drop(table.id, "the server was full")
            raise
        return table, owner, tokens

    @staticmethod
    def _table(table_id: str, game: Game, spec: dict[str, Any]) -> Table:
        bots = list(spec["bots"])
        return Table(
            id=table_id,
            game=game,
            bots=bots,
            players=[None if b is None else _server_bot(b, game.seed + s) for s, b in enumerate(bots)],
            listed=bool(spec.get("listed")),
        )

    def rebuild(self, stored: StoredTable) -> Table:
        """The table ``stored`` holds, its moves made again (bots included) and its storage attached."""
        spec = stored.spec
        variant = self.variant(spec["variant"], spec["house_rules"])
        game = variant.new_game(
            players=list(spec["names"]), seed=spec["seed"], layout=spec["layout"], max_hands=spec["max_hands"]
        )
        table = self._table(stored.id, game, spec)
        table.owner_digest = stored.owner_digest
        table.seats = dict(stored.seats)
        # Each name is taken when its seat was joined or renamed, so the moves before it read as they did then.
        joins = sorted(  # (two renames between the same moves: the later one last)
            (at, seat, order, name)
            for seat, held in stored.seats.items()
            if held.joined
            for order, (at, name) in enumerate(held.history())
        )
        for number, text in enumerate(stored.moves):
            while joins and joins[0][0] <= number:
                _, seat, _, name = joins.pop(0)
                game.names[seat] = name
            _apply(table, text)
        for _, seat, _, name in joins:
            game.names[seat] = name
        table.storage = self.storage
        return table

    def join(self, table: Table, body: dict[str, Any], token: str | None) -> tuple[int, str | None]:
        """Take a person seat with a name (``POST /api/tables/{id}/join``): the seat of a join link's token, or
        (on a listed table, without a token) the free seat asked for or the first free one. Returns the seat
        and its new token: taking a seat replaces its token, so a join link serves once. With the token of a
        seat already taken it only changes the name (and the token stays)."""
        name = _name(_field(body, "name", str, None))
        asked = _field(body, "seat", int, None)
        game = table.game
        if table.replay is not None:
            raise WebError(409, "a replay has no seats to join")
        if game.is_over:
            raise WebError(409, "the game is over")
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                raise WebError(403, "that token is not one of this table's seats (a join link serves once)")
            if asked is not None and asked != seat:
                raise WebError(403, f"that token is seat {seat}'s, not seat {asked}'s")
        else:
            if not table.listed:
                raise WebError(403, "this table is not in the lobby: join it with a seat's join link")
            free = table.free_seats()
            if asked is None:
                if not free:
                    raise WebError(409, "every seat of this table is taken")
                seat = free[0]
            elif not 0 <= asked < game.num_players:
                raise WebError(400, f"'seat' must be from 0 to {game.num_players - 1}, not {asked}")
            elif table.bots[asked] is not None:
                raise WebError(409, f"seat {asked} is played by the {table.bots[asked]} bot")
            elif asked not in free:
                raise WebError(409, f"seat {asked} is taken by {table.seats[asked].name}")
            else:
                seat = asked
        held = table.seats[seat]
        if held.joined:
            self.allow_move(table, seat)  # a rename: each one is stored and sent to every live view
        new_token = None if held.joined else secrets.token_urlsafe(16)
        joined_at = held.joined_at if held.joined else table.moves  # a rename keeps the join's place
        # Each name with the move it was taken at: a table taken up again reads every move as it was made.
        before = held.history() if held.joined else ()
        if before and before[-1][0] == table.moves:  # renamed again before a move: only the last name is read
            before = before[:-1]
        names = (*before, (table.moves, name))
        taken = StoredSeat(digest(new_token) if new_token else held.token_digest, name, True, joined_at, names)
        if table.storage is not None:
            _store("seat", table.storage.set_seat, table.id, seat, taken)
        table.seats[seat] = taken
        game.names[seat] = name
        table.version += 1
        return seat, new_token

    def lobby(self) -> list[dict[str, Any]]:
        """The listed tables still in play, newest first (``GET /api/lobby``)."""
        with self.lock:
            listed = [t for t in self.tables.values() if t.listed and not t.game.is_over and t.broken is None]
        listed.sort(key=lambda t: -t.used)
        return [_lobby_entry(t) for t in listed[:LOBBY_LENGTH]]

    def allow_move(self, table: Table, seat: int) -> None:
        """Count a move of ``seat`` against its rate limit: 429 when it is spent."""
        rate = self.moves_per_second
        if rate is None:
            return
        now = self.clock()
        left, then = table.allowance.get(seat, (float(MOVE_BURST), now))
        left = min(float(MOVE_BURST), left + (now - then) * rate)
        if left < 1:
            raise WebError(429, f"too many moves: a seat makes at most {rate:g} a second (and {MOVE_BURST} at once)")
        table.allowance[seat] = (left - 1, now)

    def move(self, table: Table, body: dict[str, Any], token: str | None) -> int:
        """Play ``body``'s action for the seat whose token ``token`` is; returns that seat."""
        seat = _field(body, "seat", int, None)
        text = _field(body, "action", str, None)
        if text is None:
            raise WebError(400, 'a move is {"action": "ACTION TEXT"}, sent with the seat\'s token')
        if table.replay is not None:
            raise WebError(409, "this table replays a record: step it instead")
        game = table.game
        if seat is not None and not 0 <= seat < game.num_players:
            raise WebError(400, f"'seat' must be from 0 to {game.num_players - 1}, not {seat}")
        if seat is not None and table.bots[seat] is not None:
            raise WebError(403, f"seat {seat} is played by the {table.bots[seat]} bot")
        holder = None if token is None else table.seat_of_token(token)
        if holder is None:
            raise WebError(403, "a move needs the token of the seat that plays it (Authorization: Bearer TOKEN)")
        if seat is not None and seat != holder:
            raise WebError(403, f"that token is seat {holder}'s, not seat {seat}'s")
        seat = holder
        self.allow_move(table, seat)
        if game.is_over:
            raise WebError(409, "the game is over")
        if game.current_player != seat:
            who = game.current_player
            # Seats count from 0 and names from 1 ("Player 1" is seat 0): each seat is told with its name.
            acting = f"{game.names[who]} (seat {who})" if who is not None else "nobody"
            raise WebError(409, f"it is not {game.names[seat]}'s turn (seat {seat}): {acting} acts")
        try:
            _apply(table, text)
        except IllegalAction as exc:
            raise WebError(422, str(exc)) from None
        except TypeError as exc:
            raise WebError(400, str(exc)) from None
        return seat

    def replay(self, body: dict[str, Any]) -> tuple[Table, str]:
        """A replay table of a record (``POST /api/replays``), checked by replaying it whole first."""
        given = body.get("record")
        if isinstance(given, dict):
            text = json.dumps(given)
        elif isinstance(given, str):
            text = given
        else:
            raise WebError(400, 'a replay is {"record": RECORD} with a game record (an object or its JSON text)')
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            raise WebError(400, "'record' is not JSON") from None
        if not isinstance(parsed, dict):
            raise WebError(400, "'record' must be a JSON object")
        name = parsed.get("variant")
        known = {**self.aliases, **{source: name for name, source in self.sources.items()}}
        if not isinstance(name, str) or name not in known:
            raise WebError(400, f"the record's variant is not one this server offers: {str(name)[:60]!r}")
        self.variant(known[name], parsed.get("house_rules", []))
        try:
            record, variant = load_record(text, self.plugins)
            play_record(record, variant)  # the whole record replays before any step is shown
        except ValueError as exc:
            raise WebError(400, str(exc)[:500]) from None
        moves = [m for deal in record["actions"] for m in deal if not m.startswith(AUTO_PREFIX)]
        replay = Replay(record, variant, moves)
        table = Table(id=secrets.token_hex(16), game=self._replayed(replay), bots=[], players=[], replay=replay)
        table.bots = [None] * table.game.num_players
        table.players = [None] * table.game.num_players
        owner = secrets.token_urlsafe(16)
        table.owner_digest = digest(owner)
        self.add(table)
        return table, owner

    @staticmethod
    def _replayed(replay: Replay) -> Game:
        record = replay.record
        return replay.variant.new_game(
            players=record["players"], seed=record["seed"], layout=record.get("deal"), max_hands=record.get("max_hands")
        )

    def step(self, table: Table, body: dict[str, Any], token: str | None) -> None:
        """Move a replay table ``by`` moves or ``to`` a move, for its creator (``token``: the owner token)."""
        replay = table.replay
        if replay is None:
            raise WebError(409, "only a replay steps")
        if not table.is_owner(token):
            raise WebError(403, "only the replay's creator steps it: send its owner token (Authorization: Bearer)")
        by = _int(body, "by", -100_000, 100_000, None)
        to = _int(body, "to", 0, len(replay.moves), None)
        if (by is None) == (to is None):
            raise WebError(400, 'a step is {"by": N} (back with a negative N) or {"to": N}')
        target = to if to is not None else min(max(replay.step + (by or 0), 0), len(replay.moves))
        if target < replay.step:
            table.game = self._replayed(replay)
            table.log, table.settlements = [], []
            replay.step = 0
        try:
            while replay.step < target:
                _apply(table, replay.moves[replay.step])
                replay.step += 1
        except (IllegalAction, ValueError) as exc:
            raise WebError(400, f"the record does not replay at move {replay.step + 1}: {exc}") from None


# -- what a seat sees ------------------------------------------------------------------------------------


def _result(game: Game, result: HandResult, lines: list[str] | None, viewer: int | None) -> dict[str, Any]:
    """A finished hand as the page gets it: its numbers, its lines as the terminal prints them, and its
    ``words`` (how it ended, per seat...) from the ``rummykit_describe_result`` hook."""
    words = describe_result(game, None, result, viewer=viewer).as_dict()
    return {**result.as_dict(), **({"lines": lines} if lines is not None else {}), "words": words}


def _seat_state(table: Table, seat: int | None, token: str | None) -> dict[str, Any]:
    """:func:`state`, for a seat of a game only while ``token`` is still that seat's (a join replaces it)."""
    if table.replay is None and seat is not None and (token is None or table.seat_of_token(token) != seat):
        raise WebError(403, f"that token is no longer seat {seat}'s: the seat was taken with it")
    return state(table, seat)


def state(table: Table, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (None: an onlooker who sees no hand)."""
    if table.broken is not None:  # its game holds a move that was not stored: never shown
        raise WebError(503, _closed(table.broken))
    game = table.game
    variant = game.variant
    view = game.observation(seat)
    if seat is None:
        view.pop("hand", None)
    hand = view.get("hand", [])
    arrangement = None
    if hand:
        best = variant.arrange(hand)
        arrangement = {
            "melds": [table_entry(_TableMeld(meld, seat or 0), variant.meld_search) for meld in best.melds],
            "deadwood": [str(c) for c in best.deadwood],
            "deadwood_value": best.deadwood_value,
        }
    viewer_key = str(seat)
    settlement_viewer = seat if seat in _viewers(table) else None
    data: dict[str, Any] = {
        "id": table.id,
        "variant": variant.name,
        "title": variant.title,
        "house_rules": list(variant.house_rules),
        "names": game.names,
        "bots": table.bots,
        # Per seat, whether it is taken: a bot's, or a person seat somebody joined (a free seat waits for a person).
        "taken": [b is not None or (s in table.seats and table.seats[s].joined) for s, b in enumerate(table.bots)],
        "listed": table.listed,
        # Counts every change anybody may see: a page keeps the newest of the states it gets (answers and events).
        "version": table.version,
        "epoch": table.epoch,
        "seat": seat,
        # The seed deals every card: it is shown only once nothing is hidden any more.
        "seed": game.seed if game.is_over or table.replay is not None else None,
        "current_player": game.current_player,
        "legal_actions": view.pop("legal_actions", []) if seat is not None and table.replay is None else [],
        "observation": view,
        "arrangement": arrangement,
        "scores": list(game.scores),
        "sides": (
            [
                {"seats": [s for s in range(game.num_players) if game.side_of(s) == side], "score": score}
                for side, score in enumerate(game.side_scores())
            ]
            if variant.partnerships
            else None
        ),  # fmt: skip
        "results": [
            _result(game, r, table.settlements[i][settlement_viewer] if i < len(table.settlements) else None, seat)
            for i, r in enumerate(game.results)
        ],
        "log": [
            {"deal": e["deal"], "seat": e["seat"], "text": e["words"].get(viewer_key, e["words"]["None"])}
            for e in table.log[-60:]
        ],
        "is_over": game.is_over,
        "end_reason": game.end_reason,
        "winner": game.winner,
        "bonuses": [{"seat": s, "name": n, "points": p} for s, n, p in game.bonuses],
        "melds_on_table": variant.melds_on_table,
        "discard_pile": variant.discard_pile,
    }
    if table.replay is not None:
        data["replay"] = {"step": table.replay.step, "total": len(table.replay.moves)}
        # A replay shows every hand: it is a finished game looked back on.
        data["hands"] = [[str(c) for c in sorted(h)] for h in game.deal.hands]
    return data


# -- the application -----------------------------------------------------------------------------------


def create_app(
    rulesets: Sequence[str] = (),
    plugins: Sequence[str] = (),
    max_tables: int = MAX_TABLES,
    hosts: Sequence[str] | None = None,
    idle_seconds: float = IDLE_SECONDS,
    origin_names: Sequence[str] = (),
    storage: Storage | None = None,
    moves_per_second: float | None = MOVES_PER_SECOND,
) -> Starlette:
    """The ASGI application: the API under ``/api`` and the page at ``/``. ``rulesets`` (files) and
    ``plugins`` (Python files) are what the command line gave; a request can name nothing else. ``hosts``,
    when given, are the only names a request's Host header (and a browser's Origin) may give (a page of
    another site that renames itself to 127.0.0.1, "DNS rebinding", is refused); an IP address is always
    accepted there, since a renamed page carries its own name; ``origin_names`` are names whose pages may call
    the API whatever Host they send (a proxy in front may rewrite it). A table idle for ``idle_seconds`` is
    dropped. Tables are kept in ``storage`` (in memory by default) and those it holds are taken up again:
    their bots move on as soon as the server starts. A seat makes at most ``moves_per_second`` moves a second on
    average, :data:`MOVE_BURST` at once (None: no limit, for scripts playing at full speed)."""
    tables = Tables(rulesets, plugins, max_tables, idle_seconds, storage=storage, moves_per_second=moves_per_second)
    heavy = CapacityLimiter(HEAVY_REQUESTS)
    live = [0]  # live views open now

    def wake(table: Table) -> None:
        """Tell the table's live views that something changed (in the event loop)."""
        if table.version != table.shown_version or table.gone is not None or table.broken is not None:
            table.shown_version = table.version
            if table.changed is not None:
                table.changed.set()
                table.changed = None

    async def engine(function: Callable[..., Any], *args: Any) -> Any:
        """Engine work on no table yet (making one, a replay), in a worker thread, in its turn."""
        async with heavy:
            return await anyio.to_thread.run_sync(partial(function, *args))

    async def on_table(table: Table, function: Callable[..., Any], *args: Any, heavy_work: bool = True) -> Any:
        """``function(*args)`` in a worker thread while nothing else touches ``table``: engine work waits its
        turn first (a read, ``heavy_work=False``, only for the table), so no pool thread waits for a table."""
        if table.lock is None:
            table.lock = asyncio.Lock()  # made here, in the event loop, so only ever once per table
        try:
            if not heavy_work:
                async with table.lock:
                    return await anyio.to_thread.run_sync(partial(function, *args))
            async with heavy, table.lock:
                return await anyio.to_thread.run_sync(partial(function, *args))
        finally:
            wake(table)

    async def bots_move(table: Table) -> None:
        """Let ``table``'s bots move until a person must act or the game ends, a slice at a time. The bots go
        on in a task of their own, so a client that leaves does not leave them in the middle of a game."""

        async def drive() -> None:
            with tables.using(table):
                while await on_table(table, _run_bots, table, BOT_SLICE_SECONDS):
                    pass

        if table.driver is None or table.driver.done():
            table.driver = asyncio.ensure_future(drive())
        await asyncio.shield(table.driver)

    def viewer(request: Request, table: Table) -> int | None:
        """The seat whose view ``request`` may have: the seat of its token, else an onlooker's (None)."""
        text = request.query_params.get("seat")
        asked = None
        if text is not None and text != "":
            # ASCII digits only: int() also reads other scripts' digits, and a huge number costs time.
            if not (text.isascii() and text.isdigit() and len(text) <= 4) or int(text) >= table.game.num_players:
                raise WebError(400, f"'seat' must be from 0 to {table.game.num_players - 1}, not {text[:20]!r}")
            asked = int(text)
        if table.replay is not None:
            return asked  # a replay is a finished game: every hand is shown to everyone
        token = bearer(request)
        seat = None if token is None else table.seat_of_token(token)
        if token is not None and seat is None and not table.is_owner(token):
            raise WebError(403, "that token is not one of this table's")
        if asked is not None and asked != seat:
            if table.bots[asked] is not None:
                raise WebError(403, f"seat {asked} is the {table.bots[asked]} bot's: its hand is not shown")
            raise WebError(403, f"seat {asked}'s view needs that seat's token (Authorization: Bearer TOKEN)")
        return seat

    async def variants(request: Request) -> Response:
        return JSONResponse({"variants": await run_in_threadpool(tables.catalogue), "bots": sorted(BOTS)})

    def links(request: Request, table: Table, tokens: dict[int, str]) -> dict[str, Any]:
        """The join link of each seat in ``tokens`` and the onlooker's link: the page's address with the table
        and the token after the ``#``, which browsers never send to a server (so no log holds it)."""
        base = str(request.base_url)
        return {
            "seats": {str(seat): f"{base}#t={table.id}&seat{seat}={token}" for seat, token in tokens.items()},
            "onlooker": f"{base}#t={table.id}",
        }

    async def view(table: Table, seat: int | None, token: str | None = None) -> dict[str, Any]:
        """The state as ``seat`` sees it; for a seat of a game, only while ``token`` is still that seat's (checked
        under the table's lock: a join may have replaced it since the request was read)."""
        return await on_table(table, _seat_state, table, seat, token, heavy_work=False)  # type: ignore[no-any-return]

    async def create(request: Request) -> Response:
        body = await _body(request)
        table, owner, tokens = await engine(tables.create, body)
        with tables.using(table):
            await bots_move(table)
            seats = sorted(tokens)
            data = await view(table, seats[0], tokens[seats[0]]) if seats else await view(table, None)
        secrets_given = {"owner": owner, "tokens": {str(seat): token for seat, token in tokens.items()}}
        invited = {seat: token for seat, token in tokens.items() if not table.seats[seat].joined}  # not the creator's
        return JSONResponse({**data, **secrets_given, "links": links(request, table, invited)}, status_code=201)

    async def join(request: Request) -> Response:
        with tables.using(tables.get(request.path_params["table_id"])) as table:
            body = await _body(request)
            seat, token = await on_table(table, tables.join, table, body, bearer(request), heavy_work=False)
            data = await view(table, seat, token or bearer(request))
        given = {}
        if token is not None:
            given = {"token": token, "link": links(request, table, {seat: token})["seats"][str(seat)]}
        return JSONResponse({**data, **given})

    async def give_seat(request: Request) -> Response:
        with tables.using(tables.get(request.path_params["table_id"])) as table:
            body = await _body(request)
            text = request.path_params["seat"]
            if not (text.isascii() and text.isdigit() and len(text) <= 4):
                raise WebError(404, f"no seat {text[:20]!r}")
            await on_table(table, tables.give_to_bot, table, int(text), body, bearer(request), heavy_work=False)
            await bots_move(table)
            return JSONResponse(await view(table, None))

    async def lobby(request: Request) -> Response:
        return JSONResponse({"tables": tables.lobby()})

    async def events(request: Request) -> Response:
        """The table as the token's seat (or an onlooker) sees it, sent again at every change: server-sent
        events named ``state`` (the state as JSON), and ``gone`` (why) when the table is dropped or the view's
        seat token stops being the seat's (the seat was taken with it, which replaced it)."""
        table = tables.get(request.path_params["table_id"])
        seat = viewer(request, table)
        token = bearer(request)
        if live[0] >= MAX_LIVE:
            raise WebError(503, f"the server has {MAX_LIVE} live views open: try again later")
        live[0] += 1

        def seen() -> dict[str, Any] | None:
            """The state as the view's seat sees it, or None once its token is no longer the seat's: the seat was
            taken with that token (a join link), which replaced it."""
            try:
                return _seat_state(table, seat, token)
            except WebError as exc:
                if exc.status == 403:
                    return None
                raise

        async def stream() -> Any:
            try:
                sent = -1
                while True:
                    if table.gone is not None:
                        yield f"event: gone\ndata: {json.dumps({'error': table.gone, 'reason': 'dropped'})}\n\n"
                        return
                    if table.broken is not None:
                        why = _closed(table.broken)
                        yield f"event: gone\ndata: {json.dumps({'error': why, 'reason': 'broken'})}\n\n"
                        return
                    if table.changed is None:
                        table.changed = asyncio.Event()
                    changed = table.changed
                    if table.version != sent:
                        sent = table.version
                        data = await on_table(table, seen, heavy_work=False)
                        if data is None:
                            why = f"seat {seat} was taken with its join link: this view's token no longer shows it"
                            yield f"event: gone\ndata: {json.dumps({'error': why, 'reason': 'token'})}\n\n"
                            return
                        yield f"event: state\ndata: {json.dumps(data)}\n\n"
                        continue
                    try:
                        await asyncio.wait_for(changed.wait(), KEEP_ALIVE_SECONDS)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
            finally:
                live[0] -= 1

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def listing(request: Request) -> Response:
        with tables.lock:
            tables.expire()  # a table idle past its time is not counted, whether or not another request dropped it
            items = list(tables.tables.values())
        # Counts only: a table's id is the key to its page, not listed to strangers.
        return JSONResponse(
            {
                "tables": len(items),
                "in_play": sum(1 for t in items if not t.game.is_over and t.replay is None),
                "max_tables": tables.max_tables,
            }
        )

    async def show(request: Request) -> Response:
        with tables.using(tables.get(request.path_params["table_id"])) as table:
            return JSONResponse(await view(table, viewer(request, table), bearer(request)))

    async def delete(request: Request) -> Response:
        table = tables.remove(request.path_params["table_id"], bearer(request))
        wake(table)  # at once (a drop in a worker thread wakes the live views through on_drop)
        return JSONResponse({"deleted": table.id})

    async def move(request: Request) -> Response:
        with tables.using(tables.get(request.path_params["table_id"])) as table:
            body = await _body(request)
            seat = await on_table(table, tables.move, table, body, bearer(request))
            await bots_move(table)
            return JSONResponse(await view(table, seat, bearer(request)))

    async def record(request: Request) -> Response:
        def finished_record(table: Table) -> str:
            if not table.game.is_over and table.replay is None:
                raise WebError(409, "a game's record is given once the game is over: it holds the seed")
            return table.game.to_json()

        with tables.using(tables.get(request.path_params["table_id"])) as table:
            text = await on_table(table, finished_record, table, heavy_work=False)
        return Response(text, media_type="application/json")

    async def replay(request: Request) -> Response:
        body = await _body(request)
        table, owner = await engine(tables.replay, body)
        data = await view(table, None)
        return JSONResponse({**data, "owner": owner, "tokens": {}}, status_code=201)

    async def step(request: Request) -> Response:
        with tables.using(tables.get(request.path_params["table_id"])) as table:
            body = await _body(request)
            seat = viewer(request, table)
            await on_table(table, tables.step, table, body, bearer(request))
            return JSONResponse(await view(table, seat, bearer(request)))

    async def web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def plugin_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)[:500]}, status_code=500)

    static = Path(str(resources.files("rummykit.web").joinpath("static")))
    routes = [
        Route("/api/variants", variants, methods=["GET"]),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables", listing, methods=["GET"]),
        Route("/api/replays", replay, methods=["POST"]),
        Route("/api/tables/{table_id}", show, methods=["GET"]),
        Route("/api/tables/{table_id}", delete, methods=["DELETE"]),
        Route("/api/tables/{table_id}/moves", move, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record, methods=["GET"]),
        Route("/api/tables/{table_id}/step", step, methods=["POST"]),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}", give_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/events", events, methods=["GET"]),
        Route("/api/lobby", lobby, methods=["GET"]),
        Mount("/", StaticFiles(directory=static, html=True)),
    ]
    middleware = (
        [Middleware(HostCheck, names=list(hosts), origin_names=list(origin_names))] if hosts is not None else []
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()

        def dropped(table: Table) -> None:  # expiry runs in worker threads too
            loop.call_soon_threadsafe(wake, table)

        tables.on_drop = dropped
        # Tables taken up from storage whose bots were to move go on now.
        waiting = [t for t in list(tables.tables.values()) if _bot_to_move(t)]
        drivers = [asyncio.ensure_future(bots_move(t)) for t in waiting]
        yield
        for driver in drivers:
            driver.cancel()

    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={WebError: web_error, HTTPException: http_error, PluginError: plugin_error},
    )
    app.state.tables = tables
    return app


def bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    if not token.isascii() or len(token) > 100:
        raise WebError(403, "that token is not one of this table's")
    return token


def _host_name(value: str) -> str:
    """The name in a Host header (``example.org:8000``, ``[::1]:80``) without its port, lowercased."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """Refuse (400) a request whose Host header names a host that is not one of ``names`` nor an IP address
    (what "DNS rebinding" would send), and (403) a browser request from a page of another site: its Origin is
    neither the Host it addresses nor one of ``origin_names``."""

    def __init__(self, app: ASGIApp, names: Sequence[str], origin_names: Sequence[str] = ()):
        self.app = app
        self.names = {_host_name(n) for n in names}
        self.origin_names = {_host_name(n) for n in origin_names}

    def allowed(self, name: str) -> bool:
        """Whether a request may name the host ``name`` (one of the names, or an IP address)."""
        return name in self.names or _is_address(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        origin = headers.get("origin")
        if not self.allowed(_host_name(host)):
            refusal = JSONResponse({"error": "the request's Host is not a name this server answers to"}, 400)
        elif (
            origin is not None
            and origin.split("://", 1)[-1].lower() != host.lower()
            and _host_name(origin.split("://", 1)[-1]) not in self.origin_names
        ):
            # A browser names the page a request comes from: only this server's own pages may call its API.
            refusal = JSONResponse({"error": "requests from another site's page are refused"}, 403)
        else:
            await self.app(scope, receive, send)
            return
        await refusal(scope, receive, send)


def allowed_hosts(host: str, extra: Sequence[str] = ()) -> list[str]:
    """The names a server bound to ``host`` answers to: that address, this machine's own names, and ``extra``
    (``--allow-host``)."""
    names = [host, "localhost", *extra]
    if host in ("0.0.0.0", "::", ""):
        names += [socket.gethostname(), socket.getfqdn()]
    return names


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    rulesets: Sequence[str] = (),
    plugins: Sequence[str] = (),
    announce: Any = None,
    allow_hosts: Sequence[str] = (),
    idle_seconds: float = IDLE_SECONDS,
    db: str | None = None,
    moves_per_second: float | None = MOVES_PER_SECOND,
) -> None:
    """Run the server until interrupted (Ctrl-C stops it at once), announcing its address first, and a warning
    when ``host`` lets other machines in. ``port`` 0 is any free port: the one bound is announced.
    ``allow_hosts`` are names besides this machine's that the server answers to (the name others reach it by).
    Tables are kept in the SQLite database ``db`` (by default :func:`default_db` ; ``"none"``: in memory only)
    and taken up again from it at the next start. A seat makes at most ``moves_per_second`` moves a second
    (None: no limit).

    Nothing is announced when the server cannot start: a plugin file missing or broken, or a ruleset or
    variant that does not load with the plugins, raises :class:`~rummykit.RulesetError` (a plugin's hook that
    raises: :class:`~rummykit.PluginError`), as in every command that takes ``--plugin``; an address or port
    that cannot be bound, or a database that cannot be used, raises ValueError with one line saying why."""
    import uvicorn

    _local_plugins(plugins)  # before anything: the file as given is named, as the other commands name it
    listener = _listen(host, port)  # say so in one line rather than after the address is announced
    try:
        port = listener.getsockname()[1]  # the port bound: another than 0 when 0 asked for any free one
        path = default_db() if db is None else db
        try:
            storage: Storage = MemoryStorage() if path == "none" else SQLiteStorage(path)
        except StorageError as exc:
            raise ValueError(str(exc)) from None
        try:
            app = create_app(
                rulesets,
                plugins,
                hosts=allowed_hosts(host, allow_hosts),
                idle_seconds=idle_seconds,
                origin_names=allow_hosts,
                storage=storage,
                moves_per_second=moves_per_second,
            )
            # Every variant offered, loaded with the plugins now: one that does not load is refused here, not
            # at the page's first request (and the first page loads at once).
            app.state.tables.catalogue()
        except BaseException:
            storage.close()
            raise
    except BaseException:
        listener.close()
        raise

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            self.force_exit = True  # Ctrl-C stops at once: open connections are not waited for
            # The requests it cuts short are no errors: their cancellation is not logged as tracebacks.
            logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)

    server = Server(uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1))
    shown = f"[{host}]" if ":" in host else host
    if announce is None:
        announce = partial(print, flush=True)  # seen at once even when the output is a pipe
    announce(f"rummykit serves on http://{shown}:{port}/ (Ctrl-C stops it)")
    if not _is_loopback(host):
        announce(
            f"warning: {host} lets other machines reach this server; anyone who can reach it may open tables, "
            "and a table's id and seat tokens are all that keep others out of it"
        )
        if host in ("0.0.0.0", "::", ""):
            # Join links name the address the page is opened at: 0.0.0.0 is reached by this machine only.
            name = allow_hosts[0] if allow_hosts else socket.gethostname()
            announce(f"others reach it at http://{name}:{port}/ : open the page there to make tables and join links")
    kept = app.state.tables
    if path == "none":
        announce("tables are kept in memory only: they end with the server")
    else:
        announce(f"tables are kept in {path} ({len(kept.tables)} taken up again)")
    for why in kept.not_restored:
        announce(f"warning: {why}")
    try:
        server.run(sockets=[listener])  # the socket bound above, that the address announced names
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C it caught again once it has stopped
        pass
    with kept.lock:  # no table is made or dropped meanwhile; a move a worker thread stores later fails, unanswered
        storage.close()
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        # A request still runs in a worker thread, which Python would wait for at exit: it is abandoned.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port``, listening already (a request sent as soon as the address is
    announced waits for the server rather than being refused); ValueError with one line saying why not."""
    listener: socket.socket | None = None
    try:
        listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except (OSError, OverflowError, ValueError, TypeError) as exc:  # in use, no such address, port out of range...
        if listener is not None:
            listener.close()
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise ValueError(f"cannot listen on {host} port {port}: {reason}") from None
    return listener


def default_db() -> str:
    """Where ``rummykit serve`` keeps its tables unless told (``--db``): ``tables.sqlite3`` in the user's data
    folder (``~/.local/share/rummykit`` on Linux, as ``platformdirs`` says elsewhere)."""
    import platformdirs

    return str(Path(platformdirs.user_data_dir("rummykit", appauthor=False)) / "tables.sqlite3")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
