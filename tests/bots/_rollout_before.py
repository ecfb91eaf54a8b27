"""The rollout policies as they were before they ran on one CoreGame (commit
cdfee3b, verbatim apart from this docstring): the oracle of
tests/bots/test_rollout.py, which checks that the same seed gives the same
rollout on the core. Stepping a ``Game`` here loads and stores the position
per command."""

from __future__ import annotations

import functools
from collections.abc import Callable

from unokit.engine.game import _C, _CH, _D, _FW4, _RO, _T, _WTD, OP_COLOR, OP_PLAY, Game
from unokit.engine.variants import WILD_BIT

__all__ = ["rollout", "greedy_move"]

_FLEX_BIT = 1 << 20


def _best_color(game: Game, hand: list[int], side: int) -> int:
    colors = game.variant.color[side]
    counts = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            counts[col] += 1
    base = 4 * side
    best = base
    for col in range(base, base + 4):
        if counts[col] > counts[best]:
            best = col
    return best


def _favourite_color(game: Game, hand: list[int], side: int) -> int:
    """The colour the heuristic bot names: the one held most, action cards (20
    points or more) counting double; ties go to the first colour."""
    colors = game.variant.color[side]
    points = game.variant.points[side]
    counts = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            counts[col] += 2 if points[c] >= 20 else 1
    return _argmax4(counts, side)


def greedy_move(game: Game, rnd: Callable[[], float]) -> int:
    """The greedy policy's move code for the seat to act (any variant or option)."""
    moves = game.turn_moves()
    if len(moves) == 1:
        return moves[0]
    ph = game.phase
    side = game.side
    if ph == _C:
        want = _best_color(game, game.hands[game.current], side)
        return OP_COLOR | ((want + 1) << 16)
    plays = [m for m in moves if m & 15 == OP_PLAY]
    if not plays or (ph != _T and ph != _D):
        return moves[int(rnd() * len(moves))]
    mask = game.variant.mask[side]
    plain = [m for m in plays if not mask[(m >> 4) & 0xFFF] & WILD_BIT and not m & _FLEX_BIT]
    if ph == _T and game.pending:
        plain = plays  # stacking: any draw card will do
    if plain:
        return plain[int(rnd() * len(plain))]
    want = _best_color(game, game.hands[game.current], side) + 1
    named = [m for m in plays if (m >> 16) & 15 in (0, want)]
    pick = named or plays
    return pick[int(rnd() * len(pick))]


def rollout(game: Game, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
    """Play the round in progress to its end with the greedy policy; returns the
    number of decisions made. ``rnd`` returns floats in [0, 1)."""
    v = game.variant
    o = game.options
    fast = not v.flex and not o.noBluff and not o.forcedPlay and not game.options.sevenZero
    quick_draw = fast and game.log is None and not o.drawUntilPlayable
    step = functools.partial(game.apply_move, uno=True)
    turns = 0
    while game.phase < _RO and turns < max_turns:
        turns += 1
        ph = game.phase
        if fast and ph == _T and not game.pending:
            side = game.side
            mask = v.mask[side]
            acc = game.accept_mask
            cur = game.current
            hand = game.hands[cur]
            ok = [c for c in hand if mask[c] & acc]
            if not ok:
                d = game.draw
                if quick_draw and d and game.vulnerable < 0 and game.reveal is None:
                    game.draw_card(cur)
                else:
                    game.draw_card(cur)
                continue
            plain = [c for c in ok if not mask[c] & WILD_BIT]
            if plain:
                c = plain[int(rnd() * len(plain))]
                game.play(cur, c, -1, False, -1, -1, True)
            else:
                c = ok[int(rnd() * len(ok))]
                hand.remove(c)
                col = _best_color(game, hand, side)
                hand.append(c)
                game.play(cur, c, col, False, -1, -1, True)
            continue
        if fast and ph == _D:
            cur = game.current
            c = game.drawn
            col = -1
            if v.mask[game.side][c] & WILD_BIT:
                hand = game.hands[cur]
                hand.remove(c)
                col = _best_color(game, hand, game.side)
                hand.append(c)
            game.play(cur, c, col, False, -1, -1, True)
            continue
        if ph == _C:
            want = _best_color(game, game.hands[game.current], game.side)
            step(OP_COLOR | ((want + 1) << 16))
            continue
        step(greedy_move(game, rnd))
    return turns


# ---------------------------------------------------------------------- the
# "sensible" policy: a deterministic, integer-level version of the heuristic bot

_ATTACK_KINDS = frozenset({1, 2, 3, 4, 5, 7, 8, 9, 10})  # skips, reverses, draw cards
_FLIP_KIND = 6
#: what playing a card's flex side adds to its score, by kind (-8 for the
#: others, whose flex side is kept for later): Flex Skip, Flex Draw Two and
#: Wild All Draw +4; Wild Target Draw and Flex Wild Draw Four +12
_FLEX_BONUS = {8: 4.0, 10: 4.0, 16: 4.0, 17: 12.0, 18: 12.0}


def _plain_score(held: int, points: int, kind: int, next_size: int) -> float:
    """The heuristic's score of a coloured card: shed the colour held most and
    the points; attack (skip, reverse, draw) a next player about to go out."""
    s = 2.0 * held + points / 10
    if kind in _ATTACK_KINDS and next_size <= 2:
        s += 25
    return s


def _wild_score(restricted: bool, holds_current: bool, next_size: int) -> float:
    """The heuristic's score of a wild: kept for later (-30); a restricted wild
    draw (played from its regular side) is a bluff while the colour is held
    and the next player is not about to go out (-100), an attack when it is
    (+45)."""
    s = -30.0
    if restricted:
        if holds_current and next_size > 2:
            s -= 100
        elif next_size <= 2:
            s += 45
    return s


def sensible_move(game: Game) -> int:
    """A deterministic, fast version of the ``heuristic`` bot's choices on a full
    game (for rollouts: every seat plays it on its own hand). No randomness:
    rollouts from the same deal differ only by the moves that start them."""
    moves = game.turn_moves()
    if len(moves) == 1:
        return moves[0]
    ph = game.phase
    p = game.current
    if ph == _C:
        return OP_COLOR | ((_favourite_color(game, game.hands[p], game.side) + 1) << 16)
    if ph == _CH:
        # challenge when the offender holds enough cards that it likely held the
        # colour (what the heuristic's odds come to): ACCEPT first, CHALLENGE second
        return moves[1] if len(game.hands[game.ch_offender]) >= 2 else moves[0]
    if ph != _T and ph != _D:
        return moves[0]
    v = game.variant
    side = game.side
    hand = game.hands[p]
    mask = v.mask[side]
    plays = [m for m in moves if m & 15 == OP_PLAY]
    if not plays:
        return moves[0]
    if ph == _D:
        c = game.drawn
        if mask[c] & WILD_BIT and len(hand) > 3:
            for m in moves:
                if m & 15 != OP_PLAY:
                    return m  # keep a drawn wild for later
    n = game.n
    sizes = [len(h) for h in game.hands]
    nxt = (p + game.direction) % n
    next_size = sizes[nxt]
    threat = min(sizes[s] for s in range(n) if s != p)
    colors = v.color[side]
    held = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            held[col] += 1
    best_col = _favourite_color(game, hand, side)
    kinds = v.kind[side]
    points = v.points[side]
    restricted = v.restricted[side]
    holds_current = held[game.color] > 0 if game.color >= 0 else False
    best_m = plays[0]
    best_s = -1e9
    for m in plays:
        c = (m >> 4) & 0xFFF
        k = kinds[c]
        flex = m & _FLEX_BIT
        if mask[c] & WILD_BIT:
            s = _wild_score(bool(restricted[c]) and not flex, holds_current, next_size)
            if ((m >> 16) & 15) - 1 != best_col:
                s -= 5
        else:
            s = _plain_score(held[colors[c]], points[c], k, next_size)
        if flex:
            s += _FLEX_BONUS.get(k, -8.0)
        t = ((m >> 21) & 15) - 1
        if t >= 0:
            s -= sizes[t]
        w = ((m >> 25) & 15) - 1
        if w >= 0:
            s -= 2 * sizes[w]
        if k == _FLIP_KIND:
            s += 10 if threat <= 2 else -2
        if s > best_s:
            best_s, best_m = s, m
    return best_m


def sensible_rollout(
    game: Game, rnd: Callable[[], float] | None = None, max_turns: int = 100_000
) -> int:
    """Play the round to its end with :func:`sensible_move` for every seat
    (``rnd`` is ignored: the policy is deterministic). The commonest turns
    (a card played or drawn with no house rule in play) are decided inline; a
    test proves the result equals stepping :func:`sensible_move`."""
    v = game.variant
    o = game.options
    fast = (
        not o.noBluff
        and not o.forcedPlay
        and not o.drawUntilPlayable
        and not game.options.sevenZero
        and game.log is None
    )
    flexv = v.flex
    two_sided = v.two_sided  # only Flip has Flip cards, whose score reads the threat
    step = functools.partial(game.apply_move, uno=True)
    n = game.n
    kinds_of = v.kind
    points_of = v.points
    colors_of = v.color
    turns = 0
    while game.phase < _RO and turns < max_turns:
        turns += 1
        ph = game.phase
        if not fast or game.pending or game.vulnerable >= 0 or game.reveal is not None:
            step(sensible_move(game))
            continue
        if flexv:
            _flex_turn(game, ph)
            continue
        if ph == _T:
            side = game.side
            mask = v.mask[side]
            acc = game.accept_mask
            cur = game.current
            hand = game.hands[cur]
            ok = [c for c in hand if mask[c] & acc]
            if not ok:
                d = game.draw
                if d:
                    game.draw_card(cur)
                else:
                    game.draw_card(cur)
                continue
            plain = [c for c in ok if not mask[c] & WILD_BIT]
            next_size = len(game.hands[(cur + game.direction) % n])
            if next_size <= 2 and len(plain) < len(ok):
                step(sensible_move(game))  # a wild draw may be worth a bluff now
                continue
            if plain:
                if len(plain) == 1:
                    best_c = plain[0]
                else:
                    # (what is needed only to choose among several cards is
                    # computed only then: this loop runs millions of times)
                    colors = colors_of[side]
                    held = [0] * 8
                    for c in hand:
                        col = colors[c]
                        if col >= 0:
                            held[col] += 1
                    threat = (
                        min(len(game.hands[t]) for t in range(n) if t != cur) if two_sided else 0
                    )
                    kinds = kinds_of[side]
                    points = points_of[side]
                    best_c = -1
                    best_s = -1e9
                    for c in sorted(set(plain)):
                        k = kinds[c]
                        sc = _plain_score(held[colors[c]], points[c], k, next_size)
                        if k == _FLIP_KIND:
                            sc += 10 if threat <= 2 else -2
                        if sc > best_s:
                            best_s, best_c = sc, c
                game.play(cur, best_c, -1, False, -1, -1, True)
                continue
            # only wilds: no card of the colour in force is held, so no bluff
            restricted = v.restricted[side]
            best_c = -1
            best_s = -1e9
            for c in sorted(set(ok)):
                sc = -30.0
                if restricted[c] and next_size <= 2:
                    sc += 45
                if sc > best_s:
                    best_s, best_c = sc, c
            col = _favourite_color(game, hand, side)
            game.play(cur, best_c, col, False, -1, -1, True)
            continue
        if ph == _D:
            cur = game.current
            c = game.drawn
            hand = game.hands[cur]
            if v.mask[game.side][c] & WILD_BIT:
                if len(hand) > 3:
                    game.keep(cur)
                    continue
                col = _favourite_color(game, hand, game.side)
                game.play(cur, c, col, False, -1, -1, True)
            else:
                game.play(cur, c, -1, False, -1, -1, True)
            continue
        step(sensible_move(game))
    return turns


def _flex_turn(game: Game, ph: int) -> None:
    """One decision of :func:`sensible_move` in Flex, made inline: the seat to
    act plays a card (or draws, or keeps a drawn wild) as the policy would. The
    caller knows that no penalty waits, nobody is vulnerable, nothing is
    revealed, and that no option in force changes the moves (noBluff,
    forcedPlay, drawUntilPlayable, sevenZero) or keeps an event log."""
    if ph != _T and ph != _D:
        game.apply_move(sensible_move(game), uno=True)
        return
    v = game.variant
    mask = v.mask[0]
    fmask = v.flexmask
    cur = game.current
    hand = game.hands[cur]
    green = game.powers[cur]
    acc = game.accept_mask
    if ph == _D:
        c = game.drawn
        if mask[c] & WILD_BIT and len(hand) > 3:
            game.keep(cur)  # a drawn wild is kept for later
            return
        cards = [c]
    else:
        if green:
            cards = sorted({c for c in hand if mask[c] & acc or fmask[c] & acc})
        else:
            cards = sorted({c for c in hand if mask[c] & acc})
        if not cards:
            if game.draw:
                game.draw_card(cur)
            else:
                game.draw_card(cur)
            return
    # the scores of sensible_move, move by move in the engine's order (cards
    # ascending, the regular side before the flex side), first best kept
    kinds = v.kind[0]
    points = v.points[0]
    colors = v.color[0]
    restricted = v.restricted[0]
    n = game.n
    sizes = [len(h) for h in game.hands]
    next_size = sizes[(cur + game.direction) % n]
    held = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            held[col] += 1
    holds_current = held[game.color] > 0 if game.color >= 0 else False
    best_col = -1
    best_s = -1e9
    best = (-1, -1, False, -1)
    for c in cards:
        k = kinds[c]
        wild = mask[c] & WILD_BIT
        for flex in (False, True):
            if flex:
                if not (green and fmask[c] & acc):
                    continue
            elif not mask[c] & acc:
                continue
            col = t = -1
            if wild:
                s = _wild_score(bool(restricted[c]) and not flex, holds_current, next_size)
                if best_col < 0:
                    best_col = _favourite_color(game, hand, 0)
                col = best_col
            else:
                s = _plain_score(held[colors[c]], points[c], k, next_size)
            if flex:
                s += _FLEX_BONUS.get(k, -8.0)
                if wild and (k == _WTD or k == _FW4):
                    # the target with the fewest cards, the first in seat order
                    t = min((x for x in range(n) if x != cur), key=sizes.__getitem__)
                    s -= sizes[t]
            if s > best_s:
                best_s = s
                best = (c, col, flex, t)
    c, col, flex, t = best
    game.play(cur, c, col, flex, t, -1, True)


def _argmax4(held: list[int], side: int) -> int:
    best = 4 * side
    for col in range(best + 1, best + 4):
        if held[col] > held[best]:
            best = col
    return best
