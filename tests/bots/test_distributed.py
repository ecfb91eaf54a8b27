"""sim and tournament give the same results wherever their games run: in this
process, on local worker processes, on a local Ray instance or on a Ray
cluster reached by address."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest

from unokit.bots.distributed import RAY_HINT, ProcessRunner, SerialRunner, make_runner
from unokit.bots.sim import SimResult, simulate
from unokit.bots.tournament import TournamentResult, parse_bots, run_tournament
from unokit.engine.errors import OptionError

UNOKIT = str(Path(sys.executable).with_name("unokit"))


def _games(r: TournamentResult) -> list[dict[str, object]]:
    """Every game's outcome, without the thinking times (which vary)."""
    out = []
    for g in sorted(r.results, key=lambda g: g.index):
        d = asdict(g)
        d.pop("seconds")
        d.pop("slowest")
        out.append(d)
    return out


def _sim(r: SimResult) -> dict[str, object]:
    d = r.to_dict()
    d.pop("seconds")
    d.pop("rounds_per_second")
    return d


def test_make_runner_choices() -> None:
    assert isinstance(make_runner(1), SerialRunner)
    assert isinstance(make_runner(3), ProcessRunner)
    with pytest.raises(OptionError, match="at least 1"):
        make_runner(0)
    with pytest.raises(OptionError, match="'local' or a cluster address"):
        make_runner(None, ray=" ")
    with pytest.raises(OptionError, match="not 'local', 'auto' or HOST:PORT"):
        list(make_runner(None, ray="nowhere").map(abs, [1]))


def test_missing_ray_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ModuleNotFoundError
    with pytest.raises(OptionError) as e:
        make_runner(None, ray="local")
    assert str(e.value) == RAY_HINT
    assert "pip install 'unokit[ray]'" in RAY_HINT


def test_unreachable_cluster_fails_fast() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run(
        [UNOKIT, "sim", "--games", "2", "--ray", f"127.0.0.1:{port}"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot reach the Ray cluster" in done.stderr
    assert "Traceback" not in done.stderr


def test_sim_same_on_processes() -> None:
    args = ("classic", 3, 40)
    kw = {"seed": 5, "bots": ["heuristic", "random", "heuristic"]}
    one = simulate(*args, **kw)  # type: ignore[arg-type]
    two = simulate(*args, workers=2, **kw)  # type: ignore[arg-type]
    assert _sim(one) == _sim(two)
    assert one.rounds == 40 and sum(one.wins) + one.blocked == 40


def test_tournament_same_on_processes() -> None:
    specs = parse_bots("heuristic,random")
    a = run_tournament("flex", 2, specs, games=12, seed=9, workers=1)
    b = run_tournament("flex", 2, specs, games=12, seed=9, workers=2)
    assert _games(a) == _games(b)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    import ray  # the [ray] extra is part of make test: missing, this fails

    assert ray.__version__
    yield


def test_sim_and_tournament_same_on_local_ray(ray_local: None) -> None:
    specs = parse_bots("heuristic,random")
    local = run_tournament("flip", 2, specs, games=16, seed=3, workers=1)
    on_ray = run_tournament("flip", 2, specs, games=16, seed=3, workers=2, ray="local")
    assert _games(local) == _games(on_ray)
    assert local.to_dict()["head_to_head"] == on_ray.to_dict()["head_to_head"]
    kw = {"seed": 11, "bots": ["heuristic", "random"]}
    assert _sim(simulate("classic", 2, 30, **kw)) == _sim(  # type: ignore[arg-type]
        simulate("classic", 2, 30, workers=2, ray="local", **kw)  # type: ignore[arg-type]
    )


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A one-node Ray cluster on 127.0.0.1, started with ``ray start`` and stopped after."""
    import ray  # noqa: F401  (the [ray] extra is part of make test)

    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray_cli is not None, "the ray command comes with the [ray] extra"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, RAY_TMPDIR=str(tmp_path_factory.mktemp("ray")))
    start = [ray_cli, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1",
             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"]  # fmt: skip
    subprocess.run(start, check=True, capture_output=True, timeout=120, env=env)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([ray_cli, "stop", "--force"], capture_output=True, timeout=120, env=env)


def test_cli_tournament_on_a_ray_cluster_matches_local(ray_cluster: str) -> None:
    base = [UNOKIT, "tournament", "--variant", "classic", "--bots", "heuristic,random",
            "--games", "12", "--seed", "4", "--json"]  # fmt: skip
    local = subprocess.run(base + ["--workers", "1"], capture_output=True, text=True,
                           timeout=300, check=True)  # fmt: skip
    remote = subprocess.run(base + ["--ray", ray_cluster], capture_output=True, text=True,
                            timeout=300, check=True)  # fmt: skip
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    for bot in ("heuristic", "random"):
        for key in ("games", "wins", "win_rate", "ci95", "mean_points", "elo"):
            assert a["bots"][bot][key] == b["bots"][bot][key], (bot, key)
    assert a["head_to_head"] == b["head_to_head"]


def test_cli_ray_flag_alone_means_local(ray_local: None) -> None:
    done = subprocess.run(
        [UNOKIT, "sim", "--games", "6", "--bots", "heuristic,random", "--ray", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rounds"] == 6
