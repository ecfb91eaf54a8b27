"""Bots think in worker processes (unokit.web.botpool), never in the event loop:
a slow bot does not hold up other rooms, a worker killed mid-decision is
replaced and its room goes on, a replay does not hold up the rooms, stale
answers are dropped and a full queue refuses new rooms with bots."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit.testing.slowbot import register, sleep_and_mark
from unokit.web.app import create_app
from unokit.web.botpool import WorkerPool
from unokit.web.config import Settings

from .conftest import WS, connect, create_room

SLOW = "test-slow"
register()  # the level is known here too (rooms are created with it)
# a reply that never comes fails the test instead of hanging it
pytestmark = pytest.mark.timeout(240, method="thread")


def wait_for(cond: Callable[[], Any], timeout: float = 90.0, what: str = "condition") -> Any:
    """Poll ``cond`` until it is truthy; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"no {what} in {timeout} s")


@pytest.fixture
def slow_dir(tmp_path: Path) -> Path:
    d = tmp_path / "slow"
    d.mkdir()
    (d / "seconds").write_text("3")
    return d


@pytest.fixture
def pool_settings(settings: Settings, slow_dir: Path) -> Settings:
    settings.bot_workers = 1
    settings.bot_imports = (f"unokit.testing.slowbot:{slow_dir}",)
    return settings


@pytest.fixture
def pool_client(pool_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(pool_settings)) as c:
        try:
            yield c
        finally:
            close_sockets()


def started(d: Path) -> list[Path]:
    return sorted(d.glob("started-*"), key=lambda p: p.stat().st_mtime_ns)


def my_turn(ws: WS, seat: int = 0) -> dict[str, Any]:
    """The next state in which ``seat`` has a move to make on its turn."""
    return ws.state(
        lambda m: (
            m["observation"] is not None
            and m["observation"]["current"] == seat
            and bool(m["observation"]["legal"])
        )
    )


def play_first_legal(ws: WS, state: dict[str, Any], msg_id: int) -> dict[str, Any]:
    legal = [m for m in state["observation"]["legal"] if " UNO" not in m and "CATCH" not in m]
    ws.send({"type": "command", "id": msg_id, "text": legal[0]})
    return ws.reply(msg_id)


_OPEN: list[Any] = []


def close_sockets() -> None:
    """Close the test's sockets even when it fails (else the app cannot stop)."""
    while _OPEN:
        cm = _OPEN.pop()
        with contextlib.suppress(Exception):
            cm.__exit__(None, None, None)


def hello(client: TestClient, room: dict[str, Any]) -> tuple[Any, WS]:
    cm = connect(client, room["room"])
    ws = WS(cm.__enter__())
    _OPEN.append(cm)
    ws.send({"type": "hello", "token": room["token"]})
    return cm, ws


def start_slow_decision(client: TestClient, slow_dir: Path) -> tuple[Any, WS, int]:
    """A room of a person and the slow bot, with the bot in the middle of a
    decision; returns the connection, its wrapper and the room's version."""
    room = create_room(client, seats=[{"kind": "human"}, {"kind": "bot", "level": SLOW}])
    cm, ws = hello(client, room)
    before = len(started(slow_dir))
    state = ws.state(lambda m: m["observation"] is not None)
    msg_id = 1
    # the person moves until the bot's turn (a draw, then a kept card, keeps
    # the turn for a second command: a deal where the person must draw first)
    while state["observation"]["current"] == 0 and state["observation"]["legal"]:
        play_first_legal(ws, state, msg_id)
        msg_id += 1
        version = state["version"]
        state = ws.state(lambda m, v=version: m["version"] > v and m["observation"] is not None)
    wait_for(lambda: len(started(slow_dir)) > before, what="slow decision")
    return cm, ws, state["version"]


def test_a_slow_bot_does_not_hold_up_other_rooms(pool_client: TestClient, slow_dir: Path) -> None:
    cm_a, ws_a, _ = start_slow_decision(pool_client, slow_dir)
    room_a = next(iter(pool_client.app.state.hub.rooms.values()))  # type: ignore[attr-defined]
    thinking_at = room_a.version
    # another room, with a person and a heuristic bot, plays on meanwhile
    room_b = create_room(pool_client)
    cm_b, ws_b = hello(pool_client, room_b)
    times = []
    for i in range(4):
        state = my_turn(ws_b)
        t0 = time.perf_counter()
        reply = play_first_legal(ws_b, state, 100 + i)
        times.append(time.perf_counter() - t0)
        assert reply["type"] == "ack", reply
        if state["observation"]["phase"] == "ROUND_OVER":
            break
    # the slow bot was thinking all along (its room has not moved)
    assert room_a.version == thinking_at
    assert max(times) < 0.1, times
    # and the table was told its bot is thinking
    ws_a.until(lambda m: m["type"] == "thinking" and m["seat"] == 1)


def test_a_worker_killed_mid_decision_is_replaced_and_the_room_goes_on(
    pool_client: TestClient, slow_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (slow_dir / "seconds").write_text("60")
    caplog.set_level(logging.WARNING, logger="unokit.web.room")
    cm, ws, _ = start_slow_decision(pool_client, slow_dir)
    pool = pool_client.app.state.hub.bots  # type: ignore[attr-defined]
    pid = int(started(slow_dir)[-1].name.split("-")[1])
    assert pool.pids() == [pid]
    (slow_dir / "seconds").write_text("0")
    os.kill(pid, signal.SIGKILL)
    # the seat gets a legal move at once, and the room goes on
    moved = ws.state(lambda m: (m["last"] or {}).get("seat") == 1)
    assert moved["last"]["by"] == "bot"
    wait_for(lambda: pool.replaced == 1, what="replacement")
    lines = [r.getMessage() for r in caplog.records if "was lost" in r.getMessage()]
    assert len(lines) == 1 and f"pid {pid}" in lines[0], lines

    # the next decisions are made by a new worker
    def over(m: dict[str, Any]) -> bool:
        return m["observation"]["phase"] in ("ROUND_OVER", "MATCH_OVER")

    def mine(m: dict[str, Any]) -> bool:
        o = m["observation"]
        return o is not None and (over(m) or (o["current"] == 0 and bool(o["legal"])))

    state, acted, bot_moves = moved, set(), 0
    for i in range(400):
        if over(state) or bot_moves >= 3:
            break
        if mine(state) and state["version"] not in acted:
            acted.add(state["version"])
            assert play_first_legal(ws, state, 10 + i)["type"] == "ack"
        state = ws.state(lambda m: m["observation"] is not None)
        if (state["last"] or {}).get("seat") == 1:
            bot_moves += 1
    assert bot_moves >= 3 or over(state)
    assert pool.pids() and pool.pids() != [pid]
    assert pool.replaced == 1


def long_record(client: TestClient) -> str:
    """The record of a whole match played by the heuristic bots (thousands of commands)."""
    from unokit.bots import make_bot
    from unokit.bots.sim import play_match
    from unokit.engine.game import Game
    from unokit.records.record import record_of

    g = Game.new("classic", 4, seed=11, events=True)
    play_match(g, [make_bot("heuristic", seed=s) for s in range(4)])
    return record_of(g, ["a", "b", "c", "d"], producer="test").dumps()


def test_a_replay_does_not_hold_up_other_rooms(pool_client: TestClient) -> None:
    record = long_record(pool_client)
    heavy_out: dict[str, Any] = {}

    def replay() -> None:
        heavy_out["r"] = pool_client.post("/api/replay", json={"record": record, "seat": 0})

    room_b = create_room(pool_client)
    cm_b, ws_b = hello(pool_client, room_b)
    state = my_turn(ws_b)
    worker = threading.Thread(target=replay)
    t_start = time.perf_counter()
    worker.start()
    times = []
    i = 0
    while worker.is_alive() and i < 30:
        t0 = time.perf_counter()
        ws_b.ping(500 + i)
        times.append(time.perf_counter() - t0)
        i += 1
    if state["observation"]["current"] == 0:
        t0 = time.perf_counter()
        play_first_legal(ws_b, state, 1)
        times.append(time.perf_counter() - t0)
    worker.join(120)
    took = time.perf_counter() - t_start
    r = heavy_out["r"]
    assert r.status_code == 200, r.text[:200]
    assert len(r.json()["steps"]) > 500
    assert times and max(times) < 0.1, (times, took)


def test_replays_are_rate_limited_per_address(
    pool_settings: Settings,
) -> None:
    pool_settings.replay_per_minute = 2
    with TestClient(create_app(pool_settings)) as client:
        bad = {"record": "not a record", "seat": 0}
        assert [client.post("/api/replay", json=bad).status_code for _ in range(2)] == [422, 422]
        r = client.post("/api/replay", json=bad)
        assert r.status_code == 429
        assert r.headers["retry-after"] == "60"


def test_a_full_queue_refuses_new_rooms_with_bots(pool_settings: Settings, slow_dir: Path) -> None:
    pool_settings.bot_queue = 1
    (slow_dir / "seconds").write_text("30")
    with TestClient(create_app(pool_settings)) as client, contextlib.ExitStack() as stack:
        stack.callback(close_sockets)
        start_slow_decision(client, slow_dir)  # the worker thinks
        room = create_room(client, seats=[{"kind": "human"}, {"kind": "bot", "level": SLOW}])
        cm, ws = hello(client, room)
        pool = client.app.state.hub.bots  # type: ignore[attr-defined]
        first = ws.state(lambda m: m["observation"] is not None)
        if first["observation"]["current"] == 0:
            play_first_legal(ws, first, 1)
        wait_for(lambda: pool.waiting >= 1, what="a waiting decision")
        body = {"variant": "classic", "name": "Zed",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "hard"}]}  # fmt: skip
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 503, r.text
        assert "busy" in r.json()["detail"] and "try again in" in r.json()["detail"]
        assert int(r.headers["retry-after"]) >= 1
        # a room of cheap bots (they decide in the loop) is still welcome
        body["seats"] = [{"kind": "human"}, {"kind": "bot", "level": "normal"}]
        assert client.post("/api/rooms", json=body).status_code == 201
        (slow_dir / "seconds").write_text("0")


def test_meta_lists_only_levels_a_room_can_be_created_with(client: TestClient) -> None:
    levels = client.get("/api/meta").json()["bots"]
    assert "engine" not in levels
    for level in levels:
        body = {"variant": "classic", "name": "Ann",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]}  # fmt: skip
        assert client.post("/api/rooms", json=body).status_code == 201, level


# ---------------------------------------------------------------- the pool alone


def test_a_job_cancelled_while_it_waits_never_runs(tmp_path: Path) -> None:
    async def main() -> None:
        pool = WorkerPool(1, queue_limit=10)
        try:
            first = pool.submit(sleep_and_mark, str(tmp_path / "a"), 1.0)
            second = pool.submit(sleep_and_mark, str(tmp_path / "b"), 0.0)
            assert pool.waiting == 2 or pool.waiting == 1
            second.cancel()  # its room moved on: the answer would be stale
            third = pool.submit(sleep_and_mark, str(tmp_path / "c"), 0.0)
            pid = await asyncio.wait_for(first, 60)
            assert await asyncio.wait_for(third, 60) == pid
            assert not (tmp_path / "b").exists()
        finally:
            await pool.stop()

    asyncio.run(main())


def test_a_hung_worker_is_killed_and_replaced(tmp_path: Path) -> None:
    from unokit.web.botpool import WorkerLost

    async def main() -> None:
        pool = WorkerPool(1, queue_limit=10, hang_timeout=30.0)
        try:
            hung = pool.submit(sleep_and_mark, str(tmp_path / "a"), 600.0)
            with pytest.raises(WorkerLost, match="no answer"):
                await asyncio.wait_for(hung, 120)
            pid = hung.exception().pid  # type: ignore[union-attr]
            again = await asyncio.wait_for(pool.run(sleep_and_mark, str(tmp_path / "b"), 0), 120)
            assert again != pid and pool.replaced == 1
        finally:
            await pool.stop()

    asyncio.run(main())


def test_workers_run_nicer_than_the_server(tmp_path: Path) -> None:
    """When every core is busy, the event loop gets the CPU before a bot's
    search or a replay (both are counts, not deadlines: they only wait)."""
    from unokit.web.botpool import WORKER_NICENESS

    async def main() -> None:
        pool = WorkerPool(1, queue_limit=10)
        try:
            pid = await asyncio.wait_for(pool.run(sleep_and_mark, str(tmp_path / "a"), 0), 120)
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + WORKER_NICENESS)
        finally:
            await pool.stop()

    asyncio.run(main())
