"""Typed commands, one frozen class per kind, and their text notation.

The text form is the command notation of docs/scenario-format.md::

    P1 PLAY W4 color=G        P2 DRAW      P2 PASS      P1 COLOR B
    P2 ACCEPT   P2 CHALLENGE  P0 UNO       P3 CATCH P1  NEXT
    P1 PLAY R5+G5+B5          (multiPlay: several number cards, in order)

>>> from unokit.engine.cards import CLASSIC
>>> a = parse_action("p1 play w4 color=g uno=true", CLASSIC)
>>> a
Play(seat=1, card=Card('W4'), color=<Color.G: 2>, flex=False, target=None, swap=None, uno=True, flip_color=None)
>>> str(a)
'P1 PLAY W4 color=G uno=true'
>>> parse_action("P1 PLAY W4 colour=G", CLASSIC)
Traceback (most recent call last):
...
unokit.engine.errors.ParseError: unknown keyword 'colour' in 'P1 PLAY W4 colour=G': expected color, side, target, swap, uno, flipcolor
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from unokit.engine.cards import Card, CardSet, Color, parse_color
from unokit.engine.errors import ParseError

__all__ = [
    "Action",
    "Play",
    "Draw",
    "Pass",
    "ChooseColor",
    "Accept",
    "Challenge",
    "CallUno",
    "Catch",
    "NextRound",
    "parse_action",
    "seat_name",
    "parse_seat",
]


def seat_name(seat: int) -> str:
    return f"P{seat}"


def parse_seat(text: str) -> int:
    t = text.strip()
    if len(t) >= 2 and t[0] in "Pp" and t[1:].isdigit():
        return int(t[1:])
    raise ParseError(f"expected a seat such as P0, P1, ...; got {text!r}")


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from ``seat``'s hand (docs/rules.md §1.9 PLAY / PLAY_DRAWN).

    ``color`` for wilds; ``flex`` to use a Flex card's flex side; ``target`` for
    Flex targeted draws; ``swap`` for a 7 under the 7-0 house rule; ``uno`` to
    call UNO with the play; ``flip_color`` (Flip) the colour to declare if the
    Flip exposes a wild face; ``more`` (house rule ``multiPlay``) the further
    number cards of the same number played after ``card``, in order (the
    last one ends on top): written ``P1 PLAY R5+G5+B5``."""

    seat: int
    card: Card
    color: Color | None = None
    flex: bool = False
    target: int | None = None
    swap: int | None = None
    uno: bool = False
    flip_color: Color | None = None
    more: tuple[Card, ...] = ()

    def __repr__(self) -> str:
        """The dataclass form; ``more`` only when the play has further cards."""
        text = (
            f"Play(seat={self.seat!r}, card={self.card!r}, color={self.color!r}, "
            f"flex={self.flex!r}, target={self.target!r}, swap={self.swap!r}, "
            f"uno={self.uno!r}, flip_color={self.flip_color!r}"
        )
        return text + (f", more={self.more!r})" if self.more else ")")

    def __str__(self) -> str:
        cards = "+".join(map(str, (self.card, *self.more)))
        keywords = [f"{key}={value}" for key, value in self.keywords().items()]
        return " ".join([seat_name(self.seat), "PLAY", cards, *keywords])

    def keywords(self) -> dict[str, str]:
        """The options the play gives, as the notation's ``key=value`` words
        (in the order :func:`parse_action` names them; the others left out).

        >>> from unokit.engine.cards import CLASSIC
        >>> parse_action("P1 PLAY W4 uno=true color=G", CLASSIC).keywords()
        {'color': 'G', 'uno': 'true'}
        """
        given = {
            "color": None if self.color is None else self.color.name,
            "side": "flex" if self.flex else None,
            "target": None if self.target is None else seat_name(self.target),
            "swap": None if self.swap is None else seat_name(self.swap),
            "uno": "true" if self.uno else None,
            "flipcolor": None if self.flip_color is None else self.flip_color.name,
        }
        return {key: value for key, value in given.items() if value is not None}

    def engine_args(self) -> tuple[int, bool, int, int, bool, int]:
        """``(color, flex, target, swap, uno, flip_color)`` as the engines take
        them (-1 for an absent colour, seat or flip colour)."""
        return (
            -1 if self.color is None else int(self.color),
            self.flex,
            -1 if self.target is None else self.target,
            -1 if self.swap is None else self.swap,
            self.uno,
            -1 if self.flip_color is None else int(self.flip_color),
        )


@dataclass(frozen=True, slots=True)
class _SeatCommand:
    """A command given by ``seat``, written ``P1 VERB`` (its verb in
    :data:`_WORD`) and then its other fields: a colour by its letter, a seat
    as ``P2``."""

    seat: int

    def __str__(self) -> str:
        kind = type(self)
        text = f"{seat_name(self.seat)} {_WORD[kind]}"
        for name in _ARGUMENTS[kind]:
            value = getattr(self, name)
            text += f" {value.name}" if isinstance(value, Color) else f" {seat_name(value)}"
        return text


@dataclass(frozen=True, slots=True)
class ChooseColor(_SeatCommand):
    """Declare the colour when the game waits for one (first card, Flip-exposed wild)."""

    color: Color


@dataclass(frozen=True, slots=True)
class Catch(_SeatCommand):
    """Catch ``target`` for not calling UNO."""

    target: int


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round of the match (only in ``ROUND_OVER``)."""

    def __str__(self) -> str:
        return "NEXT"


@dataclass(frozen=True, slots=True)
class Draw(_SeatCommand):
    """Draw the turn's card, or take a stacked penalty."""


@dataclass(frozen=True, slots=True)
class Pass(_SeatCommand):
    """Keep the playable card just drawn."""


@dataclass(frozen=True, slots=True)
class Accept(_SeatCommand):
    """Take the penalty of a restricted wild draw without challenging."""


@dataclass(frozen=True, slots=True)
class Challenge(_SeatCommand):
    """Challenge a restricted wild draw."""


@dataclass(frozen=True, slots=True)
class CallUno(_SeatCommand):
    """Call "UNO"."""


Action = Play | Draw | Pass | ChooseColor | Accept | Challenge | CallUno | Catch | NextRound

_SIMPLE: dict[str, type[Draw | Pass | Accept | Challenge | CallUno]] = {
    "DRAW": Draw,
    "PASS": Pass,
    "ACCEPT": Accept,
    "CHALLENGE": Challenge,
    "UNO": CallUno,
}
_WORD: dict[type[_SeatCommand], str] = {kind: word for word, kind in _SIMPLE.items()}
_WORD |= {ChooseColor: "COLOR", Catch: "CATCH"}
# the fields written after the verb, by class (str() is on the engine's paths)
_ARGUMENTS = {kind: tuple(f.name for f in fields(kind)[1:]) for kind in _WORD}
_KEYWORDS = ("color", "side", "target", "swap", "uno", "flipcolor")


def parse_action(text: str, cards: CardSet) -> Action:
    """Read one command in the notation of docs/scenario-format.md.

    Raises :class:`ParseError` with a message that says what is wrong."""
    words = text.split()
    if not words:
        raise ParseError("empty command")
    if len(words) == 1 and words[0].upper() in ("NEXT", "NEXT_ROUND"):
        return NextRound()
    if len(words) < 2:
        raise ParseError(f"incomplete command {text!r}: expected a seat and a verb, e.g. 'P1 DRAW'")
    seat = parse_seat(words[0])
    verb = words[1].upper()
    rest = words[2:]
    if verb in _SIMPLE:
        if rest:
            raise ParseError(f"{verb} takes no arguments: {text!r}")
        return _SIMPLE[verb](seat)
    if verb == "COLOR":
        if len(rest) != 1:
            raise ParseError(f"COLOR takes one colour, e.g. 'P1 COLOR G': {text!r}")
        return ChooseColor(seat, parse_color(rest[0]))
    if verb == "CATCH":
        if len(rest) != 1:
            raise ParseError(f"CATCH takes one seat, e.g. 'P0 CATCH P2': {text!r}")
        return Catch(seat, parse_seat(rest[0]))
    if verb == "PLAY":
        if not rest:
            raise ParseError(f"PLAY needs a card, e.g. 'P1 PLAY R5': {text!r}")
        card, *more = (cards.parse(word) for word in rest[0].split("+"))
        kw: dict[str, str] = {}
        for word in rest[1:]:
            key, sep, value = word.partition("=")
            key = key.lower()
            if not sep or not value:
                raise ParseError(f"expected key=value, got {word!r} in {text!r}")
            if key not in _KEYWORDS:
                raise ParseError(
                    f"unknown keyword {key!r} in {text!r}: expected {', '.join(_KEYWORDS)}"
                )
            if key in kw:
                raise ParseError(f"keyword {key!r} given twice in {text!r}")
            kw[key] = value
        side = kw.get("side", "regular").lower()
        if side not in ("regular", "flex"):
            raise ParseError(f"side must be regular or flex, got {side!r}")
        uno = kw.get("uno", "false").lower()
        if uno not in ("true", "false"):
            raise ParseError(f"uno must be true or false, got {uno!r}")
        return Play(
            seat,
            card,
            color=parse_color(kw["color"]) if "color" in kw else None,
            flex=side == "flex",
            target=parse_seat(kw["target"]) if "target" in kw else None,
            swap=parse_seat(kw["swap"]) if "swap" in kw else None,
            uno=uno == "true",
            flip_color=parse_color(kw["flipcolor"]) if "flipcolor" in kw else None,
            more=tuple(more),
        )
    raise ParseError(
        f"unknown command {words[1]!r} in {text!r}: expected PLAY, DRAW, PASS, COLOR, "
        "ACCEPT, CHALLENGE, UNO, CATCH or NEXT"
    )
