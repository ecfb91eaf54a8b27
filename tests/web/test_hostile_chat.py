"""Chat and names against hostile clients (issue 29, item 7): spectators may
not chat unless the host allows it, the host can mute the room, each sender
is rate-limited, and no two seats show the same name."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import WS, create_room


@pytest.fixture(autouse=True)
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Whatever the clients sent, the server logged no error and no traceback."""
    caplog.set_level(logging.INFO)
    yield
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def chat_errors(ws: WS, texts: list[str]) -> list[dict[str, Any]]:
    """Send each text as a chat message; the replies (chat echo or error), in order."""
    out = []
    for i, text in enumerate(texts):
        ws.send({"type": "chat", "text": text, "id": 100 + i})
        out.append(
            ws.until(
                lambda m, text=text, i=i: (
                    (m["type"] == "chat" and m["text"] == text)
                    or (m["type"] == "error" and m["id"] == 100 + i)
                )
            )
        )
    return out


def test_spectators_and_muting(client: TestClient) -> None:
    room = create_room(client, seats=[{"kind": "human"}, {"kind": "human"}], name="Ann")
    code, host = room["room"], room["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    info = client.get(f"/api/rooms/{code}").json()
    sent = 0
    with (
        client.websocket_connect(f"/ws/{code}") as s1,
        client.websocket_connect(f"/ws/{code}") as s2,
    ):
        player, spectator = WS(s1), WS(s2)
        player.send({"type": "hello", "token": host})
        player.state()
        spectator.send({"type": "hello", "spectate": True})
        spectator.state()
        # by default only players chat
        err = chat_errors(spectator, ["hi from the stands"])[0]
        sent += 1
        assert err["type"] == "error" and err["code"] == "spectator", err
        got = chat_errors(player, ["gl hf"])[0]
        assert got["type"] == "chat" and got["name"] == "Ann" and got["seat"] == 0
        # only the host may change it; a bad mode is refused
        r = client.post(f"/api/rooms/{code}/chat", json={"token": bob["token"], "chat": "all"})
        assert r.status_code == 403
        r = client.post(f"/api/rooms/{code}/chat", json={"token": "x" * 30, "chat": "all"})
        assert r.status_code == 403
        r = client.post(f"/api/rooms/{code}/chat", json={"token": host, "chat": "loud"})
        assert r.status_code == 422
        sent += 3
        err = chat_errors(spectator, ["still me"])[0]
        sent += 1
        assert err["type"] == "error" and err["code"] == "spectator"
        # the host lets spectators in, then mutes everyone
        r = client.post(f"/api/rooms/{code}/chat", json={"token": host, "chat": "all"})
        assert r.status_code == 200 and r.json() == {"chat": "all"}
        got = chat_errors(spectator, ["hello"])[0]
        assert got["type"] == "chat" and got["seat"] is None and got["name"] == "spectator"
        r = client.post(f"/api/rooms/{code}/chat", json={"token": host, "chat": "off"})
        assert r.status_code == 200
        for ws in (player, spectator):
            err = chat_errors(ws, ["anyone?"])[0]
            sent += 1
            assert err["type"] == "error" and err["code"] == "forbidden", err
        player.ping()
    # the game and the seats are as they were
    after = client.get(f"/api/rooms/{code}").json()
    assert after["version"] == info["version"] and after["seats"] == info["seats"]
    assert sent == 7


def test_chat_is_rate_limited_per_sender(client: TestClient) -> None:
    room = create_room(client, seats=[{"kind": "human"}, {"kind": "human"}], name="Ann")
    code, host = room["room"], room["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    with (
        client.websocket_connect(f"/ws/{code}") as s1,
        client.websocket_connect(f"/ws/{code}") as s2,
    ):
        ann, other = WS(s1), WS(s2)
        ann.send({"type": "hello", "token": host})
        ann.state()
        other.send({"type": "hello", "token": bob["token"]})
        other.state()
        replies = chat_errors(ann, [f"spam {i}" for i in range(15)])
        kinds = [m["type"] if m["type"] == "chat" else m["code"] for m in replies]
        assert kinds.count("chat") <= 6 and kinds.count("rate_limited") >= 9, kinds
        assert kinds[:5] == ["chat"] * 5
        # another sender is not held back by Ann's flood
        got = chat_errors(other, ["hi"])[0]
        assert got["type"] == "chat" and got["name"] == "Bob"
        ann.ping()


def test_display_names_are_distinct(client: TestClient) -> None:
    seats = [{"kind": "human"}] * 5 + [{"kind": "bot", "level": "random"}]
    room = create_room(client, seats=seats, name="Ann")
    code = room["room"]
    names = []
    for name in ("Ann", " ANN ", "Ｂen", "Fay"):  # Ｂen: a full-width B; Fay: the bot's name
        r = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert r.status_code == 200, r.text
        names.append(r.json()["info"]["seats"][r.json()["seat"]]["name"])
    info = client.get(f"/api/rooms/{code}").json()
    shown = [s["name"] for s in info["seats"]]
    assert len(set(map(str.casefold, shown))) == len(shown), shown
    assert names[0] == "Ann (2)" and names[1].endswith("(3)")
    assert "(2)" in names[3]
    assert json.dumps(shown)  # plain strings
