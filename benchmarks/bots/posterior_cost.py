"""What the Markov chain posterior costs: CPU time per searched decision of
``hard`` with ``mcmc=N`` against plain ``hard`` (the anchor), same budget by
count, same observations, measured alternately in one process.

Usage:
    python benchmarks/bots/posterior_cost.py [--variant classic] [--games 10] [--sims 1000] [--mcmc 4]
"""

from __future__ import annotations

import argparse
import json
import time

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.tournament import offer_catch
from unokit.engine.game import _RO
from unokit.engine.options import Options


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--mcmc", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    opts = Options.from_dict({"matchMode": "single_round"})
    cpu = {"plain": 0.0, "mcmc": 0.0}
    n = 0
    for i in range(args.games):
        g = Game.new(args.variant, 2, opts, seed=args.seed * 1000 + i, events=True)
        bots = [make_bot("heuristic", seed=i), make_bot("heuristic", seed=i + 1)]
        plain = make_bot("hard", seed=i, sims=args.sims, mcmc=0)
        chain = make_bot("hard", seed=i, sims=args.sims, mcmc=args.mcmc)
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if s == 0:
                order = [("plain", plain), ("mcmc", chain)]
                if n % 2:
                    order.reverse()
                searched = False
                for name, bot in order:
                    t = time.thread_time()
                    bot.act(obs)
                    cpu[name] += time.thread_time() - t
                    searched = searched or bot.stats.rollouts > 0
                n += searched
            g.apply(bots[s].act(obs))
            offer_catch(g, bots)
    print(
        json.dumps(
            {
                "variant": args.variant,
                "sims": args.sims,
                "mcmc": args.mcmc,
                "searched_decisions": n,
                "plain_ms": round(1000 * cpu["plain"] / max(1, n), 1),
                "mcmc_ms": round(1000 * cpu["mcmc"] / max(1, n), 1),
                "ratio": round(cpu["mcmc"] / max(1e-9, cpu["plain"]), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
