"""The PettingZoo AEC environment shared by the three variants.

A thin adapter over the rules core: the game is a batch of one in
:class:`unokit._core.Batch` (:mod:`unokit.envs._corebatch`), which plays the
engine's rules, opens catch windows and writes the observation and mask in C,
exactly as the batched environments do. The agent to act is the engine's
``game.current`` (or the seat offered a catch); an action is an index of the
variant's :class:`~unokit.envs.actions.ActionTable`; the observation is the
seat's :class:`~unokit.envs.observation.ObservationEncoder` vector plus the
legal action mask. ``env.game`` gives the position as a :class:`unokit.Game`.
The pages of the three environments (:mod:`unokit.envs.uno_classic_v0` ...)
document the behaviour.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # no py.typed marker

from unokit.engine.errors import IllegalActionError, OptionError, UnoError
from unokit.engine.game import OP_PASS, Game, Phase
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

from ._corebatch import make_batch, restore_game, save_game, step_arrays, to_game
from .actions import ActionTable, action_table
from .observation import DEFAULT_OBS_LAYOUT, ObservationEncoder, check_obs_layout, make_layout
from .rewards import REWARDS, STALL_REWARDS, RewardSpec

__all__ = [
    "UnoEnv",
    "round_rewards",
    "render_game",
    "env_metadata",
    "REWARDS",
    "STALL_REWARDS",
    "RENDER_MODES",
    "EPISODES",
    "ILLEGAL",
]

EPISODES = ("round", "match")
ILLEGAL = ("terminate", "raise")
#: ``ansi`` returns the table as text, ``human`` prints it, ``rgb_array`` draws it
#: as an image (NumPy ``uint8 (H, W, 3)``; what video recorders and
#: Stable-Baselines3's ``make_vec_env``, which asks for it, expect).
RENDER_MODES = ("ansi", "human", "rgb_array")
#: Decisions after which an AEC / batched episode is truncated by default.
MAX_STEPS = 3_000

_ROUND_OVER = int(Phase.ROUND_OVER)
_MATCH_OVER = int(Phase.MATCH_OVER)

Obs = dict[str, npt.NDArray[Any]]


def check_max_steps(max_steps: object) -> None:
    """``max_steps`` must be None or a positive integer."""
    if max_steps is not None and (
        not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1
    ):
        raise OptionError(f"max_steps must be None or a positive integer, not {max_steps!r}")


def check_playable(variant: str, players: int, options: Options) -> None:
    """Raise :class:`OptionError` if a game cannot be dealt (e.g. hands too large)."""
    try:
        Game.new(variant, players, options, seed=0, events=False)
    except UnoError as e:
        raise OptionError(str(e)) from None


def round_rewards(game: Game, reward: str = "points", stall_reward: str = "loss") -> list[float]:
    """Rewards by seat of ``game``'s round, which has just ended (or been cut):
    :meth:`unokit.envs.rewards.RewardSpec.round_end`. ``points``: the winner
    gets the round's points (the sum of the other hands' values) and every
    other seat loses its own hand's value, so the rewards sum to zero and
    follow docs/rules.md scoring in both scoring modes. ``win``: +1 to the winner,
    -1/(players-1) to the others. A round without a winner is worth a loss to
    every seat (``stall_reward="loss"``) or 0 (``"zero"``)."""
    return RewardSpec(reward, stall_reward).round_end(game)


def check_render_mode(render_mode: object) -> None:
    """``render_mode`` must be None or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise OptionError(
            f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
        )


def render_output(text: str, render_mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """What ``render()`` returns in ``render_mode`` for the table ``text``."""
    if render_mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if render_mode == "human":
        print(text, end="")
        return None
    if render_mode == "rgb_array":
        return text_image(text)
    return text


def text_image(text: str) -> npt.NDArray[np.uint8]:
    """``text`` drawn in a monospace font on a white image, ``uint8 (H, W, 3)``
    (Matplotlib's Agg canvas, no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lines = text.rstrip("\n").split("\n")
    width = max(len(line) for line in lines)
    fig = Figure(figsize=(0.09 * width + 0.4, 0.2 * len(lines) + 0.3), dpi=80)
    canvas = FigureCanvasAgg(fig)
    fig.text(0.02, 0.98, "\n".join(lines), family="monospace", fontsize=10, va="top")
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = np.asarray(canvas.buffer_rgba())  # type: ignore[no-untyped-call]
    return rgba[:, :, :3].copy()


def env_metadata(name: str) -> dict[str, Any]:
    """PettingZoo's ``metadata`` of the environment ``name``."""
    return {
        "render_modes": list(RENDER_MODES),
        "name": name,
        "is_parallelizable": False,
        "render_fps": 1,
    }


class UnoEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped
    """PettingZoo AEC environment of one UNO variant (see the variant modules)."""

    variant_name = "classic"
    metadata: dict[str, Any] = env_metadata("uno_classic_v0")

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        *,
        reward: str = "points",
        episode: str = "round",
        illegal: str = "terminate",
        illegal_reward: float = -1.0,
        max_steps: int | None = MAX_STEPS,
        stall_reward: str = "loss",
        step_cost: float = 0.0,
        obs_layout: int = DEFAULT_OBS_LAYOUT,
        **options: Any,
    ) -> None:
        super().__init__()
        v = get_variant(self.variant_name)
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError(f"players must be an integer, got {players!r}")
        if not v.min_players <= players <= v.max_players:
            raise OptionError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players}"
            )
        self.rewards_spec = RewardSpec(reward, stall_reward, step_cost)
        for name, value, allowed in (
            ("episode", episode, EPISODES),
            ("illegal", illegal, ILLEGAL),
        ):
            if value not in allowed:
                raise OptionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        check_render_mode(render_mode)
        check_max_steps(max_steps)
        self.max_steps = max_steps
        self.options = Options.from_dict(options)
        check_playable(v.name, players, self.options)
        self.players = players
        self.render_mode = render_mode
        self.reward_mode = reward
        self.stall_reward = stall_reward
        self.step_cost = self.rewards_spec.step_cost
        self.episode = episode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.table: ActionTable = action_table(v, players, self.options)
        self.encoder = ObservationEncoder(v, players, self.options)
        self.obs_layout = check_obs_layout(obs_layout)
        #: layout 5 (the default), 4, 3 or 2 made from the encoder's vector; None: layout 1
        self.layout = make_layout(self.encoder, self.table, obs_layout)
        high = self.encoder.high if self.layout is None else self.layout.high
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=high, shape=high.shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.table.size,), dtype=np.int8),
            }
        )
        act_space: spaces.Space[Any] = spaces.Discrete(self.table.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._batch = make_batch(self.table, self.encoder, 1)
        self._seed = 0  # the seed of the game in the batch
        self._game: Game | None = Game(v, players, self.options, events=False)
        self._next_seed: int | None = None
        self._steps = 0  # decisions in this episode
        self._phase = int(Phase.DEAL)
        self._window = False  # a seat is offered a catch
        self._legal: list[int] | None = None  # legal action indices, this state
        self._dirty_rewards = False
        # step()'s arrays (its observation is not used: observe() writes fresh ones)
        self._arrays = step_arrays(self.table, self.encoder, 1)
        self.agents: list[str] = []
        self._has_reset = False

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round (or match). ``reset(seed=s)`` deals exactly the game
        ``Game.new(variant, players, options, seed=s)``; later resets without a
        seed use ``s+1``, ``s+2``... ``options`` is accepted for the PettingZoo
        API and ignored: game options are given to the constructor."""
        if seed is not None:
            if not isinstance(seed, int | np.integer) or isinstance(seed, bool):
                raise OptionError(f"seed must be an integer, got {seed!r}")
            game_seed = int(seed)
        elif self._next_seed is not None:
            game_seed = self._next_seed
        else:
            game_seed = random.SystemRandom().randrange(2**31)
        self._next_seed = game_seed + 1
        self._start(
            Game.new(self.variant_name, self.players, self.options, seed=game_seed, events=False)
        )

    def reset_to(self, game: Game) -> None:
        """Start an episode from the position ``game`` (a copy is taken), e.g. one
        built with :meth:`unokit.Game.setup` or read from a record. The game must
        be of this environment's variant, player count and options, with a
        decision pending."""
        if not isinstance(game, Game):
            raise OptionError(f"reset_to needs a unokit Game, got {type(game).__name__}")
        if (game.variant.name, game.n, game.options) != (
            self.variant_name,
            self.players,
            self.options,
        ):
            raise OptionError(
                f"this environment plays {self.variant_name} with {self.players} players "
                f"and its own options; the game is {game.variant.name} with {game.n} players"
                + ("" if game.options == self.options else " and other options")
            )
        if game.phase >= _ROUND_OVER or game.phase == int(Phase.DEAL):
            raise OptionError(f"the game waits for no decision (state {game.state.name})")
        from unokit.engine import notation

        self._start(game.copy())
        origin: int | str = notation.dumps(game)
        self._origin = origin

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles: the game in the core goes as plain values."""
        state = self.__dict__.copy()
        state["_batch"] = save_game(self._batch, 0, self.table, self._seed)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.pop("_batch")
        self.__dict__.update(state)
        self._batch = make_batch(self.table, self.encoder, 1)
        restore_game(self._batch, 0, self.table, self._seed, saved)

    @property
    def game(self) -> Game:
        """The position as a :class:`unokit.Game` (without events; changing it
        does not change the environment). In a catch window it is the engine's
        position: the vulnerable seat to act."""
        if self._game is None:
            self._game = to_game(self._batch, 0, self.table, self._seed)
        return self._game

    def _start(self, game: Game) -> None:
        self._has_reset = True
        self._steps = 0
        self._seed = game.seed
        self._batch.set(0, game._g, game.seed)
        # for to_record(): the start (a seed, or a position) and every move
        self._origin = game.seed
        self._moves: list[tuple[int, int]] = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._dirty_rewards = False
        self._refresh()

    def _refresh(self) -> None:
        """After a change of the game: the agent to act, the phase, the window."""
        self._phase, actor, window, _, _ = self._batch.status(0)
        self._window = window > 0
        self._legal = None
        self._game = None
        self.agent_selection = self.possible_agents[actor]

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, termination, truncation and info of the
        agent to act (PettingZoo's ``last``)."""
        if not self._has_reset:
            raise IllegalActionError("call reset() first")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> Obs:
        if not self._has_reset:
            raise IllegalActionError("call reset() first")
        obs = np.empty(self.encoder.size, dtype=np.float32)
        mask = np.empty(self.table.size, dtype=np.int8)
        # the mask is the legal actions if the seat is to act (zeros otherwise)
        self._batch.observe_seat(0, self._seat_of[agent], obs, mask)
        if self.truncations.get(agent) or self.terminations.get(agent):
            mask[:] = 0
        if self.layout is not None:
            obs = self.layout(obs, mask)
        return {"observation": obs, "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The legal action indices of the agent to act (empty when the episode is over)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            return []
        if self._phase >= _ROUND_OVER:
            return []
        if self._legal is None:
            self._legal = np.flatnonzero(self.observe(agent)["action_mask"]).tolist()
        return list(self._legal)

    def step(self, action: Any) -> None:
        if not self.agents:
            raise IllegalActionError(
                "the episode is over: call reset()" if self._has_reset else "call reset() first"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._dirty_rewards:
            self._clear_rewards()
            self._dirty_rewards = False
        if type(action) is int and 0 <= action < self.table.size:
            index = action  # the common case, without the checks of action_index
        else:
            index = action_index(action, self.table.size)
        seat = self._seat_of[agent]
        batch = self._batch
        if not batch.is_legal(0, index):
            self._illegal(agent, index)
            return
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        move = self.table.moves(seat)[index]
        if not self._window or move != OP_PASS:  # passing a catch is no command
            self._moves.append((seat, move))
        act, _, _, _, ends, winner, values = self._arrays
        act[0] = index
        batch.step(*self._arrays, False)
        self._refresh()
        cost = self.rewards_spec.step_cost
        if cost:
            self.rewards[agent] = -cost
        if ends[0]:
            self._round_over(values[0], int(winner[0]))
        elif self.max_steps is not None and self._steps >= self.max_steps:
            # the round is cut: it is worth what a round without a winner is
            rewards = self.rewards_spec.outcome([batch.hand_values(0)], [-1])[0]
            for a, r in zip(self.possible_agents, rewards.tolist(), strict=True):
                self.rewards[a] += r
                self.truncations[a] = True
            self._accumulate_rewards()
            self._dirty_rewards = True
        elif cost:
            self._accumulate_rewards()
            self._dirty_rewards = True

    def _illegal(self, agent: str, index: int) -> None:
        seat = self._seat_of[agent]
        name = self.table.names[index]
        message = (
            f"{agent} (P{seat}) cannot take action {index} ({name}) now; legal: "
            f"{', '.join(f'{i} {self.table.names[i]}' for i in self.legal_actions())}"
        )
        if self.illegal == "raise":
            raise IllegalActionError(message)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {"illegal_action": index}
        self._accumulate_rewards()
        self._dirty_rewards = True
        self._legal = None

    def _round_over(self, hand_values: npt.NDArray[np.int64], winner: int) -> None:
        match_over = self._phase == _MATCH_OVER
        if self.reward_mode != "win" or self.episode == "round":
            values = self.rewards_spec.outcome([hand_values], [winner])[0].tolist()
        elif match_over:
            winners = set(self.game.match_winners)
            k, n = len(winners), self.players
            values = [1.0 if s in winners else -k / (n - k) if k < n else 0.0 for s in range(n)]
        else:
            values = [0.0] * self.players
        for a, r in zip(self.possible_agents, values, strict=True):
            self.rewards[a] += r
        self._accumulate_rewards()
        self._dirty_rewards = True
        if self.episode == "match" and not match_over:
            self._batch.next_round(0)
            self._refresh()
            return
        for a in self.agents:
            self.terminations[a] = True

    # ------------------------------------------------------------------ display

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table from the view of the agent to act: text (``ansi``), printed
        (``human``) or an image (``rgb_array``)."""
        if not self._has_reset:
            raise IllegalActionError("call reset() first")
        if self.render_mode is None:
            return render_output("", None)
        return render_output(self.render_text(), self.render_mode)

    def render_text(self) -> str:
        """The table as text, from the view of the agent to act (its hand is
        shown, no other hand; in Flip the backs every player can see)."""
        seat = self._seat_of[self.agent_selection]
        return render_game(self.game, self.table, self.legal_actions(), seat)

    def to_record(self) -> Any:
        """The episode so far as a game record (:class:`unokit.records.record.Record`,
        docs/record-format.md): its start (the seed of :meth:`reset`, or the
        position of :meth:`reset_to`) and every move, as commands."""
        from unokit.engine import notation
        from unokit.records.record import Record, record_of

        if not self._has_reset:
            raise IllegalActionError("call reset() first")
        if isinstance(self._origin, str):
            g = notation.loads(self._origin)
            g.commands = []
        else:
            g = Game.new(self.variant_name, self.players, self.options, seed=self._origin)
        for seat, move in self._moves:
            g.apply(g.decode(seat, move))
        if isinstance(self._origin, str):
            return Record(
                g.variant.name, g.n, g.options, seed=None, position=self._origin,
                commands=list(g.commands or []),
            )  # fmt: skip
        return record_of(g, producer=f"{type(self).__module__} environment")

    def close(self) -> None:
        pass

    def action_name(self, index: int) -> str:
        """The action table's name of ``index`` (e.g. ``"PLAY W color=G"``)."""
        return self.table.names[index]


def render_game(game: Game, table: ActionTable, legal: list[int], seat: int | None = None) -> str:
    """``game`` as text from the view of ``seat`` (default: the seat to act):
    public facts, that seat's hand and its ``legal`` action indices (no other
    hand)."""
    v = game.variant
    if game.phase >= _ROUND_OVER:
        seat = None
    elif seat is None:
        seat = game.current
    obs = game.observe(seat)
    if seat is None:
        head = "round over"
    elif seat != game.current:
        head = f"P{seat} may catch P{game.vulnerable} (P{game.current} to act, {obs.phase})"
    else:
        head = f"P{seat} to act ({obs.phase})"
    lines = [f"UNO {v.name} - {game.n} players - round {obs.round} - {head}"]
    top = obs.top.face(obs.side) if obs.top is not None else None
    color = obs.color.name if obs.color is not None else "-"
    line = (
        f"top: {top}  colour: {color}  direction: {'cw' if obs.direction == 1 else 'ccw'}"
        f"  draw pile: {obs.draw_size}"
    )
    if v.two_sided:
        line += f"  side: {('light', 'dark')[obs.side]}"
        if obs.draw_top_back is not None:
            line += f"  draw pile top back: {obs.draw_top_back}"
    if obs.pending_draw:
        line += f"  pending draw: {obs.pending_draw}"
    lines.append(line)
    for s in range(game.n):
        info = f"P{s}: {obs.hand_sizes[s]:>2} cards  score {obs.scores[s]}"
        if obs.uno[s] != "none":
            info += f"  UNO {obs.uno[s]}"
        if v.flex:
            info += f"  power {'green' if obs.powers[s] else 'red'}"
        if v.two_sided and s != seat and obs.backs[s]:
            info += "  backs: " + " ".join(str(f) for f in obs.backs[s])
        lines.append(info)
    if seat is not None:
        lines.append(f"P{seat} holds: " + " ".join(str(c) for c in obs.hand))
        lines.append("legal: " + ", ".join(f"{i} {table.names[i]}" for i in legal))
    else:
        won = "nobody (blocked)" if obs.winner is None else f"P{obs.winner}"
        lines.append(f"round won by {won}, {obs.round_points} points")
    return "\n".join(lines) + "\n"


def action_index(action: Any, size: int) -> int:
    """``action`` as an index of a table of ``size`` actions; raises if it is not one."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = int(action)
        else:
            raise IllegalActionError(
                f"an action is an integer index of the action table, got {action!r}"
            )
    index = int(action)
    if not 0 <= index < size:
        raise IllegalActionError(f"action {index} is outside the action table (0..{size - 1})")
    return index
