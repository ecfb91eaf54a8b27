"""Bots at the table: the bot seats of a room and the bots that play for
quiet seats. A level that searches decides in a worker process
(:mod:`unokit.web.botpool`, or remote workers: :mod:`unokit.web.botbroker`);
a bot that cannot decide plays a fallback. :class:`TableBots` is the part of
:class:`~unokit.web.room.Room` that schedules them (and the turn timer)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from unokit.bots import make_bot
from unokit.bots.budget import decision_seed
from unokit.engine.actions import Action, CallUno, Catch, Play
from unokit.engine.errors import IllegalActionError
from unokit.engine.game import Game, Phase
from unokit.engine.observation import Observation
from unokit.web.botpool import INLINE_LEVELS, WorkerLost, decide
from unokit.web.parts import RoomParts
from unokit.web.store import StorageError

if TYPE_CHECKING:
    from unokit.web.room import Seat

__all__ = ["PROXY_LEVEL", "TableBots", "bot_catcher"]

log = logging.getLogger("unokit.web.room")

#: the level of the bot that plays a quiet seat
PROXY_LEVEL = "normal"


class _BotLost(Exception):
    """A bot's worker could not answer (why, for the log line)."""


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


class TableBots(RoomParts):
    """The bots of a room's seats (a part of :class:`~unokit.web.room.Room`)."""

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
