"""Determinization: full game states sampled from what one seat has observed.

A search bot never sees the real game. From an :class:`~unokit.observation.Observation`
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

Within those constraints the unseen cards are dealt uniformly at random (the
seat draws no inference from the opponents' choices, e.g. that a player who
drew had nothing playable: see docs/bots.md).

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

from unokit.actions import Challenge
from unokit.cards import Card, Face
from unokit.decks import flip_deck
from unokit.events import (
    CardTurned,
    Challenged,
    ColorChosen,
    Drew,
    Flipped,
    HandsSwapped,
    Played,
    PowersChanged,
    Reshuffled,
    Reversed,
    RoundStarted,
    Skipped,
    UnoCalled,
)
from unokit.game import _CH, _T, Game, UnoState
from unokit.observation import Observation
from unokit.variants import WILD_BIT, get_variant

__all__ = [
    "Determinizer",
    "HandInference",
    "known_cards",
    "hand_inferences",
    "WILD_DRAW_TRUST",
    "WILD_TRUST",
    "LATE_BLUFF_TRUST",
    "NAMED_TRUST",
    "OFF_POLICY",
    "LastPlay",
    "last_plays",
    "named_colors",
    "color_before_last_play",
]


def known_cards(obs: Observation) -> list[Counter[Card]]:
    """Cards the seat knows to be in each other hand (empty for its own seat).

    A hand shown to this seat after its challenge is known; each card that
    player plays afterwards is struck off (if a copy was known), and hands
    moved by the 7-0 rule carry their knowledge with them."""
    n = obs.players
    known: list[Counter[Card]] = [Counter() for _ in range(n)]
    me = obs.seat
    for e in obs.history:
        if isinstance(e, RoundStarted):
            known = [Counter() for _ in range(n)]
        elif isinstance(e, Challenged):
            if e.revealed is not None and e.seat == me:
                known[e.offender] = Counter(e.revealed)
        elif isinstance(e, Played):
            k = known[e.seat]
            if k[e.card] > 0:
                k[e.card] -= 1
                if not k[e.card]:
                    del k[e.card]
        elif isinstance(e, HandsSwapped):
            moved = [Counter(known[src]) for src in e.sources]
            for dst, k in zip(e.seats, moved, strict=True):
                known[dst] = k
    if obs.revealed is not None and not any(isinstance(e, Challenged) for e in obs.history):
        # no history kept: the reveal itself is still in the observation
        off, cards = obs.revealed
        known[off] = Counter(cards)
    if me is not None:
        known[me] = Counter()
    return known


def color_before_last_play(obs: Observation) -> int:
    """The colour in force just before the last card was played (-1 if unknown),
    replayed from the history: what decides whether a restricted wild draw
    was legal."""
    color = -1
    before = -1
    side = 0
    for e in obs.history:
        if isinstance(e, RoundStarted):
            color, before, side = -1, -1, 0
        elif isinstance(e, CardTurned) and e.reason == "start":
            f = e.card.face(side)
            color = -1 if f.color is None else int(f.color)
        elif isinstance(e, Played):
            before = color
            f = e.card.face(side)
            if e.color is not None:
                color = int(e.color)
            elif f.color is not None:
                color = int(f.color)
        elif isinstance(e, ColorChosen):
            color = int(e.color)
        elif isinstance(e, Flipped):
            side = e.side
            f = e.top.face(side)
            color = -1 if f.color is None else int(f.color)
    if before >= 0 or obs.history:
        return before
    if len(obs.discard) >= 2:  # no history: the colour printed on the card below
        c = obs.discard[-2].face(obs.side).color
        return -1 if c is None else int(c)
    return -1


#: how far a restricted wild draw is taken as proof that its player held no card
#: of the colour in force (people and the bots here rarely bluff; a challenge
#: that failed makes it certain, one that succeeded drops it)
WILD_DRAW_TRUST = 0.85


#: how far playing a wild is taken as proof that its player had no other playable card
WILD_TRUST = 0.85
#: the same, when the next player had two cards or fewer (a time to bluff)
LATE_BLUFF_TRUST = 0.3


class HandInference:
    """A fact about a player's hand, inferred from its own choices.

    ``old`` of the player's current cards (at least) were already in its hand
    at that moment, and none of them matches ``acc`` on ``side`` (nor, with
    ``flex``, on its flex side). ``trust`` is the share of samples that respect
    it (1.0: always).

    * A voluntary draw: the player held nothing playable (``acc`` is what the
      discard pile accepted then).
    * A restricted wild draw (Wild Draw Four...): the player held no card of
      the colour in force before it (``acc`` is that colour), unless it bluffed.
    * Any wild: the player had no other card to play (players keep wilds for
      need; the heuristic bot always does).
    """

    __slots__ = ("old", "side", "acc", "flex", "trust")

    def __init__(self, old: int, side: int, acc: int, flex: bool, trust: float = 1.0) -> None:
        self.old, self.side, self.acc, self.flex, self.trust = old, side, acc, flex, trust

    def allows(self, variant: Any, cid: int) -> bool:
        """Whether card ``cid`` could be one of those old cards."""
        if variant.mask[self.side][cid] & self.acc:
            return False
        return not (self.flex and variant.flexmask[cid] & self.acc)

    def __repr__(self) -> str:
        return (
            f"HandInference(old={self.old}, side={self.side}, acc={self.acc:#x}, "
            f"trust={self.trust})"
        )


def _history_start(obs: Observation) -> tuple[int, int, int, list[int], int]:
    """Side, colour, top card id, hand sizes and direction when the observed
    history starts: a round's start, or a set-up position's (reconstructed
    backwards from the present; colour and top unknown, -1, if piles were
    reshuffled or flipped since)."""
    hist = obs.history
    v = get_variant(obs.variant)
    sizes = list(obs.hand_sizes)
    direction = obs.direction
    side, color, top = 0, -1, -1
    if not hist or isinstance(hist[0], RoundStarted):
        return side, color, top, sizes, 1
    for e in hist:
        if isinstance(e, Drew):
            sizes[e.seat] -= e.count
        elif isinstance(e, Played):
            sizes[e.seat] += 1
        elif isinstance(e, Reversed):
            direction = -direction
    if not any(isinstance(e, Reshuffled | Flipped | PowersChanged) for e in hist):
        played = sum(1 for e in hist if isinstance(e, Played))
        if len(obs.discard) > played:
            first = obs.discard[len(obs.discard) - 1 - played]
            top = v.cards.index[first]
            f = first.face(obs.side)
            color = -1 if f.color is None else int(f.color)
            side = obs.side
    return side, color, top, sizes, direction


def hand_inferences(obs: Observation) -> list[list[HandInference]]:
    """Per seat, what its voluntary draws and restricted wild draws of this
    round imply about its current hand (see :class:`HandInference`).

    A player who drew instead of playing is assumed to have held nothing
    playable — what every bot here does, and what people nearly always do.
    ``old`` counts the cards it must still hold from then: its hand size now
    minus every card it drew since (those are new, whatever it played)."""
    n = obs.players
    v = get_variant(obs.variant)
    o = obs.options
    idx = v.cards.index
    me = obs.seat
    wd_trust = 1.0 if o.noBluff else WILD_DRAW_TRUST
    # per seat: [side, acc, flex, drawn since, trust, kind]
    marks: list[list[list[Any]]] = [[] for _ in range(n)]
    prev_top = -1
    powers = [True] * n
    hist = obs.history
    side, color, top, sizes, direction = _history_start(obs)
    for e in hist:
        if isinstance(e, RoundStarted):
            marks = [[] for _ in range(n)]
            side, color, top = 0, -1, -1
            powers = [True] * n
            sizes = list(e.hand_sizes)
            direction = 1
        elif isinstance(e, CardTurned):
            if e.reason == "start":
                top = idx[e.card]
                f = e.card.face(0)
                color = -1 if f.color is None else int(f.color)
        elif isinstance(e, Reversed):
            direction = e.direction
        elif isinstance(e, Played):
            prev_top, top = top, idx[e.card]
            # near the end of a round people (and the heuristic) bluff wild draws
            late = sizes[(e.seat + direction) % n] <= 2
            sizes[e.seat] -= 1
            restricted = v.restricted[side][top] and (
                not e.flex or o.flexFlexSideWD4Restricted
            )
            if restricted and e.seat != me and color >= 0:
                # the colour only: what players check (that wilds may count as a
                # match is a rule the samples' own legality test applies)
                acc = 1 << color
                flexcols = bool(v.flex and o.flexFlexColorsCountAsMatch)
                trust = min(wd_trust, LATE_BLUFF_TRUST) if late else wd_trust
                marks[e.seat].append([side, acc, flexcols, 0, trust, "wild_draw"])
            if (
                v.mask[side][top] & WILD_BIT
                and not e.flex
                and not e.jump_in
                and e.seat != me
                and color >= 0
                and prev_top >= 0
            ):
                # a wild is the card people keep: it was played for want of another
                acc = (1 << color) | v.topkey[side][prev_top]
                flex = bool(v.flex and powers[e.seat])
                trust = min(WILD_TRUST, LATE_BLUFF_TRUST) if late else WILD_TRUST
                marks[e.seat].append([side, acc, flex, 0, trust, "wild"])
            f = e.card.face(side)
            if e.color is not None:
                color = int(e.color)
            elif f.color is not None:
                color = int(f.color)
        elif isinstance(e, Challenged):
            # the challenge settles whether the last restricted card was a bluff
            ms = marks[e.offender]
            last = [m for m in ms if m[5] == "wild_draw"][-1:]
            if last and e.success:  # a bluff: neither of its inferences holds
                marks[e.offender] = [m for m in ms if m[3] or m[5] == "draw"]
            elif last:
                last[0][4] = 1.0
        elif isinstance(e, ColorChosen):
            color = int(e.color)
        elif isinstance(e, Flipped):
            side = e.side
            top = idx[e.top]
            f = e.top.face(side)
            color = -1 if f.color is None else int(f.color)
        elif isinstance(e, PowersChanged):
            powers = list(e.powers)
        elif isinstance(e, HandsSwapped):
            moved = [marks[src] for src in e.sources]
            moved_sizes = [sizes[src] for src in e.sources]
            for dst, ms, size in zip(e.seats, moved, moved_sizes, strict=True):
                marks[dst] = ms
                sizes[dst] = size
        elif isinstance(e, Drew):
            s = e.seat
            sizes[s] += e.count
            if e.reason == "draw" and s != me and color >= 0 and top >= 0:
                acc = (1 << color) | v.topkey[side][top] | WILD_BIT
                flex = bool(v.flex and powers[s])
                marks[s].append([side, acc, flex, 0, 1.0, "draw"])
            for mark in marks[s]:
                mark[3] += e.count
    out: list[list[HandInference]] = []
    for s in range(n):
        size = obs.hand_sizes[s]
        out.append(
            [
                HandInference(size - m[3], m[0], m[1], bool(m[2]), float(m[4]))
                for m in marks[s]
                if size - m[3] > 0 and s != me
            ]
        )
    return out


#: how far a colour a player named (with a wild) is taken as a colour it holds
NAMED_TRUST = 0.75


def named_colors(obs: Observation) -> list[tuple[int, int] | None]:
    """Per seat, the colour it last named with a wild, as ``(side, colour)``, if
    it has played no card of that colour since: people (and the bots here)
    name a colour they hold, so it likely still holds one."""
    n = obs.players
    me = obs.seat
    named: list[tuple[int, int] | None] = [None] * n
    side = 0
    for e in obs.history:
        if isinstance(e, RoundStarted):
            named = [None] * n
            side = 0
        elif isinstance(e, Played):
            if e.color is not None and e.seat != me:
                named[e.seat] = (side, int(e.color))
            else:
                nc = named[e.seat]
                if nc is not None and e.card.face(nc[0]).color == nc[1]:
                    named[e.seat] = None
        elif isinstance(e, ColorChosen):
            if e.seat != me:
                named[e.seat] = (side, int(e.color))
        elif isinstance(e, Flipped):
            side = e.side
        elif isinstance(e, HandsSwapped):
            moved = [named[src] for src in e.sources]
            for dst, nc in zip(e.seats, moved, strict=True):
                named[dst] = nc
    if me is not None:
        named[me] = None
    return named


#: how likely a player is to have made its last play against what the heuristic
#: rules would choose with the hand a sample gives it
OFF_POLICY = 0.3


class LastPlay:
    """A player's last card played from its hand on its turn, and what it saw
    then; with no card drawn since, its hand then was its hand now plus that
    card. :meth:`agrees` says whether the heuristic's rules
    (:func:`~unokit.bots.rollout.sensible_move`) would have played it."""

    __slots__ = ("seat", "card", "side", "color", "acc", "next_size", "threat")

    def __init__(
        self, seat: int, card: int, side: int, color: int, acc: int, next_size: int, threat: int
    ) -> None:
        self.seat, self.card, self.side, self.color = seat, card, side, color
        self.acc, self.next_size, self.threat = acc, next_size, threat

    def agrees(self, variant: Any, hand: list[int]) -> bool:
        """Whether ``hand`` (the player's hand now) makes that play the rules' choice."""
        v = variant
        side = self.side
        mask = v.mask[side]
        colors = v.color[side]
        points = v.points[side]
        kinds = v.kind[side]
        before = hand + [self.card]
        held = [0] * 8
        for c in before:
            if colors[c] >= 0:
                held[colors[c]] += 1
        acc = self.acc
        attack = self.next_size <= 2
        best = -1e9
        chosen = -1e9
        for c in set(before):
            if not mask[c] & acc:
                continue
            if mask[c] & WILD_BIT:
                sc = -30.0
                if v.restricted[side][c]:
                    if held[self.color] > 0 and not attack:
                        sc -= 100
                    elif attack:
                        sc += 45
            else:
                sc = 2.0 * held[colors[c]] + points[c] / 10
                if attack and kinds[c] in _ATTACK_KINDS:
                    sc += 25
            if kinds[c] == _FLIP_KIND:
                sc += 10 if self.threat <= 2 else -2
            if sc > best:
                best = sc
            if c == self.card:
                chosen = sc
        return chosen >= best - 1e-9


_ATTACK_KINDS = frozenset({1, 2, 3, 4, 5, 7, 8, 9, 10})
_FLIP_KIND = 6


def last_plays(obs: Observation) -> list[LastPlay | None]:
    """Per other seat, its last play from hand on its own turn (not a card just
    drawn, not a flex side, not a jump-in), if it has drawn no card since."""
    n = obs.players
    v = get_variant(obs.variant)
    idx = v.cards.index
    me = obs.seat
    out: list[LastPlay | None] = [None] * n
    hist = obs.history
    side, color, top, sizes, direction = _history_start(obs)
    last: Any = None
    for e in hist:
        if isinstance(e, RoundStarted):
            out = [None] * n
            sizes = list(e.hand_sizes)
            side, color, top, direction = 0, -1, -1, 1
        elif isinstance(e, CardTurned):
            if e.reason == "start":
                top = idx[e.card]
                f = e.card.face(0)
                color = -1 if f.color is None else int(f.color)
        elif isinstance(e, Reversed):
            direction = e.direction
        elif isinstance(e, Played):
            cid = idx[e.card]
            from_draw = isinstance(last, Drew) and last.seat == e.seat
            if e.seat != me and not e.flex and not e.jump_in and not from_draw and color >= 0:
                acc = (1 << color) | v.topkey[side][top] | WILD_BIT
                nxt = sizes[(e.seat + direction) % n]
                threat = min(sizes[t] for t in range(n) if t != e.seat)
                out[e.seat] = LastPlay(e.seat, cid, side, color, acc, nxt, threat)
            else:
                out[e.seat] = None
            sizes[e.seat] -= 1
            top = cid
            f = e.card.face(side)
            if e.color is not None:
                color = int(e.color)
            elif f.color is not None:
                color = int(f.color)
        elif isinstance(e, ColorChosen):
            color = int(e.color)
        elif isinstance(e, Flipped):
            side = e.side
            top = idx[e.top]
            f = e.top.face(side)
            color = -1 if f.color is None else int(f.color)
        elif isinstance(e, Drew):
            sizes[e.seat] += e.count
            out[e.seat] = None
        elif isinstance(e, HandsSwapped):
            out = [None] * n
            moved = [sizes[src] for src in e.sources]
            for dst, size in zip(e.seats, moved, strict=True):
                sizes[dst] = size
        if not isinstance(e, UnoCalled | PowersChanged | Skipped):
            last = e
    if me is not None:
        out[me] = None
    return out


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

    def __init__(self, obs: Observation, infer: bool = True) -> None:
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
        if infer and not self._random_pairing and not v.flex:
            self._checks = [lp for lp in last_plays(obs) if lp is not None]
        self._template = self._build(random.Random(0))

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
            need = [Counter(f for f in self.slots[s] if f is not None) for s in range(n)]
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
            order = [k for k in range(len(pool)) if not taken[k]]
            rng.shuffle(order)
            i = 0
            for s in range(n):
                k = len(self.slots[s]) + len(self.known[s]) - len(hands[s])
                if k > 0:
                    hands[s] += [pool[j] for j in order[i : i + k]]
                    i += k
            return hands, [pool[j] for j in order[i : i + self.draw_size]]
        groups = {f: [k for k in ks if not taken[k]] for f, ks in self._by_back.items()}
        for ks in groups.values():
            rng.shuffle(ks)
        for s in range(n):
            for f, k in need[s].items():
                g = groups[f]
                for _ in range(k):
                    hands[s].append(pool[g.pop()])
        top = pool[groups[self.draw_top].pop()] if self.draw_top is not None else -1
        rest = [pool[k] for ks in groups.values() for k in ks]
        rng.shuffle(rest)
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
        rng.shuffle(active)

        def card(act: Face, back: Face) -> int:
            light, dark = (act, back) if side == 0 else (back, act)
            return idx[Card(light, dark)]

        for f in [f for s in self.slots for f in s] + (
            [self.draw_top] if self.draw_top is not None else []
        ):
            passive.remove(f)  # type: ignore[arg-type]  # Flip slots always hold a face
        rng.shuffle(passive)
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
            list(obs.hand) if s == me else [cs[c] for c in hands_ids[s]]
            for s in range(obs.players)
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
        g.round_no = obs.round
        self._restore_pending(g)
        return g

    def _restore_pending(self, g: Game) -> None:
        """Decisions in progress that :meth:`Game.setup` cannot express alone."""
        obs = self.obs
        v = self.variant
        side = obs.side
        top = g.discard[-1] if g.discard else -1
        if obs.phase == "AWAIT_COLOR":
            g.color = -1 if obs.color is None else g.color
            if obs.color_reason == "first_card" or (
                obs.options.flipExposedWildChooser == "next_player"
            ):
                g.color_next = obs.current
            else:
                g.color_next = (obs.current + obs.direction) % obs.players
            g.color_reason = obs.color_reason or g.color_reason
        if obs.pending_draw:
            g.pending = obs.pending_draw
            g.stack_class = v.stack_class[side][top]
            g.stack_amount = v.draw_amount[side][top]
            if obs.phase == "AWAIT_TURN" and any(isinstance(a, Challenge) for a in obs.legal):
                g.ch_offender = _last_player(obs)
                g.ch_card = top
                g.ch_after = (obs.current + obs.direction) % obs.players
                g.ch_after_success = obs.current
        if obs.phase == "AWAIT_CHALLENGE":
            off = obs.challenge_offender
            if off is None:
                off = _last_player(obs)
            g.ch_offender = off
            g.ch_card = top
            n = obs.players
            nxt = (off + obs.direction) % n
            if _last_play_flex(obs):  # a targeted Flex Wild Draw Four
                g.ch_after = g.ch_after_success = nxt
            else:
                g.ch_after, g.ch_after_success = (obs.current + obs.direction) % n, obs.current
        self._set_challenge_truth(g)

    def _set_challenge_truth(self, g: Game) -> None:
        """Whether the pending restricted card was legal, in this deal."""
        if g.ch_offender < 0 or not (g.phase == _CH or (g.phase == _T and g.pending)):
            return
        before = self._before
        g.ch_legal = before < 0 or not g._holds_match(g.ch_offender, before, -1)

    def sample(self, rng: random.Random) -> Game:
        """One full game consistent with the observation (``events=False``).

        With inferences on, a deal in which another player's last play is not
        what the heuristic's rules would have chosen with that hand is kept
        only with probability :data:`OFF_POLICY` (a few redeals at most)."""
        hands, draw = self._deal(rng)
        checks = self._checks
        if checks:
            v = self.variant
            for _ in range(3):
                off = sum(1 for lp in checks if not lp.agrees(v, hands[lp.seat]))
                if not off or rng.random() < OFF_POLICY**off:
                    break
                hands, draw = self._deal(rng)
        return self.with_deal(hands, draw, rng.getrandbits(48))

    def with_deal(self, hands: list[list[int]], draw: list[int], seed: int) -> Game:
        """The game of one deal: the other seats' ``hands`` (card ids; the
        observer's entry is ignored), the ``draw`` pile (ids, top last) and the
        ``seed`` of later reshuffles."""
        g = self._template.copy()
        me = self.seat
        for s in range(g.n):
            if s != me:
                g.hands[s] = hands[s][:]
        g.draw = draw[:]
        g.seed = seed
        g.shuffles = 0
        self._set_challenge_truth(g)
        return g
