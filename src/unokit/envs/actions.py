"""The integer action table of the UNO environments.

For a fixed variant, number of players and options the table is fixed: index
``i`` always means the same decision, whoever takes it. It is derived from the
engine's move codes (:meth:`unokit.Game.legal_moves`, :func:`unokit.engine.game.encode_play`)
and covers every decision the engine can ask of the seat to act:

====================  =========================================================
indices, in order     decision
====================  =========================================================
PLAY entries          one per way of playing each card of the *card universe*
                      (below), cards in ascending card id:

                      * a card that is not wild on a side: ``PLAY <card>``;
                      * a wild (on the side it is played on): one entry per
                        colour of that side, ``PLAY W color=G``;
                      * Flip: a card's light and dark faces are both listed
                        (a non-wild face on either side shares one entry);
                      * Flex: cards with a flex side add ``side=flex`` entries
                        (Flex Wild Target Draw 2 and Flex Wild Draw Four: one
                        per colour x target);
                      * ``sevenZero``: a 7 adds one entry per swap partner.
``DRAW``              draw (or take a stacked penalty)
``PASS``              keep the playable card just drawn; in a catch window
                      (:meth:`unokit.Game.catch_window`), let the chance go
``COLOR c``           declare a colour: R Y G B (Flip: then Pk Tl Or Pu)
``ACCEPT``            accept a Wild Draw Four / Draw Two / Draw Color
``CHALLENGE``         challenge it
``UNO``               call UNO (with two cards before playing, or with one)
``CATCH +k``          catch the seat ``k`` places clockwise (k = 1..players-1)
====================  =========================================================

Targets, swap partners and catches are **relative to the acting seat**: ``+1``
is the next seat clockwise (seat + 1 mod players), whatever the direction of
play, so that one policy serves every seat.

The *card universe* is the set of distinct cards of the variant's deck under
the options (Classic 54, Flip 111 with the canonical pairing, Flex 92 with the
default deck table). With ``flipPairing=random_seeded`` the physical cards
change with the seed, so the universe is every light/dark pair (2,916 cards).

>>> from unokit import Game
>>> t = action_table("classic", 2)
>>> t.size, t.names[0], t.names[t.index_of("DRAW")]
(70, 'PLAY R0', 'DRAW')
>>> g = Game.new("classic", 2, seed=1, events=False)
>>> i = t.index(g.current, g.legal_moves()[0])
>>> g.decode(g.current, t.move(g.current, i)) == g.legal_actions()[0]
True
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.engine.cards import Color, Kind
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import (
    OP_ACCEPT,
    OP_CATCH,
    OP_CHALLENGE,
    OP_COLOR,
    OP_DRAW,
    OP_PASS,
    OP_PLAY,
    OP_UNO,
    encode_play,
)
from unokit.engine.options import Options
from unokit.engine.variants import WILD_BIT, Variant, get_variant

__all__ = ["ActionTable", "action_table", "card_universe"]

_FLEX_BIT = 1 << 20
_LOW = (1 << 21) - 1  # op, card, colour and flex fields; targets and swaps lie above
_TARGETED = (int(Kind.WILD_TARGET_DRAW), int(Kind.FLEX_WILD_DRAW_FOUR))


def card_universe(variant: Variant, options: Options) -> tuple[int, ...]:
    """The distinct card ids that can be dealt under ``options`` (ascending)."""
    if variant.two_sided and options.flipPairing == "random_seeded":
        return tuple(range(len(variant.cards)))
    return tuple(sorted(set(variant.deck(options, 0))))


def _play_codes(v: Variant, options: Options, n: int, cid: int) -> list[int]:
    """Every (relative) PLAY code of card ``cid``, mirroring ``Game._play_codes``."""
    modes = [(side, False) for side in ((0, 1) if v.two_sided else (0,))]
    if v.flex and v.flexmask[cid]:
        modes.append((0, True))
    out: list[int] = []
    for side, flex in modes:
        kind = v.kind[side][cid]
        if v.mask[side][cid] & WILD_BIT:
            colors = (4, 5, 6, 7) if side else (0, 1, 2, 3)
            if flex and kind in _TARGETED:
                out += [
                    encode_play(cid, col, True, target=k) for col in colors for k in range(1, n)
                ]
            else:
                out += [encode_play(cid, col, flex) for col in colors]
            continue
        out.append(encode_play(cid, flex=flex))
        if options.seven_swap and kind == int(Kind.NUMBER) and v.number[side][cid] == 7:
            out += [encode_play(cid, flex=flex, swap=k) for k in range(1, n)]
    return list(dict.fromkeys(out))  # a non-wild Flip card lists the same code for both sides


def _rel(k: int) -> str:
    return f"+{k}"


def _name(v: Variant, code: int) -> str:
    op = code & 15
    if op == OP_PLAY:
        cid = (code >> 4) & 0xFFF
        parts = ["PLAY", str(v.cards.cards[cid])]
        col = ((code >> 16) & 15) - 1
        if code & _FLEX_BIT:
            parts.append("side=flex")
        if col >= 0:
            parts.append(f"color={Color(col).name}")
        tgt = ((code >> 21) & 15) - 1
        if tgt >= 0:
            parts.append(f"target={_rel(tgt)}")
        swp = ((code >> 25) & 15) - 1
        if swp >= 0:
            parts.append(f"swap={_rel(swp)}")
        return " ".join(parts)
    if op == OP_COLOR:
        return f"COLOR {Color(((code >> 16) & 15) - 1).name}"
    if op == OP_CATCH:
        return f"CATCH {_rel(((code >> 21) & 15) - 1)}"
    return {OP_DRAW: "DRAW", OP_PASS: "PASS", OP_ACCEPT: "ACCEPT", OP_CHALLENGE: "CHALLENGE",
            OP_UNO: "UNO"}[op]  # fmt: skip


class ActionTable:
    """The fixed action table of one variant / player count / options.

    ``codes[i]`` is the engine move code of action ``i`` with seats written
    relative to the actor; :meth:`move` and :meth:`index` convert for a seat.
    """

    def __init__(self, variant: str | Variant, players: int, options: Options) -> None:
        v = get_variant(variant)
        if not v.min_players <= players <= v.max_players:
            raise IllegalActionError(
                f"{v.name} is played by {v.min_players} to {v.max_players} players, not {players}"
            )
        self.variant = v
        self.players = players
        self.options = options
        self.cards: tuple[int, ...] = card_universe(v, options)
        codes: list[int] = []
        for cid in self.cards:
            codes += _play_codes(v, options, players, cid)
        self.num_plays = len(codes)
        codes += [OP_DRAW, OP_PASS]
        codes += [OP_COLOR | ((c + 1) << 16) for c in range(8 if v.two_sided else 4)]
        codes += [OP_ACCEPT, OP_CHALLENGE, OP_UNO]
        codes += [OP_CATCH | ((k + 1) << 21) for k in range(1, players)]
        self.codes: tuple[int, ...] = tuple(codes)
        self.size = len(codes)
        self.names: tuple[str, ...] = tuple(_name(v, c) for c in codes)
        self._index: dict[int, int] = {c: i for i, c in enumerate(codes)}
        self._by_name: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        # absolute move code of each action, per seat (precomputed: the hot path)
        self._moves: tuple[tuple[int, ...], ...] = tuple(
            tuple(_absolute(c, seat, players) for c in codes) for seat in range(players)
        )
        self._zeros = array("b", bytes(self.size))
        # move code -> index, per seat
        self._indices: tuple[dict[int, int], ...] = tuple(
            {m: i for i, m in enumerate(ms)} for ms in self._moves
        )

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ActionTable {self.variant.name} {self.players}p: {self.size} actions>"

    def index(self, seat: int, move: int) -> int:
        """The action index of the engine move code ``move`` taken by ``seat``."""
        try:
            return self._indices[seat][move]
        except (KeyError, IndexError):
            raise IllegalActionError(
                f"move code {move} of P{seat} is not in the {self.variant.name} action table"
            ) from None

    def indices(self, seat: int) -> dict[int, int]:
        """``{move code: action index}`` for ``seat`` (shared; do not modify)."""
        return self._indices[seat]

    def move(self, seat: int, index: int) -> int:
        """The engine move code of action ``index`` taken by ``seat``."""
        if not 0 <= index < self.size:
            raise IllegalActionError(
                f"action {index} is outside the action table (0..{self.size - 1})"
            )
        return self._moves[seat][index]

    def moves(self, seat: int) -> tuple[int, ...]:
        """Move code of every action for ``seat`` (shared)."""
        return self._moves[seat]

    def index_of(self, name: str) -> int:
        """The index of the action written ``name`` (as in :attr:`names`)."""
        try:
            return self._by_name[" ".join(name.split())]
        except KeyError:
            raise IllegalActionError(f"no action {name!r} in the action table") from None

    def describe(self) -> list[dict[str, Any]]:
        """The table as rows ``{"index", "action"}`` (for documentation)."""
        return [{"index": i, "action": name} for i, name in enumerate(self.names)]

    def mask(self, indices: Iterable[int]) -> npt.NDArray[np.int8]:
        """An ``int8`` mask with a 1 at each of ``indices``."""
        m = self._zeros[:]  # filled as a Python array, then viewed by NumPy: cheaper than
        for i in indices:  # NumPy fancy indexing on a vector this small
            m[i] = 1
        return np.frombuffer(m, dtype=np.int8)

    def summary(self) -> dict[str, int]:
        """How many entries of each kind (for documentation and reports)."""
        kinds: dict[str, int] = {}
        for name in self.names:
            key = name.split()[0]
            kinds[key] = kinds.get(key, 0) + 1
        return kinds


def _absolute(code: int, seat: int, n: int) -> int:
    hi = code >> 21
    if not hi:
        return code
    t = (hi & 15) - 1
    s = ((hi >> 4) & 15) - 1
    if t >= 0:
        t = (t + seat) % n
    if s >= 0:
        s = (s + seat) % n
    return (code & _LOW) | ((t + 1) << 21) | ((s + 1) << 25)


@lru_cache(maxsize=64)
def _cached(variant: str, players: int, options: Options) -> ActionTable:
    return ActionTable(variant, players, options)


def action_table(
    variant: str | Variant,
    players: int,
    options: Options | dict[str, Any] | None = None,
) -> ActionTable:
    """The (cached) action table of ``variant`` for ``players`` under ``options``."""
    opts = options if isinstance(options, Options) else Options.from_dict(options)
    return _cached(get_variant(variant).name, players, opts)
