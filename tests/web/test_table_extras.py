"""The table's REST extras (docs/web.md): reactions, public rooms and quick
play, seats handed over, quiet seats played by a bot, game history and the
record of a finished match."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from unokit.engine.game import Game
from unokit.records.record import loads

from .conftest import WS, connect, create_room


def _hello(client: TestClient, code: str, token: str) -> Any:
    cm = connect(client, code)
    ws = WS(cm.__enter__())
    ws.send({"type": "hello", "token": token, "id": 1})
    ws.until(lambda m: m["type"] == "welcome")
    return cm, ws


def test_reactions_are_checked_rate_limited_and_broadcast(client: TestClient) -> None:
    room = create_room(client, seats=[{"kind": "human"}, {"kind": "human"}])  # waiting: no moves
    code, token = room["room"], room["token"]
    cm, ws = _hello(client, code, token)
    try:
        r = client.post(f"/api/rooms/{code}/react", json={"token": token, "emoji": "🎉"})
        assert r.status_code == 204
        msg = ws.until(lambda m: m["type"] == "reaction")
        assert msg["seat"] == 0 and msg["name"] == "Ann" and msg["emoji"] == "🎉"
        # no free text, no foreign token
        bad = client.post(f"/api/rooms/{code}/react", json={"token": token, "emoji": "hello"})
        assert bad.status_code == 422
        forged = client.post(f"/api/rooms/{code}/react", json={"token": "x" * 40, "emoji": "👍"})
        assert forged.status_code == 403
        # a burst is cut short
        codes = [
            client.post(
                f"/api/rooms/{code}/react", json={"token": token, "emoji": "👍"}
            ).status_code
            for _ in range(5)
        ]
        assert codes.count(204) == 3 and codes[-1] == 429  # 4 per 10 s, one was sent above
    finally:
        cm.__exit__(None, None, None)
    # nothing of it is a game command
    assert client.get(f"/api/rooms/{code}").json()["version"] == 0


def test_public_rooms_and_quick_play(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}]
    room = create_room(client, seats=seats)
    code, token = room["room"], room["token"]
    assert client.get("/api/public").json() == {"rooms": []}
    other = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    # only the host lists the room
    r = client.post(f"/api/rooms/{code}/public", json={"token": other["token"], "public": True})
    assert r.status_code == 403
    r = client.post(f"/api/rooms/{code}/public", json={"token": token, "public": True})
    assert r.status_code == 200
    assert client.get("/api/public").json()["rooms"] == []  # public, but no free seat
    # a room with a free seat, listed by its host
    room2 = create_room(client, seats=seats, options={"jumpIn": True}, variant="flip")
    r = client.post(
        f"/api/rooms/{room2['room']}/public", json={"token": room2["token"], "public": True}
    )
    assert r.status_code == 200 and r.json()["public"] is True
    listed = client.get("/api/public").json()["rooms"]
    assert [(x["room"], x["variant"], x["free"], x["options"]) for x in listed] == [
        (room2["room"], "flip", 1, {"jumpIn": True})
    ]
    # quick play seats a player there, and the room leaves the list
    q = client.post("/api/quickplay", json={"name": "Cy"}).json()
    assert q["room"] == room2["room"] and q["seat"] == 1
    assert client.get("/api/public").json()["rooms"] == []
    # with no public room free: a new one, dealt at once, bots playing the open seats
    q2 = client.post("/api/quickplay", json={"name": "Dee", "variant": "flex"}).json()
    info = q2["info"]
    assert info["status"] == "playing" and info["public"] and info["variant"] == "flex"
    assert [s["auto"] for s in info["seats"]] == [False, True, True, True]
    # the next one takes one of those seats
    q3 = client.post("/api/quickplay", json={"name": "Eve"}).json()
    assert q3["room"] == q2["room"] and q3["seat"] == 1
    seat1 = q3["info"]["seats"][1]
    assert seat1["name"] == "Eve" and seat1["claimed"]


def test_host_hands_seats_over_outside_a_round(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    room = create_room(client, seats=seats)
    code, token = room["room"], room["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"name": "Bob"}).json()
    url = f"/api/rooms/{code}/seats"
    assert client.post(f"{url}/1", json={"token": bob["token"], "to": "bot"}).status_code == 403
    assert client.post(f"{url}/0", json={"token": token, "to": "bot"}).status_code == 403
    assert client.post(f"{url}/7", json={"token": token, "to": "bot"}).status_code == 422
    assert client.post(f"{url}/1", json={"token": token, "to": "cat"}).status_code == 422
    info = client.post(f"{url}/1", json={"token": token, "to": "bot"}).json()
    assert info["seats"][1]["kind"] == "bot"
    # Bob's token is no seat any more
    assert client.post(f"/api/rooms/{code}/back", json={"token": bob["token"]}).status_code == 403
    # the last open seat taken: the match starts; mid-round no seat changes hands
    client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert client.get(f"/api/rooms/{code}").json()["status"] == "playing"
    r = client.post(f"{url}/2", json={"token": token, "to": "open"})
    assert r.status_code == 409


def _play_single_round(client: TestClient) -> dict[str, Any]:
    """Ann against a bot, one round to a finished match, by first legal commands."""
    room = create_room(client, options={"matchMode": "single_round"})
    code, token = room["room"], room["token"]
    cm, ws = _hello(client, code, token)
    try:
        n = 10
        for _ in range(600):
            st = ws.state()
            obs = st["observation"]
            if obs["phase"] == "MATCH_OVER":
                break
            mine = [c for c in obs["legal"] if " UNO" not in c and " CATCH" not in c]
            if obs["current"] != 0 or not mine:
                continue
            n += 1
            ws.send({"type": "command", "id": n, "text": mine[0]})
            ws.reply(n)
        else:
            raise AssertionError("the round did not end")
    finally:
        cm.__exit__(None, None, None)
    return room


def test_history_lists_finished_matches_and_gives_their_record(client: TestClient) -> None:
    room = _play_single_round(client)
    code, token = room["room"], room["token"]
    games = client.post("/api/history", json={"rooms": [{"room": code, "token": token}]}).json()
    assert [(g["room"], g["match"], g["seat"], g["variant"]) for g in games["games"]] == [
        (code, 1, 0, "classic")
    ]
    # someone else's token lists nothing
    other = client.post("/api/history", json={"rooms": [{"room": code, "token": "z" * 30}]})
    assert other.json() == {"games": []}
    r = client.post(f"/api/rooms/{code}/record", json={"token": token, "match": 1})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = loads(r.text)
    game = rec.replay()
    assert game.state.name == "MATCH_OVER" and rec.names == ["Ann", "Ben"]
    assert (
        client.post(f"/api/rooms/{code}/record", json={"token": token, "match": 2}).status_code
        == 404
    )
    forged = client.post(f"/api/rooms/{code}/record", json={"token": "q" * 30, "match": 1})
    assert forged.status_code == 403
    # the replay steps of the record, seen by seat 0: no other hand in them
    steps = client.post("/api/replay", json={"record": r.text, "seat": 0}).json()["steps"]
    assert len(steps) == len(rec.commands) + 1
    assert steps[-1]["observation"]["phase"] == "MATCH_OVER"
    assert all("hands" not in s["observation"] for s in steps)
    start = Game.new("classic", 2, rec.options, seed=rec.seed)
    assert steps[0]["observation"]["hand"] == [str(c) for c in start.hand(0)]
    bad = client.post("/api/replay", json={"record": "not a record", "seat": 0})
    assert bad.status_code == 422 and "not a record" in bad.json()["detail"]


def test_bots_catch_a_person_who_forgot_uno_at_three_players(client: TestClient) -> None:
    """Ann never calls UNO against two `normal` bots: every time she is left
    with one card, a bot catches her before her next move."""
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "normal"},
        {"kind": "bot", "level": "normal"},
    ]
    vulnerable = caught = 0
    for _ in range(20):
        if vulnerable >= 2:
            break
        room = create_room(client, seats=seats, options={"matchMode": "single_round"})
        cm, ws = _hello(client, room["room"], room["token"])
        try:
            n, watching, seen = 10, False, 0
            for _ in range(2000):
                obs = ws.state()["observation"]
                history = obs["history"]
                if watching and any(
                    ev["type"] == "Caught" and ev["target"] == 0 and ev["success"]
                    for ev in history[seen:]
                ):
                    caught += 1
                    watching = False
                if obs["uno"][0] == "vulnerable" and not watching:
                    vulnerable += 1
                    watching, seen = True, len(history)
                if obs["phase"] == "MATCH_OVER":
                    break
                mine = [c for c in obs["legal"] if " UNO" not in c and " CATCH" not in c]
                if obs["current"] == 0 and mine:
                    n += 1
                    ws.send({"type": "command", "id": n, "text": mine[0]})
        finally:
            cm.__exit__(None, None, None)
    assert vulnerable >= 2
    assert caught == vulnerable
