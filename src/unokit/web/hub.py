"""The hub: all rooms of a server process, loaded lazily from the store,
created, unloaded when idle (:class:`~unokit.web.cluster.ClusterHub`: only the
rooms this process holds a lease of)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING

from unokit.engine.errors import UnoError
from unokit.engine.options import Options
from unokit.web.botpool import WorkerPool
from unokit.web.room import BOT_NAMES, ROOM_CODE_RE, Room, hash_token, new_room_code
from unokit.web.store import LoadedRoom, RoomRow, SeatRow, StorageError, Store

if TYPE_CHECKING:
    from unokit.web.botbroker import BrokerBots
    from unokit.web.config import Settings

__all__ = ["Hub"]

log = logging.getLogger("unokit.web.room")


class Hub:
    """All rooms of the server: loaded lazily from the store, created, joined."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        #: the worker processes bots decide in (None: in the event loop)
        self.bots: WorkerPool | BrokerBots | None = None
        if settings.bot_workers > 0:
            self.bots = WorkerPool(
                settings.bot_workers,
                queue_limit=settings.bot_queue_limit,
                hang_timeout=settings.bot_hang,
                imports=settings.bot_imports,
            )
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def get(self, code: str) -> Room | None:
        """The room ``code`` (loaded from the database if needed), or None."""
        if not ROOM_CODE_RE.match(code):
            return None
        room = self.rooms.get(code)
        if room is not None:
            return room
        pending = self._loading.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = fut
        try:
            loaded = await self.store.call(Store.load_fn(code))
            room = None
            if loaded is not None:
                try:
                    room = Room(self, loaded)
                except (UnoError, StorageError, ValueError) as e:
                    log.error("room %s cannot be rebuilt: %s", code, e)
                    raise StorageError(f"room {code} cannot be rebuilt: {e}") from e
                self.rooms[code] = room
                room._schedule()
            fut.set_result(room)
            return room
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[code]

    def evict(self, room: Room) -> None:
        room.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    async def create(
        self,
        variant: str,
        seat_specs: list[tuple[str, str | None]],
        options: Options,
        turn_timer: float | None,
        name: str,
        host: int | None = None,
    ) -> tuple[Room, int, str]:
        """A new room; the creator takes seat ``host`` (default: the first human
        seat). Returns (room, seat, token)."""
        if host is None:
            host = next(i for i, (kind, _) in enumerate(seat_specs) if kind == "human")
        token = secrets.token_urlsafe(32)
        rows = []
        for i, (kind, level) in enumerate(seat_specs):
            if kind == "bot":
                rows.append(SeatRow(i, "bot", level, BOT_NAMES[i], None))
            elif i == host:
                rows.append(SeatRow(i, "human", None, name, hash_token(token)))
            else:
                rows.append(SeatRow(i, "human", None, None, None))
        full = all(r.kind == "bot" or r.token_hash for r in rows)
        for _ in range(5):
            code = new_room_code()
            if code in self.rooms:
                continue
            row = RoomRow(
                code=code,
                created=time.time(),
                variant=variant,
                players=len(rows),
                options=options.to_dict(),
                turn_timer=turn_timer,
                host=host,
                status="lobby",
            )
            try:
                await self.store.call(Store.create_room_fn(row, rows))
            except StorageError:
                if await self.store.call(Store.exists_fn(code)):
                    continue  # a code collision: draw another
                raise
            break
        else:  # pragma: no cover - 2^50 codes
            raise StorageError("could not find a free room code")
        room = Room(self, LoadedRoom(row, rows, []))
        self.rooms[code] = room
        if full:
            async with room.lock:
                await room._start_match()
        return room, host, token

    def public_rooms(self) -> list[Room]:
        """The public rooms in memory that have a free seat, fullest first."""
        rooms = [r for r in self.rooms.values() if r.public and not r.closed and r.free_seats()]
        return sorted(rooms, key=lambda r: (r.free_seats(), r.code))

    def sweep(self) -> None:
        """Unload rooms nobody has watched for a while (they reload on demand)."""
        limit = self.settings.idle_unload
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if (
                not room.conns
                and now - room.idle_since > limit
                and not room.lock.locked()
                and (room.bot_task is None or room.bot_task.done())
            ):
                self.evict(room)

    def close(self) -> None:
        for room in list(self.rooms.values()):
            room.close()
        self.rooms.clear()
