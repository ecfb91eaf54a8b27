"""The environments as RL libraries use them (issue 18): render modes that
Stable-Baselines3 and PettingZoo's render test ask for, the action mask through
Gymnasium's wrappers, the checkers of Gymnasium and SB3, and the reward options
(stall_reward, step_cost, norm_points) of the AEC and Gymnasium environments."""

from __future__ import annotations

import random
import warnings
from types import ModuleType

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import render_test

from unokit import Game, OptionError
from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.gym import GYM_IDS, UnoGymEnv
from unokit.envs.rewards import POINTS_SCALE, RewardSpec

MODULES = [uno_classic_v0, uno_flip_v0, uno_flex_v0]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_pettingzoo_render_test_passes(
    module: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: module.env(players=2, render_mode=render_mode))
    assert "to act" in capsys.readouterr().out  # "human" printed the table


def test_rgb_array_is_an_image_of_the_table() -> None:
    env = UnoGymEnv("classic", 2, render_mode="rgb_array")
    env.reset(seed=3)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 50
    assert (image < 128).any() and (image == 255).any()  # dark text on white
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not np.array_equal(env.render(), image) or env._done


def test_unknown_render_modes_are_rejected() -> None:
    with pytest.raises(OptionError, match="render_mode must be None or one of ansi, human"):
        UnoGymEnv("classic", 2, render_mode="rgb_array_list")
    with pytest.raises(OptionError, match="render_mode"):
        uno_flip_v0.env(render_mode="video")


def test_sb3_make_vec_env_and_check_env() -> None:
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    from stable_baselines3.common.env_checker import check_env

    vec = env_util.make_vec_env(GYM_IDS["classic"], n_envs=2, seed=0)
    obs = vec.reset()
    # layout 5 (the default): layout 2 (the 181 raw values scaled, then 42
    # features) without the 2 x 54 values of the top card and the discard
    # pile (layout 4), then the colour held most, one-hot
    assert obs["observation"].shape == (2, 119) and obs["action_mask"].shape == (2, 70)
    masks = np.stack(vec.env_method("action_masks"))
    assert (masks == obs["action_mask"]).all()
    vec.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for variant in ("classic", "flip", "flex"):
            check_env(UnoGymEnv(variant, 2), warn=True)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_gymnasium_checker_and_mask_through_wrappers(variant: str) -> None:
    env = gymnasium.make(GYM_IDS[variant], players=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    obs, info = env.reset(seed=5)
    # gymnasium.make wraps the environment: the mask is in info, and
    # env.unwrapped.action_masks() reaches the method
    np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
    np.testing.assert_array_equal(env.unwrapped.action_masks(), obs["action_mask"])
    np.testing.assert_array_equal(env.get_wrapper_attr("action_masks")(), obs["action_mask"])
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, _, terminated, truncated, info = env.step(action)
    np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])


def test_observations_stay_within_the_box() -> None:
    """The Box bounds are honest: every observation of long random rounds lies
    in them, and a hand or discard count never exceeds its card's copies."""
    for variant in ("classic", "flip", "flex"):
        env = UnoGymEnv(variant, 3, max_steps=None, obs_layout=1)
        space = env.observation_space["observation"]
        assert isinstance(space, gymnasium.spaces.Box)
        hand = env.encoder.slice("hand")
        assert space.high[hand].max() <= 4 < space.high.max()
        rnd = random.Random(0)
        for seed in range(6):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                assert space.contains(obs["observation"]), variant
                legal = np.flatnonzero(obs["action_mask"])
                obs, _, term, trunc, _ = env.step(int(legal[rnd.randrange(len(legal))]))
                done = term or trunc


# ---------------------------------------------------------------- reward options


def test_reward_spec_values() -> None:
    values = [[10, 25, 40], [3, 0, 8]]
    points = RewardSpec("points").outcome(values, [-1, 1])
    np.testing.assert_array_equal(points, [[-10, -25, -40], [-3, 11, -8]])
    norm = RewardSpec("norm_points").outcome(values, [-1, 1])
    np.testing.assert_allclose(norm, points / POINTS_SCALE)
    win = RewardSpec("win").outcome(values, [-1, 1])
    np.testing.assert_allclose(win, [[-0.5, -0.5, -0.5], [-0.5, 1.0, -0.5]])
    zero = RewardSpec("win", stall_reward="zero").outcome(values, [-1, 1])
    np.testing.assert_allclose(zero, [[0, 0, 0], [-0.5, 1.0, -0.5]])
    for bad in (
        {"reward": "score"},
        {"stall_reward": "draw"},
        {"step_cost": -0.1},
        {"step_cost": float("nan")},
        {"step_cost": True},
    ):
        with pytest.raises(OptionError):
            RewardSpec(**bad)  # type: ignore[arg-type]


def _blocked_position() -> Game:
    """Nothing to draw, and neither seat can play on the yellow 5."""
    return Game.setup(
        "classic", 2, hands=[["R1", "G7", "R3"], ["B2", "B4", "B9"]], discard=["Y5"],
        draw=[], current=0,
    )  # fmt: skip


@pytest.mark.parametrize("stall_reward", ["loss", "zero"])
def test_aec_truncation_and_step_cost(stall_reward: str) -> None:
    env = uno_classic_v0.env(players=3, max_steps=5, stall_reward=stall_reward, step_cost=0.5)
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    decisions = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        decisions[agent] += 1
    assert sum(decisions.values()) == 5 and env.game.phase < 4
    for s, agent in enumerate(env.possible_agents):
        stall = -env.game.hand_value(s) if stall_reward == "loss" else 0.0
        assert total[agent] == pytest.approx(stall - 0.5 * decisions[agent]), agent


def test_gym_step_cost_is_charged_every_decision() -> None:
    a = UnoGymEnv("flex", 2, step_cost=0.25)
    b = UnoGymEnv("flex", 2)
    for env in (a, b):
        env.reset(seed=8)
    rnd_a, rnd_b = random.Random(1), random.Random(1)
    done, steps = False, 0
    while not done:
        la, lb = np.flatnonzero(a.action_masks()), np.flatnonzero(b.action_masks())
        np.testing.assert_array_equal(la, lb)
        _, ra, ta, tra, _ = a.step(int(la[rnd_a.randrange(len(la))]))
        _, rb, _, _, _ = b.step(int(lb[rnd_b.randrange(len(lb))]))
        assert ra == pytest.approx(rb - 0.25)
        done, steps = ta or tra, steps + 1
    assert steps > 1


@pytest.mark.parametrize("stall_reward", ["loss", "zero"])
def test_blocked_round_is_worth_a_loss_or_nothing(stall_reward: str) -> None:
    env = uno_classic_v0.raw_env(players=2, stall_reward=stall_reward)
    env.reset(seed=0)
    env.reset_to(_blocked_position())
    draw = env.table.names.index("DRAW")
    for _ in range(2):  # neither seat can play or draw: the round is blocked
        assert env.legal_actions() == [draw]  # no playable card, no UNO to call
        env.step(draw)
    game = env.game
    assert game.phase >= 4 and game.winner < 0  # blocked
    want = [-game.hand_value(0), -game.hand_value(1)] if stall_reward == "loss" else [0, 0]
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == want
    assert all(env.terminations.values())


def test_norm_points_is_points_scaled() -> None:
    a = UnoGymEnv("flip", 2, reward="norm_points")
    b = UnoGymEnv("flip", 2, reward="points")
    for seed in range(3):
        rnd = random.Random(seed)
        obs, _ = a.reset(seed=seed)
        b.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rnd.randrange(len(legal))])
            obs, ra, ta, tra, _ = a.step(action)
            _, rb, _, _, _ = b.step(action)
            done = ta or tra
        assert rb != 0 and ra == pytest.approx(rb / POINTS_SCALE)
