"""Game analysis: per decision of one seat, winning chances before and after
the move from that seat's view, the worst moves flagged with the better one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.analysis import LABELS, analyse, evaluate, position_value
from unokit.cli import app
from unokit.records import record

runner = CliRunner()


def _recorded(seed: int, variant: str = "classic") -> Game:
    g = Game.new(variant, 2, {"matchMode": "single_round"}, seed=seed, events=True)
    bots = [make_bot("easy", seed=1), make_bot("heuristic", seed=2)]
    while g.phase < 4:
        g.apply(bots[g.current].act(g.observe(g.current)))
    return g


def test_analyse_reports_each_decision_of_the_seat() -> None:
    g = _recorded(21)
    rec = record.record_of(g)
    rows = analyse(rec, seat=0, samples=24)
    assert rows
    for r in rows:
        assert rec.commands[r.command - 1].startswith("P0 ")
        assert 0.0 <= r.after <= r.before <= 1.0 and r.moves >= 2
        expected = next((name for cut, name in LABELS if r.loss >= cut), "")
        assert r.label == expected
        if r.loss > 0:
            assert r.best != r.played
    assert all(r.command not in {x.command for x in analyse(rec, seat=1, samples=8)} for r in rows)


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_analysis_reads_no_hidden_card(variant: str) -> None:
    """Twin games (the unseen cards dealt again) get the same estimates."""
    from tests.bots.test_hidden_information import twin

    g = _recorded(5, variant)
    rec = record.record_of(g)
    games = list(rec.games())
    checked = 0
    rng = random.Random(3)
    for state in games[1:-1:2]:
        seat = state.current
        other = twin(state, seat, rng)
        a, b = state.observe(seat), other.observe(seat)
        assert a == b
        moves = [x for x in a.legal if type(x).__name__ != "CallUno"]
        assert evaluate(a, moves, 12, seed=1) == evaluate(b, moves, 12, seed=1)
        assert position_value(a, 12, seed=2) == position_value(b, 12, seed=2)
        checked += 1
    assert checked >= 5


def test_cli_analyse(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    record.dump(_recorded(21), path)
    r = runner.invoke(app, ["analyse", str(path), "--seat", "0", "--samples", "16", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["seat"] == 0 and doc["decisions"]
    assert set(doc["worst"]) <= {d["command"] for d in doc["decisions"] if d["label"]}
    table = runner.invoke(app, ["analyse", str(path), "--seat", "1", "--samples", "8"])
    assert table.exit_code == 0 and "before" in table.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--seat", "2"], "not a seat"), (["--seat", "0", "--samples", "0"], "at least 1")],
)
def test_cli_analyse_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "game.rec"
    record.dump(_recorded(4), path)
    r = runner.invoke(app, ["analyse", str(path), *args])
    assert r.exit_code == 2 and message in " ".join(r.output.split())
    missing = runner.invoke(app, ["analyse", str(tmp_path / "none.rec"), "--seat", "0"])
    assert missing.exit_code == 2 and "cannot read" in missing.output
