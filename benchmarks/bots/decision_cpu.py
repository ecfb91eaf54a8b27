"""CPU time per decision of a bot level, as played in games against ``heuristic``.

Plays single rounds of each variant with the measured bot in one seat (the
seat rotates with the game number) and ``heuristic`` in the others, and times
every call of the measured bot's ``act`` with :func:`time.process_time`
(process CPU time: another job on the machine slows a decision down, it does
not make it cost more). Reports, per variant and player count, the median,
mean and 90th percentile over **every** decision the bot made, and over the
decisions that searched (those with two candidates or more; one legal answer
and catches cost nothing), with the anchor: the ``heuristic`` bot's median
on the same observations, so that ratios can be compared across machines.

``--repeat N`` times every decision N times and keeps the least (the way
``timeit`` reports): a decision is a pure function of the bot's state and
the observation, so each repetition is the same work, made by a copy of the
bot taken just before it; the least of N filters out the moments another
process or the host took the core, which on a shared machine inflate even
CPU time. The bot that plays on is the one timed last.

Usage:
    python benchmarks/bots/decision_cpu.py [--bot hard] [--option key=value ...]
        [--variants classic,flip,flex] [--players 2,4] [--games 6] [--seed 5] [--repeat 1]
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import statistics
import time
from typing import Any

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.tournament import offer_catch
from unokit.engine.game import _RO
from unokit.engine.options import Options


def _q(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(
    bot_name: str,
    extra: dict[str, Any],
    variant: str,
    players: int,
    games: int,
    seed: int,
    repeat: int = 1,
) -> dict[str, Any]:
    opts = Options.from_dict({"matchMode": "single_round"})
    every: list[float] = []
    searched: list[float] = []
    anchor: list[float] = []
    for i in range(games):
        g = Game.new(variant, players, opts, seed=seed * 1000 + i, events=True)
        me = i % players
        bots = [make_bot("heuristic", seed=i * 16 + s) for s in range(players)]
        bot = make_bot(bot_name, seed=i, **extra)
        probe = make_bot("heuristic", seed=i)
        bots[me] = bot
        while g.phase < _RO:
            s = g.current
            obs = g.observe(s)
            if s == me:
                dt = math.inf
                for _ in range(repeat - 1):
                    twin = copy.deepcopy(bot)
                    t = time.process_time()
                    twin.act(obs)
                    dt = min(dt, time.process_time() - t)
                t = time.process_time()
                action = bot.act(obs)
                dt = min(dt, time.process_time() - t)
                every.append(dt)
                stats = getattr(bot, "stats", None)
                if stats is not None and getattr(stats, "rollouts", 0) > 0:
                    searched.append(dt)
                a_dt = math.inf
                for _ in range(repeat):
                    twin = copy.deepcopy(probe)
                    t = time.process_time()
                    twin.act(obs)
                    a_dt = min(a_dt, time.process_time() - t)
                anchor.append(a_dt)
            else:
                action = bots[s].act(obs)
            g.apply(action)
            offer_catch(g, bots)

    def ms(x: float) -> float:
        return round(1000 * x, 2)

    return {
        "variant": variant,
        "players": players,
        "games": games,
        "decisions": len(every),
        "searched": len(searched),
        "median_ms": ms(statistics.median(every)) if every else 0.0,
        "mean_ms": ms(statistics.fmean(every)) if every else 0.0,
        "searched_median_ms": ms(statistics.median(searched)) if searched else 0.0,
        "searched_mean_ms": ms(statistics.fmean(searched)) if searched else 0.0,
        "searched_p90_ms": ms(_q(searched, 0.9)),
        "searched_max_ms": ms(max(searched)) if searched else 0.0,
        "heuristic_median_ms": round(1000 * statistics.median(anchor), 3) if anchor else 0.0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="hard")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        help="the bot's options as key=value (repeatable), e.g. sims=1000",
    )
    ap.add_argument("--variants", default="classic,flip,flex")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument(
        "--repeat", type=int, default=1, help="time each decision N times, keep the least"
    )
    args = ap.parse_args()
    extra: dict[str, Any] = dict(kv.split("=", 1) for kv in args.option)
    for variant in args.variants.split(","):
        for players in (int(p) for p in args.players.split(",")):
            row = measure(args.bot, extra, variant, players, args.games, args.seed, args.repeat)
            print(
                json.dumps({"bot": args.bot, "options": extra, "repeat": args.repeat, **row}),
                flush=True,
            )


if __name__ == "__main__":
    main()
