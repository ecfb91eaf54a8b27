"""The ``unokit play`` and ``unokit replay`` commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from unokit.cli import app, err_console, parse_options
from unokit.errors import UnoError

_VARIANTS = ("classic", "flip", "flex")


@app.command()
def play(
    variant: Annotated[str, typer.Option(help="classic, flip or flex.")] = "classic",
    players: Annotated[int, typer.Option(help="Number of seats (people and bots).")] = 4,
    name: Annotated[
        list[str] | None,
        typer.Option("--name", help="Your name (repeat it for each person with --hotseat)."),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot level for every bot seat (easy, normal, hard, heuristic, random...), "
            "or one per bot seat, comma-separated."
        ),
    ] = "normal",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match (random if omitted).")] = None,
    hotseat: Annotated[
        int, typer.Option(help="Number of people sharing this terminal (seats P0, P1, ...).")
    ] = 1,
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text: for screen readers, pipes, no colour.")
    ] = False,
    save: Annotated[
        Path | None, typer.Option(help="Write the match record to this file as it goes.")
    ] = None,
    think_ms: Annotated[
        int | None, typer.Option("--think-ms", help="Thinking budget of search bots (ms).")
    ] = None,
    sims: Annotated[
        int | None,
        typer.Option("--sims", help="Search budget by count: rollouts per decision "
                     "(reproducible whatever the load; overrides --think-ms)."),
    ] = None,
    delay: Annotated[
        float, typer.Option(help="Seconds between bot moves in the Textual game.")
    ] = 0.8,
) -> None:
    """Play a match against the bots, in a Textual app or as plain text."""
    from unokit.tui.session import Session

    if variant not in _VARIANTS:
        raise typer.BadParameter(
            f"{variant!r} is not one of {', '.join(_VARIANTS)}", param_hint="--variant"
        )
    if delay < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--delay")
    if save is not None and save.exists() and save.is_dir():
        raise typer.BadParameter(f"{save} is a directory", param_hint="--save")
    if sims is not None and sims < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--sims")
    bot_options: dict[str, int] = {} if think_ms is None else {"think_ms": think_ms}
    if sims is not None:
        bot_options = {"sims": sims}
    try:
        session = Session(
            variant,
            players,
            humans=hotseat,
            names=name or (),
            bots=bots,
            options=parse_options(option),
            seed=seed,
            bot_options=bot_options,
            save=save,
        )
    except (UnoError, OSError) as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    if plain:
        from unokit.tui.plain import run_plain

        code = run_plain(session, sys.stdin, sys.stdout, clear=sys.stdout.isatty() and hotseat > 1)
    else:
        from unokit.tui.app import UnoApp

        UnoApp(session, delay=delay).run()
        code = 0
    if save is not None:
        print(f"Record saved to {save}")
    raise typer.Exit(code)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (unokit-record format).")],
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text: step with Enter, b, go N, quit.")
    ] = False,
    at: Annotated[int, typer.Option(help="Start at this step (0 = the deal).")] = 0,
) -> None:
    """Step through a game record: forward, back, jump to a step; every hand is shown."""
    from unokit.record import load
    from unokit.tui.replay import Replay

    try:
        rec = load(record)
        rp = Replay(rec)
    except (UnoError, OSError) as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    if not 0 <= at <= rp.last:
        raise typer.BadParameter(f"the record has steps 0-{rp.last}", param_hint="--at")
    if plain:
        from unokit.tui.replay import run_plain_replay

        raise typer.Exit(run_plain_replay(rp, sys.stdin, sys.stdout, start=at))
    from unokit.tui.replay import ReplayApp

    ReplayApp(rp, start=at).run()
