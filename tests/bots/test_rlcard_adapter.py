"""The RLCard rule-agent adapter: faithful conversion, legal moves, no download."""

from __future__ import annotations

import numpy as np
import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.rlcard_adapter import observation_to_rlcard
from unokit.engine.actions import Accept, ChooseColor, Draw, Pass, Play
from unokit.engine.cards import Color
from unokit.engine.errors import OptionError

pytest.importorskip("rlcard")


def test_state_conversion_follows_rlcards_format() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "B7", "W", "W4", "RD2"], ["G1", "G2"]],
        draw=["Y1", "Y2"],
        discard=["G5", "R5"],
        current=0,
    )
    state = observation_to_rlcard(g.observe(0))
    raw = state["raw_obs"]
    assert raw["hand"] == ["r-1", "b-7", "r-wild", "g-wild_draw_4", "r-draw_2"]
    assert raw["target"] == "r-5"
    assert raw["played_cards"] == ["g-5", "r-5"]
    assert raw["num_cards"] == [5, 2]
    # RLCard's legality: a Wild Draw Four only when nothing else can be played
    assert set(state["raw_legal_actions"]) == {
        "r-1",
        "r-draw_2",
        "r-wild",
        "g-wild",
        "b-wild",
        "y-wild",
    }
    assert state["_actions"]["g-wild"] == Play(0, g.cards[g._card_id("W")], color=Color.G)


def test_wild_draw_four_and_draw_when_nothing_else() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["B7", "W4"], ["G1", "G2"]],
        draw=["Y1", "Y2"],
        discard=["R5"],
        current=0,
    )
    assert set(observation_to_rlcard(g.observe(0))["raw_legal_actions"]) == {
        "r-wild_draw_4",
        "g-wild_draw_4",
        "b-wild_draw_4",
        "y-wild_draw_4",
    }
    g = Game.setup(
        "classic",
        2,
        hands=[["B7", "G3"], ["G1", "G2"]],
        draw=["Y1", "Y2"],
        discard=["R5"],
        current=0,
    )
    state = observation_to_rlcard(g.observe(0))
    assert state["raw_legal_actions"] == ["draw"] and state["_actions"]["draw"] == Draw(0)
    assert make_bot("rlcard-rule").act(g.observe(0)) == Draw(0)


def test_the_rule_agent_plays_most_held_colour_with_wild_draw_four() -> None:
    g = Game.setup(
        "classic",
        2,
        hands=[["B7", "B8", "G3", "W4"], ["G1", "G2"]],
        draw=["Y1", "Y2"],
        discard=["R5"],
        current=0,
    )
    a = make_bot("rlcard-rule", seed=1).act(g.observe(0))
    assert isinstance(a, Play) and a.color == Color.B and not a.uno  # four cards: no UNO


def test_defaults_for_decisions_rlcard_does_not_have() -> None:
    bot = make_bot("rlcard-rule")
    # a Wild Draw Four against it: accept (RLCard has no challenge)
    g = Game.setup(
        "classic",
        2,
        hands=[["R1", "W4", "B2"], ["G1", "G2", "B4"]],
        draw=["Y1", "Y2", "Y3", "Y4", "Y5"],
        discard=["R5"],
        current=0,
    )
    g.apply("P0 PLAY W4 color=B")
    assert bot.act(g.observe(1)) == Accept(1)
    # a drawn card of the colour in force is played, another playable one is kept
    g = Game.setup(
        "classic",
        2,
        hands=[["B1", "G2"], ["G1", "G2"]],
        draw=["R7", "Y1"],
        discard=["R5"],
        current=0,
    )
    g.apply("P0 DRAW")
    a = bot.act(g.observe(0))
    assert isinstance(a, Play) and str(a.card) == "R7"
    g = Game.setup(
        "classic",
        2,
        hands=[["B1", "G2"], ["G1", "G2"]],
        draw=["Y5", "Y1"],
        discard=["R5"],
        current=0,
    )
    g.apply("P0 DRAW")
    assert bot.act(g.observe(0)) == Pass(0)
    # a first-card wild: the colour held most
    g = Game.setup(
        "classic",
        2,
        hands=[["G1", "G2", "B3"], ["G1", "G2"]],
        draw=["Y1"],
        discard=["W"],
        current=0,
        phase="AWAIT_COLOR",
    )
    assert bot.act(g.observe(0)) == ChooseColor(0, Color.G)


def test_rlcard_rule_plays_whole_rounds_legally_and_reproducibly() -> None:
    state = np.random.get_state()
    results = []
    for _ in range(2):
        g = Game.new("classic", 3, {"matchMode": "single_round"}, seed=4)
        bots = [make_bot("rlcard-rule", seed=7), make_bot("heuristic"), make_bot("rlcard-rule")]
        while g.phase < 4:
            s = g.current
            g.apply(bots[s].act(g.observe(s)))
        results.append(list(g.commands))
    assert results[0] == results[1]
    # the adapter restores NumPy's global generator after each call
    after = np.random.get_state()
    assert all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(state, after, strict=True)
    )


def test_other_variants_are_refused() -> None:
    g = Game.new("flip", 2, seed=1)
    with pytest.raises(OptionError, match="Classic"):
        make_bot("rlcard-rule").act(g.observe(g.current))
