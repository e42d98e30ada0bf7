"""The web server: many tables at once, each a :class:`~rummykit.engine.Game` behind a JSON API.

Nothing a request sends is executed: variant names come only from :func:`rummykit.list_variants` and the
ruleset files given on the command line, house rules only from those the variant offers, bots only from
:data:`rummykit.bots.BOTS`, and moves are action texts the engine checks (an illegal one changes nothing).
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..actions import Action, IllegalAction, action_words
from ..bots import BOTS, Bot, make_bot
from ..catalogue import list_variants
from ..cli import TurnPrinter
from ..dispatch import PluginError
from ..engine import AUTO_PREFIX, Deal, Game, HandResult, load_record, play_record
from ..engine import TableMeld as _TableMeld
from ..ruleset import RulesetError
from ..variant import Variant, house_rules_for, load_variant, table_entry

__all__ = ["create_app", "serve", "WebError", "Tables", "MAX_BODY", "MAX_TABLES"]

MAX_BODY = 256 * 1024
"""Request bodies longer than this are refused (413): a game record of a long game fits many times over."""
MAX_TABLES = 500
"""Tables kept at once; when full, finished tables go first, else new tables are refused (503)."""
MAX_BOT_MOVES = 200_000
"""Bot moves made for one request at most (a whole bots-only game takes far fewer)."""
LOG_LENGTH = 300
"""Moves kept per table for the page's move list."""


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
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    replay: Replay | None = None


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
    """Apply ``action`` for the seat to act, recording how it reads and any hand it ends."""
    game = table.game
    deal: Deal = game.deal
    seat = deal.actor
    before = len(game.results)
    game.apply(action)
    done = deal.log[-1][1] if deal.log else None
    if done is not None:
        words = {}
        for viewer in _viewers(table):
            said = action_words(deal, seat, done, viewer)
            if said is None:
                words[str(viewer)] = f"{game.names[seat]}: {done}"
            elif viewer == seat:
                words[str(viewer)] = f"You {said.you}"
            else:
                words[str(viewer)] = f"{game.names[seat]} {said.they}"
        table.log.append({"deal": deal.number, "seat": seat, "action": str(done), "words": words})
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


def _run_bots(table: Table) -> None:
    """Let the bots move until a person must act or the game is over."""
    game = table.game
    for _ in range(MAX_BOT_MOVES):
        if game.is_over:
            return
        seat = game.current_player
        assert seat is not None
        bot = table.players[seat]
        if bot is None:
            return
        _apply(table, bot.choose(game))
    raise WebError(500, f"the bots made {MAX_BOT_MOVES} moves without the game ending")


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
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise WebError(413, f"the request body is over {MAX_BODY} bytes")
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

    def __init__(self, rulesets: Sequence[str] = (), plugins: Sequence[str] = (), max_tables: int = MAX_TABLES):
        self.plugins = [str(Path(p).resolve()) for p in plugins]
        self.max_tables = max_tables
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

    # -- variants --

    def catalogue(self) -> list[dict[str, Any]]:
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

    def add(self, table: Table) -> None:
        with self.lock:
            if len(self.tables) >= self.max_tables:
                finished = sorted((t.used, key) for key, t in self.tables.items() if t.game.is_over or t.replay)
                if not finished:
                    raise WebError(503, f"the server holds {self.max_tables} tables in play; try again later")
                del self.tables[finished[0][1]]
            self.tables[table.id] = table

    def get(self, table_id: str) -> Table:
        with self.lock:
            table = self.tables.get(table_id)
        if table is None:
            raise WebError(404, f"no table {table_id[:40]!r}")
        table.used = time.monotonic()
        return table

    def remove(self, table_id: str) -> None:
        with self.lock:
            if self.tables.pop(table_id, None) is None:
                raise WebError(404, f"no table {table_id[:40]!r}")

    def create(self, body: dict[str, Any]) -> Table:
        variant = self.variant(body.get("variant"), body.get("house_rules", []))
        players = _int(body, "players", variant.min_players, variant.max_players, variant.min_players)
        assert players is not None
        bots_given = _field(body, "bots", list, [None] + ["greedy"] * (players - 1))
        if len(bots_given) != players:
            raise WebError(400, f"'bots' names a bot or null for each of the {players} seats, not {len(bots_given)}")
        for name in bots_given:
            if name is not None and name not in BOTS:
                shown = repr(name[:40]) if isinstance(name, str) else json.dumps(name)[:40]
                raise WebError(400, f"unknown bot {shown}: bots are {', '.join(sorted(BOTS))} (null for a person)")
        seed = _int(body, "seed", 0, 2**63 - 1, None)
        max_hands = _int(body, "max_hands", 1, 1000, None)
        layout = _field(body, "layout", dict, None)
        names = _field(body, "names", list, None)
        if names is not None:
            if len(names) != players or not all(isinstance(n, str) and 0 < len(n) <= 30 for n in names):
                raise WebError(400, f"'names' must be {players} names of 1 to 30 characters")
        else:
            names = [
                f"Player {s + 1}" if b is None else f"{b.capitalize()} bot {s + 1}" for s, b in enumerate(bots_given)
            ]
        try:
            game = variant.new_game(players=names, seed=seed, layout=layout, max_hands=max_hands)
        except (ValueError, TypeError, KeyError) as exc:
            raise WebError(400, str(exc)[:500]) from None
        bot_seed = game.seed
        table = Table(
            id=secrets.token_hex(8),
            game=game,
            bots=list(bots_given),
            players=[None if b is None else make_bot(b, seed=bot_seed + s) for s, b in enumerate(bots_given)],
        )
        with table.lock:
            _run_bots(table)
        self.add(table)
        return table

    def move(self, table: Table, body: dict[str, Any]) -> None:
        seat = _field(body, "seat", int, None)
        text = _field(body, "action", str, None)
        if seat is None or text is None:
            raise WebError(400, 'a move is {"seat": N, "action": "ACTION TEXT"}')
        if table.replay is not None:
            raise WebError(409, "this table replays a record: step it instead")
        game = table.game
        if not 0 <= seat < game.num_players:
            raise WebError(400, f"'seat' must be from 0 to {game.num_players - 1}, not {seat}")
        if table.bots[seat] is not None:
            raise WebError(403, f"seat {seat} is played by the {table.bots[seat]} bot")
        with table.lock:
            if game.is_over:
                raise WebError(409, "the game is over")
            if game.current_player != seat:
                who = game.current_player
                raise WebError(409, f"it is not seat {seat}'s turn: {game.names[who] if who is not None else '-'} acts")
            try:
                _apply(table, text)
            except IllegalAction as exc:
                raise WebError(422, str(exc)) from None
            except TypeError as exc:
                raise WebError(400, str(exc)) from None
            _run_bots(table)

    def replay(self, body: dict[str, Any]) -> Table:
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
        table = Table(id=secrets.token_hex(8), game=self._replayed(replay), bots=[], players=[], replay=replay)
        table.bots = [None] * table.game.num_players
        table.players = [None] * table.game.num_players
        self.add(table)
        return table

    @staticmethod
    def _replayed(replay: Replay) -> Game:
        record = replay.record
        return replay.variant.new_game(
            players=record["players"], seed=record["seed"], layout=record.get("deal"), max_hands=record.get("max_hands")
        )

    def step(self, table: Table, body: dict[str, Any]) -> None:
        replay = table.replay
        if replay is None:
            raise WebError(409, "only a replay steps")
        by = _int(body, "by", -100_000, 100_000, None)
        to = _int(body, "to", 0, len(replay.moves), None)
        if (by is None) == (to is None):
            raise WebError(400, 'a step is {"by": N} (back with a negative N) or {"to": N}')
        target = to if to is not None else min(max(replay.step + (by or 0), 0), len(replay.moves))
        with table.lock:
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


def _result(result: HandResult, lines: list[str]) -> dict[str, Any]:
    return {**result.as_dict(), "lines": lines}


def state(table: Table, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (None: an onlooker who sees no hand)."""
    game = table.game
    variant = game.variant
    view = game.observation(seat if seat is not None else 0)
    if seat is None:
        view.pop("hand", None)
        view.pop("legal_actions", None)
        view["known"] = {}
        view["seat"] = None
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
        "seat": seat,
        "seed": game.seed,
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
            _result(r, table.settlements[i][settlement_viewer]) if i < len(table.settlements) else r.as_dict()
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
) -> Starlette:
    """The ASGI application: the API under ``/api`` and the page at ``/``. ``rulesets`` (files) and
    ``plugins`` (Python files) are what the command line gave; a request can name nothing else. ``hosts``,
    when given, are the only names a request's Host header may give (a page of another site that renames
    itself to 127.0.0.1, "DNS rebinding", is refused)."""
    tables = Tables(rulesets, plugins, max_tables)

    def seat_of(request: Request, table: Table) -> int | None:
        text = request.query_params.get("seat")
        if text is None or text == "":
            return None
        if not text.isdigit() or not 0 <= int(text) < table.game.num_players:
            raise WebError(400, f"'seat' must be from 0 to {table.game.num_players - 1}, not {text[:20]!r}")
        return int(text)

    async def variants(request: Request) -> Response:
        return JSONResponse({"variants": await run_in_threadpool(tables.catalogue), "bots": sorted(BOTS)})

    async def create(request: Request) -> Response:
        body = await _body(request)
        table = await run_in_threadpool(tables.create, body)
        seats = [s for s, b in enumerate(table.bots) if b is None]
        return JSONResponse(await run_in_threadpool(locked_state, table, seats[0] if seats else None), status_code=201)

    async def listing(request: Request) -> Response:
        with tables.lock:
            items = list(tables.tables.values())
        return JSONResponse(
            {"tables": [{"id": t.id, "variant": t.game.variant.name, "is_over": t.game.is_over} for t in items]}
        )

    def locked_state(table: Table, seat: int | None) -> dict[str, Any]:
        with table.lock:  # in a worker thread: waiting for a busy table never holds up the others
            return state(table, seat)

    async def show(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        seat = seat_of(request, table)
        return JSONResponse(await run_in_threadpool(locked_state, table, seat))

    async def delete(request: Request) -> Response:
        tables.remove(request.path_params["table_id"])
        return JSONResponse({"deleted": request.path_params["table_id"]})

    async def move(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        body = await _body(request)
        await run_in_threadpool(tables.move, table, body)
        return JSONResponse(await run_in_threadpool(locked_state, table, body["seat"]))

    async def record(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])

        def locked_record() -> str:
            with table.lock:
                return table.game.to_json()

        return Response(await run_in_threadpool(locked_record), media_type="application/json")

    async def replay(request: Request) -> Response:
        body = await _body(request)
        table = await run_in_threadpool(tables.replay, body)
        return JSONResponse(await run_in_threadpool(locked_state, table, None), status_code=201)

    async def step(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        body = await _body(request)
        await run_in_threadpool(tables.step, table, body)
        seat = seat_of(request, table)
        return JSONResponse(await run_in_threadpool(locked_state, table, seat))

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
        Mount("/", StaticFiles(directory=static, html=True)),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))] if hosts is not None else []
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={WebError: web_error, HTTPException: http_error, PluginError: plugin_error},
    )
    app.state.tables = tables
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    rulesets: Sequence[str] = (),
    plugins: Sequence[str] = (),
    announce: Any = None,
) -> None:
    """Run the server until interrupted, announcing its address first."""
    import uvicorn

    try:  # say so in one line rather than after the address is announced
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise ValueError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    anywhere = host in ("0.0.0.0", "::", "")
    app = create_app(rulesets, plugins, hosts=None if anywhere else [host, "localhost", "127.0.0.1", "[::1]"])
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    if announce is None:
        announce = partial(print, flush=True)  # seen at once even when the output is a pipe
    announce(f"rummykit serves on http://{shown}:{port}/ (Ctrl-C stops it)")
    server.run()
