"""The ready check between rounds and the rematch vote (issue 30, docs/protocol.md
``ready``): the next round (or match) waits for every person's Ready; bots,
open seats and people who are not connected do not hold it up."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from unokit import Game

from .test_ws import hello, room_of


def _over(scores: list[int]) -> Game:
    g = Game.setup("classic", 3, {"targetScore": 100}, hands=[["R5"], ["B1", "B2"], ["Y1", "Y2"]],
                   draw=["G1", "G2", "G3"], discard=["R9"], color="R", current=0,
                   scores=scores)  # fmt: skip
    g.apply("P0 PLAY R5")
    return g


def _place(client: Any, room: Any, g: Game) -> None:
    """The room's game, put at the end of a round (the states' observations are
    cached by version: the test reads the room and the info)."""

    async def place() -> None:
        async with room.lock:
            room.game = g
            room.over_at = time.time()  # as Room._applied notes the round's end
            room.changed(game_changed=True)

    client.portal.call(place)


def test_the_next_round_waits_for_every_person_then_a_rematch_vote(
    client: Any, room_helpers: Any
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    out = room_helpers.create(client, "classic", seats)
    code = out["room"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    room = room_of(client, code)
    with room_helpers.connect(client, code) as s0, room_helpers.connect(client, code) as s1:
        ann_ws, bob_ws = room_helpers.wrap(s0), room_helpers.wrap(s1)
        hello(ann_ws, out["token"])
        hello(bob_ws, bob["token"])
        _place(client, room, _over([0, 0, 0]))
        assert room.game.state.name == "ROUND_OVER"
        # Ann is ready: the round waits for Bob (the bot is ready at once)
        ann_ws.send({"type": "ready", "id": 1})
        assert ann_ws.reply(1)["type"] == "ack"
        bob_ws.state(lambda m: m["info"].get("ready") == [0])  # everyone sees who is ready
        assert room.game.state.name == "ROUND_OVER" and room.waiting_for() == [1]
        # a second Ready from Ann changes nothing
        ann_ws.send({"type": "ready", "id": 2})
        assert ann_ws.reply(2)["type"] == "ack"
        assert room.game.state.name == "ROUND_OVER"
        # Bob too: the next round is dealt, and the check starts again empty
        version = room.version
        bob_ws.send({"type": "ready", "id": 3})
        assert bob_ws.reply(3)["type"] == "ack"
        st = ann_ws.state(lambda m: m["version"] > version)
        # (the line after the round's end: the bot may already have played after it)
        assert st["info"]["ready"] == [] and room.log[version] == "NEXT"
        assert room.game.state.name not in ("ROUND_OVER", "MATCH_OVER")
        # during a round, ready is refused
        ann_ws.send({"type": "ready", "id": 4})
        assert ann_ws.reply(4)["code"] == "bad_state"
        # the match is over: a rematch when both say so
        _place(client, room, _over([95, 0, 0]))
        assert room.game.state.name == "MATCH_OVER"
        bob_ws.send({"type": "ready", "id": 5})
        assert bob_ws.reply(5)["type"] == "ack"
        assert room.match == 1
        ann_ws.send({"type": "ready", "id": 6})
        assert ann_ws.reply(6)["type"] == "ack"
        assert room.match == 2 and room.game.state.name != "MATCH_OVER"


def test_a_person_who_is_not_connected_does_not_hold_the_round(
    client: Any, room_helpers: Any
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    out = room_helpers.create(client, "classic", seats)
    code = out["room"]
    client.post(f"/api/rooms/{code}/join", json={"name": "Bob"})
    room = room_of(client, code)
    with room_helpers.connect(client, code) as s0:
        ws = room_helpers.wrap(s0)
        hello(ws, out["token"])
        _place(client, room, _over([0, 0, 0]))
        n = len(room.log)
        ws.send({"type": "ready", "id": 1})
        assert ws.reply(1)["type"] == "ack"
        assert room.log[n] == "NEXT"  # (the bot may already have played after it)


def test_only_the_host_may_go_on_and_only_after_the_wait(client: Any, room_helpers: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    out = room_helpers.create(client, "classic", seats)
    code = out["room"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    room = room_of(client, code)
    wait = room.hub.settings.ready_wait
    assert wait == 20.0  # the documented default (docs/protocol.md ``ready``)
    with room_helpers.connect(client, code) as s0, room_helpers.connect(client, code) as s1:
        ann_ws, bob_ws = room_helpers.wrap(s0), room_helpers.wrap(s1)
        hello(ann_ws, out["token"])
        hello(bob_ws, bob["token"])
        _place(client, room, _over([0, 0, 0]))
        # Bob is ready; Ann (the host) is not: Bob cannot deal without her
        bob_ws.send({"type": "ready", "id": 1})
        assert bob_ws.reply(1)["type"] == "ack"
        bob_ws.send({"type": "next_round", "id": 2})
        err = bob_ws.reply(2)
        assert err["code"] == "not_ready" and "only the host" in err["message"]
        # Ann is ready: dealt at once. Next round over: Bob is not ready
        n = len(room.log)
        ann_ws.send({"type": "ready", "id": 3})
        assert ann_ws.reply(3)["type"] == "ack" and room.log[n] == "NEXT"
        _place(client, room, _over([0, 0, 0]))
        # the host, before the wait: refused, with the seconds left
        ann_ws.send({"type": "next_round", "id": 4})
        err = ann_ws.reply(4)
        assert err["code"] == "not_ready" and "Bob" in err["message"] and " s" in err["message"]
        assert room.game.state.name == "ROUND_OVER"
        # the wait is over (the round ended that long ago): the host deals
        room.over_at -= wait
        n = len(room.log)
        ann_ws.send({"type": "next_round", "id": 5})
        assert ann_ws.reply(5)["type"] == "ack"
        assert room.log[n] == "NEXT" and room.over_at is None
        # the rematch vote too
        _place(client, room, _over([95, 0, 0]))
        ann_ws.send({"type": "new_match", "id": 6})
        assert ann_ws.reply(6)["code"] == "not_ready"
        room.over_at -= wait
        ann_ws.send({"type": "new_match", "id": 7})
        assert ann_ws.reply(7)["type"] == "ack" and room.match == 2


def test_the_ready_list_survives_a_restart(tmp_path: Path, server_factory: Any, net: Any) -> None:
    db = tmp_path / "ready.sqlite3"
    server = server_factory(f"sqlite:///{db}")
    server.start()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    body = {"variant": "classic", "seats": seats, "name": "Ann", "options": {"handSize": 1}}
    out = net.create(server.http, body)
    code = out["room"]
    bob = _post(f"{server.http}/api/rooms/{code}/join", {"name": "Bob"})
    tokens = [out["token"], bob["token"]]

    def connect() -> list[Any]:
        socks = []
        for token in tokens:
            ws = net.ws(f"{server.ws}/ws/{code}")
            ws.send({"type": "hello", "token": token})
            ws.until(lambda m: m["type"] == "welcome")
            socks.append(ws)
        return socks

    socks = connect()
    # one card each: both people play until the round is over
    st = socks[0].state()
    for msg_id in range(100):
        obs = st["observation"]
        if obs["phase"] == "ROUND_OVER":
            break
        cur = obs["current"]
        if cur in (0, 1):
            ws = socks[cur]
            at = st["version"]
            seen = st if cur == 0 else ws.state(lambda m, at=at: m["version"] >= at)
            mine = seen["observation"]["legal"]
            text = next((a for a in mine if "PLAY" in a), mine[0])
            ws.send({"type": "command", "id": msg_id, "text": text})
        st = socks[0].state(lambda m, v=st["version"]: m["version"] > v)
    else:
        raise AssertionError("the round did not end")
    assert st["observation"]["phase"] == "ROUND_OVER"
    socks[0].send({"type": "ready", "id": 500})
    socks[0].until(lambda m: m.get("id") == 500)
    socks[1].state(lambda m: m["info"]["ready"] == [0])
    server.kill()
    for ws in socks:
        ws.close()

    server.start()
    socks = connect()
    after = socks[1].state()
    assert after["info"]["ready"] == [0]  # Ann's Ready was kept
    assert after["observation"]["phase"] == "ROUND_OVER"
    # Bob is the last: his Ready deals the next round
    socks[1].send({"type": "ready", "id": 501})
    st = socks[1].state(lambda m: m["version"] > after["version"])
    assert st["info"]["ready"] == [] and st["observation"]["phase"] != "ROUND_OVER"
    for ws in socks:
        ws.close()


def _post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:  # noqa: S310 - 127.0.0.1 only
        return json.load(r)
