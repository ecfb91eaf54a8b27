"""Self-play data for the value network: rounds of the ``sensible`` policy.

Every seat plays :func:`~unokit.bots.rollout.sensible_move` (the policy of
``hard``'s and ``expert``'s look-ahead), with a share ``epsilon`` of uniformly
random legal moves so that the positions a search reaches after unusual
moves are seen too. A share ``record`` of the decisions is kept: the
:class:`~unokit.bots.net.StateFeatures` of the full state from every seat,
labelled with that seat's result of the round (1 won, 0 lost, 1/n a blocked
round). Needs NumPy only; round ``i`` is a pure function of ``(seed, i)``.

>>> d = generate("classic", 2, games=3, seed=1, record=0.5)
>>> d.x.shape[1] == d.features.size, d.x.shape[0] == d.y.shape[0] == d.game.shape[0]
(True, True)
>>> sorted(set(d.y.tolist())) in ([0.0, 1.0], [0.0, 0.5, 1.0])
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from unokit.bots.net import StateFeatures
from unokit.bots.rollout import sensible_move
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.game import Game

__all__ = ["SelfPlayData", "generate"]


@dataclass
class SelfPlayData:
    features: StateFeatures
    x: npt.NDArray[np.float16]  # one row per (position, seat)
    y: npt.NDArray[np.float32]  # that seat's result
    game: npt.NDArray[np.int32]  # the round each row comes from (to split by round)
    games: int
    seconds: float


def generate(
    variant: str,
    players: int,
    games: int,
    seed: int,
    record: float = 0.1,
    epsilon: float = 0.05,
    time_limit: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> SelfPlayData:
    """Play up to ``games`` rounds (fewer if ``time_limit`` seconds run out)."""
    if not 0.0 < record <= 1.0:
        raise ValueError(f"record must be in (0, 1], got {record}")
    if not 0.0 <= epsilon < 1.0:
        raise ValueError(f"epsilon must be in [0, 1), got {epsilon}")
    feats = StateFeatures(variant, players)
    rows: list[npt.NDArray[np.float32]] = []
    labels: list[float] = []
    owner: list[int] = []
    start = time.perf_counter()
    played = 0
    n = players
    for i in range(games):
        if time_limit is not None and time.perf_counter() - start > time_limit:
            break
        rng = random.Random(seed * 1_000_003 + i)
        g = Game.new(variant, n, {"matchMode": "single_round"}, seed=seed * 1_000_003 + i)
        kept: list[int] = []  # index of the first row of each recorded position
        while g.phase < _RO:
            if rng.random() < record:
                for s in range(n):
                    rows.append(feats.vector(g, s))
                kept.append(len(rows) - n)
            moves = g.turn_moves()
            if len(moves) > 1 and rng.random() < epsilon:
                g.apply_move(moves[int(rng.random() * len(moves))], uno=True)
            else:
                g.apply_move(sensible_move(g), uno=True)
        w = g.winner
        for _ in kept:
            for s in range(n):
                labels.append(1.0 if w == s else (1.0 / n if w < 0 else 0.0))
                owner.append(i)
        played += 1
        if progress is not None and played % 100 == 0:
            progress(played)
    x = np.stack(rows).astype(np.float16) if rows else np.zeros((0, feats.size), np.float16)
    return SelfPlayData(
        feats,
        x,
        np.array(labels, dtype=np.float32),
        np.array(owner, dtype=np.int32),
        played,
        time.perf_counter() - start,
    )
