"""The budget each level thinks with where it plays for people: a count, never a clock.

A search level given a clock (``think_ms``) plays weaker on a loaded machine
when the clock is wall time, and differently on every machine either way. At
a table, in the MCP server and in ``unokit tournament`` without a budget of
its own, each level therefore gets :data:`LEVEL_BUDGETS`: a number of
rollouts per decision. A decision is then a pure function of the level, the
seed and the observation: the table's ``hard`` plays exactly the moves
``unokit tournament --bots hard`` plays for the same seed and position,
whatever the load and whichever worker process thinks.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=3)
>>> obs = g.observe(g.current)
>>> level_bot("hard", 7, sims=200).act(obs) == level_bot("hard", 7, sims=200).act(obs)
True
>>> level_options("heuristic")
{}
"""

from __future__ import annotations

import os
from typing import Any

from unokit.bots import Bot, make_bot

__all__ = [
    "HARD_SIMS",
    "EXPERT_SIMS",
    "LEVEL_BUDGETS",
    "MAX_SIMS",
    "MAX_THINK_MS",
    "level_options",
    "level_bot",
    "decision_seed",
]


def _env_count(name: str, default: int) -> int:
    text = os.environ.get(name)
    if not text:
        return default
    value = int(text)
    if value < 1:
        raise ValueError(f"{name} must be a positive count, got {text!r}")
    return value


#: ``hard``'s own default is already a count (a race of at most
#: :data:`~unokit.bots.ismcts.DEFAULT_SIMS` rollouts, docs/bots.md), so a table
#: gives it no options. ``UNOKIT_HARD_SIMS=N`` makes every ``hard`` of a
#: deployment search N rollouts instead (every process of it must agree: the
#: server, its bot workers and any tournament compared with it); None: unset.
HARD_SIMS: int | None = _env_count("UNOKIT_HARD_SIMS", 0) or None

#: rollouts per decision of ``expert``, whose own default is a clock (700 ms of
#: CPU): about what that clock bought here (its rollouts cost about eight
#: times ``hard``'s, docs/bots.md)
EXPERT_SIMS = 3_000

#: the options that make each search level's budget a count
LEVEL_BUDGETS: dict[str, dict[str, Any]] = {
    "hard": {} if HARD_SIMS is None else {"sims": HARD_SIMS},
    "expert": {"sims": EXPERT_SIMS},
}

#: the largest budget a caller may ask of a search level (MCP ``sims``), and
#: the largest clock (MCP ``think_ms``, CPU time of the thinking process)
MAX_SIMS = 100_000
MAX_THINK_MS = 5_000


def level_options(level: str) -> dict[str, Any]:
    """The budget options of ``level`` (empty for the levels that do not search)."""
    return dict(LEVEL_BUDGETS.get(level.strip().lower(), {}))


def level_bot(level: str, seed: int, **options: Any) -> Bot:
    """A bot of ``level`` with its budget by count (``options`` override it)."""
    return make_bot(level, seed=seed, **{**level_options(level), **options})


def decision_seed(seat_seed: int, version: int) -> int:
    """The seed of one decision of a table's bot: a function of the seat's seed
    and the room's version only, so that any worker asked (again) about the
    same position answers the same."""
    return (seat_seed + version * 0x9E3779B97F4A7C15) % (1 << 62)
