"""The ``unokit play`` and ``unokit replay`` commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from unokit.cli import ThinkMs, Variant, app, check_output, fail, needs, parse_options
from unokit.engine.errors import UnoError


@app.command()
def play(
    variant: Annotated[
        Variant, typer.Option(help="The variant.", case_sensitive=False)
    ] = Variant.classic,
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
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help="A preset of house rules: Official, Party, Crazy, Merciless "
            "(docs/rules.md §6.17); --rules and --option change it further.",
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="House rules as key=value,key=value (e.g. deflect=both,teams=pairs); "
            "a true/false rule may be named alone (jumpIn).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match (random if omitted).")] = None,
    hotseat: Annotated[
        int,
        typer.Option(help="Number of people sharing this terminal (seats P0, P1, ...).", min=1),
    ] = 1,
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text: for screen readers, pipes, no colour.")
    ] = False,
    save: Annotated[
        Path | None, typer.Option(help="Write the match record to this file as it goes.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --save if it exists.")] = False,
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
    delay: Annotated[
        float, typer.Option(help="Seconds between bot moves in the Textual game.", min=0)
    ] = 0.8,
    engine: Annotated[
        str | None,
        typer.Option(help="An engine program for the first bot seat (docs/engine-protocol.md)."),
    ] = None,
) -> None:
    """Play a match against the bots, in a Textual app or as plain text."""
    from unokit.tui.session import Session

    if not plain:
        needs("textual")
    if save is not None:
        check_output(save, "--save", force)
    options = rule_options(preset, rules, option)
    bot_options: dict[str, int] = {} if think_ms is None else {"think_ms": think_ms}
    if sims is not None:
        bot_options = {"sims": sims}
    try:
        session = Session(
            variant.value,
            players,
            humans=hotseat,
            names=name or (),
            bots=bots,
            options=options,
            seed=seed,
            bot_options=bot_options,
            save=save,
        )
        if engine is not None:  # the engine takes the first bot seat (normal plays on if it fails)
            from unokit.agents.engine_protocol import seat_engine

            seat_engine(session, engine)
    except (UnoError, OSError) as e:
        fail(str(e))
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
    record: Annotated[Path, typer.Argument(help="A game record (docs/record-format.md).")],
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text: step with Enter, b, go N, quit.")
    ] = False,
    at: Annotated[int, typer.Option(help="Start at this step (0 = the deal).")] = 0,
    game: Annotated[
        int, typer.Option(help="In a JSON Lines file (*.jsonl): the record on this line.", min=1)
    ] = 1,
) -> None:
    """Step through a game record: forward, back, jump to a step; every hand is shown."""
    from unokit.records.record import load, load_all
    from unokit.tui.replay_plain import Replay

    if not plain:
        needs("textual")
    try:
        if record.suffix == ".jsonl":
            found = dict(load_all(record))
            if game not in found:
                fail(f"--game {game}: {record} has records on lines {_lines(sorted(found))}")
            chosen = found[game]
            if isinstance(chosen, Exception):
                raise chosen
            rec = chosen
        else:
            rec = load(record)
        rp = Replay(rec)
    except (UnoError, OSError) as e:
        fail(str(e))
    if not 0 <= at <= rp.last:
        fail(f"--at {at}: the record has steps 0-{rp.last}")
    if plain:
        from unokit.tui.replay_plain import run_plain_replay

        raise typer.Exit(run_plain_replay(rp, sys.stdin, sys.stdout, start=at))
    from unokit.tui.replay import ReplayApp

    ReplayApp(rp, start=at).run()


def rule_options(
    preset: str | None, rules: str | None, option: list[str] | None
) -> dict[str, object]:
    """The options of ``--preset``, then ``--rules``, then ``--option`` on top,
    checked at once: any bad part ends in one ``error:`` line, before playing."""
    from unokit.engine.options import Options, preset_options

    out: dict[str, object] = {}
    if preset is not None:
        try:
            out.update(preset_options(preset))
            Options.from_dict(out)
        except UnoError as e:
            fail(f"--preset {preset}: {e}")
    if rules is not None:
        items = [x.strip() for x in rules.split(",") if x.strip()]
        if not items:
            fail("--rules: no rule given (expected key=value,key=value)")
        for item in items:
            key, sep, value = item.partition("=")
            if not key.strip() or (sep and not value.strip()):
                fail(f"--rules: expected key=value, got {item!r}")
            out[key.strip()] = value.strip() if sep else "true"
        try:
            Options.from_dict(out)
        except UnoError as e:
            fail(f"--rules: {e}")
    out.update(parse_options(option))
    return out


def _lines(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    return (
        f"{numbers[0]}-{numbers[-1]}"
        if numbers == list(range(numbers[0], numbers[-1] + 1))
        else ", ".join(map(str, numbers))
    )
