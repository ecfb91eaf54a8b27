"""The clocks of a room: the turn timer (what the server plays for a player
whose time ran out), the grace before a bot plays for a seat whose player
left, the missed turns after which it does, and the ready check's wait.
:class:`Timers` is the part of :class:`~unokit.web.room.Room` that keeps them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import Counter

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
)
from unokit.engine.game import Game, Phase
from unokit.web.parts import RoomParts
from unokit.web.store import StorageError

__all__ = ["AWAY_GRACE", "Timers", "auto_action"]

log = logging.getLogger("unokit.web.room")

#: seconds a seat's last connection may be gone before a bot plays for it
AWAY_GRACE = float(os.environ.get("UNOKIT_AWAY_GRACE", "20"))


class Timers(RoomParts):
    """A room's turn timer, away grace and ready wait (a part of
    :class:`~unokit.web.room.Room`)."""

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

    def ready_left(self) -> float:
        """Seconds until the host may go on without the people not ready (0: now)."""
        if self.over_at is None:
            return 0.0
        return max(0.0, self.over_at + self.hub.settings.ready_wait - time.time())

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
