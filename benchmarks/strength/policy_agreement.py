"""Does the rollout policy play like the real ``heuristic`` bot? The search's
model of its opponents is ``sensible_move``; this counts, at every decision
with two choices or more of 2-player rounds between ``heuristic`` bots, how
often ``sensible_move`` on the true game picks another move than the bot did,
by phase, with a few examples.

Usage:
    python benchmarks/strength/policy_agreement.py [--variant classic] [--games 150] [--seed 1000]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.rollout import sensible_move
from unokit.bots.tournament import offer_catch
from unokit.engine.actions import CallUno, Catch
from unokit.engine.game import _RO
from unokit.engine.options import Options


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    opts = Options.from_dict({"matchMode": "single_round"})
    total: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for i in range(args.games):
        g = Game.new(args.variant, 2, opts, seed=args.seed + i, events=True)
        bots = [make_bot("heuristic", seed=i * 2 + s) for s in range(2)]
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            a = bots[s].act(obs)
            mine = [x for x in obs.legal if not isinstance(x, CallUno | Catch)]
            if len(mine) >= 2 and not any(isinstance(x, Catch) for x in obs.legal):
                key = obs.phase + (" (penalty pending)" if obs.pending_draw else "")
                total[key] += 1
                m = sensible_move(g)
                if m != g.encode(a):
                    differ[key] += 1
                    ex = examples.setdefault(key, [])
                    if len(ex) < 3:
                        ex.append(
                            f"hand {' '.join(str(c) for c in obs.hand)}, colour "
                            f"{obs.color}, sizes {list(obs.hand_sizes)}: heuristic "
                            f"{a}, sensible {g.decode(s, m)}"
                        )
            g.apply(a)
            offer_catch(g, bots)
    for k in total:
        print(
            json.dumps(
                {
                    "phase": k,
                    "decisions": total[k],
                    "differ": differ[k],
                    "agree": round(1 - differ[k] / total[k], 4),
                    "examples": examples.get(k, []),
                }
            )
        )


if __name__ == "__main__":
    main()
