"""Issue 30, the README's first hour: ``make serve`` installs what the README's
next commands need, and ``--help`` shows the extras' names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNOKIT = [sys.executable, "-c", "from unokit.cli import main; main()"]


def test_make_serve_installs_the_terminal_game_and_numpy() -> None:
    """``unokit play`` needs [tui], ``unokit analyse`` numpy (the expert's value net)."""
    make = (ROOT / "Makefile").read_text()
    rule = make.split("$(VENV)/.installed-web:", 1)[1].split("\n\n", 1)[0]
    install = next(line for line in rule.splitlines() if "pip install" in line)
    extras = re.search(r"\.\[([a-z,-]+)\]", install)
    assert extras is not None and {"web", "tui"} <= set(extras.group(1).split(","))
    assert "numpy" in install
    assert re.search(r"^serve: install-web$", make, re.M)


@pytest.mark.parametrize("command", ["sim", "tournament"])
def test_help_names_the_ray_extra(command: str) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    out = subprocess.run(
        [*UNOKIT, command, "--help"], capture_output=True, text=True, timeout=60, env=env
    ).stdout
    words = " ".join(line.strip("│ ") for line in out.splitlines())
    assert "Needs unokit[ray]." in " ".join(words.split())
