"""Calibration of the analysis' winning chances (``unokit analyse``).

Plays rounds between ``heuristic`` bots; at random decisions, the seat to act
gets its winning chance estimated from its own observation
(:func:`unokit.bots.analysis.position_value`: the value network on games
sampled from what the seat has seen); each estimate is then compared with the
round's outcome. Reports, per decile of predicted chance, the positions, the
mean prediction and the observed win rate; calibrated means within 5 points.

Usage: python benchmarks/calibration.py [--variant V] [--positions N]
       [--samples S] [--seed S] [--json]
       python benchmarks/calibration.py --fit FILE.npz [--variant V] ...

``--fit`` fits the Platt scaling ``[a, b]`` of the network file (stored in its
metadata, see :meth:`unokit.bots.net.ValueNet.predict`) on these positions
instead: check it afterwards on positions of another ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.analysis import position_value
from unokit.game import _RO


def measure(variant: str, positions: int, samples: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    preds: list[tuple[float, float]] = []
    t0 = time.perf_counter()
    game_no = 0
    while len(preds) < positions:
        g = Game.new(variant, 2, {"matchMode": "single_round"}, seed=seed * 100_000 + game_no,
                     events=True)
        game_no += 1
        bots = [make_bot("heuristic", seed=game_no * 2 + s) for s in range(2)]
        stops = {rng.randrange(60) for _ in range(2)}
        pending: list[tuple[float, int]] = []
        k = 0
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if k in stops and len(obs.legal) > 1:
                pending.append((position_value(obs, samples, seed=k), s))
            g.apply(bots[s].act(obs))
            k += 1
        for p, s in pending:
            preds.append((p, 1.0 if g.winner == s else (0.5 if g.winner < 0 else 0.0)))
    deciles = []
    worst = 0.0
    for d in range(10):
        sel = [(p, y) for p, y in preds if d / 10 <= p < (d + 1) / 10 or (d == 9 and p == 1.0)]
        if not sel:
            continue
        mp = sum(p for p, _ in sel) / len(sel)
        oy = sum(y for _, y in sel) / len(sel)
        if len(sel) >= 50:
            worst = max(worst, abs(mp - oy))
        deciles.append({"decile": d, "positions": len(sel), "predicted": round(mp, 4),
                        "observed": round(oy, 4), "gap": round(oy - mp, 4)})
    return {"variant": variant, "positions": len(preds), "rounds": game_no,
            "samples": samples, "seconds": round(time.perf_counter() - t0, 1),
            "deciles": deciles, "largest_gap_in_deciles_with_50_positions": round(worst, 4)}


def fit(path: str, variant: str, positions: int, samples: int, seed: int) -> list[float]:
    """Grid search of ``[a, b]`` maximising the likelihood of the outcomes given
    the mean of ``sigmoid(a z + b)`` over each position's samples."""
    import numpy as np

    from unokit.bots import net as netmod
    from unokit.bots.determinize import Determinizer
    from unokit.bots.net import StateFeatures, ValueNet

    net = ValueNet.load(path)
    net.meta.pop("calibration", None)
    feats = StateFeatures(variant, 2, version=int(net.meta.get("features", 1)))
    rng = random.Random(seed)
    zs: list[np.ndarray] = []
    ys: list[float] = []
    game_no = 0
    while len(ys) < positions:
        g = Game.new(variant, 2, {"matchMode": "single_round"}, seed=seed * 100_000 + game_no,
                     events=True)
        game_no += 1
        bots = [make_bot("heuristic", seed=game_no * 2 + s) for s in range(2)]
        stops = {rng.randrange(60) for _ in range(2)}
        pending = []
        k = 0
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if k in stops and len(obs.legal) > 1:
                det = Determinizer(obs)
                r = random.Random(k)
                rows = np.stack([feats.vector(det.sample(r), s) for _ in range(samples)])
                pending.append((net.logits(rows), s))
            g.apply(bots[s].act(obs))
            k += 1
        for z, s in pending:
            zs.append(z)
            ys.append(1.0 if g.winner == s else (0.5 if g.winner < 0 else 0.0))
    y = np.array(ys)
    best = (1.0, 0.0)
    best_ll = -1e18
    for a in np.arange(0.8, 3.01, 0.05):
        for b in np.arange(-0.5, 0.51, 0.05):
            p = np.array([np.mean(1 / (1 + np.exp(-(a * z + b)))) for z in zs])
            p = np.clip(p, 1e-6, 1 - 1e-6)
            ll = float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))
            if ll > best_ll:
                best_ll, best = ll, (float(a), float(b))
    net.meta["calibration"] = [round(best[0], 3), round(best[1], 3)]
    net.save(path)
    netmod.load_value_net.cache_clear()
    return [round(best[0], 3), round(best[1], 3)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--fit", help="a network file (.npz) whose Platt scaling to fit")
    args = ap.parse_args()
    if args.fit:
        ab = fit(args.fit, args.variant, args.positions, args.samples, args.seed)
        print(f"calibration [a, b] = {ab} written to {args.fit}")
        return
    r = measure(args.variant, args.positions, args.samples, args.seed)
    if args.json:
        print(json.dumps(r, indent=1))
        return
    print(f"{r['variant']}: {r['positions']} positions from {r['rounds']} rounds, "
          f"{r['samples']} samples each, {r['seconds']} s")
    print("decile  positions  predicted  observed    gap")
    for d in r["deciles"]:  # type: ignore[attr-defined]
        print(f"{d['decile']:6d} {d['positions']:10d} {d['predicted']:10.1%} "
              f"{d['observed']:9.1%} {d['gap']:+7.1%}")
    print(f"largest gap (deciles with 50+ positions): "
          f"{r['largest_gap_in_deciles_with_50_positions']:.1%}")


if __name__ == "__main__":
    main()
