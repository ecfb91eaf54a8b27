"""What the parts of a room share: the state of a :class:`~unokit.web.room.Room`
that its views (:mod:`unokit.web.views`), bots at the table
(:mod:`unokit.web.tablebots`) and clocks (:mod:`unokit.web.timers`) read and
change, and the room's methods they call. :class:`~unokit.web.room.Room` sets
and defines all of it; the declarations here only type the parts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio
    import random
    from collections.abc import Callable

    from sqlalchemy import Connection

    from unokit.bots import Bot
    from unokit.engine.game import Game
    from unokit.engine.options import Options
    from unokit.web.conn import Conn
    from unokit.web.hub import Hub
    from unokit.web.room import Seat

__all__ = ["RoomParts"]


class RoomParts:
    """The room's state and methods its parts use (declarations only)."""

    hub: Hub
    code: str
    variant: str
    players: int
    options: Options
    turn_timer: float | None
    host: int
    status: str
    seats: list[Seat]
    lock: asyncio.Lock
    conns: set[Conn]
    game: Game | None
    log: list[str]
    version: int
    match: int
    last: dict[str, Any] | None
    deadline: float | None
    epoch: int
    ready: set[int]
    over_at: float | None
    closed: bool
    public: bool
    rng: random.Random
    bot_task: asyncio.Task[None] | None
    timer_task: asyncio.Task[None] | None
    _bot_for: tuple[int, int] | None
    _thinking: tuple[int, int] | None
    _declined: int
    _grace: dict[int, asyncio.Task[None]]

    if TYPE_CHECKING:

        def auto(self, s: Seat) -> bool: ...

        def changed(self, *, game_changed: bool) -> None: ...

        def broadcast(self, message: dict[str, Any]) -> None: ...

        def _bot_of(self, seat: int) -> Bot | None: ...

        def _schedule(self) -> None: ...

        async def _timeout(self, version: int, seconds: float) -> None: ...

        async def _commit(
            self,
            texts: list[str],
            game: Game,
            *,
            last: dict[str, Any] | None,
            ack: tuple[Conn, int | None] | None = None,
            extra: Callable[[Connection], None] | None = None,
            status: str | None = None,
        ) -> None: ...
