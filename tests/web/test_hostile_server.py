"""Hostile clients against a real ``unokit serve`` (issue 29, items 1-5).

Every test counts what it sent, and a module fixture checks at the end that
the server answered no 5xx, logged no traceback, and left a watched room as
it was. Sockets are on 127.0.0.x only; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from .conftest import Server

HEADERS = {
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
}


class FlagServer(Server):
    """``unokit serve`` with extra flags."""

    def __init__(self, workdir: Path, flags: list[str]) -> None:
        super().__init__(f"sqlite:///{workdir / 'unokit.sqlite3'}", workdir)
        self.flags = flags
        self.sent = 0  # hostile inputs sent

    def start(self) -> None:
        from .conftest import UNOKIT

        cmd = [str(UNOKIT), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--db", self.db_url, "--bot-delay", "0", "--log-level", "info", *self.flags]
        self.launch(cmd)

    def check_clean(self) -> None:
        """No 5xx answered, no traceback logged."""
        text = self.log.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]
        assert not [line for line in text.splitlines() if '" 5' in line], text[-3000:]


@pytest.fixture
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FlagServer]]:
    servers: list[FlagServer] = []

    def make(*flags: str) -> FlagServer:
        s = FlagServer(tmp_path_factory.mktemp("srv"), list(flags))
        s.start()
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()
    for s in servers:
        s.check_clean()


def lobby_room(base: str) -> tuple[str, dict[str, Any]]:
    """A room waiting for its second player (any change would show), and its info."""
    r = httpx.post(
        base + "/api/rooms",
        json={"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "Ann"},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    code = r.json()["room"]
    return code, httpx.get(f"{base}/api/rooms/{code}", timeout=10).json()


def unchanged(base: str, code: str, info: dict[str, Any]) -> None:
    assert httpx.get(f"{base}/api/rooms/{code}", timeout=10).json() == info


# ------------------------------------------------------------------ 1. headers


def test_security_headers_on_pages_static_and_api(serve: Callable[..., FlagServer]) -> None:
    s = serve()
    code, info = lobby_room(s.http)
    paths = ["/", f"/r/{code}", "/r/zzzzzzzzzz", "/static/app.js", "/static/app.css"]
    paths += ["/static/nope.js", "/api/meta", "/healthz", f"/api/rooms/{code}", "/api/rooms/x"]
    for path in paths:
        r = httpx.get(s.http + path, timeout=10)
        s.sent += 1
        assert r.status_code < 500
        missing = HEADERS - set(r.headers)
        assert not missing, (path, missing)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, csp
        assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    # the page itself has no inline script to be blocked
    page = httpx.get(s.http + "/", timeout=10).text
    assert "<script>" not in page and "onclick=" not in page.lower()
    unchanged(s.http, code, info)


# ------------------------------------------------------------------ 2. Origin


def ws_open(url: str, origin: str | None) -> str:
    """Open, ping, return the pong's text (raises InvalidStatus when refused)."""
    kwargs: dict[str, Any] = {"open_timeout": 10}
    if origin is not None:
        kwargs["origin"] = origin
    with ws_connect(url, **kwargs) as w:
        w.send(json.dumps({"type": "ping", "id": 7}))
        out = w.recv(timeout=10)
        assert isinstance(out, str)
        return out


def test_websocket_from_another_origin_is_refused(serve: Callable[..., FlagServer]) -> None:
    s = serve()
    code, info = lobby_room(s.http)
    url = f"{s.ws}/ws/{code}"
    for origin in ("https://evil.example", "null", "file://", "http://127.0.0.1:1", "x"):
        with pytest.raises(InvalidStatus) as refused:
            ws_open(url, origin)
        s.sent += 1
        assert refused.value.response.status_code == 403, origin
    # the page's own origin, and a client with no Origin at all (bot client, scripts)
    own = f"http://127.0.0.1:{s.port}"
    assert json.loads(ws_open(url, own)) == {"type": "pong", "id": 7}
    assert json.loads(ws_open(url, None)) == {"type": "pong", "id": 7}
    unchanged(s.http, code, info)


def test_allowed_origin_flag(serve: Callable[..., FlagServer]) -> None:
    s = serve("--allowed-origin", "https://uno.example.org")
    code, _ = lobby_room(s.http)
    url = f"{s.ws}/ws/{code}"
    assert json.loads(ws_open(url, "https://uno.example.org")) == {"type": "pong", "id": 7}
    assert json.loads(ws_open(url, "https://uno.example.org:443")) == {"type": "pong", "id": 7}
    with pytest.raises(InvalidStatus):
        ws_open(url, "https://evil.example.org")


# ------------------------------------------------------------------ 3. proxies


def test_forwarded_for_is_not_trusted_by_default(serve: Callable[..., FlagServer]) -> None:
    s = serve("--lobby-rate", "3")
    statuses = []
    for i in range(5):  # each claims another address
        r = httpx.post(
            s.http + "/api/rooms",
            json={"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A"},
            headers={"X-Forwarded-For": f"203.0.113.{i + 1}"},
            timeout=10,
        )
        s.sent += 1
        statuses.append(r.status_code)
    assert statuses == [201, 201, 201, 429, 429]
    log = s.log.read_text()
    assert "203.0.113." not in log  # the access log has the real peer


def test_forwarded_for_trusted_from_named_proxy(serve: Callable[..., FlagServer]) -> None:
    s = serve("--lobby-rate", "3", "--forwarded-allow-ips", "127.0.0.1")
    for i in range(5):
        r = httpx.post(
            s.http + "/api/rooms",
            json={"variant": "classic", "seats": [{"kind": "human"}] * 2, "name": "A"},
            headers={"X-Forwarded-For": f"203.0.113.{i + 1}"},
            timeout=10,
        )
        assert r.status_code == 201
    assert "203.0.113.5" in s.log.read_text()


# ------------------------------------------------------------------ 4. slow clients


def sock(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return s


def closed_by_server(s: socket.socket, within: float, dribble: bytes = b"") -> bool:
    """Whether the server closes ``s`` within ``within`` seconds, while the
    client sends ``dribble`` every 0.2 s (a slowloris), or nothing."""
    deadline = time.monotonic() + within
    s.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            if s.recv(4096) == b"":
                return True
        except TimeoutError:
            if dribble:
                try:
                    s.sendall(dribble)
                except OSError:
                    return True
        except OSError:
            return True
    return False


def test_idle_and_slow_header_connections_are_closed(serve: Callable[..., FlagServer]) -> None:
    s = serve("--header-timeout", "1", "--max-connections-per-address", "100")
    code, info = lobby_room(s.http)
    silent = [sock(s.port, "127.0.0.2") for _ in range(20)]
    slow = [sock(s.port, "127.0.0.2") for _ in range(20)]
    for c in slow:
        c.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n")
    s.sent += 40
    # the server still answers others meanwhile
    assert httpx.get(s.http + "/healthz", timeout=5).status_code == 200
    for c in slow:  # each sends a header line now and then, never the end
        assert closed_by_server(c, 10, dribble=b"X-Slow: 1\r\n")
    for c in silent:
        assert closed_by_server(c, 10)
    for c in silent + slow:
        c.close()
    # a whole request on time is answered, and kept alive for the next
    with httpx.Client(base_url=s.http, timeout=5) as h:
        assert h.get("/healthz").status_code == 200
        assert h.get("/api/meta").status_code == 200
    unchanged(s.http, code, info)


def test_connections_per_address_are_capped(serve: Callable[..., FlagServer]) -> None:
    s = serve("--max-connections-per-address", "6", "--header-timeout", "30")
    code, info = lobby_room(s.http)
    held = [sock(s.port, "127.0.0.3") for _ in range(4)]
    # WebSockets count too
    stack = contextlib.ExitStack()
    transport = httpx.HTTPTransport(local_address="127.0.0.3")
    with httpx.Client(transport=transport, base_url=s.http, timeout=5) as h:
        assert h.get("/healthz").status_code == 200  # the 5th, then closed by the client
    for _ in range(2):
        stack.enter_context(
            ws_connect(f"{s.ws}/ws/{code}", open_timeout=10, source_address=("127.0.0.3", 0))
        )
    over = sock(s.port, "127.0.0.3")  # the 7th
    s.sent += 7
    over.settimeout(10)
    assert over.recv(100).startswith(b"HTTP/1.1 429")
    over.close()
    # another address is not affected
    assert httpx.get(s.http + "/healthz", timeout=5).status_code == 200
    # a closed one frees its place
    held.pop().close()
    deadline = time.monotonic() + 10
    while True:  # bounded: the server sees the close asynchronously
        c = sock(s.port, "127.0.0.3")
        c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        c.settimeout(10)
        head = c.recv(100)
        c.close()
        if head.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
            break
    assert head.startswith(b"HTTP/1.1 200"), head
    for c in held:
        c.close()
    stack.close()
    unchanged(s.http, code, info)


# ------------------------------------------------------------------ 5. frames


def test_invalid_utf8_text_and_binary_frames(serve: Callable[..., FlagServer]) -> None:
    s = serve()
    code, info = lobby_room(s.http)
    with ws_connect(f"{s.ws}/ws/{code}", open_timeout=10) as w:
        for i, data in enumerate([b"\xff\xfe{", b'{"type":"ping","id":1}\xc3', b"\xed\xa0\x80"]):
            w.send(data, text=True)  # a text frame that is not UTF-8
            s.sent += 1
            err = json.loads(w.recv(timeout=10))
            assert err["type"] == "error" and err["code"] == "bad_json", err
            assert "UTF-8" in err["message"]
            w.send(json.dumps({"type": "ping", "id": i}))  # the connection is kept
            assert json.loads(w.recv(timeout=10)) == {"type": "pong", "id": i}
        w.send(b'{"type":"ping","id":5}')  # a binary frame, even of valid JSON
        s.sent += 1
        err = json.loads(w.recv(timeout=10))
        assert err["code"] == "bad_message" and "binary" in err["message"], err
    log = s.log.read_text()
    assert "Traceback" not in log and "Invalid UTF-8" not in log
    unchanged(s.http, code, info)
