"""Fixtures shared by the environment tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from unokit.envs import uno_classic_v0, uno_flex_v0, uno_flip_v0

MODULES = {"classic": uno_classic_v0, "flip": uno_flip_v0, "flex": uno_flex_v0}


def _aec_observes_its_layout(variant: str, obs_layout: int) -> None:
    """Every seat's AEC observation (3 players) is the env's layout of the
    encoder's vector of that seat and its mask."""
    aec = MODULES[variant].env(players=3, obs_layout=obs_layout)
    aec.reset(seed=4)
    inner = aec.unwrapped
    for agent in aec.agents:
        o = aec.observe(agent)
        seat = int(agent.split("_")[1])
        raw = inner.encoder.encode_game(inner.game, seat)
        np.testing.assert_array_equal(o["observation"], inner.layout(raw, o["action_mask"]))
        assert o["observation"].shape == (inner.layout.size,)


@pytest.fixture
def aec_observes_its_layout() -> Callable[[str, int], None]:
    """``check(variant, obs_layout)``: the AEC env's observations are its layout's."""
    return _aec_observes_its_layout
