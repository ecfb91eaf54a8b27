"""The REST calls of the table's extras (docs/web.md): quick reactions, the
chat mode, public rooms and quick play, seats that go quiet or change hands."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import Response

from unokit.engine.options import Options
from unokit.web import chat
from unokit.web.errors import ProtocolError
from unokit.web.routes.common import ServerDep, api_router, room_or_404, seat_reply
from unokit.web.store import StorageError
from unokit.web.table_api import PublicBody, QuickPlayBody, ReactBody, SeatBody, TokenBody

__all__ = ["router"]

router = api_router()


def _http(e: ProtocolError) -> HTTPException:
    status = {"bad_token": 403, "forbidden": 403, "taken": 409, "rate_limited": 429}
    return HTTPException(status.get(e.code, 409 if e.code == "bad_state" else 422), e.message)


@router.post("/api/rooms/{code}/react", status_code=204)
async def react(code: str, body: ReactBody, request: Request, srv: ServerDep) -> Response:
    room = await room_or_404(srv, code, request)
    try:
        room.react(body.token, body.emoji)
    except ProtocolError as e:
        raise _http(e) from None
    return Response(status_code=204)


@router.post("/api/rooms/{code}/chat")
async def set_chat(
    code: str, body: chat.ChatModeBody, request: Request, srv: ServerDep
) -> dict[str, Any]:
    """The host sets who may chat: players (default), all, or off."""
    room = await room_or_404(srv, code, request)
    try:
        chat.set_mode(room, body.token, body.chat)
    except ProtocolError as e:
        raise _http(e) from None
    return {"chat": chat.gate(room).mode}


@router.post("/api/rooms/{code}/public")
async def set_public(
    code: str, body: PublicBody, request: Request, srv: ServerDep
) -> dict[str, Any]:
    room = await room_or_404(srv, code, request)
    try:
        room.set_public(body.token, body.public)
    except ProtocolError as e:
        raise _http(e) from None
    return room.info()


@router.post("/api/rooms/{code}/seats/{seat}")
async def hand_over(
    code: str, seat: int, body: SeatBody, request: Request, srv: ServerDep
) -> dict[str, Any]:
    room = await room_or_404(srv, code, request)
    try:
        await room.hand_over(body.token, seat, body.to)
    except ProtocolError as e:
        raise _http(e) from None
    except StorageError as e:
        raise HTTPException(503, f"storage error: {e}") from None
    return room.info()


@router.post("/api/rooms/{code}/back")
async def come_back(code: str, body: TokenBody, request: Request, srv: ServerDep) -> dict[str, Any]:
    room = await room_or_404(srv, code, request)
    try:
        await room.come_back(body.token)
    except ProtocolError as e:
        raise _http(e) from None
    return room.info()


@router.get("/api/public")
async def public_rooms(srv: ServerDep) -> dict[str, Any]:
    return {"rooms": [r.listing() for r in srv.hub.public_rooms()[:50]]}


@router.post("/api/quickplay")
async def quick_play(body: QuickPlayBody, request: Request, srv: ServerDep) -> dict[str, Any]:
    """A seat in a public room with a free seat, or a new public room whose
    other seats bots play until people take them (between rounds)."""
    srv.limiter.check(request)
    for room in srv.hub.public_rooms():
        if body.variant is not None and room.variant != body.variant:
            continue
        try:
            seat, token = await room.claim(body.name, None)
        except ProtocolError:
            continue  # taken meanwhile: try the next one
        except StorageError as e:
            raise HTTPException(503, f"storage error: {e}") from None
        return seat_reply(room, seat, token)
    variant = body.variant or "classic"
    specs: list[tuple[str, str | None]] = [("human", None)] * 4
    try:
        room, seat, token = await srv.hub.create(variant, specs, Options(), None, body.name)
        room.public = True
        async with room.lock:
            await room._start_match()
    except StorageError as e:
        raise HTTPException(503, f"storage error: {e}") from None
    return seat_reply(room, seat, token)
