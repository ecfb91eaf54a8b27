"""Bot decisions in ``unokit bot-worker`` processes on any machine (``--broker``).

A cluster of ``unokit serve --broker redis://…`` processes (:mod:`unokit.web.cluster`)
can send its bots' decisions to separate worker processes, so that bot
capacity grows by starting workers, wherever they run. Redis carries
everything, and every message is JSON (never a pickle: a worker trusts only the
broker, and even then reads data, not code):

* **Jobs.** A server adds each decision to the stream ``unokit:bots:jobs`` as
  ``{"id", "level", "seed", "obs", "reply", "deadline"}``: the seat's
  observation as :meth:`~unokit.engine.observation.Observation.to_dict` (the
  form the table's page gets: never the hidden state), the level, the
  decision's seed (:func:`~unokit.bots.budget.decision_seed`: a function of the
  seat and the room's version), the list the answer goes to and the time (Unix
  ms) after which nobody waits for it any more.
* **Workers.** Every ``unokit bot-worker`` reads the stream in the consumer
  group ``bots`` (each job goes to one worker), decides in its own
  :class:`~unokit.web.botpool.WorkerPool` with :func:`~unokit.web.botpool.decide`
  (the code path, and the count budget, of a server's local workers: the same
  job gets the same move from any worker), pushes the answer
  ``{"id", "action", "cpu", "worker"}`` (or ``{"id", "error"}``) to the job's
  reply list and acknowledges the job in one transaction. A worker that died
  leaves its jobs pending in the group; any other worker claims those idle
  longer than ``--claim-after`` seconds (``XAUTOCLAIM``) and answers them.
  Each worker keeps itself in the sorted set ``unokit:bots:workers`` (score:
  the time its entry expires), so servers know how many are alive.
* **Servers.** A server sends a decision to the workers while at least one is
  alive, else to its own local workers (``--bot-workers N``; 0: none). A
  remote decision not answered by its deadline (``--bot-hang`` seconds), or
  pending when the last worker's entry expires, goes to the local workers, and
  without them the seat plays the heuristic's legal move with one log line: a
  room never stalls. An answer is checked against the observation's legal
  moves; an answer that is not JSON, names no waiting job or is not legal is
  logged and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unokit.web.botpool import WorkerLost, WorkerPool, decide

if TYPE_CHECKING:
    from collections.abc import Callable

    from redis.asyncio import Redis

    from unokit.engine.actions import Action
    from unokit.engine.observation import Observation

__all__ = [
    "BrokerBots",
    "BotWorker",
    "Job",
    "JOBS_KEY",
    "GROUP",
    "WORKERS_KEY",
    "REPLY_PREFIX",
    "STATS_KEY",
    "parse_job",
    "is_legal",
]

log = logging.getLogger("unokit.web.botbroker")

JOBS_KEY = "unokit:bots:jobs"
GROUP = "bots"
WORKERS_KEY = "unokit:bots:workers"
REPLY_PREFIX = "unokit:bots:done:"
#: decisions answered, per worker name (a hash, for the operator and tests)
STATS_KEY = "unokit:bots:answered"

#: the largest job or answer read, in characters (an observation is a few kB)
MAX_MESSAGE = 1 << 20
#: the stream keeps about this many entries (jobs are deleted once answered)
STREAM_MAX = 100_000
#: seconds a worker's entry in :data:`WORKERS_KEY` lasts without renewal
WORKER_TTL = 3.0
#: seconds an answer list lives after its last answer (its server died)
REPLY_TTL = 120


def _redis(url: str, connections: int) -> Redis:
    from redis.asyncio import BlockingConnectionPool, Redis

    pool = BlockingConnectionPool.from_url(
        url, decode_responses=True, max_connections=connections, timeout=20
    )
    return Redis(connection_pool=pool)


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Job:
    id: str
    level: str
    seed: int
    obs: Observation
    reply: str
    deadline: int  # Unix ms


def parse_job(text: Any) -> Job:
    """A job read from the stream; :class:`ValueError` says what is wrong."""
    from unokit.agents.botclient import observation_from_dict

    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        raise ValueError("not a JSON text of at most 1 MiB")
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(d, dict):
        raise ValueError("not a JSON object")
    kinds = {"id": str, "level": str, "seed": int, "obs": dict, "reply": str, "deadline": int}
    for key, kind in kinds.items():
        if not isinstance(d.get(key), kind) or isinstance(d.get(key), bool):
            raise ValueError(f"{key!r} missing or not a {kind.__name__}")
    if not d["reply"].startswith(REPLY_PREFIX):
        raise ValueError(f"reply {d['reply']!r} is not a list of {REPLY_PREFIX}*")
    if not 0 <= d["seed"] < 1 << 63:
        raise ValueError("seed out of range")
    try:
        obs = observation_from_dict(d["obs"])
    except Exception as e:  # any shape error of the observation
        raise ValueError(f"bad observation: {type(e).__name__}: {e}") from None
    if obs.seat is None or not obs.legal:
        raise ValueError("the observation has no decision to make")
    return Job(d["id"], d["level"], d["seed"], obs, d["reply"], d["deadline"])


# ---------------------------------------------------------------- server side


def is_legal(action: Action, obs: Observation) -> bool:
    """``action`` is one of ``obs``'s legal moves (a play may also call UNO)."""
    from dataclasses import replace

    from unokit.engine.actions import Play

    if action in obs.legal:
        return True
    return isinstance(action, Play) and action.uno and replace(action, uno=False) in obs.legal


@dataclass
class _Pending:
    future: asyncio.Future[tuple[Action, float]]
    obs: Observation
    deadline: float  # monotonic


class BrokerBots:
    """A server's bot workers under ``--broker``: the remote workers while any
    is alive, else (and when they fail) ``local`` (None: none), finally
    :class:`~unokit.web.botpool.WorkerLost` (the room plays a legal fallback).

    It offers what a room and the app use of a
    :class:`~unokit.web.botpool.WorkerPool` (``submit``, ``run``, ``full``,
    ``retry_after``, ``waiting``, ``prestart``, ``stop``)."""

    def __init__(
        self,
        url: str,
        node: str,
        *,
        local: WorkerPool | None,
        queue_limit: int | None = None,
        deadline: float = 60.0,
    ) -> None:
        self.url = url
        self.local = local
        self.queue_limit = queue_limit
        self.deadline = deadline
        self.reply_key = REPLY_PREFIX + node
        self.redis = _redis(url, 8)
        self._pending: dict[str, _Pending] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[Any]] = set()
        self._stopped = False
        self._ids = 0
        self._prefix = secrets.token_hex(4)
        #: remote worker processes alive and their total concurrency, as last read
        self.alive = 0
        self.capacity = 0
        #: decisions answered by remote workers, and those that fell back
        self.answered = 0
        self.fell_back = 0

    # ------------------------------------------------------------ pool face

    @property
    def workers(self) -> int:
        return self.capacity + (self.local.workers if self.local is not None else 0)

    @property
    def waiting(self) -> int:
        """Decisions of this server waiting for an answer (remote) or a local worker."""
        return len(self._pending) + (self.local.waiting if self.local is not None else 0)

    def full(self) -> bool:
        """No worker at all, or more than ``queue_limit`` decisions wait (None:
        60 per worker, local and remote)."""
        if self.capacity == 0 and self.local is None:
            return True
        if self.capacity == 0 and self.local is not None:
            return self.local.full()
        limit = self.queue_limit if self.queue_limit is not None else 60 * self.workers
        return self.waiting >= limit

    def retry_after(self) -> int:
        if self.workers == 0:
            return 5
        mean = self.local.mean_seconds if self.local is not None else 0.05
        return max(1, min(120, round(self.waiting * mean / self.workers) + 1))

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn(*args)``: a bot decision (:func:`~unokit.web.botpool.decide`)
        goes to the remote workers while any is alive; anything else, and a
        decision when none is, to the local workers. Cancel it to stop waiting."""
        if self._stopped:
            raise RuntimeError("the bot workers are stopped")
        self._start()
        if fn is decide and self.alive > 0:
            task = asyncio.ensure_future(self._decide(*args))
            self._jobs.add(task)
            task.add_done_callback(self._jobs.discard)
            return task
        if self.local is not None:
            return self.local.submit(fn, *args)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fut.set_exception(WorkerLost("no bot worker is alive and this server has none", None))
        return fut

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        fut = self.submit(fn, *args)
        try:
            return await fut
        finally:
            fut.cancel()

    async def prestart(self) -> None:
        await self.start()
        if self.local is not None:
            await self.local.prestart()

    async def start(self) -> None:
        """Read the workers' count now, then keep reading it and the answers."""
        if not self._tasks:
            with contextlib.suppress(Exception):
                await self._count()
        self._start()

    def _start(self) -> None:
        if not self._tasks and not self._stopped:
            self._tasks = [
                asyncio.ensure_future(self._read_answers()),
                asyncio.ensure_future(self._watch()),
            ]

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        # a blocking read is not cancelled (redis-py may then never return):
        # it ends within its own timeout, seeing the flag
        await _finish(self._tasks[:1], [*self._tasks[1:], *self._jobs])
        for p in self._pending.values():
            p.future.cancel()
        self._pending.clear()
        if self.local is not None:
            await self.local.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------ deciding

    async def _decide(self, level: str, seed: int, obs: Observation) -> tuple[Action, float]:
        try:
            return await self._ask(level, seed, obs)
        except WorkerLost as e:
            self.fell_back += 1
            if self.local is None:
                raise
            log.warning(
                "a %s decision goes to this server's workers: %s", level, e.reason
            )  # fmt: skip
            result: tuple[Action, float] = await self.local.run(decide, level, seed, obs)
            return result

    async def _ask(self, level: str, seed: int, obs: Observation) -> tuple[Action, float]:
        loop = asyncio.get_running_loop()
        self._ids += 1
        jid = f"{self._prefix}-{self._ids}"
        fut: asyncio.Future[tuple[Action, float]] = loop.create_future()
        self._pending[jid] = _Pending(fut, obs, time.monotonic() + self.deadline)
        job = {
            "id": jid,
            "level": level,
            "seed": seed,
            "obs": obs.to_dict(),
            "reply": self.reply_key,
            "deadline": _now_ms() + int(self.deadline * 1000),
        }
        try:
            try:
                await self.redis.xadd(
                    JOBS_KEY, {"job": json.dumps(job)}, maxlen=STREAM_MAX, approximate=True
                )
            except Exception as e:
                raise WorkerLost(f"the broker refused the job ({e})", None) from None
            return await fut
        finally:
            self._pending.pop(jid, None)

    def _answer(self, text: str) -> None:
        """One answer from the reply list: resolve its job, or log and drop it."""
        from unokit.engine.actions import parse_action
        from unokit.engine.variants import get_variant

        try:
            d = json.loads(text) if len(text) <= MAX_MESSAGE else None
        except json.JSONDecodeError:
            d = None
        if not isinstance(d, dict) or not isinstance(d.get("id"), str):
            log.warning("a malformed bot answer in %s was dropped: %.80r", self.reply_key, text)
            return
        p = self._pending.get(d["id"])
        if p is None or p.future.done():
            log.debug("an answer to job %s, which nobody waits for, was dropped", d["id"])
            return
        if "error" in d:
            p.future.set_exception(WorkerLost(f"the remote worker failed: {d['error']}", None))
            return
        try:
            action = parse_action(str(d.get("action")), get_variant(p.obs.variant).cards)
            cpu = float(d.get("cpu", 0.0))
        except Exception as e:
            action, cpu = None, 0.0
            why = f"{type(e).__name__}: {e}"
        else:
            why = f"{action} is not a legal move"
        if action is None or not is_legal(action, p.obs):
            log.warning("a bad bot answer to job %s was dropped (%s)", d["id"], why)
            p.future.set_exception(WorkerLost(f"a bad answer ({why})", None))
            return
        self.answered += 1
        p.future.set_result((action, cpu))

    async def _read_answers(self) -> None:
        while not self._stopped:
            try:
                got = await self.redis.blpop([self.reply_key], timeout=0.5)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cannot read bot answers from the broker: %s", e)
                await asyncio.sleep(1.0)
                continue
            if got is None:
                continue
            self._answer(str(got[1]))
            with contextlib.suppress(Exception):  # and those that came meanwhile
                for text in await self.redis.lpop(self.reply_key, 200) or []:
                    self._answer(str(text))

    async def _count(self) -> None:
        now = _now_ms()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(WORKERS_KEY, "-inf", now)
        pipe.zrange(WORKERS_KEY, 0, -1)
        _, members = await pipe.execute()
        capacity = 0
        for m in members:
            with contextlib.suppress(ValueError):
                capacity += max(1, int(str(m).rsplit("/", 1)[-1]))
        self.alive, self.capacity = len(members), capacity

    async def _watch(self) -> None:
        """Every half second: the workers alive; fail the jobs nobody will answer."""
        while True:
            await asyncio.sleep(0.5)
            try:
                await self._count()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cannot count bot workers on the broker: %s", e)
                self.alive = self.capacity = 0
            now = time.monotonic()
            for p in list(self._pending.values()):
                if p.future.done():
                    continue
                if self.alive == 0:
                    p.future.set_exception(WorkerLost("no bot worker is alive", None))
                elif now > p.deadline:
                    p.future.set_exception(
                        WorkerLost(f"no bot worker answered in {self.deadline:g} s", None)
                    )


async def _finish(reading: list[asyncio.Task[Any]], others: list[asyncio.Task[Any]]) -> None:
    """Stop tasks: ``others`` are cancelled; ``reading`` (blocked in a Redis
    read with a short timeout, that sees a stop flag) are awaited a while."""
    for t in others:
        t.cancel()
    if reading:
        _done, late = await asyncio.wait(reading, timeout=3)
        for t in late:
            t.cancel()
    for t in others:
        with contextlib.suppress(BaseException):
            await t


# ---------------------------------------------------------------- worker side


class BotWorker:
    """``unokit bot-worker``: decides the jobs of the stream with ``concurrency``
    processes (see the module docstring)."""

    def __init__(
        self,
        url: str,
        *,
        concurrency: int = 1,
        claim_after: float = 10.0,
        hang: float = 60.0,
        name: str | None = None,
        imports: tuple[str, ...] = (),
    ) -> None:
        if concurrency < 1:
            raise ValueError("a bot worker needs a concurrency of at least 1")
        self.url = url
        self.concurrency = concurrency
        self.claim_ms = int(claim_after * 1000)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.member = f"{self.name}/{concurrency}"
        self.redis = _redis(url, concurrency + 4)
        self.pool = WorkerPool(
            concurrency, queue_limit=1 << 30, hang_timeout=hang, imports=imports, name="bot"
        )
        self._slots = asyncio.Semaphore(concurrency)
        self._work: set[asyncio.Task[None]] = set()
        self._stopping = False
        #: jobs answered, jobs dropped as malformed or late
        self.done = 0
        self.dropped = 0

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Work until ``stop`` is set (or forever); then finish the jobs in hand."""
        from redis.exceptions import ResponseError

        try:
            await self.redis.xgroup_create(JOBS_KEY, GROUP, id="0", mkstream=True)
        except ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise
        await self.pool.prestart()
        await self._beat_once()
        log.info(
            "bot worker %s: %d processes on %s",
            self.name, self.concurrency, self.url.split("@")[-1],
        )  # fmt: skip
        tasks = [
            asyncio.ensure_future(self._beat()),
            asyncio.ensure_future(self._read()),
        ]
        try:
            if stop is None:
                await asyncio.gather(*tasks)
            else:
                await stop.wait()
        finally:
            self._stopping = True
            await _finish(tasks[1:], tasks[:1])
            if self._work:
                await asyncio.wait(self._work, timeout=10)
            with contextlib.suppress(Exception):
                await self.redis.zrem(WORKERS_KEY, self.member)
            await self.pool.stop()
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    async def _beat_once(self) -> None:
        await self.redis.zadd(WORKERS_KEY, {self.member: _now_ms() + int(WORKER_TTL * 1000)})

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(WORKER_TTL / 3)
            try:
                await self._beat_once()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cannot reach the broker: %s", e)

    def _spawn(self, entry: str, fields: Any) -> None:
        task = asyncio.ensure_future(self._handle(entry, fields))
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def _read(self) -> None:
        """Whenever a process is free: a job of a worker that died, pending
        longer than ``claim_after`` (looked for every ``claim_after / 4``
        seconds), else the next new job."""
        last_claim = last_tidy = 0.0
        while not self._stopping:
            await self._slots.acquire()
            try:
                entries: list[Any] = []
                now = time.monotonic()
                if now - last_claim > max(0.2, self.claim_ms / 4000):
                    last_claim = now
                    found: Any = await self.redis.xautoclaim(
                        JOBS_KEY, GROUP, self.name, min_idle_time=self.claim_ms, count=1
                    )
                    entries = [(e, f) for e, f in found[1] if f]
                    for entry, _ in entries:
                        log.info("bot worker %s: took over job %s", self.name, entry)
                if now - last_tidy > 60:
                    last_tidy = now
                    await self._tidy()
                if not entries:
                    got: Any = await self.redis.xreadgroup(
                        GROUP, self.name, {JOBS_KEY: ">"}, count=1, block=500
                    )
                    entries = [e for _stream, items in got or [] for e in items]
            except asyncio.CancelledError:
                self._slots.release()
                raise
            except Exception as e:
                self._slots.release()
                log.warning("cannot read jobs from the broker: %s", e)
                await asyncio.sleep(1.0)
                continue
            if not entries:
                self._slots.release()
                continue
            for entry, fields in entries:  # one (count=1): the slot passes to it
                self._spawn(entry, fields)

    async def _tidy(self) -> None:
        """Forget consumers gone for an hour with nothing pending."""
        for c in await self.redis.xinfo_consumers(JOBS_KEY, GROUP):
            if c["pending"] == 0 and c["idle"] > 3_600_000:
                await self.redis.xgroup_delconsumer(JOBS_KEY, GROUP, c["name"])

    async def _handle(self, entry: str, fields: Any) -> None:
        """Decide one job (a process slot is held), answer it and acknowledge it."""
        try:
            raw = fields.get("job") if isinstance(fields, dict) else None
            try:
                job = parse_job(raw)
            except ValueError as e:
                self.dropped += 1
                log.warning("bot worker %s: job %s is malformed (%s); dropped", self.name, entry, e)
                await self._ack(entry)
                return
            if job.deadline < _now_ms():
                self.dropped += 1
                log.info("bot worker %s: job %s came after its deadline; dropped", self.name, entry)
                await self._ack(entry)
                return
            answer: dict[str, Any]
            try:
                action, cpu = await self.pool.run(decide, job.level, job.seed, job.obs)
                answer = {"id": job.id, "action": str(action), "cpu": cpu, "worker": self.name}
            except WorkerLost as e:
                answer = {"id": job.id, "error": f"its process was lost: {e.reason}"}
            except Exception as e:
                answer = {"id": job.id, "error": f"{type(e).__name__}: {e}"}
            pipe = self.redis.pipeline(transaction=True)
            pipe.rpush(job.reply, json.dumps(answer))
            pipe.expire(job.reply, REPLY_TTL)
            pipe.xack(JOBS_KEY, GROUP, entry)
            pipe.xdel(JOBS_KEY, entry)
            if "action" in answer:
                pipe.hincrby(STATS_KEY, self.name, 1)
            await pipe.execute()
            self.done += 1
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the broker went away: the job stays pending, claimed later
            log.warning("bot worker %s: job %s not answered: %s", self.name, entry, e)
        finally:
            self._slots.release()

    async def _ack(self, entry: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.xack(JOBS_KEY, GROUP, entry)
        pipe.xdel(JOBS_KEY, entry)
        await pipe.execute()
