"""A posterior over the hidden hands: Metropolis-Hastings on card swaps.

The :class:`~unokit.bots.determinize.Determinizer` deals the unseen cards at
random, respecting a few hard facts. This module weighs a deal by how well it
explains **every decision** the other players made in the round, under a
model of those players, and samples deals from that posterior with a Markov
chain (Metropolis & al. 1953, Hastings 1970):

* **State**: the cards of every other hand (oldest first: the position of a
  card says how long the player has held it, see
  :class:`~unokit.bots.inference.PastPlay`) and the rest (draw pile and cards
  out of play). Cards shown to the seat (a challenge's reveal) stay fixed.
* **Move**: swap the card at one hand position with the card at another
  position (of any hand or of the rest), chosen uniformly; in Flip only cards
  with the same visible back face are swapped. The proposal is symmetric, so a
  move is accepted with probability ``min(1, L(new) / L(old))``.
* **Likelihood** (the opponent model: a softened ``heuristic``): each play of
  another player from its hand (rebuilt as :func:`~unokit.bots.inference.past_plays`
  does) is the heuristic's choice on that hand with probability ``1 - ε``
  and any other with ``ε`` (:data:`PLAY_EPS`, the colour named with a wild
  included). A hand rebuilt only approximately (the player has since played
  a card it may have drawn after that play: three plays in four) gets the
  weaker :data:`INEXACT_EPS`: against ``heuristic`` players the true hand
  fits every exactly rebuilt play and 86% of the others. Each voluntary draw
  is made with nothing playable, except with probability :data:`DRAW_EPS`. The prior is uniform over the deals that
  show the seat its observation.

Everything comes from the seat's observation; the chain starts from an
ordinary deal and runs ``burn`` steps before the first sample and ``steps``
between samples. Samples are correlated, which the search's paired
comparisons tolerate; the draw pile is shuffled afresh for every sample.
"""

from __future__ import annotations

import math
import random
from typing import Any

from unokit.bots.inference import HandInference, PastPlay

__all__ = ["Chain", "PLAY_EPS", "INEXACT_EPS", "DRAW_EPS"]

#: chance the model gives a play that is not the heuristic's choice on the hand
PLAY_EPS = 0.03
#: the same for a play whose hand is rebuilt only approximately (the player
#: has since played a card it may have drawn after it): a weaker test
INEXACT_EPS = 0.3
#: chance the model gives a voluntary draw while holding a playable card
DRAW_EPS = 0.01


class Chain:
    """A Markov chain over the hidden cards of one decision (module docstring).

    ``hands``: per seat, a starting deal (card ids, oldest first; the
    observer's entry empty), ``fixed``: per seat, how many leading cards are
    known and never move; ``rest``: the other unseen cards; ``backs``: per
    card id, its back face (Flip) or ``None``."""

    def __init__(
        self,
        variant: Any,
        hands: list[list[int]],
        fixed: list[int],
        rest: list[int],
        draws: list[list[HandInference]],
        plays: list[PastPlay],
        backs: list[Any] | None,
        play_eps: float = PLAY_EPS,
        draw_eps: float = DRAW_EPS,
        inexact_eps: float = INEXACT_EPS,
    ) -> None:
        self.v = variant
        self.hands = [h[:] for h in hands]
        self.rest = rest[:]
        self.backs = backs
        n = len(hands)
        self._lp = math.log(play_eps)
        self._lp_inexact = math.log(max(play_eps, inexact_eps))
        self._ld = math.log(draw_eps)
        ncards = len(variant.cards.cards)
        # per seat: (old, set of card ids that were playable then) per draw
        self._draws: list[list[tuple[int, frozenset[int]]]] = [[] for _ in range(n)]
        for s in range(n):
            for f in draws[s]:
                bad = frozenset(c for c in range(ncards) if not f.allows(variant, c))
                self._draws[s].append((f.old, bad))
        self._plays: list[list[PastPlay]] = [[] for _ in range(n)]
        for p in plays:
            self._plays[p.seat].append(p)
        # the movable places: (seat, index) of hand cards, then (-1, index) of the rest
        self._places: list[tuple[int, int]] = [
            (s, i) for s in range(n) for i in range(fixed[s], len(self.hands[s]))
        ]
        self._nhand = len(self._places)
        self._places += [(-1, i) for i in range(len(self.rest))]
        self._ll = [self.loglik(s, self.hands[s]) for s in range(n)]
        self.accepted = 0
        self.proposed = 0

    def loglik(self, s: int, hand: list[int]) -> float:
        """The log-likelihood of seat ``s``'s observed decisions given ``hand``
        (its cards now, oldest first), up to a constant."""
        ll = 0.0
        for old, bad in self._draws[s]:
            for c in hand[:old]:
                if c in bad:
                    ll += self._ld
                    break
        v = self.v
        for p in self._plays[s]:
            if not p.fits(v, hand):
                ll += self._lp if p.exact else self._lp_inexact
        return ll

    def _card(self, place: tuple[int, int]) -> int:
        s, i = place
        return self.rest[i] if s < 0 else self.hands[s][i]

    def step(self, rng: random.Random, k: int) -> None:
        """``k`` Metropolis-Hastings steps."""
        nh = self._nhand
        places = self._places
        total = len(places)
        if nh == 0 or total < 2:
            return
        rnd = rng.random
        backs = self.backs
        hands = self.hands
        for _ in range(k):
            a = places[int(rnd() * nh)]
            b = places[int(rnd() * total)]
            if a == b:
                continue
            ca, cb = self._card(a), self._card(b)
            if ca == cb or (backs is not None and backs[ca] != backs[cb]):
                continue
            self.proposed += 1
            sa, sb = a[0], b[0]
            # the hands after the swap, for the seats it touches
            new_a = hands[sa][:]
            new_a[a[1]] = cb
            if sb == sa:
                new_a[b[1]] = ca
            ll_a = self.loglik(sa, new_a)
            delta = ll_a - self._ll[sa]
            ll_b = 0.0
            new_b: list[int] | None = None
            if sb >= 0 and sb != sa:
                new_b = hands[sb][:]
                new_b[b[1]] = ca
                ll_b = self.loglik(sb, new_b)
                delta += ll_b - self._ll[sb]
            if delta >= 0 or rnd() < math.exp(delta):
                self.accepted += 1
                hands[sa] = new_a
                self._ll[sa] = ll_a
                if new_b is not None:
                    hands[sb] = new_b
                    self._ll[sb] = ll_b
                elif sb < 0:
                    self.rest[b[1]] = ca

    def state(self) -> tuple[list[list[int]], list[int]]:
        """Copies of the current hands and rest."""
        return [h[:] for h in self.hands], self.rest[:]
