"""What a seat can infer about the hands it cannot see, from its observation.

* :func:`known_cards`: a hand shown to the seat by its own challenge, minus
  what that player has played since.
* :func:`hand_inferences`: what the other players' own choices exclude: a
  voluntary draw (nothing was playable: certain), a wild (nothing else was
  playable: likely), a Wild Draw Four (no card of the colour in force: likely,
  settled by a challenge).
* :func:`named_colors`: the colour a player named with a wild, which it likely holds.
* :func:`last_plays`: a player's last play, to test a sampled hand against what
  the heuristic's rules would have played with it.

The trust levels are assumptions about sensible opponents, stated as the share
of samples that respect them (docs/bots.md).

>>> from unokit import Game
>>> g = Game.setup("classic", 2, hands=[["R1", "B2"], ["B5", "G6", "Y7"]],
...                draw=["B8", "G1", "G2"], discard=["R9"], current=1)
>>> _ = g.apply("P1 DRAW")
>>> hand_inferences(g.observe(0))[1]
[HandInference(old=3, side=0, acc=0x40020001, trust=1.0)]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from unokit.engine.cards import Card
from unokit.engine.events import (
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
from unokit.engine.observation import Observation
from unokit.engine.variants import WILD_BIT, get_variant

__all__ = [
    "known_cards",
    "color_after",
    "color_before_last_play",
    "HandInference",
    "hand_inferences",
    "named_colors",
    "LastPlay",
    "last_plays",
    "PastPlay",
    "past_plays",
    "WILD_DRAW_TRUST",
    "WILD_TRUST",
    "LATE_BLUFF_TRUST",
    "NAMED_TRUST",
    "OFF_POLICY",
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


def color_after(e: object, color: int, side: int) -> int:
    """The colour in force after event ``e``, given the colour before it and
    the side that was up (-1: none yet, a wild's colour still to be named).

    >>> from unokit.engine.cards import Color
    >>> color_after(ColorChosen(seat=0, color=Color.G), -1, 0)
    2
    """
    if isinstance(e, Played):
        if e.color is not None:
            return int(e.color)
        printed = e.card.face(side).color
        return color if printed is None else int(printed)
    if isinstance(e, ColorChosen):
        return int(e.color)
    if isinstance(e, CardTurned) and e.reason == "start":
        printed = e.card.face(side).color
    elif isinstance(e, Flipped):
        printed = e.top.face(e.side).color
    else:
        return color
    return -1 if printed is None else int(printed)


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
            continue
        if isinstance(e, Played):
            before = color
        color = color_after(e, color, side)
        if isinstance(e, Flipped):
            side = e.side
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


class _Table:
    """The public state of the table replayed event by event through a seat's
    history: side up, colour in force, top card id, hand sizes, direction and
    Power Cards. Callers read it before :meth:`update` for what held when an
    event happened."""

    __slots__ = ("idx", "side", "color", "top", "sizes", "direction", "powers")

    def __init__(self, obs: Observation) -> None:
        self.idx = get_variant(obs.variant).cards.index
        self.side, self.color, self.top, self.sizes, self.direction = _history_start(obs)
        self.powers = [True] * obs.players

    def update(self, e: object) -> None:
        if isinstance(e, RoundStarted):
            self.side, self.color, self.top, self.direction = 0, -1, -1, 1
            self.sizes = list(e.hand_sizes)
            self.powers = [True] * len(self.sizes)
        elif isinstance(e, CardTurned):
            if e.reason == "start":
                self.top = self.idx[e.card]
                self.color = color_after(e, self.color, 0)
        elif isinstance(e, Reversed):
            self.direction = e.direction
        elif isinstance(e, Played):
            self.sizes[e.seat] -= 1
            self.top = self.idx[e.card]
            self.color = color_after(e, self.color, self.side)
        elif isinstance(e, ColorChosen):
            self.color = int(e.color)
        elif isinstance(e, Flipped):
            self.side = e.side
            self.top = self.idx[e.top]
            self.color = color_after(e, self.color, self.side)
        elif isinstance(e, PowersChanged):
            self.powers = list(e.powers)
        elif isinstance(e, HandsSwapped):
            moved = [self.sizes[src] for src in e.sources]
            for dst, size in zip(e.seats, moved, strict=True):
                self.sizes[dst] = size
        elif isinstance(e, Drew):
            self.sizes[e.seat] += e.count


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
    t = _Table(obs)
    for e in obs.history:
        side, color = t.side, t.color  # as the event found them
        if isinstance(e, RoundStarted):
            marks = [[] for _ in range(n)]
        elif isinstance(e, Played):
            prev_top, top = t.top, idx[e.card]
            # near the end of a round people (and the heuristic) bluff wild draws
            late = t.sizes[(e.seat + t.direction) % n] <= 2
            restricted = v.restricted[side][top] and (not e.flex or o.flexFlexSideWD4Restricted)
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
                flex = bool(v.flex and t.powers[e.seat])
                trust = min(WILD_TRUST, LATE_BLUFF_TRUST) if late else WILD_TRUST
                marks[e.seat].append([side, acc, flex, 0, trust, "wild"])
        elif isinstance(e, Challenged):
            # the challenge settles whether the last restricted card was a bluff
            ms = marks[e.offender]
            last = [m for m in ms if m[5] == "wild_draw"][-1:]
            if last and e.success:  # a bluff: neither of its inferences holds
                marks[e.offender] = [m for m in ms if m[3] or m[5] == "draw"]
            elif last:
                last[0][4] = 1.0
        elif isinstance(e, HandsSwapped):
            moved = [marks[src] for src in e.sources]
            for dst, ms in zip(e.seats, moved, strict=True):
                marks[dst] = ms
        elif isinstance(e, Drew):
            s = e.seat
            if e.reason == "draw" and s != me and color >= 0 and t.top >= 0:
                acc = (1 << color) | v.topkey[side][t.top] | WILD_BIT
                flex = bool(v.flex and t.powers[s])
                marks[s].append([side, acc, flex, 0, 1.0, "draw"])
            for mark in marks[s]:
                mark[3] += e.count
        t.update(e)
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
    t = _Table(obs)
    last: Any = None
    for e in obs.history:
        if isinstance(e, RoundStarted | HandsSwapped):
            out = [None] * n
        elif isinstance(e, Played):
            from_draw = isinstance(last, Drew) and last.seat == e.seat
            color = t.color
            if (
                e.seat != me
                and not e.flex
                and not e.jump_in
                and not from_draw
                and color >= 0
                and t.top >= 0
            ):
                acc = (1 << color) | v.topkey[t.side][t.top] | WILD_BIT
                nxt = t.sizes[(e.seat + t.direction) % n]
                threat = min(t.sizes[x] for x in range(n) if x != e.seat)
                out[e.seat] = LastPlay(e.seat, idx[e.card], t.side, color, acc, nxt, threat)
            else:
                out[e.seat] = None
        elif isinstance(e, Drew):
            out[e.seat] = None
        t.update(e)
        if not isinstance(e, UnoCalled | PowersChanged | Skipped):
            last = e
    if me is not None:
        out[me] = None
    return out


class PastPlay(LastPlay):
    """Any earlier play of a player from its hand on its own turn (what
    :class:`LastPlay` is for the last one), with what is needed to rebuild the
    hand it chose from out of a sampled hand of now: ``old`` of its current
    cards were already held then (the first ``old`` of a sampled hand, which
    the :class:`~unokit.bots.determinize.Determinizer` deals oldest first),
    ``later`` are the cards it has played from its hand since, and ``named``
    the colour it named with the card (a wild), or -1.

    The rebuilt hand is exact when the player has played no card drawn after
    that play; otherwise one drawn card may stand in for one it held, which
    only makes the test a little noisier (it is a likelihood, never a rule)."""

    __slots__ = ("old", "later", "named", "exact")

    def __init__(
        self,
        seat: int,
        card: int,
        side: int,
        color: int,
        acc: int,
        next_size: int,
        threat: int,
        old: int,
        later: list[int],
        named: int,
        exact: bool = True,
    ) -> None:
        super().__init__(seat, card, side, color, acc, next_size, threat)
        self.old, self.later, self.named = old, later, named
        #: whether the rebuilt hand is exact (the player has played no card
        #: that it may have drawn after this play)
        self.exact = exact

    def fits(self, variant: Any, hand: list[int]) -> bool:
        """Whether the sampled hand of now, ``hand`` (oldest cards first), makes
        this play (and the colour named with it) the heuristic's choice."""
        then = hand[: self.old] + self.later
        if not self.agrees(variant, then):
            return False
        if self.named < 0:
            return True
        # the heuristic names the colour it holds most (action cards count
        # double), ties to the first colour
        v = variant
        colors = v.color[self.side]
        points = v.points[self.side]
        counts = [0] * 8
        for c in then:
            col = colors[c]
            if col >= 0:
                counts[col] += 2 if points[c] >= 20 else 1
        base = 4 * self.side
        best = base
        for col in range(base + 1, base + 4):
            if counts[col] > counts[best]:
                best = col
        return best == self.named


def past_plays(obs: Observation) -> list[PastPlay]:
    """Every play of the other seats in this round from their hands on their
    own turn (not a card just drawn, not a flex side, not a jump-in), since
    the last 7-0 swap, as :class:`PastPlay` facts to test sampled hands
    against. Sizes and cards are counted from the seat's history only.

    The hand a play was chosen from is rebuilt as the cards that player
    played from its hand afterwards until it next drew (those were held for
    sure) plus the oldest of its current cards up to the hand size it had; a
    card played after a later draw is taken for a drawn one (a card drawn and
    played at once is no card of that hand at all)."""
    n = obs.players
    v = get_variant(obs.variant)
    idx = v.cards.index
    me = obs.seat
    # per play: [seat, card, side, colour, acc, next size, threat, size then,
    #            later (sure), named, drawn since (pending Drew or None), after a draw]
    rows: list[list[Any]] = []
    t = _Table(obs)
    last: Any = None
    for e in obs.history:
        if isinstance(e, RoundStarted | HandsSwapped):
            rows = []
        elif isinstance(e, Played):
            s = e.seat
            from_draw = isinstance(last, Drew) and last.seat == s
            card = idx[e.card]
            for r in rows:
                if r[0] != s:
                    continue
                if r[10] is not None:
                    if not (from_draw and r[10] is last and last.count == 1):
                        r[11] = True  # a card drawn since may have been kept and played
                    r[10] = None
                if not r[11] and not from_draw:
                    r[8].append(card)
            color = t.color
            if (
                s != me
                and not e.flex
                and not e.jump_in
                and not from_draw
                and color >= 0
                and t.top >= 0
            ):
                acc = (1 << color) | v.topkey[t.side][t.top] | WILD_BIT
                nxt = t.sizes[(s + t.direction) % n]
                threat = min(t.sizes[x] for x in range(n) if x != s)
                named = -1 if e.color is None else int(e.color)
                size = t.sizes[s]
                rows.append([s, card, t.side, color, acc, nxt, threat, size, [], named, None,
                             False])  # fmt: skip
        elif isinstance(e, Drew):
            for r in rows:
                if r[0] == e.seat:
                    if r[10] is not None:
                        r[11] = True
                    r[10] = e
        t.update(e)
        if not isinstance(e, UnoCalled | PowersChanged | Skipped):
            last = e
    out = []
    for s, card, side, color, acc, nxt, threat, size, later, named, _, inexact in rows:
        old = min(max(0, size - 1 - len(later)), obs.hand_sizes[s])
        out.append(PastPlay(s, card, side, color, acc, nxt, threat, old, later, named,
                            not inexact))  # fmt: skip
    return out
