"""Deal commitments and records of the web server's matches
(docs/record-format.md, "Verifiable shuffle"; docs/protocol.md).

Each round's salt is ``HMAC-SHA256(key=the match seed, "unokit-web-deal/1" LF
round)``, the first 128 bits in hex. The seed is drawn at random when the match
starts, stored with the room and told to nobody until the match is over, so:

* the commitment of a round exists as soon as it is dealt, and every player
  can read it then (``GET /api/rooms/{code}/deal``) and keep it;
* it survives a restart of the server with nothing more stored (the room's
  log holds the seed), and no process of a cluster can make another;
* revealing a round's salt once it is over tells nothing of the seed (HMAC is
  one-way), so later rounds stay hidden.

The record of a finished match (``POST /api/rooms/{code}/record``) carries
every round's commitment and salt, the bot level of each bot seat, and the
times the match started and ended (its first and last stored row).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections import OrderedDict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from unokit.engine.game import Game
from unokit.records.commitment import DealCommitments, commitment, deal_text
from unokit.records.record import Record, deal_states, record_of

if TYPE_CHECKING:
    from unokit.web.room import Room
    from unokit.web.store import Store

__all__ = ["RoomDeals", "current_deal", "deal_salt", "match_record"]


def deal_salt(seed: int, round_no: int) -> str:
    """The secret salt of round ``round_no`` of the match of ``seed``.

    >>> len(deal_salt(5, 1)), deal_salt(5, 1) != deal_salt(5, 2)
    (32, True)
    """
    key = seed.to_bytes(16, "big", signed=True)
    mac = hmac.new(key, f"unokit-web-deal/1\n{round_no}".encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


class RoomDeals(DealCommitments):
    """:class:`DealCommitments` whose salts come from the match seed."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed

    def on_deal(self, game: Game) -> str:
        r = game.round_no
        if r not in self.commitments:
            salt = deal_salt(self.seed, r)
            self.salts[r] = salt
            self.commitments[r] = commitment(deal_text(game), salt)
            self.dealers[r] = game.dealer
        return self.commitments[r]


_CURRENT: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()


def current_deal(room: Room) -> dict[str, Any] | None:
    """The commitment of the round in play of ``room`` (None before the first
    match): ``{"match", "round", "commitment"}``; the salt stays secret."""
    matches = room.matches()
    if not matches or room.game is None:
        return None
    seed, commands = matches[-1]
    key = (room.code, len(matches), room.game.round_no)
    cached = _CURRENT.get(key)
    if cached is not None:
        return cached
    last_next = max((i for i, c in enumerate(commands) if c.strip().upper() == "NEXT"), default=-1)
    rec = Record(room.variant, room.players, room.options, seed, commands=commands[: last_next + 1])
    dealt = rec.replay()
    out = {
        "match": len(matches),
        "round": dealt.round_no,
        "commitment": RoomDeals(seed).on_deal(dealt),
    }
    _CURRENT[key] = out
    while len(_CURRENT) > 1024:
        _CURRENT.popitem(last=False)
    return out


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _times(store: Store, code: str, first: int, last: int) -> tuple[float | None, float | None]:
    """When rows ``first`` and ``last`` of the room's log were stored."""
    from sqlalchemy import select

    from unokit.web.store import room_log

    q = select(room_log.c.seq, room_log.c.created).where(
        room_log.c.room == code, room_log.c.seq.in_([first, last])
    )
    with store.engine.connect() as c:
        rows = dict(c.execute(q).all())
    return rows.get(first), rows.get(last)


async def match_record(room: Room, number: int, game: Game) -> Record:
    """The full record of finished match ``number`` of ``room`` (``game``)."""
    starts = [i for i, text in enumerate(room.log) if text.startswith("#MATCH ")]
    first = starts[number - 1] + 1  # the room's log rows count from 1
    last = (starts[number] if number < len(starts) else len(room.log)) or first
    seed = int(room.log[first - 1][7:])
    started, ended = await asyncio.to_thread(_times, room.hub.store, room.code, first, last)
    rec = record_of(
        game,
        room.seat_names(),
        bots=[s.level if s.kind == "bot" else None for s in room.seats],
        producer="unokit web",
        started=_iso(started) if started is not None else None,
        ended=_iso(ended) if ended is not None else None,
        extra={"event": f"unokit room {room.code}, match {number}"},
    )
    deals = RoomDeals(seed)
    for dealt in deal_states(rec):
        deals.on_deal(dealt)
    rec.deals = deals.entries(game)
    return rec
