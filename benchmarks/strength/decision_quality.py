"""Decision quality: what a search bot's moves add to the heuristic's, valued in the true position.

Positions come from 2-player rounds between ``heuristic`` bots. At each
decision with at least two choices (every ``--every``-th), every bot entry
decides from the seat's observation only; then every distinct move (the
entries' and the heuristic's) is valued in the **true** position (the other
hand known, the draw pile reshuffled, ``--rollouts`` paired ``sensible``
rollouts each, the model of a ``heuristic`` opponent). An entry's gain at a
position is the value of its move minus the value of the heuristic's move;
all entries are valued on the same rollouts, so their differences are paired.
The true hand is read only to value the moves, never by the bots.

Usage:
    python benchmarks/strength/decision_quality.py [--variant classic] [--games 100] [--sims 1000]
        [--rollouts 200] [--bots hard,hard:mcmc=4] [--seed 11] [--shard K/N]

Prints one JSON line per entry: positions, mean gain per decision (win
chance, percentage points) with its 95% interval, the share of decisions
where it deviates from the heuristic, and the paired difference against the
first entry.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.determinize import Determinizer
from unokit.bots.tournament import offer_catch, parse_value
from unokit.engine.actions import CallUno, Catch
from unokit.engine.core import CoreGame
from unokit.engine.game import _RO
from unokit.engine.options import Options


def _make(entry: str, seed: int, sims: int) -> Any:
    name, *opts = entry.split(":")
    kw: dict[str, Any] = {"sims": sims}
    for o in opts:
        k, _, v = o.partition("=")
        kw[k] = parse_value(v)
    return make_bot(name, seed=seed, **kw)


def _true_values(g: Game, codes: list[int], rollouts: int, rng: random.Random) -> list[float]:
    """Each move's win chance for the seat to act in the true position (paired rollouts)."""
    me = g.current
    det = Determinizer(g.observe(me), infer=False)
    wins = [0.0] * len(codes)
    from unokit.bots.rollout import sensible_rollout

    for _ in range(rollouts):
        draw = list(g.draw)
        rng.shuffle(draw)
        g0 = det.with_deal([list(h) for h in g.hands], draw, rng.getrandbits(48))
        c0 = CoreGame.from_game(g0)
        for i, code in enumerate(codes):
            c = c0.copy()
            c.apply_move(code, uno=True)
            if c.phase < _RO:
                sensible_rollout(c)
            w = c.winner
            wins[i] += 1.0 if w == me else (0.5 if w < 0 else 0.0)
    return [w / rollouts for w in wins]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--bots", default="hard,hard:mcmc=4")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--shard", default="0/1")
    ap.add_argument("--out", help="append one JSON line per position here (for merging shards)")
    args = ap.parse_args()
    entries = args.bots.split(",")
    shard, shards = (int(x) for x in args.shard.split("/"))
    opts = Options.from_dict({"matchMode": "single_round"})
    gains: dict[str, list[float]] = {e: [] for e in entries}
    dev: dict[str, int] = dict.fromkeys(entries, 0)
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    k = 0
    for i in range(shard, args.games, shards):
        g = Game.new(args.variant, 2, opts, seed=args.seed * 100_003 + i, events=True)
        players = [make_bot("heuristic", seed=i * 2 + s) for s in range(2)]
        rng = random.Random(args.seed * 7_919 + i)
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            mine = [a for a in obs.legal if not isinstance(a, CallUno | Catch)]
            base = players[s].act(obs)
            if len(mine) >= 2 and not any(isinstance(a, Catch) for a in obs.legal):
                k += 1
                if k % args.every == 0:
                    moves = [_make(e, i * 1_000 + k, args.sims).act(obs) for e in entries]
                    codes = [g.encode(a) for a in moves]
                    ref = g.encode(base)
                    distinct = sorted(set(codes) | {ref})
                    vals = dict(zip(distinct, _true_values(g, distinct, args.rollouts, rng),
                                    strict=True))  # fmt: skip
                    row = {}
                    for e, c in zip(entries, codes, strict=True):
                        gains[e].append(vals[c] - vals[ref])
                        dev[e] += c != ref
                        row[e] = [vals[c] - vals[ref], c != ref]
                    if out:
                        out.write(json.dumps(row) + "\n")
                        out.flush()
            g.apply(base)
            offer_catch(g, players)
    first = gains[entries[0]]
    for e in entries:
        xs = gains[e]
        n = len(xs)
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
        d = [a - b for a, b in zip(xs, first, strict=True)]
        md = sum(d) / n
        sdd = math.sqrt(sum((x - md) ** 2 for x in d) / max(1, n - 1))
        print(
            json.dumps(
                {
                    "bot": e,
                    "positions": n,
                    "gain_pct": round(100 * m, 2),
                    "ci95": round(196 * sd / math.sqrt(n), 2),
                    "deviates": round(dev[e] / n, 3),
                    "vs_first_pct": round(100 * md, 2),
                    "vs_first_ci95": round(196 * sdd / math.sqrt(n), 2),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
