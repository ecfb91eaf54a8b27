"""Fixtures of the web server tests: an app on a temporary SQLite file, a
WebSocket wrapper that reads with a bound, and a real ``unokit serve``
subprocess for the restart and PostgreSQL tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from unokit.testing.servers import free_port
from unokit.web.app import create_app
from unokit.web.config import Settings
from unokit.web.messages import SERVER_MESSAGE

REPO = Path(__file__).resolve().parents[2]
UNOKIT = Path(sys.executable).with_name("unokit")


class WS:
    """A TestClient WebSocket that validates every server message and keeps them all."""

    def __init__(self, session: Any) -> None:
        self.s = session
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []

    def send(self, msg: dict[str, Any] | str) -> None:
        self.s.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        text = self.s.receive_text()
        msg = json.loads(text)
        SERVER_MESSAGE.validate_python(msg)  # every message has the documented shape
        self.raw.append(text)
        self.seen.append(msg)
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
        """Read messages until one satisfies ``pred`` (at most ``limit``)."""
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError(f"no matching message in {limit}; last: {self.seen[-1:]}")

    def state(self, pred: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "state" and pred(m))

    def reply(self, msg_id: int) -> dict[str, Any]:
        """The ack or error of request ``msg_id``."""
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id)

    def ping(self, msg_id: int = 999_999) -> None:
        """The connection still answers."""
        self.send({"type": "ping", "id": msg_id})
        assert self.until(lambda m: m["type"] == "pong")["id"] == msg_id


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # bots at once and scripted clients: far faster than the default rate limit
    return Settings(
        db_url=f"sqlite:///{tmp_path / 'unokit.sqlite3'}",
        bot_delay=0.0,
        rate=1000.0,
        burst=1000,
        addr_rate=1e6,
        addr_burst=10**6,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def create_room(
    client: TestClient,
    variant: str = "classic",
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    name: str = "Ann",
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "variant": variant,
        "seats": seats or [{"kind": "human"}, {"kind": "bot", "level": "heuristic"}],
        "name": name,
        **extra,
    }
    if options is not None:
        body["options"] = options
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def connect(client: TestClient, code: str) -> Any:
    return client.websocket_connect(f"/ws/{code}")


def stored_events(client: TestClient, code: str) -> int:
    """How many log rows the database holds for room ``code``."""
    from sqlalchemy import func, select

    from unokit.web.store import room_log

    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as c:
        n: int = c.execute(
            select(func.count()).select_from(room_log).where(room_log.c.room == code)
        ).scalar_one()
    return n


@pytest.fixture
def room_helpers() -> Any:
    class H:
        create = staticmethod(create_room)
        connect = staticmethod(connect)
        wrap = WS
        stored = staticmethod(stored_events)

    return H


# ---------------------------------------------------------------- real server


class Server:
    """``unokit serve`` as a subprocess on 127.0.0.1."""

    def __init__(self, db_url: str, workdir: Path, bot_delay: float = 0.0) -> None:
        self.db_url = db_url
        self.workdir = workdir
        self.bot_delay = bot_delay
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = workdir / "server.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [
            str(UNOKIT),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "warning",
            # scripted clients against bots without delay play faster than people
            "--ws-rate",
            "1000",
            "--ws-burst",
            "1000",
            "--ws-addr-rate",
            "100000",
        ]
        self.launch(cmd)

    def launch(self, cmd: list[str]) -> None:
        """Start ``cmd`` (an ``unokit serve``) and wait until it answers ``/healthz``."""
        env = dict(os.environ, UNOKIT_DATA_DIR=str(self.workdir / "data"))
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=self.workdir
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.http + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # polling for readiness, not a timing assertion
        raise AssertionError(f"server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
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
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def make(db_url: str, bot_delay: float = 0.0) -> Server:
        s = Server(db_url, tmp_path, bot_delay)
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()


class SyncWS(WS):
    """A ``websockets`` client of a real server, with the helpers of :class:`WS`."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect as ws_connect

        conn = ws_connect(url, open_timeout=10, max_size=None)
        super().__init__(conn.__enter__())  # closed by close()

    def send(self, msg: dict[str, Any] | str) -> None:
        self.s.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self) -> dict[str, Any]:
        text = self.s.recv(timeout=30)
        assert isinstance(text, str)
        msg = json.loads(text)
        SERVER_MESSAGE.validate_python(msg)
        self.raw.append(text)
        self.seen.append(msg)
        return msg

    def close(self) -> None:
        self.s.__exit__(None, None, None)


def http_create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(base + "/api/rooms", json=body, timeout=10)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.fixture
def net() -> Any:
    """Clients of a real server: ``net.ws(url)``, ``net.create(base, body)``."""

    class N:
        ws = SyncWS
        create = staticmethod(http_create)

    return N


def apply_delta(state: dict[str, Any], d: dict[str, Any]) -> dict[str, Any]:
    """What the page (static/app.js, applyDelta) does with a delta."""
    assert d["type"] == "delta" and d["from"] == state["version"], (d, state["version"])
    new = dict(state, version=d["version"])
    if "info" in d:
        new["info"] = d["info"]
    new["info"] = dict(new["info"], version=d["version"])
    for key in ("last", "deadline", "remaining"):
        if key in d:
            new[key] = d[key]
    if "set" in d:
        obs = dict(state["observation"], **d["set"])
        obs["history"] = state["observation"]["history"][: d["history_from"]] + d["history"]
        new["observation"] = obs
    return new
