"""The RL recipes of examples/ (docs/rl.md) run end to end on a short budget:
each trains, saves its model, reloads it and evaluates it against ``random``
and ``heuristic`` with a 95% confidence interval (issue 18)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# recipe -> (extra arguments for a short run, the file it saves)
RECIPES = {
    "sb3_maskable_ppo.py": (["--checkpoints", "2", "--checkpoint-games", "4"], "model.zip"),
    "tianshou_dqn.py": ([], "dqn.pt"),
    "rllib_ppo.py": (["--batch", "200"], "main_module"),
    "cleanrl_ppo.py": (["--num-envs", "8", "--num-steps", "16"], "agent.pt"),
}


def _run(recipe: str, variant: str, tmp_path: Path) -> dict:
    extra, saved = RECIPES[recipe]
    cmd = [sys.executable, str(EXAMPLES / recipe), "--variant", variant,
           "--budget-seconds", "4", "--eval-games", "12", "--out", str(tmp_path)] + extra  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert f"trained {variant}" in out and "reloaded from" in out
    for opponent in ("random", "heuristic"):
        assert f"vs {opponent}: " in out and "(95% CI " in out
    assert (tmp_path / saved).exists()
    results = json.loads((tmp_path / "results.json").read_text())
    final = results["final"]
    assert final["steps"] > 0 and final["seconds"] >= 4
    for opponent in ("random", "heuristic"):
        r = final[opponent]
        assert r["games"] == 12 and 0 <= r["wins"] <= 12
        assert r["low"] <= r["rate"] <= r["high"]
        assert f"vs {opponent}: {r['rate']:.1%} of 12 games" in out
    return results


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_recipe_trains_saves_reloads_and_evaluates(recipe: str, tmp_path: Path) -> None:
    _run(recipe, "classic", tmp_path)


@pytest.mark.parametrize("variant", ["flip", "flex"])
def test_recipes_take_the_other_variants(variant: str, tmp_path: Path) -> None:
    # one quick recipe per variant on the CI budget: SB3 for Flip, the
    # CleanRL loop (on the batched Flex environment) for Flex
    recipe = "sb3_maskable_ppo.py" if variant == "flip" else "cleanrl_ppo.py"
    results = _run(recipe, variant, tmp_path)
    assert results["variant"] == variant


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def test_cleanrl_advantages_follow_each_seat() -> None:
    """Two seats alternate in one game; the round ends after step 2 (seat 0
    wins +1, seat 1 gets -1); a new round starts at step 3 with seat 1."""
    cleanrl = _load("cleanrl_ppo")
    values = np.array([[0.1], [0.2], [0.3], [0.4]])
    actors = np.array([[0], [1], [0], [1]])
    rewards = np.zeros((4, 1, 2))
    rewards[2, 0] = [1.0, -1.0]
    dones = np.array([[False], [False], [True], [False]])
    adv = cleanrl.seat_advantages(values, rewards, actors, dones, np.array([0.5]),
                                  np.array([0]), gamma=1.0, lam=1.0)  # fmt: skip
    # step 3 (seat 1, new round): bootstraps on itself (no later decision of seat 1)
    assert adv[3, 0] == pytest.approx(0.0)
    # step 2 (seat 0): won, the round is over -> 1 - 0.3
    assert adv[2, 0] == pytest.approx(0.7)
    # step 1 (seat 1): its -1 came after its last decision -> -1 - 0.2
    assert adv[1, 0] == pytest.approx(-1.2)
    # step 0 (seat 0): next decision step 2 (value 0.3), GAE through it: 0.3-0.1 + 0.7
    assert adv[0, 0] == pytest.approx(0.9)
