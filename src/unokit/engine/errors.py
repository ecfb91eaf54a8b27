"""Typed errors. Every error a user can cause derives from :class:`UnoError`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

__all__ = [
    "UnoError",
    "ParseError",
    "OptionError",
    "IllegalActionError",
    "InvalidPositionError",
    "RecordError",
    "BotFailure",
    "look_up",
]

_T = TypeVar("_T")


class UnoError(ValueError):
    """Base class of every error raised for bad input."""


class ParseError(UnoError):
    """Text that is not valid notation (a card, a colour, a command)."""


class OptionError(UnoError):
    """An unknown option, or an option with a value it cannot take."""


class IllegalActionError(UnoError):
    """A well-formed command that the rules do not allow now.

    The game is left exactly as it was. ``reason``: why, as the C core's reason
    code (:data:`unokit.engine.codes.ERRORS`; the words are
    :mod:`unokit.engine.refusals`), or None for a refusal outside the rules
    (an adapter's own, e.g. "the episode is over")."""

    def __init__(self, message: str, reason: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.reason))


class InvalidPositionError(UnoError):
    """A position (or scenario ``given``) that breaks the rules' invariants."""


class RecordError(UnoError):
    """A game record that cannot be read or does not replay."""


class BotFailure(UnoError):
    """A bot that failed to decide (an engine program that crashed, hung or
    answered an illegal move, docs/engine-protocol.md); ``seat`` is its seat.
    A tournament counts the game as lost by that seat."""

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


def look_up(table: Mapping[str, _T], text: str, error: type[UnoError], what: str, known: str) -> _T:
    """``table``'s entry for ``text`` (any case, spaces around ignored), or
    ``error`` saying that it is an unknown ``what`` and what is ``known``.

    >>> look_up({"a": 1}, " A ", OptionError, "letter", "a")
    1
    >>> look_up({"a": 1}, "b", OptionError, "letter", "a")
    Traceback (most recent call last):
    ...
    unokit.engine.errors.OptionError: unknown letter 'b': expected one of a
    """
    try:
        return table[text.strip().lower()]
    except KeyError:
        raise error(f"unknown {what} {text!r}: expected one of {known}") from None
