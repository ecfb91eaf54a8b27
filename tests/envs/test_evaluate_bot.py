"""evaluate_bot: one of unokit's bots played through the Gymnasium env's own
actions, on the deals a learned policy meets (docs/rl.md's yardsticks).

Every move a bot makes must reach the env as a legal action: an illegal one
ends the round at once with no winner, so ``finished == games`` checks that
each of its plays, colours, UNO calls, catches and challenge answers maps to
the action table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from unokit import OptionError
from unokit.envs.evaluate import evaluate_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("bot", "games"), [("heuristic", 12), ("easy", 12), ("random", 12), ("hard", 2)]
)
def test_a_bot_plays_whole_rounds_through_the_env(bot: str, games: int) -> None:
    rate = evaluate_bot(bot, "classic", "random", games=games, seed=10_000)
    assert (rate.games, rate.opponent) == (games, "random")
    assert rate.finished == games, "a bot's move was refused by the env"
    assert 0 <= rate.wins <= games
    assert rate.decisions >= games * 3


@pytest.mark.parametrize("variant", ["flip", "flex"])
def test_other_variants_and_opponents(variant: str) -> None:
    rate = evaluate_bot("heuristic", variant, "heuristic", games=6, seed=3)
    assert rate.finished == 6


def test_the_same_seeds_give_the_same_result() -> None:
    a = evaluate_bot("heuristic", "classic", "random", games=8, seed=10_000)
    b = evaluate_bot("heuristic", "classic", "random", games=8, seed=10_000)
    assert (a.wins, a.decisions) == (b.wins, b.decisions)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(OptionError):
        evaluate_bot("heuristic", "classic", "random", games=0)
    with pytest.raises(OptionError):
        evaluate_bot("no-such-bot", "classic", "random", games=1)


def test_the_baseline_script_plays_a_bot() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "env_heuristic_baseline.py"), "--games", "3",
         "--bot", "heuristic"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    row = json.loads(out.stdout.strip().splitlines()[-1])
    assert (row["policy"], row["games"], row["finished"]) == ("bot heuristic", 3, 3)
