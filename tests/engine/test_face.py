"""One engine face (issue 26): Game holds one C position for its whole life."""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.engine.actions import CallUno, Catch
from unokit.engine.core import CoreGame
from unokit.engine.errors import InvalidPositionError


def test_attributes_are_read_only_views() -> None:
    g = Game.new("classic", 3, seed=1)
    for name in ("hands", "draw", "phase", "current", "scores", "color"):
        with pytest.raises(AttributeError):
            setattr(g, name, getattr(g, name))


def test_views_follow_every_change_of_the_core() -> None:
    g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=3, events=False)
    hands, draw = g.hands, g.draw
    assert g.hands is hands  # made once per version of the position
    m = g.legal_moves()[0]
    g.apply_move(m)
    assert g.hands is not hands
    before = g.state_tuple()
    g.playout(random.Random(2).random)  # a raw core call: the version moves on too
    assert g.state_tuple() != before and g.draw != draw
    assert g.state.name == "MATCH_OVER"


def test_copy_is_independent_and_shares_nothing_mutable() -> None:
    g = Game.new("flip", 3, seed=4)
    c = g.copy()
    assert c == g and c.hands == g.hands and c.hands is not g.hands
    c.apply(c.legal_actions()[0])
    assert c != g
    assert g.state_tuple() == Game.new("flip", 3, seed=4).state_tuple()


def test_replace_builds_a_new_position_and_checks_its_fields() -> None:
    g = Game.new("classic", 2, seed=5)
    h = g.replace(hands=[g.hands[1], g.hands[0]], seed=99)
    assert (h.hands, h.seed) == ([g.hands[1], g.hands[0]], 99)
    assert (g.hands[0], g.seed) == (h.hands[1], 5)  # the original is unchanged
    with pytest.raises(TypeError, match="no field"):
        g.replace(colour=1)
    with pytest.raises(InvalidPositionError):
        g.replace(current=7)


def test_changed_says_whether_an_accepted_command_had_an_effect() -> None:
    # D65: an UNO call with no UNO to call is accepted without effect
    g = Game.setup("classic", 2, hands=[["R1", "R2", "B3"], ["G4", "Y5"]], discard=["R9"],
                   draw=["G1", "G2"], current=0, options={"falseCatchPenalty": 0})  # fmt: skip
    before = g.state_tuple()
    assert g.apply(CallUno(1)) == [] and g.changed is False and g.state_tuple() == before
    assert g.apply(Catch(0, 1)) == [] and g.changed is False
    g.apply("P0 PLAY R1")
    assert g.changed is True
    c = g.copy(events=True)
    c.apply(CallUno(0))  # two cards, not P0's turn: no effect
    assert c.changed is False and g.changed is True


def test_is_legal_changes_nothing() -> None:
    g = Game.new("classic", 3, seed=6)
    before, log = g.state_tuple(), list(g.log or [])
    legal = g.legal_actions()
    assert all(g.is_legal(a) for a in legal)
    assert not g.is_legal(f"P{(g.current + 1) % 3} DRAW")
    assert not g.is_legal("P0 PLAY R99")
    assert g.state_tuple() == before and g.log == log


def test_core_game_is_games_old_name() -> None:
    with pytest.deprecated_call(match="CoreGame is unokit.Game's old name"):
        c = CoreGame.new("classic", 2, seed=7)
    g = Game.new("classic", 2, seed=7, events=False)
    assert isinstance(c, Game) and c.log is None and c == g
    with pytest.deprecated_call():
        assert CoreGame.from_game(g) == g and type(CoreGame.from_game(g)) is CoreGame


def test_observe_shares_the_public_view_and_history_until_the_position_changes() -> None:
    from unokit.engine.observation import public_view

    g = Game.new("classic", 3, seed=5)
    pv = public_view(g)
    assert public_view(g) is pv  # one public view per version of the position
    o1 = g.observe(0)
    o2 = g.observe(0)
    assert o1 == o2 and o1.history is o2.history  # nothing new: the same tuple
    g.apply(g.legal_actions()[0])
    assert public_view(g) is not pv
    o3 = g.observe(0)
    assert o3.history[: len(o1.history)] == o1.history and len(o3.history) > len(o1.history)
    c = g.copy()  # a copy's view names the copy, not the original
    assert public_view(c).game_id == id(c) and public_view(g).game_id == id(g)
    assert c.observe(0) == Game.observe(c, 0)


def test_observations_are_frozen_dataclasses_with_every_field_set() -> None:
    import dataclasses

    from unokit.engine.observation import Observation

    o = Game.new("flip", 3, seed=2).observe(1)
    for f in dataclasses.fields(Observation):
        getattr(o, f.name)  # every slot is filled
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.current = 2  # type: ignore[misc]
    assert dataclasses.replace(o, legal=()).legal == ()


def test_new_slots_refuses_what_is_not_a_slot_of_the_class() -> None:
    from unokit import _core
    from unokit.engine.observation import Observation, SeatPart

    with pytest.raises(TypeError):
        _core.new_slots(SeatPart, (Observation.__dict__["hand"],), (1,))
    with pytest.raises(ValueError):
        _core.new_slots(SeatPart, (SeatPart.__dict__["hand"],), (1, 2))
