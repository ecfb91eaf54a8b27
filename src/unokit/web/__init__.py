"""The web app: rooms, friends and bots in the browser (``unokit serve``).

* :mod:`unokit.web.app` — the FastAPI application (REST lobby, WebSocket, static files)
* :mod:`unokit.web.room` — a room: its authoritative game, seats and commands
* :mod:`unokit.web.views` — what each seat and spectator is sent: states, deltas, their caches
* :mod:`unokit.web.tablebots` — bots at the table (worker pool, fallbacks)
* :mod:`unokit.web.timers` — the turn timer, the away grace, the ready check's wait
* :mod:`unokit.web.conn` — one WebSocket client: its queue, writer and rate limit
* :mod:`unokit.web.hub` — all rooms of a server process
* :mod:`unokit.web.store` — durable storage (SQLite or PostgreSQL, SQLAlchemy 2)
* :mod:`unokit.web.messages` — the protocol's Pydantic models (docs/protocol.md)
"""
