"""No response of the web table lets anyone learn a card they may not see while a game is in progress.

Every variant is played through the API with every seat a person (each with its token); after each move the
table is read as each seat and as a stranger, and each answer is checked three ways:

- it is what the server would answer if every card hidden from that reader lay elsewhere: the hidden cards
  (other hands but what the reader knows of them, the stock, hidden zones) are shuffled among their places
  in a copy of the game, and the copy's state must be the same answer (so nothing in it depends on them);
- every card it names is one the reader has seen at some point of the game (its own hand, the pile, the
  table, cards taken from the pile, cards shown to it);
- it holds no seed, and the record, another seat's view and a bot's seat are refused.

The same holds for everything else a reader gets while playing together: the table is listed, each seat is
taken with its join link, and besides each read the checks cover the answer that made the table (but for the
creator's tokens and links), each join answer (taking the seat, and renaming it halfway), the first ``state``
event of the reader's live view (``/events``), the lobby, and the page itself (``/``, ``/app.js``). None of
them may hold a token other than the reader's own (nor a token's digest).
"""

from __future__ import annotations

import json
import random
import re
import warnings
from importlib import resources
from typing import Any

import anyio
import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from rummykit.plugins.gin import GinState  # noqa: E402

import rummykit  # noqa: E402
from rummykit.engine import Deal, Game  # noqa: E402
from rummykit.web.app import Table, create_app, state  # noqa: E402
from rummykit.web.storage import digest  # noqa: E402

pytestmark = pytest.mark.xdist_group("web")

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")
MOVES = 80
"""Moves checked per game (each read as every seat and a stranger)."""
EVERY = 4
"""Every this many moves, each reader also opens its live view (its first event is checked), reads the lobby and
the page."""
STATIC = {"/": "index.html", "/app.js": "app.js"}
"""The page, and the file it is."""


def hidden_places(deal: Deal, viewer: int | None) -> list[tuple[list[Any], int]]:
    """(list, index) of every card ``viewer`` cannot see: in other hands, the stock, zones hidden from it."""
    places: list[tuple[list[Any], int]] = [(deal.stock, i) for i in range(len(deal.stock))]
    public = set()
    if deal.phase in ("knocker-melds", "opponent-melds"):  # Gin: a knocker's hand is spread face up
        public.add(deal.state_of(GinState).knocker)
    for holder in deal.seats:
        if holder == viewer or holder in public:
            continue
        hand = deal.hands[holder]
        places += [(hand, i) for i, card in enumerate(hand) if not deal.sees(viewer, card, holder)]
    for zone in deal.zones.values():
        for owner, held in enumerate(zone.cards):
            shown = {c.id for c in deal.zone_seen(viewer, zone, owner)}
            places += [(held, i) for i, card in enumerate(held) if card.id not in shown]
    return places


def seen_now(deal: Deal, viewer: int | None) -> set[str]:
    """The card texts ``viewer`` sees at this moment (by the kernel's own rules of who sees what)."""
    hidden = {id(where[index]) for where, index in hidden_places(deal, viewer)}
    cards = [*deal.stock, *deal.discard, *(c for h in deal.hands for c in h)]
    cards += [c for tm in deal.table for c in tm.meld.cards]
    cards += [c for zone in deal.zones.values() for held in zone.cards for c in held]
    face_down = deal.face_down
    return {str(c) for c in cards if id(c) not in hidden and c.id not in face_down}


def twin_state(table: Table, viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """The state ``viewer`` would get if the cards hidden from it were shuffled among their places."""
    game = table.game.clone()
    places = hidden_places(game.deal, viewer)
    cards = [where[index] for where, index in places]
    rng.shuffle(cards)
    for (where, index), card in zip(places, cards):
        where[index] = card
    game.seed = rng.randrange(2**62)  # the seed deals every card: it must not show either
    twin = Table(id=table.id, game=game, bots=table.bots, players=table.players, log=table.log,
                 settlements=table.settlements, replay=None, owner_digest=table.owner_digest, seats=table.seats,
                 listed=table.listed, version=table.version, epoch=table.epoch)  # fmt: skip
    return json.loads(json.dumps(state(twin, viewer)))  # type: ignore[no-any-return]


def without_stands_for(data: Any) -> Any:
    """``data`` less what wild cards stand for (``stands_for``, ``2H=TS``): those name no card anyone holds."""
    if isinstance(data, dict):
        return {key: without_stands_for(value) for key, value in data.items() if key != "stands_for"}
    if isinstance(data, list):
        return [without_stands_for(value) for value in data]
    if isinstance(data, str):
        return re.sub(r"=(?:[2-9TJQKA][CDHS])", "", data)
    return data


def check_log(table: Table, deals: list[Deal]) -> None:
    """Every line of the table's move list is a move the engine made, under the seat it was made for."""
    made = {(deal.number, seat, str(action)) for deal in deals for seat, action in deal.log}
    for entry in table.log:
        assert (entry["deal"], entry["seat"], entry["action"]) in made, f"{entry} is no move of that seat"


class Secrets:
    """Every token the server gave for a table (the owner's, each seat's first and each seat's current), to check
    that no answer shows one to a reader other than its holder."""

    def __init__(self, created: dict[str, Any]):
        self.owner: str = created["owner"]
        self.seats: dict[int, str] = {int(seat): token for seat, token in created["tokens"].items()}
        self.all: set[str] = {self.owner, *self.seats.values()}

    def take(self, seat: int, token: str) -> None:
        self.seats[seat] = token
        self.all.add(token)

    def headers(self, viewer: int | None) -> dict[str, str]:
        return {} if viewer is None else {"Authorization": f"Bearer {self.seats[viewer]}"}

    def check(self, text: str, viewer: int | None, what: str) -> None:
        """``text`` holds no token (nor digest of one) but ``viewer``'s own."""
        own = None if viewer is None else self.seats[viewer]
        for token in self.all:
            assert digest(token) not in text, f"{what} shows a token's digest to {viewer}"
            if token != own:
                assert token not in text, f"{what} shows {viewer} a token that is not its own"


def check_answer(
    table: Table, answer: dict[str, Any], text: str, viewer: int | None, seen: set[str], rng: random.Random
) -> None:
    """``answer`` (its JSON ``text``) shows ``viewer`` nothing hidden from it."""
    assert answer["seat"] == viewer and answer["seed"] is None
    assert answer == twin_state(table, viewer, rng), f"the answer to {viewer} depends on cards hidden from it"
    seen |= seen_now(table.game.deal, viewer)
    # The reader's own moves may name any card it handled (a card passed to it and passed on between reads).
    others = {**answer, "log": [entry for entry in answer["log"] if entry["seat"] != viewer]}
    shown = json.dumps(without_stands_for(others))
    unseen = {m.group(): shown[m.start() - 120 : m.end() + 20] for m in CARD.finditer(shown)}
    unseen = {card: where for card, where in unseen.items() if card not in seen}
    assert not unseen, f"seat {viewer} is shown cards it never saw: {unseen}"
    assert str(table.game.seed) not in text


def check_reader(
    client: TestClient,
    table: Table,
    secrets: Secrets,
    viewer: int | None,
    seen: set[str],
    rng: random.Random,
    more: bool,
) -> None:
    url = f"/api/tables/{table.id}"
    headers = secrets.headers(viewer)
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    answer = response.json()
    check_answer(table, answer, response.text, viewer, seen, rng)
    secrets.check(response.text, viewer, "a read")
    # Another seat's view, with this reader's token or none, is refused.
    for other in range(table.game.num_players):
        if other != viewer:
            assert client.get(f"{url}?seat={other}", headers=headers).status_code == 403
    if not more:
        return
    # The lobby shows no card, seed or token, whoever asks.
    lobby = client.get("/api/lobby", headers=headers)
    assert lobby.status_code == 200 and table.id in lobby.text
    assert not CARD.search(lobby.text), f"the lobby names a card: {lobby.text[:300]}"
    assert str(table.game.seed) not in lobby.text
    secrets.check(lobby.text, None, "the lobby")
    # The live view starts with the very answer a read gives.
    status, name, data, text = first_event(client, f"{url}/events", headers)
    assert (status, name) == (200, "state"), text[:300]
    assert data == answer, f"the live view of {viewer} is not what a read shows"
    assert str(table.game.seed) not in text
    secrets.check(text, viewer, "a live view")
    for path, name in STATIC.items():  # the page is the file shipped, whoever reads it, at any time
        shipped = resources.files("rummykit.web").joinpath("static", name)
        before = shipped.read_bytes()
        page = client.get(path, headers=headers)
        assert page.status_code == 200 and page.content in (before, shipped.read_bytes()), f"{path} is not {name}"
        secrets.check(page.text, None, path)
        assert table.id not in page.text and str(table.game.seed) not in page.text


def first_event(client: TestClient, path: str, headers: dict[str, str]) -> tuple[int, str, Any, str]:
    """The status and first event (name, data, and the event's whole text) of the live view at ``path``, read by
    calling the application in the test client's event loop; the view is closed after it (an endless stream
    cannot be read whole)."""
    app = client.app

    async def read() -> tuple[int, bytes]:
        done = anyio.Event()
        body = bytearray()
        status = [0]
        asked = [False]

        async def receive() -> dict[str, Any]:
            if not asked[0]:
                asked[0] = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
                if b"\n\n" in body or not message.get("more_body", False):
                    done.set()

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"testserver"), *((k.lower().encode(), v.encode()) for k, v in headers.items())],
            "client": ("testclient", 50000),
            "server": ("testserver", 80),
        }
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(app, scope, receive, send)
                await done.wait()
                group.cancel_scope.cancel()
        return status[0], bytes(body)

    assert client.portal is not None  # the client is open (a with block)
    status, body = client.portal.call(read)
    text = body.decode()
    event = text.split("\n\n", 1)[0]
    fields = dict(line.split(": ", 1) for line in event.splitlines() if not line.startswith(":"))
    return status, fields.get("event", ""), json.loads(fields.get("data", "null")), event


@pytest.mark.parametrize("variant", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_no_answer_shows_a_card_its_reader_may_not_see(variant: str) -> None:
    info = rummykit.load_variant(variant)
    players = min(info.max_players, 4)
    app = create_app(moves_per_second=None)
    with TestClient(app) as client:
        response = client.post(
            "/api/tables",
            json={"variant": variant, "players": players, "bots": [None] * players, "max_hands": 1, "listed": True},
        )
        assert response.status_code == 201, response.text
        created = response.json()
        assert created["seed"] is None and str(created["observation"]["seat"]) == "0"
        table = app.state.tables.get(created["id"])
        game: Game = table.game
        rng = random.Random(variant)
        secrets = Secrets(created)
        seen: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(players)]}
        # The answer that made the table, but for the creator's tokens and links, is seat 0's view.
        made = {key: value for key, value in created.items() if key not in ("owner", "tokens", "links")}
        check_answer(table, made, json.dumps(made), 0, seen[0], rng)
        secrets.check(json.dumps(made), 0, "the table's making")
        # Each seat is taken with its join link: the answer is that seat's view and its new token.
        for seat in range(players):
            joined = client.post(
                f"/api/tables/{table.id}/join", json={"name": f"Reader {seat + 1}"}, headers=secrets.headers(seat)
            )
            assert joined.status_code == 200, joined.text
            answer = joined.json()
            secrets.take(seat, answer.pop("token"))
            assert answer.pop("link").endswith(f"&seat{seat}={secrets.seats[seat]}")
            check_answer(table, answer, joined.text, seat, seen[seat], rng)
            secrets.check(joined.text, seat, "a join answer")
        deals: list[Deal] = []
        for number in range(MOVES):
            if game.deal not in deals:
                deals.append(game.deal)
            check_log(table, deals)
            if game.is_over:
                break
            assert client.get(f"/api/tables/{created['id']}/record").status_code == 409
            for viewer in seen:
                check_reader(client, table, secrets, viewer, seen[viewer], rng, number % EVERY == 0)
            if number == MOVES // 2:  # every seat renames itself: the answer is its view, and no new token
                for seat in range(players):
                    renamed = client.post(
                        f"/api/tables/{table.id}/join", json={"name": f"Renamed {seat + 1}"},
                        headers=secrets.headers(seat),
                    )  # fmt: skip
                    assert renamed.status_code == 200 and "token" not in renamed.json(), renamed.text
                    check_answer(table, renamed.json(), renamed.text, seat, seen[seat], rng)
                    secrets.check(renamed.text, seat, "a join answer")
            actor = game.current_player
            assert actor is not None
            action = rng.choice(game.legal_actions())
            if actor != 0:  # a seat's token plays only that seat
                refused = client.post(f"/api/tables/{created['id']}/moves", json={"seat": actor, "action": str(action)},
                                      headers=secrets.headers(0))  # fmt: skip
                assert refused.status_code == 403
            moved = client.post(
                f"/api/tables/{created['id']}/moves", json={"action": str(action)}, headers=secrets.headers(actor)
            )
            assert moved.status_code == 200, moved.text
            assert moved.json()["seat"] == actor
            secrets.check(moved.text, actor, "a move's answer")
        else:  # the last move is checked too (it may have ended the game)
            if game.deal not in deals:
                deals.append(game.deal)
            check_log(table, deals)
        for old in created["tokens"].values():  # the links served once
            assert (
                client.get(f"/api/tables/{created['id']}", headers={"Authorization": f"Bearer {old}"}).status_code
                == 403
            )
        if game.is_over:  # then the record and the seed are everyone's
            assert client.get(f"/api/tables/{created['id']}").json()["seed"] == game.seed
            assert client.get(f"/api/tables/{created['id']}/record").status_code == 200


def test_a_bot_seat_is_never_shown_and_a_stranger_sees_no_hand() -> None:
    app = create_app()
    with TestClient(app) as client:
        created = client.post("/api/tables", json={"variant": "iceberg", "players": 3, "seed": 4}).json()
        url = f"/api/tables/{created['id']}"
        assert set(created["tokens"]) == {"0"}
        for seat in (1, 2):
            assert client.get(f"{url}?seat={seat}").status_code == 403
            assert (
                client.get(f"{url}?seat={seat}", headers={"Authorization": f"Bearer {created['owner']}"}).status_code
                == 403
            )
        stranger = client.get(url).json()
        assert "hand" not in stranger["observation"] and stranger["legal_actions"] == [] and stranger["seed"] is None
        assert client.get(url, headers={"Authorization": "Bearer not-a-token"}).status_code == 403
        assert client.get(url, headers={"Authorization": "Bearer tøken".encode("latin-1")}).status_code == 403
        assert client.delete(url, headers={"Authorization": f"Bearer {created['tokens']['0']}"}).status_code == 403
        listing = client.get("/api/tables").json()
        assert created["id"] not in json.dumps(listing) and listing["tables"] == 1
