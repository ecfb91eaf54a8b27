"""The OpenSpiel games: OpenSpiel's own random-simulation checks on all three,
state serialisation round trips over many seeds, ISMCTS against `heuristic`."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra: pip install 'unokit[openspiel]'"
)

import numpy as np  # noqa: E402

from unokit.bots import make_bot  # noqa: E402
from unokit.envs import openspiel as uo  # noqa: E402

pytestmark = pytest.mark.timeout(300)
NAMES = ["python_uno_classic", "python_uno_flip", "python_uno_flex"]


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_simulation_checks(name: str) -> None:
    # OpenSpiel's own API consistency checks (legal actions, strings and tensors
    # for every player, clones, returns, game length) over random games;
    # short rounds (max_turns) keep uniform-random play bounded
    game = pyspiel.load_game(name, {"players": 3, "rng_seed": 7, "max_turns": 150})
    pyspiel.random_sim_test(game, num_sims=8, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_serialisation_round_trip_over_many_seeds(name: str) -> None:
    # the pyspiel state serialisation (Serialize / DeserializeState); OpenSpiel's
    # game-and-state form needs a C++ RNG state, which Python games do not have
    game = pyspiel.load_game(name, {"players": 2, "stacking": "same_symbol"})
    rng = random.Random(1)
    for seed in range(12):
        state = game.new_initial_state(seed=seed)
        for step in range(60):
            if state.is_terminal():
                break
            if step % 7 == 0:
                copy = game.deserialize_state(state.serialize())
                assert str(copy) == str(state) and copy.history() == state.history()
                for p in range(2):
                    assert copy.information_state_string(p) == state.information_state_string(p)
                    assert copy.observation_tensor(p) == state.observation_tensor(p)
                assert copy.legal_actions() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))


def test_options_are_game_parameters_and_bad_ones_are_refused() -> None:
    game = pyspiel.load_game("python_uno_classic", {"players": 4, "sevenZero": True,
                                                   "reward": "points"})  # fmt: skip
    assert game.num_players() == 4 and game.max_utility() > 1
    assert any("swap=" in n for n in game.table.names)  # 7-0 adds the swap actions
    with pytest.raises(Exception, match="stacking"):
        pyspiel.load_game("python_uno_flip", {"stacking": "always"})
    with pytest.raises(Exception, match="2 to 8 players"):
        pyspiel.load_game("python_uno_flex", {"players": 9})


def test_information_state_is_private_and_resampling_keeps_it() -> None:
    game = pyspiel.load_game("python_uno_flip", {"players": 3, "rng_seed": 3})
    heuristic = make_bot("heuristic", seed=2)
    state = game.new_initial_state(seed=5)
    for _ in range(40):
        if state.is_terminal():
            break
        p = state.current_player()
        sample = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        # the player cannot tell the resampled world from the real one ...
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.legal_actions() == state.legal_actions()
        # ... which differs in the hidden cards, that the others see differently
        other = (p + 1) % 3
        assert state.observation_string(p) != state.observation_string(other)
        state.apply_action(uo.bot_action(state, heuristic))


def test_ismcts_plays_a_match_against_heuristic() -> None:
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_uno_classic", {"players": 2, "rng_seed": 1})
    searcher = ismcts.ISMCTSBot(game=game, evaluator=uo.PlayoutEvaluator(n_rollouts=2, seed=1),
                                uct_c=2.0, max_simulations=25,
                                random_state=np.random.RandomState(2))  # fmt: skip
    heuristic = make_bot("heuristic", seed=1)
    results = []
    for deal in range(4):  # each deal in both seatings
        seat = deal % 2
        state = game.new_initial_state(seed=deal // 2)
        decisions = 0
        while not state.is_terminal():
            if state.current_player() == seat:
                action = searcher.step(state)
                assert action in state.legal_actions()
                decisions += 1
            else:
                action = uo.bot_action(state, heuristic)
            state.apply_action(action)
        returns = state.returns()
        assert sorted(returns) == [-1.0, 1.0]  # a winner and a loser in every round
        assert decisions > 0
        results.append(returns[seat])
    assert len(results) == 4


def test_the_example_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"
    out = subprocess.run([sys.executable, str(example), "--variant", "flex", "--rounds", "2",
                          "--simulations", "5"], capture_output=True, text=True, timeout=240)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "of 2 rounds against heuristic" in out.stdout
