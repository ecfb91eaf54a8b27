"""The agent's table (behind `unokit mcp`): bots move until the agent has a
decision; catches go both ways; refused moves change nothing."""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.agents.table import WAIT, AgentTable
from unokit.engine.actions import Action, Draw, Play
from unokit.engine.errors import IllegalActionError, OptionError
from unokit.engine.observation import Observation


def table_at(game: Game, opponents: str = "heuristic") -> AgentTable:
    t = AgentTable("classic", 2, opponents=opponents, seed=1)
    t.game = game
    t.advance()
    return t


def test_bots_catch_an_agent_that_forgot_uno() -> None:
    g = Game.setup("classic", 2, hands=[["RS", "G7"], ["Y2", "B3", "B4"]], draw=["Y9", "B9", "G1"],
                   discard=["R5"], color="R", current=0)  # fmt: skip
    t = table_at(g)
    out = t.play("P0 PLAY RS")  # a Skip down to one card, without calling UNO
    assert any("for not calling UNO" in line for line in out["happened"])
    assert len(t.observe().hand) == 3  # G7 and the two penalty cards


def test_the_agent_may_catch_or_wait() -> None:
    class Forgetful:  # plays its Skip down to one card and never calls UNO
        name = "forgetful"
        catches = False

        def act(self, obs: Observation) -> Action:
            plays = [a for a in obs.legal if isinstance(a, Play)]
            return plays[0] if plays else next(a for a in obs.legal if isinstance(a, Draw))

    for answer in ("P0 CATCH P1", WAIT):
        g = Game.setup("classic", 2, hands=[["Y2", "B3", "B4"], ["RS", "G7"]],
                       draw=["Y9", "B9", "G1"], discard=["R5"], color="R", current=1)  # fmt: skip
        t = AgentTable("classic", 2, opponents="heuristic", seed=1)
        t.bots[1] = Forgetful()
        t.game = g
        t.advance()
        moves = [m["move"] for m in t.legal_moves()]
        assert "P0 CATCH P1" in moves and WAIT in moves  # out of turn: catch, or let it go
        out = t.play(answer)
        penalty = any("for not calling UNO" in line for line in out["happened"])
        assert penalty == (answer != WAIT)


def test_refused_moves_change_nothing_and_say_what_is_legal() -> None:
    t = AgentTable("flip", 3, opponents="random", seed=4)
    before = t.game.copy()
    legal = [m["move"] for m in t.legal_moves()]
    for bad, why in [
        ("P0 PLAY R9", "is not"),
        ("P1 DRAW", "is not"),
        ("NEXT", "round is over"),
        ("fly", "is not a command"),
        ("", "empty move"),
        (WAIT, "WAIT is only"),
    ]:
        with pytest.raises(IllegalActionError) as e:
            t.play(bad)
        assert why in str(e.value) or why == "round is over"
        if bad not in ("NEXT",):
            assert all(m in str(e.value) for m in legal) or bad == ""
    assert t.game.hands == before.hands and t.game.discard == before.discard


def test_whole_games_with_random_legal_moves_in_every_variant() -> None:
    rng = random.Random(3)
    for variant in ("classic", "flip", "flex"):
        t = AgentTable(variant, 3, opponents="easy,normal", seed=11, match=True,
                       options={"targetScore": 60})  # fmt: skip
        moves = 0
        while not t.over:
            listed = t.legal_moves()
            assert listed and t.waiting_for_agent
            t.play(rng.choice(listed)["move"])
            moves += 1
        assert t.legal_moves() == [] and moves > 3
        assert max(t.observe().scores) >= 60


def test_bad_tables_are_refused() -> None:
    with pytest.raises(OptionError, match="seat must be 0 to 1"):
        AgentTable("classic", 2, seat=2)
    with pytest.raises(OptionError, match="one level for all 2 bots or one per bot"):
        AgentTable("classic", 3, opponents="easy,easy,easy")
    with pytest.raises(OptionError, match="unknown bot"):
        AgentTable("classic", 2, opponents="grandmaster")
