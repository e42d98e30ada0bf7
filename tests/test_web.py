"""`rummykit serve`: the JSON API (Starlette's test client), 50 bot tables at once through a real server on
127.0.0.1, and the page in a real browser (Playwright driving Debian's chromium; skipped without it)."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import uvicorn  # noqa: E402

with warnings.catch_warnings():  # newer Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import rummykit  # noqa: E402
from rummykit import Game  # noqa: E402
from rummykit.cli import build_parser  # noqa: E402
from rummykit.web.app import MAX_BODY, create_app  # noqa: E402

pytestmark = pytest.mark.xdist_group("web")

DOCS = Path(__file__).resolve().parent.parent / "docs"

# 500 Rum: seat 0 draws 7C... no: draws KH, melds three sevens, lays the fourth off on its own meld.
RUM_LAYOUT = {
    "dealer": 1,
    "hands": [
        ["7H", "7S", "7D", "7C", "2C", "4D", "9S", "JH", "KC", "3S", "5D", "QD", "8H"],
        ["AS", "3C", "5C", "9D", "TH", "JC", "KD", "4S", "6H", "8S", "TC", "QS", "2H"],
    ],
    "discard": ["6C"],
    "stock": ["KH"],
}
# Fortune: seat 0 may take the whole pile with 7H 7S (the 7D lies in it).
FORTUNE_LAYOUT = {
    "dealer": 1,
    "hands": [
        ["7H", "7S", "4D", "9S", "JH", "KC", "3S", "5D", "QD", "8H", "AC"],
        ["AS", "3C", "5C", "9D", "TH", "JC", "KD", "4S", "6H", "8S", "TC"],
    ],
    "discard": ["QS", "7D"],
    "stock": ["KH"],
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(max_tables=200, moves_per_second=None)) as test_client:  # scripts play at full speed
        yield test_client


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"variant": "gin", "seed": 1, **body})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def auth(created: dict[str, Any], seat: int | None = None) -> dict[str, str]:
    """The header that shows ``seat``'s token (None: the owner's), from the table's creation answer."""
    token = created["owner"] if seat is None else created["tokens"][str(seat)]
    return {"Authorization": f"Bearer {token}"}


# -- the API --------------------------------------------------------------------------------------------


def test_a_tables_search_bot_leaves_the_collector_running() -> None:
    # Two threads decide for the tables: paused collectors could overlap for long.
    from rummykit.bots import GreedyBot, SearchBot
    from rummykit.web.app import _server_bot

    search, greedy = _server_bot("search", 1), _server_bot("greedy", 1)
    assert isinstance(search, SearchBot) and search.pause_collector is False
    assert isinstance(greedy, GreedyBot)


def test_variants_list_every_shipped_game_with_its_house_rules(client: TestClient) -> None:
    data = client.get("/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert {"gin", "500-rum", "fortune"} <= set(names)
    gin = next(v for v in data["variants"] if v["name"] == "gin")
    assert gin["min_players"] == gin["max_players"] == 2
    assert all(rule["name"] and isinstance(rule["summary"], str) for rule in gin["house_rules"])
    assert set(data["bots"]) == {"greedy", "outs", "random", "search"}


def test_a_table_shows_what_its_seat_may_see(client: TestClient) -> None:
    state = new_table(client)
    assert state["seat"] == 0 and state["bots"] == [None, "greedy"]
    view = state["observation"]
    assert len(view["hand"]) in (10, 11)
    assert state["current_player"] == 0 and state["legal_actions"]
    assert state["arrangement"]["deadwood_value"] >= 0
    assert client.get(f"/api/tables/{state['id']}?seat=1").status_code == 403  # the bot's hand is not shown
    two = new_table(client, bots=[None, None])
    other = client.get(f"/api/tables/{two['id']}?seat=1", headers=auth(two, 1)).json()
    assert other["observation"]["hand"] != two["observation"]["hand"]
    assert two["current_player"] == 1 and other["legal_actions"] and two["legal_actions"] == []  # seat 1 acts
    onlooker = client.get(f"/api/tables/{state['id']}").json()
    assert "hand" not in onlooker["observation"] and onlooker["legal_actions"] == []
    assert json.dumps(view["hand"]) not in json.dumps(onlooker)


def test_a_person_plays_a_whole_game_against_a_bot_and_the_record_replays(client: TestClient) -> None:
    state = created = new_table(client, max_hands=2)
    rng = random.Random(2)
    moves = 0
    while not state["is_over"]:
        assert state["current_player"] == 0  # the bot has moved already
        response = client.post(
            f"/api/tables/{state['id']}/moves",
            json={"seat": 0, "action": rng.choice(state["legal_actions"])},
            headers=auth(created, 0),
        )
        assert response.status_code == 200, response.text
        state = response.json()
        moves += 1
    assert moves > 10 and len(state["results"]) >= 1
    assert state["results"][0]["lines"][0].startswith("-- Deal 1 ends")
    record = client.get(f"/api/tables/{state['id']}/record").text
    assert Game.from_json(record).scores == state["scores"]


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(client: TestClient) -> None:
    state = new_table(client)
    game = client.app.state.tables.get(state["id"]).game  # type: ignore[attr-defined]
    before = game.to_json()
    url = f"/api/tables/{state['id']}/moves"
    response = client.post(url, json={"seat": 0, "action": "knock 2Z"}, headers=auth(state, 0))
    assert response.status_code == 422 and "'2Z' is not a card" in response.json()["error"]
    response = client.post(url, json={"seat": 0, "action": "discard AS"}, headers=auth(state, 0))
    assert response.status_code == 422 and "not allowed" in response.json()["error"]
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seat": 1, "action": "draw stock"}, 403, "greedy bot"),
        ({"seat": 5, "action": "draw stock"}, 400, "'seat' must be from 0 to 1"),
        ({"seat": "0", "action": "draw stock"}, 400, "'seat' must be a whole number, not text"),
        ({"seat": True, "action": "draw stock"}, 400, "'seat' must be a whole number"),
        ({"seat": 0, "action": ["draw", "stock"]}, 400, "'action' must be text, not a list"),
        ({"seat": 0}, 400, "a move is"),
        ({"action": "draw stock"}, 200, ""),  # the token says which seat moves
        ({"seat": 0, "action": "x" * 5000}, 422, "characters"),
    ],
)
def test_a_bad_move_gets_a_clear_4xx(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    state = new_table(client)
    response = client.post(f"/api/tables/{state['id']}/moves", json=body, headers=auth(state, 0))
    assert response.status_code == status, response.text
    assert words in response.json().get("error", "")


def test_a_move_for_a_seat_whose_turn_it_is_not_is_refused() -> None:
    with TestClient(create_app()) as two_people:
        state = new_table(two_people, bots=[None, None])
        acting = state["current_player"]
        response = two_people.post(
            f"/api/tables/{state['id']}/moves",
            json={"seat": 1 - acting, "action": "draw stock"},
            headers=auth(state, 1 - acting),
        )
        waiting = 1 - acting  # seats count from 0 and default names from 1: each seat is told with its name
        said = f"it is not Player {waiting + 1}'s turn (seat {waiting}): Player {acting + 1} (seat {acting}) acts"
        assert response.status_code == 409 and response.json()["error"] == said


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "/etc/passwd"}, "unknown variant"),
        ({"variant": "../variants/gin.yaml"}, "unknown variant"),
        ({"variant": 7}, "unknown variant 7"),
        ({"variant": "gin", "house_rules": ["nope"]}, "no house rule 'nope'"),
        ({"variant": "gin", "house_rules": "gin-only"}, "list of house-rule names"),
        ({"variant": "gin", "players": 3}, "'players' must be from 2 to 2"),
        ({"variant": "gin", "players": 2.5}, "whole number"),
        ({"variant": "gin", "bots": ["greedy"]}, "for each of the 2 seats"),
        ({"variant": "gin", "bots": [None, "os.system"]}, "unknown bot 'os.system'"),
        ({"variant": "gin", "bots": [None, {"x": 1}]}, 'unknown bot {"x": 1}'),
        ({"variant": "gin", "bots": [None, ["greedy"]]}, 'unknown bot ["greedy"]'),
        ({"variant": "gin", "seed": -1}, "'seed' must be from 0"),
        ({"variant": "gin", "seed": "1"}, "'seed' must be a whole number"),
        ({"variant": "gin", "layout": {"hands": [["ZZ"]]}}, "deal:"),
        ({"variant": "gin", "names": ["a" * 31, "b"]}, "'names' must be 2 names"),
    ],
)
def test_a_bad_table_gets_a_clear_400(client: TestClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]


def test_malformed_and_hostile_requests_get_clear_4xx(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    assert "no table" in client.get("/api/tables/nope").json()["error"]
    assert client.post("/api/tables/nope/moves", json={"seat": 0, "action": "pass"}).status_code == 404
    response = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "not JSON" in response.json()["error"]
    response = client.post("/api/tables", json=[1, 2])
    assert response.status_code == 400 and "JSON object" in response.json()["error"]
    as_json = {"Content-Type": "application/json"}
    response = client.post("/api/tables", content=b"[" * 100_000, headers=as_json)
    assert response.status_code == 400
    huge = json.dumps({"variant": "gin", "pad": "x" * (MAX_BODY + 1)})
    response = client.post("/api/tables", content=huge.encode(), headers=as_json)
    assert response.status_code == 413 and "over" in response.json()["error"]
    response = client.post("/api/tables", content=b'{"variant": "gin"}', headers={"Content-Type": "text/plain"})
    assert response.status_code == 415 and "Content-Type: application/json" in response.json()["error"]
    response = client.post("/api/tables", data={"variant": "gin"})  # a form, as another site's page could send
    assert response.status_code == 415
    state = new_table(client)
    assert client.get(f"/api/tables/{state['id']}?seat=9").status_code == 400
    assert client.get(f"/api/tables/{state['id']}?seat=-1").status_code == 400
    assert client.post(f"/api/tables/{state['id']}/step", json={"by": 1}).status_code == 409
    assert client.get("/api/nothing").status_code == 404
    # None of it disturbed the table.
    assert (
        client.get(f"/api/tables/{state['id']}?seat=0", headers=auth(state, 0)).json()["legal_actions"]
        == (state["legal_actions"])
    )


def test_the_table_limit_drops_finished_tables_first_then_refuses() -> None:
    with TestClient(create_app(max_tables=2)) as small:
        done = new_table(small, bots=["greedy", "greedy"], max_hands=1)
        assert done["is_over"] and done["seat"] is None
        first = new_table(small)
        second = new_table(small)  # the finished table makes room, and whoever asks for it is told why
        gone = small.get(f"/api/tables/{done['id']}")
        assert gone.status_code == 410 and "the server was full" in gone.json()["error"]
        assert small.get(f"/api/tables/{'0' * 32}").status_code == 404
        response = small.post("/api/tables", json={"variant": "gin"})
        assert response.status_code == 503 and "tables in play" in response.json()["error"]
        assert "the next in 86400 seconds" in response.json()["error"]
        assert small.delete(f"/api/tables/{first['id']}").status_code == 403  # only its creator deletes it
        assert small.delete(f"/api/tables/{first['id']}", headers=auth(first)).status_code == 200
        assert new_table(small)["id"] not in (first["id"], second["id"])


def test_idle_tables_expire_after_the_documented_time() -> None:
    now = [1000.0]
    app = create_app(max_tables=2, idle_seconds=600)
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as small:
        old, kept = new_table(small), new_table(small)
        now[0] += 400
        assert small.get(f"/api/tables/{kept['id']}").status_code == 200  # a request keeps a table alive
        assert small.post("/api/tables", json={"variant": "gin"}).status_code == 503  # both still in play
        now[0] += 201
        assert small.get("/api/tables").json()["tables"] == 1  # the idle one is not counted, asked first
        gone = small.get(f"/api/tables/{old['id']}")
        assert gone.status_code == 410 and "no request used it for 600 seconds" in gone.json()["error"]
        assert new_table(small)["id"] and small.get(f"/api/tables/{kept['id']}").status_code == 200


def test_a_record_replays_step_by_step(client: TestClient) -> None:
    played = new_table(client, bots=["greedy", "greedy"], max_hands=1)
    record = client.get(f"/api/tables/{played['id']}/record").json()
    response = client.post("/api/replays", json={"record": record})
    assert response.status_code == 201, response.text
    replay = response.json()
    total = replay["replay"]["total"]
    assert replay["replay"]["step"] == 0 and total > 10 and len(replay["hands"][0]) == 10
    url = f"/api/tables/{replay['id']}/step"
    assert client.post(url, json={"by": 3}).status_code == 403  # only its creator steps it
    owner = auth(replay)
    assert client.post(url, json={"by": 3}, headers=owner).json()["replay"]["step"] == 3
    assert client.post(url, json={"by": -1}, headers=owner).json()["replay"]["step"] == 2
    end = client.post(url, json={"to": total}, headers=owner).json()
    assert end["is_over"] and end["scores"] == played["scores"] and end["results"][0]["lines"]
    assert client.post(url, json={"to": total + 1}, headers=owner).status_code == 400
    assert client.post(url, json={"by": 1, "to": 1}, headers=owner).status_code == 400
    moves = client.post(f"/api/tables/{replay['id']}/moves", json={"seat": 0, "action": "pass"})
    assert moves.status_code == 409
    # A record naming a file, or a plugin, is not loaded.
    assert client.post("/api/replays", json={"record": {**record, "variant": "/tmp/x.yaml"}}).status_code == 400
    response = client.post("/api/replays", json={"record": {**record, "plugins": ["/tmp/evil.py"]}})
    assert response.status_code == 400 and "evil.py" in response.json()["error"]
    assert client.post("/api/replays", json={"record": "{"}).status_code == 400
    # A record of a variant loaded by an alias replays too.
    aliased = rummykit.load_variant("gin-rummy").new_game(seed=3, max_hands=1)
    while not aliased.is_over:
        aliased.apply(aliased.legal_actions()[0])
    assert json.loads(aliased.to_json())["variant"] == "gin-rummy"
    assert client.post("/api/replays", json={"record": aliased.to_json()}).status_code == 201
    assert new_table(client, variant="gin-rummy")["variant"] == "gin"
    assert client.post("/api/replays", json={"record": {**record, "scores": [1, 2]}}).status_code == 400


def test_500_rum_meld_and_layoff_with_wild_cards_shown(client: TestClient) -> None:
    state = new_table(client, variant="500-rum", layout=RUM_LAYOUT)
    url = f"/api/tables/{state['id']}/moves"
    for text in ("draw stock", "meld 7H 7S 7D", "layoff 7C on 0"):
        response = client.post(url, json={"seat": 0, "action": text}, headers=auth(state, 0))
        assert response.status_code == 200, response.text
    meld = response.json()["observation"]["table"][0]
    assert sorted(meld["cards"]) == ["7C", "7D", "7H", "7S"] and meld["owner"] == 0
    assert meld["played_by"] == [0, 0, 0, 0]


def test_fortune_takes_the_whole_pile(client: TestClient) -> None:
    state = new_table(client, variant="fortune", layout=FORTUNE_LAYOUT)
    assert "take pile with 7H 7S" in state["legal_actions"]
    response = client.post(
        f"/api/tables/{state['id']}/moves", json={"seat": 0, "action": "take pile with 7H 7S"}, headers=auth(state, 0)
    )
    assert response.status_code == 200, response.text
    assert "QS" in response.json()["observation"]["hand"]


def test_serve_is_a_subcommand_bound_to_this_machine_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    args = build_parser().parse_args(["serve", "--port", "9001", "--host", "0.0.0.0"])
    assert (args.host, args.port) == ("0.0.0.0", 9001)


def test_rummykit_serve_on_a_port_in_use_says_so_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["serve", "--port", str(taken.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummykit: cannot listen on 127.0.0.1 port") and err.count("\n") == 1
    assert main(["serve", "--port", "1", "--host", "no-such-host.invalid"]) == 2


def test_a_ruleset_file_and_plugin_from_the_command_line_are_offered_and_played() -> None:
    toy = Path(__file__).resolve().parent / "toy"
    app = create_app(rulesets=[str(toy / "toy.yaml")], plugins=[str(toy / "toy_rummy.py")], moves_per_second=None)
    with TestClient(app) as toy_client:
        names = [v["name"] for v in toy_client.get("/api/variants").json()["variants"]]
        assert "toy-rummy" in names and "gin" in names
        assert toy_client.post("/api/tables", json={"variant": str(toy / "toy.yaml")}).status_code == 400
        state = created = new_table(toy_client, variant="toy-rummy", players=3, bots=[None, "greedy", "random"])
        rng = random.Random(4)
        while not state["is_over"]:
            response = toy_client.post(
                f"/api/tables/{state['id']}/moves",
                json={"seat": 0, "action": rng.choice(state["legal_actions"])},
                headers=auth(created, 0),
            )
            assert response.status_code == 200, response.text
            state = response.json()
        record = toy_client.get(f"/api/tables/{state['id']}/record").text
        assert Game.from_json(record, plugins=[toy / "toy_rummy.py"]).scores == state["scores"]
        replay = toy_client.post("/api/replays", json={"record": record})
        assert replay.status_code == 201, replay.text  # the plugin given on the command line is the record's


def test_rummykit_serve_prints_its_address_and_serves() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "import sys; from rummykit.cli import main; sys.exit(main())"]
    process = subprocess.Popen([*command, "serve", "--port", str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith(f"rummykit serves on http://127.0.0.1:{port}/"), line
        deadline = time.monotonic() + 30
        while True:
            try:
                with urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=10) as response:
                    assert "gin" in [v["name"] for v in json.loads(response.read())["variants"]]
                with urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
                    assert b"app.js" in response.read()
                rebound = Request(f"http://127.0.0.1:{port}/api/variants", headers={"Host": f"evil.example:{port}"})
                with pytest.raises(HTTPError) as refused:
                    urlopen(rebound, timeout=10)
                assert refused.value.code == 400  # a page of another site, renamed to 127.0.0.1
                break
            except OSError:
                assert time.monotonic() < deadline, "rummykit serve did not answer"
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(20)


# -- a real server ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(create_app(max_tables=200, moves_per_second=None)) as base:
        yield base


@contextmanager
def running(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 in a thread, at the address it yields."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = Request(base + path, data=data, method=method, headers=headers)
    try:
        with urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.timeout(600)
def test_50_bot_tables_at_once_through_http(server: str) -> None:
    """Each of 50 threads plays a table through the HTTP API: a random player in seat 0 (its moves sent one by
    one), a greedy bot in seat 1; every game ends, and its record replays to the same scores."""

    def play(number: int) -> tuple[list[int], str]:
        status, state = call(server, "POST", "/api/tables", {"variant": "gin", "seed": number, "max_hands": 2,
                                                             "bots": [None, "greedy"]})  # fmt: skip
        assert status == 201, state
        rng = random.Random(number)
        token = state["tokens"]["0"]
        while not state["is_over"]:
            status, state = call(server, "POST", f"/api/tables/{state['id']}/moves",
                                 {"seat": 0, "action": rng.choice(state["legal_actions"])}, token)  # fmt: skip
            assert status == 200, state
        with urlopen(f"{server}/api/tables/{state['id']}/record", timeout=60) as response:
            return state["scores"], response.read().decode()

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=50) as pool:
        games = list(pool.map(play, range(50)))
    assert time.monotonic() - started < 540
    for scores, record in games:
        replayed = Game.from_json(record)
        assert replayed.is_over and replayed.scores == scores


# -- the page in a real browser -----------------------------------------------------------------------------


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 820})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("request", lambda request: errors.append(request.url) if not request.url.startswith(server) else None)
    opened.set_default_timeout(20_000)
    yield opened
    context.close()
    assert errors == []  # no script error, nothing fetched from anywhere else


def open_table(page: Any, server: str, body: dict[str, Any]) -> None:
    """Create the table through the API (for a layout), then open it in the page by its address."""
    status, state = call(server, "POST", "/api/tables", body)
    assert status == 201, state
    seats = "".join(f"&seat{seat}={token}" for seat, token in state["tokens"].items())
    page.goto(f"{server}/#t={state['id']}&owner={state['owner']}{seats}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#hand .card")


def screenshot(page: Any, name: str) -> None:
    if os.environ.get("RUMMYKIT_SCREENSHOTS"):
        page.screenshot(path=str(DOCS / "images" / name))


def test_browser_plays_a_whole_gin_hand_to_the_settlement(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "gin")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() in (10, 11)
    assert page.locator("#hand .card.red").count() + page.locator("#hand .card:not(.red)").count() >= 10
    for click in range(200):
        if click == 12:
            screenshot(page, "web-gin.png")
        if page.locator("#settlement").is_visible():
            break
        buttons = page.locator("#actions button")
        texts = buttons.all_inner_texts()
        ender = next((t for t in texts if t.startswith(("gin", "knock"))), None)
        choice = ender or next((t for t in texts if t.startswith("discard")), None) or texts[-1]
        page.click(f"#actions button[data-action='{choice}']")
        page.wait_for_selector("body:not([data-busy])", state="attached")
        assert not page.locator("#error").is_visible(), page.inner_text("#error")
    assert page.locator("#settlement").is_visible()
    screenshot(page, "web-gin-settlement.png")
    lines = page.inner_text("#settlement-lines")
    assert "Deal 1 ends" in lines and "Scores:" in lines
    # A reload shows the settlement again until Next deal is pressed, and not after.
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#settlement:not([hidden])")
    assert page.inner_text("#settlement-lines") == lines
    page.click("#next-deal")
    assert not page.locator("#settlement").is_visible()
    assert page.locator("#scores tr").count() >= 3  # header, hand 1, total
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#hand .card")
    assert not page.locator("#settlement").is_visible()


def test_browser_500_rum_meld_by_selecting_cards_then_layoff(page: Any, server: str) -> None:
    open_table(page, server, {"variant": "500-rum", "layout": RUM_LAYOUT, "seed": 1})
    page.click("#actions button[data-action='draw stock']")
    page.wait_for_selector("#meld:not([hidden])")
    for card in ("7H", "7S", "7D"):
        page.click(f"#hand .card[data-card='{card}']")
    page.click("#meld")
    page.wait_for_selector("#melds .table-meld[data-meld='0']")
    assert page.locator("#melds .table-meld[data-meld='0'] .card").count() == 3
    page.click("#actions button[data-action='layoff 7C on 0']")
    page.wait_for_function("() => document.querySelectorAll(\"#melds .table-meld[data-meld='0'] .card\").length == 4")
    assert page.locator("#hand .card[data-card='7C']").count() == 0
    screenshot(page, "web-500-rum.png")


def test_browser_fortune_takes_the_pile(page: Any, server: str) -> None:
    open_table(page, server, {"variant": "fortune", "layout": FORTUNE_LAYOUT, "seed": 1})
    # Fortune squares its pile: only the top card shows, and the count.
    assert (
        page.locator("#discard-pile .card").all()
        and page.locator("#discard-pile .card").get_attribute("data-card") == "7D"
    )
    assert "Discard pile: 2" in page.inner_text("#discard-pile")
    page.click("#actions button[data-action='take pile with 7H 7S']")
    page.wait_for_selector("#hand .card[data-card='QS']")
    assert page.locator("#discard-pile .card").count() == 0


def test_browser_shows_why_an_illegal_click_is_refused(page: Any, server: str) -> None:
    open_table(page, server, {"variant": "500-rum", "layout": RUM_LAYOUT, "seed": 1})
    page.click("#actions button[data-action='draw stock']")
    page.wait_for_selector("#meld:not([hidden])")
    for card in ("7H", "2C", "KC"):
        page.click(f"#hand .card[data-card='{card}']")
    page.click("#meld")
    page.wait_for_selector("#error:not([hidden])")
    assert "Refused" in page.inner_text("#error") and "not allowed" in page.inner_text("#error")
    assert page.locator("#melds .table-meld").count() == 0
    assert page.locator("#hand .card").count() == 14


def test_browser_shows_what_a_wild_card_stands_for(page: Any, server: str) -> None:
    layout = {**RUM_LAYOUT, "hands": [["7H", "7S", "JK", "AH", *RUM_LAYOUT["hands"][0][4:]], RUM_LAYOUT["hands"][1]]}
    open_table(page, server, {"variant": "500-rum", "house_rules": ["one-joker"], "layout": layout, "seed": 1})
    page.click("#actions button[data-action='draw stock']")
    page.wait_for_selector("#meld:not([hidden])")
    for card in ("7H", "7S", "JK"):
        page.click(f"#hand .card[data-card='{card}']")
    page.click("#meld")  # the page sends the legal meld of these cards: meld 7H 7S JK=7C
    page.wait_for_selector("#melds .table-meld[data-meld='0'] .card.wild")
    assert page.inner_text("#melds .table-meld[data-meld='0'] .card.wild .means") == "= 7♣"


def test_browser_keeps_the_cards_selected_when_a_move_answers_after_the_live_view(page: Any, server: str) -> None:
    # The live view may show the drawn card before the draw's own answer arrives; cards selected in between
    # stay selected when that answer comes (it holds the same hand).
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        if held:
            route.fallback()
        else:
            held.append((route, route.fetch()))  # the server makes the move now; the page hears of it later

    layout = {**RUM_LAYOUT, "hands": [["7H", "7S", "JK", "AH", *RUM_LAYOUT["hands"][0][4:]], RUM_LAYOUT["hands"][1]]}
    open_table(page, server, {"variant": "500-rum", "house_rules": ["one-joker"], "layout": layout, "seed": 1})
    page.route("**/moves", hold)
    page.click("#actions button[data-action='draw stock']")
    page.wait_for_selector("#meld:not([hidden])")  # from the live view: the draw's answer is held
    for card in ("7H", "7S"):
        page.click(f"#hand .card[data-card='{card}']")
    assert len(held) == 1
    route, response = held[0]
    route.fulfill(response=response)
    page.wait_for_timeout(500)  # the page takes the answer (it shows nothing new when it is right)
    assert page.locator("#hand .card.selected").count() == 2
    before = page.locator("#hand .card").count()
    page.click("#hand .card[data-card='JK']")
    page.click("#meld")
    page.wait_for_selector("#melds .table-meld[data-meld='0'] .card.wild")
    assert page.locator("#hand .card").count() == before - 3


@pytest.mark.parametrize("variant", ["gin", "oklahoma-gin", "gin-3", "gin-partnership", "500-rum", "500-partnership",
                                     "persian", "fortune", "arlington"])  # fmt: skip
def test_every_variant_plays_a_hand_through_the_api(client: TestClient, variant: str) -> None:
    info = next(v for v in client.get("/api/variants").json()["variants"] if v["name"] == variant)
    players = info["max_players"]
    state = created = new_table(
        client, variant=variant, players=players, max_hands=1, bots=[None] + ["greedy"] * (players - 1)
    )
    rng = random.Random(3)
    while not state["is_over"]:
        assert state["legal_actions"], state
        text = rng.choice(state["legal_actions"])
        response = client.post(
            f"/api/tables/{state['id']}/moves", json={"seat": 0, "action": text}, headers=auth(created, 0)
        )
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["results"][0]["lines"] and len(state["scores"]) == players
    if variant.endswith("partnership"):
        assert [side["seats"] for side in state["sides"]] == [[0, 2], [1, 3]]
        assert sum(side["score"] for side in state["sides"]) == sum(state["scores"])
    record = client.get(f"/api/tables/{state['id']}/record").text
    assert Game.from_json(record).scores == state["scores"]


def test_browser_replays_a_saved_record_step_by_step(page: Any, server: str) -> None:
    status, played = call(server, "POST", "/api/tables", {"variant": "gin", "seed": 9, "max_hands": 1,
                                                         "bots": ["greedy", "greedy"]})  # fmt: skip
    assert status == 201 and played["is_over"]
    with urlopen(f"{server}/api/tables/{played['id']}/record", timeout=60) as response:
        record = response.read().decode()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#record-text", record)
    page.click("#replay")
    page.wait_for_selector("#replay-controls:not([hidden])")
    assert page.inner_text("#replay-step").startswith("move 0 of ")
    assert page.locator("#opponents .seat").nth(0).locator(".card").count() == 10  # every hand face up
    for _ in range(3):
        page.click("#replay-forward")
        page.wait_for_selector("body:not([data-busy])", state="attached")
    page.click("#replay-back")
    page.wait_for_selector("body:not([data-busy])", state="attached")
    assert page.inner_text("#replay-step").startswith("move 2 of ")
    assert page.locator("#log li").count() == 2
    page.click("#replay-end")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")


def test_browser_partnership_table_with_two_people_at_one_screen(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#variant", "500-partnership")
    page.select_option("#seat-2", "")  # seats 1 and 3 are people, 2 and 4 greedy bots
    page.check("#one-screen")  # both at this screen, in turn
    page.fill("#seed", "4")
    page.click("#start")
    page.wait_for_selector("#hand .card")
    assert page.locator("#opponents .seat").count() == 3
    assert "Player 1 & Player 3: 0" in page.inner_text("#sides")
    seen = set()
    for _ in range(20):
        seen.add(page.inner_text("#status"))
        texts = page.locator("#actions button").all_inner_texts()
        # Draw from the stock (a pile card must be used at once, in a meld built by hand), then discard.
        choice = "draw stock" if "draw stock" in texts else next(t for t in texts if t.startswith("discard"))
        page.click(f"#actions button[data-action='{choice}']")
        page.wait_for_selector("body:not([data-busy])", state="attached")
        if page.locator("#settlement").is_visible():
            page.click("#next-deal")
    assert page.locator("#error").is_hidden()
    assert any("Player 3" in line for line in seen)  # the screen passed to the other person


def test_browser_toy_game_offers_and_cards_set_aside(browser: Any) -> None:
    """The toy game (a ruleset file and a plugin from the command line): a turn ends with an offer the others
    answer, and aces are set aside face up by the rules."""
    toy = Path(__file__).resolve().parent / "toy"
    app = create_app(rulesets=[str(toy / "toy.yaml")], plugins=[str(toy / "toy_rummy.py")])
    with running(app) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 820})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(20_000)
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#variant", "toy-rummy")
        page.fill("#players", "3")
        page.dispatch_event("#players", "change")
        page.select_option("#seat-1", "")  # two people: each answers the other's offer
        page.fill("#seed", "2")
        page.click("#start")
        page.wait_for_selector("#hand .card")
        seen_offer = False
        for _ in range(40):
            seen_offer = seen_offer or page.locator("#offer").count() > 0
            texts = page.locator("#actions button").all_inner_texts()
            if not texts or page.locator("#settlement").is_visible():
                break
            choice = next((t for t in texts if t in ("draw stock", "decline")), None)
            choice = choice or next((t for t in texts if t.startswith(("offer", "discard"))), texts[-1])
            page.click(f"#actions button[data-action='{choice}']")
            page.wait_for_selector("body:not([data-busy])", state="attached")
        assert seen_offer
        context.close()
        assert errors == []
