"""The PettingZoo UNO environment as one seat sees it, for single-agent learners
(the Tianshou recipes ``tianshou_ppo.py`` and ``tianshou_dqn.py``).

A turn-based game gives a learner a transition from one of **its own**
decisions to its next one; the opponents' moves fall in between. Tianshou's
own PettingZoo pattern (``MultiAgentOffPolicyAlgorithm``) stores each agent's
transitions separately, so a round lost on the opponent's move never reaches
the learner. :class:`LearnerView` plays the opponents inside ``step`` instead,
so the reward of a transition is everything the learner received until it
decides again, the loss included.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from uno_features import UnoFeatures

from unokit.engine.playout import random_move

__all__ = ["LearnerView", "RandomOpponent"]


class LearnerView(gymnasium.Env[dict[str, Any], int]):
    """The PettingZoo AEC environment as one seat sees it: ``step`` applies the
    learner's action, then the opponents' moves (``opponent(aec) -> action``,
    by default :class:`RandomOpponent`), until the learner must decide again or
    the round is over. The reward is the sum of the learner's rewards over
    that whole cycle. Observations are ``{"obs": features, "mask": legal
    actions}`` (Tianshou masks Q-values with ``obs.mask``)."""

    def __init__(self, aec: Any, features: UnoFeatures, learner: str = "player_0",
                 opponent: Any = None, seed: int = 0) -> None:  # fmt: skip
        self.aec = aec
        self.features = features
        self.learner = learner
        self.opponent = opponent or RandomOpponent(seed)
        n = int(aec.action_space(learner).n)
        self.action_space = gymnasium.spaces.Discrete(n)
        self.observation_space = gymnasium.spaces.Dict({
            "obs": gymnasium.spaces.Box(0.0, np.inf, (features.size,), np.float32),
            "mask": gymnasium.spaces.MultiBinary(n),
        })  # fmt: skip
        self._next_seed = seed

    def _obs(self) -> dict[str, Any]:
        o = self.aec.observe(self.learner)
        return {"obs": self.features(o["observation"], o["action_mask"]),
                "mask": o["action_mask"].astype(bool)}  # fmt: skip

    def _done(self) -> bool:
        aec = self.aec
        return bool(aec.terminations[self.learner] or aec.truncations[self.learner])

    def _opponents(self) -> float:
        """Let the other seats play; return the learner's rewards meanwhile."""
        aec, total = self.aec, 0.0
        while not self._done() and aec.agent_selection != self.learner:
            aec.step(self.opponent(aec))
            total += aec.rewards[self.learner]
        return total

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:  # fmt: skip
        if seed is not None:
            self._next_seed = seed
        while True:  # (a round the opponent ends before the learner's first move is redealt)
            self.aec.reset(seed=self._next_seed)
            self._next_seed += 1
            self._opponents()
            if not self._done():
                return self._obs(), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        aec.step(int(action))
        reward = aec.rewards[self.learner] + self._opponents()
        truncated = bool(aec.truncations[self.learner])
        # a round cut at max_steps has been paid its final value (the stall
        # reward): for the learner it is over, there is nothing to bootstrap
        # from (Tianshou bootstraps a truncated step from the next observation's
        # Q-value, which here is the masked-out end of the round)
        terminated = bool(aec.terminations[self.learner]) or truncated
        return self._obs(), float(reward), terminated, truncated, {}


class RandomOpponent:
    """unokit's ``random`` bot (the opponent of the evaluation) on the AEC
    environment: the engine's random policy (:func:`unokit.engine.playout.random_move`:
    a random playable card of the hand, DRAW only when nothing can be played);
    it always calls UNO and never catches. (A uniformly random choice over the
    mask instead draws most of the time: its rounds run past 1,000 decisions,
    and a DQN trained against it won 0.2% against ``random``.)"""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed).random

    def __call__(self, aec: Any) -> int:
        agent = aec.agent_selection
        table = aec.table
        mask = aec.observe(agent)["action_mask"]
        uno = table.index_of("UNO")
        if mask[uno]:
            return uno
        if (
            not mask[: table.num_plays].any()
            and mask[table.index_of("PASS")]
            and not mask[table.index_of("DRAW")]
            and any(mask[i] for i, n in enumerate(table.names) if n.startswith("CATCH"))
        ):
            return table.index_of("PASS")  # a catch window: the random bot never catches
        seat = aec.possible_agents.index(agent)
        return int(table.index(seat, random_move(aec.game, self.rnd)))


class BotOpponent:
    """One of unokit's bots (``unokit.bots.make_bot``: ``heuristic``, ...) as the
    opponent of :class:`LearnerView`, from its seat's observation only: a play
    with an UNO call becomes the ``UNO`` action first (the bot is asked again
    after it), and in a catch window it catches when the bot would."""

    def __init__(self, name: str, seed: int) -> None:
        from unokit.bots import make_bot

        self.bot = make_bot(name, seed=seed)

    def __call__(self, aec: Any) -> int:
        from dataclasses import replace

        from unokit.engine.actions import Catch, Play

        agent = aec.agent_selection
        seat = aec.possible_agents.index(agent)
        table = aec.table
        mask = aec.observe(agent)["action_mask"]
        game = aec.game
        action = self.bot.act(game.observe(seat))
        catches = [i for i, n in enumerate(table.names) if n.startswith("CATCH") and mask[i]]
        if catches and not mask[table.index_of("DRAW")] and not mask[: table.num_plays].any():
            # a catch window: catch, or let it go
            return catches[0] if isinstance(action, Catch) else table.index_of("PASS")
        if isinstance(action, Play) and action.uno:
            if mask[table.index_of("UNO")]:
                return table.index_of("UNO")
            action = replace(action, uno=False)
        return int(table.index(seat, game.encode(action)))
