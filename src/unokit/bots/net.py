"""The learned value network of the ``expert`` level, evaluated with NumPy.

The network estimates, for a *full* game state (every hand known) and a seat
``me``, the chance that ``me`` wins the round when every seat plays the
``sensible`` rollout policy (:func:`~unokit.bots.rollout.sensible_move`): the
quantity a rollout of ``hard`` samples once with a 0/1 outcome, learned from
hundreds of thousands of self-play rounds (:mod:`unokit.train`). A search uses
it on the games it samples from its own observation
(:class:`~unokit.bots.determinize.Determinizer`), never on the real game, so
it reads no hidden card.

Input (:class:`StateFeatures`): the environments' observation vector of ``me``
(:class:`~unokit.envs.observation.ObservationEncoder`, scaled to [0, 1]), the
seat to act relative to ``me`` (one-hot), and the cards of each other hand
(copies of each card of the card universe, in seat order from ``me``).

Weights ship in the package as ``unokit/data/value-<variant>-<players>p.npz``
(float16, a few hundred kB each) with their metadata; training needs PyTorch
(the ``train`` extra), playing needs only NumPy.

>>> import numpy as np
>>> from unokit import Game
>>> f = StateFeatures("classic", 2)
>>> g = Game.new("classic", 2, seed=1)
>>> x = f.vector(g, 0)
>>> x.shape == (f.size,), float(x.min()) >= 0.0, float(x[0:f.size].max()) <= 2.0
(True, True, True)
>>> net = ValueNet.random(f.size, (8,), seed=0, meta={"variant": "classic", "players": 2})
>>> p = net.predict(np.stack([x, f.vector(g, 1)]))
>>> p.shape, bool(((p > 0) & (p < 1)).all())
((2,), True)
"""

from __future__ import annotations

import json
from array import array
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from unokit.engine.errors import OptionError
from unokit.engine.options import Options
from unokit.envs.observation import ObservationEncoder

if TYPE_CHECKING:
    from unokit.engine.game import Game

__all__ = [
    "StateFeatures",
    "ValueNet",
    "calibrate",
    "load_value_net",
    "net_path",
    "FEATURES_VERSION",
]

#: the layout of :class:`StateFeatures`; a weights file names the version it was
#: trained on (1: every segment of the observation vector divided by its bound
#: as the encoder had it when the layout was made, the own hand and the discard
#: pile by the deck's size, which makes one card of the own hand 1/108; 2: card counts by 2 or 4, hand
#: sizes by 10, the draw pile by 50, so that each card weighs as much as in
#: the other hands' segment)
FEATURES_VERSION = 2
_SCALES_V2 = {"hand": 2.0, "discard": 4.0, "hand_sizes": 10.0, "draw_size": 50.0, "backs": 4.0}

Matrix = npt.NDArray[np.float32]


class StateFeatures:
    """The input vector of the value network (see the module docstring)."""

    def __init__(
        self,
        variant: str,
        players: int,
        options: Options | dict[str, Any] | None = None,
        version: int = FEATURES_VERSION,
    ) -> None:
        if version not in (1, 2):
            raise OptionError(f"unknown feature layout {version}")
        self.encoder = enc = ObservationEncoder(variant, players, options)
        self.variant = enc.variant.name
        self.players = n = players
        self.version = version
        u = len(enc.cards)
        high = np.maximum(enc.high, 1.0)
        if version == 1:
            # the encoder now bounds a card's count by its copies in the deck;
            # layout 1 was trained when it was the deck's size (the bound of
            # the hand sizes): without this, a version-1 network sees its hand
            # and discard inputs scaled 27 to 108 times too large
            deck = float(enc.high[enc.slice("hand_sizes")][0])
            for name in ("hand", "discard"):
                high[enc.slice(name)] = deck
        if version >= 2:
            for name, bound in _SCALES_V2.items():
                if name in enc.segments:
                    high[enc.slice(name)] = bound
        self._scale: Matrix = (1.0 / high).astype(np.float32)
        self._base = enc.size
        self._cur_at = enc.size
        self._hands_at = enc.size + n
        self.size = enc.size + n + (n - 1) * u
        self._u = u
        self._uidx = enc._uidx
        self._zeros = array("f", bytes(4 * (n + (n - 1) * u)))

    def vector(self, game: Game, me: int) -> Matrix:
        """Features of ``game`` (a full state) from ``me``'s seat."""
        base = self.encoder.encode_game(game, me) * self._scale
        extra = self._zeros[:]
        n = self.players
        extra[(game.current - me) % n] = 0.25 if game.phase >= 4 else 1.0
        uidx = self._uidx
        u = self._u
        hands = game.hands
        for k in range(1, n):
            at = n + (k - 1) * u
            for c in hands[(me + k) % n]:
                extra[at + uidx[c]] += 0.25
        return np.concatenate((base, np.frombuffer(extra, dtype=np.float32)))


class ValueNet:
    """A multilayer perceptron (ReLU hidden layers, a sigmoid output) in NumPy."""

    def __init__(self, weights: list[tuple[Matrix, Matrix]], meta: dict[str, Any]) -> None:
        if not weights:
            raise ValueError("a network needs at least one layer")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in weights]
        self.meta = dict(meta)
        self.inputs = int(self.layers[0][0].shape[0])

    @classmethod
    def random(
        cls, inputs: int, hidden: tuple[int, ...], seed: int, meta: dict[str, Any]
    ) -> ValueNet:
        """An untrained network (tests, and the start of training)."""
        rng = np.random.default_rng(seed)
        sizes = (inputs, *hidden, 1)
        layers = []
        for a, b in zip(sizes, sizes[1:], strict=False):
            w = rng.normal(0.0, (2.0 / a) ** 0.5, size=(a, b)).astype(np.float32)
            layers.append((w, np.zeros(b, dtype=np.float32)))
        return cls(layers, meta)

    def logits(self, x: Matrix) -> Matrix:
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        out: Matrix = h[:, 0]
        return out

    def predict(self, x: Matrix) -> Matrix:
        """Winning chances (rows of ``x``: :class:`StateFeatures` vectors).

        The logit ``z`` goes through :func:`calibrate` with the network's
        metadata before the sigmoid: the maps are fitted by
        ``benchmarks/strength/calibration.py --fit`` on games of the bots, after
        training, because self-play with random moves makes outcomes noisier
        than real play, so the raw chances are too timid."""
        z = calibrate(self.logits(np.asarray(x, dtype=np.float32)), self.meta)
        z = np.clip(z, -30.0, 30.0)
        out: Matrix = (1.0 / (1.0 + np.exp(-z))).astype(np.float32)
        return out

    def save(self, path: str | Path) -> None:
        """Write the weights (float16) and metadata to a ``.npz`` file."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: str | Path | Any) -> ValueNet:
        """Read a file written by :meth:`save`; a bad file raises :class:`OptionError`."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                layers = []
                i = 0
                while f"w{i}" in z.files:
                    layers.append((z[f"w{i}"], z[f"b{i}"]))
                    i += 1
        except (OSError, ValueError, KeyError) as e:
            raise OptionError(f"cannot read value network {path}: {e}") from None
        if not layers or not isinstance(meta, dict):
            raise OptionError(f"{path} holds no value network")
        return cls(layers, meta)


def calibrate(z: Matrix, meta: dict[str, Any]) -> Matrix:
    """The calibrated logits of a network's raw logits ``z``.

    ``meta["calibration_map"] = [knots, values]`` (increasing knots,
    non-decreasing values): the piecewise-linear map through the points
    ``(knots[i], values[i])``, extended beyond the end knots along its end
    segments; monotone, so the order of positions is kept. Otherwise
    ``meta["calibration"] = [a, b]``: ``a z + b`` (Platt scaling; files may
    hold both, and programs that know only ``[a, b]`` use it). Neither: ``z``.

    >>> z = np.array([-3.0, 0.0, 0.5, 4.0], dtype=np.float32)
    >>> calibrate(z, {"calibration": [2.0, 1.0]}).tolist()
    [-5.0, 1.0, 2.0, 9.0]
    >>> calibrate(z, {"calibration_map": [[-1.0, 0.0, 1.0], [-2.0, 0.0, 1.0]]}).tolist()
    [-6.0, 0.0, 0.5, 4.0]
    """
    cmap = meta.get("calibration_map")
    if cmap is not None:
        knots = np.asarray(cmap[0], dtype=np.float64)
        values = np.asarray(cmap[1], dtype=np.float64)
        zz = z.astype(np.float64)
        out = np.interp(zz, knots, values)
        lo_slope = (values[1] - values[0]) / (knots[1] - knots[0])
        hi_slope = (values[-1] - values[-2]) / (knots[-1] - knots[-2])
        out = np.where(zz < knots[0], values[0] + (zz - knots[0]) * lo_slope, out)
        out = np.where(zz > knots[-1], values[-1] + (zz - knots[-1]) * hi_slope, out)
        mapped: Matrix = out.astype(np.float32)
        return mapped
    cal = meta.get("calibration")
    if cal is not None:
        scaled: Matrix = z * np.float32(cal[0]) + np.float32(cal[1])
        return scaled
    return z


def net_path(variant: str, players: int) -> str:
    """The file name of the shipped network for ``variant`` and ``players``."""
    return f"value-{variant}-{players}p.npz"


@lru_cache(maxsize=16)
def load_value_net(variant: str, players: int) -> ValueNet | None:
    """The network shipped in the package for this variant and player count
    (``None`` if there is none)."""
    ref = resources.files("unokit") / "data" / net_path(variant, players)
    if not ref.is_file():
        return None
    with ref.open("rb") as fh:
        net = ValueNet.load(fh)
    if net.meta.get("features") not in (1, 2):
        return None
    return net
