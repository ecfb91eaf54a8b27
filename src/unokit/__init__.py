"""unokit: an exact, fast, deterministic engine for Classic UNO, UNO Flip and UNO Flex.

>>> import unokit
>>> game = unokit.Game.new("classic", players=2, seed=42)
>>> action = game.legal_actions()[0]
>>> events = game.apply(action)
"""

from unokit.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    NextRound,
    Pass,
    Play,
    parse_action,
)
from unokit.cards import CLASSIC, FLEX, FLIP, Card, Color, Face, Kind
from unokit.errors import (
    IllegalActionError,
    InvalidPositionError,
    OptionError,
    ParseError,
    RecordError,
    UnoError,
)
from unokit.game import Game, Phase, UnoState
from unokit.options import Options
from unokit.variants import VARIANTS, get_variant

__version__ = "0.1.0"

__all__ = [
    "Accept", "Action", "CallUno", "Catch", "Challenge", "ChooseColor", "Draw", "NextRound",
    "Pass", "Play", "parse_action", "CLASSIC", "FLEX", "FLIP", "Card", "Color", "Face", "Kind",
    "IllegalActionError", "InvalidPositionError", "OptionError", "ParseError", "RecordError",
    "UnoError", "Game", "Phase", "UnoState", "Options", "VARIANTS", "get_variant",
]  # fmt: skip
