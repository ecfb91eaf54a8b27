"""What every HTTP request and WebSocket client passes before a route sees it:
the body size limit, strict JSON bodies, error replies that can always be
encoded, and the per-address rate limits (the security headers and the Origin
check are :mod:`unokit.web.security`)."""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic_core import from_json

from unokit.web.direct import RAW_SEND

__all__ = [
    "AddressLimiter",
    "BodyLimit",
    "RestLimiter",
    "StrictJSONRoute",
    "json_error",
    "printable",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse HTTP request bodies larger than ``limit`` bytes with 413, before
    they are read into memory (whatever Content-Length claims).

    The outermost of the app's own middlewares, it also keeps a WebSocket
    connection's ``send`` as the server gave it, before Starlette wraps it,
    in the scope (:data:`unokit.web.direct.RAW_SEND`)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                scope[RAW_SEND] = send  # the server's own send (unokit.web.direct)
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _reply_413(send)
                    return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _reply_413(send)


class _TooLarge(HTTPException):
    """Raised while reading a too large body; FastAPI turns it into a 413 reply."""

    def __init__(self) -> None:
        super().__init__(413, "request body too large")


async def _reply_413(send: Send) -> None:
    body = b'{"detail":"request body too large"}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def printable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX``: always encodable UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def json_error(status: int, detail: Any) -> Response:
    """An error reply ``{"detail": ...}`` that can always be encoded (no NaN, no
    lone surrogate from the request echoed back)."""
    body = json.dumps({"detail": detail}, ensure_ascii=False, allow_nan=False, default=str)
    return Response(
        printable(body).encode("utf-8"), status_code=status, media_type="application/json"
    )


def _strict_json_problem(body: bytes) -> str | None:
    """Why ``body`` is not strict JSON (RFC 8259: no NaN/Infinity, no lone
    surrogate, valid UTF-8, nesting bounded), or None."""
    try:
        from_json(body, allow_inf_nan=False)
    except ValueError as e:
        return f"invalid JSON body: {e}"
    return None


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is checked strictly before FastAPI parses it
    (Python's ``json`` accepts NaN and lone surrogates and recurses without
    bound): not strict JSON is a 400 with the reason."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            if request.method in ("POST", "PUT", "PATCH"):
                body = await request.body()
                problem = _strict_json_problem(body) if body else None
                if problem is not None:
                    return json_error(400, problem)
            return await handler(request)

        return strict


class AddressLimiter:
    """A token bucket per client address, shared by all its WebSocket connections.

    A bucket that has refilled to full says nothing a new one would not: it
    is forgotten (:meth:`prune`, at most once per ``prune_every`` seconds of
    calls and by the server's sweep), so the table holds only the addresses
    active in the last ``burst / rate`` seconds, whatever the number of
    addresses seen. ``clock`` is injectable for tests."""

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        prune_every: float = 10.0,
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.prune_every = prune_every
        self.buckets: dict[str, tuple[float, float]] = {}  # host -> (tokens, at)
        self._pruned = clock()

    def allow(self, host: str) -> bool:
        now = self.clock()
        tokens, at = self.buckets.get(host, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        ok = tokens >= 1.0
        self.buckets[host] = (tokens - 1.0 if ok else tokens, now)
        if now - self._pruned >= self.prune_every:
            self.prune()
        return ok

    def prune(self) -> None:
        """Forget the buckets that are full again."""
        now = self._pruned = self.clock()
        full = self.burst / self.rate
        stale = [h for h, (_, at) in self.buckets.items() if now - at >= full]
        for h in stale:
            del self.buckets[h]


class RestLimiter:
    """At most ``per_minute`` lobby calls (create, join) per client address.

    An address with no call in the last minute is forgotten (:meth:`prune`,
    at most once per ``prune_every`` seconds of calls and by the server's
    sweep). ``clock`` is injectable for tests."""

    WINDOW = 60.0

    def __init__(
        self,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        prune_every: float = 10.0,
    ) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.prune_every = prune_every
        self.hits: dict[str, deque[float]] = {}
        self._pruned = clock()

    def check(self, request: Request | WebSocket) -> None:
        if not self.allow(request.client.host if request.client else "?"):
            raise HTTPException(429, "too many requests; try again in a minute")

    def allow(self, host: str) -> bool:
        now = self.clock()
        if now - self._pruned >= self.prune_every:
            self.prune()
        q = self.hits.setdefault(host, deque())
        while q and now - q[0] > self.WINDOW:
            q.popleft()
        if len(q) >= self.per_minute:
            return False
        q.append(now)
        return True

    def prune(self) -> None:
        """Forget the addresses with no call in the last minute."""
        now = self._pruned = self.clock()
        stale = [h for h, q in self.hits.items() if not q or now - q[-1] > self.WINDOW]
        for h in stale:
            del self.hits[h]
