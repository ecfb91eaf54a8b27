"""Commands for agents from outside: ``unokit mcp`` (an MCP server for
language-model agents) and ``unokit bot connect`` (one of our levels, or an
engine program, in a seat of a web room). Optional packages are imported
inside the commands; a missing one is one line with its install command."""

from __future__ import annotations

import importlib.util
from typing import Annotated

import typer
from rich.markup import escape

from unokit.cli import app, err_console


def need(module: str, extra: str) -> None:
    """Exit 2 with one line if the optional package ``module`` is missing."""
    if importlib.util.find_spec(module) is None:
        err_console.print(
            "[red]error:[/red] "
            + escape(f"this command needs the {extra!r} extra: pip install 'unokit[{extra}]'"),
            soft_wrap=True,
        )
        raise typer.Exit(2)


@app.command("mcp")
def mcp_command(
    transport: Annotated[
        str, typer.Option(help="stdio (a client starts this command) or http (streamable HTTP).")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="Address to listen on (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (http); the path is /mcp.")] = 8765,
) -> None:
    """An MCP server: language-model agents play UNO, Flip and Flex against our bots."""
    if transport not in ("stdio", "http"):
        raise typer.BadParameter(f"{transport!r} is not stdio or http", param_hint="--transport")
    if not 1 <= port <= 65535:
        raise typer.BadParameter("must be 1 to 65535", param_hint="--port")
    need("mcp", "mcp")
    from unokit.agents.mcp_server import run

    run(transport, host, port)


bot_app = typer.Typer(
    name="bot",
    help="Bots in seats of web rooms (docs/bot-api.md).",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(bot_app)


@bot_app.command("connect")
def bot_connect(
    url: Annotated[str, typer.Argument(help="The room's link, http://HOST:PORT/r/CODE.")],
    token: Annotated[str, typer.Option(help="The seat token the host got for this bot.")] = "",
    level: Annotated[
        str, typer.Option(help="Our bot level: easy, normal, hard, heuristic, random.")
    ] = "normal",
    engine: Annotated[
        str | None,
        typer.Option(help="An engine program instead of a level (docs/engine-protocol.md)."),
    ] = None,
    think_ms: Annotated[
        int | None, typer.Option("--think-ms", help="Thinking budget of hard (ms).")
    ] = None,
    engine_timeout_ms: Annotated[
        int, typer.Option("--engine-timeout-ms", help="Time per move of the engine (ms).")
    ] = 5000,
    matches: Annotated[int, typer.Option(help="Matches to play before leaving.")] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")] = False,
) -> None:
    """Play a seat of a web room with one of our levels or an engine program."""
    from unokit.bots import make_bot
    from unokit.engine.errors import BotFailure, UnoError

    if not token.strip():
        raise typer.BadParameter("the seat token of the bot's seat is needed", param_hint="--token")
    if matches < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--matches")
    if think_ms is not None and think_ms < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--think-ms")
    if engine_timeout_ms < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--engine-timeout-ms")
    need("websockets", "web")
    from unokit.agents.botclient import BotClient, ws_url

    try:
        ws_url(url)
        if engine is not None:
            bot = make_bot("engine", command=engine, timeout_ms=engine_timeout_ms)
        else:
            if level.strip().lower() == "engine":
                raise UnoError("use --engine CMD for an engine program")
            bot = make_bot(level, **({} if think_ms is None else {"think_ms": think_ms}))
        client = BotClient(url, token, bot, matches, say=None if quiet else print)
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True)
        raise typer.Exit(2) from None
    import asyncio

    try:
        result = asyncio.run(client.run())
    except BotFailure as e:
        err_console.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True)
        raise typer.Exit(1) from None
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {escape(str(e))}", soft_wrap=True)
        raise typer.Exit(2) from None
    except OSError as e:
        err_console.print(
            f"[red]error:[/red] cannot reach {escape(url)}: {escape(str(e))}", soft_wrap=True
        )
        raise typer.Exit(2) from None
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    print(
        f"played {result.moves} moves as P{result.seat}; {result.matches} match(es) over; "
        f"winners {result.winners}, scores {result.scores}; {len(result.errors)} errors"
    )
