"""Engine benchmark: random-play rounds per second for each variant, against
RLCard's UNO (``env.run`` with ``RandomAgent``s) measured in the same run.

Usage: python benchmarks/speed/bench_engine.py [--seconds S] [--repeats R] [--json]

Machines here are noisy, so measurements are interleaved (unokit, RLCard,
unokit, ...) and the median of the repeats is reported; compare the ratio, not
the absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import warnings
from typing import Any

from unokit import Game, Options
from unokit.engine.playout import playout


def unokit_rounds_per_second(
    variant: str, players: int, seconds: float, seed: int = 0
) -> tuple[float, float]:
    """Rounds/s and mean decisions per round of random play with the full rules.

    Each round is a new game (dealer cut, shuffle, deal, first card) played to
    its end by the ``random`` policy (unokit.engine.playout)."""
    opts = Options.from_dict({"matchMode": "single_round"})
    rnd = random.Random(seed).random
    rounds = turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        g = Game.new(variant, players, opts, seed=seed + rounds, events=False)
        turns += playout(g, rnd)
        rounds += 1
        if rounds % 64 == 0 and time.perf_counter() >= deadline:
            break
    return rounds / (time.perf_counter() - start), turns / rounds


def rlcard_rounds_per_second(
    seconds: float, players: int = 2, seed: int = 0
) -> tuple[float, float] | None:
    """RLCard's UNO: rounds/s of ``env.run`` with random agents (None if not installed)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import rlcard
            from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": seed, "game_num_players": players})
    if env.num_players != players:
        return None
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    rounds = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        trajectories, _ = env.run(is_training=False)
        steps += sum((len(t) - 1) // 2 for t in trajectories)
        rounds += 1
    return rounds / (time.perf_counter() - start), steps / rounds


def run(seconds: float = 2.0, repeats: int = 3) -> dict[str, Any]:
    results: dict[str, Any] = {"unokit": {}, "rlcard": {}}
    samples: dict[str, list[float]] = {}
    turns: dict[str, float] = {}
    rl_samples: dict[int, list[float]] = {2: []}  # RLCard's UNO is two-player only
    rl_steps: dict[int, float] = {}
    for _ in range(repeats):
        for players in rl_samples:
            rl = rlcard_rounds_per_second(seconds, players)
            if rl is not None:
                rl_samples[players].append(rl[0])
                rl_steps[players] = rl[1]
        for variant in ("classic", "flip", "flex"):
            for players in (2, 4):
                key = f"{variant}-{players}p"
                rate, t = unokit_rounds_per_second(variant, players, seconds)
                samples.setdefault(key, []).append(rate)
                turns[key] = t
    for key, values in samples.items():
        results["unokit"][key] = {
            "rounds_per_s": statistics.median(values),
            "turns_per_round": turns[key],
        }
    for players, values in rl_samples.items():
        if values:
            results["rlcard"][f"classic-{players}p"] = {
                "rounds_per_s": statistics.median(values),
                "turns_per_round": rl_steps[players],
            }
    rl2 = results["rlcard"].get("classic-2p")
    if rl2:
        results["ratio_classic_2p"] = (
            results["unokit"]["classic-2p"]["rounds_per_s"] / rl2["rounds_per_s"]
        )
    return results


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=2.0, help="measuring time per sample")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved samples (median is kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    res = run(args.seconds, args.repeats)
    try:  # the RL environments add their own table when they exist
        import bench_envs  # type: ignore[import-not-found]

        res["envs"] = bench_envs.run(args.seconds)
    except ImportError:
        pass
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print("Random-play rounds per second (median of interleaved samples)\n")
    print(
        f"| {'engine':<8} | {'variant':<8} | {'players':>7} | {'rounds/s':>9} | {'turns/round':>11} |"
    )
    print(f"|{'-' * 10}|{'-' * 10}|{'-' * 9}|{'-' * 11}|{'-' * 13}|")
    for key, r in res["unokit"].items():
        variant, players = key.rsplit("-", 1)
        print(
            f"| {'unokit':<8} | {variant:<8} | {players[:-1]:>7} | {r['rounds_per_s']:>9,.0f} | {r['turns_per_round']:>11.1f} |"
        )
    for key, r in res["rlcard"].items():
        variant, players = key.rsplit("-", 1)
        print(
            f"| {'RLCard':<8} | {variant:<8} | {players[:-1]:>7} | {r['rounds_per_s']:>9,.0f} | {r['turns_per_round']:>11.1f} |"
        )
    if "ratio_classic_2p" in res:
        print(f"\nclassic 2-player: unokit / RLCard = {res['ratio_classic_2p']:.1f}x (floor: 10x)")
    else:
        print("\nRLCard is not installed: no ratio (pip install rlcard)")
    if "envs" in res:
        print("\nEnvironment steps per second (random masked actions), against RLCard's env.step\n")
        bench_envs.report(res["envs"])


if __name__ == "__main__":
    main()
