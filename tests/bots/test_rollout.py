"""Rollout policies: the inlined sensible rollout is the sensible policy."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from unokit import Game
from unokit.bots.rollout import greedy_move, rollout, sensible_move, sensible_rollout
from unokit.engine.core import CoreGame

OPTIONS = [
    {},
    {"sevenZero": True},
    {"stacking": "escalate"},
    {"forcedPlay": True},
    {"drawUntilPlayable": True},
]


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("options", OPTIONS)
def test_inlined_rollout_equals_stepping_the_policy(
    variant: str, options: dict[str, object]
) -> None:
    seeds = 25 if variant == "flex" else 6  # Flex has its own inlined turn
    for players in (2, 3):
        for seed in range(seeds):
            opts = dict(options, matchMode="single_round")
            a = Game.new(variant, players, opts, seed=seed, events=False)
            b = a.copy()
            turns = sensible_rollout(a)
            steps = 0
            while b.phase < 4:
                b.apply_move(sensible_move(b), b.current, True)
                steps += 1
            assert a.state_tuple() == b.state_tuple(), (variant, options, players, seed)
            assert turns == steps


def test_sensible_policy_is_deterministic_and_legal() -> None:
    g = Game.new("flip", 4, {"matchMode": "single_round"}, seed=3)
    while g.phase < 4:
        m = sensible_move(g)
        assert m in g.turn_moves()
        assert sensible_move(g.copy()) == m
        g.apply_move(m, uno=True)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_greedy_rollout_plays_legal_rounds(variant: str) -> None:
    for seed in range(5):
        g = Game.new(variant, 3, {"matchMode": "single_round"}, seed=seed, events=False)
        start = g.all_cards()
        rollout(g, random.Random(seed).random)
        assert g.phase >= 4
        assert g.all_cards() == start
        h = Game.new(variant, 3, {"matchMode": "single_round"}, seed=seed)
        rnd = random.Random(seed).random
        while h.phase < 4:
            m = greedy_move(h, rnd)
            assert m in h.turn_moves()
            h.apply_move(m, uno=True)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("options", OPTIONS + [{"noBluff": True}, {"jumpIn": True}])
def test_rollouts_on_the_core_equal_the_previous_game_rollouts(
    variant: str, options: dict[str, object]
) -> None:
    """Same seed, same rollout as before the policies ran on one CoreGame: the
    same decisions, the same random draws, the same final position (the
    previous code, stepping a Game, is the oracle: tests/bots/_rollout_before.py)."""
    from tests.bots import _rollout_before as before

    for players in (2, 4):
        for seed in range(4):
            opts = dict(options, matchMode="single_round")
            for greedy in (True, False):
                a = Game.new(variant, players, opts, seed=seed, events=False)
                b = a.copy()
                if greedy:
                    ra, rb = random.Random(seed), random.Random(seed)
                    ta = rollout(a, ra.random)
                    tb = before.rollout(b, rb.random)
                    assert ra.random() == rb.random()  # as many draws
                else:
                    ta = sensible_rollout(a)
                    tb = before.sensible_rollout(b)
                assert (ta, a.state_tuple()) == (tb, b.state_tuple()), (
                    variant,
                    options,
                    players,
                    seed,
                    greedy,
                )


def test_rollout_on_a_core_game_leaves_the_game_alone_and_keeps_events() -> None:
    from unokit.engine.core import CoreGame

    g = Game.new("classic", 3, {"matchMode": "single_round"}, seed=2, events=False)
    c = CoreGame.from_game(g)
    before = g.state_tuple()
    rollout(c, random.Random(0).random)
    assert g.state_tuple() == before and c.phase >= 4
    h = Game.new("classic", 3, {"matchMode": "single_round"}, seed=2)
    n = len(h.log or [])
    sensible_rollout(h)
    assert h.phase >= 4 and len(h.log or []) > n


POLICY_OPTIONS = OPTIONS + [{"stacking": "same_symbol"}, {"noBluff": True}, {"jumpIn": True}]


def _off_path_positions(variant: str, options: dict[str, object]) -> Iterator[CoreGame]:
    """The core game at every decision of rounds (2-4 players, 6 seeds each)
    where each move is the Python sensible policy's or a random greedy one,
    so positions off the policy's path (forgotten UNO calls, colour choices,
    challenges, drawn cards) are reached too; then once more at each round's
    end (``phase >= 4``). The caller must not move the game."""
    for players in (2, 3, 4):
        for seed in range(6):
            rng = random.Random(seed)
            c = CoreGame.new(variant, players, dict(options, matchMode="single_round"), seed=seed)
            while c.phase < 4:
                yield c
                m = sensible_move(c)
                if rng.random() >= 0.5:
                    m = greedy_move(c, rng.random)
                c.apply_move(m, uno=rng.random() < 0.8)
            yield c


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("options", POLICY_OPTIONS)
def test_the_c_sensible_policy_picks_the_python_policys_move(
    variant: str, options: dict[str, object]
) -> None:
    """The rollouts run the sensible policy in C (``_core.Game.sensible_move``,
    src/unokit/_core/policy.c). At every decision of rounds that leave the
    policy's path, the C move is the Python :func:`sensible_move`'s."""
    seen_phases: set[int] = set()
    checked = 0
    for c in _off_path_positions(variant, options):
        if c.phase >= 4:
            assert c._g.sensible_move() == -1  # the round is over
            continue
        assert c._g.sensible_move() == sensible_move(c), (variant, options, c)
        seen_phases.add(c.phase)
        checked += 1
    assert checked > 300
    assert {0, 1}.issubset(seen_phases)  # turns and drawn cards at least


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("options", POLICY_OPTIONS)
def test_the_weighted_policy_with_default_weights_is_the_sensible_policy(
    variant: str, options: dict[str, object]
) -> None:
    """``_core.Game.weighted_move`` (policy.c, issue 16) with ``W_DEFAULTS``
    picks the Python :func:`sensible_move`'s move at every decision of rounds
    that leave the policy's path (as in the test above); the tuned weights
    pick a legal move."""
    from unokit import _core
    from unokit.bots.rollout import TUNED_WEIGHTS

    w = _core.W_DEFAULTS
    checked = 0
    for c in _off_path_positions(variant, options):
        if c.phase >= 4:
            assert c._g.weighted_move(w) == -1
            continue
        assert c._g.weighted_move(w) == sensible_move(c), (variant, options, c)
        assert c._g.weighted_move(TUNED_WEIGHTS) in c.turn_moves()
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_mixed_playouts(variant: str) -> None:
    """``mixed_playout`` with the default weights is ``sensible_playout``; with
    the tuned weights for one seat it plays legal rounds to their end, that
    seat's moves the weighted policy's and the others' the sensible one's."""
    from unokit import _core
    from unokit.bots.rollout import TUNED_WEIGHTS
    from unokit.engine.core import CoreGame

    for seed in range(20):
        for seat in (0, 1):
            a = CoreGame.new(variant, 2, {"matchMode": "single_round"}, seed=seed)
            b = a.copy()
            assert a._g.mixed_playout(100_000, seat, _core.W_DEFAULTS) == b._g.sensible_playout(
                100_000
            )
            assert a.state_tuple() == b.state_tuple()
            c = CoreGame.new(variant, 2, {"matchMode": "single_round"}, seed=seed)
            d = c.copy()
            turns = c._g.mixed_playout(100_000, seat, TUNED_WEIGHTS)
            steps = 0
            while d.phase < 4:
                m = d._g.weighted_move(TUNED_WEIGHTS) if d.current == seat else d._g.sensible_move()
                d._g.apply_move(m, -1, True)
                steps += 1
            assert steps == turns and c.state_tuple() == d.state_tuple()
    with pytest.raises(ValueError):
        c._g.weighted_move((1.0, 2.0))


def test_weighted_duels_count_both_seatings() -> None:
    """``_core.weighted_duels`` (the tuning objective) plays each deal in both
    seatings: with the default weights the weighted seat wins exactly one of
    the two rounds of every deal that has a winner."""
    from unokit import _core
    from unokit.engine.core import core_config
    from unokit.engine.options import Options
    from unokit.engine.variants import get_variant

    o = Options.from_dict({"matchMode": "single_round"})
    tab, opt = core_config(get_variant("classic"), o, 0)
    won, lost, none = _core.weighted_duels(tab, opt, 7, 300, _core.W_DEFAULTS)
    assert won == lost and won + lost + none == 600
