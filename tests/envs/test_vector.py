"""The batched environments (unokit.envs.vector) of every variant.

The core of the proof is the differential check: the batch on the rules core
and the same games played by the engine (the ``reference`` backend) give the
same arrays at every step, under every variant and many options
(:func:`unokit.envs.differential.vector_differential`); and the reference
backend's rounds are the engine's ``Game.new(seed=...)`` rounds, stepped with
the single-game environment's logic (catch windows, rewards, truncation).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from unokit import Game
from unokit.engine.errors import IllegalActionError, OptionError
from unokit.engine.game import Phase
from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0
from unokit.envs.differential import Disagreement, vector_differential
from unokit.envs.vector import BACKENDS, UnoClassicVectorEnv, UnoVectorEnv, VectorStep

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}
_ROUND_OVER = int(Phase.ROUND_OVER)

OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"stacking": "same_symbol", "sevenZero": True, "handSize": 5}),
    ("classic", 2, {"stacking": "escalate", "drawUntilPlayable": True, "forcedPlay": True}),
    ("classic", 5, {"noBluff": True, "unoPenalty": 4, "blockedRound": "lowest_hand_wins"}),
    ("flip", 2, {}),
    ("flip", 4, {"flipDrawColorCap": 6, "flipExposedWildChooser": "next_player"}),
    ("flip", 3, {"flipPairing": "random_seeded", "sevenZero": True}),
    ("flex", 2, {}),
    ("flex", 4, {"flexFlexSideWD4Restricted": True, "flexWildsCountAsMatch": True}),
    ("flex", 3, {"stacking": "same_symbol"}),
]


@pytest.mark.parametrize(("variant", "players", "options"), OPTION_SETS)
def test_the_core_batch_plays_like_the_engine(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    seen: Counter[str] = Counter()
    compared = vector_differential(
        variant, players, options, seed=players, num_envs=6, steps=250, seen=seen
    )
    assert compared == 6 * 250 and seen["terminated"] + seen["truncated"] > 0


@pytest.mark.parametrize(
    "rewards",
    [
        {"reward": "win", "stall_reward": "zero", "step_cost": 0.01},
        {"reward": "norm_points", "max_steps": 40},
    ],
)
def test_reward_options_and_truncation_play_like_the_engine(rewards: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for variant in ("classic", "flip", "flex"):
        vector_differential(variant, 3, {}, seed=5, num_envs=4, steps=120, seen=seen, **rewards)
    assert seen["terminated"] > 0
    assert (seen["truncated"] > 0) == ("max_steps" in rewards)


def test_catch_windows_of_random_play_play_like_the_engine() -> None:
    seen: Counter[str] = Counter()
    for variant in ("classic", "flip", "flex"):
        vector_differential(variant, 2, {}, seed=9, num_envs=8, steps=200, seen=seen)
    assert seen["window"] > 0


def test_the_differential_check_finds_a_difference() -> None:
    """A batch whose games are dealt from other seeds than the engine's fails
    the check at once (the check can fail)."""
    fast = UnoVectorEnv("classic", 3, 2, seed=1, backend="core")
    ref = UnoVectorEnv("classic", 3, 2, seed=2, backend="reference")
    from unokit.envs.differential import _compare

    with pytest.raises(Disagreement, match="step 0: observation differs"):
        _compare(fast.reset(), ref.reset(), 0)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_rounds_are_engine_games_from_consecutive_seeds(variant: str) -> None:
    """Game i starts as Game.new(seed=seed+i); a round dealt by an automatic reset
    takes the next unused seed; the first rows are the engine's observations."""
    env = MODULES[variant].vector_env(5, players=3, seed=40, obs_layout=1)  # the raw vector
    out = env.reset()
    assert env.seeds.tolist() == [40, 41, 42, 43, 44]
    for i in range(5):
        g = Game.new(variant, 3, seed=40 + i, events=False)
        assert out.current_player[i] == g.current
        assert np.array_equal(out.observation[i], env.encoder.encode_game(g, g.current))
        assert env.to_game(i).state_tuple() == g.state_tuple()
    rng = np.random.default_rng(0)
    ended: list[int] = []
    for _ in range(3000):
        out = env.step(_random_actions(out, rng))
        ended += np.flatnonzero(out.terminated | out.truncated).tolist()
        if len(ended) >= 3:
            break
    assert len(ended) >= 3
    assert sorted(env.seeds.tolist())[-1] == 44 + len(ended)
    for i in set(ended):
        s = int(env.seeds[i])
        assert s >= 45
    # the last round dealt: the engine's game of that seed, at its start or later
    i = ended[-1]
    replay = Game.new(variant, 3, seed=int(env.seeds[i]), events=False)
    assert env.to_game(i).round_no == replay.round_no


def _random_actions(out: VectorStep, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)


def _same(x: VectorStep, y: VectorStep) -> bool:
    return all(
        np.array_equal(getattr(x, f), getattr(y, f))
        for f in ("observation", "action_mask", "current_player", "rewards", "terminated")
    )


def test_catch_window() -> None:
    """At two players a Skip played down to one card without UNO leaves the seat
    to act again: the other seat is offered the catch first (CATCH +1 or PASS);
    to_game gives the engine position; a catch is the engine's catch."""
    g = Game.setup(
        "classic", 2, hands=[["RS", "R1"], ["B3", "G4"]], draw=["G7", "B1"], discard=["R5"],
        current=0, events=False,
    )  # fmt: skip
    env = UnoClassicVectorEnv(2, 2, max_steps=3, obs_layout=1)
    at = env.table.index_of
    env.reset_from([g, g])
    out = env.step(np.full(2, at("PLAY RS")))
    assert out.current_player.tolist() == [1, 1] and not out.terminated.any()
    assert np.flatnonzero(out.action_mask[0]).tolist() == [at("PASS"), at("CATCH +1")]
    position = env.to_game(0)
    assert (position.current, position.vulnerable, position.catch_window()) == (0, 0, [1])
    assert np.array_equal(out.observation[0], env.encoder.encode_game(position, 1))
    with pytest.raises(IllegalActionError, match=r"game 1 \(P1 to act\) cannot take .*DRAW"):
        env.step(np.array([at("PASS"), at("DRAW")]))
    out = env.step(np.array([at("CATCH +1"), at("PASS")]))  # as if nothing was tried
    assert out.current_player.tolist() == [0, 0]
    sizes = out.observation[:, env.encoder.slice("hand_sizes")]
    assert sizes.tolist() == [[3.0, 2.0], [1.0, 2.0]]
    assert out.action_mask[1, at("UNO")] and not out.action_mask[0, at("UNO")]
    assert not out.truncated.any()
    out = env.step(np.array([at("DRAW"), at("UNO")]))  # decision 3: truncated
    assert out.truncated.tolist() == [True, True]


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_seed_same_games_and_reset_reseeds(backend: str) -> None:
    envs = [UnoVectorEnv("flip", 16, 2, seed=7, backend=backend) for _ in range(2)]
    other = UnoVectorEnv("flip", 16, 2, seed=3, backend=backend)
    outs = [e.reset() for e in envs]
    reseeded = other.reset(seed=7)
    assert _same(outs[0], outs[1]) and _same(outs[0], reseeded)
    rngs = [np.random.default_rng(1) for _ in range(3)]
    ended = 0
    for _ in range(400):
        outs = [e.step(_random_actions(o, r)) for e, o, r in zip(envs, outs, rngs[:2], strict=True)]
        reseeded = other.step(_random_actions(reseeded, rngs[2]))
        assert _same(outs[0], outs[1]) and _same(outs[0], reseeded)
        ended += int(outs[0].terminated.sum())
    assert ended > 0
    fresh = UnoVectorEnv("flip", 16, 2, seed=8, backend=backend).reset()
    assert not np.array_equal(fresh.observation, envs[0].reset(seed=7).observation)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_automatic_reset_returns_the_new_round(variant: str) -> None:
    players = 3
    env = MODULES[variant].vector_env(32, players, seed=4, obs_layout=1)
    out = env.reset()
    rng = np.random.default_rng(0)
    seen = 0
    size_at = env.encoder.slice("hand_sizes")
    discard_at = env.encoder.slice("discard")
    for _ in range(4000):
        seeds = env.seeds
        out = env.step(_random_actions(out, rng))
        for i in np.flatnonzero(out.terminated).tolist():
            seen += 1
            r = out.rewards[i]
            assert r.sum() == 0 and (r <= 0).sum() >= players - 1
            # the row already shows the new round's first decision
            g = Game.new(variant, players, seed=int(env.seeds[i]), events=False)
            assert env.seeds[i] > seeds.max()
            assert out.observation[i, size_at].tolist() == [
                len(g.hands[(g.current + k) % players]) for k in range(players)
            ]
            assert out.observation[i, discard_at].sum() == len(g.discard)
            assert out.action_mask[i].any() and not out.truncated[i]
        live = ~out.terminated
        assert not out.rewards[live].any()
        if seen >= 5:
            break
    assert seen >= 5


@pytest.mark.parametrize("stall_reward", ["loss", "zero"])
def test_truncation_after_max_steps(stall_reward: str) -> None:
    env = uno_flex_v0.vector_env(8, 2, seed=1, max_steps=5, stall_reward=stall_reward)
    out = env.reset()
    rng = np.random.default_rng(0)
    truncated = 0
    for k in range(1, 11):
        before = [env.to_game(i) for i in range(env.num_envs)]
        out = env.step(_random_actions(out, rng))
        truncated += int(out.truncated.sum())
        assert not (out.truncated & out.terminated).any()
        for i in np.flatnonzero(out.truncated):
            if stall_reward == "zero":
                assert not out.rewards[i].any()
            else:
                assert (out.rewards[i] < 0).all()
                values = [before[i].hand_value(s) for s in range(2)]
                assert all(abs(-r - v) <= 60 for r, v in zip(out.rewards[i], values, strict=True))
        if k < 5:
            assert not out.truncated.any()
    assert truncated > 0
    with pytest.raises(OptionError, match="max_steps"):
        uno_flex_v0.vector_env(8, 2, max_steps=0)


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = uno_flip_v0.vector_env(6, 2, seed=2)
    twin = uno_flip_v0.vector_env(6, 2, seed=2)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(np.zeros(6, dtype=np.int64))
    out = env.reset()
    assert _same(out, twin.reset())
    legal = _random_actions(out, np.random.default_rng(0))
    not_legal = legal.copy()
    not_legal[3] = int(np.flatnonzero(out.action_mask[3] == 0)[0])
    size = env.num_actions
    for bad, match in (
        (not_legal, r"game 3 \(P\d to act\) cannot take .*; legal: "),
        (legal[:5], r"shape \(6,\)"),
        (legal.reshape(2, 3), r"shape \(6,\)"),
        (legal.astype(np.float64), "dtype float64"),
        (legal.astype(bool), "dtype bool"),
        (np.full(6, size), f"outside the action table \\(0..{size - 1}\\)"),
        (np.full(6, -1), "outside the action table"),
        ([str(a) for a in legal], "dtype <U"),
        (None, "shape"),
        (3, "shape"),
    ):
        with pytest.raises(IllegalActionError, match=match):
            env.step(bad)
    # the environment checks against its own copy of the masks, not the arrays it returned
    out.action_mask[:] = 1
    with pytest.raises(IllegalActionError, match=r"game 3 .*cannot take"):
        env.step(not_legal)
    assert _same(env.step(legal.tolist()), twin.step(legal))


def test_options_and_arguments() -> None:
    with pytest.raises(OptionError, match="unknown option"):
        UnoClassicVectorEnv(4, 2, nonsense=1)
    with pytest.raises(OptionError, match="2 to 10 players"):
        UnoClassicVectorEnv(4, 11)
    with pytest.raises(OptionError, match="2 to 8 players"):
        uno_flex_v0.vector_env(4, 9)
    with pytest.raises(OptionError, match="reward"):
        UnoClassicVectorEnv(4, 2, reward="score")
    with pytest.raises(OptionError, match="backend"):
        UnoClassicVectorEnv(4, 2, backend="numpy")
    for bad in (0, -1, 2.5, True):
        with pytest.raises(OptionError, match="num_envs"):
            UnoClassicVectorEnv(bad)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="seed"):
        UnoClassicVectorEnv(4, seed=-3)
    with pytest.raises(OptionError, match="seed"):
        UnoClassicVectorEnv(4, seed=2**62)
    with pytest.raises(OptionError, match="seed"):
        UnoClassicVectorEnv(4).reset(seed="x")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="handSize"):
        UnoClassicVectorEnv(4, 10, handSize=11)
    # every option is played; the tables are the AEC environment's
    for variant, players, options in OPTION_SETS:
        v = MODULES[variant].vector_env(3, players, seed=1, **options)
        aec = MODULES[variant].raw_env(players=players, **options)
        assert v.table.names == aec.table.names
        assert v.reset().observation.shape == (3, aec.layout.size)
        assert np.array_equal(v.encoder.high, aec.encoder.high)
        assert v.observation_size == aec.observation_space("player_0")["observation"].shape[0]


def test_reset_from_checks_its_games() -> None:
    env = UnoClassicVectorEnv(2, 2)
    g = Game.new("classic", 2, seed=1, events=False)
    with pytest.raises(OptionError, match="needs 2 games"):
        env.reset_from([g])
    with pytest.raises(OptionError, match="flip with 2 players"):
        env.reset_from([g, Game.new("flip", 2, seed=1, events=False)])
    with pytest.raises(OptionError, match="3 players"):
        env.reset_from([g, Game.new("classic", 3, seed=1, events=False)])
    with pytest.raises(OptionError, match="other options"):
        env.reset_from([g, Game.new("classic", 2, {"stacking": "same_symbol"}, seed=1)])
    with pytest.raises(OptionError, match="not a unokit Game"):
        env.reset_from([g, "P0 PLAY R1"])  # type: ignore[list-item]
    over = Game.setup("classic", 2, hands=[["R1"], ["B2"]], discard=["R5"], current=0)
    over.apply("P0 PLAY R1")
    with pytest.raises(OptionError, match="waits for no decision"):
        env.reset_from([g, over])
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([0, 0])  # the failed calls started nothing
    out = env.reset_from([g, g])
    assert np.array_equal(out.observation[0], out.observation[1])
    assert env.seeds.tolist() == [-1, -1]
    with pytest.raises(IndexError):
        env.to_game(2)
    copy = env.to_game(0)
    copy.hands[0].clear()
    assert len(env.to_game(0).hands[0]) == 7  # a copy


def test_positions_continue_like_the_engine() -> None:
    """Positions exported with to_game conserve the deck, and a batch started
    from them (reset_from) shows the same arrays."""
    env = uno_flip_v0.vector_env(24, 3, seed=5)
    out = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        out = env.step(_random_actions(out, rng))
    games = [env.to_game(i) for i in range(env.num_envs)]
    for g in games:
        g.check_invariants(Counter(g.variant.deck(g.options, 0)))
    again = uno_flip_v0.vector_env(24, 3, seed=0).reset_from(games)
    for field in ("observation", "action_mask", "current_player"):
        assert np.array_equal(getattr(again, field), getattr(out, field)), field


def test_fuzz_vector_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m unokit.testing.fuzz --vector``: the differential check over the
    fuzzer's random configurations (variants, players, options, handSize)."""
    from unokit.testing.fuzz import fuzz_vector, main

    stats = fuzz_vector(configs=4, seed=10, num_envs=2, steps=40)
    assert stats.configs == 4 and stats.decisions == 4 * 2 * 40 and not stats.failures
    assert sum(stats.variants.values()) == 4
    assert main(["--vector", "--matches", "2", "--seed", "20"]) == 0
    assert "batched environment: 2 configurations" in capsys.readouterr().out
