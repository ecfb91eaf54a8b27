"""The catch window: a vulnerable seat that acts again is offered to the others first.

docs/rules.md §1.11: any other player may catch a player who played down to one
card without calling UNO, until that player's next turn action. When the
vulnerable seat is itself the next to act (two players, a Skip; a dark Skip
Everyone in Flip), the environments and the bot loops offer the catch to the
other seats, in order of play, before it acts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from unokit import Game
from unokit.bots import make_bot
from unokit.bots.sim import offer_catch, play_round
from unokit.engine.actions import Action, Play
from unokit.engine.observation import Observation
from unokit.envs import uno_classic_v0, uno_flip_v0
from unokit.envs.gym import UnoGymEnv


def _skip_position() -> Game:
    # P0 holds a Skip and one more card: playing the Skip without UNO leaves it
    # vulnerable, and at two players it acts again at once
    return Game.setup(
        "classic",
        2,
        hands=[["RS", "G7"], ["B2", "B3", "Y4"]],
        draw=["Y9", "G1", "G2", "G3"],
        discard=["R5"],
        current=0,
    )


def _mask(env: Any) -> list[int]:
    return list(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))


def test_window_offers_the_catch_to_the_other_seat() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_skip_position())
    t = env.table
    env.step(t.index_of("PLAY RS"))
    game = env.game
    assert game.current == 0 and game.vulnerable == 0
    assert env.agent_selection == "player_1"  # offered before P0 acts again
    assert _mask(env) == sorted([t.index_of("CATCH +1"), t.index_of("PASS")])
    assert "may catch P0" in env.render_text()
    env.step(t.index_of("CATCH +1"))
    assert len(game.hands[0]) == 1  # env.game is a snapshot of the position
    game = env.game
    assert len(game.hands[0]) == 3  # the penalty
    assert game.vulnerable == -1
    assert env.agent_selection == "player_0"
    assert t.index_of("CATCH +1") not in env.legal_actions()


def test_passing_the_window_lets_the_vulnerable_seat_act() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_skip_position())
    t = env.table
    env.step(t.index_of("PLAY RS"))
    before = env.game.state_tuple()
    env.step(t.index_of("PASS"))
    assert env.game.state_tuple() == before  # letting the chance go changes nothing
    assert env.agent_selection == "player_0"
    # still vulnerable: it may call UNO itself before its turn action
    assert t.index_of("UNO") in env.legal_actions()
    env.step(t.index_of("UNO"))
    assert env.game.uno_state(0).name == "SAFE"
    assert env.agent_selection == "player_0"  # no new window: nobody is vulnerable


def test_no_window_when_uno_is_called_or_another_seat_acts_next() -> None:
    env = uno_classic_v0.raw_env(players=2)
    env.reset_to(_skip_position())
    t = env.table
    env.step(t.index_of("UNO"))
    env.step(t.index_of("PLAY RS"))
    assert env.agent_selection == "player_0"
    assert t.index_of("PASS") not in env.legal_actions()
    # three players: after a Skip the seat after the skipped one acts, and can catch
    env3 = uno_classic_v0.raw_env(players=3)
    env3.reset_to(
        Game.setup(
            "classic",
            3,
            hands=[["RS", "G7"], ["B2", "B3"], ["Y4", "Y5"]],
            draw=["Y9", "G1"],
            discard=["R5"],
            current=0,
        )
    )
    env3.step(env3.table.index_of("PLAY RS"))
    assert env3.agent_selection == "player_2"
    assert env3.table.index_of("CATCH +1") in env3.legal_actions()  # P0 is +1 from P2
    assert env3.table.index_of("PASS") not in env3.legal_actions()


def test_window_in_order_of_play_at_three_players() -> None:
    # Flip, dark side: a Skip Everyone played down to one card, P0 acts again
    game = Game.setup(
        "flip",
        3,
        hands=[["R6|PkSE", "R1|Pk3"], ["R3|Pk7", "R5|Pk2"], ["Y8|Pk1", "YD1|Pk1"]],
        draw=["G4|Pk8", "RD1|Pk4"],
        discard=["RF|Pk8"],
        color="Pk",
        side=1,
        current=0,
    )
    env = uno_flip_v0.raw_env(players=3)
    env.reset_to(game)
    t = env.table
    play = next(i for i in env.legal_actions() if t.names[i] == "PLAY R6|PkSE")
    env.step(play)
    assert env.game.vulnerable == 0 and env.game.current == 0
    assert env.agent_selection == "player_1"
    assert t.names[int(_mask(env)[0])] in ("CATCH +2", "PASS")
    assert _mask(env) == sorted([t.index_of("CATCH +2"), t.index_of("PASS")])
    env.step(t.index_of("PASS"))
    assert env.agent_selection == "player_2"
    assert _mask(env) == sorted([t.index_of("CATCH +1"), t.index_of("PASS")])
    env.step(t.index_of("CATCH +1"))
    assert len(env.game.hands[0]) == 3
    assert env.agent_selection == "player_0"


def test_windows_pass_the_pettingzoo_checks_in_random_play() -> None:
    # agents that forget UNO half the time: windows open, and every mask stays legal
    env = uno_classic_v0.raw_env(players=2, max_steps=None)
    rng = np.random.default_rng(0)
    t = env.table
    uno = t.index_of("UNO")
    windows = 0
    for seed in range(40):
        env.reset(seed=seed)
        while not any(env.terminations.values()):
            legal = env.legal_actions()
            if t.index_of("PASS") in legal and t.index_of("CATCH +1") in legal:
                windows += 1
            if uno in legal and rng.random() < 0.5:
                legal.remove(uno)
            env.step(int(rng.choice(legal)))
    assert windows > 0


class _Forgetful:
    """The heuristic bot, but it never calls UNO."""

    name = "forgetful"

    def __init__(self, seed: int = 0) -> None:
        self._bot = make_bot("heuristic", seed=seed)

    def act(self, obs: Observation) -> Action:
        a = self._bot.act(obs)
        return replace(a, uno=False) if isinstance(a, Play) else a


def test_gym_agent_is_offered_the_catch_of_a_bot() -> None:
    env = UnoGymEnv("classic", players=2, seat=1, opponent=lambda seat, seed: _Forgetful(seed))
    t = env.table
    caught = 0
    for seed in range(60):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            legal = list(np.flatnonzero(obs["action_mask"]))
            catch = t.index_of("CATCH +1")
            if catch in legal and t.index_of("PASS") in legal:
                game = env.game
                assert game.current == 0 and game.vulnerable == 0
                before = len(game.log or [])
                obs, _, done, trunc, _ = env.step(catch)
                caught += 1
                # the catch happened at once, before the bot acted again
                after = (game.log or [])[before:]
                assert type(after[0]).__name__ == "Caught"
                assert (after[0].seat, after[0].target, after[0].success) == (1, 0, True)
                continue
            obs, _, done, trunc, _ = env.step(int(legal[0]))
            done = done or trunc
    assert caught > 0


def test_bots_catch_in_the_window_and_easy_never_does() -> None:
    game = _skip_position()
    game.apply(Play(0, game.cards[game.hands[0][0]], uno=False))
    assert game.catch_window() == [1]
    offer_catch(game, [_Forgetful(0), make_bot("easy", seed=1)])
    assert game.vulnerable == 0  # easy lets it go
    offer_catch(game, [_Forgetful(0), make_bot("normal", seed=1)])
    assert game.vulnerable == -1 and len(game.hands[0]) == 3


def test_play_round_offers_catches() -> None:
    # a forgetful player against the heuristic over many rounds: some windows
    # open and the heuristic catches in them
    caught_in_window = 0
    for seed in range(40):
        game = Game.new("classic", 2, {"matchMode": "single_round"}, seed=seed)
        play_round(game, [_Forgetful(seed), make_bot("heuristic", seed=seed)])
        log = game.log or []
        for i, e in enumerate(log):
            if type(e).__name__ == "Caught" and e.success and i >= 2:
                played = [x for x in log[:i] if type(x).__name__ == "Played"]
                if (
                    played
                    and played[-1].seat == e.target
                    and played[-1].card.face(0).kind.name
                    in (
                        "SKIP",
                        "REVERSE",
                        "DRAW_TWO",
                    )
                ):
                    caught_in_window += 1
    assert caught_in_window > 0
