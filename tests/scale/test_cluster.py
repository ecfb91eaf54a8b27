"""Several ``unokit serve`` processes on one PostgreSQL and one Redis (issue 15).

Players are WebSocket clients written from docs/protocol.md: each sends one of
its ``legal`` commands with the version it decided on, keeps it until it is
answered and sends it again, unchanged, after a reconnect. The two humans of
every room sit on different processes; rooms are created through one process,
which therefore owns them, and that process is SIGKILLed at a random moment
while every game of the round is live. The clients reconnect to any live
process, which takes the rooms over from the log; every game goes on to the
end of its match. Then, for every room:

* no acknowledged command is lost: the line at each acknowledged version of
  the log is the command acknowledged there;
* none is applied twice: the log lines of each human seat are exactly its
  acknowledged commands (one per ack);
* the final state each player received is the log replayed by the engine.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from unokit.engine.game import Game
from unokit.engine.options import Options
from unokit.web.store import normalize_url, room_log, rooms

pytestmark = pytest.mark.timeout(600)


@dataclass
class Player:
    code: str
    seat: int
    token: str
    urls: list[str]  # ws base URLs of the nodes, the first one to try first
    rng: random.Random
    acks: list[tuple[int, str]] = field(default_factory=list)  # (version, stored line)
    state: dict[str, Any] | None = None
    reconnects: int = 0
    back_at: float | None = None  # when it saw a state again after a lost connection
    lost_at: float | None = None
    # a table that runs ahead waits at this version until the kill is under
    # way, so that no match can end while a slower table is still getting to
    # the moment of the kill
    hold_at: int | None = None
    go: asyncio.Event | None = None

    async def play(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        pending: dict[str, Any] | None = None  # sent, not answered: resent as it was
        next_id = 0
        decided = -1
        attempt = 0
        ready_sent: set[int] = set()  # ids of `ready` messages (not stored lines)
        ready_said: tuple[int, int] | None = None  # (connection, version) of the last `ready`
        while True:
            url = self.urls[attempt % len(self.urls)]
            attempt += 1
            try:
                async with connect(f"{url}/ws/{self.code}", open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    if pending is not None:
                        await ws.send(json.dumps(pending))
                    async for raw in ws:
                        msg = json.loads(raw)
                        kind = msg["type"]
                        if kind == "state":
                            self.state = msg
                            if self.lost_at is not None and self.back_at is None:
                                self.back_at = time.monotonic()
                        elif kind == "ack" and pending is not None and msg["id"] == pending["id"]:
                            line = "NEXT" if pending["type"] == "next_round" else pending["text"]
                            self.acks.append((msg["version"], line))
                            pending = None
                        elif kind == "error" and msg.get("id") in ready_sent:
                            # the round was dealt meanwhile: nothing to be ready for
                            assert msg["code"] == "bad_state", msg
                        elif kind == "error":
                            if pending is not None and msg["id"] == pending["id"]:
                                # decided on a version the room left (a bot's catch came
                                # first): nothing was stored; decide again
                                assert msg["code"] == "stale", msg
                                pending = None
                            else:
                                assert msg["code"] in ("stale",), msg
                        st = self.state
                        if st is None or pending is not None:
                            continue
                        obs = st["observation"]
                        if obs is None:
                            continue
                        if obs["phase"] == "MATCH_OVER":
                            return
                        if obs["phase"] == "ROUND_OVER" and self.seat != 0:
                            # the ready check: seat 1 says ready, then seat 0 deals. A
                            # `ready` is not a stored line: one sent to a process that
                            # died may be lost, so it is said again on each connection
                            # (commands are not decided again: they are resent as sent)
                            said = (attempt, st["version"])
                            if self.seat not in st["info"]["ready"] and ready_said != said:
                                next_id += 1
                                ready_sent.add(next_id)
                                await ws.send(json.dumps({"type": "ready", "id": next_id}))
                                ready_said = said
                            continue
                        if st["version"] == decided:
                            continue
                        go, hold_at = self.go, self.hold_at
                        if go is not None and hold_at is not None and st["version"] >= hold_at:
                            await go.wait()
                        if obs["phase"] == "ROUND_OVER":
                            if 1 not in st["info"]["ready"]:
                                continue
                            next_id += 1
                            pending = {"type": "next_round", "id": next_id,
                                       "version": st["version"]}  # fmt: skip
                        elif obs["current"] == self.seat and obs["legal"]:
                            next_id += 1
                            legal = [t for t in obs["legal"] if not t.endswith(" UNO")]
                            text = self.rng.choice(legal or obs["legal"])
                            pending = {"type": "command", "id": next_id, "text": text,
                                       "version": st["version"]}  # fmt: skip
                        else:
                            continue
                        decided = st["version"]
                        await ws.send(json.dumps(pending))
            except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                pass
            if self.lost_at is None:
                self.lost_at = time.monotonic()
            self.reconnects += 1
            if self.reconnects > 200:
                raise AssertionError(f"room {self.code} seat {self.seat}: cannot reconnect")
            await asyncio.sleep(0.1 * min(attempt, 5))  # back-off, as the page does


def create(node_http: str, seed: int) -> tuple[str, str]:
    body = {
        "variant": "classic",
        "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
        "options": {"targetScore": 250},
    }
    r = httpx.post(node_http + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["room"], r.json()["token"]


def join(node_http: str, code: str) -> str:
    r = httpx.post(node_http + f"/api/rooms/{code}/join", json={"name": "Bo"}, timeout=10)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    return str(r.json()["token"])


def check_room(db: str, code: str, players: list[Player]) -> None:
    engine = create_engine(normalize_url(db))
    with engine.connect() as c:
        row = c.execute(select(rooms).where(rooms.c.code == code)).mappings().one()
        log = [
            t
            for (t,) in c.execute(
                select(room_log.c.text).where(room_log.c.room == code).order_by(room_log.c.seq)
            )
        ]
    engine.dispose()
    # the final state every player received is the log replayed by the engine
    game: Game | None = None
    for text in log:
        if text.startswith("#MATCH "):
            game = Game.new(row["variant"], row["players"], Options.from_dict(
                json.loads(row["options"])), int(text[7:]))  # fmt: skip
        else:
            assert game is not None
            game.apply(text)
    assert game is not None and game.state.name == "MATCH_OVER"
    for p in players:
        assert p.state is not None and p.state["version"] == len(log)
        assert p.state["observation"] == game.observe(p.seat).to_dict()
        # no acknowledged command lost: each is stored at the version of its ack
        for version, line in p.acks:
            assert log[version - 1] == line, (code, version, line, log[version - 1])
        # none applied twice: the seat's lines are exactly its acknowledged commands
        mine = {i + 1 for i, t in enumerate(log) if t.startswith(f"P{p.seat} ")}
        acked = {v for v, line in p.acks if line != "NEXT"}
        assert mine == acked, (code, p.seat, sorted(mine ^ acked))
        assert len(acked) == len([1 for _, line in p.acks if line != "NEXT"])


async def kill_round(
    nodes: list[Any], victim: int, games: int, seed: int, db: str
) -> dict[str, float]:
    """``games`` rooms created through ``nodes[victim]`` (its rooms), each with
    one human on the victim and one on another node; the victim is SIGKILLed at
    a random moment while all of them are live, then started again."""
    rng = random.Random(seed)
    owner = nodes[victim]
    others = [n for i, n in enumerate(nodes) if i != victim]
    tables: list[tuple[str, list[Player]]] = []
    for g in range(games):
        code, t0 = create(owner.http, seed + g)
        other = others[g % len(others)]
        t1 = join(other.http, code)  # forwarded to the owner
        urls = [n.ws for n in nodes]
        p0 = Player(code, 0, t0, [owner.ws] + [u for u in urls if u != owner.ws],
                    random.Random(rng.random()))  # fmt: skip
        p1 = Player(code, 1, t1, [other.ws] + [u for u in urls if u != other.ws],
                    random.Random(rng.random()))  # fmt: skip
        tables.append((code, [p0, p1]))
    # a random moment of the games: once every one has reached a random version
    # of its first round (a first round cannot end a match to 250 points... almost:
    # checked below); a table 30 versions past it waits for the kill
    moment = rng.randint(4, 20)
    go = asyncio.Event()
    for _, ps in tables:
        for p in ps:
            p.hold_at, p.go = moment + 30, go
    tasks = [asyncio.create_task(p.play()) for _, ps in tables for p in ps]

    def reached() -> bool:
        return all(
            any(p.state is not None and p.state["version"] >= moment for p in ps)
            for _, ps in tables
        )

    while not reached():
        assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
        await asyncio.sleep(0.02)  # polling the clients' progress
    live = [code for code, ps in tables if all(not t.done() for t in tasks)]
    for _, ps in tables:
        for p in ps:
            assert (
                p.state is None
                or p.state["observation"] is None
                or (p.state["observation"]["phase"] != "MATCH_OVER")
            ), "a match ended before the kill"
    killed_at = time.monotonic()
    go.set()  # the tables that waited play on while the process dies
    await asyncio.to_thread(owner.kill)
    await asyncio.to_thread(owner.start)  # a fresh process with a new node id
    done, pending = await asyncio.wait(tasks, timeout=300)
    assert not pending, "some games did not finish"
    for t in done:
        t.result()
    for code, ps in tables:
        await asyncio.to_thread(check_room, db, code, ps)
    # the players on the killed process lost their connection and came back
    assert all(ps[0].lost_at is not None and ps[0].back_at is not None for _, ps in tables)
    back = [p.back_at - killed_at for _, ps in tables for p in ps if p.back_at is not None]
    assert len(live) == games
    return {"takeover_max": max(back) if back else 0.0, "games": float(games)}


@pytest.mark.parametrize("processes,rounds,games", [(2, 2, 5), (3, 2, 5)])
def test_a_process_dies_in_every_game(
    cluster: Callable[[int], list[Any]], pg: str, processes: int, rounds: int, games: int
) -> None:
    nodes = cluster(processes)
    worst = 0.0
    for r in range(rounds):
        stats = asyncio.run(kill_round(nodes, r % processes, games, 1000 * r + processes, pg))
        worst = max(worst, stats["takeover_max"])
    print(f"\n{processes} processes, {rounds * games} games, each with its owner SIGKILLed: "
          f"clients saw the game again at most {worst:.1f} s after the kill")  # fmt: skip


def test_lobby_calls_and_sockets_on_any_process(cluster: Callable[[int], list[Any]]) -> None:
    """Room info, joins and WebSockets give the same answers on every process,
    whichever owns the room (the others forward to it)."""
    from websockets.sync.client import connect

    a, b = cluster(2)
    code, token = create(a.http, 1)
    info_a = httpx.get(f"{a.http}/api/rooms/{code}", timeout=10).json()
    info_b = httpx.get(f"{b.http}/api/rooms/{code}", timeout=10).json()
    assert info_a == info_b and info_a["room"] == code
    join(b.http, code)  # the last human seat: forwarded to a, which starts the match
    full = httpx.post(f"{b.http}/api/rooms/{code}/join", json={"name": "Cy"}, timeout=10)
    assert full.status_code == 409, full.text
    for node in (a, b):
        missing = httpx.get(f"{node.http}/api/rooms/zzzzzzzzzz", timeout=10)
        assert missing.status_code == 404
        with connect(f"{node.ws}/ws/zzzzzzzzzz") as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "no_room"

    # a socket on b is relayed to a: the same welcome and state as on a, once
    # the game waits for a human (the humans here do not act, so it stays there)
    def stable(ws: Any) -> dict[str, Any]:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        while True:
            st = json.loads(ws.recv(timeout=10))
            if st["type"] == "state" and st["observation"]["current"] in (0, 1):
                return dict(st)

    with connect(f"{a.ws}/ws/{code}") as wa, connect(f"{b.ws}/ws/{code}") as wb:
        on_a, on_b = stable(wa), stable(wb)
        assert on_a["observation"] == on_b["observation"]
        assert on_a["version"] == on_b["version"] >= 1
        wb.send(json.dumps({"type": "command", "id": 1, "text": "PLAY NOTACARD"}))
        while True:
            err = json.loads(wb.recv(timeout=10))
            if err["type"] == "error":
                break
        assert err["id"] == 1 and err["code"] in ("bad_command", "illegal"), err


def test_a_room_nobody_watches_is_taken_over(cluster: Callable[[int], list[Any]]) -> None:
    """Its owner killed, a room is adopted from the log by a live process even
    before any client comes back (its bots and turn timer must go on)."""
    import redis

    a, b = cluster(2)
    code, _ = create(a.http, 1)
    r = redis.Redis.from_url(a.broker, decode_responses=True)
    assert r.get(f"unokit:lease:{code}") == a.node
    a.kill()
    deadline = time.monotonic() + 30
    while r.get(f"unokit:lease:{code}") != b.node:
        assert time.monotonic() < deadline, "the room was not taken over"
        time.sleep(0.1)  # polling Redis for the new owner
    info = httpx.get(f"{b.http}/api/rooms/{code}", timeout=10).json()
    assert info["room"] == code
    r.close()
