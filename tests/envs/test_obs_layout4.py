"""Observation layout 4 (issue 28): layout 2 without the card-by-card ``top``
and ``discard`` segments, the same in the Gymnasium, AEC and batched
environments, every other value equal to layout 2's."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.actions import action_table
from unokit.envs.gym import UnoGymEnv
from unokit.envs.observation import (
    COMPACT_DROPPED,
    DEFAULT_OBS_LAYOUT,
    CompactLayout,
    FeatureLayout,
    ObservationEncoder,
)
from unokit.envs.vector import UnoVectorEnv

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}
VARIANTS = ["classic", "flip", "flex"]


def _kept(full: FeatureLayout) -> np.ndarray:
    """The columns of layout 2 that layout 4 keeps, from layout 2's segments."""
    cols = [
        i
        for name, off, length in full.describe()
        if name not in COMPACT_DROPPED
        for i in range(off, off + length)
    ]
    return np.asarray(cols)


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_4_by_its_option_in_every_env(variant: str) -> None:
    assert DEFAULT_OBS_LAYOUT == 5  # layout 4 and the colour held most (test_obs_layout5.py)
    env = UnoGymEnv(variant, 2, obs_layout=4)
    assert env.obs_layout == 4 and type(env.layout) is CompactLayout
    assert env.observation_space["observation"].shape == (env.layout.size,)
    vec = MODULES[variant].vector_env(2, 2, seed=0, obs_layout=4)
    assert type(vec.layout) is CompactLayout and vec.observation_size == env.layout.size
    aec = MODULES[variant].raw_env(players=2, obs_layout=4)
    assert aec.obs_layout == 4 and type(aec.layout) is CompactLayout
    aec.reset(seed=0)
    assert aec.observe(aec.agent_selection)["observation"].shape == (env.layout.size,)


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_4_segments(variant: str) -> None:
    enc = ObservationEncoder(variant, 3)
    table = action_table(variant, 3)
    lay, full = CompactLayout(enc, table), FeatureLayout(enc, table)
    u = len(enc.cards)
    assert lay.version == 4 and lay.size == full.size - 2 * u
    assert "top" not in lay.segments and "discard" not in lay.segments
    names = [n for n, _, _ in full.describe() if n not in COMPACT_DROPPED]
    assert [n for n, _, _ in lay.describe()] == names
    off = 0
    for name, start, length in lay.describe():  # contiguous, layout 2's lengths
        assert start == off and length == full.segments[name][1]
        off += length
    assert off == lay.size and lay.high.shape == (lay.size,) and (lay.high == 1).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_4_in_the_gym_env_is_layout_2_without_the_piles(variant: str) -> None:
    env = UnoGymEnv(variant, 2, obs_layout=4)
    two = UnoGymEnv(variant, 2, obs_layout=2)
    lay = env.layout
    assert isinstance(lay, CompactLayout)
    space = env.observation_space["observation"]
    assert space.shape == (lay.size,) and float(space.high.max()) == 1.0
    kept = _kept(lay.full)
    rng = np.random.default_rng(5)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        ref, _ = two.reset(seed=episode)
        done, steps = False, 0
        while not done and steps < 300:
            x = obs["observation"]
            assert space.contains(x)
            np.testing.assert_array_equal(obs["action_mask"], ref["action_mask"])
            np.testing.assert_array_equal(x, ref["observation"][kept])
            raw = env.encoder.encode_game(env.game, 0)
            h = env.encoder.slice("hand")  # copies of each card / the copies in the deck
            np.testing.assert_allclose(x[lay.slice("hand")], raw[h] / env.encoder.high[h])
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, term, trunc, _ = env.step(a)
            ref, r2, *_ = two.step(a)
            assert r == r2
            done = term or trunc
            steps += 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_4_is_the_same_in_the_batched_and_aec_envs(
    variant: str, aec_observes_its_layout: Callable[[str, int], None]
) -> None:
    vec = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=4)
    ref = UnoVectorEnv(variant, 6, 3, seed=9, backend="reference", obs_layout=4)
    two = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=2)
    assert isinstance(vec.layout, CompactLayout)
    kept = _kept(vec.layout.full)
    out, expect, full = vec.reset(), ref.reset(), two.reset()
    assert out.observation.shape == (6, vec.layout.size) == (6, vec.observation_size)
    assert (vec.observation_high == 1).all()
    rng = np.random.default_rng(2)
    for _ in range(120):
        np.testing.assert_array_equal(out.observation, expect.observation)
        np.testing.assert_array_equal(out.observation, full.observation[:, kept])
        a = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out, expect, full = vec.step(a), ref.step(a), two.step(a)
    aec_observes_its_layout(variant, 4)
