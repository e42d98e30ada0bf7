"""Where the web server keeps its tables: what each was made with, its seats, and every move.

A table is rebuilt from what is stored by making its game again (same variant, house rules, names, seed,
prearranged deal) and applying its moves in order, so storage holds no game state of its own. Seat and
owner tokens are stored as SHA-256 digests only: the database alone does not let anyone play a seat.

:class:`SQLiteStorage` (the standard library's ``sqlite3``) is the default of ``rummykit serve``;
:class:`MemoryStorage` keeps nothing past the process. Another database is added by implementing
:class:`Storage`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Storage", "MemoryStorage", "SQLiteStorage", "StoredTable", "StoredSeat", "StorageError", "digest"]

SCHEMA_VERSION = 1


class StorageError(Exception):
    """Storage that cannot be opened or written (the message says which file and why)."""


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256 digest, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class StoredSeat:
    """A seat a person plays: its token's digest, the name it joined with, whether somebody joined it, and when."""

    token_digest: str
    name: str
    joined: bool = False
    joined_at: int = 0
    """How many moves had been made at the table when the seat was joined (its name is used from then on)."""
    names: tuple[tuple[int, str], ...] = ()
    """Every name the seat went by since it was joined, each with how many moves had been made when it took
    it (the join's name first, ``name`` last), so that a table taken up again reads each move under the name
    it was made under; empty when not kept (the name is then used from ``joined_at`` on)."""

    def history(self) -> tuple[tuple[int, str], ...]:
        """:attr:`names`, or where they were not kept, ``name`` from ``joined_at`` on."""
        return self.names or ((self.joined_at, self.name),)


@dataclass
class StoredTable:
    """A table as stored: ``spec`` is what its game is made from (``variant`` as the server loads it,
    ``house_rules``, ``names``, ``seed``, ``layout``, ``max_hands``, ``bots``, ``listed``), ``moves`` the texts
    of every move made at it, in order (the bots' too; not the rules' own)."""

    id: str
    spec: dict[str, Any]
    owner_digest: str
    seats: dict[int, StoredSeat] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    created: float = field(default_factory=time.time)


class Storage(ABC):
    """The interface the server stores tables through. Each method is called from worker threads, one call at
    a time per table; a method returns once what it was given is stored (a move is stored before the move is
    acknowledged to anyone)."""

    @abstractmethod
    def add_table(self, table: StoredTable) -> None:
        """Store a new table (its moves so far too)."""

    @abstractmethod
    def add_move(self, table_id: str, number: int, seat: int, text: str) -> None:
        """Store the table's move ``number`` (counting from 0), made for ``seat``."""

    @abstractmethod
    def set_seat(self, table_id: str, seat: int, stored: StoredSeat) -> None:
        """Store who holds a person seat now (a new token digest, the name it joined with)."""

    @abstractmethod
    def give_to_bot(self, table_id: str, seat: int, bot: str) -> None:
        """Store that the bot ``bot`` plays ``seat`` from now on (a person seat nobody took)."""

    @abstractmethod
    def drop(self, table_id: str, why: str) -> None:
        """Forget a table and its moves, remembering why (``dropped`` tells)."""

    @abstractmethod
    def tables(self) -> list[StoredTable]:
        """Every table kept, with its seats and moves, oldest first."""

    @abstractmethod
    def dropped(self, limit: int) -> list[tuple[str, str]]:
        """The ``limit`` tables dropped last, oldest first, with why."""

    def close(self) -> None:  # noqa: B027 - storage with nothing to release needs no close
        """Release the storage (the server calls this when it stops)."""


class MemoryStorage(Storage):
    """Tables kept in this process only: a restart loses them (tests, and ``rummykit serve --db none``)."""

    def __init__(self) -> None:
        self._tables: dict[str, StoredTable] = {}
        self._dropped: dict[str, str] = {}
        self._lock = threading.Lock()

    def add_table(self, table: StoredTable) -> None:
        with self._lock:
            self._tables[table.id] = StoredTable(
                table.id, json.loads(json.dumps(table.spec)), table.owner_digest, dict(table.seats), list(table.moves),
                table.created,
            )  # fmt: skip

    def _held(self, table_id: str) -> StoredTable:
        found = self._tables.get(table_id)
        if found is None:
            raise StorageError(f"no table {table_id} is stored")
        return found

    def add_move(self, table_id: str, number: int, seat: int, text: str) -> None:
        with self._lock:
            moves = self._held(table_id).moves
            if number != len(moves):
                raise StorageError(f"table {table_id}: move {number} stored after {len(moves)} moves")
            moves.append(text)

    def set_seat(self, table_id: str, seat: int, stored: StoredSeat) -> None:
        with self._lock:
            self._held(table_id).seats[seat] = StoredSeat(
                stored.token_digest, stored.name, stored.joined, stored.joined_at, tuple(stored.names)
            )

    def give_to_bot(self, table_id: str, seat: int, bot: str) -> None:
        with self._lock:
            held = self._held(table_id)
            held.spec["bots"][seat] = bot
            held.seats.pop(seat, None)

    def drop(self, table_id: str, why: str) -> None:
        with self._lock:
            self._tables.pop(table_id, None)
            self._dropped.pop(table_id, None)
            self._dropped[table_id] = why

    def tables(self) -> list[StoredTable]:
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: t.created)

    def dropped(self, limit: int) -> list[tuple[str, str]]:
        with self._lock:
            return list(self._dropped.items())[-limit:]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    owner_digest TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    token_digest TEXT NOT NULL,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    names TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    made REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS dropped (
    id TEXT PRIMARY KEY,
    why TEXT NOT NULL,
    at REAL NOT NULL
);
"""


@functools.lru_cache(maxsize=1)
def _columns() -> dict[str, list[str]]:
    """Each table of :data:`_SCHEMA` with its columns, in order (read from the schema made in memory)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(_SCHEMA)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: [row[1] for row in db.execute(f"PRAGMA table_info({json.dumps(t)})")] for t in tables}


_SEAT_ROW = "(table_id, seat, token_digest, name, joined, joined_at, names) VALUES (?, ?, ?, ?, ?, ?, ?)"
"""The columns of a stored seat and their places, for :func:`_seat_row`'s values."""


def _seat_row(table_id: str, seat: int, stored: StoredSeat) -> tuple[Any, ...]:
    """A seat's row of the ``seats`` table."""
    return (
        table_id, seat, stored.token_digest, stored.name, int(stored.joined), stored.joined_at, json.dumps(stored.names)
    )  # fmt: skip


def _names(text: Any) -> tuple[tuple[int, str], ...]:
    """A seat's stored names (``[[move, name], ...]``), or none where the value is not that: the seat's last
    name is then used from its join on, as in a database from before names were kept."""
    try:
        found = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return ()
    if not isinstance(found, list) or not all(
        isinstance(item, list) and len(item) == 2 and type(item[0]) is int and item[0] >= 0 and isinstance(item[1], str)
        for item in found
    ):
        return ()
    return tuple((at, name) for at, name in found)


class SQLiteStorage(Storage):
    """Tables in an SQLite database file (made, with its folder, when missing).

    Every write is its own transaction, committed before the call returns. The database is in WAL mode with
    ``synchronous=NORMAL``: a write survives the server being killed (the operating system holds it), and a
    power cut loses at most the last moves. The file is held exclusively: a second server on the same file is
    refused."""

    def __init__(self, path: str | Path, dropped_kept: int = 10_000):
        self.path = Path(path)
        self.dropped_kept = dropped_kept
        try:
            # The seeds in it give every hand: a new file and folder are the server's user's alone (SQLite
            # gives its journal files the database file's permissions).
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with contextlib.suppress(FileExistsError):  # (through a link to a file not made yet, too)
                os.close(os.open(os.path.realpath(self.path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None, timeout=1.0)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"{self.path}: cannot open the tables' database: {exc}") from None
        self._lock = threading.Lock()
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                self._db.close()
                raise StorageError(
                    f"{self.path}: the tables' database is of a newer rummykit (schema {version}, this one reads "
                    f"{SCHEMA_VERSION})"
                )
            held = [row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            # Another program's database is left exactly as it is. (A file of this schema's tables alone is a
            # tables' database, a first start's cut short among them.)
            foreign = [name for name in held if not name.startswith("sqlite_") and not self._ours(name)]
            if foreign:
                self._db.close()
                shown = ", ".join(sorted(foreign)[:5]) + (", ..." if len(foreign) > 5 else "")
                raise StorageError(
                    f"{self.path}: not a tables' database (it holds other tables: {shown}); give another file"
                )
            self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("BEGIN IMMEDIATE")  # takes the exclusive lock now, not at the first move
            # One transaction (executescript would commit each statement): a first start cut short leaves
            # nothing, or the whole schema and its version.
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            columns = [row[1] for row in self._db.execute("PRAGMA table_info(seats)")]
            if "names" not in columns:  # a file of a rummykit before names were kept: the seats gain the column
                self._db.execute("ALTER TABLE seats ADD COLUMN names TEXT NOT NULL DEFAULT '[]'")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self._db.close()
            if "locked" in str(exc):
                raise StorageError(f"{self.path}: another server is using this database") from None
            raise StorageError(f"{self.path}: cannot use the tables' database: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StorageError(f"{self.path}: not a tables' database: {exc}") from None

    def _ours(self, table: str) -> bool:
        """Whether the table ``table`` of the file is one of the schema's, with its columns (the seats' without
        ``names`` too: a file from before names were kept)."""
        expected = _columns().get(table)
        if expected is None:
            return False
        held = [row[1] for row in self._db.execute(f"PRAGMA table_info({json.dumps(table)})")]
        return held == expected or (table == "seats" and held == [c for c in expected if c != "names"])

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN")
                for sql, values in statements:
                    self._db.execute(sql, values)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StorageError(f"{self.path}: {exc}") from None

    def add_table(self, table: StoredTable) -> None:
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "INSERT INTO tables (id, spec, owner_digest, created) VALUES (?, ?, ?, ?)",
                (table.id, json.dumps(table.spec), table.owner_digest, table.created),
            )
        ]
        statements += [
            ("INSERT INTO seats " + _SEAT_ROW, _seat_row(table.id, seat, s)) for seat, s in table.seats.items()
        ]
        statements += [
            ("INSERT INTO moves (table_id, number, seat, action, made) VALUES (?, ?, ?, ?, ?)", (table.id, n, -1, m, 0))
            for n, m in enumerate(table.moves)
        ]
        self._write(statements)

    def add_move(self, table_id: str, number: int, seat: int, text: str) -> None:
        self._write(
            [
                (
                    "INSERT INTO moves (table_id, number, seat, action, made) VALUES (?, ?, ?, ?, ?)",
                    (table_id, number, seat, text, time.time()),
                )
            ]
        )

    def set_seat(self, table_id: str, seat: int, stored: StoredSeat) -> None:
        self._write([("INSERT OR REPLACE INTO seats " + _SEAT_ROW, _seat_row(table_id, seat, stored))])

    def give_to_bot(self, table_id: str, seat: int, bot: str) -> None:
        with self._lock:
            row = self._db.execute("SELECT spec FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise StorageError(f"{self.path}: no table {table_id} is stored")
        spec = json.loads(row[0])
        spec["bots"][seat] = bot
        self._write(
            [
                ("UPDATE tables SET spec = ? WHERE id = ?", (json.dumps(spec), table_id)),
                ("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat)),
            ]
        )

    def drop(self, table_id: str, why: str) -> None:
        self._write(
            [
                ("DELETE FROM tables WHERE id = ?", (table_id,)),
                ("INSERT OR REPLACE INTO dropped (id, why, at) VALUES (?, ?, ?)", (table_id, why, time.time())),
                (
                    "DELETE FROM dropped WHERE id NOT IN (SELECT id FROM dropped ORDER BY at DESC LIMIT ?)",
                    (self.dropped_kept,),
                ),
            ]
        )

    def tables(self) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute("SELECT id, spec, owner_digest, created FROM tables ORDER BY created").fetchall()
            found = {
                row[0]: StoredTable(row[0], json.loads(row[1]), row[2], created=row[3]) for row in rows
            }  # fmt: skip
            for table_id, seat, token_digest, name, joined, joined_at, names in self._db.execute(
                "SELECT table_id, seat, token_digest, name, joined, joined_at, names FROM seats"
            ):
                found[table_id].seats[seat] = StoredSeat(token_digest, name, bool(joined), joined_at, _names(names))
            for table_id, action in self._db.execute("SELECT table_id, action FROM moves ORDER BY table_id, number"):
                found[table_id].moves.append(action)
        return list(found.values())

    def dropped(self, limit: int) -> list[tuple[str, str]]:
        with self._lock:
            rows = self._db.execute("SELECT id, why FROM dropped ORDER BY at DESC LIMIT ?", (limit,)).fetchall()
        return [(row[0], row[1]) for row in reversed(rows)]

    def close(self) -> None:
        with self._lock:
            self._db.close()
