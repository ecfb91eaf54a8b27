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
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from unokit.engine.actions import Action, ChooseColor, Play
from unokit.engine.cards import Card, Face, Kind
from unokit.engine.game import Game
from unokit.engine.observation import Observation
from unokit.engine.options import Options
from unokit.engine.variants import Variant, get_variant

from .actions import ActionTable, card_universe

__all__ = [
    "ObservationEncoder",
    "FeatureLayout",
    "CompactLayout",
    "FavouriteLayout",
    "Layout",
    "PHASES",
    "OBS_LAYOUTS",
    "DEFAULT_OBS_LAYOUT",
    "check_obs_layout",
    "make_layout",
    "ActionEffects",
    "action_effects",
]

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


# ---------------------------------------------------------------------- layout 2

#: The observation layouts of the environments (``obs_layout=``): 1 is the raw
#: vector of :class:`ObservationEncoder`, 2 is :class:`FeatureLayout`, 3 is
#: :class:`ActionLayout` (layout 2 followed by what each legal action would
#: leave), 4 is :class:`CompactLayout` (layout 2 without the card-by-card top
#: and discard pile), 5 is :class:`FavouriteLayout` (layout 4 and the colour
#: held most, one-hot).
OBS_LAYOUTS = (1, 2, 3, 4, 5)
DEFAULT_OBS_LAYOUT = 5

_ACTION_KINDS = frozenset(
    {
        Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.DRAW_ONE, Kind.DRAW_FIVE, Kind.FLIP,
        Kind.SKIP_EVERYONE, Kind.FLEX_SKIP, Kind.FLEX_REVERSE, Kind.FLEX_DRAW_TWO,
    }
)  # fmt: skip
_SIZES = 10  # hand-size buckets: 1..9, 10 or more


def check_obs_layout(layout: object) -> int:
    """``layout`` if it is one of :data:`OBS_LAYOUTS`, else an :class:`OptionError`."""
    from unokit.engine.errors import OptionError

    if isinstance(layout, bool) or not isinstance(layout, int) or layout not in OBS_LAYOUTS:
        raise OptionError(
            f"obs_layout must be one of {', '.join(map(str, OBS_LAYOUTS))}, not {layout!r}"
        )
    return layout


def make_layout(encoder: ObservationEncoder, table: Any, obs_layout: object) -> Layout | None:
    """The :class:`FeatureLayout` of layout 2, the :class:`ActionLayout` of
    layout 3, the :class:`CompactLayout` of layout 4, the
    :class:`FavouriteLayout` of layout 5, or None for layout 1
    (the encoder's raw vector); an :class:`OptionError` for any other value."""
    layout = check_obs_layout(obs_layout)
    if layout == 1:
        return None
    if layout == 4:
        return CompactLayout(encoder, table)
    if layout == 5:
        return FavouriteLayout(encoder, table)
    return FeatureLayout(encoder, table) if layout == 2 else ActionLayout(encoder, table)


class FeatureLayout:
    """Observation layout 2: every value in 0..1, what a UNO player counts made explicit.

    The layout-1 vector of :class:`ObservationEncoder` divided by its upper
    bound (same segments, same offsets), followed by features computed from
    it and the action mask alone (no hidden information; the recipes'
    ``examples/uno_features.py`` state features, moved into the environment):

    =====================  ========  ============================================================
    segment                length    value (clipped to 0..1)
    =====================  ========  ============================================================
    *layout 1, scaled*     as there  each value / its upper bound
    ``hand_colors``        4         cards of each colour in hand (side up), / 10
    ``hand_kinds``         3         wilds / 4, action cards / 10, the hand's points / 100
    ``in_color``           1         cards of the colour in force in hand, / 10
    ``size_onehot``        10 n      per seat (observer first): hand size 1..9, 10 or more
    ``legal``              10        legal plays / 10; any play legal; legal plays of each
                                     colour / 5; legal wild plays / 4; legal action plays / 5;
                                     DRAW legal; UNO legal
    ``unseen_colors``      4         cards of each colour neither in hand nor discarded, / 25
    ``opp_colors``         4         Flip only: the next opponent's expected cards of each
                                     colour on the side up (from its visible backs), / 10
    ``opp_kinds``          3         Flip only: its wilds / 4, action cards / 10, points / 100
    ``opp_other_colors``   4         Flip only: the same on the side down (its backs: exact)
    ``opp_other_kinds``    3         Flip only: the same on the side down
    ``my_other_colors``    4         Flip only: my hand's colours on the side down, / 10
    ``my_other_kinds``     3         Flip only: my wilds / action cards / points there
    =====================  ========  ============================================================

    Colours are folded modulo 4 (Flip's dark colours on the light ones). A
    seat that is not to act has an all-zero mask, so its ``legal`` segment is
    zero. :meth:`__call__` takes one vector or a batch (rows).

    >>> from unokit import Game
    >>> from unokit.envs.actions import action_table
    >>> enc = ObservationEncoder("classic", 2)
    >>> lay = FeatureLayout(enc, action_table("classic", 2))
    >>> g = Game.new("classic", 2, seed=3, events=False)
    >>> x = lay(enc.encode_game(g, 1), action_table("classic", 2).mask([0]))
    >>> x.shape == (lay.size,), float(x.max()) <= 1.0, float(x[lay.slice("size_onehot")][6])
    (True, True, 1.0)
    """

    version = 2

    def __init__(self, encoder: ObservationEncoder, table: Any) -> None:
        enc = encoder
        v = enc.variant
        n = enc.players
        self.encoder = enc
        self.players = n
        self.table = table
        self.two_sided = bool(v.two_sided)
        sides = (0, 1) if v.two_sided else (0,)
        u = len(enc.cards)
        self._inv_high = np.divide(
            1.0, enc.high, out=np.zeros_like(enc.high), where=enc.high > 0
        ).astype(np.float32)
        self._color = np.zeros((len(sides), u, 4), np.float32)
        self._kinds = np.zeros((len(sides), u, 3), np.float32)
        for s in sides:
            for i, cid in enumerate(enc.cards):
                face = v.cards.cards[cid].face(s)
                if face.color is not None:
                    self._color[s, i, int(face.color) % 4] = 1.0
                self._kinds[s, i] = (
                    face.is_wild / 4,
                    (face.kind in _ACTION_KINDS) / 10,
                    face.points / 100,
                )
        deck = np.zeros(u, np.float32)
        at = {c: i for i, c in enumerate(enc.cards)}
        for c in v.deck(enc.options, 0):
            deck[at[c]] += 1
        self._deck = deck
        plays = table.num_plays
        self._plays = plays
        self._play_feats = np.zeros((len(sides), plays, 6), np.float32)
        for s in sides:
            for a in range(plays):
                face = v.cards.cards[(table.codes[a] >> 4) & 0xFFF].face(s)
                row = self._play_feats[s, a]
                if face.color is not None:
                    row[int(face.color) % 4] = 1 / 5
                row[4] = face.is_wild / 4
                row[5] = (face.kind in _ACTION_KINDS) / 5
        self._draw = table.index_of("DRAW")
        self._uno = table.index_of("UNO")
        self._hand = enc.slice("hand")
        self._discard = enc.slice("discard")
        self._colour = enc.slice("color")
        self._sizes = enc.slice("hand_sizes")
        self._side = enc.segments["side"][0] if v.two_sided else -1
        names = [
            ("hand_colors", 4), ("hand_kinds", 3), ("in_color", 1), ("size_onehot", _SIZES * n),
            ("legal", 10), ("unseen_colors", 4),
        ]  # fmt: skip
        if v.two_sided:
            nf = len(enc.faces)
            face_at = {f: i for i, f in enumerate(enc.faces)}
            self._backs_of = np.zeros((2, nf, u), np.float32)
            for t in (0, 1):
                for j, cid in enumerate(enc.cards):
                    self._backs_of[t, face_at[v.cards.cards[cid].face(t)], j] = 1.0
            start = enc.segments["backs"][0]  # the next opponent's backs come first
            self._next_backs = slice(start, start + nf)
            names += [
                ("opp_colors", 4), ("opp_kinds", 3), ("opp_other_colors", 4),
                ("opp_other_kinds", 3), ("my_other_colors", 4), ("my_other_kinds", 3),
            ]  # fmt: skip
        self.segments: dict[str, tuple[int, int]] = dict(enc.segments)
        off = enc.size
        for name, length in names:
            self.segments[name] = (off, length)
            off += length
        self.size = off
        self.high: Vector = np.ones(self.size, dtype=np.float32)
        self._fuse(enc, table, sides)

    def _fuse(self, enc: ObservationEncoder, table: Any, sides: tuple[int, ...]) -> None:
        """Every feature linear in the vector and the mask as one affine map
        per side up (``x[:, rows] @ wx[s] + m @ wm[s] + bias[s]`` into the
        feature columns): a single vector costs two small matrix products
        instead of dozens of NumPy calls. Layout 1's own columns are the
        vector scaled element by element, and the features read only the
        hand and the discard pile, so the matrices hold only those rows and
        the feature columns (a dense map of the whole vector grew with the
        square of the players: 0.13 s a step in 5-player Flip with 20 cards)."""
        size1, size, a = enc.size, self.size, table.size
        ns = len(sides)
        nf = size - size1
        hand = np.arange(size1)[self._hand]
        disc = np.arange(size1)[self._discard]
        rows = np.concatenate([hand, disc])
        hand_r = np.arange(len(hand))
        disc_r = np.arange(len(hand), len(rows))
        wx = np.zeros((ns, len(rows), nf), np.float32)
        wm = np.zeros((ns, a, nf), np.float32)
        bias = np.zeros((ns, nf), np.float32)
        seg = {k: (off - size1, n) for k, (off, n) in self.segments.items() if off >= size1}
        for s in sides:
            at = seg["hand_colors"][0]
            wx[s, hand_r, at : at + 4] = self._color[s] / 10
            at = seg["hand_kinds"][0]
            wx[s, hand_r, at : at + 3] = self._kinds[s]
            at = seg["legal"][0]
            wm[s, : self._plays, at] = 0.1
            wm[s, : self._plays, at + 2 : at + 8] = self._play_feats[s]
            wm[s, self._draw, at + 8] = 1.0
            wm[s, self._uno, at + 9] = 1.0
            at = seg["unseen_colors"][0]
            wx[s, hand_r, at : at + 4] -= self._color[s] / 25
            wx[s, disc_r, at : at + 4] -= self._color[s] / 25
            bias[s, at : at + 4] = self._deck @ self._color[s] / 25
            if self.two_sided:
                other = 1 - s
                at = seg["my_other_colors"][0]
                wx[s, hand_r, at : at + 4] = self._color[other] / 10
                at = seg["my_other_kinds"][0]
                wx[s, hand_r, at : at + 3] = self._kinds[other]
        self._rows, self._wx, self._wm, self._bias = rows, wx, wm, bias
        self._fused = (size1, size)  # a subclass may add columns after these

    def slice(self, name: str) -> slice:
        """The slice of segment ``name`` (layout 1's names included)."""
        off, length = self.segments[name]
        return slice(off, off + length)

    def describe(self) -> list[tuple[str, int, int]]:
        """``(segment, offset, length)`` rows, in order."""
        return [(name, off, length) for name, (off, length) in self.segments.items()]

    def _per_side(self, x: Vector, side: npt.NDArray[np.int64], tables: Vector) -> Vector:
        """``x @ tables[side]`` row by row (``tables``: one matrix per side)."""
        out: Vector = x @ tables[0]
        if len(tables) > 1 and side.any():
            rows = side == 1
            out[rows] = x[rows] @ tables[1]
        return out

    def __call__(self, raw: npt.ArrayLike, mask: npt.ArrayLike) -> Vector:
        """Layout 2 of layout-1 vector(s) ``raw`` and action mask(s) ``mask``."""
        x = np.asarray(raw, dtype=np.float32)
        single = x.ndim == 1
        x = np.atleast_2d(x)
        m = np.atleast_2d(np.asarray(mask)).astype(np.float32)
        B = x.shape[0]
        seg = self.segments
        size1, size = self._fused
        out: Vector = np.empty((B, size), np.float32)
        np.multiply(x, self._inv_high, out=out[:, :size1])
        xr = x[:, self._rows]
        out[:, size1:] = xr @ self._wx[0] + m @ self._wm[0] + self._bias[0]
        side = np.zeros(B, np.int64)
        if self.two_sided:
            side = (x[:, self._side] > 0.5).astype(np.int64)
            rows = side == 1
            if rows.any():
                out[rows, size1:] = xr[rows] @ self._wx[1] + m[rows] @ self._wm[1] + self._bias[1]
        # the features that are not linear in the vector and the mask
        at = seg["hand_colors"][0]
        current = x[:, self._colour].reshape(B, -1, 4).sum(axis=1)
        out[:, seg["in_color"][0]] = (out[:, at : at + 4] * current).sum(axis=1)
        at, length = seg["size_onehot"]
        sizes = np.minimum(x[:, self._sizes], _SIZES)
        hot = sizes[:, :, None] == np.arange(1, _SIZES + 1, dtype=np.float32)
        out[:, at : at + length] = hot.reshape(B, -1)
        at = seg["legal"][0]
        out[:, at + 1] = out[:, at] > 0
        if self.two_sided:
            hand = x[:, self._hand]
            unseen = self._deck - hand - x[:, self._discard]
            opp = self._opponent_cards(x, side, hand, unseen)
            other = 1 - side
            for name, sides, tables, scale in (
                ("opp_colors", side, self._color, 10.0),
                ("opp_kinds", side, self._kinds, 1.0),
                ("opp_other_colors", other, self._color, 10.0),
                ("opp_other_kinds", other, self._kinds, 1.0),
            ):
                at, length = seg[name]
                out[:, at : at + length] = self._per_side(opp, sides, tables) / scale
        np.clip(out, 0.0, 1.0, out=out)
        return out[0] if single else out

    def _opponent_cards(
        self, x: Vector, side: npt.NDArray[np.int64], hand: Vector, unseen: Vector
    ) -> Vector:
        """Flip: the next opponent's hand as expected copies of each card, from
        its back faces (seen exactly) and, for the face up, the cards with that
        back neither in my hand nor discarded, in proportion."""
        backs = x[:, self._next_backs]
        left = np.maximum(unseen, 0.0) + 1e-6
        out = np.zeros_like(hand)
        for s in (0, 1):
            rows = side == s
            if not rows.any():
                continue
            of = self._backs_of[1 - s]  # the backs are the faces of the side down
            denom = left[rows] @ of.T
            share = np.divide(backs[rows], denom, out=np.zeros_like(denom), where=denom > 0)
            out[rows] = (share @ of) * left[rows]
        return out


# ---------------------------------------------------------------------- layout 3

#: Per action of layout 3, in this order (see :class:`ActionLayout`).
ACTION_FEATURES = ("color_left", "can_follow", "unseen_color", "most_color", "keeps_color",
                   "copies")  # fmt: skip
#: Flip only, per action, after :data:`ACTION_FEATURES`.
FLIP_ACTION_FEATURES = ("opp_follow", "opp_in_color", "my_other_most", "my_other_wilds",
                        "my_other_actions", "opp_other_most", "opp_other_wilds",
                        "opp_other_actions", "other_points")  # fmt: skip


class ActionEffects(NamedTuple):
    """What each action of an :class:`~unokit.envs.actions.ActionTable` does
    to the colour in force and which cards could follow it, per side (light;
    and dark in Flip): the tables behind layout 3's per-action features (and
    the recipes' ``UnoFeatures.actions``, examples/uno_features.py). Made by
    :func:`action_effects`; ``n`` actions, ``u`` cards in the universe."""

    actions: tuple[Action, ...]  # the table's actions, as P0 takes them
    card_of: npt.NDArray[np.int64]  # (n,) where the card played is in the universe; -1
    kind: npt.NDArray[np.int64]  # (sides, n) the kind of the face played; -1
    result: Vector  # (sides, n, 4) the colour (mod 4) in force after the action
    own: Vector  # (sides, n) 1 when the card played is of that colour itself
    compat: Vector  # (sides, n, u) the cards that could follow it
    self_compat: Vector  # (sides, n) whether the card played could follow itself


def action_effects(table: ActionTable, universe: Sequence[int]) -> ActionEffects:
    """The :class:`ActionEffects` of ``table``'s actions; ``universe``: the
    card ids in the order of the observation's card segments. The move codes
    are read by the engine's decoder (:meth:`unokit.Game.decode`)."""
    v = table.variant
    sides = (0, 1) if v.two_sided else (0,)
    n, u = table.size, len(universe)
    at = {c: i for i, c in enumerate(universe)}
    decoder = Game(v, table.players, table.options, events=False)
    actions = tuple(decoder.decode(0, code) for code in table.codes)
    card_of = np.full(n, -1, np.int64)
    kind = np.full((len(sides), n), -1, np.int64)
    result = np.zeros((len(sides), n, 4), np.float32)
    own = np.zeros((len(sides), n), np.float32)
    compat = np.zeros((len(sides), n, u), np.float32)
    self_compat = np.zeros((len(sides), n), np.float32)
    for s in sides:
        faces = [v.cards.cards[cid].face(s) for cid in universe]
        for a, action in enumerate(actions):
            if isinstance(action, ChooseColor):
                c = int(action.color) % 4
                result[s, a, c] = 1.0
                compat[s, a] = [
                    f.is_wild or (f.color is not None and int(f.color) % 4 == c) for f in faces
                ]
            if not isinstance(action, Play):
                continue
            cid = v.cards.index[action.card]
            face = action.card.face(s)
            card_of[a] = at[cid]
            kind[s, a] = int(face.kind)
            if face.is_wild:
                c = int(action.color) % 4 if action.color is not None else -1
            elif action.flex and face.flex_color is not None:
                c = int(face.flex_color) % 4
            else:
                c = int(face.color) % 4 if face.color is not None else -1
            if c < 0:
                continue
            result[s, a, c] = 1.0
            own[s, a] = float(face.color is not None and int(face.color) % 4 == c)
            for j, f in enumerate(faces):
                same_color = f.color is not None and int(f.color) % 4 == c
                same_symbol = (
                    not face.is_wild
                    and f.kind == face.kind
                    and (face.kind != Kind.NUMBER or f.number == face.number)
                )
                compat[s, a, j] = float(f.is_wild or same_color or same_symbol)
            self_compat[s, a] = compat[s, a, at[cid]]
    return ActionEffects(actions, card_of, kind, result, own, compat, self_compat)


class ActionLayout(FeatureLayout):
    """Observation layout 3: layout 2 followed by what each **legal** action
    would leave, ``k`` values per action of the table (0 for an action that
    is not legal), all in 0..1:

    ==================  ==========================================================
    per action          value (clipped to 0..1)
    ==================  ==========================================================
    ``color_left``      cards of the colour it puts in force still in hand, / 10
    ``can_follow``      cards of the hand that could follow it (wild, same
                        colour or same symbol), the card played apart, / 10
    ``unseen_color``    cards of that colour neither in hand nor discarded, / 25
    ``most_color``      1 when that colour is the one held most
    ``keeps_color``     1 when that colour is the one already in force
    ``copies``          copies of the card played in hand, / 4
    ``opp_follow``      Flip only: the next opponent's expected cards (from its
                        backs) that could follow it, / 10
    ``opp_in_color``    Flip only: its expected cards of the colour left, / 10
    ``my_other_*``      Flip only, a Flip card: my hand on the other side without
                        it: most of one colour / 10, wilds / 4, action cards / 10
    ``opp_other_*``     Flip only, a Flip card: the opponent's hand there, the same
    ``other_points``    Flip only, a Flip card: 0.5 + (my points there - its) / 400
    ==================  ==========================================================

    The segment ``actions`` holds them action by action (``k`` = 6, Flip 15).
    ``MultiInputPolicy`` gives one output per action: with these it reads
    "this play keeps my longest colour" off the action's own inputs instead of
    learning it from the hand for every card. Computed from the layout-1
    vector and the mask alone, like layout 2 (the recipes'
    ``UnoFeatures.actions``, moved into the environment).
    """

    version = 3

    def __init__(self, encoder: ObservationEncoder, table: Any) -> None:
        super().__init__(encoder, table)
        v = encoder.variant
        n, u = table.size, len(encoder.cards)
        effects = action_effects(table, encoder.cards)
        self._result, self._own = effects.result, effects.own
        self._compat, self._self_compat = effects.compat, effects.self_compat
        card_of = effects.card_of
        is_flip = effects.kind == int(Kind.FLIP)
        self._card_of = card_of
        self._held = np.zeros((u, n), np.float32)  # hand @ _held: copies of the card played
        for a, j in enumerate(card_of):
            if j >= 0:
                self._held[j, a] = 0.25
        self._flip_rows = [np.flatnonzero(row) for row in is_flip]
        self.per_action = len(ACTION_FEATURES) + (len(FLIP_ACTION_FEATURES) if v.two_sided else 0)
        start = self.size
        self.segments["actions"] = (start, n * self.per_action)
        self.size = start + n * self.per_action
        self.high = np.ones(self.size, dtype=np.float32)

    def __call__(self, raw: npt.ArrayLike, mask: npt.ArrayLike) -> Vector:
        """Layout 3 of layout-1 vector(s) ``raw`` and action mask(s) ``mask``."""
        x = np.atleast_2d(np.asarray(raw, dtype=np.float32))
        single = np.asarray(raw).ndim == 1
        m = np.atleast_2d(np.asarray(mask)).astype(np.float32)
        state = np.atleast_2d(super().__call__(x, m))
        B = x.shape[0]
        n = self.table.size
        acts = np.zeros((B, n, self.per_action), np.float32)
        side = (
            (x[:, self._side] > 0.5).astype(np.int64) if self.two_sided else np.zeros(B, np.int64)
        )
        hand = x[:, self._hand]
        unseen_cards = self._deck - hand - x[:, self._discard]
        current = x[:, self._colour].reshape(B, -1, 4).sum(axis=1)
        opp = self._opponent_cards(x, side, hand, unseen_cards) if self.two_sided else None
        for s in range(len(self._result)):
            rows = np.flatnonzero(side == s)
            if not rows.size:
                continue
            h = hand[rows]
            color_of = self._color[s]
            hand_colors = h @ color_of
            unseen = unseen_cards[rows] @ color_of
            result = self._result[s]
            most = (hand_colors >= hand_colors.max(axis=1, keepdims=True)).astype(np.float32)
            block = acts[rows]
            block[:, :, 0] = (hand_colors @ result.T - self._own[s]) / 10
            block[:, :, 1] = (h @ self._compat[s].T - self._self_compat[s]) / 10
            block[:, :, 2] = unseen @ result.T / 25
            block[:, :, 3] = most @ result.T
            block[:, :, 4] = current[rows] @ result.T
            block[:, :, 5] = h @ self._held
            if opp is not None:
                o = opp[rows]
                block[:, :, 6] = o @ self._compat[s].T / 10
                block[:, :, 7] = (o @ color_of) @ result.T / 10
                idx = self._flip_rows[s]
                if idx.size:
                    other = 1 - s
                    col, kin = self._color[other], self._kinds[other]
                    cards = self._card_of[idx]
                    mine_colors = (h @ col)[:, None, :] - col[cards][None]
                    mine_kinds = (h @ kin)[:, None, :] - kin[cards][None]
                    opp_kinds = o @ kin  # (r, 3)
                    fb = np.zeros((rows.size, idx.size, 9), np.float32)
                    fb[:, :, 2] = mine_colors.max(axis=2) / 10
                    fb[:, :, 3:5] = mine_kinds[:, :, :2]
                    fb[:, :, 5] = ((o @ col).max(axis=1) / 10)[:, None]
                    fb[:, :, 6:8] = opp_kinds[:, None, :2]
                    fb[:, :, 8] = 0.5 + (mine_kinds[:, :, 2] - opp_kinds[:, None, 2]) / 4
                    block[:, idx, 6:] = fb
            acts[rows] = block
        acts *= m[:, :, None]
        np.clip(acts, 0.0, 1.0, out=acts)
        out = np.concatenate([state, acts.reshape(B, -1)], axis=1)
        return out[0] if single else out


# ---------------------------------------------------------------------- layout 4

#: The layout-1 segments that layout 4 leaves out (one value per card of the
#: universe each: what the mask, ``color`` and ``unseen_colors`` summarise).
COMPACT_DROPPED = ("top", "discard")


class CompactLayout:
    """Observation layout 4: layout 2 without the segments ``top`` and
    ``discard`` (:data:`COMPACT_DROPPED`), every other segment in layout 2's
    order, all values in 0..1.

    Those two segments are one value per card of the universe each (108 of
    the 223 values of 2-player Classic, 222 of Flip's 758): the top card
    one-hot and the discard pile card by card. What a player uses from them
    is already in the layout: the colour in force (``color``), the legal
    plays (the action mask and ``legal``) and the cards of each colour still
    unseen (``unseen_colors``). Left in, they are half the inputs of a small
    network, read through random first-layer weights, and ``MultiInputPolicy``
    with SB3's defaults learns more slowly from them (docs/rl.md, issue 28).
    What is lost: the top card's symbol beyond what the mask shows, and which
    cards exactly have been played (layout 2 keeps both).

    >>> from unokit import Game
    >>> from unokit.envs.actions import action_table
    >>> enc = ObservationEncoder("classic", 2)
    >>> lay = CompactLayout(enc, action_table("classic", 2))
    >>> lay.size, "top" in lay.segments, lay.slice("hand_colors")
    (115, False, slice(73, 77, None))
    """

    version = 4

    def __init__(self, encoder: ObservationEncoder, table: Any) -> None:
        self.full = FeatureLayout(encoder, table)
        self.encoder = encoder
        self.players = self.full.players
        self.table = table
        self.two_sided = self.full.two_sided
        keep: list[int] = []
        self.segments: dict[str, tuple[int, int]] = {}
        for name, off, length in self.full.describe():
            if name in COMPACT_DROPPED:
                continue
            self.segments[name] = (len(keep), length)
            keep.extend(range(off, off + length))
        self._keep = np.asarray(keep, dtype=np.int64)
        self.size = len(keep)
        self.high: Vector = np.ones(self.size, dtype=np.float32)

    def slice(self, name: str) -> slice:
        """The slice of segment ``name``."""
        off, length = self.segments[name]
        return slice(off, off + length)

    def describe(self) -> list[tuple[str, int, int]]:
        """``(segment, offset, length)`` rows, in order."""
        return [(name, off, length) for name, (off, length) in self.segments.items()]

    def __call__(self, raw: npt.ArrayLike, mask: npt.ArrayLike) -> Vector:
        """Layout 4 of layout-1 vector(s) ``raw`` and action mask(s) ``mask``."""
        out: Vector = self.full(raw, mask)[..., self._keep]
        return out


class FavouriteLayout(CompactLayout):
    """Observation layout 5: layout 4 followed by one segment, ``favourite``:
    the colour held most, one-hot (4 values: the largest of ``hand_colors``,
    ties to the first colour, all 0 with no coloured card in hand).

    "Play the colour held most" is the first rule of every UNO player, and a
    wild names that colour; with layout 4 a small network must compare the
    four ``hand_colors`` values itself, for each of the card actions. Against
    ``random``, MaskablePPO with SB3's defaults learnt better card choices from
    this one-hot than from layout 4 (docs/rl.md, issue 28).

    >>> from unokit.envs.actions import action_table
    >>> enc = ObservationEncoder("classic", 2)
    >>> lay = FavouriteLayout(enc, action_table("classic", 2))
    >>> lay.size, lay.slice("favourite")
    (119, slice(115, 119, None))
    """

    version = 5

    def __init__(self, encoder: ObservationEncoder, table: Any) -> None:
        super().__init__(encoder, table)
        self._held = self.slice("hand_colors")
        self.segments["favourite"] = (self.size, 4)
        self.size += 4
        self.high = np.ones(self.size, dtype=np.float32)

    def __call__(self, raw: npt.ArrayLike, mask: npt.ArrayLike) -> Vector:
        """Layout 5 of layout-1 vector(s) ``raw`` and action mask(s) ``mask``."""
        base = super().__call__(raw, mask)
        held = base[..., self._held]
        fav = np.zeros((*base.shape[:-1], 4), dtype=np.float32)
        some = (held.max(axis=-1, keepdims=True) > 0).astype(np.float32)
        np.put_along_axis(fav, np.argmax(held, axis=-1)[..., None], some, axis=-1)
        out: Vector = np.concatenate([base, fav], axis=-1)
        return out


#: What :func:`make_layout` returns for layouts 2 to 5.
Layout = FeatureLayout | CompactLayout
