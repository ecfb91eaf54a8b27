"""A newcomer's first hour: every ``unokit`` command, run as the installed
entry point in a fresh process, with good and bad arguments.

Every user error must end in exactly one line ``error: ...`` on standard error,
exit status 2, no traceback, and no work done (no file written). A command
whose optional extra is missing (the ``make serve`` environment has only
``[web]``) must name the ``pip install`` that fixes it. The missing extras are
simulated by a ``sitecustomize`` that makes their imports fail, so the test
needs no network and no second installation.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENTRY = Path(sys.executable).with_name("unokit")
UNOKIT = [str(ENTRY)] if ENTRY.exists() else [sys.executable, "-m", "unokit"]
SCENARIOS = ROOT / "tests" / "scenarios"

BLOCKER = """
import os, sys
_blocked = {m for m in os.environ.get("UNOKIT_TEST_BLOCK", "").split(",") if m}
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Block())
"""


def run(
    *args: str,
    cwd: Path | None = None,
    stdin: str = "",
    block: tuple[str, ...] = (),
    blocker: Path | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1")
    if block:
        assert blocker is not None
        env["PYTHONPATH"] = str(blocker)
        env["UNOKIT_TEST_BLOCK"] = ",".join(block)
    return subprocess.run(
        [*UNOKIT, *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env,
        timeout=timeout,
    )  # fmt: skip


def user_error(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Assert the one-line error style; return the line."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), lines[0]
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


@pytest.fixture(scope="module")
def blocker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(BLOCKER)
    return folder


def test_version_and_help() -> None:
    from unokit import __version__

    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"unokit {__version__}"
    top = run()
    assert top.returncode == 0 and "record" in top.stdout and "tournament" in top.stdout
    for command in (
        "sim",
        "tournament",
        "play",
        "replay",
        "conformance",
        "serve",
        "record validate",
        "record convert",
        "record sample",
        "envs table",
    ):
        done = run(*command.split(), "--help")
        assert done.returncode == 0, (command, done.stderr)
        assert "<bool>" not in done.stdout, command  # flags show no type
        if command in ("sim", "tournament", "play", "envs table"):
            assert "classic|flip|flex" in done.stdout, command  # the choices are shown
    # help uses the terminal's width instead of wrapping at 80 columns
    wide = run("tournament", "--help")
    assert max(len(line) for line in wide.stdout.splitlines()) > 100


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["sim", "--think-ms", "-5"], ["--think-ms"]),
        (["sim", "--variant", "uno"], ["'uno' is not one of", "classic"]),
        (["sim", "--games", "0"], ["--games"]),
        (["sim", "--players", "11"], ["2 to 10 players"]),
        (["sim", "-o", "stacking=sometimes"], ["stacking"]),
        (["sim", "--bots", "nosuch"], ["unknown bot"]),
        (["sim", "--nosuch"], ["No such option"]),
        (["play", "--plain", "--think-ms", "-5"], ["--think-ms"]),
        (["play", "--plain", "--variant", "uno"], ["is not one of"]),
        (["play", "--plain", "--hotseat", "9", "--players", "2"], ["cannot share"]),
        (["tournament", "--think-ms", "-5"], ["--think-ms"]),
        (["tournament", "--workers", "0"], ["--workers"]),
        (["tournament", "--plot", "chart.jpg"], [".png"]),
        (["tournament", "--plot", "/nonexistent/dir/c.png"], ["does not exist"]),
        (["tournament", "--save", "/nonexistent/dir/t.jsonl"], ["does not exist"]),
        (["replay", "/nonexistent.json", "--plain"], ["cannot read"]),
        (["conformance", "/nonexistent"], ["does not exist"]),
        (["envs", "table", "uno"], ["is not one of"]),
        (["envs", "table", "classic", "-o", "sevenZero=maybe"], ["not a boolean"]),
        (["serve", "--port", "70000"], ["--port"]),
        (["record", "validate", "/nonexistent.json"], ["not a file"]),
        (["record", "convert", "/nonexistent.json", "out.json"], ["cannot read"]),
        (["nosuch"], ["No such command"]),
    ],
)
def test_bad_arguments_are_one_line_errors(
    args: list[str], fragments: list[str], tmp_path: Path
) -> None:
    done = run(*args, cwd=tmp_path)
    user_error(done, *fragments)
    assert list(tmp_path.iterdir()) == []  # nothing was written


def test_default_tournament_says_how_long_it_takes(tmp_path: Path) -> None:
    """A tournament of bots that think a fixed time (here 700 ms of CPU per
    decision, 100 games) announces its duration before the first game; a bad
    --plot is refused before any game is played. (The default ``hard`` thinks
    by count, a few ms: its tournaments are quick and say nothing.)"""
    done = run("tournament", "--plot", str(tmp_path / "missing" / "c.png"), cwd=tmp_path)
    user_error(done, "does not exist")
    assert "rounds" not in done.stdout  # no game was played
    proc = subprocess.Popen(
        [*UNOKIT, "tournament", "--workers", "1", "--think-ms", "700"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert "expect about" in first and "min" in first, first


def test_outputs_are_refused_before_work_and_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = run("sim", "--games", "3", "--bots", "heuristic", "--save", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = out.read_text()
    assert len(first.splitlines()) == 3
    again = run("sim", "--games", "2", "--save", str(out), cwd=tmp_path)
    user_error(again, "exists", "--force")
    assert out.read_text() == first
    forced = run("sim", "--games", "2", "--save", str(out), "--force", cwd=tmp_path)
    assert forced.returncode == 0 and len(out.read_text().splitlines()) == 2
    user_error(run("sim", "--save", str(tmp_path / "x.json"), cwd=tmp_path), ".jsonl")
    # no temporary file is left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # readable like any file


def test_every_command_works(tmp_path: Path) -> None:
    sim = run("sim", "--games", "5", "--players", "3", "--bots", "heuristic", "--json")
    assert sim.returncode == 0 and json.loads(sim.stdout)["rounds"] == 5
    t = run(
        "tournament",
        "--bots",
        "heuristic,random",
        "--games",
        "4",
        "--workers",
        "1",
        "--save",
        str(tmp_path / "t.jsonl"),
        "--plot",
        str(tmp_path / "t.png"),
    )
    assert t.returncode == 0, t.stderr
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    conf = run("conformance", str(SCENARIOS), "-q")
    assert conf.returncode == 0 and conf.stdout.strip().endswith("0 failed")
    empty = tmp_path / "empty"
    empty.mkdir()
    user_error(run("conformance", str(empty)), "no scenario files")
    rec = tmp_path / "match.json"
    play = run(
        "play", "--plain", "--players", "2", "--seed", "3", "--save", str(rec), stdin="quit\n"
    )
    assert play.returncode == 0 and "deal commitment" in play.stdout
    rp = run("replay", str(rec), "--plain", stdin="n\nquit\n")
    assert rp.returncode == 0 and "Step 1 of" in rp.stdout
    user_error(run("replay", str(rec), "--plain", "--at", "9999"), "--at")
    sample = ROOT / "tests" / "data" / "records" / "flex.jsonl"
    one = run("replay", str(sample), "--plain", "--game", "2", stdin="quit\n")
    assert one.returncode == 0 and "Replay of a flex record" in one.stdout
    user_error(run("replay", str(sample), "--plain", "--game", "99"), "lines 1-5")
    val = run("record", "validate", str(rec), str(tmp_path / "t.jsonl"))
    assert val.returncode == 0 and val.stdout.strip().endswith("5 valid, 0 invalid")
    seat = tmp_path / "seat.json"
    conv = run("record", "convert", str(rec), str(seat), "--seat", "0")
    assert conv.returncode == 0 and json.loads(seat.read_text())["view"] == 0
    user_error(run("record", "convert", str(seat), str(tmp_path / "full.json")), "view")
    sample = run("record", "sample", str(tmp_path / "ds"), "--games", "2", "--variant", "flip")
    assert (
        sample.returncode == 0
        and len((tmp_path / "ds" / "flip.jsonl").read_text().splitlines()) == 2
    )
    for sub in ("table", "layout"):
        env = run("envs", sub, "flex", "--json")
        assert env.returncode == 0 and json.loads(env.stdout)["size"] > 0


@pytest.mark.parametrize(
    ("args", "block", "extra"),
    [
        (["play", "--players", "2"], ("textual",), "tui"),
        (["replay", "RECORD"], ("textual",), "tui"),
        (["envs", "table"], ("numpy",), "rl"),
        (["envs", "layout", "flip"], ("numpy",), "rl"),
        (["tournament", "--games", "2", "--plot", "c.png"], ("matplotlib",), "rl"),
        (["serve", "--port", "0"], ("fastapi", "uvicorn"), "web"),
    ],
)
def test_a_missing_extra_names_its_install(
    args: list[str], block: tuple[str, ...], extra: str, blocker: Path, tmp_path: Path
) -> None:
    record = tmp_path / "r.json"
    if "RECORD" in args:
        from unokit import Game
        from unokit.records.record import dump

        dump(Game.new("classic", 2, seed=1), record)
        args = [str(record) if a == "RECORD" else a for a in args]
    done = run(*args, cwd=tmp_path, block=block, blocker=blocker)
    user_error(done, f"pip install 'unokit[{extra}]'")
    assert not (tmp_path / "c.png").exists()


def test_plain_modes_need_no_textual(blocker: Path, tmp_path: Path) -> None:
    rec = tmp_path / "m.json"
    play = run(
        "play",
        "--plain",
        "--players",
        "2",
        "--seed",
        "5",
        "--save",
        str(rec),
        stdin="quit\n",
        block=("textual",),
        blocker=blocker,
    )
    assert play.returncode == 0, play.stderr
    rp = run("replay", str(rec), "--plain", stdin="quit\n", block=("textual",), blocker=blocker)
    assert rp.returncode == 0 and "Replay of a classic record" in rp.stdout, rp.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_readme_make_serve_then_make_test_steps(tmp_path: Path) -> None:
    """The README's two commands: ``make serve`` runs ``unokit serve`` (here on
    a free port and a fresh database: it answers), and ``make test`` runs lint,
    types and the tests, running the scenarios once."""
    port = _free_port()
    env = dict(os.environ, UNOKIT_DATA_DIR=str(tmp_path))
    server = subprocess.Popen(
        [*UNOKIT, "serve", "--port", str(port), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        page = b""
        for _ in range(300):  # a bound, not a timing assertion
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read()
                    break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.1)
        assert b"<html" in page.lower(), server.stderr.read() if server.poll() is not None else ""
    finally:
        server.terminate()
        server.wait(timeout=30)
    plan = subprocess.run(
        ["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert plan.returncode == 0, plan.stderr
    assert "ruff check" in plan.stdout and "mypy" in plan.stdout and "pytest" in plan.stdout
    assert "unokit conformance" not in plan.stdout  # the unit tests run every scenario once
