"""``unokit record``: validate, convert and sample game records
(docs/record-format.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from unokit.cli import Variant, app, check_output, console, fail, write_atomic
from unokit.engine.errors import RecordError, UnoError

record_app = typer.Typer(
    help="Game records: validate them, convert a record to a seat's view, write a sample dataset.",
    no_args_is_help=True,
)
app.add_typer(record_app, name="record")


@record_app.command("validate")
def validate_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Record files: one record (*.json, or version 1), or *.jsonl."),
    ],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only problems.")] = False,
) -> None:
    """Check records against the schema and replay them through the engine
    (every command, every deal commitment, the result); exit 1 if any fails."""
    from unokit.records.record import Problem, loads, validate

    for f in files:
        if not f.is_file():
            fail(f"{f} is not a file")
    good = bad = 0
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            fail(f"cannot read {f}: {e}")
        chunks: list[tuple[int, str]]
        if f.suffix == ".jsonl":
            chunks = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
        else:
            chunks = [(1, text)]
        for first, chunk in chunks:
            label = f"{f}:{first}" if f.suffix == ".jsonl" else str(f)
            try:
                rec = loads(chunk)
                problems = validate(rec, chunk)
            except RecordError as e:
                problems = [Problem(str(e))]
            if f.suffix == ".jsonl":
                # one record per line: the file line is the record's line
                problems = [Problem(p.message, first, p.command) for p in problems]
            if problems:
                bad += 1
                for p in problems:
                    where = f"{f}:{p.line}" if p.line is not None else label
                    rest = str(Problem(p.message, None, p.command))
                    print(f"{where}: {rest}")
            else:
                good += 1
                if not quiet:
                    print(f"{label}: ok")
    print(f"{good} valid, {bad} invalid")
    if bad or not good:
        raise typer.Exit(1)


@record_app.command("convert")
def convert_command(
    source: Annotated[
        Path,
        typer.Argument(help="A full record (version 1 or 2), or a dataset: *.jsonl."),
    ],
    target: Annotated[
        Path, typer.Argument(help="The file to write (*.json; *.jsonl for a dataset).")
    ],
    seat: Annotated[
        int | None,
        typer.Option(
            help="Write this seat's view (hidden cards removed); default: the full record."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite TARGET if it exists.")] = False,
) -> None:
    """Convert a record: to the current version (full view), or to one seat's view.
    A *.jsonl dataset is converted record by record, one per line."""
    from unokit.records.record import Record, load, loads, record_for_seat

    def convert(rec: Record, where: str) -> Record:
        if seat is None:
            if rec.view is not None:
                fail(
                    f"{where} is seat P{rec.view}'s view: its hidden cards are unknown, "
                    "so it cannot become a full record"
                )
            rec.replay()  # a record that does not replay is not converted
            return rec
        return record_for_seat(rec, seat)

    check_output(target, "TARGET", force)
    if source.suffix == ".jsonl":
        if target.suffix != ".jsonl":
            fail(f"a dataset (*.jsonl) converts to a dataset: {target} should end in .jsonl")
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            fail(f"cannot read {source}: {e}")
        lines: list[str] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                lines.append(convert(loads(line), f"{source}:{n}").dumps_line())
            except UnoError as e:
                fail(f"{source}:{n}: {e} (nothing written)")
        if not lines:
            fail(f"{source} holds no record")
        write_atomic(target, "".join(line + "\n" for line in lines))
        view = "full records" if seat is None else f"views of seat P{seat}"
        console.print(f"{len(lines)} {view} written to {target}")
        return
    try:
        out = convert(load(source), str(source))
    except UnoError as e:
        fail(str(e))
    write_atomic(target, out.dumps())
    view = "full record" if out.view is None else f"view of seat P{out.view}"
    console.print(f"{view} written to {target}")


@record_app.command("sample")
def sample_command(
    out: Annotated[
        Path, typer.Argument(help="Folder to write one <variant>.jsonl file per variant.")
    ],
    games: Annotated[int, typer.Option(help="Matches per variant.", min=1)] = 1000,
    players: Annotated[int, typer.Option(help="Seats.", min=2)] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the first match; match i uses seed+i.")] = 0,
    variant: Annotated[
        list[Variant] | None, typer.Option(help="Only these variants (repeat; default: all).")
    ] = None,
    bots: Annotated[str, typer.Option(help="Bot per seat, or one for all.")] = "heuristic",
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
) -> None:
    """Write a sample dataset: GAMES bot matches per variant, one record per line."""
    from unokit.bots.sim import simulate

    chosen = variant or list(Variant)
    if out.exists() and not out.is_dir():
        fail(f"{out} is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    for v in chosen:
        check_output(out / f"{v.value}.jsonl", "OUT", force)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    for v in chosen:
        records: list[str] = []
        try:
            simulate(
                v.value, players, games, seed, names, True, None, records=records,
                event=f"unokit record sample, seed {seed}",
            )  # fmt: skip
        except UnoError as e:
            fail(str(e))
        path = out / f"{v.value}.jsonl"
        write_atomic(path, "".join(r + "\n" for r in records))
        console.print(f"{len(records)} {v.value} matches written to {path}")
