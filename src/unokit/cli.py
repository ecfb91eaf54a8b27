"""The ``unokit`` command line (Typer). Each sub-command lives in one function;
other modules add theirs with :func:`register_commands` hooks at the bottom."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from unokit.errors import UnoError

app = typer.Typer(
    name="unokit",
    help="Classic UNO, UNO Flip and UNO Flex: rules engine, simulations and games.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console()
err_console = Console(stderr=True)


def parse_options(values: list[str] | None) -> dict[str, Any]:
    """``key=value`` strings to an options dict (values are typed by Options)."""
    out: dict[str, Any] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected key=value, got {item!r}", param_hint="--option")
        out[key.strip()] = value.strip()
    return out


T = TypeVar("T")


def with_progress(total: int, quiet: bool, run: Callable[[Callable[[int], None] | None], T]) -> T:
    """``run(progress)`` under a Rich progress bar of ``total`` games on a
    terminal (``progress(k)``: k done); ``run(None)`` when ``quiet`` (JSON
    output) or when the output is not a terminal."""
    if quiet or not sys.stdout.isatty():
        return run(None)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("playing", total=total)
        return run(lambda k: bar.update(task, completed=k))


@app.command()
def conformance(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Scenario files, or directories (every *.json below them)."),
    ],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only failures.")] = False,
) -> None:
    """Run rules scenario files (SCENARIO_FORMAT.md); exit 0 only if all pass."""
    from unokit.conformance import run_paths

    results = run_paths(paths)
    for r in results:
        if not quiet or not r.passed:
            print(r.line())
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    if failed or not results:
        raise typer.Exit(1)


@app.command()
def sim(
    variant: Annotated[str, typer.Option(help="classic, flip or flex.")] = "classic",
    players: Annotated[int, typer.Option(help="Number of seats.")] = 2,
    games: Annotated[int, typer.Option(help="Rounds to play (matches with --match).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 0,
    bots: Annotated[
        str, typer.Option(help="Bot per seat, comma-separated, or one bot for all seats.")
    ] = "random",
    match: Annotated[bool, typer.Option("--match", help="Play whole matches.")] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
    ] = None,
    think_ms: Annotated[
        int | None, typer.Option("--think-ms", help="Thinking budget of search bots (ms).")
    ] = None,
    sims: Annotated[
        int | None,
        typer.Option("--sims", help="Search budget by count: rollouts per decision "
                     "(reproducible whatever the load; overrides --think-ms)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Bots play rounds or matches; prints speed, turns and results by seat."""
    from unokit.sim import simulate

    if games < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--games")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if sims is not None and sims < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--sims")
    bot_options: dict[str, int] = {} if think_ms is None else {"think_ms": think_ms}
    if sims is not None:
        bot_options = {"sims": sims}
    try:
        opts = parse_options(option)
        result = with_progress(
            games,
            as_json,
            lambda progress: simulate(
                variant, players, games, seed, names, match, opts,
                progress=progress, bot_options=bot_options,
            ),
        )  # fmt: skip
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(result.to_dict()))
        return
    unit = "matches" if match else "rounds"
    console.print(
        f"{result.variant}, {players} players, {games} {unit}: {result.rounds} rounds in "
        f"{result.seconds:.2f} s = [bold]{result.rounds_per_second:,.0f} rounds/s[/bold], "
        f"{result.mean_turns:.1f} turns per round"
        + (f", {result.blocked} blocked" if result.blocked else "")
    )
    table = Table("seat", "bot", f"win rate ({unit})", "mean points / round")
    for s in range(players):
        table.add_row(
            f"P{s}", result.bots[s], f"{result.win_rate[s]:.1%}", f"{result.mean_points[s]:.1f}"
        )
    console.print(table)


# Adapters add their commands from their own modules (``@app.command()`` on
# import); heavy optional dependencies are imported inside the commands.
_COMMAND_MODULES = (
    "unokit.web.cli", "unokit.tui.cli", "unokit.bots.cli", "unokit.envs.cli", "unokit.train.cli"
)


def _load_command_modules() -> None:
    import importlib

    for name in _COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is None or not name.startswith(e.name):
                raise


_load_command_modules()


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    # Run as ``python -m unokit.cli`` this file is ``__main__``, a module other
    # than the ``unokit.cli`` the adapters register on: use that one.
    from unokit.cli import main as _main

    _main()
