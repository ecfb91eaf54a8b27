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

from typing import Any

from unokit.bots.base import REGISTRY, Bot, BotFactory, bot_names, make_bot, register_bot, with_uno
from unokit.engine.errors import OptionError

__all__ = ["Bot", "make_bot", "register_bot", "bot_names", "with_uno", "REGISTRY", "BotFactory"]


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
            raise OptionError(f"the expert level needs {missing}: pip install 'unokit[rl]'")

        register_bot("expert", _expert)
    else:
        register_bot("expert", ExpertBot)
    register_bot("rlcard-rule", RLCardRuleBot)  # needs the optional rlcard package
    register_bot("engine", EngineBot)  # an external program (docs/engine-protocol.md)


_register_builtin()
