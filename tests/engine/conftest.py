from __future__ import annotations

import random
from collections.abc import Iterator

from unokit import Game

VARIANTS = ("classic", "flip", "flex")
OPTION_SETS = [
    {},
    {"stacking": "same_symbol"},
    {"stacking": "escalate", "noBluff": True},
    {"jumpIn": True},
    {"sevenZero": True},
    {"drawUntilPlayable": True, "forcedPlay": True},
    {"misplayPenalty": "on"},
    {"scoringMode": "lowest", "lowestModeTie": "play_on"},
    {"flipPairing": "random_seeded", "flipDrawColorCap": 3},
    {"flexWildAllFlipResetCheck": "skip_after_wild_all_flip", "flexFlexSideWD4Restricted": True},
]


def random_game_states(seed: int, steps: int = 400, variant: str | None = None) -> Iterator[Game]:
    """Games reached by random legal play (any seat, extras included)."""
    r = random.Random(seed)
    var = variant or r.choice(VARIANTS)
    n = r.randint(2, 8 if var == "flex" else 10)
    opts = dict(r.choice(OPTION_SETS))
    opts["targetScore"] = 200
    g = Game.new(var, n, opts, seed=seed)
    for _ in range(steps):
        if g.is_over:
            return
        if g.state.name == "ROUND_OVER":
            g.next_round()
            continue
        seat = g.current if r.random() < 0.9 else r.randrange(n)
        actions = g.legal_actions(seat)
        if not actions:
            continue
        g.apply(r.choice(actions))
        yield g
