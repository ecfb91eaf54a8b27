"""CPU per decision of every bot level as the table runs it (issue 25).

Each level decides on the same positions (heuristic self-play, Classic, the
given number of players), exactly as a bot worker does
(:func:`unokit.web.botpool.decide`: the level's budget by count). CPU time of
this process (``time.process_time``), so a shared machine changes the wall
time but hardly the figures. Decisions with one sensible answer are made at
once by the search levels; both the median over all decisions and over the
searched ones (more than one candidate) are printed.

    python benchmarks/bots/level_cost.py --players 4 --positions 40
"""

from __future__ import annotations

import argparse
import statistics

from unokit.bots import make_bot
from unokit.engine.game import Game
from unokit.web.botpool import decide
from unokit.web.routes.meta import room_levels


def positions(players: int, count: int, seed: int) -> list[tuple[Game, int]]:
    out: list[tuple[Game, int]] = []
    s = seed
    while len(out) < count:
        g = Game.new("classic", players, seed=s)
        bots = [make_bot("heuristic", seed=i) for i in range(players)]
        while g.state.name not in ("ROUND_OVER", "MATCH_OVER") and len(out) < count:
            seat = g.to_act
            assert seat is not None
            out.append((g.copy(), seat))
            g.apply(bots[seat].act(g.observe(seat)))
        s += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", default="", help="comma-separated (default: every room level)")
    args = ap.parse_args()
    levels = [x for x in args.levels.split(",") if x] or room_levels()
    pos = positions(args.players, args.positions, args.seed)
    print(f"Classic, {args.players} players, {len(pos)} positions (CPU ms per decision)")
    print(f"{'level':12} {'median':>8} {'mean':>8} {'max':>8} {'searched':>9} {'median':>8}")
    for level in levels:
        cpu: list[float] = []
        searched: list[float] = []
        for i, (g, seat) in enumerate(pos):
            obs = g.observe(seat)
            _, seconds = decide(level, i, obs)
            cpu.append(seconds * 1e3)
            choices = [a for a in obs.legal if type(a).__name__ not in ("CallUno", "Catch")]
            if len(choices) > 1:
                searched.append(seconds * 1e3)
        med_s = statistics.median(searched) if searched else float("nan")
        print(
            f"{level:12} {statistics.median(cpu):8.2f} {statistics.fmean(cpu):8.2f} "
            f"{max(cpu):8.2f} {len(searched):9d} {med_s:8.2f}"
        )


if __name__ == "__main__":
    main()
