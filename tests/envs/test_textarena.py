"""TextArena environments: whole games of every variant through TextArena's own
``make``, wrappers and agent wrapper; invalid moves as TextArena's games treat them."""

from __future__ import annotations

import random
import re

import pytest

ta = pytest.importorskip("textarena")

from textarena.agents.wrappers import AnswerTokenAgentWrapper  # noqa: E402

import unokit.envs.textarena  # noqa: E402,F401 - registers the ids
from unokit import Game  # noqa: E402
from unokit.envs.textarena import TEXTARENA_IDS, UnoTextArenaEnv  # noqa: E402


class RandomTextAgent(ta.Agent):
    """Reads the legal moves off the last board it was shown and answers a
    random one in free text, a play when there is one (a share ``bad`` of its
    answers name a card nobody holds)."""

    def __init__(self, seed: int, bad: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.bad = bad
        self.system_prompt = "Play UNO."

    def __call__(self, observation: str) -> str:
        lines = [ln for ln in observation.splitlines() if ln.startswith("Legal moves: ")]
        assert lines, observation[-500:]
        moves = lines[-1][len("Legal moves: ") : -1].split("; ")
        if self.rng.random() < self.bad:
            return "I think I will play the purple eleven. Final Answer: [play X11]"
        plays = [m for m in moves if m.startswith("play ")]  # short games: play when possible
        return f"Let me think. Final Answer: [{self.rng.choice(plays or moves)}]"


def _play(env_id: str, players: int, seed: int, bad: float = 0.0) -> tuple[dict, dict, int]:
    env = ta.make(env_id)
    env.reset(num_players=players, seed=seed)
    agents = [AnswerTokenAgentWrapper(RandomTextAgent(seed * 10 + p, bad)) for p in range(players)]
    done = False
    steps = 0
    while not done:
        pid, observation = env.get_observation()
        done, _ = env.step(action=agents[pid](observation))
        steps += 1
        assert steps < 5000
    rewards, info = env.close()
    return rewards, info, steps


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
@pytest.mark.parametrize("players", [2, 3])
def test_whole_games_through_textarena(variant: str, players: int) -> None:
    env_id = TEXTARENA_IDS[variant]
    for seed in range(2):
        rewards, info, steps = _play(env_id, players, seed)
        assert sorted(rewards) == list(range(players)) and steps > 3
        assert not any(info[p]["invalid_move"] for p in range(players))
        values = sorted(rewards.values())
        # one winner (+1, the others -1) or a blocked round (all 0)
        assert values in ([-1] * (players - 1) + [1], [0] * players)


def test_the_engine_decides_and_the_winner_is_rewarded() -> None:
    env = ta.make("UNO-v0-raw")
    env.reset(num_players=2, seed=11)
    # the same seed deals the engine's game
    assert env.game.hands == Game.new("classic", 2, seed=11).hands
    agents = [RandomTextAgent(1), RandomTextAgent(2)]
    done = False
    while not done:
        pid, messages = env.get_observation()
        assert pid == env.game.current
        board = [m for _, m, kind in messages if kind == ta.ObservationType.GAME_BOARD]
        assert len(board) == 1, "the player to act is shown the board once"
        assert board[0] == env.game.observe(pid).to_text(
            [f"Player {s}" for s in range(2)], moves=True
        )
        done, _ = env.step(agents[pid](board[0]).split("Final Answer:")[-1])
    rewards, _ = env.close()
    game = env.game
    assert game.winner >= 0 and rewards[game.winner] == 1 and rewards[1 - game.winner] == -1


def test_an_invalid_move_is_explained_then_retried_then_lost() -> None:
    env = ta.make("UNO-v0")
    env.reset(num_players=2, seed=3)
    pid, _ = env.get_observation()
    done, _ = env.step("I will play the purple eleven: [play X11]")
    assert not done
    again, observation = env.get_observation()
    assert again == pid  # the same player tries again
    assert "attempted an invalid move. Reason: 'play X11' cannot be read" in observation
    assert "Legal moves:" in observation.split("attempted an invalid move")[-1]
    done, _ = env.step("no brackets at all")
    assert done
    rewards, info = env.close()
    assert rewards == {pid: -1, 1 - pid: 1} and info[pid]["invalid_move"]
    assert "brackets" in info[pid]["reason"]


def test_multiplayer_invalid_moves_lose_the_game_for_the_offender() -> None:
    env = ta.make("UNOFlex-v0", error_allowance=0)
    env.reset(num_players=4, seed=2)
    pid, _ = env.get_observation()
    assert env.step("[pass the salt]")[0]
    rewards, info = env.close()
    assert rewards[pid] == -1 and all(rewards[p] == 1 for p in range(4) if p != pid)


def test_random_agents_with_invalid_answers_still_finish() -> None:
    for variant in ("classic", "flip", "flex"):
        rewards, info, _ = _play(TEXTARENA_IDS[variant] + "-train", 2, seed=5, bad=0.2)
        assert sorted(rewards.values()) in ([-1, 1], [0, 0])


def test_options_and_players_are_checked() -> None:
    env = ta.make("UNO-v0", options={"stacking": "same_symbol", "sevenZero": True})
    assert env.options.stacking == "same_symbol" and env.options.sevenZero
    with pytest.raises(ValueError, match="2 to 8 players"):
        ta.make("UNOFlex-v0").reset(num_players=9)
    with pytest.raises(Exception, match="stacking"):
        UnoTextArenaEnv("classic", options={"stacking": "sometimes"})


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_what_everyone_is_told_names_no_hidden_card(variant: str) -> None:
    """Each move is told to every player in the terminal's words, as a
    spectator hears it: a drawn card is never named (Flip's backs are
    public), nor a hand shown to a challenger."""
    env = ta.make(TEXTARENA_IDS[variant] + "-raw")
    told: list[str] = []
    for seed in range(3):
        env.reset(num_players=3, seed=seed)
        agents = [RandomTextAgent(seed * 10 + p) for p in range(3)]
        done = False
        while not done:
            pid, messages = env.get_observation()
            told += [m for _, m, k in messages if k == ta.ObservationType.GAME_ACTION_DESCRIPTION]
            done, _ = env.step(action=agents[pid](messages[-1][1]))
    drew = re.compile(r"drew (a card|\d+ cards)( \(backs: [^)]*\))?( \([a-z ]+\)| for [^.]+)?\.?$")
    sentences = [s for m in told for s in re.split(r"(?<=[.!]) ", m)]
    assert any(" played " in s for s in sentences)
    draws = [s for s in sentences if " drew " in s]
    assert draws, "some card is drawn in three whole games"
    for s in draws:
        assert drew.search(s), s
    assert not [s for s in sentences if "'s hand:" in s]
