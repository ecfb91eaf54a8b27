"""What knowing the hidden hands is worth to ``hard``: an upper bound on what
better inference (determinization) can add.

``oracle`` is ``hard``'s search (same candidates, same sequential halving,
same ``sensible`` rollouts, same budget by count) whose samples are the real
game with the other hands known exactly (only the draw pile's order and later
reshuffles are sampled). It peeks, so it is no bot level: it exists only here.
Each entry plays single rounds against ``heuristic`` on duplicate deals
(``--players N``, default 2; game ``i``: deal ``seed + i // N``, the entry
in seat ``i % N``, every other seat the opponent; with 2 players the games
are those of earlier runs).

Usage:
    python benchmarks/strength/information_value.py [--variant classic] [--games 400]
        [--sims 1000] [--seed 7] [--workers 2] [--bots oracle,hard,hard:particles=128]
        [--opponent heuristic] [--players 2]

``--opponent`` names the bot every entry plays against (default ``heuristic``;
``hard`` with ``--bots oracle`` asks how much a search that sees the other
hand wins against the same search from the observation: a ceiling for any
bot that does not peek).

Prints one JSON line per entry: win rate with its 95% Wilson interval, CPU
seconds of the measured bot, games per second.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from multiprocessing import Pool
from typing import Any

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.determinize import Determinizer
from unokit.bots.ismcts import ISMCTSBot, _Clock
from unokit.bots.tournament import offer_catch, parse_value, wilson
from unokit.engine.actions import Action
from unokit.engine.core import CoreGame
from unokit.engine.game import _RO
from unokit.engine.observation import Observation
from unokit.engine.options import Options


class _RealDeals:
    """Samples of the real game: the hands as they are, the draw pile shuffled."""

    def __init__(self, det: Determinizer, game: Game) -> None:
        self.det, self.game = det, game

    def sample(self, rng: random.Random) -> Game:
        g = self.game
        draw = list(g.draw)
        rng.shuffle(draw)
        return self.det.with_deal([list(h) for h in g.hands], draw, rng.getrandbits(48))

    def sample_core(self, rng: random.Random) -> CoreGame:
        """The same sample on the core, as ``hard``'s search asks for it."""
        return CoreGame.from_game(self.sample(rng))


class OracleBot(ISMCTSBot):
    """``hard`` with the other hands known (it reads ``game``: a benchmark only)."""

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(**options)
        self.game = game

    def _search(self, obs: Observation, choices: list[Action], default: Action) -> Action:
        det = Determinizer(obs, infer=False)
        self._clock = _Clock(time.thread_time(), time.perf_counter(), self.think_ms,
                             self.max_wall_ms)  # fmt: skip
        codes = [det.sample(self._rng).encode(a) for a in choices]
        assert obs.seat is not None
        best = self._flat(_RealDeals(det, self.game), codes, choices.index(default), obs.seat)  # type: ignore[arg-type]
        return choices[best]


def _make(entry: str, seed: int, sims: int, game: Game) -> Any:
    name, *opts = entry.split(":")
    kw: dict[str, Any] = {"sims": sims}
    for o in opts:
        k, _, v = o.partition("=")
        kw[k] = parse_value(v)
    if name == "oracle":
        return OracleBot(game, seed=seed, **kw)
    return make_bot(name, seed=seed, **kw)


def _game(args: tuple[str, str, int, int, int, str, int]) -> tuple[float, float]:
    variant, entry, sims, seed, i, opponent, players = args
    g = Game.new(variant, players, Options.from_dict({"matchMode": "single_round"}),
                 seed=seed + i // players, events=True)  # fmt: skip
    me = i % players
    bots = [_make(entry, seed * 1_000_003 + i, sims, g) if s == me
            else _make(opponent, seed * 1_000_003 + i + 7 + (13 * s if players > 2 else 0), sims, g)
            for s in range(players)]  # fmt: skip
    cpu = 0.0
    while g.phase < _RO:
        s = g.current
        t = time.thread_time()
        a = bots[s].act(g.observe(s))
        if s == me:
            cpu += time.thread_time() - t
        g.apply(a)
        offer_catch(g, bots)
    w = g.winner
    return (1.0 if w == me else (0.5 if w < 0 else 0.0)), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--players",
        type=int,
        default=2,
        help="seats; the entry holds each seat once per deal, every other seat "
        "is --opponent (25%% is parity with 4)",
    )
    ap.add_argument("--bots", default="oracle,hard")
    ap.add_argument(
        "--opponent",
        default="heuristic",
        help="the bot each entry plays against (e.g. hard; same --sims)",
    )
    args = ap.parse_args()
    for entry in args.bots.split(","):
        t0 = time.perf_counter()
        jobs = [
            (args.variant, entry, args.sims, args.seed, i, args.opponent, args.players)
            for i in range(args.games)
        ]
        with Pool(args.workers) as pool:
            res = pool.map(_game, jobs, chunksize=2)
        wall = time.perf_counter() - t0
        wins = sum(r[0] for r in res)
        lo, hi = wilson(wins, len(res))
        print(
            json.dumps(
                {
                    "variant": args.variant,
                    "bot": entry,
                    "vs": args.opponent,
                    "players": args.players,
                    "games": len(res),
                    "sims": args.sims,
                    "seed": args.seed,
                    "win_rate": round(wins / len(res), 4),
                    "ci95": [round(lo, 4), round(hi, 4)],
                    "cpu_s": round(sum(r[1] for r in res), 1),
                    "games_per_s": round(len(res) / wall, 3),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
