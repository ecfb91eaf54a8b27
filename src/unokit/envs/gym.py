"""A Gymnasium single-agent UNO environment: one seat learns, bots play the others.

``UnoGymEnv(variant="classic", players=2, seat=0, opponent="random", **options)``
is a :class:`gymnasium.Env` over one round of the engine. The learning agent
plays ``seat``; every other seat is played by a bot of :mod:`unokit.bots`
(``"random"``, ``"heuristic"``, anything registered with
:func:`unokit.bots.register_bot`), or by ``opponent(seat, seed) -> Bot`` when
a callable is given. Bots see only their own
:class:`~unokit.engine.observation.Observation`. With the ``random`` opponent the
whole round runs in the rules core (:mod:`unokit.envs._corebatch`: the
agent's moves, the bots' :func:`unokit.engine.playout.random_move` -- the same
choices as :class:`unokit.bots.random.RandomBot` from the same seed --, catch
windows, the observation and the mask in C); other bots read the round's
events, so they play on :class:`unokit.Game`. ``env.game`` is the position
as a :class:`unokit.Game` (a snapshot with the random opponent).

* Observation: ``{"observation": float32 vector, "action_mask": int8 mask}``,
  the same spaces as the PettingZoo environments (:mod:`unokit.envs.observation`,
  :mod:`unokit.envs.actions`); ``action_masks()`` returns the mask (for
  maskable policies).
* ``step(action)`` applies the agent's decision, then lets the bots play until
  the agent must decide again or the round is over. UNO calls and catches are
  the agent's own decisions, in its mask when they have an effect; when a
  vulnerable seat would act again before anyone else, the other seats are
  offered the catch first (``CATCH`` or ``PASS``, as in the AEC environments;
  a bot catches when its answer is a catch, see :func:`unokit.bots.sim.offer_catch`).
* Reward (:mod:`unokit.envs.rewards`): 0 until the round ends, then
  ``reward="points"``: the round's points if the agent won, else minus the
  value of its hand (``"norm_points"``: the same / 100); ``"win"``: +1 or
  -1/(players-1). A round without a winner (blocked, or cut at ``max_steps``)
  is worth a loss (``stall_reward="loss"``, default) or 0 (``"zero"``);
  ``step_cost`` is taken from every step's reward.
* ``max_steps`` (default 500) agent decisions end the episode with
  ``truncated=True`` (a policy that never tries to win can make a round
  endless; a uniformly random agent against ``random`` needs under 220).
* ``info["action_mask"]`` holds the mask after ``reset`` and every ``step``:
  Gymnasium's wrappers (``gymnasium.make``) do not pass ``action_masks()`` on,
  so reach it there, or with ``env.unwrapped.action_masks()``.
* Render modes ``"ansi"`` (text), ``"human"`` (printed) and ``"rgb_array"``
  (the text as an image; Stable-Baselines3's ``make_vec_env`` asks for it).
* An action outside the mask ends the episode with ``illegal_reward`` (the
  game is not changed; ``info["illegal_action"]`` holds it).
* ``reset(seed=s)`` deals ``Game.new(variant, players, options, seed=s)`` and
  seeds the bots from ``s``; ``reset()`` draws the next seed from the
  environment's generator. Should the bots finish the round before the agent's
  first decision (only possible with tiny hands), the next seed is dealt.

>>> env = UnoGymEnv("classic", players=2, opponent="random")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].dtype
((119,), dtype('int8'))
>>> legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
>>> obs, reward, terminated, truncated, info = env.step(legal[0])
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from unokit.bots import Bot, make_bot
from unokit.engine.actions import Catch
from unokit.engine.errors import OptionError
from unokit.engine.game import OP_CATCH, OP_PASS, Game, Phase
from unokit.engine.multiplay import OP_MULTI
from unokit.engine.options import Options
from unokit.engine.playout import random_move
from unokit.engine.variants import get_variant

from ._base import (
    RENDER_MODES,
    action_index,
    check_max_steps,
    check_playable,
    check_render_mode,
    render_game,
    render_output,
)
from ._corebatch import make_batch, restore_game, save_game, step_arrays, to_game
from .actions import ActionTable, action_table
from .observation import DEFAULT_OBS_LAYOUT, ObservationEncoder, check_obs_layout, make_layout
from .rewards import RewardSpec

__all__ = ["UnoGymEnv", "GYM_IDS"]

#: Gymnasium ids registered by this module: ``gymnasium.make("unokit/UnoClassic-v0", players=2)``.
GYM_IDS = {"classic": "unokit/UnoClassic-v0", "flip": "unokit/UnoFlip-v0",
           "flex": "unokit/UnoFlex-v0"}  # fmt: skip

_ROUND_OVER = int(Phase.ROUND_OVER)
#: The agent's decisions after which an episode is truncated by default.
MAX_AGENT_STEPS = 500

Obs = dict[str, npt.NDArray[Any]]
BotFactory = Callable[[int, int], Bot]


class UnoGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One round of UNO for one learning seat against bots (see the module doc)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        variant: str = "classic",
        players: int = 2,
        *,
        seat: int = 0,
        opponent: str | BotFactory = "random",
        reward: str = "points",
        illegal_reward: float = -1.0,
        max_steps: int | None = MAX_AGENT_STEPS,
        render_mode: str | None = None,
        stall_reward: str = "loss",
        step_cost: float = 0.0,
        obs_layout: int = DEFAULT_OBS_LAYOUT,
        **options: Any,
    ) -> None:
        v = get_variant(variant)
        if not isinstance(players, int) or not v.min_players <= players <= v.max_players:
            raise OptionError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players!r}"
            )
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionError(f"seat must be one of 0..{players - 1}, not {seat!r}")
        self.rewards_spec = RewardSpec(reward, stall_reward, step_cost)
        check_render_mode(render_mode)
        if isinstance(opponent, str):
            make_bot(opponent, seed=0)  # unknown names fail here, with the known ones
        elif not callable(opponent):
            raise OptionError(f"opponent must be a bot name or a factory, not {opponent!r}")
        check_max_steps(max_steps)
        self.max_steps = max_steps
        self.variant = v
        self.players = players
        self.seat = seat
        self.opponent = opponent
        self.reward_mode = reward
        self.stall_reward = stall_reward
        self.step_cost = self.rewards_spec.step_cost
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.options = Options.from_dict(options)
        check_playable(v.name, players, self.options)
        self.table: ActionTable = action_table(v, players, self.options)
        self.encoder = ObservationEncoder(v, players, self.options)
        self.obs_layout = check_obs_layout(obs_layout)
        #: layout 5 (the default), 4, 3 or 2 made from the encoder's vector; None: layout 1
        self.layout = make_layout(self.encoder, self.table, obs_layout)
        high = self.encoder.high if self.layout is None else self.layout.high
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.table.size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.table.size)
        self._fast_random = opponent == "random"
        self._game: Game | None = Game(v, players, self.options, events=False)
        # the random opponent: the round in the core (a batch of one)
        self._batch = make_batch(self.table, self.encoder, 1) if self._fast_random else None
        self._seed = 0
        self._rnd_list: list[Callable[[], float] | None] = []
        self._mask = np.zeros(self.table.size, dtype=np.int8)
        self._arrays = step_arrays(self.table, self.encoder, 1)
        self._bots: dict[int, Bot] = {}
        self._rnds: dict[int, Callable[[], float]] = {}
        self._legal: dict[int, int] = {}
        self._window: list[int] = []  # seats still to be offered the catch
        self._window_of = -1
        self._done = True
        self._steps = 0

    # ------------------------------------------------------------------ API

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles: the game in the core goes as plain values."""
        state = self.__dict__.copy()
        if self._batch is not None:
            state["_batch"] = save_game(self._batch, 0, self.table, self._seed)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.pop("_batch")
        self.__dict__.update(state)
        self._batch = None
        if saved is not None:
            self._batch = make_batch(self.table, self.encoder, 1)
            restore_game(self._batch, 0, self.table, self._seed, saved)

    @property
    def game(self) -> Game:
        """The round's position as a :class:`unokit.Game` (with the random
        opponent a snapshot: changing it does not change the environment)."""
        if self._game is None:
            assert self._batch is not None
            self._game = to_game(self._batch, 0, self.table, self._seed)
        return self._game

    def _phase(self) -> int:
        if self._batch is not None:
            return self._batch.status(0)[0]
        return self.game.phase

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a round and let the bots play up to the agent's first decision.
        ``options`` is accepted for the Gymnasium API and ignored."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        while True:
            self._deal(game_seed)
            self._play_bots()
            if self._phase() < _ROUND_OVER:
                break
            game_seed = int(self.np_random.integers(2**31))
        self._done = False
        self._steps = 0
        obs = self._after_move()
        return obs, {"seed": game_seed, "action_mask": obs["action_mask"]}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise OptionError("the round is over: call reset() before step()")
        index = action_index(action, self.table.size)
        if not self._mask[index]:
            self._done = True
            obs = self._observe(legal=False)
            bad = {"illegal_action": index, "action_mask": obs["action_mask"]}
            return obs, self.illegal_reward, True, False, bad
        if self._batch is not None:
            self._arrays[0][0] = index
            self._batch.step(*self._arrays, False)
        else:
            self._game_step(self._legal[index])
        self._play_bots()
        reward = -self.rewards_spec.step_cost
        self._steps += 1
        terminated = self._phase() >= _ROUND_OVER
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        info: dict[str, Any] = {}
        if terminated or truncated:
            self._done = True
            game = self.game
            reward += self.rewards_spec.round_end(game)[self.seat]
            info["winner"] = None if game.winner < 0 else game.winner
            info["round_points"] = game.round_points
        obs = self._after_move()
        info["action_mask"] = obs["action_mask"]
        return obs, reward, terminated, truncated, info

    def _game_step(self, move: int) -> None:
        """The agent's move on the engine game (bots other than ``random``)."""
        game = self.game
        if self._window:  # the agent was offered a catch
            if move == OP_PASS:
                self._window.pop(0)
            else:
                game.apply_move(move, self.seat)
                self._window = []
        else:
            game.apply_move(move, self.seat)
            self._open_window()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal-action mask of the agent's current decision."""
        return self._mask.copy()

    def render(self) -> Any:  # str | NDArray[uint8] | None, by render mode
        """The table from the agent's view: text (``ansi``), printed (``human``)
        or an image (``rgb_array``)."""
        if self.render_mode is None:
            return render_output("", None)
        legal = np.flatnonzero(self._mask).tolist()
        text = render_game(self.game, self.table, legal, self.seat)
        return render_output(text, self.render_mode)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ internals

    def _deal(self, game_seed: int) -> None:
        if self._batch is not None:
            g = Game.new(self.variant, self.players, self.options, seed=game_seed, events=False)
            self._batch.set(0, g._g, game_seed)
            self._seed = game_seed
            self._game = None
            self._rnd_list = [
                None if s == self.seat else random.Random(game_seed * 16 + s).random
                for s in range(self.players)
            ]
            return
        # bots reading the round's history need the event log
        self._game = Game.new(self.variant, self.players, self.options, seed=game_seed)
        self._window = []
        self._bots = {}
        self._rnds = {}
        for s in range(self.players):
            if s == self.seat:
                continue
            bot_seed = game_seed * 16 + s
            if self._fast_random:
                self._rnds[s] = random.Random(bot_seed).random
            elif isinstance(self.opponent, str):
                self._bots[s] = make_bot(self.opponent, seed=bot_seed)
            else:
                self._bots[s] = self.opponent(s, bot_seed)

    def _play_bots(self, limit: int = 1_000_000) -> None:
        if self._batch is not None:
            self._batch.play_random(0, self.seat, self._rnd_list, limit)
            self._game = None
            return
        game = self.game
        seat = self.seat
        for _ in range(limit):
            if game.phase >= _ROUND_OVER:
                return
            if self._window:
                s = self._window[0]
                if s == seat:
                    return  # the agent is offered the catch
                self._window.pop(0)
                bot = self._bots.get(s)  # the random policy never catches
                if bot is not None and getattr(bot, "catches", True):
                    action = bot.act(game.observe(s))
                    if isinstance(action, Catch) and action.seat == s:
                        game.apply(action)
                        self._window = []
                continue
            s = game.current
            if s == seat:
                return
            if self._fast_random:
                game.apply_move(random_move(game, self._rnds[s]), s, True)
            else:
                game.apply(self._bots[s].act(game.observe(s)))
            self._open_window()
        raise RuntimeError(f"the bots made {limit} decisions in a row")

    def _open_window(self) -> None:
        self._window = self.game.catch_window()
        self._window_of = self.game.vulnerable if self._window else -1

    def _legal_moves(self) -> dict[int, int]:
        idx = self.table.indices(self.seat)
        if self._window:
            catch = OP_CATCH | ((self._window_of + 1) << 21)
            return {idx[catch]: catch, idx[OP_PASS]: OP_PASS}
        # multi-plays (multiPlay) have no entry in the table (docs/rl.md)
        return {idx[m]: m for m in self.game.legal_moves(self.seat) if m & 15 != OP_MULTI}

    def _after_move(self) -> Obs:
        """The agent's observation and mask after a move (no legal action once
        the episode is over)."""
        if self._batch is None:
            self._legal = {} if self._done else self._legal_moves()
        return self._observe(legal=not self._done)

    def _observe(self, legal: bool = True) -> Obs:
        obs = np.empty(self.encoder.size, dtype=np.float32)
        if self._batch is not None:
            mask = np.empty(self.table.size, dtype=np.int8)
            self._batch.observe_seat(0, self.seat, obs, mask)
        else:
            obs = self.encoder.encode_game(self.game, self.seat)
            mask = self.table.mask(self._legal)
        if not legal:
            mask[:] = 0
        self._mask = mask
        if self.layout is not None:
            obs = self.layout(obs, mask)
        return {"observation": obs, "action_mask": mask.copy()}


def _register() -> None:
    for variant, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="unokit.envs.gym:UnoGymEnv", kwargs={"variant": variant}
            )


_register()
