"""Text frames written straight to the connection's transport (issue 13, CPU per move).

A message to a client goes, through Starlette's ``WebSocket.send_text``,
Starlette's exception wrapper, uvicorn's ASGI ``send`` (an ``asyncio.Event``
wait, state checks) and the ``websockets`` protocol (a ``Frame`` object, its
serialisation, a list of pending writes), to one ``transport.write``: a
dozen Python calls and a coroutine per message, four messages per move.

A server-to-client text frame without extensions is two to ten bytes of
header and the UTF-8 payload (RFC 6455 §5.2: unmasked, FIN set, opcode 1).
:class:`DirectSocket` writes exactly that to the transport of uvicorn's
``websockets-sansio`` protocol, *only* when that protocol is in the state
where its own ``send`` would write at once the same bytes: handshake done,
no close sent or received, the transport writable (not paused by flow
control) and not closing, and no extension negotiated (permessage-deflate
changes the frames). In any other case, and for any other server or
protocol implementation (the test client, ``--ws-protocol websockets``),
it sends through Starlette's ``WebSocket`` as before, which waits, raises
or closes as uvicorn decides.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

__all__ = ["DirectSocket", "direct_socket", "frame_header", "RAW_SEND"]

#: the scope key under which :class:`unokit.web.hardening.BodyLimit` keeps the
#: server's own ASGI ``send`` of a WebSocket connection
RAW_SEND = "unokit.raw_send"


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def frame_header(n: int) -> bytes:
    """The header of an unmasked final text frame of ``n`` payload bytes."""
    if n < 126:
        return bytes((0x81, n))
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big")
    return b"\x81\x7f" + n.to_bytes(8, "big")


def _sansio_class() -> type | None:
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:  # pragma: no cover - uvicorn without websockets
        return None
    return WebSocketsSansIOProtocol


def _open_state() -> Any:
    from websockets.protocol import State

    return State.OPEN


class DirectSocket:
    """A Starlette ``WebSocket`` whose text messages are written to the
    transport of uvicorn's websockets-sansio protocol ``proto`` whenever
    that protocol would write them at once itself (see the module doc)."""

    def __init__(self, ws: Socket, proto: Any) -> None:
        self.ws = ws
        self.proto = proto
        self.open = _open_state()
        self.direct = 0  # messages written here (for tests and curiosity)

    def try_send(self, data: str) -> bool:
        """Write ``data`` as one text frame now, if the protocol is in the
        state where its own send would; False: nothing was written."""
        p = self.proto
        conn = p.conn
        if (
            not p.handshake_complete
            or p.close_sent
            or not p.writable.is_set()
            or conn.state is not self.open
            or conn.extensions
            or p.transport.is_closing()
        ):
            return False
        payload = data.encode()
        p.transport.write(frame_header(len(payload)) + payload)
        self.direct += 1
        return True

    async def send_text(self, data: str) -> None:
        if not self.try_send(data):
            await self.ws.send_text(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.ws.close(code, reason)


Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def direct_socket(ws: Socket, scope: MutableMapping[str, Any]) -> Socket:
    """``ws`` itself, or a :class:`DirectSocket` on it when the connection
    is served by uvicorn's websockets-sansio protocol."""
    send = scope.get(RAW_SEND)
    proto = getattr(send, "__self__", None)
    cls = _sansio_class()
    if cls is None or type(proto) is not cls:
        return ws
    if not all(hasattr(proto, a) for a in ("transport", "conn", "writable", "close_sent")):
        return ws  # pragma: no cover - another uvicorn
    return DirectSocket(ws, proto)
