"""Durability: a ``unokit serve`` process killed with SIGKILL mid-game and
started again on the same SQLite file resumes every game exactly.

* At a quiet moment (the human's turn; bots wait for it) the reconnected seat
  gets exactly the observation it had before the kill, and play goes on.
* Killed right after an ``ack``: the acknowledged command survived, and the
  restored game is the replay of the stored log.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from unokit import Game

pytestmark = pytest.mark.timeout(180)


def stored_log(db: Path, code: str) -> list[str]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT text FROM log WHERE room = ? ORDER BY seq", (code,)).fetchall()
    return [r[0] for r in rows]


def replay(log: list[str], variant: str, players: int) -> Game:
    g: Game | None = None
    for line in log:
        if line.startswith("#MATCH "):
            g = Game.new(variant, players, None, int(line[7:]))
        else:
            assert g is not None
            g.apply(line)
    assert g is not None
    return g


def my_turn(seat: int) -> Any:
    def pred(m: dict[str, Any]) -> bool:
        obs = m["observation"]
        return bool(
            obs and (obs["phase"] == "ROUND_OVER" or (obs["current"] == seat and obs["legal"]))
        )

    return pred


def act(ws: Any, st: dict[str, Any], msg_id: int) -> dict[str, Any]:
    """Play the first legal action (or deal the next round); returns the ack."""
    if st["observation"]["phase"] == "ROUND_OVER":
        ws.send({"type": "next_round", "id": msg_id})
    else:
        legal = st["observation"]["legal"]
        text = next((a for a in legal if "PLAY" in a), legal[0])
        ws.send({"type": "command", "id": msg_id, "text": text})
    reply = ws.reply(msg_id)
    assert reply["type"] == "ack", reply
    return reply


@pytest.mark.parametrize("variant", ["classic", "flip", "flex"])
def test_sigkill_and_restart_resume_the_game(
    tmp_path: Path, server_factory: Any, net: Any, variant: str
) -> None:
    db = tmp_path / "restart.sqlite3"
    server = server_factory(f"sqlite:///{db}")
    server.start()
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "heuristic"},
        {"kind": "bot", "level": "random"},
    ]
    out = net.create(server.http, {"variant": variant, "seats": seats, "name": "Ann"})
    code, token = out["room"], out["token"]

    ws = net.ws(f"{server.ws}/ws/{code}")
    ws.send({"type": "hello", "token": token})
    st = ws.state(my_turn(0))
    for i in range(12):
        act(ws, st, i)
        st = ws.state(my_turn(0))
    # quiet: it is our decision, the bots wait; the server is killed now
    before = st
    assert before["version"] > 12
    server.kill()
    ws.close()

    server.start()
    ws = net.ws(f"{server.ws}/ws/{code}")
    ws.send({"type": "hello", "token": token})
    welcome = ws.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == 0
    after = ws.state()
    assert after["version"] == before["version"]
    assert after["observation"] == before["observation"]
    assert after["info"]["seats"] == before["info"]["seats"]

    # play goes on: one more command, then kill right after its ack
    ack = act(ws, after, 100)
    assert ack["version"] == before["version"] + 1
    server.kill()
    ws.close()
    log = stored_log(db, code)
    assert len(log) >= ack["version"]
    server.start()
    ws = net.ws(f"{server.ws}/ws/{code}")
    ws.send({"type": "hello", "token": token})
    st = ws.state()
    assert st["version"] >= ack["version"]
    log = stored_log(db, code)
    expected = replay(log[: st["version"]], variant, 3)
    assert st["observation"] == json.loads(json.dumps(expected.observe(0).to_dict()))
    st = ws.state(my_turn(0)) if not my_turn(0)(st) else st
    act(ws, st, 101)
    ws.close()
