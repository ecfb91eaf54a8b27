"""Variants as rule sets: the per-variant card tables the engine's hot path reads.

Everything a rule needs to know about a card (colour, kind, number, what it
matches, points, draw amount) is precomputed here as flat lists indexed by card
id and side, so that the engine never inspects :class:`~unokit.engine.cards.Face`
objects while playing.

>>> v = VARIANTS["classic"]
>>> v.name, v.min_players, v.max_players, len(v.cards)
('classic', 2, 10, 54)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from unokit.engine.cards import CLASSIC, FLEX, FLIP, CardSet, Color, Kind
from unokit.engine.decks import classic_deck, flex_deck, flip_deck
from unokit.engine.errors import OptionError, look_up
from unokit.engine.options import Options

__all__ = ["Variant", "VARIANTS", "get_variant", "WILD_BIT"]

# Match-key bits: colours 0-7, numbers 8-17, symbol classes 18-24, wild 30.
WILD_BIT = 1 << 30
_NUM_BASE = 8
_SYMBOL_BIT = {
    Kind.SKIP: 1 << 18,
    Kind.FLEX_SKIP: 1 << 18,
    Kind.REVERSE: 1 << 19,
    Kind.FLEX_REVERSE: 1 << 19,
    Kind.DRAW_TWO: 1 << 20,
    Kind.FLEX_DRAW_TWO: 1 << 20,
    Kind.DRAW_ONE: 1 << 21,
    Kind.DRAW_FIVE: 1 << 22,
    Kind.FLIP: 1 << 23,
    Kind.SKIP_EVERYONE: 1 << 24,
}
_DRAW_AMOUNT = {
    Kind.DRAW_TWO: 2,
    Kind.DRAW_ONE: 1,
    Kind.DRAW_FIVE: 5,
    Kind.WILD_DRAW_FOUR: 4,
    Kind.WILD_DRAW_TWO: 2,
    Kind.FLEX_DRAW_TWO: 2,
    Kind.FLEX_WILD_DRAW_FOUR: 4,
}
_RESTRICTED = frozenset(
    {Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR, Kind.FLEX_WILD_DRAW_FOUR}
)
# Draw cards that may be stacked (docs/rules.md §6.1), regular side only.
_STACKABLE = frozenset(
    {
        Kind.DRAW_TWO,
        Kind.WILD_DRAW_FOUR,
        Kind.DRAW_ONE,
        Kind.WILD_DRAW_TWO,
        Kind.DRAW_FIVE,
        Kind.FLEX_DRAW_TWO,
        Kind.FLEX_WILD_DRAW_FOUR,
    }
)
# Stacking class for ``same_symbol``: the same card type (Draw Two and Flex Draw
# Two share a symbol class, docs/rules.md D38).
_STACK_CLASS = {
    Kind.DRAW_TWO: 1,
    Kind.FLEX_DRAW_TWO: 1,
    Kind.WILD_DRAW_FOUR: 2,
    Kind.FLEX_WILD_DRAW_FOUR: 2,
    Kind.DRAW_ONE: 3,
    Kind.WILD_DRAW_TWO: 4,
    Kind.DRAW_FIVE: 5,
}


# The regular side of a Flex action shows the classic symbol (docs/rules.md D38, D64).
_SAME_SYMBOL = {
    Kind.FLEX_SKIP: Kind.SKIP,
    Kind.FLEX_REVERSE: Kind.REVERSE,
    Kind.FLEX_DRAW_TWO: Kind.DRAW_TWO,
}


@dataclass(eq=False)
class Variant:
    """One game of the family: its cards, deck, player limits and card tables."""

    name: str
    cards: CardSet
    min_players: int
    max_players: int
    two_sided: bool  # Flip
    flex: bool  # Flex
    make_deck: Callable[[Options, int], list[int]]

    def __post_init__(self) -> None:
        n = len(self.cards)
        self._decks: dict[object, tuple[int, ...]] = {}
        sides = (0, 1) if self.two_sided else (0,)
        self.color: list[list[int]] = [[-1] * n, [-1] * n]
        self.kind: list[list[int]] = [[0] * n, [0] * n]
        self.number: list[list[int]] = [[-1] * n, [-1] * n]
        self.mask: list[list[int]] = [[0] * n, [0] * n]
        self.topkey: list[list[int]] = [[0] * n, [0] * n]
        self.points: list[list[int]] = [[0] * n, [0] * n]
        self.draw_amount: list[list[int]] = [[0] * n, [0] * n]
        self.restricted: list[list[bool]] = [[False] * n, [False] * n]
        self.stack_class: list[list[int]] = [[0] * n, [0] * n]
        self.ident: list[list[int]] = [[-1] * n, [-1] * n]
        self.flexmask: list[int] = [0] * n
        self.cut_value: list[int] = [0] * n  # dealer cut: numbers, else 0 (§1.2)
        self.flip_icon: list[bool] = [False] * n
        for cid, card in enumerate(self.cards.cards):
            for side in (0, 1):
                f = card.face(side if side in sides else 0)
                k = f.kind
                col = -1 if f.color is None else int(f.color)
                num = -1 if f.number is None else f.number
                self.color[side][cid] = col
                self.kind[side][cid] = int(k)
                self.number[side][cid] = num
                key = 0
                if num >= 0:
                    key = 1 << (_NUM_BASE + num)
                elif k in _SYMBOL_BIT:
                    key = _SYMBOL_BIT[k]
                self.topkey[side][cid] = key
                self.mask[side][cid] = WILD_BIT if f.is_wild else (1 << col) | key
                self.points[side][cid] = f.points
                self.draw_amount[side][cid] = _DRAW_AMOUNT.get(k, 0)
                self.restricted[side][cid] = k in _RESTRICTED
                self.stack_class[side][cid] = _STACK_CLASS.get(k, 0)
                if not f.is_wild:
                    # identity for jump-ins: colour and number or symbol of the face
                    # (Flex: its regular side, so a Flex Skip is identical to a Skip, D64)
                    ik = _SAME_SYMBOL.get(k, k)
                    self.ident[side][cid] = col * 1000 + int(ik) * 20 + num + 1
            f = card.light
            self.cut_value[cid] = f.number or 0
            self.flip_icon[cid] = f.flip_icon
            if self.flex:
                if f.flex_color is not None:
                    assert f.number is not None
                    self.flexmask[cid] = (1 << int(f.flex_color)) | (1 << (_NUM_BASE + f.number))
                elif card.has_flex_side:
                    self.flexmask[cid] = self.mask[0][cid]

    def deck(self, options: Options, seed: int) -> list[int]:
        """A fresh list of the ids of a full deck under ``options`` (cached)."""
        return list(self.deck_ids(options, seed))

    def deck_ids(self, options: Options, seed: int) -> tuple[int, ...]:
        """The ids of a full deck under ``options`` (cached, shared: do not modify)."""
        key = (
            (options.flipPairing, seed)
            if options.flipPairing == "random_seeded"
            else (options.flexDeck if self.flex else "")
        )
        cached = self._decks.get(key)
        if cached is None:
            cached = self._decks[key] = tuple(self.make_deck(options, seed))
            if len(self._decks) > 64:
                self._decks.clear()
        return cached

    def colors(self, side: int) -> tuple[Color, ...]:
        """The colours that may be declared on ``side``."""
        if side:
            return (Color.Pk, Color.Tl, Color.Or, Color.Pu)
        return (Color.R, Color.Y, Color.G, Color.B)

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


def _classic(options: Options, seed: int) -> list[int]:
    return classic_deck()


def _flip(options: Options, seed: int) -> list[int]:
    return flip_deck(options.flipPairing, seed)


def _flex(options: Options, seed: int) -> list[int]:
    return flex_deck(options.flexDeck)


VARIANTS: dict[str, Variant] = {
    "classic": Variant("classic", CLASSIC, 2, 10, False, False, _classic),
    "flip": Variant("flip", FLIP, 2, 10, True, False, _flip),
    "flex": Variant("flex", FLEX, 2, 8, False, True, _flex),
}


def get_variant(name: str | Variant) -> Variant:
    """Look a variant up by name (``classic``, ``flip``, ``flex``)."""
    if isinstance(name, Variant):
        return name
    return look_up(VARIANTS, name, OptionError, "variant", ", ".join(VARIANTS))
