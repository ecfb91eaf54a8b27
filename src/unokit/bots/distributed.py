"""Where many independent games run: in this process, in local worker
processes, or on a Ray cluster.

``sim`` and ``tournament`` cut their games into jobs (a job is a list of game
indices) and hand them to a :class:`Runner`. Every game is a pure function of
the run's seed and its own index, never of the worker that plays it, so the
runner changes how fast a run finishes, not what it finds: the same seed gives
the same table on one process, on eight, or on a Ray cluster.

>>> list(SerialRunner().map(_square, [1, 2, 3]))
[1, 4, 9]

Ray is optional (``pip install 'unokit[ray]'``); :func:`make_runner` says so
in one line when it is missing:

* ``ray="local"`` starts a Ray instance on this machine for the run (and stops
  it afterwards);
* ``ray="ADDRESS"`` joins an existing cluster (``auto``, ``HOST:6379`` or
  ``ray://HOST:10001``). Every node of that cluster needs unokit installed at
  the same version as the driver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from unokit.engine.errors import OptionError

__all__ = ["Runner", "SerialRunner", "ProcessRunner", "RayRunner", "make_runner", "RAY_HINT"]

J = TypeVar("J")
R = TypeVar("R")

RAY_HINT = "Ray is not installed: pip install 'unokit[ray]'"


def _square(x: int) -> int:
    return x * x


class Runner(Protocol):
    """Runs ``fn`` on every job; yields the results as they finish (any order)."""

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]: ...


class SerialRunner:
    """Every job in this process, in order."""

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        for job in jobs:
            yield fn(job)


class ProcessRunner:
    """Jobs on ``workers`` local processes (:mod:`multiprocessing`)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise OptionError(f"workers must be at least 1, got {workers}")
        self.workers = workers

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        import multiprocessing as mp

        todo = list(jobs)
        if not todo:
            return
        with mp.get_context().Pool(min(self.workers, len(todo))) as pool:
            yield from pool.imap_unordered(fn, todo)


class RayRunner:
    """Jobs as Ray tasks, on a local Ray instance (``address=None``) or on the
    cluster at ``address``. A Ray that this runner started is shut down when
    :meth:`map` is done; one that was already running is left alone."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray  # noqa: F401
        except ModuleNotFoundError:
            raise OptionError(RAY_HINT) from None
        self.address = address
        self.num_cpus = num_cpus

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        import ray

        todo = list(jobs)
        if not todo:
            return
        started = not ray.is_initialized()
        if started:
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "configure_logging": False,
            }
            if self.address is None:
                # a private instance for this run, on the loopback interface only
                kwargs["_node_ip_address"] = "127.0.0.1"
                if self.num_cpus is not None:
                    kwargs["num_cpus"] = self.num_cpus
            else:
                _check_reachable(self.address)
                kwargs["address"] = self.address
            try:
                ray.init(**kwargs)
            except ConnectionError as e:
                raise OptionError(f"cannot reach the Ray cluster at {self.address}: {e}") from None
        try:
            task = ray.remote(fn)
            pending = [task.remote(job) for job in todo]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            if started:
                ray.shutdown()


def _check_reachable(address: str, timeout: float = 3.0) -> None:
    """Fail fast on a ``HOST:PORT`` (or ``ray://HOST:PORT``) nobody listens on:
    Ray itself retries for minutes. ``auto`` is left to Ray, which answers at
    once when no cluster runs here."""
    import socket

    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        if address == "auto":
            return
        raise OptionError(f"--ray: {address!r} is not 'local', 'auto' or HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise OptionError(f"cannot reach the Ray cluster at {address}: {e}") from None


def make_runner(workers: int | None = None, ray: str | None = None) -> Runner:
    """The runner a command asked for: Ray when ``ray`` is given (``"local"``
    for a Ray instance on this machine, else a cluster address), else
    ``workers`` local processes (one job stream in this process when 1)."""
    if ray is not None:
        address = ray.strip()
        if not address:
            raise OptionError("--ray needs 'local' or a cluster address")
        if address == "local":
            return RayRunner(None, num_cpus=workers)
        return RayRunner(address)
    if workers is None or workers == 1:
        return SerialRunner() if workers == 1 else ProcessRunner(_cpus())
    return ProcessRunner(workers)


def _cpus() -> int:
    import os

    return os.cpu_count() or 1
