"""The floor of the web server's CPU per move: the same load against servers with no game.

``benchmarks/server/bench_server.py`` drives rooms of 4 WebSocket players (delta
clients) against ``unokit serve`` and reports the server's CPU time per
accepted move. This script runs the *same* client code (imported from
bench_server, not copied) and the same measurement (bench_server's ``_run``:
server CPU from ``/proc`` over the measured window, divided by the acks the
clients counted), against minimal servers on the same stack, alternating
with the real server in one invocation:

* ``real``: ``unokit serve`` (as bench_server starts it);
* ``floor``: one raw ASGI app on uvicorn with the settings ``unokit serve``
  uses (``--ws websockets-sansio``, ``--http httptools``, no
  permessage-deflate, uvloop, the same size and ping limits, the same
  ``gc.freeze()`` and thresholds). No FastAPI/Starlette, no game, no
  database: it answers the REST calls the clients make (create, join,
  health), a hello with a ``state``, and each command (parsed with
  ``json.loads``) with one ``delta`` to each of the room's 4 sockets, the
  sender's carrying its ``ack``, padded to the real deltas' size. The turn
  goes round the table, so the clients play as against the real server
  (one command per version, by the seat whose turn it is). The frames are
  written as the real server writes them: straight to the transport
  (``unokit.web.direct.DirectSocket``);
* ``floor-asgi``: the same, sending through uvicorn's ASGI ``send`` (what
  any ASGI app without the direct write pays);
* ``floor-fastapi``: the floor's rooms behind the real server's framework
  path: FastAPI with unokit's ``BodyLimit``, Starlette's ``WebSocket``
  (``receive()``), the protocol's Pydantic ``CLIENT_MESSAGE``, the direct
  write through ``direct_socket(ws, ws.scope)``: what the framework adds;
* ``floor-db``: ``floor`` plus the durability: each command's log row is
  inserted into SQLite (WAL, ``synchronous=FULL``, as ``unokit serve``) by
  one worker thread, one transaction per batch of what is waiting (group
  commit, raw ``sqlite3``), and the updates are sent after the commit.

    python benchmarks/server/server_floor.py                     # real, floor, floor-db, x3
    python benchmarks/server/server_floor.py --kinds floor,real --repeat 3 --seconds 10

The client load is bench_server's defaults for issue 13 (250 rooms x 4 players,
think 200 ms x U(0.5, 1.5), deltas, 2 client processes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_server  # noqa: E402  (the clients and the measurement)
from fastapi import Request, WebSocket  # noqa: E402  (resolved in floor-fastapi's routes)

PLAYERS = 4
_real_start = bench_server._start_server


# ---------------------------------------------------------------- the floor server


class FloorRoom:
    __slots__ = ("code", "version", "current", "socks", "legal")

    def __init__(self, code: str) -> None:
        self.code = code
        self.version = 0
        self.current = 0
        self.socks: list[Any] = [None] * PLAYERS
        # a legal-moves list like the real one's (a few card texts)
        self.legal = '["R5","G7","Y2","B+2","DRAW"]'


def make_app(send_mode: str, pad: int, db: Path | None, framework: bool = False) -> Any:
    from unokit.web.direct import RAW_SEND, DirectSocket, direct_socket

    rooms: dict[str, FloorRoom] = {}
    counter = [0]
    filler = "x" * pad
    store = Store(db) if db is not None else None

    def state_text(room: FloorRoom, seat: int) -> str:
        obs = {
            "phase": "PLAY",
            "current": room.current,
            "legal": json.loads(room.legal) if room.current == seat else [],
            "pad": filler,
        }
        return json.dumps({"type": "state", "version": room.version, "seat": seat,
                           "observation": obs})  # fmt: skip

    def delta_text(room: FloorRoom, seat: int, ack: int | None) -> str:
        legal = room.legal if room.current == seat else "[]"
        a = "" if ack is None else f',"ack":{ack}'
        return (
            f'{{"type":"delta","from":{room.version - 1},"version":{room.version},'
            f'"seat":{seat},"set":{{"current":{room.current},"legal":{legal},'
            f'"pad":"{filler}"}},"history_from":0,"history":[]{a}}}'
        )

    def broadcast(room: FloorRoom, seat: int, msg_id: int) -> None:
        for s, sock in enumerate(room.socks):
            if sock is not None:
                sock.push(delta_text(room, s, msg_id if s == seat else None))

    async def http(scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            m = await receive()
            body += m.get("body", b"")
            if not m.get("more_body"):
                break
        path = scope["path"]
        out: Any = {"status": "ok"}
        if path == "/api/rooms" and scope["method"] == "POST":
            counter[0] += 1
            code = f"R{counter[0]}"
            rooms[code] = FloorRoom(code)
            out = {"room": code, "token": f"{code}.0", "seat": 0}
        elif path.startswith("/api/rooms/") and path.endswith("/join"):
            code = path.split("/")[3]
            room = rooms[code]
            seat = 1 + _joined(room)
            out = {"room": code, "token": f"{code}.{seat}", "seat": seat}
        data = json.dumps(out).encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": data})

    joined: dict[str, int] = {}

    def _joined(room: FloorRoom) -> int:
        n = joined.get(room.code, 0)
        joined[room.code] = n + 1
        return n

    async def on_message(
        room: FloorRoom, sock: Any, seat: int | None, kind: str | None, token: str | None,
        version: int | None, mid: int | None, text: str | None,
    ) -> int | None:  # fmt: skip
        """One client message; returns the connection's seat."""
        if kind == "hello" and token is not None:
            seat = int(token.rsplit(".", 1)[1])
            room.socks[seat] = sock
            sock.push(state_text(room, seat))
        elif kind in ("command", "next_round", "new_match") and seat is not None:
            if version != room.version or room.current != seat:
                sock.push(json.dumps({"type": "error", "id": mid, "code": "stale"}))
                return seat
            room.version += 1
            room.current = (room.current + 1) % PLAYERS
            if store is not None:  # committed before anybody hears of it
                await store.append((room.code, room.version, text or kind))
            broadcast(room, seat, mid)  # type: ignore[arg-type]
        elif kind == "resync" and seat is not None:
            sock.push(state_text(room, seat))
        return seat

    async def websocket(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        code = scope["path"].rsplit("/", 1)[1]
        room = rooms[code]
        sock = Sock(send, send_mode)
        seat: int | None = None
        try:
            while True:
                m = await receive()
                if m["type"] == "websocket.disconnect":
                    return
                msg = json.loads(m.get("text") or m.get("bytes") or b"{}")
                seat = await on_message(
                    room, sock, seat, msg.get("type"), msg.get("token"), msg.get("version"),
                    msg.get("id"), msg.get("text"),
                )  # fmt: skip
        finally:
            if seat is not None and room.socks[seat] is sock:
                room.socks[seat] = None

    class Sock:
        """A connection's sender: direct frames to the transport (as the real
        server's DirectSocket) or uvicorn's ASGI send, awaited in order."""

        def __init__(self, send: Any, mode: str, direct: Any = None) -> None:
            self.send = send
            self.direct: Any = direct
            if mode == "direct" and direct is None:  # the real server's choice (unokit.web.direct)
                d = direct_socket(self, {RAW_SEND: send})
                assert isinstance(d, DirectSocket), "not uvicorn's websockets-sansio"
                self.direct = d
            self.pending: list[str] = []
            self.busy = False

        async def send_text(self, text: str) -> None:  # DirectSocket's fallback
            if self.direct is not None and self.direct.ws is not self:
                await self.direct.ws.send_text(text)  # Starlette's WebSocket
                return
            await self.send({"type": "websocket.send", "text": text})

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            await self.send({"type": "websocket.close", "code": code})

        def push(self, text: str) -> None:
            if self.direct is not None and not self.busy and self.direct.try_send(text):
                return
            self.pending.append(text)
            if not self.busy:
                self.busy = True
                asyncio.get_running_loop().create_task(self._drain())

        async def _drain(self) -> None:
            try:
                while self.pending:
                    text = self.pending.pop(0)
                    await self.send_text(text)
            except Exception:
                self.pending.clear()
            finally:
                self.busy = False

    if framework:
        return fastapi_app(http, on_message, rooms, lambda d: Sock(None, "direct", d))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "http":
            await http(scope, receive, send)
        elif kind == "websocket":
            await websocket(scope, receive, send)
        elif kind == "lifespan":
            while True:
                m = await receive()
                if m["type"] == "lifespan.startup":
                    if store is not None:
                        store.start(asyncio.get_running_loop())
                    await send({"type": "lifespan.startup.complete"})
                elif m["type"] == "lifespan.shutdown":
                    if store is not None:
                        store.close()
                    await send({"type": "lifespan.shutdown.complete"})
                    return

    return app


def fastapi_app(http: Any, on_message: Any, rooms: dict[str, Any], make_sock: Any) -> Any:
    """floor-fastapi: the same room logic behind the real server's framework
    path: FastAPI's app and middleware stack (with unokit's ``BodyLimit``, which
    keeps uvicorn's send for the direct write), a route per REST call, the
    WebSocket through Starlette's ``WebSocket`` (accept, ``receive()``), each
    message parsed by the protocol's Pydantic ``CLIENT_MESSAGE`` and sent
    through ``direct_socket(ws, ws.scope)``, as ``unokit.web.routes.ws`` does."""
    from fastapi import FastAPI

    from unokit.web.direct import direct_socket
    from unokit.web.hardening import BodyLimit
    from unokit.web.messages import CLIENT_MESSAGE

    app = FastAPI()
    app.add_middleware(BodyLimit, limit=65536)

    @app.api_route("/api/{rest:path}", methods=["GET", "POST"])
    async def rest_call(rest: str, request: Request) -> Any:
        from starlette.responses import Response

        sent: dict[str, Any] = {}

        async def capture(m: Any) -> None:
            sent.setdefault("start" if m["type"] == "http.response.start" else "body", m)

        await http(request.scope, request.receive, capture)
        return Response(sent["body"]["body"], media_type="application/json")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}

    @app.websocket("/ws/{code}")
    async def ws_route(ws: WebSocket, code: str) -> None:
        await ws.accept()
        room = rooms[code]
        sock = make_sock(direct_socket(ws, ws.scope))
        seat: int | None = None
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                msg = CLIENT_MESSAGE.validate_json(message.get("text") or "{}")
                seat = await on_message(
                    room, sock, seat, msg.type, getattr(msg, "token", None),
                    getattr(msg, "version", None), msg.id, getattr(msg, "text", None),
                )  # fmt: skip
        finally:
            if seat is not None and room.socks[seat] is sock:
                room.socks[seat] = None

    return app


class Store:
    """One worker thread; each batch of waiting rows is one transaction
    (``executemany`` + ``commit``) on SQLite in WAL with ``synchronous=FULL``,
    then every waiting future is resolved on the loop (group commit)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: list[tuple[Any, asyncio.Future[None]]] = []
        self.cond = threading.Condition()
        self.closed = False
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        threading.Thread(target=self._run, daemon=True, name="floor-store").start()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify()

    def append(self, row: Any) -> asyncio.Future[None]:
        assert self.loop is not None
        fut = self.loop.create_future()
        with self.cond:
            self.rows.append((row, fut))
            self.cond.notify()
        return fut

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE IF NOT EXISTS log (room TEXT, n INTEGER, text TEXT, "
                   "at REAL, PRIMARY KEY (room, n))")  # fmt: skip
        assert self.loop is not None
        while True:
            with self.cond:
                while not self.rows and not self.closed:
                    self.cond.wait()
                if self.closed:
                    return
                batch, self.rows = self.rows, []
            now = time.time()
            db.execute("BEGIN")
            db.executemany("INSERT INTO log VALUES (?, ?, ?, ?)", [(*r, now) for r, _ in batch])
            db.execute("COMMIT")
            self.loop.call_soon_threadsafe(_settle, [f for _, f in batch])


def _settle(futs: list[asyncio.Future[None]]) -> None:
    for f in futs:
        if not f.done():
            f.set_result(None)


def serve(port: int, send_mode: str, pad: int, db: Path | None, framework: bool) -> None:
    import gc

    import uvicorn

    app = make_app(send_mode, pad, db, framework)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)  # as unokit serve
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        http="httptools",
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=30.0,
        timeout_graceful_shutdown=3,
        lifespan="on",
    )


# ---------------------------------------------------------------- driver


def _start_floor(kind: str, pad: int) -> Any:
    def start(a: Any, port: int, work: Path, db: str, broker: Any, i: int) -> Any:
        if kind == "real":
            return _real_start(a, port, work, db, broker, i)
        cmd = [sys.executable, __file__, "--serve", str(port), "--pad", str(pad),
               "--send", "asgi" if kind == "floor-asgi" else "direct"]  # fmt: skip
        if kind == "floor-db":
            cmd += ["--db-file", str(work / "floor.sqlite3")]
        if kind == "floor-fastapi":
            cmd += ["--framework"]
        with open(work / f"server{i}.log", "wb") as log:
            server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=work)
        deadline = time.monotonic() + 60
        import httpx

        while True:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(
                    "floor server did not start:\n" + (work / "server0.log").read_text()
                )
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    return server
            except httpx.HTTPError:
                time.sleep(0.1)

    return start


def bench_args(a: argparse.Namespace) -> argparse.Namespace:
    """bench_server's options for the issue's command (deltas, its defaults)."""
    return argparse.Namespace(
        rooms=a.rooms, seats=PLAYERS, bots=0, variant="classic", seconds=a.seconds,
        warmup=a.warmup, think_ms=a.think_ms, mode="deltas", compression="deflate",
        server_deflate=False, ws_protocol="websockets-sansio", http_protocol="auto",
        procs=a.procs, db=None, sqlite_sync="FULL", processes=0, broker=None, json=False,
    )  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kinds", default="real,floor,floor-db",
                    help="comma-separated, run in this order each repeat: real, floor, "
                    "floor-asgi, floor-db, floor-fastapi")  # fmt: skip
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rooms", type=int, default=250)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think-ms", type=float, default=200.0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument(
        "--pad",
        type=int,
        default=340,
        help="filler bytes per update (340: ~465 bytes per message, as the real)",
    )
    ap.add_argument("--json", default=None, help="also write every run's report here")
    # the floor server itself (started by the driver)
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--send", default="direct", help=argparse.SUPPRESS)
    ap.add_argument("--db-file", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--framework", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve is not None:
        serve(a.serve, a.send, a.pad, Path(a.db_file) if a.db_file else None, a.framework)
        return
    kinds = a.kinds.split(",")
    bad = set(kinds) - {"real", "floor", "floor-asgi", "floor-db", "floor-fastapi"}
    if bad:
        ap.error(f"unknown kinds {sorted(bad)}")
    runs: list[dict[str, Any]] = []
    for rep in range(a.repeat):
        for kind in kinds:
            bench_server._start_server = _start_floor(kind, a.pad)
            r = bench_server.run(bench_args(a), "deltas")
            r["kind"], r["repeat"] = kind, rep
            r["utc"] = time.strftime("%H:%M:%S", time.gmtime())
            runs.append(r)
            print(
                f"{r['utc']} {rep} {kind:10s} {r['server_cpu_ms_per_move']:.3f} ms/move"
                f" (kernel {r['server_sys_ms_per_move']:.3f},"
                f" loop thread {r['server_main_thread_ms_per_move']:.3f}),"
                f" {r['moves_per_s']:.0f} moves/s,"
                f" {r['server_cpu']:.0%} of a core, p99 {r['p99_ms']:.1f} ms,"
                f" {r['messages_per_move']:.2f} msg/move, {r['bytes_per_message']:.0f} B/msg,"
                f" errors {r['errors']}, failures {r['client_failures']},"
                f" tracebacks {r['server_tracebacks']}, load {r['load_avg_1min']:.1f}",
                flush=True,
            )
    print()
    real = [r["server_cpu_ms_per_move"] for r in runs if r["kind"] == "real"]
    for kind in kinds:
        xs = [r["server_cpu_ms_per_move"] for r in runs if r["kind"] == kind]
        ks = [r["server_sys_ms_per_move"] for r in runs if r["kind"] == kind]
        line = (f"{kind:10s} CPU per move {' / '.join(f'{x:.3f}' for x in xs)} ms"
                f" (kernel {' / '.join(f'{x:.3f}' for x in ks)})")  # fmt: skip
        if real and kind != "real" and len(real) == len(xs):
            ratios = [x / y for x, y in zip(xs, real, strict=True)]
            line += f"; / real: {' / '.join(f'x{q:.2f}' for q in ratios)}"
            line += f" (sums x{sum(xs) / sum(real):.2f})"
        print(line)
    if a.json:
        Path(a.json).write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
