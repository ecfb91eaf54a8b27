"""The routes of the web app, grouped by resource, each module an
:class:`~fastapi.APIRouter` (:func:`unokit.web.app.create_app` includes them in
this order): :mod:`.meta` (health, protocol schema, lobby metadata),
:mod:`.rooms` (create, join, info), :mod:`.table` (reactions, chat mode, public
rooms, quick play, seats), :mod:`.records` (history, deal commitment, match
record, replay), :mod:`.pages` (the HTML page and icon) and :mod:`.ws` (a
room's WebSocket). They share the server's parts through
:data:`.common.ServerDep`."""
