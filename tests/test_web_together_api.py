"""`rummykit serve`, playing together: join links and the lobby, live views (server-sent events), the rate
limit of a seat's moves, refused moves that change nothing, and the tables' database (``--db``) as
`rummykit serve` opens it and announces it.

The JSON API goes through Starlette's test client; the live views through a real uvicorn server in a thread
and httpx streaming with a time limit (an endless stream would hang the test client)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from test_web import running  # noqa: E402

import rummykit.web.app as web_app  # noqa: E402
from rummykit.cli import main  # noqa: E402
from rummykit.web.app import MOVE_BURST, NAME_LENGTH, create_app  # noqa: E402
from rummykit.web.storage import digest  # noqa: E402

pytestmark = pytest.mark.xdist_group("web")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(moves_per_second=None)) as test_client:
        yield test_client


def new_table(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"variant": "gin", "seed": 1, **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def join(client: Any, table: str, token: str | None = None, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/join", json=body, headers={} if token is None else bearer(token))


def play_to_the_end(client: Any, created: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """Seat ``seat`` plays the first move offered until the game is over (every other seat a bot)."""
    state = created
    for _ in range(2000):
        if state["is_over"]:
            return state
        response = client.post(
            f"/api/tables/{created['id']}/moves",
            json={"action": state["legal_actions"][0]},
            headers=bearer(created["tokens"][str(seat)]),
        )
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the game did not end")


# -- the create answer -----------------------------------------------------------------------------------


def test_the_create_answer_gives_join_links_with_the_token_after_the_hash(client: TestClient) -> None:
    created = new_table(client, bots=[None, None], listed=True)
    assert created["listed"] is True and created["taken"] == [False, False]
    links = created["links"]
    assert set(links["seats"]) == set(created["tokens"]) == {"0", "1"}
    for seat, link in links["seats"].items():
        address, _, fragment = link.partition("#")
        assert address == "http://testserver/" and fragment == f"t={created['id']}&seat{seat}={created['tokens'][seat]}"
    assert links["onlooker"] == f"http://testserver/#t={created['id']}"
    assert created["owner"] not in json.dumps(links)
    unlisted = new_table(client)
    assert unlisted["listed"] is False and set(unlisted["links"]["seats"]) == {"0"}
    # The creator's own seat (taken with a name) has no join link: its token is the creator's, for good.
    named = new_table(client, bots=[None, None, "greedy"], players=3, variant="500-rum", name="Ann")
    assert set(named["links"]["seats"]) == {"1"} and set(named["tokens"]) == {"0", "1"}


# -- joining with a link -----------------------------------------------------------------------------------


def test_joining_with_a_link_issues_a_new_token_and_the_link_serves_once(client: TestClient) -> None:
    created = new_table(client, bots=[None, None])  # not listed: a link is the only way in
    table, old = created["id"], created["tokens"]["1"]
    joined = join(client, table, old, name="  Bea  ")
    assert joined.status_code == 200, joined.text
    answer = joined.json()
    new = answer["token"]
    assert new != old and answer["seat"] == 1 and answer["names"][1] == "Bea" and answer["taken"] == [False, True]
    assert answer["link"] == f"http://testserver/#t={table}&seat1={new}"
    assert "hand" in answer["observation"]  # the seat's own view
    # The old token stops working everywhere; the link cannot be used again.
    assert client.get(f"/api/tables/{table}", headers=bearer(old)).status_code == 403
    again = join(client, table, old, name="Eve")
    assert again.status_code == 403 and "serves once" in again.json()["error"]
    move = client.post(f"/api/tables/{table}/moves", json={"action": "draw stock"}, headers=bearer(old))
    assert move.status_code == 403
    # The new token shows and plays the seat; joining again with it renames and keeps it.
    mine = client.get(f"/api/tables/{table}", headers=bearer(new)).json()
    assert mine["seat"] == 1 and mine["observation"]["hand"] == answer["observation"]["hand"]
    renamed = join(client, table, new, name="Beatrice")
    assert renamed.status_code == 200 and "token" not in renamed.json() and "link" not in renamed.json()
    assert renamed.json()["names"][1] == "Beatrice"
    assert client.get(f"/api/tables/{table}", headers=bearer(new)).json()["seat"] == 1
    # A token of seat 1 does not join seat 0, and the owner token joins no seat.
    assert join(client, table, new, name="Bea", seat=0).status_code == 403
    assert join(client, table, created["owner"], name="Olga").status_code == 403
    # The other seat's link still serves, once.
    other = join(client, table, created["tokens"]["0"], name="Al")
    assert other.status_code == 200 and other.json()["seat"] == 0 and other.json()["taken"] == [True, True]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "1 to 30 printable characters"),
        ("   ", "1 to 30 printable characters"),
        ("x" * (NAME_LENGTH + 1), "1 to 30 printable characters"),
        ("tab\there", "1 to 30 printable characters"),
        ("bell\x07", "1 to 30 printable characters"),
        ("new\nline", "1 to 30 printable characters"),
        (7, "'name' must be text"),
        (["Ann"], "'name' must be text"),
        (None, "a seat is joined with a 'name'"),
    ],
)
def test_a_bad_name_is_refused_and_the_link_still_serves(client: TestClient, name: Any, words: str) -> None:
    created = new_table(client, bots=[None, "greedy"], listed=True)
    token = created["tokens"]["0"]
    refused = join(client, created["id"], token, name=name)
    assert refused.status_code == 400 and words in refused.json()["error"], refused.text
    refused = join(client, created["id"], None, name=name)  # from the lobby too
    assert refused.status_code == 400 and words in refused.json()["error"], refused.text
    assert client.get(f"/api/tables/{created['id']}").json()["taken"] == [False, True]
    assert join(client, created["id"], token, name="x" * NAME_LENGTH).status_code == 200


def test_a_join_without_a_name_or_as_no_json_is_refused(client: TestClient) -> None:
    created = new_table(client, listed=True)
    url = f"/api/tables/{created['id']}/join"
    assert client.post(url, json={}).status_code == 400
    assert client.post(url, content=b'{"name": "Ann"}', headers={"Content-Type": "text/plain"}).status_code == 415
    assert client.post(url, json=["Ann"]).status_code == 400
    assert client.post(url, json={"name": "Ann", "seat": "0"}).status_code == 400
    assert client.post(url, json={"name": "Ann", "seat": True}).status_code == 400
    assert client.post("/api/tables/nope/join", json={"name": "Ann"}).status_code == 404


# -- joining from the lobby ----------------------------------------------------------------------------------


def test_joining_from_the_lobby_takes_the_first_free_seat_or_the_one_asked(client: TestClient) -> None:
    created = new_table(client, variant="iceberg", players=4, bots=[None, "greedy", None, None], listed=True)
    table = created["id"]
    first = join(client, table, name="Ann")
    assert first.status_code == 200 and first.json()["seat"] == 0 and first.json()["token"]
    # The creator's token of that seat stopped working: the seat is Ann's now.
    assert client.get(f"/api/tables/{table}", headers=bearer(created["tokens"]["0"])).status_code == 403
    asked = join(client, table, name="Dee", seat=3)
    assert asked.status_code == 200 and asked.json()["seat"] == 3
    bot = join(client, table, name="Bob", seat=1)
    assert bot.status_code == 409 and "greedy bot" in bot.json()["error"]
    taken = join(client, table, name="Eve", seat=0)
    assert taken.status_code == 409 and "taken by Ann" in taken.json()["error"]
    assert join(client, table, name="Eve", seat=4).status_code == 400
    assert join(client, table, name="Eve", seat=-1).status_code == 400
    last = join(client, table, name="Cy")
    assert last.status_code == 200 and last.json()["seat"] == 2
    full = join(client, table, name="Eve")
    assert full.status_code == 409 and "every seat" in full.json()["error"]
    state = client.get(f"/api/tables/{table}").json()
    assert state["names"] == ["Ann", "Greedy bot 2", "Cy", "Dee"] and state["taken"] == [True, True, True, True]
    # Each joined token shows its own seat.
    for answer, seat in ((first, 0), (asked, 3), (last, 2)):
        assert client.get(f"/api/tables/{table}", headers=bearer(answer.json()["token"])).json()["seat"] == seat


def test_an_unlisted_table_a_finished_game_and_a_replay_are_not_joined_from_the_lobby(client: TestClient) -> None:
    unlisted = new_table(client, bots=[None, None])
    refused = join(client, unlisted["id"], name="Ann")
    assert refused.status_code == 403 and "not in the lobby" in refused.json()["error"]
    assert client.get(f"/api/tables/{unlisted['id']}").json()["taken"] == [False, False]
    created = new_table(client, bots=[None, "greedy"], listed=True, max_hands=1)
    over = play_to_the_end(client, created)
    for token in (None, created["tokens"]["0"]):
        refused = join(client, created["id"], token, name="Ann")
        assert refused.status_code == 409 and "over" in refused.json()["error"]
    record = client.get(f"/api/tables/{over['id']}/record").json()
    replay = client.post("/api/replays", json={"record": record}).json()
    refused = join(client, replay["id"], name="Ann")
    assert refused.status_code == 409 and "replay" in refused.json()["error"]


# -- the lobby --------------------------------------------------------------------------------------------------


def test_the_lobby_shows_listed_tables_in_play_with_their_seats_and_no_token() -> None:
    with TestClient(create_app(moves_per_second=None)) as own:  # a lobby of this test's tables only
        assert own.get("/api/lobby").json() == {"tables": []}
        listed = new_table(own, variant="iceberg", players=3, bots=[None, None, "random"], listed=True)
        unlisted = new_table(own, bots=[None, None])
        finished = new_table(own, bots=["greedy", "greedy"], listed=True, max_hands=1)
        assert finished["is_over"]
        lobby = own.get("/api/lobby").json()["tables"]
        assert [t["id"] for t in lobby] == [listed["id"]]
        entry = lobby[0]
        assert entry["variant"] == "iceberg" and entry["players"] == 3 and entry["free"] == 2
        assert entry["seats"] == [
            {"seat": 0, "name": "Player 1", "bot": None, "free": True},
            {"seat": 1, "name": "Player 2", "bot": None, "free": True},
            {"seat": 2, "name": "Random bot 3", "bot": "random", "free": False},
        ]
        joined = join(own, listed["id"], listed["tokens"]["1"], name="Bea").json()
        from_lobby = join(own, listed["id"], name="Ann").json()
        entry = own.get("/api/lobby").json()["tables"][0]
        assert [(s["name"], s["free"]) for s in entry["seats"]] == [
            ("Ann", False),
            ("Bea", False),
            ("Random bot 3", False),
        ]
        assert entry["free"] == 0
        text = own.get("/api/lobby").text
        secrets_held = [
            listed["owner"],
            *listed["tokens"].values(),
            unlisted["owner"],
            *unlisted["tokens"].values(),
            joined["token"],
            from_lobby["token"],
        ]
        for secret in secrets_held:
            assert secret not in text and digest(secret) not in text
        assert unlisted["id"] not in text and finished["id"] not in text
        assert "seed" not in text and "hand" not in text
        # Deleted: gone from the lobby.
        assert own.delete(f"/api/tables/{listed['id']}", headers=bearer(listed["owner"])).status_code == 200
        assert own.get("/api/lobby").json() == {"tables": []}


def test_a_creator_with_a_name_takes_the_first_person_seat_at_once(client: TestClient) -> None:
    created = new_table(client, bots=["greedy", None, None], players=3, variant="500-rum", listed=True, name=" Ann ")
    assert created["taken"] == [True, True, False] and created["names"][1] == "Ann" and created["seat"] == 1
    entry = next(t for t in client.get("/api/lobby").json()["tables"] if t["id"] == created["id"])
    assert [s["free"] for s in entry["seats"]] == [False, False, True] and entry["free"] == 1
    # The creator's token is the seat's: nobody else ever held it, so it is not replaced.
    token = created["tokens"]["1"]
    assert client.get(f"/api/tables/{created['id']}", headers=bearer(token)).json()["seat"] == 1
    assert join(client, created["id"], token, name="Annie").json().get("token") is None
    # From the lobby, the next free seat is the only one left.
    assert join(client, created["id"], name="Bea").json()["seat"] == 2
    refused = client.post("/api/tables", json={"variant": "gin", "bots": ["greedy", "greedy"], "name": "Ann"})
    assert refused.status_code == 400 and "every seat is a bot's" in refused.json()["error"]
    refused = client.post("/api/tables", json={"variant": "gin", "bots": [None, None], "name": ""})
    assert refused.status_code == 400 and "a name is 1 to" in refused.json()["error"]


def test_renames_count_against_the_seats_rate_limit() -> None:
    app = create_app()
    now = [1000.0]
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as limited:
        created = new_table(limited, bots=[None, None], name="Ann")
        token = created["tokens"]["0"]
        statuses = [join(limited, created["id"], token, name=f"Ann {n}").status_code for n in range(MOVE_BURST + 1)]
        assert statuses == [200] * MOVE_BURST + [429]
        assert limited.get(f"/api/tables/{created['id']}").json()["names"][0] == f"Ann {MOVE_BURST - 1}"
        now[0] += 1
        assert join(limited, created["id"], token, name="Ann").status_code == 200


def test_the_creator_gives_a_seat_nobody_took_to_a_bot(tmp_path: Path) -> None:
    from rummykit.web.storage import SQLiteStorage

    path = tmp_path / "tables.sqlite3"
    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as first:
        created = new_table(first, bots=[None, None, None], players=3, variant="500-rum", name="Ann", listed=True)
        table, owner = created["id"], created["owner"]
        url = f"/api/tables/{table}/seats"
        taken = join(first, table, created["tokens"]["1"], name="Bea").json()
        refused = first.post(f"{url}/2", json={"bot": "greedy"}, headers=bearer(taken["token"]))
        assert refused.status_code == 403 and "creator" in refused.json()["error"]
        for seat, body, status, words in [
            (1, {"bot": "greedy"}, 409, "taken by Bea"),
            (2, {"bot": "nobody"}, 400, "bots are"),
            (2, {}, 400, "not no bot"),
            (7, {"bot": "greedy"}, 404, "no seat 7"),
        ]:
            refused = first.post(f"{url}/{seat}", json=body, headers=bearer(owner))
            assert refused.status_code == status and words in refused.json()["error"], refused.text
        given = first.post(f"{url}/2", json={"bot": "greedy"}, headers=bearer(owner))
        assert given.status_code == 200, given.text
        assert given.json()["bots"] == [None, None, "greedy"] and given.json()["taken"] == [True, True, True]
        assert first.post(f"{url}/2", json={"bot": "random"}, headers=bearer(owner)).status_code == 409
        # The seat's link stops working, and the lobby has no free seat left.
        assert first.get(f"/api/tables/{table}", headers=bearer(created["tokens"]["2"])).status_code == 403
        assert join(first, table, name="Cy").status_code == 409
        # The people play; the bot answers in its turn.
        tokens = {0: created["tokens"]["0"], 1: taken["token"]}
        state = first.get(f"/api/tables/{table}").json()
        for _ in range(30):
            seat = state["current_player"]
            assert seat in tokens  # never the bot's: it has moved already
            mine = first.get(f"/api/tables/{table}", headers=bearer(tokens[seat])).json()
            moved = first.post(f"/api/tables/{table}/moves", json={"action": mine["legal_actions"][0]},
                               headers=bearer(tokens[seat]))  # fmt: skip
            assert moved.status_code == 200, moved.text
            state = moved.json()
        assert any(entry["seat"] == 2 for entry in state["log"])
        before = first.get(f"/api/tables/{table}").json()
    storage.close()
    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as again:
        after = again.get(f"/api/tables/{table}").json()
        assert after.pop("version") <= before.pop("version")  # it counts changes since the server started
        assert after.pop("epoch") != before.pop("epoch")  # which it names
        assert after == before
    storage.close()


# -- refused moves change nothing -------------------------------------------------------------------------------


def test_a_move_with_another_seats_token_out_of_turn_or_illegal_changes_nothing(client: TestClient) -> None:
    created = new_table(client, bots=[None, None])
    table_id = created["id"]
    table = client.app.state.tables.get(table_id)  # type: ignore[attr-defined]
    acting = created["current_player"]
    waiting = 1 - acting
    url = f"/api/tables/{table_id}/moves"

    def seen() -> tuple[str, list[Any]]:
        views = [
            client.get(f"/api/tables/{table_id}", headers=bearer(created["tokens"][str(s)])).json() for s in (0, 1)
        ]
        return table.game.to_json(), [*views, client.get(f"/api/tables/{table_id}").json()]

    before = seen()
    legal = client.get(f"/api/tables/{table_id}", headers=bearer(created["tokens"][str(acting)])).json()
    action = legal["legal_actions"][0]
    attempts = [
        # The waiting seat's token, naming the acting seat: that token plays its own seat only.
        ({"seat": acting, "action": action}, created["tokens"][str(waiting)], 403, f"seat {waiting}'s, not seat"),
        # The waiting seat plays out of turn.
        ({"action": action}, created["tokens"][str(waiting)], 409, f"'s turn (seat {waiting}): "),
        # The owner token and no token play no seat.
        ({"action": action}, created["owner"], 403, "token of the seat"),
        ({"action": action}, None, 403, "token of the seat"),
        # The acting seat, illegal moves.
        ({"action": "knock 2Z"}, created["tokens"][str(acting)], 422, "'2Z' is not a card"),
        ({"action": "discard AS"}, created["tokens"][str(acting)], 422, "not allowed"),
        ({"action": "fly away"}, created["tokens"][str(acting)], 422, ""),
    ]
    for body, token, status, words in attempts:
        response = client.post(url, json=body, headers={} if token is None else bearer(token))
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"]
        assert seen() == before, f"{body} changed the table"
    moved = client.post(url, json={"action": action}, headers=bearer(created["tokens"][str(acting)]))
    assert moved.status_code == 200 and seen() != before


# -- the rate limit ----------------------------------------------------------------------------------------------


def test_a_seat_moves_a_burst_then_is_refused_until_its_allowance_refills() -> None:
    app = create_app()  # the default limit: 10 moves a second, 30 at once
    now = [1000.0]
    app.state.tables.clock = lambda: now[0]  # a fake clock: the allowance refills without sleeping
    with TestClient(app) as limited:
        created = new_table(limited, bots=[None, None])
        acting = created["current_player"]
        token = created["tokens"][str(acting)]
        url = f"/api/tables/{created['id']}/moves"
        for _ in range(MOVE_BURST):  # refused moves count too: a seat cannot hammer the server either
            assert limited.post(url, json={"action": "knock 2Z"}, headers=bearer(token)).status_code == 422
        game = limited.app.state.tables.get(created["id"]).game  # type: ignore[attr-defined]
        before = game.to_json()
        action = (
            created["legal_actions"]
            or limited.get(f"/api/tables/{created['id']}", headers=bearer(token)).json()["legal_actions"]
        )
        refused = limited.post(url, json={"action": action[0]}, headers=bearer(token))
        assert refused.status_code == 429
        assert refused.json()["error"] == "too many moves: a seat makes at most 10 a second (and 30 at once)"
        assert game.to_json() == before
        # Another seat's allowance is its own: it is refused for being out of turn, not for the rate.
        other = limited.post(url, json={"action": action[0]}, headers=bearer(created["tokens"][str(1 - acting)]))
        assert other.status_code == 409
        now[0] += 0.1  # one move's worth
        assert limited.post(url, json={"action": action[0]}, headers=bearer(token)).status_code == 200
        assert limited.post(url, json={"action": "knock 2Z"}, headers=bearer(token)).status_code == 429
        now[0] += 60  # a long pause refills the burst, no more
        statuses = [limited.post(url, json={"action": "knock 2Z"}, headers=bearer(token)).status_code
                    for _ in range(MOVE_BURST + 1)]  # fmt: skip
        assert statuses == [422] * MOVE_BURST + [429]
        # Reading the table is never limited.
        assert all(limited.get(f"/api/tables/{created['id']}").status_code == 200 for _ in range(40))


def test_no_rate_limit_when_it_is_switched_off(client: TestClient) -> None:
    created = new_table(client, bots=[None, "greedy"])
    url = f"/api/tables/{created['id']}/moves"
    statuses = {client.post(url, json={"action": "knock 2Z"}, headers=bearer(created["tokens"]["0"])).status_code
                for _ in range(MOVE_BURST + 10)}  # fmt: skip
    assert statuses == {422}


# -- live views: server-sent events through a real server ------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(create_app(moves_per_second=None)) as base:
        yield base


class Stream:
    """A live view: ``next()`` is its next event as (name, data), comments (keep-alives) skipped."""

    def __init__(self, response: Any):
        self.response = response
        self.lines = response.iter_lines()

    def next(self) -> tuple[str, Any]:
        name, data = "message", []
        for line in self.lines:
            if line == "":
                if data:
                    return name, json.loads("\n".join(data))
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if key == "event":
                name = value
            elif key == "data":
                data.append(value)
        raise EOFError("the stream ended")


@contextmanager
def live(base: str, table: str, token: str | None = None, seconds: float = 5) -> Iterator[Stream]:
    """The live view of ``table`` as ``token``'s seat (None: an onlooker); a read waits ``seconds`` at most."""
    headers = {} if token is None else bearer(token)
    with httpx.stream("GET", f"{base}/api/tables/{table}/events", headers=headers, timeout=seconds) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-store"
        yield Stream(response)


def post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    return httpx.post(base + path, json=body, headers={} if token is None else bearer(token), timeout=30)


def test_a_live_view_starts_with_the_state_and_follows_every_move(server: str) -> None:
    created = post(server, "/api/tables", {"variant": "gin", "seed": 1, "bots": [None, None]}).json()
    table, tokens = created["id"], created["tokens"]
    acting = created["current_player"]
    watcher = 1 - acting
    with live(server, table, tokens[str(watcher)]) as mine, live(server, table) as onlooker:
        name, first = mine.next()
        own = httpx.get(f"{server}/api/tables/{table}", headers=bearer(tokens[str(watcher)])).json()
        assert name == "state" and first == own  # the current state, exactly as a read shows it
        assert onlooker.next() == ("state", httpx.get(f"{server}/api/tables/{table}").json())
        action = httpx.get(f"{server}/api/tables/{table}", headers=bearer(tokens[str(acting)])).json()
        started = time.monotonic()
        moved = post(server, f"/api/tables/{table}/moves", {"action": action["legal_actions"][0]}, tokens[str(acting)])
        assert moved.status_code == 200
        name, after = mine.next()
        assert time.monotonic() - started < 1.0, "the move reached the other seat's live view late"
        assert name == "state" and len(after["log"]) == len(first["log"]) + 1
        assert after == httpx.get(f"{server}/api/tables/{table}", headers=bearer(tokens[str(watcher)])).json()
        name, seen = onlooker.next()
        assert name == "state" and seen["log"] == httpx.get(f"{server}/api/tables/{table}").json()["log"]
        # A join (a new name) is a change too.
        assert post(server, f"/api/tables/{table}/join", {"name": "Wes"}, tokens[str(watcher)]).status_code == 200
        # ...after which the watcher's old token no longer shows the seat: its live view ends.
        name, gone = mine.next()
        assert name == "gone" and "join link" in gone["error"] and gone["reason"] == "token"
        with pytest.raises(EOFError):
            mine.next()
        name, seen = onlooker.next()
        assert name == "state" and seen["names"][watcher] == "Wes"


def test_a_live_view_shows_its_seats_hand_only_and_an_onlooker_none(server: str) -> None:
    created = post(server, "/api/tables", {"variant": "iceberg", "players": 3, "seed": 2, "bots": [None, None, None]})
    created = created.json()
    table, tokens = created["id"], created["tokens"]
    hands = {}
    for seat in range(3):
        with live(server, table, tokens[str(seat)]) as view:
            name, data = view.next()
        assert name == "state" and data["seat"] == seat
        hands[seat] = data["observation"]["hand"]
        assert "hands" not in data and data["seed"] is None
    for seat, hand in hands.items():
        others = {card for other, held in hands.items() if other != seat for card in held}
        assert not others & set(hand)
    with live(server, table) as view:
        name, data = view.next()
    assert name == "state" and data["seat"] is None and "hand" not in data["observation"]
    assert data["legal_actions"] == [] and data["seed"] is None
    text = json.dumps(data)  # nothing is face up yet: no card of any hand shows
    assert data["observation"]["discard_size"] == 0 and data["observation"]["table"] == []
    assert not [card for hand in hands.values() for card in hand if f'"{card}"' in text]


def test_a_live_view_is_refused_a_bot_seat_and_a_wrong_token(server: str) -> None:
    created = post(server, "/api/tables", {"variant": "gin", "seed": 1}).json()
    url = f"{server}/api/tables/{created['id']}/events"
    assert httpx.get(url + "?seat=1", timeout=5).status_code == 403
    assert httpx.get(url, headers=bearer("not-a-token"), timeout=5).status_code == 403
    assert (
        httpx.get(url, headers=bearer(created["tokens"]["0"]) | {"x": "y"}, params={"seat": 1}, timeout=5).status_code
        == 403
    )
    assert httpx.get(f"{server}/api/tables/nope/events", timeout=5).status_code == 404


def test_a_deleted_table_ends_its_live_views_with_gone(server: str) -> None:
    created = post(server, "/api/tables", {"variant": "gin", "seed": 1}).json()
    table = created["id"]
    with live(server, table, created["tokens"]["0"]) as mine, live(server, table) as onlooker:
        assert mine.next()[0] == onlooker.next()[0] == "state"
        deleted = httpx.delete(f"{server}/api/tables/{table}", headers=bearer(created["owner"]), timeout=30)
        assert deleted.status_code == 200
        for view in (mine, onlooker):
            name, data = view.next()
            assert (name, data) == ("gone", {"error": "its creator deleted it", "reason": "dropped"})
            with pytest.raises(EOFError):
                view.next()
    assert httpx.get(f"{server}/api/tables/{table}/events", timeout=5).status_code == 410


def test_a_replays_live_view_shows_any_seat_and_follows_its_steps(server: str) -> None:
    created = post(server, "/api/tables", {"variant": "gin", "seed": 5, "bots": ["greedy", "greedy"], "max_hands": 1})
    record = httpx.get(f"{server}/api/tables/{created.json()['id']}/record", timeout=30).json()
    replay = post(server, "/api/replays", {"record": record}).json()
    with httpx.stream("GET", f"{server}/api/tables/{replay['id']}/events", params={"seat": 1}, timeout=5) as response:
        view = Stream(response)
        name, data = view.next()  # a replay shows every hand to everyone: no token needed
        assert name == "state" and data["seat"] == 1 and data["replay"]["step"] == 0 and data["observation"]["hand"]
        assert post(server, f"/api/tables/{replay['id']}/step", {"by": 3}, replay["owner"]).status_code == 200
        name, data = view.next()
        assert name == "state" and data["seat"] == 1 and data["replay"]["step"] == 3


def test_live_views_beyond_the_limit_are_refused_with_503(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_app, "MAX_LIVE", 2)
    with running(create_app(moves_per_second=None)) as base:
        created = post(base, "/api/tables", {"variant": "gin", "seed": 1}).json()
        url = f"{base}/api/tables/{created['id']}/events"
        with live(base, created["id"]) as one, live(base, created["id"], created["tokens"]["0"]) as two:
            assert one.next()[0] == two.next()[0] == "state"
            refused = httpx.get(url, timeout=5)
            assert refused.status_code == 503 and "2 live views open" in refused.json()["error"]
        # Closed views free their places (the server notices the client left).
        deadline = time.monotonic() + 10
        while True:
            with httpx.stream("GET", url, timeout=5) as response:
                if response.status_code == 200:
                    assert Stream(response).next()[0] == "state"
                    break
            assert time.monotonic() < deadline, "closed live views kept their places"
            time.sleep(0.1)


# -- rummykit serve: the tables' database ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # type: ignore[no-any-return]


@contextmanager
def serving(*options: str, lines: int = 2) -> Iterator[tuple[str, list[str], subprocess.Popen[str]]]:
    """``rummykit serve`` in a process of its own: its address, its first ``lines`` lines, and the process."""
    port = free_port()
    command = [sys.executable, "-c", "import sys; from rummykit.cli import main; sys.exit(main())"]
    process = subprocess.Popen([*command, "serve", "--port", str(port), *options], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        said = [process.stdout.readline() for _ in range(lines)]
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/api/tables", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None, f"rummykit serve did not answer: {said}"
                time.sleep(0.05)
        yield base, said, process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(20)
        if process.stdout is not None:
            process.stdout.close()


def test_serve_announces_where_it_keeps_tables_and_takes_them_up_again(tmp_path: Path) -> None:
    db = tmp_path / "kept" / "tables.sqlite3"
    db.parent.mkdir()  # a --db in a folder that does not exist is refused (test_web_server)
    with serving("--db", str(db)) as (base, said, _):
        assert said[0].startswith("rummykit serves on http://127.0.0.1:") and said[0].endswith("(Ctrl-C stops it)\n")
        assert said[1] == f"tables are kept in {db} (0 taken up again)\n"
        created = post(base, "/api/tables", {"variant": "gin", "seed": 3, "bots": [None, "greedy"]}).json()
    with serving("--db", str(db)) as (base, said, process):
        assert said[1] == f"tables are kept in {db} (1 taken up again)\n"
        token = created["tokens"]["0"]
        state = httpx.get(f"{base}/api/tables/{created['id']}", headers=bearer(token), timeout=30).json()
        assert state["observation"] == created["observation"]
        moved = post(base, f"/api/tables/{created['id']}/moves", {"action": state["legal_actions"][0]}, token)
        assert moved.status_code == 200
        acknowledged = moved.json()
        process.send_signal(signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)  # no clean stop
        process.wait(20)
    with serving("--db", str(db)) as (base, said, _):  # a killed server goes on from its last acknowledged move
        state = httpx.get(f"{base}/api/tables/{created['id']}", headers=bearer(token), timeout=30).json()
        assert state["log"] == acknowledged["log"] and state["observation"] == acknowledged["observation"]


def test_serve_in_memory_and_on_every_address_says_so(tmp_path: Path) -> None:
    with serving("--db", "none", "--host", "0.0.0.0", "--allow-host", "cards.example.org", lines=4) as (base, said, _):
        port = base.rsplit(":", 1)[1]
        assert said[0].startswith("rummykit serves on http://0.0.0.0:")
        assert said[1].startswith("warning: 0.0.0.0 lets other machines reach this server; anyone who can reach it")
        assert said[2].startswith(f"others reach it at http://cards.example.org:{port}/ : open the page there")
        assert said[3] == "tables are kept in memory only: they end with the server\n"


def test_serve_refuses_an_unusable_database_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    (tmp_path / "junk.sqlite3").write_text("not a database " * 100, encoding="utf-8")
    cases = [
        (tmp_path / "a-file" / "tables.sqlite3", f"--db {tmp_path / 'a-file' / 'tables.sqlite3'}: the folder"),
        (tmp_path, f"--db {tmp_path}: that is a folder"),  # paths refused as --save refuses them
        (tmp_path / "junk.sqlite3", f"{tmp_path / 'junk.sqlite3'}: not a tables' database"),
    ]
    for path, words in cases:
        assert main(["serve", "--port", str(free_port()), "--db", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""  # refused before the address is announced
        assert captured.err.startswith(f"rummykit: {words}") and captured.err.count("\n") == 1, captured.err


def test_serve_refuses_a_database_another_server_uses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "tables.sqlite3"
    with serving("--db", str(db)) as (base, _, _):
        assert main(["serve", "--port", str(free_port()), "--db", str(db)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"rummykit: {db}: another server is using this database\n"
        assert httpx.get(f"{base}/api/tables", timeout=10).status_code == 200  # the first goes on


def test_the_data_folder_is_the_default_database() -> None:
    from rummykit.web.app import default_db

    path = Path(default_db())
    assert path.name == "tables.sqlite3" and path.parent.name == "rummykit"
    assert str(path).startswith(os.environ["XDG_DATA_HOME"]) or sys.platform != "linux"


class FailingStorage(web_app.MemoryStorage):
    """Storage whose writes of moves fail once ``fail`` is set (a full disk, say)."""

    fail = False

    def add_move(self, table_id: str, number: int, seat: int, text: str) -> None:
        if self.fail:
            raise web_app.StorageError("disk full")
        super().add_move(table_id, number, seat, text)


def test_a_move_that_cannot_be_stored_is_shown_to_nobody() -> None:
    storage = FailingStorage()
    with running(create_app(storage=storage, moves_per_second=None)) as base:
        created = post(base, "/api/tables", {"variant": "gin", "seed": 3, "bots": [None, None]}).json()
        table, seat = created["id"], created["current_player"]
        token = created["tokens"][str(seat)]
        mine = httpx.get(f"{base}/api/tables/{table}", headers=bearer(token)).json()
        with live(base, table, token) as view, live(base, table) as onlooker:
            first = view.next()[1]
            assert onlooker.next()[0] == "state"
            storage.fail = True
            refused = post(base, f"/api/tables/{table}/moves", {"action": mine["legal_actions"][0]}, token)
            assert refused.status_code == 503 and "could not be stored (disk full)" in refused.json()["error"]
            for stream in (view, onlooker):  # the move is never sent: the view ends, saying why
                name, data = stream.next()
                assert name == "gone" and data["reason"] == "broken" and "disk full" in data["error"]
        again = httpx.get(f"{base}/api/tables/{table}", headers=bearer(token))
        assert again.status_code == 503 and "closed until the server starts again" in again.json()["error"]
        assert storage.tables()[0].moves == [] and first["version"] == mine["version"]
    # Started again on what was stored, the table is as it was before the move.
    storage.fail = False
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        after = client.get(f"/api/tables/{table}", headers=bearer(token)).json()
        assert after["observation"] == mine["observation"] and after["legal_actions"] == mine["legal_actions"]
        assert after["epoch"] != mine["epoch"]
