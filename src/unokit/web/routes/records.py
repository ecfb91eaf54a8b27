"""Game records of the web rooms: the finished matches of the rooms a page
holds seats of (``/api/history``), the deal commitment of the round in play, a
finished match as a record (docs/record-format.md), and a record replayed step
by step for the replay view (in a worker process)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import Response

from unokit.engine.errors import RecordError, UnoError
from unokit.engine.game import Game, Phase
from unokit.records.record import Record
from unokit.records.record import loads as record_loads
from unokit.web.botpool import WorkerLost
from unokit.web.deals import current_deal
from unokit.web.deals import match_record as web_record
from unokit.web.room import Room
from unokit.web.routes.common import ServerDep, api_router, room_or_404
from unokit.web.store import StorageError
from unokit.web.table_api import HistoryBody, RecordBody, ReplayBody

__all__ = ["FINISHED_CACHE", "MAX_REPLAY_STEPS", "replay_json", "router"]

log = logging.getLogger("unokit.web")

router = api_router()


@router.post("/api/history")
async def history(body: HistoryBody, srv: ServerDep) -> dict[str, Any]:
    """The finished matches of the rooms whose seat tokens the page holds."""
    games: list[dict[str, Any]] = []
    for item in body.rooms:
        try:
            room = await srv.hub.get(item.room)
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


@router.get("/api/rooms/{code}/deal")
async def deal_commitment(code: str, request: Request, srv: ServerDep) -> dict[str, Any]:
    """The commitment to the round in play (docs/record-format.md): keep it,
    and check it against the salt the match's record reveals."""
    room = await room_or_404(srv, code, request)
    deal = await asyncio.to_thread(current_deal, room)
    if deal is None:
        raise HTTPException(409, "no round has been dealt in this room yet")
    return deal


@router.post("/api/rooms/{code}/record")
async def match_record(code: str, body: RecordBody, request: Request, srv: ServerDep) -> Response:
    """A finished match of the room as a game record (docs/record-format.md).

    Only finished matches are offered: by then every round's deal is
    revealed to every seat anyway (the deal commitments of
    docs/record-format.md), so the full record tells no seat more than
    its own view does, and it can be replayed step by step."""
    room = await room_or_404(srv, code, request)
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


@router.post("/api/replay")
async def replay(body: ReplayBody, request: Request, srv: ServerDep) -> Response:
    """Every step of a record as the given seat saw it, for the replay view.

    A long record costs seconds of CPU: it is read and replayed in a worker
    process (the rooms go on meanwhile), at most ``replay_per_minute``
    times a minute per client address."""
    host = request.client.host if request.client else "?"
    if not srv.replays.allow(host):
        raise HTTPException(
            429, "too many replays; try again in a minute", headers={"Retry-After": "60"}
        )
    if srv.heavy.full():
        wait = srv.heavy.retry_after()
        raise HTTPException(
            503, f"the server is busy with replays; try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )  # fmt: skip
    try:
        text = await srv.heavy.run(replay_json, body.record, body.seat)
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
