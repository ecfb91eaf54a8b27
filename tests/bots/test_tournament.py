"""Tournaments: fair line-ups, statistics, parallel runs, the command line."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokit.bots.tournament import (
    elo_intervals,
    elo_ratings,
    lineups,
    parse_bots,
    play_game,
    run_tournament,
    wilson,
)
from unokit.cli import app
from unokit.engine.errors import OptionError
from unokit.engine.options import Options

runner = CliRunner()


@pytest.mark.parametrize(
    ("bots", "seats"), [(2, 2), (2, 3), (3, 3), (2, 4), (3, 2), (4, 2), (5, 3)]
)
def test_every_bot_plays_every_seat_equally(bots: int, seats: int) -> None:
    ups = lineups(bots, seats)
    per_seat = [Counter(up[s] for up in ups) for s in range(seats)]
    for s in range(seats):
        assert set(per_seat[s]) == set(range(bots))
        assert len(set(per_seat[s].values())) == 1  # each bot equally often at seat s
    if bots > seats:  # every pair of bots meets
        pairs = {
            frozenset((up[i], up[j]))
            for up in ups
            for i in range(seats)
            for j in range(seats)
            if i != j
        }
        assert len(pairs) == bots * (bots - 1) // 2


def test_a_block_shares_one_deal() -> None:
    specs = parse_bots("heuristic,random")
    opts = Options.from_dict({"matchMode": "single_round"})
    a = play_game("classic", 2, opts, specs, seed=5, index=0)
    b = play_game("classic", 2, opts, specs, seed=5, index=1)
    c = play_game("classic", 2, opts, specs, seed=5, index=2)
    assert (a.lineup, b.lineup, c.lineup) == ((0, 1), (1, 0), (0, 1))
    assert a.deal == b.deal != c.deal
    again = play_game("classic", 2, opts, specs, seed=5, index=0)
    assert (again.winners, again.points, again.turns) == (a.winners, a.points, a.turns)


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-4) and hi == pytest.approx(0.6906, abs=1e-4)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_from_pairwise_results() -> None:
    even = elo_ratings(["a", "b"], {(0, 1): 50.0, (1, 0): 50.0})
    assert even == pytest.approx([1500.0, 1500.0])
    # 3:1 head to head is 400 log10(3) = 191 points apart
    a, b = elo_ratings(["a", "b"], {(0, 1): 75.0, (1, 0): 25.0}, prior=0)
    assert a - b == pytest.approx(190.85, abs=0.01) and (a + b) / 2 == pytest.approx(1500)
    # an unbeaten bot still gets a finite rating, and the order is transitive
    r = elo_ratings(["a", "b", "c"], {(0, 1): 10.0, (1, 2): 10.0, (0, 2): 10.0})
    assert r[0] > r[1] > r[2] and max(r) < 3000


def test_elo_intervals_cover_the_true_ratings() -> None:
    # two bots 100 Elo apart (the stronger wins 64%), 60 deals of 10 games
    # each, replicated: the 95% bootstrap interval of each rating holds its
    # true value (1550 and 1450: the mean stays 1500) about 95% of the time
    p = 1 / (1 + 10 ** (-100 / 400))
    rng = random.Random(5)
    held = [0, 0]
    reps = 80
    for _ in range(reps):
        blocks = []
        for _ in range(60):
            wins = sum(rng.random() < p for _ in range(10))
            blocks.append({(0, 1): float(wins), (1, 0): float(10 - wins)})
        intervals = elo_intervals(["a", "b"], blocks, resamples=200, seed=rng.randrange(1000))
        for i, true in enumerate((1550.0, 1450.0)):
            lo, hi = intervals[i]
            held[i] += lo <= true <= hi
            assert hi - lo < 120  # about 2 x 1.96 x 14 points for 600 games
    assert all(h >= 0.85 * reps for h in held), held
    # the same blocks and seed give the same intervals; nothing played: the mean
    again = elo_intervals(["a", "b"], blocks, 50, seed=1)
    assert again == elo_intervals(["a", "b"], blocks, 50, seed=1)
    assert elo_intervals(["a", "b"], []) == [(1500.0, 1500.0)] * 2


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    specs = parse_bots("heuristic,random,easy")
    one = run_tournament("flip", 3, specs, games=12, seed=2, workers=1)
    two = run_tournament("flip", 3, specs, games=12, seed=2, workers=2)
    strip = [
        (r.index, r.lineup, r.winners, r.points, r.turns)
        for r in sorted(one.results, key=lambda r: r.index)
    ]
    assert strip == [
        (r.index, r.lineup, r.winners, r.points, r.turns)
        for r in sorted(two.results, key=lambda r: r.index)
    ]
    assert one.to_dict() | {"bots": {}} == two.to_dict() | {"bots": {}}
    for name in ("heuristic", "random", "easy"):
        a, b = one.bots[name].to_dict(), two.bots[name].to_dict()
        for key in ("games", "win_rate", "ci95", "mean_points", "elo", "elo_ci95", "wins"):
            assert a[key] == b[key]
    assert sum(b.games for b in one.bots.values()) == 12 * 3
    assert sum(b.wins for b in one.bots.values()) <= 12


def test_parse_bots() -> None:
    specs = parse_bots("hard:think_ms=50:rollout=greedy, heuristic,heuristic", think_ms=200)
    assert [s.label for s in specs] == [
        "hard:think_ms=50:rollout=greedy",
        "heuristic",
        "heuristic#2",
    ]
    assert dict(specs[0].options) == {"think_ms": 50, "rollout": "greedy"}
    assert dict(specs[1].options) == {"think_ms": 200}
    for bad in (
        "",
        "nosuch",
        "hard:think_ms",
        "hard:think_ms=0",
        "hard:colour=red",
        "heuristic:think_ms=5",
    ):
        with pytest.raises(OptionError):
            parse_bots(bad)


def test_cli_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    r = runner.invoke(
        app,
        [
            "tournament",
            "--variant",
            "classic",
            "--players",
            "2",
            "--bots",
            "heuristic,random",
            "--games",
            "10",
            "--seed",
            "3",
            "--workers",
            "1",
            "--json",
            "--plot",
            str(png),
        ],
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["games"] == 10 and set(doc["bots"]) == {"heuristic", "random"}
    for entry in doc["bots"].values():
        assert {"games", "win_rate", "ci95", "mean_points", "elo", "elo_ci95"} <= set(entry)
        assert entry["games"] == 10
        assert entry["elo_ci95"][0] <= entry["elo"] <= entry["elo_ci95"][1]
        assert entry["ci95"][0] <= entry["win_rate"] <= entry["ci95"][1]
    h2h = doc["head_to_head"]  # 2 players, no blocked round: the win rates
    assert h2h["heuristic"]["random"] == pytest.approx(doc["bots"]["heuristic"]["win_rate"])
    assert h2h["heuristic"]["random"] + h2h["random"]["heuristic"] == pytest.approx(1.0)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from matplotlib.image import imread

    assert imread(png).shape[1] >= 700  # a real chart, not an empty file


def test_cli_table() -> None:
    r = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "normal,easy",
            "--games",
            "4",
            "--workers",
            "1",
            "--variant",
            "flex",
            "--players",
            "3",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "normal" in r.stdout and "Elo" in r.stdout and "95% CI" in r.stdout
    assert "head to head" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic,nosuch"], "unknown bot"),
        (["--games", "0"], "greater than or equal to 1"),
        (["--workers", "0"], "greater than or equal to 1"),
        (["--think-ms", "0"], "greater than or equal to 1"),
        (["--variant", "uno-attack"], "is not one of"),
        (["--players", "11"], "players"),
        (["--plot", "chart.jpg"], "must end in .png"),
        (["-o", "stacking=sometimes"], "stacking"),
        (["--bots", "hard:think_ms"], "key=value"),
        (["--variant", "flip", "--bots", "rlcard-rule,heuristic"], "classic only"),
    ],
)
def test_cli_bad_input_is_refused_clearly(args: list[str], message: str, tmp_path: Path) -> None:
    r = runner.invoke(app, ["tournament", "--games", "2", "--workers", "1", *args])
    assert r.exit_code == 2
    assert message in r.output
    assert not (tmp_path / "chart.jpg").exists()
