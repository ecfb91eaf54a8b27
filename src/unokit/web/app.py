"""The FastAPI application: REST lobby, one WebSocket per client, static files.

The protocol is documented in docs/protocol.md; the message models are in
:mod:`unokit.web.messages`; rooms and their games in :mod:`unokit.web.room`.

>>> from unokit.web.config import Settings
>>> app = create_app(Settings(db_url="sqlite:///:memory:"))
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/rooms"))[:3]
['/api/rooms', '/api/rooms/{code}', '/api/rooms/{code}/back']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, MutableMapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from pydantic_core import from_json
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from unokit.bots import bot_names, make_bot
from unokit.engine.errors import RecordError, UnoError
from unokit.engine.game import Game, Phase
from unokit.engine.options import (
    _BOOLS,
    _INTS,
    HOUSE_RULES,
    NOT_YET_PLAYED,
    OPTION_CHOICES,
    PRESETS,
    Options,
)
from unokit.engine.variants import VARIANTS
from unokit.records.record import Record
from unokit.records.record import loads as record_loads
from unokit.web import chat
from unokit.web.botpool import INLINE_LEVELS, WorkerLost, WorkerPool
from unokit.web.cluster import ClusterHub, Elsewhere
from unokit.web.config import Settings
from unokit.web.conn import Conn
from unokit.web.deals import current_deal
from unokit.web.deals import match_record as web_record
from unokit.web.direct import RAW_SEND, direct_socket
from unokit.web.errors import ProtocolError
from unokit.web.hub import Hub
from unokit.web.messages import (
    CLIENT_MESSAGE,
    PROTOCOL,
    ChatMsg,
    CommandMsg,
    CreateRoom,
    HelloMsg,
    JoinRoom,
    NewMatchMsg,
    NextRoundMsg,
    PingMsg,
    ReadyMsg,
    ResyncMsg,
    StartMsg,
    protocol_schema,
)
from unokit.web.room import Room
from unokit.web.security import SecurityHeaders
from unokit.web.store import StorageError, Store
from unokit.web.table_api import (
    HistoryBody,
    PublicBody,
    QuickPlayBody,
    ReactBody,
    RecordBody,
    ReplayBody,
    SeatBody,
    TokenBody,
)

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("unokit.web")
STATIC_DIR = Path(__file__).parent / "static"

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


def _printable(text: str) -> str:
    """``text`` with lone surrogates written as ``\\udXXX``: always encodable UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def json_error(status: int, detail: Any) -> Response:
    """An error reply ``{"detail": ...}`` that can always be encoded (no NaN, no
    lone surrogate from the request echoed back)."""
    body = json.dumps({"detail": detail}, ensure_ascii=False, allow_nan=False, default=str)
    return Response(
        _printable(body).encode("utf-8"), status_code=status, media_type="application/json"
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


def _validation_detail(errors: Any) -> list[dict[str, Any]]:
    """FastAPI's 422 ``detail`` without the echoed input (it may not be encodable)."""
    return [
        {
            "type": str(e.get("type", "invalid")),
            "loc": [p if isinstance(p, int) else _printable(str(p)) for p in e.get("loc", ())],
            "msg": _printable(str(e.get("msg", "invalid"))),
        }
        for e in list(errors)[:20]
    ]


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


class Collector:
    """A full garbage collection every ``every`` seconds (0: never), run by
    the server's sweep.

    Every closed WebSocket leaves a reference cycle (websockets' protocol
    object holds the generator that parses its frames), with its buffers.
    ``unokit serve`` freezes the startup objects and raises the collector's
    thresholds, so a full collection would come only after tens of millions
    of allocations: the soak saw the protocols of all past connections
    pile up (6,800 after 18 minutes, RSS +1.5 MB a minute). Collecting on a
    clock bounds that garbage to the connections closed in one period; a
    collection of the live server (~300k objects) takes ~50-150 ms."""

    def __init__(self, every: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.last = clock()
        self.runs = 0

    def maybe_collect(self) -> bool:
        now = self.clock()
        if self.every <= 0 or now - self.last < self.every:
            return False
        self.last = now
        gc.collect()
        self.runs += 1
        return True


def _option_meta() -> dict[str, Any]:
    default = Options()
    out: dict[str, Any] = {}
    for f in fields(Options):
        if f.name in NOT_YET_PLAYED:  # refused by the engine: not offered
            continue
        value = getattr(default, f.name)
        if f.name in OPTION_CHOICES:
            out[f.name] = {
                "default": value,
                "type": "choice",
                "choices": list(OPTION_CHOICES[f.name]),
            }
        elif f.name in _BOOLS:
            out[f.name] = {"default": value, "type": "bool"}
        elif f.name in _INTS:
            out[f.name] = {"default": value, "type": "int"}
        else:
            out[f.name] = {"default": value, "type": "str"}
    return out


def _preset_meta() -> list[dict[str, Any]]:
    """The presets of the rules registry (RULES.md §6.17) for the lobby: each
    with its options, and whether the engine plays it (a preset naming a rule
    the engine refuses is listed with the reason, so the lobby shows it
    disabled until the rule is played)."""
    out = []
    for name, values in PRESETS.items():
        try:
            Options.from_dict(values)
            why = None
        except UnoError as e:
            why = str(e)
        out.append({"name": name, "options": dict(values), "playable": why is None, "why": why})
    return out


def _seat_reply(room: Room, seat: int, token: str) -> dict[str, Any]:
    """The answer to a player who took a seat (creating or joining a room)."""
    return {
        "room": room.code,
        "invite": f"/r/{room.code}",
        "seat": seat,
        "token": token,
        "info": room.info(),
    }


def create_app(settings: Settings) -> FastAPI:
    """The web application, storing its rooms in ``settings.db_url``."""
    store = Store(settings.db_url, sqlite_synchronous=settings.sqlite_synchronous)
    cluster: ClusterHub | None = None
    if settings.broker_url:
        cluster = ClusterHub(settings, store, settings.broker_url, lease=settings.lease)
    hub: Hub = cluster or Hub(settings, store)
    limiter = RestLimiter(settings.rest_per_minute)
    misses = RestLimiter(settings.rest_per_minute)  # unknown room codes: no guessing
    per_address = AddressLimiter(settings.addr_rate, settings.addr_burst)
    # replays (and any other CPU-heavy request) run in a worker process of their own
    heavy = WorkerPool(1, queue_limit=4, hang_timeout=60.0, name="request")
    replays = RestLimiter(settings.replay_per_minute)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.start)
        if cluster is not None:
            cluster.frame = on_frame
            cluster.call = owner_call
            await cluster.start()

        if hub.bots is not None and settings.bot_prestart:
            asyncio.get_running_loop().create_task(hub.bots.prestart())
        collector = Collector(settings.gc_every)

        async def sweeper() -> None:
            while True:
                # often, so that rooms leave memory close to idle_unload after
                # their last viewer, not in batches up to a period later
                await asyncio.sleep(min(10.0, settings.idle_unload / 4))
                hub.sweep()
                for lim in (limiter, misses, per_address):
                    lim.prune()
                collector.maybe_collect()

        sweep = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            sweep.cancel()
            if cluster is not None:
                await cluster.stop()
            hub.close()
            for pool in (hub.bots, heavy):
                if pool is not None:
                    await pool.stop()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="unokit",
        version="1",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.hub = hub
    app.state.store = store
    app.state.settings = settings
    app.router.route_class = StrictJSONRoute
    app.add_middleware(BodyLimit, limit=settings.max_body)
    # outermost: headers on every response, Origin check before any WebSocket accept
    app.add_middleware(SecurityHeaders, allowed_origins=settings.allowed_origins)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> Response:
        return json_error(422, _validation_detail(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def on_http_error(request: Request, exc: StarletteHTTPException) -> Response:
        not_found = STATIC_DIR / "404.html"
        path = request.url.path
        if (
            exc.status_code == 404
            and request.method in ("GET", "HEAD")
            and not path.startswith(("/api/", "/static/"))
            and "text/html" in request.headers.get("accept", "")
            and not_found.is_file()
        ):
            # a person's browser at a wrong address: a page, not JSON
            return FileResponse(not_found, status_code=404, media_type="text/html")
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        response = json_error(exc.status_code, detail)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    # ------------------------------------------------------------ REST

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        if cluster is not None:
            return {"ok": True, "node": cluster.node}
        return {"ok": True}

    meta = {
        "protocol": PROTOCOL,
        "variants": {
            name: {"min_players": v.min_players, "max_players": v.max_players}
            for name, v in VARIANTS.items()
        },
        # the levels a room can be created with: an engine program is not one
        # (docs/bot-api.md: external seats), nor a level whose extra is missing
        "bots": room_levels(),
        "house_rules": list(HOUSE_RULES),
        "options": _option_meta(),
        "presets": _preset_meta(),
        "not_yet_played": sorted(NOT_YET_PLAYED),
        "turn_timer": {"min": 5, "max": 600},
    }

    schema = protocol_schema()

    @app.get("/api/protocol.schema.json")
    async def api_schema() -> dict[str, Any]:
        """JSON Schemas of every message (docs/protocol.md)."""
        return schema

    @app.get("/api/meta")
    async def api_meta() -> dict[str, Any]:
        return meta

    async def room_or_404(code: str, request: Request) -> Room:
        try:
            room = await hub.get(code)
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        if room is None:
            misses.check(request)
            raise HTTPException(404, f"no room {code!r}")
        return room

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        limiter.check(request)
        v = VARIANTS[body.variant]
        n = len(body.seats)
        if not v.min_players <= n <= v.max_players:
            raise HTTPException(
                422, f"{v.name} is played by {v.min_players} to {v.max_players} players, not {n}"
            )
        specs: list[tuple[str, str | None]] = []
        for i, s in enumerate(body.seats):
            if s.kind == "bot":
                if s.level is None:
                    raise HTTPException(
                        422, f"seat {i}: a bot needs a level ({', '.join(bot_names())})"
                    )
                try:
                    make_bot(s.level)
                except UnoError as e:
                    raise HTTPException(422, f"seat {i}: {e}") from None
                specs.append(("bot", s.level.strip().lower()))
            else:
                if s.level is not None:
                    raise HTTPException(422, f"seat {i}: a human seat has no bot level")
                specs.append(("human", None))
            if (s.external or s.name is not None) and s.kind != "human":
                raise HTTPException(
                    422, f"seat {i}: only a human seat can be reserved for an external bot"
                )
        external = [i for i, s in enumerate(body.seats) if s.external]
        if not any(kind == "human" for kind, _ in specs):
            raise HTTPException(422, "a room needs at least one human seat")
        refuse_if_busy(hub, [level for _, level in specs])
        try:
            options = Options.from_dict(dict(body.options))
            Game.new(body.variant, n, options, seed=0, events=False)  # every check of a deal
        except UnoError as e:
            raise HTTPException(422, str(e)) from None
        # the creator takes the first human seat not reserved for an external bot
        # (if every human seat is, the creator is the first of those bots)
        host = next((i for i, (k, _) in enumerate(specs) if k == "human" and i not in external),
                    None)  # fmt: skip
        try:
            room, seat, token = await hub.create(
                body.variant, specs, options, body.turn_timer, body.name, host
            )
            reserved = []
            for i in external:  # claimed now: their tokens go to the host (docs/bot-api.md)
                t = (
                    token
                    if i == seat
                    else (await room.claim(body.seats[i].name or f"Bot P{i}", i))[1]
                )
                reserved.append({"seat": i, "token": t})
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        except ProtocolError as e:  # pragma: no cover - the seats were free a moment ago
            raise HTTPException(409, e.message) from None
        reply = _seat_reply(room, seat, token)
        if external:
            reply["external"] = reserved
            reply["info"] = room.info()
        return reply

    async def join(room: Room, name: str, seat: int | None) -> dict[str, Any]:
        try:
            seat, token = await room.claim(name, seat)
        except ProtocolError as e:
            raise HTTPException(409 if e.code == "taken" else 422, e.message) from None
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        return _seat_reply(room, seat, token)

    async def forwarded(code: str, call: str, args: dict[str, Any], request: Request) -> Any:
        """Run ``call`` on the owner of room ``code`` (cluster); None if this
        process owns the room now."""
        assert cluster is not None
        status, body = await cluster.forward_call(code, call, args)
        if status == -1:
            return None
        if status == 404:
            misses.check(request)
        if status != 200:
            raise HTTPException(status, str(body))
        return body

    async def owner_call(code: str, call: str, args: dict[str, Any]) -> tuple[int, Any]:
        """A lobby call forwarded by another process of the cluster."""
        try:
            room = await hub.get(code)
            if room is None:
                return 404, f"no room {code!r}"
            if call == "join":
                return 200, await join(room, str(args["name"]), args.get("seat"))
            return 200, room.info()
        except HTTPException as e:
            return e.status_code, e.detail
        except StorageError as e:
            return 503, f"storage error: {e}"

    @app.post("/api/rooms/{code}/join")
    async def join_room(code: str, body: JoinRoom, request: Request) -> dict[str, Any]:
        limiter.check(request)
        while True:
            try:
                room = await room_or_404(code, request)
            except Elsewhere:
                out = await forwarded(code, "join", {"name": body.name, "seat": body.seat}, request)
                if out is None:
                    continue
                return dict(out)
            return await join(room, body.name, body.seat)

    @app.get("/api/rooms/{code}")
    async def room_info(code: str, request: Request) -> dict[str, Any]:
        while True:
            try:
                room = await room_or_404(code, request)
            except Elsewhere:
                out = await forwarded(code, "info", {}, request)
                if out is None:
                    continue
                return dict(out)
            return room.info()

    add_table_routes(app, hub, limiter, room_or_404, heavy, replays)

    # ------------------------------------------------------------ pages

    def page() -> Response:
        html = STATIC_DIR / "app.html"
        if html.is_file():
            return FileResponse(html, media_type="text/html", headers={"Cache-Control": "no-cache"})
        return HTMLResponse("<!doctype html><title>unokit</title><p>unokit server: no UI found.")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page()

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(
            STATIC_DIR / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )

    @app.get("/r/{code}", include_in_schema=False)
    async def invite(code: str) -> Response:
        return page()

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # ------------------------------------------------------------ WebSocket

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        while True:
            try:
                room = await hub.get(code)
                break
            except Elsewhere:  # another process of the cluster owns the room
                assert cluster is not None
                if await cluster.relay(ws, code, ws.client.host if ws.client else "?"):
                    return
            except StorageError as e:
                await ws.send_text(_error(None, "storage", str(e)))
                await ws.close(1011)
                return
        if room is None:
            host = ws.client.host if ws.client else "?"
            if misses.allow(host):
                await ws.send_text(_error(None, "no_room", f"no room {code!r}"))
                await ws.close(4404)
            else:
                await ws.send_text(_error(None, "rate_limited", "too many unknown rooms"))
                await ws.close(1008)
            return
        if len(room.conns) >= settings.max_room_conns:
            await ws.send_text(_error(None, "bad_state", "this room has too many connections"))
            await ws.close(1013)
            return
        conn = Conn(direct_socket(ws, ws.scope), room, settings)
        conn.host = ws.client.host if ws.client else "?"
        room.attach(conn)
        conn.start()
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await on_frame(conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            conn.room.detach(conn)
            if conn.writer is not None:
                conn.writer.cancel()
                with contextlib.suppress(BaseException):
                    await conn.writer

    async def on_frame(conn: Conn, message: Message) -> None:
        """One frame of a client (text or bytes), here or relayed by another process.

        Messages are text frames (protocol.md). A binary frame is refused:
        ``bad_json`` if it is not UTF-8 (also a text frame that is not UTF-8,
        which the server's protocol hands on as bytes: web/serving.py), else
        ``bad_message``; ``too_large`` past the size limit."""
        text = message.get("text")
        if text is None:
            if not _admit(conn):
                return
            data = message.get("bytes") or b""
            if len(data) > settings.max_message:
                conn.send(
                    _err(None, "too_large", f"messages are limited to {settings.max_message} bytes")
                )
                return
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as e:
                conn.send(_err(None, "bad_json", f"not UTF-8: {e.reason} at byte {e.start}"))
                return
            conn.send(
                _err(None, "bad_message", "binary frames are not accepted: send JSON text frames")
            )
            return
        await handle(conn, text)

    def _admit(conn: Conn) -> bool:
        """Rate limits (the connection's, then its address's); returns False if
        the message is to be dropped."""
        if conn.allow():
            if per_address.allow(conn.host):
                return True
            conn.dropped += 1
        if conn.dropped >= settings.flood_close:
            asyncio.get_running_loop().create_task(conn.close(1008, "flood"))
            return False
        now = time.monotonic()
        if now - conn.last_rate_error >= 1.0:
            conn.last_rate_error = now
            conn.send(_err(None, "rate_limited", "too many messages; this one was dropped"))
        return False

    async def handle(conn: Conn, text: str) -> None:
        if not _admit(conn):
            return
        if (
            len(text) > settings.max_message
            or len(text.encode("utf-8", "surrogatepass")) > settings.max_message
        ):
            conn.send(
                _err(None, "too_large", f"messages are limited to {settings.max_message} bytes")
            )
            return
        try:
            msg = CLIENT_MESSAGE.validate_json(text)
        except ValidationError as e:
            conn.send(_validation_error(text, e))
            return
        room = conn.room
        msg_id = msg.id
        try:
            if isinstance(msg, HelloMsg):
                room.bind(conn, msg.token, msg.spectate, msg.deltas)
            elif isinstance(msg, CommandMsg):
                await room.command(conn, msg_id, msg.text, msg.version)
            elif isinstance(msg, NextRoundMsg):
                await room.next_round(conn, msg_id, msg.version)
            elif isinstance(msg, NewMatchMsg):
                await room.new_match(conn, msg_id, msg.version)
            elif isinstance(msg, ReadyMsg):
                await room.say_ready(conn, msg_id)
            elif isinstance(msg, StartMsg):
                await room.start(conn, msg_id, msg.level, msg.version)
            elif isinstance(msg, ChatMsg):
                chat.say(room, conn, msg.text)  # the room's chat mode, the sender's rate
            elif isinstance(msg, PingMsg):
                conn.send({"type": "pong", "id": msg_id})
            elif isinstance(msg, ResyncMsg):
                if not conn.bound:
                    raise ProtocolError("not_joined", "say hello first")
                conn.resync()
        except ProtocolError as e:
            reply = _err(msg_id, e.code, e.message)
            if e.version is not None:
                reply["version"] = e.version
            conn.send(reply)
        except StorageError as e:
            log.warning("room %s: storage error: %s", room.code, e)
            conn.send(_err(msg_id, "storage", "the change could not be stored; nothing changed"))
        except Exception:
            log.exception("room %s: internal error on %r", room.code, text[:200])
            conn.send(_err(msg_id, "internal", "internal server error; nothing changed"))

    return app


RoomGetter = Callable[[str, Request], Awaitable[Room]]


#: what a level needs installed (a level whose optional extra is missing
#: cannot seat a bot: make_bot refuses it); checked without importing it
_LEVEL_NEEDS = {"expert": ("numpy",), "rlcard-rule": ("numpy", "rlcard")}


def room_levels() -> list[str]:
    """The bot levels a room can be created with (cheap: nothing is imported)."""
    import importlib.util

    out = []
    for name in bot_names():
        # an engine program is no level; hard-legacy (a clock budget) is kept
        # for comparisons with the hard before issue 25, not offered to tables
        if name in ("engine", "hard-legacy"):
            continue
        if any(importlib.util.find_spec(m) is None for m in _LEVEL_NEEDS.get(name, ())):
            continue
        out.append(name)
    return out


def refuse_if_busy(hub: Hub, levels: list[str | None]) -> None:
    """A new room with bots that think in the workers is refused (503 with
    ``Retry-After``) while more than the queue limit of decisions wait: the
    bots of the rooms already playing would otherwise wait longer and longer."""
    pool = hub.bots
    if pool is None or not pool.full():
        return
    if all(level is None or level in INLINE_LEVELS for level in levels):
        return
    wait = pool.retry_after()
    raise HTTPException(
        503,
        f"the server's bots are busy ({pool.waiting} decisions waiting): "
        f"try again in {wait} s, or play against normal/easy bots now",
        headers={"Retry-After": str(wait)},
    )


def _http(e: ProtocolError) -> HTTPException:
    status = {"bad_token": 403, "forbidden": 403, "taken": 409, "rate_limited": 429}
    return HTTPException(status.get(e.code, 409 if e.code == "bad_state" else 422), e.message)


def add_table_routes(
    app: FastAPI,
    hub: Hub,
    limiter: RestLimiter,
    room_or_404: RoomGetter,
    heavy: WorkerPool,
    replays: RestLimiter,
) -> None:
    """The REST calls of the table's extras (docs/web.md): quick reactions,
    public rooms and quick play, seats that go quiet, game history and replay."""

    @app.post("/api/rooms/{code}/react", status_code=204)
    async def react(code: str, body: ReactBody, request: Request) -> Response:
        room = await room_or_404(code, request)
        try:
            room.react(body.token, body.emoji)
        except ProtocolError as e:
            raise _http(e) from None
        return Response(status_code=204)

    @app.post("/api/rooms/{code}/chat")
    async def set_chat(code: str, body: chat.ChatModeBody, request: Request) -> dict[str, Any]:
        """The host sets who may chat: players (default), all, or off."""
        room = await room_or_404(code, request)
        try:
            chat.set_mode(room, body.token, body.chat)
        except ProtocolError as e:
            raise _http(e) from None
        return {"chat": chat.gate(room).mode}

    @app.post("/api/rooms/{code}/public")
    async def set_public(code: str, body: PublicBody, request: Request) -> dict[str, Any]:
        room = await room_or_404(code, request)
        try:
            room.set_public(body.token, body.public)
        except ProtocolError as e:
            raise _http(e) from None
        return room.info()

    @app.post("/api/rooms/{code}/seats/{seat}")
    async def hand_over(code: str, seat: int, body: SeatBody, request: Request) -> dict[str, Any]:
        room = await room_or_404(code, request)
        try:
            await room.hand_over(body.token, seat, body.to)
        except ProtocolError as e:
            raise _http(e) from None
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        return room.info()

    @app.post("/api/rooms/{code}/back")
    async def come_back(code: str, body: TokenBody, request: Request) -> dict[str, Any]:
        room = await room_or_404(code, request)
        try:
            await room.come_back(body.token)
        except ProtocolError as e:
            raise _http(e) from None
        return room.info()

    @app.get("/api/public")
    async def public_rooms() -> dict[str, Any]:
        return {"rooms": [r.listing() for r in hub.public_rooms()[:50]]}

    @app.post("/api/quickplay")
    async def quick_play(body: QuickPlayBody, request: Request) -> dict[str, Any]:
        """A seat in a public room with a free seat, or a new public room whose
        other seats bots play until people take them (between rounds)."""
        limiter.check(request)
        for room in hub.public_rooms():
            if body.variant is not None and room.variant != body.variant:
                continue
            try:
                seat, token = await room.claim(body.name, None)
            except ProtocolError:
                continue  # taken meanwhile: try the next one
            except StorageError as e:
                raise HTTPException(503, f"storage error: {e}") from None
            return _seat_reply(room, seat, token)
        variant = body.variant or "classic"
        specs: list[tuple[str, str | None]] = [("human", None)] * 4
        try:
            room, seat, token = await hub.create(variant, specs, Options(), None, body.name)
            room.public = True
            async with room.lock:
                await room._start_match()
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        return _seat_reply(room, seat, token)

    @app.post("/api/history")
    async def history(body: HistoryBody) -> dict[str, Any]:
        """The finished matches of the rooms whose seat tokens the page holds."""
        games: list[dict[str, Any]] = []
        for item in body.rooms:
            try:
                room = await hub.get(item.room)
            except StorageError:
                continue
            if room is None:
                continue
            seat = room.seat_of_token(item.token)
            if seat is None:
                continue
            for number, game in _finished(room):
                games.append(
                    {
                        "room": room.code,
                        "match": number,
                        "seat": seat,
                        "variant": room.variant,
                        "players": room.players,
                        "names": room.seat_names(),
                        "rounds": game.round_no,
                        "scores": list(game.scores),
                        "winners": list(game.match_winners or []),
                    }
                )
        return {"games": games}

    @app.get("/api/rooms/{code}/deal")
    async def deal_commitment(code: str, request: Request) -> dict[str, Any]:
        """The commitment to the round in play (docs/record-format.md): keep it,
        and check it against the salt the match's record reveals."""
        room = await room_or_404(code, request)
        deal = await asyncio.to_thread(current_deal, room)
        if deal is None:
            raise HTTPException(409, "no round has been dealt in this room yet")
        return deal

    @app.post("/api/rooms/{code}/record")
    async def match_record(code: str, body: RecordBody, request: Request) -> Response:
        """A finished match of the room as a game record (docs/record-format.md).

        Only finished matches are offered: by then every round's deal is
        revealed to every seat anyway (the deal commitments of
        docs/record-format.md), so the full record tells no seat more than
        its own view does, and it can be replayed step by step."""
        room = await room_or_404(code, request)
        if room.seat_of_token(body.token) is None:
            raise HTTPException(403, "this token is not a seat token of this room")
        for number, game in _finished(room):
            if number == body.match:
                text = (await web_record(room, number, game)).dumps()
                name = f"unokit-{room.code}-{number}.json"
                return Response(
                    text,
                    media_type="application/json; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}"'},
                )
        raise HTTPException(404, f"no finished match {body.match} in this room")

    @app.post("/api/replay")
    async def replay(body: ReplayBody, request: Request) -> Response:
        """Every step of a record as the given seat saw it, for the replay view.

        A long record costs seconds of CPU: it is read and replayed in a worker
        process (the rooms go on meanwhile), at most ``replay_per_minute``
        times a minute per client address."""
        host = request.client.host if request.client else "?"
        if not replays.allow(host):
            raise HTTPException(
                429, "too many replays; try again in a minute", headers={"Retry-After": "60"}
            )
        if heavy.full():
            wait = heavy.retry_after()
            raise HTTPException(
                503, f"the server is busy with replays; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )  # fmt: skip
        try:
            text = await heavy.run(replay_json, body.record, body.seat)
        except UnoError as e:
            raise HTTPException(422, str(e)) from None
        except WorkerLost as e:
            log.warning("a replay's worker was lost (%s); replaced", e.reason)
            raise HTTPException(503, "the replay could not be made; try again") from None
        return Response(text, media_type="application/json")


def replay_json(record: str, seat: int | None) -> bytes:
    """In a worker: the reply of ``POST /api/replay`` as JSON bytes."""
    rec = record_loads(record)
    if seat is not None and not 0 <= seat < rec.players:
        raise RecordError(f"no seat {seat} among {rec.players} players")
    steps = _replay_steps(rec, seat)
    out = {
        "variant": rec.variant,
        "players": rec.players,
        "names": rec.names,
        "options": rec.options.to_dict(),
        "steps": steps,
    }
    return json.dumps(out, allow_nan=False).encode("ascii")


FINISHED_CACHE = 256
"""Finished matches kept replayed (most recently used first) for the history
and record calls; older ones are replayed again when asked for."""
_FINISHED: OrderedDict[tuple[str, int, int], Game] = OrderedDict()


def _finished(room: Room) -> list[tuple[int, Game]]:
    """(match number, game) of each finished match of ``room``: every match
    but the last (a new match starts only when one is over), and the last one
    when the live game is over. Each is replayed once, then cached."""
    matches = room.matches()
    live = room.game
    if matches and (live is None or live.state != Phase.MATCH_OVER):
        matches = matches[:-1]
    out = []
    for number, (seed, commands) in enumerate(matches, 1):
        key = (room.code, number, len(commands))
        game = _FINISHED.get(key)
        if game is not None:
            _FINISHED.move_to_end(key)
        else:
            rec = Record(room.variant, room.players, room.options, seed, commands=commands)
            try:
                game = rec.replay()
            except UnoError:
                continue
            if game.state != Phase.MATCH_OVER:
                continue
            _FINISHED[key] = game
            while len(_FINISHED) > FINISHED_CACHE:
                _FINISHED.popitem(last=False)
        out.append((number, game))
    return out


MAX_REPLAY_STEPS = 5000


def _replay_steps(rec: Record, seat: int | None) -> list[dict[str, Any]]:
    if len(rec.commands) > MAX_REPLAY_STEPS:
        raise RecordError(f"a record replayed here has at most {MAX_REPLAY_STEPS} commands")
    steps = []
    shown = 0
    last_round = -1
    for i, g in enumerate(rec.games()):
        obs = g.observe(seat).to_dict()
        history = obs.pop("history")
        if obs["round"] != last_round or len(history) < shown:
            shown = 0
        last_round = obs["round"]
        steps.append(
            {
                "command": rec.commands[i - 1] if i else None,
                "observation": obs,
                "events": history[shown:],
            }
        )
        shown = len(history)
    return steps


def _err(msg_id: int | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": msg_id, "code": code, "message": _printable(message)}


def _error(msg_id: int | None, code: str, message: str) -> str:
    return json.dumps(_err(msg_id, code, message))


def _validation_error(text: str, e: ValidationError) -> dict[str, Any]:
    try:
        data = from_json(text, allow_inf_nan=False)
    except ValueError as bad:  # also too deep a nesting (never Python's RecursionError)
        return _err(None, "bad_json", f"not JSON: {bad}")
    if not isinstance(data, dict):
        return _err(None, "bad_json", "a message is a JSON object")
    raw_id = data.get("id")
    msg_id = raw_id if type(raw_id) is int and 0 <= raw_id <= 2**53 else None
    problems = []
    for err in e.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in _UNION_TAGS)
        problems.append(f"{where or 'message'}: {err.get('msg', 'invalid')}")
    if "type" not in data:
        problems = [
            "type: missing (hello, command, next_round, new_match, ready, start, chat, ping, resync)"
        ]
    return _err(msg_id, "bad_message", "; ".join(problems))


_UNION_TAGS = {
    "hello",
    "command",
    "next_round",
    "new_match",
    "ready",
    "start",
    "chat",
    "ping",
    "resync",
}
