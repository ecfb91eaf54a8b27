"""Reinforcement-learning environments for Classic UNO, UNO Flip and UNO Flex.

PettingZoo AEC environments (one module per variant, versioned names):

* :mod:`unokit.envs.uno_classic_v0`
* :mod:`unokit.envs.uno_flip_v0`
* :mod:`unokit.envs.uno_flex_v0`

each with ``env(players=2, **options)``, ``raw_env`` and the batched
``vector_env(num_envs, players=2, **options)`` (:mod:`unokit.envs.vector`);
a Gymnasium single-agent wrapper in :mod:`unokit.envs.gym`; the action table
in :mod:`unokit.envs.actions` and the observation encoder in
:mod:`unokit.envs.observation`. All run on the C rules core
(:mod:`unokit.envs._corebatch`). They need the ``rl`` extra (NumPy, Gymnasium,
PettingZoo). See docs/envs.md.
"""

ENV_NAMES = ("uno_classic_v0", "uno_flip_v0", "uno_flex_v0")

__all__ = ["ENV_NAMES"]
