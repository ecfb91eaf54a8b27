"""``rlcard-rule``: RLCard's rule-based UNO agent (``uno-rule-v1``) as a unokit bot.

RLCard (https://github.com/datamllab/rlcard) ships a simple rule agent for
its UNO environment. This adapter lets it play Classic UNO under our rules, for
comparisons with a published baseline. It needs the optional ``rlcard``
package; the model is code (``rlcard.models.load("uno-rule-v1")``), nothing is
downloaded.

Conversion (our observation -> RLCard's raw state -> our action):

* cards are written ``r-7``, ``b-skip``, ``y-reverse``, ``g-draw_2``, wilds
  ``r-wild`` / ``r-wild_draw_4`` (RLCard puts a colour on every card: in the
  hand a wild gets any colour, on the discard pile the declared one);
* ``target`` is the top card with the colour in force; ``played_cards`` the
  discard pile; ``num_cards`` the hand sizes;
* ``legal_actions`` follows RLCard's rules: every playable coloured card, a
  plain wild in each colour, a Wild Draw Four (in each colour) only when
  nothing else can be played (RLCard has no bluffing), ``draw`` when nothing
  can be played.

RLCard's UNO is simplified, so the decisions it cannot make get defaults:

* after drawing a playable card: play it if it is a wild or of the colour in
  force (what RLCard's own draw does), otherwise keep it; a wild drawn (or a
  first-card wild) declares the colour held most;
* a Wild Draw Four played against it is always accepted (RLCard has no
  challenge); it catches a player who forgot UNO and always calls UNO
  (RLCard has neither);
* house-rule decisions (stacked penalties, jump-ins) are left to the first
  legal answer: draw the penalty, do not jump in.

It plays Classic only (other variants raise :class:`~unokit.engine.errors.OptionError`).
Its random choices come from its own seed (RLCard's agent uses NumPy's global
generator: the adapter seeds it for each call and restores it after).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from unokit.bots.base import with_uno
from unokit.engine.actions import Accept, Action, Catch, ChooseColor, Draw, Pass, Play
from unokit.engine.cards import Card, Color, Kind
from unokit.engine.errors import OptionError
from unokit.engine.events import ColorChosen, Played
from unokit.engine.observation import Observation

__all__ = ["RLCardRuleBot", "card_to_rlcard", "observation_to_rlcard"]

_COLOR = {Color.R: "r", Color.G: "g", Color.B: "b", Color.Y: "y"}
_COLOR_BACK = {v: k for k, v in _COLOR.items()}
_TRAIT = {
    Kind.SKIP: "skip",
    Kind.REVERSE: "reverse",
    Kind.DRAW_TWO: "draw_2",
    Kind.WILD: "wild",
    Kind.WILD_DRAW_FOUR: "wild_draw_4",
}


def card_to_rlcard(card: Card, color: Color | None = None) -> str:
    """RLCard's text of a Classic card; a wild takes ``color`` (default red).

    >>> from unokit.engine.cards import CLASSIC
    >>> card_to_rlcard(CLASSIC.parse("B7")), card_to_rlcard(CLASSIC.parse("W4"), Color.G)
    ('b-7', 'g-wild_draw_4')
    """
    f = card.light
    col = f.color if f.color is not None else (color if color is not None else Color.R)
    trait = str(f.number) if f.kind is Kind.NUMBER else _TRAIT[f.kind]
    return f"{_COLOR[col]}-{trait}"


def _most_held(hand: tuple[Card, ...]) -> Color:
    counts = Counter(c.light.color for c in hand if c.light.color is not None)
    return max((Color.R, Color.Y, Color.G, Color.B), key=lambda c: (counts[c], -int(c)))


def _discard_colors(obs: Observation) -> list[Color | None]:
    """The colour each discard-pile card showed when it was played (wilds: declared)."""
    declared: list[Color | None] = []
    for e in obs.history:
        if isinstance(e, Played):
            declared.append(e.color)
        elif isinstance(e, ColorChosen) and declared:
            declared[-1] = e.color
    colors: list[Color | None] = [c.light.color for c in obs.discard]
    # the last plays are the top of the pile (earlier ones may have been reshuffled)
    wild_decl = declared[-len(colors) :] if declared else []
    for i in range(1, min(len(colors), len(wild_decl)) + 1):
        if colors[-i] is None:
            colors[-i] = wild_decl[-i]
    if colors and obs.color is not None:
        colors[-1] = obs.color
    return colors


def observation_to_rlcard(obs: Observation) -> dict[str, Any]:
    """The state RLCard's agents read (``raw_obs`` and ``raw_legal_actions``),
    plus ``_actions``: RLCard action text -> our action."""
    if obs.variant != "classic" or obs.seat is None:
        raise OptionError("the rlcard-rule bot plays Classic UNO only, from a seat")
    wild_colors = ("r", "g", "b", "y")
    hand = []
    nwild = 0
    for c in obs.hand:
        if c.light.color is None:
            hand.append(f"{wild_colors[nwild % 4]}-{_TRAIT[c.light.kind]}")
            nwild += 1
        else:
            hand.append(card_to_rlcard(c))
    colors = _discard_colors(obs)
    played = [card_to_rlcard(c, col) for c, col in zip(obs.discard, colors, strict=True)]
    actions: dict[str, Action] = {}
    wd4: dict[str, Action] = {}
    for a in obs.legal:
        if not isinstance(a, Play) or a.seat != obs.current or a.flex:
            continue
        f = a.card.light
        text = card_to_rlcard(a.card, a.color)
        if f.kind is Kind.WILD_DRAW_FOUR:
            wd4[text] = a
        else:
            actions.setdefault(text, a)
    if not actions:
        actions = wd4
    if not actions:
        actions = {"draw": Draw(obs.seat)}
    raw = {
        "hand": hand,
        "target": played[-1] if played else "",
        "played_cards": played,
        "legal_actions": list(actions),
        "num_players": obs.players,
        "num_cards": list(obs.hand_sizes),
        "current_player": obs.seat,
    }
    return {"raw_obs": raw, "raw_legal_actions": list(actions), "_actions": actions}


class RLCardRuleBot:
    """RLCard's ``uno-rule-v1`` agent through the adapter above."""

    name = "rlcard-rule"
    #: the variants it can play (callers may check this before seating it)
    variants = ("classic",)

    def __init__(self, seed: int = 0, **_: Any) -> None:
        try:
            import numpy as np
            from rlcard import models  # type: ignore[import-untyped]  # no type hints
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise OptionError(
                f"the rlcard-rule bot needs the rlcard package (pip install rlcard): {e}"
            ) from None
        self._np = np
        self._agent = models.load("uno-rule-v1").agents[0]
        self._rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        for a in legal:
            if isinstance(a, Catch):
                return a
        if obs.variant != "classic":
            raise OptionError("the rlcard-rule bot plays Classic UNO only")
        if obs.seat is None or obs.seat != obs.current:
            return next((a for a in legal if not isinstance(a, Play)), legal[0])
        seat = obs.seat
        if obs.phase == "AWAIT_CHALLENGE":
            return Accept(seat)
        if obs.phase == "AWAIT_COLOR":
            return ChooseColor(seat, _most_held(obs.hand))
        if obs.phase == "AWAIT_DRAWN":
            return self._drawn(obs)
        if obs.pending_draw:
            return Draw(seat)
        state = observation_to_rlcard(obs)
        text = self._step(state)
        action: Action = state["_actions"][text]
        return with_uno(action, obs)

    def _step(self, state: dict[str, Any]) -> str:
        np = self._np
        saved = np.random.get_state()
        np.random.seed(self._rng.getrandbits(32))
        try:
            return str(self._agent.step(state))
        finally:
            np.random.set_state(saved)

    def _drawn(self, obs: Observation) -> Action:
        assert obs.seat is not None
        plays = [a for a in obs.legal if isinstance(a, Play) and not a.flex]
        drawn = obs.drawn
        if drawn is not None and plays:
            f = drawn.light
            if f.color is None:
                rest = list(obs.hand)
                rest.remove(drawn)
                want = _most_held(tuple(rest))
                for a in plays:
                    if a.color == want:
                        return _uno(a, obs)
            elif f.color == obs.color:
                return _uno(plays[0], obs)
        for b in obs.legal:
            if isinstance(b, Pass):
                return b
        fallback: Action = _uno(plays[0], obs) if plays else obs.legal[0]
        return fallback


def _uno(a: Play, obs: Observation) -> Action:
    return with_uno(a, obs)
