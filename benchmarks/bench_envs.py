"""Throughput of the UNO environments against RLCard's UNO, in the same run.

Every measurement counts decisions (``step`` calls that act; PettingZoo's "dead
steps" after an episode are not counted: episodes are simply reset). The
measurements are interleaved in short slices, round after round, so that a
change of machine load hits all of them alike and the ratios stay fair.

Policies:

* unokit environments, "uniform": a uniformly random legal action of the
  observation's ``action_mask`` (``env.last()``, then ``env.step``); this
  includes voluntary draws, which make hands grow and rounds long;
* unokit, "no voluntary draw": the same but DRAW only when no card can be
  played -- RLCard's UNO offers exactly that action set, so this row compares
  like with like;
* the batched NumPy Classic environment (``unokit.envs.vector_classic``,
  ``num_envs`` games stepped together): a uniformly random legal action per
  game, chosen with NumPy from the mask (argmax of random keys where the mask
  is 1); it counts game steps (``num_envs`` per batch step), so it compares
  with the other rows decision for decision;
* RLCard: ``rlcard.make("uno")``, a uniformly random key of
  ``state["legal_actions"]``, ``env.step``, ``env.reset()`` when
  ``env.is_over()``.

Usage: ``python benchmarks/bench_envs.py [--seconds 3]`` (``make bench``);
``seconds`` is the time given to each measurement.
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
VECTOR_ROW = "uno_classic vector env, uniform (NumPy batch)"

# A runner is a generator: each next() plays until the deadline it was sent and
# yields (steps, episodes) so far.
Runner = Iterator[tuple[int, int]]


def rlcard_runner(seed: int = 0) -> Callable[[], Runner]:
    """RLCard's UNO (2 players): ``env.step`` with random legal actions."""

    def run() -> Runner:
        import rlcard  # type: ignore[import-untyped]  # optional: only the benchmark uses it

        env = rlcard.make("uno", config={"seed": seed})
        rnd = random.Random(seed).random
        state, _ = env.reset()
        steps = episodes = 0
        deadline = yield (0, 0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    legal = list(state["legal_actions"])
                    state, _ = env.step(legal[int(rnd() * len(legal))])
                    steps += 1
                    if env.is_over():
                        episodes += 1
                        state, _ = env.reset()
            deadline = yield (steps, episodes)

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
        deadline = yield (0, 0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    obs, _, term, trunc, _ = env.last()
                    if term or trunc:
                        episodes += 1
                        env.reset()
                        continue
                    legal = obs["action_mask"].nonzero()[0].tolist()
                    if not voluntary_draw and len(legal) > 1 and draw in legal:
                        legal.remove(draw)
                    env.step(legal[int(rnd() * len(legal))])
                    steps += 1
            deadline = yield (steps, episodes)

    return run


VECTOR_GAMES = 256  # games per batch of the vector environment's row


def vector_runner(
    players: int = 2, num_envs: int = VECTOR_GAMES, seed: int = 0
) -> Callable[[], Runner]:
    """The batched Classic environment: ``step`` of ``num_envs`` random masked
    actions (NumPy); counts game steps."""

    def run() -> Runner:
        env = uno_classic_v0.vector_env(num_envs, players, seed=seed)
        rng = np.random.default_rng(seed)
        out = env.reset()
        steps = episodes = 0
        deadline = yield (0, 0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(10):
                    mask = out.action_mask
                    out = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
                    steps += num_envs
                    episodes += int(out.terminated.sum()) + int(out.truncated.sum())
            deadline = yield (steps, episodes)

    return run


def gym_runner(seed: int = 0) -> Callable[[], Runner]:
    """The Gymnasium wrapper (classic, 2 players, opponent ``random``): agent steps."""

    def run() -> Runner:
        env = UnoGymEnv("classic", players=2, opponent="random")
        rnd = random.Random(seed).random
        obs, _ = env.reset(seed=seed)
        steps = episodes = 0
        deadline = yield (0, 0)
        while True:
            while time.perf_counter() < deadline:
                for _ in range(50):
                    legal = obs["action_mask"].nonzero()[0]
                    obs, _, term, trunc, _ = env.step(int(legal[int(rnd() * len(legal))]))
                    steps += 1
                    if term or trunc:
                        episodes += 1
                        obs, _ = env.reset()
            deadline = yield (steps, episodes)

    return run


def measurements() -> list[tuple[str, int, Callable[[], Runner]]]:
    """``(name, players, runner factory)`` of every row, RLCard first."""
    rows: list[tuple[str, int, Callable[[], Runner]]] = [
        ("rlcard uno (env.step)", 2, rlcard_runner())
    ]
    for variant in ("classic", "flip", "flex"):
        for players in (2, 4):
            rows.append((f"uno_{variant}_v0, uniform", players, env_runner(variant, players)))
    rows.append(
        (
            "uno_classic_v0, no voluntary draw",
            2,
            env_runner("classic", 2, voluntary_draw=False),
        )
    )
    rows.append(("gym wrapper vs random (agent steps)", 2, gym_runner()))
    rows.append((VECTOR_ROW, 2, vector_runner()))
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
    totals = {i: (0, 0) for i in live}
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
        steps, episodes = totals[i]
        results.append(
            {
                "name": name,
                "players": players,
                "steps": steps,
                "episodes": episodes,
                "seconds": round(elapsed[i], 3),
                "steps_per_second": round(steps / elapsed[i], 1),
                "steps_per_episode": round(steps / episodes, 1) if episodes else None,
            }
        )
    base = results[0]["steps_per_second"] if rows[0][0] == results[0]["name"] else None
    for r in results:
        r["vs_rlcard"] = round(r["steps_per_second"] / base, 2) if base else None

    def ratio(name: str) -> float | None:
        return next(r["vs_rlcard"] for r in results if r["name"] == name and r["players"] == 2)

    return {
        "seconds_each": seconds,
        "results": results,
        "rlcard_steps_per_second": base,
        "classic_2p_ratio": ratio("uno_classic_v0, uniform"),
        "classic_2p_ratio_same_action_set": ratio("uno_classic_v0, no voluntary draw"),
        "classic_2p_vector_ratio": ratio(VECTOR_ROW),
        "vector_num_envs": VECTOR_GAMES,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args()
    report(run(args.seconds))


def report(out: dict[str, Any]) -> None:
    """Print the table of :func:`run`'s results and the ratios to RLCard."""
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
        print(
            f"classic 2 players / RLCard: {out['classic_2p_ratio']:.2f}x uniform over the mask, "
            f"{out['classic_2p_ratio_same_action_set']:.2f}x with RLCard's action set "
            "(floor asked: 5x)"
        )
        print(
            f"classic 2 players, batched NumPy env ({VECTOR_GAMES} games per step) / RLCard: "
            f"{out['classic_2p_vector_ratio']:.2f}x uniform over the mask (floor asked: 5x)"
        )


if __name__ == "__main__":
    main()
