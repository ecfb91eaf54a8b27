"""The search budget: by count (``sims``: reproducible whatever the load) or by
CPU time of the searching thread (not wall time)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from typer.testing import CliRunner

from unokit import Game
from unokit.bots import ismcts as ismcts_module
from unokit.bots import make_bot
from unokit.bots.tournament import parse_bots, run_tournament
from unokit.cli import app
from unokit.engine.errors import OptionError

runner = CliRunner()


def _position() -> Game:
    return Game.setup(
        "classic",
        2,
        hands=[["R1", "R2", "B3", "W", "GS"], ["G1", "G2", "Y4"]],
        draw=["Y1", "Y2", "Y3", "B7", "G9"],
        discard=["R5"],
        current=0,
    )


class _FakeTime:
    """A clock whose thread (CPU) time and wall time advance by given steps per
    reading: a machine as busy or as idle as a test wants."""

    def __init__(self, cpu_step: float, wall_step: float) -> None:
        self.cpu = 0.0
        self.wall = 0.0
        self.cpu_step = cpu_step
        self.wall_step = wall_step

    def thread_time(self) -> float:
        self.cpu += self.cpu_step
        return self.cpu

    def perf_counter(self) -> float:
        self.wall += self.wall_step
        return self.wall

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def test_sims_ignores_every_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock racing ahead (each reading 10 s later, CPU and wall) would stop a
    timed search after its first samples; a budget by count plays all of them,
    and decides as on an idle machine."""
    g = _position()
    idle = make_bot("hard", seed=5, sims=300)
    a_idle = idle.act(g.observe(0))
    monkeypatch.setattr(ismcts_module, "time", _FakeTime(10.0, 10.0))
    busy = make_bot("hard", seed=5, sims=300)
    assert busy.act(g.observe(0)) == a_idle
    assert busy.stats.rollouts == idle.stats.rollouts >= 300  # type: ignore[attr-defined]
    timed = make_bot("hard", seed=5, think_ms=1000)
    timed.act(g.observe(0))
    assert timed.stats.rollouts < 300  # type: ignore[attr-defined]


def test_time_budget_is_cpu_time_of_the_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wall time racing ahead (a loaded machine) does not cut the search short:
    only the thread's CPU time counts; CPU time racing ahead does."""
    g = _position()
    monkeypatch.setattr(ismcts_module, "time", _FakeTime(1e-5, 10.0))
    slow_wall = make_bot("hard", seed=5, think_ms=5)
    slow_wall.act(g.observe(0))
    # 5 ms of fake CPU time at 10 us per reading: hundreds of rollouts, although
    # each reading of the wall clock is 10 s later
    assert slow_wall.stats.rollouts > 100  # type: ignore[attr-defined]
    monkeypatch.setattr(ismcts_module, "time", _FakeTime(10.0, 1e-5))
    slow_cpu = make_bot("hard", seed=5, think_ms=5)
    slow_cpu.act(g.observe(0))
    assert slow_cpu.stats.rollouts < 20  # type: ignore[attr-defined]


def test_an_explicit_wall_cap_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _position()
    monkeypatch.setattr(ismcts_module, "time", _FakeTime(1e-5, 10.0))
    capped = make_bot("hard", seed=5, think_ms=5, max_wall_ms=100)
    capped.act(g.observe(0))
    assert capped.stats.rollouts < 20  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", [0, -3, "many", 2.5, True])
def test_bad_sims_are_refused(bad: object) -> None:
    with pytest.raises(OptionError, match="sims"):
        make_bot("hard", sims=bad)


def test_same_seed_and_sims_same_tournament() -> None:
    """Reproducible: twice, and with one or two worker processes, every game
    ends the same way (the decisions are the same)."""
    specs = parse_bots("hard,heuristic", sims=40)
    assert dict(specs[0].options) == {"sims": 40}
    runs = [run_tournament("flip", 2, specs, games=6, seed=11, workers=w) for w in (1, 2, 1)]
    strips = [
        [
            (r.index, r.winners, r.points, r.turns, r.decisions)
            for r in sorted(run.results, key=lambda r: r.index)
        ]
        for run in runs
    ]
    assert strips[0] == strips[1] == strips[2]


def test_cli_sims_is_reproducible() -> None:
    args = [
        "tournament",
        "--bots",
        "hard,heuristic",
        "--games",
        "4",
        "--seed",
        "3",
        "--workers",
        "1",
        "--sims",
        "30",
        "--json",
        "--variant",
        "flex",
    ]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    for doc in (a, b):
        for bot in doc["bots"].values():
            bot.pop("ms_per_decision")
            bot.pop("max_ms_per_decision")
    assert a == b
    assert "hard" in a["bots"]


def test_cli_sim_and_bad_sims() -> None:
    r = runner.invoke(
        app, ["sim", "--bots", "hard,heuristic", "--games", "2", "--sims", "20", "--json"]
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 2
    for cmd in (["sim"], ["tournament", "--workers", "1"]):
        bad = runner.invoke(app, [*cmd, "--games", "2", "--sims", "0"])
        text = " ".join(bad.output.split())
        assert bad.exit_code == 2 and "--sims" in text and "greater than or equal to 1" in text


def test_own_tuned_is_reproducible_with_sims() -> None:
    """``hard:own=tuned`` (the searching seat's own rollout moves by the tuned
    weighted policy, issue 16): same seed and ``sims``, same decisions and
    estimates, in both searches; an unknown ``own`` or one without the
    sensible rollout is refused."""
    g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=11)
    for search in ("flat", "tree"):
        a = make_bot("hard", seed=3, sims=200, own="tuned", search=search)
        b = make_bot("hard", seed=3, sims=200, own="tuned", search=search)
        obs = g.observe(g.current)
        assert a.act(obs) == b.act(obs)
        assert a.stats.values == b.stats.values  # type: ignore[attr-defined]
    specs = parse_bots("hard:own=tuned,heuristic", sims=40)
    assert dict(specs[0].options) == {"own": "tuned", "sims": 40}
    strips = [
        [
            (r.index, r.winners, r.points, r.turns, r.decisions)
            for r in sorted(
                run_tournament("classic", 2, specs, games=4, seed=9, workers=1).results,
                key=lambda r: r.index,
            )
        ]
        for _ in range(2)
    ]
    assert strips[0] == strips[1]
    with pytest.raises(OptionError, match="own"):
        make_bot("hard", sims=10, own="smart")
    with pytest.raises(OptionError, match="own"):
        make_bot("hard", sims=10, own="tuned", rollout="greedy")
