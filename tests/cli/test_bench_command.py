"""``unokit bench``: absolute decisions per second with the hardware named."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from unokit.bench import BATCHES, cpu_model
from unokit.cli import app

runner = CliRunner()


def test_bench_measures_every_kind_and_names_the_machine() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--no-server", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    rates = out["decisions_per_s"]
    expected = ["engine", "gym env", *(f"batched env x{b}" for b in BATCHES)]
    assert list(rates) == expected
    assert all(rate > 0 for rate in rates.values())
    m = out["machine"]
    assert m["cpu"] == cpu_model() and m["cpu"] and m["cores"] >= 1
    assert len(m["load_average"]) == 3
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--no-server"])
    assert res.exit_code == 0 and "cores" in res.stdout and "batched env x1024" in res.stdout


def test_bench_refuses_a_bad_duration() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0", "--no-server"])
    assert res.exit_code == 2
