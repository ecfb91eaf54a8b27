"""UNO Flex: PettingZoo AEC environment ``uno_flex_v0``.

====================  ============================================================
Import                ``from unokit.envs import uno_flex_v0``
Agents                ``player_0`` ... ``player_{N-1}`` (N = 2..8), seat i = ``player_i``
Action space          ``Discrete(170)`` at 2 players (160 plays, DRAW, PASS, 4 colours,
                      ACCEPT, CHALLENGE, UNO, N-1 catches); 188 at 4 players
Observation space     ``Dict(observation=Box(0, ., (159,), float32),
                      action_mask=Box(0, 1, (170,), int8))`` at 2 players (307 / 188 at 4)
Engine                :class:`unokit.Game` (docs/rules.md §1 and §4, Appendix C options)
====================  ============================================================

The first environment for UNO Flex: cards with a flex side that a player may
use while its Power Card is green, Flex action cards, and wilds that target a
player.

Usage::

    from unokit.envs import uno_flex_v0

    env = uno_flex_v0.env(players=3, flexFlexSideWD4Restricted=True)
    env.reset(seed=3)

Arguments
    ``env(players=2, render_mode=None, *, reward="points", episode="round",
    illegal="terminate", illegal_reward=-1.0, max_steps=3_000, stall_reward="loss",
    step_cost=0.0, **options)`` as in
    :mod:`unokit.envs.uno_classic_v0`; ``options`` are the game options of
    docs/rules.md (Options) (``flexDeck``, ``flexWildsCountAsMatch``...).

Actions
    One entry per distinct card of the deck table (92 with ``default_v1``) on
    its regular side (wilds once per colour), plus one per flex side: Flex
    numbers and Flex Skip / Reverse / Draw Two ``side=flex``; Flex Wild All
    Draw ``side=flex`` once per colour; Flex Wild Target Draw 2 and Flex Wild
    Draw Four ``side=flex`` once per colour and target (``target=+k``, k seats
    clockwise, so 4 x (N-1) entries each). Then ``DRAW``, ``PASS``, ``COLOR``
    R Y G B (never needed in Flex, whose first card is always a number; kept so
    that the table has the same shape as Classic's), ``ACCEPT``, ``CHALLENGE``,
    ``UNO``, ``CATCH +k``.

Observation
    As in Classic, plus each seat's Power Card (segment ``powers`` of
    :mod:`unokit.envs.observation`, 1 = green).

Rewards, episodes, truncation, seeds, illegal actions, render
    As in :mod:`unokit.envs.uno_classic_v0` (round points of docs/rules.md §4.10).

Batched version
    ``vector_env(num_envs, players=2, *, seed=None, **kwargs)``: ``num_envs``
    rounds stepped together by the rules core, same rules, options,
    observation and action table (:mod:`unokit.envs.vector`).

Version history
    v0: first version.

>>> env = raw_env(players=2)
>>> env.reset(seed=1)
>>> obs = env.observe(env.agent_selection)
>>> int(env.action_space("player_0").n), obs["observation"].shape
(170, (159,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import UnoEnv, env_metadata

if TYPE_CHECKING:
    from .vector import UnoVectorEnv

__all__ = ["env", "raw_env", "vector_env"]


class raw_env(UnoEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """UNO Flex without PettingZoo's order-enforcing wrapper."""

    variant_name = "flex"
    metadata = env_metadata("uno_flex_v0")


def env(players: int = 2, render_mode: str | None = None, **kwargs: Any) -> raw_env:
    """The UNO Flex AEC environment (see the module documentation); like
    :func:`unokit.envs.uno_classic_v0.env`, it adds no wrapper."""
    return raw_env(players=players, render_mode=render_mode, **kwargs)


def vector_env(num_envs: int, players: int = 2, **kwargs: Any) -> UnoVectorEnv:
    """The batched version (same rules, options, observation and actions): see
    :mod:`unokit.envs.vector`."""
    from .vector import UnoVectorEnv

    return UnoVectorEnv("flex", num_envs, players, **kwargs)
