"""Issue 30 item 8: the README's terminal and analyse commands work in the
virtualenv ``make serve`` makes, with exactly what it installs.

The test reads the Makefile's ``install-web`` rule (``pip install -e
".[web,tui]" "numpy>=1.26"``), resolves those requirements against the
project's pyproject.toml and the packages installed here (their own
requirements, markers and extras), and builds a fresh virtualenv that holds
only that closure (links to the installed packages: nothing is downloaded)
and this checkout's ``src``. In it the README's commands run: ``unokit play
--plain`` with a record saved, ``unokit analyse RECORD --seat 0``, and the
Textual app of ``unokit play --variant flex --players 3 --bots hard`` (headless).
A package the commands import that ``make serve`` does not install is then
missing, and the test fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(600)


def _make_serve_requirements() -> list[Requirement]:
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^serve: install-web$", make, re.M)
    rule = make.split("$(VENV)/.installed-web:", 1)[1].split("\n\n", 1)[0]
    install = next(line for line in rule.splitlines() if "pip install" in line)
    m = re.search(r'-e "\.\[([a-z,-]+)\]"', install)
    assert m is not None, install
    extras = m.group(1).split(",")
    others = re.findall(r'"([A-Za-z0-9_.-]+[<>=!~][^"]*)"', install)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        reqs += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return reqs + [Requirement(r) for r in others]


def _closure(reqs: list[Requirement]) -> set[str]:
    """The installed distributions these requirements pull in (with extras)."""
    seen: set[str] = set()
    todo = [(r, frozenset(r.extras)) for r in reqs]
    done: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if (name, extras) in done:
            continue
        done.add((name, extras))
        dist = metadata.distribution(name)  # not installed here: the test cannot build it
        assert req.specifier.contains(dist.version, prereleases=True), (req, dist.version)
        seen.add(name)
        for text in dist.requires or []:
            sub = Requirement(text)
            envs = [{"extra": e} for e in extras] or [{"extra": ""}]
            if sub.marker is None or any(sub.marker.evaluate(env) for env in envs):
                todo.append((sub, frozenset(sub.extras)))
    return seen


def _venv_with(names: set[str], where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    py = where / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    here = Path(sysconfig.get_paths()["purelib"])
    for name in names:
        dist = metadata.distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops:
            src = Path(str(dist.locate_file(top)))
            if src.exists() and not (site / top).exists() and src.parent == here:
                (site / top).symlink_to(src)
    (site / "unokit-checkout.pth").write_text(str(ROOT / "src") + "\n")
    return py


TEXTUAL = """
import asyncio
from unokit.tui.app import UnoApp
from unokit.tui.session import Session

async def main():
    app = UnoApp(Session("flex", 3, seed=1, bots="hard"), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print("screen", type(app.screen).__name__)

asyncio.run(main())
"""


def test_the_readme_terminal_and_analyse_commands_run_in_the_make_serve_venv(
    tmp_path: Path,
) -> None:
    names = _closure(_make_serve_requirements())
    assert "fastapi" in names
    assert "torch" not in names and "gymnasium" not in names  # the [rl] extra is not in it
    py = _venv_with(names - {"unokit"}, tmp_path / "venv")
    unokit = [str(py), "-c", "from unokit.cli import main; main()"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    run = dict(capture_output=True, text=True, timeout=240, cwd=tmp_path, env=env)
    # nothing outside the venv: the project's rl packages are not importable
    probe = subprocess.run([str(py), "-c", "import gymnasium"], **run)  # type: ignore[call-overload]
    assert probe.returncode != 0
    # the README: `.venv/bin/unokit play --plain < commands.txt`, the record saved
    rec = tmp_path / "game.json"
    plain = subprocess.run(  # type: ignore[call-overload]
        [*unokit, "play", "--plain", "--variant", "flip", "--players", "4", "--save", str(rec)],
        input="draw\nquit\n",
        **run,
    )
    assert plain.returncode == 0, plain.stderr
    assert "Your hand" in plain.stdout and rec.exists()
    # `unokit analyse RECORD --seat N` (numpy: the expert's value network)
    analyse = subprocess.run([*unokit, "analyse", str(rec), "--seat", "0"], **run)  # type: ignore[call-overload]
    assert analyse.returncode == 0, analyse.stderr
    assert analyse.stdout.strip()
    # `.venv/bin/unokit play --variant flex --players 3 --bots hard`: the Textual app
    app = subprocess.run([str(py), "-c", TEXTUAL], **run)  # type: ignore[call-overload]
    assert app.returncode == 0, app.stderr
    assert "screen" in app.stdout
