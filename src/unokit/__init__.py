"""unokit: an exact, fast, deterministic engine for Classic UNO, UNO Flip and UNO Flex.

>>> import unokit
>>> game = unokit.Game.new("classic", players=2, seed=42)
>>> action = game.legal_actions()[0]
>>> events = game.apply(action)
"""

from unokit import _compat
from unokit.engine.actions import (
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
from unokit.engine.cards import CLASSIC, FLEX, FLIP, Card, Color, Face, Kind
from unokit.engine.errors import (
    IllegalActionError,
    InvalidPositionError,
    OptionError,
    ParseError,
    RecordError,
    UnoError,
)
from unokit.engine.game import Game, Phase, UnoState
from unokit.engine.options import Options
from unokit.engine.variants import VARIANTS, get_variant

__version__ = "0.1.0"

# The module paths before the engine moved into packages (unokit.game, ...).
_compat.install()

__all__ = [
    "Accept", "Action", "CallUno", "Catch", "Challenge", "ChooseColor", "Draw", "NextRound",
    "Pass", "Play", "parse_action", "CLASSIC", "FLEX", "FLIP", "Card", "Color", "Face", "Kind",
    "IllegalActionError", "InvalidPositionError", "OptionError", "ParseError", "RecordError",
    "UnoError", "Game", "Phase", "UnoState", "Options", "VARIANTS", "get_variant",
]  # fmt: skip
