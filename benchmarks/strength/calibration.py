"""Calibration of the analysis' winning chances (``unokit analyse``).

Plays rounds between ``heuristic`` bots; at random decisions, the seat to act
gets its winning chance estimated from its own observation
(:func:`unokit.bots.analysis.position_value`: the value network on games
sampled from what the seat has seen); each estimate is then compared with the
round's outcome. Reports, per decile of predicted chance, the positions, the
mean prediction and the observed win rate; calibrated means within 5 points.

Usage: python benchmarks/strength/calibration.py [--variant V] [--positions N]
       [--samples S] [--seed S] [--json]
       python benchmarks/strength/calibration.py --fit FILE.npz [--map platt|monotone]
       [--seed S1,S2,...] [--positions-file PREFIX] [--variant V] ...

The standard error printed per decile is the observed rate's,
``sqrt(p (1 - p) / n)``: a decile's gap within about two of them is noise.

``--fit`` fits the calibration of the network file instead, on the raw
logits of ``--positions`` positions of each seed (the same positions and
samples the measure would use): the Platt scaling ``[a, b]``, and with
``--map monotone`` also a monotone piecewise-linear map of the logit, which
:func:`unokit.bots.net.calibrate` prefers (both are stored in the metadata;
see :meth:`unokit.bots.net.ValueNet.predict`). ``--positions-file PREFIX``
keeps each seed's logits in ``PREFIX-<variant>-<seed>.npz`` for another fit.
Check a fit afterwards on positions of a seed it was not fitted on.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.analysis import position_value
from unokit.engine.game import _RO


def measure(variant: str, positions: int, samples: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    preds: list[tuple[float, float]] = []
    t0 = time.perf_counter()
    game_no = 0
    while len(preds) < positions:
        g = Game.new(
            variant, 2, {"matchMode": "single_round"}, seed=seed * 100_000 + game_no, events=True
        )
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
        se = (oy * (1 - oy) / len(sel)) ** 0.5  # the observed rate's standard error
        deciles.append(
            {
                "decile": d,
                "positions": len(sel),
                "predicted": round(mp, 4),
                "observed": round(oy, 4),
                "gap": round(oy - mp, 4),
                "se": round(se, 4),
            }
        )
    return {
        "variant": variant,
        "positions": len(preds),
        "rounds": game_no,
        "samples": samples,
        "seconds": round(time.perf_counter() - t0, 1),
        "deciles": deciles,
        "largest_gap_in_deciles_with_50_positions": round(worst, 4),
    }


def collect(
    path: str, variant: str, positions: int, samples: int, seed: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], int]:
    """The positions of :func:`measure` (same rounds, decisions and samples) as
    the *raw* logits of the network file ``path``, one row of ``samples`` per
    position, with the outcomes and the number of rounds: what a calibration
    map is fitted on."""
    from unokit.bots.determinize import Determinizer
    from unokit.bots.net import StateFeatures, ValueNet

    net = ValueNet.load(path)
    feats = StateFeatures(variant, 2, version=int(net.meta.get("features", 1)))
    rng = random.Random(seed)
    zs: list[npt.NDArray[np.float32]] = []
    ys: list[float] = []
    game_no = 0
    while len(ys) < positions:
        g = Game.new(
            variant, 2, {"matchMode": "single_round"}, seed=seed * 100_000 + game_no, events=True
        )
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
    return np.stack(zs), np.array(ys), game_no


def _sig(z: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))
    return out


def log_loss(p: npt.NDArray[Any], y: npt.NDArray[Any]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_platt(z: npt.NDArray[Any], y: npt.NDArray[Any]) -> list[float]:
    """Grid search of ``[a, b]`` maximising the likelihood of the outcomes given
    the mean of ``sigmoid(a z + b)`` over each position's samples."""
    best = (1.0, 0.0)
    best_ll = 1e18
    for a in np.arange(0.8, 3.01, 0.05):
        for b in np.arange(-0.5, 0.51, 0.05):
            ll = log_loss(_sig(a * z + b).mean(axis=1), y)
            if ll < best_ll:
                best_ll, best = ll, (float(a), float(b))
    return [round(best[0], 3), round(best[1], 3)]


def fit_monotone(
    z: npt.NDArray[Any], y: npt.NDArray[Any], knots: int = 9, steps: int = 3000
) -> list[list[float]]:
    """A monotone piecewise-linear map of the logit (``meta["calibration_map"]``,
    see :func:`unokit.bots.net.calibrate`) maximising the same likelihood.

    Knots at quantiles of the raw logits (1% to 99%); values parametrised as a
    start and positive slopes (``exp``), so the map is increasing whatever the
    optimiser does; Adam from the Platt fit, with a small penalty on changes of
    log-slope between segments (a smooth map, not one shaped by the noise)."""
    flat = z.reshape(-1).astype(np.float64)
    qs = np.linspace(0.01, 0.99, knots)
    xk = np.unique(np.round(np.quantile(flat, qs), 3))
    k = len(xk)
    dx = np.diff(xk)
    # the hat basis, with the end segments extended: F = W v
    idx = np.clip(np.searchsorted(xk, flat) - 1, 0, k - 2)
    t = (flat - xk[idx]) / dx[idx]
    w = np.zeros((len(flat), k))
    rows = np.arange(len(flat))
    w[rows, idx] = 1.0 - t
    w[rows, idx + 1] = t
    a, b = fit_platt(z, y)
    params = np.concatenate(([a * xk[0] + b], np.full(k - 1, np.log(a))))
    n, s = z.shape
    lam = 1e-3
    m = np.zeros_like(params)
    v2 = np.zeros_like(params)
    lr, b1, b2 = 0.02, 0.9, 0.999

    def values(par: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.concatenate(([par[0]], par[0] + np.cumsum(np.exp(par[1:]) * dx)))

    for step in range(1, steps + 1):
        v = values(params)
        q = _sig(w @ v).reshape(n, s)
        p = np.clip(q.mean(axis=1), 1e-6, 1 - 1e-6)
        dp = (p - y) / (p * (1 - p) * n)
        df = (dp[:, None] * q * (1 - q) / s).reshape(-1)
        dv = w.T @ df
        grad = np.empty_like(params)
        grad[0] = dv.sum()
        tail = np.cumsum(dv[::-1])[::-1][1:]  # sum of dv over knots j..k-1, j >= 1
        grad[1:] = np.exp(params[1:]) * dx * tail
        du = np.diff(params[1:])
        grad[1:-1] -= 2 * lam * du
        grad[2:] += 2 * lam * du
        m = b1 * m + (1 - b1) * grad
        v2 = b2 * v2 + (1 - b2) * grad**2
        params -= lr * (m / (1 - b1**step)) / (np.sqrt(v2 / (1 - b2**step)) + 1e-8)
    v = values(params)
    return [[round(float(x), 3) for x in xk], [round(float(x), 4) for x in v]]


def fit(
    path: str, variant: str, z: npt.NDArray[Any], y: npt.NDArray[Any], kind: str
) -> dict[str, Any]:
    """Fit the calibration of the network file ``path`` on raw logits ``z``
    and outcomes ``y`` and write it into its metadata: always the Platt
    ``[a, b]`` (what older programs read), and with ``kind == "monotone"``
    the monotone map too (which :func:`unokit.bots.net.calibrate` prefers)."""
    from unokit.bots import net as netmod
    from unokit.bots.net import ValueNet

    net = ValueNet.load(path)
    net.meta.pop("calibration_map", None)
    ab = fit_platt(z, y)
    net.meta["calibration"] = ab
    out: dict[str, Any] = {"calibration": ab, "positions": len(y)}
    if kind == "monotone":
        cmap = fit_monotone(z, y)
        net.meta["calibration_map"] = cmap
        out["calibration_map"] = cmap
    net.save(path)
    netmod.load_value_net.cache_clear()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--seed", default="1", help="a seed; with --fit, seeds separated by commas")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--fit", help="a network file (.npz) whose calibration to fit")
    ap.add_argument(
        "--map",
        choices=("platt", "monotone"),
        default="platt",
        help="with --fit: [a, b] only, or also the monotone map",
    )
    ap.add_argument(
        "--positions-file",
        help="with --fit: the raw logits and outcomes of "
        "each seed are kept in FILE-<variant>-<seed>.npz and read again if there",
    )
    args = ap.parse_args()
    seeds = [int(x) for x in str(args.seed).split(",")]
    if args.fit:
        import os

        zs, ys = [], []
        for seed in seeds:
            # (a cache holds one network's logits: a new network needs new files)
            cache = (
                f"{args.positions_file}-{args.variant}-{seed}.npz" if args.positions_file else ""
            )
            if cache and os.path.exists(cache):
                with np.load(cache) as d:
                    z, y = d["z"], d["y"]
            else:
                t0 = time.perf_counter()
                z, y, rounds = collect(args.fit, args.variant, args.positions, args.samples, seed)
                print(
                    f"seed {seed}: {len(y)} positions from {rounds} rounds, "
                    f"{time.perf_counter() - t0:.0f} s"
                )
                if cache:
                    np.savez_compressed(cache, z=z, y=y)
            zs.append(z[: args.positions])
            ys.append(y[: args.positions])
        r = fit(args.fit, args.variant, np.concatenate(zs), np.concatenate(ys), args.map)
        print(f"fitted on {r['positions']} positions (seeds {args.seed}), written to {args.fit}:")
        print(f"  calibration [a, b] = {r['calibration']}")
        if "calibration_map" in r:
            print(f"  calibration_map = {r['calibration_map']}")
        return
    r = measure(args.variant, args.positions, args.samples, seeds[0])
    if args.json:
        print(json.dumps(r, indent=1))
        return
    print(
        f"{r['variant']}: {r['positions']} positions from {r['rounds']} rounds, "
        f"{r['samples']} samples each, {r['seconds']} s"
    )
    print("decile  positions  predicted  observed    gap  std.err")
    for d in r["deciles"]:  # type: ignore[attr-defined]
        print(
            f"{d['decile']:6d} {d['positions']:10d} {d['predicted']:10.1%} "
            f"{d['observed']:9.1%} {d['gap']:+7.1%} {d['se']:8.1%}"
        )
    print(
        f"largest gap (deciles with 50+ positions): "
        f"{r['largest_gap_in_deciles_with_50_positions']:.1%}"
    )


if __name__ == "__main__":
    main()
