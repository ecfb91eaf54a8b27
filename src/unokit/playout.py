"""The random policy, and fast random playouts on a full game state.

:func:`random_move` is the policy of the ``random`` bot: uniform over the
playable cards of its hand when there is one (each copy counts; then a uniform
colour, side or target), DRAW otherwise; uniform over the answers of the
other decisions (play the drawn card or keep it, accept or challenge, colour);
UNO is always called with the play. A random player that also draws
voluntarily makes rounds of 1,200 turns (hands balloon), so voluntary draws
are left out; see docs/decisions.md.

:func:`playout` plays the current round to its end with that policy. It is the
hot path of simulations and search bots: for the common case it generates the
moves inline, but every effect goes through the engine's own ``_do_play``, and
a test proves that a playout equals stepping :func:`random_move` through the
public API with the same random stream.

>>> import random
>>> from unokit import Game
>>> g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=5, events=False)
>>> turns = playout(g, random.Random(1).random)
>>> g.state.name
'MATCH_OVER'
"""

from __future__ import annotations

from collections.abc import Callable

from unokit.game import _D, _NUMBER, _RO, _T, OP_DRAW, OP_PLAY, Game
from unokit.variants import WILD_BIT

__all__ = ["random_move", "playout", "playout_python"]


def random_move(game: Game, rnd: Callable[[], float]) -> int:
    """The random policy's move code for the seat to act."""
    moves = game.turn_moves()
    if game.phase == _T and not game.pending:
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

    A game without an event log plays on the C core (:mod:`unokit.core`: the
    same policy, the same calls of ``rnd``, the same final state); a game that
    keeps events plays here, so that its log and commands are complete."""
    if game.log is None and game.commands is None and game.phase < _RO:
        from unokit.core import CoreGame

        core = CoreGame.from_game(game)
        turns = core.playout(rnd, max_turns)
        core.store(game)
        return turns
    return playout_python(game, rnd, max_turns)


def playout_python(game: Game, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
    """:func:`playout` in Python, on ``Game`` itself (keeps events): the
    reference the core's playout is compared with."""
    v = game.variant
    o = game.options
    flexv = v.flex
    fast = not o.noBluff  # noBluff removes some wild plays: use the general path
    plain_numbers = not flexv and game._plain and game.log is None
    quick_draw = fast and game.log is None and not o.drawUntilPlayable
    colors_of = ((0, 1, 2, 3), (4, 5, 6, 7))
    fmask = v.flexmask
    step = game._step
    n = game.n
    turns = 0
    while game.phase < _RO and turns < max_turns:
        turns += 1
        if fast and game.phase == _T and not game.pending:
            side = game.side
            mask = v.mask[side]
            acc = game._accept_mask()
            cur = game.current
            hand = game.hands[cur]
            flexok = flexv and game.powers[cur]
            if flexok:
                ok = [c for c in hand if mask[c] & acc or fmask[c] & acc]
            else:
                ok = [c for c in hand if mask[c] & acc]
            if not ok:
                d = game.draw
                if quick_draw and d and game.vulnerable < 0 and game.reveal is None:
                    game._plain_draw(cur, acc, flexok)
                else:
                    game.draw_card(cur)
                continue
            c = ok[int(rnd() * len(ok))]
            m = mask[c]
            if (
                plain_numbers
                and not m & WILD_BIT
                and v.kind[side][c] == _NUMBER
                and len(hand) > 2
                and game.vulnerable < 0
                and game.reveal is None
            ):
                hand.remove(c)
                game.discard.append(c)
                game.wild_top = False
                game.empty_draws = 0
                game.uno_pre = -1
                game.color = v.color[side][c]
                game.current = (cur + game.direction) % n
                continue
            if not flexok or not fmask[c] & acc:
                if not m & WILD_BIT and game._plain:
                    game._do_play(cur, c, -1, False, -1, -1, True, -1)
                    continue
                if m & WILD_BIT and not flexv:
                    col = colors_of[side][int(rnd() * 4)]
                    game._do_play(cur, c, col, False, -1, -1, True, -1)
                    continue
            # the general case: every way to play this card, in turn_moves() order
            last = len(hand) == 1
            codes = game._play_codes(cur, c, False, last) if m & acc else []
            if flexok and fmask[c] & acc:
                codes += game._play_codes(cur, c, True, last)
            step(codes[0] if len(codes) == 1 else codes[int(rnd() * len(codes))])
            continue
        if fast and game.phase == _D and not flexv:
            # play the drawn card (each colour of a wild is a choice) or keep it
            cur = game.current
            c = game.drawn
            wild = v.mask[game.side][c] & WILD_BIT
            if wild or game._plain:
                nplay = 4 if wild else 1
                k = int(rnd() * (nplay + (0 if game._must_play_drawn(cur) else 1)))
                if k == nplay:
                    game.keep(cur)
                else:
                    col = colors_of[game.side][k] if wild else -1
                    game._do_play(cur, c, col, False, -1, -1, True, -1)
                continue
        step(random_move(game, rnd))
    return turns
