"""The fast random playout equals stepping the random policy through the
public, fully checked API; the random bot on observations makes the same choices."""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.bots.random import RandomBot
from unokit.engine.notation import dumps
from unokit.engine.playout import playout, random_move

from .conftest import OPTION_SETS

CASES = [
    (v, n, i)
    for v in ("classic", "flip", "flex")
    for n in (2, 3, 5)
    for i in range(len(OPTION_SETS))
]


@pytest.mark.parametrize(("variant", "players", "opt"), CASES)
def test_playout_equals_checked_stepping(variant: str, players: int, opt: int) -> None:
    options = {**OPTION_SETS[opt], "matchMode": "single_round"}
    for seed in range(4):
        fast = Game.new(variant, players, options, seed=seed, events=False)
        slow = Game.new(variant, players, options, seed=seed, events=True)
        turns = playout(fast, random.Random(seed).random)
        rnd = random.Random(seed).random
        steps = 0
        while slow.state.name not in ("ROUND_OVER", "MATCH_OVER"):
            slow.apply_move(random_move(slow, rnd), uno=True)  # fully checked path
            steps += 1
        assert turns == steps
        assert dumps(fast) == dumps(slow)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_random_bot_on_observations_matches_the_policy(variant: str) -> None:
    for seed in range(6):
        a = Game.new(variant, 3, {"matchMode": "single_round"}, seed=seed)
        b = Game.new(variant, 3, {"matchMode": "single_round"}, seed=seed)
        rnd_a = random.Random(seed).random
        bot = RandomBot(rnd=random.Random(seed).random)
        while a.state.name not in ("ROUND_OVER", "MATCH_OVER"):
            a.apply_move(random_move(a, rnd_a), uno=True)
            b.apply(bot.act(b.observe(b.current)))
            assert a == b
