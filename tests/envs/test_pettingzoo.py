"""The PettingZoo AEC environments: API and seed tests, rewards, masks, illegal
actions, UNO calls and catches, rendering, episodes."""

from __future__ import annotations

import random
import warnings
from types import ModuleType

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from unokit import Game, IllegalActionError, OptionError
from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs._base import round_rewards

MODULES = [uno_classic_v0, uno_flip_v0, uno_flex_v0]

# PettingZoo's checker expects bare arrays; dict observations with an action mask
# (the convention of its own classic environments) always draw these two.
DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
@pytest.mark.parametrize("players", [2, 4])
def test_api_and_seed(module: ModuleType, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(module.env(players=players), num_cycles=300)
        seed_test(lambda: module.env(players=players), num_cycles=300)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBS_WARNINGS)
    ]
    assert unexpected == []


def _play(env, rnd: random.Random, limit: int = 100_000) -> int:
    """Random masked actions until every agent is done; returns decisions made."""
    steps = 0
    for agent in env.agent_iter(limit):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, f"{agent} must act but has no legal action"
        env.step(int(legal[rnd.randrange(len(legal))]))
        steps += 1
    return steps


def test_reset_seed_deals_the_engine_game() -> None:
    env = uno_flip_v0.raw_env(players=3, stacking="same_symbol")
    env.reset(seed=1234)
    g = Game.new("flip", 3, {"stacking": "same_symbol"}, seed=1234, events=False)
    assert env.game == g
    assert env.agent_selection == f"player_{g.current}"
    env.reset()  # the next episode: seed + 1
    assert env.game == Game.new("flip", 3, {"stacking": "same_symbol"}, seed=1235, events=False)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
@pytest.mark.parametrize("reward", ["points", "win"])
def test_round_rewards_follow_the_engine_scoring(module: ModuleType, reward: str) -> None:
    rnd = random.Random(3)
    for seed in range(4):
        env = module.raw_env(players=3, reward=reward)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(200_000):
            obs, r, term, trunc, _ = env.last()
            totals[agent] += r
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))
        g = env.game
        assert g.phase >= 4 and not env.agents
        expected = round_rewards(g, reward)
        assert [totals[a] for a in env.possible_agents] == pytest.approx(expected)
        assert sum(expected) == pytest.approx(0.0)
        if g.winner >= 0 and reward == "points":
            assert expected[g.winner] == g.round_points > 0
            for s in range(3):
                if s != g.winner:
                    assert expected[s] == -g.hand_value(s)


def test_match_episode_plays_rounds_until_the_match_is_over() -> None:
    env = uno_classic_v0.raw_env(players=2, episode="match", targetScore=150)
    env.reset(seed=5)
    rnd = random.Random(5)
    _play(env, rnd)
    g = env.game
    assert g.is_over and g.round_no >= 2
    assert max(g.scores) >= 150


def test_mask_is_the_observation_legal_actions_of_the_agent_to_act() -> None:
    env = uno_flex_v0.raw_env(players=3)
    env.reset(seed=8)
    rnd = random.Random(8)
    table = env.table
    for _ in range(300):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        seat = env.game.current
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            if other != agent:
                assert not mask.any()
        obs = env.game.observe(seat)
        expected = sorted(table.index(seat, env.game.encode(a)) for a in obs.legal)
        mask = env.observe(agent)["action_mask"]
        assert list(np.flatnonzero(mask)) == expected
        assert env.legal_actions() == expected
        env.step(expected[rnd.randrange(len(expected))])


def _uno_position() -> Game:
    # P0 to play with two cards; P1 holds three
    return Game.setup(
        "classic",
        2,
        hands=[["R1", "G7"], ["B2", "B3", "Y4"]],
        draw=["Y9", "G1", "G2", "G3"],
        discard=["R5"],
        current=0,
    )


def test_uno_call_is_an_action_that_keeps_the_turn() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_uno_position())
    t = env.table
    uno, play = t.index_of("UNO"), t.index_of("PLAY R1")
    assert {uno, play} <= set(env.legal_actions())
    env.step(uno)
    assert env.agent_selection == "player_0"
    assert uno not in env.legal_actions()
    env.step(play)
    assert env.game.uno_state(0).name == "SAFE"
    assert t.index_of("CATCH +1") not in env.legal_actions()  # nothing to catch


def test_forgetting_uno_lets_the_next_agent_catch() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_uno_position())
    t = env.table
    env.step(t.index_of("PLAY R1"))
    assert env.game.uno_state(0).name == "VULNERABLE"
    assert env.agent_selection == "player_1"
    catch = t.index_of("CATCH +1")
    assert catch in env.legal_actions()
    env.step(catch)
    assert len(env.game.hands[0]) == 3  # caught: two penalty cards
    assert env.agent_selection == "player_1"  # a catch does not end the turn
    assert catch not in env.legal_actions()


def test_illegal_action_terminates_with_the_penalty() -> None:
    env = uno_classic_v0.env(players=2, illegal_reward=-5.0)
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.unwrapped.game.state_tuple()
    illegal = next(i for i in range(env.unwrapped.table.size)
                   if i not in env.unwrapped.legal_actions())  # fmt: skip
    env.step(illegal)
    assert env.unwrapped.game.state_tuple() == before
    assert all(env.terminations.values())
    assert env.rewards[agent] == -5.0
    assert env.infos[agent] == {"illegal_action": illegal}
    _, r, term, _, _ = env.last()
    assert term and not env.observe(agent)["action_mask"].any()


def test_illegal_action_can_raise_and_change_nothing() -> None:
    env = uno_classic_v0.raw_env(players=2, illegal="raise")
    env.reset(seed=2)
    before = env.game.state_tuple()
    illegal = next(i for i in range(env.table.size) if i not in env.legal_actions())
    with pytest.raises(IllegalActionError, match=f"cannot take action {illegal}"):
        env.step(illegal)
    assert env.game.state_tuple() == before
    assert not any(env.terminations.values())


@pytest.mark.parametrize("bad", [70, -1, 2.5, "3", True, None])
def test_not_an_action_raises(bad: object) -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset(seed=2)
    before = env.game.state_tuple()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.game.state_tuple() == before


def test_numpy_integer_actions_are_accepted() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset(seed=2)
    env.step(np.int64(env.legal_actions()[0]))
    env.reset(seed=2)
    env.step(np.array(env.legal_actions()[0]))


def test_render_shows_only_the_acting_hand() -> None:
    env = uno_classic_v0.env(players=2, render_mode="ansi")
    env.reset(seed=0)
    env.unwrapped.reset_to(_uno_position())
    text = env.render()
    assert "P0 holds: R1 G7" in text
    assert "B2" not in text and "Y4" not in text and "Y9" not in text
    assert "PLAY R1" in text and "UNO" in text
    assert uno_classic_v0.raw_env(players=2).render_mode is None


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(OptionError, match="2 to 8 players"):
        uno_flex_v0.raw_env(players=9)
    with pytest.raises(OptionError, match="reward must be one of"):
        uno_classic_v0.raw_env(reward="score")
    with pytest.raises(OptionError, match="unknown option"):
        uno_classic_v0.raw_env(stackin="same_symbol")
    with pytest.raises(OptionError, match="render_mode"):
        uno_classic_v0.raw_env(render_mode="rgb_array_list")
    with pytest.raises(OptionError, match="cannot deal"):
        uno_classic_v0.raw_env(players=10, handSize=20)
    env = uno_classic_v0.raw_env(players=2)
    with pytest.raises(OptionError, match="flip with 2 players"):
        env.reset_to(Game.new("flip", 2, seed=1))
    with pytest.raises(OptionError, match="seed must be an integer"):
        env.reset(seed="7")  # type: ignore[arg-type]


def test_calls_out_of_order_raise() -> None:
    env = uno_classic_v0.env(players=2, render_mode="ansi")
    for call in (lambda: env.step(0), lambda: env.last(), lambda: env.observe("player_0"),
                 env.render):  # fmt: skip
        with pytest.raises(IllegalActionError, match="call reset"):
            call()
    env.reset(seed=1)
    _play(env, random.Random(1))
    assert env.agents == []
    with pytest.raises(IllegalActionError, match="the episode is over"):
        env.step(0)
    env.reset(seed=1)  # and a new episode starts
    assert len(env.agents) == 2


def test_max_steps_truncates_the_episode() -> None:
    env = uno_classic_v0.env(players=3, max_steps=5)
    env.reset(seed=3)
    steps = _play(env, random.Random(3))
    assert steps == 5 and env.game.phase < 4  # the round was cut, not finished
    assert env.agents == []
    with pytest.raises(OptionError, match="max_steps"):
        uno_classic_v0.env(max_steps=0)


def test_copies_and_pickles_play_on_alike() -> None:
    """The game lives in the C core; copy.deepcopy and pickle carry it (and a
    catch window in progress) as plain values."""
    import copy
    import pickle

    from unokit.envs.gym import UnoGymEnv

    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_uno_position())
    t = env.table
    env.step(t.index_of("PLAY R1"))  # down to one card, UNO not called: P1 acts next
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    rnd = random.Random(0)
    for _ in range(60):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        obs = env.observe(env.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rnd.randrange(len(legal))])
        for twin in twins:
            other = twin.observe(twin.agent_selection)
            assert twin.agent_selection == env.agent_selection
            assert np.array_equal(other["observation"], obs["observation"])
            assert np.array_equal(other["action_mask"], obs["action_mask"])
            twin.step(action)
        env.step(action)
    for twin in twins:
        assert twin.game == env.game and twin.rewards == env.rewards
    gym = UnoGymEnv("flip", players=3)
    obs, _ = gym.reset(seed=4)
    clone = pickle.loads(pickle.dumps(gym))
    action = int(np.flatnonzero(obs["action_mask"])[0])
    a, b = gym.step(action), clone.step(action)
    assert np.array_equal(a[0]["observation"], b[0]["observation"]) and a[1:4] == b[1:4]
