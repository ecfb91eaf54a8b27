"""scripts/env_heuristic_baseline.py --bot: one of unokit's bots played through
the Gymnasium env's own actions (the yardstick of docs/rl.md's 65%).

Every move a bot makes must reach the env as a legal action: an illegal one
ends the round at once with no winner, so ``finished == games`` checks that
each of its plays, colours, UNO calls, catches and challenge answers maps to
the action table."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "env_heuristic_baseline.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("env_heuristic_baseline", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("bot", ["heuristic", "easy", "random"])
def test_a_bot_plays_whole_rounds_through_the_env(script: ModuleType, bot: str) -> None:
    rate = script.play_bot(bot, 12, 10_000)
    assert rate.games == 12
    assert rate.finished == 12, "a bot's move was refused by the env"
    assert 0 <= rate.wins <= 12
    assert rate.decisions >= 12 * 3


def test_the_same_seeds_give_the_same_result(script: ModuleType) -> None:
    a = script.play_bot("heuristic", 8, 10_000)
    b = script.play_bot("heuristic", 8, 10_000)
    assert (a.wins, a.decisions) == (b.wins, b.decisions)
