"""The observation vector of the UNO environments: what one seat may know.

:meth:`ObservationEncoder.encode` defines the vector from an
:class:`unokit.engine.observation.Observation` (the engine's censored view of one
seat) and from nothing else. The environments use
:meth:`ObservationEncoder.encode_game`, a fast path that reads the same public
fields straight from the game (the seat's own hand, hand sizes, piles' public
faces, colour, side, direction, UNO states, Power Cards, scores, and in Flip
the visible backs); the test suite proves both give the same vector on every
step of random games of every variant, and that the vector does not change
when hidden information (other hands, the draw order) is reshuffled.

Seats are written **relative to the observer**: slot ``k`` describes seat
``(seat + k) mod players`` (slot 0 is the observer). Layout, in order
(``U`` = size of the card universe of :mod:`unokit.envs.actions`, ``n`` =
players, ``F`` = 108 Flip faces, light then dark):

=================  ==========  ==============================================
segment            length      value
=================  ==========  ==============================================
``hand``           U           copies of each card in the observer's hand
``top``            U           one-hot: the top card of the discard pile
``discard``        U           copies of each card in the discard pile
``color``          4 (Flip 8)  one-hot: the current colour (none while one is chosen)
``phase``          4           one-hot: AWAIT_TURN, AWAIT_DRAWN, AWAIT_COLOR, AWAIT_CHALLENGE
``uno``            2n          UNO state per seat: n "safe" flags then n "vulnerable" flags
``hand_sizes``     n           cards held per seat
``direction``      1           1 when play runs counter-clockwise
``draw_size``      1           cards in the draw pile
``pending_draw``   1           stacked draw penalty waiting (stacking house rule)
``scores``         n           match scores per seat
``side``           1           Flip only: 1 when the dark side is up
``backs``          (n-1) F     Flip only: visible back faces of each opponent's hand
``draw_top_back``  F           Flip only: one-hot, the visible back of the draw pile's top
``powers``         n           Flex only: 1 when the seat's Power Card is green
=================  ==========  ==============================================

Not encoded: the round's history, a hand revealed by a challenge, the dealer,
the identity of a card just drawn (the action mask shows it: only it can be
played) and why a colour is awaited.

>>> from unokit import Game
>>> enc = ObservationEncoder("classic", 2)
>>> g = Game.new("classic", 2, seed=3, events=False)
>>> v = enc.encode(g.observe(1))
>>> v.shape, v.dtype, int(v[enc.slice("hand")].sum())
((181,), dtype('float32'), 7)
>>> bool((v == enc.encode_game(g, 1)).all())
True
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from unokit.engine.cards import Card, Face
from unokit.engine.observation import Observation
from unokit.engine.options import Options
from unokit.engine.variants import Variant, get_variant

from .actions import card_universe

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = ["ObservationEncoder", "PHASES"]

#: The decision phases encoded in the ``phase`` segment (engine Phase values 0..3).
PHASES = ("AWAIT_TURN", "AWAIT_DRAWN", "AWAIT_COLOR", "AWAIT_CHALLENGE")
_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
_UNO_INDEX = {"safe": 0, "vulnerable": 1}

Vector = npt.NDArray[np.float32]


def flip_faces(variant: Variant) -> tuple[Face, ...]:
    """The faces of a two-sided variant: light faces then dark faces, in card order."""
    cards = variant.cards.cards
    light = dict.fromkeys(c.light for c in cards)
    dark = dict.fromkeys(c.dark for c in cards if c.dark is not None)
    return tuple(light) + tuple(dark)


class ObservationEncoder:
    """Encodes one seat's view as a fixed-length ``float32`` vector."""

    def __init__(
        self,
        variant: str | Variant,
        players: int,
        options: Options | dict[str, Any] | None = None,
    ) -> None:
        v = get_variant(variant)
        opts = options if isinstance(options, Options) else Options.from_dict(options)
        n = players
        self.variant = v
        self.players = n
        self.options = opts
        self.cards = card_universe(v, opts)
        u = len(self.cards)
        cards = v.deck(opts, 0)
        deck = float(len(cards))
        sides = (0, 1) if v.two_sided else (0,)
        # bounds: every draw card of the deck stacked; every point of the deck
        # added to a score just under the target
        most_draw = float(sum(max(v.draw_amount[s][c] for s in sides) for c in cards))
        most_points = float(
            opts.targetScore + sum(max(v.points[s][c] for s in sides) for c in cards)
        )
        self.faces: tuple[Face, ...] = flip_faces(v) if v.two_sided else ()
        nf = len(self.faces)
        # copies of each card of the universe in the deck: the most a hand or
        # the discard pile can hold (a randomly paired Flip deck differs by seed)
        per_card: list[float] | float = deck
        if not (v.two_sided and opts.flipPairing == "random_seeded"):
            at = {c: i for i, c in enumerate(self.cards)}
            copies = [0.0] * u
            for c in cards:
                copies[at[c]] += 1.0
            per_card = copies
        segs: list[tuple[str, int, float | list[float]]] = [
            ("hand", u, per_card),
            ("top", u, 1.0),
            ("discard", u, per_card),
            ("color", 8 if v.two_sided else 4, 1.0),
            ("phase", len(PHASES), 1.0),
            ("uno", 2 * n, 1.0),
            ("hand_sizes", n, deck),
            ("direction", 1, 1.0),
            ("draw_size", 1, deck),
            ("pending_draw", 1, most_draw),
            ("scores", n, most_points),
        ]
        if v.two_sided:
            segs += [("side", 1, 1.0), ("backs", (n - 1) * nf, deck), ("draw_top_back", nf, 1.0)]
        if v.flex:
            segs.append(("powers", n, 1.0))
        self.segments: dict[str, tuple[int, int]] = {}
        high: list[float] = []
        off = 0
        for name, length, hi in segs:
            self.segments[name] = (off, length)
            high += hi if isinstance(hi, list) else [hi] * length
            off += length
        self.size = off
        self.high: Vector = np.array(high, dtype=np.float32)
        # lookups of the reference path (Card / Face objects)
        self._card_index: dict[Card, int] = {v.cards.cards[c]: i for i, c in enumerate(self.cards)}
        self._face_index: dict[Face, int] = {f: i for i, f in enumerate(self.faces)}
        # lookups of the fast path (card ids), offsets folded in
        ncards = len(v.cards)
        uidx = [-1] * ncards
        for i, c in enumerate(self.cards):
            uidx[c] = i
        self._uidx = uidx
        h, t = self.segments["hand"][0], self.segments["top"][0]
        self._hand_at = [h + i if i >= 0 else -1 for i in uidx]
        self._top_at = [t + i if i >= 0 else -1 for i in uidx]
        self._order = tuple(tuple((s + k) % n for k in range(n)) for s in range(n))
        if v.two_sided:
            fidx = self._face_index
            # face index of the side a card shows when ``side`` is up, for its back
            self._back_at: tuple[list[int], list[int]] = (
                [fidx[c.face(1)] for c in v.cards.cards],
                [fidx[c.face(0)] for c in v.cards.cards],
            )
        seg = self.segments
        self._two_sided = v.two_sided
        self._flex = v.flex
        self._at_color = seg["color"][0]
        self._at_phase = seg["phase"][0]
        self._at_uno = seg["uno"][0]
        self._at_sizes = seg["hand_sizes"][0]
        self._at_scores = seg["scores"][0]
        self._at_backs = seg["backs"][0] if v.two_sided else -1
        self._at_draw_top_back = seg["draw_top_back"][0] if v.two_sided else -1
        self._at_side = seg["side"][0] if v.two_sided else -1
        self._at_powers = seg["powers"][0] if v.flex else -1
        self._at_discard = seg["discard"][0]
        self._zeros = array("f", bytes(4 * self.size))
        self._disc_zeros = array("f", bytes(4 * u))
        self._disc_list: list[int] | None = None
        self._disc_len = 0
        self._disc_last = -1
        self._disc_counts = self._disc_zeros[:]

    def slice(self, name: str) -> slice:
        """The slice of segment ``name`` in the vector."""
        off, length = self.segments[name]
        return slice(off, off + length)

    def describe(self) -> list[tuple[str, int, int]]:
        """``(segment, offset, length)`` rows, in order."""
        return [(name, off, length) for name, (off, length) in self.segments.items()]

    # ------------------------------------------------------------------ reference

    def encode(self, obs: Observation) -> Vector:
        """The vector of ``obs`` (a seat's :class:`~unokit.engine.observation.Observation`)."""
        if not isinstance(obs, Observation):
            raise TypeError(f"expected an Observation, got {type(obs).__name__}")
        if obs.variant != self.variant.name or obs.players != self.players:
            raise ValueError(
                f"this encoder is for {self.variant.name} with {self.players} players, "
                f"not {obs.variant} with {obs.players}"
            )
        if obs.seat is None:
            raise ValueError("a spectator's observation has no hand to encode")
        seg = self.segments
        out = np.zeros(self.size, dtype=np.float32)
        ci = self._card_index
        off = seg["hand"][0]
        for c in obs.hand:
            out[off + ci[c]] += 1
        if obs.top is not None:
            out[seg["top"][0] + ci[obs.top]] = 1
        off = seg["discard"][0]
        for c in obs.discard:
            out[off + ci[c]] += 1
        if obs.color is not None:
            out[seg["color"][0] + int(obs.color)] = 1
        if obs.phase in _PHASE_INDEX:
            out[seg["phase"][0] + _PHASE_INDEX[obs.phase]] = 1
        n = self.players
        order = self._order[obs.seat]
        for k, s in enumerate(order):
            state = obs.uno[s]
            if state in _UNO_INDEX:
                out[seg["uno"][0] + _UNO_INDEX[state] * n + k] = 1
            out[seg["hand_sizes"][0] + k] = obs.hand_sizes[s]
            out[seg["scores"][0] + k] = obs.scores[s]
        out[seg["direction"][0]] = 1 if obs.direction == -1 else 0
        out[seg["draw_size"][0]] = obs.draw_size
        out[seg["pending_draw"][0]] = obs.pending_draw
        if self.variant.two_sided:
            fi = self._face_index
            nf = len(self.faces)
            out[seg["side"][0]] = obs.side
            base = seg["backs"][0]
            for k, s in enumerate(order[1:]):
                for f in obs.backs[s]:
                    out[base + k * nf + fi[f]] += 1
            if obs.draw_top_back is not None:
                out[seg["draw_top_back"][0] + fi[obs.draw_top_back]] = 1
        if self.variant.flex:
            base = seg["powers"][0]
            for k, s in enumerate(order):
                out[base + k] = 1 if obs.powers[s] else 0
        return out

    # ------------------------------------------------------------------ fast path

    def encode_game(self, game: Game, seat: int) -> Vector:
        """The vector :meth:`encode` gives for ``game.observe(seat)``, read straight
        from the public fields of ``game`` and ``seat``'s own hand (fast)."""
        # a Python float array filled in place, then viewed by NumPy (no copy):
        # cheaper than NumPy calls on vectors this small
        out = self._zeros[:]
        n = self.players
        hands = game.hands
        hand_at = self._hand_at
        for c in hands[seat]:
            out[hand_at[c]] += 1.0
        disc = game.discard
        if disc:
            out[self._top_at[disc[-1]]] = 1.0
        if game.color >= 0:
            out[self._at_color + game.color] = 1.0
        ph = game.phase
        if ph < 4:
            out[self._at_phase + ph] = 1.0
        order = self._order[seat]
        uno = game.uno
        if any(uno):
            base = self._at_uno - n
            for k, s in enumerate(order):
                if uno[s]:
                    out[base + uno[s] * n + k] = 1.0
        if self._two_sided:
            nf = len(self.faces)
            back = self._back_at[game.side]
            for k in range(1, n):
                at = self._at_backs + (k - 1) * nf
                for c in hands[order[k]]:
                    out[at + back[c]] += 1.0
            if game.draw:
                out[self._at_draw_top_back + back[game.draw[-1]]] = 1.0
            if game.side:
                out[self._at_side] = 1.0
        if self._flex:
            powers = game.powers
            for k, s in enumerate(order):
                if powers[s]:
                    out[self._at_powers + k] = 1.0
        at = self._at_discard
        out[at : at + len(self.cards)] = self._discard_counts(disc)
        at = self._at_sizes
        for s in order:
            out[at] = len(hands[s])
            at += 1
        out[at] = 1.0 if game.direction == -1 else 0.0
        out[at + 1] = len(game.draw)
        out[at + 2] = game.pending
        scores = game.scores
        if any(scores):
            at = self._at_scores
            for s in order:
                out[at] = scores[s]
                at += 1
        return np.frombuffer(out, dtype=np.float32)

    def _discard_counts(self, disc: list[int]) -> array[float]:
        """Copies of each card in the discard pile, updated incrementally. The
        engine changes the pile only by appending a played card, by reversing it
        (a Flip card) or by replacing it with a new list (a reshuffle, a new
        round). So while it is the same list: one-sided variants just count the
        cards appended since; in Flip, where appended cards may have been turned
        to the bottom, an unchanged length means unchanged counts, and anything
        else is counted afresh."""
        known = self._disc_len
        if disc is self._disc_list and len(disc) >= known:
            if len(disc) == known:
                return self._disc_counts
            if not self._two_sided and disc[known - 1] == self._disc_last:
                counts = self._disc_counts
                uidx = self._uidx
                for c in disc[known:]:
                    counts[uidx[c]] += 1.0
                self._disc_len = len(disc)
                self._disc_last = disc[-1]
                return counts
        counts = self._disc_counts = self._disc_zeros[:]
        uidx = self._uidx
        for c in disc:
            counts[uidx[c]] += 1.0
        self._disc_list = disc
        self._disc_len = len(disc)
        self._disc_last = disc[-1] if disc else -1
        return counts
