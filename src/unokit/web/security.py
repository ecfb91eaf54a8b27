"""Browser-facing defences of the web app: response headers and the
WebSocket Origin check (docs/deployment.md).

:class:`SecurityHeaders` is the outermost ASGI middleware of
:func:`unokit.web.app.create_app`:

* every HTTP response (pages, ``/static/*``, the API, errors) carries a strict
  Content-Security-Policy (scripts only from the server's own files, no
  inline script; ``frame-ancestors 'none'``), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
  (the invite link carries the room code);
* a WebSocket handshake whose ``Origin`` is neither the page's own origin
  (the ``Host`` it was sent to) nor one of ``allowed_origins`` is refused
  before it is accepted (HTTP 403). A client that sends no ``Origin`` at all
  is not a browser (browsers always send one on a WebSocket): the bot client,
  scripts and tests. It is let through, since the Origin check only exists to
  stop other sites' pages from using a visitor's browser; such a client needs
  a seat token to play anyway.

>>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
True
>>> origin_allowed("https://evil.example", "127.0.0.1:8000", ())
False
>>> origin_allowed("null", "127.0.0.1:8000", ())
False
>>> origin_allowed("https://uno.example.org", "10.0.0.5:8000", ("https://uno.example.org",))
True
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

__all__ = ["CSP", "SECURITY_HEADERS", "SecurityHeaders", "normalize_origin", "origin_allowed"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("unokit.web")

#: Scripts, styles, images, fonts and connections only from the server itself.
#: ``style-src-attr 'unsafe-inline'`` lets the table's ``style="--hue:…"``
#: attributes through (CSS custom properties set per card and seat); it allows
#: no ``<style>`` element and no script, and ``img-src`` keeps any ``url()`` in
#: such an attribute from reaching another host.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_NAMES = {name for name, _ in SECURITY_HEADERS}


def normalize_origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-cased, default port dropped;
    raises ValueError if it is not an http(s) origin.

    >>> normalize_origin("https://Uno.Example.org:443/")
    'https://uno.example.org'
    >>> normalize_origin("http://localhost:8000")
    'http://localhost:8000'
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) origin: {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"an origin is scheme://host[:port] only: {url!r}")
    port = parts.port
    default = 443 if parts.scheme == "https" else 80
    host = parts.hostname.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def origin_allowed(origin: str, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a browser page of ``origin`` may open a WebSocket sent to ``host``.

    The page's own origin is the one whose ``host[:port]`` is the ``Host`` the
    handshake was sent to, over http or https (a TLS proxy in front keeps the
    Host but not the scheme); any other must be in ``allowed``."""
    try:
        norm = normalize_origin(origin)
    except ValueError:
        return False  # "null", file://, chrome-extension://, garbage
    if norm in allowed:
        return True
    if not host:
        return False
    netloc = norm.split("://", 1)[1]
    host = host.strip().lower()
    scheme = norm.split("://", 1)[0]
    default = ":443" if scheme == "https" else ":80"
    if host.endswith(default):
        host = host[: -len(default)]
    return netloc == host


class SecurityHeaders:
    """ASGI middleware: security headers on every HTTP response, and the
    Origin allow-list of WebSocket handshakes."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(normalize_origin(o) for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin = host = None
            for key, value in scope.get("headers", ()):
                if key == b"origin":
                    origin = value.decode("latin-1")
                elif key == b"host":
                    host = value.decode("latin-1")
            if origin is not None and not origin_allowed(origin, host, self.allowed):
                client = scope.get("client")
                log.warning(
                    "refused a WebSocket from origin %r (host %r, client %s)",
                    origin[:100],
                    (host or "")[:100],
                    client[0] if client else "?",
                )
                # before accept: the server answers the handshake with 403
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in _NAMES]
                headers.extend(SECURITY_HEADERS)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
