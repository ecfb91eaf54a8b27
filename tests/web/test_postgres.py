"""The server on PostgreSQL: starts its own PostgreSQL (initdb + pg_ctl on a free
port of 127.0.0.1, in a temporary directory: :mod:`unokit.testing.servers`),
runs ``unokit serve --db postgresql://...`` and plays a whole match through the same code path as
SQLite, then kills the server with SIGKILL and checks that the game resumes.

A PostgreSQL that cannot start (binaries missing included) fails the test: it
never skips (`make system-deps` installs PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from unokit.testing.servers import ServerError, postgres

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def pg() -> Iterator[str]:
    try:
        with postgres(fsync=False) as url:
            yield url
    except ServerError as e:  # MissingServerError included: a missing server fails
        pytest.fail(f"{e} (make system-deps installs PostgreSQL)")


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
