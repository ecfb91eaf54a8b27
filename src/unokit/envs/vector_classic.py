"""UNO Classic, batched: ``num_envs`` rounds stepped together with NumPy.

:class:`UnoClassicVectorEnv` plays many independent Classic rounds at once for
high-throughput reinforcement learning (the style of pgx and EnvPool): one
call of :meth:`~UnoClassicVectorEnv.step` takes one action per game and
advances every game by one decision, with NumPy array operations and no Python
loop over the games. It plays **exactly** the rules of the engine and of
:mod:`unokit.envs.uno_classic_v0` and uses the same observation vector and
action table, so a policy trained on one works on the other.

====================  ============================================================
Import                ``from unokit.envs.vector_classic import UnoClassicVectorEnv``
                      (or ``uno_classic_v0.vector_env(num_envs, players)``)
Players               2..10 (the same for every game of the batch)
Actions               ``ndarray`` of ``num_envs`` indices of the action table of
                      :mod:`unokit.envs.actions` (70 entries at 2 players)
Observation           :class:`VectorStep` of arrays (below)
Rules                 Classic, official rules (docs/rules.md §1-2): the default options
====================  ============================================================

Usage::

    import numpy as np
    from unokit.envs.vector_classic import UnoClassicVectorEnv

    env = UnoClassicVectorEnv(num_envs=256, players=2, seed=0)
    out = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        # a uniformly random legal action per game
        actions = (rng.random(out.action_mask.shape) * out.action_mask).argmax(axis=1)
        out = env.step(actions)
        # out.rewards[out.terminated] are the rewards of the rounds that ended

Arguments
    ``UnoClassicVectorEnv(num_envs, players=2, *, reward="points", seed=None,
    max_steps=3_000, stall_reward="loss", step_cost=0.0, **options)``.
    ``reward``, ``stall_reward`` and ``step_cost`` are the reward options of
    the AEC environment (:mod:`unokit.envs.rewards`, computed by the same
    code); ``seed`` seeds the batch's own
    :class:`numpy.random.Generator` (``None``: fresh entropy); ``max_steps``
    truncates a round after that many decisions (``None``: never), like the AEC
    environment's. ``options`` are game options by their spec names: only the
    official rules are supported, i.e. every option at its default, except
    options that do not change a round as this environment plays it
    (``targetScore``, ``scoringMode``, ``matchMode``, ``lowestModeTie``,
    ``dealerRotation``, ``dealerSelection`` ``cut`` or ``random``,
    ``misplayPenalty``, ``jumpIn`` and ``falseCatchPenalty`` -- the mask never
    offers a misplay, a jump-in or a false catch -- and the Flip and Flex
    options). Anything else raises
    :class:`unokit.OptionError`; the AEC environment ``uno_classic_v0`` covers
    every option.

What a step returns
    :meth:`~UnoClassicVectorEnv.reset` and :meth:`~UnoClassicVectorEnv.step`
    return a :class:`VectorStep` of fresh arrays (game ``i`` in row ``i``):

    * ``observation`` ``float32 (num_envs, size)``: the observation of the seat
      to act, the vector :meth:`ObservationEncoder.encode_game(game, seat)
      <unokit.envs.observation.ObservationEncoder.encode_game>` gives (seats
      relative to that seat; 181 values at 2 players); scores are those of the
      position (0 in the rounds this environment deals: an episode is a round);
    * ``action_mask`` ``int8 (num_envs, actions)``: the legal actions of the
      seat to act, as ``uno_classic_v0``'s mask (UNO calls and catches included
      when they have an effect);
    * ``current_player`` ``int64 (num_envs,)``: the seat to act (in a catch
      window, the seat offered the catch: below);
    * ``rewards`` ``float32 (num_envs, players)``, by absolute seat: the round's
      rewards (:class:`unokit.envs.rewards.RewardSpec`) in the step that ends a
      round, else 0 (less ``step_cost`` for the seat that acted);
    * ``terminated`` / ``truncated`` ``bool (num_envs,)``: the round ended in
      this step (won, or blocked: nothing left to draw), or it reached
      ``max_steps`` (worth ``stall_reward``, as a blocked round).

Catch windows
    As in ``uno_classic_v0``: any other player may catch a seat that played down
    to one card without calling UNO until that seat's next turn action
    (docs/rules.md §1.11), but only the agent to act can act. So when a move leaves
    the vulnerable seat itself to act -- in Classic, at two players only: a
    Skip, Reverse or Draw Two played down to one card (at 3+ players the way
    back to that seat passes through another seat's turn action, which ends the
    vulnerability) -- a catch window opens: each other seat, in order of play,
    is offered the catch first. The offered seat is ``current_player``; its
    observation is its usual vector (the position is unchanged) and its mask
    holds exactly ``CATCH +k`` (the vulnerable seat) and ``PASS`` (let the
    chance go). A catch gives the vulnerable seat its ``unoPenalty`` cards and
    closes the window; a pass offers the next seat, and after the last one the
    vulnerable seat acts (it may still call UNO). A window opens only right
    after a move applied to the game, never again for the same vulnerability,
    never on ``reset_from``. Window decisions are decisions like any other:
    reward 0 (less ``step_cost``), counted by ``max_steps``.

Automatic reset
    A game whose round ends is dealt a new round **in the same step** (the
    convention of pgx's ``auto_reset`` and of Gymnasium's ``SAME_STEP``
    autoreset mode): the step returns the ending round's ``rewards`` and
    ``terminated`` (or ``truncated``) ``True``, together with the observation,
    mask and seat to act of the new round's first decision. So every returned
    row has a legal action and the next ``step`` always acts; a learner
    treats a row with ``terminated`` as the episode's last transition (its
    observation starts the next one). The final position of a round is not
    returned (nobody acts in it).

Illegal actions
    An action that is not in its game's mask, an index outside the table, an
    array of the wrong shape or a non-integer dtype raises
    :class:`unokit.IllegalActionError` naming the games and their legal
    actions, and changes nothing (there is no penalty mode: use the AEC
    environment for that). ``step`` before ``reset`` raises too.

Randomness
    Deals and reshuffles use the batch's :class:`numpy.random.Generator`, seeded
    by ``seed`` (``reset(seed=s)`` re-seeds it): the same seed and the same
    actions give the same batch of games, byte for byte. Deals are not the
    engine's (``Game.new(seed=s)`` uses Python's generator): they follow the
    same law (a uniformly shuffled deck, a uniformly chosen dealer, and the
    first-card rule of docs/rules.md §2.4).

Positions from the engine
    :meth:`~UnoClassicVectorEnv.reset_from` starts the batch from engine games
    (one per game of the batch: e.g. ``Game.new(...)``, ``Game.setup(...)``):
    hands, draw order, discard pile, colour, seat to act, direction, phase,
    drawn card, challenge, UNO states and scores are copied; a game still in
    phase ``DEAL`` (set up with an empty discard pile) has its first card turned
    by this environment. The discard pile is kept as card counts plus its top
    (its order below the top never matters to the rules: a reshuffle shuffles
    it). :meth:`~UnoClassicVectorEnv.to_game` goes the other way: game ``i``
    as an engine position (to render it, or to continue it with the engine or
    a search bot); in a catch window that is the engine's position, with the
    vulnerable seat to act (``game.catch_window()`` lists the seats a window
    would offer), since an engine ``Game`` has no window state (and
    ``reset_from`` of it opens none). :attr:`~UnoClassicVectorEnv.reshuffle_hook` is a test hook
    that lets a test give the new draw order of a shuffle (the engine shuffles
    with its own generator): the differential test of the suite uses it to
    play the engine and this environment side by side, decision by decision.

Attributes
    ``table`` (the :class:`~unokit.envs.actions.ActionTable`: ``table.names[i]``
    names action ``i``), ``encoder`` (the
    :class:`~unokit.envs.observation.ObservationEncoder`: segments and
    ``high`` bounds), ``num_actions``, ``observation_size``, ``num_envs``,
    ``players``.

Compared with ``uno_classic_v0``
    Same rules, observation, mask, action table, catch windows and rewards (the
    test suite proves it decision by decision). Not here: house rules and other options
    that change a round, ``episode="match"`` (an episode is one round),
    ``illegal="terminate"`` (illegal actions always raise), rendering.

Throughput
    ``benchmarks/bench_envs.py`` measures it against RLCard's UNO in the same
    run (docs/envs.md has the numbers).

>>> import numpy as np
>>> env = UnoClassicVectorEnv(num_envs=4, players=2, seed=0)
>>> out = env.reset()
>>> out.observation.shape, out.action_mask.shape, out.rewards.shape
((4, 181), (4, 70), (4, 2))
>>> bool((out.action_mask.sum(axis=1) > 0).all()), env.table.names[env.table.size - 1]
(True, 'CATCH +1')
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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.cards import Color
from unokit.errors import IllegalActionError, OptionError
from unokit.game import (
    OP_ACCEPT,
    OP_CATCH,
    OP_CHALLENGE,
    OP_COLOR,
    OP_DRAW,
    OP_PASS,
    OP_PLAY,
    OP_UNO,
    Game,
    Phase,
    UnoState,
)
from unokit.options import Options
from unokit.variants import WILD_BIT, get_variant

from ._base import MAX_STEPS, check_max_steps
from .actions import ActionTable, action_table
from .observation import ObservationEncoder
from .rewards import RewardSpec

__all__ = ["UnoClassicVectorEnv", "VectorStep", "ROUND_NEUTRAL_OPTIONS"]

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[Any]
#: ``reshuffle_hook(game index, cards) -> new draw pile (top last)``
ReshuffleHook = Callable[[int, npt.NDArray[np.int64]], Sequence[int] | npt.NDArray[Any]]

#: Options accepted with a value other than their default: they do not change a
#: Classic round as this environment plays it (match scoring, dealer rotation;
#: misplays, jump-ins and false catches, which the mask never offers).
ROUND_NEUTRAL_OPTIONS = frozenset(
    {
        "targetScore",
        "scoringMode",
        "matchMode",
        "lowestModeTie",
        "dealerRotation",
        "misplayPenalty",
        "jumpIn",
        "falseCatchPenalty",
    }
)

_T, _D, _C, _CH = (int(Phase.AWAIT_TURN), int(Phase.AWAIT_DRAWN), int(Phase.AWAIT_COLOR),
                   int(Phase.AWAIT_CHALLENGE))  # fmt: skip
_SAFE, _VULN = 1, 2
# card kinds of the Classic deck (unokit.cards.Kind values)
_NUMBER, _SKIP, _REVERSE, _DRAW_TWO, _WILD, _WD4 = 0, 1, 2, 3, 11, 12


@dataclass(frozen=True, slots=True)
class VectorStep:
    """What :meth:`UnoClassicVectorEnv.reset` and ``step`` return (row ``i`` =
    game ``i``); see the module documentation."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    current_player: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


def _check_options(options: Options) -> None:
    default = Options()
    bad = []
    for f in fields(Options):
        name = f.name
        value = getattr(options, name)
        if value == getattr(default, name) or name in ROUND_NEUTRAL_OPTIONS:
            continue
        if name.startswith(("flip", "flex")):
            continue
        if name == "dealerSelection" and value in ("cut", "random"):
            continue  # both choose the dealer uniformly (a cut is symmetric)
        bad.append(f"{name}={value!r}")
    if bad:
        raise OptionError(
            "UnoClassicVectorEnv plays Classic under the official rules (every option at its "
            "default, or one that does not change a round: "
            f"{', '.join(sorted(ROUND_NEUTRAL_OPTIONS))}, dealerSelection cut/random, and the "
            f"Flip/Flex options); not supported: {', '.join(bad)}. The AEC environment "
            "uno_classic_v0 covers every option."
        )


class UnoClassicVectorEnv:
    """``num_envs`` Classic UNO rounds stepped together (see the module page)."""

    #: test hook: when set, it gives the new draw pile of every shuffle of a round
    #: (a reshuffle of the discard pile, or a Wild Draw Four turned as first card
    #: going back into the pile): called as ``hook(game, cards)`` with the cards
    #: to shuffle (a reshuffle: the discard pile under its top card, in card-id
    #: order; a first card: the draw pile, top last), it returns them in their
    #: new order, top last (the engine's ``game.draw`` order). ``None``: the
    #: batch's generator shuffles.
    reshuffle_hook: ReshuffleHook | None

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        *,
        reward: str = "points",
        seed: int | None = None,
        max_steps: int | None = MAX_STEPS,
        stall_reward: str = "loss",
        step_cost: float = 0.0,
        **options: Any,
    ) -> None:
        if not isinstance(num_envs, int | np.integer) or isinstance(num_envs, bool):
            raise OptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        if num_envs < 1:
            raise OptionError(f"num_envs must be a positive integer, got {num_envs}")
        v = get_variant("classic")
        if not isinstance(players, int | np.integer) or isinstance(players, bool):
            raise OptionError(f"players must be an integer, got {players!r}")
        if not v.min_players <= players <= v.max_players:
            raise OptionError(
                f"classic is played by {v.min_players} to {v.max_players} players, not {players}"
            )
        self.rewards_spec = RewardSpec(reward, stall_reward, step_cost)
        check_max_steps(max_steps)
        self.options = Options.from_dict(options)
        _check_options(self.options)
        self.num_envs = B = int(num_envs)
        self.players = n = int(players)
        self.reward_mode = reward
        self.stall_reward = stall_reward
        self.step_cost = self.rewards_spec.step_cost
        self.max_steps = max_steps
        self.table: ActionTable = action_table(v, n, self.options)
        self.encoder = ObservationEncoder(v, n, self.options)
        self.reshuffle_hook = None
        self._rng = np.random.default_rng(self._seed_value(seed))
        self._has_reset = False

        # ---- card tables (Classic, light side), from the engine's variant tables
        ncards = len(v.cards)
        self._ncards = ncards
        self._deck: IntArray = np.array(v.deck(self.options, 0), dtype=np.int64)
        self._deck_size = len(self._deck)
        self._hand_size = self.options.handSize
        self._kind: IntArray = np.array(v.kind[0], dtype=np.int64)
        self._color: IntArray = np.array(v.color[0], dtype=np.int64)
        self._points: IntArray = np.array(v.points[0], dtype=np.int64)
        self._draw_amount: IntArray = np.array(v.draw_amount[0], dtype=np.int64)
        kinds = set(v.kind[0])
        assert kinds <= {_NUMBER, _SKIP, _REVERSE, _DRAW_TWO, _WILD, _WD4}, kinds
        # playable[color * ncards + top, card]: the engine's mask & accept test
        pl = np.zeros((4 * ncards, ncards), dtype=bool)
        for col in range(4):
            for top in range(ncards):
                acc = (1 << col) | v.topkey[0][top] | WILD_BIT
                pl[col * ncards + top] = [bool(v.mask[0][c] & acc) for c in range(ncards)]
        self._playable = pl
        self._of_color = np.array(
            [[v.color[0][c] == col for c in range(ncards)] for col in range(4)], dtype=bool
        )
        # turn order step of a card played with cards left: 1 next, 2 skip one;
        # a Reverse changes direction first and, at 2 players, acts as a Skip
        self._dir_mul: IntArray = np.where(self._kind == _REVERSE, -1, 1)
        step = np.ones(ncards, dtype=np.int64)
        step[(self._kind == _SKIP) | (self._kind == _DRAW_TWO)] = 2
        step[self._kind == _REVERSE] = 2 if n == 2 else 1
        self._turn_step = step

        # ---- the action table, decoded
        codes = self.table.codes
        A = self.table.size
        self._num_actions = A
        self._op: IntArray = np.array([c & 15 for c in codes], dtype=np.int64)
        self._act_card: IntArray = np.array(
            [(c >> 4) & 0xFFF if c & 15 == OP_PLAY else -1 for c in codes], dtype=np.int64
        )
        self._act_color: IntArray = np.array(
            [((c >> 16) & 15) - 1 if c & 15 in (OP_PLAY, OP_COLOR) else -1 for c in codes],
            dtype=np.int64,
        )
        self._act_catch: IntArray = np.array(
            [((c >> 21) & 15) - 1 if c & 15 == OP_CATCH else 0 for c in codes], dtype=np.int64
        )
        self._num_plays = self.table.num_plays
        self._entry_card = self._act_card[: self._num_plays]
        names = self.table.index_of
        self._i_draw = names("DRAW")
        self._i_pass = names("PASS")
        self._i_color = names("COLOR R")
        assert [names(f"COLOR {c}") for c in "RYGB"] == list(
            range(self._i_color, self._i_color + 4)
        )
        self._i_accept = names("ACCEPT")
        self._i_challenge = names("CHALLENGE")
        self._i_uno = names("UNO")
        self._i_catch = names("CATCH +1")  # CATCH +k at _i_catch + k - 1

        # ---- observation layout
        seg = self.encoder.segments
        self.observation_size = self.encoder.size
        self._o_hand = seg["hand"][0]
        self._o_top = seg["top"][0]
        self._o_discard = seg["discard"][0]
        self._o_color = seg["color"][0]
        self._o_phase = seg["phase"][0]
        self._o_uno = seg["uno"][0]
        self._o_sizes = seg["hand_sizes"][0]
        self._o_direction = seg["direction"][0]
        self._o_draw_size = seg["draw_size"][0]
        self._o_scores = seg["scores"][0]
        assert self._o_draw_size == self._o_direction + 1
        assert list(seg) == [
            "hand", "top", "discard", "color", "phase", "uno", "hand_sizes", "direction",
            "draw_size", "pending_draw", "scores",
        ]  # fmt: skip
        assert [self.encoder.cards[i] for i in range(ncards)] == list(range(ncards))

        # ---- state: game i, seat s is row i * n + s of the per-seat arrays
        self._ar: IntArray = np.arange(B, dtype=np.int64)
        self._arn: IntArray = self._ar * n
        self._rel: IntArray = np.arange(n, dtype=np.int64)
        self._hands = np.zeros((B * n, ncards), dtype=np.int8)  # copies of each card
        self._sizes = np.zeros(B * n, dtype=np.int64)
        self._uno = np.zeros(B * n, dtype=np.int8)  # 0 none, 1 safe, 2 vulnerable
        self._scores = np.zeros(B * n, dtype=np.float32)
        self._draw = np.zeros((B, self._deck_size), dtype=np.int8)  # top = [dlen - 1]
        self._dlen = np.zeros(B, dtype=np.int64)
        self._disc = np.zeros((B, ncards), dtype=np.int16)  # copies in the discard pile
        self._top = np.zeros(B, dtype=np.int64)
        self._col = np.zeros(B, dtype=np.int64)  # current colour, -1 while one is chosen
        self._cur = np.zeros(B, dtype=np.int64)
        self._dir = np.ones(B, dtype=np.int64)
        self._phase = np.zeros(B, dtype=np.int64)
        self._drawn = np.full(B, -1, dtype=np.int64)
        self._color_next = np.full(B, -1, dtype=np.int64)
        self._uno_pre = np.full(B, -1, dtype=np.int64)
        self._vuln = np.full(B, -1, dtype=np.int64)
        self._empty = np.zeros(B, dtype=np.int64)  # consecutive draws that found no card
        self._ch_legal = np.zeros(B, dtype=bool)  # the Wild Draw Four awaiting an answer
        self._steps = np.zeros(B, dtype=np.int64)
        self._dealer = np.zeros(B, dtype=np.int64)
        # catch window: 0 none; k = 1..n-1: the seat k places after the vulnerable
        # seat (the engine's seat to act, self._cur) in the direction of play is
        # offered the catch
        self._win = np.zeros(B, dtype=np.int64)
        self._actor = np.zeros(B, dtype=np.int64)  # the seat to act, window or not
        self._mask = np.zeros((B, A), dtype=np.int8)

    # ------------------------------------------------------------------ public API

    @property
    def num_actions(self) -> int:
        """Size of the action table."""
        return self._num_actions

    def reset(self, seed: int | None = None) -> VectorStep:
        """Deal a new round in every game; ``seed`` re-seeds the batch's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(self._seed_value(seed))
        self._deal(self._ar)
        self._has_reset = True
        zeros = np.zeros(self.num_envs, dtype=bool)
        return self._output(np.zeros((self.num_envs, self.players), np.float32), zeros, zeros)

    def reset_from(self, games: Sequence[Game]) -> VectorStep:
        """Start every game of the batch from an engine position (``games[i]`` for
        game ``i``; the games are not changed). A game in phase ``DEAL`` has its
        first card turned here. Raises :class:`OptionError` for a game of another
        variant, player count or options, or one that waits for no decision."""
        games = list(games)
        if len(games) != self.num_envs:
            raise OptionError(f"reset_from needs {self.num_envs} games, got {len(games)}")
        for i, g in enumerate(games):
            self._check_game(i, g)
        n = self.players
        starting = []
        for i, g in enumerate(games):
            rows = slice(i * n, i * n + n)
            self._hands[rows] = 0
            for s, hand in enumerate(g.hands):
                np.add.at(self._hands[i * n + s], np.array(hand, dtype=np.int64), 1)
                self._sizes[i * n + s] = len(hand)
            self._draw[i] = 0
            self._draw[i, : len(g.draw)] = g.draw
            self._dlen[i] = len(g.draw)
            self._disc[i] = np.bincount(np.array(g.discard, dtype=np.int64), minlength=self._ncards)
            self._top[i] = g.discard[-1] if g.discard else 0
            self._col[i] = g.color
            self._cur[i] = g.current
            self._dir[i] = g.direction
            self._phase[i] = g.phase
            self._drawn[i] = g.drawn
            self._color_next[i] = g.color_next if g.phase == _C else -1
            self._uno[rows] = g.uno
            self._uno_pre[i] = g.uno_pre
            self._vuln[i] = g.vulnerable
            self._empty[i] = g.empty_draws
            self._ch_legal[i] = g.ch_legal if g.phase == _CH else False
            self._scores[rows] = g.scores
            self._steps[i] = 0
            self._dealer[i] = g.dealer
            self._win[i] = 0  # a window opens only after a move made here
            if g.phase == int(Phase.DEAL):
                starting.append(i)
        if starting:
            envs = np.array(starting, dtype=np.int64)
            self._start(envs, np.array([games[i].dealer for i in starting], dtype=np.int64))
        self._has_reset = True
        zeros = np.zeros(self.num_envs, dtype=bool)
        return self._output(np.zeros((self.num_envs, self.players), np.float32), zeros, zeros)

    def step(self, actions: Any) -> VectorStep:
        """One decision in every game: ``actions[i]`` is game ``i``'s action index."""
        a = self._check_actions(actions)
        B, n = self.num_envs, self.players
        done = np.zeros(B, dtype=bool)
        winner = np.full(B, -1, dtype=np.int64)
        win = self._win > 0
        op = self._op[a]
        if win.any():
            op[win] = -1  # a window decision is not an engine move
            self._window(np.flatnonzero(win), a[win])
        for code, handler in (
            (OP_PLAY, self._play),
            (OP_DRAW, self._draw_card),
            (OP_PASS, self._pass),
            (OP_COLOR, self._choose_color),
            (OP_ACCEPT, self._accept),
            (OP_CHALLENGE, self._challenge),
            (OP_UNO, self._call_uno),
            (OP_CATCH, self._catch),
        ):
            envs = np.flatnonzero(op == code)
            if envs.size:
                handler(envs, a[envs], done, winner)
        # an engine move that leaves the vulnerable seat to act opens a window
        opens = ~win & ~done & (self._vuln >= 0) & (self._vuln == self._cur)
        self._win[opens] = 1
        rewards = np.zeros((B, n), dtype=np.float64)
        cost = self.rewards_spec.step_cost
        if cost:
            rewards[self._ar, self._actor] = -cost
        self._steps += 1
        truncated = np.zeros(B, dtype=bool)
        if self.max_steps is not None:
            truncated = (self._steps >= self.max_steps) & ~done
        over = np.flatnonzero(done | truncated)
        if over.size:  # won, blocked (winner -1) or cut (winner -1) rounds
            rewards[over] += self._round_rewards(over, winner[over])
            self._deal(over)
        return self._output(rewards, done, truncated)

    def to_game(self, i: int) -> Game:
        """Game ``i`` as an engine position (:meth:`unokit.Game.setup`), e.g. to
        render it or to continue it with the engine. The discard pile under its
        top card comes in card order (this environment keeps its cards, not
        their order, which no rule reads); everything else is exact. In a catch
        window it is the engine's position: the vulnerable seat to act, the
        window's decisions not taken (an engine game has no window)."""
        if not isinstance(i, int | np.integer) or isinstance(i, bool):
            raise IndexError(f"game index must be an integer, got {i!r}")
        if not 0 <= i < self.num_envs:
            raise IndexError(f"no game {i} in a batch of {self.num_envs}")
        if not self._has_reset:
            raise IllegalActionError("call reset() or reset_from() first")
        n = self.players
        cards = self.table.variant.cards.cards
        ids = np.arange(self._ncards)

        def spread(counts: Array) -> list[str]:
            return [str(cards[c]) for c in np.repeat(ids, counts.astype(np.int64)).tolist()]

        top = int(self._top[i])
        under = self._disc[i].astype(np.int64)
        under[top] -= 1
        ph = int(self._phase[i])
        g = Game.setup(
            "classic",
            n,
            self.options,
            hands=[spread(self._hands[i * n + s]) for s in range(n)],
            draw=[str(cards[c]) for c in self._draw[i, : self._dlen[i]][::-1].tolist()],
            discard=spread(under) + [str(cards[top])],
            color=None if ph == _C else Color(int(self._col[i])),
            current=int(self._cur[i]),
            dealer=int(self._dealer[i]),
            direction=int(self._dir[i]),
            phase=Phase(ph),
            drawn=None if ph != _D else str(cards[int(self._drawn[i])]),
            uno={s: UnoState(int(self._uno[i * n + s])) for s in range(n)},
            scores=[int(x) for x in self._scores[i * n : i * n + n]],
            events=False,
        )
        # what Game.setup derives differently from a position that play reached
        g.color_next = int(self._color_next[i])
        g.ch_legal = bool(self._ch_legal[i]) if ph == _CH else False
        g.uno_pre = int(self._uno_pre[i])
        g.empty_draws = int(self._empty[i])
        return g

    # ------------------------------------------------------------------ checks

    @staticmethod
    def _seed_value(seed: object) -> int | None:
        if seed is None:
            return None
        if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0:
            raise OptionError(f"seed must be None or a non-negative integer, got {seed!r}")
        return int(seed)

    def _check_game(self, i: int, g: object) -> None:
        if not isinstance(g, Game):
            raise OptionError(f"games[{i}] is not a unokit Game but {type(g).__name__}")
        if g.variant.name != "classic" or g.n != self.players:
            raise OptionError(
                f"games[{i}] is {g.variant.name} with {g.n} players; this batch plays classic "
                f"with {self.players}"
            )
        if g.options != self.options:
            raise OptionError(f"games[{i}] has other options than this environment")
        ph = g.phase
        if ph not in (_T, _D, _C, _CH, int(Phase.DEAL)):
            raise OptionError(f"games[{i}] waits for no decision (state {g.state.name})")
        if g.pending:
            raise OptionError(f"games[{i}] has a stacked draw pending (no stacking here)")
        if ph == int(Phase.DEAL):
            if g.discard or not g.draw:
                raise OptionError(f"games[{i}]: a round in DEAL needs cards to turn")
            return
        n, d, cur = g.n, g.direction, g.current
        if ph == _CH and (
            g.ch_offender != (cur - d) % n
            or g.ch_after != (cur + d) % n
            or g.ch_after_success != cur
        ):
            raise OptionError(f"games[{i}]: a challenge position that Classic play cannot reach")

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
        A = self._num_actions
        out = (arr < 0) | (arr >= A)
        if out.any():
            bad = np.flatnonzero(out)
            raise IllegalActionError(
                f"actions outside the action table (0..{A - 1}) in game(s) "
                + ", ".join(f"{i}: {arr[i]}" for i in bad[:5].tolist())
                + (f" and {bad.size - 5} more" if bad.size > 5 else "")
            )
        a = arr.astype(np.int64, copy=False)
        illegal = self._mask[self._ar, a] == 0
        if illegal.any():
            bad = np.flatnonzero(illegal)
            names = self.table.names
            parts = []
            for i in bad[:3].tolist():
                legal = np.flatnonzero(self._mask[i]).tolist()
                parts.append(
                    f"game {i} (P{self._actor[i]} to act) cannot take {a[i]} ({names[a[i]]}); "
                    f"legal: {', '.join(f'{j} {names[j]}' for j in legal)}"
                )
            more = f"; and {bad.size - 3} more game(s)" if bad.size > 3 else ""
            raise IllegalActionError("illegal action: " + "; ".join(parts) + more)
        return a

    # ------------------------------------------------------------------ dealing

    def _deal(self, envs: IntArray) -> None:
        """Shuffle, deal and turn the first card of a new round in ``envs``."""
        k, n = envs.size, self.players
        size = self._hand_size
        decks = self._rng.permuted(np.broadcast_to(self._deck, (k, self._deck_size)), axis=1)
        dealt = n * size
        rows = (envs * n)[:, None] + np.repeat(self._rel, size)[None, :]
        hands = self._hands.reshape(self.num_envs, n, self._ncards)
        hands[envs] = 0
        np.add.at(self._hands, (rows.ravel(), decks[:, :dealt].ravel()), 1)
        self._sizes.reshape(self.num_envs, n)[envs] = size
        self._draw[envs, : self._deck_size - dealt] = decks[:, dealt:]
        self._dlen[envs] = self._deck_size - dealt
        self._uno.reshape(self.num_envs, n)[envs] = 0
        self._scores.reshape(self.num_envs, n)[envs] = 0
        self._drawn[envs] = -1
        self._uno_pre[envs] = -1
        self._vuln[envs] = -1
        self._empty[envs] = 0
        self._ch_legal[envs] = False
        self._steps[envs] = 0
        self._win[envs] = 0
        self._start(envs, self._rng.integers(n, size=k))

    def _start(self, envs: IntArray, dealer: IntArray) -> None:
        """Turn the first card (docs/rules.md §2.4, ``Game._start``): a Wild Draw Four
        goes back into the draw pile, which is shuffled, and another is turned."""
        n = self.players
        self._dealer[envs] = dealer
        while True:
            L = self._dlen[envs]
            c = self._draw[envs, L - 1].astype(np.int64)
            again = self._kind[c] == _WD4
            if not again.any():
                break
            for e in envs[again].tolist():
                cards = self._draw[e, : self._dlen[e]].astype(np.int64)
                self._draw[e, : cards.size] = self._shuffled(e, cards)
        self._dlen[envs] = L - 1
        self._disc[envs] = 0
        self._disc[envs, c] = 1
        self._top[envs] = c
        first = (dealer + 1) % n
        kind = self._kind[c]
        self._phase[envs] = _T
        self._dir[envs] = 1
        self._col[envs] = self._color[c]
        self._color_next[envs] = -1
        self._cur[envs] = np.where((kind == _SKIP) | (kind == _DRAW_TWO), (first + 1) % n, first)
        rev = kind == _REVERSE
        if rev.any():
            self._dir[envs[rev]] = -1
            self._cur[envs[rev]] = dealer[rev]
        wild = kind == _WILD
        if wild.any():
            self._phase[envs[wild]] = _C
            self._color_next[envs[wild]] = first[wild]
        d2 = kind == _DRAW_TWO
        if d2.any():
            self._give(envs[d2], first[d2], int(self._draw_amount[c[d2][0]]))

    def _shuffled(self, e: int, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``cards`` in a new order: the hook's, or the batch generator's."""
        hook = self.reshuffle_hook
        if hook is None:
            return self._rng.permutation(cards)
        order = np.asarray(hook(e, cards), dtype=np.int64)
        if order.shape != cards.shape or not np.array_equal(np.sort(order), np.sort(cards)):
            raise ValueError(f"reshuffle_hook must return the {cards.size} cards it was given")
        return order

    # ------------------------------------------------------------------ drawing

    def _reshuffle(self, e: int) -> bool:
        """The draw pile of game ``e`` is empty: the discard pile under its top card
        becomes the new draw pile, shuffled (``Game._draw_one``). False when
        there is nothing to reshuffle."""
        disc = self._disc[e]
        top = int(self._top[e])
        if int(disc.sum()) <= 1:
            return False
        counts = disc.astype(np.int64)
        counts[top] -= 1
        cards = np.repeat(np.arange(self._ncards, dtype=np.int64), counts)
        self._draw[e, : cards.size] = self._shuffled(e, cards)
        self._dlen[e] = cards.size
        disc[:] = 0
        disc[top] = 1
        return True

    def _give(self, envs: IntArray, seats: IntArray, k: int) -> None:
        """Seat ``seats[j]`` of game ``envs[j]`` draws ``k`` cards (fewer if the
        piles run out), as ``Game._give``."""
        if not envs.size or k <= 0:
            return
        n = self.players
        L = self._dlen[envs]
        short = L < k
        if short.any():  # rare: a reshuffle, or the piles run out
            for e, s in zip(envs[short].tolist(), seats[short].tolist(), strict=True):
                self._give_one_by_one(e, s, k)
            keep = ~short
            envs, seats, L = envs[keep], seats[keep], L[keep]
            if not envs.size:
                return
        rows = envs * n + seats
        cards = self._draw[envs[:, None], L[:, None] - np.arange(1, k + 1)]  # the top k
        np.add.at(self._hands, (np.repeat(rows, k), cards.ravel()), 1)
        self._dlen[envs] = L - k
        self._sizes[rows] += k
        self._uno_off(envs, seats, rows)

    def _give_one_by_one(self, e: int, s: int, k: int) -> None:
        row = e * self.players + s
        got = 0
        for _ in range(k):
            if not self._dlen[e] and not self._reshuffle(e):
                break
            self._dlen[e] -= 1
            self._hands[row, self._draw[e, self._dlen[e]]] += 1
            got += 1
        if got:
            self._sizes[row] += got
            if self._uno[row] and self._sizes[row] != 1:
                self._uno[row] = 0
                if self._vuln[e] == s:
                    self._vuln[e] = -1

    def _uno_off(self, envs: IntArray, seats: IntArray, rows: IntArray) -> None:
        """Seats that just drew lose their UNO state (``Game._uno_off``; they hold
        two cards or more)."""
        on = self._uno[rows] != 0
        if on.any():
            self._uno[rows[on]] = 0
            e = envs[on]
            cleared = self._vuln[e] == seats[on]
            self._vuln[e[cleared]] = -1

    def _turn_action(self, envs: IntArray) -> None:
        """A turn action closes the catch window (``Game._turn_action``)."""
        v = self._vuln[envs]
        open_ = v >= 0
        if open_.any():
            e = envs[open_]
            self._uno[e * self.players + v[open_]] = 0
            self._vuln[e] = -1

    # ------------------------------------------------------------------ actions

    def _play(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """PLAY (``Game._do_play``) of the card of action ``a``."""
        n = self.players
        s = self._cur[envs]
        c = self._act_card[a]
        rows = envs * n + s
        self._turn_action(envs)
        kind = self._kind[c]
        w4 = kind == _WD4
        if w4.any():  # legal iff no card of the current colour in hand (docs/rules.md §1.10)
            col = self._col[envs[w4]]
            holds = ((self._hands[rows[w4]] > 0) & self._of_color[col]).any(axis=1)
            self._ch_legal[envs[w4]] = ~holds
        self._hands[rows, c] -= 1
        self._sizes[rows] -= 1
        self._disc[envs, c] += 1
        self._top[envs] = c
        self._drawn[envs] = -1
        self._empty[envs] = 0
        left = self._sizes[rows]
        one = left == 1
        if one.any():
            e1, s1 = envs[one], s[one]
            safe = self._uno_pre[e1] == s1
            self._uno[rows[one]] = np.where(safe, _SAFE, _VULN)
            self._vuln[e1] = np.where(safe, -1, s1)
        self._uno_pre[envs] = -1
        chosen = self._act_color[a]
        self._col[envs] = np.where(chosen >= 0, chosen, self._color[c])
        self._phase[envs] = _T
        out = left == 0
        if out.any():  # the last card: its draw penalty still applies (docs/rules.md §1.12)
            live = ~out
            ef, sf, cf = envs[out], s[out], c[out]
            self._uno[rows[out]] = 0
            victim = (sf + self._dir[ef]) % n
            amount = self._draw_amount[cf]
            for k in np.unique(amount[amount > 0]).tolist():
                sel = amount == k
                self._give(ef[sel], victim[sel], k)
            done[ef] = True
            winner[ef] = sf
            envs, s, c, kind = envs[live], s[live], c[live], kind[live]
            if not envs.size:
                return
        d = self._dir[envs] * self._dir_mul[c]
        self._dir[envs] = d
        self._cur[envs] = (s + self._turn_step[c] * d) % n
        d2 = kind == _DRAW_TWO
        if d2.any():
            self._give(envs[d2], (s[d2] + d[d2]) % n, 2)
        w4 = kind == _WD4
        if w4.any():
            self._phase[envs[w4]] = _CH

    def _draw_card(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """DRAW (``Game.draw_card``): one card; play-or-keep if it is playable."""
        n = self.players
        self._turn_action(envs)
        self._uno_pre[envs] = -1
        L = self._dlen[envs]
        if not L.all():
            for e in envs[L == 0].tolist():
                self._reshuffle(e)
            L = self._dlen[envs]
            none = L == 0
            if none.any():  # nothing to draw: the turn passes; n in a row block the round
                e0 = envs[none]
                self._empty[e0] += 1
                blocked = self._empty[e0] >= n
                done[e0[blocked]] = True
                go = e0[~blocked]
                self._cur[go] = (self._cur[go] + self._dir[go]) % n
                has = ~none
                envs, L = envs[has], L[has]
                if not envs.size:
                    return
        s = self._cur[envs]
        rows = envs * n + s
        c = self._draw[envs, L - 1].astype(np.int64)
        self._dlen[envs] = L - 1
        self._hands[rows, c] += 1
        self._sizes[rows] += 1
        self._empty[envs] = 0
        self._uno_off(envs, s, rows)
        ok = self._playable[self._col[envs] * self._ncards + self._top[envs], c]
        self._phase[envs[ok]] = _D
        self._drawn[envs[ok]] = c[ok]
        no = ~ok
        self._cur[envs[no]] = (s[no] + self._dir[envs[no]]) % n

    def _pass(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """PASS: keep the playable card just drawn (``Game.keep``)."""
        self._turn_action(envs)
        self._uno_pre[envs] = -1
        self._drawn[envs] = -1
        self._phase[envs] = _T
        self._cur[envs] = (self._cur[envs] + self._dir[envs]) % self.players

    def _choose_color(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """COLOR (``Game.choose_color``): only after a Wild turned as first card."""
        self._col[envs] = self._act_color[a]
        self._phase[envs] = _T
        self._cur[envs] = self._color_next[envs]
        self._color_next[envs] = -1

    def _turn_ended(self, envs: IntArray, drew: IntArray, done: Array) -> None:
        """A turn of ``envs`` ended without a play, its player having drawn
        ``drew`` cards: n such turns in a row without a card block the round
        (``Game._turn_ended``, docs/rules.md D60)."""
        got = drew > 0
        self._empty[envs[got]] = 0
        idle = envs[~got]
        if idle.size:
            self._empty[idle] += 1
            done[idle[self._empty[idle] >= self.players]] = True

    def _accept(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """ACCEPT a Wild Draw Four: draw 4, lose the turn (``Game.accept``)."""
        self._turn_action(envs)
        s = self._cur[envs]
        rows = envs * self.players + s
        before = self._sizes[rows].copy()
        self._give(envs, s, 4)
        self._ch_legal[envs] = False
        self._phase[envs] = _T
        self._cur[envs] = (s + self._dir[envs]) % self.players
        self._turn_ended(envs, self._sizes[rows] - before, done)

    def _challenge(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """CHALLENGE a Wild Draw Four (``Game.challenge``): a legal card costs the
        challenger 6 cards and the turn; a guilty one costs the offender 4 and
        the challenger plays."""
        n = self.players
        self._turn_action(envs)
        s = self._cur[envs]
        d = self._dir[envs]
        legal = self._ch_legal[envs]
        if legal.any():
            el, sl = envs[legal], s[legal]
            rows = el * n + sl
            before = self._sizes[rows].copy()
            self._give(el, sl, 6)
            self._cur[el] = (sl + d[legal]) % n
            self._turn_ended(el, self._sizes[rows] - before, done)
        guilty = ~legal
        if guilty.any():
            self._give(envs[guilty], (s[guilty] - d[guilty]) % n, 4)
        self._ch_legal[envs] = False
        self._phase[envs] = _T

    def _call_uno(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """UNO (``Game.call_uno``): safe with one card, announced with two."""
        s = self._cur[envs]
        rows = envs * self.players + s
        size = self._sizes[rows]
        one = size == 1
        self._uno[rows[one]] = _SAFE
        e1 = envs[one]
        self._vuln[e1[self._vuln[e1] == s[one]]] = -1
        two = size == 2
        self._uno_pre[envs[two]] = s[two]

    def _catch(self, envs: IntArray, a: IntArray, done: Array, winner: Array) -> None:
        """CATCH a vulnerable seat (``Game.catch``): it draws ``unoPenalty`` cards."""
        n = self.players
        target = (self._cur[envs] + self._act_catch[a]) % n
        self._uno[envs * n + target] = 0
        self._vuln[envs] = -1
        self._give(envs, target, self.options.unoPenalty)

    def _window(self, envs: IntArray, a: IntArray) -> None:
        """A decision of a catch window (its mask: ``CATCH +k`` of the vulnerable
        seat, or ``PASS``). A catch is the engine's (the vulnerable seat, which is
        to act, draws ``unoPenalty`` cards) and closes the window; a pass offers
        the catch to the next seat, or after the last one closes the window."""
        n = self.players
        catch = a != self._i_pass
        if catch.any():
            e = envs[catch]
            target = self._cur[e]
            self._uno[e * n + target] = 0
            self._vuln[e] = -1
            self._win[e] = 0
            self._give(e, target, self.options.unoPenalty)
        e = envs[~catch]
        k = self._win[e] + 1
        self._win[e] = np.where(k < n, k, 0)

    # ------------------------------------------------------------------ output

    def _round_rewards(self, envs: IntArray, winner: IntArray) -> npt.NDArray[np.float64]:
        """The rewards (:class:`unokit.envs.rewards.RewardSpec`) of the rounds of
        ``envs`` that ended with ``winner`` (-1: blocked or cut)."""
        n = self.players
        hands = self._hands.reshape(self.num_envs, n, self._ncards)[envs]
        values = hands.astype(np.int64) @ self._points  # (k, n)
        return self.rewards_spec.outcome(values, winner)

    def _output(self, rewards: Array, terminated: Array, truncated: Array) -> VectorStep:
        B, n, nc = self.num_envs, self.players, self._ncards
        ar = self._ar
        win = self._win
        in_window = np.flatnonzero(win)
        cur = self._cur.copy()  # the seat to act: in a window, the seat offered the catch
        if in_window.size:
            cur[in_window] = (cur[in_window] + win[in_window] * self._dir[in_window]) % n
        self._actor = cur
        rows = self._arn + cur
        hand = self._hands[rows]
        obs = np.zeros((B, self.observation_size), dtype=np.float32)
        o = self._o_hand
        obs[:, o : o + nc] = hand
        obs[ar, self._o_top + self._top] = 1.0
        o = self._o_discard
        obs[:, o : o + nc] = self._disc
        col = self._col
        has = col >= 0
        obs[ar[has], self._o_color + col[has]] = 1.0
        ph = self._phase
        obs[ar, self._o_phase + ph] = 1.0
        rel = self._arn[:, None] + (cur[:, None] + self._rel) % n  # rows of seats, relative
        uno = self._uno[rel]
        o = self._o_uno
        obs[:, o : o + n] = uno == _SAFE
        obs[:, o + n : o + 2 * n] = uno == _VULN
        o = self._o_sizes
        obs[:, o : o + n] = self._sizes[rel]
        obs[:, self._o_direction] = self._dir == -1
        obs[:, self._o_draw_size] = self._dlen
        o = self._o_scores
        obs[:, o : o + n] = self._scores[rel]

        mask = np.zeros((B, self._num_actions), dtype=np.int8)
        turn = ph == _T
        playable = self._playable[np.maximum(col, 0) * nc + self._top]
        cards = (hand > 0) & playable & turn[:, None]
        dr = np.flatnonzero(ph == _D)
        if dr.size:
            cards[dr, self._drawn[dr]] = playable[dr, self._drawn[dr]]
        mask[:, : self._num_plays] = cards[:, self._entry_card]
        mask[:, self._i_draw] = turn
        mask[:, self._i_pass] = ph == _D
        mask[:, self._i_color : self._i_color + 4] = (ph == _C)[:, None]
        challenge = ph == _CH
        mask[:, self._i_accept] = challenge
        mask[:, self._i_challenge] = challenge
        size = self._sizes[rows]
        mask[:, self._i_uno] = ((size == 1) & (self._uno[rows] != _SAFE)) | (
            (size == 2) & (ph <= _D) & (self._uno_pre != cur)
        )
        v = self._vuln
        catch = np.flatnonzero((v >= 0) & (v != cur))
        if catch.size:
            mask[catch, self._i_catch - 1 + (v[catch] - cur[catch]) % n] = 1
        if in_window.size:  # the offered seat: catch the vulnerable seat, or let it go
            mask[in_window] = 0
            mask[in_window, self._i_pass] = 1
            at = self._i_catch - 1 + (v[in_window] - cur[in_window]) % n
            mask[in_window, at] = 1
        self._mask = mask
        return VectorStep(
            observation=obs,
            action_mask=mask.copy(),
            current_player=cur.copy(),
            rewards=rewards.astype(np.float32, copy=False),
            terminated=terminated,
            truncated=truncated,
        )
