"""Observation layout 5 (issue 28): layout 4 followed by the colour held most,
one-hot, the same in the Gymnasium, AEC and batched environments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from unokit.engine.variants import get_variant
from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.actions import action_table
from unokit.envs.gym import UnoGymEnv
from unokit.envs.observation import (
    DEFAULT_OBS_LAYOUT,
    CompactLayout,
    FavouriteLayout,
    ObservationEncoder,
)
from unokit.envs.vector import UnoVectorEnv

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}
VARIANTS = ["classic", "flip", "flex"]


def _favourite(variant: str, game: object, seat: int) -> np.ndarray:
    """The one-hot from the engine's own hand: the colour (side up, dark folded
    on light) held most, ties to the first, zeros without a coloured card."""
    cards = get_variant(variant).cards.cards
    side = game.side  # type: ignore[attr-defined]
    counts: Counter[int] = Counter()
    for card in game.hands[seat]:  # type: ignore[attr-defined]
        face = cards[card].face(side)
        if not face.is_wild:
            counts[int(face.color) % 4] += 1
    out = np.zeros(4, dtype=np.float32)
    if counts:
        top = max(counts.values())
        out[min(c for c, k in counts.items() if k == top)] = 1.0
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_5_is_the_default_of_every_env(variant: str) -> None:
    assert DEFAULT_OBS_LAYOUT == 5
    env = UnoGymEnv(variant, 2)
    assert env.obs_layout == 5 and isinstance(env.layout, FavouriteLayout)
    assert env.observation_space["observation"].shape == (env.layout.size,)
    vec = MODULES[variant].vector_env(2, 2, seed=0)
    assert isinstance(vec.layout, FavouriteLayout) and vec.observation_size == env.layout.size
    aec = MODULES[variant].raw_env(players=2)
    assert aec.obs_layout == 5 and isinstance(aec.layout, FavouriteLayout)
    aec.reset(seed=0)
    assert aec.observe(aec.agent_selection)["observation"].shape == (env.layout.size,)


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_5_is_layout_4_and_the_colour_held_most(variant: str) -> None:
    env = UnoGymEnv(variant, 2, obs_layout=5)
    four = UnoGymEnv(variant, 2, obs_layout=4)
    lay = env.layout
    assert isinstance(lay, FavouriteLayout) and lay.version == 5
    assert lay.size == four.layout.size + 4 and lay.slice("favourite") == slice(
        lay.size - 4, lay.size
    )
    space = env.observation_space["observation"]
    assert space.shape == (lay.size,) and float(space.high.max()) == 1.0
    rng = np.random.default_rng(7)
    checked = 0
    for episode in range(4):
        obs, _ = env.reset(seed=episode)
        ref, _ = four.reset(seed=episode)
        done, steps = False, 0
        while not done and steps < 300:
            x = obs["observation"]
            assert space.contains(x)
            np.testing.assert_array_equal(x[: lay.size - 4], ref["observation"])
            if env.game.current == 0 and len(env.game.hands[0]) < 10:  # hand_colors clip at 10
                np.testing.assert_array_equal(
                    x[lay.slice("favourite")], _favourite(variant, env.game, 0)
                )
                checked += 1
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, term, trunc, _ = env.step(a)
            ref, r2, *_ = four.step(a)
            assert r == r2
            done = term or trunc
            steps += 1
    assert checked > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_5_is_the_same_in_the_batched_and_aec_envs(
    variant: str, aec_observes_its_layout: Callable[[str, int], None]
) -> None:
    vec = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=5)
    ref = UnoVectorEnv(variant, 6, 3, seed=9, backend="reference", obs_layout=5)
    four = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=4)
    assert isinstance(vec.layout, FavouriteLayout)
    out, expect, base = vec.reset(), ref.reset(), four.reset()
    assert out.observation.shape == (6, vec.layout.size) == (6, vec.observation_size)
    rng = np.random.default_rng(3)
    for _ in range(120):
        np.testing.assert_array_equal(out.observation, expect.observation)
        np.testing.assert_array_equal(out.observation[:, :-4], base.observation)
        fav = out.observation[:, -4:]
        assert ((fav == 0) | (fav == 1)).all() and (fav.sum(axis=1) <= 1).all()
        a = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out, expect, base = vec.step(a), ref.step(a), four.step(a)
    aec_observes_its_layout(variant, 5)


def test_a_tie_goes_to_the_first_colour_and_no_coloured_card_gives_zeros() -> None:
    enc = ObservationEncoder("classic", 2)
    lay = FavouriteLayout(enc, action_table("classic", 2))
    base = CompactLayout(enc, action_table("classic", 2))
    mask = np.zeros(lay.table.size, dtype=np.int8)
    raw = np.zeros((3, enc.size), dtype=np.float32)
    h = enc.slice("hand")
    cards = get_variant("classic").cards.cards
    names = [str(cards[c].face(0)) for c in enc.cards]
    for row, hand in enumerate((["G5", "B5", "G7", "B2"], ["W", "W4"], ["Y1", "R2", "Y3"])):
        for card in hand:
            raw[row, h.start + names.index(card)] += 1
    out = lay(raw, np.stack([mask] * 3))
    np.testing.assert_array_equal(out[:, :-4], base(raw, np.stack([mask] * 3)))
    np.testing.assert_array_equal(out[:, -4:], [[0, 0, 1, 0], [0, 0, 0, 0], [0, 1, 0, 0]])
