"""The docs' examples, run (issue 29): every fenced block marked
``<!-- doc-example: NAME -->`` in protocol.md, bot-api.md, mcp.md and
engine-protocol.md is sent to a live server (or the engine host) and the
answers are checked against the documented shapes.

A marked block is the fenced block right after the marker. Values the docs
abbreviate (``"..."``, ``"…"`` keys) stand for "more of the same" and are not
compared; every other key must be there, and no other."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
MARKED = re.compile(r"<!-- doc-example: (\S+) -->\s*\n```[a-z]*\n(.*?)\n```", re.S)


def examples(doc: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, body in MARKED.findall((DOCS / doc).read_text(encoding="utf-8")):
        assert name not in found, f"{doc}: two examples named {name}"
        found[name] = body
    return found


def json_lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def same_keys(documented: dict[str, Any], actual: dict[str, Any], where: str) -> None:
    keys = {k for k in documented if k not in ("...", "…")}
    if len(keys) < len(documented):  # abbreviated: only these must be there
        assert keys <= set(actual), (where, keys - set(actual))
    else:
        assert keys == set(actual), (where, keys ^ set(actual))


def test_every_doc_has_marked_examples() -> None:
    for doc, least in (
        ("protocol.md", 8),
        ("bot-api.md", 2),
        ("mcp.md", 1),
        ("engine-protocol.md", 2),
    ):
        assert len(examples(doc)) >= least, doc


# ---------------------------------------------------------------- protocol.md, bot-api.md


@pytest.fixture
def live(tmp_path: Path) -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from unokit.web.app import create_app
    from unokit.web.config import Settings

    settings = Settings(db_url=f"sqlite:///{tmp_path / 'docs.sqlite3'}", bot_delay=0.0)
    with TestClient(create_app(settings)) as client:
        yield client


def test_protocol_examples(live: Any) -> None:
    ex = examples("protocol.md")
    meta = live.get("/api/meta").json()
    documented = json.loads(ex["meta"])
    same_keys(documented, meta, "meta")
    assert documented["bots"] == meta["bots"]
    assert documented["variants"] == meta["variants"]
    same_keys(documented["options"], meta["options"], "meta options")
    for key, spec in documented["options"].items():
        if key != "...":
            assert spec == meta["options"][key], key
    # create the documented room, then compare the reply with the documented one
    r = live.post("/api/rooms", json=json.loads(ex["create-room"]))
    assert r.status_code == 201, r.text
    reply = r.json()
    same_keys(json.loads(ex["create-reply"]), reply, "create reply")
    code = reply["room"]
    # join it as documented
    r = live.post(f"/api/rooms/{code}/join", json=json.loads(ex["join-room"]))
    assert r.status_code == 200, r.text
    info = live.get(f"/api/rooms/{code}").json()
    doc_info = json.loads(ex["room-info"])
    same_keys(doc_info, info, "room info")
    for doc_seat, seat in zip(doc_info["seats"], info["seats"], strict=True):
        same_keys(doc_seat, seat, "room info seat")
        assert doc_seat["kind"] == seat["kind"] and doc_seat["level"] == seat["level"]
        if seat["kind"] == "bot":
            assert doc_seat["name"] == seat["name"]  # a person's name, as documented
    # the host's chat mode call
    body = json.loads(ex["chat-mode"])
    body["token"] = reply["token"]
    r = live.post(f"/api/rooms/{code}/chat", json=body)
    assert r.status_code == 200 and r.json() == {"chat": body["chat"]}
    # the WebSocket messages: hello (as a player, then as a spectator), ping
    hello_seat, hello_spectator = json_lines(ex["hello"])
    ping = json_lines(ex["ping"])[0]
    with live.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps(dict(hello_seat, token=reply["token"])))
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == reply["seat"]
        ws.send_text(json.dumps(ping))
        for _ in range(50):
            msg = ws.receive_json()
            if msg["type"] == "pong":
                assert msg == {"type": "pong", "id": ping["id"]}
                break
        else:
            raise AssertionError("no pong")
    with live.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps(hello_spectator))
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["spectator"] is True


def test_bot_api_examples(live: Any) -> None:
    ex = examples("bot-api.md")
    payload = re.search(r"-d '(.*)'", ex["bot-create"], re.S)
    assert payload is not None
    r = live.post("/api/rooms", json=json.loads(payload.group(1)))
    assert r.status_code == 201, r.text
    reply = r.json()
    documented = json.loads(ex["bot-create-reply"])
    same_keys(documented, reply, "bot room reply")
    assert [e["seat"] for e in reply["external"]] == [e["seat"] for e in documented["external"]]
    # the reserved seat plays with its token
    with live.websocket_connect(f"/ws/{reply['room']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": reply["external"][0]["token"]}))
        assert ws.receive_json()["seat"] == documented["external"][0]["seat"]


# ---------------------------------------------------------------- mcp.md


async def test_mcp_examples() -> None:
    pytest.importorskip("mcp")
    import os

    from mcp import Client, StdioServerParameters
    from mcp.types import CallToolResult

    shapes = json.loads(examples("mcp.md")["mcp-results"])
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "unokit", "mcp"], env=dict(os.environ)
    )

    def result(r: CallToolResult) -> dict[str, Any]:
        assert not r.is_error, r.content
        out = r.structured_content
        assert isinstance(out, dict)
        return dict(out.get("result", out))

    async with Client(server) as client:
        got = {}
        got["new_game"] = result(
            await client.call_tool("new_game", {"seed": 4, "opponents": "random"})
        )
        gid = got["new_game"]["game_id"]
        got["get_observation"] = result(await client.call_tool("get_observation", {}))
        got["get_observation json"] = result(
            await client.call_tool("get_observation", {"format": "json", "game_id": gid})
        )
        got["legal_moves"] = result(await client.call_tool("legal_moves", {"game_id": gid}))
        got["get_rules"] = result(await client.call_tool("get_rules", {}))
        got["ask_bot"] = result(await client.call_tool("ask_bot", {"level": "random"}))
        move = got["legal_moves"]["legal_moves"][0]
        assert set(move) == {"move", "meaning"}
        got["play_move"] = result(await client.call_tool("play_move", {"move": move["move"]}))
        r = await client.call_tool("new_game", {"opponent": "hard"})
        assert r.is_error
    assert set(got) == set(shapes)
    for tool, keys in shapes.items():
        assert set(got[tool]) == set(keys), (tool, set(got[tool]) ^ set(keys))
    obs = got["get_observation json"]["observation"]
    assert {"winner", "scores", "match_winners"} <= set(obs)


# ---------------------------------------------------------------- engine-protocol.md

LOGGER = """
import sys
log = open(sys.argv[1], "w")
legal = []
for line in sys.stdin:
    line = line.rstrip("\\n")
    log.write(line + "\\n"); log.flush()
    if line == "uep":
        print("id name logger"); print("uepok", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    elif line.startswith("legal "):
        legal = []
    elif line.startswith("P") and " " in line:
        legal.append(line)
    elif line.startswith("go "):
        print("move " + legal[0], flush=True)
    elif line == "quit":
        break
"""


def test_engine_protocol_examples(tmp_path: Path) -> None:
    from unokit import Game
    from unokit.agents.engine_protocol import EngineBot, position_lines

    ex = examples("engine-protocol.md")
    # the position block: its keys, in this order
    doc_keys = []
    for line in ex["engine-position"].splitlines()[1:]:
        key = line.split()[0] if line.strip() and not line.startswith(" ") else None
        if key is None:
            continue
        doc_keys.append(key)
        if key == "legal":
            break
    g = Game.new("classic", 2, {"jumpIn": True, "targetScore": 200}, seed=3)
    seat = g.to_act
    assert seat is not None
    lines = position_lines(g.observe(seat))
    keys = [line.split()[0] for line in lines[1:]]
    assert keys[: keys.index("legal") + 1] == doc_keys
    # the exchange: what the host sends before the first position, exactly
    script = tmp_path / "logger.py"
    script.write_text(LOGGER)
    log = tmp_path / "in.log"
    bot = EngineBot(seed=seat, command=f"{sys.executable} {script} {log}", timeout_ms=5000)
    try:
        action = bot.act(g.observe(seat))
    finally:
        bot.close()
    assert str(action) in [str(a) for a in g.observe(seat).legal]
    sent = log.read_text().splitlines()
    documented = [line[2:] for line in ex["engine-exchange"].splitlines() if line.startswith("> ")]
    head = documented[: documented.index("position")]
    head = [line.replace("P1", f"P{seat}") for line in head]
    assert sent[: sent.index("position")] == head
