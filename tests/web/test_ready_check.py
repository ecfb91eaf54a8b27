"""The ready check between rounds and the rematch vote (issue 30, docs/protocol.md
``ready``): the next round (or match) waits for every person's Ready; bots,
open seats and people who are not connected do not hold it up."""

from __future__ import annotations

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
        assert st["info"]["ready"] == [] and room.log[-1] == "NEXT"
        assert room.game.state.name == "AWAIT_TURN"
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
        ws.send({"type": "ready", "id": 1})
        assert ws.reply(1)["type"] == "ack"
        assert room.log[-1] == "NEXT"
