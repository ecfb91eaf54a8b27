"""The error of a refused request (docs/protocol.md), shared by the room, its
chat and the routes."""

from __future__ import annotations

__all__ = ["ProtocolError"]


class ProtocolError(Exception):
    """A request refused with an error ``code`` of docs/protocol.md; nothing changed."""

    def __init__(
        self, code: str, message: str, version: int | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version  # the room's version, for stale commands
        self.reason = reason  # illegal: the core's reason code by name (NO_MATCH, ...)
