"""House rule ``multiPlay`` (docs/rules.md §6): the move codes of a PLAY of
several number cards of one number.

A multi-play's code is ``OP_MULTI | first << 4 | mask << 16 | (swap + 1) << 25``:
``first`` is the card id played first, and bit ``j`` of the 7-bit ``mask``
names the ``j``-th of the player's *other* number cards of that number, in
hand order (the first copy of ``first`` left out, :func:`others`); the named
cards follow ``first`` in hand order, the last of them ends on top. The rule
itself is in the C core (``uk_play_multi``) and in the Python reference.
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit.engine.codes import OP_MULTI
from unokit.engine.variants import Variant

__all__ = ["OP_MULTI", "others", "decode", "encode"]


def others(variant: Variant, side: int, hand: Sequence[int], first: int) -> list[int]:
    """The hand positions a multi-play code's mask names (at most 7)."""
    kind, number = variant.kind[side], variant.number[side]
    num = number[first]
    out: list[int] = []
    skipped = False
    for i, c in enumerate(hand):
        if len(out) == 7:
            break
        if c == first and not skipped:
            skipped = True
            continue
        if kind[c] == 0 and number[c] == num:  # Kind.NUMBER
            out.append(i)
    return out


def decode(
    variant: Variant, side: int, hand: Sequence[int], move: int
) -> tuple[list[int], int] | None:
    """``(card ids in play order, swap)`` of a multi-play code, or ``None`` if
    the code names no cards of this hand."""
    first = (move >> 4) & 0xFFF
    mask = (move >> 16) & 0x7F
    if first >= len(variant.cards.cards) or move & (3 << 23) or not mask:
        return None
    pos = others(variant, side, hand, first)
    if mask >> len(pos):
        return None
    cids = [first] + [hand[p] for j, p in enumerate(pos) if mask >> j & 1]
    return cids, ((move >> 25) & 15) - 1


def encode(variant: Variant, side: int, hand: Sequence[int], cids: Sequence[int], swap: int) -> int:
    """The code of playing ``cids`` in this order from ``hand``; :class:`ValueError`
    when they are not the first card followed by others in hand order."""
    pos = others(variant, side, hand, cids[0])
    mask = 0
    j = 0
    for c in cids[1:]:
        while j < len(pos) and hand[pos[j]] != c:
            j += 1
        if j == len(pos):
            raise ValueError(f"no move code plays {len(cids)} cards in this order")
        mask |= 1 << j
        j += 1
    return OP_MULTI | (cids[0] << 4) | (mask << 16) | ((swap + 1) << 25)
