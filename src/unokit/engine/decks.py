"""The physical decks: Classic 108, Flip 112 two-faced cards, Flex 104 + 8 Power Cards.

>>> len(classic_deck()), len(flip_deck()), len(flex_deck())
(108, 112, 104)
>>> from unokit.engine.cards import FLIP
>>> sorted(str(FLIP.cards[i]) for i in flip_deck() if str(FLIP.cards[i]).endswith("|WDC"))
['G6|WDC', 'GF|WDC', 'R3|WDC', 'Y6|WDC']
"""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

from unokit.engine.cards import CLASSIC, FLEX, FLIP, Card, Kind
from unokit.engine.errors import OptionError, ParseError

__all__ = [
    "classic_deck",
    "flip_deck",
    "flex_deck",
    "FLIP_CANONICAL_PAIRING",
    "register_flex_deck",
    "load_flex_deck_file",
    "flex_deck_names",
]


def _flip_pairing() -> dict[str, tuple[str, ...]]:
    text = resources.files("unokit").joinpath("data/flip_pairing_canonical.json").read_text("utf-8")
    return {light: tuple(darks) for light, darks in json.loads(text)["pairs"].items()}


#: docs/rules.md Appendix A: light face -> dark faces of its physical copies
#: (the table is data/flip_pairing_canonical.json, like the Flex deck's).
FLIP_CANONICAL_PAIRING: dict[str, tuple[str, ...]] = _flip_pairing()


def classic_deck() -> list[int]:
    """The 108 card ids of Classic UNO, in a fixed order (docs/rules.md §2.1)."""
    ids = []
    for card in CLASSIC.cards:
        f = card.light
        if f.kind is Kind.NUMBER:
            ids += [CLASSIC.index[card]] * (1 if f.number == 0 else 2)
        elif f.is_wild:
            ids += [CLASSIC.index[card]] * 4
        else:
            ids += [CLASSIC.index[card]] * 2
    return ids


def flip_deck(pairing: str = "canonical", seed: int = 0) -> list[int]:
    """The 112 physical Flip cards (docs/rules.md §3.1-3.2).

    ``pairing="random_seeded"`` pairs a seeded random permutation of the dark
    faces with the light faces."""
    lights: list[str] = []
    darks: list[str] = []
    for light, dark_faces in FLIP_CANONICAL_PAIRING.items():
        for d in dark_faces:
            lights.append(light)
            darks.append(d)
    if pairing == "random_seeded":
        random.Random(f"flip-pairing:{seed}").shuffle(darks)
    elif pairing != "canonical":
        raise OptionError(f"option flipPairing: {pairing!r} is not one of canonical, random_seeded")
    return [FLIP.parse_id(f"{lf}|{df}") for lf, df in zip(lights, darks, strict=True)]


_FLEX_TABLES: dict[str, list[int]] = {}
_FLEX_ALLOWED = frozenset(Kind) - {
    Kind.DRAW_ONE,
    Kind.DRAW_FIVE,
    Kind.FLIP,
    Kind.SKIP_EVERYONE,
    Kind.WILD,
    Kind.WILD_DRAW_FOUR,
    Kind.WILD_DRAW_TWO,
    Kind.WILD_DRAW_COLOR,
}


def register_flex_deck(name: str, counts: dict[str, int]) -> list[int]:
    """Register a Flex deck composition ``{notation: count}`` under ``name``
    so that the option ``flexDeck=name`` uses it. Returns the deck's ids.

    Numbers must be 1-8 and card types those of docs/rules.md §4.1."""
    ids: list[int] = []
    for text, count in counts.items():
        try:
            cid = FLEX.parse_id(text)
        except ParseError as e:
            raise OptionError(f"flex deck {name!r}: {e}") from None
        card: Card = FLEX.cards[cid]
        if card.light.kind not in _FLEX_ALLOWED:
            raise OptionError(f"flex deck {name!r}: {text} is not a Flex card type")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 50:
            raise OptionError(f"flex deck {name!r}: count of {text} must be an integer 0..50")
        ids += [cid] * count
    if len(ids) < 8 * 7 + 10:
        raise OptionError(f"flex deck {name!r}: {len(ids)} cards is too few to deal 8 hands")
    if not any(FLEX.cards[i].light.kind is Kind.NUMBER for i in ids):
        raise OptionError(f"flex deck {name!r}: holds no number card to start on")
    _FLEX_TABLES[name] = ids
    return list(ids)


def load_flex_deck_file(path: str | Path) -> str:
    """Read a Flex deck table in the JSON format of ``data/flex_default_v1.json``
    and register it; returns its name (use it as ``flexDeck=<name>``)."""
    try:
        doc: Any = json.loads(Path(path).read_text(encoding="utf-8"))
        name, cards = doc["name"], doc["cards"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise OptionError(f"cannot read Flex deck table {path}: {e}") from None
    if not isinstance(name, str) or not isinstance(cards, dict):
        raise OptionError(f"Flex deck table {path}: 'name' must be a string, 'cards' an object")
    register_flex_deck(name, cards)
    return name


def _load_builtin() -> None:
    text = resources.files("unokit").joinpath("data/flex_default_v1.json").read_text("utf-8")
    doc = json.loads(text)
    register_flex_deck(doc["name"], doc["cards"])


def flex_deck_names() -> list[str]:
    """Names accepted by the ``flexDeck`` option."""
    return sorted(_FLEX_TABLES)


def flex_deck(name: str = "default_v1") -> list[int]:
    """The playing cards of a registered Flex deck (default: Appendix B, unverified)."""
    try:
        return list(_FLEX_TABLES[name])
    except KeyError:
        raise OptionError(
            f"option flexDeck: unknown table {name!r}; known: {', '.join(flex_deck_names())}"
        ) from None


_load_builtin()
assert Counter(str(FLIP.cards[i]).split("|")[1] for i in flip_deck())["DW"] == 4
