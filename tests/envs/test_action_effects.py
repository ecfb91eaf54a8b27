"""Layout 3's per-action tables are one piece of code (issue 26):
:func:`unokit.envs.observation.action_effects` reads the action table through
the engine's move-code decoder, and both layout 3 and the recipes'
``UnoFeatures`` (examples/uno_features.py) are made from it.

``tests/data/layout3_features.npz`` froze, on a few positions of seeded random
games (classic 2p, flip 2p, flex 3p, flip 3p), the layout-1 vector and mask,
the layout-3 vector and ``UnoFeatures.with_actions`` as the code gave them
before the two copies were merged; they must not change.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from unokit import Game
from unokit.engine.actions import ChooseColor, Play
from unokit.envs.actions import action_table
from unokit.envs.gym import UnoGymEnv
from unokit.envs.observation import ActionLayout, action_effects

ROOT = Path(__file__).resolve().parents[2]
FROZEN = ROOT / "tests/data/layout3_features.npz"
CASES = [("classic", 2), ("flip", 2), ("flex", 3), ("flip", 3)]


def _uno_features() -> ModuleType:
    path = ROOT / "examples/uno_features.py"
    spec = importlib.util.spec_from_file_location("uno_features", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["uno_features"] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["uno_features"]
    return module


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_layout_3_and_the_recipes_features_are_the_frozen_values(
    variant: str, players: int
) -> None:
    frozen = np.load(FROZEN)
    key = f"{variant}{players}"
    raw, mask = frozen[f"{key}_raw"], frozen[f"{key}_mask"]
    assert len(raw) >= 5
    layout = UnoGymEnv(variant, players, obs_layout=3).layout
    assert isinstance(layout, ActionLayout)
    features = _uno_features().UnoFeatures(variant, players)
    # equal to float32 rounding (the sums of the layout's matrix products may
    # be taken in another order: 6e-8 apart at most)
    for i in range(len(raw)):
        np.testing.assert_allclose(
            layout(raw[i], mask[i]), frozen[f"{key}_layout3"][i], rtol=1e-6, atol=1e-7
        )
        np.testing.assert_allclose(
            features.with_actions(raw[i], mask[i]),
            frozen[f"{key}_example"][i],
            rtol=1e-6,
            atol=1e-7,
        )
    # the positions are not trivial: some legal action has per-action values
    actions = frozen[f"{key}_layout3"][:, layout.slice("actions")]
    assert (actions > 0).sum() > 20


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_action_effects_decode_the_table_as_the_engine_does(variant: str, players: int) -> None:
    table = action_table(variant, players)
    layout = UnoGymEnv(variant, players, obs_layout=3).layout
    assert isinstance(layout, ActionLayout)
    effects = action_effects(table, layout.encoder.cards)
    game = Game(variant, players, events=False)
    assert len(effects.actions) == table.size
    for a, action in enumerate(effects.actions):
        assert game.encode(action) == table.codes[a]
        assert isinstance(action, Play) == (a < table.num_plays)
        if isinstance(action, Play):
            assert layout.encoder.cards[effects.card_of[a]] == game.variant.cards.index[action.card]
            assert all(
                effects.kind[s, a] == int(action.card.face(s).kind)
                for s in range(len(effects.kind))
            )
        else:
            assert effects.card_of[a] == -1 and (effects.kind[:, a] == -1).all()
        # a colour choice, or a play that names or shows a colour, puts one colour in force
        in_force = effects.result[:, a].sum(axis=1)
        if isinstance(action, ChooseColor):
            assert (in_force == 1).all()
            assert effects.result[0, a, int(action.color) % 4] == 1
    # the layout holds the same tables
    np.testing.assert_array_equal(layout._compat, effects.compat)
    np.testing.assert_array_equal(layout._result, effects.result)
