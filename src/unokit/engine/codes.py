"""The integer codes the C core (``unokit/_core/core.h``) and Python share.

Written once here for Python; ``tests/engine/test_codes.py`` reads ``core.h``
and checks that every enum and bit below has the value the core gives it.
Nothing else in the package defines these numbers again.
"""

from __future__ import annotations

__all__ = [
    "TURN",
    "DRAWN",
    "COLOR",
    "CHALLENGE",
    "ROUND_OVER",
    "MATCH_OVER",
    "DEAL",
    "UNO_NONE",
    "UNO_SAFE",
    "UNO_VULNERABLE",
    "COLOR_REASONS",
    "OP_PLAY",
    "OP_DRAW",
    "OP_PASS",
    "OP_COLOR",
    "OP_ACCEPT",
    "OP_CHALLENGE",
    "OP_UNO",
    "OP_CATCH",
    "OP_NEXT",
    "OP_MULTI",
    "FLEX_BIT",
    "WILD_BIT",
    "KINDS",
    "ERRORS",
    "EVENTS",
    "DRAW_REASONS",
    "TURN_REASONS",
]

# phases (UK_TURN ..; unokit.engine.game.Phase names them)
TURN, DRAWN, COLOR, CHALLENGE, ROUND_OVER, MATCH_OVER, DEAL = range(7)
#: the phases in which a round is being played
IN_ROUND = (TURN, DRAWN, COLOR, CHALLENGE)

# UNO states (UK_UNO_*)
UNO_NONE, UNO_SAFE, UNO_VULNERABLE = range(3)

#: why AWAIT_COLOR waits (UK_REASON_*), by code
COLOR_REASONS = ("", "first_card", "flip_exposed_wild")

# move ops (UK_OP_*): op = code & 15
(OP_PLAY, OP_DRAW, OP_PASS, OP_COLOR, OP_ACCEPT, OP_CHALLENGE, OP_UNO, OP_CATCH, OP_NEXT,
 OP_MULTI) = range(10)  # fmt: skip
#: a PLAY on the card's flex side (UK_FLEX_BIT)
FLEX_BIT = 1 << 20
#: the wild bit of match masks (UK_WILD_BIT)
WILD_BIT = 1 << 30

#: card kinds (UK_NUMBER ..), in the order of unokit.engine.cards.Kind
KINDS = (
    "NUMBER", "SKIP", "REVERSE", "DRAW_TWO", "DRAW_ONE", "DRAW_FIVE", "FLIP", "SKIP_EVERYONE",
    "FLEX_SKIP", "FLEX_REVERSE", "FLEX_DRAW_TWO", "WILD", "WD4", "WD2", "WDC", "WAF", "WAD",
    "WTD", "FW4",
)  # fmt: skip

#: the core's results of a command (UK_OK, UK_ERR_*), by code: 0 accepted,
#: else refused with nothing changed
ERRORS = (
    "OK", "SEAT", "PHASE", "NOT_YOUR_TURN", "CARD", "NOT_HELD", "FORM", "NO_MATCH", "NO_BLUFF",
    "STACK", "FORCED", "MOVE", "EMPTY", "FINISH", "MUST_PLAY_DRAWN", "OUT", "MULTI",
)  # fmt: skip
ERR_OK, ERR_SEAT, ERR_PHASE, ERR_NOT_YOUR_TURN, ERR_CARD, ERR_NOT_HELD = range(6)
ERR_FORM, ERR_NO_MATCH, ERR_NO_BLUFF, ERR_STACK, ERR_FORCED, ERR_MOVE, ERR_EMPTY = range(6, 13)
ERR_FINISH, ERR_MUST_PLAY_DRAWN, ERR_OUT, ERR_MULTI = 13, 14, 15, 16

#: event record types (UK_EV_*), by code: the names of unokit.engine.events
EVENTS = (
    "RoundStarted", "CardTurned", "Played", "Drew", "Passed", "ColorChosen", "Accepted",
    "Challenged", "UnoCalled", "Caught", "Skipped", "Reversed", "Flipped", "Reshuffled",
    "PowersChanged", "HandsSwapped", "Misplayed", "RoundEnded", "MatchEnded", "Eliminated",
)  # fmt: skip

#: why cards were drawn (UK_R_*; Drew.reason), by code
DRAW_REASONS = ("draw", "penalty", "challenge", "catch", "stack", "misplay", "false_catch")
#: why a first card was turned (CardTurned.reason), by code
TURN_REASONS = ("start", "ignored", "returned")
