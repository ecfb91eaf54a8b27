"""What a round is worth to each seat: the reward options of every UNO environment.

The AEC environments (:mod:`unokit.envs.uno_classic_v0` ...), the Gymnasium
wrapper (:mod:`unokit.envs.gym`) and the batched environments
(:mod:`unokit.envs.vector`) take the same three reward arguments and
compute rewards here, so the three agree by construction. None of them changes
a rule of the game: they only say what an outcome is worth.

``reward``
    ``"points"`` (default): the winner gets the round's points (the sum of the
    other hands' values, docs/rules.md §2.6) and every other seat minus the value of
    its own hand, so a won round's rewards sum to zero. ``"norm_points"``: the
    same divided by :data:`POINTS_SCALE` (100), so a typical round is worth
    about 1 (the raw values of 2-player Classic run from about -550 to +300).
    ``"win"``: +1 to the winner, -1/(N-1) to each other seat.

``stall_reward``
    What a round that ends **without a winner** is worth: a blocked round
    (nothing left to draw, docs/rules.md ``blockedRound=no_score``) or one cut at
    ``max_steps`` (truncated). ``"loss"`` (default): every seat gets what a
    loser gets (``points``: minus its own hand's value; ``win``: -1/(N-1)), so
    stalling a round never pays better than losing it. ``"zero"``: 0 for
    everyone (the rewards of unokit 0.1, which a learner can game by stalling).

``step_cost``
    A cost (>= 0, default 0) taken from the acting seat's reward at each of its
    decisions, in the reward's units: a per-step pressure to finish.

>>> spec = RewardSpec("points", stall_reward="loss")
>>> spec.outcome([[10, 25]], [0]).tolist()       # seat 0 won: it scores seat 1's hand
[[25.0, -25.0]]
>>> spec.outcome([[10, 25]], [-1]).tolist()      # nobody won: both lose their hand
[[-10.0, -25.0]]
>>> RewardSpec("win", stall_reward="zero").outcome([[10, 25, 5]], [-1]).tolist()
[[0.0, 0.0, 0.0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from unokit.engine.errors import OptionError

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = ["RewardSpec", "REWARDS", "STALL_REWARDS", "POINTS_SCALE"]

REWARDS = ("points", "norm_points", "win")
STALL_REWARDS = ("loss", "zero")
#: ``norm_points`` rewards are points divided by this.
POINTS_SCALE = 100.0


@dataclass(frozen=True)
class RewardSpec:
    """The reward options of an environment (see the module documentation).
    Bad values raise :class:`unokit.OptionError`."""

    reward: str = "points"
    stall_reward: str = "loss"
    step_cost: float = 0.0

    def __post_init__(self) -> None:
        for name, value, allowed in (
            ("reward", self.reward, REWARDS),
            ("stall_reward", self.stall_reward, STALL_REWARDS),
        ):
            if value not in allowed:
                raise OptionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        cost = self.step_cost
        if (
            isinstance(cost, bool)
            or not isinstance(cost, int | float)
            or not math.isfinite(cost)
            or cost < 0
        ):
            raise OptionError(f"step_cost must be a number >= 0, not {cost!r}")
        object.__setattr__(self, "step_cost", float(cost))

    def outcome(self, values: npt.ArrayLike, winner: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Rewards of ``k`` rounds that just ended, shape ``(k, N)`` by absolute
        seat: ``values[i, s]`` is seat ``s``'s hand value at the end of round
        ``i``, ``winner[i]`` its winner or -1 (blocked or truncated)."""
        vals = np.asarray(values, dtype=np.float64)
        win = np.asarray(winner, dtype=np.int64)
        k, n = vals.shape
        if self.reward == "win":
            out = np.full((k, n), -1.0 / (n - 1))
        else:
            out = -vals
        rows = np.flatnonzero(win >= 0)
        if rows.size:
            w = win[rows]
            if self.reward == "win":
                out[rows, w] = 1.0
            else:
                out[rows, w] = vals[rows].sum(axis=1) - vals[rows, w]
        if self.stall_reward == "zero":
            out[win < 0] = 0.0
        if self.reward == "norm_points":
            out /= POINTS_SCALE
        return out

    def round_end(self, game: Game) -> list[float]:
        """Rewards by seat of ``game``'s round, which has just ended or been cut
        (``game.winner`` -1 when nobody won)."""
        values = [[game.hand_value(s) for s in range(game.n)]]
        return [float(x) for x in self.outcome(values, [game.winner])[0]]
