"""Game on the C core against the Python engine: commands and bot rollouts per second.

    python benchmarks/speed/bench_face.py --before /path/to/old/src [--seconds 2] [--repeats 3]
    python benchmarks/speed/bench_face.py --loops [--today /path/to/old/src] [--seconds 3]

``--loops`` (issue 26) measures, in one process per side, RLCard's UNO
``env.step`` loop and three loops written against the public API as the
README shows it, random 2-player Classic matches (``Game.new`` with its
defaults, events kept; ``next_round`` between rounds is not counted):

* ``legal_actions+apply``: ``a = choice(g.legal_actions()); g.apply(a)``;
* ``observe+apply``: ``a = choice(g.observe(g.to_act).legal); g.apply(a)``;
* ``observe+copy+apply``: the same, with the action applied to ``g.copy()``,
  which becomes the game (a search that steps copies);

and prints decisions per second of CPU time (the measuring thread's own, robust to a shared
machine) and the ratio to RLCard measured in the same
process (the anchor), for this checkout and, with ``--today``, beside it for
another ``src/`` (today's main), each side measured ``--repeats`` times
alternately (medians).

``--before`` is a checkout of ``src/`` whose ``unokit.Game`` still runs the
Python rules (e.g. ``git archive i11-core src | tar -x -C /tmp/before`` plus a
copy of the built ``_core`` extension). Each row is measured in a fresh
process for the code under test ("after", this checkout) and for ``--before``,
alternately, ``--repeats`` times; the median of each is kept and the ratio
after/before printed (the machine is shared: read the ratio, not the
absolute numbers). Rows (2 players, ``single_round`` games from fresh deals):

* ``commands``: random legal play through ``Game.legal_moves`` + ``Game.apply_move``
  (no event log), commands per second;
* ``commands+events``: the same with the event log kept;
* ``apply(text)``: text commands through ``Game.apply`` with events;
* ``greedy rollouts`` / ``sensible rollouts``: the search bots' rollout
  policies (:mod:`unokit.bots.rollout`), rounds per second;
* ``hard decision``: ISMCTS rollouts per decision at a fixed think time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

ROWS = ("commands", "commands+events", "apply(text)", "greedy rollouts", "sensible rollouts",
        "hard decision")  # fmt: skip


def measure(row: str, seconds: float, variant: str) -> float:
    """One sample of ``row`` in this process (per second)."""
    import random

    from unokit import Game
    from unokit.bots.ismcts import ISMCTSBot
    from unokit.bots.rollout import rollout, sensible_rollout

    opts = {"matchMode": "single_round"}
    r = random.Random(1)
    deadline = time.perf_counter() + seconds
    count = 0
    seed = 0
    t0 = time.perf_counter()
    if row in ("commands", "commands+events", "apply(text)"):
        events = row != "commands"
        while count == 0 or time.perf_counter() < deadline:
            g = Game.new(variant, 2, opts, seed=seed, events=events)
            seed += 1
            while g.phase < 4:
                moves = g.legal_moves()
                m = moves[int(r.random() * len(moves))]
                if row == "apply(text)":
                    g.apply(g.decode(g.current, m))
                else:
                    g.apply_move(m, uno=True)
                count += 1
        return count / (time.perf_counter() - t0)
    if row in ("greedy rollouts", "sensible rollouts"):
        while count == 0 or time.perf_counter() < deadline:
            g = Game.new(variant, 2, opts, seed=seed, events=False)
            seed += 1
            if row == "greedy rollouts":
                rollout(g, r.random)
            else:
                sensible_rollout(g, r.random)
            count += 1
        return count / (time.perf_counter() - t0)
    if row == "hard decision":
        rolls = 0
        while count == 0 or time.perf_counter() < deadline:
            g = Game.new(variant, 2, opts, seed=seed)
            seed += 1
            bot = ISMCTSBot(seed=seed, think_ms=100)
            bot.act(g.observe(g.current))
            rolls += bot.stats.rollouts
            count += 1
        return rolls / count
    raise SystemExit(f"unknown row {row}")


LOOPS = ("rlcard env.step", "legal_actions+apply", "observe+apply", "observe+copy+apply")


def _loop_runner(loop: str) -> Callable[[float], tuple[int, float]]:
    """A function ``run(seconds)`` that plays ``loop`` for about ``seconds`` of
    wall time from where it stopped and returns (decisions, CPU seconds of this
    thread). The rate is per second of this thread's CPU time: the machine is
    shared, and wall time would count the other processes' slices (the
    deadline is wall time, to bound the run). Imports and set-up are not counted."""
    import random

    r = random.Random(1)
    if loop == "rlcard env.step":
        import rlcard

        env = rlcard.make("uno", config={"seed": 1})
        box: list[Any] = [None]

        def run_rlcard(seconds: float) -> tuple[int, float]:
            count = 0
            t0 = time.thread_time()
            deadline = time.perf_counter() + seconds
            while count == 0 or time.perf_counter() < deadline:
                if box[0] is None or env.is_over():
                    box[0], _ = env.reset()
                for _ in range(64):  # check the clock every 64 steps
                    if env.is_over():
                        break
                    legal = list(box[0]["legal_actions"])
                    box[0], _ = env.step(legal[int(r.random() * len(legal))])
                    count += 1
            return count, time.thread_time() - t0

        return run_rlcard
    from unokit import Game

    Game.new("classic", 2, seed=0)  # the first game builds the card tables: set-up
    state: dict[str, Any] = {"g": None, "seed": 0}

    def run_unokit(seconds: float) -> tuple[int, float]:
        count = 0
        t0 = time.thread_time()
        deadline = time.perf_counter() + seconds
        g = state["g"]
        while count == 0 or time.perf_counter() < deadline:
            if g is None or g.is_over:
                g = Game.new("classic", 2, seed=state["seed"])
                state["seed"] += 1
            for _ in range(64):  # check the clock every 64 decisions
                if g.is_over:
                    break
                if g.state.name == "ROUND_OVER":
                    g.next_round()
                    continue
                if loop == "legal_actions+apply":
                    acts = g.legal_actions()
                    g.apply(acts[int(r.random() * len(acts))])
                else:
                    seat = g.to_act
                    assert seat is not None
                    legal = g.observe(seat).legal
                    a = legal[int(r.random() * len(legal))]
                    if loop == "observe+copy+apply":
                        g = g.copy()
                    g.apply(a)
                count += 1
        state["g"] = g
        return count, time.thread_time() - t0

    return run_unokit


def measure_loops(seconds: float, slice_s: float = 0.25) -> dict[str, float]:
    """Decisions per CPU second of every loop of ``--loops`` in this process,
    each played ``seconds`` in all, the loops taking turns in slices of
    ``slice_s`` (so that the machine's slow and fast moments fall on the
    anchor and the loops alike: the ratios are what is read)."""
    runners = {k: _loop_runner(k) for k in LOOPS}
    done = {k: [0, 0.0] for k in LOOPS}
    for _ in range(max(1, round(seconds / slice_s))):
        for k, run in runners.items():
            n, cpu = run(slice_s)
            done[k][0] += n
            done[k][1] += cpu
    return {k: n / cpu for k, (n, cpu) in done.items()}


def loop_sample(src: Path | None, seconds: float) -> dict[str, float]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run(
        [sys.executable, __file__, "--loop-sample", "--seconds", str(seconds)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def loops(today: Path | None, seconds: float, repeats: int, as_json: bool) -> None:
    sides: dict[str, list[dict[str, float]]] = {"today": [], "new": []}
    for _ in range(repeats):
        if today is not None:
            sides["today"].append(loop_sample(today, seconds))
        sides["new"].append(loop_sample(None, seconds))
    med = {
        side: {k: statistics.median(s[k] for s in samples) for k in LOOPS}
        for side, samples in sides.items()
        if samples
    }
    head = f"{'loop':<22}"
    for side in med:
        head += f" {side + ' d/s':>14} {'x RLCard':>9}"
    print(head)
    for k in LOOPS:
        line = f"{k:<22}"
        for side in med:
            line += f" {med[side][k]:>14,.0f} {med[side][k] / med[side][LOOPS[0]]:>8.2f}x"
        print(line)
    if as_json:
        print(json.dumps(med))


def sample(src: Path | None, row: str, seconds: float, variant: str) -> float:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    out = subprocess.run(
        [sys.executable, __file__, "--sample", row, "--seconds", str(seconds),
         "--variant", variant],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return float(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--before", type=Path, help="src/ of the Python-engine Game")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--sample", help=argparse.SUPPRESS)
    ap.add_argument("--loops", action="store_true", help="issue 26's loops against RLCard")
    ap.add_argument("--today", type=Path, help="with --loops: src/ of today's face")
    ap.add_argument("--loop-sample", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.sample:
        print(measure(a.sample, a.seconds, a.variant))
        return
    if a.loop_sample:
        print(json.dumps(measure_loops(a.seconds)))
        return
    if a.loops:
        loops(a.today, a.seconds, a.repeats, a.json)
        return
    if a.before is None:
        ap.error("--before is required")
    result = {}
    print(f"{'row':<20} {'before':>12} {'after':>12} {'after/before':>13}   ({a.variant})")
    for row in a.rows.split(","):
        before, after = [], []
        for _ in range(a.repeats):
            before.append(sample(a.before, row, a.seconds, a.variant))
            after.append(sample(None, row, a.seconds, a.variant))
        b, f = statistics.median(before), statistics.median(after)
        result[row] = {"before": b, "after": f, "ratio": f / b}
        print(f"{row:<20} {b:>12,.0f} {f:>12,.0f} {f / b:>12.2f}x")
    if a.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
