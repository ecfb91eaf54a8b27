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
class _SeatEvent:
    """An event about what one seat did or had done to it: ``seat``, first."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """Round ``round`` was dealt by ``dealer``; ``hand_sizes`` by seat."""

    round: int
    dealer: int
    hand_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardTurned:
    """The first card was turned up (``reason``: ``start``, ``ignored``, ``returned``)."""

    card: Card
    reason: str


@dataclass(frozen=True, slots=True)
class Played(_SeatEvent):
    """``seat`` played ``card``: ``color``, a wild's declared colour; ``flex``,
    on its flex side; ``target``, whom a targeted draw aims at; ``jump_in``,
    out of turn."""

    card: Card
    color: Color | None
    flex: bool = False
    target: int | None = None
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class Misplayed(_SeatEvent):
    """``seat`` put down ``card``, which does not match: under the option
    ``misplayPenalty`` it goes back to the hand and costs a draw and the turn
    (docs/rules.md D27)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Drew(_SeatEvent):
    """``seat`` drew ``count`` cards. ``cards`` is None in the version other
    seats see; in Flip they see ``backs``, the inactive faces."""

    count: int
    cards: tuple[Card, ...] | None
    backs: tuple[Face, ...] | None
    reason: str  # draw, penalty, challenge (either outcome), catch, stack, misplay, false_catch


@dataclass(frozen=True, slots=True)
class Passed(_SeatEvent):
    """``seat`` kept the card it had just drawn."""


@dataclass(frozen=True, slots=True)
class ColorChosen(_SeatEvent):
    """``seat`` declared ``color``."""

    color: Color


@dataclass(frozen=True, slots=True)
class Accepted(_SeatEvent):
    """``seat`` took a restricted wild draw's penalty without challenging."""


@dataclass(frozen=True, slots=True)
class Challenged(_SeatEvent):
    """``revealed`` is the offender's hand, shown to the challenger only."""

    offender: int
    success: bool
    revealed: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class UnoCalled(_SeatEvent):
    """``seat`` called UNO."""


@dataclass(frozen=True, slots=True)
class Caught(_SeatEvent):
    """``seat`` caught ``target`` for not calling UNO (``success``) or named a
    seat that could not be caught."""

    target: int
    success: bool


@dataclass(frozen=True, slots=True)
class Skipped(_SeatEvent):
    """``seat`` lost its turn."""


@dataclass(frozen=True, slots=True)
class Reversed:
    """Play now goes in ``direction`` (1 clockwise, -1 counter-clockwise)."""

    direction: int


@dataclass(frozen=True, slots=True)
class Flipped:
    """UNO Flip: every card turned over; ``side`` is up now, ``top`` is the
    card on the discard pile."""

    side: int
    top: Card


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile, but its top, became the new draw pile of ``count`` cards."""

    count: int


@dataclass(frozen=True, slots=True)
class PowersChanged:
    """UNO Flex: every seat's Power Card (True: green) after a change."""

    powers: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """Hands moved under the 7-0 house rule: ``seats[i]`` got the hand of ``sources[i]``."""

    seats: tuple[int, ...]
    sources: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Eliminated(_SeatEvent):
    """``seat`` is out of the match (house rule ``mercy``, docs/rules.md §6):
    its ``count`` cards went under the draw pile."""

    count: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round is over: ``winner`` (None: no winner) scored ``points``;
    ``hand_values`` and ``scores`` by seat."""

    winner: int | None
    points: int
    hand_values: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over: ``winners`` and the final ``scores``."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


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
