"""What the routes share: the server's parts (:class:`Server`, kept in
``app.state.server`` by :func:`unokit.web.app.create_app` and given to each route
by the :data:`ServerDep` dependency), the room lookup, the seat reply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from starlette.requests import HTTPConnection

from unokit.web.botpool import WorkerPool
from unokit.web.cluster import ClusterHub
from unokit.web.config import Settings
from unokit.web.hardening import AddressLimiter, RestLimiter, StrictJSONRoute
from unokit.web.hub import Hub
from unokit.web.room import Room
from unokit.web.store import StorageError, Store

__all__ = ["Server", "ServerDep", "api_router", "room_or_404", "seat_reply", "server"]


@dataclass
class Server:
    """The parts of one server process the routes use."""

    settings: Settings
    store: Store
    hub: Hub
    #: the cluster's hub (the same object as ``hub``), or None for one process
    cluster: ClusterHub | None
    #: lobby calls (create, join, quick play) per client address
    limiter: RestLimiter
    #: unknown room codes per client address: no guessing
    misses: RestLimiter
    #: WebSocket messages per client address, all its connections together
    per_address: AddressLimiter
    #: replays (and any other CPU-heavy request) run in a worker process of their own
    heavy: WorkerPool
    replays: RestLimiter
    #: the replies of /api/meta and /api/protocol.schema.json (made once)
    meta: dict[str, Any]
    schema: dict[str, Any]


def server(conn: HTTPConnection) -> Server:
    """The :class:`Server` of the app that received ``conn`` (a dependency)."""
    srv: Server = conn.app.state.server
    return srv


ServerDep = Annotated[Server, Depends(server)]


def api_router() -> APIRouter:
    """A router whose JSON bodies are checked strictly (:class:`StrictJSONRoute`)."""
    return APIRouter(route_class=StrictJSONRoute)


async def room_or_404(srv: Server, code: str, request: Request) -> Room:
    """The room ``code``; 503 if it cannot be loaded, 404 (counted against the
    client's unknown-room limit) if there is none."""
    try:
        room = await srv.hub.get(code)
    except StorageError as e:
        raise HTTPException(503, f"storage error: {e}") from None
    if room is None:
        srv.misses.check(request)
        raise HTTPException(404, f"no room {code!r}")
    return room


def seat_reply(room: Room, seat: int, token: str) -> dict[str, Any]:
    """The answer to a player who took a seat (creating or joining a room)."""
    return {
        "room": room.code,
        "invite": f"/r/{room.code}",
        "seat": seat,
        "token": token,
        "info": room.info(),
    }
