"""Features for the RL recipes: what a UNO player looks at, computed from the
observation vector and the action mask only (issue 18).

The environments' observation (``unokit.envs.observation``) is complete but
raw: card counts per card, hand sizes as counts up to 108. A small network
learns faster when it is also given what every UNO player counts:

=====================  ====  ==========================================================
feature                size  value
=====================  ====  ==========================================================
``hand_colors``        4     cards of each colour in hand (of the side up), / 10
``hand_kinds``         3     wilds in hand / 4, action cards / 10, hand's points / 100
``in_color``           1     cards of the colour in force in hand, / 10
``my_size``            10    one-hot: my hand size 1, 2, ..., 9, 10 or more
``opp_sizes``          10k   the same for each opponent, clockwise (k = players - 1)
``legal``              10    legal plays / 10; a play is legal; legal plays of each
                             colour / 5; legal wild plays / 4; legal action plays / 5;
                             DRAW and UNO legal
``unseen_colors``      4     cards of each colour neither in hand nor discarded, / 25
``opp_colors``         4     Flip only: the next opponent's expected cards of each
                             colour on the side up (:meth:`opponent_cards`), / 10
``opp_kinds``          3     Flip only: its wilds / 4, action cards / 10, points / 100
``opp_other_colors``   4     Flip only: the same on the side down (its backs: exact)
``opp_other_kinds``    3     Flip only: the same on the side down
``my_other_colors``    4     Flip only: my hand's colours on the side down, / 10
``my_other_kinds``     3     Flip only: my wilds / action cards / points there
=====================  ====  ==========================================================

In Flip every player sees the back faces of the other hands (docs/rules.md
§1.14), which the observation holds (``backs``): the opponent's hand on the
side down exactly and, since the deck gives each back one of a few faces, on
the side up nearly so. The ``opp_*`` and ``my_other_*`` features read them;
Classic and Flex have none of them.

:meth:`UnoFeatures.actions` describes every action of the table the same
way, one row each (``action_size`` values): the kind of card played (one-hot),
its points and number, or which other decision it is (DRAW, PASS, COLOR,
ACCEPT, CHALLENGE, UNO, CATCH); and what it would leave: the cards of the
colour it puts in force still in hand, the cards of the hand that could
follow it (wild, same colour or same symbol), the unseen cards of that
colour, whether that is the colour held most or the colour already in force,
and the copies of the card held; in Flip (``action_at["flip"]`` on) also
the opponent's expected cards that could follow it and of the colour it
leaves, and for a Flip card both hands as they will be on the other side
(``_FLIP_ACTION``). A policy that scores each action from its
row with one shared network (``examples/sb3_maskable_ppo.py``) learns about
"a card that keeps my longest colour" once, not once per card.
:meth:`UnoFeatures.with_actions` gives both as one vector.

They are functions of the observation and mask (no hidden information, nothing
the policy could not compute itself), so a policy trained with them plays the
same environments; they only save the network from learning to count.
:func:`features` appends them to the observation divided by its Box's upper
bound (every raw feature in 0..1). They read observation layout 1 (the
environments' ``obs_layout=1``, which the recipes ask for); layout 2 already
holds the scaled vector and these state features
(``unokit.envs.observation.FeatureLayout``), not the per-action ones, and
layout 4 is layout 2 without the card-by-card top card and discard pile, and
layout 5, the environments' default, is layout 4 and the colour held most.

>>> import numpy as np
>>> from unokit.envs.gym import UnoGymEnv
>>> env = UnoGymEnv("classic", 2, obs_layout=1)
>>> f = UnoFeatures("classic", 2)
>>> obs, _ = env.reset(seed=1)
>>> x = f(obs["observation"], obs["action_mask"])
>>> x.shape == (f.size,), x.dtype == np.float32, float(x[f.at["my_size"] + 6])  # 7 cards
(True, True, 1.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from unokit.engine.actions import Play
from unokit.engine.cards import Kind
from unokit.engine.options import Options
from unokit.engine.variants import get_variant
from unokit.envs.actions import action_table
from unokit.envs.observation import ObservationEncoder, action_effects

__all__ = ["UnoFeatures"]

_ACTION_KINDS = {
    Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.DRAW_ONE, Kind.DRAW_FIVE, Kind.FLIP,
    Kind.SKIP_EVERYONE, Kind.FLEX_SKIP, Kind.FLEX_REVERSE, Kind.FLEX_DRAW_TWO,
}  # fmt: skip
_SIZES = 10  # hand-size buckets: 1..9, 10 or more
#: Flip only, per action (after the others): the opponent's cards that could
#: follow it and its cards of the colour it leaves (both expected, from the
#: backs; 0 for a Flip card); for a Flip card, the hands on the other side:
#: mine without it (most of one colour, wilds, action cards), the
#: opponent's (the same), and my points there minus the opponent's
_FLIP_ACTION = ("opp_follow", "opp_in_color", "my_other_most", "my_other_wilds",
                "my_other_actions", "opp_other_most", "opp_other_wilds", "opp_other_actions",
                "other_points_diff")  # fmt: skip

Vector = npt.NDArray[np.float32]


class UnoFeatures:
    """``features(observation, action_mask)``: the scaled observation followed by
    the engineered features of the module doc (float32, all about 0..1)."""

    def __init__(self, variant: str, players: int = 2, **options: Any) -> None:
        v = get_variant(variant)
        opts = Options.from_dict(options)
        enc = ObservationEncoder(v, players, opts)
        table = action_table(v, players, opts)
        self.encoder = enc
        self.players = players
        self.scale: Vector = (1.0 / enc.high).astype(np.float32)
        sides = (0, 1) if v.two_sided else (0,)
        u = len(enc.cards)
        # per side: colour one-hot (colour mod 4), wild, action, points of each universe card
        self._color = np.zeros((len(sides), u, 4), np.float32)
        self._kinds = np.zeros((len(sides), u, 3), np.float32)
        for s in sides:
            for i, cid in enumerate(enc.cards):
                face = v.cards.cards[cid].face(s)
                if face.color is not None:
                    self._color[s, i, int(face.color) % 4] = 1.0
                self._kinds[s, i] = (face.is_wild / 4, (face.kind in _ACTION_KINDS) / 10,
                                     face.points / 100)  # fmt: skip
        # every card of the deck, for the unseen counts
        deck = np.zeros(u, np.float32)
        at = {c: i for i, c in enumerate(enc.cards)}
        for c in v.deck(opts, 0):
            deck[at[c]] += 1
        self._deck = deck
        # the play actions: colour / wild / action of the card played, per side
        plays = table.num_plays
        self._plays = plays
        self._play_feats = np.zeros((len(sides), plays, 6), np.float32)
        for s in sides:
            for a in range(plays):
                code = table.codes[a]
                face = v.cards.cards[(code >> 4) & 0xFFF].face(s)
                row = self._play_feats[s, a]
                if face.color is not None:
                    row[int(face.color) % 4] = 1 / 5
                row[4] = face.is_wild / 4
                row[5] = (face.kind in _ACTION_KINDS) / 5
        self._draw = table.index_of("DRAW")
        self._uno = table.index_of("UNO")
        seg = enc.segments
        self._hand = enc.slice("hand")
        self._discard = enc.slice("discard")
        self._colour_seg = enc.slice("color")
        self._sizes = enc.slice("hand_sizes")
        self._side = seg["side"][0] if v.two_sided else -1
        self._init_actions(table, sides)
        names = [("hand_colors", 4), ("hand_kinds", 3), ("in_color", 1), ("my_size", _SIZES),
                 ("opp_sizes", _SIZES * (players - 1)), ("legal", 10), ("unseen_colors", 4)]  # fmt: skip
        self.two_sided = bool(v.two_sided)
        if self.two_sided:
            self._init_flip(v, enc, table)
            names += [("opp_colors", 4), ("opp_kinds", 3), ("opp_other_colors", 4),
                      ("opp_other_kinds", 3), ("my_other_colors", 4), ("my_other_kinds", 3)]  # fmt: skip
        self.at: dict[str, int] = {}
        off = enc.size
        for name, length in names:
            self.at[name] = off
            off += length
        self.size = off

    def _init_actions(self, table: Any, sides: tuple[int, ...]) -> None:
        """The tables behind :meth:`actions`: per side, what each action does
        to the colour in force and which cards of the universe could follow it."""
        n = table.size
        ns = len(sides)
        self.num_actions = n
        kinds = len(Kind)
        # static: kind one-hot (plays), points / 50, number / 9, flex side; then
        # the other decisions: DRAW PASS COLOR ACCEPT CHALLENGE UNO CATCH
        others = ("DRAW", "PASS", "COLOR", "ACCEPT", "CHALLENGE", "UNO", "CATCH")
        self._static = np.zeros((ns, n, kinds + 3 + len(others)), np.float32)
        # what each action leaves: the environment's tables (layout 3's)
        effects = action_effects(table, self.encoder.cards)
        self._result, self._own = effects.result, effects.own
        self._compat, self._self_compat = effects.compat, effects.self_compat
        self._card_of = effects.card_of
        for s in sides:
            for a, action in enumerate(effects.actions):
                row = self._static[s, a]
                if not isinstance(action, Play):
                    row[kinds + 3 + others.index(table.names[a].split()[0])] = 1.0
                    continue
                face = action.card.face(s)
                row[int(face.kind)] = 1.0
                row[kinds] = face.points / 50
                row[kinds + 1] = (face.number or 0) / 9
                row[kinds + 2] = float(action.flex)
        self.action_size = self._static.shape[2] + 6
        #: where the blocks of an action's row start: what it is, what it leaves
        #: and (Flip) what it does to the opponent / what a Flip card leads to
        self.action_at = {"dyn": self._static.shape[2], "flip": self.action_size}

    def _init_flip(self, v: Any, enc: ObservationEncoder, table: Any) -> None:
        """Flip: the tables that read the next opponent's hand off its visible
        back faces (public in Flip, docs/rules.md §1.14). The back face of each
        of its cards is seen exactly; the face it shows on the side up is one of
        the (one to four, mostly two) cards of the deck with that back, weighed
        by how many of them are neither in my hand nor discarded."""
        nf = len(enc.faces)
        face_at = {f: i for i, f in enumerate(enc.faces)}
        u = len(enc.cards)
        # _backs_of[t]: (faces, universe) 1 where the card shows that face on side t
        self._backs_of = np.zeros((2, nf, u), np.float32)
        for t in (0, 1):
            for j, cid in enumerate(enc.cards):
                self._backs_of[t, face_at[v.cards.cards[cid].face(t)], j] = 1.0
        self._backs = enc.slice("backs").start  # the next opponent's backs come first
        self._nf = nf
        # the play actions of a Flip card (per side) and the card they play
        self._flips: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
        for s in (0, 1):
            idx = [a for a in range(table.num_plays)
                   if self._static[s, a, int(Kind.FLIP)] == 1.0]  # fmt: skip
            self._flips.append((np.array(idx, np.int64), self._card_of[idx]))
        self.action_size += len(_FLIP_ACTION)

    def opponent_cards(self, observation: npt.NDArray[Any]) -> Vector:
        """Flip: the next opponent's hand as expected copies of each card of the
        universe, from its back faces (seen exactly) and, for the face up, the
        cards with that back that are neither in my hand nor discarded, in
        proportion (the deck's own composition is public)."""
        obs = np.asarray(observation, dtype=np.float32)
        side = int(obs[self._side] > 0.5)
        backs = obs[self._backs : self._backs + self._nf]
        unseen = np.maximum(self._deck - obs[self._hand] - obs[self._discard], 0.0) + 1e-6
        of = self._backs_of[1 - side]  # the backs are the faces of the side down
        denom = of @ unseen  # 0 for the faces of the side up (never backs)
        share = np.divide(backs, denom, out=np.zeros_like(backs), where=denom > 0)
        return ((share @ of) * unseen).astype(np.float32)

    def _flip_state(self, side: int, hand: Vector, opp: Vector) -> Vector:
        """The Flip state features, from my hand and the opponent's (expected)."""
        other = 1 - side
        return np.concatenate([
            opp @ self._color[side] / 10, opp @ self._kinds[side],
            opp @ self._color[other] / 10, opp @ self._kinds[other],
            hand @ self._color[other] / 10, hand @ self._kinds[other],
        ]).astype(np.float32)  # fmt: skip

    def actions(self, observation: npt.NDArray[Any], mask: npt.NDArray[Any],
                opp: Vector | None = None) -> Vector:  # fmt: skip
        """Per-action features, ``(num_actions, action_size)`` float32: what
        each decision is (kind of card, points, number; or DRAW, PASS, COLOR,
        ...) and what it would leave: cards of the resulting colour still in
        hand / 10, cards of the hand that could follow it / 10, unseen cards
        of that colour / 25, whether it is the colour held most, whether it
        keeps the colour in force, copies of the card held / 4. Computed from
        the observation and mask alone, like the state features; a policy
        scores every action with the same small network on these
        (``examples/sb3_maskable_ppo.py``)."""
        obs = np.asarray(observation, dtype=np.float32)
        side = int(obs[self._side] > 0.5) if self._side >= 0 else 0
        hand = obs[self._hand]
        color_of = self._color[side]
        hand_colors = hand @ color_of
        current = obs[self._colour_seg].reshape(-1, 4).sum(axis=0)
        unseen = (self._deck - hand - obs[self._discard]) @ color_of
        result = self._result[side]
        most = (hand_colors >= hand_colors.max()).astype(np.float32)
        held = np.where(self._card_of >= 0, hand[np.maximum(self._card_of, 0)], 0.0)
        dyn = np.stack([
            (result @ hand_colors - self._own[side]) / 10,
            (self._compat[side] @ hand - self._self_compat[side]) / 10,
            result @ unseen / 25,
            result @ most,
            result @ current,
            held / 4,
        ], axis=1)  # fmt: skip
        if not self.two_sided:
            return np.concatenate([self._static[side], dyn], axis=1).astype(np.float32)
        if opp is None:
            opp = self.opponent_cards(obs)
        other = 1 - side
        flip = np.zeros((self.num_actions, len(_FLIP_ACTION)), np.float32)
        flip[:, 0] = self._compat[side] @ opp / 10  # opponent's cards that could follow
        flip[:, 1] = result @ (opp @ color_of) / 10  # opponent's cards of the colour left
        idx, cards = self._flips[side]
        if len(idx):
            # a Flip card: the hands as they will be on the other side, mine
            # without the card played
            col, kin = self._color[other], self._kinds[other]
            mine_colors = (hand @ col)[None, :] - col[cards]
            mine_kinds = (hand @ kin)[None, :] - kin[cards]
            opp_kinds = opp @ kin
            block = flip[idx]
            block[:, :2] = 0.0  # the top after a flip is not in the observation
            block[:, 2] = mine_colors.max(axis=1) / 10
            block[:, 3:5] = mine_kinds[:, :2]
            block[:, 5] = (opp @ col).max() / 10
            block[:, 6:8] = opp_kinds[:2]
            block[:, 8] = (mine_kinds[:, 2] - opp_kinds[2]) / 2
            flip[idx] = block
        return np.concatenate([self._static[side], dyn, flip], axis=1).astype(np.float32)

    def with_actions(self, observation: npt.NDArray[Any], mask: npt.NDArray[Any]) -> Vector:
        """:meth:`__call__` followed by :meth:`actions` flattened (one vector)."""
        opp = self.opponent_cards(observation) if self.two_sided else None
        return np.concatenate([self(observation, mask, opp),
                               self.actions(observation, mask, opp).ravel()])  # fmt: skip

    def __call__(self, observation: npt.NDArray[Any], mask: npt.NDArray[Any],
                 opp: Vector | None = None) -> Vector:  # fmt: skip
        obs = np.asarray(observation, dtype=np.float32)
        side = int(obs[self._side] > 0.5) if self._side >= 0 else 0
        hand = obs[self._hand]
        color_of = self._color[side]
        hand_colors = hand @ color_of
        current = obs[self._colour_seg].reshape(-1, 4).sum(axis=0)  # Flip: dark colours fold on
        sizes = np.minimum(obs[self._sizes], _SIZES).astype(np.int64)  # light ones (mod 4)
        size_hot = np.zeros((self.players, _SIZES), np.float32)
        for k, n in enumerate(sizes):
            if n > 0:
                size_hot[k, n - 1] = 1.0
        m = np.asarray(mask[: self._plays], dtype=np.float32)
        legal_play = m @ self._play_feats[side]
        n_plays = m.sum()
        legal = np.array([n_plays / 10, float(n_plays > 0), *legal_play,
                          float(mask[self._draw]), float(mask[self._uno])], np.float32)  # fmt: skip
        unseen = (self._deck - hand - obs[self._discard]) @ color_of
        parts = [obs * self.scale, hand_colors / 10, hand @ self._kinds[side],
                 [float(hand_colors @ current) / 10], size_hot.ravel(), legal, unseen / 25]  # fmt: skip
        if self.two_sided:
            if opp is None:
                opp = self.opponent_cards(obs)
            parts.append(self._flip_state(side, hand, opp))
        return np.concatenate(parts).astype(np.float32)
