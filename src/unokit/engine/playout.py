"""The random policy, and fast random playouts on a full game state.

:func:`random_move` is the policy of the ``random`` bot: uniform over the
playable cards of its hand when there is one (each copy counts; then a uniform
colour, side or target), DRAW otherwise; uniform over the answers of the
other decisions (play the drawn card or keep it, accept or challenge, colour);
UNO is always called with the play. A random player that also draws
voluntarily makes rounds of 1,200 turns (hands balloon), so voluntary draws
are left out; see docs/decisions.md.

:func:`playout` plays the current round to its end with that policy. It is the
hot path of simulations and search bots: the round is played in the C core
in one call, and a test proves that a playout equals stepping
:func:`random_move` through the public API with the same random stream.

>>> import random
>>> from unokit import Game
>>> g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=5, events=False)
>>> turns = playout(g, random.Random(1).random)
>>> g.state.name
'MATCH_OVER'
"""

from __future__ import annotations

from collections.abc import Callable

from unokit.engine.codes import OP_DRAW, OP_PLAY, ROUND_OVER, TURN
from unokit.engine.game import Game

__all__ = ["random_move", "playout"]


def random_move(game: Game, rnd: Callable[[], float]) -> int:
    """The random policy's move code for the seat to act."""
    moves = game.turn_moves()
    if game.phase == TURN and not game.pending:
        p = game.current
        by_card: dict[int, list[int]] = {}
        for m in moves:
            if m & 15 == OP_PLAY:
                by_card.setdefault((m >> 4) & 0xFFF, []).append(m)
        if by_card:
            # a uniformly random playable card of the hand (each copy counts)...
            cards = [c for c in game.hands[p] if c in by_card]
            codes = by_card[cards[int(rnd() * len(cards))]]
            # ...then a uniformly random way to play it (colour, side, target)
            return codes[0] if len(codes) == 1 else codes[int(rnd() * len(codes))]
        return OP_DRAW
    return moves[int(rnd() * len(moves))]


def playout(game: Game, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
    """Play the round in progress to its end (``ROUND_OVER`` or ``MATCH_OVER``)
    with :func:`random_move`; returns the number of decisions made.
    ``rnd`` returns floats in [0, 1).

    The round is played on the C core (:mod:`unokit.engine.core`): the same policy,
    the same calls of ``rnd``, the same final state as stepping
    :func:`random_move` through :meth:`Game.apply_move`; a game that keeps
    an event log gets the playout's events appended to it."""
    if game.phase >= ROUND_OVER:
        return 0
    return game.playout(rnd, max_turns)
