"""Incremental updates (issue 13): a client that asks for deltas in its hello
gets one full snapshot, then versioned deltas; applying them gives exactly the
state a snapshot client sees at every version. A client that misses a version
asks to resync and gets the same snapshot as a fresh join; a client too far
behind the bounded delta history gets a snapshot."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit.web.room import Room
from unokit.web.views import DELTA_HISTORY

from .conftest import apply_delta

pytestmark = pytest.mark.timeout(120)


class Follower:
    """A client's view: the last snapshot with every delta applied."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.kinds: list[str] = []

    def take(self, m: dict[str, Any]) -> None:
        if m["type"] in ("state", "delta"):
            self.kinds.append(m["type"])
        if m["type"] == "state":
            self.state = m
        elif m["type"] == "delta":
            assert self.state is not None
            self.state = apply_delta(self.state, m)

    def settle(self, ping: int) -> dict[str, Any]:
        self.ws.send({"type": "ping", "id": ping})
        while True:
            m = self.ws.recv()
            if m["type"] == "pong" and m["id"] == ping:
                assert self.state is not None
                return self.state
            self.take(m)


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(state)
    out.pop("remaining", None)  # seconds left when it was built
    return out


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    return room


def open_follower(
    client: TestClient, rh: Any, code: str, hello: dict[str, Any], stack: list[Any]
) -> Follower:
    ctx = rh.connect(client, code)
    stack.append(ctx)
    f = Follower(rh.wrap(ctx.__enter__()))
    f.ws.send({"type": "hello", **hello})
    return f


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_deltas_rebuild_every_snapshot(client: TestClient, room_helpers: Any, variant: str) -> None:
    rh = room_helpers
    out = rh.create(client, variant, [{"kind": "human"}] * 2, options={"targetScore": 60})
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    tokens = {0: out["token"], 1: t1}
    stack: list[Any] = []
    try:
        delta = {
            s: open_follower(client, rh, code, {"token": tokens[s], "deltas": True}, stack)
            for s in (0, 1)
        }
        full = {s: open_follower(client, rh, code, {"token": tokens[s]}, stack) for s in (0, 1)}
        delta[None] = open_follower(client, rh, code, {"spectate": True, "deltas": True}, stack)  # type: ignore[index]
        full[None] = open_follower(client, rh, code, {"spectate": True}, stack)  # type: ignore[index]
        rnd = random.Random(7)
        ping = 10**6
        steps = 0
        while steps < 120:
            room = room_of(client, code)
            for key in delta:
                ping += 1
                got = comparable(delta[key].settle(ping))
                want = comparable(full[key].settle(ping + 10**5))
                assert got["version"] == want["version"] == room.version
                assert got == want, (key, room.version)
            g = room.game
            assert g is not None
            if g.state.name == "MATCH_OVER":
                if steps > 20:
                    break
                # the room's seed is random: a short match goes on with the next one
                seat, msg = 0, {"type": "new_match"}
            elif g.state.name == "ROUND_OVER":
                seat, msg = 0, {"type": "next_round"}
            else:
                seat = g.to_act
                assert seat is not None
                msg = {"type": "command", "text": str(rnd.choice(g.legal_actions(seat)))}
            full[seat].ws.send({**msg, "id": steps, "version": room.version})
            ping += 1
            full[seat].settle(ping)  # its command is handled (and broadcast) before the ping
            steps += 1
        assert steps > 20
        # after the first snapshot, a delta client only got deltas
        for key in delta:
            kinds = delta[key].kinds
            assert kinds[0] == "state" and set(kinds[1:]) == {"delta"}, kinds[:5]
    finally:
        for ctx in reversed(stack):
            ctx.__exit__(None, None, None)


def test_a_missed_version_resyncs_to_a_fresh_join(client: TestClient, room_helpers: Any) -> None:
    rh = room_helpers
    out = rh.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    tokens = {0: out["token"], 1: t1}
    with rh.connect(client, code) as s:
        ws = rh.wrap(s)
        ws.send({"type": "hello", "token": tokens[0], "deltas": True})
        state = ws.state()
        # the other player moves twice; this client loses the first delta
        with rh.connect(client, code) as s1, rh.connect(client, code) as s0:
            p = {0: rh.wrap(s0), 1: rh.wrap(s1)}
            for seat in (0, 1):
                p[seat].send({"type": "hello", "token": tokens[seat]})
                p[seat].state()
            for i in range(2):
                g = room_of(client, code).game
                assert g is not None and g.to_act is not None
                seat = g.to_act
                text = str(g.legal_actions(seat)[-1])
                p[seat].send({"type": "command", "id": i, "text": text})
                assert p[seat].reply(i)["type"] == "ack"
        deltas = []
        while len(deltas) < 2:
            m = ws.recv()
            if m["type"] == "delta" and m["from"] != m["version"]:
                deltas.append(m)
        lost, second = deltas
        assert second["from"] != state["version"]  # a gap: the client cannot apply it
        ws.send({"type": "resync", "id": 5})
        snap = ws.state()
        assert snap["version"] == room_of(client, code).version
    with rh.connect(client, code) as s:  # a fresh join
        fresh = rh.wrap(s)
        fresh.send({"type": "hello", "token": tokens[0]})
        assert table(fresh.state()) == table(snap)
    # and the deltas it did get, applied in order, give the same table too
    assert table(apply_delta(apply_delta(state, lost), second)) == table(snap)


def table(state: dict[str, Any]) -> dict[str, Any]:
    """What a state shows, without who is connected at the moment."""
    out = comparable(state)
    for seat in out["info"]["seats"]:
        del seat["connected"]
    return out


def test_too_far_behind_gets_a_snapshot(client: TestClient, room_helpers: Any) -> None:
    rh = room_helpers
    out = rh.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    client.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
    with rh.connect(client, code) as s:
        ws = rh.wrap(s)
        ws.send({"type": "hello", "token": out["token"], "deltas": True})
        ws.state()
        ws.ping()
        room = room_of(client, code)
        (conn,) = [c for c in room.conns if c.deltas]
        # as if this client were DELTA_HISTORY + 1 versions behind
        assert room._chain(conn.seat, room.version - DELTA_HISTORY - 1) is None

        def behind() -> None:
            conn.sent_version = room.version - 1  # not in the history either: a snapshot
            conn.send_state()

        client.portal.call(behind)  # type: ignore[attr-defined]  # on the server's loop
        assert ws.until(lambda m: m["type"] in ("state", "delta"))["type"] == "state"


def test_a_delta_client_gets_its_ack_inside_the_delta(
    client: TestClient, room_helpers: Any
) -> None:
    """One message per command for a delta client: the delta of the command's
    version carries ``"ack": id`` (no separate ack); the other seat's delta of
    the same version carries none; a replay is still answered with an ack."""
    rh = room_helpers
    out = rh.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    tokens = {0: out["token"], 1: t1}
    with rh.connect(client, code) as s0, rh.connect(client, code) as s1:
        p = {0: Follower(rh.wrap(s0)), 1: Follower(rh.wrap(s1))}
        for seat in (0, 1):
            p[seat].ws.send({"type": "hello", "token": tokens[seat], "deltas": True})
            p[seat].take(p[seat].ws.state())
        for i in range(6):
            g = room_of(client, code).game
            assert g is not None and g.to_act is not None
            seat = g.to_act
            v = room_of(client, code).version
            cmd = {"type": "command", "id": 50 + i, "text": str(g.legal_actions(seat)[-1]),
                   "version": v}  # fmt: skip
            p[seat].ws.send(cmd)
            mine = p[seat].ws.until(lambda m: m["type"] in ("ack", "error", "delta")
                                    and m.get("from") != m.get("version"))  # fmt: skip
            assert mine["type"] == "delta" and mine["ack"] == 50 + i, mine
            assert mine["from"] == v and mine["version"] == v + 1
            p[seat].take(mine)
            theirs = p[1 - seat].ws.until(
                lambda m, v=v: m["type"] == "delta" and m["version"] == v + 1
            )
            assert "ack" not in theirs
            p[1 - seat].take(theirs)
            # applied once: the same command again is a replay, acknowledged apart
            p[seat].ws.send({**cmd, "id": 70 + i})
            assert p[seat].ws.reply(70 + i) == {
                "type": "ack", "id": 70 + i, "version": v + 1, "replay": True,
            }  # fmt: skip
            assert room_of(client, code).version == v + 1
        for seat in (0, 1):
            got = comparable(p[seat].settle(900 + seat))
            with rh.connect(client, code) as s:
                fresh = rh.wrap(s)
                fresh.send({"type": "hello", "token": tokens[seat]})
                want = comparable(fresh.state())
            assert table(got) == table(want)
        # no separate ack was ever sent for a fresh command of a delta client
        seen = [m for f in p.values() for m in f.ws.seen]
        assert all(m.get("replay") for m in seen if m["type"] == "ack")


def test_an_ack_no_delta_carries_comes_alone_before_the_snapshot(
    client: TestClient, room_helpers: Any
) -> None:
    """A delta client due a snapshot (it resyncs, or its history is too far
    behind) when its command is stored gets the command's ack on its own,
    before the snapshot that shows the command; the command is applied once."""
    rh = room_helpers
    out = rh.create(client, "classic", [{"kind": "human"}] * 2)
    code = out["room"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()["token"]
    tokens = {0: out["token"], 1: t1}
    room = room_of(client, code)
    g = room.game
    assert g is not None and g.to_act is not None
    seat, v = g.to_act, room.version
    text = str(g.legal_actions(seat)[-1])
    with rh.connect(client, code) as s:
        ws = rh.wrap(s)
        ws.send({"type": "hello", "token": tokens[seat], "deltas": True})
        assert ws.state()["version"] == v
        ws.ping()
        (conn,) = [c for c in room.conns if c.deltas]
        conn.sent_version = None  # as after a resync: a snapshot is due next
        ws.send({"type": "command", "id": 5, "text": text, "version": v})
        first = ws.until(lambda m: m["type"] in ("ack", "state", "delta", "error"))
        assert first == {"type": "ack", "id": 5, "version": v + 1}, first
        snap = ws.until(lambda m: m["type"] in ("state", "delta"))
        assert snap["type"] == "state" and snap["version"] == v + 1
        assert "ack" not in snap
        ws.ping(77)
        assert room.version == v + 1 and room.log[v].startswith(f"P{seat} ")
        assert [m["type"] for m in ws.seen].count("ack") == 1
