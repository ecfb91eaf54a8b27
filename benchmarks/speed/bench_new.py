"""``Game.new`` for every valid configuration (docs/rules.md D59): how long the
slowest call takes, against the default configuration measured in the same run.

Usage: python benchmarks/speed/bench_new.py [--seeds N] [--limit-ms 50]

Every variant, every player count, every valid ``handSize`` (1 to the largest
the deck allows) and the options that change a deal or a first card
(``flexFirstCardIgnored``, ``flipFirstCardWild``, ``flipFirstCardFlip``,
``flipPairing``, ``dealerSelection``) are dealt with ``--seeds`` seeds each.
Prints the number of deals, the mean and the slowest call, the ratio of the
slowest to the default configuration's mean, and exits 1 if any call took
longer than ``--limit-ms`` (each configuration and seed is timed ``--repeats``
times and the fastest counts: the machines here are shared and preempt single
calls). Every deal is also checked to be whole (each hand
dealt ``handSize`` cards, the whole deck in play).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from typing import Any

from unokit import Game
from unokit.engine.events import Drew
from unokit.engine.game import max_hand_size
from unokit.engine.variants import get_variant

DEAL_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "classic": [{}, {"dealerSelection": "random"}],
    "flip": [
        {},
        {"flipFirstCardWild": "redraw", "flipFirstCardFlip": "redraw"},
        {"flipPairing": "random_seeded"},
    ],
    "flex": [{}, {"flexFirstCardIgnored": "return_to_deck"}],
}


def timed_new(variant: str, players: int, options: dict[str, Any], seed: int) -> float:
    t = time.perf_counter()
    g = Game.new(variant, players, options, seed=seed)
    dt = time.perf_counter() - t
    size = options["handSize"]
    extra = [0] * players
    for e in g.log or []:
        if isinstance(e, Drew):
            extra[e.seat] += e.count
    assert [len(h) - x for h, x in zip(g.hands, extra, strict=True)] == [size] * players, (
        variant,
        players,
        options,
        seed,
    )
    assert sum(g.all_cards().values()) == len(g.variant.deck_ids(g.options, seed))
    return dt


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--limit-ms", type=float, default=50.0)
    p.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="deal each configuration and seed this often; the fastest counts "
        "(a shared machine preempts single calls)",
    )
    a = p.parse_args()
    anchor = [
        min(timed_new("classic", 4, {"handSize": 7}, s) for _ in range(a.repeats))
        for s in range(200)
    ]
    times: list[float] = []
    worst = (0.0, "")
    for variant, opts in DEAL_OPTIONS.items():
        v = get_variant(variant)
        for players, extra in itertools.product(range(v.min_players, v.max_players + 1), opts):
            for hand in range(1, max_hand_size(variant, players, extra) + 1):
                options = dict(extra, handSize=hand)
                for seed in range(a.seeds):
                    dt = min(timed_new(variant, players, options, seed) for _ in range(a.repeats))
                    times.append(dt)
                    if dt > worst[0]:
                        worst = (dt, f"{variant} {players}p {options} seed={seed}")
    base = statistics.mean(anchor)
    over = sum(t * 1000 > a.limit_ms for t in times)
    print(
        f"{len(times)} deals of every valid configuration: mean {statistics.mean(times) * 1e3:.2f}"
        f" ms, slowest {worst[0] * 1e3:.2f} ms ({worst[1]}); anchor (classic 4p, 7 cards) mean "
        f"{base * 1e3:.2f} ms; slowest/anchor {worst[0] / base:.1f}x; over {a.limit_ms:g} ms: {over}"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
