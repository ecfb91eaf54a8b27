"""Servers of the scale-out tests: each test starts its own PostgreSQL and Redis
on free ports of 127.0.0.1 (temporary directories) and any number of
``unokit serve --db postgresql://… --broker redis://…`` processes, and stops
them all. A server that cannot start FAILS the test (never a skip): these
tests are the proof that the cluster works.

PostgreSQL and Redis are started by :mod:`unokit.testing.servers` (as in
tests/web/test_postgres.py and benchmarks/server/bench_server.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from unokit.testing.servers import ServerError, free_port, postgres, redis_server

UNOKIT = Path(sys.executable).with_name("unokit")


@pytest.fixture
def pg() -> Iterator[str]:
    try:
        with postgres(fsync=False) as url:
            yield url
    except ServerError as e:
        pytest.fail(str(e))


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    try:
        with redis_server(tmp_path) as url:
            yield url
    except ServerError as e:
        pytest.fail(str(e))


class Node:
    """One ``unokit serve --broker`` process on 127.0.0.1."""

    def __init__(
        self, db: str, broker: str, workdir: Path, name: str, extra: tuple[str, ...] = ()
    ) -> None:
        self.db, self.broker, self.workdir = db, broker, workdir
        self.extra = extra  # more options of unokit serve
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
               "--ws-addr-rate", "100000", "--lobby-rate", "10000", *self.extra]  # fmt: skip
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


@pytest.fixture
def serve(pg: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[..., Node]]:
    """``serve(*options)``: one more started node, with more ``unokit serve`` options."""
    nodes: list[Node] = []

    def make(*extra: str) -> Node:
        node = Node(pg, redis_url, tmp_path, f"node{len(nodes)}", extra)
        nodes.append(node)
        node.start()
        return node

    yield make
    for node in nodes:
        node.stop()
