"""Bots and the house rule multiPlay (RULES.md §6.9) with every other rule on.

* Every bot level plays a whole round legally (``Game.apply`` raises on
  anything illegal) with every house rule of §6 switched on at once —
  stacking, deflect, jump-in, 7-0, multiPlay, draw until playable, forced
  play, the last-card restriction, a hand limit equal to mercy, teams,
  unchallengeable wild draws, shuffled seats — in all three variants.
* ``hard`` (and ``expert``), whose moves come from the legal list, search the
  plays of several cards like any other move: going out with two 5s is
  found by the search (its estimate for that move is a sure win), not only
  by the heuristic it starts from; ``heuristic`` and ``normal`` take it too.
"""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game
from unokit.bots import bot_names, make_bot
from unokit.engine.actions import Play
from unokit.engine.errors import OptionError

#: every house rule of RULES.md §6 on at once (handLimit = mercy is allowed:
#: the draw that fills the hand puts the player out)
EVERY_RULE: dict[str, Any] = {
    "stacking": "escalate",
    "deflect": "both",
    "jumpIn": True,
    "sevenZero": True,
    "multiPlay": "same_number",
    "drawUntilPlayable": True,
    "forcedPlay": True,
    "finishRestriction": "no_action_no_wild",
    "handLimit": 12,
    "mercy": 12,
    "teams": "pairs",
    "wildDrawChallenge": "off",
    "shuffleSeats": True,
    "matchMode": "single_round",
}

#: search budgets by count, small: the point is legality, not strength
SMALL = {"think_ms": None, "iterations": 20}
BUDGET = {"hard": SMALL, "hard-legacy": SMALL, "expert": SMALL}
#: ``engine`` drives an outside program (tests/agents); rlcard-rule plays Classic only
LEVELS = [b for b in bot_names() if b != "engine"]


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_rule_at_once(variant: str, level: str) -> None:
    if level == "rlcard-rule" and variant != "classic":
        # it plays Classic UNO only, and says so rather than playing wrongly
        g = Game.new(variant, 4, EVERY_RULE, seed=0, events=True)
        with pytest.raises(OptionError, match="Classic UNO only"):
            make_bot(level, seed=0).act(g.observe(g.current))
        return
    multi = 0
    for seed in range(2):
        g = Game.new(variant, 4, EVERY_RULE, seed=seed, events=True)
        bots = [make_bot(level, seed=s, **BUDGET.get(level, {})) for s in range(4)]
        turns = 0
        while not g.is_over and turns < 3000:
            s = g.current
            action = bots[s].act(g.observe(s))
            multi += isinstance(action, Play) and bool(action.more)
            g.apply(action)  # raises on anything illegal
            turns += 1
        assert g.is_over, f"seed {seed}: not over after {turns} decisions"
    if level != "rlcard-rule":  # RLCard's rules know no multi-card play
        assert multi > 0


def _two_fives() -> Game:
    """P0 holds R5 and B5 on a red 3: ``PLAY R5+B5`` goes out and wins the
    round; ``PLAY R5`` leaves B5 for later."""
    return Game.setup(
        "classic",
        3,
        {"multiPlay": "same_number"},
        hands=[["R5", "B5"], ["Y2", "Y3"], ["G2", "G4"]],
        draw=["G7", "R1", "R2", "Y8", "B9"],
        discard=["R3"],
        color="R",
        current=0,
    )


@pytest.mark.parametrize(
    ("level", "options"),
    [
        ("hard", {"sims": 200}),
        ("expert", {"think_ms": None, "iterations": 60}),
        ("heuristic", {}),
        ("normal", {}),
    ],
)
def test_going_out_with_two_fives(level: str, options: dict[str, Any]) -> None:
    g = _two_fives()
    obs = g.observe(0)
    multi = next(a for a in obs.legal if isinstance(a, Play) and a.more)
    single = next(a for a in obs.legal if isinstance(a, Play) and not a.more)
    for seed in range(3):
        bot = make_bot(level, seed=seed, **options)
        action = bot.act(obs)
        assert isinstance(action, Play) and str(action.card) == "R5"
        assert [str(c) for c in action.more] == ["B5"], action
        stats = getattr(bot, "stats", None)
        if stats is not None:
            # the search estimated the two-card play as a candidate of its
            # own (its candidates are the legal plays first, in legal order)
            plays = [a for a in obs.legal if isinstance(a, Play)]
            assert stats.rollouts > 0
            assert stats.values[plays.index(multi)] == 1.0 > stats.values[plays.index(single)]
    events = g.apply(action)
    assert g.state.name in ("ROUND_OVER", "MATCH_OVER"), events
