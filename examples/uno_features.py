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
=====================  ====  ==========================================================

They are functions of the observation and mask (no hidden information, nothing
the policy could not compute itself), so a policy trained with them plays the
same environments; they only save the network from learning to count.
:func:`features` appends them to the observation divided by its Box's upper
bound (every raw feature in 0..1). The layout of the environments' own
observation is unchanged.

>>> import numpy as np
>>> from unokit.envs.gym import UnoGymEnv
>>> env = UnoGymEnv("classic", 2)
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

from unokit.cards import Kind
from unokit.envs.actions import action_table
from unokit.envs.observation import ObservationEncoder
from unokit.options import Options
from unokit.variants import get_variant

__all__ = ["UnoFeatures"]

_ACTION_KINDS = {
    Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.DRAW_ONE, Kind.DRAW_FIVE, Kind.FLIP,
    Kind.SKIP_EVERYONE, Kind.FLEX_SKIP, Kind.FLEX_REVERSE, Kind.FLEX_DRAW_TWO,
}  # fmt: skip
_SIZES = 10  # hand-size buckets: 1..9, 10 or more

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
        names = [("hand_colors", 4), ("hand_kinds", 3), ("in_color", 1), ("my_size", _SIZES),
                 ("opp_sizes", _SIZES * (players - 1)), ("legal", 10), ("unseen_colors", 4)]  # fmt: skip
        self.at: dict[str, int] = {}
        off = enc.size
        for name, length in names:
            self.at[name] = off
            off += length
        self.size = off

    def __call__(self, observation: npt.NDArray[Any], mask: npt.NDArray[Any]) -> Vector:
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
        return np.concatenate([
            obs * self.scale, hand_colors / 10, hand @ self._kinds[side],
            [float(hand_colors @ current) / 10], size_hot.ravel(), legal, unseen / 25,
        ]).astype(np.float32)  # fmt: skip
