"""The bot interface and the registry of levels by name (:func:`make_bot`),
below every bot module: the levels import this, and the package's
``__init__`` registers them (so ``unokit.bots`` re-exports everything here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

from unokit.engine.actions import Action
from unokit.engine.errors import OptionError
from unokit.engine.observation import Observation

__all__ = ["Bot", "make_bot", "register_bot", "bot_names", "with_uno"]


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal``."""
        ...


A = TypeVar("A", bound=Action)


def with_uno(action: A, obs: Observation) -> A:
    """A play says UNO (``uno=true``) exactly when it leaves the player one
    card: the player holds two cards, one of which it plays. Other actions
    are returned as they are.

    >>> from unokit import Game
    >>> g = Game.new("classic", 2, seed=1)
    >>> obs = g.observe(g.current)
    >>> play = next(a for a in obs.legal if a.__class__.__name__ == "Play")
    >>> with_uno(play, obs).uno   # seven cards in hand: no UNO to say
    False
    """
    from dataclasses import replace

    from unokit.engine.actions import Play

    if not isinstance(action, Play):
        return action
    # a multi-play (multiPlay) sheds 1 + len(more) cards
    said: A = replace(action, uno=action.seat == obs.seat and len(obs.hand) == 2 + len(action.more))
    return said


BotFactory = Callable[..., Bot]
REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name, ...)`` build bots with ``factory(seed=..., **options)``."""
    REGISTRY[name] = factory


def bot_names() -> list[str]:
    return list(REGISTRY)


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """Build a bot by name (``random``, ``heuristic``, ...)."""
    key = name.strip().lower()
    if key not in REGISTRY:
        raise OptionError(f"unknown bot {name!r}: expected one of {', '.join(REGISTRY)}")
    return REGISTRY[key](seed=seed, **options)
