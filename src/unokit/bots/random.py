"""The ``random`` bot: the policy of :func:`unokit.engine.playout.random_move`, on an observation."""

from __future__ import annotations

import random
from typing import Any

from unokit.bots.base import with_uno
from unokit.engine.actions import Action, Draw, Play
from unokit.engine.observation import Observation

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a uniformly random playable card of its hand (each copy counts),
    then a uniformly random colour / side / target for it; draws only when it
    cannot play; answers other decisions uniformly; always calls UNO.

    Its choices equal :func:`unokit.engine.playout.random_move` given the same stream
    of ``random()`` values (a test proves it)."""

    name = "random"
    #: catches are not part of its policy (see :func:`unokit.bots.sim.offer_catch`)
    catches = False

    def __init__(self, seed: int = 0, rnd: Any = None, **_: Any) -> None:
        self._rnd = rnd if rnd is not None else random.Random(seed).random

    def act(self, obs: Observation) -> Action:
        legal = [a for a in obs.legal if not _is_extra(a, obs)]
        rnd = self._rnd
        if obs.phase == "AWAIT_TURN" and not obs.pending_draw:
            by_card: dict[Any, list[Play]] = {}
            for a in legal:
                if isinstance(a, Play):
                    by_card.setdefault(a.card, []).append(a)
            if by_card:
                cards = [c for c in obs.hand if c in by_card]
                plays = by_card[cards[int(rnd() * len(cards))]]
                p = plays[0] if len(plays) == 1 else plays[int(rnd() * len(plays))]
                return with_uno(p, obs)
            return Draw(obs.current)
        a = legal[int(rnd() * len(legal))]
        return with_uno(a, obs)


def _is_extra(action: Action, obs: Observation) -> bool:
    """UNO calls and catches are not part of the random policy's choices."""
    from unokit.engine.actions import CallUno, Catch

    return isinstance(action, CallUno | Catch) or (
        isinstance(action, Play) and action.seat != obs.current
    )
