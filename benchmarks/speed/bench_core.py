"""The C rules core (issue 11): ``unokit sim`` rounds/s per variant and bot
playouts/s, each against RLCard's ``env.run`` measured in the same run, and
the distance to a bare C loop (benchmarks/speed/bare_loop.c, built here with gcc).

Usage: python benchmarks/speed/bench_core.py [--seconds S] [--repeats R] [--json]

Samples are interleaved (RLCard, unokit, bare loop, ...) and the median of the
repeats is kept: the machine is shared, so compare ratios, not absolute numbers.
Rows:

* ``sim``: :func:`unokit.bots.sim.simulate` with every seat the random bot, 2
  players, single rounds -- what ``unokit sim --bots random`` runs (each round a
  new game: dealer cut, shuffle, deal, first card, the round played out);
* ``python``: the same rounds on the Python engine (``Game`` and
  the reference engine, :class:`unokit.testing.reference.ReferenceGame`, stepping
  :func:`unokit.engine.playout.random_move`), the rules in Python: the "before";
* ``playouts``: what a search bot does per rollout -- copy a mid-round
  ``Game`` and play the round out with :func:`unokit.engine.playout.playout` (the
  position goes to the core and back) -- and the same on a ``CoreGame`` copy;
* ``bare``: benchmarks/speed/bare_loop.c, Classic rounds with nothing but the rules
  of a plain game (no options, events, legality checks or CPython's generator).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import rlcard_rounds_per_second  # noqa: E402

from unokit import Game, Options  # noqa: E402
from unokit.bots.sim import simulate  # noqa: E402
from unokit.engine.core import CoreGame  # noqa: E402
from unokit.engine.playout import playout, random_move  # noqa: E402
from unokit.testing.reference import ReferenceGame  # noqa: E402

VARIANTS = ("classic", "flip", "flex")


def playout_python(game: Game, rnd: Callable[[], float]) -> None:
    """The random playout on the Python rules (``ReferenceGame``): the same
    policy as :func:`playout`, one command at a time."""
    while game.phase < 4:
        game.apply_move(random_move(game, rnd), uno=True)


def sim_rounds_per_second(variant: str, seconds: float, players: int = 2) -> float:
    """``unokit sim``'s all-random path (unokit.bots.sim.simulate), rounds per second."""
    rounds = 0
    seed = 0
    start = time.perf_counter()
    while True:
        r = simulate(variant, players, 2000, seed=seed, bots=["random"])
        rounds += r.rounds
        seed += 2000
        if time.perf_counter() - start >= seconds:
            break
    return rounds / (time.perf_counter() - start)


def python_rounds_per_second(variant: str, seconds: float, players: int = 2) -> float:
    opts = Options(matchMode="single_round")
    rnd = random.Random(0).random
    rounds = 0
    start = time.perf_counter()
    while True:
        g = ReferenceGame.new(variant, players, opts, seed=rounds, events=False)
        playout_python(g, rnd)
        rounds += 1
        if rounds % 32 == 0 and time.perf_counter() - start >= seconds:
            break
    return rounds / (time.perf_counter() - start)


def _positions(variant: str, players: int, count: int, cls: type[Game] = Game) -> list[Game]:
    """Mid-round positions (a dozen random decisions in), as a search bot meets them."""
    out = []
    r = random.Random(1)
    seed = 0
    while len(out) < count:
        g = cls.new(variant, players, {"matchMode": "single_round"}, seed=seed, events=False)
        seed += 1
        for _ in range(12):
            if g.phase >= 4:
                break
            g.apply_move(r.choice(g.turn_moves()), uno=True)
        if g.phase < 4:
            out.append(g)
    return out


def playouts_per_second(variant: str, seconds: float, how: str, players: int = 2) -> float:
    positions = _positions(variant, players, 64, ReferenceGame if how == "python" else Game)
    cores = [CoreGame.from_game(g) for g in positions]
    rng = random.Random(2)
    rnd = rng.random
    done = 0
    start = time.perf_counter()
    while True:
        for i in range(len(positions)):
            if how == "python":
                playout_python(positions[i].copy(), rnd)
            elif how == "game":
                playout(positions[i].copy(), rnd)
            else:
                cores[i].copy().playout(rnd)
        done += len(positions)
        if time.perf_counter() - start >= seconds:
            break
    return done / (time.perf_counter() - start)


def build_bare_loop() -> Path | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    src = Path(__file__).resolve().parent / "bare_loop.c"
    exe = Path(tempfile.gettempdir()) / "unokit_bare_loop"
    subprocess.run([gcc, "-O2", "-o", str(exe), str(src)], check=True)
    return exe


def bare_rounds_per_second(exe: Path, seconds: float, players: int = 2) -> float:
    out = subprocess.run(
        [str(exe), str(players), str(seconds)], check=True, capture_output=True, text=True
    )
    return float(out.stdout.split()[0])


def run(seconds: float = 1.5, repeats: int = 3) -> dict[str, Any]:
    samples: dict[str, list[float]] = {}

    def add(key: str, value: float | None) -> None:
        if value is not None:
            samples.setdefault(key, []).append(value)

    exe = build_bare_loop()
    for _ in range(repeats):
        rl = rlcard_rounds_per_second(seconds, 2)
        add("rlcard env.run classic", None if rl is None else rl[0])
        for v in VARIANTS:
            add(f"sim {v}", sim_rounds_per_second(v, seconds))
        add("python classic", python_rounds_per_second("classic", seconds / 2))
        if exe is not None:
            add("bare classic", bare_rounds_per_second(exe, seconds / 2))
        for v in VARIANTS:
            add(f"playouts core {v}", playouts_per_second(v, seconds / 3, "core"))
            add(f"playouts game {v}", playouts_per_second(v, seconds / 3, "game"))
        add("playouts python classic", playouts_per_second("classic", seconds / 3, "python"))
    res: dict[str, Any] = {k: statistics.median(v) for k, v in samples.items()}
    anchor = res.get("rlcard env.run classic")
    ratios: dict[str, float] = {}
    if anchor:
        for k, v in res.items():
            if k != "rlcard env.run classic":
                ratios[k] = v / anchor
    res["ratio_to_rlcard"] = ratios
    if "bare classic" in res:
        res["core_to_bare"] = res["sim classic"] / res["bare classic"]
    return res


def report(res: dict[str, Any]) -> None:
    goals = {"sim classic": 30, "sim flip": 20, "sim flex": 20}
    print("Rounds (or playouts) per second, 2 players, median of interleaved samples\n")
    print(f"| {'row':<26} | {'per second':>11} | {'x RLCard env.run':>16} | {'goal':>5} |")
    print(f"|{'-' * 28}|{'-' * 13}|{'-' * 18}|{'-' * 7}|")
    for key, value in res.items():
        if not isinstance(value, float) or key == "core_to_bare":
            continue
        ratio = res["ratio_to_rlcard"].get(key)
        r = "anchor" if key.startswith("rlcard") else (f"{ratio:.1f}x" if ratio else "-")
        goal = f">={goals[key]}x" if key in goals else ""
        print(f"| {key:<26} | {value:>11,.0f} | {r:>16} | {goal:>5} |")
    if "core_to_bare" in res:
        print(
            f"\nunokit sim classic reaches {res['core_to_bare']:.0%} of the bare C loop "
            f"(benchmarks/speed/bare_loop.c)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=1.5, help="measuring time per sample")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved samples (median kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    res = run(args.seconds, args.repeats)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        report(res)


if __name__ == "__main__":
    main()
