"""A deliberately slow bot level, ``test-slow``, for the tests of the server's
bot workers (tests/web/test_bot_pool.py).

It plays the heuristic's move after sleeping. It is steered through a
directory (:func:`configure`, given to the workers as
``Settings.bot_imports = ("unokit.testing.slowbot:DIR",)``): each decision
first writes ``DIR/started-<pid>-<n>`` (so a test knows a worker is in the
middle of a decision, and which one), then sleeps the seconds written in
``DIR/seconds`` (default 2). Importing the module registers the level.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path
from typing import Any

from unokit.bots import register_bot
from unokit.bots.heuristic import HeuristicBot
from unokit.engine.actions import Action
from unokit.engine.observation import Observation

__all__ = ["SlowBot", "configure", "register", "LEVEL", "sleep_and_mark"]

LEVEL = "test-slow"
_DIR: Path | None = None
_COUNT = itertools.count()


def configure(directory: str) -> None:
    """Steer the slow bots of this process through ``directory`` (and make
    the level known here: a bot worker calls this at start)."""
    global _DIR
    _DIR = Path(directory)
    register()


def register() -> None:
    """Make the ``test-slow`` level known to this process's bot registry. Not
    done at import: importing every module (doctests) must not add a test
    level to the levels a server offers."""
    register_bot(LEVEL, SlowBot)


def seconds(directory: Path | None) -> float:
    if directory is None:
        return 2.0
    try:
        return float((directory / "seconds").read_text())
    except (OSError, ValueError):
        return 2.0


class SlowBot:
    name = LEVEL

    def __init__(self, seed: int = 0, **_: Any) -> None:
        self._heuristic = HeuristicBot(seed=seed)

    def act(self, obs: Observation) -> Action:
        if _DIR is not None:
            marker = _DIR / f"started-{os.getpid()}-{next(_COUNT)}"
            marker.write_text(str(obs.seat))
        time.sleep(seconds(_DIR))
        return self._heuristic.act(obs)


def sleep_and_mark(path: str, seconds: float) -> int:
    """A worker job for the pool's tests: mark ``path`` as run, sleep, answer
    the worker's pid. (Here, not in a test module: a worker process imports
    what it runs by module name, and the tests are not importable there.)"""
    import os
    import time

    Path(path).write_text("ran")
    time.sleep(seconds)
    return os.getpid()
