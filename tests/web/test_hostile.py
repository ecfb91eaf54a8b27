"""Hostile input of issue 13: every case is a clear 4xx or protocol error, no
5xx, no traceback in the log, the connection kept and the room unchanged; and
commands that change nothing (docs/rules.md D65) are neither stored nor broadcast."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit import Game
from unokit.web.app import create_app
from unokit.web.config import Settings
from unokit.web.hardening import AddressLimiter
from unokit.web.room import Room

pytestmark = pytest.mark.timeout(60)

BODY_OK = '{"variant":"classic","seats":[{"kind":"human"},{"kind":"bot","level":"random"}],'

BAD_BODIES = [
    BODY_OK + '"name":"A","turn_timer":NaN}',
    BODY_OK + '"name":"A","turn_timer":Infinity}',
    BODY_OK + '"name":"A","options":{"targetScore":-Infinity}}',
    BODY_OK + '"name":"\\ud800"}',
    BODY_OK + '"name":"A","options":{"x\\udc00":1}}',
    BODY_OK + '"name":"A","extra":' + "[" * 1000 + "]" * 1000 + "}",
    "{not json",
    "[1, 2",
    "",
]


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def test_rest_bodies_are_clear_4xx(
    client: TestClient, room_helpers: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    out = room_helpers.create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    code = out["room"]  # waiting for its second player: a join would change it
    info = client.get(f"/api/rooms/{code}").json()
    before = room_helpers.stored(client, code)
    for body in BAD_BODIES:
        for path in ("/api/rooms", f"/api/rooms/{code}/join"):
            r = client.post(path, content=body, headers={"content-type": "application/json"})
            assert 400 <= r.status_code < 500, (body[:80], r.status_code, r.text)
            assert isinstance(r.json()["detail"], (str, list))
    # bytes that are not UTF-8 at all
    r = client.post("/api/rooms", content=b'{"name": "\xed\xa0\x80"}')
    assert r.status_code == 400
    # a valid body with a lone surrogate where the engine reads it: still 4xx, encodable
    r = client.post(
        "/api/rooms",
        json={
            "variant": "classic",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random\u00e9"}],
            "name": "A",
        },
    )
    assert r.status_code == 422
    assert client.get(f"/api/rooms/{code}").json() == info
    assert room_helpers.stored(client, code) == before
    no_tracebacks(caplog)


def test_validation_error_with_nan_input_is_422(client: TestClient) -> None:
    # strict JSON refuses NaN; a float out of range is the 422 path with its input dropped
    r = client.post(
        "/api/rooms",
        json={
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "turn_timer": 1e308,
        },
    )
    assert r.status_code == 422
    assert all("input" not in d for d in r.json()["detail"])


def two_humans(client: TestClient, rh: Any, **kw: Any) -> tuple[str, str, str]:
    out = rh.create(client, "classic", [{"kind": "human"}, {"kind": "human"}], **kw)
    other = client.post(f"/api/rooms/{out['room']}/join", json={"name": "Bob"}).json()
    return out["room"], out["token"], other["token"]


def room_of(client: TestClient, code: str) -> Room:
    room: Room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    return room


def test_websocket_deep_and_broken_frames(
    client: TestClient, room_helpers: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    code, t0, _ = two_humans(client, room_helpers)
    with room_helpers.connect(client, code) as s:
        ws = room_helpers.wrap(s)
        ws.send({"type": "hello", "token": t0})
        ws.state()
        for text in (
            "[" * 1000 + "]" * 1000,
            '{"type":"command","text":"DRAW","id":' + "[" * 1000 + "]" * 1000 + "}",
            '{"type":"ping","id":NaN}',
            '{"type":"chat","text":"\\ud800"}',
        ):
            ws.send(text)
            err = ws.until(lambda m: m["type"] == "error")
            assert err["code"] in ("bad_json", "bad_message"), err
        s.send_bytes(b"\xff\xfe{")
        err = ws.until(lambda m: m["type"] == "error")
        assert err["code"] == "bad_json" and "UTF-8" in err["message"]
        ws.ping()
    assert room_of(client, code).version == 1
    assert room_helpers.stored(client, code) == 1
    no_tracebacks(caplog)


def no_effect_commands(g: Game, seat: int) -> list[str]:
    """UNO with no UNO to call (more than two cards, or not one's turn with two)
    and a catch of nobody vulnerable: accepted by the engine, changing nothing."""
    out = []
    if len(g.hand(seat)) > 2 or (len(g.hand(seat)) == 2 and g.to_act != seat):
        out.append("UNO")
    other = 1 - seat
    if g.uno_state(other).name != "VULNERABLE":
        out.append(f"CATCH P{other}")
    return out


def test_commands_that_change_nothing_are_not_stored(client: TestClient, room_helpers: Any) -> None:
    code, t0, t1 = two_humans(client, room_helpers)
    room = room_of(client, code)
    with room_helpers.connect(client, code) as s0, room_helpers.connect(client, code) as s1:
        ws0, ws1 = room_helpers.wrap(s0), room_helpers.wrap(s1)
        for ws, token in ((ws0, t0), (ws1, t1)):
            ws.send({"type": "hello", "token": token})
            ws.state()
        ws0.ping()  # every state of the hello of ws1 has reached ws0
        g = room.game
        assert g is not None
        texts = no_effect_commands(g, 0)
        assert texts
        for i, text in enumerate(texts * 3):
            ws0.send({"type": "command", "id": 10 + i, "text": text})
            err = ws0.reply(10 + i)
            assert err["code"] == "no_effect" and "D65" in err["message"]
        assert room.version == 1 and room_helpers.stored(client, code) == 1
        # nothing was broadcast: the other seat's next message is the answer to its ping
        seen = len(ws1.seen)
        ws1.ping()
        assert [m["type"] for m in ws1.seen[seen:]] == ["pong"]
        # a repeated PASS (or any command out of its moment) is refused: not stored either
        ws0.send({"type": "command", "id": 99, "text": "PASS"})
        assert ws0.reply(99)["code"] == "illegal"
        assert room.version == 1 and room_helpers.stored(client, code) == 1


def test_address_rate_limit(tmp_path: Any, room_helpers: Any) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'a.sqlite3'}",
        bot_delay=0,
        rate=1000,
        burst=1000,
        addr_rate=1,
        addr_burst=20,
    )
    with TestClient(create_app(settings)) as client:
        code, t0, t1 = two_humans(client, room_helpers)
        with room_helpers.connect(client, code) as s0, room_helpers.connect(client, code) as s1:
            ws0, ws1 = room_helpers.wrap(s0), room_helpers.wrap(s1)
            # the two connections share their address's bucket of 20
            for i in range(15):
                ws0.send({"type": "ping", "id": i})
            for i in range(15):
                ws1.send({"type": "ping", "id": 100 + i})
            err = ws1.until(lambda m: m["type"] == "error")
            assert err["code"] == "rate_limited"
            assert sum(m["type"] == "pong" for m in ws1.seen) < 15
        assert room_of(client, code).version == 1


def test_address_limiter_is_per_address() -> None:
    lim = AddressLimiter(rate=0.001, burst=3)
    assert [lim.allow("a") for _ in range(4)] == [True, True, True, False]
    assert lim.allow("b")  # another address (another room's player) is not affected
