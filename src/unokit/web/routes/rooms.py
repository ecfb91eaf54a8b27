"""The lobby's rooms: create one, join one, read its info. In a cluster, a
room another process owns is asked of that process (:meth:`ClusterHub.forward_call`,
answered there by :func:`owner_call`)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request

from unokit.bots import bot_names, make_bot
from unokit.engine.errors import UnoError
from unokit.engine.game import Game
from unokit.engine.options import Options
from unokit.engine.variants import VARIANTS
from unokit.web.botpool import INLINE_LEVELS
from unokit.web.cluster import Elsewhere
from unokit.web.errors import ProtocolError
from unokit.web.hub import Hub
from unokit.web.messages import CreateRoom, JoinRoom
from unokit.web.room import Room
from unokit.web.routes.common import Server, ServerDep, api_router, room_or_404, seat_reply
from unokit.web.store import StorageError

__all__ = ["owner_call", "refuse_if_busy", "router"]

router = api_router()


@router.post("/api/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request, srv: ServerDep) -> dict[str, Any]:
    srv.limiter.check(request)
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
    refuse_if_busy(srv.hub, [level for _, level in specs])
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
        room, seat, token = await srv.hub.create(
            body.variant, specs, options, body.turn_timer, body.name, host
        )
        reserved = []
        for i in external:  # claimed now: their tokens go to the host (docs/bot-api.md)
            t = token if i == seat else (await room.claim(body.seats[i].name or f"Bot P{i}", i))[1]
            reserved.append({"seat": i, "token": t})
    except StorageError as e:
        raise HTTPException(503, f"storage error: {e}") from None
    except ProtocolError as e:  # pragma: no cover - the seats were free a moment ago
        raise HTTPException(409, e.message) from None
    reply = seat_reply(room, seat, token)
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
    return seat_reply(room, seat, token)


async def forwarded(
    srv: Server, code: str, call: str, args: dict[str, Any], request: Request
) -> Any:
    """Run ``call`` on the owner of room ``code`` (cluster); None if this
    process owns the room now."""
    assert srv.cluster is not None
    status, body = await srv.cluster.forward_call(code, call, args)
    if status == -1:
        return None
    if status == 404:
        srv.misses.check(request)
    if status != 200:
        raise HTTPException(status, str(body))
    return body


async def owner_call(srv: Server, code: str, call: str, args: dict[str, Any]) -> tuple[int, Any]:
    """A lobby call forwarded by another process of the cluster."""
    try:
        room = await srv.hub.get(code)
        if room is None:
            return 404, f"no room {code!r}"
        if call == "join":
            return 200, await join(room, str(args["name"]), args.get("seat"))
        return 200, room.info()
    except HTTPException as e:
        return e.status_code, e.detail
    except StorageError as e:
        return 503, f"storage error: {e}"


@router.post("/api/rooms/{code}/join")
async def join_room(code: str, body: JoinRoom, request: Request, srv: ServerDep) -> dict[str, Any]:
    srv.limiter.check(request)
    while True:
        try:
            room = await room_or_404(srv, code, request)
        except Elsewhere:
            out = await forwarded(
                srv, code, "join", {"name": body.name, "seat": body.seat}, request
            )
            if out is None:
                continue
            return dict(out)
        return await join(room, body.name, body.seat)


@router.get("/api/rooms/{code}")
async def room_info(code: str, request: Request, srv: ServerDep) -> dict[str, Any]:
    while True:
        try:
            room = await room_or_404(srv, code, request)
        except Elsewhere:
            out = await forwarded(srv, code, "info", {}, request)
            if out is None:
                continue
            return dict(out)
        return room.info()


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
