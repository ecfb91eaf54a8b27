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
    "ERR_OK",
    "ERR_SEAT",
    "ERR_PHASE",
    "ERR_NOT_YOUR_TURN",
    "ERR_CARD",
    "ERR_NOT_HELD",
    "ERR_FORM",
    "ERR_NO_MATCH",
    "ERR_NO_BLUFF",
    "ERR_STACK",
    "ERR_FORCED",
    "ERR_MOVE",
    "ERR_EMPTY",
    "ERR_FINISH",
    "ERR_MUST_PLAY_DRAWN",
    "ERR_OUT",
    "ERR_MULTI",
    "ERR_ROUND_OVER",
    "ERR_MATCH_OVER",
    "ERR_NOT_STARTED",
    "ERR_NOT_IN_ROUND",
    "ERR_JUMP_NOW",
    "ERR_JUMP_CARD",
    "ERR_ONLY_DRAWN",
    "ERR_NO_FLEX",
    "ERR_NO_FLEX_SIDE",
    "ERR_POWER_RED",
    "ERR_STACK_SAME",
    "ERR_STACK_LESS",
    "ERR_NEED_COLOR",
    "ERR_BAD_COLOR",
    "ERR_NOT_WILD",
    "ERR_NEED_TARGET",
    "ERR_BAD_TARGET",
    "ERR_TARGET_SELF",
    "ERR_TARGET_OUT",
    "ERR_NO_TARGET",
    "ERR_NEED_SWAP",
    "ERR_BAD_SWAP",
    "ERR_NO_SWAP",
    "ERR_NOT_FLIP",
    "ERR_FLIP_COLOR",
    "ERR_NOT_DRAWN",
    "ERR_FORCED_DRAWN",
    "ERR_NO_CHALLENGE",
    "ERR_CATCH_SELF",
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
#: else refused with nothing changed, for that reason (words:
#: :data:`unokit.engine.refusals.WORDS`)
ERRORS = (
    "OK", "SEAT", "PHASE", "NOT_YOUR_TURN", "CARD", "NOT_HELD", "FORM", "NO_MATCH", "NO_BLUFF",
    "STACK", "FORCED", "MOVE", "EMPTY", "FINISH", "MUST_PLAY_DRAWN", "OUT", "MULTI",
    "ROUND_OVER", "MATCH_OVER", "NOT_STARTED", "NOT_IN_ROUND", "JUMP_NOW", "JUMP_CARD",
    "ONLY_DRAWN", "NO_FLEX", "NO_FLEX_SIDE", "POWER_RED", "STACK_SAME", "STACK_LESS",
    "NEED_COLOR", "BAD_COLOR", "NOT_WILD", "NEED_TARGET", "BAD_TARGET", "TARGET_SELF",
    "TARGET_OUT", "NO_TARGET", "NEED_SWAP", "BAD_SWAP", "NO_SWAP", "NOT_FLIP", "FLIP_COLOR",
    "NOT_DRAWN", "FORCED_DRAWN", "NO_CHALLENGE", "CATCH_SELF",
)  # fmt: skip
ERR_OK = 0
ERR_SEAT = 1
ERR_PHASE = 2
ERR_NOT_YOUR_TURN = 3
ERR_CARD = 4
ERR_NOT_HELD = 5
ERR_FORM = 6
ERR_NO_MATCH = 7
ERR_NO_BLUFF = 8
ERR_STACK = 9
ERR_FORCED = 10
ERR_MOVE = 11
ERR_EMPTY = 12
ERR_FINISH = 13
ERR_MUST_PLAY_DRAWN = 14
ERR_OUT = 15
ERR_MULTI = 16
ERR_ROUND_OVER = 17
ERR_MATCH_OVER = 18
ERR_NOT_STARTED = 19
ERR_NOT_IN_ROUND = 20
ERR_JUMP_NOW = 21
ERR_JUMP_CARD = 22
ERR_ONLY_DRAWN = 23
ERR_NO_FLEX = 24
ERR_NO_FLEX_SIDE = 25
ERR_POWER_RED = 26
ERR_STACK_SAME = 27
ERR_STACK_LESS = 28
ERR_NEED_COLOR = 29
ERR_BAD_COLOR = 30
ERR_NOT_WILD = 31
ERR_NEED_TARGET = 32
ERR_BAD_TARGET = 33
ERR_TARGET_SELF = 34
ERR_TARGET_OUT = 35
ERR_NO_TARGET = 36
ERR_NEED_SWAP = 37
ERR_BAD_SWAP = 38
ERR_NO_SWAP = 39
ERR_NOT_FLIP = 40
ERR_FLIP_COLOR = 41
ERR_NOT_DRAWN = 42
ERR_FORCED_DRAWN = 43
ERR_NO_CHALLENGE = 44
ERR_CATCH_SELF = 45

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
