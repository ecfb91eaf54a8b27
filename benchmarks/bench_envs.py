"""Throughput of the UNO environments against RLCard's UNO, in the same run.

Each measurement runs for ``seconds`` of wall time and counts decisions
(``step`` calls that act; the PettingZoo "dead steps" after an episode are not
counted: episodes are simply reset). Policies:

* unokit environments: a uniformly random legal action from the observation's
  ``action_mask`` (``env.last()`` then ``env.step``), reset when the round ends;
* RLCard: ``rlcard.make("uno")``, a uniformly random key of
  ``state["legal_actions"]``, ``env.step``, reset when ``env.is_over()``.

Usage: ``python benchmarks/bench_envs.py [--seconds 3]`` (``make bench``).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.gym import UnoGymEnv

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


def bench_rlcard(seconds: float, seed: int = 0) -> dict[str, Any]:
    """RLCard's UNO (2 players): ``env.step`` with random legal actions."""
    import rlcard  # type: ignore[import-untyped]  # optional: only the benchmark uses it

    env = rlcard.make("uno", config={"seed": seed})
    rnd = random.Random(seed).random
    state, _ = env.reset()
    steps = episodes = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rnd() * len(legal))])
            steps += 1
            if env.is_over():
                episodes += 1
                state, _ = env.reset()
        if time.perf_counter() >= end:
            break
    elapsed = time.perf_counter() - start
    return _result("rlcard uno (env.step)", 2, steps, episodes, elapsed)


def bench_env(
    variant: str, players: int, seconds: float, *, wrapped: bool = False, seed: int = 0
) -> dict[str, Any]:
    """A unokit AEC environment: ``last()`` + a random masked action + ``step``."""
    mod = MODULES[variant]
    env = mod.env(players=players) if wrapped else mod.raw_env(players=players)
    rnd = random.Random(seed).random
    flatnonzero = np.flatnonzero
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                episodes += 1
                env.reset()
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rnd() * len(legal))]))
            steps += 1
        if time.perf_counter() >= end:
            break
    elapsed = time.perf_counter() - start
    name = f"unokit {mod.__name__.rsplit('.', 1)[1]}" + (" (env)" if wrapped else " (raw_env)")
    return _result(name, players, steps, episodes, elapsed)


def bench_gym(seconds: float, seed: int = 0) -> dict[str, Any]:
    """The Gymnasium wrapper (classic, 2 players, opponent ``random``): agent steps."""
    env = UnoGymEnv("classic", players=2, opponent="random")
    rnd = random.Random(seed).random
    obs, _ = env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, term, trunc, _ = env.step(int(legal[int(rnd() * len(legal))]))
            steps += 1
            if term or trunc:
                episodes += 1
                obs, _ = env.reset()
        if time.perf_counter() >= end:
            break
    elapsed = time.perf_counter() - start
    return _result("unokit gym wrapper vs random (agent steps)", 2, steps, episodes, elapsed)


def _result(name: str, players: int, steps: int, episodes: int, elapsed: float) -> dict[str, Any]:
    return {
        "name": name,
        "players": players,
        "steps": steps,
        "episodes": episodes,
        "seconds": round(elapsed, 3),
        "steps_per_second": round(steps / elapsed, 1),
        "steps_per_episode": round(steps / episodes, 1) if episodes else None,
    }


def run(seconds: float = 3.0) -> dict[str, Any]:
    """Run every measurement for ``seconds`` each; returns ``{"results": [...],
    "rlcard_steps_per_second": ..., "classic_2p_ratio": ...}``."""
    results: list[dict[str, Any]] = []
    try:
        rl = bench_rlcard(seconds)
    except ImportError:
        rl = None
    if rl is not None:
        results.append(rl)
    for variant in ("classic", "flip", "flex"):
        for players in (2, 4):
            results.append(bench_env(variant, players, seconds))
    results.append(bench_env("classic", 2, seconds, wrapped=True))
    results.append(bench_gym(seconds))
    base = rl["steps_per_second"] if rl else None
    for r in results:
        r["vs_rlcard"] = round(r["steps_per_second"] / base, 2) if base else None
    classic = next(r for r in results if r["name"] == "unokit uno_classic_v0 (raw_env)"
                   and r["players"] == 2)  # fmt: skip
    return {
        "seconds_each": seconds,
        "results": results,
        "rlcard_steps_per_second": base,
        "classic_2p_ratio": classic["vs_rlcard"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args()
    out = run(args.seconds)
    print(f"{'environment':<46} {'players':>7} {'steps/s':>10} {'steps/ep':>9} {'vs RLCard':>9}")
    for r in out["results"]:
        ratio = "" if r["vs_rlcard"] is None else f"{r['vs_rlcard']:.2f}x"
        per_ep = "" if r["steps_per_episode"] is None else f"{r['steps_per_episode']:.0f}"
        print(
            f"{r['name']:<46} {r['players']:>7} {r['steps_per_second']:>10,.0f} "
            f"{per_ep:>9} {ratio:>9}"
        )
    if out["rlcard_steps_per_second"] is None:
        print("RLCard is not installed: no comparison")
    else:
        print(f"classic 2-player raw_env / RLCard: {out['classic_2p_ratio']:.2f}x")


if __name__ == "__main__":
    main()
