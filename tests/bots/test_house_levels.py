"""Every bot level plays the Merciless preset (mercy, stacking, deflect,
forcedPlay, drawUntilPlayable, finishRestriction) and the Crazy preset
(multiPlay, jump-in, 7-0, stacking, deflect...) legally in all three variants,
and the heuristic dumps several cards of one number when it can."""

from __future__ import annotations

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.engine import events as ev
from unokit.engine.actions import Play
from unokit.engine.options import preset

FAST_HARD = {"think_ms": None, "iterations": 20}


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("level", ["random", "heuristic", "easy", "normal", "hard"])
def test_levels_play_merciless_legally(variant: str, level: str) -> None:
    # a low mercy so that players go out within a few rounds
    opts = preset("Merciless", mercy=9, handSize=5, targetScore=10_000)
    out = 0
    for seed in range(2):
        g = Game.new(variant, 4, opts, seed=seed, events=True)
        extra = FAST_HARD if level == "hard" else {}
        bots = [make_bot(level, seed=s, **extra) for s in range(3)] + [make_bot("heuristic")]
        turns = 0
        while not g.is_over and turns < 4000:
            if g.state.name == "ROUND_OVER":
                g.apply("NEXT")
                continue
            s = g.current
            events = g.apply(bots[s].act(g.observe(s)))  # raises on anything illegal
            out += sum(isinstance(e, ev.Eliminated) for e in events)
            turns += 1
        assert g.is_over
        assert not set(g.match_winners) & set(g.out_of_match())
    assert out > 0


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("level", ["random", "heuristic", "easy", "normal", "hard"])
def test_levels_play_crazy_legally(variant: str, level: str) -> None:
    opts = preset("Crazy", matchMode="single_round", handSize=9)
    multi = 0
    for seed in range(2):
        g = Game.new(variant, 3, opts, seed=seed, events=True)
        extra = FAST_HARD if level == "hard" else {}
        bots = [make_bot(level, seed=s, **extra) for s in range(2)] + [make_bot("heuristic")]
        turns = 0
        while not g.is_over and turns < 4000:
            s = g.current
            action = bots[s].act(g.observe(s))
            multi += isinstance(action, Play) and bool(action.more)
            g.apply(action)  # raises on anything illegal
            turns += 1
        assert g.is_over
    if level in ("random", "heuristic"):
        assert multi > 0


def test_heuristic_dumps_cards_of_one_number() -> None:
    g = Game.setup(
        "classic", 2, {"multiPlay": "same_number"},
        hands=[["R5", "B5", "G5", "B2", "Y9"], ["Y2", "Y3", "Y4"]],
        draw=["G7"], discard=["R3"], current=0,
    )  # fmt: skip
    a = make_bot("heuristic").act(g.observe(0))
    assert isinstance(a, Play) and len(a.more) == 2
    assert a.more[-1].face(0).color is not None and str(a.more[-1]) == "B5"  # B2 stays: end on blue
