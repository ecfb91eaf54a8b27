"""Servers of the scale-out tests: each test starts its own PostgreSQL and Redis
on free ports of 127.0.0.1 (temporary directories) and any number of
``unokit serve --db postgresql://… --broker redis://…`` processes, and stops
them all. A server that cannot start FAILS the test (never a skip): these
tests are the proof that the cluster works.

PostgreSQL is started as in tests/web/test_postgres.py (initdb + pg_ctl, as the
postgres account when run as root)."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

UNOKIT = Path(sys.executable).with_name("unokit")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pg_bin(name: str) -> str:
    found = (
        shutil.which(name) or (sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [None])[-1]
    )
    if found is None:
        pytest.fail(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found


def as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: use the postgres account then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture
def pg() -> Iterator[str]:
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    port = free_port()
    base = Path(tempfile.mkdtemp(prefix="unokit-pg-", dir="/tmp"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    base.chmod(0o700)
    try:
        subprocess.run(
            as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync",
                         "-E", "UTF8"]),
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            as_postgres([pg_ctl, "-D", str(data), "-o", opts, "-l", str(base / "pg.log"), "-w",
                         "-t", "60", "start"]),
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed (make system-deps installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        import redis

        r = redis.Redis(port=port)
        deadline = time.monotonic() + 20
        while True:
            try:
                r.ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)  # polling for readiness
        r.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Node:
    """One ``unokit serve --broker`` process on 127.0.0.1."""

    def __init__(self, db: str, broker: str, workdir: Path, name: str) -> None:
        self.db, self.broker, self.workdir = db, broker, workdir
        self.port = free_port()
        self.log = workdir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.node = ""

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [str(UNOKIT), "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db, "--broker", self.broker, "--bot-delay", "0",
               "--log-level", "warning", "--ws-rate", "1000", "--ws-burst", "1000",
               "--ws-addr-rate", "100000", "--lobby-rate", "10000"]  # fmt: skip
        env = dict(os.environ, UNOKIT_DATA_DIR=str(self.workdir / "data"))
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                r = httpx.get(self.http + "/healthz", timeout=1)
                if r.status_code == 200:
                    self.node = r.json()["node"]
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # polling for readiness, not a timing assertion
        pytest.fail(f"server did not start: {self.log.read_text()[-3000:]}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, leases are left to expire."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


@pytest.fixture
def cluster(pg: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[[int], list[Node]]]:
    nodes: list[Node] = []

    def make(n: int) -> list[Node]:
        for _ in range(n):
            node = Node(pg, redis_url, tmp_path, f"node{len(nodes)}")
            nodes.append(node)
            node.start()
        return nodes

    yield make
    for node in nodes:
        node.stop()
