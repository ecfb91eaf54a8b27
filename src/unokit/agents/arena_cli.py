"""``unokit arena``: language-model players (or the offline ``scripted``
stand-in) against our bots and each other, on duplicate deals, with the
tournament's Elo table (see :mod:`unokit.agents.arena` and docs/arena.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from unokit.cli import (
    Variant,
    app,
    check_output,
    console,
    err_console,
    fail,
    parse_options,
    with_progress,
    write_atomic,
)
from unokit.engine.errors import UnoError


@app.command("arena")
def arena_command(
    players: Annotated[
        str,
        typer.Option(
            help="Players, comma-separated: bots (heuristic, hard:think_ms=50...), scripted "
            "(offline stand-in; options illegal=, garbage=, timeout=, seed=) and "
            "openai:MODEL (url=, temperature=, max_tokens=; key in UNOKIT_ARENA_API_KEY)."
        ),
    ] = "scripted,heuristic",
    variant: Annotated[
        Variant, typer.Option(help="The variant.", case_sensitive=False)
    ] = Variant.classic,
    seats: Annotated[int, typer.Option(help="Seats per game.")] = 2,
    games: Annotated[int, typer.Option(help="Games (single rounds).", min=1)] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    retries: Annotated[
        int, typer.Option(help="Illegal answers sent back with the reason before a forfeit.", min=0)
    ] = 2,
    forfeit: Annotated[
        str,
        typer.Option(
            help="After the retries: loss (the game is lost) or fallback "
            "(DRAW if legal, else the first legal move, is played)."
        ),
    ] = "loss",
    votes: Annotated[
        int, typer.Option(help="Answers per attempt; the majority move is played.", min=1)
    ] = 1,
    move_timeout: Annotated[
        float, typer.Option("--move-timeout", help="Seconds per decision, retries included.")
    ] = 60.0,
    history: Annotated[
        int, typer.Option(help="Events of the round narrated in each prompt.", min=0)
    ] = 12,
    price_in: Annotated[
        float, typer.Option("--price-in", help="Cost per million prompt tokens.", min=0)
    ] = 0.0,
    price_out: Annotated[
        float, typer.Option("--price-out", help="Cost per million completion tokens.", min=0)
    ] = 0.0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
    ] = None,
    transcript: Annotated[
        Path | None,
        typer.Option(help="Write every model answer and how it was read (JSON Lines)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --transcript file.")
    ] = False,
) -> None:
    """Language models play UNO against our bots: prompts, retries, costs and an Elo table."""
    from unokit.agents.arena import ArenaPolicy, parse_players, run_arena

    if transcript is not None:
        check_output(transcript, "--transcript", force, suffix=".jsonl")
    log: list[dict[str, Any]] | None = [] if transcript is not None else None
    try:
        policy = ArenaPolicy(retries=retries, forfeit=forfeit, votes=votes,
                             move_timeout=move_timeout, history=history)  # fmt: skip
        specs = parse_players(players, policy, price_in=price_in, price_out=price_out,
                              transcript=log)  # fmt: skip
        opts = parse_options(option)
        out = with_progress(
            games,
            as_json,
            lambda progress: run_arena(variant.value, seats, specs, games, seed, opts, progress),
        )
    except UnoError as e:
        fail(str(e))
    if transcript is not None and log is not None:
        write_atomic(transcript, "".join(json.dumps(x) + "\n" for x in log))
    result = out.result
    if as_json:
        print(json.dumps(out.to_dict()))
        return
    for f in result.forfeits():
        err_console.print(escape(f"game {f['game']}: {f['bot']} lost by forfeit: {f['reason']}"),
                          soft_wrap=True)  # fmt: skip
    console.print(
        f"{result.variant}, {seats} players, {games} rounds, seed {seed}: {result.seconds:.1f} s"
    )
    ranked = sorted(result.bots.values(), key=lambda b: -b.elo)
    table = Table("player", "games", "wins (95% CI)", "points", "Elo (95% CI)", "forfeits")
    for b in ranked:
        lo, hi = b.ci95
        elo_lo, elo_hi = b.elo_ci95
        table.add_row(
            b.label, str(b.games), f"{b.win_rate:.1%} ({100 * lo:.0f}-{100 * hi:.0f})",
            f"{b.mean_points:.1f}", f"{b.elo:.0f} ({elo_lo:.0f}-{elo_hi:.0f})", str(b.forfeits),
        )  # fmt: skip
    console.print(table)
    if out.usage:
        costs = Table("model", "decisions", "requests", "tokens in", "tokens out", "illegal",
                      "timeouts", "forfeits", "cost")  # fmt: skip
        for label, u in out.usage.items():
            costs.add_row(label, str(u.decisions), str(u.requests), str(u.prompt_tokens),
                          str(u.completion_tokens), str(u.illegal), str(u.timeouts),
                          str(u.forfeits), f"{u.cost:.4f}")  # fmt: skip
        console.print(costs)
    if transcript is not None:
        console.print(f"transcript written to {transcript}")
