"""``unokit serve``: run the web app (imported by :mod:`unokit.cli`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from unokit.cli import app, err_console, fail, missing_extra


class SqliteSync(StrEnum):
    FULL = "FULL"
    NORMAL = "NORMAL"


class WsProtocol(StrEnum):
    auto = "auto"
    websockets = "websockets"
    websockets_sansio = "websockets-sansio"
    wsproto = "wsproto"


class HttpProtocol(StrEnum):
    auto = "auto"
    httptools = "httptools"
    h11 = "h11"


class LogLevel(StrEnum):
    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=0, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///path/file.sqlite3 or postgresql://user@host/db. "
            "Default: an SQLite file unokit.sqlite3 in $UNOKIT_DATA_DIR, else ./data.",
        ),
    ] = None,
    broker: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:6379/0) shared by several unokit serve processes "
            "on one --db: each room runs in one of them at a time, clients may connect to "
            "any (docs/scale-out.md). Default: none, this process owns every room.",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Mean seconds a bot thinks before acting.", min=0)
    ] = 0.9,
    jump_in_beat: Annotated[
        float,
        typer.Option(
            "--jump-in-beat",
            help="Seconds more a bot waits while a person at the table could jump in "
            "(with the jumpIn rule; 0: never).",
            min=0,
        ),
    ] = 2.5,
    ws_rate: Annotated[
        float, typer.Option("--ws-rate", help="Messages per second a connection may send.", min=0.1)
    ] = 15.0,
    ws_burst: Annotated[
        int, typer.Option("--ws-burst", help="Messages a connection may send at once.", min=1)
    ] = 30,
    ws_addr_rate: Annotated[
        float,
        typer.Option(
            "--ws-addr-rate",
            help="Messages per second all connections of one address may send together.",
            min=0.1,
        ),
    ] = 200.0,
    lobby_rate: Annotated[
        int,
        typer.Option(
            "--lobby-rate", help="Room creations and joins per minute per address.", min=1
        ),
    ] = 60,
    sqlite_sync: Annotated[
        SqliteSync,
        typer.Option(
            "--sqlite-sync",
            help="SQLite: FULL flushes every commit to disk before the ack (survives power "
            "loss); NORMAL only survives a crash or kill of the server.",
            case_sensitive=False,
        ),
    ] = SqliteSync.FULL,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            "--ws-deflate/--no-ws-deflate",
            help="Accept permessage-deflate when a client offers it. Off by default: "
            "updates are small deltas, and compressing each costs more server CPU "
            "than it saves bytes.",
        ),
    ] = False,
    idle_unload: Annotated[
        float,
        typer.Option(
            "--idle-unload",
            help="Seconds without any connection after which a room is unloaded from memory "
            "(it reloads from the database on demand).",
            min=1.0,
        ),
    ] = 1800.0,
    ws_protocol: Annotated[
        WsProtocol,
        typer.Option(
            "--ws-protocol",
            help="uvicorn's WebSocket implementation: websockets-sansio (the default) "
            "spent the least CPU per move of the three (docs/scale-out.md); websockets is "
            "the legacy one; wsproto needs the wsproto package.",
            case_sensitive=False,
        ),
    ] = WsProtocol.websockets_sansio,
    http_protocol: Annotated[
        HttpProtocol,
        typer.Option(
            "--http-protocol",
            help="uvicorn's HTTP implementation (auto: httptools when installed, as with "
            "the [web] extra).",
            case_sensitive=False,
        ),
    ] = HttpProtocol.auto,
    log_level: Annotated[
        LogLevel, typer.Option("--log-level", help="uvicorn log level.", case_sensitive=False)
    ] = LogLevel.info,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-origin",
            help="A browser origin (https://host[:port]) besides the page's own that may "
            "open a WebSocket: the public address when a proxy forwards to this server "
            "under another Host. Repeatable (docs/deployment.md).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Comma-separated addresses of reverse proxies whose X-Forwarded-For and "
            "X-Forwarded-Proto are trusted for the client's address and scheme. Default: "
            "none (every per-address limit uses the TCP peer). Set it to the proxy's "
            "address, never to '*' on a reachable port (docs/deployment.md).",
        ),
    ] = None,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            help="Seconds a connection has to send a request's complete headers (after "
            "opening, or after the previous response); then it is closed.",
            min=0.5,
        ),
    ] = 10.0,
    keep_alive: Annotated[
        int,
        typer.Option(
            "--keep-alive", help="Seconds an idle kept-alive HTTP connection stays open.", min=1
        ),
    ] = 5,
    max_conns_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            help="Open connections (HTTP and WebSocket) one client address may hold; "
            "more are refused with 429. It counts TCP peers: behind a reverse proxy "
            "every connection comes from the proxy, so raise it there and cap per "
            "client in the proxy (docs/deployment.md).",
            min=1,
        ),
    ] = 50,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            "--bot-workers",
            help="Worker processes the bots that search (hard) think in, off the event "
            "loop. Default: cores - 1, at least 1.",
            min=0,
        ),
    ] = None,
    bot_queue: Annotated[
        int | None,
        typer.Option(
            "--bot-queue",
            help="Bot decisions that may wait for a worker; beyond, new rooms with such bots "
            "are refused (503, Retry-After). Default: 60 per worker.",
            min=1,
        ),
    ] = None,
    bot_hang: Annotated[
        float,
        typer.Option(
            "--bot-hang",
            help="Seconds a worker may think about one decision before it is replaced "
            "(the seat then plays the heuristic's move).",
            min=1.0,
        ),
    ] = 60.0,
    replay_rate: Annotated[
        int,
        typer.Option(
            "--replay-rate", help="Replays (POST /api/replay) per minute per address.", min=1
        ),
    ] = 10,
) -> None:
    """Play in the browser: rooms, friends and bots (http://HOST:PORT)."""
    try:
        import uvicorn

        from unokit.web.app import create_app
        from unokit.web.botpool import default_workers
        from unokit.web.config import Settings, default_db_url
        from unokit.web.store import normalize_url
    except ModuleNotFoundError as e:  # the [web] extra is missing
        fail(missing_extra(e.name or "fastapi"))
    from sqlalchemy.exc import ArgumentError

    for name, choice in (("wsproto", ws_protocol), ("httptools", http_protocol)):
        if choice.value == name:
            import importlib.util

            if importlib.util.find_spec(name) is None:
                raise typer.BadParameter(
                    f"{name} is not installed (pip install {name})",
                    param_hint="--ws-protocol" if name == "wsproto" else "--http-protocol",
                )
    url = db or default_db_url()
    try:
        from sqlalchemy.engine import make_url

        make_url(normalize_url(url))
    except ArgumentError as e:
        raise typer.BadParameter(str(e), param_hint="--db") from None
    if bot_workers == 0 and broker is None:
        raise typer.BadParameter(
            "0 needs --broker: the bots then think only in unokit bot-worker processes",
            param_hint="--bot-workers",
        )
    if broker is not None:
        if not broker.startswith(("redis://", "rediss://", "unix://")):
            raise typer.BadParameter(
                "a Redis URL: redis://host:port/db, rediss://… or unix://…",
                param_hint="--broker",
            )
        if url.startswith("sqlite") and ":memory:" in url:
            raise typer.BadParameter(
                "processes of a cluster share a database; :memory: is private",
                param_hint="--db",
            )
    from unokit.web.security import normalize_origin
    from unokit.web.serving import protocols

    origins: list[str] = []
    for o in allowed_origin or []:
        try:
            origins.append(normalize_origin(o))
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--allowed-origin") from None
    proxies = [ip.strip() for ip in (forwarded_allow_ips or "").split(",") if ip.strip()]
    http_class, ws_class, _guard = protocols(
        http_protocol.value,
        ws_protocol.value,
        per_address=max_conns_per_address,
        header_timeout=header_timeout,
    )
    settings = Settings(
        db_url=url,
        allowed_origins=tuple(origins),
        broker_url=broker,
        bot_delay=bot_delay,
        jump_in_beat=jump_in_beat,
        rate=ws_rate,
        burst=ws_burst,
        addr_rate=ws_addr_rate,
        addr_burst=max(ws_burst, int(2 * ws_addr_rate)),
        rest_per_minute=lobby_rate,
        sqlite_synchronous=sqlite_sync.value,
        idle_unload=idle_unload,
        bot_workers=bot_workers if bot_workers is not None else default_workers(),
        bot_queue=bot_queue,
        bot_hang=bot_hang,
        replay_per_minute=replay_rate,
        bot_prestart=True,
    )
    try:
        application = create_app(settings)
    except Exception as e:
        fail(f"cannot open the database {url}: {e}")
    import gc

    # Everything loaded so far lives as long as the server: keep it out of the
    # collector's way, and collect the old generations less often (a full
    # collection of a big heap pauses every room at once).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
    shown = url.split("@")[-1] if "@" in url else url
    cluster = ""
    if broker is not None:
        cluster = f", broker: {broker.split('@')[-1]}"
    err_console.print(
        f"unokit: http://{host}:{port}  (database: {shown}{cluster}, "
        f"bot workers: {settings.bot_workers})"
    )
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level=log_level.value,
        ws=ws_class,
        http=http_class,
        # uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise:
        # only from the proxies named with --forwarded-allow-ips here
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        timeout_keep_alive=keep_alive,
        h11_max_incomplete_event_size=16 * 1024,
        ws_max_size=1 << 20,
        ws_per_message_deflate=ws_deflate,
        ws_ping_interval=20.0,
        ws_ping_timeout=30.0,
        timeout_graceful_shutdown=3,
    )


@app.command("bot-worker")
def bot_worker(
    broker: Annotated[
        str,
        typer.Option(
            help="Redis URL (redis://host:6379/0) of the unokit serve --broker processes "
            "whose bots this worker thinks for.",
        ),
    ],
    concurrency: Annotated[
        int | None,
        typer.Option(
            "--concurrency",
            help="Decisions at once: one worker process each. Default: the machine's cores.",
            min=1,
        ),
    ] = None,
    claim_after: Annotated[
        float,
        typer.Option(
            "--claim-after",
            help="Seconds after which a job another worker took and has not answered "
            "(it died) is taken over by this one.",
            min=0.5,
        ),
    ] = 10.0,
    hang: Annotated[
        float,
        typer.Option(
            "--hang",
            help="Seconds a process may think about one decision before it is replaced "
            "(the job is answered with an error; the server plays a fallback move).",
            min=1.0,
        ),
    ] = 60.0,
    log_level: Annotated[
        LogLevel, typer.Option("--log-level", help="Log level.", case_sensitive=False)
    ] = LogLevel.info,
) -> None:
    """Think for the bots of unokit serve --broker processes, on any machine.

    Servers send each decision of a searching bot (hard, expert) to the broker
    while any worker is alive; every worker takes the next one, so bot
    capacity grows with each worker started. A server started with
    --bot-workers 0 has no workers of its own: its bots think only here (and
    play the heuristic's move, with a log line, while no worker is alive).
    Jobs and answers are JSON; trust the broker only (docs/scale-out.md)."""
    import asyncio
    import logging
    import os
    import signal

    try:
        import redis  # noqa: F401

        from unokit.web.botbroker import BotWorker
    except ModuleNotFoundError as e:
        fail(missing_extra(e.name or "redis"))
    if not broker.startswith(("redis://", "rediss://", "unix://")):
        raise typer.BadParameter(
            "a Redis URL: redis://host:port/db, rediss://… or unix://…", param_hint="--broker"
        )
    level = "DEBUG" if log_level.value == "trace" else log_level.value.upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    worker = BotWorker(
        broker,
        concurrency=concurrency or len(os.sched_getaffinity(0)),
        claim_after=claim_after,
        hang=hang,
    )
    err_console.print(
        f"unokit bot-worker {worker.name}: {worker.concurrency} processes, "
        f"broker {broker.split('@')[-1]}"
    )

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await worker.run(stop)

    from redis.exceptions import RedisError

    try:
        asyncio.run(main())
    except (OSError, RedisError) as e:
        fail(f"cannot reach the broker {broker.split('@')[-1]}: {e}")
