"""Cards, faces and colours of the three variants, in the notation of docs/rules.md §0.

Cards are immutable. Every card that a variant can ever use is interned in that
variant's :class:`CardSet` and has a small integer id; the engine works on ids
and the public API on :class:`Card` objects. ``str(card)`` is the notation and
:meth:`CardSet.parse` reads it back:

>>> from unokit.engine.cards import CLASSIC, FLIP, FLEX
>>> str(CLASSIC.parse("rd2"))
'RD2'
>>> card = FLIP.parse("R3|WDC")
>>> card.light.kind.name, card.dark.kind.name
('NUMBER', 'WILD_DRAW_COLOR')
>>> str(FLEX.parse("R5~G").light), FLEX.parse("R5~G").light.flex_color
('R5~G', <Color.G: 2>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from unokit.engine.errors import ParseError, look_up

__all__ = [
    "Color",
    "Kind",
    "Face",
    "Card",
    "CardSet",
    "CLASSIC",
    "FLIP",
    "FLEX",
    "LIGHT_COLORS",
    "DARK_COLORS",
    "parse_color",
    "NamedIntEnum",
]


class NamedIntEnum(IntEnum):
    """An :class:`~enum.IntEnum` whose ``str()`` is its member's name."""

    def __str__(self) -> str:
        return self.name


class Color(NamedIntEnum):
    """A card colour. ``R Y G B`` are the light (and Classic/Flex) colours, the
    other four are the colours of the dark side of UNO Flip."""

    R = 0
    Y = 1
    G = 2
    B = 3
    Pk = 4
    Tl = 5
    Or = 6
    Pu = 7

    @property
    def long_name(self) -> str:
        return _LONG_COLOR[self]


_LONG_COLOR = ["Red", "Yellow", "Green", "Blue", "Pink", "Teal", "Orange", "Purple"]
LIGHT_COLORS: tuple[Color, ...] = (Color.R, Color.Y, Color.G, Color.B)
DARK_COLORS: tuple[Color, ...] = (Color.Pk, Color.Tl, Color.Or, Color.Pu)
_COLOR_BY_TEXT = {c.name.lower(): c for c in Color} | {
    n.lower(): Color(i) for i, n in enumerate(_LONG_COLOR)
}


def parse_color(text: str) -> Color:
    """Read a colour written ``R``/``Pk`` or in full (``red``, ``Teal``), any case.

    >>> parse_color("tl"), parse_color("Orange")
    (<Color.Tl: 5>, <Color.Or: 6>)
    """
    return look_up(
        _COLOR_BY_TEXT, text, ParseError, "colour", "R Y G B (Flip dark side: Pk Tl Or Pu)"
    )


class Kind(IntEnum):
    """What a face does. The effect of each kind is in docs/rules.md §2.2, §3.4, §4.5."""

    NUMBER = 0
    SKIP = 1
    REVERSE = 2
    DRAW_TWO = 3
    DRAW_ONE = 4  # Flip light
    DRAW_FIVE = 5  # Flip dark
    FLIP = 6  # Flip
    SKIP_EVERYONE = 7  # Flip dark
    FLEX_SKIP = 8
    FLEX_REVERSE = 9
    FLEX_DRAW_TWO = 10
    WILD = 11  # Classic/Flip light wild, Flip dark wild (DW)
    WILD_DRAW_FOUR = 12  # Classic
    WILD_DRAW_TWO = 13  # Flip light
    WILD_DRAW_COLOR = 14  # Flip dark
    WILD_ALL_FLIP = 15  # Flex
    WILD_ALL_DRAW = 16  # Flex (regular side: plain wild)
    WILD_TARGET_DRAW = 17  # Flex (regular side: plain wild)
    FLEX_WILD_DRAW_FOUR = 18  # Flex

    @property
    def is_wild(self) -> bool:
        return self >= Kind.WILD

    @property
    def long_name(self) -> str:
        return _KIND_NAMES[self]


_KIND_NAMES = {
    Kind.NUMBER: "",
    Kind.SKIP: "Skip",
    Kind.REVERSE: "Reverse",
    Kind.DRAW_TWO: "Draw Two",
    Kind.DRAW_ONE: "Draw One",
    Kind.DRAW_FIVE: "Draw Five",
    Kind.FLIP: "Flip",
    Kind.SKIP_EVERYONE: "Skip Everyone",
    Kind.FLEX_SKIP: "Flex Skip",
    Kind.FLEX_REVERSE: "Flex Reverse",
    Kind.FLEX_DRAW_TWO: "Flex Draw Two",
    Kind.WILD: "Wild",
    Kind.WILD_DRAW_FOUR: "Wild Draw Four",
    Kind.WILD_DRAW_TWO: "Wild Draw Two",
    Kind.WILD_DRAW_COLOR: "Wild Draw Color",
    Kind.WILD_ALL_FLIP: "Wild All Flip",
    Kind.WILD_ALL_DRAW: "Flex Wild All Draw",
    Kind.WILD_TARGET_DRAW: "Flex Wild Target Draw 2",
    Kind.FLEX_WILD_DRAW_FOUR: "Flex Wild Draw Four",
}

# Notation suffix of each coloured action kind.
_ACTION_SUFFIX = {
    Kind.SKIP: "S",
    Kind.REVERSE: "R",
    Kind.DRAW_TWO: "D2",
    Kind.DRAW_ONE: "D1",
    Kind.DRAW_FIVE: "D5",
    Kind.FLIP: "F",
    Kind.SKIP_EVERYONE: "SE",
    Kind.FLEX_SKIP: "FS",
    Kind.FLEX_REVERSE: "FR",
    Kind.FLEX_DRAW_TWO: "FD2",
}

# Points of each kind (numbers score their face value). docs/rules.md §2.6, §3.11, §4.10.
_POINTS = {
    Kind.SKIP: 20,
    Kind.REVERSE: 20,
    Kind.DRAW_TWO: 20,
    Kind.DRAW_ONE: 10,
    Kind.DRAW_FIVE: 20,
    Kind.FLIP: 20,
    Kind.SKIP_EVERYONE: 30,
    Kind.FLEX_SKIP: 20,
    Kind.FLEX_REVERSE: 20,
    Kind.FLEX_DRAW_TWO: 20,
    Kind.WILD: 50,  # Flip wilds score 40: see Face.points
    Kind.WILD_DRAW_FOUR: 50,
    Kind.WILD_DRAW_TWO: 50,
    Kind.WILD_DRAW_COLOR: 60,
    Kind.WILD_ALL_FLIP: 50,
    Kind.WILD_ALL_DRAW: 50,
    Kind.WILD_TARGET_DRAW: 50,
    Kind.FLEX_WILD_DRAW_FOUR: 50,
}


@dataclass(frozen=True, slots=True)
class Face:
    """One printed face. ``color`` is ``None`` for wilds; ``number`` for number
    cards only; ``flex_color`` for Flex number cards; ``flip_icon`` for Flex
    numbers that toggle the Power Card; ``flip`` marks Flip-deck faces (whose
    wilds are worth 40) and ``dark`` the faces of Flip's dark side."""

    kind: Kind
    color: Color | None = None
    number: int | None = None
    flex_color: Color | None = None
    flip_icon: bool = False
    flip: bool = False
    dark: bool = False
    # the notation, computed once (cards are printed on every observation)
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_text", self._write(_NOTATION))

    def __str__(self) -> str:
        return self._text

    def _write(self, style: _Style) -> str:
        """The face in the notation (:data:`_NOTATION`) or in words (:data:`_WORDS`)."""
        k, color = self.kind, self.color
        if color is None:
            return style.wilds[(k, k is Kind.WILD and self.dark)]
        if k is not Kind.NUMBER:
            return style.color(color) + style.between + style.actions[k]
        text = f"{style.color(color)}{style.between}{self.number}"
        if self.flex_color is not None:
            return text + style.flex.format(style.color(self.flex_color))
        return text + style.icon if self.flip_icon else text

    @property
    def is_wild(self) -> bool:
        return self.kind >= Kind.WILD

    @property
    def is_number(self) -> bool:
        return self.kind is Kind.NUMBER

    @property
    def points(self) -> int:
        """Scoring value of this face (docs/rules.md §2.6, §3.11, §4.10)."""
        if self.kind is Kind.NUMBER:
            assert self.number is not None
            return self.number
        if self.flip and self.kind is Kind.WILD:
            return 40
        return _POINTS[self.kind]

    @property
    def long_name(self) -> str:
        """Plain-words name, e.g. ``"Red 5"``, ``"Pink Skip Everyone"``."""
        return self._write(_WORDS)


_WILD_TEXT = {
    (Kind.WILD, False): "W",
    (Kind.WILD, True): "DW",
    (Kind.WILD_DRAW_FOUR, False): "W4",
    (Kind.WILD_DRAW_TWO, False): "W2",
    (Kind.WILD_DRAW_COLOR, False): "WDC",
    (Kind.WILD_ALL_FLIP, False): "WAF",
    (Kind.WILD_ALL_DRAW, False): "WAD",
    (Kind.WILD_TARGET_DRAW, False): "WTD",
    (Kind.FLEX_WILD_DRAW_FOUR, False): "FW4",
}


class _Style(NamedTuple):
    """How a face is written: in the notation (``R5~G``, ``RD2``, ``DW``) or
    in words (``Red 5 (flex Green)``, ``Red Draw Two``, ``Dark Wild``)."""

    color: Callable[[Color], str]  # a colour's name
    between: str  # between the colour and the number or the action
    actions: Mapping[Kind, str]  # a coloured action kind
    wilds: Mapping[tuple[Kind, bool], str]  # a wild kind (and whether the dark Wild)
    flex: str  # after a Flex number: the format of its flex colour
    icon: str  # after a Flex number with the flip icon


_NOTATION = _Style(lambda c: c.name, "", _ACTION_SUFFIX, _WILD_TEXT, "~{}", "*")
_WORDS = _Style(
    lambda c: c.long_name,
    " ",
    _KIND_NAMES,
    {(k, dark): "Dark Wild" if dark else _KIND_NAMES[k] for k, dark in _WILD_TEXT},
    " (flex {})",
    " (flip icon)",
)


@dataclass(frozen=True, slots=True)
class Card:
    """A physical card: one face (Classic, Flex) or a light/dark pair (Flip).

    In Flex the single face also carries the card's flex side (``flex_color``
    for Flex numbers; the Flex action and Flex wild kinds imply theirs)."""

    light: Face
    dark: Face | None = None
    _text: str = field(default="", init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        text = str(self.light) if self.dark is None else f"{self.light}|{self.dark}"
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def face(self, side: int) -> Face:
        """The face shown on ``side`` (0 light, 1 dark); Classic/Flex cards have one face."""
        if side and self.dark is not None:
            return self.dark
        return self.light

    @property
    def has_flex_side(self) -> bool:
        """Flex cards that may be played on their flex side."""
        f = self.light
        return f.flex_color is not None or f.kind in _FLEXABLE


_FLEXABLE = frozenset(
    {
        Kind.FLEX_SKIP,
        Kind.FLEX_REVERSE,
        Kind.FLEX_DRAW_TWO,
        Kind.WILD_ALL_DRAW,
        Kind.WILD_TARGET_DRAW,
        Kind.FLEX_WILD_DRAW_FOUR,
    }
)


class CardSet:
    """Every card one variant can use, interned with a dense integer id.

    ``cards[i]`` is the card with id ``i``; ``index[card]`` its id. Parsing is
    case-insensitive; printing always uses the canonical case.
    """

    def __init__(self, name: str, cards: list[Card]) -> None:
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self.index: dict[Card, int] = {c: i for i, c in enumerate(cards)}
        self._by_text: dict[str, int] = {}
        for i, c in enumerate(cards):
            self._by_text[str(c)] = i
            self._by_text.setdefault(str(c).lower(), i)
        self._faces: dict[str, Face] = {}
        for c in cards:
            for f in (c.light, c.dark):
                if f is not None:
                    self._faces.setdefault(str(f).lower(), f)

    def __len__(self) -> int:
        return len(self.cards)

    def parse_id(self, text: str) -> int:
        """The id of the card written ``text``; raises :class:`ParseError`."""
        t = text.strip()
        i = self._by_text.get(t)
        if i is None:
            i = self._by_text.get(t.lower())
        if i is None:
            raise ParseError(self._explain(t))
        return i

    def parse(self, text: str) -> Card:
        """The card written ``text``; raises :class:`ParseError`."""
        return self.cards[self.parse_id(text)]

    def parse_face(self, text: str) -> Face:
        """A single face, e.g. ``Pk5`` (used for Flip's visible back faces)."""
        f = self._faces.get(text.strip().lower())
        if f is None:
            raise ParseError(f"unknown {self.name} card face {text!r}")
        return f

    def _explain(self, text: str) -> str:
        if self.name == "flip" and "|" not in text:
            return f"unknown Flip card {text!r}: write a physical card as light|dark, e.g. R5|Pk2"
        hint = {
            "classic": "R0-R9, RS, RR, RD2, W, W4 (colours R Y G B)",
            "flip": "light|dark, light R1-R9 RD1 RS RR RF W W2, dark Pk1-Pk9 PkD5 PkSE PkR PkF DW WDC",
            "flex": "R1-R8, R4*, R5~G, RS RR RD2 RFS RFR RFD2, WAF WAD WTD FW4",
        }[self.name]
        return f"unknown {self.name} card {text!r}: expected {hint}"


def _classic_faces() -> list[Face]:
    faces = []
    for c in LIGHT_COLORS:
        faces += [Face(Kind.NUMBER, c, n) for n in range(10)]
        faces += [Face(k, c) for k in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)]
    faces += [Face(Kind.WILD), Face(Kind.WILD_DRAW_FOUR)]
    return faces


def _flip_faces() -> tuple[list[Face], list[Face]]:
    light: list[Face] = []
    dark: list[Face] = []
    for c in LIGHT_COLORS:
        light += [Face(Kind.NUMBER, c, n, flip=True) for n in range(1, 10)]
        light += [
            Face(k, c, flip=True) for k in (Kind.DRAW_ONE, Kind.SKIP, Kind.REVERSE, Kind.FLIP)
        ]
    light += [Face(Kind.WILD, flip=True), Face(Kind.WILD_DRAW_TWO, flip=True)]
    for c in DARK_COLORS:
        dark += [Face(Kind.NUMBER, c, n, flip=True, dark=True) for n in range(1, 10)]
        dark += [
            Face(k, c, flip=True, dark=True)
            for k in (Kind.DRAW_FIVE, Kind.SKIP_EVERYONE, Kind.REVERSE, Kind.FLIP)
        ]
    dark += [
        Face(Kind.WILD, flip=True, dark=True),
        Face(Kind.WILD_DRAW_COLOR, flip=True, dark=True),
    ]
    return light, dark


def _flex_faces() -> list[Face]:
    faces = []
    for c in LIGHT_COLORS:
        for n in range(1, 9):
            faces.append(Face(Kind.NUMBER, c, n))
            faces.append(Face(Kind.NUMBER, c, n, flip_icon=True))
            faces += [Face(Kind.NUMBER, c, n, flex_color=f) for f in LIGHT_COLORS if f != c]
        faces += [
            Face(k, c)
            for k in (
                Kind.SKIP,
                Kind.REVERSE,
                Kind.DRAW_TWO,
                Kind.FLEX_SKIP,
                Kind.FLEX_REVERSE,
                Kind.FLEX_DRAW_TWO,
            )
        ]
    faces += [
        Face(k)
        for k in (
            Kind.WILD_ALL_FLIP,
            Kind.WILD_ALL_DRAW,
            Kind.WILD_TARGET_DRAW,
            Kind.FLEX_WILD_DRAW_FOUR,
        )
    ]
    return faces


CLASSIC = CardSet("classic", [Card(f) for f in _classic_faces()])
_FL, _FD = _flip_faces()
FLIP = CardSet("flip", [Card(lf, df) for lf in _FL for df in _FD])
FLEX = CardSet("flex", [Card(f) for f in _flex_faces()])
