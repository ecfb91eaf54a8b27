"""Decision time and search effort of the bots, per variant (prints numbers).

    python benchmarks/bots/bench_bots.py [--rounds 4] [--think-ms 100] [--players 2]

For each variant, ``hard`` plays ``--rounds`` rounds against the heuristic;
the script prints, over hard's decisions that needed a search, the mean and
largest wall time, CPU time, samples and rollouts per decision, and the speed
of the rollout policies (rounds per second from a fresh deal).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.ismcts import DEFAULT_THINK_MS, ISMCTSBot
from unokit.bots.rollout import rollout, sensible_rollout
from unokit.engine.playout import playout


def decisions(variant: str, players: int, rounds: int, think_ms: float) -> None:
    wall: list[float] = []
    cpu: list[float] = []
    samples: list[int] = []
    rolls: list[int] = []
    instant = 0
    for seed in range(rounds):
        g = Game.new(variant, players, {"matchMode": "single_round"}, seed=seed)
        hard = ISMCTSBot(seed=seed, think_ms=think_ms)
        others = [make_bot("heuristic", seed=s) for s in range(players)]
        while g.phase < 4:
            s = g.current
            obs = g.observe(s)
            if s == 0:
                w0, c0 = time.perf_counter(), time.process_time()
                action = hard.act(obs)
                w1, c1 = time.perf_counter(), time.process_time()
                if hard.stats.rollouts:
                    wall.append(w1 - w0)
                    cpu.append(c1 - c0)
                    samples.append(hard.stats.iterations)
                    rolls.append(hard.stats.rollouts)
                else:
                    instant += 1
            else:
                action = others[s].act(obs)
            g.apply(action)
    print(
        f"{variant:8} searched {len(wall):4} decisions (+{instant} instant): "
        f"wall {1000 * statistics.mean(wall):6.1f} ms mean, {1000 * max(wall):6.1f} max; "
        f"cpu {1000 * statistics.mean(cpu):6.1f} ms; "
        f"{statistics.mean(samples):6.0f} samples, {statistics.mean(rolls):6.0f} rollouts"
    )


def rollouts(variant: str, players: int, n: int = 400) -> None:
    for name, fn in (("random", playout), ("greedy", rollout), ("sensible", sensible_rollout)):
        games = [
            Game.new(variant, players, {"matchMode": "single_round"}, seed=i, events=False)
            for i in range(n)
        ]
        t = time.perf_counter()
        for i, g in enumerate(games):
            fn(g, random.Random(i).random)
        dt = time.perf_counter() - t
        print(f"{variant:8} {name:8} rollouts: {n / dt:8,.0f} rounds/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--think-ms", type=float, default=DEFAULT_THINK_MS)
    args = ap.parse_args()
    print(f"hard, think_ms={args.think_ms:g} (CPU), {args.players} players, vs heuristic")
    for v in ("classic", "flip", "flex"):
        decisions(v, args.players, args.rounds, args.think_ms)
    for v in ("classic", "flip", "flex"):
        rollouts(v, args.players)


if __name__ == "__main__":
    main()
