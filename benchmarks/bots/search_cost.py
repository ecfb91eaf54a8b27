"""CPU time per searched decision of ``hard`` at several budgets by count:
what ``--sims N`` costs, to find the count that equals 100 ms of CPU per move.

At the decisions of seat 0 in rounds between ``heuristic`` bots (2 players,
or ``--players N``),
one ``hard`` bot per count decides on the same observation, in alternating
order, timed with :func:`time.thread_time` (CPU time of this thread, so other
jobs on the machine slow it down less than wall time would). Only decisions
that searched are counted (one legal answer and catches take no time).

Usage:
    python benchmarks/bots/search_cost.py [--variant classic] [--games 10] [--sims 1000,4000]
        [--players 2]
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
    ap.add_argument("--sims", default="1000,4000", help="comma-separated counts")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        help="hard's options as key=value (repeatable), e.g. mcmc=4",
    )
    args = ap.parse_args()
    counts = [int(x) for x in args.sims.split(",")]
    extra = dict(kv.split("=", 1) for kv in args.option)
    opts = Options.from_dict({"matchMode": "single_round"})
    cpu = dict.fromkeys(counts, 0.0)
    rollouts = dict.fromkeys(counts, 0)
    n = 0
    for i in range(args.games):
        g = Game.new(args.variant, args.players, opts, seed=args.seed * 1000 + i, events=True)
        bots = [make_bot("heuristic", seed=i + s) for s in range(args.players)]
        hards = {k: make_bot("hard", seed=i, sims=k, **extra) for k in counts}
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if s == 0:
                order = counts if n % 2 == 0 else counts[::-1]
                searched = False
                for k in order:
                    bot = hards[k]
                    t = time.thread_time()
                    bot.act(obs)
                    cpu[k] += time.thread_time() - t
                    rollouts[k] += bot.stats.rollouts  # type: ignore[attr-defined]
                    searched = searched or bot.stats.rollouts > 0  # type: ignore[attr-defined]
                n += searched
            g.apply(bots[s].act(obs))
            offer_catch(g, bots)
    print(
        json.dumps(
            {
                "variant": args.variant,
                "players": args.players,
                "options": extra,
                "searched_decisions": n,
                "ms_per_decision": {k: round(1000 * cpu[k] / max(1, n), 1) for k in counts},
                "rollouts_per_100ms": {
                    k: round(0.1 * rollouts[k] / max(1e-9, cpu[k])) for k in counts
                },
            }
        )
    )


if __name__ == "__main__":
    main()
