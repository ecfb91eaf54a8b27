"""Events: what happened, as returned by :meth:`unokit.Game.apply`.

Events carry private details (the cards a player drew, a hand revealed to a
challenger). :func:`redact` gives the version a given seat may see; the
observation's history is built from it.

>>> from unokit import Game
>>> g = Game.new("classic", 2, seed=1)
>>> ev = g.apply(g.legal_actions()[0])
>>> [type(e).__name__ for e in ev][:1]
['Played']
"""

from __future__ import annotations

from dataclasses import dataclass

from unokit.engine.cards import Card, Color, Face

__all__ = [
    "Event",
    "RoundStarted",
    "CardTurned",
    "Played",
    "Drew",
    "Passed",
    "ColorChosen",
    "Accepted",
    "Challenged",
    "UnoCalled",
    "Caught",
    "Skipped",
    "Reversed",
    "Flipped",
    "Reshuffled",
    "PowersChanged",
    "HandsSwapped",
    "Misplayed",
    "RoundEnded",
    "MatchEnded",
    "Eliminated",
    "redact",
]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    dealer: int
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardTurned:
    """The first card was turned up (``reason``: ``start``, ``ignored``, ``returned``)."""

    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card
    color: Color | None
    flex: bool = False
    target: int | None = None
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``count`` cards. ``cards`` is None in the version other
    seats see; in Flip they see ``backs``, the inactive faces."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    backs: tuple[Face, ...] | None
    reason: str  # draw, penalty, challenge (either outcome), catch, stack, misplay, false_catch


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class ColorChosen:
    seat: int
    color: Color


@dataclass(frozen=True, slots=True)
class Accepted:
    seat: int


@dataclass(frozen=True, slots=True)
class Challenged:
    """``revealed`` is the offender's hand, shown to the challenger only."""

    seat: int
    offender: int
    success: bool
    revealed: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class UnoCalled:
    seat: int


@dataclass(frozen=True, slots=True)
class Caught:
    seat: int
    target: int
    success: bool


@dataclass(frozen=True, slots=True)
class Skipped:
    seat: int


@dataclass(frozen=True, slots=True)
class Reversed:
    direction: int


@dataclass(frozen=True, slots=True)
class Flipped:
    side: int
    top: Card


@dataclass(frozen=True, slots=True)
class Reshuffled:
    count: int


@dataclass(frozen=True, slots=True)
class PowersChanged:
    powers: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """Hands moved under the 7-0 house rule: ``seats[i]`` got the hand of ``sources[i]``."""

    seats: tuple[int, ...]
    sources: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Misplayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RoundEnded:
    winner: int | None
    points: int
    hand_values: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Eliminated:
    """``seat`` is out of the match (house rule ``mercy``, docs/rules.md §6):
    its ``count`` cards went under the draw pile."""

    seat: int
    count: int


Event = (
    RoundStarted
    | CardTurned
    | Played
    | Drew
    | Passed
    | ColorChosen
    | Accepted
    | Challenged
    | UnoCalled
    | Caught
    | Skipped
    | Reversed
    | Flipped
    | Reshuffled
    | PowersChanged
    | HandsSwapped
    | Misplayed
    | RoundEnded
    | MatchEnded
    | Eliminated
)


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator)."""
    if isinstance(event, Drew):
        if event.seat != seat and event.cards is not None:
            return Drew(event.seat, event.count, None, event.backs, event.reason)
    elif isinstance(event, Challenged):
        if event.seat != seat and event.revealed is not None:
            return Challenged(event.seat, event.offender, event.success, None)
    return event
