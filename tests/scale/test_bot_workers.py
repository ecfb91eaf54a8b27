"""Bot decisions in ``unokit bot-worker`` processes through Redis (issue 25).

Each test starts its own ``redis-server`` on a free port of 127.0.0.1
(tests/scale/conftest.py) and, where it needs one, real ``unokit bot-worker``
processes; the server side is :class:`~unokit.web.botbroker.BrokerBots`, as a
``unokit serve --broker`` process runs it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from unokit.bots import make_bot
from unokit.engine.game import Game
from unokit.engine.observation import Observation
from unokit.web.botbroker import (
    GROUP,
    JOBS_KEY,
    STATS_KEY,
    WORKERS_KEY,
    BrokerBots,
    is_legal,
)
from unokit.web.botpool import WorkerLost, WorkerPool, decide

UNOKIT = Path(sys.executable).with_name("unokit")
pytestmark = pytest.mark.timeout(240)


class Worker:
    """One ``unokit bot-worker`` process."""

    def __init__(self, broker: str, log: Path, *args: str) -> None:
        self.log = log
        cmd = [str(UNOKIT), "bot-worker", "--broker", broker, "--concurrency", "1", *args]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        r = redis.Redis.from_url(broker, decode_responses=True)
        deadline = time.monotonic() + 60
        # its entry in the workers' set names it by pid
        while not any(f"-{self.proc.pid}-" in m for m in r.zrange(WORKERS_KEY, 0, -1)):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"bot worker did not start: {log.read_text()[-2000:]}")
            time.sleep(0.05)  # polling for readiness
        self.name = next(m for m in r.zrange(WORKERS_KEY, 0, -1) if f"-{self.proc.pid}-" in m)
        self.name = self.name.rsplit("/", 1)[0]
        r.close()

    def text(self) -> str:
        return self.log.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def workers(redis_url: str, tmp_path: Path) -> Iterator[list[Worker]]:
    made: list[Worker] = []
    yield made
    for w in made:
        w.stop()


def positions() -> list[tuple[Observation, int]]:
    """Decisions of real games (2 and 4 players, every variant): the seat to
    act's observation at a few versions, with a seed each."""
    out: list[tuple[Observation, int]] = []
    for variant, players in (("classic", 2), ("classic", 4), ("flip", 3), ("flex", 2)):
        g = Game.new(variant, players, seed=11)
        bot = make_bot("heuristic", seed=5)
        for step in range(40):
            seat = g.to_act
            if seat is None:
                break
            obs = g.observe(seat)
            if step % 8 == 3 and len(obs.legal) > 1:
                out.append((obs, 1000 + step))
            g.apply(bot.act(obs))
    return out


async def until(cond: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)  # polling a condition, not a timing assertion


def test_a_remote_decision_is_the_local_pools(
    redis_url: str, workers: list[Worker], tmp_path: Path
) -> None:
    """The same level, seed and position give the same move whether a remote
    worker or the server's own worker pool decides: the job's JSON form of the
    observation loses nothing, and both run :func:`decide` on a count budget."""
    workers.append(Worker(redis_url, tmp_path / "w0.log"))
    cases = positions()
    assert len(cases) >= 6

    async def main() -> None:
        bots = BrokerBots(redis_url, "node-a", local=None, deadline=60)
        local = WorkerPool(1, queue_limit=100)
        await bots.start()
        try:
            await until(lambda: bots.alive == 1)
            for obs, seed in cases:
                remote, _ = await bots.run(decide, "hard", seed, obs)
                mine, _ = await local.run(decide, "hard", seed, obs)
                assert remote == mine, (obs.variant, seed)
                assert is_legal(remote, obs)
            assert bots.answered == len(cases) and bots.fell_back == 0
        finally:
            await bots.stop()
            await local.stop()

    asyncio.run(main())
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    assert int(r.hget(STATS_KEY, workers[0].name) or 0) == len(cases)
    assert r.xlen(JOBS_KEY) == 0  # answered jobs leave the stream


def fake_worker(r: redis.Redis, name: str = "fake/1") -> None:
    """An entry in the workers' set with no process behind it."""
    r.zadd(WORKERS_KEY, {name: int(time.time() * 1000) + 600_000})


def test_malformed_jobs_are_dropped_and_the_worker_goes_on(
    redis_url: str, workers: list[Worker], tmp_path: Path
) -> None:
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    obs, seed = positions()[0]
    bad_obs = obs.to_dict() | {"hand": ["not a card"]}
    good = {"id": "x", "level": "hard", "seed": seed, "obs": obs.to_dict(),
            "reply": "unokit:bots:done:t", "deadline": int(time.time() * 1000) + 60_000}  # fmt: skip
    garbage = [
        {"job": "not json {"},
        {"other": "field"},
        {"job": json.dumps([1, 2])},
        {"job": json.dumps(good | {"seed": "7"})},
        {"job": json.dumps(good | {"obs": bad_obs})},
        {"job": json.dumps(good | {"reply": "some:other:key"})},
        {"job": json.dumps(good | {"deadline": 5})},  # long past: dropped unanswered
    ]
    for fields in garbage:
        r.xadd(JOBS_KEY, fields)
    workers.append(Worker(redis_url, tmp_path / "w0.log"))
    w = workers[0]

    async def main() -> None:
        bots = BrokerBots(redis_url, "node-a", local=None, deadline=60)
        await bots.start()
        try:
            await until(lambda: bots.alive == 1)
            action, _ = await bots.run(decide, "hard", seed, obs)
            assert action == decide("hard", seed, obs)[0]
        finally:
            await bots.stop()

    asyncio.run(main())
    text = w.text()
    assert text.count("is malformed") == 6, text
    assert "after its deadline" in text
    assert r.xlen(JOBS_KEY) == 0
    assert r.xpending(JOBS_KEY, GROUP)["pending"] == 0
    assert r.llen("some:other:key") == 0 and r.llen("unokit:bots:done:t") == 0
    assert w.proc.poll() is None


def test_bad_answers_change_nothing(redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Answers that are not JSON or name no waiting job are logged and dropped;
    one that is not a legal move fails its job (the room then plays its
    fallback), never reaches the game; a good one still resolves its job."""
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    r.xgroup_create(JOBS_KEY, GROUP, id="0", mkstream=True)
    fake_worker(r)
    (obs, seed), (obs2, seed2) = positions()[:2]

    def take() -> dict[str, Any]:
        got = r.xreadgroup(GROUP, "fake", {JOBS_KEY: ">"}, count=1, block=10_000)
        assert got, "no job in the stream"
        return dict(json.loads(got[0][1][0][1]["job"]))

    async def main() -> None:
        bots = BrokerBots(redis_url, "node-a", local=None, deadline=60)
        await bots.start()
        try:
            await until(lambda: bots.alive == 1)
            first = bots.submit(decide, "hard", seed, obs)
            job = await asyncio.to_thread(take)
            assert job["level"] == "hard" and job["seed"] == seed
            assert job["obs"] == obs.to_dict()  # the seat's view only
            reply = job["reply"]
            illegal = (
                next(str(a) for a in obs2.legal if a not in obs.legal)
                if any(a not in obs.legal for a in obs2.legal)
                else "P9 DRAW"
            )
            for text in ("not json", json.dumps({"id": "nobody"}), json.dumps([1])):
                r.rpush(reply, text)
            r.rpush(reply, json.dumps({"id": job["id"], "action": illegal, "cpu": 0}))
            with pytest.raises(WorkerLost, match="not a legal move|bad answer"):
                await asyncio.wait_for(first, 30)
            second = bots.submit(decide, "hard", seed2, obs2)
            job2 = await asyncio.to_thread(take)
            right, cpu = decide("hard", seed2, obs2)
            r.rpush(reply, json.dumps({"id": job2["id"], "action": str(right), "cpu": cpu}))
            assert (await asyncio.wait_for(second, 30))[0] == right
            assert bots.answered == 1
        finally:
            await bots.stop()

    with caplog.at_level(logging.WARNING, logger="unokit.web.botbroker"):
        asyncio.run(main())
    messages = [rec.getMessage() for rec in caplog.records]
    assert sum("malformed bot answer" in m for m in messages) == 2, messages
    assert sum("bad bot answer" in m for m in messages) == 1, messages


def test_no_answer_falls_back(redis_url: str) -> None:
    """A job no worker answers fails at its deadline, and at once when the last
    worker's entry expires; with local workers it is decided there instead."""
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    fake_worker(r)
    obs, seed = positions()[0]

    async def main() -> None:
        bots = BrokerBots(redis_url, "node-a", local=None, deadline=1.5)
        local = WorkerPool(1, queue_limit=10)
        both = BrokerBots(redis_url, "node-b", local=local, deadline=1.5)
        await bots.start()
        await both.start()
        try:
            await until(lambda: bots.alive == 1 and both.alive == 1)
            with pytest.raises(WorkerLost, match="no bot worker answered in 1.5 s"):
                await asyncio.wait_for(bots.run(decide, "hard", seed, obs), 20)
            action, _ = await asyncio.wait_for(both.run(decide, "hard", seed, obs), 60)
            assert action == decide("hard", seed, obs)[0] and both.fell_back == 1
            bots.deadline = 60
            job = bots.submit(decide, "hard", seed, obs)
            r.zrem(WORKERS_KEY, "fake/1")  # the last worker is gone
            with pytest.raises(WorkerLost, match="no bot worker is alive"):
                await asyncio.wait_for(job, 20)
            # no worker alive and none of its own: refuse rooms with bots
            assert bots.full() and not both.full()
        finally:
            await bots.stop()
            await both.stop()

    asyncio.run(main())


# ---------------------------------------------------------------- a cluster


class Person:
    """Seat 0 of a room of one person and three ``hard`` bots: plays a random
    legal move at once, deals the next round, and records the versions seen."""

    def __init__(self, ws: str, code: str, token: str, seed: int) -> None:
        self.url, self.code, self.token = ws, code, token
        self.rng = random.Random(seed)
        self.version = 0
        self.bot_moves = 0
        self.errors: list[dict[str, Any]] = []

    async def play(self) -> None:
        from websockets.asyncio.client import connect

        async with connect(f"{self.url}/ws/{self.code}", open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            next_id = 0
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "error" and msg.get("code") != "stale":
                    self.errors.append(msg)
                if msg["type"] != "state" or msg["version"] <= self.version:
                    continue
                self.version = msg["version"]
                last = msg.get("last") or {}
                self.bot_moves += last.get("by") == "bot"
                obs = msg["observation"]
                if obs is None or obs["phase"] == "MATCH_OVER":
                    return
                next_id += 1
                if obs["phase"] == "ROUND_OVER":
                    out = {"type": "next_round", "id": next_id, "version": self.version}
                elif obs["current"] == 0 and obs["legal"]:
                    legal = [t for t in obs["legal"] if not t.endswith(" UNO")] or obs["legal"]
                    text = self.rng.choice(legal)
                    out = {"type": "command", "id": next_id, "text": text, "version": self.version}
                else:
                    continue
                await ws.send(json.dumps(out))


def make_room(node: Any, seed: int) -> tuple[str, str]:
    body = {
        "variant": "classic",
        "name": "Ann",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "hard"}] * 3,
        "options": {"targetScore": 100_000},  # the match goes on for the whole test
    }
    deadline = time.monotonic() + 30
    while True:  # 503 until the server has counted the worker (twice a second)
        r = httpx.post(node.http + "/api/rooms", json=body, timeout=10)
        if r.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.1)  # polling for the server to see the worker
    assert r.status_code == 201, r.text
    return str(r.json()["room"]), str(r.json()["token"])


def test_a_bot_worker_dies_mid_game_and_every_room_goes_on(
    serve: Callable[..., Any], redis_url: str, tmp_path: Path, workers: list[Worker]
) -> None:
    """Two ``unokit serve --broker --bot-workers 0`` processes (no bot worker
    of their own) and one ``unokit bot-worker``: rooms of three ``hard`` bots
    on both servers play on the worker. It is SIGKILLed mid-game: every room
    goes on (its bots play the heuristic's legal move, with a log line, while no
    worker is alive); a new worker is started and every room plays on with it."""
    # bots wait 50 ms or so per move: while no worker is alive, their fallback
    # moves would otherwise finish the match in a few seconds
    nodes = [serve("--bot-workers", "0", "--bot-delay", "0.05") for _ in range(2)]
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    first = Worker(redis_url, tmp_path / "w0.log", "--claim-after", "2")
    workers.append(first)
    people = []
    for i in range(4):
        node = nodes[i % 2]
        code, token = make_room(node, i)
        people.append(Person(node.ws, code, token, i))

    def answered(w: Worker) -> int:
        return int(r.hget(STATS_KEY, w.name) or 0)

    def fallbacks() -> int:
        return sum(n.log.read_text().count("no bot worker decided") for n in nodes)

    async def main() -> None:
        tasks = [asyncio.create_task(p.play()) for p in people]

        async def progress(moves: int, timeout: float = 60.0) -> None:
            start = [p.bot_moves for p in people]
            deadline = time.monotonic() + timeout
            while not all(p.bot_moves >= s + moves for p, s in zip(people, start, strict=True)):
                for t in tasks:
                    if t.done():
                        t.result()  # a player's error, else a match over (not expected)
                        raise AssertionError("a player stopped")
                assert time.monotonic() < deadline, [
                    p.bot_moves - s for p, s in zip(people, start, strict=True)
                ]
                await asyncio.sleep(0.05)  # polling the rooms' progress

        try:
            await progress(12)
            # the bots so far all thought in the worker
            assert answered(first) >= 12 * len(people)
            assert fallbacks() == 0
            first.proc.send_signal(signal.SIGKILL)
            first.proc.wait(timeout=10)
            await progress(12)  # no worker: the rooms go on with legal fallbacks
            assert fallbacks() > 0
            second = await asyncio.to_thread(
                Worker, redis_url, tmp_path / "w1.log", "--claim-after", "2"
            )
            workers.append(second)
            await progress(12)
            assert answered(second) > 0
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    assert all(not p.errors for p in people), [p.errors for p in people]
    assert all(n.alive for n in nodes)


def test_a_job_taken_by_a_dead_worker_is_claimed_by_another(
    redis_url: str, workers: list[Worker], tmp_path: Path
) -> None:
    """A consumer that took a job and died (it never answers) leaves it pending;
    a live worker takes it over after ``--claim-after`` and the server gets the
    answer it would have got, well before its own deadline."""
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    r.xgroup_create(JOBS_KEY, GROUP, id="0", mkstream=True)
    obs, seed = positions()[2]

    async def main() -> None:
        bots = BrokerBots(redis_url, "node-a", local=None, deadline=120)
        await bots.start()
        fake_worker(r, "ghost/1")  # alive as far as the server knows, until it is not
        try:
            await until(lambda: bots.alive == 1)
            job = bots.submit(decide, "hard", seed, obs)
            got = await asyncio.to_thread(
                r.xreadgroup, GROUP, "ghost", {JOBS_KEY: ">"}, count=1, block=10_000
            )
            assert got, "the ghost took no job"
            w = await asyncio.to_thread(
                Worker, redis_url, tmp_path / "w0.log", "--claim-after", "1"
            )
            workers.append(w)
            action, _ = await asyncio.wait_for(job, 60)
            assert action == decide("hard", seed, obs)[0]
            assert bots.answered == 1 and bots.fell_back == 0
            assert "took over job" in w.text()
        finally:
            await bots.stop()

    asyncio.run(main())
    assert r.xpending(JOBS_KEY, GROUP)["pending"] == 0
