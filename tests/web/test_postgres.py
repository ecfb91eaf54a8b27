"""The server on PostgreSQL: starts its own PostgreSQL (initdb + pg_ctl on a free
port of 127.0.0.1, in a temporary directory), runs ``unokit serve --db
postgresql://...`` and plays a whole match through the same code path as
SQLite, then kills the server with SIGKILL and checks that the game resumes.

Skipped only when the PostgreSQL server binaries are not installed."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.timeout(300)


def pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: use the postgres account then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[str]:
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = Path(tempfile.mkdtemp(prefix="unokit-pg-", dir="/tmp"))
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    base.chmod(0o700)
    logfile = base / "postgres.log"
    try:
        subprocess.run(
            as_postgres(
                [
                    initdb,
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "--no-sync",
                    "-E",
                    "UTF8",
                ]
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1"
        subprocess.run(
            as_postgres(
                [pg_ctl, "-D", str(data), "-o", opts, "-l", str(logfile), "-w", "-t", "60", "start"]
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(base, ignore_errors=True)


def test_a_whole_match_on_postgresql(pg: str, server_factory: Any, net: Any) -> None:
    server = server_factory(pg)
    server.start()
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "heuristic"},
        {"kind": "bot", "level": "random"},
    ]
    out = net.create(
        server.http,
        {"variant": "classic", "seats": seats, "name": "Ann", "options": {"targetScore": 150}},
    )
    code, token = out["room"], out["token"]
    ws = net.ws(f"{server.ws}/ws/{code}")
    ws.send({"type": "hello", "token": token})
    msg_id = 0
    killed = False
    while True:
        st = ws.state(
            lambda m: (
                m["observation"] is not None
                and (
                    m["observation"]["phase"] in ("ROUND_OVER", "MATCH_OVER")
                    or (m["observation"]["current"] == 0 and bool(m["observation"]["legal"]))
                )
            )
        )
        obs = st["observation"]
        if obs["phase"] == "MATCH_OVER":
            break
        if msg_id >= 3 and not killed and obs["phase"] != "ROUND_OVER":
            # mid-round, after a few commands (a first round may well end the
            # match: its points can pass the target): SIGKILL, restart on the
            # same database, same view
            server.kill()
            ws.close()
            killed = True
            server.start()
            ws = net.ws(f"{server.ws}/ws/{code}")
            ws.send({"type": "hello", "token": token})
            again = ws.state()
            assert again["version"] == st["version"]
            assert again["observation"] == obs
        msg_id += 1
        if obs["phase"] == "ROUND_OVER":
            ws.send({"type": "next_round", "id": msg_id})
        else:
            legal = obs["legal"]
            ws.send(
                {
                    "type": "command",
                    "id": msg_id,
                    "text": next((a for a in legal if "PLAY" in a), legal[0]),
                }
            )
        assert ws.reply(msg_id)["type"] == "ack"
    assert killed and max(obs["scores"]) >= 150
    ws.close()

    from sqlalchemy import create_engine, text

    engine = create_engine(pg.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        count = conn.execute(text("SELECT count(*) FROM log WHERE room = :r"), {"r": code}).scalar()
        status = conn.execute(
            text("SELECT status FROM rooms WHERE code = :r"), {"r": code}
        ).scalar()
    engine.dispose()
    assert count == st["version"] and status == "playing"
