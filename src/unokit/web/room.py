"""Rooms: the authoritative game of each table, its seats, connections, bots and timer.

A :class:`Room` owns one :class:`~unokit.Game` and the ordered log of accepted
lines that rebuilds it (see :mod:`unokit.web.store`). Every change goes through
one path, under the room's lock: check it on a copy of the game, store it
(committed), then make the copy the live game, acknowledge and broadcast. A
command the engine refuses, or that cannot be stored, changes nothing.

Each connection receives only ``game.observe(its seat)`` (``None`` for a
spectator) — built here from the engine's observation, with the round's history
serialised once per event and reused (the JSON is identical to
``json.dumps(game.observe(seat).to_dict())``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import itertools
import json
import logging
import operator
import os
import random
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from sqlalchemy import Connection

from unokit.bots import Bot, make_bot
from unokit.bots.budget import decision_seed, level_bot
from unokit.engine.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    ChooseColor,
    Draw,
    NextRound,
    Pass,
    Play,
    parse_action,
)
from unokit.engine.errors import IllegalActionError, ParseError, UnoError
from unokit.engine.events import Event, redact
from unokit.engine.game import Game, Phase
from unokit.engine.observation import (
    JSON_KEYS,
    JSON_SOURCES,
    SEAT_KEYS,
    Observation,
    PublicView,
    SeatPart,
    SeatRaw,
    entries,
    event_to_dict,
    part_of_raw,
    public_view,
    seat_raw,
)
from unokit.engine.options import Options
from unokit.web.botpool import INLINE_LEVELS, WorkerLost, WorkerPool, decide
from unokit.web.chat import distinct_name
from unokit.web.store import Append, LoadedRoom, RoomRow, SeatRow, StorageError, Store

if TYPE_CHECKING:
    from unokit.web.botbroker import BrokerBots
    from unokit.web.config import Settings

__all__ = [
    "Room",
    "Hub",
    "Conn",
    "ProtocolError",
    "hash_token",
    "BOT_NAMES",
    "ROOM_CODE_RE",
    "REACTIONS",
]

log = logging.getLogger("unokit.web.room")

ROOM_CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l, o, 0, 1
ROOM_CODE_LEN = 10
ROOM_CODE_RE = re.compile(f"^[{ROOM_CODE_ALPHABET}]{{{ROOM_CODE_LEN}}}$")
BOT_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Juno")
_SEAT_WORD = re.compile(r"^[Pp]\d+$")
#: the quick reactions a player may send to the table (no free text)
REACTIONS = ("👍", "😂", "😮", "😡", "🎉", "👏")
#: reactions per seat: at most REACTION_BURST within REACTION_WINDOW seconds
REACTION_BURST = 4
REACTION_WINDOW = 10.0
#: seconds a seat's last connection may be gone before a bot plays for it
AWAY_GRACE = float(os.environ.get("UNOKIT_AWAY_GRACE", "20"))
#: the level of the bot that plays a quiet seat
PROXY_LEVEL = "normal"
_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _json(value: Any) -> str:
    """Compact JSON of what the engine made (observation entries, events, the
    last command): the same text as :data:`_DUMPS` for these values, about
    five times faster. Anything a client typed (names, chat) goes through
    :data:`_DUMPS`."""
    return orjson.dumps(value).decode()


class _BotLost(Exception):
    """A bot's worker could not answer (why, for the log line)."""


class ProtocolError(Exception):
    """A request refused with an error ``code`` of docs/protocol.md; nothing changed."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version  # the room's version, for stale commands


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LEN))


def table_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of ``level`` for a seat of a room, with its budget by count
    (:mod:`unokit.bots.budget`: never a clock, so the load of the server
    cannot make it weaker)."""
    return level_bot(level, seed=new_seed() if seed is None else seed)


def new_seed() -> int:
    return secrets.randbits(62)


class Socket(Protocol):
    """What a connection needs of a Starlette WebSocket."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass
class Seat:
    seat: int
    kind: str  # human | bot
    level: str | None
    name: str | None
    token_hash: str | None
    bot: Bot | None = None
    conns: int = 0
    #: a person's seat played by a bot while they are away (left, or missed
    #: two turns in a row), or not theirs until the next round; see Room.auto
    away: bool = False
    missed: int = 0
    until_next: bool = False
    proxy: Bot | None = None
    #: the seed its bot's decisions are drawn from (with the room's version)
    seed: int = field(default_factory=lambda: new_seed())
    reactions: deque[float] = field(default_factory=deque)

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.level, self.name, self.token_hash)


def bot_catcher(game: Game, seats: list[Seat]) -> int | None:
    """The bot seat to offer a catch before the vulnerable seat acts again
    (:meth:`unokit.Game.catch_window`, in order of play), if any. People can
    catch at any moment from their page; bots act only when asked, so without
    this a player who forgets UNO after a Skip at two players could never be
    caught by a bot. A bot whose ``catches`` attribute is false (``easy``)
    is never asked."""
    for s in game.catch_window():
        seat = seats[s]
        if seat.kind == "bot" and getattr(seat.bot, "catches", True):
            return s
    return None


class Conn:
    """One WebSocket client of a room: a seat (or spectator) and an outgoing queue.

    A message to a client whose writer is idle (nothing queued, nothing in
    flight) is sent at once: the socket's send usually completes without
    waiting, and then no task has to wake up for it. A send that must wait
    (the client does not read: flow control) is finished by the connection's
    writer task, which also sends everything queued behind it, so a slow
    client never holds up a room. Queued ``state`` messages are coalesced: a
    queued state is built when it is sent, from the room's latest state."""

    def __init__(self, ws: Socket, room: Room, settings: Settings) -> None:
        self.ws = ws
        self.room = room
        self.settings = settings
        self.host = "?"  # the client's address (per-address rate limit)
        self.seat: int | None = None
        self.bound = False
        self.spectator = False
        # incremental updates (hello "deltas": true): what this client holds
        self.deltas = False
        self.sent_version: int | None = None  # None: send a full snapshot next
        self.sent_info: tuple[Any, ...] = ()
        self.acks: dict[int, int] = {}  # version -> id of this client's command stored there
        self.outbox: deque[str | None] = deque()  # None: "send the current state"
        self.wake = asyncio.Event()
        self.state_queued = False
        self.closed = False
        self.writer: asyncio.Task[None] | None = None
        # the writer waits with nothing queued: send at once (see the class doc)
        self.idle = False
        # a send begun at once that has to wait: (its coroutine, what it waits for)
        self.stalled: tuple[Coroutine[Any, Any, None], Any] | None = None
        # rate limit: token bucket
        self.tokens = float(settings.burst)
        self.refill_at = time.monotonic()
        self.dropped = 0
        self.last_rate_error = 0.0

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write_loop())

    def allow(self) -> bool:
        """Take one token of the bucket; False when the client is over its rate."""
        now = time.monotonic()
        s = self.settings
        self.tokens = min(float(s.burst), self.tokens + (now - self.refill_at) * s.rate)
        self.refill_at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    def send(self, message: dict[str, Any]) -> None:
        self._queue(_DUMPS(message))

    def resync(self) -> None:
        """The client asks for a full snapshot (it missed a version)."""
        self.sent_version = None
        self.send_state()

    def send_state(self) -> None:
        if not self.state_queued:
            self.state_queued = True
            self._queue(None)

    def _queue(self, item: str | None) -> None:
        if self.closed:
            return
        if self.idle:
            self._send_now(item)
            return
        self.outbox.append(item)
        if len(self.outbox) > self.settings.max_outbox:
            log.info("closing a connection of room %s that does not keep up", self.room.code)
            self.outbox.clear()
            self.closed = True
            asyncio.get_running_loop().create_task(self._close(1013, "too slow"))
        self.wake.set()

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def close(self, code: int, reason: str) -> None:
        self.closed = True
        await self._close(code, reason)

    def _send_now(self, item: str | None) -> None:
        """Send ``item`` (None: the update to the room's current state) at once;
        a send that has to wait goes to the writer with the rest behind it."""
        if item is None:
            self.state_queued = False
            texts = self.room.update_texts(self)
        else:
            texts = [item]
        try_send = getattr(self.ws, "try_send", None)
        for i, text in enumerate(texts):
            if try_send is not None:
                try:
                    if try_send(text):
                        continue  # written to the transport at once (unokit.web.direct)
                except Exception:  # the socket went away; the reader will notice
                    self.closed = True
                    return
            coro = self.ws.send_text(text)
            try:
                waits_for = coro.send(None)
            except StopIteration:
                continue  # sent
            except Exception:  # the socket went away; the reader will notice
                self.closed = True
                return
            self.idle = False
            self.stalled = (coro, waits_for)
            self.outbox.extend(texts[i + 1 :])
            self.wake.set()
            return

    async def _write_loop(self) -> None:
        try:
            while not self.closed:
                if not self.outbox and self.stalled is None:
                    self.idle = True
                    await self.wake.wait()
                    self.wake.clear()
                    continue
                self.idle = False
                if self.stalled is not None:
                    coro, waits_for = self.stalled
                    self.stalled = None
                    await _finish(coro, waits_for)
                while self.outbox and not self.closed:
                    item = self.outbox.popleft()
                    if item is None:
                        self.state_queued = False
                        for text in self.room.update_texts(self):
                            await self.ws.send_text(text)
                        continue
                    await self.ws.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the reader will notice
            self.closed = True


async def _finish(coro: Coroutine[Any, Any, None], waits_for: Any) -> None:
    """Run a coroutine that was begun outside a task (``coro.send(None)``) and
    suspended on ``waits_for`` (a future, or None for a bare yield) to its end,
    as a task would: wait until what it waits for is done, then resume it (it
    reads the outcome itself). Cancelled meanwhile, the coroutine is closed."""
    loop = asyncio.get_running_loop()

    def wake(ready: asyncio.Future[None], _: Any) -> None:
        if not ready.done():
            ready.set_result(None)

    try:
        while True:
            if waits_for is None:
                await asyncio.sleep(0)
            else:
                ready: asyncio.Future[None] = loop.create_future()
                waits_for.add_done_callback(functools.partial(wake, ready))
                await ready
            waits_for = coro.send(None)
    except StopIteration:
        return
    except BaseException:
        coro.close()  # cancelled while it waits: the send is given up
        raise


@dataclass
class _Cache:
    """What is built once per change of the room (:attr:`Room.epoch`)."""

    epoch: int = -1
    info_key: tuple[Any, ...] | None = None  # what the info holds besides its version
    info: tuple[tuple[Any, ...], dict[str, Any], str, str] | None = None  # Room._info()
    info_json: str | None = None
    info_delta: str | None = None
    states: dict[int | None, str] = field(default_factory=dict)


@dataclass(slots=True)
class _View:
    """What one seat (None: spectators) sees at one version: the public view
    and the seat's own part of its observation as card ids and move codes
    (:func:`~unokit.engine.observation.seat_raw`; None in the lobby) with the game
    it was seen in, the history's length and first event, and the room info
    without its version. ``changed`` is the JSON object of the entries that
    differ from this seat's view at version ``base``."""

    version: int
    shared: _Shared | None
    own: SeatRaw | None
    game: Game | None
    history: int
    first: Event | None
    info_key: tuple[Any, ...]
    base: int | None = None
    changed: str = ""
    made: SeatPart | None = None

    @property
    def public(self) -> PublicView | None:
        return None if self.shared is None else self.shared.public

    @property
    def part(self) -> SeatPart | None:
        """The seat's own part with cards and typed actions (made on first use:
        deltas compare and convert the ids and codes)."""
        if self.made is None and self.own is not None and self.game is not None:
            self.made = part_of_raw(self.game, self.own)
        return self.made

    def obs(self) -> dict[str, Any]:
        """The observation without its history, JSON-ready (for snapshots): the
        public entries converted once per version for all seats, then this seat's."""
        sh, part = self.shared, self.part
        assert sh is not None and part is not None
        if sh.entries is None:
            sh.entries = entries(sh.public, _PUBLIC_KEYS)
        public = sh.entries
        own = entries(part, SEAT_KEYS)
        return {k: public[k] if k in public else own[k] for k in _NO_HISTORY}


@dataclass(slots=True)
class _Shared:
    """What every seat's view shares at one version: the public view, each
    seat's legal move codes, the public entries changed since the previous
    version (``keys``; None if that version was not viewed) and, once
    needed, their JSON (``text``: the members of the delta's "set")."""

    version: int
    public: PublicView
    legal: list[list[int]]
    keys: list[str] | None
    text: str | None = None
    entries: dict[str, Any] | None = None  # every public entry, JSON-ready (for snapshots)


#: the observation's fields compared from one version to the next (the history apart)
_FIELDS = tuple(f.name for f in fields(Observation) if f.name != "history")
#: the to_dict keys made from each field, in the order of _FIELDS
_KEYS_OF = tuple(tuple(k for k in JSON_KEYS if f in JSON_SOURCES[k]) for f in _FIELDS)
_NO_HISTORY = tuple(k for k in JSON_KEYS if k != "history")
_PUBLIC_KEYS = tuple(k for k in _NO_HISTORY if k not in SEAT_KEYS)
#: the fields every seat sees alike (compared once per version), the keys made
#: from each, and the seat's own part (SeatPart's fields are its keys)
_PUBLIC_FIELDS = tuple(f for f in _FIELDS if f in PublicView.__dataclass_fields__)
_PUBLIC_VALUES = operator.attrgetter(*_PUBLIC_FIELDS)
_PUBLIC_KEYS_OF = tuple(_KEYS_OF[_FIELDS.index(f)] for f in _PUBLIC_FIELDS)
#: the order _View compares a seat's own part in (observation.seat_raw's)
assert SEAT_KEYS == ("seat", "hand", "backs", "drawn", "revealed", "legal")
assert set(_PUBLIC_FIELDS) | set(SEAT_KEYS) == set(_FIELDS)


DELTA_HISTORY = 64
"""Deltas kept per view: a client at most this many versions behind catches
up with deltas, one further behind gets a snapshot."""


class Room:
    """One table. All changes happen under :attr:`lock`."""

    def __init__(self, hub: Hub, loaded: LoadedRoom) -> None:
        r = loaded.room
        self.hub = hub
        self.code = r.code
        self.variant = r.variant
        self.players = r.players
        self.options = Options.from_dict(r.options)
        self.turn_timer = r.turn_timer
        self.host = r.host
        self.status = r.status
        self.seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_hash) for s in loaded.seats]
        if [s.seat for s in self.seats] != list(range(self.players)):
            raise StorageError(f"room {self.code}: seats do not match {self.players} players")
        for s in self.seats:
            if s.kind == "bot":
                s.bot = table_bot(s.level or "heuristic")
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.game: Game | None = None
        self.log: list[str] = []
        #: the number of lines in the log (kept with it: read many times per move)
        self.version = 0
        self.match = 0
        self.last: dict[str, Any] | None = None
        self.deadline: float | None = None
        self.epoch = 0
        #: the ready check between rounds and the rematch vote (docs/protocol.md
        #: ``ready``): the seats whose people said Ready at this round's end
        self.ready: set[int] = set()
        #: when the game reached its last ROUND_OVER / MATCH_OVER (time.time():
        #: a restart keeps it, as the log line's stored time); the host may go
        #: on without the people not ready ``settings.ready_wait`` s after it
        self.over_at: float | None = None
        self.closed = False
        self.idle_since = time.monotonic()
        self.bot_task: asyncio.Task[None] | None = None
        self._bot_for: tuple[int, int] | None = None  # (version, seat) bot_task decides
        self._thinking: tuple[int, int] | None = None  # (version, seat) told "thinking"
        self._declined = -1  # the version at which the bots let a catch go
        self.timer_task: asyncio.Task[None] | None = None
        self.rng = random.Random()
        self.public = False  # listed on the home page (kept in memory)
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._cache = _Cache()
        # (version, the game without its log, its public view shared by all seats)
        self._shared_view: _Shared | None = None  # what all seats' views share, per version
        self._views: dict[int | None, _View] = {}  # per viewer, its latest view
        # the JSON string of each card (by id) and of each legal action (by code and seat)
        # (made for this card tuple, its strings); the cards are the game's
        self._cards_json: tuple[tuple[Any, ...], list[str]] = ((), [])
        self._move_json: dict[int, str] = {}
        self._info_base: tuple[tuple[Any, ...], dict[str, Any], str, str] | None = None
        self._prev: dict[int | None, _View] = {}  # per viewer, the last view deltas start from
        self._deltas: dict[int | None, deque[tuple[int, str]]] = {}  # (from version, text)
        # serialised events (id -> (event, redacted JSON, full JSON, owner seat))
        self._fragments: dict[int, tuple[Event, str, str, int | None]] = {}
        # per viewer: (first event, events serialised, last of them, their JSON)
        self._histories: dict[int | None, tuple[Event, int, Event, str]] = {}
        # the events of the current version's deltas: (the game's log, (start,
        # its length), their fragment entries, their text if the same for all seats)
        self._new_made: tuple[list[Event], tuple[int, int], list[Any], str | None] | None = None
        for text in loaded.log:
            self._replay(text)
        if self.game is not None and self.game.state in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            self.over_at = loaded.last_at
            self.ready = set(loaded.ready)

    # ------------------------------------------------------------ rebuilding

    def _replay(self, text: str) -> None:
        if text.startswith("#MATCH "):
            self.game = Game.new(self.variant, self.players, self.options, int(text[7:]))
            self.match += 1
        elif self.game is None:
            raise StorageError(f"room {self.code}: command {text!r} before the first #MATCH")
        else:
            self.game.apply(text)
        self.log.append(text)
        self.version = len(self.log)


    # ------------------------------------------------------------ views

    def info(self) -> dict[str, Any]:
        """The room info (docs/protocol.md), as REST replies and states carry it."""
        _, base, _, _ = self._info()
        return {**base, "version": self.version}

    def _info(self) -> tuple[tuple[Any, ...], dict[str, Any], str, str]:
        """(key, info without its version, the info's JSON before and after the
        version). Rebuilt only when the key (everything but the version) changes,
        not at every move."""
        c = self._fresh_cache()
        if c.info is not None:
            return c.info
        key = c.info_key
        if key is None:
            seats = tuple(
                (s.kind, s.level, s.name, s.claimed, s.kind == "bot" or s.conns > 0, self.auto(s))
                for s in self.seats
            )
            spectators = sum(1 for c in self.conns if c.spectator)
            key = c.info_key = (self.status, self.host, self.match, spectators, self.public,
                                self.turn_timer, seats, tuple(sorted(self.ready)))  # fmt: skip
        cached = self._info_base
        if cached is not None and cached[0] == key:
            c.info = cached
            return cached
        status, host, match, spectators, public, turn_timer, seats, ready = key
        base: dict[str, Any] = {
            "room": self.code,
            "invite": f"/r/{self.code}",
            "variant": self.variant,
            "players": self.players,
            "options": self.options.to_dict(),
            "turn_timer": turn_timer,
            "status": status,
            "host": host,
            "match": match,
            "version": None,
            "spectators": spectators,
            "public": public,
            "ready": list(ready),
            "seats": [
                {
                    "seat": i,
                    "kind": kind,
                    "level": level,
                    "name": name,
                    "claimed": claimed,
                    "connected": connected,
                    "auto": auto,
                }
                for i, (kind, level, name, claimed, connected, auto) in enumerate(seats)
            ],
        }
        head, tail = _DUMPS(base).split('"version":null', 1)
        self._info_base = c.info = (key, base, head + '"version":', tail)
        return c.info

    def _info_json(self) -> str:
        c = self._fresh_cache()
        if c.info_json is None:
            _, _, head, tail = self._info()
            c.info_json = f"{head}{self.version}{tail}"
        return c.info_json

    def _fresh_cache(self) -> _Cache:
        c = self._cache
        if c.epoch != self.epoch:
            c = self._cache = _Cache(epoch=self.epoch)
        return c

    def _shared(self) -> _Shared:
        """What every seat's view shares at the current version (made once per
        version): the public view, every seat's legal actions (one load of the
        position into the core for all seats), and which public entries
        changed since the previous version."""
        version = self.version
        sh = self._shared_view
        g = self.game
        assert g is not None
        if sh is not None and sh.version == version and sh.public.game_id == id(g):
            return sh
        public = public_view(g)
        keys: list[str] | None = None
        if sh is not None and sh.version == version - 1:
            keys = [
                k
                for a, b, ks in zip(
                    _PUBLIC_VALUES(sh.public), _PUBLIC_VALUES(public), _PUBLIC_KEYS_OF, strict=True
                )
                if a is not b and a != b
                for k in ks
            ]
        sh = _Shared(version, public, g.legal_moves_by_seat(), keys)
        self._shared_view = sh
        return sh

    def _view(self, seat: int | None) -> _View:
        """The view of ``seat`` at the current version (computed once per version).

        The public part is compared with the previous version's once for all
        seats (:meth:`_shared`); per seat only its own part (hand, legal
        actions, drawn and revealed cards, Flip backs) is made and compared
        with its previous view. Only the entries that changed are converted
        to JSON: the public ones once per version, the seat's own once per
        version for all the seats that see the same value."""
        version = self.version
        old = self._views.get(seat)
        if old is not None and old.version == version:
            return old
        g = self.game
        sh: _Shared | None = None
        own: SeatRaw | None = None
        history, first = 0, None
        base: int | None = None
        changed = ""
        if g is not None and self.status == "playing":
            sh = self._shared()
            public = sh.public
            own = seat_raw(g, seat, public, () if seat is None else sh.legal[seat])
            if old is not None and old.shared is not None and old.own is not None:
                if sh.keys is not None and old.version == version - 1:
                    if sh.text is None:
                        sh.text = self._members(public, sh.keys)
                    pieces = [sh.text] if sh.text else []
                else:  # a gap: compare the public part too
                    keys = [
                        k
                        for a, b, ks in zip(
                            _PUBLIC_VALUES(old.shared.public),
                            _PUBLIC_VALUES(public),
                            _PUBLIC_KEYS_OF,
                            strict=True,
                        )  # fmt: skip
                        if a is not b and a != b
                        for k in ks
                    ]
                    pieces = [self._members(public, keys)] if keys else []
                was = old.own
                # in the order of SEAT_KEYS: seat (the same for one viewer), hand,
                # backs, drawn, revealed, legal
                backs_changed = was[2] is not own[2] and was[2] != own[2]
                if backs_changed or was[4] != own[4]:
                    part = part_of_raw(g, own)
                if was[1] != own[1]:
                    cj = self._card_json(g)
                    pieces.append('"hand":[' + ",".join([cj[c] for c in own[1]]) + "]")
                if backs_changed:
                    pieces.append(f'"backs":{_json(entries(part, ("backs",))["backs"])}')
                if was[3] != own[3]:
                    d = own[3]
                    pieces.append('"drawn":' + ("null" if d < 0 else self._card_json(g)[d]))
                if was[4] != own[4]:
                    pieces.append(f'"revealed":{_json(entries(part, ("revealed",))["revealed"])}')
                if was[5] != own[5]:
                    legal = "" if seat is None else self._legal_json(g, seat, own[5])
                    pieces.append('"legal":[' + legal + "]")
                changed = "{" + ",".join(pieces) + "}"
                base = old.version
            events = g.log or []
            history, first = len(events), (events[0] if events else None)
        view = _View(version, sh, own, g, history, first, self._info()[0], base, changed)
        self._views[seat] = view
        return view

    def _card_json(self, g: Game) -> list[str]:
        """The JSON string of each card of ``g``, by id."""
        cards = g.variant.cards.cards
        made, texts = self._cards_json
        if made is not cards:
            texts = [_json(str(c)) for c in cards]
            self._cards_json = (cards, texts)
            self._move_json = {}
        return texts

    def _legal_json(self, g: Game, seat: int, codes: tuple[int, ...]) -> str:
        """The JSON strings of ``seat``'s legal move codes, comma-separated
        (each action's text made once per room: it depends on the code, the
        seat and the cards only)."""
        self._card_json(g)  # the cards of g: the texts are theirs
        texts = self._move_json
        out = []
        for m in codes:
            key = m * 64 + seat
            t = texts.get(key)
            if t is None:
                t = texts[key] = _json(str(g.decode(seat, m)))
            out.append(t)
        return ",".join(out)

    @staticmethod
    def _members(source: PublicView | SeatPart, keys: list[str]) -> str:
        """``"key":JSON`` members of the entries ``keys`` of ``source``, comma-separated."""
        return ",".join(f'"{k}":{_json(v)}' for k, v in entries(source, keys).items())

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` (None: spectator), as JSON text.

        Built by hand from JSON pieces: the room info once per change, the
        observation without its history, and the history from fragments
        serialised once per event (the result parses to exactly
        ``game.observe(seat).to_dict()``)."""
        c = self._fresh_cache()
        text = c.states.get(seat)
        if text is not None:
            return text
        obs_json = "null"
        g = self.game
        view = self._view(seat)
        if g is not None and view.public is not None:
            obs_json = _json(view.obs())[:-1] + ',"history":' + self._history_json(g, seat) + "}"
        text = (
            f'{{"type":"state","version":{self.version},"seat":{_DUMPS(seat)},'
            f'"info":{self._info_json()},"observation":{obs_json},{self._tail_json()}}}'
        )
        c.states[seat] = text
        return text

    def _tail_json(self) -> str:
        remaining = (
            None if self.deadline is None else round(max(0.0, self.deadline - time.time()), 2)
        )
        return (
            f'"last":{_json(self.last)},"deadline":{_json(self.deadline)},'
            f'"remaining":{_json(remaining)}'
        )

    # ------------------------------------------------------------ incremental updates

    def update_texts(self, conn: Conn) -> list[str]:
        """What brings ``conn`` up to date: a snapshot, or (a client that asked
        for deltas and holds a recent version) the shared delta texts from its
        version to the current one, then the room info if only that changed.

        A delta client's own commands are acknowledged inside the delta of
        their version (``"ack": id``: one message per command, not two); an
        ack no delta carries (a snapshot was due) goes first, on its own."""
        version = self.version
        seat = conn.seat
        if not conn.deltas:
            return [self.state_text(seat)]
        since = conn.sent_version
        chain: list[str] | None = []
        if since is not None and since != version:
            chain = self._chain(seat, since)
            if chain is None:
                since = conn.sent_version = None
        key = self._info()[0]
        acks = conn.acks
        if since is None:
            texts = [self.state_text(seat)]  # it carries the info too
            view = self._view(seat)
            if self._prev.get(seat) is not view:
                self._prev[seat] = view
                self._deltas.pop(seat, None)  # deltas start again from here
        else:
            texts = list(chain or ())
            if acks:
                for v in [v for v in acks if since < v <= version]:
                    i = v - since - 1
                    texts[i] = f'{texts[i][:-1]},"ack":{acks.pop(v)}}}'
            if conn.sent_info != key:
                texts.append(self._info_delta())
        if acks:
            texts[:0] = [
                _DUMPS({"type": "ack", "id": i, "version": v}) for v, i in sorted(acks.items())
            ]
            acks.clear()
        conn.sent_version = version
        conn.sent_info = key
        return texts

    def _chain(self, seat: int | None, since: int) -> list[str] | None:
        """The deltas of ``seat``'s view from version ``since`` to now, or None."""
        version = self.version
        kept = self._deltas.get(seat)
        n = version - since
        if not kept or not 0 < n <= len(kept) or kept[-1][0] != version - 1:
            return None
        if n == 1:  # the usual case: the client holds the previous version
            return [kept[-1][1]]
        start = len(kept) - n
        if kept[start][0] != since:
            return None
        return [text for _, text in itertools.islice(kept, start, None)]

    def _info_delta(self) -> str:
        c = self._fresh_cache()
        if c.info_delta is None:
            c.info_delta = (
                f'{{"type":"delta","from":{self.version},"version":{self.version},'
                f'"info":{self._info_json()}}}'
            )
        return c.info_delta

    def _record_deltas(self) -> None:
        """After a change of the game: for every view a client follows with
        deltas, the delta from its previous view, serialised once and shared by
        all its watchers."""
        watched = {c.seat for c in self.conns if c.deltas and c.bound}
        for seat in list(self._prev):
            if seat not in watched:
                del self._prev[seat]
                self._deltas.pop(seat, None)
        tail: str | None = None
        for seat in watched:
            prev = self._prev.get(seat)
            if prev is None:
                continue  # its clients get a snapshot first
            view = self._view(seat)
            if view is prev:
                continue  # the same version (automation or presence changed): no delta
            if tail is None:
                tail = self._tail_json()
            text = self._delta_text(seat, prev, view, tail)
            self._prev[seat] = view
            if text is None:
                self._deltas.pop(seat, None)
                continue
            kept = self._deltas.get(seat)
            if kept is None:
                kept = self._deltas[seat] = deque(maxlen=DELTA_HISTORY)
            kept.append((prev.version, text))

    def _delta_text(self, seat: int | None, prev: _View, view: _View, tail: str) -> str | None:
        if prev.public is None or view.public is None or view.version != prev.version + 1:
            return None  # the lobby, or a gap: a snapshot
        g = self.game
        assert g is not None
        if view.base == prev.version:
            changed = view.changed
        else:
            before = prev.obs()
            changed = _json({k: v for k, v in view.obs().items() if before.get(k) != v})
        start = prev.history if view.first is prev.first and prev.history <= view.history else 0
        history = self._new_events(g, start, seat)
        info = f',"info":{self._info_json()}' if view.info_key != prev.info_key else ""
        return (
            f'{{"type":"delta","from":{prev.version},"version":{view.version},'
            f'"seat":{"null" if seat is None else seat},"set":{changed},"history_from":{start},'
            f'"history":[{history}]{info},{tail}}}'
        )

    def _new_events(self, g: Game, start: int, seat: int | None) -> str:
        """The round's events from ``start`` on, as ``seat`` sees them,
        comma-separated. The fragments are looked up once per version and
        start for all seats; when none is redacted for anybody, all seats
        share the joined text."""
        events = g.log or []
        made = self._new_made
        if made is None or made[0] is not events or made[1] != (start, len(events)):
            if start == 0:
                self._fragments.clear()  # a new round: the old events are gone
            entries = [self._fragment_entry(e) for e in events[start:]]
            shared = None
            if all(owner is None for _, _, _, owner in entries):
                shared = ",".join(full for _, _, full, _ in entries)
            made = self._new_made = (events, (start, len(events)), entries, shared)
        _, _, entries, shared = made
        if shared is not None:
            return shared
        return ",".join(
            full if owner is None or owner == seat else public for _, public, full, owner in entries
        )

    def _history_json(self, g: Game, seat: int | None) -> str:
        """``[...]``: the round's events redacted for ``seat``, serialised
        incrementally (a round's log only grows; a new round has a new first event)."""
        events = g.log or []
        if not events:
            return "[]"
        cached = self._histories.get(seat)
        start, inner = 0, ""
        if (
            cached is not None
            and cached[0] is events[0]
            and cached[1] <= len(events)
            and events[cached[1] - 1] is cached[2]
        ):
            start, inner = cached[1], cached[3]
        elif cached is not None and cached[0] is not events[0]:
            self._fragments.clear()  # a new round: old events are gone
        if start < len(events):
            parts = [self._fragment(e, seat) for e in events[start:]]
            inner = (inner + "," if inner else "") + ",".join(parts)
            self._histories[seat] = (events[0], len(events), events[-1], inner)
        return "[" + inner + "]"

    def _fragment(self, e: Event, seat: int | None) -> str:
        entry = self._fragment_entry(e)
        return entry[2] if entry[3] is None or entry[3] == seat else entry[1]

    def _fragment_entry(self, e: Event) -> tuple[Event, str, str, int | None]:
        """(the event, its JSON redacted for the other seats, its full JSON,
        the seat that sees it in full or None if every seat does), made once
        per event."""
        entry = self._fragments.get(id(e))
        if entry is None or entry[0] is not e:
            public = redact(e, None)
            full = _json(event_to_dict(e))
            if public is e:
                entry = (e, full, full, None)
            else:
                owner: int = e.seat  # type: ignore[union-attr]  # Drew / Challenged
                entry = (e, _json(event_to_dict(public)), full, owner)
            self._fragments[id(e)] = entry
        return entry

    def changed(self, *, game_changed: bool) -> None:
        """Something visible changed: queue a new state for every connection."""
        self.epoch += 1
        if game_changed:
            self._schedule()
            self._record_deltas()
        for conn in self.conns:
            if conn.bound:  # a connection sees nothing before its hello
                conn.send_state()

    def broadcast(self, message: dict[str, Any]) -> None:
        text = _DUMPS(message)
        for conn in self.conns:
            if conn.bound:
                conn._queue(text)

    # ------------------------------------------------------------ connections

    def attach(self, conn: Conn) -> None:
        self.conns.add(conn)
        self.idle_since = time.monotonic()

    def bind(self, conn: Conn, token: str | None, spectate: bool, deltas: bool = False) -> None:
        if conn.bound:
            raise ProtocolError("already_joined", "this connection already said hello")
        if (token is None) == (not spectate):
            raise ProtocolError("bad_message", "hello needs either a token or spectate=true")
        if token is not None:
            seat = self.seat_of_token(token)
            if seat is None:
                raise ProtocolError("bad_token", "this token is not a seat token of this room")
            conn.seat = seat
            self.seats[seat].conns += 1
            self._returned(seat)
        else:
            conn.spectator = True
        conn.bound = True
        conn.deltas = deltas
        conn.send(
            {
                "type": "welcome",
                "protocol": 1,
                "room": self.code,
                "seat": conn.seat,
                "spectator": conn.spectator,
                "host": conn.seat is not None and conn.seat == self.host,
            }
        )
        self.changed(game_changed=False)
        thinking = self._thinking
        if thinking is not None and thinking[0] == self.version and self.bot_task is not None:
            conn.send({"type": "thinking", "seat": thinking[1], "version": thinking[0]})

    def detach(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        conn.closed = True
        if conn.seat is not None:
            self.seats[conn.seat].conns -= 1
            self._left(conn.seat)
        self.idle_since = time.monotonic()
        if conn.bound:
            self.changed(game_changed=False)
        if not self.conns:
            self.release_views()

    def release_views(self) -> None:
        """Nobody watches the room: drop what was built for its viewers (views,
        deltas, serialised histories and states). They are caches, rebuilt for
        the next viewer (who starts with a snapshot); a room left between its
        last viewer and its unloading (``idle_unload``) keeps only its game and log."""
        self._cache = _Cache()
        self._nolog = None
        self._views.clear()
        self._prev.clear()
        self._deltas.clear()
        self._fragments.clear()
        self._histories.clear()
        self._new_made = None

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    # ------------------------------------------------------------ changing

    async def _commit(
        self,
        texts: list[str],
        game: Game,
        *,
        last: dict[str, Any] | None,
        ack: tuple[Conn, int | None] | None = None,
        extra: Callable[[Connection], None] | None = None,
        status: str | None = None,
    ) -> None:
        """Store ``texts`` (committed), then make ``game`` the live game. Lock held."""
        job = Append(self.code, self.version + 1, texts, status, extra)
        store = self.hub.store
        fut = store.enqueue(job)  # a future, not a task: one task switch less per command
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            # The caller went away (e.g. its socket closed right after sending):
            # the store call goes on; wait for it and apply its outcome, so the
            # room stays exactly what the database holds.
            try:
                while not fut.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(fut)
                stored = fut.exception() is None
            except BaseException:
                self.hub.evict(self)  # cannot know: rebuild from the database
                raise
            if not stored:
                raise
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()  # the change is done: callers must not roll back
        except Exception as e:
            raise store.error(e) from e
        self._applied(texts, game, last, ack, status)

    def _applied(
        self,
        texts: list[str],
        game: Game,
        last: dict[str, Any] | None,
        ack: tuple[Conn, int | None] | None,
        status: str | None,
    ) -> None:
        """``texts`` are committed: make ``game`` the live game, ack and broadcast."""
        self.game = game
        if game.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            self.ready.clear()  # a new round or match: a new ready check at its end
            self.over_at = None
        elif self.over_at is None:
            self.over_at = time.time()
        self.log.extend(texts)
        self.version = len(self.log)
        self._boundary(texts)
        if status is not None:
            self.status = status
        self.last = last
        if ack is not None:
            conn, msg_id = ack
            if conn.deltas and msg_id is not None:
                conn.acks[self.version] = msg_id  # sent inside the delta of this version
            else:
                conn.send({"type": "ack", "id": msg_id, "version": self.version})
        self.changed(game_changed=True)

    def _check_open(self) -> None:
        if self.closed:
            raise ProtocolError("bad_state", "this room was reloaded; reconnect")

    def _actor(self, conn: Conn) -> int:
        if not conn.bound:
            raise ProtocolError("not_joined", "say hello first")
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        return conn.seat

    def _not_now(
        self,
        decided_on: int,
        same: Callable[[str], bool],
        conn: Conn,
        msg_id: int | None,
    ) -> None:
        """A command decided on another version than the room's (lock held): a
        replay of the command stored right after ``decided_on`` gets that
        command's ack again and changes nothing; anything else is refused with
        the current version (the client looks at the new state and decides again)."""
        now = self.version
        if decided_on < now and same(self.log[decided_on]):
            conn.send({"type": "ack", "id": msg_id, "version": decided_on + 1, "replay": True})
            return
        if decided_on > now:
            raise ProtocolError(
                "bad_version", f"version {decided_on} is ahead of the room's {now}", now
            )
        raise ProtocolError(
            "stale",
            f"decided on version {decided_on}, but the room is at version {now}: "
            "look at the new state and decide again",
            now,
        )

    async def command(
        self, conn: Conn, msg_id: int | None, text: str, decided_on: int | None = None
    ) -> None:
        seat = self._actor(conn)
        words = text.split()
        if words and _SEAT_WORD.match(words[0]):
            if int(words[0][1:]) != seat:
                raise ProtocolError(
                    "forbidden", f"you play seat P{seat}; {words[0]} is not your seat"
                )
            words = words[1:]
        if not words:
            raise ProtocolError("bad_command", "empty command")
        if words[0].upper() in ("NEXT", "NEXT_ROUND"):
            raise ProtocolError("bad_command", "send a next_round message to deal the next round")
        full = f"P{seat} " + " ".join(words)
        async with self.lock:
            self._check_open()
            game = self.game
            if decided_on is not None and decided_on != self.version:
                line: str | None = None
                if game is not None:
                    try:
                        line = str(parse_action(full, game.variant.cards))
                    except ParseError as e:
                        raise ProtocolError("bad_command", str(e)) from None
                self._not_now(decided_on, lambda t: t == line, conn, msg_id)
                return
            if self.status != "playing" or game is None:
                raise ProtocolError("bad_state", "the match has not started yet")
            try:
                action = parse_action(full, game.variant.cards)
            except ParseError as e:
                raise ProtocolError("bad_command", str(e)) from None
            g = game.copy(events=True)
            try:
                g.apply(action)
            except ParseError as e:
                raise ProtocolError("bad_command", str(e)) from None
            except UnoError as e:
                raise ProtocolError("illegal", str(e)) from None
            line = str(action)
            if not g.changed:  # accepted without effect: the core's version did not move
                raise ProtocolError(
                    "no_effect", f"{line} changes nothing now; not stored (docs/rules.md D65)"
                )
            await self._commit(
                [line], g, last={"seat": seat, "text": line, "by": "human"}, ack=(conn, msg_id)
            )
            self._acted(seat)

    def waiting_for(self) -> list[int]:
        """The people the ready check waits for: seats a person plays, connected,
        not yet Ready (bots, open seats and seats a bot plays for are ready at once)."""
        return [
            s.seat
            for s in self.seats
            if s.kind == "human"
            and s.token_hash is not None
            and not self.auto(s)
            and s.conns > 0
            and s.seat not in self.ready
        ]

    async def say_ready(self, conn: Conn, msg_id: int | None) -> None:
        """``ready`` (docs/protocol.md): this seat's person is ready for the next
        round (the round is over) or for a rematch (the match is over). When every
        person is ready the server deals it (or starts the new match)."""
        seat = self._actor(conn)
        async with self.lock:
            self._check_open()
            g = self.game
            if self.status != "playing" or g is None or g.state not in (
                Phase.ROUND_OVER,
                Phase.MATCH_OVER,
            ):
                raise ProtocolError("bad_state", "ready is for the end of a round or a match")
            others = [w for w in self.waiting_for() if w != seat]
            if others:
                if seat not in self.ready:
                    # stored: the list survives a restart of the server
                    store = self.hub.store
                    try:
                        await store.call(Store.ready_fn(self.code, seat, self.version))
                    except Exception as e:
                        raise store.error(e) from e
                    self.ready.add(seat)
                    self.changed(game_changed=False)
                conn.send({"type": "ack", "id": msg_id, "version": self.version})
                return
            self.ready.add(seat)
            if g.state == Phase.MATCH_OVER:
                await self._start_match(ack=(conn, msg_id))
            else:
                g2 = g.copy(events=True)
                g2.apply(NextRound())
                await self._commit(["NEXT"], g2, last=None, ack=(conn, msg_id))

    def ready_left(self) -> float:
        """Seconds until the host may go on without the people not ready (0: now)."""
        if self.over_at is None:
            return 0.0
        return max(0.0, self.over_at + self.hub.settings.ready_wait - time.time())

    def _check_ready(self, seat: int) -> None:
        """``next_round`` / ``new_match`` from ``seat`` (lock held): at once when
        no other person is still to say Ready; otherwise only the host, and only
        ``settings.ready_wait`` s after the round ended (docs/protocol.md ``ready``)."""
        others = [w for w in self.waiting_for() if w != seat]
        if not others:
            return
        names = ", ".join(self.seats[w].name or f"P{w}" for w in others)
        if seat != self.host:
            raise ProtocolError(
                "not_ready", f"waiting for {names} to say ready; only the host may go on"
            )
        left = self.ready_left()
        if left > 0:
            raise ProtocolError(
                "not_ready", f"waiting for {names} to say ready; the host may go on in {left:.0f} s"
            )

    async def next_round(
        self, conn: Conn, msg_id: int | None, decided_on: int | None = None
    ) -> None:
        seat = self._actor(conn)
        async with self.lock:
            self._check_open()
            if decided_on is not None and decided_on != self.version:
                self._not_now(decided_on, lambda t: t == "NEXT", conn, msg_id)
                return
            g = self.game
            if self.status != "playing" or g is None or g.state != Phase.ROUND_OVER:
                raise ProtocolError(
                    "bad_state", "the next round can be dealt only when a round is over"
                )
            self._check_ready(seat)
            g2 = g.copy(events=True)
            g2.apply(NextRound())
            await self._commit(["NEXT"], g2, last=None, ack=(conn, msg_id))

    async def new_match(
        self, conn: Conn, msg_id: int | None, decided_on: int | None = None
    ) -> None:
        seat = self._actor(conn)
        async with self.lock:
            self._check_open()
            if decided_on is not None and decided_on != self.version:
                self._not_now(decided_on, _is_match_line, conn, msg_id)
                return
            g = self.game
            if self.status != "playing" or g is None or g.state != Phase.MATCH_OVER:
                raise ProtocolError(
                    "bad_state", "a new match can start only when the match is over"
                )
            self._check_ready(seat)
            await self._start_match(ack=(conn, msg_id))

    async def _start_match(
        self,
        *,
        ack: tuple[Conn, int | None] | None = None,
        extra: Callable[[Connection], None] | None = None,
    ) -> None:
        seed = new_seed()
        g = Game.new(self.variant, self.players, self.options, seed)
        self.match += 1
        try:
            await self._commit(
                [f"#MATCH {seed}"], g, last=None, ack=ack, extra=extra, status="playing"
            )
        except BaseException:
            self.match -= 1
            raise

    async def start(
        self, conn: Conn, msg_id: int | None, level: str, decided_on: int | None = None
    ) -> None:
        seat = self._actor(conn)
        if seat != self.host:
            raise ProtocolError("forbidden", "only the host can start the match early")
        try:
            make_bot(level)
        except UnoError as e:
            raise ProtocolError("bad_message", str(e)) from None
        pool = self.hub.bots
        if pool is not None and level.strip().lower() not in INLINE_LEVELS and pool.full():
            raise ProtocolError(
                "busy",
                f"the server's bots are busy: try again in {pool.retry_after()} s, "
                "or start with normal or easy bots",
            )
        async with self.lock:
            self._check_open()
            if decided_on is not None and decided_on != self.version:
                self._not_now(decided_on, _is_match_line, conn, msg_id)
                return
            if self.status != "lobby":
                raise ProtocolError("bad_state", "the match has already started")
            empty = [s for s in self.seats if not s.claimed]
            rows = [SeatRow(s.seat, "bot", level, BOT_NAMES[s.seat], None) for s in empty]

            def extra(c: Connection) -> None:
                for r in rows:
                    Store.set_seat_fn(self.code, r)(c)

            await self._start_match_with_seats(rows, extra, ack=(conn, msg_id))

    async def _start_match_with_seats(
        self,
        rows: list[SeatRow],
        extra: Callable[[Connection], None] | None,
        ack: tuple[Conn, int | None] | None = None,
    ) -> None:
        before = [(s.kind, s.level, s.name, s.bot) for s in self.seats]
        for r in rows:
            s = self.seats[r.seat]
            s.kind, s.level, s.name = r.kind, r.level, r.name
            s.bot = table_bot(r.level or "heuristic")
        try:
            await self._start_match(ack=ack, extra=extra)
        except BaseException:
            for s, (kind, level, name, bot) in zip(self.seats, before, strict=True):
                s.kind, s.level, s.name, s.bot = kind, level, name, bot
            raise

    async def claim(self, name: str, seat: int | None) -> tuple[int, str]:
        """Give a free human seat to ``name``; start the match if it was the last one."""
        async with self.lock:
            if self.closed:
                raise StorageError("room reloaded")
            free = [s for s in self.seats if s.kind == "human" and not s.claimed]
            if seat is not None:
                if not 0 <= seat < self.players:
                    raise ProtocolError("bad_message", f"no seat {seat} in this room")
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise ProtocolError("taken", f"seat {seat} is not a free human seat")
            if not free:
                raise ProtocolError("taken", "no free seat in this room")
            target = free[0]
            if self.status == "playing":
                target.until_next = self._mid_round()  # a bot finishes this round
            token = secrets.token_urlsafe(32)
            shown = [n for s, n in zip(self.seats, self.seat_names(), strict=True) if s.claimed]
            name = distinct_name(name, shown)  # never two seats of one name (web/chat.py)
            row = SeatRow(target.seat, "human", None, name, hash_token(token))
            last_one = len([s for s in self.seats if not s.claimed]) == 1
            if last_one and self.status == "lobby":
                target.name, target.token_hash = row.name, row.token_hash
                try:
                    await self._start_match(extra=Store.set_seat_fn(self.code, row))
                except BaseException:
                    target.name, target.token_hash = None, None
                    raise
            else:
                await self.hub.store.call(Store.set_seat_fn(self.code, row))
                target.name, target.token_hash = row.name, row.token_hash
                self.changed(game_changed=False)
            return target.seat, token

    # ------------------------------------------------------------ automation

    def _schedule(self) -> None:
        """After a change of the game: start the bot's move or the turn timer.

        A bot already deciding about this very version and seat goes on (a
        presence change reschedules without changing the game)."""
        current = asyncio.current_task()
        g = self.game
        seat = g.to_act if g is not None else None
        catcher = None
        if g is not None and not self.closed and self.status == "playing":
            catcher = bot_catcher(g, self.seats) if self._declined != self.version else None
        wanted: tuple[int, int] | None = None
        if g is not None and not self.closed and self.status == "playing":
            if catcher is not None:
                # a bot may catch the vulnerable seat before its next action (a race:
                # a person who acts first closes the window, as at a real table)
                wanted = (self.version, catcher)
            elif seat is not None and (
                self.seats[seat].kind == "bot" or self.auto(self.seats[seat])
            ):
                wanted = (self.version, seat)
        keep = (
            wanted is not None
            and self.bot_task is not None
            and not self.bot_task.done()
            and self._bot_for == wanted
        )
        for task in (None if keep else self.bot_task, self.timer_task):
            if task is not None and task is not current:
                task.cancel()
        if not keep:
            self.bot_task = None
        self.timer_task = None
        self.deadline = None
        if g is None or self.closed or self.status != "playing":
            return
        if wanted is not None:
            if not keep:
                self._bot_for = wanted
                self.bot_task = asyncio.create_task(self._bot_turn(*wanted))
        elif self.turn_timer and (seat is not None or g.state == Phase.ROUND_OVER):
            self.deadline = time.time() + self.turn_timer
            self.timer_task = asyncio.create_task(self._timeout(self.version, self.turn_timer))

    def jump_in_beat(self, g: Game, seat: int) -> float:
        """Seconds a bot at ``seat`` waits, on top of its thinking, because a
        person at the table holds a card that could jump in now (docs/web.md,
        ``--jump-in-beat``): long enough to see the prompt and click."""
        beat = self.hub.settings.jump_in_beat
        if beat <= 0 or not g.options.jumpIn:
            return 0.0
        for s, acts in enumerate(g.legal_actions_by_seat()):
            person = self.seats[s].kind == "human" and not self.auto(self.seats[s])
            if s != seat and s != g.to_act and person and any(isinstance(a, Play) for a in acts):
                return beat
        return 0.0

    def _level_of(self, seat: int) -> str:
        s = self.seats[seat]
        return (s.level or "heuristic") if s.kind == "bot" else PROXY_LEVEL

    async def _bot_turn(self, version: int, seat: int) -> None:
        """A bot's move for ``seat`` at ``version``.

        A level that searches (not one of :data:`~unokit.web.botpool.INLINE_LEVELS`)
        decides in a worker process (:mod:`unokit.web.botpool`), on the seat's
        observation only, while this room and every other one go on; the
        answer is applied only if the room is still at ``version``. The bot's
        delay and its thinking overlap; if it is still thinking when the delay
        is over, the table is told (``thinking``, docs/protocol.md). A worker
        that dies or hangs leaves the seat the heuristic's move."""
        g = self.game
        if self.closed or self.version != version or g is None:
            return
        pool = self.hub.bots
        level = self._level_of(seat)
        job: asyncio.Future[Any] | None = None
        obs: Observation | None = None
        if pool is not None and level not in INLINE_LEVELS:
            obs = g.observe(seat)
            job = pool.submit(decide, level, decision_seed(self.seats[seat].seed, version), obs)
        beat = self.jump_in_beat(g, seat)
        try:
            delay = self.hub.settings.bot_delay
            if delay > 0:
                if g.state == Phase.AWAIT_CHALLENGE:
                    delay *= 1.5
                await asyncio.sleep(delay * self.rng.uniform(0.6, 1.4) + beat)
            else:
                await asyncio.sleep(beat)
            pooled: Action | None = None
            failed: str | None = None
            if job is not None:
                if not job.done() and self.version == version and not self.closed:
                    self._thinking = (version, seat)
                    self.broadcast({"type": "thinking", "seat": seat, "version": version})
                try:
                    pooled, _cpu = await job
                except WorkerLost as e:
                    if e.pid is None:  # remote workers (web/botbroker.py)
                        failed = f"no bot worker decided: {e.reason}"
                    else:
                        failed = f"its worker (pid {e.pid}) was lost: {e.reason}; replaced"
                except Exception as e:
                    failed = f"it failed in its worker: {type(e).__name__}: {e}"
        finally:
            if job is not None:
                job.cancel()  # the room moved on: a job still queued is dropped
        for attempt in range(5):
            async with self.lock:
                g = self.game
                if self.closed or self.version != version or g is None:
                    return  # an answer about an old version: dropped
                action: Action | None = None
                g2 = g.copy(events=True)
                try:
                    if job is None:
                        bot = self._bot_of(seat)
                        if bot is None:
                            raise IllegalActionError("no bot object")
                        action = bot.act(g.observe(seat))
                    elif failed is not None:
                        raise _BotLost(failed)
                    else:
                        action = pooled
                    assert action is not None
                    if seat != g.to_act and not isinstance(action, Catch):
                        # offered a catch (bot_catcher), the bot lets it go
                        self._declined = version
                        self._schedule()
                        return
                    g2.apply(action)
                    if not g2.changed:  # accepted without effect (the core says so)
                        raise IllegalActionError(f"{action} changes nothing (docs/rules.md D65)")
                except Exception as e:
                    action = self._fallback(g, seat, version, obs)
                    if isinstance(e, _BotLost):
                        log.warning(
                            "bot P%d (%s) of room %s: %s; it plays %s instead",
                            seat, level, self.code, e, action,
                        )  # fmt: skip
                    else:
                        log.exception(
                            "bot P%d (%s) of room %s failed; it plays %s instead",
                            seat, level, self.code, action,
                        )  # fmt: skip
                    if action is None:  # a catch offer the bot could not take: let it go
                        self._declined = version
                        self._schedule()
                        return
                    g2 = g.copy(events=True)
                    g2.apply(action)
                line = str(action)
                try:
                    await self._commit([line], g2, last={"seat": seat, "text": line, "by": "bot"})
                    return
                except StorageError as e:
                    log.warning("room %s: could not store a bot move (%s); retrying", self.code, e)
            await asyncio.sleep(0.5 * (attempt + 1))

    def _fallback(self, g: Game, seat: int, version: int, obs: Observation | None) -> Action | None:
        """A legal move for a bot that could not decide (lock held): the
        heuristic's on the seat's observation (microseconds), else the first
        legal one; None when the seat is only offered a catch."""
        if seat != g.to_act:
            return None
        if obs is None:
            obs = g.observe(seat)
        with contextlib.suppress(Exception):
            action = make_bot("heuristic", seed=decision_seed(self.seats[seat].seed, version)).act(
                obs
            )
            g.copy().apply(action)
            return action
        legal = [a for a in g.legal_actions(seat) if not isinstance(a, (CallUno, Catch))]
        return legal[0] if legal else None

    async def _timeout(self, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            g = self.game
            if self.closed or self.version != version or g is None:
                return
            seat = g.to_act
            try:
                if seat is None:
                    if g.state == Phase.ROUND_OVER:
                        g2 = g.copy(events=True)
                        g2.apply(NextRound())
                        await self._commit(["NEXT"], g2, last=None)
                    return
                for _ in range(3):  # draw, then keep it; or choose a colour
                    g = self.game
                    if g is None or g.to_act != seat:
                        return
                    action = auto_action(g, seat)
                    if action is None:
                        return
                    g2 = g.copy(events=True)
                    g2.apply(action)
                    line = str(action)
                    log.warning("room %s: P%d ran out of time; the server played %s",
                                self.code, seat, line)  # fmt: skip
                    await self._commit([line], g2, last={"seat": seat, "text": line, "by": "timer"})
                    if g2.state not in (Phase.AWAIT_DRAWN, Phase.AWAIT_COLOR):
                        self._missed(seat)
                        return
            except StorageError as e:
                log.warning("room %s: could not store a timed-out move (%s)", self.code, e)

    # ------------------------------------------------------------ quiet seats

    def auto(self, s: Seat) -> bool:
        """Whether a bot plays the person's seat ``s`` now: an open seat during
        a match, a seat whose player is away (left, or missed two turns in a
        row), or a seat taken mid-round (its player's from the next round)."""
        if s.kind != "human" or self.status != "playing":
            return False
        return s.token_hash is None or s.away or s.until_next

    def _mid_round(self) -> bool:
        g = self.game
        return g is not None and g.state not in (Phase.ROUND_OVER, Phase.MATCH_OVER)

    def _bot_of(self, seat: int) -> Bot | None:
        s = self.seats[seat]
        if s.kind == "bot":
            return s.bot
        if s.proxy is None:
            s.proxy = make_bot(PROXY_LEVEL, seed=new_seed())
        return s.proxy

    def _reschedule_soon(self) -> None:
        """Refresh the views and the automation under the lock (from outside it)."""

        async def run() -> None:
            async with self.lock:
                if not self.closed:
                    self.changed(game_changed=True)

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(run())

    def _returned(self, seat: int) -> None:
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        s = self.seats[seat]
        if s.away:
            s.away = False
            s.missed = 0
            self._reschedule_soon()

    def _left(self, seat: int) -> None:
        s = self.seats[seat]
        if s.conns > 0 or s.kind != "human" or s.token_hash is None or seat in self._grace:
            return

        async def grace() -> None:
            await asyncio.sleep(AWAY_GRACE)
            async with self.lock:
                self._grace.pop(seat, None)
                if self.closed or s.conns > 0 or s.away or s.token_hash is None:
                    return
                s.away = True
                self.changed(game_changed=True)

        with contextlib.suppress(RuntimeError):
            self._grace[seat] = asyncio.get_running_loop().create_task(grace())

    def _acted(self, seat: int) -> None:
        """The seat's player acted (lock held): they are here."""
        s = self.seats[seat]
        s.missed = 0
        if s.away:
            s.away = False
            self.changed(game_changed=True)

    def _missed(self, seat: int) -> None:
        """The turn timer played for the seat (lock held); twice in a row: a bot takes over."""
        s = self.seats[seat]
        if s.kind != "human":
            return
        s.missed += 1
        if s.missed >= 2 and not s.away:
            s.away = True
            self.changed(game_changed=True)

    def _boundary(self, texts: list[str]) -> None:
        """A new round or match: seats taken mid-round are their players' now."""
        if texts and (texts[0] == "NEXT" or texts[0].startswith("#MATCH ")):
            for s in self.seats:
                s.until_next = False

    async def come_back(self, token: str) -> int:
        """The player of ``token`` takes their seat back from the bot."""
        seat = self._seat_or_raise(token)
        async with self.lock:
            s = self.seats[seat]
            s.missed = 0
            if s.away:
                s.away = False
                self.changed(game_changed=True)
        return seat

    def _seat_or_raise(self, token: str) -> int:
        seat = self.seat_of_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "this token is not a seat token of this room")
        return seat

    async def hand_over(self, token: str, seat: int, to: str) -> None:
        """The host gives ``seat`` to a bot (``to="bot"``) or opens it to a
        newcomer (``to="open"``), before the match or between rounds."""
        if self._seat_or_raise(token) != self.host:
            raise ProtocolError("forbidden", "only the host can hand a seat over")
        if not 0 <= seat < self.players:
            raise ProtocolError("bad_message", f"no seat {seat} in this room")
        if seat == self.host:
            raise ProtocolError("forbidden", "the host keeps their own seat")
        if to not in ("bot", "open"):
            raise ProtocolError("bad_message", "a seat goes to 'bot' or is 'open'")
        async with self.lock:
            self._check_open()
            if self._mid_round():
                raise ProtocolError("bad_state", "seats change hands between rounds")
            s = self.seats[seat]
            if to == "bot":
                row = SeatRow(seat, "bot", PROXY_LEVEL, BOT_NAMES[seat], None)
            else:
                row = SeatRow(seat, "human", None, None, None)
            await self.hub.store.call(Store.set_seat_fn(self.code, row))
            s.kind, s.level, s.name, s.token_hash = row.kind, row.level, row.name, row.token_hash
            s.bot = make_bot(PROXY_LEVEL, seed=new_seed()) if to == "bot" else None
            s.away = s.until_next = False
            s.missed = 0
            for conn in [c for c in self.conns if c.seat == seat]:
                asyncio.get_running_loop().create_task(conn.close(4403, "seat handed over"))
            self.changed(game_changed=True)

    # ------------------------------------------------------------ reactions, public

    def react(self, token: str, emoji: str) -> None:
        """Send one of :data:`REACTIONS` to the table (never stored; rate-limited per seat)."""
        seat = self._seat_or_raise(token)
        if emoji not in REACTIONS:
            raise ProtocolError("bad_message", f"a reaction is one of {' '.join(REACTIONS)}")
        s = self.seats[seat]
        now = time.monotonic()
        while s.reactions and now - s.reactions[0] > REACTION_WINDOW:
            s.reactions.popleft()
        if len(s.reactions) >= REACTION_BURST:
            raise ProtocolError("rate_limited", "too many reactions; wait a few seconds")
        s.reactions.append(now)
        self.broadcast(
            {
                "type": "reaction",
                "seat": seat,
                "name": s.name or f"P{seat}",
                "emoji": emoji,
                "time": round(time.time(), 3),
            }
        )

    def set_public(self, token: str, public: bool) -> None:
        if self._seat_or_raise(token) != self.host:
            raise ProtocolError("forbidden", "only the host can list the room")
        self.public = public
        self.changed(game_changed=False)

    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "human" and not s.claimed)

    def listing(self) -> dict[str, Any]:
        """What the home page shows of a public room."""
        g = self.game
        return {
            "room": self.code,
            "variant": self.variant,
            "players": self.players,
            "free": self.free_seats(),
            "status": self.status,
            "round": g.round_no if g is not None else 0,
            "options": self.options.to_dict(),
            "names": [s.name for s in self.seats if s.claimed and s.kind == "human"],
        }

    # ------------------------------------------------------------ history

    def matches(self) -> list[tuple[int, list[str]]]:
        """(seed, commands) of each match in the room's log, in order."""
        out: list[tuple[int, list[str]]] = []
        for text in self.log:
            if text.startswith("#MATCH "):
                out.append((int(text[7:]), []))
            elif out:
                out[-1][1].append(text)
        return out

    def seat_names(self) -> list[str]:
        return [
            (s.name or (BOT_NAMES[s.seat] if s.kind == "bot" else f"P{s.seat}")).replace(",", " ")
            for s in self.seats
        ]

    def close(self) -> None:
        """Stop the room's tasks and ask its clients to reconnect (it reloads on demand)."""
        self.closed = True
        current = asyncio.current_task()
        # the grace tasks too: each holds the room for AWAY_GRACE seconds
        for task in (self.bot_task, self.timer_task, *self._grace.values()):
            if task is not None and task is not current:
                task.cancel()
        self._grace.clear()
        loop = asyncio.get_running_loop()
        for conn in list(self.conns):
            loop.create_task(conn.close(1012, "room reloaded; reconnect"))


def _is_match_line(text: str) -> bool:
    return text.startswith("#MATCH ")


def auto_action(g: Game, seat: int) -> Action | None:
    """What the server does for a player whose turn timer ran out: draw, keep the
    drawn card, accept a penalty, or choose the colour held most."""
    legal = [a for a in g.legal_actions(seat) if not isinstance(a, (CallUno, Catch))]
    if not legal:
        return None
    phase = g.state
    prefer: type[Action] | None = {
        Phase.AWAIT_TURN: Draw,
        Phase.AWAIT_DRAWN: Pass,
        Phase.AWAIT_CHALLENGE: Accept,
    }.get(phase)  # type: ignore[assignment]
    if prefer is not None:
        for a in legal:
            if isinstance(a, prefer):
                return a
    if phase == Phase.AWAIT_COLOR:
        held = Counter(
            f.color for f in (c.face(g.side) for c in g.hand(seat)) if f.color is not None
        )
        choices = [a for a in legal if isinstance(a, ChooseColor)]
        if choices:
            return max(choices, key=lambda a: held.get(a.color, 0))
    plays = [a for a in legal if isinstance(a, Play)]
    return plays[0] if plays else legal[0]


class Hub:
    """All rooms of the server: loaded lazily from the store, created, joined."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        #: the worker processes bots decide in (None: in the event loop)
        self.bots: WorkerPool | BrokerBots | None = None
        if settings.bot_workers > 0:
            self.bots = WorkerPool(
                settings.bot_workers,
                queue_limit=settings.bot_queue_limit,
                hang_timeout=settings.bot_hang,
                imports=settings.bot_imports,
            )
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def get(self, code: str) -> Room | None:
        """The room ``code`` (loaded from the database if needed), or None."""
        if not ROOM_CODE_RE.match(code):
            return None
        room = self.rooms.get(code)
        if room is not None:
            return room
        pending = self._loading.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = fut
        try:
            loaded = await self.store.call(Store.load_fn(code))
            room = None
            if loaded is not None:
                try:
                    room = Room(self, loaded)
                except (UnoError, StorageError, ValueError) as e:
                    log.error("room %s cannot be rebuilt: %s", code, e)
                    raise StorageError(f"room {code} cannot be rebuilt: {e}") from e
                self.rooms[code] = room
                room._schedule()
            fut.set_result(room)
            return room
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[code]

    def evict(self, room: Room) -> None:
        room.close()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    async def create(
        self,
        variant: str,
        seat_specs: list[tuple[str, str | None]],
        options: Options,
        turn_timer: float | None,
        name: str,
        host: int | None = None,
    ) -> tuple[Room, int, str]:
        """A new room; the creator takes seat ``host`` (default: the first human
        seat). Returns (room, seat, token)."""
        if host is None:
            host = next(i for i, (kind, _) in enumerate(seat_specs) if kind == "human")
        token = secrets.token_urlsafe(32)
        rows = []
        for i, (kind, level) in enumerate(seat_specs):
            if kind == "bot":
                rows.append(SeatRow(i, "bot", level, BOT_NAMES[i], None))
            elif i == host:
                rows.append(SeatRow(i, "human", None, name, hash_token(token)))
            else:
                rows.append(SeatRow(i, "human", None, None, None))
        full = all(r.kind == "bot" or r.token_hash for r in rows)
        for _ in range(5):
            code = new_room_code()
            if code in self.rooms:
                continue
            row = RoomRow(
                code=code,
                created=time.time(),
                variant=variant,
                players=len(rows),
                options=options.to_dict(),
                turn_timer=turn_timer,
                host=host,
                status="lobby",
            )
            try:
                await self.store.call(Store.create_room_fn(row, rows))
            except StorageError:
                if await self.store.call(Store.exists_fn(code)):
                    continue  # a code collision: draw another
                raise
            break
        else:  # pragma: no cover - 2^50 codes
            raise StorageError("could not find a free room code")
        room = Room(self, LoadedRoom(row, rows, []))
        self.rooms[code] = room
        if full:
            async with room.lock:
                await room._start_match()
        return room, host, token

    def public_rooms(self) -> list[Room]:
        """The public rooms in memory that have a free seat, fullest first."""
        rooms = [r for r in self.rooms.values() if r.public and not r.closed and r.free_seats()]
        return sorted(rooms, key=lambda r: (r.free_seats(), r.code))

    def sweep(self) -> None:
        """Unload rooms nobody has watched for a while (they reload on demand)."""
        limit = self.settings.idle_unload
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if (
                not room.conns
                and now - room.idle_since > limit
                and not room.lock.locked()
                and (room.bot_task is None or room.bot_task.done())
            ):
                self.evict(room)

    def close(self) -> None:
        for room in list(self.rooms.values()):
            room.close()
        self.rooms.clear()
