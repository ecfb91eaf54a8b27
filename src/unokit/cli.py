"""The ``unokit`` command line (Typer). Each sub-command lives in one function;
other modules add theirs with :func:`register_commands` hooks at the bottom.

One error style everywhere: a user error prints one line ``error: ...`` on
standard error and exits with status 2 (no traceback). Commands call
:func:`fail`, :func:`needs` (an optional extra that is not installed) and
:func:`check_output` (a file to write, checked before any work starts); the
entry point :func:`main` turns the remaining user errors (bad arguments, a
rule error, a missing extra) into that line too.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from unokit.atomic import write_atomic
from unokit.engine.errors import UnoError

__all__ = ["app", "main", "fail", "needs", "check_output", "write_atomic", "Variant"]

app = typer.Typer(
    name="unokit",
    help="Classic UNO, UNO Flip and UNO Flex: rules engine, simulations and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 200},
)
console = Console()
err_console = Console(stderr=True, soft_wrap=True, highlight=False)


class Variant(StrEnum):
    """The variants, for options that name one (help shows the choices)."""

    classic = "classic"
    flip = "flip"
    flex = "flex"


# Which extra installs a module a command may import (the error names it).
EXTRAS: dict[str, str] = {
    "textual": "tui",
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "matplotlib": "rl",
    "fastapi": "web",
    "uvicorn": "web",
    "pydantic": "web",
    "sqlalchemy": "web",
    "psycopg": "web",
    "starlette": "web",
}


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` (one line, standard error) and exit with ``code``."""
    err_console.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def missing_extra(module: str) -> str:
    """The one-line message for a module of an optional extra that is not installed."""
    top = module.split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return f"the Python package {top!r} is not installed"
    return f"this command needs the {extra} extra ({top} is not installed): pip install 'unokit[{extra}]'"


def needs(*modules: str) -> None:
    """Exit with the install line unless every module can be imported."""
    import importlib.util

    for m in modules:
        try:
            found = importlib.util.find_spec(m) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            fail(missing_extra(m))


def check_output(path: Path, option: str, force: bool = False, suffix: str | None = None) -> None:
    """Refuse, before any work starts, an output file that cannot be written:
    a directory, a missing or read-only folder, an existing file without
    ``--force``, a wrong suffix."""
    if suffix is not None and path.suffix.lower() != suffix:
        fail(f"{option} {path}: the file must end in {suffix}")
    if path.is_dir():
        fail(f"{option} {path} is a directory")
    if path.exists() and not force:
        fail(f"{option} {path} exists: pass --force to overwrite it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: the folder {folder} is not writable")


def _version(value: bool) -> None:
    if value:
        from unokit import __version__

        print(f"unokit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Classic UNO, UNO Flip and UNO Flex: rules engine, simulations and games."""


def _hide_flag_types() -> None:
    """Help shows no ``<bool>`` after a flag (it takes no value)."""
    try:
        from typer.core import TyperOption
    except ImportError:  # pragma: no cover - another Typer
        return
    shown = TyperOption.display_type_rich

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_hide_flag_types()

ThinkMs = Annotated[
    int | None,
    typer.Option("--think-ms", min=1, help="Thinking budget of search bots (ms, at least 1)."),
]


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
    core: Annotated[
        bool,
        typer.Option(
            "--core",
            help="Also replay every scenario on the C core: same acceptance and state as Game "
            "after every step (docs/core.md).",
        ),
    ] = False,
) -> None:
    """Run rules scenario files (docs/scenario-format.md); exit 0 only if all pass."""
    from unokit.testing.conformance import run_paths

    for p in paths:
        if not p.exists():
            fail(f"{p} does not exist")
        if p.is_dir() and not any(p.rglob("*.json")):
            fail(f"{p} holds no scenario files (*.json)")
    results = run_paths(paths, core=core)
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
    variant: Annotated[
        Variant, typer.Option(help="The variant.", case_sensitive=False)
    ] = Variant.classic,
    players: Annotated[int, typer.Option(help="Number of seats.")] = 2,
    games: Annotated[
        int, typer.Option(help="Rounds to play (matches with --match).", min=1)
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 0,
    bots: Annotated[
        str, typer.Option(help="Bot per seat, comma-separated, or one bot for all seats.")
    ] = "random",
    match: Annotated[bool, typer.Option("--match", help="Play whole matches.")] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
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
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    workers: Annotated[
        int, typer.Option(help="Parallel processes (results do not change).", min=1)
    ] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            metavar="[ADDRESS]",
            help="Run the games on Ray: alone, a local Ray instance; with an address "
            "(auto, HOST:6379, ray://HOST:10001), that cluster. Needs unokit[ray].",
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Write every game's record to this file (JSON Lines, *.jsonl)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --save if it exists.")] = False,
) -> None:
    """Bots play rounds or matches; prints speed, turns and results by seat."""
    from unokit.bots.sim import simulate

    if save is not None:
        check_output(save, "--save", force, suffix=".jsonl")
    names = [b.strip() for b in bots.split(",") if b.strip()]
    bot_options: dict[str, int] = {} if think_ms is None else {"think_ms": think_ms}
    if sims is not None:
        bot_options = {"sims": sims}
    records: list[str] | None = [] if save is not None else None
    try:
        opts = parse_options(option)
        result = with_progress(
            games,
            as_json,
            lambda progress: simulate(
                variant.value, players, games, seed, names, match, opts,
                progress=progress, bot_options=bot_options, records=records,
                workers=workers, ray=ray,
            ),
        )  # fmt: skip
    except UnoError as e:
        fail(str(e))
    if save is not None and records is not None:
        write_atomic(save, "".join(r + "\n" for r in records))
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
    if save is not None:
        console.print(f"{games} records written to {save}")


# Adapters add their commands from their own modules (``@app.command()`` on
# import); heavy optional dependencies are imported inside the commands.
_COMMAND_MODULES = (
    "unokit.web.cli",
    "unokit.tui.cli",
    "unokit.bots.cli",
    "unokit.envs.cli",
    "unokit.records.cli",
    "unokit.agents.cli",
    "unokit.agents.arena_cli",
    "unokit.train.cli",
    "unokit.bench",
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


class PlainHelpCommand(typer.core.TyperCommand):
    """A command whose ``--help`` is Click's plain text: at 80 columns Rich's
    option table squeezed the help into a narrow column beside long option
    names and types (``serve --help``), and Rich markup ate bracketed words
    such as ``unokit[ray]`` (issue 30 item 17). The command lists of
    ``unokit --help`` and the groups stay Rich's (they wrap at the edge)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["rich_markup_mode"] = None
        super().__init__(*args, **kwargs)


def _plain_command_help(t: typer.Typer) -> None:
    for info in t.registered_commands:
        if info.cls in (None, typer.core.TyperCommand):
            info.cls = PlainHelpCommand
    for group in t.registered_groups:
        if group.typer_instance is not None:
            _plain_command_help(group.typer_instance)


_plain_command_help(app)


# Options whose value may be left out: ``--ray`` alone means a local Ray
# instance, ``--ray ADDRESS`` a cluster (click has no optional values).
_OPTIONAL_VALUES = {"--ray": "local"}


def _fill_optional_values(argv: list[str]) -> list[str]:
    """``[..., "--ray", "--games", "9"]`` -> ``[..., "--ray", "local", "--games", "9"]``.

    >>> _fill_optional_values(["sim", "--ray"])
    ['sim', '--ray', 'local']
    >>> _fill_optional_values(["sim", "--ray", "auto", "--ray", "-o", "x=1"])
    ['sim', '--ray', 'auto', '--ray', 'local', '-o', 'x=1']
    """
    out: list[str] = []
    for i, arg in enumerate(argv):
        out.append(arg)
        if arg in _OPTIONAL_VALUES and (i + 1 == len(argv) or argv[i + 1].startswith("-")):
            out.append(_OPTIONAL_VALUES[arg])
    return out


def _click_exceptions() -> Any:
    """The Click exceptions Typer raises (Typer 0.29 vendors Click as ``typer._click``)."""
    try:
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - a Typer that uses Click itself
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def main(argv: list[str] | None = None) -> None:
    """The ``unokit`` entry point: user errors end in one ``error:`` line, status 2."""
    exc = _click_exceptions()
    code: Any
    try:
        args = _fill_optional_values(sys.argv[1:] if argv is None else argv)
        code = app(args=args, prog_name="unokit", standalone_mode=False)
    except exc.NoArgsIsHelpError as e:
        if e.ctx is not None:
            print(e.ctx.get_help())
        code = 0
    except exc.ClickException as e:
        hint = ""
        if isinstance(e, exc.UsageError) and e.ctx is not None:
            hint = f" (see: {e.ctx.command_path} --help)"
        message = e.format_message().replace("Value error, ", "")
        err_console.print(f"error: {message}{hint}", markup=False)
        code = 2
    except (getattr(exc, "Abort", KeyboardInterrupt), KeyboardInterrupt):
        # (Typer 0.29's vendored Click has no Abort: looking it up here used to
        # turn any other exit, e.g. a broken pipe under `| head`, into an AttributeError)
        err_console.print("error: interrupted", markup=False)
        code = 130
    except ModuleNotFoundError as e:
        if e.name is None or e.name.split(".")[0] not in EXTRAS:
            raise
        err_console.print(f"error: {missing_extra(e.name)}", markup=False)
        code = 2
    except UnoError as e:
        err_console.print(f"error: {e}", markup=False)
        code = 2
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    # Run as ``python -m unokit.cli`` this file is ``__main__``, a module other
    # than the ``unokit.cli`` the adapters register on: use that one.
    from unokit.cli import main as _main

    _main()
