"""Every bot level plays the Merciless preset (mercy, stacking, deflect,
forcedPlay, drawUntilPlayable, finishRestriction) legally, with players going
out of the match, in all three variants."""

from __future__ import annotations

import pytest

from unokit import Game
from unokit.bots import make_bot
from unokit.engine import events as ev
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
