"""UNO Classic: PettingZoo AEC environment ``uno_classic_v0``.

====================  ============================================================
Import                ``from unokit.envs import uno_classic_v0``
Agents                ``player_0`` ... ``player_{N-1}`` (N = 2..10), seat i = ``player_i``
Action space          ``Discrete(70)`` at 2 players (60 plays, DRAW, PASS, 4 colours,
                      ACCEPT, CHALLENGE, UNO, N-1 catches); 72 at 4 players
Observation space     ``Dict(observation=Box(0, ., (119,), float32),
                      action_mask=Box(0, 1, (70,), int8))`` at 2 players
Engine                :class:`unokit.Game` (docs/rules.md §1-2, Appendix C options)
====================  ============================================================

Usage::

    from unokit.envs import uno_classic_v0

    env = uno_classic_v0.env(players=2, render_mode="ansi", stacking="same_symbol")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Arguments
    ``env(players=2, render_mode=None, *, reward="points", episode="round",
    illegal="terminate", illegal_reward=-1.0, max_steps=3_000, stall_reward="loss",
    step_cost=0.0, **options)``; ``raw_env`` is the
    environment class itself (``env`` adds no wrapper: the environment checks the
    order of API calls on its own). ``options`` are
    the game options of docs/rules.md (Options) with their spec names
    (``stacking="same_symbol"``, ``sevenZero=True``, ``targetScore=200``...).

The agent to act
    Always the seat whose decision the engine waits for (``game.current``): a
    turn, the choice after drawing a playable card, a colour, or the answer to a
    Wild Draw Four. Calling UNO and catching an opponent who forgot to are
    actions of that agent's mask when they have an effect; an UNO call does not
    end the turn. Jump-ins (house rule ``jumpIn``) are not offered: only the
    agent to act moves. One exception to "the seat the engine waits for": when
    a vulnerable seat (down to one card, UNO not called) is also the next to
    act, e.g. after a Skip at two players, the other seats are first offered
    the catch in order of play (mask: ``CATCH +k`` and ``PASS``), as any
    player may catch until the vulnerable one's next turn action
    (:meth:`unokit.Game.catch_window`).

Actions
    The integer table of :mod:`unokit.envs.actions`: one entry per card of the
    deck (54 distinct cards; each wild once per colour), then ``DRAW``,
    ``PASS``, ``COLOR R/Y/G/B``, ``ACCEPT``, ``CHALLENGE``, ``UNO``, ``CATCH +k``
    (k seats clockwise); with ``sevenZero`` each 7 also once per swap partner
    (relative). ``env.unwrapped.table.names[i]`` names action ``i``; ``unokit
    envs table classic`` prints the table.

Observation
    ``observation`` is the vector of :mod:`unokit.envs.observation`, built only
    from what the agent may know (its hand, the discard pile, colour, hand sizes,
    UNO states, draw pile size, direction, pending draw, scores; seats relative
    to the agent). ``action_mask`` has a 1 for each legal action of the agent to
    act and is all zeros for the others and once the episode is over.

Rewards
    At the end of a round (:mod:`unokit.envs.rewards`): with
    ``reward="points"`` the winner gets the round's points (the sum of the
    other hands' values, docs/rules.md §2.6) and every other agent minus the value
    of its own hand, so rewards sum to zero; ``"norm_points"`` is the same
    divided by 100; with ``reward="win"`` +1 to the winner and -1/(N-1) to the
    others. A round without a winner (blocked, or cut at ``max_steps``) is
    worth a loss to every agent (``stall_reward="loss"``, default) or 0
    (``"zero"``). ``step_cost`` (default 0) is taken from an agent's reward
    at each of its decisions. Every other step gives 0.

Episodes
    ``episode="round"`` (default): one round; all agents terminate when it ends.
    ``episode="match"``: rounds follow each other until the match is over
    (``targetScore``); ``points`` rewards come at the end of each round, ``win``
    rewards once, to the match winners (+1 each, the losers share -1 per winner).

Truncation
    A policy that never tries to win can make a round endless (the draw pile
    is refilled from the discard pile for ever), so an episode is truncated
    (all agents; the round is worth ``stall_reward``) after ``max_steps``
    decisions, 3,000 by default: uniformly random play over the mask takes a
    median 1,050 decisions at 2-player Classic (90% under 3,400); bots that
    play when they can take a few dozen. ``max_steps=None`` removes the limit.

Seeds
    ``reset(seed=s)`` deals the same game as ``Game.new("classic", N, options,
    seed=s)``, so episodes are reproducible and can be replayed with the
    engine; later ``reset()`` calls use ``s+1``, ``s+2``, ...

Illegal actions
    An action outside the mask ends the episode with ``illegal_reward`` for the
    offender and 0 for the others (``info["illegal_action"]`` holds it), or,
    with ``illegal="raise"``, raises :class:`unokit.IllegalActionError` and
    changes nothing. An action that is not an index of the table always raises.

Render
    ``render_mode="ansi"``: ``render()`` returns the table as text from the view
    of the agent to act (its hand and legal actions; no other hand);
    ``"human"`` prints that text; ``"rgb_array"`` returns it drawn as an image
    (``uint8 (H, W, 3)``), the mode Stable-Baselines3's ``make_vec_env`` and
    video recorders ask for. Any other mode raises :class:`unokit.OptionError`.

Batched version
    ``vector_env(num_envs, players=2, *, seed=None, **kwargs)``: ``num_envs``
    rounds stepped together by the rules core, same rules, options,
    observation and action table (:mod:`unokit.envs.vector`).

Version history
    v0: first version.

>>> env = raw_env(players=2)
>>> env.reset(seed=42)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_1', 70)
>>> obs = env.observe(env.agent_selection)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((119,), True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._base import UnoEnv, env_metadata

if TYPE_CHECKING:
    from .vector import UnoVectorEnv

__all__ = ["env", "raw_env", "vector_env"]


class raw_env(UnoEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """UNO Classic without PettingZoo's order-enforcing wrapper."""

    variant_name = "classic"
    metadata = env_metadata("uno_classic_v0")


def env(players: int = 2, render_mode: str | None = None, **kwargs: Any) -> raw_env:
    """The UNO Classic AEC environment (see the module documentation).

    The environment checks the order of API calls itself (``step``, ``observe``,
    ``last``, ``render`` before ``reset`` raise a clear error), so PettingZoo's
    OrderEnforcingWrapper, which would cost a third of every step, is not added."""
    return raw_env(players=players, render_mode=render_mode, **kwargs)


def vector_env(num_envs: int, players: int = 2, **kwargs: Any) -> UnoVectorEnv:
    """The batched version (same rules, options, observation and actions): see
    :mod:`unokit.envs.vector`."""
    from .vector import UnoVectorEnv

    return UnoVectorEnv("classic", num_envs, players, **kwargs)
