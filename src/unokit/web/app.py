"""The FastAPI application: its parts, middlewares, error replies and routes.

The routes are grouped by resource in :mod:`unokit.web.routes` (meta, rooms,
table, records, pages, ws); what every request passes first is in
:mod:`unokit.web.hardening` and :mod:`unokit.web.security`. The protocol is
documented in docs/protocol.md; the message models are in
:mod:`unokit.web.messages`; rooms and their games in :mod:`unokit.web.room`.

>>> from unokit.web.config import Settings
>>> app = create_app(Settings(db_url="sqlite:///:memory:"))
>>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api/rooms"))[:3]
['/api/rooms', '/api/rooms/{code}', '/api/rooms/{code}/back']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from unokit.web.botpool import WorkerPool
from unokit.web.cluster import ClusterHub
from unokit.web.config import Settings
from unokit.web.hardening import (
    AddressLimiter,
    BodyLimit,
    RestLimiter,
    StrictJSONRoute,
    json_error,
    printable,
)
from unokit.web.hub import Hub
from unokit.web.messages import protocol_schema
from unokit.web.routes import meta, pages, records, rooms, table, ws
from unokit.web.routes.common import Server
from unokit.web.routes.pages import STATIC_DIR
from unokit.web.security import SecurityHeaders
from unokit.web.store import Store

__all__ = ["create_app", "STATIC_DIR"]


def _validation_detail(errors: Any) -> list[dict[str, Any]]:
    """FastAPI's 422 ``detail`` without the echoed input (it may not be encodable)."""
    return [
        {
            "type": str(e.get("type", "invalid")),
            "loc": [p if isinstance(p, int) else printable(str(p)) for p in e.get("loc", ())],
            "msg": printable(str(e.get("msg", "invalid"))),
        }
        for e in list(errors)[:20]
    ]


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


def create_app(settings: Settings) -> FastAPI:
    """The web application, storing its rooms in ``settings.db_url``."""
    store = Store(settings.db_url, sqlite_synchronous=settings.sqlite_synchronous)
    cluster: ClusterHub | None = None
    if settings.broker_url:
        cluster = ClusterHub(settings, store, settings.broker_url, lease=settings.lease)
    hub: Hub = cluster or Hub(settings, store)
    srv = Server(
        settings=settings,
        store=store,
        hub=hub,
        cluster=cluster,
        limiter=RestLimiter(settings.rest_per_minute),
        misses=RestLimiter(settings.rest_per_minute),
        per_address=AddressLimiter(settings.addr_rate, settings.addr_burst),
        heavy=WorkerPool(1, queue_limit=4, hang_timeout=60.0, name="request"),
        replays=RestLimiter(settings.replay_per_minute),
        meta=meta.meta_reply(),
        schema=protocol_schema(),
    )
    limiter, misses, per_address, heavy = srv.limiter, srv.misses, srv.per_address, srv.heavy

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.start)
        if cluster is not None:
            cluster.frame = functools.partial(ws.on_frame, srv)
            cluster.call = functools.partial(rooms.owner_call, srv)
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
    app.state.server = srv
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

    for router in (meta, rooms, table, records, pages):
        app.include_router(router.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    app.include_router(ws.router)
    return app
