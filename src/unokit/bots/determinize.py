"""Determinization: full game states sampled from what one seat has observed.

A search bot never sees the real game. From an :class:`~unokit.engine.observation.Observation`
alone, :class:`Determinizer` deals the cards the seat cannot see to the other
hands and to the draw pile, consistently with everything the seat knows:

* its own hand, every hand size, the discard pile (public, in order);
* the round's history redacted for the seat: a hand shown to it after a
  challenge is known exactly, minus the cards that player has played since
  (cards drawn since are unknown, so the rest of that hand is sampled);
* in Flip, the visible back face of every card of the other hands and of the
  draw pile's top: a sampled card always carries the observed back face
  (with ``flipPairing=random_seeded`` the physical pairing itself is unknown,
  so unseen light and dark faces are paired at random, as the deck was);
* the public state: colour, direction, side, Power Cards, UNO states, a stacked
  penalty, a pending challenge.

Every sample is a legal :class:`~unokit.Game` built with :meth:`Game.setup`
(a fresh seed, so reshuffles are unknown too) on which a bot may search.

Within those constraints the unseen cards are dealt at random, but so as to
respect what the other players' own choices reveal
(:mod:`unokit.bots.inference`): a player who drew held nothing playable, a
wild is played for want of another card, a colour named is a colour held, a
last play should fit the hand (some only in a share of the samples).

>>> from unokit import Game
>>> g = Game.new("flip", 2, seed=4)
>>> d = Determinizer(g.observe(0))
>>> s = d.sample(random.Random(1))
>>> s.observe(0).hand == g.observe(0).hand, s.observe(0).backs == g.observe(0).backs
(True, True)
>>> s.observe(0).draw_top_back == g.observe(0).draw_top_back
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from unokit import _core
from unokit.bots.inference import (
    NAMED_TRUST,
    OFF_POLICY,
    HandInference,
    LastPlay,
    PastPlay,
    color_before_last_play,
    hand_inferences,
    known_cards,
    last_plays,
    named_colors,
    past_plays,
)
from unokit.bots.posterior import INEXACT_EPS, PLAY_EPS, Chain
from unokit.engine.actions import Challenge
from unokit.engine.cards import Card, Face
from unokit.engine.codes import CHALLENGE as _CH
from unokit.engine.codes import TURN as _T
from unokit.engine.decks import flip_deck
from unokit.engine.events import Played
from unokit.engine.game import Game, UnoState
from unokit.engine.observation import Observation
from unokit.engine.variants import get_variant

__all__ = ["Determinizer", "MCMC_BURN"]

#: Metropolis-Hastings steps before the first sample of a decision (at least)
MCMC_BURN = 300


def _last_player(obs: Observation) -> int:
    for e in reversed(obs.history):
        if isinstance(e, Played):
            return e.seat
    return (obs.current - obs.direction) % obs.players


def _last_play_flex(obs: Observation) -> bool:
    for e in reversed(obs.history):
        if isinstance(e, Played):
            return e.flex
    return False


class Determinizer:
    """Samples full games consistent with ``obs`` (see the module docstring).

    Build it once per decision; :meth:`sample` is cheap (a copy and a shuffle)."""

    def __init__(
        self, obs: Observation, infer: bool = True, particles: int = 0, mcmc: int = 0
    ) -> None:
        if obs.seat is None:
            raise ValueError("a spectator has no information set to sample from")
        self.obs = obs
        self.seat = me = obs.seat
        v = get_variant(obs.variant)
        self.variant = v
        cs = v.cards
        self._random_pairing = v.two_sided and obs.options.flipPairing == "random_seeded"
        #: per seat, the draw inferences the samples respect (none with a random pairing)
        self.inferences: list[list[HandInference]] = [[] for _ in range(obs.players)]
        n = obs.players
        self.side = side = obs.side
        other = 1 - side
        idx = cs.index
        mine = [idx[c] for c in obs.hand]
        disc = [idx[c] for c in obs.discard]
        known = known_cards(obs)
        # what is not in the seat's hand nor on the discard pile
        if self._random_pairing:
            deck = flip_deck("canonical")  # same multiset of faces, pairing unknown
            lights: Counter[Face] = Counter(cs.cards[c].light for c in deck)
            darks: Counter[Face] = Counter(cs.cards[c].face(1) for c in deck)
            for c in mine + disc:
                lights[cs.cards[c].light] -= 1
                darks[cs.cards[c].face(1)] -= 1
        else:
            pool: Counter[int] = Counter(v.deck(obs.options, 0))
            pool.subtract(mine)
            pool.subtract(disc)
        # cards known in other hands are dealt to them first
        self.known: list[list[int]] = [[] for _ in range(n)]
        backs_left: list[Counter[Face]] = [Counter(b) for b in obs.backs]
        for s in range(n):
            if s == me or not known[s]:
                continue
            ids = [idx[c] for c in known[s].elements()]
            ok = len(ids) <= obs.hand_sizes[s]
            if self._random_pairing:
                ok = ok and all(lights[cs.cards[c].light] > 0 for c in ids)
                ok = ok and all(darks[cs.cards[c].face(1)] > 0 for c in ids)
            else:
                need = Counter(ids)
                ok = ok and all(pool[c] >= k for c, k in need.items())
            if v.two_sided:
                need_b = Counter(cs.cards[c].face(other) for c in ids)
                ok = ok and all(backs_left[s][f] >= k for f, k in need_b.items())
            if not ok:  # stale knowledge (cannot happen with exact tracking): forget it
                continue
            self.known[s] = ids
            for c in ids:
                if self._random_pairing:
                    lights[cs.cards[c].light] -= 1
                    darks[cs.cards[c].face(1)] -= 1
                else:
                    pool[c] -= 1
                if v.two_sided:
                    backs_left[s][cs.cards[c].face(other)] -= 1
        # the slots to fill: per other hand, the unknown cards (with their back
        # faces in Flip), then the draw pile (its top's back face in Flip)
        self.slots: list[list[Face | None]] = []
        for s in range(n):
            free = obs.hand_sizes[s] - len(self.known[s]) if s != me else 0
            if v.two_sided and s != me:
                faces: list[Face | None] = list(backs_left[s].elements())
                assert len(faces) == free, "back faces do not match the hand size"
                self.slots.append(faces)
            else:
                self.slots.append([None] * free)
        self.draw_top: Face | None = obs.draw_top_back if obs.draw_size else None
        self.draw_size = obs.draw_size
        if self._random_pairing:
            self._lights = list(lights.elements())
            self._darks = list(darks.elements())
            unseen = len(self._lights)
        else:
            self._pool = sorted(pool.elements())
            unseen = len(self._pool)
            self._plan(infer)
        total = sum(len(s) for s in self.slots) + self.draw_size
        # a set-up position may leave cards out of play (fewer hidden places than
        # unseen cards); more hidden places than unseen cards cannot be dealt
        if unseen < total:
            raise ValueError(
                f"inconsistent observation: {unseen} unseen cards for {total} hidden places"
            )
        if v.two_sided:
            want: Counter[Face] = Counter(f for sl in self.slots for f in sl if f is not None)
            if self.draw_top is not None:
                want[self.draw_top] += 1
            have: Counter[Face] = (
                Counter(self._darks if side == 0 else self._lights)
                if self._random_pairing
                else Counter(cs.cards[c].face(other) for c in self._pool)
            )
            if any(have[f] < k for f, k in want.items()):
                raise ValueError("inconsistent observation: visible back faces not in the deck")
        self._before = color_before_last_play(obs)
        self._checks: list[LastPlay] = []
        self._past: list[PastPlay] = []
        self._particles = max(0, int(particles))
        self._pool_deals: list[tuple[list[list[int]], list[int]]] = []
        self._pool_cum: list[float] = []
        #: Metropolis-Hastings steps between samples (0: no chain)
        self._mcmc = 0
        #: the opponent model's chance of a play other than the heuristic's
        self.play_eps = PLAY_EPS
        self.inexact_eps = INEXACT_EPS
        self._chain: Chain | None = None
        self._chain_plays: list[PastPlay] = []
        if infer and not self._random_pairing and not v.flex:
            if mcmc > 0:
                self._mcmc = int(mcmc)
                self._chain_plays = past_plays(obs)
            elif self._particles:
                self._past = past_plays(obs)
            else:
                self._checks = [lp for lp in last_plays(obs) if lp is not None]
        self._template = self._build(random.Random(0))
        self._core_template: Game | None = None
        self._core_made = False

    # ------------------------------------------------------------------ sampling

    def _plan(self, infer: bool) -> None:
        """Precompute the card-level deal: for each constrained hidden card (a
        draw inference), the positions in the pool of the cards it may be."""
        obs = self.obs
        v = self.variant
        cs = v.cards.cards
        other = 1 - self.side
        pool = self._pool
        self._back: list[Face | None] = (
            [cs[c].face(other) for c in pool] if v.two_sided else [None] * len(pool)
        )
        infs = hand_inferences(obs) if infer else [[] for _ in range(obs.players)]
        self.inferences = infs
        # per seat: candidate lists, one per constrained card, most constrained
        # first; with every inference, and with the certain ones only
        self._plans: list[tuple[list[list[int]], list[list[int]], float]] = []
        for s in range(obs.players):
            rules = [r for r in infs[s] if r.old > 0] if self.slots[s] else []
            full = self._plan_for(s, rules)
            sure_rules = [r for r in rules if r.trust >= 1.0]
            soft = [r.trust for r in rules if r.trust < 1.0]
            sure = full if not soft else self._plan_for(s, sure_rules)
            self._plans.append((full, sure, min(soft) if soft else 1.0))
        # a colour each player named: one of its cards is dealt from that colour
        # (a card that fits every inference, so it may take any constrained place)
        named = named_colors(obs) if infer else [None] * obs.players
        self._named: list[list[int]] = []
        for s in range(obs.players):
            nc = named[s]
            if nc is None or not self.slots[s] or len(self.slots[s]) < 2:
                self._named.append([])
                continue
            nside, ncol = nc
            rules = [r for r in infs[s] if r.old > 0]
            self._named.append(
                [
                    k
                    for k, c in enumerate(pool)
                    if v.color[nside][c] == ncol and all(r.allows(v, c) for r in rules)
                ]
            )
        if v.two_sided:
            self._by_back: dict[Face, list[int]] = {}
            for k, b in enumerate(self._back):
                assert b is not None
                self._by_back.setdefault(b, []).append(k)
            # the same groups as a list, and where each back face's group is
            # (a deal then hashes no face: hashing them cost most of a Flip deal)
            self._back_groups = list(self._by_back.values())
            self._back_index = {f: i for i, f in enumerate(self._by_back)}
            self._need0 = [Counter(f for f in sl if f is not None) for sl in self.slots]

    def _plan_for(self, s: int, rules: list[HandInference]) -> list[list[int]]:
        v = self.variant
        pool = self._pool
        free = len(self.slots[s])
        known = len(self.known[s])
        plan: list[list[int]] = []
        cache: dict[tuple[int, ...], list[int]] = {}
        for i in range(free):
            active = tuple(j for j, r in enumerate(rules) if i < r.old - known)
            if not active:
                break
            cands = cache.get(active)
            if cands is None:
                sel = [rules[j] for j in active]
                cands = cache[active] = [
                    k for k, c in enumerate(pool) if all(r.allows(v, c) for r in sel)
                ]
            plan.append(cands)
        return plan

    def _take(
        self,
        cands: list[int],
        taken: bytearray,
        backs: Counter[Face] | None,
        hand: list[int],
        rnd: Callable[[], float],
    ) -> None:
        """Deal ``hand`` one card of the pool positions ``cands`` not dealt yet
        (in Flip, with a back face the hand still needs); none if none is left."""
        size = len(cands)
        if not size:
            return
        start = int(rnd() * size)
        for k in range(size):
            pos = cands[(start + k) % size]
            if taken[pos]:
                continue
            if backs is not None:
                b = self._back[pos]
                assert b is not None
                if backs[b] <= 0:
                    continue
                backs[b] -= 1
            taken[pos] = 1
            hand.append(self._pool[pos])
            return

    def _deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Hidden hands (card ids, for seats other than the observer) and the
        draw pile (internal order: top last)."""
        if self._random_pairing:
            return self._deal_faces(rng)
        n = self.obs.players
        pool = self._pool
        hands: list[list[int]] = [list(k) for k in self.known]
        flip = self.variant.two_sided
        rnd = rng.random
        taken = bytearray(len(pool))
        need: list[Counter[Face]] = []
        if flip:
            need = [c.copy() for c in self._need0]
        # 1. the cards that draw inferences constrain (best effort: a card with
        #    no candidate left is dealt unconstrained below)
        for s in range(n):
            backs = need[s] if flip else None
            full, sure, trust = self._plans[s]
            plan = full if trust >= 1.0 or rnd() < trust else sure
            named = self._named[s]
            if named and rnd() < NAMED_TRUST:
                before = len(hands[s])
                self._take(named, taken, backs, hands[s], rnd)
                plan = plan[len(hands[s]) - before :]
            for cands in plan:
                self._take(cands, taken, backs, hands[s], rnd)
        # 2. the rest, uniformly
        if not flip:
            # (the cards themselves are shuffled: the same permutation, so the
            # same deal as shuffling their positions)
            order = [c for c, t in zip(pool, taken, strict=True) if not t]
            _shuffle(order, rng)
            i = 0
            for s in range(n):
                k = len(self.slots[s]) + len(self.known[s]) - len(hands[s])
                if k > 0:
                    hands[s] += order[i : i + k]
                    i += k
            return hands, order[i : i + self.draw_size]
        groups = [[k for k in ks if not taken[k]] for ks in self._back_groups]
        where = self._back_index
        # only the groups a hand (or the draw pile's top) takes from need an
        # order: the others go to the draw pile, shuffled below as a whole
        wanted = [where[f] for s in range(n) for f in need[s]]
        if self.draw_top is not None:
            wanted.append(where[self.draw_top])
        for i in sorted(set(wanted)):
            _shuffle(groups[i], rng)
        for s in range(n):
            for f, k in need[s].items():
                g = groups[where[f]]
                for _ in range(k):
                    hands[s].append(pool[g.pop()])
        top = pool[groups[where[self.draw_top]].pop()] if self.draw_top is not None else -1
        rest = [pool[k] for ks in groups for k in ks]
        _shuffle(rest, rng)
        del rest[self.draw_size - (top >= 0) :]
        if top >= 0:
            rest.append(top)
        return hands, rest

    def _deal_faces(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Flip with an unknown pairing: match unseen light and dark faces at random,
        keeping every visible back face."""
        n = self.obs.players
        cs = self.variant.cards
        idx = cs.index
        side = self.side
        active = (self._lights if side == 0 else self._darks)[:]
        passive = (self._darks if side == 0 else self._lights)[:]
        _shuffle(active, rng)

        def card(act: Face, back: Face) -> int:
            light, dark = (act, back) if side == 0 else (back, act)
            return idx[Card(light, dark)]

        for f in [f for s in self.slots for f in s] + (
            [self.draw_top] if self.draw_top is not None else []
        ):
            passive.remove(f)  # type: ignore[arg-type]  # Flip slots always hold a face
        _shuffle(passive, rng)
        hands: list[list[int]] = [list(k) for k in self.known]
        for s in range(n):
            for f in self.slots[s]:
                assert f is not None
                hands[s].append(card(active.pop(), f))
        top = card(active.pop(), self.draw_top) if self.draw_top is not None else -1
        rest = [card(a, b) for a, b in zip(active, passive, strict=True)]
        del rest[self.draw_size - (top >= 0) :]
        if top >= 0:
            rest.append(top)
        return hands, rest

    def _build(self, rng: random.Random) -> Game:
        """A full game from one deal, every public fact of the observation restored."""
        obs = self.obs
        v = self.variant
        cs = v.cards.cards
        hands_ids, draw = self._deal(rng)
        me = self.seat
        hands: list[list[Card]] = [
            list(obs.hand) if s == me else [cs[c] for c in hands_ids[s]] for s in range(obs.players)
        ]
        uno: dict[int, UnoState | str] = {s: u for s, u in enumerate(obs.uno) if u != "none"}
        kwargs: dict[str, Any] = {}
        if v.flex:
            kwargs["powers"] = obs.powers
        g = Game.setup(
            v,
            obs.players,
            obs.options,
            hands=hands,
            draw=[cs[c] for c in reversed(draw)],
            discard=obs.discard,
            # setup wants a colour under a wild top even while one is being chosen
            color=obs.color if obs.color is not None else v.colors(obs.side)[0],
            current=obs.current,
            dealer=obs.dealer,
            direction=obs.direction,
            side=obs.side,
            phase=obs.phase,
            drawn=obs.drawn,
            uno=uno,
            scores=obs.scores,
            seed=rng.getrandbits(48),
            events=False,
            **kwargs,
        )
        f: dict[str, Any] = {"round_no": obs.round}
        self._restore_pending(g, f)
        g = g.replace(**f)
        return g.replace(**self._challenge_truth(g))

    def _restore_pending(self, g: Game, f: dict[str, Any]) -> None:
        """Decisions in progress that :meth:`Game.setup` cannot express alone
        (the fields to put into ``g``, added to ``f``)."""
        obs = self.obs
        v = self.variant
        side = obs.side
        top = g.discard[-1] if g.discard else -1
        if obs.phase == "AWAIT_COLOR":
            f["color"] = -1 if obs.color is None else g.color
            if obs.color_reason == "first_card" or (
                obs.options.flipExposedWildChooser == "next_player"
            ):
                f["color_next"] = obs.current
            else:
                f["color_next"] = (obs.current + obs.direction) % obs.players
            f["color_reason"] = obs.color_reason or g.color_reason
        if obs.pending_draw:
            f["pending"] = obs.pending_draw
            f["stack_class"] = v.stack_class[side][top]
            f["stack_amount"] = v.draw_amount[side][top]
            if obs.phase == "AWAIT_TURN" and any(isinstance(a, Challenge) for a in obs.legal):
                f["ch_offender"] = _last_player(obs)
                f["ch_card"] = top
                f["ch_after"] = (obs.current + obs.direction) % obs.players
                f["ch_after_success"] = obs.current
        if obs.phase == "AWAIT_CHALLENGE":
            off = obs.challenge_offender
            if off is None:
                off = _last_player(obs)
            f["ch_offender"] = off
            f["ch_card"] = top
            n = obs.players
            nxt = (off + obs.direction) % n
            if _last_play_flex(obs):  # a targeted Flex Wild Draw Four
                f["ch_after"] = f["ch_after_success"] = nxt
            else:
                f["ch_after"], f["ch_after_success"] = (
                    (obs.current + obs.direction) % n,
                    obs.current,
                )

    def _challenge_truth(self, g: Game) -> dict[str, Any]:
        """Whether the pending restricted card was legal, in this deal (the
        field to put into ``g``; none when no challenge is pending)."""
        if g.ch_offender < 0 or not (g.phase == _CH or (g.phase == _T and g.pending)):
            return {}
        before = self._before
        return {"ch_legal": before < 0 or not g.holds_match(g.ch_offender, before)}

    def sample(self, rng: random.Random) -> Game:
        """One full game consistent with the observation (``events=False``).

        With inferences on, a deal in which another player's last play is not
        what the heuristic's rules would have chosen with that hand is kept
        only with probability :data:`OFF_POLICY` (a few redeals at most)."""
        hands, draw = self._sample_deal(rng)
        return self.with_deal(hands, draw, rng.getrandbits(48))

    def sample_core(self, rng: random.Random) -> Game:
        """:meth:`sample`'s game (the same deal from the same ``rng``), on the
        C core: ``self.sample(rng)``, made without building a new
        ``Game`` (a copy of the position on the core with the hidden cards
        replaced), which is what a search plays its rollouts on."""
        hands, draw = self._sample_deal(rng)
        seed = rng.getrandbits(48)
        core = self._core
        if core is None:
            return self.with_deal(hands, draw, seed)
        c = core.copy()
        c._seed = seed
        me = self.seat
        c._g.set_deal([None if s == me else h for s, h in enumerate(hands)], draw, seed)
        return c

    def race_spec(self) -> tuple[Any, ...] | None:
        """What a sample must respect, for the search in C
        (``_core.Game.race``, ``src/unokit/_core/search.c``), which deals the
        samples the way :meth:`_sample_deal` does: the unseen cards, the known
        and unknown cards of each hand, the draw inferences' plans, the named
        colours, Flip's back faces, the last plays to check. ``None`` when the
        samples need Python: the chain or particle posteriors, Flip's random
        pairing, or a position the core copy cannot hold (:attr:`_core`)."""
        if self._mcmc or self._past or self._random_pairing or self._core is None:
            return None
        n = self.obs.players
        if self.variant.two_sided:
            faces = list(self._by_back)
            back = [self._back_index[b] for b in self._back]  # type: ignore[index]
            need = [[self._need0[s].get(f, 0) for f in faces] for s in range(n)]
            top = self._back_index[self.draw_top] if self.draw_top is not None else -1
            groups = len(faces)
        else:
            back, need, top, groups = [], [[] for _ in range(n)], -1, 0
        checks = [
            (lp.seat, lp.card, lp.side, lp.color, lp.acc, lp.next_size, lp.threat)
            for lp in self._checks
        ]
        return (self.seat, self._pool, back, groups, [list(k) for k in self.known],
                [len(sl) for sl in self.slots], need, self._plans, self._named, NAMED_TRUST,
                self.draw_size, top, checks, OFF_POLICY)  # fmt: skip

    @property
    def _core(self) -> Game | None:
        """The position on the core, with the observer's hand, when a deal can
        be put into it as it is: not when a pending challenge's truth depends
        on the deal, nor with Flip's random pairing (its card tables depend on
        the sample's seed)."""
        if self._core_made:
            return self._core_template
        self._core_made = True
        g = self._template
        challenge = g.ch_offender >= 0 and (g.phase == _CH or (g.phase == _T and g.pending))
        if not challenge and self.obs.options.flipPairing != "random_seeded":
            self._core_template = g.copy()
        return self._core_template

    def _sample_deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The hidden hands and draw pile of one sample (see :meth:`sample`)."""
        if self._mcmc:
            return self._chain_deal(rng)
        if self._past:
            return self._posterior_deal(rng)
        hands, draw = self._deal(rng)
        checks = self._checks
        if checks:
            v = self.variant
            for _ in range(3):
                off = sum(1 for lp in checks if not lp.agrees(v, hands[lp.seat]))
                if not off or rng.random() < OFF_POLICY**off:
                    break
                hands, draw = self._deal(rng)
        return hands, draw

    def _chain_deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The next deal of the Markov chain over the hidden cards
        (:mod:`unokit.bots.posterior`), started from an ordinary deal at the
        first sample of the decision; the draw pile is shuffled afresh (its
        top keeps its back face in Flip)."""
        chain = self._chain
        if chain is None:
            hands, draw = self._deal(rng)
            rest: Counter[int] = Counter(self._pool)
            for s, h in enumerate(hands):
                rest.subtract(h[len(self.known[s]) :])
            draws = [[r for r in inf if r.trust >= 1.0 and r.old > 0] for inf in self.inferences]
            v = self.variant
            backs: list[Any] | None = None
            if v.two_sided:
                other = 1 - self.side
                backs = [c.face(other) for c in v.cards.cards]
            chain = self._chain = Chain(v, hands, [len(k) for k in self.known],
                                        sorted(rest.elements()), draws, self._chain_plays,
                                        backs, play_eps=self.play_eps,
                                        inexact_eps=self.inexact_eps)  # fmt: skip
            chain.step(rng, max(MCMC_BURN, 10 * self._mcmc))
        else:
            chain.step(rng, self._mcmc)
        hands, rest_ids = chain.state()
        _shuffle(rest_ids, rng)
        top = self.draw_top
        if top is None or not self.draw_size:
            return hands, rest_ids[: self.draw_size]
        assert chain.backs is not None
        k = next(i for i, c in enumerate(rest_ids) if chain.backs[c] == top)
        t = rest_ids.pop(k)
        draw = rest_ids[: self.draw_size - 1]
        draw.append(t)
        return hands, draw

    def _posterior_deal(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """A deal drawn from a pool of ``particles`` deals weighted by how well
        they explain every earlier play of the other seats
        (:func:`~unokit.bots.inference.past_plays`): :data:`OFF_POLICY` to the
        power of the plays the heuristic's rules would not have made with the
        sampled hand (importance resampling; the pool is dealt once per
        decision). The draw pile is shuffled again for every sample (its top
        kept in Flip, where its back face is seen)."""
        if not self._pool_deals:
            v = self.variant
            past = self._past
            total = 0.0
            for _ in range(self._particles):
                hands, draw = self._deal(rng)
                off = 0
                for pp in past:
                    if not pp.fits(v, hands[pp.seat]):
                        off += 1
                total += OFF_POLICY**off
                self._pool_deals.append((hands, draw))
                self._pool_cum.append(total)
        cum = self._pool_cum
        x = rng.random() * cum[-1]
        lo, hi = 0, len(cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cum[mid] > x:
                hi = mid
            else:
                lo = mid + 1
        hands, draw = self._pool_deals[lo]
        draw = draw[:]
        if self.draw_top is not None and draw:
            top = draw.pop()
            _shuffle(draw, rng)
            draw.append(top)
        else:
            _shuffle(draw, rng)
        return hands, draw

    def with_deal(self, hands: list[list[int]], draw: list[int], seed: int) -> Game:
        """The game of one deal: the other seats' ``hands`` (card ids; the
        observer's entry is ignored), the ``draw`` pile (ids, top last) and the
        ``seed`` of later reshuffles."""
        t = self._template
        me = self.seat
        new_hands = [t.hands[s] if s == me else hands[s] for s in range(t.n)]
        g = t.replace(seed=seed, hands=new_hands, draw=draw, shuffles=0)
        truth = self._challenge_truth(g)
        return g.replace(**truth) if truth else g


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place, uniformly, from one 64-bit draw of ``rng``
    (the core's Fisher-Yates: a sample's shuffles cost a few microseconds
    where :meth:`random.Random.shuffle` took most of ``hard``'s time)."""
    _core.shuffle(items, rng.getrandbits(64))
