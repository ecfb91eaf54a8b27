"""Load benchmark of tables with bots (issue 25): many rooms of one person and
three ``hard`` bots on one ``unokit serve`` with its own bot workers.

Each person thinks 1 s x U(0.5, 1.5) per decision and plays a legal move
(a card when it has one); the bots play with the server's default delay. A
prober reads ``GET /healthz`` every 100 ms. The run is bounded in time
(``--seconds``, after the rooms are made) and reports:

* ``/healthz`` latency p50/p99 (ms);
* the person's command -> state latency p50/p99 (ms): from sending a command
  to the first state at a later version;
* errors (error replies, and commands with no state within 15 s);
* person commands accepted per second, across all rooms; bot moves per second.

The server is a subprocess on 127.0.0.1, SQLite at full durability (its
default), ``--bot-workers`` as given (default: the server's own, cores - 1).
``--hard-sims N`` sets ``UNOKIT_HARD_SIMS`` for the server (the count of
rollouts of ``hard``; default: the shipped budget).

``--replayers N`` adds N clients on the same address that post the record of
a whole 4-player match (thousands of commands) to ``POST /api/replay`` again
and again, without pause, for the whole run: the server must answer them
from its replay worker, rate-limit them (429) and keep every room and
``/healthz`` as quick as without them (issue 29). Their answers are counted
by status.

    python benchmarks/server/table_bots.py --rooms 60 --seconds 60
    python benchmarks/server/table_bots.py --rooms 60 --seconds 60 --replayers 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from unokit.testing.servers import free_port


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Stats:
    def __init__(self) -> None:
        self.health: list[float] = []
        self.cmd: list[float] = []
        self.accepted = 0
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.bot_moves = 0
        self.thinking = 0
        self.rooms = 0
        self.refused = 0
        self.refusal = ""
        self.replays: dict[int, int] = {}
        self.replay_ms: list[float] = []

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


async def person(
    base: str, room: dict[str, Any], stats: Stats, stop: float, rng: random.Random
) -> None:
    uri = base.replace("http", "ws") + f"/ws/{room['room']}"
    seat = room["seat"]
    msg_id = 0
    async with websockets.connect(uri, max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        pending: tuple[int, int, float] | None = None  # (id, version, sent at)
        latest: dict[str, Any] | None = None
        decided_on = -1
        while time.monotonic() < stop:
            timeout = 15.0 if pending else max(0.05, min(1.0, stop - time.monotonic()))
            try:
                text = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                if pending is not None:
                    stats.error("no state in 15 s")
                    pending = None
                    decided_on = -1
                text = None
            if text is not None:
                msg = json.loads(text)
                kind = msg["type"]
                if kind == "thinking":
                    stats.thinking += 1
                    continue
                if kind == "error":
                    stats.error(msg.get("code", "?"))
                    if pending is not None and msg.get("id") == pending[0]:
                        pending = None
                        decided_on = -1
                    continue
                if kind != "state":
                    continue
                latest = msg
                if (msg.get("last") or {}).get("by") == "bot":
                    stats.bot_moves += 1
                if pending is not None and msg["version"] > pending[1]:
                    stats.cmd.append(time.perf_counter() - pending[2])
                    stats.accepted += 1
                    pending = None
            if latest is None or pending is not None or time.monotonic() >= stop:
                continue
            obs = latest["observation"]
            version = latest["version"]
            if obs is None or version == decided_on:
                continue
            phase = obs["phase"]
            out: dict[str, Any] | None = None
            if phase == "ROUND_OVER":
                out = {"type": "next_round"}
            elif phase == "MATCH_OVER":
                out = {"type": "new_match"}
            elif obs["current"] == seat and obs["legal"]:
                legal = [m for m in obs["legal"] if " UNO" not in m and "CATCH" not in m]
                plays = [m for m in legal if " PLAY " in m]
                text_cmd = (plays or legal)[0]
                if plays and obs["hand_sizes"][seat] == 2:
                    text_cmd += " uno=true"
                out = {"type": "command", "text": text_cmd}
            if out is None:
                continue
            decided_on = version
            await asyncio.sleep(rng.uniform(0.5, 1.5))  # the person thinks
            if time.monotonic() >= stop:
                break
            msg_id += 1
            out.update({"id": msg_id, "version": version})
            pending = (msg_id, version, time.perf_counter())
            await ws.send(json.dumps(out))


async def prober(base: str, stats: Stats, stop: float) -> None:
    async with httpx.AsyncClient(timeout=30) as c:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            r = await c.get(base + "/healthz")
            stats.health.append(time.perf_counter() - t0)
            if r.status_code != 200:
                stats.error(f"healthz {r.status_code}")
            await asyncio.sleep(0.1)


def long_record() -> str:
    """The record of a whole 4-player match of heuristic bots."""
    from unokit.bots import make_bot
    from unokit.bots.sim import play_match
    from unokit.engine.game import Game
    from unokit.records.record import record_of

    g = Game.new("classic", 4, seed=11, events=True)
    play_match(g, [make_bot("heuristic", seed=s) for s in range(4)])
    return record_of(g, ["a", "b", "c", "d"], producer="table_bots").dumps()


async def replayer(base: str, record: str, stats: Stats, stop: float) -> None:
    """Post a long record for replay, again and again, from one address."""
    body = {"record": record, "seat": 0}
    async with httpx.AsyncClient(timeout=120) as c:
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            r = await c.post(base + "/api/replay", json=body)
            stats.replay_ms.append(time.perf_counter() - t0)
            stats.replays[r.status_code] = stats.replays.get(r.status_code, 0) + 1
            if r.status_code >= 500 and r.status_code != 503:
                stats.error(f"replay {r.status_code}")
            await asyncio.sleep(0)


async def run(
    base: str, rooms: int, bots: int, level: str, seconds: float, replayers: int = 0
) -> Stats:
    stats = Stats()
    made = []
    async with httpx.AsyncClient(timeout=60) as c:
        for i in range(rooms):
            body = {
                "variant": "classic",
                "name": f"p{i}",
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": level}] * bots,
            }
            r = await c.post(base + "/api/rooms", json=body)
            if r.status_code == 503:  # the bot queue is full: the server says so
                stats.refused += 1
                stats.refusal = r.json()["detail"]
                continue
            if r.status_code != 201:
                raise SystemExit(f"room {i}: {r.status_code} {r.text}")
            made.append(r.json())
    stats.rooms = len(made)
    stop = time.monotonic() + seconds
    rng = random.Random(1)
    tasks = [person(base, room, stats, stop, random.Random(rng.random())) for room in made]
    if replayers:
        record = long_record()
        tasks += [replayer(base, record, stats, stop) for _ in range(replayers)]
    await asyncio.gather(prober(base, stats, stop), *tasks)
    return stats


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def children(pid: int) -> list[int]:
    """``pid`` and all its descendants (the bot workers are grandchildren:
    children of the forkserver)."""
    parent: dict[int, int] = {}
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                parent[int(p.name)] = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out = {pid}
    grew = True
    while grew:
        grew = False
        for child, ppid in parent.items():
            if ppid in out and child not in out:
                out.add(child)
                grew = True
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=60)
    ap.add_argument("--bots", type=int, default=3, help="bots per room")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--bot-workers", type=int, default=None)
    ap.add_argument("--hard-sims", type=int, default=None)
    ap.add_argument("--bot-queue", type=int, default=None)
    ap.add_argument(
        "--replayers", type=int, default=0, help="clients posting long replays without pause"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="unokit-tablebots-"))
    port = free_port()
    env = dict(os.environ)
    if args.hard_sims is not None:
        env["UNOKIT_HARD_SIMS"] = str(args.hard_sims)
    cmd = [
        sys.executable, "-m", "unokit", "serve", "--port", str(port),
        "--db", f"sqlite:///{workdir / 'bench.sqlite3'}", "--lobby-rate", "100000",
        "--max-connections-per-address", "1000000",  # every client is 127.0.0.1
        "--log-level", "warning",
    ]  # fmt: skip
    if args.bot_workers is not None:
        cmd += ["--bot-workers", str(args.bot_workers)]
    if args.bot_queue is not None:
        cmd += ["--bot-queue", str(args.bot_queue)]
    log = open(workdir / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        t0 = time.monotonic()
        cpu0 = cpu_of(children(server.pid))
        stats = asyncio.run(
            run(base, args.rooms, args.bots, args.level, args.seconds, args.replayers)
        )
        wall = time.monotonic() - t0
        cpu = cpu_of(children(server.pid)) - cpu0
    finally:
        server.terminate()
        server.wait(10)
    out = {
        "rooms": args.rooms,
        "bots_per_room": args.bots,
        "level": args.level,
        "hard_sims": args.hard_sims,
        "bot_workers": args.bot_workers,
        "seconds": args.seconds,
        "healthz_ms": {
            "p50": pct(stats.health, 0.5) * 1e3,
            "p99": pct(stats.health, 0.99) * 1e3,
            "n": len(stats.health),
        },  # fmt: skip
        "command_to_state_ms": {
            "p50": pct(stats.cmd, 0.5) * 1e3,
            "p99": pct(stats.cmd, 0.99) * 1e3,
            "n": len(stats.cmd),
        },  # fmt: skip
        "rooms_playing": stats.rooms,
        "rooms_refused": stats.refused,
        "refusal": stats.refusal,
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
        "person_commands_per_s": stats.accepted / args.seconds,
        "bot_moves_per_s": stats.bot_moves / args.seconds,
        "thinking_messages": stats.thinking,
        "replayers": args.replayers,
        "replay_answers": {str(k): v for k, v in sorted(stats.replays.items())},
        "replay_ms_p50": pct(stats.replay_ms, 0.5) * 1e3,
        "server_cpu_s_per_s": cpu / wall,
        "cores": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{args.rooms} rooms x (1 person + {args.bots} {args.level}), {args.seconds:g} s, "
          f"hard_sims={args.hard_sims or 'default'}, bot workers={args.bot_workers or 'default'}")  # fmt: skip
    if stats.refused:
        print(f"  refused           {stats.refused} rooms (503: {stats.refusal!r}); "
              f"measured on the {stats.rooms} made")  # fmt: skip
    h, c = out["healthz_ms"], out["command_to_state_ms"]
    print(
        f"  /healthz          p50 {h['p50']:7.1f} ms   p99 {h['p99']:7.1f} ms   ({h['n']} probes)"
    )
    print(
        f"  command -> state  p50 {c['p50']:7.1f} ms   p99 {c['p99']:7.1f} ms   ({c['n']} commands)"
    )
    print(f"  errors            {stats.errors} {stats.error_kinds or ''}")
    print(f"  person commands   {out['person_commands_per_s']:.2f}/s   "
          f"bot moves {out['bot_moves_per_s']:.2f}/s (as seen by the people)")  # fmt: skip
    if args.replayers:
        answers = ", ".join(f"{n} x {k}" for k, n in out["replay_answers"].items())
        print(f"  replays           {args.replayers} clients on one address: {answers} "
              f"(p50 {out['replay_ms_p50']:.1f} ms)")  # fmt: skip
    print(f"  server CPU        {out['server_cpu_s_per_s']:.2f} cores (server + workers)")


if __name__ == "__main__":
    main()
