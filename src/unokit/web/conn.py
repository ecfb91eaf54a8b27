"""A WebSocket client of a room: its seat (or spectator), its outgoing queue
and writer, its rate limit (docs/protocol.md). What it is sent is made by the
room's views (:mod:`unokit.web.views`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from unokit.web.views import DUMPS

if TYPE_CHECKING:
    from unokit.web.config import Settings
    from unokit.web.room import Room

__all__ = ["Conn", "Socket"]

log = logging.getLogger("unokit.web.room")


class Socket(Protocol):
    """What a connection needs of a Starlette WebSocket."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Conn:
    """One WebSocket client of a room: a seat (or spectator) and an outgoing queue.

    A message to a client whose writer is idle (nothing queued, nothing in
    flight) is sent at once: the socket's send usually completes without
    waiting, and then no task has to wake up for it. A send that must wait
    (the client does not read: flow control) is finished by the connection's
    writer task, which also sends everything queued behind it, so a slow
    client never holds up a room. Queued ``state`` messages are coalesced: a
    queued state is built when it is sent, from the room's latest state."""

    def __init__(self, ws: Socket, room: Room, settings: Settings) -> None:
        self.ws = ws
        self.room = room
        self.settings = settings
        self.host = "?"  # the client's address (per-address rate limit)
        self.seat: int | None = None
        self.bound = False
        self.spectator = False
        # incremental updates (hello "deltas": true): what this client holds
        self.deltas = False
        self.sent_version: int | None = None  # None: send a full snapshot next
        self.sent_info: tuple[Any, ...] = ()
        self.acks: dict[int, int] = {}  # version -> id of this client's command stored there
        self.outbox: deque[str | None] = deque()  # None: "send the current state"
        self.wake = asyncio.Event()
        self.state_queued = False
        self.closed = False
        self.writer: asyncio.Task[None] | None = None
        # the writer waits with nothing queued: send at once (see the class doc)
        self.idle = False
        # a send begun at once that has to wait: (its coroutine, what it waits for)
        self.stalled: tuple[Coroutine[Any, Any, None], Any] | None = None
        # rate limit: token bucket
        self.tokens = float(settings.burst)
        self.refill_at = time.monotonic()
        self.dropped = 0
        self.last_rate_error = 0.0

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write_loop())

    def allow(self) -> bool:
        """Take one token of the bucket; False when the client is over its rate."""
        now = time.monotonic()
        s = self.settings
        self.tokens = min(float(s.burst), self.tokens + (now - self.refill_at) * s.rate)
        self.refill_at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    def send(self, message: dict[str, Any]) -> None:
        self._queue(DUMPS(message))

    def resync(self) -> None:
        """The client asks for a full snapshot (it missed a version)."""
        self.sent_version = None
        self.send_state()

    def send_state(self) -> None:
        if not self.state_queued:
            self.state_queued = True
            self._queue(None)

    def _queue(self, item: str | None) -> None:
        if self.closed:
            return
        if self.idle:
            self._send_now(item)
            return
        self.outbox.append(item)
        if len(self.outbox) > self.settings.max_outbox:
            log.info("closing a connection of room %s that does not keep up", self.room.code)
            self.outbox.clear()
            self.closed = True
            asyncio.get_running_loop().create_task(self._close(1013, "too slow"))
        self.wake.set()

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def close(self, code: int, reason: str) -> None:
        self.closed = True
        await self._close(code, reason)

    def _send_now(self, item: str | None) -> None:
        """Send ``item`` (None: the update to the room's current state) at once;
        a send that has to wait goes to the writer with the rest behind it."""
        if item is None:
            self.state_queued = False
            texts = self.room.update_texts(self)
        else:
            texts = [item]
        try_send = getattr(self.ws, "try_send", None)
        for i, text in enumerate(texts):
            if try_send is not None:
                try:
                    if try_send(text):
                        continue  # written to the transport at once (unokit.web.direct)
                except Exception:  # the socket went away; the reader will notice
                    self.closed = True
                    return
            coro = self.ws.send_text(text)
            try:
                waits_for = coro.send(None)
            except StopIteration:
                continue  # sent
            except Exception:  # the socket went away; the reader will notice
                self.closed = True
                return
            self.idle = False
            self.stalled = (coro, waits_for)
            self.outbox.extend(texts[i + 1 :])
            self.wake.set()
            return

    async def _write_loop(self) -> None:
        try:
            while not self.closed:
                if not self.outbox and self.stalled is None:
                    self.idle = True
                    await self.wake.wait()
                    self.wake.clear()
                    continue
                self.idle = False
                if self.stalled is not None:
                    coro, waits_for = self.stalled
                    self.stalled = None
                    await _finish(coro, waits_for)
                while self.outbox and not self.closed:
                    item = self.outbox.popleft()
                    if item is None:
                        self.state_queued = False
                        for text in self.room.update_texts(self):
                            await self.ws.send_text(text)
                        continue
                    await self.ws.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the reader will notice
            self.closed = True


async def _finish(coro: Coroutine[Any, Any, None], waits_for: Any) -> None:
    """Run a coroutine that was begun outside a task (``coro.send(None)``) and
    suspended on ``waits_for`` (a future, or None for a bare yield) to its end,
    as a task would: wait until what it waits for is done, then resume it (it
    reads the outcome itself). Cancelled meanwhile, the coroutine is closed."""
    loop = asyncio.get_running_loop()

    def wake(ready: asyncio.Future[None], _: Any) -> None:
        if not ready.done():
            ready.set_result(None)

    try:
        while True:
            if waits_for is None:
                await asyncio.sleep(0)
            else:
                ready: asyncio.Future[None] = loop.create_future()
                waits_for.add_done_callback(functools.partial(wake, ready))
                await ready
            waits_for = coro.send(None)
    except StopIteration:
        return
    except BaseException:
        coro.close()  # cancelled while it waits: the send is given up
        raise
