"""Win rates of a learned policy against unokit's bots, with a confidence interval.

The RL recipes of ``examples/`` evaluate every trained policy the same way: it
plays seat 0 of :class:`unokit.envs.gym.UnoGymEnv` against a bot on seeds
``seed, seed+1, ...`` (the same deals for every policy) and wins a game when it
wins the round. ``policy(observation, action_mask) -> action index`` sees only
what the environment gives a learner.

>>> import numpy as np
>>> first_legal = lambda obs, mask: int(np.flatnonzero(mask)[0])
>>> r = evaluate(first_legal, "classic", "random", games=20, seed=0)
>>> r.games, 0 <= r.low <= r.rate <= r.high <= 1
(20, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.bots import make_bot
from unokit.engine.actions import CallUno, Play
from unokit.engine.errors import OptionError

from .gym import UnoGymEnv

__all__ = ["WinRate", "evaluate", "evaluate_bot", "evaluate_many", "wilson_interval"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for ``z=1.96``)."""
    if games <= 0:
        raise OptionError("a win rate needs at least one game")
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class WinRate:
    """Games won by the policy, out of ``games``, with the 95% Wilson interval;
    ``finished`` counts the rounds that ended with a winner (not blocked or cut)."""

    opponent: str
    games: int
    wins: int
    finished: int
    decisions: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def low(self) -> float:
        return wilson_interval(self.wins, self.games)[0]

    @property
    def high(self) -> float:
        return wilson_interval(self.wins, self.games)[1]

    def __str__(self) -> str:
        return (
            f"vs {self.opponent}: {self.rate:.1%} of {self.games} games "
            f"(95% CI {self.low:.1%}-{self.high:.1%}); rounds with a winner "
            f"{self.finished / self.games:.1%}; {self.decisions / self.games:.0f} decisions a game"
        )

    def as_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "games": self.games, "wins": self.wins,
                "rate": self.rate, "low": self.low, "high": self.high,
                "finished": self.finished, "decisions": self.decisions}  # fmt: skip


def evaluate(
    policy: Policy,
    variant: str,
    opponent: str,
    *,
    games: int = 500,
    players: int = 2,
    seed: int = 0,
    max_steps: int | None = 500,
    **options: Any,
) -> WinRate:
    """Play ``games`` rounds of ``policy`` (seat 0) against ``opponent`` bots."""
    env = UnoGymEnv(variant, players, opponent=opponent, max_steps=max_steps, **options)

    def choose(obs: dict[str, Any]) -> int:
        return policy(obs["observation"], obs["action_mask"])

    return _play(env, opponent, choose, games, seed)


def evaluate_bot(
    bot: str,
    variant: str,
    opponent: str,
    *,
    games: int = 500,
    players: int = 2,
    seed: int = 0,
    max_steps: int | None = 500,
    **options: Any,
) -> WinRate:
    """:func:`evaluate` for one of unokit's bots (a level name, seeded with the
    game's number) in seat 0: the same deals and opponents a learned policy
    meets, played through the environment's own actions, as a yardstick. The
    bot reads its own observation (the round's history included, which the
    vector leaves out); an UNO call with a play is sent as the UNO action
    first, then the play.

    >>> r = evaluate_bot("heuristic", "classic", "random", games=4, seed=0)
    >>> r.games, r.finished
    (4, 4)
    """
    env = UnoGymEnv(variant, players, opponent=opponent, max_steps=max_steps, **options)
    uno = env.table.index_of("UNO")
    player: list[Any] = []
    pending: list[int] = []

    def start(g: int) -> None:
        player[:] = [make_bot(bot, seed=g)]
        pending.clear()

    def choose(obs: dict[str, Any]) -> int:
        if pending:
            return pending.pop()
        game = env.game
        action = player[0].act(game.observe(0))
        if isinstance(action, CallUno):
            return uno
        if isinstance(action, Play) and action.uno:
            action = replace(action, uno=False)
            if obs["action_mask"][uno]:
                pending.append(env.table.index(0, game.encode(action)))
                return uno
        return env.table.index(0, game.encode(action))

    return _play(env, opponent, choose, games, seed, start)


def _play(
    env: UnoGymEnv,
    opponent: str,
    choose: Callable[[dict[str, Any]], int],
    games: int,
    seed: int,
    start: Callable[[int], None] | None = None,
) -> WinRate:
    """``games`` rounds of ``env`` on seeds ``seed``.., seat 0 moving by ``choose``."""
    if not isinstance(games, int) or games < 1:
        raise OptionError(f"games must be a positive integer, not {games!r}")
    wins = finished = decisions = 0
    for g in range(games):
        if start is not None:
            start(g)
        obs, _ = env.reset(seed=seed + g)
        done = False
        info: dict[str, Any] = {}
        while not done:
            obs, _, terminated, truncated, info = env.step(choose(obs))
            decisions += 1
            done = terminated or truncated
        winner = info.get("winner")
        finished += winner is not None
        wins += winner == 0
    return WinRate(opponent, games, wins, finished, decisions)


def evaluate_many(
    policy: Policy,
    variant: str,
    opponents: tuple[str, ...] = ("random", "heuristic"),
    *,
    games: int = 500,
    seed: int = 0,
    echo: Callable[[str], object] | None = None,
    **options: Any,
) -> dict[str, dict[str, Any]]:
    """:func:`evaluate` against each of ``opponents`` on the same seeds: the
    recipes' evaluation point, ``{opponent: WinRate.as_dict()}``; each result is
    passed to ``echo`` as a line of text as soon as it is known.

    >>> import numpy as np
    >>> first_legal = lambda obs, mask: int(np.flatnonzero(mask)[0])
    >>> rates = evaluate_many(first_legal, "classic", games=4, echo=None)
    >>> sorted(rates), rates["random"]["games"]
    (['heuristic', 'random'], 4)
    """
    rates: dict[str, dict[str, Any]] = {}
    for opponent in opponents:
        r = evaluate(policy, variant, opponent, games=games, seed=seed, **options)
        rates[opponent] = r.as_dict()
        if echo is not None:
            echo(f"  {r}")
    return rates
