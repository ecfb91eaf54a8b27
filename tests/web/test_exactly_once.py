"""Exactly-once commands (issue 13): a command names the version it was decided
on; a client whose socket died right after sending resends it on a new socket
and the command is applied once, for every kind of command; a command decided
on an old version is refused with the current version and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import unokit.web.room as room_module
from unokit.web.room import Room

pytestmark = pytest.mark.timeout(120)

COMMANDS = {"PLAY", "DRAW", "PASS", "COLOR", "ACCEPT", "CHALLENGE", "UNO", "CATCH"}


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    return room


def seated(client: TestClient, rh: Any, code: str, token: str) -> Any:
    s = rh.connect(client, code)
    ws = rh.wrap(s.__enter__())
    ws.ctx = s
    ws.send({"type": "hello", "token": token})
    ws.state()
    return ws


def kind_of(msg: dict[str, Any]) -> str:
    return str(msg["text"].split()[1]) if msg["type"] == "command" else str(msg["type"])


def candidates(room: Room) -> list[tuple[int, dict[str, Any]]]:
    g = room.game
    assert g is not None
    phase = g.state.name
    if phase == "ROUND_OVER":
        return [(0, {"type": "next_round"})]
    if phase == "MATCH_OVER":
        return [(0, {"type": "new_match"})]
    return [
        (seat, {"type": "command", "text": str(a)})
        for seat in (0, 1)
        for a in g.legal_actions(seat)
    ]


@pytest.mark.parametrize(
    ("options", "kinds"),
    [
        ({}, COMMANDS),
        # one card each: rounds and matches end fast
        ({"handSize": 1, "targetScore": 40}, {"next_round", "new_match"}),
    ],
    ids=["commands", "rounds"],
)
def test_every_kind_of_command_is_applied_exactly_once(
    client: TestClient,
    room_helpers: Any,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, Any],
    kinds: set[str],
    settings: Any,
) -> None:
    settings.ready_wait = 0.0  # the host deals without the ready check (test_ready_check)
    # seed 25 deals a first card that is a wild: the first command is a COLOR
    monkeypatch.setattr(room_module, "new_seed", lambda: 25)
    rh = room_helpers
    out = rh.create(client, "classic", [{"kind": "human"}] * 2, options=options)
    code = out["room"]
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "B"}).json()
    tokens = {0: out["token"], 1: joined["token"]}
    rnd = random.Random(13)
    covered: set[str] = set()
    live = {seat: seated(client, rh, code, tokens[seat]) for seat in (0, 1)}
    next_id = 100
    for _ in range(1500):
        if covered == kinds:
            break
        room = room_of(client, code)
        options = candidates(room)
        fresh = [c for c in options if kind_of(c[1]) in kinds - covered]
        # playing down to one card without UNO makes a catch possible
        plain = [c for c in options if "uno=true" not in c[1].get("text", "")]
        plays = [c for c in plain if kind_of(c[1]) == "PLAY"]
        seat, msg = rnd.choice(fresh or (plays if "PLAY" not in kinds else []) or plain or options)
        v, n = room.version, rh.stored(client, code)
        msg = {**msg, "version": v}
        next_id += 3
        if kind_of(msg) not in kinds - covered:
            ws = live[seat]
            ws.send({**msg, "id": next_id})
            assert ws.reply(next_id)["type"] == "ack"
            continue
        # the socket dies right after the command is sent ...
        with rh.connect(client, code) as s:
            ws = rh.wrap(s)
            ws.send({"type": "hello", "token": tokens[seat]})
            ws.state()
            ws.send({**msg, "id": next_id})
        # ... the client reconnects and resends it: applied once
        with rh.connect(client, code) as s:
            ws = rh.wrap(s)
            ws.send({"type": "hello", "token": tokens[seat]})
            ws.state()
            ws.send({**msg, "id": next_id + 1})
            ack = ws.reply(next_id + 1)
            assert ack["type"] == "ack" and ack["version"] == v + 1, (msg, ack)
            ws.send({**msg, "id": next_id + 2})  # and once more: the same ack
            again = ws.reply(next_id + 2)
            assert again == {"type": "ack", "id": next_id + 2, "version": v + 1, "replay": True}
        room = room_of(client, code)
        assert room.version == v + 1 and rh.stored(client, code) == n + 1, msg
        covered.add(kind_of(msg))
    for ws in live.values():
        ws.ctx.__exit__(None, None, None)
    assert covered == kinds


def test_start_is_applied_exactly_once(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(client, "classic", [{"kind": "human"}] * 3)
    code = out["room"]
    room = room_of(client, code)
    assert room.status == "lobby" and room.version == 0
    for i in (1, 2, 3):
        with room_helpers.connect(client, code) as s:
            ws = room_helpers.wrap(s)
            ws.send({"type": "hello", "token": out["token"]})
            ws.state()
            ws.send({"type": "start", "id": i, "version": 0, "level": "random"})
            if i > 1:
                assert ws.reply(i) == {"type": "ack", "id": i, "version": 1, "replay": True}
    assert room.status == "playing" and room.match == 1
    assert room_helpers.stored(client, code) >= 1 and room.log[0].startswith("#MATCH ")
    assert sum(line.startswith("#MATCH ") for line in room.log) == 1


def test_stale_and_future_versions_are_refused(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "B"}).json()["token"]
    room = room_of(client, code)
    g = room.game
    assert g is not None and g.to_act is not None
    seat = g.to_act
    token = out["token"] if seat == 0 else t1
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": token})
        ws.state()
        # a legal first command (the deal may wait for a colour: DRAW is not always one)
        first = str(g.legal_actions(seat)[0])
        ws.send({"type": "command", "id": 1, "text": first, "version": 1})
        assert ws.reply(1)["type"] == "ack"
        n = room_helpers.stored(client, code)
        v = room.version
        # a command decided on an old version, not the one stored after it: stale
        ws.send({"type": "command", "id": 2, "text": "DRAW", "version": 0})
        err = ws.reply(2)
        assert err["code"] == "stale" and err["version"] == v
        ws.send({"type": "command", "id": 3, "text": "DRAW", "version": v + 5})
        err = ws.reply(3)
        assert err["code"] == "bad_version" and err["version"] == v
        ws.send({"type": "next_round", "id": 4, "version": 0})
        assert ws.reply(4)["code"] == "stale"
        assert room.version == v and room_helpers.stored(client, code) == n


def test_replay_survives_a_reload(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "B"}).json()["token"]
    room = room_of(client, code)
    g = room.game
    assert g is not None and g.to_act is not None
    token = out["token"] if g.to_act == 0 else t1
    # a legal first command (the deal may wait for a colour: DRAW is not always one)
    msg = {"type": "command", "text": str(g.legal_actions(g.to_act)[0]), "version": 1}
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": token})
        ws.state()
        ws.send({**msg, "id": 1})
        assert ws.reply(1) == {"type": "ack", "id": 1, "version": 2}
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(_evict, hub, room)  # type: ignore[attr-defined]
    with room_helpers.connect(client, code) as s:  # the room is rebuilt from the database
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": token})
        ws.state()
        ws.send({**msg, "id": 2})
        assert ws.reply(2) == {"type": "ack", "id": 2, "version": 2, "replay": True}
    assert room_of(client, code) is not room and room_of(client, code).version == 2


async def _evict(hub: Any, room: Room) -> None:
    hub.evict(room)
