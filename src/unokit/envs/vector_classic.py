"""UNO Classic, batched: the import path of unokit 0.1, kept for existing code.

``UnoClassicVectorEnv(num_envs, players, **kwargs)`` is
:class:`unokit.envs.vector.UnoVectorEnv` playing Classic
(``uno_classic_v0.vector_env``); see :mod:`unokit.envs.vector` for the
behaviour. Unlike the NumPy version of unokit 0.1 it plays every option.

>>> env = UnoClassicVectorEnv(num_envs=4, players=2, seed=0)
>>> env.reset().observation.shape
(4, 223)
"""

from __future__ import annotations

from typing import Any

from .vector import UnoVectorEnv, VectorStep

__all__ = ["UnoClassicVectorEnv", "VectorStep"]


class UnoClassicVectorEnv(UnoVectorEnv):
    """``num_envs`` Classic rounds stepped together (:mod:`unokit.envs.vector`)."""

    def __init__(self, num_envs: int, players: int = 2, **kwargs: Any) -> None:
        super().__init__("classic", num_envs, players, **kwargs)
