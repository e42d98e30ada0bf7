"""Where `rummykit serve` keeps its tables: the :class:`Storage` implementations on their own, a server made
again on the same SQLite file (in process), and `rummykit serve` killed (SIGKILL) while moves are under way
at 20 tables, then started again: every acknowledged move is still there and the games go on to the end."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

with warnings.catch_warnings():  # newer Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from test_web_server import call, serving  # noqa: E402

from rummykit.engine import AUTO_PREFIX  # noqa: E402
from rummykit.records import load_record, play_record  # noqa: E402
from rummykit.web.app import create_app  # noqa: E402
from rummykit.web.storage import (  # noqa: E402
    MemoryStorage,
    SQLiteStorage,
    Storage,
    StorageError,
    StoredSeat,
    StoredTable,
    digest,
)

pytestmark = pytest.mark.xdist_group("web")

SECRET_KEYS = ("owner", "tokens", "links", "token", "link")
"""What an answer holds besides the state: given once, not part of what a seat sees."""


def bare(answer: dict[str, Any]) -> dict[str, Any]:
    """The state in an answer, without the secrets given with it."""
    return {key: value for key, value in answer.items() if key not in SECRET_KEYS}


def pick(rng: random.Random, actions: list[str]) -> str:
    """A random legal action, most often one that melds or ends the hand (so that games end soon)."""
    ending = [a for a in actions if a.split()[0] in ("meld", "knock", "gin", "layoff", "go", "out")]
    if ending and rng.random() < 0.8:
        return rng.choice(ending)
    return rng.choice(actions)


# -- the storage on its own --------------------------------------------------------------------------------


@pytest.fixture(params=["memory", "sqlite"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    made: Storage = MemoryStorage() if request.param == "memory" else SQLiteStorage(tmp_path / "tables.sqlite3")
    yield made
    made.close()


def stored_table(table_id: str, created: float, moves: list[str] | None = None) -> StoredTable:
    spec = {"variant": "gin", "house_rules": [], "names": ["Ann", "Greedy bot 2"], "seed": 7, "layout": None,
            "max_hands": 1, "bots": [None, "greedy"], "listed": False}  # fmt: skip
    return StoredTable(table_id, spec, digest(f"owner of {table_id}"), {0: StoredSeat(digest("t0"), "Ann")},
                       list(moves or []), created)  # fmt: skip


def as_tuple(table: StoredTable) -> tuple[Any, ...]:
    seats = {seat: (s.token_digest, s.name, s.joined) for seat, s in table.seats.items()}
    return table.id, table.spec, table.owner_digest, seats, table.moves, table.created


def test_tables_seats_moves_and_drops_round_trip(storage: Storage) -> None:
    first, second, third = (
        stored_table("a1", 100.0, ["draw stock"]),
        stored_table("b2", 101.0),
        stored_table("c3", 99.0),
    )
    for table in (first, second, third):
        storage.add_table(table)
    first.moves.append("changed after storing")  # what was stored is a copy
    storage.add_move("a1", 1, 0, "discard 7H")
    storage.add_move("a1", 2, 1, "draw discard")
    storage.add_move("b2", 0, 0, "draw stock")
    storage.set_seat("a1", 0, StoredSeat(digest("new token"), "Annie", True))
    storage.set_seat("b2", 1, StoredSeat(digest("t1"), "Bob"))
    kept = storage.tables()
    assert [t.id for t in kept] == ["c3", "a1", "b2"]  # oldest first
    by_id = {t.id: t for t in kept}
    assert by_id["a1"].moves == ["draw stock", "discard 7H", "draw discard"]
    assert by_id["b2"].moves == ["draw stock"] and by_id["c3"].moves == []
    assert by_id["a1"].spec == first.spec and by_id["a1"].owner_digest == digest("owner of a1")
    assert by_id["a1"].created == 100.0
    assert {s: (v.token_digest, v.name, v.joined) for s, v in by_id["a1"].seats.items()} == {
        0: (digest("new token"), "Annie", True)
    }
    assert {s: (v.name, v.joined) for s, v in by_id["b2"].seats.items()} == {0: ("Ann", False), 1: ("Bob", False)}
    storage.drop("a1", "its creator deleted it")
    storage.drop("c3", "idle")
    assert [t.id for t in storage.tables()] == ["b2"]
    assert storage.dropped(10) == [("a1", "its creator deleted it"), ("c3", "idle")]
    assert storage.dropped(1) == [("c3", "idle")]
    storage.add_table(stored_table("a1", 102.0))  # a dropped id may be used again (it is random in the server)
    assert [t.id for t in storage.tables()] == ["b2", "a1"] and storage.tables()[1].moves == []


def test_a_move_stored_twice_is_refused(storage: Storage) -> None:
    storage.add_table(stored_table("a1", 1.0, ["draw stock"]))
    with pytest.raises(StorageError):
        storage.add_move("a1", 0, 0, "draw discard")
    assert storage.tables()[0].moves == ["draw stock"]


def test_memory_storage_refuses_a_move_out_of_order() -> None:
    storage = MemoryStorage()
    storage.add_table(stored_table("a1", 1.0))
    with pytest.raises(StorageError, match="move 2 stored after 0 moves"):
        storage.add_move("a1", 2, 0, "discard 7H")
    storage.add_move("a1", 0, 0, "draw stock")
    assert storage.tables()[0].moves == ["draw stock"]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_a_move_for_a_table_not_stored_is_a_storage_error(kind: str, tmp_path: Path) -> None:
    """A move made at a table deleted meanwhile (DELETE while its bots move) reaches the storage for a table it
    no longer holds: the server catches StorageError there, nothing else."""
    storage: Storage = MemoryStorage() if kind == "memory" else SQLiteStorage(tmp_path / "t.sqlite3")
    storage.add_table(stored_table("a1", 1.0))
    storage.drop("a1", "its creator deleted it")
    with pytest.raises(StorageError):
        storage.add_move("a1", 0, 0, "draw stock")
    storage.close()


def test_sqlite_reopened_holds_everything(tmp_path: Path) -> None:
    path = tmp_path / "folder made" / "tables.sqlite3"
    storage = SQLiteStorage(path)
    storage.add_table(stored_table("a1", 1.0, ["draw stock"]))
    storage.add_table(stored_table("b2", 2.0))
    storage.add_move("a1", 1, 0, "discard 7H")
    storage.set_seat("a1", 0, StoredSeat(digest("new"), "Annie", True))
    storage.drop("b2", "idle")
    before = [as_tuple(t) for t in storage.tables()]
    storage.close()
    again = SQLiteStorage(path)
    assert [as_tuple(t) for t in again.tables()] == before
    assert again.tables()[0].seats[0].joined and again.dropped(5) == [("b2", "idle")]
    again.add_move("a1", 2, 1, "draw stock")  # and goes on
    again.close()
    assert SQLiteStorage(path).tables()[0].moves == ["draw stock", "discard 7H", "draw stock"]


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    first = SQLiteStorage(path)
    first.add_table(stored_table("a1", 1.0))
    with pytest.raises(StorageError, match="another server is using this database") as refused:
        SQLiteStorage(path)
    assert str(path) in str(refused.value)
    first.add_move("a1", 0, 0, "draw stock")  # the first goes on as before
    first.close()
    assert SQLiteStorage(path).tables()[0].moves == ["draw stock"]


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes, not a database\n" * 50)
    with pytest.raises(StorageError, match="not a tables' database") as refused:
        SQLiteStorage(path)
    assert str(path) in str(refused.value)
    assert path.read_text().startswith("these are my notes")  # left as it was
    newer = tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(newer)) as db:
        db.execute("PRAGMA user_version=99")
    with pytest.raises(StorageError, match="newer rummykit") as refused:
        SQLiteStorage(newer)
    assert str(newer) in str(refused.value)


@pytest.mark.parametrize("held", [["contacts"], ["tables"]])
def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path: Path, held: list[str]) -> None:
    path = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        for name in held:
            db.execute(f"CREATE TABLE {name} (x TEXT)")
        db.commit()
    before = path.read_bytes()
    with pytest.raises(StorageError, match=r"not a tables' database \(it holds other tables: ") as refused:
        SQLiteStorage(path)
    assert str(path) in str(refused.value) and held[0] in str(refused.value)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]


def test_a_first_start_cut_short_is_finished_and_a_foreign_table_beside_ours_refused(tmp_path: Path) -> None:
    from rummykit.web import storage as storage_module

    half = tmp_path / "half.sqlite3"  # the first two of the schema's tables made, no version yet
    with closing(sqlite3.connect(half)) as db:
        for statement in storage_module._SCHEMA.split(";")[:2]:
            db.execute(statement)
        db.commit()
    SQLiteStorage(half).close()
    with closing(sqlite3.connect(half)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == storage_module.SCHEMA_VERSION
    mixed = tmp_path / "mixed.sqlite3"
    SQLiteStorage(mixed).close()
    with closing(sqlite3.connect(mixed)) as db:
        db.execute("CREATE TABLE contacts (name TEXT)")
        db.commit()
    with pytest.raises(StorageError, match=r"it holds other tables: contacts\)"):
        SQLiteStorage(mixed)


@pytest.mark.parametrize("value", ["5", "oops", "[[1]]", "[null]", '{"a": 1}', '[[-1, "x"]]', '[[true, "x"]]'])
def test_a_seats_names_that_are_no_list_of_names_are_let_be(tmp_path: Path, value: str) -> None:
    path = tmp_path / "tables.sqlite3"
    kept = SQLiteStorage(path)
    kept.add_table(stored_table("a1", 1.0))
    kept.set_seat("a1", 0, StoredSeat("digest", "Ann", True, 3, ((3, "Ann"),)))
    kept.close()
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE seats SET names = ? WHERE seat = 0", (value,))
        db.commit()
    assert SQLiteStorage(path).tables()[0].seats[0] == StoredSeat("digest", "Ann", True, 3, ())


def test_a_new_database_and_its_folder_are_the_servers_users_alone(tmp_path: Path) -> None:
    path = tmp_path / "kept" / "tables.sqlite3"
    storage = SQLiteStorage(path)
    storage.add_table(stored_table("a1", 1.0))
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert all(made.stat().st_mode & 0o077 == 0 for made in path.parent.iterdir())  # the journal files too
    storage.close()


def test_tokens_are_never_stored_in_clear(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        made = client.post(
            "/api/tables", json={"variant": "500-rum", "players": 3, "bots": [None, None, "greedy"], "seed": 3}
        )
        assert made.status_code == 201, made.text
        table = made.json()
        joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Ann"},
                             headers={"Authorization": f"Bearer {table['tokens']['0']}"})  # fmt: skip
        assert joined.status_code == 200, joined.text
        secrets_given = [table["owner"], *table["tokens"].values(), joined.json()["token"]]
        files = [p for p in tmp_path.iterdir() if p.name.startswith(path.name)]  # the WAL too, before closing
        written = b"".join(p.read_bytes() for p in files)
        for secret in secrets_given:
            assert secret.encode() not in written
        assert digest(joined.json()["token"]).encode() in written  # what is kept: the digests
    storage.close()
    written = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert not any(secret.encode() in written for secret in secrets_given)
    assert digest(table["owner"]).encode() in written


# -- a server made again on the same file (in process) ------------------------------------------------------


def states(client: TestClient, table_id: str, tokens: dict[str, str]) -> dict[str | None, dict[str, Any]]:
    """The table as each person seat (by its token) and an onlooker see it, but for its ``version`` and ``epoch``
    (which count changes since the server started, and name that start)."""
    seen: dict[str | None, dict[str, Any]] = {None: client.get(f"/api/tables/{table_id}").json()}
    for seat, token in tokens.items():
        answer = client.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        seen[seat] = answer.json()
    for state in seen.values():
        del state["version"], state["epoch"]
    return seen


def play(client: TestClient, table: dict[str, Any], tokens: dict[str, str], rng: random.Random, moves: int) -> None:
    """``moves`` random legal moves of the person seats (fewer if the game ends)."""
    for _ in range(moves):
        now = client.get(f"/api/tables/{table['id']}").json()
        if now["is_over"]:
            return
        seat = str(now["current_player"])
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = client.get(f"/api/tables/{table['id']}", headers=headers).json()
        answer = client.post(f"/api/tables/{table['id']}/moves", json={"action": pick(rng, mine["legal_actions"])},
                             headers=headers)  # fmt: skip
        assert answer.status_code == 200, answer.text


RESTARTED = [
    ({"variant": "gin", "bots": [None, "greedy"], "seed": 11, "max_hands": 1}, ["Ann"]),
    ({"variant": "500-rum", "bots": [None, None], "seed": 12, "max_hands": 1}, ["Ann", "Bob"]),
    ({"variant": "fortune", "players": 3, "bots": [None, "greedy", None], "seed": 13, "max_hands": 1}, ["Ann", None]),
]


def test_a_server_made_again_on_the_same_file_goes_on_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    rng = random.Random(5)
    storage = SQLiteStorage(path)
    made, tokens, before = [], [], []
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        for body, joins in RESTARTED:
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 201, answer.text
            table = answer.json()
            held = dict(table["tokens"])
            for seat, name in zip(sorted(held), joins):  # seats taken by name (a new token each), before any move
                if name is not None:
                    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": name},
                                         headers={"Authorization": f"Bearer {held[seat]}"})  # fmt: skip
                    assert joined.status_code == 200, joined.text
                    gone = client.get(f"/api/tables/{table['id']}", headers={"Authorization": f"Bearer {held[seat]}"})
                    assert gone.status_code == 403  # the join link's token served once
                    held[seat] = joined.json()["token"]
            play(client, table, held, rng, 6)
            made.append(table)
            tokens.append(held)
            before.append(states(client, table["id"], held))
    storage.close()

    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        for table, held, seen, (body, joins) in zip(made, tokens, before, RESTARTED):
            after = states(client, table["id"], held)
            assert after == seen  # every seat's view, the log and the join state included
            seats = sorted(held)
            for seat, name in zip(seats, joins):
                assert after[seat]["seat"] == int(seat)  # the tokens still show their seats
                if name is not None:
                    assert after[None]["names"][int(seat)] == name
            joined_seats = {int(seat) for seat, name in zip(seats, joins) if name is not None}
            assert after[None]["taken"] == [b is not None or s in joined_seats for s, b in enumerate(body["bots"])]
            play(client, table, held, rng, 2000)
            final = client.get(f"/api/tables/{table['id']}").json()
            assert final["is_over"], body
            record = client.get(f"/api/tables/{table['id']}/record")
            assert record.status_code == 200, record.text
            replayed = play_record(*load_record(record.text))
            assert list(replayed.scores) == final["scores"]
            assert [r.as_dict() for r in replayed.results] == [
                {k: v for k, v in r.items() if k not in ("lines", "words")} for r in final["results"]
            ]
    storage.close()


def test_a_join_after_moves_keeps_the_log_words_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        table = client.post("/api/tables", json={"variant": "500-rum", "bots": [None, None], "seed": 5}).json()
        held = dict(table["tokens"])
        play(client, table, held, random.Random(1), 6)
        joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Ann"},
                             headers={"Authorization": f"Bearer {held['0']}"})  # fmt: skip
        held["0"] = joined.json()["token"]
        before = states(client, table["id"], held)
    storage.close()
    storage = SQLiteStorage(path)
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        after = states(client, table["id"], held)
    storage.close()
    assert after[None]["log"] == before[None]["log"]


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_renames_keep_the_log_words_across_a_restart(tmp_path: Path, kind: str) -> None:
    # Ann joins after 4 moves, is Bea from move 8 and Cy from move 12 (twice renamed between the same moves,
    # the last name counts): a server that takes the table up again reads each move under its name.
    storage: Storage = SQLiteStorage(tmp_path / "tables.sqlite3") if kind == "sqlite" else MemoryStorage()
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        table = client.post("/api/tables", json={"variant": "500-rum", "bots": [None, None], "seed": 5}).json()
        held = dict(table["tokens"])
        rng = random.Random(1)
        play(client, table, held, rng, 4)
        for name in ("Ann", "Bea", "Zed", "Cy"):
            joined = client.post(f"/api/tables/{table['id']}/join", json={"name": name},
                                 headers={"Authorization": f"Bearer {held['0']}"})  # fmt: skip
            assert joined.status_code == 200, joined.text
            held["0"] = joined.json().get("token") or held["0"]
            if name != "Zed":
                play(client, table, held, rng, 4)
        before = states(client, table["id"], held)
    if kind == "sqlite":
        storage.close()
        storage = SQLiteStorage(tmp_path / "tables.sqlite3")
    with TestClient(create_app(storage=storage, moves_per_second=None)) as client:
        after = states(client, table["id"], held)
    storage.close()
    if kind == "sqlite":  # renames between the same two moves keep the last only: the history stays bounded
        kept = SQLiteStorage(tmp_path / "tables.sqlite3")
        (stored,) = kept.tables()
        kept.close()
        assert [name for _, name in stored.seats[0].names] == ["Ann", "Bea", "Cy"]
    log = " | ".join(str(entry) for entry in before[None]["log"])
    assert all(name in log for name in ("Ann", "Bea", "Cy")) and "Zed" not in log
    assert after[None]["log"] == before[None]["log"]


def test_a_database_from_before_names_were_kept_is_taken_up(tmp_path: Path) -> None:
    from rummykit.web import storage as storage_module

    path = tmp_path / "tables.sqlite3"
    old_schema = storage_module._SCHEMA.replace("    names TEXT NOT NULL DEFAULT '[]',\n", "")
    assert old_schema != storage_module._SCHEMA
    with closing(sqlite3.connect(path)) as db:
        db.executescript(old_schema + "PRAGMA user_version=1;")
        db.execute("INSERT INTO tables VALUES ('a1', ?, 'owner', 1.0)", (json.dumps({"variant": "gin"}),))
        db.execute("INSERT INTO seats VALUES ('a1', 0, 'digest', 'Ann', 1, 3)")
        db.commit()
    kept = SQLiteStorage(path)
    (table,) = kept.tables()
    assert table.seats[0] == StoredSeat("digest", "Ann", True, 3, ())
    kept.set_seat("a1", 0, StoredSeat("digest", "Bea", True, 3, ((3, "Ann"), (7, "Bea"))))
    kept.close()
    assert SQLiteStorage(path).tables()[0].seats[0].names == ((3, "Ann"), (7, "Bea"))


# -- `rummykit serve` killed while moves are under way ------------------------------------------------------

CRASH_TABLES: list[dict[str, Any]] = [
    {"variant": "gin", "bots": [None, "greedy"]},
    {"variant": "gin", "bots": [None, None]},
    {"variant": "500-rum", "bots": [None, "greedy", "greedy"]},
    {"variant": "500-rum", "bots": [None, None]},
    {"variant": "fortune", "bots": [None, "greedy", "greedy"]},
    {"variant": "fortune", "bots": [None, None, "greedy"]},
    {"variant": "arlington", "bots": [None, "greedy"]},
    {"variant": "arlington", "bots": [None, None]},
    {"variant": "iceberg", "bots": [None, "greedy", "greedy", "greedy"]},
    {"variant": "skarney-singles", "bots": [None, "greedy"]},
] * 2
WORKERS = 4


class Seated:
    """One table as the test plays it: its tokens, every move acknowledged (200) in order, the state the last
    acknowledgement showed (and to which seat), and a move sent whose answer never came."""

    def __init__(self, body: dict[str, Any], answer: dict[str, Any]):
        self.body = body
        self.id: str = answer["id"]
        self.tokens: dict[int, str] = {int(s): t for s, t in answer["tokens"].items()}
        self.acknowledged: list[tuple[int, str]] = []
        self.last: dict[str, Any] = bare(answer)
        self.last_seat: int = min(self.tokens)
        self.unanswered: tuple[int, str] | None = None
        self.moves = 0

    def header(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def step(port: int, table: Seated, rng: random.Random) -> bool:
    """One move at ``table`` for the seat to act, with a random legal action; False when the game is over.
    A refused move (429: too fast) is sent again after a pause. Errors of a server killed meanwhile go up."""
    state = table.last
    if state["is_over"]:
        return False
    seat = state["current_player"]
    if seat != table.last_seat:
        status, state = call(port, "GET", f"/api/tables/{table.id}", None, table.header(seat))
        assert status == 200, state
    action = pick(rng, state["legal_actions"])
    while True:
        table.unanswered = (seat, action)
        status, answer = call(port, "POST", f"/api/tables/{table.id}/moves", {"action": action}, table.header(seat))
        table.unanswered = None
        if status != 429:
            break
        time.sleep(0.2)
    assert status == 200, (table.body, action, answer)
    table.acknowledged.append((seat, action))
    table.last, table.last_seat = answer, seat
    table.moves += 1
    return True


CONNECTION_LOST = (OSError, http.client.HTTPException, ValueError)


def play_all(port: int, tables: list[Seated], seed: int, until: Callable[[], bool], cap: int) -> list[BaseException]:
    """Every table played by :data:`WORKERS` threads, each taking its tables in turn, one move each, until
    ``until()``, every game is over or has ``cap`` moves, or the connection is lost (a killed server). Returns
    the errors other than a lost connection."""
    errors: list[BaseException] = []

    def work(mine: list[Seated], rng: random.Random) -> None:
        try:
            while not until():
                moved = [step(port, table, rng) for table in mine if table.moves < cap]
                if not any(moved):
                    return
        except CONNECTION_LOST:
            return
        except BaseException as exc:  # an assertion: reported by the test's thread
            errors.append(exc)

    workers = [
        threading.Thread(target=work, args=(tables[w::WORKERS], random.Random(seed + w)), daemon=True)
        for w in range(WORKERS)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not any(worker.is_alive() for worker in workers), "a worker is stuck"
    return errors


def stored_moves(path: Path) -> dict[str, list[tuple[int, str]]]:
    """Per table, every move stored (its seat and text), read from the database itself."""
    with closing(sqlite3.connect(path)) as db:  # closed: the server takes the file for itself again
        rows = db.execute("SELECT table_id, seat, action FROM moves ORDER BY table_id, number").fetchall()
    found: dict[str, list[tuple[int, str]]] = {}
    for table_id, seat, action in rows:
        found.setdefault(table_id, []).append((seat, action))
    return found


def without_epoch(state: dict[str, Any]) -> dict[str, Any]:
    """A state but for the name of the server's run that gave it."""
    return {key: value for key, value in state.items() if key != "epoch"}


def test_a_killed_server_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    tables: list[Seated] = []
    with serving("--db", str(path)) as (process, port):
        for number, body in enumerate(CRASH_TABLES):
            body = {**body, "players": len(body["bots"]), "seed": 1000 + number, "max_hands": 1}
            status, answer = call(port, "POST", "/api/tables", body)
            assert status == 201, answer
            tables.append(Seated(body, answer))
        killed = threading.Event()

        def killer() -> None:  # while the workers' moves are under way
            deadline = time.monotonic() + 20
            while sum(t.moves for t in tables) < 120 and time.monotonic() < deadline:
                time.sleep(0.02)
            process.kill()
            killed.set()

        threading.Thread(target=killer, daemon=True).start()
        errors = play_all(port, tables, 1, killed.is_set, cap=10_000)
        assert not errors, errors
        process.wait(10)
        assert killed.is_set()
    cut_short = [t for t in tables if t.unanswered is not None]
    assert cut_short, "no move was under way when the server was killed: nothing was tested"
    assert sum(t.moves for t in tables) >= 20

    # What the database holds: every acknowledged move, in order, and at most the one move whose answer was lost.
    stored = stored_moves(path)
    extra: dict[str, bool] = {}
    for table in tables:
        people = [(seat, action) for seat, action in stored.get(table.id, []) if table.body["bots"][seat] is None]
        if table.unanswered is not None and people == [*table.acknowledged, table.unanswered]:
            extra[table.id] = True
        else:
            assert people == table.acknowledged, (table.body, people[-3:], table.acknowledged[-3:], table.unanswered)
            extra[table.id] = False

    with serving("--db", str(path)) as (process, port):
        for table in tables:
            # The game goes on from the last acknowledged move: what that answer showed, or, when the move under
            # way was stored, what follows it (its bots move on by themselves once the server is up).
            deadline = time.monotonic() + 30
            while True:
                status, now = call(port, "GET", f"/api/tables/{table.id}", None, table.header(table.last_seat))
                assert status == 200, now
                bots_turn = not now["is_over"] and table.body["bots"][now["current_player"]] is not None
                if not bots_turn or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            assert not bots_turn, table.body
            if extra[table.id]:
                assert without_epoch(now) != without_epoch(table.last)
                table.acknowledged.append(table.unanswered)  # type: ignore[arg-type]
            else:
                assert without_epoch(now) == without_epoch(table.last), table.body
            table.last = now
            table.unanswered = None
        errors = play_all(port, tables, 2, lambda: False, cap=600)
        assert not errors, errors
        finished = 0
        for table in tables:
            status, final = call(port, "GET", f"/api/tables/{table.id}")
            if not final["is_over"]:
                continue
            finished += 1
            status, record = call(port, "GET", f"/api/tables/{table.id}/record")
            assert status == 200, record
            game = play_record(*load_record(json.dumps(record)))
            assert list(game.scores) == final["scores"] and game.is_over
            played = [m for deal in record["actions"] for m in deal if not m.startswith(AUTO_PREFIX)]
            people = [m for m, seat in zip(played, moved_seats(record)) if table.body["bots"][seat] is None]
            assert people == [action for _, action in table.acknowledged], table.body
        assert finished >= len(tables) - 2, finished
        process.kill()


def moved_seats(record: dict[str, Any]) -> list[int]:
    """The seat of each move of a record (the rules' own left out), found by replaying it."""
    seats: list[int] = []
    record_, variant = load_record(json.dumps(record))
    play_record(record_, variant, on_action=lambda game, deal, seat, action: seats.append(seat))
    return seats


def test_a_seat_given_to_a_bot_is_stored(storage: Storage) -> None:
    storage.add_table(stored_table("a1", 1.0, ["draw stock"]))
    storage.give_to_bot("a1", 0, "random")
    (held,) = storage.tables()
    assert held.spec["bots"] == ["random", "greedy"] and held.seats == {} and held.moves == ["draw stock"]
    with pytest.raises(StorageError):
        storage.give_to_bot("no-such-table", 0, "random")
