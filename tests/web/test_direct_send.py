"""Text frames written straight to uvicorn's transport (unokit.web.direct): the
bytes are the frames the websockets protocol would have written, they are
written only in the state where uvicorn's own send would write at once, and
a real server uses the path (issue 13, CPU per move)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

from unokit.testing.servers import free_port
from unokit.web.app import create_app
from unokit.web.config import Settings
from unokit.web.direct import DirectSocket, direct_socket, frame_header
from unokit.web.room import Room


def parse(data: bytes) -> Frame:
    """One frame from ``data``, as a client would read it (unmasked)."""
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    gen = Frame.parse(reader.read_exact, mask=False, max_size=None, extensions=[])
    try:
        next(gen)
    except StopIteration as done:
        frame: Frame = done.value
        return frame
    raise AssertionError("incomplete frame")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_the_frame_is_what_websockets_writes(size: int) -> None:
    text = ("é" * size)[: size // 2] + "x" * (size - size // 2)
    payload = text.encode()
    data = frame_header(len(payload)) + payload
    assert data == Frame(Opcode.TEXT, payload).serialize(mask=False)
    frame = parse(data)
    assert frame.opcode is Opcode.TEXT and frame.fin and frame.data == payload


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


class Conn:
    def __init__(self) -> None:
        self.state = State.OPEN
        self.extensions: list[Any] = []


class Proto:
    """The attributes of uvicorn's websockets-sansio protocol that are read."""

    def __init__(self) -> None:
        self.transport = Transport()
        self.conn = Conn()
        self.writable = asyncio.Event()
        self.writable.set()
        self.close_sent = False
        self.handshake_complete = True


class Starlette:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_written_only_when_uvicorn_would_write_at_once() -> None:
    async def main() -> None:
        cases = {
            "open": lambda p: None,
            "paused": lambda p: p.writable.clear(),
            "closing": lambda p: setattr(p.transport, "closing", True),
            "close sent": lambda p: setattr(p, "close_sent", True),
            "handshake": lambda p: setattr(p, "handshake_complete", False),
            "closed": lambda p: setattr(p.conn, "state", State.CLOSING),
            "deflate": lambda p: p.conn.extensions.append(PerMessageDeflate(False, False, 15, 15)),
        }
        for name, change in cases.items():
            proto, ws = Proto(), Starlette()
            change(proto)
            sock = DirectSocket(ws, proto)
            await sock.send_text('{"type":"pong","id":1}')
            if name == "open":
                assert ws.sent == [] and sock.direct == 1
                assert parse(proto.transport.written[0]).data == b'{"type":"pong","id":1}'
            else:  # uvicorn's own send decides: waits, raises or compresses
                assert proto.transport.written == [] and ws.sent == ['{"type":"pong","id":1}']
                assert sock.direct == 0, name

    asyncio.run(main())


def test_other_servers_keep_starlettes_socket() -> None:
    ws = Starlette()
    assert direct_socket(ws, {}) is ws
    assert direct_socket(ws, {"unokit.raw_send": ws.send_text}) is ws


@pytest.fixture(params=[False, True], ids=["plain", "deflate"])
def live(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Any, bool]]:
    """The app served by uvicorn (websockets-sansio, as ``unokit serve``) in a
    thread, with permessage-deflate off (``unokit serve``'s default) or on."""
    import uvicorn

    deflate: bool = request.param
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'u.sqlite3'}", bot_delay=0.0)
    app = create_app(settings)
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws="websockets-sansio",
        ws_per_message_deflate=deflate,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            threading.Event().wait(0.05)  # polling for readiness, not a timing assertion
        assert server.started
        yield f"127.0.0.1:{port}", app, deflate
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def test_a_real_server_writes_the_updates_directly(live: tuple[str, Any, bool]) -> None:
    """Without extensions every update is written directly; with
    permessage-deflate none is (uvicorn compresses them); the clients rebuild
    the same observations either way."""
    from websockets.sync.client import connect

    addr, app, deflate = live
    body = {"variant": "classic", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "A"}
    out = httpx.post(f"http://{addr}/api/rooms", json=body, timeout=10).json()
    code = out["room"]
    other = httpx.post(f"http://{addr}/api/rooms/{code}/join", json={"name": "B"}, timeout=10)
    tokens = [out["token"], other.json()["token"]]
    with (
        connect(f"ws://{addr}/ws/{code}", open_timeout=10, max_size=None) as a,
        connect(f"ws://{addr}/ws/{code}", open_timeout=10, max_size=None) as b,
    ):
        clients = [a, b]
        views: list[dict[str, Any]] = [{}, {}]
        for ws, token in zip(clients, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token, "deltas": True}))

        def settle(i: int, want: int) -> None:
            while views[i].get("version", -1) < want:
                m = json.loads(clients[i].recv(timeout=30))
                if m["type"] == "state":
                    views[i] = {"version": m["version"], **m["observation"]}
                elif m["type"] == "delta":
                    assert m["from"] == views[i]["version"]
                    views[i].update(m.get("set", {}), version=m["version"])

        room: Room = app.state.hub.rooms[code]
        settle(0, room.version)
        settle(1, room.version)
        for _ in range(6):
            seat = views[0]["current"]
            view = views[seat]
            version = view["version"]
            command = {"type": "command", "text": view["legal"][0], "id": 1, "version": version}
            clients[seat].send(json.dumps(command))
            settle(0, version + 1)
            settle(1, version + 1)
            assert views[0]["version"] == views[1]["version"] == version + 1
        g = room.game
        assert g is not None
        for seat in (0, 1):  # what the clients rebuilt is the seat's observation
            want = g.observe(seat).to_dict()
            assert views[seat]["hand"] == want["hand"] and views[seat]["legal"] == want["legal"]
        sockets = [c.ws for c in room.conns]
        assert all(isinstance(s, DirectSocket) for s in sockets)
        counts = [s.direct for s in sockets]  # type: ignore[attr-defined]
        if deflate:
            assert counts == [0, 0]
        else:
            assert all(n >= 7 for n in counts), counts  # the welcome, the state, six deltas
