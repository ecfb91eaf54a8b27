"""The batched environment against the engine, decision by decision.

:func:`vector_differential` steps a batch of the fast environment
(:class:`unokit.envs.vector.UnoVectorEnv` on the rules core) and the same
games played by :class:`unokit.Game` (the ``reference`` backend: engine games
stepped one by one in Python, the single-game environment's logic) with the
same actions, and compares every array of every step -- observations, masks,
seats to act, rewards, terminations, truncations -- and the seeds of the
rounds dealt by automatic resets; every ``check_every`` steps each game's whole
engine state (:meth:`unokit.Game.state_tuple` of ``to_game``). The fuzzer
(:mod:`unokit.testing.fuzz`) calls it on the first round of every fuzzed match, and
:func:`unokit.testing.fuzz.fuzz_vector` (``python -m unokit.testing.fuzz --vector``) runs nothing else,
over the fuzzer's random configurations (variant, players, options,
``handSize``); the tests of tests/envs/test_vector.py call it too.

>>> vector_differential("flip", 2, {}, seed=3, steps=50)
200
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np

from unokit.engine.game import OP_DRAW

from .vector import GameBatch, UnoVectorEnv, VectorStep

__all__ = ["Disagreement", "vector_differential", "FIELDS"]

#: The arrays of a step that must agree.
FIELDS = ("observation", "action_mask", "current_player", "rewards", "terminated", "truncated")


class Disagreement(AssertionError):
    """The fast batch and the engine disagree (the message says where)."""


def _compare(fast: VectorStep, ref: VectorStep, step: int) -> None:
    for name in FIELDS:
        x, y = getattr(fast, name), getattr(ref, name)
        if x.shape != y.shape or x.dtype != y.dtype:
            raise Disagreement(
                f"step {step}: {name} is {x.dtype}{x.shape}, the engine's {y.dtype}{y.shape}"
            )
        if not np.array_equal(x, y):
            rows = np.flatnonzero((x != y).reshape(len(x), -1).any(axis=1)).tolist()
            i = rows[0]
            detail = ""
            if x.ndim == 2:
                cols = np.flatnonzero(x[i] != y[i]).tolist()[:8]
                detail = f" at columns {cols}: {x[i, cols].tolist()} != {y[i, cols].tolist()}"
            raise Disagreement(f"step {step}: {name} differs in game(s) {rows[:8]}{detail}")


def vector_differential(
    variant: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    *,
    num_envs: int = 4,
    steps: int = 300,
    check_every: int = 25,
    max_steps: int | None = 150,
    draw_weight: float = 0.2,
    seen: Counter[str] | None = None,
    **kwargs: Any,
) -> int:
    """Play ``steps`` batch steps of ``num_envs`` games of ``variant`` under
    ``options`` with the rules core and with the engine, the same random
    legal actions in both (from ``random.Random(seed)``; a voluntary DRAW is
    taken with weight ``draw_weight`` so that rounds end), and compare them
    (module documentation). Returns the number of game decisions compared;
    raises :class:`Disagreement` at the first difference. ``kwargs`` go to
    both environments (``reward=``, ``step_cost=``...); ``seen`` counts the
    rounds that ended (``terminated``, ``truncated``) and the decisions taken
    in catch windows (``window``)."""
    opts = dict(options or {})
    args = dict(seed=seed, max_steps=max_steps, **kwargs, **opts)
    fast = UnoVectorEnv(variant, num_envs, players, backend="core", **args)
    ref = UnoVectorEnv(variant, num_envs, players, backend="reference", **args)
    a, b = fast.reset(), ref.reset()
    _compare(a, b, 0)
    table = fast.table
    draw = np.array([c & 15 == OP_DRAW for c in table.codes])
    r = random.Random(seed)
    for k in range(1, steps + 1):
        actions = np.empty(num_envs, dtype=np.int64)
        for i in range(num_envs):
            legal = np.flatnonzero(a.action_mask[i])
            if not legal.size:
                # a match over at its deal (mercy: the first card's draw put a
                # player out) leaves no decision; both backends agreed on the
                # step so far (compared above), and the batch cannot go on
                return (k - 1) * num_envs
            others = legal[~draw[legal]]
            pool = others if others.size and r.random() >= draw_weight else legal
            actions[i] = pool[r.randrange(pool.size)]
        a, b = fast.step(actions), ref.step(actions)
        _compare(a, b, k)
        if seen is not None:
            seen["terminated"] += int(a.terminated.sum())
            seen["truncated"] += int(a.truncated.sum())
            games = ref._batch
            if isinstance(games, GameBatch):  # the engine games know their windows
                seen["window"] += sum(1 for w in games.window if w)
        if not np.array_equal(fast.seeds, ref.seeds):
            raise Disagreement(f"step {k}: seeds {fast.seeds} != {ref.seeds}")
        if k % check_every == 0 or k == steps:
            for i in range(num_envs):
                x, y = fast.to_game(i).state_tuple(), ref.to_game(i).state_tuple()
                if x != y:
                    diff = [j for j, (p, q) in enumerate(zip(x, y, strict=True)) if p != q]
                    raise Disagreement(
                        f"step {k}: game {i}'s state differs from the engine's (fields {diff})"
                    )
    return steps * num_envs
