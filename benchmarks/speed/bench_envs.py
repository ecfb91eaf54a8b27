"""Throughput of the UNO environments against RLCard's UNO, in the same run.

Every measurement counts decisions (``step`` calls that act; PettingZoo's "dead
steps" after an episode are not counted: episodes are simply reset). The
measurements are interleaved in short slices, round after round, so that a
change of machine load hits all of them alike and the ratios stay fair.

Two rates per row: ``steps/s`` over the whole loop, the random policy's
Python/NumPy time included, and ``env steps/s`` over the time spent inside the
environment's own calls (RLCard: ``env.step`` and ``env.reset``; AEC:
``env.last``, ``env.step`` and ``env.reset``; Gymnasium: ``env.step`` and
``env.reset``; batched: ``env.step``), which is what "RLCard ``env.step``"
compares; each has its ratio to RLCard's.

Policies:

* unokit AEC environments, "uniform": a uniformly random legal action of the
  observation's ``action_mask`` (``env.last()``, then ``env.step``); this
  includes voluntary draws, which make hands grow and rounds long;
* unokit, "no voluntary draw": the same but DRAW only when no card can be
  played -- RLCard's UNO offers exactly that action set, so this row compares
  like with like;
* the Gymnasium wrapper of each variant against the ``random`` opponent: a
  uniformly random legal action of the agent; counts the agent's steps;
* the batched environment of each variant (``uno_<variant>_v0.vector_env``,
  256 games stepped together in the rules core): a uniformly random legal
  action per game, chosen with NumPy from the mask (the argmax of random keys
  where the mask is 1); it counts game steps (256 per batch step), so it
  compares with the other rows decision for decision;
* RLCard: ``rlcard.make("uno")``, a uniformly random key of
  ``state["legal_actions"]``, ``env.step``, ``env.reset()`` when
  ``env.is_over()``.

Usage: ``python benchmarks/speed/bench_envs.py [--seconds 3] [--json out.json]``
(``make bench``); ``seconds`` is the time given to each measurement. The
report ends with each variant's ratios to RLCard against the goals of issue
11 (AEC and Gymnasium >= 2x, batched >= 20x, in environment time).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.gym import UnoGymEnv

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}
SLICE = 0.25  # seconds per slice
VECTOR_GAMES = 256  # games per batch of the batched environments' rows
#: the goals of issue 11, as ratios to RLCard's env.step
GOALS = {"aec": 2.0, "gym": 2.0, "vector": 20.0}

# A runner is a generator: each next() plays until the deadline it was sent and
# yields (steps, episodes, seconds inside the environment's calls) so far.
Runner = Iterator[tuple[int, int, float]]
clock = time.perf_counter


def rlcard_runner(seed: int = 0) -> Callable[[], Runner]:
    """RLCard's UNO (2 players): ``env.step`` with random legal actions."""

    def run() -> Runner:
        import rlcard  # type: ignore[import-untyped]  # optional: only the benchmark uses it

        env = rlcard.make("uno", config={"seed": seed})
        rnd = random.Random(seed).random
        state, _ = env.reset()
        steps = episodes = 0
        inside = 0.0
        deadline = yield (0, 0, 0.0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    legal = list(state["legal_actions"])
                    action = legal[int(rnd() * len(legal))]
                    t = clock()
                    state, _ = env.step(action)
                    over = env.is_over()
                    if over:
                        state, _ = env.reset()
                    inside += clock() - t
                    steps += 1
                    episodes += over
            deadline = yield (steps, episodes, inside)

    return run


def env_runner(
    variant: str,
    players: int,
    *,
    voluntary_draw: bool = True,
    seed: int = 0,
) -> Callable[[], Runner]:
    """A unokit AEC environment: ``last()`` + a random masked action + ``step``."""

    def run() -> Runner:
        mod = MODULES[variant]
        env = mod.env(players=players)
        draw = env.table.index_of("DRAW")
        rnd = random.Random(seed).random
        env.reset(seed=seed)
        steps = episodes = 0
        inside = 0.0
        deadline = yield (0, 0, 0.0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    t = clock()
                    obs, _, term, trunc, _ = env.last()
                    if term or trunc:
                        env.reset()
                        inside += clock() - t
                        episodes += 1
                        continue
                    inside += clock() - t
                    legal = obs["action_mask"].nonzero()[0].tolist()
                    if not voluntary_draw and len(legal) > 1 and draw in legal:
                        legal.remove(draw)
                    action = legal[int(rnd() * len(legal))]
                    t = clock()
                    env.step(action)
                    inside += clock() - t
                    steps += 1
            deadline = yield (steps, episodes, inside)

    return run


def vector_runner(
    variant: str, players: int = 2, num_envs: int = VECTOR_GAMES, seed: int = 0
) -> Callable[[], Runner]:
    """A batched environment: ``step`` of ``num_envs`` random masked actions
    (NumPy); counts game steps."""

    def run() -> Runner:
        env = MODULES[variant].vector_env(num_envs, players, seed=seed)
        rng = np.random.default_rng(seed)
        out = env.reset()
        steps = episodes = 0
        inside = 0.0
        deadline = yield (0, 0, 0.0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(10):
                    # the k-th legal action of each game, k uniform
                    # random keys where the mask is 1: the argmax is a uniform legal action
                    keys = rng.random(out.action_mask.shape, dtype=np.float32)
                    keys *= out.action_mask
                    actions = keys.argmax(axis=1)
                    t = clock()
                    out = env.step(actions)
                    inside += clock() - t
                    steps += num_envs
                    episodes += int(out.terminated.sum()) + int(out.truncated.sum())
            deadline = yield (steps, episodes, inside)

    return run


def gym_runner(variant: str = "classic", seed: int = 0) -> Callable[[], Runner]:
    """The Gymnasium wrapper (2 players, opponent ``random``): agent steps."""

    def run() -> Runner:
        env = UnoGymEnv(variant, players=2, opponent="random")
        rnd = random.Random(seed).random
        obs, _ = env.reset(seed=seed)
        steps = episodes = 0
        inside = 0.0
        deadline = yield (0, 0, 0.0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    legal = obs["action_mask"].nonzero()[0]
                    action = int(legal[int(rnd() * len(legal))])
                    t = clock()
                    obs, _, term, trunc, _ = env.step(action)
                    if term or trunc:
                        obs, _ = env.reset()
                    inside += clock() - t
                    steps += 1
                    episodes += term or trunc
            deadline = yield (steps, episodes, inside)

    return run


def aec_row(variant: str) -> str:
    return f"uno_{variant}_v0, uniform"


def gym_row(variant: str) -> str:
    return f"uno_{variant} gym vs random (agent steps)"


def vector_row(variant: str) -> str:
    return f"uno_{variant} vector_env({VECTOR_GAMES}), uniform"


def measurements() -> list[tuple[str, int, Callable[[], Runner]]]:
    """``(name, players, runner factory)`` of every row, RLCard first."""
    rows: list[tuple[str, int, Callable[[], Runner]]] = [
        ("rlcard uno (env.step)", 2, rlcard_runner())
    ]
    for variant in ("classic", "flip", "flex"):
        for players in (2, 4):
            rows.append((aec_row(variant), players, env_runner(variant, players)))
        rows.append((gym_row(variant), 2, gym_runner(variant)))
        rows.append((vector_row(variant), 2, vector_runner(variant)))
    rows.append(
        (
            "uno_classic_v0, no voluntary draw",
            2,
            env_runner("classic", 2, voluntary_draw=False),
        )
    )
    return rows


def run(seconds: float = 3.0) -> dict[str, Any]:
    """Run every measurement for about ``seconds`` each (interleaved); returns
    ``{"results": [...], "rlcard_steps_per_second", "classic_2p_ratio", ...}``."""
    rows = measurements()
    runners: list[Runner | None] = []
    for name, _, factory in rows:
        try:
            r = factory()
            next(r)
        except ImportError:  # RLCard is optional
            r = None
        runners.append(r)
        if r is None:
            print(f"skipped: {name} (not installed)")
    live = [i for i, r in enumerate(runners) if r is not None]
    totals = {i: (0, 0, 0.0) for i in live}
    elapsed = dict.fromkeys(live, 0.0)
    rounds = max(1, round(seconds / SLICE))
    slice_len = seconds / rounds
    for _ in range(rounds):
        for i in live:
            runner = runners[i]
            assert runner is not None
            start = time.perf_counter()
            totals[i] = runner.send(start + slice_len)
            elapsed[i] += time.perf_counter() - start
    results = []
    for i in live:
        name, players, _ = rows[i]
        steps, episodes, inside = totals[i]
        results.append(
            {
                "name": name,
                "players": players,
                "steps": steps,
                "episodes": episodes,
                "seconds": round(elapsed[i], 3),
                "env_seconds": round(inside, 3),
                "steps_per_second": round(steps / elapsed[i], 1),
                "env_steps_per_second": round(steps / max(inside, 1e-9), 1),
                "steps_per_episode": round(steps / episodes, 1) if episodes else None,
            }
        )
    first = results[0] if rows[0][0] == results[0]["name"] else None
    for r in results:
        r["vs_rlcard"] = (
            round(r["steps_per_second"] / first["steps_per_second"], 2) if first else None
        )
        r["env_vs_rlcard"] = (
            round(r["env_steps_per_second"] / first["env_steps_per_second"], 2) if first else None
        )
    base = first["steps_per_second"] if first else None

    def ratio(name: str, key: str = "env_vs_rlcard") -> float | None:
        return next(r[key] for r in results if r["name"] == name and r["players"] == 2)

    variants = {
        v: {"aec": ratio(aec_row(v)), "gym": ratio(gym_row(v)), "vector": ratio(vector_row(v))}
        for v in ("classic", "flip", "flex")
    }
    with_policy = {
        v: {
            "aec": ratio(aec_row(v), "vs_rlcard"),
            "gym": ratio(gym_row(v), "vs_rlcard"),
            "vector": ratio(vector_row(v), "vs_rlcard"),
        }
        for v in ("classic", "flip", "flex")
    }
    return {
        "seconds_each": seconds,
        "results": results,
        "rlcard_steps_per_second": base,
        "classic_2p_ratio": ratio(aec_row("classic")),
        "classic_2p_ratio_same_action_set": ratio("uno_classic_v0, no voluntary draw"),
        "classic_2p_vector_ratio": ratio(vector_row("classic")),
        "vector_num_envs": VECTOR_GAMES,
        "ratios_2p": variants,
        "ratios_2p_with_policy": with_policy,
        "goals": GOALS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()
    out = run(args.seconds)
    report(out)
    if args.json:
        import json

        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


def report(out: dict[str, Any]) -> None:
    """Print the table of :func:`run`'s results and the ratios to RLCard."""
    print(
        f"{'environment':<44} {'players':>7} {'steps/s':>10} {'vs RLCard':>9} "
        f"{'env steps/s':>12} {'vs RLCard':>9} {'steps/ep':>8}"
    )
    for r in out["results"]:
        ratio = "" if r["vs_rlcard"] is None else f"{r['vs_rlcard']:.2f}x"
        env_ratio = "" if r["env_vs_rlcard"] is None else f"{r['env_vs_rlcard']:.2f}x"
        per_ep = "" if r["steps_per_episode"] is None else f"{r['steps_per_episode']:.0f}"
        print(
            f"{r['name']:<44} {r['players']:>7} {r['steps_per_second']:>10,.0f} {ratio:>9} "
            f"{r['env_steps_per_second']:>12,.0f} {env_ratio:>9} {per_ep:>8}"
        )
    if out["rlcard_steps_per_second"] is None:
        print("RLCard is not installed: no comparison")
        return
    print(
        f"classic 2 players / RLCard: {out['classic_2p_ratio']:.2f}x uniform over the mask, "
        f"{out['classic_2p_ratio_same_action_set']:.2f}x with RLCard's action set"
    )
    goals = out["goals"]
    print(
        f"2 players, environment time, ratio to RLCard (goal): AEC ({goals['aec']:g}x), "
        f"Gymnasium ({goals['gym']:g}x), batched at {out['vector_num_envs']} games "
        f"({goals['vector']:g}x); in brackets the ratio with the random policy's time"
    )
    for variant, ratios in out["ratios_2p"].items():
        loop = out["ratios_2p_with_policy"][variant]
        cells = [
            f"{kind} {ratios[kind]:.1f}x {'ok' if ratios[kind] >= goals[kind] else 'BELOW'}"
            f" ({loop[kind]:.1f}x)"
            for kind in ("aec", "gym", "vector")
        ]
        print(f"  {variant:<8} " + "   ".join(cells))


if __name__ == "__main__":
    main()
