"""Chat of a room, and distinct display names (docs/protocol.md, ``chat``).

* Who may chat is the room's **chat mode**, set by the host
  (``POST /api/rooms/{code}/chat``): ``players`` (the default: seated
  players only), ``all`` (spectators too) or ``off`` (nobody: muted).
* Each sender (a seat; a spectator by its address) may send
  :data:`CHAT_BURST` messages at once, then one every
  :data:`CHAT_EVERY` seconds; more are refused with ``rate_limited``.
* Two seats never show the same name: a name already shown in the room (a
  player's or a bot's, compared without case, width or spacing differences)
  gets a suffix, ``Ann (2)``.

The mode lives in the process that holds the room, and goes back to
``players`` when the room is reloaded.
"""

from __future__ import annotations

import time
import unicodedata
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from unokit.web.errors import ProtocolError
from unokit.web.table_api import StrictBody, Token

if TYPE_CHECKING:
    from unokit.web.conn import Conn
    from unokit.web.room import Room

__all__ = ["CHAT_MODES", "ChatGate", "ChatModeBody", "distinct_name", "gate", "say", "set_mode"]

CHAT_MODES = ("players", "all", "off")
CHAT_BURST = 5
CHAT_EVERY = 2.0
MAX_NAME = 24


class ChatModeBody(StrictBody):
    """``POST /api/rooms/{code}/chat``: the host's token and the new mode."""

    token: Token
    chat: Literal["players", "all", "off"]


@dataclass
class ChatGate:
    """One room's chat mode and its senders' token buckets ([tokens, last time])."""

    mode: str = "players"
    buckets: dict[Any, list[float]] = field(default_factory=dict)

    def allow(self, sender: Any, now: float) -> bool:
        """:data:`CHAT_BURST` messages at once, refilled one per :data:`CHAT_EVERY` s."""
        b = self.buckets.get(sender)
        if b is None:
            if len(self.buckets) >= 4096:  # spectators come and go: forget the full ones
                full = CHAT_EVERY * CHAT_BURST
                for key in [k for k, v in self.buckets.items() if now - v[1] >= full]:
                    del self.buckets[key]
            b = self.buckets[sender] = [float(CHAT_BURST), now]
        tokens = min(float(CHAT_BURST), b[0] + (now - b[1]) / CHAT_EVERY)
        b[1] = now
        if tokens < 1.0:
            b[0] = tokens
            return False
        b[0] = tokens - 1.0
        return True


_GATES: weakref.WeakKeyDictionary[Room, ChatGate] = weakref.WeakKeyDictionary()


def gate(room: Room) -> ChatGate:
    g = _GATES.get(room)
    if g is None:
        g = _GATES[room] = ChatGate()
    return g


def set_mode(room: Room, token: str, mode: str) -> None:
    """The host sets the room's chat mode."""
    if mode not in CHAT_MODES:
        raise ProtocolError("bad_message", f"chat is one of {', '.join(CHAT_MODES)}")
    seat = room.seat_of_token(token)
    if seat is None or seat != room.host:
        raise ProtocolError("forbidden", "only the host can set who may chat")
    gate(room).mode = mode


def say(room: Room, conn: Conn, text: str, *, clock: Any = time.monotonic) -> None:
    """Broadcast ``text`` from ``conn`` if the room's chat mode and the sender's
    rate allow it; else raise :class:`ProtocolError`."""
    if not conn.bound:
        raise ProtocolError("not_joined", "say hello first")
    g = gate(room)
    seat = conn.seat
    if g.mode == "off":
        raise ProtocolError("forbidden", "the host has turned chat off in this room")
    if seat is None and g.mode != "all":
        raise ProtocolError("spectator", "spectators cannot chat in this room")
    sender: Any = seat if seat is not None else ("spectator", conn.host)
    if not g.allow(sender, clock()):
        raise ProtocolError(
            "rate_limited",
            f"at most {CHAT_BURST} chat messages at once, then one every {CHAT_EVERY:g} s",
        )
    name = "spectator" if seat is None else (room.seats[seat].name or f"P{seat}")
    room.broadcast(
        {"type": "chat", "seat": seat, "name": name, "text": text, "time": round(time.time(), 3)}
    )


def _key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def distinct_name(name: str, shown: Iterable[str]) -> str:
    """``name``, or ``name (n)`` with the smallest n ≥ 2 that no name in
    ``shown`` already has (at most :data:`MAX_NAME` characters).

    >>> distinct_name("Ann", ["ann", "Bob"])
    'Ann (2)'
    >>> distinct_name("Ann", ["Ann", "Ann (2)"])
    'Ann (3)'
    >>> distinct_name("Cy", ["Ann"])
    'Cy'
    """
    taken = {_key(s) for s in shown}
    if _key(name) not in taken:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if _key(candidate) not in taken:
            return candidate
        n += 1
