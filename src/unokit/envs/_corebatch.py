"""The environments' games in the C rules core: :class:`unokit._core.Batch`.

One place builds a batch for an environment (the batched environments of
:mod:`unokit.envs.vector`, and the single-game AEC and Gymnasium environments,
which are batches of one): the action table's move codes per seat and the
observation layout of :class:`~unokit.envs.observation.ObservationEncoder`
are handed to C, which then steps the games (``unokit/_core/batch.c``) with
the core's rules and writes observations and masks into NumPy arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from unokit import _core
from unokit.engine.game import Game
from unokit.engine.options import Options
from unokit.engine.variants import Variant

from .actions import ActionTable
from .observation import ObservationEncoder

__all__ = [
    "make_batch", "per_seed_tables", "step_arrays", "to_game", "save_game", "restore_game",
    "LAYOUT",
]  # fmt: skip

#: Segments of the observation whose offsets batch.c needs, in its order.
LAYOUT = (
    "hand", "top", "discard", "color", "phase", "uno", "hand_sizes", "direction", "draw_size",
    "pending_draw", "scores", "side", "backs", "draw_top_back", "powers",
)  # fmt: skip


def per_seed_tables(variant: Variant, options: Options) -> bool:
    """Whether each seed deals its own deck (Flip's ``random_seeded`` pairing):
    such rounds are dealt in Python (``Game.new``), the others in C."""
    return bool(variant.two_sided and options.flipPairing == "random_seeded")


def make_batch(
    table: ActionTable,
    encoder: ObservationEncoder,
    num_envs: int,
    *,
    max_steps: int | None = None,
    auto_deal: bool = False,
) -> _core.Batch:
    """A batch of ``num_envs`` games of ``table``'s variant, players and
    options (not dealt: call ``reset`` or ``set``). ``max_steps`` truncates a
    round after that many decisions (None: never); ``auto_deal``: a round that
    ends is replaced by the next seed's in the same step."""
    v, n, opts = table.variant, table.players, table.options
    enc = encoder
    layout = [enc.segments[name][0] if name in enc.segments else 0 for name in LAYOUT]
    layout += [len(enc.cards), len(enc.faces), enc.size]
    if len(layout) != _core.BATCH_LAYOUT:
        raise RuntimeError("unokit._core is out of date: rebuild it (make install)")
    back: tuple[list[int], list[int]] = enc._back_at if v.two_sided else ([], [])
    proto = Game(v, n, opts, 0, events=False)
    return _core.Batch(
        proto._g, num_envs, [m for s in range(n) for m in table.moves(s)], layout, enc._uidx,
        back[0], back[1], max_steps or 0, auto_deal and not per_seed_tables(v, opts),
    )  # fmt: skip


def to_game(batch: _core.Batch, i: int, table: ActionTable, seed: int) -> Game:
    """Game ``i`` of ``batch`` as a :class:`unokit.Game` dealt from ``seed``."""
    c = Game(table.variant, table.players, table.options, seed, events=False)
    batch.get(i, c._g)
    return c


_A = npt.NDArray[Any]
#: actions, observations, masks, seats to act, ends, winners, hand values
StepArrays = tuple[_A, _A, _A, _A, _A, _A, _A]


def step_arrays(table: ActionTable, encoder: ObservationEncoder, num_envs: int) -> StepArrays:
    """The arrays ``Batch.step`` reads and writes, for ``num_envs`` games:
    actions, observations, masks, seats to act, ends, winners, hand values."""
    return (
        np.zeros(num_envs, dtype=np.int64),
        np.empty((num_envs, encoder.size), dtype=np.float32),
        np.empty((num_envs, table.size), dtype=np.int8),
        np.empty(num_envs, dtype=np.int64),
        np.empty(num_envs, dtype=np.int8),
        np.empty(num_envs, dtype=np.int64),
        np.empty((num_envs, table.players), dtype=np.int64),
    )


def save_game(batch: _core.Batch, i: int, table: ActionTable, seed: int) -> tuple[Any, ...]:
    """Game ``i`` of ``batch`` (dealt from ``seed``) as plain Python values, for
    copies and pickles of an environment: the core's state and the window."""
    c = Game(table.variant, table.players, table.options, seed, events=False)
    batch.get(i, c._g)
    return (c._g.state(), batch.window(i))


def restore_game(
    batch: _core.Batch, i: int, table: ActionTable, seed: int, saved: tuple[Any, ...]
) -> None:
    """Game ``i`` of ``batch`` becomes what :func:`save_game` gave."""
    state, window = saved
    c = Game(table.variant, table.players, table.options, seed, events=False)
    c._g.set_state(state)
    batch.set(i, c._g, seed)
    batch.set_window(i, *window)
