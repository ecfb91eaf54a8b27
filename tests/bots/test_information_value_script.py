"""benchmarks/strength/information_value.py keeps running against the bots' current API.

The oracle subclasses ``hard``'s search; when the search began asking its
sampler for core games (``sample_core``) the script broke unnoticed, because
nothing ran it. One short game per entry catches that."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "strength" / "information_value.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("information_value", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["information_value"] = mod  # multiprocessing-free use only
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize(
    ("entry", "opponent", "players"),
    [("oracle", "hard", 2), ("hard", "heuristic", 2), ("oracle", "heuristic", 4)],
)
def test_one_game_per_entry(script: ModuleType, entry: str, opponent: str, players: int) -> None:
    result, cpu = script._game(("classic", entry, 40, 3, 1, opponent, players))
    assert result in (0.0, 0.5, 1.0)
    assert cpu > 0.0


@pytest.mark.parametrize("players", [2, 4])
def test_oracle_samples_the_real_hands(script: ModuleType, players: int) -> None:
    import random

    from unokit import Game
    from unokit.bots.determinize import Determinizer
    from unokit.engine.core import CoreGame

    g = Game.new("classic", players, {"matchMode": "single_round"}, seed=5, events=True)
    det = Determinizer(g.observe(g.current), infer=False)
    deals = script._RealDeals(det, g)
    sample = deals.sample(random.Random(1))
    assert [sorted(h) for h in sample.hands] == [sorted(h) for h in g.hands]
    assert sorted(sample.draw) == sorted(g.draw)
    core = deals.sample_core(random.Random(1))
    assert isinstance(core, CoreGame)
    back = core.to_game()
    again = deals.sample(random.Random(1))
    assert back.hands == again.hands and back.draw == again.draw
