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

import random
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from unokit.engine.errors import OptionError

__all__ = [
    "Options",
    "OPTION_CHOICES",
    "HOUSE_RULES",
    "ALL_HOUSE_RULES",
    "NOT_YET_PLAYED",
    "PRESETS",
    "preset",
    "preset_options",
    "seating",
]

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
    "deflect": ("off", "reverse", "skip", "both"),
    "multiPlay": ("off", "same_number"),
    "finishRestriction": ("off", "no_action", "no_wild", "no_action_no_wild"),
    "teams": ("off", "pairs"),
    "wildDrawChallenge": ("on", "off"),
}

#: The presets of RULES.md §6.17: named starting points, each a mapping of
#: option keys to values (anything not named is at its default). A preset is
#: only a starting point: ``preset("Party", jumpIn=False)`` changes one option.
PRESETS: dict[str, dict[str, Any]] = {
    "Official": {},
    "Party": {
        "stacking": "same_symbol",
        "jumpIn": True,
        "sevenZero": True,
        "drawUntilPlayable": True,
    },
    "Crazy": {
        "stacking": "escalate",
        "deflect": "both",
        "jumpIn": True,
        "sevenZero": True,
        "multiPlay": "same_number",
        "drawUntilPlayable": True,
        "mustPlayDrawn": True,
        "wildDrawChallenge": "off",
    },
    "Merciless": {
        "stacking": "escalate",
        "deflect": "both",
        "drawUntilPlayable": True,
        "forcedPlay": True,
        "mercy": 25,
        "finishRestriction": "no_action_no_wild",
    },
}


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
    deflect: str = "off"
    zeroRotate: bool = False
    sevenSwap: bool = False
    multiPlay: str = "off"
    finishRestriction: str = "off"
    handLimit: int = 0
    mercy: int = 0
    teams: str = "off"
    wildDrawChallenge: str = "on"
    mustPlayDrawn: bool = False
    shuffleSeats: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name))
        _check_combinations(self)

    @property
    def seven_swap(self) -> bool:
        """A 7 swaps hands (``sevenZero`` or ``sevenSwap``, RULES.md §6.3, §6.8)."""
        return self.sevenZero or self.sevenSwap

    @property
    def zero_rotate(self) -> bool:
        """A 0 passes every hand on (``sevenZero`` or ``zeroRotate``, §6.3, §6.8)."""
        return self.sevenZero or self.zeroRotate

    @property
    def must_play_drawn(self) -> bool:
        """A playable drawn card must be played (``forcedPlay`` or ``mustPlayDrawn``, §6.15)."""
        return self.forcedPlay or self.mustPlayDrawn

    @property
    def no_challenge(self) -> bool:
        """Restricted wild draws are never challenged (``noBluff`` or
        ``wildDrawChallenge=off``, §6.6, §6.14)."""
        return self.noBluff or self.wildDrawChallenge == "off"

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


BOOL_OPTIONS = {
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
    "zeroRotate",
    "sevenSwap",
    "mustPlayDrawn",
    "shuffleSeats",
}
# Values the engine cannot honour: refused, never accepted and ignored (docs/rules.md D66).
_REFUSED: dict[str, tuple[object, str]] = {
    "flexActionCardsHaveFlexColor": (
        True,
        "not supported -- no Flex deck defines flex colours for action cards "
        "(docs/rules.md D32, D66); only false is accepted",
    ),
}
# on/off choices that also take a boolean
_ON_OFF = {"misplayPenalty", "wildDrawChallenge"}
# House rules of RULES.md §6.7-§6.16 this engine does not play yet: any value
# but the default is refused with this reason, never accepted and ignored (D66)
NOT_YET_PLAYED: dict[str, Any] = {}
#: Every house rule of docs/rules.md §6 (all off by default), in spec order.
ALL_HOUSE_RULES = (
    "stacking",
    "jumpIn",
    "sevenZero",
    "drawUntilPlayable",
    "forcedPlay",
    "noBluff",
    "deflect",
    "zeroRotate",
    "sevenSwap",
    "multiPlay",
    "finishRestriction",
    "handLimit",
    "mercy",
    "teams",
    "wildDrawChallenge",
    "mustPlayDrawn",
    "shuffleSeats",
)

#: The house rules the engine plays (those of ALL_HOUSE_RULES not refused).
HOUSE_RULES = tuple(k for k in ALL_HOUSE_RULES if k not in NOT_YET_PLAYED)

INT_OPTIONS = {"targetScore", "handSize", "unoPenalty", "falseCatchPenalty", "handLimit", "mercy"}


def _coerce(name: str, value: Any) -> Any:
    if isinstance(value, str):
        v = value.strip()
        if name in BOOL_OPTIONS:
            low = v.lower()
            if low in ("true", "on", "yes", "1"):
                return True
            if low in ("false", "off", "no", "0"):
                return False
        elif name in INT_OPTIONS or name == "flipDrawColorCap":
            if name == "flipDrawColorCap" and v.lower() in ("null", "none", ""):
                return None
            try:
                return int(v)
            except ValueError:
                raise OptionError(f"option {name}: {value!r} is not an integer") from None
        elif name in _ON_OFF and v.lower() in ("true", "false"):
            return "on" if v.lower() == "true" else "off"
        return v
    if name in _ON_OFF and isinstance(value, bool):
        return "on" if value else "off"
    return value


def _check_combinations(o: Options) -> None:
    """The option errors of RULES.md §6.11-§6.14: values that are valid alone
    but not together."""
    for name in ("handLimit", "mercy"):
        value = getattr(o, name)
        if value and value < o.handSize + 1:
            raise OptionError(
                f"option {name}: {value} is below handSize + 1 = {o.handSize + 1} "
                f"(0 switches it off)"
            )
    if o.mercy and o.handLimit and o.handLimit < o.mercy:
        raise OptionError(
            f"options handLimit={o.handLimit} and mercy={o.mercy} do not go together: "
            f"nobody could ever reach the mercy limit (RULES.md §6.12)"
        )
    if o.noBluff and o.wildDrawChallenge == "off":
        raise OptionError(
            "options noBluff=true and wildDrawChallenge=off do not go together (RULES.md §6.14)"
        )


@lru_cache(maxsize=256)
def _seating(seed48: int, players: int) -> tuple[int, ...]:
    r = random.Random((1 << 64) + seed48)  # a generator no shuffle of the match uses
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = int(r.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def seating(seed: int, players: int, options: Options) -> tuple[int, ...]:
    """The seats in clockwise order around the table (RULES.md §6.16): the
    identity, or under ``shuffleSeats`` a permutation drawn from the match's
    seed (the core draws the same, deal.c ``uk_init``). A function of the seed,
    so a record's seed reproduces it.

    >>> seating(0, 4, Options())
    (0, 1, 2, 3)
    >>> sorted(seating(7, 5, Options(shuffleSeats=True)))
    [0, 1, 2, 3, 4]
    """
    if not options.shuffleSeats:
        return tuple(range(players))
    return _seating(seed & 0xFFFFFFFFFFFF, players)


def preset_options(name: str) -> dict[str, Any]:
    """The options of preset ``name`` (RULES.md §6.17; case does not matter)."""
    for key, values in PRESETS.items():
        if key.lower() == str(name).strip().lower():
            return dict(values)
    raise OptionError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")


def preset(name: str, **changes: Any) -> Options:
    """Preset ``name`` as :class:`Options`, with ``changes`` on top.

    >>> preset("Party").to_dict()
    {'stacking': 'same_symbol', 'jumpIn': True, 'sevenZero': True, 'drawUntilPlayable': True}
    >>> preset("party", jumpIn=False).jumpIn
    False
    """
    return Options.from_dict(preset_options(name) | changes)


def _check(name: str, value: Any) -> None:
    _check_value(name, value)
    if name in NOT_YET_PLAYED and value != NOT_YET_PLAYED[name]:
        raise OptionError(
            f"option {name}={value!r}: this house rule (RULES.md §6) is not implemented "
            f"by the engine yet; only {NOT_YET_PLAYED[name]!r} is accepted"
        )


def _check_value(name: str, value: Any) -> None:
    if name in BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise OptionError(f"option {name}: {value!r} is not a boolean (true/false)")
        if name in _REFUSED and value == _REFUSED[name][0]:
            raise OptionError(f"option {name}={str(value).lower()}: {_REFUSED[name][1]}")
        return
    if name in INT_OPTIONS:
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(f"option {name}: {value!r} is not an integer")
        low = {
            "targetScore": 1,
            "handSize": 1,
            "unoPenalty": 0,
            "falseCatchPenalty": 0,
            "handLimit": 0,
            "mercy": 0,
        }[name]
        # handSize: its upper limit depends on the players and the deck (D59),
        # checked when a game is created (unokit.engine.game.check_deal);
        # handLimit and mercy: their lower limit depends on handSize
        # (_check_combinations)
        high = {
            "targetScore": 10**9,
            "handSize": 10**9,
            "unoPenalty": 20,
            "falseCatchPenalty": 20,
            "handLimit": 10**4,
            "mercy": 10**4,
        }
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
