"""Bot decisions per second through Redis with 1, then 2 ``unokit bot-worker`` processes.

    nice -n 15 python benchmarks/server/bench_bot_workers.py [--decisions 400] [--level hard]
        [--in-flight 16] [--max-seconds 120]

Starts its own ``redis-server`` on a free port of 127.0.0.1, one
``unokit bot-worker --concurrency 1``, and a server's side of the broker
(:class:`~unokit.web.botbroker.BrokerBots`, as ``unokit serve --broker`` runs
it) in this process. It sends ``--decisions`` decisions of ``--level`` (real
positions of 4-player Classic games, each seat's observation with a seed),
``--in-flight`` at a time, and times them; then starts a second worker and
does the same. It prints both rates and their ratio (the anchor is the same
run's one-worker rate), and a CPU-seconds-per-decision figure measured in the
workers. Each phase stops after ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from unokit.bots import make_bot
from unokit.engine.game import Game
from unokit.engine.observation import Observation
from unokit.testing.servers import redis_server
from unokit.web.botbroker import WORKERS_KEY, BrokerBots
from unokit.web.botpool import decide

UNOKIT = Path(sys.executable).with_name("unokit")


def positions(count: int) -> list[Observation]:
    out: list[Observation] = []
    seed = 0
    while len(out) < count:
        g = Game.new("classic", 4, seed=seed)
        bot = make_bot("heuristic", seed=seed)
        while g.to_act is not None and len(out) < count:
            obs = g.observe(g.to_act)
            if len(obs.legal) > 1:
                out.append(obs)
            g.apply(bot.act(obs))
        seed += 1
    return out


def start_worker(url: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as f:
        proc = subprocess.Popen(
            [str(UNOKIT), "bot-worker", "--broker", url, "--concurrency", "1"],
            stdout=f,
            stderr=subprocess.STDOUT,
        )
    r = redis.Redis.from_url(url, decode_responses=True)
    deadline = time.monotonic() + 60
    while not any(f"-{proc.pid}-" in m for m in r.zrange(WORKERS_KEY, 0, -1)):
        if proc.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"the bot worker did not start: {log.read_text()[-2000:]}")
        time.sleep(0.05)  # polling for readiness
    return proc


async def phase(
    bots: BrokerBots, level: str, cases: list[Observation], in_flight: int, limit: float
) -> tuple[float, float, int]:
    """(decisions per second, mean CPU seconds per decision, decisions done)."""
    gate = asyncio.Semaphore(in_flight)
    cpu: list[float] = []
    stop_at = time.monotonic() + limit

    async def one(i: int, obs: Observation) -> None:
        async with gate:
            if time.monotonic() > stop_at:
                return
            _action, seconds = await bots.run(decide, level, 1000 + i, obs)
            cpu.append(seconds)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i, o) for i, o in enumerate(cases)))
    wall = time.perf_counter() - t0
    return len(cpu) / wall, sum(cpu) / max(1, len(cpu)), len(cpu)


async def run(url: str, args: argparse.Namespace, logs: Path) -> None:
    cases = positions(args.decisions)
    procs = [start_worker(url, logs / "w0.log")]
    bots = BrokerBots(url, "bench", local=None, deadline=120)
    await bots.start()
    try:
        rates = []
        for n in (1, 2):
            if n == 2:
                procs.append(start_worker(url, logs / "w1.log"))
            while bots.alive != n:
                await asyncio.sleep(0.05)  # the server side counts the workers
            # warm-up: each worker's first decision loads the bots
            await asyncio.gather(*(bots.run(decide, args.level, i, cases[i]) for i in range(4)))
            rate, cpu, done = await phase(bots, args.level, cases, args.in_flight, args.max_seconds)
            rates.append(rate)
            print(
                f"{n} worker(s): {done} {args.level} decisions, {rate:.1f} decisions/s, "
                f"{cpu * 1000:.2f} ms CPU per decision in the worker"
            )
            if bots.fell_back:
                print(f"  ({bots.fell_back} decisions fell back: not counted as remote)")
        print(f"ratio 2 workers / 1 worker: {rates[1] / rates[0]:.2f}")
    finally:
        await bots.stop()
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=400)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--in-flight", type=int, default=16)
    ap.add_argument("--max-seconds", type=float, default=120.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="unokit-bench-") as tmp, redis_server(Path(tmp)) as url:
        asyncio.run(run(url, args, Path(tmp)))


if __name__ == "__main__":
    main()
