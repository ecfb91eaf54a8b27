"""UNO Flip: PettingZoo AEC environment ``uno_flip_v0``.

====================  ============================================================
Import                ``from unokit.envs import uno_flip_v0``
Agents                ``player_0`` ... ``player_{N-1}`` (N = 2..10), seat i = ``player_i``
Action space          ``Discrete(189)`` at 2 players (175 plays, DRAW, PASS, 8 colours,
                      ACCEPT, CHALLENGE, UNO, N-1 catches); 191 at 4 players
Observation space     ``Dict(observation=Box(0, ., (418,), float32),
                      action_mask=Box(0, 1, (189,), int8))`` at 2 players (797 / 191 at 4)
Engine                :class:`unokit.Game` (docs/rules.md §1 and §3, Appendix C options)
====================  ============================================================

The first environment for UNO Flip: two-faced cards, a light and a dark side,
Flip cards that turn every hand and pile over, Draw Five, Skip Everyone and
Wild Draw Color.

Usage::

    from unokit.envs import uno_flip_v0

    env = uno_flip_v0.env(players=4, render_mode="ansi")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Arguments
    ``env(players=2, render_mode=None, *, reward="points", episode="round",
    illegal="terminate", illegal_reward=-1.0, max_steps=3_000, stall_reward="loss",
    step_cost=0.0, **options)`` as in
    :mod:`unokit.envs.uno_classic_v0`; ``options`` are the game options of
    docs/rules.md (Options) (``flipDrawColorCap=6``, ``flipExposedWildChooser=...``).

Actions
    One entry per physical card of the deck (111 distinct light|dark pairs with
    the canonical pairing of docs/rules.md Appendix A): its light face (4 entries,
    one per light colour, if it is a wild) and its dark face (4 entries, one
    per dark colour, if it is a wild); a card with no wild face has one entry,
    played with whichever face is up. Then ``DRAW``, ``PASS``, ``COLOR`` for
    R Y G B Pk Tl Or Pu, ``ACCEPT``, ``CHALLENGE`` (Wild Draw Two, Wild Draw
    Color), ``UNO``, ``CATCH +k``. A Flip card that exposes a wild on top asks
    for a colour with a ``COLOR`` decision. With ``flipPairing=random_seeded``
    the cards change with every seed, so the table lists all 2,916 light|dark
    pairs (3,790 actions at 2 players).

Observation
    As in Classic (cards counted by physical card), plus the side that is up
    and what Flip lets everyone see: the back faces of each opponent's hand and
    of the draw pile's top card (segments ``side``, ``backs``,
    ``draw_top_back`` of :mod:`unokit.envs.observation`).

Rewards, episodes, truncation, seeds, illegal actions, render
    As in :mod:`unokit.envs.uno_classic_v0`: round points (docs/rules.md §3.11, the
    face that is up scores) or win/loss; one round or one match per episode;
    ``reset(seed=s)`` deals ``Game.new("flip", N, options, seed=s)``; actions
    outside the mask end the episode (or raise); ``render_mode`` ``"ansi"``,
    ``"human"`` or ``"rgb_array"``.

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
(189, (418,))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import UnoEnv, env_metadata

if TYPE_CHECKING:
    from .vector import UnoVectorEnv

__all__ = ["env", "raw_env", "vector_env"]


class raw_env(UnoEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """UNO Flip without PettingZoo's order-enforcing wrapper."""

    variant_name = "flip"
    metadata = env_metadata("uno_flip_v0")


def env(players: int = 2, render_mode: str | None = None, **kwargs: Any) -> raw_env:
    """The UNO Flip AEC environment (see the module documentation); like
    :func:`unokit.envs.uno_classic_v0.env`, it adds no wrapper."""
    return raw_env(players=players, render_mode=render_mode, **kwargs)


def vector_env(num_envs: int, players: int = 2, **kwargs: Any) -> UnoVectorEnv:
    """The batched version (same rules, options, observation and actions): see
    :mod:`unokit.envs.vector`."""
    from .vector import UnoVectorEnv

    return UnoVectorEnv("flip", num_envs, players, **kwargs)
