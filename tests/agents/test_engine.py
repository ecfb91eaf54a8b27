"""The engine protocol: the C reference engine in tournaments, and engines that
crash, hang, talk nonsense or answer illegal moves (they lose that game, the
tournament goes on)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unokit import Game
from unokit.agents.engine_protocol import EngineBot, EngineError, position_lines
from unokit.bots import make_bot
from unokit.bots.tournament import engine_specs, parse_bots, run_tournament
from unokit.cli import app
from unokit.engine.errors import OptionError

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples" / "engine" / "firstplay.c"
runner = CliRunner()


@pytest.fixture(scope="session")
def firstplay(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The reference engine, compiled with the machine's gcc."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    assert gcc is not None, "the engine tests compile examples/engine/firstplay.c: install gcc"
    out = tmp_path_factory.mktemp("engine") / "firstplay"
    subprocess.run([gcc, "-O2", "-Wall", "-Werror", "-o", str(out), str(SOURCE)], check=True)
    return str(out)


def script(tmp_path: Path, name: str, on_go: str) -> str:
    """A POSIX shell engine that shakes hands and then does ``on_go`` at ``go``."""
    path = tmp_path / name
    path.write_text(
        "#!/bin/sh\n"
        "while IFS= read -r line; do\n"
        '  case "$line" in\n'
        "    uep) echo 'id name test'; echo uepok ;;\n"
        f"    go*) {on_go} ;;\n"
        "    quit) exit 0 ;;\n"
        "  esac\n"
        "done\n"
    )
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_heuristic_against_the_reference_engine(firstplay: str, variant: str) -> None:
    specs = parse_bots("heuristic") + engine_specs([firstplay], 5000)
    r = run_tournament(variant, 2, specs, games=16, seed=5, workers=1)
    engine = r.bots["engine:firstplay"]
    assert engine.games == 16 and r.bots["heuristic"].games == 16
    assert engine.forfeits == 0 and r.forfeits() == []
    assert engine.decisions > 16  # it really played: several decisions per round
    assert 0 < engine.wins < 16  # it wins some rounds, and loses some


def test_engine_sees_only_the_observation() -> None:
    g = Game.new("flip", 3, seed=9)
    obs = g.observe(1)
    lines = position_lines(obs)
    data = json.loads(next(x for x in lines if x.startswith("json "))[5:])
    expected = obs.to_dict()
    expected.pop("history")
    assert data == expected  # no other hand, no draw order, no seed
    i = lines.index(f"legal {len(obs.legal)}")
    assert lines[i + 1 : -1] == [str(a) for a in obs.legal]


def test_a_crashing_engine_loses_and_the_tournament_goes_on(tmp_path: Path, firstplay: str) -> None:
    crash = script(tmp_path, "crash.sh", "echo 'segfault, sorry' >&2; exit 3")
    specs = parse_bots("heuristic") + engine_specs([firstplay, crash], 2000)
    r = run_tournament("classic", 2, specs, games=12, seed=1, workers=1)
    assert r.bots["engine:crash.sh"].forfeits == r.bots["engine:crash.sh"].games == 8
    assert r.bots["engine:crash.sh"].wins == 0
    assert r.bots["engine:firstplay"].forfeits == 0 and r.bots["heuristic"].forfeits == 0
    reasons = {f["reason"] for f in r.forfeits()}
    assert all("exited with status 3" in x and "segfault, sorry" in x for x in reasons)
    # the crash's opponent won each of those games
    for res in r.results:
        if res.forfeit >= 0:
            assert res.winners == (1 - res.forfeit,)


def test_a_hanging_engine_loses_on_time(tmp_path: Path) -> None:
    hang = script(tmp_path, "hang.sh", "sleep 30")
    specs = parse_bots("heuristic") + engine_specs([hang], 150)
    r = run_tournament("classic", 2, specs, games=2, seed=1, workers=1)
    assert r.bots["engine:hang.sh"].forfeits == 2
    assert r.bots["heuristic"].wins == 2
    assert all("gave no answer in time" in f["reason"] for f in r.forfeits())


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("echo 'move P7 UNO'", "illegal move 'P7 UNO'; legal: P"),
        ("echo 'move P0 PLAY Q9'", "which is not a command"),
        ("echo 'I resign'", "answered 'I resign' where 'move COMMAND' was expected"),
    ],
)
def test_bad_answers_lose_with_a_clear_message(tmp_path: Path, answer: str, message: str) -> None:
    bad = script(tmp_path, "bad.sh", answer)
    bot = EngineBot(command=bad, timeout_ms=2000)
    g = Game.new("classic", 2, seed=3)
    with pytest.raises(EngineError) as e:
        bot.act(g.observe(g.current))
    assert message in str(e.value) and e.value.seat == g.current
    bot.close()


def test_engine_calls_uno_and_plays_whole_matches(firstplay: str) -> None:
    bot = make_bot("engine", command=firstplay)
    other = make_bot("heuristic", seed=2)
    g = Game.new("flex", 2, seed=11)
    from unokit.bots.sim import play_match

    try:
        play_match(g, [bot, other])
    finally:
        bot.close()  # type: ignore[attr-defined]
    assert g.is_over and g.match_winners


def test_bad_engine_commands_are_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="not found"):
        EngineBot(command=str(tmp_path / "nope"))
    with pytest.raises(OptionError, match="needs a command"):
        make_bot("engine")
    res = runner.invoke(
        app,
        ["tournament", "--bots", "heuristic", "--engine", str(tmp_path / "nope"), "--games", "2"],
    )
    assert res.exit_code == 2 and "not found" in res.output
    res = runner.invoke(app, ["tournament", "--engine-timeout-ms", "0", "--engine", "sh"])
    assert res.exit_code == 2 and "must be at least 1" in res.output


def test_tournament_command_with_an_engine(tmp_path: Path, firstplay: str) -> None:
    crash = script(tmp_path, "crash.sh", "exit 1")
    res = runner.invoke(
        app,
        [
            "tournament",
            "--bots",
            "heuristic",
            "--engine",
            firstplay,
            "--engine",
            crash,
            "--games",
            "6",
            "--workers",
            "2",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["bots"]["engine:crash.sh"]["forfeits"] == 4
    assert out["bots"]["engine:firstplay"]["forfeits"] == 0
    assert {f["bot"] for f in out["forfeits"]} == {"engine:crash.sh"}


def test_play_seats_the_engine_and_a_failing_engine_hands_over(
    tmp_path: Path, firstplay: str
) -> None:
    res = runner.invoke(app, ["play", "--plain", "--players", "2", "--seed", "4",
                              "--engine", firstplay], input="draw\nquit\n")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Goodbye" in res.output
    crash = script(tmp_path, "crash.sh", "exit 5")
    res = runner.invoke(app, ["play", "--plain", "--players", "2", "--seed", "4",
                              "--engine", crash], input="draw\nquit\n")  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "exited with status 5; normal plays the seat from now on" in res.output
