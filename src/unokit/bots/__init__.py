"""Bots: players that see only their :class:`~unokit.engine.observation.Observation`.

A bot is any object with a ``name`` and ``act(observation) -> Action``.
:func:`make_bot` builds one by name; :func:`register_bot` adds a kind.

>>> from unokit import Game
>>> from unokit.bots import make_bot
>>> g = Game.new("classic", 2, seed=1)
>>> bot = make_bot("heuristic", seed=3)
>>> action = bot.act(g.observe(g.current))
>>> g.is_legal(action)
True
"""

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
    said: A = replace(
        action, uno=action.seat == obs.seat and len(obs.hand) == 2 + len(action.more)
    )
    return said


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name, ...)`` build bots with ``factory(seed=..., **options)``."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    return list(_REGISTRY)


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """Build a bot by name (``random``, ``heuristic``, ...)."""
    key = name.strip().lower()
    if key not in _REGISTRY:
        raise OptionError(f"unknown bot {name!r}: expected one of {', '.join(_REGISTRY)}")
    return _REGISTRY[key](seed=seed, **options)


def _register_builtin() -> None:
    from unokit.agents.engine_protocol import EngineBot
    from unokit.bots.heuristic import HeuristicBot
    from unokit.bots.ismcts import ISMCTSBot, legacy_hard
    from unokit.bots.levels import EasyBot, NormalBot
    from unokit.bots.random import RandomBot
    from unokit.bots.rlcard_adapter import RLCardRuleBot

    register_bot("random", RandomBot)
    register_bot("heuristic", HeuristicBot)
    register_bot("easy", EasyBot)
    register_bot("normal", NormalBot)
    register_bot("hard", ISMCTSBot)
    register_bot("hard-legacy", legacy_hard)  # hard before issue 25, for comparisons
    try:
        from unokit.bots.expert import ExpertBot
    except ModuleNotFoundError as e:  # NumPy is an optional dependency
        missing = e.name

        def _expert(seed: int = 0, **_: Any) -> Bot:
            raise OptionError(
                f"the expert level needs {missing}: pip install 'unokit[rl]'"
            )

        register_bot("expert", _expert)
    else:
        register_bot("expert", ExpertBot)
    register_bot("rlcard-rule", RLCardRuleBot)  # needs the optional rlcard package
    register_bot("engine", EngineBot)  # an external program (docs/engine-protocol.md)


_register_builtin()
