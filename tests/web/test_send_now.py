"""Messages to an idle connection are sent at once (no writer task wakes up);
a send that has to wait (flow control: a client that does not read) is finished
by the connection's writer, with what was queued behind it, in order; other
connections of the room are not held up (issue 13, CPU per move)."""

from __future__ import annotations

import asyncio
from typing import Any

from unokit.web.config import Settings
from unokit.web.conn import Conn


class Socket:
    """A socket whose sends complete at once unless ``paused`` (then they wait
    for ``resume``, as uvicorn's send waits while the transport is paused)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.paused = False
        self.writable = asyncio.Event()
        self.writable.set()
        self.waits = 0

    async def send_text(self, data: str) -> None:
        if self.paused:
            self.writable.clear()
            self.waits += 1
            await self.writable.wait()
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


class Room:
    code = "test"


def make_conn(ws: Socket) -> Conn:
    return Conn(ws, Room(), Settings(db_url="sqlite://"))  # type: ignore[arg-type]


async def test_idle_connection_sends_at_once_and_a_stalled_send_keeps_order() -> None:
    slow, fast = Socket(), Socket()
    a, b = make_conn(slow), make_conn(fast)
    a.start()
    b.start()
    await asyncio.sleep(0)  # the writers start and wait
    assert a.idle and b.idle
    a.send({"n": 1})
    b.send({"n": 1})
    # sent at once, before any task ran
    assert slow.sent == ['{"n":1}'] and fast.sent == ['{"n":1}']

    slow.paused = True  # this client stops reading
    for n in (2, 3, 4):
        a.send({"n": n})
        b.send({"n": n})
    assert fast.sent == [f'{{"n":{n}}}' for n in (1, 2, 3, 4)]  # not held up
    assert slow.sent == ['{"n":1}'] and slow.waits == 1 and not a.idle
    await asyncio.sleep(0.01)
    assert slow.sent == ['{"n":1}']  # still waiting, nothing lost nor reordered

    slow.paused = False
    slow.writable.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert slow.sent == [f'{{"n":{n}}}' for n in (1, 2, 3, 4)]
    assert a.idle  # back to sending at once
    a.send({"n": 5})
    assert slow.sent[-1] == '{"n":5}'
    for c in (a, b):
        assert c.writer is not None
        c.writer.cancel()


async def test_a_stalled_send_is_cancelled_with_its_writer() -> None:
    ws = Socket()
    conn = make_conn(ws)
    conn.start()
    await asyncio.sleep(0)
    ws.paused = True
    conn.send({"n": 1})
    conn.send({"n": 2})
    assert conn.writer is not None
    await asyncio.sleep(0)
    conn.writer.cancel()
    try:
        await conn.writer
    except asyncio.CancelledError:
        pass
    assert conn.writer.cancelled()
    assert ws.sent == []


async def test_a_send_that_fails_at_once_marks_the_connection_closed() -> None:
    class Broken(Socket):
        async def send_text(self, data: str) -> Any:
            raise RuntimeError("the socket went away")

    conn = make_conn(Broken())
    conn.start()
    await asyncio.sleep(0)
    conn.send({"n": 1})
    assert conn.closed
    assert conn.writer is not None
    conn.writer.cancel()
