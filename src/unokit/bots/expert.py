"""``expert``: ``hard``'s search with a learned value at the leaves.

The search is ``hard``'s (:class:`~unokit.bots.ismcts.ISMCTSBot`): full games
sampled from the seat's own observation, every candidate move tried on the same
samples, sequential halving. What changes is how a (sample, move) pair is
scored: instead of playing the round out to the end with the ``sensible``
policy (one noisy 0/1 outcome), the other seats answer with that policy until
the seat is to decide again (``depth`` more of its own decisions with the
policy too, if asked), and the learned value network
(:mod:`unokit.bots.net`, trained on self-play of the same policy by
:mod:`unokit.train`) estimates the winning chance of that sampled state. A
round that ends on the way scores 1 or 0, and so does a leaf where the seat
can play its last card at once. ``leaf="mix"`` averages the
network's estimate with one rollout from the leaf.

The network is evaluated with NumPy, in one batch per sample. When the package
has no network for the variant and player count (or the rule options change
the card set), ``expert`` searches exactly as ``hard`` does.

The bot sees only its observation (the value network is applied to the games
it samples itself); same seed and ``sims``: same decisions.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=3)
>>> bot = ExpertBot(seed=1, sims=200)
>>> g.is_legal(bot.act(g.observe(g.current)))
True
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from unokit.bots.determinize import Determinizer
from unokit.bots.ismcts import DEFAULT_MCMC, DEFAULT_PARTICLES, DEFAULT_THINK_MS, ISMCTSBot
from unokit.bots.net import StateFeatures, ValueNet, load_value_net
from unokit.bots.rollout import sensible_move, sensible_rollout
from unokit.engine.codes import ROUND_OVER as _RO
from unokit.engine.codes import TURN as _T
from unokit.engine.errors import OptionError
from unokit.engine.game import OP_PLAY, Game
from unokit.engine.observation import Observation

__all__ = ["ExpertBot"]


class ExpertBot(ISMCTSBot):
    """See the module docstring. Options: those of ``hard`` (``sims``,
    ``think_ms``, ``iterations``, ``infer``, ``max_wall_ms``), and

    * ``leaf``: ``value`` (default: the network's estimate) or ``mix`` (the
      mean of the estimate and one rollout);
    * ``depth``: own decisions played by the policy before the leaf (default 0);
    * ``net``: a weights file to use instead of the shipped one.
    """

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        think_ms: float | None = DEFAULT_THINK_MS,
        iterations: int | None = None,
        sims: int | None = None,
        leaf: str = "value",
        depth: int = 0,
        net: str | None = None,
        infer: bool = True,
        max_wall_ms: float | None = None,
        particles: int = DEFAULT_PARTICLES,
        mcmc: int = DEFAULT_MCMC,
        play_eps: float | None = None,
        name: str | None = None,
        **_: Any,
    ) -> None:
        super().__init__(
            seed=seed,
            think_ms=think_ms,
            iterations=iterations,
            sims=sims,
            search="flat",
            rollout="sensible",
            infer=infer,
            max_wall_ms=max_wall_ms,
            particles=particles,
            mcmc=mcmc,
            play_eps=play_eps,
            name=name,
        )
        if leaf not in ("value", "mix"):
            raise OptionError(f"leaf must be value or mix, got {leaf!r}")
        try:
            self.depth = int(depth)
        except (TypeError, ValueError):
            raise OptionError(f"depth must be a whole number, got {depth!r}") from None
        if self.depth < 0:
            raise OptionError(f"depth must be 0 or more, got {depth!r}")
        self.leaf = leaf
        self._own: ValueNet | None = None if net is None else ValueNet.load(str(net))
        self._features: dict[tuple[str, int, Any, int], StateFeatures] = {}
        #: whether the last search used the network (False: ``hard``'s rollouts)
        self.used_net = False

    def _net_for(self, obs: Observation) -> tuple[ValueNet, StateFeatures] | None:
        net = self._own if self._own is not None else load_value_net(obs.variant, obs.players)
        if net is None or net.meta.get("players") != obs.players:
            return None
        if net.meta.get("variant") != obs.variant:
            return None
        version = int(net.meta.get("features", 1))
        key = (obs.variant, obs.players, obs.options, version)
        feats = self._features.get(key)
        if feats is None:
            feats = self._features[key] = StateFeatures(
                obs.variant, obs.players, obs.options, version
            )
        if feats.size != net.inputs:
            return None
        return net, feats

    def _search(self, obs: Observation, choices: list[Any], default: Any) -> Any:
        self._model = self._net_for(obs)
        self.used_net = self._model is not None
        return super()._search(obs, choices, default)

    def _sample(self, det: Determinizer, rng: random.Random) -> Game:
        """A ``Game`` (the network's features read one)."""
        return det.sample(rng)

    def _values(self, g0: Game, codes: list[int], me: int) -> list[float]:
        """The network's values at the leaves when there is a network for this
        game, else :class:`~unokit.bots.ismcts.IsmctsBot`'s rollouts."""
        model = self._model
        if model is None:
            return super()._values(g0, codes, me)
        net, feats = model
        assert isinstance(g0, Game)  # (from _sample)
        return self._leaf_values(g0, codes, me, net, feats)

    def _leaf_values(
        self, g0: Game, codes: list[int], me: int, net: ValueNet, feats: StateFeatures
    ) -> list[float]:
        """The score of each move ``codes`` on the sampled game ``g0`` (unchanged)."""
        mix = self.leaf == "mix"
        out = [0.0] * len(codes)
        rows: list[Any] = []
        at: list[int] = []
        for j, code in enumerate(codes):
            g = g0.copy()
            g.apply_move(code, uno=True)
            self._advance(g, me)
            if g.phase >= _RO:
                out[j] = _result(g, me)
                continue
            if _wins_now(g, me):
                out[j] = 1.0
                continue
            rows.append(feats.vector(g, me))
            at.append(j)
            if mix:
                sensible_rollout(g)
                out[j] = 0.5 * _result(g, me)
        if rows:
            share = 0.5 if mix else 1.0
            for j, v in zip(at, net.predict(np.stack(rows)).tolist(), strict=True):
                out[j] += share * v
        return out

    def score(
        self, det: Determinizer, codes: list[int], me: int, samples: int, rng: random.Random
    ) -> list[float]:
        """The mean score of every move ``codes`` over ``samples`` games sampled by
        ``det`` (the same games for every move): the network's, or with no
        network, ``hard``'s rollouts. For analysis (:mod:`unokit.bots.analysis`)."""
        model = self._net_for(det.obs)
        total = [0.0] * len(codes)
        for _ in range(samples):
            g0 = det.sample(rng)
            if model is not None:
                values = self._leaf_values(g0, codes, me, *model)
            else:
                values = []
                c0 = g0.copy()  # the sample, once (its commands change no log)
                for code in codes:
                    c = c0.copy()
                    c.apply_move(code, uno=True)
                    if c.phase < _RO:
                        sensible_rollout(c)
                    values.append(_result(c, me))
            for j, v in enumerate(values):
                total[j] += v
        return [t / samples for t in total]

    def state_value(self, det: Determinizer, me: int, samples: int, rng: random.Random) -> float:
        """The seat's mean winning chance over ``samples`` games sampled by ``det``."""
        model = self._net_for(det.obs)
        if model is not None:
            net, feats = model
            rows = [feats.vector(det.sample(rng), me) for _ in range(samples)]
            return float(net.predict(np.stack(rows)).mean())
        total = 0.0
        for _ in range(samples):
            g = det.sample(rng)
            sensible_rollout(g)
            total += _result(g, me)
        return total / samples

    def _advance(self, g: Game, me: int) -> None:
        """Play the policy for the other seats (and ``depth`` own decisions)
        until ``me`` has a real decision to make or the round ends."""
        own = self.depth
        steps = 0
        while g.phase < _RO and steps < 400:
            steps += 1
            moves = g.turn_moves()
            if g.current == me and len(moves) > 1:
                if own <= 0:
                    return
                own -= 1
            g.apply_move(moves[0] if len(moves) == 1 else sensible_move(g), uno=True)


def _wins_now(g: Game, me: int) -> bool:
    """Whether ``me``, to act with one card left, can play it and win at once
    (what the network may see less sharply than a rollout does)."""
    if g.phase != _T or len(g.hands[me]) != 1:
        return False
    for m in g.turn_moves():
        if m & 15 == OP_PLAY:
            h = g.copy()
            h.apply_move(m, uno=True)
            if h.phase >= _RO and h.winner == me:
                return True
    return False


def _result(g: Game, me: int) -> float:
    w = g.winner
    return 1.0 if w == me else (1.0 / g.n if w < 0 else 0.0)
