"""``unokit bench``: absolute throughput on this machine, with the hardware named.

Decisions per second of random play, 2-player Classic, each measured for
``seconds`` of wall time:

* ``engine``: ``unokit.Game`` rounds played to the end by the ``random``
  policy (:func:`unokit.engine.playout.playout`), new deal each round;
* ``gym env``: ``UnoGymEnv`` steps (one agent decision each; the ``random``
  opponent moves inside the step), a uniformly random legal action;
* ``batched env xB``: ``UnoVectorEnv`` with ``B`` games (1, 64, 256, 1024),
  ``B`` decisions per step, random legal actions; the default observation layout (4)
  computed for the whole batch;
* ``web server``: moves per second the server accepted from 4 rooms of 4
  WebSocket clients answering at once on 127.0.0.1, by
  ``benchmarks/server/bench_server.py`` (a checkout's, run for 3 s after 1 s of
  warm-up, at most 100 s with its start; skipped when it is not there or with
  ``--no-server``).

The CPU model, the core count and the load average are printed with them:
numbers from a loaded machine are lower bounds. docs/performance.md
collects them.
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from unokit.cli import app, console, fail, needs

BATCHES = (1, 64, 256, 1024)


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; else what ``platform`` says)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "load_average": [round(x, 2) for x in load],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def engine_rate(seconds: float, seed: int = 0) -> float:
    from unokit import Game, Options
    from unokit.engine.playout import playout

    opts = Options.from_dict({"matchMode": "single_round"})
    rnd = random.Random(seed).random
    decisions = rounds = 0
    start = time.perf_counter()
    while True:
        g = Game.new("classic", 2, opts, seed=seed + rounds, events=False)
        decisions += playout(g, rnd)
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed


def gym_rate(seconds: float, seed: int = 0) -> float:
    import numpy as np

    from unokit.envs.gym import UnoGymEnv

    env = UnoGymEnv("classic", 2)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(100):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if term or trunc:
                obs, _ = env.reset(seed=seed + steps)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def vector_rate(batch: int, seconds: float, seed: int = 0) -> float:
    import numpy as np

    from unokit.envs.vector import UnoVectorEnv

    env = UnoVectorEnv("classic", batch, 2, seed=seed)
    out = env.reset()
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(10):
            actions = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
            out = env.step(actions)
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps * batch / elapsed


def server_script() -> Path | None:
    """``benchmarks/server/bench_server.py`` of the checkout this package runs from, if any."""
    here = Path(__file__).resolve()
    for root in (Path.cwd(), *here.parents):
        candidate = root / "benchmarks" / "server" / "bench_server.py"
        if candidate.is_file():
            return candidate
    return None


def server_rate(script: Path, timeout: float = 100.0) -> dict[str, Any]:
    """Moves/s of the web server under 4 rooms x 4 clients answering at once."""
    cmd = [sys.executable, str(script), "--rooms", "4", "--seats", "4", "--think-ms", "0",
           "--seconds", "3", "--warmup", "1", "--json"]  # fmt: skip
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"no result within {timeout:g} s"}
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"exit {done.returncode}: {tail[0][:200]}"}
    data: dict[str, Any] = json.loads(lines[-1])
    runs = data.get("runs")
    if isinstance(runs, list) and runs:
        first: dict[str, Any] = runs[0]
        return first
    return data


def run_bench(seconds: float, server: bool = True) -> dict[str, Any]:
    """Every measurement of the module doc, as one JSON-ready dict."""
    out: dict[str, Any] = {"machine": machine(), "seconds_each": seconds, "decisions_per_s": {}}
    rates = out["decisions_per_s"]
    rates["engine"] = engine_rate(seconds)
    rates["gym env"] = gym_rate(seconds)
    for b in BATCHES:
        rates[f"batched env x{b}"] = vector_rate(b, seconds)
    if server:
        script = server_script()
        if script is None:
            out["web_server"] = {
                "error": "benchmarks/server/bench_server.py not found (run from a checkout)"
            }
        else:
            out["web_server"] = server_rate(script)
            if "moves_per_s" in out["web_server"]:
                rates["web server (moves accepted)"] = out["web_server"]["moves_per_s"]
    out["machine"]["load_average_after"] = machine()["load_average"]
    return out


@app.command("bench")
def bench_command(
    seconds: Annotated[
        float, typer.Option(help="Wall time of each measurement (s).", min=0.05, max=30)
    ] = 2.0,
    server: Annotated[
        bool, typer.Option("--server/--no-server", help="Measure the web server too.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Decisions per second of the engine, the envs and the web server on this machine."""
    needs("numpy")
    if server:
        for module in ("fastapi", "uvicorn", "websockets"):
            try:
                __import__(module)
            except ModuleNotFoundError:
                fail(f"--server needs the web extra ({module} is missing); or use --no-server")
    out = run_bench(seconds, server)
    if as_json:
        print(json.dumps(out))
        return
    m = out["machine"]
    console.print(f"CPU: {m['cpu']}, {m['cores']} cores; Python {m['python']}", markup=False)
    before = m["load_average"][0]
    # the run itself keeps about one core busy, so only the load before it
    # says whether other processes were sharing the CPU
    caveat = " (other processes were using the CPU: these are lower bounds)" if before >= 1 else ""
    console.print(
        f"load average {before:.2f} before, {m['load_average_after'][0]:.2f} after{caveat}",
        markup=False,
    )
    from rich.table import Table

    table = Table("measurement (2-player Classic, random play)", "decisions/s")
    for name, rate in out["decisions_per_s"].items():
        table.add_row(name, f"{rate:,.0f}")
    console.print(table)
    web = out.get("web_server")
    if web is not None and "error" in web:
        console.print(f"web server: not measured ({web['error']})", markup=False)
    elif web is not None:
        console.print(
            f"web server: {web['rooms']} rooms, {web['players']} clients, latency p50 "
            f"{web['p50_ms']:.1f} ms, p99 {web['p99_ms']:.1f} ms",
            markup=False,
        )
