"""Soak test of the web server: hours of a busy evening compressed into a bounded run.

Starts ``unokit serve`` (a fresh SQLite file at full durability) and keeps
``--players`` WebSocket players busy for ``--minutes``: rooms of ``--seats``
seats, the last ``--bots`` of each a server-side bot; players ask for deltas,
think 0.5-1.5 x ``--think-ms`` and send one legal command naming its version.
Churn: when a match ends its room is left and its players create a new room.
Reconnects: each player drops its socket at random (on average every
``--reconnect-s`` seconds), right after sending a command half of the time,
reconnects, says hello and resends its unanswered command (it must be applied
exactly once: a duplicate is an error of the run).

Every ``--interval`` seconds it prints one line: server RSS, CPU per move,
moves/s, p50/p99 command->update, reconnects, rooms created, errors and the
machine's load average. At the end, the verdict, leaving out the first
``--warmup`` minutes (rooms fill up to their steady size, the allocator to
its working set): the least-squares slope of RSS over the second half of the
run in MB per 10 minutes (at most ``--rss-slope``), and the medians of CPU per
move and of p99 in the second half against the first half (at most
``--flat`` times). The run fails (exit 1) on any error, any server traceback
or anything not flat.

``--probe FILE`` runs the server under benchmarks/server/soak_probe.py, which writes
what the server holds (rooms, connections, per-room buffers, limiter entries,
Python and C allocator figures) to FILE every ``--probe-every`` seconds.

    nice -n 19 python benchmarks/server/soak_server.py           # 30 min, 600 players
    python benchmarks/server/soak_server.py --minutes 3 --warmup 0.5 --interval 20  # a short check
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

sys.path.insert(0, str(Path(__file__).parent))
from bench_server import UNOKIT, cpu_seconds, free_port, percentile, rss_mb  # noqa: E402


class Totals:
    def __init__(self) -> None:
        self.moves = 0
        self.latency: list[float] = []
        self.errors: list[str] = []
        self.reconnects = 0
        self.rooms = 0
        self.replays = 0


async def new_room(
    http: httpx.AsyncClient, a: argparse.Namespace, t: Totals
) -> tuple[str, list[str]]:
    humans = a.seats - a.bots
    body = {
        "variant": random.choice(["classic", "flip", "flex"]),
        "seats": [{"kind": "human"}] * humans + [{"kind": "bot", "level": "heuristic"}] * a.bots,
        "name": "soak",
        "options": {"targetScore": a.target},
    }
    r = await http.post("/api/rooms", json=body)
    r.raise_for_status()
    out = r.json()
    tokens = [out["token"]]
    for k in range(1, humans):
        j = await http.post(f"/api/rooms/{out['room']}/join", json={"name": f"p{k}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    t.rooms += 1
    return out["room"], tokens


async def seat_player(
    port: int, code: str, token: str, seat0: bool, a: argparse.Namespace, t: Totals, end: float
) -> bool:
    """Play one seat until the match is over (True) or the run ends (False)."""
    import websockets

    rnd = random.Random()
    pending: dict[str, Any] | None = None
    sent_at = 0.0  # when ``pending`` was first sent
    think = a.think_ms / 1000
    while time.monotonic() < end:
        drop_at = time.monotonic() + rnd.expovariate(1 / a.reconnect_s)
        try:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{code}", max_size=None, open_timeout=60
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "deltas": True}))
                if pending is not None:  # resend what got no answer
                    await ws.send(json.dumps(pending))
                obs: dict[str, Any] | None = None
                version = -1
                acted = -1
                want: int | None = None
                while True:
                    timeout = min(drop_at, end) - time.monotonic()
                    if timeout <= 0:
                        break
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout)
                    except TimeoutError:
                        break
                    m = json.loads(raw)
                    kind = m["type"]
                    # an ack comes alone, or inside the delta of its version
                    ack = m["id"] if kind == "ack" else m.get("ack") if kind == "delta" else None
                    if ack is not None and pending is not None and ack == pending["id"]:
                        t.replays += bool(m.get("replay"))
                        pending, want = None, m["version"]
                        t.moves += 1
                    if kind == "ack":
                        continue
                    if kind == "error":
                        if (
                            m["code"] == "stale"
                            and pending is not None
                            and m["id"] == pending["id"]
                        ):
                            pending = None  # decided before the room moved on: decide again
                        elif m["code"] not in ("stale",):
                            t.errors.append(f"{m['code']}: {m['message']}"[:200])
                            pending = None
                        continue
                    if kind == "state":
                        obs, version = m["observation"], m["version"]
                    elif kind == "delta":
                        if m["from"] != version or ("set" in m and obs is None):
                            await ws.send(json.dumps({"type": "resync"}))
                            continue
                        version = m["version"]
                        if "set" in m and obs is not None:
                            obs.update(m["set"])
                    else:
                        continue
                    if want is not None and version >= want:
                        t.latency.append(time.monotonic() - sent_at)
                        want = None
                    if obs is None or pending is not None or version == acted:
                        continue
                    phase = obs["phase"]
                    if phase == "MATCH_OVER":
                        return True
                    msg: dict[str, Any] | None = None
                    if phase == "ROUND_OVER":
                        # the ready check: every person says ready, the last one's deals
                        acted = version
                        await ws.send(json.dumps({"type": "ready", "id": rnd.randrange(1 << 40)}))
                        continue
                    elif obs["current"] == obs["seat"] and obs["legal"]:
                        msg = {"type": "command", "text": rnd.choice(obs["legal"])}
                    if msg is None:
                        continue
                    await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))
                    acted = version
                    pending = {**msg, "id": rnd.randrange(1 << 40), "version": version}
                    sent_at = time.monotonic()
                    await ws.send(json.dumps(pending))
                    if rnd.random() < 0.5 and time.monotonic() > drop_at - 1:
                        break  # drop the socket right after a command
        except (OSError, websockets.WebSocketException) as e:
            t.errors.append(f"socket: {e!r}"[:200])
            await asyncio.sleep(1)
        t.reconnects += 1
    return False


async def room_loop(port: int, a: argparse.Namespace, t: Totals, end: float) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        while time.monotonic() < end:
            code, tokens = await new_room(http, a, t)
            await asyncio.gather(
                *(seat_player(port, code, tok, i == 0, a, t, end) for i, tok in enumerate(tokens))
            )


async def drive(port: int, pid: int, a: argparse.Namespace) -> int:
    t = Totals()
    start = time.monotonic()
    end = start + a.minutes * 60
    rooms = a.players // (a.seats - a.bots)
    tasks = [asyncio.create_task(room_loop(port, a, t, end)) for _ in range(rooms)]
    rows: list[dict[str, float]] = []
    last_cpu, last_moves, last_t = cpu_seconds(pid), 0, time.monotonic()
    print("   min   RSS MB  CPU ms/move  moves/s  p50 ms  p99 ms  reconnects  rooms  errors  load")
    while time.monotonic() < end:
        await asyncio.sleep(min(a.interval, max(0.1, end - time.monotonic())))
        now, cpu = time.monotonic(), cpu_seconds(pid)
        moves = t.moves - last_moves
        lat, t.latency = t.latency, []
        row = {
            "min": (now - start) / 60,
            "rss": rss_mb(pid),
            "cpu_ms": (cpu - last_cpu) * 1000 / moves if moves else float("nan"),
            "moves_s": moves / (now - last_t),
            "p50": percentile(lat, 50) * 1000,
            "p99": percentile(lat, 99) * 1000,
            "reconnects": t.reconnects,
            "rooms": t.rooms,
            "errors": len(t.errors),
            "load": os.getloadavg()[0],
        }
        rows.append(row)
        print(
            f"{row['min']:6.1f} {row['rss']:8.0f} {row['cpu_ms']:12.3f} {row['moves_s']:8.1f}"
            f" {row['p50']:7.1f} {row['p99']:7.1f} {t.reconnects:11d} {t.rooms:6d}"
            f" {len(t.errors):7d} {row['load']:5.1f}",
            flush=True,
        )
        last_cpu, last_moves, last_t = cpu, t.moves, now
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    print(f"moves {t.moves}, replayed acks {t.replays}, reconnects {t.reconnects}, rooms {t.rooms}")
    for e in t.errors[:10]:
        print("  error:", e)
    if a.json is not None:
        a.json.write_text(json.dumps({"args": vars(a) | {"json": None, "probe": None},
                                      "rows": rows, "moves": t.moves, "errors": len(t.errors),
                                      "reconnects": t.reconnects, "replays": t.replays,
                                      "rooms": t.rooms}, indent=1))  # fmt: skip
    flat = verdict(rows, a)
    return 0 if flat and not t.errors else 1


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over x (nan with fewer than two points)."""
    pts = [(x, y) for x, y in points if y == y]
    if len(pts) < 2:
        return float("nan")
    mx = statistics.fmean(x for x, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else float("nan")


def verdict(rows: list[dict[str, float]], a: argparse.Namespace) -> bool:
    """Flatness after the warm-up: RSS slope over the second half of the run
    (MB per 10 minutes), and CPU per move and p99 of the second half against
    the first half after the warm-up (ratio of medians). Prints the verdict."""
    warm = [r for r in rows if r["min"] > a.warmup]
    half = a.minutes / 2
    first = [r for r in warm if r["min"] <= half]
    second = [r for r in warm if r["min"] > half]
    if len(first) < 2 or len(second) < 2:
        print(f"verdict: too short to judge (need 2+ intervals after {a.warmup} min of warm-up"
              " in each half)")  # fmt: skip
        return True
    rss_slope = slope([(r["min"], r["rss"]) for r in second]) * 10
    rss2 = [r["rss"] for r in second]
    ok = rss_slope <= a.rss_slope
    print(
        f"RSS: {rows[0]['rss']:.0f} MB at {rows[0]['min']:.1f} min (start),"
        f" {first[0]['rss']:.0f} MB after the {a.warmup:g}-min warm-up;"
        f" second half {min(rss2):.0f}-{max(rss2):.0f} MB, slope {rss_slope:+.1f} MB per 10 min"
        f" (limit {a.rss_slope:g}): {'flat' if ok else 'GROWING'}"
    )
    for key, name in (("cpu_ms", "CPU ms/move"), ("p99", "p99 ms")):
        m1 = statistics.median(r[key] for r in first)
        m2 = statistics.median(r[key] for r in second)
        ratio = m2 / m1 if m1 else float("nan")
        good = ratio <= a.flat
        ok &= good
        print(
            f"{name}: median {m1:.3f} (first half after warm-up) -> {m2:.3f} (second half),"
            f" x{ratio:.2f} (limit x{a.flat:g}): {'flat' if good else 'GROWING'}"
        )
    load = statistics.fmean(r["load"] for r in rows)
    print(f"load average (1 min) over the run: mean {load:.1f}, max {max(r['load'] for r in rows):.1f}"
          f" on {os.cpu_count()} CPUs")  # fmt: skip
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--players", type=int, default=600, help="WebSocket players")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--bots", type=int, default=1, help="server-side bots per room")
    ap.add_argument("--think-ms", type=float, default=1000.0)
    ap.add_argument(
        "--target", type=int, default=150, help="target score: matches end, rooms churn"
    )
    ap.add_argument("--reconnect-s", type=float, default=120.0, help="mean seconds between drops")
    ap.add_argument("--interval", type=float, default=60.0, help="seconds per report line")
    ap.add_argument(
        "--flat",
        type=float,
        default=1.5,
        help="allowed growth of CPU per move and p99: second half / first half after warm-up",
    )
    ap.add_argument(
        "--warmup", type=float, default=5.0, help="minutes of warm-up left out of the verdict"
    )
    ap.add_argument(
        "--rss-slope",
        type=float,
        default=2.0,
        help="allowed RSS slope over the second half, MB per 10 minutes",
    )
    ap.add_argument("--json", type=Path, help="write the intervals and totals here")
    ap.add_argument("--bot-delay", type=float, default=0.5)
    ap.add_argument(
        "--idle-unload",
        type=float,
        default=60.0,
        help="the server's --idle-unload: rooms left by churn leave memory after this",
    )
    ap.add_argument(
        "--probe",
        type=Path,
        help="run the server under benchmarks/server/soak_probe.py, its JSON lines written here",
    )
    ap.add_argument("--probe-every", type=float, default=30.0, help="seconds between probes")
    ap.add_argument("--tracemalloc", action="store_true", help="the probe compares allocations")
    ap.add_argument("--trim", action="store_true", help="the probe calls malloc_trim(0)")
    a = ap.parse_args()
    if not 0 < a.minutes <= 120 or not 1 <= a.players <= 2000 or not 0 <= a.bots < a.seats:
        ap.error("need 0 < minutes <= 120, 1 <= players <= 2000, 0 <= bots < seats")
    work = Path(tempfile.mkdtemp(prefix="unokit-soak-"))
    port = free_port()
    cmd = [
        str(UNOKIT), "serve", "--port", str(port),
        "--db", f"sqlite:///{work / 'soak.sqlite3'}",
        "--bot-delay", str(a.bot_delay), "--log-level", "warning",
        "--ws-addr-rate", "1000000", "--lobby-rate", "1000000",
        "--max-connections-per-address", "1000000",  # every client is 127.0.0.1
        "--idle-unload", str(a.idle_unload),
    ]  # fmt: skip
    if a.probe is not None:
        probe = [
            str(UNOKIT.parent / "python"), str(Path(__file__).parent / "soak_probe.py"),
            "--out", str(a.probe.resolve()), "--every", str(a.probe_every),
        ] + (["--tracemalloc"] if a.tracemalloc else []) + (["--trim"] if a.trim else [])  # fmt: skip
        cmd = [*probe, "--", *cmd[1:]]
    log = open(work / "server.log", "wb")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=work)
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("server did not start:\n" + (work / "server.log").read_text())
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        status = asyncio.run(drive(port, server.pid, a))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        text = (work / "server.log").read_text(errors="replace")
        shutil.rmtree(work, ignore_errors=True)
    tracebacks = text.count("Traceback")
    print(f"server tracebacks: {tracebacks}")
    if tracebacks:
        print(text[text.index("Traceback") :][:3000])
    sys.exit(1 if status or tracebacks else 0)


if __name__ == "__main__":
    main()
