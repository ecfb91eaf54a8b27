"""Throw-away PostgreSQL and Redis servers on free ports of 127.0.0.1, for the
tests (tests/web/test_postgres.py, tests/scale) and ``benchmarks/server/bench_server.py``:
one place that knows how to start and stop them.

PostgreSQL is created with ``initdb`` and run with ``pg_ctl`` in a temporary
directory (as the ``postgres`` account when run as root: PostgreSQL refuses
root); Redis is ``redis-server --save ''``. A server that cannot be found or
started raises :class:`ServerError` with the reason; the caller decides
whether that fails or skips."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "ServerError",
    "MissingServerError",
    "free_port",
    "pg_bin",
    "as_postgres",
    "postgres",
    "redis_server",
]


class ServerError(RuntimeError):
    """A server could not be found or started."""


class MissingServerError(ServerError):
    """The server's programs are not installed."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the time of the call."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pg_bin(name: str) -> str:
    """The path of a PostgreSQL server program (``initdb``, ``pg_ctl``)."""
    found = shutil.which(name) or max(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), default=None)
    if found is None:
        raise MissingServerError(
            f"PostgreSQL's {name} is not installed (apt-get install postgresql)"
        )
    return found


def as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: use the postgres account then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@contextmanager
def postgres(*, fsync: bool = False, timeout: float = 120.0) -> Iterator[str]:
    """A fresh PostgreSQL cluster; yields its URL and removes it on exit.

    ``fsync=False`` (tests) trades durability for speed; a benchmark that
    measures durable commits passes ``fsync=True``."""
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    port = free_port()
    base = Path(tempfile.mkdtemp(prefix="unokit-pg-", dir="/tmp"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    base.chmod(0o700)
    started = False
    try:
        init = [initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]
        if not fsync:
            init.append("--no-sync")
        opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1"
        if not fsync:
            opts += " -c fsync=off"
        start = [pg_ctl, "-D", str(data), "-o", opts, "-l", str(base / "postgres.log"),
                 "-w", "-t", str(int(timeout)), "start"]  # fmt: skip
        for cmd in (init, start):
            done = subprocess.run(as_postgres(cmd), capture_output=True, timeout=timeout)
            if done.returncode != 0:
                log = base / "postgres.log"
                detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise ServerError(
                    f"{Path(cmd[0]).name} failed: {done.stderr.decode(errors='replace')}{detail}"
                )
        started = True
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if started or (data / "postmaster.pid").exists():
            subprocess.run(
                as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(base, ignore_errors=True)


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(workdir: Path | None = None, *, timeout: float = 20.0) -> Iterator[str]:
    """A fresh ``redis-server`` without persistence; yields its URL (database 0)
    once it answers PING, and stops it on exit."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise MissingServerError("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    tmp = None
    if workdir is None:
        workdir = Path(tmp := tempfile.mkdtemp(prefix="unokit-redis-"))
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + timeout
        while not _redis_ping(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise ServerError(f"redis-server did not start on port {port}")
            time.sleep(0.05)  # polling for readiness
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
