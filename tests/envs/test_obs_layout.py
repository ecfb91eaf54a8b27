"""Observation layouts 2 and 3 (issue 28): the raw vector scaled to 0..1 plus
what the recipes' features counted (layout 3: and what each legal action
would leave), the same in the Gymnasium, AEC and batched environments,
computed from the seat's view alone."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from unokit import Game
from unokit.engine.cards import Kind
from unokit.engine.errors import OptionError
from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.gym import UnoGymEnv
from unokit.envs.observation import (
    ACTION_FEATURES,
    ActionLayout,
    FeatureLayout,
)
from unokit.envs.vector import UnoVectorEnv

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}
VARIANTS = ["classic", "flip", "flex"]


def _check_counts(
    lay: FeatureLayout, x: np.ndarray, game: Game, seat: int, mask: np.ndarray
) -> None:
    """The features say what the engine holds."""
    side = game.side
    hand = [game.variant.cards.cards[c].face(side) for c in game.hands[seat]]
    colors = [0] * 4
    for f in hand:
        if f.color is not None:
            colors[int(f.color) % 4] += 1
    assert x[lay.slice("hand_colors")] == pytest.approx([min(c / 10, 1) for c in colors])
    wilds = sum(f.is_wild for f in hand)
    assert x[lay.slice("hand_kinds")][0] == pytest.approx(min(wilds / 4, 1))
    hot = x[lay.slice("size_onehot")].reshape(game.n, 10)
    for k in range(game.n):
        size = len(game.hands[(seat + k) % game.n])
        assert hot[k].sum() == (size > 0)
        if size:
            assert hot[k, min(size, 10) - 1] == 1
    plays = int(mask[: lay.table.num_plays].sum())
    legal = x[lay.slice("legal")]
    assert legal[0] == pytest.approx(min(plays / 10, 1)) and legal[1] == (plays > 0)
    assert legal[8] == mask[lay.table.index_of("DRAW")]
    assert x.min() >= 0 and x.max() <= 1
    raw = lay.encoder.encode_game(game, seat)
    assert x[: lay.encoder.size] == pytest.approx(raw / lay.encoder.high)


@pytest.mark.parametrize("variant", VARIANTS)
def test_gym_layout_2_is_the_engine_view(variant: str) -> None:
    env = UnoGymEnv(variant, 3, obs_layout=2)
    assert env.obs_layout == 2 and env.layout is not None
    space = env.observation_space["observation"]
    assert space.shape == (env.layout.size,) and float(space.high.max()) == 1.0
    old = UnoGymEnv(variant, 3, obs_layout=1)
    rng = np.random.default_rng(1)
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        raw, _ = old.reset(seed=episode)
        done = False
        steps = 0
        while not done and steps < 300:
            mask = obs["action_mask"]
            x = obs["observation"]
            assert space.contains(x)
            np.testing.assert_array_equal(x, env.layout(raw["observation"], mask))
            np.testing.assert_array_equal(raw["observation"], env.encoder.encode_game(env.game, 0))
            _check_counts(env.layout, x, env.game, 0, mask)
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, _, term, trunc, _ = env.step(a)
            raw, *_ = old.step(a)
            done = term or trunc
            steps += 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_batched_and_aec_envs_give_the_same_layout(
    variant: str, aec_observes_its_layout: Callable[[str, int], None]
) -> None:
    vec = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=2)
    ref = UnoVectorEnv(variant, 6, 3, seed=9, backend="reference", obs_layout=2)
    out, expect = vec.reset(), ref.reset()
    assert out.observation.shape == (6, vec.observation_size) == (6, vec.layout.size)
    assert (vec.observation_high == 1).all()
    rng = np.random.default_rng(2)
    for _ in range(150):
        np.testing.assert_array_equal(out.observation, expect.observation)
        for i in (0, 5):
            g = vec.to_game(i)
            seat = int(out.current_player[i])
            if not g.catch_window():
                x = vec.layout(vec.encoder.encode_game(g, seat), out.action_mask[i])
                # one row alone or in a batch: the same up to float rounding
                np.testing.assert_allclose(out.observation[i], x, rtol=0, atol=1e-6)
                _check_counts(vec.layout, out.observation[i], g, seat, out.action_mask[i])
        a = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out, expect = vec.step(a), ref.step(a)
    aec_observes_its_layout(variant, 2)


def test_layout_1_stays_available_and_bad_layouts_are_refused() -> None:
    env = UnoGymEnv("classic", 2, obs_layout=1)
    assert env.layout is None and env.observation_space["observation"].shape == (181,)
    assert MODULES["flip"].vector_env(2, 2, obs_layout=1).observation_size == (
        MODULES["flip"].raw_env(players=2, obs_layout=1).encoder.size
    )
    for bad in (0, 6, "2", True, None):
        with pytest.raises(OptionError, match="obs_layout"):
            UnoGymEnv("classic", 2, obs_layout=bad)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="obs_layout"):
            UnoVectorEnv("classic", 2, obs_layout=bad)  # type: ignore[arg-type]
        with pytest.raises(OptionError, match="obs_layout"):
            uno_classic_v0.raw_env(players=2, obs_layout=bad)


def test_flip_layout_reads_the_next_opponents_backs() -> None:
    """In Flip the next opponent's hand on the side down is seen exactly: its
    colours there are the features ``opp_other_colors``."""
    env = UnoGymEnv("flip", 2)
    obs, _ = env.reset(seed=3)
    g = env.game
    other = 1 - g.side
    colors = [0] * 4
    for c in g.hands[1]:
        f = g.variant.cards.cards[c].face(other)
        if f.color is not None:
            colors[int(f.color) % 4] += 1
    got = obs["observation"][env.layout.slice("opp_other_colors")]
    assert got == pytest.approx([min(c / 10, 1) for c in colors], abs=1e-4)
    assert Kind.FLIP in {g.variant.cards.cards[c].face(0).kind for c in range(len(g.variant.cards))}


def _check_actions(
    lay: ActionLayout, x: np.ndarray, game: Game, seat: int, mask: np.ndarray
) -> None:
    """Layout 3's per-action features say what the engine holds: 0 for every
    action outside the mask; for a legal play, the copies of the card in hand
    and whether the colour it leaves in force is the current one."""
    acts = x[lay.slice("actions")].reshape(lay.table.size, lay.per_action)
    assert (acts[mask == 0] == 0).all()
    assert x.min() >= 0 and x.max() <= 1
    side = game.side
    cards = game.variant.cards.cards
    for a in np.flatnonzero(mask[: lay.table.num_plays]):
        code = lay.table.codes[a]
        cid = (code >> 4) & 0xFFF
        assert acts[a, ACTION_FEATURES.index("copies")] == pytest.approx(
            game.hands[seat].count(cid) / 4
        )
        face = cards[cid].face(side)
        if face.color is not None and not code & (1 << 20):
            keeps = int(face.color) % 4 == game.color % 4
            assert acts[a, ACTION_FEATURES.index("keeps_color")] == keeps
            same = sum(
                1
                for c in game.hands[seat]
                if cards[c].face(side).color is not None
                and int(cards[c].face(side).color) % 4 == int(face.color) % 4
            )
            assert acts[a, ACTION_FEATURES.index("color_left")] == pytest.approx(
                min((same - 1) / 10, 1)
            )


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_3_in_the_gym_env(variant: str) -> None:
    env = UnoGymEnv(variant, 2, obs_layout=3)
    lay = env.layout
    assert isinstance(lay, ActionLayout) and lay.version == 3
    space = env.observation_space["observation"]
    per = 15 if variant == "flip" else 6
    assert lay.per_action == per
    assert space.shape == (lay.size,)
    assert lay.size == FeatureLayout(lay.encoder, lay.table).size + lay.table.size * per
    assert float(space.high.max()) == 1.0 and float(space.low.min()) == 0.0
    old = UnoGymEnv(variant, 2, obs_layout=1)
    two = UnoGymEnv(variant, 2, obs_layout=2)
    rng = np.random.default_rng(3)
    nonzero = 0
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        raw, _ = old.reset(seed=episode)
        prefix, _ = two.reset(seed=episode)
        done = False
        steps = 0
        while not done and steps < 300:
            mask = obs["action_mask"]
            x = obs["observation"]
            assert space.contains(x)
            np.testing.assert_array_equal(x, lay(raw["observation"], mask))
            # layout 3 starts with layout 2
            np.testing.assert_array_equal(x[: two.layout.size], prefix["observation"])
            _check_counts(lay, x, env.game, 0, mask)
            _check_actions(lay, x, env.game, 0, mask)
            nonzero += int(x[lay.slice("actions")].any())
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, _, term, trunc, _ = env.step(a)
            raw, *_ = old.step(a)
            prefix, *_ = two.step(a)
            done = term or trunc
            steps += 1
    assert nonzero > 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_3_is_the_same_in_the_batched_and_aec_envs(
    variant: str, aec_observes_its_layout: Callable[[str, int], None]
) -> None:
    vec = MODULES[variant].vector_env(6, 3, seed=9, obs_layout=3)
    ref = UnoVectorEnv(variant, 6, 3, seed=9, backend="reference", obs_layout=3)
    assert isinstance(vec.layout, ActionLayout)
    out, expect = vec.reset(), ref.reset()
    assert out.observation.shape == (6, vec.layout.size)
    assert (vec.observation_high == 1).all()
    rng = np.random.default_rng(2)
    for _ in range(120):
        np.testing.assert_array_equal(out.observation, expect.observation)
        assert out.observation.min() >= 0 and out.observation.max() <= 1
        for i in (0, 5):
            g = vec.to_game(i)
            seat = int(out.current_player[i])
            if not g.catch_window():
                x = vec.layout(vec.encoder.encode_game(g, seat), out.action_mask[i])
                np.testing.assert_allclose(out.observation[i], x, rtol=0, atol=1e-6)
                _check_actions(vec.layout, out.observation[i], g, seat, out.action_mask[i])
        a = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out, expect = vec.step(a), ref.step(a)
    aec_observes_its_layout(variant, 3)
