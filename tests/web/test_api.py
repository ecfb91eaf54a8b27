"""REST API of the web server (Starlette TestClient): health, lobby, validation."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit.web.room import ROOM_CODE_RE

pytestmark = pytest.mark.timeout(60)


def test_healthz_and_meta(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/healthz").json() == {"ok": True}
    meta = client.get("/api/meta").json()
    assert meta["variants"]["flex"] == {"min_players": 2, "max_players": 8}
    assert meta["variants"]["classic"]["max_players"] == 10
    assert {"random", "heuristic"} <= set(meta["bots"])
    assert meta["house_rules"] == [
        "stacking",
        "jumpIn",
        "sevenZero",
        "drawUntilPlayable",
        "forcedPlay",
        "noBluff",
        "deflect",
        "zeroRotate",
        "sevenSwap",
        "multiPlay",
        "finishRestriction",
        "handLimit",
        "mercy",
        "teams",
        "wildDrawChallenge",
        "mustPlayDrawn",
        "shuffleSeats",
    ]
    assert meta["options"]["scoringMode"]["choices"] == ["highest", "lowest"]
    assert meta["options"]["multiPlay"]["choices"] == ["off", "same_number"]
    assert meta["options"]["targetScore"]["default"] == 500


def test_pages_and_static_files(client: TestClient) -> None:
    for path in ("/", "/r/abcdefghij"):
        r = client.get(path)
        assert r.status_code == 200
        assert "text/html" in r.headers["content-type"]
    r = client.get("/static/cards.js")
    assert r.status_code == 200 and len(r.content) > 100
    assert client.get("/static/../app.py").status_code == 404


def test_create_room_with_bots_starts_at_once(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(
        client,
        "flip",
        [
            {"kind": "human"},
            {"kind": "bot", "level": "heuristic"},
            {"kind": "bot", "level": "random"},
        ],
        options={"targetScore": 250, "stacking": "same_symbol", "jumpIn": True},
    )
    assert ROOM_CODE_RE.match(out["room"])
    assert out["invite"] == f"/r/{out['room']}"
    assert out["seat"] == 0 and len(out["token"]) >= 40
    info = out["info"]
    assert info["status"] == "playing" and info["version"] == 1 and info["match"] == 1
    assert info["options"] == {"targetScore": 250, "stacking": "same_symbol", "jumpIn": True}
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert info["seats"][0]["name"] == "Ann" and info["host"] == 0
    # the public room info never shows a token or its hash
    text = client.get(f"/api/rooms/{out['room']}").text
    assert out["token"] not in text and "token" not in text


def test_join_fills_seats_then_the_match_starts(client: TestClient, room_helpers: Any) -> None:
    out = room_helpers.create(client, "classic", [{"kind": "human"}] * 3)
    code = out["room"]
    assert out["info"]["status"] == "lobby"
    r1 = client.post(f"/api/rooms/{code}/join", json={"name": "Bob", "seat": 2})
    assert r1.status_code == 200 and r1.json()["seat"] == 2
    assert r1.json()["info"]["status"] == "lobby"
    # seat 2 is taken now
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Cy", "seat": 2}).status_code == 409
    r2 = client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert r2.status_code == 200 and r2.json()["seat"] == 1
    assert r2.json()["info"]["status"] == "playing"
    assert len({out["token"], r1.json()["token"], r2.json()["token"]}) == 3
    full = client.post(f"/api/rooms/{code}/join", json={"name": "Dee"})
    assert full.status_code == 409
    info = client.get(f"/api/rooms/{code}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Cy", "Bob"]


def test_unknown_rooms(client: TestClient) -> None:
    for code in ("abcdefghij", "x", "../../etc", "ABCDEFGHIJ"):
        assert client.get(f"/api/rooms/{code}").status_code == 404
        assert client.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "chess", "seats": [{"kind": "human"}] * 2, "name": "A"},
        {"variant": "classic", "seats": [{"kind": "human"}] * 11, "name": "A"},
        {"variant": "flex", "seats": [{"kind": "human"}] * 9, "name": "A"},
        {"variant": "classic", "seats": [{"kind": "human"}], "name": "A"},
        {"variant": "classic", "seats": [{"kind": "bot", "level": "random"}] * 2, "name": "A"},
        {"variant": "classic", "seats": [{"kind": "human"}, {"kind": "bot"}], "name": "A"},
        {
            "variant": "classic",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}],
            "name": "A",
        },
        {"variant": "classic", "seats": [{"kind": "human", "level": "random"}] * 2, "name": "A"},
        {"variant": "classic", "seats": "two", "name": "A"},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": ""},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "x" * 25},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "bad\u0000name"},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": 5},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A", "turn_timer": 1},
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A", "turn_timer": "30"},
        {
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "options": {"colour": "R"},
        },
        {
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "options": {"stacking": "always"},
        },
        {
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "options": {"targetScore": -5},
        },
        {
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "options": {"targetScore": [500]},
        },
        {
            "variant": "classic",
            "seats": [{"kind": "human"}] * 2,
            "name": "A",
            "options": {"dealerSelection": "fixed:7"},
        },
        {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A", "admin": True},
    ],
)
def test_create_room_rejects_bad_input(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]
    assert client.get("/healthz").status_code == 200


def test_huge_and_broken_bodies(client: TestClient) -> None:
    huge = '{"variant": "classic", "name": "' + "x" * 200_000 + '"}'
    r = client.post("/api/rooms", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413

    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 10_000

    r = client.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/rooms", content="{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "invalid JSON body" in r.json()["detail"]
    r = client.post("/api/rooms/abcdefghij/join", json=["Bob"])
    assert r.status_code in (404, 422)


def test_lobby_rate_limit(tmp_path: Any) -> None:
    from unokit.web.app import create_app
    from unokit.web.config import Settings

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'r.sqlite3'}", rest_per_minute=3))
    body = {"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A"}
    with TestClient(app) as c:
        codes = [c.post("/api/rooms", json=body).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        assert c.get("/healthz").status_code == 200
        # guessing room codes is limited too
        misses = [c.get("/api/rooms/abcdefghij").status_code for _ in range(5)]
        assert misses == [404, 404, 404, 429, 429]
