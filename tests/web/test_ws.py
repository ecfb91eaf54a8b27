"""WebSocket protocol (Starlette TestClient): hello, commands, acks, errors and
hostile input. Every refused message must change nothing and leave the
connection working."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit import Game
from unokit.engine import codes
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import Phase
from unokit.web.app import create_app
from unokit.web.config import Settings
from unokit.web.room import Room
from unokit.web.timers import auto_action

pytestmark = pytest.mark.timeout(60)

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def two_player_room(
    client: TestClient, rh: Any, variant: str = "classic", **kw: Any
) -> tuple[str, str, str]:
    out = rh.create(client, variant, TWO_HUMANS, **kw)
    code = out["room"]
    other = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    return code, out["token"], other["token"]


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    return room


def hello(ws: Any, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    ws.send({"type": "hello", "token": token} if token else {"type": "hello", "spectate": True})
    welcome = ws.until(lambda m: m["type"] == "welcome")
    return welcome, ws.state()


def test_hello_gives_own_observation(client: TestClient, room_helpers: Any) -> None:
    code, t0, t1 = two_player_room(client, room_helpers)
    game = room_of(client, code).game
    assert game is not None
    for token, seat in ((t0, 0), (t1, 1)):
        with room_helpers.connect(client, code) as s:
            ws = room_helpers.wrap(s)
            welcome, st = hello(ws, token)
            assert welcome == {
                "type": "welcome",
                "protocol": 1,
                "room": code,
                "seat": seat,
                "spectator": False,
                "host": seat == 0,
            }
            obs = st["observation"]
            assert obs == json.loads(json.dumps(game.observe(seat).to_dict()))
            assert st["seat"] == seat and st["version"] == 1
            assert st["info"]["seats"][seat]["connected"] is True


def test_spectator_sees_no_hand_and_cannot_act(client: TestClient, room_helpers: Any) -> None:
    code, _, _ = two_player_room(client, room_helpers)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        welcome, st = hello(ws, None)
        assert welcome["seat"] is None and welcome["spectator"] is True
        obs = st["observation"]
        assert obs["hand"] == [] and obs["legal"] == [] and obs["seat"] is None
        assert st["info"]["spectators"] == 1
        ws.send({"type": "command", "id": 1, "text": "DRAW"})
        assert ws.reply(1)["code"] == "spectator"
        ws.send({"type": "next_round", "id": 2})
        assert ws.reply(2)["code"] == "spectator"
        assert room_of(client, code).version == 1


def test_bad_tokens_and_wrong_rooms(client: TestClient, room_helpers: Any) -> None:
    code_a, ta, _ = two_player_room(client, room_helpers)
    code_b, tb, _ = two_player_room(client, room_helpers)
    with room_helpers.connect(client, code_b) as s:
        ws = room_helpers.wrap(s)
        ws.send({"type": "command", "id": 1, "text": "DRAW"})
        assert ws.reply(1)["code"] == "not_joined"
        for bad in (ta, "x", tb[:-1], tb + "x", "é" * 50):
            ws.send({"type": "hello", "id": 2, "token": bad})
            assert ws.reply(2)["code"] == "bad_token"
        ws.send({"type": "hello", "id": 3, "token": tb, "spectate": True})
        assert ws.reply(3)["code"] == "bad_message"
        ws.ping()
        welcome, _ = hello(ws, tb)
        assert welcome["seat"] == 0
        ws.send({"type": "hello", "id": 4, "token": tb})
        assert ws.reply(4)["code"] == "already_joined"
    with room_helpers.connect(client, "abcdefghij") as s:
        ws = room_helpers.wrap(s)
        assert ws.recv()["code"] == "no_room"
    assert room_of(client, code_a).version == 1 and room_of(client, code_b).version == 1


HOSTILE: list[str | dict[str, Any]] = [
    "not json",
    "",
    "[1, 2, 3]",
    '"hello"',
    "null",
    "{}",
    {"type": "teleport"},
    {"type": "command"},
    {"type": "command", "text": 5},
    {"type": "command", "text": ["DRAW"]},
    {"type": "command", "text": "DRAW", "id": "7"},
    {"type": "command", "text": "DRAW", "id": -1},
    {"type": "command", "text": "DRAW", "id": 2**60},
    {"type": "command", "text": "DRAW", "id": True},
    {"type": "command", "text": "DRAW", "seat": 1},
    {"type": "command", "text": "DRAW", "room": "abcdefghij"},
    {"type": "command", "text": "x" * 201},
    {"type": "command", "text": ""},
    {"type": "hello", "token": 12},
    {"type": "chat", "text": ""},
    {"type": "chat", "text": "a\u0007b"},
    {"type": "start", "level": 3},
    '{"type": "command", "text": "DRAW"',
    '{"type": "command", "text": "\\ud800"}',
]


def test_hostile_messages_change_nothing(tmp_path: Any, room_helpers: Any) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'h.sqlite3'}", bot_delay=0, burst=1000)
    with TestClient(create_app(settings)) as client:
        _hostile(client, room_helpers)


def _hostile(client: TestClient, room_helpers: Any) -> None:
    code, t0, _ = two_player_room(client, room_helpers)
    room = room_of(client, code)
    before = room.game.copy() if room.game else None
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        hello(ws, t0)
        for i, msg in enumerate(HOSTILE):
            ws.send(msg)
            err = ws.until(lambda m: m["type"] == "error")
            assert err["code"] in ("bad_json", "bad_message"), (msg, err)
            assert err["message"]
            if i % 6 == 0:
                ws.ping(i)
        # oversized: text and binary
        ws.send(json.dumps({"type": "chat", "text": "x" * 5000}))
        assert ws.until(lambda m: m["type"] == "error")["code"] == "too_large"
        s.send_bytes(b"\xff" * 10)
        assert ws.until(lambda m: m["type"] == "error")["code"] == "bad_json"
        s.send_bytes(b"x" * 100_000)
        assert ws.until(lambda m: m["type"] == "error")["code"] == "too_large"
        ws.ping()
    assert room.version == 1 and room.game == before


def test_commands_ack_then_state(client: TestClient, room_helpers: Any) -> None:
    code, t0, t1 = two_player_room(client, room_helpers)
    room = room_of(client, code)
    g = room.game
    assert g is not None
    seat = g.to_act
    assert seat is not None
    token, other = (t0, t1) if seat == 0 else (t1, t0)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, token)
        legal = st["observation"]["legal"]
        assert legal
        # another seat's prefix is refused; so is a command of the other player
        ws.send({"type": "command", "id": 1, "text": f"P{1 - seat} DRAW"})
        assert ws.reply(1)["code"] == "forbidden"
        ws.send({"type": "command", "id": 2, "text": "NEXT"})
        assert ws.reply(2)["code"] == "bad_command"
        ws.send({"type": "command", "id": 3, "text": "PLAY Z9"})
        err = ws.reply(3)
        assert err["code"] == "bad_command" and "Z9" in err["message"]
        ws.send({"type": "command", "id": 4, "text": "FLY"})
        assert ws.reply(4)["code"] == "bad_command"
        assert room.version == 1
        # a legal action, sent as listed (with our own seat prefix)
        text = legal[-1]
        ws.send({"type": "command", "id": 5, "text": text})
        ack = ws.reply(5)
        assert ack == {"type": "ack", "id": 5, "version": 2}
        st2 = ws.state(lambda m: m["version"] == 2)
        assert st2["last"] == {"seat": seat, "text": text, "by": "human"}
        assert room.log[-1] == text
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, other)
        assert st["version"] == 2
        g = room.game
        assert g is not None
        if g.to_act != 1 - seat:  # our turn again (e.g. drew and must decide): not theirs
            ws.send({"type": "command", "id": 6, "text": "DRAW"})
            assert ws.reply(6)["code"] == "illegal"
            assert room.version == 2


def test_out_of_turn_is_illegal(client: TestClient, room_helpers: Any) -> None:
    code, t0, t1 = two_player_room(client, room_helpers)
    room = room_of(client, code)
    assert room.game is not None
    waiting = 1 - (room.game.to_act or 0)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        hello(ws, (t0, t1)[waiting])
        ws.send({"type": "command", "id": 1, "text": "DRAW"})
        err = ws.reply(1)
        assert err["code"] == "illegal" and f"P{waiting}" in err["message"]
        ws.send({"type": "next_round", "id": 2})
        assert ws.reply(2)["code"] == "bad_state"
        ws.send({"type": "new_match", "id": 3})
        assert ws.reply(3)["code"] == "bad_state"
        ws.send({"type": "start", "id": 4})
        assert ws.reply(4)["code"] in ("forbidden", "bad_state")
        ws.ping()
    assert room.version == 1


def _engine_refusal(game: Game, text: str) -> tuple[str, str]:
    """The name of the reason code the engine refuses ``text`` with (on a
    copy), and its message."""
    with pytest.raises(IllegalActionError) as refused:
        game.copy().apply(text)
    assert refused.value.reason is not None
    return codes.ERRORS[refused.value.reason], str(refused.value)


def _engine_reason(game: Game, text: str) -> str:
    """The name of the reason code the engine refuses ``text`` with (on a copy)."""
    return _engine_refusal(game, text)[0]


def test_an_illegal_command_carries_the_engines_reason_code(
    client: TestClient, room_helpers: Any
) -> None:
    code, t0, t1 = two_player_room(client, room_helpers)
    room = room_of(client, code)
    g = room.game
    assert g is not None and g.to_act is not None
    acting, waiting = g.to_act, 1 - g.to_act
    not_held = next(str(c) for c in g.variant.cards.cards if c not in g.hand(acting))
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        hello(ws, (t0, t1)[acting])
        ws.send({"type": "command", "id": 1, "text": f"PLAY {not_held}"})
        err = ws.reply(1)
        # the engine's reason and words: "P0 does not hold R0", or, when the
        # first card was a wild, that P1 has a colour to choose first
        reason, message = _engine_refusal(g, f"P{acting} PLAY {not_held}")
        assert err["code"] == "illegal" and err["message"] == message
        assert err["reason"] == reason
        if g.phase == Phase.AWAIT_TURN:
            assert not_held in err["message"]
        assert err["reason"] in codes.ERRORS and err["reason"] != "OK"
        # errors other than illegal have no reason
        ws.send({"type": "command", "id": 2, "text": "PLAY Z9"})
        err = ws.reply(2)
        assert err["code"] == "bad_command" and "reason" not in err
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        hello(ws, (t0, t1)[waiting])
        ws.send({"type": "command", "id": 1, "text": "DRAW"})
        err = ws.reply(1)
        assert err["code"] == "illegal"
        assert err["reason"] == _engine_reason(g, f"P{waiting} DRAW")
    assert room.version == 1


def test_host_starts_with_bots(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(client, "flex", [{"kind": "human"}] * 4)
    code = out["room"]
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, joined["token"])
        assert st["observation"] is None and st["info"]["status"] == "lobby"
        ws.send({"type": "command", "id": 1, "text": "DRAW"})
        assert ws.reply(1)["code"] == "bad_state"
        ws.send({"type": "start", "id": 2})
        assert ws.reply(2)["code"] == "forbidden"
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        hello(ws, out["token"])
        ws.send({"type": "start", "id": 3, "level": "nobody"})
        assert ws.reply(3)["code"] == "bad_message"
        ws.send({"type": "start", "id": 4, "level": "random"})
        assert ws.reply(4)["type"] == "ack"
        st = ws.state(lambda m: m["info"]["status"] == "playing")
        seats = st["info"]["seats"]
        assert [s["kind"] for s in seats] == ["human", "human", "bot", "bot"]
        assert seats[2]["level"] == "random" and all(s["claimed"] for s in seats)
        assert st["observation"]["variant"] == "flex"
        ws.send({"type": "start", "id": 5})
        assert ws.reply(5)["code"] == "bad_state"
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Late"}).status_code == 409


def test_chat_reaches_everyone(client: TestClient, room_helpers: Any) -> None:
    code, t0, _ = two_player_room(client, room_helpers)
    with room_helpers.connect(client, code) as s0, room_helpers.connect(client, code) as s1:
        a, b = room_helpers.wrap(s0), room_helpers.wrap(s1)
        hello(a, t0)
        hello(b, None)
        a.send({"type": "chat", "text": "  good luck  "})
        for ws in (a, b):
            msg = ws.until(lambda m: m["type"] == "chat")
            assert (msg["seat"], msg["name"], msg["text"]) == (0, "Ann", "good luck")


def test_rate_limit_and_flood(
    tmp_path: Any, room_helpers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]

    class FakeTime:
        @staticmethod
        def monotonic() -> float:
            return clock[0]

        @staticmethod
        def time() -> float:
            return clock[0]

    # the clock of the room and of its parts (the connection's token bucket)
    for part in ("room", "conn", "views", "tablebots", "timers"):
        monkeypatch.setattr(f"unokit.web.{part}.time", FakeTime)
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'f.sqlite3'}", bot_delay=0, rate=1.0, burst=5, flood_close=50
    )
    with TestClient(create_app(settings)) as client:
        code, t0, _ = two_player_room(client, room_helpers)
        with room_helpers.connect(client, code) as s:
            ws = room_helpers.wrap(s)
            hello(ws, t0)  # one token
            for i in range(10):
                ws.send({"type": "ping", "id": i})
            pongs = [ws.until(lambda m: m["type"] in ("pong", "error")) for _ in range(5)]
            assert [m["type"] for m in pongs] == ["pong"] * 4 + ["error"]
            assert pongs[-1]["code"] == "rate_limited"
            clock[0] += 10.0  # the bucket refills with time
            ws.ping()
            # a flood that goes on is cut off
            for i in range(60):
                ws.send({"type": "command", "id": i, "text": "PLAY Z9"})
            with pytest.raises(Exception):  # noqa: B017 - the server closed the socket
                for _ in range(100):
                    ws.recv()
        room = room_of(client, code)
        assert room.version == 1 and not room.conns


def test_turn_timer_plays_for_the_player(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(
        client, "classic", [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}], turn_timer=30
    )
    code = out["room"]
    room = room_of(client, code)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, out["token"])
        if st["observation"]["current"] != 0:
            st = ws.state(lambda m: m["observation"]["current"] == 0)
        assert st["deadline"] is not None and 0 < st["remaining"] <= 30
        version = room.version
        assert room.timer_task is not None
        # run the timeout now instead of waiting 30 s
        client.portal.call(room._timeout, version, 0)  # type: ignore[attr-defined]
        st = ws.state(lambda m: m["version"] > version and m["last"] is not None)
        assert st["last"]["by"] == "timer" and st["last"]["seat"] == 0
        assert st["last"]["text"] in ("P0 DRAW", "P0 ACCEPT") or "COLOR" in st["last"]["text"]
        assert room.log[version] == st["last"]["text"]


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_auto_action_is_legal(variant: str) -> None:
    import random

    from unokit.engine.actions import Accept, ChooseColor, Draw, Pass

    rnd = random.Random(7)
    g = Game.new(variant, 3, seed=11)
    seen = set()
    for _ in range(400):
        if g.to_act is None:
            break
        a = auto_action(g, g.to_act)
        assert a is not None and g.is_legal(a)
        seen.add(type(a))
        g.apply(rnd.choice([x for x in g.legal_actions() if type(x).__name__ != "Catch"]))
    assert Draw in seen or Pass in seen or Accept in seen or ChooseColor in seen


def play_until(
    ws: Any, seat: int, phase: str, st: dict[str, Any], limit: int = 3000
) -> dict[str, Any]:
    """From state ``st``, play the first legal action on every turn until ``phase``."""
    msg_id = 10_000
    acted = -1
    for _ in range(limit):
        obs = st["observation"]
        if obs["phase"] == phase:
            return st
        if st["version"] != acted and obs["current"] == seat and obs["legal"]:
            msg_id += 1
            acted = st["version"]
            ws.send({"type": "command", "id": msg_id, "text": obs["legal"][0]})
        elif st["version"] != acted and obs["phase"] == "ROUND_OVER":
            msg_id += 1
            acted = st["version"]
            ws.send({"type": "next_round", "id": msg_id})
        st = ws.state()
    raise AssertionError(f"{phase} not reached")


def test_match_over_then_new_match(client: TestClient, room_helpers: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
    out = room_helpers.create(client, "flex", seats, options={"targetScore": 1})
    code = out["room"]
    room = room_of(client, code)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, out["token"])
        st = play_until(ws, 0, "MATCH_OVER", st)
        assert st["info"]["match"] == 1 and max(st["observation"]["scores"]) >= 1
        assert st["observation"]["match_winners"]
        ws.send({"type": "next_round", "id": 1})
        assert ws.reply(1)["code"] == "bad_state"
        version = st["version"]
        ws.send({"type": "new_match", "id": 2})
        assert ws.reply(2) == {"type": "ack", "id": 2, "version": version + 1}
        st = ws.state(lambda m: m["version"] > version)
        assert st["info"]["match"] == 2 and st["observation"]["scores"] == [0, 0]
        assert st["observation"]["round"] == 1
    assert room.log[version].startswith("#MATCH ") and room.match == 2


def test_storage_failure_changes_nothing(
    client: TestClient, room_helpers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unokit.web.store import StorageError, Store

    code, t0, t1 = two_player_room(client, room_helpers)
    room = room_of(client, code)
    assert room.game is not None
    seat = room.game.to_act
    before = room.game.copy()
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, (t0, t1)[seat or 0])
        text = st["observation"]["legal"][0]
        real_enqueue = Store.enqueue

        def failing(self: Store, fn: Any) -> asyncio.Future[Any]:
            fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            fut.set_exception(StorageError("disk full"))
            return fut

        # every store call (Store.call too) goes through enqueue
        monkeypatch.setattr(Store, "enqueue", failing)
        ws.send({"type": "command", "id": 1, "text": text})
        err = ws.reply(1)
        assert err["code"] == "storage"
        assert room.version == 1 and room.game == before and room.log == room.log[:1]
        monkeypatch.setattr(Store, "enqueue", real_enqueue)
        ws.send({"type": "command", "id": 2, "text": text})
        assert ws.reply(2) == {"type": "ack", "id": 2, "version": 2}


def test_unloaded_room_reloads_exactly(client: TestClient, room_helpers: Any) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    out = room_helpers.create(
        client, "flip", [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}]
    )
    code = out["room"]
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        _, st = hello(ws, out["token"])
        acks, acted, msg_id = 0, -1, 0
        while acks < 5:
            obs = st["observation"]
            if st["version"] != acted and (
                obs["phase"] == "ROUND_OVER" or (obs["current"] == 0 and obs["legal"])
            ):
                acted, msg_id = st["version"], msg_id + 1
                if obs["phase"] == "ROUND_OVER":
                    ws.send({"type": "next_round", "id": msg_id})
                else:
                    ws.send({"type": "command", "id": msg_id, "text": obs["legal"][-1]})
                acks += ws.reply(msg_id)["type"] == "ack"
            st = ws.state()
    old = hub.rooms[code]
    assert old.game is not None
    hub.settings.idle_unload = 0.0

    def quiet() -> bool:  # the server has seen the disconnect and the bot has moved
        return not old.conns and (old.bot_task is None or old.bot_task.done())

    for _ in range(500):
        if client.portal.call(quiet):  # type: ignore[attr-defined]
            break
        time.sleep(0.01)  # waiting for a condition, bounded
    client.portal.call(hub.sweep)  # type: ignore[attr-defined]
    assert code not in hub.rooms and old.closed
    info = client.get(f"/api/rooms/{code}").json()  # loads it again from the database
    new = hub.rooms[code]
    assert new is not old and new.game == old.game and new.log == old.log
    assert info["version"] == old.version
    assert new.game is not None and new.game.observe(0).to_dict() == old.game.observe(0).to_dict()


def test_corrupt_log_is_a_clear_error(client: TestClient, room_helpers: Any) -> None:
    from sqlalchemy import update

    from unokit.web.store import room_log

    hub = client.app.state.hub  # type: ignore[attr-defined]
    good = room_helpers.create(client)["room"]
    bad = room_helpers.create(client)["room"]
    client.portal.call(hub.evict, hub.rooms[bad])  # type: ignore[attr-defined]
    with hub.store.engine.begin() as conn:
        conn.execute(
            update(room_log)
            .where(room_log.c.room == bad, room_log.c.seq == 1)
            .values(text="#MATCH notanumber")
        )
    r = client.get(f"/api/rooms/{bad}")
    assert r.status_code == 503 and "cannot be rebuilt" in r.json()["detail"]
    with room_helpers.connect(client, bad) as s:
        assert room_helpers.wrap(s).recv()["code"] == "storage"
    assert client.get(f"/api/rooms/{good}").status_code == 200


def test_two_tabs_of_one_seat(client: TestClient, room_helpers: Any) -> None:
    code, t0, _ = two_player_room(client, room_helpers)
    with room_helpers.connect(client, code) as s1:
        a = room_helpers.wrap(s1)
        hello(a, t0)
        with room_helpers.connect(client, code) as s2:
            b = room_helpers.wrap(s2)
            _, st = hello(b, t0)
            assert st["seat"] == 0 and st["info"]["seats"][0]["connected"]
        st = a.state(lambda m: True)
        assert st["info"]["seats"][0]["connected"] is True  # the first tab is still there
    with room_helpers.connect(client, code) as s3:
        c = room_helpers.wrap(s3)
        _, st = hello(c, None)
        assert st["info"]["seats"][0]["connected"] is False
