"""``unokit train``: the value network of the ``expert`` level (needs the
``train`` extra: PyTorch)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from unokit.cli import app, console, err_console
from unokit.engine.errors import UnoError


@app.command()
def train(
    variant: Annotated[str, typer.Option(help="classic, flip or flex.")] = "classic",
    config: Annotated[
        Path | None,
        typer.Option(
            help="Settings, TOML or JSON (see docs/bots.md); default settings if omitted."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of self-play and training.")] = 0,
    out: Annotated[
        Path, typer.Option(help="Output directory: weights (.npz), log.jsonl, curve.png.")
    ] = Path("artifacts/train"),
) -> None:
    """Train the value network of `expert` by self-play (PyTorch on the CPU)."""
    from unokit.train.trainer import load_config
    from unokit.train.trainer import train as run

    if out.exists() and not out.is_dir():
        raise typer.BadParameter(f"{out} is not a directory", param_hint="--out")
    try:
        cfg = load_config(config)
        run(variant, cfg, seed, out, say=console.print)
    except UnoError as e:
        err_console.print(f"[red]error:[/red] {e}")
        raise typer.Exit(2) from None
