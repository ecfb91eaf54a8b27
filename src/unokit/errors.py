"""Typed errors. Every error a user can cause derives from :class:`UnoError`."""

from __future__ import annotations

__all__ = [
    "UnoError",
    "ParseError",
    "OptionError",
    "IllegalActionError",
    "InvalidPositionError",
    "RecordError",
]


class UnoError(ValueError):
    """Base class of every error raised for bad input."""


class ParseError(UnoError):
    """Text that is not valid notation (a card, a colour, a command)."""


class OptionError(UnoError):
    """An unknown option, or an option with a value it cannot take."""


class IllegalActionError(UnoError):
    """A well-formed command that the rules do not allow now.

    The game is left exactly as it was."""


class InvalidPositionError(UnoError):
    """A position (or scenario ``given``) that breaks the rules' invariants."""


class RecordError(UnoError):
    """A game record that cannot be read or does not replay."""
