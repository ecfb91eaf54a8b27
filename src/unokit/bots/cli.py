"""``unokit tournament``: bots play seat-rotated rounds in parallel (see
:mod:`unokit.bots.tournament` for the method)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from unokit.cli import app, console, err_console, parse_options, with_progress
from unokit.errors import UnoError


@app.command()
def tournament(
    variant: Annotated[str, typer.Option(help="classic, flip or flex.")] = "classic",
    players: Annotated[int, typer.Option(help="Seats per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Bots, comma-separated (at least one); options per bot as "
            "name:key=value, e.g. hard:think_ms=50,hard:think_ms=400."
        ),
    ] = "hard,heuristic",
    games: Annotated[int, typer.Option(help="Games (rounds; matches with --match).")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the tournament (deals and bots).")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="Parallel processes (default: one per CPU).")
    ] = None,
    think_ms: Annotated[
        int | None, typer.Option("--think-ms", help="Thinking budget of search bots (ms).")
    ] = None,
    sims: Annotated[
        int | None,
        typer.Option("--sims", help="Search budget by count: rollouts per decision "
                     "(reproducible whatever the load; overrides --think-ms)."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
    ] = None,
    match: Annotated[bool, typer.Option("--match", help="Games are whole matches.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None, typer.Option(help="Write a PNG chart of the results to this file.")
    ] = None,
) -> None:
    """Bots play seat-rotated games; win rate (95% CI), mean points and Elo per bot."""
    from unokit.bots.tournament import parse_bots, run_tournament

    if games < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--games")
    if workers is not None and workers < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--workers")
    if think_ms is not None and think_ms < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--think-ms")
    if sims is not None and sims < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--sims")
    if plot is not None and plot.suffix.lower() != ".png":
        raise typer.BadParameter("the chart is a PNG file: name it *.png", param_hint="--plot")
    try:
        specs = parse_bots(bots, think_ms, sims)
        opts = parse_options(option)
        result = with_progress(
            games,
            as_json,
            lambda progress: run_tournament(
                variant, players, specs, games, seed, workers, opts, match, progress=progress
            ),
        )
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    if plot is not None:
        from unokit.bots.plot import plot_tournament

        try:
            plot_tournament(result, plot)
        except OSError as e:
            err_console.print(f"[red]error:[/red] cannot write {plot}: {e}")
            raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(result.to_dict()))
        return
    unit = "matches" if match else "rounds"
    console.print(
        f"{result.variant}, {players} players, {games} {unit}, seed {seed}: "
        f"{result.seconds:.1f} s"
    )
    table = Table("bot", "games", "win rate", "95% CI", "mean points", "Elo", "ms/decision")
    ranked = sorted(result.bots.values(), key=lambda b: -b.elo)
    for b in ranked:
        lo, hi = b.ci95
        table.add_row(
            b.label, str(b.games), f"{b.win_rate:.1%}", f"{lo:.1%} - {hi:.1%}",
            f"{b.mean_points:.1f}", f"{b.elo:.0f}", f"{b.ms_per_decision:.1f}",
        )
    console.print(table)
    if len(ranked) > 2 or players > 2:
        h2h = result.head_to_head()
        grid = Table("head to head", *[b.label for b in ranked])
        for a in ranked:
            grid.add_row(a.label, *[
                "" if b.label not in h2h[a.label] else f"{h2h[a.label][b.label]:.1%}"
                for b in ranked
            ])
        console.print(grid)
    if plot is not None:
        console.print(f"chart written to {plot}")


@app.command()
def analyse(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD", help="A match record file.")],
    seat: Annotated[int, typer.Option(help="The seat whose decisions are analysed (0-based).")],
    samples: Annotated[
        int, typer.Option(help="Games sampled from the seat's view per decision.")
    ] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the sampling.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Winning chances of one seat before and after each of its moves (from its
    own view only), with the moves that lost the most and the better move."""
    from unokit import record as records
    from unokit.bots.analysis import analyse as run

    if samples < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--samples")
    try:
        rec = records.load(record_file)
        rows = run(rec, seat, samples, seed)
    except OSError as e:
        err_console.print(f"[red]error:[/red] cannot read {record_file}: {e.strerror or e}")
        raise typer.Exit(2) from None
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
    worst = sorted((r for r in rows if r.label), key=lambda r: -r.loss)
    if as_json:
        print(json.dumps({"seat": seat, "decisions": [r.to_dict() for r in rows],
                          "worst": [r.command for r in worst]}))
        return
    table = Table("#", "round", "played", "before", "after", "loss", "", "better move")
    for r in rows:
        table.add_row(
            str(r.command), str(r.round), r.played, f"{r.before:.0%}", f"{r.after:.0%}",
            f"-{r.loss:.0%}" if r.loss >= 0.005 else "0", r.label, r.best if r.label else "",
        )
    console.print(table)
    if worst:
        console.print("[bold]Moves that lost the most:[/bold]")
        for r in worst[:5]:
            console.print(f"  #{r.command} {r.played}: {r.label}, -{r.loss:.0%} "
                          f"(better: {r.best}, {r.before:.0%} instead of {r.after:.0%})")
    else:
        console.print(f"No move of P{seat} lost 5 points or more.")
