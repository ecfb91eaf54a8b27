"""House rule ``multiPlay`` (RULES.md §6.9, docs/rules.md §6): several number
cards of one number in one PLAY. The scenario files S-H69* run on the C core
(the conformance runner); here they run on the Python reference too, with the
notation, the move codes and records of a multi-play."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unokit.engine.actions import Play, parse_action
from unokit.engine.cards import CLASSIC
from unokit.engine.errors import IllegalActionError, ParseError
from unokit.engine.game import Game
from unokit.engine.multiplay import OP_MULTI
from unokit.records import record
from unokit.testing.conformance import run_scenario
from unokit.testing.reference import ReferenceGame

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("S-H69*.json"))
MULTI = {"multiPlay": "same_number"}


def test_at_least_three_scenarios() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["core", "reference"])
def test_scenario(path: Path, engine: type[Game]) -> None:
    result = run_scenario(json.loads(path.read_text()), path.stem, engine)
    assert result.passed, result.line()


def test_notation_round_trip_and_bad_text() -> None:
    a = parse_action("p0 play r5+b5+g5 uno=true", CLASSIC)
    assert isinstance(a, Play) and [str(c) for c in (a.card, *a.more)] == ["R5", "B5", "G5"]
    assert str(a) == "P0 PLAY R5+B5+G5 uno=true"
    assert parse_action(str(a), CLASSIC) == a
    with pytest.raises(ParseError):
        parse_action("P0 PLAY R5+", CLASSIC)
    with pytest.raises(ParseError):
        parse_action("P0 PLAY R5+X9", CLASSIC)


def _game(engine: type[Game] = Game, **options: object) -> Game:
    return engine.setup(
        "classic", 3, {**MULTI, **options}, events=True,
        hands=[["R5", "B5", "G5", "R5", "Y1"], ["Y2", "Y3"], ["B1", "B2"]],
        draw=["G7", "G8"], discard=["R3"], current=0,
    )  # fmt: skip


@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["core", "reference"])
def test_listed_multi_plays_decode_encode_and_are_accepted(engine: type[Game]) -> None:
    g = _game(engine)
    moves = [m for m in g.legal_moves() if m & 15 == OP_MULTI]
    texts = {str(g.decode(0, m)) for m in moves}
    # one listing per set of cards: the two R5s are interchangeable
    assert "P0 PLAY R5+R5" in texts and "P0 PLAY R5+B5+G5+R5" in texts
    assert len(texts) == len(moves)
    for m in moves:
        a = g.decode(0, m)
        assert g.encode(a) == m and g.is_legal(a)


@pytest.mark.parametrize("engine", [Game, ReferenceGame], ids=["core", "reference"])
def test_bad_multi_plays_change_nothing(engine: type[Game]) -> None:
    g = _game(engine)
    before = g.state_tuple()
    for bad in (
        "P0 PLAY R5+Y1",  # not the same number
        "P0 PLAY R5+B5+B5",  # one B5 held
        "P0 PLAY B5+R5",  # the first does not match
        "P1 PLAY R5+B5",  # not P1's turn
        "P0 PLAY R5+B5 color=G",  # numbers take no colour
        "P0 PLAY R5+B5 swap=P1",  # not a 7
    ):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert g.state_tuple() == before
    off = Game.setup("classic", 2, hands=[["R5", "B5"], ["Y2"]], discard=["R3"], current=0)
    with pytest.raises(IllegalActionError, match="multiPlay"):
        off.apply("P0 PLAY R5+B5")


def test_a_record_with_multi_plays_round_trips() -> None:
    g = Game.new("classic", 3, {**MULTI, "handSize": 12}, seed=4, events=True)
    r = random.Random(4)
    played = 0
    while not g.is_over and played < 3 and g.round_no == 1:
        acts = g.legal_actions()
        multi = [a for a in acts if isinstance(a, Play) and a.more]
        a = multi[0] if multi else r.choice(acts)
        played += bool(multi)
        g.apply(a)
    assert played
    text = record.dumps(g)
    assert "+" in text
    assert record.loads(text).replay() == g


def test_random_matches_agree_with_the_reference() -> None:
    """Multi-plays with sevenZero, mercy, stacking: the core and the reference
    list the same moves and play every command the same."""
    multi = 0
    for seed in range(6):
        opts = {**MULTI, "handSize": 9, "sevenZero": True, "mercy": 20, "stacking": "escalate"}
        variant = ("classic", "flip", "flex")[seed % 3]
        a = Game.new(variant, 4, opts, seed=seed, events=True)
        b = ReferenceGame.new(variant, 4, opts, seed=seed, events=True)
        r = random.Random(seed)
        for _ in range(1500):
            if a.is_over:
                break
            if a.state.name == "ROUND_OVER":
                act: object = "NEXT"
            else:
                la = a.legal_actions()
                assert la == b.legal_actions()
                ms = [x for x in la if isinstance(x, Play) and x.more]
                act = r.choice(ms) if ms and r.random() < 0.5 else r.choice(la)
                multi += bool(ms) and act in ms
            assert a.apply(act) == b.apply(act)  # type: ignore[arg-type]
            assert a.state_tuple() == b.state_tuple()
    assert multi > 50
