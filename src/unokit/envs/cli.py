"""``unokit envs``: print the action table and the observation layout of an environment."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer
from rich.table import Table

from unokit.cli import Variant as VariantName
from unokit.cli import app, console, err_console, needs, parse_options
from unokit.engine.errors import UnoError

envs_app = typer.Typer(
    help="Reinforcement-learning environments: action tables and observation layouts.",
    no_args_is_help=True,
)
app.add_typer(envs_app, name="envs")

Variant = Annotated[VariantName, typer.Argument(help="The variant.", case_sensitive=False)]
Players = Annotated[int, typer.Option(help="Seats.")]
OptionList = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Rule option key=value.")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]

T = TypeVar("T")


def _or_exit(build: Callable[[], T]) -> T:
    """``build()``; bad arguments (a rule error) print it and exit with status 2."""
    try:
        return build()
    except UnoError as e:
        err_console.print(f"error: {e}")
        raise typer.Exit(2) from None


@envs_app.command("table")
def table_command(
    variant: Variant = VariantName.classic,
    players: Players = 2,
    option: OptionList = None,
    as_json: AsJson = False,
) -> None:
    """The integer action table: index and meaning of every action."""
    needs("numpy")
    from unokit.envs.actions import action_table

    t = _or_exit(lambda: action_table(variant.value, players, parse_options(option)))
    if as_json:
        print(
            json.dumps(
                {
                    "variant": t.variant.name,
                    "players": players,
                    "size": t.size,
                    "actions": list(t.names),
                }
            )
        )
        return
    out = Table(title=f"{t.variant.name}, {players} players: {t.size} actions")
    out.add_column("index", justify="right")
    out.add_column("action")
    for i, name in enumerate(t.names):
        out.add_row(str(i), name)
    console.print(out)


@envs_app.command("layout")
def layout_command(
    variant: Variant = VariantName.classic,
    players: Players = 2,
    option: OptionList = None,
    as_json: AsJson = False,
    obs_layout: Annotated[
        int,
        typer.Option(
            "--obs-layout",
            help="1: the raw vector; 2: 0..1, features; 3: 2 + per-action features; "
            "4: 2 without the card-by-card top and discard pile; "
            "5: the default, 4 and the colour held most.",
        ),
    ] = 5,
) -> None:
    """The observation vector: segments, offsets and lengths."""
    needs("numpy")
    from unokit.envs.actions import action_table
    from unokit.envs.observation import ObservationEncoder, make_layout

    opts = parse_options(option)
    enc = _or_exit(lambda: ObservationEncoder(variant.value, players, opts))
    lay = _or_exit(lambda: make_layout(enc, action_table(variant.value, players, opts), obs_layout))
    rows = enc.describe() if lay is None else lay.describe()
    size = enc.size if lay is None else lay.size
    if as_json:
        print(
            json.dumps(
                {
                    "variant": enc.variant.name,
                    "players": players,
                    "obs_layout": obs_layout,
                    "size": size,
                    "segments": [{"name": n, "offset": o, "length": k} for n, o, k in rows],
                }
            )
        )
        return
    out = Table(title=f"{enc.variant.name}, {players} players, layout {obs_layout}: {size} values")
    for col in ("segment", "offset", "length"):
        out.add_column(col, justify="left" if col == "segment" else "right")
    for name, off, length in rows:
        out.add_row(name, str(off), str(length))
    console.print(out)
