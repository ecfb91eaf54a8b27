"""Game options: every key of docs/rules.md (Options), with validation.

Keys are written as in the spec (``stacking``, ``targetScore``...). Anything not
given is at its default, and the defaults reproduce the official rules.

>>> opts = Options.from_dict({"stacking": "same_symbol", "targetScore": 200})
>>> opts.stacking, opts.targetScore, opts.jumpIn
('same_symbol', 200, False)
>>> opts.to_dict()
{'targetScore': 200, 'stacking': 'same_symbol'}
>>> Options.from_dict({"stacking": "always"})
Traceback (most recent call last):
...
unokit.engine.errors.OptionError: option stacking: 'always' is not one of off, same_symbol, escalate
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from unokit.engine.errors import OptionError

__all__ = ["Options", "OPTION_CHOICES", "HOUSE_RULES"]

# Options that take one of a fixed set of strings.
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "scoringMode": ("highest", "lowest"),
    "matchMode": ("points", "single_round"),
    "lowestModeTie": ("co_winners", "play_on"),
    "dealerRotation": ("left", "winner", "random"),
    "misplayPenalty": ("off", "on"),
    "blockedRound": ("no_score", "lowest_hand_wins"),
    "flipPairing": ("canonical", "random_seeded"),
    "flipFirstCardWild": ("choose", "redraw"),
    "flipFirstCardFlip": ("flip", "redraw"),
    "flipExposedWildChooser": ("flip_player", "next_player"),
    "flexWildAllFlipResetCheck": ("immediate", "skip_after_wild_all_flip"),
    "flexFirstCardIgnored": ("stay_in_discard", "return_to_deck"),
    "stacking": ("off", "same_symbol", "escalate"),
}

#: The six house rules of docs/rules.md §6 (all off by default).
HOUSE_RULES = ("stacking", "jumpIn", "sevenZero", "drawUntilPlayable", "forcedPlay", "noBluff")


@dataclass(frozen=True, slots=True)
class Options:
    """All options of docs/rules.md (Options). Field names are the spec's keys."""

    targetScore: int = 500
    scoringMode: str = "highest"
    matchMode: str = "points"
    lowestModeTie: str = "co_winners"
    dealerSelection: str = "cut"  # cut | random | fixed | fixed:<seat>
    dealerRotation: str = "left"
    handSize: int = 7
    unoPenalty: int = 2
    falseCatchPenalty: int = 0
    misplayPenalty: str = "off"
    blockedRound: str = "no_score"
    wildDrawWildsCountAsMatch: bool = False
    flipPairing: str = "canonical"
    flipFirstCardWild: str = "choose"
    flipFirstCardFlip: str = "flip"
    flipExposedWildChooser: str = "flip_player"
    flipReverseDrawPile: bool = True
    flipLastCardFlips: bool = True
    flipDrawColorCap: int | None = None
    flexDeck: str = "default_v1"
    flexWildsCountAsMatch: bool = True
    flexFlexColorsCountAsMatch: bool = False
    flexWildAllFlipResetCheck: str = "immediate"
    flexFlexSideWD4Restricted: bool = False
    flexFirstCardIgnored: str = "stay_in_discard"
    flexActionCardsHaveFlexColor: bool = False
    stacking: str = "off"
    jumpIn: bool = False
    sevenZero: bool = False
    drawUntilPlayable: bool = False
    forcedPlay: bool = False
    noBluff: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name))

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> Options:
        """Build from ``{key: value}``; strings such as ``"true"`` or ``"12"`` are
        accepted for booleans and integers (they come from command lines)."""
        if not values:
            return cls()
        known = [f.name for f in fields(cls)]
        lookup = {_norm(k): k for k in known}
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            name = lookup.get(_norm(str(key)))
            if name is None:
                raise OptionError(
                    f"unknown option {key!r}; known options: {', '.join(sorted(known))}"
                )
            kwargs[name] = _coerce(name, value)
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Options:
        """A copy with some options changed (validated)."""
        return self.from_dict(self.to_dict() | changes)

    def to_dict(self) -> dict[str, Any]:
        """The options that differ from their defaults, in spec order."""
        return {
            name: value
            for name, default in _DEFAULT_ITEMS
            if (value := getattr(self, name)) != default
        }

    @property
    def dealer_fixed_seat(self) -> int | None:
        """The seat of ``dealerSelection=fixed[:seat]``, else None."""
        if self.dealerSelection == "fixed":
            return 0
        if self.dealerSelection.startswith("fixed:"):
            return int(self.dealerSelection[6:])
        return None


def _norm(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


_BOOLS = {
    "wildDrawWildsCountAsMatch",
    "flipReverseDrawPile",
    "flipLastCardFlips",
    "flexWildsCountAsMatch",
    "flexFlexColorsCountAsMatch",
    "flexFlexSideWD4Restricted",
    "flexActionCardsHaveFlexColor",
    "jumpIn",
    "sevenZero",
    "drawUntilPlayable",
    "forcedPlay",
    "noBluff",
}
# Values the engine cannot honour: refused, never accepted and ignored (docs/rules.md D66).
_REFUSED: dict[str, tuple[object, str]] = {
    "flexActionCardsHaveFlexColor": (
        True,
        "not supported -- no Flex deck defines flex colours for action cards "
        "(docs/rules.md D32, D66); only false is accepted",
    ),
}
_INTS = {"targetScore", "handSize", "unoPenalty", "falseCatchPenalty"}


def _coerce(name: str, value: Any) -> Any:
    if isinstance(value, str):
        v = value.strip()
        if name in _BOOLS:
            low = v.lower()
            if low in ("true", "on", "yes", "1"):
                return True
            if low in ("false", "off", "no", "0"):
                return False
        elif name in _INTS or name == "flipDrawColorCap":
            if name == "flipDrawColorCap" and v.lower() in ("null", "none", ""):
                return None
            try:
                return int(v)
            except ValueError:
                raise OptionError(f"option {name}: {value!r} is not an integer") from None
        elif name == "misplayPenalty" and v.lower() in ("true", "false"):
            return "on" if v.lower() == "true" else "off"
        return v
    if name == "misplayPenalty" and isinstance(value, bool):
        return "on" if value else "off"
    return value


def _check(name: str, value: Any) -> None:
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise OptionError(f"option {name}: {value!r} is not a boolean (true/false)")
        if name in _REFUSED and value == _REFUSED[name][0]:
            raise OptionError(f"option {name}={str(value).lower()}: {_REFUSED[name][1]}")
        return
    if name in _INTS:
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(f"option {name}: {value!r} is not an integer")
        low = {"targetScore": 1, "handSize": 1, "unoPenalty": 0, "falseCatchPenalty": 0}[name]
        # handSize: its upper limit depends on the players and the deck (D59),
        # checked when a game is created (unokit.engine.game.check_deal)
        high = {"targetScore": 10**9, "handSize": 10**9, "unoPenalty": 20, "falseCatchPenalty": 20}
        if not low <= value <= high[name]:
            raise OptionError(f"option {name}: {value} is outside {low}..{high[name]}")
        return
    if name == "flipDrawColorCap":
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise OptionError(f"option flipDrawColorCap: {value!r} is not null or an integer >= 1")
        return
    if name == "dealerSelection":
        ok = value in ("cut", "random", "fixed") or (
            isinstance(value, str) and value.startswith("fixed:") and value[6:].isdigit()
        )
        if not ok:
            raise OptionError(
                f"option dealerSelection: {value!r} is not one of cut, random, fixed, fixed:<seat>"
            )
        return
    if name == "flexDeck":
        if not isinstance(value, str) or not value:
            raise OptionError(f"option flexDeck: {value!r} is not a deck table name")
        return
    choices = OPTION_CHOICES[name]
    if value not in choices:
        raise OptionError(f"option {name}: {value!r} is not one of {', '.join(choices)}")


_DEFAULT = Options()
# (name, default) of every option, in spec order: to_dict runs once per
# observation sent by the web server, so it does not call fields() each time
_DEFAULT_ITEMS = tuple((f.name, getattr(_DEFAULT, f.name)) for f in fields(Options))
