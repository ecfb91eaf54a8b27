"""Server settings and the default data directory.

The database defaults to an SQLite file ``unokit.sqlite3`` in the data
directory: ``$UNOKIT_DATA_DIR`` if set, else ``./data`` (relative to the
directory the server is started in).

>>> s = Settings(db_url="sqlite:///:memory:")
>>> s.bot_delay, s.max_message
(0.9, 4096)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings", "data_dir", "default_db_url"]


def data_dir() -> Path:
    """``$UNOKIT_DATA_DIR``, or ``./data``."""
    return Path(os.environ.get("UNOKIT_DATA_DIR") or "data")


def default_db_url() -> str:
    return f"sqlite:///{(data_dir() / 'unokit.sqlite3').resolve()}"


@dataclass
class Settings:
    db_url: str
    #: mean seconds a bot waits before acting (0: at once; tests use 0)
    bot_delay: float = 0.9
    #: seconds more a bot waits while a person at the table could jump in (0: never)
    jump_in_beat: float = 2.5
    #: seconds the ready check between rounds (and the rematch vote) waits for
    #: every person before the host may go on without those not ready
    #: (docs/protocol.md ``ready``)
    ready_wait: float = 20.0
    #: largest client message, in bytes of UTF-8
    max_message: int = 4096
    #: token bucket per connection: refill rate (messages/s) and size
    rate: float = 15.0
    burst: int = 30
    #: token bucket per client address, shared by all its connections
    addr_rate: float = 200.0
    addr_burst: int = 400
    #: close a connection after this many dropped (rate-limited) messages in a row
    flood_close: int = 200
    #: messages waiting to be sent to one client before it is dropped as too slow
    max_outbox: int = 256
    #: room creations and joins per minute per client address
    rest_per_minute: int = 60
    #: largest HTTP request body, bytes
    max_body: int = 65536
    #: seconds without any connection after which a room is unloaded from memory
    idle_unload: float = 1800.0
    #: seconds between full garbage collections (0: never). A closed WebSocket
    #: leaves cyclic garbage (the websockets protocol object is a cycle by
    #: design), which the thresholds ``unokit serve`` sets collect too rarely
    gc_every: float = 60.0
    #: SQLite's synchronous pragma: FULL survives power loss, NORMAL only crashes
    sqlite_synchronous: str = "FULL"
    #: connections per room (players and spectators)
    max_room_conns: int = 64
    #: Redis URL of the cluster (None: this process owns every room; web/cluster.py)
    broker_url: str | None = None
    #: seconds a room's lease lasts without renewal (cluster only)
    lease: float = 3.0
    #: browser origins (scheme://host[:port]) besides the page's own that may
    #: open a WebSocket (``unokit serve --allowed-origin``; web/security.py)
    allowed_origins: tuple[str, ...] = ()
    #: worker processes for bot decisions (unokit.web.botpool; 0: decide in
    #: the event loop, for tests of the room alone)
    bot_workers: int = 1
    #: bot decisions that may wait for a worker before new rooms with bots
    #: are refused (None: 60 per worker: a room waits for one decision at a time)
    bot_queue: int | None = None
    #: seconds a worker may think about one decision before it is replaced
    bot_hang: float = 60.0
    #: replays (POST /api/replay) per minute per client address
    replay_per_minute: int = 10
    #: start the bot workers with the server (unokit serve), not on first use
    bot_prestart: bool = False
    #: modules the bot workers import (each may register more bot levels)
    bot_imports: tuple[str, ...] = ()

    @property
    def bot_queue_limit(self) -> int:
        return self.bot_queue if self.bot_queue is not None else 60 * max(1, self.bot_workers)
