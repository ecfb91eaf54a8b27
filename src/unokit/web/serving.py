"""uvicorn's protocols with the connection limits of ``unokit serve``
(docs/deployment.md).

uvicorn closes a kept-alive connection ``timeout_keep_alive`` seconds after
its last response, but a connection that never completes a request (silent,
or sending a header line now and then: "slowloris") is never timed out, and
it has no per-address cap. :func:`protocols` returns uvicorn's HTTP and
WebSocket protocol classes extended with:

* a **header timeout**: a request's headers must be complete within
  ``header_timeout`` seconds of the connection opening, or of the previous
  response; otherwise the connection is closed;
* a **per-address connection cap**: at most ``per_address`` open connections
  (HTTP and WebSocket together) from one client address; the next one gets
  a 429 and is closed before anything is parsed;
* (websockets-sansio, the default) a text frame that is not UTF-8 reaches the
  app as a binary frame, which the app answers with ``bad_json`` (protocol.md)
  instead of uvicorn logging a traceback and closing with 1007.

The address is the TCP peer's: proxy headers are applied later, in the app
(``--forwarded-allow-ips``), so behind a reverse proxy the cap counts the
proxy's connections — set ``--max-connections-per-address`` to suit.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

__all__ = ["ConnectionGuard", "protocols"]

log = logging.getLogger("unokit.web")

_REFUSED = (
    b"HTTP/1.1 429 Too Many Requests\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\n"
    b"content-length: 39\r\n\r\n"
    b"too many connections from this address\n"
)


class ConnectionGuard:
    """The open connections of each client address, shared by every protocol
    instance of one server."""

    def __init__(self, per_address: int, header_timeout: float) -> None:
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self.refused = 0
        self._last_warning = -1e9

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        conns = self.open.setdefault(address, set())
        if len(conns) >= self.per_address:
            # drop the ones that closed without telling (none should; cheap anyway)
            conns.difference_update([t for t in conns if t.is_closing()])
            if len(conns) >= self.per_address:
                self.refused += 1
                now = asyncio.get_running_loop().time()
                if now - self._last_warning >= 10.0:  # one line per 10 s at most
                    self._last_warning = now
                    log.warning(
                        "refusing connections from %s: %d open (--max-connections-per-address)",
                        address,
                        len(conns),
                    )
                return False
        conns.add(transport)
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        conns = self.open.get(address)
        if conns is not None:
            conns.discard(transport)
            if not conns:
                del self.open[address]

    def count(self, address: str) -> int:
        return len(self.open.get(address, ()))


def _http_class(base: type[Any], guard: ConnectionGuard) -> type[asyncio.Protocol]:
    class Guarded(base):  # type: ignore[misc]
        _unokit_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            if not guard.admit(transport):
                self._unokit_refused = True
                transport.write(_REFUSED)
                transport.close()
                return
            self._unokit_arm()

        def _unokit_arm(self) -> None:
            self._unokit_disarm()
            self._unokit_timer = self.loop.call_later(guard.header_timeout, self._unokit_expire)

        def _unokit_disarm(self) -> None:
            if self._unokit_timer is not None:
                self._unokit_timer.cancel()
                self._unokit_timer = None

        def _unokit_expire(self) -> None:
            self._unokit_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                return  # a request is being answered: its headers came in time
            if not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._unokit_arm()  # the next request's headers, in time too

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._unokit_disarm()  # the WebSocket protocol owns the transport now
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._unokit_disarm()
            guard.release(self.transport)
            super().connection_lost(exc)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def _ws_class(base: type[Any], guard: ConnectionGuard) -> type[asyncio.Protocol]:
    class Guarded(base):  # type: ignore[misc]
        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

        def send_receive_event_to_app(self) -> None:
            # websockets-sansio: decoding a text frame that is not UTF-8 logs a
            # traceback and closes with 1007; hand it on as bytes instead, which
            # the app answers with bad_json and keeps the connection
            if getattr(self, "curr_msg_data_type", None) == "text":
                try:
                    b"".join(self.frames).decode()
                except UnicodeDecodeError:
                    self.curr_msg_data_type = "bytes"
            super().send_receive_event_to_app()

    if not hasattr(base, "send_receive_event_to_app"):
        del Guarded.send_receive_event_to_app
    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def protocols(
    http: str, ws: str, *, per_address: int, header_timeout: float
) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol], ConnectionGuard]:
    """uvicorn's ``http`` and ``ws`` protocol classes (names as in
    ``uvicorn.run``), guarded; pass them as ``uvicorn.run(http=…, ws=…)``."""
    from uvicorn.config import HTTP_PROTOCOLS, WS_PROTOCOLS
    from uvicorn.importer import import_from_string

    guard = ConnectionGuard(per_address, header_timeout)
    http_base = import_from_string(HTTP_PROTOCOLS[http])
    ws_path = WS_PROTOCOLS[ws]
    assert ws_path is not None
    ws_base = import_from_string(ws_path)
    return _http_class(http_base, guard), _ws_class(ws_base, guard), guard
