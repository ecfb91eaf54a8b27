"""Batched UNO environments: ``num_envs`` rounds of one variant stepped together.

:class:`UnoVectorEnv` plays many independent rounds of Classic, Flip or Flex at
once for high-throughput reinforcement learning (the style of pgx and
EnvPool): one call of :meth:`~UnoVectorEnv.step` takes one action per game and
advances every game by one decision. It plays **exactly** the rules of the
engine (every option of docs/rules.md Appendix C) and of the AEC environments
(:mod:`unokit.envs.uno_classic_v0`, ``uno_flip_v0``, ``uno_flex_v0``) and uses
their observation vector and action table, so a policy trained on one works on
the other.

====================  ============================================================
Import                ``uno_classic_v0.vector_env(num_envs, players, seed=0)``
                      (also ``uno_flip_v0`` / ``uno_flex_v0``), or
                      ``UnoVectorEnv("flip", num_envs, players)``
Players               the variant's range (the same for every game of the batch)
Actions               ``ndarray`` of ``num_envs`` indices of the action table of
                      :mod:`unokit.envs.actions` (Classic: 70 entries at 2 players)
Observation           :class:`VectorStep` of arrays (below)
Rules                 the engine's, under any options (``stacking``, ``sevenZero``...)
====================  ============================================================

Usage::

    import numpy as np
    from unokit.envs import uno_flip_v0

    env = uno_flip_v0.vector_env(256, players=2, seed=0)
    out = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        # a uniformly random legal action per game
        actions = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out = env.step(actions)
        # out.rewards[out.terminated] are the rewards of the rounds that ended

Arguments
    ``vector_env(num_envs, players=2, *, reward="points", seed=None,
    max_steps=3_000, stall_reward="loss", step_cost=0.0, **options)``.
    ``reward``, ``stall_reward`` and ``step_cost`` are the reward options of
    the AEC environment (:mod:`unokit.envs.rewards`, computed by the same
    code); ``max_steps`` truncates a round after that many decisions
    (``None``: never); ``options`` are the game options by their spec names.

Seeds
    Every round of the batch is an engine game ``Game.new(variant, players,
    options, seed=s)``: game ``i`` starts with seed ``seed + i``, and each
    round dealt by an automatic reset takes the next unused seed
    (``seed + num_envs``, ``seed + num_envs + 1``, ... in the order of the
    games that ended, by index, step after step). ``seed=None`` draws the base
    from the system's entropy; ``reset(seed=s)`` starts over from ``s``.
    :attr:`~UnoVectorEnv.seeds` gives each game's current seed, so any round
    can be replayed with the engine.

What a step returns
    :meth:`~UnoVectorEnv.reset` and :meth:`~UnoVectorEnv.step` return a
    :class:`VectorStep` of fresh arrays (game ``i`` in row ``i``):

    * ``observation`` ``float32 (num_envs, size)``: the observation of the seat
      to act, the vector :meth:`ObservationEncoder.encode_game(game, seat)
      <unokit.envs.observation.ObservationEncoder.encode_game>` gives (seats
      relative to that seat; Classic, 2 players: 119 values in the default layout 5, 115
      in layout 4, 223 in layout 2, 181 in layout 1);
    * ``action_mask`` ``int8 (num_envs, actions)``: the legal actions of the
      seat to act, as the AEC environment's mask (UNO calls and catches
      included when they have an effect);
    * ``current_player`` ``int64 (num_envs,)``: the seat to act (in a catch
      window, the seat offered the catch: below);
    * ``rewards`` ``float32 (num_envs, players)``, by absolute seat: the round's
      rewards (:class:`unokit.envs.rewards.RewardSpec`) in the step that ends a
      round, else 0 (less ``step_cost`` for the seat that acted);
    * ``terminated`` / ``truncated`` ``bool (num_envs,)``: the round ended in
      this step (won, or blocked), or it reached ``max_steps`` (worth
      ``stall_reward``, as a blocked round).

Catch windows
    As in the AEC environment: when a move leaves a vulnerable seat (down to
    one card, UNO not called) itself to act, e.g. a Skip at two players, each
    other seat, in order of play, is offered the catch first
    (:meth:`unokit.Game.catch_window`). The offered seat is ``current_player``;
    its mask holds exactly ``CATCH +k`` (the vulnerable seat) and ``PASS``. A
    catch is an engine command and closes the window; a pass offers the next
    seat. Window decisions are decisions like any other (reward 0 less
    ``step_cost``, counted by ``max_steps``).

Automatic reset
    A game whose round ends is dealt a new round **in the same step** (the
    convention of pgx's ``auto_reset`` and of Gymnasium's ``SAME_STEP``
    autoreset mode): the step returns the ending round's ``rewards`` and
    ``terminated`` (or ``truncated``) ``True``, together with the observation,
    mask and seat to act of the new round's first decision. So every returned
    row has a legal action and the next ``step`` always acts; a learner
    treats a row with ``terminated`` as the episode's last transition (its
    observation starts the next one). The final position of a round is not
    returned (nobody acts in it). An episode is one round (scores in the
    observation are 0).

Illegal actions
    An action that is not in its game's mask, an index outside the table, an
    array of the wrong shape or a non-integer dtype raises
    :class:`unokit.IllegalActionError` naming the games and their legal
    actions, and changes nothing. ``step`` before ``reset`` raises too.

Positions and the engine
    :meth:`~UnoVectorEnv.to_game` gives game ``i`` as a :class:`unokit.Game`
    (to render it, or to continue it with the engine or a search bot); in a
    catch window that is the engine's position (the vulnerable seat to act;
    ``game.catch_window()`` lists the seats offered). :meth:`~UnoVectorEnv.reset_from`
    starts the batch from engine games instead of seeds.

Compared with the AEC environment
    Same rules, options, observation, mask, action table, catch windows and
    rewards (tests/envs/test_vector.py and the fuzzer prove it decision by
    decision, :func:`unokit.envs.differential.vector_differential`). Not here:
    ``episode="match"`` (an episode is one round), ``illegal="terminate"``
    (illegal actions always raise), rendering (use ``to_game``).

>>> import numpy as np
>>> env = UnoVectorEnv("classic", num_envs=4, players=2, seed=0)
>>> out = env.reset()
>>> out.observation.shape, out.action_mask.shape, out.rewards.shape
((4, 119), (4, 70), (4, 2))
>>> bool((out.action_mask.sum(axis=1) > 0).all()), env.seeds.tolist()
(True, [0, 1, 2, 3])
>>> rng = np.random.default_rng(1)
>>> ended = 0
>>> for _ in range(3000):
...     out = env.step((rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1))
...     ended += int(out.terminated.sum())
...     assert np.allclose(out.rewards[out.terminated].sum(axis=1), 0)  # zero-sum
>>> ended > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.engine.errors import IllegalActionError, OptionError
from unokit.engine.game import OP_CATCH, OP_PASS, Game, Phase
from unokit.engine.multiplay import OP_MULTI
from unokit.engine.options import Options
from unokit.engine.variants import get_variant

from ._base import MAX_STEPS, check_max_steps, check_playable
from ._corebatch import make_batch, per_seed_tables, to_game
from .actions import ActionTable, action_table
from .observation import DEFAULT_OBS_LAYOUT, ObservationEncoder, check_obs_layout, make_layout
from .rewards import RewardSpec

__all__ = ["UnoVectorEnv", "UnoClassicVectorEnv", "VectorStep", "BACKENDS"]

#: ``core``: the games live in the C rules core, stepped and encoded there;
#: ``reference``: engine games (:class:`unokit.Game`) stepped one by one in
#: Python, the oracle the tests and the fuzzer compare the core with.
BACKENDS = ("core", "reference")
#: seeds of a batch (the seed of each round is a 64-bit integer in the core)
MAX_SEED = 2**62

IntArray = npt.NDArray[np.int64]
#: what a backend's step gives: rewards, terminated, truncated
Result = tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]

_ROUND_OVER = int(Phase.ROUND_OVER)
_DEAL = int(Phase.DEAL)


@dataclass(frozen=True, slots=True)
class VectorStep:
    """What :meth:`UnoVectorEnv.reset` and ``step`` return (row ``i`` = game
    ``i``); see the module documentation."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    current_player: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


def _check_seed(seed: object) -> int | None:
    if seed is None:
        return None
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise OptionError(f"seed must be None or an integer in 0..2**62-1, got {seed!r}")
    return int(seed)


class UnoVectorEnv:
    """``num_envs`` rounds of one UNO variant stepped together (see the module page)."""

    def __init__(
        self,
        variant: str,
        num_envs: int,
        players: int = 2,
        *,
        reward: str = "points",
        seed: int | None = None,
        max_steps: int | None = MAX_STEPS,
        stall_reward: str = "loss",
        step_cost: float = 0.0,
        backend: str = "core",
        obs_layout: int = DEFAULT_OBS_LAYOUT,
        **options: Any,
    ) -> None:
        v = get_variant(variant)
        if backend not in BACKENDS:
            raise OptionError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        if not isinstance(num_envs, int | np.integer) or isinstance(num_envs, bool):
            raise OptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        if num_envs < 1:
            raise OptionError(f"num_envs must be a positive integer, got {num_envs}")
        if not isinstance(players, int | np.integer) or isinstance(players, bool):
            raise OptionError(f"players must be an integer, got {players!r}")
        if not v.min_players <= players <= v.max_players:
            raise OptionError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players}"
            )
        self.rewards_spec = RewardSpec(reward, stall_reward, step_cost)
        check_max_steps(max_steps)
        base = _check_seed(seed)
        self.options = Options.from_dict(options)
        check_playable(v.name, int(players), self.options)
        self.variant = v
        self.num_envs = int(num_envs)
        self.players = int(players)
        self.reward_mode = reward
        self.stall_reward = stall_reward
        self.step_cost = self.rewards_spec.step_cost
        self.max_steps = max_steps
        self.table: ActionTable = action_table(v, self.players, self.options)
        self.encoder = ObservationEncoder(v, self.players, self.options)
        self.obs_layout = check_obs_layout(obs_layout)
        #: layout 5 (the default), 4, 3 or 2 made from the encoder's vector; None: layout 1
        self.layout = make_layout(self.encoder, self.table, obs_layout)
        self._base_seed = base
        self._has_reset = False
        self._cur = np.zeros(self.num_envs, dtype=np.int64)
        self.backend = backend
        self._batch: GameBatch | _CoreBatch = (
            GameBatch(self) if backend == "reference" else _CoreBatch(self)
        )

    # ------------------------------------------------------------------ public API

    @property
    def num_actions(self) -> int:
        """Size of the action table."""
        return self.table.size

    @property
    def observation_size(self) -> int:
        """Length of the observation vector (of the layout, ``obs_layout``)."""
        return self.encoder.size if self.layout is None else self.layout.size

    @property
    def observation_high(self) -> npt.NDArray[np.float32]:
        """Upper bound of each observation value (all 1 in layouts 2 to 4)."""
        return self.encoder.high if self.layout is None else self.layout.high

    @property
    def seeds(self) -> IntArray:
        """The engine seed of each game's current round (``Game.new(..., seed=)``);
        -1 for a game started by :meth:`reset_from`."""
        return np.array(self._batch.seeds, dtype=np.int64)

    def reset(self, seed: int | None = None) -> VectorStep:
        """Deal a new round in every game: seeds ``seed``, ``seed + 1``, ... (the
        constructor's seed when ``seed`` is None, fresh entropy if both are)."""
        s = _check_seed(seed)
        if s is None:
            s = self._base_seed
        if s is None:
            s = random.SystemRandom().randrange(2**31)
        self._batch.reset(s)
        self._has_reset = True
        return self._output(self._zeros_rewards(), *self._no_ends())

    def reset_from(self, games: Sequence[Game]) -> VectorStep:
        """Start every game of the batch from an engine position (``games[i]`` for
        game ``i``; copies are taken). A game in phase ``DEAL`` has its first card
        turned here. Rounds dealt later by automatic resets take seeds from the
        constructor's seed (or fresh entropy). Raises :class:`OptionError` for a
        game of another variant, player count or options, or one that waits for
        no decision."""
        games = list(games)
        if len(games) != self.num_envs:
            raise OptionError(f"reset_from needs {self.num_envs} games, got {len(games)}")
        for i, g in enumerate(games):
            self._check_game(i, g)
        base = self._base_seed
        if base is None:
            base = random.SystemRandom().randrange(2**31)
        self._batch.reset_from(games, base)
        self._has_reset = True
        return self._output(self._zeros_rewards(), *self._no_ends())

    def step(self, actions: Any) -> VectorStep:
        """One decision in every game: ``actions[i]`` is game ``i``'s action index."""
        a = self._check_actions(actions)
        result = self._batch.step(a)
        if result is None:  # an action outside a game's mask: nothing changed
            raise self._illegal(a)
        return self._output(*result)

    def to_game(self, i: int) -> Game:
        """Game ``i`` as a :class:`unokit.Game` (a copy: changing it does not change
        the batch). In a catch window it is the engine's position: the vulnerable
        seat to act, the window's decisions not taken (an engine game has no
        window)."""
        if not isinstance(i, int | np.integer) or isinstance(i, bool):
            raise IndexError(f"game index must be an integer, got {i!r}")
        if not 0 <= i < self.num_envs:
            raise IndexError(f"no game {i} in a batch of {self.num_envs}")
        if not self._has_reset:
            raise IllegalActionError("call reset() or reset_from() first")
        return self._batch.to_game(int(i))

    # ------------------------------------------------------------------ helpers

    def _zeros_rewards(self) -> npt.NDArray[np.float32]:
        return np.zeros((self.num_envs, self.players), dtype=np.float32)

    def _no_ends(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        return np.zeros(self.num_envs, dtype=bool), np.zeros(self.num_envs, dtype=bool)

    def _output(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
    ) -> VectorStep:
        obs, mask, cur = self._batch.outputs()
        if self.layout is not None:
            obs = self.layout(obs, mask)
        self._cur = cur.copy()  # the acting seats of the next step (step_cost)
        return VectorStep(obs, mask, cur, rewards, terminated, truncated)

    def _check_game(self, i: int, g: object) -> None:
        if not isinstance(g, Game):
            raise OptionError(f"games[{i}] is not a unokit Game but {type(g).__name__}")
        if g.variant.name != self.variant.name or g.n != self.players:
            raise OptionError(
                f"games[{i}] is {g.variant.name} with {g.n} players; this batch plays "
                f"{self.variant.name} with {self.players}"
            )
        if g.options != self.options:
            raise OptionError(f"games[{i}] has other options than this environment")
        if g.phase >= _ROUND_OVER and g.phase != _DEAL:
            raise OptionError(f"games[{i}] waits for no decision (state {g.state.name})")
        if g.phase == _DEAL and (g.discard or not g.draw):
            raise OptionError(f"games[{i}]: a round in DEAL needs cards to turn")

    def _check_actions(self, actions: Any) -> IntArray:
        if not self._has_reset:
            raise IllegalActionError("call reset() or reset_from() first")
        arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        B = self.num_envs
        if arr.shape != (B,):
            raise IllegalActionError(
                f"actions must be an integer array of shape ({B},), one index per game; "
                f"got shape {arr.shape}"
            )
        if arr.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be integer indices of the action table, got dtype {arr.dtype}"
            )
        return np.ascontiguousarray(arr, dtype=np.int64)

    def _illegal(self, a: IntArray) -> IllegalActionError:
        """The error for actions ``a`` of which some are outside the table or
        their game's mask."""
        A = self.table.size
        outside = np.flatnonzero((a < 0) | (a >= A))
        if outside.size:
            return IllegalActionError(
                f"actions outside the action table (0..{A - 1}) in game(s) "
                + ", ".join(f"{i}: {a[i]}" for i in outside[:5].tolist())
                + (f" and {outside.size - 5} more" if outside.size > 5 else "")
            )
        names = self.table.names
        parts = []
        bad = 0
        for i in range(self.num_envs):
            legal = self._batch.legal(i)
            if int(a[i]) in legal:
                continue
            bad += 1
            if bad <= 3:
                parts.append(
                    f"game {i} (P{self._cur[i]} to act) cannot take {a[i]} ({names[a[i]]}); "
                    f"legal: {', '.join(f'{j} {names[j]}' for j in legal)}"
                )
        more = f"; and {bad - 3} more game(s)" if bad > 3 else ""
        return IllegalActionError("illegal action: " + "; ".join(parts) + more)


class GameBatch:
    """The batch as a list of engine games, stepped one by one in Python."""

    def __init__(self, env: UnoVectorEnv) -> None:
        self.env = env
        B = env.num_envs
        self.games: list[Game] = []
        self.seeds: list[int] = [-1] * B
        self.steps = [0] * B
        self.window: list[list[int]] = [[] for _ in range(B)]
        self.window_of = [-1] * B
        self.next_seed = 0
        self.mask = np.zeros((B, env.table.size), dtype=np.int8)  # the last one returned

    def _deal(self, i: int) -> Game:
        env = self.env
        s = self.next_seed
        self.next_seed += 1
        self.seeds[i] = s
        self.steps[i] = 0
        self.window[i] = []
        self.window_of[i] = -1
        return Game.new(env.variant.name, env.players, env.options, seed=s, events=False)

    def reset(self, seed: int) -> None:
        self.next_seed = seed
        self.games = [self._deal(i) for i in range(self.env.num_envs)]

    def reset_from(self, games: list[Game], seed: int) -> None:
        self.next_seed = seed
        B = self.env.num_envs
        self.games = []
        for i, g in enumerate(games):
            c = g.copy()
            if c.phase == _DEAL:
                c.start()
            self.games.append(c)
            self.seeds[i] = -1
            self.steps[i] = 0
            self.window[i] = []
            self.window_of[i] = -1
        assert len(self.games) == B

    def actor(self, i: int) -> int:
        w = self.window[i]
        return w[0] if w else self.games[i].current

    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], IntArray]:
        env = self.env
        B = env.num_envs
        table, enc = env.table, env.encoder
        obs = np.empty((B, enc.size), dtype=np.float32)
        mask = np.zeros((B, table.size), dtype=np.int8)
        cur = np.empty(B, dtype=np.int64)
        for i, g in enumerate(self.games):
            seat = self.actor(i)
            cur[i] = seat
            obs[i] = enc.encode_game(g, seat)
            idx = table.indices(seat)
            if self.window[i]:
                mask[i, idx[_catch_code(self.window_of[i])]] = 1
                mask[i, idx[OP_PASS]] = 1
            else:
                for m in g.legal_moves(seat):
                    if m & 15 != OP_MULTI:  # multi-plays have no entry (docs/rl.md)
                        mask[i, idx[m]] = 1
        self.mask = mask.copy()
        return obs, mask, cur

    def outputs(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], IntArray]:
        return self.observe()

    def legal(self, i: int) -> list[int]:
        return [int(x) for x in np.flatnonzero(self.mask[i])]

    def step(self, actions: IntArray) -> Result | None:
        env = self.env
        B, n = env.num_envs, env.players
        A = env.table.size
        if ((actions < 0) | (actions >= A)).any() or not self.mask[np.arange(B), actions].all():
            return None
        spec = env.rewards_spec
        cost = spec.step_cost
        rewards = np.zeros((B, n), dtype=np.float32)
        terminated = np.zeros(B, dtype=bool)
        truncated = np.zeros(B, dtype=bool)
        ended: list[int] = []
        for i, a in enumerate(actions.tolist()):
            g = self.games[i]
            seat = self.actor(i)
            move = env.table.moves(seat)[a]
            w = self.window[i]
            if w:
                if move == OP_PASS:
                    w.pop(0)
                else:  # the catch: the vulnerable seat draws, the window closes
                    g.apply_move(move, seat)
                    w.clear()
            else:
                g.apply_move(move, g.current, False)
                self.window[i] = g.catch_window()
                self.window_of[i] = g.vulnerable if self.window[i] else -1
            self.steps[i] += 1
            if cost:
                rewards[i, seat] = -cost
            if g.phase >= _ROUND_OVER:
                terminated[i] = True
            elif env.max_steps is not None and self.steps[i] >= env.max_steps:
                truncated[i] = True
            else:
                continue
            rewards[i] += spec.round_end(g)
            ended.append(i)
        for i in ended:
            self.games[i] = self._deal(i)
        return rewards, terminated, truncated

    def to_game(self, i: int) -> Game:
        return self.games[i].copy()


def _catch_code(target: int) -> int:
    return OP_CATCH | ((target + 1) << 21)


class _CoreBatch:
    """The batch in the C rules core (:class:`unokit._core.Batch`): moves,
    catch windows, automatic resets, observations and masks in one C loop."""

    def __init__(self, env: UnoVectorEnv) -> None:
        self.env = env
        self.per_seed = per_seed_tables(env.variant, env.options)
        self.batch = make_batch(
            env.table, env.encoder, env.num_envs, max_steps=env.max_steps, auto_deal=True
        )
        n = env.players
        B = env.num_envs
        self.positioned = np.zeros(B, dtype=bool)  # started by reset_from
        self.position_seeds: dict[int, int] = {}
        self._ends = np.empty(B, dtype=np.int8)
        self._winner = np.empty(B, dtype=np.int64)
        self._values = np.empty((B, n), dtype=np.int64)
        self._seeds = np.empty(B, dtype=np.int64)

    @property
    def seeds(self) -> list[int]:
        self.batch.seeds(self._seeds)
        out = self._seeds.copy()
        out[self.positioned] = -1
        return [int(x) for x in out]

    def _deal_per_seed(self, rows: list[int]) -> None:
        env = self.env
        nxt = int(self.batch.seeds(self._seeds))
        for i in rows:
            g = Game.new(env.variant, env.players, env.options, seed=nxt, events=False)
            self.batch.set(i, g._g, nxt)
            nxt += 1
        self.batch.set_next_seed(nxt)

    def reset(self, seed: int) -> None:
        self.positioned[:] = False
        self.position_seeds.clear()
        if self.per_seed:
            self.batch.set_next_seed(seed)
            self._deal_per_seed(list(range(self.env.num_envs)))
        else:
            self.batch.reset(seed)

    def reset_from(self, games: list[Game], seed: int) -> None:
        for i, g in enumerate(games):
            c = g.copy()
            if c.phase == _DEAL:
                c._g.start()
            self.batch.set(i, c._g, 0)
            self.position_seeds[i] = g.seed
        self.positioned[:] = True
        self.batch.set_next_seed(seed)

    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], IntArray]:
        env = self.env
        B = env.num_envs
        obs = np.empty((B, env.encoder.size), dtype=np.float32)
        mask = np.empty((B, env.table.size), dtype=np.int8)
        cur = np.empty(B, dtype=np.int64)
        self.batch.observe(obs, mask, cur)
        return obs, mask, cur

    def legal(self, i: int) -> list[int]:
        return self.batch.legal(i)

    def step(self, actions: IntArray) -> Result | None:
        env = self.env
        B, n = env.num_envs, env.players
        acting = env._cur
        obs = np.empty((B, env.encoder.size), dtype=np.float32)
        mask = np.empty((B, env.table.size), dtype=np.int8)
        cur = np.empty(B, dtype=np.int64)
        ends = self._ends
        ended = self.batch.step(actions, obs, mask, cur, ends, self._winner, self._values)
        if ended < 0:
            return None
        rewards = np.zeros((B, n), dtype=np.float32)
        cost = env.rewards_spec.step_cost
        if cost:
            rewards[np.arange(B), acting] = -cost
        terminated = ends == 1
        truncated = ends == 2
        if ended:
            rows = np.flatnonzero(ends)
            rewards[rows] += env.rewards_spec.outcome(self._values[rows], self._winner[rows])
            self.positioned[rows] = False
            for i in rows.tolist():
                self.position_seeds.pop(i, None)
            if self.per_seed:
                self._deal_per_seed(rows.tolist())
                obs, mask, cur = self.observe()
        self._next: tuple[Any, ...] | None = (obs, mask, cur)
        return rewards, terminated, truncated

    def outputs(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], IntArray]:
        """The arrays of the last step (written by it), else fresh ones."""
        out = getattr(self, "_next", None)
        self._next = None
        return out if out is not None else self.observe()

    def to_game(self, i: int) -> Game:
        seed = self.position_seeds.get(i)
        if seed is None:
            self.batch.seeds(self._seeds)
            seed = int(self._seeds[i])
        return to_game(self.batch, i, self.env.table, seed)


class UnoClassicVectorEnv(UnoVectorEnv):
    """:class:`UnoVectorEnv` playing Classic (``uno_classic_v0.vector_env``), under
    its name of unokit 0.1 (the old path ``unokit.envs.vector_classic`` is an
    alias of this module, with a deprecation warning).

    >>> UnoClassicVectorEnv(num_envs=4, players=2, seed=0).reset().observation.shape
    (4, 119)
    """

    def __init__(self, num_envs: int, players: int = 2, **kwargs: Any) -> None:
        super().__init__("classic", num_envs, players, **kwargs)
