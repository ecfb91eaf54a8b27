"""Smoke test of the training example: one tiny update writes its results and plot."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_reinforce.py"


def test_training_example_runs_one_update(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_reinforce", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    result = module.train(
        minutes=1.0,
        updates=1,
        episodes_per_update=4,
        envs=2,
        eval_every=1,
        eval_episodes=3,
        final_episodes=3,
        out=tmp_path,
        log=False,
    )
    assert result["updates"] == 1 and result["episodes"] == 4
    assert [c["update"] for c in result["curve"]] == [0, 1]
    assert 0.0 <= result["final_win_rate"] <= 1.0
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["final_win_rate"] == result["final_win_rate"]
    assert set(saved["references"]) == {"uniform over the mask (untrained)", "heuristic bot"}
    png = (tmp_path / "learning_curve.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
