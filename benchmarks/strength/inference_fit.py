"""How well the determinizer's samples guess the other hand: a cheap measure of inference.

At decisions of seat 0 in 2-player rounds (seat 0 and the opponent played by
``--me`` and ``--opponent`` bots), each sampling method builds a
``Determinizer`` from seat 0's observation (exactly what the bot gets) and
draws ``--samples`` deals in a row, as a search does; the score of a deal is
the share of the opponent's true cards it puts in the opponent's hand
(multiset overlap / hand size). The true hand is read only here, to score.
Every method is scored at the same positions, so differences are paired;
each line gives the mean share with a 95% interval of the paired difference
against the first method, and the CPU time per sample.

Usage:
    python benchmarks/strength/inference_fit.py [--variant classic] [--games 60] [--samples 64]
        [--methods prior,infer,particles=128,mcmc=4] [--opponent heuristic] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from typing import Any

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.determinize import Determinizer
from unokit.bots.tournament import offer_catch
from unokit.engine.game import _RO
from unokit.engine.options import Options


def _det(method: str, obs: Any) -> Determinizer:
    name, _, val = method.partition("=")
    if name == "prior":
        return Determinizer(obs, infer=False)
    if name == "infer":
        return Determinizer(obs)
    if name == "particles":
        return Determinizer(obs, particles=int(val))
    if name == "mcmc":  # mcmc=STEPS[/PLAY_EPS[/INEXACT_EPS]]
        steps, *eps = val.split("/")
        d = Determinizer(obs, mcmc=int(steps))
        if eps:
            d.play_eps = float(eps[0])
        if len(eps) > 1:
            d.inexact_eps = float(eps[1])
        return d
    raise SystemExit(f"unknown method {method!r}")


def _colors(hand: list[int], g: Game) -> Counter[int]:
    col = g.variant.color[g.side]
    return Counter(col[c] for c in hand)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--samples", type=int, default=64)
    ap.add_argument("--every", type=int, default=2, help="score every k-th decision of seat 0")
    ap.add_argument("--methods", default="prior,infer,particles=128,mcmc=4")
    ap.add_argument("--me", default="heuristic")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--metric",
        choices=("card", "color"),
        default="card",
        help="overlap of the cards themselves, or of their colours (wilds: one more)",
    )
    args = ap.parse_args()
    methods = args.methods.split(",")
    scores: dict[str, list[float]] = {m: [] for m in methods}
    small: list[bool] = []  # the opponent held 3 cards or fewer
    cpu: Counter[str] = Counter()
    opts = Options.from_dict({"matchMode": "single_round"})
    for i in range(args.games):
        g = Game.new(args.variant, 2, opts, seed=args.seed * 100_003 + i, events=True)
        bots = [make_bot(args.me, seed=i, sims=200), make_bot(args.opponent, seed=i + 7, sims=200)]
        k = 0
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if s == 0 and obs.phase == "AWAIT_TURN" and len(g.hands[1]) >= 2:
                k += 1
                if k % args.every == 0:
                    true = Counter(g.hands[1]) if args.metric == "card" else _colors(g.hands[1], g)
                    size = len(g.hands[1])
                    small.append(size <= 3)
                    for m in methods:
                        rng = random.Random(i * 7919 + k)
                        t = time.thread_time()
                        d = _det(m, obs)
                        got = 0.0
                        for _ in range(args.samples):
                            h = d.sample(rng).hands[1]
                            h = Counter(h) if args.metric == "card" else _colors(h, g)
                            got += sum((h & true).values()) / size
                        cpu[m] += time.thread_time() - t
                        scores[m].append(got / args.samples)
            g.apply(bots[s].act(obs))
            offer_catch(g, bots)
    base = scores[methods[0]]
    n = len(base)
    for m in methods:
        row: dict[str, Any] = {
            "method": m,
            "opponent": args.opponent,
            "ms_per_sample": round(1000 * cpu[m] / (n * args.samples), 3),
        }
        for part, keep in (("all", [True] * n), ("le3", small)):
            xs = [x for x, k in zip(scores[m], keep, strict=True) if k]
            d = [a - b for a, b, k in zip(scores[m], base, keep, strict=True) if k]
            if not d:
                continue
            md = sum(d) / len(d)
            sd = math.sqrt(sum((x - md) ** 2 for x in d) / max(1, len(d) - 1))
            row[part] = {
                "positions": len(d),
                "true_share": round(sum(xs) / len(xs), 4),
                "vs_first": round(md, 4),
                "ci95": round(1.96 * sd / math.sqrt(len(d)), 4),
            }
        print(json.dumps(row), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
