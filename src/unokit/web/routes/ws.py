"""The WebSocket of a room (docs/protocol.md): one per client, each frame
rate-limited, size-checked and validated, then handed to the room. In a
cluster, a client of a room another process owns is relayed there, and the
frames relayed from other processes come in through :func:`on_frame`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError
from pydantic_core import from_json
from starlette.websockets import WebSocketDisconnect

from unokit.web import chat
from unokit.web.cluster import Elsewhere
from unokit.web.conn import Conn
from unokit.web.direct import direct_socket
from unokit.web.errors import ProtocolError
from unokit.web.hardening import Message, printable
from unokit.web.messages import (
    CLIENT_MESSAGE,
    ChatMsg,
    CommandMsg,
    HelloMsg,
    NewMatchMsg,
    NextRoundMsg,
    PingMsg,
    ReadyMsg,
    ResyncMsg,
    StartMsg,
)
from unokit.web.routes.common import Server, ServerDep, api_router
from unokit.web.store import StorageError

__all__ = ["on_frame", "router"]

log = logging.getLogger("unokit.web")

router = api_router()


@router.websocket("/ws/{code}")
async def websocket(ws: WebSocket, code: str, srv: ServerDep) -> None:
    await ws.accept()
    while True:
        try:
            room = await srv.hub.get(code)
            break
        except Elsewhere:  # another process of the cluster owns the room
            assert srv.cluster is not None
            if await srv.cluster.relay(ws, code, ws.client.host if ws.client else "?"):
                return
        except StorageError as e:
            await ws.send_text(_error(None, "storage", str(e)))
            await ws.close(1011)
            return
    if room is None:
        host = ws.client.host if ws.client else "?"
        if srv.misses.allow(host):
            await ws.send_text(_error(None, "no_room", f"no room {code!r}"))
            await ws.close(4404)
        else:
            await ws.send_text(_error(None, "rate_limited", "too many unknown rooms"))
            await ws.close(1008)
        return
    if len(room.conns) >= srv.settings.max_room_conns:
        await ws.send_text(_error(None, "bad_state", "this room has too many connections"))
        await ws.close(1013)
        return
    conn = Conn(direct_socket(ws, ws.scope), room, srv.settings)
    conn.host = ws.client.host if ws.client else "?"
    room.attach(conn)
    conn.start()
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await on_frame(srv, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        conn.room.detach(conn)
        if conn.writer is not None:
            conn.writer.cancel()
            with contextlib.suppress(BaseException):
                await conn.writer


async def on_frame(srv: Server, conn: Conn, message: Message) -> None:
    """One frame of a client (text or bytes), here or relayed by another process.

    Messages are text frames (protocol.md). A binary frame is refused:
    ``bad_json`` if it is not UTF-8 (also a text frame that is not UTF-8,
    which the server's protocol hands on as bytes: web/serving.py), else
    ``bad_message``; ``too_large`` past the size limit."""
    text = message.get("text")
    if text is None:
        if not _admit(srv, conn):
            return
        data = message.get("bytes") or b""
        if len(data) > srv.settings.max_message:
            conn.send(
                _err(None, "too_large", f"messages are limited to {srv.settings.max_message} bytes")
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
    await handle(srv, conn, text)


def _admit(srv: Server, conn: Conn) -> bool:
    """Rate limits (the connection's, then its address's); returns False if
    the message is to be dropped."""
    if conn.allow():
        if srv.per_address.allow(conn.host):
            return True
        conn.dropped += 1
    if conn.dropped >= srv.settings.flood_close:
        asyncio.get_running_loop().create_task(conn.close(1008, "flood"))
        return False
    now = time.monotonic()
    if now - conn.last_rate_error >= 1.0:
        conn.last_rate_error = now
        conn.send(_err(None, "rate_limited", "too many messages; this one was dropped"))
    return False


async def handle(srv: Server, conn: Conn, text: str) -> None:
    if not _admit(srv, conn):
        return
    if (
        len(text) > srv.settings.max_message
        or len(text.encode("utf-8", "surrogatepass")) > srv.settings.max_message
    ):
        conn.send(
            _err(None, "too_large", f"messages are limited to {srv.settings.max_message} bytes")
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
        if e.code == "illegal":
            reply["reason"] = e.reason
        conn.send(reply)
    except StorageError as e:
        log.warning("room %s: storage error: %s", room.code, e)
        conn.send(_err(msg_id, "storage", "the change could not be stored; nothing changed"))
    except Exception:
        log.exception("room %s: internal error on %r", room.code, text[:200])
        conn.send(_err(msg_id, "internal", "internal server error; nothing changed"))


def _err(msg_id: int | None, code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "id": msg_id, "code": code, "message": printable(message)}


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
