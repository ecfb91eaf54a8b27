"""The web app: rooms, friends and bots in the browser (``unokit serve``).

* :mod:`unokit.web.app` — the FastAPI application (REST lobby, WebSocket, static files)
* :mod:`unokit.web.room` — rooms: the authoritative games, seats, bots, turn timer
* :mod:`unokit.web.store` — durable storage (SQLite or PostgreSQL, SQLAlchemy 2)
* :mod:`unokit.web.messages` — the protocol's Pydantic models (docs/protocol.md)
"""
