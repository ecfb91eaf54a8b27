"""The environment benchmark runs and reports every row (numbers are not asserted:
performance is measured by the benchmark itself, never by a timed test)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "speed" / "bench_envs.py"


def test_benchmark_reports_every_environment() -> None:
    spec = importlib.util.spec_from_file_location("bench_envs", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.run(0.05)
    names = [r["name"] for r in out["results"]]
    assert names[0] == "rlcard uno (env.step)"
    assert {"uno_classic_v0, uniform", "uno_flip_v0, uniform", "uno_flex_v0, uniform"} <= set(names)
    for variant in ("classic", "flip", "flex"):
        assert f"uno_{variant} vector_env(256), uniform" in names
        assert f"uno_{variant} gym vs random (agent steps)" in names
        assert set(out["ratios_2p"][variant]) == {"aec", "gym", "vector"}
    for r in out["results"]:
        assert r["steps"] > 0 and r["steps_per_second"] > 0 and r["vs_rlcard"] > 0
        assert 0 < r["env_seconds"] <= r["seconds"] and r["env_vs_rlcard"] > 0
    assert out["classic_2p_ratio"] > 0 and out["classic_2p_ratio_same_action_set"] > 0
