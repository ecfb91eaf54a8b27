"""The ``heuristic`` bot: a sensible rule-based player that sees only its observation.

* catches a vulnerable opponent at once, and always calls UNO;
* plays to keep options: prefers coloured cards of the colour it holds most,
  dumps high-value cards, keeps wilds (and Wild Draw cards) for need;
* attacks a player close to going out with skips and draw cards;
* plays a Wild Draw card only when it is legal, unless the next player is
  about to go out;
* declares the colour it holds most;
* challenges a restricted wild draw when the chance that it was illegal
  (estimated from the unseen cards of the previous colour) beats the odds of
  the penalty table;
* Flex: uses a flex side when it is the only play or a strong one (Skip All,
  everyone draws) and targets the opponent with the fewest cards;
* house rules: "next" follows the seating (``shuffleSeats``); with ``teams``
  it never attacks its partner when another move will do (no catch, 7 swap,
  target, draw card or passed-on draw aimed at the partner) and counts only
  the opponents' hands as threats.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from unokit.bots.base import with_uno
from unokit.engine.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unokit.engine.cards import Card, Color, Kind
from unokit.engine.events import ColorChosen, Played
from unokit.engine.house_view import teams
from unokit.engine.observation import Observation

__all__ = ["HeuristicBot", "challenge_odds"]

_ATTACK = {
    Kind.SKIP,
    Kind.REVERSE,
    Kind.DRAW_TWO,
    Kind.DRAW_ONE,
    Kind.DRAW_FIVE,
    Kind.SKIP_EVERYONE,
    Kind.FLEX_SKIP,
    Kind.FLEX_REVERSE,
    Kind.FLEX_DRAW_TWO,
}
_WILD_DRAW = {Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR}


class HeuristicBot:
    name = "heuristic"

    def __init__(self, seed: int = 0, **_: Any) -> None:
        self._rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        partners = _partners(obs)
        for a in legal:
            if isinstance(a, Catch) and a.target not in partners:
                return a
        mine = [a for a in legal if not isinstance(a, CallUno | Catch)]
        if obs.seat is not None and obs.seat != obs.current:
            # out of turn: jump in when allowed (it is never a bad idea to shed a card)
            plays = [a for a in mine if isinstance(a, Play)]
            return plays[0] if plays else next(iter(legal))
        phase = obs.phase
        if phase == "AWAIT_COLOR":
            best = self._best_color(obs, None)
            for a in mine:
                if isinstance(a, ChooseColor) and a.color == best:
                    return a
            return mine[0]
        if phase == "AWAIT_CHALLENGE":
            q = challenge_odds(obs)
            want = Challenge if q > 0.25 else Accept
            for a in mine:
                if isinstance(a, want):
                    return a
            return mine[0]
        if phase == "AWAIT_DRAWN":
            plays = [a for a in mine if isinstance(a, Play)]
            if plays:
                card = plays[0].card
                face = card.face(obs.side)
                if not face.is_wild or len(obs.hand) <= 3:
                    return self._choose_play(obs, plays)
            for a in mine:
                if isinstance(a, Pass):
                    return a
            return self._choose_play(obs, [a for a in mine if isinstance(a, Play)])
        plays = [a for a in mine if isinstance(a, Play)]
        if obs.pending_draw:
            if plays:
                play = self._choose_play(obs, plays)
                # teams: a stack or deflection that passes the draw to the partner
                # is worse than taking it, unless it is the last card
                if _victim(obs, play) not in _partners(obs) or len(obs.hand) == 1:
                    return play
                for a in mine:
                    if isinstance(a, Draw):
                        return a
                return play
            for a in mine:
                if isinstance(a, Challenge) and challenge_odds(obs) > 0.4:
                    return a
            return Draw(obs.current)
        if plays:
            return self._choose_play(obs, plays)
        for a in mine:
            if isinstance(a, Draw):
                return a
        return mine[0]

    # ------------------------------------------------------------------ helpers

    def _best_color(self, obs: Observation, without: Card | None) -> Color:
        side = obs.side
        counts: Counter[Color] = Counter()
        skipped = False
        for c in obs.hand:
            if c == without and not skipped:
                skipped = True
                continue
            f = c.face(side)
            if f.color is not None:
                counts[f.color] += 1 + (f.points >= 20)
        colors = (
            (Color.Pk, Color.Tl, Color.Or, Color.Pu)
            if side
            else (Color.R, Color.Y, Color.G, Color.B)
        )
        return max(colors, key=lambda c: (counts[c], -int(c)))

    def _choose_play(self, obs: Observation, plays: list[Play]) -> Play:
        assert obs.seat is not None
        side = obs.side
        n = obs.players
        seat = obs.seat
        nxt = _next(obs)
        partners = _partners(obs)
        threat = min(obs.hand_sizes[s] for s in range(n) if s != seat and s not in partners)
        next_size = obs.hand_sizes[nxt]
        held: Counter[Color | None] = Counter(c.face(side).color for c in obs.hand)
        current = obs.color
        holds_current = any(c.face(side).color == current for c in obs.hand)
        best: tuple[float, int, Play] | None = None
        plays = [self._end_well(a, held, side) if a.more else a for a in plays]
        for i, a in enumerate(plays):
            f = a.card.face(side)
            score = 0.0
            if f.is_wild:
                score -= 30  # keep wilds for need
                if f.kind in _WILD_DRAW or f.kind is Kind.FLEX_WILD_DRAW_FOUR and not a.flex:
                    if holds_current and next_size > 2:
                        score -= 100  # never bluff without a reason
                    elif next_size <= 2:
                        score += 45
                if a.color is not None and a.color != self._best_color(obs, a.card):
                    score -= 5
            else:
                score += 2 * held[f.color] if f.color is not None else 0
                score += f.points / 10
                if f.kind in _ATTACK and next_size <= 2:
                    score += 25
            if a.flex:
                score -= 8  # a flex play spends the Power Card
                if f.kind in (Kind.FLEX_SKIP, Kind.FLEX_DRAW_TWO, Kind.WILD_ALL_DRAW):
                    score += 12
                if f.kind in (Kind.WILD_TARGET_DRAW, Kind.FLEX_WILD_DRAW_FOUR):
                    score += 20
            if (
                partners
                and _victim(obs, a) in partners
                and (f.kind in _ATTACK or f.kind in _WILD_DRAW or obs.pending_draw)
            ):
                score -= 60  # teams: never attack the partner when another play will do
            if a.target is not None:
                score -= obs.hand_sizes[a.target]  # hit the closest to going out
                if a.target in partners:
                    score -= 100
            if a.swap is not None:
                score -= 2 * obs.hand_sizes[a.swap]
                if a.swap in partners:
                    score -= 100  # teams: never take the partner's good hand
            if f.kind is Kind.FLIP:
                score += 10 if threat <= 2 else -2
            if a.more:  # multiPlay: shedding several cards at once pays
                score += 6 * len(a.more) + sum(c.face(side).points for c in a.more) / 10
                # ...most when the last card leaves a colour the hand still holds
                last = a.more[-1].face(side).color
                shed = sum(1 for c in (a.card, *a.more) if c.face(side).color == last)
                score += 2 * (held[last] - shed) - 2 * held[f.color]
            score += self._rng.random() * 0.01  # stable tie-break
            if best is None or score > best[0]:
                best = (score, i, a)
        assert best is not None
        return with_uno(best[2], obs)

    @staticmethod
    def _end_well(a: Play, held: Counter[Color | None], side: int) -> Play:
        """A multi-play (multiPlay) reordered to end on the colour the hand
        keeps most of (any order of the further cards is legal; the legal list
        shows one order per set of cards)."""
        shed = Counter(c.face(side).color for c in (a.card, *a.more))

        def kept(c: Card) -> int:
            col = c.face(side).color
            return held[col] - shed[col]

        last = max(range(len(a.more)), key=lambda i: (kept(a.more[i]), i))
        more = a.more[:last] + a.more[last + 1 :] + (a.more[last],)
        return replace(a, more=more)


def _next(obs: Observation, steps: int = 1) -> int:
    """The seat ``steps`` after this one in the direction of play, around the
    table as seated (``shuffleSeats``: the observation's seating)."""
    assert obs.seat is not None
    order = obs.seating or tuple(range(obs.players))
    i = order.index(obs.seat)
    for _ in range(abs(steps)):
        i = (i + (1 if steps > 0 else -1) * obs.direction) % len(order)
        while order[i] in obs.out and order[i] != obs.seat:  # mercy: passed over
            i = (i + (1 if steps > 0 else -1) * obs.direction) % len(order)
    return order[i]


def _partners(obs: Observation) -> tuple[int, ...]:
    """This seat's partners under ``teams`` (none without teams)."""
    for team in teams(obs):
        if obs.seat in team:
            return tuple(s for s in team if s != obs.seat)
    return ()


def _victim(obs: Observation, play: Play) -> int:
    """Who a draw or skip ``play`` hits first: the next player, or under a
    pending draw the previous one for a deflecting Reverse."""
    kind = play.card.face(obs.side).kind
    if obs.pending_draw and kind in (Kind.REVERSE, Kind.FLEX_REVERSE) and obs.players > 2:
        return _next(obs, -1)
    return _next(obs)


def challenge_odds(obs: Observation) -> float:
    """Estimated chance that the restricted wild draw just played was illegal:
    that its player held a card of the colour in force before it."""
    prev = _previous_color(obs)
    off = obs.challenge_offender
    if off is None:
        # stacking: the last card's player is the previous seat
        off = (obs.current - obs.direction) % obs.players
    if prev is None:
        return 0.0
    side = obs.side
    seen: Counter[Color | None] = Counter()
    for c in obs.hand:
        seen[c.face(side).color] += 1
    for c in obs.discard:
        seen[c.face(side).color] += 1
    from unokit.engine.decks import classic_deck, flex_deck, flip_deck
    from unokit.engine.variants import get_variant

    v = get_variant(obs.variant)
    deck = {"classic": classic_deck, "flip": flip_deck, "flex": flex_deck}[v.name]()
    total_of = sum(1 for cid in deck if v.cards.cards[cid].face(side).color == prev)
    unseen_total = max(1, len(deck) - len(obs.hand) - len(obs.discard))
    k = max(0, total_of - seen[prev])
    h = obs.hand_sizes[off]
    p_none = 1.0
    for i in range(h):
        p_none *= max(0.0, (unseen_total - k - i) / max(1, unseen_total - i))
    return 1.0 - p_none


def _previous_color(obs: Observation) -> Color | None:
    """The colour in force before the top card was played."""
    colors: list[Color | None] = []
    for e in obs.history:
        if isinstance(e, Played):
            f = e.card.face(obs.side)
            colors.append(e.color if e.color is not None else f.color)
        elif isinstance(e, ColorChosen):
            colors.append(e.color)
    if len(colors) >= 2:
        return colors[-2]
    if len(obs.discard) >= 2:
        return obs.discard[-2].face(obs.side).color
    return None
