"""Commands for agents from outside: ``unokit mcp`` (an MCP server for
language-model agents) and ``unokit bot connect`` (one of our levels, or an
engine program, in a seat of a web room). Optional packages are imported
inside the commands; a missing one is one line with its install command."""

from __future__ import annotations

import importlib.util
from typing import Annotated

import typer

from unokit.cli import app, err_console


def need(module: str, extra: str) -> None:
    """Exit 2 with one line if the optional package ``module`` is missing."""
    if importlib.util.find_spec(module) is None:
        err_console.print(
            f"[red]error:[/red] this command needs the {extra!r} extra: "
            f"pip install 'unokit[{extra}]'",
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
    from unokit.mcp_server import run

    run(transport, host, port)
