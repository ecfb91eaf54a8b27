"""Durable storage of rooms (SQLAlchemy 2 Core; SQLite by default, or PostgreSQL).

A room is stored as its configuration (``rooms``), its seats (``seats``: kind,
bot level, name, the SHA-256 of the seat token) and an append-only **log** of
text lines (``log``): ``#MATCH <seed>`` starts a match, every other line is an
accepted engine command (``P1 PLAY R5``, ``NEXT``). The game is rebuilt by
replaying the log: the engine is deterministic.

Every database call runs on one worker thread. The calls made during one tick
of the event loop are handed to it together (one queue item), and the thread
answers them together (one wake-up of the loop); calls queued while a
transaction is in flight are committed together in the next one (group
commit). So many rooms can store commands per second while each command is
still committed before it is acknowledged. A call whose batch fails is retried
alone, so one bad call never fails the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url

__all__ = [
    "Store",
    "StorageError",
    "RoomRow",
    "SeatRow",
    "normalize_url",
    "LoadedRoom",
    "Append",
]

log = logging.getLogger("unokit.web.store")
T = TypeVar("T")

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("variant", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON of Options.to_dict()
    Column("turn_timer", Float, nullable=True),
    Column("host", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # lobby | playing
)

seats = Table(
    "seats",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("level", String(40), nullable=True),
    Column("name", String(100), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

room_log = Table(
    "log",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ... = the room's version
    Column("text", String(300), nullable=False),
    Column("created", Float, nullable=False),
)


#: the ready check between rounds (docs/protocol.md ``ready``): the seats
#: whose people said Ready at the room version where the round ended (rows of
#: an earlier version are stale: that round is dealt)
ready = Table(
    "ready",
    metadata,
    Column("room", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, nullable=False),
)


class StorageError(Exception):
    """The database refused or failed a call; nothing was stored."""


@dataclass
class RoomRow:
    code: str
    created: float
    variant: str
    players: int
    options: dict[str, Any]
    turn_timer: float | None
    host: int
    status: str


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    name: str | None
    token_hash: str | None


@dataclass
class LoadedRoom:
    room: RoomRow
    seats: list[SeatRow]
    log: list[str]
    #: when the last log line was stored (time.time(); None: no line)
    last_at: float | None = None
    #: the seats Ready at the log's current version (the ready check)
    ready: tuple[int, ...] = ()


def normalize_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 (the driver we ship), not psycopg2."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


#: the log's INSERT per DB-API parameter style (SQLite: qmark, psycopg: format)
_LOG_INSERT = {
    style: f"INSERT INTO log (room, seq, text, created) VALUES ({', '.join([mark] * 4)})"
    for style, mark in (("qmark", "?"), ("format", "%s"), ("pyformat", "%s"))
}


@dataclass
class Append:
    """A store call that appends log lines (and maybe sets the room's status,
    after running ``extra``). The lines of every Append of a batch are written
    with one multi-row INSERT."""

    code: str
    seq: int
    texts: list[str]
    status: str | None = None
    extra: Callable[[Connection], None] | None = None

    def rows(self, now: float) -> list[dict[str, Any]]:
        return [
            {"room": self.code, "seq": self.seq + i, "text": t, "created": now}
            for i, t in enumerate(self.texts)
        ]

    def __call__(self, conn: Connection) -> None:
        self.prepare(conn)
        conn.execute(insert(room_log), self.rows(time.time()))

    def prepare(self, conn: Connection) -> None:
        if self.extra is not None:
            self.extra(conn)
        if self.status is not None:
            conn.execute(update(rooms).where(rooms.c.code == self.code).values(status=self.status))


class _Job:
    """One call: ``fn``, then its outcome, delivered to a concurrent future
    (:meth:`Store.submit`) or to an asyncio future of ``loop`` (:meth:`Store.call`)."""

    __slots__ = ("fn", "cfut", "afut", "loop", "result", "error")

    def __init__(
        self,
        fn: Callable[[Connection], Any],
        cfut: Future[Any] | None = None,
        afut: asyncio.Future[Any] | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.fn = fn
        self.cfut = cfut
        self.afut = afut
        self.loop = loop
        self.result: Any = None
        self.error: BaseException | None = None

    def start(self) -> bool:
        """False if nobody waits for it any more (cancelled before it ran)."""
        if self.cfut is not None:
            return self.cfut.set_running_or_notify_cancel()
        return self.afut is None or not self.afut.cancelled()


def _settle(jobs: list[_Job]) -> None:
    """On the event loop: give the asyncio futures of ``jobs`` their outcome."""
    for j in jobs:
        f = j.afut
        if f is None or f.done():
            continue
        if j.error is not None:
            f.set_exception(j.error)
        else:
            f.set_result(j.result)


class Store:
    """The database, used from asyncio through :meth:`call` (one worker thread)."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "FULL") -> None:
        self.url = normalize_url(url)
        u = make_url(self.url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        if self.is_sqlite and u.database and u.database != ":memory:":
            Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(self.url, pool_pre_ping=not self.is_sqlite)
        if self.is_sqlite:
            sync = sqlite_synchronous

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        self._jobs: queue.SimpleQueue[list[_Job] | None] = queue.SimpleQueue()
        self._tick: list[_Job] = []  # calls of the current event loop tick
        self._thread: threading.Thread | None = None
        self._conn: Connection | None = None
        self.commits = 0
        self.calls = 0

    # ------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Create the tables (if needed) and start the worker thread."""
        try:
            metadata.create_all(self.engine)
        except Exception:  # processes of a cluster starting together race to create them
            time.sleep(0.5)
            metadata.create_all(self.engine)
        self._thread = threading.Thread(target=self._run, name="unokit-store", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        self.engine.dispose()

    # ------------------------------------------------------------ calling

    def submit(self, fn: Callable[[Connection], T]) -> Future[T]:
        fut: Future[T] = Future()
        if self._thread is None:
            fut.set_exception(StorageError("the store is not running"))
            return fut
        self._jobs.put([_Job(fn, cfut=fut)])
        return fut

    async def call(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn(connection)`` in a committed transaction; raise StorageError on failure.

        The calls of one event loop tick go to the worker thread as one batch."""
        try:
            return await self.enqueue(fn)
        except Exception as e:
            raise self.error(e) from e

    def enqueue(self, fn: Callable[[Connection], T]) -> asyncio.Future[T]:
        """:meth:`call` without a coroutine (no task for a caller that shields
        it): the future of ``fn``'s outcome, with the database's own errors as
        raised (:meth:`error` words them)."""
        if self._thread is None:
            raise StorageError("the store is not running")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._tick.append(_Job(fn, afut=fut, loop=loop))
        if len(self._tick) == 1:
            loop.call_soon(self._flush)
        return fut

    @staticmethod
    def error(e: Exception) -> StorageError:
        """The StorageError of a failed call (the database's own errors wrapped)."""
        if isinstance(e, StorageError):
            return e
        return StorageError(f"{type(e).__name__}: {e}")

    def _flush(self) -> None:
        jobs, self._tick = self._tick, []
        if jobs:
            self._jobs.put(jobs)

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            self._conn = self.engine.connect()
        return self._conn

    def _run(self) -> None:
        stop = False
        while not stop:
            item = self._jobs.get()
            if item is None:
                break
            batch = list(item)
            while len(batch) < 500:
                try:
                    nxt = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch += nxt
            self._run_batch(batch)
            self._deliver(batch)
        if self._conn is not None:
            self._conn.close()

    def _run_batch(self, batch: list[_Job]) -> None:
        """Run ``batch`` in one transaction (each job gets its result or error)."""
        live = [j for j in batch if j.start()]
        if not live:
            return
        results: list[Any] = []
        try:
            conn = self._connection()
            rows: list[dict[str, Any]] = []
            now = time.time()
            with conn.begin():
                for j in live:
                    # a savepoint per call would cost more than the rare retry below
                    if isinstance(j.fn, Append):
                        j.fn.prepare(conn)
                        rows += j.fn.rows(now)
                        results.append(None)
                    else:
                        results.append(j.fn(conn))
                if rows:
                    sql = _LOG_INSERT.get(conn.dialect.paramstyle)
                    if sql is None:
                        conn.execute(insert(room_log), rows)
                    else:  # the hot path: no statement to compile, rows as tuples
                        conn.exec_driver_sql(
                            sql, [(r["room"], r["seq"], r["text"], r["created"]) for r in rows]
                        )
            self.commits += 1
            self.calls += len(live)
        except Exception as e:
            self._reset()
            if len(live) == 1:
                live[0].error = e
                return
            log.warning("batch of %d store calls failed (%s); retrying one by one", len(live), e)
            for j in live:
                try:
                    conn = self._connection()
                    with conn.begin():
                        j.result = j.fn(conn)
                    self.commits += 1
                    self.calls += 1
                except Exception as e1:
                    self._reset()
                    j.error = e1
            return
        for j, r in zip(live, results, strict=True):
            j.result = r

    @staticmethod
    def _deliver(batch: list[_Job]) -> None:
        """Hand the outcomes over: concurrent futures directly, asyncio futures
        with one call per event loop."""
        loops: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        for j in batch:
            if j.cfut is not None:
                if j.cfut.done():
                    continue
                if j.error is not None:
                    j.cfut.set_exception(j.error)
                else:
                    j.cfut.set_result(j.result)
            elif j.loop is not None:
                loops.setdefault(j.loop, []).append(j)
        for loop, jobs in loops.items():
            try:
                loop.call_soon_threadsafe(_settle, jobs)
            except RuntimeError:  # pragma: no cover - the loop has closed
                pass

    def _reset(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # pragma: no cover - a dead connection
                pass
            self._conn = None

    # ------------------------------------------------------------ operations

    @staticmethod
    def create_room_fn(room: RoomRow, seat_rows: list[SeatRow]) -> Callable[[Connection], None]:
        def fn(conn: Connection) -> None:
            conn.execute(
                insert(rooms).values(
                    code=room.code,
                    created=room.created,
                    variant=room.variant,
                    players=room.players,
                    options=json.dumps(room.options),
                    turn_timer=room.turn_timer,
                    host=room.host,
                    status=room.status,
                )
            )
            conn.execute(
                insert(seats),
                [
                    {
                        "room": room.code,
                        "seat": s.seat,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name,
                        "token_hash": s.token_hash,
                    }
                    for s in seat_rows
                ],
            )

        return fn

    @staticmethod
    def set_seat_fn(code: str, row: SeatRow) -> Callable[[Connection], None]:
        def fn(conn: Connection) -> None:
            conn.execute(
                update(seats)
                .where(seats.c.room == code, seats.c.seat == row.seat)
                .values(kind=row.kind, level=row.level, name=row.name, token_hash=row.token_hash)
            )

        return fn

    @staticmethod
    def load_fn(code: str) -> Callable[[Connection], LoadedRoom | None]:
        def fn(conn: Connection) -> LoadedRoom | None:
            r = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
            if r is None:
                return None
            room = RoomRow(
                code=r["code"],
                created=r["created"],
                variant=r["variant"],
                players=r["players"],
                options=json.loads(r["options"]),
                turn_timer=r["turn_timer"],
                host=r["host"],
                status=r["status"],
            )
            seat_rows = [
                SeatRow(m["seat"], m["kind"], m["level"], m["name"], m["token_hash"])
                for m in conn.execute(
                    select(seats).where(seats.c.room == code).order_by(seats.c.seat)
                ).mappings()
            ]
            lines = conn.execute(
                select(room_log.c.text, room_log.c.created)
                .where(room_log.c.room == code)
                .order_by(room_log.c.seq)
            ).all()
            texts = [t for t, _ in lines]
            ready_seats = tuple(
                s
                for (s,) in conn.execute(
                    select(ready.c.seat)
                    .where(ready.c.room == code, ready.c.version == len(texts))
                    .order_by(ready.c.seat)
                )
            )
            last_at = float(lines[-1][1]) if lines else None
            return LoadedRoom(room, seat_rows, texts, last_at, ready_seats)

        return fn

    @staticmethod
    def ready_fn(code: str, seat: int, version: int) -> Callable[[Connection], None]:
        """Note ``seat`` Ready at ``version`` (and forget the room's stale rows)."""

        def fn(conn: Connection) -> None:
            conn.execute(delete(ready).where(ready.c.room == code, ready.c.version != version))
            conn.execute(delete(ready).where(ready.c.room == code, ready.c.seat == seat))
            conn.execute(insert(ready).values(room=code, seat=seat, version=version))

        return fn

    @staticmethod
    def exists_fn(code: str) -> Callable[[Connection], bool]:
        def fn(conn: Connection) -> bool:
            return (
                conn.execute(select(rooms.c.code).where(rooms.c.code == code)).first() is not None
            )

        return fn
