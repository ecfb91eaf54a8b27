"""``unokit tournament``: bots play seat-rotated rounds in parallel (see
:mod:`unokit.bots.tournament` for the method)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from unokit.cli import (
    ThinkMs,
    Variant,
    app,
    check_output,
    console,
    err_console,
    fail,
    needs,
    parse_options,
    with_progress,
    write_atomic,
)
from unokit.engine.errors import UnoError

if TYPE_CHECKING:
    from unokit.bots.tournament import BotSpec


@app.command()
def tournament(
    variant: Annotated[
        Variant, typer.Option(help="The variant.", case_sensitive=False)
    ] = Variant.classic,
    players: Annotated[int, typer.Option(help="Seats per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Bots, comma-separated (at least one); options per bot as "
            "name:key=value, e.g. hard:think_ms=50,hard:think_ms=400."
        ),
    ] = "hard,heuristic",
    engine: Annotated[
        list[str] | None,
        typer.Option(
            "--engine",
            help="An engine program to enter (docs/engine-protocol.md), e.g. "
            "--engine ./my-engine; repeat for several. It joins the --bots.",
        ),
    ] = None,
    engine_timeout_ms: Annotated[
        int, typer.Option("--engine-timeout-ms", help="Time per move of engines (ms).")
    ] = 5000,
    games: Annotated[int, typer.Option(help="Games (rounds; matches with --match).", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the tournament (deals and bots).")] = 0,
    workers: Annotated[
        int | None, typer.Option(help="Parallel processes (default: one per CPU).", min=1)
    ] = None,
    think_ms: ThinkMs = None,
    sims: Annotated[
        int | None,
        typer.Option(
            "--sims",
            min=1,
            help="Search budget by count: rollouts per decision "
            "(reproducible whatever the load; overrides --think-ms).",
        ),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
    ] = None,
    match: Annotated[bool, typer.Option("--match", help="Games are whole matches.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None, typer.Option(help="Write a PNG chart of the results to this file.")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            metavar="[ADDRESS]",
            help="Run the games on Ray: alone, a local Ray instance (--workers CPUs); with "
            "an address (auto, HOST:6379, ray://HOST:10001), that cluster. Needs unokit[ray].",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Write every game's record to this file (JSON Lines, *.jsonl)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --plot and --save files.")
    ] = False,
) -> None:
    """Bots play seat-rotated games; win rate (95% CI), mean points and Elo per bot."""
    import os

    from unokit.bots.tournament import engine_specs, parse_bots, run_tournament

    # every argument is checked before the first game
    if engine_timeout_ms < 1:
        fail("--engine-timeout-ms must be at least 1")
    if plot is not None:
        check_output(plot, "--plot", force, suffix=".png")
        needs("matplotlib")
    if save is not None:
        check_output(save, "--save", force, suffix=".jsonl")
    records: list[str] | None = [] if save is not None else None
    try:
        specs = parse_bots(bots, think_ms, sims)
        specs += engine_specs(engine or [], engine_timeout_ms, specs)
        opts = parse_options(option)
        w = workers or os.cpu_count() or 1
        estimate = estimate_seconds(specs, players, games, w, match)
        if estimate >= 30 and not as_json:
            err_console.print(
                f"{games} {'matches' if match else 'rounds'} on {w} processes: search bots "
                f"think a fixed time per decision, so expect about {_duration(estimate)} "
                "(fewer --games or a smaller --think-ms is quicker; Ctrl-C stops).",
                markup=False,
            )
        result = with_progress(
            games,
            as_json,
            lambda progress: run_tournament(
                variant.value, players, specs, games, seed, workers, opts, match,
                progress=progress, records=records, ray=ray,
            ),
        )  # fmt: skip
    except UnoError as e:
        fail(str(e))
    if save is not None and records is not None:
        write_atomic(save, "".join(r + "\n" for r in records))
    if plot is not None:
        from unokit.bots.plot import plot_tournament

        _plot_atomic(result, plot, plot_tournament)
    if as_json:
        print(json.dumps(result.to_dict()))
        return
    from rich.markup import escape

    for f in result.forfeits():
        err_console.print(escape(f"game {f['game']}: {f['bot']} lost by forfeit: {f['reason']}"),
                          soft_wrap=True)  # fmt: skip
    unit = "matches" if match else "rounds"
    console.print(
        f"{result.variant}, {players} players, {games} {unit}, seed {seed}: {result.seconds:.1f} s"
    )
    ranked = sorted(result.bots.values(), key=lambda b: -b.elo)
    failed = any(b.forfeits for b in ranked)  # engines that crashed, timed out or cheated
    table = Table(
        "bot",
        "games",
        "wins (95% CI)",
        "points",
        "Elo (95% CI)",
        "ms/move",
        *(["forfeits"] if failed else []),
    )
    for b in ranked:
        lo, hi = b.ci95
        elo_lo, elo_hi = b.elo_ci95
        table.add_row(
            b.label,
            str(b.games),
            f"{b.win_rate:.1%} ({100 * lo:.0f}-{100 * hi:.0f})",
            f"{b.mean_points:.1f}",
            f"{b.elo:.0f} ({elo_lo:.0f}-{elo_hi:.0f})",
            f"{b.ms_per_decision:.1f}",
            *([str(b.forfeits)] if failed else []),
        )
    console.print(table)
    if len(ranked) > 2 or players > 2:
        h2h = result.head_to_head()
        grid = Table("head to head", *[b.label for b in ranked])
        for a in ranked:
            grid.add_row(
                a.label,
                *[
                    "" if b.label not in h2h[a.label] else f"{h2h[a.label][b.label]:.1%}"
                    for b in ranked
                ],
            )
        console.print(grid)
    if plot is not None:
        console.print(f"chart written to {plot}")
    if save is not None:
        console.print(f"{games} records written to {save}")


def _plot_atomic(result: object, path: Path, draw: object) -> None:
    """Draw the chart into a temporary PNG beside ``path``, then rename it."""
    import os
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".png", dir=folder)
    os.close(fd)
    try:
        draw(result, tmp)  # type: ignore[operator]
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        fail(f"cannot write {path}: {e}")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# decisions one seat makes in a round, on average (sim of heuristic bots:
# about 30 turns a round between two players, 45 between four)
_DECISIONS_PER_SEAT = 15
_ROUNDS_PER_MATCH = 6


def estimate_seconds(
    specs: list[BotSpec], players: int, games: int, workers: int, match: bool
) -> float:
    """A rough upper estimate of a tournament's duration: search bots think
    their full budget (``think_ms``) on every decision; other bots are free."""
    import inspect

    from unokit.bots import REGISTRY

    budgets = []
    for s in specs:
        opts = dict(s.options)
        ms = opts.get("think_ms")
        if ms is None:
            try:
                param = inspect.signature(REGISTRY[s.name]).parameters.get("think_ms")
            except (TypeError, ValueError, KeyError):
                param = None
            if param is not None and isinstance(param.default, int | float):
                ms = param.default
        budgets.append(float(ms or 0.0) / 1000.0)
    per_seat = sum(budgets) / len(budgets) if budgets else 0.0
    rounds = games * (_ROUNDS_PER_MATCH if match else 1)
    return rounds * players * per_seat * _DECISIONS_PER_SEAT / max(1, workers)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"


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
    """Winning chances of one seat before and after each of its moves, from its own view.

    The moves that lost the most are listed with the better move."""
    from unokit.bots.analysis import analyse as run
    from unokit.records import record as records

    if samples < 1:
        fail("--samples must be at least 1")
    try:
        rec = records.load(record_file)
        rows = run(rec, seat, samples, seed)
    except OSError as e:
        fail(f"cannot read {record_file}: {e.strerror or e}")
    except UnoError as e:
        fail(str(e))
    worst = sorted((r for r in rows if r.label), key=lambda r: -r.loss)
    if as_json:
        print(
            json.dumps(
                {
                    "seat": seat,
                    "decisions": [r.to_dict() for r in rows],
                    "worst": [r.command for r in worst],
                }
            )
        )
        return
    table = Table("#", "round", "played", "before", "after", "loss", "", "better move")
    for r in rows:
        table.add_row(
            str(r.command),
            str(r.round),
            r.played,
            f"{r.before:.0%}",
            f"{r.after:.0%}",
            f"-{r.loss:.0%}" if r.loss >= 0.005 else "0",
            r.label,
            r.best if r.label else "",
        )
    console.print(table)
    if worst:
        console.print("[bold]Moves that lost the most:[/bold]")
        for r in worst[:5]:
            console.print(
                f"  #{r.command} {r.played}: {r.label}, -{r.loss:.0%} "
                f"(better: {r.best}, {r.before:.0%} instead of {r.after:.0%})"
            )
    else:
        console.print(f"No move of P{seat} lost 5 points or more.")
