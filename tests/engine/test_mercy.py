"""House rule ``mercy`` (RULES.md §6.12, docs/rules.md §6): out of the match at
``mercy`` cards after a draw. The scenario files S-H612* run on the C core
(the conformance runner); here they run on the Python reference too, and the
parts a scenario cannot show are checked through the public API."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unokit.engine import events as ev
from unokit.engine.errors import IllegalActionError, OptionError
from unokit.engine.game import Game
from unokit.engine.options import preset
from unokit.testing.conformance import run_scenario
from unokit.testing.reference import ReferenceGame

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("S-H612*.json"))


def test_at_least_three_scenarios() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["core", "reference"])
def test_scenario(path: Path, engine: type[Game]) -> None:
    result = run_scenario(json.loads(path.read_text()), path.stem, engine)
    assert result.passed, result.line()


def test_option_errors() -> None:
    with pytest.raises(OptionError):
        Game.new("classic", 3, {"handSize": 7, "mercy": 7})  # below handSize + 1
    with pytest.raises(OptionError):
        Game.new("classic", 3, {"handSize": 7, "mercy": 20, "handLimit": 10})
    Game.new("classic", 3, {"handSize": 7, "mercy": 20, "handLimit": 20})
    assert preset("Merciless").mercy == 25


def _setup(engine: type[Game], **given: object) -> Game:
    base: dict[str, object] = {
        "hands": [["RD2", "G1"], ["Y1", "Y2", "Y3", "Y4"], ["B1", "B2"]],
        "draw": ["G7", "G8", "G9"],
        "discard": ["R5"],
        "current": 0,
    }
    base.update(given)
    return engine.setup("classic", 3, {"handSize": 3, "mercy": 6}, events=True, **base)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["core", "reference"])
def test_elimination_event_and_out_seat_has_no_command(engine: type[Game]) -> None:
    g = _setup(engine)
    events = g.apply("P0 PLAY RD2")
    assert ev.Eliminated(1, 6) in events
    assert g.out_of_match() == (1,)
    assert g.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match="out of the match"):
        g.apply("P1 CATCH P0")
    assert g.current == 2
    g.check_invariants()


def test_observation_names_the_seats_out() -> None:
    g = _setup(Game)
    g.apply("P0 PLAY RD2")
    assert g.observe(0).out == (1,)
    assert g.observe(None).out == (1,)


def test_random_matches_agree_with_the_reference_and_end() -> None:
    """Crowded matches with a low mercy: eliminations happen, every match ends
    with a winner still in, and the reference plays every command the same."""
    eliminated = 0
    for seed in range(12):
        opts = {"handSize": 3, "mercy": 5, "stacking": "escalate", "deflect": "both"}
        variant = ("classic", "flip", "flex")[seed % 3]
        core = Game.new(variant, 4, opts, seed=seed, events=True)
        ref = ReferenceGame.new(variant, 4, opts, seed=seed, events=True)
        r = random.Random(seed)
        for _ in range(3000):
            if core.is_over:
                break
            if core.state.name == "ROUND_OVER":
                a: object = "NEXT"
            else:
                a = r.choice(core.legal_actions())
            e1 = core.apply(a)  # type: ignore[arg-type]
            e2 = ref.apply(a)  # type: ignore[arg-type]
            assert e1 == e2
            assert core.state_tuple() == ref.state_tuple()
            eliminated += sum(isinstance(e, ev.Eliminated) for e in e1)
        assert core.is_over
        assert all(w not in core.out_of_match() for w in core.match_winners)
    assert eliminated > 0
