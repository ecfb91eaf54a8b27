"""Bot levels for players: ``easy``, ``normal``, ``hard`` (see docs/bots.md).

* ``easy``: the heuristic's judgement, but one decision in three is a random
  legal one (a random card, a random colour), it never challenges and it
  forgets to call UNO half of the time (then it can be caught).
* ``normal``: the ``heuristic`` bot.
* ``hard``: information-set Monte Carlo search (flat, paired samples)
  (:class:`~unokit.bots.ismcts.ISMCTSBot`), budget ``sims`` or ``think_ms``.
* ``expert``: the same search, with a learned value network at the leaves
  instead of playing every sample out (:class:`~unokit.bots.expert.ExpertBot`;
  needs NumPy). Registered for tournaments and analysis, not offered to
  players: it has not been measured stronger than ``hard`` (docs/bots.md).

Every level sees only its observation.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=2)
>>> bot = EasyBot(seed=1)
>>> g.is_legal(bot.act(g.observe(g.current)))
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from unokit.bots.heuristic import HeuristicBot
from unokit.engine.actions import Accept, Action, CallUno, Catch, Challenge, Play
from unokit.engine.observation import Observation

__all__ = ["EasyBot", "NormalBot", "LEVELS", "bot_variants"]

#: the levels offered to players, weakest first
#: (``expert`` is not offered yet: it has not been measured stronger than ``hard``)
LEVELS = ("easy", "normal", "hard")


def bot_variants(name: str) -> tuple[str, ...] | None:
    """The variants bot ``name`` can play, or ``None`` if it plays them all
    (``rlcard-rule`` plays Classic only). Raises
    :class:`~unokit.engine.errors.OptionError` for an unknown bot.

    >>> bot_variants("hard") is None, bot_variants("rlcard-rule")
    (True, ('classic',))
    """
    from unokit.bots.base import REGISTRY
    from unokit.engine.errors import OptionError

    key = name.strip().lower()
    if key not in REGISTRY:
        raise OptionError(f"unknown bot {name!r}: expected one of {', '.join(REGISTRY)}")
    variants = getattr(REGISTRY[key], "variants", None)
    return None if variants is None else tuple(variants)


class EasyBot:
    """A forgiving opponent (see the module docstring)."""

    name = "easy"
    #: it lets every chance to catch go (see :func:`unokit.bots.sim.offer_catch`)
    catches = False

    def __init__(self, seed: int = 0, mistakes: float = 1 / 3, **_: Any) -> None:
        self._rng = random.Random(seed)
        self._mistakes = float(mistakes)
        self._heuristic = HeuristicBot(seed=seed)

    def act(self, obs: Observation) -> Action:
        rng = self._rng
        # it never catches nor challenges: those answers are not on its menu
        legal = tuple(a for a in obs.legal if not isinstance(a, CallUno | Catch | Challenge))
        if not legal:
            return obs.legal[0]
        if obs.phase == "AWAIT_CHALLENGE":
            return next(a for a in legal if isinstance(a, Accept))
        a: Action
        if rng.random() < self._mistakes:
            plays = [a for a in legal if isinstance(a, Play)]
            pool: list[Action] = list(plays) if plays and obs.phase == "AWAIT_TURN" else list(legal)
            a = pool[int(rng.random() * len(pool))]
        else:
            a = self._heuristic.act(replace(obs, legal=legal))
        if isinstance(a, Play):
            a = replace(a, uno=len(obs.hand) == 2 and rng.random() < 0.5)
        return a


class NormalBot(HeuristicBot):
    """The ``heuristic`` bot under its player-facing name."""

    name = "normal"
