"""Rooms: the authoritative game of each table, its seats, connections, bots and timer.

A :class:`Room` owns one :class:`~unokit.Game` and the ordered log of accepted
lines that rebuilds it (see :mod:`unokit.web.store`). Every change goes through
one path, under the room's lock: check it on a copy of the game, store it
(committed), then make the copy the live game, acknowledge and broadcast. A
command the engine refuses, or that cannot be stored, changes nothing.

The room's other parts are mixins in their own modules: what each seat and
spectator is sent (views and deltas, :mod:`unokit.web.views`), the bots at the
table (:mod:`unokit.web.tablebots`) and its clocks (:mod:`unokit.web.timers`).
A connection is a :class:`~unokit.web.conn.Conn`; the rooms of a server, its
:class:`~unokit.web.hub.Hub`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from unokit.bots import Bot, make_bot
from unokit.bots.budget import level_bot
from unokit.engine.actions import NextRound, parse_action
from unokit.engine.errors import IllegalActionError, ParseError, UnoError
from unokit.engine.game import Game, Phase
from unokit.engine.options import Options
from unokit.engine.refusals import reason_name
from unokit.web.botpool import INLINE_LEVELS
from unokit.web.chat import distinct_name
from unokit.web.errors import ProtocolError
from unokit.web.store import Append, LoadedRoom, SeatRow, StorageError, Store
from unokit.web.tablebots import PROXY_LEVEL, TableBots
from unokit.web.timers import Timers
from unokit.web.views import DUMPS, RoomViews

if TYPE_CHECKING:
    from unokit.web.conn import Conn
    from unokit.web.hub import Hub

__all__ = [
    "Room",
    "Seat",
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


class Room(RoomViews, TableBots, Timers):
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
        self._init_views()
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

    # ------------------------------------------------------------ telling the connections

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
        text = DUMPS(message)
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
                code = e.reason if isinstance(e, IllegalActionError) else None
                reason = None if code is None else reason_name(code)
                raise ProtocolError("illegal", str(e), reason=reason) from None
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
            if (
                self.status != "playing"
                or g is None
                or g.state
                not in (
                    Phase.ROUND_OVER,
                    Phase.MATCH_OVER,
                )
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
