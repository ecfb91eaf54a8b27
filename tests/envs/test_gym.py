"""The Gymnasium single-agent wrapper: env_checker, bots, rewards, seeds."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from unokit import OptionError
from unokit.bots import make_bot
from unokit.bots.random import RandomBot
from unokit.envs._base import round_rewards
from unokit.envs.gym import GYM_IDS, UnoGymEnv


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_check_env(variant: str, opponent: str) -> None:
    env = gymnasium.make(GYM_IDS[variant], players=2, opponent=opponent, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def _episode(env: UnoGymEnv, seed: int, rnd: random.Random) -> tuple[list, float, dict]:
    obs, _ = env.reset(seed=seed)
    trace = [obs["observation"].copy()]
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert env.game.current == env.seat  # the agent is asked only for its decisions
        obs, reward, terminated, truncated, info = env.step(int(legal[rnd.randrange(len(legal))]))
        trace.append(obs["observation"].copy())
        assert not truncated
        # the mask also travels in info, where Gymnasium's wrappers pass it on
        np.testing.assert_array_equal(info.pop("action_mask"), obs["action_mask"])
        if terminated:
            return trace, reward, info
        assert reward == 0.0


def test_fast_random_opponent_equals_the_random_bot() -> None:
    fast = UnoGymEnv("classic", 3, opponent="random")
    slow = UnoGymEnv("classic", 3, opponent=lambda seat, seed: RandomBot(seed=seed))
    assert fast._fast_random and not slow._fast_random
    for seed in range(5):
        a = _episode(fast, seed, random.Random(seed))
        b = _episode(slow, seed, random.Random(seed))
        assert len(a[0]) == len(b[0])
        for x, y in zip(a[0], b[0], strict=True):
            np.testing.assert_array_equal(x, y)
        assert a[1:] == b[1:]
        assert fast.game == slow.game


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_reward_is_the_seat_round_reward(variant: str) -> None:
    env = UnoGymEnv(variant, 4, seat=2, opponent="heuristic")
    rnd = random.Random(1)
    for seed in range(3):
        _, reward, info = _episode(env, seed, rnd)
        g = env.game
        assert g.phase >= 4
        assert reward == pytest.approx(round_rewards(g, "points")[2])
        assert info["winner"] == (None if g.winner < 0 else g.winner)
        assert not env.action_masks().any()


def test_seeds_make_episodes_reproducible() -> None:
    a, b = UnoGymEnv("flip", 2), UnoGymEnv("flip", 2)
    assert _episode(a, 42, random.Random(0))[1:] == _episode(b, 42, random.Random(0))[1:]
    oa, info_a = a.reset()
    ob, info_b = b.reset()
    np.testing.assert_array_equal(info_a.pop("action_mask"), oa["action_mask"])
    np.testing.assert_array_equal(info_b.pop("action_mask"), ob["action_mask"])
    assert info_a == info_b
    np.testing.assert_array_equal(oa["observation"], ob["observation"])


def test_illegal_action_ends_the_episode_without_changing_the_game() -> None:
    env = UnoGymEnv("classic", 2, illegal_reward=-3.0)
    obs, _ = env.reset(seed=4)
    before = env.game.state_tuple()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert not info.pop("action_mask").any()
    assert (reward, terminated, info) == (-3.0, True, {"illegal_action": illegal})
    assert env.game.state_tuple() == before
    with pytest.raises(OptionError, match="call reset"):
        env.step(0)


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(OptionError, match="unknown bot"):
        UnoGymEnv("classic", 2, opponent="grandmaster")
    with pytest.raises(OptionError, match="seat must be one of"):
        UnoGymEnv("classic", 2, seat=2)
    with pytest.raises(OptionError, match="2 to 10 players"):
        UnoGymEnv("classic", 1)
    with pytest.raises(OptionError, match="unknown option"):
        UnoGymEnv("classic", 2, colour="R")


@pytest.mark.parametrize(
    ("stall_reward", "reward_mode"), [("loss", "points"), ("zero", "points"), ("loss", "win")]
)
def test_max_steps_truncates(stall_reward: str, reward_mode: str) -> None:
    env = UnoGymEnv("flip", 2, max_steps=3, stall_reward=stall_reward, reward=reward_mode)
    obs, _ = env.reset(seed=0)
    for i in range(3):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        assert not terminated and truncated == (i == 2)
        if i < 2:
            assert reward == 0.0
    assert env.game.phase < 4 and not env.action_masks().any()
    assert info["winner"] is None
    # a cut round is worth a loss (minus the agent's hand, or -1), or 0
    expected = {"zero": 0.0, "loss": -1.0 if reward_mode == "win" else -env.game.hand_value(0)}
    assert reward == expected[stall_reward] and (stall_reward == "zero" or reward < 0)
    with pytest.raises(OptionError, match="call reset"):
        env.step(0)
    with pytest.raises(OptionError, match="max_steps"):
        UnoGymEnv("flip", 2, max_steps=-1)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("players", [2, 3])
def test_the_random_opponent_in_the_core_plays_like_random_bots(variant: str, players: int) -> None:
    """With ``opponent="random"`` the round runs in the rules core; with
    RandomBot instances it runs on Game with the bots' own code. Same seeds,
    same agent actions: the same observations, masks, rewards and ends."""
    fast = UnoGymEnv(variant, players=players, opponent="random")
    slow = UnoGymEnv(
        variant, players=players, opponent=lambda s, seed: make_bot("random", seed=seed)
    )
    assert fast._batch is not None and slow._batch is None
    rnd = random.Random(players)
    steps = ends = 0
    for episode in range(12):
        a, info_a = fast.reset(seed=episode)
        b, info_b = slow.reset(seed=episode)
        assert info_a["seed"] == info_b["seed"] == episode
        while True:
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
            legal = np.flatnonzero(a["action_mask"])
            action = int(legal[rnd.randrange(len(legal))])
            a, reward_a, term_a, trunc_a, _ = fast.step(action)
            b, reward_b, term_b, trunc_b, _ = slow.step(action)
            steps += 1
            assert (reward_a, term_a, trunc_a) == (reward_b, term_b, trunc_b)
            if term_a or trunc_a:
                ends += 1
                assert fast.game.state_tuple()[4:] == slow.game.state_tuple()[4:]
                break
    assert ends == 12 and steps > 100
