"""Records of web matches and of datasets (issue 29, items 8 and 9): a record
downloaded after a web match carries the deal commitments shown during play,
with their salts, the bot levels and the match's own end time, and
``unokit record validate`` checks them; ``unokit record convert`` converts a
``*.jsonl`` dataset record by record."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unokit.records.record import loads

from .conftest import WS, create_room

REPO = Path(__file__).resolve().parents[2]
UNOKIT = [sys.executable, "-m", "unokit"]
SEVERAL_ROUNDS = 1  # the first room seed whose match below has 2 rounds or more


def unokit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*UNOKIT, *args], capture_output=True, text=True, timeout=120)


def play_match(client: TestClient) -> tuple[dict[str, Any], dict[int, str]]:
    """Ann against a heuristic bot, a whole match of several rounds, by first
    legal commands; returns the room and the commitment read at each deal."""
    room = create_room(client, options={"targetScore": 120, "handSize": 2})
    code, token = room["room"], room["token"]
    seen: dict[int, str] = {}
    with client.websocket_connect(f"/ws/{code}") as s:
        ws = WS(s)
        ws.send({"type": "hello", "token": token})
        n = 10
        for _ in range(5000):
            st = ws.state()
            obs = st["observation"]
            if obs["round"] not in seen and obs["phase"] not in ("ROUND_OVER", "MATCH_OVER"):
                deal = client.get(f"/api/rooms/{code}/deal").json()
                assert deal["match"] == 1 and "salt" not in deal
                seen[deal["round"]] = deal["commitment"]
            if obs["phase"] == "MATCH_OVER":
                break
            n += 1
            if obs["phase"] == "ROUND_OVER":
                ws.send({"type": "next_round", "id": n})
                ws.reply(n)
                continue
            mine = [c for c in obs["legal"] if " UNO" not in c and " CATCH" not in c]
            if obs["current"] != 0 or not mine:
                continue
            ws.send({"type": "command", "id": n, "text": mine[0]})
            ws.reply(n)
        else:
            raise AssertionError("the match did not end")
    return room, seen


def last_row_time(client: TestClient, code: str) -> float:
    from sqlalchemy import func, select

    from unokit.web.store import room_log

    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as c:
        last = c.execute(
            select(func.max(room_log.c.seq)).where(room_log.c.room == code)
        ).scalar_one()
        t: float = c.execute(
            select(room_log.c.created).where(room_log.c.room == code, room_log.c.seq == last)
        ).scalar_one()
    return t


def test_web_record_has_commitments_bots_and_end(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the room's seeds in order (the match's deal, the bot's decisions): a random
    # first round may score the 120 points alone, and this match must have several
    seeds = itertools.count(SEVERAL_ROUNDS)
    monkeypatch.setattr("unokit.web.room.new_seed", lambda: next(seeds))
    room, seen = play_match(client)
    code, token = room["room"], room["token"]
    r = client.post(f"/api/rooms/{code}/record", json={"token": token, "match": 1})
    assert r.status_code == 200, r.text
    rec = loads(r.text)
    rounds = rec.replay().round_no
    assert rounds >= 2 and len(seen) == rounds, (rounds, seen)
    # the commitments shown at each deal, each with its salt now that it is over
    assert [d["round"] for d in rec.deals] == list(range(1, rounds + 1))
    assert {d["round"]: d["commitment"] for d in rec.deals} == seen
    assert all(len(d["salt"]) == 32 for d in rec.deals)
    assert rec.bots == [None, "heuristic"]
    ended = datetime.fromtimestamp(last_row_time(client, code), UTC)
    assert rec.meta["ended"] == ended.isoformat(timespec="seconds").replace("+00:00", "Z")
    assert rec.meta["started"] <= rec.meta["ended"]
    # validated with its commitments checked: a changed salt is caught
    good = tmp_path / "web.json"
    good.write_text(r.text, encoding="utf-8")
    out = unokit("record", "validate", str(good))
    assert out.returncode == 0 and "1 valid, 0 invalid" in out.stdout, out.stdout + out.stderr
    data = json.loads(r.text)
    data["deals"][0]["salt"] = "0" * 32
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    out = unokit("record", "validate", str(bad))
    assert out.returncode == 1 and "round 1" in out.stdout, out.stdout
    # the same record when asked again (not the time of the download)
    again = client.post(f"/api/rooms/{code}/record", json={"token": token, "match": 1})
    assert again.text == r.text


def test_no_deal_before_the_first_match(client: TestClient) -> None:
    room = create_room(client, seats=[{"kind": "human"}, {"kind": "human"}])
    r = client.get(f"/api/rooms/{room['room']}/deal")
    assert r.status_code == 409 and "dealt" in r.json()["detail"]
    assert client.get("/api/rooms/nosuchroom/deal").status_code == 404


def test_convert_a_jsonl_dataset(tmp_path: Path) -> None:
    source = REPO / "tests" / "data" / "records" / "classic.jsonl"
    n = sum(1 for line in source.read_text().splitlines() if line.strip())
    full = tmp_path / "full.jsonl"
    out = unokit("record", "convert", str(source), str(full))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = full.read_text().splitlines()
    assert len(lines) == n and all(json.loads(line)["seed"] is not None for line in lines)
    assert unokit("record", "validate", "--quiet", str(full)).returncode == 0
    view = tmp_path / "p1.jsonl"
    out = unokit("record", "convert", str(source), str(view), "--seat", "1")
    assert out.returncode == 0, out.stdout + out.stderr
    views = [loads(line) for line in view.read_text().splitlines()]
    assert len(views) == n and all(v.view == 1 for v in views)
    assert unokit("record", "validate", "--quiet", str(view)).returncode == 0
    # a broken line: a clear error naming it, nothing written
    broken = tmp_path / "broken.jsonl"
    first, *rest = source.read_text().splitlines()
    broken.write_text("\n".join([first, "{not json", *rest]) + "\n")
    target = tmp_path / "none.jsonl"
    out = unokit("record", "convert", str(broken), str(target))
    assert out.returncode != 0 and "broken.jsonl:2" in out.stdout + out.stderr
    assert not target.exists()
