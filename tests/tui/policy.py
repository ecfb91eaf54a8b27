"""A deterministic test player: what the person at the keyboard does in the tests.

It calls UNO before playing its second-to-last card, always challenges, and
prefers flex sides and Flip cards, so that the rounds the tests play contain
those events. Both the key-press tests and the plain-mode tests follow it.
"""

from __future__ import annotations

from unokit.engine.actions import Action, CallUno, Challenge, ChooseColor, Draw, Pass, Play
from unokit.engine.cards import Kind
from unokit.engine.events import Challenged, Played, UnoCalled
from unokit.engine.observation import Observation
from unokit.tui.session import Session


def choose(obs: Observation) -> Action:
    assert obs.seat is not None
    seat = obs.seat
    legal = obs.legal
    if obs.phase == "AWAIT_COLOR":
        return next(a for a in legal if isinstance(a, ChooseColor))
    if obs.phase == "AWAIT_CHALLENGE":
        return Challenge(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if obs.phase == "AWAIT_DRAWN":
        return plays[0] if plays else Pass(seat)
    if len(obs.hand) == 2 and plays and CallUno(seat) in legal:
        return CallUno(seat)
    if plays:

        def rank(a: Play) -> tuple[bool, bool]:
            return (not a.flex, a.card.face(obs.side).kind is not Kind.FLIP)

        return min(plays, key=rank)
    return Draw(seat)


def play_round_offline(session: Session) -> None:
    """Play the current round with :func:`choose` for every person (no UI)."""
    while not (session.round_over or session.match_over):
        bot = session.bot_to_act()
        if bot is not None:
            session.bot_step()
            continue
        seat = session.human_to_act()
        assert seat is not None
        session.apply(choose(session.observe(seat)))


def round_features(session: Session, seat: int = 0) -> set[str]:
    """Which of the wanted events the seat took part in this round."""
    found = set()
    obs = session.observe(None)
    side = 0
    for e in obs.history:
        if isinstance(e, UnoCalled) and e.seat == seat:
            found.add("uno")
        if isinstance(e, Challenged) and e.seat == seat:
            found.add("challenge")
        if isinstance(e, Played) and e.seat == seat:
            if e.flex:
                found.add("flex")
            if e.card.face(side).kind is Kind.FLIP:
                found.add("flip")
            if e.card.face(side).is_wild:
                found.add("wild")
        if type(e).__name__ == "Flipped":
            side = e.side  # type: ignore[union-attr]
    return found
