"""Tune the weighted sensible policy (``_core.weighted_duels``, policy.c) for
the searching seat's own moves in ``hard``'s rollouts (issue 16).

Objective: the win rate of the weighted seat against the sensible policy on
2-player Classic single rounds, each deal played in both seatings, entirely
in C. Optimiser: coordinate search (each weight tried at +-step, the best
change kept when it wins more rounds of the same tuning deals; the steps are
halved after a sweep without a gain). Tuning deals: seeds ``--tune-seed`` ..
+``--deals``; the final number is measured on other deals (seeds
``--eval-seed`` .. +``--eval-deals``), never used in tuning.

Usage:
    python benchmarks/strength/tune_rollout.py [--deals 30000] [--sweeps 6] [--eval-deals 100000]
    python benchmarks/strength/tune_rollout.py --start W0,W1,... --scale 0.5 (continue a search)
    python benchmarks/strength/tune_rollout.py --eval-only W0,W1,...
"""

from __future__ import annotations

import argparse
import math
import time

from unokit import _core
from unokit.engine.core import core_config
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

NAMES = [
    "held", "points", "attack", "wild", "bluff", "wild_attack", "off_color", "fav_action",
    "challenge", "keep_wild", "low", "action", "draw", "follow", "wild_legal", "wild_short",
]  # fmt: skip
STEPS = [1.0, 0.5, 10, 10, 30, 15, 5, 1, 1, 1, 1, 3, 3, 1, 10, 10]
INTEGER = {"challenge", "keep_wild", "low"}


def evaluate(w: list[float], seed0: int, deals: int) -> tuple[int, int, int]:
    o = Options.from_dict({"matchMode": "single_round"})
    tab, opt = core_config(get_variant("classic"), o, 0)
    return _core.weighted_duels(tab, opt, seed0, deals, w)


def rate(r: tuple[int, int, int]) -> float:
    won, lost, none = r
    return (won + none / 2) / (won + lost + none)


def tune(
    seed0: int, deals: int, sweeps: int, start: list[float] | None = None, scale: float = 1.0
) -> list[float]:
    w = list(_core.W_DEFAULTS) if start is None else start
    steps = [s if NAMES[j] in INTEGER else s * scale for j, s in enumerate(STEPS)]
    best = evaluate(w, seed0, deals)[0]
    print(f"start {best / (2 * deals):.4f}", flush=True)
    for sweep in range(sweeps):
        gained = False
        for i, name in enumerate(NAMES):
            cand = []
            for sign in (1, -1):
                x = list(w)
                x[i] += sign * steps[i]
                cand.append((evaluate(x, seed0, deals)[0], x))
            won, x = max(cand, key=lambda c: c[0])
            if won > best:
                best, w, gained = won, x, True
                print(
                    f"sweep {sweep} {name:12s} -> {x[i]:8.3f}  {won / (2 * deals):.4f}", flush=True
                )
        if not gained:
            steps = [s if NAMES[j] in INTEGER else s / 2 for j, s in enumerate(steps)]
            print(f"sweep {sweep}: no gain, steps halved", flush=True)
    return w


def report(w: list[float], seed0: int, deals: int) -> float:
    """The weighted seat's win rate on deals ``seed0`` .. ``seed0+deals-1``,
    each in both seatings, with a 95% interval over deals (the two rounds of a
    deal are not independent: the unit is the deal, scored 0, 1/2 or 1),
    played deal by deal from Python (a cross-check of ``weighted_duels``)."""
    from unokit.engine.core import CoreGame

    opts = {"matchMode": "single_round"}
    total = 0.0
    sq = 0.0
    split = [0, 0, 0]  # deals won in no seating, one, both
    for s in range(seed0, seed0 + deals):
        base = CoreGame.new("classic", 2, opts, seed=s)._g
        score = 0.0
        for seat in (0, 1):
            g = base.copy()
            g.mixed_playout(100_000, seat, w)
            score += 1.0 if g.winner == seat else (0.5 if g.winner < 0 else 0.0)
        split[int(score)] += 1
        x = score / 2
        total += x
        sq += x * x
    mean = total / deals
    var = sq / deals - mean * mean
    half = 1.96 * math.sqrt(var / deals)
    check = rate(evaluate(w, seed0, deals))
    print(
        f"held-out: {2 * deals} rounds ({deals} deals x 2 seatings): {mean:.4f} "
        f"95% CI {mean - half:.4f} - {mean + half:.4f}; deals won in 0/1/2 seatings "
        f"{split}; weighted_duels says {check:.4f}",
        flush=True,
    )
    return mean


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=30000)
    ap.add_argument("--sweeps", type=int, default=6)
    ap.add_argument("--tune-seed", type=int, default=1_000_000)
    ap.add_argument("--eval-seed", type=int, default=900_000_000)
    ap.add_argument("--eval-deals", type=int, default=100_000)
    ap.add_argument("--eval-only")
    ap.add_argument("--start", help="weights to start from (default: the sensible policy's)")
    ap.add_argument("--scale", type=float, default=1.0, help="of the initial steps")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.eval_only:
        w = [float(x) for x in args.eval_only.split(",")]
    else:
        start = None if not args.start else [float(x) for x in args.start.split(",")]
        w = tune(args.tune_seed, args.deals, args.sweeps, start, args.scale)
    print("weights", ",".join(f"{x:g}" for x in w))
    report(list(_core.W_DEFAULTS), args.eval_seed, args.eval_deals)
    report(w, args.eval_seed, args.eval_deals)
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
