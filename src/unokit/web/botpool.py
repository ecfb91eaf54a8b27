"""CPU-heavy work off the event loop: bot decisions and replays in worker processes.

The server's event loop serves every room; a bot that searches for a few
hundred milliseconds in it would hold up every table. A :class:`WorkerPool`
runs such work in separate processes (``unokit serve --bot-workers N``):

* **What crosses.** A bot decision sends only the seat's
  :class:`~unokit.engine.observation.Observation`, the level and a seed
  (:func:`decide`); the worker never sees the hidden state. The answer is a
  pure function of those three (:mod:`unokit.bots.budget`: budgets are
  counts), so it does not matter which worker answers.
* **Slots.** Each worker is its own one-process
  :class:`concurrent.futures.ProcessPoolExecutor` (``forkserver`` start where
  available, else ``spawn``: never a fork of the server with its sockets and
  threads). Jobs wait in one first-in first-out queue and go to the next free
  slot; a job cancelled while it waits (its room moved on) is never run.
* **Failure.** A worker that dies (:class:`~concurrent.futures.process.BrokenProcessPool`)
  or runs longer than ``hang_timeout`` seconds (it is killed) is replaced by a
  new process, and the job's future fails with :class:`WorkerLost`; the
  caller decides what to do instead (a room plays a legal fallback move).
* **Queue.** :attr:`WorkerPool.waiting` jobs wait for a slot; past
  ``queue_limit`` the pool is :meth:`~WorkerPool.full`, and the server refuses
  new rooms with bots (HTTP 503 with ``Retry-After``) rather than weakening
  the bots it runs.

Workers start on first use, so a server whose rooms have only cheap bots
(:data:`INLINE_LEVELS`) never starts one.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future as CFuture
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unokit.engine.actions import Action
    from unokit.engine.observation import Observation

__all__ = [
    "INLINE_LEVELS",
    "WorkerLost",
    "WorkerPool",
    "decide",
    "default_workers",
]

log = logging.getLogger("unokit.web.botpool")

#: levels whose decision costs less than sending an observation to another
#: process (about 20 µs against about 1 ms to pickle and unpickle one): they
#: decide in the server's loop
INLINE_LEVELS = frozenset({"random", "easy", "normal", "heuristic"})


def default_workers() -> int:
    """Cores − 1, at least 1 (one core stays with the server's event loop)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


class WorkerLost(Exception):
    """The worker running a job died or hung (it has been replaced)."""

    def __init__(self, reason: str, pid: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.pid = pid


def _watch(server: int) -> None:
    """Exit when the server is gone (killed: it could not stop its workers;
    a worker's queue never reads end-of-file, it holds both of its ends)."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # pragma: no cover - the pid was reused by another user
            os._exit(0)


#: How much nicer than the server a worker runs (``os.nice``): when the
#: machine's cores are all busy, the event loop that answers every room gets
#: the CPU first and a bot's decision waits (it is a count, never a deadline,
#: so it is as strong later); on an idle core a worker runs at full speed.
WORKER_NICENESS = 10


def _init_worker(imports: tuple[str, ...], server: int) -> None:
    """A new worker: nicer than the server (:data:`WORKER_NICENESS`), ignore
    Ctrl-C (the server stops its workers), exit with the server, load the bots
    and the modules that register more of them."""
    import threading

    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(server,), daemon=True, name="watch-server").start()
    import unokit.bots.budget  # noqa: F401  (the C core and every level)

    for item in imports:
        name, sep, arg = item.partition(":")
        module = importlib.import_module(name)
        if sep:
            module.configure(arg)


def decide(level: str, seed: int, obs: Observation) -> tuple[Action, float]:
    """In a worker: the move of a ``level`` bot seeded ``seed`` on ``obs``, and
    the CPU seconds it took."""
    from unokit.bots.budget import level_bot

    bot = level_bot(level, seed)
    t0 = time.process_time()
    action = bot.act(obs)
    return action, time.process_time() - t0


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    queued_at: float = field(default_factory=time.monotonic)


class _Slot:
    """One worker process (a one-process executor) and its pid."""

    def __init__(self, ctx: Any, imports: tuple[str, ...]) -> None:
        self.executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(imports, os.getpid()),
        )
        self.pid: int | None = None
        self.busy_since: float | None = None

    async def warm(self) -> None:
        """Start the process and learn its pid. The executor's first submit
        starts the process (through the forkserver, which it may have to
        start first) and waits for it: in a thread, not in the event loop."""
        first = await asyncio.to_thread(self.executor.submit, os.getpid)
        self.pid = await asyncio.wrap_future(first)

    def kill(self) -> None:
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class WorkerPool:
    """``workers`` worker processes fed from one queue (see the module docstring)."""

    def __init__(
        self,
        workers: int,
        *,
        queue_limit: int,
        hang_timeout: float = 60.0,
        imports: tuple[str, ...] = (),
        name: str = "bot",
    ) -> None:
        if workers < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.workers = workers
        self.queue_limit = queue_limit
        self.hang_timeout = hang_timeout
        self.imports = imports
        self.name = name
        self._ctx = _context()
        self._queue: deque[_Job] = deque()
        self._wake: asyncio.Event | None = None
        self._slots: list[_Slot] = []
        self._runners: list[asyncio.Task[None]] = []
        self._stopped = False
        #: ``imports``: modules each worker imports first ("module" or
        #: "module:argument", which calls ``module.configure(argument)``)
        #: jobs done, workers replaced, and the mean wall seconds of a job (EWMA)
        self.done = 0
        self.replaced = 0
        self.mean_seconds = 0.05

    # ------------------------------------------------------------ state

    @property
    def waiting(self) -> int:
        """Jobs waiting for a free worker (not those being worked on)."""
        return sum(1 for j in self._queue if not j.future.done())

    @property
    def busy(self) -> int:
        return sum(1 for s in self._slots if s.busy_since is not None)

    def full(self) -> bool:
        """More than ``queue_limit`` jobs wait: refuse new work that can wait."""
        return self.waiting >= self.queue_limit

    def retry_after(self) -> int:
        """Seconds after which the queue has likely drained enough (1 to 120)."""
        backlog = self.waiting + self.busy
        return max(1, min(120, round(backlog * self.mean_seconds / self.workers) + 1))

    def pids(self) -> list[int]:
        """The pids of the running workers (for tests and the operator)."""
        return [s.pid for s in self._slots if s.pid is not None]

    # ------------------------------------------------------------ running

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Queue ``fn(*args)`` (a module-level function; its arguments and
        result are pickled); the future gets its result, its exception, or
        :class:`WorkerLost`. Cancel the future to drop a job not yet started."""
        if self._stopped:
            raise RuntimeError(f"the {self.name} worker pool is stopped")
        loop = asyncio.get_running_loop()
        if not self._runners:
            self._wake = asyncio.Event()
            self._runners = [loop.create_task(self._run(i)) for i in range(self.workers)]
        fut: asyncio.Future[Any] = loop.create_future()
        self._queue.append(_Job(fn, args, fut))
        assert self._wake is not None
        self._wake.set()
        return fut

    async def _next(self) -> _Job:
        assert self._wake is not None
        while True:
            while self._queue:
                job = self._queue.popleft()
                if not job.future.done():  # cancelled while it waited: never run
                    if self._queue:
                        self._wake.set()
                    return job
            self._wake.clear()
            await self._wake.wait()

    async def _run(self, index: int) -> None:
        slot: _Slot | None = None
        try:
            while True:
                job = await self._next()
                if slot is None:
                    slot = _Slot(self._ctx, self.imports)
                    self._slots.append(slot)
                    try:
                        await slot.warm()
                    except BrokenProcessPool:
                        # the new process died at once (e.g. killed as it started)
                        self._slots.remove(slot)
                        slot.shutdown()
                        slot = None
                        self._queue.appendleft(job)
                        self._wake_up()
                        await asyncio.sleep(0.5)
                        continue
                lost = await self._work(slot, job)
                if lost:
                    self._slots.remove(slot)
                    slot.shutdown()
                    slot = None
                    self.replaced += 1
        except asyncio.CancelledError:
            if slot is not None:
                slot.kill()
                slot.shutdown()
            raise

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _work(self, slot: _Slot, job: _Job) -> bool:
        """Run ``job`` on ``slot``; True if the worker was lost doing it."""
        started = time.monotonic()
        slot.busy_since = started
        cf: CFuture[Any] = slot.executor.submit(job.fn, *job.args)
        wrapped = asyncio.wrap_future(cf)
        try:
            done, _ = await asyncio.wait({wrapped}, timeout=self.hang_timeout)
        finally:
            slot.busy_since = None
        fut = job.future
        if not done:
            pid = slot.pid
            slot.kill()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(wrapped), 5.0)
            if not fut.done():
                fut.set_exception(
                    WorkerLost(f"no answer in {self.hang_timeout:g} s; worker killed", pid)
                )
            return True
        exc = wrapped.exception()
        if isinstance(exc, BrokenProcessPool):
            if not fut.done():
                fut.set_exception(WorkerLost("the worker process died", slot.pid))
            return True
        self.done += 1
        self.mean_seconds += 0.1 * ((time.monotonic() - started) - self.mean_seconds)
        if not fut.done():
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(wrapped.result())
        return False

    async def prestart(self) -> None:
        """Start every worker now (a server does, so that the first decisions
        do not wait for a process to start and import the bots)."""
        await asyncio.gather(*(self.run(os.getpid) for _ in range(self.workers)))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker; cancelling the caller drops the job if it waits."""
        fut = self.submit(fn, *args)
        try:
            return await fut
        finally:
            fut.cancel()

    async def stop(self) -> None:
        """Stop every worker at once (a decision in progress is abandoned)."""
        self._stopped = True
        for job in self._queue:
            job.future.cancel()
        self._queue.clear()
        for task in self._runners:
            task.cancel()
        for task in self._runners:
            with contextlib.suppress(BaseException):
                await task
        self._runners = []
        for slot in self._slots:
            slot.kill()
            slot.shutdown()
        self._slots = []
