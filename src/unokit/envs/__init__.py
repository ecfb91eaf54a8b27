"""Reinforcement-learning environments for Classic UNO, UNO Flip and UNO Flex.

PettingZoo AEC environments (one module per variant, versioned names):

* :mod:`unokit.envs.uno_classic_v0`
* :mod:`unokit.envs.uno_flip_v0`
* :mod:`unokit.envs.uno_flex_v0`

each with ``env(players=2, **options)`` and ``raw_env``; a Gymnasium
single-agent wrapper in :mod:`unokit.envs.gym`; the action table in
:mod:`unokit.envs.actions` and the observation encoder in
:mod:`unokit.envs.observation`. They need the ``rl`` extra (NumPy, Gymnasium,
PettingZoo). See docs/envs.md.
"""

ENV_NAMES = ("uno_classic_v0", "uno_flip_v0", "uno_flex_v0")

__all__ = ["ENV_NAMES"]
