"""A fast "greedy" playout policy for search bots.

Slightly smarter than :func:`unokit.engine.playout.random_move`, at almost the same
speed, because a rollout that wastes wilds and names random colours makes
every position look like a coin toss:

* play a coloured (non-wild) playable card when there is one, uniformly;
* otherwise a wild, declaring the colour held most (ties: the lowest colour);
* with nothing to play, draw; play a drawn card that can be played;
* other decisions (challenge or accept, colour after a Flip, stacked
  penalties, Flex flex sides, targets, 7-0 swaps) are answered uniformly
  among the legal moves, as the random policy does — but colours always go
  to the colour held most.

Every simulated player calls UNO with the play. Like
:func:`unokit.engine.playout.playout`, the common transitions are generated inline
but every card effect goes through the engine (``Game.play``, on the C core).

>>> import random
>>> from unokit import Game
>>> g = Game.new("classic", 2, {"matchMode": "single_round"}, seed=5, events=False)
>>> turns = rollout(g, random.Random(1).random)
>>> g.state.name
'MATCH_OVER'
"""

from __future__ import annotations

from collections.abc import Callable

from unokit.engine.codes import CHALLENGE as _CH
from unokit.engine.codes import COLOR as _C
from unokit.engine.codes import DRAWN as _D
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.codes import TURN as _T
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import OP_COLOR, OP_DRAW, OP_PLAY, Game
from unokit.engine.variants import WILD_BIT, Variant

__all__ = [
    "rollout",
    "greedy_move",
    "sensible_move",
    "sensible_rollout",
    "TUNED_WEIGHTS",
    "OWN_POLICIES",
]

_FLEX_BIT = 1 << 20

AnyGame = Game


def _on_core(game: AnyGame) -> Game:
    """``game`` itself: every game holds its position on the core."""
    return game


def _run(game: AnyGame, policy: Callable[[Game], int]) -> int:
    """Run ``policy`` on ``game`` itself; the events it caused go to the
    game's log when it keeps one."""
    try:
        return policy(game)
    finally:
        game._done()


def _refused(c: Game, err: int, what: str) -> IllegalActionError:
    from unokit.engine.core import error_text

    return IllegalActionError(f"rollout: the core refused {what}: {error_text(err)} ({c!r})")


def _step(c: Game, move: int) -> None:
    """The seat to act carries out ``move`` and calls UNO with it."""
    err = c._g.apply_move(move, -1, True)
    if err:
        raise _refused(c, err, c.describe(move))


def _play(c: Game, seat: int, cid: int, color: int, flex: bool = False, target: int = -1) -> None:
    err = c._g.play(seat, cid, color, flex, target, -1, True, -1)
    if err:
        raise _refused(c, err, f"P{seat} PLAY card id {cid}")


def _draw(c: Game, seat: int) -> None:
    err = c._g.apply_move(OP_DRAW, seat, False)
    if err:
        raise _refused(c, err, f"P{seat} DRAW")


def _best_color(v: Variant, hand: list[int], side: int) -> int:
    colors = v.color[side]
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


def _favourite_color(v: Variant, hand: list[int], side: int) -> int:
    """The colour the heuristic bot names: the one held most, action cards (20
    points or more) counting double; ties go to the first colour."""
    colors = v.color[side]
    points = v.points[side]
    counts = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            counts[col] += 2 if points[c] >= 20 else 1
    return _argmax4(counts, side)


def greedy_move(game: AnyGame, rnd: Callable[[], float]) -> int:
    """The greedy policy's move code for the seat to act (any variant or option)."""
    return _greedy_move(_on_core(game), rnd)


def _greedy_move(c: Game, rnd: Callable[[], float]) -> int:
    g = c._g
    moves = g.turn_moves()
    if len(moves) == 1:
        return moves[0]
    ph = g.phase
    side = g.side
    v = c.variant
    if ph == _C:
        want = _best_color(v, g.hand(g.current), side)
        return OP_COLOR | ((want + 1) << 16)
    plays = [m for m in moves if m & 15 == OP_PLAY]
    if not plays or (ph != _T and ph != _D):
        return moves[int(rnd() * len(moves))]
    mask = v.mask[side]
    plain = [m for m in plays if not mask[(m >> 4) & 0xFFF] & WILD_BIT and not m & _FLEX_BIT]
    if ph == _T and g.pending:
        plain = plays  # stacking: any draw card will do
    if plain:
        return plain[int(rnd() * len(plain))]
    want = _best_color(v, g.hand(g.current), side) + 1
    named = [m for m in plays if (m >> 16) & 15 in (0, want)]
    pick = named or plays
    return pick[int(rnd() * len(pick))]


def rollout(game: AnyGame, rnd: Callable[[], float], max_turns: int = 1_000_000) -> int:
    """Play the round in progress to its end with the greedy policy; returns the
    number of decisions made. ``rnd`` returns floats in [0, 1). A ``Game`` is
    loaded into the core once, played there and stored back."""
    return _run(game, lambda c: _greedy_rollout(c, rnd, max_turns))


def _greedy_rollout(c: Game, rnd: Callable[[], float], max_turns: int) -> int:
    v = c.variant
    o = c.options
    g = c._g
    fast = (
        not v.flex
        and not o.noBluff
        and not o.forcedPlay
        and not o.seven_swap
        and o.finishRestriction == "off"
    )
    turns = 0
    while g.phase < _RO and turns < max_turns:
        turns += 1
        ph = g.phase
        if fast and ph == _T and not g.pending:
            side = g.side
            mask = v.mask[side]
            acc = g.accept_mask
            cur = g.current
            hand = g.hand(cur)
            ok = [x for x in hand if mask[x] & acc]
            if not ok:
                _draw(c, cur)
                continue
            plain = [x for x in ok if not mask[x] & WILD_BIT]
            if plain:
                x = plain[int(rnd() * len(plain))]
                _play(c, cur, x, -1)
            else:
                x = ok[int(rnd() * len(ok))]
                hand.remove(x)
                _play(c, cur, x, _best_color(v, hand, side))
            continue
        if fast and ph == _D:
            cur = g.current
            x = g.drawn
            col = -1
            side = g.side
            if v.mask[side][x] & WILD_BIT:
                hand = g.hand(cur)
                hand.remove(x)
                col = _best_color(v, hand, side)
            _play(c, cur, x, col)
            continue
        if ph == _C:
            want = _best_color(v, g.hand(g.current), g.side)
            _step(c, OP_COLOR | ((want + 1) << 16))
            continue
        _step(c, _greedy_move(c, rnd))
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


def sensible_move(game: AnyGame) -> int:
    """A deterministic, fast version of the ``heuristic`` bot's choices on a full
    game (for rollouts: every seat plays it on its own hand). No randomness:
    rollouts from the same deal differ only by the moves that start them."""
    return _sensible_move(_on_core(game))


def _sensible_move(cg: Game) -> int:
    g = cg._g
    moves = g.turn_moves()
    if len(moves) == 1:
        return moves[0]
    ph = g.phase
    p = g.current
    v = cg.variant
    side = g.side
    if ph == _C:
        return OP_COLOR | ((_favourite_color(v, g.hand(p), side) + 1) << 16)
    if ph == _CH:
        # challenge when the offender holds enough cards that it likely held the
        # colour (what the heuristic's odds come to): ACCEPT first, CHALLENGE second
        return moves[1] if g.hand_sizes()[g.ch_offender] >= 2 else moves[0]
    if ph != _T and ph != _D:
        return moves[0]
    hand = g.hand(p)
    mask = v.mask[side]
    plays = [m for m in moves if m & 15 == OP_PLAY]
    if not plays:
        return moves[0]
    if ph == _D:
        c = g.drawn
        if mask[c] & WILD_BIT and len(hand) > 3:
            for m in moves:
                if m & 15 != OP_PLAY:
                    return m  # keep a drawn wild for later
    n = cg.n
    sizes = g.hand_sizes()
    nxt = (p + g.direction) % n
    next_size = sizes[nxt]
    threat = min(sizes[s] for s in range(n) if s != p)
    colors = v.color[side]
    held = [0] * 8
    for c in hand:
        col = colors[c]
        if col >= 0:
            held[col] += 1
    best_col = _favourite_color(v, hand, side)
    kinds = v.kind[side]
    points = v.points[side]
    restricted = v.restricted[side]
    color = g.color
    holds_current = held[color] > 0 if color >= 0 else False
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
    game: AnyGame, rnd: Callable[[], float] | None = None, max_turns: int = 100_000
) -> int:
    """Play the round to its end with :func:`sensible_move` for every seat
    (``rnd`` is ignored: the policy is deterministic); returns the number of
    decisions made. The whole rollout runs in the C core
    (``_core.Game.sensible_playout``, ``src/unokit/_core/policy.c``: the same
    policy, move for move, about ten times faster than stepping it from
    Python); tests prove it picks :func:`sensible_move`'s move at every
    decision of many random positions and equals stepping it. A ``Game`` is
    loaded into the core once, played there and stored back."""
    return _run(game, lambda c: c._g.sensible_playout(max_turns))


def _argmax4(held: list[int], side: int) -> int:
    best = 4 * side
    for col in range(best + 1, best + 4):
        if held[col] > held[best]:
            best = col
    return best


# ---------------------------------------------------------------------- the
# weighted sensible policy (issue 16): _core.Game.weighted_move(weights) is
# sensible_move's structure with its constants from a weight vector (entries:
# UK_W_* in src/unokit/_core/core.h); with _core.W_DEFAULTS it is sensible_move.

#: weights tuned for the searching seat's own rollout moves in 2-player
#: Classic single rounds, against the sensible policy in the other seat (which
#: models the heuristic bot), by coordinate search on duplicate deals
#: (benchmarks/strength/tune_rollout.py; issue 16, eighth session):
#:
#:     python benchmarks/strength/tune_rollout.py --deals 30000 --sweeps 6
#:     python benchmarks/strength/tune_rollout.py --deals 60000 --tune-seed 3000000 --sweeps 3 \
#:         --scale 0.5 --start 1,0.75,25,-40,-100,30,-5,0.5,1,4,1,0,0,-3,10,20
#:
#: In the order of UK_W_* (core.h): held 1 (sensible 2), points 0.25 (1),
#: attack 25, wild -40 (-30), bluff -100, wild_attack 30 (45), off_color -5,
#: fav_action 0.5 (2), challenge 1 (2), keep_wild 5 (3), low 1 (2), action 0,
#: draw 1.5 (0), follow -3 (0), wild_legal 10 (0), wild_short 20 (0). Against
#: the sensible policy on 100,000 other deals (both seatings): see docs/bots.md.
TUNED_WEIGHTS: tuple[float, ...] = (
    1.0,
    0.25,
    25.0,
    -40.0,
    -100.0,
    30.0,
    -5.0,
    0.5,
    1.0,
    5.0,
    1.0,
    0.0,
    1.5,
    -3.0,
    10.0,
    20.0,
)

#: ``hard``'s ``own`` option: the weights of the searching seat's own moves in
#: its rollouts (None: the sensible policy, as for every other seat)
OWN_POLICIES: dict[str, tuple[float, ...] | None] = {"sensible": None, "tuned": TUNED_WEIGHTS}
