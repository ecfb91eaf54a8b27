"""Load benchmark of the web server: many rooms of WebSocket players on 127.0.0.1.

Starts ``unokit serve`` as a subprocess (a fresh SQLite file in a temporary
directory, bots without delay), creates ``--rooms`` rooms of ``--seats`` seats
and connects one scripted WebSocket client per human seat: 400 players by default,
all of them clients (no server-side bots). Each client plays the first legal
action whenever it is its turn, after "thinking" 0.5-1.5 x ``--think-ms``
(default 1000 ms: the pace of the server's own bots, whose default delay is
0.9 s; ``--think-ms 0`` answers at once and measures the server's capacity,
where latency is queueing: rooms / throughput). Seat 0 deals the next round and
starts a new match when one ends. With ``--bots K`` the last K seats of every
room are server-side bots instead of clients.

Measured over ``--seconds`` (after ``--warmup``), bounded in time and count:

* moves/s: commands the server accepted (acks), all rooms together;
* latency: from sending a command to receiving the ``state`` message that shows
  it (the first state whose version reaches the acknowledged one), p50/p90/p99;
  also the ``ack`` latency (with deltas the ack comes inside the delta that
  shows the command, so both are the same);
* server CPU time per accepted move.

    python benchmarks/server/bench_server.py                       # 100 rooms x 4 players
    python benchmarks/server/bench_server.py --think-ms 0          # capacity
    python benchmarks/server/bench_server.py --rooms 25 --seconds 10 --json

Clients run in ``--procs`` processes (default 1) with uvloop.

``--processes N`` runs a cluster instead (docs/scale-out.md): N ``unokit serve
--broker`` processes on one PostgreSQL and one Redis (started here in temporary
directories on free ports unless ``--db``/``--broker`` name running ones).
Room ``k`` is created on process ``k % N`` (which owns it) and its seat ``s``
connects to process ``(k + s) % N``, as a load balancer without sticky sessions
would spread them: most players of a room are relayed to its owner. The report
adds the CPU time Redis and PostgreSQL spent per accepted move.

    python benchmarks/server/bench_server.py --processes 1 --think-ms 0 --mode deltas
    python benchmarks/server/bench_server.py --processes 2 --think-ms 0 --mode deltas
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from unokit.testing.servers import ServerError, free_port, postgres, redis_server

UNOKIT = Path(sys.executable).with_name("unokit")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    user, system = cpu_split(pid)
    return user + system


def main_thread_cpu(pid: int) -> float:
    """User + system CPU time of a process's main thread (Linux /proc): the
    event loop; the rest of the process is its other threads (the store's)."""
    with open(f"/proc/{pid}/task/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU time of a process (Linux /proc): system time is the
    kernel's, mostly the sockets' (on 127.0.0.1 a write also runs the
    receiver's side of TCP)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_pressure() -> float | None:
    """Share of the last 60 s in which some runnable task waited for a CPU
    (Linux PSI): how busy the machine was with everything else too."""
    try:
        with open("/proc/pressure/cpu") as f:
            first = f.readline().split()
        return float(dict(kv.split("=") for kv in first[1:])["avg60"]) / 100
    except (OSError, KeyError, ValueError):
        return None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


# ---------------------------------------------------------------- client side


class Stats:
    def __init__(self) -> None:
        self.latency: list[float] = []  # command -> state showing it (s)
        self.ack: list[float] = []
        self.moves = 0
        self.errors = 0
        self.messages = 0
        self.bytes = 0


async def player(
    url: str,
    token: str,
    seat: int,
    stats: Stats,
    clock: dict[str, float],
    think: float,
    rnd: random.Random,
    deltas: bool,
    compression: str | None,
) -> None:
    """One scripted player. With ``deltas`` it asks for incremental updates and
    keeps its observation by applying them (as the page does; the history,
    which this player does not read, is not rebuilt)."""
    import websockets

    async with websockets.connect(
        url, max_size=None, compression=compression, open_timeout=60
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "deltas": deltas}))
        msg_id = 0
        sent_at: float | None = None
        want: int | None = None
        acted = -1
        obs: dict[str, Any] | None = None
        version = -1
        async for raw in ws:
            now = time.perf_counter()
            if now >= clock["end"]:
                return
            measuring = now >= clock["start"]
            m = json.loads(raw)
            if measuring:
                stats.messages += 1
                stats.bytes += len(raw)
            kind = m["type"]
            # a delta client's ack comes inside the delta of its version
            if kind == "ack" or (kind == "delta" and m.get("ack") is not None):
                if sent_at is not None:
                    want = m["version"]
                    if measuring:
                        stats.moves += 1
                        stats.ack.append(now - sent_at)
                if kind == "ack":
                    continue
            if kind == "error":
                if measuring:
                    stats.errors += 1
                sent_at = want = None
                continue
            if kind == "state":
                obs, version = m["observation"], m["version"]
            elif kind == "delta":
                if m["from"] != version:
                    await ws.send(json.dumps({"type": "resync"}))
                    continue
                version = m["version"]
                if "set" in m and obs is not None:
                    obs.update(m["set"])
                elif "set" in m:
                    await ws.send(json.dumps({"type": "resync"}))
                    continue
            else:
                continue
            if sent_at is not None:
                if want is None or version < want:
                    continue  # an older state; ours is on its way
                if measuring:
                    stats.latency.append(now - sent_at)
                sent_at = want = None
            if obs is None or version == acted:
                continue
            phase = obs["phase"]
            msg: dict[str, Any] | None = None
            if phase in ("MATCH_OVER", "ROUND_OVER"):
                # the ready check: every person says ready, the last one's deals
                msg_id += 1
                acted = version
                await ws.send(json.dumps({"type": "ready", "id": msg_id}))
                continue
            elif obs["current"] == seat and obs["legal"]:
                msg = {"type": "command", "text": obs["legal"][0]}
            if msg is None:
                continue
            if think > 0:
                await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))
            msg_id += 1
            msg["id"] = msg_id
            msg["version"] = version
            acted = version
            sent_at = time.perf_counter()
            await ws.send(json.dumps(msg))


async def setup_room(
    http: str, variant: str, seats: int, bots: int, idx: int
) -> tuple[str, list[tuple[int, str]]]:
    humans = seats - bots
    body = {
        "variant": variant,
        "seats": [{"kind": "human"}] * humans + [{"kind": "bot", "level": "random"}] * bots,
        "name": f"p{idx}-0",
    }
    async with httpx.AsyncClient(base_url=http, timeout=60) as c:
        r = await c.post("/api/rooms", json=body)
        r.raise_for_status()
        out = r.json()
        tokens = [(0, out["token"])]
        for k in range(1, humans):
            j = await c.post(f"/api/rooms/{out['room']}/join", json={"name": f"p{idx}-{k}"})
            j.raise_for_status()
            tokens.append((j.json()["seat"], j.json()["token"]))
    return out["room"], tokens


async def run_clients(
    ports: list[int],
    room_ids: list[int],
    args: dict[str, Any],
    start: Any,
    ready: Any,
) -> dict[str, Any]:
    n = len(ports)
    rooms = []
    for i in range(0, len(room_ids), 20):  # create rooms 20 at a time
        rooms += await asyncio.gather(
            *(
                setup_room(
                    f"http://127.0.0.1:{ports[k % n]}",
                    args["variant"],
                    args["seats"],
                    args["bots"],
                    k,
                )
                for k in room_ids[i : i + 20]
            )
        )
    stats = Stats()
    # every process has set up its rooms; then the clock starts at the same wall
    # time in every process and in the driver (which measures the server's CPU)
    ready.put(len(rooms))
    while start.value == 0.0:
        await asyncio.sleep(0.05)
    delay = max(0.0, start.value - time.time())
    t0 = time.perf_counter() + delay
    clock = {"start": t0 + args["warmup"], "end": t0 + args["warmup"] + args["seconds"]}
    tasks = []
    for k, (code, tokens) in zip(room_ids, rooms, strict=True):
        for seat, token in tokens:
            port = ports[(k + seat) % n]
            rnd = random.Random(hash((code, seat)))
            tasks.append(
                asyncio.create_task(
                    player(
                        f"ws://127.0.0.1:{port}/ws/{code}",
                        token,
                        seat,
                        stats,
                        clock,
                        args["think_ms"] / 1000.0,
                        rnd,
                        args["mode"] == "deltas",
                        None if args["compression"] == "none" else "deflate",
                    )
                )
            )
    await asyncio.sleep(max(0.0, clock["start"] - time.perf_counter()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, clock["end"] - time.perf_counter()))
    cpu = time.process_time() - cpu0
    deadline = clock["end"] + 5.0
    done, pending = await asyncio.wait(tasks, timeout=max(1.0, deadline - time.perf_counter()))
    for t in pending:
        t.cancel()
    failures = [t.exception() for t in done if not t.cancelled() and t.exception()]
    return {
        "latency": stats.latency,
        "ack": stats.ack,
        "moves": stats.moves,
        "errors": stats.errors,
        "messages": stats.messages,
        "bytes": stats.bytes,
        "clients": len(tasks),
        "cpu": cpu,
        "failures": [repr(f) for f in failures[:3]],
        "failed": len(failures),
    }


def client_process(
    ports: list[int], room_ids: list[int], args: dict[str, Any], start: Any, ready: Any, out: Any
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover
        pass
    out.put(asyncio.run(run_clients(ports, room_ids, args, start, ready)))


# ---------------------------------------------------------------- driver


def postgres_pids(url: str) -> list[int]:
    """The processes of the PostgreSQL listening on ``url``'s port (its postmaster
    and backends), found through /proc."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{d}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmd and cmd[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(cmd):
            pids.append(int(d))
    children = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in pids:
                children.append(int(d))
    return pids + children


def total_cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except (OSError, ValueError):
            pass  # a backend that ended
    return total


def run(a: argparse.Namespace, mode: str) -> dict[str, Any]:
    """One measured run against fresh servers; ``mode``: snapshots or deltas.

    With ``--processes``, a throw-away PostgreSQL (with fsync: commits are
    durable, as in production) and Redis from :mod:`unokit.testing.servers`,
    the helper the tests use."""
    args = dict(vars(a), mode=mode)
    work = Path(tempfile.mkdtemp(prefix="unokit-bench-"))
    db = a.db or f"sqlite:///{work / 'bench.sqlite3'}"
    broker = a.broker
    try:
        with contextlib.ExitStack() as stack:
            if a.processes:
                if a.db is None:
                    db = stack.enter_context(postgres(fsync=True))
                if broker is None:
                    broker = stack.enter_context(redis_server(work))
            infra = redis_pids(broker) if broker is not None and a.broker is None else []
            return _run(a, args, mode, work, db, broker, infra)
    except ServerError as e:
        raise SystemExit(f"cannot start the cluster's servers: {e}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def redis_pids(url: str) -> list[int]:
    """The redis-server listening on ``url``'s port, found through /proc."""
    port = url.rsplit(":", 1)[1].split("/")[0]
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            name = cmd[0].split(b" ")[0] if cmd else b""
            # redis-server retitles itself "redis-server 127.0.0.1:PORT"
            if name.endswith(b"redis-server") and (
                port.encode() in cmd or cmd[0].endswith(b":" + port.encode())
            ):
                pids.append(int(d))
    return pids


def _run(
    a: argparse.Namespace,
    args: dict[str, Any],
    mode: str,
    work: Path,
    db: str,
    broker: str | None,
    extra: list[int],
) -> dict[str, Any]:
    ports = [free_port() for _ in range(max(1, a.processes))]
    servers = [_start_server(a, port, work, db, broker, i) for i, port in enumerate(ports)]
    pg_pids = postgres_pids(db) if db.startswith("postgres") else []
    try:
        ctx = mp.get_context("spawn")
        queue = ctx.Queue()
        ids = list(range(a.rooms))
        start = ctx.Value("d", 0.0)
        ready = ctx.Queue()
        procs = [
            ctx.Process(
                target=client_process,
                args=(ports, ids[i :: a.procs], args, start, ready, queue),
            )
            for i in range(a.procs)
        ]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=600)  # every room created and joined
        start.value = start_at = time.time() + 2.0
        time.sleep(max(0.0, start_at - time.time()))
        time.sleep(a.warmup)
        pg_pids = postgres_pids(db) if db.startswith("postgres") else []
        cpu0 = total_cpu([s.pid for s in servers])
        sys0 = sum(cpu_split(s.pid)[1] for s in servers)
        main0 = sum(main_thread_cpu(s.pid) for s in servers)
        redis0, pg0 = total_cpu(extra), total_cpu(pg_pids)
        time.sleep(a.seconds)
        cpu1 = total_cpu([s.pid for s in servers])
        sys1 = sum(cpu_split(s.pid)[1] for s in servers)
        main1 = sum(main_thread_cpu(s.pid) for s in servers)
        redis1, pg1 = total_cpu(extra), total_cpu(pg_pids)
        pressure = cpu_pressure()
        load = os.getloadavg()[0]
        results = [queue.get(timeout=a.seconds + 120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        rss = sum(rss_mb(s.pid) for s in servers)
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        tracebacks = 0
        for i in range(len(servers)):
            text = (work / f"server{i}.log").read_text(errors="replace")
            tracebacks += text.count("Traceback")
            if "Traceback" in text:  # shown, so that a failure can be understood
                print(
                    f"server {i}:\n{text[text.index('Traceback') - 300 :][:3000]}", file=sys.stderr
                )
    return _report(a, mode, results, cpu1 - cpu0, sys1 - sys0, redis1 - redis0, pg1 - pg0, rss,
                   load, pressure, tracebacks, main1 - main0)  # fmt: skip


def _start_server(
    a: argparse.Namespace, port: int, work: Path, db: str, broker: str | None, i: int
) -> subprocess.Popen[bytes]:
    cmd = [
        str(UNOKIT),
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
        "--ws-rate",
        "1000",
        "--ws-burst",
        "1000",
        "--ws-addr-rate",
        "1000000",
        "--lobby-rate",
        "100000",
        # every simulated client connects from 127.0.0.1: lift the per-address cap
        "--max-connections-per-address",
        "1000000",
        "--sqlite-sync",
        a.sqlite_sync,
        "--ws-deflate" if a.server_deflate else "--no-ws-deflate",
        "--ws-protocol",
        a.ws_protocol,
        "--http-protocol",
        a.http_protocol,
    ]
    if broker is not None:
        cmd += ["--broker", broker]
    with open(work / f"server{i}.log", "wb") as log:
        server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=work)
    deadline = time.monotonic() + 60
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("server did not start:\n" + (work / f"server{i}.log").read_text())
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)


def _report(
    a: argparse.Namespace,
    mode: str,
    results: list[dict[str, Any]],
    server_cpu: float,
    server_sys: float,
    redis_cpu: float,
    pg_cpu: float,
    rss: float,
    load: float,
    pressure: float | None,
    tracebacks: int,
    main_cpu: float = float("nan"),
) -> dict[str, Any]:
    lat = [x for r in results for x in r["latency"]]
    ack = [x for r in results for x in r["ack"]]
    moves = sum(r["moves"] for r in results)
    messages = sum(r["messages"] for r in results)
    nbytes = sum(r["bytes"] for r in results)
    return {
        "mode": mode,
        "compression": a.compression if a.server_deflate else "none (server declines)",
        "rooms": a.rooms,
        "players": sum(r["clients"] for r in results),
        "bots_per_room": a.bots,
        "variant": a.variant,
        "think_ms": a.think_ms,
        "seconds": a.seconds,
        "moves": moves,
        "moves_per_s": moves / a.seconds,
        "p50_ms": percentile(lat, 50) * 1000,
        "p90_ms": percentile(lat, 90) * 1000,
        "p99_ms": percentile(lat, 99) * 1000,
        "max_ms": max(lat, default=float("nan")) * 1000,
        "ack_p50_ms": percentile(ack, 50) * 1000,
        "ack_p99_ms": percentile(ack, 99) * 1000,
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "messages_per_s": messages / a.seconds,
        "messages_per_move": messages / moves if moves else float("nan"),
        "bytes_per_message": nbytes / messages if messages else float("nan"),
        "mb_per_s": nbytes / a.seconds / 1e6,
        "processes": a.processes,
        "server_cpu": server_cpu / a.seconds,
        "redis_cpu_ms_per_move": redis_cpu * 1000 / moves if moves else float("nan"),
        "postgres_cpu_ms_per_move": pg_cpu * 1000 / moves if moves else float("nan"),
        "redis_cpu": redis_cpu / a.seconds,
        "postgres_cpu": pg_cpu / a.seconds,
        "client_cpu": sum(r["cpu"] for r in results) / a.seconds,
        "server_cpu_ms_per_move": server_cpu * 1000 / moves if moves else float("nan"),
        "server_sys_ms_per_move": server_sys * 1000 / moves if moves else float("nan"),
        "server_main_thread_ms_per_move": main_cpu * 1000 / moves if moves else float("nan"),
        "server_rss_mb": rss,
        "load_avg_1min": load,
        "cpu_pressure_60s": pressure,
        "errors": sum(r["errors"] for r in results),
        "client_failures": sum(r["failed"] for r in results),
        "server_tracebacks": tracebacks,
    }


def rss_mb(pid: int) -> float:
    """Resident memory of a process (Linux /proc), MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def show(r: dict[str, Any]) -> None:
    print(
        f"{r['mode']} ({r['compression']}): {r['rooms']} rooms, {r['players']} WebSocket players"
        f" ({r['bots_per_room']} server bots per room), {r['variant']},"
        f" think {r['think_ms']:g} ms, {r['seconds']:g} s measured"
    )
    print(f"  moves/s          {r['moves_per_s']:10.1f}   ({r['moves']} accepted commands)")
    print(
        f"  command->update  p50 {r['p50_ms']:.1f} ms  p90 {r['p90_ms']:.1f} ms"
        f"  p99 {r['p99_ms']:.1f} ms  max {r['max_ms']:.1f} ms"
    )
    print(f"  command->ack     p50 {r['ack_p50_ms']:.1f} ms  p99 {r['ack_p99_ms']:.1f} ms")
    print(
        f"  server CPU       {r['server_cpu']:.0%} of a core,"
        f" {r['server_cpu_ms_per_move']:.3f} ms per move"
        f" ({r['server_sys_ms_per_move']:.3f} ms of it in the kernel,"
        f" {r['server_main_thread_ms_per_move']:.3f} ms on the event loop's thread);"
        f" RSS {r['server_rss_mb']:.0f} MB"
    )
    print(
        f"  messages         {r['messages_per_move']:.2f} per command,"
        f" {r['bytes_per_message']:.0f} bytes per message (JSON text),"
        f" {r['mb_per_s']:.2f} MB/s to clients"
    )
    if r["processes"]:
        print(
            f"  cluster          {r['processes']} unokit processes (CPU above: all of them);"
            f" Redis {r['redis_cpu']:.0%} of a core, {r['redis_cpu_ms_per_move']:.3f} ms/move;"
            f" PostgreSQL {r['postgres_cpu']:.0%}, {r['postgres_cpu_ms_per_move']:.3f} ms/move"
        )
    print(f"  client CPU       {r['client_cpu']:.0%} of a core (all client processes)")
    print(
        f"  errors {r['errors']}, client failures {r['client_failures']},"
        f" server tracebacks {r['server_tracebacks']}"
    )
    p = r["cpu_pressure_60s"]
    busy = "" if p is None else f", CPU pressure {p:.0%} (tasks waiting for a CPU)"
    print(f"  machine: {os.cpu_count()} CPUs, load average {r['load_avg_1min']:.1f}{busy}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--bots", type=int, default=0, help="server-side bots per room")
    ap.add_argument("--variant", default="classic", choices=["classic", "flip", "flex"])
    ap.add_argument("--seconds", type=float, default=20.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=1000.0,
        help="mean client think time (uniform 0.5-1.5 x this); 0 = saturate the server",
    )
    ap.add_argument(
        "--mode",
        default="both",
        choices=["both", "deltas", "snapshots"],
        help="deltas: clients ask for incremental updates; snapshots: every update is a "
        "full state (the old protocol); both: one run of each, and their ratio",
    )
    ap.add_argument(
        "--compression",
        default="deflate",
        choices=["deflate", "none"],
        help="permessage-deflate as browsers offer it (default), or none",
    )
    ap.add_argument(
        "--server-deflate",
        action="store_true",
        help="start the server with --ws-deflate (it then accepts the clients' offer)",
    )
    ap.add_argument(
        "--ws-protocol",
        default="websockets-sansio",
        choices=["auto", "websockets", "websockets-sansio", "wsproto"],
        help="the server's --ws-protocol (uvicorn WebSocket implementation)",
    )
    ap.add_argument(
        "--http-protocol",
        default="auto",
        choices=["auto", "httptools", "h11"],
        help="the server's --http-protocol",
    )
    ap.add_argument("--procs", type=int, default=1, help="client processes")
    ap.add_argument("--db", default=None, help="database URL (default: temporary SQLite)")
    ap.add_argument("--sqlite-sync", default="FULL", choices=["FULL", "NORMAL"])
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        help="run a cluster of N unokit processes on PostgreSQL and Redis (0: one plain "
        "process, the default)",
    )
    ap.add_argument("--broker", default=None, help="Redis URL (default with --processes: a "
                    "temporary redis-server)")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    if not 0 <= a.processes <= 8:
        ap.error("need 0 <= processes <= 8")
    if not 1 <= a.rooms <= 1000 or not 0 <= a.bots < a.seats or not 1 <= a.seconds <= 600:
        ap.error("need 1 <= rooms <= 1000, 0 <= bots < seats, 1 <= seconds <= 600")
    modes = ["snapshots", "deltas"] if a.mode == "both" else [a.mode]
    reports = [run(a, mode) for mode in modes]
    ratio = {}
    if len(reports) == 2:
        old, new = reports
        for key in ("server_cpu_ms_per_move", "bytes_per_message", "p99_ms", "mb_per_s"):
            ratio[key] = new[key] / old[key] if old[key] else float("nan")
    if a.json:
        print(json.dumps({"runs": reports, "deltas_over_snapshots": ratio}))
        return
    for r in reports:
        show(r)
    if ratio:
        print("  deltas / snapshots: " + ", ".join(f"{k} x{v:.2f}" for k, v in ratio.items()))


if __name__ == "__main__":
    main()
